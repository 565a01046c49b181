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
    let (text, encoding, bom) = decode_borrowing(bytes)?;
    Ok(Decoded {
        text: text.into_owned(),
        encoding,
        bom,
    })
}

/// [`decode`] without a copy where there need be none: valid UTF-8 text (most documents) is
/// borrowed from `bytes`. Returns the text, the encoding and whether there was a BOM.
pub fn decode_borrowing(
    bytes: &[u8],
) -> Result<(std::borrow::Cow<'_, str>, &'static Encoding, bool), Diagnostic> {
    use std::io::BufRead;
    // The sniffing sees the kilobyte DecodeReader sees, so it chooses alike.
    let (encoding, bom_len) = choose_encoding(&bytes[..bytes.len().min(SNIFF)])?;
    if encoding == UTF_8 {
        if let Ok(text) = std::str::from_utf8(&bytes[bom_len..]) {
            return Ok((text.into(), encoding, bom_len > 0));
        }
    }
    // Other encodings in one call (encoding_rs decodes a whole buffer as its streaming
    // decoder would, ASCII runs at SIMD speed), when the bytes are valid and, for GBK, hold
    // no GB18030 four-byte sequence; anything else, and the diagnostic for bad bytes, comes
    // from the streaming reader.
    if encoding != UTF_8 {
        let body = &bytes[bom_len..];
        if encoding != encoding_rs::GBK || first_gb18030_four_byte(body).is_none() {
            if let Some(text) = encoding.decode_without_bom_handling_and_without_replacement(body) {
                return Ok((text, encoding, bom_len > 0));
            }
        }
    }
    let mut reader = DecodeReader::new(bytes)?;
    let mut text = String::with_capacity(bytes.len());
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) => break,
            Ok(chunk) => chunk,
            Err(e) => {
                return Err(
                    match e
                        .get_ref()
                        .and_then(|inner| inner.downcast_ref::<InvalidBytes>())
                    {
                        Some(InvalidBytes(d)) => d.clone(),
                        None => Diagnostic::error(Code::IO, 0, "", format!("cannot read: {e}")),
                    },
                )
            }
        };
        // The reader hands out whole characters.
        text.push_str(std::str::from_utf8(chunk).map_err(|_| {
            Diagnostic::error(
                Code::INVALID_BYTES,
                0,
                "",
                "the decoder produced invalid UTF-8 (a bug)",
            )
        })?);
        let n = chunk.len();
        reader.consume(n);
    }
    Ok((text.into(), reader.encoding(), reader.bom()))
}

/// Where the first GB18030 four-byte sequence starts in GBK bytes: a lead byte (0x81-0xFE)
/// followed by an ASCII digit (what [`DecodeReader`] looks for, buffer by buffer).
fn first_gb18030_four_byte(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < bytes.len() {
        // Eight ASCII bytes at a time: most of a record is markup.
        if let Some(word) = bytes.get(i..i + 8) {
            let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
            if word & 0x8080_8080_8080_8080 == 0 {
                i += 8;
                continue;
            }
        }
        if (0x81..=0xFE).contains(&bytes[i]) {
            if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                return Some(i);
            }
            // A lead's trail byte is never a lead itself.
            i += 2;
        } else {
            i += 1;
        }
    }
    None
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
                    Code::ENCODING_MISMATCH,
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
            let utf16 = declared == UTF_16LE || declared == UTF_16BE;
            match sniffed {
                None if utf16 => {
                    return Err(Diagnostic::error(
                        Code::ENCODING_MISMATCH,
                        0,
                        "",
                        format!("the XML declaration says encoding=\"{label}\" but the bytes are not UTF-16 (and there is no byte order mark)"),
                    )
                    .expected("UTF-16 with a byte order mark")
                    .found("single-byte text"));
                }
                None => declared,
                Some(order) => {
                    // XML 1.0 Appendix F: `3C 00 3F 00` / `00 3C 00 3F` tell a 16-bit
                    // encoding, and the declaration must say which. 4.3.3: UTF-16 must
                    // begin with a byte order mark; UTF-16LE and UTF-16BE (which have none)
                    // are read when declared, in the byte order the bytes show.
                    let explicit = label.eq_ignore_ascii_case("UTF-16LE")
                        || label.eq_ignore_ascii_case("UTF-16BE");
                    if !(utf16 && explicit && declared == order) {
                        return Err(utf16_without_bom(order, Some(&label)));
                    }
                    order
                }
            }
        }
        (None, None) => match sniffed {
            Some(order) => return Err(utf16_without_bom(order, None)),
            None => UTF_8,
        },
    };
    Ok((encoding, bom_len))
}

