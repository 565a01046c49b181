//! Content models: model groups and their particles, element declarations (with their
//! anonymous types, alternatives and identity constraints) and `xs:all`'s limits.

use super::adapter::{Item, What};
use super::{documentation, occurs, substitution, wildcard, Converter};
use crate::ir::*;
use xsd_parser::models::schema::xs::{AltType, ElementType, ElementTypeContent, GroupType};

impl<'a> Converter<'a> {
    pub(super) fn particle(
        &mut self,
        g: &GroupType,
        local: &'static str,
        at: Item<'a>,
        owner: &str,
    ) -> Option<Particle> {
        let span = self.span(at);
        let (min, max) = occurs(
            g.min_occurs,
            g.max_occurs,
            &span,
            self,
            &format!("xs:{local} in \"{owner}\""),
        )?;
        let mut items = Vec::new();
        let mut ok = true;
        for c in self.children(at) {
            let item = match c.what {
                What::Annotation(_) => continue,
                What::Element(el) => self.local_element(el, c, owner),
                What::Any(a) => wildcard::element_wildcard(self, a, c, owner),
                _ => match self.content_model(c, owner).flatten() {
                    // XSD 1.1 (3.8.2, and cos-all-limited as 1.1 words it): a reference to an all
                    // group inside xs:all, occurring once, adds its particles to the group.
                    Some(Particle {
                        min: 1,
                        max: Some(1),
                        term: Term::All(inner),
                    }) if local == "all" && self.docs[self.doc].tree.xsd_1_1() => {
                        items.extend(inner);
                        continue;
                    }
                    Some(p) => {
                        let inner = self.span(c);
                        ok &= self.all_not_nested(&p, inner, owner);
                        Some(p)
                    }
                    None => None,
                },
            };
            match item {
                Some(p) => items.push(p),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        // maxOccurs="0": the particle is not there (XSD 1.0, 3.9.1).
        items.retain(|p| p.max != Some(0));
        let term = match local {
            "sequence" => Term::Sequence(items),
            "choice" => Term::Choice(items),
            _ => Term::All(items),
        };
        Some(Particle { min, max, term })
    }

    /// XSD 1.0 (3.8.6, cos-all-limited): an `xs:all` is a whole content model, never a
    /// particle inside another group. Reports one at `span`; false if `p` is one.
    pub(super) fn all_not_nested(&mut self, p: &Particle, span: Span, owner: &str) -> bool {
        if !matches!(p.term, Term::All(_)) {
            return true;
        }
        self.invalid(
            span,
            format!("xs:all in \"{owner}\""),
            "xs:all must be the whole content model of a type, not inside another model group (XSD 1.0, 3.8.6 cos-all-limited)",
            None,
        );
        false
    }

    /// XSD 1.0 (3.8.6, cos-all-limited): an `xs:all` content model occurs at most once and
    /// its elements at most once each (XSD 1.1: as often as their maxOccurs, which the
    /// reader counts; not yet in `mixed` content, whose writer keeps one place per element).
    pub(super) fn check_all(&mut self, p: &Particle, span: Span, owner: &str, mixed: bool) -> bool {
        let Term::All(items) = &p.term else {
            return true;
        };
        let mut ok = true;
        // XSD 1.1's schema for schema documents also allows maxOccurs="0" (no content).
        let xsd_1_1 = self.docs[self.doc].tree.xsd_1_1();
        if p.min > 1 || !(p.max == Some(1) || (xsd_1_1 && p.max == Some(0))) {
            let (limit, version) = if xsd_1_1 {
                ("0 or 1", "XSD 1.1, 3.8.2")
            } else {
                ("1", "XSD 1.0, 3.8.6 cos-all-limited")
            };
            self.invalid(
                span,
                format!("xs:all in \"{owner}\""),
                format!("an xs:all content model has minOccurs 0 or 1 and maxOccurs {limit} ({version})"),
                None,
            );
            ok = false;
        }
        for item in items {
            if let Term::Element(e) = &item.term {
                let repeats = item.min > 1 || item.max.is_none_or(|m| m > 1);
                if repeats && self.docs[self.doc].tree.xsd_1_1() {
                    if mixed {
                        // The writer puts each element of a mixed all group back at one
                        // place among the text: a repeated one's occurrences would move.
                        self.unsupported(
                            e.span,
                            format!("element \"{}\" in xs:all of \"{owner}\"", e.name),
                            "an element of xs:all in mixed content that may occur more than once (XSD 1.1) is not supported yet",
                            Some("use an xs:sequence or xs:choice where the order can be fixed".into()),
                        );
                        ok = false;
                    }
                } else if repeats {
                    self.invalid(
                        e.span,
                        format!("element \"{}\" in xs:all of \"{owner}\"", e.name),
                        "an element in xs:all has minOccurs 0 or 1 and maxOccurs 0 or 1 (XSD 1.0, 3.8.6 cos-all-limited)",
                        None,
                    );
                    ok = false;
                }
            } else if let Some(at) = substitution::in_all(item) {
                // A reference to a substitution group's head (xsd/passes/substitution.rs):
                // one field of the group's alternatives, held to the reference's
                // occurrence, as an element of the group is.
                // (XSD 1.0's limit on its occurrence is the validity pass's to report.)
                let repeats = item.min > 1 || item.max.is_none_or(|m| m > 1);
                if repeats && mixed {
                    self.unsupported(
                        at,
                        format!("xs:all of \"{owner}\""),
                        "an element of xs:all in mixed content that may occur more than once (XSD 1.1) is not supported yet",
                        Some("use an xs:sequence or xs:choice where the order can be fixed".into()),
                    );
                    ok = false;
                }
            }
        }
        ok
    }

    /// An element particle of a content model: a local declaration or a reference to a
    /// global element, with its occurrence.
    pub(super) fn local_element(
        &mut self,
        el: &ElementType,
        at: Item<'a>,
        owner: &str,
    ) -> Option<Particle> {
        let span = self.span(at);
        let (decl, construct) = match (&el.ref_, &el.name) {
            (Some(q), None) => {
                let construct = format!("element ref=\"{q}\" in \"{owner}\"");
                let name = self.resolve_reference("element", q, span, &construct, "element")?;
                let construct = format!("element ref=\"{name}\" in \"{owner}\"");
                let has_content = el
                    .content
                    .iter()
                    .any(|c| !matches!(c, ElementTypeContent::Annotation(_)));
                if el.type_.is_some()
                    || has_content
                    || el.default.is_some()
                    || el.fixed.is_some()
                    || el.nillable.is_some()
                    || el.form.is_some()
                    || el.block.is_some()
                {
                    self.invalid(
                        span,
                        construct,
                        "an element reference takes only minOccurs, maxOccurs and an annotation (the rest belongs to the declaration)",
                        Some("XSD 1.0, 3.3.3 (src-element.2.2)".into()),
                    );
                    return None;
                }
                if !self.globals.elements.raw.contains_key(&name) {
                    self.unsupported(
                        span,
                        construct,
                        format!("unknown global element \"{name}\""),
                        None,
                    );
                    return None;
                }
                let decl = ElementDecl {
                    span,
                    ..self.global_element(&name)?
                };
                if let Some(p) = self.substitution_reference(&name, &decl, el, &construct) {
                    return p;
                }
                if self.is_abstract_element(&name) {
                    let (min, max) = occurs(el.min_occurs, el.max_occurs, &span, self, &construct)?;
                    return Some(self.abstract_reference(decl, min, max));
                }
                (decl, construct)
            }
            (None, Some(name)) => {
                let construct = format!("element \"{name}\" in \"{owner}\"");
                let occurrence = occurs(el.min_occurs, el.max_occurs, &span, self, &construct)?;
                let decl = ElementDecl {
                    namespace: self
                        .namespaces
                        .local_element(el.form, el.target_namespace.as_deref()),
                    ..self.element_decl(el, at, name)?
                };
                let (min, max) = occurrence;
                return Some(Particle {
                    min,
                    max,
                    term: Term::Element(decl),
                });
            }
            (Some(_), Some(_)) => {
                self.invalid(
                    span,
                    format!("xs:element in \"{owner}\""),
                    "an element has both name= and ref=",
                    None,
                );
                return None;
            }
            (None, None) => {
                self.invalid(
                    span,
                    format!("xs:element in \"{owner}\""),
                    "an element needs name= or ref=",
                    None,
                );
                return None;
            }
        };
        let (min, max) = occurs(el.min_occurs, el.max_occurs, &span, self, &construct)?;
        Some(Particle {
            min,
            max,
            term: Term::Element(decl),
        })
    }

    /// The name of an element's anonymous type: the one reserved for it, or a fresh one.
    pub(super) fn inline_type_name(&mut self, reserved: &Option<TypeRef>, name: &str) -> String {
        match reserved {
            Some(TypeRef::Named(n)) => n.clone(),
            _ => self.synthesise(name),
        }
    }

    pub(super) fn element_decl(
        &mut self,
        el: &ElementType,
        at: Item<'a>,
        name: &str,
    ) -> Option<ElementDecl> {
        self.element_decl_reserved(el, at, name, None)
    }

    /// An element declaration; `reserved` is the type decided beforehand (a global
    /// element's: its anonymous type's name is taken before its content is converted).
    pub(super) fn element_decl_reserved(
        &mut self,
        el: &ElementType,
        at: Item<'a>,
        name: &str,
        reserved: Option<TypeRef>,
    ) -> Option<ElementDecl> {
        let span = self.span(at);
        let construct = format!("element \"{name}\"");
        let mut doc = None;
        let mut inline: Option<TypeRef> = None;
        let mut alternatives = Vec::new();
        let mut constraints = Vec::new();
        let mut ok = true;
        for c in self.children(at) {
            match c.what {
                What::Annotation(a) => doc = documentation(Some(a)),
                What::SimpleType(_) => {
                    let tname = self.inline_type_name(&reserved, name);
                    let def = self.simple_type(&tname, c);
                    ok &= def.is_some();
                    self.insert(def);
                    inline = Some(TypeRef::Named(tname));
                }
                What::ComplexType(ct) => {
                    let tname = self.inline_type_name(&reserved, name);
                    if !self.defer_anonymous_type(ct, &tname, c) {
                        let def = self.complex_type(ct, &tname, c);
                        ok &= def.is_some();
                        self.insert(def);
                    }
                    inline = Some(TypeRef::Named(tname));
                }
                What::Alternative(alt) => match self.alternative(alt, c, name) {
                    Some(a) => alternatives.push(a),
                    None => ok = false,
                },
                What::Unique(_) | What::Key(_) | What::Keyref(_) => {
                    match self.identity_constraint(c) {
                        Some(constraint) => constraints.push(constraint),
                        None => ok = false,
                    }
                }
                _ => {}
            }
        }
        let own_type = inline.is_some();
        let has_identity = !constraints.is_empty();
        let declared = match (&el.type_, inline) {
            (Some(_), Some(_)) => {
                self.invalid(
                    span,
                    construct,
                    "an element has both type= and an inline type",
                    None,
                );
                return None;
            }
            (Some(q), None) => self.type_ref(q, &span, &construct)?,
            (None, Some(t)) => t,
            // No type: a substitution group member's head's, else xs:anyType (XSD 1.0,
            // 3.3.2), held as open content.
            (None, None) => self
                .affiliation_type(el)
                .unwrap_or(TypeRef::Builtin(Builtin::AnyType)),
        };
        if !ok {
            return None;
        }
        // xs:anyType's attribute wildcard is lax (3.4.7): its attributes are checked
        // against the global attribute declarations.
        if declared == TypeRef::Builtin(Builtin::AnyType) {
            wildcard::collect_global_attributes(self);
        }
        let declared = if alternatives.is_empty() {
            self.attach_identity(constraints, declared, own_type, &reserved, name, span)?
        } else {
            if !constraints.is_empty() {
                self.unsupported(
                    span,
                    construct,
                    "identity constraints on an element typed by xs:alternative are not supported",
                    None,
                );
                return None;
            }
            declared
        };
        let type_ref = if alternatives.is_empty() {
            declared
        } else {
            let defaulted = alternatives
                .last()
                .is_some_and(|a: &Alternative| a.test.is_none());
            if !defaulted {
                // XSD 1.1 (3.3.2.1): without a default alternative, the element's declared
                // type is the default type definition (xs:anyType too: the element is then
                // assessed laxly, as any element of that type).
                alternatives.push(Alternative {
                    test: None,
                    type_ref: declared.clone(),
                });
            }
            if let Some(shared) = self.type_tables.get(&alternatives) {
                TypeRef::Named(shared.clone())
            } else {
                let tname = self.synthesise(name);
                self.type_tables.insert(alternatives.clone(), tname.clone());
                self.insert(Some(TypeDef {
                    name: tname.clone(),
                    doc: doc.clone(),
                    span,
                    kind: TypeKind::Alternatives(alternatives),
                }));
                TypeRef::Named(tname)
            }
        };
        if el.default.is_some() && el.fixed.is_some() {
            self.invalid(
                span,
                construct,
                "an element cannot have both default and fixed",
                Some("XSD 1.0, 3.3.3 (src-element.1)".into()),
            );
            return None;
        }
        let value = match (&el.default, &el.fixed) {
            (Some(d), None) => Some(ValueConstraint::Default(d.clone())),
            (None, Some(f)) => Some(ValueConstraint::Fixed(f.clone())),
            _ => None,
        };
        if let Some(ValueConstraint::Default(v) | ValueConstraint::Fixed(v)) = &value {
            // Checked once every type is known: the type must have simple content, and the
            // value must be one of it.
            self.constrained_elements
                .push((type_ref.clone(), (self.doc, span), construct.clone()));
            self.value_constraints.push((
                type_ref.clone(),
                v.clone(),
                (self.doc, span),
                construct.clone(),
            ));
        }
        let nillable = el.nillable == Some(true);
        if nillable {
            self.nillable_elements
                .push((type_ref.clone(), (self.doc, span), construct));
        }
        // xsi:type (type substitution): not where xsi:nil or identity constraints wrap the
        // type (those elements keep refusing an xsi:type that names another type).
        let (type_ref, xsi_simple) = if has_identity {
            (type_ref, None)
        } else {
            // A simple declared type keeps its Rust type (nillable or not): the types that
            // may stand in are validated as themselves and held as it. (A nil anyType
            // element's wrapper takes the table too: a simple type named there allows no
            // attribute, nil or not.)
            let xsi_simple = self.simple_substitution(&type_ref, el).map(Box::new);
            if xsi_simple.is_some() || nillable {
                (type_ref, xsi_simple)
            } else {
                (self.substitutable(type_ref, el, span), None)
            }
        };
        Some(ElementDecl {
            name: name.to_string(),
            // Set by the caller: a global element is qualified, a local one by its form.
            namespace: None,
            span,
            type_ref,
            doc,
            value,
            nillable,
            xsi_simple,
        })
    }

    pub(super) fn alternative(
        &mut self,
        alt: &AltType,
        at: Item<'a>,
        element: &str,
    ) -> Option<Alternative> {
        let span = self.span(at);
        let construct = format!("xs:alternative of element \"{element}\"");
        // An inline type is an anonymous type of its own, named after the element.
        let mut inline = None;
        for c in self.children(at) {
            match c.what {
                What::SimpleType(_) => {
                    let tname = self.synthesise(&format!("{element}Alternative"));
                    let def = self.simple_type(&tname, c);
                    let ok = def.is_some();
                    self.insert(def);
                    if !ok {
                        return None;
                    }
                    inline = Some(TypeRef::Named(tname));
                }
                What::ComplexType(ct) => {
                    let tname = self.synthesise(&format!("{element}Alternative"));
                    if !self.defer_anonymous_type(ct, &tname, c) {
                        let def = self.complex_type(ct, &tname, c);
                        let ok = def.is_some();
                        self.insert(def);
                        if !ok {
                            return None;
                        }
                    }
                    inline = Some(TypeRef::Named(tname));
                }
                _ => {}
            }
        }
        let type_ref = match (&alt.type_, inline) {
            (Some(_), Some(_)) => {
                self.invalid(
                    span,
                    construct,
                    "an xs:alternative has both type= and an inline type",
                    Some("XSD 1.1, 3.12.3 (src-type-alternative.1)".into()),
                );
                return None;
            }
            (None, Some(t)) => t,
            (Some(q), None) => self.type_ref(q, &span, &construct)?,
            (None, None) => {
                self.invalid(
                    span,
                    construct,
                    "xs:alternative needs a type attribute or an inline type",
                    Some("XSD 1.1, 3.12.3 (src-type-alternative.1)".into()),
                );
                return None;
            }
        };
        let test = match &alt.test {
            None => None,
            Some(t) => match parse_alt_test(t) {
                Some(test) => Some(test),
                None => Some(self.xpath_type_test(at, span, &construct, t)?),
            },
        };
        self.alternative_types
            .push((type_ref.clone(), (self.doc, span), element.to_string()));
        Some(Alternative { test, type_ref })
    }
}

impl<'a> Converter<'a> {
    /// A type alternative's test outside the attribute tests generated code makes itself:
    /// compiled now by the runtime's XPath engine, with the namespaces in scope where it
    /// stands and its xpathDefaultNamespace, and evaluated by it on each element.
    fn xpath_type_test(
        &mut self,
        at: Item<'a>,
        span: Span,
        construct: &str,
        test: &str,
    ) -> Option<AltTest> {
        // The runtime copies the element with its attributes and the namespace bindings in
        // scope, but knows neither the document's base URI nor the schema's: a test that
        // reads them could only be answered wrongly.
        const UNSEEN: &[&str] = &["base-uri", "document-uri"];
        if let Some(unseen) = UNSEEN.iter().find(|u| test.contains(*u)) {
            self.unsupported(
                span,
                construct,
                format!("the test \"{test}\" reads {unseen}, which the copy of the element a test is evaluated on does not have yet (the document's or the schema's base URI)"),
                Some("a test over the element's name and attributes".into()),
            );
            return None;
        }
        #[cfg(not(feature = "xpath"))]
        {
            let _ = at;
            self.unsupported(
                span,
                construct,
                format!("the test \"{test}\" needs boardxml-codegen's `xpath` feature (a default one), which this build leaves out"),
                Some("supported without it: @a, not(@a), @a = 'v', @a != 'v'".into()),
            );
            None
        }
        #[cfg(feature = "xpath")]
        {
            let hint = "XSD 1.1, 3.12.6 (an XPath 2.0 expression over the element's attributes)";
            self.compiled_xpath(at, span, construct, test, false, hint)
                .map(AltTest::XPath)
        }
    }
}

/// `@a`, `not(@a)`, `@a = 'v'`, `@a != 'v'` (either quote), with free white space.
fn parse_alt_test(test: &str) -> Option<AltTest> {
    let t = test.trim();
    let attr_name = |s: &str| -> Option<String> {
        let s = s.trim().strip_prefix('@')?.trim();
        (!s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.'))
        .then(|| s.to_string())
    };
    let literal = |s: &str| -> Option<String> {
        let s = s.trim();
        let q = s.chars().next()?;
        if (q == '\'' || q == '"') && s.len() >= 2 && s.ends_with(q) {
            let inner = &s[1..s.len() - 1];
            (!inner.contains(q)).then(|| inner.to_string())
        } else {
            None
        }
    };
    if let Some(inner) = t.strip_prefix("not(").and_then(|r| r.strip_suffix(')')) {
        return attr_name(inner).map(AltTest::Absent);
    }
    if let Some((l, r)) = t.split_once("!=") {
        return Some(AltTest::NotEquals(attr_name(l)?, literal(r)?));
    }
    if let Some((l, r)) = t.split_once('=') {
        return Some(AltTest::Equals(attr_name(l)?, literal(r)?));
    }
    attr_name(t).map(AltTest::Present)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn alternative_tests() {
        assert_eq!(
            parse_alt_test("@type = 'text'"),
            Some(AltTest::Equals("type".into(), "text".into()))
        );
        assert_eq!(
            parse_alt_test("@type"),
            Some(AltTest::Present("type".into()))
        );
        assert_eq!(
            parse_alt_test(" not(@type) "),
            Some(AltTest::Absent("type".into()))
        );
        assert_eq!(
            parse_alt_test("@a != \"b\""),
            Some(AltTest::NotEquals("a".into(), "b".into()))
        );
        assert_eq!(parse_alt_test("@a = 'b' or @c"), None);
        assert_eq!(parse_alt_test("count(@a) > 1"), None);
    }
}
