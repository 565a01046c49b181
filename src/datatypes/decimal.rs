//! `xs:decimal`, `xs:integer` and the unbounded integer types derived from it, held
//! exactly.
//!
//! No crate holds a decimal the way XSD 1.0 defines it: `bigdecimal` keeps the scale as
//! written (`1.0` and `1.00` differ in its representation and its `Display`), and writes
//! large or small values with an exponent, which is not in the lexical space. A decimal here
//! is an arbitrary-precision integer (`num-bigint`, the well-kept one) scaled by a power of
//! ten, normalised (no trailing zero in the unscaled value), so that the derived equality and
//! hash are equality in the value space, and the canonical form is written from it.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use num_bigint::{BigInt, Sign};
use num_traits::{Signed, ToPrimitive, Zero};

use crate::schema::{whitespace, FacetError};

/// An `xs:integer`: any whole number, held exactly (never wrapped, never bounded).
///
/// Inline when it fits an `i64` (as a decimal's unscaled value is: reading one allocates
/// nothing), a big integer only beyond; one value has one form, so the derived equality
/// and hash are the value space's.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Integer(Unscaled);

impl Integer {
    /// The value as a big integer.
    pub fn as_bigint(&self) -> Cow<'_, BigInt> {
        self.0.big()
    }

    /// The value as an `i128`, if it fits.
    pub fn to_i128(&self) -> Option<i128> {
        match &self.0 {
            Unscaled::Small(v) => Some(i128::from(*v)),
            Unscaled::Big(v) => v.to_i128(),
        }
    }

    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.0.signum() < 0
    }

    /// Whether the value is above zero.
    pub fn is_positive(&self) -> bool {
        self.0.signum() > 0
    }

    /// The number of decimal digits of the absolute value (`0` has one).
    pub fn digits(&self) -> u64 {
        match &self.0 {
            Unscaled::Small(v) => u64::from(v.unsigned_abs().checked_ilog10().unwrap_or(0)) + 1,
            Unscaled::Big(v) => digit_count(v),
        }
    }

    /// Reads an `xs:integer` lexical form: an optional sign and decimal digits, after
    /// collapsing white space.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        parse_integer(&whitespace::collapse(text), "xs:integer")
    }
}

/// An integer lexical form (already collapsed): up to 18 significant digits straight into
/// an `i64`, more through a big integer.
fn parse_integer(t: &str, expected: &'static str) -> Result<Integer, FacetError> {
    let (negative, digits) = split_sign(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FacetError::Lexical { expected });
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() <= 18 {
        let mut v = 0i64;
        for b in significant.bytes() {
            v = v * 10 + i64::from(b - b'0');
        }
        return Ok(Integer(Unscaled::Small(if negative { -v } else { v })));
    }
    let v = digits_value(significant);
    Ok(Integer::from(if negative { -v } else { v }))
}

impl PartialOrd for Integer {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Integer {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            (Unscaled::Small(a), Unscaled::Small(b)) => a.cmp(b),
            (a, b) => a.big().cmp(&b.big()),
        }
    }
}

impl From<BigInt> for Integer {
    fn from(value: BigInt) -> Self {
        Integer(Unscaled::from_big(value))
    }
}

macro_rules! integer_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Integer {
            fn from(value: $t) -> Self {
                match i64::try_from(value) {
                    Ok(small) => Integer(Unscaled::Small(small)),
                    Err(_) => Integer::from(BigInt::from(value)),
                }
            }
        }
    )*};
}
integer_from!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);

impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Unscaled::Small(v) => fmt::Display::fmt(v, f),
            Unscaled::Big(v) => fmt::Display::fmt(v, f),
        }
    }
}

impl FromStr for Integer {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        Integer::parse(s)
    }
}

/// An `xs:decimal`: `unscaled / 10^scale`, exact, with any number of digits.
///
/// Normalised: the unscaled value has no trailing zero when the scale is above zero, so
/// `1.0`, `1` and `01.000` are one value, and `==`, `Hash` and `Ord` are those of the value
/// space. `Display` writes the canonical form of XSD 1.0 (`1.0`, `-0.5`, `0.0`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Decimal {
    unscaled: Unscaled,
    scale: u32,
}

/// The unscaled value: inline when it fits an `i64` (nearly every decimal of a document:
/// reading one allocates nothing), a big integer only when it does not. One value has one
/// form, so the derived equality and hash hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Unscaled {
    Small(i64),
    Big(BigInt),
}

