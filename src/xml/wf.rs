//! Well-formedness checks that quick-xml leaves to its user: names by the XML 1.0 (5th
//! edition) productions and Namespaces 1.0 QNames, the syntax of start tags, comments,
//! processing instructions and character data.
//!
//! Each check has an ASCII fast path (a table lookup per byte); only names and text with
//! non-ASCII characters, or with a byte worth a second look, take the slower one.

/// The namespace the prefix `xml` is bound to (Namespaces 1.0, 3).
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace of `xmlns` itself, which nothing may be bound to.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// What an ASCII byte can be in a name: 2 a name start character (and so a name
/// character), 1 a name character only, 0 neither; 3 a byte of a non-ASCII character
/// (decided by the character).
const NAME_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c >= 0x80 {
            3
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b':' {
            2
        } else if c.is_ascii_digit() || c == b'-' || c == b'.' {
            1
        } else {
            0
        };
        b += 1;
    }
    t
};

/// ASCII name characters other than the colon: what most names are made of.
const NCNAME_ASCII: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = NAME_BYTE[b] != 0 && b != b':' as usize;
        b += 1;
    }
    t
};

/// Bytes that need no second look in an attribute value: not `<`, `&`, a control
/// character (tab, line ends and the forbidden ones) or 0xEF (which starts U+FFFE/U+FFFF).
pub const PLAIN_IN_ATTRIBUTE: [bool; 256] = {
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

/// Whether `name` is an ASCII NCName (a letter or `_`, then letters, digits, `-`, `.`,
/// `_`): then it needs no [`check_qname`]. The fast path for nearly every name.
#[inline]
pub fn simple_name(name: &[u8]) -> bool {
    match name.first() {
        Some(&b) if b.is_ascii_alphabetic() || b == b'_' => {
            name.iter().all(|&b| NCNAME_ASCII[b as usize])
        }
        _ => false,
    }
}

/// XML 1.0 5th edition [4] NameStartChar.
pub fn is_name_start(c: char) -> bool {
    matches!(c,
        ':' | 'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
        | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
        | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
        | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
        | '\u{10000}'..='\u{EFFFF}')
}

/// XML 1.0 5th edition [4a] NameChar.
pub fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// A name that is not an XML Name, or (with namespaces) not a QName: the message, and
/// the byte offset in the name of the offending character.
#[derive(Debug)]
pub struct BadName {
    pub at: usize,
    pub message: String,
}

fn describe(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}' (U+{:04X})", c as u32)
    }
}

/// Checks that `name` is a Name (XML 1.0 [5]) and a QName (Namespaces 1.0 [7]: at most one
/// colon, with a non-empty NCName on each side). `what` names it in messages ("element
/// name", ...). Returns the position of the colon, if any.
pub fn check_qname(name: &str, what: &str) -> Result<Option<usize>, BadName> {
    let bytes = name.as_bytes();
    if bytes.is_empty() {
        return Err(BadName {
            at: 0,
            message: format!("an empty {what}"),
        });
    }
    let mut colon = None;
    // Fast path: ASCII only.
    let mut ascii = true;
    let mut part_start = true;
    for (i, &b) in bytes.iter().enumerate() {
        let kind = NAME_BYTE[b as usize];
        if kind == 3 {
            ascii = false;
            break;
        }
        if b == b':' {
            if colon.is_some() || part_start {
                return Err(colon_error(name, what, i, colon.is_some()));
            }
            colon = Some(i);
            part_start = true;
            continue;
        }
        if kind == 0 || (part_start && kind != 2) {
            return Err(char_error(name, what, i, part_start));
        }
        part_start = false;
    }
    if ascii {
        if part_start {
            return Err(colon_error(name, what, bytes.len(), false));
        }
        return Ok(colon);
    }
    // Any character: by the productions.
    colon = None;
    part_start = true;
    for (i, c) in name.char_indices() {
        if c == ':' {
            if colon.is_some() || part_start {
                return Err(colon_error(name, what, i, colon.is_some()));
            }
            colon = Some(i);
            part_start = true;
            continue;
        }
        let ok = if part_start {
            is_name_start(c)
        } else {
            is_name_char(c)
        };
        if !ok {
            return Err(char_error(name, what, i, part_start));
        }
        part_start = false;
    }
    if part_start {
        return Err(colon_error(name, what, name.len(), false));
    }
    Ok(colon)
}

