//! `boardxml validate` in CI: SARIF (checked against the SARIF 2.1.0 schema, fingerprints
//! stable across runs and line moves), JUnit (parsed, counted), the JSON summary record,
//! the GitHub step summary, the policy flags (`--deny-warnings`, `--exclude`, `--allow`),
//! and unreadable paths reported in every format.

use std::path::Path;
use std::process::{Command, Output};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn validate(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .arg("validate")
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A folder with one valid record, one invalid, one with only the E0308 warning, and an
/// unrelated `.xml` (E0201) in `other/`.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("records")).unwrap();
    std::fs::create_dir_all(root.join("other")).unwrap();
    let copy = |from: &str, to: &str| {
        std::fs::copy(Path::new(ROOT).join(from), root.join(to)).unwrap();
    };
    copy("examples/valid/short-game.cbf", "records/good.cbf");
    copy("examples/invalid/bad-record.cbf", "records/bad.cbf");
    copy(
        "conformance/cases/cbf-1.0/cbf10-mate-result-contradicts.cbf",
        "records/warned.cbf",
    );
    std::fs::write(root.join("other/pom.xml"), "<project/>\n").unwrap();
    dir
}

fn sarif_schema() -> jsonschema::Validator {
    let text =
        std::fs::read_to_string(Path::new(ROOT).join("cli/tests/fixtures/sarif-schema-2.1.0.json"))
            .unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft4::new(&schema).expect("the SARIF schema compiles")
}

fn check_sarif(text: &str) -> serde_json::Value {
    let log: serde_json::Value = serde_json::from_str(text).expect("SARIF is JSON");
    let validator = sarif_schema();
    let problems: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        problems.is_empty(),
        "not valid SARIF 2.1.0:\n{}",
        problems.join("\n")
    );
    log
}

