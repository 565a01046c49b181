//! XSD 1.1's restriction of element content by its language: Content Type Restricts
//! (1.1 Part 1, 3.4.6.4). Where XSD 1.0 maps the restriction's particles onto the base's
//! one by one (Particle Valid (Restriction), 3.9.6), XSD 1.1 asks what the particles
//! accept: every sequence of elements the restriction accepts, the base accepts too, and
//! each element goes to a term in the restriction that restricts the term it goes to in
//! the base (an element declaration to a declaration it restricts or to a wildcard, a
//! wildcard to a wildcard no weaker).
//!
//! Each content model becomes its position (Glushkov) automaton, occurrence bounds unrolled
//! into copies; `xs:all` is its own automaton (a count per member). Elements are judged as
//! symbols: every expanded name either model or one of their wildcards names, and per
//! namespace mentioned (plus one mentioned nowhere) a name mentioned nowhere, which stands
//! for all such names since no term tells them apart. A breadth-first search over pairs of
//! states, following the restriction's live transitions, finds the shortest word that
//! breaks the rule, or exhausts the pairs and proves it.
//!
//! The search is bounded: a model that unrolls to too many positions, a product with too
//! many pairs, or steps that look at too many terms in all, is not judged (the pass
//! reports only what it can prove).

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use super::components::{Compositor, Element, Particle, Term, Wildcard};
use super::QName;
use crate::positions::{unroll, Follow, Info, Unroll};

/// The largest occurrence bound unrolled.
const UNROLL_LIMIT: u64 = 1000;
/// How many positions the unrolled bounds of one model may make (a step looks at most
/// at every position's followers: the square of this).
const POSITION_LIMIT: usize = 5_000;
/// How many pairs of states a search may visit.
const PAIR_LIMIT: usize = 100_000;
/// How many candidate terms the steps of a search may look at: check stays in seconds on
/// any schema, a model beyond it not judged.
const WORK_LIMIT: u64 = 50_000_000;

/// A leaf term of a model: what an element is attributed to.
#[derive(Debug, Clone)]
pub(super) enum Leaf {
    Element(Element),
    Wildcard(Wildcard),
}

/// One element of a word: an expanded name, or a name no term mentions in namespace `.0`
/// (`fresh`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Symbol {
    name: QName,
    fresh: bool,
}

/// The namespace standing for every namespace no term mentions.
const UNMENTIONED: &str = "\u{1}unmentioned";

impl Symbol {
    fn shown(&self) -> String {
        match (&self.name.0, self.fresh) {
            (Some(ns), true) if ns == UNMENTIONED => {
                "an element of a namespace neither model names".into()
            }
            (Some(ns), true) => format!("an element of namespace {ns} that neither model names"),
            (None, true) => "an unqualified element that neither model names".into(),
            (Some(ns), false) => format!("<{{{ns}}}{}>", self.name.1),
            (None, false) => format!("<{}>", self.name.1),
        }
    }
}

/// A content model as an automaton over [`Symbol`]s.
enum Model {
    /// A sequence/choice tree: its positions, what may follow each, and where a word may
    /// end.
    Tree {
        leaves: Vec<usize>,
        lists: Vec<Vec<u32>>,
        sets: Vec<Vec<u32>>,
        last: HashSet<u32>,
        nullable: bool,
    },
    /// `xs:all` (XSD 1.1: members may repeat, wildcards allowed): each member's leaves
    /// (one, or a substitution group's declarations) and occurrence range, and whether the
    /// group may be absent.
    All {
        members: Vec<(Vec<usize>, u64, Option<u64>)>,
        optional: bool,
    },
}

/// A state: the positions reached (the start is the empty set, read as "before the
/// first"), or the count of each `xs:all` member (capped where counting further changes
/// nothing).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum State {
    Start,
    Positions(BTreeSet<u32>),
    Counts(Vec<u64>),
}

