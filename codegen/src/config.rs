//! Generation from a `build.rs`, configured as prost-build's `Config` is: bound types,
//! attributes on generated types and fields, the output folder, catalogs and allowed
//! folders, and `cargo:rerun-if-changed` for every schema document read.
//!
//! ```no_run
//! // In build.rs's main; src/lib.rs then has `include!(concat!(env!("OUT_DIR"), "/gpx.rs"));`
//! boardxml_codegen::Config::new()
//!     .type_attribute("wptType", "#[derive(PartialOrd)]")
//!     .compile(&["schemas/gpx.xsd"])
//!     .unwrap();
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostics, Kind, SchemaDiagnostic};
use crate::xsd::{compose, Allowed, Catalog};
use crate::{ir, Externs};

/// What to generate from a `build.rs`, and how (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct Config {
    externs: Externs,
    type_attributes: Vec<(String, String)>,
    field_attributes: Vec<(String, String)>,
    out_dir: Option<PathBuf>,
    catalogs: Vec<PathBuf>,
    allow_paths: Vec<PathBuf>,
    xsd_version: Option<crate::xsd::XsdVersion>,
    rerun_if_changed: bool,
}

/// What [`Config::compile`] did: the file written and every document it read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// The generated file (`OUT_DIR/gpx.rs` for `gpx.xsd`).
    pub output: PathBuf,
    /// Every schema document and catalog read (the schemas named, what they include,
    /// import or redefine, each once), which `cargo:rerun-if-changed` names.
    pub inputs: Vec<PathBuf>,
}

impl Config {
    /// Generation into `OUT_DIR`, with `cargo:rerun-if-changed` lines, no bindings and no
    /// attributes.
    pub fn new() -> Self {
        Config {
            rerun_if_changed: true,
            ..Config::default()
        }
    }

    /// Reads the schema's simple type `schema_type` (its XSD name) into the existing Rust
    /// type `rust_path` instead of generating one (as a `bindings.txt` line does; the type
    /// implements `SimpleValue` and `Element`).
    pub fn extern_type(&mut self, schema_type: &str, rust_path: &str) -> &mut Self {
        self.externs
            .insert(schema_type.to_string(), rust_path.to_string());
        self
    }

    /// Puts `attribute` (`#[derive(serde::Serialize)]`) on the generated type `name`: a
    /// schema type by its XSD name (`wptType`) or a generated type by its Rust name
    /// (`WptType`, also the choice and group types the schema has no name for); `.` is
    /// every generated struct and enum. A name no generated type has is an error.
    pub fn type_attribute(&mut self, name: &str, attribute: &str) -> &mut Self {
        self.type_attributes
            .push((name.to_string(), attribute.to_string()));
        self
    }

    /// Puts `attribute` on one field: `TYPE.FIELD`, the type as in
    /// [`Config::type_attribute`], the field by its Rust name (`wptType.name`,
    /// `WptType.ele`). A type or field the generated code does not have is an error.
    pub fn field_attribute(&mut self, path: &str, attribute: &str) -> &mut Self {
        self.field_attributes
            .push((path.to_string(), attribute.to_string()));
        self
    }

    /// Writes into `dir` instead of `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// An OASIS XML Catalog mapping the locations the schema includes or imports (as
    /// `--catalog FILE`).
    pub fn catalog(&mut self, file: impl Into<PathBuf>) -> &mut Self {
        self.catalogs.push(file.into());
        self
    }

    /// A folder the schema's documents may also read from (as `--allow-path DIR`): by
    /// default only the folders of the schemas given and what a catalog maps.
    pub fn allow_path(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.allow_paths.push(dir.into());
        self
    }

    /// Reads the schema's documents as this version of XSD (as `--xsd-version`); by
    /// default XSD 1.0, or XSD 1.1 for a document whose `xs:schema` asks for it
    /// (`vc:minVersion="1.1"`).
    pub fn xsd_version(&mut self, version: crate::xsd::XsdVersion) -> &mut Self {
        self.xsd_version = Some(version);
        self
    }

    /// Whether to print `cargo:rerun-if-changed` for every document read (on by default;
    /// off outside a build script).
    pub fn emit_rerun_if_changed(&mut self, on: bool) -> &mut Self {
        self.rerun_if_changed = on;
        self
    }

