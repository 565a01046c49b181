//! The adapter: the only module that sees XSD.
//!
//! xsd-parser reads the schema into its raw tree (its parser only: its interpreter and
//! optimiser flatten away what we need, such as `fixed`, `xs:alternative` and the facets of
//! each derivation step). This module converts that tree into our IR, resolving names,
//! translating patterns and reporting, with positions from `source`, every construct the
//! generator does not support. Nothing is skipped silently.

mod adapter;
pub mod catalog;
pub mod compose;
mod derivation;
mod identity;
pub mod limits;
mod model;
mod namespaces;
mod nillable;
mod recursion;
mod schema_file;
mod source;
mod substitution;
pub mod tree;
mod type_substitution;
mod validity;
mod vocabulary;
mod wildcard;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

pub use adapter::models_read;
pub use catalog::Catalog;
pub use compose::{Allowed, Cache, MAX_SCHEMA_BYTES};
pub use tree::documents_parsed;

use xsd_parser::models::schema::xs::{
    AltType, AltTypeContent, Annotation, AnnotationContent, AttributeGroupType, AttributeType,
    AttributeUseType, ComplexBaseType, ElementType, ElementTypeContent, ExtensionType, Facet,
    FacetType, GroupType, SchemaContent, SimpleBaseType,
};
use xsd_parser::models::schema::{MaxOccurs, QName};
// xsd-parser keeps documentation as an untyped element tree of its types crate.
use xsd_parser_types::xml::Value;

use crate::diagnostic::{Diagnostics, Kind, SchemaDiagnostic};
use crate::ir::*;
use adapter::{Item, What};

/// Reads and converts one schema file (and the documents it includes, imports or
/// redefines).
pub fn read_schema_file(path: &Path) -> Result<Schema, Diagnostics> {
    read_schema_files(&[path.to_owned()], &Catalog::default())
}

/// Reads and converts schema files that together form one schema, with the documents they
/// bring in (their locations mapped by `catalog`).
pub fn read_schema_files(paths: &[PathBuf], catalog: &Catalog) -> Result<Schema, Diagnostics> {
    read_schema_files_allowed(paths, catalog, &Allowed::default())
}

/// [`read_schema_files`], the documents also allowed to read under `allowed`'s folders.
pub fn read_schema_files_allowed(
    paths: &[PathBuf],
    catalog: &Catalog,
    allowed: &Allowed,
) -> Result<Schema, Diagnostics> {
    read_schema_files_cached(paths, catalog, allowed, &Cache::new())
}

/// [`read_schema_files_allowed`], the files already read in this run taken from `cache`.
pub fn read_schema_files_cached(
    paths: &[PathBuf],
    catalog: &Catalog,
    allowed: &Allowed,
    cache: &Cache,
) -> Result<Schema, Diagnostics> {
    let roots = paths.iter().map(|p| (p.clone(), None)).collect();
    read_documents(&compose::load_cached(roots, catalog, allowed, cache))
}

/// Converts one schema given as text; `path` names it in diagnostics, and the documents it
/// brings in are found relative to it.
pub fn read_schema(path: &Path, text: &str) -> Result<Schema, Diagnostics> {
    let roots = vec![(path.to_owned(), Some(text.to_owned()))];
    read_documents(&compose::load(roots, &Catalog::default()))
}

/// Converts the documents of one schema ([`compose::load`]) into one IR schema; every
/// diagnostic names the document it stands in.
///
/// A `schemaLocation` of `xs:include`, `xs:import` or `xs:redefine` that does not resolve
/// (no such file, or a URL no catalog maps) is not an error in itself (XSD 1.0 Part 1,
/// 4.2.1-4.2.3: "no corresponding inclusion is performed"): the schema is read without the
/// document, and if that reading is valid the location comes back as a warning
/// ([`Schema::warnings`]). If the schema needs what the document would have declared, the
/// unresolved location is the error, as if the reading without it had not been tried (what
/// is then missing is no further error).
pub fn read_documents(set: &compose::DocumentSet) -> Result<Schema, Diagnostics> {
    // Before anything that recurses on the documents' structure.
    let mut too_deep = limits::check(set);
    if !too_deep.is_empty() {
        too_deep.extend(set.diagnostics.iter().cloned());
        too_deep.sort();
        return Err(Diagnostics(too_deep));
    }
    crate::on_schema_stack(|| read_limited_documents(set))
}

/// [`read_documents`] of documents within the limits, on a stack sized for them.
fn read_limited_documents(set: &compose::DocumentSet) -> Result<Schema, Diagnostics> {
    let unresolved = |d: &SchemaDiagnostic| {
        d.kind == Kind::Io
            && set.documents.iter().any(|doc| {
                doc.path == d.file
                    && doc
                        .compositions
                        .iter()
                        .any(|c| c.failed && !c.refused && c.span == d.span)
            })
    };
    let (skipped, others): (Vec<&SchemaDiagnostic>, Vec<&SchemaDiagnostic>) =
        set.diagnostics.iter().partition(|d| unresolved(d));
    if !skipped.is_empty() && others.is_empty() {
        let mut without = set.clone();
        without.diagnostics.clear();
        for doc in &mut without.documents {
            for c in &mut doc.compositions {
                c.failed = false;
            }
        }
        if let Ok(mut schema) = convert_documents(&without) {
            schema.warnings = skipped
                .into_iter()
                .map(|d| SchemaDiagnostic {
                    message: format!(
                        "{}; the schema is read without it, since nothing it would declare is used (XSD 1.0, 4.2: a location that does not resolve is no error in itself)",
                        d.message
                    ),
                    kind: Kind::Warning,
                    ..d.clone()
                })
                .collect();
            return Ok(schema);
        }
    }
    convert_documents(set)
}

