//! Value spaces of simple types, and whether one is included in another.
//!
//! A simple type is flattened into a [`Space`]: strings (a whiteSpace mode, anchored regexes
//! that must all match the normalised value, length bounds), integers (an interval, maybe a
//! finite set), booleans, unions and lists. Inclusion of two string spaces is decided by
//! walking the DFAs of both sides in lockstep over bytes (product construction): a reachable
//! pair where OLD accepts and NEW rejects spells the witness, the shortest one (breadth
//! first); no such pair proves inclusion. Integers are intervals, compared exactly.
//! Everything else is compared by a sample of values, and said to be "cannot tell" if the
//! sample finds no witness: never a "no" without a proof.

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;

use regex_automata::dfa::{dense, Automaton};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::Anchored;

use crate::ir::*;
use boardxml::facets::FACETS;

/// The characters XML allows (XML 1.0, production 2), as an anchored regex.
const XML_CHARS: &str = r"\A[\t\n\r\x{20}-\x{D7FF}\x{E000}-\x{FFFD}\x{10000}-\x{10FFFF}]*\z";
/// A value as whiteSpace="collapse" leaves it.
const COLLAPSED: &str = r"\A(?:[^\t\n\r ]+(?: [^\t\n\r ]+)*)?\z";
/// A value as whiteSpace="replace" leaves it.
const REPLACED: &str = r"\A[^\t\n\r]*\z";
/// How many product states a search may visit before it gives up ("cannot tell").
const SEARCH_LIMIT: usize = 200_000;

/// A flattened simple type: what values (after whiteSpace normalisation) it accepts.
#[derive(Debug, Clone)]
pub enum Space {
    /// Strings.
    Strings(StrSpace),
    /// Integers.
    Ints(IntSpace),
    /// Booleans: the lexical forms allowed (of `true false 1 0`).
    Bool(BTreeSet<&'static str>, Vec<String>),
    /// Any member's values.
    Union(Vec<Space>),
    /// White-space separated items.
    List(Box<Space>, Items),
    /// Values of a value type of `boardxml::datatypes` (decimal, float, dates, durations,
    /// binary, names ...), with the facets of each derivation step.
    Values(ValSpace),
}

/// The length facets of a list type: bounds on the number of items (inclusive).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Items {
    /// minLength (or length).
    pub min: Option<u64>,
    /// maxLength (or length).
    pub max: Option<u64>,
}

/// A value-type space: every step's facets hold, checked in the type's value space by the
/// runtime's value types (their order, partial for dates and durations; equality).
#[derive(Debug, Clone)]
pub struct ValSpace {
    /// The value type.
    pub ty: ValueType,
    /// The facets of each derivation step, outermost last (an enumeration step is a
    /// [`Facets`] with only `enumeration`).
    pub steps: Vec<Facets>,
}

/// A string space.
#[derive(Debug, Clone)]
pub struct StrSpace {
    /// Normalisation before the checks.
    pub ws: WhiteSpace,
    /// Anchored regexes (regex crate syntax), all of which must match.
    pub regexes: Vec<String>,
    /// Bounds on the length in characters.
    pub min_len: Option<u64>,
    /// Bounds on the length in characters.
    pub max_len: Option<u64>,
    /// Whether any facet restricts it beyond its built-in type.
    pub restricted: bool,
}

/// An integer space.
#[derive(Debug, Clone)]
pub struct IntSpace {
    /// Inclusive bounds.
    pub lo: i128,
    /// Inclusive bounds.
    pub hi: i128,
    /// An enumeration, if any.
    pub set: Option<BTreeSet<i128>>,
    /// Patterns on the lexical form (one regex per derivation step).
    pub patterns: Vec<String>,
}

/// The outcome of an inclusion question "is every value of A a value of B?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inclusion {
    /// Yes, with the reason (the proof).
    Proven(String),
    /// No: a value of A that B rejects.
    Witness(String),
    /// Undecided, with the reason.
    CannotTell(String),
}

/// Flattens `t` of `schema` into its value space.
pub fn space(schema: &Schema, t: &TypeRef) -> Result<Space, String> {
    space_at(schema, t, 0)
}

fn space_at(schema: &Schema, t: &TypeRef, depth: usize) -> Result<Space, String> {
    if depth > 64 {
        return Err("simple types derive from each other in a cycle".into());
    }
    match t {
        TypeRef::Builtin(b) => builtin(*b),
        TypeRef::Named(n) => {
            let def = schema
                .types
                .get(n)
                .ok_or_else(|| format!("type {n} is not defined"))?;
            match &def.kind {
                TypeKind::Restriction(r) => {
                    // An XPath test has no value space to walk or sample soundly here: a
                    // verdict on the other facets alone could be wrong either way.
                    if let Some(a) = r.facets.assertions.first() {
                        return Err(format!(
                            "the values of {n} are constrained by the xs:assertion \"{}\", and XPath assertions are not compared",
                            a.test
                        ));
                    }
                    let base = space_at(schema, &r.base, depth + 1)?;
                    restrict(base, &r.facets)
                }
                TypeKind::Enumeration(e) => {
                    let base = space_at(schema, &e.base, depth + 1)?;
                    enumerate(base, &e.values)
                }
                TypeKind::Union(members) => Ok(Space::Union(
                    members
                        .iter()
                        .map(|m| space_at(schema, m, depth + 1))
                        .collect::<Result<_, _>>()?,
                )),
                TypeKind::List(l) => {
                    let f = &l.facets;
                    if !f.patterns.is_empty() || !f.enumeration.is_empty() {
                        return Err(
                            "a pattern or an enumeration on a list type is not compared".into()
                        );
                    }
                    let items = Items {
                        min: f.length.or(f.min_length),
                        max: f.length.or(f.max_length),
                    };
                    Ok(Space::List(
                        Box::new(space_at(schema, &l.item, depth + 1)?),
                        items,
                    ))
                }
                TypeKind::Complex(_) | TypeKind::Alternatives(_) => {
                    Err(format!("{n} is not a simple type"))
                }
                // Without xsi:type the element's values are its declared type's (what
                // the diff compares and its witnesses give; `diff/type_substitution.rs`).
                TypeKind::Substitution(s) => space_at(schema, &s.declared, depth + 1),
            }
        }
    }
}

fn ws_regex(ws: WhiteSpace) -> Option<&'static str> {
    match ws {
        WhiteSpace::Preserve => None,
        WhiteSpace::Replace => Some(REPLACED),
        WhiteSpace::Collapse => Some(COLLAPSED),
    }
}

fn builtin(b: Builtin) -> Result<Space, String> {
    match b.repr() {
        Repr::String if b == Builtin::AnyType => Err("xs:anyType is not a simple type".into()),
        Repr::String => {
            let ws = b.white_space();
            let mut regexes = vec![XML_CHARS.to_string()];
            regexes.extend(ws_regex(ws).map(str::to_string));
            Ok(Space::Strings(StrSpace {
                ws,
                regexes,
                min_len: None,
                max_len: None,
                restricted: false,
            }))
        }
        Repr::Bool => Ok(Space::Bool(
            ["true", "false", "1", "0"].into_iter().collect(),
            Vec::new(),
        )),
        Repr::Value(ty) => Ok(Space::Values(ValSpace {
            ty,
            steps: Vec::new(),
        })),
        Repr::Int(i) => {
            let (mut lo, mut hi) = i.range();
            let (ilo, ihi) = b.implied_bounds();
            lo = lo.max(ilo.unwrap_or(lo));
            hi = hi.min(ihi.unwrap_or(hi));
            Ok(Space::Ints(IntSpace {
                lo,
                hi,
                set: None,
                patterns: Vec::new(),
            }))
        }
    }
}

fn step_pattern(patterns: &[Pattern]) -> Option<String> {
    (!patterns.is_empty()).then(|| {
        patterns
            .iter()
            .map(|p| format!("(?:{})", p.rust))
            .collect::<Vec<_>>()
            .join("|")
    })
}

