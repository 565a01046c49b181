//! Content-model constraints checked at generation time, on the position (Glushkov)
//! automaton of a complex type's particle tree: Unique Particle Attribution (XSD 1.0, 3.8.6:
//! no element may match two particles at one point) and Element Declarations Consistent
//! (3.8.6: elements of one name in one content model have one type).
//!
//! A repetition with a small finite maxOccurs is unrolled into copies of its term (one
//! particle still), so that counting decides what the loop alone would leave open:
//! `b{2}` then `b` is deterministic (XSD 1.0 Part 1, appendix H).
//!
//! XSD 1.1 relaxes UPA (3.8.6.4): an element particle and a wildcard may compete, and the
//! element wins. The runtime reads greedily, so the check turns that precedence into names
//! the wildcard disallows: each name it competes with, where that is exact (in every state
//! where the wildcard may come, an element of that name may too, so the wildcard never
//! takes the name); a model where it is not is reported as not supported.
//!
//! These also make the runtime's reading exact: it reads a content model greedily, one
//! child of look-ahead, which is correct when the model is deterministic. The one
//! deterministic shape it cannot read greedily (a repetition that must occur at least twice
//! around a repetition that can end it and start it again, `(a{1,3}){2}`: counters, not
//! particles, are ambiguous) is reported as not supported rather than misread.

use crate::ir::{NamespaceConstraint, Particle, Span, Term, TypeRef, Wildcard};
use crate::positions::{Follow, Info};

/// A problem in a content model: where, and what.
pub struct ModelProblem {
    /// The particle concerned.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// A hint.
    pub hint: Option<String>,
    /// The schema is invalid (UPA, EDC) rather than beyond what is supported.
    pub invalid: bool,
}

impl ModelProblem {
    /// A constraint of XSD 1.0 the content model breaks, at `span`.
    fn invalid(span: Span, message: String, hint: &str) -> ModelProblem {
        ModelProblem {
            span,
            message,
            hint: Some(hint.into()),
            invalid: true,
        }
    }
}

struct Position<'p> {
    /// The expanded name (`{namespace}local` in a namespace): what UPA and EDC compare.
    name: String,
    span: Span,
    /// An element's type; `None` for a wildcard.
    type_ref: Option<&'p TypeRef>,
    /// An element's namespace.
    namespace: Option<&'p str>,
    /// The wildcard of an `xs:any` position.
    wildcard: Option<&'p Wildcard>,
}

impl Position<'_> {
    /// Whether one element could match both positions (XSD 1.0 3.8.6: an element and a
    /// wildcard that allows its name, or two wildcards that share a namespace: the names a
    /// wildcard disallows are finitely many, and a namespace holds infinitely many).
    fn overlaps(&self, other: &Position<'_>) -> bool {
        match (self.wildcard, other.wildcard) {
            (None, None) => self.name == other.name,
            (Some(w), None) => w.allows_name(other.namespace, &other.name),
            (None, Some(w)) => w.allows_name(self.namespace, &self.name),
            (Some(a), Some(b)) => !matches!(
                super::wildcard::intersection(&a.namespaces, &b.namespaces),
                NamespaceConstraint::Only(v) if v.is_empty()
            ),
        }
    }

    /// How a message names what matches the position.
    fn what(&self) -> String {
        match self.wildcard {
            Some(w) => format!("xs:any ({})", w.describe()),
            None => format!("<{}>", self.name),
        }
    }
}

