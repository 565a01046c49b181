//! Namespaces in a schema document: the target namespace, which declarations it qualifies
//! (XSD 1.0, 3.3.2 and 3.2.2: a global declaration always; a local one by `form`, else by
//! `elementFormDefault` / `attributeFormDefault`), and what a QName-valued reference
//! (`ref=`, `type=`, `base=`, `itemType`, `memberTypes`, `substitutionGroup`, group refs)
//! names.
//!
//! xsd-parser resolves each QName by the namespace declarations in scope where it stands in
//! the document (an unprefixed one by the default namespace, as QName-valued attributes
//! are: XSD 1.0, 3.15.3), so references are judged by namespace, never by prefix text.
//! The validity pass (`validity.rs`) resolves them again on the markup and reports the
//! schema errors (src-resolve, an unbound prefix); what is said here about the same
//! reference goes through [`Converter::second`](super::Converter) so each is said once.

use xsd_parser::models::schema::xs::{FormChoiceType, Schema as RawSchema, NS_XS};
use xsd_parser::models::schema::QName;

/// The namespace facts of one schema document.
#[derive(Debug, Clone, Default)]
pub(super) struct Namespaces {
    /// `targetNamespace`.
    pub target: Option<String>,
    /// `elementFormDefault="qualified"`.
    pub elements_qualified: bool,
    /// `attributeFormDefault="qualified"`.
    pub attributes_qualified: bool,
    /// A chameleon include: the document has no `targetNamespace` and takes its
    /// includer's, so its references to names in no namespace are to names in that one
    /// (XSD 1.0, 4.2.1, Schema Representation Constraint: Inclusion Constraints 3.2).
    pub chameleon: bool,
}

/// What a reference names, by namespace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Target {
    /// A component of this schema (its target namespace): the local name.
    Here(String),
    /// A name in the XSD namespace: the local name.
    Xsd(String),
    /// A name in another namespace (`None`: no namespace, in a schema that has one).
    Elsewhere(Option<String>, String),
    /// A prefix no declaration in scope binds.
    Unbound(String),
}

impl Namespaces {
    /// The namespace facts of `raw`, whose components are in `namespace` (its own
    /// target namespace, or its includer's for a chameleon include).
    pub fn of(raw: &RawSchema, namespace: Option<String>) -> Namespaces {
        Namespaces {
            chameleon: raw.target_namespace.is_none() && namespace.is_some(),
            target: namespace,
            elements_qualified: raw.element_form_default == FormChoiceType::Qualified,
            attributes_qualified: raw.attribute_form_default == FormChoiceType::Qualified,
        }
    }

    /// The namespace of a local element declaration with `form`, or XSD 1.1's
    /// `targetNamespace` on it (`explicit`, which the validity pass keeps to restrictions;
    /// the empty string is no namespace).
    pub fn local_element(
        &self,
        form: Option<FormChoiceType>,
        explicit: Option<&str>,
    ) -> Option<String> {
        self.local(form, explicit, self.elements_qualified)
    }

    /// The namespace of a local attribute declaration with `form` or `targetNamespace`
    /// (as [`Namespaces::local_element`]).
    pub fn local_attribute(
        &self,
        form: Option<FormChoiceType>,
        explicit: Option<&str>,
    ) -> Option<String> {
        self.local(form, explicit, self.attributes_qualified)
    }

    /// A local declaration's namespace: `explicit` (its targetNamespace), else by `form`
    /// or the document's default.
    fn local(
        &self,
        form: Option<FormChoiceType>,
        explicit: Option<&str>,
        default: bool,
    ) -> Option<String> {
        match explicit {
            Some(ns) => Some(ns.to_string()).filter(|n| !n.is_empty()),
            None => self.qualified(form, default),
        }
    }

    fn qualified(&self, form: Option<FormChoiceType>, default: bool) -> Option<String> {
        let qualified = match form {
            Some(f) => f == FormChoiceType::Qualified,
            None => default,
        };
        if qualified {
            self.target.clone()
        } else {
            None
        }
    }

    /// What `q` names.
    pub fn resolve(&self, q: &QName) -> Target {
        let local = String::from_utf8_lossy(q.local_name()).into_owned();
        let ns = q
            .namespace()
            .map(|ns| String::from_utf8_lossy(ns.as_ref()).into_owned());
        // A QName written with white space around it reaches xsd-parser collapsed (the
        // tree's replay, `xsd_attribute_values`).
        match ns {
            // xsd-parser leaves an unbound prefix without a namespace.
            None if q.prefix().is_some() => {
                Target::Unbound(String::from_utf8_lossy(q.prefix().unwrap_or_default()).into())
            }
            // `xmlns=""` undeclares the default namespace: no namespace.
            Some(ns) if ns.is_empty() => self.here_or_elsewhere(None, local),
            Some(ns) if ns.as_bytes() == NS_XS.as_ref() => Target::Xsd(local),
            ns => self.here_or_elsewhere(ns, local),
        }
    }

