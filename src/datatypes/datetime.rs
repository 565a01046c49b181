//! The date and time types of XSD 1.0 Part 2 (3.2.6 to 3.2.14): `duration`, `dateTime`,
//! `time`, `date`, `gYearMonth`, `gYear`, `gMonthDay`, `gDay`, `gMonth`.
//!
//! Written here rather than taken from `chrono` or `time`: XSD years are unbounded and have
//! no year zero (`-0001` is the year before `0001`), a value may lack a time zone (and then
//! compares with a zoned value only when the answer holds for every zone from -14:00 to
//! +14:00), `24:00:00` is the first instant of the next day, seconds have any number of
//! fraction digits, and a duration is months and seconds compared through four reference
//! instants. None of those crates has these semantics.
//!
//! Years are held as `i64` and refused (a lexical error, never wrapped) beyond twelve digits.
//! Arithmetic uses astronomical years (XSD 1.0's year `-n` is astronomical `1 - n`; XSD
//! 1.1's years are astronomical, see `edition`) on the
//! proleptic Gregorian calendar, and a day count from 1970-01-01.
//!
//! Order is partial (Part 2, 3.2.7.4): [`PartialOrd::partial_cmp`] is `None` for an
//! indeterminate comparison, and `==` holds only for values the order calls equal.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use num_bigint::BigInt;

use super::decimal::Decimal;
use crate::schema::{whitespace, FacetError};

/// The largest year (in absolute value) held: twelve digits.
const MAX_YEAR: i64 = 999_999_999_999;

/// 14 hours, the widest time zone offset, in minutes.
const MAX_TZ: i32 = 14 * 60;

fn is_leap(astronomical: i64) -> bool {
    astronomical % 4 == 0 && (astronomical % 100 != 0 || astronomical % 400 == 0)
}

/// The astronomical year of the XSD `year`. XSD 1.1's years are astronomical (year 0 is
/// 1 BCE, Part 2, 3.3.7.2); XSD 1.0's have no year 0, so its `-0001` is 1 BCE. The edition
/// is asked only for years before 1.
fn astronomical(year: i64) -> i64 {
    if year < 0 && !super::edition::xsd_1_1() {
        year + 1
    } else {
        year
    }
}

/// The XSD year of the astronomical year `a` ([`astronomical`] undone).
fn from_astronomical(a: i64) -> i64 {
    if a <= 0 && !super::edition::xsd_1_1() {
        a - 1
    } else {
        a
    }
}

/// Days in `month` of the XSD `year`.
fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(astronomical(year)) => 29,
        2 => 28,
        _ => 31,
    }
}

/// Days from 1970-01-01 to the astronomical civil date (H. Hinnant's algorithm).
pub(crate) fn days_from_civil(a: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { a - 1 } else { a };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The astronomical civil date of a day count from 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u8, u8) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let y = yoe + era * 400 + i64::from(month <= 2);
    (y, month, day)
}

/// A position in a lexical form.
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn new(t: &'a str) -> Self {
        Cursor {
            b: t.as_bytes(),
            i: 0,
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }
    /// Exactly `n` digits.
    fn fixed(&mut self, n: usize) -> Option<u8> {
        let s = self.b.get(self.i..self.i + n)?;
        if !s.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.i += n;
        Some(s.iter().fold(0u8, |v, d| v * 10 + (d - b'0')))
    }
    /// `text`, byte for byte.
    fn literal(&mut self, text: &[u8]) -> Option<()> {
        text.iter().try_for_each(|&c| self.expect(c))
    }
    /// Exactly two digits, their number in `range` (a month, a day).
    fn two_digits(&mut self, range: std::ops::RangeInclusive<u8>) -> Option<u8> {
        let v = self.fixed(2)?;
        range.contains(&v).then_some(v)
    }
    /// `-?YYYY-MM-DD`: a year, month and day of that month.
    fn date(&mut self) -> Option<(i64, u8, u8)> {
        let year = self.year()?;
        self.expect(b'-')?;
        let month = self.two_digits(1..=12)?;
        self.expect(b'-')?;
        let day = self.two_digits(1..=days_in_month(year, month))?;
        Some((year, month, day))
    }
    /// One or more digits.
    fn run(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        (self.i > start).then(|| &self.b[start..self.i])
    }
    fn at_end(&self) -> bool {
        self.i == self.b.len()
    }
    /// `-?YYYY+`: at least four digits, no leading zero beyond four; `0000` only by XSD
    /// 1.1's rules (Part 2, 3.3.7.2: year 0 is 1 BCE, `-0000` another spelling of it; XSD
    /// 1.0 has no year 0).
    fn year(&mut self) -> Option<i64> {
        let negative = self.eat(b'-');
        let digits = self.run()?;
        if digits.len() < 4 || (digits.len() > 4 && digits[0] == b'0') || digits.len() > 12 {
            return None;
        }
        let v = digits
            .iter()
            .fold(0i64, |v, d| v * 10 + i64::from(d - b'0'));
        if v == 0 && !super::edition::xsd_1_1() {
            return None;
        }
        Some(if negative { -v } else { v })
    }
    /// `.d+`, if present: the digits without trailing zeros.
    fn fraction(&mut self) -> Option<Box<str>> {
        if !self.eat(b'.') {
            return Some("".into());
        }
        let digits = self.run()?;
        let digits = std::str::from_utf8(digits).ok()?.trim_end_matches('0');
        Some(digits.into())
    }
    /// An optional time zone, then the end: `Z`, `+hh:mm`, `-hh:mm` (at most 14:00).
    fn zone_end(&mut self) -> Option<Option<i32>> {
        let zone = if self.eat(b'Z') {
            Some(0)
        } else if self.at_end() {
            None
        } else {
            let sign = if self.eat(b'+') {
                1
            } else {
                self.expect(b'-')?;
                -1
            };
            let h = i32::from(self.fixed(2)?);
            self.expect(b':')?;
            let m = i32::from(self.fixed(2)?);
            let minutes = h * 60 + m;
            if m > 59 || minutes > MAX_TZ {
                return None;
            }
            Some(sign * minutes)
        };
        self.at_end().then_some(zone)
    }
    /// `hh:mm:ss(.s+)?`, with `24:00:00` allowed: seconds of the day (86 400 for 24:00)
    /// and the fraction.
    fn time(&mut self) -> Option<(u32, Box<str>)> {
        let h = self.fixed(2)?;
        self.expect(b':')?;
        let m = self.fixed(2)?;
        self.expect(b':')?;
        let s = self.fixed(2)?;
        let frac = self.fraction()?;
        if m > 59 || s > 59 || h > 24 || (h == 24 && (m, s, &*frac) != (0, 0, "")) {
            return None;
        }
        Some((u32::from(h) * 3600 + u32::from(m) * 60 + u32::from(s), frac))
    }
}

