//! `boardxml-codegen validator`: a Cargo package whose binary, `validate`, validates
//! documents against the user's own schemas, strictly and compiled, with the runtime's
//! reader, diagnostics and output formats (`boardxml::validator`).
//!
//! The package is wholly generated, and the same inputs give the same bytes:
//! - `Cargo.toml`, depending on `boardxml` by path (`--runtime`) or by version;
//! - `src/sets/NAME.rs` per schema set: the module `generate_str` renders for its schema
//!   (the same code as `generated/*.rs`), whose document type (`Root`, one variant per
//!   global element, also named `__Document` since a schema type may take `Root`)
//!   implements `boardxml::schema::Document`;
//! - `src/main.rs`, naming each set's `Root` and calling `boardxml::validator::main`;
//! - [`MARKER`], which says the folder is a validator's output: only such a folder is
//!   written into again (any other existing folder is refused, so nothing of the user's is
//!   overwritten), and every file goes through `boardxml::safe_write` (an exclusively
//!   created temporary file, renamed: no planted link is followed).
//!
//! Every schema passes `check` first; a set that does not (invalid, unsupported, unreadable)
//! makes the command fail with `check`'s diagnostics and exit status, and nothing is written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::check::Verdict;
use crate::diagnostic::Diagnostics;

/// The file that marks a folder as a validator's output.
pub const MARKER: &str = ".boardxml-validator";

const MARKER_TEXT: &str =
    "This folder is written by `boardxml-codegen validator`: every file in it is generated,\n\
and the command rewrites them (edits are lost). Delete this file to keep the folder from it.\n";

/// A schema set: a name (`--schema NAME` of the validator) and its schema documents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetSpec {
    /// The name: letters, digits, `_`, `-` and `.`.
    pub name: String,
    /// The schema documents (the first is the one that composes the others).
    pub schemas: Vec<PathBuf>,
}

/// Where the package finds the runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// A local checkout of the `boardxml` crate (a path dependency).
    Path(PathBuf),
    /// The published crate, at the version of this generator (the two are released
    /// together, with one version).
    Published,
}

impl Runtime {
    /// The runtime this generator was built with, when it can still be found: a generator
    /// built from a checkout (`cargo run -p boardxml-codegen`, `cargo install --path
    /// codegen`) depends its packages on that checkout's `boardxml`, which may be newer than,
    /// or not yet on, crates.io; a generator installed from crates.io has no checkout
    /// beside it and depends on the published version of its own number.
    pub fn built_with() -> Runtime {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let is_runtime = std::fs::read_to_string(checkout.join("Cargo.toml"))
            .is_ok_and(|manifest| is_runtime_manifest(&manifest));
        match checkout.canonicalize() {
            Ok(dir) if is_runtime => Runtime::Path(dir),
            _ => Runtime::Published,
        }
    }

    /// How the package's `Cargo.toml` names it, for the user.
    pub fn describe(&self) -> String {
        match self {
            Runtime::Path(p) => format!("the boardxml runtime at {}", p.display()),
            Runtime::Published => format!("boardxml {} from crates.io", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// Whether a manifest is the `boardxml` runtime's of this generator's version: the
/// package name and version lines of its `[package]` table (they are released together).
fn is_runtime_manifest(manifest: &str) -> bool {
    let package = manifest
        .split("\n[")
        .find(|table| table.starts_with("[package]") || table.starts_with("package]"))
        .unwrap_or("");
    let has = |key: &str, value: &str| {
        package.lines().any(|line| {
            line.split_once('=')
                .is_some_and(|(k, v)| k.trim() == key && v.trim().trim_matches('"') == value)
        })
    };
    has("name", "boardxml") && has("version", env!("CARGO_PKG_VERSION"))
}

/// Why no package was generated: the message and the exit status (`check`'s: 1 invalid,
/// 3 unsupported, 2 usage or I/O).
#[derive(Debug)]
pub struct Failure {
    /// What went wrong, every diagnostic included.
    pub message: String,
    /// The exit status.
    pub exit_code: u8,
}

impl Failure {
    fn usage(message: String) -> Failure {
        Failure {
            message,
            exit_code: 2,
        }
    }
}

/// The sets of schema files given on the command line: one set each, named by its file stem.
pub fn sets_of_files(schemas: &[PathBuf]) -> Vec<SetSpec> {
    schemas
        .iter()
        .map(|p| SetSpec {
            name: p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            schemas: vec![p.clone()],
        })
        .collect()
}

/// Reads a sets file: one set a line, `NAME<TAB>SCHEMA.xsd[<TAB>MORE.xsd...]`; empty lines
/// and lines starting with `#` are skipped. Relative schema paths are relative to the
/// sets file's folder.
pub fn read_sets_file(path: &Path) -> Result<Vec<SetSpec>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("error: cannot read {}: {e}", path.display())))?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut sets = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let name = fields.next().unwrap_or_default().to_string();
        let schemas: Vec<PathBuf> = fields
            .filter(|f| !f.is_empty())
            .map(|f| base.join(f))
            .collect();
        if schemas.is_empty() {
            return Err(Failure::usage(format!(
                "error: {}:{}:1: expected NAME<TAB>SCHEMA.xsd[<TAB>MORE.xsd...], found {line:?}",
                path.display(),
                n + 1
            )));
        }
        sets.push(SetSpec { name, schemas });
    }
    Ok(sets)
}

