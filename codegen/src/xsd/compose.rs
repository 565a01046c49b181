//! Schema composition (XSD 1.0 Part 1, 4.2): the documents one schema is made of.
//!
//! Starting from the documents given, every top-level `xs:include`, `xs:import` and
//! `xs:redefine` is followed: a `schemaLocation` is resolved against the including
//! document (or mapped by an XML catalog, [`Catalog`]), and each document is read once,
//! keyed by its canonical path, so cycles of includes and imports end. Nothing is fetched
//! from the network: the W3C's schema documents for the XML and XLink namespaces, which
//! real schemas import by their `http://www.w3.org/` locations, are built in
//! ([`WELL_KNOWN`]); any other `http(s)` location no catalog maps is a located error, as is a
//! local file that cannot be read (the converter, [`super::read_documents`], turns it into a
//! warning when the schema does not need the document). An `xs:import` without `schemaLocation` loads nothing:
//! its namespace's components come from another document given, or stay unresolvable
//! (reported where they are referred to). The one exception is the XML namespace
//! (`xml:lang`, `xml:space`, `xml:base`, `xml:id`), which XSD processors know: its
//! attributes come from a document built into the generator, unless the schema has its own.
//!
//! Composition is confined ([`Allowed`]): a document may read only files under the folders of
//! the root documents, files a catalog the user passed maps, and folders added with
//! [`Allowed::folder`] (`--allow-path`). Paths are compared canonical (links resolved), so a
//! link inside an allowed folder to a file outside is refused; a refused location is a
//! located error that names the location and the rule, never the file's contents. Every
//! file is read through [`boardxml::bounded`]: regular files only (a root named by the
//! user may be a stream), at most [`MAX_SCHEMA_BYTES`].
//!
//! The converter gets the documents as (path, text) with what each composition element
//! loaded; this module knows nothing of components. Namespaces are handled only as far as
//! composition needs: each document's `targetNamespace`, the namespace a chameleon include
//! gives a no-namespace document, and the checks of src-include, src-import and
//! src-redefine that compare them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::adapter::Model;
use super::catalog::Catalog;
use super::schema_file::read_bounded;
use super::tree::{Tree, Version};
use crate::diagnostic::{Kind, SchemaDiagnostic};
use crate::ir::Span;

/// How one document brings in another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// `xs:include`: the same target namespace (or none, then the includer's: chameleon).
    Include,
    /// `xs:import`: another namespace.
    Import,
    /// `xs:redefine`: an include whose types and groups the redefining document replaces.
    Redefine,
    /// XSD 1.1's `xs:override`: an include whose top-level components of the names the
    /// overriding document gives are replaced by its own (Part 1, 4.2.5).
    Override,
}

impl How {
    fn element(self) -> &'static str {
        match self {
            How::Include => "xs:include",
            How::Import => "xs:import",
            How::Redefine => "xs:redefine",
            How::Override => "xs:override",
        }
    }
}

/// One top-level composition element of a document.
#[derive(Debug, Clone)]
pub struct Composition {
    /// Which element.
    pub how: How,
    /// Where it stands in its document.
    pub span: Span,
    /// Its `schemaLocation`, as written.
    pub location: Option<String>,
    /// Its `namespace` (imports only).
    pub namespace: Option<String>,
    /// The document it loaded (an index into [`DocumentSet::documents`]); `None` when
    /// nothing was loaded (no location, or an error reported).
    pub document: Option<usize>,
    /// Whether loading failed (the error is reported): components it would have given are
    /// not known, so their absence is no further error.
    pub failed: bool,
    /// Whether the location was refused because it lies outside the allowed folders
    /// ([`Allowed`]): an error even when the schema would not need the document.
    pub refused: bool,
}