fn restrict(base: Space, f: &Facets) -> Result<Space, String> {
    if let Space::Values(mut v) = base {
        v.steps.push(f.clone());
        return Ok(Space::Values(v));
    }
    let restricted = restrict_step(base, f)?;
    if f.enumeration.is_empty() {
        return Ok(restricted);
    }
    // Enumerations of a step with other facets too: both hold.
    let values: Vec<EnumValue> = f
        .enumeration
        .iter()
        .enumerate()
        .map(|(i, v)| EnumValue {
            value: v.clone(),
            doc: None,
            namespaces: f.enumeration_scopes.get(i).cloned().unwrap_or_default(),
        })
        .collect();
    enumerate(restricted, &values)
}

fn restrict_step(base: Space, f: &Facets) -> Result<Space, String> {
    match base {
        Space::Strings(mut s) => {
            if let Some(ws) = f.white_space {
                s.ws = ws;
                s.regexes.extend(ws_regex(ws).map(str::to_string));
            }
            if let Some(p) = step_pattern(&f.patterns) {
                s.regexes.push(p);
                s.restricted = true;
            }
            let (lo, hi) = (f.length.or(f.min_length), f.length.or(f.max_length));
            if let Some(lo) = lo {
                s.min_len = Some(s.min_len.map_or(lo, |m| m.max(lo)));
                s.restricted = true;
            }
            if let Some(hi) = hi {
                s.max_len = Some(s.max_len.map_or(hi, |m| m.min(hi)));
                s.restricted = true;
            }
            // The facets a string does not take (Part 2, 4.1.5), and the folded bounds.
            let refused = FACETS
                .iter()
                .any(|d| f.has(d.facet) && !d.facet.applies_to("string"));
            if refused || f.min.is_some() || f.max.is_some() {
                return Err("bounds on a string type".into());
            }
            Ok(Space::Strings(s))
        }
        Space::Ints(mut s) => {
            if let Some(m) = f.min {
                s.lo = s.lo.max(m);
            }
            if let Some(m) = f.max {
                s.hi = s.hi.min(m);
            }
            if let Some(d) = f.total_digits {
                let bound = 10i128.checked_pow(d).map_or(i128::MAX, |v| v - 1);
                s.lo = s.lo.max(-bound);
                s.hi = s.hi.min(bound);
            }
            if let Some(p) = step_pattern(&f.patterns) {
                s.patterns.push(p);
            }
            if f.has_kind(FacetKind::Length) {
                return Err("length facets on an integer type".into());
            }
            Ok(Space::Ints(s))
        }
        Space::Bool(set, mut pats) => {
            if let Some(p) = step_pattern(&f.patterns) {
                pats.push(p);
            }
            Ok(Space::Bool(set, pats))
        }
        Space::List(item, mut n) => {
            if !f.patterns.is_empty() || !f.enumeration.is_empty() {
                return Err("a pattern or an enumeration on a list type is not compared".into());
            }
            if let Some(lo) = f.length.or(f.min_length) {
                n.min = Some(n.min.map_or(lo, |m| m.max(lo)));
            }
            if let Some(hi) = f.length.or(f.max_length) {
                n.max = Some(n.max.map_or(hi, |m| m.min(hi)));
            }
            Ok(Space::List(item, n))
        }
        other => {
            if f.patterns.is_empty() && f.min.is_none() && f.max.is_none() && f.bounds.is_empty() {
                Ok(other)
            } else {
                Err("facets on a union or list type".into())
            }
        }
    }
}

fn enumerate(base: Space, values: &[EnumValue]) -> Result<Space, String> {
    match base {
        Space::Strings(mut s) => {
            let alts: Vec<String> = values
                .iter()
                .map(|v| regex::escape(&normalize(s.ws, &v.value)))
                .collect();
            s.regexes.push(format!(r"\A(?:{})\z", alts.join("|")));
            s.restricted = true;
            Ok(Space::Strings(s))
        }
        Space::Ints(mut s) => {
            let set: BTreeSet<i128> = values.iter().filter_map(|v| parse_int(&v.value)).collect();
            s.set = Some(match s.set {
                Some(old) => old.intersection(&set).copied().collect(),
                None => set,
            });
            Ok(Space::Ints(s))
        }
        Space::Bool(set, pats) => {
            let allowed: BTreeSet<&'static str> = set
                .into_iter()
                .filter(|l| {
                    values
                        .iter()
                        .any(|v| bool_value(v.value.trim()) == bool_value(l))
                })
                .collect();
            Ok(Space::Bool(allowed, pats))
        }
        Space::Values(mut v) => {
            v.steps.push(Facets {
                enumeration: values.iter().map(|e| e.value.clone()).collect(),
                ..Facets::default()
            });
            Ok(Space::Values(v))
        }
        other => {
            let _ = other;
            Err("an enumeration of a union or list type".into())
        }
    }
}

/// Whether `a` and `b` are the same value of `space` (how a fixed value is compared):
/// by value for integers, booleans and the value types (`1.0` is `1`), after the
/// whiteSpace normalisation for strings.
pub fn same_value(space: &Space, a: &str, b: &str) -> bool {
    let collapsed = |s: &str| normalize(WhiteSpace::Collapse, s);
    match space {
        Space::Values(v) => crate::values::equal(v.ty, a, b),
        Space::Ints(_) => parse_int(a).is_some_and(|x| parse_int(b) == Some(x)),
        Space::Bool(..) => {
            bool_value(&collapsed(a)).is_some_and(|x| bool_value(&collapsed(b)) == Some(x))
        }
        Space::Strings(s) => normalize(s.ws, a) == normalize(s.ws, b),
        Space::Union(_) | Space::List(..) => collapsed(a) == collapsed(b),
    }
}

