//! `xsi:nil` (XSD 1.0 Part 1, 3.3.4, Element Locally Valid (Element) 3): what the reader
//! knows of it. The nillable element's own type judges the value (`boardxml::nillable`);
//! the reader only remembers, for the one start tag, that its declaration allows it, so
//! that the type's attributes take it, and reports it everywhere else.

use super::{excerpt, Reader, Tag};
use crate::complex::ValueConstraint;
use crate::diagnostic::{Code, Diagnostic};
use crate::schema::Invalid;

impl Reader<'_> {
    /// The element whose start tag is `tag` (about to be read by its type) is declared
    /// nillable: its `xsi:nil`, judged by the caller, is no unknown attribute.
    pub fn allow_xsi_nil(&mut self, tag: &Tag) {
        self.nil_allowed_at = Some(tag.offset);
    }

    /// Whether `tag`'s declaration is nillable (see [`Reader::allow_xsi_nil`]); asking
    /// forgets it, so that no other element sees it.
    pub fn take_xsi_nil_allowed(&mut self, tag: &Tag) -> bool {
        if self.nil_allowed_at == Some(tag.offset) {
            self.nil_allowed_at = None;
            true
        } else {
            false
        }
    }

    /// Reports `xsi:nil` on an element whose declaration is not nillable (XSD 1.0, 3.3.4,
    /// Element Locally Valid (Element) 3.1), at the attribute (`offset`).
    pub fn xsi_nil_not_nillable(&mut self, tag: &Tag, offset: usize, value: &str) {
        self.report(
            self.attribute_error(
                Code::UNKNOWN_ATTRIBUTE,
                offset,
                "xsi:nil",
                format!(
                    "<{}> is not declared nillable: it takes no attribute xsi:nil",
                    tag.name()
                ),
            )
            .expected("no xsi:nil (the declaration would need nillable=\"true\")".to_string())
            .found(format!("xsi:nil=\"{}\"", excerpt(value))),
        );
    }

    /// The element whose start tag is `tag` is nil: `read` reads it (its content must be
    /// empty), and messages about its content say that it is nil.
    pub fn reading_nil<T>(&mut self, tag: &Tag, read: impl FnOnce(&mut Self) -> T) -> T {
        let outer = self.nil_at.replace(tag.offset);
        let result = read(self);
        self.nil_at = outer;
        result
    }

    /// The content of the nil element whose start tag is `tag`: none.
    pub fn read_nil_content(&mut self, tag: &Tag) -> Result<(), Invalid> {
        self.reading_nil(tag, |r| r.empty_content(tag))
    }

    /// Why the element whose start tag is `tag` must be empty, when it is nil.
    pub(super) fn nil_reason(&self, tag: &Tag) -> &'static str {
        if self.nil_at == Some(tag.offset) {
            ": it is nil (xsi:nil=\"true\")"
        } else {
            ""
        }
    }

    /// The offset of `tag`'s attribute `name`, or of the tag itself.
    pub fn attribute_offset(&self, tag: &Tag, name: &str) -> usize {
        tag.attributes
            .iter()
            .find(|a| tag.attr_name(a) == name)
            .map_or(tag.offset, |a| a.offset)
    }

    /// The element whose start tag is `tag` is nil (`xsi:nil="true"`): its declaration's
    /// value constraint is taken (an empty nil element has no default value), and a fixed
    /// one is an error (XSD 1.0, 3.3.4, Element Locally Valid (Element) 3.2.2).
    pub fn nil_value_constraint(&mut self, tag: &Tag) -> Result<(), Invalid> {
        let constraint = self.value_constraint.take();
        let Some(ValueConstraint::Fixed(fixed)) = constraint else {
            return Ok(());
        };
        let offset = self.attribute_offset(tag, crate::schema::XSI_NIL);
        let path = self.path();
        self.report(
            Diagnostic::error(
                Code::FIXED_VALUE,
                offset,
                path,
                format!(
                    "<{}> is nil (xsi:nil=\"true\"), but its declaration fixes its value",
                    tag.name()
                ),
            )
            .expected(format!("the content \"{fixed}\", without xsi:nil=\"true\""))
            .found("xsi:nil=\"true\"".to_string()),
        );
        Err(Invalid)
    }
}
