//! Type derivation: complex types derived from complex types (`xs:complexContent`
//! extension and restriction, `xs:simpleContent` extension and restriction of a complex
//! type with simple content) and the `final` constraints on them.
//!
//! A derived type is generated flattened: its struct holds the base's content and attributes
//! together with its own (XSD 1.0 Part 1, 3.4.2: an extension's content model is the base's
//! particle followed by its own, as a sequence; a restriction's is the one it writes), so the
//! generated type checks exactly the derived type's constraints and needs nothing from the
//! renderer beyond an ordinary complex type. While a type is converted its derivation is
//! recorded; once every type is known, derivations are resolved base first (a base may be
//! defined after, or itself be derived) and the placeholder the conversion inserted gets the
//! effective content and attributes.
//!
//! Whether a restriction is a valid restriction of its base (derivation-ok-restriction) is the
//! validity pass's concern; this module only generates the restricted type.

use std::collections::{HashMap, HashSet};

use xsd_parser::models::schema::xs::{
    ComplexContent, DerivationControlType, DerivationSetType, RestrictionType,
    SimpleDerivationSetType,
};

use super::adapter::{Item, What};
use super::complex::{declared_twice, AttributeUses};
use super::simple::{constraining, inline_simple};
use super::{wildcard, Converter};
use crate::ir::*;

/// Which derivations a `final` (or `block`) attribute names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct DerivationSet {
    pub extension: bool,
    pub restriction: bool,
    pub list: bool,
    pub union: bool,
}

impl DerivationSet {
    /// `#all`.
    const ALL: DerivationSet = DerivationSet {
        extension: true,
        restriction: true,
        list: true,
        union: true,
    };

    /// The set xsd-parser read (`None`: `#all`).
    pub(super) fn of(items: Option<&[DerivationControlType]>) -> DerivationSet {
        let Some(items) = items else {
            return DerivationSet::ALL;
        };
        let mut set = DerivationSet::default();
        for item in items {
            match item {
                DerivationControlType::Extension => set.extension = true,
                DerivationControlType::Restriction => set.restriction = true,
                DerivationControlType::List => set.list = true,
                DerivationControlType::Union => set.union = true,
                // Only about elements' substitution groups.
                DerivationControlType::Substitution => {}
            }
        }
        set
    }

    fn forbids(self, method: Method) -> bool {
        match method {
            Method::Extension => self.extension,
            Method::Restriction => self.restriction,
            Method::List => self.list,
            Method::Union => self.union,
        }
    }
}

/// A complex type's `final` (or `block`).
pub(super) fn complex_set(set: &DerivationSetType) -> DerivationSet {
    match set {
        DerivationSetType::All => DerivationSet::ALL,
        DerivationSetType::BlockSetItemList(l) => DerivationSet::of(Some(&l.0)),
    }
}

/// A simple type's `final`.
pub(super) fn simple_set(set: &SimpleDerivationSetType) -> DerivationSet {
    match set {
        SimpleDerivationSetType::All => DerivationSet::ALL,
        SimpleDerivationSetType::BlockSetItemList(l) => DerivationSet::of(Some(&l.0)),
    }
}

/// How a type derives from its base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Method {
    Extension,
    Restriction,
    List,
    Union,
}

impl Method {
    fn word(self) -> &'static str {
        match self {
            Method::Extension => "extension",
            Method::Restriction => "restriction",
            Method::List => "list",
            Method::Union => "union",
        }
    }
}

/// What a derived complex type adds to (or keeps of) its base, waiting for the base.
#[derive(Debug, Clone)]
enum Step {
    /// `xs:complexContent/xs:extension`: the base's particle, then this one.
    ComplexExtension {
        particle: Option<Particle>,
        mixed: bool,
    },
    /// `xs:complexContent/xs:restriction`: this content model instead of the base's.
    ComplexRestriction {
        particle: Option<Particle>,
        mixed: bool,
        prohibited: Vec<String>,
    },
    /// `xs:simpleContent/xs:extension` of a complex type with simple content: its value
    /// type, the base's attributes and these.
    SimpleExtension,
    /// `xs:simpleContent/xs:restriction`: the base's value type narrowed by these facets
    /// (into a type of the given name), the base's attributes restricted.
    SimpleRestriction {
        value: Option<(String, Facets, Vec<EnumValue>)>,
        prohibited: Vec<String>,
        /// The inline `xs:simpleType` naming the value type, if given.
        inline: Option<TypeRef>,
    },
}

/// One recorded derivation.
#[derive(Debug, Clone)]
struct Pending {
    base: TypeRef,
    step: Step,
    /// The attributes the derivation declares.
    attributes: Vec<Attribute>,
    /// Its local attribute wildcard (its `xs:anyAttribute` with those of the attribute
    /// groups it uses, 3.4.2): what an extension unites with the base's, and all a
    /// restriction has. A `xs:simpleContent` extension's is on its placeholder instead.
    wildcard: Option<Wildcard>,
    /// Where the `xs:extension`/`xs:restriction` stands: its document and place.
    doc: usize,
    span: Span,
}

