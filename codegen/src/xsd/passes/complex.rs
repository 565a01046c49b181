//! Complex types: their content (a model group, simple content or none), attribute uses
//! and attribute wildcards. Attribute uses, attribute group references and wildcards are
//! taken by one function wherever they stand (a complex type, a derivation, an attribute
//! group).

use std::collections::HashSet;

use super::adapter::{Item, What};
use super::namespaces::Target;
use super::simple::inline_simple;
use super::{documentation, local_name, model, wildcard, Converter};
use crate::ir::*;
use xsd_parser::models::schema::xs::{
    AttributeGroupType, AttributeType, AttributeUseType, ComplexBaseType, ExtensionType,
};

impl<'a> Converter<'a> {
    pub(super) fn complex_type(
        &mut self,
        ct: &ComplexBaseType,
        name: &str,
        at: Item<'a>,
    ) -> Option<TypeDef> {
        // A type starts a new chain of group references (a group may contain itself
        // through an element's type).
        self.globals.groups.in_progress.push(String::new());
        let def = self.complex_type_inner(ct, name, at);
        self.globals.groups.in_progress.pop();
        def
    }

    pub(super) fn complex_type_inner(
        &mut self,
        ct: &ComplexBaseType,
        name: &str,
        at: Item<'a>,
    ) -> Option<TypeDef> {
        let span = self.span(at);
        let construct = format!("complexType \"{name}\"");
        let mixed = ct.mixed.unwrap_or(false);
        let mut doc = None;
        let mut uses = AttributeUses::default();
        let mut content = Content::Empty;
        let mut ok = true;
        // XSD 1.1's defaultAttributes: taken here unless a derivation takes its own uses.
        let apply = ct.default_attributes_apply;
        let mut own_uses = true;
        let children = self.children(at);
        let mut simple_content = false;
        for &c in &children {
            if let Some(taken) = self.attribute_item(c, name, &mut uses) {
                ok &= taken;
                continue;
            }
            if let Some(model) = self.content_model(c, name) {
                match model {
                    Some(p) if mixed => content = Content::Mixed(p),
                    Some(p) if self.explicitly_empty(c, &p) => content = Content::Empty,
                    Some(p) => content = Content::Elements(p),
                    None => ok = false,
                }
                continue;
            }
            match c.what {
                What::Annotation(a) => doc = documentation(Some(a)),
                What::ComplexContent(cc) => {
                    own_uses = false;
                    // XSD 1.1 (3.4.3, Complex Type Definition Representation OK): mixed on both must agree; in 1.0 the
                    // complexContent's wins.
                    if let (Some(outer), Some(inner)) = (ct.mixed, cc.mixed) {
                        if outer != inner && self.docs[self.doc].tree.xsd_1_1() {
                            self.invalid(
                                span,
                                construct.clone(),
                                format!("mixed=\"{outer}\" on the complexType and mixed=\"{inner}\" on its complexContent"),
                                Some("XSD 1.1, 3.4.3 (Complex Type Definition Representation OK): where both say mixed, they must agree".into()),
                            );
                            ok = false;
                        }
                    }
                    ok &= self.complex_content(cc, c, name, ct.mixed, apply);
                }
                What::SimpleContent(_) => {
                    simple_content = true;
                    for d in self.children(c) {
                        match d.what {
                            // Its wildcards are the type's own (`extension`); a base's is
                            // united with them once types are known (derivation.rs).
                            What::Extension(ext) => match self.extension(ext, d, name, &mut uses) {
                                Some(t) => content = Content::Simple(t),
                                None => ok = false,
                            },
                            What::Restriction(r) => {
                                own_uses = false;
                                ok &= self.simple_content_restriction(r, d, name, apply)
                            }
                            _ => {}
                        }
                    }
                }
                // Noted below, and read below.
                What::OpenContent(_) | What::Assert(_) => {}
                // The markup checks have reported these constructs with their position.
                _ => ok = false,
            }
        }
        if own_uses {
            ok &= self.default_attributes(apply, name, &mut uses);
        }
        // A derivation of complex content notes its own (`complex_derivation`).
        if own_uses && !simple_content {
            let explicit_empty = !mixed
                && match &content {
                    Content::Empty => true,
                    Content::Elements(p) => p.allows_only_emptiness(),
                    _ => false,
                };
            self.note_open_content(name, &children, explicit_empty, None);
        }
        if mixed && matches!(content, Content::Empty) {
            content = Content::Mixed(Particle {
                min: 0,
                max: Some(0),
                term: Term::Sequence(Vec::new()),
            });
        }
        ok &= self.check_content(&mut content, span, name);
        // A test not read is reported, which keeps the schema from being generated; the type
        // stays, so that the checks of its derivation are still made.
        let assertions = self.own_assertions(at, name);
        let attributes = uses.attributes;
        for a in declared_twice(&attributes) {
            self.second(
                format!("attribute \"{a}\" is declared twice"),
                span,
                construct.clone(),
                format!(
                    "attribute \"{a}\" is declared twice (directly or through attribute groups)"
                ),
                Some("XSD 1.0, 3.4.6 (ct-props-correct.4)".into()),
            );
            ok = false;
        }
        let any_attribute = wildcard::complete(uses.own_wildcard, uses.group_wildcards);
        // XSD 1.1 writes every such set (notNamespace).
        let xsd_1_1 = self.docs[self.doc].tree.xsd_1_1();
        if let Some(w) = any_attribute.as_ref().filter(|_| !xsd_1_1) {
            if !wildcard::expressible_in_xsd_1_0(&w.namespaces) {
                self.invalid(
                    span,
                    construct.clone(),
                    "the intersection of the attribute wildcards of the type and its attribute groups is a set of namespaces XSD 1.0 cannot express",
                    Some("XSD 1.0, 3.10.6 (Attribute Wildcard Intersection, erratum E1-10): two ##other of different target namespaces".into()),
                );
                ok = false;
            }
        }
        if any_attribute
            .as_ref()
            .is_some_and(|w| w.process != ProcessContents::Skip)
        {
            wildcard::collect_global_attributes(self);
        }
        if !ok {
            return None;
        }
        Some(TypeDef {
            name: name.to_string(),
            doc,
            span,
            kind: TypeKind::Complex(ComplexType {
                attributes,
                any_attribute,
                content,
                // A derivation puts its base's first (`derivation.rs`).
                assertions: assertions.unwrap_or_default(),
            }),
        })
    }

