//! The XML declaration, parsed by XML 1.0 (5th edition) \[23\]-\[32\]: what the decoder reads
//! the encoding from and what the reader checks, so that both read the same declaration
//! the same way, whatever its length.
//!
//! ```text
//! XMLDecl      ::= '<?xml' VersionInfo EncodingDecl? SDDecl? S? '?>'
//! VersionInfo  ::= S 'version' Eq ("'" VersionNum "'" | '"' VersionNum '"')
//! VersionNum   ::= '1.' [0-9]+
//! EncodingDecl ::= S 'encoding' Eq ('"' EncName '"' | "'" EncName "'" )
//! EncName      ::= [A-Za-z] ([A-Za-z0-9._] | '-')*
//! SDDecl       ::= S 'standalone' Eq (("'" ('yes' | 'no') "'") | ('"' ('yes' | 'no') '"'))
//! ```

/// The longest XML declaration read, in characters (white space can pad it; nothing else
/// can make it long). Past this the decoder does not look for the encoding and the reader
/// reports a limit (E0106).
pub const MAX_DECLARATION: usize = 16 << 10;

/// A well-formed XML declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlDecl<'a> {
    /// `1.0`, or another `1.x` (read as 1.0, as XML 1.0 5th edition says).
    pub version: &'a [u8],
    /// The encoding name, if declared.
    pub encoding: Option<&'a [u8]>,
    /// `yes` or `no`, if declared.
    pub standalone: Option<&'a [u8]>,
}

/// What is wrong with a declaration: where (a byte offset into the content given to
/// [`parse`]), what was expected and what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclError {
    /// Byte offset into the content (`xml ...`, after `<?`).
    pub at: usize,
    /// What the grammar wants there.
    pub expected: String,
    /// What stands there.
    pub found: String,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Parses the content of a declaration: the bytes between `<?` and `?>`, starting with
/// `xml`.
pub fn parse(content: &[u8]) -> Result<XmlDecl<'_>, DeclError> {
    let mut p = Parser { s: content, i: 0 };
    if !content.starts_with(b"xml") {
        return Err(p.error("<?xml"));
    }
    p.i = 3;
    let mut decl = XmlDecl {
        version: b"",
        encoding: None,
        standalone: None,
    };
    let mut seen_version = false;
    // The pseudo-attributes, in their only order.
    let mut next = 0; // 0: version, 1: encoding, 2: standalone, 3: none left
    loop {
        let spaced = p.skip_space();
        if p.i == content.len() {
            if !seen_version {
                return Err(p.error("version=\"1.0\""));
            }
            return Ok(decl);
        }
        if !spaced {
            return Err(p.error("white space or ?>"));
        }
        let start = p.i;
        while p.i < content.len() && content[p.i].is_ascii_alphanumeric() {
            p.i += 1;
        }
        let name = &content[start..p.i];
        let wanted: &[&str] = match next {
            0 => &["version"],
            1 => &["encoding", "standalone"],
            2 => &["standalone"],
            _ => &[],
        };
        let which = match name {
            b"version" => 0,
            b"encoding" => 1,
            b"standalone" => 2,
            _ => 9,
        };
        if which < next || which == 9 || (next == 0 && which != 0) {
            p.i = start;
            let expected = if wanted.is_empty() {
                "?>".to_string()
            } else {
                wanted.join(" or ")
            };
            return Err(DeclError {
                at: start,
                expected,
                found: if name.is_empty() {
                    p.found()
                } else {
                    String::from_utf8_lossy(name).into_owned()
                },
            });
        }
        p.skip_space();
        if p.peek() != Some(b'=') {
            return Err(p.error("="));
        }
        p.i += 1;
        p.skip_space();
        let value_at = p.i;
        let value = p.quoted()?;
        let bad = match which {
            0 => {
                !(value.len() > 2
                    && value.starts_with(b"1.")
                    && value[2..].iter().all(u8::is_ascii_digit))
            }
            1 => {
                !(value.first().is_some_and(u8::is_ascii_alphabetic)
                    && value
                        .iter()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')))
            }
            _ => !(value == b"yes" || value == b"no"),
        };
        if bad {
            return Err(DeclError {
                at: value_at,
                expected: match which {
                    0 => "version \"1.0\" (XML 1.0; 1.x is read as 1.0)",
                    1 => "an encoding name (a letter, then letters, digits, '.', '_' or '-')",
                    _ => "standalone \"yes\" or \"no\"",
                }
                .to_string(),
                found: format!("\"{}\"", String::from_utf8_lossy(value)),
            });
        }
        match which {
            0 => {
                decl.version = value;
                seen_version = true;
            }
            1 => decl.encoding = Some(value),
            _ => decl.standalone = Some(value),
        }
        next = which + 1;
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_space(&mut self) -> bool {
        let start = self.i;
        while self.peek().is_some_and(is_space) {
            self.i += 1;
        }
        self.i > start
    }

    fn found(&self) -> String {
        match self.s.get(self.i..) {
            Some([]) | None => "?>".to_string(),
            Some(rest) => {
                let n = rest.len().min(12);
                format!("\"{}\"", String::from_utf8_lossy(&rest[..n]).escape_debug())
            }
        }
    }

    fn error(&self, expected: &str) -> DeclError {
        DeclError {
            at: self.i,
            expected: expected.to_string(),
            found: self.found(),
        }
    }

    fn quoted(&mut self) -> Result<&'a [u8], DeclError> {
        let quote = match self.peek() {
            Some(q @ (b'"' | b'\'')) => q,
            _ => return Err(self.error("a quoted value")),
        };
        let start = self.i + 1;
        match self.s[start..].iter().position(|&b| b == quote) {
            Some(n) => {
                self.i = start + n + 1;
                Ok(&self.s[start..start + n])
            }
            None => Err(self.error("a closing quote")),
        }
    }
}

