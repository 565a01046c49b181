//! Conformance against the W3C XML Schema Test Suite regex rows in
//! `shared/conformance/xsts-regex.tsv` (see that folder's README).
//!
//! Pattern rows: `translate` must succeed (and its output compile) iff the
//! row says `schema-valid`.
//! Value rows: the translation, compiled with the `regex` crate, must match
//! iff the row says `valid`; a pattern that fails to translate is wrong.
//! Translations are compiled as generated code compiles them, with
//! `size_limit(REGEX_SIZE_LIMIT)`.
//! Rows listed in `xsts-known-failures.txt` must be wrong, all others right.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

const TSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/conformance/xsts-regex.tsv"
);
const KNOWN: &str = include_str!("xsts-known-failures.txt");

/// Compiles a translation the way generated code does.
fn compile(translated: &str) -> Result<regex::Regex, regex::Error> {
    regex::RegexBuilder::new(translated)
        .size_limit(boardxml_xsd_regex::REGEX_SIZE_LIMIT)
        .build()
}

fn json_string(field: &str) -> Option<String> {
    if field == "null" {
        return None;
    }
    Some(serde_json::from_str::<String>(field).unwrap_or_else(|e| panic!("bad JSON {field}: {e}")))
}

/// Whether the row comes out right, and what happened (for the report).
fn check(pattern: &str, value: Option<&str>, expected: &str) -> (bool, String) {
    let translated = boardxml_xsd_regex::translate(pattern);
    match value {
        None => {
            let want = expected == "schema-valid";
            // An accepted pattern only counts if the regex crate compiles it.
            let (got, how) = match translated {
                Ok(t) => match compile(&t) {
                    Ok(_) => (true, format!("accepted as {t}")),
                    Err(e) => (false, format!("regex crate rejected {t}: {e}")),
                },
                Err(e) => (false, format!("rejected: {e}")),
            };
            (want == got, how)
        }
        Some(value) => {
            let t = match translated {
                Ok(t) => t,
                Err(e) => return (false, format!("pattern rejected: {e}")),
            };
            let re = match compile(&t) {
                Ok(re) => re,
                Err(e) => return (false, format!("regex crate rejected {t}: {e}")),
            };
            let got = re.is_match(value);
            (
                got == (expected == "valid"),
                format!("matched={got} via {t}"),
            )
        }
    }
}

#[test]
fn xsts_regex_rows() {
    let path = Path::new(TSV);
    let Ok(text) = std::fs::read_to_string(path) else {
        if std::env::var("BOARDXML_REQUIRE_SHARED").as_deref() == Ok("1") {
            panic!("{} not found and BOARDXML_REQUIRE_SHARED=1", path.display());
        }
        // Written to the raw stderr handle so the test harness cannot hide it.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: ../shared/conformance not found ({})",
            path.display()
        );
        return;
    };
    // Key: test_id, which is unique across the file.
    let mut known: BTreeMap<&str, &str> = BTreeMap::new();
    for line in KNOWN.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (id, reason) = line.split_once('\t').unwrap_or((line, ""));
        assert!(
            known.insert(id, reason).is_none(),
            "duplicate known failure {id}"
        );
    }
    let (mut total, mut right) = (0usize, 0usize);
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut seen = BTreeMap::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 8, "short row: {line}");
        let (id, pattern, value, expected) = (cols[0], cols[5], cols[6], cols[7]);
        assert!(seen.insert(id, ()).is_none(), "test_id {id} repeats");
        let pattern = json_string(pattern).expect("pattern is never null");
        let value = json_string(value);
        let (ok, how) = check(&pattern, value.as_deref(), expected);
        total += 1;
        if ok {
            right += 1;
        }
        match (ok, known.contains_key(id)) {
            (false, false) => unexpected.push(format!(
                "{id}\tpattern={pattern:?} value={value:?} expected={expected}: {how}"
            )),
            (true, true) => fixed.push(id.to_string()),
            _ => {}
        }
    }
    for id in known.keys() {
        assert!(
            seen.contains_key(id),
            "known failure {id} is not a row of the file"
        );
    }
    let pct = 100.0 * right as f64 / total as f64;
    // Raw stderr: shown even when the harness captures the test's output.
    let _ = writeln!(
        std::io::stderr(),
        "XSTS regex conformance: {right}/{total} rows right ({pct:.2}%), {} known failures",
        known.len()
    );
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "{} unexpected failures:\n{}\n{} known failures now pass (remove them): {:?}",
        unexpected.len(),
        unexpected.join("\n"),
        fixed.len(),
        fixed
    );
}
