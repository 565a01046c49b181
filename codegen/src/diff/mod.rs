//! `diff`: what a schema change does to documents and to the generated API.
//!
//! Two schemas (each read by the adapter into the IR) are compared component by component:
//! global elements, named types (simple types by their facets, complex types by attribute
//! and by content model), type alternatives, and documentation (listed apart). Layout,
//! comments and the order of global declarations are not in the IR, so they never show.
//!
//! Every change gets two document verdicts, each "no" with its proof and each "yes" with a
//! witness document (valid under one schema, invalid under the other): "old documents
//! break" compares OLD's documents against NEW ([`docs::Cmp`] with A = OLD), "old readers
//! reject new documents" the reverse. A change's verdict concerns that component alone
//! (child elements of an unchanged type name are assumed unchanged: their own changes are
//! listed separately); the overall verdict compares whole documents from the roots.
//!
//! API terms come from rendering both schemas and reading the generated code back
//! ([`api`]): the names are the renderer's.

pub mod api;
pub mod check;
pub mod content;
pub mod docs;
mod type_substitution;
pub mod values;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use api::{ApiChange, Semver};
use docs::{label, Cmp, Focus, Local, Verdict};

use crate::diagnostic::Diagnostics;
use crate::ir::*;
use crate::render::names::{sanitize_snake, type_ident_name};
use crate::render::Externs;
use boardxml::facets::{Constraint, FACETS};

/// A place in a schema file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    /// The file as given.
    pub file: String,
    /// Its position.
    pub span: Span,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.span.line, self.span.column)
    }
}

/// What a change's document verdicts are computed on.
#[derive(Debug, Clone)]
enum Target {
    /// Nothing a document shows: the proof.
    Nothing(String),
    /// Something no witness is sought for: why the verdict cannot be told.
    Unknown(String),
    /// A part of a type: the focus for OLD's documents and the focus for NEW's.
    Type(TypeRef, Focus, Focus),
    /// A simple type: every attribute and element that holds it.
    Simple(String),
    /// A global element.
    Root(String),
}

/// One change.
#[derive(Debug, Clone)]
pub struct Change {
    /// A stable kind (`element-added`, `range-changed`, ...).
    pub kind: String,
    /// The component (`complexType Head`).
    pub component: String,
    /// Where it is in OLD.
    pub old: Option<Loc>,
    /// Where it is in NEW.
    pub new: Option<Loc>,
    /// What changed, in schema terms.
    pub summary: String,
    /// Further lines of detail.
    pub details: Vec<String>,
    /// Whether only documentation changed.
    pub documentation: bool,
    /// What changed in the generated API.
    pub api: Vec<ApiChange>,
    /// The API's semver level for this change.
    pub semver: Semver,
    /// Can a document valid under OLD be invalid under NEW?
    pub old_break: Verdict,
    /// Can a document valid under NEW be invalid under OLD?
    pub new_rejected: Verdict,
    /// The witness files written (old-valid, new-valid), if any.
    pub witness_files: [Option<String>; 2],
    owner: Option<String>,
    members: Vec<String>,
    target: Target,
}

/// The comparison of two schemas.
#[derive(Debug, Clone)]
pub struct Report {
    /// OLD's file, as given.
    pub old_file: String,
    /// NEW's file, as given.
    pub new_file: String,
    /// The changes, meaning first and documentation last.
    pub changes: Vec<Change>,
    /// Whole documents: can an OLD-valid document be NEW-invalid?
    pub old_break: Verdict,
    /// Whole documents: can a NEW-valid document be OLD-invalid?
    pub new_rejected: Verdict,
    /// The API's semver level overall.
    pub semver: Semver,
}

impl Report {
    /// Whether a document valid under OLD may be invalid under NEW (a "yes" or a "cannot
    /// tell" overall): the exit status 1 of `diff`.
    pub fn may_break(&self) -> bool {
        !matches!(self.old_break, Verdict::No(_))
    }
}

/// Reads and compares two schema files, with no bindings.
pub fn diff_files(old: &Path, new: &Path) -> Result<Report, Diagnostics> {
    diff_files_with(old, new, &crate::xsd::Catalog::default())
}

/// [`diff_files`] with the locations of the documents either schema brings in mapped by
/// `catalog`.
pub fn diff_files_with(
    old: &Path,
    new: &Path,
    catalog: &crate::xsd::Catalog,
) -> Result<Report, Diagnostics> {
    diff_files_allowed(old, new, catalog, &crate::xsd::Allowed::default())
}

/// [`diff_files_with`], the documents also allowed to read under `allowed`'s folders.
pub fn diff_files_allowed(
    old: &Path,
    new: &Path,
    catalog: &crate::xsd::Catalog,
    allowed: &crate::xsd::Allowed,
) -> Result<Report, Diagnostics> {
    // A document both schemas bring in is read once.
    let cache = crate::xsd::Cache::new();
    let a = crate::xsd::read_schema_files_cached(&[old.to_owned()], catalog, allowed, &cache)?;
    let b = crate::xsd::read_schema_files_cached(&[new.to_owned()], catalog, allowed, &cache)?;
    Ok(diff(
        &a,
        &b,
        &old.display().to_string(),
        &new.display().to_string(),
        &Externs::new(),
        &Externs::new(),
    ))
}

/// Compares two schemas; `externs_*` are the bindings each is rendered with.
pub fn diff(
    a: &Schema,
    b: &Schema,
    old_file: &str,
    new_file: &str,
    externs_a: &Externs,
    externs_b: &Externs,
) -> Report {
    // Values compared by XSD 1.1's lexical spaces where either side is read as 1.1 (they
    // are a superset of 1.0's: a value of a 1.0 schema reads the same).
    let xsd_1_1 = a.xsd_1_1 || b.xsd_1_1;
    crate::on_schema_stack(|| {
        boardxml::datatypes::with_edition(xsd_1_1, || {
            diff_here((a, old_file, externs_a), (b, new_file, externs_b))
        })
    })
}

/// One side of a comparison: the schema, its file and the bindings it is rendered with.
type Side<'s> = (&'s Schema, &'s str, &'s Externs);