impl Default for Unscaled {
    fn default() -> Self {
        Unscaled::Small(0)
    }
}

impl Unscaled {
    fn from_big(v: BigInt) -> Self {
        match v.to_i64() {
            Some(small) => Unscaled::Small(small),
            None => Unscaled::Big(v),
        }
    }
    fn big(&self) -> Cow<'_, BigInt> {
        match self {
            Unscaled::Small(v) => Cow::Owned(BigInt::from(*v)),
            Unscaled::Big(v) => Cow::Borrowed(v),
        }
    }
    fn signum(&self) -> i8 {
        match self {
            Unscaled::Small(v) => v.signum() as i8,
            Unscaled::Big(v) => match v.sign() {
                Sign::Minus => -1,
                Sign::NoSign => 0,
                Sign::Plus => 1,
            },
        }
    }
}

impl Decimal {
    /// `unscaled / 10^scale`.
    pub fn new(unscaled: impl Into<BigInt>, scale: u32) -> Self {
        let (unscaled, scale) = normalise(unscaled.into(), scale);
        Decimal {
            unscaled: Unscaled::from_big(unscaled),
            scale,
        }
    }

    /// The unscaled value and the scale: the value is `unscaled / 10^scale`, with no
    /// trailing zero in `unscaled` when `scale > 0`.
    pub fn parts(&self) -> (BigInt, u32) {
        (self.unscaled.big().into_owned(), self.scale)
    }

    /// Digits after the decimal point in the canonical form, for `fractionDigits` (`1.50`
    /// has one).
    pub fn fraction_digits(&self) -> u64 {
        u64::from(self.scale)
    }

    /// Digits of the value for `totalDigits` (XSD Part 2, 4.3.11: the smallest `t` with
    /// `value = i / 10^n`, `|i| < 10^t`, `n <= t`): `0.001` has three, `100` three, `0` one.
    pub fn total_digits(&self) -> u64 {
        let digits = match &self.unscaled {
            Unscaled::Small(v) => u64::from(v.unsigned_abs().checked_ilog10().unwrap_or(0)) + 1,
            Unscaled::Big(v) => digit_count(v),
        };
        digits.max(u64::from(self.scale))
    }

    /// Whether the value is a whole number.
    pub fn is_integer(&self) -> bool {
        self.scale == 0
    }

    /// The value as an integer, if it is one.
    pub fn to_integer(&self) -> Option<Integer> {
        self.is_integer().then(|| Integer(self.unscaled.clone()))
    }

    /// Reads an `xs:decimal` lexical form (`(+|-)?(d+(.d*)?|.d+)`) after collapsing white
    /// space.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        let t = whitespace::collapse(text);
        match Self::parse_short(&t) {
            Some(Ok(d)) => Ok(d),
            Some(Err(())) => Err(FacetError::Lexical {
                expected: "xs:decimal",
            }),
            None => Self::parse_long(&t),
        }
    }

    /// One pass for a decimal of at most 18 significant digits (held inline): `None` when
    /// it has more, for [`Decimal::parse_long`].
    #[inline]
    fn parse_short(t: &str) -> Option<Result<Self, ()>> {
        let (negative, body) = split_sign(t);
        let (mut value, mut significant, mut scale) = (0i64, 0u32, 0u32);
        let (mut point, mut digits) = (false, 0u32);
        for &c in body.as_bytes() {
            match c {
                b'0'..=b'9' => {
                    digits += 1;
                    if point {
                        scale += 1;
                    }
                    if value != 0 || c != b'0' {
                        significant += 1;
                        if significant > 18 {
                            return None;
                        }
                    }
                    value = value * 10 + i64::from(c - b'0');
                }
                b'.' if !point => point = true,
                _ => return Some(Err(())),
            }
        }
        if digits == 0 {
            return Some(Err(()));
        }
        if value == 0 {
            scale = 0;
        }
        while scale > 0 && value % 10 == 0 {
            value /= 10;
            scale -= 1;
        }
        Some(Ok(Decimal {
            unscaled: Unscaled::Small(if negative { -value } else { value }),
            scale,
        }))
    }

    fn parse_long(t: &str) -> Result<Self, FacetError> {
        let err = FacetError::Lexical {
            expected: "xs:decimal",
        };
        let (negative, body) = split_sign(t);
        let (int, frac) = match body.split_once('.') {
            Some((i, f)) => (i, f),
            None => (body, ""),
        };
        if (int.is_empty() && frac.is_empty())
            || !int.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(err);
        }
        let frac = frac.trim_end_matches('0');
        let scale = u32::try_from(frac.len()).map_err(|_| err.clone())?;
        let magnitude = if frac.is_empty() {
            digits_value(int)
        } else {
            let mut all = String::with_capacity(int.len() + frac.len());
            all.push_str(int);
            all.push_str(frac);
            digits_value(&all)
        };
        let unscaled = if negative { -magnitude } else { magnitude };
        // Already normalised: the fraction's trailing zeros are gone, and a zero value
        // with a fraction left is impossible (its digits would all be zeros).
        Ok(Decimal {
            unscaled: Unscaled::from_big(unscaled),
            scale,
        })
    }
}

