//! The string-derived name types (`Name`, `NCName`, `NMTOKEN(S)`, `ID`, `IDREF(S)`,
//! `ENTITY(IES)`, `language`), `QName` and `NOTATION`, and `anySimpleType`.
//!
//! Names follow the XML 1.0 fifth edition productions, as the reader's own names do.
//! White space is collapsed first (these types derive from `xs:token`). What this module
//! cannot check alone: that an `ENTITY` names an unparsed entity of the document's DTD (the
//! reader does not keep unparsed entities: any NCName is taken), that a `NOTATION` names a
//! notation the schema declares (the generator's job), and the uniqueness of `ID`s and the
//! resolution of `IDREF`s across a document.

use std::fmt;
use std::str::FromStr;

use crate::schema::{whitespace, FacetError, NamespaceScope};
use crate::xml::wf::{is_name_char, is_name_start};

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
}

fn is_ncname(s: &str) -> bool {
    is_name(s) && !s.contains(':')
}

fn is_nmtoken(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_name_char)
}

/// `[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*`, the pattern XSD 1.0 gives `xs:language`.
fn is_language(s: &str) -> bool {
    s.split('-').enumerate().all(|(i, part)| {
        (1..=8).contains(&part.len())
            && part
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || (i > 0 && b.is_ascii_digit()))
    })
}

macro_rules! token_type {
    ($(#[$doc:meta])* $name:ident, $xsd:literal, $check:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(Box<str>);

        impl $name {
            /// Reads the lexical form after collapsing white space.
            pub fn parse(text: &str) -> Result<Self, FacetError> {
                let t = whitespace::collapse(text);
                let check: fn(&str) -> bool = $check;
                if check(&t) {
                    Ok($name(t.into()))
                } else {
                    Err(FacetError::Lexical { expected: $xsd })
                }
            }
            /// The value.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl FromStr for $name {
            type Err = FacetError;
            fn from_str(s: &str) -> Result<Self, FacetError> {
                $name::parse(s)
            }
        }
    };
}

token_type!(
    /// An `xs:Name` (XML 1.0, production 5).
    Name, "xs:Name", is_name);
token_type!(
    /// An `xs:NCName`: a Name without a colon.
    NCName, "xs:NCName", is_ncname);
token_type!(
    /// An `xs:NMTOKEN` (XML 1.0, production 7).
    NmToken, "xs:NMTOKEN", is_nmtoken);
token_type!(
    /// An `xs:language` (RFC 3066 as XSD 1.0's pattern has it).
    Language, "xs:language", is_language);
token_type!(
    /// An `xs:ID`: an NCName.
    Id, "xs:ID", is_ncname);
token_type!(
    /// An `xs:IDREF`: an NCName.
    IdRef, "xs:IDREF", is_ncname);
token_type!(
    /// An `xs:ENTITY`: an NCName (not checked against the DTD's unparsed entities).
    Entity, "xs:ENTITY", is_ncname);

macro_rules! list_of {
    ($(#[$doc:meta])* $name:ident, $item:ident, $xsd:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub Vec<$item>);

        impl $name {
            /// Reads one or more items separated by white space.
            pub fn parse(text: &str) -> Result<Self, FacetError> {
                let items = text
                    .split([' ', '\t', '\n', '\r'])
                    .filter(|s| !s.is_empty())
                    .map($item::parse)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| FacetError::Lexical { expected: $xsd })?;
                if items.is_empty() {
                    return Err(FacetError::Lexical { expected: $xsd });
                }
                Ok($name(items))
            }
            /// The items.
            pub fn items(&self) -> &[$item] {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                for (i, item) in self.0.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    fmt::Display::fmt(item, f)?;
                }
                Ok(())
            }
        }

        impl FromStr for $name {
            type Err = FacetError;
            fn from_str(s: &str) -> Result<Self, FacetError> {
                $name::parse(s)
            }
        }
    };
}

list_of!(
    /// An `xs:NMTOKENS`: one or more NMTOKENs.
    NmTokens, NmToken, "xs:NMTOKENS");
list_of!(
    /// An `xs:IDREFS`: one or more IDREFs.
    IdRefs, IdRef, "xs:IDREFS");
list_of!(
    /// An `xs:ENTITIES`: one or more ENTITYs.
    Entities, Entity, "xs:ENTITIES");

/// An `xs:QName`: an optional prefix and a local name, both NCNames, and (once read where
/// namespace declarations are in scope, [`QName::parse_in`]) the namespace its prefix is
/// bound to there. Its value is the expanded name (Part 2, 3.2.18): two resolved QNames
/// are equal when their namespaces and local names are, whatever their prefixes. A QName
/// parsed without a scope ([`QName::parse`], `FromStr`) is held as written and compares
/// by prefix and local name, with resolved ones too (it cannot know better).
#[derive(Debug, Clone)]
pub struct QName {
    prefix: Option<Box<str>>,
    local: Box<str>,
    binding: Binding,
}

