//! Complex type derivation: Derivation Valid (Restriction, Complex) (Part 1, 3.4.6,
//! `derivation-ok-restriction`) with Particle Valid (Restriction) (3.9.6: the
//! NameAndTypeOK, NSCompat, NSSubset, NSRecurseCheckCardinality, Recurse, RecurseLax,
//! RecurseUnordered and MapAndSum cases), and Derivation Valid (Extension)
//! (`cos-ct-extends`), as far as one document shows them.

use std::collections::HashMap;

use super::components::{Compositor, Content, Element, Particle, Term, TypeRef};
use super::{subsume, Checker, Space};

/// A particle restriction that does not hold: where, and why.
struct Failure {
    node: usize,
    message: String,
}

type Outcome = Result<(), Failure>;

fn fail(node: usize, message: String) -> Outcome {
    Err(Failure { node, message })
}

fn range(min: u64, max: Option<u64>) -> String {
    match max {
        Some(m) => format!("{min}..{m}"),
        None => format!("{min}..unbounded"),
    }
}

fn process_name(p: u8) -> &'static str {
    ["skip", "lax", "strict"][usize::from(p.min(2))]
}

/// Occurrence Range OK (Part 1, 3.9.6).
fn range_ok(r: (u64, Option<u64>), b: (u64, Option<u64>)) -> bool {
    r.0 >= b.0
        && match (r.1, b.1) {
            (_, None) => true,
            (Some(r), Some(b)) => r <= b,
            (None, Some(_)) => false,
        }
}

/// The tokens of a `block` value (or `blockDefault`), `#all` spelt out.
fn block_set(value: Option<&str>) -> Vec<&'static str> {
    let v = value.unwrap_or("").trim();
    ["extension", "restriction", "substitution"]
        .into_iter()
        .filter(|t| v == "#all" || v.split_whitespace().any(|w| w == *t))
        .collect()
}

/// The built-in a built-in type is derived from by restriction (None for anyType and the
/// list types, which derive from anySimpleType by list).
pub(crate) fn builtin_base(local: &str) -> Option<&'static str> {
    Some(match local {
        "anyType" => return None,
        "anySimpleType" => "anyType",
        "normalizedString" => "string",
        "token" => "normalizedString",
        "language" | "Name" | "NMTOKEN" => "token",
        "NCName" => "Name",
        "ID" | "IDREF" | "ENTITY" => "NCName",
        "integer" => "decimal",
        "nonPositiveInteger" | "long" | "nonNegativeInteger" => "integer",
        "negativeInteger" => "nonPositiveInteger",
        "int" => "long",
        "short" => "int",
        "byte" => "short",
        "unsignedLong" | "positiveInteger" => "nonNegativeInteger",
        "unsignedInt" => "unsignedLong",
        "unsignedShort" => "unsignedInt",
        "unsignedByte" => "unsignedShort",
        _ => "anySimpleType",
    })
}

struct Restriction<'c, 'a> {
    cx: &'c Checker<'a>,
    /// Each head of a substitution group declared here: its members' declarations.
    members: HashMap<usize, Vec<usize>>,
}

impl Restriction<'_, '_> {
    /// Whether type `r` is validly derived from `b` by restriction only (Type Derivation
    /// OK (Complex) and (Simple), the subset {extension, list, union}); None when unknown.
    fn derives(&self, r: &TypeRef, b: &TypeRef, depth: usize) -> Option<bool> {
        if r == b {
            return Some(true);
        }
        if matches!(b, TypeRef::Builtin(x) if x == "anyType") {
            return Some(true);
        }
        if depth > 48 {
            return None;
        }
        // A union B: R may derive from one of its members (Part 1, 3.14.6, clause 2.2.4).
        if let TypeRef::Node(u) = b {
            if let Some(union) = self.simple_variety(*u, "union") {
                let cx = self.cx;
                let mut members: Vec<TypeRef> = cx.nodes[union]
                    .attr("memberTypes")
                    .unwrap_or("")
                    .split_whitespace()
                    .map(|m| cx.type_named(union, m))
                    .collect();
                members.extend(
                    cx.nodes[union]
                        .children
                        .iter()
                        .filter(|&&c| cx.nodes[c].is("simpleType"))
                        .map(|&c| TypeRef::Node(c)),
                );
                let mut unknown = false;
                for m in &members {
                    match self.derives(r, m, depth + 1) {
                        Some(true) => return Some(true),
                        None => unknown = true,
                        Some(false) => {}
                    }
                }
                if unknown {
                    return None;
                }
            }
        }
        match r {
            TypeRef::Unknown => None,
            TypeRef::Builtin(x) => {
                if matches!(b, TypeRef::Unknown) {
                    return None;
                }
                let mut at = x.as_str();
                loop {
                    if matches!(b, TypeRef::Builtin(y) if y == at) {
                        return Some(true);
                    }
                    match builtin_base(at) {
                        Some(up) => at = up,
                        None => return Some(false),
                    }
                }
            }
            TypeRef::Node(n) => {
                let cx = self.cx;
                let node = &cx.nodes[*n];
                if node.is("simpleType") {
                    let step = cx.child(*n, &["restriction", "list", "union"])?;
                    if !cx.nodes[step].is("restriction") {
                        // A list or union derives from anySimpleType.
                        return match b {
                            TypeRef::Builtin(y) => Some(y == "anySimpleType"),
                            TypeRef::Node(_) => Some(false),
                            TypeRef::Unknown => None,
                        };
                    }
                    let base = match cx.nodes[step].attr("base") {
                        Some(q) => cx.type_named(step, q),
                        None => TypeRef::Node(cx.child(step, &["simpleType"])?),
                    };
                    return self.derives(&base, b, depth + 1);
                }
                match cx.derivation(*n) {
                    // Restricts anyType.
                    None => self.derives(&TypeRef::Builtin("anyType".into()), b, depth + 1),
                    Some((_, d)) if cx.nodes[d].is("restriction") => {
                        let base = cx.type_named(d, cx.nodes[d].attr("base")?);
                        self.derives(&base, b, depth + 1)
                    }
                    Some(_) => {
                        // An extension step: not derived by restriction alone, unless
                        // what it extends is unknown and B could be above it (still no:
                        // any path to B passes through this extension).
                        match b {
                            TypeRef::Unknown => None,
                            _ => Some(false),
                        }
                    }
                }
            }
        }
    }

