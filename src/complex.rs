//! Complex types as data. A generated complex type is its struct, a table of its fields as
//! the schema declares them ([`Field`]: XML name, kind, occurrence) and of its content model
//! ([`Content`]), and two small `match`es that read and write one field by its index. The
//! reading and writing loops — attribute order, strays skipped before a required particle,
//! missing and repeated children, `xs:all`, what is kept while streaming — live once, here.
//!
//! The same tables let generic code see every type's fields: the dialect-neutral CBF record
//! and the conversions are driven by them rather than by hand-written field lists.

use std::borrow::Cow;

use crate::schema::{Element, FacetError, Invalid, SimpleValue, TextForm};
use crate::xml::{Attributes, Reader, Tag, Writer};

/// `maxOccurs="unbounded"`.
pub const UNBOUNDED: u32 = u32::MAX;

/// What a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An attribute; `fixed`, `default` as the schema says. A required attribute with a fixed
    /// value has no Rust field (its value is known).
    Attribute {
        /// `fixed="..."`.
        fixed: Option<&'static str>,
        /// `default="..."`.
        default: Option<&'static str>,
    },
    /// A child element.
    Element,
    /// A nested or repeated group (a choice enum or a sequence struct of its own).
    Group,
    /// Simple content.
    Content,
    /// Mixed content: text and elements in document order.
    Mixed,
}

/// One field of a complex type, as the schema declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The name in documents (element or attribute); empty for content.
    pub xml: &'static str,
    /// What it holds.
    pub kind: Kind,
    /// minOccurs (an attribute: 1 if required).
    pub min: u32,
    /// maxOccurs ([`UNBOUNDED`] for unbounded; an attribute: 1).
    pub max: u32,
}

impl Field {
    /// A child element occurring `min..=max` times.
    pub const fn element(xml: &'static str, min: u32, max: u32) -> Field {
        Field {
            xml,
            kind: Kind::Element,
            min,
            max,
        }
    }

    /// A group occurring `min..=max` times.
    pub const fn group(min: u32, max: u32) -> Field {
        Field {
            xml: "",
            kind: Kind::Group,
            min,
            max,
        }
    }

    /// An attribute.
    pub const fn attribute(xml: &'static str, required: bool) -> Field {
        Field {
            xml,
            kind: Kind::Attribute {
                fixed: None,
                default: None,
            },
            min: required as u32,
            max: 1,
        }
    }

    /// An attribute with a fixed value.
    pub const fn fixed(xml: &'static str, required: bool, fixed: &'static str) -> Field {
        Field {
            xml,
            kind: Kind::Attribute {
                fixed: Some(fixed),
                default: None,
            },
            min: required as u32,
            max: 1,
        }
    }

    /// An attribute with a default value.
    pub const fn defaulted(xml: &'static str, default: &'static str) -> Field {
        Field {
            xml,
            kind: Kind::Attribute {
                fixed: None,
                default: Some(default),
            },
            min: 0,
            max: 1,
        }
    }

    /// Simple content.
    pub const CONTENT: Field = Field {
        xml: "",
        kind: Kind::Content,
        min: 1,
        max: 1,
    };

    /// Mixed content.
    pub const MIXED: Field = Field {
        xml: "",
        kind: Kind::Mixed,
        min: 0,
        max: 1,
    };

    /// Whether it is an attribute.
    pub fn is_attribute(&self) -> bool {
        matches!(self.kind, Kind::Attribute { .. })
    }

    /// A required attribute with a fixed value: no Rust field holds it.
    pub fn is_constant(&self) -> bool {
        matches!(self.kind, Kind::Attribute { fixed: Some(_), .. }) && self.min == 1
    }
}

/// One particle of an element-only sequence: a field, how a child starts it, and what may
/// come after it.
#[derive(Debug, Clone, Copy)]
pub struct Item {
    /// Its field.
    pub field: usize,
    /// The element names that start it.
    pub first: &'static [&'static str],
    /// How it is named in messages (`<Head>`, `one of <a>, <b>`).
    pub label: &'static str,
    /// The names that may follow it in the sequence (`None` inside a nested group, where
    /// that is not known): before a required item, a child that is neither is a stray.
    pub later: Option<&'static [&'static str]>,
}

