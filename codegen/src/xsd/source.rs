//! A positioned scan of a schema file's XSD markup.
//!
//! xsd-parser's tree carries no positions, and it silently ignores attributes it does not
//! know (`usee="required"`). This scan walks the same markup with quick-xml and gives every
//! XSD element a key (`/schema[0]/simpleType[3]/restriction[0]/pattern[0]`, the index
//! counting siblings of the same local name) with its line and column; the conversion builds
//! the same keys while it walks xsd-parser's tree. It also rejects, with positions, every
//! XSD element and attribute the generator does not support, so nothing is skipped silently.

use std::collections::HashMap;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::diagnostic::Kind;
use crate::ir::Span;

use super::vocabulary::{xsd10_attributes, xsd_element_known};

const XS_NS: &[u8] = b"http://www.w3.org/2001/XMLSchema";

/// A problem found by the scan, before any conversion.
#[derive(Debug, Clone)]
pub struct ScanProblem {
    /// Where.
    pub span: Span,
    /// The construct, e.g. `xs:attribute`.
    pub construct: String,
    /// What is wrong.
    pub message: String,
    /// A hint.
    pub hint: Option<String>,
    /// Invalid XSD or a valid construct not supported.
    pub kind: Kind,
}

/// Positions of the XSD elements of one file.
#[derive(Debug, Default)]
pub struct SourceMap {
    positions: HashMap<String, Span>,
    /// The namespace declarations in scope at each `xs:selector` and `xs:field`, innermost
    /// last: their XPaths' prefixes are resolved by them (Part 1, 3.11.6).
    xpath_scopes: HashMap<String, Vec<(String, String)>>,
    /// For each `xs:enumeration` whose value relies on a namespace binding if read as
    /// QNames (a prefix bound, or a default namespace in scope), those bindings: its value
    /// is resolved by them where its type holds QNames (Part 2, 3.2.18.1).
    value_scopes: HashMap<String, Vec<(String, String)>>,
    line_starts: Vec<usize>,
    text: String,
}

impl SourceMap {
    /// The position of the element with this key, or 1:1 if the scan did not see it (which
    /// would be a bug in key building; 1:1 still names the file).
    pub fn span(&self, key: &str) -> Span {
        self.positions
            .get(key)
            .cloned()
            .unwrap_or(Span { line: 1, column: 1 })
    }

    /// The namespace `prefix` is bound to at the `xs:selector` or `xs:field` with this key.
    pub(super) fn xpath_namespace(&self, key: &str, prefix: &str) -> Option<&str> {
        self.xpath_scopes
            .get(key)?
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .map(|(_, ns)| ns.as_str())
    }

    /// The namespace bindings the value of the `xs:enumeration` with this key relies on
    /// ((prefix, namespace), `""` for the default namespace).
    pub(super) fn value_scope(&self, key: &str) -> Vec<(String, String)> {
        self.value_scopes.get(key).cloned().unwrap_or_default()
    }

    pub(super) fn span_at(&self, offset: usize) -> Span {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let column = self.text[start..offset.min(self.text.len())]
            .chars()
            .count()
            + 1;
        Span {
            line: line as u32 + 1,
            column: column as u32,
        }
    }
}

