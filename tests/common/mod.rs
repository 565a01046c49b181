//! What the integration tests of the workspace's crates share: finding `../shared`, loud
//! skips, unpacking the W3C suites, and the feature cases' judge (`cases`). The crates'
//! tests include it by path (`#[path = "../../tests/common/mod.rs"]`); looking at pictures
//! is `pictures.rs`, for the tests that render.
// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub mod cases;

/// `../shared/<sub>` (CI has `../shared` beside the checkout), or `None` after a loud
/// skip (see [`skip`]); with `BOARDXML_REQUIRE_SHARED=1` a missing folder fails the test.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let root = workspace().join("../shared").join(sub);
    if root.is_dir() {
        return Some(root);
    }
    skip(
        Need::Shared,
        &format!(
            "{} not found (CI has ../shared beside the checkout)",
            root.display()
        ),
    );
    None
}

/// The workspace's root: the crate's folder or the nearest folder above it whose
/// Cargo.toml has a `[workspace]` table (the tests of `cli/` and `formats/` include this
/// module too, and `../shared` is beside the workspace, not beside their crate).
pub fn workspace() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir
        .ancestors()
        .find(|dir| {
            std::fs::read_to_string(dir.join("Cargo.toml"))
                .is_ok_and(|manifest| manifest.lines().any(|line| line.trim() == "[workspace]"))
        })
        .unwrap_or(crate_dir)
        .to_path_buf()
}

/// What a skipped check lacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// `../shared` (the corpus, the W3C suite): `BOARDXML_REQUIRE_SHARED=1` forbids the skip.
    Shared,
    /// An outside tool (xmllint, xmlschema, python3): `BOARDXML_REQUIRE_TOOLS=1` forbids it.
    Tools,
    /// Something of the platform (/dev/full, mounting a tmpfs): always allowed, still listed.
    Platform,
}

impl Need {
    fn name(self) -> &'static str {
        match self {
            Need::Shared => "shared",
            Need::Tools => "tools",
            Need::Platform => "platform",
        }
    }
}

/// The file every skip of a test run is appended to, one line each
/// (`NEED<TAB>TEST<TAB>WHY`); `.ci/run` clears it before the tests and prints it after.
/// `BOARDXML_SKIP_LOG` names another (the test of this helper uses one of its own).
pub fn skip_log() -> PathBuf {
    std::env::var_os("BOARDXML_SKIP_LOG")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("boardxml-skips.log"))
}

/// Records that the calling test checks nothing (or less) because `why`: fails the test
/// instead where `BOARDXML_REQUIRE_SHARED=1` / `BOARDXML_REQUIRE_TOOLS=1` forbids the skip;
/// otherwise writes a `SKIPPED` line to the process's real standard error (libtest captures
/// `eprintln!`, which it shows only for a failing test, but not writes to
/// `std::io::stderr()` itself) and appends it to [`skip_log`].
pub fn skip(need: Need, why: &str) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("?").to_owned();
    let required = match need {
        Need::Shared => Some("BOARDXML_REQUIRE_SHARED"),
        Need::Tools => Some("BOARDXML_REQUIRE_TOOLS"),
        Need::Platform => None,
    };
    if let Some(var) = required {
        if std::env::var_os(var).is_some_and(|v| v == "1") {
            record(need, &test, &format!("{why} (and {var}=1: a failure)"));
            panic!("SKIPPED: {why}, and {var}=1");
        }
    }
    record(need, &test, why);
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED ({}) {test}: {why} ***\n",
        need.name()
    );
}

fn record(need: Need, test: &str, why: &str) {
    use std::io::Write;
    let line = format!(
        "{}\t{}::{test}\t{}\n",
        need.name(),
        std::env::args()
            .next()
            .and_then(|a| {
                Path::new(&a)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .map(|n| match n.rsplit_once('-') {
                        Some((name, _hash)) => name.to_owned(),
                        None => n,
                    })
            })
            .unwrap_or_default(),
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
        // One write a line: lines of tests running in parallel do not interleave.
        let _ = f.write_all(line.as_bytes());
    }
}

/// Unpacks a (ustar or GNU) tar archive into `into`: regular files and folders only.
pub fn untar(bytes: &[u8], into: &Path) {
    let mut at = 0;
    let mut long_name: Option<String> = None;
    while at + 512 <= bytes.len() {
        let header = &bytes[at..at + 512];
        if header.iter().all(|&b| b == 0) {
            break;
        }
        let field = |range: std::ops::Range<usize>| {
            let f = &header[range];
            let end = f.iter().position(|&b| b == 0).unwrap_or(f.len());
            String::from_utf8_lossy(&f[..end]).into_owned()
        };
        let size = usize::from_str_radix(field(124..136).trim(), 8).expect("a tar size");
        let kind = header[156];
        let mut name = field(0..100);
        let prefix = field(345..500);
        if &header[257..262] == b"ustar" && !prefix.is_empty() {
            name = format!("{prefix}/{name}");
        }
        if let Some(long) = long_name.take() {
            name = long;
        }
        let data = &bytes[at + 512..at + 512 + size];
        at += 512 + size.div_ceil(512) * 512;
        match kind {
            b'L' => {
                let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
                long_name = Some(String::from_utf8_lossy(&data[..end]).into_owned());
            }
            b'0' | 0 => {
                assert!(!name.contains(".."), "a path out of the archive: {name}");
                let path = into.join(&name);
                std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
                std::fs::write(&path, data).expect("writable");
            }
            b'5' => std::fs::create_dir_all(into.join(&name)).expect("a folder"),
            // Links, pax headers: the suite has none that matter.
            _ => {}
        }
    }
}
