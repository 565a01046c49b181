//! Schema validity: the constraints of XSD 1.0 Part 1 that can be checked on the markup
//! alone, whatever the generator supports.
//!
//! The conversion refuses an unsupported construct before it looks inside it, so on its own
//! it cannot say whether a refused schema is valid XSD using something new (`check` exit 3)
//! or an invalid schema (exit 1). This pass walks the whole document and reports, as
//! [`Kind::Invalid`] with positions, what the XSD 1.0 recommendation forbids: elements and
//! attributes the schema for schemas does not have, malformed attribute values (occurrences,
//! booleans, enumerated attributes, facet values), attributes that exclude each other,
//! unresolvable references (QName prefixes, names of types, elements, attributes, groups
//! and attribute groups, namespaces never imported), duplicate global names, facets that do
//! not apply to their base type, and circular definitions (simple and complex derivation,
//! model groups, attribute groups, substitution groups). It checks a subset: a constraint it
//! does not know is not reported, and the harness counts what slips through as a wrong
//! answer (`codegen/tests/xsts.rs`).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::tree::{Node, ScanProblem, Tree};
use super::vocabulary::{xsd_element_known, OVERRIDE_CHILDREN, XSD_1_1_BUILTINS};
use boardxml::facets::{Constraint, ExplicitTimezone, Facet, FacetArgument, FACETS};

mod attributes;
mod components;
mod derivation;
mod facets;
mod identity;
mod redefine;
mod subsume;
#[cfg(test)]
mod tests;

// The built-in type hierarchy, for the conversion's substitution groups too.
use crate::diagnostic::Kind;
use crate::ir::Builtin;
pub(super) use derivation::builtin_base;
pub(super) use redefine::check_redefinition;

const XS_NS: &str = "http://www.w3.org/2001/XMLSchema";

/// The elements each XSD element may contain (the schema for schemas, order aside), in
/// XSD 1.1 (`xsd_1_1`) or 1.0; `restriction` and `extension` depend on their parent.
fn allowed_children(local: &str, parent: &str, xsd_1_1: bool) -> Option<&'static [&'static str]> {
    if xsd_1_1 {
        if let Some(allowed) = xsd_1_1_children(local, parent) {
            return Some(allowed);
        }
    }
    xsd_1_0_children(local, parent)
}

/// Where XSD 1.1's schema for schemas (Part 1, Appendix A) allows more than 1.0's: the
/// facets `assertion` and `explicitTimezone` (Part 2, 4.3.13-14), assertions on complex
/// types, open content, wildcards and group references in `xs:all`, `xs:override`.
fn xsd_1_1_children(local: &str, parent: &str) -> Option<&'static [&'static str]> {
    const SIMPLE_RESTRICTION: [&str; 3 + FACETS.len()] =
        with_facets(&["annotation", "simpleType"], &["assertion"], true);
    const SIMPLE_CONTENT_RESTRICTION: [&str; 7 + FACETS.len()] = with_facets(
        &["annotation", "simpleType"],
        &[
            "assertion",
            "attribute",
            "attributeGroup",
            "anyAttribute",
            "assert",
        ],
        true,
    );
    const COMPLEX_DERIVATION: &[&str] = &[
        "annotation",
        "openContent",
        "group",
        "all",
        "choice",
        "sequence",
        "attribute",
        "attributeGroup",
        "anyAttribute",
        "assert",
    ];
    Some(match local {
        "restriction" => match parent {
            "simpleType" => &SIMPLE_RESTRICTION,
            "simpleContent" => &SIMPLE_CONTENT_RESTRICTION,
            _ => COMPLEX_DERIVATION,
        },
        "extension" => match parent {
            "simpleContent" => &[
                "annotation",
                "attribute",
                "attributeGroup",
                "anyAttribute",
                "assert",
            ],
            _ => COMPLEX_DERIVATION,
        },
        "all" => &["annotation", "element", "any", "group"],
        "openContent" | "defaultOpenContent" => &["annotation", "any"],
        "assert" | "assertion" => &["annotation"],
        "override" => OVERRIDE_CHILDREN,
        _ => return None,
    })
}

/// [`allowed_children`] in XSD 1.0 (with what 1.1 adds where only a 1.1 element can be).
fn xsd_1_0_children(local: &str, parent: &str) -> Option<&'static [&'static str]> {
    const SIMPLE_RESTRICTION: [&str; 2 + FACETS_1_0] =
        with_facets(&["annotation", "simpleType"], &[], false);
    const SIMPLE_CONTENT_RESTRICTION: [&str; 5 + FACETS_1_0] = with_facets(
        &["annotation", "simpleType"],
        &["attribute", "attributeGroup", "anyAttribute"],
        false,
    );
    const COMPLEX_DERIVATION: &[&str] = &[
        "annotation",
        "group",
        "all",
        "choice",
        "sequence",
        "attribute",
        "attributeGroup",
        "anyAttribute",
    ];
    const EMPTY: &[&str] = &["annotation"];
    Some(match local {
        "schema" => &[
            "include",
            "import",
            "redefine",
            "annotation",
            "simpleType",
            "complexType",
            "group",
            "attributeGroup",
            "element",
            "attribute",
            "notation",
            "defaultOpenContent",
            "override",
        ],
        "annotation" => &["appinfo", "documentation"],
        "include" | "import" | "any" | "anyAttribute" | "selector" | "field" | "notation" => EMPTY,
        "redefine" => &[
            "annotation",
            "simpleType",
            "complexType",
            "group",
            "attributeGroup",
        ],
        "simpleType" => &["annotation", "restriction", "list", "union"],
        "list" | "union" | "attribute" => &["annotation", "simpleType"],
        "restriction" => match parent {
            "simpleType" => &SIMPLE_RESTRICTION,
            "simpleContent" => &SIMPLE_CONTENT_RESTRICTION,
            _ => COMPLEX_DERIVATION,
        },
        "extension" => match parent {
            "simpleContent" => &["annotation", "attribute", "attributeGroup", "anyAttribute"],
            _ => COMPLEX_DERIVATION,
        },
        "complexType" => &[
            "annotation",
            "simpleContent",
            "complexContent",
            "group",
            "all",
            "choice",
            "sequence",
            "attribute",
            "attributeGroup",
            "anyAttribute",
            "openContent",
            "assert",
        ],
        "simpleContent" | "complexContent" => &["annotation", "restriction", "extension"],
        "group" => &["annotation", "all", "choice", "sequence"],
        "all" => &["annotation", "element"],
        "choice" | "sequence" => &[
            "annotation",
            "element",
            "group",
            "choice",
            "sequence",
            "any",
        ],
        "element" => &[
            "annotation",
            "simpleType",
            "complexType",
            "unique",
            "key",
            "keyref",
            "alternative",
        ],
        "attributeGroup" => &["annotation", "attribute", "attributeGroup", "anyAttribute"],
        "unique" | "key" | "keyref" => &["annotation", "selector", "field"],
        "alternative" => &["annotation", "simpleType", "complexType"],
        l if Facet::from_name(l).is_some() => EMPTY,
        _ => return None,
    })
}

/// How many facets XSD 1.0 has.
const FACETS_1_0: usize = {
    let mut n = 0;
    let mut f = 0;
    while f < FACETS.len() {
        if !FACETS[f].xsd_1_1 {
            n += 1;
        }
        f += 1;
    }
    n
};

/// `before`, every facet's name (of XSD 1.1, or only 1.0's), then `after`: the children
/// of a simple restriction.
const fn with_facets<const N: usize>(
    before: &[&'static str],
    after: &[&'static str],
    xsd_1_1: bool,
) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < before.len() {
        out[i] = before[i];
        i += 1;
    }
    let mut f = 0;
    while f < FACETS.len() {
        if xsd_1_1 || !FACETS[f].xsd_1_1 {
            out[i] = FACETS[f].name;
            i += 1;
        }
        f += 1;
    }
    let mut a = 0;
    while a < after.len() {
        out[i] = after[a];
        i += 1;
        a += 1;
    }
    assert!(i == N, "the array holds exactly the names");
    out
}

/// The built-in types of XSD 1.0 (Part 2, 3), with their primitive ancestor (`anyType`
/// and `anySimpleType` stand for themselves).
fn builtin_primitive(local: &str) -> Option<&'static str> {
    Some(match local {
        "anyType" => "anyType",
        "anySimpleType" => "anySimpleType",
        "string" | "normalizedString" | "token" | "language" | "Name" | "NCName" | "ID"
        | "IDREF" | "ENTITY" | "NMTOKEN" => "string",
        // List types: their facets are those of lists.
        "IDREFS" | "ENTITIES" | "NMTOKENS" => "list",
        "decimal" | "integer" | "nonPositiveInteger" | "negativeInteger" | "long" | "int"
        | "short" | "byte" | "nonNegativeInteger" | "unsignedLong" | "unsignedInt"
        | "unsignedShort" | "unsignedByte" | "positiveInteger" => "decimal",
        "boolean" => "boolean",
        "float" => "float",
        "double" => "double",
        // The last two XSD 1.1's (judged an error in a document read as 1.0).
        "duration" | "dayTimeDuration" | "yearMonthDuration" => "duration",
        "dateTime" | "dateTimeStamp" => "dateTime",
        "time" => "time",
        "date" => "date",
        "gYearMonth" => "gYearMonth",
        "gYear" => "gYear",
        "gMonthDay" => "gMonthDay",
        "gDay" => "gDay",
        "gMonth" => "gMonth",
        "hexBinary" => "hexBinary",
        "base64Binary" => "base64Binary",
        "anyURI" => "anyURI",
        "QName" => "QName",
        "NOTATION" => "NOTATION",
        _ => return None,
    })
}

/// Whether a built-in derives from xs:integer (its bounds and enumerations are integers).
fn builtin_is_integer(local: &str) -> bool {
    matches!(
        local,
        "integer"
            | "nonPositiveInteger"
            | "negativeInteger"
            | "long"
            | "int"
            | "short"
            | "byte"
            | "nonNegativeInteger"
            | "unsignedLong"
            | "unsignedInt"
            | "unsignedShort"
            | "unsignedByte"
            | "positiveInteger"
    )
}

/// Whether `v` is in the lexical space of `primitive` (one of the primitives whose values
/// the runtime holds in a value type of its own: float, double, duration, the dates and
/// times, hexBinary), by that type's parser, in the edition the schema is read as (see
/// `boardxml::datatypes::with_edition`): the generator and generated code agree on every
/// lexical space. `None` for the others.
fn lexical_ok(primitive: &str, v: &str) -> Option<bool> {
    let known = matches!(
        primitive,
        "float"
            | "double"
            | "duration"
            | "dateTime"
            | "date"
            | "time"
            | "gYearMonth"
            | "gYear"
            | "gMonthDay"
            | "gDay"
            | "gMonth"
            | "hexBinary"
    );
    let builtin = Builtin::from_xsd_name(primitive).filter(|_| known)?;
    Some(crate::values::parses(builtin, v))
}

