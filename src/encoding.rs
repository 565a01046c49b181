//! Turning a document's bytes into text, in the encoding it declares.
//!
//! CBF of 2007 is GBK, CBF 1.0 is UTF-8 (often with a BOM), and UTF-16 with a BOM is XML's
//! other must-read encoding. The byte order mark wins over a silent declaration; a
//! declaration that contradicts the BOM or the bytes is an error, and so is any byte
//! sequence invalid in the chosen encoding, reported with its byte offset. Nothing is
//! replaced: a validator that turns bad bytes into U+FFFD hides the very problem.

use encoding_rs::{DecoderResult, Encoding, UTF_16BE, UTF_16LE, UTF_8};

use crate::diagnostic::{Code, Diagnostic};

/// A document's text and the encoding it was in.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The text, without the byte order mark.
    pub text: String,
    /// The encoding used (what writing back will use).
    pub encoding: &'static Encoding,
    /// Whether the file started with a byte order mark.
    pub bom: bool,
}

/// Decodes `bytes` whole (for documents already in memory; files are streamed through
/// [`DecodeReader`]).
pub fn decode(bytes: &[u8]) -> Result<Decoded, Diagnostic> {
    use std::io::Read;
    let mut reader = DecodeReader::new(bytes)?;
    let mut out = Vec::with_capacity(bytes.len());
    match reader.read_to_end(&mut out) {
        Ok(_) => {}
        Err(e) => {
            return Err(
                match e
                    .get_ref()
                    .and_then(|inner| inner.downcast_ref::<InvalidBytes>())
                {
                    Some(InvalidBytes(d)) => d.clone(),
                    None => Diagnostic::error(Code::Io, 0, "", format!("cannot read: {e}")),
                },
            )
        }
    }
    let text = String::from_utf8(out).map_err(|_| {
        Diagnostic::error(
            Code::InvalidBytes,
            0,
            "",
            "the decoder produced invalid UTF-8 (a bug)",
        )
    })?;
    Ok(Decoded {
        text,
        encoding: reader.encoding(),
        bom: reader.bom(),
    })
}

/// The encoding of a document from its first bytes, and the length of its byte order mark.
fn choose_encoding(bytes: &[u8]) -> Result<(&'static Encoding, usize), Diagnostic> {
    let (bom_encoding, bom_len) = match Encoding::for_bom(bytes) {
        Some((e, len)) => (Some(e), len),
        None => (None, 0),
    };
    let body = &bytes[bom_len..];
    // UTF-16 without a BOM: the declaration itself is in UTF-16, so sniff `<?` first.
    let sniffed = match body {
        [0x3C, 0x00, 0x3F, 0x00, ..] => Some(UTF_16LE),
        [0x00, 0x3C, 0x00, 0x3F, ..] => Some(UTF_16BE),
        _ => None,
    };
    let declared = declared_encoding(body, bom_encoding.or(sniffed))?;
    let encoding = match (bom_encoding, declared) {
        (Some(bom), Some((label, declared))) => {
            if !same_family(bom, declared) {
                return Err(Diagnostic::error(
                    Code::EncodingMismatch,
                    0,
                    "",
                    format!("the byte order mark says {} but the XML declaration says encoding=\"{label}\"", bom.name()),
                )
                .expected(bom.name())
                .found(label));
            }
            bom
        }
        (Some(bom), None) => bom,
        (None, Some((label, declared))) => {
            if (declared == UTF_16LE || declared == UTF_16BE) && sniffed.is_none() {
                return Err(Diagnostic::error(
                    Code::EncodingMismatch,
                    0,
                    "",
                    format!("the XML declaration says encoding=\"{label}\" but the bytes are not UTF-16 (and there is no byte order mark)"),
                )
                .expected("UTF-16 with a byte order mark")
                .found("single-byte text"));
            }
            if sniffed.is_some() && !(declared == UTF_16LE || declared == UTF_16BE) {
                return Err(Diagnostic::error(
                    Code::EncodingMismatch,
                    0,
                    "",
                    format!(
                        "the bytes are UTF-16 but the XML declaration says encoding=\"{label}\""
                    ),
                ));
            }
            sniffed.unwrap_or(declared)
        }
        (None, None) => sniffed.unwrap_or(UTF_8),
    };
    Ok((encoding, bom_len))
}