/// One schema document.
#[derive(Debug, Clone)]
pub struct Document {
    /// Its path (as given on the command line, or resolved from a location).
    pub path: PathBuf,
    /// Its text, parsed (shared by every document read from the same file).
    pub tree: Arc<Tree>,
    /// xsd-parser's model of it, made once on first use (`adapter.rs`), shared as the tree.
    pub(super) model: Arc<OnceLock<Model>>,
    /// Its own `targetNamespace` (`None`: none, or not read because it is not well-formed).
    pub target_namespace: Option<String>,
    /// The namespace its components are in: its own, or for a chameleon include (a
    /// no-namespace document included into a namespaced one) the includer's.
    pub namespace: Option<String>,
    /// Its composition elements, in document order.
    pub compositions: Vec<Composition>,
    /// Whether it is a document built into the generator ([`WELL_KNOWN`]): its path names
    /// no file, so nothing reads it and no build depends on it.
    pub built_in: bool,
}

/// The documents of one schema: the given ones first, in order, then those they bring in.
#[derive(Debug, Clone, Default)]
pub struct DocumentSet {
    /// Every document, each once.
    pub documents: Vec<Document>,
    /// Problems of composition (unreadable or unmapped locations, namespace mismatches).
    pub diagnostics: Vec<SchemaDiagnostic>,
}

/// The files one run has read and parsed, by canonical path: a document that two schemas
/// of the run bring in (two sets of a validator package, the old and the new schema of a
/// `diff`) is read and parsed once. Locations are still resolved, and confined, for each
/// schema: only reading the file is saved.
#[derive(Debug, Default)]
pub struct Cache {
    /// By canonical path and the version chosen to read it as (a file read as XSD 1.0 and
    /// as XSD 1.1 is two trees: conditional inclusion keeps different elements).
    read: Mutex<HashMap<(PathBuf, Option<Version>), Parsed>>,
}

impl Cache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    fn get(&self, path: &Path, version: Option<Version>) -> Option<Parsed> {
        self.read
            .lock()
            .ok()?
            .get(&(path.to_owned(), version))
            .cloned()
    }

    fn put(&self, path: PathBuf, version: Option<Version>, parsed: &Parsed) {
        if let Ok(mut read) = self.read.lock() {
            read.insert((path, version), parsed.clone());
        }
    }
}

/// A file read and parsed: its tree, and the slot xsd-parser's model of it is kept in once
/// made; every document read from the file shares both.
#[derive(Debug, Clone)]
struct Parsed {
    tree: Arc<Tree>,
    model: Arc<OnceLock<Model>>,
}

impl Parsed {
    fn new(text: String, version: Option<Version>) -> Parsed {
        Parsed {
            tree: Tree::read_as(text, version),
            model: Arc::new(OnceLock::new()),
        }
    }

    /// What `doc` was read from.
    fn of(doc: &Document) -> Parsed {
        Parsed {
            tree: doc.tree.clone(),
            model: doc.model.clone(),
        }
    }
}

/// Where a document was found: a file, and the URL it was named by (relative locations
/// inside a document reached through a catalog resolve against that URL).
#[derive(Debug, Clone)]
struct Base {
    file: PathBuf,
    url: Option<String>,
}

/// A root document: its path, and its text when it is given in memory (else it is read).
pub type Root = (PathBuf, Option<String>);

pub use super::schema_file::MAX_SCHEMA_BYTES;

/// What reading a schema is allowed: where composition may read from, besides the
/// folders of the root documents (always allowed) and the files a catalog maps: folders the
/// user added (`--allow-path DIR`); and the version of XSD its documents are read as
/// (`--xsd-version`). The default adds no folder, so a library user keeps the confinement,
/// and chooses no version: a document is read as XSD 1.0 unless it asks for XSD 1.1
/// (`vc:minVersion="1.1"` on its `xs:schema`).
#[derive(Debug, Clone, Default)]
pub struct Allowed {
    /// Canonical folders.
    folders: Vec<PathBuf>,
    /// The version every document is read as, if chosen.
    version: Option<Version>,
}

impl Allowed {
    /// No folders beyond the roots' own.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a folder (and everything under it); it must exist.
    pub fn folder(&mut self, dir: &Path) -> Result<&mut Self, String> {
        let canonical = std::fs::canonicalize(dir)
            .map_err(|e| format!("--allow-path {}: {e}", dir.display()))?;
        if !canonical.is_dir() {
            return Err(format!("--allow-path {}: not a folder", dir.display()));
        }
        self.folders.push(canonical);
        Ok(self)
    }

