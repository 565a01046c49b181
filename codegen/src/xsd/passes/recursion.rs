//! A model group referred to from an anonymous complex type inside itself:
//!
//! ```xml
//! <xs:group name="inline"><xs:choice>
//!   <xs:element name="pc"><xs:complexType mixed="true">
//!     <xs:group ref="inline" minOccurs="0" maxOccurs="unbounded"/>
//!   </xs:complexType></xs:element>
//!   ...
//! ```
//!
//! Such a schema is valid: the recursion goes through an element declaration, so each
//! content model is finite (Part 1, 3.8.6: only a group that contains itself without an
//! element between is circular). The IR holds a group's particle inline, so the anonymous
//! type (`pc`'s) cannot be converted while the group it refers to is still being
//! converted. It does not need to be: the element refers to its type by name, and the
//! generated code boxes the recursion as it does for a named type that contains itself.
//! So the anonymous type is given its name at once and converted when the group is done.
//!
//! Which groups need this is found before the conversion, from the declarations
//! ([`find`]): the conversion of a group nests, inline, the conversion of what it refers
//! to (groups, and global elements with their anonymous types and their substitution
//! groups' members), so a group is referred to from an anonymous type inside itself when
//! it lies on a cycle of such references that passes through an anonymous complex type.
//! Only the anonymous types inside those groups wait: every other anonymous type is
//! converted where it stands, so schemas without such groups convert as they always did
//! (the names of anonymous types depend on the order in which they are converted). The
//! cycles are found as strongly connected components, iteratively (Tarjan's algorithm
//! with a stack of its own), so no chain of references is followed on the thread's stack.

use std::collections::{BTreeSet, HashMap};

use xsd_parser::models::schema::xs::{ComplexBaseType, ElementType};

use super::adapter::{Item, What};
use super::{Converter, Outer};

/// What the conversion knows of groups referred to from inside themselves.
#[derive(Default)]
pub(super) struct Recursion<'a> {
    /// Groups referred to from an anonymous type inside themselves ([`find`]): while one
    /// of them is being converted, the anonymous complex types of the elements inside it
    /// wait until it is done.
    pub(super) deferring: BTreeSet<String>,
    /// The anonymous types waiting, by the group whose conversion they wait for.
    pub(super) waiting: HashMap<String, Vec<Waiting<'a>>>,
}

/// An anonymous complex type, named, to be converted once a group is done.
pub(super) struct Waiting<'a> {
    ct: &'a ComplexBaseType,
    name: String,
    at: Item<'a>,
    redefining: Option<(&'static str, String)>,
}

impl<'a> Converter<'a> {
    /// Whether the anonymous complex type `ct` of an element, to be named `name`, waits
    /// for a group being converted (it is then converted by [`Converter::group_done`]).
    /// It waits for the outermost such group: every group it may refer to in progress is
    /// done by then.
    pub(super) fn defer_anonymous_type(
        &mut self,
        ct: &'a ComplexBaseType,
        name: &str,
        at: Item<'a>,
    ) -> bool {
        if self.recursion.deferring.is_empty() {
            return false;
        }
        let Some(group) = self
            .globals
            .groups
            .in_progress
            .iter()
            .find(|g| self.recursion.deferring.contains(*g))
            .cloned()
        else {
            return false;
        };
        let waiting = Waiting {
            ct,
            name: name.to_string(),
            at,
            redefining: self.redefining.clone(),
        };
        self.recursion
            .waiting
            .entry(group)
            .or_default()
            .push(waiting);
        true
    }

    /// The group `name` is converted: the anonymous types that waited for it are
    /// converted now, each in the document and redefinition it stands in.
    pub(super) fn group_done(&mut self, name: &str) {
        let Some(waiting) = self.recursion.waiting.remove(name) else {
            return;
        };
        for w in waiting {
            let outer = Outer {
                doc: self.doc,
                redefining: self.redefining.take(),
            };
            self.set_doc(w.at.doc);
            self.redefining = w.redefining;
            let def = self.complex_type(w.ct, &w.name, w.at);
            if def.is_none() {
                self.failed.insert(w.name.clone());
            }
            self.insert(def);
            self.leave(outer);
        }
    }
}

