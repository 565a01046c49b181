//! The checks on a schema document's markup alone, at their positions: what makes it
//! not namespace-well-formed, elements outside the XSD namespace, elements and attributes
//! XSD does not have or the generator does not support (xsd-parser silently ignores an
//! attribute it does not know: `usee="required"` must not be taken for an absent `use`),
//! names that are not NCNames, ids given twice, named components where anonymous ones
//! belong (and the reverse), and children in an order or number the schema for schemas
//! does not allow. So nothing is skipped silently. They walk the document's tree
//! (`tree.rs`), in document order, after what the tree found not well-formed.

use std::collections::HashMap;

use crate::diagnostic::Kind;
use crate::ir::Span;

pub use super::tree::ScanProblem;
use super::tree::{is_ncname, Node, Tree};
use super::vocabulary::{facet_attributes, xsd10_attributes, xsd_element_known};

const XS_NS: &str = "http://www.w3.org/2001/XMLSchema";

/// The attributes each supported XSD element may carry. Anything else is an error: a
/// misspelt attribute must not be taken for an absent one.
fn allowed_attributes(local: &str) -> Option<&'static [&'static str]> {
    Some(match local {
        "schema" => &[
            // Derivation constraints: honoured by the conversion (xsd/passes/derivation.rs).
            // blockDefault: what substitution groups may substitute (xsd/passes/substitution.rs)
            // and which types xsi:type may name in place of a declared one
            // (xsd/passes/type_substitution.rs).
            "finalDefault",
            "blockDefault",
            "targetNamespace",
            "elementFormDefault",
            "attributeFormDefault",
            "version",
            "id",
        ],
        "element" => &[
            "name",
            "ref",
            "type",
            "minOccurs",
            "maxOccurs",
            "default",
            "fixed",
            "nillable",
            // abstract: never in a document itself (xsd/passes/derivation.rs); substitutionGroup,
            // block (substitution, and extension or restriction of a member's type) and
            // blockDefault: xsd/passes/substitution.rs; final: checked by the validity pass.
            "substitutionGroup",
            "abstract",
            "final",
            "block",
            "form",
            "id",
        ],
        "attribute" => &[
            "name", "ref", "type", "use", "default", "fixed", "form", "id",
        ],
        "group" => &["name", "ref", "minOccurs", "maxOccurs", "id"],
        "attributeGroup" => &["name", "ref", "id"],
        "simpleType" => &["name", "final", "id"],
        "complexType" => &["name", "mixed", "abstract", "final", "block", "id"],
        "complexContent" => &["mixed", "id"],
        "sequence" | "choice" | "all" => &["minOccurs", "maxOccurs", "id"],
        "restriction" | "extension" => &["base", "id"],
        "list" => &["itemType", "id"],
        "union" => &["memberTypes", "id"],
        "simpleContent" => &["id"],
        // Composition: the documents are loaded by `compose`.
        "include" | "redefine" => &["schemaLocation", "id"],
        // XSD 1.1's (a document read as 1.0 is told so first, `check_attributes`).
        "override" => &["schemaLocation", "id"],
        "import" => &["namespace", "schemaLocation", "id"],
        "annotation" => &["id"],
        "documentation" => &["source"],
        "appinfo" => &["source"],
        "alternative" => &["test", "type", "id"],
        // XSD 1.1's assertion facet of a simple type (`xsd/passes/simple.rs`).
        "assertion" => &["test", "xpathDefaultNamespace", "id"],
        // XSD 1.1's assertion of a complex type (`xsd/passes/complex.rs`).
        "assert" => &["test", "xpathDefaultNamespace", "id"],
        // XSD 1.1's open content (`xsd/passes/open_content.rs`).
        "openContent" => &["mode", "id"],
        "defaultOpenContent" => &["appliesToEmpty", "mode", "id"],
        // Identity constraints: checked while documents are read (`boardxml::identity`).
        "unique" | "key" => &["name", "id"],
        "keyref" => &["name", "refer", "id"],
        "selector" | "field" => &["xpath", "id"],
        "anyAttribute" => &["namespace", "processContents", "id"],
        "any" => &[
            "namespace",
            "processContents",
            "minOccurs",
            "maxOccurs",
            "id",
        ],
        "notation" => &["name", "public", "system", "id"],
        _ => return facet_attributes(local),
    })
}

