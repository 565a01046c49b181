//! The schema components the derivation constraints compare, built from the markup of one
//! document: particles (with group references and element references followed), element
//! declarations, wildcards, type references and content types (Part 1, 3.4.2, 3.8, 3.9,
//! 3.10).
//!
//! Whatever cannot be known from this document (a component of another namespace or of a
//! composed document, a malformed attribute the other checks report) comes out as `None`
//! or [`TypeRef::Unknown`], and the constraints that need it are not judged: the pass
//! reports only what it can prove.

use std::collections::BTreeSet;

use super::{builtin_primitive, non_negative_integer, Checker, QName, Space, XS_NS};

/// A namespace constraint (Part 1, 3.10.1): `None` stands for no namespace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Namespaces {
    Any,
    /// Any namespace but these (`##other`: the target namespace and no namespace; XSD
    /// 1.1's `notNamespace`: those it lists).
    Not(BTreeSet<Option<String>>),
    Set(BTreeSet<Option<String>>),
}

impl Namespaces {
    /// Wildcard allows Namespace Name (Part 1, 3.10.4).
    pub(super) fn allows(&self, ns: &Option<String>) -> bool {
        match self {
            Namespaces::Any => true,
            Namespaces::Not(n) => !n.contains(ns),
            Namespaces::Set(s) => s.contains(ns),
        }
    }

    /// Wildcard Subset (Part 1, 3.10.6): whether every namespace `self` allows `of` allows.
    pub(super) fn subset_of(&self, of: &Namespaces) -> bool {
        match (self, of) {
            (_, Namespaces::Any) => true,
            // Excluding at least what `of` excludes.
            (Namespaces::Not(a), Namespaces::Not(b)) => b.is_subset(a),
            (Namespaces::Set(s), Namespaces::Not(n)) => s.is_disjoint(n),
            (Namespaces::Set(s), Namespaces::Set(t)) => s.is_subset(t),
            _ => false,
        }
    }
}

/// A wildcard (element or attribute).
#[derive(Debug, Clone)]
pub(super) struct Wildcard {
    pub(super) namespaces: Namespaces,
    /// XSD 1.1's {disallowed names} (`notQName`): its QNames, as written (those that do
    /// not resolve are reported by the attribute checks and left out), and the keywords.
    pub(super) names: BTreeSet<QName>,
    /// `##defined`: no name of a global declaration (of the wildcard's kind).
    pub(super) defined: bool,
    /// `##definedSibling`: no name of an element declaration of its content model.
    pub(super) sibling: bool,
    /// 0 skip, 1 lax, 2 strict.
    pub(super) process: u8,
}

impl Wildcard {
    /// `xs:anyType`'s: any name of any namespace, lax.
    pub(super) fn any_lax() -> Wildcard {
        Wildcard {
            namespaces: Namespaces::Any,
            names: BTreeSet::new(),
            defined: false,
            sibling: false,
            process: 1,
        }
    }

    /// Whether the wildcard allows the expanded name `name` (Part 1, 3.10.4.2, XSD 1.1):
    /// its namespace allowed, the name not disallowed. `global`: whether the schema has a
    /// global declaration of that name (of the wildcard's kind), for `##defined`; what
    /// `##definedSibling` disallows depends on a content model and is not judged here.
    pub(super) fn allows(&self, name: &QName, global: &dyn Fn(&QName) -> bool) -> bool {
        self.namespaces.allows(&name.0)
            && !self.names.contains(name)
            && !(self.defined && global(name))
    }

    /// Wildcard Subset (XSD 1.1, Part 1, 3.10.6.2): the namespaces a subset, each name
    /// `of` disallows not allowed by `self` either, and `of`'s keywords kept.
    pub(super) fn subset_of(
        &self,
        of: &Wildcard,
        global: &dyn Fn(&QName) -> bool,
    ) -> Result<(), String> {
        if !self.namespaces.subset_of(&of.namespaces) {
            return Err("allows namespaces the base's wildcard does not".into());
        }
        if let Some((ns, local)) = of.names.iter().find(|n| self.allows(n, global)) {
            let name = match ns {
                Some(ns) => format!("{{{ns}}}{local}"),
                None => local.clone(),
            };
            return Err(format!(
                "allows the name {name}, which the base's wildcard disallows (notQName)"
            ));
        }
        if of.defined && !self.defined {
            return Err("lacks the base's notQName keyword ##defined".into());
        }
        if of.sibling && !self.sibling {
            return Err("lacks the base's notQName keyword ##definedSibling".into());
        }
        Ok(())
    }
}

