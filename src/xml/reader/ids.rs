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
    /// Each ID, with the path of the attribute or element that holds it and, by XSD 1.1,
    /// the path of the element it identifies (by 1.0 no second holder is allowed: empty).
    ids: HashMap<String, (String, String)>,
    /// Each reference: the name, its offset and path.
    references: Vec<(String, usize, String)>,
    /// The document's schema was read as XSD 1.1 ([`crate::schema::Document::XSD_1_1`]):
    /// an ID identifies an element, however many of its attributes (or children) give it.
    pub(super) xsd_1_1: bool,
}

impl IdTable {
    /// Notes one name at `offset` (`path`: the value's place; `owner`: the path of the
    /// element it identifies); a second holder of an ID is reported at once, naming the
    /// first. By XSD 1.1 (Part 1, 3.17.5.2) an ID is an error only when it identifies two
    /// elements; by 1.0, whenever a second attribute or element holds it.
    pub(super) fn note(
        &mut self,
        role: IdRole,
        name: &str,
        offset: usize,
        path: &str,
        owner: &str,
    ) -> Option<Diagnostic> {
        match role {
            IdRole::Id => {
                if let Some((first, first_owner)) = self.ids.get(name) {
                    if self.xsd_1_1 && first_owner == owner {
                        return None;
                    }
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
                let owner = if self.xsd_1_1 {
                    owner.to_owned()
                } else {
                    String::new()
                };
                self.ids.insert(name.to_owned(), (path.to_owned(), owner));
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
    /// Whether an element may have at most one attribute of an ID type (XSD 1.0, 3.4.4
    /// Element Locally Valid (Complex Type) 5; XSD 1.1 drops the rule).
    pub(crate) fn one_id_attribute(&self) -> bool {
        !self.ids.xsd_1_1
    }

    /// Reports that attribute `name` of the element at `offset`, which an attribute
    /// wildcard takes, is a second attribute of an ID type on the element (XSD 1.0, 3.4.4
    /// Element Locally Valid (Complex Type) 5).
    pub(crate) fn second_id_attribute(&mut self, offset: usize, name: &str) {
        debug_assert!(self.one_id_attribute());
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

    /// Notes the IDs and IDREFs of the default (or fixed) value an absent attribute `name`
    /// of the element at `offset` takes: the attribute is in the element's
    /// post-schema-validation infoset all the same (XSD 1.0 Part 1, 3.4.4 Element Locally
    /// Valid (Complex Type) 4 and 3.4.5), so its references must resolve as a written
    /// one's (3.3.4, Validation Root Valid (ID/IDREF), cvc-id.1), and an ID it gives is
    /// an ID of the document. Only XSD 1.1 lets an ID attribute have a default (1.0: 3.2.6,
    /// a-props-correct.3; 1.1 drops the rule, and its 3.17.5.2 binds the defaulted ID as
    /// any other). A QName's prefix was resolved by the schema, not here.
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
        value.ids(&mut |role, n| names.push((role, n.to_owned())));
        self.note_names(names, offset, Some(name));
    }

    /// Notes the IDs and IDREFs of attribute `name` (`expanded`) of the element at
    /// `offset`, which an attribute wildcard took and the global declaration of
    /// `expanded` validated (XSD 1.0 Part 1, 3.3.4 Validation Root Valid (ID/IDREF): every
    /// attribute of an ID type counts, whatever took it).
    pub(crate) fn note_global_ids<G: crate::any::GlobalAttributes>(
        &mut self,
        offset: usize,
        name: &str,
        expanded: &crate::any::ExpandedName,
        value: &str,
    ) {
        let mut names = Vec::new();
        G::ids(expanded, value, Some(&self.scope(false)), &mut |role, n| {
            names.push((role, n.to_owned()))
        });
        self.note_names(names, offset, Some(name));
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
        self.note_names(names, offset, attribute);
    }

    /// Notes `names`, found at `offset` in attribute `attribute` of the current element
    /// (`None`: in its content), in the ID table.
    fn note_names(&mut self, names: Vec<(IdRole, String)>, offset: usize, attribute: Option<&str>) {
        if names.is_empty() {
            return;
        }
        let here = self.path();
        let (path, owner) = match attribute {
            Some(a) => (format!("{here}/@{a}"), here),
            // XSD 1.1 binds an element's ID content to its parent (1.1 Part 1, 3.17.5.2:
            // a `<person>` with an `<id>` child is the element the ID names); the root's
            // to itself.
            None if self.ids.xsd_1_1 => (here, self.parent_path()),
            // By 1.0 the owner is not compared.
            None => (here, String::new()),
        };
        for (role, name) in names {
            if let Some(d) = self.ids.note(role, &name, offset, &path, &owner) {
                self.report(d);
            }
        }
    }
}