/// What is wrong with the markup of `tree`'s document (what the tree found not
/// well-formed first).
pub fn check(tree: &Tree) -> Vec<ScanProblem> {
    let mut problems = tree.problems.clone();
    // IDs of the schema's components (the `id` attributes), unique in the document.
    let mut ids: HashMap<String, Span> = HashMap::new();
    for n in &tree.nodes[..tree.checked.min(tree.nodes.len())] {
        check_node(tree, n, &mut ids, &mut problems);
    }
    problems
}

/// The namespace bindings an `xs:enumeration`'s value relies on if read as QNames: the
/// prefix of each white-space-separated token (a list of QNames has several), and the
/// default namespace for an unprefixed one.
pub(super) fn enumeration_scope(n: &Node) -> Vec<(String, String)> {
    let value = n.attr("value").unwrap_or_default();
    let mut scope: Vec<(String, String)> = Vec::new();
    for token in value.split_ascii_whitespace() {
        let prefix = token.split_once(':').map_or("", |(p, _)| p);
        if prefix == "xml" {
            continue;
        }
        if let Some(ns) = n.namespace(prefix).filter(|ns| !ns.is_empty()) {
            let binding = (prefix.to_string(), ns.to_string());
            if !scope.contains(&binding) {
                scope.push(binding);
            }
        }
    }
    scope
}

/// Every check of one element on its markup alone.
fn check_node(
    tree: &Tree,
    n: &Node,
    ids: &mut HashMap<String, Span>,
    problems: &mut Vec<ScanProblem>,
) {
    let span = n.span;
    for (key, value) in &n.prefixed {
        // Namespaces in XML 1.0, 3 (Namespace constraint: No Prefix Undeclaring): a
        // prefix's declaration names a namespace; `xmlns:p=""` is Namespaces 1.1's
        // undeclaring, and a 1.0 document with it is not namespace-well-formed.
        if let Some(prefix) = key.strip_prefix("xmlns:").filter(|_| value.is_empty()) {
            problems.push(ScanProblem {
                span,
                construct: "the schema document".into(),
                message: format!(
                    "not namespace-well-formed: xmlns:{prefix}=\"\" undeclares a prefix, which Namespaces in XML 1.0 does not allow"
                ),
                hint: Some(format!(
                    "remove xmlns:{prefix}=\"\", or bind the prefix to a namespace name"
                )),
                kind: Kind::Invalid,
            });
        }
    }
    if !n.xs {
        problems.push(ScanProblem {
            span,
            construct: format!("<{}>", n.name),
            message: "an element outside the XSD namespace where the schema expects XSD markup"
                .into(),
            hint: Some("bind the prefix to http://www.w3.org/2001/XMLSchema".into()),
            kind: Kind::Invalid,
        });
        return;
    }
    check_attributes(n, tree.xsd_1_1(), problems);
    check_names(n, ids, problems);
    let parent = n.parent.map(|p| &tree.nodes[p]).filter(|p| p.xs);
    let parent_local = parent.map(|p| p.local.as_str());
    check_placement(n, parent_local, problems);
    if !n.closed {
        // Its end was never read: the tree says why.
        return;
    }
    // An extension or restriction of simple content takes attributes only: checked under
    // its own name.
    let checked_as = match (n.local.as_str(), parent_local) {
        ("extension", Some("simpleContent")) => "simpleContent extension",
        _ => n.local.as_str(),
    };
    let children: Vec<(&str, Span)> = n
        .children
        .iter()
        .map(|&c| &tree.nodes[c])
        .filter(|c| c.xs)
        .map(|c| (c.local.as_str(), c.span))
        .collect();
    let is_ref = n.attr("ref").is_some();
    check_children(
        checked_as,
        is_ref,
        tree.xsd_1_1(),
        span,
        &children,
        problems,
    );
}

/// One slot of an XSD element's content in the schema for schemas: one of `names`,
/// `min..=max` times.
type Slot = (&'static [&'static str], usize, usize);

const MANY: usize = usize::MAX;
const ANNOTATION: Slot = (&["annotation"], 0, 1);
const ATTRIBUTES: Slot = (&["attribute", "attributeGroup"], 0, MANY);
const ANY_ATTRIBUTE: Slot = (&["anyAttribute"], 0, 1);
const PARTICLE: Slot = (&["group", "all", "choice", "sequence"], 0, 1);

