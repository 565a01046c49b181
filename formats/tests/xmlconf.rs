//! The W3C XML Conformance Test Suite (`../shared/conformance/xmlconf.tar.gz`) through the
//! entry point of `boardxml validate --xml-only`, in process.
//!
//! Every XML 1.0 (5th edition) / Namespaces 1.0 test is run: a not-wf document must get an
//! E01xx finding (one with a DOCTYPE may get it through E0105, the refusal of DTDs: those
//! are counted apart from the ones refused for another reason); a well-formed one (types
//! valid and invalid) must get no finding, or, if it has a DOCTYPE, E0105 alone, or the
//! note E0107 alone when its DOCTYPE only names an external DTD (not read, not applied:
//! a note is no finding, so a not-wf document must still get an E01xx error). XML 1.1
//! tests, tests of other editions, `error` tests (a processor may or may not report them),
//! tests not checked for namespaces (NAMESPACE="no") and tests whose file the tarball lacks
//! are skipped and counted. Exceptions are listed in `tests/xmlconf-known-failures.txt`;
//! the test fails on an unlisted failure and on a listed case that passes.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use boardxml_formats::validate::{validate_bytes, Options};

/// The suite's catalogs, one per group of tests (xmlconf.xml includes them as external
/// entities, which boardxml does not read).
const CATALOGS: &[&str] = &[
    "xmltest/xmltest.xml",
    "japanese/japanese.xml",
    "sun/sun-valid.xml",
    "sun/sun-invalid.xml",
    "sun/sun-not-wf.xml",
    "sun/sun-error.xml",
    "oasis/oasis.xml",
    "ibm/ibm_oasis_invalid.xml",
    "ibm/ibm_oasis_not-wf.xml",
    "ibm/ibm_oasis_valid.xml",
    "ibm/xml-1.1/ibm_invalid.xml",
    "ibm/xml-1.1/ibm_not-wf.xml",
    "ibm/xml-1.1/ibm_valid.xml",
    "eduni/errata-2e/errata2e.xml",
    "eduni/xml-1.1/xml11.xml",
    "eduni/namespaces/1.0/rmt-ns10.xml",
    "eduni/namespaces/1.1/rmt-ns11.xml",
    "eduni/errata-3e/errata3e.xml",
    "eduni/namespaces/errata-1e/errata1e.xml",
    "eduni/errata-4e/errata4e.xml",
];

/// A test of a catalog: its attributes.
struct Case {
    attributes: BTreeMap<String, String>,
    /// The file, resolved against the catalog's folder.
    file: PathBuf,
}

impl Case {
    fn get(&self, name: &str) -> &str {
        self.attributes.get(name).map_or("", String::as_str)
    }
}

/// The `<TEST>` elements of a catalog (comments left out), by a small scan: the catalogs
/// are plain, and some have a DOCTYPE boardxml would refuse.
fn cases(catalog: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(catalog).expect("a catalog");
    let mut text_without_comments = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("<!--") {
        text_without_comments.push_str(&rest[..i]);
        rest = rest[i..].find("-->").map_or("", |j| &rest[i + j + 3..]);
    }
    text_without_comments.push_str(rest);
    let folder = catalog.parent().expect("a folder");
    let mut out = Vec::new();
    let mut rest = text_without_comments.as_str();
    while let Some(i) = rest.find("<TEST") {
        rest = &rest[i + 5..];
        if !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let end = rest.find('>').expect("the end of <TEST");
        let mut attributes = BTreeMap::new();
        let mut tag = &rest[..end];
        while let Some(eq) = tag.find('=') {
            let name = tag[..eq].trim().to_string();
            let after = tag[eq + 1..].trim_start();
            let quote = after.chars().next().expect("a quote");
            let close = after[1..].find(quote).expect("a closing quote");
            attributes.insert(name, after[1..1 + close].to_string());
            tag = &after[close + 2..];
        }
        let uri = attributes.get("URI").expect("a URI").clone();
        out.push(Case {
            attributes,
            file: folder.join(uri),
        });
        rest = &rest[end..];
    }
    out
}

/// Why a test is not run, if it is not.
fn skip_reason(case: &Case) -> Option<&'static str> {
    let version = case.get("VERSION");
    let recommendation = case.get("RECOMMENDATION");
    let edition = case.get("EDITION");
    if case.get("TYPE") == "error" {
        return Some("type error (reporting is optional)");
    }
    if recommendation.starts_with("XML1.1")
        || recommendation.starts_with("NS1.1")
        || (!version.is_empty() && !version.split_whitespace().any(|v| v == "1.0"))
    {
        return Some("XML 1.1 / Namespaces 1.1");
    }
    if !edition.is_empty() && !edition.split_whitespace().any(|e| e == "5") {
        return Some("not for the 5th edition");
    }
    if case.get("NAMESPACE") == "no" {
        return Some("not namespace-well-formed by design (NAMESPACE=\"no\")");
    }
    if !case.file.is_file() {
        return Some("file missing from the tarball");
    }
    None
}