    /// The `xs:assert`s of the complex type at `at` (XSD 1.1, 3.4.2: on the type, or in
    /// its complexContent's or simpleContent's derivation), in schema order, each test
    /// compiled as the runtime will; None if one is not read (reported).
    fn own_assertions(&mut self, at: Item<'a>, name: &str) -> Option<Vec<Assertion>> {
        let mut found = Vec::new();
        for c in self.children(at) {
            match c.what {
                What::Assert(a) => found.push((c, a)),
                What::ComplexContent(_) | What::SimpleContent(_) => {
                    for d in self.children(c) {
                        if matches!(d.what, What::Extension(_) | What::Restriction(_)) {
                            for e in self.children(d) {
                                if let What::Assert(a) = e.what {
                                    found.push((e, a));
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        // Without the `xpath` feature none is read (each is reported).
        #[cfg_attr(not(feature = "xpath"), allow(unused_mut))]
        let mut assertions = Vec::with_capacity(found.len());
        let mut ok = true;
        for (item, assert) in found {
            let span = self.span(item);
            let construct = format!("xs:assert in complexType \"{name}\"");
            let Some(test) = assert.test.clone() else {
                self.invalid(
                    span,
                    construct,
                    "xs:assert without a test",
                    Some("XSD 1.1, 3.13.2: test is required".into()),
                );
                ok = false;
                continue;
            };
            #[cfg(not(feature = "xpath"))]
            {
                let _ = test;
                self.unsupported(
                    span,
                    construct,
                    "xs:assert needs boardxml-codegen's `xpath` feature (a default one), which this build leaves out",
                    None,
                );
                ok = false;
            }
            #[cfg(feature = "xpath")]
            {
                let hint = "an XPath 2.0 expression over the element (the context item) and $value, with the prefixes it uses declared";
                match self.compiled_xpath(item, span, &construct, &test, true, hint) {
                    Some(a) => assertions.push(a),
                    None => ok = false,
                }
            }
        }
        ok.then_some(assertions)
    }

    /// `<xs:simpleContent><xs:extension base="...">`: the value type; its attributes and
    /// wildcards are the type's own (`uses`).
    pub(super) fn extension(
        &mut self,
        ext: &ExtensionType,
        at: Item<'a>,
        owner: &str,
        uses: &mut AttributeUses,
    ) -> Option<TypeRef> {
        let span = self.span(at);
        let base = self.type_ref(
            &ext.base,
            &span,
            &format!("xs:extension in complexType \"{owner}\""),
        );
        let mut ok = base.is_some();
        for c in self.children(at) {
            match self.attribute_item(c, owner, uses) {
                Some(taken) => ok &= taken,
                None => ok &= matches!(c.what, What::Annotation(_) | What::Assert(_)),
            }
        }
        if ok {
            if let Some(TypeRef::Named(n)) = &base {
                // A simple type or a complex type with simple content: decided once every
                // type is known.
                self.simple_content_extension(owner, n, span);
            }
        }
        if ok {
            base
        } else {
            None
        }
    }

    /// XSD 1.1 (3.4.2.5): a complex type whose `defaultAttributesApply` is true (as it is
    /// unless said otherwise) takes the attribute uses and wildcard of its schema
    /// document's `defaultAttributes` group, as if it referred to the group. False if the
    /// group does not convert (reported where `defaultAttributes` stands).
    pub(super) fn default_attributes(
        &mut self,
        apply: bool,
        owner: &str,
        uses: &mut AttributeUses,
    ) -> bool {
        let doc = self.defaults_doc.unwrap_or(self.doc);
        let Some(Some((group, at))) = self.doc_default_attributes.get(doc).cloned() else {
            return true;
        };
        if !apply {
            return true;
        }
        // The group's name is read in its own document's scope.
        if doc != self.doc {
            let outer = self.doc;
            self.set_doc(doc);
            let taken = self.default_group(group, at, owner, uses);
            self.set_doc(outer);
            return taken;
        }
        self.default_group(group, at, owner, uses)
    }

    /// [`Converter::default_attributes`]' group `group` (standing at `at`), read into `uses`.
    fn default_group(
        &mut self,
        group: AttributeGroupType,
        at: Item<'a>,
        owner: &str,
        uses: &mut AttributeUses,
    ) -> bool {
        let declared = group.ref_.as_ref().is_some_and(|q| {
            let key = self.ref_key("attributeGroup", q);
            self.globals.attribute_groups.raw.contains_key(&key)
        });
        if !declared {
            // The validity pass reports the name (src-resolve), once for the document.
            return false;
        }
        uses.group_wildcards
            .extend(wildcard::group_ref_wildcard(self, &group));
        match self.attribute_group_ref(&group, at, owner) {
            Some(more) => {
                self.default_uses.extend(
                    more.iter()
                        .map(|a| (a.namespace.clone(), a.name.clone(), a.span)),
                );
                uses.attributes.extend(more);
                true
            }
            None => false,
        }
    }

    /// An attribute use, attribute group reference or attribute wildcard among the
    /// children of a complex type, a derivation or an attribute group, into `uses`:
    /// `None` if `c` is none of them, else whether it converted (false: reported).
    pub(super) fn attribute_item(
        &mut self,
        c: Item<'a>,
        owner: &str,
        uses: &mut AttributeUses,
    ) -> Option<bool> {
        Some(match c.what {
            What::Attribute(a) => match self.attribute_use(a, c, owner) {
                Some(Some(a)) => {
                    uses.attributes.push(a);
                    true
                }
                // Prohibited: a restriction removes the base's attribute of the name.
                Some(None) => {
                    let name = match (&a.name, &a.ref_) {
                        (Some(n), _) => n.clone(),
                        (None, Some(q)) => local_name(q),
                        (None, None) => return Some(false),
                    };
                    uses.prohibited.push(name);
                    true
                }
                None => false,
            },
            What::AttributeGroup(r) => {
                uses.group_wildcards
                    .extend(wildcard::group_ref_wildcard(self, r));
                match self.attribute_group_ref(r, c, owner) {
                    Some(more) if self.docs[self.doc].tree.xsd_1_1() => {
                        // Attribute uses are a set (XSD 1.1, 3.6.2.2): a declaration a
                        // group reaches again through a cycle of references (allowed in
                        // 1.1) is one use, not two.
                        for a in more {
                            let again = uses.attributes.iter().any(|b| {
                                b.span == a.span && b.name == a.name && b.namespace == a.namespace
                            });
                            if !again {
                                uses.attributes.push(a);
                            }
                        }
                        true
                    }
                    Some(more) => {
                        uses.attributes.extend(more);
                        true
                    }
                    None => false,
                }
            }
            What::AnyAttribute(w) => {
                let target = self.namespaces.target.clone();
                uses.own_wildcard =
                    Some(wildcard::attribute_wildcard(self, w, c, target.as_deref()));
                true
            }
            _ => return None,
        })
    }

    /// Whether the model group `c` (read as `p`) of a complex type that is not mixed makes
    /// its content type empty rather than element-only (XSD 1.0, 3.4.2, clauses 2.1.2 and
    /// 2.1.3; XSD 1.1, 3.4.2.3.3, 4.1.1.2 to 4.1.1.4): an `xs:sequence` or `xs:all` with
    /// no particles of its own, an `xs:choice` with none and minOccurs 0, and by XSD 1.1
    /// any group with maxOccurs 0. Empty content allows no character children, not even
    /// white space, where element-only content allows white space.
    fn explicitly_empty(&self, c: Item<'a>, p: &Particle) -> bool {
        if self.docs[self.doc].tree.xsd_1_1() && p.max == Some(0) {
            return true;
        }
        let What::Model(local, _) = c.what else {
            return false;
        };
        let childless = self
            .children(c)
            .iter()
            .all(|d| matches!(d.what, What::Annotation(_)));
        childless && (local != "choice" || p.min == 0)
    }

    /// A content model among a complex type's or derivation's children: `xs:group ref=`
    /// or a compositor; `None` if `c` is neither, else the particle (`None`: reported).
    pub(super) fn content_model(&mut self, c: Item<'a>, owner: &str) -> Option<Option<Particle>> {
        match c.what {
            What::Group(g) => Some(self.group_ref(g, c, owner)),
            What::Model(local, g) => Some(self.particle(g, local, c, owner)),
            _ => None,
        }
    }

    /// An attribute use inside a complex type or an attribute group: a local declaration or
    /// a reference to a global one, with its use. `Some(None)`: prohibited (XSD 1.0 without
    /// derivation: the attribute is simply not declared, so a document giving it is
    /// reported as giving an undeclared attribute). `None`: an error, reported.
    pub(super) fn attribute_use(
        &mut self,
        a: &AttributeType,
        at: Item<'a>,
        owner: &str,
    ) -> Option<Option<Attribute>> {
        let span = self.span(at);
        // A reference to one of XSD 1.1's built-in xsi: declarations, resolved once.
        let xsi = a.ref_.as_ref().and_then(|q| self.xsi_builtin(q));
        let (decl, construct) = match (&a.ref_, &a.name, xsi) {
            (Some(q), None, Some((local, type_ref))) => {
                let construct = format!("attribute ref=\"{q}\" in \"{owner}\"");
                // XSD 1.1 Part 1, 3.2.7: the four built-in declarations of the xsi:
                // attributes are in every schema, a reference needs no import (3.17.6.2,
                // clause 4.2.4). The attribute keeps its own meaning: the use may require
                // it or fix its value, and a default is never applied (the suite's
                // complex003-010, after Saxon's and Xerces's reading).
                let decl = Attribute {
                    name: local.to_string(),
                    namespace: Some(XSI_NAMESPACE.to_string()),
                    type_ref,
                    required: false,
                    default: None,
                    fixed: a.fixed.clone(),
                    inheritable: a.inheritable == Some(true),
                    doc: documentation(a.annotation.as_ref()),
                    span,
                };
                (decl, construct)
            }
            (Some(q), None, None) => {
                let construct = format!("attribute ref=\"{q}\" in \"{owner}\"");
                let name = self.resolve_reference("attribute", q, span, &construct, "attribute")?;
                let construct = format!("attribute ref=\"{name}\" in \"{owner}\"");
                if a.type_.is_some() || a.simple_type.is_some() || a.form.is_some() {
                    self.invalid(
                        span,
                        construct,
                        "an attribute reference takes no type=, form= or inline type (they belong to the declaration)",
                        None,
                    );
                    return None;
                }
                if !self.globals.attributes.raw.contains_key(&name) {
                    self.unsupported(
                        span,
                        construct,
                        format!("unknown global attribute \"{name}\""),
                        None,
                    );
                    return None;
                }
                let mut decl = self.global_attribute(&name)?;
                if let Some(fixed) = &decl.fixed {
                    if a.fixed.as_ref().is_some_and(|f| f != fixed) || a.default.is_some() {
                        self.invalid(
                            span,
                            construct,
                            format!("the declaration fixes the value \"{fixed}\"; a reference may only repeat it"),
                            Some("XSD 1.0, 3.2.6 (au-props-correct.2)".into()),
                        );
                        return None;
                    }
                }
                // The reference's value constraint, if it has one, is the one that applies.
                if a.default.is_some() || a.fixed.is_some() {
                    decl.default = a.default.clone();
                    decl.fixed = a.fixed.clone().or(decl.fixed);
                    if let Some(v) = a.default.as_ref().or(a.fixed.as_ref()) {
                        self.value_constraints.push((
                            decl.type_ref.clone(),
                            v.clone(),
                            (self.doc, span),
                            construct.clone(),
                        ));
                    }
                }
                if a.annotation.is_some() {
                    decl.doc = documentation(a.annotation.as_ref()).or(decl.doc);
                }
                // A use may make its attribute inheritable where the declaration does not,
                // or not where it does: the use wins (the suite's cta0011 and cta0012).
                if let Some(inheritable) = a.inheritable {
                    decl.inheritable = inheritable;
                }
                (decl, construct)
            }
            (None, Some(name), _) => {
                let construct = format!("attribute \"{name}\" of \"{owner}\"");
                let decl = Attribute {
                    namespace: self
                        .namespaces
                        .local_attribute(a.form, a.target_namespace.as_deref()),
                    ..self.attribute_decl(a, at, name, owner)?
                };
                (decl, construct)
            }
            (Some(_), Some(_), _) => {
                self.invalid(
                    span,
                    format!("xs:attribute in \"{owner}\""),
                    "an attribute has both name= and ref=",
                    None,
                );
                return None;
            }
            (None, None, _) => {
                self.invalid(
                    span,
                    format!("xs:attribute in \"{owner}\""),
                    "an attribute needs name= or ref=",
                    None,
                );
                return None;
            }
        };
        let required = match a.use_ {
            AttributeUseType::Required => true,
            AttributeUseType::Optional => false,
            AttributeUseType::Prohibited => {
                if a.default.is_some() {
                    self.invalid(
                        span,
                        construct,
                        "a prohibited attribute cannot have a default",
                        Some("XSD 1.0, 3.2.3: use must be optional when default is present".into()),
                    );
                    return None;
                }
                return Some(None);
            }
        };
        if required && decl.default.is_some() {
            self.invalid(
                span,
                construct,
                "a required attribute cannot have a default",
                Some("XSD 1.0, 3.2.3: use must be optional when default is present".into()),
            );
        }
        Some(Some(Attribute { required, ..decl }))
    }

    /// An attribute declaration (local or global): its type, value constraint and
    /// documentation; `required` is left to the use.
    pub(super) fn attribute_decl(
        &mut self,
        a: &AttributeType,
        at: Item<'a>,
        name: &str,
        owner: &str,
    ) -> Option<Attribute> {
        let span = self.span(at);
        let construct = format!("attribute \"{name}\" of \"{owner}\"");
        let type_ref = match (&a.type_, inline_simple(&self.children(at))) {
            (Some(q), None) => self.type_ref(q, &span, &construct)?,
            (None, Some((_, k))) => {
                let tname = self.synthesise(&format!("{owner}_{name}"));
                let def = self.simple_type(&tname, k)?;
                self.insert(Some(def));
                TypeRef::Named(tname)
            }
            (None, None) => TypeRef::Builtin(Builtin::String),
            (Some(_), Some(_)) => {
                self.invalid(
                    span,
                    construct,
                    "an attribute has both type= and an inline simpleType",
                    None,
                );
                return None;
            }
        };
        if a.default.is_some() && a.fixed.is_some() {
            self.invalid(
                span,
                construct.clone(),
                "an attribute cannot have both default and fixed",
                None,
            );
        }
        if let Some(v) = a.default.as_ref().or(a.fixed.as_ref()) {
            self.value_constraints.push((
                type_ref.clone(),
                v.clone(),
                (self.doc, span),
                construct.clone(),
            ));
        }
        self.attribute_types
            .push((type_ref.clone(), (self.doc, span), construct));
        Some(Attribute {
            name: name.to_string(),
            // Set by the caller: a global attribute is qualified, a local one by its form.
            namespace: None,
            type_ref,
            required: false,
            default: a.default.clone(),
            fixed: a.fixed.clone(),
            inheritable: a.inheritable == Some(true),
            doc: documentation(a.annotation.as_ref()),
            span,
        })
    }

    /// The checks of the content model of complex type `name` (at `span`): `xs:all`'s
    /// limits and what `model::check` finds; false if any fails (reported). First, its
    /// wildcards' `##definedSibling` is resolved: the model is whole now (an extension's
    /// holds its base's particles too). Read as XSD 1.1 (the type's document), a wildcard
    /// that competes with an element particle disallows its name: the element wins
    /// (`model.rs`).
    pub(super) fn check_content(&mut self, content: &mut Content, span: Span, name: &str) -> bool {
        let mixed = matches!(content, Content::Mixed(_));
        let (Content::Elements(p) | Content::Mixed(p)) = content else {
            return true;
        };
        wildcard::resolve_siblings(p);
        let doc = self.type_docs.get(name).copied().unwrap_or(self.doc);
        let checked = model::check(p, self.docs[doc].tree.xsd_1_1());
        wildcard::disallow(p, &checked.yielded);
        let p = &*p;
        let mut ok = self.check_all(p, span, name, mixed);
        for problem in checked.problems {
            if problem.invalid {
                let construct = format!("the content model of complexType \"{name}\"");
                self.invalid(problem.span, construct, problem.message, problem.hint);
            } else {
                let construct = format!("complexType \"{name}\"");
                self.unsupported(problem.span, construct, problem.message, problem.hint);
            }
            ok = false;
        }
        if ok && self.docs[doc].tree.xsd_1_1() {
            if let Content::Elements(p) | Content::Mixed(p) = content {
                let p = p.clone();
                ok &= self.wildcard_declarations_consistent(&p, name);
            }
        }
        // XSD 1.1's `<xs:all maxOccurs="0">`: the group is not there, so the content is
        // an empty sequence (no children).
        if let Content::Elements(p) | Content::Mixed(p) = content {
            if matches!(p.term, Term::All(_)) && p.max == Some(0) {
                *p = Particle {
                    min: 1,
                    max: Some(1),
                    term: Term::Sequence(Vec::new()),
                };
            }
        }
        ok
    }
}

impl Converter<'_> {
    /// XSD 1.1's Element Declarations Consistent (3.8.6.3): where a strict or lax
    /// wildcard of the model may match an element that the model also declares locally,
    /// the global declaration the wildcard would find has the local one's type table (as
    /// the generator holds a table: one type). False if not (reported).
    fn wildcard_declarations_consistent(&mut self, p: &Particle, owner: &str) -> bool {
        let mut elements = Vec::new();
        let mut wildcards = Vec::new();
        let mut work = vec![p];
        while let Some(q) = work.pop() {
            match &q.term {
                Term::Element(e) => elements.push(e),
                Term::Any(w) if w.process != ProcessContents::Skip => wildcards.push(w),
                Term::Any(_) => {}
                Term::Sequence(items) | Term::Choice(items) | Term::All(items) => {
                    work.extend(items.iter())
                }
            }
        }
        let mut ok = true;
        let mut judged = HashSet::new();
        for e in elements {
            let expanded = expanded_name(e.namespace.as_deref(), &e.name);
            let Some(w) = wildcards
                .iter()
                .find(|w| w.allows_name(e.namespace.as_deref(), &expanded))
            else {
                continue;
            };
            if !judged.insert(expanded.clone()) {
                continue;
            }
            let Some(key) = self
                .component_keys
                .get(&("element", e.namespace.clone(), e.name.clone()))
                .cloned()
            else {
                continue;
            };
            let Some(global) = self.global_element(&key) else {
                continue;
            };
            // A type definition that differs is judged as a document is read
            // (cvc-complex-type.5, "dynamic EDC"); a type table that differs is an error
            // of the schema.
            let table = |t: &TypeRef| match t {
                TypeRef::Named(n) => matches!(
                    self.schema.types.get(n).map(|d| &d.kind),
                    Some(TypeKind::Alternatives(_))
                ),
                TypeRef::Builtin(_) => false,
            };
            let tables = (table(&global.type_ref), table(&e.type_ref));
            if tables != (false, false) && global.type_ref != e.type_ref {
                self.invalid(
                    e.span,
                    format!("the content model of complexType \"{owner}\""),
                    format!(
                        "element <{}> has another type table (xs:alternative) here than the global declaration of its name, which the wildcard at {}:{} may match (Element Declarations Consistent, XSD 1.1 3.8.6.3)",
                        e.name, w.span.line, w.span.column
                    ),
                    Some("give the local declaration the global one's alternatives, or make the wildcard processContents=\"skip\" or disallow the name".into()),
                );
                ok = false;
            }
        }
        ok
    }
}

/// The attribute uses and attribute wildcards of a complex type, derivation or attribute
/// group, as [`Converter::attribute_item`] collects them.
#[derive(Default)]
pub(super) struct AttributeUses {
    pub(super) attributes: Vec<Attribute>,
    /// The names of the attributes `use="prohibited"` (a restriction removes the base's).
    pub(super) prohibited: Vec<String>,
    /// Its own `xs:anyAttribute`.
    pub(super) own_wildcard: Option<Wildcard>,
    /// The wildcards of the attribute groups it refers to.
    pub(super) group_wildcards: Vec<Wildcard>,
}

/// The names of the attributes declared twice among `attributes`: by expanded name, so
/// attributes of one local name in two namespaces are two (ct-props-correct.4 compares
/// names and target namespaces).
/// The namespace of the `xsi:` attributes.
const XSI_NAMESPACE: &str = "http://www.w3.org/2001/XMLSchema-instance";

impl Converter<'_> {
    /// The local name and type of the built-in declaration of an `xsi:` attribute that `q`
    /// names, in a document read as XSD 1.1 (Part 1, 3.2.7): `type` (QName), `nil`
    /// (boolean), `schemaLocation` (a list of anyURI, held as its text) and
    /// `noNamespaceSchemaLocation` (anyURI).
    fn xsi_builtin(
        &self,
        q: &xsd_parser::models::schema::QName,
    ) -> Option<(&'static str, TypeRef)> {
        if !self.docs[self.doc].tree.xsd_1_1() {
            return None;
        }
        let Target::Elsewhere(Some(ns), local) = self.namespaces.resolve(q) else {
            return None;
        };
        if ns != XSI_NAMESPACE {
            return None;
        }
        let (local, builtin) = match local.as_str() {
            "type" => ("type", Builtin::from_xsd_name("QName")?),
            "nil" => ("nil", Builtin::Boolean),
            "schemaLocation" => ("schemaLocation", Builtin::String),
            "noNamespaceSchemaLocation" => ("noNamespaceSchemaLocation", Builtin::AnyUri),
            _ => return None,
        };
        Some((local, TypeRef::Builtin(builtin)))
    }
}

pub(super) fn declared_twice(attributes: &[Attribute]) -> Vec<&str> {
    let mut seen = HashSet::new();
    attributes
        .iter()
        .filter(|a| !seen.insert((a.namespace.as_deref(), a.name.as_str())))
        .map(|a| a.name.as_str())
        .collect()
}
