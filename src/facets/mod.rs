//! Facets as data. A restricted simple type of a schema is generated as a newtype and a
//! table of what each derivation step adds to its base, from the built-in type down
//! (XSD Part 2, 4.3); one routine here checks every type's table, and the macros below
//! write the constructors and conversions every such type has. Generated code is then the
//! type, its documentation and its facets, not a copy of the checking code.
//!
//! Order of checks (it decides which error a value gets): the patterns of every step, base
//! first, on the lexical form; then the value facets of every step, base first: the bounds a
//! built-in implies (`xs:positiveInteger` >= 1), min/max, totalDigits, the lengths,
//! explicitTimezone.

use std::any::Any;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::OnceLock;

use crate::pattern::Pattern;
use crate::schema::{whitespace, FacetError, NamespaceScope, SimpleValue};

pub mod assertion;
mod table;
pub use assertion::{Assertion, TypeTest};
pub use table::{
    Applies, Constraint, ExplicitTimezone, Extent, Facet, FacetArgument, FacetDef, FacetKind,
    FACETS, PRIMITIVES,
};

/// The whiteSpace facet in force for a type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhiteSpace {
    /// Kept as written.
    Preserve,
    /// Tabs and line ends become spaces.
    Replace,
    /// Replace, then runs of spaces become one, and leading and trailing spaces go.
    Collapse,
}

impl WhiteSpace {
    /// `text` after this white-space processing (borrowed when it changes nothing).
    #[inline]
    pub fn apply(self, text: &str) -> Cow<'_, str> {
        match self {
            WhiteSpace::Preserve => Cow::Borrowed(text),
            WhiteSpace::Replace => whitespace::replace(text),
            WhiteSpace::Collapse => whitespace::collapse(text),
        }
    }
}

/// One `xs:pattern`, translated at generation time (where it was also compiled once, so
/// compiling it here cannot fail) and compiled here on first use.
pub struct PatternFacet {
    translated: &'static str,
    compiled: OnceLock<Pattern>,
}

impl PatternFacet {
    /// A pattern in the regex crate's syntax, anchored.
    pub const fn new(translated: &'static str) -> Self {
        PatternFacet {
            translated,
            compiled: OnceLock::new(),
        }
    }

    /// Whether `text` matches.
    #[inline]
    pub fn is_match(&self, text: &str) -> bool {
        self.compiled
            .get_or_init(|| Pattern::new(self.translated).expect("compiled at generation time"))
            .is_match(text)
    }
}

/// What one derivation step adds.
pub struct Step {
    /// Its patterns (alternatives: a value must match one, XSD Part 2, 4.3.4.3).
    pub patterns: &'static [PatternFacet],
    /// The same patterns as written in the schema, for the error.
    pub pattern_sources: &'static [&'static str],
    /// minInclusive (exclusive bounds are folded into inclusive ones).
    pub min: Option<i128>,
    /// maxInclusive.
    pub max: Option<i128>,
    /// totalDigits.
    pub total_digits: Option<u32>,
    /// length (characters).
    pub length: Option<u64>,
    /// minLength.
    pub min_length: Option<u64>,
    /// maxLength.
    pub max_length: Option<u64>,
    /// Value bounds of a type other than a primitive integer (a decimal, a float, a date,
    /// ...), as the schema writes them (in the base type's lexical space, which the
    /// generator checked), compared in the value space.
    pub bounds: &'static [(Bound, &'static str)],
    /// fractionDigits.
    pub fraction_digits: Option<u32>,
    /// The enumerated values as the schema writes them, compared in the value space of a
    /// type that is not a string (`1.0` is `1` for a decimal).
    pub enumeration: &'static [&'static str],
    /// For each enumerated value, the namespace bindings in scope where the schema writes
    /// it ((prefix, namespace), `""` for the default namespace), for the values that hold
    /// QNames: an enumerated QName is an expanded name, resolved at its `xs:enumeration`
    /// (Part 2, 3.2.18). Empty for the other types.
    pub enumeration_scopes: &'static [Scope],
    /// explicitTimezone (XSD 1.1), where the step sets it.
    pub explicit_timezone: Option<ExplicitTimezone>,
    /// XSD 1.1's assertions of the step (checked last, on the lexical form).
    pub assertions: &'static [Assertion],
}

/// Namespace bindings as generated code gives them: (prefix, namespace), `""` for the
/// default namespace.
pub type Scope = &'static [(&'static str, &'static str)];

/// Which value bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// minInclusive.
    MinInclusive,
    /// minExclusive.
    MinExclusive,
    /// maxInclusive.
    MaxInclusive,
    /// maxExclusive.
    MaxExclusive,
}