    /// The `xs:list`/`xs:union` step of a simple type element, when it is that variety.
    fn simple_variety(&self, st: usize, variety: &str) -> Option<usize> {
        let cx = self.cx;
        if !cx.nodes[st].is("simpleType") {
            return None;
        }
        cx.child(st, &[variety])
    }

    /// Substitution groups as choices, and pointless groups removed (Particle Valid
    /// (Restriction), clauses 2.1 and 2.2).
    fn normalize(&self, p: Particle) -> Particle {
        match p.term {
            Term::Element(ref e) if e.global => {
                let Some(members) = self.members.get(&e.decl) else {
                    return p;
                };
                let cx = self.cx;
                let mut group: Vec<usize> = Vec::new();
                let mut stack = vec![e.decl];
                while let Some(d) = stack.pop() {
                    if group.contains(&d) {
                        continue;
                    }
                    group.push(d);
                    if let Some(m) = self.members.get(&d) {
                        stack.extend(m.iter().copied());
                    }
                }
                let _ = members;
                // In document order (the head's own place included).
                group.sort_unstable();
                let actual: Vec<usize> = group
                    .into_iter()
                    .filter(|&d| {
                        !cx.nodes[d]
                            .attr("abstract")
                            .is_some_and(|a| matches!(a.trim(), "true" | "1"))
                    })
                    .collect();
                if !actual.iter().any(|&d| d != e.decl) {
                    return p;
                }
                let mut kids = Vec::new();
                for d in actual {
                    let Some(name) = cx.nodes[d].attr("name") else {
                        return p;
                    };
                    kids.push(Particle {
                        min: 1,
                        max: Some(1),
                        term: Term::Element(Element {
                            namespace: cx.target.clone(),
                            name: name.trim().to_string(),
                            decl: d,
                            global: true,
                            known: true,
                        }),
                        node: p.node,
                    });
                }
                Particle {
                    term: Term::Group(Compositor::Choice, kids),
                    ..p
                }
            }
            Term::Group(c, kids) => {
                let mut out = Vec::new();
                for k in kids {
                    let k = self.normalize(k);
                    match k.term {
                        Term::Group(kc, ref inner) if k.min == 1 && k.max == Some(1) => {
                            let splice = inner.len() == 1
                                || (kc == c && kc != Compositor::All)
                                || inner.is_empty();
                            if splice {
                                let Term::Group(_, inner) = k.term else {
                                    unreachable!()
                                };
                                out.extend(inner);
                            } else {
                                out.push(k);
                            }
                        }
                        Term::Group(kc, ref inner)
                            if inner.is_empty() && (kc != Compositor::Choice || k.min == 0) =>
                        {
                            // An empty sequence or all, or an empty optional choice: nothing.
                        }
                        _ => out.push(k),
                    }
                }
                let p = Particle {
                    term: Term::Group(c, out),
                    ..p
                };
                match p.term {
                    Term::Group(_, ref kids)
                        if kids.len() == 1 && p.min == 1 && p.max == Some(1) =>
                    {
                        let Term::Group(_, mut kids) = p.term else {
                            unreachable!()
                        };
                        kids.pop().expect("one particle")
                    }
                    _ => p,
                }
            }
            _ => p,
        }
    }

