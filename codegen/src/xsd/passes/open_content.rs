//! XSD 1.1's open content (Part 1, 3.4.2.3.3 and 3.4.4.2): a complex type's
//! `xs:openContent`, or its schema document's `xs:defaultOpenContent`, lets elements its
//! wildcard allows stand among the children its content model takes (`interleave`) or
//! after them (`suffix`). An element goes to the content model wherever the model can take
//! it, and to the open content's wildcard only where it cannot.
//!
//! The conversion notes each complex type's open content (its own, or its document's
//! default) and what it extends ([`Converter::note_open_content`]); once every derivation
//! is resolved, [`Converter::apply_open_content`] works out each type's open content (an
//! extension keeps its base's, and unites its own wildcard with it) and writes it into the
//! type's content model as ordinary wildcard particles, so that generated code reads, holds
//! and writes the open content's elements where they stand, as it does any wildcard's:
//!
//! - `suffix`: the model, then the wildcard repeated without bound (after an `xs:all`,
//!   generated code reads the group, then the wildcard: `Content::AllThenSuffix`);
//! - `interleave`: the wildcard repeated without bound before the model and after each of
//!   its particles (and between the occurrences of a repeated one), each such wildcard
//!   disallowing what the model can take at that place (the names of the elements, and the
//!   namespaces of the model's own wildcards, that may come next), since the model takes
//!   those; in an `xs:all`, one more member, the wildcard disallowing the group's elements.
//!
//! Taken as approximations, each erring toward the content model: where an element could
//! come next only had the count of a repetition not run out (a third `<a>` where two are
//! allowed), it goes to the model, and so is an error, not open content; likewise an
//! element a model's wildcard allows by its namespace, whatever names that wildcard
//! disallows, and, in an `xs:all`, an element of the group already present.

use std::collections::{HashMap, HashSet};

use xsd_parser::models::schema::xs;

use super::adapter::{Item, What};
use super::{wildcard, Converter};
use crate::ir::*;

/// How open content's elements stand among the model's (`mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Interleave,
    Suffix,
}

/// An open content: its mode and wildcard.
#[derive(Debug, Clone)]
struct Open {
    mode: Mode,
    wildcard: Wildcard,
    /// Where its `xs:openContent` or `xs:defaultOpenContent` stands.
    span: Span,
}

/// What the conversion notes of a complex type with complex content.
#[derive(Debug, Clone, Default)]
struct Noted {
    /// Its own open content: that of its `xs:openContent` (`None` for `mode="none"`),
    /// else its document's default where that applies, else none.
    own: Option<Open>,
    /// The type it extends, if it is an extension of a named type.
    extends: Option<String>,
    /// The type it restricts, if it is a restriction of a named type.
    restricts: Option<String>,
    /// Whether its explicit content is empty (then where open content stands makes no
    /// difference).
    explicit_empty: bool,
    /// Which document it stands in.
    doc: usize,
}

/// The open content the conversion notes, by type.
#[derive(Debug, Default)]
pub(super) struct OpenContents {
    types: HashMap<String, Noted>,
    /// Each document's `xs:defaultOpenContent` (with its `appliesToEmpty`), once looked for.
    defaults: HashMap<usize, Option<(Open, bool)>>,
}

