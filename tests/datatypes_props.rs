//! Property tests of the XSD value types (src/datatypes): every value survives
//! parse -> canonical write -> parse, the canonical form is a fixed point, and the order
//! agrees with an independent reference (decimals against big-integer arithmetic on scaled
//! values, dates against a day count computed another way, durations against that day
//! count at the four reference instants of Part 2).

use std::cmp::Ordering;

use boardxml::datatypes::*;
use num_bigint::BigInt;
use proptest::prelude::*;

/// A decimal's lexical form with the noise the lexical space allows: a sign, leading
/// zeros, trailing zeros, a missing integer part. With its exact value as (unscaled, scale).
fn decimal_lexical() -> impl Strategy<Value = (String, BigInt, u32)> {
    // Short digit runs (held inline) and long ones (big integers), and mixes of the two.
    let digits = || prop_oneof!["[0-9]{0,9}", "[0-9]{0,40}"];
    (
        any::<bool>(),
        digits(),
        digits(),
        0usize..3,
        0usize..3,
        any::<bool>(),
    )
        .prop_filter_map("needs a digit", |(neg, int, frac, lead, trail, plus)| {
            if int.is_empty() && frac.is_empty() {
                return None;
            }
            let sign = if neg {
                "-"
            } else if plus {
                "+"
            } else {
                ""
            };
            let lexical = format!(
                "{sign}{}{int}{}{frac}{}",
                "0".repeat(lead),
                if frac.is_empty() && trail == 0 {
                    ""
                } else {
                    "."
                },
                "0".repeat(trail)
            );
            let all = format!("0{int}{frac}");
            let mut unscaled: BigInt = all.parse().unwrap();
            if neg {
                unscaled = -unscaled;
            }
            Some((lexical, unscaled, frac.len() as u32))
        })
}

fn scaled(unscaled: &BigInt, scale: u32, to: u32) -> BigInt {
    unscaled * num_traits::pow(BigInt::from(10u8), (to - scale) as usize)
}

proptest! {
    #[test]
    fn decimal_round_trip_and_order((a, ua, sa) in decimal_lexical(), (b, ub, sb) in decimal_lexical()) {
        let da: Decimal = a.parse().unwrap();
        let db: Decimal = b.parse().unwrap();
        let canonical = da.to_string();
        let again: Decimal = canonical.parse().unwrap();
        prop_assert_eq!(&again, &da);
        prop_assert_eq!(again.to_string(), canonical.clone());
        // The canonical form has a digit each side of the point and nothing to trim.
        let (int, frac) = canonical.trim_start_matches('-').split_once('.').unwrap();
        prop_assert!(!int.is_empty() && !frac.is_empty());
        prop_assert!(int == "0" || !int.starts_with('0'));
        prop_assert!(frac == "0" || !frac.ends_with('0'));
        // The order against scaled big integers.
        let s = sa.max(sb);
        let reference = scaled(&ua, sa, s).cmp(&scaled(&ub, sb, s));
        prop_assert_eq!(da.cmp(&db), reference);
        prop_assert_eq!(da == db, reference == Ordering::Equal);
    }

    #[test]
    fn integer_round_trip(neg in any::<bool>(), digits in "[0-9]{1,80}") {
        let text = format!("{}{digits}", if neg { "-" } else { "+" });
        let v: Integer = text.parse().unwrap();
        let reference: BigInt = text.parse().unwrap();
        prop_assert_eq!(&*v.as_bigint(), &reference);
        prop_assert_eq!(v.to_string().parse::<Integer>().unwrap(), v.clone());
        prop_assert_eq!(v.to_string(), reference.to_string());
    }

    #[test]
    fn integer_order_is_big_integer_order(
        na in any::<bool>(), a in "0{0,3}[0-9]{1,40}",
        nb in any::<bool>(), b in "0{0,3}[0-9]{1,40}",
    ) {
        // Values inline (up to 18 digits) and big ones, against each other: the order and
        // equality of the big-integer reference, whatever form each is held in.
        let (ta, tb) = (
            format!("{}{a}", if na { "-" } else { "" }),
            format!("{}{b}", if nb { "-" } else { "" }),
        );
        let (va, vb): (Integer, Integer) = (ta.parse().unwrap(), tb.parse().unwrap());
        let (ra, rb): (BigInt, BigInt) = (ta.parse().unwrap(), tb.parse().unwrap());
        prop_assert_eq!(va.cmp(&vb), ra.cmp(&rb));
        prop_assert_eq!(va == vb, ra == rb);
        prop_assert_eq!(Integer::from(ra.clone()), va.clone());
        prop_assert_eq!(va.digits(), ra.magnitude().to_string().len() as u64);
    }

    #[test]
    fn double_round_trip(bits in any::<u64>()) {
        let x = f64::from_bits(bits);
        let v = Double(x);
        let again: Double = v.to_string().parse().unwrap();
        if x.is_nan() {
            prop_assert!(again.0.is_nan());
        } else {
            prop_assert_eq!(again.0.to_bits(), bits);
        }
        prop_assert_eq!(again.to_string(), v.to_string());
    }

    #[test]
    fn float_round_trip(bits in any::<u32>()) {
        let x = f32::from_bits(bits);
        let again: Float = Float(x).to_string().parse().unwrap();
        if x.is_nan() {
            prop_assert!(again.0.is_nan());
        } else {
            prop_assert_eq!(again.0.to_bits(), bits);
        }
    }

    #[test]
    fn double_parse_agrees_with_the_standard_library(m in -1_000_000i64..1_000_000, e in -320i32..310) {
        let text = format!("{m}E{e}");
        let v: Double = text.parse().unwrap();
        prop_assert_eq!(v.0.to_bits(), text.parse::<f64>().unwrap().to_bits());
    }

    #[test]
    fn binary_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..64), gap in 1usize..9) {
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let h: HexBinary = hex.parse().unwrap();
        prop_assert_eq!(&h.0, &bytes);
        prop_assert_eq!(h.to_string(), hex.to_uppercase());
        let b64 = Base64Binary(bytes.clone()).to_string();
        // Single spaces between characters are in the lexical space.
        let spaced: String = b64
            .chars()
            .enumerate()
            .flat_map(|(i, c)| (i > 0 && i % gap == 0).then_some(' ').into_iter().chain([c]))
            .collect();
        let b: Base64Binary = spaced.parse().unwrap();
        prop_assert_eq!(&b.0, &bytes);
        prop_assert_eq!(b.to_string(), b64);
    }
}

