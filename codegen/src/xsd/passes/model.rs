//! Content-model constraints checked at generation time, on the position (Glushkov)
//! automaton of a complex type's particle tree: Unique Particle Attribution (XSD 1.0, 3.8.6:
//! no element may match two particles at one point) and Element Declarations Consistent
//! (3.8.6: elements of one name in one content model have one type).
//!
//! These also make the runtime's reading exact: it reads a content model greedily, one
//! child of look-ahead, which is correct when the model is deterministic. The one
//! deterministic shape it cannot read greedily (a repetition that must occur at least twice
//! around a repetition that can end it and start it again, `(a{1,3}){2}`: counters, not
//! particles, are ambiguous) is reported as not supported rather than misread.

use crate::ir::{NamespaceConstraint, Particle, Span, Term, TypeRef, Wildcard};

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
    /// wildcard that allows its namespace, or two wildcards that share a namespace).
    fn overlaps(&self, other: &Position<'_>) -> bool {
        match (self.wildcard, other.wildcard) {
            (None, None) => self.name == other.name,
            (Some(w), None) => w.allows(other.namespace),
            (None, Some(w)) => w.allows(self.namespace),
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

#[derive(Clone, Default)]
struct Info {
    nullable: bool,
    first: Vec<usize>,
    last: Vec<usize>,
}

#[derive(Default)]
struct Automaton<'p> {
    positions: Vec<Position<'p>>,
    follow: Vec<Vec<usize>>,
    problems: Vec<ModelProblem>,
}

fn extend(into: &mut Vec<usize>, from: &[usize]) {
    for &x in from {
        if !into.contains(&x) {
            into.push(x);
        }
    }
}

fn meets(a: &[usize], b: &[usize]) -> bool {
    a.iter().any(|x| b.contains(x))
}

impl<'p> Automaton<'p> {
    /// A particle that is one position (an element or a wildcard): it is its own first
    /// and last, and never empty.
    fn position(&mut self, position: Position<'p>) -> Info {
        let i = self.positions.len();
        self.positions.push(position);
        self.follow.push(Vec::new());
        Info {
            nullable: false,
            first: vec![i],
            last: vec![i],
        }
    }

    /// The particle's first and last positions and whether it can be empty, adding its
    /// follow edges; `repeated` collects the (first, last) of every repeated particle in it.
    fn walk(&mut self, p: &'p Particle, repeated: &mut Vec<(Vec<usize>, Vec<usize>)>) -> Info {
        let mut inner_repeated = Vec::new();
        let mut info = match &p.term {
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
                let mut acc = Info {
                    nullable: true,
                    ..Info::default()
                };
                for item in items {
                    let c = self.walk(item, &mut inner_repeated);
                    for &l in &acc.last {
                        extend(&mut self.follow[l], &c.first);
                    }
                    if acc.nullable {
                        extend(&mut acc.first, &c.first);
                    }
                    if c.nullable {
                        extend(&mut acc.last, &c.last);
                    } else {
                        acc.last = c.last;
                    }
                    acc.nullable &= c.nullable;
                }
                acc
            }
            Term::Choice(items) => {
                // An empty choice matches nothing (XSD 1.0, 3.8.4): not nullable.
                let mut acc = Info::default();
                for item in items {
                    let c = self.walk(item, &mut inner_repeated);
                    extend(&mut acc.first, &c.first);
                    extend(&mut acc.last, &c.last);
                    acc.nullable |= c.nullable;
                }
                acc
            }
            Term::All(items) => {
                let children: Vec<Info> = items
                    .iter()
                    .map(|i| self.walk(i, &mut inner_repeated))
                    .collect();
                let mut acc = Info {
                    nullable: true,
                    ..Info::default()
                };
                for (i, c) in children.iter().enumerate() {
                    extend(&mut acc.first, &c.first);
                    extend(&mut acc.last, &c.last);
                    acc.nullable &= c.nullable;
                    for (j, d) in children.iter().enumerate() {
                        if i != j {
                            for &l in &c.last {
                                extend(&mut self.follow[l], &d.first);
                            }
                        }
                    }
                }
                acc
            }
        };
        let repeats = p.max != Some(1);
        if repeats {
            for &l in &info.last.clone() {
                extend(&mut self.follow[l], &info.first);
            }
            if p.min >= 2 {
                for (first, last) in &inner_repeated {
                    if meets(first, &info.first) && meets(last, &info.last) {
                        let x = first.iter().find(|x| info.first.contains(x)).copied();
                        let span = x.map_or(Span::default(), |x| self.positions[x].span);
                        let name = x.map_or(String::new(), |x| self.positions[x].what());
                        self.problems.push(ModelProblem {
                            span,
                            message: format!(
                                "{name} may either repeat an inner particle or start the next of at least {} occurrences of an outer one; reading such counted repetitions is not supported yet",
                                p.min
                            ),
                            hint: Some("lower the outer minOccurs to 0 or 1, or make the inner particle occur once".into()),
                            invalid: false,
                        });
                    }
                }
            }
        }
        if p.min == 0 {
            info.nullable = true;
        }
        if repeats {
            inner_repeated.push((info.first.clone(), info.last.clone()));
        }
        repeated.extend(inner_repeated);
        info
    }

    /// Two positions of one name among `set` (the positions that may come next).
    fn check_set(&mut self, set: &[usize], reported: &mut Vec<(usize, usize)>) {
        for (k, &a) in set.iter().enumerate() {
            for &b in &set[k + 1..] {
                let (a, b) = if self.positions[a].span <= self.positions[b].span {
                    (a, b)
                } else {
                    (b, a)
                };
                if a != b
                    && self.positions[a].overlaps(&self.positions[b])
                    && !reported.contains(&(a, b))
                {
                    reported.push((a, b));
                    let (pa, pb) = (&self.positions[a], &self.positions[b]);
                    let both_elements = pa.wildcard.is_none() && pb.wildcard.is_none();
                    if !both_elements {
                        let message = format!(
                            "the content model is ambiguous: an element could match this particle, {}, or the one at {}:{}, {} (Unique Particle Attribution, XSD 1.0 3.8.6)",
                            pb.what(), pa.span.line, pa.span.column, pa.what()
                        );
                        let hint = "make the model deterministic: one child element must decide which particle it matches (narrow the wildcard's namespace=)";
                        self.problems
                            .push(ModelProblem::invalid(pb.span, message, hint));
                        continue;
                    }
                    let message = format!(
                        "the content model is ambiguous: an element <{}> could match this particle or the one at {}:{} (Unique Particle Attribution, XSD 1.0 3.8.6)",
                        pb.name, pa.span.line, pa.span.column
                    );
                    let hint = "make the model deterministic: one child element must decide which particle it matches";
                    self.problems
                        .push(ModelProblem::invalid(pb.span, message, hint));
                }
            }
        }
    }
}

/// Checks one complex type's content model.
pub fn check(p: &Particle) -> Vec<ModelProblem> {
    let mut a = Automaton::default();
    let mut repeated = Vec::new();
    let root = a.walk(p, &mut repeated);
    let mut reported = Vec::new();
    a.check_set(&root.first, &mut reported);
    for i in 0..a.follow.len() {
        let set = a.follow[i].clone();
        a.check_set(&set, &mut reported);
    }
    // Element Declarations Consistent: one name, one type.
    for i in 0..a.positions.len() {
        if a.positions[i].wildcard.is_some() {
            continue;
        }
        if let Some(j) = (0..i).find(|&j| {
            a.positions[j].wildcard.is_none() && a.positions[j].name == a.positions[i].name
        }) {
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
    }
    a.problems
}
