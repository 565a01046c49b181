//! The conversion: each document's components into the IR, global declarations on first
//! use (a reference may come before the declaration), each converted once however many
//! references it has; references to global components resolved and checked.

use super::adapter::{Item, What};
use super::complex::AttributeUses;
use super::{derivation, documentation, identity, namespaces, occurs, Converter};
use crate::ir::*;
use xsd_parser::models::schema::xs::{
    AttributeGroupType, AttributeUseType, ElementType, ElementTypeContent, GroupType,
};
use xsd_parser::models::schema::{MaxOccurs, QName};

impl<'a> Converter<'a> {
    pub(super) fn convert_schema(&mut self, root: Item<'a>) {
        let What::Schema(raw) = root.what else {
            return;
        };
        // Each document's finalDefault applies to the components it declares.
        self.note_final_default(derivation::DerivationSet::of(match &raw.final_default {
            xsd_parser::models::schema::xs::FullDerivationSetType::All => None,
            xsd_parser::models::schema::xs::FullDerivationSetType::BlockSetItemList(l) => {
                Some(&l.0)
            }
        }));
        if self.doc == 0 {
            // The schema's namespace is its first document's (what its writer declares).
            self.schema.target_namespace = self.namespaces.target.clone();
        }
        for c in self.top_level(root) {
            // An overriding component takes the defaults of the document it overrides.
            self.defaults_doc = self.override_home.get(&(c.doc, c.node)).copied();
            match c.what {
                // The schema's documentation is its first document's.
                What::Annotation(a) if self.doc == 0 => {
                    self.schema.doc = documentation(Some(a));
                }
                What::SimpleType(st) => {
                    let name = self.declared("type", st.name.as_deref().unwrap_or_default());
                    self.note_final(&name, st.final_.as_ref().map(derivation::simple_set));
                    let def = self.simple_type(&name, c);
                    self.insert_or_fail(&name, def);
                }
                What::ComplexType(ct) => {
                    let name = self.declared("type", ct.name.as_deref().unwrap_or_default());
                    self.note_final(&name, ct.final_.as_ref().map(derivation::complex_set));
                    self.note_abstract_type(&name, ct.abstract_);
                    let def = self.complex_type(ct, &name, c);
                    self.insert_or_fail(&name, def);
                }
                What::Element(el) => {
                    let span = self.span(c);
                    let Some(name) = el.name.clone() else {
                        self.invalid(span, "xs:element", "a global element needs a name", None);
                        continue;
                    };
                    let name = self.declared("element", &name);
                    let Some(decl) = self.global_element(&name) else {
                        continue;
                    };
                    if self.is_abstract_element(&name) {
                        // Never a document's root (it stands only for its substitution group).
                        continue;
                    }
                    self.schema
                        .roots
                        .entry(name.clone())
                        .or_insert(RootElement {
                            name: decl.name,
                            namespace: decl.namespace,
                            type_ref: decl.type_ref,
                            doc: decl.doc,
                            span: decl.span,
                            value: decl.value,
                            nillable: decl.nillable,
                            xsi_simple: decl.xsi_simple,
                        });
                }
                What::Attribute(_) | What::Group(_) | What::AttributeGroup(_) => {
                    self.convert_global(c)
                }
                What::Redefine(_) => self.convert_redefine(c),
                What::Notation(n) => {
                    self.schema.notations.insert(n.name.clone());
                }
                // `compose` loaded the documents the composition elements name; the markup
                // checks report the unsupported constructs with their position.
                _ => {}
            }
        }
        self.defaults_doc = None;
    }

    /// The redefinitions of an xs:redefine: types converted here, each referring to the
    /// original it redefines; groups and attribute groups are registered under their names
    /// ([`Converter::register_schema`]) and converted here or on first use.
    pub(super) fn convert_redefine(&mut self, r: Item<'a>) {
        for c in self.children(r) {
            match c.what {
                What::SimpleType(st) => {
                    let name = self.declared("type", st.name.as_deref().unwrap_or_default());
                    self.redefining = Some(("type", self.unrenamed("type", &name)));
                    let def = self.simple_type(&name, c);
                    self.redefining = None;
                    self.insert_or_fail(&name, def);
                }
                What::ComplexType(ct) => {
                    let name = self.declared("type", ct.name.as_deref().unwrap_or_default());
                    self.redefining = Some(("type", self.unrenamed("type", &name)));
                    let def = self.complex_type(ct, &name, c);
                    self.redefining = None;
                    self.insert_or_fail(&name, def);
                }
                // One without a name: the markup checks report it.
                What::Group(GroupType { name: Some(_), .. })
                | What::AttributeGroup(AttributeGroupType { name: Some(_), .. }) => {
                    self.convert_global(c)
                }
                _ => {}
            }
        }
    }

