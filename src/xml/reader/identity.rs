//! The reader's side of the identity constraints (see [`crate::identity`]): element starts
//! and ends, constraints activated at an element, and the typed values read.

use super::path::path_of;
use super::{Reader, Tag};
use crate::identity::Constraint;
use crate::identity_key::KeyValue;
use crate::schema::{Element, Invalid, SimpleValue};

impl Reader<'_> {
    /// The element `tag` was entered (its level is open).
    #[inline]
    pub(super) fn identity_enter(&mut self, tag: &Tag) {
        self.identity.enter(tag.name(), tag.offset);
    }

    /// The current element ends (before its level closes): what its constraints find is
    /// reported.
    #[inline]
    pub(super) fn identity_leave(&mut self) {
        let levels = &self.levels[..self.open];
        // The open element at depth `d` (the root is 1) is `levels[d]`.
        let path_at = |d: usize| path_of(&levels[..(d + 1).min(levels.len())]);
        if !self.identity.is_active() {
            self.identity.leave(&mut Vec::new(), &path_at);
            return;
        }
        let mut found = Vec::new();
        self.identity.leave(&mut found, &path_at);
        for d in found {
            self.report(d);
        }
    }

    /// Activates the constraints of the element declaration of `tag`, just entered.
    pub(super) fn activate_identity(&mut self, constraints: &'static [Constraint], tag: &Tag) {
        self.identity.activate(constraints, tag.name(), tag.offset);
    }

    /// A typed value was read at the current element: attribute `attribute`'s, or
    /// (`None`) its simple content.
    #[inline]
    pub(super) fn note_identity<T: SimpleValue>(&mut self, value: &T, attribute: Option<&str>) {
        // Made into a key only when an open row takes it.
        if self.identity.wants(attribute) {
            self.note_identity_key(value.identity_key(), attribute);
        }
    }

    /// [`Reader::note_identity`] of a value already made into its key.
    pub(crate) fn note_identity_key(&mut self, mut key: KeyValue, attribute: Option<&str>) {
        if self.identity.wants(attribute) {
            key.resolve_qname(|p| match p {
                // An unprefixed QName value is in the default namespace (XSD Part 2, 3.2.18).
                "" => self
                    .default_ns
                    .last()
                    .cloned()
                    .flatten()
                    .map(|ns| ns.to_string()),
                p => self.namespace_of(p).map(str::to_string),
            });
            self.identity.value(attribute, || key.clone());
        }
    }

    /// An attribute `name` (`expanded`) of the current element that a wildcard took, with
    /// `value`: identity-constraint fields see the typed value its global declaration in
    /// `G` gives it (none where the schema declares no such attribute: a field of an
    /// unassessed attribute has no typed value, XSD 1.0 3.11.4 clause 3).
    pub(crate) fn note_global_attribute<G: crate::any::GlobalAttributes>(
        &mut self,
        offset: usize,
        name: &str,
        expanded: &crate::any::ExpandedName,
        value: &str,
    ) {
        self.note_global_ids::<G>(offset, name, expanded, value);
        if !self.identity.wants(Some(name)) {
            return;
        }
        if let Some(key) = G::key(expanded, value, Some(&self.scope(false))) {
            self.note_identity_key(key, Some(name));
        }
    }

    /// An attribute `name` absent from the current element's start tag, which its
    /// declaration gives the value `lexical` (`default=`, `fixed=`): identity-constraint
    /// fields see it as if it were written (3.11.4 evaluates fields on the PSVI).
    #[doc(hidden)]
    pub fn identity_attribute_default<T: SimpleValue>(&mut self, name: &str, lexical: &str) {
        if !self.identity.wants(Some(name)) {
            return;
        }
        if let Ok(v) = T::parse_lexical(lexical) {
            self.note_identity(&v, Some(name));
        }
    }

    /// Reads the root element `tag` (already entered) as `T`, with its declaration's
    /// identity constraints.
    #[doc(hidden)]
    pub fn read_root_element<T: Element>(&mut self, tag: &Tag) -> Result<T, Invalid> {
        if !T::IDENTITY.is_empty() {
            self.activate_identity(T::IDENTITY, tag);
        }
        T::read_element(self, tag)
    }
}