    /// Whether content particle `r` restricts `b`: in XSD 1.1 by what they accept
    /// (3.4.6.4, [`subsume`]), in XSD 1.0 by Particle Valid (Restriction).
    fn content_restricts(&self, r: &Particle, b: &Particle) -> Outcome {
        if !self.cx.xsd_1_1 {
            return self.restricts(r, b, 0);
        }
        let cx = self.cx;
        let globals = cx.global_element_names();
        let global = |n: &(Option<String>, String)| cx.declares(Space::Element, n);
        let declaration = |re: &Element, be: &Element| {
            self.declaration_restricts(r.node, re, be)
                .map_err(|f| f.message)
        };
        match subsume::restricts(r, b, &globals, &global, &declaration) {
            Ok(_) => Ok(()),
            Err((node, message)) => fail(node, message),
        }
    }

    /// Particle Valid (Restriction): whether `r` restricts `b`.
    fn restricts(&self, r: &Particle, b: &Particle, depth: usize) -> Outcome {
        if depth > 64 {
            return Ok(());
        }
        let rr = (r.min, r.max);
        let br = (b.min, b.max);
        // A particle that stands for nothing restricts any emptiable one.
        if let Term::Group(_, kids) = &r.term {
            if kids.is_empty() {
                return if b.emptiable() {
                    Ok(())
                } else {
                    fail(r.node, "the restriction's content is empty, but the base type's content needs elements (it is not emptiable)".into())
                };
            }
        }
        match (&r.term, &b.term) {
            (Term::Element(re), Term::Element(be)) => self.name_and_type_ok(r, re, b, be),
            (Term::Element(re), Term::Wildcard(w)) => {
                if !w.namespaces.allows(&re.namespace) {
                    return fail(r.node, format!(
                        "rcase-NSCompat.1: element \"{}\" is in a namespace the base type's wildcard does not allow",
                        re.name
                    ));
                }
                let global = |n: &(Option<String>, String)| self.cx.declares(Space::Element, n);
                if !w.allows(&(re.namespace.clone(), re.name.clone()), &global) {
                    return fail(r.node, format!(
                        "rcase-NSCompat.1: the base type's wildcard disallows element \"{}\" by name (notQName)",
                        re.name
                    ));
                }
                if !range_ok(rr, br) {
                    return fail(r.node, format!(
                        "rcase-NSCompat.2: element \"{}\" occurs {} times, outside the {} of the base type's wildcard",
                        re.name, range(r.min, r.max), range(b.min, b.max)
                    ));
                }
                Ok(())
            }
            (Term::Element(_), Term::Group(c, _)) => {
                // RecurseAsIfGroup: the element as a group of B's kind, occurring once.
                let as_group = Particle {
                    min: 1,
                    max: Some(1),
                    term: Term::Group(*c, vec![r.clone()]),
                    node: r.node,
                };
                let spec = self.restricts(&as_group, b, depth + 1);
                if spec.is_err() {
                    // The suite (and processors) also take the group to occur as the
                    // element does, the element once in it (particlesZ001: an element
                    // 0..unbounded restricting a repeated choice): either reading passes.
                    let repeated = Particle {
                        min: r.min,
                        max: r.max,
                        term: Term::Group(
                            *c,
                            vec![Particle {
                                min: 1,
                                max: Some(1),
                                ..r.clone()
                            }],
                        ),
                        node: r.node,
                    };
                    if self.restricts(&repeated, b, depth + 1).is_ok() {
                        return Ok(());
                    }
                }
                spec
            }
            (Term::Wildcard(rw), Term::Wildcard(bw)) => {
                if !range_ok(rr, br) {
                    return fail(r.node, format!(
                        "rcase-NSSubset.1: the wildcard occurs {} times, outside the base wildcard's {}",
                        range(r.min, r.max), range(b.min, b.max)
                    ));
                }
                let global = |n: &(Option<String>, String)| self.cx.declares(Space::Element, n);
                if let Err(why) = rw.subset_of(bw, &global) {
                    return fail(r.node, format!("rcase-NSSubset.2: the wildcard {why}"));
                }
                if rw.process < bw.process {
                    return fail(r.node, format!(
                        "rcase-NSSubset.3: the wildcard's processContents \"{}\" is weaker than the base wildcard's \"{}\"",
                        process_name(rw.process), process_name(bw.process)
                    ));
                }
                Ok(())
            }
            (Term::Wildcard(_), _) => fail(
                r.node,
                "a wildcard (xs:any) cannot restrict an element declaration or a model group (Particle Valid (Restriction): forbidden)".into(),
            ),
            (Term::Group(_, kids), Term::Wildcard(_)) => {
                // NSRecurseCheckCardinality: each member against the wildcard's namespaces
                // (its occurrences bound the group's total, clause 2, not each member).
                let open = Particle {
                    min: 0,
                    max: None,
                    ..b.clone()
                };
                for k in kids {
                    self.restricts(k, &open, depth + 1)?;
                }
                let er = (r.effective_min(), r.effective_max());
                if !range_ok(er, br) {
                    return fail(r.node, format!(
                        "rcase-NSRecurseCheckCardinality.2: the group occurs {} times in all, outside the base wildcard's {}",
                        range(er.0, er.1), range(b.min, b.max)
                    ));
                }
                Ok(())
            }
            (Term::Group(rc, _), Term::Element(be)) => fail(
                r.node,
                format!(
                    "{} cannot restrict the element declaration \"{}\" (Particle Valid (Restriction): forbidden)",
                    rc.noun(),
                    be.name
                ),
            ),
            (Term::Group(rc, rk), Term::Group(bc, bk)) => {
                let name = match (rc, bc) {
                    (Compositor::All, Compositor::All)
                    | (Compositor::Sequence, Compositor::Sequence) => "rcase-Recurse",
                    (Compositor::Choice, Compositor::Choice) => "rcase-RecurseLax",
                    (Compositor::Sequence, Compositor::All) => "rcase-RecurseUnordered",
                    (Compositor::Sequence, Compositor::Choice) => "rcase-MapAndSum",
                    _ => {
                        return fail(
                            r.node,
                            format!(
                                "{} cannot restrict {} (Particle Valid (Restriction): forbidden)",
                                rc.noun(),
                                bc.noun()
                            ),
                        )
                    }
                };
                if name == "rcase-MapAndSum" {
                    let n = rk.len() as u64;
                    let total = (r.min.saturating_mul(n), r.max.map(|m| m.saturating_mul(n)));
                    if !range_ok(total, br) {
                        return fail(r.node, format!(
                            "rcase-MapAndSum.2: the sequence occurs {} times in all, outside the base choice's {}",
                            range(total.0, total.1), range(b.min, b.max)
                        ));
                    }
                    for k in rk {
                        let mut first: Option<Failure> = None;
                        let mapped = bk.iter().any(|bp| match self.restricts(k, bp, depth + 1) {
                            Ok(()) => true,
                            Err(f) => {
                                first.get_or_insert(f);
                                false
                            }
                        });
                        if !mapped {
                            return Err(first.unwrap_or(Failure {
                                node: k.node,
                                message: "rcase-MapAndSum.1: a particle of the sequence restricts no particle of the base choice".into(),
                            }));
                        }
                    }
                    return Ok(());
                }
                if !range_ok(rr, br) {
                    return fail(r.node, format!(
                        "{name}.1: {} occurs {} times, outside the base {}'s {}",
                        rc.noun(), range(r.min, r.max), bc.noun(), range(b.min, b.max)
                    ));
                }
                // valid[i][j]: R's particle i restricts B's particle j.
                let valid: Vec<Vec<Outcome>> = rk
                    .iter()
                    .map(|x| bk.iter().map(|y| self.restricts(x, y, depth + 1)).collect())
                    .collect();
                let ok = |i: usize, j: usize| valid[i][j].is_ok();
                let mapped = match name {
                    "rcase-Recurse" => order_preserving(rk.len(), bk.len(), &ok, &|j| {
                        bk[j].emptiable()
                    }),
                    "rcase-RecurseLax" => order_preserving(rk.len(), bk.len(), &ok, &|_| true),
                    _ => unordered(rk.len(), bk, &ok),
                };
                if mapped {
                    return Ok(());
                }
                // Say why: the first R particle that restricts nothing, or an unmapped
                // base particle that is not emptiable.
                for (i, row) in valid.into_iter().enumerate() {
                    if row.iter().all(|o| o.is_err()) {
                        let first = row.into_iter().find_map(|o| o.err());
                        return Err(first.unwrap_or(Failure {
                            node: rk[i].node,
                            message: format!("{name}.2: a particle restricts no particle of the base {}", bc.noun()),
                        }));
                    }
                }
                fail(r.node, format!(
                    "{name}.2: the particles of this {} do not map onto those of the base {} (in order, each a valid restriction, and every base particle left out emptiable)",
                    rc.noun(), bc.noun()
                ))
            }
        }
    }

