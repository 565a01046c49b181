//! Open content: elements of type `xs:anyType` (declared so, or declared without a type),
//! which generated code holds as laxly assessed content (`boardxml::any::lax`, rendered
//! by `render/any_type.rs`: anyType's attributes are checked against the global attribute
//! declarations this module collects), and attribute wildcards (`xs:anyAttribute`) with their namespace constraints over
//! expanded names, combined as XSD 1.0 3.10.6 says.

use xsd_parser::models::schema::xs;

use super::adapter::{Item, What};
use super::Converter;
use crate::ir::{
    expanded_name, Disallowed, NamespaceConstraint, Particle, ProcessContents, Span, Term, Wildcard,
};

/// An `xs:anyAttribute` as a wildcard, at `at`. `target` is the target namespace of the
/// document it stands in: what `##targetNamespace` names and `##other` excludes (XSD 1.0,
/// 3.10.2: `##other` is "not the target namespace", and 3.10.4 2.3: never absent).
pub(super) fn attribute_wildcard(
    cx: &Converter<'_>,
    w: &xs::AnyAttribute,
    at: Item<'_>,
    target: Option<&str>,
) -> Wildcard {
    Wildcard {
        namespaces: namespace_constraint(w.namespace.as_ref(), w.not_namespace.as_ref(), target),
        disallowed: disallowed(cx, at, "attribute"),
        process: process_contents(&w.process_contents),
        span: cx.span(at),
    }
}

/// XSD 1.1's `notQName` of the wildcard at `at` (Part 1, 3.10.2): its QNames as expanded
/// names, `##defined` resolved into the names of the schema's global declarations of
/// `kind` (`element` or `attribute`), `##definedSibling` noted (the content model it
/// stands in resolves it: [`resolve_siblings`]). A token that is no QName of the
/// document's scope is the validity pass's to report; it is left out here. Nothing in a
/// document read as XSD 1.0, whose markup checks refuse the attribute.
pub(super) fn disallowed(cx: &Converter<'_>, at: Item<'_>, kind: &'static str) -> Disallowed {
    let mut d = Disallowed::default();
    let doc = &cx.docs[at.doc].tree;
    let node = &doc.nodes[at.node];
    let Some(list) = node.attr("notQName").filter(|_| doc.xsd_1_1()) else {
        return d;
    };
    let mut names = Vec::new();
    for token in list.split_whitespace() {
        match token {
            "##defined" => d.defined = true,
            "##definedSibling" if kind == "element" => d.sibling = true,
            _ => names.extend(
                node.resolve_qname(token)
                    .map(|(ns, local)| expanded_name(ns.as_deref(), &local)),
            ),
        }
    }
    if d.defined {
        names.extend(
            cx.component_keys
                .keys()
                .filter(|(k, _, _)| *k == kind)
                .map(|(_, ns, local)| expanded_name(ns.as_deref(), local)),
        );
    }
    d.add(names);
    d
}

/// Resolves `##definedSibling` in the content model `p` (XSD 1.1, Part 1, 3.10.1: the
/// names of the element declarations of the model, and so of the members of their
/// substitution groups, which the model holds as alternatives): every wildcard of the
/// model that has the keyword disallows them. A work list, not recursion: a model is as
/// deep as its schema writes it.
pub(super) fn resolve_siblings(p: &mut Particle) {
    let mut names = Vec::new();
    let mut wildcards = false;
    let mut work: Vec<&Particle> = vec![p];
    while let Some(q) = work.pop() {
        match &q.term {
            Term::Element(e) => names.push(expanded_name(e.namespace.as_deref(), &e.name)),
            Term::Any(w) => wildcards |= w.disallowed.sibling,
            Term::Sequence(v) | Term::Choice(v) | Term::All(v) => work.extend(v),
        }
    }
    if !wildcards {
        return;
    }
    let mut work: Vec<&mut Particle> = vec![p];
    while let Some(q) = work.pop() {
        match &mut q.term {
            Term::Element(_) => {}
            Term::Any(w) if w.disallowed.sibling => w.disallowed.add(names.iter().cloned()),
            Term::Any(_) => {}
            Term::Sequence(v) | Term::Choice(v) | Term::All(v) => work.extend(v.iter_mut()),
        }
    }
}

