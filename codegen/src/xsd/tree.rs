//! The positioned tree of one schema document: the one place its text is parsed.
//!
//! [`Tree::read`] walks the text once with quick-xml and keeps
//!
//! - every element outside the free content of `xs:documentation` and `xs:appinfo` as a
//!   [`Node`], in document order (a parent before its children), with where its start tag
//!   stands, its attributes (values unescaped) and the namespace bindings in scope;
//! - every event of the text as a byte range (or, should quick-xml ever hand one over that
//!   is not a slice of the text, its own copy), so that the adapter feeds xsd-parser's
//!   deserializer the document without parsing it again (`adapter.rs`);
//! - what makes the text no well-formed XML, and the first element nested deeper than
//!   [`MAX_NESTING`].
//!
//! Everything that reads a schema document reads this tree: composition (`compose.rs`:
//! `targetNamespace` and the include, import and redefine elements), the limits
//! (`limits.rs`), the markup checks (`markup.rs`), the validity pass (`validity/`) and
//! xsd-parser. The tree is built without recursion (the open elements are a heap stack of
//! their own), so a document of any depth is read, and measured, without touching the
//! thread's stack; the passes that recurse run only on documents within the limits.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use quick_xml::events::{
    BytesCData, BytesDecl, BytesEnd, BytesPI, BytesRef, BytesStart, BytesText, Event,
};
use quick_xml::Reader;

use crate::diagnostic::Kind;
use crate::ir::Span;
use boardxml::datatypes::Decimal;

const XS_NS: &str = "http://www.w3.org/2001/XMLSchema";
/// The namespace of `xml:lang`, `xml:space`, `xml:base` and `xml:id` (bound to `xml`).
pub(super) const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace of conditional inclusion's attributes (XSD 1.1 Part 1, 4.2.1).
const VC_NS: &str = "http://www.w3.org/2007/XMLSchema-versioning";

/// The versions of XSD a schema document is read as (`--xsd-version`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    /// XSD 1.0 (Second Edition).
    Xsd10,
    /// XSD 1.1.
    Xsd11,
}

impl std::str::FromStr for Version {
    type Err = String;

    /// `1.0` or `1.1`, as `--xsd-version` takes them.
    fn from_str(s: &str) -> Result<Version, String> {
        match s {
            "1.0" => Ok(Version::Xsd10),
            "1.1" => Ok(Version::Xsd11),
            _ => Err(format!("an XSD version is 1.0 or 1.1, not {s:?}")),
        }
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Version::Xsd10 => "XSD 1.0",
            Version::Xsd11 => "XSD 1.1",
        })
    }
}

impl Version {
    /// The version number `vc:minVersion` and `vc:maxVersion` are compared with (an
    /// `xs:decimal`, compared exactly by the runtime's type).
    fn number(self) -> Decimal {
        let text = match self {
            Version::Xsd10 => "1.0",
            Version::Xsd11 => "1.1",
        };
        Decimal::parse(text).expect("a decimal")
    }
}

/// How deeply the elements of one schema document may nest (the `xs:schema` element is
/// depth 1). The runtime's documents have the same limit. The tree notes the first element
/// deeper ([`Tree::too_deep`]); `limits` refuses such a document before anything that
/// recurses on its depth reads it.
pub const MAX_NESTING: usize = 256;

/// How many schema documents have been parsed in this process (each [`Tree::read`]).
static DOCUMENTS_PARSED: AtomicUsize = AtomicUsize::new(0);

/// How many schema documents [`Tree::read`] has parsed in this process: a test's measure
/// that every document is parsed once however many passes and schemas read it.
#[doc(hidden)]
pub fn documents_parsed() -> usize {
    DOCUMENTS_PARSED.load(Ordering::Relaxed)
}

/// A problem found while reading a document, or by a check on its markup, before any
/// conversion.
#[derive(Debug, Clone)]
pub struct ScanProblem {
    /// Where.
    pub span: Span,
    /// The construct, e.g. `xs:attribute`.
    pub construct: String,
    /// What is wrong.
    pub message: String,
    /// A hint.
    pub hint: Option<String>,
    /// Invalid XSD or a valid construct not supported.
    pub kind: Kind,
}

impl ScanProblem {
    /// The text is not well-formed XML (every such message starts so).
    fn not_well_formed(span: Span, message: String) -> ScanProblem {
        ScanProblem {
            span,
            construct: "the schema document".into(),
            message: format!("not well-formed XML: {message}"),
            hint: None,
            kind: Kind::Invalid,
        }
    }
}

/// The index of a [`Node`] in its tree.
pub type NodeId = usize;

/// One element of a schema document.
#[derive(Debug, Clone)]
pub struct Node {
    /// Its local name.
    pub local: String,
    /// Its name as written (`xs:element`).
    pub name: String,
    /// Whether it is in the XSD namespace.
    pub xs: bool,
    /// Where its start tag begins (its `<`).
    pub span: Span,
    /// How deep it stands (the root element is 1).
    pub depth: usize,
    /// Its unprefixed attributes (the only ones XSD gives meaning to), in order, values
    /// unescaped (as written where they cannot be).
    pub attrs: Vec<(String, String)>,
    /// Its prefixed attributes and namespace declarations (`xmlns` too), in order.
    pub prefixed: Vec<(String, String)>,
    /// What is wrong with its attributes as markup (a duplicate, a value without quotes).
    pub malformed: Vec<String>,
    /// The namespace bindings in scope, innermost last (prefix `""` is the default
    /// namespace); the first is the `xml` prefix's, which no document declares.
    pub scope: Arc<Vec<(String, String)>>,
    /// Its child elements.
    pub children: Vec<NodeId>,
    /// Its parent element.
    pub parent: Option<NodeId>,
    /// Whether its end was read (a document cut short, or broken off by an error, leaves
    /// elements open).
    pub closed: bool,
}

