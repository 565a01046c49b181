//! The strict pull reader that generated code drives.
//!
//! It sits on quick-xml and adds what validation needs: element paths, limits, refusal of
//! DTDs, XML's line-end and attribute-value normalisation, entity resolution limited to the
//! five predefined entities and character references, and a list of diagnostics that keeps
//! growing after a recoverable error so that a document's problems are reported together.
//! A fatal error (malformed XML, a limit) ends reading: every later call sees the end.
//!
//! This module holds the [`Reader`] itself (its state, construction, limits and the
//! diagnostics list); the rest is cut by concern, each part an `impl Reader` of its own:
//! `events` (quick-xml's events, in place or streamed, into nodes), `tag` (start tags and
//! their checks), `text` (character data and attribute values, pure functions), `path`
//! (the element path), `document` (the document around the root), `api` (what generated
//! code calls) and `attributes` (a tag's attributes as a type takes them).

use std::io::BufRead;

use crate::diagnostic::{Code, Diagnostic};
use crate::schema::FacetError;

mod api;
mod attributes;
mod constraint;
mod doctype;
mod document;
mod events;
mod identity;
mod ids;
mod inherited;
mod interleaved;
mod nil;
mod path;
mod tag;
mod text;
mod type_substitution;
mod window;

pub use api::{At, MixedItem, Observer, Shape, Visited};
pub use attributes::Attributes;
pub use constraint::ContentConstraint;
pub use inherited::Inherited;
pub use tag::Tag;
pub use type_substitution::XsiType;

use events::{Events, Run};
use path::Level;
use window::configure;

/// Limits that keep hostile input from costing unbounded time or memory.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Deepest element nesting.
    pub max_depth: usize,
    /// Longest element or attribute name, in bytes.
    pub max_name: usize,
    /// Longest attribute value, in bytes.
    pub max_attribute: usize,
    /// Most attributes on one element (namespace declarations included): a resource guard
    /// far above what documents use (schemas declare thousands on one type; the suite's
    /// attgD003 has 2,000), its cost bounded by the attribute checks' staying linear.
    pub max_attributes: usize,
    /// Longest text content of one element, in bytes.
    pub max_text: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 256,
            max_name: 1024,
            max_attribute: 1 << 20,
            max_attributes: 1 << 14,
            max_text: 64 << 20,
        }
    }
}

/// What the reader hands on from the events: a start tag, an end tag, a run of character
/// data, the end.
enum Node {
    /// Boxed: a node is moved through several layers per event, and a tag is large.
    Start(Box<Tag>),
    /// An end tag at `offset` (for `<x/>`, the offset of `<x`).
    End(usize),
    /// A run of character data; its text is the reader's `text` buffer, valid until the
    /// next node is read.
    Text {
        cdata: bool,
        blank: bool,
        offset: usize,
    },
    Eof,
}

/// Buffers that hold more than this after a large value are let go rather than kept for
/// reuse, so one huge text or tag does not pin its memory for the rest of the document.
const KEEP_CAPACITY: usize = 64 << 10;

