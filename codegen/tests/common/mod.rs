//! Loud skips for the generator's tests: the same rules and the same skip log as the
//! runtime's `tests/common/mod.rs` (a codegen test cannot use that module: it is another
//! package). `.ci/run` reads the log and, under `BOARDXML_REQUIRE_SHARED=1`, a skip for a
//! missing `../shared` fails the test instead.
// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

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
    use std::io::Write;
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
    std::fs::write(
        pkg.path().join("Cargo.toml"),
        format!(
            "[package]\nname = \"codegen-compile-check\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nboardxml = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
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