/// The content of an XSD element, as the schema for schemas (XSD 1.0 Part 1, Appendix A;
/// `alternative` from 1.1; XSD 1.1's where the document is read as 1.1, `xsd_1_1`) orders
/// it; `None`: not checked here (free content, or facets, which the conversion reads one
/// by one).
fn content_slots(parent: &str, is_ref: bool, xsd_1_1: bool) -> Option<Vec<Slot>> {
    if is_ref && matches!(parent, "element" | "attribute" | "group" | "attributeGroup") {
        return Some(vec![ANNOTATION]);
    }
    if xsd_1_1 {
        // XSD 1.1's schema for schemas (Part 1, Appendix A): open content before the
        // particle, assertions after the attributes, wildcards and group references in
        // xs:all, and its own elements' content.
        const OPEN_CONTENT: Slot = (&["openContent"], 0, 1);
        const ASSERTS: Slot = (&["assert"], 0, MANY);
        let slots: Option<Vec<Slot>> = match parent {
            "complexType" => Some(vec![
                ANNOTATION,
                (&["simpleContent", "complexContent"], 0, 1),
                OPEN_CONTENT,
                PARTICLE,
                ATTRIBUTES,
                ANY_ATTRIBUTE,
                ASSERTS,
            ]),
            "extension" => Some(vec![
                ANNOTATION,
                OPEN_CONTENT,
                PARTICLE,
                ATTRIBUTES,
                ANY_ATTRIBUTE,
                ASSERTS,
            ]),
            "simpleContent extension" => Some(vec![ANNOTATION, ATTRIBUTES, ANY_ATTRIBUTE, ASSERTS]),
            "all" => Some(vec![ANNOTATION, (&["element", "any", "group"], 0, MANY)]),
            "openContent" => Some(vec![ANNOTATION, (&["any"], 0, 1)]),
            "defaultOpenContent" => Some(vec![ANNOTATION, (&["any"], 1, 1)]),
            "assert" | "assertion" => Some(vec![ANNOTATION]),
            "override" => Some(vec![(super::vocabulary::OVERRIDE_CHILDREN, 0, MANY)]),
            _ => None,
        };
        if slots.is_some() {
            return slots;
        }
    }
    Some(match parent {
        "complexType" => vec![
            ANNOTATION,
            (&["simpleContent", "complexContent"], 0, 1),
            PARTICLE,
            ATTRIBUTES,
            ANY_ATTRIBUTE,
        ],
        "extension" => vec![ANNOTATION, PARTICLE, ATTRIBUTES, ANY_ATTRIBUTE],
        "simpleContent extension" => vec![ANNOTATION, ATTRIBUTES, ANY_ATTRIBUTE],
        "attributeGroup" => vec![ANNOTATION, ATTRIBUTES, ANY_ATTRIBUTE],
        "group" => vec![ANNOTATION, (&["all", "choice", "sequence"], 1, 1)],
        "element" => vec![
            ANNOTATION,
            (&["simpleType", "complexType"], 0, 1),
            (&["alternative"], 0, MANY),
            (&["unique", "key", "keyref"], 0, MANY),
        ],
        "attribute" => vec![ANNOTATION, (&["simpleType"], 0, 1)],
        "sequence" | "choice" => vec![
            ANNOTATION,
            (&["element", "group", "choice", "sequence", "any"], 0, MANY),
        ],
        "all" => vec![ANNOTATION, (&["element"], 0, MANY)],
        "simpleType" => vec![ANNOTATION, (&["restriction", "list", "union"], 1, 1)],
        "simpleContent" | "complexContent" => {
            vec![ANNOTATION, (&["restriction", "extension"], 1, 1)]
        }
        "list" => vec![ANNOTATION, (&["simpleType"], 0, 1)],
        "union" => vec![ANNOTATION, (&["simpleType"], 0, MANY)],
        "include" | "import" => vec![ANNOTATION],
        "redefine" => vec![(
            &[
                "annotation",
                "simpleType",
                "complexType",
                "group",
                "attributeGroup",
            ],
            0,
            MANY,
        )],
        _ => return None,
    })
}

