//! Hostile schemas (issue 28): composition is confined to the folders the user allowed,
//! every read has a limit, text a schema holds cannot break the generated code, and
//! concurrent or default writes behave as the runtime's do.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
}

/// Runs `cmd`, killed after `limit` (a hang is a failure, not a stuck test).
fn run_within(mut cmd: Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const OTHER: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="o" type="xs:string"/></xs:schema>"#;

/// A schema in `dir` including `location`.
fn including(dir: &Path, location: &str) -> PathBuf {
    let path = dir.join("main.xsd");
    std::fs::write(
        &path,
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n  <xs:include schemaLocation=\"{location}\"/>\n  <xs:element name=\"a\" type=\"xs:string\"/>\n</xs:schema>\n"
        ),
    )
    .unwrap();
    path
}

/// A folder `schemas/` for the schema and a sibling `outside/` holding a schema document
/// and a secret text file.
fn layout() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schemas = dir.path().join("schemas");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&schemas).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("o.xsd"), OTHER).unwrap();
    std::fs::write(outside.join("secret.txt"), "TOP-SECRET-LINE\n<x/>").unwrap();
    (dir, schemas, outside)
}

/// `check --catalog CATALOG MAIN`.
fn check_with_catalog(catalog: &Path, main: &Path) -> Output {
    bin()
        .arg("check")
        .arg("--catalog")
        .arg(catalog)
        .arg(main)
        .output()
        .unwrap()
}