/// The value range of an integer built-in.
fn builtin_range(local: &str) -> (Option<i128>, Option<i128>) {
    match local {
        "long" => (Some(i64::MIN.into()), Some(i64::MAX.into())),
        "int" => (Some(i32::MIN.into()), Some(i32::MAX.into())),
        "short" => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        "byte" => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        "unsignedLong" => (Some(0), Some(u64::MAX.into())),
        "unsignedInt" => (Some(0), Some(u32::MAX.into())),
        "unsignedShort" => (Some(0), Some(u16::MAX.into())),
        "unsignedByte" => (Some(0), Some(u8::MAX.into())),
        "nonNegativeInteger" => (Some(0), None),
        "positiveInteger" => (Some(1), None),
        "nonPositiveInteger" => (None, Some(0)),
        "negativeInteger" => (None, Some(-1)),
        _ => (None, None),
    }
}

/// The whiteSpace a built-in fixes: 0 preserve, 1 replace, 2 collapse.
fn builtin_white_space(local: &str) -> u8 {
    match local {
        "string" => 0,
        "normalizedString" => 1,
        _ => 2,
    }
}

fn white_space_rank(value: &str) -> Option<u8> {
    match value.trim() {
        "preserve" => Some(0),
        "replace" => Some(1),
        "collapse" => Some(2),
        _ => None,
    }
}

/// A resolved qualified name: namespace (None = no namespace) and local name.
type QName = (Option<String>, String);

/// The symbol spaces of global components (Part 1, 3.15.2 and 2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Space {
    Type,
    Element,
    Attribute,
    Group,
    AttributeGroup,
    Notation,
    IdentityConstraint,
}

impl Space {
    fn noun(self) -> &'static str {
        match self {
            Space::Type => "type",
            Space::Element => "element",
            Space::Attribute => "attribute",
            Space::Group => "model group",
            Space::AttributeGroup => "attribute group",
            Space::Notation => "notation",
            Space::IdentityConstraint => "identity constraint",
        }
    }
}

/// The XML Schema instance namespace (`xsi:`).
const XSI_NAMESPACE: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// One XSD element as its structural rules look at it (see `Checker::check_node`): its
/// node, its name and its parent's, whether it is global, and its XSD children's names.
struct Here<'n> {
    i: usize,
    node: &'n Node,
    local: &'n str,
    parent: &'n str,
    global: bool,
    kids: Vec<&'n str>,
}

impl Here<'_> {
    /// Whether the element has attribute `a`.
    fn has(&self, a: &str) -> bool {
        self.node.attr(a).is_some()
    }

    /// How many XSD children named `l` it has.
    fn count(&self, l: &str) -> usize {
        self.kids.iter().filter(|k| **k == l).count()
    }
}

struct Checker<'a> {
    nodes: &'a [Node],
    problems: Vec<ScanProblem>,
    target: Option<String>,
    /// Namespaces imported (None = the absence of a namespace).
    imported: HashSet<Option<String>>,
    /// The schema includes or redefines others: a local name not found here may be there.
    composed: bool,
    /// Global components by symbol space and name: the defining node.
    globals: HashMap<(Space, String), usize>,
    /// The components of every document of the schema, when it was composed from several
    /// ([`check_in`]): a name not declared here is looked up there.
    known: Option<&'a Known>,
    /// A chameleon document (no targetNamespace, included into a namespaced schema): its
    /// unqualified references name components of the includer's namespace.
    chameleon: bool,
    /// This document's index among the schema's ([`Known::add_document`]'s order).
    doc: usize,
    /// Whether the document is read as XSD 1.1, whose rules differ from 1.0's in places
    /// (each says so where it is checked).
    xsd_1_1: bool,
}

/// The global components of every document of a composed schema, by symbol space,
/// namespace and local name: what a reference in one document may name in another.
#[derive(Debug, Default)]
pub struct Known {
    components: HashSet<(Space, Option<String>, String)>,
    /// Each identity constraint's expanded name: the index of the first document (in the
    /// order added) that declares it outside xs:redefine. The names share one symbol space
    /// across the whole schema (Part 1, 3.11.2).
    identity_first: HashMap<(Option<String>, String), usize>,
    /// How many documents were added.
    documents: usize,
}

impl Known {
    /// Adds the global components of a document whose components are in `namespace` (its
    /// targetNamespace, or a chameleon includer's).
    pub fn add_document(&mut self, tree: &Tree, namespace: Option<&str>) {
        let doc = self.documents;
        self.documents += 1;
        let Some(nodes) = judged(tree) else {
            return;
        };
        let Some(root) = nodes.first().filter(|n| n.is("schema")) else {
            return;
        };
        let ns = namespace.map(str::to_string);
        let mut top: Vec<usize> = Vec::new();
        for &c in &root.children {
            // A redefinition declares nothing new: the redefined document declares it.
            if nodes[c].is("redefine") {
                top.extend(nodes[c].children.iter().copied());
            } else {
                top.push(c);
            }
        }
        for c in top {
            let n = &nodes[c];
            let space = match (n.xs, n.local.as_str()) {
                (true, "simpleType" | "complexType") => Space::Type,
                (true, "element") => Space::Element,
                (true, "attribute") => Space::Attribute,
                (true, "group") => Space::Group,
                (true, "attributeGroup") => Space::AttributeGroup,
                (true, "notation") => Space::Notation,
                _ => continue,
            };
            if let Some(name) = n.attr("name") {
                self.components
                    .insert((space, ns.clone(), name.trim().to_string()));
            }
        }
        for (i, n) in nodes.iter().enumerate() {
            if n.xs && matches!(n.local.as_str(), "key" | "unique" | "keyref") {
                if let Some(name) = n.attr("name") {
                    let name = name.trim().to_string();
                    if !inside_redefine(nodes, i) {
                        self.identity_first
                            .entry((ns.clone(), name.clone()))
                            .or_insert(doc);
                    }
                    self.components
                        .insert((Space::IdentityConstraint, ns.clone(), name));
                }
            }
        }
    }

    /// The document that first declares the identity constraint (`ns`, `local`).
    fn identity_declared_by(&self, ns: &Option<String>, local: &str) -> Option<usize> {
        self.identity_first
            .get(&(ns.clone(), local.to_string()))
            .copied()
    }

    fn contains(&self, space: Space, ns: &Option<String>, local: &str) -> bool {
        self.components
            .contains(&(space, ns.clone(), local.to_string()))
    }
}

/// Whether node `i` stands inside xs:redefine (whose components replace the redefined
/// document's rather than add to them).
fn inside_redefine(nodes: &[Node], i: usize) -> bool {
    let mut p = nodes[i].parent;
    while let Some(q) = p {
        if nodes[q].is("redefine") {
            return true;
        }
        p = nodes[q].parent;
    }
    false
}

/// Checks the validity of one document of a schema; every problem is [`Kind::Invalid`].
/// Returns nothing for a document that is not well-formed (the tree says why).
/// References resolve against `known`, the components of all the schema's documents. `namespace` is the namespace its components are
/// in (for a chameleon include, the includer's); `incomplete`: a document it includes
/// could not be loaded (reported), so a name not found may be declared there.
pub fn check_in(
    tree: &Tree,
    doc: usize,
    known: &Known,
    namespace: Option<&str>,
    incomplete: bool,
) -> Vec<ScanProblem> {
    let Some(nodes) = judged(tree) else {
        return Vec::new();
    };
    let own = nodes
        .first()
        .and_then(|n| n.attr("targetNamespace"))
        .is_some_and(|t| !t.is_empty());
    let mut cx = Checker {
        nodes,
        problems: Vec::new(),
        target: namespace.map(str::to_string),
        imported: HashSet::new(),
        composed: incomplete,
        globals: HashMap::new(),
        known: Some(known),
        chameleon: !own && namespace.is_some(),
        doc,
        xsd_1_1: tree.xsd_1_1(),
    };
    cx.run();
    cx.problems
}

/// The elements of a document this pass judges: one read whole, every attribute value
/// unescaped (of anything less, the markup checks say what is wrong).
fn judged(tree: &Tree) -> Option<&[Node]> {
    tree.clean.then_some(&tree.nodes[..])
}

fn is_ncname(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = chars.next().is_some_and(|c| c == '_' || c.is_alphabetic());
    first_ok
        && chars.all(|c| {
            c == '_' || c == '-' || c == '.' || c.is_alphanumeric() || is_combining_or_extender(c)
        })
}

/// Characters of XML 1.0's NameChar beyond letters and digits (combining marks, extenders).
fn is_combining_or_extender(c: char) -> bool {
    matches!(c, '\u{00B7}' | '\u{0300}'..='\u{036F}' | '\u{203F}'..='\u{2040}')
        || (!c.is_ascii() && !c.is_whitespace() && !c.is_control() && c != '\u{FFFD}')
}

fn is_xml_boolean(s: &str) -> bool {
    matches!(s.trim(), "true" | "false" | "1" | "0")
}

fn non_negative_integer(s: &str) -> Option<u128> {
    let t = s.trim();
    let digits = t.strip_prefix('+').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Beyond u128: still a valid nonNegativeInteger, taken as the largest.
    Some(digits.parse().unwrap_or(u128::MAX))
}