/// Checks the order and number of an XSD element's children against [`content_slots`]:
/// a schema whose markup the schema for schemas rejects is not a schema, whatever the
/// conversion would make of it.
fn check_children(
    parent: &str,
    is_ref: bool,
    xsd_1_1: bool,
    span: Span,
    children: &[(&str, Span)],
    problems: &mut Vec<ScanProblem>,
) {
    let Some(mut slots) = content_slots(parent, is_ref, xsd_1_1) else {
        return;
    };
    // A complex type has simple or complex content, or else a particle and attributes
    // (and in XSD 1.1 assertions after either).
    if parent == "complexType"
        && children
            .iter()
            .any(|(c, _)| *c == "simpleContent" || *c == "complexContent")
    {
        slots = vec![ANNOTATION, (&["simpleContent", "complexContent"], 1, 1)];
        if xsd_1_1 {
            slots.push((&["assert"], 0, MANY));
        }
    }
    let parent = parent.rsplit(' ').next().unwrap_or(parent);
    let construct = format!("xs:{parent}");
    let mut next = 0;
    for (names, min, max) in &slots {
        let mut count = 0;
        while next < children.len() && count < *max && names.contains(&children[next].0) {
            count += 1;
            next += 1;
        }
        if count < *min {
            let list: Vec<String> = names.iter().map(|n| format!("xs:{n}")).collect();
            problems.push(ScanProblem {
                span,
                construct: construct.clone(),
                message: format!("xs:{parent} needs {}", list.join(" or ")),
                hint: None,
                kind: Kind::Invalid,
            });
            return;
        }
    }
    if let Some((child, cspan)) = children.get(next) {
        let what = if is_ref {
            format!("xs:{parent} with ref= (a reference takes only an annotation)")
        } else {
            format!("xs:{parent}")
        };
        problems.push(ScanProblem {
            span: *cspan,
            construct,
            message: format!("xs:{child} is not allowed here in {what}"),
            hint: Some("the schema for schemas fixes the order and number of children (XSD 1.0 Part 1, Appendix A)".into()),
            kind: Kind::Invalid,
        });
    }
}

/// Named components are global and global ones named (XSD 1.0, 3.4.2, 3.14.2 and the
/// schema for schemas): a local type takes no name, a global type, group or attribute group
/// needs one.
fn check_placement(n: &Node, parent: Option<&str>, problems: &mut Vec<ScanProblem>) {
    let (local, span) = (n.local.as_str(), &n.span);
    if !matches!(
        local,
        "simpleType" | "complexType" | "group" | "attributeGroup" | "element" | "attribute"
    ) {
        return;
    }
    let has = |name: &str| n.attr(name).is_some();
    let global = matches!(parent, Some("schema" | "redefine" | "override"));
    let message = match local {
        "simpleType" | "complexType" if global && !has("name") => "a global type needs a name",
        "simpleType" | "complexType" if !global && has("name") => {
            "a local (anonymous) type takes no name"
        }
        "group" | "attributeGroup" if global && !has("name") => "a global group needs a name",
        "group" | "attributeGroup" if !global && has("name") => {
            "a group inside a definition is a reference: it takes ref=, not name="
        }
        "element" | "attribute" if global && has("ref") => {
            "a global declaration takes name=, not ref="
        }
        _ => return,
    };
    problems.push(ScanProblem {
        span: *span,
        construct: format!("xs:{local}"),
        message: message.into(),
        hint: None,
        kind: Kind::Invalid,
    });
}

/// `name` attributes are NCNames; `id` attributes are IDs (NCNames), unique in the file.
fn check_names(n: &Node, ids: &mut HashMap<String, Span>, problems: &mut Vec<ScanProblem>) {
    let span = &n.span;
    let construct = format!("xs:{}", n.local);
    for (attr_name, value) in &n.attrs {
        if attr_name != "name" && attr_name != "id" {
            continue;
        }
        // XSD's whiteSpace collapse applies to both (NCName and ID are tokens).
        let value = value.trim();
        if !is_ncname(value) {
            problems.push(ScanProblem {
                span: *span,
                construct: construct.clone(),
                message: format!(
                    "{attr_name}=\"{value}\" is not an NCName (a name without a colon)"
                ),
                hint: None,
                kind: Kind::Invalid,
            });
            continue;
        }
        if attr_name == "id" {
            if let Some(first) = ids.get(value) {
                problems.push(ScanProblem {
                    span: *span,
                    construct: construct.clone(),
                    message: format!(
                        "id=\"{value}\" is already the id of the component at {}:{}",
                        first.line, first.column
                    ),
                    hint: Some("ids are unique in a schema document".into()),
                    kind: Kind::Invalid,
                });
            } else {
                ids.insert(value.to_string(), *span);
            }
        }
    }
}

