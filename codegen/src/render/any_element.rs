//! Element wildcards (`xs:any`): the field or choice variant that holds what a wildcard
//! takes, and the type of one such element. processContents `skip` keeps the generic tree
//! (`boardxml::any::AnyElement`, lossless); `strict` an enum of the schema's global
//! elements the wildcard admits (an admitted element without a declaration is an error
//! when read); `lax` that enum with a variant holding the generic tree for the rest.
//! Tables name the wildcard by its pattern (`Wildcard::pattern`, read by
//! `boardxml::wildcards::name_matches`) where they name an element.

use super::*;
use complex::FieldPlan;

impl Renderer<'_> {
    /// The Rust type of one element the wildcard takes.
    pub(super) fn wildcard_element_type(&mut self, w: &Wildcard) -> TokenStream {
        if w.process == ProcessContents::Skip {
            return quote! { ::boardxml::any::AnyElement };
        }
        // One type per distinct wildcard: (process, namespaces) decide it all.
        let key = format!("{:?} {}", w.process, w.pattern());
        if let Some(i) = self.element_wildcards.get(&key) {
            return quote! { #i };
        }
        let lax = w.process == ProcessContents::Lax;
        let name = self.fresh_name(if lax {
            "LaxWildcardElement"
        } else {
            "WildcardElement"
        });
        let ident = type_ident(&name);
        self.element_wildcards.insert(key, ident.clone());
        let admitted: Vec<&RootElement> = self
            .schema
            .roots
            .values()
            .filter(|r| w.allows(r.namespace.as_deref()))
            .collect();
        let roots = self.root_variants(&admitted, "by its global declaration", "other");
        let (declared, other) = (roots.declared(), &roots.other);
        let other_variant = if lax {
            quote! {
                /// An element the schema declares no global element for, kept whole.
                #other(::boardxml::any::AnyElement),
            }
        } else {
            quote! {}
        };
        // `w` is unused by an enum without variants (a strict wildcard admitting no
        // declared element), which `match *self {}` covers.
        let element = roots.element_impl(&ident, lax, quote! { #[allow(unused_variables)] });
        let doc = format!(
            " An element a wildcard (`xs:any`, processContents=\"{}\") takes: {}.",
            if lax { "lax" } else { "strict" },
            w.describe()
        );
        self.groups.insert(
            name,
            quote! {
                #[doc = #doc]
                #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                pub enum #ident {
                    #declared
                    #other_variant
                }

                #element
            },
        );
        quote! { #ident }
    }

    /// One variant per element of `roots` (global declarations), each documented as read
    /// `how`, and the name of the variant for the other elements (`other`, unless an
    /// element has it).
    pub(super) fn root_variants(
        &mut self,
        roots: &[&RootElement],
        how: &str,
        other: &str,
    ) -> RootVariants {
        let mut taken = HashSet::new();
        let variants: Vec<Ident> = roots
            .iter()
            .map(|r| format_ident!("{}", distinct_variant(&mut taken, &r.name)))
            .collect();
        let names: Vec<String> = roots.iter().map(|r| r.xml_name()).collect();
        // A complex type is boxed: it may hold the enum again (a simple one cannot).
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
            .map(|n| format!(" Element `{n}`, {how}."))
            .collect();
        let other = format_ident!("{}", distinct_variant(&mut taken, other));
        RootVariants {
            variants,
            names,
            types,
            docs,
            other,
        }
    }

    /// The plan of a wildcard field of a sequence, occurring `min..=max` times.
    pub(super) fn wildcard_plan(
        &mut self,
        w: &Wildcard,
        min: u32,
        max: Option<u32>,
        required: bool,
        names: &mut FieldNames,
    ) -> FieldPlan {
        let rt = self.wildcard_element_type(w);
        let pattern = w.pattern();
        let field = names.take("any");
        let text = format!(
            " The elements the wildcard (`xs:any`) takes: {}, processContents \"{}\".",
            w.describe(),
            match w.process {
                ProcessContents::Strict => "strict",
                ProcessContents::Lax => "lax",
                ProcessContents::Skip => "skip",
            }
        );
        let (min_lit, max_lit) = (Literal::u32_unsuffixed(min), complex::max_tokens(max));
        let (ty, kind) = if !matches!(max, Some(1)) {
            (quote! { ::std::vec::Vec<#rt> }, quote! { Children(#rt) })
        } else if required {
            (rt.clone(), quote! { Child(#rt) })
        } else {
            (
                quote! { ::core::option::Option<#rt> },
                quote! { OptChild(#rt) },
            )
        };
        FieldPlan {
            field: Some(field),
            doc: quote! { #[doc = #text] },
            ty,
            required,
            table: quote! { element(#pattern, #min_lit, #max_lit) },
            kind,
        }
    }
}

/// The variants of an enum of global elements: one per element, each holding the
/// element's type, and the variant for the other elements.
pub(super) struct RootVariants {
    pub(super) variants: Vec<Ident>,
    /// The elements' names in documents.
    pub(super) names: Vec<String>,
    pub(super) types: Vec<TokenStream>,
    pub(super) docs: Vec<String>,
    pub(super) other: Ident,
}

impl RootVariants {
    /// The variants of the elements, each documented.
    pub(super) fn declared(&self) -> TokenStream {
        let RootVariants {
            variants,
            types,
            docs,
            ..
        } = self;
        quote! { #(#[doc = #docs] #variants(#types),)* }
    }

    /// `Element` for the enum `ident`: an element of one of the names is read and written
    /// by its variant; another is held by the `other` variant if `other_held` (read and
    /// written by its own type), else refused as undeclared. `write_attributes` go on
    /// `write_element`.
    pub(super) fn element_impl(
        &self,
        ident: &Ident,
        other_held: bool,
        write_attributes: TokenStream,
    ) -> TokenStream {
        let RootVariants {
            variants,
            names,
            other,
            ..
        } = self;
        let (fallback, other_write) = if other_held {
            (
                quote! { ::boardxml::wildcards::lax_undeclared(r, tag).map(Self::#other) },
                quote! { Self::#other(ref v) => ::boardxml::schema::Element::write_element(v, w, ""), },
            )
        } else {
            (
                quote! { ::core::result::Result::Err(::boardxml::wildcards::undeclared(r, tag, &[#(#names),*])) },
                quote! {},
            )
        };
        quote! {
            impl ::boardxml::schema::Element for #ident {
                fn read_element(
                    r: &mut ::boardxml::xml::Reader<'_>,
                    tag: &::boardxml::xml::Tag,
                ) -> ::core::result::Result<Self, ::boardxml::schema::Invalid> {
                    #(if tag.name() == #names {
                        return ::boardxml::schema::Element::read_element(r, tag).map(Self::#variants);
                    })*
                    #fallback
                }
                #write_attributes
                fn write_element(&self, w: &mut ::boardxml::xml::Writer, _name: &str) {
                    match *self {
                        #(Self::#variants(ref v) => ::boardxml::schema::Element::write_element(v, w, #names),)*
                        #other_write
                    }
                }
            }
        }
    }
}
