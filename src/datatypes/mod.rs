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
//! | `QName`, `NOTATION` | [`QName`] (resolved where it is read, [`QName::parse_in`], to an [`ExpandedName`]), [`Notation`] |
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
mod edition;
mod float;
mod names;

pub use binary::{Base64Binary, HexBinary};
pub use datetime::{
    Date, DateTime, DateTimeStamp, DayTimeDuration, Duration, GDay, GMonth, GMonthDay, GYear,
    GYearMonth, Time, YearMonthDuration,
};
pub use decimal::{
    Decimal, Integer, NegativeInteger, NonNegativeInteger, NonPositiveInteger, PositiveInteger,
};
pub use edition::with_edition;
pub use float::{Double, Float};
pub use names::{
    AnySimpleType, Entities, Entity, ExpandedName, Id, IdRef, IdRefs, Language, NCName, Name,
    NmToken, NmTokens, Notation, QName,
};

/// [`SimpleValue`](crate::schema::SimpleValue) (through `parse` and the canonical
/// `Display`) and [`Element`](crate::schema::Element) for each value type, so that
/// generated code reads and writes them as it does the other built-ins.
macro_rules! simple_values {
    ($($ty:ty $(: $ids:ident)?),* $(,)?) => {$(
        impl crate::schema::SimpleValue for $ty {
            fn parse_lexical(text: &str) -> Result<Self, crate::schema::FacetError> {
                text.parse()
            }
            fn to_lexical(&self) -> std::borrow::Cow<'_, str> {
                std::borrow::Cow::Owned(self.to_string())
            }
            fn identity_key(&self) -> crate::identity::KeyValue {
                crate::identity_key::value_key::<Self>(&crate::schema::SimpleValue::to_lexical(self))
            }
            $(simple_values!(@ids $ids);)?
        }
        crate::bound_element!($ty);
    )*};
    (@ids id) => {
        fn ids(&self, found: &mut dyn FnMut(crate::schema::IdRole, &str)) {
            found(crate::schema::IdRole::Id, self.as_str())
        }
    };
    (@ids reference) => {
        fn ids(&self, found: &mut dyn FnMut(crate::schema::IdRole, &str)) {
            found(crate::schema::IdRole::Reference, self.as_str())
        }
    };
    (@ids references) => {
        fn ids(&self, found: &mut dyn FnMut(crate::schema::IdRole, &str)) {
            for item in self.items() {
                found(crate::schema::IdRole::Reference, item.as_str())
            }
        }
    };
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
    DayTimeDuration,
    DateTime,
    DateTimeStamp,
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
    Id: id,
    IdRef: reference,
    IdRefs: references,
    Entity,
    Entities,
    AnySimpleType,
);

/// `xs:yearMonthDuration` as the others, but keyed as the duration it is: its canonical
/// zero (`P0M`) is the duration's `PT0S`, and a key field compares values across the two.
impl crate::schema::SimpleValue for YearMonthDuration {
    fn parse_lexical(text: &str) -> Result<Self, crate::schema::FacetError> {
        text.parse()
    }
    fn to_lexical(&self) -> std::borrow::Cow<'_, str> {
        std::borrow::Cow::Owned(self.to_string())
    }
    fn identity_key(&self) -> crate::identity::KeyValue {
        crate::identity_key::value_key::<Self>(&self.duration().to_string())
    }
}
crate::bound_element!(YearMonthDuration);

/// QName and NOTATION: read where namespace declarations are in scope, they are resolved
/// (`parse_in`); their identity key is the expanded name, and a writer declares the binding
/// their prefix relies on.
macro_rules! name_values {
    ($($ty:ty),*) => {$(
        impl crate::schema::SimpleValue for $ty {
            fn parse_lexical(text: &str) -> Result<Self, crate::schema::FacetError> {
                text.parse()
            }
            fn parse_in(
                text: &str,
                scope: &dyn crate::schema::NamespaceScope,
            ) -> Result<Self, crate::schema::FacetError> {
                <$ty>::parse_in(text, scope)
            }
            fn to_lexical(&self) -> std::borrow::Cow<'_, str> {
                std::borrow::Cow::Owned(self.to_string())
            }
            fn bindings(&self, found: &mut dyn FnMut(&str, &str)) {
                if let Some((prefix, namespace)) = AsRef::<QName>::as_ref(self).binding() {
                    found(prefix, namespace)
                }
            }
            fn identity_key(&self) -> crate::identity::KeyValue {
                let q: &QName = self.as_ref();
                let primitive = <Self as crate::identity_key::HasPrimitive>::PRIMITIVE;
                match q.namespace() {
                    Some(ns) => crate::identity::KeyValue::expanded(primitive, ns, q.local()),
                    None => crate::identity::KeyValue::new(primitive, &self.to_string()),
                }
            }
        }
        crate::bound_element!($ty);
    )*};
}

