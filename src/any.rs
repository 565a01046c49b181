//! Content the schema leaves open: `xs:anyType` (an element declared without a type, or
//! with `type="xs:anyType"`) and, later, what wildcards match. It is kept as a generic XML
//! tree so nothing is lost: every attribute with its expanded name, every child element,
//! text and CDATA in document order (the reader hands on no comments or processing
//! instructions anywhere, so there are none to keep).
//!
//! Names are expanded names (namespace URI, local name): they are resolved through the
//! declarations in scope when read, and the prefix as written is kept only to write the
//! same prefix back. Writing declares what the tree needs itself, so a tree written inside
//! any other element is well-formed. Values are checked when made: names are NCNames, text
//! holds only XML characters, an element has each expanded attribute name once.

use std::fmt;

pub mod lax;

use crate::schema::{Element, Invalid};
use crate::type_substitution::SimpleChoice;
use crate::xml::wf;
use crate::xml::{MixedItem, Reader, Tag, Writer};

/// The XML namespace, which the prefix `xml` is bound to everywhere.
const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";

/// Why a name, a value or an attribute does not fit a generic XML tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyError {
    /// Not an NCName (a name without a colon).
    Name(String),
    /// A character XML 1.0 does not allow.
    Character(String),
    /// A prefix that cannot be used as given (`xmlns`, or `xml` for another namespace).
    Prefix(String),
    /// The element has an attribute of this expanded name already.
    Duplicate(String),
}

impl fmt::Display for AnyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyError::Name(n) => write!(f, "{n:?} is not an XML name without a colon (NCName)"),
            AnyError::Character(t) => write!(f, "{t:?} holds a character XML 1.0 does not allow"),
            AnyError::Prefix(p) => write!(f, "the prefix {p:?} cannot be used here"),
            AnyError::Duplicate(n) => write!(f, "the element has attribute {n} already"),
        }
    }
}

impl std::error::Error for AnyError {}

fn ncname(s: &str) -> Result<(), AnyError> {
    match wf::check_qname(s, "name") {
        Ok(None) => Ok(()),
        _ => Err(AnyError::Name(s.to_string())),
    }
}

fn xml_chars(s: &str) -> Result<(), AnyError> {
    let ok = |c: char| matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}');
    if s.chars().all(ok) {
        Ok(())
    } else {
        Err(AnyError::Character(s.to_string()))
    }
}

/// An expanded name: a namespace (or none) and a local name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExpandedName {
    namespace: Option<String>,
    local: String,
}

impl ExpandedName {
    /// The name `local` in `namespace` (`None`: in no namespace); `local` must be an NCName
    /// and the namespace a non-empty URI of XML characters.
    pub fn new(namespace: Option<&str>, local: &str) -> Result<Self, AnyError> {
        ncname(local)?;
        if let Some(ns) = namespace {
            xml_chars(ns)?;
            if ns.is_empty() {
                return Err(AnyError::Prefix(String::new()));
            }
        }
        Ok(ExpandedName {
            namespace: namespace.map(str::to_string),
            local: local.to_string(),
        })
    }

    /// The namespace URI, if the name is in one.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    /// The local name.
    pub fn local(&self) -> &str {
        &self.local
    }
}

impl fmt::Display for ExpandedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{{{ns}}}{}", self.local),
            None => f.write_str(&self.local),
        }
    }
}

/// One attribute: its expanded name, the prefix it was written with, and its value.
/// Two attributes are equal when their expanded names and values are: the prefix is how a
/// name was written, not part of it.
#[derive(Debug, Clone)]
pub struct AnyAttribute {
    name: ExpandedName,
    prefix: Option<String>,
    value: String,
    /// For an `xsi:type` read from a document, the type it names (its value is a QName):
    /// written back, its prefix is declared where it is written, so the value keeps its
    /// meaning whatever declarations the document around it had.
    type_name: Option<QNameValue>,
}

/// A QName value as written and as resolved where it was read.
#[derive(Debug, Clone)]
struct QNameValue {
    namespace: Option<String>,
    prefix: Option<String>,
    local: String,
}

impl QNameValue {
    /// The QName `value` as the declarations where `r` stands resolve it (`None`: not a
    /// QName, or its prefix is unbound; the value is then kept as written).
    fn read(r: &Reader<'_>, value: &str) -> Option<Self> {
        let v = value.trim_matches([' ', '\t', '\n', '\r']);
        match wf::check_qname(v, "QName").ok()? {
            Some(c) => Some(QNameValue {
                namespace: Some(r.namespace_of_prefix(&v[..c])?.to_string()),
                prefix: Some(v[..c].to_string()),
                local: v[c + 1..].to_string(),
            }),
            None => Some(QNameValue {
                namespace: r.default_namespace().map(str::to_string),
                prefix: None,
                local: v.to_string(),
            }),
        }
    }

    /// The value to write where `scope` stands, declaring (into `declare`) a prefix for
    /// its namespace if none is bound. A name in no namespace is written unprefixed.
    fn write(&self, scope: &mut Scope, declare: &mut Vec<(String, String)>) -> String {
        match &self.namespace {
            Some(ns) if self.prefix.is_none() && scope.default_namespace() == Some(ns) => {
                self.local.clone()
            }
            Some(ns) => format!(
                "{}:{}",
                scope.prefix_for(ns, self.prefix.as_deref(), declare),
                self.local
            ),
            None => self.local.clone(),
        }
    }
}

impl AnyAttribute {
    /// `xsi:nil="true"`, written with the prefix `xsi` (declared where it is written).
    pub(crate) fn xsi_nil_true() -> Self {
        AnyAttribute {
            name: ExpandedName {
                namespace: Some(crate::schema::XSI_NAMESPACE.to_string()),
                local: "nil".to_string(),
            },
            prefix: Some("xsi".to_string()),
            value: "true".to_string(),
            type_name: None,
        }
    }