fn char_error(name: &str, what: &str, at: usize, start: bool) -> BadName {
    let c = name[at..].chars().next().unwrap_or('\0');
    let message = if start {
        format!(
            "{what} \"{}\" is not a name: {} cannot start a name",
            name.escape_debug(),
            describe(c)
        )
    } else {
        format!(
            "{what} \"{}\" is not a name: {} is not a name character",
            name.escape_debug(),
            describe(c)
        )
    };
    BadName { at, message }
}

fn colon_error(name: &str, what: &str, at: usize, second: bool) -> BadName {
    let message = if second {
        format!(
            "{what} \"{}\" has more than one colon (Namespaces 1.0: prefix:local)",
            name.escape_debug()
        )
    } else {
        format!(
            "{what} \"{}\" has an empty prefix or local part (Namespaces 1.0: prefix:local)",
            name.escape_debug()
        )
    };
    BadName { at, message }
}

/// One attribute of a start tag, as byte ranges of the tag's content.
pub struct RawAttr {
    pub key: std::ops::Range<usize>,
    pub value: std::ops::Range<usize>,
    /// The key is an ASCII NCName (a letter or `_`, then name characters, no colon), so
    /// it needs no [`check_qname`]; else it must have one.
    pub simple: bool,
    /// Every byte of the value is plain ([`PLAIN_IN_ATTRIBUTE`]): it is copied as it is,
    /// with nothing to check or normalise.
    pub plain: bool,
}

/// A syntax error in a start tag: where (in the tag's content), what was expected.
pub struct TagError {
    pub at: usize,
    pub expected: &'static str,
}

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The next attribute of a start tag's content `s` (between `<` and `>`, without the `/`
/// of an empty-element tag) from `*i` (just after the element name or the previous
/// attribute); `None` at the end. XML 1.0 [40]/[44]: `(S Attribute)* S?`, with
/// `Attribute ::= Name Eq AttValue` and `Eq ::= S? '=' S?`.
#[inline]
pub fn next_attribute(s: &[u8], i: &mut usize) -> Result<Option<RawAttr>, TagError> {
    let start = *i;
    while *i < s.len() && is_space(s[*i]) {
        *i += 1;
    }
    if *i == s.len() {
        return Ok(None);
    }
    if *i == start {
        return Err(TagError {
            at: *i,
            expected: "white space before the next attribute, or the end of the tag",
        });
    }
    let key_start = *i;
    // An ASCII NCName (nearly every name) is found and known for one at once; anything
    // else in the name (a colon, a non-ASCII character, a stray byte) takes the general
    // scan to what ends it, and the name is checked apart.
    while *i < s.len() && NCNAME_ASCII[s[*i] as usize] {
        *i += 1;
    }
    let ends_name = |b: u8| is_space(b) || matches!(b, b'=' | b'"' | b'\'');
    let mut simple = *i > key_start && (s[key_start].is_ascii_alphabetic() || s[key_start] == b'_');
    if *i < s.len() && !ends_name(s[*i]) {
        simple = false;
        while *i < s.len() && !ends_name(s[*i]) {
            *i += 1;
        }
    }
    if *i == key_start {
        return Err(TagError {
            at: *i,
            expected: "an attribute name",
        });
    }
    let key = key_start..*i;
    while *i < s.len() && is_space(s[*i]) {
        *i += 1;
    }
    if s.get(*i) != Some(&b'=') {
        return Err(TagError {
            at: *i,
            expected: "= after the attribute name",
        });
    }
    *i += 1;
    while *i < s.len() && is_space(s[*i]) {
        *i += 1;
    }
    let quote = match s.get(*i) {
        Some(&q @ (b'"' | b'\'')) => q,
        _ => {
            return Err(TagError {
                at: *i,
                expected: "a quoted attribute value (\"...\" or '...')",
            })
        }
    };
    let value_start = *i + 1;
    // Most values are short: one loop over the first bytes finds the closing quote and
    // tells whether every byte is plain (a loop beats memchr's setup there); the rest of
    // a long value is searched by memchr, then looked at once.
    let rest = &s[value_start..];
    let head = rest.len().min(32);
    let mut plain = true;
    let mut n = 0;
    let found = loop {
        if n == head {
            break memchr::memchr(quote, &rest[head..]).map(|m| {
                let end = m + head;
                plain &= rest[head..end]
                    .iter()
                    .all(|&b| PLAIN_IN_ATTRIBUTE[b as usize]);
                end
            });
        }
        let b = rest[n];
        if b == quote {
            break Some(n);
        }
        plain &= PLAIN_IN_ATTRIBUTE[b as usize];
        n += 1;
    };
    let Some(n) = found else {
        return Err(TagError {
            at: *i,
            expected: "a closing quote",
        });
    };
    *i = value_start + n + 1;
    Ok(Some(RawAttr {
        key,
        value: value_start..value_start + n,
        simple,
        plain,
    }))
}