/// An extension's attribute uses: the base's, united with its own (Part 1, 3.4.2: a union
/// of sets of attribute uses). An attribute use of XSD 1.1's `defaultAttributes` group,
/// which base and extension both take, is one use (`defaults`: those uses, by name,
/// namespace and where declared); any other attribute of a name the base has stays, for
/// ct-props-correct.4 to report.
fn united(base: &[Attribute], own: &[Attribute], defaults: &DefaultUses) -> Vec<Attribute> {
    let key = |a: &Attribute| (a.namespace.clone(), a.name.clone(), a.span);
    let mut all = base.to_vec();
    all.extend(
        own.iter()
            .filter(|a| !(defaults.contains(&key(a)) && base.iter().any(|b| key(b) == key(a))))
            .cloned(),
    );
    all
}

/// The attribute uses taken from `defaultAttributes` groups: namespace, name, where
/// declared.
pub(super) type DefaultUses = std::collections::HashSet<(Option<String>, String, Span)>;

/// The derivations of one schema and what constrains them.
#[derive(Default)]
pub(super) struct Derivations {
    pending: HashMap<String, Pending>,
    /// `final` of each named type that has one (or inherits `finalDefault`).
    finals: HashMap<String, DerivationSet>,
    /// The schema's `finalDefault`.
    final_default: DerivationSet,
    /// Types resolved (or failed) so far, and those being resolved (a cycle).
    done: HashMap<String, bool>,
    in_progress: Vec<String>,
    /// Named complex types declared `abstract="true"`.
    abstract_types: HashSet<String>,
}

impl<'a> Converter<'a> {
    /// Notes the schema's `finalDefault`.
    pub(super) fn note_final_default(&mut self, set: DerivationSet) {
        self.derived.final_default = set;
    }

    /// Notes a named type's `final` (`None`: not given, `finalDefault` applies). Anonymous
    /// types cannot be derived from, so only global ones are noted.
    pub(super) fn note_final(&mut self, name: &str, set: Option<DerivationSet>) {
        let set = set.unwrap_or(self.derived.final_default);
        self.derived.finals.insert(name.to_string(), set);
    }

    /// Notes a named complex type's `abstract`.
    pub(super) fn note_abstract_type(&mut self, name: &str, is_abstract: bool) {
        if is_abstract {
            self.derived.abstract_types.insert(name.to_string());
        }
    }

    /// Whether the global element `name` is declared `abstract="true"`: it never appears in
    /// a document itself (Part 1, 3.3.4 cvc-elt.2), only the members of its substitution
    /// group do.
    pub(super) fn is_abstract_element(&self, name: &str) -> bool {
        self.globals
            .elements
            .raw
            .get(name)
            .is_some_and(|(el, _)| el.abstract_)
    }

    /// The particle of a reference to an abstract element: its substitution group has no
    /// members (the generator takes no `substitutionGroup` yet), so it matches no element.
    /// An optional one is no particle (dropped, as `maxOccurs="0"` is); a required one is
    /// an empty choice, which no content satisfies.
    pub(super) fn abstract_reference(
        &self,
        decl: ElementDecl,
        min: u32,
        max: Option<u32>,
    ) -> Particle {
        if min == 0 {
            Particle {
                min: 0,
                max: Some(0),
                term: Term::Element(decl),
            }
        } else {
            Particle {
                min,
                max,
                term: Term::Choice(Vec::new()),
            }
        }
    }

    /// An element whose declared type is abstract is valid only with `xsi:type` naming a
    /// type derived from it (cvc-elt.4), which generated code does not read yet: refused
    /// where the element is declared, rather than generated into a field no document can
    /// fill.
    fn check_abstract_types(&mut self) {
        if self.derived.abstract_types.is_empty() {
            return;
        }
        let mut found: Vec<(Span, String, String)> = Vec::new();
        for root in self.schema.roots.values() {
            if let TypeRef::Named(t) = &root.type_ref {
                if self.derived.abstract_types.contains(t) {
                    found.push((root.span, root.name.clone(), t.clone()));
                }
            }
        }
        for def in self.schema.types.values() {
            let TypeKind::Complex(c) = &def.kind else {
                continue;
            };
            let mut stack: Vec<&Particle> = Vec::new();
            if let Content::Elements(p) | Content::Mixed(p) = &c.content {
                stack.push(p);
            }
            while let Some(p) = stack.pop() {
                match &p.term {
                    Term::Element(e) => {
                        if let TypeRef::Named(t) = &e.type_ref {
                            if self.derived.abstract_types.contains(t) {
                                found.push((e.span, e.name.clone(), t.clone()));
                            }
                        }
                    }
                    Term::Sequence(v) | Term::Choice(v) | Term::All(v) => stack.extend(v.iter()),
                    Term::Any(_) => {}
                }
            }
        }
        found.sort();
        found.dedup();
        for (span, element, t) in found {
            self.unsupported(
                span,
                format!("element \"{element}\""),
                format!("element \"{element}\" has the abstract type \"{t}\": a document needs xsi:type naming a type derived from it, which is not supported yet"),
                Some("declare the element with one of the derived types".into()),
            );
        }
    }