    /// NameAndTypeOK (Part 1, 3.9.6): an element declaration restricting another.
    fn name_and_type_ok(&self, r: &Particle, re: &Element, b: &Particle, be: &Element) -> Outcome {
        if re.name != be.name || re.namespace != be.namespace {
            let shown = |e: &Element| match &e.namespace {
                Some(ns) => format!("{{{ns}}}{}", e.name),
                None => e.name.clone(),
            };
            return fail(r.node, format!(
                "rcase-NameAndTypeOK.1: element \"{}\" is not the base type's element \"{}\" (name and namespace must be the same)",
                shown(re), shown(be)
            ));
        }
        if !range_ok((r.min, r.max), (b.min, b.max)) {
            return fail(
                r.node,
                format!(
                "rcase-NameAndTypeOK.3: element \"{}\" occurs {} times, outside the base type's {}",
                re.name, range(r.min, r.max), range(b.min, b.max)
            ),
            );
        }
        self.declaration_restricts(r.node, re, be)
    }

    /// The clauses of NameAndTypeOK on the declarations themselves (2 and 4 to 7), which
    /// XSD 1.1's Content Type Restricts also asks of each element's declarations (3.4.6.4,
    /// clause 4.2, by 3.9.6's element declaration restriction).
    fn declaration_restricts(&self, node: usize, re: &Element, be: &Element) -> Outcome {
        let cx = self.cx;
        if re.decl == be.decl || !re.known || !be.known {
            return Ok(());
        }
        let rd = &cx.nodes[re.decl];
        let bd = &cx.nodes[be.decl];
        let truthy = |v: Option<&str>| v.is_some_and(|m| matches!(m.trim(), "true" | "1"));
        if truthy(rd.attr("nillable")) && !truthy(bd.attr("nillable")) {
            return fail(node, format!(
                "rcase-NameAndTypeOK.2: element \"{}\" is nillable, but the base type's element is not",
                re.name
            ));
        }
        if let Some(bf) = bd.attr("fixed") {
            match rd.attr("fixed") {
                None => {
                    return fail(node, format!(
                        "rcase-NameAndTypeOK.4: the base type's element \"{}\" is fixed to \"{bf}\"; the restriction must fix the same value",
                        re.name
                    ))
                }
                Some(rf) => {
                    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
                    let numeric = |s: &str| s.trim().parse::<f64>().is_ok();
                    if norm(rf) != norm(bf) && !(numeric(rf) && numeric(bf)) {
                        return fail(node, format!(
                            "rcase-NameAndTypeOK.4: element \"{}\" is fixed to \"{rf}\", but the base type's element to \"{bf}\"",
                            re.name
                        ));
                    }
                }
            }
        }
        let constraints = |d: usize| -> Vec<String> {
            cx.nodes[d]
                .children
                .iter()
                .filter(|&&c| {
                    let k = &cx.nodes[c];
                    k.xs && matches!(k.local.as_str(), "key" | "unique" | "keyref")
                })
                .filter_map(|&c| cx.nodes[c].attr("name").map(|n| n.trim().to_string()))
                .collect()
        };
        let bc = constraints(be.decl);
        if let Some(extra) = constraints(re.decl).into_iter().find(|n| !bc.contains(n)) {
            return fail(node, format!(
                "rcase-NameAndTypeOK.5: element \"{}\" has the identity constraint \"{extra}\", which the base type's element does not have",
                re.name
            ));
        }
        let block = |d: usize| {
            let on = cx.nodes[d].attr("block");
            block_set(on.or_else(|| cx.nodes[0].attr("blockDefault")))
        };
        let (rb, bb) = (block(re.decl), block(be.decl));
        if let Some(missing) = bb.iter().find(|t| !rb.contains(t)) {
            return fail(node, format!(
                "rcase-NameAndTypeOK.6: the base type's element \"{}\" blocks {missing}; the restriction must block at least what it blocks",
                re.name
            ));
        }
        let rt = cx.declared_type(re.decl, 0);
        let bt = cx.declared_type(be.decl, 0);
        if self.derives(&rt, &bt, 0) == Some(false) {
            return fail(node, format!(
                "rcase-NameAndTypeOK.7: the type of element \"{}\" is not derived by restriction from the type of the base type's element",
                re.name
            ));
        }
        Ok(())
    }
}

