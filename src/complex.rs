//! Complex types as data. A generated complex type is its struct, a table of its fields as
//! the schema declares them ([`Field`]: XML name, kind, occurrence) and of its content model
//! ([`Content`]), and two small `match`es that read and write one field by its index. The
//! reading and writing loops — attribute order, strays skipped before a required particle,
//! missing and repeated children, `xs:all`, what is kept while streaming — live once, here.
//!
//! The same tables let generic code see every type's fields: the dialect-neutral CBF record
//! and the conversions are driven by them rather than by hand-written field lists.

use std::borrow::Cow;

use crate::diagnostic::{Code, Diagnostic};
use crate::schema::{Element, FacetError, Invalid, SimpleValue, TextForm};
use crate::xml::{Attributes, MixedItem, Reader, Tag, Writer};

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
    /// The attributes an attribute wildcard (`xs:anyAttribute`) allows, held as
    /// [`crate::any::OtherAttributes`].
    AnyAttribute(crate::any::Wildcard),
}

/// An element declaration's value constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueConstraint {
    /// `default="..."`: the value of an empty element.
    Default(&'static str),
    /// `fixed="..."`: the only value; an empty element has it.
    Fixed(&'static str),
}

impl ValueConstraint {
    /// The value as written in the schema.
    pub fn value(self) -> &'static str {
        match self {
            ValueConstraint::Default(v) | ValueConstraint::Fixed(v) => v,
        }
    }
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
    /// A child element's value constraint (its declaration's `default=` or `fixed=`).
    pub value: Option<ValueConstraint>,
    /// What a child element's `xsi:type` may name, where its declared type is simple and
    /// has types derived from it (see [`crate::type_substitution::SimpleTable`]).
    pub types: Option<&'static crate::type_substitution::SimpleTable>,
    /// An attribute whose use is inheritable (XSD 1.1): the element passes it on to its
    /// descendants' type alternatives ([`crate::xml::Inherited`]).
    pub inheritable: bool,
}

/// Whether some field of `fields` is an inheritable attribute.
pub const fn inherits(fields: &[Field]) -> bool {
    let mut i = 0;
    while i < fields.len() {
        if fields[i].inheritable {
            return true;
        }
        i += 1;
    }
    false
}

impl Field {
    /// A field of `kind` occurring `min..=max` times, without a value constraint or types
    /// an `xsi:type` may name.
    const fn of(xml: &'static str, kind: Kind, min: u32, max: u32) -> Field {
        Field {
            xml,
            kind,
            min,
            max,
            value: None,
            types: None,
            inheritable: false,
        }
    }

    /// A child element occurring `min..=max` times.
    pub const fn element(xml: &'static str, min: u32, max: u32) -> Field {
        Field::of(xml, Kind::Element, min, max)
    }

    /// A child element occurring `min..=max` times whose declaration has a value
    /// constraint.
    pub const fn constrained(
        xml: &'static str,
        min: u32,
        max: u32,
        value: ValueConstraint,
    ) -> Field {
        Field {
            value: Some(value),
            ..Field::element(xml, min, max)
        }
    }

    /// A child element occurring `min..=max` times whose declared type is simple, with
    /// its declaration's value constraint, if any, and what its `xsi:type` may name.
    pub const fn typed(
        xml: &'static str,
        min: u32,
        max: u32,
        value: Option<ValueConstraint>,
        types: &'static crate::type_substitution::SimpleTable,
    ) -> Field {
        Field {
            value,
            types: Some(types),
            ..Field::element(xml, min, max)
        }
    }

    /// A group occurring `min..=max` times.
    pub const fn group(min: u32, max: u32) -> Field {
        Field::of("", Kind::Group, min, max)
    }

    /// A group of element alternatives in an `xs:all` (a reference to a substitution
    /// group's head: the head and its members), occurring `min..=max` times; `names` is
    /// the pattern the all group's reader matches its children with
    /// ([`crate::wildcards::name_matches`]: `|` and the names).
    pub const fn group_in_all(names: &'static str, min: u32, max: u32) -> Field {
        Field::of(names, Kind::Group, min, max)
    }

    /// An attribute occurring `min..=1` times, with its fixed or default value.
    const fn attribute_of(
        xml: &'static str,
        min: u32,
        fixed: Option<&'static str>,
        default: Option<&'static str>,
    ) -> Field {
        Field::of(xml, Kind::Attribute { fixed, default }, min, 1)
    }

    /// An attribute.
    pub const fn attribute(xml: &'static str, required: bool) -> Field {
        Field::attribute_of(xml, required as u32, None, None)
    }

    /// An attribute with a fixed value.
    pub const fn fixed(xml: &'static str, required: bool, fixed: &'static str) -> Field {
        Field::attribute_of(xml, required as u32, Some(fixed), None)
    }

    /// An attribute with a default value.
    pub const fn defaulted(xml: &'static str, default: &'static str) -> Field {
        Field::attribute_of(xml, 0, None, Some(default))
    }

    /// An attribute whose use is inheritable (XSD 1.1), with its value constraint.
    pub const fn inheritable(
        xml: &'static str,
        required: bool,
        fixed: Option<&'static str>,
        default: Option<&'static str>,
    ) -> Field {
        Field {
            inheritable: true,
            ..Field::attribute_of(xml, required as u32, fixed, default)
        }
    }

    /// Simple content.
    pub const CONTENT: Field = Field::of("", Kind::Content, 1, 1);

    /// Mixed content.
    pub const MIXED: Field = Field::of("", Kind::Mixed, 0, 1);

    /// Whether it is an attribute.
    pub fn is_attribute(&self) -> bool {
        matches!(self.kind, Kind::Attribute { .. } | Kind::AnyAttribute(_))
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

impl Item {
    /// An item of a type's own sequence, followed by the names in `later`.
    pub const fn new(
        field: usize,
        first: &'static [&'static str],
        label: &'static str,
        later: &'static [&'static str],
    ) -> Item {
        Item {
            field,
            first,
            label,
            later: Some(later),
        }
    }

    /// An item of a nested sequence group (what follows the group is not known there).
    pub const fn nested(field: usize, first: &'static [&'static str], label: &'static str) -> Item {
        Item {
            field,
            first,
            label,
            later: None,
        }
    }
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
    /// `xs:all` over these element fields (in any order, each as often as its field's
    /// occurrence allows: at most once in XSD 1.0); `optional` when the group itself has
    /// minOccurs 0.
    All {
        /// The element fields.
        fields: &'static [usize],
        /// The whole group may be absent.
        optional: bool,
    },
    /// An `xs:all` group, then XSD 1.1's open content in suffix mode: the group's
    /// element fields as [`Content::All`], then, once a child is not one the group can
    /// take, only the children of the wildcard field `suffix` (Part 1, 3.4.4.2).
    AllThenSuffix {
        /// The element fields.
        fields: &'static [usize],
        /// The whole group may be absent.
        optional: bool,
        /// The open content's wildcard field.
        suffix: usize,
    },
    /// Mixed content, read and written by the field at this index.
    Mixed(usize),
    /// Mixed content over an element particle ([`crate::mixed`]): the children as the
    /// element-only content `elements` (a `Sequence` or an `All`), the character data
    /// between them in the field at index `text` ([`TextRuns`]).
    Interleaved {
        /// The field holding the text.
        text: usize,
        /// The element content.
        elements: &'static Content,
    },
}

/// A generated complex type: its tables, and reading and writing one field by index.
pub trait Complex: Sized {
    /// Every field (attributes first, in schema order, then content).
    const FIELDS: &'static [Field];
    /// The content model.
    const CONTENT: Content;
    /// The expanded name an element's `xsi:type` names this type by (`None`: anonymous,
    /// abstract, or a group): naming it is naming the declared type, which always stands
    /// in for itself (XSD 1.0 Part 1, 3.3.4 cvc-elt.4.3 with 3.4.6 Type Derivation OK
    /// (Complex) 1), also where no other type may.
    const XSI_NAME: Option<&'static str> = None;
    /// Whether some attribute is inheritable: an element of the type passes it on.
    const INHERITS: bool = inherits(Self::FIELDS);
    /// XSD 1.1's assertions of the type (`xs:assert`, its base's first): each element read
    /// must make every test true (`facets::assertion::element_assertions`, with the `xpath`
    /// feature).
    const ASSERTIONS: &'static [crate::facets::Assertion] = &[];
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