    /// `<xs:complexContent>`: records the derivation of `owner`; false on an error (reported).
    pub(super) fn complex_content(
        &mut self,
        cc: &ComplexContent,
        at: Item<'a>,
        owner: &str,
        type_mixed: Option<bool>,
        default_attributes: bool,
    ) -> bool {
        // The complexContent's mixed overrides the complexType's (3.4.2, effective mixed).
        let mixed = cc.mixed.or(type_mixed).unwrap_or(false);
        let mut ok = true;
        for c in self.children(at) {
            let (base, extension) = match c.what {
                What::Extension(ext) => (&ext.base, true),
                What::Restriction(r) => (&r.base, false),
                _ => continue,
            };
            ok &= self.complex_derivation(base, extension, c, owner, mixed, default_attributes);
        }
        ok
    }

    /// The `xs:extension` (`extension`) or `xs:restriction` of complex content at `at`,
    /// from `base`: its content model and attributes, recorded to be applied once the base
    /// is known; false on an error (reported).
    fn complex_derivation(
        &mut self,
        base: &xsd_parser::models::schema::QName,
        extension: bool,
        at: Item<'a>,
        owner: &str,
        mixed: bool,
        default_attributes: bool,
    ) -> bool {
        let span = self.span(at);
        let local = at.what.local();
        let construct = format!("xs:{local} in complexType \"{owner}\"");
        let Some(base) = self.type_ref(base, &span, &construct) else {
            return false;
        };
        let mut ok = true;
        let mut particle = None;
        // An extension's wildcard is united with the base's once the base is known, a
        // restriction's replaces it (`apply`).
        let mut uses = AttributeUses::default();
        let children = self.children(at);
        for &c in &children {
            if let Some(taken) = self.attribute_item(c, owner, &mut uses) {
                ok &= taken;
            } else if let Some(model) = self.content_model(c, owner) {
                ok &= model.is_some();
                particle = model;
            } else {
                // Facets and an inline simple type belong to simple content (the validity
                // pass reports them here); XSD 1.1's open content is noted below, its
                // assertions read with the type (`own_assertions`).
                ok &= matches!(
                    c.what,
                    What::Annotation(_) | What::OpenContent(_) | What::Assert(_)
                );
            }
        }
        if ok {
            let explicit_empty = !mixed
                && particle
                    .as_ref()
                    .is_none_or(Particle::allows_only_emptiness);
            let named_base = match &base {
                TypeRef::Named(n) => Some((n.clone(), extension)),
                TypeRef::Builtin(_) => None,
            };
            self.note_open_content(owner, &children, explicit_empty, named_base);
        }
        ok &= self.default_attributes(default_attributes, owner, &mut uses);
        if ok {
            let step = if extension {
                Step::ComplexExtension { particle, mixed }
            } else {
                Step::ComplexRestriction {
                    particle,
                    mixed,
                    prohibited: uses.prohibited,
                }
            };
            self.derived.pending.insert(
                owner.to_string(),
                Pending {
                    base,
                    step,
                    attributes: uses.attributes,
                    wildcard: wildcard::complete(uses.own_wildcard, uses.group_wildcards),
                    doc: self.doc,
                    span,
                },
            );
        }
        ok
    }

    /// `<xs:simpleContent><xs:restriction base="...">`: the facets narrow the base's value
    /// type (into a type of its own, named after the owner), the attributes the base's.
    pub(super) fn simple_content_restriction(
        &mut self,
        r: &RestrictionType,
        at: Item<'a>,
        owner: &str,
        default_attributes: bool,
    ) -> bool {
        let span = self.span(at);
        let construct = format!("xs:restriction in complexType \"{owner}\"");
        let Some(base) = self.type_ref(&r.base, &span, &construct) else {
            return false;
        };
        let parts = self.children(at);
        // An inline simple type gives the value type (restricting the base's, which the
        // validity pass checks); the facets then restrict it further.
        let mut inline = None;
        if let Some((_, k)) = inline_simple(&parts) {
            let tname = self.synthesise(&format!("{owner}_content"));
            let def = self.simple_type(&tname, k);
            if def.is_none() {
                self.failed.insert(tname);
                return false;
            }
            self.insert(def);
            inline = Some(TypeRef::Named(tname));
        }
        // Facets come before the attributes (the schema for schemas' order).
        let Some((facets, enums)) = self.facets(&parts, &construct) else {
            return false;
        };
        let mut ok = true;
        // The restriction's wildcard replaces the base's (`apply`).
        let mut uses = AttributeUses::default();
        for &c in &parts {
            match self.attribute_item(c, owner, &mut uses) {
                Some(taken) => ok &= taken,
                // Converted above, or nothing.
                // XSD 1.1's assertions are read with the type (`own_assertions`).
                None if matches!(
                    c.what,
                    What::Annotation(_) | What::Facet(..) | What::SimpleType(_) | What::Assert(_)
                ) => {}
                // A model group here is no simple content (the validity pass reports it);
                // XSD 1.1's constructs: the markup checks.
                None => ok = false,
            }
        }
        ok &= self.default_attributes(default_attributes, owner, &mut uses);
        let any_facet = !enums.is_empty() || facets.any();
        let value = any_facet.then(|| (self.synthesise(&format!("{owner}_value")), facets, enums));
        if ok {
            self.derived.pending.insert(
                owner.to_string(),
                Pending {
                    base,
                    step: Step::SimpleRestriction {
                        value,
                        prohibited: uses.prohibited,
                        inline,
                    },
                    attributes: uses.attributes,
                    wildcard: wildcard::complete(uses.own_wildcard, uses.group_wildcards),
                    doc: self.doc,
                    span,
                },
            );
        }
        ok
    }