/// A type definition as far as this document can name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum TypeRef {
    /// A built-in of the XSD namespace, by local name.
    Builtin(String),
    /// A `xs:simpleType` or `xs:complexType` element of this document.
    Node(usize),
    Unknown,
}

/// An element declaration: its name and the node that declares it.
#[derive(Debug, Clone)]
pub(super) struct Element {
    pub(super) namespace: Option<String>,
    pub(super) name: String,
    pub(super) decl: usize,
    /// A global declaration (the term of a reference).
    pub(super) global: bool,
    /// Whether `decl` is the declaration; false for a reference to one in another
    /// document (`decl` is then the reference), whose name alone is known.
    pub(super) known: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Compositor {
    Sequence,
    Choice,
    All,
}

impl Compositor {
    pub(super) fn noun(self) -> &'static str {
        match self {
            Compositor::Sequence => "xs:sequence",
            Compositor::Choice => "xs:choice",
            Compositor::All => "xs:all",
        }
    }
}

#[derive(Debug, Clone)]
pub(super) enum Term {
    Element(Element),
    Wildcard(Wildcard),
    Group(Compositor, Vec<Particle>),
}

/// A particle: occurrence range (`max` None = unbounded), term, and the node it comes
/// from (where a problem with it is reported).
#[derive(Debug, Clone)]
pub(super) struct Particle {
    pub(super) min: u64,
    pub(super) max: Option<u64>,
    pub(super) term: Term,
    pub(super) node: usize,
}

impl Particle {
    /// The minimum of the effective total range (Part 1, 3.8.6).
    pub(super) fn effective_min(&self) -> u64 {
        match &self.term {
            Term::Element(_) | Term::Wildcard(_) => self.min,
            Term::Group(Compositor::Choice, kids) => self
                .min
                .saturating_mul(kids.iter().map(Particle::effective_min).min().unwrap_or(0)),
            Term::Group(_, kids) => self.min.saturating_mul(
                kids.iter()
                    .map(Particle::effective_min)
                    .fold(0, u64::saturating_add),
            ),
        }
    }

    /// The maximum of the effective total range; None is unbounded.
    pub(super) fn effective_max(&self) -> Option<u64> {
        if self.max == Some(0) {
            return Some(0);
        }
        let inner = match &self.term {
            Term::Element(_) | Term::Wildcard(_) => return self.max,
            Term::Group(Compositor::Choice, kids) => {
                let mut m = Some(0u64);
                for k in kids {
                    m = match (m, k.effective_max()) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
                m
            }
            Term::Group(_, kids) => {
                let mut m = Some(0u64);
                for k in kids {
                    m = match (m, k.effective_max()) {
                        (Some(a), Some(b)) => Some(a.saturating_add(b)),
                        _ => None,
                    };
                }
                m
            }
        };
        match (inner, self.max) {
            (Some(0), _) => Some(0),
            (Some(a), Some(b)) => Some(a.saturating_mul(b)),
            _ => None,
        }
    }

    pub(super) fn emptiable(&self) -> bool {
        self.effective_min() == 0
    }
}

/// A complex type's content type (Part 1, 3.4.2).
#[derive(Debug, Clone)]
pub(super) enum Content {
    Empty,
    Simple,
    Particle { mixed: bool, particle: Particle },
}

/// How deep references are followed (a cycle is reported elsewhere).
const DEPTH: usize = 48;

fn truthy(v: Option<&str>) -> bool {
    v.is_some_and(|m| matches!(m.trim(), "true" | "1"))
}

impl Checker<'_> {
    /// The occurrence range of a particle element; None when malformed.
    pub(super) fn occurs(&self, node: usize) -> Option<(u64, Option<u64>)> {
        let n = &self.nodes[node];
        let min = match n.attr("minOccurs") {
            Some(m) => u64::try_from(non_negative_integer(m)?).unwrap_or(u64::MAX),
            None => 1,
        };
        let max = match n.attr("maxOccurs").map(str::trim) {
            Some("unbounded") => None,
            Some(m) => Some(u64::try_from(non_negative_integer(m)?).unwrap_or(u64::MAX)),
            None => Some(1),
        };
        Some((min, max))
    }