/// A global group or element, as a node of the graph of what converting it converts.
type Component = (&'static str, String);

/// What converting each global group and element converts inline: its references, each
/// marked if it stands inside an anonymous complex type.
#[derive(Default)]
struct Graph {
    nodes: Vec<Component>,
    index: HashMap<Component, usize>,
    edges: Vec<Vec<(usize, bool)>>,
}

impl Graph {
    fn node(&mut self, c: Component) -> usize {
        if let Some(&i) = self.index.get(&c) {
            return i;
        }
        let i = self.nodes.len();
        self.index.insert(c.clone(), i);
        self.nodes.push(c);
        self.edges.push(Vec::new());
        i
    }

    fn edge(&mut self, from: usize, to: Component, anonymous: bool) {
        let to = self.node(to);
        self.edges[from].push((to, anonymous));
    }

    /// The strongly connected components (Tarjan's algorithm, its recursion kept on a
    /// stack of its own): each node's component number.
    fn components(&self) -> Vec<usize> {
        const UNSEEN: usize = usize::MAX;
        let n = self.nodes.len();
        let (mut index, mut low, mut component) = (vec![UNSEEN; n], vec![0; n], vec![UNSEEN; n]);
        let mut on_stack = vec![false; n];
        let mut stack = Vec::new();
        let (mut next_index, mut next_component) = (0, 0);
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            // (node, how many of its edges are followed)
            let mut walk = vec![(root, 0)];
            index[root] = next_index;
            low[root] = next_index;
            next_index += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut followed)) = walk.last_mut() {
                if let Some(&(w, _)) = self.edges[v].get(*followed) {
                    *followed += 1;
                    if index[w] == UNSEEN {
                        index[w] = next_index;
                        low[w] = next_index;
                        next_index += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        walk.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                walk.pop();
                if let Some(&(parent, _)) = walk.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component[w] = next_component;
                        if w == v {
                            break;
                        }
                    }
                    next_component += 1;
                }
            }
        }
        component
    }
}

/// Finds the groups referred to from an anonymous type inside themselves (see the module
/// documentation), once every component is registered and the substitution groups are
/// known; the conversion then defers the anonymous types inside them.
pub(super) fn find(cx: &mut Converter<'_>) {
    let mut graph = Graph::default();
    let mut groups: Vec<(String, Item<'_>)> = cx
        .globals
        .groups
        .raw
        .iter()
        .map(|(name, &(_, at))| (name.clone(), at))
        .collect();
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    let outer = cx.doc;
    for (name, at) in groups {
        let from = graph.node(("group", name.clone()));
        cx.set_doc(at.doc);
        // Inside the redefinition of a group, a reference to it names the original.
        cx.redefining = cx
            .in_redefine(at)
            .then(|| ("group", cx.unrenamed("group", &name)));
        references(cx, at, from, &mut graph);
        cx.redefining = None;
    }
    let mut elements: Vec<(String, &ElementType, Item<'_>)> = cx
        .globals
        .elements
        .raw
        .iter()
        .map(|(name, &(el, at))| (name.clone(), el, at))
        .collect();
    elements.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, el, at) in elements {
        let from = graph.node(("element", name.clone()));
        cx.set_doc(at.doc);
        references(cx, at, from, &mut graph);
        // A member of its substitution group is converted where it is referred to; a
        // member without a type takes its head's (converting the head).
        for member in cx.substitution_members(&name) {
            graph.edge(from, ("element", member), false);
        }
        let typed = el.type_.is_some()
            || cx
                .children(at)
                .iter()
                .any(|c| matches!(c.what, What::SimpleType(_) | What::ComplexType(_)));
        if !typed {
            for head in cx.heads(el) {
                graph.edge(from, ("element", head), false);
            }
        }
    }
    cx.set_doc(outer);
    let component = graph.components();
    // The components with a reference from inside an anonymous type within them.
    let mut through_type = vec![false; graph.nodes.len()];
    for (v, edges) in graph.edges.iter().enumerate() {
        for &(w, anonymous) in edges {
            if anonymous && component[v] == component[w] {
                through_type[component[v]] = true;
            }
        }
    }
    for (v, (kind, name)) in graph.nodes.iter().enumerate() {
        if *kind == "group" && through_type[component[v]] {
            cx.recursion.deferring.insert(name.clone());
        }
    }
}

/// The groups and global elements the declaration at `at` refers to, into `graph` as
/// edges from `from`.
fn references<'a>(cx: &Converter<'a>, at: Item<'a>, from: usize, graph: &mut Graph) {
    // (item, whether it stands inside an anonymous complex type of the declaration)
    let mut stack = vec![(at, false)];
    while let Some((item, anonymous)) = stack.pop() {
        for c in cx.children(item) {
            match c.what {
                What::Group(g) => {
                    if let Some(q) = &g.ref_ {
                        let name = cx.redefined("group", cx.ref_key("group", q));
                        graph.edge(from, ("group", name), anonymous);
                    }
                }
                What::Element(e) if e.ref_.is_some() => {
                    let name = e.ref_.as_ref().map(|q| cx.ref_key("element", q));
                    if let Some(name) = name {
                        graph.edge(from, ("element", name), anonymous);
                    }
                }
                // Below a declaration, every complex type is anonymous.
                What::ComplexType(_) => stack.push((c, true)),
                _ => stack.push((c, anonymous)),
            }
        }
    }
}
