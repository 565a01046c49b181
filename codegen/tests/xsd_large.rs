//! The scale targets of `../shared/xsd-large` (its README.md and manifest.tsv): OASIS UBL 2.5
//! Invoice and UN/CEFACT Cross Industry Invoice D22B, the two EU e-invoicing standards.
//! For each set, a validator is generated (`boardxml-codegen validator`, the set's schema
//! folder allowed: it fails unless `check` accepts the main schema), built in release, and
//! every document judged against its agreed verdict with a 1 MiB stack
//! ([`common::VALIDATOR_STACK_KIB`]): before issue 31, every UBL document overflowed 8 MiB.
//! UBL's generated code stays within 80,000 lines (it was 400,551).
//!
//! It builds two large validators in release (several minutes on two cores): one of the
//! long suites `.ci/run` runs (`cargo test -p boardxml-codegen --test xsd_large --
//! --ignored`), not the default `cargo test`.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The most lines UBL Invoice's generated code may take (issue 31, item 2).
const UBL_LINES: usize = 80_000;

/// A manifest row: the set, its main schema, a document and whether it is valid.
struct Row {
    set: String,
    main: String,
    document: String,
    valid: bool,
}

fn manifest(root: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(root.join("manifest.tsv")).expect("manifest.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() == 4, "a manifest row of 4 columns: {line:?}");
            assert!(matches!(f[3], "valid" | "invalid"), "{line:?}");
            Row {
                set: f[0].to_string(),
                main: f[1].to_string(),
                document: f[2].to_string(),
                valid: f[3] == "valid",
            }
        })
        .collect()
}

#[test]
#[ignore = "builds two large validators in release: .ci/run runs it"]
fn large_sets_are_judged_right_with_a_1_mib_stack() {
    let Some(root) = common::shared("xsd-large") else {
        return;
    };
    let rows = manifest(&root);
    let mut sets: BTreeMap<(String, String), Vec<&Row>> = BTreeMap::new();
    for row in &rows {
        sets.entry((row.set.clone(), row.main.clone()))
            .or_default()
            .push(row);
    }
    assert!(sets.len() >= 2, "UBL and CII ({} sets)", sets.len());
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace");
    let target = workspace.join("target/xsts-validators");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let mut wrong = Vec::new();
    for ((set, main), rows) in &sets {
        let schema = root.join(main);
        // The set's own folder: its main schema imports its modules from there.
        let folder = root.join(set).join("schema");
        let out = tmp.path().join(set);
        let generated = Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
            .arg("validator")
            .arg("--out")
            .arg(&out)
            .arg("--runtime")
            .arg(&workspace)
            .arg("--allow-path")
            .arg(&folder)
            .arg(&schema)
            .output()
            .expect("boardxml-codegen runs");
        assert!(
            generated.status.success(),
            "{set}: the validator is not generated (check refuses {main}?): {}",
            String::from_utf8_lossy(&generated.stderr)
        );
        let lines = generated_lines(&out.join("src"));
        println!("{set}: {lines} generated lines");
        if set.starts_with("ubl") {
            assert!(
                lines <= UBL_LINES,
                "{set}: {lines} generated lines, over {UBL_LINES}"
            );
        }
        if let Err(e) = common::build_validator(&out, &target) {
            panic!("{set}: the validator does not compile: {e}");
        }
        let docs: Vec<PathBuf> = rows.iter().map(|r| root.join(&r.document)).collect();
        let name = Path::new(main)
            .file_stem()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let errors = common::validator_errors(
            &target.join("release/validate"),
            &name,
            &docs,
            Duration::from_secs(120),
        )
        .unwrap_or_else(|e| panic!("{set}: {e}"));
        for row in rows {
            let found = errors.get(&root.join(&row.document));
            match (row.valid, found) {
                (true, None) | (false, Some(_)) => {}
                (true, Some(e)) => wrong.push(format!("{}: rejected: {e}", row.document)),
                (false, None) => wrong.push(format!("{}: accepted", row.document)),
            }
        }
    }
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
}

/// The lines of the `.rs` files under `dir`.
fn generated_lines(dir: &Path) -> usize {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("a generated folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                total += std::fs::read_to_string(&path)
                    .expect("generated code")
                    .lines()
                    .count();
            }
        }
    }
    total
}
