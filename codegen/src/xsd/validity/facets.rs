//! Facets compared by value (Part 2, 4.3): the bounds of one restriction step in order
//! (for the decimal, float and date/time primitives; the integers are checked in
//! `check_facets`), and each facet against the one its base type has (the
//! `*-valid-restriction` constraints: bounds, lengths, totalDigits, fractionDigits).

use std::cmp::Ordering;
use std::collections::HashMap;

use boardxml::facets::{Constraint, ExplicitTimezone, Facet, FACETS};

use super::{non_negative_integer, Checker, Space, XS_NS};

/// A value of an ordered primitive, comparable with another of the same primitive; None
/// where the order is not known here (timezones that differ, durations).
fn key(primitive: &str, v: &str) -> Option<(Vec<f64>, Option<i64>)> {
    let v = v.trim();
    match primitive {
        "decimal" | "float" | "double" => {
            let x = match v {
                "INF" => f64::INFINITY,
                "-INF" => f64::NEG_INFINITY,
                _ => v.parse::<f64>().ok()?,
            };
            (!x.is_nan()).then(|| (vec![x], None))
        }
        "dateTime" | "date" | "time" | "gYearMonth" | "gYear" | "gMonthDay" | "gDay" | "gMonth" => {
            // The timezone, in minutes.
            let (body, tz) = if let Some(b) = v.strip_suffix('Z') {
                (b, Some(0))
            } else if v.len() > 6
                && matches!(v.as_bytes()[v.len() - 6], b'+' | b'-')
                && v.as_bytes()[v.len() - 3] == b':'
            {
                let (b, t) = v.split_at(v.len() - 6);
                let sign = if t.starts_with('-') { -1 } else { 1 };
                let h: i64 = t[1..3].parse().ok()?;
                let m: i64 = t[4..6].parse().ok()?;
                (b, Some(sign * (h * 60 + m)))
            } else {
                (v, None)
            };
            let negative = body.starts_with('-') && !body.starts_with("--");
            let mut parts: Vec<f64> = body
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<f64>())
                .collect::<Result<_, _>>()
                .ok()?;
            if negative {
                if let Some(y) = parts.first_mut() {
                    *y = -*y;
                }
            }
            Some((parts, tz))
        }
        _ => None,
    }
}

/// The order of two values of one primitive, where it is known.
fn compare(primitive: &str, a: &str, b: &str) -> Option<Ordering> {
    let (ka, ta) = key(primitive, a)?;
    let (kb, tb) = key(primitive, b)?;
    if ka.len() != kb.len() {
        return None;
    }
    let (ka, kb) = match (ta, tb) {
        (None, None) => (ka, kb),
        (Some(x), Some(y)) if x == y => (ka, kb),
        (Some(x), Some(y)) if primitive == "time" && ka.len() == 3 => {
            // Seconds of the day in UTC.
            let s = |k: &[f64], tz: i64| k[0] * 3600.0 + k[1] * 60.0 + k[2] - (tz * 60) as f64;
            (vec![s(&ka, x)], vec![s(&kb, y)])
        }
        _ => return None,
    };
    ka.partial_cmp(&kb)
}

