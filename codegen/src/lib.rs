//! boardxml-codegen: reads XML Schemas and generates Rust types with strict validators and
//! the reading/writing code that the `boardxml` runtime calls.
//!
//! Stages, each with its own errors: [`xsd`] (the adapter over xsd-parser: XSD -> [`ir`]),
//! then [`render`] (IR -> Rust tokens -> formatted source). Rendering never looks at XSD.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod check;
pub mod config;
pub mod diagnostic;
pub mod diff;
pub mod ir;
mod positions;
pub mod render;
pub mod span;
pub mod validator;
pub mod values;
pub mod xsd;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use diagnostic::{Diagnostics, Kind, SchemaDiagnostic};

/// The regex crate's size limit for translated patterns: XSD classes such as `\w` and `\c`
/// are large Unicode sets, beyond the crate's 10 MiB default once repeated.
pub use boardxml_xsd_regex::REGEX_SIZE_LIMIT;

/// Compiles a translated pattern as generated code will.
pub fn compile_pattern(translated: &str) -> Result<regex::Regex, regex::Error> {
    regex::RegexBuilder::new(translated)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
}

pub use config::{Compiled, Config};
pub use render::Externs;

/// Generates Rust source for one schema file: the output file name (`cbf-1.0.xsd` ->
/// `cbf_1_0.rs`) and its text.
pub fn generate_file(path: &Path) -> Result<(String, String), Diagnostics> {
    generate_file_with(path, &Externs::new())
}

/// [`generate_file`] with some of the schema's simple types bound to existing Rust types.
pub fn generate_file_with(path: &Path, externs: &Externs) -> Result<(String, String), Diagnostics> {
    let schema = xsd::read_schema_file(path)?;
    render_schema(path, &schema, externs)
}

/// Generates Rust source for one schema made of `paths` (with the documents they include,
/// import or redefine, their locations mapped by `catalog`), named after the first.
pub fn generate_files(
    paths: &[PathBuf],
    catalog: &xsd::Catalog,
    externs: &Externs,
) -> Result<(String, String), Diagnostics> {
    generate_files_allowed(paths, catalog, &xsd::Allowed::default(), externs)
}

/// [`generate_files`], the documents also allowed to read under `allowed`'s folders.
pub fn generate_files_allowed(
    paths: &[PathBuf],
    catalog: &xsd::Catalog,
    allowed: &xsd::Allowed,
    externs: &Externs,
) -> Result<(String, String), Diagnostics> {
    let schema = xsd::read_schema_files_allowed(paths, catalog, allowed)?;
    let first = paths
        .first()
        .map_or(Path::new("schema.xsd"), PathBuf::as_path);
    render_schema(first, &schema, externs)
}

/// Generates Rust source for a schema given as text; `path` names it in diagnostics.
pub fn generate_str(path: &Path, text: &str) -> Result<(String, String), Diagnostics> {
    let schema = xsd::read_schema(path, text)?;
    render_schema(path, &schema, &Externs::new())
}

/// [`generate_str`] with bindings: the output `path`'s schema would give if it held `text`.
pub fn generate_str_with(
    path: &Path,
    text: &str,
    externs: &Externs,
) -> Result<(String, String), Diagnostics> {
    let schema = xsd::read_schema(path, text)?;
    render_schema(path, &schema, externs)
}

/// The name of the file, beside the schemas, that binds schema types to Rust types.
pub const BINDINGS_FILE: &str = "bindings.txt";

