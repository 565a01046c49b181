//! Facet values in the value space of their base type, at generation time: whether a bound
//! or an enumerated value is a value of the base, and how two bounds compare. The runtime's
//! value types (`boardxml::datatypes`) decide, so the generator and generated code agree
//! on every lexical space and order.

use std::cmp::Ordering;

use boardxml::datatypes as dt;
use boardxml::facets::FacetValue;
use boardxml::schema::SimpleValue;

use crate::ir::{Builtin, Repr, ValueType};

fn parses_as<T: SimpleValue>(text: &str) -> bool {
    T::parse_lexical(text).is_ok()
}

fn compare_as<T: FacetValue>(a: &str, b: &str) -> Option<Ordering> {
    let (a, b) = (T::parse_lexical(a).ok()?, T::parse_lexical(b).ok()?);
    a.facet_order(&b)
}

macro_rules! by_value_type {
    ($v:expr, $f:ident, $($arg:expr),*) => {
        match $v {
            ValueType::Decimal => $f::<dt::Decimal>($($arg),*),
            ValueType::Float => $f::<dt::Float>($($arg),*),
            ValueType::Double => $f::<dt::Double>($($arg),*),
            ValueType::Duration => $f::<dt::Duration>($($arg),*),
            ValueType::DayTimeDuration => $f::<dt::DayTimeDuration>($($arg),*),
            ValueType::YearMonthDuration => $f::<dt::YearMonthDuration>($($arg),*),
            ValueType::DateTime => $f::<dt::DateTime>($($arg),*),
            ValueType::DateTimeStamp => $f::<dt::DateTimeStamp>($($arg),*),
            ValueType::Time => $f::<dt::Time>($($arg),*),
            ValueType::Date => $f::<dt::Date>($($arg),*),
            ValueType::GYearMonth => $f::<dt::GYearMonth>($($arg),*),
            ValueType::GYear => $f::<dt::GYear>($($arg),*),
            ValueType::GMonthDay => $f::<dt::GMonthDay>($($arg),*),
            ValueType::GDay => $f::<dt::GDay>($($arg),*),
            ValueType::GMonth => $f::<dt::GMonth>($($arg),*),
            ValueType::HexBinary => $f::<dt::HexBinary>($($arg),*),
            ValueType::Base64Binary => $f::<dt::Base64Binary>($($arg),*),
            ValueType::QName => $f::<dt::QName>($($arg),*),
            ValueType::Notation => $f::<dt::Notation>($($arg),*),
            ValueType::Language => $f::<dt::Language>($($arg),*),
            ValueType::Name => $f::<dt::Name>($($arg),*),
            ValueType::NCName => $f::<dt::NCName>($($arg),*),
            ValueType::NmToken => $f::<dt::NmToken>($($arg),*),
            ValueType::NmTokens => $f::<dt::NmTokens>($($arg),*),
            ValueType::Id => $f::<dt::Id>($($arg),*),
            ValueType::IdRef => $f::<dt::IdRef>($($arg),*),
            ValueType::IdRefs => $f::<dt::IdRefs>($($arg),*),
            ValueType::Entity => $f::<dt::Entity>($($arg),*),
            ValueType::Entities => $f::<dt::Entities>($($arg),*),
            ValueType::AnySimpleType => $f::<dt::AnySimpleType>($($arg),*),
        }
    };
}

/// Whether `text` is in the lexical space of the built-in `b` (strings: always; the
/// unbounded integers: any integer their own bound allows; the others: an integer within
/// their range).
pub fn parses(b: Builtin, text: &str) -> bool {
    match b {
        Builtin::Integer => return parses_as::<dt::Integer>(text),
        Builtin::NonNegativeInteger => return parses_as::<dt::NonNegativeInteger>(text),
        Builtin::PositiveInteger => return parses_as::<dt::PositiveInteger>(text),
        Builtin::NonPositiveInteger => return parses_as::<dt::NonPositiveInteger>(text),
        Builtin::NegativeInteger => return parses_as::<dt::NegativeInteger>(text),
        _ => {}
    }
    match b.repr() {
        Repr::Value(v) => by_value_type!(v, parses_as, text),
        Repr::Int(int) => {
            let (min, max) = int.range();
            let (bmin, bmax) = b.implied_bounds();
            boardxml::schema::parse_integer(text, min, max, "")
                .is_ok_and(|v| bmin.is_none_or(|m| v >= m) && bmax.is_none_or(|m| v <= m))
        }
        Repr::Bool => parses_as::<bool>(text),
        Repr::String => true,
    }
}

/// How two values of `b` compare (`None`: incomparable, or `b` is not ordered).
pub fn compare(b: Builtin, x: &str, y: &str) -> Option<Ordering> {
    match b.repr() {
        Repr::Value(v) => by_value_type!(v, compare_as, x, y),
        Repr::Int(_) => compare_as::<dt::Integer>(x, y),
        Repr::Bool | Repr::String => None,
    }
}

fn canonical_as<T: SimpleValue>(text: &str) -> Option<String> {
    T::parse_lexical(text)
        .ok()
        .map(|v| v.to_lexical().into_owned())
}

fn equal_as<T: FacetValue>(a: &str, b: &str) -> bool {
    matches!((T::parse_lexical(a), T::parse_lexical(b)), (Ok(a), Ok(b)) if a == b)
}

fn length_as<T: FacetValue>(text: &str) -> Option<u64> {
    T::parse_lexical(text).ok()?.facet_length()
}

fn digits_as<T: FacetValue>(text: &str) -> Option<(u64, u64)> {
    T::parse_lexical(text).ok()?.facet_digits()
}

fn zoned_as<T: FacetValue>(text: &str) -> Option<bool> {
    T::parse_lexical(text).ok()?.facet_timezone()
}

/// The canonical lexical form of `text` as a value of `v` (`None`: not one).
pub fn canonical(v: ValueType, text: &str) -> Option<String> {
    by_value_type!(v, canonical_as, text)
}

/// Whether `a` and `b` are the same value of `v` (how enumerations compare).
pub fn equal(v: ValueType, a: &str, b: &str) -> bool {
    by_value_type!(v, equal_as, a, b)
}

/// What the length facets count in the value `text` of `v` (`None`: they always hold).
pub fn length(v: ValueType, text: &str) -> Option<u64> {
    by_value_type!(v, length_as, text)
}

/// (totalDigits, fractionDigits) of the value `text` of `v` (`None`: not a decimal).
pub fn digits(v: ValueType, text: &str) -> Option<(u64, u64)> {
    by_value_type!(v, digits_as, text)
}

/// Whether the value `text` of `v` has a timezone (`None`: not a date or time value).
pub fn zoned(v: ValueType, text: &str) -> Option<bool> {
    by_value_type!(v, zoned_as, text)
}

/// How two values of the value type `v` compare (`None`: incomparable or not ordered).
pub fn compare_values(v: ValueType, x: &str, y: &str) -> Option<Ordering> {
    by_value_type!(v, compare_as, x, y)
}
