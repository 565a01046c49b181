//! The namespace declarations a schema's documents are written with: canonical and
//! deterministic, so that a document written and read again is the same document.
//!
//! A schema without a target namespace declares nothing (its names are in no namespace).
//! With one, `T`: when every element declaration is qualified, `T` is the root's default
//! namespace (`xmlns="T"`) and elements are written unprefixed; when some element is
//! unqualified (it needs the empty namespace), `T` gets the prefix `ns1`
//! (`xmlns:ns1="T"`) and qualified elements are written `ns1:local`. Qualified
//! attributes always take `ns1` (a default namespace does not apply to attributes). Every
//! other namespace the schema's names use (imported documents' components) gets a prefix
//! of its own, `ns2`, `ns3`, ... in namespace order. Every declaration stands once, on the
//! root.

use proc_macro2::TokenStream;
use quote::quote;

use std::collections::BTreeSet;

use crate::ir::{Content, Particle, Schema, Term, TypeKind};

/// The prefix of the target namespace when it cannot be the default namespace.
const PREFIX: &str = "ns1";

/// The namespace of the `xsi:` attributes.
const XSI_NAMESPACE: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// The `namespaces [...]` argument of `document!`, or nothing.
pub(super) fn declarations(schema: &Schema) -> TokenStream {
    let target = schema.target_namespace.as_deref();
    let (mut unqualified_element, mut qualified_attribute) = (false, false);
    // Every namespace a name of the schema is in.
    let mut used: BTreeSet<&str> = schema
        .roots
        .values()
        .filter_map(|r| r.namespace.as_deref())
        .collect();
    unqualified_element |= schema.roots.values().any(|r| r.namespace.is_none());
    for def in schema.types.values() {
        let TypeKind::Complex(c) = &def.kind else {
            continue;
        };
        qualified_attribute |= c
            .attributes
            .iter()
            .any(|a| a.namespace.is_some() && a.namespace.as_deref() == target);
        used.extend(c.attributes.iter().filter_map(|a| a.namespace.as_deref()));
        if let Content::Elements(p) | Content::Mixed(p) = &c.content {
            unqualified_element |= has_unqualified(p);
            namespaces_of(p, &mut used);
        }
    }
    let mut pairs: Vec<(String, &str)> = Vec::new();
    if let Some(target) = target {
        if !unqualified_element {
            pairs.push((String::new(), target));
        }
        if unqualified_element || qualified_attribute {
            pairs.push((PREFIX.to_string(), target));
        }
    }
    // The xsi: attributes an XSD 1.1 attribute use names are written with the `xsi`
    // prefix, declared by the writer where they stand (as it does `xsi:nil`).
    for (n, ns) in used
        .into_iter()
        .filter(|ns| Some(*ns) != target && *ns != XSI_NAMESPACE)
        .enumerate()
    {
        pairs.push((format!("ns{}", n + 2), ns));
    }
    if pairs.is_empty() {
        return quote! {};
    }
    let (prefixes, uris): (Vec<String>, Vec<&str>) = pairs.into_iter().unzip();
    quote! { , namespaces [#(#prefixes #uris),*] }
}

/// Adds the namespaces of the particle's elements to `used`.
fn namespaces_of<'s>(p: &'s Particle, used: &mut BTreeSet<&'s str>) {
    match &p.term {
        Term::Element(e) => used.extend(e.namespace.as_deref()),
        // What a wildcard holds declares its own namespaces when written.
        Term::Any(_) => {}
        Term::Sequence(items) | Term::Choice(items) | Term::All(items) => {
            for i in items {
                namespaces_of(i, used);
            }
        }
    }
}

/// Whether the particle declares an element in no namespace.
fn has_unqualified(p: &Particle) -> bool {
    match &p.term {
        Term::Element(e) => e.namespace.is_none(),
        Term::Any(_) => false,
        Term::Sequence(items) | Term::Choice(items) | Term::All(items) => {
            items.iter().any(has_unqualified)
        }
    }
}
