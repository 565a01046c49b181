//! The strict pull reader that generated code drives.
//!
//! It sits on quick-xml and adds what validation needs: element paths, limits, refusal of
//! DTDs, XML's line-end and attribute-value normalisation, entity resolution limited to the
//! five predefined entities and character references, and a list of diagnostics that keeps
//! growing after a recoverable error so that a document's problems are reported together.
//! A fatal error (malformed XML, a limit) ends reading: every later call sees the end.

use std::borrow::Cow;
use std::io::BufRead;

use quick_xml::events::{BytesStart, Event};

use super::wf;
use crate::diagnostic::{Code, Diagnostic};
use crate::schema::{Element, FacetError, Invalid, SimpleValue, TextForm};

/// Limits that keep hostile input from costing unbounded time or memory.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Deepest element nesting.
    pub max_depth: usize,
    /// Longest element or attribute name, in bytes.
    pub max_name: usize,
    /// Longest attribute value, in bytes.
    pub max_attribute: usize,
    /// Most attributes on one element.
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
            max_attributes: 256,
            max_text: 64 << 20,
        }
    }
}

/// A start tag with its attributes.
///
/// The name and every attribute's name and value live in one buffer, and the reader hands
/// finished tags back to a pool: after the first few elements, reading a start tag
/// allocates nothing (per-element allocation was a quarter of validation time).
#[derive(Debug, Clone, Default)]
pub struct Tag {
    /// The element name, then each attribute's name and value, back to back.
    text: String,
    name_end: usize,
    /// Byte offset of `<`.
    pub offset: usize,
    attributes: Vec<Attr>,
}

/// An attribute: its name is `text[start..split]` and its value `text[split..end]` of its
/// tag's buffer.
#[derive(Debug, Clone, Copy)]
struct Attr {
    start: usize,
    split: usize,
    end: usize,
    offset: usize,
}

impl Tag {
    /// The element name (`{namespace}name` in a default namespace).
    pub fn name(&self) -> &str {
        &self.text[..self.name_end]
    }

    /// The value of attribute `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| self.attr_name(a) == name)
            .map(|a| self.attr_value(a))
    }

    /// The names of the attributes present.
    pub fn attribute_names(&self) -> impl Iterator<Item = &str> {
        self.attributes.iter().map(|a| self.attr_name(a))
    }

    fn attr_name(&self, a: &Attr) -> &str {
        &self.text[a.start..a.split]
    }

    fn attr_value(&self, a: &Attr) -> &str {
        &self.text[a.split..a.end]
    }
}

/// Format rules that look at elements as they are read, so that a document need not be
/// kept whole (memory stays bounded). Both calls return issues, which the reader places at
/// the attribute their path names (or the element) and reports.
pub trait Observer {
    /// A child element starts (its attributes are known, its content not yet).
    fn start(&mut self, tag: &Tag, path: &dyn Fn() -> String) -> Vec<crate::semantics::Issue>;
    /// A child element was read and is valid; `value` is its generated type.
    fn element(
        &mut self,
        tag: &Tag,
        value: &dyn std::any::Any,
        path: &dyn Fn() -> String,
    ) -> Vec<crate::semantics::Issue>;
}

/// One shape of an element typed by XSD 1.1 alternatives: the attributes it declares.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The shape's type name, e.g. `SquareMarker`.
    pub name: &'static str,
    /// Its required attributes.
    pub required: &'static [&'static str],
    /// Its optional attributes.
    pub optional: &'static [&'static str],
}

impl Shape {
    /// What `tag` lacks (required attributes absent) and has too many (attributes the
    /// shape does not declare) for this shape.
    fn misfit<'t>(&self, tag: &'t Tag) -> (Vec<&'static str>, Vec<&'t str>) {
        let missing = self
            .required
            .iter()
            .copied()
            .filter(|a| tag.attribute(a).is_none())
            .collect();
        let extra = tag
            .attribute_names()
            .filter(|n| !self.required.contains(n) && !self.optional.contains(n))
            .collect();
        (missing, extra)
    }
}

/// An item of mixed content.
#[derive(Debug, Clone)]
pub enum MixedItem {
    /// Character data (line ends normalised, references resolved).
    Text(String),
    /// A CDATA section's content.
    CData(String),
    /// A child element's start; read it with [`Reader::read_child`] or skip it.
    /// (Which element: ask [`Reader::peek_index`]; the name is not copied out.)
    Child,
}

