//! `xs:hexBinary` and `xs:base64Binary`: octet sequences (their length facets count
//! octets).

use std::fmt;
use std::str::FromStr;

use base64::Engine;

use crate::schema::{whitespace, FacetError};

/// An `xs:hexBinary`: an even number of hexadecimal digits, either case. Written in upper
/// case, the canonical form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct HexBinary(pub Vec<u8>);

impl HexBinary {
    /// Reads the lexical form after collapsing white space.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        let t = whitespace::collapse(text);
        let err = FacetError::Lexical {
            expected: "xs:hexBinary",
        };
        let b = t.as_bytes();
        if b.len() % 2 != 0 {
            return Err(err);
        }
        let nibble = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
        b.chunks_exact(2)
            .map(|p| Some(nibble(p[0])? << 4 | nibble(p[1])?))
            .collect::<Option<Vec<u8>>>()
            .map(HexBinary)
            .ok_or(err)
    }
    /// The octets.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for HexBinary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in &self.0 {
            write!(f, "{b:02X}")?;
        }
        Ok(())
    }
}

impl FromStr for HexBinary {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        HexBinary::parse(s)
    }
}

/// An `xs:base64Binary` (RFC 2045 base64, as XSD Part 2, 3.2.16 restricts it: padding
/// as required, the bits after the last octet zero, single spaces allowed between
/// characters). Written without spaces, the canonical form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Base64Binary(pub Vec<u8>);

impl Base64Binary {
    /// Reads the lexical form after collapsing white space.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        let t = whitespace::collapse(text);
        let err = FacetError::Lexical {
            expected: "xs:base64Binary",
        };
        let compact: Vec<u8> = t.bytes().filter(|&b| b != b' ').collect();
        // `=` may only end the value (the standard engine also checks that the padding
        // makes a multiple of four and that the unused bits are zero).
        base64::engine::general_purpose::STANDARD
            .decode(&compact)
            .map(Base64Binary)
            .map_err(|_| err)
    }
    /// The octets.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for Base64Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&base64::engine::general_purpose::STANDARD.encode(&self.0))
    }
}

impl FromStr for Base64Binary {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        Base64Binary::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex() {
        assert_eq!(HexBinary::parse("0fA1").unwrap().0, vec![0x0f, 0xa1]);
        assert_eq!(HexBinary::parse("0fA1").unwrap().to_string(), "0FA1");
        assert_eq!(HexBinary::parse("").unwrap().0, Vec::<u8>::new());
        for bad in ["0", "0g", "0 F", "+0"] {
            assert!(HexBinary::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn base64() {
        assert_eq!(Base64Binary::parse("YWJj").unwrap().0, b"abc");
        assert_eq!(Base64Binary::parse("YW Jj ZA==").unwrap().0, b"abcd");
        assert_eq!(Base64Binary::parse("YWI=").unwrap().to_string(), "YWI=");
        assert_eq!(Base64Binary::parse("").unwrap().0, Vec::<u8>::new());
        // Non-zero bits after the last octet, missing padding, padding inside.
        for bad in ["YWJ=", "YWI", "YQ", "YQ==YQ==", "Y===", "YWJj!"] {
            assert!(Base64Binary::parse(bad).is_err(), "{bad}");
        }
    }
}