    /// Splits the occurrences of the repeated group in field `i` so that each stands for
    /// one occurrence and there are at least `min` (the reader found that they allow it:
    /// see [`read_items`]).
    fn fill_field(b: &mut Self::Builder, i: usize, min: u32) {
        let _ = (b, i, min);
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

/// Reads the element whose start tag is `tag` as the complex type `T`.
// Never inlined: each element read takes a frame of its own, holding its own type's
// fields, so the stack a document takes grows with its depth by what each level holds;
// inlined into a caller that reads many types (a choice, a document type, a type of many
// children), their builders would share one frame of them all.
#[inline(never)]
pub fn read<T: Complex>(r: &mut Reader<'_>, tag: &Tag) -> Result<T, Invalid> {
    // An asserted element's subtree is what its tests see: kept whole while it is read,
    // also when validation drops repeated children elsewhere (memory stays bounded by the
    // largest asserted element).
    // Its tests also see the namespaces in scope at it (taken here, while they are).
    let retained = (!T::ASSERTIONS.is_empty()).then(|| {
        let before = r.retains();
        r.set_retaining(true);
        (before, in_scope(r))
    });
    let read = read_fields::<T>(r, tag);
    if let Some((before, bindings)) = retained {
        r.set_retaining(before);
        if let Ok(value) = &read {
            check_assertions(value, r, tag, &bindings)?;
        }
    }
    read
}

/// The namespace bindings in scope where the reader stands, outermost first.
#[cold]
fn in_scope(r: &Reader<'_>) -> Vec<(String, String)> {
    r.namespace_bindings()
        .map(|(p, ns)| (p.to_string(), ns.to_string()))
        .collect()
}

/// The tests of `T`'s assertions the element `value` (read from `tag`, with the namespace
/// `bindings` in scope) does not make true, each reported (E0221); `Err` if there is one.
#[cold]
#[inline(never)]
fn check_assertions<T: Complex>(
    value: &T,
    r: &mut Reader<'_>,
    tag: &Tag,
    bindings: &[(String, String)],
) -> Result<(), Invalid> {
    let mut w = Writer::copy_in_scope(bindings.iter().map(|(p, ns)| (p.as_str(), ns.as_str())));
    write(value, &mut w, tag.name());
    let copy = w.finish();
    let lexical = match T::CONTENT {
        Content::Simple(i) => value.text(i).unwrap_or_default(),
        _ => Cow::Borrowed(""),
    };
    let failed = crate::facets::assertion::failed_on_element(T::ASSERTIONS, &lexical, &copy);
    if failed.is_empty() {
        return Ok(());
    }
    for test in failed {
        let path = r.path();
        r.report(
            Diagnostic::error(
                Code::ASSERTION,
                tag.offset,
                path,
                format!(
                    "<{}> does not satisfy the assertion {test} of its type",
                    tag.name()
                ),
            )
            .expected(format!("an element for which {test} is true"))
            .found(crate::xml::excerpt(copy.trim_end())),
        );
    }
    Err(Invalid)
}

/// [`read`] but the assertions.
#[inline(always)]
fn read_fields<T: Complex>(r: &mut Reader<'_>, tag: &Tag) -> Result<T, Invalid> {
    let mut b = T::Builder::default();
    // A field failed: reading goes on to report everything, the value is not built.
    let mut failed = false;
    let failed = &mut failed;
    let mut attributes = r.attributes(tag);
    attributes.declared_type(T::XSI_NAME);
    for (i, f) in T::FIELDS.iter().enumerate() {
        if f.is_attribute() && T::read_field(&mut b, r, tag, &mut attributes, i).is_err() {
            *failed = true;
        }
    }
    // What the element passes on to its descendants' type alternatives, until it ends: its
    // inheritable attributes, with the values they have or take by default.
    // (A constant: types without inheritable attributes, nearly all, do none of this.)
    let inheritance = T::INHERITS.then(|| r.inheritance_mark());
    if T::INHERITS {
        for f in T::FIELDS.iter().filter(|f| f.inheritable) {
            let constraint = match f.kind {
                Kind::Attribute { fixed, default } => fixed.or(default),
                _ => None,
            };
            if let Some(value) = tag.attribute(f.xml).or(constraint) {
                r.pass_on(f.xml, value);
            }
        }
    }
    // Mixed content over an element particle: its elements are read as element-only
    // content, while the reader gathers the text between them.
    let (content, text) = match T::CONTENT {
        Content::Interleaved { text, elements } => {
            r.begin_interleaved();
            (*elements, Some(text))
        }
        content => (content, None),
    };
    let attributes_ok = match content {
        // Element-only content is read before the unknown attributes are reported.
        Content::Sequence(items) => {
            if sequence::<T>(&mut b, r, tag, &mut attributes, items) {
                *failed = true;
            }
            r.end_children();
            attributes.finish(r)
        }
        Content::All { fields, optional } => {
            let group = AllGroup { fields, optional };
            all::<T>(&mut b, r, tag, &mut attributes, group, None, failed);
            r.end_children();
            attributes.finish(r)
        }
        Content::AllThenSuffix {
            fields,
            optional,
            suffix,
        } => {
            let group = AllGroup { fields, optional };
            all::<T>(&mut b, r, tag, &mut attributes, group, Some(suffix), failed);
            r.end_children();
            attributes.finish(r)
        }
        Content::Empty => {
            let ok = attributes.finish(r);
            if r.empty_content(tag).is_err() {
                *failed = true;
            }
            ok
        }
        Content::Simple(i) => {
            let ok = attributes.finish(r);
            let mut none = r.attributes(tag);
            if T::read_field(&mut b, r, tag, &mut none, i).is_err() {
                *failed = true;
            }
            ok
        }
        // Mixed content is read before the unknown attributes are reported.
        Content::Mixed(i) => {
            if T::read_field(&mut b, r, tag, &mut attributes, i).is_err() {
                *failed = true;
            }
            attributes.finish(r)
        }
        // Never nested (the generator gives element content here).
        Content::Interleaved { .. } => {
            r.end_children();
            attributes.finish(r)
        }
    };
    if let Some(i) = text {
        let mut none = r.attributes(tag);
        if T::read_field(&mut b, r, tag, &mut none, i).is_err() {
            *failed = true;
        }
    }
    if let Some(mark) = inheritance {
        r.end_inheritance(mark);
    }
    if attributes_ok.is_err() || *failed {
        return Err(Invalid);
    }
    T::build(b).ok_or(Invalid)
}

/// Reads the items of a sequence; whether one failed. Once the element's children are
/// known to have ended, an optional item has nothing to read and is passed over without
/// asking the reader (a type of many optional particles, as GPX's point of 19, asked for
/// each); a required one is still looked at, to be reported missing.
fn sequence<T: Complex>(
    b: &mut T::Builder,
    r: &mut Reader<'_>,
    tag: &Tag,
    attributes: &mut Attributes<'_>,
    items: &[Item],
) -> bool {
    let mut failed = false;
    for item in items {
        let f = &T::FIELDS[item.field];
        if f.min == 0 && r.children_ended() {
            continue;
        }
        let result = if matches!(f.kind, Kind::Group) {
            group_item::<T>(b, r, tag, attributes, item, f.max).0
        } else {
            element_item::<T>(b, r, tag, attributes, item, f.max).0
        };
        if result.is_err() {
            failed = true;
        }
    }
    failed
}

/// [`sequence`] of a group that may be divided at the field `split` (see [`read_items`]):
/// that field is read as far as `room` occurrences of the group could hold; with how many
/// of it were read, at least and at most.
fn divisible_sequence<T: Complex>(
    b: &mut T::Builder,
    r: &mut Reader<'_>,
    tag: &Tag,
    attributes: &mut Attributes<'_>,
    items: &[Item],
    split: usize,
    room: u32,
) -> (bool, (u32, u32)) {
    let mut failed = false;
    let mut split_read = (0, 0);
    for item in items {
        let f = &T::FIELDS[item.field];
        if f.min == 0 && r.children_ended() {
            continue;
        }
        let cap = if item.field == split {
            room.saturating_mul(f.max)
        } else {
            f.max
        };
        let (result, read) = sequence_item::<T>(b, r, tag, attributes, item, cap);
        if result.is_err() {
            failed = true;
        }
        if item.field == split {
            split_read = read;
        }
    }
    (failed, split_read)
}

/// Reads one particle of a sequence, every occurrence the children give up to `cap` (its
/// maxOccurs, but where a group divides the field: see [`read_items`]); with how many
/// occurrences were read, at least and at most.
#[inline(always)]
fn sequence_item<T: Complex>(
    b: &mut T::Builder,
    r: &mut Reader<'_>,
    tag: &Tag,
    attributes: &mut Attributes<'_>,
    item: &Item,
    cap: u32,
) -> (Result<(), Invalid>, (u32, u32)) {
    if matches!(T::FIELDS[item.field].kind, Kind::Group) {
        group_item::<T>(b, r, tag, attributes, item, cap)
    } else {
        let (result, count) = element_item::<T>(b, r, tag, attributes, item, cap);
        (result, (count, count))
    }
}

/// [`sequence_item`] of a child element (or wildcard), each occurrence one; with how many
/// were read.
#[inline(always)]
fn element_item<T: Complex>(
    b: &mut T::Builder,
    r: &mut Reader<'_>,
    tag: &Tag,
    attributes: &mut Attributes<'_>,
    item: &Item,
    cap: u32,
) -> (Result<(), Invalid>, u32) {
    let f = &T::FIELDS[item.field];
    if let (Some(later), true) = (item.later, f.min > 0) {
        r.skip_strays(item.first, later, item.label);
    }
    let mut count = 0u32;
    let mut result = Ok(());
    while count < cap && r.peek_index(item.first).is_some() {
        count += 1;
        if T::read_field(b, r, tag, attributes, item.field).is_err() {
            result = Err(Invalid);
        }
    }
    if count < f.min {
        r.missing_child(item.label);
        result = Err(Invalid);
    }
    (result, count)
}

/// [`sequence_item`] of a nested or repeated group.
///
/// A repeated group is read greedily: each occurrence takes all it can. Where a group's
/// repeated particle can both end an occurrence and start the next (`(a{1,2}, b?){2}` over
/// `<a/><a/>`, or `(a{2,3})*` over four `a`), greedy reading alone would misjudge
/// what the children allow; instead each occurrence read says how many occurrences it
/// stands for, at least and at most (see [`read_items`]), and the values are split into
/// as many as needed (XSD 1.0 Part 1, 3.9.4: a particle is satisfied by *some* division of
/// the children among its occurrences).
fn group_item<T: Complex>(
    b: &mut T::Builder,
    r: &mut Reader<'_>,
    tag: &Tag,
    attributes: &mut Attributes<'_>,
    item: &Item,
    cap: u32,
) -> (Result<(), Invalid>, (u32, u32)) {
    let f = &T::FIELDS[item.field];
    if let (Some(later), true) = (item.later, f.min > 0) {
        r.skip_strays(item.first, later, item.label);
    }
    let (mut count, mut at_least, mut at_most) = (0u32, 0u32, 0u32);
    let mut result = Ok(());
    while at_least < cap && r.peek_index(item.first).is_some() {
        count += 1;
        r.set_room(cap - at_least);
        if T::read_field(b, r, tag, attributes, item.field).is_err() {
            result = Err(Invalid);
        }
        let (l, h) = r.take_occurrences();
        at_least = at_least.saturating_add(l);
        at_most = at_most.saturating_add(h);
    }
    if at_most < f.min {
        r.missing_child(item.label);
        result = Err(Invalid);
    } else if (at_least > count || count < f.min) && r.retains() {
        T::fill_field(b, item.field, f.min);
    }
    (result, (at_least, at_most))
}

/// An all group's element fields and whether the whole group may be absent.
#[derive(Clone, Copy)]
struct AllGroup {
    fields: &'static [usize],
    optional: bool,
}

/// Reads an all group's members in any order, up to the end of the children; or, where
/// open content in suffix mode follows (`suffix`: its wildcard field, XSD 1.1), up to the
/// first child the group cannot take there that the wildcard allows, and then the
/// wildcard's children (what is left is `end_children`'s to report).
fn all<T: Complex>(
    b: &mut T::Builder,
    r: &mut Reader<'_>,
    tag: &Tag,
    attributes: &mut Attributes<'_>,
    AllGroup { fields, optional }: AllGroup,
    suffix: Option<usize>,
    failed: &mut bool,
) {
    let names: Vec<&str> = fields.iter().map(|&i| T::FIELDS[i].xml).collect();
    let open = suffix.map(|i| [T::FIELDS[i].xml]);
    // How many times each element came: XSD 1.1 lets an element of an all group repeat,
    // anywhere among the others, up to its maxOccurs (1.0: once).
    let mut seen = vec![0u32; fields.len()];
    while r.peek_child().is_some() {
        let taken = match r.peek_index(&names) {
            Some(k) => seen[k] < T::FIELDS[fields[k]].max,
            None => false,
        };
        if !taken && open.is_some_and(|s| r.peek_index(&s).is_some()) {
            break;
        }
        match r.peek_index(&names) {
            Some(k) if seen[k] >= T::FIELDS[fields[k]].max => {
                let max = T::FIELDS[fields[k]].max;
                // A name may be a wildcard's pattern (XSD 1.1).
                let what = crate::wildcards::label(names[k]);
                r.skip_child(&if max == 1 {
                    format!("each child of the group at most once ({what} was already given)")
                } else {
                    format!("{what} at most {max} times in the group (it was already given {max} times)")
                })
            }
            Some(k) => {
                seen[k] += 1;
                // Mixed content keeps the order (src/mixed.rs).
                r.note_all_child(fields[k]);
                if T::read_field(b, r, tag, attributes, fields[k]).is_err() {
                    *failed = true;
                }
            }
            None => r.skip_child(&format!("one of {}", element_list(&names))),
        }
    }
    // An all group of minOccurs 0 may occur not at all (no child); once it occurs, as
    // soon as one child is there, each of its required elements must be (XSD 1.0, 3.8.4:
    // the group's particle is satisfied zero times, or once by a sequence of all its
    // required particles).
    let occurred = !optional || seen.iter().any(|&n| n > 0);
    for (k, &i) in fields.iter().enumerate() {
        if seen[k] < T::FIELDS[i].min && occurred {
            r.missing_child(&crate::wildcards::label(names[k]));
            *failed = true;
        }
    }
    if let (Some(i), Some(pattern)) = (suffix, open) {
        while r.peek_index(&pattern).is_some() {
            if T::read_field(b, r, tag, attributes, i).is_err() {
                *failed = true;
            }
        }
    }
}

/// Reads the items of a sequence group (a struct of its own inside a content model) once
/// the group has started: no tag and no attributes of its own.
///
/// `split` is the field at which an occurrence may be divided into several (the generator
/// gives it where that field is the group's one required particle and is repeated, as `a`
/// in `(a{1,2}, b?)`). That field is read as far as the occurrences its repetition can
/// still take (`room`, from [`Reader::take_room`]) could hold; the `n` read then stand for
/// `ceil(n / max)` to `floor(n / min)` occurrences of the group, which is left with the
/// reader ([`Reader::set_occurrences`]) for the repetition counting them: a run no whole
/// number of occurrences can hold is an error here.
pub fn read_items<T: Complex>(
    r: &mut Reader<'_>,
    split: Option<usize>,
    room: u32,
) -> Result<T, Invalid> {
    let tag = Tag::default();
    let mut b = T::Builder::default();
    // A field failed: reading goes on to report everything, the value is not built.
    let mut failed = false;
    let mut attributes = r.attributes(&tag);
    if let Content::Sequence(items) = T::CONTENT {
        match split.and_then(|f| items.iter().find(|i| i.field == f)) {
            None => {
                failed = sequence::<T>(&mut b, r, &tag, &mut attributes, items);
                r.set_occurrences(1, 1);
            }
            Some(item) => {
                let (item_failed, (at_least, at_most)) = divisible_sequence::<T>(
                    &mut b,
                    r,
                    &tag,
                    &mut attributes,
                    items,
                    item.field,
                    room,
                );
                failed = item_failed;
                let f = &T::FIELDS[item.field];
                let (fewest, most) = occurrences_of(at_least, at_most, f.min, f.max);
                if fewest > most && at_most >= f.min {
                    indivisible(r, item.label, at_least, f.min, f.max);
                    failed = true;
                }
                r.set_occurrences(fewest, most.max(fewest));
            }
        }
    }
    if failed {
        return Err(Invalid);
    }
    T::build(b).ok_or(Invalid)
}

/// How many occurrences of a group at least and at most `at_least..=at_most` occurrences
/// of the particle it is divided at stand for, each occurrence of the group taking
/// `min..=max` of them (and at least one).
fn occurrences_of(at_least: u32, at_most: u32, min: u32, max: u32) -> (u32, u32) {
    let fewest = if max == UNBOUNDED {
        1
    } else {
        at_least.div_ceil(max.max(1)).max(1)
    };
    (fewest, at_most / min.max(1))
}

/// Reports a run of `n` occurrences of a particle that no whole number of occurrences of
/// its group, each taking `min..=max`, can hold (`(a{3})*` over four `a`).
fn indivisible(r: &mut Reader<'_>, label: &str, n: u32, min: u32, max: u32) {
    let each = if min == max {
        format!("{min}")
    } else {
        format!("{min} to {max}")
    };
    r.missing_child(&format!(
        "{label}: the {n} read make no whole number of occurrences of {each} each"
    ));
}

/// Divides `units`, the occurrences of the particle a group is divided at, into `parts`
/// occurrences of the group of `min..=max` each, splitting units that stand for several
/// (`occurrences`, `split_into`) as needed; `None` when they cannot be.
fn divide<U>(
    units: Vec<U>,
    parts: u32,
    min: u32,
    max: u32,
    occurrences: impl Fn(&U) -> (u32, u32),
    split_into: impl Fn(U, u32) -> Vec<U>,
) -> Option<Vec<Vec<U>>> {
    if parts == 0 {
        return None;
    }
    let ranges: Vec<(u32, u32)> = units.iter().map(&occurrences).collect();
    let fewest: u32 = ranges.iter().map(|r| r.0).fold(0, u32::saturating_add);
    let most: u32 = ranges.iter().map(|r| r.1).fold(0, u32::saturating_add);
    let total = fewest.max(parts.saturating_mul(min.max(1)));
    if total > most || total > parts.saturating_mul(max) {
        return None;
    }
    // Each unit as few pieces as it allows, more from the first ones until `total`.
    let mut extra = total - fewest;
    let mut pieces = Vec::with_capacity(total as usize);
    for (u, (lo, hi)) in units.into_iter().zip(ranges) {
        let more = extra.min(hi - lo);
        extra -= more;
        pieces.extend(split_into(u, lo + more));
    }
    // `total` pieces into `parts` runs of nearly equal length, each within min..=max.
    let (each, longer) = (total / parts, total % parts);
    let mut pieces = pieces.into_iter();
    Some(
        (0..parts)
            .map(|k| {
                let n = each + u32::from(k < longer);
                pieces.by_ref().take(n as usize).collect()
            })
            .collect(),
    )
}

/// How many occurrences of a group the occurrences `list` of its repeated child element
/// stand for (see [`Group::occurrences`]).
pub fn children_occurrences<T>(list: &[T], min: u32, max: u32) -> (u32, u32) {
    let n = u32::try_from(list.len()).unwrap_or(UNBOUNDED);
    occurrences_of(n, n, min, max)
}

/// Divides the occurrences `list` of a repeated child element into `parts` occurrences of
/// its group (see [`Group::split_into`]).
pub fn divide_children<T>(list: Vec<T>, parts: u32, min: u32, max: u32) -> Vec<Vec<T>> {
    let n = list.len();
    divide(list, parts, min, max, |_| (1, 1), |u, _| vec![u]).unwrap_or_else(|| {
        // Not reached: a group is divided only into what its occurrences allow.
        debug_assert!(false, "{n} children into {parts} parts of {min}..{max}");
        Vec::new()
    })
}

/// How many occurrences of a group the occurrences `list` of its repeated inner group
/// stand for.
pub fn groups_occurrences<G: Group>(list: &[G], min: u32, max: u32) -> (u32, u32) {
    let (lo, hi) = list.iter().map(G::occurrences).fold((0u32, 0u32), |a, r| {
        (a.0.saturating_add(r.0), a.1.saturating_add(r.1))
    });
    occurrences_of(lo, hi, min, max)
}

/// Divides the occurrences `list` of a repeated inner group into `parts` occurrences of
/// the group holding it.
pub fn divide_groups<G: Group>(list: Vec<G>, parts: u32, min: u32, max: u32) -> Vec<Vec<G>> {
    divide(list, parts, min, max, G::occurrences, G::split_into).unwrap_or_default()
}

/// Splits the occurrences `list` of a repeated group so that each stands for one, and
/// there are at least `min` (the reader found that they allow it).
pub fn fill_groups<G: Group>(list: &mut Vec<G>, min: u32) {
    let ranges: Vec<(u32, u32)> = list.iter().map(G::occurrences).collect();
    let fewest: u32 = ranges.iter().map(|r| r.0).fold(0, u32::saturating_add);
    let mut extra = min.saturating_sub(fewest);
    let mut out = Vec::with_capacity(fewest.max(min) as usize);
    for (g, (lo, hi)) in std::mem::take(list).into_iter().zip(ranges) {
        let more = extra.min(hi.saturating_sub(lo));
        extra -= more;
        if lo + more == 1 {
            out.push(g);
        } else {
            out.extend(g.split_into(lo + more));
        }
    }
    *list = out;
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
    write_attributes(value, w, name);
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
        Content::AllThenSuffix { fields, suffix, .. } => {
            w.begin_elements();
            for &i in fields.iter().chain([&suffix]) {
                value.write_field(w, name, i);
            }
            w.end(name);
        }
        Content::Mixed(i) => {
            w.begin_mixed();
            value.write_field(w, name, i);
            w.end(name);
        }
        Content::Interleaved { text, elements } => {
            w.begin_mixed();
            // The text first: the writer places it between the children that follow.
            value.write_field(w, name, text);
            match *elements {
                Content::Sequence(items) => {
                    for item in items {
                        value.write_field(w, name, item.field);
                    }
                }
                Content::All { fields, .. } => {
                    // In the order read (or set), then any other field, each once.
                    let order: Vec<usize> = w
                        .interleaved_all_order()
                        .iter()
                        .copied()
                        .filter(|i| fields.contains(i))
                        .chain(fields.iter().copied())
                        .collect();
                    let mut written = Vec::with_capacity(order.len());
                    for i in order {
                        if !written.contains(&i) {
                            written.push(i);
                            value.write_field(w, name, i);
                        }
                    }
                }
                _ => {}
            }
            w.end(name);
        }
    }
}

/// Writes the attributes of `value` (the element `name`, just started by `w`), in schema
/// order.
pub fn write_attributes<T: Complex>(value: &T, w: &mut Writer, name: &str) {
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
}

/// `Element` for a complex type: read and written by [`read()`] and [`write()`].
/// `complex_element!(Type, visited INDEX)` also hands each element read to the reader's
/// observer ([`Observer::element`](crate::xml::Observer::element)), for the schema's
/// visitor, with the type's place (`INDEX`) among the schema's visited types.
#[macro_export]
macro_rules! complex_element {
    // With the identity constraints of the type's element declaration.
    ($ty:ty, identity = $c:expr $(, $visited:ident $index:literal)?) => {
        impl $crate::schema::Element for $ty {
            const IDENTITY: &'static [$crate::identity::Constraint] = $c;
            fn read_element(
                r: &mut $crate::xml::Reader<'_>,
                tag: &$crate::xml::Tag,
            ) -> ::core::result::Result<Self, $crate::schema::Invalid> {
                $crate::complex::read(r, tag)
            }
            fn write_element(&self, w: &mut $crate::xml::Writer, name: &str) {
                $crate::complex::write(self, w, name)
            }
            $($crate::__visit!($visited $index);)?
        }
    };
    // Without: none, as `Element::IDENTITY` has it by default.
    ($ty:ty $(, $visited:ident $index:literal)?) => {
        $crate::complex_element!($ty, identity = &[] $(, $visited $index)?);
    };
}

/// The `Element::visit` of a type whose schema has a visitor: the element, just read, goes
/// to the reader's observer with its type's place among the schema's visited types, which
/// the schema's generated `visit` function turns into the call of the visitor's method for
/// that type.
#[doc(hidden)]
#[macro_export]
macro_rules! __visit {
    (visited $index:literal) => {
        const VISITED: bool = true;
        fn visit(
            &self,
            o: &mut dyn $crate::xml::Observer,
            at: &$crate::xml::At<'_>,
            found: &mut ::std::vec::Vec<$crate::diagnostic::Diagnostic>,
        ) {
            $crate::xml::Observer::element(o, $crate::xml::Visited::new($index, self), at, found);
        }
    };
}

/// A schema's `Visitor`: `visitor!([INDEX Type method, ...])`, one method per element type,
/// each given the element just read, where it stands ([`At`](crate::xml::At)) and the
/// findings to add to. Every method does nothing unless a format's rules say otherwise.
/// Also `visit`, which an [`Observer`](crate::xml::Observer) calls with the elements the
/// reader hands it, so that the runtime names no schema: the schema's code dispatches.
#[macro_export]
macro_rules! visitor {
    ([$($i:literal $ty:ident $m:ident),* $(,)?]) => {
        /// What sees each element of this schema as the reader reads it, in document order
        /// (an element once its content is read and valid; the shapes of an element typed
        /// by alternatives are seen as that element). Format rules implement it.
        pub trait Visitor {
            $(
                #[doc = concat!("A `", stringify!($ty), "` element, read at `at`.")]
                fn $m(
                    &mut self,
                    element: &$ty,
                    at: &$crate::xml::At<'_>,
                    found: &mut ::std::vec::Vec<$crate::diagnostic::Diagnostic>,
                ) {
                    let _ = (element, at, found);
                }
            )*
        }

        /// Hands `element`, which the reader gave an observer
        /// ([`Observer::element`]($crate::xml::Observer::element)), to the method of
        /// `visitor` for its type; false if it is of none of this schema's element types.
        pub fn visit(
            visitor: &mut dyn Visitor,
            element: $crate::xml::Visited<'_>,
            at: &$crate::xml::At<'_>,
            found: &mut ::std::vec::Vec<$crate::diagnostic::Diagnostic>,
        ) -> bool {
            // The place tells the type; the downcast checks it.
            match element.index() {
                $(
                    $i => {
                        if let ::core::option::Option::Some(e) =
                            element.value().downcast_ref::<$ty>()
                        {
                            visitor.$m(e, at, found);
                            return true;
                        }
                    }
                )*
                _ => {}
            }
            let _ = (visitor, at, found);
            false
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
    /// How many occurrences of the group this one stands for, at least and at most: more
    /// than one where it was read at a particle it may be divided at (see
    /// [`read_items`]).
    fn occurrences(&self) -> (u32, u32) {
        (1, 1)
    }
    /// This occurrence divided into `parts` occurrences, `parts` within
    /// [`Group::occurrences`].
    fn split_into(self, parts: u32) -> Vec<Self> {
        debug_assert_eq!(parts, 1);
        vec![self]
    }
}

/// One occurrence of a child element (the caller has seen it start).
pub fn child<T: Element + 'static>(
    r: &mut Reader<'_>,
    slot: &mut Option<T>,
) -> Result<(), Invalid> {
    *slot = Some(r.read_child()?);
    Ok(())
}

/// One more occurrence of a repeated child element, kept only while the reader retains.
pub fn push<T: Element + 'static>(r: &mut Reader<'_>, list: &mut Vec<T>) -> Result<(), Invalid> {
    let v = r.read_child()?;
    keep(r, list, v)
}

/// Keeps `v`, one more occurrence of a repeated particle, while the reader retains
/// (validating without keeping holds memory bounded).
fn keep<T>(r: &Reader<'_>, list: &mut Vec<T>, v: T) -> Result<(), Invalid> {
    if r.retains() {
        list.push(v);
    }
    Ok(())
}

/// One occurrence of a child element, with its field's value constraint.
fn constrained_child<T: Element + 'static>(
    r: &mut Reader<'_>,
    f: &Field,
    slot: &mut Option<T>,
) -> Result<(), Invalid> {
    *slot = Some(r.read_declared(f.value, f.types)?);
    Ok(())
}

