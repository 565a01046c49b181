//! The passes from the documents' trees to the IR, and the driver that runs them in order
//! ([`run`]):
//!
//! 1. the markup checks (`xsd/markup.rs`) and the validity pass (`xsd/validity`) judge
//!    each document; a document not well-formed stops here;
//! 2. xsd-parser models each document from its tree (`xsd/adapter.rs`); one it cannot
//!    read stops here;
//! 3. [`redefine`]: what each `xs:redefine` replaces (the originals keep their names
//!    apart);
//! 4. [`register`]: every document's global components by expanded name (a reference may
//!    name a component of a later document);
//! 5. [`substitution`] and [`type_substitution`] note substitution groups, `block`s and
//!    derivation chains, before anything is converted;
//! 6. [`recursion`]: the groups referred to from an anonymous type inside themselves,
//!    whose anonymous types the conversion defers;
//! 7. [`convert`]: every component into the IR, on first use (with [`simple`],
//!    [`complex`] and [`particles`]; [`derivation`] records what derived types add,
//!    [`identity`], [`wildcard`] and [`substitution`] what elements and types need);
//! 8. [`derivation`] resolves the derived types, base first, and checks `final`;
//!    [`open_content`] then writes XSD 1.1's open content into each type's content model;
//! 9. [`identity`] copies the named types that identity constraints are put on;
//! 10. [`references`] checks what needs every type known;
//! 11. [`nillable`] adds the companions of nillable elements, and [`type_substitution`]
//!     notes the types documents' roots may take by `xsi:type`.
//!
//! Each pass runs once: none re-runs the conversion. They share one [`Converter`]: the
//! documents, the names registered, the IR being built and the diagnostics.

mod complex;
mod convert;
mod derivation;
mod identity;
mod model;
mod namespaces;
mod nillable;
mod open_content;
mod overrides;
mod particles;
mod recursion;
mod redefine;
mod references;
mod register;
mod simple;
mod substitution;
mod type_substitution;
mod wildcard;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use xsd_parser::models::schema::xs::{
    Annotation, AnnotationContent, AttributeGroupType, AttributeType, ElementType, GroupType,
};
use xsd_parser::models::schema::{MaxOccurs, QName};
// xsd-parser keeps documentation as an untyped element tree of its types crate.
use xsd_parser_types::xml::Value;

use super::adapter::{self, Item, What};
use super::{compose, markup, pascal, tree, validity};
use crate::diagnostic::{Diagnostics, Kind, SchemaDiagnostic};
use crate::ir::*;

/// Runs every pass, in order, over the documents of one schema (within the limits, on a
/// stack sized for them); every diagnostic names the document it stands in.
pub(super) fn run(set: &compose::DocumentSet) -> Result<Schema, Diagnostics> {
    let docs = &set.documents[..];
    if docs.is_empty() {
        let mut d = set.diagnostics.clone();
        d.sort();
        return Err(Diagnostics(d));
    }
    // 1. The markup checks and the validity pass.
    let (problems, validity) = judge(docs);
    let mut cx = Converter::new(docs, validity);
    cx.diagnostics.extend(problems);
    cx.diagnostics.extend(set.diagnostics.iter().cloned());
    if cx
        .diagnostics
        .iter()
        .any(|d| d.message.starts_with("not well-formed"))
    {
        return finish(cx);
    }
    // 2. xsd-parser's model of each document.
    let Some(roots) = models(&mut cx) else {
        cx.set_doc(0);
        return finish(cx);
    };
    cx.roots = roots.clone();
    // 3. What each xs:redefine and xs:override replaces.
    cx.plan_redefinitions(&roots);
    cx.plan_overrides(&roots);
    // 4. Every document's names first (a reference may name a component of a later one).
    for root in &roots {
        cx.set_doc(root.doc);
        cx.register_schema(*root);
    }
    // 5. Substitution groups, blocks and derivation chains.
    for root in &roots {
        if let What::Schema(raw) = root.what {
            cx.set_doc(root.doc);
            cx.note_substitutions(raw, *root);
            cx.note_type_substitution(raw, *root);
        }
    }
    // 6. The groups whose anonymous types the conversion defers.
    recursion::find(&mut cx);
    // 7. The conversion.
    for root in &roots {
        cx.set_doc(root.doc);
        cx.convert_schema(*root);
    }
    cx.set_doc(0);
    // 8.-11. What needs every type converted.
    cx.resolve_derivations();
    cx.apply_open_content();
    cx.copy_named_types();
    cx.check_references();
    nillable::add_companions(&mut cx);
    cx.note_root_types();
    finish(cx)
}

