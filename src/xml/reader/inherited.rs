//! XSD 1.1's inherited attributes (Part 1, 3.3.5.6): the inheritable attributes of the
//! open elements, which a descendant's type alternatives see as its own where it does not
//! have an attribute of that name (3.12.4).

use super::{Reader, Tag};

/// The inheritable attributes of the open elements, outermost first: (expanded name,
/// value). Only attributes whose use is inheritable are here, so a nearer element's
/// attribute that is not inheritable does not hide a farther one that is.
#[derive(Debug, Default)]
pub struct Inherited {
    attributes: Vec<(String, String)>,
}

impl Inherited {
    /// The value of attribute `name` the type alternatives of the element of `tag` see:
    /// its own, else the one it inherits from its nearest ancestor that has it.
    pub fn attribute<'a>(&'a self, tag: &'a Tag, name: &str) -> Option<&'a str> {
        tag.attribute(name).or_else(|| {
            self.attributes
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        })
    }

    /// The attributes the type alternatives of the element of `tag` see: its own, then
    /// each one it inherits (nearest ancestor first, once per name).
    pub fn attributes<'a>(&'a self, tag: &'a Tag) -> impl Iterator<Item = (&'a str, &'a str)> {
        // The nearest of each name: the names seen are the schema's inheritable ones, few
        // whatever the depth, so this is linear in the open elements' attributes.
        let mut seen: Vec<&str> = Vec::new();
        let mut inherited = Vec::new();
        for (name, value) in self.attributes.iter().rev() {
            if !seen.contains(&name.as_str()) {
                seen.push(name);
                if tag.attribute(name).is_none() {
                    inherited.push((name.as_str(), value.as_str()));
                }
            }
        }
        tag.attributes().chain(inherited)
    }
}

impl Reader<'_> {
    /// What the element being read inherits (see [`Inherited`]).
    pub fn inherited(&self) -> &Inherited {
        &self.inherited
    }

    /// How many inherited attributes are open: what [`Reader::end_inheritance`] goes back to
    /// when the element that then passes on its own ends.
    pub fn inheritance_mark(&self) -> usize {
        self.inherited.attributes.len()
    }

    /// The element being read passes on attribute `name` with `value` to its descendants.
    pub fn pass_on(&mut self, name: &str, value: &str) {
        self.inherited
            .attributes
            .push((name.to_string(), value.to_string()));
    }

    /// The namespace bindings in scope where the reader stands (the element being read
    /// included), outermost first, so that a later binding of a prefix wins; the default
    /// namespace last, as prefix `""`. What a type alternative's XPath test resolves names
    /// and QName values by.
    pub fn namespace_bindings(&self) -> impl Iterator<Item = (&str, &str)> {
        self.prefixes
            .iter()
            .filter(|(_, ns)| !ns.is_empty())
            .map(|(p, ns)| (p.as_str(), ns.as_str()))
            .chain(self.default_namespace().map(|ns| ("", ns)))
    }

    /// The element that began at `mark` ended: what it passed on is no longer inherited.
    pub fn end_inheritance(&mut self, mark: usize) {
        self.inherited.attributes.truncate(mark);
    }
}