/// What a document read as XSD 1.0 is told of an XSD 1.1 construct in it.
const READ_AS_1_0: &str = "the document is read as XSD 1.0: vc:minVersion=\"1.1\" on its xs:schema (namespace http://www.w3.org/2007/XMLSchema-versioning) reads it as XSD 1.1, and so does --xsd-version 1.1";

/// The attributes of `n` against the schema for schemas, in a document read as XSD 1.1
/// (`xsd_1_1`: XSD 1.1's own elements and attributes are valid, refused as not supported
/// yet) or as XSD 1.0 (they are errors).
fn check_attributes(n: &Node, xsd_1_1: bool, problems: &mut Vec<ScanProblem>) {
    let (local, span) = (n.local.as_str(), &n.span);
    let construct = format!("xs:{local}");
    let supported = allowed_attributes(local);
    if supported.is_none() && !xsd_element_known(local) {
        problems.push(ScanProblem {
            span: *span,
            construct,
            message: format!("xs:{local} is not an element of XSD 1.0"),
            hint: None,
            kind: Kind::Invalid,
        });
        return;
    }
    // XSD 1.1's own elements (built or not), in a document read as 1.0.
    if xsd10_attributes(local).is_none() && !xsd_1_1 {
        problems.push(ScanProblem {
            span: *span,
            construct,
            message: format!("xs:{local} is an element of XSD 1.1, not of XSD 1.0"),
            hint: Some(READ_AS_1_0.into()),
            kind: Kind::Invalid,
        });
        return;
    }
    if supported.is_none() {
        problems.push(ScanProblem {
            span: *span,
            construct: construct.clone(),
            message: format!("xs:{local} is not supported by boardxml-codegen"),
            hint: None,
            kind: Kind::Unsupported,
        });
        if xsd10_attributes(local).is_none() {
            // XSD 1.1's own elements: their attributes are not judged.
            return;
        }
    }
    // An element not supported still has its attributes checked against XSD 1.0's.
    let allowed = supported.or_else(|| xsd10_attributes(local)).unwrap_or(&[]);
    for error in &n.malformed {
        problems.push(ScanProblem {
            span: *span,
            construct: construct.clone(),
            message: format!("malformed attribute: {error}"),
            hint: None,
            kind: Kind::Invalid,
        });
    }
    // Attributes with a prefix of another namespace than XSD's are allowed on every XSD
    // element (Part 1, the schema for schemas: anyAttribute namespace="##other") and mean
    // nothing to validation.
    let foreign = |key: &str| {
        key.split_once(':').is_some_and(|(p, _)| {
            p != "xmlns" && p != "xml" && n.namespace(p).is_some_and(|ns| ns != XS_NS)
        })
    };
    for (key, _) in n.attrs.iter().chain(&n.prefixed) {
        // Namespace declarations, xml:lang and the versioning namespace's attributes
        // (vc:minVersion) are about the document, not the construct.
        if key == "xmlns"
            || key.starts_with("xmlns:")
            || key.starts_with("xml:")
            || key.starts_with("vc:")
            || foreign(key)
        {
            continue;
        }
        if allowed.contains(&key.as_str()) {
            continue;
        }
        // Valid XSD 1.0 on this element, only not supported here.
        let valid = xsd10_attributes(local).is_some_and(|a| a.contains(&key.as_str()));
        // XSD 1.1's own attributes of the elements both versions have (1.1 is valid
        // XSD, refused as unsupported rather than invalid, as its own elements are).
        let xsd11 = matches!(
            (local, key.as_str()),
            ("any" | "anyAttribute", "notQName" | "notNamespace")
                | ("schema", "defaultAttributes" | "xpathDefaultNamespace")
                | ("complexType", "defaultAttributesApply")
                | ("element" | "attribute", "targetNamespace")
                | ("attribute", "inheritable")
                | ("alternative", "xpathDefaultNamespace")
                | (
                    "selector" | "field" | "unique" | "key" | "keyref",
                    "xpathDefaultNamespace" | "ref"
                )
        );
        if xsd11 && !xsd_1_1 {
            problems.push(ScanProblem {
                span: *span,
                construct: construct.clone(),
                message: format!("attribute {key} on xs:{local} is XSD 1.1's, not XSD 1.0's"),
                hint: Some(READ_AS_1_0.into()),
                kind: Kind::Invalid,
            });
            continue;
        }
        if (valid || xsd11) && supported.is_none() {
            // The element is refused as a whole already.
            continue;
        }
        // XSD 1.1's own attributes the generator builds (in a document read as 1.1).
        let built_1_1 = matches!(
            (local, key.as_str()),
            ("schema", "defaultAttributes")
                | ("complexType", "defaultAttributesApply")
                | ("any" | "anyAttribute", "notNamespace" | "notQName")
                | ("element" | "attribute", "targetNamespace")
                | ("schema" | "selector" | "field", "xpathDefaultNamespace")
                | ("unique" | "key" | "keyref", "ref")
                | ("attribute", "inheritable")
                | ("alternative", "xpathDefaultNamespace")
        );
        if built_1_1 && xsd_1_1 {
            continue;
        }
        // XSD 1.1's own attributes in a document read as XSD 1.1: valid, not supported yet.
        let valid = valid || xsd11;
        let (message, hint) = if valid {
            (
                format!("attribute {key} on xs:{local} is not supported by boardxml-codegen"),
                None,
            )
        } else {
            let close = allowed
                .iter()
                .min_by_key(|a| edit_distance(a, key))
                .filter(|a| edit_distance(a, key) <= 2)
                .map(|a| format!("did you mean {a}?"));
            (format!("unknown attribute {key} on xs:{local}"), close)
        };
        problems.push(ScanProblem {
            span: *span,
            construct: construct.clone(),
            message,
            hint,
            kind: if valid {
                Kind::Unsupported
            } else {
                Kind::Invalid
            },
        });
    }
}

