//! Complex types: one plan per field (its declaration, its entry in the field table, its
//! arms in reading and writing), the content-model tables, and nested groups.

use super::*;

impl Renderer<'_> {
    /// The `asserts` argument of `complex_type!` for a type with XSD 1.1 assertions: each
    /// test with the expression that builds its `$value` (from the simple content's
    /// lexical form; the empty sequence without simple content, Part 1, 3.13.4.1).
    fn complex_assertions(&mut self, def: &TypeDef, c: &ComplexType) -> Option<TokenStream> {
        if c.assertions.is_empty() {
            return None;
        }
        let value = match &c.content {
            Content::Simple(t) => self.assertion_value(t, super::simple::LEXICAL, 0),
            _ => Some("()".to_string()),
        };
        let Some(value) = value else {
            self.error(
                def,
                "an xs:assert on a type whose simple content is a QName or NOTATION, a list of lists or unions, or a union with a list or union member",
                None,
            );
            return None;
        };
        let mut each = Vec::with_capacity(c.assertions.len());
        for a in &c.assertions {
            let test = &a.test;
            let namespaces = a.namespaces.iter().map(|(p, ns)| quote! { (#p, #ns) });
            let default = a.default_element_namespace.as_deref().unwrap_or("");
            let typed = self.typed_test(c, a);
            // Compiled as the runtime will (check compiled the test alone).
            #[cfg(feature = "xpath")]
            {
                let evaluated = typed.as_deref().unwrap_or(test);
                let compiled = boardxml::facets::assertion::compile_assertion(
                    evaluated,
                    &value,
                    &a.bindings(),
                    default,
                );
                if let Err(e) = compiled {
                    let message = format!(
                        "the xs:assert \"{test}\" as evaluated ({evaluated}, $value built as {value}): {e}"
                    );
                    self.error(def, message, None);
                    return None;
                }
            }
            let typed = typed.map(|t| quote! { .typed(#t) });
            each.push(
                quote! { __f::Assertion::new(#test, #value, &[#(#namespaces),*], #default) #typed },
            );
        }
        Some(quote! { , asserts &[#(#each),*] })
    }

    /// The test of `a`, an assertion of `c`, with each path it compares whose nodes the
    /// schema gives one simple type written to give their typed values: `P` becomes
    /// `(for $boardxml-node in P return T($boardxml-node))`, `T` the constructor that
    /// builds the type's value (as for `$value`). XSD 1.1's tree is typed (Part 1, 3.13.4.1), xee's is not: without
    /// this, `@min le @max` would compare two integers as text. None where nothing is
    /// rewritten. A path the schema does not type (a wildcard's, one through a type
    /// chosen at run time, a complex type's) stays as it is, untyped.
    #[cfg(feature = "xpath")]
    fn typed_test(&self, c: &ComplexType, a: &Assertion) -> Option<String> {
        // A compared path holds no variable, so this one shadows none it needs.
        const NODE: &str = "$boardxml-node";
        let mut out = String::new();
        let mut at = 0;
        for path in boardxml::facets::assertion::compared_paths(&a.test) {
            let Some(t) = self.path_type(c, a, &path.steps) else {
                continue;
            };
            if self.compares_as_text(&t) {
                continue;
            }
            let value = if self.is_qname(&t) {
                // A QName's value is its name resolved by the namespaces in scope at the
                // node that holds it (an attribute's: its element's), which the copy an
                // assertion sees keeps.
                let holder = match path.steps.last() {
                    Some(boardxml::facets::assertion::PathStep::Attribute(..)) => {
                        format!("{NODE}/..")
                    }
                    _ => NODE.to_string(),
                };
                format!("resolve-QName(normalize-space({NODE}), {holder})")
            } else {
                let Some(value) = self.assertion_value(&t, NODE, 0) else {
                    continue;
                };
                value
            };
            out.push_str(&a.test[at..path.span.start]);
            out.push_str(&format!(
                "(for {NODE} in {} return ({value}))",
                &a.test[path.span.clone()]
            ));
            at = path.span.end;
        }
        (at > 0).then(|| {
            out.push_str(&a.test[at..]);
            out
        })
    }

    /// Whether `t`'s values compare as the untyped text of their nodes would: the string
    /// types and anyURI (an attribute declared without a type is read as `xs:string`, where XSD says
    /// `xs:anySimpleType`, whose values are untyped: so neither is rewritten).
    #[cfg(feature = "xpath")]
    fn compares_as_text(&self, t: &TypeRef) -> bool {
        let mut t = t;
        for _ in 0..crate::xsd::limits::MAX_REFERENCE_DEPTH {
            match t {
                TypeRef::Builtin(b) => {
                    return match b.repr() {
                        Repr::String => true,
                        Repr::Value(v) => {
                            v.primitive() == "string" || v == ValueType::AnySimpleType
                        }
                        _ => false,
                    }
                }
                TypeRef::Named(n) => match self.schema.types.get(n).map(|d| &d.kind) {
                    Some(TypeKind::Restriction(r)) => t = &r.base,
                    Some(TypeKind::Enumeration(e)) => t = &e.base,
                    _ => return false,
                },
            }
        }
        false
    }

    /// Whether `t` is `xs:QName` or a restriction of it.
    #[cfg(feature = "xpath")]
    fn is_qname(&self, t: &TypeRef) -> bool {
        let mut t = t;
        for _ in 0..crate::xsd::limits::MAX_REFERENCE_DEPTH {
            match t {
                TypeRef::Builtin(b) => return *b == Builtin::Value(ValueType::QName),
                TypeRef::Named(n) => match self.schema.types.get(n).map(|d| &d.kind) {
                    Some(TypeKind::Restriction(r)) => t = &r.base,
                    Some(TypeKind::Enumeration(e)) => t = &e.base,
                    _ => return false,
                },
            }
        }
        false
    }

    #[cfg(not(feature = "xpath"))]
    fn typed_test(&self, _: &ComplexType, _: &Assertion) -> Option<String> {
        None
    }

    /// The simple type the schema gives the nodes `steps` select from an element of `c`
    /// (`a`'s namespaces resolve their prefixes): an attribute's type, or a child's simple
    /// type or simple content type; None where it gives none, and for the element itself.
    #[cfg(feature = "xpath")]
    fn path_type(
        &self,
        c: &ComplexType,
        a: &Assertion,
        steps: &[boardxml::facets::assertion::PathStep],
    ) -> Option<TypeRef> {
        use boardxml::facets::assertion::PathStep;
        let namespace = |prefix: &str, element: bool| -> Option<Option<String>> {
            if prefix.is_empty() {
                return Some(if element {
                    a.default_element_namespace.clone()
                } else {
                    None
                });
            }
            a.namespaces
                .iter()
                .rev()
                .find(|(p, _)| p == prefix)
                .map(|(_, ns)| Some(ns.clone()))
        };
        let mut current = c;
        for (k, step) in steps.iter().enumerate() {
            let last = k + 1 == steps.len();
            let t = match step {
                // The asserted element itself is untyped in its test's tree (annotated
                // xs:anyType: its own assessment is what the test is part of; Part 1,
                // 3.13.4.1): `$value` is its typed value. Its attributes and children are
                // typed.
                PathStep::Context => return None,
                PathStep::Attribute(prefix, local) => {
                    let ns = namespace(prefix, false)?;
                    let use_ = current
                        .attributes
                        .iter()
                        .find(|u| u.name == *local && u.namespace == ns)?;
                    use_.type_ref.clone()
                }
                PathStep::Child(prefix, local) => {
                    let ns = namespace(prefix, true)?;
                    child_declaration(&current.content, local, &ns)?
                        .type_ref
                        .clone()
                }
            };
            let kind = match &t {
                TypeRef::Named(n) => Some(&self.schema.types.get(n)?.kind),
                TypeRef::Builtin(Builtin::AnyType) => return None,
                TypeRef::Builtin(_) => None,
            };
            match kind {
                Some(TypeKind::Complex(cc)) if !last => current = cc,
                Some(TypeKind::Complex(cc)) => {
                    return match &cc.content {
                        Content::Simple(v) => Some(v.clone()),
                        _ => None,
                    }
                }
                // Chosen at run time: no one type.
                Some(TypeKind::Alternatives(_) | TypeKind::Substitution(_)) => return None,
                _ if last => return Some(t),
                _ => return None,
            }
        }
        None
    }

    pub(super) fn complex(&mut self, def: &TypeDef, c: &ComplexType) -> TokenStream {
        let ident = self.tident(&def.name);
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
        // After the declared attributes: a wildcard takes only what they do not.
        if let Some(w) = &c.any_attribute {
            plans.push(self.attribute_wildcard_plan(def, w, &c.attributes, &mut names));
        }
        let mut simple = None;
        let content = match &c.content {
            Content::Empty => quote! { __c::Content::Empty },
            Content::Simple(t) => {
                let rt = self.rust_type(t);
                let field = names.take("content");
                let form = names.take("content_form");
                let i = Literal::usize_unsuffixed(plans.len());
                let content = quote! { __c::Content::Simple(#i) };
                simple = Some(SimpleContent {
                    index: i,
                    field,
                    form,
                    ty: rt,
                });
                content
            }
            Content::Elements(p) => self.element_content(def, p, &mut names, &mut plans),
            Content::Mixed(p) if !mixed_general::fits_item_enum(p) => {
                self.interleaved(def, p, &mut names, &mut plans)
            }
            Content::Mixed(p) => {
                let ty = self.mixed(def, p);
                let field = names.take("content");
                let i = Literal::usize_unsuffixed(plans.len());
                plans.push(FieldPlan {
                    field: Some(field),
                    doc: quote! { #[doc = " The content: text and elements in document order."] },
                    ty: quote! { ::std::vec::Vec<#ty> },
                    required: false,
                    table: quote! { MIXED },
                    kind: quote! { Mixed(#ty) },
                });
                quote! { __c::Content::Mixed(#i) }
            }
        };
        let impl_consts = (!consts.is_empty()).then(|| quote! { impl #ident { #(#consts)* } });
        let xsi_name = self.xsi_names.get(&def.name).cloned();
        let asserts = self.complex_assertions(def, c);
        let body = complex_impl(
            &ident,
            xsi_name.as_deref(),
            &plans,
            content,
            simple.as_ref(),
            asserts,
        );
        // Every field optional or repeated: an empty value is a valid one.
        let default =
            (simple.is_none() && !plans.iter().any(|p| p.required)).then(|| quote! { Default, });
        let decls = plans.iter().filter_map(FieldPlan::decl);
        let simple_decl = simple.as_ref().map(|s| {
            let (field, form, ty) = (&s.field, &s.form, &s.ty);
            quote! {
                /// The element's content.
                pub #field: #ty,
                /// Whether the content was written as CDATA (kept for rewriting).
                pub #form: __s::TextForm,
            }
        });
        let visit = self.visit_args(&ident);
        let identity = self.identity_args(&def.name);
        let rest = quote! {
            #[derive(Debug, Clone, #default PartialEq, Eq, Hash)]
            pub struct #ident {
                #(#decls)*
                #simple_decl
            }

            #impl_consts

            #body

            ::boardxml::complex_element!(#ident #identity #visit);
        };
        // Written out here; `shapes::share` may write it once for the types of its shape.
        self.last_complex = Some(shapes::ComplexItem {
            index: 0,
            ident: ident.clone(),
            xsi: xsi_name,
            doc: doc.clone(),
            rest: rest.clone(),
        });
        quote! { #doc #rest }
    }

    /// The Rust type of an element's value: its type's, or `Nillable` of it.
    /// `held`: a single field or variant, boxed where the type would contain itself (a
    /// `Vec` holds its items on the heap and needs no box).
    pub(super) fn element_type(&mut self, e: &ElementDecl, held: bool) -> TokenStream {
        let rt = if held {
            self.held_type(&e.type_ref)
        } else {
            self.rust_type(&e.type_ref)
        };
        if e.nillable {
            self.nillable_type(&e.type_ref, rt)
        } else {
            rt
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
        // The expanded name in the tables and docs; the local name for the Rust field.
        let xml = a.xml_name();
        let name = &xml;
        if a.required && a.fixed.is_some() {
            // Always the fixed value: nothing to hold; read checks it, write writes it.
            let fixed = a.fixed.as_deref().unwrap_or_default();
            return FieldPlan {
                field: None,
                doc: quote! {},
                ty: quote! {},
                required: false,
                table: quote! { fixed(#name, true, #fixed) },
                kind: quote! { Fixed(#rt) },
            };
        }
        let field = names.take(&sanitize_snake(&a.name));
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
        let table = match (&a.fixed, &a.default) {
            // Passed on to descendants' type alternatives (with the value it takes when
            // absent, if it has one).
            (fixed, default) if a.inheritable && self.passes_on => {
                let some = |v: &Option<String>| match v {
                    Some(v) => quote! { ::core::option::Option::Some(#v) },
                    None => quote! { ::core::option::Option::None },
                };
                let (fixed, default) = (some(fixed), some(default));
                let required = a.required;
                quote! { inheritable(#name, #required, #fixed, #default) }
            }
            _ if a.required => quote! { attribute(#name, true) },
            (Some(fixed), _) => quote! { fixed(#name, false, #fixed) },
            (None, Some(default)) => quote! { defaulted(#name, #default) },
            (None, None) => quote! { attribute(#name, false) },
        };
        let (ty, kind) = if a.required {
            (quote! { #rt }, quote! { Attr(#rt) })
        } else {
            (
                quote! { ::core::option::Option<#rt> },
                quote! { OptAttr(#rt) },
            )
        };
        FieldPlan {
            field: Some(field),
            doc: quote! { #fdoc #default_doc },
            ty,
            required: a.required,
            table,
            kind,
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
        // XSD 1.1's open content in suffix mode after an all group
        // (`xsd/passes/open_content.rs`): the group, then the wildcard's field.
        if let Term::Sequence(items) = &p.term {
            if let Some((all, w)) =
                all_then_suffix(items).filter(|_| p.min == 1 && p.max == Some(1))
            {
                let fields = self.all_fields(def, all, names, plans);
                let optional = all.min == 0;
                let suffix = Literal::usize_unsuffixed(plans.len());
                plans.push(self.wildcard_plan(w, 0, None, false, names));
                return quote! {
                    __c::Content::AllThenSuffix { fields: &[#(#fields),*], optional: #optional, suffix: #suffix }
                };
            }
        }
        match &p.term {
            Term::Sequence(items) if p.min == 1 && p.max == Some(1) => {
                let items = &flatten(items);
                // What may still come after an item: a child that is neither the item nor
                // that is a stray, reported once and skipped. It is a suffix of the items'
                // first names in order, so one table serves every item (`split_at` is a
                // const fn): a sequence of n items lists n names, not n^2/2.
                let firsts: Vec<Vec<String>> = items.iter().map(first_set).collect();
                let all: Vec<&String> = firsts.iter().flatten().collect();
                let mut entries = Vec::new();
                let (mut after, mut shared) = (0, false);
                for (item, first) in items.iter().zip(&firsts) {
                    after += first.len();
                    let later = if after == all.len() {
                        quote! { &[] }
                    } else {
                        shared = true;
                        let at = Literal::usize_unsuffixed(after);
                        quote! { LATER.split_at(#at).1 }
                    };
                    if let Some(e) = self.sequence_item(def, item, Some(later), names, plans) {
                        entries.push(e);
                    }
                }
                if !shared {
                    quote! { __c::Content::Sequence(&[#(#entries),*]) }
                } else {
                    quote! {{
                        const LATER: &[&str] = &[#(#all),*];
                        __c::Content::Sequence(&[#(#entries),*])
                    }}
                }
            }
            Term::All(_) if p.max == Some(1) => {
                let optional = p.min == 0;
                let fields = self.all_fields(def, p, names, plans);
                quote! { __c::Content::All { fields: &[#(#fields),*], optional: #optional } }
            }
            _ => {
                // A choice, or a repeated sequence: one field of a group type.
                let entry: Vec<TokenStream> = self
                    .sequence_item(def, p, Some(quote! { &[] }), names, plans)
                    .into_iter()
                    .collect();
                quote! { __c::Content::Sequence(&[#(#entry),*]) }
            }
        }
    }

    /// The plans of the element fields of the all group `p`, and their indexes.
    fn all_fields(
        &mut self,
        def: &TypeDef,
        p: &Particle,
        names: &mut FieldNames,
        plans: &mut Vec<FieldPlan>,
    ) -> Vec<Literal> {
        let Term::All(items) = &p.term else {
            return Vec::new();
        };
        let optional = p.min == 0;
        let mut fields = Vec::new();
        // XSD 1.1: a reference to a group whose model is an all group (once) puts
        // that group's particles here; flattened with a work list, not recursion.
        let mut flat: Vec<&Particle> = Vec::new();
        let mut pending: Vec<&Particle> = items.iter().rev().collect();
        while let Some(item) = pending.pop() {
            match &item.term {
                Term::All(inner) if item.min == 1 && item.max == Some(1) => {
                    pending.extend(inner.iter().rev());
                }
                _ => flat.push(item),
            }
        }
        for item in flat {
            if let Term::Any(w) = &item.term {
                // XSD 1.1: a wildcard among the elements, matched by its pattern
                // (the content model's check keeps it from overlapping them).
                fields.push(Literal::usize_unsuffixed(plans.len()));
                let required = item.min == 1 && item.max == Some(1) && !optional;
                plans.push(self.wildcard_plan(w, item.min, item.max, required, names));
                continue;
            }
            if let Term::Choice(alternatives) = &item.term {
                if alternatives
                    .iter()
                    .all(|a| matches!(a.term, Term::Element(_)))
                {
                    // A reference to a substitution group's head: one field of the
                    // head and its members (none, for an abstract head without
                    // members), matched by a pattern of their names.
                    let index = plans.len();
                    let optional_item = Particle {
                        min: if optional { 0 } else { item.min },
                        max: item.max,
                        term: item.term.clone(),
                    };
                    // The group's field, its table entry named by the pattern.
                    if self
                        .sequence_item(def, &optional_item, None, names, plans)
                        .is_some()
                    {
                        fields.push(Literal::usize_unsuffixed(index));
                        let pattern = format!("|{}", first_set(item).join(" "));
                        let (min, max) = (Literal::u32_unsuffixed(item.min), max_tokens(item.max));
                        plans[index].table = quote! { group_in_all(#pattern, #min, #max) };
                    }
                    continue;
                }
            }
            let Term::Element(e) = &item.term else {
                self.error(
                    def,
                    "xs:all may contain only elements, wildcards, references to all groups that occur once and references to substitution groups' heads",
                    None,
                );
                continue;
            };
            if item.max == Some(0) {
                self.error(
                    def,
                    format!("element {} in xs:all must have maxOccurs 1", e.name),
                    None,
                );
                continue;
            }
            // XSD 1.1 lets one repeat (the reader counts its occurrences; XSD 1.0
            // schemas were refused such an element before rendering).
            fields.push(Literal::usize_unsuffixed(plans.len()));
            let required = item.min == 1 && item.max == Some(1) && !optional;
            plans.push(self.element_plan(e, item.min, item.max, required, names));
        }
        fields
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
        let many = !matches!(max, Some(1));
        // A Vec holds its items on the heap: only a single field can make a type infinite.
        let rt = self.element_type(e, !many);
        // The expanded name in the tables and docs; the local name for the Rust field.
        let xml = e.xml_name();
        let name = &xml;
        let field = names.take(&sanitize_snake(&e.name));
        let doc_text = e
            .doc
            .as_deref()
            .map(plain_to_markdown)
            .unwrap_or_else(|| format!("Element `{name}`."));
        // A nillable element's value is not a simple value (it may be nil): a child.
        let simple = self.is_simple(&e.type_ref) && !e.nillable;
        let min_lit = Literal::u32_unsuffixed(min);
        let max_lit = max_tokens(max);
        let table = match (&e.value, e.xsi_simple.as_deref()) {
            (value, Some(x)) => {
                let t = self.xsi_table(x);
                let vc = match value {
                    None => quote! { ::core::option::Option::None },
                    Some(ValueConstraint::Default(v)) => {
                        quote! { ::core::option::Option::Some(__c::ValueConstraint::Default(#v)) }
                    }
                    Some(ValueConstraint::Fixed(v)) => {
                        quote! { ::core::option::Option::Some(__c::ValueConstraint::Fixed(#v)) }
                    }
                };
                quote! { typed(#name, #min_lit, #max_lit, #vc, &#t) }
            }
            (None, None) => quote! { element(#name, #min_lit, #max_lit) },
            (Some(ValueConstraint::Default(v)), None) => {
                quote! { constrained(#name, #min_lit, #max_lit, __c::ValueConstraint::Default(#v)) }
            }
            (Some(ValueConstraint::Fixed(v)), None) => {
                quote! { constrained(#name, #min_lit, #max_lit, __c::ValueConstraint::Fixed(#v)) }
            }
        };
        let doc_text = match &e.value {
            None => doc_text,
            Some(ValueConstraint::Default(v)) => {
                format!("{doc_text}\n\nAn empty element has the schema's default: `{v}`.")
            }
            Some(ValueConstraint::Fixed(v)) => {
                format!(
                    "{doc_text}\n\nThe schema fixes its value: `{v}` (an empty element has it)."
                )
            }
        };
        let doc = doc_attrs(None, &doc_text);
        let (ty, kind) = if many {
            (quote! { ::std::vec::Vec<#rt> }, quote! { Children(#rt) })
        } else if required {
            let kind = if simple {
                quote! { Leaf(#rt) }
            } else {
                quote! { Child(#rt) }
            };
            (rt.clone(), kind)
        } else {
            let kind = if simple {
                quote! { OptLeaf(#rt) }
            } else {
                quote! { OptChild(#rt) }
            };
            (quote! { ::core::option::Option<#rt> }, kind)
        };
        FieldPlan {
            field: Some(field),
            doc,
            ty,
            required,
            table,
            kind,
        }
    }

    /// One particle of a sequence as a field plan; returns its `Item` table entry.
    pub(super) fn sequence_item(
        &mut self,
        def: &TypeDef,
        item: &Particle,
        later: Option<TokenStream>,
        names: &mut FieldNames,
        plans: &mut Vec<FieldPlan>,
    ) -> Option<TokenStream> {
        let index = plans.len();
        // A group that can be empty is optional whatever its minOccurs.
        let item = &Particle {
            min: item.reader_min(),
            max: item.max,
            term: item.term.clone(),
        };
        let required = item.min == 1 && item.max == Some(1);
        let (first, label) = match &item.term {
            Term::Element(e) => {
                plans.push(self.element_plan(e, item.min, item.max, required, names));
                (vec![e.xml_name()], format!("<{}>", e.xml_name()))
            }
            Term::Any(w) => {
                plans.push(self.wildcard_plan(w, item.min, item.max, required, names));
                (vec![w.pattern()], w.describe())
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
                let (ty, kind) = if many {
                    (
                        quote! { ::std::vec::Vec<#gident> },
                        quote! { Many(#gident) },
                    )
                } else if required {
                    (quote! { #gident }, quote! { One(#gident) })
                } else {
                    (
                        quote! { ::core::option::Option<#gident> },
                        quote! { Opt(#gident) },
                    )
                };
                plans.push(FieldPlan {
                    field: Some(field),
                    doc: quote! { #[doc = #doc_text] },
                    ty,
                    required,
                    table: quote! { group(#min_lit, #max_lit) },
                    kind,
                });
                // A name may be a wildcard's pattern.
                let firsts: Vec<String> = first
                    .iter()
                    .map(|f| boardxml::wildcards::label(f))
                    .collect();
                let label = if firsts.is_empty() {
                    "content for an empty xs:choice (which no content satisfies)".to_string()
                } else {
                    format!("one of {}", firsts.join(", "))
                };
                (first, label)
            }
        };
        let field = Literal::usize_unsuffixed(index);
        Some(match later {
            Some(later) => quote! { __c::Item::new(#field, &[#(#first),*], #label, #later) },
            None => quote! { __c::Item::nested(#field, &[#(#first),*], #label) },
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
                let mut seen = HashSet::new();
                // Variant names: one local name in two namespaces gets suffixes 2, 3, ...
                // in schema order, as fields do.
                let mut variant_names = HashSet::new();
                for item in items {
                    // A branch is taken when its first element comes, so it occurs at least
                    // once then; a branch repeated by its own maxOccurs holds every
                    // occurrence (`(a+|b)` is not `(a|b)+`).
                    let repeated = item.max != Some(1);
                    let min_lit = Literal::u32_unsuffixed(item.min.max(1));
                    let max_lit = max_tokens(item.max);
                    match &item.term {
                        Term::Element(e) => {
                            // The branch reads its element with the declaration's value
                            // constraint, as a sequence's field does.
                            let vc = match &e.value {
                                None => quote! {},
                                Some(ValueConstraint::Default(v)) => {
                                    quote! { = __c::ValueConstraint::Default(#v) }
                                }
                                Some(ValueConstraint::Fixed(v)) => {
                                    quote! { = __c::ValueConstraint::Fixed(#v) }
                                }
                            };
                            let xsi = self.xsi_suffix(e.xsi_simple.as_deref());
                            let vc = quote! { #vc #xsi };
                            if !seen.insert(e.xml_name()) {
                                self.error(
                                    def,
                                    format!("element {} appears twice in one xs:choice", e.name),
                                    None,
                                );
                                continue;
                            }
                            let v =
                                format_ident!("{}", distinct_variant(&mut variant_names, &e.name));
                            let rt = self.element_type(e, !repeated);
                            let xml = e.xml_name();
                            let n = &xml;
                            let vdoc = doc_attrs(e.doc.as_deref(), &format!("Element `{n}`."));
                            if repeated {
                                let text = format!(
                                    " Every occurrence, in order: {}..{}.",
                                    item.min.max(1),
                                    item.max.map_or("unbounded".to_string(), |m| m.to_string())
                                );
                                variants.push(
                                    quote! { #vdoc #[doc = #text] #v(::std::vec::Vec<#rt>), },
                                );
                                arms.push(quote! { #v #n [#min_lit, #max_lit] #vc });
                            } else {
                                variants.push(quote! { #vdoc #v(#rt), });
                                arms.push(quote! { #v #n #vc });
                            }
                        }
                        Term::Sequence(_) | Term::Choice(_) => {
                            let (g, _) = self.group_type(
                                def,
                                &Particle {
                                    min: 1,
                                    max: Some(1),
                                    term: item.term.clone(),
                                },
                            );
                            let gi = type_ident(&g);
                            let v = format_ident!("{}", g);
                            if repeated {
                                variants.push(quote! { #[doc = "A nested group, every occurrence in order."] #v(::std::vec::Vec<#gi>), });
                                arms.push(quote! { #v [#min_lit, #max_lit] });
                            } else {
                                variants.push(quote! { #[doc = "A nested group."] #v(#gi), });
                                arms.push(quote! { #v });
                            }
                        }
                        Term::All(_) => self.error(
                            def,
                            "xs:all inside xs:choice is not allowed (XSD 1.0)",
                            None,
                        ),
                        Term::Any(w) => {
                            let rt = self.wildcard_element_type(w);
                            let n = w.pattern();
                            let v =
                                format_ident!("{}", distinct_variant(&mut variant_names, "any"));
                            let vdoc =
                                format!(" What the wildcard (`xs:any`) takes: {}.", w.describe());
                            if repeated {
                                variants.push(quote! { #[doc = #vdoc] #v(::std::vec::Vec<#rt>), });
                                arms.push(quote! { #v #n [#min_lit, #max_lit] });
                            } else {
                                variants.push(quote! { #[doc = #vdoc] #v(#rt), });
                                arms.push(quote! { #v #n });
                            }
                        }
                    }
                }
                let doc = format!("One of the alternatives of a choice in `{}`.", def.name);
                quote! {
                    #[doc = #doc]
                    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                    pub enum #ident {
                        #(#variants)*
                    }

                    ::boardxml::choice_group!(#ident, [#(#first_lits),*], [#(#arms),*]);
                }
            }
            Term::Sequence(items) => {
                let original = items;
                let items = &flatten(items);
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
                let split = split_tokens(original, &plans);
                let decls = plans.iter().filter_map(FieldPlan::decl);
                let body = complex_impl(
                    &ident,
                    None,
                    &plans,
                    quote! { __c::Content::Sequence(&[#(#entries),*]) },
                    None,
                    None,
                );
                quote! {
                    #[doc = #doc]
                    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                    pub struct #ident {
                        #(#decls)*
                    }

                    #body

                    ::boardxml::sequence_group!(#ident, [#(#first_lits),*] #split);
                }
            }
            _ => TokenStream::new(),
        };
        self.groups.insert(name.clone(), tokens);
        (name, first)
    }
}

/// The `split ...` arguments of `sequence_group!` for a sequence (its `items`, read into
/// `plans`) whose occurrences may be split at a repeated field
/// ([`crate::ir::split_field`]), or nothing: the field's index, name and kind, and the
/// names of the fields before and after it.
fn split_tokens(items: &[Particle], plans: &[FieldPlan]) -> TokenStream {
    let fields = crate::ir::sequence_fields(items);
    let Some(k) = crate::ir::split_field(&fields) else {
        return TokenStream::new();
    };
    // One plan per field, each with a Rust field (a group holds no fixed attribute); a
    // field the generator refused has none, and the schema is not generated then.
    let idents: Option<Vec<&Ident>> = (plans.len() == fields.len())
        .then(|| plans.iter().map(|p| p.field.as_ref()).collect())
        .flatten();
    let Some(idents) = idents else {
        return TokenStream::new();
    };
    let how = if matches!(fields[k].term, Term::Element(_) | Term::Any(_)) {
        quote! { children }
    } else {
        quote! { groups }
    };
    let (index, field) = (Literal::usize_unsuffixed(k), idents[k]);
    let (before, after) = (&idents[..k], &idents[k + 1..]);
    quote! { , split #index #field #how, [#(#before),*], [#(#after),*] }
}

/// What one field of a generated struct is made of: its declaration, its entry in the
/// field table, and its kind (how the runtime reads, builds, writes and gives it as text).
pub(super) struct FieldPlan {
    /// The Rust field (`None`: a fixed required attribute, which holds nothing).
    pub(super) field: Option<Ident>,
    pub(super) doc: TokenStream,
    /// Its type in the struct.
    pub(super) ty: TokenStream,
    /// It must be given: the struct has no `Default`.
    pub(super) required: bool,
    /// Its `boardxml::complex::Field`.
    pub(super) table: TokenStream,
    /// Its `boardxml::complex::FieldKind`.
    pub(super) kind: TokenStream,
}

impl FieldPlan {
    pub(super) fn decl(&self) -> Option<TokenStream> {
        let field = self.field.as_ref()?;
        let (doc, ty) = (&self.doc, &self.ty);
        Some(quote! { #doc pub #field: #ty, })
    }
}

/// Simple content: its index in the field table, its field and the field of its form.
pub(super) struct SimpleContent {
    index: Literal,
    field: Ident,
    form: Ident,
    ty: TokenStream,
}

/// The `Complex` impl of a struct (a complex type, or a sequence group): one
/// `complex_type!` listing its tables and each field's kind once, and the expanded name
/// an `xsi:type` names the type by (`named "..."`), if it has one.
pub(super) fn complex_impl(
    ident: &Ident,
    xsi_name: Option<&str>,
    plans: &[FieldPlan],
    content: TokenStream,
    simple: Option<&SimpleContent>,
    asserts: Option<TokenStream>,
) -> TokenStream {
    let entries = plans.iter().enumerate().map(|(i, p)| {
        let i = Literal::usize_unsuffixed(i);
        let (field, kind, table) = (&p.field, &p.kind, &p.table);
        quote! { #i #field: #kind #table }
    });
    let simple = simple.map(|s| {
        let (i, field, form, ty) = (&s.index, &s.field, &s.form, &s.ty);
        quote! { , #i #field #form: #ty }
    });
    let named = xsi_name.map(|n| quote! { named #n });
    quote! {
        ::boardxml::complex_type!(#ident #named, #content, [#(#entries),*] #simple #asserts);
    }
}

/// The all group and the wildcard of a sequence of the two, the wildcard repeated
/// without bound: how `xsd/passes/open_content.rs` writes open content in suffix mode
/// after an all group.
fn all_then_suffix(items: &[Particle]) -> Option<(&Particle, &Wildcard)> {
    match items {
        [all, Particle {
            min: 0,
            max: None,
            term: Term::Any(w),
        }] if matches!(all.term, Term::All(_)) && all.max == Some(1) => Some((all, w)),
        _ => None,
    }
}

/// `maxOccurs` for the field table.
pub(super) fn max_tokens(max: Option<u32>) -> TokenStream {
    match max {
        Some(m) => {
            let m = Literal::u32_unsuffixed(m);
            quote! { #m }
        }
        None => quote! { __c::UNBOUNDED },
    }
}

/// The items of a sequence as the fields of its struct (see [`crate::ir::sequence_fields`]).
pub(super) fn flatten(items: &[Particle]) -> Vec<Particle> {
    crate::ir::sequence_fields(items)
        .into_iter()
        .cloned()
        .collect()
}

/// The elements a group can start with.
pub(super) fn first_set(p: &Particle) -> Vec<String> {
    let mut out = Vec::new();
    pub(super) fn walk(p: &Particle, out: &mut Vec<String>) -> bool {
        // Returns whether the particle can be empty (so what follows is in the first set too).
        match &p.term {
            Term::Element(e) => {
                if !out.contains(&e.xml_name()) {
                    out.push(e.xml_name());
                }
                p.min == 0
            }
            Term::Any(w) => {
                if !out.contains(&w.pattern()) {
                    out.push(w.pattern());
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

/// The declaration of the child element `local` in namespace `ns` that `content` holds (a
/// local one or a reference; the first, as Element Declarations Consistent gives all the
/// same type), walked without recursion.
#[cfg(feature = "xpath")]
fn child_declaration<'c>(
    content: &'c Content,
    local: &str,
    ns: &Option<String>,
) -> Option<&'c ElementDecl> {
    let mut stack: Vec<&Particle> = match content {
        Content::Elements(p) | Content::Mixed(p) => vec![p],
        _ => return None,
    };
    while let Some(p) = stack.pop() {
        match &p.term {
            Term::Element(e) if e.name == local && e.namespace == *ns => return Some(e),
            Term::Sequence(items) | Term::Choice(items) | Term::All(items) => {
                stack.extend(items.iter().rev())
            }
            _ => {}
        }
    }
    None
}