/// XSD whiteSpace normalisation.
pub fn normalize(ws: WhiteSpace, s: &str) -> String {
    match ws {
        WhiteSpace::Preserve => s.to_string(),
        WhiteSpace::Replace => s.replace(['\t', '\n', '\r'], " "),
        WhiteSpace::Collapse => s
            .split([' ', '\t', '\n', '\r'])
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn parse_int(s: &str) -> Option<i128> {
    let t = s.trim_matches([' ', '\t', '\n', '\r']);
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse::<i128>().ok()
}

fn bool_value(s: &str) -> Option<bool> {
    match s {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// Compiled regexes, shared by one comparison.
#[derive(Default)]
pub struct Engines {
    regex: HashMap<String, Rc<regex::Regex>>,
    dfa: HashMap<String, Option<Rc<dense::DFA<Vec<u32>>>>>,
}

impl Engines {
    fn regex(&mut self, r: &str) -> Rc<regex::Regex> {
        self.regex
            .entry(r.to_string())
            .or_insert_with(|| {
                // The patterns were compiled when the schema was read; the fixed ones are ours.
                Rc::new(crate::compile_pattern(r).unwrap_or_else(|_| {
                    regex::Regex::new(r"\A\z[^\s\S]").expect("an empty-language regex")
                }))
            })
            .clone()
    }

    fn dfa(&mut self, r: &str) -> Option<Rc<dense::DFA<Vec<u32>>>> {
        self.dfa
            .entry(r.to_string())
            .or_insert_with(|| {
                dense::Builder::new()
                    .configure(
                        dense::Config::new()
                            .determinize_size_limit(Some(64 << 20))
                            .dfa_size_limit(Some(64 << 20)),
                    )
                    .build(r)
                    .ok()
                    .map(Rc::new)
            })
            .clone()
    }

    /// Whether `space` accepts the lexical form `lexical`.
    pub fn accepts(&mut self, space: &Space, lexical: &str) -> bool {
        match space {
            Space::Strings(s) => {
                let v = normalize(s.ws, lexical);
                let n = v.chars().count() as u64;
                s.min_len.is_none_or(|m| n >= m)
                    && s.max_len.is_none_or(|m| n <= m)
                    && s.regexes.iter().all(|r| self.regex(r).is_match(&v))
            }
            Space::Ints(s) => {
                let v = normalize(WhiteSpace::Collapse, lexical);
                if !s.patterns.iter().all(|r| self.regex(r).is_match(&v)) {
                    return false;
                }
                match parse_int(&v) {
                    Some(i) => {
                        i >= s.lo && i <= s.hi && s.set.as_ref().is_none_or(|set| set.contains(&i))
                    }
                    None => false,
                }
            }
            Space::Bool(set, pats) => {
                let v = normalize(WhiteSpace::Collapse, lexical);
                set.contains(v.as_str()) && pats.iter().all(|r| self.regex(r).is_match(&v))
            }
            Space::Union(members) => members.iter().any(|m| self.accepts(m, lexical)),
            Space::Values(v) => self.accepts_value(v, lexical, true),
            Space::List(item, n) => {
                let v = normalize(WhiteSpace::Collapse, lexical);
                let items: Vec<&str> = v.split(' ').filter(|i| !i.is_empty()).collect();
                let count = items.len() as u64;
                n.min.is_none_or(|m| count >= m)
                    && n.max.is_none_or(|m| count <= m)
                    && items.iter().all(|i| self.accepts(item, i))
            }
        }
    }

    /// Up to `n` values of `space`, shortest and plainest first (all accepted by it).
    pub fn samples(&mut self, space: &Space, n: usize) -> Vec<String> {
        let mut out: Vec<String> = match space {
            Space::Strings(s) => match self.search(s, &[], n) {
                Search::Found(v) => v,
                _ => Vec::new(),
            },
            Space::Ints(s) => {
                let mut c: BTreeSet<i128> = BTreeSet::new();
                if let Some(set) = &s.set {
                    c.extend(set.iter().take(n));
                }
                let zero = 0i128.clamp(s.lo, s.hi.max(s.lo));
                for v in [zero, zero + 1, s.lo, s.hi, s.lo + 1, s.hi - 1] {
                    c.insert(v);
                }
                let mut v: Vec<i128> = c.into_iter().collect();
                v.sort_by_key(|x| (x.unsigned_abs(), *x < 0));
                v.into_iter().map(|x| x.to_string()).collect()
            }
            Space::Bool(..) => ["false", "true", "0", "1"].map(String::from).to_vec(),
            Space::Values(v) => candidates(&[v]),
            Space::Union(members) => members
                .iter()
                .flat_map(|m| self.samples(m, n))
                .collect::<Vec<_>>(),
            Space::List(item, lens) => {
                let mut v = vec![String::new()];
                let items = self.samples(item, n);
                v.extend(items.iter().cloned());
                if items.len() >= 2 {
                    v.push(format!("{} {}", items[0], items[1]));
                }
                // The shortest lists around the length bounds.
                if let Some(first) = items.first() {
                    for k in [lens.min, lens.max.map(|m| m + 1)]
                        .into_iter()
                        .flatten()
                        .filter(|&k| k <= 64)
                    {
                        v.push(vec![first.as_str(); k as usize].join(" "));
                    }
                }
                v
            }
        };
        let mut seen = HashSet::new();
        out.retain(|v| seen.insert(v.clone()));
        out.retain(|v| self.accepts(space, v));
        out.truncate(n);
        out
    }

    /// The plainest value of `space`, if it has one.
    pub fn smallest(&mut self, space: &Space) -> Option<String> {
        self.samples(space, 1).into_iter().next()
    }

    /// Is every value of `a` a value of `b`?
    pub fn included(&mut self, a: &Space, b: &Space) -> Inclusion {
        match (a, b) {
            (Space::Union(members), _) => {
                let mut unknown = None;
                for m in members {
                    match self.included(m, b) {
                        Inclusion::Witness(w) => return Inclusion::Witness(w),
                        Inclusion::CannotTell(r) => unknown = Some(r),
                        Inclusion::Proven(_) => {}
                    }
                }
                match unknown {
                    Some(r) => Inclusion::CannotTell(r),
                    None => Inclusion::Proven("every member of the union is included".into()),
                }
            }
            (Space::Strings(x), Space::Strings(y)) if x.ws == y.ws => self.strings(x, &[y]),
            (Space::Strings(x), Space::Union(ys))
                if ys
                    .iter()
                    .all(|y| matches!(y, Space::Strings(y) if y.ws == x.ws)) =>
            {
                let ys: Vec<&StrSpace> = ys
                    .iter()
                    .filter_map(|y| match y {
                        Space::Strings(y) => Some(y),
                        _ => None,
                    })
                    .collect();
                self.strings(x, &ys)
            }
            (Space::Ints(x), Space::Ints(y)) if x.patterns == y.patterns => self.ints(x, y),
            (Space::Values(x), Space::Values(y)) => self.values(a, x, b, y),
            // An integer is a decimal of no fraction digits: widening to xs:decimal is
            // compared in the decimal value space (its lexical forms are decimal ones).
            (Space::Ints(x), Space::Values(y)) if numeric(y.ty) => {
                self.values(a, &int_as_value(x, y.ty), b, y)
            }
            (Space::Values(x), Space::Ints(y)) if numeric(x.ty) => {
                let yd = int_as_value(y, x.ty);
                match self.witness(a, b, &[x, &yd]) {
                    Some(w) => Inclusion::Witness(w),
                    None => Inclusion::CannotTell(
                        format!("OLD's {} values and NEW's integers: no value of OLD tried is rejected by NEW, and the integer lexical space (no decimal point, no exponent) is not compared with OLD's", value_name(x.ty)),
                    ),
                }
            }
            (Space::Bool(x, px), Space::Bool(..)) => {
                for l in x {
                    if px.iter().all(|r| self.regex(r).is_match(l)) && !self.accepts(b, l) {
                        return Inclusion::Witness(l.to_string());
                    }
                }
                Inclusion::Proven("every boolean literal of OLD is accepted by NEW".into())
            }
            (Space::List(x, nx), Space::List(y, ny)) => {
                let items = self.included(x, y);
                if matches!(items, Inclusion::Proven(_))
                    && ny.min.is_none_or(|m| nx.min.is_some_and(|o| o >= m))
                    && ny.max.is_none_or(|m| nx.max.is_some_and(|o| o <= m))
                {
                    return Inclusion::Proven(
                        "the item types are included and OLD's item counts are within NEW's"
                            .into(),
                    );
                }
                let smallest = self.smallest(x);
                // A list of OLD's smallest item, one beyond each of NEW's count bounds.
                if let Some(item) = &smallest {
                    for k in [ny.min.and_then(|m| m.checked_sub(1)), ny.max.map(|m| m + 1)]
                        .into_iter()
                        .flatten()
                        .filter(|&k| k <= 64)
                    {
                        let w = vec![item.as_str(); k as usize].join(" ");
                        if self.accepts(a, &w) && !self.accepts(b, &w) {
                            return Inclusion::Witness(w);
                        }
                    }
                }
                match items {
                    Inclusion::Witness(w) => {
                        // The failing item, with OLD's smallest items up to its minimum count.
                        let pad = nx.min.unwrap_or(1).clamp(1, 64) as usize - 1;
                        let mut list = vec![w];
                        list.extend(smallest.iter().cloned().cycle().take(pad));
                        let w = list.join(" ");
                        if self.accepts(a, &w) && !self.accepts(b, &w) {
                            Inclusion::Witness(w)
                        } else {
                            self.by_samples(a, b, "a list whose failing item could not be placed")
                        }
                    }
                    other => self.by_samples(a, b, &format!("list items: {other:?}")),
                }
            }
            (_, Space::Union(ys)) => {
                for y in ys {
                    if let Inclusion::Proven(p) = self.included(a, y) {
                        return Inclusion::Proven(format!("included in a member of the union: {p}"));
                    }
                }
                self.by_samples(a, b, "a value space compared with a union of different kinds of values")
            }
            (_, Space::Strings(y)) if !y.restricted && y.ws != WhiteSpace::Preserve => {
                // NEW accepts every string once normalised: any lexical form is one.
                match self.by_samples(a, b, "") {
                    Inclusion::Witness(w) => Inclusion::Witness(w),
                    _ => Inclusion::Proven(format!(
                        "NEW accepts every string (whiteSpace {:?}) and OLD's values are strings of XML characters",
                        y.ws
                    )),
                }
            }
            (_, Space::Strings(y)) if !y.restricted => match self.by_samples(a, b, "") {
                Inclusion::Witness(w) => Inclusion::Witness(w),
                _ => Inclusion::Proven(
                    "NEW accepts every string of XML characters".to_string(),
                ),
            },
            (Space::Strings(x), Space::Strings(y)) => self.by_samples(
                a,
                b,
                &format!(
                    "whiteSpace differs ({:?} -> {:?}): the automata compare normalised values only",
                    x.ws, y.ws
                ),
            ),
            (Space::Ints(_), Space::Ints(_)) => {
                self.by_samples(a, b, "the patterns on an integer type differ: the tool compares integer patterns only when they are the same")
            }
            _ => self.by_samples(
                a,
                b,
                &format!("comparing {} values with {} values is not implemented", kind(a), kind(b)),
            ),
        }
    }

    fn by_samples(&mut self, a: &Space, b: &Space, why: &str) -> Inclusion {
        let mut candidates = self.samples(a, 40);
        let padded: Vec<String> = candidates
            .iter()
            .take(5)
            .flat_map(|c| [format!(" {c}"), format!("{c} "), format!("\t{c}")])
            .collect();
        candidates.extend(padded);
        candidates.extend(["0", "1", "true", "a", " ", "-1", "+1", "01"].map(String::from));
        for c in candidates {
            if self.accepts(a, &c) && !self.accepts(b, &c) {
                return Inclusion::Witness(c);
            }
        }
        Inclusion::CannotTell(format!(
            "{why}; no value of OLD among those tried is rejected by NEW"
        ))
    }

    fn ints(&mut self, x: &IntSpace, y: &IntSpace) -> Inclusion {
        let check = |cx: &mut Self, v: i128| -> Option<Inclusion> {
            let lexical = v.to_string();
            let sa = Space::Ints(x.clone());
            let sb = Space::Ints(y.clone());
            (cx.accepts(&sa, &lexical) && !cx.accepts(&sb, &lexical))
                .then_some(Inclusion::Witness(lexical))
        };
        if x.lo > x.hi {
            return Inclusion::Proven("OLD has no value".into());
        }
        if let Some(set) = &x.set {
            for &v in set {
                if v >= x.lo && v <= x.hi {
                    if let Some(w) = check(self, v) {
                        return w;
                    }
                }
            }
            return Inclusion::Proven(format!(
                "each of OLD's {} enumerated values is a value of NEW",
                set.len()
            ));
        }
        if x.lo < y.lo {
            return check(self, y.lo - 1).unwrap_or_else(|| {
                Inclusion::CannotTell(
                    "the value below NEW's minimum does not match OLD's patterns".into(),
                )
            });
        }
        if x.hi > y.hi {
            return check(self, y.hi + 1).unwrap_or_else(|| {
                Inclusion::CannotTell(
                    "the value above NEW's maximum does not match OLD's patterns".into(),
                )
            });
        }
        match &y.set {
            None => Inclusion::Proven(format!(
                "[{}, {}] is within [{}, {}]",
                show(x.lo),
                show(x.hi),
                show(y.lo),
                show(y.hi)
            )),
            Some(set) => {
                let mut v = x.lo;
                let mut tried = 0;
                while v <= x.hi && tried < 100_000 {
                    if !set.contains(&v) {
                        if let Some(w) = check(self, v) {
                            return w;
                        }
                    }
                    v += 1;
                    tried += 1;
                }
                if v > x.hi {
                    Inclusion::Proven("every value of OLD's range is enumerated by NEW".into())
                } else {
                    Inclusion::CannotTell(
                        "OLD's range is too wide to enumerate against NEW's enumeration".into(),
                    )
                }
            }
        }
    }

    fn strings(&mut self, x: &StrSpace, ys: &[&StrSpace]) -> Inclusion {
        match self.search(x, ys, 1) {
            Search::Found(v) => match v.into_iter().next() {
                Some(w) => Inclusion::Witness(w),
                None => Inclusion::Proven(
                    "no string accepted by OLD's patterns and lengths is rejected by NEW's (DFA product, exhausted)".into(),
                ),
            },
            Search::TooLarge => Inclusion::CannotTell(format!(
                "the product of the patterns' automata exceeds {SEARCH_LIMIT} states"
            )),
            Search::NoDfa(r) => {
                Inclusion::CannotTell(format!("the pattern {r:?} is too large for a DFA"))
            }
        }
    }

    /// Breadth-first over the product of `x`'s automata and those of each of `ys`: up to `n`
    /// strings that `x` accepts and every `y` rejects, shortest first.
    fn search(&mut self, x: &StrSpace, ys: &[&StrSpace], n: usize) -> Search {
        let sides: Vec<&StrSpace> = std::iter::once(x).chain(ys.iter().copied()).collect();
        let mut dfas: Vec<Vec<Rc<dense::DFA<Vec<u32>>>>> = Vec::new();
        for s in &sides {
            let mut v = Vec::new();
            for r in &s.regexes {
                match self.dfa(r) {
                    Some(d) => v.push(d),
                    None => return Search::NoDfa(r.clone()),
                }
            }
            dfas.push(v);
        }
        // Lengths count characters; a counter saturates one past the largest bound.
        let cap = sides
            .iter()
            .flat_map(|s| [s.min_len, s.max_len])
            .flatten()
            .max()
            .map_or(0, |m| m + 1);
        let start_cfg = start::Config::new().anchored(Anchored::Yes);
        let mut start_state: Vec<Option<StateID>> = Vec::new();
        for side in &dfas {
            for d in side {
                match d.start_state(&start_cfg) {
                    Ok(s) => start_state.push(Some(s)),
                    Err(_) => return Search::NoDfa("(no anchored start)".into()),
                }
            }
        }
        // A state: each DFA's state (None once dead), the character count, and whether the
        // next byte begins a character (for counting).
        type State = (Vec<Option<StateID>>, u64);
        let flat: Vec<(usize, Rc<dense::DFA<Vec<u32>>>)> = dfas
            .iter()
            .enumerate()
            .flat_map(|(i, side)| side.iter().map(move |d| (i, d.clone())))
            .collect();
        let accepts_side = |st: &State, side: usize| -> bool {
            let s = sides[side];
            let len_ok = s.min_len.is_none_or(|m| st.1 >= m) && s.max_len.is_none_or(|m| st.1 <= m);
            len_ok
                && flat
                    .iter()
                    .zip(&st.0)
                    .filter(|((i, _), _)| *i == side)
                    .all(|((_, d), sid)| match sid {
                        Some(sid) => d.is_match_state(d.next_eoi_state(*sid)),
                        None => false,
                    })
        };
        let order: Vec<u8> =
            (b'a'..=b'z')
                .chain(b'0'..=b'9')
                .chain(b'A'..=b'Z')
                .chain([b' ', b'-', b'.', b'_'])
                .chain((0u8..=255).filter(|b| {
                    !(b.is_ascii_alphanumeric() || [b' ', b'-', b'.', b'_'].contains(b))
                }))
                .collect();
        let start: State = (start_state, 0);
        let mut parent: HashMap<State, (State, u8)> = HashMap::new();
        let mut seen: HashSet<State> = HashSet::new();
        let mut queue = VecDeque::new();
        seen.insert(start.clone());
        queue.push_back(start.clone());
        let mut found = Vec::new();
        while let Some(st) = queue.pop_front() {
            if accepts_side(&st, 0) && (1..sides.len()).all(|i| !accepts_side(&st, i)) {
                let mut bytes = Vec::new();
                let mut cur = st.clone();
                while let Some((p, b)) = parent.get(&cur) {
                    bytes.push(*b);
                    cur = p.clone();
                }
                bytes.reverse();
                if let Ok(s) = String::from_utf8(bytes) {
                    found.push(s);
                    if found.len() >= n {
                        return Search::Found(found);
                    }
                }
            }
            // Past OLD's maximum length nothing more is accepted.
            if sides[0].max_len.is_some_and(|m| st.1 > m) {
                continue;
            }
            for &b in &order {
                let mut next = Vec::with_capacity(st.0.len());
                let mut old_alive = true;
                for ((side, d), sid) in flat.iter().zip(&st.0) {
                    let n = sid
                        .map(|s| d.next_state(s, b))
                        .filter(|s| !d.is_dead_state(*s));
                    if *side == 0 && n.is_none() {
                        old_alive = false;
                        break;
                    }
                    next.push(n);
                }
                if !old_alive {
                    continue;
                }
                let count = if b & 0xC0 != 0x80 {
                    (st.1 + 1).min(cap)
                } else {
                    st.1
                };
                let ns: State = (next, count);
                if seen.insert(ns.clone()) {
                    if seen.len() > SEARCH_LIMIT {
                        return if found.is_empty() {
                            Search::TooLarge
                        } else {
                            Search::Found(found)
                        };
                    }
                    parent.insert(ns.clone(), (st.clone(), b));
                    queue.push_back(ns);
                }
            }
        }
        Search::Found(found)
    }
}

/// The value-type spaces: facets checked by the runtime's value types, inclusion by the
/// facets' implication in the value order, witnesses from values near the bounds.
impl Engines {
    /// Whether `v` accepts `lexical` (its patterns too when `patterns`).
    fn accepts_value(&mut self, v: &ValSpace, lexical: &str, patterns: bool) -> bool {
        let norm = if v.ty == ValueType::AnySimpleType {
            lexical.to_string()
        } else {
            normalize(WhiteSpace::Collapse, lexical)
        };
        if crate::values::canonical(v.ty, &norm).is_none() {
            return false;
        }
        v.steps
            .iter()
            .all(|f| self.step_admits(v.ty, f, &norm, patterns))
    }

    fn step_admits(&mut self, ty: ValueType, f: &Facets, norm: &str, patterns: bool) -> bool {
        if patterns {
            if let Some(p) = step_pattern(&f.patterns) {
                if !self.regex(&p).is_match(norm) {
                    return false;
                }
            }
        }
        value_facets_admit(ty, f, norm)
    }

    /// The first candidate (simplest first) that `a` accepts and `b` rejects.
    fn witness(&mut self, a: &Space, b: &Space, spaces: &[&ValSpace]) -> Option<String> {
        candidates(spaces)
            .into_iter()
            .find(|c| self.accepts(a, c) && !self.accepts(b, c))
    }

    /// Is every value of `x` (the space `a`) one of `y` (the space `b`)?
    fn values(&mut self, a: &Space, x: &ValSpace, b: &Space, y: &ValSpace) -> Inclusion {
        // A witness whose verdicts rest on an indeterminate comparison (P1M against
        // P30D) is one Part 2 rejects but processors disagree on: a witness only when no
        // determinate one exists, and then "cannot tell", saying why.
        let separates: Vec<String> = candidates(&[x, y])
            .into_iter()
            .filter(|c| self.accepts(a, c) && !self.accepts(b, c))
            .collect();
        if let Some(w) = separates
            .iter()
            .find(|c| !indeterminate(x, c) && !indeterminate(y, c))
        {
            return Inclusion::Witness(w.clone());
        }
        if let Some(w) = separates.first() {
            return Inclusion::CannotTell(format!(
                "{w} is a value of OLD that NEW rejects only through an indeterminate comparison in the partial order of {} (Part 2 makes such a value fail the facet; processors differ), and no value tried is rejected determinately",
                value_name(y.ty)
            ));
        }
        if x.ty != y.ty {
            return Inclusion::CannotTell(format!(
                "{} and {} are different value spaces: no value of OLD tried is rejected by NEW",
                value_name(x.ty),
                value_name(y.ty)
            ));
        }
        let name = value_name(x.ty);
        // NEW's patterns hold for OLD's values only where OLD has the same pattern step.
        let unmatched: Vec<String> = y
            .steps
            .iter()
            .filter_map(|f| step_pattern(&f.patterns))
            .filter(|p| {
                !x.steps
                    .iter()
                    .any(|g| step_pattern(&g.patterns).as_ref() == Some(p))
            })
            .collect();
        if !unmatched.is_empty() {
            return Inclusion::CannotTell(format!(
                "NEW has a pattern on {name} that OLD has not: a pattern constrains the lexical form and the facets the value, and the two are not compared together"
            ));
        }
        // A finite OLD: each enumerated value that OLD's facets admit is admitted by NEW's
        // (by value: 1.0 and 1 are one decimal).
        if let Some(f) = x.steps.iter().find(|f| !f.enumeration.is_empty()) {
            let mut bad = None;
            for e in &f.enumeration {
                let admitted_by_old = x.steps.iter().all(|g| value_facets_admit(x.ty, g, e));
                if admitted_by_old && !y.steps.iter().all(|g| value_facets_admit(y.ty, g, e)) {
                    bad = Some(e.clone());
                }
            }
            return match bad {
                None => Inclusion::Proven(format!(
                    "each of OLD's {} enumerated values is a value of NEW ({name}, compared by value)",
                    f.enumeration.len()
                )),
                // Only when OLD's patterns reject every form of it that was tried.
                Some(e) => Inclusion::CannotTell(format!(
                    "NEW rejects OLD's enumerated value {e:?}, but no lexical form of it tried matches OLD's patterns"
                )),
            };
        }
        let mut indeterminate = None;
        let mut missing = Vec::new();
        for g in &y.steps {
            for (k, bound) in &g.bounds {
                match implied_bound(x, *k, bound) {
                    Implied::Yes => {}
                    Implied::Indeterminate(by) => {
                        indeterminate = Some(format!(
                            "OLD's {by} and NEW's {} {bound} are incomparable in the partial order of {name}",
                            k.xsd_name()
                        ));
                        missing.push(format!("{} {bound}", k.xsd_name()));
                    }
                    Implied::No => missing.push(format!("{} {bound}", k.xsd_name())),
                }
            }
            let tighter = |get: &dyn Fn(&Facets) -> Option<u64>, new: Option<u64>, le: bool| {
                new.is_none_or(|n| {
                    x.steps
                        .iter()
                        .filter_map(get)
                        .any(|o| if le { o <= n } else { o >= n })
                })
            };
            for d in FACETS.iter().filter(|d| d.kind == FacetKind::Digits) {
                let get = |f: &Facets| f.count(d.facet);
                if !tighter(&get, get(g), true) {
                    missing.push(format!("{} {}", d.name, get(g).unwrap_or(0)));
                }
            }
            let max_len = |f: &Facets| f.length.or(f.max_length);
            let min_len = |f: &Facets| f.length.or(f.min_length);
            if !tighter(&max_len, max_len(g), true) || !tighter(&min_len, min_len(g), false) {
                missing.push("a length facet".into());
            }
            if !g.enumeration.is_empty() {
                missing.push("an enumeration".into());
            }
            // A required or prohibited timezone holds where OLD has the same rule.
            if let Some(t) = g
                .explicit_timezone
                .filter(|&t| t != boardxml::facets::ExplicitTimezone::Optional)
            {
                if !x.steps.iter().any(|f| f.explicit_timezone == Some(t)) {
                    missing.push(format!("explicitTimezone {}", t.name()));
                }
            }
        }
        if missing.is_empty() {
            return Inclusion::Proven(format!(
                "each of NEW's facets on {name} is implied by one of OLD's, in the value order"
            ));
        }
        Inclusion::CannotTell(indeterminate.unwrap_or_else(|| {
            format!(
                "NEW's {} on {name} is not implied by one of OLD's facets and no value of OLD tried is rejected by NEW",
                missing.join(", ")
            )
        }))
    }
}

/// Whether some bound of `v` compares indeterminately with the value `c`.
fn indeterminate(v: &ValSpace, c: &str) -> bool {
    let norm = normalize(WhiteSpace::Collapse, c);
    crate::values::canonical(v.ty, &norm).is_some()
        && v.steps
            .iter()
            .flat_map(|f| &f.bounds)
            .any(|(_, b)| crate::values::compare_values(v.ty, &norm, b).is_none())
}

/// Whether the value facets (bounds, digits, lengths, enumeration) of one step admit the
/// (normalised) `norm` of `ty`.
fn value_facets_admit(ty: ValueType, f: &Facets, norm: &str) -> bool {
    use crate::values::{compare_values, digits, equal, length};
    if crate::values::canonical(ty, norm).is_none() {
        return false;
    }
    for (k, b) in &f.bounds {
        if !k.admits(compare_values(ty, norm, b)) {
            return false;
        }
    }
    if f.total_digits.is_some() || f.fraction_digits.is_some() {
        if let Some((t, fr)) = digits(ty, norm) {
            if f.total_digits.is_some_and(|m| t > u64::from(m))
                || f.fraction_digits.is_some_and(|m| fr > u64::from(m))
            {
                return false;
            }
        }
    }
    if let Some(n) = length(ty, norm) {
        if f.length.is_some_and(|l| n != l)
            || f.min_length.is_some_and(|l| n < l)
            || f.max_length.is_some_and(|l| n > l)
        {
            return false;
        }
    }
    if let Some(rule) = f.explicit_timezone {
        if crate::values::zoned(ty, norm).is_some_and(|z| !rule.admits(z)) {
            return false;
        }
    }
    f.enumeration.is_empty() || f.enumeration.iter().any(|e| equal(ty, norm, e))
}

enum Implied {
    Yes,
    No,
    /// Not implied, and some bound of OLD on that side is incomparable with it.
    Indeterminate(String),
}

/// Whether some bound of `x` implies NEW's bound `k bound` (every value within OLD's is
/// within NEW's).
fn implied_bound(x: &ValSpace, k: BoundKind, bound: &str) -> Implied {
    use boardxml::facets::Bound::*;
    let lower = k.is_lower();
    let mut indeterminate = None;
    for (j, a) in x.steps.iter().flat_map(|f| f.bounds.iter()) {
        if j.is_lower() != lower {
            continue;
        }
        let Some(o) = crate::values::compare_values(x.ty, a, bound) else {
            indeterminate = Some(format!("{} {a}", j.xsd_name()));
            continue;
        };
        // OLD's bound a against NEW's bound: on the lower side a must not be below it
        // (above it when NEW's is exclusive and OLD's inclusive), on the upper side
        // symmetrically.
        let ok = match (j, k) {
            (MinInclusive, MinInclusive) | (MinExclusive, MinInclusive) => o != Ordering::Less,
            (MinExclusive, MinExclusive) => o != Ordering::Less,
            (MinInclusive, MinExclusive) => o == Ordering::Greater,
            (MaxInclusive, MaxInclusive) | (MaxExclusive, MaxInclusive) => o != Ordering::Greater,
            (MaxExclusive, MaxExclusive) => o != Ordering::Greater,
            (MaxInclusive, MaxExclusive) => o == Ordering::Less,
            _ => false,
        };
        if ok {
            return Implied::Yes;
        }
    }
    indeterminate.map_or(Implied::No, Implied::Indeterminate)
}

fn value_name(ty: ValueType) -> String {
    let local = ValueType::ALL
        .iter()
        .find(|(v, _)| *v == ty)
        .map_or("?", |(_, n)| n);
    format!("xs:{local}")
}

/// Whether an integer's lexical form is one of `ty` too, with the same value (rounded to
/// the nearest for float and double, which keeps the order).
fn numeric(ty: ValueType) -> bool {
    matches!(
        ty,
        ValueType::Decimal | ValueType::Float | ValueType::Double
    )
}

/// An integer space as values of `ty` (decimal, float or double): its interval, its
/// enumeration and its patterns; as decimals, no fraction digits and at most as many
/// digits as its widest bound.
fn int_as_value(x: &IntSpace, ty: ValueType) -> ValSpace {
    let mut f = Facets::default();
    if ty == ValueType::Decimal {
        f.fraction_digits = Some(0);
        if x.lo > i128::MIN && x.hi < i128::MAX {
            let width = |v: i128| v.unsigned_abs().to_string().len();
            f.total_digits = u32::try_from(width(x.lo).max(width(x.hi))).ok();
        }
    }
    if x.lo > i128::MIN {
        f.bounds.push((BoundKind::MinInclusive, x.lo.to_string()));
    }
    if x.hi < i128::MAX {
        f.bounds.push((BoundKind::MaxInclusive, x.hi.to_string()));
    }
    if let Some(set) = &x.set {
        f.enumeration = set.iter().map(|v| v.to_string()).collect();
    }
    f.patterns = x
        .patterns
        .iter()
        .map(|p| Pattern {
            xsd: p.clone(),
            rust: p.clone(),
        })
        .collect();
    ValSpace { ty, steps: vec![f] }
}

/// A decimal as (unscaled, scale), if it fits an i128.
fn decimal_parts(text: &str) -> Option<(i128, u32)> {
    let c = crate::values::canonical(ValueType::Decimal, text)?;
    let (int, frac) = c.split_once('.').unwrap_or((&c, ""));
    let frac = frac.trim_end_matches('0');
    let scale = u32::try_from(frac.len()).ok()?;
    Some((format!("{int}{frac}").parse().ok()?, scale))
}

fn decimal_text(unscaled: i128, scale: u32) -> String {
    let digits = unscaled.unsigned_abs().to_string();
    let sign = if unscaled < 0 { "-" } else { "" };
    let s = scale as usize;
    if s == 0 {
        return format!("{sign}{digits}");
    }
    let digits = format!("{digits:0>width$}", width = s + 1);
    let (i, f) = digits.split_at(digits.len() - s);
    format!("{sign}{i}.{f}")
}

/// The representable values next to `v`, below and above (`f64::next_down`/`next_up`
/// are newer than the crate's minimum Rust version).
macro_rules! float_neighbours {
    ($name:ident, $t:ty) => {
        fn $name(v: $t) -> [$t; 2] {
            if !v.is_finite() {
                return [v, v];
            }
            let step = |up: bool| {
                if v == 0.0 {
                    let tiny = <$t>::from_bits(1);
                    return if up { tiny } else { -tiny };
                }
                let bits = v.to_bits();
                <$t>::from_bits(if (v > 0.0) == up { bits + 1 } else { bits - 1 })
            };
            [step(false), step(true)]
        }
    };
}
float_neighbours!(f64_neighbours, f64);
float_neighbours!(f32_neighbours, f32);

fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

/// The day before and after `(y, m, d)`.
fn day_neighbours(y: i64, m: u8, d: u8) -> [(i64, u8, u8); 2] {
    let before = if d > 1 {
        (y, m, d - 1)
    } else if m > 1 {
        (y, m - 1, days_in_month(y, m - 1))
    } else {
        (y - 1, 12, 31)
    };
    let after = if d < days_in_month(y, m) {
        (y, m, d + 1)
    } else if m < 12 {
        (y, m + 1, 1)
    } else {
        (y + 1, 1, 1)
    };
    [before, after]
}

fn ymd(y: i64, m: u8, d: u8) -> String {
    if y < 0 {
        format!("-{:04}-{m:02}-{d:02}", -y)
    } else {
        format!("{y:04}-{m:02}-{d:02}")
    }
}

/// Values near `bound` in the value space of `ty` (neighbours at each scale in `scales`
/// for the decimal-like types, the days around a date, the months and seconds around a
/// duration), as lexical forms.
fn neighbours(ty: ValueType, bound: &str, scales: u32, out: &mut Vec<String>) {
    use boardxml::datatypes as dt;
    let zones = |plain: &str, out: &mut Vec<String>| {
        for z in ["Z", "+14:00", "-14:00"] {
            out.push(format!("{plain}{z}"));
        }
    };
    match ty {
        ValueType::Decimal | ValueType::Float | ValueType::Double => {
            if let Some((u, s)) = decimal_parts(bound) {
                for k in 0..=scales.max(s) + 1 {
                    let t = if k >= s {
                        10i128.checked_pow(k - s).and_then(|p| u.checked_mul(p))
                    } else {
                        10i128.checked_pow(s - k).map(|p| u / p)
                    };
                    if let Some(t) = t {
                        for d in [0, -1, 1] {
                            out.push(decimal_text(t + d, k));
                        }
                    }
                }
            }
            if ty != ValueType::Decimal {
                if let Ok(v) = bound.trim().parse::<f64>() {
                    if ty == ValueType::Float {
                        let [below, above] = f32_neighbours(v as f32);
                        out.push(dt::Float(below).to_string());
                        out.push(dt::Float(above).to_string());
                    } else {
                        let [below, above] = f64_neighbours(v);
                        out.push(dt::Double(below).to_string());
                        out.push(dt::Double(above).to_string());
                    }
                }
            }
        }
        ValueType::Date => {
            if let Ok(d) = dt::Date::parse(bound) {
                let plain: Vec<String> = std::iter::once((d.year(), d.month(), d.day()))
                    .chain(day_neighbours(d.year(), d.month(), d.day()))
                    .map(|(y, m, d)| ymd(y, m, d))
                    .collect();
                for p in plain {
                    zones(&p, out);
                    out.push(p);
                }
            }
        }
        // A dateTimeStamp's neighbours are its dateTime's (the unzoned ones fail its type).
        ValueType::DateTime | ValueType::DateTimeStamp => {
            if let Ok(t) = dt::DateTime::parse(bound) {
                let s = t.seconds_of_day();
                let time = format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
                let days = std::iter::once((t.year(), t.month(), t.day())).chain(day_neighbours(
                    t.year(),
                    t.month(),
                    t.day(),
                ));
                for (y, m, d) in days {
                    let p = format!("{}T{time}", ymd(y, m, d));
                    zones(&p, out);
                    out.push(p);
                }
            }
        }
        // So are the two durations of XSD 1.1 (candidates outside their lexical space fail).
        ValueType::Duration | ValueType::DayTimeDuration | ValueType::YearMonthDuration => {
            if let Ok(d) = dt::Duration::parse(bound) {
                let sign = if d.is_negative() { "-" } else { "" };
                let (m, secs) = (d.months(), d.seconds().to_string());
                if let Some((u, s)) = decimal_parts(&secs) {
                    let one = 10i128.checked_pow(s).unwrap_or(1);
                    for (dm, ds) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                        let (Some(m), Some(u)) =
                            (m.checked_add_signed(dm), u.checked_add(ds * one))
                        else {
                            continue;
                        };
                        if u < 0 {
                            continue;
                        }
                        out.push(format!("{sign}P{m}MT{}S", decimal_text(u, s)));
                    }
                }
            }
        }
        ValueType::GYear => {
            if let Ok(y) = bound.trim().parse::<i64>() {
                out.extend([y - 1, y + 1].map(|y| format!("{y:04}")));
            }
        }
        _ => {}
    }
}

/// Simple values of the value types of `spaces` and values around their bounds and
/// enumerations, in canonical form, simplest (shortest) first; not filtered by the facets.
fn candidates(spaces: &[&ValSpace]) -> Vec<String> {
    let mut raw: Vec<(ValueType, String)> = Vec::new();
    let steps = || {
        spaces
            .iter()
            .flat_map(|v| v.steps.iter().map(|f| (v.ty, f)))
    };
    let scales = steps()
        .filter_map(|(_, f)| f.fraction_digits)
        .chain(
            steps()
                .flat_map(|(_, f)| f.bounds.iter())
                .filter_map(|(_, b)| decimal_parts(b).map(|p| p.1)),
        )
        .max()
        .unwrap_or(0)
        .min(30);
    let digits = steps()
        .filter_map(|(_, f)| f.total_digits)
        .max()
        .unwrap_or(0)
        .min(36);
    for v in spaces {
        let base: &[&str] = match v.ty {
            ValueType::Decimal => &["0", "1", "-1", "0.5"],
            ValueType::Float | ValueType::Double => &["0", "1", "-1", "0.5", "INF", "-INF", "NaN"],
            ValueType::Duration => &["P0D", "P1D", "PT1S", "P1M", "P1Y", "-P1D"],
            ValueType::DayTimeDuration => &["PT0S", "P1D", "PT1S", "-P1D"],
            ValueType::YearMonthDuration => &["P0M", "P1M", "P1Y", "-P1M"],
            ValueType::DateTime => &["2000-01-01T00:00:00", "2000-01-01T00:00:00Z"],
            ValueType::DateTimeStamp => &["2000-01-01T00:00:00Z", "2000-01-01T00:00:00+01:00"],
            ValueType::Time => &["00:00:00", "00:00:00Z", "12:00:00"],
            ValueType::Date => &["2000-01-01", "2000-01-01Z"],
            ValueType::GYearMonth => &["2000-01", "2000-01Z"],
            ValueType::GYear => &["2000", "2000Z"],
            ValueType::GMonthDay => &["--01-01", "--01-01Z"],
            ValueType::GDay => &["---01", "---01Z"],
            ValueType::GMonth => &["--01", "--01Z"],
            ValueType::HexBinary => &["", "00", "0000", "000000"],
            ValueType::Base64Binary => &["", "AA==", "AAA=", "AAAA"],
            ValueType::Language => &["en", "a"],
            ValueType::NmTokens | ValueType::IdRefs | ValueType::Entities => &["a", "a a"],
            ValueType::AnySimpleType => &["", "a"],
            _ => &["a", "aa", "aaa"],
        };
        let mut near = Vec::new();
        if matches!(
            v.ty,
            ValueType::Decimal | ValueType::Float | ValueType::Double
        ) {
            // Every scale up to the largest one written, and the digit counts around
            // the largest totalDigits.
            neighbours(v.ty, "0", scales, &mut near);
            for k in 1..=digits + 1 {
                let p = 10i128.pow(k);
                near.extend([p - 1, p].map(|x| x.to_string()));
            }
        }
        let written: Vec<&String> = v
            .steps
            .iter()
            .flat_map(|f| f.bounds.iter().map(|(_, b)| b).chain(&f.enumeration))
            .collect();
        raw.extend(base.iter().map(|b| (v.ty, b.to_string())));
        raw.extend(written.iter().map(|b| (v.ty, b.to_string())));
        for b in &written {
            neighbours(v.ty, b, scales, &mut near);
        }
        // Between two bounds of a dense space: their midpoint.
        let parts: Vec<(i128, u32)> = written.iter().filter_map(|b| decimal_parts(b)).collect();
        for (i, &(ua, sa)) in parts.iter().enumerate() {
            for &(ub, sb) in &parts[i + 1..] {
                let s = sa.max(sb);
                let scale = |u: i128, from: u32| 10i128.checked_pow(s - from)?.checked_mul(u);
                if let (Some(a), Some(b)) = (scale(ua, sa), scale(ub, sb)) {
                    if let Some(m) = a.checked_add(b).and_then(|x| x.checked_mul(5)) {
                        near.push(decimal_text(m, s + 1));
                    }
                }
            }
        }
        raw.extend(near.into_iter().map(|n| (v.ty, n)));
    }
    let mut out: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for (ty, r) in raw {
        let Some(c) = crate::values::canonical(ty, &r) else {
            continue;
        };
        // An integral decimal's canonical form is 1.0; its integer form is tried too (it
        // is the lexical form an integer type accepts).
        let plain = c.strip_suffix(".0").map(str::to_string);
        for c in std::iter::once(c).chain(plain) {
            if seen.insert(c.clone()) {
                out.push(c);
            }
        }
    }
    out.sort_by_key(|c| c.chars().count());
    out
}

enum Search {
    Found(Vec<String>),
    TooLarge,
    NoDfa(String),
}

fn show(v: i128) -> String {
    v.to_string()
}

fn kind(s: &Space) -> &'static str {
    match s {
        Space::Strings(_) => "string",
        Space::Ints(_) => "integer",
        Space::Bool(..) => "boolean",
        Space::Union(_) => "union",
        Space::List(..) => "list",
        Space::Values(_) => "value-type",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(patterns: &[&str], min: Option<u64>, max: Option<u64>) -> Space {
        let mut regexes = vec![XML_CHARS.to_string()];
        for p in patterns {
            regexes.push(boardxml_xsd_regex::translate(p).unwrap());
        }
        Space::Strings(StrSpace {
            ws: WhiteSpace::Preserve,
            regexes,
            min_len: min,
            max_len: max,
            restricted: true,
        })
    }

    #[test]
    fn pattern_inclusion_is_decided_both_ways() {
        let mut e = Engines::default();
        let ascii = strings(&["[a-c][0-9]{1,2}"], None, None);
        let unicode = strings(&[r"[a-c]\d{1,2}"], None, None);
        assert!(matches!(e.included(&ascii, &unicode), Inclusion::Proven(_)));
        // XSD's \d is every Unicode decimal digit: the witness is one beyond ASCII.
        let Inclusion::Witness(w) = e.included(&unicode, &ascii) else {
            panic!("expected a witness")
        };
        assert!(e.accepts(&unicode, &w) && !e.accepts(&ascii, &w), "{w:?}");
        assert!(!w.is_ascii(), "{w:?}");
        // The same language written two ways: included both ways.
        let other = strings(&["[a-c]([0-9]|[0-9][0-9])"], None, None);
        assert!(matches!(e.included(&ascii, &other), Inclusion::Proven(_)));
        assert!(matches!(e.included(&other, &ascii), Inclusion::Proven(_)));
    }

    #[test]
    fn lengths_and_patterns_combine() {
        let mut e = Engines::default();
        let any = strings(&["[a-z]*"], Some(2), Some(4));
        let three = strings(&["[a-z]*"], None, Some(3));
        assert_eq!(e.included(&any, &three), Inclusion::Witness("aaaa".into()));
        assert!(matches!(
            e.included(&three, &strings(&["[a-z]{0,3}"], None, None)),
            Inclusion::Proven(_)
        ));
        // The empty string is the smallest value where it is one.
        assert_eq!(e.smallest(&three).as_deref(), Some(""));
    }

    #[test]
    fn integer_intervals_are_exact() {
        let mut e = Engines::default();
        let int = |lo, hi| {
            Space::Ints(IntSpace {
                lo,
                hi,
                set: None,
                patterns: Vec::new(),
            })
        };
        assert_eq!(
            e.included(&int(0, 255), &int(0, 200)),
            Inclusion::Witness("201".into())
        );
        assert_eq!(
            e.included(&int(-5, 10), &int(0, 200)),
            Inclusion::Witness("-1".into())
        );
        assert!(matches!(
            e.included(&int(1, 3), &int(0, 4)),
            Inclusion::Proven(_)
        ));
        // Lexical forms: leading zeros and signs are integers too.
        assert!(e.accepts(&int(0, 10), " +007 "));
        assert!(!e.accepts(&int(0, 10), "7.0"));
    }

    fn decimal(steps: Vec<Facets>) -> Space {
        Space::Values(ValSpace {
            ty: ValueType::Decimal,
            steps,
        })
    }

    fn bounded(bounds: &[(BoundKind, &str)], fraction: Option<u32>) -> Facets {
        Facets {
            bounds: bounds.iter().map(|(k, v)| (*k, v.to_string())).collect(),
            fraction_digits: fraction,
            ..Facets::default()
        }
    }

    #[test]
    fn decimal_intervals_are_compared_in_the_value_order() {
        use boardxml::facets::Bound::*;
        let mut e = Engines::default();
        let old = decimal(vec![bounded(&[(MaxInclusive, "10.5")], None)]);
        let new = decimal(vec![bounded(&[(MaxInclusive, "10")], None)]);
        assert_eq!(e.included(&old, &new), Inclusion::Witness("10.5".into()));
        assert!(matches!(e.included(&new, &old), Inclusion::Proven(_)));
        // Exclusive at 10.5: the witness lies strictly between the bounds.
        let open = decimal(vec![bounded(&[(MaxExclusive, "10.5")], None)]);
        let Inclusion::Witness(w) = e.included(&open, &new) else {
            panic!("expected a witness")
        };
        assert!(e.accepts(&open, &w) && !e.accepts(&new, &w), "{w}");
        // The same bound written two ways, and values compared, not strings.
        let same = decimal(vec![bounded(&[(MaxInclusive, "10.50")], None)]);
        assert!(matches!(e.included(&old, &same), Inclusion::Proven(_)));
        let one = decimal(vec![Facets {
            enumeration: vec!["1.0".into(), "2".into()],
            ..Facets::default()
        }]);
        let other = decimal(vec![Facets {
            enumeration: vec!["1".into(), "2.00".into()],
            ..Facets::default()
        }]);
        assert!(matches!(e.included(&one, &other), Inclusion::Proven(_)));
        // fractionDigits: a value of two fraction digits within the bounds.
        let two = decimal(vec![bounded(&[(MinInclusive, "0")], Some(2))]);
        let one_digit = decimal(vec![bounded(&[(MinInclusive, "0")], Some(1))]);
        let Inclusion::Witness(w) = e.included(&two, &one_digit) else {
            panic!("expected a witness")
        };
        assert_eq!(w.split_once('.').map(|(_, f)| f.len()), Some(2), "{w}");
        assert!(matches!(e.included(&one_digit, &two), Inclusion::Proven(_)));
    }

    #[test]
    fn list_item_counts_are_compared() {
        let mut e = Engines::default();
        let item = || Box::new(decimal(Vec::new()));
        let three = Space::List(
            item(),
            Items {
                min: None,
                max: Some(3),
            },
        );
        let two = Space::List(
            item(),
            Items {
                min: None,
                max: Some(2),
            },
        );
        let Inclusion::Witness(w) = e.included(&three, &two) else {
            panic!("expected a witness")
        };
        assert_eq!(w.split(' ').count(), 3, "{w}");
        assert!(matches!(e.included(&two, &three), Inclusion::Proven(_)));
    }

    #[test]
    fn integers_are_compared_as_decimals_and_doubles() {
        let mut e = Engines::default();
        let byte = Space::Ints(IntSpace {
            lo: 0,
            hi: 255,
            set: None,
            patterns: Vec::new(),
        });
        let three = decimal(vec![Facets {
            total_digits: Some(3),
            ..Facets::default()
        }]);
        assert!(matches!(e.included(&byte, &three), Inclusion::Proven(_)));
        let two = decimal(vec![Facets {
            total_digits: Some(2),
            ..Facets::default()
        }]);
        let Inclusion::Witness(w) = e.included(&byte, &two) else {
            panic!("expected a witness")
        };
        assert!(
            e.accepts(&byte, &w) && !e.accepts(&two, &w) && w.len() == 3,
            "{w}"
        );
        let double = Space::Values(ValSpace {
            ty: ValueType::Double,
            steps: Vec::new(),
        });
        assert!(matches!(e.included(&byte, &double), Inclusion::Proven(_)));
        // Back: 0.5 is no integer.
        assert!(matches!(e.included(&three, &byte), Inclusion::Witness(_)));
    }
}