/// The position automaton of one content model, built in time and space linear in the
/// model where the model allows it.
///
/// Follow sets are lists of first-set ids ([`crate::positions`]): a
/// `choice maxOccurs="unbounded"` of n elements has n follow lists of one entry each
/// rather than n^2 positions. The check expands each *distinct* follow list once, with
/// stamped tables indexed by interned name ids, so it costs the size of the distinct lists
/// (linear for choices, `all` and repeated groups; quadratic only in the number of optional
/// particles of one sequence, whose follow sets do differ).
#[derive(Default)]
struct Automaton<'p> {
    positions: Vec<Position<'p>>,
    /// Per position: its interned expanded name (elements), or `None` (wildcards).
    name_ids: Vec<Option<u32>>,
    names: std::collections::HashMap<String, u32>,
    links: Follow,
    /// XSD 1.1's relaxed UPA: an element and a wildcard may compete.
    relaxed: bool,
    /// Relaxed: per wildcard particle (its span: the copies and every reference to one
    /// group's particle share it), the name ids of the elements it competes with.
    competes: std::collections::HashMap<Span, std::collections::BTreeSet<u32>>,
    /// Relaxed: the states that hold a wildcard: its wildcards' spans and the element name
    /// ids the state holds, sorted.
    wildcard_states: Vec<(Vec<Span>, Vec<u32>)>,
    /// Per position: the position it is a copy of (itself where it is no copy). A
    /// repetition with a finite maxOccurs is unrolled into that many copies of its term,
    /// whose positions are one particle's: two of them at one point are no ambiguity.
    origin: Vec<u32>,
    problems: Vec<ModelProblem>,
}

/// A repeated particle inside another, with its first and last positions.
type Repeated<'p> = (&'p Particle, Vec<u32>, Vec<u32>);

/// The most copies a repetition is unrolled into, and the most positions a content model
/// may have from unrolling: beyond them a repetition is one loop, as before (counting is
/// then not taken into account, and a model it makes deterministic may be reported).
const UNROLL_COPIES: u32 = 16;
const UNROLL_POSITIONS: usize = 4096;

impl<'p> Automaton<'p> {
    /// A particle that is one position (an element or a wildcard): it is its own first
    /// and last, and never empty.
    fn position(&mut self, position: Position<'p>) -> Info {
        let name_id = position.wildcard.is_none().then(|| {
            let next = self.names.len() as u32;
            *self.names.entry(position.name.clone()).or_insert(next)
        });
        self.origin.push(self.positions.len() as u32);
        self.positions.push(position);
        self.name_ids.push(name_id);
        self.links.position()
    }

    /// The particle's first and last positions and whether it can be empty, adding its
    /// follow edges; `repeated` collects the (first, last) of every repeated particle in it.
    /// It recurses on the particle's nesting, which `limits` bounds before any pass runs.
    fn walk(&mut self, p: &'p Particle, repeated: &mut Vec<Repeated<'p>>) -> Info {
        let mut inner_repeated = Vec::new();
        let start = self.positions.len();
        let mut info = self.walk_term(p, &mut inner_repeated);
        let size = self.positions.len() - start;
        let repeats = p.max != Some(1);
        if p.max.is_none_or(|m| m >= 2) {
            self.counted_over_repeated(p, &info, &inner_repeated);
        }
        // A finite repetition, unrolled (XSD 1.0 Part 1, appendix H: UPA is judged with
        // counts, so that `b{2}` then `b` is deterministic): min required copies, then
        // optional ones up to max.
        let unroll = p.max.filter(|&n| {
            (2..=UNROLL_COPIES).contains(&n)
                && size * (n as usize - 1) + self.positions.len() <= UNROLL_POSITIONS
        });
        if let Some(n) = unroll {
            if p.min == 0 {
                info.nullable = true;
            }
            let mut copies_repeated = Vec::new();
            for k in 1..n {
                let at = self.positions.len();
                let mut c = self.walk_term(p, &mut copies_repeated);
                for i in 0..size {
                    self.origin[at + i] = self.origin[start + i];
                }
                if k >= p.min {
                    c.nullable = true;
                }
                self.links.concat(&mut info, c);
            }
        } else if repeats {
            self.links.link(&info.last, &info.first);
        }
        if p.min == 0 {
            info.nullable = true;
        }
        if repeats {
            inner_repeated.push((p, info.first.clone(), info.last.clone()));
        }
        repeated.extend(inner_repeated);
        info
    }