/// What a QName's prefix (or, unprefixed, the default namespace) meant where it was read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Binding {
    /// Read without a scope: not known.
    Unresolved,
    /// In no namespace (unprefixed, no default namespace in scope).
    NoNamespace,
    /// In this namespace.
    Namespace(Box<str>),
}

/// The value of a `QName`: a namespace name (none for an unprefixed QName outside a
/// default namespace) and a local name. Equality of QNames in the value space is equality
/// of these.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExpandedName {
    /// The namespace, if any.
    pub namespace: Option<Box<str>>,
    /// The local name.
    pub local: Box<str>,
}

impl QName {
    /// Reads `(NCName:)?NCName` after collapsing white space, without resolving the prefix.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        Self::parse_as(text, "xs:QName")
    }

    /// Reads `(NCName:)?NCName` after collapsing white space and resolves it in `scope`:
    /// an unprefixed QName is in the default namespace (none if none is declared), a
    /// prefixed one in the namespace its prefix is bound to, which must exist.
    pub fn parse_in(text: &str, scope: &dyn NamespaceScope) -> Result<Self, FacetError> {
        Self::parse_as(text, "xs:QName")?.resolved_in(scope)
    }

    /// A resolved QName written `prefix:local` (or `local`) for the expanded name
    /// `namespace`/`local`. `None` if a name is not an NCName, if a prefix is given
    /// without a namespace, or if `xml` is bound to another namespace than its own.
    pub fn new(namespace: Option<&str>, prefix: Option<&str>, local: &str) -> Option<Self> {
        let xml = crate::xml::wf::XML_NAMESPACE;
        let valid = is_ncname(local)
            && prefix.is_none_or(|p| is_ncname(p) && namespace.is_some())
            && (prefix == Some("xml")) == (namespace == Some(xml) && prefix.is_some());
        valid.then(|| QName {
            prefix: prefix.map(Into::into),
            local: local.into(),
            binding: match namespace {
                Some(ns) => Binding::Namespace(ns.into()),
                None => Binding::NoNamespace,
            },
        })
    }

    fn parse_as(text: &str, expected: &'static str) -> Result<Self, FacetError> {
        let t = whitespace::collapse(text);
        let (prefix, local) = match t.split_once(':') {
            Some((p, l)) => (Some(p), l),
            None => (None, &*t),
        };
        if !is_ncname(local) || prefix.is_some_and(|p| !is_ncname(p)) {
            return Err(FacetError::Lexical { expected });
        }
        Ok(QName {
            prefix: prefix.map(Into::into),
            local: local.into(),
            binding: Binding::Unresolved,
        })
    }

    fn resolved_in(mut self, scope: &dyn NamespaceScope) -> Result<Self, FacetError> {
        self.binding = match (self.prefix(), scope.namespace(self.prefix().unwrap_or(""))) {
            (_, Some(ns)) if !ns.is_empty() => Binding::Namespace(ns.into()),
            (None, _) => Binding::NoNamespace,
            (Some(_), _) => return Err(FacetError::UnboundPrefix),
        };
        Ok(self)
    }

    /// The prefix, if any.
    pub fn prefix(&self) -> Option<&str> {
        self.prefix.as_deref()
    }
    /// The local name.
    pub fn local(&self) -> &str {
        &self.local
    }

    /// The namespace the QName is in, if it was resolved (`Some(None)`: in no namespace).
    pub fn namespace(&self) -> Option<Option<&str>> {
        match &self.binding {
            Binding::Unresolved => None,
            Binding::NoNamespace => Some(None),
            Binding::Namespace(ns) => Some(Some(ns)),
        }
    }

    /// The expanded name, if the QName was resolved.
    pub fn expanded(&self) -> Option<ExpandedName> {
        self.namespace().map(|namespace| ExpandedName {
            namespace: namespace.map(Into::into),
            local: self.local.clone(),
        })
    }

    /// The binding the lexical form relies on, for a writer to declare: (prefix,
    /// namespace), `""` for the default namespace. An unprefixed QName in no namespace
    /// relies on there being no default namespace, which a writer cannot declare in
    /// XML 1.0 below a default one; it is left to the writer (`xmlns=""`).
    pub fn binding(&self) -> Option<(&str, &str)> {
        match &self.binding {
            Binding::Namespace(ns) => Some((self.prefix().unwrap_or(""), ns)),
            _ => None,
        }
    }
}