/// UTF-16LE and UTF-16BE are both "UTF-16" to a declaration.
fn same_family(a: &'static Encoding, b: &'static Encoding) -> bool {
    a == b || ((a == UTF_16LE || a == UTF_16BE) && (b == UTF_16LE || b == UTF_16BE))
}

/// The encoding named by the XML declaration, if there is one.
fn declared_encoding(
    body: &[u8],
    utf16: Option<&'static Encoding>,
) -> Result<Option<(String, &'static Encoding)>, Diagnostic> {
    // Read the declaration as ASCII: in UTF-16 take every other byte.
    let head: Vec<u8> = match utf16 {
        Some(e) if e == UTF_16LE => body.iter().step_by(2).take(256).copied().collect(),
        Some(e) if e == UTF_16BE => body.iter().skip(1).step_by(2).take(256).copied().collect(),
        _ => body.iter().take(256).copied().collect(),
    };
    if !head.starts_with(b"<?xml") {
        return Ok(None);
    }
    let Some(end) = head.windows(2).position(|w| w == b"?>") else {
        return Ok(None);
    };
    let decl = String::from_utf8_lossy(&head[..end]).into_owned();
    let Some(i) = decl.find("encoding") else {
        return Ok(None);
    };
    let rest = decl[i + "encoding".len()..].trim_start();
    let Some(rest) = rest.strip_prefix('=') else {
        return Ok(None);
    };
    let rest = rest.trim_start();
    let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return Ok(None);
    };
    let Some(close) = rest[1..].find(quote) else {
        return Ok(None);
    };
    let label = rest[1..1 + close].to_string();
    match Encoding::for_label(label.as_bytes()) {
        // encoding_rs maps the WHATWG labels; GB2312 and GBK both decode with the GBK
        // decoder, which also accepts GB18030's four-byte sequences.
        Some(e) => Ok(Some((label, e))),
        None => Err(Diagnostic::error(
            Code::UnsupportedEncoding,
            body.windows(label.len().max(1))
                .position(|w| w == label.as_bytes())
                .unwrap_or(0),
            "",
            format!("unknown or unsupported encoding \"{label}\""),
        )
        .expected("UTF-8, UTF-16, GBK, GB18030 or another WHATWG encoding")
        .found(label)),
    }
}

/// Encodes `text` for writing in `encoding`. Characters the encoding cannot hold become XML
/// character references, which every XML reader turns back into the character: nothing is
/// lost. (The writer never puts such characters in CDATA; see `writer`.)
pub fn encode(text: &str, encoding: &'static Encoding, bom: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 3);
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let le = encoding == UTF_16LE;
        out.extend_from_slice(if le { &[0xFF, 0xFE] } else { &[0xFE, 0xFF] });
        for unit in text.encode_utf16() {
            out.extend_from_slice(&if le {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            });
        }
        return out;
    }
    if encoding == UTF_8 {
        if bom {
            out.extend_from_slice(&[0xEF, 0xBB, 0xBF]);
        }
        out.extend_from_slice(text.as_bytes());
        return out;
    }
    let mut encoder = encoding.new_encoder();
    let mut rest = text;
    loop {
        let mut buf = vec![0u8; rest.len() * 4 + 16];
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(rest, &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        rest = &rest[read..];
        match result {
            encoding_rs::EncoderResult::InputEmpty => break,
            encoding_rs::EncoderResult::Unmappable(c) => {
                out.extend_from_slice(format!("&#x{:X};", c as u32).as_bytes());
            }
            encoding_rs::EncoderResult::OutputFull => {}
        }
    }
    out
}

/// Whether `encoding` can hold `c` (so the writer knows when CDATA is safe).
pub fn can_encode(encoding: &'static Encoding, text: &str) -> bool {
    if encoding == UTF_8 || encoding == UTF_16LE || encoding == UTF_16BE {
        return true;
    }
    let (_, _, unmappable) = encoding.encode(text);
    !unmappable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gbk_as_declared() {
        let (bytes, _, _) =
            encoding_rs::GBK.encode("<?xml version=\"1.0\" encoding=\"GBK\"?><a>吕钦</a>");
        let d = decode(&bytes).unwrap();
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert!(d.text.ends_with("<a>吕钦</a>"));
    }

    #[test]
    fn invalid_bytes_give_their_offset() {
        let mut bytes = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>".to_vec();
        let at = bytes.len();
        bytes.extend_from_slice(&[0xC3, 0x28, b'<', b'/', b'a', b'>']);
        let e = decode(&bytes).unwrap_err();
        assert_eq!(e.code, Code::InvalidBytes);
        assert_eq!(e.offset, at);
    }

    #[test]
    fn bom_contradicting_declaration() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(b"<?xml version=\"1.0\" encoding=\"GBK\"?><a/>");
        assert_eq!(decode(&bytes).unwrap_err().code, Code::EncodingMismatch);
    }

    #[test]
    fn utf16_with_bom() {
        let bytes = encode(
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a>帅</a>",
            UTF_16LE,
            true,
        );
        let d = decode(&bytes).unwrap();
        assert_eq!(d.encoding, UTF_16LE);
        assert!(d.text.ends_with("<a>帅</a>"));
    }

    #[test]
    fn unmappable_characters_become_references() {
        let out = encode("a😀b", encoding_rs::GBK, false);
        assert_eq!(out, b"a&#x1F600;b");
    }
}