enum Node {
    Start(Tag),
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

/// What one event contributes.
enum Step {
    /// A piece of character data (text or CDATA, as the flag says), in the reader's
    /// `piece` buffer.
    Piece(bool),
    /// Nothing (a comment, a processing instruction, the declaration).
    Skip,
    /// A node that ends the gathering of character data.
    Node(Node),
    /// Reading ends here (the problem is reported).
    Stop(Node),
}

/// A run of character data of one kind being gathered (its text is in a reader buffer).
#[derive(Clone, Copy)]
struct Run {
    cdata: bool,
    offset: usize,
}

/// Buffers that hold more than this after a large value are let go rather than kept for
/// reuse, so one huge text or tag does not pin its memory for the rest of the document.
const KEEP_CAPACITY: usize = 64 << 10;

/// An open element. Its path is built only when a diagnostic needs it: building it for
/// every element would cost an allocation per element of a large document.
#[derive(Default)]
struct Level {
    /// The element's name.
    name: String,
    /// Its 1-based index among same-named siblings.
    index: usize,
    /// Children seen so far by name, for `[n]` in paths (few distinct names: a list):
    /// the name is `child_names[start..end]`, then the count.
    children: Vec<(usize, usize, usize)>,
    child_names: String,
}

/// Where events come from.
enum Events<'a> {
    /// A stream: quick-xml copies each event into the reader's buffer, behind the size
    /// guard.
    Stream(quick_xml::Reader<Box<dyn BufRead + 'a>>),
    /// Text in memory: events borrow from it, nothing is copied and no guard is needed
    /// (an event costs no memory beyond the text; the reader's own limits still apply).
    Slice(quick_xml::Reader<&'a [u8]>),
}

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
    spare_tags: Vec<Tag>,
    /// The event buffer, reused: memory is the largest single event, not the file.
    buf: Vec<u8>,
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
    /// Format rules that run while reading.
    observer: Option<Box<dyn Observer + 'a>>,
    /// The default namespace in scope at each open element (`None`: no namespace).
    default_ns: Vec<Option<String>>,
    /// Prefixes declared by the open elements, innermost last: (prefix, namespace).
    prefixes: Vec<(String, String)>,
    /// For each open element that declared prefixes (rare: nothing is pushed for the
    /// others), its depth and how many of `prefixes` were in scope before it.
    prefix_marks: Vec<(usize, usize)>,
    /// Whether an event has been read (an XML declaration must be the first).
    started: bool,
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
    pub fn from_reader(mut input: impl BufRead + 'a) -> Self {
        // quick-xml drops a UTF-8 BOM at the start; after the decoder took the real one, a
        // second is a character before the root (the decoder hands out whole characters).
        let second_bom = input
            .fill_buf()
            .is_ok_and(|b| b.starts_with("\u{FEFF}".as_bytes()));
        let limits = Limits::default();
        // The guard stops a tag or text run at its limit before quick-xml buffers it whole.
        let max_tag =
            limits.max_attribute + limits.max_attributes * limits.max_name + limits.max_name;
        let guarded = super::guard::MarkupGuard::new(input, max_tag, limits.max_text);
        let mut xml = quick_xml::Reader::from_reader(Box::new(guarded) as Box<dyn BufRead + 'a>);
        configure(xml.config_mut());
        let mut reader = Reader::with_events(Events::Stream(xml));
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
                Code::Malformed,
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
            buf: Vec::new(),
            diagnostics: Vec::new(),
            max_errors: usize::MAX,
            errors: 0,
            max_kept: usize::MAX,
            omitted: (0, 0),
            fatal: false,
            peeked: None,
            levels: vec![Level {
                index: 1,
                ..Level::default()
            }],
            open: 1,
            last_start: 0,
            pending_end: false,
            depth: 0,
            carry: None,
            retain: true,
            root: None,
            default_ns: Vec::new(),
            prefixes: Vec::new(),
            prefix_marks: Vec::new(),
            started: false,
            observer: None,
            limits: Limits::default(),
        }
    }

    /// Whether repeated children are to be kept (generated code asks before each push).
    pub fn retains(&self) -> bool {
        self.retain
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

    /// The path of the element being read.
    pub fn path(&self) -> String {
        let mut path = String::new();
        for level in &self.levels[1..self.open] {
            path.push('/');
            path.push_str(&level.name);
            if level.index > 1 {
                path.push_str(&format!("[{}]", level.index));
            }
        }
        path
    }

    fn position(&self) -> usize {
        match &self.xml {
            Events::Stream(xml) => xml.buffer_position() as usize,
            Events::Slice(xml) => xml.buffer_position() as usize,
        }
    }

    fn fatal_error(&mut self, code: Code, offset: usize, message: String) {
        let path = self.path();
        self.report(Diagnostic::error(code, offset, path, message));
    }

    /// A well-formedness error (E0101) with what was expected there and what was found.
    fn malformed(&mut self, offset: usize, message: String, expected: &str, found: String) {
        let path = self.path();
        self.report(
            Diagnostic::error(Code::Malformed, offset, path, message)
                .expected(expected.to_string())
                .found(found),
        );
    }

    /// The next node, with malformed input turned into a fatal diagnostic. A text node's
    /// text is in `self.text` until the next call.
    fn next_node(&mut self) -> Node {
        self.next_node_with(false)
    }

    /// [`Reader::next_node`]; with `skip_blank`, a run of white space (which element-only
    /// content ignores) followed by a tag is not handed out: the tag comes at once, without
    /// the text node and the detour through `peeked`.
    fn next_node_with(&mut self, skip_blank: bool) -> Node {
        if let Some(node) = self.peeked.take() {
            if matches!(node, Node::Eof) {
                self.peeked = Some(Node::Eof);
            }
            return node;
        }
        // Character data arrives in pieces (entity references are events of their own, and
        // `]]>` splits CDATA into sections); a run of one kind is one node. Text and CDATA
        // stay apart so that mixed content can keep them apart; the piece that changed the
        // kind is carried into the next call.
        release_large(&mut self.text);
        release_large(&mut self.piece);
        self.text.clear();
        let mut run = self.carry.take();
        if run.is_some() {
            std::mem::swap(&mut self.text, &mut self.carry_text);
        }
        loop {
            let before = self.position();
            if self.pending_end {
                // Nothing can stand between `<x/>` and its end: no run is being gathered.
                self.pending_end = false;
                return self.close_element(self.last_start);
            }
            let step = match &mut self.xml {
                Events::Stream(xml) => {
                    // The event borrows the buffer; turn it into owned data before giving
                    // the buffer back.
                    let mut buf = std::mem::take(&mut self.buf);
                    buf.clear();
                    let step = match xml.read_event_into(&mut buf) {
                        Ok(event) => self.step(event, before),
                        Err(error) => {
                            self.read_error(error);
                            Step::Stop(Node::Eof)
                        }
                    };
                    self.buf = buf;
                    step
                }
                Events::Slice(xml) => match xml.read_event() {
                    Ok(event) => self.step(event, before),
                    Err(error) => {
                        self.read_error(error);
                        Step::Stop(Node::Eof)
                    }
                },
            };
            let cdata = match step {
                Step::Piece(cdata) => cdata,
                Step::Skip => continue,
                Step::Stop(node) => return node,
                Step::Node(node) => {
                    return match run {
                        Some(run) => {
                            let text = self.text_node(run);
                            if skip_blank && matches!(text, Node::Text { blank: true, .. }) {
                                return node;
                            }
                            // Hand out the gathered character data first; the node waits.
                            self.peeked = Some(node);
                            text
                        }
                        None => node,
                    };
                }
            };
            match run {
                Some(r) if r.cdata == cdata => self.text.push_str(&self.piece),
                Some(done) => {
                    self.carry_text.clear();
                    self.carry_text.push_str(&self.piece);
                    self.carry = Some(Run {
                        cdata,
                        offset: before,
                    });
                    return self.text_node(done);
                }
                None => {
                    // The first piece of a run (most runs have one): take it, no copy.
                    std::mem::swap(&mut self.text, &mut self.piece);
                    run = Some(Run {
                        cdata,
                        offset: before,
                    })
                }
            }
            if self.text.len() > self.limits.max_text {
                let at = run.map_or(before, |r| r.offset);
                self.fatal_error(
                    Code::Limit,
                    at,
                    format!("text longer than {} bytes", self.limits.max_text),
                );
                return Node::Eof;
            }
        }
    }

    /// The text node for a run gathered in `self.text`.
    fn text_node(&self, run: Run) -> Node {
        // The infoset has no CDATA boundaries: white space in CDATA is white space.
        let blank = self
            .text
            .bytes()
            .all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
        Node::Text {
            cdata: run.cdata,
            blank,
            offset: run.offset,
        }
    }

    /// A read error: bad bytes found by the decoder keep their own diagnostic (with the
    /// byte offset in the file); anything else is malformed XML.
    fn read_error(&mut self, error: quick_xml::Error) {
        if let quick_xml::Error::Io(io) = &error {
            if let Some(crate::encoding::InvalidBytes(d)) =
                io.get_ref().and_then(|e| e.downcast_ref())
            {
                let d = d.clone();
                self.report(d);
                return;
            }
            if let Some(t) = io
                .get_ref()
                .and_then(|e| e.downcast_ref::<super::guard::TooLarge>())
            {
                let (offset, message) = (t.offset, t.message.clone());
                self.fatal_error(Code::Limit, offset, message);
                return;
            }
            if let Some(f) = io
                .get_ref()
                .and_then(|e| e.downcast_ref::<super::guard::Forbidden>())
            {
                let (offset, message) = (f.offset, f.to_string());
                self.fatal_error(Code::Malformed, offset, message);
                return;
            }
        }
        let at = match &self.xml {
            Events::Stream(xml) => xml.error_position() as usize,
            Events::Slice(xml) => xml.error_position() as usize,
        };
        // A DOCTYPE whose end quick-xml does not find (its internal subset can hold `>` in
        // quotes) is refused as a DOCTYPE all the same.
        if let quick_xml::Error::Syntax(quick_xml::errors::SyntaxError::UnclosedDoctype) = error {
            self.fatal_error(
                Code::Doctype,
                at,
                "a DOCTYPE is not allowed: boardxml reads no DTDs and expands no entities".into(),
            );
            return;
        }
        self.fatal_error(Code::Malformed, at, format!("not well-formed XML: {error}"));
    }

    /// What one event means for the node being gathered.
    fn step(&mut self, event: Event<'_>, before: usize) -> Step {
        let first = !self.started;
        self.started = true;
        match event {
            Event::Text(t) => {
                // The input is UTF-8 already (our decoder ran first). Never `decode()`: with
                // quick-xml's `encoding` feature (which another crate of a build may turn on) it
                // would decode again by the document's declaration, e.g. GBK.
                let raw = text_of(self.source, &t);
                if !wf::plain_text(&raw) {
                    if let Some(at) = forbidden_char(&raw) {
                        self.fatal_error(
                            Code::Malformed,
                            before + at,
                            forbidden_message(&raw[at..]),
                        );
                        return Step::Stop(Node::Eof);
                    }
                    if let Some(at) = wf::cdata_end_in_text(&raw) {
                        self.malformed(
                            before + at,
                            "]]> in character data (it may only end a CDATA section)".into(),
                            "]]&gt; (or text without ]]>)",
                            "]]>".into(),
                        );
                        return Step::Stop(Node::Eof);
                    }
                }
                self.piece.clear();
                push_normalised(&mut self.piece, &raw);
                Step::Piece(false)
            }
            Event::CData(c) => {
                let raw = text_of(self.source, &c);
                if let Some(at) = forbidden_char(&raw) {
                    self.fatal_error(
                        Code::Malformed,
                        before + "<![CDATA[".len() + at,
                        forbidden_message(&raw[at..]),
                    );
                    return Step::Stop(Node::Eof);
                }
                self.piece.clear();
                push_normalised(&mut self.piece, &raw);
                Step::Piece(true)
            }
            // XML 1.0 [1] document ::= prolog element Misc*: no character data outside the
            // root, and a reference is character data even when it stands for a space.
            Event::GeneralRef(r) if self.depth == 0 => {
                let found = format!("&{};", utf8(&r));
                let what = if self.root.is_some() {
                    "after"
                } else {
                    "before"
                };
                self.malformed(
                    before,
                    format!("a reference {what} the root element"),
                    "only white space, comments and processing instructions outside the root",
                    found,
                );
                Step::Stop(Node::Eof)
            }
            Event::GeneralRef(r) => match resolve_reference(&r) {
                Ok(c) => {
                    self.piece.clear();
                    self.piece.push(c);
                    Step::Piece(false)
                }
                Err(message) => {
                    self.fatal_error(Code::Malformed, before, message);
                    Step::Stop(Node::Eof)
                }
            },
            Event::Comment(c) => {
                let raw = text_of(self.source, &c);
                if let Some(at) = forbidden_char(&raw) {
                    let message = format!("in a comment: {}", forbidden_message(&raw[at..]));
                    self.fatal_error(Code::Malformed, before + "<!--".len() + at, message);
                    return Step::Stop(Node::Eof);
                }
                Step::Skip
            }
            Event::PI(pi) => {
                let raw = text_of(self.source, &pi);
                if let Some((at, message)) = wf::check_pi(&raw) {
                    let found = format!("<?{}", excerpt(&raw));
                    self.malformed(
                        before + 2 + at,
                        message,
                        "<?target ...?> with a name other than xml as target",
                        found,
                    );
                    return Step::Stop(Node::Eof);
                }
                if let Some(at) = forbidden_char(&raw) {
                    let message = format!(
                        "in a processing instruction: {}",
                        forbidden_message(&raw[at..])
                    );
                    self.fatal_error(Code::Malformed, before + 2 + at, message);
                    return Step::Stop(Node::Eof);
                }
                Step::Skip
            }
            Event::Decl(d) => {
                let raw = text_of(self.source, &d);
                if !(first && before == 0) {
                    let what = if self.depth > 0 {
                        "inside an element"
                    } else if self.root.is_some() {
                        "after the root element"
                    } else {
                        "after other content (white space, a comment, another declaration)"
                    };
                    self.malformed(
                        before,
                        format!("an XML declaration {what}: it is allowed only at the very start of the document"),
                        "the declaration first, at offset 0, or none",
                        format!("<?{}?>", excerpt(&raw)),
                    );
                    return Step::Stop(Node::Eof);
                }
                if raw.len() > super::decl::MAX_DECLARATION {
                    self.fatal_error(
                        Code::Limit,
                        before,
                        format!(
                            "an XML declaration longer than {} bytes",
                            super::decl::MAX_DECLARATION
                        ),
                    );
                    return Step::Stop(Node::Eof);
                }
                if let Err(e) = super::decl::parse(raw.as_bytes()) {
                    self.malformed(
                        before + 2 + e.at,
                        format!("malformed XML declaration: expected {}", e.expected),
                        &e.expected,
                        e.found,
                    );
                    return Step::Stop(Node::Eof);
                }
                Step::Skip
            }
            Event::DocType(_) => {
                self.fatal_error(
                    Code::Doctype,
                    before,
                    "a DOCTYPE is not allowed: boardxml reads no DTDs and expands no entities"
                        .into(),
                );
                Step::Stop(Node::Eof)
            }
            Event::Start(start) => {
                self.last_start = before;
                match self.start_tag(&start, before) {
                    node @ Node::Eof => Step::Stop(node),
                    node => Step::Node(node),
                }
            }
            Event::Empty(start) => {
                self.last_start = before;
                match self.start_tag(&start, before) {
                    node @ Node::Eof => Step::Stop(node),
                    node => {
                        self.pending_end = true;
                        Step::Node(node)
                    }
                }
            }
            Event::End(_) => Step::Node(self.close_element(before)),
            Event::Eof => {
                // quick-xml ends quietly with elements still open; XML calls that malformed.
                if self.depth > 0 {
                    let open = self.current_name().to_string();
                    self.fatal_error(
                        Code::Malformed,
                        before,
                        format!(
                            "the document ends before </{open}>: {} element(s) left open",
                            self.depth
                        ),
                    );
                }
                Step::Node(Node::Eof)
            }
        }
    }

    /// The end of the innermost open element, reported at `offset`.
    #[inline]
    fn close_element(&mut self, offset: usize) -> Node {
        self.depth = self.depth.saturating_sub(1);
        self.default_ns.pop();
        if let Some(&(depth, mark)) = self.prefix_marks.last() {
            if depth > self.depth {
                self.prefixes.truncate(mark);
                self.prefix_marks.pop();
            }
        }
        Node::End(offset)
    }

    /// The namespace `prefix` is bound to where the reader stands (`xml` always is).
    fn namespace_of(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(wf::XML_NAMESPACE);
        }
        self.prefixes
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .map(|(_, ns)| ns.as_str())
    }

    fn start_tag(&mut self, start: &BytesStart<'_>, offset: usize) -> Node {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            self.fatal_error(
                Code::Limit,
                offset,
                format!("elements nested deeper than {}", self.limits.max_depth),
            );
            return Node::Eof;
        }
        let name_bytes = start.name().into_inner();
        if name_bytes.len() > self.limits.max_name {
            self.fatal_error(
                Code::Limit,
                offset,
                format!("an element name longer than {} bytes", self.limits.max_name),
            );
            return Node::Eof;
        }
        let mut tag = self.spare_tags.pop().unwrap_or_default();
        tag.text.clear();
        tag.attributes.clear();
        tag.offset = offset;
        // The input is UTF-8 (decoded before the reader), so names are valid text.
        // Streamed, the tag is checked as UTF-8 once, whole, and its name and attributes are
        // cut from that (one check instead of one per name and value).
        let content: &[u8] = start.as_ref();
        let source = self.source.or_else(|| std::str::from_utf8(content).ok());
        tag.text.push_str(&text_of(source, name_bytes));
        tag.name_end = tag.text.len();
        // XML 1.0 [40] STag ::= '<' Name (S Attribute)* S? '>', and a QName (Namespaces 1.0).
        let checked = if wf::simple_name(name_bytes) {
            Ok(None)
        } else {
            wf::check_qname(tag.name(), "element name")
        };
        let element_colon = match checked {
            Ok(colon) => colon,
            Err(e) => {
                let found = format!("<{}", excerpt(tag.name()));
                self.recycle(tag);
                self.malformed(offset + 1 + e.at, e.message, "an element name", found);
                return Node::Eof;
            }
        };
        // Attribute offsets: the tag's content starts right after `<`.
        let mut declared_default: Option<Option<String>> = None;
        // Namespace declarations seen (rare: a list allocated only when there are some).
        let mut declared: Vec<String> = Vec::new();
        // Attributes with a prefix (rare), by index, resolved once the tag's own
        // declarations are known.
        let mut prefixed: Vec<(usize, usize)> = Vec::new();
        let prefix_mark = self.prefixes.len();
        let mut at = name_bytes.len();
        loop {
            let attr = match wf::next_attribute(content, &mut at) {
                Ok(Some(a)) => a,
                Ok(None) => break,
                Err(e) => {
                    let name = tag.name().to_string();
                    let rest = &content[e.at.min(content.len())..];
                    let found = if rest.is_empty() {
                        "the end of the tag".to_string()
                    } else {
                        let n = rest.len().min(20);
                        format!("\"{}\"", excerpt(&String::from_utf8_lossy(&rest[..n])))
                    };
                    self.prefixes.truncate(prefix_mark);
                    self.recycle(tag);
                    self.malformed(
                        offset + 1 + e.at,
                        format!("malformed start tag <{name}>: expected {}", e.expected),
                        e.expected,
                        found,
                    );
                    return Node::Eof;
                }
            };
            if tag.attributes.len() + declared.len() >= self.limits.max_attributes {
                let message = format!(
                    "more than {} attributes on <{}>",
                    self.limits.max_attributes,
                    tag.name()
                );
                self.fatal_error(Code::Limit, offset, message);
                return Node::Eof;
            }
            let key = &content[attr.key.clone()];
            if key.len() > self.limits.max_name {
                self.fatal_error(
                    Code::Limit,
                    offset,
                    format!(
                        "an attribute name longer than {} bytes",
                        self.limits.max_name
                    ),
                );
                return Node::Eof;
            }
            let value = &content[attr.value.clone()];
            if value.len() > self.limits.max_attribute {
                self.fatal_error(
                    Code::Limit,
                    offset,
                    format!(
                        "an attribute value longer than {} bytes",
                        self.limits.max_attribute
                    ),
                );
                return Node::Eof;
            }
            let attr_offset = offset + 1 + attr.key.start;
            let key = text_of(source, key);
            let checked = if attr.simple {
                Ok(None)
            } else {
                wf::check_qname(&key, "attribute name")
            };
            let colon = match checked {
                Ok(colon) => colon,
                Err(e) => {
                    let found = format!("{}=", excerpt(&key));
                    self.prefixes.truncate(prefix_mark);
                    self.recycle(tag);
                    self.malformed(attr_offset + e.at, e.message, "an attribute name", found);
                    return Node::Eof;
                }
            };
            // XML 1.0 3.1, Unique Att Spec: no attribute name twice in one tag (namespace
            // declarations included).
            let is_declaration = key == "xmlns" || key.starts_with("xmlns:");
            let duplicate = if is_declaration {
                declared.iter().any(|n| *n == key)
            } else {
                tag.attribute_names().any(|n| n == key)
            };
            if duplicate {
                let name = tag.name().to_string();
                self.prefixes.truncate(prefix_mark);
                self.fatal_error(
                    Code::Malformed,
                    attr_offset,
                    format!("attribute {key} appears twice in <{name}>"),
                );
                return Node::Eof;
            }
            let raw = text_of(source, value);
            let value_offset = offset + 1 + attr.value.start;
            // One look at each byte decides whether the value is plain (copied as it is) or
            // has something to check or normalise.
            let plain = raw.bytes().all(|b| PLAIN_IN_ATTRIBUTE[b as usize]);
            // XML 1.0 [10] AttValue: a literal `<` may not stand in an attribute value.
            if let Some(lt) = (!plain).then(|| raw.find('<')).flatten() {
                let name = tag.name().to_string();
                self.prefixes.truncate(prefix_mark);
                self.malformed(
                    value_offset + lt,
                    format!("a `<` in the value of attribute {key} of <{name}>"),
                    "&lt; instead of <",
                    "<".into(),
                );
                return Node::Eof;
            }
            if let Some(at) = (!plain).then(|| forbidden_char(&raw)).flatten() {
                let message = format!(
                    "in attribute {key} of <{}>: {}",
                    tag.name(),
                    forbidden_message(&raw[at..])
                );
                self.prefixes.truncate(prefix_mark);
                self.fatal_error(Code::Malformed, value_offset + at, message);
                return Node::Eof;
            }
            // Namespace declarations are not attributes (Namespaces in XML, 3). A prefix
            // declaration changes nothing here: a prefixed name never matches our
            // no-namespace schemas. A default namespace puts the element in it.
            if is_declaration {
                declared.push(key.to_string());
                let mut value = String::new();
                if let Err(message) = push_attribute_value(&mut value, &raw) {
                    self.prefixes.truncate(prefix_mark);
                    self.fatal_error(Code::Malformed, value_offset, message);
                    return Node::Eof;
                }
                if let Err((message, expected)) = check_declaration(&key, &value) {
                    self.prefixes.truncate(prefix_mark);
                    let found = format!("{key}=\"{}\"", excerpt(&value));
                    self.malformed(attr_offset, message, expected, found);
                    return Node::Eof;
                }
                match key.strip_prefix("xmlns:") {
                    Some(prefix) => self.prefixes.push((prefix.to_string(), value)),
                    None => declared_default = Some((!value.is_empty()).then_some(value)),
                }
                continue;
            }
            if let Some(colon) = colon {
                prefixed.push((tag.attributes.len(), colon));
            }
            let start_at = tag.text.len();
            tag.text.push_str(&key);
            let split = tag.text.len();
            if plain {
                tag.text.push_str(&raw);
            } else if let Err(message) = push_attribute_value(&mut tag.text, &raw) {
                self.prefixes.truncate(prefix_mark);
                self.fatal_error(Code::Malformed, value_offset, message);
                return Node::Eof;
            }
            tag.attributes.push(Attr {
                start: start_at,
                split,
                end: tag.text.len(),
                offset: attr_offset,
            });
        }
        // Namespaces 1.0: every prefix used is declared (5, Prefix Declared), `xmlns` is
        // no element's prefix, and no two attributes have the same expanded name (6.3).
        if element_colon.is_some() || !prefixed.is_empty() {
            if let Err((at, message)) = self.check_prefixes(&tag, element_colon, &prefixed) {
                self.prefixes.truncate(prefix_mark);
                let found = format!("<{}", excerpt(tag.name()));
                self.recycle(tag);
                self.malformed(
                    at,
                    message,
                    "a declared prefix (xmlns:prefix=\"...\")",
                    found,
                );
                return Node::Eof;
            }
        }
        let in_scope = match declared_default {
            Some(d) => d,
            None => self.default_ns.last().cloned().flatten(),
        };
        // In a namespace the element is `{namespace}name` (Clark notation), which no
        // declaration of ours matches, so it is reported as unexpected, naming the namespace.
        if let Some(ns) = &in_scope {
            let local = tag.text[..tag.name_end].to_string();
            let rest = tag.text[tag.name_end..].to_string();
            tag.text.clear();
            tag.text.push('{');
            tag.text.push_str(ns);
            tag.text.push('}');
            tag.text.push_str(&local);
            let shift = tag.text.len() - tag.name_end;
            tag.name_end = tag.text.len();
            tag.text.push_str(&rest);
            for a in &mut tag.attributes {
                a.start += shift;
                a.split += shift;
                a.end += shift;
            }
        }
        self.default_ns.push(in_scope);
        if self.prefixes.len() > prefix_mark {
            self.prefix_marks.push((self.depth, prefix_mark));
        }
        Node::Start(tag)
    }

    /// The prefix checks of Namespaces 1.0 for a start tag (with its own declarations in
    /// scope already): the offset and message of the first problem.
    fn check_prefixes(
        &self,
        tag: &Tag,
        element_colon: Option<usize>,
        prefixed: &[(usize, usize)],
    ) -> Result<(), (usize, String)> {
        if let Some(colon) = element_colon {
            let prefix = &tag.name()[..colon];
            if prefix == "xmlns" {
                return Err((
                    tag.offset + 1,
                    format!(
                        "element <{}>: the prefix xmlns is reserved for namespace declarations",
                        tag.name()
                    ),
                ));
            }
            if self.namespace_of(prefix).is_none() {
                return Err((
                    tag.offset + 1,
                    format!(
                        "element <{}>: the prefix {prefix} is not declared",
                        tag.name()
                    ),
                ));
            }
        }
        let mut expanded: Vec<(&str, &str, usize)> = Vec::with_capacity(prefixed.len());
        for &(i, colon) in prefixed {
            let a = &tag.attributes[i];
            let name = tag.attr_name(a);
            let (prefix, local) = (&name[..colon], &name[colon + 1..]);
            let Some(ns) = self.namespace_of(prefix) else {
                return Err((
                    a.offset,
                    format!(
                        "attribute {name} of <{}>: the prefix {prefix} is not declared",
                        tag.name()
                    ),
                ));
            };
            if let Some((_, _, first)) = expanded.iter().find(|(n, l, _)| *n == ns && *l == local) {
                let first = tag.attr_name(&tag.attributes[*first]);
                return Err((
                    a.offset,
                    format!(
                        "attributes {first} and {name} of <{}> are the same name {{{ns}}}{local} (Namespaces 1.0, 6.3)",
                        tag.name()
                    ),
                ));
            }
            expanded.push((ns, local, i));
        }
        Ok(())
    }

    /// Gives a tag whose element has been read back to the pool.
    fn recycle(&mut self, tag: Tag) {
        if tag.text.capacity() <= KEEP_CAPACITY && self.spare_tags.len() < 64 {
            self.spare_tags.push(tag);
        }
    }

    /// Reads the document's well-formedness alone (XML 1.0 and Namespaces 1.0, with the
    /// reader's limits and its refusal of DTDs): no schema, no format. The findings are
    /// the diagnostics, every one an E01xx.
    pub fn read_well_formed(&mut self) -> Result<(), Invalid> {
        let tag = self.read_root_tag()?;
        self.root = Some(tag.clone());
        self.recycle(tag);
        let mut depth = 1usize;
        while depth > 0 {
            match self.next_node() {
                Node::Start(tag) => {
                    depth += 1;
                    self.recycle(tag);
                }
                Node::End(_) => depth -= 1,
                Node::Text { .. } => {}
                Node::Eof => return Err(Invalid),
            }
        }
        self.read_epilog();
        if self.fatal {
            return Err(Invalid);
        }
        Ok(())
    }

    /// Reads up to the root element's start tag: only white space, comments and processing
    /// instructions may come first.
    fn read_root_tag(&mut self) -> Result<Tag, Invalid> {
        loop {
            match self.next_node() {
                Node::Start(tag) => return Ok(tag),
                // White space in a CDATA section is character data all the same.
                Node::Text {
                    blank: true,
                    cdata: false,
                    ..
                } => continue,
                Node::Text { offset, .. } => {
                    self.fatal_error(
                        Code::Malformed,
                        offset,
                        "text before the root element".into(),
                    );
                    return Err(Invalid);
                }
                Node::End(_) | Node::Eof => {
                    if !self.fatal {
                        let at = self.position();
                        self.fatal_error(Code::Malformed, at, "no root element".into());
                    }
                    return Err(Invalid);
                }
            }
        }
    }

    /// After the root: only white space, comments and processing instructions.
    fn read_epilog(&mut self) {
        loop {
            match self.next_node() {
                Node::Eof => break,
                Node::Text {
                    blank: true,
                    cdata: false,
                    ..
                } => continue,
                Node::Text { offset, .. } | Node::Start(Tag { offset, .. }) => {
                    self.fatal_error(
                        Code::Malformed,
                        offset,
                        "content after the root element".into(),
                    );
                    break;
                }
                Node::End(_) => break,
            }
        }
    }

    /// Reads the root element with `D`, and the end of the document after it.
    pub fn read_document<D: crate::schema::Document>(&mut self) -> Result<D, Invalid> {
        let tag = loop {
            match self.next_node() {
                Node::Start(tag) => break tag,
                Node::Text {
                    blank: true,
                    cdata: false,
                    ..
                } => continue,
                Node::Text { offset, .. } => {
                    self.fatal_error(
                        Code::Malformed,
                        offset,
                        "text before the root element".into(),
                    );
                    return Err(Invalid);
                }
                Node::End(_) | Node::Eof => {
                    if !self.fatal {
                        let at = self.position();
                        self.fatal_error(Code::Malformed, at, "no root element".into());
                    }
                    return Err(Invalid);
                }
            }
        };
        self.root = Some(tag.clone());
        if !D::ROOTS.contains(&tag.name()) {
            let roots: Vec<String> = D::ROOTS.iter().map(|r| format!("<{r}>")).collect();
            let d = Diagnostic::error(
                Code::UnknownRoot,
                tag.offset,
                format!("/{}", tag.name()),
                format!("unexpected root element <{}>", tag.name()),
            )
            .expected(roots.join(" or "))
            .found(format!("<{}>", tag.name()));
            self.report(d);
            return Err(Invalid);
        }
        self.enter(tag.name());
        let result = D::read_root(self, &tag);
        self.leave();
        self.recycle(tag);
        self.read_epilog();
        if self.fatal {
            return Err(Invalid);
        }
        result
    }

    fn enter(&mut self, name: &str) {
        let parent = &mut self.levels[self.open - 1];
        let found = parent
            .children
            .iter_mut()
            .find(|(start, end, _)| &parent.child_names[*start..*end] == name);
        let index = match found {
            Some((_, _, count)) => {
                *count += 1;
                *count
            }
            None => {
                let start = parent.child_names.len();
                parent.child_names.push_str(name);
                parent.children.push((start, parent.child_names.len(), 1));
                1
            }
        };
        // Levels past `open` are kept: entering one reuses its buffers.
        if self.open == self.levels.len() {
            self.levels.push(Level::default());
        }
        let level = &mut self.levels[self.open];
        level.name.clear();
        level.name.push_str(name);
        level.index = index;
        level.children.clear();
        level.child_names.clear();
        self.open += 1;
    }

    fn leave(&mut self) {
        if self.open > 1 {
            self.open -= 1;
        }
    }

    fn current_name(&self) -> &str {
        &self.levels[self.open - 1].name
    }

    /// Skips to the next child element of the current element, reporting text that the
    /// content model does not allow; `None` at the current element's end.
    pub fn peek_child(&mut self) -> Option<&str> {
        loop {
            match self.next_node_with(true) {
                Node::Text { blank: true, .. } => continue,
                Node::Text { offset, .. } => {
                    let path = self.path();
                    let name = self.current_name().to_string();
                    let found = excerpt(&self.text);
                    self.report(
                        Diagnostic::error(
                            Code::UnexpectedText,
                            offset,
                            path,
                            format!("text is not allowed in <{name}>, only elements"),
                        )
                        .found(found),
                    );
                }
                node @ Node::Start(_) => {
                    self.peeked = Some(node);
                    break;
                }
                node @ (Node::End(_) | Node::Eof) => {
                    self.peeked = Some(node);
                    return None;
                }
            }
        }
        match &self.peeked {
            Some(Node::Start(tag)) => Some(tag.name()),
            _ => None,
        }
    }

    /// Whether the next child is element `name`.
    pub fn peek_is(&mut self, name: &str) -> bool {
        self.peek_child() == Some(name)
    }

    /// The index in `names` of the next child's name, if it is one of them.
    pub fn peek_index(&mut self, names: &[&str]) -> Option<usize> {
        let next = self.peek_child()?;
        names.iter().position(|n| *n == next)
    }

    /// Reads the child whose start [`Reader::peek_child`] (or [`Reader::next_mixed`]) found.
    pub fn read_child<T: Element + 'static>(&mut self) -> Result<T, Invalid> {
        let Some(Node::Start(tag)) = self.peeked.take() else {
            // Only reachable after a fatal error has replaced the peeked node.
            return Err(Invalid);
        };
        self.enter(tag.name());
        if self.observer.is_some() {
            self.observe(&tag, None);
        }
        let result = T::read_element(self, &tag);
        if let (Some(_), Ok(value)) = (&self.observer, &result) {
            self.observe(&tag, Some(value as &dyn std::any::Any));
        }
        self.leave();
        self.recycle(tag);
        result
    }

    /// Hands a start tag (`value` None) or a value just read to the observer, and reports
    /// what it finds, placed at the attribute its path names or else at the element.
    fn observe(&mut self, tag: &Tag, value: Option<&dyn std::any::Any>) {
        let Some(mut observer) = self.observer.take() else {
            return;
        };
        let issues = {
            let path = || self.path();
            match value {
                None => observer.start(tag, &path),
                Some(v) => observer.element(tag, v, &path),
            }
        };
        self.observer = Some(observer);
        for issue in issues {
            let offset = issue
                .path
                .rsplit_once("/@")
                .and_then(|(_, attribute)| {
                    tag.attributes
                        .iter()
                        .find(|a| tag.attr_name(a) == attribute)
                })
                .map_or(tag.offset, |a| a.offset);
            self.report(Diagnostic {
                code: issue.code,
                severity: issue.severity,
                message: issue.message,
                offset,
                path: issue.path,
                expected: issue.expected,
                found: issue.found,
                line: 0,
                column: 0,
            });
        }
    }

    /// Watch elements as they are read (format rules that need no whole document).
    pub fn with_observer(mut self, observer: Box<dyn Observer + 'a>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Stops the observer watching (a format whose rules it does not hold).
    pub fn remove_observer(&mut self) {
        self.observer = None;
    }

    /// Whether an observer watches.
    pub fn has_observer(&self) -> bool {
        self.observer.is_some()
    }

    /// Keep repeated children, or not (see [`Reader::without_retaining`]); a format can
    /// decide this once its root element is known.
    pub fn set_retaining(&mut self, retain: bool) {
        self.retain = retain;
    }

    /// Reports the peeked child as not allowed here and skips it with its content.
    pub fn skip_child(&mut self, expected: &str) {
        let Some(Node::Start(tag)) = self.peeked.take() else {
            return;
        };
        self.enter(tag.name());
        let path = self.path();
        self.report(
            Diagnostic::error(
                Code::UnexpectedElement,
                tag.offset,
                path,
                format!("unexpected element <{}>", tag.name()),
            )
            .expected(expected.to_string())
            .found(format!("<{}>", tag.name())),
        );
        self.skip_to_end();
        self.leave();
        self.recycle(tag);
    }

    /// Before a required particle: reports and skips children that neither start it
    /// (`this`) nor anything that may follow it (`later`), so that one stray element gives
    /// one error instead of a missing-element error and a cascade.
    pub fn skip_strays(&mut self, this: &[&str], later: &[&str], expected: &str) {
        loop {
            let stray = match self.peek_child() {
                Some(name) => !this.contains(&name) && !later.contains(&name),
                None => false,
            };
            if !stray {
                return;
            }
            self.skip_child(expected);
        }
    }

    /// After an element typed by alternatives failed the shape its attributes chose (index
    /// `chosen` in `shapes`): if its
    /// attributes do not fit that shape, say which shape they come closest to and what is
    /// missing or not allowed there (the specific errors are already reported).
    pub fn shape_mismatch(&mut self, tag: &Tag, shapes: &[Shape], chosen: usize) {
        if self.fatal || shapes.is_empty() {
            return;
        }
        let fits: Vec<(usize, Vec<&str>, Vec<&str>)> = shapes
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (missing, extra) = s.misfit(tag);
                (i, missing, extra)
            })
            .collect();
        // An attribute-perfect fit failed on values or content: those errors say it all.
        if fits.iter().any(|(_, m, e)| m.is_empty() && e.is_empty()) {
            return;
        }
        let (best, missing, extra) = fits
            .iter()
            // On a tie, the shape the attributes chose reads most naturally.
            .min_by_key(|(i, m, e)| (m.len() + e.len(), *i != chosen, *i))
            .expect("shapes is not empty");
        let mut lacks = Vec::new();
        if !missing.is_empty() {
            lacks.push(format!("missing {}", missing.join(", ")));
        }
        if !extra.is_empty() {
            lacks.push(format!("not allowed: {}", extra.join(", ")));
        }
        let names: Vec<&str> = shapes.iter().map(|s| s.name).collect();
        let path = self.path();
        self.report(
            Diagnostic::error(
                Code::Alternative,
                tag.offset,
                path,
                format!(
                    "<{}> fits none of its shapes ({}); it comes closest to {} ({})",
                    tag.name(),
                    names.join(", "),
                    shapes[*best].name,
                    lacks.join("; ")
                ),
            )
            .expected(format!(
                "the attributes of one shape, e.g. {}",
                shapes[*best].name
            ))
            .found(tag.attribute_names().collect::<Vec<_>>().join(", ")),
        );
    }

    /// Reports that a required child is missing where the reader stands.
    pub fn missing_child(&mut self, expected: &str) {
        let (found, offset) = match &self.peeked {
            Some(Node::Start(tag)) => (format!("<{}>", tag.name()), tag.offset),
            Some(Node::End(offset)) => (format!("</{}>", self.current_name()), *offset),
            _ => (format!("</{}>", self.current_name()), self.position()),
        };
        let path = self.path();
        self.report(
            Diagnostic::error(
                Code::MissingElement,
                offset,
                path,
                format!("missing element {expected}"),
            )
            .expected(expected.to_string())
            .found(found),
        );
    }

    /// Ends element-only content: reports and skips every remaining child, then consumes
    /// the end tag.
    pub fn end_children(&mut self) {
        while self.peek_child().is_some() {
            let expected = format!("</{}>", self.current_name());
            self.skip_child(&expected);
        }
        self.consume_end();
    }

    fn consume_end(&mut self) {
        // Callers peek first: the end tag, if it is next, is the peeked node.
        if let Some(Node::End(_)) = self.peeked {
            self.peeked = None;
        }
    }

    /// Skips everything up to and including the current element's end tag.
    fn skip_to_end(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.next_node() {
                Node::Start(tag) => {
                    depth += 1;
                    self.recycle(tag);
                }
                Node::End(_) if depth == 0 => return,
                Node::End(_) => depth -= 1,
                Node::Eof => return,
                Node::Text { .. } => {}
            }
        }
    }

    /// Reads an element that has no attributes and simple content of type `T`.
    pub fn simple_element<T: SimpleValue>(&mut self, tag: &Tag) -> Result<T, Invalid> {
        let attributes = self.attributes(tag);
        let attributes = attributes.finish(self);
        let value = self.simple_content::<T>(tag).map(|(v, _)| v);
        attributes?;
        value
    }

    /// Reads simple content of type `T` up to the end tag; child elements are reported.
    pub fn simple_content<T: SimpleValue>(&mut self, tag: &Tag) -> Result<(T, TextForm), Invalid> {
        // The reader's own buffer, taken for the while (reused from element to element).
        let mut text = std::mem::take(&mut self.content);
        release_large(&mut text);
        text.clear();
        let result = self.gather_simple_content::<T>(tag, &mut text);
        self.content = text;
        result
    }

    fn gather_simple_content<T: SimpleValue>(
        &mut self,
        tag: &Tag,
        text: &mut String,
    ) -> Result<(T, TextForm), Invalid> {
        let mut form = TextForm::Text;
        let mut ok = true;
        loop {
            match self.next_node() {
                Node::Text { cdata, .. } => {
                    if cdata {
                        form = TextForm::CData;
                    }
                    text.push_str(&self.text);
                }
                node @ Node::Start(_) => {
                    self.peeked = Some(node);
                    let expected = format!("text content, then </{}>", tag.name());
                    self.skip_child(&expected);
                    ok = false;
                }
                Node::End(_) => break,
                Node::Eof => return Err(Invalid),
            }
        }
        if !ok {
            return Err(Invalid);
        }
        match T::parse_lexical(text) {
            Ok(v) => Ok((v, form)),
            Err(e) => {
                let path = self.path();
                self.facet_error(
                    e,
                    tag.offset,
                    path,
                    &format!("the content of <{}>", tag.name()),
                    text,
                );
                Err(Invalid)
            }
        }
    }

    /// Reads empty content up to the end tag. XSD 1.0 (Element Locally Valid (Complex
    /// Type) 1.1): an empty content type allows no character children at all, not even
    /// white space (element-only content does allow white space).
    pub fn empty_content(&mut self, tag: &Tag) -> Result<(), Invalid> {
        let mut ok = true;
        loop {
            match self.next_node() {
                // An empty CDATA section adds no characters (the infoset has none).
                Node::Text { .. } if self.text.is_empty() => {}
                Node::Text { offset, .. } => {
                    let path = self.path();
                    let found = format!("\"{}\"", excerpt(&self.text));
                    self.report(
                        Diagnostic::error(
                            Code::UnexpectedText,
                            offset,
                            path,
                            format!("<{}> must be empty", tag.name()),
                        )
                        .expected(format!("<{0}/> or <{0}></{0}>", tag.name()))
                        .found(found),
                    );
                    ok = false;
                }
                node @ Node::Start(_) => {
                    self.peeked = Some(node);
                    let expected = format!("</{}> (the element is empty)", tag.name());
                    self.skip_child(&expected);
                    ok = false;
                }
                Node::End(_) => break,
                Node::Eof => return Err(Invalid),
            }
        }
        if ok {
            Ok(())
        } else {
            Err(Invalid)
        }
    }

    /// The next item of mixed content; `None` once the end tag is consumed.
    pub fn next_mixed(&mut self) -> Option<MixedItem> {
        match self.next_node() {
            Node::Text { cdata: false, .. } => Some(MixedItem::Text(self.text.clone())),
            Node::Text { cdata: true, .. } => Some(MixedItem::CData(self.text.clone())),
            Node::Start(tag) => {
                self.peeked = Some(Node::Start(tag));
                Some(MixedItem::Child)
            }
            Node::End(_) | Node::Eof => None,
        }
    }

    /// The attributes of `tag`, to be taken one by one by the type's declarations.
    pub fn attributes<'t>(&mut self, tag: &'t Tag) -> Attributes<'t> {
        Attributes { tag, used: [0; 4] }
    }

    fn facet_error(&mut self, e: FacetError, offset: usize, path: String, what: &str, value: &str) {
        let message = match &e {
            FacetError::Enumeration { .. } => format!("{what} is not an allowed value"),
            FacetError::Pattern { .. } => format!("{what} does not match the pattern"),
            FacetError::Lexical { expected } => format!("{what} is not a valid {expected}"),
            FacetError::TooSmall { .. }
            | FacetError::TooLarge { .. }
            | FacetError::TotalDigits { .. } => format!("{what} is out of range"),
            FacetError::Length { .. }
            | FacetError::TooShort { .. }
            | FacetError::TooLong { .. } => format!("{what} has the wrong length"),
            FacetError::Union { .. } => format!("{what} fits none of the union's types"),
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

/// A start tag's attributes while a type takes the ones it declares.
pub struct Attributes<'t> {
    /// Borrowed: taking attributes copies nothing. A missing attribute is reported at the
    /// tag's offset.
    tag: &'t Tag,
    /// Which items a declaration took (the reader allows at most 256 attributes).
    used: [u64; 4],
}

/// One attribute of a tag, borrowed.
#[derive(Clone, Copy)]
struct AttrRef<'t> {
    name: &'t str,
    value: &'t str,
    offset: usize,
}

