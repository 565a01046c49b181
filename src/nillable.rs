//! Nillable elements whose type has attributes: a complex type, or `xs:anyType` (XSD 1.0
//! Part 1, 3.3.4, Element Locally Valid (Element) 3). A nil element (`xsi:nil="true"`) has
//! no character or element content but keeps its attributes, which its type still judges
//! (a required one is still required). So the value is [`Nilled`]: nil with the attributes
//! alone (`A`: for a complex type, the generator's attributes-only companion of it; for
//! `xs:anyType`, [`AnyNil`]), or a value of the type (`T`). A simple-typed nillable element
//! has no attributes to keep: it is [`crate::schema::Nillable`].

use crate::any::{AnyAttribute, AnyError, AnyType, ExpandedName};
use crate::complex::Complex;
use crate::schema::{Element, Invalid, XSI_NAMESPACE, XSI_NIL};
use crate::xml::{Reader, Tag, Writer};

/// The value of an element declared `nillable="true"` whose type has attributes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Nilled<T, A> {
    /// `xsi:nil="true"`: no content, and the element's attributes.
    Nil(A),
    /// A value of the element's type (`xsi:nil` absent or `"false"`).
    Value(T),
}

impl<T, A> Nilled<T, A> {
    /// The value, unless the element is nil.
    pub fn value(&self) -> Option<&T> {
        match self {
            Nilled::Nil(_) => None,
            Nilled::Value(v) => Some(v),
        }
    }

    /// Whether the element is nil.
    pub fn is_nil(&self) -> bool {
        matches!(self, Nilled::Nil(_))
    }
}

/// What a nil element of some type keeps: its attributes, read from a start tag whose
/// `xsi:nil` is `"true"` (the content must be empty) and written with `xsi:nil="true"`.
pub trait NilAttributes: Sized {
    /// Reads the attributes of the nil element whose start tag is `tag`, and its (empty)
    /// content, through its end tag.
    fn read_nil(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid>;
    /// Writes the nil element `name`: its attributes and `xsi:nil="true"`, no content.
    fn write_nil(&self, w: &mut Writer, name: &str);
}

/// The generator's attributes-only companion of a complex type (the type's attributes and
/// attribute wildcard, empty content): read and checked by its tables like any complex
/// type, so a nil element's attributes are judged as its type's are.
impl<A: Complex> NilAttributes for A {
    fn read_nil(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        // The companion's content is empty: what `read` checks of it is that the element
        // has none, said as a nil element's.
        r.reading_nil(tag, |r| crate::complex::read(r, tag))
    }

    fn write_nil(&self, w: &mut Writer, name: &str) {
        w.start(name);
        // The writer declares the xsi prefix on the element itself (XSI is not one of the
        // schema's namespaces, declared on the root).
        w.attribute("xsi:nil", "true");
        crate::complex::write_attributes(self, w, name);
        w.end_empty();
    }
}

/// Reads `tag`'s `xsi:nil` (an `xs:boolean`; a value that is not one is reported).
fn xsi_nil(r: &mut Reader<'_>, tag: &Tag) -> Result<bool, Invalid> {
    if tag.attribute(XSI_NIL).is_none() {
        return Ok(false);
    }
    // Taken only to judge the value: the element's type takes its other attributes, and
    // judges its xsi:type (what it may name is kept for it, nil or not).
    let xsi_types = r.take_xsi_simple();
    let mut attributes = r.attributes(tag);
    let nil = attributes
        .optional::<bool>(r, XSI_NIL)
        .map(|v| v == Some(true));
    r.put_xsi_simple(xsi_types);
    nil
}

impl<T: Element, A: NilAttributes> Element for Nilled<T, A> {
    // The declaration's identity constraints are its type's (a nil element has no
    // content for their selectors to find).
    const IDENTITY: &'static [crate::identity::Constraint] = T::IDENTITY;
    const VISITED: bool = T::VISITED;

    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        let nil = xsi_nil(r, tag);
        r.allow_xsi_nil(tag);
        match nil {
            Ok(true) => {
                let fixed = r.nil_value_constraint(tag);
                let attributes = A::read_nil(r, tag);
                fixed?;
                attributes.map(Nilled::Nil)
            }
            Ok(false) => T::read_element(r, tag).map(Nilled::Value),
            // Whether it is nil is unknown: the element is judged as a value, to report
            // what else is wrong, and is not taken.
            Err(Invalid) => T::read_element(r, tag).and(Err(Invalid)),
        }
    }

    fn write_element(&self, w: &mut Writer, name: &str) {
        match self {
            Nilled::Nil(a) => a.write_nil(w, name),
            Nilled::Value(v) => v.write_element(w, name),
        }
    }

    fn visit(
        &self,
        observer: &mut dyn crate::xml::Observer,
        at: &crate::xml::At<'_>,
        found: &mut Vec<crate::diagnostic::Diagnostic>,
    ) {
        if let Nilled::Value(v) = self {
            v.visit(observer, at, found);
        }
    }
}

/// The attributes of a nil element of type `xs:anyType`: any attributes, in document
/// order, each of a distinct expanded name; `xsi:nil` itself is not one of them (it is
/// written with them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct AnyNil {
    attributes: Vec<AnyAttribute>,
}

impl AnyNil {
    /// No attributes.
    pub fn new() -> Self {
        AnyNil::default()
    }

    /// The attributes, in order.
    pub fn attributes(&self) -> &[AnyAttribute] {
        &self.attributes
    }

    /// Adds an attribute; its expanded name must be new on the element, and not
    /// `xsi:nil` (which the nil element has already).
    pub fn push_attribute(&mut self, attribute: AnyAttribute) -> Result<(), AnyError> {
        let name: &ExpandedName = attribute.name();
        if self.attributes.iter().any(|a| a.name() == name) || is_xsi_nil(name) {
            return Err(AnyError::Duplicate(name.to_string()));
        }
        self.attributes.push(attribute);
        Ok(())
    }
}

fn is_xsi_nil(name: &ExpandedName) -> bool {
    name.namespace() == Some(XSI_NAMESPACE) && name.local() == "nil"
}

impl NilAttributes for AnyNil {
    fn read_nil(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        r.take_xsi_nil_allowed(tag);
        // A nil element still has the type its xsi:type names (XSD 1.0, 3.3.4 cvc-elt.4):
        // a simple one allows no attribute but the xsi: ones (cvc-type.3.1.1), nil or not.
        let choice = r
            .take_xsi_simple()
            .map(|table| crate::type_substitution::choose_simple(r, tag, table));
        let typed_ok = match choice {
            Some(crate::type_substitution::SimpleChoice::Refused(d)) => {
                r.report(d);
                false
            }
            Some(crate::type_substitution::SimpleChoice::Named(name, _)) => {
                crate::any::no_attribute_but_xsi(r, tag, name)
            }
            _ => true,
        };
        let attributes = crate::any::read_attributes(r, tag)
            .into_iter()
            .filter(|a| !is_xsi_nil(a.name()))
            .collect();
        r.read_nil_content(tag)?;
        if !typed_ok {
            return Err(Invalid);
        }
        Ok(AnyNil { attributes })
    }

    fn write_nil(&self, w: &mut Writer, name: &str) {
        let mut attributes = self.attributes.clone();
        attributes.push(AnyAttribute::xsi_nil_true());
        // Written as an empty xs:anyType element: prefixes declared as its attributes need.
        AnyType::of_attributes(attributes).write_element(w, name);
    }
}