/// The Rust module of a set.
fn module_of(name: &str) -> String {
    format!(
        "s_{}",
        name.chars()
            .map(|c| match c {
                'A'..='Z' => c.to_ascii_lowercase(),
                'a'..='z' | '0'..='9' | '_' => c,
                _ => '_',
            })
            .collect::<String>()
    )
}

fn check_names(sets: &[SetSpec]) -> Result<(), Failure> {
    if sets.is_empty() {
        return Err(Failure::usage("error: no schema set given".into()));
    }
    let mut modules = BTreeMap::new();
    for s in sets {
        let ok = !s.name.is_empty()
            && s.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        if !ok {
            return Err(Failure::usage(format!(
                "error: the set name {:?} is not letters, digits, '_', '-' and '.'",
                s.name
            )));
        }
        if let Some(other) = modules.insert(module_of(&s.name), s.name.clone()) {
            return Err(Failure::usage(format!(
                "error: the set names {other:?} and {:?} are the same module (names differ by more than case and punctuation)",
                s.name
            )));
        }
    }
    Ok(())
}

/// A validator package to write.
#[derive(Debug, Clone)]
pub struct Package {
    /// File paths (relative, `/`-separated) and their text.
    pub files: BTreeMap<String, String>,
    /// What `check` warned of, by set (each schema was read without something, e.g. an
    /// include whose location does not resolve): for the user to see, not a failure.
    pub warnings: Vec<String>,
}

/// The package for `sets`. Every set's schemas pass `check` first.
pub fn package(
    sets: &[SetSpec],
    catalogs: &[PathBuf],
    runtime: &Runtime,
) -> Result<Package, Failure> {
    package_allowed(sets, catalogs, &crate::xsd::Allowed::default(), runtime)
}