fn fingerprints(log: &serde_json::Value) -> Vec<(String, String, u64)> {
    log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_owned(),
                r["partialFingerprints"]["boardxml/v1"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn sarif_is_valid_and_its_fingerprints_survive_runs_and_moved_lines() {
    let dir = tree();
    let o = validate(
        dir.path(),
        &["--format", "sarif", "records", "other", "missing.cbf"],
    );
    assert_eq!(o.status.code(), Some(2), "a missing path is exit 2");
    let log = check_sarif(&stdout(&o));
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(
        rules.len(),
        boardxml_formats::codes::CATALOG.codes().count()
    );
    let e0210 = rules.iter().find(|r| r["id"] == "E0210").unwrap();
    assert!(
        e0210["fullDescription"]["text"]
            .as_str()
            .unwrap()
            .contains("does not match its type's pattern"),
        "described from docs/errors.md: {e0210}"
    );
    let results = run["results"].as_array().unwrap();
    let pattern = results
        .iter()
        .find(|r| r["ruleId"] == "E0210")
        .expect("bad.cbf's pattern error");
    let location = &pattern["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "records/bad.cbf");
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(location["region"]["startLine"], 8);
    assert_eq!(location["region"]["startColumn"], 11);
    assert_eq!(location["region"]["byteOffset"], 177);
    assert_eq!(
        rules[pattern["ruleIndex"].as_u64().unwrap() as usize]["id"],
        "E0210"
    );
    // The unreadable path and the unrelated XML are results like any other.
    for (code, uri) in [("E0001", "missing.cbf"), ("E0201", "other/pom.xml")] {
        assert!(
            results.iter().any(|r| r["ruleId"] == code
                && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri),
            "no {code} for {uri}"
        );
    }
    let warned = results.iter().find(|r| r["ruleId"] == "E0308").unwrap();
    assert_eq!(warned["level"], "warning");

    // A second run gives the same fingerprints; so does one after lines were added on top.
    let again = check_sarif(&stdout(&validate(
        dir.path(),
        &["--format", "sarif", "records", "other", "missing.cbf"],
    )));
    assert_eq!(fingerprints(&log), fingerprints(&again));
    let bad = dir.path().join("records/bad.cbf");
    let text = std::fs::read_to_string(&bad).unwrap();
    let (decl, rest) = text.split_once('\n').unwrap();
    std::fs::write(&bad, format!("{decl}\n\n\n{rest}")).unwrap();
    let moved = check_sarif(&stdout(&validate(
        dir.path(),
        &["--format", "sarif", "records", "other", "missing.cbf"],
    )));
    let (before, after) = (fingerprints(&log), fingerprints(&moved));
    assert_eq!(before.len(), after.len());
    let mut lines_moved = 0;
    for (b, a) in before.iter().zip(&after) {
        assert_eq!((&b.0, &b.1), (&a.0, &a.1), "the fingerprint changed");
        lines_moved += usize::from(b.2 != a.2);
    }
    assert!(lines_moved >= 3, "{before:?}\n{after:?}");
    let all: std::collections::HashSet<_> = after.iter().map(|f| &f.1).collect();
    assert_eq!(all.len(), after.len(), "fingerprints are unique in a run");
}

#[test]
fn sarif_of_a_clean_run_is_valid_too() {
    let o = validate(Path::new(ROOT), &["--format", "sarif", "examples/valid"]);
    assert_eq!(o.status.code(), Some(0));
    let log = check_sarif(&stdout(&o));
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 0);
}

#[test]
fn junit_parses_with_a_case_per_file_and_a_failure_per_error() {
    use quick_xml::events::Event;
    let dir = tree();
    let o = validate(
        dir.path(),
        &["--format", "junit", "records", "other", "gone"],
    );
    assert_eq!(o.status.code(), Some(2));
    let text = stdout(&o);
    let mut reader = quick_xml::Reader::from_str(&text);
    let decoder = reader.decoder();
    let (mut cases, mut failures, mut errors, mut outs) = (0, 0, 0, 0);
    let mut suite_counts = None;
    let mut failure_types = Vec::new();
    loop {
        match reader.read_event().expect("well-formed JUnit") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let attr = |name: &str| {
                    e.try_get_attribute(name)
                        .unwrap()
                        .map(|a| a.decode_and_unescape_value(decoder).unwrap().into_owned())
                };
                match e.name().as_ref() {
                    b"testsuite" => {
                        suite_counts = Some((
                            attr("tests").unwrap(),
                            attr("failures").unwrap(),
                            attr("errors").unwrap(),
                        ))
                    }
                    b"testcase" => cases += 1,
                    b"failure" => {
                        failures += 1;
                        failure_types.push(attr("type").unwrap());
                    }
                    b"error" => errors += 1,
                    b"system-out" => outs += 1,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    // good, bad, warned, pom.xml, gone.
    assert_eq!(cases, 5);
    // bad.cbf has three errors (E0213, E0210, E0301), pom.xml one (E0201).
    assert_eq!(failures, 4, "{failure_types:?}");
    assert_eq!(errors, 1, "the missing path");
    assert_eq!(outs, 1, "the warning of warned.cbf");
    // Counted in files: 2 fail (bad, pom), 1 unreadable.
    assert_eq!(
        suite_counts,
        Some(("5".to_owned(), "2".to_owned(), "1".to_owned()))
    );
}

#[test]
fn json_ends_with_one_summary_record() {
    let dir = tree();
    let o = validate(dir.path(), &["--format", "json", "records"]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (last, diagnostics) = lines.split_last().unwrap();
    assert!(diagnostics.iter().all(|d| d.get("code").is_some()));
    assert_eq!(
        last,
        &serde_json::json!({"summary": {
            "files": 3, "valid": 2, "invalid": 1, "unreadable": 0,
            "errors": 3, "warnings": 1, "allowed": 0, "failing": 3, "exit_code": 1,
        }})
    );
}

#[test]
fn github_appends_every_finding_to_the_step_summary() {
    let dir = tree();
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    for _ in 0..2 {
        let o = Command::new(env!("CARGO_BIN_EXE_boardxml"))
            .args(["validate", "--format", "github", "records", "other"])
            .current_dir(dir.path())
            .env("GITHUB_STEP_SUMMARY", &summary)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            stdout(&o).lines().filter(|l| l.starts_with("::")).count(),
            5
        );
    }
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("earlier step\n"), "appended, not replaced");
    assert_eq!(md.matches("### boardxml validate: failed").count(), 2);
    let rows: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| records/") || l.starts_with("| other/"))
        .collect();
    assert_eq!(rows.len(), 10, "{md}");
    assert!(
        rows.iter()
            .any(|r| r.contains("| 8 | 11 | error | E0210 |")),
        "{md}"
    );
    assert!(
        rows.iter().any(|r| r.contains("| warning | E0308 |")),
        "{md}"
    );
}

#[test]
fn deny_warnings_fails_a_run_whose_only_finding_is_a_warning() {
    let dir = tree();
    let o = validate(dir.path(), &["records/warned.cbf"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("warning[E0308]"));
    let o = validate(dir.path(), &["--deny-warnings", "records/warned.cbf"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("0 valid, 1 invalid"), "{}", stdout(&o));
    // An allowed code never fails, not even with --deny-warnings.
    let o = validate(
        dir.path(),
        &["--deny-warnings", "--allow", "E0308", "records/warned.cbf"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn exclude_leaves_out_paths_as_gitignore_would() {
    let dir = tree();
    let o = validate(dir.path(), &["."]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("E0201"));
    for pattern in ["other/", "*.xml", "/other", "**/pom.xml"] {
        let o = validate(
            dir.path(),
            &["--exclude", pattern, "--exclude", "bad.cbf", "."],
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "--exclude {pattern}: {}",
            stdout(&o)
        );
        assert!(
            stdout(&o).contains("2 files: 2 valid"),
            "{pattern}: {}",
            stdout(&o)
        );
    }
    // A negation takes a file back in; absolute paths under the folder match too.
    let o = validate(
        dir.path(),
        &[
            "--exclude",
            "*.cbf",
            "--exclude",
            "!good.cbf",
            "--exclude",
            "other/",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "no path given is a usage error");
    let abs = dir.path().join("records");
    let o = validate(
        dir.path(),
        &[
            "--exclude",
            "*.cbf",
            "--exclude",
            "!good.cbf",
            abs.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("1 files: 1 valid"), "{}", stdout(&o));
    let o = validate(dir.path(), &["--exclude", "{a", "."]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn allow_reports_a_code_without_failing_on_it() {
    let dir = tree();
    let o = validate(
        dir.path(),
        &["--allow", "unknown-root", "--format", "json", "other"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let first: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(
        (first["code"].as_str(), first["severity"].as_str()),
        (Some("E0201"), Some("warning"))
    );
    assert!(stdout(&o).contains("\"allowed\":1"));
    for bad in ["E0001", "E9999", "nonsense"] {
        let o = validate(dir.path(), &["--allow", bad, "other"]);
        assert_eq!(o.status.code(), Some(2), "--allow {bad}");
    }
}

#[test]
fn a_missing_path_is_a_finding_in_every_format_and_exit_2() {
    let dir = tree();
    for (format, expect) in [
        ("human", "error[E0001]"),
        (
            "github",
            "::error file=nope.cbf,title=E0001::E0001 cannot read nope.cbf",
        ),
        ("json", "\"code\":\"E0001\""),
        ("junit", "<error type=\"E0001\""),
        ("sarif", "\"ruleId\": \"E0001\""),
    ] {
        let o = validate(
            dir.path(),
            &["--format", format, "nope.cbf", "records/good.cbf"],
        );
        assert_eq!(o.status.code(), Some(2), "{format}");
        assert!(stdout(&o).contains(expect), "{format}: {}", stdout(&o));
    }
}