/// What is wrong with a processing instruction's content (between `<?` and `?>`): the
/// offset in it and the message. XML 1.0 [16]/[17]: a target Name, not `xml` in any case;
/// Namespaces 1.0, 7: no colon in it.
pub fn check_pi(content: &str) -> Option<(usize, String)> {
    let end = content.bytes().position(is_space).unwrap_or(content.len());
    let target = &content[..end];
    if target.is_empty() {
        return Some((
            0,
            "a processing instruction needs a target name right after <?".into(),
        ));
    }
    if target.eq_ignore_ascii_case("xml") {
        return Some((
            0,
            if target == "xml" {
                "an XML declaration is allowed only at the very start of the document".into()
            } else {
                format!(
                    "the processing-instruction target \"{target}\" is reserved (xml in any case)"
                )
            },
        ));
    }
    match check_qname(target, "processing-instruction target") {
        Ok(Some(colon)) => Some((
            colon,
            format!(
                "processing-instruction target \"{}\" has a colon (Namespaces 1.0, 7)",
                target.escape_debug()
            ),
        )),
        Ok(None) => None,
        Err(e) => Some((e.at, e.message)),
    }
}

/// Bytes that need no second look in character data: not a control character other than
/// tab and line ends, not 0xEF (which starts U+FFFE/U+FFFF), not `]` (which may start
/// `]]>`).
const PLAIN_IN_TEXT: [bool; 256] = {
    let mut table = [true; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = matches!(b as u8, b'\t' | b'\n' | b'\r');
        b += 1;
    }
    table[b']' as usize] = false;
    table[0xEF] = false;
    table
};

/// Whether character data needs no check at all (the common case, one table lookup per
/// byte).
#[inline]
pub fn plain_text(s: &str) -> bool {
    s.bytes().all(|b| PLAIN_IN_TEXT[b as usize])
}

/// Where `]]>` stands in character data (XML 1.0 [14]), if it does.
pub fn cdata_end_in_text(s: &str) -> Option<usize> {
    memchr::memmem::find(s.as_bytes(), b"]]>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["a", "_a", "a-b.c", "p:a", "吕", "a\u{B7}b", "é"] {
            assert!(check_qname(ok, "name").is_ok(), "{ok}");
        }
        for bad in [
            "", "1a", "-a", "a:b:c", ":a", "a:", "a b", "a\0", "a\u{1B}", "\u{B7}a", "a:1",
        ] {
            assert!(check_qname(bad, "name").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn attributes() {
        let all = |s: &[u8]| {
            let mut i = 0;
            let mut out = Vec::new();
            loop {
                match next_attribute(s, &mut i) {
                    Ok(Some(a)) => out.push((s[a.key].to_vec(), s[a.value].to_vec())),
                    Ok(None) => return Ok(out),
                    Err(e) => return Err(e.at),
                }
            }
        };
        assert_eq!(all(b" a='1' b = \"2\" ").unwrap().len(), 2);
        assert_eq!(all(b" a=\"8x8\"b=\"8\""), Err(8));
        assert!(all(b" a").is_err());
        assert!(all(b" a=1").is_err());
        assert!(all(b" =\"1\"").is_err());
    }

    #[test]
    fn processing_instructions() {
        assert!(check_pi("pi data").is_none());
        assert!(check_pi("xml-stylesheet href='a'").is_none());
        assert!(check_pi(" x").is_some());
        assert!(check_pi("").is_some());
        assert!(check_pi("XmL x").is_some());
        assert!(check_pi("a:b").is_some());
    }
}