/// Reads `text` by `read` once its white space is collapsed: what `read` does not take
/// (to the end) is not in the lexical space of `xsd`.
fn read_lexical<T>(
    text: &str,
    xsd: &'static str,
    read: impl FnOnce(&mut Cursor<'_>) -> Option<T>,
) -> Result<T, FacetError> {
    let t = whitespace::collapse(text);
    read(&mut Cursor::new(&t)).ok_or(lexical(xsd))
}

fn write_year(f: &mut fmt::Formatter<'_>, year: i64) -> fmt::Result {
    if year < 0 {
        write!(f, "-{:04}", -year)
    } else {
        write!(f, "{year:04}")
    }
}

fn write_zone(f: &mut fmt::Formatter<'_>, zone: Option<i32>) -> fmt::Result {
    match zone {
        None => Ok(()),
        Some(0) => f.write_str("Z"),
        Some(m) => write!(
            f,
            "{}{:02}:{:02}",
            if m < 0 { '-' } else { '+' },
            m.abs() / 60,
            m.abs() % 60
        ),
    }
}

/// Where a value lies on the time line, for the order: whole seconds from 1970-01-01T00:00
/// (UTC when zoned, local otherwise), the fraction's digits, and whether it is zoned.
struct Key<'a> {
    seconds: i128,
    frac: &'a str,
    zoned: bool,
}

/// `(seconds, frac)` pairs in order (a fraction's digits, without trailing zeros, compare
/// as strings).
fn cmp_exact(a: i128, af: &str, b: i128, bf: &str) -> Ordering {
    a.cmp(&b).then_with(|| af.cmp(bf))
}

/// The order of Part 2, 3.2.7.4: a zoned and an unzoned value compare only when the
/// answer is the same for every zone the unzoned one could have (-14:00 to +14:00).
fn compare(p: &Key<'_>, q: &Key<'_>) -> Option<Ordering> {
    let shift = i128::from(MAX_TZ) * 60;
    match (p.zoned, q.zoned) {
        (true, true) | (false, false) => Some(cmp_exact(p.seconds, p.frac, q.seconds, q.frac)),
        (true, false) => {
            if cmp_exact(p.seconds, p.frac, q.seconds - shift, q.frac) == Ordering::Less {
                Some(Ordering::Less)
            } else if cmp_exact(p.seconds, p.frac, q.seconds + shift, q.frac) == Ordering::Greater {
                Some(Ordering::Greater)
            } else {
                None
            }
        }
        (false, true) => compare(q, p).map(Ordering::reverse),
    }
}

fn lexical(expected: &'static str) -> FacetError {
    FacetError::Lexical { expected }
}

/// Seconds from 1970-01-01T00:00 of the start of a day.
fn day_seconds(year: i64, month: u8, day: u8) -> i128 {
    i128::from(days_from_civil(
        astronomical(year),
        i64::from(month),
        i64::from(day),
    )) * 86_400
}