/// Reads a bindings file: one binding a line, `SCHEMA-FILE TYPE RUST-PATH` (`cif.xsd Square
/// ::boardxml::cif::Square`); `#` starts a comment. By schema file name. `SCHEMA-FILE
/// @visitor`, with no Rust path, gives the schema a visitor: a `Visitor` trait with a method
/// per element type and a `visit` function, to which a format's rules (the reader's
/// observer) hand its elements as they are read.
pub fn read_bindings(path: &Path) -> Result<BTreeMap<String, Externs>, Diagnostics> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(unreadable(path, "the bindings file", e)),
    };
    let mut out: BTreeMap<String, Externs> = BTreeMap::new();
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        // A problem of this line.
        let problem = |message: String, hint: Option<&str>| SchemaDiagnostic {
            file: path.to_owned(),
            span: ir::Span {
                line: n as u32 + 1,
                column: 1,
            },
            construct: "a binding".into(),
            message,
            hint: hint.map(str::to_string),
            kind: Kind::Io,
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let (file, ty, rust) = match words[..] {
            [file, ty, rust] if ty != render::VISITOR_BINDING => (file, ty, rust),
            [file, ty] if ty == render::VISITOR_BINDING => (file, ty, ""),
            _ => {
                let message = format!(
                    "expected SCHEMA-FILE TYPE RUST-PATH or SCHEMA-FILE @visitor, found {line:?}"
                );
                problems.push(problem(
                    message,
                    Some("e.g. cif.xsd Square ::boardxml::cif::Square"),
                ));
                continue;
            }
        };
        if out
            .entry(file.to_string())
            .or_default()
            .insert(ty.to_string(), rust.to_string())
            .is_some()
        {
            problems.push(problem(format!("type {ty} of {file} is bound twice"), None));
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(Diagnostics(problems))
    }
}

/// A file or folder (`what`) that cannot be read.
fn unreadable(path: &Path, what: &str, e: std::io::Error) -> Diagnostics {
    Diagnostics(vec![SchemaDiagnostic {
        file: path.to_owned(),
        span: ir::Span { line: 1, column: 1 },
        construct: what.into(),
        message: format!("cannot read: {e}"),
        hint: None,
        kind: Kind::Io,
    }])
}

pub(crate) fn render_schema(
    path: &Path,
    schema: &ir::Schema,
    externs: &Externs,
) -> Result<(String, String), Diagnostics> {
    on_schema_stack(|| render_schema_here(path, schema, externs))
}

/// The size of the stack that reading, rendering and comparing schemas run on.
///
/// Those passes (and xsd-parser's reader) recurse on a schema's structure, which
/// [`xsd::limits`] bounds: elements nested at most [`xsd::limits::MAX_NESTING`] deep, and
/// at most [`xsd::limits::MAX_REFERENCE_DEPTH`] levels with references followed. Measured
/// in a debug build, a nesting level costs up to about 45 KiB of stack (xsd-parser's
/// deserializers are the largest frames), so the 512 levels allowed need some 23 MiB; the
/// stack is four times that and more, for margin and for the passes that recurse on the
/// IR. It is address space reserved, not memory used: only the pages touched are.
pub const SCHEMA_STACK_BYTES: usize = 256 << 20;

/// Runs `f` on a thread with a [`SCHEMA_STACK_BYTES`] stack (or here if no thread can be
/// started: then the limits still hold, on whatever stack this thread has).
pub(crate) fn on_schema_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let mut f = Some(f);
    let outcome = std::thread::scope(|scope| {
        let run = &mut f;
        std::thread::Builder::new()
            .name("schema".to_owned())
            .stack_size(SCHEMA_STACK_BYTES)
            .spawn_scoped(scope, move || run.take().map(|f| f()))
            .ok()
            .map(|handle| match handle.join() {
                Ok(result) => result,
                Err(panic) => std::panic::resume_unwind(panic),
            })
    });
    match outcome.flatten() {
        Some(result) => result,
        None => (f.take().expect("not run on the thread"))(),
    }
}

