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

    /// Why the `xsi:type` of the element whose start tag is `tag` (the reader has entered
    /// it) names no type of the document's schema, if it does not: the value is no QName
    /// in scope, or no named type of the schema (nor a built-in) has that name, or the
    /// type is abstract (XSD 1.0 Part 1, 3.3.4 cvc-elt.4.2 and cvc-type.2). `None` where
    /// it has none, names one, or no document type gave the schema's types.
    pub fn unresolved_xsi_type(&self, tag: &Tag) -> Option<Diagnostic> {
        if self.schema_types.is_empty() {
            return None;
        }
        let xsi = self.xsi_type(tag)?;
        let path = format!("{}/@xsi:type", self.path());
        let found = format!("xsi:type=\"{}\"", crate::xml::excerpt(&xsi.written));
        let d = match xsi.name {
            Ok(name) if self.schema_types.iter().any(|(t, _)| *t == name) => return None,
            Ok(name) => Diagnostic::error(
                crate::diagnostic::Code::UNKNOWN_ATTRIBUTE,
                xsi.offset,
                path,
                format!(
                    "xsi:type on <{}> names the type {name}, but the schema defines no type of that name that an element can have (an abstract type cannot)",
                    tag.name()
                ),
            )
            .expected("xsi:type naming a type of the schema or a built-in type"),
            Err(why) => Diagnostic::error(
                crate::diagnostic::Code::LEXICAL,
                xsi.offset,
                path,
                format!("the value of xsi:type on <{}> is not a QName: {why}", tag.name()),
            )
            .expected("a QName naming a type"),
        };
        Some(d.found(found))
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