/// Accessors of fields that are `Copy`, each named as its field.
macro_rules! getters {
    ($($(#[$doc:meta])* $field:ident: $ty:ty,)*) => {$(
        $(#[$doc])*
        pub fn $field(&self) -> $ty {
            self.$field
        }
    )*};
}

/// What a value on the time line has by its `read` and `key`: `parse` (of the lexical
/// form, documented by `$parse`, white space collapsed), whether it has a time zone,
/// `FromStr`, the partial order of Part 2, 3.2.7.4, and the equality and hashing that go
/// with it.
macro_rules! time_line_value {
    ($name:ident, $xsd:literal, $parse:literal) => {
        impl $name {
            #[doc = $parse]
            pub fn parse(text: &str) -> Result<Self, FacetError> {
                read_lexical(text, $xsd, Self::read)
            }
            /// Whether the value had a time zone (what `xs:explicitTimezone` constrains).
            pub fn is_zoned(&self) -> bool {
                self.key().zoned
            }
        }
        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.partial_cmp(other) == Some(Ordering::Equal)
            }
        }
        // Equal values have the same key (instant, fraction, zoned or not): an
        // equivalence, hashed by the key.
        impl Eq for $name {}
        impl std::hash::Hash for $name {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                let key = self.key();
                (key.seconds, key.frac, key.zoned).hash(state);
            }
        }
        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                compare(&self.key(), &other.key())
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

/// An `xs:dateTime`. A zoned value is held (and written) in UTC, as XSD 1.0's value space
/// and canonical form have it; `24:00:00` is held as the next day's `00:00:00`.
#[derive(Debug, Clone)]
pub struct DateTime {
    year: i64,
    month: u8,
    day: u8,
    /// The time of the day, UTC when zoned.
    time: Time,
}

impl DateTime {
    fn read(c: &mut Cursor<'_>) -> Option<Self> {
        let (year, month, day) = c.date()?;
        c.expect(b'T')?;
        let (seconds, frac) = c.time()?;
        let zone = c.zone_end()?;
        if zone.unwrap_or(0) == 0 && seconds < 86_400 {
            // UTC or no zone, before 24:00: the date stays as written (most values; the
            // way through a day count costs divisions of 128-bit numbers).
            let time = Time {
                seconds,
                frac,
                zoned: zone.is_some(),
            };
            return Some(DateTime {
                year,
                month,
                day,
                time,
            });
        }
        let total = day_seconds(year, month, day) + i128::from(seconds)
            - i128::from(zone.unwrap_or(0)) * 60;
        let v = Self::from_seconds(total, frac, zone.is_some())?;
        (v.year.abs() <= MAX_YEAR).then_some(v)
    }

    fn from_seconds(total: i128, frac: Box<str>, zoned: bool) -> Option<Self> {
        let days = i64::try_from(total.div_euclid(86_400)).ok()?;
        let seconds = total.rem_euclid(86_400) as u32;
        let (a, month, day) = civil_from_days(days);
        Some(DateTime {
            year: from_astronomical(a),
            month,
            day,
            time: Time {
                seconds,
                frac,
                zoned,
            },
        })
    }

    getters!(
        /// The year (XSD numbering: no year zero, `-1` the year before `1`).
        year: i64,
        /// The month, 1 to 12.
        month: u8,
        /// The day of the month.
        day: u8,
    );
    /// Seconds since the start of the day (UTC when zoned).
    pub fn seconds_of_day(&self) -> u32 {
        self.time.seconds_of_day()
    }
    /// The fraction of a second: its digits, without trailing zeros.
    pub fn fraction(&self) -> &str {
        self.time.fraction()
    }
    fn key(&self) -> Key<'_> {
        let time = self.time.key();
        Key {
            seconds: day_seconds(self.year, self.month, self.day) + time.seconds,
            ..time
        }
    }
}

impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_year(f, self.year)?;
        write!(f, "-{:02}-{:02}T{}", self.month, self.day, self.time)
    }
}

time_line_value!(
    DateTime,
    "xs:dateTime",
    "Reads `-?YYYY-MM-DDThh:mm:ss(.s+)?(zone)?` after collapsing white space."
);

/// An `xs:time`. A zoned value is held (and written) in UTC, wrapping around midnight;
/// `24:00:00` is `00:00:00`.
#[derive(Debug, Clone)]
pub struct Time {
    seconds: u32,
    frac: Box<str>,
    zoned: bool,
}

impl Time {
    fn read(c: &mut Cursor<'_>) -> Option<Self> {
        let (seconds, frac) = c.time()?;
        let zone = c.zone_end()?;
        let utc = (i64::from(seconds) - i64::from(zone.unwrap_or(0)) * 60).rem_euclid(86_400);
        Some(Time {
            seconds: utc as u32,
            frac,
            zoned: zone.is_some(),
        })
    }

    /// Seconds since midnight (UTC when zoned).
    pub fn seconds_of_day(&self) -> u32 {
        self.seconds
    }
    /// The fraction of a second: its digits, without trailing zeros.
    pub fn fraction(&self) -> &str {
        &self.frac
    }

    fn key(&self) -> Key<'_> {
        Key {
            seconds: i128::from(self.seconds),
            frac: &self.frac,
            zoned: self.zoned,
        }
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:02}:{:02}:{:02}",
            self.seconds / 3600,
            self.seconds / 60 % 60,
            self.seconds % 60
        )?;
        if !self.frac.is_empty() {
            write!(f, ".{}", self.frac)?;
        }
        write_zone(f, self.zoned.then_some(0))
    }
}

time_line_value!(
    Time,
    "xs:time",
    "Reads `hh:mm:ss(.s+)?(zone)?` after collapsing white space."
);

