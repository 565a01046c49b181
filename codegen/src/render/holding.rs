//! Which fields hold their value in a `Box`.
//!
//! Types hold their children by value, so a type that reaches itself through single
//! children would be infinite: the fields on such a cycle are boxed. And a value's size
//! adds up its children's: without more, the size of a type grows with the depth of the
//! schema under it (a UBL `Invoice` held, by value, parties holding addresses holding
//! countries ...), and reading it, which keeps a value of each open element on the stack,
//! overflowed 8 MiB on a 1.2 KB document. So a field whose type would take more than
//! [`LARGE`] bytes inline is boxed too: then every type's inline size is bounded by its own
//! fields, whatever lies below them, and the stack a document takes grows only with its
//! depth (which the reader bounds).
//!
//! The sizes are estimates (the generator does not know Rust's layout): a simple value is
//! taken as a `String`, which most are and few exceed; what matters is that they are
//! deterministic and grow as the real sizes do.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use petgraph::graph::{DiGraph, NodeIndex};

use crate::ir::{Content, Schema, Term, TypeKind, TypeRef};

/// A type estimated to take more bytes than this inline is held boxed. A field boxed costs
/// one allocation per element read; below this size (a few simple values) that costs more
/// than the bytes it saves on the stack.
const LARGE: usize = 128;

/// The estimated inline size of a simple value (a `String`, a `Vec`, a number or an enum).
const SIMPLE: usize = 24;

/// A pointer: a `Box`, or an `Option` of one.
const POINTER: usize = 8;

/// An enum's tag, an `Option`'s flag, a `TextForm`: a word, with padding.
const TAG: usize = 8;

/// A `Vec`: pointer, capacity, length.
const VEC: usize = 24;

/// For each schema type, the types it holds by value and what it takes inline.
pub(super) struct Holding {
    /// The strongly connected component of each type in the by-value graph: a field whose
    /// type is in its holder's component would make the holder contain itself.
    component: HashMap<String, usize>,
    /// The estimated inline size of each type, its boxed fields counted as pointers.
    size: HashMap<String, usize>,
}

impl Holding {
    /// Sizes every type of the schema, each once, children before the types holding them
    /// (the components of the by-value graph in reverse topological order).
    pub(super) fn new(schema: &Schema, by_value: &BTreeMap<String, BTreeSet<String>>) -> Self {
        let mut graph = DiGraph::<&str, ()>::new();
        let nodes: HashMap<&str, NodeIndex> = by_value
            .keys()
            .map(|name| (name.as_str(), graph.add_node(name.as_str())))
            .collect();
        for (from, to) in by_value {
            for t in to {
                if let Some(&t) = nodes.get(t.as_str()) {
                    graph.add_edge(nodes[from.as_str()], t, ());
                }
            }
        }
        // Kosaraju's algorithm, not petgraph's Tarjan: it walks the graph with an explicit
        // stack, so a chain of thousands of types does not recurse as deep.
        let components = petgraph::algo::kosaraju_scc(&graph);
        let mut holding = Holding {
            component: HashMap::new(),
            size: HashMap::new(),
        };
        for (n, members) in components.iter().enumerate() {
            for &m in members {
                holding.component.insert(graph[m].to_string(), n);
            }
        }
        // Reverse topological order: what a component holds outside itself is sized before
        // it, and inside it every field is boxed, so its members' sizes need nothing else.
        for members in &components {
            for &m in members {
                let name = graph[m];
                let size = holding.estimate(schema, name);
                holding.size.insert(name.to_string(), size);
            }
        }
        holding
    }

    /// Whether a single field or variant of type `held` inside type `holder` is boxed.
    pub(super) fn boxed(&self, holder: &str, held: &TypeRef) -> bool {
        let TypeRef::Named(held) = held else {
            return false;
        };
        let same = match (
            self.component.get(holder),
            self.component.get(held.as_str()),
        ) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        };
        same || self.size.get(held.as_str()).is_some_and(|&s| s > LARGE)
    }

    /// What a single field of type `t` in `holder` takes inline.
    fn held(&self, holder: &str, t: &TypeRef) -> usize {
        if self.boxed(holder, t) {
            return POINTER;
        }
        match t {
            TypeRef::Named(n) => self.size.get(n.as_str()).copied().unwrap_or(SIMPLE),
            TypeRef::Builtin(_) => SIMPLE,
        }
    }

    /// The estimated inline size of type `name`, its children already sized.
    fn estimate(&self, schema: &Schema, name: &str) -> usize {
        let Some(def) = schema.types.get(name) else {
            return SIMPLE;
        };
        match &def.kind {
            TypeKind::Restriction(_)
            | TypeKind::Enumeration(_)
            | TypeKind::Union(_)
            | TypeKind::List(_) => SIMPLE,
            TypeKind::Complex(c) => {
                let attributes = c.attributes.len() * (SIMPLE + TAG)
                    + c.any_attribute.as_ref().map_or(0, |_| VEC);
                let content = match &c.content {
                    Content::Empty => 0,
                    Content::Simple(_) => SIMPLE + TAG,
                    Content::Mixed(_) => VEC,
                    Content::Elements(p) => self.particle(name, p),
                };
                attributes + content
            }
            TypeKind::Alternatives(alts) => {
                TAG + alts
                    .iter()
                    .map(|a| self.held(name, &a.type_ref))
                    .max()
                    .unwrap_or(0)
            }
            TypeKind::Substitution(s) => {
                let members = s.members.iter().map(|(_, t)| self.held(name, t));
                TAG + members
                    .chain(std::iter::once(self.held(name, &s.declared)))
                    .max()
                    .unwrap_or(0)
            }
        }
    }

    /// What a particle takes inline in `holder`: a repeated one is a `Vec`, a sequence or
    /// `all` its items side by side. Groups nest as deep as the schema writes them, so this
    /// walks with a stack.
    fn particle(&self, holder: &str, p: &crate::ir::Particle) -> usize {
        let mut total = 0;
        let mut stack = vec![p];
        while let Some(p) = stack.pop() {
            if p.max != Some(1) {
                total += VEC;
                continue;
            }
            let optional = if p.min == 0 { TAG } else { 0 };
            match &p.term {
                Term::Element(e) => {
                    let nil = if e.nillable { TAG } else { 0 };
                    total += self.held(holder, &e.type_ref) + optional + nil;
                }
                Term::Sequence(items) | Term::All(items) => {
                    total += optional;
                    stack.extend(items);
                }
                // A choice is its largest member and a tag; members are summed as a
                // sequence's would be, which over-estimates and stays bounded by the
                // holder's own particles.
                Term::Choice(items) => {
                    total += optional + TAG;
                    stack.extend(items);
                }
                Term::Any(_) => total += POINTER + optional,
            }
        }
        total
    }
}
