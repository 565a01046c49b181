//! `xs:float` and `xs:double`: IEEE 754 binary32 and binary64.
//!
//! The lexical space is checked here (the standard library's parser also takes `inf`,
//! `infinity`, `nan` and `+INF`, which XSD 1.0 does not; XSD 1.1 takes `+INF`); the standard library then rounds
//! the decimal to the nearest value, ties to even, as XSD Part 2 (3.2.4) says. A decimal too
//! large for the type rounds to an infinity of its sign and a tiny one to a zero, as IEEE 754
//! round-to-nearest does.
//!
//! Order (XSD 1.1's, which the facets use): `NaN` is incomparable to every number, so a
//! bound on a `NaN` value fails; `0` and `-0` are equal. Equality for enumerations is
//! identity: `NaN` equals `NaN`.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::schema::{whitespace, FacetError};

/// Whether `t` (collapsed) is in the lexical space of float and double, by the production
/// of Part 2: the reference the parser's shortcut is tested against.
#[cfg(test)]
fn lexical_ok(t: &str) -> bool {
    if matches!(t, "INF" | "-INF" | "NaN") {
        return true;
    }
    let b = t.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        digits += i - frac_start;
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        i += 1;
        if i < b.len() && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

/// The canonical form of XSD 1.0 (3.2.5.2): a mantissa with one digit before the point and
/// at least one after, `E`, the exponent without leading zeros; `INF`, `-INF`, `NaN`.
/// `exp` is Rust's shortest round-trip `{:e}` form (`1.5e-7`).
fn canonical(exp: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let (mantissa, exponent) = exp.split_once('e').unwrap_or((exp, "0"));
    if mantissa.contains('.') {
        write!(f, "{mantissa}E{exponent}")
    } else {
        write!(f, "{mantissa}.0E{exponent}")
    }
}

macro_rules! ieee {
    ($(#[$doc:meta])* $name:ident, $repr:ty, $xsd:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name(pub $repr);

        impl $name {
            /// The value.
            pub fn get(self) -> $repr {
                self.0
            }
            /// Reads the lexical form, after collapsing white space.
            pub fn parse(text: &str) -> Result<Self, FacetError> {
                let t = whitespace::collapse(text);
                // The standard library's parser takes a superset of XSD's numbers that
                // differs only by its spellings of infinity and NaN (`inf`, `infinity`,
                // `nan`, any case, signed), none of which ends in a digit or a point: a
                // value that does is a number for both, and needs no second scan.
                let v = if matches!(t.as_bytes().last(), Some(b'0'..=b'9' | b'.')) {
                    t.parse::<$repr>()
                        .map_err(|_| FacetError::Lexical { expected: $xsd })?
                } else {
                    match &*t {
                        "INF" => <$repr>::INFINITY,
                        "-INF" => <$repr>::NEG_INFINITY,
                        "NaN" => <$repr>::NAN,
                        // XSD 1.1 (Part 2, 3.3.5.1) spells positive infinity so too.
                        "+INF" if super::edition::xsd_1_1() => <$repr>::INFINITY,
                        _ => return Err(FacetError::Lexical { expected: $xsd }),
                    }
                };
                Ok($name(v))
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                (self.0.is_nan() && other.0.is_nan()) || self.0 == other.0
            }
        }

        // NaN equals NaN and 0 equals -0: an equivalence, so `Eq`, with a hash that agrees.
        impl Eq for $name {}

        impl std::hash::Hash for $name {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                let v = if self.0.is_nan() {
                    <$repr>::NAN
                } else if self.0 == 0.0 {
                    0.0
                } else {
                    self.0
                };
                v.to_bits().hash(state);
            }
        }

        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                if self.0.is_nan() && other.0.is_nan() {
                    return Some(Ordering::Equal);
                }
                self.0.partial_cmp(&other.0)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if self.0.is_nan() {
                    f.write_str("NaN")
                } else if self.0.is_infinite() {
                    f.write_str(if self.0 > 0.0 { "INF" } else { "-INF" })
                } else {
                    canonical(&format!("{:e}", self.0), f)
                }
            }
        }

        impl FromStr for $name {
            type Err = FacetError;
            fn from_str(s: &str) -> Result<Self, FacetError> {
                $name::parse(s)
            }
        }

        impl From<$repr> for $name {
            fn from(v: $repr) -> Self {
                $name(v)
            }
        }
    };
}