/// The reader.
pub struct Reader<'a> {
    xml: Events<'a>,
    /// The text read in place, if it is (events are slices of it).
    source: Option<&'a str>,
    /// Character data of the node last read (see [`Node::Text`]).
    text: String,
    /// One event's character data, before it joins a run.
    piece: String,
    /// The text of the piece in `carry`.
    carry_text: String,
    /// Simple content gathered across nodes (kept to reuse its allocation).
    content: String,
    /// Tags handed back after their element was read, to be filled again.
    /// Boxed, as nodes hold them: a tag taken from the pool or given back is not moved
    /// out of or into a box.
    #[allow(clippy::vec_box)]
    spare_tags: Vec<Box<Tag>>,
    limits: Limits,
    diagnostics: Vec<Diagnostic>,
    max_errors: usize,
    errors: usize,
    /// Diagnostics past this many are counted in `omitted`, not kept: a raised error
    /// limit must not raise memory without bound.
    max_kept: usize,
    /// Errors and warnings reported but not kept.
    omitted: (usize, usize),
    fatal: bool,
    peeked: Option<Node>,
    /// Open elements in `levels[..open]`, the document first; the levels past `open` are
    /// kept to reuse their buffers.
    levels: Vec<Level>,
    open: usize,
    /// Offset of the latest start tag (where an empty element's end is reported).
    last_start: usize,
    /// An empty-element tag `<x/>` was handed out as a start; its end comes next, without
    /// reading (quick-xml's own expansion allocates a copy of the name per element).
    pending_end: bool,
    /// Open elements, including those skipped without being entered.
    depth: usize,
    /// Character data of the other kind that ended the previous run.
    carry: Option<Run>,
    /// Whether repeated children are kept in the values read (off: validate in bounded
    /// memory; the values then hold no repeated children).
    retain: bool,
    /// The root element's start tag, once read.
    root: Option<Tag>,
    /// How many occurrences of its group the group occurrence read last stands for, at
    /// least and at most (see [`crate::complex::read_items`]): set by each group read,
    /// taken by the repetition that counts its occurrences.
    occurrences: (u32, u32),
    /// How many occurrences the repetition about to read a group occurrence can still take
    /// (see [`crate::complex::read_items`]); taken by the group read.
    room: u32,
    /// Format rules that run while reading.
    observer: Option<Box<dyn Observer + 'a>>,
    /// Whether start tags are handed to the observer (see [`Observer::starts`]).
    observe_starts: bool,
    /// What the observer found at the element it was last handed (reused: it is almost
    /// always empty).
    found: Vec<Diagnostic>,
    /// The value constraint (`default=`/`fixed=`) of the element about to be read, for its
    /// simple content (see [`Reader::read_constrained`]).
    value_constraint: Option<crate::complex::ValueConstraint>,
    /// The offset of the start tag whose `xsi:type` a substitution type has taken (see
    /// `type_substitution.rs`): its attributes do not report it.
    substituted: Option<usize>,
    /// The named types of the document's schema an element's `xsi:type` may name, by
    /// expanded name ([`crate::schema::Document::TYPES`], given by
    /// [`Reader::read_document`] and [`Reader::validate_document`]; empty where no document
    /// type is known, and then not judged).
    schema_types: &'static [(&'static str, crate::schema::TypedRoot)],
    /// What `xsi:type` may name on the element about to be read, whose declared type is
    /// simple (see [`Reader::read_declared`]); taken by its attributes.
    xsi_simple: Option<&'static crate::type_substitution::SimpleTable>,
    /// The simple type the current element's `xsi:type` named (other than its declared
    /// type): its content is validated against it before it is held as the declared type.
    xsi_named: Option<(&'static str, crate::type_substitution::Canonical)>,
    /// The start tag (by offset) of the element about to be read whose declaration is
    /// nillable: its `xsi:nil` was judged already, and its type takes it (see
    /// [`Reader::allow_xsi_nil`]).
    nil_allowed_at: Option<usize>,
    /// The start tag (by offset) of the nil element (`xsi:nil="true"`) being read: its
    /// content must be empty, and messages say why.
    nil_at: Option<usize>,
    /// The default namespace in scope at each open element (`None`: no namespace).
    /// Shared: a child inheriting it takes a count, not a copy (a copy per element was an
    /// allocation per element of every document in a namespace).
    default_ns: Vec<Option<std::sync::Arc<str>>>,
    /// IDs and IDREFs read so far (checked across the whole document).
    ids: ids::IdTable,
    /// The identity constraints active and their rows (see [`crate::identity`]).
    identity: crate::identity::Engine,
    /// Prefixes declared by the open elements, innermost last: (prefix, namespace).
    prefixes: Vec<(String, String)>,
    /// For each open element that declared prefixes (rare: nothing is pushed for the
    /// others), its depth and how many of `prefixes` were in scope before it.
    prefix_marks: Vec<(usize, usize)>,
    /// The prefixes the element just closed declared (rare; emptied at every end tag):
    /// its simple content is typed after its end tag, and a QName in it resolves
    /// against them.
    closed_prefixes: Vec<(String, String)>,
    /// XSD 1.1's inheritable attributes of the open elements (see [`Inherited`]).
    inherited: Inherited,
    /// The default namespace in scope at the element just closed (its simple content is
    /// typed after its end tag).
    closed_default: Option<std::sync::Arc<str>>,
    /// Whether an event has been read (an XML declaration must be the first).
    started: bool,
    /// The text of the mixed elements being read over an element particle, innermost
    /// last (see `interleaved`).
    interleaved: Vec<interleaved::Gathering>,
}

