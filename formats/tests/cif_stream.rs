//! The CIF rules run while reading (the CLI, `keep_document: false`) must report exactly
//! what they report on a whole document: same codes, paths, positions and messages.

use std::path::{Path, PathBuf};

use boardxml_formats::validate::{validate_file, Options};

fn cif_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            cif_files(&path, out);
        } else if std::fs::read(&path).is_ok_and(|b| String::from_utf8_lossy(&b).contains("<cif")) {
            out.push(path);
        }
    }
}

#[test]
fn streamed_rules_report_what_whole_document_rules_report() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut files = Vec::new();
    cif_files(&root.join("examples"), &mut files);
    cif_files(&root.join("conformance/cases"), &mut files);
    assert!(
        files.len() > 100,
        "examples and conformance cases: {}",
        files.len()
    );
    let mut with_rule_issues = 0;
    for f in &files {
        let kept = validate_file(f, &Options::default());
        let streamed = validate_file(
            f,
            &Options {
                keep_document: false,
                ..Options::default()
            },
        );
        let key = |r: &boardxml::validate::Report| {
            r.diagnostics
                .iter()
                .map(|d| (d.code, d.path.clone(), d.line, d.column, d.message.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(key(&streamed), key(&kept), "{}", f.display());
        assert!(
            streamed.document.is_none(),
            "a streamed CIF document is not kept"
        );
        if kept
            .diagnostics
            .iter()
            .any(|d| d.code.as_str().starts_with("E04"))
        {
            with_rule_issues += 1;
        }
    }
    assert!(
        with_rule_issues >= 6,
        "the comparison covers rule issues: {with_rule_issues}"
    );
}
