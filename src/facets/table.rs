//! The constraining facets of XSD 1.0 and 1.1 as one table (Part 2, 4.3): each facet's
//! name, the primitives (and varieties) it applies to, how its `value` is checked, what it
//! constrains, the diagnostic code a value it rejects gets, and whether only XSD 1.1 has
//! it. (1.1's `assertion` is no row: it is a test, not a value.)
//!
//! Everything that handles facets by name reads this table: the generator's validity
//! checks, its conversion, renderer and `diff`, and this crate's errors. Adding a facet is
//! a row here and its check in [`Step`](super::Step); a consumer that iterates the table
//! picks it up. Invariant: [`FACETS`] holds one row per [`Facet`], in the enum's order
//! (`FACETS[f as usize].facet == f`, a test checks it).

use super::Bound;
use crate::diagnostic::Code;
use crate::schema::FacetError;

/// A constraining facet (Part 2, 4.3), in the order of [`FACETS`] (Part 2's order, but
/// the lower bounds before the upper, as [`Bound`] has them, and XSD 1.1's last).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Facet {
    /// `xs:length`.
    Length,
    /// `xs:minLength`.
    MinLength,
    /// `xs:maxLength`.
    MaxLength,
    /// `xs:pattern`.
    Pattern,
    /// `xs:enumeration`.
    Enumeration,
    /// `xs:whiteSpace`.
    WhiteSpace,
    /// `xs:minInclusive`.
    MinInclusive,
    /// `xs:minExclusive`.
    MinExclusive,
    /// `xs:maxInclusive`.
    MaxInclusive,
    /// `xs:maxExclusive`.
    MaxExclusive,
    /// `xs:totalDigits`.
    TotalDigits,
    /// `xs:fractionDigits`.
    FractionDigits,
    /// `xs:explicitTimezone` (XSD 1.1).
    ExplicitTimezone,
}

/// The families of facets that Part 2, 4.1.5 grants or refuses together (a type takes all
/// three lengths or none of them, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FacetKind {
    /// length, minLength, maxLength.
    Length,
    /// pattern.
    Pattern,
    /// enumeration.
    Enumeration,
    /// whiteSpace.
    WhiteSpace,
    /// minInclusive, minExclusive, maxInclusive, maxExclusive.
    Bounds,
    /// totalDigits, fractionDigits.
    Digits,
    /// explicitTimezone.
    Timezone,
}

impl FacetKind {
    /// The family in words, for an error that names it ("a value bound does not apply").
    pub fn label(self) -> &'static str {
        match self {
            FacetKind::Length => "length, minLength or maxLength",
            FacetKind::Pattern => "pattern",
            FacetKind::Enumeration => "enumeration",
            FacetKind::WhiteSpace => "whiteSpace",
            FacetKind::Bounds => "a value bound",
            FacetKind::Digits => "totalDigits or fractionDigits",
            FacetKind::Timezone => "explicitTimezone",
        }
    }
}

/// How a facet's own `value` attribute is checked in the schema (not to be confused with
/// [`FacetValue`](super::FacetValue), a value a facet checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FacetArgument {
    /// A non-negative integer (the lengths, fractionDigits).
    NonNegativeInteger,
    /// A positive integer (totalDigits).
    PositiveInteger,
    /// A value of the base type (the bounds, enumeration).
    BaseValue,
    /// `preserve`, `replace` or `collapse`.
    WhiteSpace,
    /// A regular expression (Part 2, appendix F).
    Pattern,
    /// `required`, `prohibited` or `optional` ([`ExplicitTimezone`]).
    Timezone,
}

impl FacetArgument {
    /// Whether the value is a count (a non-negative or positive integer).
    pub fn is_count(self) -> bool {
        matches!(
            self,
            FacetArgument::NonNegativeInteger | FacetArgument::PositiveInteger
        )
    }
}

/// Which way a count facet bounds what it counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// Exactly the count.
    Exact,
    /// At least the count.
    AtLeast,
    /// At most the count.
    AtMost,
}

impl Extent {
    /// Whether a derived step's count `derived` keeps within its base's `base` (the
    /// `*-valid-restriction` constraints: a maxLength may only go down, ...).
    pub fn narrows<T: Ord>(self, derived: T, base: T) -> bool {
        match self {
            Extent::Exact => derived == base,
            Extent::AtLeast => derived >= base,
            Extent::AtMost => derived <= base,
        }
    }
}

