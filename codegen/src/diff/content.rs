//! Content models as languages over element names.
//!
//! A particle tree becomes a position (Glushkov) automaton: one position per element
//! particle (occurrence bounds unrolled into copies), with the positions that may follow
//! each. Positions with the same follow list and the same finality have the same future, so
//! a state of the lazy subset construction is a set of such *classes*: every member of a
//! repeated choice of n elements is one class, and the automaton of `(e1|...|en)*` has two
//! states with n transitions each rather than n states of n. `xs:all` is its own language:
//! a set of names seen so far. Inclusion L(OLD) ⊆ L(NEW) is decided breadth first over the
//! product of the two, following only OLD's live transitions: a reachable pair where OLD
//! accepts and NEW does not spells the shortest word OLD allows and NEW refuses; exhausting
//! the product proves inclusion.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use crate::ir::*;
use crate::positions::{unroll, Follow, Info, Unroll};

/// The largest occurrence bound unrolled; beyond it the tool says it cannot tell.
const UNROLL_LIMIT: u32 = 1000;
/// How many product states a search may visit.
const SEARCH_LIMIT: usize = 200_000;
/// How many positions unrolled occurrence bounds may make (nested bounds multiply).
const NODE_LIMIT: usize = 50_000;

/// A content model's language.
#[derive(Debug, Clone)]
pub enum Lang {
    /// A sequence/choice tree.
    Nfa(Nfa),
    /// `xs:all`: each name at most once, in any order; `required` must all occur unless
    /// the group itself is optional and the word is empty.
    All {
        /// Names in schema order, with whether each is required.
        elems: Vec<(String, bool)>,
        /// `minOccurs="0"` on the group.
        optional: bool,
        /// `maxOccurs="0"` on the group: only the empty word.
        absent: bool,
    },
}

/// The position automaton of a sequence/choice tree, its positions merged into classes of
/// one future (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct Nfa {
    /// Element names, by name id.
    names: Vec<String>,
    name_ids: HashMap<String, u32>,
    /// Per class: whether a word may end after it, and its transitions (name id to the
    /// classes reached, sorted by name id).
    classes: Vec<Class>,
}

#[derive(Debug, Clone, Default)]
struct Class {
    accepting: bool,
    next: Vec<(u32, Vec<usize>)>,
}

/// A state of a lazily determinised [`Lang`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LState {
    /// The set of position classes (the start is class 0).
    Set(BTreeSet<usize>),
    /// The names seen by an `xs:all`.
    Seen(BTreeSet<String>),
    /// No word continues from here.
    Dead,
}

/// The result of an inclusion question over words.
#[derive(Debug, Clone)]
pub enum WordInclusion {
    /// Included, with the reason.
    Proven(String),
    /// A word of OLD that NEW refuses.
    Witness(Vec<String>),
    /// Undecided, with the reason.
    CannotTell(String),
}

/// The position automaton while it is built.
#[derive(Default)]
struct Builder {
    names: Vec<String>,
    name_ids: HashMap<String, u32>,
    /// Per position: its name id.
    positions: Vec<u32>,
    links: Follow,
}

impl Builder {
    /// A particle, its occurrence bounds unrolled ([`unroll`]).
    fn frag(&mut self, p: &Particle) -> Result<Info, String> {
        if p.min > UNROLL_LIMIT || p.max.is_some_and(|m| m > UNROLL_LIMIT) {
            return Err(format!(
                "an occurrence bound above {UNROLL_LIMIT} is not unrolled"
            ));
        }
        unroll(self, &p.term, p.min.into(), p.max.map(u64::from))
    }
}

impl Unroll<Term> for Builder {
    type Error = String;

    fn links(&mut self) -> &mut Follow {
        &mut self.links
    }