ieee!(
    /// An `xs:float` (IEEE 754 binary32).
    Float, f32, "xs:float");
ieee!(
    /// An `xs:double` (IEEE 754 binary64).
    Double, f64, "xs:double");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_space() {
        for ok in [
            "1", "-1.5", "+.5", "5.", "1e5", "1E+05", "-1.0e-3", "INF", "-INF", "NaN", " 0 ",
        ] {
            assert!(Double::parse(ok).is_ok(), "{ok:?}");
            assert!(Float::parse(ok).is_ok(), "{ok:?}");
        }
        for bad in [
            "", "inf", "+INF", "nan", "infinity", "1e", "e5", ".", "1.2.3", "0x1", "1 e5", "- 1",
            "1d", "Infinity",
        ] {
            assert!(Double::parse(bad).is_err(), "{bad:?}");
            assert!(Float::parse(bad).is_err(), "{bad:?}");
        }
        // XSD 1.1 (Part 2, 3.3.5.1) spells positive infinity +INF too; nothing else changes.
        crate::datatypes::with_edition(true, || {
            assert_eq!(Double::parse(" +INF ").unwrap().get(), f64::INFINITY);
            assert_eq!(Float::parse("+INF").unwrap().to_string(), "INF");
            for bad in ["+inf", "+NaN", "++INF", "+-INF"] {
                assert!(Double::parse(bad).is_err(), "{bad:?}");
            }
        });
    }

    #[test]
    fn the_parser_takes_exactly_the_lexical_space() {
        // Every string of up to four characters over an alphabet of what numbers, their
        // near misses and the standard library's own spellings are made of.
        let alphabet: Vec<char> = "0159.+-eEiInNfFaAtyx ".chars().collect();
        let mut strings = vec![String::new()];
        for _ in 0..4 {
            let mut longer = Vec::new();
            for s in &strings {
                for c in &alphabet {
                    longer.push(format!("{s}{c}"));
                }
            }
            strings.extend(longer.into_iter().filter(|s| s.len() <= 4));
            strings.sort();
            strings.dedup();
        }
        for extra in [
            "INF",
            "-INF",
            "NaN",
            "+INF",
            "inf",
            "infinity",
            "-infinity",
            "NAN",
            "nan",
            "1.5e+10",
            "-.5E-05",
            "12345.",
            "1e5e5",
            "Infinity1",
        ] {
            strings.push(extra.to_string());
        }
        for s in &strings {
            let t = whitespace::collapse(s);
            assert_eq!(Double::parse(s).is_ok(), lexical_ok(&t), "{s:?}");
            assert_eq!(Float::parse(s).is_ok(), lexical_ok(&t), "{s:?}");
        }
    }

    #[test]
    fn canonical_form() {
        for (lexical, canonical) in [
            ("100", "1.0E2"),
            ("0", "0.0E0"),
            ("-0", "-0.0E0"),
            ("0.00012", "1.2E-4"),
            ("-1.5", "-1.5E0"),
            ("INF", "INF"),
            ("NaN", "NaN"),
        ] {
            assert_eq!(Double::parse(lexical).unwrap().to_string(), canonical);
        }
        assert_eq!(Float::parse("0.1").unwrap().to_string(), "1.0E-1");
        assert_eq!(Float::parse("16777217").unwrap().to_string(), "1.6777216E7");
    }

    #[test]
    fn order_and_equality() {
        let nan = Double::parse("NaN").unwrap();
        let one = Double::parse("1").unwrap();
        assert_eq!(nan, nan);
        assert_eq!(nan.partial_cmp(&one), None);
        assert_eq!(one.partial_cmp(&nan), None);
        assert_eq!(Double(0.0), Double(-0.0));
        assert!(Double::parse("-INF").unwrap() < one);
    }
}