impl<'t> Attributes<'t> {
    fn is_used(&self, i: usize) -> bool {
        self.used[i / 64] & (1 << (i % 64)) != 0
    }

    fn take(&mut self, name: &str) -> Option<AttrRef<'t>> {
        let tag = self.tag;
        let i = (0..tag.attributes.len())
            .find(|&i| !self.is_used(i) && tag.attr_name(&tag.attributes[i]) == name)?;
        self.used[i / 64] |= 1 << (i % 64);
        Some(self.item(i))
    }

    fn item(&self, i: usize) -> AttrRef<'t> {
        let (tag, a) = (self.tag, &self.tag.attributes[i]);
        AttrRef {
            name: tag.attr_name(a),
            value: tag.attr_value(a),
            offset: a.offset,
        }
    }

    fn parse<T: SimpleValue>(r: &mut Reader<'_>, attr: AttrRef<'t>) -> Result<T, Invalid> {
        T::parse_lexical(attr.value).map_err(|e| {
            let path = format!("{}/@{}", r.path(), attr.name);
            r.facet_error(
                e,
                attr.offset,
                path,
                &format!("attribute {}", attr.name),
                attr.value,
            );
            Invalid
        })
    }

    /// A required attribute.
    pub fn required<T: SimpleValue>(
        &mut self,
        r: &mut Reader<'_>,
        name: &str,
    ) -> Result<T, Invalid> {
        match self.take(name) {
            Some(attr) => Self::parse(r, attr),
            None => {
                let path = format!("{}/@{}", r.path(), name);
                let offset = self.tag.offset;
                r.report(
                    Diagnostic::error(
                        Code::MissingAttribute,
                        offset,
                        path,
                        format!("<{}> needs attribute {name}", self.tag.name()),
                    )
                    .expected(format!("{name}=\"...\"")),
                );
                Err(Invalid)
            }
        }
    }

    /// An optional attribute.
    pub fn optional<T: SimpleValue>(
        &mut self,
        r: &mut Reader<'_>,
        name: &str,
    ) -> Result<Option<T>, Invalid> {
        match self.take(name) {
            Some(attr) => Self::parse(r, attr).map(Some),
            None => Ok(None),
        }
    }

    /// An attribute with a fixed value: present or not (as `required` says), it must equal
    /// `fixed` in the type's value space.
    pub fn fixed<T: SimpleValue>(
        &mut self,
        r: &mut Reader<'_>,
        name: &str,
        fixed: &str,
        required: bool,
    ) -> Result<Option<T>, Invalid> {
        let value: Option<T> = if required {
            Some(self.required(r, name)?)
        } else {
            self.optional(r, name)?
        };
        let Some(value) = value else { return Ok(None) };
        let want = T::parse_lexical(fixed)
            .map(|v| v.to_lexical().into_owned())
            .unwrap_or_else(|_| fixed.to_string());
        if value.to_lexical() != want {
            let attr_offset = self
                .tag
                .attributes
                .iter()
                .find(|a| self.tag.attr_name(a) == name)
                .map_or(0, |a| a.offset);
            let path = format!("{}/@{}", r.path(), name);
            r.report(
                Diagnostic::error(
                    Code::FixedValue,
                    attr_offset,
                    path,
                    format!("attribute {name} must be \"{fixed}\""),
                )
                .expected(quote(fixed))
                .found(quote(&value.to_lexical())),
            );
            return Err(Invalid);
        }
        Ok(Some(value))
    }

    /// Reports every attribute no declaration took.
    pub fn finish(self, r: &mut Reader<'_>) -> Result<(), Invalid> {
        let mut ok = true;
        for i in 0..self.tag.attributes.len() {
            if !self.is_used(i) {
                let attr = self.item(i);
                let path = format!("{}/@{}", r.path(), attr.name);
                r.report(
                    Diagnostic::error(
                        Code::UnknownAttribute,
                        attr.offset,
                        path,
                        format!("<{}> has no attribute {}", self.tag.name(), attr.name),
                    )
                    .found(format!(
                        "{}=\"{}\"",
                        attr.name,
                        excerpt(attr.value)
                    )),
                );
                ok = false;
            }
        }
        if ok {
            Ok(())
        } else {
            Err(Invalid)
        }
    }
}

