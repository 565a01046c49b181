//! `--check`'s summary: the schema the checked-in code was generated from is found in git
//! (the version whose generated code is the checked-in file) and compared with the
//! working schema.

mod common;

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> bool {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=test",
            "-c",
            "user.email=test@example.invalid",
        ])
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn check_summarises_the_schema_change_behind_a_stale_file() {
    if !Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        common::skip_tools("git not found: the --check summary is not tested");
        return;
    }
    let repo = tempfile::tempdir().unwrap();
    let schemas = repo.path().join("schemas");
    let out = repo.path().join("generated");
    std::fs::create_dir_all(&schemas).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("schemas/cbf-2007.xsd")).unwrap();
    std::fs::write(schemas.join("cbf-2007.xsd"), &text).unwrap();
    let outputs = boardxml_codegen::generate_dir(&schemas).unwrap();
    boardxml_codegen::write_dir(&outputs, &out).unwrap();
    // Outside a git checkout: said, not guessed.
    std::fs::write(
        schemas.join("cbf-2007.xsd"),
        text.replace(
            "<xs:maxInclusive value=\"3\"/>",
            "<xs:maxInclusive value=\"2\"/>",
        ),
    )
    .unwrap();
    let stale = boardxml_codegen::generate_dir(&schemas).unwrap();
    let summary = boardxml_codegen::diff::check::summary(&schemas, &out, &stale);
    assert!(
        summary.contains("no summary: not a file of a git checkout"),
        "{summary}"
    );
    // Committed, then edited: OLD is the commit, found by its generated code.
    std::fs::write(schemas.join("cbf-2007.xsd"), &text).unwrap();
    assert!(git(repo.path(), &["init", "-q"]));
    assert!(git(repo.path(), &["add", "."]));
    assert!(git(repo.path(), &["commit", "-q", "-m", "first"]));
    std::fs::write(
        schemas.join("cbf-2007.xsd"),
        text.replace(
            "<xs:maxInclusive value=\"3\"/>",
            "<xs:maxInclusive value=\"2\"/>",
        ),
    )
    .unwrap();
    let summary = boardxml_codegen::diff::check::summary(&schemas, &out, &stale);
    assert!(
        summary.contains("its generated code is the checked-in file"),
        "{summary}"
    );
    assert!(summary.contains("range-changed: maxInclusive of ResultCode: 3 -> 2 [API none; old documents break: yes; old readers reject new documents: no]"), "{summary}");
    // Up to date: nothing to say.
    let outputs_now = boardxml_codegen::generate_dir(&schemas).unwrap();
    boardxml_codegen::write_dir(&outputs_now, &out).unwrap();
    assert_eq!(
        boardxml_codegen::diff::check::summary(&schemas, &out, &outputs_now),
        ""
    );
}
