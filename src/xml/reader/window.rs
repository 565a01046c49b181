//! Streamed input read in place: the decoded text comes into a window, a buffer that
//! holds the events not yet read, and quick-xml reads the events where they stand, as in
//! text in memory (no copy of each event into a second buffer, no guard in front of the
//! parser counting bytes on their way to it).
//!
//! The parser borrows the window's buffer, so the two are kept together ([`Cell`]). An
//! event that reaches the window's end may be cut there (text goes on, a tag is not
//! closed): the window then drops what has been read, takes more of the input (at least
//! as much again as the cut event holds, so that an event is parsed a bounded number of
//! times) and a new parser starts at the event, in the state a parser is in between
//! events. Never past the size limits: a tag or a text run over its limit is refused where
//! it starts, before it is read whole. What quick-xml checks with its parser's own memory
//! (end tags against their start tags) is checked here, with quick-xml's errors, as a
//! parser lives for one window only.

use std::io::BufRead;

use quick_xml::errors::{Error, IllFormedError, SyntaxError};
use quick_xml::events::{BytesText, Event};

/// The same parser settings for both kinds of input.
pub(super) fn configure(config: &mut quick_xml::reader::Config) {
    // `<x/>` arrives as one event; the reader hands out its start and end itself.
    config.expand_empty_elements = false;
    config.check_end_names = true;
    config.check_comments = true;
    config.trim_text(false);
}

/// quick-xml reading a window's text in place.
type SliceReader<'t> = quick_xml::Reader<&'t [u8]>;

self_cell::self_cell!(
    /// A window's text and the parser reading it. The text is whole characters (checked
    /// once as it comes in), so an event's bytes are cut from it as text at no cost.
    pub(super) struct Cell {
        owner: String,
        #[covariant]
        dependent: SliceReader,
    }
);

impl Cell {
    fn over(text: String) -> Cell {
        Cell::new(text, |t| {
            let mut xml = quick_xml::Reader::from_reader(t.as_bytes());
            let config = xml.config_mut();
            configure(config);
            // Checked by the window, which outlives the parser (`Names`).
            config.check_end_names = false;
            config.allow_unmatched_ends = true;
            xml
        })
    }
}

/// How much the window takes from the input at a time: the decoder's own chunk.
pub(super) const STEP: usize = 64 << 10;

/// What the window holds: the text not yet read, the parser over it, the input behind.
pub(super) struct Window<'a> {
    input: Box<dyn BufRead + 'a>,
    /// `None` only while an event is being read (see [`Window::take`]).
    cell: Option<Cell>,
    /// What the reader of an event needs to know of the window.
    pub(super) state: State,
    /// An error of the input (bytes the decoder refused), raised once the text before it
    /// has been read.
    failed: Option<std::io::Error>,
    /// The open elements' names as written.
    names: Names,
    /// Where the event being read ends, while the parser is out (see [`Window::take`]).
    pub(super) read_to: usize,
}

/// The window's facts an event is read with.
#[derive(Debug, Clone, Copy)]
pub(super) struct State {
    /// The offset in the text of the window's first byte.
    pub(super) base: usize,
    /// The most bytes taken from the input at a time.
    step: usize,
    /// The input has ended (or failed).
    eof: bool,
    /// The input failed after the window's text.
    failed: bool,
    /// The parser is new: it has read nothing of the window yet.
    fresh: bool,
}

/// The names of the open elements as written, for quick-xml's end-tag check.
#[derive(Debug, Default)]
pub(super) struct Names {
    text: Vec<u8>,
    starts: Vec<usize>,
}