impl Bound {
    /// Whether a value that compares `ordering` with the bound is within it (`None`, an
    /// indeterminate comparison, never is).
    pub fn admits(self, ordering: Option<Ordering>) -> bool {
        matches!(
            (self, ordering),
            (
                Bound::MinInclusive,
                Some(Ordering::Greater | Ordering::Equal)
            ) | (Bound::MinExclusive, Some(Ordering::Greater))
                | (Bound::MaxInclusive, Some(Ordering::Less | Ordering::Equal))
                | (Bound::MaxExclusive, Some(Ordering::Less))
        )
    }

    /// `>=`, `>`, `<=`, `<`.
    pub fn relation(self) -> &'static str {
        match self {
            Bound::MinInclusive => ">=",
            Bound::MinExclusive => ">",
            Bound::MaxInclusive => "<=",
            Bound::MaxExclusive => "<",
        }
    }
}

impl Step {
    /// A step that adds nothing: the base of `..Step::NONE`.
    pub const NONE: Step = Step {
        patterns: &[],
        pattern_sources: &[],
        min: None,
        max: None,
        total_digits: None,
        length: None,
        min_length: None,
        max_length: None,
        bounds: &[],
        fraction_digits: None,
        enumeration: &[],
        enumeration_scopes: &[],
        explicit_timezone: None,
        assertions: &[],
    };
}

impl Step {
    /// With patterns (translated, and as written in the schema).
    pub const fn patterns(
        self,
        patterns: &'static [PatternFacet],
        sources: &'static [&'static str],
    ) -> Step {
        Step {
            patterns,
            pattern_sources: sources,
            ..self
        }
    }
    /// With minInclusive.
    pub const fn min(self, min: i128) -> Step {
        Step {
            min: Some(min),
            ..self
        }
    }
    /// With maxInclusive.
    pub const fn max(self, max: i128) -> Step {
        Step {
            max: Some(max),
            ..self
        }
    }
    /// With totalDigits.
    pub const fn total_digits(self, digits: u32) -> Step {
        Step {
            total_digits: Some(digits),
            ..self
        }
    }
    /// With length.
    pub const fn length(self, length: u64) -> Step {
        Step {
            length: Some(length),
            ..self
        }
    }
    /// With minLength.
    pub const fn min_length(self, length: u64) -> Step {
        Step {
            min_length: Some(length),
            ..self
        }
    }
    /// With maxLength.
    pub const fn max_length(self, length: u64) -> Step {
        Step {
            max_length: Some(length),
            ..self
        }
    }
    /// With value bounds (in the value space of the type).
    pub const fn bounds(self, bounds: &'static [(Bound, &'static str)]) -> Step {
        Step { bounds, ..self }
    }
    /// With fractionDigits.
    pub const fn fraction_digits(self, digits: u32) -> Step {
        Step {
            fraction_digits: Some(digits),
            ..self
        }
    }
    /// With an enumeration (in the value space of the type).
    pub const fn enumeration(self, values: &'static [&'static str]) -> Step {
        Step {
            enumeration: values,
            ..self
        }
    }
    /// With the namespace bindings of each enumerated value (see
    /// [`Step::enumeration_scopes`]), in the order of the values.
    pub const fn scopes(self, scopes: &'static [Scope]) -> Step {
        Step {
            enumeration_scopes: scopes,
            ..self
        }
    }
    /// With XSD 1.1's assertions. Only with the `xpath` feature, which evaluates them:
    /// generated code that has assertions does not compile without it.
    #[cfg(feature = "xpath")]
    pub const fn assertions(self, assertions: &'static [Assertion]) -> Step {
        Step { assertions, ..self }
    }

    /// With explicitTimezone.
    pub const fn explicit_timezone(self, rule: ExplicitTimezone) -> Step {
        Step {
            explicit_timezone: Some(rule),
            ..self
        }
    }
}

/// A value type that facets apply to in its value space (the types of
/// [`crate::datatypes`]): ordered (partially), and with what the length and digit facets
/// count, where XSD applies them.
pub trait FacetValue: SimpleValue + PartialEq + Send + Sync + 'static {
    /// The order of the value space, for the bounds (`None`: incomparable, or a type
    /// XSD does not order; the generator refuses bounds on those).
    fn facet_order(&self, _other: &Self) -> Option<Ordering> {
        None
    }
    /// What the length facets count: characters of a string, octets of a binary value,
    /// items of a list; `None` where they always hold (QName and NOTATION, XSD 1.0
    /// erratum E2-36) or do not apply (the generator refuses them there).
    fn facet_length(&self) -> Option<u64> {
        None
    }
    /// totalDigits and fractionDigits of a decimal or an integer.
    fn facet_digits(&self) -> Option<(u64, u64)> {
        None
    }
    /// Whether a date or time value has a timezone, for explicitTimezone; `None` for the
    /// types that have none to have (the generator refuses the facet there).
    fn facet_timezone(&self) -> Option<bool> {
        None
    }
}