impl Node {
    /// The value of an unprefixed attribute.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The expanded name (namespace, local name) the QName `value` stands for in this
    /// element's scope (an unprefixed name takes the default namespace, as a QName-valued
    /// attribute's does); `None` for no QName or an unbound prefix.
    pub fn resolve_qname(&self, value: &str) -> Option<(Option<String>, String)> {
        // A colon, if any, parts two NCNames (`:a` and `a:` are no QNames).
        let (prefix, local) = value.split_once(':').unwrap_or(("", value));
        let prefixed = value.contains(':');
        if !is_ncname(local) || (prefixed && !is_ncname(prefix)) {
            return None;
        }
        let bound = self.scope.iter().rev().find(|(p, _)| p == prefix);
        match bound {
            Some((_, ns)) if !ns.is_empty() => Some((Some(ns.clone()), local.to_string())),
            Some(_) => Some((None, local.to_string())),
            None if prefix.is_empty() => Some((None, local.to_string())),
            None => None,
        }
    }

    /// Whether it is the XSD element `local`.
    pub fn is(&self, local: &str) -> bool {
        self.xs && self.local == local
    }

    /// The namespace `prefix` is bound to here (`""`: the default namespace).
    pub fn namespace(&self, prefix: &str) -> Option<&str> {
        self.scope
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .map(|(_, ns)| ns.as_str())
    }

    /// The bindings the document declares that are in scope here (the `xml` prefix's, which
    /// is no declaration, left out), outermost first.
    pub fn declared_scope(&self) -> &[(String, String)] {
        self.scope.get(1..).unwrap_or_default()
    }
}

/// The kinds of events kept for the replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kept {
    Start,
    Empty,
    End,
    Text,
    CData,
    Comment,
    Decl,
    PI,
    DocType,
    GeneralRef,
}

/// Where an event's content stands: a range of the text, or (not seen with quick-xml's
/// slice reader, kept for safety) a copy.
#[derive(Debug, Clone)]
enum Content {
    At(Range<usize>),
    Copy(Box<str>),
}

/// One event of the document, for the replay.
#[derive(Debug, Clone)]
struct Piece {
    kind: Kept,
    content: Content,
    /// The offset just past its markup.
    end: usize,
    /// The start tag of an element in the XSD namespace: the replay collapses the white
    /// space of its QName-valued attributes ([`xsd_attribute_values`]).
    xs: bool,
}

/// One schema document, read.
pub struct Tree {
    text: String,
    line_starts: Vec<usize>,
    /// Every element outside free content, in document order (`nodes[0]` is the root
    /// element, if there is one).
    pub nodes: Vec<Node>,
    /// Every event, in order, ending with the end of the text when it was read whole.
    events: Vec<Piece>,
    /// What makes the text not well-formed XML.
    pub problems: Vec<ScanProblem>,
    /// How many nodes the markup checks judge: text outside the root element stops them
    /// (the rest of such a file is not schema markup), though the tree is read on.
    pub checked: usize,
    /// Whether every event was read and every attribute unescaped (the validity pass judges
    /// only such a document).
    pub clean: bool,
    /// The first element nested deeper than [`MAX_NESTING`]: where, and its name.
    pub too_deep: Option<(Span, String)>,
    /// The version of XSD the document is read as: the one the user chose
    /// (`--xsd-version`), else XSD 1.0, or XSD 1.1 when its `xs:schema` element asks for
    /// it (`vc:minVersion="1.1"`: a schema that says it is XSD 1.1 is read as one, its 1.1
    /// constructs judged, supported or not).
    version: Version,
    /// Whether the user chose the version: the root's `vc:minVersion` then only selects.
    version_chosen: bool,
    /// Where the root element stands if conditional inclusion left it out for this version
    /// (the document is then an empty schema).
    pub root_left_out: Option<Span>,
    /// Whether character data in element-only XSD content was reported (once a document).
    text_reported: bool,
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tree")
            .field("bytes", &self.text.len())
            .field("nodes", &self.nodes.len())
            .field("problems", &self.problems)
            .finish_non_exhaustive()
    }
}

impl Tree {
    /// Parses `text` (a whole schema document).
    pub fn read(text: String) -> Arc<Tree> {
        Tree::read_as(text, None)
    }

    /// [`Tree::read`] as the `chosen` version of XSD; `None` reads it as XSD 1.0 unless the
    /// document asks for XSD 1.1.
    pub fn read_as(text: String, chosen: Option<Version>) -> Arc<Tree> {
        DOCUMENTS_PARSED.fetch_add(1, Ordering::Relaxed);
        let mut tree = Tree {
            line_starts: std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
            text: String::new(),
            nodes: Vec::new(),
            events: Vec::new(),
            problems: Vec::new(),
            checked: usize::MAX,
            clean: true,
            too_deep: None,
            version: chosen.unwrap_or(Version::Xsd10),
            version_chosen: chosen.is_some(),
            root_left_out: None,
            text_reported: false,
        };
        tree.build(&text);
        if tree.checked == usize::MAX {
            tree.checked = tree.nodes.len();
        }
        tree.text = text;
        Arc::new(tree)
    }