/// `text` cut to `limit` characters: an error of the parser underneath may quote the
/// document, and a message does not repeat more than a glimpse of a file.
fn at_most(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// [`read_documents`] without the fallback for unresolved locations.
fn convert_documents(set: &compose::DocumentSet) -> Result<Schema, Diagnostics> {
    let docs = &set.documents[..];
    if docs.is_empty() {
        let mut d = set.diagnostics.clone();
        d.sort();
        return Err(Diagnostics(d));
    }
    let scans: Vec<Vec<source::ScanProblem>> = docs.iter().map(|d| source::scan(&d.tree)).collect();
    // The validity pass of each document knows the components of all of them.
    let mut known = validity::Known::default();
    for d in docs {
        known.add_document(&d.tree, d.namespace.as_deref());
    }
    let located = |path: &Path, p: source::ScanProblem| SchemaDiagnostic {
        file: path.to_owned(),
        span: p.span,
        construct: p.construct,
        message: p.message,
        hint: p.hint,
        kind: p.kind,
    };
    let mut validity = Vec::new();
    for d in docs {
        let incomplete = d.compositions.iter().any(|c| c.failed);
        let found = validity::check_in(&d.tree, &known, d.namespace.as_deref(), incomplete);
        validity.extend(found.into_iter().map(|p| located(&d.path, p)));
    }
    let mut cx = Converter {
        path: &docs[0].path,
        docs,
        doc: 0,
        type_docs: HashMap::new(),
        redefining: None,
        renamed: HashMap::new(),
        diagnostics: Vec::new(),
        schema: Schema::default(),
        names: HashSet::new(),
        union_spans: Vec::new(),
        attribute_types: Vec::new(),
        simple_content_bases: Vec::new(),
        alternative_types: Vec::new(),
        constrained_elements: Vec::new(),
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
        component_keys: HashMap::new(),
        recursion: recursion::Recursion::default(),
    };
    for (d, problems) in docs.iter().zip(scans) {
        cx.diagnostics
            .extend(problems.into_iter().map(|p| located(&d.path, p)));
    }
    cx.diagnostics.extend(set.diagnostics.iter().cloned());
    if cx
        .diagnostics
        .iter()
        .any(|d| d.message.starts_with("not well-formed"))
    {
        return finish(cx);
    }
    let mut roots = Vec::new();
    for (i, d) in docs.iter().enumerate() {
        match adapter::model(&d.tree) {
            Ok(raw) => roots.push(Some(Item {
                doc: i,
                node: 0,
                what: What::Schema(raw),
            })),
            Err(error) => {
                cx.set_doc(i);
                cx.unsupported(
                    Span { line: 1, column: 1 },
                    "the schema document",
                    format!("xsd-parser cannot read it: {}", at_most(error, 200)),
                    None,
                );
                roots.push(None);
            }
        }
    }
    if roots.iter().any(Option::is_none) {
        cx.set_doc(0);
        return finish(cx);
    }
    let roots: Vec<Item<'_>> = roots.into_iter().flatten().collect();
    let raws: Vec<&xsd_parser::models::schema::xs::Schema> = roots
        .iter()
        .filter_map(|r| match r.what {
            What::Schema(raw) => Some(raw),
            _ => None,
        })
        .collect();
    // Each document's namespace facts; a chameleon include's components (its document
    // has no targetNamespace) take the includer's namespace, which compose gives it.
    cx.doc_namespaces = raws
        .iter()
        .zip(docs)
        .map(|(raw, d)| namespaces::Namespaces::of(raw, d.namespace.clone()))
        .collect();
    cx.plan_redefinitions(&roots);
    // Every document's names first (a reference may name a component of a later one).
    for root in &roots {
        cx.set_doc(root.doc);
        cx.register_schema(*root);
    }
    for (i, raw) in raws.iter().enumerate() {
        cx.set_doc(i);
        cx.note_substitutions(raw);
        cx.note_type_substitution(raw);
    }
    recursion::find(&mut cx);
    for root in &roots {
        cx.set_doc(root.doc);
        cx.convert_schema(*root);
    }
    cx.set_doc(0);
    cx.resolve_derivations();
    cx.copy_named_types();
    cx.check_references();
    nillable::add_companions(&mut cx);
    cx.note_root_types();
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
    /// name), registered under [`original_name`] taken this many times (a chain of
    /// redefines, each redefining the one below it, makes an original of an original).
    renamed: HashMap<(usize, &'static str, String), usize>,
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
    nillable_elements: Vec<(TypeRef, At, String)>,
    /// Declarations with identity constraints that read with a copy of a named type: the
    /// copy's name, where the declaration stands, the construct (see `xsd/identity.rs`).
    identity_copies: Vec<(String, At, String)>,
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
    /// The key each global component is known by in this converter, by expanded name:
    /// (kind, namespace, local name) to the key of its `Globals` map or of
    /// `schema.types`. The local name unless a component of the same kind in another
    /// namespace took it (then `local-2`, ...: two namespaces' components are two).
    component_keys: HashMap<(&'static str, Option<String>, String), String>,
    /// Groups referred to from anonymous types inside themselves (`xsd/recursion.rs`).
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

/// The name a redefined component's original keeps: the redefinition takes its name
/// (Part 1, 4.2.2: every reference, in either document, is to the redefinition, except the
/// redefinition's own reference to what it redefines).
fn original_name(name: &str, depth: usize) -> String {
    format!("{name}{}", "-original".repeat(depth))
}

impl<'a> Converter<'a> {
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

    /// The name a reference of `kind` to `name` resolves to: the original component when
    /// it stands inside the redefinition of that very component.
    fn redefined(&self, kind: &'static str, name: String) -> String {
        match &self.redefining {
            Some((k, n)) if *k == kind && *n == name => {
                original_name(&name, self.renamed_depth(self.doc, kind, &name) + 1)
            }
            _ => name,
        }
    }

    /// How many redefinitions above `doc`'s component of `kind` named `name` replace it.
    fn renamed_depth(&self, doc: usize, kind: &'static str, name: &str) -> usize {
        self.renamed
            .get(&(doc, kind, name.to_string()))
            .copied()
            .unwrap_or(0)
    }

    /// The name references use for the current document's component of `kind` registered
    /// as `key` ([`Converter::registered`] undone): what its redefinition's self-reference
    /// names.
    fn unrenamed(&self, kind: &'static str, key: &str) -> String {
        let mut base = key;
        let mut depth = 0;
        while let Some(b) = base.strip_suffix("-original") {
            depth += 1;
            base = b;
            if self.renamed_depth(self.doc, kind, base) == depth {
                return base.to_string();
            }
        }
        key.to_string()
    }

    /// The name a component of the current document is registered under.
    fn registered(&self, kind: &'static str, name: &str) -> String {
        original_name(name, self.renamed_depth(self.doc, kind, name))
    }

    /// Registers the key of the current document's global component of `kind` named
    /// `local` (after [`Converter::registered`]): its local name, unless a component of
    /// the same kind in another namespace has that key already (then `local-2`, ...).
    fn register_key(&mut self, kind: &'static str, local: &str) -> String {
        let id = (kind, self.namespaces.target.clone(), local.to_string());
        if let Some(key) = self.component_keys.get(&id) {
            return key.clone();
        }
        let taken = |keys: &HashMap<(&'static str, Option<String>, String), String>, key: &str| {
            keys.iter().any(|((k, _, _), v)| *k == kind && v == key)
        };
        let mut key = local.to_string();
        let mut n = 2;
        while taken(&self.component_keys, &key) {
            key = format!("{local}-{n}");
            n += 1;
        }
        self.component_keys.insert(id, key.clone());
        key
    }

    /// The key of the current document's global component of `kind` named `local`.
    fn declared(&self, kind: &'static str, local: &str) -> String {
        let local = self.registered(kind, local);
        self.key_of(kind, self.namespaces.target.clone(), local)
    }

    /// The key of the global component of `kind` with expanded name (`ns`, `local`): as
    /// registered, else (nothing has that name) the local name in the current document's
    /// target namespace, `{ns}local` in another (not found wherever it is looked up, and
    /// reported so).
    fn key_of(&self, kind: &'static str, ns: Option<String>, local: String) -> String {
        self.key_of_in(&self.namespaces, kind, ns, local)
    }

    /// [`Converter::key_of`] from a document whose namespace facts are `namespaces`.
    fn key_of_in(
        &self,
        namespaces: &namespaces::Namespaces,
        kind: &'static str,
        ns: Option<String>,
        local: String,
    ) -> String {
        let here = ns == namespaces.target;
        let id = (kind, ns, local);
        match self.component_keys.get(&id) {
            Some(key) => key.clone(),
            None if here => id.2,
            None => expanded_name(id.1.as_deref(), &id.2),
        }
    }

    fn type_doc(&self, name: &str) -> usize {
        self.type_docs.get(name).copied().unwrap_or(0)
    }

    /// Finds what each xs:redefine replaces: those components of the redefined document
    /// (and of the documents it includes) are registered under their original names. A
    /// redefinition of something the redefined schema does not have is an error
    /// (src-redefine 6.1, 7.1).
    fn plan_redefinitions(&mut self, roots: &[Item<'a>]) {
        use xsd_parser::models::schema::xs::RedefineContent;
        let raws: Vec<&xsd_parser::models::schema::xs::Schema> = roots
            .iter()
            .filter_map(|r| match r.what {
                What::Schema(raw) => Some(raw),
                _ => None,
            })
            .collect();
        // A component at the top of `doc`.
        let top = |doc: usize, kind: &str, name: &str| {
            raws[doc].content.iter().any(|c| match (kind, c) {
                ("type", SchemaContent::SimpleType(SimpleBaseType { name: Some(n), .. }))
                | ("type", SchemaContent::ComplexType(ComplexBaseType { name: Some(n), .. }))
                | ("group", SchemaContent::Group(GroupType { name: Some(n), .. }))
                | (
                    "attributeGroup",
                    SchemaContent::AttributeGroup(AttributeGroupType { name: Some(n), .. }),
                ) => n == name,
                _ => false,
            })
        };
        // A redefinition of it in `doc` (a chain of redefines).
        let redefined = |doc: usize, kind: &str, name: &str| {
            raws[doc].content.iter().any(|c| match c {
                SchemaContent::Redefine(r) => r.content.iter().any(|c| match (kind, c) {
                    ("type", RedefineContent::SimpleType(SimpleBaseType { name: Some(n), .. }))
                    | (
                        "type",
                        RedefineContent::ComplexType(ComplexBaseType { name: Some(n), .. }),
                    )
                    | ("group", RedefineContent::Group(GroupType { name: Some(n), .. }))
                    | (
                        "attributeGroup",
                        RedefineContent::AttributeGroup(AttributeGroupType {
                            name: Some(n), ..
                        }),
                    ) => n == name,
                    _ => false,
                }),
                _ => false,
            })
        };
        // The documents `doc` includes or redefines, and theirs.
        let docs = &self.docs;
        let below = |doc: usize| -> Vec<usize> {
            let mut scope = vec![doc];
            let mut i = 0;
            while i < scope.len() {
                for c in &docs[scope[i]].compositions {
                    if let (compose::How::Include | compose::How::Redefine, Some(k)) =
                        (c.how, c.document)
                    {
                        if !scope.contains(&k) {
                            scope.push(k);
                        }
                    }
                }
                i += 1;
            }
            scope
        };
        // `doc` has the component, at its top or as a redefinition of one that a document
        // below it defines at its top: a cycle of redefines defines nothing (src-redefine
        // 6.1: the redefined schema must have it).
        let has = |doc: usize, kind: &str, name: &str| {
            top(doc, kind, name)
                || (redefined(doc, kind, name)
                    && below(doc)
                        .into_iter()
                        .any(|k| k != doc && top(k, kind, name)))
        };
        for root in roots {
            let d = root.doc;
            let targets: Vec<&compose::Composition> = self.docs[d]
                .compositions
                .iter()
                .filter(|c| c.how == compose::How::Redefine)
                .collect();
            let redefines: Vec<Item<'a>> = self
                .children(*root)
                .into_iter()
                .filter(|c| matches!(c.what, What::Redefine(_)))
                .collect();
            for (r, target) in redefines.into_iter().zip(targets) {
                let Some(j) = target.document else { continue };
                // The redefined schema: the document and those it includes.
                let mut scope = vec![j];
                let mut i = 0;
                while i < scope.len() {
                    for c in &self.docs[scope[i]].compositions {
                        if let (compose::How::Include | compose::How::Redefine, Some(k)) =
                            (c.how, c.document)
                        {
                            if !scope.contains(&k) && k != d {
                                scope.push(k);
                            }
                        }
                    }
                    i += 1;
                }
                for c in self.children(r) {
                    let (kind, name) = match c.what {
                        What::SimpleType(t) => ("type", &t.name),
                        What::ComplexType(t) => ("type", &t.name),
                        What::Group(g) => ("group", &g.name),
                        What::AttributeGroup(g) => ("attributeGroup", &g.name),
                        _ => continue,
                    };
                    let local = c.what.local();
                    let Some(name) = name else { continue };
                    match scope.iter().find(|&&doc| has(doc, kind, name)) {
                        Some(&doc) => {
                            // One level below the redefinition here (itself renamed if a
                            // redefine above this document replaces it).
                            let depth = self.renamed_depth(d, kind, name) + 1;
                            self.renamed.insert((doc, kind, name.clone()), depth);
                        }
                        None => {
                            let span = self.span(c);
                            let path = self.docs[d].path.clone();
                            self.diagnostics.push(SchemaDiagnostic {
                                file: path,
                                span,
                                construct: format!("xs:{local} \"{name}\" in xs:redefine"),
                                message: format!("the redefined schema has no {local} named \"{name}\" to redefine"),
                                hint: None,
                                kind: Kind::Invalid,
                            });
                        }
                    }
                }
            }
        }
    }

    /// Registers the current document's named types and global declarations (converted
    /// later, on first use: a reference may come before the declaration, or from another
    /// document).
    fn register_schema(&mut self, root: Item<'a>) {
        let items = self.children(root);
        // Register every named type first, so anonymous types get names that do not clash.
        for c in &items {
            if let What::SimpleType(SimpleBaseType {
                name: Some(name), ..
            })
            | What::ComplexType(ComplexBaseType {
                name: Some(name), ..
            }) = c.what
            {
                let name = self.registered("type", name);
                let name = self.register_key("type", &name);
                self.names.insert(pascal(&name));
            }
        }
        // Global declarations are converted on first use (a reference may come before the
        // declaration); collect them with where they stand.
        let mut duplicates = Vec::new();
        // Inside xs:redefine, the redefinitions of groups and attribute groups.
        let mut redefinitions: Vec<(&'a GroupType, Item<'a>)> = Vec::new();
        let mut attribute_redefinitions: Vec<(&'a AttributeGroupType, Item<'a>)> = Vec::new();
        for c in items {
            macro_rules! register {
                ($field:ident, $local:literal, $decl:expr, $what:literal) => {{
                    if let Some(name) = $decl.name.clone() {
                        let name = self.registered($local, &name);
                        let name = self.register_key($local, &name);
                        if self.globals.$field.raw.contains_key(&name) {
                            duplicates.push((c, format!(concat!($what, " \"{}\""), name)));
                        } else {
                            self.globals.$field.raw.insert(name, ($decl, c));
                        }
                    }
                }};
            }
            match c.what {
                What::Element(el) => register!(elements, "element", el, "element"),
                What::Attribute(a) => register!(attributes, "attribute", a, "attribute"),
                What::Group(g) => register!(groups, "group", g, "group"),
                What::AttributeGroup(g) => {
                    register!(attribute_groups, "attributeGroup", g, "attributeGroup")
                }
                What::Redefine(_) => {
                    for r in self.children(c) {
                        match r.what {
                            What::SimpleType(SimpleBaseType {
                                name: Some(name), ..
                            })
                            | What::ComplexType(ComplexBaseType {
                                name: Some(name), ..
                            }) => {
                                // A redefinition another redefine replaces (a chain).
                                let name = self.registered("type", name);
                                let name = self.register_key("type", &name);
                                self.names.insert(pascal(&name));
                            }
                            What::Group(g) => redefinitions.push((g, r)),
                            What::AttributeGroup(g) => attribute_redefinitions.push((g, r)),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        for (g, at) in redefinitions {
            if let Some(name) = &g.name {
                let name = self.registered("group", name);
                let name = self.register_key("group", &name);
                self.globals.groups.raw.insert(name, (g, at));
            }
        }
        for (g, at) in attribute_redefinitions {
            if let Some(name) = &g.name {
                let name = self.registered("attributeGroup", name);
                let name = self.register_key("attributeGroup", &name);
                self.globals.attribute_groups.raw.insert(name, (g, at));
            }
        }
        for (at, construct) in duplicates {
            let span = self.span(at);
            self.invalid(
                span,
                construct,
                "a global declaration of this name is already given",
                None,
            );
        }
    }

    fn convert_schema(&mut self, root: Item<'a>) {
        let What::Schema(raw) = root.what else {
            return;
        };
        // Each document's finalDefault applies to the components it declares.
        self.note_final_default(derivation::DerivationSet::of(match &raw.final_default {
            xsd_parser::models::schema::xs::FullDerivationSetType::All => None,
            xsd_parser::models::schema::xs::FullDerivationSetType::BlockSetItemList(l) => {
                Some(&l.0)
            }
        }));
        if self.doc == 0 {
            // The schema's namespace is its first document's (what its writer declares).
            self.schema.target_namespace = self.namespaces.target.clone();
        }
        for c in self.children(root) {
            match c.what {
                // The schema's documentation is its first document's.
                What::Annotation(a) if self.doc == 0 => {
                    self.schema.doc = documentation(Some(a));
                }
                What::SimpleType(st) => {
                    let name = self.declared("type", st.name.as_deref().unwrap_or_default());
                    self.note_final(&name, st.final_.as_ref().map(derivation::simple_set));
                    let def = self.simple_type(&name, c);
                    self.insert_or_fail(&name, def);
                }
                What::ComplexType(ct) => {
                    let name = self.declared("type", ct.name.as_deref().unwrap_or_default());
                    self.note_final(&name, ct.final_.as_ref().map(derivation::complex_set));
                    self.note_abstract_type(&name, ct.abstract_);
                    let def = self.complex_type(ct, &name, c);
                    self.insert_or_fail(&name, def);
                }
                What::Element(el) => {
                    let span = self.span(c);
                    let Some(name) = el.name.clone() else {
                        self.invalid(span, "xs:element", "a global element needs a name", None);
                        continue;
                    };
                    let name = self.declared("element", &name);
                    let Some(decl) = self.global_element(&name) else {
                        continue;
                    };
                    if self.is_abstract_element(&name) {
                        // Never a document's root (it stands only for its substitution group).
                        continue;
                    }
                    self.schema
                        .roots
                        .entry(name.clone())
                        .or_insert(RootElement {
                            name: decl.name,
                            namespace: decl.namespace,
                            type_ref: decl.type_ref,
                            doc: decl.doc,
                            span: decl.span,
                            value: decl.value,
                            nillable: decl.nillable,
                            xsi_simple: decl.xsi_simple,
                        });
                }
                What::Attribute(_) | What::Group(_) | What::AttributeGroup(_) => {
                    self.convert_global(c)
                }
                What::Redefine(_) => self.convert_redefine(c),
                What::Notation(n) => {
                    self.schema.notations.insert(n.name.clone());
                }
                // `compose` loaded the documents the composition elements name; the markup
                // checks report the unsupported constructs with their position.
                _ => {}
            }
        }
    }

    /// The redefinitions of an xs:redefine: types converted here, each referring to the
    /// original it redefines; groups and attribute groups are registered under their names
    /// ([`Converter::register_schema`]) and converted here or on first use.
    fn convert_redefine(&mut self, r: Item<'a>) {
        for c in self.children(r) {
            match c.what {
                What::SimpleType(st) => {
                    let name = self.declared("type", st.name.as_deref().unwrap_or_default());
                    self.redefining = Some(("type", self.unrenamed("type", &name)));
                    let def = self.simple_type(&name, c);
                    self.redefining = None;
                    self.insert_or_fail(&name, def);
                }
                What::ComplexType(ct) => {
                    let name = self.declared("type", ct.name.as_deref().unwrap_or_default());
                    self.redefining = Some(("type", self.unrenamed("type", &name)));
                    let def = self.complex_type(ct, &name, c);
                    self.redefining = None;
                    self.insert_or_fail(&name, def);
                }
                // One without a name: the markup checks report it.
                What::Group(GroupType { name: Some(_), .. })
                | What::AttributeGroup(AttributeGroupType { name: Some(_), .. }) => {
                    self.convert_global(c)
                }
                _ => {}
            }
        }
    }

    /// A global attribute, group or attribute group (at the top of a document or, for
    /// groups, in an `xs:redefine`), converted once however many references it has; one
    /// without a name is an error.
    fn convert_global(&mut self, c: Item<'a>) {
        let (kind, name, noun) = match c.what {
            What::Attribute(a) => ("attribute", &a.name, "attribute"),
            What::Group(g) => ("group", &g.name, "group"),
            What::AttributeGroup(g) => ("attributeGroup", &g.name, "attribute group"),
            _ => return,
        };
        let Some(name) = name else {
            let span = self.span(c);
            let message = format!("a global {noun} needs a name");
            self.invalid(span, format!("xs:{kind}"), message, None);
            return;
        };
        let name = self.declared(kind, name);
        match c.what {
            What::Attribute(_) => drop(self.global_attribute(&name)),
            What::Group(_) => drop(self.global_group(&name)),
            _ => drop(self.global_attribute_group(&name)),
        }
    }

    /// The global element `name`, converted once (its anonymous type is generated once
    /// however many references it has).
    fn global_element(&mut self, name: &str) -> Option<ElementDecl> {
        if let Some(done) = self.globals.elements.converted.get(name) {
            return done.clone();
        }
        let (el, at) = *self.globals.elements.raw.get(name)?;
        let outer = self.enter(at);
        let span = self.span(at);
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
        let reserved = self.reserve_element_type(el, name, span);
        // The key may differ from the element's name (one local name in two namespaces).
        let local = el.name.clone().unwrap_or_else(|| name.to_string());
        self.globals.elements.converted.insert(
            name.to_string(),
            reserved.clone().map(|type_ref| ElementDecl {
                name: local.clone(),
                namespace: self.namespaces.target.clone(),
                span,
                type_ref,
                doc: None,
                // Only a complex element can contain itself; it has no value constraint.
                value: None,
                nillable: el.nillable == Some(true),
                xsi_simple: None,
            }),
        );
        let decl = if ok {
            self.element_decl_reserved(el, at, name, reserved)
                .map(|decl| ElementDecl {
                    name: local,
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
        self.leave(outer);
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
            let declared = self.type_ref(q, &span, &format!("element \"{name}\""));
            // With identity constraints it reads with a copy of its own (xsd/identity.rs).
            if identity::has_identity(el) && matches!(declared, Some(TypeRef::Named(_))) {
                return Some(TypeRef::Named(self.synthesise(name)));
            }
            return declared;
        }
        let inline = el.content.iter().any(|c| {
            matches!(
                c,
                ElementTypeContent::SimpleType(_) | ElementTypeContent::ComplexType(_)
            )
        });
        if !inline {
            // A member without a type has its head's (xsd/substitution.rs): known before
            // its conversion, for a reference to it from inside that type.
            if let Some(t) = self.affiliation_type(el) {
                return Some(t);
            }
        }
        inline.then(|| TypeRef::Named(self.synthesise(name)))
    }

    /// The global attribute `name`, converted once.
    fn global_attribute(&mut self, name: &str) -> Option<Attribute> {
        if let Some(done) = self.globals.attributes.converted.get(name) {
            return done.clone();
        }
        let (a, at) = *self.globals.attributes.raw.get(name)?;
        let outer = self.enter(at);
        let span = self.span(at);
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
            self.attribute_decl(a, at, name, "the schema")
                .map(|decl| Attribute {
                    // The key may differ from the name (one local name in two namespaces).
                    name: a.name.clone().unwrap_or_else(|| name.to_string()),
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
        self.leave(outer);
        converted
    }

    /// The model group of the global group `name` (occurring once), converted once.
    /// `from` is where the reference stands, for a cycle's error.
    fn global_group(&mut self, name: &str) -> Option<Particle> {
        if let Some(done) = self.globals.groups.converted.get(name) {
            return done.clone();
        }
        let (g, at) = *self.globals.groups.raw.get(name)?;
        let outer = self.enter(at);
        if self.in_redefine(at) {
            self.redefining = Some(("group", self.unrenamed("group", name)));
        }
        self.globals.groups.in_progress.push(name.to_string());
        let span = self.span(at);
        let construct = format!("group \"{name}\"");
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
        for c in self.children(at) {
            let (local, inner) = match c.what {
                What::Annotation(_) => continue,
                What::Model(local, inner) => (local, inner),
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
            let ispan = self.span(c);
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
            model = self.particle(inner, local, c, name);
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
        self.leave(outer);
        self.group_done(name);
        model
    }

    /// The attributes of the global attribute group `name`, converted once.
    fn global_attribute_group(&mut self, name: &str) -> Option<Vec<Attribute>> {
        if let Some(done) = self.globals.attribute_groups.converted.get(name) {
            return done.clone();
        }
        let (g, at) = *self.globals.attribute_groups.raw.get(name)?;
        let outer = self.enter(at);
        if self.in_redefine(at) {
            self.redefining = Some(("attributeGroup", self.unrenamed("attributeGroup", name)));
        }
        self.globals
            .attribute_groups
            .in_progress
            .push(name.to_string());
        let span = self.span(at);
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
        // Its wildcard is followed by `wildcard::attribute_group_wildcard`.
        let mut uses = AttributeUses::default();
        for c in self.children(at) {
            ok &= self.attribute_item(c, name, &mut uses).unwrap_or(true);
        }
        let result = ok.then_some(uses.attributes);
        self.globals.attribute_groups.in_progress.pop();
        self.globals
            .attribute_groups
            .converted
            .insert(name.to_string(), result.clone());
        self.leave(outer);
        result
    }

    /// `<xs:attributeGroup ref="..."/>`: the group's attributes.
    fn attribute_group_ref(
        &mut self,
        r: &AttributeGroupType,
        at: Item<'a>,
        owner: &str,
    ) -> Option<Vec<Attribute>> {
        let span = self.span(at);
        let Some(q) = &r.ref_ else {
            self.invalid(
                span,
                format!("xs:attributeGroup in \"{owner}\""),
                "a local xs:attributeGroup must be a reference (ref=\"...\")",
                None,
            );
            return None;
        };
        let name = self.resolve_reference(
            "attributeGroup",
            q,
            span,
            &format!("xs:attributeGroup ref=\"{q}\""),
            "attribute group",
        )?;
        let name = self.redefined("attributeGroup", name);
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
    fn group_ref(&mut self, g: &GroupType, at: Item<'a>, owner: &str) -> Option<Particle> {
        let span = self.span(at);
        let Some(q) = &g.ref_ else {
            self.invalid(
                span,
                format!("xs:group in \"{owner}\""),
                "a local xs:group must be a reference (ref=\"...\")",
                None,
            );
            return None;
        };
        let name =
            self.resolve_reference("group", q, span, &format!("xs:group ref=\"{q}\""), "group")?;
        let name = self.redefined("group", name);
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
            // Not met: such a group's anonymous types wait until it is done
            // (`xsd/recursion.rs`).
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
            self.type_docs.insert(def.name.clone(), self.doc);
            self.schema.types.insert(def.name.clone(), def);
        }
    }

    /// An anonymous simple type inside another (a list's items, a union's member, a
    /// restriction's base): a type of its own under a fresh name derived from `base`.
    fn inline_simple_type(&mut self, base: &str, at: Item<'a>) -> Option<TypeRef> {
        let tname = self.synthesise(base);
        let def = self.simple_type(&tname, at)?;
        self.insert(Some(def));
        Some(TypeRef::Named(tname))
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
            _ => {
                return self
                    .resolve_reference("type", qname, *span, construct, "type")
                    .map(|key| TypeRef::Named(self.redefined("type", key)))
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

    fn simple_type(&mut self, name: &str, at: Item<'a>) -> Option<TypeDef> {
        let span = self.span(at);
        let construct = format!("simpleType \"{name}\"");
        let mut doc = None;
        let mut kind = None;
        for c in self.children(at) {
            match c.what {
                What::Annotation(a) => doc = documentation(Some(a)),
                What::SimpleRestriction(r) => {
                    let rspan = self.span(c);
                    let parts = self.children(c);
                    // The base: named by base=, or an inline simpleType (a type of its
                    // own, named after the one it is the base of).
                    let base = match (&r.base, inline_simple(&parts)) {
                        (Some(base_q), None) => self.type_ref(base_q, &rspan, &construct)?,
                        (None, Some((_, ik))) => {
                            self.inline_simple_type(&format!("{name}_base"), ik)?
                        }
                        // Both or neither: src-restriction-base-or-simpleType (the validity
                        // pass reports it).
                        _ => {
                            self.invalid(rspan, &construct, "xs:restriction needs exactly one of base= and an inline simpleType (src-restriction-base-or-simpleType)", None);
                            return None;
                        }
                    };
                    let (facets, enums) = self.facets(&parts, &construct)?;
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
                        facets.set_enumeration(&enums);
                        TypeKind::Restriction(Restriction { base, facets })
                    } else {
                        TypeKind::Enumeration(Enumeration {
                            base,
                            values: enums,
                        })
                    });
                }
                What::List(l) => {
                    let lspan = self.span(c);
                    let item = match (&l.item_type, inline_simple(&self.children(c))) {
                        (Some(item_q), None) => self.type_ref(item_q, &lspan, &construct)?,
                        (None, Some((_, ik))) => {
                            self.inline_simple_type(&format!("{name}_item"), ik)?
                        }
                        _ => {
                            self.invalid(lspan, &construct, "xs:list needs exactly one of itemType= and an inline simpleType (src-list-itemType-or-simpleType)", None);
                            return None;
                        }
                    };
                    kind = Some(TypeKind::List(ListType {
                        item,
                        facets: Facets::default(),
                    }));
                }
                What::Union(u) => {
                    let uspan = self.span(c);
                    // Member order decides which member takes a value: memberTypes first,
                    // then the inline simpleTypes in document order (Part 1, 3.14.2).
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
                    let inline = self.children(c).into_iter().filter_map(|m| match m.what {
                        What::SimpleType(st) => Some((st, m)),
                        _ => None,
                    });
                    for (i, (_, mk)) in inline.enumerate() {
                        if let Some(t) =
                            self.inline_simple_type(&format!("{name}_member{}", i + 1), mk)
                        {
                            members.push(t);
                        }
                    }
                    // Remember where the union stands: members are checked once every type is known.
                    self.union_spans.push((name.to_string(), (self.doc, uspan)));
                    kind = Some(TypeKind::Union(members));
                }
                _ => {}
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
    /// The facets among a restriction step's children `parts`.
    fn facets(&mut self, parts: &[Item<'a>], construct: &str) -> Option<(Facets, Vec<EnumValue>)> {
        let mut out = Facets::default();
        let mut enums = Vec::new();
        let mut ok = true;
        for &item in parts {
            let What::Facet(local, facet) = item.what else {
                continue;
            };
            let span = self.span(item);
            let value: &FacetType = match facet {
                Facet::MinExclusive(v)
                | Facet::MinInclusive(v)
                | Facet::MaxExclusive(v)
                | Facet::MaxInclusive(v)
                | Facet::TotalDigits(v)
                | Facet::FractionDigits(v)
                | Facet::Length(v)
                | Facet::MinLength(v)
                | Facet::MaxLength(v)
                | Facet::Enumeration(v)
                | Facet::WhiteSpace(v)
                | Facet::Pattern(v)
                | Facet::ExplicitTimezone(v) => v,
                Facet::Assertion(_) => {
                    self.unsupported(span, construct, "xs:assertion is not supported", None);
                    ok = false;
                    continue;
                }
            };
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
                    namespaces: source::enumeration_scope(self.node(item)),
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

    fn complex_type(&mut self, ct: &ComplexBaseType, name: &str, at: Item<'a>) -> Option<TypeDef> {
        // A type starts a new chain of group references (a group may contain itself
        // through an element's type).
        self.globals.groups.in_progress.push(String::new());
        let def = self.complex_type_inner(ct, name, at);
        self.globals.groups.in_progress.pop();
        def
    }

    fn complex_type_inner(
        &mut self,
        ct: &ComplexBaseType,
        name: &str,
        at: Item<'a>,
    ) -> Option<TypeDef> {
        let span = self.span(at);
        let construct = format!("complexType \"{name}\"");
        let mixed = ct.mixed.unwrap_or(false);
        let mut doc = None;
        let mut uses = AttributeUses::default();
        let mut content = Content::Empty;
        let mut ok = true;
        for c in self.children(at) {
            if let Some(taken) = self.attribute_item(c, name, &mut uses) {
                ok &= taken;
                continue;
            }
            if let Some(model) = self.content_model(c, name) {
                match model {
                    Some(p) if mixed => content = Content::Mixed(p),
                    Some(p) => content = Content::Elements(p),
                    None => ok = false,
                }
                continue;
            }
            match c.what {
                What::Annotation(a) => doc = documentation(Some(a)),
                What::ComplexContent(cc) => ok &= self.complex_content(cc, c, name, ct.mixed),
                What::SimpleContent(_) => {
                    for d in self.children(c) {
                        match d.what {
                            // Its wildcards are the type's own (`extension`); a base's is
                            // united with them once types are known (derivation.rs).
                            What::Extension(ext) => match self.extension(ext, d, name, &mut uses) {
                                Some(t) => content = Content::Simple(t),
                                None => ok = false,
                            },
                            What::Restriction(r) => {
                                ok &= self.simple_content_restriction(r, d, name)
                            }
                            _ => {}
                        }
                    }
                }
                // The markup checks have reported these constructs with their position.
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
        ok &= self.check_content(&content, span, name);
        let attributes = uses.attributes;
        for a in declared_twice(&attributes) {
            self.second(
                format!("attribute \"{a}\" is declared twice"),
                span,
                construct.clone(),
                format!(
                    "attribute \"{a}\" is declared twice (directly or through attribute groups)"
                ),
                Some("XSD 1.0, 3.4.6 (ct-props-correct.4)".into()),
            );
            ok = false;
        }
        let any_attribute = wildcard::complete(uses.own_wildcard, uses.group_wildcards);
        if let Some(w) = &any_attribute {
            if !wildcard::expressible_in_xsd_1_0(&w.namespaces) {
                self.invalid(
                    span,
                    construct.clone(),
                    "the intersection of the attribute wildcards of the type and its attribute groups is a set of namespaces XSD 1.0 cannot express",
                    Some("XSD 1.0, 3.10.6 (Attribute Wildcard Intersection, erratum E1-10): two ##other of different target namespaces".into()),
                );
                ok = false;
            }
        }
        if any_attribute
            .as_ref()
            .is_some_and(|w| w.process != ProcessContents::Skip)
        {
            wildcard::collect_global_attributes(self);
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
                any_attribute,
                content,
            }),
        })
    }

    /// `<xs:simpleContent><xs:extension base="...">`: the value type; its attributes and
    /// wildcards are the type's own (`uses`).
    fn extension(
        &mut self,
        ext: &ExtensionType,
        at: Item<'a>,
        owner: &str,
        uses: &mut AttributeUses,
    ) -> Option<TypeRef> {
        let span = self.span(at);
        let base = self.type_ref(
            &ext.base,
            &span,
            &format!("xs:extension in complexType \"{owner}\""),
        );
        let mut ok = base.is_some();
        for c in self.children(at) {
            match self.attribute_item(c, owner, uses) {
                Some(taken) => ok &= taken,
                None => ok &= matches!(c.what, What::Annotation(_)),
            }
        }
        if ok {
            if let Some(TypeRef::Named(n)) = &base {
                // A simple type or a complex type with simple content: decided once every
                // type is known.
                self.simple_content_extension(owner, n, span);
            }
        }
        if ok {
            base
        } else {
            None
        }
    }

    /// An attribute use, attribute group reference or attribute wildcard among the
    /// children of a complex type, a derivation or an attribute group, into `uses`:
    /// `None` if `c` is none of them, else whether it converted (false: reported).
    fn attribute_item(
        &mut self,
        c: Item<'a>,
        owner: &str,
        uses: &mut AttributeUses,
    ) -> Option<bool> {
        Some(match c.what {
            What::Attribute(a) => match self.attribute_use(a, c, owner) {
                Some(Some(a)) => {
                    uses.attributes.push(a);
                    true
                }
                // Prohibited: a restriction removes the base's attribute of the name.
                Some(None) => {
                    let name = match (&a.name, &a.ref_) {
                        (Some(n), _) => n.clone(),
                        (None, Some(q)) => local_name(q),
                        (None, None) => return Some(false),
                    };
                    uses.prohibited.push(name);
                    true
                }
                None => false,
            },
            What::AttributeGroup(r) => {
                uses.group_wildcards
                    .extend(wildcard::group_ref_wildcard(self, r));
                match self.attribute_group_ref(r, c, owner) {
                    Some(more) => {
                        uses.attributes.extend(more);
                        true
                    }
                    None => false,
                }
            }
            What::AnyAttribute(w) => {
                let target = self.namespaces.target.clone();
                uses.own_wildcard = Some(wildcard::attribute_wildcard(
                    w,
                    target.as_deref(),
                    self.span(c),
                ));
                true
            }
            _ => return None,
        })
    }

    /// A content model among a complex type's or derivation's children: `xs:group ref=`
    /// or a compositor; `None` if `c` is neither, else the particle (`None`: reported).
    fn content_model(&mut self, c: Item<'a>, owner: &str) -> Option<Option<Particle>> {
        match c.what {
            What::Group(g) => Some(self.group_ref(g, c, owner)),
            What::Model(local, g) => Some(self.particle(g, local, c, owner)),
            _ => None,
        }
    }

    /// An attribute use inside a complex type or an attribute group: a local declaration or
    /// a reference to a global one, with its use. `Some(None)`: prohibited (XSD 1.0 without
    /// derivation: the attribute is simply not declared, so a document giving it is
    /// reported as giving an undeclared attribute). `None`: an error, reported.
    fn attribute_use(
        &mut self,
        a: &AttributeType,
        at: Item<'a>,
        owner: &str,
    ) -> Option<Option<Attribute>> {
        let span = self.span(at);
        let (decl, construct) = match (&a.ref_, &a.name) {
            (Some(q), None) => {
                let construct = format!("attribute ref=\"{q}\" in \"{owner}\"");
                let name = self.resolve_reference("attribute", q, span, &construct, "attribute")?;
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
                    ..self.attribute_decl(a, at, name, owner)?
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
        at: Item<'a>,
        name: &str,
        owner: &str,
    ) -> Option<Attribute> {
        let span = self.span(at);
        let construct = format!("attribute \"{name}\" of \"{owner}\"");
        let type_ref = match (&a.type_, inline_simple(&self.children(at))) {
            (Some(q), None) => self.type_ref(q, &span, &construct)?,
            (None, Some((_, k))) => {
                let tname = self.synthesise(&format!("{owner}_{name}"));
                let def = self.simple_type(&tname, k)?;
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
            .push((type_ref.clone(), (self.doc, span), construct));
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
        at: Item<'a>,
        owner: &str,
    ) -> Option<Particle> {
        let span = self.span(at);
        let (min, max) = occurs(
            g.min_occurs,
            g.max_occurs,
            &span,
            self,
            &format!("xs:{local} in \"{owner}\""),
        )?;
        let mut items = Vec::new();
        let mut ok = true;
        for c in self.children(at) {
            let item = match c.what {
                What::Annotation(_) => continue,
                What::Element(el) => self.local_element(el, c, owner),
                What::Any(a) => wildcard::element_wildcard(self, a, c, owner),
                _ => match self.content_model(c, owner).flatten() {
                    Some(p) => {
                        let inner = self.span(c);
                        ok &= self.all_not_nested(&p, inner, owner);
                        Some(p)
                    }
                    None => None,
                },
            };
            match item {
                Some(p) => items.push(p),
                None => ok = false,
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

    /// The checks of the content model of complex type `name` (at `span`): `xs:all`'s
    /// limits and what `model::check` finds; false if any fails (reported).
    fn check_content(&mut self, content: &Content, span: Span, name: &str) -> bool {
        let (Content::Elements(p) | Content::Mixed(p)) = content else {
            return true;
        };
        let mut ok = self.check_all(p, span, name);
        for problem in model::check(p) {
            if problem.invalid {
                let construct = format!("the content model of complexType \"{name}\"");
                self.invalid(problem.span, construct, problem.message, problem.hint);
            } else {
                let construct = format!("complexType \"{name}\"");
                self.unsupported(problem.span, construct, problem.message, problem.hint);
            }
            ok = false;
        }
        ok
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
            } else if let Some(at) = substitution::in_all(item) {
                // A reference to a substitution group's head (xsd/substitution.rs).
                self.unsupported(
                    at,
                    format!("xs:all of \"{owner}\""),
                    "a reference to the head of a substitution group in xs:all is not supported yet (the group's elements would be alternatives of one unordered item)",
                    Some("reference the head from an xs:sequence or xs:choice".into()),
                );
                ok = false;
            }
        }
        ok
    }

    /// An element particle of a content model: a local declaration or a reference to a
    /// global element, with its occurrence.
    fn local_element(&mut self, el: &ElementType, at: Item<'a>, owner: &str) -> Option<Particle> {
        let span = self.span(at);
        let (decl, construct) = match (&el.ref_, &el.name) {
            (Some(q), None) => {
                let construct = format!("element ref=\"{q}\" in \"{owner}\"");
                let name = self.resolve_reference("element", q, span, &construct, "element")?;
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
                if let Some(p) = self.substitution_reference(&name, &decl, el, &construct) {
                    return p;
                }
                if self.is_abstract_element(&name) {
                    let (min, max) = occurs(el.min_occurs, el.max_occurs, &span, self, &construct)?;
                    return Some(self.abstract_reference(decl, min, max));
                }
                (decl, construct)
            }
            (None, Some(name)) => {
                let construct = format!("element \"{name}\" in \"{owner}\"");
                let occurrence = occurs(el.min_occurs, el.max_occurs, &span, self, &construct)?;
                let decl = ElementDecl {
                    namespace: self.namespaces.local_element(el.form),
                    ..self.element_decl(el, at, name)?
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

    fn element_decl(&mut self, el: &ElementType, at: Item<'a>, name: &str) -> Option<ElementDecl> {
        self.element_decl_reserved(el, at, name, None)
    }

    /// An element declaration; `reserved` is the type decided beforehand (a global
    /// element's: its anonymous type's name is taken before its content is converted).
    fn element_decl_reserved(
        &mut self,
        el: &ElementType,
        at: Item<'a>,
        name: &str,
        reserved: Option<TypeRef>,
    ) -> Option<ElementDecl> {
        let span = self.span(at);
        let construct = format!("element \"{name}\"");
        let mut doc = None;
        let mut inline: Option<TypeRef> = None;
        let mut alternatives = Vec::new();
        let mut constraints = Vec::new();
        let mut ok = true;
        for c in self.children(at) {
            match c.what {
                What::Annotation(a) => doc = documentation(Some(a)),
                What::SimpleType(_) => {
                    let tname = self.inline_type_name(&reserved, name);
                    let def = self.simple_type(&tname, c);
                    ok &= def.is_some();
                    self.insert(def);
                    inline = Some(TypeRef::Named(tname));
                }
                What::ComplexType(ct) => {
                    let tname = self.inline_type_name(&reserved, name);
                    if !self.defer_anonymous_type(ct, &tname, c) {
                        let def = self.complex_type(ct, &tname, c);
                        ok &= def.is_some();
                        self.insert(def);
                    }
                    inline = Some(TypeRef::Named(tname));
                }
                What::Alternative(alt) => match self.alternative(alt, c, name) {
                    Some(a) => alternatives.push(a),
                    None => ok = false,
                },
                What::Unique(_) | What::Key(_) | What::Keyref(_) => {
                    match self.identity_constraint(c) {
                        Some(constraint) => constraints.push(constraint),
                        None => ok = false,
                    }
                }
                _ => {}
            }
        }
        let own_type = inline.is_some();
        let has_identity = !constraints.is_empty();
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
            // No type: a substitution group member's head's, else xs:anyType (XSD 1.0,
            // 3.3.2), held as open content.
            (None, None) => self
                .affiliation_type(el)
                .unwrap_or(TypeRef::Builtin(Builtin::AnyType)),
        };
        if !ok {
            return None;
        }
        // xs:anyType's attribute wildcard is lax (3.4.7): its attributes are checked
        // against the global attribute declarations.
        if declared == TypeRef::Builtin(Builtin::AnyType) {
            wildcard::collect_global_attributes(self);
        }
        let declared = if alternatives.is_empty() {
            self.attach_identity(constraints, declared, own_type, &reserved, name, span)?
        } else {
            if !constraints.is_empty() {
                self.unsupported(
                    span,
                    construct,
                    "identity constraints on an element typed by xs:alternative are not supported",
                    None,
                );
                return None;
            }
            declared
        };
        let type_ref = if alternatives.is_empty() {
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
                .push((type_ref.clone(), (self.doc, span), construct.clone()));
        }
        let nillable = el.nillable == Some(true);
        if nillable {
            self.nillable_elements
                .push((type_ref.clone(), (self.doc, span), construct));
        }
        // xsi:type (type substitution): not where xsi:nil or identity constraints wrap the
        // type (those elements keep refusing an xsi:type that names another type).
        let (type_ref, xsi_simple) = if has_identity {
            (type_ref, None)
        } else {
            // A simple declared type keeps its Rust type (nillable or not): the types that
            // may stand in are validated as themselves and held as it.
            // (A nillable anyType element is read by the nil wrapper, which does not
            // take the table.)
            let xsi_simple = if nillable && type_ref == TypeRef::Builtin(Builtin::AnyType) {
                None
            } else {
                self.simple_substitution(&type_ref, el).map(Box::new)
            };
            if xsi_simple.is_some() || nillable {
                (type_ref, xsi_simple)
            } else {
                (self.substitutable(type_ref, el, span), None)
            }
        };
        Some(ElementDecl {
            name: name.to_string(),
            // Set by the caller: a global element is qualified, a local one by its form.
            namespace: None,
            span,
            type_ref,
            doc,
            value,
            nillable,
            xsi_simple,
        })
    }

    fn alternative(&mut self, alt: &AltType, at: Item<'a>, element: &str) -> Option<Alternative> {
        let span = self.span(at);
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
            .push((type_ref.clone(), (self.doc, span), element.to_string()));
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
                        .unwrap_or((self.type_doc(&def.name), def.span));
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
                            Term::Any(_) => {}
                            Term::Sequence(v) | Term::Choice(v) | Term::All(v) => {
                                stack.extend(v.iter())
                            }
                        }
                    }
                }
                TypeKind::Alternatives(_) => {}
                // Its types are the schema's, each checked where it is defined.
                TypeKind::Substitution(_) => {}
            }
            for r in refs {
                if is_simple(r).is_none() {
                    problems.push((
                        (self.type_doc(&def.name), def.span),
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
            // Simple content, or mixed content that may be empty (its value is a string:
            // the text an empty element takes).
            let takes_value = match &t {
                TypeRef::Named(n) => match types.get(n).map(|d| &d.kind) {
                    Some(TypeKind::Complex(ComplexType { content, .. })) => match content {
                        Content::Simple(_) => true,
                        Content::Mixed(p) => emptiable(p),
                        Content::Empty | Content::Elements(_) => false,
                    },
                    _ => false,
                },
                TypeRef::Builtin(_) => false,
            };
            if is_simple(&t) == Some(false) && !takes_value {
                problems.push((
                    span,
                    construct,
                    format!("default= or fixed= needs a simple type, simple content, or mixed content that may be empty (XSD allows only these); \"{}\" has none of them", name_of(&t)),
                    Some("XSD 1.0, 3.3.6 (cos-valid-default.2)".into()),
                ));
            }
        }
        for (t, span, construct) in self.nillable_elements.clone() {
            if let Some(message) = nillable::unsupported(&self.schema, &t) {
                problems.push((span, construct, message, None));
            }
        }
        for (name, root) in &self.schema.roots {
            if is_simple(&root.type_ref).is_none() {
                problems.push((
                    (0, Span { line: 1, column: 1 }),
                    format!("element \"{name}\""),
                    unknown(name_of(&root.type_ref)),
                    None,
                ));
            }
        }
        for ((doc, span), construct, message, hint) in problems {
            // A document that could not be loaded (reported) may define the unknown names.
            if self.composed && message.starts_with("unknown type") {
                continue;
            }
            self.set_doc(doc);
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

/// The attribute uses and attribute wildcards of a complex type, derivation or attribute
/// group, as [`Converter::attribute_item`] collects them.
#[derive(Default)]
struct AttributeUses {
    attributes: Vec<Attribute>,
    /// The names of the attributes `use="prohibited"` (a restriction removes the base's).
    prohibited: Vec<String>,
    /// Its own `xs:anyAttribute`.
    own_wildcard: Option<Wildcard>,
    /// The wildcards of the attribute groups it refers to.
    group_wildcards: Vec<Wildcard>,
}

/// The names of the attributes declared twice among `attributes`: by expanded name, so
/// attributes of one local name in two namespaces are two (ct-props-correct.4 compares
/// names and target namespaces).
fn declared_twice(attributes: &[Attribute]) -> Vec<&str> {
    let mut seen = HashSet::new();
    attributes
        .iter()
        .filter(|a| !seen.insert((a.namespace.as_deref(), a.name.as_str())))
        .map(|a| a.name.as_str())
        .collect()
}

/// The inline simple type among `parts` (a restriction's base, a list's items, an
/// attribute's type).
fn inline_simple<'a>(parts: &[Item<'a>]) -> Option<(&'a SimpleBaseType, Item<'a>)> {
    parts.iter().find_map(|p| match p.what {
        What::SimpleType(st) => Some((st, *p)),
        _ => None,
    })
}

/// Whether a particle may match nothing (XSD 1.0, 3.9.6, Particle Emptiable).
fn emptiable(p: &Particle) -> bool {
    p.min == 0
        || p.max == Some(0)
        || match &p.term {
            Term::Element(_) | Term::Any(_) => false,
            Term::Sequence(v) | Term::All(v) => v.iter().all(emptiable),
            Term::Choice(v) => v.iter().any(emptiable),
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
///
/// A letter or digit that rustc would lint is written as its code point instead (`Ƴ` ->
/// `-u01b3-`), so that two names differing only in it stay two names: rustc warns about
/// characters Unicode's identifier profile does not allow (`uncommon_codepoints`, also after
/// the case mapping that `snake_case`/`PascalCase` apply: `Ƴ` is allowed, `ƴ` is not) and
/// about identifiers that look alike (`confusable_idents`, `mixed_script_confusables`, by
/// Unicode's confusable skeleton: Bengali `৪` looks like `8`). Keeping only characters that
/// are their own skeleton means two generated identifiers can look alike only if they are
/// alike in ASCII.
pub fn identifier_chars(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let mut out = String::with_capacity(s.len());
    for c in s.nfkc() {
        if c == '_' || c.is_ascii() && unicode_ident::is_xid_continue(c) {
            out.push(c);
        } else if !unicode_ident::is_xid_continue(c) {
            out.push('-');
        } else if lint_free(c) && c.to_lowercase().chain(c.to_uppercase()).all(lint_free) {
            out.push(c);
        } else {
            out.push_str(&format!("-u{:04x}-", c as u32));
        }
    }
    out
}

/// Whether rustc takes `c` in an identifier without a non-ASCII lint (see [`identifier_chars`]).
fn lint_free(c: char) -> bool {
    use unicode_normalization::UnicodeNormalization;
    use unicode_security::GeneralSecurityProfile;
    if c.is_ascii() {
        return true;
    }
    let mut one = [0u8; 4];
    let one: &str = c.encode_utf8(&mut one);
    unicode_ident::is_xid_continue(c)
        && GeneralSecurityProfile::identifier_allowed(c)
        && unicode_security::skeleton(one).eq(one.nfd())
}

/// The local part of a QName (where only the local name is compared, e.g. a prohibited
/// attribute against its base's attributes).
fn local_name(q: &QName) -> String {
    String::from_utf8_lossy(q.local_name()).into_owned()
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
