//! Mixed content over a repeated choice of single elements: an enum of text, CDATA and the
//! allowed elements, in document order (any other particle: render/mixed_general.rs).

use super::*;

impl Renderer<'_> {
    /// Mixed content: an enum of text, CDATA and the allowed elements.
    pub(super) fn mixed(&mut self, def: &TypeDef, p: &Particle) -> TokenStream {
        let name = self.fresh_name(&format!("{}Content", type_ident_name(&def.name)));
        let ident = type_ident(&name);
        // The choice's branches: elements and element wildcards, each occurring at most
        // once (only what render/mixed_general.rs `fits_item_enum` admits comes here; other
        // particles are mixed content over element fields).
        let branches: Vec<&Term> = match &p.term {
            Term::Choice(items) | Term::Sequence(items) => items.iter().map(|i| &i.term).collect(),
            _ => Vec::new(),
        };
        let mut names = Vec::new();
        let mut variants = Vec::new();
        let mut types = Vec::new();
        let mut docs = Vec::new();
        // Each element is read with its declaration's value constraint, if it has one.
        let mut constraints: Vec<TokenStream> = Vec::new();
        let mut taken = HashSet::new();
        for t in &branches {
            match t {
                Term::Element(e) => {
                    let vc = match &e.value {
                        None => quote! {},
                        Some(ValueConstraint::Default(v)) => {
                            quote! { = ::boardxml::complex::ValueConstraint::Default(#v) }
                        }
                        Some(ValueConstraint::Fixed(v)) => {
                            quote! { = ::boardxml::complex::ValueConstraint::Fixed(#v) }
                        }
                    };
                    let xsi = self.xsi_suffix(e.xsi_simple.as_deref());
                    constraints.push(quote! { #vc #xsi });
                    names.push(e.xml_name());
                    variants.push(format_ident!("{}", distinct_variant(&mut taken, &e.name)));
                    types.push(self.element_type(e, false));
                    docs.push(format!("Element `{}`.", e.name));
                }
                // A wildcard's elements, by its pattern (render/any_element.rs).
                Term::Any(w) => {
                    constraints.push(quote! {});
                    names.push(w.pattern());
                    variants.push(format_ident!("{}", distinct_variant(&mut taken, "any")));
                    types.push(self.wildcard_element_type(w));
                    docs.push(format!(
                        "What the wildcard (`xs:any`) takes: {}.",
                        w.describe()
                    ));
                }
                _ => {}
            }
        }
        let idx: Vec<Literal> = (0..names.len()).map(Literal::usize_unsuffixed).collect();
        let min = Literal::usize_unsuffixed(p.min as usize);
        let max = match p.max {
            Some(m) => {
                let m = Literal::usize_unsuffixed(m as usize);
                quote! { ::core::option::Option::Some(#m) }
            }
            None => quote! { ::core::option::Option::None },
        };
        let doc = format!(
            "An item of the mixed content of `{}`, in document order.",
            def.name
        );
        self.groups.insert(
            name.clone(),
            quote! {
                #[doc = #doc]
                #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                pub enum #ident {
                    /// Character data.
                    Text(::std::string::String),
                    /// A CDATA section.
                    CData(::std::string::String),
                    #(#[doc = #docs] #variants(#types),)*
                }

                ::boardxml::mixed_content!(#ident, #min, #max, [#(#idx #variants #names #constraints),*]);
            },
        );
        quote! { #ident }
    }
}
