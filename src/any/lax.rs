//! The content of `xs:anyType` as XSD 1.0 defines it (Part 1, 3.4.7, the ur-type): mixed
//! content of one `<xs:any namespace="##any" processContents="lax"/>` repeated without
//! bound, and `<xs:anyAttribute namespace="##any" processContents="lax"/>`. Lax means
//! (3.10.1 {process contents}, 3.3.4 Schema-Validity Assessment (Element) 2): an element
//! or attribute with a global declaration is valid against it; one without is kept, and
//! an element without one is assessed the same way again, its children and attributes at
//! any depth.
//!
//! The reader streams, so an element is read once, by the type it is held as: a child is
//! read into the schema's generated enum of its global elements ([`LaxChild`]), whose one
//! other variant holds an undeclared element as a [`LaxElement`] of the same enum. A
//! schema has one such enum, whatever number of elements it declares `xs:anyType`.
//! [`crate::any::AnyType`] stays what skip wildcards take: a tree nothing assesses.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::{
    check_prefix, check_value, expand, read_any_type_element, read_attributes, read_mixed,
    write_attributes, xml_chars, AnyAttribute, AnyError, ExpandedName, GlobalAttributes, MixedNode,
    Process, Scope, SimpleView, WildcardError,
};
use crate::schema::{Element, Invalid};
use crate::xml::{Reader, Tag, Writer};

/// A schema's child of `xs:anyType` content (generated per schema): an element of one of
/// its global declarations, or an undeclared element held as [`LaxElement<Self>`].
pub trait LaxChild: Element + fmt::Debug + Clone + PartialEq + Eq + Hash {
    /// The schema's global attribute declarations, which attributes are checked against.
    type Globals: GlobalAttributes;

    /// The undeclared element this child is, if it is one (written in the namespace scope
    /// of the tree around it).
    fn undeclared(&self) -> Option<&LaxElement<Self>>;
}

/// One child of `xs:anyType` content.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LaxNode<C> {
    /// A child element: declared globally, or undeclared (and laxly assessed in turn).
    Element(C),
    /// Character data (line ends normalised, references resolved).
    Text(String),
    /// A CDATA section's content.
    CData(String),
}

/// The attributes and content of an element of type `xs:anyType`, each child element
/// valid against its global declaration where the schema has one, each attribute
/// against its global attribute declaration where the schema has one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LaxContent<C> {
    attributes: Vec<AnyAttribute>,
    children: Vec<LaxNode<C>>,
}

impl<C> Default for LaxContent<C> {
    fn default() -> Self {
        LaxContent {
            attributes: Vec::new(),
            children: Vec::new(),
        }
    }
}

impl<C: LaxChild> LaxContent<C> {
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