name_values!(QName, Notation);

/// [`FacetValue`](crate::facets::FacetValue): what the length and digit facets count.
mod facet_values {
    use super::*;
    use crate::facets::FacetValue;
    use crate::schema::xs;

    macro_rules! counted {
        ($how:ident: $($ty:ty),* $(,)?) => {$(
            impl FacetValue for $ty {
                fn facet_length(&self) -> Option<u64> {
                    counted!(@ $how self)
                }
            }
        )*};
        (@ chars $v:ident) => { Some($v.as_str().chars().count() as u64) };
        (@ octets $v:ident) => { Some($v.0.len() as u64) };
        (@ items $v:ident) => { Some($v.0.len() as u64) };
    }

    counted!(chars: Name, NCName, NmToken, Language, Id, IdRef, Entity,
        xs::NormalizedString, xs::Token, xs::AnyUri);
    counted!(octets: HexBinary, Base64Binary);
    counted!(items: NmTokens, IdRefs, Entities);

    impl FacetValue for String {
        fn facet_length(&self) -> Option<u64> {
            Some(self.chars().count() as u64)
        }
    }
    impl FacetValue for AnySimpleType {
        fn facet_length(&self) -> Option<u64> {
            Some(self.0.chars().count() as u64)
        }
    }

    // QName and NOTATION, whose length facets always hold (erratum E2-36), and boolean.
    impl FacetValue for QName {}
    impl FacetValue for Notation {}
    impl FacetValue for bool {}