/// A complex type's content model.
#[derive(Debug, Clone, Copy)]
pub enum Content {
    /// No content.
    Empty,
    /// Simple content, in the field at this index.
    Simple(usize),
    /// Element-only content: these items in order.
    Sequence(&'static [Item]),
    /// `xs:all` over these element fields (each at most once, in any order); `optional`
    /// when the group itself has minOccurs 0.
    All {
        /// The element fields.
        fields: &'static [usize],
        /// The whole group may be absent.
        optional: bool,
    },
    /// Mixed content, read and written by the field at this index.
    Mixed(usize),
}

/// A generated complex type: its tables, and reading and writing one field by index.
pub trait Complex: Sized {
    /// Every field (attributes first, in schema order, then content).
    const FIELDS: &'static [Field];
    /// The content model.
    const CONTENT: Content;
    /// What the fields are read into: the type itself when every field may be empty, else
    /// a struct of options.
    type Builder: Default;
    /// Reads field `i`: an attribute from `attributes`, one occurrence of a child (which
    /// the caller has seen start), or the content.
    fn read_field(
        b: &mut Self::Builder,
        r: &mut Reader<'_>,
        tag: &Tag,
        attributes: &mut Attributes<'_>,
        i: usize,
    ) -> Result<(), Invalid>;
    /// The value, once every field has been read without error.
    fn build(b: Self::Builder) -> Option<Self>;
    /// Writes field `i` (an attribute, the children of one field, or the content).
    fn write_field(&self, w: &mut Writer, name: &str, i: usize);

    /// The lexical form of field `i` when it holds one simple value (an attribute, simple
    /// content, a single child of a simple type) and is present.
    fn text(&self, i: usize) -> Option<Cow<'_, str>> {
        let _ = i;
        None
    }

    /// Sets field `i` from a lexical form, checked against its type's facets; `Ok(false)`
    /// when the field does not hold one simple value.
    fn set_text(&mut self, i: usize, text: &str) -> Result<bool, FacetError> {
        let _ = (i, text);
        Ok(false)
    }

    /// The index of the field named `xml` (an element or attribute), if there is one.
    fn field_index(xml: &str) -> Option<usize> {
        Self::FIELDS.iter().position(|f| f.xml == xml)
    }
}

/// The text of a field held as `T`.
pub fn text_one<T: SimpleValue>(value: &T) -> Option<Cow<'_, str>> {
    Some(value.to_lexical())
}

/// The text of a field held as `Option<T>`.
pub fn text_opt<T: SimpleValue>(value: &Option<T>) -> Option<Cow<'_, str>> {
    value.as_ref().map(SimpleValue::to_lexical)
}

/// Sets a field held as `T` from its lexical form.
pub fn set_one<T: SimpleValue>(slot: &mut T, text: &str) -> Result<bool, FacetError> {
    *slot = T::parse_lexical(text)?;
    Ok(true)
}

/// Sets a field held as `Option<T>` from its lexical form.
pub fn set_opt<T: SimpleValue>(slot: &mut Option<T>, text: &str) -> Result<bool, FacetError> {
    *slot = Some(T::parse_lexical(text)?);
    Ok(true)
}

/// Fields that failed: reading goes on to report everything, the value is not built.
struct Failed([u64; 4]);

impl Failed {
    fn set(&mut self, i: usize) {
        if let Some(word) = self.0.get_mut(i / 64) {
            *word |= 1 << (i % 64);
        }
    }

    fn any(&self) -> bool {
        self.0.iter().any(|w| *w != 0)
    }
}