/// One more occurrence of a repeated child element, with its field's value constraint.
fn constrained_push<T: Element + 'static>(
    r: &mut Reader<'_>,
    f: &Field,
    list: &mut Vec<T>,
) -> Result<(), Invalid> {
    let v = r.read_declared(f.value, f.types)?;
    keep(r, list, v)
}

/// One occurrence of a group (the caller has seen it start).
pub fn group<G: Group>(r: &mut Reader<'_>, slot: &mut Option<G>) -> Result<(), Invalid> {
    *slot = Some(G::read_group(r).unwrap_or(Err(Invalid))?);
    Ok(())
}

/// One more occurrence of a repeated group.
pub fn push_group<G: Group>(r: &mut Reader<'_>, list: &mut Vec<G>) -> Result<(), Invalid> {
    let v = G::read_group(r).unwrap_or(Err(Invalid))?;
    keep(r, list, v)
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
    let text = w.lexical(value);
    w.attribute(name, &text);
}

/// Writes an optional attribute if present.
pub fn write_optional_attribute<T: SimpleValue>(w: &mut Writer, name: &str, value: &Option<T>) {
    if let Some(v) = value {
        let text = w.lexical(v);
        w.attribute(name, &text);
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
    let text = w.lexical(value);
    w.simple_content(name, &text, form);
}

/// How one field of a generated struct is read, built, written and given as text: the
/// kinds below, one per shape of field. A generated type names each field's kind once
/// ([`complex_type!`](crate::complex_type)) and these do the rest.
pub trait FieldKind {
    /// The field's type in the struct.
    type Value;
    /// What it is read into before the struct is built.
    type Slot: Default;
    /// Reads one occurrence (an attribute from `a`, or a child the caller has seen start).
    fn read(
        r: &mut Reader<'_>,
        a: &mut Attributes<'_>,
        f: &Field,
        slot: &mut Self::Slot,
    ) -> Result<(), Invalid>;
    /// The value, once read; `None` when a required value is missing.
    fn build(slot: Self::Slot) -> Option<Self::Value>;
    /// Writes the field (an attribute, or every occurrence of a child or group).
    fn write(value: &Self::Value, w: &mut Writer, f: &Field);
    /// The lexical form when the field holds one simple value and is present.
    fn text(value: &Self::Value) -> Option<Cow<'_, str>> {
        let _ = value;
        None
    }
    /// Sets the field from a lexical form; `Ok(false)` when it does not hold one simple value.
    fn set_text(value: &mut Self::Value, text: &str) -> Result<bool, FacetError> {
        let _ = (value, text);
        Ok(false)
    }
    /// A repeated group: splits its occurrences until there are `min` (see
    /// [`Complex::fill_field`]).
    fn fill(slot: &mut Self::Slot, min: u32) {
        let _ = (slot, min);
    }
}

