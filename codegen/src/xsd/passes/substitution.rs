//! Substitution groups (XSD 1.0, 3.3.6, with XSD 1.1's several heads): where a content
//! model references a global element that heads a group, any member of the group may
//! stand in its place. The reference becomes a choice over the head (unless it is
//! abstract) and every member (transitively, abstract ones left out), so generated code
//! reads, builds and writes it as an enum, one variant per element, and the content-model
//! checks (UPA, EDC: `model.rs`) see every element the reference can match.
//!
//! What a head's `block` (or its document's `blockDefault`) and its type's `block` forbid
//! is honoured when the group is collected: `substitution` lets no member stand in, and a
//! member whose type is derived from the head's by a blocked method (`extension`,
//! `restriction`) is left out (Substitution Group OK (Transitive), 3.3.6 clause 2.3).
//! Whether a member's type is derived from the head's at all and whether the head's
//! `final` allows it (e-props-correct.3) is the validity pass's concern.
//!
//! Membership and the derivation chains are read from xsd-parser's tree before anything
//! is converted: a content model is converted when its type is, and may reference a head
//! whose members' types come later.

use std::collections::{HashMap, HashSet};

use xsd_parser::models::schema::xs::{
    BlockSetType, ComplexBaseType, DerivationControlType, DerivationSetType, ElementType,
    ElementTypeContent, Schema as RawSchema, SimpleBaseTypeContent,
};
use xsd_parser::models::schema::QName;

use super::namespaces::Target;
use super::{occurs, Converter};
use crate::ir::*;
use crate::xsd::adapter::{parts, Item, What};

/// A type as the derivation chains name it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Ty {
    /// A named type, by its key in `Schema::types`.
    Named(String),
    /// A built-in, by its XSD local name.
    Builtin(String),
    /// The anonymous type of the global element with this key.
    Inline(String),
    /// No type given: a member's is its head's (3.3.2, {type definition}).
    Absent,
    /// Not resolved here (the validity pass reports what is wrong with it).
    Unknown,
}

/// How a type is derived from its base, as far as blocking goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Method {
    Extension,
    Restriction,
    /// list or union: never blocked by `block`.
    Other,
}

/// What a `block` (or `blockDefault`) disallows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(super) struct Blocked {
    pub(super) extension: bool,
    pub(super) restriction: bool,
    pub(super) substitution: bool,
}

impl Blocked {
    pub(super) fn of(set: &BlockSetType) -> Blocked {
        match set {
            BlockSetType::All => Blocked {
                extension: true,
                restriction: true,
                substitution: true,
            },
            BlockSetType::BlockSetItemList(l) => Blocked::items(&l.0),
        }
    }

    fn of_type(set: &DerivationSetType) -> Blocked {
        match set {
            DerivationSetType::All => Blocked {
                extension: true,
                restriction: true,
                substitution: false,
            },
            DerivationSetType::BlockSetItemList(l) => Blocked {
                substitution: false,
                ..Blocked::items(&l.0)
            },
        }
    }

    fn items(items: &[DerivationControlType]) -> Blocked {
        let mut b = Blocked::default();
        for item in items {
            match item {
                DerivationControlType::Extension => b.extension = true,
                DerivationControlType::Restriction => b.restriction = true,
                DerivationControlType::Substitution => b.substitution = true,
                DerivationControlType::List | DerivationControlType::Union => {}
            }
        }
        b
    }

    pub(super) fn forbids(self, m: Method) -> bool {
        match m {
            Method::Extension => self.extension,
            Method::Restriction => self.restriction,
            Method::Other => false,
        }
    }
}