    /// A global attribute, group or attribute group (at the top of a document or, for
    /// groups, in an `xs:redefine`), converted once however many references it has; one
    /// without a name is an error.
    pub(super) fn convert_global(&mut self, c: Item<'a>) {
        let (kind, name, noun) = match c.what {
            What::Attribute(a) => ("attribute", &a.name, "attribute"),
            What::Group(g) => ("group", &g.name, "group"),
            What::AttributeGroup(g) => ("attributeGroup", &g.name, "attribute group"),
            _ => return,
        };
        let Some(name) = name else {
            let span = self.span(c);
            let message = format!("a global {noun} needs a name");
            self.invalid(span, format!("xs:{kind}"), message, None);
            return;
        };
        let name = self.declared(kind, name);
        match c.what {
            What::Attribute(_) => drop(self.global_attribute(&name)),
            What::Group(_) => drop(self.global_group(&name)),
            _ => drop(self.global_attribute_group(&name)),
        }
    }

    /// The global element `name`, converted once (its anonymous type is generated once
    /// however many references it has).
    pub(super) fn global_element(&mut self, name: &str) -> Option<ElementDecl> {
        if let Some(done) = self.globals.elements.converted.get(name) {
            return done.clone();
        }
        let (el, at) = *self.globals.elements.raw.get(name)?;
        let outer = self.enter(at);
        let span = self.span(at);
        let mut ok = true;
        if el.min_occurs != 1 || el.max_occurs != MaxOccurs::Bounded(1) {
            self.invalid(
                span,
                format!("element \"{name}\""),
                "minOccurs/maxOccurs are not allowed on a global element",
                None,
            );
            ok = false;
        }
        if el.ref_.is_some() {
            self.invalid(
                span,
                format!("element \"{name}\""),
                "ref= is not allowed on a global element",
                None,
            );
            ok = false;
        }
        // A reference from inside its own type (a recursive element) sees the element
        // with the type it is going to have.
        let reserved = self.reserve_element_type(el, name, span);
        // The key may differ from the element's name (one local name in two namespaces).
        let local = el.name.clone().unwrap_or_else(|| name.to_string());
        self.globals.elements.converted.insert(
            name.to_string(),
            reserved.clone().map(|type_ref| ElementDecl {
                name: local.clone(),
                namespace: self.namespaces.target.clone(),
                span,
                type_ref,
                doc: None,
                // Only a complex element can contain itself; it has no value constraint.
                value: None,
                nillable: el.nillable == Some(true),
                xsi_simple: None,
            }),
        );
        let decl = if ok {
            self.element_decl_reserved(el, at, name, reserved)
                .map(|decl| ElementDecl {
                    name: local,
                    // A global element is always in the target namespace.
                    namespace: self.namespaces.target.clone(),
                    ..decl
                })
        } else {
            None
        };
        self.globals
            .elements
            .converted
            .insert(name.to_string(), decl.clone());
        self.leave(outer);
        decl
    }

    /// The type an element will have, decided before its content is converted: its
    /// `type=`, or the name its anonymous type will get (taken now).
    pub(super) fn reserve_element_type(
        &mut self,
        el: &ElementType,
        name: &str,
        span: Span,
    ) -> Option<TypeRef> {
        if let Some(q) = &el.type_ {
            // Any error here is reported again, identically, by the conversion (and deduplicated).
            let declared = self.type_ref(q, &span, &format!("element \"{name}\""));
            // With identity constraints it reads with a copy of its own (xsd/passes/identity.rs).
            if identity::has_identity(el) && matches!(declared, Some(TypeRef::Named(_))) {
                return Some(TypeRef::Named(self.synthesise(name)));
            }
            return declared;
        }
        let inline = el.content.iter().any(|c| {
            matches!(
                c,
                ElementTypeContent::SimpleType(_) | ElementTypeContent::ComplexType(_)
            )
        });
        if !inline {
            // A member without a type has its head's (xsd/passes/substitution.rs): known before
            // its conversion, for a reference to it from inside that type.
            if let Some(t) = self.affiliation_type(el) {
                return Some(t);
            }
        }
        inline.then(|| TypeRef::Named(self.synthesise(name)))
    }