/// A step's bounds and enumeration, read into the value type once.
struct StepValues<T> {
    bounds: Vec<(Bound, &'static str, T)>,
    enumeration: Vec<T>,
}

/// A static of `xs:pattern`s (translated), for [`Step::patterns`].
#[macro_export]
macro_rules! patterns {
    ($($p:literal),* $(,)?) => {{
        static PATTERNS: [$crate::facets::PatternFacet; [$($p),*].len()] =
            [$($crate::facets::PatternFacet::new($p)),*];
        &PATTERNS
    }};
}

/// [`Restricted`] for `$ty`: its white space and its steps, base first.
#[macro_export]
macro_rules! restricted {
    ($ty:ty, $ws:ident, [$($step:expr),* $(,)?]) => {
        impl $crate::facets::Restricted for $ty {
            fn facets() -> &'static $crate::facets::Facets {
                static FACETS: $crate::facets::Facets = $crate::facets::Facets::new(
                    $crate::facets::WhiteSpace::$ws,
                    &[$($step),*],
                );
                &FACETS
            }
        }
    };
}

/// A restricted type's facets: the white space in force and every step, base first.
pub struct Facets {
    /// The whiteSpace facet in force.
    pub white_space: WhiteSpace,
    /// The steps from the built-in type down to this type.
    pub steps: &'static [Step],
    /// The steps' bounds and enumerations read into the value type (one type per table),
    /// on first use.
    values: OnceLock<Box<dyn Any + Send + Sync>>,
}

impl Facets {
    /// A table of facets.
    pub const fn new(white_space: WhiteSpace, steps: &'static [Step]) -> Self {
        Facets {
            white_space,
            steps,
            values: OnceLock::new(),
        }
    }

    fn read_values<T: FacetValue>(&self) -> Vec<StepValues<T>> {
        // The generator checks facet values against their base; where it cannot tell (an
        // enumerated list of restricted items), a value that is not one of the base's can
        // never be matched, so it is left out rather than trusted.
        let read = |text: &str| T::parse_lexical(text).ok();
        self.steps
            .iter()
            .map(|s| StepValues {
                bounds: s
                    .bounds
                    .iter()
                    .filter_map(|&(b, t)| Some((b, t, read(t)?)))
                    .collect(),
                enumeration: s
                    .enumeration
                    .iter()
                    .enumerate()
                    .filter_map(|(i, t)| match s.enumeration_scopes.get(i) {
                        // A QName is resolved where the schema writes it.
                        Some(scope) => T::parse_in(t, scope).ok(),
                        None => read(t),
                    })
                    .collect(),
            })
            .collect()
    }

    /// `f` of the steps' values read as `T`: cached for the table's type (a table read as
    /// another type, which generated code never does, reads them again).
    fn with_values<T: FacetValue, R>(&self, f: impl FnOnce(&[StepValues<T>]) -> R) -> R {
        let cached = self
            .values
            .get_or_init(|| Box::new(self.read_values::<T>()));
        match cached.downcast_ref::<Vec<StepValues<T>>>() {
            Some(values) => f(values),
            None => f(&self.read_values::<T>()),
        }
    }

    /// The value facets of every step on a value of a [`FacetValue`] type: enumeration
    /// (value-space equality), bounds (value-space order; an indeterminate comparison
    /// fails), totalDigits, fractionDigits, the lengths.
    pub fn check_value<T: FacetValue>(&self, value: &T) -> Result<(), FacetError> {
        if self
            .steps
            .iter()
            .all(|s| s.bounds.is_empty() && s.enumeration.is_empty())
        {
            return self.check_counts(value, &[]);
        }
        self.with_values(|values: &[StepValues<T>]| self.check_counts(value, values))
    }

    /// [`Facets::check_value`] with the steps' values read (`values` empty when no step
    /// has a bound or an enumeration).
    fn check_counts<T: FacetValue>(
        &self,
        value: &T,
        values: &[StepValues<T>],
    ) -> Result<(), FacetError> {
        for (i, step) in self.steps.iter().enumerate() {
            let parsed = values.get(i);
            let (enumeration, bounds) =
                parsed.map_or((&[][..], &[][..]), |p| (&p.enumeration[..], &p.bounds[..]));
            if !step.enumeration.is_empty() && !enumeration.iter().any(|e| e == value) {
                return Err(FacetError::Enumeration {
                    allowed: step.enumeration,
                });
            }
            for (bound, text, limit) in bounds {
                if !bound.admits(value.facet_order(limit)) {
                    return Err(FacetError::Bound {
                        relation: bound.relation(),
                        bound: text,
                    });
                }
            }
            if step.total_digits.is_some() || step.fraction_digits.is_some() {
                if let Some((total, fraction)) = value.facet_digits() {
                    if let Some(max) = step.total_digits.filter(|&m| total > u64::from(m)) {
                        return Err(FacetError::TotalDigits { max });
                    }
                    if let Some(max) = step.fraction_digits.filter(|&m| fraction > u64::from(m)) {
                        return Err(FacetError::FractionDigits { max });
                    }
                }
            }
            if step.length.is_some() || step.min_length.is_some() || step.max_length.is_some() {
                if let Some(len) = value.facet_length() {
                    check_length(step, len)?;
                }
            }
            if let Some(rule) = step.explicit_timezone {
                if let Some(zoned) = value.facet_timezone().filter(|&z| !rule.admits(z)) {
                    return Err(FacetError::Timezone { required: !zoned });
                }
            }
        }
        Ok(())
    }