/// Reads the element whose start tag is `tag` as the complex type `T`.
pub fn read<T: Complex>(r: &mut Reader<'_>, tag: &Tag) -> Result<T, Invalid> {
    let mut b = T::Builder::default();
    let mut failed = Failed([0; 4]);
    let mut attributes = r.attributes(tag);
    for (i, f) in T::FIELDS.iter().enumerate() {
        if f.is_attribute() && T::read_field(&mut b, r, tag, &mut attributes, i).is_err() {
            failed.set(i);
        }
    }
    let attributes_ok = match T::CONTENT {
        // Element-only content is read before the unknown attributes are reported.
        Content::Sequence(items) => {
            for item in items {
                if sequence_item::<T>(&mut b, r, tag, &mut attributes, item).is_err() {
                    failed.set(item.field);
                }
            }
            r.end_children();
            attributes.finish(r)
        }
        Content::All { fields, optional } => {
            all::<T>(
                &mut b,
                r,
                tag,
                &mut attributes,
                fields,
                optional,
                &mut failed,
            );
            r.end_children();
            attributes.finish(r)
        }
        Content::Empty => {
            let ok = attributes.finish(r);
            if r.empty_content(tag).is_err() {
                failed.set(T::FIELDS.len());
            }
            ok
        }
        Content::Simple(i) => {
            let ok = attributes.finish(r);
            let mut none = r.attributes(tag);
            if T::read_field(&mut b, r, tag, &mut none, i).is_err() {
                failed.set(i);
            }
            ok
        }
        // Mixed content is read before the unknown attributes are reported.
        Content::Mixed(i) => {
            if T::read_field(&mut b, r, tag, &mut attributes, i).is_err() {
                failed.set(i);
            }
            attributes.finish(r)
        }
    };
    if attributes_ok.is_err() || failed.any() {
        return Err(Invalid);
    }
    T::build(b).ok_or(Invalid)
}

fn sequence_item<T: Complex>(
    b: &mut T::Builder,
    r: &mut Reader<'_>,
    tag: &Tag,
    attributes: &mut Attributes<'_>,
    item: &Item,
) -> Result<(), Invalid> {
    let f = &T::FIELDS[item.field];
    if let (Some(later), true) = (item.later, f.min > 0) {
        r.skip_strays(item.first, later, item.label);
    }
    let mut count = 0u32;
    let mut result = Ok(());
    while count < f.max && r.peek_index(item.first).is_some() {
        count += 1;
        if T::read_field(b, r, tag, attributes, item.field).is_err() {
            result = Err(Invalid);
        }
    }
    if count < f.min {
        r.missing_child(item.label);
        result = Err(Invalid);
    }
    result
}

