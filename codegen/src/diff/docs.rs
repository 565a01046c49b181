//! Documents: is every document valid under A valid under B? If not, the smallest document
//! this module can build that A accepts and B rejects.
//!
//! Types are compared by their shape: attributes (names, value spaces, use, fixed values)
//! and content (empty, text of a simple type, element-only or mixed content models). An
//! element's type is found by its name in its parent's content model (XSD's "Element
//! Declarations Consistent"), so child elements of the same name are compared type with
//! type. Recursion is co-inductive: a pair of types under comparison is assumed included
//! (greatest fixed point), which is sound for finite documents.
//!
//! A witness is built bottom-up: the failing element as the smallest instance A allows plus
//! what makes B refuse it (an attribute, a value, a sequence of children), then wrapped in
//! the shortest A-valid path of ancestors from a root.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::content::{self, Lang, WordInclusion};
use super::values::{self, Engines, Inclusion, Space};
use crate::ir::*;

/// An element of a witness document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Elem {
    /// Its name.
    pub name: String,
    /// Its attributes, in order.
    pub attrs: Vec<(String, String)>,
    /// Its text (before the children).
    pub text: String,
    /// Its child elements.
    pub children: Vec<Elem>,
}

impl Elem {
    fn set_attr(&mut self, name: &str, value: &str) {
        match self.attrs.iter_mut().find(|(n, _)| n == name) {
            Some(a) => a.1 = value.to_string(),
            None => self.attrs.push((name.to_string(), value.to_string())),
        }
    }

    /// The element as a whole XML document.
    pub fn document(&self) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        out.push('<');
        out.push_str(&self.name);
        for (n, v) in &self.attrs {
            out.push_str(&format!(" {n}=\"{}\"", escape(v, true)));
        }
        if self.text.is_empty() && self.children.is_empty() {
            out.push_str("/>");
            return;
        }
        out.push('>');
        out.push_str(&escape(&self.text, false));
        // Indentation only between children of an element without text: white space there
        // is insignificant in element-only content and allowed in mixed content.
        let indent = self.text.is_empty();
        for c in &self.children {
            if indent {
                out.push('\n');
                out.push_str(&"  ".repeat(depth + 1));
            }
            c.write(out, depth + 1);
        }
        if indent {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        }
        out.push_str(&format!("</{}>", self.name));
    }
}

fn escape(s: &str, attr: bool) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            // Character references survive attribute-value and line-end normalisation.
            '\r' => out.push_str("&#13;"),
            '\t' if attr => out.push_str("&#9;"),
            '\n' if attr => out.push_str("&#10;"),
            c => out.push(c),
        }
    }
    out
}

/// A verdict on one direction of one change.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// No document can tell, with the proof.
    No(String),
    /// A document valid under one schema and invalid under the other.
    Yes {
        /// Why the second schema rejects it.
        reason: String,
        /// The document's root element.
        doc: Elem,
    },
    /// The tool cannot decide, with the reason.
    CannotTell(String),
}

/// What part of a type a change concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Focus {
    /// Everything.
    All,
    /// One attribute.
    Attr(String),
    /// The content (text or children).
    Content,
    /// The attribute wildcard (`xs:anyAttribute`): the attributes no declaration names.
    AnyAttribute,
}

/// What the comparison of two types found.
#[derive(Debug, Clone)]
pub enum Local {
    /// Included, with the proof.
    Included(String),
    /// An element that A accepts and B rejects (named by its parent), and why.
    Witness(String, Elem),
    /// Undecided.
    Unknown(String),
}

/// The shape of a type: its attributes and content.
struct Shape {
    attrs: Vec<Attribute>,
    /// The attribute wildcard.
    any_attribute: Option<Wildcard>,
    content: ShapeContent,
}

#[derive(Clone)]
enum ShapeContent {
    Empty,
    Text(TypeRef),
    Elements(Particle),
    Mixed(Particle),
    Alternatives(Vec<Alternative>),
}

fn shape(schema: &Schema, t: &TypeRef) -> Result<Shape, String> {
    let simple = Shape {
        attrs: Vec::new(),
        any_attribute: None,
        content: ShapeContent::Text(t.clone()),
    };
    match t {
        TypeRef::Builtin(Builtin::AnyType) => Err("xs:anyType content is not compared".into()),
        TypeRef::Builtin(_) => Ok(simple),
        TypeRef::Named(n) => {
            let def = schema
                .types
                .get(n)
                .ok_or_else(|| format!("type {n} is not defined"))?;
            Ok(match &def.kind {
                TypeKind::Complex(c) => Shape {
                    attrs: c.attributes.clone(),
                    any_attribute: c.any_attribute.clone(),
                    content: match &c.content {
                        Content::Empty => ShapeContent::Empty,
                        Content::Simple(t) => ShapeContent::Text(t.clone()),
                        Content::Elements(p) => ShapeContent::Elements(p.clone()),
                        Content::Mixed(p) => ShapeContent::Mixed(p.clone()),
                    },
                },
                TypeKind::Alternatives(alts) => Shape {
                    attrs: Vec::new(),
                    any_attribute: None,
                    content: ShapeContent::Alternatives(alts.clone()),
                },
                // Without xsi:type, the declared type's shape (diff/type_substitution.rs).
                TypeKind::Substitution(s) => return shape(schema, &s.declared),
                _ => simple,
            })
        }
    }
}