/// What reading an event came to.
pub(super) enum Read<'t> {
    /// An event, and the offset where it starts.
    Event(Event<'t>, usize),
    /// Text the parser could not be given (it begins with U+FEFF, which a new parser
    /// drops as a byte order mark): the event, its offset, and where in the window the
    /// parser must start again after it.
    Beside(Event<'t>, usize, usize),
    /// Malformed input at the offset.
    Error(Error, usize),
    /// The input failed (its error is raised by [`Window::failure`]) where the event at
    /// the offset was cut.
    Failed(usize),
    /// Markup (a tag, a comment ...: `true`) or a text run that started at the offset is
    /// over its limit.
    TooLarge(usize, bool),
    /// A control character XML forbids, at the offset, in text too long for one step.
    Forbidden(usize, u8),
    /// The event at this index of the window may be cut at its end: the window must take
    /// at least so many bytes more.
    More(usize, usize),
}

impl<'a> Window<'a> {
    /// A window over `input`, taking at most `step` bytes from it at a time (a small step
    /// lets tests put window ends everywhere).
    pub(super) fn new(input: Box<dyn BufRead + 'a>, step: usize) -> Self {
        Window {
            input,
            cell: Some(Cell::over(String::new())),
            state: State {
                base: 0,
                step: step.max(1),
                eof: false,
                failed: false,
                fresh: true,
            },
            failed: None,
            names: Names::default(),
            read_to: 0,
        }
    }

    /// The offset of the next event (while an event is being read: where it ends).
    pub(super) fn position(&self) -> usize {
        match &self.cell {
            Some(cell) => self.state.base + cell.borrow_dependent().buffer_position() as usize,
            None => self.read_to,
        }
    }

    /// The parser and its text, and the names of the open elements, taken out while an
    /// event is read (the event borrows the text; the reader needs itself whole to take
    /// it in): given back with [`Window::put`].
    pub(super) fn take(&mut self) -> (Cell, Names) {
        let cell = self
            .cell
            .take()
            .unwrap_or_else(|| Cell::over(String::new()));
        (cell, std::mem::take(&mut self.names))
    }

    /// The parser back, after an event was read: it is no longer new.
    pub(super) fn put(&mut self, cell: Cell, names: Names) {
        self.cell = Some(cell);
        self.names = names;
        self.state.fresh = false;
    }

    /// The names back, when the parser is started again ([`Window::restart`]).
    pub(super) fn names_back(&mut self, names: Names) {
        self.names = names;
    }

    /// The input's error, once: where [`Read::Failed`] says.
    pub(super) fn failure(&mut self) -> Option<std::io::Error> {
        self.failed.take()
    }

    /// Starts a new parser at `from` in the window (what precedes it is dropped), after
    /// taking at least `at_least` bytes more of the input (unless it ends). An error of
    /// the input is kept until the text before it has been read.
    pub(super) fn restart(&mut self, cell: Cell, from: usize, at_least: usize) {
        let mut text = cell.into_owner().into_bytes();
        let from = from.min(text.len());
        text.drain(..from);
        self.state.base += from;
        // A huge event is let go once read, rather than kept for the rest of the document.
        if text.capacity() > 4 * STEP && text.len() < STEP {
            text.shrink_to(2 * STEP);
        }
        let mut added = 0;
        while added < at_least && !self.state.eof {
            match self.input.fill_buf() {
                Ok([]) => self.state.eof = true,
                Ok(chunk) => {
                    let n = whole_characters(chunk, self.state.step);
                    text.extend_from_slice(&chunk[..n]);
                    self.input.consume(n);
                    added += n;
                }
                Err(e) => self.fail(e),
            }
        }
        // One check of the new text (the rest was checked as it came in). The decoder
        // hands out UTF-8, so this fails only for an input that broke its promise: the
        // text up to the fault is read, then the input fails there.
        let text = match String::from_utf8(text) {
            Ok(text) => text,
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let mut bytes = e.into_bytes();
                bytes.truncate(valid);
                let message = "the decoded input is not UTF-8";
                self.fail(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    message,
                ));
                String::from_utf8(bytes).unwrap_or_default()
            }
        };
        self.cell = Some(Cell::over(text));
        self.state.fresh = true;
    }

    /// The input failed: it ends here, its error raised once the text before is read.
    fn fail(&mut self, error: std::io::Error) {
        self.state.eof = true;
        self.state.failed = true;
        self.failed.get_or_insert(error);
    }
}

/// How many bytes of `chunk` to take, at most `step` unless one character is longer: the
/// window takes whole characters only.
fn whole_characters(chunk: &[u8], step: usize) -> usize {
    if chunk.len() <= step {
        return chunk.len();
    }
    // Back to the start of the character the step ends in (a continuation byte is
    // 0b10xx_xxxx); if that is the chunk's start, on to the end of its first character.
    let mut n = step;
    while n > 0 && chunk[n] & 0xC0 == 0x80 {
        n -= 1;
    }
    if n == 0 {
        n = 1;
        while n < chunk.len() && chunk[n] & 0xC0 == 0x80 {
            n += 1;
        }
    }
    n
}

