//! Element wildcards (`xs:any`) as generated tables name them. Where a table gives an
//! element's expanded name (`{uri}local`, or `local` in no namespace) it may give a
//! wildcard's name pattern instead: `*` for any namespace, `*!` or `*=` followed by the
//! namespaces excluded or allowed, separated by spaces, `##local` standing for no
//! namespace. An expanded name never starts with `*` (a local name is an NCName) and a
//! namespace in a wildcard's `namespace=` holds no space (it is a list of URIs), so one
//! string comparison stays one for plain names and the reader matches both through
//! [`name_matches`].
//!
//! What a wildcard takes is held as the generic tree ([`crate::any::AnyElement`]) when its
//! processContents is `skip`; as a generated enum of the schema's global elements it
//! admits when `strict` (an element it admits without a global declaration is reported by
//! [`undeclared`]); and as that enum with a variant for the generic tree when `lax`.

use crate::schema::{Element, Invalid};
use crate::xml::{Reader, Tag};

/// Whether the element named `name` (an expanded name) matches `pattern`: the same name,
/// or a wildcard pattern whose namespaces allow the name's.
pub fn name_matches(pattern: &str, name: &str) -> bool {
    let Some(rest) = pattern.strip_prefix('*') else {
        return pattern == name;
    };
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
        return format!("<{pattern}>");
    };
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

/// Reports that the element whose start tag is `tag` (the reader stands in it), which a
/// strict wildcard admits by its namespace, has no global declaration in the schema
/// (XSD 1.0, 3.10.4: a strict wildcard's element must be declared), and skips it.
/// `declared`: the global elements the wildcard admits.
pub fn undeclared(r: &mut Reader<'_>, tag: &Tag, declared: &[&str]) -> Invalid {
    let expected = if declared.is_empty() {
        "an element with a global declaration (the schema declares none the wildcard admits)"
            .to_string()
    } else {
        format!(
            "one of the global elements the wildcard admits: {}",
            declared
                .iter()
                .map(|n| format!("<{n}>"))
                .collect::<Vec<_>>()
                .join(", ")
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
}