/// [`diff`] on the stack it runs on.
fn diff_here((a, old_file, externs_a): Side<'_>, (b, new_file, externs_b): Side<'_>) -> Report {
    // Elements compared by their declared types (see `type_substitution.rs`).
    let (a, b) = (
        &type_substitution::as_declared(a),
        &type_substitution::as_declared(b),
    );
    let loc_a = |span: Span| {
        Some(Loc {
            file: old_file.to_string(),
            span,
        })
    };
    let loc_b = |span: Span| {
        Some(Loc {
            file: new_file.to_string(),
            span,
        })
    };
    let mut changes = Vec::new();
    let mut doc_changes = Vec::new();
    let mut push_doc = |component: String, old: Option<Loc>, new: Option<Loc>, what: String| {
        doc_changes.push(change(
            "documentation-changed",
            component,
            old,
            new,
            what,
            Target::Nothing("documentation does not affect validity".into()),
        ));
    };
    if a.doc != b.doc {
        push_doc(
            "xs:schema".into(),
            loc_a(Span { line: 1, column: 1 }),
            loc_b(Span { line: 1, column: 1 }),
            "schema documentation changed".into(),
        );
    }
    // Global elements.
    let names: BTreeSet<&String> = a.roots.keys().chain(b.roots.keys()).collect();
    for n in names {
        match (a.roots.get(n), b.roots.get(n)) {
            (Some(r), None) => changes.push(change(
                "element-removed",
                format!("element {n} (global)"),
                loc_a(r.span),
                None,
                format!("global element {n} removed"),
                Target::Root(n.clone()),
            )),
            (None, Some(r)) => changes.push(change(
                "element-added",
                format!("element {n} (global)"),
                None,
                loc_b(r.span),
                format!("global element {n} added"),
                Target::Root(n.clone()),
            )),
            (Some(x), Some(y)) => {
                if x.type_ref != y.type_ref {
                    changes.push(change(
                        "element-type-changed",
                        format!("element {n} (global)"),
                        loc_a(x.span),
                        loc_b(y.span),
                        format!(
                            "type of global element {n}: {} -> {}",
                            label(&x.type_ref),
                            label(&y.type_ref)
                        ),
                        Target::Root(n.clone()),
                    ));
                }
                if x.doc != y.doc {
                    push_doc(
                        format!("element {n} (global)"),
                        loc_a(x.span),
                        loc_b(y.span),
                        format!("documentation of global element {n} changed"),
                    );
                }
            }
            (None, None) => {}
        }
    }
    // Named types: renames first (a type gone and another come with the same definition).
    let gone: Vec<&TypeDef> = a
        .types
        .values()
        .filter(|d| !b.types.contains_key(&d.name))
        .collect();
    let mut come: Vec<&TypeDef> = b
        .types
        .values()
        .filter(|d| !a.types.contains_key(&d.name))
        .collect();
    let type_names_proof = "type names do not occur in documents (xsi:type is not supported); \
        the declarations that use the type are compared where they changed";
    for d in gone {
        let same = come
            .iter()
            .position(|c| canon_kind(&c.kind) == canon_kind(&d.kind));
        match same {
            Some(i) => {
                let c = come.remove(i);
                let mut ch = change(
                    "type-renamed",
                    format!("{} {}", type_word(d), d.name),
                    loc_a(d.span),
                    loc_b(c.span),
                    format!("type {} renamed to {}", d.name, c.name),
                    Target::Nothing(type_names_proof.into()),
                );
                ch.owner = Some(d.name.clone());
                ch.members.push(c.name.clone());
                changes.push(ch);
            }
            None => {
                let mut ch = change(
                    "type-removed",
                    format!("{} {}", type_word(d), d.name),
                    loc_a(d.span),
                    None,
                    format!("type {} removed", d.name),
                    Target::Nothing(type_names_proof.into()),
                );
                ch.owner = Some(d.name.clone());
                changes.push(ch);
            }
        }
    }
    for c in come {
        let mut ch = change(
            "type-added",
            format!("{} {}", type_word(c), c.name),
            None,
            loc_b(c.span),
            format!("type {} added", c.name),
            Target::Nothing(type_names_proof.into()),
        );
        ch.owner = Some(c.name.clone());
        changes.push(ch);
    }
    for (name, x) in &a.types {
        let Some(y) = b.types.get(name) else { continue };
        let (la, lb) = (loc_a(x.span), loc_b(y.span));
        let component = format!("{} {name}", type_word(x));
        if x.doc != y.doc {
            push_doc(
                component.clone(),
                la.clone(),
                lb.clone(),
                format!("documentation of type {name} changed"),
            );
        }
        for (what, pa, pb) in part_docs(&x.kind, &y.kind) {
            push_doc(
                component.clone(),
                pa.map(|s| Loc {
                    file: old_file.into(),
                    span: s,
                }),
                pb.map(|s| Loc {
                    file: new_file.into(),
                    span: s,
                }),
                what,
            );
        }
        if canon_kind(&x.kind) == canon_kind(&y.kind) {
            continue;
        }
        let me = TypeRef::Named(name.clone());
        match (&x.kind, &y.kind) {
            (TypeKind::Complex(cx), TypeKind::Complex(cy)) => {
                for ch in attribute_changes(name, cx, cy, old_file, new_file) {
                    changes.push(ch);
                }
                if let Some(summary) = assertion_change(name, &cx.assertions, &cy.assertions) {
                    let mut ch = change(
                        "assertion-changed",
                        component.clone(),
                        la.clone(),
                        lb.clone(),
                        summary,
                        Target::Unknown(
                            "XPath assertions are not compared: no document is sought that makes one test true and the other false".into(),
                        ),
                    );
                    ch.owner = Some(name.clone());
                    changes.push(ch);
                }
                if canon_content(&cx.content) != canon_content(&cy.content) {
                    let (kind, details, members) =
                        content_changes(name, &cx.content, &cy.content, old_file, new_file);
                    let mut ch = change(
                        &kind,
                        component.clone(),
                        la.clone(),
                        lb.clone(),
                        format!(
                            "content model of {name}: {}",
                            details.first().cloned().unwrap_or_default()
                        ),
                        Target::Type(me.clone(), Focus::Content, Focus::Content),
                    );
                    ch.details = details;
                    ch.members = members;
                    ch.owner = Some(name.clone());
                    if ch.details.len() == 1 {
                        ch.details.clear();
                    } else if kind == "element-added" || kind == "element-removed" {
                        ch.summary = format!(
                            "content model of {name}: {} elements {} ({})",
                            ch.members.len(),
                            kind.trim_start_matches("element-"),
                            ch.members.join(", ")
                        );
                    } else {
                        ch.summary =
                            format!("content model of {name}: {} changes", ch.details.len());
                    }
                    changes.push(ch);
                }
            }
            (k1, k2) if is_simple(k1) && is_simple(k2) => {
                let (kind, details) = simple_changes(name, k1, k2);
                let mut ch = change(
                    &kind,
                    component.clone(),
                    la,
                    lb,
                    details.join("; "),
                    Target::Simple(name.clone()),
                );
                ch.owner = Some(name.clone());
                changes.push(ch);
            }
            (TypeKind::Alternatives(xa), TypeKind::Alternatives(ya)) => {
                let mut ch = change(
                    "alternatives-changed",
                    component.clone(),
                    la,
                    lb,
                    format!(
                        "type alternatives of {name}: {} -> {}",
                        show_alternatives(xa),
                        show_alternatives(ya)
                    ),
                    Target::Type(me.clone(), Focus::All, Focus::All),
                );
                ch.owner = Some(name.clone());
                changes.push(ch);
            }
            (k1, k2) => {
                let mut ch = change(
                    "type-kind-changed",
                    component.clone(),
                    la,
                    lb,
                    format!("{name}: {} -> {}", kind_word(k1), kind_word(k2)),
                    Target::Type(me.clone(), Focus::All, Focus::All),
                );
                ch.owner = Some(name.clone());
                changes.push(ch);
            }
        }
    }
    // Verdicts.
    for ch in &mut changes {
        ch.old_break = verdict(a, b, &ch.target, false);
        ch.new_rejected = verdict(b, a, &ch.target, true);
    }
    // The generated API.
    let mut loose = Vec::new();
    match (api::surface(a, externs_a), api::surface(b, externs_b)) {
        (Ok(sa), Ok(sb)) => {
            let renames: BTreeMap<String, String> = changes
                .iter()
                .filter(|c| c.kind == "type-renamed")
                .filter_map(|c| {
                    Some((
                        type_ident_name(c.owner.as_deref()?),
                        type_ident_name(c.members.first()?),
                    ))
                })
                .collect();
            for ac in api::changes(&sa, &sb, &renames) {
                match attribute_api(&changes, &ac) {
                    Some(i) => changes[i].api.push(ac),
                    None => loose.push(ac),
                }
            }
        }
        (Err(e), _) | (_, Err(e)) => loose.push(ApiChange {
            owner: String::new(),
            member: None,
            what: format!("the generated API cannot be compared: {e}"),
            semver: Semver::Major,
        }),
    }
    if !loose.is_empty() {
        let mut ch = change(
            "generated-api-changed",
            "generated code".into(),
            None,
            None,
            "generated API changes that follow from the changes above".into(),
            Target::Nothing("no schema component of its own".into()),
        );
        ch.old_break = Verdict::No("no schema component of its own".into());
        ch.new_rejected = Verdict::No("no schema component of its own".into());
        ch.api = loose;
        changes.push(ch);
    }
    for ch in &mut changes {
        ch.semver = ch
            .api
            .iter()
            .map(|c| c.semver)
            .max()
            .unwrap_or(Semver::None);
    }
    for mut d in doc_changes {
        d.old_break = Verdict::No("documentation does not affect validity".into());
        d.new_rejected = Verdict::No("documentation does not affect validity".into());
        d.documentation = true;
        changes.push(d);
    }
    let semver = changes
        .iter()
        .map(|c| c.semver)
        .max()
        .unwrap_or(Semver::None);
    Report {
        old_file: old_file.into(),
        new_file: new_file.into(),
        old_break: whole(a, b, false),
        new_rejected: whole(b, a, true),
        changes,
        semver,
    }
}

