//! Content models as languages over element names.
//!
//! A particle tree becomes a Thompson NFA (occurrence bounds unrolled), determinised lazily
//! (subset construction, only the states a search reaches). `xs:all` is its own language:
//! a set of names seen so far. Inclusion L(OLD) ⊆ L(NEW) is decided breadth first over the
//! product of the two: a reachable pair where OLD accepts and NEW does not spells the
//! shortest word OLD allows and NEW refuses; exhausting the product proves inclusion.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use crate::ir::*;

/// The largest occurrence bound unrolled; beyond it the tool says it cannot tell.
const UNROLL_LIMIT: u32 = 1000;
/// How many product states a search may visit.
const SEARCH_LIMIT: usize = 200_000;
/// How many NFA states unrolled occurrence bounds may make (nested bounds multiply).
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

/// A Thompson NFA over element names.
#[derive(Debug, Clone, Default)]
pub struct Nfa {
    eps: Vec<Vec<usize>>,
    edges: Vec<Vec<(String, usize)>>,
    start: usize,
    accept: usize,
}

/// A state of a lazily determinised [`Lang`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LState {
    /// The set of NFA states.
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

impl Nfa {
    fn node(&mut self) -> usize {
        self.eps.push(Vec::new());
        self.edges.push(Vec::new());
        self.eps.len() - 1
    }

    fn frag(&mut self, p: &Particle) -> Result<(usize, usize), String> {
        if self.eps.len() > NODE_LIMIT {
            return Err(format!(
                "the content model unrolls to more than {NODE_LIMIT} automaton states"
            ));
        }
        if p.min > UNROLL_LIMIT || p.max.is_some_and(|m| m > UNROLL_LIMIT) {
            return Err(format!(
                "an occurrence bound above {UNROLL_LIMIT} is not unrolled"
            ));
        }
        let s = self.node();
        let mut cur = s;
        for _ in 0..p.min {
            let (a, b) = self.term(&p.term)?;
            self.eps[cur].push(a);
            cur = b;
        }
        match p.max {
            None => {
                let (a, b) = self.term(&p.term)?;
                self.eps[cur].push(a);
                self.eps[b].push(cur);
                let e = self.node();
                self.eps[cur].push(e);
                Ok((s, e))
            }
            Some(max) => {
                let e = self.node();
                self.eps[cur].push(e);
                for _ in p.min..max {
                    let (a, b) = self.term(&p.term)?;
                    self.eps[cur].push(a);
                    self.eps[b].push(e);
                    cur = b;
                }
                Ok((s, e))
            }
        }
    }

    fn term(&mut self, t: &Term) -> Result<(usize, usize), String> {
        match t {
            Term::Element(e) => {
                let (a, b) = (self.node(), self.node());
                self.edges[a].push((e.name.clone(), b));
                Ok((a, b))
            }
            // A wildcard is a set of names, not one: comparing it as a symbol would claim
            // witnesses that are not (an element the other model's wildcard takes), so the
            // tool says it cannot tell.
            Term::Any(_) => {
                Err("content models with element wildcards (xs:any) are not compared yet".into())
            }
            Term::Sequence(items) => {
                let s = self.node();
                let mut cur = s;
                for i in items {
                    let (a, b) = self.frag(i)?;
                    self.eps[cur].push(a);
                    cur = b;
                }
                Ok((s, cur))
            }
            Term::Choice(items) => {
                let (s, e) = (self.node(), self.node());
                for i in items {
                    let (a, b) = self.frag(i)?;
                    self.eps[s].push(a);
                    self.eps[b].push(e);
                }
                Ok((s, e))
            }
            Term::All(_) => Err("xs:all nested in another group".into()),
        }
    }