/// Reads the next event of the window's `text` with its parser `xml`: the event, or what
/// stands in its way. `limits` are the size limits of markup and of a text run.
pub(super) fn read<'t>(
    text: &'t [u8],
    xml: &mut SliceReader<'t>,
    state: State,
    names: &mut Names,
    limits: (usize, usize),
) -> Read<'t> {
    let start = (xml.buffer_position() as usize).min(text.len());
    let at = state.base + start;
    let rest = &text[start..];
    // A new parser takes a byte order mark where it starts as the input's own and drops
    // it; anywhere but at the very start it is a character (U+FEFF) of the text.
    if state.fresh && at > 0 && rest.starts_with("\u{FEFF}".as_bytes()) {
        let end = memchr::memchr2(b'<', b'&', rest).unwrap_or(rest.len());
        if end == rest.len() && !state.eof {
            return more(rest, start, state, limits);
        }
        return match std::str::from_utf8(&rest[..end]) {
            Ok(t) => Read::Beside(Event::Text(BytesText::from_escaped(t)), at, start + end),
            // The decoder hands out whole characters: only a failed input cuts one.
            Err(_) => Read::Failed(at),
        };
    }
    let (cut, outcome) = match xml.read_event() {
        Ok(event) => {
            let end = xml.buffer_position() as usize;
            let cut = matches!(event, Event::Text(_) | Event::Eof) && end == text.len();
            (cut, Ok((event, end - start)))
        }
        Err(e) => (at_end(&e, rest), Err((e, xml.error_position() as usize))),
    };
    if cut && !state.eof {
        return more(rest, start, state, limits);
    }
    if cut && state.failed {
        // Cut by bytes the decoder refused: they are what is wrong.
        return Read::Failed(at);
    }
    match outcome {
        Ok((event, used)) => {
            let markup = rest.first() == Some(&b'<');
            if used > if markup { limits.0 } else { limits.1 } {
                return Read::TooLarge(at, markup);
            }
            match names.check(&event) {
                Ok(()) => Read::Event(event, at),
                Err(e) => Read::Error(e, at),
            }
        }
        Err((e, offset)) => Read::Error(e, state.base + offset),
    }
}

/// The event at `start` of the window (its bytes so far `rest`) may be cut at the window's
/// end: how much more to take, unless it is over its limit already.
fn more(rest: &[u8], start: usize, state: State, limits: (usize, usize)) -> Read<'static> {
    let at = state.base + start;
    let pending = rest.len();
    let markup = rest.first() == Some(&b'<');
    let limit = if markup { limits.0 } else { limits.1 };
    if pending > limit {
        return Read::TooLarge(at, markup);
    }
    if !markup && pending > state.step {
        // Text longer than a step: a forbidden character in it ends reading now, not once
        // the run has been read to its limit.
        if let Some(i) = find_forbidden(rest) {
            return Read::Forbidden(at + i, rest[i]);
        }
    }
    // As much again as the event holds (so that it is parsed a bounded number of times),
    // but no more than tells whether it passes its limit.
    let want = pending.max(state.step).min(limit + 1 - pending);
    Read::More(start, want)
}

/// Whether `b` is a control character XML forbids.
#[inline]
fn forbidden(b: u8) -> bool {
    b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')
}

/// The index of the first forbidden control character in `bytes`: tested a block at a
/// time without branching (vectorised), searched only in a block that has one.
fn find_forbidden(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    for block in bytes.chunks(64) {
        if block.iter().fold(false, |any, &b| any | forbidden(b)) {
            return block.iter().position(|&b| forbidden(b)).map(|i| at + i);
        }
        at += block.len();
    }
    None
}

/// Whether the error `e` of the event at the start of `rest` may only be the window's end
/// cutting it (with more text it may parse).
fn at_end(e: &Error, rest: &[u8]) -> bool {
    match e {
        // `<!` and the window's end: what follows tells.
        Error::Syntax(SyntaxError::InvalidBangMarkup) => rest.len() < 3,
        Error::Syntax(_) => true,
        // `&name` without `;`: cut if nothing ends it before the window's end.
        Error::IllFormed(IllFormedError::UnclosedReference) => {
            memchr::memchr3(b';', b'&', b'<', rest.get(1..).unwrap_or_default()).is_none()
        }
        _ => false,
    }
}