/// The substitution groups of one schema, as read before conversion.
#[derive(Default)]
pub(super) struct Substitutions {
    /// Each global element with `substitutionGroup`: the keys of its heads.
    affiliations: HashMap<String, Vec<String>>,
    /// Each global element's disallowed substitutions (`block`, else `blockDefault`).
    blocks: HashMap<String, Blocked>,
    /// Each global element's declared type.
    element_types: HashMap<String, Ty>,
    /// Each global element's place: document, then position in it (schema order).
    order: HashMap<String, (usize, usize)>,
    /// Each type's derivation step: its base and how.
    pub(super) steps: HashMap<Ty, (Ty, Method)>,
    /// Each complex type's prohibited substitutions (`block`, else `blockDefault`).
    pub(super) type_blocks: HashMap<Ty, Blocked>,
    /// The heads whose types members are taking ([`Converter::affiliation_type`]): one
    /// met again is a circular group.
    affiliating: Vec<String>,
}

/// The base of a built-in by restriction (`None` for anyType), after Part 2's type
/// hierarchy.
pub(super) fn builtin_base(local: &str) -> Option<&'static str> {
    super::validity::builtin_base(local)
}

impl Converter<'_> {
    /// Reads the current document's substitution groups and the derivation chains of its
    /// types (after every document's components are registered, so references resolve).
    pub(super) fn note_substitutions(&mut self, raw: &RawSchema, root: Item<'_>) {
        let block_default = Blocked::of(&raw.block_default);
        let mut index = 0;
        // The top level as the schema has it (xs:override, overrides.rs).
        for item in self.top_level(root) {
            match item.what {
                What::Element(el) => {
                    index += 1;
                    let Some(name) = &el.name else { continue };
                    let key = self.declared("element", name);
                    self.subst
                        .order
                        .entry(key.clone())
                        .or_insert((self.doc, index));
                    let block = el.block.as_ref().map_or(block_default, Blocked::of);
                    self.subst.blocks.insert(key.clone(), block);
                    let ty = self.element_ty(el, &key, block_default);
                    self.subst.element_types.insert(key.clone(), ty);
                    if el.substitution_group.is_some() {
                        let heads = self.heads(el);
                        self.subst.affiliations.insert(key, heads);
                    }
                }
                What::ComplexType(ct) => {
                    let Some(name) = &ct.name else { continue };
                    let ty = Ty::Named(self.declared("type", name));
                    self.note_complex_type(ty, ct, block_default);
                }
                What::SimpleType(st) => {
                    let Some(name) = &st.name else { continue };
                    let ty = Ty::Named(self.declared("type", name));
                    let step = self.simple_step(&st.content);
                    self.subst.steps.insert(ty, step);
                }
                _ => {}
            }
        }
    }

    /// A global element's declared type, noting the step of an anonymous one.
    fn element_ty(&mut self, el: &ElementType, key: &str, block_default: Blocked) -> Ty {
        if let Some(q) = &el.type_ {
            return self.quiet_type(q);
        }
        for c in &el.content {
            match c {
                ElementTypeContent::ComplexType(ct) => {
                    let ty = Ty::Inline(key.to_string());
                    self.note_complex_type(ty.clone(), ct, block_default);
                    return ty;
                }
                ElementTypeContent::SimpleType(st) => {
                    let ty = Ty::Inline(key.to_string());
                    let step = self.simple_step(&st.content);
                    self.subst.steps.insert(ty.clone(), step);
                    return ty;
                }
                _ => {}
            }
        }
        Ty::Absent
    }

    /// Notes a complex type's derivation step and what its `block` (else `blockDefault`)
    /// prohibits.
    fn note_complex_type(&mut self, ty: Ty, ct: &ComplexBaseType, block_default: Blocked) {
        let type_default = Blocked {
            substitution: false,
            ..block_default
        };
        let block = ct.block.as_ref().map_or(type_default, Blocked::of_type);
        self.subst.type_blocks.insert(ty.clone(), block);
        let step = self.complex_step(ct);
        self.subst.steps.insert(ty, step);
    }

    fn complex_step(&self, ct: &ComplexBaseType) -> (Ty, Method) {
        let derivations = parts(What::ComplexType(ct))
            .into_iter()
            .filter(|c| matches!(c, What::SimpleContent(_) | What::ComplexContent(_)))
            .flat_map(parts);
        for d in derivations {
            match d {
                What::Extension(e) => return (self.quiet_type(&e.base), Method::Extension),
                What::Restriction(r) => return (self.quiet_type(&r.base), Method::Restriction),
                _ => {}
            }
        }
        // No derivation written: a restriction of anyType (3.4.2).
        (Ty::Builtin("anyType".into()), Method::Restriction)
    }

    fn simple_step(&self, content: &[SimpleBaseTypeContent]) -> (Ty, Method) {
        for c in content {
            match c {
                SimpleBaseTypeContent::Restriction(r) => {
                    let base = r.base.as_ref().map_or(Ty::Unknown, |q| self.quiet_type(q));
                    return (base, Method::Restriction);
                }
                SimpleBaseTypeContent::List(_) | SimpleBaseTypeContent::Union(_) => {
                    return (Ty::Builtin("anySimpleType".into()), Method::Other)
                }
                SimpleBaseTypeContent::Annotation(_) => {}
            }
        }
        (Ty::Unknown, Method::Other)
    }

    /// A type reference resolved without reporting (the conversion and the validity pass
    /// report what is wrong with it).
    pub(super) fn quiet_type(&self, q: &QName) -> Ty {
        match self.namespaces.resolve(q) {
            Target::Xsd(local) => Ty::Builtin(local),
            Target::Here(local) => {
                Ty::Named(self.key_of("type", self.namespaces.target.clone(), local))
            }
            Target::Elsewhere(ns, local) => Ty::Named(self.key_of("type", ns, local)),
            Target::Unbound(_) => Ty::Unknown,
        }
    }

    /// The heads a global element's `substitutionGroup` names, resolved without reporting.
    pub(super) fn heads(&self, el: &ElementType) -> Vec<String> {
        el.substitution_group
            .iter()
            .flat_map(|heads| heads.0.iter())
            .filter_map(|q| self.quiet_element(q))
            .collect()
    }

    /// A `substitutionGroup` head resolved without reporting.
    fn quiet_element(&self, q: &QName) -> Option<String> {
        match self.namespaces.resolve(q) {
            Target::Here(local) => {
                Some(self.key_of("element", self.namespaces.target.clone(), local))
            }
            Target::Elsewhere(ns, local) => Some(self.key_of("element", ns, local)),
            _ => None,
        }
    }

    /// A global element's type, a typeless member's being its head's.
    fn type_of(&self, element: &str) -> Ty {
        let mut e = element.to_string();
        let mut seen = HashSet::new();
        loop {
            match self.subst.element_types.get(&e) {
                Some(Ty::Absent) => {}
                Some(t) => return t.clone(),
                None => return Ty::Unknown,
            }
            // A member without a type has its (first) head's.
            let Some(head) = self.subst.affiliations.get(&e).and_then(|h| h.first()) else {
                return Ty::Builtin("anyType".into());
            };
            if !seen.insert(e.clone()) {
                return Ty::Unknown;
            }
            e = head.clone();
        }
    }

    /// The methods by which `from` is derived from `to`, following the chain of bases;
    /// `None` when the chain does not reach `to` here (a union member, a component not
    /// resolved): then nothing is known to be blocked.
    fn methods(&self, from: &Ty, to: &Ty) -> Option<Vec<Method>> {
        let mut methods = Vec::new();
        let mut t = from.clone();
        for _ in 0..64 {
            if &t == to {
                return Some(methods);
            }
            let (base, m) = match &t {
                Ty::Builtin(b) => match builtin_base(b) {
                    Some(base) => (Ty::Builtin(base.into()), Method::Restriction),
                    None => return None,
                },
                Ty::Named(_) | Ty::Inline(_) => self.subst.steps.get(&t)?.clone(),
                Ty::Absent | Ty::Unknown => return None,
            };
            methods.push(m);
            t = base;
        }
        None
    }

    /// The members that may stand for head `head` where it is referenced, transitively,
    /// in schema order, without the head itself: those `block` and the head type's
    /// `block` allow (abstract ones included: they may head members of their own).
    pub(super) fn substitution_members(&self, head: &str) -> Vec<String> {
        if self.subst.affiliations.is_empty() {
            return Vec::new();
        }
        let blocked = self.subst.blocks.get(head).copied().unwrap_or_default();
        if blocked.substitution {
            return Vec::new();
        }
        let head_ty = self.type_of(head);
        let type_blocked = self
            .subst
            .type_blocks
            .get(&head_ty)
            .copied()
            .unwrap_or_default();
        // Every element with a chain of affiliations to the head.
        let mut found: HashSet<String> = HashSet::new();
        let mut frontier = vec![head.to_string()];
        while let Some(h) = frontier.pop() {
            for (m, heads) in &self.subst.affiliations {
                if heads.contains(&h) && m != head && found.insert(m.clone()) {
                    frontier.push(m.clone());
                }
            }
        }
        let mut members: Vec<String> = found
            .into_iter()
            .filter(|m| {
                let methods = self.methods(&self.type_of(m), &head_ty).unwrap_or_default();
                !methods
                    .iter()
                    .any(|&x| blocked.forbids(x) || type_blocked.forbids(x))
            })
            .collect();
        members.sort_by_key(|m| (self.subst.order.get(m).copied(), m.clone()));
        members
    }

    /// The particle of a reference to head `name` (its declaration `decl`, at the
    /// reference): a choice over the head, unless abstract, and its members. `None` when
    /// no member may stand for it (the reference is an ordinary one); `Some(None)` on an
    /// error (reported).
    pub(super) fn substitution_reference(
        &mut self,
        name: &str,
        decl: &ElementDecl,
        el: &ElementType,
        construct: &str,
    ) -> Option<Option<Particle>> {
        let members = self.substitution_members(name);
        if members.is_empty() {
            return None;
        }
        let span = decl.span;
        let mut alternatives = Vec::new();
        if !self.is_abstract_element(name) {
            alternatives.push(decl.clone());
        }
        let mut ok = true;
        for m in &members {
            if self.is_abstract_element(m) {
                continue;
            }
            match self.global_element(m) {
                // Where the reference stands: a content-model problem is located there.
                Some(d) => alternatives.push(ElementDecl { span, ..d }),
                None => ok = false,
            }
        }
        if !ok {
            return Some(None);
        }
        if alternatives.is_empty() {
            // Every member is abstract: the reference matches nothing, as an abstract head
            // without members.
            return None;
        }
        if alternatives.len() == 1 && !self.is_abstract_element(name) {
            // Only the head itself.
            return None;
        }
        let Some((min, max)) = occurs(el.min_occurs, el.max_occurs, &span, self, construct) else {
            return Some(None);
        };
        Some(Some(Particle {
            min,
            max,
            term: Term::Choice(
                alternatives
                    .into_iter()
                    .map(|d| Particle {
                        min: 1,
                        max: Some(1),
                        term: Term::Element(d),
                    })
                    .collect(),
            ),
        }))
    }

    /// The type of a global element declared without one: its head's, if it is a member
    /// of a substitution group (3.3.2, {type definition}).
    pub(super) fn affiliation_type(&mut self, el: &ElementType) -> Option<TypeRef> {
        let q = el.substitution_group.as_ref()?.0.first()?;
        let head = self.quiet_element(q)?;
        // A circular group (the validity pass reports it) has no type to take.
        if !self.globals.elements.raw.contains_key(&head) || self.subst.affiliating.contains(&head)
        {
            return None;
        }
        self.subst.affiliating.push(head.clone());
        let t = self.global_element(&head).map(|d| d.type_ref);
        self.subst.affiliating.pop();
        t
    }
}

/// Where a particle of an `xs:all` references a substitution group's head (the choice
/// [`Converter::substitution_reference`] made of it): generated code reads an `xs:all`
/// as one field per element, which has no place for alternatives.
pub(super) fn in_all(item: &Particle) -> Option<Span> {
    let Term::Choice(alternatives) = &item.term else {
        return None;
    };
    alternatives.iter().find_map(|a| match &a.term {
        Term::Element(e) => Some(e.span),
        _ => None,
    })
}