/// Namespaces 1.0, 3: what a namespace declaration may not say (the message and what is
/// expected instead).
fn check_declaration(key: &str, value: &str) -> Result<(), (String, &'static str)> {
    let reserved = |ns: &str| ns == wf::XML_NAMESPACE || ns == wf::XMLNS_NAMESPACE;
    match key.strip_prefix("xmlns:") {
        None if reserved(value) => Err((
            format!("the default namespace may not be {value}"),
            "another namespace name",
        )),
        None => Ok(()),
        Some("xmlns") => Err((
            "the prefix xmlns may not be declared".into(),
            "no declaration of xmlns",
        )),
        Some("xml") if value != wf::XML_NAMESPACE => Err((
            format!("the prefix xml may only be bound to {}", wf::XML_NAMESPACE),
            wf::XML_NAMESPACE,
        )),
        Some("xml") => Ok(()),
        Some(prefix) if reserved(value) => Err((
            format!("the prefix {prefix} may not be bound to {value}, which is reserved"),
            "another namespace name",
        )),
        Some(prefix) if value.is_empty() => Err((
            format!("xmlns:{prefix}=\"\": Namespaces 1.0 does not allow undeclaring a prefix"),
            "a non-empty namespace name",
        )),
        Some(_) => Ok(()),
    }
}