    fn build(&mut self, text: &str) {
        let mut reader = Reader::from_str(text);
        // The open elements: a node, or `None` for one inside free content.
        let mut open: Vec<Option<NodeId>> = Vec::new();
        // Inside xs:documentation or xs:appinfo (the depth of the outermost such element).
        let mut free_from: Option<usize> = None;
        // Inside an element conditional inclusion leaves out (the depth of the outermost).
        let mut excluded_from: Option<usize> = None;
        // Every element open, by name and where its start tag is: one still open at the end
        // of the text is a document cut short.
        let mut open_names: Vec<(String, usize)> = Vec::new();
        let mut had_root = false;
        let root_scope = Arc::new(vec![("xml".to_string(), XML_NS.to_string())]);
        loop {
            let before = reader.buffer_position() as usize;
            let event = match reader.read_event() {
                Ok(event) => event,
                Err(error) => {
                    let at = self.span_in(text, reader.error_position() as usize);
                    self.not_well_formed(at, error.to_string());
                    self.clean = false;
                    return;
                }
            };
            // An element conditional inclusion leaves out is not in the document at all:
            // neither its node nor its events (XSD 1.1 Part 1, 4.2.1).
            if excluded_from.is_none() {
                self.keep(text, &event, reader.buffer_position() as usize);
            }
            // Character data directly inside an XSD element outside free content: the
            // schema for schemas gives them element-only content (only xs:documentation
            // and xs:appinfo take text).
            let character_data = match &event {
                Event::Text(t) => t.iter().any(|b| !b" \t\r\n".contains(b)),
                Event::CData(t) => t.iter().any(|b| !b" \t\r\n".contains(b)),
                Event::GeneralRef(_) => true,
                _ => false,
            };
            if character_data && free_from.is_none() && excluded_from.is_none() {
                if let Some(Some(id)) = open.last() {
                    if self.nodes[*id].xs && !self.text_reported {
                        // Once a document: the first is enough to say what is wrong.
                        self.text_reported = true;
                        let at = self.span_in(text, before);
                        self.problems.push(ScanProblem {
                            span: at,
                            construct: format!("<{}>", self.nodes[*id].name),
                            message: format!(
                                "character data in {}, whose content is elements only (XSD takes text only in xs:documentation and xs:appinfo)",
                                self.nodes[*id].name
                            ),
                            hint: Some("remove the text, or move it into xs:annotation/xs:documentation".into()),
                            kind: Kind::Invalid,
                        });
                    }
                }
            }
            let (start, empty) = match &event {
                Event::Start(start) => (start, false),
                Event::Empty(start) => (start, true),
                Event::End(_) => {
                    open_names.pop();
                    if let Some(Some(id)) = open.pop() {
                        self.nodes[id].closed = true;
                    }
                    if free_from.is_some_and(|d| open.len() < d) {
                        free_from = None;
                    }
                    if excluded_from.is_some_and(|d| open.len() < d) {
                        excluded_from = None;
                        if open.is_empty() {
                            // The root's own end, of a schema left empty.
                            self.keep(text, &event, reader.buffer_position() as usize);
                        }
                    }
                    continue;
                }
                Event::Eof => {
                    if let Some((name, at)) = open_names.last() {
                        let at = self.span_in(text, *at);
                        let end = self.span_in(text, text.len());
                        self.not_well_formed(
                            end,
                            format!(
                                "the document ends inside <{name}> (opened at {}:{}), with {} element(s) still open",
                                at.line,
                                at.column,
                                open_names.len()
                            ),
                        );
                    } else if !had_root {
                        let end = self.span_in(text, text.len());
                        self.not_well_formed(end, "no root element (an empty document?)".into());
                    }
                    return;
                }
                // Text outside the root element: the file is not XML (a text file an include
                // named, say). Said without repeating it: its bytes are not the schema's to
                // show.
                Event::Text(t)
                    if open.is_empty()
                        && self.checked == usize::MAX
                        && !t.iter().all(|b| b.is_ascii_whitespace()) =>
                {
                    let at = self.span_in(text, before);
                    self.not_well_formed(
                        at,
                        format!(
                            "text outside the root element (the file is {} bytes; not an XML schema document?)",
                            text.len()
                        ),
                    );
                    // The rest of such a file is not judged as markup.
                    self.checked = self.nodes.len();
                    continue;
                }
                _ => continue,
            };
            had_root = true;
            // Offset of `<`: text before an element is an event of its own.
            let at = before + text[before..].find('<').unwrap_or(0);
            let name = String::from_utf8_lossy(start.name().as_ref()).into_owned();
            let depth = open.len() + 1;
            if depth > MAX_NESTING && self.too_deep.is_none() {
                self.too_deep = Some((self.span_in(text, at), name.clone()));
            }
            if !empty {
                open_names.push((name.clone(), at));
            }
            if free_from.is_some() || excluded_from.is_some() {
                if !empty {
                    open.push(None);
                }
                continue;
            }
            let parent = open.last().copied().flatten();
            let node = self.node(start, name, depth, at, parent, &root_scope, text);
            if depth == 1 && !self.version_chosen && asks_for_xsd_1_1(&node) {
                self.version = Version::Xsd11;
            }
            match self.included(&node) {
                Ok(true) => {}
                Ok(false) if depth > 1 => {
                    // Its start tag was kept before it was read: taken back.
                    self.events.pop();
                    if !empty {
                        open.push(None);
                        excluded_from = Some(open.len());
                    }
                    continue;
                }
                // The root element left out: an empty schema document (its attributes
                // stay, as the root of a document must), nothing inside it.
                Ok(false) => {
                    if !empty {
                        excluded_from = Some(1);
                    }
                    self.root_left_out = Some(node.span);
                }
                Err(message) => self.problems.push(ScanProblem {
                    span: node.span,
                    construct: format!("<{}>", node.name),
                    message,
                    hint: None,
                    kind: Kind::Invalid,
                }),
            }
            if node.xs && free_from.is_none() {
                if let Some(piece) = self.events.last_mut() {
                    piece.xs = true;
                }
            }
            let id = self.nodes.len();
            let free = node.xs && (node.local == "documentation" || node.local == "appinfo");
            self.nodes.push(Node {
                closed: empty,
                ..node
            });
            if let Some(p) = parent {
                self.nodes[p].children.push(id);
            }
            if !empty {
                open.push(Some(id));
                if free {
                    free_from = Some(open.len());
                }
            }
        }
    }