/// Compares documents of schema `a` with schema `b` ("is every A-valid document B-valid?").
pub struct Cmp<'s> {
    /// The schema whose documents are taken.
    pub a: &'s Schema,
    /// The schema that judges them.
    pub b: &'s Schema,
    /// Regex engines.
    pub eng: Engines,
    /// Compare only the changed component: a child of the same type name in both is
    /// assumed unchanged (its own changes are listed separately).
    pub local: bool,
    assumed: BTreeSet<(TypeRef, TypeRef)>,
}

impl<'s> Cmp<'s> {
    /// A comparison of A's documents against B.
    pub fn new(a: &'s Schema, b: &'s Schema, local: bool) -> Cmp<'s> {
        Cmp {
            a,
            b,
            eng: Engines::default(),
            local,
            assumed: BTreeSet::new(),
        }
    }

    fn space_a(&self, t: &TypeRef) -> Result<Space, String> {
        values::space(self.a, t)
    }

    fn space_b(&self, t: &TypeRef) -> Result<Space, String> {
        values::space(self.b, t)
    }

    /// The smallest instance of type `t` under A (required attributes, the shortest
    /// content), named `name`.
    pub fn min_instance(&mut self, name: &str, t: &TypeRef) -> Result<Elem, String> {
        self.instance_at(name, t, 0)
    }

    fn instance_at(&mut self, name: &str, t: &TypeRef, depth: usize) -> Result<Elem, String> {
        if depth > 40 {
            return Err(format!(
                "no finite instance of {}: required elements nest without end",
                label(t)
            ));
        }
        let sh = shape(self.a, t)?;
        let mut e = Elem {
            name: name.to_string(),
            ..Elem::default()
        };
        for a in sh.attrs.iter().filter(|a| a.required) {
            let v = self.attr_value(a)?;
            e.attrs.push((a.name.clone(), v));
        }
        match sh.content {
            ShapeContent::Empty => {}
            ShapeContent::Text(u) => {
                let s = self.space_a(&u)?;
                e.text = self
                    .eng
                    .smallest(&s)
                    .ok_or_else(|| format!("type {} has no value", label(&u)))?;
            }
            ShapeContent::Elements(p) | ShapeContent::Mixed(p) => {
                let lang = Lang::of(&p)?;
                let word = lang
                    .shortest(None)
                    .ok_or_else(|| "a content model without a finite word".to_string())?;
                e.children = self.children(&p, &word, None, depth)?;
            }
            ShapeContent::Alternatives(alts) => {
                return self.alternative_instance(name, &alts, depth);
            }
        }
        Ok(e)
    }

    fn attr_value(&mut self, a: &Attribute) -> Result<String, String> {
        if let Some(f) = &a.fixed {
            return Ok(f.clone());
        }
        let s = self.space_a(&a.type_ref)?;
        self.eng
            .smallest(&s)
            .ok_or_else(|| format!("attribute {} has no value", a.name))
    }

    /// Children for `word` of particle `p` (under A), the first occurrence of
    /// `replace.0` being `replace.1`.
    fn children(
        &mut self,
        p: &Particle,
        word: &[String],
        mut replace: Option<Elem>,
        depth: usize,
    ) -> Result<Vec<Elem>, String> {
        let mut decls = BTreeMap::new();
        content::child_types(p, &mut decls);
        let mut out = Vec::new();
        for n in word {
            if replace.as_ref().is_some_and(|r| &r.name == n) {
                out.push(replace.take().unwrap_or_default());
                continue;
            }
            let d = decls
                .get(n)
                .ok_or_else(|| format!("element {n} is not declared"))?;
            out.push(self.instance_at(n, &d.type_ref, depth + 1)?);
        }
        Ok(out)
    }

    /// Whether either schema has an inheritable attribute: an element's type alternative
    /// may then be chosen by what its ancestors pass on, which witnesses do not follow.
    fn inheritance(&self) -> bool {
        [self.a, self.b].iter().any(|s| {
            s.types.values().any(|t| match &t.kind {
                TypeKind::Complex(c) => c.attributes.iter().any(|a| a.inheritable),
                _ => false,
            })
        })
    }

    fn alternative_instance(
        &mut self,
        name: &str,
        alts: &[Alternative],
        depth: usize,
    ) -> Result<Elem, String> {
        if self.inheritance() {
            return Err(format!(
                "element {name}'s type alternatives may see inherited attributes, which the tool does not follow"
            ));
        }
        for (i, alt) in alts.iter().enumerate() {
            let Ok(mut e) = self.instance_at(name, &alt.type_ref, depth + 1) else {
                continue;
            };
            match &alt.test {
                None => {}
                Some(AltTest::Present(a)) if !e.attrs.iter().any(|(n, _)| n == a) => {
                    let v = self.optional_attr_value(&alt.type_ref, a);
                    e.set_attr(a, &v);
                }
                Some(AltTest::Present(_)) => {}
                Some(AltTest::Equals(a, v)) => e.set_attr(a, v),
                Some(AltTest::Absent(a)) => e.attrs.retain(|(n, _)| n != a),
                Some(AltTest::NotEquals(_, _)) => {}
                // Nothing is made to fit an XPath test; `select` cannot tell whether it holds.
                Some(AltTest::XPath(_)) => {}
            }
            if select(alts, &e.attrs) == Some(i) {
                return Ok(e);
            }
        }
        Err(format!(
            "no instance of element {name} selects one of its type alternatives"
        ))
    }

    fn optional_attr_value(&mut self, t: &TypeRef, attr: &str) -> String {
        let Ok(sh) = shape(self.a, t) else {
            return "x".into();
        };
        sh.attrs
            .iter()
            .find(|a| a.name == attr)
            .and_then(|a| self.attr_value(a).ok())
            .unwrap_or_else(|| "x".into())
    }

    /// Compares type `ta` of A with type `tb` of B on `focus`.
    pub fn compare(&mut self, ta: &TypeRef, tb: &TypeRef, focus: &Focus, depth: usize) -> Local {
        if depth > 0 {
            if self.local && ta == tb {
                return Local::Included(format!(
                    "element type {} is the same (its own changes are listed separately)",
                    label(ta)
                ));
            }
            if !self.assumed.insert((ta.clone(), tb.clone())) {
                return Local::Included("recursive: assumed (co-inductively)".into());
            }
        }
        if depth > 40 {
            return Local::Unknown("types nest too deep".into());
        }
        let (sa, sb) = match (shape(self.a, ta), shape(self.b, tb)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => return Local::Unknown(e),
        };
        let mut proofs = Vec::new();
        let mut unknown = None;
        let mut result = |r: Local, proofs: &mut Vec<String>| -> Option<Local> {
            match r {
                Local::Included(p) => {
                    proofs.push(p);
                    None
                }
                Local::Unknown(u) => {
                    unknown.get_or_insert(u);
                    None
                }
                w => Some(w),
            }
        };
        if matches!(focus, Focus::All | Focus::Attr(_)) {
            for a in &sa.attrs {
                if matches!(focus, Focus::Attr(n) if n != &a.name) {
                    continue;
                }
                let r = self.compare_attr(
                    ta,
                    a,
                    sb.attrs.iter().find(|b| b.name == a.name),
                    sb.any_attribute.as_ref(),
                );
                if let Some(w) = result(r, &mut proofs) {
                    return w;
                }
            }
            for b in &sb.attrs {
                if matches!(focus, Focus::Attr(n) if n != &b.name) {
                    continue;
                }
                if !b.required && !sa.attrs.iter().any(|a| a.name == b.name) {
                    proofs.push(format!(
                        "attribute {} is new and optional: documents without it stay valid",
                        b.name
                    ));
                }
                if b.required && !sa.attrs.iter().any(|a| a.name == b.name) {
                    let r = self.instance_then(
                        ta,
                        format!("NEW requires attribute {}", b.name),
                        |_| Ok(()),
                    );
                    if let Some(w) = result(r, &mut proofs) {
                        return w;
                    }
                }
            }
        }
        if matches!(focus, Focus::All | Focus::AnyAttribute) {
            let r = self.compare_attribute_wildcards(ta, &sa, &sb);
            if let Some(w) = result(r, &mut proofs) {
                return w;
            }
        }
        if matches!(focus, Focus::All | Focus::Content) {
            let r = self.compare_content(ta, &sa.content, &sb.content, depth);
            if let Some(w) = result(r, &mut proofs) {
                return w;
            }
        }
        match unknown {
            Some(u) => Local::Unknown(u),
            None if proofs.is_empty() => Local::Included("nothing of it changed".into()),
            None => Local::Included(proofs.join("; ")),
        }
    }

    /// A witness: A's smallest instance of `t`, changed by `edit`.
    fn instance_then(
        &mut self,
        t: &TypeRef,
        reason: String,
        edit: impl FnOnce(&mut Elem) -> Result<(), String>,
    ) -> Local {
        match self.min_instance("_", t) {
            Ok(mut e) => match edit(&mut e) {
                Ok(()) => Local::Witness(reason, e),
                Err(u) => Local::Unknown(u),
            },
            Err(u) => Local::Unknown(u),
        }
    }

    /// What A's attribute wildcard takes against B's (none, or a wildcard): a witness is
    /// an attribute of a name A's wildcard takes (no declaration of A's type names it) that
    /// B's type neither declares nor lets its wildcard take; found among the names the two
    /// wildcards mention and a made-up one. Values are compared only where both wildcards
    /// skip them.
    fn compare_attribute_wildcards(&mut self, owner: &TypeRef, sa: &Shape, sb: &Shape) -> Local {
        let Some(wa) = &sa.any_attribute else {
            return Local::Included("OLD has no attribute wildcard".into());
        };
        let wb = sb.any_attribute.as_ref();
        let declared = |attrs: &[Attribute], ns: &Option<String>, local: &str| {
            attrs.iter().any(|a| &a.namespace == ns && a.name == local)
        };
        // The names to try: a made-up one in each namespace either wildcard names (and in
        // none, and in one neither names), and each name B's wildcard disallows.
        let mut namespaces: Vec<Option<String>> =
            vec![None, Some("urn:boardxml:diff:witness".to_string())];
        for w in std::iter::once(wa).chain(wb) {
            match &w.namespaces {
                NamespaceConstraint::Any => {}
                NamespaceConstraint::Not(v) | NamespaceConstraint::Only(v) => {
                    namespaces.extend(v.iter().cloned())
                }
            }
        }
        let mut candidates: Vec<(Option<String>, String)> = namespaces
            .into_iter()
            .map(|ns| (ns, "witness".to_string()))
            .collect();
        for n in wb.map(|w| w.disallowed.names.as_slice()).unwrap_or(&[]) {
            candidates.push(split_expanded(n));
        }
        // A strict wildcard takes only what a global declaration of A names.
        if wa.process == ProcessContents::Strict {
            candidates = self
                .a
                .global_attributes
                .values()
                .map(|g| (g.namespace.clone(), g.name.clone()))
                .collect();
        }
        for (ns, local) in candidates {
            let expanded = expanded_name(ns.as_deref(), &local);
            let taken_by_a =
                wa.allows_name(ns.as_deref(), &expanded) && !declared(&sa.attrs, &ns, &local);
            let kept_by_b = declared(&sb.attrs, &ns, &local)
                || wb.is_some_and(|w| w.allows_name(ns.as_deref(), &expanded));
            if !taken_by_a || kept_by_b {
                continue;
            }
            // Its value: one A's global declaration of the name accepts, if it has one
            // (lax and strict validate against it), else any.
            let global = self
                .a
                .global_attributes
                .values()
                .find(|g| g.namespace == ns && g.name == local)
                .cloned();
            let value = match (&global, wa.process) {
                (_, ProcessContents::Skip) | (None, _) => "x".to_string(),
                (Some(g), _) => match self.attr_value(g) {
                    Ok(v) => v,
                    Err(u) => return Local::Unknown(u),
                },
            };
            let reason = format!(
                "OLD's attribute wildcard takes attribute {expanded}; NEW {}",
                if wb.is_some() {
                    "does not declare it, and its wildcard does not take it"
                } else {
                    "declares no such attribute and has no attribute wildcard"
                }
            );
            return self.instance_then(owner, reason, move |e| {
                match &ns {
                    Some(uri) => {
                        e.set_attr("xmlns:w", uri);
                        e.set_attr(&format!("w:{local}"), &value);
                    }
                    None => e.set_attr(&local, &value),
                }
                Ok(())
            });
        }
        let Some(wb) = wb else {
            return Local::Included(
                "OLD's attribute wildcard is strict and OLD declares no global attribute it takes: it takes none".into(),
            );
        };
        let names_kept = wb.disallowed.names.iter().all(|n| {
            let (ns, local) = split_expanded(n);
            !wa.allows_name(ns.as_deref(), n) || declared(&sa.attrs, &ns, &local)
        });
        if !namespaces_within(&wa.namespaces, &wb.namespaces) || !names_kept {
            return Local::Unknown(
                "NEW's attribute wildcard takes less than OLD's, and no attribute name shows it"
                    .into(),
            );
        }
        match (wa.process, wb.process) {
            (_, ProcessContents::Skip) => Local::Included(
                "NEW's attribute wildcard takes every attribute OLD's takes, and skips their values".into(),
            ),
            (a, b) => Local::Unknown(format!(
                "NEW's attribute wildcard takes every attribute OLD's takes, and validates them ({} -> {}) against the schema's global attribute declarations, which are not compared",
                process_name(a),
                process_name(b)
            )),
        }
    }

    fn compare_attr(
        &mut self,
        owner: &TypeRef,
        a: &Attribute,
        b: Option<&Attribute>,
        wb: Option<&Wildcard>,
    ) -> Local {
        let name = a.name.clone();
        let expanded = expanded_name(a.namespace.as_deref(), &a.name);
        if let (None, Some(w)) = (b, wb) {
            if w.allows_name(a.namespace.as_deref(), &expanded) {
                return if w.process == ProcessContents::Skip {
                    Local::Included(format!(
                        "attribute {name} is not declared in NEW, whose attribute wildcard takes any value of it (skip)"
                    ))
                } else {
                    Local::Unknown(format!(
                        "attribute {name} is not declared in NEW; its attribute wildcard takes it, validated ({}) against NEW's global attribute declarations, which are not compared",
                        process_name(w.process)
                    ))
                };
            }
        }
        let Some(b) = b else {
            let v = match self.attr_value(a) {
                Ok(v) => v,
                Err(u) => return Local::Unknown(u),
            };
            return self.instance_then(
                owner,
                format!("attribute {name} is not declared in NEW"),
                |e| {
                    e.set_attr(&name, &v);
                    Ok(())
                },
            );
        };
        let (va, vb) = match (self.space_a(&a.type_ref), self.space_b(&b.type_ref)) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) | (_, Err(e)) => return Local::Unknown(e),
        };
        let with = |cx: &mut Self, v: String, why: String| {
            let n = name.clone();
            cx.instance_then(owner, why, move |e| {
                e.set_attr(&n, &v);
                Ok(())
            })
        };
        let mut proof = format!("attribute {name}: ");
        if let Some(f) = &a.fixed {
            if !self.eng.accepts(&vb, f)
                || b.fixed
                    .as_ref()
                    .is_some_and(|g| !values::same_value(&vb, g, f))
            {
                return with(
                    self,
                    f.clone(),
                    format!("NEW rejects {name}=\"{f}\" (OLD's fixed value)"),
                );
            }
            proof.push_str("OLD's fixed value is accepted by NEW");
        } else if let Some(g) = &b.fixed {
            let other = self
                .eng
                .samples(&va, 10)
                .into_iter()
                .find(|v| !values::same_value(&vb, v, g));
            match other {
                Some(v) => {
                    return with(
                        self,
                        v.clone(),
                        format!("NEW fixes {name} to \"{g}\", OLD allows \"{v}\""),
                    )
                }
                None => {
                    return Local::Unknown(format!(
                        "whether OLD allows a value of {name} other than NEW's fixed \"{g}\""
                    ))
                }
            }
        } else {
            match self.eng.included(&va, &vb) {
                Inclusion::Witness(v) => {
                    return with(
                        self,
                        v.clone(),
                        format!(
                            "{name}=\"{v}\": OLD's type {} accepts it, NEW's type {} does not",
                            label(&a.type_ref),
                            label(&b.type_ref)
                        ),
                    )
                }
                Inclusion::CannotTell(r) => {
                    return Local::Unknown(format!("attribute {name}: {r}"))
                }
                Inclusion::Proven(p) => proof.push_str(&p),
            }
        }
        if b.required && !a.required {
            return self.instance_then(
                owner,
                format!("NEW requires attribute {name}, OLD does not"),
                |_| Ok(()),
            );
        }
        Local::Included(proof)
    }

    fn compare_content(
        &mut self,
        ta: &TypeRef,
        ca: &ShapeContent,
        cb: &ShapeContent,
        depth: usize,
    ) -> Local {
        use ShapeContent as C;
        let text_witness = |cx: &mut Self, text: String, why: String| {
            cx.instance_then(ta, why, move |e| {
                e.children.clear();
                e.text = text;
                Ok(())
            })
        };
        match (ca, cb) {
            (C::Empty, C::Empty) => Local::Included("both empty".into()),
            (C::Text(x), C::Text(y)) => {
                let (sx, sy) = match (self.space_a(x), self.space_b(y)) {
                    (Ok(x), Ok(y)) => (x, y),
                    (Err(e), _) | (_, Err(e)) => return Local::Unknown(e),
                };
                match self.eng.included(&sx, &sy) {
                    Inclusion::Proven(p) => Local::Included(format!("text: {p}")),
                    Inclusion::Witness(v) => text_witness(
                        self,
                        v.clone(),
                        format!(
                            "text \"{v}\": OLD's type {} accepts it, NEW's type {} does not",
                            label(x),
                            label(y)
                        ),
                    ),
                    Inclusion::CannotTell(r) => Local::Unknown(format!("text: {r}")),
                }
            }
            (C::Empty, C::Text(y)) => match self.space_b(y) {
                Ok(sy) if self.eng.accepts(&sy, "") => {
                    Local::Included("NEW's text type accepts the empty content".into())
                }
                Ok(_) => text_witness(
                    self,
                    String::new(),
                    "NEW's text type rejects empty content".into(),
                ),
                Err(e) => Local::Unknown(e),
            },
            (C::Empty, C::Elements(q) | C::Mixed(q)) => match Lang::of(q) {
                Ok(l) if l.member(&[]) => Local::Included("NEW allows no children".into()),
                Ok(_) => text_witness(self, String::new(), "NEW requires child elements".into()),
                Err(e) => Local::Unknown(e),
            },
            (C::Text(x), C::Empty | C::Elements(_)) => {
                let sx = match self.space_a(x) {
                    Ok(s) => s,
                    Err(e) => return Local::Unknown(e),
                };
                let samples = self.eng.samples(&sx, 20);
                if let Some(v) = samples.iter().find(|v| !v.trim().is_empty()) {
                    return text_witness(
                        self,
                        v.clone(),
                        format!("NEW allows no text, OLD allows \"{v}\""),
                    );
                }
                match cb {
                    C::Elements(q) => match Lang::of(q) {
                        Ok(l) if !l.member(&[]) => text_witness(
                            self,
                            samples.first().cloned().unwrap_or_default(),
                            "NEW requires child elements".into(),
                        ),
                        _ => Local::Unknown(
                            "whether OLD's text type has a value that is not white space".into(),
                        ),
                    },
                    _ => Local::Unknown(
                        "whether OLD's text type has a value that is not white space".into(),
                    ),
                }
            }
            (C::Text(_), C::Mixed(q)) => match Lang::of(q) {
                Ok(l) if l.member(&[]) => {
                    Local::Included("mixed content in NEW allows any text".into())
                }
                Ok(_) => self.instance_then(ta, "NEW requires child elements".into(), |_| Ok(())),
                Err(e) => Local::Unknown(e),
            },
            (C::Elements(p) | C::Mixed(p), C::Empty | C::Text(_)) => {
                let Ok(l) = Lang::of(p) else {
                    return Local::Unknown("OLD's content model".into());
                };
                let one = l.alphabet().into_iter().find_map(|n| l.shortest(Some(&n)));
                match one {
                    Some(word) if !word.is_empty() => {
                        let mut e = match self.min_instance("_", ta) {
                            Ok(e) => e,
                            Err(u) => return Local::Unknown(u),
                        };
                        match self.children(p, &word, None, 0) {
                            Ok(c) => e.children = c,
                            Err(u) => return Local::Unknown(u),
                        }
                        e.text.clear();
                        Local::Witness("NEW allows no child elements".into(), e)
                    }
                    _ if matches!(ca, C::Mixed(_)) => {
                        text_witness(self, "x".into(), "NEW allows no text".into())
                    }
                    _ => {
                        Local::Unknown("OLD's content model allows only the empty sequence".into())
                    }
                }
            }
            (C::Mixed(_), C::Elements(_)) => self.instance_then(
                ta,
                "OLD's content is mixed (text allowed), NEW's is element-only".into(),
                |e| {
                    e.text = "x".into();
                    Ok(())
                },
            ),
            (C::Elements(p) | C::Mixed(p), C::Elements(q) | C::Mixed(q)) => {
                self.compare_particles(ta, p, q, depth)
            }
            (C::Alternatives(x), C::Alternatives(y)) => {
                if x.len() != y.len() || x.iter().zip(y).any(|(a, b)| a.test != b.test) {
                    return Local::Unknown(
                        "the type alternatives' conditions changed: the tool does not compare XPath conditions".into(),
                    );
                }
                for (ax, ay) in x.iter().zip(y) {
                    match self.compare(&ax.type_ref, &ay.type_ref, &Focus::All, depth + 1) {
                        Local::Included(_) => {}
                        Local::Witness(r, mut e) => {
                            // Keep the alternative selected: its condition holds on `e`.
                            if let Some(AltTest::Equals(a, v)) = &ax.test {
                                e.set_attr(a, v);
                            }
                            return Local::Witness(
                                format!("in the alternative {}: {r}", label(&ax.type_ref)),
                                e,
                            );
                        }
                        Local::Unknown(u) => return Local::Unknown(u),
                    }
                }
                Local::Included("the same conditions select included types".into())
            }
            (C::Alternatives(_), _) | (_, C::Alternatives(_)) => Local::Unknown(
                "type alternatives against another kind of type are not compared".into(),
            ),
        }
    }

    fn compare_particles(
        &mut self,
        ta: &TypeRef,
        p: &Particle,
        q: &Particle,
        depth: usize,
    ) -> Local {
        let (la, lb) = match (Lang::of(p), Lang::of(q)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => return Local::Unknown(e),
        };
        let proof = match content::included(&la, &lb) {
            WordInclusion::Witness(word) => {
                let mut e = match self.min_instance("_", ta) {
                    Ok(e) => e,
                    Err(u) => return Local::Unknown(u),
                };
                return match self.children(p, &word, None, 0) {
                    Ok(c) => {
                        e.children = c;
                        let shown = if word.is_empty() {
                            "no children".to_string()
                        } else {
                            word.join(", ")
                        };
                        Local::Witness(format!("children ({shown}): OLD's content model allows them, NEW's does not"), e)
                    }
                    Err(u) => Local::Unknown(u),
                };
            }
            WordInclusion::CannotTell(r) => return Local::Unknown(r),
            WordInclusion::Proven(p) => p,
        };
        let (mut da, mut db) = (BTreeMap::new(), BTreeMap::new());
        content::child_types(p, &mut da);
        content::child_types(q, &mut db);
        let mut proofs = vec![proof];
        for (n, d) in &da {
            let Some(e) = db.get(n) else { continue };
            match element_constraints(d, e) {
                Ok(Some(p)) => proofs.push(format!("element {n}: {p}")),
                Ok(None) => {}
                Err(u) => return Local::Unknown(format!("element {n}: {u}")),
            }
            match self.compare(&d.type_ref, &e.type_ref, &Focus::All, depth + 1) {
                Local::Included(p) => {
                    if d.type_ref != e.type_ref {
                        proofs.push(format!("element {n}: {p}"));
                    }
                }
                Local::Witness(r, mut inner) => {
                    inner.name = n.clone();
                    let Some(word) = la.shortest(Some(n)) else {
                        return Local::Unknown(format!("no word of OLD's content holds {n}"));
                    };
                    let mut e = match self.min_instance("_", ta) {
                        Ok(e) => e,
                        Err(u) => return Local::Unknown(u),
                    };
                    return match self.children(p, &word, Some(inner), 0) {
                        Ok(c) => {
                            e.children = c;
                            Local::Witness(format!("in element {n}: {r}"), e)
                        }
                        Err(u) => Local::Unknown(u),
                    };
                }
                Local::Unknown(u) => return Local::Unknown(format!("element {n}: {u}")),
            }
        }
        Local::Included(proofs.join("; "))
    }

    /// Wraps `elem`, an instance of type `t` under A, into the shortest A-valid document:
    /// `None` if no element of a document can have type `t`.
    pub fn wrap(&mut self, t: &TypeRef, elem: Elem) -> Result<Option<Elem>, String> {
        let Some(path) = path_to(self.a, t) else {
            return Ok(None);
        };
        // path: (element name, its type) from the root down to the element of type `t`.
        let mut inner = elem;
        inner.name = path.last().map(|p| p.0.clone()).unwrap_or_default();
        for i in (0..path.len() - 1).rev() {
            let (name, parent_t) = &path[i];
            let child = path[i + 1].0.clone();
            let sh = shape(self.a, parent_t)?;
            if let ShapeContent::Alternatives(alts) = &sh.content {
                if self.inheritance() {
                    return Err(
                        "a path through a type alternative that may see inherited attributes"
                            .into(),
                    );
                }
                // The same element, its type chosen by a condition: make the condition
                // choose the child's type, and check that it does.
                let k = alts
                    .iter()
                    .position(|a| a.type_ref == path[i + 1].1)
                    .ok_or_else(|| "a path through a type alternative".to_string())?;
                match &alts[k].test {
                    Some(AltTest::Equals(a, v)) => inner.set_attr(a, v),
                    Some(AltTest::Absent(a)) => inner.attrs.retain(|(n, _)| n != a),
                    Some(AltTest::Present(a)) if !inner.attrs.iter().any(|(n, _)| n == a) => {
                        let v = self.optional_attr_value(&alts[k].type_ref, a);
                        inner.set_attr(a, &v);
                    }
                    _ => {}
                }
                if select(alts, &inner.attrs) != Some(k) {
                    return Err(format!(
                        "the witness does not select the type alternative {}",
                        label(&alts[k].type_ref)
                    ));
                }
                continue;
            }
            let mut e = self.min_instance(name, parent_t)?;
            let (ShapeContent::Elements(p) | ShapeContent::Mixed(p)) = sh.content else {
                return Err("a path through a type without children".into());
            };
            let word = Lang::of(&p)?
                .shortest(Some(&child))
                .ok_or_else(|| format!("no word holds {child}"))?;
            e.children = self.children(&p, &word, Some(inner), 0)?;
            inner = e;
        }
        Ok(Some(inner))
    }
}