/// Whether R's `n` particles map, in order, onto B's `m` (each onto one that it
/// restricts, `ok`), every B particle left out being `skippable`.
fn order_preserving(
    n: usize,
    m: usize,
    ok: &dyn Fn(usize, usize) -> bool,
    skippable: &dyn Fn(usize) -> bool,
) -> bool {
    // can[i][j]: R's particles from i map onto B's from j.
    let mut can = vec![vec![false; m + 1]; n + 1];
    can[n][m] = true;
    for j in (0..m).rev() {
        can[n][j] = skippable(j) && can[n][j + 1];
    }
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            can[i][j] = (ok(i, j) && can[i + 1][j + 1]) || (skippable(j) && can[i][j + 1]);
        }
    }
    can[0][0]
}

/// RecurseUnordered: each of R's particles onto a different particle of B's xs:all, every
/// B particle left out emptiable.
fn unordered(n: usize, bk: &[Particle], ok: &dyn Fn(usize, usize) -> bool) -> bool {
    fn go(
        i: usize,
        n: usize,
        used: &mut Vec<bool>,
        bk: &[Particle],
        ok: &dyn Fn(usize, usize) -> bool,
    ) -> bool {
        if i == n {
            return bk.iter().zip(used.iter()).all(|(p, &u)| u || p.emptiable());
        }
        for j in 0..bk.len() {
            if !used[j] && ok(i, j) {
                used[j] = true;
                if go(i + 1, n, used, bk, ok) {
                    return true;
                }
                used[j] = false;
            }
        }
        false
    }
    if n > 16 || bk.len() > 16 {
        // Beyond what a search should try: not judged.
        return true;
    }
    go(0, n, &mut vec![false; bk.len()], bk, ok)
}

