//! Type substitution (XSD 1.0 Part 1, 3.3.4 Element Locally Valid (Element) 4): an element
//! whose declared type has types of the schema derived from it reads as a generated enum
//! whose variant its `xsi:type` chooses ([`type_substitution!`](crate::type_substitution!)),
//! and writes `xsi:type` back. Which types may stand in, and why the others may not, is
//! computed by the generator from the schema (`codegen/src/xsd/type_substitution.rs`) and
//! given here as a [`Table`]; this module judges a document's `xsi:type` against it.

//!
//! An element whose declared type is simple keeps the declared type's Rust type: its
//! `xsi:type` may name a simple type validly derived from the declared one (3.14.6 Type
//! Derivation OK (Simple): a restriction chain, built-ins among them, or a member of a
//! declared union), listed in a [`SimpleTable`]; the content is validated against the
//! named type and held as the declared type, which every value of a type derived from it
//! by restriction (or of a member of it) belongs to. The writer writes the value back
//! without the `xsi:type`: the field has no place for it, and the value is valid for the
//! declared type, so the rewritten document is valid and means the same value.

use crate::diagnostic::{Code, Diagnostic};
use crate::identity_key::KeyValue;
use crate::schema::{FacetError, Invalid, SimpleValue};
use crate::xml::{excerpt, Reader, Tag, XsiType};

/// Validates a lexical form against one simple type: the value it is, or why it is not a
/// value of the type.
pub type Canonical = fn(&str, &dyn crate::schema::NamespaceScope) -> Result<NamedValue, FacetError>;

/// A value of the simple type an `xsi:type` named, as the element holding it needs it.
#[derive(Debug, Clone)]
pub struct NamedValue {
    /// Its canonical lexical form, which the declared type (or anyType content) holds.
    pub canonical: String,
    /// Its value for identity constraints: the named type's, not the declared type's (a
    /// float 1 and a decimal 1 are different values, 3.11.4 with Part 2, 2.2.1).
    pub key: KeyValue,
}

/// The members of a [`SimpleTable`]: `xsi_members!["{namespace}name" => Type, ...]`, each
/// type's name with its [`canonical`] check (a macro so that generated tables stay one
/// line per few members, not four per member).
#[macro_export]
macro_rules! xsi_members {
    [$($n:literal => $t:ty),* $(,)?] => {
        &[$(($n, $crate::type_substitution::canonical::<$t> as $crate::type_substitution::Canonical)),*]
    };
}

/// [`Canonical`] of simple type `T` (generated or built in): `T`'s own white-space
/// processing, lexical space and facets judge the text.
pub fn canonical<T: SimpleValue>(
    text: &str,
    scope: &dyn crate::schema::NamespaceScope,
) -> Result<NamedValue, FacetError> {
    T::parse_in(text, scope).map(|v| NamedValue {
        canonical: v.to_lexical().into_owned(),
        key: v.identity_key(),
    })
}

/// What `xsi:type` may name on an element whose declared type is simple, computed from the
/// schema by the generator (`codegen/src/xsd/type_substitution.rs`).
pub struct SimpleTable {
    /// The declared type's expanded name (`None`: anonymous, `xsi:type` cannot name it).
    pub declared: Option<&'static str>,
    /// The simple types that may be named instead, by expanded name, each with what
    /// validates a value against it.
    pub members: &'static [(&'static str, Canonical)],
    /// Types derived from the declared one that may not stand in, with why.
    pub refused: &'static [(&'static str, &'static str)],
    /// Every named type of the schema, by expanded name.
    pub known: &'static [&'static str],
    /// The declared type is `xs:anyType`: a type of the schema in `known` that is neither
    /// a member nor refused (a complex type its `block` allows) may be named, and the
    /// content is read as anyType content (its own content model is not checked here).
    pub open: bool,
}

impl std::fmt::Debug for SimpleTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let members: Vec<&str> = self.members.iter().map(|(n, _)| *n).collect();
        f.debug_struct("SimpleTable")
            .field("declared", &self.declared)
            .field("members", &members)
            .field("refused", &self.refused)
            .finish_non_exhaustive()
    }
}

/// Tables are compared by what they name (their functions follow from the names).
impl PartialEq for SimpleTable {
    fn eq(&self, other: &Self) -> bool {
        self.declared == other.declared
            && self.refused == other.refused
            && self.members.len() == other.members.len()
            && self
                .members
                .iter()
                .zip(other.members)
                .all(|((a, _), (b, _))| a == b)
    }
}

impl Eq for SimpleTable {}