    /// Reads a value of a [`FacetValue`] type: white space, the patterns on the lexical
    /// form, the value, then the value facets.
    pub fn read_value<T: FacetValue>(&self, text: &str) -> Result<T, FacetError> {
        self.read_scoped(text, None)
    }

    /// [`Facets::read_value`] where `scope` gives the namespace declarations in force (see
    /// [`SimpleValue::parse_in`]).
    pub fn read_value_in<T: FacetValue>(
        &self,
        text: &str,
        scope: &dyn NamespaceScope,
    ) -> Result<T, FacetError> {
        self.read_scoped(text, Some(scope))
    }

    fn read_scoped<T: FacetValue>(
        &self,
        text: &str,
        scope: Option<&dyn NamespaceScope>,
    ) -> Result<T, FacetError> {
        let lexical = self.white_space.apply(text);
        self.check_lexical(&lexical)?;
        let value = crate::schema::parse_scoped(&lexical, scope)?;
        self.check_value(&value)?;
        self.check_assertions(&lexical)?;
        Ok(value)
    }

    /// XSD 1.1's assertions of every step, base first, on the (white-space processed)
    /// lexical form of a value the other facets admit: checked last, so that a value
    /// outside the type gets the error of the facet it breaks.
    #[inline]
    pub fn check_assertions(&self, lexical: &str) -> Result<(), FacetError> {
        for step in self.steps {
            for assertion in step.assertions {
                if !assertion.holds(lexical) {
                    return Err(FacetError::Assertion {
                        test: assertion.test,
                    });
                }
            }
        }
        Ok(())
    }
}

impl Facets {
    /// The patterns of every step, on a lexical form.
    #[inline]
    pub fn check_lexical(&self, lexical: &str) -> Result<(), FacetError> {
        for step in self.steps {
            if !step.patterns.is_empty() && !step.patterns.iter().any(|p| p.is_match(lexical)) {
                return Err(FacetError::Pattern {
                    patterns: step.pattern_sources,
                });
            }
        }
        Ok(())
    }

    /// The value facets of every step on a string's value (its lengths).
    #[inline]
    pub fn check_string(&self, value: &str) -> Result<(), FacetError> {
        let mut chars = None;
        for step in self.steps {
            // A string's value is its (white-space processed) lexical form.
            if !step.enumeration.is_empty() && !step.enumeration.contains(&value) {
                return Err(FacetError::Enumeration {
                    allowed: step.enumeration,
                });
            }
            if step.length.is_some() || step.min_length.is_some() || step.max_length.is_some() {
                let len = *chars.get_or_insert_with(|| value.chars().count() as u64);
                check_length(step, len)?;
            }
        }
        Ok(())
    }

    /// The value facets of every step on an integer's value.
    #[inline]
    pub fn check_integer(&self, value: i128) -> Result<(), FacetError> {
        for step in self.steps {
            // The generator checked that each enumerated value is an integer of the type.
            if !step.enumeration.is_empty()
                && !step
                    .enumeration
                    .iter()
                    .any(|e| crate::schema::parse_integer(e, i128::MIN, i128::MAX, "") == Ok(value))
            {
                return Err(FacetError::Enumeration {
                    allowed: step.enumeration,
                });
            }
            if let Some(min) = step.min.filter(|&m| value < m) {
                return Err(FacetError::TooSmall { min });
            }
            if let Some(max) = step.max.filter(|&m| value > m) {
                return Err(FacetError::TooLarge { max });
            }
            if let Some(max) = step.total_digits {
                if value.unsigned_abs().to_string().len() > max as usize {
                    return Err(FacetError::TotalDigits { max });
                }
            }
        }
        Ok(())
    }
}

