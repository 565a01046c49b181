//! Element wildcards (`xs:any`) as generated tables name them. Where a table gives an
//! element's expanded name (`{uri}local`, or `local` in no namespace) it may give a
//! wildcard's name pattern instead: `*` for any namespace, `*!` or `*=` followed by the
//! namespaces excluded or allowed, separated by spaces, `##local` standing for no
//! namespace; then, where XSD 1.1's `notQName` disallows names, a tab and their expanded
//! names, separated by spaces (`*!urn:a\t{urn:b}x y`). An expanded name never starts with
//! `*` (a local name is an NCName), and neither a namespace in a wildcard's `namespace=`
//! (a list of URIs) nor an expanded name holds white space, so one string comparison
//! stays one for plain names and the reader matches both through [`name_matches`].
//! Where an `xs:all` group holds alternatives (a reference to a substitution group's head),
//! a pattern is `|` and their expanded names, separated by spaces (`|{u}head {u}member`):
//! one of them; no name starts with `|` either.
//!
//! What a wildcard takes is held as the generic tree ([`crate::any::AnyElement`]) when its
//! processContents is `skip`; as the schema's one generated enum of its global elements
//! ([`GlobalElements`]) when `strict` (an element it admits without a global declaration
//! is reported by [`undeclared`]); and when `lax`, as what `xs:anyType` content holds
//! ([`crate::any::lax::AnyChild`] of that enum: an undeclared element is assessed laxly in
//! turn, its attributes and children). The content model has already matched the element's name
//! against the wildcard's namespaces, so one enum serves every wildcard of a schema: UBL's
//! 2,300 global elements are one enum, not one for each of its seven wildcards.

use crate::schema::{Element, Invalid};
use crate::xml::{Reader, Tag, Writer};

/// Whether the element named `name` (an expanded name) matches `pattern`: the same name,
/// a wildcard pattern whose namespaces allow the name's and that does not disallow the
/// name, or one of the names of an alternatives pattern.
pub fn name_matches(pattern: &str, name: &str) -> bool {
    // One test of the first byte for a plain name, the reader's every comparison.
    let rest = match pattern.as_bytes().first() {
        Some(b'*') => &pattern[1..],
        Some(b'|') => return pattern[1..].split(' ').any(|n| n == name),
        _ => return pattern == name,
    };
    let (rest, disallowed) = rest.split_once('\t').unwrap_or((rest, ""));
    if !disallowed.is_empty() && disallowed.split(' ').any(|n| n == name) {
        return false;
    }
    let namespace = name
        .strip_prefix('{')
        .and_then(|r| r.split_once('}'))
        .map(|(ns, _)| ns);
    let listed = |list: &str| {
        list.split(' ').filter(|n| !n.is_empty()).any(|n| match n {
            "##local" => namespace.is_none(),
            uri => namespace == Some(uri),
        })
    };
    if rest.is_empty() {
        true
    } else if let Some(list) = rest.strip_prefix('!') {
        !listed(list)
    } else if let Some(list) = rest.strip_prefix('=') {
        listed(list)
    } else {
        false
    }
}

/// How a message names what `pattern` matches: `<name>` for an element, what the
/// namespaces allow for a wildcard.
pub fn label(pattern: &str) -> String {
    let Some(rest) = pattern.strip_prefix('*') else {
        return match pattern.strip_prefix('|') {
            Some("") => "no element (the group has none)".into(),
            Some(names) => {
                let names: Vec<String> = names.split(' ').map(|n| format!("<{n}>")).collect();
                format!("one of {}", names.join(", "))
            }
            None => format!("<{pattern}>"),
        };
    };
    let (rest, disallowed) = rest.split_once('\t').unwrap_or((rest, ""));
    let allowed = namespaces_label(rest, pattern);
    if disallowed.is_empty() {
        return allowed;
    }
    let names: Vec<String> = disallowed.split(' ').map(|n| format!("<{n}>")).collect();
    format!("{allowed} but {}", names.join(", "))
}

/// How [`label`] names what the namespaces part of a wildcard pattern allows.
fn namespaces_label(rest: &str, pattern: &str) -> String {
    let list = |l: &str| {
        l.split(' ')
            .filter(|n| !n.is_empty())
            .map(|n| if n == "##local" { "no namespace" } else { n })
            .collect::<Vec<_>>()
            .join(", ")
    };
    if rest.is_empty() {
        "any element".into()
    } else if let Some(l) = rest.strip_prefix('!') {
        format!("an element in a namespace other than {}", list(l))
    } else if let Some(l) = rest.strip_prefix('=') {
        if l.is_empty() {
            "an element in no namespace the wildcard allows (none)".into()
        } else {
            format!("an element in {}", list(l))
        }
    } else {
        format!("<{pattern}>")
    }
}