/// An `xs:any` particle of a content model: its occurrence and its wildcard, whose
/// `##targetNamespace` and `##other` are of the document it stands in.
pub(super) fn element_wildcard<'a>(
    cx: &mut Converter<'a>,
    a: &xs::Any,
    at: Item<'a>,
    owner: &str,
) -> Option<Particle> {
    let span = cx.span(at);
    let (min, max) = super::occurs(
        a.min_occurs,
        a.max_occurs,
        &span,
        cx,
        &format!("xs:any in \"{owner}\""),
    )?;
    let target = cx.namespaces.target.clone();
    Some(Particle {
        min,
        max,
        term: Term::Any(Wildcard {
            namespaces: namespace_constraint(
                a.namespace.as_ref(),
                a.not_namespace.as_ref(),
                target.as_deref(),
            ),
            disallowed: disallowed(cx, at, "element"),
            process: process_contents(&a.process_contents),
            span,
        }),
    })
}

fn process_contents(p: &xs::ProcessContentsType) -> ProcessContents {
    match p {
        xs::ProcessContentsType::Strict => ProcessContents::Strict,
        xs::ProcessContentsType::Lax => ProcessContents::Lax,
        xs::ProcessContentsType::Skip => ProcessContents::Skip,
    }
}

/// The namespace constraint of a wildcard's `namespace=`, or of XSD 1.1's `notNamespace=`
/// (every namespace but those listed; the two never stand together), `##any` without
/// either.
pub(super) fn namespace_constraint(
    ns: Option<&xs::NamespaceListType>,
    not: Option<&xs::NotNamespaceType>,
    target: Option<&str>,
) -> NamespaceConstraint {
    let target = target.map(str::to_string);
    let item = |item: &xs::BasicNamespaceListItemType| match item {
        xs::BasicNamespaceListItemType::String(s) => Some(s.clone()),
        xs::BasicNamespaceListItemType::TargetNamespace => target.clone(),
        xs::BasicNamespaceListItemType::Local => None,
    };
    if let Some(not) = not {
        return NamespaceConstraint::Not(set(not.0.iter().map(item).collect()));
    }
    match ns {
        None | Some(xs::NamespaceListType::Any) => NamespaceConstraint::Any,
        Some(xs::NamespaceListType::Other) => NamespaceConstraint::Not(set(vec![target, None])),
        Some(xs::NamespaceListType::BasicNamespaceList(list)) => {
            NamespaceConstraint::Only(set(list.0.iter().map(item).collect()))
        }
    }
}

fn set(mut v: Vec<Option<String>>) -> Vec<Option<String>> {
    v.sort();
    v.dedup();
    v
}

/// The intersection of two namespace constraints (XSD 1.0, 3.10.6, Attribute Wildcard
/// Intersection), over sets of namespaces: a negation of two namespaces, which XSD 1.0
/// cannot write, is kept as the set it means (as XSD 1.1 does).
pub fn intersection(a: &NamespaceConstraint, b: &NamespaceConstraint) -> NamespaceConstraint {
    use NamespaceConstraint::*;
    match (a, b) {
        (Any, x) | (x, Any) => x.clone(),
        (Only(x), Only(y)) => Only(x.iter().filter(|n| y.contains(n)).cloned().collect()),
        (Only(x), Not(y)) | (Not(y), Only(x)) => {
            Only(x.iter().filter(|n| !y.contains(n)).cloned().collect())
        }
        (Not(x), Not(y)) => Not(set(x.iter().chain(y).cloned().collect())),
    }
}

/// The union of two namespace constraints (XSD 1.0, 3.10.6, Attribute Wildcard Union),
/// over sets of namespaces: what derivation by extension (3.4.2) makes of a base type's
/// wildcard and its own (see [`extended`]).
pub fn union(a: &NamespaceConstraint, b: &NamespaceConstraint) -> NamespaceConstraint {
    use NamespaceConstraint::*;
    match (a, b) {
        (Any, _) | (_, Any) => Any,
        (Only(x), Only(y)) => Only(set(x.iter().chain(y).cloned().collect())),
        (Only(x), Not(y)) | (Not(y), Only(x)) => {
            let rest: Vec<_> = y.iter().filter(|n| !x.contains(n)).cloned().collect();
            if rest.is_empty() {
                Any
            } else {
                Not(rest)
            }
        }
        (Not(x), Not(y)) => {
            let both: Vec<_> = x.iter().filter(|n| y.contains(n)).cloned().collect();
            if both.is_empty() {
                Any
            } else {
                Not(both)
            }
        }
    }
}