impl Facets {
    /// For a type bound to a runtime type: the white space, the patterns and the lengths of
    /// the schema, then `parse`, which reads what the facets admit (a value the facets
    /// admit but `parse` does not is reported against the patterns).
    #[inline]
    pub fn read<T>(
        &self,
        text: &str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T, FacetError> {
        let value = self.white_space.apply(text);
        self.check_lexical(&value)?;
        self.check_string(&value)?;
        let parsed = parse(&value).ok_or(FacetError::Pattern {
            patterns: self
                .steps
                .iter()
                .rev()
                .find(|s| !s.pattern_sources.is_empty())
                .map_or(&[], |s| s.pattern_sources),
        })?;
        self.check_assertions(&value)?;
        Ok(parsed)
    }
}

/// A bound type's claim that its parser reads exactly the language of one schema pattern,
/// named by the pattern's source. While every pattern the facets carry is that one, a value
/// the parser reads needs no pattern check (the parser *is* a reader of the pattern); a
/// value it refuses still goes through the patterns, so the error stays the schema's. When
/// an edit of the schema changes the pattern the claim no longer matches, and every value is
/// checked against the schema's patterns again: correct, only slower (the tests of each
/// claim fail then, asking for the parser to be brought in line).
pub struct ExactParser {
    /// The pattern, as the schema writes it.
    pattern: &'static str,
    /// Whether the facets carry this pattern and no other (decided once per type).
    holds: OnceLock<bool>,
}

impl ExactParser {
    /// The claim for `pattern` (its source in the schema).
    pub const fn new(pattern: &'static str) -> ExactParser {
        ExactParser {
            pattern,
            holds: OnceLock::new(),
        }
    }

    /// The pattern claimed, as the schema writes it.
    pub fn pattern(&self) -> &'static str {
        self.pattern
    }

    /// Whether `facets` carry the claimed pattern and no other, decided on the first call
    /// (one claim serves one type: a claim in a generic impl uses [`ExactParser::carries`]).
    pub fn holds_for(&self, facets: &Facets) -> bool {
        *self
            .holds
            .get_or_init(|| ExactParser::carries(facets, self.pattern))
    }

    /// Whether `facets` carry `pattern` and no other pattern, decided now.
    #[inline]
    pub fn carries(facets: &Facets, pattern: &str) -> bool {
        let mut with = facets
            .steps
            .iter()
            .filter(|s| !s.pattern_sources.is_empty())
            .peekable();
        with.peek().is_some() && with.all(|s| s.pattern_sources == [pattern])
    }
}

impl Facets {
    /// As [`Facets::read`], for a type whose parser is exact for the facets' pattern
    /// (`exact`, from an [`ExactParser`] claim): the pattern is checked only when the parser
    /// refuses the value (same results, same errors, one scan of the text instead of two).
    #[inline]
    pub fn read_exact<T>(
        &self,
        exact: bool,
        text: &str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T, FacetError> {
        if !exact {
            return self.read(text, parse);
        }
        let value = self.white_space.apply(text);
        match parse(&value) {
            Some(parsed) => {
                self.check_string(&value)?;
                Ok(parsed)
            }
            None => self.read(&value, |_| None),
        }
    }
}

/// The items of a list value: white space collapsed, each item read as `T` (in `scope`,
/// if given: see [`crate::schema::parse_scoped`]).
pub fn list_items<T: SimpleValue>(
    text: &str,
    scope: Option<&dyn NamespaceScope>,
) -> Result<Vec<T>, FacetError> {
    whitespace::collapse(text)
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(|s| crate::schema::parse_scoped(s, scope))
        .collect()
}

/// The length facets of a step on a length (characters, or a list's items).
pub fn check_length(step: &Step, len: u64) -> Result<(), FacetError> {
    if let Some(expected) = step.length.filter(|&l| len != l) {
        return Err(FacetError::Length {
            expected,
            found: len,
        });
    }
    if let Some(min) = step.min_length.filter(|&l| len < l) {
        return Err(FacetError::TooShort { min, found: len });
    }
    if let Some(max) = step.max_length.filter(|&l| len > l) {
        return Err(FacetError::TooLong { max, found: len });
    }
    Ok(())
}

/// A restricted simple type: its table of facets.
pub trait Restricted {
    /// Every step's facets.
    fn facets() -> &'static Facets;
}

/// The constructors and conversions of a restricted string type `$ty(CompactString)`
/// that implements [`Restricted`]: `new`, `as_str`, `into_inner`, `SimpleValue` (checked
/// before the value is copied: a short value is stored inline, an invalid one not at all),
/// `TryFrom<String>`, `AsRef<str>`, `Deref`, and what `impl_simple_type!` gives; with
/// white space and steps, the [`Restricted`] impl too ([`restricted!`](crate::restricted)).
#[macro_export]
macro_rules! string_type {
    ($ty:ident, $ws:ident, [$($step:expr),* $(,)?]) => {
        $crate::restricted!($ty, $ws, [$($step),*]);
        $crate::string_type!($ty);
    };
    ($ty:ident) => {
        impl $ty {
            /// Validates `value` against every facet of this type and its bases.
            pub fn new(
                value: impl ::core::convert::Into<::std::string::String>,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                let value: ::std::string::String = value.into();
                let facets = <Self as $crate::facets::Restricted>::facets();
                // White-space processing copies only when it changes something.
                let value = match facets.white_space.apply(&value) {
                    ::std::borrow::Cow::Borrowed(_) => value,
                    ::std::borrow::Cow::Owned(normalised) => normalised,
                };
                facets.check_lexical(&value)?;
                facets.check_string(&value)?;
                facets.check_assertions(&value)?;
                ::core::result::Result::Ok(Self(value.into()))
            }
            /// The value.
            pub fn as_str(&self) -> &str {
                &self.0
            }
            /// The value, owned.
            pub fn into_inner(self) -> ::std::string::String {
                self.0.into_string()
            }
        }
        impl $crate::schema::SimpleValue for $ty {
            fn parse_lexical(
                text: &str,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                let facets = <Self as $crate::facets::Restricted>::facets();
                let value = facets.white_space.apply(text);
                facets.check_lexical(&value)?;
                facets.check_string(&value)?;
                facets.check_assertions(&value)?;
                ::core::result::Result::Ok(Self($crate::__private::CompactString::from(value)))
            }
            fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed(&self.0)
            }
        }
        impl ::core::convert::TryFrom<::std::string::String> for $ty {
            type Error = $crate::schema::FacetError;
            fn try_from(value: ::std::string::String) -> ::core::result::Result<Self, Self::Error> {
                Self::new(value)
            }
        }
        impl ::core::convert::AsRef<str> for $ty {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }
        impl ::core::ops::Deref for $ty {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }
        $crate::impl_simple_type!($ty);
    };
}