/// Whether the bytes hold a DOCTYPE (in UTF-8 or UTF-16).
fn has_doctype(bytes: &[u8]) -> bool {
    let find = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    find(b"<!DOCTYPE")
        || find(b"<\0!\0D\0O\0C\0T\0Y\0P\0E\0")
        || find(b"\0<\0!\0D\0O\0C\0T\0Y\0P\0E")
}

#[test]
fn the_w3c_xml_conformance_suite() {
    let Some(conformance) = common::shared("conformance") else {
        return;
    };
    let started = std::time::Instant::now();
    let mut gz = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(conformance.join("xmlconf.tar.gz")).expect("xmlconf.tar.gz"),
    )
    .read_to_end(&mut gz)
    .expect("a gzip file");
    let dir = tempfile::TempDir::new().expect("a temporary folder");
    common::untar(&gz, dir.path());
    let root = dir.path().join("xmlconf");

    let known_text = std::fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join("formats/tests/xmlconf-known-failures.txt"),
    )
    .expect("tests/xmlconf-known-failures.txt");
    let known: BTreeSet<&str> = known_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().expect("an id"))
        .collect();

    let options = Options {
        xml_only: true,
        keep_document: false,
        ..Options::default()
    };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut count = |what: &str| *counts.entry(what.to_string()).or_default() += 1;
    let mut failures = Vec::new();
    let mut known_passing = Vec::new();
    let mut seen = BTreeSet::new();
    for catalog in CATALOGS {
        let path = root.join(catalog);
        assert!(path.is_file(), "no catalog {catalog} in the tarball");
        for case in cases(&path) {
            let id = case.get("ID").to_string();
            seen.insert(id.clone());
            if let Some(reason) = skip_reason(&case) {
                count(&format!("skipped: {reason}"));
                continue;
            }
            let bytes = std::fs::read(&case.file).expect("readable");
            let report = validate_bytes(&case.file, &bytes, &options);
            // Notes say how the document was read; they judge nothing.
            let noted = report
                .diagnostics
                .iter()
                .any(|d| d.severity == boardxml::diagnostic::Severity::Note);
            let codes: Vec<&str> = report
                .diagnostics
                .iter()
                .filter(|d| d.severity != boardxml::diagnostic::Severity::Note)
                .map(|d| d.code.as_str())
                .collect();
            let kind = case.get("TYPE");
            let doctype = has_doctype(&bytes);
            let (ok, category) = match kind {
                "not-wf" => {
                    let all_e01 = codes.iter().all(|c| c.starts_with("E01"));
                    let category = match codes.first() {
                        Some(&"E0105") => "not-wf: refused by E0105 (DOCTYPE)",
                        Some(_) if doctype => {
                            "not-wf: E01xx other than E0105 (before or without its DOCTYPE)"
                        }
                        Some(_) => "not-wf: E01xx (no DOCTYPE)",
                        None => "not-wf",
                    };
                    (!codes.is_empty() && all_e01, category)
                }
                // A DOCTYPE is refused (E0105, alone); `has_doctype` only tells the
                // category (the text may stand in a comment).
                _ if codes == ["E0105"] => {
                    (doctype, "well-formed: refused by E0105 alone (DOCTYPE)")
                }
                _ if noted => (
                    codes.is_empty() && doctype,
                    "well-formed: the note E0107 alone (an external DTD, not applied)",
                ),
                _ => (codes.is_empty(), "well-formed: no finding (no DOCTYPE)"),
            };
            let listed = known.contains(id.as_str());
            match (ok, listed) {
                (true, false) => count(&format!("passed: {category}")),
                (true, true) => known_passing.push(id.clone()),
                (false, true) => count(&format!("known failure: {kind}")),
                (false, false) => {
                    let first = report
                        .diagnostics
                        .first()
                        .map(|d| format!("{} {}:{} {}", d.code, d.line, d.column, d.message));
                    failures.push(format!(
                        "{id} ({kind}, {}): got {codes:?} {}",
                        case.file
                            .strip_prefix(&root)
                            .unwrap_or(&case.file)
                            .display(),
                        first.unwrap_or_default()
                    ));
                    count(&format!("FAILED: {kind}"));
                }
            }
        }
    }
    println!("xmlconf, {:.1} s:", started.elapsed().as_secs_f64());
    for (what, n) in &counts {
        println!("  {n:5}  {what}");
    }
    let stale: Vec<&&str> = known.iter().filter(|id| !seen.contains(**id)).collect();
    assert!(
        stale.is_empty(),
        "known failures that are no test id: {stale:?}"
    );
    assert!(
        known_passing.is_empty(),
        "listed in tests/xmlconf-known-failures.txt but passing now (take them off): {known_passing:?}"
    );
    assert!(
        failures.is_empty(),
        "{} unlisted failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
