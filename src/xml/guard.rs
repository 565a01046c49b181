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
    tripped: Option<TooLarge>,
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
    fn measure(
        &self,
        over: &mut Option<(usize, TooLarge)>,
        in_tag: bool,
        start: usize,
        length: usize,
    ) {
        let (limit, what) = if in_tag {
            (self.max_tag, "a tag")
        } else {
            (self.max_text, "a text run")
        };
        if length > limit && over.is_none() {
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
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for MarkupGuard<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.tripped.is_none() {
            if let Some((at, _)) = &self.over {
                if self.position > *at {
                    self.tripped = self.over.take().map(|(_, t)| t);
                }
            }
        }
        if let Some(t) = &self.tripped {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                t.clone(),
            ));
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
            for i in memchr::memchr2_iter(b'<', b'>', fresh) {
                let at = scanned + i;
                if fresh[i] == b'<' {
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
                }
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
}
