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
    in_tag: bool,
    run_start: usize,
    position: usize,
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
            tripped: None,
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
        if let Some(t) = &self.tripped {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                t.clone(),
            ));
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        // What is consumed was just handed out by fill_buf; look at it again (no I/O: the
        // inner buffer still holds it) to follow the markup, jumping from delimiter to
        // delimiter.
        if let Ok(bytes) = self.inner.fill_buf() {
            let chunk = &bytes[..amount.min(bytes.len())];
            for i in memchr::memchr2_iter(b'<', b'>', chunk) {
                if chunk[i] == b'<' {
                    self.in_tag = true;
                    self.run_start = self.position + i;
                } else if self.in_tag {
                    // `>` closes a tag; in text it is just a character.
                    self.in_tag = false;
                    self.run_start = self.position + i + 1;
                }
            }
            self.position += chunk.len();
            let run = self.position - self.run_start;
            let (limit, what) = if self.in_tag {
                (self.max_tag, "a tag")
            } else {
                (self.max_text, "a text run")
            };
            if run > limit && self.tripped.is_none() {
                self.tripped = Some(TooLarge {
                    offset: self.run_start,
                    message: format!("{what} longer than {limit} bytes"),
                });
            }
        }
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