macro_rules! kinds {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        pub struct $name<T>(core::marker::PhantomData<fn() -> T>);
    )*};
}

kinds!(
    /// A required attribute, held as `T`.
    Attr,
    /// An optional attribute (with or without a default or a fixed value), held as `Option<T>`.
    OptAttr,
    /// A required attribute with a fixed value: checked when read, held nowhere.
    Fixed,
    /// A required child element of a complex type, held as `T`.
    Child,
    /// An optional child element of a complex type, held as `Option<T>`.
    OptChild,
    /// A required child element of a simple type, held as `T` (it has a text form).
    Leaf,
    /// An optional child element of a simple type, held as `Option<T>`.
    OptLeaf,
    /// A repeated child element, held as `Vec<T>`.
    Children,
    /// A required group, held as `T`.
    One,
    /// An optional group, held as `Option<T>`.
    Opt,
    /// A repeated group, held as `Vec<T>`.
    Many,
    /// Mixed content, held as `Vec<T>` (text and elements in document order).
    Mixed,
    /// The text of mixed content over an element particle, held as
    /// [`MixedText`](crate::mixed::MixedText) (`T` is that type).
    TextRuns,
);

impl FieldKind for TextRuns<crate::mixed::MixedText> {
    type Value = crate::mixed::MixedText;
    type Slot = crate::mixed::MixedText;
    fn read(
        r: &mut Reader<'_>,
        _: &mut Attributes<'_>,
        _: &Field,
        slot: &mut crate::mixed::MixedText,
    ) -> Result<(), Invalid> {
        *slot = r.finish_interleaved()?;
        Ok(())
    }
    fn build(slot: crate::mixed::MixedText) -> Option<crate::mixed::MixedText> {
        Some(slot)
    }
    fn write(value: &crate::mixed::MixedText, w: &mut Writer, _: &Field) {
        w.interleave(value);
    }
}