/// An `xs:date`: a day, with the time zone (in minutes) it starts in, if any. The
/// canonical form moves the zone into (-12:00, +12:00] (Part 2, 3.2.9.2), so equal dates
/// are written alike.
#[derive(Debug, Clone)]
pub struct Date {
    year: i64,
    month: u8,
    day: u8,
    zone: Option<i32>,
}

impl Date {
    fn read(c: &mut Cursor<'_>) -> Option<Self> {
        let (year, month, day) = c.date()?;
        let zone = c.zone_end()?;
        let (mut year, mut month, mut day, mut zone) = (year, month, day, zone);
        if let Some(z) = zone {
            // The same first instant, with the zone in (-12:00, +12:00].
            let shift = if z > 12 * 60 {
                -1
            } else if z <= -12 * 60 {
                1
            } else {
                0
            };
            if shift != 0 {
                let days = days_from_civil(astronomical(year), i64::from(month), i64::from(day));
                let (a, m, d) = civil_from_days(days + shift);
                (year, month, day) = (from_astronomical(a), m, d);
                zone = Some(z + shift as i32 * 24 * 60);
            }
        }
        (year.abs() <= MAX_YEAR).then_some(Date {
            year,
            month,
            day,
            zone,
        })
    }

    getters!(
        /// The year (XSD numbering).
        year: i64,
        /// The month, 1 to 12.
        month: u8,
        /// The day of the month.
        day: u8,
        /// The time zone in minutes east of UTC, if any.
        zone: Option<i32>,
    );

    fn key(&self) -> Key<'static> {
        Key {
            seconds: day_seconds(self.year, self.month, self.day)
                - i128::from(self.zone.unwrap_or(0)) * 60,
            frac: "",
            zoned: self.zone.is_some(),
        }
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_year(f, self.year)?;
        write!(f, "-{:02}-{:02}", self.month, self.day)?;
        write_zone(f, self.zone)
    }
}

time_line_value!(
    Date,
    "xs:date",
    "Reads `-?YYYY-MM-DD(zone)?` after collapsing white space."
);

/// A reference leap year for the types without a year (`--02-29` is a gMonthDay).
const REFERENCE_YEAR: i64 = 1972;