    fn closure(&self, set: impl IntoIterator<Item = usize>) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        let mut stack: Vec<usize> = set.into_iter().collect();
        while let Some(s) = stack.pop() {
            if out.insert(s) {
                stack.extend(self.eps[s].iter().copied());
            }
        }
        out
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
        let mut nfa = Nfa::default();
        let (s, e) = nfa.frag(p)?;
        nfa.start = s;
        nfa.accept = e;
        Ok(Lang::Nfa(nfa))
    }

    /// The language of no content at all.
    pub fn empty() -> Lang {
        let mut nfa = Nfa::default();
        let s = nfa.node();
        nfa.start = s;
        nfa.accept = s;
        Lang::Nfa(nfa)
    }

    /// The start state.
    pub fn start(&self) -> LState {
        match self {
            Lang::Nfa(n) => LState::Set(n.closure([n.start])),
            Lang::All { .. } => LState::Seen(BTreeSet::new()),
        }
    }

    /// The state after `name`.
    pub fn step(&self, s: &LState, name: &str) -> LState {
        match (self, s) {
            (Lang::Nfa(n), LState::Set(set)) => {
                let next: Vec<usize> = set
                    .iter()
                    .flat_map(|&q| {
                        n.edges[q]
                            .iter()
                            .filter(|(l, _)| l == name)
                            .map(|(_, t)| *t)
                    })
                    .collect();
                if next.is_empty() {
                    LState::Dead
                } else {
                    LState::Set(n.closure(next))
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
            (Lang::Nfa(n), LState::Set(set)) => set.contains(&n.accept),
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
            Lang::Nfa(n) => n.edges.iter().flatten().map(|(l, _)| l.clone()).collect(),
            Lang::All { elems, .. } => elems.iter().map(|(e, _)| e.clone()).collect(),
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
        let alphabet: Vec<String> = self.alphabet().into_iter().collect();
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
            for a in &alphabet {
                let n = self.step(&st.0, a);
                if n == LState::Dead {
                    continue;
                }
                let ns = (n, st.1 || Some(a.as_str()) == must);
                if seen.insert(ns.clone()) {
                    parent.insert(ns.clone(), (st.clone(), a.clone()));
                    queue.push_back(ns);
                }
            }
        }
        None
    }

    /// A random word: a random walk of up to `steps` names, then the shortest way to finish.
    pub fn random_word(&self, mut pick: impl FnMut(usize) -> usize, steps: usize) -> Vec<String> {
        let alphabet: Vec<String> = self.alphabet().into_iter().collect();
        let mut s = self.start();
        let mut w: Vec<String> = Vec::new();
        for _ in 0..steps {
            let live: Vec<&String> = alphabet
                .iter()
                .filter(|a| self.step(&s, a) != LState::Dead)
                .collect();
            // One more choice than names: stop here (if the word may end here).
            let k = pick(live.len() + 1);
            if k == live.len() || live.is_empty() {
                if self.accepts(&s) {
                    return w;
                }
                continue;
            }
            s = self.step(&s, live[k]);
            w.push(live[k].clone());
        }
        // Finish by the shortest completion from here.
        let mut queue = VecDeque::from([(s.clone(), Vec::<String>::new())]);
        let mut seen = HashSet::from([s]);
        while let Some((st, suffix)) = queue.pop_front() {
            if self.accepts(&st) {
                w.extend(suffix);
                return w;
            }
            for a in &alphabet {
                let n = self.step(&st, a);
                if n != LState::Dead && seen.insert(n.clone()) {
                    let mut sfx = suffix.clone();
                    sfx.push(a.clone());
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
    let alphabet: Vec<String> = a.alphabet().union(&b.alphabet()).cloned().collect();
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
        for l in &alphabet {
            let na = a.step(&st.0, l);
            if na == LState::Dead {
                continue;
            }
            let ns = (na, b.step(&st.1, l));
            if seen.insert(ns.clone()) {
                if seen.len() > SEARCH_LIMIT {
                    return WordInclusion::CannotTell(format!(
                        "the product of the content models exceeds {SEARCH_LIMIT} states"
                    ));
                }
                parent.insert(ns.clone(), (st.clone(), l.clone()));
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
}