    /// An attribute `name="value"`; a namespaced name is written with a prefix of its own
    /// (`prefix`, or one made up when none is given).
    pub fn new(name: ExpandedName, prefix: Option<&str>, value: &str) -> Result<Self, AnyError> {
        xml_chars(value)?;
        let prefix = match (prefix, name.namespace()) {
            (Some(p), Some(ns)) => {
                check_prefix(p, ns)?;
                Some(p.to_string())
            }
            // An attribute without a prefix is in no namespace (Namespaces 1.0, 6.2).
            (Some(p), None) => return Err(AnyError::Prefix(p.to_string())),
            (None, _) => None,
        };
        if name.namespace.is_none() && name.local == "xmlns" {
            return Err(AnyError::Prefix("xmlns".into()));
        }
        Ok(AnyAttribute {
            name,
            prefix,
            value: value.to_string(),
            type_name: None,
        })
    }

    /// The expanded name.
    pub fn name(&self) -> &ExpandedName {
        &self.name
    }

    /// The prefix it is written with, if it was given one.
    pub fn prefix(&self) -> Option<&str> {
        self.prefix.as_deref()
    }

    /// The value (attribute-value normalised, references resolved).
    pub fn value(&self) -> &str {
        &self.value
    }
}

impl PartialEq for AnyAttribute {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.value == other.value
    }
}

impl Eq for AnyAttribute {}

impl std::hash::Hash for AnyAttribute {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.value.hash(state);
    }
}

fn check_prefix(p: &str, ns: &str) -> Result<(), AnyError> {
    ncname(p)?;
    let bad = p == "xmlns" || (p == "xml") != (ns == XML_NAMESPACE);
    if bad {
        Err(AnyError::Prefix(p.to_string()))
    } else {
        Ok(())
    }
}

/// One child of open content: a child element (`E`: an [`AnyElement`] in [`AnyType`], a
/// schema's [`lax::LaxChild`] in [`lax::LaxContent`]), text or CDATA.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Node<E> {
    /// A child element.
    Element(E),
    /// Character data (line ends normalised, references resolved).
    Text(String),
    /// A CDATA section's content.
    CData(String),
}

/// One child of [`AnyType`] content.
pub type AnyNode = Node<AnyElement>;

/// The attributes and mixed content of an element of open content, whose child elements
/// are `E` ([`AnyType`], [`lax::LaxContent`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Content<E> {
    attributes: Vec<AnyAttribute>,
    children: Vec<Node<E>>,
}

/// The attributes and content of an element whose type is `xs:anyType`: any attributes,
/// mixed content with any elements. The element's own name is its declaration's.
pub type AnyType = Content<AnyElement>;

impl<E> Default for Content<E> {
    fn default() -> Self {
        Content {
            attributes: Vec::new(),
            children: Vec::new(),
        }
    }
}

impl<E> Content<E> {
    /// No attributes, no content.
    pub fn new() -> Self {
        Self::default()
    }

    /// The attributes, in document order.
    pub fn attributes(&self) -> &[AnyAttribute] {
        &self.attributes
    }

    /// The attribute of expanded name `name`, if present.
    pub fn attribute(&self, name: &ExpandedName) -> Option<&AnyAttribute> {
        self.attributes.iter().find(|a| &a.name == name)
    }

    /// Adds an attribute whose expanded name is new on the element; `Err` gives the name
    /// when it is not.
    fn add_attribute(&mut self, attribute: AnyAttribute) -> Result<(), String> {
        if self.attribute(&attribute.name).is_some() {
            return Err(attribute.name.to_string());
        }
        self.attributes.push(attribute);
        Ok(())
    }

    /// Removes and returns the attribute of expanded name `name`.
    pub fn remove_attribute(&mut self, name: &ExpandedName) -> Option<AnyAttribute> {
        let i = self.attributes.iter().position(|a| &a.name == name)?;
        Some(self.attributes.remove(i))
    }

    /// The content, in document order.
    pub fn children(&self) -> &[Node<E>] {
        &self.children
    }

    /// Appends a child element (a generated value is valid by construction).
    pub fn push_element(&mut self, element: E) {
        self.children.push(Node::Element(element));
    }

    /// Appends text; it must hold only XML characters.
    pub fn push_text(&mut self, text: &str) -> Result<(), AnyError> {
        xml_chars(text)?;
        self.children.push(Node::Text(text.to_string()));
        Ok(())
    }

    /// Appends a CDATA section; it must hold only XML characters.
    pub fn push_cdata(&mut self, text: &str) -> Result<(), AnyError> {
        xml_chars(text)?;
        self.children.push(Node::CData(text.to_string()));
        Ok(())
    }

    /// Removes every child.
    pub fn clear_children(&mut self) {
        self.children.clear();
    }

    /// Writes the attributes and content of the element just started as `name` by `w`,
    /// each child element by `element`.
    fn write_in(
        &self,
        w: &mut Writer,
        name: &str,
        scope: &mut Scope,
        element: impl Fn(&E, &mut Writer, &mut Scope),
    ) {
        let mark = scope.bindings.len();
        write_attributes(&self.attributes, w, scope);
        w.begin_mixed();
        for c in &self.children {
            match c {
                Node::Text(t) => w.text(t),
                Node::CData(t) => w.cdata(t),
                Node::Element(e) => element(e, w, scope),
            }
        }
        w.end(name);
        scope.bindings.truncate(mark);
    }
}