macro_rules! gregorian {
    ($(#[$doc:meta])* $name:ident, $xsd:literal, { $($field:ident: $ty:ty),* },
     |$c:ident| $read:block, |$v:ident, $f:ident| $write:block,
     |$k:ident| $start:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $name {
            $($field: $ty,)*
            zone: Option<i32>,
        }

        impl $name {
            fn read($c: &mut Cursor<'_>) -> Option<Self> {
                // One field or a tuple of them.
                #[allow(unused_parens)]
                let ($($field),*) = $read;
                let zone = $c.zone_end()?;
                Some($name { $($field,)* zone })
            }
            getters!(
                $(#[doc = concat!("The ", stringify!($field), ".")] $field: $ty,)*
                /// The time zone in minutes east of UTC, if any.
                zone: Option<i32>,
            );
            fn key(&self) -> Key<'static> {
                let $k = self;
                let start: i128 = $start;
                Key {
                    seconds: start - i128::from(self.zone.unwrap_or(0)) * 60,
                    frac: "",
                    zoned: self.zone.is_some(),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, $f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let $v = self;
                $write
                write_zone($f, self.zone)
            }
        }

        time_line_value!($name, $xsd, "Reads the lexical form after collapsing white space.");
    };
}

gregorian!(
    /// An `xs:gYearMonth`: `-?YYYY-MM(zone)?`.
    GYearMonth, "xs:gYearMonth", { year: i64, month: u8 },
    |c| {
        let year = c.year()?;
        c.expect(b'-')?;
        (year, c.two_digits(1..=12)?)
    },
    |v, f| { write_year(f, v.year)?; write!(f, "-{:02}", v.month)?; },
    |k| day_seconds(k.year, k.month, 1));

gregorian!(
    /// An `xs:gYear`: `-?YYYY(zone)?`.
    GYear, "xs:gYear", { year: i64 },
    |c| { c.year()? },
    |v, f| { write_year(f, v.year)?; },
    |k| day_seconds(k.year, 1, 1));

gregorian!(
    /// An `xs:gMonthDay`: `--MM-DD(zone)?` (`--02-29` allowed).
    GMonthDay, "xs:gMonthDay", { month: u8, day: u8 },
    |c| {
        c.literal(b"--")?;
        let month = c.two_digits(1..=12)?;
        c.expect(b'-')?;
        (month, c.two_digits(1..=days_in_month(REFERENCE_YEAR, month))?)
    },
    |v, f| { write!(f, "--{:02}-{:02}", v.month, v.day)?; },
    |k| day_seconds(REFERENCE_YEAR, k.month, k.day));

gregorian!(
    /// An `xs:gDay`: `---DD(zone)?`.
    GDay, "xs:gDay", { day: u8 },
    |c| {
        c.literal(b"---")?;
        c.two_digits(1..=31)?
    },
    |v, f| { write!(f, "---{:02}", v.day)?; },
    |k| day_seconds(REFERENCE_YEAR, 12, k.day));

gregorian!(
    /// An `xs:gMonth`: `--MM(zone)?` (the form of the XSD 1.0 errata; the first edition's
    /// `--MM--` is not taken).
    GMonth, "xs:gMonth", { month: u8 },
    |c| {
        c.literal(b"--")?;
        c.two_digits(1..=12)?
    },
    |v, f| { write!(f, "--{:02}", v.month)?; },
    |k| day_seconds(REFERENCE_YEAR, k.month, 1));

/// An `xs:duration`: a sign, a number of months and a number of seconds (exact, any
/// fraction). Written normalised (`P13M` as `P1Y1M`, `PT36H` as `P1DT12H`; zero as
/// `PT0S`), which is the same value.
///
/// Order (Part 2, 3.2.6.2): `P < Q` when `P` added to each of 1696-09-01T00:00:00Z,
/// 1697-02-01T00:00:00Z, 1903-03-01T00:00:00Z and 1903-07-01T00:00:00Z comes before `Q`
/// added to it; when the four disagree, the comparison is indeterminate (`P1M` and `P30D`).
#[derive(Debug, Clone)]
pub struct Duration {
    negative: bool,
    months: u64,
    seconds: Decimal,
}

impl Duration {
    /// Reads `-?P(nY)?(nM)?(nD)?(T(nH)?(nM)?(n(.n+)?S)?)?` (at least one part, and one
    /// after a `T`) after collapsing white space.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        read_lexical(text, "xs:duration", Self::read)
    }

    fn read(c: &mut Cursor<'_>) -> Option<Self> {
        let negative = c.eat(b'-');
        c.expect(b'P')?;
        let number = |d: &[u8]| -> Option<u64> { std::str::from_utf8(d).ok()?.parse().ok() };
        let mut months: u64 = 0;
        let mut whole: u128 = 0;
        let mut frac: Box<str> = "".into();
        let mut parts = 0;
        // Date parts, in order.
        let mut order = 0;
        while !c.at_end() && c.b[c.i] != b'T' {
            let n = number(c.run()?)?;
            let (rank, add_months, add_secs) = match c.b.get(c.i)? {
                b'Y' => (1, n.checked_mul(12)?, 0),
                b'M' => (2, n, 0),
                b'D' => (3, 0, u128::from(n) * 86_400),
                _ => return None,
            };
            if rank <= order {
                return None;
            }
            order = rank;
            c.i += 1;
            months = months.checked_add(add_months)?;
            whole = whole.checked_add(add_secs)?;
            parts += 1;
        }
        if c.eat(b'T') {
            let mut order = 0;
            let mut time_parts = 0;
            while !c.at_end() {
                let digits = c.run()?;
                let n = number(digits)?;
                let (rank, unit) = if c.eat(b'.') {
                    let f = std::str::from_utf8(c.run()?).ok()?.trim_end_matches('0');
                    frac = f.into();
                    if c.b.get(c.i) != Some(&b'S') {
                        return None;
                    }
                    (3, 1)
                } else {
                    match c.b.get(c.i)? {
                        b'H' => (1, 3600),
                        b'M' => (2, 60),
                        b'S' => (3, 1),
                        _ => return None,
                    }
                };
                if rank <= order {
                    return None;
                }
                order = rank;
                c.i += 1;
                whole = whole.checked_add(u128::from(n) * unit)?;
                time_parts += 1;
            }
            if time_parts == 0 {
                return None;
            }
            parts += time_parts;
        }
        // Years beyond twelve digits are refused, as for the other date types.
        if parts == 0 || months > MAX_YEAR as u64 * 12 {
            return None;
        }
        let seconds: Decimal = format!("{whole}.{frac}0").parse().ok()?;
        let zero = months == 0 && seconds == Decimal::default();
        Some(Duration {
            negative: negative && !zero,
            months,
            seconds,
        })
    }

    /// Whether the duration is negative.
    pub fn is_negative(&self) -> bool {
        self.negative
    }
    /// The months (years times twelve, plus months), without the sign.
    pub fn months(&self) -> u64 {
        self.months
    }
    /// The seconds (days, hours and minutes included), without the sign.
    pub fn seconds(&self) -> &Decimal {
        &self.seconds
    }

    /// The instant this duration after the first of `year`-`month` at 00:00:00Z, in
    /// seconds since 1970 (exact).
    fn after(&self, year: i64, month: i64) -> Decimal {
        let signed_months = if self.negative {
            -i128::from(self.months)
        } else {
            i128::from(self.months)
        };
        let m = i128::from(year) * 12 + i128::from(month - 1) + signed_months;
        // At most MAX_YEAR years of months (checked when read): the day count fits an i64.
        let (y, mo) = (m.div_euclid(12) as i64, m.rem_euclid(12) as i64 + 1);
        let start = i128::from(days_from_civil(y, mo, 1)) * 86_400;
        let (unscaled, scale) = self.seconds.parts();
        let start = BigInt::from(start) * num_traits::pow(BigInt::from(10u8), scale as usize);
        let total = if self.negative {
            start - unscaled
        } else {
            start + unscaled
        };
        Decimal::new(total, scale)
    }
}

impl PartialEq for Duration {
    fn eq(&self, other: &Self) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

// Equal durations have the same sign, months and seconds (the four reference instants
// tell apart any two that differ): an equivalence, hashed by those.
impl Eq for Duration {}

impl std::hash::Hash for Duration {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.negative, self.months, &self.seconds).hash(state);
    }
}