fn change(
    kind: &str,
    component: String,
    old: Option<Loc>,
    new: Option<Loc>,
    summary: String,
    target: Target,
) -> Change {
    Change {
        kind: kind.into(),
        component,
        old,
        new,
        summary,
        details: Vec::new(),
        documentation: false,
        api: Vec::new(),
        semver: Semver::None,
        old_break: Verdict::CannotTell("not computed".into()),
        new_rejected: Verdict::CannotTell("not computed".into()),
        witness_files: [None, None],
        owner: None,
        members: Vec::new(),
        target,
    }
}

/// The change an API change belongs to: the one whose type renders as its owner (and
/// names its member, if several do).
fn attribute_api(changes: &[Change], ac: &ApiChange) -> Option<usize> {
    let rust = |c: &Change| c.owner.as_deref().map(type_ident_name);
    let member = |c: &Change| {
        ac.member.as_ref().is_some_and(|m| {
            c.members
                .iter()
                .any(|x| &sanitize_snake(x) == m || &crate::xsd::pascal(x) == m)
        })
    };
    let owned = |c: &Change| rust(c).as_deref() == Some(ac.owner.as_str());
    changes
        .iter()
        .position(|c| owned(c) && member(c))
        .or_else(|| changes.iter().position(owned))
        .or_else(|| {
            // A renamed type: its new name.
            changes
                .iter()
                .position(|c| c.members.iter().any(|m| type_ident_name(m) == ac.owner))
        })
        .or_else(|| {
            // A type the renderer nests under one of the changed types (groups, choices).
            changes
                .iter()
                .enumerate()
                .filter_map(|(i, c)| {
                    rust(c)
                        .filter(|r| ac.owner.starts_with(r.as_str()))
                        .map(|r| (r.len(), i))
                })
                .max()
                .map(|(_, i)| i)
        })
}

/// A change's verdict for A's documents judged by B (`reverse`: A is NEW).
fn verdict(a: &Schema, b: &Schema, target: &Target, reverse: bool) -> Verdict {
    let mut cx = Cmp::new(a, b, true);
    let (older, newer) = if reverse {
        ("NEW", "OLD")
    } else {
        ("OLD", "NEW")
    };
    let finish = |cx: &mut Cmp, t: &TypeRef, r: Local| -> Verdict {
        match r {
            Local::Included(p) => Verdict::No(swap(&p, reverse)),
            Local::Unknown(u) => Verdict::CannotTell(swap(&u, reverse)),
            Local::Witness(reason, e) => match cx.wrap(t, e) {
                Ok(Some(doc)) => Verdict::Yes {
                    reason: swap(&reason, reverse),
                    doc,
                },
                Ok(None) => Verdict::No(format!(
                    "no element of a document valid under {older} has type {}",
                    label(t)
                )),
                Err(u) => Verdict::CannotTell(u),
            },
        }
    };
    match target {
        Target::Nothing(p) => Verdict::No(p.clone()),
        Target::Unknown(u) => Verdict::CannotTell(u.clone()),
        Target::Type(t, fa, fb) => {
            let focus = if reverse { fb } else { fa };
            if docs::path_to(a, t).is_none() {
                return Verdict::No(format!(
                    "no element of a document valid under {older} has type {}",
                    label(t)
                ));
            }
            let r = cx.compare(t, t, focus, 0);
            finish(&mut cx, t, r)
        }
        Target::Root(n) => match (a.roots.get(n), b.roots.get(n)) {
            (None, _) => Verdict::No(format!(
                "{older} has no global element {n}: its documents have other roots"
            )),
            (Some(r), None) => match cx.min_instance(n, &r.type_ref) {
                Ok(doc) => Verdict::Yes {
                    reason: format!("{newer} has no global element {n}"),
                    doc,
                },
                Err(u) => Verdict::CannotTell(u),
            },
            (Some(x), Some(y)) => match cx.compare(&x.type_ref, &y.type_ref, &Focus::All, 0) {
                Local::Included(p) => Verdict::No(swap(&p, reverse)),
                Local::Unknown(u) => Verdict::CannotTell(swap(&u, reverse)),
                Local::Witness(reason, mut e) => {
                    e.name = n.clone();
                    Verdict::Yes {
                        reason: swap(&reason, reverse),
                        doc: e,
                    }
                }
            },
        },
        Target::Simple(n) => {
            let sites = simple_sites(a, n);
            let mut proofs = Vec::new();
            let mut unknown = None;
            let mut unreachable = 0;
            for (owner, focus) in &sites {
                if docs::path_to(a, owner).is_none() {
                    unreachable += 1;
                    continue;
                }
                let r = cx.compare(owner, owner, focus, 0);
                match finish(&mut cx, owner, r) {
                    Verdict::No(p) => proofs.push(p),
                    Verdict::CannotTell(u) => unknown = Some(u),
                    yes => return yes,
                }
            }
            if let Some(u) = unknown {
                return Verdict::CannotTell(u);
            }
            if proofs.is_empty() {
                Verdict::No(format!(
                    "no attribute or element a document valid under {older} can hold has type {n} or a type derived from it{}",
                    if unreachable > 0 { format!(" ({unreachable} uses, none reachable from a root)") } else { String::new() }
                ))
            } else {
                Verdict::No(format!(
                    "every use of {n} ({} reachable): {}",
                    proofs.len(),
                    proofs.join("; ")
                ))
            }
        }
    }
}

