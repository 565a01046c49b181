//! The value types of the built-in datatypes of XSD 1.0 Part 2, each with its lexical
//! space (`parse`, `FromStr`, white space collapsed as the type's `whiteSpace` says), its
//! value space (equality and order: `PartialEq`/`PartialOrd`, partial where Part 2 says
//! so, `None` for an indeterminate comparison) and its canonical form (`Display`).
//!
//! | XSD | Rust |
//! | --- | --- |
//! | `decimal` | [`Decimal`] (exact, any precision) |
//! | `integer` | [`Integer`] (unbounded) |
//! | `nonNegativeInteger`, `positiveInteger`, `nonPositiveInteger`, `negativeInteger` | [`NonNegativeInteger`], [`PositiveInteger`], [`NonPositiveInteger`], [`NegativeInteger`] (unbounded) |
//! | `long`, `int`, `short`, `byte`, `unsignedLong`, `unsignedInt`, `unsignedShort`, `unsignedByte` | `i64`, `i32`, `i16`, `i8`, `u64`, `u32`, `u16`, `u8` (their ranges are exactly XSD's) |
//! | `float`, `double` | [`Float`], [`Double`] |
//! | `duration` | [`Duration`] |
//! | `dateTime`, `time`, `date` | [`DateTime`], [`Time`], [`Date`] |
//! | `gYearMonth`, `gYear`, `gMonthDay`, `gDay`, `gMonth` | [`GYearMonth`], [`GYear`], [`GMonthDay`], [`GDay`], [`GMonth`] |
//! | `hexBinary`, `base64Binary` | [`HexBinary`], [`Base64Binary`] (octets) |
//! | `Name`, `NCName`, `NMTOKEN`, `NMTOKENS`, `language` | [`Name`], [`NCName`], [`NmToken`], [`NmTokens`], [`Language`] |
//! | `ID`, `IDREF`, `IDREFS`, `ENTITY`, `ENTITIES` | [`Id`], [`IdRef`], [`IdRefs`], [`Entity`], [`Entities`] |
//! | `QName`, `NOTATION` | [`QName`] (resolved with [`QName::resolve`] to an [`ExpandedName`]), [`Notation`] |
//! | `anySimpleType` | [`AnySimpleType`] |
//! | `string`, `normalizedString`, `token`, `anyURI`, `boolean` | `String`, [`crate::schema::xs::NormalizedString`], [`crate::schema::xs::Token`], [`crate::schema::xs::AnyUri`], `bool` |
//!
//! A value is never rounded, truncated or wrapped, except where the type itself rounds
//! (`float` and `double` round a decimal to the nearest binary value, as Part 2 says).
//! Years of the date types are held up to twelve digits, and the parts of a duration up to
//! twenty: beyond that a value is refused with a lexical error, not wrapped.

mod binary;
mod datetime;
mod decimal;
mod float;
mod names;

pub use binary::{Base64Binary, HexBinary};
pub use datetime::{Date, DateTime, Duration, GDay, GMonth, GMonthDay, GYear, GYearMonth, Time};
pub use decimal::{
    Decimal, Integer, NegativeInteger, NonNegativeInteger, NonPositiveInteger, PositiveInteger,
};
pub use float::{Double, Float};
pub use names::{
    AnySimpleType, Entities, Entity, ExpandedName, Id, IdRef, IdRefs, Language, NCName, Name,
    NmToken, NmTokens, Notation, QName,
};

/// [`SimpleValue`](crate::schema::SimpleValue) (through `parse` and the canonical
/// `Display`) and [`Element`](crate::schema::Element) for each value type, so that
/// generated code reads and writes them as it does the other built-ins.
macro_rules! simple_values {
    ($($ty:ty),* $(,)?) => {$(
        impl crate::schema::SimpleValue for $ty {
            fn parse_lexical(text: &str) -> Result<Self, crate::schema::FacetError> {
                text.parse()
            }
            fn to_lexical(&self) -> std::borrow::Cow<'_, str> {
                std::borrow::Cow::Owned(self.to_string())
            }
        }
        crate::bound_element!($ty);
    )*};
}

simple_values!(
    Decimal,
    Integer,
    NonNegativeInteger,
    PositiveInteger,
    NonPositiveInteger,
    NegativeInteger,
    Float,
    Double,
    Duration,
    DateTime,
    Time,
    Date,
    GYearMonth,
    GYear,
    GMonthDay,
    GDay,
    GMonth,
    HexBinary,
    Base64Binary,
    Name,
    NCName,
    NmToken,
    NmTokens,
    Language,
    Id,
    IdRef,
    IdRefs,
    Entity,
    Entities,
    QName,
    Notation,
    AnySimpleType,
);
