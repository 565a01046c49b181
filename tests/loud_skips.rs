//! A skip is seen: `common::skip` writes past libtest's capture of `eprintln!` (so a test
//! that checked nothing cannot pass as `ok` in silence), logs the skip for `.ci/run`, and
//! fails the test where `BOARDXML_REQUIRE_*` forbids the skip.

mod common;

use std::process::Command;

/// Skips when asked to (only in the child run below).
#[test]
fn probe() {
    if let Some(need) = std::env::var_os("BOARDXML_SKIP_PROBE") {
        let need = match need.to_str() {
            Some("shared") => common::Need::Shared,
            Some("tools") => common::Need::Tools,
            _ => common::Need::Platform,
        };
        common::skip(need, "probe skip");
    }
}

fn run_probe(need: &str, require: Option<&str>, log: &std::path::Path) -> std::process::Output {
    let mut c = Command::new(std::env::current_exe().unwrap());
    // Its own log: the probe's skips are not the run's.
    c.env("BOARDXML_SKIP_LOG", log);
    // Without --nocapture: libtest captures what the test prints with eprintln!.
    c.args(["--exact", "probe", "--test-threads", "1"])
        .env("BOARDXML_SKIP_PROBE", need)
        .env_remove("BOARDXML_REQUIRE_SHARED")
        .env_remove("BOARDXML_REQUIRE_TOOLS");
    if let Some(var) = require {
        c.env(var, "1");
    }
    c.output().unwrap()
}

#[test]
fn a_skip_reaches_the_real_stderr_and_the_log_and_fails_where_required() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("skips.log");
    let out = run_probe("platform", None, &log);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("*** SKIPPED (platform) probe: probe skip ***"),
        "the skip was captured: {stderr:?}"
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "platform\tloud_skips::probe\tprobe skip\n"
    );

    let out = run_probe("shared", None, &log);
    assert!(out.status.success());
    let out = run_probe("shared", Some("BOARDXML_REQUIRE_SHARED"), &log);
    assert!(!out.status.success(), "a forbidden skip fails");
    let out = run_probe("tools", Some("BOARDXML_REQUIRE_TOOLS"), &log);
    assert!(!out.status.success(), "a forbidden skip fails");
    let out = run_probe("platform", Some("BOARDXML_REQUIRE_TOOLS"), &log);
    assert!(out.status.success(), "platform skips are always allowed");
}
