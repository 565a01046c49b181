//! Element types chosen by `xsi:type` (XSD 1.0 type substitution): an enum with a variant
//! for the declared type without `xsi:type`, and one per type `xsi:type` may name (the
//! declared type named explicitly among them, so that a rewrite keeps the attribute).

use super::*;

impl Renderer<'_> {
    pub(super) fn type_substitution(&mut self, def: &TypeDef, s: &TypeSubstitution) -> TokenStream {
        let ident = self.tident(&def.name);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!(
                "An element's type, chosen by its xsi:type, as `{}`.",
                def.name
            ),
        );
        // The types xsi:type may name, in table order: the declared type first.
        let mut named: Vec<(String, TypeRef)> = Vec::new();
        if let (Some(n), false) = (&s.declared_name, s.declared_abstract) {
            named.push((n.clone(), s.declared.clone()));
        }
        named.extend(s.members.iter().cloned());
        let mut taken = HashSet::new();
        let mut fresh = |base: String| {
            let mut v = base.clone();
            let mut n = 2;
            while !taken.insert(v.clone()) {
                v = format!("{base}{n}");
                n += 1;
            }
            format_ident!("{}", v)
        };
        let declared_variant = (!s.declared_abstract).then(|| fresh("Declared".to_string()));
        let mut variants = Vec::new();
        let mut arms = Vec::new();
        let mut members = Vec::new();
        if let Some(v) = &declared_variant {
            let t = self.held_type(&s.declared);
            let vdoc = format!(
                "No xsi:type: the declared type `{}`.",
                type_label(&s.declared)
            );
            variants.push(quote! { #[doc = #vdoc] #v(#t), });
        }
        for (i, (name, t)) in named.iter().enumerate() {
            let base = match t {
                TypeRef::Named(n) => self.tident(n).to_string(),
                TypeRef::Builtin(b) => variant_name(b.xsd_name().trim_start_matches("xs:")),
            };
            let v = fresh(base);
            let rt = self.held_type(t);
            let vdoc = format!("xsi:type names `{name}`.");
            variants.push(quote! { #[doc = #vdoc] #v(#rt), });
            let index = Literal::usize_unsuffixed(i);
            arms.push(quote! { #index #v });
            members.push(name.clone());
        }
        let declared = match &s.declared_name {
            Some(n) => quote! { ::core::option::Option::Some(#n) },
            None => quote! { ::core::option::Option::None },
        };
        let abstract_ = s.declared_abstract;
        let refused = s.refused.iter().map(|(n, why)| quote! { (#n, #why) });
        let known = self.known_types(&s.known);
        let declared_arm = declared_variant.iter();
        let visit = self.visit_args(&ident);
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub enum #ident {
                #(#variants)*
            }

            impl #ident {
                /// What xsi:type may name on the element, computed from the schema.
                pub const SUBSTITUTION: ::boardxml::type_substitution::Table =
                    ::boardxml::type_substitution::Table {
                        declared: #declared,
                        declared_abstract: #abstract_,
                        members: &[#(#members),*],
                        refused: &[#(#refused),*],
                        known: #known,
                    };
            }

            ::boardxml::type_substitution!(#ident, [#(#declared_arm)*], [#(#arms),*] #visit);
        }
    }
}

impl Renderer<'_> {
    /// The constant holding what `xsi:type` may name on an element whose declared type is
    /// simple (rendered once per table, after the types).
    pub(super) fn xsi_table(&mut self, s: &SimpleSubstitution) -> Ident {
        if let Some(ident) = self.xsi_tables.get(s) {
            return ident.clone();
        }
        let local = s
            .declared_name
            .as_deref()
            .map_or("anonymous", |n| n.rsplit('}').next().unwrap_or(n));
        let base = format!(
            "XSI_TYPES_{}",
            sanitize_snake(local)
                .trim_start_matches("r#")
                .to_uppercase()
        );
        let mut name = base.clone();
        let mut n = 2;
        while self.xsi_tables.values().any(|i| *i == name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        let ident = format_ident!("{}", name);
        let declared = match &s.declared_name {
            Some(n) => quote! { ::core::option::Option::Some(#n) },
            None => quote! { ::core::option::Option::None },
        };
        let members: Vec<TokenStream> = s
            .members
            .iter()
            .map(|(n, t)| {
                let rt = self.rust_type(t);
                quote! { #n => #rt }
            })
            .collect();
        let refused = s.refused.iter().map(|(n, why)| quote! { (#n, #why) });
        let known = self.known_types(&s.known);
        let open = s.open;
        let doc = format!(
            "What xsi:type may name on an element declared with `{}` (XSD 1.0, 3.3.4 cvc-elt.4.3): the content is validated against the type named and held as the declared type.",
            type_label(&s.declared)
        );
        self.xsi_table_items.push(quote! {
            #[doc = #doc]
            #[doc(hidden)]
            pub const #ident: ::boardxml::type_substitution::SimpleTable =
                ::boardxml::type_substitution::SimpleTable {
                    declared: #declared,
                    members: ::boardxml::xsi_members![#(#members),*],
                    refused: &[#(#refused),*],
                    known: #known,
                    open: #open,
                };
        });
        self.xsi_tables.insert(s.clone(), ident.clone());
        ident
    }

    /// The constant listing the named types `known` (the schema's: the same list for every
    /// table), emitted once: UBL's 3,300 names in each of its dozen tables made 20,000 lines.
    fn known_types(&mut self, known: &[String]) -> TokenStream {
        if let Some(ident) = self.known_types.get(known) {
            return quote! { #ident };
        }
        let name = self.fresh_name("XSI_KNOWN_TYPES");
        let ident = format_ident!("{}", name);
        self.xsi_table_items.push(quote! {
            /// Every named type of the schema, by expanded name: what an `xsi:type` may name
            /// at all (XSD 1.0, 3.3.4 cvc-elt.4.1).
            #[doc(hidden)]
            pub const #ident: &[&str] = &[#(#known),*];
        });
        self.known_types.insert(known.to_vec(), ident.clone());
        quote! { #ident }
    }

    /// What a choice branch, a mixed item or a root adds for an element whose declared type
    /// is simple: `; xsi &TABLE` (nothing for the others).
    pub(super) fn xsi_suffix(&mut self, s: Option<&SimpleSubstitution>) -> TokenStream {
        match s {
            Some(s) => {
                let t = self.xsi_table(s);
                quote! { ; xsi &#t }
            }
            None => quote! {},
        }
    }
}