    fn here_or_elsewhere(&self, ns: Option<String>, local: String) -> Target {
        if ns == self.target || (ns.is_none() && self.chameleon) {
            Target::Here(local)
        } else {
            Target::Elsewhere(ns, local)
        }
    }
}

impl super::Converter<'_> {
    /// Resolves reference `q` (the `what` of `construct`, at `span`) to the global
    /// component of `kind` it names, by expanded name: the component's key (see
    /// `Converter::key_of`), in this document's target namespace or in one the schema's
    /// other documents define (an import). A reference to a name in the XSD namespace,
    /// in a namespace no document of the schema defines, or with an unbound prefix, is
    /// reported (as the schema error it is) and gives `None`.
    pub(super) fn resolve_reference(
        &mut self,
        kind: &'static str,
        q: &QName,
        span: crate::ir::Span,
        construct: &str,
        what: &str,
    ) -> Option<String> {
        let shown = q.to_string();
        match self.namespaces.resolve(q) {
            Target::Here(local) => {
                let target = self.namespaces.target.clone();
                Some(self.key_of(kind, target, local))
            }
            // A namespace another document of the schema has (one it imports): the
            // component may be there (if not, it is reported as unknown, named in full).
            Target::Elsewhere(ns, local) if self.docs.iter().any(|d| d.namespace == ns) => {
                Some(self.key_of(kind, ns, local))
            }
            Target::Unbound(prefix) => {
                self.second(
                    format!("the prefix \"{prefix}\" of"),
                    span,
                    construct.to_string(),
                    format!("the prefix \"{prefix}\" of \"{shown}\" is not bound to a namespace"),
                    Some("declare it with xmlns:PREFIX=\"...\" on the schema element".into()),
                );
                None
            }
            Target::Xsd(local) => {
                self.invalid(
                    span,
                    construct.to_string(),
                    format!("the XSD namespace has no {what} named \"{local}\""),
                    self.xsd_default_hint(q),
                );
                None
            }
            Target::Elsewhere(ns, _) => {
                self.foreign(&shown, ns, span, construct);
                None
            }
        }
    }

    /// A reference into namespace `ns`, which no document of the schema has: if a
    /// document could not be loaded, it may have been that namespace's (the failed load
    /// is reported); else it names nothing (src-resolve, XSD 1.0, 3.15.3).
    pub(super) fn foreign(
        &mut self,
        shown: &str,
        ns: Option<String>,
        span: crate::ir::Span,
        construct: &str,
    ) {
        let in_ns = match &ns {
            Some(ns) => format!("namespace {ns}"),
            None => "no namespace".to_string(),
        };
        if self.composed {
            self.invalid(
                span,
                construct.to_string(),
                format!("\"{shown}\" is in {in_ns}, and no schema document loaded is that namespace's"),
                Some("a document this schema includes, imports or redefines could not be loaded (reported where it is named)".into()),
            );
            return;
        }
        let hint = match (&ns, &self.namespaces.target) {
            (None, Some(target)) => Some(format!(
                "this schema's components are in its target namespace {target}: refer to them with a prefix bound to it (or make it the default namespace)"
            )),
            _ => None,
        };
        self.second(
            format!("\"{shown}\" is in namespace"),
            span,
            construct.to_string(),
            format!("\"{shown}\" is in {in_ns}, which this schema does not import (src-resolve)"),
            hint,
        );
    }

    /// The key of the global component of `kind` that `q` names where it stands in the
    /// current document, said nothing of if it names none (where that matters,
    /// [`Converter::resolve_reference`](super::Converter::resolve_reference) reports it).
    pub(super) fn ref_key(&self, kind: &'static str, q: &QName) -> String {
        let namespaces = self.namespaces.clone();
        self.ref_key_in(&namespaces, kind, q)
    }

    /// [`Converter::ref_key`](super::Converter::ref_key) in the document whose namespace facts are `namespaces`.
    pub(super) fn ref_key_in(
        &self,
        namespaces: &Namespaces,
        kind: &'static str,
        q: &QName,
    ) -> String {
        let (ns, local) = match namespaces.resolve(q) {
            Target::Here(local) => (namespaces.target.clone(), local),
            Target::Elsewhere(ns, local) => (ns, local),
            _ => return String::from_utf8_lossy(q.local_name()).into_owned(),
        };
        self.key_of_in(namespaces, kind, ns, local)
    }

    /// With the XSD namespace as the default namespace, an unprefixed reference names a
    /// built-in: the hint says so (a user type referred to without a prefix is the usual
    /// cause).
    pub(super) fn xsd_default_hint(&self, q: &QName) -> Option<String> {
        q.prefix().is_none().then(|| {
            "the XSD namespace is the default namespace here, so an unprefixed name refers to it; bind a prefix to the target namespace to refer to this schema's own components".to_string()
        })
    }
}
