//! The checks that need every type known: what references name exists and is of the
//! kind the reference needs (a union's members and an attribute's type simple, a
//! constrained element's type able to hold its value).

use super::{nillable, Converter};
use crate::ir::*;

impl<'a> Converter<'a> {
    /// Checks what can only be checked once every type is known.
    pub(super) fn check_references(&mut self) {
        let types = self.schema.types.clone();
        let failed = self.failed.clone();
        // A type that failed to convert counts as fitting: its own errors say enough.
        let is_simple = |t: &TypeRef| match t {
            TypeRef::Builtin(_) => Some(true),
            TypeRef::Named(n) if failed.contains(n) => Some(true),
            TypeRef::Named(n) => types
                .get(n)
                .map(|d| !matches!(d.kind, TypeKind::Complex(_) | TypeKind::Alternatives(_))),
        };
        let mut problems = Vec::new();
        let unknown = |n: &str| format!("unknown type \"{n}\"");
        for def in types.values() {
            let mut refs: Vec<&TypeRef> = Vec::new();
            match &def.kind {
                TypeKind::Restriction(r) => refs.push(&r.base),
                TypeKind::Enumeration(e) => refs.push(&e.base),
                TypeKind::List(l) => {
                    refs.push(&l.item);
                    if has_list_variety(&types, &l.item, &mut vec![def.name.as_str()]) {
                        problems.push((
                            (self.type_doc(&def.name), def.span),
                            format!("xs:list in simpleType \"{}\"", def.name),
                            format!("the item type \"{}\" is a list, or a union with a list among its members; {ITEM_ATOMIC}", name_of(&l.item)),
                            Some("XSD 1.0, 3.14.6 (cos-st-restricts.2.1); a list of lists is one list of the inner item type".into()),
                        ));
                    }
                }
                TypeKind::Union(members) => {
                    let span = self
                        .union_spans
                        .iter()
                        .find(|(n, _)| n == &def.name)
                        .map(|(_, s)| *s)
                        .unwrap_or((self.type_doc(&def.name), def.span));
                    for m in members {
                        match is_simple(m) {
                            Some(true) => {}
                            Some(false) => problems.push((span, format!("xs:union in simpleType \"{}\"", def.name), format!("member type \"{}\" is a complex type; XSD allows only simple member types in a union", name_of(m)), Some("to let an element take one of several complex shapes, declare it with xs:alternative (XSD 1.1) or use xs:choice".to_string()))),
                            None => problems.push((span, format!("xs:union in simpleType \"{}\"", def.name), unknown(name_of(m)), None)),
                        }
                    }
                }
                TypeKind::Complex(c) => {
                    let mut stack: Vec<&Particle> = Vec::new();
                    if let Content::Elements(p) | Content::Mixed(p) = &c.content {
                        stack.push(p);
                    }
                    while let Some(p) = stack.pop() {
                        match &p.term {
                            Term::Element(e) => refs.push(&e.type_ref),
                            Term::Any(_) => {}
                            Term::Sequence(v) | Term::Choice(v) | Term::All(v) => {
                                stack.extend(v.iter())
                            }
                        }
                    }
                }
                TypeKind::Alternatives(_) => {}
                // Its types are the schema's, each checked where it is defined.
                TypeKind::Substitution(_) => {}
            }
            for r in refs {
                if is_simple(r).is_none() {
                    problems.push((
                        (self.type_doc(&def.name), def.span),
                        format!("type \"{}\"", def.name),
                        unknown(name_of(r)),
                        None,
                    ));
                }
            }
        }
        for (t, span, construct) in self.attribute_types.clone() {
            match is_simple(&t) {
                Some(true) => {}
                Some(false) => problems.push((
                    span,
                    construct,
                    format!(
                        "\"{}\" is a complex type; an attribute needs a simple type",
                        name_of(&t)
                    ),
                    None,
                )),
                None => problems.push((span, construct, unknown(name_of(&t)), None)),
            }
        }
        for (n, span, owner) in self.simple_content_bases.clone() {
            let t = TypeRef::Named(n);
            match is_simple(&t) {
                Some(true) => {}
                Some(false) => problems.push((
                    span,
                    format!("xs:extension in complexType \"{owner}\""),
                    format!(
                        "extending the complex type \"{}\" is not supported",
                        name_of(&t)
                    ),
                    Some("extend its simple base type and repeat the attributes".into()),
                )),
                None => problems.push((
                    span,
                    format!("xs:extension in complexType \"{owner}\""),
                    unknown(name_of(&t)),
                    None,
                )),
            }
        }
        for (t, span, element) in self.alternative_types.clone() {
            if is_simple(&t).is_none() {
                problems.push((
                    span,
                    format!("xs:alternative of element \"{element}\""),
                    unknown(name_of(&t)),
                    None,
                ));
            }
        }
        for (t, span, construct) in self.constrained_elements.clone() {
            // Simple content, or mixed content that may be empty (its value is a string:
            // the text an empty element takes).
            let takes_value = match &t {
                TypeRef::Named(n) => match types.get(n).map(|d| &d.kind) {
                    Some(TypeKind::Complex(ComplexType { content, .. })) => match content {
                        Content::Simple(_) => true,
                        Content::Mixed(p) => emptiable(p),
                        Content::Empty | Content::Elements(_) => false,
                    },
                    _ => false,
                },
                TypeRef::Builtin(_) => false,
            };
            if is_simple(&t) == Some(false) && !takes_value {
                problems.push((
                    span,
                    construct,
                    format!("default= or fixed= needs a simple type, simple content, or mixed content that may be empty (XSD allows only these); \"{}\" has none of them", name_of(&t)),
                    Some("XSD 1.0, 3.3.6 (cos-valid-default.2)".into()),
                ));
            }
        }
        let mut engines = crate::diff::values::Engines::default();
        for (t, value, span, construct) in std::mem::take(&mut self.value_constraints) {
            if let Some(problem) = value_problem(&self.schema, &mut engines, &t, &value) {
                problems.push((
                    span,
                    construct,
                    problem,
                    Some("XSD 1.0, 3.2.6 (a-props-correct.2) and 3.3.6 (e-props-correct.2): a default or fixed value must be valid for the type".into()),
                ));
            }
        }
        for (t, span, construct) in self.nillable_elements.clone() {
            if let Some(message) = nillable::unsupported(&self.schema, &t) {
                problems.push((span, construct, message, None));
            }
        }
        for (name, root) in &self.schema.roots {
            if is_simple(&root.type_ref).is_none() {
                problems.push((
                    (0, Span { line: 1, column: 1 }),
                    format!("element \"{name}\""),
                    unknown(name_of(&root.type_ref)),
                    None,
                ));
            }
        }
        for ((doc, span), construct, message, hint) in problems {
            // A document that could not be loaded (reported) may define the unknown names.
            if self.composed && message.starts_with("unknown type") {
                continue;
            }
            self.set_doc(doc);
            // An unknown name or a complex type where a simple one is needed breaks XSD's
            // constraints (src-resolve, ct-props, st-props), unless the schema takes
            // components from other documents, which the generator does not read.
            // An unknown type is left to the validity pass, which resolves qualified names
            // as XSD does (this conversion matches local names): here it says only that the
            // generator could not follow the reference.
            let broken = message.contains("XSD allows only")
                || message.contains("an attribute needs a simple type")
                || message.contains(NOT_A_VALUE)
                || message.contains(ITEM_ATOMIC);
            if broken && !self.composed {
                self.invalid(span, construct, message, hint);
            } else {
                self.unsupported(span, construct, message, hint);
            }
        }
    }
}