impl<E: Element> Content<E> {
    /// Reads the attributes of `tag` and the content up to its end tag, with what an
    /// `xsi:type` naming a simple type judges (gathered only if `judged`); `attributes_ok`
    /// says whether the caller's check of the attributes passed.
    fn read_with(
        r: &mut Reader<'_>,
        tag: &Tag,
        judged: bool,
        attributes_ok: bool,
    ) -> Result<(Self, SimpleView), Invalid> {
        let attributes = read_attributes(r, tag);
        let (children, view) = read_mixed::<Node<E>>(r, judged)?;
        if attributes_ok {
            Ok((
                Content {
                    attributes,
                    children,
                },
                view,
            ))
        } else {
            Err(Invalid)
        }
    }
}

impl AnyType {
    /// Adds an attribute; its expanded name must be new on the element.
    pub fn push_attribute(&mut self, attribute: AnyAttribute) -> Result<(), AnyError> {
        self.add_attribute(attribute).map_err(AnyError::Duplicate)
    }

    /// The attributes alone, no content (what a nil element keeps, written so).
    pub(crate) fn of_attributes(attributes: Vec<AnyAttribute>) -> Self {
        Content {
            attributes,
            children: Vec::new(),
        }
    }

    /// The text content: every text and CDATA child, and those of the child elements, in
    /// document order (the XPath string value).
    pub fn string_value(&self) -> String {
        let mut out = String::new();
        self.push_string_value(&mut out);
        out
    }

    fn push_string_value(&self, out: &mut String) {
        for c in &self.children {
            match c {
                AnyNode::Text(t) | AnyNode::CData(t) => out.push_str(t),
                AnyNode::Element(e) => e.content.push_string_value(out),
            }
        }
    }

    /// Reads the attributes of `tag` and the content up to its end tag: only
    /// well-formedness (which the reader checks) applies.
    pub fn read(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        Self::read_with(r, tag, false, true).map(|(value, _)| value)
    }
}

/// The namespace bindings in force while a tree is written: the prefixes it declared, and
/// the default namespace.
#[derive(Default)]
struct Scope {
    /// (prefix, namespace); the empty prefix is the default namespace.
    bindings: Vec<(String, Option<String>)>,
}

impl Scope {
    fn lookup(&self, prefix: &str) -> Option<Option<&str>> {
        if prefix == "xml" {
            return Some(Some(XML_NAMESPACE));
        }
        self.bindings
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .map(|(_, ns)| ns.as_deref())
    }

    fn default_namespace(&self) -> Option<&str> {
        self.lookup("").flatten()
    }

    /// The prefix bound to `ns` now, preferring `wanted`.
    fn bound_prefix(&self, ns: &str, wanted: Option<&str>) -> Option<String> {
        if let Some(p) = wanted {
            if self.lookup(p) == Some(Some(ns)) {
                return Some(p.to_string());
            }
        }
        let mut seen: Vec<&str> = Vec::new();
        for (p, bound) in self.bindings.iter().rev() {
            if seen.contains(&p.as_str()) {
                continue;
            }
            seen.push(p);
            if !p.is_empty() && bound.as_deref() == Some(ns) {
                return Some(p.clone());
            }
        }
        (ns == XML_NAMESPACE).then(|| "xml".to_string())
    }

    /// A prefix for `ns`: one in scope, or `wanted` (or a made-up one) declared now and
    /// recorded in `declare`.
    fn prefix_for(
        &mut self,
        ns: &str,
        wanted: Option<&str>,
        declare: &mut Vec<(String, String)>,
    ) -> String {
        if let Some(p) = self.bound_prefix(ns, wanted) {
            return p;
        }
        let taken = |s: &Scope, p: &str| s.lookup(p).is_some();
        let p = match wanted {
            Some(p) if !declare.iter().any(|(d, _)| d == p) && !taken(self, p) => p.to_string(),
            _ => {
                let mut i = 0;
                loop {
                    let p = format!("ns{i}");
                    if !taken(self, &p) && !declare.iter().any(|(d, _)| *d == p) {
                        break p;
                    }
                    i += 1;
                }
            }
        };
        self.bindings.push((p.clone(), Some(ns.to_string())));
        declare.push((p.clone(), ns.to_string()));
        p
    }
}