/// The proofs speak of OLD and NEW; in the reverse direction A is NEW.
fn swap(s: &str, reverse: bool) -> String {
    if reverse {
        s.replace("OLD", "\u{0}")
            .replace("NEW", "OLD")
            .replace('\u{0}', "NEW")
    } else {
        s.to_string()
    }
}

/// Whole documents of A judged by B: every root, every type below it.
fn whole(a: &Schema, b: &Schema, reverse: bool) -> Verdict {
    let mut cx = Cmp::new(a, b, false);
    let mut proofs = Vec::new();
    // A witness from any root wins over another root's "cannot tell".
    let mut unknown = None;
    for (n, r) in &a.roots {
        let Some(rb) = b.roots.get(n) else {
            match cx.min_instance(n, &r.type_ref) {
                Ok(doc) => {
                    return Verdict::Yes {
                        reason: format!("no global element {n}"),
                        doc,
                    }
                }
                Err(u) => {
                    unknown.get_or_insert(u);
                    continue;
                }
            }
        };
        match cx.compare(&r.type_ref, &rb.type_ref, &Focus::All, 0) {
            Local::Included(_) => proofs.push(n.clone()),
            Local::Unknown(u) => {
                unknown.get_or_insert(swap(&u, reverse));
            }
            Local::Witness(reason, mut e) => {
                e.name = n.clone();
                return Verdict::Yes {
                    reason: swap(&reason, reverse),
                    doc: e,
                };
            }
        }
    }
    if let Some(u) = unknown {
        return Verdict::CannotTell(u);
    }
    Verdict::No(format!(
        "every document rooted at {} is compared type by type from the root down and included",
        if proofs.is_empty() {
            "(no root)".to_string()
        } else {
            proofs.join(", ")
        }
    ))
}

/// Where values of simple type `n` (or of a type derived from it) appear: (type, focus).
fn simple_sites(s: &Schema, n: &str) -> Vec<(TypeRef, Focus)> {
    let mut out = Vec::new();
    let mut elements: BTreeSet<TypeRef> = BTreeSet::new();
    for r in s.roots.values() {
        elements.insert(r.type_ref.clone());
    }
    for (name, d) in &s.types {
        let me = TypeRef::Named(name.clone());
        if let TypeKind::Complex(c) = &d.kind {
            for a in &c.attributes {
                if depends(s, &a.type_ref, n, 0) {
                    out.push((me.clone(), Focus::Attr(a.name.clone())));
                }
            }
            match &c.content {
                Content::Simple(t) if depends(s, t, n, 0) => out.push((me.clone(), Focus::Content)),
                Content::Elements(p) | Content::Mixed(p) => {
                    let mut decls = BTreeMap::new();
                    content::child_types(p, &mut decls);
                    elements.extend(decls.into_values().map(|d| d.type_ref));
                }
                _ => {}
            }
        }
    }
    for t in elements {
        if depends(s, &t, n, 0) {
            out.push((t, Focus::All));
        }
    }
    out
}

fn depends(s: &Schema, t: &TypeRef, n: &str, depth: usize) -> bool {
    let TypeRef::Named(x) = t else { return false };
    if x == n {
        return true;
    }
    if depth > 64 {
        return false;
    }
    match s.types.get(x).map(|d| &d.kind) {
        Some(TypeKind::Restriction(r)) => depends(s, &r.base, n, depth + 1),
        Some(TypeKind::Enumeration(e)) => depends(s, &e.base, n, depth + 1),
        Some(TypeKind::Union(m)) => m.iter().any(|m| depends(s, m, n, depth + 1)),
        Some(TypeKind::List(l)) => depends(s, &l.item, n, depth + 1),
        _ => false,
    }
}

fn is_simple(k: &TypeKind) -> bool {
    matches!(
        k,
        TypeKind::Restriction(_)
            | TypeKind::Enumeration(_)
            | TypeKind::Union(_)
            | TypeKind::List(_)
    )
}

fn type_word(d: &TypeDef) -> &'static str {
    match d.kind {
        TypeKind::Complex(_) | TypeKind::Alternatives(_) => "complexType",
        _ => "simpleType",
    }
}

fn kind_word(k: &TypeKind) -> &'static str {
    match k {
        TypeKind::Restriction(_) => "restriction",
        TypeKind::Enumeration(_) => "enumeration",
        TypeKind::Union(_) => "union",
        TypeKind::List(_) => "list",
        TypeKind::Complex(_) => "complex type",
        TypeKind::Alternatives(_) => "type alternatives",
        TypeKind::Substitution(_) => "type substitution",
    }
}

// Canonical forms: the IR with documentation and positions removed, so that only meaning
// is compared.
fn canon_kind(k: &TypeKind) -> String {
    let mut k = k.clone();
    match &mut k {
        TypeKind::Enumeration(e) => e.values.iter_mut().for_each(|v| v.doc = None),
        TypeKind::Complex(c) => {
            for a in &mut c.attributes {
                a.doc = None;
                a.span = Span::default();
            }
            if let Content::Elements(p) | Content::Mixed(p) = &mut c.content {
                strip(p);
            }
        }
        _ => {}
    }
    format!("{k:?}")
}