/// What the markup checks find in each document, and what the validity pass finds (which
/// the conversion's own reports of the same problems give way to, [`finish`]).
fn judge(docs: &[compose::Document]) -> (Vec<SchemaDiagnostic>, Vec<SchemaDiagnostic>) {
    let located = |path: &Path, p: markup::ScanProblem| SchemaDiagnostic {
        file: path.to_owned(),
        span: p.span,
        construct: p.construct,
        message: p.message,
        hint: p.hint,
        kind: p.kind,
    };
    let problems = docs
        .iter()
        .flat_map(|d| {
            markup::check(&d.tree)
                .into_iter()
                .map(|p| located(&d.path, p))
        })
        .collect();
    // The validity pass of each document knows the components of all of them.
    let mut known = validity::Known::default();
    for d in docs {
        known.add_document(&d.tree, d.namespace.as_deref());
    }
    let mut found = Vec::new();
    for (i, d) in docs.iter().enumerate() {
        let incomplete = d.compositions.iter().any(|c| c.failed);
        let problems = validity::check_in(&d.tree, i, &known, d.namespace.as_deref(), incomplete);
        found.extend(problems.into_iter().map(|p| located(&d.path, p)));
        // Each redefinition against what it redefines (src-redefine 6.2.2, 7.2.2).
        for c in &d.compositions {
            let (compose::How::Redefine, Some(j)) = (c.how, c.document) else {
                continue;
            };
            let Some(redefine) = d
                .tree
                .nodes
                .iter()
                .position(|n| n.is("redefine") && n.span == c.span)
            else {
                continue;
            };
            if j == i {
                continue;
            }
            let problems = validity::check_redefinition(
                &d.tree,
                redefine,
                &docs[j].tree,
                &known,
                d.namespace.as_deref(),
            );
            found.extend(problems.into_iter().map(|p| located(&d.path, p)));
        }
    }
    (problems, found)
}

/// xsd-parser's model of every document, each as the [`Item`] of its root, with each
/// document's namespace facts noted; `None` if xsd-parser cannot read one (reported).
fn models<'a>(cx: &mut Converter<'a>) -> Option<Vec<Item<'a>>> {
    let docs = cx.docs;
    let mut roots = Vec::new();
    for (i, d) in docs.iter().enumerate() {
        match adapter::model(&d.tree, &d.model) {
            Ok(raw) => {
                // A chameleon include's components (its document has no targetNamespace)
                // take the includer's namespace, which compose gives it.
                let facts = namespaces::Namespaces::of(raw, d.namespace.clone());
                cx.doc_namespaces.push(facts);
                let root = Item {
                    doc: i,
                    node: 0,
                    what: What::Schema(raw),
                };
                let defaults = raw.default_attributes.clone().filter(|_| d.tree.xsd_1_1());
                cx.doc_default_attributes.push(defaults.map(|q| {
                    let group = AttributeGroupType {
                        id: None,
                        name: None,
                        ref_: Some(q),
                        content: Vec::new(),
                    };
                    (group, root)
                }));
                roots.push(root);
            }
            // A document with problems of its own (the markup checks report them) is no
            // surprise to xsd-parser: only its refusal of a sound document is news.
            Err(_) if !d.tree.well_formed() => {
                cx.doc_namespaces.push(namespaces::Namespaces::default());
                cx.doc_default_attributes.push(None);
            }
            Err(error) => {
                cx.doc_namespaces.push(namespaces::Namespaces::default());
                cx.doc_default_attributes.push(None);
                cx.set_doc(i);
                cx.unsupported(
                    Span { line: 1, column: 1 },
                    "the schema document",
                    format!("xsd-parser cannot read it: {}", at_most(error, 200)),
                    None,
                );
            }
        }
    }
    (roots.len() == docs.len()).then_some(roots)
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
    // A type whose conversion failed is always reported where it failed; should one fail
    // unreported, the schema is still not accepted (the code would name a missing type).
    if diagnostics.is_empty() && !cx.failed.is_empty() {
        let mut names: Vec<&String> = cx.failed.iter().collect();
        names.sort();
        diagnostics.push(SchemaDiagnostic {
            file: cx.docs[0].path.clone(),
            span: Span { line: 1, column: 1 },
            construct: "the schema".into(),
            message: format!(
                "internal error: the types {names:?} could not be converted, and nothing says why"
            ),
            hint: None,
            kind: Kind::Unsupported,
        });
    }
    if diagnostics.is_empty() {
        return Ok(cx.schema);
    }
    diagnostics.sort();
    let mut seen = HashSet::new();
    diagnostics.retain(|d| seen.insert((d.span, d.message.clone())));
    Err(Diagnostics(diagnostics))
}