/// Writes `attributes` on the element just started, first declaring the prefixes their
/// names (and an `xsi:type` value) need where `scope` stands; the bindings made stay in
/// `scope` for the element's content.
fn write_attributes(attributes: &[AnyAttribute], w: &mut Writer, scope: &mut Scope) {
    let mut declare = Vec::new();
    let written: Vec<(String, std::borrow::Cow<'_, str>)> = attributes
        .iter()
        .map(|a| {
            let name = match a.name.namespace() {
                Some(ns) => format!(
                    "{}:{}",
                    scope.prefix_for(ns, a.prefix(), &mut declare),
                    a.name.local
                ),
                None => a.name.local.clone(),
            };
            let value = match &a.type_name {
                Some(t) => std::borrow::Cow::Owned(t.write(scope, &mut declare)),
                None => std::borrow::Cow::Borrowed(a.value.as_str()),
            };
            (name, value)
        })
        .collect();
    for (p, ns) in &declare {
        w.attribute(&format!("xmlns:{p}"), ns);
    }
    for (name, value) in &written {
        w.attribute(name, value);
    }
}

/// An element held by name with its attributes and content: its expanded name, the
/// prefix it was written with (equality ignores it, as for [`AnyAttribute`]), and its
/// [`Content`] of child elements `$child`. The same struct, constructor and accessors for
/// [`AnyElement`] and [`lax::LaxElement`], which differ in their children and in how they
/// are written.
macro_rules! named_element {
    ($(#[$doc:meta])* $name:ident $(<$c:ident>)?, $child:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $name $(<$c>)? {
            name: $crate::any::ExpandedName,
            prefix: Option<String>,
            content: $crate::any::Content<$child>,
        }

        impl $(<$c: PartialEq>)? PartialEq for $name $(<$c>)? {
            fn eq(&self, other: &Self) -> bool {
                self.name == other.name && self.content == other.content
            }
        }

        impl $(<$c: Eq>)? Eq for $name $(<$c>)? {}

        impl $(<$c: std::hash::Hash>)? std::hash::Hash for $name $(<$c>)? {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.name.hash(state);
                self.content.hash(state);
            }
        }

        impl $(<$c>)? $name $(<$c>)? {
            /// An empty element named `name`, written with `prefix` if it is in a namespace
            /// and a prefix is given (else in the default namespace, or with a made-up
            /// prefix where that cannot be rebound).
            pub fn new(
                name: $crate::any::ExpandedName,
                prefix: Option<&str>,
            ) -> Result<Self, $crate::any::AnyError> {
                let prefix = match (prefix, name.namespace()) {
                    (Some(p), Some(ns)) => {
                        $crate::any::check_prefix(p, ns)?;
                        Some(p.to_string())
                    }
                    (Some(p), None) => return Err($crate::any::AnyError::Prefix(p.to_string())),
                    (None, _) => None,
                };
                Ok($name {
                    name,
                    prefix,
                    content: $crate::any::Content::new(),
                })
            }

            /// The expanded name.
            pub fn name(&self) -> &$crate::any::ExpandedName {
                &self.name
            }

            /// The prefix it is written with, if any.
            pub fn prefix(&self) -> Option<&str> {
                self.prefix.as_deref()
            }

            /// Its attributes and content.
            pub fn content(&self) -> &$crate::any::Content<$child> {
                &self.content
            }

            /// Its attributes and content, to change (every change is checked there).
            pub fn content_mut(&mut self) -> &mut $crate::any::Content<$child> {
                &mut self.content
            }

            /// Reads the element whose start tag is `tag` by its own name, its attributes
            /// and content by `content`.
            fn read_named(
                r: &mut $crate::xml::Reader<'_>,
                tag: &$crate::xml::Tag,
                content: impl FnOnce(
                    &mut $crate::xml::Reader<'_>,
                    &$crate::xml::Tag,
                ) -> Result<$crate::any::Content<$child>, $crate::schema::Invalid>,
            ) -> Result<Self, $crate::schema::Invalid> {
                let (name, prefix) =
                    $crate::any::expand(r, tag.name()).ok_or($crate::schema::Invalid)?;
                let prefix = prefix.or_else(|| tag.element_prefix().map(str::to_string));
                let content = content(r, tag)?;
                Ok($name {
                    name,
                    prefix,
                    content,
                })
            }
        }
    };
}
pub(crate) use named_element;

named_element!(
    /// An element of open content: its expanded name, the prefix it was written with, its
    /// attributes and its content. Equality ignores the prefix, as for [`AnyAttribute`].
    AnyElement,
    AnyElement
);

impl AnyElement {
    /// Writes the element under its own name (the name given by the caller is the
    /// declaration's, which a wildcard does not have).
    pub fn write(&self, w: &mut Writer) {
        self.write_scoped(w, &mut Scope::default());
    }

    /// Writes the element in `scope`: a name without a prefix in the default namespace,
    /// declared on the element where another one is in force.
    fn write_scoped(&self, w: &mut Writer, scope: &mut Scope) {
        write_named(
            w,
            scope,
            self.name(),
            self.prefix(),
            true,
            |w, qname, scope| {
                self.content
                    .write_in(w, qname, scope, AnyElement::write_scoped)
            },
        );
    }
}

/// Starts the element `name` (written with `prefix`, if it has one) in `scope`, then has
/// `content` write its attributes and content (given the name as written) and end it. A
/// namespaced name without a prefix is written in the default namespace if that is its
/// namespace, else, if `rebind_default`, in a default namespace declared on the element,
/// else with a made-up prefix; a prefixed name keeps its prefix where it is free. Only a
/// name in no namespace under a default namespace must undeclare it (`xmlns=""`), as XML
/// Namespaces allow no other way.
fn write_named(
    w: &mut Writer,
    scope: &mut Scope,
    name: &ExpandedName,
    prefix: Option<&str>,
    rebind_default: bool,
    content: impl FnOnce(&mut Writer, &str, &mut Scope),
) {
    let mark = scope.bindings.len();
    let mut declare_default = None;
    let mut declare = Vec::new();
    let qname = match name.namespace() {
        Some(ns) if prefix.is_none() && scope.default_namespace() == Some(ns) => name.local.clone(),
        Some(ns) if prefix.is_none() && rebind_default => {
            scope.bindings.push((String::new(), Some(ns.to_string())));
            declare_default = Some(ns);
            name.local.clone()
        }
        Some(ns) => format!(
            "{}:{}",
            scope.prefix_for(ns, prefix, &mut declare),
            name.local
        ),
        None => {
            if scope.default_namespace().is_some() {
                scope.bindings.push((String::new(), None));
                declare_default = Some("");
            }
            name.local.clone()
        }
    };
    w.start(&qname);
    if let Some(ns) = declare_default {
        w.attribute("xmlns", ns);
    }
    for (p, ns) in &declare {
        w.attribute(&format!("xmlns:{p}"), ns);
    }
    content(w, &qname, scope);
    scope.bindings.truncate(mark);
}