/// The models' leaves, shared by both (a leaf is found by its index).
#[derive(Default)]
struct Leaves {
    leaves: Vec<Leaf>,
    /// Per leaf: the model it belongs to (0 the restriction, 1 the base).
    model: Vec<usize>,
    /// Per model: the expanded names of its element declarations (what
    /// `##definedSibling` disallows).
    siblings: Vec<HashSet<QName>>,
    /// The candidate terms the steps have looked at so far: the search's cost, bounded
    /// by [`WORK_LIMIT`] (a few pairs of huge states cost as much as many small ones).
    work: Cell<u64>,
}

struct Builder<'l> {
    leaves: &'l mut Leaves,
    model: usize,
    positions: Vec<usize>,
    links: Follow,
}

impl Builder<'_> {
    fn leaf(&mut self, leaf: Leaf) -> usize {
        if let Leaf::Element(e) = &leaf {
            self.leaves.siblings[self.model].insert((e.namespace.clone(), e.name.clone()));
        }
        self.leaves.leaves.push(leaf);
        self.leaves.model.push(self.model);
        self.leaves.leaves.len() - 1
    }

    /// A particle with its bounds unrolled ([`unroll`]); None beyond the bounds.
    fn frag(&mut self, p: &Particle) -> Option<Info> {
        if p.min > UNROLL_LIMIT || p.max.is_some_and(|m| m > UNROLL_LIMIT) {
            return None;
        }
        unroll(self, &p.term, p.min, p.max).ok()
    }
}

/// A model beyond what is judged: too many positions, or xs:all inside a group.
struct Beyond;

impl Unroll<Term> for Builder<'_> {
    type Error = Beyond;

    fn links(&mut self) -> &mut Follow {
        &mut self.links
    }

    fn term(&mut self, t: &Term) -> Result<Info, Beyond> {
        if self.positions.len() > POSITION_LIMIT {
            return Err(Beyond);
        }
        match t {
            Term::Element(e) => {
                let leaf = self.leaf(Leaf::Element(e.clone()));
                self.positions.push(leaf);
                Ok(self.links.position())
            }
            Term::Wildcard(w) => {
                let leaf = self.leaf(Leaf::Wildcard(w.clone()));
                self.positions.push(leaf);
                Ok(self.links.position())
            }
            Term::Group(Compositor::Sequence, kids) => {
                let mut acc = Info::empty();
                for k in kids {
                    let c = self.frag(k).ok_or(Beyond)?;
                    self.links.concat(&mut acc, c);
                }
                Ok(acc)
            }
            Term::Group(Compositor::Choice, kids) => {
                // An empty choice matches nothing: not nullable.
                let mut acc = Info::default();
                for k in kids {
                    acc.or(self.frag(k).ok_or(Beyond)?);
                }
                Ok(acc)
            }
            // xs:all inside another group is reported elsewhere.
            Term::Group(Compositor::All, _) => Err(Beyond),
        }
    }
}

