//! Simple types: restrictions (a newtype and its facets as data), enumerations, unions
//! and lists.

use super::*;

impl Renderer<'_> {
    /// A type bound to an existing Rust type: only its facets, as data, for that type to
    /// check (`facets::Restricted`); the type itself reads and writes the values.
    pub(super) fn extern_type(
        &mut self,
        def: &TypeDef,
        path: TokenStream,
        marker: Option<Ident>,
    ) -> TokenStream {
        let TypeKind::Restriction(r) = &def.kind else {
            self.error(
                def,
                "only a restriction of a built-in simple type can be bound to a Rust type",
                None,
            );
            return TokenStream::new();
        };
        let Some(base) = self.simple_base(&r.base) else {
            self.error(
                def,
                "the base of a bound type must be a restriction of a built-in type",
                None,
            );
            return TokenStream::new();
        };
        let facets = self.facets_table(r, r.facets.white_space.unwrap_or(base.white_space));
        // The path as written (tokens print with spaces between them).
        let shown: String = path.to_string().split_whitespace().collect();
        let doc = format!(
            " The facets of schema type `{}`, which `{shown}` is bound to.",
            def.name
        );
        let (marker_decl, target) = match marker {
            Some(m) => {
                let mdoc = doc_attrs(def.doc.as_deref(), &format!("Schema type `{}`.", def.name));
                (
                    quote! {
                        #mdoc
                        #[doc = ""]
                        #[doc = #doc]
                        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
                        pub struct #m;
                    },
                    quote! { #m },
                )
            }
            None => (quote! {}, path),
        };
        quote! {
            #marker_decl

            #[doc = #doc]
            impl ::boardxml::facets::Restricted for #target {
                fn facets() -> &'static ::boardxml::facets::Facets {
                    #facets
                }
            }
        }
    }

    pub(super) fn restriction(&mut self, def: &TypeDef, r: &Restriction) -> TokenStream {
        let ident = type_ident(&def.name);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!(
                "Restriction of {} (schema type `{}`).",
                type_label(&r.base),
                def.name
            ),
        );
        let Some(base) = self.simple_base(&r.base) else {
            self.error(def, format!("the base {} is not a restriction of a built-in type; restricting an enumeration, union or list is not supported", type_label(&r.base)), None);
            return TokenStream::new();
        };
        if base.builtin == Builtin::AnyType {
            self.error(def, "restricting xs:anyType is not supported", None);
            return TokenStream::new();
        }
        let repr = base.builtin.repr();
        let f = &r.facets;
        // Facets that make no sense for the representation are generation-time errors.
        if matches!(repr, Repr::Int(_) | Repr::Bool)
            && (f.length.is_some() || f.min_length.is_some() || f.max_length.is_some())
        {
            self.error(
                def,
                "length facets on a numeric or boolean type are not supported",
                None,
            );
        }
        if matches!(repr, Repr::String | Repr::Bool)
            && (f.min.is_some() || f.max.is_some() || f.total_digits.is_some())
        {
            self.error(
                def,
                "range facets need a numeric base type",
                Some("restrict an integer type such as xs:integer"),
            );
        }
        let facets = self.facets_table(r, f.white_space.unwrap_or(base.white_space));
        match repr {
            Repr::String => quote! {
                #doc
                #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                // Kept inline up to 24 bytes (a square, a move, a colour): reading a value
                // allocates nothing.
                pub struct #ident(::boardxml::__private::CompactString);

                impl ::boardxml::facets::Restricted for #ident {
                    fn facets() -> &'static ::boardxml::facets::Facets {
                        #facets
                    }
                }

                ::boardxml::string_type!(#ident);
            },
            Repr::Int(int) => {
                let rt = format_ident!("{}", int.rust_name());
                let xsd = base.builtin.xsd_name();
                quote! {
                    #doc
                    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
                    pub struct #ident(#rt);

                    impl ::boardxml::facets::Restricted for #ident {
                        fn facets() -> &'static ::boardxml::facets::Facets {
                            #facets
                        }
                    }

                    ::boardxml::integer_type!(#ident, #rt, #xsd);
                }
            }
            Repr::Bool => {
                self.error(def, "restricting xs:boolean is not supported", None);
                TokenStream::new()
            }
        }
    }

    /// The derivation steps of a restriction, base first: the bounds a built-in base
    /// implies, then each named base's own facets, then this step's.
    pub(super) fn steps<'a>(
        &'a self,
        r: &'a Restriction,
        out: &mut Vec<&'a Facets>,
        implied: &mut Option<Facets>,
    ) {
        match &r.base {
            TypeRef::Builtin(b) => {
                let (min, max) = b.implied_bounds();
                if min.is_some() || max.is_some() {
                    *implied = Some(Facets {
                        min,
                        max,
                        ..Facets::default()
                    });
                }
            }
            TypeRef::Named(n) => {
                if let Some(TypeKind::Restriction(base)) = self.schema.types.get(n).map(|d| &d.kind)
                {
                    self.steps(base, out, implied);
                }
            }
        }
        out.push(&r.facets);
    }

    /// The body of `Restricted::facets`: statics holding every step's facets as data.
    pub(super) fn facets_table(&self, r: &Restriction, white_space: WhiteSpace) -> TokenStream {
        let mut own = Vec::new();
        let mut implied = None;
        self.steps(r, &mut own, &mut implied);
        let steps: Vec<&Facets> = implied.iter().chain(own).collect();
        let mut statics = Vec::new();
        let mut entries = Vec::new();
        for (i, f) in steps.iter().enumerate() {
            let mut fields = Vec::new();
            if !f.patterns.is_empty() {
                let name = format_ident!("PATTERNS_{}", i);
                let n = Literal::usize_unsuffixed(f.patterns.len());
                let rust = f.patterns.iter().map(|p| p.rust.as_str());
                let xsd = f.patterns.iter().map(|p| p.xsd.as_str());
                statics.push(quote! {
                    static #name: [::boardxml::facets::PatternFacet; #n] = [#(::boardxml::facets::PatternFacet::new(#rust)),*];
                });
                fields.push(quote! { patterns: &#name, pattern_sources: &[#(#xsd),*], });
            }
            let opt_i128 = |v: Option<i128>| {
                v.map(|v| {
                    let l = Literal::i128_unsuffixed(v);
                    quote! { ::core::option::Option::Some(#l) }
                })
            };
            let opt_u64 = |v: Option<u64>| {
                v.map(|v| {
                    let l = Literal::u64_unsuffixed(v);
                    quote! { ::core::option::Option::Some(#l) }
                })
            };
            if let Some(v) = opt_i128(f.min) {
                fields.push(quote! { min: #v, });
            }
            if let Some(v) = opt_i128(f.max) {
                fields.push(quote! { max: #v, });
            }
            if let Some(d) = f.total_digits {
                let l = Literal::u32_unsuffixed(d);
                fields.push(quote! { total_digits: ::core::option::Option::Some(#l), });
            }
            if let Some(v) = opt_u64(f.length) {
                fields.push(quote! { length: #v, });
            }
            if let Some(v) = opt_u64(f.min_length) {
                fields.push(quote! { min_length: #v, });
            }
            if let Some(v) = opt_u64(f.max_length) {
                fields.push(quote! { max_length: #v, });
            }
            if !fields.is_empty() {
                entries.push(quote! { ::boardxml::facets::Step { #(#fields)* ..::boardxml::facets::Step::NONE } });
            }
        }
        let ws = match white_space {
            WhiteSpace::Preserve => quote! { Preserve },
            WhiteSpace::Replace => quote! { Replace },
            WhiteSpace::Collapse => quote! { Collapse },
        };
        quote! {
            #(#statics)*
            static FACETS: ::boardxml::facets::Facets = ::boardxml::facets::Facets {
                white_space: ::boardxml::facets::WhiteSpace::#ws,
                steps: &[#(#entries),*],
            };
            &FACETS
        }
    }

    pub(super) fn enumeration(&mut self, def: &TypeDef, e: &Enumeration) -> TokenStream {
        let ident = type_ident(&def.name);
        let common = simple_common(&ident);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!("Enumeration (schema type `{}`).", def.name),
        );
        let Some(base) = self.simple_base(&e.base) else {
            self.error(
                def,
                format!(
                    "the base {} of an enumeration must be a restriction of a built-in type",
                    type_label(&e.base)
                ),
                None,
            );
            return TokenStream::new();
        };
        let mut names = HashSet::new();
        let variants: Vec<Ident> = e
            .values
            .iter()
            .map(|v| {
                let mut name = variant_name(&v.value);
                let base = name.clone();
                let mut n = 2;
                while !names.insert(name.clone()) {
                    name = format!("{base}{n}");
                    n += 1;
                }
                format_ident!("{}", name)
            })
            .collect();
        let values: Vec<&str> = e.values.iter().map(|v| v.value.as_str()).collect();
        let docs: Vec<TokenStream> = e
            .values
            .iter()
            .map(|v| doc_attrs(v.doc.as_deref(), &format!("`{}`", v.value)))
            .collect();
        let white_space = ws_fn(base.white_space);
        let parse = match base.builtin.repr() {
            Repr::Int(int) => {
                let parsed: Vec<i128> = values
                    .iter()
                    .map(|v| v.trim().parse::<i128>().unwrap_or(i128::MIN))
                    .collect();
                if parsed.contains(&i128::MIN) {
                    self.error(
                        def,
                        "an enumerated value is not an integer of the base type",
                        None,
                    );
                }
                let lits: Vec<Literal> = parsed
                    .iter()
                    .map(|v| Literal::i128_unsuffixed(*v))
                    .collect();
                let rt = format_ident!("{}", int.rust_name());
                let xsd = base.builtin.xsd_name();
                quote! {
                    let value = ::boardxml::schema::parse_integer(text, #rt::MIN as i128, #rt::MAX as i128, #xsd)
                        .map_err(|_| ::boardxml::schema::FacetError::Enumeration { allowed: Self::VALUES })?;
                    match value {
                        #(#lits => ::core::result::Result::Ok(Self::#variants),)*
                        _ => ::core::result::Result::Err(::boardxml::schema::FacetError::Enumeration { allowed: Self::VALUES }),
                    }
                }
            }
            _ => quote! {
                match &*#white_space(text) {
                    #(#values => ::core::result::Result::Ok(Self::#variants),)*
                    _ => ::core::result::Result::Err(::boardxml::schema::FacetError::Enumeration { allowed: Self::VALUES }),
                }
            },
        };
        quote! {
            #doc
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #ident {
                #(#docs #variants,)*
            }

            impl #ident {
                /// Every value, in schema order.
                pub const ALL: &'static [Self] = &[#(Self::#variants),*];
                /// Every value's lexical form, in schema order.
                pub const VALUES: &'static [&'static str] = &[#(#values),*];
                /// The lexical form.
                pub fn as_str(self) -> &'static str {
                    match self {
                        #(Self::#variants => #values,)*
                    }
                }
            }

            impl ::boardxml::schema::SimpleValue for #ident {
                fn parse_lexical(text: &str) -> ::core::result::Result<Self, ::boardxml::schema::FacetError> {
                    #parse
                }
                fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                    ::std::borrow::Cow::Borrowed(self.as_str())
                }
            }

            #common
        }
    }

    pub(super) fn union(&mut self, def: &TypeDef, members: &[TypeRef]) -> TokenStream {
        let ident = type_ident(&def.name);
        let common = simple_common(&ident);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!(
                "Union (schema type `{}`): the first member type that accepts a value takes it.",
                def.name
            ),
        );
        let mut seen = HashSet::new();
        let mut variants = Vec::new();
        let mut types = Vec::new();
        for m in members {
            let name = match m {
                TypeRef::Builtin(b) => variant_name(b.xsd_name().trim_start_matches("xs:")),
                TypeRef::Named(n) => type_ident_name(n),
            };
            if !seen.insert(name.clone()) {
                self.error(
                    def,
                    format!("member type {} appears twice", type_label(m)),
                    None,
                );
                continue;
            }
            variants.push(format_ident!("{}", name));
            types.push(self.rust_type(m));
        }
        let labels: Vec<String> = members.iter().map(|m| type_label(m).to_string()).collect();
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub enum #ident {
                #(
                    #[doc = concat!("A value of the member type ", stringify!(#variants), ".")]
                    #variants(#types),
                )*
            }

            impl ::boardxml::schema::SimpleValue for #ident {
                fn parse_lexical(text: &str) -> ::core::result::Result<Self, ::boardxml::schema::FacetError> {
                    #(
                        if let ::core::result::Result::Ok(v) = <#types as ::boardxml::schema::SimpleValue>::parse_lexical(text) {
                            return ::core::result::Result::Ok(Self::#variants(v));
                        }
                    )*
                    ::core::result::Result::Err(::boardxml::schema::FacetError::Union { members: &[#(#labels),*] })
                }
                fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                    match self {
                        #(Self::#variants(v) => ::boardxml::schema::SimpleValue::to_lexical(v),)*
                    }
                }
            }

            #common
        }
    }

    pub(super) fn list(&mut self, def: &TypeDef, l: &ListType) -> TokenStream {
        let ident = type_ident(&def.name);
        let common = simple_common(&ident);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!(
                "List of {} separated by white space (schema type `{}`).",
                type_label(&l.item),
                def.name
            ),
        );
        let item = self.rust_type(&l.item);
        let checks = length_checks(&l.facets, quote! { items.len() as u64 });
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub struct #ident(::std::vec::Vec<#item>);

            impl #ident {
                /// Validates the number of items.
                pub fn new(items: ::std::vec::Vec<#item>) -> ::core::result::Result<Self, ::boardxml::schema::FacetError> {
                    #checks
                    ::core::result::Result::Ok(Self(items))
                }
                /// The items.
                pub fn items(&self) -> &[#item] {
                    &self.0
                }
            }

            impl ::boardxml::schema::SimpleValue for #ident {
                fn parse_lexical(text: &str) -> ::core::result::Result<Self, ::boardxml::schema::FacetError> {
                    let collapsed = ::boardxml::schema::whitespace::collapse(text);
                    let items = collapsed
                        .split(' ')
                        .filter(|s| !s.is_empty())
                        .map(<#item as ::boardxml::schema::SimpleValue>::parse_lexical)
                        .collect::<::core::result::Result<::std::vec::Vec<_>, _>>()?;
                    Self::new(items)
                }
                fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                    ::std::borrow::Cow::Owned(
                        self.0.iter().map(|v| ::boardxml::schema::SimpleValue::to_lexical(v).into_owned()).collect::<::std::vec::Vec<_>>().join(" "),
                    )
                }
            }

            #common
        }
    }
}

/// Display, FromStr and Element for a simple type: one macro call into the runtime, which
/// writes them once for every generated simple type.
pub(super) fn simple_common(ident: &Ident) -> TokenStream {
    quote! { ::boardxml::impl_simple_type!(#ident); }
}

pub(super) fn length_checks(f: &Facets, len: TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    let any = f.length.is_some() || f.min_length.is_some() || f.max_length.is_some();
    if !any {
        return out;
    }
    out.extend(quote! { let __len: u64 = #len; });
    if let Some(l) = f.length {
        let l = Literal::u64_unsuffixed(l);
        out.extend(quote! {
            if __len != #l {
                return ::core::result::Result::Err(::boardxml::schema::FacetError::Length { expected: #l, found: __len });
            }
        });
    }
    if let Some(l) = f.min_length {
        let l = Literal::u64_unsuffixed(l);
        out.extend(quote! {
            if __len < #l {
                return ::core::result::Result::Err(::boardxml::schema::FacetError::TooShort { min: #l, found: __len });
            }
        });
    }
    if let Some(l) = f.max_length {
        let l = Literal::u64_unsuffixed(l);
        out.extend(quote! {
            if __len > #l {
                return ::core::result::Result::Err(::boardxml::schema::FacetError::TooLong { max: #l, found: __len });
            }
        });
    }
    out
}

pub(super) fn ws_fn(ws: WhiteSpace) -> TokenStream {
    match ws {
        WhiteSpace::Preserve => quote! { ::std::borrow::Cow::<str>::from },
        WhiteSpace::Replace => quote! { ::boardxml::schema::whitespace::replace },
        WhiteSpace::Collapse => quote! { ::boardxml::schema::whitespace::collapse },
    }
}
