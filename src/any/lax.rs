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
use std::hash::Hash;

use super::{
    check_value, expand, named_element, read_any_type_element, write_named, AnyAttribute, Content,
    GlobalAttributes, Node, Process, Scope, SimpleView, WildcardError,
};
use crate::schema::{Element, Invalid};
use crate::wildcards::GlobalElements;
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

/// A child element of `xs:anyType` content in a schema whose global elements are `G` (its
/// generated enum of them, [`GlobalElements`]): an element of a global declaration, valid
/// against it, or an undeclared one, its children and attributes assessed laxly in turn.
/// A schema's anyType content and its wildcards share `G`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AnyChild<G> {
    /// An element of one of the schema's global declarations.
    Declared(G),
    /// An element the schema declares no global element for.
    Undeclared(LaxElement<AnyChild<G>>),
}

impl<G> Element for AnyChild<G>
where
    G: GlobalElements + fmt::Debug + Clone + PartialEq + Eq + Hash,
{
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        crate::wildcards::read_lax(r, tag, AnyChild::Declared, AnyChild::Undeclared)
    }

    fn write_element(&self, w: &mut Writer, _name: &str) {
        match self {
            AnyChild::Declared(g) => g.write_global(w),
            AnyChild::Undeclared(e) => e.write_element(w, ""),
        }
    }
}

impl<G> LaxChild for AnyChild<G>
where
    G: GlobalElements + fmt::Debug + Clone + PartialEq + Eq + Hash,
{
    type Globals = G::Attributes;

    fn undeclared(&self) -> Option<&LaxElement<Self>> {
        match self {
            AnyChild::Undeclared(e) => Some(e),
            AnyChild::Declared(_) => None,
        }
    }
}

/// One child of `xs:anyType` content: a child element (declared globally, or undeclared
/// and laxly assessed in turn), text or CDATA.
pub type LaxNode<C> = Node<C>;

/// The attributes and content of an element of type `xs:anyType`, each child element
/// valid against its global declaration where the schema has one, each attribute
/// against its global attribute declaration where the schema has one.
pub type LaxContent<C> = Content<C>;

impl<C: LaxChild> LaxContent<C> {
    /// Adds an attribute: its expanded name must be new on the element, and its value
    /// valid for the schema's global declaration of that name, if there is one.
    pub fn push_attribute(&mut self, attribute: AnyAttribute) -> Result<(), WildcardError> {
        check_value::<C::Globals>(Process::Lax, &attribute.name, &attribute.value, None)?;
        self.add_attribute(attribute)
            .map_err(WildcardError::Duplicate)
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
        Self::read_with(r, tag, judged, attributes_ok)
    }
}

/// Writes a child element of lax content in `scope`.
fn write_child<C: LaxChild>(child: &C, w: &mut Writer, scope: &mut Scope) {
    match child.undeclared() {
        Some(u) => u.write_scoped(w, scope),
        // A declared element writes itself, by the document's namespace declarations
        // (which the scope never rebinds: see `write_scoped`).
        None => child.write_element(w, ""),
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
            if ids > 1 && r.one_id_attribute() {
                r.second_id_attribute(tag.offset, &n);
                ok = false;
            }
        }
        let value = tag.attribute(&n).unwrap_or_default();
        if let Some(Err(e)) = G::check(&name, value, Some(&r.scope(false))) {
            r.attribute_value_error(tag, &n, e);
            ok = false;
        } else {
            r.note_global_attribute::<G>(tag.offset, &n, &name, value);
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

impl<C: LaxChild> Element for LaxContent<C> {
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        read_any_type_element(r, tag, Self::read_content)
    }

    fn write_element(&self, w: &mut Writer, name: &str) {
        w.start(name);
        let mut scope = document_scope(w);
        self.write_in(w, name, &mut scope, write_child);
    }
}

named_element!(
    /// An element of `xs:anyType` content that the schema declares no global element for:
    /// its expanded name, the prefix it was written with, and its content, assessed laxly
    /// again. Equality ignores the prefix, as for [`crate::any::AnyElement`].
    LaxElement<C>,
    C
);

impl<C: LaxChild> LaxElement<C> {
    /// Writes the element in `scope`. The default namespace is never rebound (declared
    /// children inside are written by the document's declarations, unprefixed in its
    /// default namespace): a namespaced name not in the default namespace is written with
    /// a prefix, its own or a made-up one.
    fn write_scoped(&self, w: &mut Writer, scope: &mut Scope) {
        write_named(
            w,
            scope,
            self.name(),
            self.prefix(),
            false,
            |w, qname, scope| self.content.write_in(w, qname, scope, write_child),
        );
    }
}

impl<C: LaxChild> Element for LaxElement<C> {
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        Self::read_named(r, tag, LaxContent::<C>::read)
    }

    /// Writes the element under its own name (the name given is a declaration's, which an
    /// undeclared element does not have).
    fn write_element(&self, w: &mut Writer, _name: &str) {
        let mut scope = document_scope(w);
        self.write_scoped(w, &mut scope);
    }
}