    /// The global attribute `name`, converted once.
    pub(super) fn global_attribute(&mut self, name: &str) -> Option<Attribute> {
        if let Some(done) = self.globals.attributes.converted.get(name) {
            return done.clone();
        }
        let (a, at) = *self.globals.attributes.raw.get(name)?;
        let outer = self.enter(at);
        let span = self.span(at);
        let construct = format!("attribute \"{name}\"");
        let mut ok = true;
        if a.use_ != AttributeUseType::Optional {
            self.invalid(
                span,
                construct.clone(),
                "use= is not allowed on a global attribute (it belongs to each reference)",
                None,
            );
            ok = false;
        }
        if a.ref_.is_some() {
            self.invalid(
                span,
                construct,
                "ref= is not allowed on a global attribute",
                None,
            );
            ok = false;
        }
        let converted = if ok {
            self.attribute_decl(a, at, name, "the schema")
                .map(|decl| Attribute {
                    // The key may differ from the name (one local name in two namespaces).
                    name: a.name.clone().unwrap_or_else(|| name.to_string()),
                    // A global attribute is always in the target namespace.
                    namespace: self.namespaces.target.clone(),
                    ..decl
                })
        } else {
            None
        };
        self.globals
            .attributes
            .converted
            .insert(name.to_string(), converted.clone());
        self.leave(outer);
        converted
    }

    /// The model group of the global group `name` (occurring once), converted once.
    /// `from` is where the reference stands, for a cycle's error.
    pub(super) fn global_group(&mut self, name: &str) -> Option<Particle> {
        if let Some(done) = self.globals.groups.converted.get(name) {
            return done.clone();
        }
        let (g, at) = *self.globals.groups.raw.get(name)?;
        let outer = self.enter(at);
        if self.in_redefine(at) {
            self.redefining = Some(("group", self.unrenamed("group", name)));
        }
        self.globals.groups.in_progress.push(name.to_string());
        let span = self.span(at);
        let construct = format!("group \"{name}\"");
        let mut model = None;
        let mut ok = true;
        if g.ref_.is_some() || g.min_occurs != 1 || g.max_occurs != MaxOccurs::Bounded(1) {
            self.invalid(
                span,
                construct.clone(),
                "a global group takes no ref=, minOccurs or maxOccurs (they belong to each reference)",
                None,
            );
            ok = false;
        }
        for c in self.children(at) {
            let (local, inner) = match c.what {
                What::Annotation(_) => continue,
                What::Model(local, inner) => (local, inner),
                _ => {
                    self.invalid(
                        span,
                        construct.clone(),
                        "a global group holds one xs:sequence, xs:choice or xs:all",
                        None,
                    );
                    ok = false;
                    continue;
                }
            };
            let ispan = self.span(c);
            if model.is_some() {
                self.invalid(
                    ispan,
                    construct.clone(),
                    "a global group holds exactly one xs:sequence, xs:choice or xs:all",
                    None,
                );
                ok = false;
                continue;
            }
            if inner.min_occurs != 1 || inner.max_occurs != MaxOccurs::Bounded(1) {
                self.invalid(
                    ispan,
                    format!("xs:{local} in group \"{name}\""),
                    "the model group of a global group takes no minOccurs or maxOccurs (put them on each reference)",
                    None,
                );
                ok = false;
            }
            model = self.particle(inner, local, c, name);
            ok &= model.is_some();
        }
        if model.is_none() && ok {
            self.invalid(
                span,
                construct,
                "a global group holds one xs:sequence, xs:choice or xs:all",
                None,
            );
        }
        let model = if ok { model } else { None };
        self.globals.groups.in_progress.pop();
        self.globals
            .groups
            .converted
            .insert(name.to_string(), model.clone());
        self.leave(outer);
        self.group_done(name);
        model
    }