    fn term(&mut self, t: &Term) -> Result<Info, String> {
        if self.positions.len() > NODE_LIMIT {
            return Err(format!(
                "the content model unrolls to more than {NODE_LIMIT} automaton states"
            ));
        }
        match t {
            Term::Element(e) => {
                let next = self.names.len() as u32;
                let id = *self.name_ids.entry(e.name.clone()).or_insert(next);
                if id == next {
                    self.names.push(e.name.clone());
                }
                self.positions.push(id);
                Ok(self.links.position())
            }
            // A wildcard is a set of names, not one: comparing it as a symbol would claim
            // witnesses that are not (an element the other model's wildcard takes), so the
            // tool says it cannot tell.
            Term::Any(_) => {
                Err("content models with element wildcards (xs:any) are not compared yet".into())
            }
            Term::Sequence(items) => {
                let mut acc = Info::empty();
                for i in items {
                    let c = self.frag(i)?;
                    self.links.concat(&mut acc, c);
                }
                Ok(acc)
            }
            Term::Choice(items) => {
                // An empty choice matches nothing (XSD 1.0, 3.8.4): not nullable.
                let mut acc = Info::default();
                for i in items {
                    acc.or(self.frag(i)?);
                }
                Ok(acc)
            }
            Term::All(_) => Err("xs:all nested in another group".into()),
        }
    }
}

impl Builder {
    /// The automaton of `root`'s tree: positions merged into classes by (follow list,
    /// finality), the start first; each class's transitions computed once.
    fn finish(mut self, root: Info) -> Nfa {
        let lists = self.links.lists(root.first);
        let mut accepting = vec![false; self.positions.len()];
        for &l in &root.last {
            accepting[l as usize] = true;
        }
        let mut keys: HashMap<(Vec<u32>, bool), usize> = HashMap::new();
        let mut class_keys: Vec<(Vec<u32>, bool)> = Vec::new();
        let mut intern = |key: (Vec<u32>, bool)| {
            let next = class_keys.len();
            *keys.entry(key.clone()).or_insert_with(|| {
                class_keys.push(key);
                next
            })
        };
        let mut lists = lists.into_iter();
        intern((lists.next().unwrap_or_default(), root.nullable));
        let class_of: Vec<usize> = lists
            .zip(&accepting)
            .map(|(ids, &accepting)| intern((ids, accepting)))
            .collect();
        let classes = class_keys
            .into_iter()
            .map(|(ids, accepting)| {
                let mut next: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::new();
                for id in ids {
                    for &q in &self.links.sets[id as usize] {
                        next.entry(self.positions[q as usize])
                            .or_default()
                            .insert(class_of[q as usize]);
                    }
                }
                Class {
                    accepting,
                    next: next
                        .into_iter()
                        .map(|(name, to)| (name, to.into_iter().collect()))
                        .collect(),
                }
            })
            .collect();
        Nfa {
            names: self.names,
            name_ids: self.name_ids,
            classes,
        }
    }
}

impl Nfa {
    /// The classes one class reaches on `name`.
    fn next(&self, class: usize, name: u32) -> &[usize] {
        let next = &self.classes[class].next;
        match next.binary_search_by_key(&name, |(n, _)| *n) {
            Ok(i) => &next[i].1,
            Err(_) => &[],
        }
    }
}

impl Lang {
    /// The language of a content particle.
    pub fn of(p: &Particle) -> Result<Lang, String> {
        if let Term::All(items) = &p.term {
            let mut elems = Vec::new();
            for i in items {
                match &i.term {
                    Term::Element(e) => elems.push((e.name.clone(), i.min >= 1)),
                    _ => return Err("xs:all holding a group".into()),
                }
            }
            return Ok(Lang::All {
                elems,
                optional: p.min == 0,
                absent: p.max == Some(0),
            });
        }
        let mut builder = Builder::default();
        let root = builder.frag(p)?;
        Ok(Lang::Nfa(builder.finish(root)))
    }

    /// The language of no content at all.
    pub fn empty() -> Lang {
        Lang::Nfa(Builder::default().finish(Info::empty()))
    }

    /// The start state.
    pub fn start(&self) -> LState {
        match self {
            Lang::Nfa(_) => LState::Set(BTreeSet::from([0])),
            Lang::All { .. } => LState::Seen(BTreeSet::new()),
        }
    }

    /// The state after `name`.
    pub fn step(&self, s: &LState, name: &str) -> LState {
        match (self, s) {
            (Lang::Nfa(n), LState::Set(set)) => {
                let Some(&id) = n.name_ids.get(name) else {
                    return LState::Dead;
                };
                let next: BTreeSet<usize> =
                    set.iter().flat_map(|&c| n.next(c, id)).copied().collect();
                if next.is_empty() {
                    LState::Dead
                } else {
                    LState::Set(next)
                }
            }
            (
                Lang::All {
                    elems,
                    absent: false,
                    ..
                },
                LState::Seen(seen),
            ) => {
                if elems.iter().any(|(e, _)| e == name) && !seen.contains(name) {
                    let mut s = seen.clone();
                    s.insert(name.to_string());
                    LState::Seen(s)
                } else {
                    LState::Dead
                }
            }
            _ => LState::Dead,
        }
    }