    /// Reads every document as `version` of XSD (`--xsd-version`). Conditional inclusion
    /// (`vc:minVersion`, `vc:maxVersion`, XSD 1.1 Part 1, 4.2.1) then selects for that
    /// version, the root's own attributes included: a document whose `xs:schema` asks for
    /// XSD 1.1 is, read as XSD 1.0, an empty schema.
    pub fn xsd_version(&mut self, version: Version) -> &mut Self {
        self.version = Some(version);
        self
    }

    /// Adds the folder a root document is in.
    fn root(&mut self, path: &Path) {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if let Ok(c) = std::fs::canonicalize(dir) {
            self.folders.push(c);
        }
    }

    /// The canonical file if it lies under an allowed folder (or is `mapped`'s target); the
    /// error says whether the file was refused (rather than not found).
    fn permits(&self, file: &Path, mapped: Option<&Path>) -> Result<PathBuf, (String, bool)> {
        let canonical = std::fs::canonicalize(file).map_err(|e| (e.to_string(), false))?;
        let under_mapping = mapped
            .and_then(|m| std::fs::canonicalize(m).ok())
            .is_some_and(|m| canonical.starts_with(&m));
        if under_mapping || self.folders.iter().any(|f| canonical.starts_with(f)) {
            return Ok(canonical);
        }
        let shown: Vec<String> = self
            .folders
            .iter()
            .map(|f| f.display().to_string())
            .collect();
        Err((
            format!(
                "it is outside the allowed folders ({}): a schema reads only files under the folders of the schemas given, files a catalog given maps, and folders added with --allow-path DIR",
                shown.join(", ")
            ),
            true,
        ))
    }
}

/// Loads the documents of one schema from its root documents, confined to their folders
/// and what `catalog` maps.
pub fn load(roots: Vec<Root>, catalog: &Catalog) -> DocumentSet {
    load_allowed(roots, catalog, &Allowed::default())
}

/// [`load`], also allowed to read under `allowed`'s folders.
pub fn load_allowed(roots: Vec<Root>, catalog: &Catalog, allowed: &Allowed) -> DocumentSet {
    load_cached(roots, catalog, allowed, &Cache::new())
}

