//! Value constraints (`default=`, `fixed=`) of elements whose content is not simple: mixed
//! content and `xs:anyType` (XSD 1.0, 3.3.4, Element Locally Valid (Element) 5). Their
//! value is the element's text as a string: an empty element takes the default (or fixed)
//! text; an element with a fixed value may hold no element and exactly that text.

use super::{excerpt, MixedItem, Reader, Tag};
use crate::complex::ValueConstraint;
use crate::diagnostic::{Code, Diagnostic};
use crate::schema::{Element, Invalid};

/// What the content of an element with a value constraint held, gathered while it is read.
#[derive(Debug)]
pub struct ContentConstraint {
    constraint: ValueConstraint,
    /// Where the content starts (just after the start tag).
    offset: usize,
    /// The character data, concatenated (only while it may still match a fixed value).
    text: String,
    /// Whether it had any character (an empty CDATA section adds none).
    characters: bool,
    /// Whether it had an element child.
    children: bool,
}

impl Reader<'_> {
    /// Reads the root element (the reader stands in it, at `tag`) with its declaration's
    /// value constraint, as [`Reader::read_constrained`] reads a child.
    pub fn read_root_constrained<T: Element>(
        &mut self,
        tag: &Tag,
        constraint: Option<ValueConstraint>,
    ) -> Result<T, Invalid> {
        self.read_root_declared(tag, constraint, None)
    }

    /// Reads the root element as [`Reader::read_root_constrained`] does, with what its
    /// `xsi:type` may name where its declared type is simple (see
    /// [`Reader::read_declared`]).
    // Never inlined: a document type dispatches to one of these per global element (UBL
    // declares 2,300), and inlined they shared one frame of 245 KB of their values.
    #[inline(never)]
    pub fn read_root_declared<T: Element>(
        &mut self,
        tag: &Tag,
        constraint: Option<ValueConstraint>,
        types: Option<&'static crate::type_substitution::SimpleTable>,
    ) -> Result<T, Invalid> {
        // Through read_root_element: the root's identity constraints start there.
        self.with_declaration(constraint, types, |r| r.read_root_element(tag))
    }

    /// Reads the element whose start tag `tag` the reader has just read as `T`, the type of
    /// its declaration, which gives it `constraint` (its `default=` or `fixed=`) and, for a
    /// simple type, what its `xsi:type` may name (`types`): an element a wildcard takes,
    /// read by its global declaration.
    pub fn read_declared_at<T: Element>(
        &mut self,
        tag: &Tag,
        constraint: Option<ValueConstraint>,
        types: Option<&'static crate::type_substitution::SimpleTable>,
    ) -> Result<T, Invalid> {
        self.with_declaration(constraint, types, |r| T::read_element(r, tag))
    }

    /// Runs `read` (the reading of one element) with what its declaration gives it: its
    /// value `constraint` and the `types` its `xsi:type` may name, gone after it.
    pub(crate) fn with_declaration<R>(
        &mut self,
        constraint: Option<ValueConstraint>,
        types: Option<&'static crate::type_substitution::SimpleTable>,
        read: impl FnOnce(&mut Self) -> R,
    ) -> R {
        self.value_constraint = constraint;
        self.xsi_simple = types;
        let result = read(self);
        self.value_constraint = None;
        self.xsi_simple = None;
        self.xsi_named = None;
        result
    }

    /// Takes the value constraint of the element whose mixed (or `xs:anyType`) content is
    /// about to be read, if its declaration has one: the content is judged as a whole
    /// ([`ContentConstraint::finish`]), and no element inside it sees the constraint.
    pub fn content_constraint(&mut self) -> Option<ContentConstraint> {
        let constraint = self.value_constraint.take()?;
        Some(ContentConstraint {
            constraint,
            offset: self.position(),
            text: String::new(),
            characters: false,
            children: false,
        })
    }
}

impl ContentConstraint {
    /// Character data of the content (text or CDATA).
    pub fn text(&mut self, t: &str) {
        if t.is_empty() {
            return;
        }
        self.characters = true;
        if matches!(self.constraint, ValueConstraint::Fixed(_)) && !self.children {
            self.text.push_str(t);
        }
    }

    /// An element child of the content.
    pub fn child(&mut self) {
        self.children = true;
        self.text.clear();
    }

    /// An item of mixed content, as [`Reader::next_mixed`] gives it.
    pub fn item(&mut self, item: &MixedItem) {
        match item {
            MixedItem::Text(t) | MixedItem::CData(t) => self.text(t),
            MixedItem::Child => self.child(),
        }
    }

    /// Ends the content (the reader still stands in the element): `Some(text)` is what an
    /// empty element holds (the default, or the fixed value); `None` leaves the content as
    /// read. A fixed value not matched, in string form as mixed content compares it, is
    /// reported at the start of the content.
    pub fn finish(self, r: &mut Reader<'_>) -> Result<Option<&'static str>, Invalid> {
        if !self.characters && !self.children {
            // 5.1.2 (default) and 5.2.2 (fixed): an empty element has the value.
            return Ok(Some(self.constraint.value()));
        }
        let ValueConstraint::Fixed(fixed) = self.constraint else {
            return Ok(None);
        };
        // 5.2.2.1: no element children; 5.2.2.2.1: the text is the value's string.
        let found = if self.children {
            "an element child".to_string()
        } else if self.text != fixed {
            format!("\"{}\"", excerpt(&self.text))
        } else {
            return Ok(None);
        };
        let path = r.path();
        let name = r.current_name().to_string();
        r.report(
            Diagnostic::error(
                Code::FIXED_VALUE,
                self.offset,
                path,
                format!("the content of <{name}> must be the fixed text \"{fixed}\""),
            )
            .expected(format!("\"{fixed}\" and no element"))
            .found(found),
        );
        Err(Invalid)
    }
}