/// A schema's global element declarations, as its generated enum of them (a variant each,
/// by [`global_elements!`](crate::global_elements)): what its wildcards read the elements
/// they admit into. Its [`Element`] reading is a strict wildcard's (see [`strict`]).
pub trait GlobalElements: Sized {
    /// The schema's global attribute declarations, which `xs:anyType` content checks its
    /// attributes against ([`crate::any::lax::AnyChild`]).
    type Attributes: crate::any::GlobalAttributes;
    /// The declarations' expanded names, sorted (by bytes): a name is found by binary
    /// search, not compared with each.
    const NAMES: &'static [&'static str];
    /// Reads the element whose start tag is `tag` by the declaration `NAMES[i]`.
    fn read_global(r: &mut Reader<'_>, tag: &Tag, i: usize) -> Result<Self, Invalid>;
    /// Writes the element, named by its declaration.
    fn write_global(&self, w: &mut Writer);
    /// The index in [`Self::NAMES`] of the declaration named `name`.
    fn index(name: &str) -> Option<usize> {
        debug_assert!(Self::NAMES.is_sorted(), "the generator sorts the names");
        Self::NAMES.binary_search(&name).ok()
    }
}

/// Reads the element whose start tag is `tag` as a strict wildcard does: by its global
/// declaration, or reported by [`undeclared`] (with the declarations of its namespace, which
/// the wildcard admits as it admits the element) when the schema has none.
pub fn strict<G: GlobalElements>(r: &mut Reader<'_>, tag: &Tag) -> Result<G, Invalid> {
    let name = tag.name();
    if let Some(i) = G::index(name) {
        return G::read_global(r, tag, i);
    }
    fn namespace(name: &str) -> Option<&str> {
        name.strip_prefix('{')?.split_once('}').map(|p| p.0)
    }
    let own = namespace(name);
    let declared: Vec<&str> = G::NAMES
        .iter()
        .copied()
        .filter(|n| namespace(n) == own)
        .collect();
    Err(undeclared(r, tag, &declared))
}

/// A reader of one global element, as [`global_elements!`](crate::global_elements) tables
/// them.
pub type ReadGlobal<G> = for<'r, 't> fn(&mut Reader<'r>, &'t Tag) -> Result<G, Invalid>;

/// Reads the element whose start tag is `tag` as lax assessment does: by its global
/// declaration in `G` where the schema has one (`declared`), else as the undeclared element
/// `U` ([`lax_undeclared`], `undeclared`): what a lax wildcard and `xs:anyType` content
/// take ([`crate::any::lax::AnyChild`]).
pub fn read_lax<G: GlobalElements, U: Element, T>(
    r: &mut Reader<'_>,
    tag: &Tag,
    declared: fn(G) -> T,
    undeclared: fn(U) -> T,
) -> Result<T, Invalid> {
    match G::index(tag.name()) {
        Some(i) => G::read_global(r, tag, i).map(declared),
        None => lax_undeclared(r, tag).map(undeclared),
    }
}

/// [`GlobalElements`] and a strict wildcard's [`Element`] for a schema's enum of its global
/// elements: `global_elements!(Type, Attributes, ["{namespace}name" Variant, ...])`,
/// the names sorted by bytes, `Attributes` the schema's global attribute declarations.
/// A name may be followed, as in [`document!`](crate::document!), by `= CONSTRAINT` (the
/// declaration's `default=` or `fixed=`) and `; xsi TABLE` (what the `xsi:type` of an
/// element of a simple declared type may name).
#[macro_export]
macro_rules! global_elements {
    ($ty:ident, $attributes:ty, [$($n:literal $v:ident $(= $vc:expr)? $(; xsi $xt:expr)?),* $(,)?]) => {
        impl $crate::wildcards::GlobalElements for $ty {
            type Attributes = $attributes;
            const NAMES: &'static [&'static str] = &[$($n),*];
            fn read_global(
                r: &mut $crate::xml::Reader<'_>,
                tag: &$crate::xml::Tag,
                i: usize,
            ) -> ::core::result::Result<Self, $crate::schema::Invalid> {
                // A table of readers, not a match: the arms of a match would each keep the
                // value they read in a slot of one frame (245 KB for UBL's 2,300 global
                // elements, which overflowed a 1 MiB stack); each reader has its own.
                const READ: &[$crate::wildcards::ReadGlobal<$ty>] = &[$(
                    |r, tag| r
                        .read_declared_at(
                            tag,
                            $crate::__value_constraint!($($vc)?),
                            $crate::__value_constraint!($($xt)?),
                        )
                        .map($ty::$v)
                ),*];
                match READ.get(i) {
                    ::core::option::Option::Some(read) => read(r, tag),
                    ::core::option::Option::None => ::core::result::Result::Err($crate::schema::Invalid),
                }
            }
            #[allow(unused_variables)]
            fn write_global(&self, w: &mut $crate::xml::Writer) {
                // On the place: an enum without variants is matched by `match *self {}`.
                match *self {
                    $(Self::$v(ref v) => $crate::schema::Element::write_element(v, w, $n),)*
                }
            }
        }
        impl $crate::schema::Element for $ty {
            fn read_element(
                r: &mut $crate::xml::Reader<'_>,
                tag: &$crate::xml::Tag,
            ) -> ::core::result::Result<Self, $crate::schema::Invalid> {
                $crate::wildcards::strict(r, tag)
            }
            fn write_element(&self, w: &mut $crate::xml::Writer, _name: &str) {
                $crate::wildcards::GlobalElements::write_global(self, w)
            }
        }
    };
}

