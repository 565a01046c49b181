//! Mixed content: an enum of text, CDATA and the allowed elements, in document order.

use super::*;

impl Renderer<'_> {
    /// Mixed content: an enum of text, CDATA and the allowed elements.
    pub(super) fn mixed(&mut self, def: &TypeDef, p: &Particle) -> TokenStream {
        let name = self.fresh_name(&format!("{}Content", type_ident_name(&def.name)));
        let ident = type_ident(&name);
        let elements: Vec<&ElementDecl> = match &p.term {
            Term::Choice(items) | Term::Sequence(items)
                if items.iter().all(|i| {
                    matches!(i.term, Term::Element(_)) && i.min <= 1 && i.max == Some(1)
                }) =>
            {
                if matches!(p.term, Term::Sequence(_)) && !items.is_empty() {
                    self.error(def, "mixed content is supported with a repeated xs:choice of elements (or no elements)", None);
                }
                items
                    .iter()
                    .filter_map(|i| {
                        if let Term::Element(e) = &i.term {
                            Some(e)
                        } else {
                            None
                        }
                    })
                    .collect()
            }
            _ => {
                self.error(def, "mixed content is supported with a repeated xs:choice of elements (or no elements)", None);
                Vec::new()
            }
        };
        // Each element is read with its declaration's value constraint, if it has one.
        let constraints: Vec<TokenStream> = elements
            .iter()
            .map(|e| match &e.value {
                None => quote! {},
                Some(ValueConstraint::Default(v)) => {
                    quote! { = ::boardxml::complex::ValueConstraint::Default(#v) }
                }
                Some(ValueConstraint::Fixed(v)) => {
                    quote! { = ::boardxml::complex::ValueConstraint::Fixed(#v) }
                }
            })
            .collect();
        let names: Vec<String> = elements.iter().map(|e| e.xml_name()).collect();
        let mut taken = HashSet::new();
        let variants: Vec<Ident> = elements
            .iter()
            .map(|e| format_ident!("{}", distinct_variant(&mut taken, &e.name)))
            .collect();
        let types: Vec<TokenStream> = elements
            .iter()
            .map(|e| self.element_type(e, false))
            .collect();
        let idx: Vec<Literal> = (0..elements.len()).map(Literal::usize_unsuffixed).collect();
        let docs: Vec<String> = elements
            .iter()
            .map(|e| format!("Element `{}`.", e.name))
            .collect();
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
