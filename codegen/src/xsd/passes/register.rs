//! Registration: every global component of every document by its expanded name, before
//! anything is converted (a reference may name a component of a later document, or of
//! another document). A component is known by a key: its local name, unless a component
//! of the same kind in another namespace has taken it (then `local-2`, ...).

use super::adapter::{Item, What};
use super::{namespaces, pascal, Converter};
use crate::ir::expanded_name;
use xsd_parser::models::schema::xs::{
    AttributeGroupType, ComplexBaseType, GroupType, SimpleBaseType,
};

impl<'a> Converter<'a> {
    /// Registers the key of the current document's global component of `kind` named
    /// `local` (after [`Converter::registered`]): its local name, unless a component of
    /// the same kind in another namespace has that key already (then `local-2`, ...).
    pub(super) fn register_key(&mut self, kind: &'static str, local: &str) -> String {
        let id = (kind, self.namespaces.target.clone(), local.to_string());
        if let Some(key) = self.component_keys.get(&id) {
            return key.clone();
        }
        let mut key = local.to_string();
        let mut n = 2;
        while self.taken_keys.contains(&(kind, key.clone())) {
            key = format!("{local}-{n}");
            n += 1;
        }
        self.taken_keys.insert((kind, key.clone()));
        self.component_keys.insert(id, key.clone());
        key
    }

    /// The key of the current document's global component of `kind` named `local`.
    pub(super) fn declared(&self, kind: &'static str, local: &str) -> String {
        let local = self.registered(kind, local);
        self.key_of(kind, self.namespaces.target.clone(), local)
    }

    /// The key of the global component of `kind` with expanded name (`ns`, `local`): as
    /// registered, else (nothing has that name) the local name in the current document's
    /// target namespace, `{ns}local` in another (not found wherever it is looked up, and
    /// reported so).
    pub(super) fn key_of(&self, kind: &'static str, ns: Option<String>, local: String) -> String {
        self.key_of_in(&self.namespaces, kind, ns, local)
    }

    /// [`Converter::key_of`] from a document whose namespace facts are `namespaces`.
    pub(super) fn key_of_in(
        &self,
        namespaces: &namespaces::Namespaces,
        kind: &'static str,
        ns: Option<String>,
        local: String,
    ) -> String {
        let here = ns == namespaces.target;
        let id = (kind, ns, local);
        match self.component_keys.get(&id) {
            Some(key) => key.clone(),
            None if here => id.2,
            None => expanded_name(id.1.as_deref(), &id.2),
        }
    }

    /// Registers the current document's named types and global declarations (converted
    /// later, on first use: a reference may come before the declaration, or from another
    /// document).
    pub(super) fn register_schema(&mut self, root: Item<'a>) {
        // As the schema has them: without what an xs:override replaces (overrides.rs).
        let items = self.top_level(root);
        // Register every named type first, so anonymous types get names that do not clash.
        for c in &items {
            if let What::SimpleType(SimpleBaseType {
                name: Some(name), ..
            })
            | What::ComplexType(ComplexBaseType {
                name: Some(name), ..
            }) = c.what
            {
                let name = self.registered("type", name);
                let name = self.register_key("type", &name);
                self.names.insert(pascal(&name));
            }
        }
        // Global declarations are converted on first use (a reference may come before the
        // declaration); collect them with where they stand.
        let mut duplicates = Vec::new();
        // Inside xs:redefine, the redefinitions of groups and attribute groups.
        let mut redefinitions: Vec<(&'a GroupType, Item<'a>)> = Vec::new();
        let mut attribute_redefinitions: Vec<(&'a AttributeGroupType, Item<'a>)> = Vec::new();
        for c in items {
            macro_rules! register {
                ($field:ident, $local:literal, $decl:expr, $what:literal) => {{
                    if let Some(name) = $decl.name.clone() {
                        let name = self.registered($local, &name);
                        let name = self.register_key($local, &name);
                        if self.globals.$field.raw.contains_key(&name) {
                            duplicates.push((c, format!(concat!($what, " \"{}\""), name)));
                        } else {
                            self.globals.$field.raw.insert(name, ($decl, c));
                        }
                    }
                }};
            }
            match c.what {
                What::Element(el) => register!(elements, "element", el, "element"),
                What::Attribute(a) => register!(attributes, "attribute", a, "attribute"),
                What::Group(g) => register!(groups, "group", g, "group"),
                What::AttributeGroup(g) => {
                    register!(attribute_groups, "attributeGroup", g, "attributeGroup")
                }
                What::Redefine(_) => {
                    for r in self.children(c) {
                        match r.what {
                            What::SimpleType(SimpleBaseType {
                                name: Some(name), ..
                            })
                            | What::ComplexType(ComplexBaseType {
                                name: Some(name), ..
                            }) => {
                                // A redefinition another redefine replaces (a chain).
                                let name = self.registered("type", name);
                                let name = self.register_key("type", &name);
                                self.names.insert(pascal(&name));
                            }
                            What::Group(g) => redefinitions.push((g, r)),
                            What::AttributeGroup(g) => attribute_redefinitions.push((g, r)),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        for (g, at) in redefinitions {
            if let Some(name) = &g.name {
                let name = self.registered("group", name);
                let name = self.register_key("group", &name);
                self.globals.groups.raw.insert(name, (g, at));
            }
        }
        for (g, at) in attribute_redefinitions {
            if let Some(name) = &g.name {
                let name = self.registered("attributeGroup", name);
                let name = self.register_key("attributeGroup", &name);
                self.globals.attribute_groups.raw.insert(name, (g, at));
            }
        }
        for (at, construct) in duplicates {
            let span = self.span(at);
            self.invalid(
                span,
                construct,
                "a global declaration of this name is already given",
                None,
            );
        }
    }
}