/// `(unscaled, scale)` without trailing zeros in `unscaled` (scale 0 for zero).
fn normalise(mut unscaled: BigInt, mut scale: u32) -> (BigInt, u32) {
    if unscaled.is_zero() {
        return (unscaled, 0);
    }
    let ten = BigInt::from(10u8);
    while scale > 0 {
        let (q, r) = (&unscaled / &ten, &unscaled % &ten);
        if !r.is_zero() {
            break;
        }
        unscaled = q;
        scale -= 1;
    }
    (unscaled, scale)
}

impl From<Integer> for Decimal {
    fn from(value: Integer) -> Self {
        Decimal {
            unscaled: value.0,
            scale: 0,
        }
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = match &self.unscaled {
            Unscaled::Small(v) => v.unsigned_abs().to_string(),
            Unscaled::Big(v) => v.magnitude().to_string(),
        };
        if self.unscaled.signum() < 0 {
            f.write_str("-")?;
        }
        let scale = self.scale as usize;
        if scale == 0 {
            return write!(f, "{digits}.0");
        }
        if digits.len() > scale {
            let (int, frac) = digits.split_at(digits.len() - scale);
            write!(f, "{int}.{frac}")
        } else {
            write!(f, "0.{}{digits}", "0".repeat(scale - digits.len()))
        }
    }
}

impl FromStr for Decimal {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        Decimal::parse(s)
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        match self.unscaled.signum().cmp(&other.unscaled.signum()) {
            Ordering::Equal => {}
            o => return o,
        }
        // Two inline values scaled at most 10^18 apart: exact in an i128.
        if let (Unscaled::Small(a), Unscaled::Small(b)) = (&self.unscaled, &other.unscaled) {
            let (a, b) = (i128::from(*a), i128::from(*b));
            if self.scale.abs_diff(other.scale) <= 18 {
                let power = |n: u32| i128::from(POWERS_OF_TEN[n as usize]);
                return match self.scale.cmp(&other.scale) {
                    Ordering::Equal => a.cmp(&b),
                    Ordering::Less => (a * power(other.scale - self.scale)).cmp(&b),
                    Ordering::Greater => a.cmp(&(b * power(self.scale - other.scale))),
                };
            }
        }
        let (a, b) = (self.unscaled.big(), other.unscaled.big());
        match self.scale.cmp(&other.scale) {
            Ordering::Equal => a.cmp(&b),
            Ordering::Less => (&*a * pow10(other.scale - self.scale)).cmp(&*b),
            Ordering::Greater => (*a).cmp(&(&*b * pow10(self.scale - other.scale))),
        }
    }
}

/// 10^0 to 10^18, every power an `i64` holds (a comparison looks them up rather than
/// raising 10 to a power in 128 bits).
const POWERS_OF_TEN: [i64; 19] = {
    let mut powers = [1i64; 19];
    let mut i = 1;
    while i < powers.len() {
        powers[i] = powers[i - 1] * 10;
        i += 1;
    }
    powers
};

fn pow10(n: u32) -> BigInt {
    num_traits::pow(BigInt::from(10u8), n as usize)
}

/// The number of decimal digits of `|v|` (one for zero).
fn digit_count(v: &BigInt) -> u64 {
    if let Some(small) = v.magnitude().to_u64() {
        return u64::from(small.checked_ilog10().unwrap_or(0)) + 1;
    }
    v.magnitude().to_string().len() as u64
}

fn split_sign(t: &str) -> (bool, &str) {
    match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    }
}

/// The value of a non-empty run of ASCII digits (leading zeros allowed).
fn digits_value(digits: &str) -> BigInt {
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return BigInt::zero();
    }
    // Up to 19 digits fit a u64: no big-number parse for the common case.
    if digits.len() <= 19 {
        if let Ok(v) = digits.parse::<u64>() {
            return BigInt::from(v);
        }
    }
    BigInt::parse_bytes(digits.as_bytes(), 10).expect("ASCII digits")
}