fn render_schema_here(
    path: &Path,
    schema: &ir::Schema,
    externs: &Externs,
) -> Result<(String, String), Diagnostics> {
    // Every translated pattern is compiled now, so generated code never fails to build one.
    let mut problems = Vec::new();
    for def in schema.types.values() {
        if let ir::TypeKind::Restriction(r) = &def.kind {
            for p in &r.facets.patterns {
                if let Err(e) = compile_pattern(&p.rust) {
                    problems.push(SchemaDiagnostic {
                        file: path.to_owned(),
                        span: def.span,
                        construct: format!("xs:pattern in simpleType \"{}\"", def.name),
                        message: format!("the pattern \"{}\" cannot be compiled: {e}", p.xsd),
                        hint: None,
                        // A translated XSD pattern beyond the regex crate's limits.
                        kind: Kind::Unsupported,
                    });
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(Diagnostics(problems));
    }
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("schema");
    let module: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let source_name = format!(
        "schemas/{}",
        path.file_name().and_then(|s| s.to_str()).unwrap_or(stem)
    );
    match render::render(schema, &source_name, externs) {
        Ok(text) => Ok((format!("{module}.rs"), text)),
        Err(errors) => Err(Diagnostics(
            errors
                .into_iter()
                .map(|e| SchemaDiagnostic {
                    file: path.to_owned(),
                    span: e.span,
                    construct: format!("type \"{}\"", e.type_name),
                    message: e.message,
                    hint: e.hint,
                    kind: e.kind,
                })
                .collect(),
        )),
    }
}

/// Generates every `.xsd` in `dir`, in name order, with the bindings of `dir/bindings.txt`
/// (if there is one); all diagnostics of all files together.
pub fn generate_dir(dir: &Path) -> Result<BTreeMap<String, String>, Diagnostics> {
    generate_dir_with(dir, &xsd::Catalog::default())
}

/// [`generate_dir`] with the locations of included and imported documents mapped by
/// `catalog`.
pub fn generate_dir_with(
    dir: &Path,
    catalog: &xsd::Catalog,
) -> Result<BTreeMap<String, String>, Diagnostics> {
    generate_dir_allowed(dir, catalog, &xsd::Allowed::default())
}

/// [`generate_dir_with`], the documents also allowed to read under `allowed`'s folders.
pub fn generate_dir_allowed(
    dir: &Path,
    catalog: &xsd::Catalog,
    allowed: &xsd::Allowed,
) -> Result<BTreeMap<String, String>, Diagnostics> {
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "xsd"))
            .collect(),
        Err(e) => return Err(unreadable(dir, "the schema folder", e)),
    };
    paths.sort();
    let bindings = read_bindings(&dir.join(BINDINGS_FILE))?;
    let mut out = BTreeMap::new();
    let mut problems = Vec::new();
    let none = Externs::new();
    for p in paths {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        match generate_files_allowed(
            std::slice::from_ref(&p),
            catalog,
            allowed,
            bindings.get(name).unwrap_or(&none),
        ) {
            Ok((name, text)) => {
                out.insert(name, text);
            }
            Err(d) => problems.extend(d.0),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(Diagnostics(problems))
    }
}

/// Writes the outputs into `dir`, each only if it changed (so builds do not rerun for
/// nothing), as the runtime writes ([`boardxml::safe_write`]): through an exclusively
/// created temporary file and a rename (so a crash leaves no half file and no planted link
/// is followed), a new file getting the mode the umask gives, a replaced one its old mode.
/// Returns how many files changed.
pub fn write_dir(outputs: &BTreeMap<String, String>, dir: &Path) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let mut changed = 0;
    let inputs = boardxml::safe_write::Inputs::new();
    for (name, text) in outputs {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        boardxml::safe_write::write_file(&path, text.as_bytes(), &inputs)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        changed += 1;
    }
    Ok(changed)
}

/// Compares the outputs with the files in `dir`; the error is a unified diff of every
/// difference (and names files that are missing or extra).
pub fn check_dir(outputs: &BTreeMap<String, String>, dir: &Path) -> Result<(), String> {
    let mut report = String::new();
    for (name, text) in outputs {
        let path = dir.join(name);
        match std::fs::read_to_string(&path) {
            Ok(current) if current == *text => {}
            Ok(current) => {
                let diff = similar::TextDiff::from_lines(&current, text);
                report.push_str(
                    &diff
                        .unified_diff()
                        .context_radius(3)
                        .header(&format!("{}", path.display()), "regenerated")
                        .to_string(),
                );
            }
            Err(_) => report.push_str(&format!("{} is missing\n", path.display())),
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".rs") && !outputs.contains_key(&name) {
                report.push_str(&format!(
                    "{} is not generated from any schema (remove it)\n",
                    e.path().display()
                ));
            }
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}