/// [`load_allowed`], the files already read in this run taken from `cache` (and those
/// read now added to it).
pub fn load_cached(
    roots: Vec<Root>,
    catalog: &Catalog,
    allowed: &Allowed,
    cache: &Cache,
) -> DocumentSet {
    let version = allowed.version;
    let mut allowed = allowed.clone();
    for (path, _) in &roots {
        allowed.root(path);
    }
    let mut set = DocumentSet::default();
    // A document is read once per namespace its components take: a no-namespace document
    // given on its own and also included into a namespaced one as a chameleon is two sets
    // of components (Part 1, 4.2.1), one in no namespace and one in the includer's.
    let mut index: HashMap<(PathBuf, Option<String>), usize> = HashMap::new();
    // The first document read from each file, whose text a second namespace reuses.
    let mut by_path: HashMap<PathBuf, usize> = HashMap::new();
    // Documents still to scan for composition elements, with their bases.
    let mut queue: Vec<(usize, Base)> = Vec::new();
    for (path, text) in roots {
        let key = canonical(&path);
        let parsed = match text {
            Some(t) => Parsed::new(t, version),
            None => match cache
                .get(&key, version)
                .map_or_else(|| read(&path, true, version), Ok)
            {
                Ok(t) => {
                    cache.put(key.clone(), version, &t);
                    t
                }
                Err((message, kind)) => {
                    set.diagnostics.push(SchemaDiagnostic {
                        file: path.clone(),
                        span: Span { line: 1, column: 1 },
                        construct: if kind == Kind::Io {
                            "the schema file"
                        } else {
                            "the schema document"
                        }
                        .into(),
                        message,
                        hint: None,
                        kind,
                    });
                    continue;
                }
            },
        };
        if by_path.contains_key(&key) {
            continue;
        }
        let doc = document(path.clone(), parsed, None);
        by_path.insert(key.clone(), set.documents.len());
        index.insert((key, doc.namespace.clone()), set.documents.len());
        queue.push((
            set.documents.len(),
            Base {
                file: path,
                url: None,
            },
        ));
        set.documents.push(doc);
    }
    let mut next = 0;
    while next < queue.len() {
        let (doc, base) = queue[next].clone();
        next += 1;
        for c in 0..set.documents[doc].compositions.len() {
            let comp = set.documents[doc].compositions[c].clone();
            let Some(location) = comp.location.as_deref() else {
                continue;
            };
            let includer_path = set.documents[doc].path.clone();
            let includer_namespace = set.documents[doc].namespace.clone();
            let construct = format!("{} schemaLocation=\"{location}\"", comp.how.element());
            let fail = |message: String, hint: Option<String>, kind: Kind| SchemaDiagnostic {
                file: includer_path.clone(),
                span: comp.span,
                construct: construct.clone(),
                message,
                hint,
                kind,
            };
            if let Some((known, url)) = well_known(location, &base, catalog) {
                let key = PathBuf::from(known.name);
                let loaded = match by_path.get(&key) {
                    Some(&i) => i,
                    None => {
                        let parsed = Parsed::new(known.text.to_string(), version);
                        let mut builtin = document(key.clone(), parsed, None);
                        builtin.built_in = true;
                        let i = set.documents.len();
                        by_path.insert(key.clone(), i);
                        index.insert((key.clone(), builtin.namespace.clone()), i);
                        set.documents.push(builtin);
                        let base = Base {
                            file: key,
                            url: Some(url),
                        };
                        queue.push((i, base));
                        i
                    }
                };
                set.documents[doc].compositions[c].document = Some(loaded);
                let problem = namespace_problem(&set.documents[doc], &comp, &set.documents[loaded]);
                if let Some(message) = problem {
                    let d = fail(message, None, Kind::Invalid);
                    set.diagnostics.push(d);
                }
                continue;
            }
            let located = locate(location, &base, catalog)
                .map_err(|(message, hint)| (message, hint, false))
                .and_then(|(file, url, mapped)| {
                    let canonical =
                        allowed
                            .permits(&file, mapped.as_deref())
                            .map_err(|(why, refused)| {
                                let hint = refused.then(|| {
                                    "if the schema may read it, add its folder: --allow-path DIR"
                                        .to_string()
                                });
                                let message = if refused {
                                    format!("not read \"{location}\": {why}")
                                } else {
                                    format!("cannot read \"{location}\": {why}")
                                };
                                (message, hint, refused)
                            })?;
                    Ok((file, canonical, url))
                });
            // The file as located (what diagnostics name) and as checked (what is read, so
            // that a link swapped in after the check is not followed elsewhere).
            let (file, checked, url) = match located {
                Ok(found) => found,
                Err((message, hint, refused)) => {
                    let d = fail(message, hint, Kind::Io);
                    set.diagnostics.push(d);
                    set.documents[doc].compositions[c].failed = true;
                    set.documents[doc].compositions[c].refused = refused;
                    continue;
                }
            };
            let key = checked.clone();
            // A chameleon: a no-namespace document included into a namespaced one takes
            // on the includer's namespace.
            let inherited = match comp.how {
                How::Import => None,
                How::Include | How::Redefine | How::Override => includer_namespace.clone(),
            };
            let again = by_path.get(&key).map(|&first| {
                let doc = document(
                    file.clone(),
                    Parsed::of(&set.documents[first]),
                    inherited.clone(),
                );
                (doc.namespace.clone(), doc)
            });
            let loaded = match again {
                Some((namespace, doc)) => match index.get(&(key.clone(), namespace.clone())) {
                    Some(&i) => i,
                    None => {
                        let i = set.documents.len();
                        index.insert((key, namespace), i);
                        set.documents.push(doc);
                        queue.push((i, Base { file, url }));
                        i
                    }
                },
                None => {
                    let read = cache
                        .get(&key, version)
                        .map_or_else(|| read(&checked, false, version), Ok);
                    let parsed = match read {
                        Ok(t) => {
                            cache.put(key.clone(), version, &t);
                            t
                        }
                        Err((message, kind)) => {
                            let reason = message.strip_prefix("cannot read: ").unwrap_or(&message);
                            // The location as written (the diagnostic names the document it
                            // is relative to), and the file a catalog mapped it to.
                            let what = match &url {
                                Some(_) => format!("{location} (mapped to {})", file.display()),
                                None => format!("\"{location}\""),
                            };
                            let d = fail(format!("cannot read {what}: {reason}"), None, kind);
                            set.diagnostics.push(d);
                            set.documents[doc].compositions[c].failed = true;
                            continue;
                        }
                    };
                    let doc = document(file.clone(), parsed, inherited);
                    let i = set.documents.len();
                    by_path.insert(key.clone(), i);
                    index.insert((key, doc.namespace.clone()), i);
                    set.documents.push(doc);
                    queue.push((i, Base { file, url }));
                    i
                }
            };
            set.documents[doc].compositions[c].document = Some(loaded);
            let problem = namespace_problem(&set.documents[doc], &comp, &set.documents[loaded]);
            if let Some(message) = problem {
                let d = fail(message, None, Kind::Invalid);
                set.diagnostics.push(d);
            }
        }
    }
    xml_namespace(&mut set);
    set
}