impl Leaves {
    /// The automaton of particle `p`, its leaves added to `self` as model `model`; None
    /// when it is too large or not a model this judges.
    fn model(&mut self, p: &Particle, model: usize) -> Option<Model> {
        while self.siblings.len() <= model {
            self.siblings.push(HashSet::new());
        }
        if let Term::Group(Compositor::All, kids) = &p.term {
            if p.max.is_some_and(|m| m > 1) {
                return None;
            }
            // maxOccurs="0" (XSD 1.1): only the empty content.
            if p.max == Some(0) {
                return Some(Model::All {
                    members: Vec::new(),
                    optional: true,
                });
            }
            let mut members = Vec::new();
            let mut stack: Vec<&Particle> = kids.iter().rev().collect();
            let mut b = Builder {
                leaves: self,
                model,
                positions: Vec::new(),
                links: Follow::default(),
            };
            while let Some(k) = stack.pop() {
                match &k.term {
                    Term::Element(e) => {
                        members.push((vec![b.leaf(Leaf::Element(e.clone()))], k.min, k.max))
                    }
                    Term::Wildcard(w) => {
                        members.push((vec![b.leaf(Leaf::Wildcard(w.clone()))], k.min, k.max))
                    }
                    // A reference to an all group inside xs:all (XSD 1.1), occurring once.
                    Term::Group(Compositor::All, inner) if k.min == 1 && k.max == Some(1) => {
                        stack.extend(inner.iter().rev())
                    }
                    // A substitution group's head: a choice of its members' declarations,
                    // each once, counted together.
                    Term::Group(Compositor::Choice, inner)
                        if inner.iter().all(|i| {
                            i.min == 1 && i.max == Some(1) && matches!(i.term, Term::Element(_))
                        }) =>
                    {
                        let mut leaves = Vec::new();
                        for i in inner {
                            if let Term::Element(e) = &i.term {
                                leaves.push(b.leaf(Leaf::Element(e.clone())));
                            }
                        }
                        members.push((leaves, k.min, k.max));
                    }
                    Term::Group(..) => return None,
                }
            }
            return Some(Model::All {
                members,
                optional: p.min == 0 || p.max == Some(0),
            });
        }
        let mut b = Builder {
            leaves: self,
            model,
            positions: Vec::new(),
            links: Follow::default(),
        };
        let root = b.frag(p)?;
        let positions = std::mem::take(&mut b.positions);
        let lists = b.links.lists(root.first);
        Some(Model::Tree {
            leaves: positions,
            // lists[0] is the start's; lists[i + 1] position i's.
            lists,
            sets: b.links.sets,
            last: root.last.into_iter().collect(),
            nullable: root.nullable,
        })
    }

    /// Whether leaf `l` takes `s`. `global`: whether the schema declares an element of
    /// that name globally (`##defined`).
    fn takes(&self, l: usize, s: &Symbol, global: &dyn Fn(&QName) -> bool) -> bool {
        match &self.leaves[l] {
            Leaf::Element(e) => !s.fresh && s.name.0 == e.namespace && s.name.1 == e.name,
            Leaf::Wildcard(w) => {
                w.namespaces.allows(&s.name.0)
                    && (s.fresh
                        || (w.allows(&s.name, global)
                            && !(w.sibling && self.siblings[self.model[l]].contains(&s.name))))
            }
        }
    }
}

impl Model {
    fn start(&self) -> State {
        match self {
            Model::Tree { .. } => State::Start,
            Model::All { members, .. } => State::Counts(vec![0; members.len()]),
        }
    }

    fn accepts(&self, s: &State) -> bool {
        match (self, s) {
            (Model::Tree { nullable, .. }, State::Start) => *nullable,
            (Model::Tree { last, .. }, State::Positions(ps)) => ps.iter().any(|p| last.contains(p)),
            (Model::All { members, optional }, State::Counts(c)) => {
                (*optional && c.iter().all(|&n| n == 0))
                    || members.iter().zip(c).all(|(m, &n)| n >= m.1)
            }
            _ => false,
        }
    }