/// Bytes invalid in the document's encoding, found while streaming: carried inside an
/// `io::Error` through quick-xml, and turned back into [`Code::InvalidBytes`] by the reader.
#[derive(Debug, Clone)]
pub struct InvalidBytes(pub Diagnostic);

impl std::fmt::Display for InvalidBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for InvalidBytes {}

/// A document decoded to UTF-8 as it is read, in chunks: memory does not grow with the
/// file. The encoding is chosen from the first bytes (byte order mark, XML declaration)
/// exactly as [`decode`] chooses it.
pub struct DecodeReader<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    encoding: &'static Encoding,
    bom: bool,
    input: Vec<u8>,
    in_start: usize,
    in_end: usize,
    /// File offset of `input[0]`, for the offsets of invalid bytes.
    input_offset: usize,
    /// The last (up to 4) bytes before `input_offset`: a malformed sequence the decoder
    /// reports may have begun in an earlier buffer (a UTF-16 lead surrogate, a multi-byte
    /// lead at a chunk's end).
    carry: Vec<u8>,
    eof: bool,
    done: bool,
    output: Vec<u8>,
    out_start: usize,
    out_end: usize,
    /// Invalid bytes found; reported once what decoded before them has been read.
    pending_error: Option<Diagnostic>,
    /// GBK only: how far the bytes were scanned for GB18030 four-byte sequences, the file
    /// offset of a lead byte whose trail is not yet seen, and the first such sequence found.
    gbk_scanned: usize,
    gbk_lead: Option<usize>,
    gbk_four_byte: Option<usize>,
}

const CHUNK: usize = 64 << 10;

impl<R: std::io::Read> DecodeReader<R> {
    /// Sniffs the encoding from the first bytes of `inner` and starts decoding.
    pub fn new(mut inner: R) -> Result<Self, Diagnostic> {
        // Start with the kilobyte the declaration needs: most records are a few KB, and
        // zero-filling 256 KB of buffers per file was a quarter of validating them. The
        // buffers grow while reads keep filling them (see fill_buf).
        let mut input = vec![0u8; 1024];
        let mut filled = 0;
        // The declaration must be within the first kilobyte.
        while filled < 1024 {
            match inner.read(&mut input[filled..1024]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(Diagnostic::error(
                        Code::Io,
                        0,
                        "",
                        format!("cannot read: {e}"),
                    ))
                }
            }
        }
        let (encoding, bom_len) = choose_encoding(&input[..filled])?;
        Ok(DecodeReader {
            inner,
            decoder: encoding.new_decoder_without_bom_handling(),
            encoding,
            bom: bom_len > 0,
            input,
            in_start: bom_len,
            in_end: filled,
            input_offset: 0,
            carry: Vec::new(),
            eof: filled < 1024,
            done: false,
            // Enough for any encoding's UTF-8 (at most 3 bytes per input byte); the decoder
            // stops at OutputFull otherwise, so this is a speed, not a safety, matter.
            output: vec![0u8; 1024 * 3 + 16],
            out_start: 0,
            out_end: 0,
            pending_error: None,
            gbk_scanned: bom_len,
            gbk_lead: None,
            gbk_four_byte: None,
        })
    }

    /// The encoding in use.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Whether the file starts with a byte order mark.
    pub fn bom(&self) -> bool {
        self.bom
    }
}