    /// Generates one Rust file from the schema made of `schemas` (named after the first:
    /// `gpx.xsd` -> `gpx.rs`) and writes it safely (a fresh temporary file renamed into
    /// place, only if it changed). Every problem, of the schemas or of this configuration
    /// (an attribute for a type the code does not have), is a located diagnostic.
    pub fn compile(&self, schemas: &[impl AsRef<Path>]) -> Result<Compiled, Diagnostics> {
        let paths: Vec<PathBuf> = schemas.iter().map(|p| p.as_ref().to_owned()).collect();
        let Some(first) = paths.first().cloned() else {
            return Err(problem(
                Path::new("build.rs"),
                "Config::compile",
                "no schema given".into(),
            ));
        };
        let (catalog, catalog_problems) = Catalog::read_partly(&self.catalogs);
        let mut allowed = Allowed::new();
        if let Some(version) = self.xsd_version {
            allowed.xsd_version(version);
        }
        let mut problems = catalog_problems;
        for dir in &self.allow_paths {
            if let Err(e) = allowed.folder(dir) {
                problems.push(problem(dir, "Config::allow_path", e).0.remove(0));
            }
        }
        let roots = paths.iter().map(|p| (p.clone(), None)).collect();
        let set = compose::load_allowed(roots, &catalog, &allowed);
        let inputs = inputs_read(&paths, &set, &catalog);
        // Before any error: a build that failed reruns when a document is mended.
        if self.rerun_if_changed {
            for p in &inputs {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
        if !problems.is_empty() {
            return Err(Diagnostics(problems));
        }
        let schema = crate::xsd::read_documents(&set)?;
        let (name, text) = crate::render_schema(&first, &schema, &self.externs)?;
        let text = self.with_attributes(&first, &schema, &text)?;
        let dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => match std::env::var_os("OUT_DIR") {
                Some(d) => PathBuf::from(d),
                None => {
                    return Err(problem(
                        &first,
                        "Config::compile",
                        "OUT_DIR is not set (outside a build script): give Config::out_dir".into(),
                    ))
                }
            },
        };
        let outputs = BTreeMap::from([(name.clone(), text)]);
        crate::write_dir(&outputs, &dir).map_err(|e| {
            problem(
                &dir.join(&name),
                "the generated file",
                format!("cannot write: {e}"),
            )
        })?;
        Ok(Compiled {
            output: dir.join(name),
            inputs,
        })
    }

    /// The generated source with the configured attributes on their types and fields.
    fn with_attributes(
        &self,
        schema_path: &Path,
        schema: &ir::Schema,
        text: &str,
    ) -> Result<String, Diagnostics> {
        // The header comments are not part of the syntax tree: kept apart.
        let (header, code) = text.split_once("\n\n").unwrap_or(("", text));
        let mut file = syn::parse_file(code).map_err(|e| {
            problem(
                schema_path,
                "the generated code",
                format!("internal error: does not parse: {e}"),
            )
        })?;
        // The file is `include!`d into a module, where inner attributes (the schema's
        // documentation as `//!`) cannot stand: it becomes a plain comment of the header.
        let mut header = header.to_string();
        for a in std::mem::take(&mut file.attrs) {
            if let syn::Meta::NameValue(nv) = &a.meta {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(line),
                    ..
                }) = &nv.value
                {
                    header.push_str(&format!("\n//{}", line.value()));
                }
            }
        }
        let rust_names = crate::render::rust_names(schema);
        let mut problems = Vec::new();
        let mut types: Vec<(String, &mut Vec<syn::Attribute>, Option<&mut syn::Fields>)> =
            Vec::new();
        for item in &mut file.items {
            match item {
                syn::Item::Struct(s) => {
                    types.push((s.ident.to_string(), &mut s.attrs, Some(&mut s.fields)))
                }
                syn::Item::Enum(e) => types.push((e.ident.to_string(), &mut e.attrs, None)),
                _ => {}
            }
        }
        let known: BTreeSet<String> = types.iter().map(|(n, _, _)| n.clone()).collect();
        // A schema type's XSD name, or a generated type's Rust name.
        let resolve = |name: &str| -> Option<String> {
            rust_names
                .get(name)
                .filter(|r| known.contains(*r))
                .cloned()
                .or_else(|| known.contains(name).then(|| name.to_string()))
        };
        let parse = |attribute: &str, construct: &str, problems: &mut Vec<SchemaDiagnostic>| {
            match syn::parse::Parser::parse_str(syn::Attribute::parse_outer, attribute) {
                Ok(a) if !a.is_empty() => Some(a),
                Ok(_) => {
                    problems.push(
                        problem(
                            schema_path,
                            construct,
                            format!("{attribute:?} is not an attribute (write #[...])"),
                        )
                        .0
                        .remove(0),
                    );
                    None
                }
                Err(e) => {
                    problems.push(
                        problem(
                            schema_path,
                            construct,
                            format!("{attribute:?} is not an attribute: {e}"),
                        )
                        .0
                        .remove(0),
                    );
                    None
                }
            }
        };
        for (name, attribute) in &self.type_attributes {
            let construct = format!("type_attribute({name:?})");
            let Some(attrs) = parse(attribute, &construct, &mut problems) else {
                continue;
            };
            if name == "." {
                for (_, a, _) in types.iter_mut() {
                    a.extend(attrs.iter().cloned());
                }
                continue;
            }
            match resolve(name) {
                Some(rust) => {
                    for (_, a, _) in types.iter_mut().filter(|(n, _, _)| *n == rust) {
                        a.extend(attrs.iter().cloned());
                    }
                }
                None => problems.push(unknown_type(schema_path, &construct, name, &known)),
            }
        }
        for (path, attribute) in &self.field_attributes {
            let construct = format!("field_attribute({path:?})");
            let Some(attrs) = parse(attribute, &construct, &mut problems) else {
                continue;
            };
            let Some((ty, field)) = path.rsplit_once('.') else {
                problems.push(
                    problem(
                        schema_path,
                        &construct,
                        format!("{path:?} is not TYPE.FIELD"),
                    )
                    .0
                    .remove(0),
                );
                continue;
            };
            let Some(rust) = resolve(ty) else {
                problems.push(unknown_type(schema_path, &construct, ty, &known));
                continue;
            };
            let mut fields_of = Vec::new();
            let mut found = false;
            for (_, _, fields) in types.iter_mut().filter(|(n, _, _)| *n == rust) {
                for f in fields.iter_mut().flat_map(|f| f.iter_mut()) {
                    let Some(ident) = &f.ident else { continue };
                    let shown = ident.to_string();
                    let bare = shown.trim_start_matches("r#").to_string();
                    if bare == field || shown == field {
                        f.attrs.extend(attrs.iter().cloned());
                        found = true;
                    }
                    fields_of.push(shown);
                }
            }
            if !found {
                let listed = if fields_of.is_empty() {
                    "it has no named fields".to_string()
                } else {
                    format!("its fields: {}", fields_of.join(", "))
                };
                problems.push(
                    problem(
                        schema_path,
                        &construct,
                        format!("the generated type {rust} has no field {field} ({listed})"),
                    )
                    .0
                    .remove(0),
                );
            }
        }
        if !problems.is_empty() {
            return Err(Diagnostics(problems));
        }
        Ok(format!("{header}\n\n{}", prettyplease::unparse(&file)))
    }
}