    /// Records that the text is not well-formed, unless text outside the root element
    /// already said so (the rest of such a file is not judged).
    fn not_well_formed(&mut self, at: Span, message: String) {
        if self.checked == usize::MAX {
            self.problems
                .push(ScanProblem::not_well_formed(at, message));
        }
    }

    /// The node of a start tag.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        start: &BytesStart<'_>,
        name: String,
        depth: usize,
        at: usize,
        parent: Option<NodeId>,
        root_scope: &Arc<Vec<(String, String)>>,
        text: &str,
    ) -> Node {
        let mut attrs = Vec::new();
        let mut prefixed = Vec::new();
        let mut malformed = Vec::new();
        let mut declared = Vec::new();
        for a in start.attributes() {
            let a = match a {
                Ok(a) => a,
                Err(error) => {
                    malformed.push(error.to_string());
                    self.clean = false;
                    continue;
                }
            };
            let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
            let value = match a.decode_and_unescape_value(start.decoder()) {
                Ok(v) => v.into_owned(),
                Err(_) => {
                    self.clean = false;
                    String::from_utf8_lossy(&a.value).into_owned()
                }
            };
            if key == "xmlns" {
                declared.push((String::new(), value.clone()));
            } else if let Some(p) = key.strip_prefix("xmlns:") {
                declared.push((p.to_string(), value.clone()));
            }
            if key.contains(':') || key == "xmlns" {
                prefixed.push((key, value));
            } else {
                attrs.push((key, value));
            }
        }
        let outer = parent.map_or_else(|| root_scope.clone(), |p| self.nodes[p].scope.clone());
        let scope = if declared.is_empty() {
            outer
        } else {
            let mut s = (*outer).clone();
            s.extend(declared);
            Arc::new(s)
        };
        let (prefix, local) = name.split_once(':').unwrap_or(("", &name));
        let xs = scope
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .is_some_and(|(_, ns)| ns == XS_NS);
        Node {
            local: local.to_string(),
            xs,
            span: self.span_in(text, at),
            depth,
            attrs,
            prefixed,
            malformed,
            scope,
            children: Vec::new(),
            parent,
            name,
            closed: false,
        }
    }

    /// Whether conditional inclusion (XSD 1.1 Part 1, 4.2.1) keeps `node` for the version
    /// the document is read as: each `vc:` attribute present must hold. An attribute whose
    /// value is not of its type is an error (the element is kept then).
    fn included(&self, node: &Node) -> Result<bool, String> {
        let mut keep = true;
        for (key, value) in &node.prefixed {
            let Some((prefix, local)) = key.split_once(':') else {
                continue;
            };
            if prefix == "xmlns" || node.namespace(prefix) != Some(VC_NS) {
                continue;
            }
            let holds = match local {
                // Kept when the processor's version is at least minVersion, and below
                // maxVersion.
                "minVersion" | "maxVersion" => {
                    let Ok(version) = Decimal::parse(value) else {
                        // XSD 1.0 processors pass over a bad version number (the W3C suite's
                        // vc902, bug 13906); XSD 1.1 makes it an error.
                        if self.version < Version::Xsd11 {
                            continue;
                        }
                        return Err(format!("vc:{local}=\"{value}\" is not a decimal"));
                    };
                    let at_least = self.version.number() >= version;
                    if local == "minVersion" {
                        at_least
                    } else {
                        !at_least
                    }
                }
                // Kept when every named type (facet) is one this processor knows as XSD's
                // own (Available), or when at least one is not (Unavailable).
                "typeAvailable" | "typeUnavailable" | "facetAvailable" | "facetUnavailable" => {
                    let mut all = true;
                    for qname in value.split_whitespace() {
                        let (p, l) = qname.split_once(':').unwrap_or(("", qname));
                        let ns = node.namespace(p).ok_or_else(|| {
                            format!("vc:{local}: the prefix \"{p}\" of {qname} is not bound")
                        })?;
                        all &= ns == XS_NS
                            && if local.starts_with("type") {
                                matches!(l, "anyType" | "anySimpleType")
                                    || crate::ir::Builtin::from_xsd_name(l).is_some()
                                        && (self.version == Version::Xsd11
                                            || !super::vocabulary::XSD_1_1_BUILTINS.contains(&l))
                            } else {
                                // The facets of the version the document is read as
                                // (1.1's assertion, a test rather than a row of the
                                // runtime's table, too).
                                boardxml::facets::Facet::from_name(l).is_some_and(|f| {
                                    self.version == Version::Xsd11 || !f.def().xsd_1_1
                                }) || (l == "assertion" && self.version == Version::Xsd11)
                            };
                    }
                    if local.ends_with("Unavailable") {
                        !all
                    } else {
                        all
                    }
                }
                _ => true,
            };
            keep &= holds;
        }
        Ok(keep)
    }

    /// Keeps `event` for the replay.
    fn keep(&mut self, text: &str, event: &Event<'_>, end: usize) {
        let (kind, bytes): (Kept, &[u8]) = match event {
            Event::Start(e) => (Kept::Start, e),
            Event::Empty(e) => (Kept::Empty, e),
            Event::End(e) => (Kept::End, e),
            Event::Text(e) => (Kept::Text, e),
            Event::CData(e) => (Kept::CData, e),
            Event::Comment(e) => (Kept::Comment, e),
            Event::Decl(e) => (Kept::Decl, e),
            Event::PI(e) => (Kept::PI, e),
            Event::DocType(e) => (Kept::DocType, e),
            Event::GeneralRef(e) => (Kept::GeneralRef, e),
            Event::Eof => return,
        };
        // The event borrows its bytes from the text: where they stand in it.
        let start = (bytes.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
        let content = match text.as_bytes().get(start..start.wrapping_add(bytes.len())) {
            Some(slice) if slice.as_ptr() == bytes.as_ptr() && text.is_char_boundary(start) => {
                Content::At(start..start + bytes.len())
            }
            _ => Content::Copy(String::from_utf8_lossy(bytes).into()),
        };
        self.events.push(Piece {
            kind,
            content,
            end,
            xs: false,
        });
    }

    /// The events of the document, as quick-xml read them, for xsd-parser, each with the
    /// offset just past it in the text xsd-parser is given to see: the text with its
    /// attribute values normalised ([`normalized_attribute_values`]), ending with the end
    /// of the text. Only for a document read whole (no problem in [`Tree::problems`]).
    pub(super) fn replay(&self) -> Replay<'_> {
        Replay {
            tree: self,
            next: 0,
            shorter: 0,
        }
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line and column of a byte offset of `text` (columns count characters), while
    /// the text is being read (before it is moved into the tree).
    fn span_in(&self, text: &str, offset: usize) -> Span {
        let offset = offset.min(text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let column = text.get(start..offset).map_or(0, |s| s.chars().count()) + 1;
        Span {
            line: line as u32 + 1,
            column: column as u32,
        }
    }

    /// The root element, if it is `xs:schema`.
    pub fn schema(&self) -> Option<&Node> {
        self.nodes.first().filter(|n| n.is("schema"))
    }

    /// Whether the document is read as XSD 1.1 (chosen so, or its `xs:schema` says
    /// `vc:minVersion="1.1"`): XSD 1.1's own constructs are then valid, supported or not; in
    /// XSD 1.0 they are errors.
    pub fn xsd_1_1(&self) -> bool {
        self.version == Version::Xsd11
    }

    /// The version of XSD the document is read as.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Whether the text was read without a problem of its own: well-formed XML, its
    /// conditional inclusion understood, no character data in element-only XSD content.
    pub fn well_formed(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The events of a [`Tree`] again ([`Tree::replay`]).
pub(super) struct Replay<'t> {
    tree: &'t Tree,
    next: usize,
    /// How much shorter normalising made the text so far (a CR LF is one space).
    shorter: usize,
}

impl<'t> Iterator for Replay<'t> {
    type Item = (Event<'t>, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let tree = self.tree;
        let Some(piece) = tree.events.get(self.next) else {
            if self.next > tree.events.len() {
                return None;
            }
            self.next += 1;
            return Some((Event::Eof, tree.text.len() - self.shorter));
        };
        self.next += 1;
        let content: &'t str = match &piece.content {
            Content::At(r) => &tree.text[r.clone()],
            Content::Copy(s) => s,
        };
        let event = match piece.kind {
            Kept::Start | Kept::Empty => {
                // XML 1.0, 3.3.3: an attribute value's literal white space is a space by the
                // time an application sees it; quick-xml leaves that to us.
                let content = normalized_attribute_values(content);
                let content = if piece.xs {
                    match xsd_attribute_values(&content) {
                        std::borrow::Cow::Owned(c) => std::borrow::Cow::Owned(c),
                        std::borrow::Cow::Borrowed(_) => content,
                    }
                } else {
                    content
                };
                self.shorter += piece_len(piece) - content.len();
                let name_len = content
                    .bytes()
                    .position(|b| b.is_ascii_whitespace())
                    .unwrap_or(content.len());
                let start = BytesStart::from_content(content, name_len);
                if piece.kind == Kept::Start {
                    Event::Start(start)
                } else {
                    Event::Empty(start)
                }
            }
            Kept::End => Event::End(BytesEnd::new(content)),
            Kept::Text => Event::Text(BytesText::from_escaped(content)),
            Kept::CData => Event::CData(BytesCData::new(content)),
            Kept::Comment => Event::Comment(BytesText::from_escaped(content)),
            Kept::Decl => Event::Decl(BytesDecl::from_start(BytesStart::from_content(content, 3))),
            Kept::PI => Event::PI(BytesPI::new(content)),
            Kept::DocType => Event::DocType(BytesText::from_escaped(content)),
            Kept::GeneralRef => Event::GeneralRef(BytesRef::new(content)),
        };
        Some((event, piece.end - self.shorter))
    }
}

/// The length of a piece's content.
fn piece_len(piece: &Piece) -> usize {
    match &piece.content {
        Content::At(r) => r.len(),
        Content::Copy(s) => s.len(),
    }
}

/// A start tag's content (name and attributes, between `<` and `>`) with every literal
/// white space character inside an attribute value (tab, line feed, carriage return; a
/// CR LF pair is one line end) replaced by a space, as XML 1.0 (5th edition) 2.11 and
/// 3.3.3 normalize attribute values before any application sees them: `pattern
/// value='(Foo)<TAB>(Bar)'` is the pattern `(Foo) (Bar)`, and a `fixed=` value broken over
/// two lines holds a space where the line broke. quick-xml unescapes values but does not
/// normalize them. Character references (`&#9;`) are left as written, so after unescaping
/// they still stand for the character itself, as 3.3.3 says.
pub(super) fn normalized_attribute_values(tag: &str) -> std::borrow::Cow<'_, str> {
    let b = tag.as_bytes();
    if !b.iter().any(|c| matches!(c, b'\t' | b'\n' | b'\r')) {
        return std::borrow::Cow::Borrowed(tag);
    }
    let mut out = Vec::with_capacity(b.len());
    let mut changed = false;
    let mut quote = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        i += 1;
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) if matches!(c, b'\t' | b'\n' | b'\r') => {
                // CR LF is one line end (2.11): one space.
                if c == b'\r' && b.get(i) == Some(&b'\n') {
                    i += 1;
                }
                out.push(b' ');
                changed = true;
                continue;
            }
            Some(_) => {}
            None if c == b'"' || c == b'\'' => quote = Some(c),
            None => {}
        }
        out.push(c);
    }
    if !changed {
        return std::borrow::Cow::Borrowed(tag);
    }
    // Only ASCII bytes were replaced, by ASCII: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| tag.to_string()))
}

