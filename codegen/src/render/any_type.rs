//! The content of `xs:anyType` (XSD 1.0 Part 1, 3.4.7: mixed, a lax `##any` element
//! wildcard and a lax `##any` attribute wildcard), held as
//! `boardxml::any::lax::LaxContent` of one enum per schema: a variant per global element
//! declaration, read and validated by it, and one for an element the schema does not
//! declare, held as `boardxml::any::lax::LaxElement` of the same enum (so its children
//! are assessed laxly again). Every element of type `xs:anyType` shares it: generated code
//! does not grow with their number.

use super::*;

impl Renderer<'_> {
    /// Emits the schema's enum of `xs:anyType` content's children, named `name`.
    pub(super) fn any_type_child_type(&mut self, name: String) {
        let ident = self.any_type_child.0.clone();
        let globals = self.global_attributes_type();
        let all: Vec<&RootElement> = self.schema.roots.values().collect();
        let roots = self.root_variants(&all, "valid by its global declaration", "undeclared");
        let element = roots.element_impl(&ident, true, quote! {});
        let (declared, other) = (roots.declared(), &roots.other);
        self.groups.insert(
            name,
            quote! {
                /// A child element of `xs:anyType` content, assessed laxly (XSD 1.0, 3.4.7
                /// and 3.10.1): by its global declaration where the schema has one.
                #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                pub enum #ident {
                    #declared
                    /// An element the schema declares no global element for, its children
                    /// and attributes assessed laxly in turn.
                    #other(::boardxml::any::lax::LaxElement<#ident>),
                }

                impl ::boardxml::any::lax::LaxChild for #ident {
                    type Globals = #globals;
                    fn undeclared(&self) -> ::core::option::Option<&::boardxml::any::lax::LaxElement<Self>> {
                        match self {
                            Self::#other(e) => ::core::option::Option::Some(e),
                            #[allow(unreachable_patterns)]
                            _ => ::core::option::Option::None,
                        }
                    }
                }

                #element
            },
        );
    }
}
