//! The runtime must not pull in the code generator's machinery: no xsd-parser, no
//! prettyplease, and syn only through derive macros.

use std::process::Command;

fn tree(edges: &str) -> String {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree", "-p", "boardxml", "-e", edges, "--prefix", "none", "--format", "{p}",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_runtime_depends_on_neither_xsd_parser_nor_prettyplease() {
    let all = tree("normal,build");
    for banned in [
        "xsd-parser",
        "prettyplease",
        "boardxml-codegen",
        "boardxml-xsd-regex",
    ] {
        assert!(
            !all.lines().any(|l| l.starts_with(&format!("{banned} "))),
            "{banned} is in the runtime's graph"
        );
    }
    // Without proc-macro edges, syn must not appear at all.
    let no_macros = tree("normal,build,no-proc-macro");
    assert!(
        !no_macros.lines().any(|l| l.starts_with("syn ")),
        "syn is a runtime dependency outside derive macros"
    );
}
