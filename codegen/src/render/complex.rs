//! Complex types: one plan per field (its declaration, its entry in the field table, its
//! arms in reading and writing), the content-model tables, and nested groups.

use super::*;

impl Renderer<'_> {
    pub(super) fn complex(&mut self, def: &TypeDef, c: &ComplexType) -> TokenStream {
        let ident = type_ident(&def.name);
        let doc = doc_attrs(def.doc.as_deref(), &format!("Complex type `{}`.", def.name));
        let mut names = FieldNames::default();
        let mut plans: Vec<FieldPlan> = Vec::new();
        let mut consts = Vec::new();
        for a in &c.attributes {
            plans.push(self.attribute_plan(a, &mut names));
            if let Some(d) = &a.default {
                let cname = format_ident!(
                    "{}_DEFAULT",
                    sanitize_snake(&a.name)
                        .trim_start_matches("r#")
                        .to_uppercase()
                );
                let text = format!("The default of attribute `{}`.", a.name);
                consts.push(quote! { #[doc = #text] pub const #cname: &'static str = #d; });
            }
        }
        let content = match &c.content {
            Content::Empty => quote! { ::boardxml::complex::Content::Empty },
            Content::Simple(t) => {
                let rt = self.rust_type(t);
                let field = names.take("content");
                let form = names.take("content_form");
                let i = Literal::usize_unsuffixed(plans.len());
                plans.push(FieldPlan {
                    field: Some(field.clone()),
                    doc: quote! { #[doc = " The element's content."] },
                    ty: rt.clone(),
                    required: true,
                    table: quote! { ::boardxml::complex::Field::CONTENT },
                    read: quote! { ::boardxml::complex::content(r, tag, &mut b.#field, &mut b.#form)? },
                    write: quote! { ::boardxml::complex::write_content(w, name, &self.#field, self.#form) },
                    extra: Some((form, quote! { ::boardxml::schema::TextForm })),
                    text: Some(true),
                });
                quote! { ::boardxml::complex::Content::Simple(#i) }
            }
            Content::Elements(p) => self.element_content(def, p, &mut names, &mut plans),
            Content::Mixed(p) => {
                let (ty, read, write) = self.mixed(def, p);
                let field = names.take("content");
                let i = Literal::usize_unsuffixed(plans.len());
                plans.push(FieldPlan {
                    field: Some(field.clone()),
                    doc: quote! { #[doc = " The content: text and elements in document order."] },
                    ty: quote! { ::std::vec::Vec<#ty> },
                    required: false,
                    table: quote! { ::boardxml::complex::Field::MIXED },
                    read: quote! { { #read b.#field = __mixed?; } },
                    write: quote! { for item in &self.#field { #write } },
                    extra: None,
                    text: None,
                });
                quote! { ::boardxml::complex::Content::Mixed(#i) }
            }
        };
        let impl_consts = (!consts.is_empty()).then(|| quote! { impl #ident { #(#consts)* } });
        let body = self.complex_impl(&ident, &plans, content, quote! { tag });
        // Every field optional or repeated: an empty value is a valid one.
        let default = (!plans.iter().any(|p| p.required)).then(|| quote! { Default, });
        let decls = plans.iter().filter_map(FieldPlan::decl);
        quote! {
            #doc
            #[derive(Debug, Clone, #default PartialEq, Eq, Hash)]
            pub struct #ident {
                #(#decls)*
            }

            #impl_consts

            #body

            ::boardxml::complex_element!(#ident);
        }
    }

    /// The `Complex` impl of a struct (a complex type, or a sequence group) from its field
    /// plans: the tables, the builder where a field is required, and the two matches.
    pub(super) fn complex_impl(
        &mut self,
        ident: &Ident,
        plans: &[FieldPlan],
        content: TokenStream,
        tag: TokenStream,
    ) -> TokenStream {
        let tables = plans.iter().map(|p| &p.table);
        let reads: Vec<(Literal, &TokenStream)> = plans
            .iter()
            .enumerate()
            .map(|(i, p)| (Literal::usize_unsuffixed(i), &p.read))
            .collect();
        let writes: Vec<(Literal, &TokenStream)> = plans
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.write.is_empty())
            .map(|(i, p)| (Literal::usize_unsuffixed(i), &p.write))
            .collect();
        let read_body = dispatch(&reads);
        let texts: Vec<(Literal, TokenStream, TokenStream)> = plans
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let (one, field) = (p.text?, p.field.as_ref()?);
                let i = Literal::usize_unsuffixed(i);
                Some(if one {
                    (
                        i,
                        quote! { ::boardxml::complex::text_one(&self.#field) },
                        quote! { ::boardxml::complex::set_one(&mut self.#field, text) },
                    )
                } else {
                    (
                        i,
                        quote! { ::boardxml::complex::text_opt(&self.#field) },
                        quote! { ::boardxml::complex::set_opt(&mut self.#field, text) },
                    )
                })
            })
            .collect();
        let text_fns = (!texts.is_empty()).then(|| {
            let idx: Vec<&Literal> = texts.iter().map(|t| &t.0).collect();
            let gets = texts.iter().map(|t| &t.1);
            let sets = texts.iter().map(|t| &t.2);
            quote! {
                fn text(&self, i: usize) -> ::core::option::Option<::std::borrow::Cow<'_, str>> {
                    match i {
                        #(#idx => #gets,)*
                        _ => ::core::option::Option::None,
                    }
                }

                fn set_text(&mut self, i: usize, text: &str) -> ::core::result::Result<bool, ::boardxml::schema::FacetError> {
                    match i {
                        #(#idx => #sets,)*
                        _ => ::core::result::Result::Ok(false),
                    }
                }
            }
        });
        let i_read = if reads.is_empty() {
            quote! { _ }
        } else {
            quote! { i }
        };
        let i_write = if writes.is_empty() {
            quote! { _ }
        } else {
            quote! { i }
        };
        let write_body = dispatch(&writes);
        let needs_builder = plans.iter().any(|p| p.required);
        let (builder_ty, builder_decl, build) = if needs_builder {
            let bname = format_ident!("__{}Builder", ident);
            let slots = plans.iter().filter_map(FieldPlan::slot);
            let binds = plans.iter().filter_map(FieldPlan::bind);
            (
                quote! { #bname },
                quote! {
                    #[doc(hidden)]
                    #[derive(Default)]
                    pub struct #bname { #(#slots)* }
                },
                quote! { ::core::option::Option::Some(Self { #(#binds)* }) },
            )
        } else {
            (
                quote! { Self },
                quote! {},
                quote! { ::core::option::Option::Some(b) },
            )
        };
        let uses_tag = plans
            .iter()
            .any(|p| p.table.to_string().contains("CONTENT"));
        let tag_param = if uses_tag {
            tag
        } else {
            quote! { _ }
        };
        let uses_attributes = plans.iter().any(|p| p.read.to_string().contains("a ."));
        let attr_param = if uses_attributes {
            quote! { a }
        } else {
            quote! { _ }
        };
        let b_param = if plans.is_empty() {
            quote! { _ }
        } else {
            quote! { b }
        };
        let r_param = if plans.is_empty() {
            quote! { _ }
        } else {
            quote! { r }
        };
        let w_param = if writes.is_empty() {
            quote! { _ }
        } else {
            quote! { w }
        };
        // Only simple content is written with the element's name.
        let name_param = if plans.iter().any(|p| p.extra.is_some()) {
            quote! { name }
        } else {
            quote! { _ }
        };
        quote! {
            #builder_decl

            impl ::boardxml::complex::Complex for #ident {
                const FIELDS: &'static [::boardxml::complex::Field] = &[#(#tables),*];
                const CONTENT: ::boardxml::complex::Content = #content;
                type Builder = #builder_ty;

                fn read_field(#b_param: &mut Self::Builder, #r_param: &mut ::boardxml::xml::Reader<'_>, #tag_param: &::boardxml::xml::Tag, #attr_param: &mut ::boardxml::xml::Attributes<'_>, #i_read: usize) -> ::core::result::Result<(), ::boardxml::schema::Invalid> {
                    #read_body
                    ::core::result::Result::Ok(())
                }

                fn build(b: Self::Builder) -> ::core::option::Option<Self> {
                    #build
                }

                fn write_field(&self, #w_param: &mut ::boardxml::xml::Writer, #name_param: &str, #i_write: usize) {
                    #write_body
                }

                #text_fns
            }
        }
    }

    /// Whether `t` is a simple type (its values have a lexical form).
    pub(super) fn is_simple(&self, t: &TypeRef) -> bool {
        match t {
            TypeRef::Builtin(b) => *b != Builtin::AnyType,
            TypeRef::Named(n) => matches!(
                self.schema.types.get(n).map(|d| &d.kind),
                Some(
                    TypeKind::Restriction(_)
                        | TypeKind::Enumeration(_)
                        | TypeKind::Union(_)
                        | TypeKind::List(_)
                )
            ),
        }
    }

    /// The plan of one attribute.
    pub(super) fn attribute_plan(&mut self, a: &Attribute, names: &mut FieldNames) -> FieldPlan {
        let rt = self.rust_type(&a.type_ref);
        let name = &a.name;
        if a.required && a.fixed.is_some() {
            // Always the fixed value: nothing to hold; read checks it, write writes it.
            let fixed = a.fixed.as_deref().unwrap_or_default();
            return FieldPlan {
                field: None,
                doc: quote! {},
                ty: quote! {},
                required: false,
                table: quote! { ::boardxml::complex::Field::fixed(#name, true, #fixed) },
                read: quote! { { a.fixed::<#rt>(r, #name, #fixed, true)?; } },
                write: quote! {},
                extra: None,
                text: None,
            };
        }
        let field = names.take(&sanitize_snake(name));
        let fdoc = doc_attrs(
            a.doc.as_deref(),
            &format!(
                "Attribute `{name}`{}.",
                if a.required { " (required)" } else { "" }
            ),
        );
        let default_doc = a.default.as_ref().map(|d| {
            let text = format!(" When absent, the schema's default applies: `{d}`.");
            quote! { #[doc = ""] #[doc = #text] }
        });
        let (table, read) = match (&a.fixed, &a.default) {
            _ if a.required => (
                quote! { ::boardxml::complex::Field::attribute(#name, true) },
                quote! { b.#field = ::core::option::Option::Some(a.required::<#rt>(r, #name)?) },
            ),
            (Some(fixed), _) => (
                quote! { ::boardxml::complex::Field::fixed(#name, false, #fixed) },
                quote! { b.#field = a.fixed::<#rt>(r, #name, #fixed, false)? },
            ),
            (None, Some(default)) => (
                quote! { ::boardxml::complex::Field::defaulted(#name, #default) },
                quote! { b.#field = a.optional::<#rt>(r, #name)? },
            ),
            (None, None) => (
                quote! { ::boardxml::complex::Field::attribute(#name, false) },
                quote! { b.#field = a.optional::<#rt>(r, #name)? },
            ),
        };
        let write = if a.required {
            quote! { ::boardxml::complex::write_attribute(w, #name, &self.#field) }
        } else {
            quote! { ::boardxml::complex::write_optional_attribute(w, #name, &self.#field) }
        };
        FieldPlan {
            field: Some(field),
            doc: quote! { #fdoc #default_doc },
            ty: if a.required {
                quote! { #rt }
            } else {
                quote! { ::core::option::Option<#rt> }
            },
            required: a.required,
            table,
            read,
            write,
            extra: None,
            text: Some(a.required),
        }
    }

    /// Plans for element-only content, and its `Content` table.
    pub(super) fn element_content(
        &mut self,
        def: &TypeDef,
        p: &Particle,
        names: &mut FieldNames,
        plans: &mut Vec<FieldPlan>,
    ) -> TokenStream {
        match &p.term {
            Term::Sequence(items) if p.min == 1 && p.max == Some(1) => {
                let mut entries = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    // What may still come after this item: a child that is neither this
                    // nor that is a stray, reported once and skipped.
                    let later: Vec<String> = items[i + 1..].iter().flat_map(first_set).collect();
                    if let Some(e) = self.sequence_item(def, item, Some(&later), names, plans) {
                        entries.push(e);
                    }
                }
                quote! { ::boardxml::complex::Content::Sequence(&[#(#entries),*]) }
            }
            Term::All(items) if p.max == Some(1) => {
                let optional = p.min == 0;
                let mut fields = Vec::new();
                for item in items {
                    let Term::Element(e) = &item.term else {
                        self.error(def, "xs:all may contain only elements", None);
                        continue;
                    };
                    if item.max != Some(1) {
                        self.error(
                            def,
                            format!(
                                "element {} in xs:all must have maxOccurs 1 (XSD 1.0)",
                                e.name
                            ),
                            None,
                        );
                        continue;
                    }
                    fields.push(Literal::usize_unsuffixed(plans.len()));
                    let required = item.min == 1 && !optional;
                    plans.push(self.element_plan(e, item.min, Some(1), required, names));
                }
                quote! { ::boardxml::complex::Content::All { fields: &[#(#fields),*], optional: #optional } }
            }
            _ => {
                // A choice, or a repeated sequence: one field of a group type.
                let entry: Vec<TokenStream> = self
                    .sequence_item(def, p, Some(&[]), names, plans)
                    .into_iter()
                    .collect();
                quote! { ::boardxml::complex::Content::Sequence(&[#(#entry),*]) }
            }
        }
    }

    /// The plan of a child element field occurring `min..=max` times.
    pub(super) fn element_plan(
        &mut self,
        e: &ElementDecl,
        min: u32,
        max: Option<u32>,
        required: bool,
        names: &mut FieldNames,
    ) -> FieldPlan {
        let rt = self.rust_type(&e.type_ref);
        let name = &e.name;
        let field = names.take(&sanitize_snake(name));
        let doc_text = e
            .doc
            .as_deref()
            .map(plain_to_markdown)
            .unwrap_or_else(|| format!("Element `{name}`."));
        let doc = doc_attrs(None, &doc_text);
        let simple = self.is_simple(&e.type_ref);
        let min_lit = Literal::u32_unsuffixed(min);
        let max_lit = max_tokens(max);
        let table = quote! { ::boardxml::complex::Field::element(#name, #min_lit, #max_lit) };
        let many = !matches!(max, Some(1));
        let (ty, read, write) = if many {
            (
                quote! { ::std::vec::Vec<#rt> },
                quote! { ::boardxml::complex::push(r, &mut b.#field)? },
                quote! { ::boardxml::complex::write_children(w, #name, &self.#field) },
            )
        } else if required {
            (
                rt.clone(),
                quote! { ::boardxml::complex::child(r, &mut b.#field)? },
                quote! { ::boardxml::complex::write_children(w, #name, [&self.#field]) },
            )
        } else {
            (
                quote! { ::core::option::Option<#rt> },
                quote! { ::boardxml::complex::child(r, &mut b.#field)? },
                quote! { ::boardxml::complex::write_children(w, #name, &self.#field) },
            )
        };
        FieldPlan {
            field: Some(field),
            doc,
            ty,
            required,
            table,
            read,
            write,
            extra: None,
            text: (simple && !many).then_some(required),
        }
    }

    /// One particle of a sequence as a field plan; returns its `Item` table entry.
    pub(super) fn sequence_item(
        &mut self,
        def: &TypeDef,
        item: &Particle,
        later: Option<&[String]>,
        names: &mut FieldNames,
        plans: &mut Vec<FieldPlan>,
    ) -> Option<TokenStream> {
        let index = plans.len();
        let required = item.min == 1 && item.max == Some(1);
        let (first, label) = match &item.term {
            Term::Element(e) => {
                plans.push(self.element_plan(e, item.min, item.max, required, names));
                (vec![e.name.clone()], format!("<{}>", e.name))
            }
            Term::All(_) => {
                self.error(
                    def,
                    "xs:all nested inside another group is not allowed (XSD 1.0)",
                    None,
                );
                return None;
            }
            Term::Choice(_) | Term::Sequence(_) => {
                let (gname, first) = self.group_type(def, item);
                let gident = type_ident(&gname);
                let kind = if matches!(item.term, Term::Choice(_)) {
                    "choice"
                } else {
                    "sequence"
                };
                let field = names.take(if names.is_free("content") {
                    "content"
                } else {
                    kind
                });
                let doc_text = format!("The {kind} group.");
                let min_lit = Literal::u32_unsuffixed(item.min);
                let max_lit = max_tokens(item.max);
                let many = !matches!(item.max, Some(1));
                let (ty, read, write) = if many {
                    (
                        quote! { ::std::vec::Vec<#gident> },
                        quote! { ::boardxml::complex::push_group(r, &mut b.#field)? },
                        quote! { ::boardxml::complex::write_groups(w, &self.#field) },
                    )
                } else if required {
                    (
                        quote! { #gident },
                        quote! { ::boardxml::complex::group(r, &mut b.#field)? },
                        quote! { ::boardxml::complex::write_groups(w, [&self.#field]) },
                    )
                } else {
                    (
                        quote! { ::core::option::Option<#gident> },
                        quote! { ::boardxml::complex::group(r, &mut b.#field)? },
                        quote! { ::boardxml::complex::write_groups(w, &self.#field) },
                    )
                };
                plans.push(FieldPlan {
                    field: Some(field),
                    doc: quote! { #[doc = #doc_text] },
                    ty,
                    required,
                    table: quote! { ::boardxml::complex::Field::group(#min_lit, #max_lit) },
                    read,
                    write,
                    extra: None,
                    text: None,
                });
                let firsts: Vec<String> = first.iter().map(|f| format!("<{f}>")).collect();
                (first, format!("one of {}", firsts.join(", ")))
            }
        };
        let field = Literal::usize_unsuffixed(index);
        let later = match later {
            Some(l) => quote! { ::core::option::Option::Some(&[#(#l),*]) },
            None => quote! { ::core::option::Option::None },
        };
        Some(quote! {
            ::boardxml::complex::Item { field: #field, first: &[#(#first),*], label: #label, later: #later }
        })
    }

    /// A group type (choice enum or sequence struct) for a nested or repeated group; returns
    /// its name and its first set.
    pub(super) fn group_type(&mut self, def: &TypeDef, p: &Particle) -> (String, Vec<String>) {
        let kind = if matches!(p.term, Term::Choice(_)) {
            "Choice"
        } else {
            "Sequence"
        };
        let name = self.fresh_name(&format!("{}{}", type_ident_name(&def.name), kind));
        let ident = type_ident(&name);
        let first = first_set(p);
        let first_lits: Vec<&str> = first.iter().map(String::as_str).collect();
        let tokens = match &p.term {
            Term::Choice(items) => {
                let mut variants = Vec::new();
                let mut arms = Vec::new();
                let mut writes = Vec::new();
                let mut seen = HashSet::new();
                for item in items {
                    if item.min != 1 || item.max != Some(1) {
                        // Occurrence inside a choice branch: wrap it in a sequence group.
                        self.error(def, "an element or group with its own minOccurs/maxOccurs inside xs:choice is not supported", Some("put the occurrence on the xs:choice"));
                        continue;
                    }
                    match &item.term {
                        Term::Element(e) => {
                            let v = format_ident!("{}", variant_name(&e.name));
                            if !seen.insert(v.to_string()) {
                                self.error(
                                    def,
                                    format!("element {} appears twice in one xs:choice", e.name),
                                    None,
                                );
                                continue;
                            }
                            let rt = self.rust_type(&e.type_ref);
                            let n = &e.name;
                            let vdoc = doc_attrs(e.doc.as_deref(), &format!("Element `{n}`."));
                            variants.push(quote! { #vdoc #v(#rt), });
                            arms.push(quote! { if r.peek_is(#n) { return ::core::option::Option::Some(r.read_child::<#rt>().map(Self::#v)); } });
                            writes.push(quote! { Self::#v(v) => ::boardxml::schema::Element::write_element(v, w, #n), });
                        }
                        Term::Sequence(_) | Term::Choice(_) => {
                            let (g, _) = self.group_type(def, item);
                            let gi = type_ident(&g);
                            let v = format_ident!("{}", g);
                            variants.push(quote! { #[doc = "A nested group."] #v(#gi), });
                            arms.push(quote! { if let ::core::option::Option::Some(v) = <#gi as ::boardxml::complex::Group>::read_group(r) { return ::core::option::Option::Some(v.map(Self::#v)); } });
                            writes.push(quote! { Self::#v(v) => ::boardxml::complex::Group::write_group(v, w), });
                        }
                        Term::All(_) => self.error(
                            def,
                            "xs:all inside xs:choice is not allowed (XSD 1.0)",
                            None,
                        ),
                    }
                }
                let doc = format!("One of the alternatives of a choice in `{}`.", def.name);
                quote! {
                    #[doc = #doc]
                    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                    pub enum #ident {
                        #(#variants)*
                    }

                    impl ::boardxml::complex::Group for #ident {
                        const FIRST: &'static [&'static str] = &[#(#first_lits),*];

                        fn read_group(r: &mut ::boardxml::xml::Reader<'_>) -> ::core::option::Option<::core::result::Result<Self, ::boardxml::schema::Invalid>> {
                            #(#arms)*
                            ::core::option::Option::None
                        }

                        fn write_group(&self, w: &mut ::boardxml::xml::Writer) {
                            match self {
                                #(#writes)*
                            }
                        }
                    }
                }
            }
            Term::Sequence(items) => {
                let mut names = FieldNames::default();
                let mut plans = Vec::new();
                let mut entries = Vec::new();
                for item in items {
                    // Inside a nested group what follows the group is unknown here, so
                    // strays are left to the enclosing sequence.
                    if let Some(e) = self.sequence_item(def, item, None, &mut names, &mut plans) {
                        entries.push(e);
                    }
                }
                let doc = format!("A repeated sequence in `{}`.", def.name);
                let decls = plans.iter().filter_map(FieldPlan::decl);
                let body = self.complex_impl(
                    &ident,
                    &plans,
                    quote! { ::boardxml::complex::Content::Sequence(&[#(#entries),*]) },
                    quote! { _ },
                );
                quote! {
                    #[doc = #doc]
                    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                    pub struct #ident {
                        #(#decls)*
                    }

                    #body

                    impl ::boardxml::complex::Group for #ident {
                        const FIRST: &'static [&'static str] = &[#(#first_lits),*];

                        fn read_group(r: &mut ::boardxml::xml::Reader<'_>) -> ::core::option::Option<::core::result::Result<Self, ::boardxml::schema::Invalid>> {
                            r.peek_index(Self::FIRST)?;
                            ::core::option::Option::Some(::boardxml::complex::read_items(r))
                        }

                        fn write_group(&self, w: &mut ::boardxml::xml::Writer) {
                            ::boardxml::complex::write_items(self, w)
                        }
                    }
                }
            }
            _ => TokenStream::new(),
        };
        self.groups.insert(name.clone(), tokens);
        (name, first)
    }
}

/// What one field of a generated struct is made of: its declaration, its entry in the
/// field table, and its arms in `read_field` and `write_field`.
pub(super) struct FieldPlan {
    /// The Rust field (`None`: a fixed required attribute, which holds nothing).
    field: Option<Ident>,
    doc: TokenStream,
    /// Its type in the struct.
    ty: TokenStream,
    /// It must be given: the struct has no `Default`, and reading fills a builder.
    required: bool,
    /// Its `boardxml::complex::Field`.
    table: TokenStream,
    /// Reads one occurrence into the builder `b`.
    read: TokenStream,
    /// Writes it (empty: nothing to write).
    write: TokenStream,
    /// A second field that goes with it (the form of simple content).
    extra: Option<(Ident, TokenStream)>,
    /// It holds one simple value (an attribute, simple content, a single child of a simple
    /// type), so it has a text form: `Some(true)` when the struct holds it as `T`,
    /// `Some(false)` as `Option<T>`.
    text: Option<bool>,
}

impl FieldPlan {
    pub(super) fn decl(&self) -> Option<TokenStream> {
        let field = self.field.as_ref()?;
        let (doc, ty) = (&self.doc, &self.ty);
        let extra = self.extra.as_ref().map(|(f, t)| {
            quote! {
                /// Whether the content was written as CDATA (kept for rewriting).
                pub #f: #t,
            }
        });
        Some(quote! { #doc pub #field: #ty, #extra })
    }

    /// Its field in the builder: a required value is an option until it is read.
    pub(super) fn slot(&self) -> Option<TokenStream> {
        let field = self.field.as_ref()?;
        let ty = &self.ty;
        let extra = self.extra.as_ref().map(|(f, t)| quote! { #f: #t, });
        Some(if self.required {
            quote! { #field: ::core::option::Option<#ty>, #extra }
        } else {
            quote! { #field: #ty, #extra }
        })
    }

    /// Its field taken from the builder.
    pub(super) fn bind(&self) -> Option<TokenStream> {
        let field = self.field.as_ref()?;
        let extra = self.extra.as_ref().map(|(f, _)| quote! { #f: b.#f, });
        Some(if self.required {
            quote! { #field: b.#field?, #extra }
        } else {
            quote! { #field: b.#field, #extra }
        })
    }
}

/// A `match` on the field index over `arms` (an `if` for one arm, nothing for none).
pub(super) fn dispatch(arms: &[(Literal, &TokenStream)]) -> TokenStream {
    match arms {
        [] => quote! {},
        [(i, body)] => quote! { if i == #i { #body; } },
        _ => {
            let (idx, bodies): (Vec<_>, Vec<_>) = arms.iter().cloned().unzip();
            quote! {
                match i {
                    #(#idx => #bodies,)*
                    _ => {}
                }
            }
        }
    }
}

/// `maxOccurs` for the field table.
pub(super) fn max_tokens(max: Option<u32>) -> TokenStream {
    match max {
        Some(m) => {
            let m = Literal::u32_unsuffixed(m);
            quote! { #m }
        }
        None => quote! { ::boardxml::complex::UNBOUNDED },
    }
}

/// The elements a group can start with.
pub(super) fn first_set(p: &Particle) -> Vec<String> {
    let mut out = Vec::new();
    pub(super) fn walk(p: &Particle, out: &mut Vec<String>) -> bool {
        // Returns whether the particle can be empty (so what follows is in the first set too).
        match &p.term {
            Term::Element(e) => {
                if !out.contains(&e.name) {
                    out.push(e.name.clone());
                }
                p.min == 0
            }
            Term::Choice(items) | Term::All(items) => {
                let mut nullable = items.is_empty();
                for i in items {
                    nullable |= walk(i, out);
                }
                nullable || p.min == 0
            }
            Term::Sequence(items) => {
                for i in items {
                    if !walk(i, out) {
                        return p.min == 0;
                    }
                }
                true
            }
        }
    }
    walk(p, &mut out);
    out
}
