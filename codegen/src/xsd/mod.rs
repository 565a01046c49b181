//! The adapter: the only module that sees XSD.
//!
//! xsd-parser reads the schema into its raw tree (its parser only: its interpreter and
//! optimiser flatten away what we need, such as `fixed`, `xs:alternative` and the facets of
//! each derivation step). This module converts that tree into our IR, resolving names,
//! translating patterns and reporting, with positions from `source`, every construct the
//! generator does not support. Nothing is skipped silently.

mod model;
mod namespaces;
mod source;
mod validity;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use xsd_parser::models::schema::xs::{
    AltType, AltTypeContent, Annotation, AnnotationContent, AttributeGroupType,
    AttributeGroupTypeContent, AttributeType, AttributeUseType, ComplexBaseType,
    ComplexBaseTypeContent, ElementType, ElementTypeContent, ExtensionType, ExtensionTypeContent,
    Facet, FacetType, GroupType, GroupTypeContent, RestrictionContent, SchemaContent,
    SimpleBaseType, SimpleBaseTypeContent, SimpleContentContent,
};
use xsd_parser::models::schema::{MaxOccurs, QName};
use xsd_parser::Parser;
// xsd-parser keeps documentation as an untyped element tree of its types crate.
use xsd_parser_types::xml::Value;

use crate::diagnostic::{Diagnostics, Kind, SchemaDiagnostic};
use crate::ir::*;

/// Reads and converts one schema file.
pub fn read_schema_file(path: &Path) -> Result<Schema, Diagnostics> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        Diagnostics(vec![SchemaDiagnostic {
            file: path.to_owned(),
            span: Span { line: 1, column: 1 },
            construct: "the schema file".into(),
            message: format!("cannot read: {error}"),
            hint: None,
            kind: Kind::Io,
        }])
    })?;
    read_schema(path, &text)
}

/// Converts one schema given as text; `path` names it in diagnostics.
pub fn read_schema(path: &Path, text: &str) -> Result<Schema, Diagnostics> {
    let (map, problems) = source::scan(text);
    // The constraints of XSD 1.0 checked on the markup, whatever the generator supports.
    let validity = validity::check(text, &map);
    let mut cx = Converter {
        path,
        map: &map,
        diagnostics: Vec::new(),
        schema: Schema::default(),
        names: HashSet::new(),
        union_spans: Vec::new(),
        attribute_types: Vec::new(),
        simple_content_bases: Vec::new(),
        alternative_types: Vec::new(),
        constrained_elements: Vec::new(),
        nillable_elements: Vec::new(),
        failed: HashSet::new(),
        composed: false,
        validity: validity
            .into_iter()
            .map(|p| SchemaDiagnostic {
                file: path.to_owned(),
                span: p.span,
                construct: p.construct,
                message: p.message,
                hint: p.hint,
                kind: p.kind,
            })
            .collect(),
        globals: Globals::default(),
        seconds: Vec::new(),
        namespaces: namespaces::Namespaces::default(),
    };
    for p in problems {
        cx.diagnostics.push(SchemaDiagnostic {
            file: path.to_owned(),
            span: p.span,
            construct: p.construct,
            message: p.message,
            hint: p.hint,
            kind: p.kind,
        });
    }
    if !cx.diagnostics.is_empty()
        && cx
            .diagnostics
            .iter()
            .any(|d| d.message.starts_with("not well-formed"))
    {
        return finish(cx);
    }
    let schemas = match Parser::new().add_schema_from_str(text) {
        Ok(parser) => parser.finish(),
        Err(error) => {
            cx.unsupported(
                Span { line: 1, column: 1 },
                "the schema document",
                format!("xsd-parser cannot read it: {error}"),
                None,
            );
            return finish(cx);
        }
    };
    for (_, info) in schemas.schemas() {
        cx.convert_schema(&info.schema);
    }
    cx.check_references();
    finish(cx)
}

/// The schema, or every diagnostic in position order, each said once (the validity pass
/// and the conversion find some problems both).
fn finish(cx: Converter<'_>) -> Result<Schema, Diagnostics> {
    let mut diagnostics = cx.diagnostics;
    // Where the conversion already reports a schema error, in its own words (often with a
    // hint), the validity pass adds nothing about the same element.
    let reported: HashSet<Span> = diagnostics
        .iter()
        .filter(|d| d.kind == Kind::Invalid)
        .map(|d| d.span)
        .collect();
    diagnostics.extend(
        cx.validity
            .into_iter()
            .filter(|d| !reported.contains(&d.span)),
    );
    for (said, d) in cx.seconds {
        if !diagnostics.iter().any(|v| v.message.starts_with(&said)) {
            diagnostics.push(d);
        }
    }
    if diagnostics.is_empty() {
        return Ok(cx.schema);
    }
    diagnostics.sort();
    let mut seen = HashSet::new();
    diagnostics.retain(|d| seen.insert((d.span, d.message.clone())));
    Err(Diagnostics(diagnostics))
}

/// Builds the keys of [`source::SourceMap`] while walking xsd-parser's tree.
struct Key {
    key: String,
    counts: HashMap<&'static str, usize>,
}

impl Key {
    fn root() -> Key {
        Key {
            key: "/schema[0]".into(),
            counts: HashMap::new(),
        }
    }

    fn child(&mut self, local: &'static str) -> Key {
        let c = self.counts.entry(local).or_insert(0);
        let key = format!("{}/{}[{}]", self.key, local, *c);
        *c += 1;
        Key {
            key,
            counts: HashMap::new(),
        }
    }
}

struct Converter<'a> {
    path: &'a Path,
    map: &'a source::SourceMap,
    diagnostics: Vec<SchemaDiagnostic>,
    schema: Schema,
    /// Rust-facing type names taken, to synthesise unique names for anonymous types.
    names: HashSet<String>,
    // References checked once every type is known, with where they stand.
    union_spans: Vec<(String, Span)>,
    attribute_types: Vec<(TypeRef, Span, String)>,
    simple_content_bases: Vec<(String, Span, String)>,
    alternative_types: Vec<(TypeRef, Span, String)>,
    constrained_elements: Vec<(TypeRef, Span, String)>,
    nillable_elements: Vec<(TypeRef, Span, String)>,
    /// Declared types whose conversion failed (already reported).
    failed: HashSet<String>,
    /// The schema includes, imports or redefines other documents: a name not found here
    /// may be defined there.
    composed: bool,
    /// What the validity pass found (merged by [`finish`]).
    validity: Vec<SchemaDiagnostic>,
    /// What the conversion finds that the validity pass also checks (circular groups,
    /// attributes declared twice), each with the start of the validity pass's message for
    /// the same problem: reported only where the validity pass said nothing of it (one
    /// report per problem, never none).
    seconds: Vec<(String, SchemaDiagnostic)>,
    /// Global elements, attributes, groups and attribute groups, converted on first use.
    globals: Globals,
    /// The target namespace and the forms of local declarations.
    namespaces: namespaces::Namespaces,
}

/// One kind of global declaration: the raw declarations by name with the key of where each
/// stands, what each converted to (`None`: it failed, already reported), and which are being
/// converted (a reference to one of those is a cycle).
struct Declarations<Raw, Converted> {
    raw: HashMap<String, (Raw, String)>,
    converted: HashMap<String, Option<Converted>>,
    in_progress: Vec<String>,
}

impl<Raw, Converted> Default for Declarations<Raw, Converted> {
    fn default() -> Self {
        Declarations {
            raw: HashMap::new(),
            converted: HashMap::new(),
            in_progress: Vec::new(),
        }
    }
}

/// The schema's global declarations that content models and complex types refer to.
#[derive(Default)]
struct Globals {
    elements: Declarations<ElementType, ElementDecl>,
    attributes: Declarations<AttributeType, Attribute>,
    groups: Declarations<GroupType, Particle>,
    attribute_groups: Declarations<AttributeGroupType, Vec<Attribute>>,
}

/// Where a key of [`source::SourceMap`] stands, as a [`Key`] to walk on from.
fn key_at(key: &str) -> Key {
    Key {
        key: key.to_string(),
        counts: HashMap::new(),
    }
}