impl<'a> Converter<'a> {
    /// Notes the open content of the complex type `owner` (complex content, not simple):
    /// its `xs:openContent` among `children` (of the complex type, or of its derivation),
    /// else its document's `xs:defaultOpenContent` if its explicit content is not empty
    /// (`explicit_empty`) or the default applies to empty content too; and the named type
    /// it derives from (`base`: the name, and whether by extension).
    pub(super) fn note_open_content(
        &mut self,
        owner: &str,
        children: &[Item<'a>],
        explicit_empty: bool,
        base: Option<(String, bool)>,
    ) {
        let (extends, restricts) = match base {
            Some((b, true)) => (Some(b), None),
            Some((b, false)) => (None, Some(b)),
            None => (None, None),
        };
        let own = children.iter().find_map(|c| match c.what {
            What::OpenContent(o) => Some((o, *c)),
            _ => None,
        });
        let own = match own {
            Some((o, at)) => {
                if matches!(o.mode, xs::OpenContentModeType::None) && o.any.is_some() {
                    let span = self.span(at);
                    self.invalid(
                        span,
                        "xs:openContent",
                        "open content with mode=\"none\" has no wildcard",
                        Some(
                            "XSD 1.1 Part 1, 3.4.3 (src-ct.6, W3C bug 7069): leave out the xs:any"
                                .into(),
                        ),
                    );
                }
                self.open(&o.mode, o.any.as_ref(), at)
            }
            None => match self.default_open_content() {
                Some((open, applies_to_empty)) if applies_to_empty || !explicit_empty => Some(open),
                _ => None,
            },
        };
        if own.is_none() && extends.is_none() {
            return;
        }
        let doc = self.doc;
        self.open_contents.types.insert(
            owner.to_string(),
            Noted {
                own,
                extends,
                restricts,
                explicit_empty,
                doc,
            },
        );
    }

    /// The current document's `xs:defaultOpenContent`, with its `appliesToEmpty`.
    fn default_open_content(&mut self) -> Option<(Open, bool)> {
        // An overriding component's are those of the document it overrides.
        let doc = self.defaults_doc.unwrap_or(self.doc);
        if let Some(found) = self.open_contents.defaults.get(&doc) {
            return found.clone();
        }
        let root = self.roots.iter().find(|r| r.doc == doc).copied();
        let found = root.and_then(|root| {
            self.children(root).into_iter().find_map(|c| match c.what {
                What::DefaultOpenContent(d) => {
                    let mode = match d.mode {
                        xs::DefaultOpenContentModeType::Interleave => Mode::Interleave,
                        xs::DefaultOpenContentModeType::Suffix => Mode::Suffix,
                    };
                    let open = self.open_of(mode, Some(&d.any), c)?;
                    Some((open, d.applies_to_empty))
                }
                _ => None,
            })
        });
        self.open_contents.defaults.insert(doc, found.clone());
        found
    }

    /// An `xs:openContent` (at `at`) as what it gives: `None` for `mode="none"`.
    fn open(
        &mut self,
        mode: &xs::OpenContentModeType,
        any: Option<&xs::WildcardType>,
        at: Item<'a>,
    ) -> Option<Open> {
        let mode = match mode {
            xs::OpenContentModeType::None => return None,
            xs::OpenContentModeType::Interleave => Mode::Interleave,
            xs::OpenContentModeType::Suffix => Mode::Suffix,
        };
        self.open_of(mode, any, at)
    }

    /// Open content of `mode` with the wildcard `any` (none: the markup checks report a
    /// missing one, where the mode is not `none`).
    fn open_of(
        &mut self,
        mode: Mode,
        any: Option<&xs::WildcardType>,
        at: Item<'a>,
    ) -> Option<Open> {
        let any = any?;
        let span = self.span(at);
        let target = self.namespaces.target.clone();
        // xsd-parser does not read notQName here: it is read from the tree's xs:any.
        let tree = &self.docs[at.doc].tree;
        let any_node = tree.nodes[at.node]
            .children
            .iter()
            .copied()
            .find(|&c| tree.nodes[c].is("any"));
        let disallowed = any_node
            .map(|node| wildcard::disallowed(self, Item { node, ..at }, "element"))
            .unwrap_or_default();
        let wildcard = Wildcard {
            namespaces: wildcard::namespace_constraint(
                any.namespace.as_ref(),
                any.not_namespace.as_ref(),
                target.as_deref(),
            ),
            disallowed,
            process: match any.process_contents {
                xs::ProcessContentsType::Strict => ProcessContents::Strict,
                xs::ProcessContentsType::Lax => ProcessContents::Lax,
                xs::ProcessContentsType::Skip => ProcessContents::Skip,
            },
            span,
        };
        Some(Open {
            mode,
            wildcard,
            span,
        })
    }

    /// Writes each noted type's open content into its content model (see the module's
    /// documentation), once every derivation is resolved.
    pub(super) fn apply_open_content(&mut self) {
        let mut names: Vec<String> = self.open_contents.types.keys().cloned().collect();
        names.sort();
        let mut resolved: HashMap<String, Option<Open>> = HashMap::new();
        let mut narrowed = Vec::new();
        // The restrictions whose own content model accepts only emptiness, before their
        // open content is written in: their content is the open content's elements alone.
        let empty_models: HashSet<String> = names
            .iter()
            .filter(|n| self.open_contents.types[*n].restricts.is_some())
            .filter(|n| match self.schema.types.get(*n).map(|t| &t.kind) {
                Some(TypeKind::Complex(ct)) => match &ct.content {
                    Content::Empty => true,
                    Content::Elements(p) | Content::Mixed(p) => p.allows_only_emptiness(),
                    Content::Simple(_) => false,
                },
                _ => false,
            })
            .cloned()
            .collect();
        for name in names {
            let open = self.effective_open_content(&name, &mut resolved, &mut narrowed);
            let Some(open) = open else { continue };
            let doc = self.open_contents.types[&name].doc;
            let Some(TypeDef {
                kind: TypeKind::Complex(ct),
                ..
            }) = self.schema.types.get_mut(&name)
            else {
                continue;
            };
            if let Err(why) = open_up(&mut ct.content, &open) {
                self.set_doc(doc);
                self.unsupported(open.span, "xs:openContent", why, None);
                self.failed.insert(name);
            }
        }
        let mut names: Vec<&String> = self.open_contents.types.keys().collect();
        names.sort();
        for name in names {
            let noted = &self.open_contents.types[name];
            let (Some(base), Some(own)) = (&noted.restricts, &noted.own) else {
                continue;
            };
            let base_open = resolved.get(base).cloned().flatten();
            let why = if empty_models.contains(name) {
                // Only the open content's elements, in either mode: the base must take any
                // number of them.
                let base_model = match self.schema.types.get(base).map(|t| &t.kind) {
                    Some(TypeKind::Complex(ct)) => match &ct.content {
                        Content::Elements(p) | Content::Mixed(p) => Some(p),
                        _ => None,
                    },
                    _ => None,
                };
                open_elements_restrict(own, base_open.as_ref(), base_model)
            } else {
                restriction_widens(own, base_open.as_ref(), noted.explicit_empty)
            };
            if let Some(why) = why {
                narrowed.push((name.clone(), noted.doc, own.span, why));
            }
        }
        for (name, doc, span, why) in narrowed {
            self.set_doc(doc);
            self.invalid(
                span,
                format!("complexType \"{name}\""),
                why.0,
                Some(why.1.into()),
            );
            self.failed.insert(name);
        }
        self.set_doc(0);
    }

    /// The open content of the noted type `name`: its own; for an extension, its base's
    /// where it has none, else its own mode with the union of the two wildcards (Part 1,
    /// 3.4.2.3.3, clause 6). The chain of bases is walked without recursion, each type's
    /// answer kept in `resolved`.
    /// An extension whose own open content is a suffix, of a base whose open content is
    /// interleaved, is invalid: it is noted in `narrowed`.
    fn effective_open_content(
        &self,
        name: &str,
        resolved: &mut HashMap<String, Option<Open>>,
        narrowed: &mut Vec<Narrowed>,
    ) -> Option<Open> {
        // The chain from `name` up to the first type already resolved or not noted.
        let mut chain = Vec::new();
        let mut seen = HashSet::new();
        let mut at = Some(name.to_string());
        while let Some(n) = at {
            if resolved.contains_key(&n) || !seen.insert(n.clone()) {
                break;
            }
            let Some(noted) = self.open_contents.types.get(&n) else {
                break;
            };
            at = noted.extends.clone();
            chain.push(n);
        }
        for n in chain.into_iter().rev() {
            let noted = &self.open_contents.types[&n];
            let base = noted
                .extends
                .as_ref()
                .and_then(|b| resolved.get(b).cloned().flatten());
            let open = match (noted.own.clone(), base) {
                (own, None) => own,
                (None, Some(base)) => Some(base),
                (Some(own), Some(base)) => {
                    if base.mode == Mode::Interleave && own.mode == Mode::Suffix {
                        narrowed.push((
                            n.clone(),
                            noted.doc,
                            own.span,
                            (
                                "the type extends a type whose open content is interleaved, and its own open content is a suffix: an extension may not narrow where open content stands".into(),
                                "XSD 1.1 Part 1, 3.4.6.2 (cos-ct-extends.1.4.3.2.2.3): say mode=\"interleave\"",
                            ),
                        ));
                    }
                    Some(Open {
                        wildcard: Wildcard {
                            namespaces: wildcard::union(
                                &own.wildcard.namespaces,
                                &base.wildcard.namespaces,
                            ),
                            ..own.wildcard
                        },
                        ..own
                    })
                }
            };
            resolved.insert(n, open);
        }
        resolved.get(name).cloned().flatten()
    }
}

/// A derivation whose open content breaks a rule of derivation: the type, its document,
/// where its open content stands, and the error with the clause it breaks.
type Narrowed = (String, usize, Span, (String, &'static str));

/// Why the open content `own` of a restriction lets in what its base's (`base`) does not
/// (XSD 1.1 Part 1, 3.4.6.4, Content Type Restricts, clause 1.3 with 3.10.6.2): `None`
/// if it does not. `explicit_empty`: the restriction's own content model is empty.
fn restriction_widens(
    own: &Open,
    base: Option<&Open>,
    explicit_empty: bool,
) -> Option<(String, &'static str)> {
    const CLAUSE: &str = "XSD 1.1 Part 1, 3.4.6.4 (cos-content-act-restrict): a restriction accepts nothing its base does not";
    let Some(base) = base else {
        return Some((
            "the type restricts a type without open content, and has open content of its own"
                .into(),
            CLAUSE,
        ));
    };
    // Interleaved or after nothing: the same.
    if base.mode == Mode::Suffix && own.mode == Mode::Interleave && !explicit_empty {
        return Some((
            "the type's open content is interleaved, where its base's is a suffix".into(),
            CLAUSE,
        ));
    }
    let within = wildcard::intersection(&own.wildcard.namespaces, &base.wildcard.namespaces)
        == own.wildcard.namespaces;
    if !within {
        return Some((
            "the wildcard of the type's open content allows namespaces its base's does not".into(),
            CLAUSE,
        ));
    }
    if strength(own.wildcard.process) < strength(base.wildcard.process) {
        return Some((
            "the wildcard of the type's open content assesses what it takes more weakly than its base's (processContents)".into(),
            CLAUSE,
        ));
    }
    None
}

/// [`restriction_widens`] for a restriction whose own content model accepts only
/// emptiness, so that its content is any number of its open content's elements, in
/// either mode (XSD 1.1 Part 1, 3.4.6.4, judged on the languages: the suite's open021,
/// open022). The base takes them where its open content's wildcard, in either mode, or a
/// repeated wildcard its model may hold alone (`base_model`), takes every one of them,
/// and its model accepts nothing as well.
fn open_elements_restrict(
    own: &Open,
    base: Option<&Open>,
    base_model: Option<&Particle>,
) -> Option<(String, &'static str)> {
    const CLAUSE: &str = "XSD 1.1 Part 1, 3.4.6.4 (cos-content-act-restrict): a restriction accepts nothing its base does not";
    let nullable = base_model.is_none_or(|p| p.min == 0 || p.term.can_be_empty());
    let takes = |w: &Wildcard| {
        nullable
            && wildcard::intersection(&own.wildcard.namespaces, &w.namespaces)
                == own.wildcard.namespaces
            && strength(own.wildcard.process) >= strength(w.process)
            && w.disallowed.is_empty()
    };
    if let Some(base) = base {
        return (!takes(&base.wildcard)).then(|| {
            (
                "the elements the type's open content takes are not all taken by its base's".into(),
                CLAUSE,
            )
        });
    }
    // The base's model: a wildcard that repeats without bound, alone in groups that occur
    // once.
    let mut p = base_model;
    let mut repeated_wildcard = None;
    while let Some(at) = p {
        match &at.term {
            Term::Any(w) if at.max.is_none() => repeated_wildcard = Some(w),
            Term::Sequence(items) | Term::Choice(items) | Term::All(items)
                if items.len() == 1 && at.max == Some(1) =>
            {
                p = items.first();
                continue;
            }
            _ => {}
        }
        break;
    }
    match repeated_wildcard {
        Some(w) if takes(w) => None,
        _ => Some((
            "the type restricts a type without open content, and has open content of its own"
                .into(),
            CLAUSE,
        )),
    }
}

/// How strongly a wildcard assesses what it takes: a restriction may not be weaker.
fn strength(p: ProcessContents) -> u8 {
    match p {
        ProcessContents::Skip => 0,
        ProcessContents::Lax => 1,
        ProcessContents::Strict => 2,
    }
}

/// `content` with the open content `open` written into it; why not, where it cannot be.
fn open_up(content: &mut Content, open: &Open) -> Result<(), String> {
    let mut open = open.clone();
    if open.wildcard.disallowed.sibling {
        // `##definedSibling`: the names of the model's element declarations.
        if let Content::Elements(p) | Content::Mixed(p) = content {
            let mut names = Vec::new();
            element_names(p, &mut names);
            open.wildcard.disallowed.add(names);
        }
    }
    let open = &open;
    let empty = || Particle {
        min: 1,
        max: Some(1),
        term: Term::Sequence(Vec::new()),
    };
    let (particle, mixed) = match content {
        Content::Simple(_) => return Ok(()),
        Content::Empty => (empty(), false),
        Content::Elements(p) => (p.clone(), false),
        Content::Mixed(p) => (p.clone(), true),
    };
    // A model that takes nothing ({max occurs} 0): open content alone.
    let particle = if particle.max == Some(0) {
        empty()
    } else {
        particle
    };
    let opened = match (open.mode, &particle.term) {
        (Mode::Suffix, Term::All(_)) if mixed => return Err(
            "open content in suffix mode on an xs:all group in mixed content is not supported yet"
                .into(),
        ),
        (Mode::Suffix, _) => Particle {
            min: 1,
            max: Some(1),
            term: Term::Sequence(vec![particle, repeated(open.wildcard.clone())]),
        },
        (Mode::Interleave, Term::All(_)) => interleave(&particle, &Accept::default(), open),
        (Mode::Interleave, _) => {
            let nothing = Accept::default();
            let mut items = Vec::new();
            items.extend(slot(open, &first(&particle).0));
            items.push(interleave(&particle, &nothing, open));
            Particle {
                min: 1,
                max: Some(1),
                term: Term::Sequence(items),
            }
        }
    };
    *content = if mixed {
        Content::Mixed(opened)
    } else {
        Content::Elements(opened)
    };
    Ok(())
}

/// What a content model may take at a place: element names, and the namespaces of its
/// wildcards.
#[derive(Debug, Clone, Default)]
struct Accept {
    names: Vec<String>,
    namespaces: Vec<NamespaceConstraint>,
}

impl Accept {
    fn add(&mut self, other: &Accept) {
        for n in &other.names {
            if !self.names.contains(n) {
                self.names.push(n.clone());
            }
        }
        for ns in &other.namespaces {
            if !self.namespaces.contains(ns) {
                self.namespaces.push(ns.clone());
            }
        }
    }

    fn with(&self, other: &Accept) -> Accept {
        let mut out = self.clone();
        out.add(other);
        out
    }
}

/// What `p` may start with, and whether it may take nothing.
fn first(p: &Particle) -> (Accept, bool) {
    let mut accept = Accept::default();
    let nullable = match &p.term {
        Term::Element(e) => {
            accept.names.push(e.xml_name());
            false
        }
        Term::Any(w) => {
            accept.namespaces.push(w.namespaces.clone());
            false
        }
        Term::Sequence(items) => {
            let mut all_nullable = true;
            for item in items {
                let (f, nullable) = first(item);
                accept.add(&f);
                if !nullable {
                    all_nullable = false;
                    break;
                }
            }
            all_nullable
        }
        Term::Choice(items) => {
            let mut any_nullable = false;
            for item in items {
                let (f, nullable) = first(item);
                accept.add(&f);
                any_nullable |= nullable;
            }
            any_nullable
        }
        Term::All(items) => {
            let mut all_nullable = true;
            for item in items {
                let (f, nullable) = first(item);
                accept.add(&f);
                all_nullable &= nullable;
            }
            all_nullable
        }
    };
    (accept, nullable || p.min == 0)
}

/// The open content's wildcard repeated without bound.
fn repeated(w: Wildcard) -> Particle {
    Particle {
        min: 0,
        max: None,
        term: Term::Any(w),
    }
}

/// The open content's wildcard where the model may take `accept` next: disallowing those
/// names and namespaces (`None` where nothing is left).
fn slot(open: &Open, accept: &Accept) -> Option<Particle> {
    let mut w = open.wildcard.clone();
    for ns in &accept.namespaces {
        let complement = match ns {
            NamespaceConstraint::Any => NamespaceConstraint::Only(Vec::new()),
            NamespaceConstraint::Not(v) => NamespaceConstraint::Only(v.clone()),
            NamespaceConstraint::Only(v) => NamespaceConstraint::Not(v.clone()),
        };
        w.namespaces = wildcard::intersection(&w.namespaces, &complement);
    }
    if matches!(&w.namespaces, NamespaceConstraint::Only(v) if v.is_empty()) {
        return None;
    }
    let names: Vec<String> = accept
        .names
        .iter()
        .filter(|n| w.allows(split_expanded_name(n).0))
        .cloned()
        .collect();
    w.disallowed.add(names);
    Some(repeated(w))
}

/// `p` with the open content interleaved after each of its particles (not before its
/// first: the place before `p` is its parent's); `follow` is what the model may take
/// after `p`.
fn interleave(p: &Particle, follow: &Accept, open: &Open) -> Particle {
    if p.max == Some(0) {
        return p.clone();
    }
    let repeats = p.max != Some(1);
    // What may come after one occurrence: another, or what follows.
    let after_one = if repeats {
        follow.with(&first(p).0)
    } else {
        follow.clone()
    };
    let term = match &p.term {
        Term::Element(_) | Term::Any(_) if !repeats => return p.clone(),
        Term::Element(_) | Term::Any(_) => once_then_slot(p.term.clone(), open, &after_one),
        Term::Sequence(items) => {
            // Right to left: what may come after each item.
            let mut out = Vec::new();
            let mut after = after_one.clone();
            for item in items.iter().rev() {
                out.extend(slot(open, &after));
                out.push(interleave(item, &after, open));
                let (f, nullable) = first(item);
                after = if nullable { f.with(&after) } else { f };
            }
            out.reverse();
            Term::Sequence(out)
        }
        Term::Choice(branches) => {
            let branches = branches
                .iter()
                .map(|b| interleave(b, &after_one, open))
                .collect();
            if !repeats {
                Term::Choice(branches)
            } else {
                once_then_slot(Term::Choice(branches), open, &after_one)
            }
        }
        Term::All(members) => {
            let mut members = members.clone();
            members.extend(slot(open, &first(p).0.with(follow)));
            Term::All(members)
        }
    };
    Particle {
        min: p.min,
        max: p.max,
        term,
    }
}

/// One occurrence of a repeated `term`, then the open content's slot: the particle keeps
/// its count, so the slot stands between its occurrences and after the last (`after`: what
/// may come after one occurrence).
fn once_then_slot(term: Term, open: &Open, after: &Accept) -> Term {
    let once = Particle {
        min: 1,
        max: Some(1),
        term,
    };
    let mut items = vec![once];
    items.extend(slot(open, after));
    Term::Sequence(items)
}

/// The expanded names of the element declarations of `p`.
fn element_names(p: &Particle, out: &mut Vec<String>) {
    match &p.term {
        Term::Element(e) => out.push(e.xml_name()),
        Term::Any(_) => {}
        Term::Sequence(items) | Term::Choice(items) | Term::All(items) => {
            for item in items {
                element_names(item, out);
            }
        }
    }
}