    /// The attributes of the global attribute group `name`, converted once.
    pub(super) fn global_attribute_group(&mut self, name: &str) -> Option<Vec<Attribute>> {
        if let Some(done) = self.globals.attribute_groups.converted.get(name) {
            return done.clone();
        }
        let (g, at) = *self.globals.attribute_groups.raw.get(name)?;
        let outer = self.enter(at);
        if self.in_redefine(at) {
            self.redefining = Some(("attributeGroup", self.unrenamed("attributeGroup", name)));
        }
        self.globals
            .attribute_groups
            .in_progress
            .push(name.to_string());
        let span = self.span(at);
        let mut ok = true;
        if g.ref_.is_some() {
            self.invalid(
                span,
                format!("attributeGroup \"{name}\""),
                "ref= is not allowed on a global attribute group",
                None,
            );
            ok = false;
        }
        // Its wildcard is followed by `wildcard::attribute_group_wildcard`.
        let mut uses = AttributeUses::default();
        for c in self.children(at) {
            ok &= self.attribute_item(c, name, &mut uses).unwrap_or(true);
        }
        let result = ok.then_some(uses.attributes);
        self.globals.attribute_groups.in_progress.pop();
        let depth = self.globals.attribute_groups.in_progress.len();
        match self.attribute_group_cut {
            // Read inside a cycle that closes below it: incomplete, not kept.
            Some(cut) if cut < depth => {}
            cut => {
                if cut == Some(depth) {
                    self.attribute_group_cut = None;
                }
                self.globals
                    .attribute_groups
                    .converted
                    .insert(name.to_string(), result.clone());
            }
        }
        self.leave(outer);
        result
    }

    /// `<xs:attributeGroup ref="..."/>`: the group's attributes.
    pub(super) fn attribute_group_ref(
        &mut self,
        r: &AttributeGroupType,
        at: Item<'a>,
        owner: &str,
    ) -> Option<Vec<Attribute>> {
        let span = self.span(at);
        let Some(q) = &r.ref_ else {
            self.invalid(
                span,
                format!("xs:attributeGroup in \"{owner}\""),
                "a local xs:attributeGroup must be a reference (ref=\"...\")",
                None,
            );
            return None;
        };
        let name = self.resolve_reference(
            "attributeGroup",
            q,
            span,
            &format!("xs:attributeGroup ref=\"{q}\""),
            "attribute group",
        )?;
        let name = self.redefined("attributeGroup", name);
        if let Some(at) = self
            .globals
            .attribute_groups
            .in_progress
            .iter()
            .position(|n| *n == name)
        {
            if self.docs[self.doc].tree.xsd_1_1() {
                // XSD 1.1: a circular reference is allowed; it adds nothing to what the
                // groups of the cycle already give.
                self.attribute_group_cut = Some(self.attribute_group_cut.map_or(at, |c| c.min(at)));
                return Some(Vec::new());
            }
            let mut cycle = self.globals.attribute_groups.in_progress[at..].to_vec();
            cycle.push(name.clone());
            self.second(
                "an attribute group that contains itself".into(),
                span,
                format!("xs:attributeGroup ref=\"{name}\""),
                format!("circular attribute group reference: {}", cycle.join(" -> ")),
                None,
            );
            return None;
        }
        if !self.globals.attribute_groups.raw.contains_key(&name) {
            self.unsupported(
                span,
                format!("xs:attributeGroup ref=\"{name}\""),
                format!("unknown attribute group \"{name}\""),
                None,
            );
            return None;
        }
        self.global_attribute_group(&name)
    }