/// The index of the alternative the attributes select; None where none does, or where an
/// XPath test comes first, which is not evaluated here (a witness is then not claimed).
fn select(alts: &[Alternative], attrs: &[(String, String)]) -> Option<usize> {
    let get = |n: &str| attrs.iter().find(|(a, _)| a == n).map(|(_, v)| v.as_str());
    for (i, a) in alts.iter().enumerate() {
        let holds = match &a.test {
            None => true,
            Some(AltTest::Present(n)) => get(n).is_some(),
            Some(AltTest::Absent(n)) => get(n).is_none(),
            Some(AltTest::Equals(n, v)) => get(n) == Some(v.as_str()),
            Some(AltTest::NotEquals(n, v)) => get(n).is_some_and(|x| x != v),
            Some(AltTest::XPath(_)) => return None,
        };
        if holds {
            return Some(i);
        }
    }
    None
}

/// The shortest chain of elements from a root of `schema` to an element of type `t`.
pub fn path_to(schema: &Schema, t: &TypeRef) -> Option<Vec<(String, TypeRef)>> {
    let mut queue: VecDeque<Vec<(String, TypeRef)>> = schema
        .roots
        .values()
        .map(|r| vec![(r.name.clone(), r.type_ref.clone())])
        .collect();
    let mut seen: BTreeSet<TypeRef> = BTreeSet::new();
    while let Some(path) = queue.pop_front() {
        let last = path.last()?.1.clone();
        if &last == t {
            return Some(path);
        }
        if !seen.insert(last.clone()) {
            continue;
        }
        let TypeRef::Named(n) = &last else { continue };
        let c = match schema.types.get(n).map(|d| &d.kind) {
            Some(TypeKind::Complex(c)) => c,
            // The same element with each alternative's type.
            Some(TypeKind::Alternatives(alts)) => {
                let name = path.last()?.0.clone();
                for a in alts {
                    let mut next = path.clone();
                    next.push((name.clone(), a.type_ref.clone()));
                    queue.push_back(next);
                }
                continue;
            }
            // The same element as declared (without xsi:type).
            Some(TypeKind::Substitution(s)) => {
                let name = path.last()?.0.clone();
                let mut next = path.clone();
                next.push((name, s.declared.clone()));
                queue.push_back(next);
                continue;
            }
            _ => continue,
        };
        let (Content::Elements(p) | Content::Mixed(p)) = &c.content else {
            continue;
        };
        let mut decls = BTreeMap::new();
        content::child_types(p, &mut decls);
        for (name, d) in decls {
            let mut next = path.clone();
            next.push((name, d.type_ref.clone()));
            queue.push_back(next);
        }
    }
    None
}