/// What a facet constrains in a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constraint {
    /// Its length (characters, octets or list items).
    Length(Extent),
    /// Its order against a bound.
    Bound(Bound),
    /// Its digits in all.
    TotalDigits,
    /// Its digits after the decimal point.
    FractionDigits,
    /// Membership of a set of values.
    Enumeration,
    /// Its lexical form.
    Pattern,
    /// Its lexical form's white space, before anything else is checked.
    WhiteSpace,
    /// Whether it has a timezone.
    Timezone,
}

impl Constraint {
    /// How a count facet bounds what it counts (the digits are at most their count);
    /// none for a facet that is no count.
    pub fn extent(self) -> Option<Extent> {
        match self {
            Constraint::Length(e) => Some(e),
            Constraint::TotalDigits | Constraint::FractionDigits => Some(Extent::AtMost),
            _ => None,
        }
    }
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct FacetDef {
    /// Which facet.
    pub facet: Facet,
    /// Its XSD local name.
    pub name: &'static str,
    /// The primitives it applies to (Part 2, 4.1.5), with `list` and `union` for those
    /// varieties; `anySimpleType` takes none.
    pub applies_to: Applies,
    /// Its family (what 4.1.5 grants together).
    pub kind: FacetKind,
    /// How its value is checked.
    pub value: FacetArgument,
    /// What it constrains.
    pub constrains: Constraint,
    /// Whether it takes the `fixed` attribute (all but pattern and enumeration).
    pub fixable: bool,
    /// The code of a value it rejects (none: it never rejects one, it rewrites it).
    pub code: Option<Code>,
    /// Whether only XSD 1.1 has it (a schema read as 1.0 may not use it).
    pub xsd_1_1: bool,
}

/// Which primitives (and varieties) a facet applies to.
#[derive(Debug, Clone, Copy)]
pub enum Applies {
    /// These.
    Only(&'static [&'static str]),
    /// Every primitive and both varieties but these.
    AllBut(&'static [&'static str]),
}

impl Applies {
    /// Whether `primitive` (a primitive's name, `list` or `union`) is among them.
    pub fn contains(self, primitive: &str) -> bool {
        match self {
            Applies::Only(these) => these.contains(&primitive),
            Applies::AllBut(these) => {
                (PRIMITIVES.contains(&primitive) || matches!(primitive, "list" | "union"))
                    && !these.contains(&primitive)
            }
        }
    }
}

/// The primitive types of XSD 1.0 (Part 2, 3.2).
pub const PRIMITIVES: [&str; 19] = [
    "string",
    "boolean",
    "decimal",
    "float",
    "double",
    "duration",
    "dateTime",
    "time",
    "date",
    "gYearMonth",
    "gYear",
    "gMonthDay",
    "gDay",
    "gMonth",
    "hexBinary",
    "base64Binary",
    "anyURI",
    "QName",
    "NOTATION",
];

/// Primitives whose values have a length, and lists.
const MEASURED: Applies = Applies::Only(&[
    "string",
    "anyURI",
    "QName",
    "NOTATION",
    "hexBinary",
    "base64Binary",
    "list",
]);
/// Primitives whose values are ordered: decimal to gMonth in [`PRIMITIVES`].
const ORDERED: Applies = Applies::Only(PRIMITIVES.split_at(2).1.split_at(12).0);
/// Primitives whose values may have a timezone: dateTime to gMonth in [`PRIMITIVES`].
const ZONED: Applies = Applies::Only(PRIMITIVES.split_at(6).1.split_at(8).0);

const fn length(facet: Facet, name: &'static str, extent: Extent) -> FacetDef {
    FacetDef {
        facet,
        name,
        applies_to: MEASURED,
        kind: FacetKind::Length,
        value: FacetArgument::NonNegativeInteger,
        constrains: Constraint::Length(extent),
        fixable: true,
        code: Some(Code::LENGTH),
        xsd_1_1: false,
    }
}

const fn bound(facet: Facet, name: &'static str, bound: Bound) -> FacetDef {
    FacetDef {
        facet,
        name,
        applies_to: ORDERED,
        kind: FacetKind::Bounds,
        value: FacetArgument::BaseValue,
        constrains: Constraint::Bound(bound),
        fixable: true,
        code: Some(Code::RANGE),
        xsd_1_1: false,
    }
}

const fn digits(facet: Facet, name: &'static str, value: FacetArgument, c: Constraint) -> FacetDef {
    FacetDef {
        facet,
        name,
        applies_to: Applies::Only(&["decimal"]),
        kind: FacetKind::Digits,
        value,
        constrains: c,
        fixable: true,
        code: Some(Code::RANGE),
        xsd_1_1: false,
    }
}

