//! XSD 1.1's `xs:override` (Part 1, 4.2.5): a document D1 overrides D2 with the children
//! of its `xs:override` element O. The schema has D2's top-level components, but those of
//! a kind and name a child of O gives are that child instead; the documents D2 includes are
//! overridden by O too, and those D2 overrides with O2 by O's children and O2's others (the
//! outer override wins). A child of O that replaces nothing is no component of the schema.
//!
//! The documents are loaded once each (`compose`); here each document gets the overriding
//! children that apply to it, by kind and name, found along the compositions from the
//! documents no other loaded first. The conversion then reads a document's top level
//! through [`Converter::top_level`]: its components less those replaced, and in the
//! overriding document, the children that replace one (read in their own document's
//! namespace scope, whose target namespace is the overridden document's, or a chameleon's).

use std::collections::{BTreeMap, HashSet, VecDeque};

use super::adapter::{Item, What};
use super::{compose, Converter};

/// A top-level component's symbol space and name (`type` for simple and complex types).
type Key = (&'static str, String);

/// The symbol space and name of a top-level component.
fn key(what: &What<'_>) -> Option<Key> {
    let (kind, name) = match what {
        What::SimpleType(t) => ("type", t.name.as_deref()),
        What::ComplexType(t) => ("type", t.name.as_deref()),
        What::Group(g) => ("group", g.name.as_deref()),
        What::AttributeGroup(g) => ("attributeGroup", g.name.as_deref()),
        What::Element(e) => ("element", e.name.as_deref()),
        What::Attribute(a) => ("attribute", a.name.as_deref()),
        What::Notation(n) => ("notation", Some(n.name.as_str())),
        _ => return None,
    };
    Some((kind, name?.to_string()))
}

impl<'a> Converter<'a> {
    /// Finds what each `xs:override` replaces ([`Converter::top_level`] applies it); two
    /// children of one `xs:override` of one kind and name are an error.
    pub(super) fn plan_overrides(&mut self, roots: &[Item<'a>]) {
        let n = self.docs.len();
        if !self.docs.iter().any(|d| {
            d.compositions
                .iter()
                .any(|c| c.how == compose::How::Override)
        }) {
            return;
        }
        // Each document's top-level keys, and its override elements by the composition
        // they belong to (matched by where they stand).
        let mut tops: Vec<HashSet<Key>> = vec![HashSet::new(); n];
        let mut elements: Vec<Vec<(usize, Item<'a>)>> = vec![Vec::new(); n];
        for root in roots {
            let d = root.doc;
            for c in self.children(*root) {
                if let What::Override(_) = c.what {
                    let span = self.node(c).span;
                    if let Some(k) = self.docs[d]
                        .compositions
                        .iter()
                        .position(|comp| comp.how == compose::How::Override && comp.span == span)
                    {
                        elements[d].push((k, c));
                    }
                } else if let Some(k) = key(&c.what) {
                    tops[d].insert(k);
                }
            }
        }
        // The children of each override element, by key; a key twice is an error.
        let mut children: Vec<Vec<(usize, BTreeMap<Key, Item<'a>>)>> = vec![Vec::new(); n];
        for d in 0..n {
            for &(k, o) in &elements[d] {
                let mut map = BTreeMap::new();
                for c in self.children(o) {
                    let Some(key) = key(&c.what) else { continue };
                    if map.contains_key(&key) {
                        let span = self.span(c);
                        let outer = self.enter(c);
                        self.invalid(
                            span,
                            format!("xs:{} \"{}\" in xs:override", c.what.local(), key.1),
                            format!(
                                "xs:override gives the {} \"{}\" twice",
                                c.what.local(),
                                key.1
                            ),
                            Some(
                                "XSD 1.1 Part 1, 4.2.5 (src-override, sch-props-correct.2)".into(),
                            ),
                        );
                        self.leave(outer);
                        continue;
                    }
                    map.insert(key, c);
                }
                children[d].push((k, map));
            }
        }
        // The overriding children that apply to each document: along the compositions, an
        // include passing on what applies to the includer, an override adding its own
        // children where the outer ones give no such key.
        let mut applied: Vec<BTreeMap<Key, Item<'a>>> = vec![BTreeMap::new(); n];
        // Two override elements that give one component of one document each their own
        // (neither inside what the other overrides): the schema would have it twice.
        let mut twice: Vec<(Item<'a>, Item<'a>, usize, Key)> = Vec::new();
        // What reached a document: by key and by the child that gives it.
        type Reached = Vec<(Key, usize, usize)>;
        let mut seen: HashSet<(usize, Reached)> = HashSet::new();
        let mut reached = vec![false; n];
        for start in 0..n {
            if reached[start] {
                continue;
            }
            let mut queue: VecDeque<(usize, BTreeMap<Key, Item<'a>>)> = VecDeque::new();
            queue.push_back((start, BTreeMap::new()));
            while let Some((j, inherited)) = queue.pop_front() {
                let reached_with: Reached = inherited
                    .iter()
                    .map(|(k, i)| (k.clone(), i.doc, i.node))
                    .collect();
                if !seen.insert((j, reached_with)) {
                    continue;
                }
                reached[j] = true;
                for (key, item) in &inherited {
                    let first = *applied[j].entry(key.clone()).or_insert(*item);
                    if (first.doc, first.node) != (item.doc, item.node) {
                        twice.push((first, *item, j, key.clone()));
                    }
                }
                for (k, comp) in self.docs[j].compositions.iter().enumerate() {
                    let Some(target) = comp.document else {
                        continue;
                    };
                    match comp.how {
                        compose::How::Include => queue.push_back((target, inherited.clone())),
                        compose::How::Override => {
                            let mut set = inherited.clone();
                            if let Some((_, own)) = children[j].iter().find(|(c, _)| *c == k) {
                                for (key, item) in own {
                                    set.entry(key.clone()).or_insert(*item);
                                }
                            }
                            queue.push_back((target, set));
                        }
                        compose::How::Import | compose::How::Redefine => {
                            queue.push_back((target, BTreeMap::new()))
                        }
                    }
                }
            }
        }
        for (first, second, j, (kind, name)) in twice {
            if !tops[j].contains(&(kind, name.clone())) {
                continue;
            }
            let (span, at) = (self.span(second), self.span(first));
            let file = self.docs[j].path.display().to_string();
            let outer = self.enter(second);
            self.invalid(
                span,
                format!("xs:{} \"{name}\" in xs:override", second.what.local()),
                format!(
                    "{file}'s {kind} \"{name}\" is overridden twice, here and at {}:{}: the schema would have two",
                    at.line, at.column
                ),
                Some("XSD 1.1 Part 1, 4.2.5, and sch-props-correct.2".into()),
            );
            self.leave(outer);
        }
        for (j, map) in applied.into_iter().enumerate() {
            for (key, item) in map {
                if tops[j].contains(&key) {
                    self.overridden.insert((j, key.0, key.1));
                    self.overriding.insert((item.doc, item.node));
                    self.override_home.entry((item.doc, item.node)).or_insert(j);
                }
            }
        }
    }

    /// The top-level components of the document whose root is `root`, as the schema has
    /// them: its own, less those an `xs:override` replaces, with the children of its own
    /// `xs:override` elements that replace one in place of those elements (the others
    /// replace nothing and are not components). Other elements are kept as they are.
    pub(super) fn top_level(&self, root: Item<'a>) -> Vec<Item<'a>> {
        let mut out = Vec::new();
        for c in self.children(root) {
            match c.what {
                What::Override(_) => out.extend(
                    self.children(c)
                        .into_iter()
                        .filter(|o| self.overriding.contains(&(o.doc, o.node))),
                ),
                _ => {
                    let replaced = key(&c.what)
                        .is_some_and(|(kind, name)| self.overridden.contains(&(c.doc, kind, name)));
                    if !replaced {
                        out.push(c);
                    }
                }
            }
        }
        out
    }
}