/// A type's name for messages.
pub fn label(t: &TypeRef) -> String {
    match t {
        TypeRef::Builtin(b) => b.xsd_name().to_string(),
        TypeRef::Named(n) => n.clone(),
    }
}

/// Random documents valid under a schema (for tests that judge "no" verdicts): a random
/// root, optional attributes present or not, values drawn from each type's first values,
/// content models walked at random. `pick(n)` returns a number below `n`.
pub struct Random<'s, P: FnMut(usize) -> usize> {
    cx: Cmp<'s>,
    pick: P,
}

impl<'s, P: FnMut(usize) -> usize> Random<'s, P> {
    /// A generator over `schema`.
    pub fn new(schema: &'s Schema, pick: P) -> Self {
        Random {
            cx: Cmp::new(schema, schema, false),
            pick,
        }
    }

    /// One document.
    pub fn document(&mut self) -> Result<Elem, String> {
        let roots: Vec<&RootElement> = self.cx.a.roots.values().collect();
        if roots.is_empty() {
            return Err("the schema declares no global element".into());
        }
        let r = roots[(self.pick)(roots.len())];
        self.element(&r.name.clone(), &r.type_ref.clone(), 0)
    }

    fn value(&mut self, t: &TypeRef) -> Result<String, String> {
        let s = values::space(self.cx.a, t)?;
        let samples = self.cx.eng.samples(&s, 8);
        if samples.is_empty() {
            return Err(format!("type {} has no value", label(t)));
        }
        Ok(samples[(self.pick)(samples.len())].clone())
    }