/// [`package`], the documents also allowed to read under `allowed`'s folders.
pub fn package_allowed(
    sets: &[SetSpec],
    catalogs: &[PathBuf],
    allowed: &crate::xsd::Allowed,
    runtime: &Runtime,
) -> Result<Package, Failure> {
    check_names(sets)?;
    // Read once: a broken catalog is a usage error before anything is generated.
    let catalog = crate::xsd::Catalog::read(catalogs).map_err(|problems| {
        let shown: Vec<String> = problems.iter().map(|p| format!("error: {p}")).collect();
        Failure::usage(shown.join("\n"))
    })?;
    let mut files = BTreeMap::new();
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let (mut worst, mut invalid) = (Verdict::Supported, false);
    let mut types = 0;
    // Whether a set has assertions, which the runtime's `xpath` feature evaluates.
    let mut xpath = false;
    // A document two sets bring in is read once.
    let cache = crate::xsd::Cache::new();
    for set in sets {
        match module_text(set, &catalog, allowed, &cache) {
            Ok((text, count, asserts, warned)) => {
                types += count;
                xpath |= asserts;
                files.insert(format!("src/sets/{}.rs", module_of(&set.name)), text);
                if !warned.is_empty() {
                    warnings.push(format!("set {}:\n{warned}", set.name));
                }
            }
            Err((verdict, diagnostics)) => {
                worst = worst.max(verdict);
                invalid |= verdict == Verdict::Invalid;
                problems.push(format!("set {}:\n{diagnostics}", set.name));
            }
        }
    }
    if !problems.is_empty() {
        // Invalid wins over the rest, as in `check`.
        let exit_code = if invalid { 1 } else { worst.exit_code() };
        return Err(Failure {
            message: problems.join("\n"),
            exit_code,
        });
    }
    let runtime_dependency = match runtime {
        Runtime::Path(p) => {
            let dir = p
                .canonicalize()
                .map_err(|e| Failure::usage(format!("error: --runtime {}: {e}", p.display())))?;
            if !dir.join("Cargo.toml").is_file() {
                return Err(Failure::usage(format!(
                    "error: --runtime {}: no Cargo.toml there (give the folder of the boardxml crate)",
                    p.display()
                )));
            }
            let path = serde_json::to_string(&dir.to_string_lossy()).unwrap_or_default();
            format!("{{ path = {path} }}")
        }
        Runtime::Published => format!("\"{}\"", env!("CARGO_PKG_VERSION")),
    };
    // XSD 1.1's assertions are XPath: the runtime evaluates them with its `xpath` feature
    // (a hundred crates more to build), asked for only where a schema has them.
    let runtime_dependency = if xpath {
        match runtime_dependency.strip_suffix(" }") {
            Some(table) => format!("{table}, features = [\"xpath\"] }}"),
            None => format!("{{ version = {runtime_dependency}, features = [\"xpath\"] }}"),
        }
    } else {
        runtime_dependency
    };
    files.insert(
        "Cargo.toml".into(),
        format!(
            "# Generated by boardxml-codegen validator: do not edit (run it again instead).\n\
             [package]\n\
             name = \"boardxml-validator\"\n\
             version = \"0.0.0\"\n\
             edition = \"2021\"\n\
             publish = false\n\n\
             [[bin]]\n\
             name = \"validate\"\n\
             path = \"src/main.rs\"\n\n\
             [dependencies]\n\
             # The runtime alone: the strict reader, the diagnostics and the output formats.\n\
             boardxml = {runtime_dependency}\n\n\
             # A package of its own, even inside another workspace's folder.\n\
             [workspace]\n\n\
             # Whole-program optimisation: the generated types and the runtime's reader are\n\
             # compiled together, so its small functions inline into them (measured: 4% to\n\
             # 6% fewer instructions a byte on three of four real schemas, about the same\n\
             # build time on two cores; BENCHMARKS.md).\n\
             [profile.release]\n\
             lto = \"fat\"\n\
             codegen-units = 1\n"
        ),
    );
    files.insert("src/main.rs".into(), main_text(sets, types));
    files.insert(MARKER.into(), MARKER_TEXT.into());
    Ok(Package { files, warnings })
}

/// The module of one set: `check`'s reading and rendering of its schema (read and
/// rendered once), with the number of its types and its warnings.
fn module_text(
    set: &SetSpec,
    catalog: &crate::xsd::Catalog,
    allowed: &crate::xsd::Allowed,
    cache: &crate::xsd::Cache,
) -> Result<(String, usize, bool, Diagnostics), (Verdict, Diagnostics)> {
    // The set's documents form one schema, with what they include and import.
    let (report, generated) =
        crate::check::check_read(&set.schemas, catalog, Vec::new(), allowed, cache);
    match (report.verdict, generated) {
        // A supported schema's diagnostics are its warnings.
        (Verdict::Supported, Some(g)) => Ok((g.code, g.types, g.xpath, report.diagnostics)),
        // Read and rendered without code only with an error, which is a diagnostic.
        (Verdict::Supported, None) => Err((Verdict::Unsupported, report.diagnostics)),
        (verdict, _) => Err((verdict, report.diagnostics)),
    }
}

/// The `recursion_limit` a package of schemas of `types` types in all needs. A type holds
/// the types of its children by value (only recursion is boxed), so a chain of nested
/// types, each the child of the next, is as deep as the schema makes it, and rustc's
/// layout and drop-check queries go one level deeper per type: past its default of 128 a
/// schema of a few hundred nested types does not compile (E0320, "queries overflow the
/// depth limit"). No chain is longer than the number of types; twice that (rustc takes
/// some levels more per type) and the default's margin bound what the queries need.
fn recursion_limit(types: usize) -> usize {
    128 + 2 * types
}

