//! Redefinition (XSD 1.0 Part 1, 4.2.2): what each `xs:redefine` replaces. The
//! redefinition takes the component's name (every reference, in either document, is to
//! it), and the component it redefines is kept as its original, under a name of its own,
//! which only the redefinition's self-reference names. A chain of redefines makes an
//! original of an original.

use super::adapter::{Item, What};
use super::{compose, Converter};
use crate::diagnostic::{Kind, SchemaDiagnostic};
use xsd_parser::models::schema::xs::{
    AttributeGroupType, ComplexBaseType, GroupType, SchemaContent, SimpleBaseType,
};

/// The name a redefined component's original keeps: the redefinition takes its name
/// (Part 1, 4.2.2: every reference, in either document, is to the redefinition, except the
/// redefinition's own reference to what it redefines).
fn original_name(name: &str, depth: usize) -> String {
    format!("{name}{}", "-original".repeat(depth))
}

impl<'a> Converter<'a> {
    /// The name a reference of `kind` to `name` resolves to: the original component when
    /// it stands inside the redefinition of that very component.
    pub(super) fn redefined(&self, kind: &'static str, name: String) -> String {
        match &self.redefining {
            Some((k, n)) if *k == kind && *n == name => {
                original_name(&name, self.renamed_depth(self.doc, kind, &name) + 1)
            }
            _ => name,
        }
    }

    /// How many redefinitions above `doc`'s component of `kind` named `name` replace it.
    pub(super) fn renamed_depth(&self, doc: usize, kind: &'static str, name: &str) -> usize {
        self.renamed
            .get(&(doc, kind, name.to_string()))
            .copied()
            .unwrap_or(0)
    }

    /// The name references use for the current document's component of `kind` registered
    /// as `key` ([`Converter::registered`] undone): what its redefinition's self-reference
    /// names.
    pub(super) fn unrenamed(&self, kind: &'static str, key: &str) -> String {
        let mut base = key;
        let mut depth = 0;
        while let Some(b) = base.strip_suffix("-original") {
            depth += 1;
            base = b;
            if self.renamed_depth(self.doc, kind, base) == depth {
                return base.to_string();
            }
        }
        key.to_string()
    }

    /// The name a component of the current document is registered under.
    pub(super) fn registered(&self, kind: &'static str, name: &str) -> String {
        original_name(name, self.renamed_depth(self.doc, kind, name))
    }