/// A schema document the W3C publishes for a namespace of its own, built into the
/// generator: real schemas import these by their published `http://www.w3.org/` locations,
/// and nothing is fetched from the network, so without a copy of our own such a schema
/// could not be read without a catalog (a catalog that maps the location still wins).
pub struct WellKnown {
    /// What the document is called where a path would stand: it names no file (nothing
    /// reads it; it is valid, so no diagnostic names it).
    pub name: &'static str,
    /// The locations the W3C publishes it at (`https:` is the same document).
    pub locations: &'static [&'static str],
    /// Its text.
    pub text: &'static str,
}

/// The built-in documents; the XML namespace's comes first (an import of that namespace
/// without `schemaLocation` gets it too).
pub const WELL_KNOWN: &[WellKnown] = &[
    WellKnown {
        name: "(built in) xml.xsd",
        // The undated location follows the namespace's newest document, which is the
        // dated 2009 one: the four attributes and `specialAttrs`.
        locations: &[
            "http://www.w3.org/2001/xml.xsd",
            "http://www.w3.org/2009/01/xml.xsd",
        ],
        text: include_str!("xml-namespace.xsd"),
    },
    WellKnown {
        name: "(built in) xlink.xsd",
        locations: &[
            "http://www.w3.org/XML/2008/06/xlink.xsd",
            "http://www.w3.org/1999/xlink.xsd",
        ],
        text: include_str!("xlink.xsd"),
    },
];

/// The built-in document a `schemaLocation` names, with its URL: an absolute location (or
/// one relative to a document reached by URL) that is a [`WELL_KNOWN`] location, and that
/// no catalog maps.
fn well_known(
    location: &str,
    base: &Base,
    catalog: &Catalog,
) -> Option<(&'static WellKnown, String)> {
    let url = match (scheme(location), &base.url) {
        (Some(_), _) => location.to_string(),
        (None, Some(url)) => join_url(url, location),
        (None, None) => return None,
    };
    if catalog.resolve_within(location).is_some() || catalog.resolve_within(&url).is_some() {
        return None;
    }
    let plain = match url.strip_prefix("https://") {
        Some(rest) => format!("http://{rest}"),
        None => url.clone(),
    };
    let known = WELL_KNOWN
        .iter()
        .find(|k| k.locations.contains(&plain.as_str()))?;
    Some((known, url))
}

