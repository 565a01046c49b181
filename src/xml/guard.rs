//! A size guard between the decoder and quick-xml. quick-xml gathers a whole tag (or text
//! run) into its buffer before anything can look at it, so the reader's limits alone would
//! let a 100 MB attribute cost 100 MB. The guard counts bytes since the last markup
//! delimiter as they stream by and stops the input once a tag or a text run passes its
//! limit: memory stays bounded by the limits, not by the file.

use std::io::{BufRead, Read};

/// A tag or text run over its limit, carried through quick-xml as an `io::Error`.
#[derive(Debug, Clone)]
pub struct TooLarge {
    /// Decoded offset where the tag or text started.
    pub offset: usize,
    /// What passed its limit.
    pub message: String,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TooLarge {}

/// A control character XML never allows (U+0000 to U+001F but tab, LF and CR) in text,
/// carried through quick-xml as an `io::Error`: not well-formed wherever it stands, so
/// reading stops there instead of gathering the run around it (a file of NULs would otherwise be
/// read up to the text limit, 64 MiB, before its first byte is refused).
#[derive(Debug, Clone)]
pub struct Forbidden {
    /// Decoded offset of the character.
    pub offset: usize,
    /// The character (a byte: all of them are ASCII).
    pub byte: u8,
}

impl std::fmt::Display for Forbidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "character U+{:04X} is not allowed in XML", self.byte)
    }
}

impl std::error::Error for Forbidden {}

/// Whether `b` is a control character XML forbids.
#[inline]
fn forbidden(b: u8) -> bool {
    b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')
}

/// Notes the first forbidden control character of the text `fresh[from..to]` (whose
/// `fresh[0]` is at offset `base`), unless one is noted already. Only text: the reader
/// checks tags, comments and PIs itself once it has them (a control character in a name is
/// reported as the reader reports it, in place or streamed).
fn note_forbidden(
    noted: &mut Option<Forbidden>,
    fresh: &[u8],
    from: usize,
    to: usize,
    base: usize,
) {
    if noted.is_none() {
        if let Some(i) = find_forbidden(&fresh[from..to]) {
            *noted = Some(Forbidden {
                offset: base + from + i,
                byte: fresh[from + i],
            });
        }
    }
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

/// Wraps decoded input; see the module documentation.
pub struct MarkupGuard<R> {
    inner: R,
    max_tag: usize,
    max_text: usize,
    /// Whether the byte at `scanned` is inside a tag.
    in_tag: bool,
    /// Where the run (tag or text) open at `scanned` started.
    run_start: usize,
    /// Offset of the first byte not yet consumed.
    position: usize,
    /// Offset up to which the input has been scanned for delimiters (each byte once, as it
    /// first comes into the inner buffer: scanning what each event consumed instead cost a
    /// call per event).
    scanned: usize,
    /// The first run over its limit: raised once consumption passes `limit` bytes into it.
    over: Option<(usize, TooLarge)>,
    /// The first forbidden control character: raised once consumption passes it (an event
    /// that ends before the next read is reported by the reader itself, at the same place).
    forbidden: Option<Forbidden>,
    tripped: Option<Tripped>,
}

/// What stopped the input.
#[derive(Debug, Clone)]
enum Tripped {
    TooLarge(TooLarge),
    Forbidden(Forbidden),
}

impl Tripped {
    fn error(&self) -> std::io::Error {
        let kind = std::io::ErrorKind::InvalidData;
        match self {
            Tripped::TooLarge(t) => std::io::Error::new(kind, t.clone()),
            Tripped::Forbidden(f) => std::io::Error::new(kind, f.clone()),
        }
    }
}

impl<R: BufRead> MarkupGuard<R> {
    /// A guard allowing tags of `max_tag` bytes and text runs of `max_text` bytes.
    pub fn new(inner: R, max_tag: usize, max_text: usize) -> Self {
        MarkupGuard {
            inner,
            max_tag,
            max_text,
            in_tag: false,
            run_start: 0,
            position: 0,
            scanned: 0,
            over: None,
            forbidden: None,
            tripped: None,
        }
    }
}

/// Limits and what a run over them is remembered as.
struct Runs {
    max_tag: usize,
    max_text: usize,
}

impl Runs {
    /// Notes a run (a tag if `in_tag`) that started at `start` and is `length` bytes, if it
    /// is over its limit and the first such.
    #[inline]
    fn measure(
        &self,
        over: &mut Option<(usize, TooLarge)>,
        in_tag: bool,
        start: usize,
        length: usize,
    ) {
        let limit = if in_tag { self.max_tag } else { self.max_text };
        if length > limit && over.is_none() {
            let what = if in_tag { "a tag" } else { "a text run" };
            *over = Some((
                start + limit,
                TooLarge {
                    offset: start,
                    message: format!("{what} longer than {limit} bytes"),
                },
            ));
        }
    }
}

impl<R: BufRead> Read for MarkupGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        crate::encoding::read_buffered(self, buf)
    }
}