/// The complete wildcard of a complex type or attribute group (XSD 1.0, 3.4.2 and 3.6.2):
/// its own `xs:anyAttribute` intersected with the wildcard of every attribute group it
/// uses; processContents is its own, or else the first group's.
pub(super) fn complete(own: Option<Wildcard>, groups: Vec<Wildcard>) -> Option<Wildcard> {
    let mut groups = groups.into_iter();
    let mut acc = match own {
        Some(w) => w,
        None => groups.next()?,
    };
    for g in groups {
        acc.namespaces = intersection(&acc.namespaces, &g.namespaces);
        // XSD 1.1, 3.10.6.4: the intersection disallows what either disallows.
        acc.disallowed.add(g.disallowed.names);
        acc.disallowed.defined |= g.disallowed.defined;
    }
    Some(acc)
}

/// The complete wildcard of a derivation by extension (XSD 1.0, 3.4.2, {attribute
/// wildcard} 2.2): the base type's alone when the extension has none of its own, its own
/// when the base has none, else the union of the two namespace constraints with the
/// extension's processContents. (A restriction's is its own local wildcard alone: the
/// base's is not inherited, and the validity pass checks it is a subset of the base's.)
pub(super) fn extended(local: Option<Wildcard>, base: Option<&Wildcard>) -> Option<Wildcard> {
    match (local, base) {
        (None, base) => base.cloned(),
        (Some(local), None) => Some(local),
        (Some(mut local), Some(base)) => {
            // XSD 1.1, 3.10.6.3: the union disallows a name one of the two disallows only
            // where the other does not allow it either; `defined` only if both have it.
            let names: Vec<String> = local
                .disallowed
                .names
                .iter()
                .filter(|n| !allows_expanded(base, n))
                .chain(
                    base.disallowed
                        .names
                        .iter()
                        .filter(|n| !allows_expanded(&local, n)),
                )
                .cloned()
                .collect();
            local.namespaces = union(&local.namespaces, &base.namespaces);
            local.disallowed = Disallowed {
                names: Vec::new(),
                defined: local.disallowed.defined && base.disallowed.defined,
                sibling: local.disallowed.sibling && base.disallowed.sibling,
            };
            local.disallowed.add(names);
            Some(local)
        }
    }
}

/// Adds to each wildcard of the content model `p` the names `yielded` gives for its span
/// (XSD 1.1's relaxed UPA: the elements it competes with win, `model.rs`). A work list.
pub(super) fn disallow(p: &mut Particle, yielded: &[(Span, Vec<String>)]) {
    if yielded.is_empty() {
        return;
    }
    let mut work: Vec<&mut Particle> = vec![p];
    while let Some(q) = work.pop() {
        match &mut q.term {
            Term::Element(_) => {}
            Term::Any(w) => {
                if let Some((_, names)) = yielded.iter().find(|(s, _)| *s == w.span) {
                    w.disallowed.add(names.iter().cloned());
                }
            }
            Term::Sequence(v) | Term::Choice(v) | Term::All(v) => work.extend(v.iter_mut()),
        }
    }
}

/// Whether `w` allows the expanded name `name` (`{namespace}local`, or `local`).
fn allows_expanded(w: &Wildcard, name: &str) -> bool {
    w.allows_name(crate::ir::split_expanded_name(name).0, name)
}

/// Whether XSD 1.0 can write a namespace constraint its union or intersection gave
/// (3.10.6 as amended by erratum E1-10): any, a set, or a negation of one namespace or of
/// absent, which (as `##other` allows no unqualified name) always takes absent out too. A
/// negation that lets absent in (the union of `##other` with a set holding absent but not
/// the target namespace, clause 5.3) or that takes out two namespaces (the intersection of
/// two `##other` of different target namespaces, clause 5) is "not expressible": an error
/// of the schema in XSD 1.0 (XSD 1.1 keeps the set, as these functions do).
pub fn expressible_in_xsd_1_0(ns: &NamespaceConstraint) -> bool {
    match ns {
        NamespaceConstraint::Not(v) => v.contains(&None) && v.len() <= 2,
        _ => true,
    }
}