/// The expanded name of the element or attribute written `qname` where `r` stands: a
/// prefix resolved through the declarations in scope, an element's name in a default
/// namespace as the reader gives it (`{uri}local`). `None`: an unbound prefix (which the
/// reader has reported as not well-formed already).
pub(crate) fn expand(r: &Reader<'_>, qname: &str) -> Option<(ExpandedName, Option<String>)> {
    if let Some(rest) = qname.strip_prefix('{') {
        let (ns, local) = rest.split_once('}')?;
        let name = ExpandedName {
            namespace: Some(ns.to_string()),
            local: local.to_string(),
        };
        return Some((name, None));
    }
    match qname.split_once(':') {
        Some((p, local)) => {
            let ns = r.namespace_of_prefix(p)?;
            let name = ExpandedName {
                namespace: Some(ns.to_string()),
                local: local.to_string(),
            };
            Some((name, Some(p.to_string())))
        }
        None => Some((
            ExpandedName {
                namespace: None,
                local: qname.to_string(),
            },
            None,
        )),
    }
}

pub(crate) fn read_attributes(r: &Reader<'_>, tag: &Tag) -> Vec<AnyAttribute> {
    tag.attribute_names()
        .filter_map(|n| {
            let (name, prefix) = expand(r, n)?;
            // The reader gives a prefixed name expanded; its prefix is kept apart.
            let prefix = prefix.or_else(|| tag.attribute_prefix(n).map(str::to_string));
            let value = tag.attribute(n).unwrap_or_default().to_string();
            let is_xsi_type =
                name.namespace() == Some(crate::schema::XSI_NAMESPACE) && name.local == "type";
            let type_name = is_xsi_type.then(|| QNameValue::read(r, &value)).flatten();
            Some(AnyAttribute {
                name,
                prefix,
                value,
                type_name,
            })
        })
        .collect()
}

impl Element for AnyElement {
    // What a skip wildcard takes (codegen's render/any_element.rs).
    const SKIPPED: bool = true;
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        Self::read_named(r, tag, AnyType::read)
    }

    fn write_element(&self, w: &mut Writer, _name: &str) {
        self.write(w);
    }
}

impl Element for AnyType {
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        read_any_type_element(r, tag, |r, tag, judged| {
            Self::read_with(r, tag, judged, true)
        })
    }

    /// Writes the element `name` (its own namespace, none on this branch, is the scope
    /// its content starts from).
    fn write_element(&self, w: &mut Writer, name: &str) {
        w.start(name);
        self.write_in(w, name, &mut Scope::default(), AnyElement::write_scoped);
    }
}

/// Which namespaces a wildcard allows (XSD 1.0, 3.10.1 {namespace constraint}), each
/// namespace given by URI and `None` for no namespace (absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Namespaces {
    /// `##any`.
    Any,
    /// Every namespace but these (`##other`: not the target namespace, nor absent).
    Not(&'static [Option<&'static str>]),
    /// Only these (a list of URIs, `##targetNamespace`, `##local`).
    Only(&'static [Option<&'static str>]),
}

impl Namespaces {
    /// Whether a name in `namespace` is allowed.
    pub fn allows(self, namespace: Option<&str>) -> bool {
        match self {
            Namespaces::Any => true,
            Namespaces::Not(list) => !list.contains(&namespace),
            Namespaces::Only(list) => list.contains(&namespace),
        }
    }
}

/// How what a wildcard matches is validated (XSD 1.0, 3.10.1 {process contents}).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Process {
    /// A global declaration must exist, and the item is valid against it.
    Strict,
    /// Valid against its global declaration if there is one.
    Lax,
    /// Only well-formed.
    Skip,
}

/// A wildcard: the namespaces it allows and how it validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wildcard {
    /// The namespaces allowed.
    pub namespaces: Namespaces,
    /// How matches are validated.
    pub process: Process,
}

/// A schema's global attribute declarations, as a strict or lax wildcard validates
/// against them (generated per schema).
pub trait GlobalAttributes {
    /// The check of `value` by the global declaration of `name`: `None` when the schema
    /// declares no such attribute, else whether the value is valid for it.
    /// `scope` is where the value stands in a document being read (`None`: a value built
    /// by a program, read as written).
    fn check(
        name: &ExpandedName,
        value: &str,
        scope: Option<&dyn crate::schema::NamespaceScope>,
    ) -> Option<Result<(), crate::schema::FacetError>>;

    /// The value of `value` by the global declaration of `name` as identity constraints
    /// compare it (3.11.4: a field takes an attribute's typed value): `None` when the
    /// schema declares no such attribute or the value is not one of its type.
    fn key(
        name: &ExpandedName,
        value: &str,
        scope: Option<&dyn crate::schema::NamespaceScope>,
    ) -> Option<crate::identity_key::KeyValue>;

    /// The IDs and IDREFs `value` holds by the global declaration of `name`
    /// ([`crate::schema::SimpleValue::ids`]): none when the schema declares no such
    /// attribute, its type holds none, or the value is not one of its type.
    fn ids(
        name: &ExpandedName,
        value: &str,
        scope: Option<&dyn crate::schema::NamespaceScope>,
        found: &mut dyn FnMut(crate::schema::IdRole, &str),
    ) {
        let _ = (name, value, scope, found);
    }

    /// Whether the global declaration of `name` has a type that is or is derived from
    /// `xs:ID` (at most one such attribute per element: XSD 1.0, 3.4.4 clause 5).
    fn is_id(name: &ExpandedName) -> bool {
        let _ = name;
        false
    }
}