impl<R: BufRead> BufRead for MarkupGuard<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.tripped.is_none() {
            let too_large = self.over.as_ref().map_or(usize::MAX, |(at, _)| *at);
            let forbidden = self.forbidden.as_ref().map_or(usize::MAX, |f| f.offset);
            // Whichever was passed first (both ends are exclusive).
            if self.position > too_large.min(forbidden) {
                self.tripped = if too_large < forbidden {
                    self.over.take().map(|(_, t)| Tripped::TooLarge(t))
                } else {
                    self.forbidden.take().map(Tripped::Forbidden)
                };
            }
        }
        if let Some(t) = &self.tripped {
            return Err(t.error());
        }
        let (position, scanned) = (self.position, self.scanned);
        let runs = Runs {
            max_tag: self.max_tag,
            max_text: self.max_text,
        };
        let bytes = self.inner.fill_buf()?;
        let end = position + bytes.len();
        if end > scanned {
            // Follow the markup through the new bytes, from delimiter to delimiter.
            let fresh = &bytes[scanned - position..];
            // Forbidden characters are rare: the text runs are searched for them only when
            // the block has one somewhere (one vectorised pass instead of one per run).
            let suspect = self.forbidden.is_none() && find_forbidden(fresh).is_some();
            // Where the text (outside tags) since the last delimiter began, in `fresh`.
            let mut text_from = (suspect && !self.in_tag).then_some(0);
            for i in memchr::memchr2_iter(b'<', b'>', fresh) {
                let at = scanned + i;
                if fresh[i] == b'<' {
                    if let Some(from) = text_from.take() {
                        note_forbidden(&mut self.forbidden, fresh, from, i, scanned);
                    }
                    runs.measure(
                        &mut self.over,
                        self.in_tag,
                        self.run_start,
                        at - self.run_start,
                    );
                    self.in_tag = true;
                    self.run_start = at;
                } else if self.in_tag {
                    // `>` closes a tag; in text it is just a character.
                    runs.measure(
                        &mut self.over,
                        true,
                        self.run_start,
                        at + 1 - self.run_start,
                    );
                    self.in_tag = false;
                    self.run_start = at + 1;
                    if suspect {
                        text_from = Some(i + 1);
                    }
                }
            }
            if let Some(from) = text_from {
                note_forbidden(&mut self.forbidden, fresh, from, fresh.len(), scanned);
            }
            self.scanned = end;
            runs.measure(
                &mut self.over,
                self.in_tag,
                self.run_start,
                end - self.run_start,
            );
        }
        Ok(bytes)
    }

    fn consume(&mut self, amount: usize) {
        self.position += amount;
        self.inner.consume(amount);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_tag_trips_the_guard_before_it_is_buffered() {
        let mut doc = b"<a b=\"".to_vec();
        doc.resize(10_000, b'x');
        let mut guard = MarkupGuard::new(
            std::io::BufReader::with_capacity(64, &doc[..]),
            1_000,
            5_000,
        );
        let mut out = Vec::new();
        let e = guard.read_to_end(&mut out).unwrap_err();
        let t = e.get_ref().unwrap().downcast_ref::<TooLarge>().unwrap();
        assert_eq!(t.offset, 0);
        assert!(
            out.len() < 1_200,
            "stopped soon after the limit: {}",
            out.len()
        );
    }

    /// A run over its limit is caught wherever the buffer boundaries fall, even when it
    /// lies whole inside one buffer, and is reported at its start.
    #[test]
    fn runs_over_the_limit_are_caught_whatever_the_buffer_size() {
        let mut doc = b"<a>".to_vec();
        doc.extend_from_slice(&[b'x'; 300]);
        doc.extend_from_slice(b"<b c=\"");
        doc.extend_from_slice(&[b'y'; 300]);
        doc.extend_from_slice(b"\"/></a>");
        for capacity in [1, 7, 64, 1000, 10_000] {
            // Text over its limit (tags allowed 1000 bytes).
            let mut guard = MarkupGuard::new(
                std::io::BufReader::with_capacity(capacity, &doc[..]),
                1000,
                200,
            );
            let e = guard.read_to_end(&mut Vec::new()).unwrap_err();
            let t = e.get_ref().unwrap().downcast_ref::<TooLarge>().unwrap();
            assert_eq!(
                (t.offset, &*t.message),
                (3, "a text run longer than 200 bytes")
            );
            // The tag over its limit (text allowed).
            let mut guard = MarkupGuard::new(
                std::io::BufReader::with_capacity(capacity, &doc[..]),
                200,
                1000,
            );
            let e = guard.read_to_end(&mut Vec::new()).unwrap_err();
            let t = e.get_ref().unwrap().downcast_ref::<TooLarge>().unwrap();
            assert_eq!(
                (t.offset, &*t.message),
                (303, "a tag longer than 200 bytes")
            );
            // Within both limits: everything passes.
            let mut out = Vec::new();
            MarkupGuard::new(
                std::io::BufReader::with_capacity(capacity, &doc[..]),
                400,
                400,
            )
            .read_to_end(&mut out)
            .unwrap();
            assert_eq!(out, doc);
        }
    }

    #[test]
    fn ordinary_documents_pass() {
        let doc = b"<a b=\"1\">text</a>".repeat(1000);
        let mut out = Vec::new();
        MarkupGuard::new(&doc[..], 100, 100)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, doc);
    }

    /// A NUL at the start of a long run stops the input once it is passed, not at the
    /// run's limit.
    #[test]
    fn a_forbidden_control_character_stops_the_input() {
        let mut doc = vec![0u8; 1 << 20];
        doc[0] = b' ';
        let mut guard = MarkupGuard::new(
            std::io::BufReader::with_capacity(4096, &doc[..]),
            1000,
            usize::MAX,
        );
        let mut out = Vec::new();
        let e = guard.read_to_end(&mut out).unwrap_err();
        let f = e.get_ref().unwrap().downcast_ref::<Forbidden>().unwrap();
        assert_eq!((f.offset, f.byte), (1, 0));
        assert!(out.len() <= 8192, "stopped soon: {}", out.len());
        assert_eq!(find_forbidden(b"a\tb\r\nc"), None);
        let mut long = vec![b'x'; 200];
        long[130] = 0x1F;
        assert_eq!(find_forbidden(&long), Some(130));
    }
}
