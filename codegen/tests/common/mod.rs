//! Loud skips for the generator's tests: the same rules and the same skip log as the
//! runtime's `tests/common/mod.rs` (a codegen test cannot use that module: it is another
//! package). `.ci/run` reads the log and, under `BOARDXML_REQUIRE_SHARED=1`, a skip for a
//! missing `../shared` fails the test instead. Also the outside validators that judge
//! `diff`'s witnesses.
// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub mod suite;
pub mod xsd_real;

/// `../shared/<sub>` beside the workspace, or `None` after a loud skip.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(sub);
    if root.exists() {
        return Some(root);
    }
    skip(&format!(
        "{} not found (CI has ../shared beside the checkout)",
        root.display()
    ));
    None
}

/// The skip log `.ci/run` prints (`NEED<TAB>TEST<TAB>WHY` lines); the workspace's
/// `target/tmp` is this package's `CARGO_TARGET_TMPDIR` too.
fn skip_log() -> PathBuf {
    std::env::var_os("BOARDXML_SKIP_LOG")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("boardxml-skips.log"))
}

/// Records that the calling test checks nothing because `why` (a missing `../shared`):
/// a failure under `BOARDXML_REQUIRE_SHARED=1`, otherwise a line on the real standard
/// error and in the skip log.
pub fn skip(why: &str) {
    let test = std::thread::current().name().unwrap_or("?").to_owned();
    let binary = std::env::args()
        .next()
        .and_then(|a| {
            Path::new(&a)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .map(|n| match n.rsplit_once('-') {
            Some((name, _hash)) => name.to_owned(),
            None => n,
        })
        .unwrap_or_default();
    let required = std::env::var_os("BOARDXML_REQUIRE_SHARED").is_some_and(|v| v == "1");
    let why = if required {
        format!("{why} (and BOARDXML_REQUIRE_SHARED=1: a failure)")
    } else {
        why.to_string()
    };
    let line = format!(
        "shared\t{binary}::{test}\t{}\n",
        why.replace(['\t', '\n'], " ")
    );
    if let Some(dir) = skip_log().parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(skip_log())
    {
        let _ = f.write_all(line.as_bytes());
    }
    if required {
        panic!("SKIPPED: {why}");
    }
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED (shared) {test}: {why} ***\n"
    );
}

/// Compiles generated modules (name, source) together in one package that depends on the
/// runtime crate, with one `cargo check` under `deny(warnings)`; the error is the
/// compiler's output. The package is written to a temporary folder; the target folder
/// (`target/codegen-compile`) is shared between runs, so the runtime is checked once.
pub fn compile_modules(modules: &[(String, String)]) -> Result<(), String> {
    let pkg = tempfile::tempdir().expect("a temporary folder");
    let src = pkg.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap();
    // Code with XSD 1.1 assertions or type alternatives' XPath tests needs the runtime's
    // `xpath` feature, as a validator package asks for it (`boardxml-codegen validator`).
    let features = if modules.iter().any(|(_, code)| {
        code.contains("__f::Assertion::new") || code.contains("::boardxml::facets::TypeTest::new")
    }) {
        ", features = [\"xpath\"]"
    } else {
        ""
    };
    std::fs::write(
        pkg.path().join("Cargo.toml"),
        format!(
            "[package]\nname = \"codegen-compile-check\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nboardxml = {{ path = {:?}{features} }}\n\n[workspace]\n",
            workspace.display().to_string()
        ),
    )
    .unwrap();
    // The workspace's lock: the same dependency versions, nothing to resolve anew.
    std::fs::copy(workspace.join("Cargo.lock"), pkg.path().join("Cargo.lock")).unwrap();
    let mut lib = String::from("#![deny(warnings)]\n");
    for (module, code) in modules {
        std::fs::write(src.join(format!("{module}.rs")), code).unwrap();
        lib.push_str(&format!("pub mod {module};\n"));
    }
    std::fs::write(src.join("lib.rs"), lib).unwrap();
    let output = std::process::Command::new(env!("CARGO"))
        .args([
            "check",
            "-q",
            "--offline",
            "--lib",
            "--message-format",
            "short",
        ])
        .current_dir(pkg.path())
        .env("CARGO_TARGET_DIR", workspace.join("target/codegen-compile"))
        // Checked once: incremental data for a thousand modules would only fill the disk.
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// Records that the calling test checks less because an outside tool is missing; fails
/// instead under `BOARDXML_REQUIRE_TOOLS=1` (as CI sets).
pub fn skip_tools(why: &str) {
    let test = std::thread::current().name().unwrap_or("?").to_owned();
    if std::env::var_os("BOARDXML_REQUIRE_TOOLS").is_some_and(|v| v == "1") {
        record(
            &test,
            &format!("{why} (and BOARDXML_REQUIRE_TOOLS=1: a failure)"),
        );
        panic!("SKIPPED: {why}, and BOARDXML_REQUIRE_TOOLS=1");
    }
    record(&test, why);
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED (tools) {test}: {why} ***\n"
    );
}

fn record(test: &str, why: &str) {
    let line = format!(
        "tools\tboardxml-codegen::{test}\t{}\n",
        why.replace(['\t', '\n'], " ")
    );
    if let Some(dir) = skip_log().parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(skip_log())
    {
        let _ = f.write_all(line.as_bytes());
    }
}

/// Whether `xmllint` runs.
pub fn xmllint_present() -> bool {
    Command::new("xmllint")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether python3 with the `xmlschema` package runs.
pub fn xmlschema_present() -> bool {
    Command::new("python3")
        .args(["-c", "import xmlschema"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// xmllint's judgement of `doc` under `schema` (files): valid or not; panics when xmllint
/// cannot read the schema (exit 5) or fails otherwise.
pub fn xmllint_valid(schema: &Path, doc: &Path) -> bool {
    let mut command = Command::new("xmllint");
    command.arg("--noout").arg("--schema").arg(schema).arg(doc);
    xmllint_verdict(command, schema, doc)
}

/// xmllint's judgement of `doc` under `schema` as the benchmarks run it (`--stream`, no
/// network; `catalog`, an OASIS catalog, through `XML_CATALOG_FILES`); panics as
/// [`xmllint_valid`] does.
pub fn xmllint_stream_valid(schema: &Path, doc: &Path, catalog: Option<&Path>) -> bool {
    let mut command = Command::new("xmllint");
    command
        .args(["--noout", "--nonet", "--stream", "--schema"])
        .arg(schema)
        .arg(doc);
    if let Some(catalog) = catalog {
        command.env("XML_CATALOG_FILES", catalog);
    }
    xmllint_verdict(command, schema, doc)
}

/// The verdict of an xmllint run on one document: exit 0 valid, 3 or 4 invalid.
fn xmllint_verdict(mut command: Command, schema: &Path, doc: &Path) -> bool {
    let out = command.output().expect("xmllint runs");
    match out.status.code() {
        Some(0) => true,
        Some(3) | Some(4) => false,
        other => panic!(
            "xmllint failed ({other:?}) on {} with {}: {}",
            doc.display(),
            schema.display(),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// Python xmlschema's judgement of each (schema, document) pair, in one process, as
/// XSD 1.0.
pub fn xmlschema_valid(pairs: &[(PathBuf, PathBuf)]) -> Vec<bool> {
    xmlschema_judge(pairs, "XMLSchema")
}

/// [`xmlschema_valid`] as XSD 1.1 (`xs:alternative`: our CIF schema; xmllint has no 1.1).
pub fn xmlschema11_valid(pairs: &[(PathBuf, PathBuf)]) -> Vec<bool> {
    xmlschema_judge(pairs, "XMLSchema11")
}

fn xmlschema_judge(pairs: &[(PathBuf, PathBuf)], class: &str) -> Vec<bool> {
    if pairs.is_empty() {
        return Vec::new();
    }
    let script = r#"
import sys, json, xmlschema
pairs = json.load(sys.stdin)
cache = {}
out = []
for schema, doc in pairs:
    if schema not in cache:
        cache[schema] = getattr(xmlschema, sys.argv[1])(schema)
    out.append(cache[schema].is_valid(doc))
json.dump(out, sys.stdout)
"#;
    let mut child = Command::new("python3")
        .args(["-c", script, class])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let input: Vec<[String; 2]> = pairs
        .iter()
        .map(|(s, d)| [s.display().to_string(), d.display().to_string()])
        .collect();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(serde_json::to_string(&input).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "xmlschema failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("a JSON list of booleans")
}

/// xmllint's judgement of each of `docs` under `schema`, in one run (xmllint reports
/// `FILE validates` or `FILE fails to validate` per file).
pub fn xmllint_batch(schema: &Path, docs: &[PathBuf]) -> Vec<bool> {
    if docs.is_empty() {
        return Vec::new();
    }
    let out = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(schema)
        .args(docs)
        .output()
        .expect("xmllint runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(
        out.status.code(),
        Some(5),
        "xmllint cannot read {}: {stderr}",
        schema.display()
    );
    docs.iter()
        .map(|d| {
            let name = d.display().to_string();
            if stderr.lines().any(|l| l == format!("{name} validates")) {
                true
            } else if stderr
                .lines()
                .any(|l| l == format!("{name} fails to validate"))
            {
                false
            } else {
                panic!("xmllint said nothing of {name}: {stderr}")
            }
        })
        .collect()
}

/// Whether xmllint can compile `schema` (it exits with 5 when it cannot).
pub fn xmllint_schema_ok(schema: &Path) -> bool {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let doc = dir.path().join("probe.xml");
    std::fs::write(&doc, "<probe/>").expect("a probe document");
    let out = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(schema)
        .arg(&doc)
        .output()
        .expect("xmllint runs");
    out.status.code() != Some(5)
}

/// Builds the package `boardxml-codegen validator` wrote at `package` (`cargo build
/// --release`, offline, with the workspace's lock) into the shared target folder `target`;
/// the error is the compiler's output. The binary is `target/release/validate`.
pub fn build_validator(package: &Path, target: &Path) -> Result<(), String> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // The workspace's lock: the same dependency versions, nothing to resolve anew.
    std::fs::copy(workspace.join("Cargo.lock"), package.join("Cargo.lock"))
        .map_err(|e| format!("cannot copy Cargo.lock: {e}"))?;
    let build = Command::new(env!("CARGO"))
        .args([
            "build",
            "--release",
            "-q",
            "--offline",
            "--message-format",
            "short",
        ])
        .arg("--manifest-path")
        .arg(package.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        // Built once per shard: incremental data would only fill the disk.
        .env("CARGO_INCREMENTAL", "0")
        // The tests judge verdicts, which do not depend on optimisation: the generated
        // manifest's whole-program optimisation (a full LTO link of the runtime for every
        // validator) is left to users and the benchmarks, so CI builds stay quick.
        .env("CARGO_PROFILE_RELEASE_LTO", "off")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env_remove("RUSTFLAGS")
        .output()
        .map_err(|e| format!("cargo does not run: {e}"))?;
    if build.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&build.stderr).into_owned())
    }
}

/// The stack a generated validator is run with: 1 MiB, issue 31's bound. Reading,
/// validating and writing take a stack that grows with neither the schema nor the
/// document beyond the reader's depth limit; a run that overflows it is a crash.
pub const VALIDATOR_STACK_KIB: u32 = 1024;

/// Runs a generated validator (`exe`) on `docs` against the set `set`, with `--format
/// json`, its main thread's stack limited to [`VALIDATOR_STACK_KIB`] (`ulimit -s` in a shell
/// that then becomes the validator): the first error of each document that has one (`CODE
/// message`; the others are valid), or why the run itself failed (a crash, a stack
/// overflow among them, a hang past `budget`, an I/O error on no document given).
pub fn validator_errors(
    exe: &Path,
    set: &str,
    docs: &[PathBuf],
    budget: std::time::Duration,
) -> Result<std::collections::BTreeMap<PathBuf, String>, String> {
    use std::time::{Duration, Instant};
    let out_file = tempfile::NamedTempFile::new().expect("a temporary file");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -s {VALIDATOR_STACK_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(exe)
        .args(["--schema", set, "--format", "json"])
        .args(docs)
        .stdout(out_file.reopen().expect("reopened"))
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("the validator does not run: {e}"))?;
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("waits") {
            break s;
        }
        if t0.elapsed() > budget {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("the validator hangs (over {budget:?})"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    match status.code() {
        Some(0..=2) => {}
        other => return Err(format!("the validator crashed (exit {other:?})")),
    }
    let text = std::fs::read_to_string(out_file.path()).unwrap_or_default();
    let mut errors = std::collections::BTreeMap::new();
    for line in text.lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("not JSON from the validator: {e}"))?;
        if v.get("summary").is_some() || v["severity"] != "error" {
            continue;
        }
        let file = PathBuf::from(v["file"].as_str().unwrap_or_default());
        // A document that cannot be read is that document's wrong verdict (the suite names
        // one its archive does not hold); an I/O error of no document given fails the run.
        if v["code"] == "E0001" && !docs.contains(&file) {
            return Err(format!("I/O error: {}", v["message"]));
        }
        errors.entry(file).or_insert_with(|| {
            format!(
                "{} {}",
                v["code"].as_str().unwrap_or(""),
                v["message"].as_str().unwrap_or("")
            )
        });
    }
    Ok(errors)
}