impl Checker<'_> {
    /// Whether `node` is inside xs:redefine (whose derivations name the redefined
    /// components, in another document).
    pub(super) fn in_redefine(&self, node: usize) -> bool {
        let mut p = self.nodes[node].parent;
        while let Some(q) = p {
            if self.nodes[q].is("redefine") {
                return true;
            }
            p = self.nodes[q].parent;
        }
        false
    }

    /// Each head of a substitution group declared here: its members' declarations, in
    /// document order.
    fn substitution_members(&self) -> HashMap<usize, Vec<usize>> {
        let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
        for (&(space, _), &g) in &self.globals {
            if space != Space::Element {
                continue;
            }
            if let Some(heads) = self.nodes[g].attr("substitutionGroup") {
                for head in self.substitution_heads(heads) {
                    if let Some(h) = self.global_named(g, head, Space::Element) {
                        members.entry(h).or_default().push(g);
                    }
                }
            }
        }
        for m in members.values_mut() {
            m.sort();
        }
        members
    }

    /// Whether the model group (xs:sequence, xs:choice or xs:all) `r` restricts `b`
    /// (Particle Valid (Restriction), 3.9.6): why not, with the node at fault; None when it
    /// does, or when what it needs is not known here.
    pub(super) fn group_restricts(&self, r: usize, b: usize) -> Option<(usize, String)> {
        let (Ok(Some(rp)), Ok(Some(bp))) = (self.particle(r, 0), self.particle(b, 0)) else {
            return None;
        };
        let rx = Restriction {
            cx: self,
            members: self.substitution_members(),
        };
        let (rp, bp) = (rx.normalize(rp), rx.normalize(bp));
        rx.content_restricts(&rp, &bp)
            .err()
            .map(|f| (f.node, f.message))
    }

    /// Whether type `r` is derived from `b` by restriction only; None when unknown.
    pub(super) fn type_derives(&self, r: &TypeRef, b: &TypeRef) -> Option<bool> {
        Restriction {
            cx: self,
            members: HashMap::new(),
        }
        .derives(r, b, 0)
    }

    /// Every complex type derived by restriction or extension from one in this document.
    pub(super) fn check_derivations(&mut self) {
        let members = self.substitution_members();
        let mut problems: Vec<(usize, String, String)> = Vec::new();
        {
            let rx = Restriction { cx: self, members };
            for ct in 0..self.nodes.len() {
                if !self.nodes[ct].is("complexType") || self.in_redefine(ct) {
                    continue;
                }
                let Some((content, d)) = self.derivation(ct) else {
                    continue;
                };
                let Some(base_name) = self.nodes[d].attr("base") else {
                    continue;
                };
                let base = self.type_named(d, base_name);
                if base == TypeRef::Unknown {
                    continue;
                }
                let simple_content = self.nodes[content].is("simpleContent");
                let restriction = self.nodes[d].is("restriction");
                let what = format!("base=\"{base_name}\" on {}", self.construct(d));
                if let Some((node, message)) =
                    rx.check_type(ct, d, &base, simple_content, restriction)
                {
                    problems.push((node, what, message));
                }
            }
        }
        for (node, construct, message) in problems {
            self.invalid(node, construct, message);
        }
        if self.xsd_1_1 {
            self.check_alternatives();
        }
    }

    /// XSD 1.1's type alternatives of each element declaration: only the last may leave
    /// out its test (3.3.3, src-element.5), and each alternative's type is derived from
    /// the element's declared type, or is xs:error (3.3.6.1, e-props-correct.7).
    fn check_alternatives(&mut self) {
        let mut problems: Vec<(usize, String, String)> = Vec::new();
        for el in 0..self.nodes.len() {
            if !self.nodes[el].is("element") {
                continue;
            }
            let alternatives: Vec<usize> = self.nodes[el]
                .children
                .iter()
                .copied()
                .filter(|&c| self.nodes[c].is("alternative"))
                .collect();
            let Some((_, leading)) = alternatives.split_last() else {
                continue;
            };
            for &a in leading {
                if self.nodes[a].attr("test").is_none() {
                    problems.push((a, self.construct(el), "src-element.5: only the last xs:alternative of an element may leave out test= (XSD 1.1, 3.3.3)".into()));
                }
            }
            let declared = self.declared_type(el, 0);
            if declared == TypeRef::Unknown {
                continue;
            }
            for &a in &alternatives {
                let chosen = self.declared_type(a, 0);
                if chosen == TypeRef::Unknown || chosen == declared {
                    continue;
                }
                if self.methods_to(&chosen, &declared, 0) == Some(None) {
                    let shown = |t: &TypeRef| match t {
                        TypeRef::Builtin(b) => format!("xs:{b}"),
                        TypeRef::Node(n) => match self.nodes[*n].attr("name") {
                            Some(name) => format!("\"{name}\""),
                            None => "the anonymous type".into(),
                        },
                        TypeRef::Unknown => "?".into(),
                    };
                    problems.push((a, self.construct(el), format!(
                        "e-props-correct.7: the alternative's type {} is not derived from the element's declared type {} (XSD 1.1, 3.3.6.1)",
                        shown(&chosen), shown(&declared)
                    )));
                }
            }
        }
        for (node, construct, message) in problems {
            self.invalid(node, construct, message);
        }
    }
}

