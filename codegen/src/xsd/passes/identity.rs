//! Identity constraints of element declarations (`xs:unique`, `xs:key`, `xs:keyref`; XSD
//! 1.0 Part 1, 3.11) into the IR: names expanded, the selector and field XPaths parsed
//! into the subset's paths (3.11.6) with their prefixes resolved by the namespace
//! declarations in scope where each stands. The validity pass judges the XPaths and
//! refer= (`validity/identity.rs`); what it refuses is not converted here.
//!
//! The constraints belong to the declaration, and generated code carries them on the type
//! the declaration reads with: an anonymous type is the declaration's own; a named one is
//! copied under a name of the declaration's (`copy_named_types`), so the type's other
//! elements do not get them.

use xsd_parser::models::schema::xs::{ElementType, ElementTypeContent, Field};

use super::adapter::{Item, What};
use super::namespaces::Target;
use super::Converter;
use crate::ir::{
    expanded_name, ComplexType, Content, IdentityConstraint, IdentityKind, IdentityPath, NameTest,
    TypeDef, TypeKind, TypeRef,
};

/// Whether the declaration has identity constraints.
pub(super) fn has_identity(el: &ElementType) -> bool {
    el.content.iter().any(|c| {
        matches!(
            c,
            ElementTypeContent::Unique(_)
                | ElementTypeContent::Key(_)
                | ElementTypeContent::Keyref(_)
        )
    })
}

impl<'a> Converter<'a> {
    /// The identity constraint (`xs:unique`, `xs:key` or `xs:keyref`) at `c`; `None` when
    /// it cannot be converted (the validity pass has said why).
    pub(super) fn identity_constraint(&mut self, c: Item<'a>) -> Option<IdentityConstraint> {
        let local = c.what.local();
        // XSD 1.1's ref= (3.11.2): the constraint it names, declared on another element,
        // applies to this one too (the validity pass checks that it resolves, to a
        // constraint of the same kind, and that nothing else is given).
        let reference = match c.what {
            What::Unique(k) | What::Key(k) => k.ref_.as_ref(),
            What::Keyref(k) => k.ref_.as_ref(),
            _ => None,
        };
        if let Some(q) = reference {
            if !self.docs[c.doc].tree.xsd_1_1() {
                return None;
            }
            let name = match self.namespaces.resolve(q) {
                Target::Here(l) => expanded_name(self.namespaces.target.as_deref(), &l),
                Target::Elsewhere(ns, l) => expanded_name(ns.as_deref(), &l),
                Target::Xsd(_) | Target::Unbound(_) => return None,
            };
            let target = self.named_identity_constraint(&name)?;
            if target.what.local() != local || target.node == c.node && target.doc == c.doc {
                return None;
            }
            let outer = self.enter(target);
            let converted = self.identity_constraint(target);
            self.leave(outer);
            return converted;
        }
        let (name, refer) = match c.what {
            What::Unique(k) | What::Key(k) => (&k.name, None),
            What::Keyref(k) => (&k.name, Some(k.refer.as_ref())),
            _ => return None,
        };
        let span = self.span(c);
        let construct = format!("xs:{local}");
        let parts = self.children(c);
        let selector = parts.iter().find_map(|p| match p.what {
            What::Selector(f) => Some((f, *p)),
            _ => None,
        });
        // ref= (XSD 1.1) and a missing name or selector: the markup checks and the
        // validity pass report them.
        let (Some(name), Some((selector, selector_at))) = (name, selector) else {
            return None;
        };
        let kind = match refer {
            None if local == "key" => IdentityKind::Key,
            None => IdentityKind::Unique,
            Some(None) => return None,
            Some(Some(q)) => match self.namespaces.resolve(q) {
                Target::Here(l) => {
                    IdentityKind::KeyRef(expanded_name(self.namespaces.target.as_deref(), &l))
                }
                Target::Elsewhere(ns, l) => IdentityKind::KeyRef(expanded_name(ns.as_deref(), &l)),
                Target::Xsd(l) => IdentityKind::KeyRef(expanded_name(
                    Some("http://www.w3.org/2001/XMLSchema"),
                    &l,
                )),
                Target::Unbound(_) => return None,
            },
        };
        let selector = match self.xpath(selector, selector_at, false) {
            Ok(p) => p,
            Err(why) => {
                self.unsupported(span, construct, why, None);
                return None;
            }
        };
        let mut converted = Vec::new();
        let fields = parts.iter().filter_map(|p| match p.what {
            What::Field(f) => Some((f, *p)),
            _ => None,
        });
        for (f, at) in fields {
            match self.xpath(f, at, true) {
                Ok(p) => converted.push((f.xpath.trim().to_string(), p)),
                Err(why) => {
                    self.unsupported(span, construct, why, None);
                    return None;
                }
            }
        }
        Some(IdentityConstraint {
            name: expanded_name(self.namespaces.target.as_deref(), name),
            kind,
            selector,
            fields: converted,
            span,
        })
    }