impl Checker<'_> {
    /// The facets a restriction step's base has (the nearest of each name, following
    /// named and inline types of this document), each with whether it is fixed; of the
    /// built-ins, only dateTimeStamp's fixed timezone (the others' facets are checked
    /// where the base is known to be one).
    fn base_facets(&self, step: usize, depth: usize) -> HashMap<Facet, (String, bool)> {
        let mut out: HashMap<Facet, (String, bool)> = HashMap::new();
        if depth > 64 {
            return out;
        }
        let n = &self.nodes[step];
        let base_type = match n.attr("base") {
            Some(b) => {
                let Ok((ns, local)) = self.resolve(step, b) else {
                    return out;
                };
                if ns.as_deref() == Some(XS_NS) && local == "dateTimeStamp" {
                    // XSD 1.1 Part 2, 3.4.28: explicitTimezone required, fixed.
                    out.insert(Facet::ExplicitTimezone, ("required".into(), true));
                }
                if ns != self.target || ns.as_deref() == Some(XS_NS) {
                    return out;
                }
                match self.globals.get(&(Space::Type, local)) {
                    Some(&g) if self.nodes[g].is("simpleType") => g,
                    _ => return out,
                }
            }
            None => match self.child(step, &["simpleType"]) {
                Some(st) => st,
                None => return out,
            },
        };
        let Some(r) = self.child(base_type, &["restriction"]) else {
            return out;
        };
        for &c in &self.nodes[r].children {
            let f = &self.nodes[c];
            let facet = Facet::from_name(&f.local).filter(|_| f.xs);
            if let (Some(facet), Some(v)) = (facet, f.attr("value")) {
                if !matches!(
                    facet.def().constrains,
                    Constraint::Pattern | Constraint::Enumeration
                ) {
                    let fixed = f
                        .attr("fixed")
                        .is_some_and(|x| matches!(x.trim(), "true" | "1"));
                    out.entry(facet).or_insert_with(|| (v.to_string(), fixed));
                }
            }
        }
        for (k, v) in self.base_facets(r, depth + 1) {
            out.entry(k).or_insert(v);
        }
        out
    }

    /// The bounds of one step in order, and every facet within its base's.
    pub(super) fn check_facet_values(
        &self,
        step: usize,
        seen: &HashMap<Facet, String>,
        primitive: Option<&str>,
        integer: bool,
        errors: &mut Vec<String>,
    ) {
        let Some(primitive) = primitive else {
            return;
        };
        let cmp = |a: &str, b: &str| compare(primitive, a, b);
        if !integer {
            let lo = seen
                .get(&Facet::MinInclusive)
                .map(|v| (v, false))
                .or(seen.get(&Facet::MinExclusive).map(|v| (v, true)));
            let hi = seen
                .get(&Facet::MaxInclusive)
                .map(|v| (v, false))
                .or(seen.get(&Facet::MaxExclusive).map(|v| (v, true)));
            let bound = |exclusive: bool, low: bool| match (exclusive, low) {
                (false, true) => "minInclusive",
                (true, true) => "minExclusive",
                (false, false) => "maxInclusive",
                (true, false) => "maxExclusive",
            };
            if let (Some((lo, lx)), Some((hi, hx))) = (lo, hi) {
                let bad = match cmp(lo, hi) {
                    Some(Ordering::Greater) => true,
                    Some(Ordering::Equal) => (lx || hx) && !(lx && hx),
                    _ => false,
                };
                if bad {
                    // The renderer's words for the same problem (render/simple.rs).
                    errors.push(format!(
                        "{} \"{}\" is above {} \"{}\": no value is in the range",
                        bound(lx, true),
                        lo.trim(),
                        bound(hx, false),
                        hi.trim()
                    ));
                }
            }
        }
        let based = self.base_facets(step, 0);
        if based.is_empty() {
            return;
        }
        self.check_fixed_and_timezone(seen, &based, primitive, integer, errors);
        let base: HashMap<Facet, String> = based.into_iter().map(|(k, (v, _))| (k, v)).collect();
        let num =
            |m: &HashMap<Facet, String>, k: Facet| m.get(&k).and_then(|v| non_negative_integer(v));
        // Bounds (Part 2, 4.3.7 to 4.3.10).
        let order = |a: &str, b: &str| -> Option<Ordering> {
            if integer {
                let p = |s: &str| s.trim().trim_start_matches('+').parse::<i128>().ok();
                Some(p(a)?.cmp(&p(b)?))
            } else {
                cmp(a, b)
            }
        };
        use Facet::{MaxExclusive, MaxInclusive, MinExclusive, MinInclusive};
        use Ordering::{Equal, Greater, Less};
        for def in FACETS
            .iter()
            .filter(|d| matches!(d.constrains, Constraint::Bound(_)))
        {
            let Some(v) = seen.get(&def.facet) else {
                continue;
            };
            // (base facet, orders of derived vs base that are errors)
            let rules: &[(Facet, &[Ordering])] = match def.facet {
                MaxInclusive => &[
                    (MaxInclusive, &[Greater]),
                    (MaxExclusive, &[Greater, Equal]),
                    (MinInclusive, &[Less]),
                    (MinExclusive, &[Less, Equal]),
                ],
                MaxExclusive => &[
                    (MaxExclusive, &[Greater]),
                    (MaxInclusive, &[Greater]),
                    (MinInclusive, &[Less, Equal]),
                    (MinExclusive, &[Less, Equal]),
                ],
                MinInclusive => &[
                    (MinInclusive, &[Less]),
                    (MinExclusive, &[Less, Equal]),
                    (MaxInclusive, &[Greater]),
                    (MaxExclusive, &[Greater, Equal]),
                ],
                _ => &[
                    (MinExclusive, &[Less]),
                    (MinInclusive, &[Less]),
                    (MaxInclusive, &[Greater]),
                    (MaxExclusive, &[Greater, Equal]),
                ],
            };
            let facet = def.name;
            for (b, bad) in rules {
                let Some(bv) = base.get(b) else { continue };
                if order(v, bv).is_some_and(|o| bad.contains(&o)) {
                    errors.push(format!(
                        "{facet} \"{}\" is outside the base type's {} \"{}\" ({facet}-valid-restriction)",
                        v.trim(),
                        b.name(),
                        bv.trim()
                    ));
                }
            }
        }
        // The counts (Part 2, 4.3.1.4 to 4.3.3.4, 4.3.11.4, 4.3.12.4): each within its base's.
        for def in &FACETS {
            let Some(extent) = def.constrains.extent() else {
                continue;
            };
            let (Some(v), Some(b)) = (num(seen, def.facet), num(&base, def.facet)) else {
                continue;
            };
            if !extent.narrows(v, b) {
                let facet = def.name;
                errors.push(format!(
                    "{facet}-valid-restriction: {facet} {v} does not restrict the base type's {facet} {b}"
                ));
            }
        }
        if let (Some(v), Some(b)) = (num(seen, Facet::MinLength), num(&base, Facet::MaxLength)) {
            if v > b {
                errors.push(format!(
                    "minLength {v} is greater than the base type's maxLength {b}"
                ));
            }
        }
        if let (Some(v), Some(b)) = (num(seen, Facet::MaxLength), num(&base, Facet::MinLength)) {
            if v < b {
                errors.push(format!(
                    "maxLength {v} is less than the base type's minLength {b}"
                ));
            }
        }
    }
}

