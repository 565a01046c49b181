//! The schema is the single source of truth (issue 12): a field added to a schema flows
//! through every layer without a line of code. The workspace is copied to a temporary
//! folder, an optional element is added to `Head` of each CBF schema (a different one to
//! each, so that each dialect has a field the other cannot hold) and an optional attribute
//! to the CIF `Arrow`; the copy regenerates its code and builds; then its binary shows each
//! added field surviving read -> convert -> write for every target that can hold it, and
//! reported as lost, by name, for every target that cannot.
//!
//! Slow (a build of the copied workspace), so the build is shared between runs through a
//! target folder of its own under this one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Copies what the workspace's crates are built from.
fn copy_workspace(to: &Path) {
    let from = root();
    std::fs::create_dir_all(to).unwrap();
    for entry in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "src",
        "formats",
        "cli",
        "generated",
        "schemas",
        "codegen",
        "xsd-regex",
        "xiangqi",
        "conformance",
        "docs",
        // A workspace member (the build.rs example): the workspace does not load without it.
        "examples/gpx-edit",
    ] {
        copy(&from.join(entry), &to.join(entry));
    }
}

fn copy(from: &Path, to: &Path) {
    let meta =
        std::fs::symlink_metadata(from).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    if meta.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_name() == "target" {
                continue;
            }
            copy(&e.path(), &to.join(e.file_name()));
        }
    } else if meta.file_type().is_symlink() {
        // The crates' links to the workspace's folders (formats/schemas -> ../schemas):
        // relative, so the copy's point into the copy.
        std::os::unix::fs::symlink(std::fs::read_link(from).unwrap(), to).unwrap();
    } else {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
}

/// Inserts `what` after the first `after` in the file at `path`.
fn insert_after(path: &Path, after: &str, what: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let at = text
        .find(after)
        .unwrap_or_else(|| panic!("{}: no {after}", path.display()))
        + after.len();
    let changed = format!("{}\n{what}{}", &text[..at], &text[at..]);
    std::fs::write(path, changed).unwrap();
}

fn run(cmd: &mut Command) -> Output {
    let o = cmd.output().expect("the command runs");
    assert!(
        o.status.success() || o.status.code() == Some(1),
        "{cmd:?}: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn cargo(dir: &Path, target: &Path) -> Command {
    let mut c = Command::new(env!("CARGO"));
    c.current_dir(dir).env("CARGO_TARGET_DIR", target);
    c
}

const RECORD_1_0: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ChineseChessRecord Version=\"1.0\"><Head><Red>甲</Red><Opening>中炮对屏风马</Opening></Head>\
<MoveList><Move value=\"00-00\"/><Move value=\"77-47\" end=\"1\"/></MoveList></ChineseChessRecord>\n";

const RECORD_2007: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ChineseChessRecord><Head><Red>甲</Red><Venue>北京</Venue></Head>\
<MoveList><Move value=\"77-47\" nid=\"1\"/></MoveList></ChineseChessRecord>\n";

const CIF: &str = "<cif><game><moves>1. e4 <arrow color=\"red\" from=\"e2\" to=\"e4\" label=\"the push\"/></moves></game></cif>\n";

/// A program for the copy: reads a CIF document with the library and writes it back.
const CIF_ROUNDTRIP: &str = r#"
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let doc = boardxml_formats::cif::read_file(&args[1]).unwrap_or_else(|e| panic!("{e}"));
    boardxml_formats::cif::write_file(&args[2], &doc).unwrap_or_else(|e| panic!("{e}"));
}
"#;

