//! Rendering: IR -> Rust tokens (quote) -> `syn::File` -> text (prettyplease).
//!
//! Generated code names everything by absolute path (`::core::option::Option`,
//! `::boardxml::...`, or the runtime's modules by the aliases `__c`, `__f`, `__s`, `__x` the
//! file declares), so schema types called `Option`, `Result` or `String` cannot shadow
//! what the code means. The reading and writing skeletons are the runtime's macros
//! (`complex_type!`, `enumeration!`, ...): a generated file is the types, their
//! documentation, their facets and their tables. Items come out in `BTreeMap` order, so output is deterministic.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use proc_macro2::{Ident, Literal, Span as PmSpan, TokenStream};
use quote::{format_ident, quote};

use crate::diagnostic::Kind;
use crate::ir::*;

mod alternatives;
mod any_element;
mod any_type;
mod complex;
mod docs;
mod holding;
mod identity;
mod integers;
mod mixed;
mod mixed_general;
pub(crate) mod names;
mod namespaces;
mod nillable;
mod shapes;
mod simple;
mod type_substitution;
mod wildcard;

use docs::*;
use names::*;

/// A problem found while rendering (the IR is consistent but asks for something the
/// generator cannot express).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderError {
    /// The type concerned.
    pub type_name: String,
    /// Where it is defined.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// A hint.
    pub hint: Option<String>,
    /// Invalid schema or unsupported construct.
    pub kind: Kind,
}

/// Schema simple types bound to types the user (or the runtime) already has, by schema type
/// name: the Rust path each is read into (as prost-build's `extern_path`). The bound type
/// implements `SimpleValue` and `Element` itself and checks the schema's facets, which
/// the generator writes for it as data (`facets::Restricted`); no newtype is generated.
pub type Externs = BTreeMap<String, String>;

/// The binding that gives a schema a visitor instead of binding a type: `cif.xsd @visitor`
/// generates a `Visitor` trait and a `visit` function for `cif.xsd`, and hands each element
/// read to the reader's observer (`boardxml::xml::Observer::element`), which dispatches
/// through `visit`.
pub const VISITOR_BINDING: &str = "@visitor";

/// What a binding writes for the marker type of a schema type's facets.
const FACETS_MARKER: &str = "{facets}";

/// The marker type that carries the facets of schema type `name` for a bound type.
fn facets_marker(name: &str) -> Ident {
    format_ident!("{}Facets", type_ident_name(name))
}

/// Renders one schema to formatted Rust source. `source_name` is named in the header.
/// Values in the schema are read by the lexical spaces of the edition it was read as.
pub fn render(
    schema: &Schema,
    source_name: &str,
    externs: &Externs,
) -> Result<String, Vec<RenderError>> {
    boardxml::datatypes::with_edition(schema.xsd_1_1, || render_here(schema, source_name, externs))
}