/// Where a declaration's content ends in `head` (bytes from the start of the document, as
/// ASCII): `Some(end)` with `head[2..end]` the content, when `head` starts with `<?xml`
/// followed by white space or `?>`, and `?>` is within it.
pub fn content_end(head: &[u8]) -> Option<usize> {
    if !head.starts_with(b"<?xml") {
        return None;
    }
    match head.get(5) {
        Some(b) if is_space(*b) || *b == b'?' => {}
        _ => return None,
    }
    memchr::memmem::find(&head[2..], b"?>").map(|n| n + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_declarations() {
        for d in [
            &b"xml version=\"1.0\""[..],
            b"xml version='1.0' encoding='GBK' standalone='yes' ",
            b"xml\n version = \"1.0\"\tstandalone=\"no\"",
            b"xml version=\"1.1\"",
        ] {
            assert!(parse(d).is_ok(), "{}", String::from_utf8_lossy(d));
        }
        let d = parse(b"xml version=\"1.0\"                    encoding=\"GBK\"").unwrap();
        assert_eq!(d.encoding, Some(&b"GBK"[..]));
    }

    #[test]
    fn bad_declarations() {
        for d in [
            &b"xml"[..],
            b"xml ",
            b"xml version=\"2.0\"",
            b"xml version=\"1.\"",
            b"xml encoding=\"UTF-8\"",
            b"xml version=\"1.0\" standalone=\"maybe\"",
            b"xml version=\"1.0\" standalone=\"yes\" encoding=\"UTF-8\"",
            b"xml version=\"1.0\" foo=\"bar\"",
            b"xml version=\"1.0\"encoding=\"UTF-8\"",
            b"xml version=\"1.0\" encoding=\"UTF 8\"",
            b"xml version=\"1.0\" encoding=\"\"",
            b"xml version=\"1.0\" version=\"1.0\"",
            b"xml version=1.0",
            b"xml version=\"1.0'",
            b"xml VERSION=\"1.0\"",
        ] {
            assert!(parse(d).is_err(), "{}", String::from_utf8_lossy(d));
        }
    }
}
