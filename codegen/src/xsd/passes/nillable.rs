//! Nillable elements of complex types (XSD 1.0 Part 1, 3.3.4, Element Locally Valid
//! (Element) 3): a nil element has no content but keeps its attributes, which its type
//! still judges. Each complex type some nillable element has gets an attributes-only
//! companion type (the same attributes and attribute wildcard, empty content), which holds
//! what a nil element keeps and is read and written by the same tables as any complex
//! type ([`crate::ir::Schema::nil_attributes`]). A nillable `xs:anyType` element needs
//! none (the runtime's `AnyNil`), nor does a simple-typed one (it has no attributes).

use std::collections::BTreeSet;

use super::Converter;
use crate::ir::{ComplexType, Content, Particle, Schema, Term, TypeDef, TypeKind, TypeRef};

/// Why a nillable element of type `t` cannot be generated, if it cannot.
pub(super) fn unsupported(schema: &Schema, t: &TypeRef) -> Option<String> {
    let TypeRef::Named(n) = t else { return None };
    match schema.types.get(n).map(|d| &d.kind) {
        Some(TypeKind::Alternatives(_)) => Some(
            "nillable=\"true\" on an element whose type xs:alternative chooses is not supported yet"
                .to_string(),
        ),
        _ => None,
    }
}

/// Adds the attributes-only companion of every complex type a nillable element (a local
/// one, a reference, a substitution group's member or a root) has, once the types are
/// final (derivations resolved, named types copied for identity constraints).
pub(super) fn add_companions(cx: &mut Converter<'_>) {
    let mut wanted = BTreeSet::new();
    for def in cx.schema.types.values() {
        if let TypeKind::Complex(c) = &def.kind {
            if let Content::Elements(p) | Content::Mixed(p) = &c.content {
                nillable_types(p, &mut wanted);
            }
        }
    }
    for root in cx.schema.roots.values() {
        if let (true, TypeRef::Named(n)) = (root.nillable, &root.type_ref) {
            wanted.insert(n.clone());
        }
    }
    for name in wanted {
        let Some(def) = cx.schema.types.get(&name) else {
            continue;
        };
        let TypeKind::Complex(c) = &def.kind else {
            continue;
        };
        let kind = TypeKind::Complex(ComplexType {
            attributes: c.attributes.clone(),
            any_attribute: c.any_attribute.clone(),
            content: Content::Empty,
            // A nil element is still asserted on (with no content, and `$value` empty).
            assertions: c.assertions.clone(),
        });
        let doc = Some(format!(
            "The attributes of a nil element (xsi:nil=\"true\") of type {name}: it keeps them, and has no content."
        ));
        let span = def.span;
        let companion = cx.synthesise(&format!("{name}Nil"));
        cx.insert(Some(TypeDef {
            name: companion.clone(),
            doc,
            span,
            kind,
        }));
        cx.schema.nil_attributes.insert(name, companion);
    }
}

/// The named types of the nillable elements of `p`, into `out`.
fn nillable_types(p: &Particle, out: &mut BTreeSet<String>) {
    match &p.term {
        Term::Element(e) => {
            if let (true, TypeRef::Named(n)) = (e.nillable, &e.type_ref) {
                out.insert(n.clone());
            }
        }
        Term::Any(_) => {}
        Term::Sequence(v) | Term::Choice(v) | Term::All(v) => {
            for q in v {
                nillable_types(q, out);
            }
        }
    }
}