    /// Adds an attribute: its expanded name must be new on the element, and its value
    /// valid for the schema's global declaration of that name, if there is one.
    pub fn push_attribute(&mut self, attribute: AnyAttribute) -> Result<(), WildcardError> {
        check_value::<C::Globals>(Process::Lax, &attribute.name, &attribute.value, None)?;
        if self.attribute(&attribute.name).is_some() {
            return Err(WildcardError::Duplicate(attribute.name.to_string()));
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
    pub fn children(&self) -> &[LaxNode<C>] {
        &self.children
    }

    /// Appends a child element (a generated value is valid by construction).
    pub fn push_element(&mut self, element: C) {
        self.children.push(LaxNode::Element(element));
    }

    /// Appends text; it must hold only XML characters.
    pub fn push_text(&mut self, text: &str) -> Result<(), AnyError> {
        xml_chars(text)?;
        self.children.push(LaxNode::Text(text.to_string()));
        Ok(())
    }

    /// Appends a CDATA section; it must hold only XML characters.
    pub fn push_cdata(&mut self, text: &str) -> Result<(), AnyError> {
        xml_chars(text)?;
        self.children.push(LaxNode::CData(text.to_string()));
        Ok(())
    }

    /// Removes every child.
    pub fn clear_children(&mut self) {
        self.children.clear();
    }

    /// Reads the attributes of `tag` and the content up to its end tag, assessing both
    /// laxly: an attribute with a global declaration must be valid for it, a child element
    /// is read into `C` (by its global declaration, or undeclared and assessed so again).
    pub fn read(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        Self::read_content(r, tag, false).map(|(value, _)| value)
    }

    /// [`LaxContent::read`], with what an `xsi:type` naming a simple type judges (gathered
    /// only if `judged`).
    fn read_content(
        r: &mut Reader<'_>,
        tag: &Tag,
        judged: bool,
    ) -> Result<(Self, SimpleView), Invalid> {
        let attributes_ok = check_attributes::<C::Globals>(r, tag);
        let attributes = read_attributes(r, tag);
        let (children, view) = read_mixed::<LaxNode<C>>(r, judged)?;
        if attributes_ok {
            Ok((
                LaxContent {
                    attributes,
                    children,
                },
                view,
            ))
        } else {
            Err(Invalid)
        }
    }

    /// Writes the attributes and content of the element just started as `name`.
    fn write_in(&self, w: &mut Writer, name: &str, scope: &mut Scope) {
        let mark = scope.bindings.len();
        write_attributes(&self.attributes, w, scope);
        w.begin_mixed();
        for c in &self.children {
            match c {
                LaxNode::Text(t) => w.text(t),
                LaxNode::CData(t) => w.cdata(t),
                LaxNode::Element(e) => match e.undeclared() {
                    Some(u) => u.write_scoped(w, scope),
                    // A declared element writes itself, by the document's namespace
                    // declarations (which the scope never rebinds: see `write_scoped`).
                    None => e.write_element(w, ""),
                },
            }
        }
        w.end(name);
        scope.bindings.truncate(mark);
    }
}

/// Checks each attribute of `tag` that the schema declares globally against its
/// declaration, reporting every one that is not valid. xsi: attributes are never a
/// wildcard's (3.4.4 clause 3), and no schema declares one (3.2.6): none is checked.
fn check_attributes<G: GlobalAttributes>(r: &mut Reader<'_>, tag: &Tag) -> bool {
    let mut ok = true;
    let mut ids = 0;
    let names: Vec<String> = tag.attribute_names().map(str::to_string).collect();
    for n in names {
        let Some((name, _)) = expand(r, &n) else {
            continue;
        };
        if name.namespace() == Some(crate::schema::XSI_NAMESPACE) {
            continue;
        }
        // At most one attribute a wildcard takes may be of an ID type (XSD 1.0, 3.4.4
        // Element Locally Valid (Complex Type) 5.1).
        if G::is_id(&name) {
            ids += 1;
            if ids > 1 {
                r.second_id_attribute(tag.offset, &n);
                ok = false;
            }
        }
        let value = tag.attribute(&n).unwrap_or_default();
        if let Some(Err(e)) = G::check(&name, value, Some(&r.scope(false))) {
            r.attribute_value_error(tag, &n, e);
            ok = false;
        }
    }
    ok
}

/// The scope a tree starts from where it is written: the document's own namespace
/// declarations, in force on every element below the root.
fn document_scope(w: &Writer) -> Scope {
    Scope {
        bindings: w
            .document_namespaces()
            .iter()
            .map(|(p, ns)| (p.to_string(), Some(ns.to_string())))
            .collect(),
    }
}

impl<C: LaxChild> MixedNode for LaxNode<C> {
    fn text(text: String) -> Self {
        LaxNode::Text(text)
    }
    fn cdata(text: String) -> Self {
        LaxNode::CData(text)
    }
    fn child(r: &mut Reader<'_>) -> Result<Self, Invalid> {
        r.read_child::<C>().map(LaxNode::Element)
    }
}

impl<C: LaxChild> Element for LaxContent<C> {
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        read_any_type_element(r, tag, LaxContent::read_content)
    }

    fn write_element(&self, w: &mut Writer, name: &str) {
        w.start(name);
        let mut scope = document_scope(w);
        self.write_in(w, name, &mut scope);
    }
}

/// An element of `xs:anyType` content that the schema declares no global element for:
/// its expanded name, the prefix it was written with, and its content, assessed laxly
/// again. Equality ignores the prefix, as for [`crate::any::AnyElement`].
#[derive(Debug, Clone)]
pub struct LaxElement<C> {
    name: ExpandedName,
    prefix: Option<String>,
    content: LaxContent<C>,
}

impl<C: PartialEq> PartialEq for LaxElement<C> {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.content == other.content
    }
}

