//! What a substitution type (`crate::type_substitution`) needs of the reader: the element's
//! `xsi:type` resolved where it stands, and reading the element with the type it names
//! without that type reporting `xsi:type` as an attribute it does not declare.

use super::Reader;
use crate::diagnostic::Diagnostic;
use crate::schema::{Element, Invalid};
use crate::xml::Tag;

/// An element's `xsi:type` as the reader found it.
pub struct XsiType {
    /// The value as written.
    pub written: String,
    /// The expanded name it resolves to where the element stands, or why it is no QName.
    pub name: Result<String, String>,
    /// The byte offset of the attribute.
    pub offset: usize,
}

impl Reader<'_> {
    /// `tag`'s `xsi:type`, if it has one: its value as written, its expanded name where
    /// the reader stands (or why it is no QName) and the attribute's offset.
    pub fn xsi_type(&self, tag: &Tag) -> Option<XsiType> {
        let a = tag
            .attributes
            .iter()
            .find(|a| tag.attr_name(a) == crate::schema::XSI_TYPE)?;
        let value = tag.attr_value(a);
        Some(XsiType {
            written: value.to_string(),
            name: self.resolve_qname(value),
            offset: a.offset,
        })
    }

    /// The named types of the document's schema an `xsi:type` may name (empty where no
    /// document type gave them; see `schema_types`).
    pub(crate) fn schema_types(&self) -> &'static [(&'static str, crate::schema::TypedRoot)] {
        self.schema_types
    }

    /// Reads the element whose start tag is `tag` (the reader has entered it) as `T`, the
    /// type its `xsi:type` chose: that attribute is taken.
    pub fn read_substituted<T: Element>(&mut self, tag: &Tag) -> Result<T, Invalid> {
        let outer = self.substituted.replace(tag.offset);
        let result = T::read_element(self, tag);
        self.substituted = outer;
        result
    }

    /// [`Reader::read_substituted`] for the root (its identity constraints start there).
    pub fn read_root_substituted<T: Element>(&mut self, tag: &Tag) -> Result<T, Invalid> {
        if !T::IDENTITY.is_empty() {
            self.activate_identity(T::IDENTITY, tag);
        }
        self.read_substituted(tag)
    }

    /// Reports `diagnostic` (an `xsi:type` the element may not have) and skips the
    /// element's content and end tag: no type is known to read it with.
    pub fn reject_substitution(&mut self, diagnostic: Diagnostic) -> Invalid {
        self.report(diagnostic);
        self.skip_to_end();
        Invalid
    }
}

impl Reader<'_> {
    /// Takes what the `xsi:type` of the element about to be read may name, where its
    /// declaration gave a table (see [`Reader::read_declared`]): for a type that reads its
    /// attributes itself (`xs:anyType` content).
    pub fn take_xsi_simple(&mut self) -> Option<&'static crate::type_substitution::SimpleTable> {
        self.xsi_simple.take()
    }

    /// Gives back what [`Reader::take_xsi_simple`] took, for the element's type to judge.
    pub(crate) fn put_xsi_simple(
        &mut self,
        table: Option<&'static crate::type_substitution::SimpleTable>,
    ) {
        self.xsi_simple = table;
    }

    /// Reports that `value` (at `offset`, `what` saying whose it is) is not a value of
    /// its type, as simple content is reported.
    pub fn report_facet_error(
        &mut self,
        e: crate::schema::FacetError,
        offset: usize,
        path: String,
        what: &str,
        value: &str,
    ) {
        self.facet_error(e, offset, path, what, value);
    }
}