    /// The state after `sym`, with the leaf it goes to; None when the model refuses it.
    /// An element particle wins over a wildcard (XSD 1.1's Unique Particle Attribution).
    fn step(
        &self,
        s: &State,
        sym: &Symbol,
        leaves: &Leaves,
        global: &dyn Fn(&QName) -> bool,
    ) -> Option<(State, usize)> {
        match (self, s) {
            (
                Model::Tree {
                    leaves: at,
                    lists,
                    sets,
                    ..
                },
                State::Start | State::Positions(_),
            ) => {
                let from: Vec<usize> = match s {
                    State::Positions(ps) => ps.iter().map(|&p| p as usize + 1).collect(),
                    _ => vec![0],
                };
                let mut elements = BTreeSet::new();
                let mut wildcards = BTreeSet::new();
                for f in from {
                    for &set in &lists[f] {
                        let set = &sets[set as usize];
                        leaves.work.set(leaves.work.get() + set.len() as u64);
                        for &q in set {
                            let leaf = at[q as usize];
                            if leaves.takes(leaf, sym, global) {
                                match leaves.leaves[leaf] {
                                    Leaf::Element(_) => elements.insert(q),
                                    Leaf::Wildcard(_) => wildcards.insert(q),
                                };
                            }
                        }
                    }
                }
                let next = if elements.is_empty() {
                    wildcards
                } else {
                    elements
                };
                let first = *next.iter().next()?;
                Some((State::Positions(next), at[first as usize]))
            }
            (Model::All { members, .. }, State::Counts(counts)) => {
                let open = |i: usize| members[i].2.is_none_or(|max| counts[i] < max);
                let pick = |element: bool| {
                    leaves.work.set(leaves.work.get() + members.len() as u64);
                    (0..members.len()).find_map(|i| {
                        let leaf = members[i].0.iter().copied().find(|&l| {
                            matches!(leaves.leaves[l], Leaf::Element(_)) == element
                                && leaves.takes(l, sym, global)
                        })?;
                        open(i).then_some((i, leaf))
                    })
                };
                let (i, leaf) = pick(true).or_else(|| pick(false))?;
                let mut next = counts.clone();
                // Past its minimum, an unbounded member's count no longer matters.
                next[i] = match members[i].2 {
                    None => (counts[i] + 1).min(members[i].1.max(1)),
                    Some(_) => counts[i] + 1,
                };
                Some((State::Counts(next), leaf))
            }
            _ => None,
        }
    }
}

/// Per pair of states reached, the pair it was reached from and the symbol read (by index
/// in the alphabet): the shortest word to it, read backwards.
type Parents = HashMap<(State, State), ((State, State), usize)>;

/// Why a restriction fails: the node at fault and the reason.
pub(super) type Failure = (usize, String);

/// What the caller judges of a pair of leaves an element goes to (restriction's, base's):
/// an element declaration against one of the same name.
pub(super) type DeclarationCheck<'f> = dyn Fn(&Element, &Element) -> Result<(), String> + 'f;

/// Whether the content particle `r` restricts `b` (XSD 1.1, 3.4.6.4, clauses 4.1 and
/// 4.2): Ok(true) proven, Err the shortest word that breaks it, Ok(false) not judged
/// (a model too large, or a construct this does not read).
pub(super) fn restricts(
    r: &Particle,
    b: &Particle,
    globals: &[QName],
    global: &dyn Fn(&QName) -> bool,
    declaration: &DeclarationCheck<'_>,
) -> Result<bool, Failure> {
    let mut leaves = Leaves::default();
    let (Some(rm), Some(bm)) = (leaves.model(r, 0), leaves.model(b, 1)) else {
        return Ok(false);
    };
    let alphabet = alphabet(&leaves, globals);
    let word = |parent: &Parents, mut at: (State, State)| {
        let mut w = Vec::new();
        while let Some((p, s)) = parent.get(&at) {
            w.push(*s);
            at = p.clone();
        }
        w.reverse();
        // A run of one element is written once with its count: "<a> ×12 <b>".
        let mut out: Vec<String> = Vec::new();
        for run in w.chunk_by(|x, y| x == y) {
            let shown = alphabet[run[0]].shown();
            match run.len() {
                1 => out.push(shown),
                n => out.push(format!("{shown} ×{n}")),
            }
        }
        out.join(" ")
    };
    // Where in the content a symbol comes: "as the first child" or "after <a> <b>".
    let place = |before: String| {
        if before.is_empty() {
            "as the first child".to_string()
        } else {
            format!("after {before}")
        }
    };
    let mut judged: HashMap<(usize, usize), Result<(), String>> = HashMap::new();
    let start = (rm.start(), bm.start());
    let mut parent: Parents = HashMap::new();
    let mut seen: HashSet<(State, State)> = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    while let Some(pair) = queue.pop_front() {
        if leaves.work.get() > WORK_LIMIT {
            return Ok(false);
        }
        if rm.accepts(&pair.0) && !bm.accepts(&pair.1) {
            return Err((
                r.node,
                format!(
                    "the restriction accepts the content \"{}\", which the base type's content model does not accept (it needs more)",
                    word(&parent, pair)
                ),
            ));
        }
        for (si, sym) in alphabet.iter().enumerate() {
            if leaves.work.get() > WORK_LIMIT {
                return Ok(false);
            }
            let Some((rs, rl)) = rm.step(&pair.0, sym, &leaves, global) else {
                continue;
            };
            let Some((bs, bl)) = bm.step(&pair.1, sym, &leaves, global) else {
                let at = place(word(&parent, pair.clone()));
                return Err((
                    r.node,
                    format!(
                        "the restriction accepts {} {at}, where the base type's content model does not",
                        sym.shown()
                    ),
                ));
            };
            let verdict = judged.entry((rl, bl)).or_insert_with(|| {
                leaf_restricts(&leaves.leaves[rl], &leaves.leaves[bl], declaration)
            });
            if let Err(why) = verdict {
                let at = place(word(&parent, pair.clone()));
                return Err((r.node, format!("{} {at}: {why}", sym.shown())));
            }
            let next = (rs, bs);
            if seen.insert(next.clone()) {
                if seen.len() > PAIR_LIMIT {
                    return Ok(false);
                }
                parent.insert(next.clone(), (pair.clone(), si));
                queue.push_back(next);
            }
        }
    }
    Ok(true)
}

