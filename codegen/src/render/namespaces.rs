//! The namespace declarations a schema's documents are written with: canonical and
//! deterministic, so that a document written and read again is the same document.
//!
//! A schema without a target namespace declares nothing (its names are in no namespace).
//! With one, `T`: when every element declaration is qualified, `T` is the root's default
//! namespace (`xmlns="T"`) and elements are written unprefixed; when some element is
//! unqualified (it needs the empty namespace), `T` gets the prefix `ns1`
//! (`xmlns:ns1="T"`) and qualified elements are written `ns1:local`. Qualified
//! attributes always take `ns1` (a default namespace does not apply to attributes). Every
//! declaration stands once, on the root. (One schema document has one target namespace:
//! imports are not supported, so `ns1` is the only prefix needed yet.)

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{Content, Particle, Schema, Term, TypeKind};

/// The prefix of the target namespace when it cannot be the default namespace.
const PREFIX: &str = "ns1";

/// The `namespaces [...]` argument of `document!`, or nothing.
pub(super) fn declarations(schema: &Schema) -> TokenStream {
    let Some(target) = schema.target_namespace.as_deref() else {
        return quote! {};
    };
    let (mut unqualified_element, mut qualified_attribute) = (false, false);
    for def in schema.types.values() {
        let TypeKind::Complex(c) = &def.kind else {
            continue;
        };
        qualified_attribute |= c.attributes.iter().any(|a| a.namespace.is_some());
        if let Content::Elements(p) | Content::Mixed(p) = &c.content {
            unqualified_element |= has_unqualified(p);
        }
    }
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    if !unqualified_element {
        pairs.push(("", target));
    }
    if unqualified_element || qualified_attribute {
        pairs.push((PREFIX, target));
    }
    let (prefixes, uris): (Vec<&str>, Vec<&str>) = pairs.into_iter().unzip();
    quote! { , namespaces [#(#prefixes #uris),*] }
}

/// Whether the particle declares an element in no namespace.
fn has_unqualified(p: &Particle) -> bool {
    match &p.term {
        Term::Element(e) => e.namespace.is_none(),
        Term::Sequence(items) | Term::Choice(items) | Term::All(items) => {
            items.iter().any(has_unqualified)
        }
    }
}