    /// `<xs:simpleContent><xs:extension base="...">` whose base is a named type: decided
    /// once every type is known (a simple type is the value type; a complex type with
    /// simple content gives its value type and attributes).
    pub(super) fn simple_content_extension(&mut self, owner: &str, base: &str, span: Span) {
        self.derived.pending.insert(
            owner.to_string(),
            Pending {
                base: TypeRef::Named(base.to_string()),
                step: Step::SimpleExtension,
                attributes: Vec::new(),
                wildcard: None,
                doc: self.doc,
                span,
            },
        );
    }

    /// Resolves every recorded derivation, base first, and checks `final` on every
    /// derivation of a named type.
    pub(super) fn resolve_derivations(&mut self) {
        let mut names: Vec<String> = self.derived.pending.keys().cloned().collect();
        names.sort();
        for name in names {
            self.resolve(&name);
        }
        self.check_simple_finals();
        self.check_abstract_types();
    }

    /// Resolves `name`'s derivation in the document that declares it (where its problems
    /// are reported); false if it (or its base) failed.
    fn resolve(&mut self, name: &str) -> bool {
        let Some(doc) = self.derived.pending.get(name).map(|p| p.doc) else {
            return self.resolve_here(name);
        };
        let outer = self.doc;
        self.set_doc(doc);
        let ok = self.resolve_here(name);
        self.set_doc(outer);
        ok
    }

    fn resolve_here(&mut self, name: &str) -> bool {
        if let Some(&ok) = self.derived.done.get(name) {
            return ok;
        }
        let Some(pending) = self.derived.pending.get(name).cloned() else {
            // Not derived: fine if it converted.
            return !self.failed.contains(name);
        };
        if self.derived.in_progress.iter().any(|n| n == name) {
            // The validity pass reports the cycle (a complex type derived from itself).
            let mut cycle = self.derived.in_progress.clone();
            cycle.push(name.to_string());
            self.second(
                "a complex type derived from itself".into(),
                pending.span,
                format!("complexType \"{name}\""),
                format!("a complex type derived from itself: {}", cycle.join(" -> ")),
                None,
            );
            return false;
        }
        self.derived.in_progress.push(name.to_string());
        let ok = self.schema.types.contains_key(name) && self.apply(name, &pending);
        self.derived.in_progress.pop();
        self.derived.done.insert(name.to_string(), ok);
        if !ok {
            self.schema.types.remove(name);
            self.failed.insert(name.to_string());
        }
        ok
    }

