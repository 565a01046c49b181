//! What the codegen tests share: loud skips (a small copy of the root crate's
//! `tests/common/mod.rs` `skip`, writing to the same skip log) and the outside validators
//! that judge `diff`'s witnesses.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The file every skip of a test run is appended to (the root crate's tests use the same:
/// one target directory, one `CARGO_TARGET_TMPDIR`); `BOARDXML_SKIP_LOG` names another.
pub fn skip_log() -> PathBuf {
    std::env::var_os("BOARDXML_SKIP_LOG")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("boardxml-skips.log"))
}

/// Records that the calling test checks less because an outside tool is missing; fails
/// instead under `BOARDXML_REQUIRE_TOOLS=1` (as CI sets).
pub fn skip_tools(why: &str) {
    let test = std::thread::current().name().unwrap_or("?").to_owned();
    if std::env::var_os("BOARDXML_REQUIRE_TOOLS").is_some_and(|v| v == "1") {
        record(
            &test,
            &format!("{why} (and BOARDXML_REQUIRE_TOOLS=1: a failure)"),
        );
        panic!("SKIPPED: {why}, and BOARDXML_REQUIRE_TOOLS=1");
    }
    record(&test, why);
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED (tools) {test}: {why} ***\n"
    );
}

fn record(test: &str, why: &str) {
    let line = format!(
        "tools\tboardxml-codegen::{test}\t{}\n",
        why.replace(['\t', '\n'], " ")
    );
    if let Some(dir) = skip_log().parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(skip_log())
    {
        let _ = f.write_all(line.as_bytes());
    }
}

/// Whether `xmllint` runs.
pub fn xmllint_present() -> bool {
    Command::new("xmllint")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether python3 with the `xmlschema` package runs.
pub fn xmlschema_present() -> bool {
    Command::new("python3")
        .args(["-c", "import xmlschema"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// xmllint's judgement of `doc` under `schema` (files): valid or not; panics when xmllint
/// cannot read the schema (exit 5) or fails otherwise.
pub fn xmllint_valid(schema: &Path, doc: &Path) -> bool {
    let out = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(schema)
        .arg(doc)
        .output()
        .expect("xmllint runs");
    match out.status.code() {
        Some(0) => true,
        Some(3) | Some(4) => false,
        other => panic!(
            "xmllint failed ({other:?}) on {} with {}: {}",
            doc.display(),
            schema.display(),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// Python xmlschema's judgement of each (schema, document) pair, in one process, as
/// XSD 1.0.
pub fn xmlschema_valid(pairs: &[(PathBuf, PathBuf)]) -> Vec<bool> {
    xmlschema_judge(pairs, "XMLSchema")
}

/// [`xmlschema_valid`] as XSD 1.1 (`xs:alternative`: our CIF schema; xmllint has no 1.1).
pub fn xmlschema11_valid(pairs: &[(PathBuf, PathBuf)]) -> Vec<bool> {
    xmlschema_judge(pairs, "XMLSchema11")
}

fn xmlschema_judge(pairs: &[(PathBuf, PathBuf)], class: &str) -> Vec<bool> {
    if pairs.is_empty() {
        return Vec::new();
    }
    let script = r#"
import sys, json, xmlschema
pairs = json.load(sys.stdin)
cache = {}
out = []
for schema, doc in pairs:
    if schema not in cache:
        cache[schema] = getattr(xmlschema, sys.argv[1])(schema)
    out.append(cache[schema].is_valid(doc))
json.dump(out, sys.stdout)
"#;
    let mut child = Command::new("python3")
        .args(["-c", script, class])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let input: Vec<[String; 2]> = pairs
        .iter()
        .map(|(s, d)| [s.display().to_string(), d.display().to_string()])
        .collect();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(serde_json::to_string(&input).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "xmlschema failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("a JSON list of booleans")
}

/// xmllint's judgement of each of `docs` under `schema`, in one run (xmllint reports
/// `FILE validates` or `FILE fails to validate` per file).
pub fn xmllint_batch(schema: &Path, docs: &[PathBuf]) -> Vec<bool> {
    if docs.is_empty() {
        return Vec::new();
    }
    let out = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(schema)
        .args(docs)
        .output()
        .expect("xmllint runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(
        out.status.code(),
        Some(5),
        "xmllint cannot read {}: {stderr}",
        schema.display()
    );
    docs.iter()
        .map(|d| {
            let name = d.display().to_string();
            if stderr.lines().any(|l| l == format!("{name} validates")) {
                true
            } else if stderr
                .lines()
                .any(|l| l == format!("{name} fails to validate"))
            {
                false
            } else {
                panic!("xmllint said nothing of {name}: {stderr}")
            }
        })
        .collect()
}

/// Whether xmllint can compile `schema` (it exits with 5 when it cannot).
pub fn xmllint_schema_ok(schema: &Path) -> bool {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let doc = dir.path().join("probe.xml");
    std::fs::write(&doc, "<probe/>").expect("a probe document");
    let out = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(schema)
        .arg(&doc)
        .output()
        .expect("xmllint runs");
    out.status.code() != Some(5)
}
