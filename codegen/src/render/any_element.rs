//! Element wildcards (`xs:any`): the field or choice variant that holds what a wildcard
//! takes, and the type of one such element. processContents `skip` keeps the generic tree
//! (`boardxml::any::AnyElement`, lossless); `strict` the schema's one enum of its global
//! elements (an admitted element without a declaration is an error when read); `lax`
//! the child type of `xs:anyType` content (`render/any_type.rs`): that enum, or an
//! undeclared element whose attributes and children are assessed laxly in turn.
//! Tables name the wildcard by its pattern (`Wildcard::pattern`, read by
//! `boardxml::wildcards::name_matches`) where they name an element.

use super::*;
use complex::FieldPlan;

impl Renderer<'_> {
    /// The Rust type of one element the wildcard takes.
    pub(super) fn wildcard_element_type(&mut self, w: &Wildcard) -> TokenStream {
        match w.process {
            ProcessContents::Skip => quote! { ::boardxml::any::AnyElement },
            ProcessContents::Strict => {
                let g = self.global_elements();
                quote! { #g }
            }
            // Lax assessment of an element without a declaration validates it against the
            // ur-type (XSD 1.0, 3.3.4 Schema-Validity Assessment (Element) 2): its
            // attributes and children are assessed laxly in turn, as anyType content's are.
            ProcessContents::Lax => {
                self.any_type_child.1.set(true);
                let child = &self.any_type_child.0;
                quote! { #child }
            }
        }
    }

    /// The schema's one enum of its global elements, emitted the first time a wildcard
    /// needs it: every wildcard shares it, since the content model matches an element's
    /// name against the wildcard's namespaces before the enum reads it.
    pub(super) fn global_elements(&mut self) -> Ident {
        if let Some(ident) = &self.global_elements {
            return ident.clone();
        }
        let name = self.fresh_name("GlobalElement");
        let ident = type_ident(&name);
        self.global_elements = Some(ident.clone());
        let attributes = self.global_attributes_type();
        // Sorted by name, which the runtime finds by binary search.
        let mut all: Vec<&RootElement> = self.schema.roots.values().collect();
        all.sort_by_cached_key(|r| r.xml_name());
        let roots = self.root_variants(&all, "by its global declaration");
        let declared = roots.declared();
        let (names, variants) = (&roots.names, &roots.variants);
        let constraints = self.declaration_constraints(&all);
        self.groups.insert(
            name,
            quote! {
                /// An element of one of the schema's global declarations, read by it: what
                /// its wildcards take (a strict one this type, a lax one
                /// `boardxml::any::lax::AnyChild` of it).
                #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                pub enum #ident {
                    #declared
                }

                ::boardxml::global_elements!(#ident, #attributes, [#(#names #variants #constraints),*]);
            },
        );
        ident
    }

    /// What each global declaration of `roots` gives the element it reads, after its name
    /// and variant in `document!` and `global_elements!`: its `default=` or `fixed=` (`=
    /// CONSTRAINT`), and where its type is simple what its `xsi:type` may name (`; xsi
    /// &TABLE`). A wildcard's element is read by its global declaration as a root is.
    pub(super) fn declaration_constraints(&mut self, roots: &[&RootElement]) -> Vec<TokenStream> {
        roots
            .iter()
            .map(|r| {
                let vc = match &r.value {
                    None => quote! {},
                    Some(ValueConstraint::Default(v)) => {
                        quote! { = ::boardxml::complex::ValueConstraint::Default(#v) }
                    }
                    Some(ValueConstraint::Fixed(v)) => {
                        quote! { = ::boardxml::complex::ValueConstraint::Fixed(#v) }
                    }
                };
                let xsi = self.xsi_suffix(r.xsi_simple.as_deref());
                quote! { #vc #xsi }
            })
            .collect()
    }

    /// One variant per element of `roots` (global declarations), each documented as read
    /// `how`.
    pub(super) fn root_variants(&mut self, roots: &[&RootElement], how: &str) -> RootVariants {
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
        RootVariants {
            variants,
            names,
            types,
            docs,
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
/// element's type.
pub(super) struct RootVariants {
    pub(super) variants: Vec<Ident>,
    /// The elements' names in documents.
    pub(super) names: Vec<String>,
    pub(super) types: Vec<TokenStream>,
    pub(super) docs: Vec<String>,
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
}