/// The constructors and conversions of a restricted integer type `$ty($repr)` of the
/// built-in `$xsd` that implements [`Restricted`]: `new`, `get`, `SimpleValue`,
/// `TryFrom<$repr>`, and what `impl_simple_type!` gives; with white space and steps, the
/// [`Restricted`] impl too.
#[macro_export]
macro_rules! integer_type {
    ($ty:ident, $repr:ty, $xsd:literal, $ws:ident, [$($step:expr),* $(,)?]) => {
        $crate::restricted!($ty, $ws, [$($step),*]);
        $crate::integer_type!($ty, $repr, $xsd);
    };
    ($ty:ident, $repr:ty, $xsd:literal) => {
        impl $ty {
            /// Validates `value` against every facet of this type and its bases.
            pub fn new(value: $repr) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                let facets = <Self as $crate::facets::Restricted>::facets();
                let lexical = value.to_string();
                facets.check_lexical(&lexical)?;
                facets.check_integer(value as i128)?;
                facets.check_assertions(&lexical)?;
                ::core::result::Result::Ok(Self(value))
            }
            /// The value.
            pub fn get(self) -> $repr {
                self.0
            }
        }
        impl $crate::schema::SimpleValue for $ty {
            fn parse_lexical(
                text: &str,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                let facets = <Self as $crate::facets::Restricted>::facets();
                let lexical = $crate::schema::whitespace::collapse(text);
                facets.check_lexical(&lexical)?;
                let value = $crate::schema::parse_integer(
                    &lexical,
                    <$repr>::MIN as i128,
                    <$repr>::MAX as i128,
                    $xsd,
                )?;
                facets.check_integer(value)?;
                facets.check_assertions(&lexical)?;
                ::core::result::Result::Ok(Self(value as $repr))
            }
            fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Owned(self.0.to_string())
            }
            fn identity_key(&self) -> $crate::identity_key::KeyValue {
                $crate::identity_key::KeyValue::new($crate::identity_key::Primitive::Decimal, &self.0.to_string())
            }
        }
        impl ::core::convert::TryFrom<$repr> for $ty {
            type Error = $crate::schema::FacetError;
            fn try_from(value: $repr) -> ::core::result::Result<Self, Self::Error> {
                Self::new(value)
            }
        }
        $crate::impl_simple_type!($ty);
    };
}