/// E0103 for UTF-16 bytes (by Appendix F's autodetection) without a byte order mark whose
/// declaration does not name their byte order (`label`: the encoding declared, if any).
fn utf16_without_bom(order: &'static Encoding, label: Option<&str>) -> Diagnostic {
    let found = match label {
        Some(label) => format!("encoding=\"{label}\" and no byte order mark"),
        None => "no encoding declared and no byte order mark".to_string(),
    };
    Diagnostic::error(
        Code::ENCODING_MISMATCH,
        0,
        "",
        format!(
            "the bytes are {} without a byte order mark: UTF-16 must begin with one (XML 1.0 4.3.3), or the declaration must say encoding=\"{}\"",
            order.name(),
            order.name()
        ),
    )
    .expected(format!(
        "a byte order mark, or encoding=\"{}\"",
        order.name()
    ))
    .found(found)
}

/// UTF-16LE and UTF-16BE are both "UTF-16" to a declaration.
fn same_family(a: &'static Encoding, b: &'static Encoding) -> bool {
    a == b || ((a == UTF_16LE || a == UTF_16BE) && (b == UTF_16LE || b == UTF_16BE))
}

/// The encoding named by the XML declaration, if there is one, with the label as written.
///
/// The whole declaration is read, however much white space pads it (up to
/// [`MAX_DECLARATION`](crate::xml::decl::MAX_DECLARATION) bytes). A declaration that is
/// not well-formed names no encoding here: the reader reports it (E0101) where it stands.
fn declared_encoding(
    body: &[u8],
    utf16: Option<&'static Encoding>,
) -> Result<Option<(String, &'static Encoding)>, Diagnostic> {
    use crate::xml::decl;
    let limit = decl::MAX_DECLARATION;
    // Read the declaration as ASCII: in UTF-16 take every other byte.
    let head: std::borrow::Cow<'_, [u8]> = match utf16 {
        Some(e) if e == UTF_16LE => body.iter().step_by(2).take(limit).copied().collect(),
        Some(e) if e == UTF_16BE => body
            .iter()
            .skip(1)
            .step_by(2)
            .take(limit)
            .copied()
            .collect(),
        _ => std::borrow::Cow::Borrowed(&body[..body.len().min(limit)]),
    };
    let Some(end) = decl::content_end(&head) else {
        return Ok(None);
    };
    let Ok(parsed) = decl::parse(&head[2..end]) else {
        return Ok(None);
    };
    let Some(label) = parsed.encoding else {
        return Ok(None);
    };
    let label = String::from_utf8_lossy(label).into_owned();
    match Encoding::for_label(label.as_bytes()) {
        // encoding_rs maps the WHATWG labels; GB2312 and GBK both decode with the GBK
        // decoder, which also accepts GB18030's four-byte sequences.
        Some(e) => Ok(Some((label, e))),
        None => Err(Diagnostic::error(
            Code::UNSUPPORTED_ENCODING,
            memchr::memmem::find(body, label.as_bytes()).unwrap_or(0),
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
        assert_eq!(e.code, Code::INVALID_BYTES);
        assert_eq!(e.offset, at);
    }

    #[test]
    fn bom_contradicting_declaration() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(b"<?xml version=\"1.0\" encoding=\"GBK\"?><a/>");
        assert_eq!(decode(&bytes).unwrap_err().code, Code::ENCODING_MISMATCH);
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
/// `io::Error` through quick-xml, and turned back into [`Code::INVALID_BYTES`] by the reader.
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
///
/// UTF-8 documents (most of them) are not decoded at all: their bytes are checked in place
/// and handed out from the input buffer, so the reader reads the file once and copies
/// nothing.
pub struct DecodeReader<R> {
    inner: R,
    /// `None` on the UTF-8 path, which needs no decoder.
    decoder: Option<encoding_rs::Decoder>,
    encoding: &'static Encoding,
    bom: bool,
    /// The bytes at hand; its length is how far the file has been read into it.
    input: Vec<u8>,
    in_start: usize,
    /// UTF-8 only: `input[in_start..checked]` is valid UTF-8 not yet consumed, and
    /// `input[checked..]` (at most an incomplete character, once the reader has caught
    /// up) has not been checked yet.
    checked: usize,
    /// File offset of `input[0]`, for the offsets of invalid bytes.
    input_offset: usize,
    /// Decoder path: the last (up to 4) bytes before `input_offset`. A malformed sequence
    /// the decoder reports may have begun in an earlier buffer (a UTF-16 lead surrogate, a
    /// multi-byte lead at a chunk's end), and it keeps no copy of those bytes. (The UTF-8
    /// path keeps an incomplete character in `input` instead.)
    carry: Vec<u8>,
    eof: bool,
    done: bool,
    /// Decoder path: the decoded text, handed out from `out_start`.
    output: String,
    out_start: usize,
    /// Invalid bytes found; reported once what decoded before them has been read.
    pending_error: Option<Diagnostic>,
    /// GBK only: how far the bytes were scanned for GB18030 four-byte sequences, the file
    /// offset of a lead byte whose trail is not yet seen, and the first such sequence found.
    gbk_scanned: usize,
    gbk_lead: Option<usize>,
    gbk_four_byte: Option<usize>,
}

/// The input buffer's size once past the declaration: large enough that a file costs few
/// reads, small enough that memory stays flat however large the file.
const CHUNK: usize = 64 << 10;

/// The first read: the declaration is within the first kilobyte in nearly every document.
const HEAD: usize = 1024;

/// How far the encoding is looked for when a declaration is still open after [`HEAD`]
/// bytes: the longest declaration, in UTF-16, after a BOM (within one input buffer).
const SNIFF: usize = 2 * crate::xml::decl::MAX_DECLARATION + 8;

/// Whether `head` (the first bytes, BOM included) starts an XML declaration that does not
/// end within it (in UTF-8 or either UTF-16).
fn declaration_open(head: &[u8]) -> bool {
    let body = match Encoding::for_bom(head) {
        Some((_, len)) => &head[len..],
        None => head,
    };
    let (start, end): (&[u8], &[u8]) = match body {
        [b'<', 0, b'?', 0, ..] => (b"<\0?\0x\0m\0l\0", b"?\0>\0"),
        [0, b'<', 0, b'?', ..] => (b"\0<\0?\0x\0m\0l", b"\0?\0>"),
        _ => (b"<?xml", b"?>"),
    };
    body.starts_with(start) && memchr::memmem::find(body, end).is_none()
}

impl<R: std::io::Read> DecodeReader<R> {
    /// Sniffs the encoding from the first bytes of `inner` and starts decoding.
    pub fn new(inner: R) -> Result<Self, Diagnostic> {
        Self::with_utf8_path(inner, true)
    }

    /// `utf8_in_place: false` sends UTF-8 through encoding_rs like the other encodings: the
    /// tests hold the in-place path to what the decoder reports.
    fn with_utf8_path(mut inner: R, utf8_in_place: bool) -> Result<Self, Diagnostic> {
        use std::io::Read;
        // Reserved, not zero-filled: a record of a few KB touches only the pages it fills,
        // and the buffer never has to grow.
        let mut input = Vec::with_capacity(CHUNK);
        let io_error =
            |e: std::io::Error| Diagnostic::error(Code::IO, 0, "", format!("cannot read: {e}"));
        (&mut inner)
            .take(HEAD as u64)
            .read_to_end(&mut input)
            .map_err(io_error)?;
        let mut eof = input.len() < HEAD;
        // A declaration padded past the first kilobyte is read whole (up to its limit).
        if !eof && declaration_open(&input) {
            let want = SNIFF - input.len();
            let n = (&mut inner)
                .take(want as u64)
                .read_to_end(&mut input)
                .map_err(io_error)?;
            eof = n < want;
        }
        let (encoding, bom_len) = choose_encoding(&input)?;
        let decoder = (encoding != UTF_8 || !utf8_in_place)
            .then(|| encoding.new_decoder_without_bom_handling());
        Ok(DecodeReader {
            inner,
            decoder,
            encoding,
            bom: bom_len > 0,
            eof,
            input,
            in_start: bom_len,
            checked: bom_len,
            input_offset: 0,
            carry: Vec::new(),
            done: false,
            output: String::new(),
            out_start: 0,
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

    /// Moves what is left from `in_start` (nothing, an incomplete UTF-8 character, or the
    /// start of a GB18030 sequence being reported) to the front of the buffer and reads
    /// after it, up to `CHUNK` bytes in all.
    fn refill(&mut self) -> std::io::Result<()> {
        use std::io::Read;
        if self.decoder.is_some() {
            self.carry
                .extend_from_slice(&self.input[self.in_start.saturating_sub(4)..self.in_start]);
            let cut = self.carry.len().saturating_sub(4);
            self.carry.drain(..cut);
        } else {
            self.checked -= self.in_start;
        }
        self.input.drain(..self.in_start);
        self.input_offset += self.in_start;
        self.in_start = 0;
        let want = CHUNK.saturating_sub(self.input.len());
        debug_assert!(want > 0, "refilled with the buffer still full");
        // `read_to_end` reads into the reserved capacity without zero-filling it, and `take`
        // keeps it from growing the buffer past CHUNK.
        let n = (&mut self.inner)
            .take(want as u64)
            .read_to_end(&mut self.input)?;
        self.eof = n < want;
        Ok(())
    }

    /// What ends a fill that found nothing ready: the invalid bytes next (reported once, the
    /// stream ending after them), or the end reached before.
    #[inline]
    fn stopped(&mut self) -> Option<std::io::Result<()>> {
        if let Some(d) = self.pending_error.take() {
            self.done = true;
            return Some(Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                InvalidBytes(d),
            )));
        }
        self.done.then_some(Ok(()))
    }

    /// UTF-8: checks the bytes read until some are ready to hand out, or the end, or invalid
    /// bytes are next.
    #[inline(never)]
    fn fill_utf8(&mut self) -> std::io::Result<()> {
        loop {
            if self.in_start < self.checked {
                return Ok(());
            }
            if let Some(end) = self.stopped() {
                return end;
            }
            if self.checked < self.input.len() {
                match std::str::from_utf8(&self.input[self.checked..]) {
                    Ok(_) => self.checked = self.input.len(),
                    Err(e) => {
                        let bad = self.checked + e.valid_up_to();
                        self.checked = bad;
                        // Rust's `error_len` is the maximal subpart, as encoding_rs reports
                        // it; `None` is a character cut short by the buffer's end, bad only
                        // if the file ends there too.
                        let len = match e.error_len() {
                            Some(len) => Some(len),
                            None if self.eof => Some(self.input.len() - bad),
                            None => None,
                        };
                        if let Some(len) = len {
                            self.pending_error = Some(invalid_bytes(
                                self.encoding,
                                self.input_offset + bad,
                                &self.input[bad..bad + len],
                            ));
                        }
                    }
                }
                if self.in_start < self.checked || self.pending_error.is_some() {
                    continue;
                }
            }
            if self.eof {
                self.done = true;
            } else {
                self.refill()?;
            }
        }
    }

    /// Other encodings (and UTF-8 in the tests): encoding_rs decodes into `output`.
    #[inline(never)]
    fn fill_decoded(&mut self) -> std::io::Result<()> {
        loop {
            if self.out_start < self.output.len() {
                return Ok(());
            }
            if let Some(end) = self.stopped() {
                return end;
            }
            if self.in_start == self.input.len() && !self.eof {
                self.refill()?;
            }
            let from = self.in_start;
            let in_end = self.input.len();
            // encoding_rs's GBK decoder is the WHATWG one, which also reads GB18030's
            // four-byte sequences; GBK itself has none (and the GBK writer cannot keep
            // them). Decode only up to the first one; it is reported as invalid bytes.
            let mut end = in_end;
            if self.encoding == encoding_rs::GBK {
                if self.gbk_four_byte.is_none() {
                    self.gbk_four_byte = self.scan_gbk();
                }
                if let Some(at) = self.gbk_four_byte {
                    end = at.saturating_sub(self.input_offset).clamp(from, in_end);
                }
            }
            let last = self.eof && end == in_end;
            self.output.clear();
            self.out_start = 0;
            // Room for any encoding's UTF-8 (at most 3 bytes per input byte); the decoder
            // stops at OutputFull otherwise, so this is a speed, not a safety, matter. The
            // decoder writes into the reserved capacity: nothing is zero-filled.
            self.output.reserve((end - from) * 3 + 16);
            let decoder = self
                .decoder
                .as_mut()
                .expect("the decoder path has a decoder");
            let (result, read) = decoder.decode_to_string_without_replacement(
                &self.input[from..end],
                &mut self.output,
                last,
            );
            self.in_start += read;
            if let (Some(at), DecoderResult::InputEmpty) = (self.gbk_four_byte, &result) {
                if self.in_start >= end {
                    // Show the four bytes even when the last have not been read yet, so
                    // the report does not depend on where reads happened to end.
                    while self.bytes_at(at, at + 4).len() < 4 && !self.eof {
                        self.refill()?;
                    }
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
                    let shown = self.bytes_at(start, end);
                    self.pending_error = Some(invalid_bytes(self.encoding, start, &shown));
                }
            }
        }
    }
}

impl<R> DecodeReader<R> {
    /// Scans the GBK bytes read since the last call for a lead byte (0x81-0xFE) followed by
    /// an ASCII digit: the start of a GB18030 four-byte sequence. Returns its file offset.
    fn scan_gbk(&mut self) -> Option<usize> {
        // This runs over every byte of a GBK file: straight over the buffer, no copies.
        // Every buffer is scanned whole before it is decoded, and refilled only once
        // decoded, so what is left to scan is all in `input` (a pending lead is remembered).
        debug_assert!(self.gbk_scanned >= self.input_offset);
        let from = self.gbk_scanned.saturating_sub(self.input_offset);
        for (i, &b) in self.input[from..].iter().enumerate() {
            let at = self.input_offset + from + i;
            match self.gbk_lead.take() {
                Some(lead) if b.is_ascii_digit() => {
                    self.gbk_scanned = at;
                    return Some(lead);
                }
                // A lead's trail byte is never a lead itself.
                Some(_) => {}
                None if (0x81..=0xFE).contains(&b) => self.gbk_lead = Some(at),
                None => {}
            }
        }
        self.gbk_scanned = self.input_offset + self.input.len();
        None
    }

    /// The file's bytes in `start..end` that are still at hand (the buffer, or the few
    /// carried over from the one before).
    fn bytes_at(&self, start: usize, end: usize) -> Vec<u8> {
        (start..end)
            .filter_map(|at| match at.checked_sub(self.input_offset) {
                Some(i) => self.input.get(i).copied(),
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
        read_buffered(self, buf)
    }
}

/// `Read::read` of a reader that is read through its buffer (`BufRead`): what is in the
/// buffer, as much as `buf` holds.
pub(crate) fn read_buffered(
    source: &mut impl std::io::BufRead,
    buf: &mut [u8],
) -> std::io::Result<usize> {
    let available = source.fill_buf()?;
    let n = available.len().min(buf.len());
    buf[..n].copy_from_slice(&available[..n]);
    source.consume(n);
    Ok(n)
}

impl<R: std::io::Read> std::io::BufRead for DecodeReader<R> {
    // The reader's window calls this for every chunk it takes, and nearly always bytes are
    // waiting: that test stays small enough to inline, the refilling out of line.
    #[inline]
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.decoder.is_none() {
            if self.in_start >= self.checked {
                self.fill_utf8()?;
            }
            Ok(&self.input[self.in_start..self.checked])
        } else {
            if self.out_start >= self.output.len() {
                self.fill_decoded()?;
            }
            Ok(&self.output.as_bytes()[self.out_start..])
        }
    }

    #[inline]
    fn consume(&mut self, amount: usize) {
        if self.decoder.is_none() {
            self.in_start = (self.in_start + amount).min(self.checked);
        } else {
            self.out_start = (self.out_start + amount).min(self.output.len());
        }
    }
}

fn invalid_bytes(encoding: &'static Encoding, offset: usize, bad: &[u8]) -> Diagnostic {
    let shown: Vec<String> = bad.iter().map(|b| format!("{b:02X}")).collect();
    Diagnostic::error(
        Code::INVALID_BYTES,
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

    /// The offset of the invalid bytes a read stopped at.
    fn invalid_at(e: &std::io::Error) -> usize {
        let inner = e.get_ref().expect("an error of the decoder");
        let InvalidBytes(d) = inner.downcast_ref().expect("invalid bytes");
        d.offset
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
        assert_eq!(invalid_at(&e), at);
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
        assert_eq!((e.code, e.offset), (Code::INVALID_BYTES, at));
        assert_eq!(e.found.as_deref(), Some("81 30 81 30"));
        // Read one byte at a time, the lead and its digit arrive in different reads.
        let mut out = String::new();
        let err = DecodeReader::new(Trickle(&bytes))
            .unwrap()
            .read_to_string(&mut out)
            .unwrap_err();
        assert_eq!(invalid_at(&err), at);
    }

    #[test]
    fn declared_gb18030_reads_four_byte_sequences() {
        let (bytes, _) = gb18030_in("GB18030");
        let d = decode(&bytes).unwrap();
        assert!(d.text.ends_with("<a>吕\u{80}</a>"), "{}", d.text);
    }

    /// Reads in the given sizes, over and over: chunk boundaries fall anywhere, inside
    /// characters and inside bad sequences.
    struct Chunked<'a> {
        data: &'a [u8],
        sizes: Vec<usize>,
        next: usize,
    }

    impl<'a> Chunked<'a> {
        fn new(data: &'a [u8], sizes: &[usize]) -> Self {
            Chunked {
                data,
                sizes: sizes.to_vec(),
                next: 0,
            }
        }
    }

    impl Read for Chunked<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let want = self.sizes[self.next % self.sizes.len()];
            self.next += 1;
            let n = want.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// What a reader hands out, and the invalid bytes it stops at. `step` consumes that
    /// much of each chunk at a time (all of it when `None`, and then every chunk must be
    /// whole characters, as quick-xml and the line counter see them).
    fn drain(mut r: impl std::io::BufRead, step: Option<usize>) -> (Vec<u8>, Option<Diagnostic>) {
        let mut out = Vec::new();
        loop {
            match r.fill_buf() {
                Ok([]) => return (out, None),
                Ok(chunk) => {
                    if step.is_none() {
                        assert!(
                            std::str::from_utf8(chunk).is_ok(),
                            "a chunk cut a character"
                        );
                    }
                    let n = step.map_or(chunk.len(), |s| s.min(chunk.len()));
                    out.extend_from_slice(&chunk[..n]);
                    r.consume(n);
                }
                Err(e) => {
                    let d = e
                        .get_ref()
                        .and_then(|inner| inner.downcast_ref::<InvalidBytes>())
                        .expect("invalid bytes, not another error")
                        .0
                        .clone();
                    // Reported once; then the reader is at its end.
                    assert!(matches!(r.fill_buf(), Ok([])));
                    return (out, Some(d));
                }
            }
        }
    }

    /// encoding_rs over the whole file in one call: no buffers, no refills, no carried
    /// bytes. What the streaming reader must agree with.
    fn one_shot(bytes: &[u8]) -> (Vec<u8>, Option<Diagnostic>) {
        let (encoding, bom_len) = choose_encoding(bytes).unwrap();
        // GBK: the decoder never sees a GB18030 four-byte sequence (a lead byte, then an
        // ASCII digit where its trail byte would be).
        let mut four_byte = None;
        if encoding == encoding_rs::GBK {
            let mut lead = None;
            for (at, &b) in bytes.iter().enumerate().skip(bom_len) {
                match lead.take() {
                    Some(lead) if b.is_ascii_digit() => {
                        four_byte = Some(lead);
                        break;
                    }
                    Some(_) => {}
                    None if (0x81..=0xFE).contains(&b) => lead = Some(at),
                    None => {}
                }
            }
        }
        let body = &bytes[bom_len..four_byte.unwrap_or(bytes.len())];
        let mut out = vec![0u8; body.len() * 3 + 16];
        let mut decoder = encoding.new_decoder_without_bom_handling();
        let (result, read, written) =
            decoder.decode_to_utf8_without_replacement(body, &mut out, four_byte.is_none());
        out.truncate(written);
        let error = match (result, four_byte) {
            (DecoderResult::InputEmpty, None) => None,
            (DecoderResult::InputEmpty, Some(at)) => Some(
                invalid_bytes(encoding, at, &bytes[at..(at + 4).min(bytes.len())]).expected(
                    "GBK (a GB18030 four-byte sequence needs encoding=\"GB18030\")".to_string(),
                ),
            ),
            (DecoderResult::OutputFull, _) => unreachable!("the output has room for everything"),
            (DecoderResult::Malformed(bad, after), _) => {
                let end = bom_len + read - after as usize;
                let start = end - bad as usize;
                Some(invalid_bytes(encoding, start, &bytes[start..end]))
            }
        };
        (out, error)
    }

    /// Every way of reading `bytes` (in place or decoded, in one piece or in chunks,
    /// consumed whole or bit by bit) gives what [`one_shot`] gives, and so does [`decode`].
    fn check_all_ways(bytes: &[u8], sizes: &[usize]) {
        let expected = one_shot(bytes);
        for in_place in [true, false] {
            for step in [None, Some(1), Some(5)] {
                let whole = DecodeReader::with_utf8_path(bytes, in_place).unwrap();
                assert_eq!(whole.decoder.is_none(), in_place && whole.encoding == UTF_8);
                assert_eq!(
                    drain(whole, step),
                    expected,
                    "one piece, in place: {in_place}"
                );
                let chunked =
                    DecodeReader::with_utf8_path(Chunked::new(bytes, sizes), in_place).unwrap();
                assert_eq!(
                    drain(chunked, step),
                    expected,
                    "reads of {sizes:?}, in place: {in_place}, consumed by {step:?}"
                );
            }
        }
        match (decode(bytes), expected) {
            (Ok(d), (text, None)) => assert_eq!(d.text.as_bytes(), text),
            (Err(d), (_, Some(e))) => assert_eq!(d, e),
            (got, want) => panic!("decode gave {got:?}, one_shot {want:?}"),
        }
    }

    const DECLARATION: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

    /// The bad byte sequences worth knowing the report of: (bytes, what is reported),
    /// each followed by ASCII.
    const BAD: &[(&[u8], &str)] = &[
        (&[0xE2, 0x82], "E2 82"),          // a three-byte sequence cut short
        (&[0x80], "80"),                   // a lone continuation byte
        (&[0xC0, 0x80], "C0"),             // overlong
        (&[0xED, 0xA0, 0x80], "ED"),       // a surrogate
        (&[0xF5, 0x80], "F5"),             // beyond U+10FFFF
        (&[0xF0, 0x9F, 0x98], "F0 9F 98"), // a four-byte sequence cut short
        (&[0xFF], "FF"),
        (&[0xE0, 0x80], "E0"), // overlong three-byte lead
        (&[0xF4, 0x90], "F4"), // above U+10FFFF
    ];

    #[test]
    fn utf8_bad_sequences_are_reported_as_encoding_rs_reports_them() {
        // Where the buffers meet: the end of the declaration kilobyte, and one CHUNK later.
        let places = [0, 7, HEAD - 3, HEAD - 2, HEAD - 1, HEAD, HEAD + 1]
            .into_iter()
            .chain((HEAD + CHUNK - 4)..(HEAD + CHUNK + 2));
        for at in places {
            for bom in [false, true] {
                for (bad, shown) in BAD {
                    let mut bytes = if bom {
                        vec![0xEF, 0xBB, 0xBF]
                    } else {
                        Vec::new()
                    };
                    bytes.extend_from_slice(DECLARATION);
                    let at = at.max(bytes.len());
                    // Some multi-byte text first, so the padding is not all ASCII.
                    bytes.extend_from_slice("吕".as_bytes());
                    bytes.resize(at, b'x');
                    bytes.extend_from_slice(bad);
                    bytes.extend_from_slice(b"a</a>");
                    let (text, error) = one_shot(&bytes);
                    let error = error.unwrap();
                    assert_eq!((error.offset, error.found.as_deref()), (at, Some(*shown)));
                    assert_eq!(
                        error.message,
                        format!("bytes {shown} at byte offset {at} are not valid UTF-8")
                    );
                    assert_eq!(text.len(), at - if bom { 3 } else { 0 });
                    check_all_ways(&bytes, &[1, 2, 3, 5, 7]);
                    // The same bytes cut short at the end of the file.
                    let cut = at + bad.len() - 1;
                    if cut > at {
                        check_all_ways(&bytes[..cut], &[3]);
                        let e = decode(&bytes[..cut]).unwrap_err();
                        assert_eq!(e.offset, at);
                    }
                }
            }
        }
    }

    #[test]
    fn utf8_characters_across_buffer_ends_read_the_same() {
        for at in [
            HEAD - 3,
            HEAD - 2,
            HEAD - 1,
            HEAD + CHUNK - 3,
            HEAD + CHUNK - 1,
        ] {
            for c in ["é", "吕", "😀"] {
                let mut bytes = DECLARATION.to_vec();
                bytes.resize(at, b'x');
                bytes.extend_from_slice(c.as_bytes());
                bytes.extend_from_slice(b"</a>");
                check_all_ways(&bytes, &[4, 1, 6]);
                assert!(one_shot(&bytes).1.is_none());
            }
        }
    }

    #[test]
    fn gbk_leads_before_digits_across_buffer_ends() {
        for at in [
            40,
            HEAD - 3,
            HEAD - 2,
            HEAD - 1,
            HEAD + CHUNK - 2,
            HEAD + CHUNK - 1,
        ] {
            for lead in [0x80, 0x81, 0xFE, 0xFF] {
                let mut bytes = b"<?xml version=\"1.0\" encoding=\"GBK\"?>".to_vec();
                bytes.resize(at, b'x');
                bytes.extend_from_slice(&[lead, b'0', 0x81, b'1', b'<']);
                let (_, error) = one_shot(&bytes);
                // 0x80 is a character of its own, so the next lead starts the sequence;
                // 0xFF is no GBK byte at all.
                let error = error.unwrap();
                let four_byte = error
                    .expected
                    .as_deref()
                    .is_some_and(|e| e.contains("four"));
                let want = match lead {
                    0x80 => (at + 2, true),
                    0xFF => (at, false),
                    _ => (at, true),
                };
                assert_eq!((error.offset, four_byte), want, "lead {lead:02X}");
                check_all_ways(&bytes, &[2, 7]);
            }
        }
    }

    #[test]
    fn an_empty_or_bom_only_file_reads_as_nothing() {
        for bytes in [&b""[..], &[0xEF, 0xBB, 0xBF], &[0xFF, 0xFE]] {
            check_all_ways(bytes, &[1]);
        }
    }

    #[test]
    fn the_input_buffer_stays_one_chunk() {
        let mut bytes = DECLARATION.to_vec();
        let text = "吕钦许银川 <a/>".repeat(40_000);
        bytes.extend_from_slice(text.as_bytes());
        for in_place in [true, false] {
            let mut r = DecodeReader::with_utf8_path(&bytes[..], in_place).unwrap();
            let mut out = Vec::new();
            loop {
                use std::io::BufRead;
                let chunk = r.fill_buf().unwrap();
                if chunk.is_empty() {
                    break;
                }
                let n = chunk.len().min(1000);
                out.extend_from_slice(&chunk[..n]);
                r.consume(n);
                assert!(r.input.capacity() <= CHUNK + 16, "{}", r.input.capacity());
                assert!(r.output.capacity() <= 2 * (3 * CHUNK + 16));
            }
            assert_eq!(out, bytes);
        }
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        /// Text that is mostly valid, with bad bytes and bad sequences among it.
        fn piece() -> impl Strategy<Value = Vec<u8>> {
            prop_oneof![
                4 => "[a-z<>/ ]{1,12}".prop_map(String::into_bytes),
                3 => "[é吕😀\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}]{1,3}"
                    .prop_map(String::into_bytes),
                1 => any::<u8>().prop_map(|b| vec![b]),
                1 => (0x80u8..=0xFF, 0x80u8..=0xBF).prop_map(|(a, b)| vec![a, b]),
                1 => proptest::sample::select(BAD.to_vec()).prop_map(|(b, _)| b.to_vec()),
            ]
        }

        /// Where the interesting part starts: at the start, around the end of the
        /// declaration kilobyte, or around the end of the first full buffer.
        fn padding() -> impl Strategy<Value = usize> {
            prop_oneof![
                0..40usize,
                (HEAD - 12)..(HEAD + 12),
                (HEAD + CHUNK - 12)..(HEAD + CHUNK + 12)
            ]
        }

        fn document() -> impl Strategy<Value = Vec<u8>> {
            (
                any::<bool>(),
                any::<bool>(),
                padding(),
                proptest::collection::vec(piece(), 0..12),
            )
                .prop_map(|(bom, declared, pad, pieces)| {
                    let mut bytes = if bom {
                        vec![0xEF, 0xBB, 0xBF]
                    } else {
                        Vec::new()
                    };
                    if declared {
                        bytes.extend_from_slice(DECLARATION);
                    }
                    bytes.resize(pad.max(bytes.len()), b'x');
                    bytes.extend(pieces.concat());
                    bytes
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(192))]

            #[test]
            fn utf8_in_place_reads_as_encoding_rs_decodes(
                bytes in document(),
                sizes in proptest::collection::vec(1usize..=7, 1..5),
            ) {
                // Random bytes may sniff as UTF-16 or declare something else.
                prop_assume!(matches!(choose_encoding(&bytes), Ok((e, _)) if e == UTF_8));
                check_all_ways(&bytes, &sizes);
            }

            #[test]
            fn utf16_reads_as_encoding_rs_decodes(
                le in any::<bool>(),
                pad in padding(),
                units in proptest::collection::vec(
                    prop_oneof![0x20u16..0x7F, 0x80u16..0xD800, 0xD800u16..0xE000, 0xE000u16..=0xFFFF],
                    0..40,
                ),
                odd in any::<bool>(),
                sizes in proptest::collection::vec(1usize..=7, 1..5),
            ) {
                let mut bytes = if le { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
                let all = std::iter::repeat_n(u16::from(b'x'), pad / 2).chain(units);
                for unit in all {
                    bytes.extend_from_slice(&if le { unit.to_le_bytes() } else { unit.to_be_bytes() });
                }
                if odd {
                    bytes.push(0x41);
                }
                check_all_ways(&bytes, &sizes);
            }

            #[test]
            fn gbk_reads_as_encoding_rs_decodes(
                pad in padding(),
                pieces in proptest::collection::vec(prop_oneof![
                    4 => "[a-z<>/ ]{1,12}".prop_map(String::into_bytes),
                    4 => "[吕钦许银川帅將]{1,4}".prop_map(|s| encoding_rs::GBK.encode(&s).0.into_owned()),
                    1 => any::<u8>().prop_map(|b| vec![b]),
                    1 => (0x81u8..=0xFE, 0x30u8..=0x39).prop_map(|(a, b)| vec![a, b]),
                    1 => Just(vec![0x81, 0x30, 0x81, 0x30]),
                ], 0..12),
                sizes in proptest::collection::vec(1usize..=7, 1..5),
            ) {
                let mut bytes = b"<?xml version=\"1.0\" encoding=\"GBK\"?>".to_vec();
                bytes.resize(pad.max(bytes.len()), b'x');
                bytes.extend(pieces.concat());
                check_all_ways(&bytes, &sizes);
            }
        }
    }
}