impl Restriction<'_, '_> {
    /// The content-type constraints of one derivation; the first problem found.
    fn check_type(
        &self,
        ct: usize,
        d: usize,
        base: &TypeRef,
        simple_content: bool,
        restriction: bool,
    ) -> Option<(usize, String)> {
        let cx = self.cx;
        let base_is_complex = match base {
            TypeRef::Node(b) => cx.nodes[*b].is("complexType"),
            TypeRef::Builtin(b) => b == "anyType",
            TypeRef::Unknown => return None,
        };
        if !base_is_complex {
            // A simple base: only simpleContent extension and restriction of simple
            // types, checked elsewhere.
            return None;
        }
        let base_content = cx.content(base, 0).ok()?;
        if simple_content {
            let ok = match (&base_content, restriction) {
                (Content::Simple, _) => true,
                (
                    Content::Particle {
                        mixed: true,
                        particle,
                    },
                    true,
                ) => particle.emptiable(),
                _ => false,
            };
            if !ok {
                let why = if restriction {
                    "derivation-ok-restriction.5.1: a simpleContent restriction needs a base with simple content, or mixed content that is emptiable"
                } else {
                    "src-ct.2.1: a simpleContent extension needs a simple type or a complex type with simple content as its base"
                };
                return Some((d, why.into()));
            }
            return None;
        }
        if matches!(base, TypeRef::Builtin(_)) {
            // Restricting or extending anyType.
            return None;
        }
        if restriction {
            let own = cx.content(&TypeRef::Node(ct), 0).ok()?;
            match (own, base_content) {
                (Content::Empty, Content::Empty) => None,
                (Content::Empty, Content::Particle { particle, .. }) => (!particle.emptiable())
                    .then(|| (d, "derivation-ok-restriction.5.2: the restriction has empty content, but the base type's content is not emptiable".into())),
                (Content::Empty, Content::Simple) => Some((d, "derivation-ok-restriction.5.2: the restriction has empty content, but the base type has simple content".into())),
                (Content::Particle { .. }, Content::Empty) => Some((d, "derivation-ok-restriction.5.3: the base type has empty content; a restriction of it cannot have elements".into())),
                (Content::Particle { .. }, Content::Simple) => Some((d, "derivation-ok-restriction.5.3: the base type has simple content; a complexContent restriction of it cannot have elements".into())),
                (Content::Particle { mixed: true, .. }, Content::Particle { mixed: false, .. }) => {
                    Some((d, "derivation-ok-restriction.5.3: the restriction is mixed, but the base type's content is element-only".into()))
                }
                (Content::Particle { particle: r, .. }, Content::Particle { particle: b, .. }) => {
                    let r = self.normalize(r);
                    let b = self.normalize(b);
                    self.content_restricts(&r, &b).err().map(|f| {
                        let clause = if cx.xsd_1_1 {
                            "derivation-ok-restriction.5.4 (XSD 1.1, 3.4.6.4 Content Type Restricts)"
                        } else {
                            "derivation-ok-restriction.5.3 (cos-particle-restrict)"
                        };
                        (f.node, format!("{clause}: {}", f.message))
                    })
                }
                (Content::Simple, _) => None,
            }
        } else {
            let mixed = cx.mixed(ct);
            let explicit = cx.child(d, &["group", "sequence", "choice", "all"]);
            let explicit_particle = match explicit {
                Some(p) => cx.particle(p, 0).ok()?,
                None => None,
            };
            let explicit_empty = match &explicit_particle {
                None => true,
                Some(p) => {
                    matches!(&p.term, Term::Group(c, k) if k.is_empty() && (*c != Compositor::Choice || p.min == 0))
                }
            };
            if explicit_empty && !mixed {
                return None;
            }
            match base_content {
                Content::Simple => Some((d, "cos-ct-extends.1.4.3.2: the base type has simple content; an extension of it cannot add elements".into())),
                Content::Empty => None,
                Content::Particle { mixed: bm, particle } => {
                    if bm != mixed {
                        return Some((d, format!(
                            "cos-ct-extends.1.4.3.2.2.1: the base type's content is {}, the extension's {}: both must be mixed or both element-only",
                            if bm { "mixed" } else { "element-only" },
                            if mixed { "mixed" } else { "element-only" }
                        )));
                    }
                    if explicit_empty {
                        return None;
                    }
                    let all = |p: &Particle| matches!(p.term, Term::Group(Compositor::All, _));
                    // XSD 1.1 (3.4.2.3.3, 4.2.3.3): an all group extended by an all group
                    // is one all group.
                    if let Some(own) = explicit_particle
                        .as_ref()
                        .filter(|e| self.cx.xsd_1_1 && all(&particle) && all(e))
                    {
                        // cos-ct-extends.1.4.3.2.2.3: occurring as the base's group does.
                        return (own.min != particle.min).then(|| (d, format!("cos-ct-extends.1.4.3.2.2.3: the extension's xs:all has minOccurs {}, the base type's {}: an all group extending an all group occurs as it does", own.min, particle.min)));
                    }
                    if all(&particle) || explicit_particle.as_ref().is_some_and(all) {
                        return Some((d, "cos-all-limited.1.2: extending a type adds to its content in a sequence, and xs:all cannot be inside a sequence".into()));
                    }
                    None
                }
            }
        }
    }
}