/// The constructors and conversions of a restricted type `$ty($value)` over a value type
/// of [`crate::datatypes`] (`$value` implements [`FacetValue`]): `new` (the patterns on
/// the canonical form, then the value facets), `get`, `into_inner`, `SimpleValue` (white
/// space, patterns, the value, its facets), `TryFrom<$value>`, and what
/// `impl_simple_type!` gives; with white space and steps, the [`Restricted`] impl too.
#[macro_export]
macro_rules! value_type {
    ($ty:ident, $value:ty, $ws:ident, [$($step:expr),* $(,)?]) => {
        $crate::restricted!($ty, $ws, [$($step),*]);
        $crate::value_type!($ty, $value);
    };
    ($ty:ident, $value:ty) => {
        impl $ty {
            /// Validates `value` against every facet of this type and its bases.
            pub fn new(value: $value) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                let facets = <Self as $crate::facets::Restricted>::facets();
                let lexical = $crate::schema::SimpleValue::to_lexical(&value);
                facets.check_lexical(&lexical)?;
                facets.check_value(&value)?;
                facets.check_assertions(&lexical)?;
                drop(lexical);
                ::core::result::Result::Ok(Self(value))
            }
            /// The value.
            pub fn get(&self) -> &$value {
                &self.0
            }
            /// The value, owned.
            pub fn into_inner(self) -> $value {
                self.0
            }
        }
        impl $crate::schema::SimpleValue for $ty {
            fn parse_lexical(
                text: &str,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                <Self as $crate::facets::Restricted>::facets().read_value(text).map(Self)
            }
            fn parse_in(
                text: &str,
                scope: &dyn $crate::schema::NamespaceScope,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                <Self as $crate::facets::Restricted>::facets()
                    .read_value_in(text, scope)
                    .map(Self)
            }
            fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                $crate::schema::SimpleValue::to_lexical(&self.0)
            }
            fn bindings(&self, found: &mut dyn FnMut(&str, &str)) {
                $crate::schema::SimpleValue::bindings(&self.0, found)
            }
            fn ids(&self, found: &mut dyn FnMut($crate::schema::IdRole, &str)) {
                $crate::schema::SimpleValue::ids(&self.0, found)
            }
            fn identity_key(&self) -> $crate::identity_key::KeyValue {
                $crate::schema::SimpleValue::identity_key(&self.0)
            }
        }
        impl ::core::convert::TryFrom<$value> for $ty {
            type Error = $crate::schema::FacetError;
            fn try_from(value: $value) -> ::core::result::Result<Self, Self::Error> {
                Self::new(value)
            }
        }
        $crate::impl_simple_type!($ty);
    };
}

/// An enumeration's `ALL`, `VALUES`, `as_str` and `SimpleValue`, and what
/// [`impl_simple_type!`](crate::impl_simple_type) gives: `enumeration!(Type, WHITE-SPACE, [Variant "value", ...])` for
/// a string base, `enumeration!(Type, integer REPR "xs:type", [Variant VALUE "value", ...])`
/// for an integer base (a value is compared as an integer).
#[macro_export]
macro_rules! enumeration {
    (@common $ty:ident, [$($v:ident $s:literal),*]) => {
        impl $ty {
            /// Every value, in schema order.
            pub const ALL: &'static [Self] = &[$(Self::$v),*];
            /// Every value's lexical form, in schema order.
            pub const VALUES: &'static [&'static str] = &[$($s),*];
            /// The lexical form.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$v => $s,)*
                }
            }
        }
        $crate::impl_simple_type!($ty);
    };
    ($ty:ident, integer $rt:ident $xsd:literal, [$($v:ident $n:literal $s:literal),* $(,)?]) => {
        impl $crate::schema::SimpleValue for $ty {
            fn parse_lexical(
                text: &str,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                let not_one = $crate::schema::FacetError::Enumeration { allowed: Self::VALUES };
                let value = $crate::schema::parse_integer(text, $rt::MIN as i128, $rt::MAX as i128, $xsd)
                    .map_err(|_| not_one.clone())?;
                match value {
                    $($n => ::core::result::Result::Ok(Self::$v),)*
                    _ => ::core::result::Result::Err(not_one),
                }
            }
            fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed(self.as_str())
            }
            fn identity_key(&self) -> $crate::identity_key::KeyValue {
                $crate::identity_key::KeyValue::new($crate::identity_key::Primitive::Decimal, self.as_str())
            }
        }
        $crate::enumeration!(@common $ty, [$($v $s),*]);
    };
    ($ty:ident, $ws:ident, [$($v:ident $s:literal),* $(,)?]) => {
        impl $crate::schema::SimpleValue for $ty {
            fn parse_lexical(
                text: &str,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                match &*$crate::facets::WhiteSpace::$ws.apply(text) {
                    $($s => ::core::result::Result::Ok(Self::$v),)*
                    _ => ::core::result::Result::Err($crate::schema::FacetError::Enumeration {
                        allowed: Self::VALUES,
                    }),
                }
            }
            fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed(self.as_str())
            }
        }
        $crate::enumeration!(@common $ty, [$($v $s),*]);
    };
}