    /// Gives `name` the effective content and attributes of its derivation.
    fn apply(&mut self, name: &str, p: &Pending) -> bool {
        let construct = match p.step {
            Step::ComplexExtension { .. } | Step::SimpleExtension => {
                format!("xs:extension in complexType \"{name}\"")
            }
            _ => format!("xs:restriction in complexType \"{name}\""),
        };
        let method = match p.step {
            Step::ComplexExtension { .. } | Step::SimpleExtension => Method::Extension,
            _ => Method::Restriction,
        };
        // The base: xs:anyType (only restricted: its content is a wildcard), or a named type,
        // resolved first.
        let base = match &p.base {
            TypeRef::Builtin(Builtin::AnyType) => None,
            TypeRef::Builtin(b) => {
                if matches!(p.step, Step::SimpleExtension) {
                    return true;
                }
                let message = if matches!(p.step, Step::SimpleRestriction { .. }) {
                    format!("the base of a simpleContent restriction is a complex type with simple content; {} is a simple type", b.xsd_name())
                } else {
                    format!(
                        "the base of xs:complexContent is a complex type; {} is a simple type",
                        b.xsd_name()
                    )
                };
                let hint = Some(if matches!(p.step, Step::SimpleRestriction { .. }) {
                    "XSD 1.0, 3.4.3 (src-ct.2); to add attributes to a simple type, use xs:extension".to_string()
                } else {
                    "XSD 1.0, 3.4.3 (src-ct.1); use xs:simpleContent to add attributes to a simple type".to_string()
                });
                self.invalid(p.span, construct, message, hint);
                return false;
            }
            TypeRef::Named(b) => {
                if !self.resolve(b) {
                    // The base failed: its own errors say enough.
                    return false;
                }
                match self.schema.types.get(b) {
                    Some(def) => Some(def.clone()),
                    None => {
                        self.unsupported(p.span, construct, format!("unknown type \"{b}\""), None);
                        return false;
                    }
                }
            }
        };
        if let (Some(base), TypeRef::Named(b)) = (&base, &p.base) {
            let final_ = self.derived.finals.get(b).copied().unwrap_or_default();
            if final_.forbids(method) {
                self.invalid(
                    p.span,
                    construct,
                    format!(
                        "type \"{}\" is final for {} (final=\"...\" or the schema's finalDefault): it cannot be derived from by {}",
                        base.name,
                        method.word(),
                        method.word()
                    ),
                    Some("XSD 1.0, 3.4.6 (cos-ct-extends.1.1, derivation-ok-restriction.1)".into()),
                );
                return false;
            }
        }
        let base_complex = match &base {
            // Extending the ur-type adds to its wildcard content (3.4.2, complex content 2).
            None if method == Method::Extension && p.base == TypeRef::Builtin(Builtin::AnyType) => {
                Some(ComplexType::any_type(p.span))
            }
            None => None,
            Some(def) => match &def.kind {
                TypeKind::Complex(c) => Some(c.clone()),
                _ => None,
            },
        };
        let simple_base = base.is_some() && base_complex.is_none();
        // A derived type's assertions are its base's and then its own (XSD 1.1, 3.4.2.2
        // and 3.4.2.3, {assertions}), whether it extends or restricts.
        let base_assertions = base_complex
            .as_ref()
            .map(|c| c.assertions.clone())
            .unwrap_or_default();
        // The derived type's attribute wildcard (3.4.2): an extension unites its local one
        // (a simpleContent extension's is on its placeholder) with the base's; a
        // restriction has its local one alone.
        let local_wildcard = p
            .wildcard
            .clone()
            .or_else(|| match self.schema.types.get(name) {
                Some(TypeDef {
                    kind: TypeKind::Complex(own),
                    ..
                }) => own.any_attribute.clone(),
                _ => None,
            });
        let any_attribute = match method {
            Method::Extension => wildcard::extended(
                local_wildcard,
                base_complex.as_ref().and_then(|c| c.any_attribute.as_ref()),
            ),
            _ => local_wildcard,
        };
        // XSD 1.1 writes every such set (notNamespace).
        let xsd_1_1 = self.docs[self.doc].tree.xsd_1_1();
        if let Some(w) = any_attribute.as_ref().filter(|_| !xsd_1_1) {
            if !wildcard::expressible_in_xsd_1_0(&w.namespaces) {
                self.invalid(
                    p.span,
                    construct,
                    format!("the attribute wildcard of \"{name}\" (its own, its attribute groups' and its base's combined) allows a set of namespaces XSD 1.0 cannot express"),
                    Some("XSD 1.0, 3.10.6 (Attribute Wildcard Union and Intersection, erratum E1-10): e.g. ##other united with a list holding ##local but not the target namespace".into()),
                );
                return false;
            }
        }
        let (content, attributes) = match &p.step {
            Step::SimpleExtension => {
                let Some(c) = base_complex else {
                    // A simple type: the conversion's own checks apply (they need every
                    // type known too). Its final (through #all or finalDefault) may forbid
                    // extension (3.4.6, Derivation Valid (Extension) 2.2).
                    if let TypeRef::Named(b) = &p.base {
                        if self.derived.finals.get(b).is_some_and(|f| f.extension)
                            && self.schema.types.contains_key(b)
                        {
                            self.invalid(
                                p.span,
                                construct,
                                format!("type \"{b}\" is final for extension (final=\"#all\" or the schema's finalDefault): it cannot be derived from by extension"),
                                Some("XSD 1.0, 3.4.6 (cos-ct-extends.2.2)".into()),
                            );
                            return false;
                        }
                        self.simple_content_bases.push((
                            b.clone(),
                            (self.doc, p.span),
                            name.to_string(),
                        ));
                    }
                    return true;
                };
                let Content::Simple(value) = &c.content else {
                    self.invalid(
                        p.span,
                        construct,
                        format!("xs:simpleContent extends a simple type or a complex type with simple content; \"{}\" has complex content", name_of(&p.base)),
                        Some("XSD 1.0, 3.4.3 (src-ct.2); extend it with xs:complexContent".into()),
                    );
                    return false;
                };
                let own = match self.schema.types.get(name).map(|d| &d.kind) {
                    Some(TypeKind::Complex(own)) => own.attributes.clone(),
                    _ => Vec::new(),
                };
                (
                    Content::Simple(value.clone()),
                    united(&c.attributes, &own, &self.default_uses),
                )
            }
            Step::SimpleRestriction {
                value,
                prohibited,
                inline,
            } => {
                let Some(c) = base_complex else {
                    self.invalid(
                        p.span,
                        construct,
                        format!("the base of a simpleContent restriction is a complex type with simple content; \"{}\" is a simple type", name_of(&p.base)),
                        Some("XSD 1.0, 3.4.3 (src-ct.2); to add attributes to a simple type, use xs:extension".into()),
                    );
                    return false;
                };
                // Mixed content that may be empty restricts to simple content of the
                // restriction's own xs:simpleType (XSD 1.0, 3.4.2, complex type definition
                // with simple content, clause 2; 3.4.6, derivation-ok-restriction 5.1.2).
                let mixed_value = match (&c.content, inline) {
                    (Content::Mixed(bp), Some(t)) if super::references::emptiable(bp) => Some(t),
                    _ => None,
                };
                let ((Content::Simple(base_value), _) | (_, Some(base_value))) =
                    (&c.content, mixed_value)
                else {
                    let message = if matches!(c.content, Content::Mixed(_)) && inline.is_none() {
                        format!("a simpleContent restriction of the mixed content of \"{}\" needs an xs:simpleType child giving the value type", name_of(&p.base))
                    } else if matches!(c.content, Content::Mixed(_)) {
                        format!("a simpleContent restriction of mixed content needs a base whose particle may be empty; that of \"{}\" may not", name_of(&p.base))
                    } else {
                        format!("the base of a simpleContent restriction is a complex type with simple content; \"{}\" has element or empty content", name_of(&p.base))
                    };
                    self.invalid(
                        p.span,
                        construct,
                        message,
                        Some("XSD 1.0, 3.4.3 (src-ct.2)".into()),
                    );
                    return false;
                };
                if let (Some(t), Content::Simple(b)) = (inline, &c.content) {
                    if simple_derives(&self.schema.types, t, b, 0) == Some(false) {
                        self.invalid(
                            p.span,
                            construct,
                            format!("the xs:simpleType of a simpleContent restriction must be derived from the base's content type \"{}\"; this one is not", name_of(b)),
                            Some("XSD 1.0, 3.4.6 (derivation-ok-restriction.5.1.1)".into()),
                        );
                        return false;
                    }
                }
                let base_value = inline.as_ref().unwrap_or(base_value);
                let content = match value {
                    None => Content::Simple(base_value.clone()),
                    Some((vname, facets, enums)) => {
                        let others = constraining(facets) + facets.white_space.iter().count();
                        let kind = if enums.is_empty() || others > 0 {
                            let mut facets = facets.clone();
                            facets.enumeration = enums.iter().map(|e| e.value.clone()).collect();
                            TypeKind::Restriction(Restriction {
                                base: base_value.clone(),
                                facets,
                            })
                        } else {
                            TypeKind::Enumeration(Enumeration {
                                base: base_value.clone(),
                                values: enums.clone(),
                            })
                        };
                        self.insert(Some(TypeDef {
                            name: vname.clone(),
                            doc: None,
                            span: p.span,
                            kind,
                        }));
                        Content::Simple(TypeRef::Named(vname.clone()))
                    }
                };
                (
                    content,
                    restricted_attributes(&c.attributes, &p.attributes, prohibited),
                )
            }
            Step::ComplexExtension { particle, mixed } => {
                if simple_base {
                    self.invalid(
                        p.span,
                        construct,
                        format!("the base of xs:complexContent is a complex type; \"{}\" is a simple type", name_of(&p.base)),
                        Some("XSD 1.0, 3.4.3 (src-ct.1); use xs:simpleContent to add attributes to a simple type".into()),
                    );
                    return false;
                }
                let Some(c) = base_complex else {
                    // Not reached: the base is the ur-type or a complex type here.
                    return false;
                };
                let Some(content) =
                    self.extended_content(&c.content, particle.as_ref(), *mixed, p, &construct)
                else {
                    return false;
                };
                (
                    content,
                    united(&c.attributes, &p.attributes, &self.default_uses),
                )
            }
            Step::ComplexRestriction {
                particle,
                mixed,
                prohibited,
            } => {
                if simple_base {
                    self.invalid(
                        p.span,
                        construct,
                        format!("the base of xs:complexContent is a complex type; \"{}\" is a simple type", name_of(&p.base)),
                        Some("XSD 1.0, 3.4.3 (src-ct.1)".into()),
                    );
                    return false;
                }
                let content = explicit_content(particle.as_ref(), *mixed);
                let base_attributes = base_complex.map(|c| c.attributes).unwrap_or_default();
                (
                    content,
                    restricted_attributes(&base_attributes, &p.attributes, prohibited),
                )
            }
        };
        self.finish_derived(name, content, attributes, any_attribute, base_assertions)
    }