/// An import of the XML namespace without `schemaLocation` gets the namespace's attributes
/// from a document built into the generator, as XSD processors know them (the W3C suite's
/// schemas refer to `xml:lang` so), unless a document of the schema is that namespace's.
fn xml_namespace(set: &mut DocumentSet) {
    use super::tree::XML_NS;
    let wanted = |c: &Composition| {
        c.how == How::Import && c.location.is_none() && c.namespace.as_deref() == Some(XML_NS)
    };
    let imports = set
        .documents
        .iter()
        .any(|d| d.compositions.iter().any(wanted));
    let present = set
        .documents
        .iter()
        .any(|d| d.target_namespace.as_deref() == Some(XML_NS));
    if !imports || present {
        return;
    }
    let text = WELL_KNOWN[0].text.to_string();
    let mut builtin = document(WELL_KNOWN[0].name.into(), Parsed::new(text, None), None);
    builtin.built_in = true;
    let i = set.documents.len();
    set.documents.push(builtin);
    for d in &mut set.documents[..i] {
        for c in d.compositions.iter_mut().filter(|c| wanted(c)) {
            c.document = Some(i);
        }
    }
}

/// src-include 2.3, src-redefine 3, src-import 3: the loaded document's namespace must fit.
fn namespace_problem(includer: &Document, comp: &Composition, loaded: &Document) -> Option<String> {
    let theirs = &loaded.target_namespace;
    let shown = |ns: &Option<String>| match ns {
        Some(n) => format!("\"{n}\""),
        None => "no namespace".to_string(),
    };
    match comp.how {
        How::Include | How::Redefine | How::Override => (theirs.is_some()
            && *theirs != includer.namespace)
            .then(|| {
                format!(
                    "the {} document's targetNamespace is {}, but this schema's is {} (include a document of the same namespace or of none)",
                    match comp.how {
                        How::Include => "included",
                        How::Redefine => "redefined",
                        _ => "overridden",
                    },
                    shown(theirs),
                    shown(&includer.namespace)
                )
            }),
        How::Import => (*theirs != comp.namespace).then(|| {
            format!(
                "the imported document's targetNamespace is {}, but the import names {}",
                shown(theirs),
                shown(&comp.namespace)
            )
        }),
    }
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
}

/// A document's text, read with a limit: a regular file, or when the user `named` it, also
/// a stream. Its bytes are decoded as XML reads them (the runtime's decoder): a byte order
/// mark or the XML declaration's `encoding` chooses, UTF-8 without either. Bytes invalid
/// in that encoding, or a declaration the byte order mark contradicts, make the file no
/// well-formed XML; an encoding the decoder does not know is not supported.
fn read(path: &Path, named: bool, version: Option<Version>) -> Result<Parsed, (String, Kind)> {
    let bytes = read_bounded(path, named).map_err(|e| (format!("cannot read: {e}"), Kind::Io))?;
    let text = boardxml::encoding::decode(&bytes)
        .map_err(|d| {
            let kind = if d.code == boardxml::diagnostic::Code::UNSUPPORTED_ENCODING {
                Kind::Unsupported
            } else {
                Kind::Invalid
            };
            (d.message, kind)
        })?
        .text;
    Ok(Parsed::new(text, version))
}

/// Whether a location is an absolute URI with a scheme (`http:`, `urn:`, `file:`), not a
/// relative reference or a Windows drive path.
fn scheme(location: &str) -> Option<&str> {
    let (scheme, _) = location.split_once(':')?;
    let ok = scheme.len() > 1
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    ok.then_some(scheme)
}