impl<R> DecodeReader<R> {
    /// Scans GBK bytes up to file offset `upto` for a lead byte (0x81-0xFE) followed by an
    /// ASCII digit: the start of a GB18030 four-byte sequence. Returns its file offset.
    fn scan_gbk(&mut self, upto: usize) -> Option<usize> {
        while self.gbk_scanned < upto {
            let b = self
                .bytes_at(self.gbk_scanned, self.gbk_scanned + 1)
                .first()
                .copied()?;
            match self.gbk_lead.take() {
                Some(lead) if b.is_ascii_digit() => return Some(lead),
                Some(_) => {}
                None if (0x81..=0xFE).contains(&b) => self.gbk_lead = Some(self.gbk_scanned),
                None => {}
            }
            self.gbk_scanned += 1;
        }
        None
    }

    /// The file's bytes in `start..end` that are still at hand (the buffer, or the few
    /// carried over from the one before).
    fn bytes_at(&self, start: usize, end: usize) -> Vec<u8> {
        (start..end)
            .filter_map(|at| match at.checked_sub(self.input_offset) {
                Some(i) if i < self.in_end => self.input.get(i).copied(),
                Some(_) => None,
                None => {
                    let back = self.input_offset - at;
                    self.carry.len().checked_sub(back).map(|i| self.carry[i])
                }
            })
            .collect()
    }
}

impl<R: std::io::Read> std::io::Read for DecodeReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::io::BufRead;
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: std::io::Read> std::io::BufRead for DecodeReader<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        loop {
            if self.out_start < self.out_end {
                return Ok(&self.output[self.out_start..self.out_end]);
            }
            if let Some(d) = self.pending_error.take() {
                self.done = true;
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    InvalidBytes(d),
                ));
            }
            if self.done {
                return Ok(&[]);
            }
            if !self.eof {
                // Keep the undecoded tail (at most an incomplete character) at the front.
                self.carry
                    .extend_from_slice(&self.input[self.in_start.saturating_sub(4)..self.in_start]);
                let cut = self.carry.len().saturating_sub(4);
                self.carry.drain(..cut);
                self.input.copy_within(self.in_start..self.in_end, 0);
                self.input_offset += self.in_start;
                self.in_end -= self.in_start;
                self.in_start = 0;
                // No room (the head filled the first buffer): grow before reading, or a
                // zero-length read would look like the end of the file.
                if self.in_end == self.input.len() {
                    let len =
                        (self.input.len() * 4).clamp(1024, CHUNK.max(self.input.len() + 1024));
                    self.input.resize(len, 0);
                    self.output.resize(len * 3 + 16, 0);
                }
                let space = self.input.len() - self.in_end;
                let n = loop {
                    match self.inner.read(&mut self.input[self.in_end..]) {
                        Ok(n) => break n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e),
                    }
                };
                self.in_end += n;
                self.eof = n == 0;
                // A read that filled the buffer: a large file; grow towards CHUNK.
                if n == space && self.input.len() < CHUNK {
                    let len = (self.input.len() * 4).min(CHUNK);
                    self.input.resize(len, 0);
                    self.output.resize(len * 3 + 16, 0);
                }
            }
            let from = self.in_start;
            // encoding_rs's GBK decoder is the WHATWG one, which also reads GB18030's
            // four-byte sequences; GBK itself has none (and the GBK writer cannot keep
            // them). Decode only up to the first one; it is reported as invalid bytes.
            let mut end = self.in_end;
            if self.encoding == encoding_rs::GBK {
                if self.gbk_four_byte.is_none() {
                    self.gbk_four_byte = self.scan_gbk(self.input_offset + self.in_end);
                }
                if let Some(at) = self.gbk_four_byte {
                    end = at
                        .saturating_sub(self.input_offset)
                        .clamp(from, self.in_end);
                }
            }
            let last = self.eof && end == self.in_end;
            let (result, read, written) = self.decoder.decode_to_utf8_without_replacement(
                &self.input[from..end],
                &mut self.output,
                last,
            );
            self.in_start += read;
            self.out_start = 0;
            self.out_end = written;
            if let (Some(at), DecoderResult::InputEmpty) = (self.gbk_four_byte, &result) {
                if self.in_start >= end {
                    let shown = self.bytes_at(at, at + 4);
                    self.pending_error = Some(invalid_bytes(self.encoding, at, &shown).expected(
                        "GBK (a GB18030 four-byte sequence needs encoding=\"GB18030\")".to_string(),
                    ));
                    continue;
                }
            }
            match result {
                DecoderResult::InputEmpty => self.done = self.eof,
                DecoderResult::OutputFull => {}
                DecoderResult::Malformed(bad, after) => {
                    // File offsets: the sequence may have begun before this buffer.
                    let end = self.input_offset + from + read - after as usize;
                    let start = end.saturating_sub(bad as usize);
                    let shown: Vec<u8> = (start..end)
                        .filter_map(|at| match at.checked_sub(self.input_offset) {
                            Some(i) => self.input.get(i).copied(),
                            None => {
                                let back = self.input_offset - at;
                                self.carry.len().checked_sub(back).map(|i| self.carry[i])
                            }
                        })
                        .collect();
                    self.pending_error = Some(invalid_bytes(self.encoding, start, &shown));
                }
            }
        }
    }

    fn consume(&mut self, amount: usize) {
        self.out_start = (self.out_start + amount).min(self.out_end);
    }
}