/// The schemas named, then every document composition read, then the catalogs: each once,
/// in that order.
fn inputs_read(paths: &[PathBuf], set: &compose::DocumentSet, catalog: &Catalog) -> Vec<PathBuf> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let documents = set
        .documents
        .iter()
        .filter(|d| !d.built_in)
        .map(|d| d.path.clone());
    let catalogs = catalog.files().map(Path::to_path_buf);
    for p in paths.iter().cloned().chain(documents).chain(catalogs) {
        let key = std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
        if seen.insert(key) {
            out.push(p);
        }
    }
    out
}

fn unknown_type(
    file: &Path,
    construct: &str,
    name: &str,
    known: &BTreeSet<String>,
) -> SchemaDiagnostic {
    let listed: Vec<&str> = known.iter().map(String::as_str).collect();
    problem(
        file,
        construct,
        format!(
            "no generated type is named {name} (by XSD or Rust name; the generated types: {})",
            listed.join(", ")
        ),
    )
    .0
    .remove(0)
}

fn problem(file: &Path, construct: &str, message: String) -> Diagnostics {
    Diagnostics(vec![SchemaDiagnostic {
        file: file.to_owned(),
        span: ir::Span { line: 1, column: 1 },
        construct: construct.to_string(),
        message,
        hint: None,
        kind: Kind::Io,
    }])
}