    /// An extension's content: the base's when the extension adds no particle, the
    /// extension's when the base has none, else the base's particle then the extension's.
    fn extended_content(
        &mut self,
        base: &Content,
        particle: Option<&Particle>,
        mixed: bool,
        p: &Pending,
        construct: &str,
    ) -> Option<Content> {
        let added = particle.filter(|q| !q.allows_only_emptiness());
        let Some(added) = added else {
            if !mixed {
                return Some(base.clone());
            }
            return match base {
                Content::Empty => Some(explicit_content(None, true)),
                Content::Mixed(_) => Some(base.clone()),
                _ => {
                    self.invalid(
                        p.span,
                        construct.to_string(),
                        format!(
                            "a mixed extension of \"{}\", whose content is not mixed",
                            name_of(&p.base)
                        ),
                        Some(
                            "XSD 1.0, 3.4.6 (cos-ct-extends.1.4): both mixed or both element-only"
                                .into(),
                        ),
                    );
                    None
                }
            };
        };
        let (base_particle, base_mixed) = match base {
            // A base whose element-only content is an empty group (`<xs:all/>`,
            // `<xs:sequence/>`) has empty content (Part 1, 3.4.2, complex content 2.1.2): the
            // extension's particle is the whole content, not appended to a sequence.
            Content::Empty => return Some(explicit_content(Some(added), mixed)),
            Content::Elements(bp) if bp.allows_only_emptiness() => {
                return Some(explicit_content(Some(added), mixed))
            }
            Content::Mixed(bp) if bp.allows_only_emptiness() && !mixed => {
                self.invalid(
                    p.span,
                    construct.to_string(),
                    format!(
                        "an element-only extension of \"{}\", whose content is mixed",
                        name_of(&p.base)
                    ),
                    Some(
                        "XSD 1.0, 3.4.6 (cos-ct-extends.1.4): both mixed or both element-only"
                            .into(),
                    ),
                );
                return None;
            }
            Content::Mixed(bp) if bp.allows_only_emptiness() => {
                return Some(explicit_content(Some(added), mixed))
            }
            Content::Elements(bp) => (bp, false),
            Content::Mixed(bp) => (bp, true),
            Content::Simple(_) => {
                self.invalid(
                    p.span,
                    construct.to_string(),
                    format!(
                        "\"{}\" has simple content: an extension cannot add elements to it",
                        name_of(&p.base)
                    ),
                    Some("XSD 1.0, 3.4.6 (cos-ct-extends.1.4)".into()),
                );
                return None;
            }
        };
        if base_mixed != mixed {
            let (this, that) = if mixed {
                ("a mixed", "is not mixed")
            } else {
                ("an element-only", "is mixed")
            };
            self.invalid(
                p.span,
                construct.to_string(),
                format!(
                    "{this} extension of \"{}\", whose content {that}",
                    name_of(&p.base)
                ),
                Some("XSD 1.0, 3.4.6 (cos-ct-extends.1.4): both mixed or both element-only".into()),
            );
            return None;
        }
        // XSD 1.1 (Part 1, 3.4.2.3.3, clause 4.2.3.3): an all group extended by an all
        // group is one all group, the base's particles first, occurring as the
        // extension's does.
        if let (Term::All(base_items), Term::All(own_items)) = (&base_particle.term, &added.term) {
            if self.docs[self.doc].tree.xsd_1_1() {
                let all = Particle {
                    min: added.min,
                    max: Some(1),
                    term: Term::All(base_items.iter().chain(own_items).cloned().collect()),
                };
                return Some(if mixed {
                    Content::Mixed(all)
                } else {
                    Content::Elements(all)
                });
            }
        }
        if matches!(base_particle.term, Term::All(_)) || matches!(added.term, Term::All(_)) {
            self.invalid(
                p.span,
                construct.to_string(),
                "an extension adding a particle to (or of) an xs:all puts the xs:all inside a sequence: xs:all must be the whole content model of a type (XSD 1.0, 3.8.6 cos-all-limited)",
                None,
            );
            return None;
        }
        let sequence = Particle {
            min: 1,
            max: Some(1),
            term: Term::Sequence(vec![base_particle.clone(), added.clone()]),
        };
        Some(if mixed {
            Content::Mixed(sequence)
        } else {
            Content::Elements(sequence)
        })
    }