/// The same parser settings for both kinds of input.
fn configure(config: &mut quick_xml::reader::Config) {
    // `<x/>` arrives as one event; the reader hands out its start and end itself.
    config.expand_empty_elements = false;
    config.check_end_names = true;
    config.check_comments = true;
    config.trim_text(false);
}

/// XML 1.0 §2.11: `\r\n` and lone `\r` are read as `\n`.
fn push_normalised(out: &mut String, raw: &str) {
    if !raw.contains('\r') {
        out.push_str(raw);
        return;
    }
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push('\n');
        } else {
            out.push(c);
        }
    }
}

/// The five predefined entities and character references; anything else needs a DTD, which
/// we refuse.
fn resolve_reference(r: &quick_xml::events::BytesRef<'_>) -> Result<char, String> {
    // From the raw bytes: quick-xml's own resolution decodes by the document's declaration
    // when its `encoding` feature is on, and our input is UTF-8 already.
    let name = utf8(r);
    resolve_reference_name(&name)
}

/// Bytes that need no second look in an attribute value: not `<`, `&`, a control
/// character (tab, line ends and the forbidden ones) or 0xEF (which starts U+FFFE/U+FFFF).
const PLAIN_IN_ATTRIBUTE: [bool; 256] = {
    let mut table = [true; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = false;
        b += 1;
    }
    table[b'<' as usize] = false;
    table[b'&' as usize] = false;
    table[0xEF] = false;
    table
};