    /// `<xs:group ref="..."/>` inside a content model: the group's model group with the
    /// reference's occurrence.
    pub(super) fn group_ref(
        &mut self,
        g: &GroupType,
        at: Item<'a>,
        owner: &str,
    ) -> Option<Particle> {
        let span = self.span(at);
        let Some(q) = &g.ref_ else {
            self.invalid(
                span,
                format!("xs:group in \"{owner}\""),
                "a local xs:group must be a reference (ref=\"...\")",
                None,
            );
            return None;
        };
        let name =
            self.resolve_reference("group", q, span, &format!("xs:group ref=\"{q}\""), "group")?;
        let name = self.redefined("group", name);
        let construct = format!("xs:group ref=\"{name}\"");
        let (min, max) = occurs(g.min_occurs, g.max_occurs, &span, self, &construct)?;
        let stack = &self.globals.groups.in_progress;
        // An element's anonymous type starts a new chain (an empty entry): a group may
        // contain itself through an element.
        let chain = stack
            .iter()
            .rposition(String::is_empty)
            .map_or(0, |i| i + 1);
        if stack[..chain].contains(&name) {
            // Not met: such a group's anonymous types wait until it is done
            // (`xsd/passes/recursion.rs`).
            self.unsupported(
                span,
                construct,
                format!("group \"{name}\" is referred to from an anonymous type inside itself; this is not supported yet"),
                Some("name the element's type (a named complexType) and refer to it with type=".into()),
            );
            return None;
        }
        if let Some(at) = stack[chain..]
            .iter()
            .position(|n| *n == name)
            .map(|i| i + chain)
        {
            let mut cycle = self.globals.groups.in_progress[at..].to_vec();
            cycle.push(name.clone());
            self.second(
                "a model group that contains itself".into(),
                span,
                construct,
                format!("circular group reference: {}", cycle.join(" -> ")),
                Some("a group may contain itself only through an element's type".into()),
            );
            return None;
        }
        if !self.globals.groups.raw.contains_key(&name) {
            self.unsupported(span, construct, format!("unknown group \"{name}\""), None);
            return None;
        }
        let model = self.global_group(&name)?;
        Some(Particle {
            min,
            max,
            term: model.term,
        })
    }

    /// The type that stands for `xs:error`: an empty union, made once.
    fn error_type(&mut self, span: Span) -> String {
        if let Some(name) = &self.error_type {
            return name.clone();
        }
        let name = self.synthesise("XsError");
        self.insert(Some(TypeDef {
            name: name.clone(),
            doc: Some("XSD 1.1's xs:error: no value is valid.".into()),
            span,
            kind: TypeKind::Union(Vec::new()),
        }));
        self.error_type = Some(name.clone());
        name
    }

    pub(super) fn type_ref(
        &mut self,
        qname: &QName,
        span: &Span,
        construct: &str,
    ) -> Option<TypeRef> {
        // By namespace (the bindings in scope where the reference stands), not by prefix.
        let local = match self.namespaces.resolve(qname) {
            namespaces::Target::Xsd(local) => local,
            _ => {
                return self
                    .resolve_reference("type", qname, *span, construct, "type")
                    .map(|key| TypeRef::Named(self.redefined("type", key)))
            }
        };
        match Builtin::from_xsd_name(&local) {
            Some(b) => Some(TypeRef::Builtin(b)),
            // XSD 1.1's own built-ins: valid there, not supported here.
            // XSD 1.1's anyAtomicType as the type of a declaration (what the validity pass
            // allows it): any atomic value, which a document writes as some string, held
            // as anySimpleType holds it (the string as written, compared as one).
            None if local == "anyAtomicType" && self.docs[self.doc].tree.xsd_1_1() => {
                Some(TypeRef::Builtin(Builtin::Value(ValueType::AnySimpleType)))
            }
            // XSD 1.1's xs:error (Part 2, 3.16.7.3): a union with no member types, so no
            // value, and no element, is valid of it; an alternative's way of saying that
            // the elements its test selects are errors.
            None if local == "error" && self.docs[self.doc].tree.xsd_1_1() => {
                Some(TypeRef::Named(self.error_type(*span)))
            }
            None if crate::xsd::vocabulary::XSD_1_1_BUILTINS.contains(&local.as_str()) => {
                self.unsupported(
                    *span,
                    construct.to_string(),
                    format!("the built-in type xs:{local} is not supported by boardxml-codegen"),
                    Some(
                        "every built-in type of XSD 1.0 is supported; this one is XSD 1.1's".into(),
                    ),
                );
                None
            }
            None => {
                self.second(
                    format!("xs:{local} is not a built-in type"),
                    *span,
                    construct.to_string(),
                    format!("xs:{local} is not a built-in type of XSD 1.0"),
                    self.xsd_default_hint(qname),
                );
                None
            }
        }
    }
}