impl<'a> Reader<'a> {
    /// A reader over decoded text in memory (the fastest way in: events are read in place).
    pub fn new(text: &'a str) -> Self {
        let mut xml = quick_xml::Reader::from_reader(text.as_bytes());
        configure(xml.config_mut());
        let mut reader = Reader::with_events(Events::Slice(xml));
        reader.source = Some(text);
        if text.starts_with('\u{FEFF}') {
            reader.second_bom();
        }
        reader
    }

    /// A streaming reader over UTF-8 input (see [`crate::encoding::DecodeReader`] for other
    /// encodings).
    pub fn from_reader(input: impl BufRead + 'a) -> Self {
        Self::from_reader_in_steps(input, window::STEP)
    }

    /// [`Reader::from_reader`] taking at most `step` bytes of the input at a time into
    /// its window (for tests: a small step puts the window's ends everywhere, and reading
    /// must not change with them).
    #[doc(hidden)]
    pub fn from_reader_in_steps(mut input: impl BufRead + 'a, step: usize) -> Self {
        // quick-xml drops a UTF-8 BOM at the start; after the decoder took the real one, a
        // second is a character before the root (the decoder hands out whole characters).
        let second_bom = input
            .fill_buf()
            .is_ok_and(|b| b.starts_with("\u{FEFF}".as_bytes()));
        let window = window::Window::new(Box::new(input), step);
        let mut reader = Reader::with_events(Events::Stream(window));
        if second_bom {
            reader.second_bom();
        }
        reader
    }

    /// A U+FEFF at the start of the text: the byte order mark was taken by the decoder,
    /// so this is a second one, a character where only markup may stand.
    fn second_bom(&mut self) {
        self.report(
            Diagnostic::error(
                Code::MALFORMED,
                0,
                "",
                "a second byte order mark (U+FEFF) at the start: no character may stand before the root element or the XML declaration",
            )
            .expected("<")
            .found("U+FEFF"),
        );
    }

    fn with_events(xml: Events<'a>) -> Self {
        Reader {
            xml,
            source: None,
            text: String::new(),
            piece: String::new(),
            carry_text: String::new(),
            content: String::new(),
            spare_tags: Vec::new(),
            diagnostics: Vec::new(),
            max_errors: usize::MAX,
            errors: 0,
            max_kept: usize::MAX,
            omitted: (0, 0),
            fatal: false,
            peeked: None,
            value_constraint: None,
            substituted: None,
            schema_types: &[],
            xsi_simple: None,
            xsi_named: None,
            nil_allowed_at: None,
            nil_at: None,
            levels: vec![Level::document()],
            open: 1,
            last_start: 0,
            pending_end: false,
            depth: 0,
            carry: None,
            retain: true,
            root: None,
            occurrences: (1, 1),
            room: 1,
            default_ns: Vec::new(),
            ids: ids::IdTable::default(),
            identity: crate::identity::Engine::default(),
            prefixes: Vec::new(),
            prefix_marks: Vec::new(),
            closed_prefixes: Vec::new(),
            inherited: Inherited::default(),
            closed_default: None,
            started: false,
            interleaved: Vec::new(),
            observer: None,
            observe_starts: false,
            found: Vec::new(),
            limits: Limits::default(),
        }
    }

