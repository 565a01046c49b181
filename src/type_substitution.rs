//! Type substitution (XSD 1.0 Part 1, 3.3.4 Element Locally Valid (Element) 4): an element
//! whose declared type has types of the schema derived from it reads as a generated enum
//! whose variant its `xsi:type` chooses ([`type_substitution!`](crate::type_substitution!)),
//! and writes `xsi:type` back. Which types may stand in, and why the others may not, is
//! computed by the generator from the schema (`codegen/src/xsd/type_substitution.rs`) and
//! given here as a [`Table`]; this module judges a document's `xsi:type` against it.

use crate::diagnostic::{Code, Diagnostic};
use crate::schema::Invalid;
use crate::xml::{excerpt, Reader, Tag};

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
    let path = format!("{}/@xsi:type", r.path());
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
            Code::MissingAttribute,
            tag.offset,
            path,
            format!(
                "<{}> has the abstract type {declared}: it needs xsi:type naming a type derived from it (XSD 1.0, 3.3.4 cvc-elt.2)",
                tag.name()
            ),
        )
        .expected(offered());
        return Err(r.reject_substitution(d));
    };
    let found = format!("xsi:type=\"{}\"", excerpt(&xsi.written));
    let name = match xsi.name {
        Ok(name) => name,
        Err(why) => {
            let d = Diagnostic::error(
                Code::Lexical,
                xsi.offset,
                path,
                format!(
                    "the value of xsi:type on <{}> is not a QName: {why}",
                    tag.name()
                ),
            )
            .expected("a QName naming a type")
            .found(found);
            return Err(r.reject_substitution(d));
        }
    };
    if let Some(i) = table.members.iter().position(|m| *m == name) {
        return Ok(Chosen::Named(i));
    }
    let why = if let Some((_, why)) = table.refused.iter().find(|(n, _)| *n == name) {
        format!("it does not stand in for the declared type {declared}: {why}")
    } else if Some(name.as_str()) == table.declared {
        format!("the declared type {declared} is abstract")
    } else if table.known.contains(&name.as_str()) || name.starts_with(XSD_NAMESPACE) {
        format!("it is not derived from the declared type {declared} (XSD 1.0, 3.4.6)")
    } else {
        "the schema defines no type of that name".to_string()
    };
    let d = Diagnostic::error(
        Code::UnknownAttribute,
        xsi.offset,
        path,
        format!(
            "xsi:type on <{}> names the type {name}, but {why}",
            tag.name()
        ),
    )
    .expected(offered())
    .found(found);
    Err(r.reject_substitution(d))
}

/// `Element` for a substitution type: `type_substitution!(Type, [Declared], [0 Variant,
/// ...])` (`[]` for an abstract declared type), the variants in the order of its
/// `SUBSTITUTION` table's members, followed by `, ACCESSOR METHOD` for a visited type.
#[macro_export]
macro_rules! type_substitution {
    ($ty:ident, [$($d:ident)?], [$($i:literal $v:ident),* $(,)?] $(, $acc:ident $m:ident)?) => {
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
            $($crate::__visit!($acc $m);)?
        }
    };
}
