//! `boardxml validate` on folders: which files it picks, and the order it reports them in
//! (by path component, as `Path` orders them; byte order would put `a-b.cbf` before `a/`).

use std::process::Command;

#[test]
fn folders_are_walked_in_path_order_and_only_known_extensions_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for folder in ["a", "b", "b/c"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    // Empty files: each is reported (no root element), so each shows where it was read.
    for file in [
        "b.cif",
        "a-b.cbf",
        "a/x.cbf",
        "A.xml",
        "b/c/z.XML",
        "b/y.cbf",
        "notes.txt",
        "a.cbf.bak",
    ] {
        std::fs::write(root.join(file), "").unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .args(["validate", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let files: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            // The last line is the run's summary record.
            let file = v["file"].as_str()?;
            let relative = std::path::Path::new(file).strip_prefix(root).unwrap();
            Some(relative.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    let mut by_path = files.clone();
    by_path.sort_by(|x, y| std::path::Path::new(x).cmp(std::path::Path::new(y)));
    assert_eq!(files, by_path);
    assert_eq!(
        files,
        [
            "A.xml",
            "a/x.cbf",
            "a-b.cbf",
            "b/c/z.XML",
            "b/y.cbf",
            "b.cif"
        ]
    );
}