/// The facets of XSD 1.0 and 1.1, one row per [`Facet`] in its order.
pub const FACETS: [FacetDef; 13] = [
    length(Facet::Length, "length", Extent::Exact),
    length(Facet::MinLength, "minLength", Extent::AtLeast),
    length(Facet::MaxLength, "maxLength", Extent::AtMost),
    FacetDef {
        facet: Facet::Pattern,
        name: "pattern",
        applies_to: Applies::AllBut(&[]),
        kind: FacetKind::Pattern,
        value: FacetArgument::Pattern,
        constrains: Constraint::Pattern,
        fixable: false,
        code: Some(Code::PATTERN),
        xsd_1_1: false,
    },
    FacetDef {
        facet: Facet::Enumeration,
        name: "enumeration",
        // A boolean's two values need no enumeration.
        applies_to: Applies::AllBut(&["boolean"]),
        kind: FacetKind::Enumeration,
        value: FacetArgument::BaseValue,
        constrains: Constraint::Enumeration,
        fixable: false,
        code: Some(Code::ENUMERATION),
        xsd_1_1: false,
    },
    FacetDef {
        facet: Facet::WhiteSpace,
        name: "whiteSpace",
        // A union's white space is its members'.
        applies_to: Applies::AllBut(&["union"]),
        kind: FacetKind::WhiteSpace,
        value: FacetArgument::WhiteSpace,
        constrains: Constraint::WhiteSpace,
        fixable: true,
        code: None,
        xsd_1_1: false,
    },
    bound(Facet::MinInclusive, "minInclusive", Bound::MinInclusive),
    bound(Facet::MinExclusive, "minExclusive", Bound::MinExclusive),
    bound(Facet::MaxInclusive, "maxInclusive", Bound::MaxInclusive),
    bound(Facet::MaxExclusive, "maxExclusive", Bound::MaxExclusive),
    digits(
        Facet::TotalDigits,
        "totalDigits",
        FacetArgument::PositiveInteger,
        Constraint::TotalDigits,
    ),
    digits(
        Facet::FractionDigits,
        "fractionDigits",
        FacetArgument::NonNegativeInteger,
        Constraint::FractionDigits,
    ),
    FacetDef {
        facet: Facet::ExplicitTimezone,
        name: "explicitTimezone",
        applies_to: ZONED,
        kind: FacetKind::Timezone,
        value: FacetArgument::Timezone,
        constrains: Constraint::Timezone,
        fixable: true,
        code: Some(Code::TIMEZONE),
        xsd_1_1: true,
    },
];

/// The value of `xs:explicitTimezone` (XSD 1.1 Part 2, 4.3.14): whether a value must
/// have a timezone, must not, or may.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExplicitTimezone {
    /// Every value has a timezone.
    Required,
    /// No value has one.
    Prohibited,
    /// Either (what the primitives have).
    Optional,
}

impl ExplicitTimezone {
    /// The facet's value as a schema writes it.
    pub fn from_name(name: &str) -> Option<ExplicitTimezone> {
        Some(match name {
            "required" => ExplicitTimezone::Required,
            "prohibited" => ExplicitTimezone::Prohibited,
            "optional" => ExplicitTimezone::Optional,
            _ => return None,
        })
    }

    /// How a schema writes it.
    pub fn name(self) -> &'static str {
        match self {
            ExplicitTimezone::Required => "required",
            ExplicitTimezone::Prohibited => "prohibited",
            ExplicitTimezone::Optional => "optional",
        }
    }

    /// Whether a value that has a timezone (`zoned`) or not is admitted.
    pub fn admits(self, zoned: bool) -> bool {
        match self {
            ExplicitTimezone::Required => zoned,
            ExplicitTimezone::Prohibited => !zoned,
            ExplicitTimezone::Optional => true,
        }
    }

    /// Whether a restriction may set `derived` where its base has `self`
    /// (timezone-valid-restriction, Part 2, 4.3.14.4: a required or prohibited timezone
    /// stays so).
    pub fn narrows_to(self, derived: ExplicitTimezone) -> bool {
        self == ExplicitTimezone::Optional || self == derived
    }
}

impl Facet {
    /// The facet's row of [`FACETS`].
    pub fn def(self) -> &'static FacetDef {
        &FACETS[self as usize]
    }

    /// The facet whose XSD local name is `name`.
    pub fn from_name(name: &str) -> Option<Facet> {
        FACETS.iter().find(|d| d.name == name).map(|d| d.facet)
    }

    /// Its XSD local name.
    pub fn name(self) -> &'static str {
        self.def().name
    }

    /// Whether it applies to a type whose primitive (or variety, `list` or `union`) is
    /// `primitive` (Part 2, 4.1.5).
    pub fn applies_to(self, primitive: &str) -> bool {
        self.def().applies_to.contains(primitive)
    }
}

