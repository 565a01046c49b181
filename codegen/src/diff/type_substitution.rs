//! The diff compares elements by their declared types: an element whose type `xsi:type`
//! chooses ([`TypeKind::Substitution`], `xsd/passes/type_substitution.rs`) is compared as
//! declared, and the substitution types themselves (made by the generator, not written in
//! the schema) are left out. What `xsi:type` may name follows from the schema's types and
//! `block`s, which the diff compares on their own; that a removed or renamed type could
//! break an old document naming it in `xsi:type` is not followed yet.

use crate::ir::*;

/// `schema` with every element typed as declared and no substitution types.
pub(super) fn as_declared(schema: &Schema) -> Schema {
    let declared = |t: &TypeRef| -> Option<TypeRef> {
        let TypeRef::Named(n) = t else { return None };
        match &schema.types.get(n)?.kind {
            TypeKind::Substitution(s) => Some(s.declared.clone()),
            _ => None,
        }
    };
    let mut out = schema.clone();
    if !schema
        .types
        .values()
        .any(|d| matches!(d.kind, TypeKind::Substitution(_)))
    {
        return out;
    }
    fn walk(p: &mut Particle, declared: &dyn Fn(&TypeRef) -> Option<TypeRef>) {
        match &mut p.term {
            Term::Element(e) => {
                if let Some(t) = declared(&e.type_ref) {
                    e.type_ref = t;
                }
            }
            Term::Sequence(v) | Term::Choice(v) | Term::All(v) => {
                v.iter_mut().for_each(|i| walk(i, declared))
            }
            Term::Any(_) => {}
        }
    }
    for def in out.types.values_mut() {
        if let TypeKind::Complex(c) = &mut def.kind {
            if let Content::Elements(p) | Content::Mixed(p) = &mut c.content {
                walk(p, &declared);
            }
        }
    }
    for root in out.roots.values_mut() {
        if let Some(t) = declared(&root.type_ref) {
            root.type_ref = t;
        }
    }
    out.types
        .retain(|_, d| !matches!(d.kind, TypeKind::Substitution(_)));
    out
}
