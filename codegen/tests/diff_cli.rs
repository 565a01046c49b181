//! `boardxml-codegen diff` as a command: exit status (0 no OLD document breaks, 1 one can,
//! 2 error), the JSON form, and witness files that are never overwritten.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"));
    c.current_dir(workspace());
    c
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const BEFORE: &str = "codegen/tests/diff/cbf-2007-before.xsd";
const SHIPPED: &str = "schemas/cbf-2007.xsd";
const TIGHT: &str = "codegen/tests/diff/cbf-2007-tightened.xsd";

#[test]
fn exit_status_says_whether_old_documents_can_break() {
    let ok = bin().args(["diff", BEFORE, SHIPPED]).output().unwrap();
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let text = String::from_utf8(ok.stdout).unwrap();
    assert!(
        text.contains("old documents break?            no"),
        "{text}"
    );
    let breaks = bin().args(["diff", SHIPPED, TIGHT]).output().unwrap();
    assert_eq!(breaks.status.code(), Some(1));
    let missing = bin()
        .args(["diff", "schemas/none.xsd", SHIPPED])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr)
        .contains("schemas/none.xsd:1:1: error: cannot read"));
    let catalog = bin()
        .args(["diff", "--catalog", "c.xml", SHIPPED, TIGHT])
        .output()
        .unwrap();
    assert_eq!(catalog.status.code(), Some(2));
    // A catalog that cannot be read is an I/O error, located in it.
    assert!(String::from_utf8_lossy(&catalog.stderr)
        .contains("c.xml:1:1: error: cannot read the catalog c.xml"));
    let format = bin()
        .args(["diff", "--format", "xml", SHIPPED, TIGHT])
        .output()
        .unwrap();
    assert_eq!(format.status.code(), Some(2));
}

#[test]
fn json_has_one_object_per_change_with_locations_verdicts_and_the_witness_file() {
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("w");
    let out = bin()
        .args(["diff", "--format", "json", "--witness"])
        .arg(&w)
        .args([SHIPPED, TIGHT])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let changes = v["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1);
    let c = &changes[0];
    assert_eq!(c["kind"], "range-changed");
    assert_eq!(c["old"]["file"], SHIPPED);
    assert_eq!(c["old"]["line"], 68);
    assert_eq!(c["new"]["file"], TIGHT);
    assert_eq!(c["semver"], "none");
    assert_eq!(c["old_documents_break"]["verdict"], "yes");
    assert_eq!(c["old_readers_reject_new_documents"]["verdict"], "no");
    let name = c["old_documents_break"]["witness"].as_str().unwrap();
    let written = std::fs::read_to_string(w.join(name)).unwrap();
    assert_eq!(
        written,
        c["old_documents_break"]["witness_document"]
            .as_str()
            .unwrap()
    );
    // A second run into the same folder refuses to overwrite, and leaves the file alone.
    std::fs::write(w.join(name), "mine").unwrap();
    let again = bin()
        .args(["diff", "--witness"])
        .arg(&w)
        .args([SHIPPED, TIGHT])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(w.join(name)).unwrap(), "mine");
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(&w)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn the_readme_shows_what_diff_prints() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let head = bin().args(["diff", BEFORE, SHIPPED]).output().unwrap();
    let head = String::from_utf8(head.stdout).unwrap();
    assert!(
        readme.contains(head.trim_end()),
        "README's head example is not what diff prints now:\n{head}"
    );
    let dir = tempfile::tempdir().unwrap();
    let tight = bin()
        .args(["diff", "--witness"])
        .arg(dir.path().join("witnesses"))
        .args([SHIPPED, TIGHT])
        .output()
        .unwrap();
    let tight = String::from_utf8(tight.stdout).unwrap();
    assert!(
        readme.contains(tight.trim_end()),
        "README's tightened-facet example is not what diff prints now:\n{tight}"
    );
}
