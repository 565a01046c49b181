//! The conformance suite (`conformance/`) against boardxml itself: every case must agree,
//! verdict and the exact set of error codes (warnings where a case lists them), except the
//! cases the manifest marks as known failures (bugs with their reason). And the suite must
//! cover what it claims: every diagnostic code of docs/errors.md, every SPEC.md rule, with
//! an invalid case and a valid neighbour each.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use boardxml_cli::conformance::{self, render, ReportFormat, Status, Summary, Verdict};

fn suite_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("conformance")
}

#[test]
fn boardxml_agrees_with_every_case() {
    let suite = conformance::load(&suite_dir()).unwrap_or_else(|e| panic!("{e}"));
    let results = conformance::run_boardxml(&suite);
    let summary = Summary::of(&results);
    let mut counts: BTreeMap<(String, &str, String), usize> = BTreeMap::new();
    for case in suite.cases() {
        *counts
            .entry((
                case.validate_format().name().to_string(),
                case.verdict.as_str(),
                case.encoding.clone(),
            ))
            .or_default() += 1;
    }
    eprintln!("conformance: {} cases", suite.cases().len());
    for ((format, verdict, encoding), n) in &counts {
        eprintln!("  {format:9} {verdict:8} {encoding:9} {n:4}");
    }
    for r in results.iter().filter(|r| r.status == Status::KnownFailure) {
        eprintln!("  known failure: {}: {}", r.id, r.details.join(" | "));
    }
    let failed: Vec<_> = results
        .iter()
        .filter(|r| r.status == Status::Fail)
        .cloned()
        .collect();
    assert!(
        summary.is_success(),
        "{}",
        render(&failed, ReportFormat::Human, "failures")
    );
    eprintln!("conformance: {summary:?}");
}

#[test]
fn the_suite_is_big_and_varied_enough() {
    let suite = conformance::load(&suite_dir()).unwrap_or_else(|e| panic!("{e}"));
    let cases = suite.cases();
    assert!(cases.len() >= 200, "{} cases", cases.len());
    let has = |f: &dyn Fn(&conformance::Case) -> bool| cases.iter().any(f);
    for encoding in ["utf-8", "gbk", "utf-16le", "utf-16be"] {
        assert!(has(&|c| c.encoding == encoding), "no {encoding} case");
    }
    for format in ["cif", "cbf-2007", "cbf-1.0"] {
        for verdict in [Verdict::Valid, Verdict::Invalid] {
            assert!(
                has(&|c| c.validate_format().name() == format && c.verdict == verdict),
                "no {} {format} case",
                verdict.as_str()
            );
        }
    }
    // CIF on boards of several sizes.
    let sizes: BTreeSet<String> = cases
        .iter()
        .filter(|c| c.validate_format().name() == "cif")
        .filter_map(|c| {
            let text = std::fs::read_to_string(suite.path_of(c)).ok()?;
            let at = text.find("boardsize=\"")? + "boardsize=\"".len();
            Some(text[at..].split('"').next()?.to_string())
        })
        .collect();
    assert!(sizes.len() >= 8, "CIF board sizes: {sizes:?}");
}

/// The codes of docs/errors.md's table.
fn documented_codes() -> Vec<String> {
    let doc = std::fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("docs/errors.md"),
    )
    .expect("docs/errors.md");
    doc.lines()
        .filter_map(|l| l.strip_prefix("| E"))
        .map(|rest| format!("E{}", &rest[..4]))
        .collect()
}

#[test]
fn every_code_has_an_invalid_case_and_a_valid_neighbour() {
    let suite = conformance::load(&suite_dir()).unwrap_or_else(|e| panic!("{e}"));
    let codes = documented_codes();
    assert!(codes.len() >= 30, "{codes:?}");
    let mut missing = Vec::new();
    for code in &codes {
        if let Some(reason) = suite.manifest.uncovered_codes.get(code) {
            assert!(
                !suite.cases().iter().any(|c| c.codes.contains(code)),
                "{code} is listed as uncovered ({reason}) but a case gives it"
            );
            continue;
        }
        // A warning leaves the document valid: its case lists it under warnings, next to a
        // case without it.
        let covered = suite.cases().iter().any(|c| {
            (c.codes.contains(code) && c.neighbour.is_some())
                || (c.warnings.as_ref().is_some_and(|w| w.contains(code))
                    && suite
                        .cases()
                        .iter()
                        .any(|n| n.rule == c.rule && n.warnings.is_none()))
        });
        if !covered {
            missing.push(code.clone());
        }
    }
    assert!(missing.is_empty(), "codes without a case: {missing:?}");
    for case in suite.cases() {
        assert_eq!(
            case.verdict == Verdict::Invalid,
            case.neighbour.is_some(),
            "{}: every invalid case (and only those) names its valid neighbour",
            case.id
        );
    }
}

#[test]
fn every_spec_rule_has_an_invalid_case_and_a_valid_one() {
    let suite = conformance::load(&suite_dir()).unwrap_or_else(|e| panic!("{e}"));
    assert!(suite.manifest.spec_rules.len() >= 20);
    for rule in suite.manifest.spec_rules.keys() {
        // A rule about warnings (a result contradicting a mate) is broken by a valid case
        // that lists the warning.
        let breaks = |c: &conformance::Case| c.verdict == Verdict::Invalid || c.warnings.is_some();
        let of = |broken: bool| {
            suite
                .cases()
                .iter()
                .filter(|c| &c.rule == rule && breaks(c) == broken)
                .count()
        };
        assert!(of(true) > 0, "{rule}: no case that breaks it");
        assert!(of(false) > 0, "{rule}: no valid case that keeps it");
    }
    for case in suite.cases() {
        if case.rule.starts_with("SPEC:") {
            assert!(
                suite.manifest.spec_rules.contains_key(&case.rule),
                "{}: rule {:?} is not in spec_rules",
                case.id,
                case.rule
            );
        }
    }
}

#[test]
fn the_checked_in_cases_are_what_the_generator_writes() {
    let script = suite_dir().join("tools/generate.py");
    let out = tempfile::tempdir().expect("a temporary folder");
    let status = std::process::Command::new("python3")
        .arg(&script)
        .arg("--out")
        .arg(out.path())
        .stdout(std::process::Stdio::null())
        .status();
    let Ok(status) = status else {
        common::skip(
            common::Need::Tools,
            "python3 not found: the generator was not re-run",
        );
        return;
    };
    assert!(status.success(), "{} failed", script.display());
    let suite = conformance::load(&suite_dir()).unwrap_or_else(|e| panic!("{e}"));
    let regenerated = conformance::load(out.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        suite.manifest, regenerated.manifest,
        "manifest.json is stale: run python3 conformance/tools/generate.py"
    );
    for case in suite.cases() {
        if case.file.starts_with("cases/hand/") {
            continue;
        }
        assert!(
            std::fs::read(suite.path_of(case)).unwrap()
                == std::fs::read(regenerated.path_of(case)).unwrap(),
            "{} is stale: run python3 conformance/tools/generate.py",
            case.file
        );
    }
}