    /// The identity constraint declared (with a name, not by `ref=`) under the expanded
    /// `name`, found among every document's elements: walked once, without recursion.
    fn named_identity_constraint(&mut self, name: &str) -> Option<Item<'a>> {
        if self.identity_index.is_none() {
            let mut index = std::collections::HashMap::new();
            let mut stack: Vec<Item<'a>> = self.roots.iter().rev().copied().collect();
            while let Some(item) = stack.pop() {
                let declared = match item.what {
                    What::Unique(k) | What::Key(k) => k.name.as_deref(),
                    What::Keyref(k) => k.name.as_deref(),
                    _ => None,
                };
                if let Some(local) = declared {
                    let ns = self
                        .doc_namespaces
                        .get(item.doc)
                        .and_then(|n| n.target.clone());
                    index
                        .entry(expanded_name(ns.as_deref(), local.trim()))
                        .or_insert(item);
                }
                stack.extend(self.children(item).into_iter().rev());
            }
            self.identity_index = Some(index);
        }
        self.identity_index.as_ref()?.get(name).copied()
    }

    /// The namespace of an unprefixed element name in the selector or field at `at`: XSD
    /// 1.1's `xpathDefaultNamespace` on it, else on its `xs:schema` (3.11.2, 3.17.2);
    /// `##targetNamespace`, `##defaultNamespace` (the default namespace in scope there),
    /// `##local` or a URI. None (no namespace) without it, and in XSD 1.0. The same for
    /// an assertion's test.
    pub(super) fn xpath_default_namespace(&self, at: Item<'a>) -> Option<String> {
        let doc = &self.docs[at.doc];
        if !doc.tree.xsd_1_1() {
            return None;
        }
        let node = self.node(at);
        let value = node
            .attr("xpathDefaultNamespace")
            .or_else(|| doc.tree.nodes.first()?.attr("xpathDefaultNamespace"))?;
        match value.trim() {
            "##targetNamespace" => self.namespaces.target.clone(),
            "##defaultNamespace" => node.namespace("").map(str::to_string),
            "##local" | "" => None,
            uri => Some(uri.to_string()),
        }
        .filter(|ns| !ns.is_empty())
    }

    /// The paths of a selector's or field's XPath.
    fn xpath(&self, f: &Field, at: Item<'a>, field: bool) -> Result<Vec<IdentityPath>, String> {
        // White space may stand between tokens, never inside one (names have none).
        let text: String = f.xpath.chars().filter(|c| !c.is_whitespace()).collect();
        // By the namespace declarations in scope where it stands (Part 1, 3.11.6).
        let scope = self.node(at).declared_scope();
        let resolve = |prefix: &str| -> Result<String, String> {
            scope
                .iter()
                .rev()
                .find(|(p, _)| p == prefix)
                .map(|(_, ns)| ns.to_string())
                .ok_or_else(|| {
                    format!(
                        "the prefix \"{prefix}\" of xpath=\"{}\" is not bound",
                        f.xpath
                    )
                })
        };
        let unprefixed = self.xpath_default_namespace(at);
        // `element`: an element name test (an unprefixed one takes XSD 1.1's
        // xpathDefaultNamespace; an attribute's never does).
        let test = |t: &str, element: bool| -> Result<NameTest, String> {
            if t == "*" {
                return Ok(NameTest::Any);
            }
            Ok(match t.split_once(':') {
                Some((p, "*")) => NameTest::Namespace(resolve(p)?),
                Some((p, l)) => NameTest::Name(expanded_name(Some(&resolve(p)?), l)),
                None if element => NameTest::Name(expanded_name(unprefixed.as_deref(), t)),
                // An unprefixed name is in no namespace (XPath 1.0: no default namespace).
                None => NameTest::Name(t.to_string()),
            })
        };
        let mut paths = Vec::new();
        for alternative in text.split('|') {
            let (descendant, rest) = match alternative.strip_prefix(".//") {
                Some(r) => (true, r),
                None => (false, alternative),
            };
            let mut path = IdentityPath {
                descendant,
                steps: Vec::new(),
                attribute: None,
            };
            let steps: Vec<&str> = rest.split('/').collect();
            for (i, step) in steps.iter().enumerate() {
                let step = step.strip_prefix("child::").unwrap_or(step);
                if step == "." {
                    continue;
                }
                let attribute = step
                    .strip_prefix('@')
                    .or_else(|| step.strip_prefix("attribute::"));
                match attribute {
                    Some(a) if field && i + 1 == steps.len() => {
                        path.attribute = Some(test(a, false)?)
                    }
                    Some(_) => {
                        return Err(format!(
                            "xpath=\"{}\": an attribute step only ends a field",
                            f.xpath
                        ))
                    }
                    None if step.is_empty() => {
                        return Err(format!("xpath=\"{}\" is not in the XPath subset", f.xpath))
                    }
                    None => path.steps.push(test(step, true)?),
                }
            }
            paths.push(path);
        }
        Ok(paths)
    }

    /// Gives the named types that declarations with constraints read with their copies
    /// (see the module documentation), once every type is converted.
    pub(super) fn copy_named_types(&mut self) {
        for (name, span) in std::mem::take(&mut self.identity_copies) {
            let Some(original) = self
                .schema
                .identity
                .get(&name)
                .and_then(|t| t.copy_of.clone())
            else {
                continue;
            };
            match self.schema.types.get(&original).cloned() {
                Some(mut def) if matches!(def.kind, TypeKind::Complex(_)) => {
                    def.name = name.clone();
                    self.schema.types.insert(name, def);
                }
                Some(mut def)
                    if selects_nothing_in_simple_content(
                        &self.schema.identity[&name].constraints,
                    ) =>
                {
                    // Nothing to check: the copy is the type under the declaration's name.
                    self.schema.identity.remove(&name);
                    def.name = name.clone();
                    self.schema.types.insert(name, def);
                }
                // A simple type: the copy holds it as simple content (see attach_identity).
                Some(_) => {
                    self.schema.types.insert(
                        name.clone(),
                        TypeDef {
                            name: name.clone(),
                            doc: None,
                            span,
                            kind: TypeKind::Complex(simple_content(TypeRef::Named(original))),
                        },
                    );
                }
                // An unknown type: reported by the conversion already.
                None => {
                    self.schema.identity.remove(&name);
                }
            }
        }
    }

    /// Records the constraints of a declaration whose type is `declared` (`inline`: its
    /// own anonymous type); returns the type it reads with.
    pub(super) fn attach_identity(
        &mut self,
        constraints: Vec<IdentityConstraint>,
        declared: TypeRef,
        inline: bool,
        reserved: &Option<TypeRef>,
        name: &str,
        span: crate::ir::Span,
    ) -> Option<TypeRef> {
        if constraints.is_empty() {
            return Some(declared);
        }
        if matches!(&declared, TypeRef::Builtin(b) if *b != crate::ir::Builtin::AnyType)
            && selects_nothing_in_simple_content(&constraints)
        {
            // Nothing to check: no row is ever selected.
            return Some(declared);
        }
        let TypeRef::Named(t) = &declared else {
            // Generated code carries constraints on a named type: the declaration gets one
            // of its own, the ur-type as a complex type or a simple built-in as the simple
            // content of one without attributes (what an element of it reads).
            let host = self.synthesise(name);
            let content = match &declared {
                TypeRef::Builtin(crate::ir::Builtin::AnyType) => ComplexType::any_type(span),
                _ => simple_content(declared.clone()),
            };
            self.insert(Some(TypeDef {
                name: host.clone(),
                doc: None,
                span,
                kind: TypeKind::Complex(content),
            }));
            self.schema.identity.insert(
                host.clone(),
                crate::ir::IdentityTable {
                    constraints,
                    copy_of: None,
                },
            );
            return Some(TypeRef::Named(host));
        };
        if inline {
            self.schema.identity.insert(
                t.clone(),
                crate::ir::IdentityTable {
                    constraints,
                    copy_of: None,
                },
            );
            return Some(declared);
        }
        let copy = match reserved {
            Some(TypeRef::Named(r)) if r != t => r.clone(),
            _ => self.synthesise(name),
        };
        self.schema.identity.insert(
            copy.clone(),
            crate::ir::IdentityTable {
                constraints,
                copy_of: Some(t.clone()),
            },
        );
        self.identity_copies.push((copy.clone(), span));
        Some(TypeRef::Named(copy))
    }
}

/// A complex type without attributes whose content is the simple type `value`: what an
/// element of that simple type reads.
fn simple_content(value: TypeRef) -> ComplexType {
    ComplexType {
        attributes: Vec::new(),
        any_attribute: None,
        content: Content::Simple(value),
        assertions: Vec::new(),
    }
}

/// Whether no selector of `constraints` can select the element they are declared on: on
/// an element of simple content, which has no child elements, they then select nothing in
/// any document (every table is empty: no key is missing, no keyref dangles).
fn selects_nothing_in_simple_content(constraints: &[IdentityConstraint]) -> bool {
    constraints
        .iter()
        .all(|c| c.selector.iter().all(|p| !p.steps.is_empty()))
}