    /// Finds what each xs:redefine replaces: those components of the redefined document
    /// (and of the documents it includes) are registered under their original names. A
    /// redefinition of something the redefined schema does not have is an error
    /// (src-redefine 6.1, 7.1).
    pub(super) fn plan_redefinitions(&mut self, roots: &[Item<'a>]) {
        use xsd_parser::models::schema::xs::RedefineContent;
        let raws: Vec<&xsd_parser::models::schema::xs::Schema> = roots
            .iter()
            .filter_map(|r| match r.what {
                What::Schema(raw) => Some(raw),
                _ => None,
            })
            .collect();
        // A component at the top of `doc`.
        let top = |doc: usize, kind: &str, name: &str| {
            raws[doc].content.iter().any(|c| match (kind, c) {
                ("type", SchemaContent::SimpleType(SimpleBaseType { name: Some(n), .. }))
                | ("type", SchemaContent::ComplexType(ComplexBaseType { name: Some(n), .. }))
                | ("group", SchemaContent::Group(GroupType { name: Some(n), .. }))
                | (
                    "attributeGroup",
                    SchemaContent::AttributeGroup(AttributeGroupType { name: Some(n), .. }),
                ) => n == name,
                _ => false,
            })
        };
        // A redefinition of it in `doc` (a chain of redefines).
        let redefined = |doc: usize, kind: &str, name: &str| {
            raws[doc].content.iter().any(|c| match c {
                SchemaContent::Redefine(r) => r.content.iter().any(|c| match (kind, c) {
                    ("type", RedefineContent::SimpleType(SimpleBaseType { name: Some(n), .. }))
                    | (
                        "type",
                        RedefineContent::ComplexType(ComplexBaseType { name: Some(n), .. }),
                    )
                    | ("group", RedefineContent::Group(GroupType { name: Some(n), .. }))
                    | (
                        "attributeGroup",
                        RedefineContent::AttributeGroup(AttributeGroupType {
                            name: Some(n), ..
                        }),
                    ) => n == name,
                    _ => false,
                }),
                _ => false,
            })
        };
        // The documents `doc` includes or redefines, and theirs.
        let docs = &self.docs;
        let below = |doc: usize| -> Vec<usize> {
            let mut scope = vec![doc];
            let mut i = 0;
            while i < scope.len() {
                for c in &docs[scope[i]].compositions {
                    if let (compose::How::Include | compose::How::Redefine, Some(k)) =
                        (c.how, c.document)
                    {
                        if !scope.contains(&k) {
                            scope.push(k);
                        }
                    }
                }
                i += 1;
            }
            scope
        };
        // `doc` has the component, at its top or as a redefinition of one that a document
        // below it defines at its top: a cycle of redefines defines nothing (src-redefine
        // 6.1: the redefined schema must have it).
        let has = |doc: usize, kind: &str, name: &str| {
            top(doc, kind, name)
                || (redefined(doc, kind, name)
                    && below(doc)
                        .into_iter()
                        .any(|k| k != doc && top(k, kind, name)))
        };
        // Which redefinition replaced each component: a second one, from another document,
        // would define the same component twice (sch-props-correct.2).
        let mut replaced_by: std::collections::HashMap<(usize, &str, String), usize> =
            std::collections::HashMap::new();
        for root in roots {
            let d = root.doc;
            let targets: Vec<&compose::Composition> = self.docs[d]
                .compositions
                .iter()
                .filter(|c| c.how == compose::How::Redefine)
                .collect();
            let redefines: Vec<Item<'a>> = self
                .children(*root)
                .into_iter()
                .filter(|c| matches!(c.what, What::Redefine(_)))
                .collect();
            for (r, target) in redefines.into_iter().zip(targets) {
                let Some(j) = target.document else { continue };
                // The redefined schema: the document and those it includes.
                let mut scope = vec![j];
                let mut i = 0;
                while i < scope.len() {
                    for c in &self.docs[scope[i]].compositions {
                        if let (compose::How::Include | compose::How::Redefine, Some(k)) =
                            (c.how, c.document)
                        {
                            if !scope.contains(&k) && k != d {
                                scope.push(k);
                            }
                        }
                    }
                    i += 1;
                }
                for c in self.children(r) {
                    let (kind, name) = match c.what {
                        What::SimpleType(t) => ("type", &t.name),
                        What::ComplexType(t) => ("type", &t.name),
                        What::Group(g) => ("group", &g.name),
                        What::AttributeGroup(g) => ("attributeGroup", &g.name),
                        _ => continue,
                    };
                    let local = c.what.local();
                    let Some(name) = name else { continue };
                    match scope.iter().find(|&&doc| has(doc, kind, name)) {
                        Some(&doc) => {
                            if let Some(&other) = replaced_by.get(&(doc, kind, name.clone())) {
                                if other != d {
                                    let span = self.span(c);
                                    let path = self.docs[d].path.clone();
                                    let first = self.docs[other].path.display().to_string();
                                    self.diagnostics.push(SchemaDiagnostic {
                                        file: path,
                                        span,
                                        construct: format!("xs:{local} \"{name}\" in xs:redefine"),
                                        message: format!("{first} redefines the same {local} \"{name}\": two redefinitions would define one component twice"),
                                        hint: Some("redefine it in one document and include that document where it is needed".into()),
                                        kind: Kind::Invalid,
                                    });
                                }
                                continue;
                            }
                            replaced_by.insert((doc, kind, name.clone()), d);
                            // One level below the redefinition here (itself renamed if a
                            // redefine above this document replaces it).
                            let depth = self.renamed_depth(d, kind, name) + 1;
                            self.renamed.insert((doc, kind, name.clone()), depth);
                        }
                        None => {
                            let span = self.span(c);
                            let path = self.docs[d].path.clone();
                            self.diagnostics.push(SchemaDiagnostic {
                                file: path,
                                span,
                                construct: format!("xs:{local} \"{name}\" in xs:redefine"),
                                message: format!("the redefined schema has no {local} named \"{name}\" to redefine"),
                                hint: None,
                                kind: Kind::Invalid,
                            });
                        }
                    }
                }
            }
        }
    }
}