impl PartialOrd for Duration {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        let mut answer = None;
        for (y, m) in [(1696, 9), (1697, 2), (1903, 3), (1903, 7)] {
            let o = self.after(y, m).cmp(&other.after(y, m));
            match answer {
                None => answer = Some(o),
                Some(a) if a != o => return None,
                Some(_) => {}
            }
        }
        answer
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        f.write_str("P")?;
        let (years, months) = (self.months / 12, self.months % 12);
        if years > 0 {
            write!(f, "{years}Y")?;
        }
        if months > 0 {
            write!(f, "{months}M")?;
        }
        let (unscaled, scale) = self.seconds.parts();
        let digits = unscaled.magnitude().to_string();
        let (whole, frac) = if scale == 0 {
            (digits.as_str(), "")
        } else if digits.len() > scale as usize {
            digits.split_at(digits.len() - scale as usize)
        } else {
            ("0", "")
        };
        let padded;
        let frac = if scale > 0 && digits.len() <= scale as usize {
            padded = format!("{}{digits}", "0".repeat(scale as usize - digits.len()));
            padded.as_str()
        } else {
            frac
        };
        let whole: u128 = whole.parse().unwrap_or(0);
        let (days, rest) = (whole / 86_400, whole % 86_400);
        let (h, m, s) = (rest / 3600, rest / 60 % 60, rest % 60);
        if days > 0 {
            write!(f, "{days}D")?;
        }
        if h > 0 || m > 0 || s > 0 || !frac.is_empty() || (self.months == 0 && days == 0) {
            f.write_str("T")?;
            if h > 0 {
                write!(f, "{h}H")?;
            }
            if m > 0 {
                write!(f, "{m}M")?;
            }
            if s > 0 || !frac.is_empty() || (h == 0 && m == 0) {
                write!(f, "{s}")?;
                if !frac.is_empty() {
                    write!(f, ".{frac}")?;
                }
                f.write_str("S")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Duration {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        Duration::parse(s)
    }
}

/// An `xs:dateTimeStamp` (XSD 1.1 Part 2, 3.4.28): an `xs:dateTime` whose time zone is
/// required (its `explicitTimezone` facet is `required`). Value, order and canonical form
/// are the dateTime's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DateTimeStamp(DateTime);

impl DateTimeStamp {
    /// Reads an `xs:dateTime` with a time zone, after collapsing white space.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        let v = DateTime::parse(text).map_err(|_| lexical("xs:dateTimeStamp"))?;
        if v.is_zoned() {
            Ok(DateTimeStamp(v))
        } else {
            Err(lexical("xs:dateTimeStamp (a dateTime with a time zone)"))
        }
    }

    /// The value as the `xs:dateTime` it is.
    pub fn date_time(&self) -> &DateTime {
        &self.0
    }
}

/// `text` without the XML white space (space, tab, line feed, carriage return) at its
/// ends; other characters `str::trim` would take (a no-break space) stay, to be refused.
fn trim_xml_space(text: &str) -> &str {
    text.trim_matches([' ', '\t', '\n', '\r'])
}

/// An `xs:dayTimeDuration` (XSD 1.1 Part 2, 3.4.27): an `xs:duration` written without
/// years or months, so its value is a number of seconds. Value, order and canonical form
/// are the duration's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DayTimeDuration(Duration);

impl DayTimeDuration {
    /// Reads an `xs:duration` whose part before any `T` has no `Y` and no `M` (the
    /// pattern `[^YM]*(T.*)?`), after collapsing white space.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        // Only the ends are trimmed here: Duration::parse collapses the rest.
        let t = trim_xml_space(text);
        let date_part = t.split('T').next().unwrap_or("");
        if date_part.contains(['Y', 'M']) {
            return Err(lexical("xs:dayTimeDuration (no years or months)"));
        }
        Duration::parse(t)
            .map(DayTimeDuration)
            .map_err(|_| lexical("xs:dayTimeDuration"))
    }

    /// The value as the `xs:duration` it is.
    pub fn duration(&self) -> &Duration {
        &self.0
    }
}

/// An `xs:yearMonthDuration` (XSD 1.1 Part 2, 3.4.26): an `xs:duration` written with
/// years and months only, so its value is a number of months. Order is the duration's
/// (total: months alone never disagree); the canonical zero is `P0M`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct YearMonthDuration(Duration);

impl YearMonthDuration {
    /// Reads an `xs:duration` without days or a time part (the pattern `[^DT]*`), after
    /// collapsing white space.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        let t = trim_xml_space(text);
        if t.contains(['D', 'T']) {
            return Err(lexical("xs:yearMonthDuration (years and months only)"));
        }
        Duration::parse(t)
            .map(YearMonthDuration)
            .map_err(|_| lexical("xs:yearMonthDuration"))
    }

    /// The value as the `xs:duration` it is.
    pub fn duration(&self) -> &Duration {
        &self.0
    }
}

impl PartialOrd for DateTimeStamp {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.0.partial_cmp(&other.0)
    }
}

impl PartialOrd for DayTimeDuration {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.0.partial_cmp(&other.0)
    }
}

