//! The benchmarks' inputs (issue 32: `scripts/bench.sh validators`, BENCHMARKS.md), made
//! small by the generators the benchmarks run (`benches/`: `gen-real`, `gen-cif`,
//! `gen-cbf`, built here in release) and judged valid by what the benchmarks measure: the
//! validators `boardxml-codegen validator` generates for the four real schema sets (one
//! package of four sets here), and `boardxml validate`'s validation for CIF and CBF
//! (`check-inputs`: boardxml_formats, the rules included); then by xmllint, as the
//! benchmarks run it, where it is installed. Nothing is timed: the benchmarks measure.
//!
//! The generators are built into `target/xsts-validators`, the folder the validator tests
//! share, so the runtime is built once for all of them. A release build of the benches
//! (about 4 minutes on 2 cores) is too long for the default test run: the tests are
//! `#[ignore]`d there and `.ci/run` runs them among the long suites.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use common::xsd_real::{manifest, write_catalog};

/// The sets `gen-real` builds documents of, as the manifest names them.
const SETS: [&str; 4] = ["gpx11", "kml22", "xliff12", "musicxml40"];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace")
}

/// The target folder of the generators and the validator.
fn target() -> PathBuf {
    workspace().join("target/xsts-validators")
}

/// Builds the benches' generators once per test process (both tests wait for the one
/// build): the folder of their binaries, or the compiler's output.
fn generators() -> &'static Result<PathBuf, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT.get_or_init(|| {
        let build = Command::new(env!("CARGO"))
            .args(["build", "--release", "-q", "--offline", "--locked"])
            .arg("--manifest-path")
            .arg(workspace().join("benches/Cargo.toml"))
            .args(["--bin", "gen-real", "--bin", "gen-cif", "--bin", "gen-cbf"])
            .args(["--bin", "check-inputs", "--message-format", "short"])
            .env("CARGO_TARGET_DIR", target())
            .env("CARGO_INCREMENTAL", "0")
            .env_remove("RUSTFLAGS")
            .output()
            .map_err(|e| format!("cargo does not run: {e}"))?;
        if build.status.success() {
            Ok(target().join("release"))
        } else {
            Err(String::from_utf8_lossy(&build.stderr).into_owned())
        }
    })
}

/// Runs a generator or checker to success; its standard output and error.
fn run(exe: &Path, args: &[&dyn AsRef<std::ffi::OsStr>]) -> String {
    let out = Command::new(exe)
        .args(args.iter().map(|a| a.as_ref()))
        .output()
        .unwrap_or_else(|e| panic!("{} does not run: {e}", exe.display()));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{} failed: {text}", exe.display());
    text
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a generated folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    files
}

#[test]
#[ignore = "a release build of the benches: .ci/run runs it (--ignored)"]
fn cif_and_cbf_inputs_are_valid() {
    let bin = generators()
        .as_ref()
        .unwrap_or_else(|e| panic!("the generators do not build: {e}"));
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let cif = tmp.path().join("small.cif");
    let cbf = tmp.path().join("cbf");
    run(&bin.join("gen-cif"), &[&"--mb", &"0.2", &cif]);
    run(&bin.join("gen-cbf"), &[&"--count", &"20", &cbf]);
    assert!(std::fs::metadata(&cif).expect("a CIF document").len() >= 200_000);
    // 20 records, 10 in each dialect, and the CIF document.
    let judged = run(&bin.join("check-inputs"), &[&cif, &cbf]);
    assert!(judged.contains("21 files valid"), "{judged}");

    if !common::xmllint_present() {
        common::skip_tools("xmllint is not installed: the inputs are not cross-checked");
        return;
    }
    // CIF: the XSD 1.0 variant the benchmarks give xmllint (no xs:alternative).
    let cif_xsd10 = workspace().join("benches/schemas/cif-xsd10.xsd");
    assert!(common::xmllint_stream_valid(&cif_xsd10, &cif, None));
    for dialect in ["2007", "1.0"] {
        let schema = workspace().join(format!("schemas/cbf-{dialect}.xsd"));
        let records = files(&cbf.join(dialect));
        assert_eq!(records.len(), 10, "the {dialect} records");
        let verdicts = common::xmllint_batch(&schema, &records);
        for (record, valid) in records.iter().zip(verdicts) {
            assert!(valid, "xmllint rejects {}", record.display());
        }
    }
}

#[test]
#[ignore = "a release build of the benches: .ci/run runs it (--ignored)"]
fn real_schema_documents_are_valid() {
    let Some(root) = common::shared("xsd-real") else {
        return;
    };
    let bin = generators()
        .as_ref()
        .unwrap_or_else(|e| panic!("the generators do not build: {e}"));
    let sets = manifest(&root);
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let mut catalog_pairs = Vec::new();
    // (set, main schema, generated document)
    let mut documents = Vec::new();
    for set in SETS {
        let ((_, main), rows) = sets
            .iter()
            .find(|((s, _), _)| s == set)
            .unwrap_or_else(|| panic!("{set} is in the manifest"));
        catalog_pairs.extend(rows[0].catalog.iter().cloned());
        let doc = tmp.path().join(format!("{set}.xml"));
        // Groups of 100, so that a small document holds several (tracks, folders, files).
        let said = run(
            &bin.join("gen-real"),
            &[
                &"--set",
                &set,
                &"--xsd-real",
                &root,
                &"--mb",
                &"0.2",
                &"--per-group",
                &"100",
                &doc,
            ],
        );
        assert!(
            std::fs::metadata(&doc).expect("a document").len() >= 200_000,
            "{said}"
        );
        documents.push((set, root.join(main), doc));
    }
    let catalog = tmp.path().join("catalog.xml");
    write_catalog(&catalog, &root, &catalog_pairs);

    let package = tmp.path().join("validator");
    let generated = Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
        .arg("validator")
        .arg("--out")
        .arg(&package)
        .arg("--runtime")
        .arg(workspace())
        .arg("--catalog")
        .arg(&catalog)
        .args(documents.iter().map(|(_, main, _)| main))
        .output()
        .expect("boardxml-codegen runs");
    assert!(
        generated.status.success(),
        "validator generation failed: {}",
        String::from_utf8_lossy(&generated.stderr)
    );
    if let Err(e) = common::build_validator(&package, &target()) {
        panic!("the validator does not compile: {e}");
    }
    let exe = target().join("release/validate");
    for (set, main, doc) in &documents {
        let name = main.file_stem().expect("a file name").to_string_lossy();
        let errors = common::validator_errors(
            &exe,
            &name,
            std::slice::from_ref(doc),
            Duration::from_secs(120),
        )
        .unwrap_or_else(|why| panic!("{set}: {why}"));
        assert!(
            errors.is_empty(),
            "{set}: the generated validator rejects the benchmark's document: {errors:?}"
        );
    }

    if !common::xmllint_present() {
        common::skip_tools("xmllint is not installed: the documents are not cross-checked");
        return;
    }
    for (set, main, doc) in &documents {
        assert!(
            common::xmllint_stream_valid(main, doc, Some(&catalog)),
            "{set}: xmllint rejects the benchmark's document"
        );
    }
}