impl Bound {
    /// The XSD local name of the facet that sets this bound.
    pub fn xsd_name(self) -> &'static str {
        self.facet().name()
    }

    /// Whether it bounds from below.
    pub fn is_lower(self) -> bool {
        matches!(self, Bound::MinInclusive | Bound::MinExclusive)
    }

    /// The inclusive integer bound that this bound at the integer `v` is (one above an
    /// exclusive lower bound, one below an exclusive upper bound; none past `i128`).
    pub fn inclusive_integer(self, v: i128) -> Option<i128> {
        match self {
            Bound::MinInclusive | Bound::MaxInclusive => Some(v),
            Bound::MinExclusive => v.checked_add(1),
            Bound::MaxExclusive => v.checked_sub(1),
        }
    }

    /// The facet that sets this bound.
    pub fn facet(self) -> Facet {
        match self {
            Bound::MinInclusive => Facet::MinInclusive,
            Bound::MinExclusive => Facet::MinExclusive,
            Bound::MaxInclusive => Facet::MaxInclusive,
            Bound::MaxExclusive => Facet::MaxExclusive,
        }
    }
}

impl FacetKind {
    /// Whether any facet of this family applies to `primitive` (the families are granted
    /// whole, so any is all).
    pub fn applies_to(self, primitive: &str) -> bool {
        FACETS
            .iter()
            .any(|d| d.kind == self && d.applies_to.contains(primitive))
    }
}

/// A facet's failure knows its facet and code from the table (here rather than in
/// `schema`, which defines the error: the table reads the schema's types, not the reverse).
impl FacetError {
    /// The diagnostic code for this kind of failure: the code of the facet that failed
    /// ([`FACETS`]), or of the type itself.
    pub fn code(&self) -> Code {
        match self.facet().and_then(|f| f.def().code) {
            Some(code) => code,
            None if matches!(self, FacetError::Union { .. }) => Code::UNION,
            // XSD 1.1's assertion is a test, not a row of the table.
            None if matches!(self, FacetError::Assertion { .. }) => Code::ASSERTION,
            None => Code::LEXICAL,
        }
    }