fn fixed_value(f: &Field) -> &'static str {
    match f.kind {
        Kind::Attribute { fixed, .. } => fixed.unwrap_or_default(),
        _ => "",
    }
}

/// An optional attribute: a fixed value is checked; the default or fixed value an absent
/// one takes counts for identity constraints and IDREFs as a written one would.
fn optional_attribute<T: SimpleValue>(
    r: &mut Reader<'_>,
    a: &mut Attributes<'_>,
    f: &Field,
    slot: &mut Option<T>,
) -> Result<(), Invalid> {
    *slot = match f.kind {
        Kind::Attribute {
            fixed: Some(fixed), ..
        } => a.fixed(r, f.xml, fixed, false)?,
        _ => a.optional(r, f.xml)?,
    };
    if let (
        None,
        Kind::Attribute {
            default: Some(value),
            ..
        }
        | Kind::Attribute {
            fixed: Some(value), ..
        },
    ) = (&*slot, f.kind)
    {
        r.identity_attribute_default::<T>(f.xml, value);
        r.note_default_ids::<T>(a.tag_offset(), f.xml, value);
    }
    Ok(())
}

impl<T: SimpleValue> FieldKind for Fixed<T> {
    type Value = ();
    type Slot = ();
    fn read(
        r: &mut Reader<'_>,
        a: &mut Attributes<'_>,
        f: &Field,
        _: &mut (),
    ) -> Result<(), Invalid> {
        a.fixed::<T>(r, f.xml, fixed_value(f), true).map(drop)
    }
    fn build(_: ()) -> Option<()> {
        Some(())
    }
    // Written by [`write()`] from the field table.
    fn write(_: &(), _: &mut Writer, _: &Field) {}
}

/// Reads one occurrence of a field by `read`, a closure of the table of kinds below
/// (whose signature this gives it).
#[inline(always)]
fn read_by<S>(
    read: impl FnOnce(&mut Reader<'_>, &mut Attributes<'_>, &Field, &mut S) -> Result<(), Invalid>,
    r: &mut Reader<'_>,
    a: &mut Attributes<'_>,
    f: &Field,
    slot: &mut S,
) -> Result<(), Invalid> {
    read(r, a, f, slot)
}

/// The kinds of fields, one a line: what the field holds, what it is read into, how one
/// occurrence is read (`|reader, attributes, field, slot|`), how the value is built and
/// written, and for a field of one simple value, its text form (`text_one` and `set_one`
/// when held as `T`, `text_opt` and `set_opt` when held as `Option<T>`).
macro_rules! field_kinds {
    ($($kind:ident<$t:ident: $bound:ident $(+ $more:ident)*>: $value:ty, $slot:ty, $read:expr, $build:expr, $write:expr $(, $text:ident, $set_text:ident)? $(=> fill $fill:ident)?;)*) => {$(
        impl<$t: $bound $(+ $more)* + 'static> FieldKind for $kind<$t> {
            type Value = $value;
            type Slot = $slot;
            fn read(r: &mut Reader<'_>, a: &mut Attributes<'_>, f: &Field, slot: &mut $slot) -> Result<(), Invalid> {
                read_by($read, r, a, f, slot)
            }
            fn build(slot: $slot) -> Option<$value> {
                ($build)(slot)
            }
            fn write(value: &$value, w: &mut Writer, f: &Field) {
                ($write)(value, w, f)
            }
            $(
                fn text(value: &$value) -> Option<Cow<'_, str>> {
                    $text(value)
                }
                fn set_text(value: &mut $value, text: &str) -> Result<bool, FacetError> {
                    $set_text(value, text)
                }
            )?
            $(
                fn fill(slot: &mut $slot, min: u32) {
                    $fill(slot, min)
                }
            )?
        }
    )*};
}

field_kinds! {
    Attr<T: SimpleValue>: T, Option<T>, |r, a, f, s| a.required(r, f.xml).map(|v| *s = Some(v)), |s| s, |v, w, f: &Field| write_attribute(w, f.xml, v), text_one, set_one;
    OptAttr<T: SimpleValue>: Option<T>, Option<T>, optional_attribute, Some, |v, w, f: &Field| write_optional_attribute(w, f.xml, v), text_opt, set_opt;
    Child<T: Element>: T, Option<T>, |r, _, f, s| constrained_child(r, f, s), |s| s, |v, w, f: &Field| write_children(w, f.xml, [v]);
    OptChild<T: Element>: Option<T>, Option<T>, |r, _, f, s| constrained_child(r, f, s), Some, |v, w, f: &Field| write_children(w, f.xml, v);
    Leaf<T: SimpleValue + Element>: T, Option<T>, |r, _, f, s| constrained_child(r, f, s), |s| s, |v, w, f: &Field| write_children(w, f.xml, [v]), text_one, set_one;
    OptLeaf<T: SimpleValue + Element>: Option<T>, Option<T>, |r, _, f, s| constrained_child(r, f, s), Some, |v, w, f: &Field| write_children(w, f.xml, v), text_opt, set_opt;
    Children<T: Element>: Vec<T>, Vec<T>, |r, _, f, s| constrained_push(r, f, s), Some, |v, w, f: &Field| write_children(w, f.xml, v);
    One<T: Group>: T, Option<T>, |r, _, _, s| group(r, s), |s| s, |v, w, _| write_groups(w, [v]);
    Opt<T: Group>: Option<T>, Option<T>, |r, _, _, s| group(r, s), Some, |v, w, _| write_groups(w, v);
    Many<T: Group>: Vec<T>, Vec<T>, |r, _, _, s| push_group(r, s), Some, |v, w, _| write_groups(w, v) => fill fill_groups;
}

/// The items of a type's mixed content: text, CDATA, and the elements its choice allows.
pub trait MixedContent: Sized {
    /// The elements, in schema order.
    const NAMES: &'static [&'static str];
    /// minOccurs of the repeated choice.
    const MIN: usize;
    /// maxOccurs of the repeated choice (`None`: unbounded).
    const MAX: Option<usize>;
    /// Character data.
    fn text(text: String) -> Self;
    /// A CDATA section.
    fn cdata(text: String) -> Self;
    /// Reads the child element `NAMES[k]`, which the caller has seen start.
    fn read_element(r: &mut Reader<'_>, k: usize) -> Result<Self, Invalid>;
    /// Writes the item.
    fn write(&self, w: &mut Writer);
}

fn element_list(names: &[&str]) -> String {
    names
        .iter()
        // A name may be an element wildcard's pattern.
        .map(|n| crate::wildcards::label(n))
        .collect::<Vec<_>>()
        .join(", ")
}

impl<T: MixedContent> FieldKind for Mixed<T> {
    type Value = Vec<T>;
    type Slot = Vec<T>;
    fn read(
        r: &mut Reader<'_>,
        _: &mut Attributes<'_>,
        _: &Field,
        slot: &mut Vec<T>,
    ) -> Result<(), Invalid> {
        let mut ok = true;
        let mut count = 0usize;
        // The element's default= or fixed=, which its content as a whole answers to.
        let mut constraint = r.content_constraint();
        while let Some(item) = r.next_mixed() {
            if let Some(c) = &mut constraint {
                c.item(&item);
            }
            let item = match item {
                MixedItem::Text(t) => Ok(T::text(t)),
                MixedItem::CData(t) => Ok(T::cdata(t)),
                MixedItem::Child => {
                    count += 1;
                    match r.peek_index(T::NAMES) {
                        Some(k) if T::MAX.is_none_or(|m| count <= m) => T::read_element(r, k),
                        _ => {
                            let expected = if T::NAMES.is_empty() {
                                "text only".to_string()
                            } else {
                                format!("text or one of {}", element_list(T::NAMES))
                            };
                            r.skip_child(&expected);
                            Err(Invalid)
                        }
                    }
                }
            };
            match item {
                Ok(v) if r.retains() => slot.push(v),
                Ok(_) => {}
                Err(_) => ok = false,
            }
        }
        if let Some(c) = constraint {
            match c.finish(r) {
                // An empty element holds the value as its text.
                Ok(Some(value)) if r.retains() => slot.push(T::text(value.to_string())),
                Ok(_) => {}
                Err(_) => ok = false,
            }
        }
        if count < T::MIN {
            r.missing_child(&format!(
                "at least {} of {}",
                T::MIN,
                element_list(T::NAMES)
            ));
            ok = false;
        }
        if ok {
            Ok(())
        } else {
            Err(Invalid)
        }
    }
    fn build(slot: Vec<T>) -> Option<Vec<T>> {
        Some(slot)
    }
    fn write(value: &Vec<T>, w: &mut Writer, _: &Field) {
        for item in value {
            item.write(w);
        }
    }
}

