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
        let roots: Vec<&RootElement> = self.schema.roots.values().collect();
        let mut taken = HashSet::new();
        let variants: Vec<Ident> = roots
            .iter()
            .map(|r| format_ident!("{}", distinct_variant(&mut taken, &r.name)))
            .collect();
        let names: Vec<String> = roots.iter().map(|r| r.xml_name()).collect();
        // A complex type is boxed: it may hold xs:anyType content again.
        let types: Vec<TokenStream> = roots
            .iter()
            .map(|r| {
                let t = self.root_type(r);
                if self.is_simple(&r.type_ref) {
                    t
                } else {
                    quote! { ::std::boxed::Box<#t> }
                }
            })
            .collect();
        let docs: Vec<String> = names
            .iter()
            .map(|n| format!(" Element `{n}`, valid by its global declaration."))
            .collect();
        let other = format_ident!("{}", distinct_variant(&mut taken, "undeclared"));
        self.groups.insert(
            name,
            quote! {
                /// A child element of `xs:anyType` content, assessed laxly (XSD 1.0, 3.4.7
                /// and 3.10.1): by its global declaration where the schema has one.
                #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                pub enum #ident {
                    #(#[doc = #docs] #variants(#types),)*
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

                impl ::boardxml::schema::Element for #ident {
                    fn read_element(
                        r: &mut ::boardxml::xml::Reader<'_>,
                        tag: &::boardxml::xml::Tag,
                    ) -> ::core::result::Result<Self, ::boardxml::schema::Invalid> {
                        #(if tag.name() == #names {
                            return ::boardxml::schema::Element::read_element(r, tag).map(Self::#variants);
                        })*
                        ::boardxml::schema::Element::read_element(r, tag).map(Self::#other)
                    }
                    fn write_element(&self, w: &mut ::boardxml::xml::Writer, _name: &str) {
                        match *self {
                            #(Self::#variants(ref v) => ::boardxml::schema::Element::write_element(v, w, #names),)*
                            Self::#other(ref v) => ::boardxml::schema::Element::write_element(v, w, ""),
                        }
                    }
                }
            },
        );
    }
}
