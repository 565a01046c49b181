//! Simple types: restrictions (a newtype and its facets as data), enumerations, unions
//! and lists.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::*;
use boardxml::facets::{ExplicitTimezone, FACETS};

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
        let (ws, steps) =
            self.facets_table(def, r, r.facets.white_space.unwrap_or(base.white_space));
        match marker {
            // A marker type of this schema carries the facets (one Rust type bound in two
            // schemas, each with its own).
            Some(m) => {
                let mdoc = doc_attrs(def.doc.as_deref(), &format!("Schema type `{}`.", def.name));
                let shown: String = path.to_string().split_whitespace().collect();
                let note = format!(" The facets of schema type `{}`, for `{shown}`.", def.name);
                quote! {
                    #mdoc
                    #[doc = ""]
                    #[doc = #note]
                    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
                    pub struct #m;
                    ::boardxml::restricted!(#m, #ws, [#(#steps),*]);
                }
            }
            None => quote! { ::boardxml::restricted!(#path, #ws, [#(#steps),*]); },
        }
    }

    pub(super) fn restriction(&mut self, def: &TypeDef, r: &Restriction) -> TokenStream {
        let ident = self.tident(&def.name);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!(
                "Restriction of {} (schema type `{}`).",
                type_label(&r.base),
                def.name
            ),
        );
        let Some(base) = self.simple_base(&r.base) else {
            return self.derived_restriction(def, r, doc);
        };
        if base.builtin == Builtin::AnyType {
            self.error(def, "restricting xs:anyType is not supported", None);
            return TokenStream::new();
        }
        let repr = base.builtin.repr();
        let f = &r.facets;
        // Facets that make no sense for the representation are generation-time errors.
        if matches!(repr, Repr::Int(_) | Repr::Bool) && f.has_kind(FacetKind::Length) {
            self.invalid(
                def,
                "length facets on a numeric or boolean type are not supported",
                None,
            );
        }
        if matches!(repr, Repr::String | Repr::Bool)
            && (f.has_kind(FacetKind::Bounds) || f.has_kind(FacetKind::Digits))
        {
            self.invalid(
                def,
                "range facets need a numeric base type",
                Some("restrict an integer type such as xs:integer"),
            );
        }
        self.check_facet_values(def, r, base.builtin);
        if base.builtin == Builtin::Value(ValueType::Notation) {
            // Part 2, 3.2.19: a NOTATION value is the name of a declared notation.
            for text in &f.enumeration {
                let local = text.trim().rsplit(':').next().unwrap_or_default();
                if !self.schema.notations.contains(local) {
                    self.invalid(
                        def,
                        format!("the enumerated NOTATION value \"{text}\" names no notation declaration (xs:notation)"),
                        None,
                    );
                }
            }
        }
        let (ws, steps) = self.facets_table(def, r, f.white_space.unwrap_or(base.white_space));
        match repr {
            Repr::Value(v) => {
                let path = value_type_path(v);
                quote! {
                    #doc
                    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                    pub struct #ident(#path);

                    ::boardxml::value_type!(#ident, #path, #ws, [#(#steps),*]);
                }
            }
            Repr::String => quote! {
                #doc
                #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                // Kept inline up to 24 bytes (a square, a move, a colour): reading a value
                // allocates nothing.
                pub struct #ident(::boardxml::__private::CompactString);

                ::boardxml::string_type!(#ident, #ws, [#(#steps),*]);
            },
            Repr::Int(_) => match self.held_integer(r, base.builtin) {
                Some(int) => {
                    let rt = format_ident!("{}", int.rust_name());
                    let xsd = base.builtin.xsd_name();
                    quote! {
                        #doc
                        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
                        pub struct #ident(#rt);

                        ::boardxml::integer_type!(#ident, #rt, #xsd, #ws, [#(#steps),*]);
                    }
                }
                // An unbounded integer its facets leave open: held exactly.
                None => {
                    let path = integers::unbounded_path(base.builtin);
                    quote! {
                        #doc
                        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
                        pub struct #ident(#path);

                        ::boardxml::value_type!(#ident, #path, #ws, [#(#steps),*]);
                    }
                }
            },
            // A restricted boolean keeps `bool`: its patterns see the lexical form ("1" is
            // not "true" to a pattern), its enumeration the value ("1" is "true").
            Repr::Bool => quote! {
                #doc
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
                pub struct #ident(bool);

                ::boardxml::value_type!(#ident, bool, #ws, [#(#steps),*]);
            },
        }
    }

    /// A restriction of a list or a union (directly or through other restrictions): a
    /// newtype over the list's or union's type, whose own facets (patterns on the lexical
    /// form; lengths counting list items; enumeration compared as values) are checked after
    /// the base type has read the value.
    fn derived_restriction(
        &mut self,
        def: &TypeDef,
        r: &Restriction,
        doc: TokenStream,
    ) -> TokenStream {
        let ident = self.tident(&def.name);
        let Some((base_name, list)) = self.list_or_union_base(&r.base) else {
            self.error(
                def,
                format!(
                    "the base {} is not a simple type the generator knows",
                    type_label(&r.base)
                ),
                None,
            );
            return TokenStream::new();
        };
        // Part 2, 4.1.5: a list takes length, minLength, maxLength, pattern, enumeration
        // and whiteSpace (collapse); a union pattern and enumeration.
        let mut own = Vec::new();
        let mut implied = None;
        self.steps(r, &mut own, &mut implied);
        let own: Vec<Facets> = own.into_iter().map(Cow::into_owned).collect();
        let what = if list { "a list type" } else { "a union type" };
        for f in &own {
            let lengths = f.has_kind(FacetKind::Length);
            if f.has_kind(FacetKind::Bounds) || f.has_kind(FacetKind::Digits) {
                self.invalid(
                    def,
                    format!(
                        "value bounds and digit facets do not apply to {what} (XSD Part 2, 4.1.5)"
                    ),
                    None,
                );
            }
            if !list && (lengths || f.white_space.is_some()) {
                self.invalid(
                    def,
                    "length and whiteSpace facets do not apply to a union type (XSD Part 2, 4.1.5)",
                    None,
                );
            }
            if list && f.white_space.is_some_and(|w| w != WhiteSpace::Collapse) {
                self.invalid(
                    def,
                    "the whiteSpace of a list type is fixed at collapse",
                    None,
                );
            }
            for text in &f.enumeration {
                if self.literal_fits(&r.base, text) == Some(false) {
                    self.invalid(
                        def,
                        format!(
                            "the enumerated value \"{text}\" is not a value of the base type {}",
                            type_label(&r.base)
                        ),
                        None,
                    );
                }
            }
        }
        let effective = |get: fn(&Facets) -> Option<u64>| own.iter().rev().find_map(get);
        if let (Some(min), Some(max)) = (effective(|s| s.min_length), effective(|s| s.max_length)) {
            if min > max {
                self.invalid(
                    def,
                    format!("minLength {min} is above maxLength {max}"),
                    None,
                );
            }
        }
        let white_space = if self.collapses(&TypeRef::Named(base_name.clone())) {
            WhiteSpace::Collapse
        } else {
            WhiteSpace::Preserve
        };
        let (ws, steps) = self.facets_table(def, r, white_space);
        let path = self.rust_type(&TypeRef::Named(base_name));
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub struct #ident(#path);

            ::boardxml::value_type!(#ident, #path, #ws, [#(#steps),*]);
        }
    }

    /// The list or union type a chain of restrictions starts from, and whether it is a
    /// list.
    fn list_or_union_base(&self, t: &TypeRef) -> Option<(String, bool)> {
        let TypeRef::Named(n) = t else { return None };
        match &self.schema.types.get(n)?.kind {
            TypeKind::Restriction(r) => self.list_or_union_base(&r.base),
            TypeKind::List(_) => Some((n.clone(), true)),
            TypeKind::Union(_) => Some((n.clone(), false)),
            _ => None,
        }
    }

    /// Whether every value of `t` is white-space collapsed before it is read (lists always;
    /// unions when each member is).
    fn collapses(&self, t: &TypeRef) -> bool {
        if let Some(b) = self.simple_base(t) {
            return b.white_space == WhiteSpace::Collapse;
        }
        let TypeRef::Named(n) = t else { return false };
        match self.schema.types.get(n).map(|d| &d.kind) {
            Some(TypeKind::Restriction(r)) => self.collapses(&r.base),
            Some(TypeKind::List(_)) => true,
            Some(TypeKind::Union(members)) => members.iter().all(|m| self.collapses(m)),
            _ => false,
        }
    }

    /// Whether a literal is in the lexical space of `t`, as far as generation can tell
    /// (`None`: it cannot; the built-in parts are checked exactly, facets of named
    /// restrictions are not).
    fn literal_fits(&self, t: &TypeRef, text: &str) -> Option<bool> {
        if let Some(b) = self.simple_base(t) {
            if matches!(b.builtin.repr(), Repr::String) {
                return None;
            }
            return Some(crate::values::parses(b.builtin, text));
        }
        let TypeRef::Named(n) = t else { return None };
        match &self.schema.types.get(n)?.kind {
            TypeKind::Restriction(r) => self.literal_fits(&r.base, text),
            TypeKind::List(l) => {
                let mut all = Some(true);
                for item in text.split_ascii_whitespace() {
                    match self.literal_fits(&l.item, item) {
                        Some(false) => return Some(false),
                        None => all = None,
                        Some(true) => {}
                    }
                }
                all
            }
            TypeKind::Union(members) => {
                let mut any = Some(false);
                for m in members {
                    match self.literal_fits(m, text.trim()) {
                        Some(true) => return Some(true),
                        None => any = None,
                        Some(false) => {}
                    }
                }
                any
            }
            _ => None,
        }
    }

    /// The derivation steps of a restriction, base first: the bounds a built-in base
    /// implies, then each named base's own facets, then this step's.
    pub(super) fn steps<'a>(
        &'a self,
        r: &'a Restriction,
        out: &mut Vec<Cow<'a, Facets>>,
        implied: &mut Option<Facets>,
    ) {
        self.base_steps(&r.base, out, implied);
        out.push(Cow::Borrowed(&r.facets));
    }

    /// The steps of a base type (see [`Renderer::steps`]): an enumeration base is a step
    /// whose facet is its enumeration. A list or union base adds none (its type checks
    /// itself).
    fn base_steps<'a>(
        &'a self,
        base: &'a TypeRef,
        out: &mut Vec<Cow<'a, Facets>>,
        implied: &mut Option<Facets>,
    ) {
        match base {
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
            TypeRef::Named(n) => match self.schema.types.get(n).map(|d| &d.kind) {
                Some(TypeKind::Restriction(base)) => self.steps(base, out, implied),
                Some(TypeKind::Enumeration(e)) => {
                    self.base_steps(&e.base, out, implied);
                    out.push(Cow::Owned(Facets::enumerated(&e.values)));
                }
                _ => {}
            },
        }
    }

    /// A restriction's facets as data: the white space in force and every step, base first
    /// (`Step::NONE` with what the step adds).
    pub(super) fn facets_table(
        &mut self,
        def: &TypeDef,
        r: &Restriction,
        white_space: WhiteSpace,
    ) -> (Ident, Vec<TokenStream>) {
        let mut own = Vec::new();
        let mut implied = None;
        self.steps(r, &mut own, &mut implied);
        let steps: Vec<&Facets> = implied.iter().chain(own.iter().map(|f| &**f)).collect();
        // A list or union base is a value type too (its enumeration compared as values).
        let values = self.compared_as_values(r);
        let names = self.holds_names(&r.base, 0);
        // Every step restricts the same built-in, list or union: one `$value` for all.
        let asserted = steps.iter().any(|f| !f.assertions.is_empty());
        let value = asserted
            .then(|| self.assertion_value(&r.base, LEXICAL, 0))
            .flatten();
        let mut problem = None;
        if asserted {
            problem = match &value {
                None => Some(
                    "an xs:assertion on a value of this type (a QName or NOTATION, a list of lists or unions, or a union with a list or union member)"
                        .to_string(),
                ),
                // Without the `xpath` feature no assertion is read (`xsd/passes/simple.rs`).
                #[cfg(not(feature = "xpath"))]
                Some(_) => None,
                #[cfg(feature = "xpath")]
                Some(v) => steps.iter().flat_map(|f| &f.assertions).find_map(|a| {
                    let bindings = a.bindings();
                    let default = a.default_element_namespace.as_deref().unwrap_or("");
                    boardxml::facets::assertion::compile_assertion(&a.test, v, &bindings, default)
                        .err()
                        .map(|e| format!("the xs:assertion \"{}\" with $value built as {v}: {e}", a.test))
                }),
            };
        }
        let entries = steps
            .iter()
            .filter_map(|f| step(f, values, names, value.as_deref()))
            .collect();
        drop(steps);
        drop(own);
        if let Some(problem) = problem {
            self.error(def, problem, None);
        }
        (ws_ident(white_space), entries)
    }

    /// The XPath expression that builds an assertion's `$value` from `lexical` (a
    /// variable holding the white-space processed lexical form) for a value of type `t`:
    /// the constructor of the built-in it is derived from (Part 2, 4.3.13: `$value` is
    /// typed), each token of a list, or the first member of a union the form is castable
    /// to (by its built-in: a member's own facets are not asked). None where no
    /// constructor builds it (QName and NOTATION need the namespaces of the document).
    pub(super) fn assertion_value(
        &self,
        t: &TypeRef,
        lexical: &str,
        depth: usize,
    ) -> Option<String> {
        if depth > 2 {
            return None;
        }
        let mut t = t;
        // A chain of restrictions, walked with a bound (the schema's types are acyclic
        // once read, the bound guards the walk all the same).
        for _ in 0..crate::xsd::limits::MAX_REFERENCE_DEPTH {
            match t {
                TypeRef::Builtin(b) => return builtin_value(*b, lexical),
                TypeRef::Named(n) => match self.schema.types.get(n).map(|d| &d.kind)? {
                    TypeKind::Restriction(r) => t = &r.base,
                    TypeKind::Enumeration(e) => t = &e.base,
                    TypeKind::List(l) => {
                        let item = self.assertion_value(&l.item, "$t", depth + 1)?;
                        return Some(format!("for $t in tokenize({lexical}, ' ') return {item}"));
                    }
                    TypeKind::Union(members) => {
                        let mut out = format!("{XSD_TYPE}untypedAtomic({lexical})");
                        for m in members.iter().rev() {
                            let local = self.atomic_builtin(m)?;
                            out = format!(
                                "if ({lexical} castable as {XSD_TYPE}{local}) then {XSD_TYPE}{local}({lexical}) else ({out})"
                            );
                        }
                        return Some(out);
                    }
                    _ => return None,
                },
            }
        }
        None
    }

    /// The local name of the atomic built-in `t` is derived from (None: a list, a union,
    /// QName or NOTATION).
    fn atomic_builtin(&self, t: &TypeRef) -> Option<&'static str> {
        let mut t = t;
        for _ in 0..crate::xsd::limits::MAX_REFERENCE_DEPTH {
            match t {
                TypeRef::Builtin(b) => {
                    let local = b.xsd_name().strip_prefix("xs:")?;
                    return (!matches!(
                        b,
                        Builtin::Value(
                            ValueType::QName
                                | ValueType::Notation
                                | ValueType::NmTokens
                                | ValueType::IdRefs
                                | ValueType::Entities
                                | ValueType::AnySimpleType
                        ) | Builtin::AnyType
                    ))
                    .then_some(local);
                }
                TypeRef::Named(n) => match self.schema.types.get(n).map(|d| &d.kind)? {
                    TypeKind::Restriction(r) => t = &r.base,
                    TypeKind::Enumeration(e) => t = &e.base,
                    _ => return None,
                },
            }
        }
        None
    }

    /// Generation-time checks of a restriction's facets (each a located schema error):
    /// facets the base does not take, values outside the base's lexical space, bounds that
    /// contradict each other or the base's (Part 2, 4.3), length against minLength and
    /// maxLength, fractionDigits above totalDigits.
    fn check_facet_values(&mut self, def: &TypeDef, r: &Restriction, builtin: Builtin) {
        let f = &r.facets;
        let xsd = builtin.xsd_name();
        if let Builtin::Value(v) = builtin {
            // Each family once, in the table's order.
            let mut refused: Vec<FacetKind> = Vec::new();
            for d in FACETS
                .iter()
                .filter(|d| f.has(d.facet) && !v.allows(d.kind))
            {
                if !refused.contains(&d.kind) {
                    refused.push(d.kind);
                }
            }
            for kind in refused {
                self.invalid(
                    def,
                    format!(
                        "{} does not apply to {xsd} (XSD Part 2, 4.1.5)",
                        kind.label()
                    ),
                    None,
                );
            }
            if f.white_space.is_some_and(|w| w != WhiteSpace::Collapse) {
                self.invalid(
                    def,
                    format!("the whiteSpace of {xsd} is fixed at collapse"),
                    None,
                );
            }
        }
        if matches!(builtin.repr(), Repr::Int(_)) && f.fraction_digits.is_some_and(|d| d != 0) {
            self.invalid(def, format!("fractionDigits of {xsd} is fixed at 0"), None);
        }
        for (kind, text) in &f.bounds {
            if !crate::values::parses(builtin, text) {
                self.invalid(
                    def,
                    format!("{} \"{text}\" is not a value of {xsd}", kind.xsd_name()),
                    matches!(builtin.repr(), Repr::Int(_))
                        .then_some("an integer within the range of the base type"),
                );
            }
        }
        for text in &f.enumeration {
            if !crate::values::parses(builtin, text) {
                self.invalid(
                    def,
                    format!("the enumerated value \"{text}\" is not a value of {xsd}"),
                    None,
                );
            }
        }
        // Bounds against each other: within this step, and this step's against its bases'.
        let mut own = Vec::new();
        let mut implied = None;
        self.steps(r, &mut own, &mut implied);
        let own: Vec<Facets> = own.into_iter().map(Cow::into_owned).collect();
        let bases: Vec<(BoundKind, String)> = own[..own.len() - 1]
            .iter()
            .flat_map(|s| s.bounds.iter().cloned())
            .collect();
        use boardxml::facets::Bound::*;
        let count = |k: BoundKind| f.bounds.iter().filter(|(b, _)| *b == k).count();
        if count(MinInclusive) + count(MinExclusive) > 1
            || count(MaxInclusive) + count(MaxExclusive) > 1
        {
            self.invalid(
                def,
                "a step may have one lower bound (minInclusive or minExclusive) and one upper bound (maxInclusive or maxExclusive)",
                None,
            );
        }
        let cmp = |a: &str, b: &str| crate::values::compare(builtin, a, b);
        for (lo_kind, lo) in f
            .bounds
            .iter()
            .filter(|(k, _)| matches!(k, MinInclusive | MinExclusive))
        {
            for (hi_kind, hi) in f
                .bounds
                .iter()
                .filter(|(k, _)| matches!(k, MaxInclusive | MaxExclusive))
            {
                let o = cmp(lo, hi);
                // Part 2, 4.3.7.4 - 4.3.10.4: min <= max, strictly when either is exclusive.
                let bad = match (lo_kind, hi_kind) {
                    (MinInclusive, MaxInclusive) => o == Some(Ordering::Greater),
                    _ => matches!(o, Some(Ordering::Greater | Ordering::Equal)),
                };
                if bad {
                    self.invalid(
                        def,
                        format!(
                            "{} \"{lo}\" is above {} \"{hi}\": no value is in the range",
                            lo_kind.xsd_name(),
                            hi_kind.xsd_name()
                        ),
                        None,
                    );
                }
            }
        }
        // A step's bound may not loosen its bases' (Part 2, 4.3.7.4: a derived minInclusive
        // below the base's minInclusive, ...).
        for (kind, value) in &f.bounds {
            for (base_kind, base) in &bases {
                let o = cmp(value, base);
                let loosens = match (kind, base_kind) {
                    (MinInclusive | MinExclusive, MinInclusive) => o == Some(Ordering::Less),
                    (MinInclusive, MinExclusive) => {
                        matches!(o, Some(Ordering::Less | Ordering::Equal))
                    }
                    (MinExclusive, MinExclusive) => o == Some(Ordering::Less),
                    (MaxInclusive | MaxExclusive, MaxInclusive) => o == Some(Ordering::Greater),
                    (MaxInclusive, MaxExclusive) => {
                        matches!(o, Some(Ordering::Greater | Ordering::Equal))
                    }
                    (MaxExclusive, MaxExclusive) => o == Some(Ordering::Greater),
                    _ => false,
                };
                if loosens {
                    self.invalid(
                        def,
                        format!(
                            "{} \"{value}\" is outside the base type's {} \"{base}\"",
                            kind.xsd_name(),
                            base_kind.xsd_name()
                        ),
                        None,
                    );
                }
            }
        }
        // The built-in bounds of integer types hold for each step's bounds too (Part 2,
        // 4.3.7.4 - 4.3.10.4: positiveInteger's minInclusive 1 is a facet of every type
        // derived from it, so maxExclusive 1 leaves no value).
        if let Some(implied) = &implied {
            for (kind, value) in &f.bounds {
                let against = |limit: Option<i128>| {
                    limit.and_then(|l| crate::values::compare(builtin, value, &l.to_string()))
                };
                let empty = match kind {
                    MaxExclusive => {
                        matches!(against(implied.min), Some(Ordering::Less | Ordering::Equal))
                    }
                    MaxInclusive => against(implied.min) == Some(Ordering::Less),
                    MinExclusive => matches!(
                        against(implied.max),
                        Some(Ordering::Greater | Ordering::Equal)
                    ),
                    MinInclusive => against(implied.max) == Some(Ordering::Greater),
                };
                if empty {
                    self.invalid(
                        def,
                        format!("{} \"{value}\" leaves no value of {xsd}", kind.xsd_name()),
                        None,
                    );
                }
            }
        }
        // Lengths (Part 2, 4.3.1.4, 4.3.2.4, 4.3.3.4). The list built-ins carry minLength 1
        // (NMTOKENS, IDREFS, ENTITIES: Part 2, 3.3.5, 3.3.10, 3.3.12).
        let builtin_min_length = matches!(
            builtin,
            Builtin::Value(ValueType::NmTokens | ValueType::IdRefs | ValueType::Entities)
        )
        .then_some(1u64);
        let below = &own[..own.len() - 1];
        let inherited = |get: fn(&Facets) -> Option<u64>| below.iter().rev().find_map(get);
        let base_min = inherited(|s| s.min_length).or(builtin_min_length);
        let base_max = inherited(|s| s.max_length);
        let base_length = inherited(|s| s.length);
        if let Some(l) = f.length {
            // Beside length, a minLength or maxLength is allowed only as a restatement of
            // the base's, where the base has no length (the WG's special case, W3C bug
            // 6446: NMTOKENS' minLength 1 restated).
            let restated = |own: Option<u64>, base: Option<u64>| own.is_none() || own == base;
            let restatement = base_length.is_none()
                && restated(f.min_length, base_min)
                && restated(f.max_length, base_max)
                && f.min_length.is_none_or(|m| m <= l)
                && f.max_length.is_none_or(|m| l <= m);
            if (f.min_length.is_some() || f.max_length.is_some()) && !restatement {
                self.invalid(
                    def,
                    "length together with minLength or maxLength in one step",
                    Some("XSD Part 2, 4.3.1.4: give either the length or its bounds"),
                );
            }
            if let Some(b) = base_length.filter(|&b| b != l) {
                self.invalid(
                    def,
                    format!("length {l} differs from the base type's length {b}"),
                    None,
                );
            }
        }
        // A restriction may not widen its base's bounds (minLength-valid-restriction,
        // maxLength-valid-restriction).
        if let (Some(m), Some(b)) = (f.min_length, base_min) {
            if m < b {
                self.invalid(
                    def,
                    format!("minLength {m} is below the base type's minLength {b}"),
                    None,
                );
            }
        }
        if let (Some(m), Some(b)) = (f.max_length, base_max) {
            if m > b {
                self.invalid(
                    def,
                    format!("maxLength {m} is above the base type's maxLength {b}"),
                    None,
                );
            }
        }
        let effective = |get: fn(&Facets) -> Option<u64>| own.iter().rev().find_map(get);
        let (length, min_length, max_length) = (
            effective(|s| s.length),
            effective(|s| s.min_length).or(builtin_min_length),
            effective(|s| s.max_length),
        );
        if let (Some(min), Some(max)) = (min_length, max_length) {
            if min > max {
                self.invalid(
                    def,
                    format!("minLength {min} is above maxLength {max}"),
                    None,
                );
            }
        }
        if let Some(l) = length {
            if min_length.is_some_and(|m| l < m) || max_length.is_some_and(|m| l > m) {
                self.invalid(
                    def,
                    format!("length {l} is outside the base's minLength and maxLength"),
                    None,
                );
            }
        }
        let total = effective(|s| s.total_digits.map(u64::from));
        let fraction = effective(|s| s.fraction_digits.map(u64::from));
        if let (Some(t), Some(fr)) = (total, fraction) {
            if fr > t {
                self.invalid(
                    def,
                    format!("fractionDigits {fr} is above totalDigits {t}"),
                    None,
                );
            }
        }
    }

    pub(super) fn enumeration(&mut self, def: &TypeDef, e: &Enumeration) -> TokenStream {
        let ident = self.tident(&def.name);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!("Enumeration (schema type `{}`).", def.name),
        );
        let as_restriction = |e: &Enumeration| Restriction {
            base: e.base.clone(),
            facets: Facets::enumerated(&e.values),
        };
        let Some(base) = self.simple_base(&e.base) else {
            // An enumeration of list or union values: compared as values of that type.
            return self.restriction(def, &as_restriction(e));
        };
        // An enumeration of an enumeration: both sets must hold (a value outside the
        // base's set is no value of the base), so a newtype checked against both steps.
        let mut base_steps = Vec::new();
        self.base_steps(&e.base, &mut base_steps, &mut None);
        let enumerated_base = base_steps.iter().any(|f| !f.enumeration.is_empty());
        let listed: Vec<&str> = e.values.iter().map(|v| v.value.as_str()).collect();
        let held = self.enumerated_integer(base.builtin, &listed);
        if enumerated_base
            || matches!(base.builtin.repr(), Repr::Value(_) | Repr::Bool)
            || (matches!(base.builtin.repr(), Repr::Int(_)) && held.is_none())
        {
            // Values compared in the value space (`1.0` is `1`, `1` is `true`), not matched
            // as text: a newtype checked against the enumeration, not a Rust enum.
            return self.restriction(def, &as_restriction(e));
        }
        // An enumeration may list a value twice (or as "1" and "01"): one variant each.
        let mut seen = HashSet::new();
        let unique: Vec<&EnumValue> = e
            .values
            .iter()
            .filter(|v| {
                let key = match base.builtin.repr() {
                    Repr::Int(_) => v
                        .value
                        .trim()
                        .parse::<i128>()
                        .map_or(v.value.clone(), |i| i.to_string()),
                    _ => match base.white_space {
                        WhiteSpace::Preserve => v.value.clone(),
                        WhiteSpace::Replace => {
                            boardxml::schema::whitespace::replace(&v.value).into_owned()
                        }
                        WhiteSpace::Collapse => {
                            boardxml::schema::whitespace::collapse(&v.value).into_owned()
                        }
                    },
                };
                seen.insert(key)
            })
            .collect();
        let mut names = HashSet::new();
        let variants: Vec<Ident> = unique
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
        let values: Vec<&str> = unique.iter().map(|v| v.value.as_str()).collect();
        let docs: Vec<TokenStream> = unique
            .iter()
            .map(|v| doc_attrs(v.doc.as_deref(), &format!("`{}`", v.value)))
            .collect();
        let how = match held {
            Some(int) => {
                let parsed: Vec<i128> = values
                    .iter()
                    .map(|v| v.trim().parse::<i128>().unwrap_or(i128::MIN))
                    .collect();
                if parsed.contains(&i128::MIN) {
                    self.invalid(
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
                quote! { integer #rt #xsd, [#(#variants #lits #values),*] }
            }
            _ => {
                let ws = ws_ident(base.white_space);
                quote! { #ws, [#(#variants #values),*] }
            }
        };
        quote! {
            #doc
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #ident {
                #(#docs #variants,)*
            }

            ::boardxml::enumeration!(#ident, #how);
        }
    }

    pub(super) fn union(&mut self, def: &TypeDef, members: &[TypeRef]) -> TokenStream {
        let ident = self.tident(&def.name);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!(
                "Union (schema type `{}`): the first member type that accepts a value takes it.",
                def.name
            ),
        );
        // A member type named twice is one member: the second could take no value the
        // first refused (the W3C suite's particlesZ007 names xs:gYear twice).
        let mut unique: Vec<&TypeRef> = Vec::new();
        for m in members {
            if !unique.contains(&m) {
                unique.push(m);
            }
        }
        let mut seen = HashSet::new();
        let mut variants = Vec::new();
        let mut types = Vec::new();
        for &m in &unique {
            let name = match m {
                TypeRef::Builtin(b) => variant_name(b.xsd_name().trim_start_matches("xs:")),
                TypeRef::Named(n) => self.tident(n).to_string(),
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
        let labels: Vec<String> = unique.iter().map(|m| type_label(m).to_string()).collect();
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub enum #ident {
                #(
                    #[doc = concat!("A value of the member type ", stringify!(#variants), ".")]
                    #variants(#types),
                )*
            }

            ::boardxml::union_type!(#ident, [#(#labels),*], [#(#variants),*]);
        }
    }

    pub(super) fn list(&mut self, def: &TypeDef, l: &ListType) -> TokenStream {
        let ident = self.tident(&def.name);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!(
                "List of {} separated by white space (schema type `{}`).",
                type_label(&l.item),
                def.name
            ),
        );
        let item = self.rust_type(&l.item);
        let length = step(
            &Facets {
                length: l.facets.length,
                min_length: l.facets.min_length,
                max_length: l.facets.max_length,
                ..Facets::default()
            },
            false,
            false,
            None,
        )
        .unwrap_or_else(|| quote! { __f::Step::NONE });
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub struct #ident(::std::vec::Vec<#item>);

            ::boardxml::list_type!(#ident, #item, #length);
        }
    }
}

impl Renderer<'_> {
    /// Whether values of `t` hold QNames or NOTATIONs (themselves, or as list items or
    /// union members): values whose meaning depends on the namespace declarations where
    /// they are written, so that the schema's enumerated values carry theirs.
    pub(super) fn holds_names(&self, t: &TypeRef, depth: usize) -> bool {
        // Simple types cannot contain themselves (a schema error caught before); the depth
        // only guards against a bug.
        if depth > 64 {
            return false;
        }
        match t {
            TypeRef::Builtin(b) => {
                matches!(b, Builtin::Value(ValueType::QName | ValueType::Notation))
            }
            TypeRef::Named(n) => match self.schema.types.get(n).map(|d| &d.kind) {
                Some(TypeKind::Restriction(r)) => self.holds_names(&r.base, depth + 1),
                Some(TypeKind::Enumeration(e)) => self.holds_names(&e.base, depth + 1),
                Some(TypeKind::List(l)) => self.holds_names(&l.item, depth + 1),
                Some(TypeKind::Union(members)) => {
                    members.iter().any(|m| self.holds_names(m, depth + 1))
                }
                _ => false,
            },
        }
    }
}

/// The variable that holds a value's lexical form in an assertion's expression
/// (`boardxml::facets::assertion`).
pub(super) const LEXICAL: &str = "$Q{urn:boardxml:assertion}lexical";

/// The XSD namespace as an XPath 3.0 EQName prefix: a constructor named so does not
/// depend on the prefixes the schema binds.
const XSD_TYPE: &str = "Q{http://www.w3.org/2001/XMLSchema}";

/// `$value` of a built-in type from `lexical` (see [`Renderer::assertion_value`]).
fn builtin_value(b: Builtin, lexical: &str) -> Option<String> {
    let item = match b {
        Builtin::Value(ValueType::NmTokens) => "NMTOKEN",
        Builtin::Value(ValueType::IdRefs) => "IDREF",
        Builtin::Value(ValueType::Entities) => "ENTITY",
        Builtin::Value(ValueType::QName | ValueType::Notation) => return None,
        // No type to construct: the form as XPath's untyped value.
        Builtin::Value(ValueType::AnySimpleType) | Builtin::AnyType => {
            return Some(format!("{XSD_TYPE}untypedAtomic({lexical})"))
        }
        _ => {
            let local = b.xsd_name().strip_prefix("xs:")?;
            return Some(format!("{XSD_TYPE}{local}({lexical})"));
        }
    };
    Some(format!(
        "for $t in tokenize({lexical}, ' ') return {XSD_TYPE}{item}($t)"
    ))
}

/// One derivation step as `Step::NONE` with what it adds (`None`: it adds nothing).
/// `names`: the type holds QNames, so each enumerated value carries the namespace
/// bindings it relies on.
/// `values`: the base is a value type, whose bounds, fraction digits and enumeration are
/// compared in its value space (an integer base has them folded into `min`/`max`).
/// `value`: the expression that builds its assertions' `$value` (none: it has none, or the
/// caller reports them as not supported).
pub(super) fn step(
    f: &Facets,
    values: bool,
    names: bool,
    value: Option<&str>,
) -> Option<TokenStream> {
    let mut calls = Vec::new();
    if !f.patterns.is_empty() {
        let rust = f.patterns.iter().map(|p| p.rust.as_str());
        let xsd = f.patterns.iter().map(|p| p.xsd.as_str());
        calls.push(quote! { patterns(::boardxml::patterns!(#(#rust),*), &[#(#xsd),*]) });
    }
    let i128s = if values {
        [("min", None), ("max", None)]
    } else {
        [("min", f.min), ("max", f.max)]
    };
    for (name, v) in i128s {
        if let Some(v) = v {
            let (name, l) = (format_ident!("{}", name), Literal::i128_unsuffixed(v));
            calls.push(quote! { #name(#l) });
        }
    }
    if let Some(d) = f.total_digits {
        let l = Literal::u32_unsuffixed(d);
        calls.push(quote! { total_digits(#l) });
    }
    let u64s = [
        ("length", f.length),
        ("min_length", f.min_length),
        ("max_length", f.max_length),
    ];
    for (name, v) in u64s {
        if let Some(v) = v {
            let (name, l) = (format_ident!("{}", name), Literal::u64_unsuffixed(v));
            calls.push(quote! { #name(#l) });
        }
    }
    if values && !f.bounds.is_empty() {
        let bounds = f.bounds.iter().map(|(k, v)| {
            // The generated code names the runtime's own variant.
            let k = format_ident!("{k:?}");
            quote! { (__f::Bound::#k, #v) }
        });
        calls.push(quote! { bounds(&[#(#bounds),*]) });
    }
    if let Some(d) = f.fraction_digits.filter(|_| values) {
        let l = Literal::u32_unsuffixed(d);
        calls.push(quote! { fraction_digits(#l) });
    }
    if !f.enumeration.is_empty() {
        let e = &f.enumeration;
        calls.push(quote! { enumeration(&[#(#e),*]) });
        if names && f.enumeration_scopes.iter().any(|s| !s.is_empty()) {
            let scopes = f.enumeration_scopes.iter().map(|s| {
                let pairs = s.iter().map(|(p, ns)| quote! { (#p, #ns) });
                quote! { &[#(#pairs),*] }
            });
            calls.push(quote! { scopes(&[#(#scopes),*]) });
        }
    }
    // `optional` is what the primitives already allow: no check to make.
    let zone = f
        .explicit_timezone
        .filter(|&t| values && t != ExplicitTimezone::Optional);
    if let Some(t) = zone {
        let t = format_ident!("{t:?}");
        calls.push(quote! { explicit_timezone(__f::ExplicitTimezone::#t) });
    }
    if let Some(value) = value.filter(|_| !f.assertions.is_empty()) {
        let each = f.assertions.iter().map(|a| {
            let test = &a.test;
            let namespaces = a.namespaces.iter().map(|(p, ns)| quote! { (#p, #ns) });
            let default = a.default_element_namespace.as_deref().unwrap_or("");
            quote! { __f::Assertion::new(#test, #value, &[#(#namespaces),*], #default) }
        });
        calls.push(quote! { assertions(&[#(#each),*]) });
    }
    (!calls.is_empty()).then(|| quote! { __f::Step::NONE #(.#calls)* })
}

pub(super) fn ws_ident(ws: WhiteSpace) -> Ident {
    format_ident!(
        "{}",
        match ws {
            WhiteSpace::Preserve => "Preserve",
            WhiteSpace::Replace => "Replace",
            WhiteSpace::Collapse => "Collapse",
        }
    )
}