// It copies the workspace and builds the copy twice (about 7 minutes on two cores): one of
// the long suites, run by `.ci/run` (`cargo test -p boardxml-cli --test added_field --
// --ignored`), not by
// the default `cargo test`.
#[test]
#[ignore = "copies and rebuilds the workspace: .ci/run runs it"]
fn a_field_added_to_a_schema_flows_through_every_layer() {
    let scratch = tempfile::tempdir().unwrap();
    let ws = scratch.path().join("ws");
    copy_workspace(&ws);
    insert_after(
        &ws.join("schemas/cbf-1.0.xsd"),
        "<xs:all>",
        r#"      <xs:element name="Opening" type="xs:string" minOccurs="0"/>"#,
    );
    insert_after(
        &ws.join("schemas/cbf-2007.xsd"),
        "<xs:all>",
        r#"      <xs:element name="Venue" type="xs:string" minOccurs="0"/>"#,
    );
    insert_after(
        &ws.join("schemas/cif.xsd"),
        r#"<xs:attribute name="to" type="Square" use="required"/>"#,
        r#"    <xs:attribute name="label" type="xs:string" use="optional"/>"#,
    );
    std::fs::write(ws.join("formats/examples/cif_roundtrip.rs"), CIF_ROUNDTRIP).unwrap();

    // Shared between runs: only the copied crates build again.
    let target = root().join("target/added-field");
    let regen = run(cargo(&ws, &target).args(["run", "-q", "-p", "boardxml-codegen"]));
    assert!(regen.status.success());
    // The added fields are in the generated code, and nowhere else was edited.
    for (file, field) in [
        ("cbf_1_0.rs", "pub opening:"),
        ("cbf_2007.rs", "pub venue:"),
        ("cif.rs", "pub label:"),
    ] {
        let text = std::fs::read_to_string(ws.join("generated").join(file)).unwrap();
        assert!(text.contains(field), "{file} lacks {field}");
    }
    for (package, target_kind, name) in [
        ("boardxml-cli", "--bin", "boardxml"),
        ("boardxml-formats", "--example", "cif_roundtrip"),
    ] {
        let build =
            run(cargo(&ws, &target).args(["build", "-q", "-p", package, target_kind, name]));
        assert!(build.status.success());
    }
    let bin = target.join("debug/boardxml");
    let example = target.join("debug/examples/cif_roundtrip");

    let io = scratch.path().join("io");
    std::fs::create_dir_all(&io).unwrap();
    let r10 = io.join("r10.cbf");
    let r2007 = io.join("r2007.cbf");
    std::fs::write(&r10, RECORD_1_0).unwrap();
    std::fs::write(&r2007, RECORD_2007).unwrap();

    let o = run(Command::new(&bin).arg("validate").arg(&r10).arg(&r2007));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));

    let convert = |input: &Path, to: &str, ext: &str| -> (String, String) {
        let out = io.join(format!(
            "{}-to-{to}.{ext}",
            input.file_stem().unwrap().to_string_lossy()
        ));
        let o = run(Command::new(&bin)
            .env("NO_COLOR", "1")
            .args(["convert", "--to", to, "--encoding", "utf-8"])
            .arg(input)
            .arg("-o")
            .arg(&out));
        assert!(
            o.status.success(),
            "{to}: {}",
            String::from_utf8_lossy(&o.stdout)
        );
        (
            std::fs::read_to_string(&out).unwrap(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    for (input, field, value, own, other) in [
        (&r10, "Opening", "中炮对屏风马", "cbf-1.0", "cbf-2007"),
        (&r2007, "Venue", "北京", "cbf-2007", "cbf-1.0"),
    ] {
        // Its own dialect holds it: kept, and the output is valid.
        let (text, report) = convert(input, own, "cbf");
        assert!(
            text.contains(&format!("<{field}>{value}</{field}>")),
            "{own}: {field} lost\n{text}"
        );
        assert!(!report.contains(field), "{own}: {report}");
        // JSON and PGN hold any head field.
        let (json, _) = convert(input, "json", "json");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(
            v.to_string().contains(field) && v.to_string().contains(value),
            "json: {field} lost\n{json}"
        );
        let (pgn, _) = convert(input, "pgn", "pgn");
        assert!(
            pgn.contains(&format!("[{field} \"{value}\"]")),
            "pgn: {field} lost\n{pgn}"
        );
        if own == "cbf-1.0" {
            // PGN tags fill 1.0 head fields through the schema's field table: the added
            // field takes its tag back, with no line of the PGN reader changed.
            let stem = input.file_stem().unwrap().to_string_lossy();
            let (back, report) = convert(&io.join(format!("{stem}-to-pgn.pgn")), own, "cbf");
            assert!(
                back.contains(&format!("<{field}>{value}</{field}>")),
                "pgn -> {own}: {field} lost\n{back}\n{report}"
            );
            assert!(!report.contains(field), "pgn -> {own}: {report}");
        }
        // The other dialect has no such field: reported as lost, by name.
        let (text, report) = convert(input, other, "cbf");
        assert!(!text.contains(field), "{other}: {text}");
        assert!(
            report.contains("warning: ") && report.contains(field),
            "{other}: the loss of {field} is not reported\n{report}"
        );
    }

    // CIF: the added attribute survives a read and a write through the library.
    let cif_in = io.join("in.cif");
    let cif_out = io.join("out.cif");
    std::fs::write(&cif_in, CIF).unwrap();
    run(Command::new(&example).arg(&cif_in).arg(&cif_out));
    let written = std::fs::read_to_string(&cif_out).unwrap();
    assert!(
        written.contains("label=\"the push\""),
        "the attribute was lost:\n{written}"
    );
    // And the copy's validator rejects what the schema does not allow on it.
    let bad = io.join("bad.cif");
    std::fs::write(&bad, CIF.replace("label=", "labell=")).unwrap();
    let o = run(Command::new(&bin).arg("validate").arg(&bad));
    assert_eq!(o.status.code(), Some(1));
}