    /// Whether the word read so far is complete.
    pub fn accepts(&self, s: &LState) -> bool {
        match (self, s) {
            (Lang::Nfa(n), LState::Set(set)) => set.iter().any(|&c| n.classes[c].accepting),
            (
                Lang::All {
                    elems,
                    optional,
                    absent,
                },
                LState::Seen(seen),
            ) => {
                if seen.is_empty() {
                    *optional || *absent || elems.iter().all(|(_, r)| !r)
                } else {
                    elems.iter().all(|(e, r)| !r || seen.contains(e))
                }
            }
            _ => false,
        }
    }

    /// Whether the whole word is in the language.
    pub fn member(&self, word: &[String]) -> bool {
        let mut s = self.start();
        for w in word {
            s = self.step(&s, w);
        }
        self.accepts(&s)
    }

    /// The names the language can read.
    pub fn alphabet(&self) -> BTreeSet<String> {
        match self {
            Lang::Nfa(n) => n.names.iter().cloned().collect(),
            Lang::All { elems, .. } => elems.iter().map(|(e, _)| e.clone()).collect(),
        }
    }

    /// The names that lead somewhere from `s`, each with the state it leads to, in name
    /// order: the cost of the state's own transitions, not of the whole alphabet.
    pub fn transitions(&self, s: &LState) -> Vec<(String, LState)> {
        match (self, s) {
            (Lang::Nfa(n), LState::Set(set)) => {
                let mut next: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
                for &c in set {
                    for (name, to) in &n.classes[c].next {
                        next.entry(n.names[*name as usize].as_str())
                            .or_default()
                            .extend(to.iter().copied());
                    }
                }
                next.into_iter()
                    .map(|(name, to)| (name.to_string(), LState::Set(to)))
                    .collect()
            }
            (Lang::All { elems, .. }, LState::Seen(_)) => {
                let mut names: Vec<&String> = elems.iter().map(|(e, _)| e).collect();
                names.sort();
                names.dedup();
                names
                    .into_iter()
                    .map(|e| (e.clone(), self.step(s, e)))
                    .filter(|(_, t)| *t != LState::Dead)
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// A shortest word, if any (starting from `from`, or the start); `must` names an
    /// element the word must contain.
    pub fn shortest(&self, must: Option<&str>) -> Option<Vec<String>> {
        if let Lang::All { elems, .. } = self {
            // The required names (in schema order) plus `must`: the smallest set.
            let mut w: Vec<String> = elems
                .iter()
                .filter(|(e, r)| *r || Some(e.as_str()) == must)
                .map(|(e, _)| e.clone())
                .collect();
            if must.is_some_and(|m| !w.iter().any(|e| e == m)) {
                return None;
            }
            if w.is_empty() && !self.accepts(&self.start()) {
                w.push(elems.first()?.0.clone());
            }
            return self.member(&w).then_some(w);
        }
        let start = (self.start(), must.is_none());
        let mut parent: HashMap<(LState, bool), ((LState, bool), String)> = HashMap::new();
        let mut seen = HashSet::new();
        let mut queue = VecDeque::new();
        seen.insert(start.clone());
        queue.push_back(start);
        while let Some(st) = queue.pop_front() {
            if st.1 && self.accepts(&st.0) {
                let mut w = Vec::new();
                let mut cur = st;
                while let Some((p, l)) = parent.get(&cur) {
                    w.push(l.clone());
                    cur = p.clone();
                }
                w.reverse();
                return Some(w);
            }
            if seen.len() > SEARCH_LIMIT {
                return None;
            }
            for (a, n) in self.transitions(&st.0) {
                let ns = (n, st.1 || Some(a.as_str()) == must);
                if seen.insert(ns.clone()) {
                    parent.insert(ns.clone(), (st.clone(), a));
                    queue.push_back(ns);
                }
            }
        }
        None
    }

    /// A random word: a random walk of up to `steps` names, then the shortest way to finish.
    pub fn random_word(&self, mut pick: impl FnMut(usize) -> usize, steps: usize) -> Vec<String> {
        let mut s = self.start();
        let mut w: Vec<String> = Vec::new();
        for _ in 0..steps {
            let mut live = self.transitions(&s);
            // One more choice than names: stop here (if the word may end here).
            let k = pick(live.len() + 1);
            if k == live.len() || live.is_empty() {
                if self.accepts(&s) {
                    return w;
                }
                continue;
            }
            let (name, next) = live.swap_remove(k);
            s = next;
            w.push(name);
        }
        // Finish by the shortest completion from here.
        let mut queue = VecDeque::from([(s.clone(), Vec::<String>::new())]);
        let mut seen = HashSet::from([s]);
        while let Some((st, suffix)) = queue.pop_front() {
            if self.accepts(&st) {
                w.extend(suffix);
                return w;
            }
            for (a, n) in self.transitions(&st) {
                if seen.insert(n.clone()) {
                    let mut sfx = suffix.clone();
                    sfx.push(a);
                    queue.push_back((n, sfx));
                }
            }
        }
        self.shortest(None).unwrap_or_default()
    }
}

/// Is every word of `a` a word of `b`?
pub fn included(a: &Lang, b: &Lang) -> WordInclusion {
    if let (
        Lang::All {
            elems: ea,
            optional: oa,
            absent: xa,
        },
        Lang::All { .. },
    ) = (a, b)
    {
        // Both `xs:all`: the words of `a` are the sets between its required names and all
        // its names (and the empty word, if allowed). `b` accepts a set iff it lies between
        // b's required names and all of b's names: checking the smallest and largest sets
        // of `a` (and, when `a` requires nothing, each single name) decides inclusion.
        let required: Vec<String> = ea.iter().filter(|e| e.1).map(|e| e.0.clone()).collect();
        let all: Vec<String> = ea.iter().map(|e| e.0.clone()).collect();
        let mut candidates: Vec<Vec<String>> = Vec::new();
        if *oa || *xa || required.is_empty() {
            candidates.push(Vec::new());
        }
        if !*xa {
            candidates.push(required.clone());
            for (e, _) in ea {
                if !required.contains(e) {
                    let mut w = required.clone();
                    w.push(e.clone());
                    candidates.push(w);
                }
            }
            candidates.push(all);
        }
        candidates.sort_by_key(Vec::len);
        for w in candidates {
            if a.member(&w) && !b.member(&w) {
                return WordInclusion::Witness(w);
            }
        }
        return WordInclusion::Proven(
            "xs:all in both: NEW allows every name OLD allows and requires only names OLD requires"
                .into(),
        );
    }
    if let Lang::All { elems, .. } = a {
        if elems.len() > 12 {
            return WordInclusion::CannotTell(format!(
                "an xs:all of {} elements against a sequence/choice: too many orders to explore",
                elems.len()
            ));
        }
    }
    let start = (a.start(), b.start());
    let mut parent: HashMap<(LState, LState), ((LState, LState), String)> = HashMap::new();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(start.clone());
    queue.push_back(start);
    while let Some(st) = queue.pop_front() {
        if a.accepts(&st.0) && !b.accepts(&st.1) {
            let mut w = Vec::new();
            let mut cur = st;
            while let Some((p, l)) = parent.get(&cur) {
                w.push(l.clone());
                cur = p.clone();
            }
            w.reverse();
            return WordInclusion::Witness(w);
        }
        // Only OLD's live names matter: a pair where OLD is dead accepts nothing.
        for (l, na) in a.transitions(&st.0) {
            let ns = (na, b.step(&st.1, &l));
            if seen.insert(ns.clone()) {
                if seen.len() > SEARCH_LIMIT {
                    return WordInclusion::CannotTell(format!(
                        "the product of the content models exceeds {SEARCH_LIMIT} states"
                    ));
                }
                parent.insert(ns.clone(), (st.clone(), l));
                queue.push_back(ns);
            }
        }
    }
    WordInclusion::Proven(
        "every sequence of child elements OLD allows, NEW allows (product automaton exhausted)"
            .into(),
    )
}

/// The declared type of each element name a particle holds (first declaration wins:
/// "Element Declarations Consistent" makes them the same).
pub fn child_types(p: &Particle, out: &mut BTreeMap<String, ElementDecl>) {
    match &p.term {
        Term::Element(e) => {
            out.entry(e.name.clone()).or_insert_with(|| e.clone());
        }
        Term::Any(_) => {}
        Term::Sequence(items) | Term::Choice(items) | Term::All(items) => {
            for i in items {
                child_types(i, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(name: &str, min: u32, max: Option<u32>) -> Particle {
        Particle {
            min,
            max,
            term: Term::Element(ElementDecl {
                name: name.into(),
                namespace: None,
                type_ref: TypeRef::Builtin(Builtin::String),
                doc: None,
                span: Span::default(),
                value: None,
                nillable: false,
                xsi_simple: None,
            }),
        }
    }

    fn seq(items: Vec<Particle>) -> Particle {
        Particle {
            min: 1,
            max: Some(1),
            term: Term::Sequence(items),
        }
    }

    fn lang(p: Particle) -> Lang {
        Lang::of(&p).unwrap()
    }

    #[test]
    fn sequences_and_choices() {
        let ab = lang(seq(vec![el("a", 1, Some(1)), el("b", 0, None)]));
        let a_or_b = lang(Particle {
            min: 1,
            max: None,
            term: Term::Choice(vec![el("a", 1, Some(1)), el("b", 1, Some(1))]),
        });
        // a b* is within (a|b)+; the reverse fails on the shortest word "b".
        assert!(matches!(included(&ab, &a_or_b), WordInclusion::Proven(_)));
        let WordInclusion::Witness(w) = included(&a_or_b, &ab) else {
            panic!()
        };
        assert_eq!(w, ["b"]);
        assert_eq!(ab.shortest(Some("b")).unwrap(), ["a", "b"]);
    }

    #[test]
    fn all_groups_by_their_extreme_sets() {
        let all = |items: Vec<Particle>| {
            lang(Particle {
                min: 1,
                max: Some(1),
                term: Term::All(items),
            })
        };
        let old = all(vec![el("x", 0, Some(1)), el("y", 0, Some(1))]);
        let new = all(vec![
            el("x", 0, Some(1)),
            el("y", 0, Some(1)),
            el("z", 0, Some(1)),
        ]);
        let strict = all(vec![el("x", 1, Some(1)), el("y", 0, Some(1))]);
        assert!(matches!(included(&old, &new), WordInclusion::Proven(_)));
        let WordInclusion::Witness(w) = included(&new, &old) else {
            panic!()
        };
        assert_eq!(w, ["z"]);
        // NEW requires x: the empty Head breaks.
        let WordInclusion::Witness(w) = included(&old, &strict) else {
            panic!()
        };
        assert!(w.is_empty());
        // xs:all against a sequence of the same names in order: only that order is kept.
        let ordered = lang(seq(vec![el("x", 0, Some(1)), el("y", 0, Some(1))]));
        let WordInclusion::Witness(w) = included(&old, &ordered) else {
            panic!()
        };
        assert_eq!(w, ["y", "x"]);
    }

    /// Positions with one future are one class: the automaton of a repeated choice of n
    /// elements has two states (the start and "after any member"), so comparing a choice of
    /// 1,000 with one of 999 visits a handful of product states, not a million.
    #[test]
    fn a_repeated_choice_is_two_states() {
        let choice = |n: usize| {
            lang(Particle {
                min: 1,
                max: None,
                term: Term::Choice((0..n).map(|i| el(&format!("e{i}"), 1, Some(1))).collect()),
            })
        };
        let (old, new) = (choice(1000), choice(999));
        let Lang::Nfa(nfa) = &old else { panic!() };
        assert_eq!(nfa.classes.len(), 2);
        assert_eq!(old.transitions(&old.start()).len(), 1000);
        let WordInclusion::Witness(w) = included(&old, &new) else {
            panic!()
        };
        assert_eq!(w, ["e999"]);
        assert!(matches!(included(&new, &old), WordInclusion::Proven(_)));
    }

    /// Unrolled bounds keep their counts: a{2,3} against a{2,4} and back.
    #[test]
    fn counted_bounds_are_compared_exactly() {
        let a = |min, max| lang(seq(vec![el("a", min, max), el("b", 0, Some(1))]));
        let (three, four) = (a(2, Some(3)), a(2, Some(4)));
        assert!(matches!(included(&three, &four), WordInclusion::Proven(_)));
        let WordInclusion::Witness(w) = included(&four, &three) else {
            panic!()
        };
        assert_eq!(w, ["a", "a", "a", "a"]);
        assert!(three.member(&["a".into(), "a".into(), "b".into()]));
        assert!(!three.member(&["a".into(), "b".into()]));
    }
}