#[doc(hidden)]
#[macro_export]
macro_rules! __first {
    ($a:expr, $($ignored:tt)*) => {
        $a
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __field {
    (ref $s:tt) => {
        &()
    };
    (ref $s:tt $f:ident) => {
        &$s.$f
    };
    ($s:tt) => {
        &mut ()
    };
    ($s:tt $f:ident) => {
        &mut $s.$f
    };
}

/// The [`Complex`] impl of a generated struct (a complex type or a sequence group), from
/// its tables and its fields: `complex_type!(Type, CONTENT, [INDEX FIELD: KIND(T)
/// FIELD-CONSTRUCTOR(ARGS), ...], CONTENT-INDEX CONTENT-FIELD FORM-FIELD: T)`, the last part
/// for simple content; KIND is one of the [`FieldKind`]s, FIELD-CONSTRUCTOR one of
/// [`Field`]'s (`attribute("color", true)`, `MIXED`). A field without a name is a required
/// attribute with a fixed value (held nowhere). Reading fills a hidden builder of the
/// fields' slots. `Type named "{ns}local"` gives a named type's [`Complex::XSI_NAME`].
#[macro_export]
macro_rules! complex_type {
    ($ty:ident $(named $name:literal)?, $content:expr, [$($i:literal $($f:ident)?: $kind:ident($t:ty)
        $field:ident $(($($arg:tt)*))?),* $(,)?] $(, $ci:literal $cf:ident $cform:ident: $ct:ty)?
        $(, asserts $asserts:expr)?) => {
        $crate::complex_type!(@impl $ty $(named $name)?, $content,
            [$($i $($f)?: $crate::complex::$kind<$t> = $crate::complex::Field::$field $(($($arg)*))?),*]
            $(, $ci $cf $cform: $ct)? $(, asserts $asserts)?);
    };
    (@impl $ty:ident $(named $name:literal)?, $content:expr, [$($i:literal $($f:ident)?: $k:ty = $field:expr),*]
        $(, $ci:literal $cf:ident $cform:ident: $ct:ty)? $(, asserts $asserts:expr)?) => {
        const _: () = {
            use $crate::complex::FieldKind as _;
            /// What the fields are read into.
            #[derive(Default)]
            pub struct Builder {
                $($($f: <$k as $crate::complex::FieldKind>::Slot,)?)*
                $($cf: ::core::option::Option<$ct>, $cform: $crate::schema::TextForm,)?
            }
            impl $crate::complex::Complex for $ty {
                const FIELDS: &'static [$crate::complex::Field] = &[
                    $($field,)* $($crate::__first!($crate::complex::Field::CONTENT, $ci))?
                ];
                const CONTENT: $crate::complex::Content = $content;
                $(const XSI_NAME: ::core::option::Option<&'static str> =
                    ::core::option::Option::Some($name);)?
                $(const ASSERTIONS: &'static [$crate::facets::Assertion] =
                    $crate::facets::assertion::element_assertions($asserts);)?
                type Builder = Builder;
                #[allow(unused_variables)]
                fn read_field(
                    b: &mut Builder,
                    r: &mut $crate::xml::Reader<'_>,
                    tag: &$crate::xml::Tag,
                    a: &mut $crate::xml::Attributes<'_>,
                    i: usize,
                ) -> ::core::result::Result<(), $crate::schema::Invalid> {
                    match i {
                        $($i => <$k>::read(r, a, &Self::FIELDS[$i], $crate::__field!(b $($f)?)),)*
                        $($ci => $crate::complex::content(r, tag, &mut b.$cf, &mut b.$cform),)?
                        _ => ::core::result::Result::Ok(()),
                    }
                }
                #[allow(unused_variables)]
                fn fill_field(b: &mut Builder, i: usize, min: u32) {
                    match i {
                        $($i => <$k>::fill($crate::__field!(b $($f)?), min),)*
                        _ => {}
                    }
                }
                #[allow(unused_variables)]
                fn build(b: Builder) -> ::core::option::Option<Self> {
                    ::core::option::Option::Some($ty {
                        $($($f: <$k>::build(b.$f)?,)?)*
                        $($cform: b.$cform, $cf: b.$cf?,)?
                    })
                }
                #[allow(unused_variables)]
                fn write_field(&self, w: &mut $crate::xml::Writer, name: &str, i: usize) {
                    match i {
                        $($i => <$k>::write($crate::__field!(ref self $($f)?), w, &Self::FIELDS[$i]),)*
                        $($ci => $crate::complex::write_content(w, name, &self.$cf, self.$cform),)?
                        _ => {}
                    }
                }
                #[allow(unused_variables)]
                fn text(&self, i: usize) -> ::core::option::Option<::std::borrow::Cow<'_, str>> {
                    match i {
                        $($i => <$k>::text($crate::__field!(ref self $($f)?)),)*
                        $($ci => $crate::complex::text_one(&self.$cf),)?
                        _ => ::core::option::Option::None,
                    }
                }
                #[allow(unused_variables)]
                fn set_text(
                    &mut self,
                    i: usize,
                    text: &str,
                ) -> ::core::result::Result<bool, $crate::schema::FacetError> {
                    match i {
                        $($i => <$k>::set_text($crate::__field!(self $($f)?), text),)*
                        $($ci => $crate::complex::set_one(&mut self.$cf, text),)?
                        _ => ::core::result::Result::Ok(false),
                    }
                }
            }
        };
    };
}

/// [`Group`] for a sequence group (a struct whose [`Complex`] impl reads its items):
/// `sequence_group!(Type, [FIRST...])`, or where an occurrence may be divided at a
/// repeated field (see [`read_items`]), `sequence_group!(Type, [FIRST...], split INDEX
/// field children|groups, [FIELDS BEFORE...], [FIELDS AFTER...])`: the other fields are
/// optional, so the first part keeps those before, the last those after, and the parts
/// between have none.
#[macro_export]
macro_rules! sequence_group {
    ($ty:ident, [$($first:literal),* $(,)?]) => {
        $crate::sequence_group!(@impl $ty, [$($first),*], ::core::option::Option::None, {});
    };
    ($ty:ident, [$($first:literal),* $(,)?], split $i:literal $f:ident $how:ident,
        [$($before:ident),* $(,)?], [$($after:ident),* $(,)?]) => {
        $crate::sequence_group!(@impl $ty, [$($first),*], ::core::option::Option::Some($i), {
            fn occurrences(&self) -> (u32, u32) {
                let f = &<Self as $crate::complex::Complex>::FIELDS[$i];
                $crate::__split!(occurrences $how &self.$f, f.min, f.max)
            }
            fn split_into(self, parts: u32) -> ::std::vec::Vec<Self> {
                let f = &<Self as $crate::complex::Complex>::FIELDS[$i];
                let $ty { $(mut $before,)* $f, $(mut $after,)* } = self;
                let runs = $crate::__split!(divide $how $f, parts, f.min, f.max);
                let n = runs.len();
                runs.into_iter()
                    .enumerate()
                    .map(|(k, run)| $ty {
                        // Taken by the first part: the others get none.
                        $($before: ::core::mem::take(&mut $before),)*
                        $f: run,
                        $($after: if k + 1 == n {
                            ::core::mem::take(&mut $after)
                        } else {
                            ::core::default::Default::default()
                        },)*
                    })
                    .collect()
            }
        });
    };
    (@impl $ty:ident, [$($first:literal),*], $split:expr, {$($split_into:tt)*}) => {
        impl $crate::complex::Group for $ty {
            const FIRST: &'static [&'static str] = &[$($first),*];
            fn read_group(
                r: &mut $crate::xml::Reader<'_>,
            ) -> ::core::option::Option<::core::result::Result<Self, $crate::schema::Invalid>> {
                let room = r.take_room();
                r.peek_index(Self::FIRST)?;
                ::core::option::Option::Some($crate::complex::read_items(r, $split, room))
            }
            fn write_group(&self, w: &mut $crate::xml::Writer) {
                $crate::complex::write_items(self, w)
            }
            $($split_into)*
        }
    };
}