/// One complex type's attribute wildcard, at the type level (generated per type): what
/// it allows, the attributes the type declares itself (which a wildcard never takes),
/// and the global declarations a strict or lax wildcard validates against.
pub trait AttributeWildcard {
    /// The wildcard.
    const WILDCARD: Wildcard;
    /// The expanded names of the type's declared attributes (`{namespace}local` for a
    /// qualified one).
    const DECLARED: &'static [&'static str];
    /// The schema's global attribute declarations.
    type Globals: GlobalAttributes;
    /// Whether the type declares an attribute whose type is or is derived from `xs:ID`.
    const DECLARED_ID: bool = false;
    /// The expanded names the wildcard disallows (XSD 1.1's `notQName`, its `##defined`
    /// resolved into the names of the schema's global attribute declarations), sorted.
    const DISALLOWED: &'static [&'static str] = &[];

    /// Whether the wildcard matches an attribute named `name` (an expanded name): not one
    /// the type declares, in a namespace it allows, not one it disallows.
    fn matches(name: &ExpandedName) -> bool {
        let expanded = name.to_string();
        Self::WILDCARD.namespaces.allows(name.namespace())
            && !Self::DECLARED.contains(&expanded.as_str())
            && Self::DISALLOWED.binary_search(&expanded.as_str()).is_err()
    }

    /// Whether the wildcard takes an attribute `name` with `value`: `Err` says why not.
    fn admit(name: &ExpandedName, value: &str) -> Result<(), WildcardError> {
        let expanded = name.to_string();
        if Self::DECLARED.contains(&expanded.as_str()) {
            return Err(WildcardError::Declared(expanded));
        }
        if Self::DISALLOWED.binary_search(&expanded.as_str()).is_ok() {
            return Err(WildcardError::Disallowed(expanded));
        }
        if !Self::WILDCARD.namespaces.allows(name.namespace()) {
            return Err(WildcardError::Namespace(name.to_string()));
        }
        check_value::<Self::Globals>(Self::WILDCARD.process, name, value, None)
    }
}

pub(crate) fn check_value<G: GlobalAttributes>(
    process: Process,
    name: &ExpandedName,
    value: &str,
    scope: Option<&dyn crate::schema::NamespaceScope>,
) -> Result<(), WildcardError> {
    if process == Process::Skip {
        return Ok(());
    }
    match G::check(name, value, scope) {
        Some(Ok(())) => Ok(()),
        Some(Err(e)) => Err(WildcardError::Value(name.to_string(), e)),
        None if process == Process::Strict => Err(WildcardError::Undeclared(name.to_string())),
        None => Ok(()),
    }
}

/// Why an attribute wildcard does not take an attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WildcardError {
    /// The type declares this attribute itself.
    Declared(String),
    /// Its namespace is not one the wildcard allows.
    Namespace(String),
    /// The wildcard disallows its name (XSD 1.1's `notQName`).
    Disallowed(String),
    /// A strict wildcard, and no global declaration of the name.
    Undeclared(String),
    /// Its global declaration does not allow the value.
    Value(String, crate::schema::FacetError),
    /// The element has the attribute already.
    Duplicate(String),
    /// Not an attribute at all (a name or value XML does not allow).
    Any(AnyError),
}

impl fmt::Display for WildcardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WildcardError::Declared(n) => write!(
                f,
                "attribute {n} is declared by the type, not taken by its wildcard"
            ),
            WildcardError::Namespace(n) => {
                write!(f, "the wildcard does not allow attribute {n}'s namespace")
            }
            WildcardError::Disallowed(n) => {
                write!(f, "the wildcard disallows attribute {n} by name (notQName)")
            }
            WildcardError::Undeclared(n) => write!(
                f,
                "the wildcard is strict and the schema declares no global attribute {n}"
            ),
            WildcardError::Value(n, e) => write!(f, "attribute {n}: {e}"),
            WildcardError::Duplicate(n) => write!(f, "the element has attribute {n} already"),
            WildcardError::Any(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WildcardError {}

/// The attributes a complex type's attribute wildcard took (`xs:anyAttribute`), in
/// document order; each is checked against the wildcard (`M`) when read and when added.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OtherAttributes<M> {
    items: Vec<AnyAttribute>,
    marker: std::marker::PhantomData<fn() -> M>,
}

impl<M> Default for OtherAttributes<M> {
    fn default() -> Self {
        OtherAttributes {
            items: Vec::new(),
            marker: std::marker::PhantomData,
        }
    }
}

impl<M: AttributeWildcard> OtherAttributes<M> {
    /// None.
    pub fn new() -> Self {
        Self::default()
    }

    /// The attributes, in order.
    pub fn as_slice(&self) -> &[AnyAttribute] {
        &self.items
    }

    /// Adds an attribute the wildcard allows (namespace, declaration, value checked).
    pub fn push(&mut self, attribute: AnyAttribute) -> Result<(), WildcardError> {
        M::admit(attribute.name(), attribute.value())?;
        if self.items.iter().any(|a| a.name == attribute.name) {
            return Err(WildcardError::Duplicate(attribute.name.to_string()));
        }
        self.items.push(attribute);
        Ok(())
    }

    /// Keeps an attribute the reader took for the wildcard (already checked).
    pub(crate) fn push_read(&mut self, name: ExpandedName, prefix: Option<String>, value: String) {
        self.items.push(AnyAttribute {
            name,
            prefix,
            value,
            type_name: None,
        });
    }

    /// Removes the attribute of expanded name `name`.
    pub fn remove(&mut self, name: &ExpandedName) -> Option<AnyAttribute> {
        let i = self.items.iter().position(|a| &a.name == name)?;
        Some(self.items.remove(i))
    }

    /// Writes them on the element just started (with the namespace declarations their
    /// prefixes need: outside open content, generated elements are in no namespace).
    pub(crate) fn write(&self, w: &mut Writer) {
        write_attributes(&self.items, w, &mut Scope::default());
    }
}

