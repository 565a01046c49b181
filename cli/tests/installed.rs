//! What an installed binary does away from the checkout: the conformance suite is built in,
//! so `conformance run` and `export` work from an empty folder; `--suite DIR` still takes
//! another suite. And the README's case count is the suite's.

use std::path::Path;
use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn cases_in_manifest() -> usize {
    let text = std::fs::read_to_string(Path::new(ROOT).join("conformance/manifest.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["cases"].as_array().unwrap().len()
}

#[test]
fn conformance_runs_and_exports_from_an_empty_folder() {
    let empty = tempfile::tempdir().unwrap();
    let n = cases_in_manifest();
    let o = Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .args(["conformance", "run", "--format", "json"])
        .current_dir(empty.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["summary"]["total"], n, "every case ran");
    assert_eq!(report["summary"]["passed"], n);
    assert_eq!(
        std::fs::read_dir(empty.path()).unwrap().count(),
        0,
        "nothing is left in the folder it ran in"
    );

    let out = empty.path().join("suite");
    let o = Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .args(["conformance", "export", "suite"])
        .current_dir(empty.path())
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let json = |p: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
    };
    assert!(
        json(&out.join("manifest.json"))
            == json(&Path::new(ROOT).join("conformance/manifest.json")),
        "the built-in suite is the checkout's"
    );
    let case = "cases/cbf-2007/cbf07-minimal.cbf";
    assert!(
        std::fs::read(out.join(case)).unwrap()
            == std::fs::read(Path::new(ROOT).join("conformance").join(case)).unwrap(),
        "{case} differs"
    );

    // --suite takes another: the export, with one case's file removed, is refused.
    let first: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    let file = first["cases"][0]["file"].as_str().unwrap();
    std::fs::remove_file(out.join(file)).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .args(["conformance", "run", "--suite", "suite"])
        .current_dir(empty.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not exist"));
}

#[test]
fn the_readme_counts_the_suites_cases() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let n = cases_in_manifest();
    assert!(
        readme.contains(&format!("holds {n} cases")) && readme.contains(&format!("{n}/{n}")),
        "README.md does not say the suite has {n} cases"
    );
}