    /// Puts the effective content and attributes into `name`'s placeholder, with the
    /// checks every complex type's content gets.
    fn finish_derived(
        &mut self,
        name: &str,
        mut content: Content,
        attributes: Vec<Attribute>,
        any_attribute: Option<Wildcard>,
        base_assertions: Vec<Assertion>,
    ) -> bool {
        let Some(def) = self.schema.types.get(name) else {
            return false;
        };
        let span = def.span;
        let construct = format!("complexType \"{name}\"");
        let mut ok = true;
        ok &= self.check_content(&mut content, span, name);
        for a in declared_twice(&attributes) {
            let message =
                format!("attribute \"{a}\" is declared twice (by the base type and the extension)");
            let hint = Some("XSD 1.0, 3.4.6 (ct-props-correct.4)".to_string());
            self.invalid(span, construct.clone(), message, hint);
            ok = false;
        }
        if !ok {
            return false;
        }
        // What strict and lax wildcards validate against.
        if any_attribute
            .as_ref()
            .is_some_and(|w| w.process != ProcessContents::Skip)
        {
            wildcard::collect_global_attributes(self);
        }
        if let Some(TypeDef {
            kind: TypeKind::Complex(c),
            ..
        }) = self.schema.types.get_mut(name)
        {
            c.content = content;
            c.attributes = attributes;
            c.any_attribute = any_attribute;
            if !base_assertions.is_empty() {
                let own = std::mem::replace(&mut c.assertions, base_assertions);
                c.assertions.extend(own);
            }
        }
        true
    }

