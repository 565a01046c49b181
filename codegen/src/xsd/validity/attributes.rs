//! Attribute uses of derived complex types: Derivation Valid (Restriction, Complex)
//! clauses 2 to 4 (Part 1, 3.4.6: each attribute use a restriction of the base's, no
//! required one dropped, an attribute wildcard only within the base's), and an extension
//! declaring again an attribute it inherits (ct-props-correct.4).

use super::components::{TypeRef, Wildcard};
use super::{Checker, Space};

/// One attribute use as far as it matters here.
#[derive(Debug, Clone)]
struct Use {
    namespace: Option<String>,
    name: String,
    /// The xs:attribute element (the use).
    node: usize,
    /// The declaration (the use itself, or the global a reference names).
    decl: usize,
    required: bool,
    prohibited: bool,
}

/// The attribute wildcard a type has: none, one known, or not known here.
#[derive(Debug, Clone)]
enum AnyAttribute {
    None,
    Known(Wildcard),
    Unknown,
}

impl Checker<'_> {
    /// The attribute uses declared under `holder` (attributes and attribute group
    /// references, followed), and whether an attribute wildcard appears among them; None
    /// when a group is not known here.
    fn declared_uses(&self, holder: usize, depth: usize) -> Option<(Vec<Use>, Vec<usize>)> {
        if depth > 32 {
            return None;
        }
        let mut uses = Vec::new();
        let mut wildcards = Vec::new();
        for &c in &self.nodes[holder].children {
            let n = &self.nodes[c];
            if !n.xs {
                continue;
            }
            match n.local.as_str() {
                "attribute" => {
                    let (namespace, name, decl) = self.declaration(c)?;
                    if decl == c && n.attr("ref").is_some() {
                        // Declared in another document.
                        return None;
                    }
                    let use_ = n.attr("use").map(str::trim);
                    uses.push(Use {
                        namespace,
                        name,
                        node: c,
                        decl,
                        required: use_ == Some("required"),
                        prohibited: use_ == Some("prohibited"),
                    });
                }
                "attributeGroup" => {
                    let g = self.global_named(c, n.attr("ref")?, Space::AttributeGroup)?;
                    let (u, w) = self.declared_uses(g, depth + 1)?;
                    uses.extend(u);
                    wildcards.extend(w);
                }
                "anyAttribute" => wildcards.push(c),
                _ => {}
            }
        }
        Some((uses, wildcards))
    }

    /// Where a complex type element's attributes are declared: the type itself or its
    /// derivation element.
    fn attribute_holder(&self, ct: usize) -> usize {
        self.derivation(ct).map(|(_, d)| d).unwrap_or(ct)
    }

    /// Every attribute use of a type (inherited ones included, prohibited ones left out)
    /// and its attribute wildcard; None when not known here.
    fn attribute_uses(&self, ty: &TypeRef, depth: usize) -> Option<(Vec<Use>, AnyAttribute)> {
        if depth > 32 {
            return None;
        }
        let ct = match ty {
            TypeRef::Node(n) if self.nodes[*n].is("complexType") => *n,
            TypeRef::Node(_) => return Some((Vec::new(), AnyAttribute::None)),
            TypeRef::Builtin(b) if b == "anyType" => {
                return Some((Vec::new(), AnyAttribute::Known(Wildcard::any_lax())))
            }
            TypeRef::Builtin(_) => return Some((Vec::new(), AnyAttribute::None)),
            TypeRef::Unknown => return None,
        };
        let holder = self.attribute_holder(ct);
        let (own, wildcards) = self.declared_uses(holder, 0)?;
        let (mut all, inherited_wildcard) = match self.derivation(ct) {
            Some((_, d)) => {
                let base = self.type_named(d, self.nodes[d].attr("base")?);
                let (uses, w) = self.attribute_uses(&base, depth + 1)?;
                let extension = self.nodes[d].is("extension");
                (uses, if extension { w } else { AnyAttribute::None })
            }
            None => (Vec::new(), AnyAttribute::None),
        };
        for u in own {
            all.retain(|b| !(b.name == u.name && b.namespace == u.namespace));
            if !u.prohibited {
                all.push(u);
            }
        }
        let wildcard = match (wildcards.as_slice(), inherited_wildcard) {
            ([], AnyAttribute::None) => AnyAttribute::None,
            ([one], AnyAttribute::None) if self.nodes[*one].parent == Some(holder) => {
                AnyAttribute::Known(self.wildcard(*one))
            }
            ([], known @ AnyAttribute::Known(..)) => known,
            _ => AnyAttribute::Unknown,
        };
        Some((all, wildcard))
    }

    /// ct-props-correct.5 (XSD 1.0, 3.4.6): of a complex type's attribute uses (its own
    /// and those it derives), at most one is of type xs:ID or a type derived from it.
    /// Reported at the type, naming the first two.
    pub(super) fn check_id_attributes(&mut self) {
        let id = TypeRef::Builtin("ID".into());
        let mut problems: Vec<(usize, String, String)> = Vec::new();
        for ct in 0..self.nodes.len() {
            if !self.nodes[ct].is("complexType") || self.in_redefine(ct) {
                continue;
            }
            let Some((uses, _)) = self.attribute_uses(&TypeRef::Node(ct), 0) else {
                continue;
            };
            let ids: Vec<&Use> = uses
                .iter()
                .filter(|u| {
                    !u.prohibited
                        && self.type_derives(&self.declared_type(u.decl, 0), &id) == Some(true)
                })
                .collect();
            if let [a, b, ..] = ids.as_slice() {
                problems.push((ct, self.construct(ct), format!("ct-props-correct.5: attributes \"{}\" and \"{}\" are both of type xs:ID (or a type derived from it); XSD 1.0 allows one", a.name, b.name)));
            }
        }
        for (node, construct, message) in problems {
            self.invalid(node, construct, message);
        }
    }

    /// The attribute-use constraints of every complex type derived in this document:
    /// ct-props-correct.4 for an extension, derivation-ok-restriction 2 to 4 for a
    /// restriction.
    pub(super) fn check_attribute_derivations(&mut self) {
        let mut problems: Vec<(usize, String, String)> = Vec::new();
        for ct in 0..self.nodes.len() {
            if !self.nodes[ct].is("complexType") || self.in_redefine(ct) {
                continue;
            }
            let Some((_, d)) = self.derivation(ct) else {
                continue;
            };
            let Some(base_name) = self.nodes[d].attr("base") else {
                continue;
            };
            let base = self.type_named(d, base_name);
            if !matches!(base, TypeRef::Node(b) if self.nodes[b].is("complexType")) {
                continue;
            }
            let Some((base_uses, base_wildcard)) = self.attribute_uses(&base, 0) else {
                continue;
            };
            let Some((own, own_wildcards)) = self.declared_uses(d, 0) else {
                continue;
            };
            let owner = self.construct(ct);
            if self.nodes[d].is("extension") {
                for u in &own {
                    if base_uses
                        .iter()
                        .any(|b| b.name == u.name && b.namespace == u.namespace)
                    {
                        problems.push((u.node, format!("attribute \"{}\" of {owner}", u.name), format!("ct-props-correct.4: the base type already has an attribute \"{}\"; an extension cannot declare it again", u.name)));
                    }
                }
                continue;
            }
            problems.extend(self.restricted_uses(
                &own,
                &own_wildcards,
                d,
                &base_uses,
                &base_wildcard,
                &owner,
            ));
        }
        for (node, construct, message) in problems {
            self.invalid(node, construct, message);
        }
    }

    /// Whether the attribute group `r` restricts `b` as a complex type's attributes restrict
    /// its base's (XSD 1.0, 4.2.2 src-redefine.7.2.2, with 3.4.6 derivation-ok-restriction
    /// 2 to 4): the problems found (none when a group is not known here).
    pub(super) fn attribute_group_restricts(
        &self,
        r: usize,
        b: usize,
    ) -> Vec<(usize, String, String)> {
        let (Some((own, own_wildcards)), Some((base_uses, base_wildcards))) =
            (self.declared_uses(r, 0), self.declared_uses(b, 0))
        else {
            return Vec::new();
        };
        let base_wildcard = match base_wildcards.as_slice() {
            [] => AnyAttribute::None,
            [one] if self.nodes[*one].parent == Some(b) => AnyAttribute::Known(self.wildcard(*one)),
            _ => AnyAttribute::Unknown,
        };
        let owner = self.construct(r);
        self.restricted_uses(&own, &own_wildcards, r, &base_uses, &base_wildcard, &owner)
    }

    /// The uses `own` and wildcards `own_wildcards` declared under `holder` against the
    /// base's `base_uses` and `base_wildcard` (derivation-ok-restriction 2 to 4): each use a
    /// restriction of the base's of its name, no required one dropped, no attribute the
    /// base has no use or wildcard for, a wildcard only within the base's. `owner` names
    /// the type or group in messages.
    fn restricted_uses(
        &self,
        own: &[Use],
        own_wildcards: &[usize],
        holder: usize,
        base_uses: &[Use],
        base_wildcard: &AnyAttribute,
        owner: &str,
    ) -> Vec<(usize, String, String)> {
        let mut problems = Vec::new();
        let find = |u: &Use| {
            base_uses
                .iter()
                .find(|b| b.name == u.name && b.namespace == u.namespace)
        };
        let construct = |u: &Use| format!("attribute \"{}\" of {owner}", u.name);
        let global = |n: &(Option<String>, String)| self.declares(Space::Attribute, n);
        for u in own {
            match find(u) {
                Some(b) => {
                    if b.required && u.prohibited {
                        problems.push((u.node, construct(u), format!("derivation-ok-restriction.3: attribute \"{}\" is required in the base type; a restriction cannot prohibit it", u.name)));
                    } else if b.required && !u.required && !u.prohibited {
                        problems.push((u.node, construct(u), format!("derivation-ok-restriction.2.1.1: attribute \"{}\" is required in the base type; the restriction must keep use=\"required\"", u.name)));
                    }
                    if u.prohibited {
                        continue;
                    }
                    let fixed = |x: &Use| {
                        self.nodes[x.node]
                            .attr("fixed")
                            .or_else(|| self.nodes[x.decl].attr("fixed"))
                            .map(|v| v.split_whitespace().collect::<Vec<_>>().join(" "))
                    };
                    if let Some(bf) = fixed(b) {
                        match fixed(u) {
                            Some(rf) if rf == bf => {}
                            Some(rf) if rf.parse::<f64>().is_ok() && bf.parse::<f64>().is_ok() => {}
                            other => problems.push((u.node, construct(u), format!(
                                "derivation-ok-restriction.2.1.3: attribute \"{}\" is fixed to \"{bf}\" in the base type; the restriction {}",
                                u.name,
                                match other {
                                    Some(rf) => format!("fixes it to \"{rf}\""),
                                    None => "must fix the same value".into(),
                                }
                            ))),
                        }
                    }
                    // XSD 1.1: the use's inheritable=, else its declaration's; false if
                    // neither says.
                    let inheritable = |x: &Use| {
                        self.nodes[x.node]
                            .attr("inheritable")
                            .or_else(|| self.nodes[x.decl].attr("inheritable"))
                            .is_some_and(|v| matches!(v.trim(), "true" | "1"))
                    };
                    if inheritable(u) != inheritable(b) {
                        problems.push((u.node, construct(u), format!(
                            "derivation-ok-restriction.2.1.4: attribute \"{}\" is {}inheritable in the base type; a restriction must keep that",
                            u.name,
                            if inheritable(b) { "" } else { "not " }
                        )));
                    }
                    let rt = self.declared_type(u.decl, 0);
                    let bt = self.declared_type(b.decl, 0);
                    if self.type_derives(&rt, &bt) == Some(false) {
                        problems.push((u.node, construct(u), format!("derivation-ok-restriction.2.1.2: the type of attribute \"{}\" is not derived from its type in the base type", u.name)));
                    }
                }
                None if u.prohibited => {}
                None => match base_wildcard {
                    AnyAttribute::None => problems.push((u.node, construct(u), format!("derivation-ok-restriction.2.2: the base type has no attribute \"{}\" and no attribute wildcard; a restriction cannot add attributes", u.name))),
                    AnyAttribute::Known(w) if !w.namespaces.allows(&u.namespace) => problems.push((u.node, construct(u), format!("derivation-ok-restriction.2.2: the base type has no attribute \"{}\", and its attribute wildcard does not allow its namespace", u.name))),
                    AnyAttribute::Known(w) if !w.allows(&(u.namespace.clone(), u.name.clone()), &global) => problems.push((u.node, construct(u), format!("derivation-ok-restriction.2.2: the base type has no attribute \"{}\", and its attribute wildcard disallows the name (notQName)", u.name))),
                    _ => {}
                },
            }
        }
        let own_direct: Vec<usize> = own_wildcards
            .iter()
            .copied()
            .filter(|&w| self.nodes[w].parent == Some(holder))
            .collect();
        if own_wildcards.is_empty() {
            return problems;
        }
        let at = own_wildcards[0];
        let con = format!("xs:anyAttribute of {owner}");
        match base_wildcard {
            AnyAttribute::None => problems.push((at, con, "derivation-ok-restriction.4.1: the restriction has an attribute wildcard, but the base type has none".into())),
            AnyAttribute::Known(b) if own_direct.len() == 1 && own_wildcards.len() == 1 => {
                let w = self.wildcard(at);
                if let Err(why) = w.subset_of(b, &global) {
                    problems.push((at, con, format!("derivation-ok-restriction.4.2: the attribute wildcard {why}")));
                } else if w.process < b.process {
                    problems.push((at, con, "derivation-ok-restriction.4.3: the attribute wildcard's processContents is weaker than the base type's".into()));
                }
            }
            _ => {}
        }
        problems
    }
}