/// The attributes of XSD elements whose values are QNames or lists of QNames.
const QNAME_ATTRIBUTES: [&str; 7] = [
    "type",
    "ref",
    "base",
    "itemType",
    "memberTypes",
    "refer",
    "substitutionGroup",
];

/// A start tag's content (after [`normalized_attribute_values`]) with the values of its
/// QName-valued attributes collapsed (leading and trailing spaces dropped, runs of spaces
/// made one): their types' whiteSpace is collapse (the schema for schemas), so
/// `base="  xs:string "` names xs:string, which xsd-parser would resolve with the spaces
/// in the prefix. And a minOccurs or maxOccurs beyond 2^32-1 (a nonNegativeInteger has no
/// bound; xsd-parser reads a machine integer and refuses more) made 2^32-1: no document
/// the runtime reads (at most 64 MiB, `boardxml::bounded`) holds as many children, so the
/// two counts accept the same documents. The validity pass judges the values as written.
/// Borrowed when nothing changes.
pub(super) fn xsd_attribute_values(tag: &str) -> std::borrow::Cow<'_, str> {
    let b = tag.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        // An attribute: its name, `=`, a quoted value.
        let Some(eq) = tag[i..].find('=').map(|k| i + k) else {
            break;
        };
        let name = tag[i..eq]
            .trim()
            .rsplit(|c: char| c.is_ascii_whitespace())
            .next()
            .unwrap_or("");
        let Some(open) = tag[eq + 1..].find(['"', '\'']).map(|k| eq + 1 + k) else {
            break;
        };
        let quote = b[open] as char;
        let Some(close) = tag[open + 1..].find(quote).map(|k| open + 1 + k) else {
            break;
        };
        let value = &tag[open + 1..close];
        let replaced = if QNAME_ATTRIBUTES.contains(&name) {
            let collapsed = value
                .split(' ')
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            (collapsed != value).then_some(collapsed)
        } else if matches!(name, "minOccurs" | "maxOccurs") {
            let digits = value.trim().trim_start_matches('+');
            let huge = !digits.is_empty()
                && digits.bytes().all(|d| d.is_ascii_digit())
                && digits.parse::<u32>().is_err();
            huge.then(|| u32::MAX.to_string())
        } else {
            None
        };
        if let Some(v) = replaced {
            out.push_str(&tag[copied..open + 1]);
            out.push_str(&v);
            copied = close;
        }
        i = close + 1;
    }
    if copied == 0 {
        return std::borrow::Cow::Borrowed(tag);
    }
    out.push_str(&tag[copied..]);
    std::borrow::Cow::Owned(out)
}