    /// One occurrence of the particle's term: its first and last positions and whether it
    /// can be empty, adding its follow edges.
    fn walk_term(&mut self, p: &'p Particle, inner_repeated: &mut Vec<Repeated<'p>>) -> Info {
        match &p.term {
            Term::Element(e) => self.position(Position {
                name: e.xml_name(),
                span: e.span,
                type_ref: Some(&e.type_ref),
                namespace: e.namespace.as_deref(),
                wildcard: None,
            }),
            Term::Any(w) => self.position(Position {
                name: w.describe(),
                span: w.span,
                type_ref: None,
                namespace: None,
                wildcard: Some(w),
            }),
            Term::Sequence(items) => {
                let mut acc = Info::empty();
                for item in items {
                    let c = self.walk(item, inner_repeated);
                    self.links.concat(&mut acc, c);
                }
                acc
            }
            Term::Choice(items) => {
                // An empty choice matches nothing (XSD 1.0, 3.8.4): not nullable.
                let mut acc = Info::default();
                for item in items {
                    acc.or(self.walk(item, inner_repeated));
                }
                acc
            }
            Term::All(items) => {
                let mut acc = Info::empty();
                for item in items {
                    let c = self.walk(item, inner_repeated);
                    acc.first.extend(c.first);
                    acc.last.extend(c.last);
                    acc.nullable &= c.nullable;
                }
                // After any member, any other member may come: the first-set of all the
                // members, one list shared by every member's last positions. (A member
                // following itself is not allowed, as the members occur at most once, but
                // a position's own name in that set is no ambiguity: the check skips a
                // position meeting itself.)
                self.links.link(&acc.last, &acc.first);
                acc
            }
        }
    }