/// What an element of a simple declared type does with its `xsi:type`.
pub enum SimpleChoice {
    /// It has none.
    Declared,
    /// It names the declared type itself.
    Same,
    /// It names this type, which may stand in.
    Named(&'static str, Canonical),
    /// It may not have it: reported where `xsi:type` stands.
    Refused(Diagnostic),
}

/// Judges the `xsi:type` of the element whose start tag is `tag` (its declared type
/// simple) against `table`; the namespace scope of the element is open.
pub fn choose_simple(r: &Reader<'_>, tag: &Tag, table: &'static SimpleTable) -> SimpleChoice {
    let Some(xsi) = r.xsi_type(tag) else {
        return SimpleChoice::Declared;
    };
    let xsi = Judged::new(r, tag, xsi);
    let name = match xsi.name() {
        Ok(name) => name,
        Err(d) => return SimpleChoice::Refused(d),
    };
    if Some(name.as_str()) == table.declared {
        return SimpleChoice::Same;
    }
    if let Some((n, c)) = table.members.iter().find(|(m, _)| *m == name) {
        return SimpleChoice::Named(n, *c);
    }
    let refusal = table.refused.iter().find(|(n, _)| *n == name);
    if table.open && refusal.is_none() && table.known.contains(&name.as_str()) {
        return SimpleChoice::Same;
    }
    let declared = table.declared.unwrap_or("(anonymous)");
    let why = why_not(
        &name,
        declared,
        refusal.map(|(_, why)| *why),
        table.known,
        format!("it is not derived from the declared simple type {declared} (XSD 1.0, 3.14.6)"),
    );
    let mut offered: Vec<&str> = table.declared.into_iter().collect();
    offered.extend(table.members.iter().map(|(n, _)| *n));
    // anySimpleType and anyType offer every simple type: the first few say what is meant.
    if offered.len() > 8 {
        offered.truncate(8);
        offered.push("...");
    }
    let expected = format!("xsi:type naming one of {}", offered.join(", "));
    SimpleChoice::Refused(xsi.refused(&name, &why, expected))
}

/// Why the `xsi:type` of the element whose start tag is `tag` (the reader has entered it)
/// names no type of the document's schema, if it does not: the value is no QName in scope,
/// or no named type of the schema (nor a built-in) has that name, or the type is abstract
/// (XSD 1.0 Part 1, 3.3.4 cvc-elt.4.2 and cvc-type.2). `None` where it has none, names
/// one, or no document type gave the schema's types (see [`crate::wildcards::lax_undeclared`]).
pub fn unresolved(r: &Reader<'_>, tag: &Tag) -> Option<Diagnostic> {
    let types = r.schema_types();
    if types.is_empty() {
        return None;
    }
    let xsi = Judged::new(r, tag, r.xsi_type(tag)?);
    match xsi.name() {
        Ok(name) if types.iter().any(|(t, _)| *t == name) => None,
        Ok(name) => Some(xsi.refused(
            &name,
            "the schema defines no type of that name that an element can have (an abstract type cannot)",
            "xsi:type naming a type of the schema or a built-in type".into(),
        )),
        Err(d) => Some(d),
    }
}

/// An element's `xsi:type` being judged: the attribute, where it stands, and how a
/// diagnostic shows it.
struct Judged<'t> {
    xsi: XsiType,
    tag: &'t Tag,
    path: String,
    found: String,
}

impl<'t> Judged<'t> {
    fn new(r: &Reader<'_>, tag: &'t Tag, xsi: XsiType) -> Self {
        Judged {
            path: format!("{}/@xsi:type", r.path()),
            found: format!("xsi:type=\"{}\"", excerpt(&xsi.written)),
            xsi,
            tag,
        }
    }

    /// The expanded name of the type it names, or why it names none (it is no QName).
    fn name(&self) -> Result<String, Diagnostic> {
        self.xsi.name.clone().map_err(|why| {
            Diagnostic::error(
                Code::LEXICAL,
                self.xsi.offset,
                self.path.clone(),
                format!(
                    "the value of xsi:type on <{}> is not a QName: {why}",
                    self.tag.name()
                ),
            )
            .expected("a QName naming a type")
            .found(self.found.clone())
        })
    }

    /// It names the type `name`, which may not stand in (`why`); `expected` says what may.
    fn refused(self, name: &str, why: &str, expected: String) -> Diagnostic {
        Diagnostic::error(
            Code::UNKNOWN_ATTRIBUTE,
            self.xsi.offset,
            self.path,
            format!(
                "xsi:type on <{}> names the type {name}, but {why}",
                self.tag.name()
            ),
        )
        .expected(expected)
        .found(self.found)
    }
}

/// Why the type `name` may not stand in for the declared type `declared`: the reason the
/// generator gave (`refusal`), else `not_derived` for a type the schema (or XSD) defines.
fn why_not(
    name: &str,
    declared: &str,
    refusal: Option<&str>,
    known: &[&str],
    not_derived: String,
) -> String {
    if let Some(why) = refusal {
        format!("it does not stand in for the declared type {declared}: {why}")
    } else if known.contains(&name) || name.starts_with(XSD_NAMESPACE) {
        not_derived
    } else {
        "the schema defines no type of that name".to_string()
    }
}