fn render_here(
    schema: &Schema,
    source_name: &str,
    externs: &Externs,
) -> Result<String, Vec<RenderError>> {
    let mut externs_parsed = BTreeMap::new();
    let mut errors = Vec::new();
    // Not a type: whether this schema has a visitor.
    let visitor = externs.contains_key(VISITOR_BINDING);
    for (name, path) in externs.iter().filter(|(n, _)| *n != VISITOR_BINDING) {
        // `{facets}` in a binding names the marker type that carries this schema's facets
        // (one Rust type bound in two schemas, each with facets of its own).
        let marker = (path.contains(FACETS_MARKER)).then(|| facets_marker(name));
        let expanded = match &marker {
            Some(m) => path.replace(FACETS_MARKER, &m.to_string()),
            None => path.clone(),
        };
        match (
            schema.types.get(name),
            syn::parse_str::<syn::Type>(&expanded),
        ) {
            (Some(_), Ok(p)) => {
                externs_parsed.insert(name.clone(), (quote! { #p }, marker));
            }
            (None, _) => errors.push(RenderError {
                type_name: name.clone(),
                span: Span::default(),
                message: format!("a binding names type {name}, which the schema does not define"),
                hint: None,
                kind: Kind::Io,
            }),
            (_, Err(e)) => errors.push(RenderError {
                type_name: name.clone(),
                span: schema.types[name].span,
                message: format!("the binding's Rust path {path:?} is not a path: {e}"),
                hint: None,
                kind: Kind::Io,
            }),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let idents = rust_names(schema);
    let mut r = Renderer {
        schema,
        externs: externs_parsed,
        errors: Vec::new(),
        groups: BTreeMap::new(),
        used_names: idents.values().cloned().collect(),
        idents,
        holding: holding::Holding::new(schema, &by_value_edges(schema)),
        current: String::new(),
        visitor,
        visited: Vec::new(),
        visitor_methods: FieldNames::default(),
        shapes: HashSet::new(),
        global_attributes: None,
        global_elements: None,
        xsi_tables: BTreeMap::new(),
        xsi_table_items: Vec::new(),
        known_types: BTreeMap::new(),
        last_complex: None,
        any_type_child: (format_ident!("AnyTypeChild"), std::cell::Cell::new(false)),
        xsi_names: xsi_type_names(schema),
        passes_on: schema
            .types
            .values()
            .any(|t| matches!(t.kind, TypeKind::Alternatives(_))),
    };
    // Reserved now, emitted after the types if one holds xs:anyType content.
    let any_type_child = r.fresh_name("AnyTypeChild");
    r.any_type_child.0 = type_ident(&any_type_child);
    // The shapes of an element typed by alternatives are read as that element and visited
    // as it: no visitor method of their own.
    for def in schema.types.values() {
        if let TypeKind::Alternatives(alts) = &def.kind {
            for a in alts {
                if let TypeRef::Named(n) = &a.type_ref {
                    let ident = r
                        .idents
                        .get(n)
                        .cloned()
                        .unwrap_or_else(|| type_ident_name(n));
                    r.shapes.insert(ident);
                }
            }
        }
    }
    let mut items = Vec::new();
    let mut complex = Vec::new();
    for def in schema.types.values() {
        let tokens = r.type_def(def);
        if let Some(mut c) = r.last_complex.take() {
            c.index = items.len();
            complex.push(c);
        }
        items.push(tokens);
    }
    shapes::share(&mut items, complex);
    items.push(r.root());
    if r.any_type_child.1.get() {
        r.any_type_child_type(any_type_child);
    }
    // Group types are created while rendering complex types; emit them in name order.
    let groups: Vec<TokenStream> = std::mem::take(&mut r.groups).into_values().collect();
    items.extend(groups);
    items.append(&mut r.xsi_table_items);
    if r.visitor {
        let (types, methods): (Vec<_>, Vec<_>) = r.visited.iter().cloned().unzip();
        let indices = (0..types.len()).map(proc_macro2::Literal::usize_unsuffixed);
        items.push(quote! { ::boardxml::visitor!([#(#indices #types #methods),*]); });
    }
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let header = format!(
        "// @generated by boardxml-codegen from {source_name}. Do not edit: edit the schema and\n// run `cargo run -p boardxml-codegen` (see README.md)."
    );
    let mut doc_lines = schema
        .doc
        .as_deref()
        .map_or_else(Vec::new, |d| markdown_lines(d, true));
    doc_lines.extend(bound_types_doc(schema, &r.externs));
    let doc = quote! { #(#![doc = #doc_lines])* };
    // Short names for the runtime's modules, so that lines stop wrapping; only those the
    // file uses (no schema type is named with a leading `__`, so none is shadowed).
    let body: TokenStream = quote! { #(#items)* };
    let text = body.to_string();
    let aliases = [
        ("__c", "complex"),
        ("__f", "facets"),
        ("__s", "schema"),
        ("__x", "xml"),
    ]
    .into_iter()
    .filter(|(alias, _)| text.contains(&format!("{alias} ::")))
    .map(|(alias, module)| {
        let (alias, module) = (format_ident!("{}", alias), format_ident!("{}", module));
        quote! { use ::boardxml::#module as #alias; }
    });
    let file: TokenStream = quote! {
        #doc
        #(#aliases)*
        #body
    };
    let mut parsed: syn::File = match syn::parse2(file) {
        Ok(f) => f,
        Err(e) => {
            return Err(vec![RenderError {
                type_name: String::new(),
                span: Span::default(),
                message: format!("internal error: generated tokens do not parse: {e}"),
                hint: None,
                kind: Kind::Unsupported,
            }])
        }
    };
    // Every doc comment at once, whichever part of the schema its text came from.
    syn::visit_mut::VisitMut::visit_file_mut(&mut docs::VisibleDocs::default(), &mut parsed);
    Ok(format!("{header}\n\n{}", prettyplease::unparse(&parsed)))
}

struct Renderer<'s> {
    schema: &'s Schema,
    /// Bound types: schema name -> the Rust type, and the marker type that carries the
    /// facets when the binding names one (`{facets}`).
    externs: BTreeMap<String, (TokenStream, Option<Ident>)>,
    errors: Vec<RenderError>,
    /// Synthesised group types (choice enums, repeated sequences, mixed content), by name.
    groups: BTreeMap<String, TokenStream>,
    used_names: HashSet<String>,
    /// Whether the bindings give this schema a visitor (`SCHEMA-FILE @visitor`).
    visitor: bool,
    /// The element types visited, with their methods, in the order rendered.
    visited: Vec<(Ident, Ident)>,
    visitor_methods: FieldNames,
    /// The types that are shapes of an element typed by alternatives.
    shapes: HashSet<String>,
    /// The Rust name of each schema type (see [`rust_names`]).
    idents: BTreeMap<String, String>,
    /// Which single fields are boxed.
    holding: holding::Holding,
    /// The schema type being rendered (its nested group types included).
    current: String,
    /// Whether elements pass their inheritable attributes on: only type alternatives read
    /// them, so without any an inheritable attribute is rendered as any other.
    passes_on: bool,
    /// The type that checks values against the schema's global attribute declarations,
    /// once an attribute wildcard needs it.
    global_attributes: Option<Ident>,
    /// The schema's enum of its global elements, once a wildcard takes them.
    global_elements: Option<Ident>,
    /// What `xsi:type` may name on elements of simple declared types: one table per
    /// declared type and `block`, by its constant's name, and the constants rendered.
    xsi_tables: BTreeMap<SimpleSubstitution, Ident>,
    xsi_table_items: Vec<TokenStream>,
    /// The complex type `type_def` rendered last, for `shapes::share`.
    last_complex: Option<shapes::ComplexItem>,
    /// The constants listing the schema's named types, by their list.
    known_types: BTreeMap<Vec<String>, Ident>,
    /// The name of the schema's one enum of what `xs:anyType` content holds (see
    /// `render/any_type.rs`), and whether a type held as `xs:anyType` content needs it.
    any_type_child: (Ident, std::cell::Cell<bool>),
    /// The expanded name an `xsi:type` names each complex type by (see
    /// [`xsi_type_names`]).
    xsi_names: BTreeMap<String, String>,
}

/// The expanded name of each complex type that an element's `xsi:type` may name as its
/// own declared type (a type always stands in for itself: XSD 1.0 Part 1, 3.3.4
/// cvc-elt.4.3 with 3.4.6 Type Derivation OK (Complex) 1): the named types that are not
/// abstract, and the types standing for one of them, which are the copies an element's
/// identity constraints get and the attributes-only companions of nil elements.
fn xsi_type_names(schema: &Schema) -> BTreeMap<String, String> {
    let mut names: BTreeMap<String, String> = schema
        .root_types
        .iter()
        .filter_map(|(expanded, t)| match t {
            TypeRef::Named(key) => Some((key.clone(), expanded.clone())),
            TypeRef::Builtin(_) => None,
        })
        .collect();
    let copies = schema
        .identity
        .iter()
        .filter_map(|(key, table)| Some((key, table.copy_of.as_ref()?)));
    let copies: Vec<(String, String)> = copies
        .filter_map(|(key, original)| Some((key.clone(), names.get(original)?.clone())))
        .collect();
    names.extend(copies);
    let companions: Vec<(String, String)> = schema
        .nil_attributes
        .iter()
        .filter_map(|(key, companion)| Some((companion.clone(), names.get(key)?.clone())))
        .collect();
    names.extend(companions);
    names
}

/// The types each type holds by value: an element field or choice variant that is neither
/// repeated nor inside a repeated group, and the types of alternatives. A type that reaches
/// itself through these would have infinite size; the fields on the cycle are boxed
/// ([`holding`]).
fn by_value_edges(schema: &Schema) -> BTreeMap<String, BTreeSet<String>> {
    fn walk(p: &Particle, out: &mut BTreeSet<String>) {
        if p.max != Some(1) {
            return;
        }
        match &p.term {
            Term::Element(e) => {
                if let TypeRef::Named(n) = &e.type_ref {
                    out.insert(n.clone());
                }
            }
            Term::Sequence(v) | Term::Choice(v) | Term::All(v) => {
                v.iter().for_each(|i| walk(i, out))
            }
            // What a wildcard takes is held boxed (render/wildcard.rs).
            Term::Any(_) => {}
        }
    }
    let mut edges = BTreeMap::new();
    for (name, def) in &schema.types {
        let mut out = BTreeSet::new();
        match &def.kind {
            TypeKind::Complex(c) => {
                if let Content::Elements(p) = &c.content {
                    walk(p, &mut out);
                }
            }
            TypeKind::Alternatives(alts) => {
                for a in alts {
                    if let TypeRef::Named(n) = &a.type_ref {
                        out.insert(n.clone());
                    }
                }
            }
            // An enum holds each type xsi:type may choose by value.
            TypeKind::Substitution(s) => {
                for t in std::iter::once(&s.declared).chain(s.members.iter().map(|(_, t)| t)) {
                    if let TypeRef::Named(n) = t {
                        out.insert(n.clone());
                    }
                }
            }
            _ => {}
        }
        edges.insert(name.clone(), out);
    }
    edges
}

/// The Rust name of each schema type: its name in PascalCase, and where distinct XSD names
/// map to one Rust name (`foo-bar`, `foo.bar`, `fooBar`), the first in XSD name order keeps
/// it and the others get the smallest suffix 2, 3, ... that no other type's name takes
/// (`FooBar`, `FooBar2`, `FooBar3`): deterministic, and stable while no type is added
/// between them.
pub(crate) fn rust_names(schema: &Schema) -> BTreeMap<String, String> {
    let wanted: HashSet<String> = schema.types.keys().map(|n| type_ident_name(n)).collect();
    let mut given: HashSet<String> = HashSet::new();
    let mut out = BTreeMap::new();
    for name in schema.types.keys() {
        let base = type_ident_name(name);
        let mut candidate = base.clone();
        let mut n = 2;
        while given.contains(&candidate) || (candidate != base && wanted.contains(&candidate)) {
            candidate = format!("{base}{n}");
            n += 1;
        }
        given.insert(candidate.clone());
        out.insert(name.clone(), candidate);
    }
    out
}

/// What a simple type is made of, once its derivation chain is followed to a built-in.
struct SimpleBase {
    builtin: Builtin,
    white_space: WhiteSpace,
}

impl<'s> Renderer<'s> {
    /// What a generated `Element` impl is given to hand the elements of type `ident` to the
    /// schema's visitor: `visited INDEX` (its place among the visited types), nothing when the
    /// schema has no visitor.
    fn visit_args(&mut self, ident: &Ident) -> TokenStream {
        if !self.visitor {
            return TokenStream::new();
        }
        if self.shapes.contains(&ident.to_string()) {
            return TokenStream::new();
        }
        let method = self
            .visitor_methods
            .take(&sanitize_snake(&ident.to_string()));
        let index = proc_macro2::Literal::usize_unsuffixed(self.visited.len());
        self.visited.push((ident.clone(), method));
        quote! { , visited #index }
    }

    /// Reports a valid construct the generator cannot express.
    fn error(&mut self, def: &TypeDef, message: impl Into<String>, hint: Option<&str>) {
        self.report(Kind::Unsupported, def, message, hint);
    }

    /// Reports a broken constraint of XSD 1.0 found while rendering.
    fn invalid(&mut self, def: &TypeDef, message: impl Into<String>, hint: Option<&str>) {
        self.report(Kind::Invalid, def, message, hint);
    }

    fn report(
        &mut self,
        kind: Kind,
        def: &TypeDef,
        message: impl Into<String>,
        hint: Option<&str>,
    ) {
        self.errors.push(RenderError {
            type_name: def.name.clone(),
            span: def.span,
            message: message.into(),
            hint: hint.map(str::to_string),
            kind,
        });
    }

    /// Whether a field or variant of type `t` inside the current type is boxed: `t` holds,
    /// by value, directly or not, the current type, or is large (see [`holding`]).
    fn needs_box(&self, t: &TypeRef) -> bool {
        self.holding.boxed(&self.current, t)
    }

    /// The Rust type of a field or variant holding `t`, boxed where `t` would make the
    /// current type recursive.
    fn held_type(&self, t: &TypeRef) -> TokenStream {
        let rt = self.rust_type(t);
        if self.needs_box(t) {
            quote! { ::std::boxed::Box<#rt> }
        } else {
            rt
        }
    }

    /// The Rust identifier of schema type `name`.
    fn tident(&self, name: &str) -> Ident {
        match self.idents.get(name) {
            Some(n) => Ident::new(n, PmSpan::call_site()),
            None => type_ident(name),
        }
    }

    fn fresh_name(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut n = 2;
        while self.used_names.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.used_names.insert(name.clone());
        name
    }

    /// Follows restriction steps down to the built-in (errors for other derivations).
    fn simple_base(&self, t: &TypeRef) -> Option<SimpleBase> {
        match t {
            TypeRef::Builtin(b) => Some(SimpleBase {
                builtin: *b,
                white_space: b.white_space(),
            }),
            TypeRef::Named(n) => {
                let def = self.schema.types.get(n)?;
                match &def.kind {
                    TypeKind::Restriction(r) => {
                        let mut base = self.simple_base(&r.base)?;
                        if let Some(ws) = r.facets.white_space {
                            base.white_space = ws;
                        }
                        Some(base)
                    }
                    // An enumeration's values are one more step over its base's.
                    TypeKind::Enumeration(e) => self.simple_base(&e.base),
                    _ => None,
                }
            }
        }
    }

    fn rust_type(&self, t: &TypeRef) -> TokenStream {
        match t {
            // Open content, laxly assessed: the schema's own type of it.
            TypeRef::Builtin(Builtin::AnyType) => {
                self.any_type_child.1.set(true);
                let child = &self.any_type_child.0;
                quote! { ::boardxml::any::lax::LaxContent<#child> }
            }
            TypeRef::Builtin(b) => builtin_type(*b),
            TypeRef::Named(n) => match self.externs.get(n) {
                Some((path, _)) => path.clone(),
                None => {
                    let ident = self.tident(n);
                    quote! { #ident }
                }
            },
        }
    }

    fn type_def(&mut self, def: &TypeDef) -> TokenStream {
        self.current = def.name.clone();
        if let Some((path, marker)) = self.externs.get(&def.name).cloned() {
            return self.extern_type(def, path, marker);
        }
        match &def.kind {
            TypeKind::Restriction(r) => self.restriction(def, r),
            TypeKind::Enumeration(e) => self.enumeration(def, e),
            TypeKind::Union(members) => self.union(def, members),
            TypeKind::List(l) => self.list(def, l),
            TypeKind::Complex(c) => self.complex(def, c),
            TypeKind::Alternatives(alts) => self.alternatives(def, alts),
            TypeKind::Substitution(s) => self.type_substitution(def, s),
        }
    }
}

/// The module documentation's list of schema types read into runtime types (the bound types
/// have no generated item of their own to carry their schema documentation).
fn bound_types_doc(
    schema: &Schema,
    externs: &BTreeMap<String, (TokenStream, Option<Ident>)>,
) -> Vec<String> {
    if externs.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![
        String::new(),
        " Schema types read into runtime types (`schemas/bindings.txt`):".to_string(),
    ];
    for (name, (path, _)) in externs {
        let path = path.to_string().replace(' ', "");
        let prose = schema.types[name]
            .doc
            .as_deref()
            .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
            .map_or_else(String::new, |d| format!(": {}", markdown_escape(&d)));
        lines.push(format!(" - `{name}` is read into [`{path}`]{prose}"));
    }
    lines
}

fn builtin_type(b: Builtin) -> TokenStream {
    match b {
        Builtin::String => quote! { ::std::string::String },
        // Open content: a generic XML tree, kept losslessly (`rust_type` gives the laxly
        // assessed content of the schema's own type instead).
        Builtin::AnyType => quote! { ::boardxml::any::AnyType },
        Builtin::NormalizedString => quote! { __s::xs::NormalizedString },
        Builtin::Token => quote! { __s::xs::Token },
        Builtin::AnyUri => quote! { __s::xs::AnyUri },
        Builtin::Boolean => quote! { bool },
        Builtin::Byte => quote! { i8 },
        Builtin::Short => quote! { i16 },
        Builtin::Int => quote! { i32 },
        Builtin::Long => quote! { i64 },
        Builtin::UnsignedByte => quote! { u8 },
        Builtin::UnsignedShort => quote! { u16 },
        Builtin::UnsignedInt => quote! { u32 },
        Builtin::UnsignedLong => quote! { u64 },
        // Unbounded value spaces: held exactly, never a range error (XSD Part 2, 3.3.13).
        Builtin::Integer
        | Builtin::NonNegativeInteger
        | Builtin::PositiveInteger
        | Builtin::NonPositiveInteger
        | Builtin::NegativeInteger => integers::unbounded_path(b),
        Builtin::Value(v) => value_type_path(v),
    }
}

/// The runtime value type of a built-in held in one.
fn value_type_path(v: ValueType) -> TokenStream {
    let name = format_ident!("{}", v.rust_name());
    quote! { ::boardxml::datatypes::#name }
}

fn type_label(t: &TypeRef) -> &str {
    match t {
        TypeRef::Builtin(b) => b.xsd_name(),
        TypeRef::Named(n) => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(sanitize_snake("type"), "r#type");
        assert_eq!(sanitize_snake("self"), "self_");
        assert_eq!(sanitize_snake("CommentatorURL"), "commentator_url");
        assert_eq!(sanitize_snake("MoveList"), "move_list");
        assert_eq!(type_ident_name("self"), "SelfType");
        assert_eq!(type_ident_name("cbf-1.0"), "Cbf10");
        assert_eq!(variant_name("0"), "V0");
        assert_eq!(variant_name(""), "Empty");
        assert_eq!(variant_name("darkblue"), "Darkblue");
    }
}