impl Checker<'_> {
    /// The derivation methods leading from type `r` up to `b` (any method): Some(None)
    /// when `r` is not derived from `b`, None when unknown here.
    fn methods_to(
        &self,
        r: &TypeRef,
        b: &TypeRef,
        depth: usize,
    ) -> Option<Option<Vec<&'static str>>> {
        if r == b {
            return Some(Some(Vec::new()));
        }
        if depth > 48 {
            return None;
        }
        if let TypeRef::Node(u) = b {
            // A member of a union is derived from it too (not followed here).
            if self.nodes[*u].is("simpleType") && self.child(*u, &["union"]).is_some() {
                return None;
            }
        }
        let up = |t: TypeRef, m: &'static str| -> Option<Option<Vec<&'static str>>> {
            Some(self.methods_to(&t, b, depth + 1)?.map(|mut v| {
                v.push(m);
                v
            }))
        };
        match r {
            TypeRef::Unknown => None,
            TypeRef::Builtin(x) => match builtin_base(x) {
                Some(base) => up(TypeRef::Builtin(base.into()), "restriction"),
                None if matches!(b, TypeRef::Unknown) => None,
                None => Some(None),
            },
            TypeRef::Node(n) => {
                if self.nodes[*n].is("simpleType") {
                    let step = self.child(*n, &["restriction", "list", "union"])?;
                    if !self.nodes[step].is("restriction") {
                        let method = if self.nodes[step].is("list") {
                            "list"
                        } else {
                            "union"
                        };
                        return up(TypeRef::Builtin("anySimpleType".into()), method);
                    }
                    let base = match self.nodes[step].attr("base") {
                        Some(q) => self.type_named(step, q),
                        None => TypeRef::Node(self.child(step, &["simpleType"])?),
                    };
                    return up(base, "restriction");
                }
                match self.derivation(*n) {
                    None => up(TypeRef::Builtin("anyType".into()), "restriction"),
                    Some((_, d)) => {
                        let base = self.type_named(d, self.nodes[d].attr("base")?);
                        let m = if self.nodes[d].is("extension") {
                            "extension"
                        } else {
                            "restriction"
                        };
                        up(base, m)
                    }
                }
            }
        }
    }

    /// e-props-correct.3: a substitution group member's type is derived from its head's,
    /// by no method the head's final excludes.
    pub(super) fn check_substitution_groups(&mut self) {
        let mut problems = Vec::new();
        for (&(space, _), &e) in &self.globals {
            if space != Space::Element {
                continue;
            }
            let Some(heads) = self.nodes[e].attr("substitutionGroup") else {
                continue;
            };
            // XSD 1.1: the type is derived from each head's (e-props-correct.4).
            for head in self.substitution_heads(heads) {
                let Some(h) = self.global_named(e, head, Space::Element) else {
                    continue;
                };
                let et = self.declared_type(e, 0);
                let ht = self.declared_type(h, 0);
                let construct = format!("substitutionGroup=\"{heads}\" on {}", self.construct(e));
                match self.methods_to(&et, &ht, 0) {
                Some(None) => problems.push((e, construct, format!("e-props-correct.3: the type of element \"{}\" is not derived from the type of its substitution group head \"{head}\"", self.nodes[e].attr("name").unwrap_or("").trim()))),
                Some(Some(methods)) => {
                    let exclusions = self.nodes[h]
                        .attr("final")
                        .or_else(|| self.nodes[0].attr("finalDefault"))
                        .unwrap_or("")
                        .trim()
                        .to_string();
                    let excluded = |m: &str| {
                        matches!(m, "extension" | "restriction")
                            && (exclusions == "#all" || exclusions.split_whitespace().any(|t| t == m))
                    };
                    if let Some(m) = methods.iter().find(|m| excluded(m)) {
                        problems.push((e, construct, format!("e-props-correct.3: the head \"{head}\" is final for {m}, and the type of element \"{}\" is derived from the head's type by {m}", self.nodes[e].attr("name").unwrap_or("").trim())));
                    }
                }
                None => {}
            }
            }
        }
        problems.sort();
        for (node, construct, message) in problems {
            self.invalid(node, construct, message);
        }
    }
}