    fn element(&mut self, name: &str, t: &TypeRef, depth: usize) -> Result<Elem, String> {
        if depth > 6 {
            return self.cx.min_instance(name, t);
        }
        let sh = shape(self.cx.a, t)?;
        let mut e = Elem {
            name: name.to_string(),
            ..Elem::default()
        };
        for a in &sh.attrs {
            if a.required || (self.pick)(2) == 0 {
                let v = match &a.fixed {
                    Some(f) => f.clone(),
                    None => self.value(&a.type_ref)?,
                };
                e.attrs.push((a.name.clone(), v));
            }
        }
        match sh.content {
            ShapeContent::Empty => {}
            ShapeContent::Text(u) => e.text = self.value(&u)?,
            ShapeContent::Elements(p) | ShapeContent::Mixed(p) => {
                let lang = Lang::of(&p)?;
                let pick = &mut self.pick;
                let word = lang.random_word(pick, 6);
                let mut decls = BTreeMap::new();
                content::child_types(&p, &mut decls);
                for n in word {
                    let d = decls
                        .get(&n)
                        .ok_or_else(|| format!("element {n} is not declared"))?
                        .type_ref
                        .clone();
                    let c = self.element(&n, &d, depth + 1)?;
                    e.children.push(c);
                }
            }
            ShapeContent::Alternatives(_) => return self.cx.min_instance(name, t),
        }
        Ok(e)
    }
}

