//! The vocabulary of the XSD language itself: which elements the schema for schemas has
//! and the attributes it gives each. Both the markup checks (`markup`) and the validity
//! checks (`validity`) read it, so it stands below both.

use boardxml::facets::Facet;

/// The attributes the schema for schemas of XSD 1.0 gives each of its elements (besides
/// `id`, namespace declarations and attributes of other namespaces). `xs:alternative` is
/// XSD 1.1's, taken here because the generator supports it (conditional type assignment).
pub fn xsd10_attributes(local: &str) -> Option<&'static [&'static str]> {
    Some(match local {
        "schema" => &[
            "attributeFormDefault",
            "blockDefault",
            "elementFormDefault",
            "finalDefault",
            "id",
            "targetNamespace",
            "version",
        ],
        "include" | "redefine" => &["id", "schemaLocation"],
        "import" => &["id", "namespace", "schemaLocation"],
        "annotation" | "simpleContent" => &["id"],
        "appinfo" | "documentation" => &["source"],
        "simpleType" => &["final", "id", "name"],
        "restriction" | "extension" => &["base", "id"],
        "list" => &["id", "itemType"],
        "union" => &["id", "memberTypes"],
        "complexType" => &["abstract", "block", "final", "id", "mixed", "name"],
        "complexContent" => &["id", "mixed"],
        "group" => &["id", "maxOccurs", "minOccurs", "name", "ref"],
        "all" | "choice" | "sequence" => &["id", "maxOccurs", "minOccurs"],
        "any" => &[
            "id",
            "maxOccurs",
            "minOccurs",
            "namespace",
            "processContents",
        ],
        "anyAttribute" => &["id", "namespace", "processContents"],
        "attribute" => &[
            "default", "fixed", "form", "id", "name", "ref", "type", "use",
        ],
        "attributeGroup" => &["id", "name", "ref"],
        "element" => &[
            "abstract",
            "block",
            "default",
            "final",
            "fixed",
            "form",
            "id",
            "maxOccurs",
            "minOccurs",
            "name",
            "nillable",
            "ref",
            "substitutionGroup",
            "type",
        ],
        "unique" | "key" => &["id", "name"],
        "keyref" => &["id", "name", "refer"],
        "selector" | "field" => &["id", "xpath"],
        "notation" => &["id", "name", "public", "system"],
        "alternative" => &["id", "test", "type"],
        _ => return facet_attributes(local),
    })
}

/// The attributes of the facet named `local` (the table of facets says which take
/// `fixed`).
pub fn facet_attributes(local: &str) -> Option<&'static [&'static str]> {
    let facet = Facet::from_name(local)?;
    Some(if facet.def().fixable {
        &["fixed", "id", "value"]
    } else {
        &["id", "value"]
    })
}

/// The built-in types XSD 1.1 adds (Part 2, 3.3 and 3.4; `xs:error`, Part 1, 3.16.7.3).
pub(crate) const XSD_1_1_BUILTINS: [&str; 5] = [
    "anyAtomicType",
    "dateTimeStamp",
    "dayTimeDuration",
    "yearMonthDuration",
    "error",
];

/// What `xs:override` may contain (XSD 1.1 Part 1, Appendix A), in any order.
pub(crate) const OVERRIDE_CHILDREN: &[&str] = &[
    "annotation",
    "simpleType",
    "complexType",
    "group",
    "attributeGroup",
    "element",
    "attribute",
    "notation",
];

/// XSD 1.1's own elements: valid in 1.1, so refused as unsupported rather than invalid.
const XSD11_ONLY: &[&str] = &[
    "assert",
    "assertion",
    "openContent",
    "defaultOpenContent",
    "override",
    "explicitTimezone",
];

/// Whether `local` names an element of the XSD namespace (1.0, or 1.1's own).
pub fn xsd_element_known(local: &str) -> bool {
    xsd10_attributes(local).is_some() || XSD11_ONLY.contains(&local)
}