    /// `final` on simple types: a restriction, list or union of a type final for it is an
    /// error where the derived type stands.
    fn check_simple_finals(&mut self) {
        let mut problems = Vec::new();
        for def in self.schema.types.values() {
            let uses: Vec<(&TypeRef, Method)> = match &def.kind {
                TypeKind::Restriction(r) => vec![(&r.base, Method::Restriction)],
                TypeKind::Enumeration(e) => vec![(&e.base, Method::Restriction)],
                TypeKind::List(l) => vec![(&l.item, Method::List)],
                TypeKind::Union(members) => members.iter().map(|m| (m, Method::Union)).collect(),
                _ => Vec::new(),
            };
            for (base, method) in uses {
                let TypeRef::Named(b) = base else { continue };
                let is_simple = self
                    .schema
                    .types
                    .get(b)
                    .is_some_and(|d| !matches!(d.kind, TypeKind::Complex(_)));
                if is_simple
                    && self
                        .derived
                        .finals
                        .get(b)
                        .is_some_and(|f| f.forbids(method))
                {
                    problems.push((def.span, def.name.clone(), b.clone(), method));
                }
            }
        }
        for (span, name, base, method) in problems {
            self.invalid(
                span,
                format!("simpleType \"{name}\""),
                format!(
                    "type \"{base}\" is final for {} (final=\"...\" or the schema's finalDefault): it cannot be derived from by {}",
                    method.word(),
                    method.word()
                ),
                Some("XSD 1.0, 3.14.6 (cos-st-restricts, st-props-correct.3)".into()),
            );
        }
    }
}

/// A restriction's attributes: the base's, each replaced by the restriction's use of the
/// same name and removed where prohibited, then the restriction's others.
fn restricted_attributes(
    base: &[Attribute],
    own: &[Attribute],
    prohibited: &[String],
) -> Vec<Attribute> {
    let mut out: Vec<Attribute> = base
        .iter()
        .filter(|a| !prohibited.contains(&a.name))
        .map(|a| own.iter().find(|o| o.name == a.name).unwrap_or(a).clone())
        .collect();
    out.extend(
        own.iter()
            .filter(|o| !base.iter().any(|a| a.name == o.name))
            .cloned(),
    );
    out
}

/// The content a derivation writes (3.4.2's explicit content): none, or its particle, mixed
/// or not.
fn explicit_content(particle: Option<&Particle>, mixed: bool) -> Content {
    match particle.filter(|p| !p.allows_only_emptiness()) {
        Some(p) if mixed => Content::Mixed(p.clone()),
        Some(p) => Content::Elements(p.clone()),
        None if mixed => Content::Mixed(Particle {
            min: 0,
            max: Some(0),
            term: Term::Sequence(Vec::new()),
        }),
        None => Content::Empty,
    }
}

fn name_of(t: &TypeRef) -> &str {
    super::references::name_of(t)
}

/// Whether the simple type `r` is derived from `b` (XSD 1.0 Part 1, 3.14.6 Type Derivation
/// OK (Simple)): the same type, a chain of restrictions up to it, `b` anySimpleType, or
/// `b` a union one of whose members `r` is derived from. `None` where a type is not known
/// (its own errors say why).
pub(super) fn simple_derives(
    types: &std::collections::BTreeMap<String, TypeDef>,
    r: &TypeRef,
    b: &TypeRef,
    depth: usize,
) -> Option<bool> {
    if r == b || *b == TypeRef::Builtin(Builtin::Value(ValueType::AnySimpleType)) {
        return Some(true);
    }
    // The root of the simple types derives from none of them.
    if *r == TypeRef::Builtin(Builtin::Value(ValueType::AnySimpleType)) || depth > 64 {
        return (depth <= 64).then_some(false);
    }
    if let TypeRef::Named(u) = b {
        if let TypeKind::Union(members) = &types.get(u)?.kind {
            let mut unknown = false;
            for m in members {
                match simple_derives(types, r, m, depth + 1) {
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
    let base = match r {
        TypeRef::Builtin(x) => {
            let local = x.xsd_name().trim_start_matches("xs:");
            let up = super::validity::builtin_base(local)?;
            TypeRef::Builtin(Builtin::from_xsd_name(up)?)
        }
        TypeRef::Named(n) => match &types.get(n)?.kind {
            TypeKind::Restriction(x) => x.base.clone(),
            TypeKind::Enumeration(e) => e.base.clone(),
            // A list or a union is derived from anySimpleType alone.
            TypeKind::List(_) | TypeKind::Union(_) => return Some(false),
            _ => return None,
        },
    };
    simple_derives(types, &base, b, depth + 1)
}