fn canon_content(c: &Content) -> String {
    let mut c = c.clone();
    if let Content::Elements(p) | Content::Mixed(p) = &mut c {
        strip(p);
    }
    format!("{c:?}")
}

fn strip(p: &mut Particle) {
    match &mut p.term {
        Term::Element(e) => {
            e.doc = None;
            e.span = Span::default();
        }
        Term::Any(w) => w.span = Span::default(),
        Term::Sequence(items) | Term::Choice(items) | Term::All(items) => {
            items.iter_mut().for_each(strip)
        }
    }
}

/// Documentation changes inside a type: (what, OLD position, NEW position).
fn part_docs(x: &TypeKind, y: &TypeKind) -> Vec<(String, Option<Span>, Option<Span>)> {
    let mut out = Vec::new();
    match (x, y) {
        (TypeKind::Complex(cx), TypeKind::Complex(cy)) => {
            for a in &cx.attributes {
                if let Some(b) = cy.attributes.iter().find(|b| b.name == a.name) {
                    if a.doc != b.doc {
                        out.push((
                            format!("documentation of attribute {} changed", a.name),
                            Some(a.span),
                            Some(b.span),
                        ));
                    }
                }
            }
            let (mut da, mut db) = (BTreeMap::new(), BTreeMap::new());
            if let Content::Elements(p) | Content::Mixed(p) = &cx.content {
                content::child_types(p, &mut da);
            }
            if let Content::Elements(p) | Content::Mixed(p) = &cy.content {
                content::child_types(p, &mut db);
            }
            for (n, d) in &da {
                if let Some(e) = db.get(n) {
                    if d.doc != e.doc {
                        out.push((
                            format!("documentation of element {n} changed"),
                            Some(d.span),
                            Some(e.span),
                        ));
                    }
                }
            }
        }
        (TypeKind::Enumeration(ex), TypeKind::Enumeration(ey)) => {
            for v in &ex.values {
                if let Some(w) = ey.values.iter().find(|w| w.value == v.value) {
                    if v.doc != w.doc {
                        out.push((
                            format!("documentation of value \"{}\" changed", v.value),
                            None,
                            None,
                        ));
                    }
                }
            }
        }
        _ => {}
    }
    out
}

fn occurs(min: u32, max: Option<u32>) -> String {
    match max {
        Some(m) => format!("{min}..{m}"),
        None => format!("{min}..unbounded"),
    }
}

/// The elements a particle declares, in order, each with how often it can occur in the
/// whole content model (its bounds times those of the groups around it; a branch of a
/// choice of several may be absent), so moving an element into a group of the same
/// effect shows as a group change, not as an occurrence change.
fn element_uses(p: &Particle, out: &mut Vec<(ElementDecl, u32, Option<u32>)>) {
    uses_in(p, 1, Some(1), out)
}

fn uses_in(
    p: &Particle,
    min: u32,
    max: Option<u32>,
    out: &mut Vec<(ElementDecl, u32, Option<u32>)>,
) {
    let min = min.saturating_mul(p.min);
    let max = match (max, p.max) {
        (Some(a), Some(b)) => Some(a.saturating_mul(b)),
        (Some(0), None) | (None, Some(0)) => Some(0),
        _ => None,
    };
    match &p.term {
        Term::Element(e) => out.push((e.clone(), min, max)),
        Term::Any(_) => {}
        Term::Choice(items) if items.len() > 1 => {
            items.iter().for_each(|i| uses_in(i, 0, max, out))
        }
        Term::Sequence(items) | Term::Choice(items) | Term::All(items) => {
            items.iter().for_each(|i| uses_in(i, min, max, out))
        }
    }
}

fn compositor(c: &Content) -> String {
    match c {
        Content::Empty => "empty".into(),
        Content::Simple(t) => format!("simple content {}", label(t)),
        Content::Elements(p) | Content::Mixed(p) => {
            let mixed = if matches!(c, Content::Mixed(_)) {
                "mixed "
            } else {
                ""
            };
            let word = match &p.term {
                Term::Element(_) => "element",
                Term::Sequence(_) => "sequence",
                Term::Choice(_) => "choice",
                Term::All(_) => "all",
                Term::Any(_) => "wildcard",
            };
            format!("{mixed}{word} {}", occurs(p.min, p.max))
        }
    }
}

/// An element's `default=`/`fixed=`, as written.
fn value_constraint(v: &Option<crate::ir::ValueConstraint>) -> String {
    match v {
        None => "(none)".into(),
        Some(crate::ir::ValueConstraint::Default(d)) => format!("default {d:?}"),
        Some(crate::ir::ValueConstraint::Fixed(f)) => format!("fixed {f:?}"),
    }
}