/// What a substitution type's element may say in `xsi:type`.
pub struct Table {
    /// The declared type's expanded name (`None`: anonymous, `xsi:type` cannot name it).
    pub declared: Option<&'static str>,
    /// The declared type is abstract: the element needs `xsi:type`.
    pub declared_abstract: bool,
    /// The types that may be named, by expanded name, in variant order (the declared type
    /// first, unless abstract or anonymous).
    pub members: &'static [&'static str],
    /// Types derived from the declared one that may not stand in, with why.
    pub refused: &'static [(&'static str, &'static str)],
    /// Every named type of the schema, by expanded name.
    pub known: &'static [&'static str],
}

/// The type an element's `xsi:type` chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chosen {
    /// No `xsi:type`: the declared type.
    Declared,
    /// The member of [`Table::members`] at this index.
    Named(usize),
}

/// The XML Schema namespace, whose built-in types `xsi:type` may name.
const XSD_NAMESPACE: &str = "{http://www.w3.org/2001/XMLSchema}";

/// Chooses the type of the element whose start tag is `tag` (the reader has entered it) by
/// its `xsi:type`; reports (and skips the element) when it may not have that `xsi:type`,
/// or has none where the declared type is abstract.
pub fn choose(r: &mut Reader<'_>, tag: &Tag, table: &Table) -> Result<Chosen, Invalid> {
    let offered = || {
        if table.members.is_empty() {
            "no type: none of the schema's types may stand in for the declared type".to_string()
        } else {
            format!("xsi:type naming one of {}", table.members.join(", "))
        }
    };
    let declared = table.declared.unwrap_or("(anonymous)");
    let Some(xsi) = r.xsi_type(tag) else {
        if !table.declared_abstract {
            return Ok(Chosen::Declared);
        }
        let d = Diagnostic::error(
            Code::MISSING_ATTRIBUTE,
            tag.offset,
            format!("{}/@xsi:type", r.path()),
            format!(
                "<{}> has the abstract type {declared}: it needs xsi:type naming a type derived from it (XSD 1.0, 3.3.4 cvc-elt.2)",
                tag.name()
            ),
        )
        .expected(offered());
        return Err(r.reject_substitution(d));
    };
    let xsi = Judged::new(r, tag, xsi);
    let name = xsi.name().map_err(|d| r.reject_substitution(d))?;
    if let Some(i) = table.members.iter().position(|m| *m == name) {
        return Ok(Chosen::Named(i));
    }
    let refusal = table.refused.iter().find(|(n, _)| *n == name);
    let why = if refusal.is_none() && Some(name.as_str()) == table.declared {
        format!("the declared type {declared} is abstract")
    } else {
        why_not(
            &name,
            declared,
            refusal.map(|(_, why)| *why),
            table.known,
            format!("it is not derived from the declared type {declared} (XSD 1.0, 3.4.6)"),
        )
    };
    Err(r.reject_substitution(xsi.refused(&name, &why, offered())))
}

/// `Element` for a substitution type: `type_substitution!(Type, [Declared], [0 Variant,
/// ...])` (`[]` for an abstract declared type), the variants in the order of its
/// `SUBSTITUTION` table's members, followed by `, visited INDEX` for a visited type.
#[macro_export]
macro_rules! type_substitution {
    ($ty:ident, [$($d:ident)?], [$($i:literal $v:ident),* $(,)?] $(, $visited:ident $index:literal)?) => {
        impl $crate::schema::Element for $ty {
            fn read_element(
                r: &mut $crate::xml::Reader<'_>,
                tag: &$crate::xml::Tag,
            ) -> ::core::result::Result<Self, $crate::schema::Invalid> {
                match $crate::type_substitution::choose(r, tag, &$ty::SUBSTITUTION)? {
                    $($crate::type_substitution::Chosen::Declared => {
                        $crate::schema::Element::read_element(r, tag).map($ty::$d)
                    })?
                    $($crate::type_substitution::Chosen::Named($i) => {
                        r.read_substituted(tag).map($ty::$v)
                    })*
                    // Not chosen by `choose` (its table has these members only).
                    #[allow(unreachable_patterns)]
                    _ => ::core::result::Result::Err($crate::schema::Invalid),
                }
            }
            fn write_element(&self, w: &mut $crate::xml::Writer, name: &str) {
                // On the place: an enum without variants (an abstract type nothing may
                // stand in for) is matched exhaustively so.
                match *self {
                    $($ty::$d(ref v) => $crate::schema::Element::write_element(v, w, name),)?
                    $($ty::$v(ref v) => {
                        w.type_substitution($ty::SUBSTITUTION.members[$i]);
                        $crate::schema::Element::write_element(v, w, name)
                    })*
                }
            }
            $($crate::__visit!($visited $index);)?
        }
    };
}
