//! xsd-parser behind one adapter: its reading of a schema document, from the document's
//! positioned tree ([`Tree`]).
//!
//! xsd-parser stays the reader of XSD's structure (its schema model types each element's
//! attributes and content), but it does not parse the text: its deserializer takes its
//! events through the `XmlReaderSync` trait of xsd-parser-types, and here they come from
//! the tree, which kept every event of the one parse (`tree.rs`). So a document is parsed
//! once, and the model and the tree are two views of the same events.
//!
//! Why this way round, and not a reader that records positions while xsd-parser pulls
//! events from the text: the tree is read first, on any thread and without recursion, so
//! composition, the depth limits and the markup checks judge a document before anything
//! that recurses on its depth (xsd-parser's deserializers do) sees it; and a document that
//! several schemas of one run bring in is read and modelled once, the model kept beside
//! its tree (`compose::Document`, [`model`]).
//!
//! xsd-parser's model has one content enum per kind of parent (a complex type's, an
//! extension's, a restriction's, an attribute group's, ...), each repeating the arms of
//! the children they share, and no positions. The conversion does not walk it directly:
//! [`children`] folds each parent's content (and the fields xsd-parser keeps apart, such
//! as a list's annotation and item type) into one child type, [`Item`], that pairs
//! xsd-parser's reading of an element ([`What`]) with its node in the tree, so every
//! construct is handled in one place and every diagnostic has its position.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use quick_xml::events::Event;
use xsd_parser::models::schema::xs::{self, Schema};
use xsd_parser_types::quick_xml::{DeserializeSync, Error, XmlReader, XmlReaderSync};

use super::tree::{NodeId, Replay, Tree};

/// xsd-parser's model of a document, or why it could not read it.
pub(super) type Model = Result<Schema, String>;

/// How many documents xsd-parser has modelled in this process.
static MODELS_READ: AtomicUsize = AtomicUsize::new(0);

/// How many schema documents xsd-parser has modelled in this process ([`model`]): a test's
/// measure that each is modelled once.
#[doc(hidden)]
pub fn models_read() -> usize {
    MODELS_READ.load(Ordering::Relaxed)
}

/// xsd-parser's model of the document of `tree`, made on first use and kept in `slot`.
/// Only for a well-formed document within the limits: xsd-parser's deserializers recurse
/// on its depth.
pub(super) fn model<'t>(tree: &Tree, slot: &'t OnceLock<Model>) -> &'t Model {
    slot.get_or_init(|| {
        MODELS_READ.fetch_add(1, Ordering::Relaxed);
        let mut reader = Events {
            replay: tree.replay(),
            at: 0,
        };
        Schema::deserialize(&mut reader).map_err(|error| {
            // As xsd-parser's own reader says it: where it stopped, in the text it was given.
            format!("XML Error: {error}; position={}", reader.at)
        })
    })
}

/// The tree's events, as an xsd-parser reader.
struct Events<'t> {
    replay: Replay<'t>,
    /// The offset just past the last event given.
    at: usize,
}

impl XmlReader for Events<'_> {
    fn extend_error(&self, error: Error) -> Error {
        error
    }
}

impl<'t> XmlReaderSync<'t> for Events<'t> {
    fn read_event(&mut self) -> Result<Event<'t>, Error> {
        let Some((event, at)) = self.replay.next() else {
            return Ok(Event::Eof);
        };
        self.at = at;
        // As xsd-parser's own schema reader: a malformed attribute stops the reading.
        if let Event::Start(e) | Event::Empty(e) = &event {
            for a in e.attributes() {
                a?;
            }
        }
        Ok(collapse_keywords(event))
    }
}

/// The attributes of the XSD vocabulary whose values are keywords, numbers or booleans
/// (types with `whiteSpace="collapse"` in the schema for schemas), which xsd-parser matches
/// as written: `mixed=" 1 "` is `mixed="1"` (XSD 1.0 Part 1, 3.1.4, and Part 2, 4.3.6,
/// white space is collapsed before a value is read). Not `default`, `fixed` of a
/// declaration or a facet's `value`, whose white space belongs to the value.
const KEYWORD_ATTRIBUTES: &[&[u8]] = &[
    b"abstract",
    b"appliesToEmpty",
    b"attributeFormDefault",
    b"block",
    b"blockDefault",
    b"defaultAttributesApply",
    b"elementFormDefault",
    b"final",
    b"finalDefault",
    b"form",
    b"inheritable",
    b"maxOccurs",
    b"minOccurs",
    b"mixed",
    b"mode",
    b"nillable",
    b"processContents",
    b"use",
];