impl<C: Eq> Eq for LaxElement<C> {}

impl<C: Hash> Hash for LaxElement<C> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.content.hash(state);
    }
}

impl<C: LaxChild> LaxElement<C> {
    /// An empty element named `name`, written with `prefix` if it is in a namespace and a
    /// prefix is given.
    pub fn new(name: ExpandedName, prefix: Option<&str>) -> Result<Self, AnyError> {
        let prefix = match (prefix, name.namespace()) {
            (Some(p), Some(ns)) => {
                check_prefix(p, ns)?;
                Some(p.to_string())
            }
            (Some(p), None) => return Err(AnyError::Prefix(p.to_string())),
            (None, _) => None,
        };
        Ok(LaxElement {
            name,
            prefix,
            content: LaxContent::new(),
        })
    }

    /// The expanded name.
    pub fn name(&self) -> &ExpandedName {
        &self.name
    }

    /// The prefix it is written with, if any.
    pub fn prefix(&self) -> Option<&str> {
        self.prefix.as_deref()
    }

    /// Its attributes and content.
    pub fn content(&self) -> &LaxContent<C> {
        &self.content
    }

    /// Its attributes and content, to change (every change is checked there).
    pub fn content_mut(&mut self) -> &mut LaxContent<C> {
        &mut self.content
    }

    /// Writes the element in `scope`. The default namespace is never rebound (declared
    /// children inside are written by the document's declarations, unprefixed in its
    /// default namespace): a namespaced name not in the default namespace is written with
    /// a prefix, its own or a made-up one. Only a name in no namespace under a default
    /// namespace must undeclare it (`xmlns=""`), as XML Namespaces allow no other way.
    fn write_scoped(&self, w: &mut Writer, scope: &mut Scope) {
        let mark = scope.bindings.len();
        let mut undeclare_default = false;
        let mut declare = Vec::new();
        let qname = match self.name.namespace() {
            Some(ns) if self.prefix.is_none() && scope.default_namespace() == Some(ns) => {
                self.name.local.clone()
            }
            Some(ns) => {
                let p = scope.prefix_for(ns, self.prefix.as_deref(), &mut declare);
                format!("{p}:{}", self.name.local)
            }
            None => {
                if scope.default_namespace().is_some() {
                    scope.bindings.push((String::new(), None));
                    undeclare_default = true;
                }
                self.name.local.clone()
            }
        };
        w.start(&qname);
        if undeclare_default {
            w.attribute("xmlns", "");
        }
        for (p, ns) in &declare {
            w.attribute(&format!("xmlns:{p}"), ns);
        }
        self.content.write_in(w, &qname, scope);
        scope.bindings.truncate(mark);
    }
}

impl<C: LaxChild> Element for LaxElement<C> {
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        let (name, prefix) = expand(r, tag.name()).ok_or(Invalid)?;
        let prefix = prefix.or_else(|| tag.element_prefix().map(str::to_string));
        let content = LaxContent::read(r, tag)?;
        Ok(LaxElement {
            name,
            prefix,
            content,
        })
    }

    /// Writes the element under its own name (the name given is a declaration's, which an
    /// undeclared element does not have).
    fn write_element(&self, w: &mut Writer, _name: &str) {
        let mut scope = document_scope(w);
        self.write_scoped(w, &mut scope);
    }
}