/// Clause 4.2: the term an element goes to in the restriction restricts the one it goes
/// to in the base.
fn leaf_restricts(r: &Leaf, b: &Leaf, declaration: &DeclarationCheck<'_>) -> Result<(), String> {
    match (r, b) {
        (Leaf::Element(re), Leaf::Element(be)) => declaration(re, be),
        // A wildcard of the base allows the name (the step found it); its declaration is
        // whatever validation finds.
        (Leaf::Element(_), Leaf::Wildcard(_)) => Ok(()),
        (Leaf::Wildcard(_), Leaf::Element(be)) => Err(format!(
            "the restriction's wildcard takes it, where the base type gives it to its element declaration \"{}\"",
            be.name
        )),
        (Leaf::Wildcard(rw), Leaf::Wildcard(bw)) => {
            if rw.process < bw.process {
                let name = |p: u8| ["skip", "lax", "strict"][usize::from(p.min(2))];
                Err(format!(
                    "the restriction's wildcard has processContents \"{}\", weaker than the base wildcard's \"{}\"",
                    name(rw.process),
                    name(bw.process)
                ))
            } else {
                Ok(())
            }
        }
    }
}

/// The symbols that tell the models apart: every name a leaf mentions, the names of the
/// global element declarations `globals` when a wildcard says `##defined` (it tells them
/// from the names nobody mentions), and per namespace mentioned, plus one mentioned
/// nowhere, a fresh name.
fn alphabet(leaves: &Leaves, globals: &[QName]) -> Vec<Symbol> {
    let mut names: BTreeSet<QName> = BTreeSet::new();
    let mut spaces: BTreeSet<Option<String>> = BTreeSet::from([None]);
    for l in &leaves.leaves {
        match l {
            Leaf::Element(e) => {
                names.insert((e.namespace.clone(), e.name.clone()));
                spaces.insert(e.namespace.clone());
            }
            Leaf::Wildcard(w) => {
                names.extend(w.names.iter().cloned());
                spaces.extend(w.names.iter().map(|n| n.0.clone()));
                match &w.namespaces {
                    super::components::Namespaces::Any => {}
                    super::components::Namespaces::Not(s)
                    | super::components::Namespaces::Set(s) => spaces.extend(s.iter().cloned()),
                }
            }
        }
    }
    if leaves
        .leaves
        .iter()
        .any(|l| matches!(l, Leaf::Wildcard(w) if w.defined))
    {
        names.extend(globals.iter().cloned());
        spaces.extend(globals.iter().map(|n| n.0.clone()));
    }
    spaces.insert(Some(UNMENTIONED.into()));
    let mut out: Vec<Symbol> = names
        .into_iter()
        .map(|name| Symbol { name, fresh: false })
        .collect();
    out.extend(spaces.into_iter().map(|ns| Symbol {
        name: (ns, String::new()),
        fresh: true,
    }));
    out
}