    /// Whether repeated children are to be kept (generated code asks before each push).
    pub fn retains(&self) -> bool {
        self.retain
    }

    /// Records how many occurrences of its group the group occurrence just read stands
    /// for, at least and at most (generated code and [`crate::complex`] call it at the end
    /// of each group read).
    #[doc(hidden)]
    #[inline]
    pub fn set_occurrences(&mut self, at_least: u32, at_most: u32) {
        self.occurrences = (at_least, at_most);
    }

    /// Takes what [`Reader::set_occurrences`] recorded, leaving one occurrence.
    #[doc(hidden)]
    #[inline]
    pub fn take_occurrences(&mut self) -> (u32, u32) {
        std::mem::replace(&mut self.occurrences, (1, 1))
    }

    /// Records how many occurrences the repetition about to read a group occurrence can
    /// still take.
    #[doc(hidden)]
    #[inline]
    pub fn set_room(&mut self, room: u32) {
        self.room = room;
    }

    /// Takes what [`Reader::set_room`] recorded, leaving one.
    #[doc(hidden)]
    #[inline]
    pub fn take_room(&mut self) -> u32 {
        std::mem::replace(&mut self.room, 1)
    }

    /// Drop repeated children after checking them, so memory stays bounded by nesting
    /// depth and the largest single value (for validation only: the values read then lack
    /// their repeated children).
    pub fn without_retaining(mut self) -> Self {
        self.retain = false;
        self
    }

    /// The root element's start tag, once read (tells the format even when the document
    /// turns out invalid).
    pub fn root(&self) -> Option<&Tag> {
        self.root.as_ref()
    }

    /// With other limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Stop after this many errors (the rest of the document is not read).
    pub fn with_max_errors(mut self, max: usize) -> Self {
        self.max_errors = max.max(1);
        self
    }

    /// Keep at most this many diagnostics; later ones are only counted ([`Reader::omitted`]).
    pub fn with_max_kept(mut self, max: usize) -> Self {
        self.max_kept = max;
        self
    }

    /// Errors and warnings reported past [`Reader::with_max_kept`]'s limit, not kept.
    pub fn omitted(&self) -> (usize, usize) {
        self.omitted
    }

    /// The diagnostics so far.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Takes the diagnostics.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    /// Whether a fatal error ended reading.
    pub fn is_fatal(&self) -> bool {
        self.fatal
    }

    /// Records a diagnostic (once reading has ended on a fatal error, or the error limit is
    /// reached, later ones would only echo it and are dropped).
    pub fn report(&mut self, diagnostic: Diagnostic) {
        if self.fatal {
            return;
        }
        let fatal = diagnostic.code.is_fatal();
        let error = diagnostic.severity == crate::diagnostic::Severity::Error;
        if error {
            self.errors += 1;
        }
        if self.diagnostics.len() < self.max_kept {
            self.diagnostics.push(diagnostic);
        } else if error {
            self.omitted.0 += 1;
        } else {
            self.omitted.1 += 1;
        }
        if fatal || self.errors >= self.max_errors {
            self.fatal = true;
            self.peeked = Some(Node::Eof);
        }
    }

    /// Keep repeated children, or not (see [`Reader::without_retaining`]); a format can
    /// decide this once its root element is known.
    pub fn set_retaining(&mut self, retain: bool) {
        self.retain = retain;
    }

    fn fatal_error(&mut self, code: Code, offset: usize, message: String) {
        let path = self.path();
        self.report(Diagnostic::error(code, offset, path, message));
    }