/// The wildcard of an attribute group a type (or derivation) uses by `ref=`, if it has one.
pub(super) fn group_ref_wildcard(
    cx: &Converter<'_>,
    r: &xs::AttributeGroupType,
) -> Option<Wildcard> {
    let q = r.ref_.as_ref()?;
    let g = cx.ref_key("attributeGroup", q);
    attribute_group_wildcard(cx, &g, &mut Vec::new())
}

/// The complete wildcard of the global attribute group `name`, from its declaration (the
/// attribute group's attributes are converted by the adapter; this follows only the
/// wildcards). `seen` stops at a cycle, which the adapter reports.
pub(super) fn attribute_group_wildcard(
    cx: &Converter<'_>,
    name: &str,
    seen: &mut Vec<String>,
) -> Option<Wildcard> {
    if seen.iter().any(|n| n == name) {
        return None;
    }
    seen.push(name.to_string());
    let &(_, at) = cx.globals.attribute_groups.raw.get(name)?;
    // The group's own document: its target namespace and its prefix bindings.
    let namespaces = cx.doc_namespaces.get(at.doc).cloned().unwrap_or_default();
    let target = namespaces.target.as_deref();
    let mut own = None;
    let mut groups = Vec::new();
    for c in cx.children(at) {
        match c.what {
            What::AnyAttribute(w) => own = Some(attribute_wildcard(cx, w, c, target)),
            What::AttributeGroup(r) => {
                if let Some(q) = &r.ref_ {
                    let n = cx.ref_key_in(&namespaces, "attributeGroup", q);
                    groups.extend(attribute_group_wildcard(cx, &n, seen));
                }
            }
            _ => {}
        }
    }
    complete(own, groups)
}

