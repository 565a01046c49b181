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

use crate::ir::Span;

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
}

/// Positions of the XSD elements of one file.
#[derive(Debug, Default)]
pub struct SourceMap {
    positions: HashMap<String, Span>,
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

    fn span_at(&self, offset: usize) -> Span {
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
            "id",
        ],
        "attribute" => &["name", "ref", "type", "use", "default", "fixed", "id"],
        "group" => &["name", "ref", "minOccurs", "maxOccurs", "id"],
        "attributeGroup" => &["name", "ref", "id"],
        "simpleType" => &["name", "id"],
        "complexType" => &["name", "mixed", "id"],
        "sequence" | "choice" | "all" => &["minOccurs", "maxOccurs", "id"],
        "restriction" | "extension" => &["base", "id"],
        "list" => &["itemType", "id"],
        "union" => &["memberTypes", "id"],
        "simpleContent" => &["id"],
        "annotation" => &["id"],
        "documentation" => &["source"],
        "appinfo" => &["source"],
        "alternative" => &["test", "type", "id"],
        "enumeration" | "pattern" => &["value", "id"],
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
    }
    let mut stack: Vec<Open> = vec![Open {
        key: String::new(),
        counts: HashMap::new(),
        free: false,
    }];
    // Prefixes bound to the XSD namespace (no namespace scoping beyond the document is
    // needed: schemas bind it once on xs:schema).
    let mut xs_prefixes: Vec<Vec<u8>> = Vec::new();
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
                });
                break;
            }
        };
        let (start, empty) = match &event {
            Event::Start(start) => (start, false),
            Event::Empty(start) => (start, true),
            Event::End(_) => {
                stack.pop();
                continue;
            }
            Event::Eof => break,
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
                });
            }
            continue;
        }
        for attr in start.attributes().flatten() {
            let key = attr.key.as_ref();
            if key.starts_with(b"xmlns:") && attr.value.as_ref() == XS_NS {
                xs_prefixes.push(key[6..].to_vec());
            }
        }
        let name = start.name();
        let (prefix, local) = split_name(name.as_ref());
        let is_xs = match prefix {
            Some(p) => xs_prefixes.iter().any(|x| x == p),
            None => false,
        };
        let local = String::from_utf8_lossy(local).into_owned();
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
        let free = is_xs && (local == "documentation" || local == "appinfo");
        if !is_xs {
            problems.push(ScanProblem {
                span,
                construct: format!("<{}>", String::from_utf8_lossy(name.as_ref())),
                message: "an element outside the XSD namespace where the schema expects XSD markup"
                    .into(),
                hint: Some("bind the prefix to http://www.w3.org/2001/XMLSchema".into()),
            });
        } else {
            check_attributes(start, &local, &span, &mut problems);
        }
        if !empty {
            stack.push(Open {
                key,
                counts: HashMap::new(),
                free,
            });
        }
    }
    (map, problems)
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
    problems: &mut Vec<ScanProblem>,
) {
    let construct = format!("xs:{local}");
    let Some(allowed) = allowed_attributes(local) else {
        let hint = match local {
            "complexContent" => {
                Some("write the content model directly in the complex type".to_string())
            }
            "include" | "import" | "redefine" | "override" => {
                Some("put every type the documents need in one schema file".to_string())
            }
            _ => None,
        };
        problems.push(ScanProblem {
            span: *span,
            construct,
            message: format!("xs:{local} is not supported by boardxml-codegen"),
            hint,
        });
        return;
    };
    for attr in start.attributes() {
        let attr = match attr {
            Ok(attr) => attr,
            Err(error) => {
                problems.push(ScanProblem {
                    span: *span,
                    construct: construct.clone(),
                    message: format!("malformed attribute: {error}"),
                    hint: None,
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
        {
            continue;
        }
        if allowed.contains(&key.as_str()) {
            continue;
        }
        let known_elsewhere = [
            "targetNamespace",
            "nillable",
            "abstract",
            "substitutionGroup",
            "block",
            "final",
            "form",
            "blockDefault",
            "finalDefault",
            "xpathDefaultNamespace",
            "defaultAttributes",
            "inheritable",
            "processContents",
            "namespace",
        ];
        let (message, hint) = if known_elsewhere.contains(&key.as_str()) {
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
    fn keys_count_siblings_of_the_same_name() {
        let text = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n  <xs:simpleType name=\"A\"/>\n  <xs:complexType name=\"B\"/>\n  <xs:simpleType name=\"C\">\n    <xs:restriction base=\"xs:string\"><xs:pattern value=\"x\"/></xs:restriction>\n  </xs:simpleType>\n</xs:schema>";
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
