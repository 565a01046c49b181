//! Character data and attribute values as XML 1.0 reads them: line-end normalisation, the
//! five predefined entities and character references (nothing else: no DTD is read),
//! attribute-value normalisation, and the characters XML does not allow. Pure functions
//! over text, so that every part of the reader applies the same rules. The small ones on
//! the hot path are `#[inline]`: a module may land in a codegen unit of its own, and
//! `text_of` called across one cost 3% of a CIF document's instructions.

use std::borrow::Cow;

/// XML 1.0 §2.11: `\r\n` and lone `\r` are read as `\n`.
#[inline]
pub(super) fn push_normalised(out: &mut String, raw: &str) {
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
pub(super) fn resolve_reference(r: &quick_xml::events::BytesRef<'_>) -> Result<char, String> {
    // From the raw bytes: quick-xml's own resolution decodes by the document's declaration
    // when its `encoding` feature is on, and our input is UTF-8 already.
    let name = utf8(r);
    resolve_reference_name(&name)
}

/// `bytes` as text. Read in place, they are a slice of the source text, so they are taken
/// from it as they are (quick-xml cuts only at ASCII delimiters, which are character
/// boundaries); else they are checked.
#[inline]
pub(super) fn text_of<'r>(source: Option<&'r str>, bytes: &'r [u8]) -> Cow<'r, str> {
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
#[inline]
pub(super) fn utf8(bytes: &[u8]) -> Cow<'_, str> {
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
#[inline]
pub(super) fn forbidden_char(s: &str) -> Option<usize> {
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

/// The message for the character that starts `rest`, which [`forbidden_char`] found.
pub(super) fn forbidden_message(rest: &str) -> String {
    let c = rest.chars().next().unwrap_or('\0');
    format!("character U+{:04X} is not allowed in XML", c as u32)
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// XML 1.0 §3.3.3 for CDATA-typed attributes: literal white-space characters become spaces
/// (after line-end normalisation), then references are resolved. Appends to `out`.
pub(super) fn push_attribute_value(out: &mut String, raw: &str) -> Result<(), String> {
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