/// Converts every global attribute declaration into [`Schema::global_attributes`](crate::ir::Schema),
/// once: what strict and lax attribute wildcards validate against.
pub(super) fn collect_global_attributes(cx: &mut Converter<'_>) {
    if cx.global_attributes_collected {
        return;
    }
    cx.global_attributes_collected = true;
    let mut names: Vec<String> = cx.globals.attributes.raw.keys().cloned().collect();
    names.sort();
    for n in names {
        if let Some(a) = cx.global_attribute(&n) {
            cx.schema.global_attributes.insert(n, a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use NamespaceConstraint::*;

    fn only(v: &[Option<&str>]) -> NamespaceConstraint {
        Only(set(v.iter().map(|n| n.map(str::to_string)).collect()))
    }

    fn not(v: &[Option<&str>]) -> NamespaceConstraint {
        Not(set(v.iter().map(|n| n.map(str::to_string)).collect()))
    }

    #[test]
    fn intersection_and_union_follow_3_10_6() {
        // Any is the identity of intersection and absorbs in union.
        assert_eq!(intersection(&Any, &only(&[Some("a")])), only(&[Some("a")]));
        assert_eq!(union(&Any, &only(&[Some("a")])), Any);
        // Sets intersect and unite.
        let ab = only(&[Some("a"), Some("b")]);
        let bc = only(&[Some("b"), Some("c")]);
        assert_eq!(intersection(&ab, &bc), only(&[Some("b")]));
        assert_eq!(union(&ab, &bc), only(&[Some("a"), Some("b"), Some("c")]));
        // A negation takes its namespaces (and absent, for ##other) out of a set.
        let other = not(&[None]);
        assert_eq!(
            intersection(&other, &only(&[None, Some("a")])),
            only(&[Some("a")])
        );
        // The union of a negation and a set holding what it negates is any.
        assert_eq!(union(&other, &only(&[None])), Any);
        assert_eq!(
            union(&not(&[Some("a"), None]), &only(&[None])),
            not(&[Some("a")])
        );
        // Two negations: intersection negates both, union what both negate.
        assert_eq!(
            intersection(&not(&[Some("a")]), &not(&[Some("b")])),
            not(&[Some("a"), Some("b")])
        );
        assert_eq!(union(&not(&[Some("a")]), &not(&[Some("b")])), Any);
    }

    #[test]
    fn the_complete_wildcard_takes_its_own_process_contents() {
        let w = |ns, process| Wildcard {
            namespaces: ns,
            disallowed: Disallowed::default(),
            process,
            span: Span::default(),
        };
        let own = w(Any, ProcessContents::Skip);
        let group = w(only(&[Some("a")]), ProcessContents::Strict);
        let c = complete(Some(own), vec![group.clone()]).unwrap();
        assert_eq!(c.namespaces, only(&[Some("a")]));
        assert_eq!(c.process, ProcessContents::Skip);
        assert_eq!(complete(None, vec![group.clone()]), Some(group));
        assert_eq!(complete(None, vec![]), None);
    }

    #[test]
    fn an_extension_unites_its_wildcard_with_the_bases() {
        let w = |ns, process| Wildcard {
            namespaces: ns,
            disallowed: Disallowed::default(),
            process,
            span: Span::default(),
        };
        let base = w(only(&[Some("a")]), ProcessContents::Strict);
        let own = w(only(&[Some("b")]), ProcessContents::Skip);
        // Neither, either alone, or the union with the extension's processContents.
        assert_eq!(extended(None, None), None);
        assert_eq!(extended(None, Some(&base)), Some(base.clone()));
        assert_eq!(extended(Some(own.clone()), None), Some(own.clone()));
        let both = extended(Some(own), Some(&base)).unwrap();
        assert_eq!(both.namespaces, only(&[Some("a"), Some("b")]));
        assert_eq!(both.process, ProcessContents::Skip);
    }

    #[test]
    fn disallowed_names_combine_as_xsd_1_1_says() {
        let w = |ns, names: &[&str], defined| Wildcard {
            namespaces: ns,
            disallowed: Disallowed {
                names: names.iter().map(|n| n.to_string()).collect(),
                defined,
                sibling: false,
            },
            process: ProcessContents::Skip,
            span: Span::default(),
        };
        // Intersection (3.10.6.4): what either disallows, and either's keyword.
        let a = w(Any, &["a", "{u}b"], true);
        let b = w(Any, &["c"], false);
        let c = complete(Some(a.clone()), vec![b]).unwrap();
        assert_eq!(c.disallowed.names, ["a", "c", "{u}b"]);
        assert!(c.disallowed.defined);
        // Union (3.10.6.3): a name stays disallowed only where the other does not allow
        // it either (its namespace not allowed, or the name disallowed too); the keyword
        // only where both have it.
        let base = w(only(&[None]), &["a", "c"], false);
        let u = extended(Some(a), Some(&base)).unwrap();
        assert_eq!(u.namespaces, Any);
        // a: both disallow it; {u}b: base does not allow namespace u; c: a allows it.
        assert_eq!(u.disallowed.names, ["a", "{u}b"]);
        assert!(!u.disallowed.defined);
    }

    #[test]
    fn siblings_are_the_models_element_declarations() {
        let element = |name: &str| Particle {
            min: 1,
            max: Some(1),
            term: Term::Element(crate::ir::ElementDecl {
                name: name.into(),
                namespace: Some("u".into()),
                span: Span::default(),
                type_ref: crate::ir::TypeRef::Builtin(crate::ir::Builtin::String),
                doc: None,
                value: None,
                nillable: false,
                xsi_simple: None,
            }),
        };
        let any = |sibling| Particle {
            min: 0,
            max: None,
            term: Term::Any(Wildcard {
                namespaces: Any,
                disallowed: Disallowed {
                    names: vec!["x".into()],
                    defined: false,
                    sibling,
                },
                process: ProcessContents::Lax,
                span: Span::default(),
            }),
        };
        let group = |items| Particle {
            min: 1,
            max: Some(1),
            term: Term::Sequence(items),
        };
        let mut p = group(vec![
            element("a"),
            group(vec![any(true), element("b")]),
            any(false),
        ]);
        resolve_siblings(&mut p);
        let Term::Sequence(items) = &p.term else {
            panic!()
        };
        let Term::Sequence(inner) = &items[1].term else {
            panic!()
        };
        let (Term::Any(with), Term::Any(without)) = (&inner[0].term, &items[2].term) else {
            panic!()
        };
        assert_eq!(with.disallowed.names, ["x", "{u}a", "{u}b"]);
        assert_eq!(without.disallowed.names, ["x"]);
    }
}
