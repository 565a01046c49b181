//! Builds the conformance suite into the binary (`conformance run` and `export` without
//! `--suite` work from an installed binary anywhere): writes `$OUT_DIR/conformance_suite.rs`,
//! a table of every file of `conformance/` the suite is made of (the manifest, its
//! README.md, `cases/**`) with its bytes by `include_bytes!`.

use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let suite = root.join("conformance");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    for watched in ["manifest.json", "README.md", "cases"] {
        println!("cargo:rerun-if-changed=conformance/{watched}");
    }
    let mut files = Vec::new();
    // `conformance/` is a link to the workspace's suite (a package carries its contents).
    if suite.join("manifest.json").is_file() {
        for top in ["manifest.json", "README.md"] {
            if suite.join(top).is_file() {
                files.push(PathBuf::from(top));
            }
        }
        walk(&suite, Path::new("cases"), &mut files);
    }
    files.sort();
    let mut code = String::from(
        "/// The suite's files: (path relative to the suite, bytes).\n\
         pub(crate) static FILES: &[(&str, &[u8])] = &[\n",
    );
    for f in &files {
        let relative = f
            .to_str()
            .expect("conformance file names are UTF-8")
            .replace('\\', "/");
        let absolute = suite.join(f);
        code.push_str(&format!(
            "    ({relative:?}, include_bytes!({:?})),\n",
            absolute.to_str().expect("a UTF-8 path")
        ));
    }
    code.push_str("];\n");
    let target = out.join("conformance_suite.rs");
    if std::fs::read_to_string(&target).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&target, code).expect("OUT_DIR is writable");
    }
}

fn walk(suite: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(suite.join(dir)) else {
        return;
    };
    for entry in entries.flatten() {
        let relative = dir.join(entry.file_name());
        match entry.file_type() {
            Ok(t) if t.is_dir() => walk(suite, &relative, files),
            Ok(t) if t.is_file() => files.push(relative),
            _ => {}
        }
    }
}
