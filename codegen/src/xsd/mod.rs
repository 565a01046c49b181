//! The front end: schema documents in, the IR out. The only part of the generator that
//! sees XSD.
//!
//! Stages, in order (each its own module):
//!
//! 1. [`compose`] reads the documents of one schema (following include, import and
//!    redefine, confined to the allowed folders, each file bounded) and parses each once
//!    into its positioned tree ([`tree`]), which every later stage reads;
//! 2. [`limits`] bounds how deep the documents nest and their references go, before
//!    anything that recurses on them;
//! 3. `passes` (on a stack sized for those limits): the markup checks (`markup`) and the
//!    validity pass (`validity`) judge each document; xsd-parser models it, behind one
//!    adapter (`adapter`), from its tree; then the named passes, run in order by one
//!    driver, convert the documents into the IR, resolving names, translating patterns and
//!    reporting, at their positions, every construct the generator does not support.
//!    Nothing is skipped silently.
//!
//! xsd-parser's parser only is used (its interpreter and optimiser flatten away what we
//! need, such as `fixed`, `xs:alternative` and the facets of each derivation step).

mod adapter;
pub mod catalog;
pub mod compose;
pub mod limits;
mod markup;
mod passes;
mod schema_file;
pub mod tree;
mod validity;
mod vocabulary;

use std::path::{Path, PathBuf};

pub use adapter::models_read;
pub use catalog::Catalog;
pub use compose::{Allowed, Cache, MAX_SCHEMA_BYTES};
pub use tree::{documents_parsed, Version as XsdVersion};

use crate::diagnostic::{Diagnostics, Kind, SchemaDiagnostic};
use crate::ir::*;

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
    // Values in the schema (facets, defaults, enumerations) are read by the lexical spaces
    // of the edition the schema is read as, on the thread that reads them.
    let xsd_1_1 = read_as_1_1(set);
    crate::on_schema_stack(|| {
        boardxml::datatypes::with_edition(xsd_1_1, || read_limited_documents(set))
    })
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
        if let Ok(mut schema) = passes::run(&without) {
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
            schema.warnings.extend(left_out(set));
            schema.xsd_1_1 = read_as_1_1(set);
            return Ok(schema);
        }
    }
    let mut schema = passes::run(set)?;
    schema.warnings.extend(left_out(set));
    schema.xsd_1_1 = read_as_1_1(set);
    Ok(schema)
}

/// Whether the set's documents were read as XSD 1.1 (one version for the whole set).
fn read_as_1_1(set: &compose::DocumentSet) -> bool {
    set.documents
        .iter()
        .any(|doc| doc.tree.version() == XsdVersion::Xsd11)
}

/// A warning for each document that conditional inclusion reads as an empty schema (its
/// `xs:schema` asks for another version of XSD than the one it is read as): valid, but
/// hardly what its user meant.
fn left_out(set: &compose::DocumentSet) -> Vec<SchemaDiagnostic> {
    set.documents
        .iter()
        .filter_map(|doc| {
            let span = doc.tree.root_left_out?;
            Some(SchemaDiagnostic {
                file: doc.path.clone(),
                span,
                construct: "<xs:schema>".into(),
                message: format!(
                    "conditional inclusion (vc:minVersion, vc:maxVersion) leaves out this document's xs:schema when read as {}: it declares nothing",
                    doc.tree.version()
                ),
                hint: Some("choose the version it asks for with --xsd-version".into()),
                kind: Kind::Warning,
            })
        })
        .collect()
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
