//! The identity constraints of an element declaration (`boardxml::identity`): a static
//! table on the `Element` impl of the type the declaration reads with.

use super::*;
use crate::ir::{IdentityKind, IdentityPath, NameTest};

fn name_test(t: &NameTest) -> TokenStream {
    match t {
        NameTest::Any => quote! { __i::Test::Any },
        NameTest::Namespace(ns) => quote! { __i::Test::Namespace(#ns) },
        NameTest::Name(n) => quote! { __i::Test::Name(#n) },
    }
}

fn path(p: &IdentityPath) -> TokenStream {
    let descendant = p.descendant;
    let steps = p.steps.iter().map(name_test);
    let attribute = match &p.attribute {
        Some(t) => {
            let t = name_test(t);
            quote! { ::core::option::Option::Some(#t) }
        }
        None => quote! { ::core::option::Option::None },
    };
    quote! { __i::Path { descendant: #descendant, steps: &[#(#steps),*], attribute: #attribute } }
}

impl Renderer<'_> {
    /// `, identity = &[...]` for `complex_element!` when the type is an element
    /// declaration's with identity constraints; nothing otherwise.
    pub(super) fn identity_args(&self, type_name: &str) -> TokenStream {
        let Some(table) = self.schema.identity.get(type_name) else {
            return TokenStream::new();
        };
        let constraints = table.constraints.iter().map(|c| {
            let name = &c.name;
            let kind = match &c.kind {
                IdentityKind::Unique => quote! { __i::Kind::Unique },
                IdentityKind::Key => quote! { __i::Kind::Key },
                IdentityKind::KeyRef(r) => quote! { __i::Kind::KeyRef(#r) },
            };
            let selector = c.selector.iter().map(path);
            let fields = c.fields.iter().map(|(_, alternatives)| {
                let a = alternatives.iter().map(path);
                quote! { &[#(#a),*] }
            });
            let written = c.fields.iter().map(|(w, _)| w);
            quote! {
                __i::Constraint {
                    name: #name,
                    kind: #kind,
                    selector: &[#(#selector),*],
                    fields: &[#(#fields),*],
                    written: &[#(#written),*],
                }
            }
        });
        quote! { , identity = { use ::boardxml::identity as __i; &[#(#constraints),*] } }
    }
}
