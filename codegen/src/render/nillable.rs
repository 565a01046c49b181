//! The Rust type of a nillable element's value (XSD 1.0 Part 1, 3.3.4): a simple type's
//! value or nil (`boardxml::schema::Nillable`); a complex type's value or nil with the
//! attributes a nil element keeps, held by the type's attributes-only companion
//! (`boardxml::nillable::Nilled`, see `ir::Schema::nil_attributes`); an `xs:anyType`
//! element's tree or nil with any attributes (`boardxml::nillable::AnyNil`).

use super::*;

impl Renderer<'_> {
    /// The type of a nillable element of type `t`, whose value is held as `rt`.
    pub(super) fn nillable_type(&mut self, t: &TypeRef, rt: TokenStream) -> TokenStream {
        if *t == TypeRef::Builtin(Builtin::AnyType) {
            return quote! { ::boardxml::nillable::Nilled<#rt, ::boardxml::nillable::AnyNil> };
        }
        if self.is_simple(t) {
            return quote! { __s::Nillable<#rt> };
        }
        let companion = match t {
            TypeRef::Named(n) => self.schema.nil_attributes.get(n).cloned(),
            TypeRef::Builtin(_) => None,
        };
        match companion {
            Some(c) => {
                let a = self.rust_type(&TypeRef::Named(c));
                quote! { ::boardxml::nillable::Nilled<#rt, #a> }
            }
            // The conversion adds a companion for every such type: none is a bug, which
            // the generated code shows where it would be used.
            None => {
                let message =
                    format!("internal error: no attributes companion for the nillable type {t:?}");
                quote! { ::core::compile_error!(#message) }
            }
        }
    }

    /// The Rust type of a global element's value (a root, or a wildcard's admitted
    /// element), as a child of its declaration is held.
    pub(super) fn root_type(&mut self, r: &RootElement) -> TokenStream {
        let rt = self.rust_type(&r.type_ref);
        if r.nillable {
            self.nillable_type(&r.type_ref, rt)
        } else {
            rt
        }
    }
}