fn main_text(sets: &[SetSpec], types: usize) -> String {
    let mut text = String::from(
        "//! A strict validator generated by boardxml-codegen validator: do not edit (run it\n\
         //! again instead). One module per schema set, each the code boardxml-codegen\n\
         //! generates for the schema; reading, diagnostics and output are boardxml's.\n\n",
    );
    text.push_str(&format!(
        "// Types nest as deep as the schemas make them (rustc's default limit is 128).\n\
         #![recursion_limit = \"{}\"]\n\n",
        recursion_limit(types)
    ));
    for set in sets {
        let module = module_of(&set.name);
        text.push_str(&format!(
            "// The schema types are read, never used otherwise: a binary would warn of every\n\
             // field and constructor.\n\
             #[allow(dead_code)]\n\
             #[rustfmt::skip]\n\
             #[path = \"sets/{module}.rs\"]\n\
             mod {module};\n"
        ));
    }
    text.push_str("\nfn main() -> std::process::ExitCode {\n    boardxml::validator::main(&[\n");
    for set in sets {
        text.push_str(&format!(
            "        boardxml::validator::Set::of::<{}::__Document>({:?}),\n",
            module_of(&set.name),
            set.name
        ));
    }
    text.push_str("    ])\n}\n");
    text
}

/// Writes the package into `out`: a new folder, or one holding a previous validator output
/// ([`MARKER`]), whose generated files are replaced (and set modules no longer generated
/// removed). Anything else at `out` (a file, a link, a folder of other things) is refused.
/// The folder is locked while it is checked and written
/// ([`boardxml::safe_write::lock_folder`]): concurrent runs into one folder take turns, and
/// the folder holds one whole package, the last run's. Returns how many files changed.
pub fn write(
    files: &BTreeMap<String, String>,
    out: &Path,
    inputs: &[PathBuf],
) -> Result<usize, String> {
    let shown = out.display();
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(out).map_err(|e| format!("cannot create {shown}: {e}"))?;
        }
        Err(e) => return Err(format!("cannot read {shown}: {e}")),
        Ok(m) if m.file_type().is_symlink() => {
            return Err(format!("{shown} is a link: give the folder itself"));
        }
        Ok(m) if !m.is_dir() => return Err(format!("{shown} exists and is not a folder")),
        Ok(_) => {}
    }
    // Checked under the lock: another run may have written the folder meanwhile.
    let _lock =
        boardxml::safe_write::lock_folder(out).map_err(|e| format!("cannot lock {shown}: {e}"))?;
    let marker = out.join(MARKER);
    let ours = std::fs::symlink_metadata(&marker).is_ok_and(|m| m.is_file())
        && std::fs::read_to_string(&marker).is_ok_and(|t| t == MARKER_TEXT);
    let empty = std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_none());
    if !ours && !empty {
        return Err(format!(
            "{shown} is not empty and not a previous validator output (no {MARKER}): refusing to write into it"
        ));
    }
    let mut inputs_set = boardxml::safe_write::Inputs::new();
    for p in inputs {
        inputs_set.add(p);
    }
    let folders: BTreeSet<&str> = files
        .keys()
        .filter_map(|k| k.rsplit_once('/').map(|(d, _)| d))
        .collect();
    for folder in folders {
        let mut path = out.to_owned();
        for part in folder.split('/') {
            path.push(part);
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => return Err(format!("{} is not a folder", path.display())),
                Err(_) => std::fs::create_dir(&path)
                    .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
            }
        }
    }
    let mut changed = 0;
    // The marker first: a run stopped half-way leaves a folder the next run may rewrite.
    let order = files
        .iter()
        .filter(|(k, _)| k.as_str() == MARKER)
        .chain(files.iter().filter(|(k, _)| k.as_str() != MARKER));
    for (name, text) in order {
        let path = out.join(name);
        let same = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file())
            && std::fs::read(&path).is_ok_and(|b| b == text.as_bytes());
        if same {
            continue;
        }
        boardxml::safe_write::write_file(&path, text.as_bytes(), &inputs_set)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        changed += 1;
    }
    // Set modules of an earlier run that this one does not generate.
    if let Ok(entries) = std::fs::read_dir(out.join("src/sets")) {
        for e in entries.flatten() {
            let name = format!("src/sets/{}", e.file_name().to_string_lossy());
            if name.ends_with(".rs") && !files.contains_key(&name) {
                std::fs::remove_file(e.path())
                    .map_err(|err| format!("cannot remove {}: {err}", e.path().display()))?;
                changed += 1;
            }
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_are_identifiers() {
        assert_eq!(module_of("My-Schema.v2"), "s_my_schema_v2");
        assert_eq!(module_of("1"), "s_1");
        assert!(check_names(&[
            SetSpec {
                name: "a-b".into(),
                schemas: vec![]
            },
            SetSpec {
                name: "A_b".into(),
                schemas: vec![]
            }
        ])
        .is_err());
        assert!(check_names(&[SetSpec {
            name: "a b".into(),
            schemas: vec![]
        }])
        .is_err());
    }
}