impl PartialEq for QName {
    fn eq(&self, other: &Self) -> bool {
        self.local == other.local
            && match (&self.binding, &other.binding) {
                (Binding::Unresolved, _) | (_, Binding::Unresolved) => self.prefix == other.prefix,
                (a, b) => a == b,
            }
    }
}

impl Eq for QName {}

impl std::hash::Hash for QName {
    /// The local name only: equal QNames, resolved or not, have equal local names.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.local.hash(state)
    }
}

impl AsRef<QName> for QName {
    fn as_ref(&self) -> &QName {
        self
    }
}

impl AsRef<QName> for Notation {
    fn as_ref(&self) -> &QName {
        &self.0
    }
}

impl fmt::Display for QName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.prefix {
            write!(f, "{p}:")?;
        }
        f.write_str(&self.local)
    }
}

impl FromStr for QName {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        QName::parse(s)
    }
}

/// An `xs:NOTATION`: a QName naming a notation the schema declares (which the schema's
/// enumeration facet lists; XSD requires one). Resolved and compared as a [`QName`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Notation(pub QName);

impl Notation {
    /// Reads the lexical form of a QName, without resolving its prefix.
    pub fn parse(text: &str) -> Result<Self, FacetError> {
        QName::parse_as(text, "xs:NOTATION").map(Notation)
    }

    /// Reads the lexical form of a QName and resolves it in `scope` (see
    /// [`QName::parse_in`]).
    pub fn parse_in(text: &str, scope: &dyn NamespaceScope) -> Result<Self, FacetError> {
        QName::parse_as(text, "xs:NOTATION")?
            .resolved_in(scope)
            .map(Notation)
    }

    /// The prefix, if any.
    pub fn prefix(&self) -> Option<&str> {
        self.0.prefix()
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for Notation {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        Notation::parse(s)
    }
}

/// An `xs:anySimpleType`: any string, kept as written (its whiteSpace is `preserve`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct AnySimpleType(pub String);

impl fmt::Display for AnySimpleType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for AnySimpleType {
    type Err = FacetError;
    fn from_str(s: &str) -> Result<Self, FacetError> {
        Ok(AnySimpleType(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(Name::parse("a:b").is_ok());
        assert!(Name::parse(" _x.1 ").is_ok());
        assert!(Name::parse("1a").is_err());
        assert!(NCName::parse("a:b").is_err());
        assert!(NmToken::parse("1a").is_ok());
        assert!(NmToken::parse("a b").is_err());
        assert_eq!(NmTokens::parse(" a  b\n").unwrap().items().len(), 2);
        assert!(NmTokens::parse("  ").is_err());
        assert!(IdRefs::parse("a 1").is_err());
        assert!(Id::parse("名前").is_ok());
    }

    #[test]
    fn languages() {
        for ok in ["en", "en-US", "x-klingon", "i-default", "abcdefgh-12345678"] {
            assert!(Language::parse(ok).is_ok(), "{ok}");
        }
        for bad in ["", "en_US", "abcdefghi", "en-", "-en", "1en", "en--US"] {
            assert!(Language::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn qnames_resolve_against_the_scope() {
        let q = QName::parse("p:local").unwrap();
        assert_eq!(q.to_string(), "p:local");
        assert_eq!(q.namespace(), None, "read without a scope: unresolved");
        let scope: &[(&str, &str)] = &[("p", "urn:p"), ("", "urn:default")];
        let e = QName::parse_in("p:local", &scope)
            .unwrap()
            .expanded()
            .unwrap();
        assert_eq!(e.namespace.as_deref(), Some("urn:p"));
        let x = QName::parse_in(" x ", &scope).unwrap();
        assert_eq!(x.namespace(), Some(Some("urn:default")));
        assert_eq!(x.binding(), Some(("", "urn:default")));
        // Equal by expanded name, whatever the prefix.
        let other: &[(&str, &str)] = &[("z", "urn:default")];
        assert_eq!(QName::parse_in("z:x", &other).unwrap(), x);
        assert_ne!(QName::parse_in("x", &other).unwrap(), x);
        assert_eq!(
            QName::parse_in("x", &other).unwrap().namespace(),
            Some(None)
        );
        assert_eq!(
            QName::parse_in("q:x", &scope),
            Err(FacetError::UnboundPrefix)
        );
        let xml = QName::parse_in("xml:lang", &other).unwrap();
        assert_eq!(xml.namespace(), Some(Some(crate::xml::wf::XML_NAMESPACE)));
        assert!(QName::new(Some("urn:a"), Some("xml"), "x").is_none());
        assert!(QName::new(None, Some("p"), "x").is_none());
        assert!(QName::parse("a:b:c").is_err());
        assert!(QName::parse(":b").is_err());
        assert!(Notation::parse("a:").is_err());
    }
}