/// A list type `$ty(Vec<$item>)`: `new` (its length facets, from a `facets::Step`), `items`,
/// `SimpleValue` (items separated by white space) and what [`impl_simple_type!`](crate::impl_simple_type) gives.
#[macro_export]
macro_rules! list_type {
    ($ty:ident, $item:ty, $step:expr) => {
        impl $ty {
            /// Validates the number of items.
            pub fn new(
                items: ::std::vec::Vec<$item>,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                const STEP: $crate::facets::Step = $step;
                $crate::facets::check_length(&STEP, items.len() as u64)?;
                ::core::result::Result::Ok(Self(items))
            }
            /// The items.
            pub fn items(&self) -> &[$item] {
                &self.0
            }
        }
        impl $crate::schema::SimpleValue for $ty {
            fn parse_lexical(
                text: &str,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                Self::new($crate::facets::list_items(
                    text,
                    ::core::option::Option::None,
                )?)
            }
            fn parse_in(
                text: &str,
                scope: &dyn $crate::schema::NamespaceScope,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                Self::new($crate::facets::list_items(
                    text,
                    ::core::option::Option::Some(scope),
                )?)
            }
            fn bindings(&self, found: &mut dyn FnMut(&str, &str)) {
                for item in &self.0 {
                    $crate::schema::SimpleValue::bindings(item, found);
                }
            }
            fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                let items: ::std::vec::Vec<_> = self
                    .0
                    .iter()
                    .map($crate::schema::SimpleValue::to_lexical)
                    .collect();
                ::std::borrow::Cow::Owned(items.join(" "))
            }
            fn ids(&self, found: &mut dyn FnMut($crate::schema::IdRole, &str)) {
                for item in &self.0 {
                    $crate::schema::SimpleValue::ids(item, found);
                }
            }
            fn identity_key(&self) -> $crate::identity_key::KeyValue {
                $crate::identity_key::KeyValue::list(
                    self.0.iter().map($crate::schema::SimpleValue::identity_key),
                )
            }
        }
        // A restriction of the list counts its items and compares lists item by item.
        impl $crate::facets::FacetValue for $ty {
            fn facet_length(&self) -> ::core::option::Option<u64> {
                ::core::option::Option::Some(self.0.len() as u64)
            }
        }
        $crate::impl_simple_type!($ty);
    };
}

/// A union's `SimpleValue` (the first member type that accepts a value takes it) and what
/// [`impl_simple_type!`](crate::impl_simple_type) gives: `union_type!(Type, ["Member", ...], [Variant, ...])`.
#[macro_export]
macro_rules! union_type {
    // No member types: XSD 1.1's `xs:error` (Part 2, 3.16.7.3), an empty enum, whose value
    // space is empty; every lexical form is refused.
    ($ty:ident, [], []) => {
        impl $crate::schema::SimpleValue for $ty {
            fn parse_lexical(
                _text: &str,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                ::core::result::Result::Err($crate::schema::FacetError::Union { members: &[] })
            }
            fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                match *self {}
            }
        }
        impl $crate::facets::FacetValue for $ty {}
        $crate::impl_simple_type!($ty);
    };
    ($ty:ident, [$($label:literal),* $(,)?], [$($v:ident),* $(,)?]) => {
        impl $crate::schema::SimpleValue for $ty {
            fn parse_lexical(
                text: &str,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                Self::member(text, ::core::option::Option::None)
            }
            fn parse_in(
                text: &str,
                scope: &dyn $crate::schema::NamespaceScope,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                Self::member(text, ::core::option::Option::Some(scope))
            }
            fn to_lexical(&self) -> ::std::borrow::Cow<'_, str> {
                match self {
                    $(Self::$v(v) => $crate::schema::SimpleValue::to_lexical(v),)*
                }
            }
            fn bindings(&self, found: &mut dyn FnMut(&str, &str)) {
                match self {
                    $(Self::$v(v) => $crate::schema::SimpleValue::bindings(v, found),)*
                }
            }
            fn ids(&self, found: &mut dyn FnMut($crate::schema::IdRole, &str)) {
                match self {
                    $(Self::$v(v) => $crate::schema::SimpleValue::ids(v, found),)*
                }
            }
            fn identity_key(&self) -> $crate::identity_key::KeyValue {
                match self {
                    $(Self::$v(v) => $crate::schema::SimpleValue::identity_key(v),)*
                }
            }
        }
        impl $ty {
            /// The first member type that takes `text` (read in `scope`, if given: a
            /// member whose QName's prefix is not bound there does not take it).
            fn member(
                text: &str,
                scope: ::core::option::Option<&dyn $crate::schema::NamespaceScope>,
            ) -> ::core::result::Result<Self, $crate::schema::FacetError> {
                $(if let ::core::result::Result::Ok(v) =
                    $crate::schema::parse_scoped(text, scope).map(Self::$v)
                {
                    return ::core::result::Result::Ok(v);
                })*
                ::core::result::Result::Err($crate::schema::FacetError::Union {
                    members: &[$($label),*],
                })
            }
        }
        // A restriction of the union compares values member and value alike.
        impl $crate::facets::FacetValue for $ty {}
        $crate::impl_simple_type!($ty);
    };
}