    /// A well-formedness error (E0101) with what was expected there and what was found.
    fn malformed(&mut self, offset: usize, message: String, expected: &str, found: String) {
        let path = self.path();
        self.report(
            Diagnostic::error(Code::MALFORMED, offset, path, message)
                .expected(expected.to_string())
                .found(found),
        );
    }

    /// Reports that attribute `name` of `tag` (the element the reader stands in), taken by
    /// a lax attribute wildcard, is not valid for its global declaration (XSD 1.0, 3.10.4
    /// Wildcard allows Attribute, with 3.4.4 Element Locally Valid (Complex Type) 3).
    pub(crate) fn attribute_value_error(&mut self, tag: &Tag, name: &str, e: FacetError) {
        let offset = self.attribute_offset(tag, name);
        let value = tag.attribute(name).unwrap_or_default();
        self.attribute_facet_error(e, offset, name, value);
    }

    /// An error at attribute `name` (at `offset`) of the element the reader stands in.
    pub(crate) fn attribute_error(
        &self,
        code: Code,
        offset: usize,
        name: &str,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::error(code, offset, format!("{}/@{name}", self.path()), message)
    }

    /// Reports that the value of attribute `name`, at `offset`, is not valid (`e`).
    pub(crate) fn attribute_facet_error(
        &mut self,
        e: FacetError,
        offset: usize,
        name: &str,
        value: &str,
    ) {
        let path = format!("{}/@{name}", self.path());
        self.facet_error(e, offset, path, &format!("attribute {name}"), value);
    }

    fn facet_error(&mut self, e: FacetError, offset: usize, path: String, what: &str, value: &str) {
        let message = match &e {
            FacetError::Enumeration { .. } => format!("{what} is not an allowed value"),
            FacetError::Pattern { .. } => format!("{what} does not match the pattern"),
            FacetError::Lexical { expected } => format!("{what} is not a valid {expected}"),
            FacetError::TooSmall { .. }
            | FacetError::TooLarge { .. }
            | FacetError::TotalDigits { .. }
            | FacetError::Bound { .. }
            | FacetError::FractionDigits { .. } => format!("{what} is out of range"),
            FacetError::Length { .. }
            | FacetError::TooShort { .. }
            | FacetError::TooLong { .. } => format!("{what} has the wrong length"),
            FacetError::Union { members: [] } => {
                format!("{what} has the type xs:error, which no value fits")
            }
            FacetError::Union { .. } => format!("{what} fits none of the union's types"),
            FacetError::UnboundPrefix => {
                format!("{what} is a QName whose prefix is bound to no namespace here")
            }
            FacetError::Timezone { required: true } => format!("{what} has no timezone"),
            FacetError::Timezone { required: false } => {
                format!("{what} has a timezone, which its type prohibits")
            }
            FacetError::Assertion { .. } => {
                format!("{what} does not satisfy an assertion of its type")
            }
        };
        let found = match &e {
            FacetError::Length { found, .. }
            | FacetError::TooShort { found, .. }
            | FacetError::TooLong { found, .. } => {
                format!("{} (length {found})", quote(value))
            }
            _ => quote(value),
        };
        self.report(
            Diagnostic::error(e.code(), offset, path, message)
                .expected(e.expected())
                .found(found),
        );
    }
}

/// Lets a buffer go when one large value grew it: it is reused for every node, and should
/// not pin the memory of the largest for the rest of the document.
#[inline]
fn release_large(buffer: &mut String) {
    if buffer.capacity() > KEEP_CAPACITY {
        *buffer = String::new();
    }
}

fn quote(value: &str) -> String {
    format!("\"{}\"", excerpt(value))
}

/// A value shortened for a message.
pub fn excerpt(value: &str) -> String {
    let v: String = value.chars().take(60).collect();
    let v = v
        .replace('\n', "\\n")
        .replace('\r', "\\r")
        .replace('\t', "\\t");
    if value.chars().count() > 60 {
        format!("{v}...")
    } else {
        v
    }
}