    /// Whether the schema has a global declaration of `space` named `name`, as far as it
    /// is known here (this document, and the others of a composed schema).
    pub(super) fn declares(&self, space: Space, name: &QName) -> bool {
        (name.0 == self.target && self.globals.contains_key(&(space, name.1.clone())))
            || self
                .known
                .is_some_and(|k| k.contains(space, &name.0, &name.1))
    }

    /// The expanded names of this document's global element declarations, sorted.
    pub(super) fn global_element_names(&self) -> Vec<QName> {
        let mut out: Vec<QName> = self
            .globals
            .keys()
            .filter(|(space, _)| *space == Space::Element)
            .map(|(_, local)| (self.target.clone(), local.clone()))
            .collect();
        out.sort();
        out
    }

    /// The global of `space` a QName names in this document's target namespace.
    pub(super) fn global_named(&self, at: usize, value: &str, space: Space) -> Option<usize> {
        let (ns, local) = self.resolve(at, value).ok()?;
        if ns != self.target || ns.as_deref() == Some(XS_NS) {
            return None;
        }
        self.globals.get(&(space, local)).copied()
    }

    /// The type a QName names.
    pub(super) fn type_named(&self, at: usize, value: &str) -> TypeRef {
        match self.resolve(at, value) {
            Ok((Some(ns), local)) if ns == XS_NS => {
                if builtin_primitive(&local).is_some() {
                    TypeRef::Builtin(local)
                } else {
                    TypeRef::Unknown
                }
            }
            Ok((ns, local)) if ns == self.target => match self.globals.get(&(Space::Type, local)) {
                Some(&g) => TypeRef::Node(g),
                None => TypeRef::Unknown,
            },
            _ => TypeRef::Unknown,
        }
    }