fn is_integer_lexical(s: &str) -> bool {
    let t = s.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn is_decimal_lexical(s: &str) -> bool {
    let t = s.trim();
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    (!int.is_empty() || !frac.is_empty())
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
}

/// Tokens of a `block`/`final` attribute: `#all` or a list of the allowed words.
fn derivation_set_ok(value: &str, allowed: &[&str]) -> bool {
    let v = value.trim();
    v == "#all" || v.split_whitespace().all(|t| allowed.contains(&t))
}

impl Checker<'_> {
    fn invalid(&mut self, node: usize, construct: String, message: String) {
        self.problems.push(ScanProblem {
            span: self.nodes[node].span,
            construct,
            message,
            hint: None,
            kind: Kind::Invalid,
        });
    }

    fn construct(&self, node: usize) -> String {
        let n = &self.nodes[node];
        match n.attr("name").or_else(|| n.attr("ref")) {
            Some(name) => format!("xs:{} \"{name}\"", n.local),
            None => format!("xs:{}", n.local),
        }
    }

    fn run(&mut self) {
        if self.nodes.is_empty() {
            return;
        }
        if !self.nodes[0].is("schema") {
            let c = format!("<{}>", self.nodes[0].local);
            self.invalid(
                0,
                c,
                "the document element of a schema must be xs:schema".into(),
            );
            return;
        }
        if let Some(t) = self.nodes[0].attr("targetNamespace").map(str::to_string) {
            if t.is_empty() {
                self.invalid(
                    0,
                    "xs:schema".into(),
                    "targetNamespace must not be empty (leave it out for no namespace)".into(),
                );
            }
            self.target = Some(t).filter(|t| !t.is_empty());
        }
        let top: Vec<usize> = self.nodes[0].children.clone();
        for &c in &top {
            let n = &self.nodes[c];
            if !n.xs {
                continue;
            }
            match n.local.as_str() {
                "import" => {
                    let ns = n.attr("namespace").map(str::to_string);
                    if ns.as_deref().is_some_and(|ns| ns.trim().is_empty()) {
                        // Namespaces in XML 1.0, 2: the empty string cannot be a namespace
                        // name, so namespace="" imports nothing that could exist.
                        self.invalid(
                            c,
                            "xs:import namespace=\"\"".into(),
                            "namespace=\"\" is no namespace name: to import components without a namespace, leave the namespace attribute out".into(),
                        );
                    }
                    if ns == self.target {
                        let msg = match &ns {
                            Some(ns) => format!("a schema cannot import its own target namespace \"{ns}\""),
                            None => "a schema without targetNamespace cannot import the absence of a namespace (leave out namespace= only when importing into a schema with a target namespace)".into(),
                        };
                        self.invalid(c, "xs:import".into(), msg);
                    }
                    self.imported.insert(ns);
                }
                // Composed documents are known when the schema was composed (check_in).
                "include" | "redefine" => self.composed |= self.known.is_none(),
                // The names an override's children give are the overridden document's
                // (Known has them), or nothing: an unmatched child is no component.
                "override" => self.composed |= self.known.is_none(),
                _ => {}
            }
        }
        self.collect_globals(&top);
        let mut redefined = HashMap::new();
        for &c in &top {
            if self.nodes[c].is("redefine") {
                self.check_redefinitions(c, &mut redefined);
            }
        }
        let mut ids: HashMap<String, usize> = HashMap::new();
        for i in 0..self.nodes.len() {
            self.check_node(i);
            self.check_order(i);
            if let Some(id) = self.nodes[i].attr("id").map(str::to_string) {
                if self.nodes[i].xs {
                    let c = self.construct(i);
                    if !is_ncname(id.trim()) {
                        self.invalid(i, c, format!("id=\"{id}\" is not an NCName"));
                    } else if let Some(&prev) = ids.get(id.trim()) {
                        let line = self.nodes[prev].span.line;
                        self.invalid(i, c, format!("id \"{id}\" is used twice (line {line})"));
                    } else {
                        ids.insert(id.trim().to_string(), i);
                    }
                }
            }
            if self.nodes[i].is("complexType") || self.nodes[i].is("group") {
                self.check_consistent_declarations(i);
            }
        }
        self.check_identity();
        let before = self.problems.len();
        self.check_cycles();
        // The derivation constraints follow references: only where none is circular.
        if self.problems.len() == before {
            self.check_derivations();
            self.check_attribute_derivations();
            // XSD 1.1 drops the rule (a type may have several ID attributes).
            if !self.xsd_1_1 {
                self.check_id_attributes();
            }
            self.check_substitution_groups();
        }
    }

    /// Redefinitions are in terms of themselves (Part 1, 4.2.2, src-redefine 5-7): a simple
    /// type restricts, a complex type restricts or extends, the component of its own name;
    /// a group or attribute group refers to itself at most once.
    fn check_redefinitions(&mut self, redefine: usize, seen: &mut HashMap<(Space, String), usize>) {
        for k in self.nodes[redefine].children.clone() {
            let n = &self.nodes[k];
            if !n.xs {
                continue;
            }
            let Some(name) = n.attr("name").map(|s| s.trim().to_string()) else {
                continue;
            };
            let local = n.local.clone();
            let space = match local.as_str() {
                "group" => Space::Group,
                "attributeGroup" => Space::AttributeGroup,
                _ => Space::Type,
            };
            // Each redefinition defines the component of its name (sch-props-correct.2:
            // one component of a kind per name), so a schema redefines it at most once.
            if let Some(&prev) = seen.get(&(space, name.clone())) {
                let line = self.nodes[prev].span.line;
                let c = format!("xs:{local} \"{name}\" in xs:redefine");
                let noun = space.noun();
                self.invalid(
                    k,
                    c,
                    format!("the {noun} \"{name}\" is already redefined (line {line}); a schema redefines a component once"),
                );
                continue;
            }
            seen.insert((space, name.clone()), k);
            let is_self = |cx: &Self, node: usize, value: &str| {
                cx.resolve(node, value).is_ok_and(|(ns, l)| {
                    let ns = if ns.is_none() && cx.chameleon {
                        cx.target.clone()
                    } else {
                        ns
                    };
                    ns == cx.target && l == name
                })
            };
            let construct = format!("xs:{local} \"{name}\" in xs:redefine");
            match local.as_str() {
                "simpleType" | "complexType" => {
                    // The derivation step: simpleType/restriction, or
                    // complexType/(simple|complex)Content/(restriction|extension).
                    let kids = |i: usize| self.nodes[i].children.clone();
                    let step = if local == "simpleType" {
                        kids(k)
                            .into_iter()
                            .find(|&c| self.nodes[c].is("restriction"))
                    } else {
                        kids(k)
                            .into_iter()
                            .filter(|&c| {
                                self.nodes[c].is("complexContent")
                                    || self.nodes[c].is("simpleContent")
                            })
                            .flat_map(kids)
                            .find(|&c| {
                                self.nodes[c].is("restriction") || self.nodes[c].is("extension")
                            })
                    };
                    let ok = step.is_some_and(|st| {
                        self.nodes[st]
                            .attr("base")
                            .is_some_and(|b| is_self(self, st, b))
                    });
                    if !ok {
                        let what = if local == "simpleType" {
                            "a redefined simple type must restrict itself (its base is the type it redefines)"
                        } else {
                            "a redefined complex type must restrict or extend itself (its base is the type it redefines)"
                        };
                        self.invalid(k, construct, what.into());
                    }
                }
                "group" | "attributeGroup" => {
                    let mut refs = 0;
                    let mut repeated = None;
                    let mut stack = self.nodes[k].children.clone();
                    while let Some(c) = stack.pop() {
                        let m = &self.nodes[c];
                        if m.is(&local) && m.attr("ref").is_some_and(|r| is_self(self, c, r)) {
                            refs += 1;
                            // src-redefine 6.1.2: the self-reference stands for the original
                            // group once, exactly (minOccurs and maxOccurs 1).
                            let occurs = ["minOccurs", "maxOccurs"].into_iter().find(|a| {
                                m.attr(a)
                                    .is_some_and(|v| non_negative_integer(v) != Some(1))
                            });
                            if let Some(a) = occurs {
                                repeated = Some((c, a, m.attr(a).unwrap_or_default().to_string()));
                            }
                        }
                        stack.extend(m.children.iter().copied());
                    }
                    if let (1, Some((c, attribute, value))) = (refs, repeated) {
                        let construct = format!("xs:group ref=\"{name}\" in xs:redefine");
                        self.invalid(
                            c,
                            construct,
                            format!("src-redefine.6.1.2: a redefined group's reference to itself must have minOccurs and maxOccurs 1, not {attribute}=\"{value}\""),
                        );
                    }
                    if refs > 1 {
                        self.invalid(
                            k,
                            construct,
                            format!(
                                "a redefined {} refers to itself {refs} times; at most once",
                                if local == "group" {
                                    "group"
                                } else {
                                    "attribute group"
                                }
                            ),
                        );
                    }
                }
                _ => {}
            }
        }
    }

    /// The order the schema for schemas gives an element's children (each child's rank
    /// must not decrease), and at most one xs:annotation, first.
    fn check_order(&mut self, i: usize) {
        let n = &self.nodes[i];
        if !n.xs || n.local == "schema" || n.local == "redefine" {
            if n.is("schema") {
                // Composition first, then definitions (annotations anywhere).
                let mut seen_definition = false;
                for &c in &n.children.clone() {
                    let k = &self.nodes[c];
                    if !k.xs || k.local == "annotation" {
                        continue;
                    }
                    let composing = matches!(k.local.as_str(), "include" | "import" | "redefine");
                    if composing && seen_definition {
                        let con = self.construct(c);
                        self.invalid(
                            c,
                            con,
                            format!(
                                "xs:{} must come before the schema's definitions",
                                self.nodes[c].local
                            ),
                        );
                    }
                    seen_definition |= !composing;
                }
            }
            return;
        }
        let parent = self.parent_local(i).to_string();
        let local = n.local.clone();
        let rank = |child: &str| -> Option<u8> {
            let r = match (local.as_str(), child) {
                (_, "annotation") => 0,
                ("complexType" | "extension" | "restriction" | "attributeGroup", c)
                    if parent != "simpleType" =>
                {
                    match c {
                        "simpleContent" | "complexContent" | "group" | "all" | "choice"
                        | "sequence" | "openContent" => 1,
                        "simpleType" => 1,
                        c if Facet::from_name(c).is_some() => 2,
                        "attribute" | "attributeGroup" => 3,
                        "anyAttribute" => 4,
                        _ => 5,
                    }
                }
                ("restriction", c) => {
                    if c == "simpleType" {
                        1
                    } else {
                        2
                    }
                }
                ("element", c) => match c {
                    "simpleType" | "complexType" => 1,
                    "alternative" => 2,
                    _ => 3,
                },
                ("unique" | "key" | "keyref", c) => {
                    if c == "selector" {
                        1
                    } else {
                        2
                    }
                }
                _ => 1,
            };
            Some(r)
        };
        let mut last = 0u8;
        let mut annotations = 0;
        let mut any_attributes = 0;
        let kids: Vec<usize> = n.children.clone();
        for (pos, c) in kids.iter().enumerate() {
            let k = &self.nodes[*c];
            if !k.xs {
                continue;
            }
            let name = k.local.clone();
            if name == "annotation" {
                annotations += 1;
                if annotations > 1 || pos > 0 {
                    let con = self.construct(i);
                    self.invalid(
                        *c,
                        con,
                        "xs:annotation comes once, as the first child".into(),
                    );
                }
                continue;
            }
            if name == "anyAttribute" {
                any_attributes += 1;
                if any_attributes > 1 {
                    let con = self.construct(i);
                    self.invalid(*c, con, "xs:anyAttribute comes at most once".into());
                }
            }
            let Some(r) = rank(&name) else { continue };
            if r < last {
                let con = self.construct(i);
                self.invalid(
                    *c,
                    con,
                    format!("xs:{name} is out of order inside xs:{local}"),
                );
            }
            last = last.max(r);
        }
    }

    /// Element Declarations Consistent (Part 1, 3.8.6): local elements of one name in one
    /// content model have one type; and an xs:all names each element once.
    fn check_consistent_declarations(&mut self, owner: usize) {
        let mut seen: HashMap<String, (usize, String)> = HashMap::new();
        let mut stack: Vec<usize> = self.nodes[owner].children.clone();
        let mut problems = Vec::new();
        while let Some(c) = stack.pop() {
            let n = &self.nodes[c];
            // maxOccurs="0" stands for no particle at all (Part 1, 3.9.2).
            if !n.xs || n.attr("maxOccurs").is_some_and(|m| m.trim() == "0") {
                continue;
            }
            match n.local.as_str() {
                "sequence" | "choice" | "all" | "complexContent" | "extension" | "restriction" => {
                    if n.local == "all" {
                        let mut names = HashSet::new();
                        for &e in &n.children {
                            if let Some(name) = self.nodes[e]
                                .attr("name")
                                .filter(|_| self.nodes[e].is("element"))
                            {
                                if !names.insert(name.trim().to_string()) {
                                    problems.push((
                                        e,
                                        format!("element \"{name}\" appears twice in xs:all"),
                                    ));
                                }
                            }
                        }
                    }
                    stack.extend(n.children.iter().copied());
                }
                "element" => {
                    let Some(name) = n.attr("name").map(|s| s.trim().to_string()) else {
                        continue;
                    };
                    let ty = match n.attr("type") {
                        Some(t) => match self.resolve(c, t) {
                            Ok((ns, l)) => format!("{{{}}}{l}", ns.unwrap_or_default()),
                            Err(_) => continue,
                        },
                        None if n.children.iter().any(|&k| {
                            self.nodes[k].is("simpleType") || self.nodes[k].is("complexType")
                        }) =>
                        {
                            format!("#inline{c}")
                        }
                        None => format!("{{{XS_NS}}}anyType"),
                    };
                    match seen.get(&name) {
                        Some((_, t)) if *t != ty => problems.push((
                            c,
                            format!("two local elements named \"{name}\" in one content model have different types"),
                        )),
                        Some(_) => {}
                        None => {
                            seen.insert(name, (c, ty));
                        }
                    }
                }
                _ => {}
            }
        }
        problems.sort();
        for (c, m) in problems {
            let con = self.construct(c);
            self.invalid(c, con, m);
        }
    }

    fn collect_globals(&mut self, top: &[usize]) {
        let mut first: BTreeMap<(Space, String), usize> = BTreeMap::new();
        for &c in top {
            let n = &self.nodes[c];
            if !n.xs {
                continue;
            }
            let space = match n.local.as_str() {
                "simpleType" | "complexType" => Space::Type,
                "element" => Space::Element,
                "attribute" => Space::Attribute,
                "group" => Space::Group,
                "attributeGroup" => Space::AttributeGroup,
                "notation" => Space::Notation,
                _ => continue,
            };
            let Some(name) = n.attr("name") else { continue };
            let name = name.trim().to_string();
            if let Some(&prev) = first.get(&(space, name.clone())) {
                let line = self.nodes[prev].span.line;
                // The conversion reports a duplicate type too, at the same element, when it
                // converts both: `finish` keeps its words then.
                let c2 = self.construct(c);
                self.invalid(
                    c,
                    c2,
                    format!(
                        "a global {} named \"{name}\" is already declared (line {line})",
                        space.noun()
                    ),
                );
                continue;
            }
            first.insert((space, name), c);
        }
        // Identity constraints share one symbol space across the whole schema.
        for i in 0..self.nodes.len() {
            let n = &self.nodes[i];
            if n.xs && matches!(n.local.as_str(), "key" | "unique" | "keyref") {
                if let Some(name) = n.attr("name") {
                    let key = (Space::IdentityConstraint, name.trim().to_string());
                    if let Some(&prev) = first.get(&key) {
                        let line = self.nodes[prev].span.line;
                        let c2 = self.construct(i);
                        self.invalid(
                            i,
                            c2,
                            format!("an identity constraint named \"{name}\" is already declared (line {line})"),
                        );
                    } else {
                        let elsewhere = !inside_redefine(self.nodes, i)
                            && self
                                .known
                                .and_then(|k| k.identity_declared_by(&self.target, name.trim()))
                                .is_some_and(|d| d != self.doc);
                        if elsewhere {
                            let c2 = self.construct(i);
                            self.invalid(
                                i,
                                c2,
                                format!("an identity constraint named \"{name}\" is already declared by another document of the schema (identity-constraint names share one symbol space, 3.11.2)"),
                            );
                        }
                        first.insert(key, i);
                    }
                }
            }
        }
        self.globals = first.into_iter().collect();
    }

    /// The heads a `substitutionGroup` names: one QName in XSD 1.0, a list of them in
    /// XSD 1.1 (Part 1, 3.3.2).
    pub(super) fn substitution_heads<'v>(&self, value: &'v str) -> Vec<&'v str> {
        if self.xsd_1_1 {
            value.split_whitespace().collect()
        } else {
            vec![value]
        }
    }

    /// Resolves a QName in the scope of `node` as written, with no chameleon namespace
    /// (a name `notQName` disallows).
    fn resolve_plain(&self, node: usize, value: &str) -> Result<QName, String> {
        self.nodes[node].resolve_qname(value).ok_or_else(|| {
            let (prefix, local) = value.split_once(':').unwrap_or(("", value));
            if is_ncname(local) && is_ncname(prefix) && value.contains(':') {
                format!("the prefix \"{prefix}\" of \"{value}\" is not bound to a namespace")
            } else {
                format!("\"{value}\" is not a qualified name")
            }
        })
    }

    /// Resolves a QName-valued attribute in the scope of `node`.
    fn resolve(&self, node: usize, value: &str) -> Result<QName, String> {
        let v = value.trim();
        let (prefix, local) = v.split_once(':').unwrap_or(("", v));
        if !is_ncname(local) || (!prefix.is_empty() && !is_ncname(prefix)) {
            return Err(format!("\"{value}\" is not a qualified name"));
        }
        let ns = self.nodes[node]
            .scope
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .map(|(_, n)| n.clone());
        match ns {
            Some(ns) if ns.is_empty() && prefix.is_empty() => Ok((None, local.to_string())),
            Some(ns) => Ok((Some(ns), local.to_string())),
            None if prefix.is_empty() => Ok((None, local.to_string())),
            None => Err(format!(
                "the prefix \"{prefix}\" of \"{value}\" is not bound to a namespace"
            )),
        }
    }

    /// Checks a reference of `space` from attribute `attr` of `node`; returns the local
    /// global it names, if it is in this document.
    fn reference(&mut self, node: usize, attr: &str, value: &str, space: Space) -> Option<usize> {
        let construct = format!("{attr}=\"{value}\" on {}", self.construct(node));
        let (ns, local) = match self.resolve(node, value) {
            Ok(q) => q,
            Err(message) => {
                self.invalid(node, construct, message);
                return None;
            }
        };
        // A chameleon's unqualified names are in the namespace it was included into.
        let ns = if ns.is_none() && self.chameleon {
            self.target.clone()
        } else {
            ns
        };
        if ns.as_deref() == Some(XS_NS) {
            if space == Space::Type {
                let on = &self.nodes[node];
                if local == "anySimpleType"
                    && on.is("restriction")
                    && self.parent_local(node) == "simpleType"
                {
                    self.invalid(
                        node,
                        construct,
                        "a simple type cannot restrict xs:anySimpleType (st-props-correct)".into(),
                    );
                } else if local == "anyType"
                    && (on.is("list")
                        || on.is("union")
                        || on.is("attribute")
                        || ((on.is("restriction") || on.is("extension"))
                            && self.parent_local(node) == "simpleContent")
                        || (on.is("restriction") && self.parent_local(node) == "simpleType"))
                {
                    self.invalid(
                        node,
                        construct,
                        "xs:anyType is a complex type; a simple type is needed here".into(),
                    );
                } else if if XSD_1_1_BUILTINS.contains(&local.as_str()) {
                    !self.xsd_1_1
                } else {
                    builtin_primitive(&local).is_none()
                } {
                    self.invalid(
                        node,
                        construct,
                        format!("xs:{local} is not a built-in type of XSD 1.0"),
                    );
                }
            } else if !self.imported.contains(&Some(XS_NS.to_string())) {
                self.invalid(
                    node,
                    construct,
                    format!(
                        "the XSD namespace has no {} named \"{local}\"",
                        space.noun()
                    ),
                );
            }
            return None;
        }
        if ns == self.target {
            if let Some(&g) = self.globals.get(&(space, local.clone())) {
                return Some(g);
            }
            if self.known.is_some_and(|k| k.contains(space, &ns, &local)) {
                return None;
            }
            if !self.composed {
                self.invalid(
                    node,
                    construct,
                    format!("no {} named \"{local}\" is declared", space.noun()),
                );
            }
            return None;
        }
        // XSD 1.1's built-in declarations of the xsi: attributes are in every schema; a
        // reference needs no import (Part 1, 3.2.7 and 3.17.6.2 clause 4.2.4).
        let xsi_builtin = self.xsd_1_1
            && ns.as_deref() == Some("http://www.w3.org/2001/XMLSchema-instance")
            && matches!(space, Space::Attribute)
            && matches!(
                local.as_str(),
                "type" | "nil" | "schemaLocation" | "noNamespaceSchemaLocation"
            );
        if xsi_builtin {
            return None;
        }
        if !self.imported.contains(&ns) {
            let shown = ns.as_deref().unwrap_or("no namespace");
            self.invalid(
                node,
                construct,
                format!("\"{value}\" is in namespace {shown}, which this schema does not import (xs:import it to refer to its components)"),
            );
        } else if let Some(known) = self.known {
            // An import without schemaLocation of a namespace no given document defines
            // leaves its components unresolvable: an error where one is referred to.
            if !self.composed && !known.contains(space, &ns, &local) {
                let shown = ns.as_deref().unwrap_or("no namespace");
                self.invalid(
                    node,
                    construct,
                    format!("no {} named \"{local}\" is declared in namespace {shown} by any document of the schema", space.noun()),
                );
            }
        }
        None
    }

    fn parent_local(&self, node: usize) -> &str {
        self.nodes[node]
            .parent
            .map(|p| self.nodes[p].local.as_str())
            .unwrap_or("")
    }

    fn check_node(&mut self, i: usize) {
        if !self.nodes[i].xs {
            // Outside the XSD namespace: the markup checks report it (where XSD markup is expected).
            return;
        }
        let local = self.nodes[i].local.clone();
        let parent = self.parent_local(i).to_string();
        let parent_xs = self.nodes[i]
            .parent
            .map(|p| self.nodes[p].xs)
            .unwrap_or(true);
        let construct = self.construct(i);
        if !xsd_element_known(&local) {
            // The markup checks report unknown XSD elements.
            return;
        }
        // Children allowed here.
        if let (Some(allowed), true) = (allowed_children(&parent, "", self.xsd_1_1), parent_xs) {
            let allowed = if parent == "restriction" || parent == "extension" {
                let grand = self.nodes[i]
                    .parent
                    .map(|p| self.parent_local(p).to_string())
                    .unwrap_or_default();
                allowed_children(&parent, &grand, self.xsd_1_1).unwrap_or(allowed)
            } else {
                allowed
            };
            if !allowed.contains(&local.as_str()) {
                self.invalid(
                    i,
                    construct.clone(),
                    format!("xs:{local} is not allowed inside xs:{parent}"),
                );
                return;
            }
        }
        self.check_attribute_values(i, &local, &construct);
        let nodes = self.nodes;
        let n = &nodes[i];
        let h = Here {
            i,
            node: n,
            local: &local,
            parent: &parent,
            global: matches!(parent.as_str(), "schema" | "redefine" | "override"),
            kids: n
                .children
                .iter()
                .filter(|&&c| nodes[c].xs)
                .map(|&c| nodes[c].local.as_str())
                .collect(),
        };
        let has = |a: &str| h.has(a);
        let count = |l: &str| h.count(l);
        let mut errors: Vec<String> = Vec::new();
        if matches!(local.as_str(), "element" | "attribute")
            && self.xsd_1_1
            && has("targetNamespace")
        {
            self.local_target_namespace(&h, &mut errors);
        }
        match local.as_str() {
            "element" => self.element_rules(&h, &mut errors),
            "attribute" => self.attribute_rules(&h, &mut errors),
            "simpleType" | "complexType" | "group" | "attributeGroup" | "notation" => {
                self.component_rules(&h, &mut errors)
            }
            "restriction" if parent == "simpleType" => {
                match (has("base"), count("simpleType")) {
                    (true, 0) | (false, 1) => {}
                    (true, _) => errors
                        .push("a restriction has base= or an inline simpleType, not both".into()),
                    (false, 0) => {
                        errors.push("a restriction needs base= or an inline simpleType".into())
                    }
                    (false, _) => errors.push("a restriction has one inline simpleType".into()),
                }
                self.check_facets(i, &mut errors);
            }
            "restriction" | "extension" => {
                if !has("base") {
                    errors.push(format!("xs:{local} needs a base"));
                }
                if local == "restriction" && parent == "simpleContent" {
                    self.check_facets(i, &mut errors);
                }
                if matches!(parent.as_str(), "complexContent" | "simpleContent") {
                    self.duplicate_attributes(i, &mut errors);
                }
                if parent == "complexContent" {
                    let particles =
                        count("group") + count("all") + count("choice") + count("sequence");
                    if particles > 1 {
                        errors.push("a derivation has at most one model group".into());
                    }
                }
            }
            "simpleContent" | "complexContent"
                if count("restriction") + count("extension") != 1 =>
            {
                errors.push(format!(
                    "xs:{local} has exactly one of xs:restriction and xs:extension"
                ));
            }
            "list" => match (has("itemType"), count("simpleType")) {
                (true, 0) | (false, 1) => {}
                (true, _) => {
                    errors.push("a list has itemType= or an inline simpleType, not both".into())
                }
                _ => errors.push("a list needs itemType= or one inline simpleType".into()),
            },
            "union" => {
                let members = n
                    .attr("memberTypes")
                    .map(|m| m.split_whitespace().count())
                    .unwrap_or(0);
                if members + count("simpleType") == 0 {
                    errors.push("a union needs memberTypes= or inline simple types".into());
                }
            }
            "all" => self.all_rules(&h, &mut errors),
            // XSD 1.1 (3.10.2, the schema for schemas' assertion on wildcards).
            "any" | "anyAttribute" if has("namespace") && has("notNamespace") => {
                errors.push(format!(
                    "xs:{local} takes namespace= or notNamespace=, not both"
                ));
            }
            // XSD 1.1 (3.11.2): a reference to a constraint declared elsewhere, which
            // gives everything else.
            "key" | "unique" | "keyref"
                if self.xsd_1_1
                    && has("ref")
                    && (has("name") || has("refer") || count("selector") + count("field") > 0) =>
            {
                errors.push(format!("xs:{local} with ref= takes no name=, refer=, xs:selector or xs:field (the constraint it names has them)"));
            }
            "key" | "unique" | "keyref" if self.xsd_1_1 && has("ref") => {}
            "keyref" if !has("refer") => {
                errors.push("xs:keyref needs refer=".into());
            }
            "key" | "unique" if !has("name") => {
                errors.push(format!("xs:{local} needs a name"));
            }
            "selector" | "field" if !has("xpath") => {
                errors.push(format!("xs:{local} needs xpath="));
            }
            "include" | "redefine" | "override" if !has("schemaLocation") => {
                errors.push(format!("xs:{local} needs schemaLocation="));
            }
            _ => {}
        }
        if matches!(local.as_str(), "key" | "unique" | "keyref")
            && !(self.xsd_1_1 && has("ref"))
            && (count("selector") != 1 || count("field") == 0)
        {
            errors.push(format!(
                "xs:{local} has one xs:selector and at least one xs:field"
            ));
        }
        for e in errors {
            self.invalid(i, construct.clone(), e);
        }
        self.check_references(i, &local, &parent);
    }

    /// The rules of an element declaration or reference (XSD 1.0 Part 1, 3.3.3 and the
    /// schema for schemas): name or ref, what a global one or a reference may not have,
    /// one type, one value constraint valid for it.
    fn element_rules(&self, h: &Here<'_>, errors: &mut Vec<String>) {
        let inline = h.count("simpleType") + h.count("complexType");
        if h.global {
            if !h.has("name") {
                errors.push("a global element needs a name".into());
            }
            for a in ["ref", "minOccurs", "maxOccurs", "form"] {
                if h.has(a) {
                    errors.push(format!("{a} is not allowed on a global element"));
                }
            }
        } else {
            match (h.has("name"), h.has("ref")) {
                (true, true) => errors.push("an element cannot have both name and ref".into()),
                (false, false) => errors.push("a local element needs name or ref".into()),
                (false, true) => {
                    for a in ["type", "nillable", "default", "fixed", "form", "block"] {
                        if h.has(a) {
                            errors
                                .push(format!("{a} is not allowed on an element reference (ref=)"));
                        }
                    }
                    if inline > 0 || h.count("unique") + h.count("key") + h.count("keyref") > 0 {
                        errors.push(
                            "an element reference (ref=) has no content but xs:annotation".into(),
                        );
                    }
                }
                (true, false) => {}
            }
            for a in ["abstract", "final", "substitutionGroup"] {
                if h.has(a) {
                    errors.push(format!("{a} is allowed only on a global element"));
                }
            }
        }
        if h.has("type") && inline > 0 {
            errors.push("an element has both type= and an inline type".into());
        }
        if inline > 1 {
            errors.push("an element has at most one inline type".into());
        }
        if h.has("default") && h.has("fixed") {
            errors.push("an element cannot have both default and fixed".into());
        }
        if let Some(value) = h.node.attr("default").or_else(|| h.node.attr("fixed")) {
            if let Some(e) = self.value_constraint_problem(h.i, value, true) {
                errors.push(e);
            }
        }
    }

    /// The rules of an attribute declaration or use (3.2.3): name or ref, no xmlns, not
    /// in the xsi namespace, one type, a value constraint valid for it and its `use`.
    fn attribute_rules(&self, h: &Here<'_>, errors: &mut Vec<String>) {
        if h.global {
            if !h.has("name") {
                errors.push("a global attribute needs a name".into());
            }
            for a in ["ref", "use", "form"] {
                if h.has(a) {
                    errors.push(format!("{a} is not allowed on a global attribute"));
                }
            }
        } else {
            match (h.has("name"), h.has("ref")) {
                (true, true) => errors.push("an attribute cannot have both name and ref".into()),
                (false, false) => errors.push("a local attribute needs name or ref".into()),
                (false, true) => {
                    for a in ["type", "form"] {
                        if h.has(a) {
                            errors.push(format!(
                                "{a} is not allowed on an attribute reference (ref=)"
                            ));
                        }
                    }
                    if h.count("simpleType") > 0 {
                        errors.push("an attribute reference (ref=) has no inline type".into());
                    }
                }
                (true, false) => {}
            }
        }
        if h.node.attr("name").map(str::trim) == Some("xmlns") {
            errors.push("an attribute cannot be named xmlns".into());
        }
        // no-xsi (XSD 1.0, 3.2.6): xsi:type, xsi:nil and the location hints are
        // built in; a global or qualified declaration would be in their namespace.
        if h.has("name") && self.target.as_deref() == Some(XSI_NAMESPACE) {
            let qualified = h.global
                || match h.node.attr("form").map(str::trim) {
                    Some(f) => f == "qualified",
                    None => {
                        self.nodes[0].attr("attributeFormDefault").map(str::trim)
                            == Some("qualified")
                    }
                };
            if qualified {
                errors.push(format!("no-xsi: an attribute cannot be declared in the namespace {XSI_NAMESPACE}, whose attributes XSD itself defines"));
            }
        }
        if h.has("type") && h.count("simpleType") > 0 {
            errors.push("an attribute has both type= and an inline simpleType".into());
        }
        if h.has("default") && h.has("fixed") {
            errors.push("an attribute cannot have both default and fixed".into());
        }
        if h.count("simpleType") > 1 {
            errors.push("an attribute has at most one inline simpleType".into());
        }
        if let Some(value) = h.node.attr("default").or_else(|| h.node.attr("fixed")) {
            if let Some(e) = self.value_constraint_problem(h.i, value, false) {
                errors.push(e);
            }
        }
        match h.node.attr("use").map(str::trim) {
            // The conversion says this one, in these words.
            Some("required") if h.has("default") => {
                errors.push("a required attribute cannot have a default".into())
            }
            Some("prohibited") if h.has("default") => errors
                .push("an attribute with a default must be optional (use=\"optional\")".into()),
            _ => {}
        }
    }

    /// A type that `xs:override` gives (XSD 1.1 Part 1, 4.2.5) replaces the one of its name:
    /// unlike `xs:redefine`, it keeps no original to derive from, so a base naming the type
    /// itself is a circular definition.
    fn overriding_type_rules(&self, i: usize, errors: &mut Vec<String>) {
        let Some(name) = self.nodes[i].attr("name").map(str::trim) else {
            return;
        };
        // simpleType > restriction, complexType > simpleContent|complexContent > derivation.
        let mut work = vec![i];
        while let Some(n) = work.pop() {
            for &c in &self.nodes[n].children {
                let k = &self.nodes[c];
                if !k.xs {
                    continue;
                }
                match k.local.as_str() {
                    "simpleContent" | "complexContent" => work.push(c),
                    "restriction" | "extension" => {
                        let Some(base) = k.attr("base") else { continue };
                        if let Ok((ns, local)) = self.resolve(c, base) {
                            if ns == self.target && local == name {
                                errors.push(format!(
                                    "type \"{name}\" in xs:override is derived from itself: an override replaces the type and keeps no original to derive from (a circular definition)"
                                ));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// The rules of a type, model group, attribute group or notation definition, global
    /// (named) or local (anonymous, or a reference for the groups).
    fn component_rules(&self, h: &Here<'_>, errors: &mut Vec<String>) {
        let local = h.local;
        if h.parent == "override" && matches!(local, "simpleType" | "complexType") {
            self.overriding_type_rules(h.i, errors);
        }
        let is_ref_kind = matches!(local, "group" | "attributeGroup");
        if h.global {
            if !h.has("name") {
                errors.push(format!("a global xs:{local} needs a name"));
            }
            if is_ref_kind {
                for a in ["ref", "minOccurs", "maxOccurs"] {
                    if h.has(a) {
                        errors.push(format!("{a} is not allowed on a global xs:{local}"));
                    }
                }
            }
        } else if is_ref_kind {
            if !h.has("ref") {
                errors.push(format!("a local xs:{local} is a reference: it needs ref="));
            }
            if h.has("name") {
                errors.push(format!("a reference to an xs:{local} has no name"));
            }
            let content = h.kids.iter().filter(|k| **k != "annotation").count();
            if content > 0 {
                errors.push(format!(
                    "a reference to an xs:{local} has no content but xs:annotation"
                ));
            }
        } else if h.has("name") {
            errors.push(format!(
                "an anonymous (local) xs:{local} cannot have a name"
            ));
        } else if local == "complexType" {
            for a in ["abstract", "block", "final"] {
                if h.has(a) {
                    errors.push(format!("{a} is allowed only on a global complexType"));
                }
            }
        } else if local == "simpleType" && h.has("final") {
            errors.push("final is allowed only on a global simpleType".into());
        }
        if local == "simpleType" && h.count("restriction") + h.count("list") + h.count("union") != 1
        {
            errors.push(
                "a simpleType has exactly one of xs:restriction, xs:list and xs:union".into(),
            );
        }
        if local == "group" && h.global {
            let models = h.count("all") + h.count("choice") + h.count("sequence");
            if models != 1 {
                errors.push(
                    "a named model group has exactly one of xs:all, xs:choice and xs:sequence"
                        .into(),
                );
            }
            for &c in &h.node.children {
                let m = &self.nodes[c];
                if m.xs
                    && matches!(m.local.as_str(), "all" | "choice" | "sequence")
                    && (m.attr("minOccurs").is_some() || m.attr("maxOccurs").is_some())
                {
                    errors
                        .push("the model group of a named group has no minOccurs/maxOccurs".into());
                }
            }
        }
        if local == "complexType" {
            let content = h.count("simpleContent") + h.count("complexContent");
            let particles =
                h.count("group") + h.count("all") + h.count("choice") + h.count("sequence");
            if content > 1
                || (content == 1
                    && particles
                        + h.count("attribute")
                        + h.count("attributeGroup")
                        + h.count("anyAttribute")
                        > 0)
            {
                errors.push("a complexType with xs:simpleContent or xs:complexContent has nothing else but xs:annotation".into());
            }
            if particles > 1 {
                errors.push("a complexType has at most one model group".into());
            }
            self.duplicate_attributes(h.i, errors);
        }
        if local == "attributeGroup" && h.global {
            self.duplicate_attributes(h.i, errors);
        }
    }

    /// XSD 1.1's `targetNamespace` on an element or attribute declaration (src-element.5,
    /// src-attribute.6): only on a local declaration with a name and no `form`, and a
    /// namespace other than the schema's only inside the restriction (of complex or simple
    /// content) of a type other than `xs:anyType`, where it restricts what the base
    /// declares or its wildcard allows in that namespace.
    fn local_target_namespace(&self, h: &Here<'_>, errors: &mut Vec<String>) {
        let what = h.local;
        if h.global {
            errors.push(format!(
                "targetNamespace= is allowed only on a local xs:{what} (a global one takes the schema's)"
            ));
            return;
        }
        if !h.has("name") {
            errors.push(format!("an xs:{what} with targetNamespace= needs a name="));
        }
        if h.has("form") {
            errors.push(format!(
                "an xs:{what} takes targetNamespace= or form=, not both"
            ));
        }
        let own = h
            .node
            .attr("targetNamespace")
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let schema = self.nodes[0]
            .attr("targetNamespace")
            .map(str::trim)
            .filter(|t| !t.is_empty());
        if own == schema {
            return;
        }
        // The restriction between the declaration and its nearest complexType.
        let mut restricts = false;
        let mut p = h.node.parent;
        while let Some(q) = p {
            let n = &self.nodes[q];
            if n.is("complexType") {
                break;
            }
            if n.is("restriction") {
                restricts = n.attr("base").is_some_and(|b| {
                    self.resolve(q, b).ok()
                        != Some((Some(XS_NS.to_string()), "anyType".to_string()))
                });
            }
            p = n.parent;
        }
        if !restricts || p.is_none() {
            errors.push(format!(
                "an xs:{what} in a namespace other than the schema's (targetNamespace=) must stand in the restriction of a type other than xs:anyType"
            ));
        }
    }

    /// The rules of `xs:all` (3.8.6 all-group limited): the whole content model, occurring
    /// at most once, its elements at most once each.
    fn all_rules(&self, h: &Here<'_>, errors: &mut Vec<String>) {
        if !matches!(
            h.parent,
            "complexType" | "group" | "restriction" | "extension"
        ) {
            errors.push(
                "xs:all must be the whole content model (not inside xs:sequence or xs:choice)"
                    .into(),
            );
        }
        if let Some(m) = h.node.attr("minOccurs") {
            if !matches!(m.trim(), "0" | "1") {
                errors.push("minOccurs of xs:all must be 0 or 1".into());
            }
        }
        if let Some(m) = h.node.attr("maxOccurs") {
            // XSD 1.1's schema for schema documents (allModel) also allows 0.
            if self.xsd_1_1 && !matches!(m.trim(), "0" | "1") {
                errors.push("maxOccurs of xs:all must be 0 or 1 (XSD 1.1)".into());
            } else if !self.xsd_1_1 && m.trim() != "1" {
                errors.push("maxOccurs of xs:all must be 1".into());
            }
        }
        for &c in &h.node.children {
            let e = &self.nodes[c];
            // XSD 1.1 lets an element of xs:all repeat (cos-all-limited is gone).
            if e.is("element") && !self.xsd_1_1 {
                if let Some(m) = e.attr("maxOccurs") {
                    if !matches!(m.trim(), "0" | "1") {
                        errors.push("an element in xs:all has maxOccurs 0 or 1".into());
                    }
                }
            }
        }
    }

    /// A default or fixed value that its declaration's type cannot have: an element of a
    /// complex type without simple or mixed content, a type derived from xs:ID, or a value
    /// outside a built-in's lexical space (for the built-ins checked here).
    fn value_constraint_problem(&self, decl: usize, value: &str, element: bool) -> Option<String> {
        let n = &self.nodes[decl];
        let inline_complex = n.children.iter().any(|&c| self.nodes[c].is("complexType"));
        let (builtin, complex) = match n.attr("type") {
            Some(t) => {
                let (ns, l) = self.resolve(decl, t).ok()?;
                if ns.as_deref() == Some(XS_NS) {
                    (Some(l), false)
                } else if ns == self.target {
                    let &g = self.globals.get(&(Space::Type, l))?;
                    if self.nodes[g].is("complexType") {
                        (None, true)
                    } else {
                        (self.simple_type_builtin(g, 0).map(|(_, b)| b), false)
                    }
                } else {
                    return None;
                }
            }
            None if inline_complex => (None, true),
            None => {
                let st = n
                    .children
                    .iter()
                    .copied()
                    .find(|&c| self.nodes[c].is("simpleType"));
                (
                    st.and_then(|st| self.simple_type_builtin(st, 0))
                        .map(|(_, b)| b),
                    false,
                )
            }
        };
        if complex && element {
            // Simple or mixed content may take a value constraint; element-only or empty
            // content cannot (Part 1, 3.3.6, cos-valid-default).
            let g = match n.attr("type") {
                Some(t) => {
                    let (_, l) = self.resolve(decl, t).ok()?;
                    *self.globals.get(&(Space::Type, l))?
                }
                None => n
                    .children
                    .iter()
                    .copied()
                    .find(|&c| self.nodes[c].is("complexType"))?,
            };
            let ct = &self.nodes[g];
            let simple_or_mixed = ct
                .attr("mixed")
                .is_some_and(|m| matches!(m.trim(), "true" | "1"))
                || ct.children.iter().any(|&c| {
                    self.nodes[c].is("simpleContent")
                        || (self.nodes[c].is("complexContent")
                            && self.nodes[c]
                                .attr("mixed")
                                .is_some_and(|m| matches!(m.trim(), "true" | "1")))
                });
            let derived = ct
                .children
                .iter()
                .any(|&c| self.nodes[c].is("complexContent"));
            if !simple_or_mixed && !derived {
                return Some("a default or fixed value needs simple or mixed content; the type has element-only or empty content".into());
            }
            return None;
        }
        let builtin = builtin?;
        // XSD 1.1 drops the rule (an ID may have a default or a fixed value).
        if builtin == "ID" && !self.xsd_1_1 {
            return Some("a declaration of type xs:ID cannot have a default or fixed value".into());
        }
        let primitive = builtin_primitive(&builtin)?;
        let v = value.trim();
        let ok = if builtin_is_integer(&builtin) {
            is_integer_lexical(v)
        } else if primitive == "decimal" {
            is_decimal_lexical(v)
        } else if primitive == "boolean" {
            is_xml_boolean(v)
        } else {
            lexical_ok(primitive, v).unwrap_or(true)
        };
        (!ok).then(|| format!("the value \"{value}\" is not a valid xs:{builtin}"))
    }

    /// Two attribute declarations of one name in one complex type or attribute group.
    fn duplicate_attributes(&self, node: usize, errors: &mut Vec<String>) {
        let mut seen = HashSet::new();
        for &c in &self.nodes[node].children {
            let a = &self.nodes[c];
            if a.is("attribute") {
                if let Some(name) = a.attr("name").or_else(|| a.attr("ref")) {
                    if !seen.insert(name.trim().to_string()) {
                        errors.push(format!("attribute \"{name}\" is declared twice"));
                    }
                }
            }
        }
    }

    fn check_attribute_values(&mut self, i: usize, local: &str, construct: &str) {
        let attrs = self.nodes[i].attrs.clone();
        let mut errors = Vec::new();
        let min = self.nodes[i].attr("minOccurs").map(str::to_string);
        let max = self.nodes[i].attr("maxOccurs").map(str::to_string);
        for (k, v) in &attrs {
            let t = v.trim();
            let ok = match k.as_str() {
                "name" if local != "alternative" => is_ncname(t),
                "minOccurs" => non_negative_integer(t).is_some(),
                "maxOccurs" => t == "unbounded" || non_negative_integer(t).is_some(),
                "mixed" | "abstract" | "nillable" | "inheritable" | "defaultAttributesApply" => {
                    is_xml_boolean(t)
                }
                "fixed" if local != "element" && local != "attribute" => is_xml_boolean(t),
                "use" => matches!(t, "optional" | "required" | "prohibited"),
                "form" | "elementFormDefault" | "attributeFormDefault" => {
                    matches!(t, "qualified" | "unqualified")
                }
                "processContents" => matches!(t, "skip" | "lax" | "strict"),
                "block" if local == "element" => {
                    derivation_set_ok(t, &["extension", "restriction", "substitution"])
                }
                "blockDefault" => {
                    derivation_set_ok(t, &["extension", "restriction", "substitution"])
                }
                "block" | "final" if local == "complexType" || local == "element" => {
                    derivation_set_ok(t, &["extension", "restriction"])
                }
                // XSD 1.1's simpleDerivationSet also takes "extension" (which stops a
                // complex type extending the simple type).
                "final" if local == "simpleType" && self.xsd_1_1 => {
                    derivation_set_ok(t, &["list", "union", "restriction", "extension"])
                }
                "final" if local == "simpleType" => {
                    derivation_set_ok(t, &["list", "union", "restriction"])
                }
                "finalDefault" => {
                    derivation_set_ok(t, &["extension", "restriction", "list", "union"])
                }
                "namespace" if local == "any" || local == "anyAttribute" => {
                    t == "##any"
                        || t == "##other"
                        || t.split_whitespace().all(|w| {
                            !w.starts_with("##") || w == "##targetNamespace" || w == "##local"
                        })
                }
                // XSD 1.1 (3.10.2): a list of at least one URI, ##targetNamespace or
                // ##local.
                "notNamespace" if local == "any" || local == "anyAttribute" => {
                    !t.is_empty()
                        && t.split_whitespace().all(|w| {
                            !w.starts_with("##") || w == "##targetNamespace" || w == "##local"
                        })
                }
                _ => true,
            };
            if !ok {
                errors.push(format!("{k}=\"{v}\" is not a valid value"));
            }
        }
        if let (Some(min), Some(max)) = (
            min.as_deref().and_then(non_negative_integer),
            max.as_deref(),
        ) {
            if let Some(max) = non_negative_integer(max) {
                if min > max {
                    errors.push(format!("minOccurs {min} is greater than maxOccurs {max}"));
                }
            }
        } else if let (None, Some(max)) = (
            min.as_deref(),
            max.as_deref().and_then(non_negative_integer),
        ) {
            // minOccurs defaults to 1.
            if max == 0 && matches!(local, "element" | "group" | "any" | "sequence" | "choice") {
                errors.push("maxOccurs 0 needs minOccurs 0 (minOccurs defaults to 1)".into());
            }
        }
        if matches!(local, "any" | "anyAttribute") && self.xsd_1_1 {
            self.not_qname_rules(i, local, &mut errors);
        }
        for e in errors {
            self.invalid(i, construct.to_string(), e);
        }
    }

    /// XSD 1.1's `notQName` on the wildcard `i` (`xs:any` or `xs:anyAttribute`, Part 1,
    /// 3.10.2): each token a QName of the element's scope, `##defined`, or (on `xs:any`
    /// only) `##definedSibling`; and (wc-props-correct.4, 3.10.6) no QName in a namespace
    /// the wildcard does not allow, which would be disallowed twice over.
    fn not_qname_rules(&self, i: usize, local: &str, errors: &mut Vec<String>) {
        let Some(list) = self.nodes[i].attr("notQName") else {
            return;
        };
        let namespaces = self.wildcard(i).namespaces;
        for token in list.split_whitespace() {
            match token {
                "##defined" => {}
                "##definedSibling" if local == "any" => {}
                "##definedSibling" => errors.push(
                    "notQName=\"##definedSibling\" is for xs:any only: an attribute has no siblings in a content model".into(),
                ),
                t if t.starts_with("##") => errors.push(format!(
                    "notQName: \"{t}\" is not a keyword (##defined{})",
                    if local == "any" { ", ##definedSibling" } else { "" }
                )),
                t => match self.resolve_plain(i, t) {
                    Err(message) => errors.push(format!("notQName: {message}")),
                    Ok((ns, name)) if !namespaces.allows(&ns) => errors.push(format!(
                        "notQName: \"{t}\" ({}) is in a namespace the wildcard does not allow anyway (wc-props-correct.4)",
                        match &ns {
                            Some(ns) => format!("{{{ns}}}{name}"),
                            None => format!("{name} in no namespace"),
                        }
                    )),
                    Ok(_) => {}
                },
            }
        }
    }

    /// The facets of one restriction step: values of the right form, no facet twice,
    /// applicable to the base, consistent with one another.
    fn check_facets(&mut self, step: usize, errors: &mut Vec<String>) {
        let base_builtin = self.step_builtin(step, 0);
        let mut seen: HashMap<Facet, String> = HashMap::new();
        for &c in &self.nodes[step].children.clone() {
            let f = &self.nodes[c];
            let Some(facet) = Facet::from_name(&f.local).filter(|_| f.xs) else {
                continue;
            };
            let def = facet.def();
            let name = def.name;
            let Some(value) = f.attr("value").map(str::to_string) else {
                errors.push(format!("xs:{name} needs a value"));
                continue;
            };
            // Patterns and enumerations may repeat (their values are alternatives).
            let repeats = matches!(
                def.constrains,
                Constraint::Pattern | Constraint::Enumeration
            );
            if !repeats && seen.insert(facet, value.clone()).is_some() {
                errors.push(format!("xs:{name} appears twice in one restriction"));
            }
            let ok = match def.value {
                FacetArgument::NonNegativeInteger => non_negative_integer(&value).is_some(),
                FacetArgument::PositiveInteger => {
                    non_negative_integer(&value).is_some_and(|v| v > 0)
                }
                FacetArgument::WhiteSpace => white_space_rank(&value).is_some(),
                FacetArgument::Timezone => ExplicitTimezone::from_name(value.trim()).is_some(),
                FacetArgument::BaseValue | FacetArgument::Pattern => true,
            };
            if !ok {
                errors.push(format!("\"{value}\" is not a valid value of xs:{name}"));
            }
            // A value of the base type: checked against the base's value space below.
            let base_value = def.value == FacetArgument::BaseValue;
            if let Some((primitive, builtin)) = &base_builtin {
                if !facet.applies_to(primitive) {
                    errors.push(format!(
                        "xs:{name} does not apply to a type derived from xs:{builtin}"
                    ));
                } else if facet == Facet::WhiteSpace
                    && white_space_rank(&value).is_some_and(|w| {
                        self.step_white_space(step, 0)
                            .or(Some(builtin_white_space(builtin)))
                            .is_some_and(|b| w < b)
                    })
                {
                    errors.push(format!(
                        "whiteSpace \"{value}\" is looser than the base type's"
                    ));
                } else if builtin_is_integer(builtin)
                    && base_value
                    && is_integer_lexical(&value)
                    && {
                        let v = value.trim().trim_start_matches('+').parse::<i128>().ok();
                        let (lo, hi) = builtin_range(builtin);
                        v.is_none_or(|v| lo.is_some_and(|lo| v < lo) || hi.is_some_and(|hi| v > hi))
                    }
                {
                    errors.push(format!(
                        "\"{value}\" (xs:{name}) is outside the value space of xs:{builtin}"
                    ));
                } else if builtin_is_integer(builtin) && base_value && !is_integer_lexical(&value) {
                    errors.push(format!(
                        "\"{value}\" (xs:{name}) is not an integer, as its base xs:{builtin} needs"
                    ));
                } else if primitive == "decimal"
                    && !builtin_is_integer(builtin)
                    && base_value
                    && !is_decimal_lexical(&value)
                {
                    errors.push(format!("\"{value}\" (xs:{name}) is not a decimal"));
                } else if primitive == "boolean"
                    && facet == Facet::Enumeration
                    && !is_xml_boolean(&value)
                {
                    errors.push(format!("\"{value}\" is not a boolean"));
                } else if builtin_is_integer(builtin)
                    && facet == Facet::FractionDigits
                    && non_negative_integer(&value).is_some_and(|v| v != 0)
                {
                    errors.push(format!(
                        "xs:{builtin} fixes fractionDigits at 0; \"{value}\" changes it"
                    ));
                } else if base_value && lexical_ok(primitive, value.trim()) == Some(false) {
                    errors.push(format!(
                        "\"{value}\" (xs:{name}) is not a valid xs:{primitive} value"
                    ));
                }
            }
        }
        let num = |k: Facet| seen.get(&k).and_then(|v| non_negative_integer(v));
        if let (Some(a), Some(b)) = (num(Facet::MinLength), num(Facet::MaxLength)) {
            if a > b {
                errors.push(format!("minLength {a} is greater than maxLength {b}"));
            }
        }
        if let (Some(a), Some(b)) = (num(Facet::FractionDigits), num(Facet::TotalDigits)) {
            if a > b {
                errors.push(format!(
                    "fractionDigits {a} is greater than totalDigits {b}"
                ));
            }
        }
        // The WG's special case (W3C bug 6446): the list built-ins carry minLength 1, and
        // restating it beside length is allowed.
        let list_builtin = base_builtin
            .as_ref()
            .is_some_and(|(p, b)| p == "list" && b != "list");
        let restated_min = list_builtin
            && num(Facet::MinLength) == Some(1)
            && !seen.contains_key(&Facet::MaxLength);
        if seen.contains_key(&Facet::Length)
            && (seen.contains_key(&Facet::MinLength) || seen.contains_key(&Facet::MaxLength))
            && !restated_min
        {
            errors.push(
                "length cannot be given with minLength or maxLength in one restriction".into(),
            );
        }
        if seen.contains_key(&Facet::MinInclusive) && seen.contains_key(&Facet::MinExclusive) {
            errors.push("minInclusive and minExclusive cannot both be given".into());
        }
        if seen.contains_key(&Facet::MaxInclusive) && seen.contains_key(&Facet::MaxExclusive) {
            errors.push("maxInclusive and maxExclusive cannot both be given".into());
        }
        let int = |k: Facet| {
            seen.get(&k)
                .filter(|v| is_integer_lexical(v))
                .and_then(|v| v.trim().trim_start_matches('+').parse::<i128>().ok())
        };
        let lo = int(Facet::MinInclusive).or(int(Facet::MinExclusive));
        let hi = int(Facet::MaxInclusive).or(int(Facet::MaxExclusive));
        if let (Some(lo), Some(hi)) = (lo, hi) {
            let strict =
                seen.contains_key(&Facet::MinExclusive) || seen.contains_key(&Facet::MaxExclusive);
            if lo > hi
                || (strict
                    && lo == hi
                    && !(seen.contains_key(&Facet::MinExclusive)
                        && seen.contains_key(&Facet::MaxExclusive)))
            {
                errors.push(format!(
                    "the lower bound {lo} is above the upper bound {hi}"
                ));
            }
        }
        if let Some((primitive, builtin)) = &base_builtin {
            self.check_facet_values(
                step,
                &seen,
                Some(primitive.as_str()),
                builtin_is_integer(builtin),
                errors,
            );
        }
    }

    /// The built-in a simple restriction step derives from, with its primitive (or
    /// `list`/`union`), following local named types; None where it cannot tell.
    fn step_builtin(&self, step: usize, depth: usize) -> Option<(String, String)> {
        if depth > 64 {
            return None;
        }
        let n = &self.nodes[step];
        let inline = n
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].is("simpleType"));
        let base = match (n.attr("base"), inline) {
            (Some(b), _) => b.to_string(),
            (None, Some(st)) => return self.simple_type_builtin(st, depth + 1),
            (None, None) => return None,
        };
        let (ns, local) = self.resolve(step, &base).ok()?;
        if ns.as_deref() == Some(XS_NS) {
            let p = builtin_primitive(&local)?;
            return Some((p.to_string(), local));
        }
        if ns != self.target {
            return None;
        }
        let &g = self.globals.get(&(Space::Type, local))?;
        if !self.nodes[g].is("simpleType") {
            return None;
        }
        self.simple_type_builtin(g, depth + 1)
    }

    /// The whiteSpace the base of a restriction step has from local types' own
    /// whiteSpace facets (nearest first), the base named or inline; None where only the
    /// built-in fixes it.
    fn step_white_space(&self, step: usize, depth: usize) -> Option<u8> {
        if depth > 64 {
            return None;
        }
        let g = match self.nodes[step].attr("base") {
            Some(base) => {
                let (ns, local) = self.resolve(step, base).ok()?;
                if ns != self.target || ns.as_deref() == Some(XS_NS) {
                    return None;
                }
                *self.globals.get(&(Space::Type, local))?
            }
            None => self.child(step, &["simpleType"])?,
        };
        let r = self.nodes[g]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].is("restriction"))?;
        self.nodes[r]
            .children
            .iter()
            .filter(|&&c| self.nodes[c].is("whiteSpace"))
            .find_map(|&c| self.nodes[c].attr("value").and_then(white_space_rank))
            .or_else(|| self.step_white_space(r, depth + 1))
    }

    fn simple_type_builtin(&self, st: usize, depth: usize) -> Option<(String, String)> {
        let d = self.nodes[st]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].xs && self.nodes[c].local != "annotation")?;
        match self.nodes[d].local.as_str() {
            "restriction" => self.step_builtin(d, depth),
            "list" => Some(("list".into(), "list".into())),
            "union" => Some(("union".into(), "union".into())),
            _ => None,
        }
    }

    fn check_references(&mut self, i: usize, local: &str, parent: &str) {
        let n = &self.nodes[i];
        let attr = |a: &str| n.attr(a).map(str::to_string);
        let mut refs: Vec<(&str, String, Space)> = Vec::new();
        match local {
            // XSD 1.1 (3.17.2, src-resolve): the attribute group every complex type of the
            // document takes by default.
            "schema" if self.xsd_1_1 => {
                if let Some(g) = attr("defaultAttributes") {
                    refs.push(("defaultAttributes", g, Space::AttributeGroup));
                }
            }
            "element" | "alternative" => {
                if let Some(t) = attr("type") {
                    refs.push(("type", t, Space::Type));
                }
                if let Some(r) = attr("ref") {
                    refs.push(("ref", r, Space::Element));
                }
                if let Some(s) = attr("substitutionGroup") {
                    for head in self.substitution_heads(&s) {
                        refs.push(("substitutionGroup", head.to_string(), Space::Element));
                    }
                }
            }
            "attribute" => {
                if let Some(t) = attr("type") {
                    refs.push(("type", t, Space::Type));
                }
                if let Some(r) = attr("ref") {
                    refs.push(("ref", r, Space::Attribute));
                }
            }
            "group" if !matches!(parent, "schema" | "redefine" | "override") => {
                if let Some(r) = attr("ref") {
                    refs.push(("ref", r, Space::Group));
                }
            }
            "attributeGroup" if !matches!(parent, "schema" | "redefine" | "override") => {
                if let Some(r) = attr("ref") {
                    refs.push(("ref", r, Space::AttributeGroup));
                }
            }
            "restriction" | "extension" => {
                if let Some(b) = attr("base") {
                    refs.push(("base", b, Space::Type));
                }
            }
            "list" => {
                if let Some(t) = attr("itemType") {
                    refs.push(("itemType", t, Space::Type));
                }
            }
            "union" => {
                for m in attr("memberTypes").unwrap_or_default().split_whitespace() {
                    refs.push(("memberTypes", m.to_string(), Space::Type));
                }
            }
            // What refer= names is judged in validity/identity.rs; resolved here as every
            // reference is (src-resolve: declared, and in a namespace imported).
            "keyref" => {
                if let Some(r) = attr("refer") {
                    refs.push(("refer", r, Space::IdentityConstraint));
                }
            }
            _ => {}
        }
        // XSD 1.1's xs:anyAtomicType is special (Part 2, 3.2.2, and W3C bug 11103): a type
        // of declarations, never a schema's own list's item, union's member or
        // restriction's base.
        if self.xsd_1_1 {
            for (a, value, _) in &refs {
                let derives =
                    matches!((local, *a), ("list", "itemType") | ("union", "memberTypes"))
                        || (local == "restriction" && *a == "base" && parent == "simpleType");
                let any_atomic = Some((Some(XS_NS.to_string()), "anyAtomicType".to_string()));
                if derives && self.resolve(i, value).ok() == any_atomic {
                    let construct = format!("{a}=\"{value}\" on {}", self.construct(i));
                    self.invalid(
                        i,
                        construct,
                        "xs:anyAtomicType is special: a schema's list, union or restriction cannot be built on it (XSD 1.1 Part 2, 3.2.2)".into(),
                    );
                }
            }
        }
        // XSD 1.1's ref= on an identity constraint (src-resolve, and 3.11.6: to one of the
        // same kind, when it is declared in this document).
        if self.xsd_1_1 && matches!(local, "key" | "unique" | "keyref") {
            if let Some(r) = attr("ref") {
                if let Some(target) = self.reference(i, "ref", &r, Space::IdentityConstraint) {
                    let kind = &self.nodes[target].local;
                    if kind != local && self.nodes[target].xs {
                        let construct = format!("ref=\"{r}\" on {}", self.construct(i));
                        self.invalid(
                            i,
                            construct,
                            format!("\"{r}\" is an xs:{kind}; xs:{local} ref= names an xs:{local}"),
                        );
                    }
                }
            }
        }
        // Inside xs:redefine, a type's restriction/extension names the type it redefines
        // (in the redefined document): nothing to check here.
        let in_redefine = {
            let mut p = self.nodes[i].parent;
            let mut found = false;
            while let Some(q) = p {
                if self.nodes[q].is("redefine") {
                    found = true;
                }
                p = self.nodes[q].parent;
            }
            found
        };
        for (a, value, space) in refs {
            let Some(target) = self.reference(i, a, &value, space) else {
                continue;
            };
            if in_redefine {
                continue;
            }
            // Simple types where the constraint needs one.
            let needs_simple = match (local, a) {
                ("attribute", "type") | ("list", _) | ("union", _) => true,
                ("restriction", "base") => parent == "simpleType",
                _ => false,
            };
            let target_complex = self.nodes[target].is("complexType");
            // final / finalDefault of the type derived from (Part 1, 3.4.6 and 3.14.6).
            let method = match (local, parent) {
                ("extension", _) => Some("extension"),
                ("restriction", _) => Some("restriction"),
                ("list", _) => Some("list"),
                ("union", _) => Some("union"),
                _ => None,
            };
            if let Some(method) = method {
                let blocked = self.nodes[target]
                    .attr("final")
                    .or_else(|| self.nodes[0].attr("finalDefault"))
                    .map(str::trim)
                    .is_some_and(|f| f == "#all" || f.split_whitespace().any(|t| t == method));
                if blocked {
                    let construct = format!("{a}=\"{value}\" on {}", self.construct(i));
                    self.invalid(
                        i,
                        construct,
                        format!(
                            "\"{value}\" is final for {method}: it cannot be derived from that way"
                        ),
                    );
                }
            }
            let construct = format!("{a}=\"{value}\" on {}", self.construct(i));
            if needs_simple && target_complex {
                self.invalid(
                    i,
                    construct,
                    format!("\"{value}\" is a complex type; a simple type is needed here"),
                );
            } else if parent == "complexContent" && !target_complex {
                self.invalid(
                    i,
                    construct,
                    format!(
                        "\"{value}\" is a simple type; complexContent derives from a complex type"
                    ),
                );
            } else if parent == "simpleContent" && local == "restriction" && !target_complex {
                self.invalid(i, construct, format!("\"{value}\" is a simple type; a simpleContent restriction derives from a complex type (extend a simple type instead)"));
            }
        }
        if local == "keyref" {
            if let Some(r) = self.nodes[i].attr("refer").map(str::to_string) {
                if let Ok((ns, l)) = self.resolve(i, &r) {
                    if ns == self.target
                        && !self.composed
                        && !self
                            .known
                            .is_some_and(|k| k.contains(Space::IdentityConstraint, &ns, &l))
                        && !self
                            .globals
                            .contains_key(&(Space::IdentityConstraint, l.clone()))
                    {
                        let c = self.construct(i);
                        self.invalid(i, c, format!("refer=\"{r}\" names no xs:key or xs:unique"));
                    }
                }
            }
        }
    }

    /// Circular definitions: each a located error at the first component of the cycle.
    fn check_cycles(&mut self) {
        let globals: Vec<((Space, String), usize)> =
            self.globals.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let mut edges: HashMap<(Space, String), Vec<(Space, String)>> = HashMap::new();
        for ((space, name), node) in &globals {
            let mut out = Vec::new();
            match space {
                Space::Type if self.nodes[*node].is("simpleType") => {
                    self.collect(
                        *node,
                        &mut out,
                        &|n: &Node| match n.local.as_str() {
                            "restriction" => n
                                .attr("base")
                                .map(|b| vec![b.to_string()])
                                .unwrap_or_default(),
                            "list" => n
                                .attr("itemType")
                                .map(|b| vec![b.to_string()])
                                .unwrap_or_default(),
                            "union" => n
                                .attr("memberTypes")
                                .map(|m| m.split_whitespace().map(str::to_string).collect())
                                .unwrap_or_default(),
                            _ => Vec::new(),
                        },
                        Space::Type,
                        &["simpleType", "restriction", "list", "union"],
                    );
                }
                Space::Type => {
                    self.collect(
                        *node,
                        &mut out,
                        &|n: &Node| match n.local.as_str() {
                            "restriction" | "extension" => n
                                .attr("base")
                                .map(|b| vec![b.to_string()])
                                .unwrap_or_default(),
                            _ => Vec::new(),
                        },
                        Space::Type,
                        &[
                            "simpleContent",
                            "complexContent",
                            "restriction",
                            "extension",
                        ],
                    );
                }
                Space::Group => {
                    self.collect(
                        *node,
                        &mut out,
                        &|n: &Node| match n.local.as_str() {
                            "group" => n
                                .attr("ref")
                                .map(|b| vec![b.to_string()])
                                .unwrap_or_default(),
                            _ => Vec::new(),
                        },
                        Space::Group,
                        &["group", "sequence", "choice", "all"],
                    );
                }
                Space::AttributeGroup => {
                    self.collect(
                        *node,
                        &mut out,
                        &|n: &Node| match n.local.as_str() {
                            "attributeGroup" => n
                                .attr("ref")
                                .map(|b| vec![b.to_string()])
                                .unwrap_or_default(),
                            _ => Vec::new(),
                        },
                        Space::AttributeGroup,
                        &["attributeGroup"],
                    );
                }
                Space::Element => {
                    if let Some(s) = self.nodes[*node].attr("substitutionGroup") {
                        for head in self.substitution_heads(s) {
                            if let Ok((ns, l)) = self.resolve(*node, head) {
                                if ns == self.target {
                                    out.push((Space::Element, l));
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
            edges.insert((*space, name.clone()), out);
        }
        // Depth-first search; each cycle reported once, at its smallest member.
        let mut reported: HashSet<Vec<(Space, String)>> = HashSet::new();
        for (start, _) in &globals {
            let mut path = vec![start.clone()];
            let mut stack = vec![(start.clone(), 0usize)];
            let mut on_path: HashSet<(Space, String)> = [start.clone()].into();
            while let Some((at, next)) = stack.pop() {
                let succ = edges.get(&at).map(|v| v.as_slice()).unwrap_or(&[]);
                if next >= succ.len() {
                    on_path.remove(&at);
                    path.pop();
                    continue;
                }
                stack.push((at.clone(), next + 1));
                let to = succ[next].clone();
                // XSD 1.1 allows attribute groups that refer to themselves (its
                // src-attribute_group.3 is gone).
                if to == *start && !(self.xsd_1_1 && start.0 == Space::AttributeGroup) {
                    let mut cycle = path.clone();
                    let min = cycle.iter().min().cloned();
                    if min.as_ref() == Some(start) {
                        cycle.sort();
                        if reported.insert(cycle) {
                            let names: Vec<String> = path
                                .iter()
                                .map(|(_, n)| n.clone())
                                .chain([start.1.clone()])
                                .collect();
                            let node = self.globals[start];
                            let what = match start.0 {
                                Space::Type if self.nodes[node].is("simpleType") => {
                                    "a simple type derived from itself"
                                }
                                Space::Type => "a complex type derived from itself",
                                Space::Group => "a model group that contains itself",
                                Space::AttributeGroup => "an attribute group that contains itself",
                                Space::Element => "a substitution group that contains itself",
                                _ => "a circular definition",
                            };
                            let c = self.construct(node);
                            self.invalid(node, c, format!("{what}: {}", names.join(" -> ")));
                        }
                    }
                    continue;
                }
                if on_path.contains(&to) || !edges.contains_key(&to) {
                    continue;
                }
                on_path.insert(to.clone());
                path.push(to.clone());
                stack.push((to, 0));
            }
        }
    }

    /// The local global names of `space` referenced from `node`'s subtree, descending only
    /// through XSD elements named in `through` (inline types count as part of the
    /// definition; element declarations do not).
    fn collect(
        &self,
        node: usize,
        out: &mut Vec<(Space, String)>,
        refs: &dyn Fn(&Node) -> Vec<String>,
        space: Space,
        through: &[&str],
    ) {
        for &c in &self.nodes[node].children {
            let n = &self.nodes[c];
            if !n.xs || !through.contains(&n.local.as_str()) {
                continue;
            }
            for r in refs(n) {
                if let Ok((ns, l)) = self.resolve(c, &r) {
                    if ns == self.target && self.globals.contains_key(&(space, l.clone())) {
                        out.push((space, l));
                    }
                }
            }
            self.collect(c, out, refs, space, through);
        }
    }
}
