//! Simple types: restrictions with their facets, lists and unions, and the anonymous
//! simple types inside them, each a type of its own under a name derived from where it
//! stands.

use super::adapter::{facet_value, Item, What};
use super::{documentation, Converter};
use crate::ir::*;
use crate::xsd::markup;
use boardxml::facets::{Constraint, ExplicitTimezone, FACETS};
use xsd_parser::models::schema::xs::{self, SimpleBaseType};

impl<'a> Converter<'a> {
    /// An anonymous simple type inside another (a list's items, a union's member, a
    /// restriction's base): a type of its own under a fresh name derived from `base`.
    pub(super) fn inline_simple_type(&mut self, base: &str, at: Item<'a>) -> Option<TypeRef> {
        let tname = self.synthesise(base);
        let def = self.simple_type(&tname, at)?;
        self.insert(Some(def));
        Some(TypeRef::Named(tname))
    }

    pub(super) fn simple_type(&mut self, name: &str, at: Item<'a>) -> Option<TypeDef> {
        let span = self.span(at);
        let construct = format!("simpleType \"{name}\"");
        let mut doc = None;
        let mut kind = None;
        for c in self.children(at) {
            match c.what {
                What::Annotation(a) => doc = documentation(Some(a)),
                What::SimpleRestriction(r) => {
                    let rspan = self.span(c);
                    let parts = self.children(c);
                    // The base: named by base=, or an inline simpleType (a type of its
                    // own, named after the one it is the base of).
                    let base = match (&r.base, inline_simple(&parts)) {
                        (Some(base_q), None) => self.type_ref(base_q, &rspan, &construct)?,
                        (None, Some((_, ik))) => {
                            self.inline_simple_type(&format!("{name}_base"), ik)?
                        }
                        // Both or neither: src-restriction-base-or-simpleType (the validity
                        // pass reports it).
                        _ => {
                            self.invalid(rspan, &construct, "xs:restriction needs exactly one of base= and an inline simpleType (src-restriction-base-or-simpleType)", None);
                            return None;
                        }
                    };
                    let (facets, enums) = self.facets(&parts, &construct)?;
                    let others = constraining(&facets);
                    kind = Some(if enums.is_empty() {
                        TypeKind::Restriction(Restriction { base, facets })
                    } else if others > 0 {
                        // An enumeration with other facets: a restricted type whose values
                        // the enumeration also restricts.
                        let mut facets = facets;
                        facets.set_enumeration(&enums);
                        TypeKind::Restriction(Restriction { base, facets })
                    } else {
                        TypeKind::Enumeration(Enumeration {
                            base,
                            values: enums,
                        })
                    });
                }
                What::List(l) => {
                    let lspan = self.span(c);
                    let item = match (&l.item_type, inline_simple(&self.children(c))) {
                        (Some(item_q), None) => self.type_ref(item_q, &lspan, &construct)?,
                        (None, Some((_, ik))) => {
                            self.inline_simple_type(&format!("{name}_item"), ik)?
                        }
                        _ => {
                            self.invalid(lspan, &construct, "xs:list needs exactly one of itemType= and an inline simpleType (src-list-itemType-or-simpleType)", None);
                            return None;
                        }
                    };
                    kind = Some(TypeKind::List(ListType {
                        item,
                        facets: Facets::default(),
                    }));
                }
                What::Union(u) => {
                    let uspan = self.span(c);
                    // Member order decides which member takes a value: memberTypes first,
                    // then the inline simpleTypes in document order (Part 1, 3.14.2).
                    let mut members = Vec::new();
                    // xsd-parser splits memberTypes at each space: two spaces give an
                    // empty name between them, which is none.
                    for q in u
                        .member_types
                        .iter()
                        .flat_map(|l| l.0.iter())
                        .filter(|q| !q.as_bytes().is_empty())
                    {
                        if let Some(t) = self.type_ref(q, &uspan, &construct) {
                            members.push(t);
                        }
                    }
                    let inline = self.children(c).into_iter().filter_map(|m| match m.what {
                        What::SimpleType(st) => Some((st, m)),
                        _ => None,
                    });
                    for (i, (_, mk)) in inline.enumerate() {
                        if let Some(t) =
                            self.inline_simple_type(&format!("{name}_member{}", i + 1), mk)
                        {
                            members.push(t);
                        }
                    }
                    // Remember where the union stands: members are checked once every type is known.
                    self.union_spans.push((name.to_string(), (self.doc, uspan)));
                    kind = Some(TypeKind::Union(members));
                }
                _ => {}
            }
        }
        let kind = kind?;
        Some(TypeDef {
            name: name.to_string(),
            doc,
            span,
            kind,
        })
    }