    /// The first XSD child of `node` named one of `locals`.
    pub(super) fn child(&self, node: usize, locals: &[&str]) -> Option<usize> {
        self.nodes[node]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].xs && locals.contains(&self.nodes[c].local.as_str()))
    }

    /// The type definition of an element or attribute declaration.
    pub(super) fn declared_type(&self, decl: usize, depth: usize) -> TypeRef {
        let n = &self.nodes[decl];
        if let Some(t) = n.attr("type") {
            return self.type_named(decl, t);
        }
        if let Some(inline) = self.child(decl, &["simpleType", "complexType"]) {
            return TypeRef::Node(inline);
        }
        if n.is("element") {
            // The first head's type (XSD 1.1, 3.3.2.3: with several heads, the first).
            if let Some(&head) = n
                .attr("substitutionGroup")
                .map(|h| self.substitution_heads(h))
                .as_ref()
                .and_then(|h| h.first())
            {
                if depth > DEPTH {
                    return TypeRef::Unknown;
                }
                return match self.global_named(decl, head, Space::Element) {
                    Some(h) => self.declared_type(h, depth + 1),
                    None => TypeRef::Unknown,
                };
            }
            return TypeRef::Builtin("anyType".into());
        }
        TypeRef::Builtin("anySimpleType".into())
    }

    /// Whether a local declaration (element or attribute) is qualified.
    fn qualified(&self, decl: usize, default_attr: &str) -> bool {
        let form = self.nodes[decl]
            .attr("form")
            .or_else(|| self.nodes[0].attr(default_attr));
        form.map(str::trim) == Some("qualified")
    }

    /// The namespace and local name of an element or attribute declaration (a reference
    /// resolved to its global), and the declaring node (the reference itself for a
    /// declaration in another document); None when unknown.
    pub(super) fn declaration(&self, node: usize) -> Option<(Option<String>, String, usize)> {
        let n = &self.nodes[node];
        let (space, form_default) = if n.is("element") {
            (Space::Element, "elementFormDefault")
        } else {
            (Space::Attribute, "attributeFormDefault")
        };
        if let Some(r) = n.attr("ref") {
            let Some(g) = self.global_named(node, r, space) else {
                // Declared in another document: its name is all that is known.
                let (ns, local) = self.resolve(node, r).ok()?;
                if ns == self.target && !self.composed {
                    return None;
                }
                return Some((ns, local, node));
            };
            return Some((
                self.target.clone(),
                self.nodes[g].attr("name")?.trim().to_string(),
                g,
            ));
        }
        let name = n.attr("name")?.trim().to_string();
        let global = matches!(self.parent_local(node), "schema" | "redefine" | "override");
        // XSD 1.1's targetNamespace on a local declaration names its namespace.
        let explicit = n
            .attr("targetNamespace")
            .filter(|_| self.xsd_1_1 && !global)
            .map(|t| Some(t.trim().to_string()).filter(|t| !t.is_empty()));
        let ns = if let Some(ns) = explicit {
            ns
        } else if global || self.qualified(node, form_default) {
            self.target.clone()
        } else {
            None
        };
        Some((ns, name, node))
    }

    /// The namespace constraint of an `xs:any` or `xs:anyAttribute`.
    pub(super) fn wildcard(&self, node: usize) -> Wildcard {
        let n = &self.nodes[node];
        let items = |list: &str| -> BTreeSet<Option<String>> {
            list.split_whitespace()
                .map(|t| match t {
                    "##targetNamespace" => self.target.clone(),
                    "##local" => None,
                    uri => Some(uri.to_string()),
                })
                .collect()
        };
        let namespaces = match (n.attr("namespace").map(str::trim), n.attr("notNamespace")) {
            // XSD 1.1's (the markup checks refuse it in a document read as 1.0).
            (None, Some(list)) => Namespaces::Not(items(list)),
            (None | Some("##any"), _) => Namespaces::Any,
            (Some("##other"), _) => Namespaces::Not([self.target.clone(), None].into()),
            (Some(list), _) => Namespaces::Set(items(list)),
        };
        let process = match n.attr("processContents").map(str::trim) {
            Some("skip") => 0,
            Some("lax") => 1,
            _ => 2,
        };
        let mut names = BTreeSet::new();
        let (mut defined, mut sibling) = (false, false);
        for token in n
            .attr("notQName")
            .filter(|_| self.xsd_1_1)
            .unwrap_or("")
            .split_whitespace()
        {
            match token {
                "##defined" => defined = true,
                "##definedSibling" => sibling = true,
                t => names.extend(n.resolve_qname(t)),
            }
        }
        Wildcard {
            namespaces,
            names,
            defined,
            sibling,
            process,
        }
    }

    /// The particle of `node` (xs:element, xs:any, xs:group ref, xs:sequence, xs:choice,
    /// xs:all); Ok(None) for one with maxOccurs 0 (no particle at all); Err(()) when
    /// something it needs is not known here.
    pub(super) fn particle(&self, node: usize, depth: usize) -> Result<Option<Particle>, ()> {
        if depth > DEPTH {
            return Err(());
        }
        let n = &self.nodes[node];
        let (min, max) = self.occurs(node).ok_or(())?;
        if max == Some(0) {
            return Ok(None);
        }
        let term = match n.local.as_str() {
            "element" => {
                let (namespace, name, decl) = self.declaration(node).ok_or(())?;
                Term::Element(Element {
                    namespace,
                    name,
                    decl,
                    global: decl != node,
                    known: decl != node || n.attr("ref").is_none(),
                })
            }
            "any" => Term::Wildcard(self.wildcard(node)),
            "group" => {
                let g = self
                    .global_named(node, n.attr("ref").ok_or(())?, Space::Group)
                    .ok_or(())?;
                let model = self.child(g, &["sequence", "choice", "all"]).ok_or(())?;
                let inner = self.particle(model, depth + 1)?.ok_or(())?;
                inner.term
            }
            "sequence" | "choice" | "all" => {
                let compositor = match n.local.as_str() {
                    "sequence" => Compositor::Sequence,
                    "choice" => Compositor::Choice,
                    _ => Compositor::All,
                };
                let mut kids = Vec::new();
                for &c in &n.children {
                    let k = &self.nodes[c];
                    if !k.xs || k.local == "annotation" {
                        continue;
                    }
                    if let Some(p) = self.particle(c, depth + 1)? {
                        kids.push(p);
                    }
                }
                Term::Group(compositor, kids)
            }
            _ => return Err(()),
        };
        Ok(Some(Particle {
            min,
            max,
            term,
            node,
        }))
    }

    /// The complex type element's derivation element (restriction or extension under
    /// simpleContent or complexContent) and its content element, if it has one.
    pub(super) fn derivation(&self, ct: usize) -> Option<(usize, usize)> {
        let content = self.child(ct, &["simpleContent", "complexContent"])?;
        let d = self.child(content, &["restriction", "extension"])?;
        Some((content, d))
    }

    /// The explicit content (Part 1, 3.4.2, clause 2) of a complex type element: None
    /// for empty; Err(()) when unknown.
    fn explicit_content(&self, ct: usize, mixed: bool) -> Result<Option<Particle>, ()> {
        let holder = match self.derivation(ct) {
            Some((_, d)) => d,
            None => ct,
        };
        let empty_seq = || Particle {
            min: 1,
            max: Some(1),
            term: Term::Group(Compositor::Sequence, Vec::new()),
            node: holder,
        };
        let Some(p) = self.child(holder, &["group", "sequence", "choice", "all"]) else {
            return Ok(mixed.then(empty_seq));
        };
        let pn = &self.nodes[p];
        let no_children = !pn
            .children
            .iter()
            .any(|&c| self.nodes[c].xs && self.nodes[c].local != "annotation");
        let (min, max) = self.occurs(p).ok_or(())?;
        let empty = max == Some(0)
            || (matches!(pn.local.as_str(), "all" | "sequence") && no_children)
            || (pn.local == "choice" && no_children && min == 0);
        if empty {
            return Ok(mixed.then(empty_seq));
        }
        match self.particle(p, 0)? {
            Some(particle) => Ok(Some(particle)),
            None => Ok(mixed.then(empty_seq)),
        }
    }

    /// Whether a complex type element's content is mixed (Part 1, 3.4.2, effective mixed).
    pub(super) fn mixed(&self, ct: usize) -> bool {
        match self.child(ct, &["complexContent"]) {
            Some(cc) if self.nodes[cc].attr("mixed").is_some() => {
                truthy(self.nodes[cc].attr("mixed"))
            }
            _ => truthy(self.nodes[ct].attr("mixed")),
        }
    }

    /// The content type of a type; Err(()) when unknown.
    pub(super) fn content(&self, ty: &TypeRef, depth: usize) -> Result<Content, ()> {
        if depth > DEPTH {
            return Err(());
        }
        let ct = match ty {
            TypeRef::Node(n) if self.nodes[*n].is("complexType") => *n,
            TypeRef::Node(_) => return Ok(Content::Simple),
            TypeRef::Builtin(b) if b == "anyType" => {
                return Ok(Content::Particle {
                    mixed: true,
                    particle: Particle {
                        min: 1,
                        max: Some(1),
                        term: Term::Group(
                            Compositor::Sequence,
                            vec![Particle {
                                min: 0,
                                max: None,
                                term: Term::Wildcard(Wildcard::any_lax()),
                                node: 0,
                            }],
                        ),
                        node: 0,
                    },
                })
            }
            TypeRef::Builtin(_) => return Ok(Content::Simple),
            TypeRef::Unknown => return Err(()),
        };
        let derivation = self.derivation(ct);
        if let Some((content, _)) = derivation {
            if self.nodes[content].is("simpleContent") {
                return Ok(Content::Simple);
            }
        }
        let mixed = self.mixed(ct);
        let explicit = self.explicit_content(ct, mixed)?;
        let extension = derivation.filter(|&(_, d)| self.nodes[d].is("extension"));
        let Some((_, d)) = extension else {
            return Ok(match explicit {
                None => Content::Empty,
                Some(particle) => Content::Particle { mixed, particle },
            });
        };
        let base = self.type_named(d, self.nodes[d].attr("base").ok_or(())?);
        let base_content = self.content(&base, depth + 1)?;
        Ok(match (explicit, base_content) {
            (None, b) => b,
            (Some(particle), Content::Empty) => Content::Particle { mixed, particle },
            (Some(_), Content::Simple) => return Err(()),
            (Some(particle), Content::Particle { particle: b, .. }) => Content::Particle {
                mixed,
                particle: Particle {
                    min: 1,
                    max: Some(1),
                    term: Term::Group(Compositor::Sequence, vec![b, particle]),
                    node: d,
                },
            },
        })
    }
}