/// Resolves a relative reference against a URL (RFC 3986 5.2, for the paths schemas use).
fn join_url(base: &str, reference: &str) -> String {
    let (root_end, path) = match base.find("://") {
        Some(i) => {
            let after = i + 3;
            let slash = base[after..].find('/').map_or(base.len(), |j| after + j);
            (slash, &base[slash..])
        }
        None => (0, base),
    };
    let root = &base[..root_end];
    let mut segments: Vec<&str> = if reference.starts_with('/') {
        Vec::new()
    } else {
        let dir = path.rfind('/').map_or("", |i| &path[..i]);
        dir.split('/').filter(|s| !s.is_empty()).collect()
    };
    for s in reference.split('/') {
        match s {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    format!("{root}/{}", segments.join("/"))
}

/// The file a `schemaLocation` names, the URL it was named by when one was, and what a
/// catalog mapping confines it to.
fn locate(
    location: &str,
    base: &Base,
    catalog: &Catalog,
) -> Result<Located, (String, Option<String>)> {
    // The identifier as written first (catalogs list absolute URLs), then resolved
    // against the including document's URL, if it was reached by one.
    if let Some((file, within)) = catalog.resolve_within(location) {
        return Ok((file, Some(location.to_string()), Some(within)));
    }
    let absolute = match (scheme(location), &base.url) {
        (Some(_), _) => Some(location.to_string()),
        (None, Some(url)) => Some(join_url(url, location)),
        (None, None) => None,
    };
    if let Some(url) = &absolute {
        if let Some((file, within)) = catalog.resolve_within(url) {
            return Ok((file, Some(url.clone()), Some(within)));
        }
        if let Some(path) = url
            .strip_prefix("file://")
            .or_else(|| url.strip_prefix("file:"))
        {
            return Ok((PathBuf::from(path), None, None));
        }
        let hint = Some(
            "pass an OASIS XML catalog that maps it to a local copy: --catalog FILE with <system systemId=\"...\" uri=\"...\"/>"
                .to_string(),
        );
        let message = if catalog.is_empty() {
            format!("{url} is not a local file, and no catalog is given; nothing is fetched from the network")
        } else {
            format!("no catalog entry maps {url}; nothing is fetched from the network")
        };
        return Err((message, hint));
    }
    let dir = base.file.parent().unwrap_or(Path::new(""));
    Ok((dir.join(location), None, None))
}

/// What [`locate`] found: the file, the URL it was named by, and when a catalog mapped it,
/// what the mapping confines it to (the file itself, or a rewrite's folder).
type Located = (PathBuf, Option<String>, Option<PathBuf>);

/// What composition needs from a document: its targetNamespace and top-level
/// include/import/redefine elements (nothing, if its root is not `xs:schema`; what comes
/// before the end of a document that is not well-formed: the markup checks say why).
fn document(path: PathBuf, parsed: Parsed, inherited: Option<String>) -> Document {
    let tree = parsed.tree.clone();
    let mut doc = Document {
        path,
        target_namespace: None,
        namespace: None,
        compositions: Vec::new(),
        built_in: false,
        tree: parsed.tree,
        model: parsed.model,
    };
    if let Some(root) = tree.schema() {
        let attr = |n: &super::tree::Node, name: &str| n.attr(name).map(|v| v.trim().to_string());
        doc.target_namespace = attr(root, "targetNamespace").filter(|t| !t.is_empty());
        for &c in &root.children {
            let n = &tree.nodes[c];
            let how = match n.local.as_str() {
                "include" if n.xs => How::Include,
                "import" if n.xs => How::Import,
                "redefine" if n.xs => How::Redefine,
                // XSD 1.1's (the markup checks refuse it in a document read as 1.0).
                "override" if n.xs && tree.xsd_1_1() => How::Override,
                _ => continue,
            };
            doc.compositions.push(Composition {
                how,
                span: n.span,
                location: attr(n, "schemaLocation"),
                namespace: attr(n, "namespace"),
                document: None,
                failed: false,
                refused: false,
            });
        }
    }
    doc.namespace = doc.target_namespace.clone().or(inherited);
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_join_like_rfc_3986() {
        assert_eq!(
            join_url("http://a.org/x/y.xsd", "z.xsd"),
            "http://a.org/x/z.xsd"
        );
        assert_eq!(
            join_url("http://a.org/x/y.xsd", "../z.xsd"),
            "http://a.org/z.xsd"
        );
        assert_eq!(
            join_url("http://a.org/x/y.xsd", "/q/z.xsd"),
            "http://a.org/q/z.xsd"
        );
        assert_eq!(scheme("http://a"), Some("http"));
        assert_eq!(scheme("urn:x"), Some("urn"));
        assert_eq!(scheme("C:\\x.xsd"), None);
        assert_eq!(scheme("a.xsd"), None);
    }
}