impl Names {
    /// quick-xml's end-tag check: a start pushes its name, an end must close the
    /// innermost (the same errors as quick-xml's own check).
    fn check(&mut self, event: &Event<'_>) -> Result<(), Error> {
        match event {
            Event::Start(start) => {
                self.starts.push(self.text.len());
                self.text.extend_from_slice(start.name().as_ref());
            }
            Event::End(end) => {
                let name = end.name();
                let found = || String::from_utf8_lossy(name.as_ref()).into_owned();
                let Some(open) = self.starts.pop() else {
                    return Err(Error::IllFormed(IllFormedError::UnmatchedEndTag(found())));
                };
                if &self.text[open..] != name.as_ref() {
                    let expected = String::from_utf8_lossy(&self.text[open..]).into_owned();
                    self.text.truncate(open);
                    return Err(Error::IllFormed(IllFormedError::MismatchedEndTag {
                        expected,
                        found: found(),
                    }));
                }
                self.text.truncate(open);
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every event of `text`, read through a window taking `step` bytes at a time, as
    /// (offset, debug form), up to the end or the first error.
    fn events(text: &str, step: usize, limits: (usize, usize)) -> Vec<(usize, String)> {
        let mut w = Window::new(Box::new(text.as_bytes()), step);
        let mut out = Vec::new();
        loop {
            let (mut cell, mut names) = w.take();
            let state = w.state;
            let (found, restart) = cell.with_dependent_mut(|text, xml| {
                match read(text.as_bytes(), xml, state, &mut names, limits) {
                    Read::More(from, want) => (None, Some((from, want))),
                    Read::Event(Event::Eof, _) => (Some(None), None),
                    Read::Event(e, at) => (Some(Some((at, format!("{e:?}")))), None),
                    Read::Beside(e, at, end) => {
                        (Some(Some((at, format!("{e:?}")))), Some((end, 0)))
                    }
                    Read::Error(e, at) => (Some(Some((at, format!("error {e}")))), None),
                    Read::Failed(at) => (Some(Some((at, "failed".into()))), None),
                    Read::TooLarge(at, m) => {
                        (Some(Some((at, format!("too large, markup: {m}")))), None)
                    }
                    Read::Forbidden(at, b) => (Some(Some((at, format!("forbidden {b}")))), None),
                }
            });
            match restart {
                Some((from, want)) => {
                    w.names_back(names);
                    w.restart(cell, from, want);
                }
                None => w.put(cell, names),
            }
            match found {
                None => continue,
                Some(None) => break,
                Some(Some(item)) => {
                    let last = !item.1.starts_with(|c: char| c.is_ascii_uppercase());
                    out.push(item);
                    if last {
                        break;
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_window_takes_whole_characters_only() {
        let text = "a\u{e9}\u{4e2d}\u{1F600}b".as_bytes();
        // Every step ends on a character's boundary, and no character is left out.
        for step in 1..=text.len() {
            let mut at = 0;
            while at < text.len() {
                let n = whole_characters(&text[at..], step);
                assert!(n > 0, "step {step}: nothing taken at {at}");
                assert!(
                    std::str::from_utf8(&text[at..at + n]).is_ok(),
                    "step {step} at {at}"
                );
                assert!(n <= step.max(4), "step {step}: {n} bytes taken");
                at += n;
            }
        }
    }

    #[test]
    fn events_are_the_same_whatever_the_window_ends() {
        for text in [
            "<a x=\"1 &amp; 2\">t &lt; u<!-- c --><?p i?><![CDATA[d]]><b/>\u{FEFF}v</a>",
            "<?xml version=\"1.0\"?>\n<r>\r\n  <s>one</s><s>two&#x20;three</s>\n</r>\n",
            "<a><b></a>",
            "<a></b>",
            "</a>",
            "<a>x &am",
            "<a><!x></a>",
            "<a>text",
        ] {
            let whole = events(text, 1 << 20, (1 << 20, 1 << 20));
            assert!(!whole.is_empty(), "{text:?}");
            for step in 1..12 {
                let by_step = events(text, step, (1 << 20, 1 << 20));
                assert_eq!(by_step, whole, "{text:?} by {step}");
            }
        }
    }

    #[test]
    fn text_keeps_a_byte_order_mark_inside_and_references_come_apart() {
        // The text after the reference starts with U+FEFF: a parser made there would drop it.
        let found = events("<a>t &amp;\u{FEFF}v</a>", 2, (1 << 20, 1 << 20));
        let shown: Vec<&str> = found.iter().map(|(_, e)| e.as_str()).collect();
        assert_eq!(shown.len(), 5, "{found:?}");
        assert!(shown[2].starts_with("GeneralRef"), "{found:?}");
        assert!(shown[3].contains("0xEF0xBB0xBFv"), "{found:?}");
        assert_eq!(found[3].0, 10, "{found:?}");
        // Mismatched and unmatched end tags, as quick-xml reports them.
        let found = events("<a><b></a>", 3, (1 << 20, 1 << 20));
        assert!(
            found.last().unwrap().1.contains("expected `</b>`"),
            "{found:?}"
        );
        let found = events("</a>", 3, (1 << 20, 1 << 20));
        assert!(found.last().unwrap().1.starts_with("error"), "{found:?}");
    }

    #[test]
    fn a_run_over_its_limit_is_refused_where_it_starts() {
        let text = format!("<a>{}</a>", "x".repeat(5000));
        let found = events(&text, 64, (100, 1000));
        assert_eq!(
            found.last().unwrap(),
            &(3, "too large, markup: false".to_string())
        );
        let text = format!("<a b=\"{}\"/>", "x".repeat(5000));
        let found = events(&text, 64, (100, 1000));
        assert_eq!(found, [(0, "too large, markup: true".to_string())]);
        let text = format!("<a>{}\u{0}{}</a>", "x".repeat(300), "x".repeat(5000));
        let found = events(&text, 64, (100, 1000));
        assert_eq!(found.last().unwrap(), &(303, "forbidden 0".to_string()));
    }
}