/// The changes of a content model: (kind, one line each, element names involved).
fn content_changes(
    owner: &str,
    x: &Content,
    y: &Content,
    old_file: &str,
    new_file: &str,
) -> (String, Vec<String>, Vec<String>) {
    let mut details = Vec::new();
    let mut kinds = BTreeSet::new();
    let mut members = Vec::new();
    let (mut ua, mut ub) = (Vec::new(), Vec::new());
    if let Content::Elements(p) | Content::Mixed(p) = x {
        element_uses(p, &mut ua);
    }
    if let Content::Elements(p) | Content::Mixed(p) = y {
        element_uses(p, &mut ub);
    }
    if compositor(x) != compositor(y) {
        details.push(format!("{} -> {}", compositor(x), compositor(y)));
        kinds.insert(if std::mem::discriminant(x) == std::mem::discriminant(y) {
            "compositor-changed"
        } else {
            "content-kind-changed"
        });
    }
    let removed: Vec<&(ElementDecl, u32, Option<u32>)> = ua
        .iter()
        .filter(|u| !ub.iter().any(|v| v.0.name == u.0.name))
        .collect();
    let added: Vec<&(ElementDecl, u32, Option<u32>)> = ub
        .iter()
        .filter(|v| !ua.iter().any(|u| u.0.name == v.0.name))
        .collect();
    let renamed = removed.len() == 1
        && added.len() == 1
        && removed[0].0.type_ref == added[0].0.type_ref
        && (removed[0].1, removed[0].2) == (added[0].1, added[0].2);
    // One change: its kind, its line, the elements it is about.
    let mut note = |kind: &'static str, detail: String, elements: &[&str]| {
        details.push(detail);
        kinds.insert(kind);
        members.extend(elements.iter().map(|e| e.to_string()));
    };
    if renamed {
        let (r, n) = (&removed[0].0.name, &added[0].0.name);
        note(
            "element-renamed",
            format!("element {r} renamed to {n}"),
            &[r, n],
        );
    } else {
        // An element removed (from OLD) or added (to NEW), where it stood.
        let uses = |u: &(ElementDecl, u32, Option<u32>)| {
            let (e, at) = (&u.0, u.0.span);
            let shown = format!("{} {}", label(&e.type_ref), occurs(u.1, u.2));
            (e.name.clone(), shown, format!("{}:{}", at.line, at.column))
        };
        for (name, shown, at) in removed.iter().map(|r| uses(r)) {
            let detail = format!("element {name} removed (was {shown}) from {old_file}:{at}");
            note("element-removed", detail, &[&name]);
        }
        for (n, (name, shown, at)) in added.iter().map(|n| (n, uses(n))) {
            let how = if n.1 == 0 { "optional" } else { "required" };
            let detail = format!("element {name} added ({how}, {shown}) at {new_file}:{at}");
            note("element-added", detail, &[&name]);
        }
    }
    for u in &ua {
        let Some(v) = ub.iter().find(|v| v.0.name == u.0.name) else {
            continue;
        };
        let (name, x, y) = (&u.0.name, &u.0, &v.0);
        if (u.1, u.2) != (v.1, v.2) {
            let (from, to) = (occurs(u.1, u.2), occurs(v.1, v.2));
            let detail = format!("occurrence of element {name} in {owner}: {from} -> {to}");
            note("occurrence-changed", detail, &[name]);
        }
        if x.value != y.value {
            let (from, to) = (value_constraint(&x.value), value_constraint(&y.value));
            let detail = format!("value constraint of element {name}: {from} -> {to}");
            note("element-value-changed", detail, &[name]);
        }
        if x.nillable != y.nillable {
            let detail = format!(
                "nillable of element {name}: {} -> {}",
                x.nillable, y.nillable
            );
            note("element-nillable-changed", detail, &[name]);
        }
        if x.type_ref != y.type_ref {
            let (from, to) = (label(&x.type_ref), label(&y.type_ref));
            let detail = format!("type of element {name}: {from} -> {to}");
            note("element-type-changed", detail, &[name]);
        }
    }
    let na: Vec<&String> = ua
        .iter()
        .map(|u| &u.0.name)
        .filter(|n| ub.iter().any(|v| &&v.0.name == n))
        .collect();
    let nb: Vec<&String> = ub
        .iter()
        .map(|u| &u.0.name)
        .filter(|n| ua.iter().any(|v| &&v.0.name == n))
        .collect();
    let all = |c: &Content| matches!(c, Content::Elements(p) | Content::Mixed(p) if matches!(p.term, Term::All(_)));
    // In xs:all the order is free: declaring it otherwise changes nothing.
    if na != nb && !(all(x) && all(y)) {
        details.push("order of elements changed".into());
        kinds.insert("order-changed");
    }
    if details.is_empty() {
        details.push("group structure changed (nesting or group occurrence bounds)".into());
        kinds.insert("group-changed");
    }
    let kind = if kinds.len() == 1 {
        kinds
            .into_iter()
            .next()
            .unwrap_or("content-changed")
            .to_string()
    } else {
        "content-changed".to_string()
    };
    (kind, details, members)
}

/// The attribute changes of a complex type.
fn attribute_changes(
    owner: &str,
    x: &ComplexType,
    y: &ComplexType,
    old_file: &str,
    new_file: &str,
) -> Vec<Change> {
    let me = TypeRef::Named(owner.to_string());
    let at = |f: &str, s: Span| {
        Some(Loc {
            file: f.to_string(),
            span: s,
        })
    };
    let component = |n: &str| format!("attribute {n} of complexType {owner}");
    let mut out = Vec::new();
    let removed: Vec<&Attribute> = x
        .attributes
        .iter()
        .filter(|a| !y.attributes.iter().any(|b| b.name == a.name))
        .collect();
    let added: Vec<&Attribute> = y
        .attributes
        .iter()
        .filter(|b| !x.attributes.iter().any(|a| a.name == b.name))
        .collect();
    let with_owner = |mut c: Change, members: Vec<String>| {
        c.owner = Some(owner.to_string());
        c.members = members;
        c
    };
    if removed.len() == 1
        && added.len() == 1
        && removed[0].type_ref == added[0].type_ref
        && removed[0].required == added[0].required
    {
        let (r, n) = (removed[0], added[0]);
        out.push(with_owner(
            change(
                "attribute-renamed",
                component(&r.name),
                at(old_file, r.span),
                at(new_file, n.span),
                format!("attribute {} of {owner} renamed to {}", r.name, n.name),
                Target::Type(
                    me.clone(),
                    Focus::Attr(r.name.clone()),
                    Focus::Attr(n.name.clone()),
                ),
            ),
            vec![r.name.clone(), n.name.clone()],
        ));
    } else {
        for r in removed {
            out.push(with_owner(
                change(
                    "attribute-removed",
                    component(&r.name),
                    at(old_file, r.span),
                    None,
                    format!(
                        "attribute {} of {owner} removed ({})",
                        r.name,
                        if r.required {
                            "was required"
                        } else {
                            "was optional"
                        }
                    ),
                    Target::Type(
                        me.clone(),
                        Focus::Attr(r.name.clone()),
                        Focus::Attr(r.name.clone()),
                    ),
                ),
                vec![r.name.clone()],
            ));
        }
        for n in added {
            out.push(with_owner(
                change(
                    "attribute-added",
                    component(&n.name),
                    None,
                    at(new_file, n.span),
                    format!(
                        "attribute {} of {owner} added ({}, {})",
                        n.name,
                        if n.required { "required" } else { "optional" },
                        label(&n.type_ref)
                    ),
                    Target::Type(
                        me.clone(),
                        Focus::Attr(n.name.clone()),
                        Focus::Attr(n.name.clone()),
                    ),
                ),
                vec![n.name.clone()],
            ));
        }
    }
    // The attribute wildcard: added, removed or changed (where it stands aside).
    let same = match (&x.any_attribute, &y.any_attribute) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.namespaces == b.namespaces && a.disallowed == b.disallowed && a.process == b.process
        }
        _ => false,
    };
    if !same {
        let kind = match (&x.any_attribute, &y.any_attribute) {
            (None, _) => "attribute-wildcard-added",
            (_, None) => "attribute-wildcard-removed",
            _ => "attribute-wildcard-changed",
        };
        let show = |w: &Option<Wildcard>| w.as_ref().map_or("none".into(), show_attribute_wildcard);
        out.push(with_owner(
            change(
                kind,
                format!("attribute wildcard of complexType {owner}"),
                x.any_attribute.as_ref().and_then(|w| at(old_file, w.span)),
                y.any_attribute.as_ref().and_then(|w| at(new_file, w.span)),
                format!(
                    "attribute wildcard of {owner}: {} -> {}",
                    show(&x.any_attribute),
                    show(&y.any_attribute)
                ),
                Target::Type(me.clone(), Focus::AnyAttribute, Focus::AnyAttribute),
            ),
            Vec::new(),
        ));
    }
    for a in &x.attributes {
        let Some(b) = y.attributes.iter().find(|b| b.name == a.name) else {
            continue;
        };
        let mut what = Vec::new();
        if a.type_ref != b.type_ref {
            what.push(format!(
                "type {} -> {}",
                label(&a.type_ref),
                label(&b.type_ref)
            ));
        }
        if a.required != b.required {
            let u = |r: bool| if r { "required" } else { "optional" };
            what.push(format!("use {} -> {}", u(a.required), u(b.required)));
        }
        if a.fixed != b.fixed {
            what.push(format!("fixed {:?} -> {:?}", a.fixed, b.fixed));
        }
        if a.default != b.default {
            what.push(format!("default {:?} -> {:?}", a.default, b.default));
        }
        if a.inheritable != b.inheritable {
            // What descendants' type alternatives see changes, which no witness is sought
            // for (in a schema without alternatives nothing changes, but this comparison
            // does not see the whole schema).
            let inheritance = format!("inheritable {} -> {}", a.inheritable, b.inheritable);
            let target = Target::Unknown("an attribute's inheritance changes what descendants' type alternatives see: the tool does not follow it".into());
            out.push(with_owner(
                change(
                    "attribute-changed",
                    component(&a.name),
                    at(old_file, a.span),
                    at(new_file, b.span),
                    format!("attribute {} of {owner}: {inheritance}", a.name),
                    target,
                ),
                Vec::new(),
            ));
        }
        if what.is_empty() {
            continue;
        }
        out.push(with_owner(
            change(
                if a.required != b.required {
                    "attribute-use-changed"
                } else {
                    "attribute-changed"
                },
                component(&a.name),
                at(old_file, a.span),
                at(new_file, b.span),
                format!("attribute {} of {owner}: {}", a.name, what.join(", ")),
                Target::Type(
                    me.clone(),
                    Focus::Attr(a.name.clone()),
                    Focus::Attr(a.name.clone()),
                ),
            ),
            vec![a.name.clone()],
        ));
    }
    out
}