/// Days from 0000-03-01 (astronomical), counted a different way from the runtime's: whole
/// years by the leap rule, then a table of month lengths.
fn reference_days(astronomical: i64, month: u8, day: u8) -> i128 {
    let y = i128::from(astronomical);
    let leap = |y: i128| y.rem_euclid(4) == 0 && (y.rem_euclid(100) != 0 || y.rem_euclid(400) == 0);
    // Days before 1 January of year y, counting from 1 January of year 0.
    let before = |y: i128| {
        365 * y + (y + 3).div_euclid(4) - (y + 99).div_euclid(100) + (y + 399).div_euclid(400)
    };
    const CUMULATIVE: [i128; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let mut days = before(y) + CUMULATIVE[usize::from(month) - 1] + i128::from(day) - 1;
    if month > 2 && leap(y) {
        days += 1;
    }
    days
}

fn month_length(astronomical: i64, month: u8) -> u8 {
    let y = astronomical;
    let leap = y.rem_euclid(4) == 0 && (y.rem_euclid(100) != 0 || y.rem_euclid(400) == 0);
    [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ][usize::from(month) - 1]
}

/// A dateTime: its lexical form and its instant in seconds from year 0 (UTC when zoned),
/// with the fraction's digits, and whether it is zoned.
#[derive(Debug, Clone)]
struct Moment {
    lexical: String,
    seconds: i128,
    frac: String,
    zone: Option<i32>,
}

fn moment() -> impl Strategy<Value = Moment> {
    (
        prop_oneof![-2000i64..=-1, 1i64..=2000, 1i64..=99_999, -99_999i64..=-1],
        1u8..=12,
        1u8..=31,
        0u32..86_400,
        "[0-9]{0,3}",
        proptest::option::of(-14 * 60..=14 * 60i32),
        any::<bool>(),
    )
        .prop_map(|(year, month, day, secs, frac, zone, midnight)| {
            let a = if year < 0 { year + 1 } else { year };
            let day = day.min(month_length(a, month));
            let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
            let (time, secs, frac) = if midnight && frac.is_empty() {
                ("24:00:00".to_string(), 86_400, String::new())
            } else {
                let dot = if frac.is_empty() {
                    String::new()
                } else {
                    format!(".{frac}")
                };
                (format!("{h:02}:{m:02}:{s:02}{dot}"), secs, frac)
            };
            let zone_text = match zone {
                None => String::new(),
                Some(0) => "Z".into(),
                Some(z) => format!(
                    "{}{:02}:{:02}",
                    if z < 0 { '-' } else { '+' },
                    z.abs() / 60,
                    z.abs() % 60
                ),
            };
            let year_text = if year < 0 {
                format!("-{:04}", -year)
            } else {
                format!("{year:04}")
            };
            Moment {
                lexical: format!("{year_text}-{month:02}-{day:02}T{time}{zone_text}"),
                seconds: reference_days(a, month, day) * 86_400 + i128::from(secs)
                    - i128::from(zone.unwrap_or(0)) * 60,
                frac: frac.trim_end_matches('0').to_string(),
                zone,
            }
        })
}

fn reference_order(p: &Moment, q: &Moment) -> Option<Ordering> {
    let exact = |a: i128, b: i128| a.cmp(&b).then_with(|| p.frac.cmp(&q.frac));
    match (p.zone.is_some(), q.zone.is_some()) {
        (true, true) | (false, false) => Some(exact(p.seconds, q.seconds)),
        (true, false) => {
            if exact(p.seconds, q.seconds - 14 * 3600) == Ordering::Less {
                Some(Ordering::Less)
            } else if exact(p.seconds, q.seconds + 14 * 3600) == Ordering::Greater {
                Some(Ordering::Greater)
            } else {
                None
            }
        }
        (false, true) => {
            if exact(p.seconds + 14 * 3600, q.seconds) == Ordering::Less {
                Some(Ordering::Less)
            } else if exact(p.seconds - 14 * 3600, q.seconds) == Ordering::Greater {
                Some(Ordering::Greater)
            } else {
                None
            }
        }
    }
}

proptest! {
    #[test]
    fn date_time_round_trip_and_order(p in moment(), q in moment()) {
        let a: DateTime = p.lexical.parse().unwrap();
        let b: DateTime = q.lexical.parse().unwrap();
        let canonical = a.to_string();
        let again: DateTime = canonical.parse().unwrap();
        prop_assert_eq!(again.partial_cmp(&a), Some(Ordering::Equal));
        prop_assert_eq!(again.to_string(), canonical);
        prop_assert_eq!(a.partial_cmp(&b), reference_order(&p, &q), "{} vs {}", p.lexical, q.lexical);
    }

    #[test]
    fn date_round_trip_and_order(p in moment(), q in moment()) {
        // The date part of each moment, with its zone: a day starting at its midnight.
        let date_of = |m: &Moment| {
            let (date, rest) = m.lexical.rsplit_once('T').unwrap();
            let zone = rest.find(['Z', '+', '-']).map_or("", |i| &rest[i..]);
            format!("{date}{zone}")
        };
        let (pd, qd) = (date_of(&p), date_of(&q));
        let a: Date = pd.parse().unwrap();
        let b: Date = qd.parse().unwrap();
        let again: Date = a.to_string().parse().unwrap();
        prop_assert_eq!(again.to_string(), a.to_string());
        prop_assert_eq!(again.partial_cmp(&a), Some(Ordering::Equal));
        // The reference: the moments at midnight.
        let start = |m: &Moment, text: &str| -> DateTime {
            let date = m.lexical.rsplit_once('T').unwrap().0;
            let zone = &text[date.len()..];
            format!("{date}T00:00:00{zone}").parse().unwrap()
        };
        prop_assert_eq!(a.partial_cmp(&b), start(&p, &pd).partial_cmp(&start(&q, &qd)));
    }

    #[test]
    fn duration_round_trip_and_order(
        a in (any::<bool>(), 0u64..40, 0u64..100, 0u64..100_000, "[0-9]{0,2}"),
        b in (any::<bool>(), 0u64..40, 0u64..100, 0u64..100_000, "[0-9]{0,2}"),
    ) {
        let text = |(neg, months, days, secs, frac): &(bool, u64, u64, u64, String)| {
            let dot = if frac.is_empty() { String::new() } else { format!(".{frac}") };
            format!("{}P{months}M{days}DT{secs}{dot}S", if *neg { "-" } else { "" })
        };
        let (ta, tb) = (text(&a), text(&b));
        let da: Duration = ta.parse().unwrap();
        let db: Duration = tb.parse().unwrap();
        let again: Duration = da.to_string().parse().unwrap();
        prop_assert_eq!(again.partial_cmp(&da), Some(Ordering::Equal));
        prop_assert_eq!(again.to_string(), da.to_string());
        // The reference: each added to the four instants, in hundredths of seconds.
        let after = |(neg, months, days, secs, frac): &(bool, u64, u64, u64, String), y: i64, m: i64| -> i128 {
            let sign: i128 = if *neg { -1 } else { 1 };
            let total = y * 12 + (m - 1) + sign as i64 * *months as i64;
            let (yy, mm) = (total.div_euclid(12), total.rem_euclid(12) as u8 + 1);
            let hundredths = format!("{frac:0<2}").parse::<i128>().unwrap();
            reference_days(yy, mm, 1) * 8_640_000
                + sign * ((i128::from(*days) * 86_400 + i128::from(*secs)) * 100 + hundredths)
        };
        let mut reference = None;
        for (y, m) in [(1696, 9), (1697, 2), (1903, 3), (1903, 7)] {
            let o = after(&a, y, m).cmp(&after(&b, y, m));
            reference = match reference {
                None => Some(Some(o)),
                Some(Some(r)) if r == o => Some(Some(o)),
                _ => Some(None),
            };
        }
        prop_assert_eq!(da.partial_cmp(&db), reference.unwrap(), "{} vs {}", ta, tb);
    }
}

/// A zone suffix (none, `Z`, or `±hh:mm` within ±14:00) and its offset in minutes.
fn zone() -> impl Strategy<Value = (String, Option<i32>)> {
    proptest::option::of(-14 * 60..=14 * 60i32).prop_map(|z| match z {
        None => (String::new(), None),
        Some(0) => ("Z".into(), Some(0)),
        Some(z) => (
            format!(
                "{}{:02}:{:02}",
                if z < 0 { '-' } else { '+' },
                z.abs() / 60,
                z.abs() % 60
            ),
            Some(z),
        ),
    })
}

/// A year as XSD 1.0 writes it (no year 0, four digits at least) and the astronomical year.
fn year() -> impl Strategy<Value = (String, i64)> {
    prop_oneof![-9_999i64..=-1, 1i64..=9_999, 10_000i64..=999_999].prop_map(|y| {
        let text = if y < 0 {
            format!("-{:04}", -y)
        } else {
            format!("{y:04}")
        };
        (text, if y < 0 { y + 1 } else { y })
    })
}

proptest! {
    #[test]
    fn time_round_trip_and_order(a in 0u32..=86_400, b in 0u32..=86_400, (za, oa) in zone(), (zb, ob) in zone()) {
        // 86,400 is written 24:00:00, the same instant as 00:00:00 (Part 2, 3.2.8).
        let text = |s: u32, z: &str| format!("{:02}:{:02}:{:02}{z}", s / 3600, s / 60 % 60, s % 60);
        let (ta, tb) = (text(a, &za), text(b, &zb));
        let x: Time = ta.parse().unwrap();
        let y: Time = tb.parse().unwrap();
        let again: Time = x.to_string().parse().unwrap();
        prop_assert_eq!(again.to_string(), x.to_string());
        prop_assert_eq!(again.partial_cmp(&x), Some(Ordering::Equal));
        // The reference: seconds from midnight UTC, wrapped into the day (XSD 1.0's
        // canonical time is in UTC, `18:01:00-05:59` is `00:00:00Z`, so they are one
        // value), 14 hours either way when one is not zoned and the other is (then the
        // order may be indeterminate).
        let at = |s: u32, o: Option<i32>| {
            (i64::from(s % 86_400) - i64::from(o.unwrap_or(0)) * 60).rem_euclid(86_400)
        };
        let (pa, pb) = (at(a, oa), at(b, ob));
        let reference = match (oa.is_some(), ob.is_some()) {
            (true, true) | (false, false) => Some(pa.cmp(&pb)),
            (true, false) if pa < pb - 14 * 3600 => Some(Ordering::Less),
            (true, false) if pa > pb + 14 * 3600 => Some(Ordering::Greater),
            (false, true) if pa + 14 * 3600 < pb => Some(Ordering::Less),
            (false, true) if pa - 14 * 3600 > pb => Some(Ordering::Greater),
            _ => None,
        };
        prop_assert_eq!(x.partial_cmp(&y), reference, "{} vs {}", ta, tb);
    }

    #[test]
    fn gregorian_round_trip_and_order(
        (ya, aa) in year(), (yb, ab) in year(), ma in 1u8..=12, mb in 1u8..=12,
        da in 1u8..=31, db in 1u8..=31, (z, _) in zone(),
    ) {
        // Both in one zone (or both without): the order is total, that of the first day
        // of each (a day count computed apart from the runtime).
        let (da, db) = (da.min(month_length(2000, ma)), db.min(month_length(2000, mb)));
        macro_rules! check {
            ($ty:ty, $a:expr, $b:expr, $ra:expr, $rb:expr) => {{
                let (ta, tb): (String, String) = ($a, $b);
                let x: $ty = ta.parse().unwrap();
                let y: $ty = tb.parse().unwrap();
                let again: $ty = x.to_string().parse().unwrap();
                prop_assert_eq!(again.to_string(), x.to_string());
                prop_assert_eq!(again.partial_cmp(&x), Some(Ordering::Equal));
                let reference: i128 = $ra;
                prop_assert_eq!(x.partial_cmp(&y), Some(reference.cmp(&$rb)), "{} vs {}", ta, tb);
            }};
        }
        check!(GYear, format!("{ya}{z}"), format!("{yb}{z}"),
            reference_days(aa, 1, 1), reference_days(ab, 1, 1));
        check!(GYearMonth, format!("{ya}-{ma:02}{z}"), format!("{yb}-{mb:02}{z}"),
            reference_days(aa, ma, 1), reference_days(ab, mb, 1));
        // The recurring types stand in the reference year 1972 (a leap year: --02-29 is
        // a value).
        check!(GMonthDay, format!("--{ma:02}-{da:02}{z}"), format!("--{mb:02}-{db:02}{z}"),
            reference_days(1972, ma, da), reference_days(1972, mb, db));
        check!(GMonth, format!("--{ma:02}{z}"), format!("--{mb:02}{z}"),
            reference_days(1972, ma, 1), reference_days(1972, mb, 1));
        check!(GDay, format!("---{da:02}{z}"), format!("---{db:02}{z}"),
            reference_days(1972, 12, da), reference_days(1972, 12, db));
    }

    #[test]
    fn derived_integers_hold_every_value_exactly(neg in any::<bool>(), digits in "[0-9]{1,60}") {
        // The four unbounded derived types: exact (never wrapped), their bound by the sign
        // of the big-integer reference.
        let text = format!("{}{digits}", if neg { "-" } else { "" });
        let reference: BigInt = text.parse().unwrap();
        let zero = BigInt::from(0);
        macro_rules! check {
            ($ty:ty, $ok:expr) => {{
                let parsed = text.parse::<$ty>();
                prop_assert_eq!(parsed.is_ok(), $ok, "{} as {}", text, stringify!($ty));
                if let Ok(v) = parsed {
                    prop_assert_eq!(&*v.get().as_bigint(), &reference);
                    prop_assert_eq!(v.to_string(), reference.to_string());
                    prop_assert_eq!(v.to_string().parse::<$ty>().unwrap(), v);
                }
            }};
        }
        check!(NonNegativeInteger, reference >= zero);
        check!(PositiveInteger, reference > zero);
        check!(NonPositiveInteger, reference <= zero);
        check!(NegativeInteger, reference < zero);
    }

    #[test]
    fn qname_round_trip(prefix in proptest::option::of("[a-z_][a-z0-9._-]{0,8}"), local in "[A-Za-z_][A-Za-z0-9._-]{0,8}") {
        let text = match &prefix {
            Some(p) => format!("{p}:{local}"),
            None => local.clone(),
        };
        let q: QName = format!(" {text} ").parse().unwrap();
        prop_assert_eq!(q.prefix(), prefix.as_deref());
        prop_assert_eq!(q.local(), local.as_str());
        prop_assert_eq!(q.to_string(), text);
    }
}