/// `event` with the white space of its keyword attributes ([`KEYWORD_ATTRIBUTES`], and a
/// facet's boolean `fixed`) collapsed; the event itself, unchanged, when none has any.
fn collapse_keywords(event: Event<'_>) -> Event<'_> {
    let (Event::Start(e) | Event::Empty(e)) = &event else {
        return event;
    };
    let local = e.local_name();
    let facet = matches!(
        local.as_ref(),
        b"minExclusive"
            | b"minInclusive"
            | b"maxExclusive"
            | b"maxInclusive"
            | b"totalDigits"
            | b"fractionDigits"
            | b"length"
            | b"minLength"
            | b"maxLength"
            | b"whiteSpace"
            | b"explicitTimezone"
    );
    let keyword = |key: &[u8]| KEYWORD_ATTRIBUTES.contains(&key) || facet && key == b"fixed";
    let collapsible = |value: &[u8]| {
        value.first().is_some_and(u8::is_ascii_whitespace)
            || value.last().is_some_and(u8::is_ascii_whitespace)
            || value.iter().any(|b| b.is_ascii_whitespace() && *b != b' ')
            || value.windows(2).any(|w| w == b"  ")
    };
    let changes = e
        .attributes()
        .flatten()
        .any(|a| keyword(a.key.as_ref()) && collapsible(&a.value));
    if !changes {
        return event;
    }
    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
    let mut collapsed = quick_xml::events::BytesStart::new(name);
    for a in e.attributes().flatten() {
        if keyword(a.key.as_ref()) {
            let value = String::from_utf8_lossy(&a.value);
            let value = value.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
            collapsed.push_attribute((a.key.as_ref(), value.as_bytes()));
        } else {
            collapsed.push_attribute(a);
        }
    }
    match event {
        Event::Start(_) => Event::Start(collapsed),
        _ => Event::Empty(collapsed),
    }
}

/// One XSD element as xsd-parser read it, with the node of the document's tree it stands
/// at: the one child type the conversion walks, whatever content enum of xsd-parser's
/// (one per kind of parent) it came in.
#[derive(Debug, Clone, Copy)]
pub(super) struct Item<'s> {
    /// The document (an index into the schema's documents).
    pub doc: usize,
    /// Its node in that document's tree: where it stands, its namespace bindings.
    pub node: NodeId,
    /// What it is.
    pub what: What<'s>,
}