/// What a change of an element's `default=`/`fixed=` or `nillable` does to the documents A
/// accepts: `Ok(None)` unchanged, `Ok(Some(proof))` none of them is rejected by B, `Err` when
/// the comparison cannot decide it (no witness is built for these yet: a fixed value or the
/// loss of `xsi:nil` is said, never proved harmless).
fn element_constraints(a: &ElementDecl, b: &ElementDecl) -> Result<Option<String>, String> {
    use crate::ir::ValueConstraint::{Default, Fixed};
    let mut proofs = Vec::new();
    if a.nillable != b.nillable {
        if b.nillable {
            proofs.push("nillable added: xsi:nil is allowed besides every value".to_string());
        } else {
            return Err("nillable removed: a document with xsi:nil=\"true\" breaks, and no witness with xsi:nil is built yet".into());
        }
    }
    // An empty element takes the default or fixed value: without one, `<n/>` is valid only
    // if the type admits the empty string.
    match (&a.value, &b.value) {
        (None, None) => {}
        (x, y) if x == y => {}
        (None, Some(Default(_))) => {
            proofs.push("a default added: only an empty element gains a value".to_string())
        }
        (Some(Default(_)), Some(Default(_))) => {
            proofs.push("another default: an empty element is valid in both".to_string())
        }
        (Some(Fixed(x)), Some(Default(_))) => {
            proofs.push(format!("fixed {x:?} became a default: only loosens"))
        }
        (Some(Default(_) | Fixed(_)), None) => {
            return Err(
                "the default or fixed value is gone: an empty element breaks unless the type \
                 admits the empty string, which is not compared yet"
                    .into(),
            )
        }
        (_, Some(Fixed(y))) => {
            return Err(format!(
                "fixed value {y:?} in NEW: documents with another value break unless the type \
                 admits no other; the values are not compared yet"
            ))
        }
    }
    Ok((!proofs.is_empty()).then(|| proofs.join("; ")))
}

/// `{namespace}local` or `local` as (namespace, local name), owned.
fn split_expanded(name: &str) -> (Option<String>, String) {
    let (ns, local) = split_expanded_name(name);
    (ns.map(str::to_string), local.to_string())
}

/// Whether every namespace `a` allows `b` allows.
fn namespaces_within(a: &NamespaceConstraint, b: &NamespaceConstraint) -> bool {
    use NamespaceConstraint::*;
    match (a, b) {
        (_, Any) => true,
        (Any, _) => false,
        (Only(x), Only(y)) => x.iter().all(|n| y.contains(n)),
        (Only(x), Not(y)) => x.iter().all(|n| !y.contains(n)),
        (Not(x), Not(y)) => y.iter().all(|n| x.contains(n)),
        (Not(_), Only(_)) => false,
    }
}

/// processContents as written.
pub(super) fn process_name(p: ProcessContents) -> &'static str {
    match p {
        ProcessContents::Strict => "strict",
        ProcessContents::Lax => "lax",
        ProcessContents::Skip => "skip",
    }
}