impl Converter<'_> {
    /// Reports a valid construct the generator does not support.
    fn unsupported(
        &mut self,
        span: Span,
        construct: impl Into<String>,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        self.report(Kind::Unsupported, span, construct, message, hint);
    }

    /// Reports a broken constraint of XSD 1.0: the schema is invalid.
    fn invalid(
        &mut self,
        span: Span,
        construct: impl Into<String>,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        self.report(Kind::Invalid, span, construct, message, hint);
    }

    /// Reports a broken constraint the validity pass also checks, unless it reports it
    /// (its message starting with `said`).
    fn second(
        &mut self,
        said: String,
        span: Span,
        construct: impl Into<String>,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        let d = SchemaDiagnostic {
            file: self.path.to_owned(),
            span,
            construct: construct.into(),
            message: message.into(),
            hint,
            kind: Kind::Invalid,
        };
        self.seconds.push((said, d));
    }

    fn report(
        &mut self,
        kind: Kind,
        span: Span,
        construct: impl Into<String>,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        self.diagnostics.push(SchemaDiagnostic {
            file: self.path.to_owned(),
            span,
            construct: construct.into(),
            message: message.into(),
            hint,
            kind,
        });
    }

    fn span(&self, key: &Key) -> Span {
        self.map.span(&key.key)
    }

    fn convert_schema(&mut self, raw: &xsd_parser::models::schema::xs::Schema) {
        let mut key = Key::root();
        self.composed |= raw.content.iter().any(|c| {
            matches!(
                c,
                SchemaContent::Include(_)
                    | SchemaContent::Import(_)
                    | SchemaContent::Redefine(_)
                    | SchemaContent::Override(_)
            )
        });
        self.namespaces = namespaces::Namespaces::of(raw);
        self.schema.target_namespace = self.namespaces.target.clone();
        // Register every named type first, so anonymous types get names that do not clash.
        for item in &raw.content {
            match item {
                SchemaContent::SimpleType(SimpleBaseType {
                    name: Some(name), ..
                })
                | SchemaContent::ComplexType(ComplexBaseType {
                    name: Some(name), ..
                }) => {
                    self.names.insert(pascal(name));
                }
                _ => {}
            }
        }
        // Global declarations are converted on first use (a reference may come before the
        // declaration); collect them with the keys of where they stand.
        let mut counts: HashMap<&'static str, usize> = HashMap::new();
        let mut next_key = |local: &'static str| {
            let c = counts.entry(local).or_insert(0);
            *c += 1;
            format!("/schema[0]/{local}[{}]", *c - 1)
        };
        let mut duplicates = Vec::new();
        for item in &raw.content {
            macro_rules! register {
                ($field:ident, $local:literal, $decl:expr, $what:literal) => {{
                    let k = next_key($local);
                    if let Some(name) = $decl.name.clone() {
                        if self.globals.$field.raw.contains_key(&name) {
                            duplicates.push((k, format!(concat!($what, " \"{}\""), name)));
                        } else {
                            self.globals.$field.raw.insert(name, ($decl.clone(), k));
                        }
                    }
                }};
            }
            match item {
                SchemaContent::Element(el) => register!(elements, "element", el, "element"),
                SchemaContent::Attribute(a) => register!(attributes, "attribute", a, "attribute"),
                SchemaContent::Group(g) => register!(groups, "group", g, "group"),
                SchemaContent::AttributeGroup(g) => {
                    register!(attribute_groups, "attributeGroup", g, "attributeGroup")
                }
                _ => {}
            }
        }
        for (k, construct) in duplicates {
            let span = self.map.span(&k);
            self.invalid(
                span,
                construct,
                "a global declaration of this name is already given",
                None,
            );
        }
        for item in &raw.content {
            match item {
                SchemaContent::Annotation(a) => {
                    key.child("annotation");
                    self.schema.doc = documentation(Some(a));
                }
                SchemaContent::SimpleType(st) => {
                    let k = key.child("simpleType");
                    let name = st.name.clone().unwrap_or_default();
                    let def = self.simple_type(st, &name, k);
                    self.insert_or_fail(&name, def);
                }
                SchemaContent::ComplexType(ct) => {
                    let k = key.child("complexType");
                    let name = ct.name.clone().unwrap_or_default();
                    let def = self.complex_type(ct, &name, k);
                    self.insert_or_fail(&name, def);
                }
                SchemaContent::Element(el) => {
                    let k = key.child("element");
                    let span = self.span(&k);
                    let Some(name) = el.name.clone() else {
                        self.invalid(span, "xs:element", "a global element needs a name", None);
                        continue;
                    };
                    let Some(decl) = self.global_element(&name) else {
                        continue;
                    };
                    self.schema
                        .roots
                        .entry(name.clone())
                        .or_insert(RootElement {
                            name,
                            namespace: decl.namespace,
                            type_ref: decl.type_ref,
                            doc: decl.doc,
                            span: decl.span,
                        });
                }
                SchemaContent::Attribute(a) => {
                    let k = key.child("attribute");
                    match a.name.clone() {
                        Some(name) => {
                            self.global_attribute(&name);
                        }
                        None => {
                            let span = self.span(&k);
                            self.invalid(
                                span,
                                "xs:attribute",
                                "a global attribute needs a name",
                                None,
                            );
                        }
                    }
                }
                SchemaContent::Group(g) => {
                    let k = key.child("group");
                    match g.name.clone() {
                        Some(name) => {
                            self.global_group(&name);
                        }
                        None => {
                            let span = self.span(&k);
                            self.invalid(span, "xs:group", "a global group needs a name", None);
                        }
                    }
                }
                SchemaContent::AttributeGroup(g) => {
                    let k = key.child("attributeGroup");
                    match g.name.clone() {
                        Some(name) => {
                            self.global_attribute_group(&name);
                        }
                        None => {
                            let span = self.span(&k);
                            self.invalid(
                                span,
                                "xs:attributeGroup",
                                "a global attribute group needs a name",
                                None,
                            );
                        }
                    }
                }
                // The scan reports these unsupported constructs with their position.
                SchemaContent::Include(_) => drop(key.child("include")),
                SchemaContent::Import(_) => drop(key.child("import")),
                SchemaContent::Redefine(_) => drop(key.child("redefine")),
                SchemaContent::Override(_) => drop(key.child("override")),
                SchemaContent::DefaultOpenContent(_) => drop(key.child("defaultOpenContent")),
                SchemaContent::Notation(_) => drop(key.child("notation")),
            }
        }
    }

    /// The global element `name`, converted once (its anonymous type is generated once
    /// however many references it has).
    fn global_element(&mut self, name: &str) -> Option<ElementDecl> {
        if let Some(done) = self.globals.elements.converted.get(name) {
            return done.clone();
        }
        let (el, k) = self.globals.elements.raw.get(name)?.clone();
        let span = self.map.span(&k);
        let mut ok = true;
        if el.min_occurs != 1 || el.max_occurs != MaxOccurs::Bounded(1) {
            self.invalid(
                span,
                format!("element \"{name}\""),
                "minOccurs/maxOccurs are not allowed on a global element",
                None,
            );
            ok = false;
        }
        if el.ref_.is_some() {
            self.invalid(
                span,
                format!("element \"{name}\""),
                "ref= is not allowed on a global element",
                None,
            );
            ok = false;
        }
        // A reference from inside its own type (a recursive element) sees the element
        // with the type it is going to have.
        let reserved = self.reserve_element_type(&el, name, span);
        self.globals.elements.converted.insert(
            name.to_string(),
            reserved.clone().map(|type_ref| ElementDecl {
                name: name.to_string(),
                namespace: self.namespaces.target.clone(),
                span,
                type_ref,
                doc: None,
                // Only a complex element can contain itself; it has no value constraint
                // (and, for now, cannot be nillable).
                value: None,
                nillable: false,
            }),
        );
        let decl = if ok {
            self.element_decl_reserved(&el, key_at(&k), name, reserved)
                .map(|decl| ElementDecl {
                    // A global element is always in the target namespace.
                    namespace: self.namespaces.target.clone(),
                    ..decl
                })
        } else {
            None
        };
        self.globals
            .elements
            .converted
            .insert(name.to_string(), decl.clone());
        decl
    }

    /// The type an element will have, decided before its content is converted: its
    /// `type=`, or the name its anonymous type will get (taken now).
    fn reserve_element_type(
        &mut self,
        el: &ElementType,
        name: &str,
        span: Span,
    ) -> Option<TypeRef> {
        if let Some(q) = &el.type_ {
            // Any error here is reported again, identically, by the conversion (and deduplicated).
            return self.type_ref(q, &span, &format!("element \"{name}\""));
        }
        let inline = el.content.iter().any(|c| {
            matches!(
                c,
                ElementTypeContent::SimpleType(_) | ElementTypeContent::ComplexType(_)
            )
        });
        inline.then(|| TypeRef::Named(self.synthesise(name)))
    }

    /// The global attribute `name`, converted once.
    fn global_attribute(&mut self, name: &str) -> Option<Attribute> {
        if let Some(done) = self.globals.attributes.converted.get(name) {
            return done.clone();
        }
        let (a, k) = self.globals.attributes.raw.get(name)?.clone();
        let span = self.map.span(&k);
        let construct = format!("attribute \"{name}\"");
        let mut ok = true;
        if a.use_ != AttributeUseType::Optional {
            self.invalid(
                span,
                construct.clone(),
                "use= is not allowed on a global attribute (it belongs to each reference)",
                None,
            );
            ok = false;
        }
        if a.ref_.is_some() {
            self.invalid(
                span,
                construct,
                "ref= is not allowed on a global attribute",
                None,
            );
            ok = false;
        }
        let converted = if ok {
            self.attribute_decl(&a, key_at(&k), name, "the schema")
                .map(|decl| Attribute {
                    // A global attribute is always in the target namespace.
                    namespace: self.namespaces.target.clone(),
                    ..decl
                })
        } else {
            None
        };
        self.globals
            .attributes
            .converted
            .insert(name.to_string(), converted.clone());
        converted
    }

    /// The model group of the global group `name` (occurring once), converted once.
    /// `from` is where the reference stands, for a cycle's error.
    fn global_group(&mut self, name: &str) -> Option<Particle> {
        if let Some(done) = self.globals.groups.converted.get(name) {
            return done.clone();
        }
        let (g, k) = self.globals.groups.raw.get(name)?.clone();
        self.globals.groups.in_progress.push(name.to_string());
        let span = self.map.span(&k);
        let construct = format!("group \"{name}\"");
        let mut key = key_at(&k);
        let mut model = None;
        let mut ok = true;
        if g.ref_.is_some() || g.min_occurs != 1 || g.max_occurs != MaxOccurs::Bounded(1) {
            self.invalid(
                span,
                construct.clone(),
                "a global group takes no ref=, minOccurs or maxOccurs (they belong to each reference)",
                None,
            );
            ok = false;
        }
        for c in &g.content {
            let (local, inner) = match c {
                GroupTypeContent::Annotation(_) => {
                    key.child("annotation");
                    continue;
                }
                GroupTypeContent::Sequence(inner) => ("sequence", inner),
                GroupTypeContent::Choice(inner) => ("choice", inner),
                GroupTypeContent::All(inner) => ("all", inner),
                _ => {
                    self.invalid(
                        span,
                        construct.clone(),
                        "a global group holds one xs:sequence, xs:choice or xs:all",
                        None,
                    );
                    ok = false;
                    continue;
                }
            };
            let k = key.child(local);
            let ispan = self.span(&k);
            if model.is_some() {
                self.invalid(
                    ispan,
                    construct.clone(),
                    "a global group holds exactly one xs:sequence, xs:choice or xs:all",
                    None,
                );
                ok = false;
                continue;
            }
            if inner.min_occurs != 1 || inner.max_occurs != MaxOccurs::Bounded(1) {
                self.invalid(
                    ispan,
                    format!("xs:{local} in group \"{name}\""),
                    "the model group of a global group takes no minOccurs or maxOccurs (put them on each reference)",
                    None,
                );
                ok = false;
            }
            model = self.particle(inner, local, k, name);
            ok &= model.is_some();
        }
        if model.is_none() && ok {
            self.invalid(
                span,
                construct,
                "a global group holds one xs:sequence, xs:choice or xs:all",
                None,
            );
        }
        let model = if ok { model } else { None };
        self.globals.groups.in_progress.pop();
        self.globals
            .groups
            .converted
            .insert(name.to_string(), model.clone());
        model
    }

    /// The attributes of the global attribute group `name`, converted once.
    fn global_attribute_group(&mut self, name: &str) -> Option<Vec<Attribute>> {
        if let Some(done) = self.globals.attribute_groups.converted.get(name) {
            return done.clone();
        }
        let (g, k) = self.globals.attribute_groups.raw.get(name)?.clone();
        self.globals
            .attribute_groups
            .in_progress
            .push(name.to_string());
        let span = self.map.span(&k);
        let mut key = key_at(&k);
        let mut attributes = Vec::new();
        let mut ok = true;
        if g.ref_.is_some() {
            self.invalid(
                span,
                format!("attributeGroup \"{name}\""),
                "ref= is not allowed on a global attribute group",
                None,
            );
            ok = false;
        }
        for c in &g.content {
            match c {
                AttributeGroupTypeContent::Annotation(_) => {
                    key.child("annotation");
                }
                AttributeGroupTypeContent::Attribute(a) => {
                    let k = key.child("attribute");
                    match self.attribute_use(a, k, name) {
                        Some(Some(a)) => attributes.push(a),
                        Some(None) => {}
                        None => ok = false,
                    }
                }
                AttributeGroupTypeContent::AttributeGroup(r) => {
                    let k = key.child("attributeGroup");
                    match self.attribute_group_ref(r, k, name) {
                        Some(more) => attributes.extend(more),
                        None => ok = false,
                    }
                }
                // Reported by the scan.
                AttributeGroupTypeContent::AnyAttribute(_) => {
                    key.child("anyAttribute");
                    ok = false;
                }
            }
        }
        let result = ok.then_some(attributes);
        self.globals.attribute_groups.in_progress.pop();
        self.globals
            .attribute_groups
            .converted
            .insert(name.to_string(), result.clone());
        result
    }

    /// `<xs:attributeGroup ref="..."/>`: the group's attributes.
    fn attribute_group_ref(
        &mut self,
        r: &AttributeGroupType,
        key: Key,
        owner: &str,
    ) -> Option<Vec<Attribute>> {
        let span = self.span(&key);
        let Some(q) = &r.ref_ else {
            self.invalid(
                span,
                format!("xs:attributeGroup in \"{owner}\""),
                "a local xs:attributeGroup must be a reference (ref=\"...\")",
                None,
            );
            return None;
        };
        let name = self.resolve_here(
            q,
            span,
            &format!("xs:attributeGroup ref=\"{q}\""),
            "attribute group",
        )?;
        if let Some(at) = self
            .globals
            .attribute_groups
            .in_progress
            .iter()
            .position(|n| *n == name)
        {
            let mut cycle = self.globals.attribute_groups.in_progress[at..].to_vec();
            cycle.push(name.clone());
            self.second(
                "an attribute group that contains itself".into(),
                span,
                format!("xs:attributeGroup ref=\"{name}\""),
                format!("circular attribute group reference: {}", cycle.join(" -> ")),
                None,
            );
            return None;
        }
        if !self.globals.attribute_groups.raw.contains_key(&name) {
            self.unsupported(
                span,
                format!("xs:attributeGroup ref=\"{name}\""),
                format!("unknown attribute group \"{name}\""),
                None,
            );
            return None;
        }
        self.global_attribute_group(&name)
    }

    /// `<xs:group ref="..."/>` inside a content model: the group's model group with the
    /// reference's occurrence.
    fn group_ref(&mut self, g: &GroupType, key: Key, owner: &str) -> Option<Particle> {
        let span = self.span(&key);
        let Some(q) = &g.ref_ else {
            self.invalid(
                span,
                format!("xs:group in \"{owner}\""),
                "a local xs:group must be a reference (ref=\"...\")",
                None,
            );
            return None;
        };
        let name = self.resolve_here(q, span, &format!("xs:group ref=\"{q}\""), "group")?;
        let construct = format!("xs:group ref=\"{name}\"");
        let (min, max) = occurs(g.min_occurs, g.max_occurs, &span, self, &construct)?;
        let stack = &self.globals.groups.in_progress;
        // An element's anonymous type starts a new chain (an empty entry): a group may
        // contain itself through an element.
        let chain = stack
            .iter()
            .rposition(String::is_empty)
            .map_or(0, |i| i + 1);
        if stack[..chain].contains(&name) {
            self.unsupported(
                span,
                construct,
                format!("group \"{name}\" is referred to from an anonymous type inside itself; this is not supported yet"),
                Some("name the element's type (a named complexType) and refer to it with type=".into()),
            );
            return None;
        }
        if let Some(at) = stack[chain..]
            .iter()
            .position(|n| *n == name)
            .map(|i| i + chain)
        {
            let mut cycle = self.globals.groups.in_progress[at..].to_vec();
            cycle.push(name.clone());
            self.second(
                "a model group that contains itself".into(),
                span,
                construct,
                format!("circular group reference: {}", cycle.join(" -> ")),
                Some("a group may contain itself only through an element's type".into()),
            );
            return None;
        }
        if !self.globals.groups.raw.contains_key(&name) {
            self.unsupported(span, construct, format!("unknown group \"{name}\""), None);
            return None;
        }
        let model = self.global_group(&name)?;
        Some(Particle {
            min,
            max,
            term: model.term,
        })
    }

    /// Inserts a converted type, or remembers that `name` exists but failed (its problems
    /// are reported; references to it must not add "unknown type" noise).
    fn insert_or_fail(&mut self, name: &str, def: Option<TypeDef>) {
        if def.is_none() {
            self.failed.insert(name.to_string());
        }
        self.insert(def);
    }

    fn insert(&mut self, def: Option<TypeDef>) {
        if let Some(def) = def {
            if self.schema.types.contains_key(&def.name) {
                let span = def.span;
                self.invalid(
                    span,
                    format!("type \"{}\"", def.name),
                    "a type of this name is already defined",
                    None,
                );
                return;
            }
            self.schema.types.insert(def.name.clone(), def);
        }
    }

    /// A fresh Rust-facing name for an anonymous type, derived from where it stands.
    fn synthesise(&mut self, base: &str) -> String {
        let mut name = pascal(base);
        if name.is_empty() {
            name = "Anonymous".into();
        }
        let mut candidate = name.clone();
        let mut n = 2;
        while self.names.contains(&pascal(&candidate)) || self.schema.types.contains_key(&candidate)
        {
            candidate = if n == 2 {
                format!("{name}Element")
            } else {
                format!("{name}Element{n}")
            };
            n += 1;
        }
        self.names.insert(pascal(&candidate));
        candidate
    }

    fn type_ref(&mut self, qname: &QName, span: &Span, construct: &str) -> Option<TypeRef> {
        // By namespace (the bindings in scope where the reference stands), not by prefix.
        let local = match self.namespaces.resolve(qname) {
            namespaces::Target::Xsd(local) => local,
            namespaces::Target::Here(local) => return Some(TypeRef::Named(local)),
            _ => {
                return self
                    .resolve_here(qname, *span, construct, "type")
                    .map(TypeRef::Named)
            }
        };
        match Builtin::from_xsd_name(&local) {
            Some(b) => Some(TypeRef::Builtin(b)),
            // XSD 1.1's own built-ins: valid there, not supported here.
            None if matches!(
                local.as_str(),
                "anyAtomicType" | "dateTimeStamp" | "dayTimeDuration" | "yearMonthDuration"
            ) =>
            {
                self.unsupported(
                    *span,
                    construct.to_string(),
                    format!("the built-in type xs:{local} is not supported by boardxml-codegen"),
                    Some(
                        "every built-in type of XSD 1.0 is supported; this one is XSD 1.1's".into(),
                    ),
                );
                None
            }
            None => {
                self.second(
                    format!("xs:{local} is not a built-in type"),
                    *span,
                    construct.to_string(),
                    format!("xs:{local} is not a built-in type of XSD 1.0"),
                    self.xsd_default_hint(qname),
                );
                None
            }
        }
    }

    fn simple_type(&mut self, st: &SimpleBaseType, name: &str, mut key: Key) -> Option<TypeDef> {
        let span = self.span(&key);
        let construct = format!("simpleType \"{name}\"");
        let mut doc = None;
        let mut kind = None;
        for item in &st.content {
            match item {
                SimpleBaseTypeContent::Annotation(a) => {
                    key.child("annotation");
                    doc = documentation(Some(a));
                }
                SimpleBaseTypeContent::Restriction(r) => {
                    let mut k = key.child("restriction");
                    let rspan = self.span(&k);
                    let Some(base_q) = &r.base else {
                        self.unsupported(rspan, &construct, "a restriction without a base attribute (an inline base type) is not supported", Some("name the base type and refer to it with base=\"...\"".into()));
                        return None;
                    };
                    let base = self.type_ref(base_q, &rspan, &construct)?;
                    let facets = self.facets(
                        r.content.iter().filter_map(|c| match c {
                            RestrictionContent::Facet(f) => Some(f),
                            _ => None,
                        }),
                        &mut k,
                        &construct,
                    );
                    if r.content
                        .iter()
                        .any(|c| matches!(c, RestrictionContent::SimpleType(_)))
                    {
                        self.unsupported(
                            rspan,
                            &construct,
                            "an inline base type inside xs:restriction is not supported",
                            None,
                        );
                    }
                    let (facets, enums) = facets?;
                    let others = facets.patterns.len()
                        + facets.length.iter().count()
                        + facets.min_length.iter().count()
                        + facets.max_length.iter().count()
                        + facets.bounds.len()
                        + facets.total_digits.iter().count()
                        + facets.fraction_digits.iter().count();
                    kind = Some(if enums.is_empty() {
                        TypeKind::Restriction(Restriction { base, facets })
                    } else if others > 0 {
                        // An enumeration with other facets: a restricted type whose values
                        // the enumeration also restricts.
                        let mut facets = facets;
                        facets.enumeration = enums.into_iter().map(|e| e.value).collect();
                        TypeKind::Restriction(Restriction { base, facets })
                    } else {
                        TypeKind::Enumeration(Enumeration {
                            base,
                            values: enums,
                        })
                    });
                }
                SimpleBaseTypeContent::List(l) => {
                    let k = key.child("list");
                    let lspan = self.span(&k);
                    let Some(item_q) = &l.item_type else {
                        self.unsupported(
                            lspan,
                            &construct,
                            "an inline item type in xs:list is not supported",
                            Some("name the item type and use itemType=\"...\"".into()),
                        );
                        return None;
                    };
                    let item = self.type_ref(item_q, &lspan, &construct)?;
                    kind = Some(TypeKind::List(ListType {
                        item,
                        facets: Facets::default(),
                    }));
                }
                SimpleBaseTypeContent::Union(u) => {
                    let k = key.child("union");
                    let uspan = self.span(&k);
                    if !u.simple_type.is_empty() {
                        self.unsupported(
                            uspan,
                            &construct,
                            "inline member types in xs:union are not supported",
                            Some("name each member type and list it in memberTypes".into()),
                        );
                    }
                    let mut members = Vec::new();
                    // xsd-parser splits memberTypes at each space: two spaces give an
                    // empty name between them, which is none.
                    for q in u
                        .member_types
                        .iter()
                        .flat_map(|l| l.0.iter())
                        .filter(|q| !q.as_bytes().is_empty())
                    {
                        if let Some(t) = self.type_ref(q, &uspan, &construct) {
                            members.push(t);
                        }
                    }
                    // Remember where the union stands: members are checked once every type is known.
                    self.union_spans.push((name.to_string(), uspan));
                    kind = Some(TypeKind::Union(members));
                }
            }
        }
        let kind = kind?;
        Some(TypeDef {
            name: name.to_string(),
            doc,
            span,
            kind,
        })
    }

    /// Collects one restriction step's facets; enumeration values come back separately.
    fn facets<'f>(
        &mut self,
        facets: impl Iterator<Item = &'f Facet>,
        key: &mut Key,
        construct: &str,
    ) -> Option<(Facets, Vec<EnumValue>)> {
        let mut out = Facets::default();
        let mut enums = Vec::new();
        let mut ok = true;
        for facet in facets {
            let (local, value): (&'static str, &FacetType) = match facet {
                Facet::MinExclusive(v) => ("minExclusive", v),
                Facet::MinInclusive(v) => ("minInclusive", v),
                Facet::MaxExclusive(v) => ("maxExclusive", v),
                Facet::MaxInclusive(v) => ("maxInclusive", v),
                Facet::TotalDigits(v) => ("totalDigits", v),
                Facet::FractionDigits(v) => ("fractionDigits", v),
                Facet::Length(v) => ("length", v),
                Facet::MinLength(v) => ("minLength", v),
                Facet::MaxLength(v) => ("maxLength", v),
                Facet::Enumeration(v) => ("enumeration", v),
                Facet::WhiteSpace(v) => ("whiteSpace", v),
                Facet::Pattern(v) => ("pattern", v),
                Facet::ExplicitTimezone(v) => ("explicitTimezone", v),
                Facet::Assertion(_) => {
                    let k = key.child("assertion");
                    let span = self.span(&k);
                    self.unsupported(span, construct, "xs:assertion is not supported", None);
                    ok = false;
                    continue;
                }
            };
            let k = key.child(local);
            let span = self.span(&k);
            let text = value.value.clone();
            let fconstruct = format!("xs:{local} in {construct}");
            // A bound is kept as written, and folded into an integer when it is one (the
            // integer bases use the folded form; rendering checks every bound against the
            // value space of the base, which is known only there).
            let int = |text: &str| -> Option<i128> { text.trim().parse::<i128>().ok() };
            let count = |cx: &mut Self, text: &str| -> Option<u64> {
                match text.trim().parse::<u64>() {
                    Ok(v) => Some(v),
                    Err(_) => {
                        cx.invalid(
                            span,
                            fconstruct.clone(),
                            format!("\"{text}\" is not a non-negative integer"),
                            None,
                        );
                        None
                    }
                }
            };
            let bound = match local {
                "minInclusive" => Some(BoundKind::MinInclusive),
                "minExclusive" => Some(BoundKind::MinExclusive),
                "maxInclusive" => Some(BoundKind::MaxInclusive),
                "maxExclusive" => Some(BoundKind::MaxExclusive),
                _ => None,
            };
            if let Some(b) = bound {
                out.bounds.push((b, text.clone()));
            }
            match local {
                "minInclusive" => out.min = int(&text).or(out.min),
                "minExclusive" => out.min = int(&text).map(|v| v + 1).or(out.min),
                "maxInclusive" => out.max = int(&text).or(out.max),
                "maxExclusive" => out.max = int(&text).map(|v| v - 1).or(out.max),
                "length" => out.length = count(self, &text),
                "minLength" => out.min_length = count(self, &text),
                "maxLength" => out.max_length = count(self, &text),
                "totalDigits" => out.total_digits = count(self, &text).map(|v| v as u32),
                "fractionDigits" => out.fraction_digits = count(self, &text).map(|v| v as u32),
                "whiteSpace" => {
                    out.white_space = match text.as_str() {
                        "preserve" => Some(WhiteSpace::Preserve),
                        "replace" => Some(WhiteSpace::Replace),
                        "collapse" => Some(WhiteSpace::Collapse),
                        other => {
                            self.invalid(
                                span,
                                fconstruct.clone(),
                                format!("\"{other}\" is not a whiteSpace value"),
                                Some("preserve, replace or collapse".into()),
                            );
                            ok = false;
                            None
                        }
                    }
                }
                "enumeration" => enums.push(EnumValue {
                    value: text,
                    doc: documentation(value.annotation.as_ref()),
                }),
                "pattern" => match boardxml_xsd_regex::translate(&text) {
                    Ok(rust) => out.patterns.push(Pattern { xsd: text, rust }),
                    Err(e) => {
                        self.invalid(
                            span,
                            fconstruct.clone(),
                            format!(
                                "invalid XSD pattern \"{text}\": {} (at character {})",
                                e.message,
                                e.offset + 1
                            ),
                            e.hint.clone(),
                        );
                        ok = false;
                    }
                },
                _ => {
                    self.unsupported(
                        span,
                        fconstruct.clone(),
                        format!("xs:{local} is not supported"),
                        None,
                    );
                    ok = false;
                }
            }
        }
        ok.then_some((out, enums))
    }

    fn complex_type(&mut self, ct: &ComplexBaseType, name: &str, key: Key) -> Option<TypeDef> {
        // A type starts a new chain of group references (a group may contain itself
        // through an element's type).
        self.globals.groups.in_progress.push(String::new());
        let def = self.complex_type_inner(ct, name, key);
        self.globals.groups.in_progress.pop();
        def
    }

    fn complex_type_inner(
        &mut self,
        ct: &ComplexBaseType,
        name: &str,
        mut key: Key,
    ) -> Option<TypeDef> {
        let span = self.span(&key);
        let construct = format!("complexType \"{name}\"");
        let mixed = ct.mixed.unwrap_or(false);
        let mut doc = None;
        let mut attributes = Vec::new();
        let mut content = Content::Empty;
        let mut ok = true;
        for item in &ct.content {
            match item {
                ComplexBaseTypeContent::Annotation(a) => {
                    key.child("annotation");
                    doc = documentation(Some(a));
                }
                ComplexBaseTypeContent::Attribute(a) => {
                    let k = key.child("attribute");
                    match self.attribute_use(a, k, name) {
                        Some(Some(a)) => attributes.push(a),
                        Some(None) => {}
                        None => ok = false,
                    }
                }
                ComplexBaseTypeContent::AttributeGroup(r) => {
                    let k = key.child("attributeGroup");
                    match self.attribute_group_ref(r, k, name) {
                        Some(more) => attributes.extend(more),
                        None => ok = false,
                    }
                }
                ComplexBaseTypeContent::Group(g) => {
                    let k = key.child("group");
                    match self.group_ref(g, k, name) {
                        Some(p) => {
                            content = if mixed {
                                Content::Mixed(p)
                            } else {
                                Content::Elements(p)
                            }
                        }
                        None => ok = false,
                    }
                }
                ComplexBaseTypeContent::Sequence(g)
                | ComplexBaseTypeContent::Choice(g)
                | ComplexBaseTypeContent::All(g) => {
                    let local = match item {
                        ComplexBaseTypeContent::Sequence(_) => "sequence",
                        ComplexBaseTypeContent::Choice(_) => "choice",
                        _ => "all",
                    };
                    let k = key.child(local);
                    match self.particle(g, local, k, name) {
                        Some(p) => {
                            content = if mixed {
                                Content::Mixed(p)
                            } else {
                                Content::Elements(p)
                            }
                        }
                        None => ok = false,
                    }
                }
                ComplexBaseTypeContent::SimpleContent(sc) => {
                    let mut k = key.child("simpleContent");
                    for c in &sc.content {
                        match c {
                            SimpleContentContent::Annotation(_) => {
                                k.child("annotation");
                            }
                            SimpleContentContent::Extension(ext) => {
                                let ek = k.child("extension");
                                match self.extension(ext, ek, name, &mut attributes) {
                                    Some(t) => content = Content::Simple(t),
                                    None => ok = false,
                                }
                            }
                            SimpleContentContent::Restriction(_) => {
                                let rk = k.child("restriction");
                                let span = self.span(&rk);
                                self.unsupported(
                                    span,
                                    &construct,
                                    "xs:restriction inside xs:simpleContent is not supported",
                                    Some("restrict a simple type and extend that".into()),
                                );
                                ok = false;
                            }
                        }
                    }
                }
                // The scan has reported these constructs with their position.
                _ => ok = false,
            }
        }
        if mixed && matches!(content, Content::Empty) {
            content = Content::Mixed(Particle {
                min: 0,
                max: Some(0),
                term: Term::Sequence(Vec::new()),
            });
        }
        if let Content::Elements(p) | Content::Mixed(p) = &content {
            ok &= self.check_all(p, span, name);
            for problem in model::check(p) {
                let construct = if problem.invalid {
                    format!("the content model of complexType \"{name}\"")
                } else {
                    construct.clone()
                };
                if problem.invalid {
                    self.invalid(problem.span, construct, problem.message, problem.hint);
                } else {
                    self.unsupported(problem.span, construct, problem.message, problem.hint);
                }
                ok = false;
            }
        }
        let mut seen = HashSet::new();
        for a in &attributes {
            if !seen.insert(a.name.as_str()) {
                self.second(
                    format!("attribute \"{}\" is declared twice", a.name),
                    span,
                    construct.clone(),
                    format!(
                        "attribute \"{}\" is declared twice (directly or through attribute groups)",
                        a.name
                    ),
                    Some("XSD 1.0, 3.4.6 (ct-props-correct.4)".into()),
                );
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        Some(TypeDef {
            name: name.to_string(),
            doc,
            span,
            kind: TypeKind::Complex(ComplexType {
                attributes,
                content,
            }),
        })
    }

    fn extension(
        &mut self,
        ext: &ExtensionType,
        mut key: Key,
        owner: &str,
        attributes: &mut Vec<Attribute>,
    ) -> Option<TypeRef> {
        let span = self.span(&key);
        let base = self.type_ref(
            &ext.base,
            &span,
            &format!("xs:extension in complexType \"{owner}\""),
        );
        let mut ok = base.is_some();
        for c in &ext.content {
            match c {
                ExtensionTypeContent::Annotation(_) => {
                    key.child("annotation");
                }
                ExtensionTypeContent::Attribute(a) => {
                    let k = key.child("attribute");
                    match self.attribute_use(a, k, owner) {
                        Some(Some(a)) => attributes.push(a),
                        Some(None) => {}
                        None => ok = false,
                    }
                }
                ExtensionTypeContent::AttributeGroup(r) => {
                    let k = key.child("attributeGroup");
                    match self.attribute_group_ref(r, k, owner) {
                        Some(more) => attributes.extend(more),
                        None => ok = false,
                    }
                }
                _ => ok = false,
            }
        }
        if ok {
            if let Some(TypeRef::Named(n)) = &base {
                self.simple_content_bases
                    .push((n.clone(), span, owner.to_string()));
            }
        }
        if ok {
            base
        } else {
            None
        }
    }

    /// An attribute use inside a complex type or an attribute group: a local declaration or
    /// a reference to a global one, with its use. `Some(None)`: prohibited (XSD 1.0 without
    /// derivation: the attribute is simply not declared, so a document giving it is
    /// reported as giving an undeclared attribute). `None`: an error, reported.
    fn attribute_use(
        &mut self,
        a: &AttributeType,
        key: Key,
        owner: &str,
    ) -> Option<Option<Attribute>> {
        let span = self.span(&key);
        let (decl, construct) = match (&a.ref_, &a.name) {
            (Some(q), None) => {
                let construct = format!("attribute ref=\"{q}\" in \"{owner}\"");
                let name = self.resolve_here(q, span, &construct, "attribute")?;
                let construct = format!("attribute ref=\"{name}\" in \"{owner}\"");
                if a.type_.is_some() || a.simple_type.is_some() || a.form.is_some() {
                    self.invalid(
                        span,
                        construct,
                        "an attribute reference takes no type=, form= or inline type (they belong to the declaration)",
                        None,
                    );
                    return None;
                }
                if !self.globals.attributes.raw.contains_key(&name) {
                    self.unsupported(
                        span,
                        construct,
                        format!("unknown global attribute \"{name}\""),
                        None,
                    );
                    return None;
                }
                let mut decl = self.global_attribute(&name)?;
                if let Some(fixed) = &decl.fixed {
                    if a.fixed.as_ref().is_some_and(|f| f != fixed) || a.default.is_some() {
                        self.invalid(
                            span,
                            construct,
                            format!("the declaration fixes the value \"{fixed}\"; a reference may only repeat it"),
                            Some("XSD 1.0, 3.2.6 (au-props-correct.2)".into()),
                        );
                        return None;
                    }
                }
                // The reference's value constraint, if it has one, is the one that applies.
                if a.default.is_some() || a.fixed.is_some() {
                    decl.default = a.default.clone();
                    decl.fixed = a.fixed.clone().or(decl.fixed);
                }
                if a.annotation.is_some() {
                    decl.doc = documentation(a.annotation.as_ref()).or(decl.doc);
                }
                (decl, construct)
            }
            (None, Some(name)) => {
                let construct = format!("attribute \"{name}\" of \"{owner}\"");
                let decl = Attribute {
                    namespace: self.namespaces.local_attribute(a.form),
                    ..self.attribute_decl(a, key, name, owner)?
                };
                (decl, construct)
            }
            (Some(_), Some(_)) => {
                self.invalid(
                    span,
                    format!("xs:attribute in \"{owner}\""),
                    "an attribute has both name= and ref=",
                    None,
                );
                return None;
            }
            (None, None) => {
                self.invalid(
                    span,
                    format!("xs:attribute in \"{owner}\""),
                    "an attribute needs name= or ref=",
                    None,
                );
                return None;
            }
        };
        let required = match a.use_ {
            AttributeUseType::Required => true,
            AttributeUseType::Optional => false,
            AttributeUseType::Prohibited => {
                if a.default.is_some() {
                    self.invalid(
                        span,
                        construct,
                        "a prohibited attribute cannot have a default",
                        Some("XSD 1.0, 3.2.3: use must be optional when default is present".into()),
                    );
                    return None;
                }
                return Some(None);
            }
        };
        if required && decl.default.is_some() {
            self.invalid(
                span,
                construct,
                "a required attribute cannot have a default",
                Some("XSD 1.0, 3.2.3: use must be optional when default is present".into()),
            );
        }
        Some(Some(Attribute { required, ..decl }))
    }

    /// An attribute declaration (local or global): its type, value constraint and
    /// documentation; `required` is left to the use.
    fn attribute_decl(
        &mut self,
        a: &AttributeType,
        mut key: Key,
        name: &str,
        owner: &str,
    ) -> Option<Attribute> {
        let span = self.span(&key);
        let construct = format!("attribute \"{name}\" of \"{owner}\"");
        if a.annotation.is_some() {
            key.child("annotation");
        }
        let type_ref = match (&a.type_, &a.simple_type) {
            (Some(q), None) => self.type_ref(q, &span, &construct)?,
            (None, Some(st)) => {
                let k = key.child("simpleType");
                let tname = self.synthesise(&format!("{owner}_{name}"));
                let def = self.simple_type(st, &tname, k)?;
                self.insert(Some(def));
                TypeRef::Named(tname)
            }
            (None, None) => TypeRef::Builtin(Builtin::String),
            (Some(_), Some(_)) => {
                self.invalid(
                    span,
                    construct,
                    "an attribute has both type= and an inline simpleType",
                    None,
                );
                return None;
            }
        };
        if a.default.is_some() && a.fixed.is_some() {
            self.invalid(
                span,
                construct.clone(),
                "an attribute cannot have both default and fixed",
                None,
            );
        }
        self.attribute_types
            .push((type_ref.clone(), span, construct));
        Some(Attribute {
            name: name.to_string(),
            // Set by the caller: a global attribute is qualified, a local one by its form.
            namespace: None,
            type_ref,
            required: false,
            default: a.default.clone(),
            fixed: a.fixed.clone(),
            doc: documentation(a.annotation.as_ref()),
            span,
        })
    }

    fn particle(
        &mut self,
        g: &GroupType,
        local: &'static str,
        mut key: Key,
        owner: &str,
    ) -> Option<Particle> {
        let span = self.span(&key);
        let (min, max) = occurs(
            g.min_occurs,
            g.max_occurs,
            &span,
            self,
            &format!("xs:{local} in \"{owner}\""),
        )?;
        let mut items = Vec::new();
        let mut ok = true;
        for c in &g.content {
            match c {
                GroupTypeContent::Annotation(_) => {
                    key.child("annotation");
                }
                GroupTypeContent::Element(el) => {
                    let k = key.child("element");
                    match self.local_element(el, k, owner) {
                        Some(p) => items.push(p),
                        None => ok = false,
                    }
                }
                GroupTypeContent::Group(g) => {
                    let k = key.child("group");
                    let gspan = self.span(&k);
                    match self.group_ref(g, k, owner) {
                        Some(p) => {
                            ok &= self.all_not_nested(&p, gspan, owner);
                            items.push(p)
                        }
                        None => ok = false,
                    }
                }
                GroupTypeContent::Sequence(inner)
                | GroupTypeContent::Choice(inner)
                | GroupTypeContent::All(inner) => {
                    let l = match c {
                        GroupTypeContent::Sequence(_) => "sequence",
                        GroupTypeContent::Choice(_) => "choice",
                        _ => "all",
                    };
                    let k = key.child(l);
                    let ispan = self.span(&k);
                    match self.particle(inner, l, k, owner) {
                        Some(p) => {
                            ok &= self.all_not_nested(&p, ispan, owner);
                            items.push(p)
                        }
                        None => ok = false,
                    }
                }
                // xs:any and group references: reported by the scan.
                _ => ok = false,
            }
        }
        if !ok {
            return None;
        }
        // maxOccurs="0": the particle is not there (XSD 1.0, 3.9.1).
        items.retain(|p| p.max != Some(0));
        let term = match local {
            "sequence" => Term::Sequence(items),
            "choice" => Term::Choice(items),
            _ => Term::All(items),
        };
        Some(Particle { min, max, term })
    }

    /// XSD 1.0 (3.8.6, cos-all-limited): an `xs:all` is a whole content model, never a
    /// particle inside another group. Reports one at `span`; false if `p` is one.
    fn all_not_nested(&mut self, p: &Particle, span: Span, owner: &str) -> bool {
        if !matches!(p.term, Term::All(_)) {
            return true;
        }
        self.invalid(
            span,
            format!("xs:all in \"{owner}\""),
            "xs:all must be the whole content model of a type, not inside another model group (XSD 1.0, 3.8.6 cos-all-limited)",
            None,
        );
        false
    }

    /// XSD 1.0 (3.8.6, cos-all-limited): an `xs:all` content model occurs at most once and
    /// its elements at most once each.
    fn check_all(&mut self, p: &Particle, span: Span, owner: &str) -> bool {
        let Term::All(items) = &p.term else {
            return true;
        };
        let mut ok = true;
        if p.min > 1 || p.max != Some(1) {
            self.invalid(
                span,
                format!("xs:all in \"{owner}\""),
                "an xs:all content model has minOccurs 0 or 1 and maxOccurs 1 (XSD 1.0, 3.8.6 cos-all-limited)",
                None,
            );
            ok = false;
        }
        for item in items {
            if let Term::Element(e) = &item.term {
                if item.min > 1 || item.max.is_none_or(|m| m > 1) {
                    self.invalid(
                        e.span,
                        format!("element \"{}\" in xs:all of \"{owner}\"", e.name),
                        "an element in xs:all has minOccurs 0 or 1 and maxOccurs 0 or 1 (XSD 1.0, 3.8.6 cos-all-limited)",
                        None,
                    );
                    ok = false;
                }
            }
        }
        ok
    }

    /// An element particle of a content model: a local declaration or a reference to a
    /// global element, with its occurrence.
    fn local_element(&mut self, el: &ElementType, key: Key, owner: &str) -> Option<Particle> {
        let span = self.span(&key);
        let (decl, construct) = match (&el.ref_, &el.name) {
            (Some(q), None) => {
                let construct = format!("element ref=\"{q}\" in \"{owner}\"");
                let name = self.resolve_here(q, span, &construct, "element")?;
                let construct = format!("element ref=\"{name}\" in \"{owner}\"");
                let has_content = el
                    .content
                    .iter()
                    .any(|c| !matches!(c, ElementTypeContent::Annotation(_)));
                if el.type_.is_some()
                    || has_content
                    || el.default.is_some()
                    || el.fixed.is_some()
                    || el.nillable.is_some()
                    || el.form.is_some()
                    || el.block.is_some()
                {
                    self.invalid(
                        span,
                        construct,
                        "an element reference takes only minOccurs, maxOccurs and an annotation (the rest belongs to the declaration)",
                        Some("XSD 1.0, 3.3.3 (src-element.2.2)".into()),
                    );
                    return None;
                }
                if !self.globals.elements.raw.contains_key(&name) {
                    self.unsupported(
                        span,
                        construct,
                        format!("unknown global element \"{name}\""),
                        None,
                    );
                    return None;
                }
                let decl = ElementDecl {
                    span,
                    ..self.global_element(&name)?
                };
                (decl, construct)
            }
            (None, Some(name)) => {
                let construct = format!("element \"{name}\" in \"{owner}\"");
                let occurrence = occurs(el.min_occurs, el.max_occurs, &span, self, &construct)?;
                let decl = ElementDecl {
                    namespace: self.namespaces.local_element(el.form),
                    ..self.element_decl(el, key, name)?
                };
                let (min, max) = occurrence;
                return Some(Particle {
                    min,
                    max,
                    term: Term::Element(decl),
                });
            }
            (Some(_), Some(_)) => {
                self.invalid(
                    span,
                    format!("xs:element in \"{owner}\""),
                    "an element has both name= and ref=",
                    None,
                );
                return None;
            }
            (None, None) => {
                self.invalid(
                    span,
                    format!("xs:element in \"{owner}\""),
                    "an element needs name= or ref=",
                    None,
                );
                return None;
            }
        };
        let (min, max) = occurs(el.min_occurs, el.max_occurs, &span, self, &construct)?;
        Some(Particle {
            min,
            max,
            term: Term::Element(decl),
        })
    }

    /// The name of an element's anonymous type: the one reserved for it, or a fresh one.
    fn inline_type_name(&mut self, reserved: &Option<TypeRef>, name: &str) -> String {
        match reserved {
            Some(TypeRef::Named(n)) => n.clone(),
            _ => self.synthesise(name),
        }
    }

    fn element_decl(&mut self, el: &ElementType, key: Key, name: &str) -> Option<ElementDecl> {
        self.element_decl_reserved(el, key, name, None)
    }

    /// An element declaration; `reserved` is the type decided beforehand (a global
    /// element's: its anonymous type's name is taken before its content is converted).
    fn element_decl_reserved(
        &mut self,
        el: &ElementType,
        mut key: Key,
        name: &str,
        reserved: Option<TypeRef>,
    ) -> Option<ElementDecl> {
        let span = self.span(&key);
        let construct = format!("element \"{name}\"");
        let mut doc = None;
        let mut inline: Option<TypeRef> = None;
        let mut alternatives = Vec::new();
        let mut ok = true;
        for c in &el.content {
            match c {
                ElementTypeContent::Annotation(a) => {
                    key.child("annotation");
                    doc = documentation(Some(a));
                }
                ElementTypeContent::SimpleType(st) => {
                    let k = key.child("simpleType");
                    let tname = self.inline_type_name(&reserved, name);
                    let def = self.simple_type(st, &tname, k);
                    ok &= def.is_some();
                    self.insert(def);
                    inline = Some(TypeRef::Named(tname));
                }
                ElementTypeContent::ComplexType(ct) => {
                    let k = key.child("complexType");
                    let tname = self.inline_type_name(&reserved, name);
                    let def = self.complex_type(ct, &tname, k);
                    ok &= def.is_some();
                    self.insert(def);
                    inline = Some(TypeRef::Named(tname));
                }
                ElementTypeContent::Alternative(alt) => {
                    let k = key.child("alternative");
                    match self.alternative(alt, k, name) {
                        Some(a) => alternatives.push(a),
                        None => ok = false,
                    }
                }
                ElementTypeContent::Unique(_)
                | ElementTypeContent::Key(_)
                | ElementTypeContent::Keyref(_) => ok = false,
            }
        }
        let declared = match (&el.type_, inline) {
            (Some(_), Some(_)) => {
                self.invalid(
                    span,
                    construct,
                    "an element has both type= and an inline type",
                    None,
                );
                return None;
            }
            (Some(q), None) => self.type_ref(q, &span, &construct)?,
            (None, Some(t)) => t,
            (None, None) if alternatives.is_empty() => {
                self.unsupported(
                    span,
                    construct,
                    "an element without a type is not supported (it would be xs:anyType)",
                    Some("give it type=\"...\"".into()),
                );
                return None;
            }
            (None, None) => TypeRef::Builtin(Builtin::AnyType),
        };
        if !ok {
            return None;
        }
        let type_ref = if alternatives.is_empty() {
            if declared == TypeRef::Builtin(Builtin::AnyType) {
                self.unsupported(
                    span,
                    construct,
                    "xs:anyType content is not supported: documents must be fully typed",
                    Some("declare a type, or choose types with xs:alternative".into()),
                );
                return None;
            }
            declared
        } else {
            if declared != TypeRef::Builtin(Builtin::AnyType) {
                self.unsupported(span, construct, "xs:alternative is supported only on an element declared as xs:anyType", Some("declare the element with type=\"xs:anyType\"; the alternatives' types need no common base".into()));
                return None;
            }
            if alternatives
                .last()
                .map(|a: &Alternative| a.test.is_some())
                .unwrap_or(true)
            {
                // XSD 1.1: with no default alternative, the declared type (anyType) applies,
                // which would accept anything. Strictness demands a default.
                self.unsupported(
                    span,
                    construct,
                    "the last xs:alternative must have no test (the default type)",
                    Some("add <xs:alternative type=\"...\"/> as the last alternative".into()),
                );
                return None;
            }
            let tname = self.synthesise(name);
            let span2 = span;
            self.insert(Some(TypeDef {
                name: tname.clone(),
                doc: doc.clone(),
                span: span2,
                kind: TypeKind::Alternatives(alternatives),
            }));
            TypeRef::Named(tname)
        };
        if el.default.is_some() && el.fixed.is_some() {
            self.invalid(
                span,
                construct,
                "an element cannot have both default and fixed",
                Some("XSD 1.0, 3.3.3 (src-element.1)".into()),
            );
            return None;
        }
        let value = match (&el.default, &el.fixed) {
            (Some(d), None) => Some(ValueConstraint::Default(d.clone())),
            (None, Some(f)) => Some(ValueConstraint::Fixed(f.clone())),
            _ => None,
        };
        if value.is_some() {
            // Checked once every type is known: the type must have simple content.
            self.constrained_elements
                .push((type_ref.clone(), span, construct.clone()));
        }
        let nillable = el.nillable == Some(true);
        if nillable {
            self.nillable_elements
                .push((type_ref.clone(), span, construct));
        }
        Some(ElementDecl {
            name: name.to_string(),
            // Set by the caller: a global element is qualified, a local one by its form.
            namespace: None,
            span,
            type_ref,
            doc,
            value,
            nillable,
        })
    }

    fn alternative(&mut self, alt: &AltType, key: Key, element: &str) -> Option<Alternative> {
        let span = self.span(&key);
        let construct = format!("xs:alternative of element \"{element}\"");
        if alt
            .content
            .iter()
            .any(|c| !matches!(c, AltTypeContent::Annotation(_)))
        {
            self.unsupported(
                span,
                construct,
                "inline types in xs:alternative are not supported",
                Some("name the type and use type=\"...\"".into()),
            );
            return None;
        }
        let Some(q) = &alt.type_ else {
            self.invalid(
                span,
                construct,
                "xs:alternative needs a type attribute",
                None,
            );
            return None;
        };
        let type_ref = self.type_ref(q, &span, &construct)?;
        let test = match &alt.test {
            None => None,
            Some(t) => match parse_alt_test(t) {
                Some(test) => Some(test),
                None => {
                    self.unsupported(
                        span,
                        construct,
                        format!("the test \"{t}\" is not supported"),
                        Some("supported tests: @a, not(@a), @a = 'v', @a != 'v'".into()),
                    );
                    return None;
                }
            },
        };
        self.alternative_types
            .push((type_ref.clone(), span, element.to_string()));
        Some(Alternative { test, type_ref })
    }

    /// Checks what can only be checked once every type is known.
    fn check_references(&mut self) {
        let types = self.schema.types.clone();
        let failed = self.failed.clone();
        // A type that failed to convert counts as fitting: its own errors say enough.
        let is_simple = |t: &TypeRef| match t {
            TypeRef::Builtin(_) => Some(true),
            TypeRef::Named(n) if failed.contains(n) => Some(true),
            TypeRef::Named(n) => types
                .get(n)
                .map(|d| !matches!(d.kind, TypeKind::Complex(_) | TypeKind::Alternatives(_))),
        };
        let mut problems = Vec::new();
        let unknown = |n: &str| format!("unknown type \"{n}\"");
        for def in types.values() {
            let mut refs: Vec<&TypeRef> = Vec::new();
            match &def.kind {
                TypeKind::Restriction(r) => refs.push(&r.base),
                TypeKind::Enumeration(e) => refs.push(&e.base),
                TypeKind::List(l) => refs.push(&l.item),
                TypeKind::Union(members) => {
                    let span = self
                        .union_spans
                        .iter()
                        .find(|(n, _)| n == &def.name)
                        .map(|(_, s)| *s)
                        .unwrap_or(def.span);
                    for m in members {
                        match is_simple(m) {
                            Some(true) => {}
                            Some(false) => problems.push((span, format!("xs:union in simpleType \"{}\"", def.name), format!("member type \"{}\" is a complex type; XSD allows only simple member types in a union", name_of(m)), Some("to let an element take one of several complex shapes, declare it with xs:alternative (XSD 1.1) or use xs:choice".to_string()))),
                            None => problems.push((span, format!("xs:union in simpleType \"{}\"", def.name), unknown(name_of(m)), None)),
                        }
                    }
                }
                TypeKind::Complex(c) => {
                    let mut stack: Vec<&Particle> = Vec::new();
                    if let Content::Elements(p) | Content::Mixed(p) = &c.content {
                        stack.push(p);
                    }
                    while let Some(p) = stack.pop() {
                        match &p.term {
                            Term::Element(e) => refs.push(&e.type_ref),
                            Term::Sequence(v) | Term::Choice(v) | Term::All(v) => {
                                stack.extend(v.iter())
                            }
                        }
                    }
                }
                TypeKind::Alternatives(_) => {}
            }
            for r in refs {
                if is_simple(r).is_none() {
                    problems.push((
                        def.span,
                        format!("type \"{}\"", def.name),
                        unknown(name_of(r)),
                        None,
                    ));
                }
            }
        }
        for (t, span, construct) in self.attribute_types.clone() {
            match is_simple(&t) {
                Some(true) => {}
                Some(false) => problems.push((
                    span,
                    construct,
                    format!(
                        "\"{}\" is a complex type; an attribute needs a simple type",
                        name_of(&t)
                    ),
                    None,
                )),
                None => problems.push((span, construct, unknown(name_of(&t)), None)),
            }
        }
        for (n, span, owner) in self.simple_content_bases.clone() {
            let t = TypeRef::Named(n);
            match is_simple(&t) {
                Some(true) => {}
                Some(false) => problems.push((
                    span,
                    format!("xs:extension in complexType \"{owner}\""),
                    format!(
                        "extending the complex type \"{}\" is not supported",
                        name_of(&t)
                    ),
                    Some("extend its simple base type and repeat the attributes".into()),
                )),
                None => problems.push((
                    span,
                    format!("xs:extension in complexType \"{owner}\""),
                    unknown(name_of(&t)),
                    None,
                )),
            }
        }
        for (t, span, element) in self.alternative_types.clone() {
            if is_simple(&t).is_none() {
                problems.push((
                    span,
                    format!("xs:alternative of element \"{element}\""),
                    unknown(name_of(&t)),
                    None,
                ));
            }
        }
        for (t, span, construct) in self.constrained_elements.clone() {
            let simple_content = match &t {
                TypeRef::Named(n) => matches!(
                    types.get(n).map(|d| &d.kind),
                    Some(TypeKind::Complex(ComplexType {
                        content: Content::Simple(_),
                        ..
                    }))
                ),
                TypeRef::Builtin(_) => false,
            };
            if is_simple(&t) == Some(false) && !simple_content {
                problems.push((
                    span,
                    construct,
                    format!("default= or fixed= needs a simple type or simple content; \"{}\" has neither (supported: not on mixed content yet)", name_of(&t)),
                    Some("XSD 1.0, 3.3.6 (cos-valid-default.2)".into()),
                ));
            }
        }
        for (t, span, construct) in self.nillable_elements.clone() {
            if is_simple(&t) == Some(false) {
                problems.push((
                    span,
                    construct,
                    format!("nillable=\"true\" on an element of the complex type \"{}\" is not supported yet (only simple types)", name_of(&t)),
                    None,
                ));
            }
        }
        for (name, root) in &self.schema.roots {
            if is_simple(&root.type_ref).is_none() {
                problems.push((
                    Span { line: 1, column: 1 },
                    format!("element \"{name}\""),
                    unknown(name_of(&root.type_ref)),
                    None,
                ));
            }
        }
        for (span, construct, message, hint) in problems {
            // An unknown name or a complex type where a simple one is needed breaks XSD's
            // constraints (src-resolve, ct-props, st-props), unless the schema takes
            // components from other documents, which the generator does not read.
            // An unknown type is left to the validity pass, which resolves qualified names
            // as XSD does (this conversion matches local names): here it says only that the
            // generator could not follow the reference.
            let broken = message.contains("XSD allows only")
                || message.contains("an attribute needs a simple type");
            if broken && !self.composed {
                self.invalid(span, construct, message, hint);
            } else {
                self.unsupported(span, construct, message, hint);
            }
        }
    }
}

fn name_of(t: &TypeRef) -> &str {
    match t {
        TypeRef::Builtin(b) => b.xsd_name(),
        TypeRef::Named(n) => n,
    }
}

fn occurs(
    min: usize,
    max: MaxOccurs,
    span: &Span,
    cx: &mut Converter<'_>,
    construct: &str,
) -> Option<(u32, Option<u32>)> {
    let max = match max {
        MaxOccurs::Unbounded => None,
        MaxOccurs::Bounded(m) => Some(m as u32),
    };
    if let Some(m) = max {
        if (min as u32) > m {
            cx.invalid(
                *span,
                construct,
                format!("minOccurs {min} is greater than maxOccurs {m}"),
                None,
            );
            return None;
        }
    }
    Some((min as u32, max))
}

/// `@a`, `not(@a)`, `@a = 'v'`, `@a != 'v'` (either quote), with free white space.
fn parse_alt_test(test: &str) -> Option<AltTest> {
    let t = test.trim();
    let attr_name = |s: &str| -> Option<String> {
        let s = s.trim().strip_prefix('@')?.trim();
        (!s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.'))
        .then(|| s.to_string())
    };
    let literal = |s: &str| -> Option<String> {
        let s = s.trim();
        let q = s.chars().next()?;
        if (q == '\'' || q == '"') && s.len() >= 2 && s.ends_with(q) {
            let inner = &s[1..s.len() - 1];
            (!inner.contains(q)).then(|| inner.to_string())
        } else {
            None
        }
    };
    if let Some(inner) = t.strip_prefix("not(").and_then(|r| r.strip_suffix(')')) {
        return attr_name(inner).map(AltTest::Absent);
    }
    if let Some((l, r)) = t.split_once("!=") {
        return Some(AltTest::NotEquals(attr_name(l)?, literal(r)?));
    }
    if let Some((l, r)) = t.split_once('=') {
        return Some(AltTest::Equals(attr_name(l)?, literal(r)?));
    }
    attr_name(t).map(AltTest::Present)
}

/// The text of an annotation's documentation, with the indentation of the schema file removed.
fn documentation(a: Option<&Annotation>) -> Option<String> {
    let a = a?;
    let mut text = String::new();
    for c in &a.content {
        if let AnnotationContent::Documentation(el) = c {
            for v in &el.values {
                match v {
                    Value::Text(t) => text.push_str(
                        &quick_xml::escape::unescape(&String::from_utf8_lossy(t))
                            .unwrap_or_default(),
                    ),
                    Value::CData(t) => text.push_str(&String::from_utf8_lossy(t)),
                    _ => {}
                }
            }
        }
    }
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let joined = lines.join("\n").trim().to_string();
    (!joined.is_empty()).then_some(joined)
}

/// An XML name as Rust can take it: NFKC-normalised (Rust requires it: `ĳ` is `ij`), with
/// every character that cannot continue an identifier (XID_Continue) turned into a `-`
/// separator. ASCII names come out unchanged.
pub fn identifier_chars(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    s.nfkc()
        .map(|c| {
            if c == '_' || unicode_ident::is_xid_continue(c) {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// `PascalCase` for type names: `cbf-1.0` -> `Cbf10`, `game` -> `Game`, `MoveList` stays.
pub fn pascal(s: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in identifier_chars(s).chars() {
        if c.is_alphanumeric() {
            if upper {
                out.extend(c.to_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        } else {
            upper = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternative_tests() {
        assert_eq!(
            parse_alt_test("@type = 'text'"),
            Some(AltTest::Equals("type".into(), "text".into()))
        );
        assert_eq!(
            parse_alt_test("@type"),
            Some(AltTest::Present("type".into()))
        );
        assert_eq!(
            parse_alt_test(" not(@type) "),
            Some(AltTest::Absent("type".into()))
        );
        assert_eq!(
            parse_alt_test("@a != \"b\""),
            Some(AltTest::NotEquals("a".into(), "b".into()))
        );
        assert_eq!(parse_alt_test("@a = 'b' or @c"), None);
        assert_eq!(parse_alt_test("count(@a) > 1"), None);
    }
}