impl PartialOrd for YearMonthDuration {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.0.partial_cmp(&other.0)
    }
}

impl fmt::Display for DateTimeStamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for DayTimeDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for YearMonthDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Part 2, 3.4.26.3: zero is P0M (the duration's PT0S is not in this lexical space).
        if self.0.months() == 0 {
            f.write_str("P0M")
        } else {
            self.0.fmt(f)
        }
    }
}

impl FromStr for DateTimeStamp {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        DateTimeStamp::parse(s)
    }
}

impl FromStr for DayTimeDuration {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        DayTimeDuration::parse(s)
    }
}

impl FromStr for YearMonthDuration {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        YearMonthDuration::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_count_round_trips() {
        for days in [
            -1_000_000_000,
            -719_468,
            -1,
            0,
            1,
            59,
            365,
            11_016,
            1_000_000,
        ] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, i64::from(m), i64::from(d)), days);
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
    }

    #[test]
    fn date_time_lexical_space() {
        for ok in [
            "2000-01-01T00:00:00",
            "2000-02-29T23:59:59.999Z",
            "-0001-12-31T24:00:00+14:00",
            "12345-01-01T00:00:00-14:00",
            "1999-12-31T24:00:00",
        ] {
            assert!(DateTime::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "0000-01-01T00:00:00",
            "1900-02-29T00:00:00",
            "2000-13-01T00:00:00",
            "2000-01-01T24:00:01",
            "2000-01-01T00:60:00",
            "2000-01-01T00:00:60",
            "2000-01-01T00:00:00+14:01",
            "2000-01-01T00:00:00+1:00",
            "02000-01-01T00:00:00",
            "200-01-01T00:00:00",
            "2000-01-01",
            "2000-01-01T00:00:00.",
            "2000-01-01T00:00",
            "+2000-01-01T00:00:00",
        ] {
            assert!(DateTime::parse(bad).is_err(), "{bad}");
        }
    }

    fn dt(s: &str) -> DateTime {
        s.parse().unwrap()
    }

    #[test]
    fn date_time_canonical_form_and_order() {
        assert_eq!(dt("1999-12-31T24:00:00").to_string(), "2000-01-01T00:00:00");
        assert_eq!(
            dt("2000-01-01T01:30:00.500+02:00").to_string(),
            "1999-12-31T23:30:00.5Z"
        );
        assert_eq!(
            dt("0001-01-01T00:00:00+01:00").to_string(),
            "-0001-12-31T23:00:00Z"
        );
        assert_eq!(dt("2000-01-01T12:00:00Z"), dt("2000-01-01T13:00:00+01:00"));
        // Values in UTC or without a zone keep their date as written (no day count).
        assert_eq!(
            dt("2020-02-29T06:15:51Z").to_string(),
            "2020-02-29T06:15:51Z"
        );
        assert_eq!(
            dt("-0005-03-01T00:00:00").to_string(),
            "-0005-03-01T00:00:00"
        );
        assert_eq!(dt("2020-02-29T06:15:51Z"), dt("2020-02-29T06:15:51+00:00"));
        assert_eq!(dt("2020-02-29T06:15:51Z"), dt("2020-02-29T04:15:51-02:00"));
        // Unzoned against zoned: decided only beyond 14 hours.
        let local = dt("2000-01-15T12:00:00");
        assert!(dt("2000-01-15T12:00:00Z").partial_cmp(&local).is_none());
        assert!(dt("2000-01-14T21:59:59Z") < local);
        assert!(dt("2000-01-14T22:00:00Z").partial_cmp(&local).is_none());
        assert!(dt("2000-01-16T02:00:01Z") > local);
        assert_ne!(dt("2000-01-15T12:00:00Z"), local);
        assert!(dt("2000-01-01T00:00:00.1") < dt("2000-01-01T00:00:00.10001"));
        assert!(dt("-0001-12-31T23:59:59Z") < dt("0001-01-01T00:00:00Z"));
    }

    #[test]
    fn dates_and_gregorian_types() {
        let d = |s: &str| s.parse::<Date>().unwrap();
        assert_eq!(d("2000-01-02+14:00").to_string(), "2000-01-01-10:00");
        assert_eq!(d("2000-01-01-12:00").to_string(), "2000-01-02+12:00");
        assert_eq!(d("2000-01-02+14:00"), d("2000-01-01-10:00"));
        assert_eq!(d("2000-01-01+00:00").to_string(), "2000-01-01Z");
        assert!(d("2000-01-01") < d("2000-01-02"));
        assert!("2000-02-30".parse::<Date>().is_err());
        assert!("--02-29".parse::<GMonthDay>().is_ok());
        assert!("--02-30".parse::<GMonthDay>().is_err());
        assert!("--04-31".parse::<GMonthDay>().is_err());
        assert!("---31".parse::<GDay>().is_ok());
        assert!("---32".parse::<GDay>().is_err());
        assert!("--12".parse::<GMonth>().is_ok());
        assert!("--13".parse::<GMonth>().is_err());
        assert!("0000".parse::<GYear>().is_err());
        // XSD 1.1 has a year 0 (1 BCE), also written -0000; it orders between -0001 and 0001.
        super::super::with_edition(true, || {
            assert_eq!("0000".parse::<GYear>().unwrap().to_string(), "0000");
            assert_eq!(
                "-0000-12".parse::<GYearMonth>().unwrap().to_string(),
                "0000-12"
            );
            let t = |s: &str| s.parse::<DateTime>().unwrap();
            assert!(t("-0001-12-31T00:00:00Z") < t("0000-01-01T00:00:00Z"));
            assert!(t("0000-12-31T00:00:00Z") < t("0001-01-01T00:00:00Z"));
            assert!("00000".parse::<GYear>().is_err());
        });
        assert_eq!("-0044Z".parse::<GYear>().unwrap().to_string(), "-0044Z");
        assert_eq!(
            "1999-05".parse::<GYearMonth>().unwrap().to_string(),
            "1999-05"
        );
        assert!("1999-5".parse::<GYearMonth>().is_err());
        let t = |s: &str| s.parse::<Time>().unwrap();
        assert_eq!(t("24:00:00").to_string(), "00:00:00");
        assert_eq!(t("01:00:00+02:00").to_string(), "23:00:00Z");
        assert_eq!(t("13:20:00-05:00"), t("18:20:00Z"));
    }

    fn du(s: &str) -> Duration {
        s.parse().unwrap()
    }

    #[test]
    fn durations() {
        for (lexical, canonical) in [
            ("P1Y2M3DT10H30M", "P1Y2M3DT10H30M"),
            ("P13M", "P1Y1M"),
            ("PT36H", "P1DT12H"),
            ("-P0D", "PT0S"),
            ("PT0.50S", "PT0.5S"),
            ("PT1.005S", "PT1.005S"),
            ("P0Y0M0DT0H0M0.001S", "PT0.001S"),
            ("-PT61S", "-PT1M1S"),
        ] {
            assert_eq!(du(lexical).to_string(), canonical, "{lexical}");
        }
        for bad in [
            "P", "PT", "P1", "1Y", "P1S", "PT1D", "P1M1Y", "P-1Y", "PT1.S", "P1Y2MT",
        ] {
            assert!(bad.parse::<Duration>().is_err(), "{bad}");
        }
        assert_eq!(du("P1D"), du("PT24H"));
        assert_eq!(du("P1Y"), du("P12M"));
        assert!(du("P1M").partial_cmp(&du("P30D")).is_none());
        assert!(du("P1M") < du("P32D"));
        assert!(du("P1M") > du("P27D"));
        assert!(du("-P1D") < du("PT0S"));
        assert!(du("P1Y").partial_cmp(&du("P365D")).is_none());
        assert!(du("PT0.1S") < du("PT0.11S"));
    }

    #[test]
    fn the_xsd_1_1_types_narrow_their_primitives() {
        // dateTimeStamp: a dateTime with a zone; value and canonical form the dateTime's.
        let stamp = DateTimeStamp::parse(" 2000-01-01T12:00:00+02:00 ").unwrap();
        assert_eq!(stamp.to_string(), "2000-01-01T10:00:00Z");
        assert!(DateTimeStamp::parse("2000-01-01T12:00:00").is_err());
        assert!(
            DateTimeStamp::parse("2000-01-01T10:00:00Z").unwrap()
                == DateTimeStamp::parse("2000-01-01T12:00:00+02:00").unwrap()
        );
        // dayTimeDuration: no years or months written, even zero ones.
        let dt = |s: &str| DayTimeDuration::parse(s);
        assert_eq!(dt("P1DT2H").unwrap().to_string(), "P1DT2H");
        assert_eq!(dt("PT0S").unwrap().to_string(), "PT0S");
        assert_eq!(dt("PT36H").unwrap().to_string(), "P1DT12H");
        for bad in ["P1M", "P0Y", "P1Y2D", "P", "PT", "1D"] {
            assert!(dt(bad).is_err(), "{bad}");
        }
        assert!(dt("PT1M").is_ok(), "minutes are no months");
        assert!(dt("P1D").unwrap() > dt("PT23H").unwrap());
        // yearMonthDuration: years and months only; zero is P0M; a total order.
        let ym = |s: &str| YearMonthDuration::parse(s);
        assert_eq!(ym("P14M").unwrap().to_string(), "P1Y2M");
        assert_eq!(ym("P0Y").unwrap().to_string(), "P0M");
        assert_eq!(ym("-P0M").unwrap().to_string(), "P0M");
        for bad in ["P1D", "PT0S", "P1YT1H", "P"] {
            assert!(ym(bad).is_err(), "{bad}");
        }
        assert!(ym("P1Y").unwrap() > ym("P11M").unwrap());
        assert!(ym("P12M").unwrap() == ym("P1Y").unwrap());
        // XML white space around either is collapsed away; a no-break space is no XML
        // white space, and white space inside is no duration.
        assert_eq!(dt(" \tP1D\r\n").unwrap().to_string(), "P1D");
        assert_eq!(ym("\nP1Y ").unwrap().to_string(), "P1Y");
        for bad in ["P1D\u{a0}", "\u{a0}P1Y", "P1 D", "P1Y 2M"] {
            assert!(dt(bad).is_err() && ym(bad).is_err(), "{bad:?}");
        }
    }
}