fn all<T: Complex>(
    b: &mut T::Builder,
    r: &mut Reader<'_>,
    tag: &Tag,
    attributes: &mut Attributes<'_>,
    fields: &[usize],
    optional: bool,
    failed: &mut Failed,
) {
    let names: Vec<&str> = fields.iter().map(|&i| T::FIELDS[i].xml).collect();
    let mut seen = vec![false; fields.len()];
    while r.peek_child().is_some() {
        match r.peek_index(&names) {
            Some(k) if seen[k] => r.skip_child(&format!(
                "each child of the group at most once (<{}> was already given)",
                names[k]
            )),
            Some(k) => {
                seen[k] = true;
                if T::read_field(b, r, tag, attributes, fields[k]).is_err() {
                    failed.set(fields[k]);
                }
            }
            None => r.skip_child(&format!(
                "one of {}",
                names
                    .iter()
                    .map(|n| format!("<{n}>"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    for (k, &i) in fields.iter().enumerate() {
        if !seen[k] && T::FIELDS[i].min > 0 && !optional {
            r.missing_child(&format!("<{}>", names[k]));
            failed.set(i);
        }
    }
}

/// Reads the items of a sequence group (a struct of its own inside a content model) once
/// the group has started: no tag and no attributes of its own.
pub fn read_items<T: Complex>(r: &mut Reader<'_>) -> Result<T, Invalid> {
    let tag = Tag::default();
    let mut b = T::Builder::default();
    let mut failed = Failed([0; 4]);
    let mut attributes = r.attributes(&tag);
    if let Content::Sequence(items) = T::CONTENT {
        for item in items {
            if sequence_item::<T>(&mut b, r, &tag, &mut attributes, item).is_err() {
                failed.set(item.field);
            }
        }
    }
    if failed.any() {
        return Err(Invalid);
    }
    T::build(b).ok_or(Invalid)
}

/// Writes the items of a sequence group.
pub fn write_items<T: Complex>(value: &T, w: &mut Writer) {
    if let Content::Sequence(items) = T::CONTENT {
        for item in items {
            value.write_field(w, "", item.field);
        }
    }
}

/// Writes `value` as the element `name` of the complex type `T`.
pub fn write<T: Complex>(value: &T, w: &mut Writer, name: &str) {
    w.start(name);
    for (i, f) in T::FIELDS.iter().enumerate() {
        if f.is_attribute() {
            match f.kind {
                Kind::Attribute {
                    fixed: Some(fixed), ..
                } if f.is_constant() => w.attribute(f.xml, fixed),
                _ => value.write_field(w, name, i),
            }
        }
    }
    match T::CONTENT {
        Content::Empty => w.end_empty(),
        Content::Simple(i) => value.write_field(w, name, i),
        Content::Sequence(items) => {
            w.begin_elements();
            for item in items {
                value.write_field(w, name, item.field);
            }
            w.end(name);
        }
        Content::All { fields, .. } => {
            w.begin_elements();
            for &i in fields {
                value.write_field(w, name, i);
            }
            w.end(name);
        }
        Content::Mixed(i) => {
            w.begin_mixed();
            value.write_field(w, name, i);
            w.end(name);
        }
    }
}

/// `Element` for a complex type: read and written by [`read()`] and [`write()`].
#[macro_export]
macro_rules! complex_element {
    ($ty:ty) => {
        impl $crate::schema::Element for $ty {
            fn read_element(
                r: &mut $crate::xml::Reader<'_>,
                tag: &$crate::xml::Tag,
            ) -> ::core::result::Result<Self, $crate::schema::Invalid> {
                $crate::complex::read(r, tag)
            }
            fn write_element(&self, w: &mut $crate::xml::Writer, name: &str) {
                $crate::complex::write(self, w, name)
            }
        }
    };
}

/// A nested or repeated group of a content model: a choice enum or a sequence struct.
pub trait Group: Sized {
    /// The elements it can start with.
    const FIRST: &'static [&'static str];
    /// Reads the group if the next child starts it.
    fn read_group(r: &mut Reader<'_>) -> Option<Result<Self, Invalid>>;
    /// Writes the group's elements.
    fn write_group(&self, w: &mut Writer);
}

/// One occurrence of a child element (the caller has seen it start).
pub fn child<T: Element + 'static>(
    r: &mut Reader<'_>,
    slot: &mut Option<T>,
) -> Result<(), Invalid> {
    *slot = Some(r.read_child()?);
    Ok(())
}

/// One more occurrence of a repeated child element, kept only while the reader retains
/// (validating without keeping holds memory bounded).
pub fn push<T: Element + 'static>(r: &mut Reader<'_>, list: &mut Vec<T>) -> Result<(), Invalid> {
    let v = r.read_child()?;
    if r.retains() {
        list.push(v);
    }
    Ok(())
}

/// One occurrence of a group (the caller has seen it start).
pub fn group<G: Group>(r: &mut Reader<'_>, slot: &mut Option<G>) -> Result<(), Invalid> {
    *slot = Some(G::read_group(r).unwrap_or(Err(Invalid))?);
    Ok(())
}

/// One more occurrence of a repeated group.
pub fn push_group<G: Group>(r: &mut Reader<'_>, list: &mut Vec<G>) -> Result<(), Invalid> {
    let v = G::read_group(r).unwrap_or(Err(Invalid))?;
    if r.retains() {
        list.push(v);
    }
    Ok(())
}

/// Simple content into `slot` and its form.
pub fn content<T: SimpleValue>(
    r: &mut Reader<'_>,
    tag: &Tag,
    slot: &mut Option<T>,
    form: &mut TextForm,
) -> Result<(), Invalid> {
    let (v, f) = r.simple_content(tag)?;
    *slot = Some(v);
    *form = f;
    Ok(())
}

/// Writes a required attribute.
pub fn write_attribute<T: SimpleValue>(w: &mut Writer, name: &str, value: &T) {
    w.attribute(name, &value.to_lexical());
}

/// Writes an optional attribute if present.
pub fn write_optional_attribute<T: SimpleValue>(w: &mut Writer, name: &str, value: &Option<T>) {
    if let Some(v) = value {
        w.attribute(name, &v.to_lexical());
    }
}

/// Writes children: a required one, an optional one, or every one of a list.
pub fn write_children<'v, T: Element + 'v>(
    w: &mut Writer,
    name: &str,
    values: impl IntoIterator<Item = &'v T>,
) {
    for v in values {
        v.write_element(w, name);
    }
}

/// Writes groups: a required one, an optional one, or every one of a list.
pub fn write_groups<'v, G: Group + 'v>(w: &mut Writer, values: impl IntoIterator<Item = &'v G>) {
    for v in values {
        v.write_group(w);
    }
}

/// Writes simple content.
pub fn write_content<T: SimpleValue>(w: &mut Writer, name: &str, value: &T, form: TextForm) {
    w.simple_content(name, &value.to_lexical(), form);
}
