//! SARIF 2.1.0 for code scanning: one run, a rule per diagnostic code (described from
//! `docs/errors.md`), a result per diagnostic with its physical location (line, column,
//! byte offset) relative to `%SRCROOT%`, and `partialFingerprints` that do not depend on
//! line numbers, so that a finding keeps its identity when lines move.

use std::fmt::Write as _;
use std::path::{Component, Path};

use serde_json::{json, Value};

use super::codes;
use super::codes::Catalog;
use super::policy::Summary;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::validate::Report;

/// The `partialFingerprints` key of boardxml's results.
pub const FINGERPRINT_KEY: &str = "boardxml/v1";

/// Where a file is, as SARIF names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// The URI: relative (with `/`, percent-encoded) under the root, else a `file://` URI.
    pub uri: String,
    /// Whether `uri` is relative to `%SRCROOT%`.
    pub relative: bool,
}

impl Artifact {
    /// `path` as a URI relative to `root` where it lies under it (lexically: `a/../b` is
    /// `b`), else as an absolute `file://` URI.
    pub fn of(path: &Path, root: &Path) -> Artifact {
        let absolute = if path.is_absolute() {
            path.to_owned()
        } else {
            root.join(path)
        };
        let mut parts: Vec<String> = Vec::new();
        for c in absolute.components() {
            match c {
                Component::ParentDir => {
                    parts.pop();
                }
                Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
                _ => {}
            }
        }
        let root_parts: Vec<String> = root
            .components()
            .filter_map(|c| match c {
                Component::Normal(p) => Some(p.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        let encode = |parts: &[String]| {
            parts
                .iter()
                .map(|p| percent_encode(p))
                .collect::<Vec<_>>()
                .join("/")
        };
        if parts.len() > root_parts.len() && parts.starts_with(&root_parts) {
            Artifact {
                uri: encode(&parts[root_parts.len()..]),
                relative: true,
            }
        } else {
            Artifact {
                uri: format!("file:///{}", encode(&parts)),
                relative: false,
            }
        }
    }

    fn location(&self) -> Value {
        if self.relative {
            json!({"uri": self.uri, "uriBaseId": "%SRCROOT%"})
        } else {
            json!({"uri": self.uri})
        }
    }
}

/// A path segment as a URI segment: unreserved characters as they are, every other byte
/// of its UTF-8 as `%XX`.
fn percent_encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The stable part of a finding's fingerprint: a hash (FNV-1a, 64 bits, fixed for good)
/// of its code, file URI, element path and message; not of its line or column, so that
/// an edit above it does not make it a new finding. [`super::run::Run`] appends `:N` to
/// number equal findings in one run.
pub fn fingerprint(d: &Diagnostic, uri: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [d.code.as_str(), uri, &d.path, &d.message] {
        for b in part.bytes().chain([0u8]) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// The results of a run, gathered until its end.
#[derive(Debug)]
pub struct Builder {
    results: Vec<Value>,
    /// The codes the tool reports: SARIF's rules, in this order.
    catalog: Catalog,
}

impl Builder {
    /// A run of a tool that reports the codes of `catalog`.
    pub fn new(catalog: Catalog) -> Builder {
        Builder {
            results: Vec::new(),
            catalog,
        }
    }

    /// Adds diagnostic `d` of `report`, found in `artifact`, with its fingerprint; `fails`
    /// tells whether it fails the run (an allowed code's does not: it is a `note`).
    pub fn add(
        &mut self,
        report: &Report,
        d: &Diagnostic,
        artifact: &Artifact,
        fingerprint: String,
        fails: bool,
    ) {
        let (line, column) = report.line_column(d);
        let mut region = serde_json::Map::new();
        if line > 0 {
            region.insert("startLine".into(), json!(line));
            region.insert("startColumn".into(), json!(column.max(1)));
        }
        if let Some(offset) = file_offset(report, d) {
            region.insert("byteOffset".into(), json!(offset));
        }
        let mut physical = json!({"artifactLocation": artifact.location()});
        if !region.is_empty() {
            physical["region"] = Value::Object(region);
        }
        let mut location = json!({"physicalLocation": physical});
        if !d.path.is_empty() {
            location["logicalLocations"] = json!([{
                "fullyQualifiedName": d.path,
                "kind": if d.path.contains("/@") { "member" } else { "element" },
            }]);
        }
        let level = match (d.severity, fails) {
            (_, true) => "error",
            (Severity::Warning, false) => "warning",
            (Severity::Error | Severity::Note, false) => "note",
        };
        let mut text = d.message.clone();
        if let Some(e) = &d.expected {
            let _ = write!(text, "; expected {e}");
        }
        if let Some(f) = &d.found {
            let _ = write!(text, ", found {f}");
        }
        if !d.path.is_empty() {
            let _ = write!(text, " (at {})", d.path);
        }
        let mut result = json!({
            "ruleId": d.code.as_str(),
            "ruleIndex": self.catalog.position(d.code).unwrap_or(0),
            "level": level,
            "message": {"text": text},
            "locations": [location],
            "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        });
        let mut properties = serde_json::Map::new();
        if let Some(f) = report.format {
            properties.insert("format".into(), json!(f));
        }
        if let Some(e) = &d.expected {
            properties.insert("expected".into(), json!(e));
        }
        if let Some(f) = &d.found {
            properties.insert("found".into(), json!(f));
        }
        if !properties.is_empty() {
            result["properties"] = Value::Object(properties);
        }
        self.results.push(result);
    }

    /// The SARIF log, pretty-printed, with a line end.
    pub fn finish(self, root: &Path, summary: &Summary) -> String {
        let rules: Vec<Value> = self.catalog.codes().map(rule).collect();
        let mut run = json!({
            "tool": {"driver": {
                "name": "boardxml",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": summary.exit_code != 2,
                "exitCode": summary.exit_code,
            }],
            "columnKind": "unicodeCodePoints",
            "results": self.results,
        });
        if let Some(base) = root_uri(root) {
            run["originalUriBaseIds"] = json!({"%SRCROOT%": {"uri": base}});
        }
        let log = json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [run],
        });
        let mut out = serde_json::to_string_pretty(&log).unwrap_or_default();
        out.push('\n');
        out
    }
}

/// The root folder as an absolute `file:` URI ending in `/`, as SARIF wants a base.
fn root_uri(root: &Path) -> Option<String> {
    if !root.is_absolute() {
        return None;
    }
    let parts: Vec<String> = root
        .components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(percent_encode(&p.to_string_lossy())),
            _ => None,
        })
        .collect();
    Some(if parts.is_empty() {
        "file:///".to_owned()
    } else {
        format!("file:///{}/", parts.join("/"))
    })
}

/// The diagnostic's offset in the file's bytes, where it is known: E0102's offset is one
/// already; other offsets are in the decoded text, the same as in the file for UTF-8
/// without a byte order mark, three bytes on with one; for other encodings, unknown.
fn file_offset(report: &Report, d: &Diagnostic) -> Option<usize> {
    if d.code == Code::INVALID_BYTES {
        Some(d.offset)
    } else if d.code == Code::IO {
        None
    } else if report.encoding == encoding_rs::UTF_8 {
        Some(d.offset + if report.bom { 3 } else { 0 })
    } else {
        None
    }
}

/// The reporting descriptor of `code`, from its row in `docs/errors.md`.
fn rule(code: Code) -> Value {
    let doc = codes::doc(code);
    let meaning = doc.map(|d| d.meaning_text()).unwrap_or_default();
    let markdown = doc.map(|d| d.meaning).unwrap_or_default();
    let fatal = code.is_fatal();
    let warning = doc.is_some_and(|d| d.warning);
    let short = format!("{}: {}", code.name(), first_clause(&meaning));
    let full = format!(
        "{meaning}{}",
        if fatal {
            " (fatal: reading the document stops here)"
        } else {
            ""
        }
    );
    json!({
        "id": code.as_str(),
        "name": code.name(),
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {
            "text": format!("{} {}: {meaning}. The table of codes: docs/errors.md.", code.as_str(), code.name()),
            "markdown": format!("**{}** `{}`: {markdown}. The table of codes: `docs/errors.md`.", code.as_str(), code.name()),
        },
        "defaultConfiguration": {"level": if warning { "warning" } else { "error" }},
        "properties": {"fatal": fatal, "tags": ["boardxml"]},
    })
}

/// The meaning up to its first parenthesis or semicolon: short enough for a title.
fn first_clause(meaning: &str) -> &str {
    let end = meaning
        .find([';', '('])
        .map(|i| i.min(meaning.len()))
        .unwrap_or(meaning.len());
    meaning[..end].trim_end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_the_root_are_relative_others_absolute() {
        let root = Path::new("/work/repo");
        let a = Artifact::of(Path::new("examples/a b.cbf"), root);
        assert_eq!((a.uri.as_str(), a.relative), ("examples/a%20b.cbf", true));
        let a = Artifact::of(Path::new("/work/repo/./x/../y.cif"), root);
        assert_eq!((a.uri.as_str(), a.relative), ("y.cif", true));
        let a = Artifact::of(Path::new("../shared/c.cbf"), root);
        assert_eq!(
            (a.uri.as_str(), a.relative),
            ("file:///work/shared/c.cbf", false)
        );
        let a = Artifact::of(Path::new("象棋.cbf"), root);
        assert_eq!(a.uri, "%E8%B1%A1%E6%A3%8B.cbf");
    }

    #[test]
    fn fingerprints_ignore_positions() {
        let d = Diagnostic::error(Code::PATTERN, 10, "/a/@b", "m");
        let mut moved = d.clone();
        moved.offset = 99;
        moved.line = 7;
        assert_eq!(fingerprint(&d, "f"), fingerprint(&moved, "f"));
        assert_ne!(fingerprint(&d, "f"), fingerprint(&d, "g"));
    }
}