    /// The facet that failed (none: the value is no value of the type at all). A bound
    /// folded into an integer range is reported as the inclusive bound it became.
    pub fn facet(&self) -> Option<Facet> {
        Some(match self {
            FacetError::Lexical { .. }
            | FacetError::UnboundPrefix
            | FacetError::Union { .. }
            | FacetError::Assertion { .. } => return None,
            FacetError::Enumeration { .. } => Facet::Enumeration,
            FacetError::Pattern { .. } => Facet::Pattern,
            FacetError::TooSmall { .. } => Facet::MinInclusive,
            FacetError::TooLarge { .. } => Facet::MaxInclusive,
            FacetError::TotalDigits { .. } => Facet::TotalDigits,
            FacetError::Bound { relation, .. } => {
                FACETS.iter().find_map(|d| match d.constrains {
                    Constraint::Bound(b) if b.relation() == *relation => Some(d.facet),
                    _ => None,
                })?
            }
            FacetError::FractionDigits { .. } => Facet::FractionDigits,
            FacetError::Timezone { .. } => Facet::ExplicitTimezone,
            FacetError::Length { .. } => Facet::Length,
            FacetError::TooShort { .. } => Facet::MinLength,
            FacetError::TooLong { .. } => Facet::MaxLength,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_facet_in_order() {
        for (i, d) in FACETS.iter().enumerate() {
            assert_eq!(d.facet as usize, i, "{}", d.name);
            assert_eq!(Facet::from_name(d.name), Some(d.facet));
        }
        assert_eq!(Facet::from_name("assertion"), None);
    }

    #[test]
    fn applicability_follows_part_2() {
        // 4.1.5: a string takes lengths but no bounds, a decimal digits but no lengths,
        // a boolean neither enumeration nor bounds, a union only pattern and enumeration.
        assert!(Facet::MaxLength.applies_to("string"));
        assert!(!Facet::MinInclusive.applies_to("string"));
        assert!(Facet::TotalDigits.applies_to("decimal"));
        assert!(!Facet::Length.applies_to("decimal"));
        assert!(!Facet::FractionDigits.applies_to("float"));
        assert!(!Facet::Enumeration.applies_to("boolean"));
        assert!(Facet::WhiteSpace.applies_to("boolean"));
        let union: Vec<&str> = FACETS
            .iter()
            .filter(|d| d.facet.applies_to("union"))
            .map(|d| d.name)
            .collect();
        assert_eq!(union, ["pattern", "enumeration"]);
        assert!(FACETS.iter().all(|d| !d.facet.applies_to("anySimpleType")));
        let ordered: Vec<&str> = PRIMITIVES
            .iter()
            .copied()
            .filter(|p| Facet::MinInclusive.applies_to(p))
            .collect();
        assert_eq!(ordered.first(), Some(&"decimal"));
        assert_eq!(ordered.last(), Some(&"gMonth"));
        assert!(!ordered.contains(&"string") && ordered.len() == 12);
        let zoned: Vec<&str> = PRIMITIVES
            .iter()
            .copied()
            .filter(|p| Facet::ExplicitTimezone.applies_to(p))
            .collect();
        assert_eq!(zoned.first(), Some(&"dateTime"));
        assert_eq!(zoned.last(), Some(&"gMonth"));
        assert!(!zoned.contains(&"duration") && zoned.len() == 8);
        // A family is granted whole.
        for d in &FACETS {
            for p in PRIMITIVES.iter().chain(&["list", "union"]) {
                assert_eq!(
                    d.facet.applies_to(p),
                    d.kind.applies_to(p),
                    "{} {p}",
                    d.name
                );
            }
        }
    }

    #[test]
    fn failures_get_their_facets_codes() {
        use crate::schema::FacetError as E;
        let cases = [
            (E::Lexical { expected: "int" }, Code::LEXICAL),
            (E::UnboundPrefix, Code::LEXICAL),
            (E::Union { members: &[] }, Code::UNION),
            (E::Enumeration { allowed: &[] }, Code::ENUMERATION),
            (E::Pattern { patterns: &[] }, Code::PATTERN),
            (E::TooSmall { min: 0 }, Code::RANGE),
            (E::TooLarge { max: 0 }, Code::RANGE),
            (E::TotalDigits { max: 1 }, Code::RANGE),
            (E::FractionDigits { max: 1 }, Code::RANGE),
            (E::Timezone { required: true }, Code::TIMEZONE),
            (
                E::Assertion {
                    test: "$value gt 0",
                },
                Code::ASSERTION,
            ),
            (
                E::Length {
                    expected: 1,
                    found: 2,
                },
                Code::LENGTH,
            ),
            (E::TooShort { min: 1, found: 0 }, Code::LENGTH),
            (E::TooLong { max: 1, found: 2 }, Code::LENGTH),
        ];
        for (error, code) in cases {
            assert_eq!(error.code(), code, "{error:?}");
        }
        for d in FACETS
            .iter()
            .filter(|d| matches!(d.constrains, Constraint::Bound(_)))
        {
            let Constraint::Bound(b) = d.constrains else {
                unreachable!()
            };
            let error = E::Bound {
                relation: b.relation(),
                bound: "1",
            };
            assert_eq!((error.facet(), error.code()), (Some(d.facet), Code::RANGE));
        }
    }

    #[test]
    fn a_required_or_prohibited_timezone_stays_so() {
        use ExplicitTimezone::*;
        for t in [Required, Prohibited, Optional] {
            assert_eq!(ExplicitTimezone::from_name(t.name()), Some(t));
            assert!(Optional.narrows_to(t) && t.narrows_to(t));
        }
        assert!(!Required.narrows_to(Optional) && !Required.narrows_to(Prohibited));
        assert!(!Prohibited.narrows_to(Optional) && !Prohibited.narrows_to(Required));
        assert!(Required.admits(true) && !Required.admits(false));
        assert!(Prohibited.admits(false) && !Prohibited.admits(true));
        assert!(Optional.admits(true) && Optional.admits(false));
        assert_eq!(ExplicitTimezone::from_name("Required"), None);
        let only_1_1: Vec<&str> = FACETS
            .iter()
            .filter(|d| d.xsd_1_1)
            .map(|d| d.name)
            .collect();
        assert_eq!(only_1_1, ["explicitTimezone"]);
    }

    #[test]
    fn extents_narrow_their_way() {
        assert!(Extent::AtMost.narrows(3, 4) && !Extent::AtMost.narrows(5, 4));
        assert!(Extent::AtLeast.narrows(5, 4) && !Extent::AtLeast.narrows(3, 4));
        assert!(Extent::Exact.narrows(4, 4) && !Extent::Exact.narrows(3, 4));
    }
}
