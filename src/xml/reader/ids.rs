//! The document-wide checks of `xs:ID` and `xs:IDREF` (XSD Part 2, 3.3.8-3.3.10): each ID
//! names one element of the document, and each IDREF names an ID somewhere in it, before or
//! after the reference. Values reach here once read into their types (an ID-typed value
//! says so through [`SimpleValue::ids`](crate::schema::SimpleValue::ids)), so a value that
//! failed its own type's checks is not counted.

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::schema::IdRole;

/// The IDs seen so far, and the references still to be resolved.
#[derive(Debug, Default)]
pub(super) struct IdTable {
    /// Each ID, with the path of the attribute or element that holds it.
    ids: HashMap<String, String>,
    /// Each reference: the name, its offset and path.
    references: Vec<(String, usize, String)>,
}

impl IdTable {
    /// Notes one name at `offset` (`path`: the value's place); a second
    /// holder of an ID is reported at once, naming the first.
    pub(super) fn note(
        &mut self,
        role: IdRole,
        name: &str,
        offset: usize,
        path: &str,
    ) -> Option<Diagnostic> {
        match role {
            IdRole::Id => {
                if let Some(first) = self.ids.get(name) {
                    return Some(
                        Diagnostic::error(
                            Code::DUPLICATE_ID,
                            offset,
                            path,
                            format!("the ID \"{name}\" is already the ID at {first}"),
                        )
                        .expected("an ID used by no other element or attribute of the document")
                        .found(format!("\"{name}\", also at {first}")),
                    );
                }
                self.ids.insert(name.to_owned(), path.to_owned());
            }
            IdRole::Reference => self
                .references
                .push((name.to_owned(), offset, path.to_owned())),
        }
        None
    }

    /// Once the document is read: every reference that names no ID.
    pub(super) fn dangling(&mut self) -> Vec<Diagnostic> {
        let ids = &self.ids;
        std::mem::take(&mut self.references)
            .into_iter()
            .filter(|(name, _, _)| !ids.contains_key(name))
            .map(|(name, offset, path)| {
                let mut d = Diagnostic::error(
                    Code::DANGLING_ID_REF,
                    offset,
                    path,
                    format!("the IDREF \"{name}\" names no ID of the document"),
                )
                .expected("the ID of an element of this document")
                .found(format!("\"{name}\""));
                if let Some(close) = ids.keys().filter(|k| close_to(k, &name)).min() {
                    d.message
                        .push_str(&format!(" (there is an ID \"{close}\")"));
                }
                d
            })
            .collect()
    }
}

/// The same name but for case: the likely typo a reader would want pointed out.
fn close_to(id: &str, name: &str) -> bool {
    id != name && id.eq_ignore_ascii_case(name)
}

impl super::Reader<'_> {
    /// Notes the IDREFs of the default (or fixed) value an absent attribute `name` of the
    /// element at `offset` takes: the attribute is in the element's post-schema-validation
    /// infoset all the same (XSD 1.0 Part 1, 3.4.4 Element Locally Valid (Complex Type) 4
    /// and 3.4.5), so its references must resolve as a written one's (3.3.4, Validation
    /// Root Valid (ID/IDREF), cvc-id.1). An ID attribute has no value constraint (3.2.6,
    /// a-props-correct.3), and a QName's prefix was resolved by the schema, not here.
    /// Reports that attribute `name` of the element at `offset`, which an attribute
    /// wildcard takes, is a second attribute of an ID type on the element (XSD 1.0, 3.4.4
    /// Element Locally Valid (Complex Type) 5).
    pub(crate) fn second_id_attribute(&mut self, offset: usize, name: &str) {
        self.report(
            self.attribute_error(
                Code::UNKNOWN_ATTRIBUTE,
                offset,
                name,
                format!(
                    "attribute {name}, which the attribute wildcard takes, has a global declaration of an ID type, and the element has an attribute of an ID type already (XSD 1.0 allows one per element)"
                ),
            )
            .expected("at most one attribute of an ID type on the element".to_string())
            .found(format!("{name}=\"...\"")),
        );
    }

    #[doc(hidden)]
    pub fn note_default_ids<T: crate::schema::SimpleValue>(
        &mut self,
        offset: usize,
        name: &str,
        lexical: &str,
    ) {
        let Ok(value) = T::parse_lexical(lexical) else {
            return;
        };
        let mut names = Vec::new();
        value.ids(&mut |role, n| {
            if role == IdRole::Reference {
                names.push(n.to_owned())
            }
        });
        if names.is_empty() {
            return;
        }
        let path = format!("{}/@{name}", self.path());
        for n in names {
            if let Some(d) = self.ids.note(IdRole::Reference, &n, offset, &path) {
                self.report(d);
            }
        }
    }

    /// Notes the IDs and IDREFs of a value just read at `offset` (see [`IdTable`]);
    /// `attribute` names the attribute that holds it (`None`: the element's content).
    #[inline]
    pub(super) fn note_ids<T: crate::schema::SimpleValue>(
        &mut self,
        value: &T,
        offset: usize,
        attribute: Option<&str>,
    ) {
        // Nothing is allocated for the values of other types, which hold no names.
        let mut names = Vec::new();
        value.ids(&mut |role, name| names.push((role, name.to_owned())));
        if names.is_empty() {
            return;
        }
        let path = match attribute {
            Some(a) => format!("{}/@{a}", self.path()),
            None => self.path(),
        };
        for (role, name) in names {
            if let Some(d) = self.ids.note(role, &name, offset, &path) {
                self.report(d);
            }
        }
    }
}