#[test]
fn an_include_outside_the_allowed_folders_is_a_located_error() {
    let (_dir, schemas, outside) = layout();
    std::os::unix::fs::symlink(outside.join("o.xsd"), schemas.join("link.xsd")).unwrap();
    let absolute = outside.join("o.xsd").display().to_string();
    let url = format!("file://{absolute}");
    for location in ["../outside/o.xsd", &absolute, &url, "link.xsd", "/dev/zero"] {
        let main = including(&schemas, location);
        let o = run_within(
            {
                let mut c = bin();
                c.arg("check").arg(&main);
                c
            },
            Duration::from_secs(20),
        );
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{location}: {e}");
        assert!(
            e.contains(&format!("main.xsd:2:3: error: not read \"{location}\"")),
            "{location}: {e}"
        );
        assert!(e.contains("outside the allowed folders"), "{e}");
        assert!(e.contains("--allow-path"), "{e}");
    }
    // --allow-path opens the folder (also through the link, whose target is in it).
    for location in ["../outside/o.xsd", "link.xsd"] {
        let main = including(&schemas, location);
        let o = bin()
            .arg("check")
            .arg("--allow-path")
            .arg(&outside)
            .arg(&main)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{location}: {}", stderr(&o));
    }
    // So does naming the other file as a root: its folder is then allowed.
    let main = including(&schemas, "../outside/o.xsd");
    let o = bin()
        .arg("check")
        .arg(&main)
        .arg(outside.join("o.xsd"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // --allow-path must name a folder.
    let o = bin()
        .args(["check", "--allow-path"])
        .arg(schemas.join("none"))
        .arg(&main)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--allow-path"), "{}", stderr(&o));
}

#[test]
fn the_library_keeps_the_confinement_by_default() {
    let (_dir, schemas, outside) = layout();
    let main = including(&schemas, "../outside/o.xsd");
    let catalog = boardxml_codegen::xsd::Catalog::default();
    let e = boardxml_codegen::xsd::read_schema_files(std::slice::from_ref(&main), &catalog)
        .unwrap_err();
    assert!(
        e.0.iter()
            .any(|d| d.message.contains("outside the allowed folders")),
        "{e}"
    );
    let mut allowed = boardxml_codegen::xsd::Allowed::new();
    allowed.folder(&outside).unwrap();
    boardxml_codegen::xsd::read_schema_files_allowed(&[main], &catalog, &allowed).unwrap();
}

#[test]
fn a_catalog_maps_outside_but_a_rewrite_cannot_climb_out_of_its_folder() {
    let (dir, schemas, outside) = layout();
    let mirror = outside.join("mirror");
    std::fs::create_dir_all(&mirror).unwrap();
    std::fs::write(mirror.join("m.xsd"), OTHER).unwrap();
    let catalog = dir.path().join("catalog.xml");
    std::fs::write(
        &catalog,
        format!(
            r#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <system systemId="http://example.org/o.xsd" uri="{}"/>
  <rewriteSystem systemIdStartString="http://mirror.org/" rewritePrefix="{}/"/>
</catalog>"#,
            outside.join("o.xsd").display(),
            mirror.display()
        ),
    )
    .unwrap();
    for (location, ok) in [
        ("http://example.org/o.xsd", true),
        ("http://mirror.org/m.xsd", true),
        ("http://mirror.org/../o.xsd", false),
    ] {
        let o = check_with_catalog(&catalog, &including(&schemas, location));
        let e = stderr(&o);
        if ok {
            assert_eq!(o.status.code(), Some(0), "{location}: {e}");
        } else {
            assert_eq!(o.status.code(), Some(2), "{location}: {e}");
            assert!(e.contains("outside the allowed folders"), "{e}");
        }
    }
}

#[test]
fn errors_never_repeat_a_file_that_is_not_xml() {
    let (_dir, schemas, _) = layout();
    let big = "TOP-SECRET-LINE ".repeat(100_000);
    std::fs::write(schemas.join("notes.xsd"), format!("{big}\n<x/>")).unwrap();
    let main = including(&schemas, "notes.xsd");
    let o = bin().arg("check").arg(&main).output().unwrap();
    let e = stderr(&o);
    assert_ne!(o.status.code(), Some(0), "{e}");
    assert!(!e.contains("TOP-SECRET"), "{e}");
    assert!(e.len() < 2_000, "{} bytes of errors", e.len());
    assert!(e.contains("notes.xsd:1:1"), "{e}");
    assert!(e.contains("the file is 1600005 bytes"), "{e}");
}

#[test]
fn a_fifo_reached_through_an_include_or_next_catalog_is_refused_without_blocking() {
    let (dir, schemas, _) = layout();
    let fifo = schemas.join("fifo.xsd");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let main = including(&schemas, "fifo.xsd");
    let mut c = bin();
    c.arg("check").arg(&main);
    let o = run_within(c, Duration::from_secs(20));
    let e = stderr(&o);
    assert!(e.contains("is not a regular file (a FIFO)"), "{e}");
    let catalog = dir.path().join("catalog.xml");
    std::fs::write(
        &catalog,
        format!(
            r#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><nextCatalog catalog="{}"/></catalog>"#,
            fifo.display()
        ),
    )
    .unwrap();
    let mut c = bin();
    c.arg("check").arg("--catalog").arg(&catalog).arg(&main);
    let o = run_within(c, Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is not a regular file (a FIFO)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn endless_inputs_end_with_a_limit_error() {
    let mut c = bin();
    c.args(["check", "/dev/zero"]);
    let o = run_within(c, Duration::from_secs(60));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("more than the limit of 64 MiB"),
        "{}",
        stderr(&o)
    );
    let dir = tempfile::tempdir().unwrap();
    let catalog = dir.path().join("catalog.xml");
    std::fs::write(
        &catalog,
        r#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><nextCatalog catalog="/dev/zero"/></catalog>"#,
    )
    .unwrap();
    let main = including(dir.path(), "x.xsd");
    let mut c = bin();
    c.arg("check").arg("--catalog").arg(&catalog).arg(&main);
    let o = run_within(c, Duration::from_secs(60));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is not a regular file (a character device)"),
        "{}",
        stderr(&o)
    );
    let mut c = bin();
    c.args(["regex", "a*"])
        .stdin(std::fs::File::open("/dev/zero").unwrap());
    let o = run_within(c, Duration::from_secs(60));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("standard input is") && stderr(&o).contains("limit of 64 MiB"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_failed_next_catalog_does_not_make_the_catalog_missing() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = dir.path().join("catalog.xml");
    std::fs::write(
        &catalog,
        r#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><nextCatalog catalog="gone.xml"/></catalog>"#,
    )
    .unwrap();
    let o = check_with_catalog(&catalog, &including(dir.path(), "http://example.org/x.xsd"));
    let e = stderr(&o);
    assert!(e.contains("cannot read the catalog"), "{e}");
    assert!(!e.contains("no catalog is given"), "{e}");
    assert!(
        e.contains("no catalog entry maps http://example.org/x.xsd"),
        "{e}"
    );
}

#[test]
fn control_and_bidi_characters_in_schema_text_come_out_escaped() {
    let case =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compile-cases/controls_in_text.xsd");
    let (_, text) = boardxml_codegen::generate_file(&case).unwrap();
    syn::parse_file(&text).unwrap();
    for c in text.chars() {
        let bidi = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        assert!(
            !bidi && (!c.is_control() || c == '\n'),
            "raw U+{:04X} in the generated code",
            c as u32
        );
    }
    assert!(text.contains(r"/// `rtl\u{202E}here`"), "{text}");
    assert!(text.contains(r"/// `bell\u{007F}here`"), "{text}");
}

#[cfg(unix)]
#[test]
fn generated_files_and_witnesses_follow_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let schemas = dir.path().join("s");
    std::fs::create_dir_all(&schemas).unwrap();
    std::fs::write(schemas.join("o.xsd"), OTHER).unwrap();
    let out = dir.path().join("out");
    let status = Command::new("sh")
        .arg("-c")
        .arg("umask 022 && exec \"$0\" --schemas \"$1\" --out \"$2\"")
        .arg(env!("CARGO_BIN_EXE_boardxml-codegen"))
        .arg(&schemas)
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let mode = std::fs::metadata(out.join("o.rs"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644);
    // A witness: the new schema drops the element the old one declared.
    let new = dir.path().join("new.xsd");
    std::fs::write(
        &new,
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="o" type="xs:int"/></xs:schema>"#,
    )
    .unwrap();
    let witnesses = dir.path().join("w");
    let o = Command::new("sh")
        .arg("-c")
        .arg("umask 027 && exec \"$0\" diff --witness \"$1\" \"$2\" \"$3\"")
        .arg(env!("CARGO_BIN_EXE_boardxml-codegen"))
        .arg(&witnesses)
        .arg(schemas.join("o.xsd"))
        .arg(&new)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let files: Vec<_> = std::fs::read_dir(&witnesses).unwrap().flatten().collect();
    assert!(!files.is_empty());
    for f in files {
        let mode = f.metadata().unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640, "{:?}", f.path());
    }
}

/// The set modules `src/main.rs` names.
fn named_sets(package: &Path) -> Vec<String> {
    let main = std::fs::read_to_string(package.join("src/main.rs")).unwrap();
    let mut sets: Vec<String> = main
        .lines()
        .filter_map(|l| l.trim().strip_prefix("boardxml::validator::Set::of::<"))
        .filter_map(|l| l.split("::").next())
        .map(str::to_string)
        .collect();
    sets.sort();
    sets
}

#[test]
fn concurrent_validator_runs_leave_one_whole_package() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("alpha.xsd");
    let b = dir.path().join("beta.xsd");
    std::fs::write(&a, OTHER).unwrap();
    std::fs::write(&b, OTHER.replace("name=\"o\"", "name=\"p\"")).unwrap();
    for round in 0..6 {
        let out = dir.path().join(format!("pkg{round}"));
        let runs: Vec<_> = [vec![a.clone()], vec![b.clone()], vec![a.clone(), b.clone()]]
            .into_iter()
            .map(|schemas| {
                bin()
                    .arg("validator")
                    .arg("--out")
                    .arg(&out)
                    .args(&schemas)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for r in runs {
            let o = r.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", stderr(&o));
        }
        let mut present: Vec<String> = std::fs::read_dir(out.join("src/sets"))
            .unwrap()
            .flatten()
            .map(|e| {
                e.file_name()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .collect();
        present.sort();
        assert_eq!(named_sets(&out), present, "round {round}");
    }
}