/// What the message of a list whose items would be lists says.
const ITEM_ATOMIC: &str = "a list's item type must be atomic or a union of atomic types";

/// Whether the simple type `t` is a list, or a union with a list among its members at any
/// depth: what a list's item type may not be (XSD 1.0, 3.14.6 cos-st-restricts.2.1).
/// `seen`: the named types on the way (the list itself first); one met again is a cycle of
/// derivations, reported as such elsewhere, and no list here; so is a chain of over 64.
fn has_list_variety<'t>(
    types: &'t std::collections::BTreeMap<String, TypeDef>,
    t: &'t TypeRef,
    seen: &mut Vec<&'t str>,
) -> bool {
    match t {
        TypeRef::Builtin(Builtin::Value(v)) => v.primitive() == "list",
        TypeRef::Builtin(_) => false,
        TypeRef::Named(n) => {
            // Beyond 64 steps a chain is not judged (no recursion grows with the input).
            if seen.contains(&n.as_str()) || seen.len() > 64 {
                return false;
            }
            seen.push(n);
            let list = match types.get(n).map(|d| &d.kind) {
                Some(TypeKind::List(_)) => true,
                Some(TypeKind::Restriction(r)) => has_list_variety(types, &r.base, seen),
                Some(TypeKind::Enumeration(e)) => has_list_variety(types, &e.base, seen),
                Some(TypeKind::Union(members)) => {
                    members.iter().any(|m| has_list_variety(types, m, seen))
                }
                _ => false,
            };
            seen.pop();
            list
        }
    }
}

/// What the message of a value constraint outside its type's values says.
const NOT_A_VALUE: &str = "is not a value of";

/// Why `value` (a `default=` or `fixed=`) is not a value of `t`, the type of its
/// declaration: a simple type, or a complex type with simple content. `None` when it is,
/// or where the value is the string an empty mixed element takes, or where the type's
/// values are not flattened (a list with a pattern or enumeration): left to the
/// validators, which check the value where it applies.
fn value_problem(
    schema: &Schema,
    engines: &mut crate::diff::values::Engines,
    t: &TypeRef,
    value: &str,
) -> Option<String> {
    let simple = match t {
        TypeRef::Named(n) => match &schema.types.get(n)?.kind {
            TypeKind::Complex(ComplexType {
                content: Content::Simple(v),
                ..
            }) => v,
            TypeKind::Complex(_) | TypeKind::Alternatives(_) => return None,
            _ => t,
        },
        TypeRef::Builtin(Builtin::AnyType) => return None,
        TypeRef::Builtin(_) => t,
    };
    let space = crate::diff::values::space(schema, simple).ok()?;
    (!engines.accepts(&space, value))
        .then(|| format!("\"{value}\" {NOT_A_VALUE} \"{}\"", name_of(simple)))
}

/// Whether a particle may match nothing (XSD 1.0, 3.9.6, Particle Emptiable).
pub(super) fn emptiable(p: &Particle) -> bool {
    p.min == 0
        || p.max == Some(0)
        || match &p.term {
            Term::Element(_) | Term::Any(_) => false,
            Term::Sequence(v) | Term::All(v) => v.iter().all(emptiable),
            Term::Choice(v) => v.iter().any(emptiable),
        }
}

pub(super) fn name_of(t: &TypeRef) -> &str {
    match t {
        TypeRef::Builtin(b) => b.xsd_name(),
        TypeRef::Named(n) => n,
    }
}
