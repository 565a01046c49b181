//! The event source: quick-xml over text in memory (events borrow from it) or over a
//! stream (read in place in a window of it, see `window`), turned into
//! the reader's nodes. Character data arriving in pieces is gathered into runs here, and
//! every event is checked as XML 1.0 requires before it counts.

use quick_xml::events::Event;

use super::text::{
    forbidden_char, forbidden_message, push_normalised, resolve_reference, text_of, utf8,
};
use super::window::{self, Read, Window};
use super::{excerpt, release_large, Node, Reader};
use crate::diagnostic::Code;
use crate::xml::{decl, wf};

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
pub(super) struct Run {
    cdata: bool,
    offset: usize,
}

/// Where events come from.
pub(super) enum Events<'a> {
    /// A stream: its text comes into a window, where events are read in place (see
    /// `window`).
    Stream(Window<'a>),
    /// Text in memory: events borrow from it, nothing is copied and no guard is needed
    /// (an event costs no memory beyond the text; the reader's own limits still apply).
    Slice(quick_xml::Reader<&'a [u8]>),
}

impl Reader<'_> {
    /// Where quick-xml stands in the input (the offset of the next event).
    pub(super) fn position(&self) -> usize {
        match &self.xml {
            Events::Stream(window) => window.position(),
            Events::Slice(xml) => xml.buffer_position() as usize,
        }
    }

    /// The next node, with malformed input turned into a fatal diagnostic. A text node's
    /// text is in `self.text` until the next call.
    #[inline]
    pub(super) fn next_node(&mut self) -> Node {
        self.next_node_with(false)
    }

    /// [`Reader::next_node`]; with `skip_blank`, a run of white space (which element-only
    /// content ignores) followed by a tag is not handed out: the tag comes at once, without
    /// the text node and the detour through `peeked`.
    pub(super) fn next_node_with(&mut self, skip_blank: bool) -> Node {
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
            let cdata = match self.read_step(before) {
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
            if let Some(node) = self.add_piece(&mut run, cdata, before) {
                return node;
            }
        }
    }

    /// Reads the next event, at `before`, and what it means.
    #[inline]
    fn read_step(&mut self, before: usize) -> Step {
        match &mut self.xml {
            Events::Stream(_) => self.read_window_step(),
            Events::Slice(xml) => match xml.read_event() {
                Ok(event) => self.step(event, before, self.source),
                Err(error) => {
                    let at = xml.error_position() as usize;
                    self.read_error(error, at);
                    Step::Stop(Node::Eof)
                }
            },
        }
    }

    /// [`Reader::read_step`] of a stream: the next event read in place in the window,
    /// which takes more of the input as needed.
    fn read_window_step(&mut self) -> Step {
        let limits = self.limits;
        // A tag may hold its attributes at their limits.
        let max_tag =
            limits.max_attribute + limits.max_attributes * limits.max_name + limits.max_name;
        loop {
            let Events::Stream(window) = &mut self.xml else {
                return Step::Stop(Node::Eof);
            };
            // The event borrows the window's text: the parser is taken out of the window
            // while the event is read into the reader's own buffers.
            let (mut cell, mut names) = window.take();
            let state = window.state;
            let (step, restart, failed) = cell.with_dependent_mut(|text, xml| {
                // The window holds whole characters: events are cut from it as text
                // without a check of their own.
                let source = Some(text.as_str());
                let text = text.as_bytes();
                let read = window::read(text, xml, state, &mut names, (max_tag, limits.max_text));
                // Where the event ends, for the reader's position while the parser is out.
                let read_to = match &read {
                    Read::Beside(_, _, end) => state.base + end,
                    _ => state.base + xml.buffer_position() as usize,
                };
                if let Events::Stream(window) = &mut self.xml {
                    window.read_to = read_to;
                }
                match read {
                    Read::Event(event, at) => (Some(self.step(event, at, source)), None, None),
                    Read::Beside(event, at, end) => {
                        (Some(self.step(event, at, source)), Some((end, 0)), None)
                    }
                    Read::More(from, want) => (None, Some((from, want)), None),
                    Read::Failed(at) => (None, None, Some(at)),
                    Read::Error(error, at) => {
                        self.read_error(error, at);
                        (Some(Step::Stop(Node::Eof)), None, None)
                    }
                    Read::TooLarge(at, markup) => {
                        let (what, limit) = if markup {
                            ("a tag", max_tag)
                        } else {
                            ("a text run", limits.max_text)
                        };
                        let message = format!("{what} longer than {limit} bytes");
                        self.fatal_error(Code::LIMIT, at, message);
                        (Some(Step::Stop(Node::Eof)), None, None)
                    }
                    Read::Forbidden(at, byte) => {
                        let message = format!("character U+{byte:04X} is not allowed in XML");
                        self.fatal_error(Code::MALFORMED, at, message);
                        (Some(Step::Stop(Node::Eof)), None, None)
                    }
                }
            });
            let Events::Stream(window) = &mut self.xml else {
                return Step::Stop(Node::Eof);
            };
            match restart {
                Some((from, want)) => {
                    window.names_back(names);
                    window.restart(cell, from, want);
                }
                None => window.put(cell, names),
            }
            if let Some(at) = failed {
                let error = window.failure();
                match error {
                    Some(e) => self.read_error(quick_xml::Error::Io(e.into()), at),
                    None => self.fatal_error(Code::MALFORMED, at, "the input failed".into()),
                }
                return Step::Stop(Node::Eof);
            }
            if let Some(step) = step {
                return step;
            }
        }
    }

    /// Adds the piece in `self.piece` (CDATA or not, at `before`) to the run being
    /// gathered; the node to hand out when the piece ends the run (it changes the kind:
    /// it is carried over) or makes the text too long.
    #[inline]
    fn add_piece(&mut self, run: &mut Option<Run>, cdata: bool, before: usize) -> Option<Node> {
        match *run {
            Some(r) if r.cdata == cdata => self.text.push_str(&self.piece),
            Some(done) => {
                self.carry_text.clear();
                self.carry_text.push_str(&self.piece);
                self.carry = Some(Run {
                    cdata,
                    offset: before,
                });
                return Some(self.text_node(done));
            }
            None => {
                // The first piece of a run (most runs have one): take it, no copy.
                std::mem::swap(&mut self.text, &mut self.piece);
                *run = Some(Run {
                    cdata,
                    offset: before,
                })
            }
        }
        if self.text.len() > self.limits.max_text {
            let at = run.map_or(before, |r| r.offset);
            self.fatal_error(
                Code::LIMIT,
                at,
                format!("text longer than {} bytes", self.limits.max_text),
            );
            return Some(Node::Eof);
        }
        None
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
    fn read_error(&mut self, error: quick_xml::Error, at: usize) {
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
                .and_then(|e| e.downcast_ref::<crate::xml::limit::TooLarge>())
            {
                let (offset, message) = (t.offset, t.message.clone());
                self.fatal_error(Code::LIMIT, offset, message);
                return;
            }
        }
        // A DOCTYPE whose end quick-xml does not find (its internal subset can hold `>` in
        // quotes) is refused as a DOCTYPE all the same.
        if let quick_xml::Error::Syntax(quick_xml::errors::SyntaxError::UnclosedDoctype) = error {
            self.fatal_error(
                Code::DOCTYPE,
                at,
                "a DOCTYPE is not allowed: boardxml reads no DTDs and expands no entities".into(),
            );
            return;
        }
        self.fatal_error(Code::MALFORMED, at, format!("not well-formed XML: {error}"));
    }

    /// What one event means for the node being gathered. `source`: the text the event's
    /// bytes are cut from, if it is known (see [`text_of`]).
    fn step(&mut self, event: Event<'_>, before: usize, source: Option<&str>) -> Step {
        let first = !self.started;
        self.started = true;
        match event {
            Event::Text(t) => {
                // The input is UTF-8 already (our decoder ran first). Never `decode()`: with
                // quick-xml's `encoding` feature (which another crate of a build may turn on) it
                // would decode again by the document's declaration, e.g. GBK.
                let raw = text_of(source, &t);
                self.text_piece(&raw, before)
            }
            Event::CData(c) => {
                let raw = text_of(source, &c);
                self.cdata_piece(&raw, before)
            }
            Event::GeneralRef(r) => self.reference(&r, before),
            Event::Comment(c) => {
                let raw = text_of(source, &c);
                self.comment(&raw, before)
            }
            Event::PI(pi) => {
                let raw = text_of(source, &pi);
                self.processing_instruction(&raw, before)
            }
            Event::Decl(d) => {
                let raw = text_of(source, &d);
                self.declaration(&raw, first, before)
            }
            Event::DocType(d) => {
                let raw = text_of(source, &d);
                // quick-xml cuts the white space after `<!DOCTYPE` (and takes none): what
                // stood between it and the name is the tag's length less the rest.
                let spaced = self
                    .position()
                    .checked_sub(before + "<!DOCTYPE>".len() + d.len())
                    .is_some_and(|gap| gap > 0);
                if super::doctype::external_only(&raw).is_some() && spaced {
                    let note = crate::diagnostic::Diagnostic::new(
                        crate::diagnostic::Severity::Note,
                        Code::EXTERNAL_DTD,
                        before,
                        "",
                        "the DOCTYPE names an external DTD, which was neither fetched nor applied: the document is read as it stands, by its schema",
                    )
                    .found(format!("<!DOCTYPE {}>", excerpt(&raw)));
                    self.report(note);
                    return Step::Skip;
                }
                self.fatal_error(
                    Code::DOCTYPE,
                    before,
                    "a DOCTYPE is not allowed: boardxml reads no DTDs and expands no entities"
                        .into(),
                );
                Step::Stop(Node::Eof)
            }
            Event::Start(start) => {
                self.last_start = before;
                match self.start_tag(&start, before, source) {
                    Some(tag) => Step::Node(Node::Start(tag)),
                    None => Step::Stop(Node::Eof),
                }
            }
            Event::Empty(start) => {
                self.last_start = before;
                match self.start_tag(&start, before, source) {
                    Some(tag) => {
                        self.pending_end = true;
                        Step::Node(Node::Start(tag))
                    }
                    None => Step::Stop(Node::Eof),
                }
            }
            Event::End(_) => Step::Node(self.close_element(before)),
            Event::Eof => self.end_of_input(before),
        }
    }

    /// A piece of text at `before`: allowed characters, no `]]>`; line ends normalised.
    #[inline]
    fn text_piece(&mut self, raw: &str, before: usize) -> Step {
        if !wf::plain_text(raw) {
            if let Some(at) = forbidden_char(raw) {
                self.fatal_error(Code::MALFORMED, before + at, forbidden_message(&raw[at..]));
                return Step::Stop(Node::Eof);
            }
            if let Some(at) = wf::cdata_end_in_text(raw) {
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
        push_normalised(&mut self.piece, raw);
        Step::Piece(false)
    }

    /// A CDATA section's content, whose `<![CDATA[` is at `before`.
    fn cdata_piece(&mut self, raw: &str, before: usize) -> Step {
        if let Some(at) = forbidden_char(raw) {
            self.fatal_error(
                Code::MALFORMED,
                before + "<![CDATA[".len() + at,
                forbidden_message(&raw[at..]),
            );
            return Step::Stop(Node::Eof);
        }
        self.piece.clear();
        push_normalised(&mut self.piece, raw);
        Step::Piece(true)
    }

    /// A reference `&...;` at `before`: the character it stands for, inside the root.
    fn reference(&mut self, r: &quick_xml::events::BytesRef<'_>, before: usize) -> Step {
        // XML 1.0 [1] document ::= prolog element Misc*: no character data outside the
        // root, and a reference is character data even when it stands for a space.
        if self.depth == 0 {
            let found = format!("&{};", utf8(r));
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
            return Step::Stop(Node::Eof);
        }
        match resolve_reference(r) {
            Ok(c) => {
                self.piece.clear();
                self.piece.push(c);
                Step::Piece(false)
            }
            Err(message) => {
                self.fatal_error(Code::MALFORMED, before, message);
                Step::Stop(Node::Eof)
            }
        }
    }

    /// A comment whose `<!--` is at `before`: skipped once its characters are checked.
    fn comment(&mut self, raw: &str, before: usize) -> Step {
        if let Some(at) = forbidden_char(raw) {
            let message = format!("in a comment: {}", forbidden_message(&raw[at..]));
            self.fatal_error(Code::MALFORMED, before + "<!--".len() + at, message);
            return Step::Stop(Node::Eof);
        }
        Step::Skip
    }

    /// A processing instruction at `before`: skipped once its target and characters are
    /// checked.
    fn processing_instruction(&mut self, raw: &str, before: usize) -> Step {
        if let Some((at, message)) = wf::check_pi(raw) {
            let found = format!("<?{}", excerpt(raw));
            self.malformed(
                before + 2 + at,
                message,
                "<?target ...?> with a name other than xml as target",
                found,
            );
            return Step::Stop(Node::Eof);
        }
        if let Some(at) = forbidden_char(raw) {
            let message = format!(
                "in a processing instruction: {}",
                forbidden_message(&raw[at..])
            );
            self.fatal_error(Code::MALFORMED, before + 2 + at, message);
            return Step::Stop(Node::Eof);
        }
        Step::Skip
    }

    /// An XML declaration at `before` (`first`: the first event of the input): only at
    /// the very start, within its limit, and well-formed.
    fn declaration(&mut self, raw: &str, first: bool, before: usize) -> Step {
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
                format!("<?{}?>", excerpt(raw)),
            );
            return Step::Stop(Node::Eof);
        }
        if raw.len() > decl::MAX_DECLARATION {
            self.fatal_error(
                Code::LIMIT,
                before,
                format!(
                    "an XML declaration longer than {} bytes",
                    decl::MAX_DECLARATION
                ),
            );
            return Step::Stop(Node::Eof);
        }
        if let Err(e) = decl::parse(raw.as_bytes()) {
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

    /// The end of the input, at `before`.
    fn end_of_input(&mut self, before: usize) -> Step {
        // quick-xml ends quietly with elements still open; XML calls that malformed.
        if self.depth > 0 {
            let open = self.current_name().to_string();
            self.fatal_error(
                Code::MALFORMED,
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