fn invalid_bytes(encoding: &'static Encoding, offset: usize, bad: &[u8]) -> Diagnostic {
    let shown: Vec<String> = bad.iter().map(|b| format!("{b:02X}")).collect();
    Diagnostic::error(
        Code::InvalidBytes,
        offset,
        "",
        format!(
            "bytes {} at byte offset {offset} are not valid {}",
            shown.join(" "),
            encoding.name()
        ),
    )
    .expected(format!("valid {}", encoding.name()))
    .found(shown.join(" "))
}

#[cfg(test)]
mod streaming_tests {
    use super::*;
    use std::io::Read;

    /// Reads one byte at a time: every chunk boundary falls inside some character.
    struct Trickle<'a>(&'a [u8]);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() || buf.is_empty() {
                return Ok(0);
            }
            buf[0] = self.0[0];
            self.0 = &self.0[1..];
            Ok(1)
        }
    }

    #[test]
    fn chunk_boundaries_inside_characters_decode_the_same() {
        let text = format!(
            "<?xml version=\"1.0\" encoding=\"GBK\"?><a>{}</a>",
            "吕钦许银川".repeat(30_000)
        );
        let (bytes, _, _) = encoding_rs::GBK.encode(&text);
        let mut out = String::new();
        DecodeReader::new(Trickle(&bytes))
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, text);
    }

    #[test]
    fn invalid_bytes_late_in_a_large_file_give_their_offset() {
        let mut bytes = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 300_000));
        let at = bytes.len();
        bytes.extend_from_slice(&[0xFF, b'<', b'/', b'a', b'>']);
        let mut out = Vec::new();
        let e = DecodeReader::new(&bytes[..])
            .unwrap()
            .read_to_end(&mut out)
            .unwrap_err();
        let d = &e
            .get_ref()
            .unwrap()
            .downcast_ref::<InvalidBytes>()
            .unwrap()
            .0;
        assert_eq!(d.offset, at);
        assert_eq!(out.len(), at, "everything before the bad byte was read");
    }

    fn gb18030_in(declared: &str) -> (Vec<u8>, usize) {
        let mut bytes = format!("<?xml version=\"1.0\" encoding=\"{declared}\"?><a>").into_bytes();
        bytes.extend_from_slice(&[0xC2, 0xC0]); // 吕, a GBK pair
        let at = bytes.len();
        bytes.extend_from_slice(&[0x81, 0x30, 0x81, 0x30]); // U+0080 in GB18030's four bytes
        bytes.extend_from_slice(b"</a>");
        (bytes, at)
    }

    #[test]
    fn a_gb18030_four_byte_sequence_is_not_gbk() {
        let (bytes, at) = gb18030_in("GBK");
        let e = decode(&bytes).unwrap_err();
        assert_eq!((e.code, e.offset), (Code::InvalidBytes, at));
        assert_eq!(e.found.as_deref(), Some("81 30 81 30"));
        // Read one byte at a time, the lead and its digit arrive in different reads.
        let mut out = String::new();
        let err = DecodeReader::new(Trickle(&bytes))
            .unwrap()
            .read_to_string(&mut out)
            .unwrap_err();
        let d = &err
            .get_ref()
            .unwrap()
            .downcast_ref::<InvalidBytes>()
            .unwrap()
            .0;
        assert_eq!(d.offset, at);
    }

    #[test]
    fn declared_gb18030_reads_four_byte_sequences() {
        let (bytes, _) = gb18030_in("GB18030");
        let d = decode(&bytes).unwrap();
        assert!(d.text.ends_with("<a>吕\u{80}</a>"), "{}", d.text);
    }
}