/// How many occurrences a repeated field's occurrences stand for, and their division:
/// `children` of an element, `groups` of a group.
#[doc(hidden)]
#[macro_export]
macro_rules! __split {
    (occurrences children $list:expr, $min:expr, $max:expr) => {
        $crate::complex::children_occurrences($list, $min, $max)
    };
    (occurrences groups $list:expr, $min:expr, $max:expr) => {
        $crate::complex::groups_occurrences($list, $min, $max)
    };
    (divide children $list:expr, $parts:expr, $min:expr, $max:expr) => {
        $crate::complex::divide_children($list, $parts, $min, $max)
    };
    (divide groups $list:expr, $parts:expr, $min:expr, $max:expr) => {
        $crate::complex::divide_groups($list, $parts, $min, $max)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __choice_arm {
    (read $r:ident $room:ident $v:path) => {
        // A nested group: the room is its own to divide (see `read_items`).
        $r.set_room($room);
        if let ::core::option::Option::Some(v) = $crate::complex::Group::read_group($r) {
            return ::core::option::Option::Some(v.map($v));
        }
    };
    (read $r:ident $room:ident $v:path, $n:literal $(= $vc:expr)? $(; xsi $xt:expr)?) => {
        if $r.peek_is($n) {
            let v = $r.read_declared(
                $crate::__value_constraint!($($vc)?),
                $crate::__value_constraint!($($xt)?),
            );
            // One element: one occurrence of the choice.
            $r.set_occurrences(1, 1);
            return ::core::option::Option::Some(v.map($v));
        }
    };
    (read $r:ident $room:ident $v:path [$min:expr, $max:expr]) => {
        if let ::core::option::Option::Some(v) = $crate::complex::read_groups($r, $min, $max, $room) {
            return ::core::option::Option::Some(v.map($v));
        }
    };
    (read $r:ident $room:ident $v:path, $n:literal [$min:expr, $max:expr] $(= $vc:expr)? $(; xsi $xt:expr)?) => {
        if $r.peek_is($n) {
            return ::core::option::Option::Some(
                $crate::complex::read_branch_children(
                    $r,
                    $n,
                    $min,
                    $max,
                    $crate::__value_constraint!($($vc)?),
                    $crate::__value_constraint!($($xt)?),
                    $room,
                )
                .map($v),
            );
        }
    };
    (write $x:ident $w:ident) => {
        $crate::complex::Group::write_group($x, $w)
    };
    (write $x:ident $w:ident, $n:literal $(= $vc:expr)? $(; xsi $xt:expr)?) => {
        $crate::schema::Element::write_element($x, $w, $n)
    };
    (write $x:ident $w:ident [$min:expr, $max:expr]) => {
        $crate::complex::write_groups($w, $x)
    };
    (write $x:ident $w:ident, $n:literal [$min:expr, $max:expr] $(= $vc:expr)? $(; xsi $xt:expr)?) => {
        $crate::complex::write_children($w, $n, $x)
    };
    (occurrences $x:ident) => {
        $crate::complex::Group::occurrences($x)
    };
    (occurrences $x:ident, $n:literal $(= $vc:expr)? $(; xsi $xt:expr)?) => {
        (1, 1)
    };
    (occurrences $x:ident [$min:expr, $max:expr]) => {
        $crate::complex::groups_occurrences($x, $min, $max)
    };
    (occurrences $x:ident, $n:literal [$min:expr, $max:expr] $(= $vc:expr)? $(; xsi $xt:expr)?) => {
        $crate::complex::children_occurrences($x, $min, $max)
    };
    (divide $x:ident $parts:ident) => {
        $crate::complex::Group::split_into($x, $parts)
    };
    (divide $x:ident $parts:ident, $n:literal $(= $vc:expr)? $(; xsi $xt:expr)?) => {
        ::std::vec![$x]
    };
    (divide $x:ident $parts:ident [$min:expr, $max:expr]) => {
        $crate::complex::divide_groups($x, $parts, $min, $max)
    };
    (divide $x:ident $parts:ident, $n:literal [$min:expr, $max:expr] $(= $vc:expr)? $(; xsi $xt:expr)?) => {
        $crate::complex::divide_children($x, $parts, $min, $max)
    };
}

/// An optional argument of a branch (its value constraint, after `=`, or its `xsi:type`
/// table, after `; xsi`): `Some` of the one written, or `None`.
#[doc(hidden)]
#[macro_export]
macro_rules! __value_constraint {
    () => {
        ::core::option::Option::None
    };
    ($vc:expr) => {
        ::core::option::Option::Some($vc)
    };
}

/// A choice branch that is an element repeated by its own occurrence (`(a{2,5}|b)`), once
/// its first occurrence is next: every occurrence up to `max`, at least `min`.
pub fn read_children<T: Element + 'static>(
    r: &mut Reader<'_>,
    name: &str,
    min: u32,
    max: u32,
) -> Result<Vec<T>, Invalid> {
    read_constrained_children(r, name, min, max, None)
}

/// [`read_children`] of an element whose declaration has a value constraint (`default=`
/// or `fixed=`), which each occurrence is read with.
pub fn read_constrained_children<T: Element + 'static>(
    r: &mut Reader<'_>,
    name: &str,
    min: u32,
    max: u32,
    value: Option<ValueConstraint>,
) -> Result<Vec<T>, Invalid> {
    read_declared_children(r, name, min, max, value, None)
}

/// [`read_constrained_children`] of an element whose declared type is simple, with what
/// its `xsi:type` may name (see [`Reader::read_declared`]).
pub fn read_declared_children<T: Element + 'static>(
    r: &mut Reader<'_>,
    name: &str,
    min: u32,
    max: u32,
    value: Option<ValueConstraint>,
    types: Option<&'static crate::type_substitution::SimpleTable>,
) -> Result<Vec<T>, Invalid> {
    read_branch_children(r, name, min, max, value, types, 1)
}

/// [`read_declared_children`] as the branch of a choice whose repetition can still take
/// `room` occurrences: as many occurrences of the element as those could hold are read,
/// and the choice's occurrence stands for as many occurrences as they make (see
/// [`read_items`]).
pub fn read_branch_children<T: Element + 'static>(
    r: &mut Reader<'_>,
    name: &str,
    min: u32,
    max: u32,
    value: Option<ValueConstraint>,
    types: Option<&'static crate::type_substitution::SimpleTable>,
    room: u32,
) -> Result<Vec<T>, Invalid> {
    let mut list = Vec::new();
    let mut count = 0u32;
    let mut ok = true;
    let cap = room.saturating_mul(max);
    while count < cap && r.peek_is(name) {
        count += 1;
        match r.read_declared(value, types) {
            Ok(v) if r.retains() => list.push(v),
            Ok(_) => {}
            Err(_) => ok = false,
        }
    }
    let label = crate::wildcards::label(name);
    let occurrences = occurrences_of(count, count, min, max);
    if count < min {
        r.missing_child(&format!("{label} (at least {min})"));
        ok = false;
    } else if occurrences.0 > occurrences.1 {
        indivisible(r, &label, count, min, max);
        ok = false;
    }
    r.set_occurrences(occurrences.0, occurrences.1.max(occurrences.0));
    if ok {
        Ok(list)
    } else {
        Err(Invalid)
    }
}

/// A choice branch that is a group repeated by its own occurrence, if the next child
/// starts it: every occurrence up to what `room` occurrences of the choice could hold, at
/// least `min` (see [`read_items`]).
pub fn read_groups<G: Group>(
    r: &mut Reader<'_>,
    min: u32,
    max: u32,
    room: u32,
) -> Option<Result<Vec<G>, Invalid>> {
    let mut list = Vec::new();
    let mut ok = true;
    let (mut count, mut at_least, mut at_most) = (0u32, 0u32, 0u32);
    let cap = room.saturating_mul(max);
    while at_least < cap {
        r.set_room(cap - at_least);
        let Some(v) = G::read_group(r) else { break };
        count += 1;
        let (l, h) = r.take_occurrences();
        at_least = at_least.saturating_add(l);
        at_most = at_most.saturating_add(h);
        match v {
            Ok(v) if r.retains() => list.push(v),
            Ok(_) => {}
            Err(_) => ok = false,
        }
    }
    if count == 0 {
        return None;
    }
    let occurrences = occurrences_of(at_least, at_most, min, max);
    if at_most < min {
        r.missing_child(&format!(
            "one of {} (at least {min} groups)",
            element_list(G::FIRST)
        ));
        ok = false;
    } else if occurrences.0 > occurrences.1 {
        indivisible(
            r,
            &format!("one of {}", element_list(G::FIRST)),
            at_least,
            min,
            max,
        );
        ok = false;
    } else if (at_least > count || count < min) && r.retains() {
        fill_groups(&mut list, min);
    }
    r.set_occurrences(occurrences.0, occurrences.1.max(occurrences.0));
    Some(if ok { Ok(list) } else { Err(Invalid) })
}

/// [`Group`] for a choice group: `choice_group!(Type, [FIRST...], [Variant "element",
/// NestedGroupVariant, Repeated "element" [MIN, MAX], RepeatedGroup [MIN, MAX], ...])`,
/// an element's branch followed by `= ValueConstraint::...` where its declaration has
/// `default=` or `fixed=`;
/// tried in order (the schema's Unique Particle Attribution makes the first match the only
/// one). A repeated branch holds a `Vec` of its occurrences.
#[macro_export]
macro_rules! choice_group {
    ($ty:ident, [$($first:literal),* $(,)?], [$($v:ident $($n:literal)? $([$min:expr, $max:expr])? $(= $vc:expr)? $(; xsi $xt:expr)?),* $(,)?]) => {
        impl $crate::complex::Group for $ty {
            const FIRST: &'static [&'static str] = &[$($first),*];
            fn read_group(
                r: &mut $crate::xml::Reader<'_>,
            ) -> ::core::option::Option<::core::result::Result<Self, $crate::schema::Invalid>> {
                let room = r.take_room();
                $($crate::__choice_arm!(read r room Self::$v $(, $n)? $([$min, $max])? $(= $vc)? $(; xsi $xt)?);)*
                // Used by no arm for an empty xs:choice.
                let _ = r;
                ::core::option::Option::None
            }
            fn write_group(&self, w: &mut $crate::xml::Writer) {
                // `*self`: an empty choice is an enum without variants, which `match *self {}`
                // covers.
                match *self {
                    $(Self::$v(ref v) => $crate::__choice_arm!(write v w $(, $n)? $([$min, $max])? $(= $vc)? $(; xsi $xt)?),)*
                }
            }
            // A branch repeated by its own occurrence is divided as a repeated field is; a
            // nested group as it is; one element stands for one occurrence.
            #[allow(unused_variables)]
            fn occurrences(&self) -> (u32, u32) {
                match *self {
                    $(Self::$v(ref v) => $crate::__choice_arm!(occurrences v $(, $n)? $([$min, $max])? $(= $vc)? $(; xsi $xt)?),)*
                }
            }
            #[allow(unused_variables)]
            fn split_into(self, parts: u32) -> ::std::vec::Vec<Self> {
                match self {
                    $(Self::$v(v) => $crate::__choice_arm!(divide v parts $(, $n)? $([$min, $max])? $(= $vc)? $(; xsi $xt)?)
                        .into_iter()
                        .map(Self::$v)
                        .collect(),)*
                }
            }
        }
    };
}