/// `bytes` as text. Read in place, they are a slice of the source text, so they are taken
/// from it as they are (quick-xml cuts only at ASCII delimiters, which are character
/// boundaries); else they are checked.
fn text_of<'r>(source: Option<&'r str>, bytes: &'r [u8]) -> Cow<'r, str> {
    if let Some(source) = source {
        let start = (bytes.as_ptr() as usize).wrapping_sub(source.as_ptr() as usize);
        if let Some(text) = start
            .checked_add(bytes.len())
            .and_then(|end| source.get(start..end))
        {
            if text.as_ptr() == bytes.as_ptr() {
                return Cow::Borrowed(text);
            }
        }
    }
    utf8(bytes)
}

/// Bytes from the decoder as text: always UTF-8 (the decoder made them), so the check is
/// the fast one; lossy only as a fallback that cannot be reached.
fn utf8(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The character a reference `&name;` stands for: the five predefined entities and
/// character references; anything else needs a DTD, which we refuse.
fn resolve_reference_name(name: &str) -> Result<char, String> {
    // `Some(code)`: a character reference (`None` inside: malformed); `None`: an entity.
    let number = match (name.strip_prefix("#x"), name.strip_prefix('#')) {
        (Some(hex), _) => Some(
            u32::from_str_radix(hex, 16)
                .ok()
                .filter(|_| !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit())),
        ),
        (None, Some(dec)) => Some(
            dec.parse::<u32>()
                .ok()
                .filter(|_| !dec.is_empty() && dec.bytes().all(|b| b.is_ascii_digit())),
        ),
        (None, None) => None,
    };
    match number {
        Some(code) => code
            .and_then(char::from_u32)
            .filter(|c| is_xml_char(*c))
            .ok_or_else(|| format!("invalid character reference &{name};")),
        None => match name {
            "amp" => Ok('&'),
            "lt" => Ok('<'),
            "gt" => Ok('>'),
            "quot" => Ok('"'),
            "apos" => Ok('\''),
            other => Err(format!(
                "undefined entity &{other}; (only the five predefined entities are allowed)"
            )),
        },
    }
}