    macro_rules! ordered {
        ($($ty:ty $({ $($digits:tt)* })?),* $(,)?) => {$(
            impl FacetValue for $ty {
                fn facet_order(&self, other: &Self) -> Option<std::cmp::Ordering> {
                    self.partial_cmp(other)
                }
                $($($digits)*)?
            }
        )*};
    }
    ordered!(Float, Double, Duration, DayTimeDuration, YearMonthDuration);
    // The date and time types, which explicitTimezone constrains.
    macro_rules! zoned {
        ($($ty:ty),*) => {$(
            ordered!($ty {
                fn facet_timezone(&self) -> Option<bool> {
                    Some(self.is_zoned())
                }
            });
        )*};
    }
    zoned!(DateTime, Time, Date, GYearMonth, GYear, GMonthDay, GDay, GMonth);
    ordered!(DateTimeStamp {
        fn facet_timezone(&self) -> Option<bool> {
            Some(self.date_time().is_zoned())
        }
    });
    ordered!(
        Decimal {
            fn facet_digits(&self) -> Option<(u64, u64)> {
                Some((self.total_digits(), self.fraction_digits()))
            }
        },
        Integer {
            fn facet_digits(&self) -> Option<(u64, u64)> {
                Some((self.digits(), 0))
            }
        },
        NonNegativeInteger {
            fn facet_digits(&self) -> Option<(u64, u64)> {
                Some((self.get().digits(), 0))
            }
        },
        PositiveInteger {
            fn facet_digits(&self) -> Option<(u64, u64)> {
                Some((self.get().digits(), 0))
            }
        },
        NonPositiveInteger {
            fn facet_digits(&self) -> Option<(u64, u64)> {
                Some((self.get().digits(), 0))
            }
        },
        NegativeInteger {
            fn facet_digits(&self) -> Option<(u64, u64)> {
                Some((self.get().digits(), 0))
            }
        },
    );
    macro_rules! primitive_digits {
        ($($ty:ty),*) => {$(
            ordered!($ty {
                fn facet_digits(&self) -> Option<(u64, u64)> {
                    let magnitude = (*self as i128).unsigned_abs();
                    Some((u64::from(magnitude.checked_ilog10().unwrap_or(0)) + 1, 0))
                }
            });
        )*};
    }
    primitive_digits!(i8, i16, i32, i64, u8, u16, u32, u64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facets::{Bound, Facets, Step, WhiteSpace};
    use crate::schema::FacetError;

    static PRICE: Facets = Facets::new(
        WhiteSpace::Collapse,
        &[Step::NONE
            .bounds(&[(Bound::MinExclusive, "0"), (Bound::MaxInclusive, "999.99")])
            .total_digits(4)
            .fraction_digits(2)],
    );

    #[test]
    fn decimal_facets_in_the_value_space() {
        assert!(PRICE.read_value::<Decimal>("999.90").is_ok());
        assert!(PRICE.read_value::<Decimal>("99.99").is_ok());
        assert!(PRICE.read_value::<Decimal>(" 0.01 ").is_ok());
        assert_eq!(
            PRICE.read_value::<Decimal>("0.0"),
            Err(FacetError::Bound {
                relation: ">",
                bound: "0"
            })
        );
        assert!(matches!(
            PRICE.read_value::<Decimal>("1000"),
            Err(FacetError::Bound { .. })
        ));
        assert_eq!(
            PRICE.read_value::<Decimal>("999.99"),
            Err(FacetError::TotalDigits { max: 4 })
        );
        assert_eq!(
            PRICE.read_value::<Decimal>("1.005"),
            Err(FacetError::FractionDigits { max: 2 })
        );
        assert_eq!(
            PRICE.read_value::<Decimal>("1.005").unwrap_err().code(),
            crate::diagnostic::Code::RANGE
        );
    }

    static ONE_OR_TWO: Facets = Facets::new(
        WhiteSpace::Collapse,
        &[Step::NONE.enumeration(&["1.0", "2"])],
    );

    #[test]
    fn enumerations_compare_values() {
        assert!(ONE_OR_TWO.read_value::<Decimal>("1").is_ok());
        assert!(ONE_OR_TWO.read_value::<Decimal>("2.000").is_ok());
        assert!(ONE_OR_TWO.read_value::<Decimal>("1.5").is_err());
        // A table read as another type reads its values again.
        assert!(ONE_OR_TWO.read_value::<Double>("1e0").is_ok());
        assert!(ONE_OR_TWO.read_value::<Double>("3").is_err());
    }

    static IN_2000: Facets = Facets::new(
        WhiteSpace::Collapse,
        &[Step::NONE.bounds(&[
            (Bound::MinInclusive, "2000-01-01T00:00:00Z"),
            (Bound::MaxExclusive, "2001-01-01T00:00:00Z"),
        ])],
    );

    #[test]
    fn indeterminate_comparisons_fail_the_facet() {
        assert!(IN_2000
            .read_value::<DateTime>("2000-06-01T00:00:00")
            .is_ok());
        // Within 14 hours of the bound without a zone: indeterminate, so a failure.
        assert!(IN_2000
            .read_value::<DateTime>("2000-01-01T10:00:00")
            .is_err());
        assert!(IN_2000
            .read_value::<DateTime>("2000-01-01T10:00:00Z")
            .is_ok());
    }

    static POSITIVE: Facets = Facets::new(
        WhiteSpace::Collapse,
        &[Step::NONE.bounds(&[(Bound::MinExclusive, "0")])],
    );

    #[test]
    fn nan_is_outside_every_bound() {
        assert!(POSITIVE.read_value::<Double>("NaN").is_err());
        assert!(POSITIVE.read_value::<Double>("INF").is_ok());
        assert!(POSITIVE.read_value::<Float>("-0").is_err());
    }

    static TWO_OCTETS: Facets = Facets::new(WhiteSpace::Collapse, &[Step::NONE.length(2)]);

    #[test]
    fn binary_lengths_count_octets() {
        assert!(TWO_OCTETS.read_value::<HexBinary>("0A0B").is_ok());
        assert!(TWO_OCTETS.read_value::<HexBinary>("0A").is_err());
        assert!(TWO_OCTETS.read_value::<Base64Binary>("AAA=").is_ok());
        assert!(TWO_OCTETS.read_value::<NmTokens>("a b").is_ok());
        assert!(TWO_OCTETS.read_value::<NmTokens>("a b c").is_err());
        assert!(TWO_OCTETS.read_value::<QName>("p:abc").is_ok());
    }
}

/// The primitive of each value type (identity constraints compare values of one primitive).
macro_rules! primitives {
    ($($ty:ident => $p:ident),* $(,)?) => {$(
        impl crate::identity_key::HasPrimitive for $ty {
            const PRIMITIVE: crate::identity_key::Primitive = crate::identity_key::Primitive::$p;
        }
    )*};
}

primitives!(
    Decimal => Decimal,
    Integer => Decimal,
    NonNegativeInteger => Decimal,
    PositiveInteger => Decimal,
    NonPositiveInteger => Decimal,
    NegativeInteger => Decimal,
    Float => Float,
    Double => Double,
    Duration => Duration,
    DayTimeDuration => Duration,
    YearMonthDuration => Duration,
    DateTime => DateTime,
    DateTimeStamp => DateTime,
    Time => Time,
    Date => Date,
    GYearMonth => GYearMonth,
    GYear => GYear,
    GMonthDay => GMonthDay,
    GDay => GDay,
    GMonth => GMonth,
    HexBinary => HexBinary,
    Base64Binary => Base64Binary,
    Name => String,
    NCName => String,
    NmToken => String,
    NmTokens => List,
    Language => String,
    Id => String,
    IdRef => String,
    IdRefs => List,
    Entity => String,
    Entities => List,
    QName => QName,
    Notation => Notation,
    AnySimpleType => String,
);