/// [`MixedContent`] for the items of a type's mixed content: `mixed_content!(Type, MIN,
/// MAX, [INDEX Variant "element", ...])` (MAX `None` for unbounded), an element followed
/// by `= ValueConstraint::...` where its declaration has `default=` or `fixed=`.
#[macro_export]
macro_rules! mixed_content {
    ($ty:ident, $min:literal, $max:expr, [$($i:literal $v:ident $n:literal $(= $vc:expr)? $(; xsi $xt:expr)?),* $(,)?]) => {
        impl $crate::complex::MixedContent for $ty {
            const NAMES: &'static [&'static str] = &[$($n),*];
            const MIN: usize = $min;
            const MAX: ::core::option::Option<usize> = $max;
            fn text(text: ::std::string::String) -> Self {
                Self::Text(text)
            }
            fn cdata(text: ::std::string::String) -> Self {
                Self::CData(text)
            }
            #[allow(unused_variables)]
            fn read_element(
                r: &mut $crate::xml::Reader<'_>,
                k: usize,
            ) -> ::core::result::Result<Self, $crate::schema::Invalid> {
                match k {
                    $($i => r
                        .read_declared(
                            $crate::__value_constraint!($($vc)?),
                            $crate::__value_constraint!($($xt)?),
                        )
                        .map(Self::$v),)*
                    _ => ::core::result::Result::Err($crate::schema::Invalid),
                }
            }
            fn write(&self, w: &mut $crate::xml::Writer) {
                match self {
                    Self::Text(t) => w.text(t),
                    Self::CData(t) => w.cdata(t),
                    $(Self::$v(v) => $crate::schema::Element::write_element(v, w, $n),)*
                }
            }
        }
    };
}

/// `Element` for a type chosen by XSD 1.1 type alternatives: the shape its `choose` picks,
/// and a mismatch reported against its `SHAPES`. `alternatives!(Type, [INDEX Variant, ...])`.
#[macro_export]
macro_rules! alternatives {
    ($ty:ident, [$($i:literal $v:ident),* $(,)?] $(, $visited:ident $index:literal)?) => {
        impl $crate::schema::Element for $ty {
            fn read_element(
                r: &mut $crate::xml::Reader<'_>,
                tag: &$crate::xml::Tag,
            ) -> ::core::result::Result<Self, $crate::schema::Invalid> {
                let chosen = Self::choose(tag, r);
                let result = match chosen {
                    $($i => $crate::schema::Element::read_element(r, tag).map(Self::$v),)*
                    _ => ::core::result::Result::Err($crate::schema::Invalid),
                };
                if result.is_err() {
                    r.shape_mismatch(tag, Self::SHAPES, chosen);
                }
                result
            }
            fn write_element(&self, w: &mut $crate::xml::Writer, name: &str) {
                match self {
                    $(Self::$v(v) => $crate::schema::Element::write_element(v, w, name),)*
                }
            }
            $($crate::__visit!($visited $index);)?
        }
    };
}

/// `document!`'s `xsd_version`: only "1.1" is written (1.0 is the default), anything else
/// does not match, and the generated code does not compile.
#[doc(hidden)]
#[macro_export]
macro_rules! __xsd_1_1 {
    ("1.1") => {
        true
    };
}

/// `Document` for a schema's root enum: `document!(Root, ["element" Variant, ...])` (a
/// root followed by `= ValueConstraint::...` where its declaration has `default=` or
/// `fixed=`), and
/// for a schema with a target namespace `document!(Root, [...], namespaces ["prefix"
/// "namespace", ...])`: the declarations the writer puts on the root (see
/// [`Writer::declare_namespaces`](crate::xml::Writer::declare_namespaces)); then
/// `types ["{namespace}name" RustType, ...]`, the types an undeclared root's `xsi:type` may
/// name ([`Document::TYPES`](crate::schema::Document::TYPES)); last `xsd_version "1.1"` for
/// a schema read as XSD 1.1 ([`Document::XSD_1_1`](crate::schema::Document::XSD_1_1)).
#[macro_export]
macro_rules! document {
    ($ty:ident, [$($n:literal $v:ident $(= $vc:expr)? $(; xsi $xt:expr)?),* $(,)?] $(, namespaces [$($p:literal $u:literal),* $(,)?])? $(, types [$($tn:literal $tt:ty),* $(,)?])? $(, xsd_version $version:tt)?) => {
        impl $crate::schema::Document for $ty {
            const ROOTS: &'static [&'static str] = &[$($n),*];
            $(const XSD_1_1: bool = $crate::__xsd_1_1!($version);)?
            $(const TYPES: &'static [(&'static str, $crate::schema::TypedRoot)] =
                &[$(($tn, $crate::schema::typed_root::<$tt>)),*];)?
            fn read_root(
                r: &mut $crate::xml::Reader<'_>,
                tag: &$crate::xml::Tag,
            ) -> ::core::result::Result<Self, $crate::schema::Invalid> {
                // A table of readers, one per root, not a chain of calls: each call's value
                // would take a slot of this frame (245 KB for UBL's 2,300 global elements,
                // which overflowed a 1 MiB stack); each reader has a frame of its own.
                const READ: &[$crate::wildcards::ReadGlobal<$ty>] = &[$(
                    |r, tag| r
                        .read_root_declared(
                            tag,
                            $crate::__value_constraint!($($vc)?),
                            $crate::__value_constraint!($($xt)?),
                        )
                        .map($ty::$v)
                ),*];
                let name = tag.name();
                match <Self as $crate::schema::Document>::ROOTS.iter().position(|n| *n == name) {
                    ::core::option::Option::Some(i) => READ[i](r, tag),
                    ::core::option::Option::None => ::core::result::Result::Err($crate::schema::Invalid),
                }
            }
            fn write_root(&self, w: &mut $crate::xml::Writer) {
                $(w.declare_namespaces(&[$(($p, $u)),*]);)?
                // On the place, not the reference: a schema without global elements has a
                // document type without variants, and `match *self {}` is exhaustive for
                // it where `match self {}` is not.
                match *self {
                    $(Self::$v(ref v) => $crate::schema::Element::write_element(v, w, $n),)*
                }
            }
            fn visit_root(
                &self,
                o: &mut dyn $crate::xml::Observer,
                at: &$crate::xml::At<'_>,
                found: &mut ::std::vec::Vec<$crate::diagnostic::Diagnostic>,
            ) {
                // On the place, as in `write_root`.
                match *self {
                    $(Self::$v(ref v) => $crate::schema::Element::visit(v, o, at, found),)*
                }
            }
        }
    };
}

impl Field {
    /// The attributes an attribute wildcard allows.
    pub const fn any_attribute(
        namespaces: crate::any::Namespaces,
        process: crate::any::Process,
    ) -> Self {
        Field {
            xml: "",
            kind: Kind::AnyAttribute(crate::any::Wildcard {
                namespaces,
                process,
            }),
            min: 0,
            max: UNBOUNDED,
            value: None,
            types: None,
            inheritable: false,
        }
    }
}

/// The field kind of an attribute wildcard's attributes (see [`FieldKind`]).
pub struct AnyAttributes<M>(std::marker::PhantomData<fn() -> M>);

impl<M: crate::any::AttributeWildcard> FieldKind for AnyAttributes<M> {
    type Value = crate::any::OtherAttributes<M>;
    type Slot = crate::any::OtherAttributes<M>;
    fn read(
        r: &mut Reader<'_>,
        a: &mut crate::xml::Attributes<'_>,
        _: &Field,
        slot: &mut crate::any::OtherAttributes<M>,
    ) -> Result<(), Invalid> {
        let matches = |r: &Reader<'_>, name: &str| {
            crate::any::expand(r, name).is_some_and(|(n, _)| M::matches(&n))
        };
        let check = |r: &Reader<'_>, name: &str, value: &str| {
            let Some((n, _)) = crate::any::expand(r, name) else {
                return Ok(());
            };
            let scope = r.scope(false);
            match crate::any::check_value::<M::Globals>(
                M::WILDCARD.process,
                &n,
                value,
                Some(&scope),
            ) {
                Ok(()) => Ok(()),
                Err(crate::any::WildcardError::Value(_, e)) => Err(Some(e)),
                Err(_) => Err(None),
            }
        };
        let taken = a.take_matching(r, matches, check)?;
        // XSD 1.0, 3.4.4 Element Locally Valid (Complex Type) 5: of the attributes a
        // wildcard takes, at most one may have a declaration of an ID type, and none if
        // the type declares an attribute of an ID type itself (XSD 1.1 drops the rule).
        let mut ids = 0;
        for (name, _) in &taken {
            let Some((expanded, _)) = crate::any::expand(r, name) else {
                continue;
            };
            if !<M::Globals as crate::any::GlobalAttributes>::is_id(&expanded) {
                continue;
            }
            ids += 1;
            if (ids > 1 || M::DECLARED_ID) && r.one_id_attribute() {
                r.second_id_attribute(a.tag_offset(), name);
                return Err(Invalid);
            }
        }
        for (name, value) in taken {
            if let Some((expanded, prefix)) = crate::any::expand(r, &name) {
                if M::WILDCARD.process != crate::any::Process::Skip {
                    r.note_global_attribute::<M::Globals>(a.tag_offset(), &name, &expanded, &value);
                }
                let prefix = prefix.or_else(|| a.prefix_of(&name).map(str::to_string));
                slot.push_read(expanded, prefix, value);
            }
        }
        Ok(())
    }
    fn build(slot: crate::any::OtherAttributes<M>) -> Option<crate::any::OtherAttributes<M>> {
        Some(slot)
    }
    fn write(value: &crate::any::OtherAttributes<M>, w: &mut Writer, _: &Field) {
        value.write(w);
    }
}
