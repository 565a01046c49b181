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
//! Which groups need this is found by converting: a first pass meets the reference
//! ([`Converter::note_recursive_group`]) and a new pass defers the anonymous types inside
//! those groups. Only those: every other anonymous type is converted where it stands, as
//! before, so schemas without such groups convert exactly as they did (the names of
//! anonymous types depend on the order in which they are converted).

use std::collections::{BTreeSet, HashMap};

use xsd_parser::models::schema::xs::ComplexBaseType;

use super::adapter::Item;
use super::{Converter, Outer};

/// What the passes over one schema know of groups referred to from inside themselves.
#[derive(Default)]
pub(super) struct Recursion<'a> {
    /// Groups an earlier pass found referred to from an anonymous type inside themselves:
    /// while one of them is being converted, the anonymous complex types of the elements
    /// inside it wait until it is done.
    pub(super) deferring: BTreeSet<String>,
    /// Groups this pass found so and did not defer for (another pass is needed).
    pub(super) found: BTreeSet<String>,
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
    /// Notes that `group` is referred to from an anonymous type inside itself (this
    /// pass refuses the reference; the next defers the anonymous types inside `group`).
    pub(super) fn note_recursive_group(&mut self, group: &str) {
        // A group deferred for cannot be met so (the anonymous types inside it wait);
        // if it were, the refusal stands and no pass is added.
        if !self.recursion.deferring.contains(group) {
            self.recursion.found.insert(group.to_string());
        }
    }

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