macro_rules! bounded_integer {
    ($(#[$doc:meta])* $name:ident, $xsd:literal, $check:expr, $err:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(Integer);

        impl $name {
            /// Checks the bound of the type.
            pub fn new(value: impl Into<Integer>) -> Result<Self, FacetError> {
                let value = value.into();
                let check: fn(&Integer) -> bool = $check;
                if check(&value) {
                    Ok($name(value))
                } else {
                    Err($err)
                }
            }
            /// The value.
            pub fn get(&self) -> &Integer {
                &self.0
            }
            /// Reads the lexical form (sign and digits, white space collapsed).
            pub fn parse(text: &str) -> Result<Self, FacetError> {
                $name::new(parse_integer(&whitespace::collapse(text), $xsd)?)
            }
        }

        impl From<$name> for Integer {
            fn from(value: $name) -> Integer {
                value.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl FromStr for $name {
            type Err = FacetError;
            fn from_str(s: &str) -> Result<Self, FacetError> {
                $name::parse(s)
            }
        }
    };
}

bounded_integer!(
    /// `xs:nonNegativeInteger` (>= 0), unbounded above.
    NonNegativeInteger, "xs:nonNegativeInteger", |v| !v.is_negative(),
    FacetError::TooSmall { min: 0 });
bounded_integer!(
    /// `xs:positiveInteger` (>= 1), unbounded above.
    PositiveInteger, "xs:positiveInteger", |v| v.is_positive(),
    FacetError::TooSmall { min: 1 });
bounded_integer!(
    /// `xs:nonPositiveInteger` (<= 0), unbounded below.
    NonPositiveInteger, "xs:nonPositiveInteger", |v| !v.is_positive(),
    FacetError::TooLarge { max: 0 });
bounded_integer!(
    /// `xs:negativeInteger` (<= -1), unbounded below.
    NegativeInteger, "xs:negativeInteger", |v| v.is_negative(),
    FacetError::TooLarge { max: -1 });

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn decimal_lexical_space_and_canonical_form() {
        for (lexical, canonical) in [
            ("1", "1.0"),
            ("1.0", "1.0"),
            ("+01.500", "1.5"),
            ("-.5", "-0.5"),
            ("5.", "5.0"),
            ("-0", "0.0"),
            ("0.000", "0.0"),
            ("  12678967.543233 ", "12678967.543233"),
            ("0.001", "0.001"),
            (
                "123456789012345678901234567890.123456789012345678901",
                "123456789012345678901234567890.123456789012345678901",
            ),
        ] {
            assert_eq!(d(lexical).to_string(), canonical, "{lexical}");
        }
        for bad in [
            "", ".", "+", "-", "1e5", "1.2.3", "INF", "1 2", "0x10", "+-1", "١",
        ] {
            assert!(bad.parse::<Decimal>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn decimal_equality_and_order_are_the_value_space() {
        assert_eq!(d("1.0"), d("1"));
        assert_eq!(d("-0.0"), d("0"));
        assert!(d("-1.5") < d("-1.49"));
        assert!(d("0.1") < d("0.10000000000000000000000000000001"));
        assert!(d("99999999999999999999999999999999999999999") > d("1.5"));
    }

    #[test]
    fn digit_counts() {
        assert_eq!(d("0.001").total_digits(), 3);
        assert_eq!(d("100").total_digits(), 3);
        assert_eq!(d("0").total_digits(), 1);
        assert_eq!(d("-12.340").total_digits(), 4);
        assert_eq!(d("-12.340").fraction_digits(), 2);
    }

    #[test]
    fn integers_are_unbounded_and_derived_bounds_hold() {
        let big = "-123456789012345678901234567890123456789012345678901234567890";
        assert_eq!(Integer::parse(big).unwrap().to_string(), big);
        assert_eq!(Integer::parse("+007").unwrap().to_string(), "7");
        assert_eq!(Integer::parse("-0").unwrap().to_string(), "0");
        assert!(Integer::parse("1.0").is_err());
        assert!(PositiveInteger::parse("0").is_err());
        assert!(PositiveInteger::parse(&"9".repeat(100)).is_ok());
        assert!(NonNegativeInteger::parse("-0").is_ok());
        assert!(NonPositiveInteger::parse("1").is_err());
        assert!(NegativeInteger::parse("-0").is_err());
        assert!(NegativeInteger::parse("-1").is_ok());
    }
}