/// Reads the element whose start tag is `tag` (the reader stands in it) as `T`: an element
/// that a lax wildcard, or `xs:anyType` content, takes and the schema declares no global
/// element for, so it is assessed laxly (XSD 1.0 Part 1, 3.3.4 Schema-Validity Assessment
/// (Element) 2). Its `xsi:type`, if any, must still name a type of the schema
/// (cvc-elt.4.2, as xmllint and xmlschema judge it: METS's `xmlData` holds such
/// elements): one that names none is reported, after the element is read.
pub fn lax_undeclared<T: Element>(r: &mut Reader<'_>, tag: &Tag) -> Result<T, Invalid> {
    let unresolved = crate::type_substitution::unresolved(r, tag);
    let read = T::read_element(r, tag);
    match unresolved {
        Some(d) => {
            r.report(d);
            Err(Invalid)
        }
        None => read,
    }
}

/// How many declarations an undeclared element's report names (UBL's namespace of basic
/// components declares over a thousand).
pub const LISTED: usize = 20;

/// Reports that the element whose start tag is `tag` (the reader stands in it), which a
/// strict wildcard admits by its namespace, has no global declaration in the schema
/// (XSD 1.0, 3.10.4: a strict wildcard's element must be declared), and skips it.
/// `declared`: the global elements of the element's namespace (the wildcard admits them
/// as it admits the element); the first [`LISTED`] are named.
pub fn undeclared(r: &mut Reader<'_>, tag: &Tag, declared: &[&str]) -> Invalid {
    let expected = if declared.is_empty() {
        "an element with a global declaration (the schema declares none in its namespace)"
            .to_string()
    } else {
        let mut names: Vec<String> = declared
            .iter()
            .take(LISTED)
            .map(|n| format!("<{n}>"))
            .collect();
        if declared.len() > LISTED {
            names.push(format!("and {} more", declared.len() - LISTED));
        }
        format!(
            "one of the global elements of its namespace: {}",
            names.join(", ")
        )
    };
    // XSD 1.0 (3.3.4, cvc-assess-elt) lets xsi:type stand for a missing declaration;
    // type substitution is not supported, and the message says so rather than nothing.
    let substitution = if tag.attribute(crate::schema::XSI_TYPE).is_some() {
        " (its xsi:type would stand for one, but type substitution is not supported)"
    } else {
        ""
    };
    r.reject_element(
        tag,
        format!(
            "element <{}> has no global declaration, which the wildcard's processContents=\"strict\" requires{substitution}",
            tag.name()
        ),
        expected,
    );
    Invalid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_on_namespaces() {
        assert!(name_matches("a", "a"));
        assert!(!name_matches("a", "{u}a"));
        assert!(name_matches("*", "{u}a") && name_matches("*", "a"));
        // ##other in a schema with target namespace u: neither u nor no namespace.
        assert!(name_matches("*!u ##local", "{v}a"));
        assert!(!name_matches("*!u ##local", "{u}a"));
        assert!(!name_matches("*!u ##local", "a"));
        assert!(name_matches("*=##local v", "a"));
        assert!(name_matches("*=##local v", "{v}b"));
        assert!(!name_matches("*=##local v", "{u}b"));
        // An empty list allows nothing.
        assert!(!name_matches("*=", "a"));
        // A namespace that is a prefix of another is not it.
        assert!(!name_matches("*=urn:a", "{urn:ab}x"));
        assert_eq!(
            label("*!u ##local"),
            "an element in a namespace other than u, no namespace"
        );
        assert_eq!(label("{u}a"), "<{u}a>");
    }

    #[test]
    fn disallowed_names_do_not_match() {
        // Any namespace but {u}a and the unqualified b (notQName="p:a b").
        let p = "*\t{u}a b";
        assert!(!name_matches(p, "{u}a") && !name_matches(p, "b"));
        assert!(name_matches(p, "{u}b") && name_matches(p, "a") && name_matches(p, "{v}a"));
        // A disallowed name is compared whole, not as a prefix.
        assert!(name_matches(p, "{u}ab") && name_matches(p, "bb"));
        // With a namespace list: the list still applies.
        let q = "*=u\t{u}a";
        assert!(name_matches(q, "{u}b") && !name_matches(q, "{u}a") && !name_matches(q, "b"));
        assert_eq!(label(q), "an element in u but <{u}a>");
        // Alternatives: one of the names.
        assert!(name_matches("|{u}a b", "b") && !name_matches("|{u}a b", "{u}b"));
        assert!(!name_matches("|", "a"));
        assert_eq!(label("|{u}a b"), "one of <{u}a>, <b>");
        assert_eq!(
            label("*!##local\t{u}a {v}b"),
            "an element in a namespace other than no namespace but <{u}a>, <{v}b>"
        );
    }
}