/// An attribute wildcard in schema terms: its namespaces, the names it disallows, its
/// processContents.
fn show_attribute_wildcard(w: &Wildcard) -> String {
    let list = |v: &[Option<String>]| {
        v.iter()
            .map(|n| n.as_deref().unwrap_or("no namespace"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let namespaces = match &w.namespaces {
        NamespaceConstraint::Any => "any namespace".to_string(),
        NamespaceConstraint::Not(v) => format!("namespaces other than {}", list(v)),
        NamespaceConstraint::Only(v) if v.is_empty() => "no namespace at all".to_string(),
        NamespaceConstraint::Only(v) => list(v),
    };
    let names = if w.disallowed.names.is_empty() {
        String::new()
    } else {
        format!(", not {}", w.disallowed.names.join(", "))
    };
    let process = docs::process_name(w.process);
    format!("{namespaces}{names}, processContents {process}")
}

/// Type alternatives in schema terms: `test="..."` → type, in order.
fn show_alternatives(alts: &[Alternative]) -> String {
    alts.iter()
        .map(|a| {
            let test = match &a.test {
                None => "(default)".to_string(),
                Some(AltTest::Present(n)) => format!("@{n}"),
                Some(AltTest::Absent(n)) => format!("not(@{n})"),
                Some(AltTest::Equals(n, v)) => format!("@{n} = '{v}'"),
                Some(AltTest::NotEquals(n, v)) => format!("@{n} != '{v}'"),
                Some(AltTest::XPath(a)) => a.test.clone(),
            };
            format!("{test} => {}", label(&a.type_ref))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The facet changes of one derivation step, in schema terms with the values as written:
/// every field of [`Facets`] is looked at, so no change of a facet goes undescribed.
fn facet_changes(
    name: &str,
    fa: &Facets,
    fb: &Facets,
    details: &mut Vec<String>,
    kinds: &mut BTreeSet<&'static str>,
) {
    let mut facet = |what: &str, kind: &'static str, va: Option<String>, vb: Option<String>| {
        if va != vb {
            let show = |v: Option<String>| v.unwrap_or_else(|| "(none)".into());
            details.push(format!("{what} of {name}: {} -> {}", show(va), show(vb)));
            kinds.insert(kind);
        }
    };
    let s = |v: Option<u64>| v.map(|v| v.to_string());
    // The count facets of one family, each with its change's kind.
    let counts = |kind: FacetKind| {
        FACETS
            .iter()
            .filter(move |d| d.kind == kind)
            .map(|d| (d.name, fa.count(d.facet), fb.count(d.facet)))
    };
    for (what, a, b) in counts(FacetKind::Length) {
        facet(what, "length-changed", s(a), s(b));
    }
    // Value bounds as written (every ordered base); an integer base also folds them into
    // `min`/`max`, which are described only when no bound is written (a bound set by
    // the reader rather than by a facet).
    let written = |f: &Facets, k: BoundKind| {
        let v: Vec<&str> = f
            .bounds
            .iter()
            .filter(|(b, _)| *b == k)
            .map(|(_, v)| v.as_str())
            .collect();
        (!v.is_empty()).then(|| v.join(", "))
    };
    for k in FACETS.iter().filter_map(|d| match d.constrains {
        Constraint::Bound(k) => Some(k),
        _ => None,
    }) {
        facet(
            k.xsd_name(),
            "range-changed",
            written(fa, k),
            written(fb, k),
        );
    }
    if fa.bounds.is_empty() && fb.bounds.is_empty() {
        let folded = |v: Option<i128>| v.map(|v| v.to_string());
        facet(
            "minInclusive",
            "range-changed",
            folded(fa.min),
            folded(fb.min),
        );
        facet(
            "maxInclusive",
            "range-changed",
            folded(fa.max),
            folded(fb.max),
        );
    } else if (fa.min, fa.max) != (fb.min, fb.max) && fa.bounds == fb.bounds {
        // The written bounds are the same but their folding differs: still a change.
        let show = |f: &Facets| format!("[{:?}, {:?}]", f.min, f.max);
        facet(
            "integer range",
            "range-changed",
            Some(show(fa)),
            Some(show(fb)),
        );
    }
    for (what, a, b) in counts(FacetKind::Digits) {
        facet(what, "digits-changed", s(a), s(b));
    }
    facet(
        "whiteSpace",
        "whitespace-changed",
        fa.white_space.map(|w| format!("{w:?}").to_lowercase()),
        fb.white_space.map(|w| format!("{w:?}").to_lowercase()),
    );
    let pats = |f: &Facets| {
        (!f.patterns.is_empty()).then(|| {
            f.patterns
                .iter()
                .map(|p| format!("\"{}\"", p.xsd))
                .collect::<Vec<_>>()
                .join(" | ")
        })
    };
    facet("pattern", "pattern-changed", pats(fa), pats(fb));
    let enums = |f: &Facets| {
        (!f.enumeration.is_empty()).then(|| {
            f.enumeration
                .iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    facet("enumeration", "enumeration-changed", enums(fa), enums(fb));
    facet(
        "explicitTimezone",
        "timezone-changed",
        fa.explicit_timezone.map(|t| t.name().to_string()),
        fb.explicit_timezone.map(|t| t.name().to_string()),
    );
    // An assertion is its test read with its namespaces: either changed is a change (the
    // namespaces are shown where the tests are the same).
    let shown = |f: &Facets, namespaces: bool| {
        (!f.assertions.is_empty()).then(|| {
            f.assertions
                .iter()
                .map(|a| match namespaces {
                    false => format!("\"{}\"", a.test),
                    true => format!("\"{}\" with {:?}", a.test, a.namespaces),
                })
                .collect::<Vec<_>>()
                .join(" and ")
        })
    };
    let namespaces = shown(fa, false) == shown(fb, false);
    facet(
        "assertion",
        "assertion-changed",
        shown(fa, namespaces),
        shown(fb, namespaces),
    );
}

/// What changed in a complex type's assertions (XSD 1.1's `xs:assert`, its base's
/// included), if anything: each test read with its namespaces and default element
/// namespace, the namespaces shown where the tests are the same.
fn assertion_change(owner: &str, a: &[Assertion], b: &[Assertion]) -> Option<String> {
    if a == b {
        return None;
    }
    let ta: Vec<&str> = a.iter().map(|x| x.test.as_str()).collect();
    let tb: Vec<&str> = b.iter().map(|x| x.test.as_str()).collect();
    let show = |v: &[Assertion], full: bool| {
        if v.is_empty() {
            return "none".to_string();
        }
        v.iter()
            .map(|x| match full {
                false => format!("\"{}\"", x.test),
                true => format!(
                    "\"{}\" with {:?} and xpathDefaultNamespace {:?}",
                    x.test, x.namespaces, x.default_element_namespace
                ),
            })
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let what = if ta.len() > tb.len() && tb.iter().all(|t| ta.contains(t)) {
        "removed"
    } else if tb.len() > ta.len() && ta.iter().all(|t| tb.contains(t)) {
        "added"
    } else {
        "changed"
    };
    let full = ta == tb;
    Some(format!(
        "assertions of {owner} {what}: {} -> {}",
        show(a, full),
        show(b, full)
    ))
}

/// The changes of a simple type: (kind, one line each).
fn simple_changes(name: &str, x: &TypeKind, y: &TypeKind) -> (String, Vec<String>) {
    let mut details = Vec::new();
    let mut kinds = BTreeSet::new();
    let mut base = |a: &TypeRef, b: &TypeRef, details: &mut Vec<String>| {
        if a != b {
            details.push(format!("base of {name}: {} -> {}", label(a), label(b)));
            kinds.insert("base-changed");
        }
    };
    match (x, y) {
        (TypeKind::Restriction(a), TypeKind::Restriction(b)) => {
            base(&a.base, &b.base, &mut details);
            facet_changes(name, &a.facets, &b.facets, &mut details, &mut kinds);
        }
        (TypeKind::Enumeration(a), TypeKind::Enumeration(b)) => {
            base(&a.base, &b.base, &mut details);
            // A value of a built-in value type written another way (1 -> 1.0) is the
            // same value: said so, not as one removed and one added.
            let value_type = match (&a.base, &b.base) {
                (TypeRef::Builtin(x), TypeRef::Builtin(y)) if x == y => match x.repr() {
                    Repr::Value(v) => Some(v),
                    _ => None,
                },
                _ => None,
            };
            let rewritten = |v: &str, others: &[EnumValue]| {
                value_type.and_then(|t| {
                    others
                        .iter()
                        .find(|w| w.value != v && crate::values::equal(t, v, &w.value))
                        .map(|w| w.value.clone())
                })
            };
            for v in &a.values {
                if b.values.iter().any(|w| w.value == v.value) {
                    continue;
                }
                if let Some(w) = rewritten(&v.value, &b.values) {
                    details.push(format!(
                        "enumeration value \"{}\" of {name} written \"{w}\" (the same value)",
                        v.value
                    ));
                    kinds.insert("enumeration-changed");
                    continue;
                }
                details.push(format!(
                    "enumeration value \"{}\" of {name} removed",
                    v.value
                ));
                kinds.insert("enumeration-changed");
            }
            for w in &b.values {
                if !a.values.iter().any(|v| v.value == w.value)
                    && rewritten(&w.value, &a.values).is_none()
                {
                    details.push(format!("enumeration value \"{}\" of {name} added", w.value));
                    kinds.insert("enumeration-changed");
                }
            }
            let (va, vb): (Vec<&String>, Vec<&String>) = (
                a.values.iter().map(|v| &v.value).collect(),
                b.values.iter().map(|v| &v.value).collect(),
            );
            if details.is_empty() && va != vb {
                details.push(format!("enumeration values of {name} reordered"));
                kinds.insert("enumeration-changed");
            }
        }
        (TypeKind::Union(a), TypeKind::Union(b)) => {
            let show = |m: &[TypeRef]| m.iter().map(label).collect::<Vec<_>>().join(" ");
            details.push(format!(
                "member types of {name}: {} -> {}",
                show(a),
                show(b)
            ));
            kinds.insert("union-changed");
        }
        (TypeKind::List(a), TypeKind::List(b)) => {
            if a.item != b.item {
                details.push(format!(
                    "item type of {name}: {} -> {}",
                    label(&a.item),
                    label(&b.item)
                ));
                kinds.insert("list-changed");
            }
            facet_changes(name, &a.facets, &b.facets, &mut details, &mut kinds);
        }
        (a, b) => {
            details.push(format!("{name}: {} -> {}", kind_word(a), kind_word(b)));
            kinds.insert("derivation-changed");
        }
    }
    if details.is_empty() {
        details.push(format!("{name} changed"));
    }
    let kind = if kinds.len() == 1 {
        kinds
            .into_iter()
            .next()
            .unwrap_or("facets-changed")
            .to_string()
    } else {
        "facets-changed".to_string()
    };
    (kind, details)
}

pub mod output;