/// Whether the root `node` says its schema is XSD 1.1: `vc:minVersion` 1.1, exactly.
fn asks_for_xsd_1_1(node: &Node) -> bool {
    node.prefixed.iter().any(|(key, value)| {
        key.split_once(':').is_some_and(|(prefix, local)| {
            local == "minVersion" && node.namespace(prefix) == Some(VC_NS)
        }) && Decimal::parse(value).is_ok_and(|v| v == Version::Xsd11.number())
    })
}

/// Whether `s` is an NCName: an XML 1.0 (Fifth Edition) Name without a colon.
pub(super) fn is_ncname(s: &str) -> bool {
    let start = |c: char| {
        matches!(c,
            'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
            | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
            | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
            | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
            | '\u{10000}'..='\u{EFFFF}')
    };
    let mut chars = s.chars();
    chars.next().is_some_and(start)
        && chars.all(|c| {
            start(c)
                || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn character_data_in_element_only_xsd_content_is_a_problem() {
        let read = |body: &str| {
            Tree::read(format!(
                "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">{body}</xs:schema>"
            ))
        };
        for body in [
            "<xs:notation name=\"n\" public=\"p\">Some Text</xs:notation>",
            "<xs:element name=\"e\">&amp;</xs:element>",
            "<xs:element name=\"e\"><![CDATA[x]]></xs:element>",
        ] {
            let tree = read(body);
            assert!(!tree.well_formed(), "{body}");
            assert_eq!(tree.problems.len(), 1, "{body}: {:?}", tree.problems);
            assert!(tree.problems[0]
                .message
                .starts_with("character data in xs:"));
        }
        // White space, comments, and text where XSD takes it are fine.
        let tree = read("<xs:element name=\"e\">\n  <!-- c --><xs:annotation><xs:documentation>Text &amp; <b>more</b></xs:documentation><xs:appinfo>x</xs:appinfo></xs:annotation>\n</xs:element>");
        assert!(tree.well_formed(), "{:?}", tree.problems);
    }

    #[test]
    fn qname_values_are_collapsed_huge_counts_bounded_and_others_kept() {
        assert_eq!(
            xsd_attribute_values("xs:restriction base=\"   xs:string \" id=' a '"),
            "xs:restriction base=\"xs:string\" id=' a '"
        );
        assert_eq!(
            xsd_attribute_values("xs:union memberTypes='  a   b ' fixed=\"x=' y \""),
            "xs:union memberTypes='a b' fixed=\"x=' y \""
        );
        assert!(matches!(
            xsd_attribute_values("xs:element name=' e ' type='t' maxOccurs='4294967295'"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(
            xsd_attribute_values(
                "xs:element minOccurs='79228162514244337593543950335' maxOccurs=\"4294967296\""
            ),
            "xs:element minOccurs='4294967295' maxOccurs=\"4294967295\""
        );
        // Through the replay: xsd-parser sees the collapsed reference, and check accepts it.
        let r = crate::check::check_str(
            std::path::Path::new("t.xsd"),
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"><xs:simpleType name=\"s\"><xs:restriction base=\"\n  xs:string \"/></xs:simpleType><xs:element name=\"e\" type=\" s\"/></xs:schema>",
        );
        assert_eq!(
            r.verdict,
            crate::check::Verdict::Supported,
            "{:?}",
            r.diagnostics
        );
    }

    #[test]
    fn attribute_values_are_normalized_as_xml_reads_them() {
        // Literal tab, CR, LF and CR LF in values become one space each; a character
        // reference and white space between attributes keep theirs.
        assert_eq!(
            normalized_attribute_values("s a='x\ty' b=\"p\r\nq\rr\ns\"\n c='&#9;'"),
            "s a='x y' b=\"p q r s\"\n c='&#9;'"
        );
        // A quote of the other kind inside a value.
        assert_eq!(
            normalized_attribute_values("s a=\"it's\t\" b='\"\n'"),
            "s a=\"it's \" b='\" '"
        );
        assert!(matches!(
            normalized_attribute_values("s a='b'\n"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn the_replay_gives_the_events_of_the_text() {
        let text = "<?xml version='1.0'?>\n<!-- c -->\n<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema'>\n<xs:annotation><xs:documentation>a &amp; <b>b</b><![CDATA[<c>]]></xs:documentation></xs:annotation>\n<xs:element name='e'\ttype='xs:string'/></xs:schema>";
        let tree = Tree::read(text.to_string());
        assert!(tree.well_formed(), "{:?}", tree.problems);
        let mut reader = Reader::from_str(text);
        let mut replay = tree.replay();
        loop {
            let event = reader.read_event().expect("well-formed");
            let (again, at) = replay.next().expect("as many events");
            assert_eq!(at as u64, reader.buffer_position());
            if event == Event::Eof {
                assert_eq!(again, Event::Eof);
                break;
            }
            match (&event, &again) {
                // The tab between attributes stays; one inside a value would be a space.
                (Event::Empty(a), Event::Empty(b)) => assert_eq!(a.name(), b.name()),
                _ => assert_eq!(event, again),
            }
        }
        assert!(replay.next().is_none());
        // Nodes: schema, annotation, documentation (its content is free), element.
        let locals: Vec<&str> = tree.nodes.iter().map(|n| n.local.as_str()).collect();
        assert_eq!(locals, ["schema", "annotation", "documentation", "element"]);
        assert_eq!(tree.nodes[3].span, Span { line: 5, column: 1 });
        assert_eq!(tree.nodes[3].attr("type"), Some("xs:string"));
        assert!(tree.nodes[3].xs);
    }

    /// The elements of a schema body that conditional inclusion keeps, by `name` (or local
    /// name), and the names of the start tags the replay gives xsd-parser.
    fn kept(body: &str) -> (Vec<String>, Vec<String>) {
        let text = format!("<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:vc='http://www.w3.org/2007/XMLSchema-versioning'>{body}</xs:schema>");
        let tree = Tree::read(text);
        assert!(tree.problems.is_empty(), "{:?}", tree.problems);
        let name = |n: &Node| n.attr("name").unwrap_or(&n.local).to_string();
        let nodes = tree.nodes.iter().skip(1).map(name).collect();
        let mut replayed = Vec::new();
        for (event, _) in tree.replay() {
            if let Event::Start(e) | Event::Empty(e) = event {
                let n = e.try_get_attribute("name").ok().flatten();
                replayed.push(n.map_or_else(
                    || String::from_utf8_lossy(e.local_name().as_ref()).into_owned(),
                    |a| String::from_utf8_lossy(&a.value).into_owned(),
                ));
            }
        }
        (nodes, replayed[1..].to_vec())
    }

    #[test]
    fn conditional_inclusion_leaves_out_what_this_version_does_not_read() {
        // Versions: minVersion is inclusive, maxVersion exclusive; as decimals.
        let (nodes, replayed) = kept(concat!(
            "<xs:element name='min10' vc:minVersion='1.0'/>",
            "<xs:element name='min11' vc:minVersion='1.1'><xs:complexType/></xs:element>",
            "<xs:element name='min1' vc:minVersion='+01.000'/>",
            "<xs:element name='max11' vc:maxVersion='1.1'/>",
            "<xs:element name='max10' vc:maxVersion='1.0'/>",
            "<xs:element name='max2' vc:maxVersion='2'/>",
            "<xs:element name='both' vc:minVersion='1.0' vc:maxVersion='1.05'/>",
            "<xs:element name='neg' vc:maxVersion='-1'/>",
        ));
        let want = ["min10", "min1", "max11", "max2", "both"];
        assert_eq!(nodes, want);
        assert_eq!(replayed, want);
        // Types and facets: available when XSD 1.0 has them.
        let (nodes, replayed) = kept(concat!(
            "<xs:element name='has-int' vc:typeAvailable='xs:int xs:anySimpleType'/>",
            "<xs:element name='has-stamp' vc:typeAvailable='xs:int xs:dateTimeStamp'/>",
            "<xs:element name='no-stamp' vc:typeUnavailable='xs:dateTimeStamp'/>",
            "<xs:element name='no-int' vc:typeUnavailable='xs:int'/>",
            "<xs:element name='has-length' vc:facetAvailable='xs:length'/>",
            "<xs:element name='has-tz' vc:facetAvailable='xs:explicitTimezone'/>",
            "<xs:element name='no-tz' vc:facetUnavailable='xs:explicitTimezone'/>",
            "<xs:element name='has-assertion' vc:facetAvailable='xs:assertion'/>",
        ));
        let want = ["has-int", "no-stamp", "has-length", "no-tz"];
        assert_eq!(nodes, want);
        assert_eq!(replayed, want);
        // XSD 1.0 passes over a bad version number (the W3C suite's vc902).
        let (nodes, _) = kept("<xs:element name='bad' vc:minVersion='10g'/>");
        assert_eq!(nodes, ["bad"]);
        // Another namespace's minVersion is no condition.
        let (nodes, _) = kept("<xs:element name='other' xmlns:o='urn:o' o:minVersion='9'/>");
        assert_eq!(nodes, ["other"]);
    }

    #[test]
    fn a_schema_that_asks_for_xsd_1_1_is_read_as_one() {
        let text = "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:vc='http://www.w3.org/2007/XMLSchema-versioning' vc:minVersion='1.1'>\n<xs:element name='min11' vc:minVersion='1.1'/><xs:element name='max11' vc:maxVersion='1.1'/><xs:element name='max12' vc:maxVersion='1.2'/>\n<xs:element name='has-tz' vc:facetAvailable='xs:explicitTimezone'/><xs:element name='no-tz' vc:facetUnavailable='xs:explicitTimezone'/><xs:element name='has-assertion' vc:facetAvailable='xs:assertion'/></xs:schema>";
        let tree = Tree::read(text.to_string());
        assert!(tree.problems.is_empty(), "{:?}", tree.problems);
        let names: Vec<&str> = tree.nodes.iter().filter_map(|n| n.attr("name")).collect();
        assert_eq!(names, ["min11", "max12", "has-tz", "has-assertion"]);
        // XSD 1.1 makes a bad version number an error, where it stands.
        let bad = text.replace("vc:maxVersion='1.2'", "vc:maxVersion='1.2x'");
        let tree = Tree::read(bad);
        assert_eq!(tree.problems.len(), 1, "{:?}", tree.problems);
        assert_eq!(
            tree.problems[0].message,
            "vc:maxVersion=\"1.2x\" is not a decimal"
        );
        assert_eq!(
            tree.problems[0].span,
            Span {
                line: 2,
                column: 93
            }
        );
    }

    #[test]
    fn a_schema_element_left_out_is_an_empty_schema() {
        let text = "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:vc='http://www.w3.org/2007/XMLSchema-versioning' vc:minVersion='2.0'>\n<xs:element name='e'/><xs:element name='f'>\n<xs:complexType/></xs:element>\n</xs:schema>";
        let tree = Tree::read(text.to_string());
        assert!(tree.problems.is_empty(), "{:?}", tree.problems);
        assert_eq!(tree.nodes.len(), 1);
        assert!(tree.nodes[0].closed);
        let events: Vec<Event<'_>> = tree.replay().map(|(e, _)| e).collect();
        assert!(
            matches!(events[..], [Event::Start(_), Event::End(_), Event::Eof]),
            "{events:?}"
        );
    }

    #[test]
    fn a_document_cut_short_says_where_it_ends() {
        let tree = Tree::read("<a>\n<b>".to_string());
        assert_eq!(tree.problems.len(), 1);
        assert!(
            tree.problems[0]
                .message
                .contains("ends inside <b> (opened at 2:1), with 2 element(s) still open"),
            "{:?}",
            tree.problems
        );
    }
}