    /// A repetition `outer` around a repeated inner particle that can both end an
    /// occurrence of it and start the next: which of the two a child continues is a
    /// matter of counting. The greedy reader reads the inner particle as far as it goes,
    /// which goes wrong in two ways: too few occurrences of `outer` (it needs at least
    /// two: `(a{1,2}){2}` over `a a`), mended by splitting occurrences afterwards where the
    /// generated group can ([`Term::splits_at`]); and too few left for the next
    /// occurrence (the inner particle needs at least two and is bounded: `(a{2,3})*` over
    /// four `a` reads three, then one), which nothing mends. Either is reported as not
    /// supported, never misread.
    fn counted_over_repeated(
        &mut self,
        outer: &Particle,
        info: &Info,
        inner_repeated: &[Repeated<'p>],
    ) {
        let min = outer.min;
        let first: std::collections::HashSet<u32> = info.first.iter().copied().collect();
        let last: std::collections::HashSet<u32> = info.last.iter().copied().collect();
        for &(inner, ref inner_first, ref inner_last) in inner_repeated {
            // An exact count (`b{2}`) leaves no choice, so nothing to get wrong.
            let leaves_too_few =
                inner.reader_min() >= 2 && inner.max.is_some_and(|max| max > inner.reader_min());
            if !(min >= 2 || leaves_too_few) || outer.term.splits_at(inner) {
                continue;
            }
            let Some(x) = inner_first.iter().find(|x| first.contains(x)).copied() else {
                continue;
            };
            if !inner_last.iter().any(|x| last.contains(x)) {
                continue;
            }
            let at = &self.positions[x as usize];
            let (span, name) = (at.span, at.what());
            self.problems.push(ModelProblem {
                span,
                message: if leaves_too_few {
                    format!(
                        "{name} may either repeat an inner particle of at least {} occurrences or start the next occurrence of an outer one, and reading up to {} in one occurrence can leave too few for the next; reading such counted repetitions is not supported yet",
                        inner.reader_min(),
                        inner.max.unwrap_or_default()
                    )
                } else {
                    format!(
                        "{name} may either repeat an inner particle or start the next of at least {min} occurrences of an outer one; reading such counted repetitions is not supported yet"
                    )
                },
                hint: Some(if leaves_too_few {
                    "make the inner particle's minOccurs 0 or 1 or its maxOccurs unbounded, or the outer particle occur once".into()
                } else {
                    "lower the outer minOccurs to 0 or 1, or make the inner particle occur once".into()
                }),
                invalid: false,
            });
        }
    }

    /// Reports the ambiguities among the positions of the first-sets `ids` (what may come
    /// at one point): two elements of one name, or a wildcard and an element or wildcard it
    /// overlaps. Each particle is reported once, against the earliest particle it clashes
    /// with, so a model of n particles gives at most n reports.
    fn check_set(&mut self, ids: &[u32], scratch: &mut Scratch) {
        scratch.stamp += 1;
        let stamp = scratch.stamp;
        scratch.members.clear();
        scratch.wildcards.clear();
        for &id in ids {
            for &x in &self.links.sets[id as usize] {
                if scratch.position_stamp[x as usize] == stamp {
                    continue;
                }
                scratch.position_stamp[x as usize] = stamp;
                scratch.members.push(x);
                match self.name_ids[x as usize] {
                    Some(n) => {
                        let n = n as usize;
                        let span = self.positions[x as usize].span;
                        if scratch.name_stamp[n] != stamp
                            || span < self.positions[scratch.name_earliest[n] as usize].span
                        {
                            scratch.name_stamp[n] = stamp;
                            scratch.name_earliest[n] = x;
                        }
                    }
                    None => scratch.wildcards.push(x),
                }
            }
        }
        for k in 0..scratch.members.len() {
            let x = scratch.members[k];
            if let Some(n) = self.name_ids[x as usize] {
                let earliest = scratch.name_earliest[n as usize];
                if self.origin[earliest as usize] != self.origin[x as usize] {
                    self.report(earliest, x, &mut scratch.reported);
                }
            }
        }
        if self.relaxed && !scratch.wildcards.is_empty() {
            let spans = scratch
                .wildcards
                .iter()
                .map(|&w| self.positions[w as usize].span)
                .collect();
            let mut names: Vec<u32> = scratch
                .members
                .iter()
                .filter_map(|&x| self.name_ids[x as usize])
                .collect();
            names.sort_unstable();
            names.dedup();
            self.wildcard_states.push((spans, names));
        }
        for k in 0..scratch.wildcards.len() {
            let w = scratch.wildcards[k];
            for m in 0..scratch.members.len() {
                let x = scratch.members[m];
                let competing = self.origin[x as usize] != self.origin[w as usize]
                    && self.positions[w as usize].overlaps(&self.positions[x as usize]);
                if competing && self.relaxed {
                    if let Some(n) = self.name_ids[x as usize] {
                        // XSD 1.1: the element wins (see the module's documentation).
                        self.competes
                            .entry(self.positions[w as usize].span)
                            .or_default()
                            .insert(n);
                        continue;
                    }
                }
                if competing {
                    let (a, b) =
                        if self.positions[w as usize].span <= self.positions[x as usize].span {
                            (w, x)
                        } else {
                            (x, w)
                        };
                    self.report(a, b, &mut scratch.reported);
                }
            }
        }
    }

    /// Reports that `b` clashes with the earlier `a`, unless `b` is reported already.
    fn report(&mut self, a: u32, b: u32, reported: &mut [bool]) {
        // Once per particle, whichever of its copies clashes.
        let b = self.origin[b as usize];
        let a = self.origin[a as usize];
        if std::mem::replace(&mut reported[b as usize], true) {
            return;
        }
        let (pa, pb) = (&self.positions[a as usize], &self.positions[b as usize]);
        let both_elements = pa.wildcard.is_none() && pb.wildcard.is_none();
        let problem = if both_elements {
            ModelProblem::invalid(
                pb.span,
                format!(
                    "the content model is ambiguous: an element <{}> could match this particle or the one at {}:{} (Unique Particle Attribution, XSD 1.0 3.8.6)",
                    pb.name, pa.span.line, pa.span.column
                ),
                "make the model deterministic: one child element must decide which particle it matches",
            )
        } else {
            ModelProblem::invalid(
                pb.span,
                format!(
                    "the content model is ambiguous: an element could match this particle, {}, or the one at {}:{}, {} (Unique Particle Attribution, XSD 1.0 3.8.6)",
                    pb.what(), pa.span.line, pa.span.column, pa.what()
                ),
                "make the model deterministic: one child element must decide which particle it matches (narrow the wildcard's namespace=)",
            )
        };
        self.problems.push(problem);
    }
}

/// Working tables of the check, indexed by position and by name id; a stamp marks the
/// entries of the set being checked, so no table is cleared between sets.
struct Scratch {
    stamp: u32,
    position_stamp: Vec<u32>,
    name_stamp: Vec<u32>,
    name_earliest: Vec<u32>,
    members: Vec<u32>,
    wildcards: Vec<u32>,
    reported: Vec<bool>,
}

/// What the check of a content model finds.
#[derive(Default)]
pub struct Checked {
    /// The problems.
    pub problems: Vec<ModelProblem>,
    /// XSD 1.1's relaxed UPA: the wildcards (by span) that compete with elements, and the
    /// expanded names of those elements, which the wildcard is to disallow.
    pub yielded: Vec<(Span, Vec<String>)>,
}

/// Checks one complex type's content model; `relaxed`: by XSD 1.1's Unique Particle
/// Attribution, where an element particle beats a wildcard.
pub fn check(p: &Particle, relaxed: bool) -> Checked {
    let mut a = Automaton {
        relaxed,
        ..Automaton::default()
    };
    let mut repeated = Vec::new();
    let root = a.walk(p, &mut repeated);
    let mut scratch = Scratch {
        stamp: 0,
        position_stamp: vec![0; a.positions.len()],
        name_stamp: vec![0; a.names.len()],
        name_earliest: vec![0; a.names.len()],
        members: Vec::new(),
        wildcards: Vec::new(),
        reported: vec![false; a.positions.len()],
    };
    // The states: the start (the root's first positions) and after each position. Many
    // share one follow list (every member of a repeated choice): each distinct list is
    // checked once.
    let lists = a.links.lists(root.first);
    let mut seen = std::collections::HashSet::new();
    for ids in &lists {
        if !ids.is_empty() && seen.insert(ids.as_slice()) {
            a.check_set(ids, &mut scratch);
        }
    }
    // Element Declarations Consistent: one name, one type (each element against the first
    // of its name).
    let mut first_of_name: Vec<Option<usize>> = vec![None; a.names.len()];
    for i in 0..a.positions.len() {
        // A copy of an unrolled repetition is its original's particle.
        if a.origin[i] as usize != i {
            continue;
        }
        let Some(n) = a.name_ids[i] else { continue };
        let Some(j) = first_of_name[n as usize] else {
            first_of_name[n as usize] = Some(i);
            continue;
        };
        let (pj, pi) = (&a.positions[j], &a.positions[i]);
        if pj.type_ref != pi.type_ref {
            let message = format!(
                "element <{}> has a different type here than at {}:{} in the same content model (Element Declarations Consistent, XSD 1.0 3.8.6)",
                pi.name, pj.span.line, pj.span.column
            );
            a.problems.push(ModelProblem::invalid(
                pi.span,
                message,
                "give every element of one name in a content model the same named type",
            ));
        }
    }
    let yielded = a.yielded();
    Checked {
        problems: a.problems,
        yielded,
    }
}

impl Automaton<'_> {
    /// XSD 1.1's relaxed UPA: the names each competing wildcard is to disallow, where that
    /// is exact; a wildcard that competes with an element in one state but would be alone
    /// with an element of that name in another is reported as not supported.
    fn yielded(&mut self) -> Vec<(Span, Vec<String>)> {
        let mut inexact: Vec<(Span, u32)> = Vec::new();
        for (spans, names) in &self.wildcard_states {
            for span in spans {
                let Some(competing) = self.competes.get(span) else {
                    continue;
                };
                if let Some(&n) = competing.iter().find(|n| names.binary_search(n).is_err()) {
                    if !inexact.iter().any(|(s, _)| s == span) {
                        inexact.push((*span, n));
                    }
                }
            }
        }
        let name_of = |n: u32| -> String {
            let i = self
                .name_ids
                .iter()
                .position(|&x| x == Some(n))
                .unwrap_or(0);
            self.positions[i].name.clone()
        };
        for &(span, n) in &inexact {
            self.problems.push(ModelProblem {
                span,
                message: format!(
                    "by XSD 1.1's Unique Particle Attribution an element <{}> goes to an element particle where both it and this wildcard may come, and to the wildcard where only the wildcard may; reading that is not supported yet",
                    name_of(n)
                ),
                hint: Some("XSD 1.1 Part 1, 3.8.6.4".into()),
                invalid: false,
            });
        }
        let mut yielded: Vec<(Span, Vec<String>)> = self
            .competes
            .iter()
            .filter(|(span, _)| !inexact.iter().any(|(s, _)| s == *span))
            .map(|(span, names)| (*span, names.iter().map(|&n| name_of(n)).collect()))
            .collect();
        yielded.sort();
        yielded
    }
}