/// Byte index of the first character XML 1.0 does not allow (control characters other than
/// tab, LF and CR; U+FFFE and U+FFFF). Surrogates cannot occur in a `str`.
fn forbidden_char(s: &str) -> Option<usize> {
    // Fast path: most text has none of the bytes that can start such a character (tab, LF
    // and CR are allowed: the white space between elements must not take the slow path).
    if !s
        .bytes()
        .any(|b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0xEF)
    {
        return None;
    }
    s.char_indices()
        .find(|(_, c)| !is_xml_char(*c))
        .map(|(i, _)| i)
}

fn forbidden_message(rest: &str) -> String {
    let c = rest.chars().next().unwrap_or('\0');
    format!("character U+{:04X} is not allowed in XML", c as u32)
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// XML 1.0 §3.3.3 for CDATA-typed attributes: literal white-space characters become spaces
/// (after line-end normalisation), then references are resolved. Appends to `out`.
fn push_attribute_value(out: &mut String, raw: &str) -> Result<(), String> {
    if !raw.contains(['&', '\t', '\n', '\r']) {
        out.push_str(raw);
        return Ok(());
    }
    let mut rest = raw;
    while let Some(i) = rest.find(['&', '\t', '\n', '\r']) {
        out.push_str(&rest[..i]);
        match rest.as_bytes()[i] {
            b'&' => {
                let end = rest[i..]
                    .find(';')
                    .ok_or_else(|| "an unterminated reference in an attribute value".to_string())?;
                out.push(resolve_reference_name(&rest[i + 1..i + end])?);
                rest = &rest[i + end + 1..];
            }
            // `\r\n` is one line end, hence one space.
            b'\r' if rest.as_bytes().get(i + 1) == Some(&b'\n') => {
                out.push(' ');
                rest = &rest[i + 2..];
            }
            _ => {
                out.push(' ');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
    Ok(())
}

/// Lets a buffer go when one large value grew it: it is reused for every node, and should
/// not pin the memory of the largest for the rest of the document.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::cif;

    /// The text reaching the reader is UTF-8 whatever the declaration says; quick-xml must
    /// not decode it again (it would, by the declaration, with its `encoding` feature on,
    /// which a workspace build turns on through another crate).
    #[test]
    fn a_gbk_declaration_does_not_decode_utf8_text_again() {
        let text = "<?xml version=\"1.0\" encoding=\"GBK\"?><cif><game><moves>炮二平五<marker type=\"text\" color=\"red\" at=\"e4\">帅</marker><![CDATA[吕钦]]></moves></game></cif>";
        let mut r = Reader::new(text);
        let cif::Root::Cif(doc) = r.read_document::<cif::Root>().expect("valid");
        let content = &doc.game[0].moves.content;
        assert_eq!(content[0], cif::MovesContent::Text("炮二平五".into()));
        let cif::MovesContent::Marker(cif::Marker::TextMarker(m)) = &content[1] else {
            panic!("{content:?}")
        };
        assert_eq!(m.content.as_str(), "帅");
        assert_eq!(content[2], cif::MovesContent::CData("吕钦".into()));
    }

    /// `<x/>` is one event; the reader hands out its start and then its end itself, in
    /// order with the text around it, the end placed at the tag, in memory and streamed.
    #[test]
    fn empty_element_tags_end_where_they_stand() {
        let text = "<cif><game><moves>1. e4<marker type=\"full\" color=\"red\" at=\"e4\"/>!<![CDATA[?]]><marker at=\"d5\">parcel</marker></moves></game></cif>";
        for streamed in [false, true] {
            let mut r = if streamed {
                Reader::from_reader(text.as_bytes())
            } else {
                Reader::new(text)
            };
            let cif::Root::Cif(doc) = r.read_document::<cif::Root>().expect("valid");
            let content = &doc.game[0].moves.content;
            assert_eq!(content.len(), 5, "{content:?}");
            assert_eq!(content[0], cif::MovesContent::Text("1. e4".into()));
            assert!(matches!(
                &content[1],
                cif::MovesContent::Marker(cif::Marker::SquareMarker(m)) if m.at.as_str() == "e4"
            ));
            assert_eq!(content[2], cif::MovesContent::Text("!".into()));
            assert_eq!(content[3], cif::MovesContent::CData("?".into()));
        }
        // A missing child is reported at the end of its parent: for `<game/>`, the tag.
        let text = "<cif>\n  <game/>\n</cif>";
        for streamed in [false, true] {
            let mut r = if streamed {
                Reader::from_reader(text.as_bytes())
            } else {
                Reader::new(text)
            };
            assert!(r.read_document::<cif::Root>().is_err());
            let d = &r.diagnostics()[0];
            assert_eq!((d.offset, d.path.as_str()), (8, "/cif/game"), "{d:?}");
            assert!(d.message.contains("moves"), "{d:?}");
        }
    }

    #[test]
    fn paths_name_same_named_siblings_from_the_second_on() {
        let text = "<cif><game><moves/></game><game><moves><arrow color=\"pink\" from=\"a1\" to=\"b2\"/></moves></game></cif>";
        let mut r = Reader::new(text);
        assert!(r.read_document::<cif::Root>().is_err());
        assert_eq!(r.diagnostics()[0].path, "/cif/game[2]/moves/arrow/@color");
    }
}