/// A node of `xs:anyType` content, as the shared read loop ([`read_mixed`]) makes it.
pub(crate) trait MixedNode: Sized {
    /// Character data.
    fn text(text: String) -> Self;
    /// A CDATA section's content.
    fn cdata(text: String) -> Self;
    /// Reads the child element the reader has peeked.
    fn child(r: &mut Reader<'_>) -> Result<Self, Invalid>;
}

impl<E: Element> MixedNode for Node<E> {
    fn text(text: String) -> Self {
        Node::Text(text)
    }
    fn cdata(text: String) -> Self {
        Node::CData(text)
    }
    fn child(r: &mut Reader<'_>) -> Result<Self, Invalid> {
        r.read_child::<E>().map(Node::Element)
    }
}

/// What an `xsi:type` naming a simple type judges of `xs:anyType` content (3.3.4
/// cvc-type.3.1): its character data and whether it had a child element. Where one is
/// named, it is gathered whether or not the reader keeps the nodes, since a validator that
/// keeps nothing judges the same text; elsewhere the text is not copied.
#[derive(Debug, Default)]
pub(crate) struct SimpleView {
    text: String,
    has_element: bool,
}

/// Reads mixed `xs:anyType` content up to the end tag: the nodes (none when the reader is
/// validating without keeping), the element's default= or fixed= applied (xs:anyType is
/// mixed: a string value), and, if `judged`, what a simple `xsi:type` judges. Every child
/// is read, even after an invalid one, so every error is reported.
pub(crate) fn read_mixed<N: MixedNode>(
    r: &mut Reader<'_>,
    judged: bool,
) -> Result<(Vec<N>, SimpleView), Invalid> {
    let retain = r.retains();
    let mut ok = true;
    let mut nodes = Vec::new();
    let mut view = SimpleView::default();
    let mut constraint = r.content_constraint();
    while let Some(item) = r.next_mixed() {
        if let Some(c) = &mut constraint {
            c.item(&item);
        }
        let node = match item {
            MixedItem::Text(t) => {
                if judged {
                    view.text.push_str(&t);
                }
                N::text(t)
            }
            MixedItem::CData(t) => {
                if judged {
                    view.text.push_str(&t);
                }
                N::cdata(t)
            }
            MixedItem::Child => {
                view.has_element = true;
                match N::child(r) {
                    Ok(e) => e,
                    Err(Invalid) => {
                        ok = false;
                        continue;
                    }
                }
            }
        };
        if retain {
            nodes.push(node);
        }
    }
    if let Some(c) = constraint {
        match c.finish(r) {
            // An empty element holds the value as its text.
            Ok(Some(text)) => {
                if judged {
                    view.text = text.to_string();
                }
                if retain {
                    nodes.push(N::text(text.to_string()));
                }
            }
            Ok(None) => {}
            Err(_) => ok = false,
        }
    }
    if ok && !r.is_fatal() {
        Ok((nodes, view))
    } else {
        Err(Invalid)
    }
}

/// Reads a declared element of type `xs:anyType` by `read` (its attributes and content),
/// judging what the declaration leaves to the element: `xsi:nil`, which only a nillable
/// declaration allows (XSD 1.0, 3.3.4, Element Locally Valid (Element) 3.1;
/// `boardxml::nillable` judges it where one does), and `xsi:type` where the declaration
/// says what it may name (3.3.4 cvc-elt.4). A simple type named there judges the content
/// (cvc-type.3.1); the element keeps it as read, its `xsi:type` among its attributes.
pub(crate) fn read_any_type_element<T>(
    r: &mut Reader<'_>,
    tag: &Tag,
    read: impl FnOnce(&mut Reader<'_>, &Tag, bool) -> Result<(T, SimpleView), Invalid>,
) -> Result<T, Invalid> {
    let not_nillable = match tag.attribute(crate::schema::XSI_NIL) {
        Some(value) if !r.take_xsi_nil_allowed(tag) => {
            let offset = r.attribute_offset(tag, crate::schema::XSI_NIL);
            r.xsi_nil_not_nillable(tag, offset, value);
            true
        }
        _ => false,
    };
    let choice = r
        .take_xsi_simple()
        .map(|table| crate::type_substitution::choose_simple(r, tag, table));
    let judged = matches!(choice, Some(SimpleChoice::Named(..)));
    let read = read(r, tag, judged);
    if not_nillable {
        return Err(Invalid);
    }
    match choice {
        Some(SimpleChoice::Refused(d)) => {
            r.report(d);
            Err(Invalid)
        }
        Some(SimpleChoice::Named(name, canonical)) => {
            let attributes_ok = no_attribute_but_xsi(r, tag, name);
            let (value, view) = read?;
            simple_content_of(r, tag, name, canonical, view.has_element, &view.text)?;
            if attributes_ok {
                Ok(value)
            } else {
                Err(Invalid)
            }
        }
        _ => read.map(|(value, _)| value),
    }
}

/// Reports each attribute of `tag` outside the XML Schema instance namespace: an element
/// whose `xsi:type` names the simple type `name` may have no other (XSD 1.0, 3.3.4
/// cvc-type.3.1.1). Whether it has none.
pub(crate) fn no_attribute_but_xsi(r: &mut Reader<'_>, tag: &Tag, name: &str) -> bool {
    let others: Vec<String> = tag
        .attribute_names()
        .filter(|n| {
            expand(r, n).is_some_and(|(e, _)| e.namespace() != Some(crate::schema::XSI_NAMESPACE))
        })
        .map(str::to_string)
        .collect();
    for n in &others {
        let offset = r.attribute_offset(tag, n);
        let path = r.path();
        r.report(
            crate::diagnostic::Diagnostic::error(
                crate::diagnostic::Code::UNKNOWN_ATTRIBUTE,
                offset,
                path,
                format!(
                    "<{}> has the simple type {name} (its xsi:type), which allows no attribute: {n} is not allowed",
                    tag.name()
                ),
            )
            .expected("no attribute but xsi:type, xsi:nil and the other xsi: attributes")
            .found(n.clone()),
        );
    }
    others.is_empty()
}

/// Judges the content of an element of type `xs:anyType` whose `xsi:type` names the simple
/// type `name` (its canonical form `canonical`): text only (`has_element` false), and a
/// value of that type (XSD 1.0, 3.3.4 cvc-elt.5.2.1 with cvc-type.3.1).
fn simple_content_of(
    r: &mut Reader<'_>,
    tag: &Tag,
    name: &str,
    canonical: crate::type_substitution::Canonical,
    has_element: bool,
    text: &str,
) -> Result<(), Invalid> {
    let path = r.path();
    if has_element {
        r.report(
            crate::diagnostic::Diagnostic::error(
                crate::diagnostic::Code::UNEXPECTED_ELEMENT,
                tag.offset,
                path,
                format!(
                    "<{}> has the simple type {name} (its xsi:type): it may hold text only, no element",
                    tag.name()
                ),
            )
            .expected(format!("text content, then </{}>", tag.name())),
        );
        return Err(Invalid);
    }
    match canonical(text, &r.scope(true)) {
        // Its value is the named type's, for identity constraints too (3.11.4).
        Ok(value) => {
            r.note_identity_key(value.key, None);
            Ok(())
        }
        Err(e) => {
            r.report_facet_error(
                e,
                tag.offset,
                path,
                &format!("the content of <{}> (of the xsi:type {name})", tag.name()),
                text,
            );
            Err(Invalid)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Document;
    use encoding_rs::UTF_8;

    /// A document whose root `<root>` is of type xs:anyType.
    #[derive(Debug, PartialEq)]
    struct Root(AnyType);

    impl Document for Root {
        const ROOTS: &'static [&'static str] = &["root"];
        fn read_root(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
            AnyType::read(r, tag).map(Root)
        }
        fn write_root(&self, w: &mut Writer) {
            self.0.write_element(w, "root");
        }
    }

    fn read(xml: &str) -> AnyType {
        let mut r = Reader::new(xml);
        let root = r.read_document::<Root>();
        assert!(r.diagnostics().is_empty(), "{:?}", r.diagnostics());
        root.expect("reads").0
    }

    fn round_trip(xml: &str) -> (AnyType, String) {
        let value = read(xml);
        let mut w = Writer::new(UTF_8);
        value.write_element(&mut w, "root");
        (value, w.finish())
    }

    #[test]
    fn keeps_attributes_text_and_elements_in_order() {
        let xml = "<root a=\"1\" b=\"x &amp; y\">one<x:b xmlns:x=\"urn:x\" x:c=\"2\">two<![CDATA[<3>]]></x:b><d xmlns=\"urn:d\"><e/></d>four</root>";
        let (v, out) = round_trip(xml);
        assert_eq!(v.attributes().len(), 2);
        assert_eq!(v.attributes()[1].value(), "x & y");
        assert_eq!(v.children().len(), 4);
        let AnyNode::Element(b) = &v.children()[1] else {
            panic!("an element")
        };
        assert_eq!(b.name().namespace(), Some("urn:x"));
        assert_eq!(b.name().local(), "b");
        assert_eq!(
            b.content().attributes()[0].name().namespace(),
            Some("urn:x")
        );
        let AnyNode::Element(d) = &v.children()[2] else {
            panic!("an element")
        };
        let AnyNode::Element(e) = &d.content().children()[0] else {
            panic!("an element")
        };
        assert_eq!(e.name().namespace(), Some("urn:d"));
        assert!(out.contains("<x:b xmlns:x=\"urn:x\" x:c=\"2\">two<![CDATA[<3>]]></x:b>"));
        assert!(out.contains("<d xmlns=\"urn:d\"><e/></d>four"));
        // What was written reads back as the same tree.
        let (again, out2) = round_trip(&out);
        assert_eq!(again, v);
        assert_eq!(out2, out);
    }

    #[test]
    fn construction_checks_names_values_and_duplicates() {
        assert!(ExpandedName::new(None, "a:b").is_err());
        assert!(ExpandedName::new(None, "1a").is_err());
        let n = ExpandedName::new(Some("urn:u"), "a").unwrap();
        assert!(AnyElement::new(n.clone(), Some("xmlns")).is_err());
        assert!(AnyElement::new(n.clone(), Some("xml")).is_err());
        assert!(AnyAttribute::new(ExpandedName::new(None, "a").unwrap(), None, "\u{1}").is_err());
        let mut t = AnyType::new();
        t.push_attribute(AnyAttribute::new(n.clone(), None, "v").unwrap())
            .unwrap();
        assert!(t
            .push_attribute(AnyAttribute::new(n.clone(), Some("p"), "w").unwrap())
            .is_err());
        assert!(t.push_text("ok").is_ok());
        assert!(t.push_cdata("\u{FFFE}").is_err());
    }

    #[test]
    fn writing_declares_what_a_made_tree_needs() {
        let mut e = AnyElement::new(ExpandedName::new(Some("urn:e"), "e").unwrap(), None).unwrap();
        let a = AnyAttribute::new(ExpandedName::new(Some("urn:a"), "a").unwrap(), None, "1");
        e.content_mut().push_attribute(a.unwrap()).unwrap();
        let inner = AnyElement::new(ExpandedName::new(None, "plain").unwrap(), None).unwrap();
        e.content_mut().push_element(inner);
        let mut t = AnyType::new();
        t.push_element(e);
        let mut w = Writer::new(UTF_8);
        t.write_element(&mut w, "root");
        let out = w.finish();
        assert!(
            out.contains(
                "<e xmlns=\"urn:e\" xmlns:ns0=\"urn:a\" ns0:a=\"1\"><plain xmlns=\"\"/></e>"
            ),
            "{out}"
        );
        assert_eq!(read(&out), t);
    }
}