/// What an [`Item`] is: the XSD element, with xsd-parser's reading of it.
#[derive(Debug, Clone, Copy)]
pub(super) enum What<'s> {
    Schema(&'s xs::Schema),
    Annotation(&'s xs::Annotation),
    Redefine(&'s xs::Redefine),
    /// XSD 1.1's `xs:override`.
    Override(&'s xs::Override),
    Notation(&'s xs::Notation),
    SimpleType(&'s xs::SimpleBaseType),
    ComplexType(&'s xs::ComplexBaseType),
    /// A global group's definition, or a reference to one.
    Group(&'s xs::GroupType),
    /// A model group: `xs:sequence`, `xs:choice` or `xs:all`, by its local name.
    Model(&'static str, &'s xs::GroupType),
    /// A global attribute group's definition, or a reference to one.
    AttributeGroup(&'s xs::AttributeGroupType),
    Element(&'s xs::ElementType),
    Attribute(&'s xs::AttributeType),
    AnyAttribute(&'s xs::AnyAttribute),
    Any(&'s xs::Any),
    SimpleContent(&'s xs::SimpleContent),
    ComplexContent(&'s xs::ComplexContent),
    /// The extension of simple or complex content.
    Extension(&'s xs::ExtensionType),
    /// The restriction of simple or complex content.
    Restriction(&'s xs::RestrictionType),
    /// A simple type's restriction.
    SimpleRestriction(&'s xs::Restriction),
    List(&'s xs::List),
    Union(&'s xs::Union),
    /// A facet, by its element's local name.
    Facet(&'static str, &'s xs::Facet),
    Alternative(&'s xs::AltType),
    /// XSD 1.1's `xs:assert` of a complex type.
    Assert(&'s xs::AssertionType),
    Unique(&'s xs::KeybaseType),
    Key(&'s xs::KeybaseType),
    Keyref(&'s xs::Keyref),
    Selector(&'s xs::Field),
    Field(&'s xs::Field),
    /// XSD 1.1's `xs:openContent` of a complex type or its derivation.
    OpenContent(&'s xs::OpenContent),
    /// XSD 1.1's `xs:defaultOpenContent` of a schema document.
    DefaultOpenContent(&'s xs::DefaultOpenContent),
    /// An element the conversion does not look into (a composition element, whose
    /// document `compose` loaded; XSD 1.1's assertions, which the markup checks refuse),
    /// by its local name.
    Other(&'static str),
}

impl What<'_> {
    /// Its XSD element's local name.
    pub fn local(&self) -> &'static str {
        match self {
            What::Schema(_) => "schema",
            What::Annotation(_) => "annotation",
            What::Redefine(_) => "redefine",
            What::Override(_) => "override",
            What::Notation(_) => "notation",
            What::SimpleType(_) => "simpleType",
            What::ComplexType(_) => "complexType",
            What::Group(_) => "group",
            What::Model(local, _) => local,
            What::AttributeGroup(_) => "attributeGroup",
            What::Element(_) => "element",
            What::Attribute(_) => "attribute",
            What::AnyAttribute(_) => "anyAttribute",
            What::Any(_) => "any",
            What::SimpleContent(_) => "simpleContent",
            What::ComplexContent(_) => "complexContent",
            What::Extension(_) => "extension",
            What::Restriction(_) | What::SimpleRestriction(_) => "restriction",
            What::List(_) => "list",
            What::Union(_) => "union",
            What::Facet(local, _) => local,
            What::Alternative(_) => "alternative",
            What::Assert(_) => "assert",
            What::Unique(_) => "unique",
            What::Key(_) => "key",
            What::Keyref(_) => "keyref",
            What::Selector(_) => "selector",
            What::Field(_) => "field",
            What::OpenContent(_) => "openContent",
            What::DefaultOpenContent(_) => "defaultOpenContent",
            What::Other(local) => local,
        }
    }
}

/// The children of `item`, in xsd-parser's order, each paired with its node: the n-th
/// child of a local name with the n-th child node of that local name (xsd-parser keeps
/// some children apart from the rest, a list's annotation and item type in fields of
/// their own, so its order is not always the document's).
pub(super) fn children<'s>(tree: &Tree, item: Item<'s>) -> Vec<Item<'s>> {
    let whats = parts(item.what);
    if whats.is_empty() {
        return Vec::new();
    }
    let mut nodes: HashMap<&str, (Vec<NodeId>, usize)> = HashMap::new();
    for &c in &tree.nodes[item.node].children {
        nodes
            .entry(tree.nodes[c].local.as_str())
            .or_default()
            .0
            .push(c);
    }
    whats
        .into_iter()
        .map(|what| {
            let node = nodes.get_mut(what.local()).and_then(|(v, next)| {
                let n = v.get(*next).copied();
                *next += 1;
                n
            });
            Item {
                doc: item.doc,
                // The tree holds every element xsd-parser reads; its parent's place if not.
                node: node.unwrap_or(item.node),
                what,
            }
        })
        .collect()
}

/// What xsd-parser read inside one element, in its order (the children of its item,
/// without their places).
pub(super) fn parts(what: What<'_>) -> Vec<What<'_>> {
    match what {
        What::Schema(s) => s.content.iter().map(schema_content).collect(),
        What::Redefine(r) => r
            .content
            .iter()
            .map(|c| match c {
                xs::RedefineContent::Annotation(a) => What::Annotation(a),
                xs::RedefineContent::SimpleType(t) => What::SimpleType(t),
                xs::RedefineContent::ComplexType(t) => What::ComplexType(t),
                xs::RedefineContent::Group(g) => What::Group(g),
                xs::RedefineContent::AttributeGroup(g) => What::AttributeGroup(g),
            })
            .collect(),
        What::Override(o) => o
            .content
            .iter()
            .map(|c| match c {
                xs::OverrideContent::Annotation(a) => What::Annotation(a),
                xs::OverrideContent::SimpleType(t) => What::SimpleType(t),
                xs::OverrideContent::ComplexType(t) => What::ComplexType(t),
                xs::OverrideContent::Group(g) => What::Group(g),
                xs::OverrideContent::AttributeGroup(g) => What::AttributeGroup(g),
                xs::OverrideContent::Element(e) => What::Element(e),
                xs::OverrideContent::Attribute(a) => What::Attribute(a),
                xs::OverrideContent::Notation(n) => What::Notation(n),
            })
            .collect(),
        What::SimpleType(t) => t
            .content
            .iter()
            .map(|c| match c {
                xs::SimpleBaseTypeContent::Annotation(a) => What::Annotation(a),
                xs::SimpleBaseTypeContent::Restriction(r) => What::SimpleRestriction(r),
                xs::SimpleBaseTypeContent::List(l) => What::List(l),
                xs::SimpleBaseTypeContent::Union(u) => What::Union(u),
            })
            .collect(),
        What::SimpleRestriction(r) => r
            .content
            .iter()
            .map(|c| match c {
                xs::RestrictionContent::Annotation(a) => What::Annotation(a),
                xs::RestrictionContent::SimpleType(t) => What::SimpleType(t),
                xs::RestrictionContent::Facet(f) => facet(f),
            })
            .collect(),
        What::List(l) => {
            let mut v: Vec<What<'_>> = annotation(&l.annotation);
            v.extend(l.simple_type.as_deref().map(What::SimpleType));
            v
        }
        What::Union(u) => {
            let mut v: Vec<What<'_>> = annotation(&u.annotation);
            v.extend(u.simple_type.iter().map(What::SimpleType));
            v
        }
        What::ComplexType(t) => t
            .content
            .iter()
            .map(|c| match c {
                xs::ComplexBaseTypeContent::Annotation(a) => What::Annotation(a),
                xs::ComplexBaseTypeContent::SimpleContent(s) => What::SimpleContent(s),
                xs::ComplexBaseTypeContent::ComplexContent(s) => What::ComplexContent(s),
                xs::ComplexBaseTypeContent::OpenContent(o) => What::OpenContent(o),
                xs::ComplexBaseTypeContent::Group(g) => What::Group(g),
                xs::ComplexBaseTypeContent::All(g) => What::Model("all", g),
                xs::ComplexBaseTypeContent::Choice(g) => What::Model("choice", g),
                xs::ComplexBaseTypeContent::Sequence(g) => What::Model("sequence", g),
                xs::ComplexBaseTypeContent::Attribute(a) => What::Attribute(a),
                xs::ComplexBaseTypeContent::AttributeGroup(g) => What::AttributeGroup(g),
                xs::ComplexBaseTypeContent::AnyAttribute(w) => What::AnyAttribute(w),
                xs::ComplexBaseTypeContent::Assert(a) => What::Assert(a),
            })
            .collect(),
        What::SimpleContent(s) => s
            .content
            .iter()
            .map(|c| match c {
                xs::SimpleContentContent::Annotation(a) => What::Annotation(a),
                xs::SimpleContentContent::Restriction(r) => What::Restriction(r),
                xs::SimpleContentContent::Extension(e) => What::Extension(e),
            })
            .collect(),
        What::ComplexContent(s) => s
            .content
            .iter()
            .map(|c| match c {
                xs::ComplexContentContent::Annotation(a) => What::Annotation(a),
                xs::ComplexContentContent::Restriction(r) => What::Restriction(r),
                xs::ComplexContentContent::Extension(e) => What::Extension(e),
            })
            .collect(),
        What::Extension(e) => e
            .content
            .iter()
            .map(|c| match c {
                xs::ExtensionTypeContent::Annotation(a) => What::Annotation(a),
                xs::ExtensionTypeContent::OpenContent(o) => What::OpenContent(o),
                xs::ExtensionTypeContent::Group(g) => What::Group(g),
                xs::ExtensionTypeContent::All(g) => What::Model("all", g),
                xs::ExtensionTypeContent::Choice(g) => What::Model("choice", g),
                xs::ExtensionTypeContent::Sequence(g) => What::Model("sequence", g),
                xs::ExtensionTypeContent::Attribute(a) => What::Attribute(a),
                xs::ExtensionTypeContent::AttributeGroup(g) => What::AttributeGroup(g),
                xs::ExtensionTypeContent::AnyAttribute(w) => What::AnyAttribute(w),
                xs::ExtensionTypeContent::Assert(a) => What::Assert(a),
            })
            .collect(),
        What::Restriction(r) => r
            .content
            .iter()
            .map(|c| match c {
                xs::RestrictionTypeContent::Annotation(a) => What::Annotation(a),
                xs::RestrictionTypeContent::OpenContent(o) => What::OpenContent(o),
                xs::RestrictionTypeContent::Group(g) => What::Group(g),
                xs::RestrictionTypeContent::All(g) => What::Model("all", g),
                xs::RestrictionTypeContent::Choice(g) => What::Model("choice", g),
                xs::RestrictionTypeContent::Sequence(g) => What::Model("sequence", g),
                xs::RestrictionTypeContent::SimpleType(t) => What::SimpleType(t),
                xs::RestrictionTypeContent::Facet(f) => facet(f),
                xs::RestrictionTypeContent::Attribute(a) => What::Attribute(a),
                xs::RestrictionTypeContent::AttributeGroup(g) => What::AttributeGroup(g),
                xs::RestrictionTypeContent::AnyAttribute(w) => What::AnyAttribute(w),
                xs::RestrictionTypeContent::Assert(a) => What::Assert(a),
            })
            .collect(),
        What::Group(g) | What::Model(_, g) => g
            .content
            .iter()
            .map(|c| match c {
                xs::GroupTypeContent::Annotation(a) => What::Annotation(a),
                xs::GroupTypeContent::Element(e) => What::Element(e),
                xs::GroupTypeContent::Group(g) => What::Group(g),
                xs::GroupTypeContent::All(g) => What::Model("all", g),
                xs::GroupTypeContent::Choice(g) => What::Model("choice", g),
                xs::GroupTypeContent::Sequence(g) => What::Model("sequence", g),
                xs::GroupTypeContent::Any(a) => What::Any(a),
            })
            .collect(),
        What::AttributeGroup(g) => g
            .content
            .iter()
            .map(|c| match c {
                xs::AttributeGroupTypeContent::Annotation(a) => What::Annotation(a),
                xs::AttributeGroupTypeContent::Attribute(a) => What::Attribute(a),
                xs::AttributeGroupTypeContent::AttributeGroup(g) => What::AttributeGroup(g),
                xs::AttributeGroupTypeContent::AnyAttribute(w) => What::AnyAttribute(w),
            })
            .collect(),
        What::Element(e) => e
            .content
            .iter()
            .map(|c| match c {
                xs::ElementTypeContent::Annotation(a) => What::Annotation(a),
                xs::ElementTypeContent::SimpleType(t) => What::SimpleType(t),
                xs::ElementTypeContent::ComplexType(t) => What::ComplexType(t),
                xs::ElementTypeContent::Alternative(a) => What::Alternative(a),
                xs::ElementTypeContent::Unique(k) => What::Unique(k),
                xs::ElementTypeContent::Key(k) => What::Key(k),
                xs::ElementTypeContent::Keyref(k) => What::Keyref(k),
            })
            .collect(),
        What::Attribute(a) => {
            let mut v: Vec<What<'_>> = annotation(&a.annotation);
            v.extend(a.simple_type.iter().map(What::SimpleType));
            v
        }
        What::Alternative(a) => a
            .content
            .iter()
            .map(|c| match c {
                xs::AltTypeContent::Annotation(a) => What::Annotation(a),
                xs::AltTypeContent::SimpleType(t) => What::SimpleType(t),
                xs::AltTypeContent::ComplexType(t) => What::ComplexType(t),
            })
            .collect(),
        What::Unique(k) | What::Key(k) => k
            .content
            .iter()
            .flat_map(|c| identity(&c.annotation, &c.selector, &c.field))
            .collect(),
        What::Keyref(k) => k
            .content
            .iter()
            .flat_map(|c| identity(&c.annotation, &c.selector, &c.field))
            .collect(),
        What::Notation(n) => annotation(&n.annotation),
        What::AnyAttribute(w) => annotation(&w.annotation),
        What::Any(w) => annotation(&w.annotation),
        What::Selector(f) | What::Field(f) => annotation(&f.annotation),
        What::Facet(_, f) => match facet_value(f) {
            Ok(v) => annotation(&v.annotation),
            Err(a) => annotation(&a.annotation),
        },
        What::Assert(a) => annotation(&a.annotation),
        What::Annotation(_) | What::Other(_) => Vec::new(),
        // The wildcard of open content is a field of its element, read with it.
        What::OpenContent(o) => annotation(&o.annotation),
        What::DefaultOpenContent(o) => annotation(&o.annotation),
    }
}

/// An annotation xsd-parser keeps in a field of its own, as a child.
fn annotation(a: &Option<xs::Annotation>) -> Vec<What<'_>> {
    a.iter().map(What::Annotation).collect()
}

/// An identity constraint's children: its annotation, selector and fields.
fn identity<'s>(
    annotation: &'s Option<xs::Annotation>,
    selector: &'s xs::Field,
    fields: &'s [xs::Field],
) -> Vec<What<'s>> {
    let mut v: Vec<What<'s>> = annotation.iter().map(What::Annotation).collect();
    v.push(What::Selector(selector));
    v.extend(fields.iter().map(What::Field));
    v
}

fn schema_content(c: &xs::SchemaContent) -> What<'_> {
    match c {
        xs::SchemaContent::Include(_) => What::Other("include"),
        xs::SchemaContent::Import(_) => What::Other("import"),
        xs::SchemaContent::Redefine(r) => What::Redefine(r),
        xs::SchemaContent::Override(o) => What::Override(o),
        xs::SchemaContent::Annotation(a) => What::Annotation(a),
        xs::SchemaContent::DefaultOpenContent(o) => What::DefaultOpenContent(o),
        xs::SchemaContent::SimpleType(t) => What::SimpleType(t),
        xs::SchemaContent::ComplexType(t) => What::ComplexType(t),
        xs::SchemaContent::Group(g) => What::Group(g),
        xs::SchemaContent::AttributeGroup(g) => What::AttributeGroup(g),
        xs::SchemaContent::Element(e) => What::Element(e),
        xs::SchemaContent::Attribute(a) => What::Attribute(a),
        xs::SchemaContent::Notation(n) => What::Notation(n),
    }
}

/// A facet's value and annotation: every facet of xsd-parser's has them but XSD 1.1's
/// assertion, which has a test instead.
pub(super) fn facet_value(f: &xs::Facet) -> Result<&xs::FacetType, &xs::AssertionType> {
    match f {
        xs::Facet::Assertion(a) => Err(a),
        xs::Facet::MinExclusive(v)
        | xs::Facet::MinInclusive(v)
        | xs::Facet::MaxExclusive(v)
        | xs::Facet::MaxInclusive(v)
        | xs::Facet::TotalDigits(v)
        | xs::Facet::FractionDigits(v)
        | xs::Facet::Length(v)
        | xs::Facet::MinLength(v)
        | xs::Facet::MaxLength(v)
        | xs::Facet::Enumeration(v)
        | xs::Facet::WhiteSpace(v)
        | xs::Facet::Pattern(v)
        | xs::Facet::ExplicitTimezone(v) => Ok(v),
    }
}

fn facet(f: &xs::Facet) -> What<'_> {
    let local = match f {
        xs::Facet::MinExclusive(_) => "minExclusive",
        xs::Facet::MinInclusive(_) => "minInclusive",
        xs::Facet::MaxExclusive(_) => "maxExclusive",
        xs::Facet::MaxInclusive(_) => "maxInclusive",
        xs::Facet::TotalDigits(_) => "totalDigits",
        xs::Facet::FractionDigits(_) => "fractionDigits",
        xs::Facet::Length(_) => "length",
        xs::Facet::MinLength(_) => "minLength",
        xs::Facet::MaxLength(_) => "maxLength",
        xs::Facet::Enumeration(_) => "enumeration",
        xs::Facet::WhiteSpace(_) => "whiteSpace",
        xs::Facet::Pattern(_) => "pattern",
        xs::Facet::Assertion(_) => "assertion",
        xs::Facet::ExplicitTimezone(_) => "explicitTimezone",
    };
    What::Facet(local, f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Span;

    #[test]
    fn keyword_attributes_are_read_with_their_white_space_collapsed() {
        let text = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n  <xs:complexType name=\"T\" mixed=\" 1 \" abstract=\"\ttrue\n\">\n    <xs:sequence>\n      <xs:element name=\"e\" minOccurs=\" 0 \" maxOccurs=\"unbounded \" nillable=\" false\" fixed=\" kept \"/>\n    </xs:sequence>\n  </xs:complexType>\n</xs:schema>";
        let tree = Tree::read(text.to_string());
        let slot = OnceLock::new();
        let schema = model(&tree, &slot).as_ref().expect("xsd-parser reads it");
        let xs::SchemaContent::ComplexType(t) = &schema.content[0] else {
            panic!("a complex type: {:?}", schema.content[0]);
        };
        assert_eq!((t.mixed, t.abstract_), (Some(true), true));
        let xs::ComplexBaseTypeContent::Sequence(sequence) = &t.content[0] else {
            panic!("a sequence: {:?}", t.content[0]);
        };
        let xs::GroupTypeContent::Element(e) = &sequence.content[0] else {
            panic!("an element: {:?}", sequence.content[0]);
        };
        assert_eq!(e.min_occurs, 0);
        assert_eq!(e.nillable, Some(false));
        // A value constraint's white space is the value's.
        assert_eq!(e.fixed.as_deref(), Some(" kept "));
    }

    #[test]
    fn each_child_is_paired_with_its_node() {
        let text = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n  <xs:simpleType name=\"A\"><xs:restriction base=\"xs:string\"/></xs:simpleType>\n  <xs:complexType name=\"B\"/>\n  <xs:simpleType name=\"C\">\n    <xs:restriction base=\"xs:string\"><xs:pattern value=\"x\"/></xs:restriction>\n  </xs:simpleType>\n  <xs:simpleType name=\"L\"><xs:list><xs:annotation/><xs:simpleType><xs:restriction base=\"xs:int\"/></xs:simpleType></xs:list></xs:simpleType>\n</xs:schema>";
        let tree = Tree::read(text.to_string());
        let slot = OnceLock::new();
        let schema = model(&tree, &slot).as_ref().expect("xsd-parser reads it");
        let root = Item {
            doc: 0,
            node: 0,
            what: What::Schema(schema),
        };
        let span = |item: Item<'_>| tree.nodes[item.node].span;
        let top = children(&tree, root);
        let locals: Vec<&str> = top.iter().map(|i| i.what.local()).collect();
        assert_eq!(
            locals,
            ["simpleType", "complexType", "simpleType", "simpleType"]
        );
        assert_eq!(span(top[2]), Span { line: 4, column: 3 });
        let pattern = children(&tree, children(&tree, top[2])[0])[0];
        assert!(matches!(pattern.what, What::Facet("pattern", _)));
        assert_eq!(
            span(pattern),
            Span {
                line: 5,
                column: 38
            }
        );
        // A list's annotation and item type are fields of xsd-parser's, not content: they
        // still come as the list's children, each at its own node.
        let list = children(&tree, top[3])[0];
        let parts = children(&tree, list);
        let locals: Vec<&str> = parts.iter().map(|i| i.what.local()).collect();
        assert_eq!(locals, ["annotation", "simpleType"]);
        assert_eq!(
            span(parts[1]),
            Span {
                line: 7,
                column: 52
            }
        );
    }
}