/// The attributes each supported XSD element may carry. Anything else is an error: a
/// misspelt attribute must not be taken for an absent one.
fn allowed_attributes(local: &str) -> Option<&'static [&'static str]> {
    Some(match local {
        "schema" => &[
            // Derivation constraints: honoured by the conversion (xsd/derivation.rs).
            // blockDefault: what substitution groups may substitute (xsd/substitution.rs)
            // and which types xsi:type may name in place of a declared one
            // (xsd/type_substitution.rs).
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
            // abstract: never in a document itself (xsd/derivation.rs); substitutionGroup,
            // block (substitution, and extension or restriction of a member's type) and
            // blockDefault: xsd/substitution.rs; final: checked by the validity pass.
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
        "import" => &["namespace", "schemaLocation", "id"],
        "annotation" => &["id"],
        "documentation" => &["source"],
        "appinfo" => &["source"],
        "alternative" => &["test", "type", "id"],
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
        "enumeration" | "pattern" => &["value", "id"],
        "notation" => &["name", "public", "system", "id"],
        "length" | "minLength" | "maxLength" | "minInclusive" | "maxInclusive" | "minExclusive"
        | "maxExclusive" | "whiteSpace" | "totalDigits" | "fractionDigits" => {
            &["value", "fixed", "id"]
        }
        _ => return None,
    })
}

/// Scans `text` (a whole schema file).
pub fn scan(text: &str) -> (SourceMap, Vec<ScanProblem>) {
    let mut map = SourceMap {
        line_starts: std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect(),
        text: text.to_owned(),
        ..SourceMap::default()
    };
    let mut problems = Vec::new();
    let mut reader = Reader::from_str(text);
    // Per open element: its key, a counter of children by local name, and whether we are
    // inside documentation (whose content is free).
    struct Open {
        key: String,
        counts: HashMap<String, usize>,
        free: bool,
        /// The namespace declarations of this element: (prefix, empty for the default
        /// namespace; namespace name).
        declared: Vec<(Vec<u8>, Vec<u8>)>,
        /// The XSD element's local name and whether it is a reference (`ref=`); `None`
        /// for the document level and for anything outside XSD markup.
        xsd: Option<(String, bool, Span)>,
        /// Its XSD children in order, with where each stands.
        children: Vec<(String, Span)>,
    }
    let mut stack: Vec<Open> = vec![Open {
        key: String::new(),
        counts: HashMap::new(),
        free: false,
        declared: Vec::new(),
        xsd: None,
        children: Vec::new(),
    }];
    // IDs of the schema's components (the `id` attributes), unique in the document.
    let mut ids: HashMap<String, Span> = HashMap::new();
    // Every element open, by name and where its start tag is: one still open at the end
    // of the text is a document cut short (xsd-parser, given one, can loop forever).
    let mut open_elements: Vec<(String, usize)> = Vec::new();
    let mut had_root = false;
    loop {
        let before = reader.buffer_position() as usize;
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(error) => {
                problems.push(ScanProblem {
                    span: map.span_at(reader.error_position() as usize),
                    construct: "the schema document".into(),
                    message: format!("not well-formed XML: {error}"),
                    hint: None,
                    kind: Kind::Invalid,
                });
                break;
            }
        };
        match &event {
            Event::Start(start) => {
                had_root = true;
                open_elements.push((
                    String::from_utf8_lossy(start.name().as_ref()).into_owned(),
                    before,
                ));
            }
            Event::Empty(_) => had_root = true,
            Event::End(_) => {
                open_elements.pop();
            }
            _ => {}
        }
        let (start, empty) = match &event {
            Event::Start(start) => (start, false),
            Event::Empty(start) => (start, true),
            Event::End(_) => {
                if let Some(open) = stack.pop() {
                    if let Some((local, is_ref, span)) = &open.xsd {
                        check_children(local, *is_ref, *span, &open.children, &mut problems);
                    }
                }
                continue;
            }
            Event::Eof => {
                if let Some((name, at)) = open_elements.last() {
                    let at = map.span_at(*at);
                    problems.push(ScanProblem {
                        span: map.span_at(text.len()),
                        construct: "the schema document".into(),
                        message: format!(
                            "not well-formed XML: the document ends inside <{name}> (opened at {}:{}), with {} element(s) still open",
                            at.line,
                            at.column,
                            open_elements.len()
                        ),
                        hint: None,
                        kind: Kind::Invalid,
                    });
                } else if !had_root {
                    problems.push(ScanProblem {
                        span: map.span_at(text.len()),
                        construct: "the schema document".into(),
                        message: "not well-formed XML: no root element (an empty document?)".into(),
                        hint: None,
                        kind: Kind::Invalid,
                    });
                }
                break;
            }
            // Text outside the root element: the file is not XML (a text file an include
            // named, say). Said without repeating it: its bytes are not the schema's to show.
            Event::Text(t) if stack.len() == 1 && !t.iter().all(|b| b.is_ascii_whitespace()) => {
                problems.push(ScanProblem {
                    span: map.span_at(before),
                    construct: "the schema document".into(),
                    message: format!(
                        "not well-formed XML: text outside the root element (the file is {} bytes; not an XML schema document?)",
                        text.len()
                    ),
                    hint: None,
                    kind: Kind::Invalid,
                });
                break;
            }
            _ => continue,
        };
        // Offset of `<`: text before an element is a separate event, so `before` is it.
        let span = map.span_at(before + text[before..].find('<').unwrap_or(0));
        let parent_free = stack.last().map(|o| o.free).unwrap_or(false);
        if parent_free {
            if !empty {
                stack.push(Open {
                    key: String::new(),
                    counts: HashMap::new(),
                    free: true,
                    declared: Vec::new(),
                    xsd: None,
                    children: Vec::new(),
                });
            }
            continue;
        }
        let mut declared = Vec::new();
        for attr in start.attributes().flatten() {
            let key = attr.key.as_ref();
            if key == b"xmlns" {
                declared.push((Vec::new(), attr.value.to_vec()));
            } else if let Some(prefix) = key.strip_prefix(b"xmlns:") {
                // Namespaces in XML 1.0, 3 (Namespace constraint: No Prefix Undeclaring):
                // a prefix's declaration names a namespace; `xmlns:p=""` is Namespaces 1.1's
                // undeclaring, and a 1.0 document with it is not namespace-well-formed.
                if attr.value.is_empty() {
                    let prefix = String::from_utf8_lossy(prefix);
                    problems.push(ScanProblem {
                        span,
                        construct: "the schema document".into(),
                        message: format!(
                            "not namespace-well-formed: xmlns:{prefix}=\"\" undeclares a prefix, which Namespaces in XML 1.0 does not allow"
                        ),
                        hint: Some(format!("remove xmlns:{prefix}=\"\", or bind the prefix to a namespace name")),
                        kind: Kind::Invalid,
                    });
                }
                declared.push((prefix.to_vec(), attr.value.to_vec()));
            }
        }
        // Namespaces in scope: this element's declarations first, then its ancestors'.
        let resolve = |prefix: &[u8]| -> Option<Vec<u8>> {
            declared
                .iter()
                .rev()
                .chain(stack.iter().rev().flat_map(|o| o.declared.iter().rev()))
                .find(|(p, _)| p == prefix)
                .map(|(_, ns)| ns.clone())
        };
        let name = start.name();
        let (prefix, local) = split_name(name.as_ref());
        // The XSD namespace by a prefix or as the default namespace.
        let is_xs = resolve(prefix.unwrap_or(b"")).as_deref() == Some(XS_NS);
        // Attributes with a prefix of another namespace than XSD's are allowed on every XSD
        // element (Part 1, the schema for schemas: anyAttribute namespace="##other") and
        // mean nothing to validation.
        let foreign: Vec<Vec<u8>> = start
            .attributes()
            .flatten()
            .filter_map(|a| {
                let (p, _) = split_name(a.key.as_ref());
                let p = p?;
                (p != b"xmlns" && p != b"xml" && resolve(p).is_some_and(|ns| ns != XS_NS))
                    .then(|| a.key.as_ref().to_vec())
            })
            .collect();
        let local = String::from_utf8_lossy(local).into_owned();
        let enumeration_scope = (is_xs && local == "enumeration").then(|| {
            // The prefix of each white-space-separated token (a list of QNames has
            // several), and the default namespace for an unprefixed one.
            let value = start
                .attributes()
                .flatten()
                .find(|a| a.key.as_ref() == b"value")
                .map(|a| a.value.to_vec())
                .unwrap_or_default();
            let mut scope: Vec<(String, String)> = Vec::new();
            for token in value
                .split(|b| b.is_ascii_whitespace())
                .filter(|t| !t.is_empty())
            {
                let prefix = match token.iter().position(|&b| b == b':') {
                    Some(colon) => &token[..colon],
                    None => &b""[..],
                };
                if prefix == b"xml" {
                    continue;
                }
                if let Some(ns) = resolve(prefix).filter(|ns| !ns.is_empty()) {
                    let binding = (
                        String::from_utf8_lossy(prefix).into_owned(),
                        String::from_utf8_lossy(&ns).into_owned(),
                    );
                    if !scope.contains(&binding) {
                        scope.push(binding);
                    }
                }
            }
            scope
        });
        let parent = stack
            .last_mut()
            .expect("the document level is never popped");
        let index = {
            let c = parent.counts.entry(local.clone()).or_insert(0);
            *c += 1;
            *c - 1
        };
        let key = format!("{}/{}[{}]", parent.key, local, index);
        map.positions.insert(key.clone(), span);
        if is_xs && (local == "selector" || local == "field") {
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            let scope = stack
                .iter()
                .flat_map(|o| o.declared.iter())
                .chain(declared.iter())
                .map(|(p, ns)| (text(p), text(ns)))
                .collect();
            map.xpath_scopes.insert(key.clone(), scope);
        }
        if let Some(scope) = enumeration_scope.filter(|s| !s.is_empty()) {
            map.value_scopes.insert(key.clone(), scope);
        }
        let free = is_xs && (local == "documentation" || local == "appinfo");
        if !is_xs {
            problems.push(ScanProblem {
                span,
                construct: format!("<{}>", String::from_utf8_lossy(name.as_ref())),
                message: "an element outside the XSD namespace where the schema expects XSD markup"
                    .into(),
                hint: Some("bind the prefix to http://www.w3.org/2001/XMLSchema".into()),
                kind: Kind::Invalid,
            });
        } else {
            check_attributes(start, &local, &span, &foreign, &mut problems);
            check_names(start, &local, &span, &mut ids, &mut problems);
        }
        let is_ref = start
            .attributes()
            .flatten()
            .any(|a| a.key.as_ref() == b"ref");
        let parent_local = stack
            .last()
            .and_then(|o| o.xsd.as_ref())
            .map(|(l, _, _)| l.clone());
        if is_xs {
            check_placement(start, &local, parent_local.as_deref(), &span, &mut problems);
        }
        // An extension or restriction of simple content takes attributes only: checked
        // under its own name.
        let checked_as = match (local.as_str(), parent_local.as_deref()) {
            ("extension", Some("simpleContent")) => "simpleContent extension".to_string(),
            _ => local.clone(),
        };
        let xsd = is_xs.then_some((checked_as, is_ref, span));
        if is_xs {
            if let Some(parent) = stack.last_mut() {
                parent.children.push((local.clone(), span));
            }
        }
        if empty {
            if let Some((local, is_ref, span)) = &xsd {
                check_children(local, *is_ref, *span, &[], &mut problems);
            }
        } else {
            stack.push(Open {
                key,
                counts: HashMap::new(),
                free,
                declared,
                xsd,
                children: Vec::new(),
            });
        }
    }
    (map, problems)
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
/// `alternative` from 1.1) orders it; `None`: not checked here (free content, or facets,
/// which the conversion reads one by one).
fn content_slots(parent: &str, is_ref: bool) -> Option<Vec<Slot>> {
    if is_ref && matches!(parent, "element" | "attribute" | "group" | "attributeGroup") {
        return Some(vec![ANNOTATION]);
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
    span: Span,
    children: &[(String, Span)],
    problems: &mut Vec<ScanProblem>,
) {
    let Some(mut slots) = content_slots(parent, is_ref) else {
        return;
    };
    // A complex type has simple or complex content, or else a particle and attributes.
    if parent == "complexType"
        && children
            .iter()
            .any(|(c, _)| c == "simpleContent" || c == "complexContent")
    {
        slots = vec![ANNOTATION, (&["simpleContent", "complexContent"], 1, 1)];
    }
    let parent = parent.rsplit(' ').next().unwrap_or(parent);
    let construct = format!("xs:{parent}");
    let mut next = 0;
    for (names, min, max) in &slots {
        let mut count = 0;
        while next < children.len() && count < *max && names.contains(&children[next].0.as_str()) {
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
fn check_placement(
    start: &BytesStart<'_>,
    local: &str,
    parent: Option<&str>,
    span: &Span,
    problems: &mut Vec<ScanProblem>,
) {
    if !matches!(
        local,
        "simpleType" | "complexType" | "group" | "attributeGroup" | "element" | "attribute"
    ) {
        return;
    }
    let has = |name: &[u8]| start.attributes().flatten().any(|a| a.key.as_ref() == name);
    let global = matches!(parent, Some("schema" | "redefine" | "override"));
    let message = match local {
        "simpleType" | "complexType" if global && !has(b"name") => "a global type needs a name",
        "simpleType" | "complexType" if !global && has(b"name") => {
            "a local (anonymous) type takes no name"
        }
        "group" | "attributeGroup" if global && !has(b"name") => "a global group needs a name",
        "group" | "attributeGroup" if !global && has(b"name") => {
            "a group inside a definition is a reference: it takes ref=, not name="
        }
        "element" | "attribute" if global && has(b"ref") => {
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

/// Whether `s` is an NCName: an XML 1.0 (Fifth Edition) Name without a colon.
fn is_ncname(s: &str) -> bool {
    let start = |c: char| {
        matches!(c,
            'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
            | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
            | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
            | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
            | '\u{10000}'..='\u{EFFFF}')
    };
    let mut chars = s.chars();
    chars.next().is_some_and(start)
        && chars.all(|c| {
            start(c)
                || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
        })
}

/// `name` attributes are NCNames; `id` attributes are IDs (NCNames), unique in the file.
fn check_names(
    start: &BytesStart<'_>,
    local: &str,
    span: &Span,
    ids: &mut HashMap<String, Span>,
    problems: &mut Vec<ScanProblem>,
) {
    let construct = format!("xs:{local}");
    for attr in start.attributes().flatten() {
        let key = attr.key.as_ref();
        if key != b"name" && key != b"id" {
            continue;
        }
        let value = attr
            .decode_and_unescape_value(start.decoder())
            .map(|v| v.into_owned())
            .unwrap_or_else(|_| String::from_utf8_lossy(&attr.value).into_owned());
        // XSD's whiteSpace collapse applies to both (NCName and ID are tokens).
        let value = value.trim();
        let attr_name = String::from_utf8_lossy(key);
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
        if key == b"id" {
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

/// The text xsd-parser reads: `text` with every literal white space character inside an
/// attribute value (tab, line feed, carriage return; a CR LF pair is one line end) replaced
/// by a space, as XML 1.0 (5th edition) 2.11 and 3.3.3 normalize attribute values before
/// any application sees them: `pattern value='(Foo)<TAB>(Bar)'` is the pattern `(Foo)
/// (Bar)`, and a `fixed=` value broken over two lines holds a space where the line broke.
/// quick-xml unescapes values but does not normalize them. Character references (`&#9;`)
/// are left as written, so after unescaping they still stand for the character itself, as
/// 3.3.3 says. Nothing outside attribute values changes (text, comments, CDATA sections,
/// processing instructions, the document type declaration), so the elements and their
/// order are those [`scan`] keys on the unchanged text.
pub(super) fn normalized_attribute_values(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    if !b.iter().any(|c| matches!(c, b'\t' | b'\n' | b'\r')) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(b.len());
    let mut changed = false;
    // Copies from `i` through the first `end` (or to the end of the text); where it stops.
    let copy_past = |out: &mut Vec<u8>, i: usize, end: &[u8]| -> usize {
        let stop = b[i..]
            .windows(end.len())
            .position(|w| w == end)
            .map_or(b.len(), |p| i + p + end.len());
        out.extend_from_slice(&b[i..stop]);
        stop
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if b[i] != b'<' {
            out.push(b[i]);
            i += 1;
        } else if rest.starts_with(b"<!--") {
            i = copy_past(&mut out, i, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = copy_past(&mut out, i, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = copy_past(&mut out, i, b"?>");
        } else if rest.starts_with(b"<!") {
            // The document type declaration: its internal subset holds `>` inside brackets
            // and quoted literals.
            let (mut depth, mut quote) = (0usize, None);
            while i < b.len() {
                let c = b[i];
                out.push(c);
                i += 1;
                match quote {
                    Some(q) if c == q => quote = None,
                    Some(_) => {}
                    None if c == b'"' || c == b'\'' => quote = Some(c),
                    None if c == b'[' => depth += 1,
                    None if c == b']' => depth = depth.saturating_sub(1),
                    None if c == b'>' && depth == 0 => break,
                    None => {}
                }
            }
        } else {
            // A start or end tag, with its quoted attribute values.
            let mut quote = None;
            while i < b.len() {
                let c = b[i];
                i += 1;
                match quote {
                    Some(q) if c == q => quote = None,
                    Some(_) if matches!(c, b'\t' | b'\n' | b'\r') => {
                        // CR LF is one line end (2.11): one space.
                        if c == b'\r' && b.get(i) == Some(&b'\n') {
                            i += 1;
                        }
                        out.push(b' ');
                        changed = true;
                        continue;
                    }
                    Some(_) => {}
                    None if c == b'"' || c == b'\'' => quote = Some(c),
                    None if c == b'>' => {
                        out.push(c);
                        break;
                    }
                    None => {}
                }
                out.push(c);
            }
        }
    }
    if !changed {
        return std::borrow::Cow::Borrowed(text);
    }
    // Only ASCII bytes were replaced, by ASCII: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_string()))
}

fn split_name(name: &[u8]) -> (Option<&[u8]>, &[u8]) {
    match name.iter().position(|&b| b == b':') {
        Some(i) => (Some(&name[..i]), &name[i + 1..]),
        None => (None, name),
    }
}

fn check_attributes(
    start: &BytesStart<'_>,
    local: &str,
    span: &Span,
    foreign: &[Vec<u8>],
    problems: &mut Vec<ScanProblem>,
) {
    let construct = format!("xs:{local}");
    let supported = allowed_attributes(local);
    if supported.is_none() {
        if !xsd_element_known(local) {
            problems.push(ScanProblem {
                span: *span,
                construct,
                message: format!("xs:{local} is not an element of XSD 1.0"),
                hint: None,
                kind: Kind::Invalid,
            });
            return;
        }
        let hint = match local {
            "override" => Some("put every type the documents need in one schema file".to_string()),
            _ => None,
        };
        problems.push(ScanProblem {
            span: *span,
            construct: construct.clone(),
            message: format!("xs:{local} is not supported by boardxml-codegen"),
            hint,
            kind: Kind::Unsupported,
        });
        if xsd10_attributes(local).is_none() {
            // XSD 1.1's own elements: their attributes are not judged.
            return;
        }
    }
    // An element not supported still has its attributes checked against XSD 1.0's.
    let allowed = supported.or_else(|| xsd10_attributes(local)).unwrap_or(&[]);
    for attr in start.attributes() {
        let attr = match attr {
            Ok(attr) => attr,
            Err(error) => {
                problems.push(ScanProblem {
                    span: *span,
                    construct: construct.clone(),
                    message: format!("malformed attribute: {error}"),
                    hint: None,
                    kind: Kind::Invalid,
                });
                continue;
            }
        };
        let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
        // Namespace declarations, xml:lang and the versioning namespace's attributes
        // (vc:minVersion) are about the document, not the construct.
        if key == "xmlns"
            || key.starts_with("xmlns:")
            || key.starts_with("xml:")
            || key.starts_with("vc:")
            || foreign.iter().any(|f| f == attr.key.as_ref())
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
                | (
                    "selector" | "field" | "unique" | "key" | "keyref",
                    "xpathDefaultNamespace" | "ref"
                )
        );
        if (valid || xsd11) && supported.is_none() {
            // The element is refused as a whole already.
            continue;
        }
        // XSD 1.1's negative wildcards on a supported xs:any: not supported (as they
        // were when xs:any was refused as a whole), not unknown.
        let valid = valid || (xsd11 && local == "any");
        let (message, hint) = if valid {
            (
                format!("attribute {key} on xs:{local} is not supported by boardxml-codegen"),
                None,
            )
        } else {
            let close = allowed
                .iter()
                .min_by_key(|a| edit_distance(a, &key))
                .filter(|a| edit_distance(a, &key) <= 2)
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

    #[test]
    fn attribute_values_are_normalized_as_xml_reads_them() {
        // Literal tab, CR, LF and CR LF in values become one space each; a character
        // reference, text, comments and CDATA keep theirs.
        let text = "<?xml version='1.0'?>\r\n<!-- a\tb -->\r\n<s a='x\ty' b=\"p\r\nq\rr\ns\" c='&#9;'>\tt<![CDATA[\t]]></s>";
        assert_eq!(
            normalized_attribute_values(text),
            "<?xml version='1.0'?>\r\n<!-- a\tb -->\r\n<s a='x y' b=\"p q r s\" c='&#9;'>\tt<![CDATA[\t]]></s>"
        );
        // A quote of the other kind inside a value, and `>` inside a doctype's subset.
        let text = "<!DOCTYPE s [<!ATTLIST s a CDATA '>'>]><s a=\"it's\t\" b='\"\n'/>";
        assert_eq!(
            normalized_attribute_values(text),
            "<!DOCTYPE s [<!ATTLIST s a CDATA '>'>]><s a=\"it's \" b='\" '/>"
        );
        assert!(matches!(
            normalized_attribute_values("<s a='b'>\n</s>"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn keys_count_siblings_of_the_same_name() {
        let text = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n  <xs:simpleType name=\"A\"><xs:restriction base=\"xs:string\"/></xs:simpleType>\n  <xs:complexType name=\"B\"/>\n  <xs:simpleType name=\"C\">\n    <xs:restriction base=\"xs:string\"><xs:pattern value=\"x\"/></xs:restriction>\n  </xs:simpleType>\n</xs:schema>";
        let (map, problems) = scan(text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            map.span("/schema[0]/simpleType[1]"),
            Span { line: 4, column: 3 }
        );
        assert_eq!(
            map.span("/schema[0]/simpleType[1]/restriction[0]/pattern[0]"),
            Span {
                line: 5,
                column: 38
            }
        );
    }

    #[test]
    fn a_misspelt_attribute_is_an_error_with_a_hint() {
        let text = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n<xs:complexType name=\"A\"><xs:attribute name=\"a\" usee=\"required\"/></xs:complexType></xs:schema>";
        let (_, problems) = scan(text);
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