/// `text` cut to `limit` characters: an error of the parser underneath may quote the
/// document, and a message does not repeat more than a glimpse of a file.
fn at_most(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

struct Converter<'a> {
    /// The current document's path (see [`Converter::set_doc`]).
    path: &'a Path,
    /// Every document of the schema; `doc` is the current one.
    docs: &'a [compose::Document],
    doc: usize,
    /// The document each converted type stands in.
    type_docs: HashMap<String, usize>,
    /// Converting a redefinition (Part 1, 4.2.2): its reference to the component it
    /// redefines (the kind, `type`, `group` or `attributeGroup`, and name) names the
    /// original.
    redefining: Option<(&'static str, String)>,
    /// Components of redefined documents that a redefinition replaces: (document, kind,
    /// name), registered under their original's name (`redefine.rs`) taken this many
    /// times (a chain of redefines, each redefining the one below it, makes an original of
    /// an original).
    renamed: HashMap<(usize, &'static str, String), usize>,
    /// Top-level components an `xs:override` replaces: (document, kind, name)
    /// (`overrides.rs`).
    overridden: HashSet<(usize, &'static str, String)>,
    /// The children of `xs:override` elements that replace a component: (document, node).
    overriding: HashSet<(usize, usize)>,
    /// For each of them, the document whose component it replaces: it stands in that
    /// document (Part 1, 4.2.5, the override transformation), whose `defaultOpenContent`
    /// and `defaultAttributes` apply to it.
    override_home: HashMap<(usize, usize), usize>,
    /// The document whose defaults apply to the top-level component being converted,
    /// where it is not the one it stands in (an overriding component's home).
    defaults_doc: Option<usize>,
    /// XSD 1.1 lets an attribute group refer to itself, directly or not: the reference
    /// that closes the cycle adds nothing. The lowest place in `in_progress` such a
    /// reference reached: the groups above it are read without the whole cycle, so their
    /// attributes are not kept for other references (`convert.rs`).
    attribute_group_cut: Option<usize>,
    /// The type of each type table (an element's alternatives) built so far, by the
    /// table's contents: declarations with equivalent tables share one type, as Element
    /// Declarations Consistent asks of XSD 1.1 (3.8.6.3: same type, equivalent tables).
    type_tables: HashMap<Vec<Alternative>, String>,
    diagnostics: Vec<SchemaDiagnostic>,
    schema: Schema,
    /// Rust-facing type names taken, to synthesise unique names for anonymous types.
    names: HashSet<String>,
    // References checked once every type is known, with where they stand.
    // (Each span with the document it stands in.)
    union_spans: Vec<(String, At)>,
    attribute_types: Vec<(TypeRef, At, String)>,
    simple_content_bases: Vec<(String, At, String)>,
    alternative_types: Vec<(TypeRef, At, String)>,
    constrained_elements: Vec<(TypeRef, At, String)>,
    /// Every value constraint (`default=`, `fixed=`) of an element or attribute
    /// declaration or attribute use: the type, the value, where, the construct; checked
    /// against the type once every type is known.
    value_constraints: Vec<(TypeRef, String, At, String)>,
    nillable_elements: Vec<(TypeRef, At, String)>,
    /// Declarations with identity constraints that read with a copy of a named type: the
    /// copy's name and where the declaration stands (see `xsd/passes/identity.rs`).
    identity_copies: Vec<(String, Span)>,
    /// Declared types whose conversion failed (already reported).
    failed: HashSet<String>,
    /// A document the schema includes, imports or redefines could not be loaded (that is
    /// reported): a name not found may be defined there.
    composed: bool,
    /// What the validity pass found (merged by [`finish`]).
    validity: Vec<SchemaDiagnostic>,
    /// What the conversion finds that the validity pass also checks (circular groups,
    /// attributes declared twice), each with the start of the validity pass's message for
    /// the same problem: reported only where the validity pass said nothing of it (one
    /// report per problem, never none).
    seconds: Vec<(String, SchemaDiagnostic)>,
    /// Global elements, attributes, groups and attribute groups, converted on first use.
    globals: Globals<'a>,
    /// Every global attribute is in `schema.global_attributes` (for wildcards).
    global_attributes_collected: bool,
    /// Derived complex types waiting for their bases, and `final` constraints.
    derived: derivation::Derivations,
    /// Substitution groups: members, `block`s and derivation chains.
    subst: substitution::Substitutions,
    /// What type substitution (`xsi:type`) needs of every named type.
    typesub: type_substitution::TypeSubstitutions,
    /// The current document's target namespace, the forms of its local declarations and
    /// how its references resolve (switched with the document, [`Converter::set_doc`]).
    namespaces: namespaces::Namespaces,
    /// Each document's namespace facts, by document index.
    doc_namespaces: Vec<namespaces::Namespaces>,
    /// Each document's `defaultAttributes` (XSD 1.1, a document read as 1.1), as the
    /// attribute group reference its complex types take, with the document's root (where
    /// the name stands and is resolved), by document index.
    doc_default_attributes: Vec<Option<(AttributeGroupType, Item<'a>)>>,
    /// XSD 1.1's open content of each complex type (`open_content.rs`).
    open_contents: open_content::OpenContents,
    /// Each document's root, by document index (once xsd-parser has modelled them all).
    roots: Vec<Item<'a>>,
    /// Every named identity constraint of the schema by expanded name, for XSD 1.1's
    /// `ref=` on one (built on the first such reference: `identity.rs`).
    identity_index: Option<HashMap<String, Item<'a>>>,
    /// The type that stands for XSD 1.1's `xs:error`, made on its first reference.
    error_type: Option<String>,
    /// The attribute uses `defaultAttributes` groups gave (`derivation::united`).
    default_uses: derivation::DefaultUses,
    /// The key each global component is known by in this converter, by expanded name:
    /// (kind, namespace, local name) to the key of its `Globals` map or of
    /// `schema.types`. The local name unless a component of the same kind in another
    /// namespace took it (then `local-2`, ...: two namespaces' components are two).
    component_keys: HashMap<(&'static str, Option<String>, String), String>,
    /// The keys in `component_keys`, by kind: which keys are taken, without a scan.
    taken_keys: HashSet<(&'static str, String)>,
    /// Groups referred to from anonymous types inside themselves (`xsd/passes/recursion.rs`).
    recursion: recursion::Recursion<'a>,
}

/// One kind of global declaration: the raw declarations by name with where each stands,
/// what each converted to (`None`: it failed, already reported), and which are being
/// converted (a reference to one of those is a cycle).
struct Declarations<'a, Raw, Converted> {
    raw: HashMap<String, (&'a Raw, Item<'a>)>,
    converted: HashMap<String, Option<Converted>>,
    in_progress: Vec<String>,
}

impl<Raw, Converted> Default for Declarations<'_, Raw, Converted> {
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
struct Globals<'a> {
    elements: Declarations<'a, ElementType, ElementDecl>,
    attributes: Declarations<'a, AttributeType, Attribute>,
    groups: Declarations<'a, GroupType, Particle>,
    attribute_groups: Declarations<'a, AttributeGroupType, Vec<Attribute>>,
}

/// A span with the index of the document it stands in.
type At = (usize, Span);

/// What [`Converter::enter`] saves.
struct Outer {
    doc: usize,
    redefining: Option<(&'static str, String)>,
}

impl<'a> Converter<'a> {
    /// The state of the passes over `docs`, before any; `validity`: what the validity
    /// pass found.
    fn new(docs: &'a [compose::Document], validity: Vec<SchemaDiagnostic>) -> Self {
        Converter {
            path: &docs[0].path,
            docs,
            doc: 0,
            type_docs: HashMap::new(),
            redefining: None,
            renamed: HashMap::new(),
            overridden: HashSet::new(),
            overriding: HashSet::new(),
            override_home: HashMap::new(),
            defaults_doc: None,
            attribute_group_cut: None,
            type_tables: HashMap::new(),
            diagnostics: Vec::new(),
            schema: Schema::default(),
            names: HashSet::new(),
            union_spans: Vec::new(),
            attribute_types: Vec::new(),
            simple_content_bases: Vec::new(),
            alternative_types: Vec::new(),
            constrained_elements: Vec::new(),
            value_constraints: Vec::new(),
            nillable_elements: Vec::new(),
            identity_copies: Vec::new(),
            failed: HashSet::new(),
            // A document that could not be loaded may declare what is not found.
            composed: docs.iter().any(|d| d.compositions.iter().any(|c| c.failed)),
            global_attributes_collected: false,
            validity,
            globals: Globals::default(),
            seconds: Vec::new(),
            derived: derivation::Derivations::default(),
            subst: substitution::Substitutions::default(),
            typesub: type_substitution::TypeSubstitutions::default(),
            namespaces: namespaces::Namespaces::default(),
            doc_namespaces: Vec::new(),
            doc_default_attributes: Vec::new(),
            roots: Vec::new(),
            identity_index: None,
            error_type: None,
            default_uses: derivation::DefaultUses::new(),
            component_keys: HashMap::new(),
            taken_keys: HashSet::new(),
            recursion: recursion::Recursion::default(),
            open_contents: open_content::OpenContents::default(),
        }
    }

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

    /// Where `at` stands.
    fn span(&self, at: Item<'_>) -> Span {
        self.node(at).span
    }

    /// The node `at` stands at, in its document's tree.
    fn node(&self, at: Item<'_>) -> &'a tree::Node {
        let docs: &'a [compose::Document] = self.docs;
        &docs[at.doc].tree.nodes[at.node]
    }

    /// The children of `at` ([`adapter::children`]).
    fn children(&self, at: Item<'a>) -> Vec<Item<'a>> {
        adapter::children(&self.docs[at.doc].tree, at)
    }

    /// Whether a global declaration stands in an `xs:redefine` (a redefinition).
    fn in_redefine(&self, at: Item<'_>) -> bool {
        let nodes = &self.docs[at.doc].tree.nodes;
        nodes[at.node]
            .parent
            .is_some_and(|p| nodes[p].is("redefine"))
    }

    /// Makes document `doc` the current one: what diagnostics name and whose namespace
    /// facts apply.
    fn set_doc(&mut self, doc: usize) {
        let docs = self.docs;
        self.doc = doc;
        self.path = &docs[doc].path;
        self.namespaces = self.doc_namespaces.get(doc).cloned().unwrap_or_default();
    }

    /// Switches to the document a global declaration stands in; returns what
    /// [`Converter::leave`] restores.
    fn enter(&mut self, at: Item<'_>) -> Outer {
        let outer = Outer {
            doc: self.doc,
            redefining: self.redefining.take(),
        };
        self.set_doc(at.doc);
        outer
    }

    fn leave(&mut self, outer: Outer) {
        self.set_doc(outer.doc);
        self.redefining = outer.redefining;
    }

    fn type_doc(&self, name: &str) -> usize {
        self.type_docs.get(name).copied().unwrap_or(0)
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
            self.type_docs.insert(def.name.clone(), self.doc);
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
}

fn occurs(
    min: usize,
    max: MaxOccurs,
    span: &Span,
    cx: &mut Converter<'_>,
    construct: &str,
) -> Option<(u32, Option<u32>)> {
    // Counts beyond 2^32-1 saturate: no document the runtime reads holds as many children
    // (see `tree::xsd_attribute_values`).
    let min = u32::try_from(min).unwrap_or(u32::MAX);
    let max = match max {
        MaxOccurs::Unbounded => None,
        MaxOccurs::Bounded(m) => Some(u32::try_from(m).unwrap_or(u32::MAX)),
    };
    if let Some(m) = max {
        if min > m {
            cx.invalid(
                *span,
                construct,
                format!("minOccurs {min} is greater than maxOccurs {m}"),
                None,
            );
            return None;
        }
    }
    Some((min, max))
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

/// The local part of a QName (where only the local name is compared, e.g. a prohibited
/// attribute against its base's attributes).
fn local_name(q: &QName) -> String {
    String::from_utf8_lossy(q.local_name()).into_owned()
}
