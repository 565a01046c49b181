//! Mixed content: an enum of text, CDATA and the allowed elements, in document order.

use super::*;

impl Renderer<'_> {
    /// Mixed content: an enum of text, CDATA and the allowed elements.
    pub(super) fn mixed(
        &mut self,
        def: &TypeDef,
        p: &Particle,
    ) -> (TokenStream, TokenStream, TokenStream) {
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
        let names: Vec<&str> = elements.iter().map(|e| e.name.as_str()).collect();
        let variants: Vec<Ident> = elements
            .iter()
            .map(|e| format_ident!("{}", variant_name(&e.name)))
            .collect();
        let types: Vec<TokenStream> = elements
            .iter()
            .map(|e| self.rust_type(&e.type_ref))
            .collect();
        let idx: Vec<Literal> = (0..elements.len()).map(Literal::usize_unsuffixed).collect();
        let docs: Vec<String> = elements
            .iter()
            .map(|e| format!("Element `{}`.", e.name))
            .collect();
        let expected = if names.is_empty() {
            "text only".to_string()
        } else {
            format!(
                "text or one of {}",
                names
                    .iter()
                    .map(|n| format!("<{n}>"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let min = Literal::usize_unsuffixed(p.min as usize);
        let label = format!(
            "at least {} of {}",
            p.min,
            names
                .iter()
                .map(|n| format!("<{n}>"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let max_check = p
            .max
            .map(|m| {
                let m = Literal::usize_unsuffixed(m as usize);
                quote! { __count <= #m }
            })
            .unwrap_or_else(|| quote! { true });
        let min_check = (p.min > 0).then(|| {
            quote! {
                if __count < #min {
                    r.missing_child(#label);
                    __mixed_ok = false;
                }
            }
        });
        let count_use = quote! { let _ = __count; };
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
            },
        );
        let read = quote! {
            let mut __mixed = ::std::vec::Vec::new();
            let mut __mixed_ok = true;
            let mut __count = 0usize;
            while let ::core::option::Option::Some(item) = r.next_mixed() {
                match item {
                    ::boardxml::xml::MixedItem::Text(t) => if r.retains() { __mixed.push(#ident::Text(t)) },
                    ::boardxml::xml::MixedItem::CData(t) => if r.retains() { __mixed.push(#ident::CData(t)) },
                    ::boardxml::xml::MixedItem::Child => {
                        __count += 1;
                        match r.peek_index(&[#(#names),*]) {
                            #(::core::option::Option::Some(#idx) if #max_check => match r.read_child::<#types>() {
                                ::core::result::Result::Ok(v) => if r.retains() { __mixed.push(#ident::#variants(v)) },
                                ::core::result::Result::Err(_) => __mixed_ok = false,
                            },)*
                            _ => {
                                r.skip_child(#expected);
                                __mixed_ok = false;
                            }
                        }
                    }
                }
            }
            #min_check
            #count_use
            let __mixed = if __mixed_ok { ::core::result::Result::Ok(__mixed) } else { ::core::result::Result::Err(::boardxml::schema::Invalid) };
        };
        let write = quote! {
            match item {
                #ident::Text(t) => w.text(t),
                #ident::CData(t) => w.cdata(t),
                #(#ident::#variants(v) => ::boardxml::schema::Element::write_element(v, w, #names),)*
            }
        };
        (quote! { #ident }, read, write)
    }
}