/// Levenshtein distance, for "did you mean" hints on misspelt attributes.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The problems of a schema body, in a document read as XSD 1.0 or (`vc:minVersion`)
    /// as XSD 1.1: (kind, message).
    fn judged(body: &str, xsd_1_1: bool) -> Vec<(Kind, String)> {
        let version = if xsd_1_1 {
            " xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\" vc:minVersion=\"1.1\""
        } else {
            ""
        };
        let text = format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"{version}>{body}</xs:schema>"
        );
        check(&Tree::read(text))
            .into_iter()
            .map(|p| (p.kind, p.message))
            .collect()
    }

    #[test]
    fn xsd_1_1_constructs_are_errors_in_1_0_and_valid_in_1_1() {
        let body = "<xs:complexType name=\"t\"><xs:openContent><xs:any/></xs:openContent><xs:sequence><xs:any notQName=\"a\"/></xs:sequence><xs:anyAttribute notNamespace=\"urn:x\"/><xs:assert test=\"true()\"/></xs:complexType>";
        let as_1_0 = judged(body, false);
        for want in [
            "xs:openContent is an element of XSD 1.1, not of XSD 1.0",
            "xs:assert is an element of XSD 1.1, not of XSD 1.0",
            "attribute notQName on xs:any is XSD 1.1's, not XSD 1.0's",
            "attribute notNamespace on xs:anyAttribute is XSD 1.1's, not XSD 1.0's",
        ] {
            assert!(
                as_1_0.iter().any(|(k, m)| *k == Kind::Invalid && m == want),
                "{want}: {as_1_0:?}"
            );
        }
        // Read as XSD 1.1: in the order 1.1's schema for schemas gives, none invalid, and
        // all of them built (the assertion, open content, notNamespace and notQName).
        let as_1_1 = judged(body, true);
        assert_eq!(as_1_1, []);
        // Out of that order, an error in 1.1 too.
        let late = judged(
            "<xs:complexType name=\"t\"><xs:assert test=\"true()\"/><xs:sequence/></xs:complexType>",
            true,
        );
        assert!(
            late.iter()
                .any(|(k, m)| *k == Kind::Invalid && m.contains("is not allowed here")),
            "{late:?}"
        );
    }

    #[test]
    fn a_misspelt_attribute_is_an_error_with_a_hint() {
        let text = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n<xs:complexType name=\"A\"><xs:attribute name=\"a\" usee=\"required\"/></xs:complexType></xs:schema>";
        let problems = check(&Tree::read(text.to_string()));
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].message,
            "unknown attribute usee on xs:attribute"
        );
        assert_eq!(problems[0].hint.as_deref(), Some("did you mean use?"));
        assert_eq!(
            problems[0].span,
            Span {
                line: 2,
                column: 26
            }
        );
    }
}