    /// Collects one restriction step's facets; enumeration values come back separately.
    /// The facets among a restriction step's children `parts`.
    pub(super) fn facets(
        &mut self,
        parts: &[Item<'a>],
        construct: &str,
    ) -> Option<(Facets, Vec<EnumValue>)> {
        let mut out = Facets::default();
        let mut enums = Vec::new();
        let mut ok = true;
        for &item in parts {
            let What::Facet(local, facet) = item.what else {
                continue;
            };
            let span = self.span(item);
            let value = match facet_value(facet) {
                Ok(value) => value,
                Err(assertion) => {
                    ok &= self.assertion(item, span, construct, assertion, &mut out);
                    continue;
                }
            };
            let text = value.value.clone();
            let fconstruct = format!("xs:{local} in {construct}");
            // A bound is kept as written, and folded into an integer when it is one (the
            // integer bases use the folded form; rendering checks every bound against the
            // value space of the base, which is known only there).
            let int = |text: &str| -> Option<i128> { text.trim().parse::<i128>().ok() };
            let count = |cx: &mut Self, text: &str| -> Option<u64> {
                match text.trim().parse::<u64>() {
                    Ok(v) => Some(v),
                    Err(_) => {
                        cx.invalid(
                            span,
                            fconstruct.clone(),
                            format!("\"{text}\" is not a non-negative integer"),
                            None,
                        );
                        None
                    }
                }
            };
            let Some(def) = boardxml::facets::Facet::from_name(local).map(|f| f.def()) else {
                self.unsupported(
                    span,
                    fconstruct.clone(),
                    format!("xs:{local} is not supported"),
                    None,
                );
                ok = false;
                continue;
            };
            match def.constrains {
                Constraint::Bound(b) => {
                    out.bounds.push((b, text.clone()));
                    let slot = if b.is_lower() {
                        &mut out.min
                    } else {
                        &mut out.max
                    };
                    *slot = int(&text).and_then(|v| b.inclusive_integer(v)).or(*slot);
                }
                Constraint::Length(_) | Constraint::TotalDigits | Constraint::FractionDigits => {
                    let n = count(self, &text);
                    out.set_count(def.facet, n);
                }
                Constraint::WhiteSpace => {
                    out.white_space = match text.as_str() {
                        "preserve" => Some(WhiteSpace::Preserve),
                        "replace" => Some(WhiteSpace::Replace),
                        "collapse" => Some(WhiteSpace::Collapse),
                        other => {
                            self.invalid(
                                span,
                                fconstruct.clone(),
                                format!("\"{other}\" is not a whiteSpace value"),
                                Some("preserve, replace or collapse".into()),
                            );
                            ok = false;
                            None
                        }
                    }
                }
                Constraint::Timezone => match ExplicitTimezone::from_name(text.trim()) {
                    Some(rule) => out.explicit_timezone = Some(rule),
                    None => {
                        self.invalid(
                            span,
                            fconstruct.clone(),
                            format!("\"{text}\" is not an explicitTimezone value"),
                            Some("required, prohibited or optional".into()),
                        );
                        ok = false;
                    }
                },
                Constraint::Enumeration => enums.push(EnumValue {
                    value: text,
                    doc: documentation(value.annotation.as_ref()),
                    namespaces: markup::enumeration_scope(self.node(item)),
                }),
                Constraint::Pattern => match boardxml_xsd_regex::translate_as(&text, {
                    // A pattern is read as the version its document is.
                    if self.docs[item.doc].tree.xsd_1_1() {
                        boardxml_xsd_regex::Version::Xsd11
                    } else {
                        boardxml_xsd_regex::Version::Xsd10
                    }
                }) {
                    Ok(rust) => out.patterns.push(Pattern { xsd: text, rust }),
                    Err(e) => {
                        self.invalid(
                            span,
                            fconstruct.clone(),
                            format!(
                                "invalid XSD pattern \"{text}\": {} (at character {})",
                                e.message,
                                e.offset + 1
                            ),
                            e.hint.clone(),
                        );
                        ok = false;
                    }
                },
            }
        }
        ok.then_some((out, enums))
    }
}

impl<'a> Converter<'a> {
    /// Reads an `xs:assertion` of a restriction step into `out`: its test must be an
    /// XPath expression (compiled here as the runtime will, with `$value` and the
    /// namespaces in scope), else the schema is invalid. False if it is not read.
    fn assertion(
        &mut self,
        item: Item<'a>,
        span: Span,
        construct: &str,
        assertion: &xs::AssertionType,
        out: &mut Facets,
    ) -> bool {
        let fconstruct = format!("xs:assertion in {construct}");
        let Some(test) = assertion.test.clone() else {
            self.unsupported(span, &fconstruct, "an xs:assertion without a test", None);
            return false;
        };
        #[cfg(not(feature = "xpath"))]
        {
            let _ = (item, test, out);
            self.unsupported(
                span,
                fconstruct,
                "xs:assertion needs boardxml-codegen's `xpath` feature (a default one), which this build leaves out",
                None,
            );
            false
        }
        #[cfg(feature = "xpath")]
        self.compiled_assertion(item, span, fconstruct, test, out)
    }