impl Checker<'_> {
    /// A fixed facet of the base that the step sets to another value (Part 2, 4.3: "types
    /// for which the current type is the base cannot specify a value other than its
    /// value"), and explicitTimezone's own rule (XSD 1.1 Part 2, 4.3.14.4,
    /// timezone-valid-restriction: a required or prohibited timezone stays so).
    fn check_fixed_and_timezone(
        &self,
        seen: &HashMap<Facet, String>,
        base: &HashMap<Facet, (String, bool)>,
        primitive: &str,
        integer: bool,
        errors: &mut Vec<String>,
    ) {
        // In the table's order, so that the errors come in one order.
        for facet in FACETS.iter().map(|d| d.facet) {
            let (Some(value), Some((base_value, fixed))) = (seen.get(&facet), base.get(&facet))
            else {
                continue;
            };
            let (value, base_value) = (value.trim(), base_value.trim());
            let same = match facet.def().constrains {
                Constraint::Bound(_) if integer => {
                    let p = |s: &str| s.trim_start_matches('+').parse::<i128>().ok();
                    p(value).is_some_and(|v| p(base_value) == Some(v))
                }
                // Values whose order is not known here are compared as written.
                Constraint::Bound(_) => compare(primitive, value, base_value)
                    .map_or(value == base_value, |o| o == Ordering::Equal),
                _ if facet.def().constrains.extent().is_some() => non_negative_integer(value)
                    .is_some_and(|v| non_negative_integer(base_value) == Some(v)),
                _ => value == base_value,
            };
            let name = facet.name();
            if *fixed && !same {
                errors.push(format!(
                    "{name} \"{value}\" changes the base type's {name} \"{base_value}\", which is fixed"
                ));
            } else if facet == Facet::ExplicitTimezone {
                let rule = ExplicitTimezone::from_name;
                if let (Some(b), Some(d)) = (rule(base_value), rule(value)) {
                    if !b.narrows_to(d) {
                        errors.push(format!(
                            "timezone-valid-restriction: explicitTimezone \"{value}\" loosens the base type's \"{base_value}\""
                        ));
                    }
                }
            }
        }
    }
}