    /// [`Converter::assertion`] once its test is known.
    #[cfg(feature = "xpath")]
    fn compiled_assertion(
        &mut self,
        item: Item<'a>,
        span: Span,
        fconstruct: String,
        test: String,
        out: &mut Facets,
    ) -> bool {
        let hint = "an XPath 2.0 expression over $value, with the prefixes it uses declared";
        match self.compiled_xpath(item, span, &fconstruct, &test, true, hint) {
            Some(assertion) => {
                out.assertions.push(assertion);
                true
            }
            None => false,
        }
    }

    /// An XPath test of the schema (an assertion's, `value`: with `$value`; a type
    /// alternative's) compiled now by the runtime's engine, with the namespaces in scope
    /// where `item` stands and its xpathDefaultNamespace. None where it does not compile,
    /// reported: a syntax error, an unbound prefix, an unknown variable (and the errors
    /// below) are the schema's error (`hint` says what is expected); any other static error
    /// may be the engine's gap rather than the schema's (xee may lack a function of XPath
    /// 2.0's library), so it is not passed off as one. The xpathDefaultNamespace applies to
    /// type names as well as element names (the runtime writes them out for xee).
    #[cfg(feature = "xpath")]
    pub(super) fn compiled_xpath(
        &mut self,
        item: Item<'a>,
        span: Span,
        construct: &str,
        test: &str,
        value: bool,
        hint: &str,
    ) -> Option<Assertion> {
        let namespaces = self.node(item).declared_scope().to_vec();
        let default_element_namespace = self.xpath_default_namespace(item);
        let bindings: Vec<(&str, &str)> = namespaces
            .iter()
            .map(|(p, ns)| (p.as_str(), ns.as_str()))
            .collect();
        if let Err(e) = boardxml::facets::assertion::compile_test(
            test,
            value,
            &bindings,
            default_element_namespace.as_deref().unwrap_or(""),
        ) {
            // XPST0080 (a cast to xs:NOTATION or xs:anyAtomicType) is XPath 2.0's error
            // whatever the engine. A type alternative's test knows the built-in types only
            // (3.12.6), all of which xee knows, so a type it does not know is the schema's
            // error there (XPST0051; xee says XQST0052 for a cast to one); an assertion's
            // may name the schema's own types, which xee does not have.
            let schemas = ["XPST0003", "XPST0081", "XPST0008", "XPST0080"]
                .iter()
                .chain(if value {
                    &[][..]
                } else {
                    &["XPST0051", "XQST0052"][..]
                })
                .any(|code| e.starts_with(code));
            if schemas {
                self.invalid(
                    span,
                    construct,
                    format!("the test \"{test}\" is not an XPath expression that can be evaluated here: {e}"),
                    Some(hint.into()),
                );
            } else {
                self.unsupported(
                    span,
                    construct,
                    format!("the XPath engine (xee) cannot compile the test \"{test}\": {e}"),
                    None,
                );
            }
            return None;
        }
        Some(Assertion {
            test: test.to_string(),
            namespaces,
            default_element_namespace,
        })
    }
}

/// The inline simple type among `parts` (a restriction's base, a list's items, an
/// attribute's type).
pub(super) fn inline_simple<'a>(parts: &[Item<'a>]) -> Option<(&'a SimpleBaseType, Item<'a>)> {
    parts.iter().find_map(|p| match p.what {
        What::SimpleType(st) => Some((st, *p)),
        _ => None,
    })
}

/// How many facets but the enumeration and whiteSpace constrain a restriction's values:
/// with none, an enumeration's values are the whole type.
pub(super) fn constraining(facets: &Facets) -> usize {
    // A step may repeat the pattern (alternatives) and, wrongly, a bound: each counts.
    facets.patterns.len()
        + facets.bounds.len()
        + usize::from(facets.explicit_timezone.is_some())
        + facets.assertions.len()
        + FACETS
            .iter()
            .filter(|d| d.constrains.extent().is_some())
            .filter(|d| facets.count(d.facet).is_some())
            .count()
}
