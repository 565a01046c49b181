//! The conformance runner itself, with fake implementations: one that always says valid,
//! one that crashes, one that hangs; the round trip with a faithful and an unfaithful
//! copier; the report writers; export and load.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use boardxml_cli::conformance::{
    self, render, Case, Outcome, ReportFormat, Status, Suite, Summary, Verdict,
};

fn full_suite() -> Suite {
    conformance::load(&Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("conformance"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A few cases of the suite, valid and invalid, so that a hang costs one timeout per case.
fn small_suite(ids: &[&str]) -> Suite {
    let mut suite = full_suite();
    suite
        .manifest
        .cases
        .retain(|c| ids.contains(&c.id.as_str()));
    assert_eq!(suite.manifest.cases.len(), ids.len(), "{ids:?}");
    suite
}

const IDS: [&str; 4] = [
    "cif-minimal",
    "cif-arrow-missing-to",
    "cbf10-minimal",
    "cbf07-nid-jumps",
];

/// A shell script in a temporary folder; returns its path.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    path
}

#[test]
fn an_implementation_that_always_says_valid_passes_the_valid_cases_only() {
    let dir = tempfile::tempdir().unwrap();
    let fake = script(dir.path(), "valid.sh", "exit 0");
    let suite = small_suite(&IDS);
    let results = conformance::run_external(
        &suite,
        &format!("sh '{}' {{file}}", fake.display()),
        0,
        Duration::from_secs(10),
    );
    assert_eq!(results.len(), IDS.len());
    for (r, case) in results.iter().zip(suite.cases()) {
        assert_eq!(r.id, case.id, "results come in the suite's order");
        assert_eq!(r.outcome, Outcome::Exited { code: 0 });
        assert_eq!(r.verdict, Some(Verdict::Valid));
        let pass = case.verdict == Verdict::Valid;
        assert_eq!(r.status == Status::Pass, pass, "{}: {:?}", r.id, r.details);
    }
    let summary = Summary::of(&results);
    assert_eq!((summary.passed, summary.failed), (2, 2));
    assert!(!summary.is_success());
    let human = render(&results, ReportFormat::Human, "t");
    assert!(human.contains("FAIL  cif-arrow-missing-to"), "{human}");
    assert!(
        human.contains("verdict valid (exit code 0), expected invalid"),
        "{human}"
    );
    assert!(human.ends_with("4 cases: 2 passed, 2 failed\n"), "{human}");
}

#[test]
fn the_valid_exit_code_is_configurable_and_the_file_is_passed() {
    let dir = tempfile::tempdir().unwrap();
    // Says "valid" (exit 3) exactly for the files whose name has "minimal".
    let fake = script(
        dir.path(),
        "by-name.sh",
        "case \"$1\" in *minimal*) exit 3;; *) exit 1;; esac",
    );
    let results = conformance::run_external(
        &small_suite(&IDS),
        &format!("sh '{}' {{file}}", fake.display()),
        3,
        Duration::from_secs(10),
    );
    assert!(
        results.iter().all(|r| r.status == Status::Pass),
        "{}",
        render(&results, ReportFormat::Human, "t")
    );
}

#[test]
fn a_crashing_implementation_is_reported_as_crashed() {
    let dir = tempfile::tempdir().unwrap();
    let fake = script(dir.path(), "crash.sh", "kill -SEGV $$");
    let results = conformance::run_external(
        &small_suite(&IDS),
        &format!("sh '{}' {{file}}", fake.display()),
        0,
        Duration::from_secs(10),
    );
    for r in &results {
        assert_eq!(r.outcome, Outcome::Crashed { signal: 11 }, "{}", r.id);
        assert_eq!(r.status, Status::Fail);
        assert_eq!(r.verdict, None);
    }
    let summary = Summary::of(&results);
    assert_eq!(summary.crashed, 4);
    let junit = render(&results, ReportFormat::Junit, "crashes");
    assert_eq!(junit.matches("<error message=").count(), 4, "{junit}");
    assert!(junit.contains("type=\"crash\""), "{junit}");
    assert!(junit.contains("killed by signal 11"), "{junit}");
}

#[test]
fn a_hanging_implementation_is_killed_after_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    // The sleep is a grandchild of the runner's shell: it must die too.
    let pids = dir.path().join("pids");
    let fake = script(
        dir.path(),
        "hang.sh",
        &format!("sleep 100 & echo $! >> '{}'; wait", pids.display()),
    );
    let started = Instant::now();
    let results = conformance::run_external(
        &small_suite(&IDS),
        &format!("sh '{}' {{file}}", fake.display()),
        0,
        Duration::from_secs(1),
    );
    let took = started.elapsed();
    assert!(took < Duration::from_secs(20), "the runner took {took:?}");
    for r in &results {
        assert_eq!(r.outcome, Outcome::TimedOut { after_ms: 1000 }, "{}", r.id);
        assert_eq!(r.status, Status::Fail);
    }
    assert_eq!(Summary::of(&results).timed_out, 4);
    let pids = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(pids.lines().count(), 4);
    // Killed processes may wait a moment as zombies for their new parent to reap them.
    let alive = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                stat.rsplit_once(") ")
                    .map(|(_, rest)| !rest.starts_with('Z'))
            })
            .unwrap_or(false)
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.lines().any(alive) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    for pid in pids.lines() {
        assert!(!alive(pid), "sleep {pid} survived the timeout");
    }
    let json: serde_json::Value =
        serde_json::from_str(&render(&results, ReportFormat::Json, "hangs")).unwrap();
    assert_eq!(json["summary"]["timed_out"], 4);
    assert_eq!(json["results"][0]["outcome"]["kind"], "timed-out");
}

#[test]
fn a_command_without_the_placeholder_is_not_run() {
    let results = conformance::run_external(&small_suite(&IDS), "true", 0, Duration::from_secs(1));
    assert!(results
        .iter()
        .all(|r| matches!(&r.outcome, Outcome::NotRun { error } if error.contains("{file}"))));
}

#[test]
fn a_faithful_copy_round_trips_and_a_changed_one_names_its_differences() {
    let suite = small_suite(&[
        "cbf10-full-head",
        "cbf07-main-line",
        "cif-every-marker",
        "cif-arrow-missing-to",
    ]);
    let copied = conformance::run_roundtrip(&suite, "cp {in} {out}", Duration::from_secs(10));
    assert_eq!(copied.len(), 3, "invalid cases are not round-tripped");
    assert!(
        copied.iter().all(|r| r.status == Status::Pass),
        "{}",
        render(&copied, ReportFormat::Human, "t")
    );

    // Changes the red player, the last move (to another legal one) and an arrow's colour.
    let changed = conformance::run_roundtrip(
        &suite,
        "sed -e 's/<Red>许银川</<Red>X</' -e 's/\"10-22\"/\"10-02\"/' -e 's/arrow color=\"red\"/arrow color=\"blue\"/' {in} > {out}",
        Duration::from_secs(10),
    );
    let details = |id: &str| {
        changed
            .iter()
            .find(|r| r.id == id)
            .map(|r| (r.status, r.details.join("\n")))
            .unwrap()
    };
    let (status, text) = details("cbf10-full-head");
    assert_eq!(status, Status::Fail);
    assert!(text.contains("head.red: \"许银川\" -> \"X\""), "{text}");
    assert!(text.contains("move_list.move[7].value"), "{text}");
    let (status, text) = details("cbf07-main-line");
    assert_eq!(status, Status::Fail);
    assert!(text.contains("move_list.move[6].value"), "{text}");
    assert!(!text.contains("head"), "{text}");
    let (status, text) = details("cif-every-marker");
    assert_eq!(status, Status::Fail);
    assert!(text.contains(".color"), "{text}");
}

#[test]
fn a_round_trip_that_writes_nothing_or_garbage_fails() {
    let suite = small_suite(&["cif-minimal", "cbf10-minimal"]);
    let nothing = conformance::run_roundtrip(&suite, "true {in} {out}", Duration::from_secs(10));
    assert!(nothing
        .iter()
        .all(|r| r.status == Status::Fail && r.details.iter().any(|d| d.contains("cannot read"))));
    let garbage = conformance::run_roundtrip(
        &suite,
        "echo '<cif>' > {out}; : {in}",
        Duration::from_secs(10),
    );
    assert!(garbage
        .iter()
        .all(|r| r.status == Status::Fail && r.details.iter().any(|d| d.contains("not valid"))));
}

#[test]
fn export_writes_a_suite_that_loads_back_the_same() {
    let suite = full_suite();
    let dir = tempfile::tempdir().unwrap();
    let n = conformance::export(&suite, dir.path()).unwrap();
    assert_eq!(n, suite.cases().len());
    let back = conformance::load(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.manifest, suite.manifest);
    for case in suite.cases() {
        assert_eq!(
            std::fs::read(suite.path_of(case)).unwrap(),
            std::fs::read(back.path_of(case)).unwrap(),
            "{}",
            case.id
        );
    }
    assert!(dir.path().join("README.md").is_file());
}

#[test]
fn load_reports_every_problem_of_a_bad_manifest() {
    let suite = full_suite();
    let dir = tempfile::tempdir().unwrap();
    let mut manifest = suite.manifest.clone();
    manifest.cases.truncate(2);
    let bad = |id: &str, f: &dyn Fn(&mut Case)| {
        let mut c = manifest.cases[0].clone();
        c.id = id.into();
        f(&mut c);
        c
    };
    let extra = vec![
        bad("missing-file", &|c| c.file = "cases/nope.cif".into()),
        bad("escapes", &|c| c.file = "../manifest.json".into()),
        bad("valid-with-codes", &|c| {
            c.codes.insert("E0210".into());
        }),
        bad("unknown-code", &|c| {
            c.verdict = Verdict::Invalid;
            c.codes.insert("E9999".into());
        }),
        bad(&manifest.cases[0].id.clone(), &|_| {}),
    ];
    manifest.cases.extend(extra);
    for case in &manifest.cases {
        if !case.file.contains("nope") && !case.file.starts_with("..") {
            let to = dir.path().join(&case.file);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(suite.path_of(case), to).unwrap();
        }
    }
    std::fs::write(
        dir.path().join("manifest.json"),
        serde_json::to_string(&manifest).unwrap(),
    )
    .unwrap();
    let err = conformance::load(dir.path()).unwrap_err();
    for expected in [
        "missing-file: file cases/nope.cif does not exist",
        "escapes: file \"../manifest.json\" must be a relative path inside the suite",
        "valid-with-codes: a valid case lists error codes",
        "unknown-code: unknown code E9999",
        "empty or duplicate id",
    ] {
        assert!(err.contains(expected), "{expected:?} not in\n{err}");
    }
}

/// The JUnit report is well-formed XML with one testcase a case, even when details carry
/// markup and control characters.
#[test]
fn the_junit_report_is_well_formed() {
    let dir = tempfile::tempdir().unwrap();
    let fake = script(
        dir.path(),
        "noisy.sh",
        "printf '<oops> & \"quotes\" \\033[31m]]>\\n' >&2; exit 1",
    );
    let results = conformance::run_external(
        &small_suite(&IDS),
        &format!("sh '{}' {{file}}", fake.display()),
        0,
        Duration::from_secs(10),
    );
    let junit = render(&results, ReportFormat::Junit, "noisy <suite>");
    let mut reader = quick_xml::Reader::from_str(&junit);
    let (mut testcases, mut failures) = (0, 0);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e)) => {
                match e.name().as_ref() {
                    b"testcase" => testcases += 1,
                    b"failure" => failures += 1,
                    _ => {}
                }
            }
            Ok(_) => {}
            Err(e) => panic!("not well-formed: {e}\n{junit}"),
        }
    }
    assert_eq!((testcases, failures), (4, 2), "{junit}");
    assert!(
        junit.contains("&lt;oops&gt; &amp; &quot;quotes&quot;"),
        "{junit}"
    );
}

/// The `boardxml` binary, run from the repository root.
fn boardxml() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_boardxml"));
    command.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    command
}

/// Issue 13, defect 9: a failed write to standard output is exit code 2 with a message, not
/// a panic (exit code 101).
#[test]
fn a_report_that_cannot_be_written_is_exit_code_2_not_a_panic() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        common::skip(
            common::Need::Platform,
            "/dev/full is absent, the failed write to stdout is not tested",
        );
        return;
    }
    for args in [
        &["conformance", "run", "--format", "junit"][..],
        &["conformance", "run", "--format", "json"][..],
    ] {
        let out = boardxml()
            .args(args)
            .stdout(std::process::Stdio::from(
                std::fs::File::create(full).unwrap(),
            ))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: cannot write to standard output: "),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = boardxml()
        .args(["conformance", "export"])
        .arg(dir.path().join("copy"))
        .stdout(std::process::Stdio::from(
            std::fs::File::create(full).unwrap(),
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "export: {stderr}");
    assert!(
        stderr.contains("error: cannot write to standard output: "),
        "export: {stderr}"
    );
}

/// Every file under `dir` with its bytes, by relative path.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                files.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    files
}

/// Issue 13, defect 3: `conformance export conformance` (the suite onto itself) emptied the
/// suite's files and said it succeeded. A target that overlaps the suite (the same folder,
/// by any name; a folder inside it; a folder it is inside) is refused with exit code 2 and
/// nothing is written.
#[test]
fn export_refuses_a_target_that_overlaps_the_suite() {
    let dir = tempfile::tempdir().unwrap();
    let suite_dir = dir.path().join("suite");
    conformance::export(&full_suite(), &suite_dir).unwrap();
    std::os::unix::fs::symlink(&suite_dir, dir.path().join("alias")).unwrap();
    let before = snapshot(dir.path().join("suite").as_path());
    assert!(before.len() > 400, "{}", before.len());
    let cases = suite_dir.join("cases");
    for target in [
        suite_dir.clone(),
        dir.path().join("alias"),
        suite_dir.join("../suite"),
        suite_dir.join("."),
        cases.clone(),
        cases.join("new"),
        dir.path().join("alias/cases/cif"),
        dir.path().to_path_buf(),
    ] {
        let suite = conformance::load(&suite_dir).unwrap();
        let err = conformance::export(&suite, &target).unwrap_err();
        assert!(err.contains("overlap"), "{}: {err}", target.display());
        let out = boardxml()
            .args(["conformance", "export"])
            .arg(&target)
            .arg("--suite")
            .arg(&suite_dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", target.display());
        assert!(
            stderr.starts_with("error: ") && stderr.contains("overlap"),
            "{stderr}"
        );
        assert_eq!(snapshot(&suite_dir), before, "{}", target.display());
    }
    assert!(!cases.join("new").exists());
}

/// Export writes only new files into a new or empty folder: it never writes over a file
/// that is there, nor through a symbolic link planted in the target.
#[test]
fn export_writes_only_new_files_and_follows_no_planted_link() {
    let suite = full_suite();
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    // A non-empty target is refused before anything is written.
    let target = dir.path().join("target");
    std::fs::create_dir(&target).unwrap();
    std::os::unix::fs::symlink(&victim, target.join("manifest.json")).unwrap();
    let err = conformance::export(&suite, &target).unwrap_err();
    assert!(err.contains("not empty"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 1);
    // An empty target is fine, and so is a missing one (created with its parents).
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert_eq!(conformance::export(&suite, &empty), Ok(suite.cases().len()));
    let deep = dir.path().join("a/b/c");
    assert_eq!(conformance::export(&suite, &deep), Ok(suite.cases().len()));
    // Exporting again onto an export refuses: it is not empty.
    let err = conformance::export(&suite, &deep).unwrap_err();
    assert!(err.contains("not empty"), "{err}");
    assert_eq!(snapshot(&deep), snapshot(&empty));
}

/// File names that a shell would take for code, quotes or several words.
const HOSTILE_NAMES: [&str; 8] = [
    "$(touch pwned-subst).cif",
    "`touch pwned-backtick`.cif",
    ";touch pwned-semicolon;.cif",
    "it's.cif",
    "say \"hi\".cif",
    "two  words.cif",
    "new\nline.cif",
    "'$(touch pwned-quoted)'\".cif",
];

/// Files the names above would create in the current folder if they were run.
fn pwned() -> Vec<PathBuf> {
    ["subst", "backtick", "semicolon", "quoted", "heredoc"]
        .iter()
        .map(|n| Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(format!("pwned-{n}")))
        .filter(|p| p.exists())
        .inspect(|p| {
            let _ = std::fs::remove_file(p);
        })
        .collect()
}

/// A suite in `dir` of copies of a valid case, one a hostile name (and `extra` names).
fn hostile_suite(dir: &Path, extra: &[&str]) -> Suite {
    let full = full_suite();
    let minimal = full.case("cif-minimal").unwrap().clone();
    let cases = dir.join("cases");
    std::fs::create_dir(&cases).unwrap();
    let mut manifest = full.manifest.clone();
    manifest.cases = HOSTILE_NAMES
        .iter()
        .chain(extra)
        .enumerate()
        .map(|(i, name)| {
            std::fs::copy(full.path_of(&minimal), cases.join(name)).unwrap();
            Case {
                id: format!("hostile-{i}"),
                file: format!("cases/{name}"),
                ..minimal.clone()
            }
        })
        .collect();
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string(&manifest).unwrap(),
    )
    .unwrap();
    conformance::load(dir).unwrap_or_else(|e| panic!("{e}"))
}

/// Issue 13, defect 11: a file name never runs as a command, and the implementation gets
/// each case's path exactly, as one argument, whatever it contains.
#[test]
fn a_file_name_is_passed_as_one_word_and_never_runs() {
    let dir = tempfile::tempdir().unwrap();
    let suite = hostile_suite(dir.path(), &[]);
    let log = dir.path().join("log");
    // Exits 0 (valid) exactly when it gets one argument that is a file.
    let fake = script(
        dir.path(),
        "check.sh",
        &format!(
            "printf '%s\\0' \"$@\" >> '{}'; [ $# -eq 1 ] && [ -f \"$1\" ]",
            log.display()
        ),
    );
    let template = format!("sh '{}' {{file}}", fake.display());
    assert_eq!(conformance::check_template(&template, &["{file}"]), None);
    let results = conformance::run_external(&suite, &template, 0, Duration::from_secs(10));
    assert!(
        results.iter().all(|r| r.status == Status::Pass),
        "{}",
        render(&results, ReportFormat::Human, "t")
    );
    let log = std::fs::read(&log).unwrap();
    let mut got: Vec<&[u8]> = log.split(|&b| b == 0).filter(|s| !s.is_empty()).collect();
    got.sort();
    let mut expected: Vec<Vec<u8>> = suite
        .cases()
        .iter()
        .map(|c| suite.path_of(c).into_os_string().into_encoded_bytes())
        .collect();
    expected.sort();
    assert_eq!(got, expected.iter().map(|e| &e[..]).collect::<Vec<_>>());
    // A here-document expands what it is given, but a variable's value is not code.
    let heredoc = format!(
        "cat > /dev/null <<EOF\n{{file}} $(: touch pwned-heredoc)\nEOF\nsh '{}' {{file}}",
        fake.display()
    );
    let results = conformance::run_external(&suite, &heredoc, 0, Duration::from_secs(10));
    assert!(results.iter().all(|r| r.status == Status::Pass));
    let copied = conformance::run_roundtrip(&suite, "cp {in} {out}", Duration::from_secs(10));
    assert!(
        copied.iter().all(|r| r.status == Status::Pass),
        "{}",
        render(&copied, ReportFormat::Human, "t")
    );
    assert_eq!(
        pwned(),
        Vec::<PathBuf>::new(),
        "a file name ran as a command"
    );
}

/// Issue 13, defect 11: a placeholder inside quotes in the template (`"{file}"`,
/// `'{out}'`) would be quoted twice and let a file name run as a command: the template is
/// refused, with the reason, and nothing runs.
#[test]
fn a_placeholder_inside_quotes_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let suite = hostile_suite(dir.path(), &[]);
    let ran = dir.path().join("ran");
    let fake = script(
        dir.path(),
        "ran.sh",
        &format!("echo x >> '{}'", ran.display()),
    );
    for template in [
        format!("sh '{}' \"{{file}}\"", fake.display()),
        format!("sh '{}' '{{file}}'", fake.display()),
        format!("sh '{}' \"--file={{file}}\"", fake.display()),
        format!("sh '{}' \\{{file}}", fake.display()),
        format!("sh '{}' \"$(echo \"{{file}}\")\"", fake.display()),
    ] {
        let problem = conformance::check_template(&template, &["{file}"])
            .unwrap_or_else(|| panic!("{template}: accepted"));
        assert!(problem.contains("quot"), "{template}: {problem}");
        let results = conformance::run_external(&suite, &template, 0, Duration::from_secs(10));
        for r in &results {
            assert!(
                matches!(&r.outcome, Outcome::NotRun { error } if error.contains("quot")),
                "{template}: {:?}",
                r.outcome
            );
        }
        let out = boardxml()
            .args(["conformance", "run", "--suite"])
            .arg(dir.path())
            .arg("--impl")
            .arg(&template)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{template}: {stderr}");
        assert!(stderr.contains("error: --impl: "), "{stderr}");
    }
    let problem = conformance::check_template("cp {in} '{out}'", &["{in}", "{out}"]).unwrap();
    assert!(problem.contains("{out}"), "{problem}");
    let results = conformance::run_roundtrip(&suite, "cp \"{in}\" {out}", Duration::from_secs(10));
    assert!(results
        .iter()
        .all(|r| matches!(&r.outcome, Outcome::NotRun { error } if error.contains("{in}"))));
    assert!(!ran.exists(), "a refused template ran");
    assert_eq!(
        pwned(),
        Vec::<PathBuf>::new(),
        "a file name ran as a command"
    );
    // Unquoted, inside $( ), with text around it, in a comment: fine.
    for template in [
        "tool {file}",
        "tool --file={file}.bak",
        "tool \"$(cat {file})\" # it's {file}",
        "tool `cat {file}` && echo 'done' \"ok\"",
        "f() { tool \"$1\"; }; f {file}",
    ] {
        assert_eq!(
            conformance::check_template(template, &["{file}"]),
            None,
            "{template}"
        );
    }
}

/// The details of every result, for a failure message.
fn all_details(results: &[conformance::CaseResult]) -> String {
    render(results, ReportFormat::Human, "t")
}

/// Issue 13, defect 5: what a round trip wrote is read only if it is a regular file, and
/// with a bound: a link to /dev/zero drove memory to 18.6 GB, a FIFO hung, a 3 GB sparse
/// file took 6.3 GB. Each is a failure of its case, with a message, in bounded time.
#[test]
fn a_round_trip_output_that_is_not_a_small_regular_file_fails_its_case() {
    let suite = small_suite(&["cif-minimal", "cbf10-minimal"]);
    let timeout = Duration::from_secs(5);
    for (template, expected) in [
        ("ln -s /dev/zero {out}; : {in}", "symbolic link"),
        ("ln -s {in} {out}", "symbolic link"),
        ("mkfifo {out}; : {in}", "not a regular file (a FIFO)"),
        ("mkdir {out}; : {in}", "not a regular file (a folder)"),
        (
            "truncate -s 3G {out}; : {in}",
            "more than the limit of 64 MiB",
        ),
        (
            "cp {in} {out}; head -c 70000000 /dev/zero >> {out}",
            "more than the limit of 64 MiB",
        ),
        ("true {in} {out}", "was not written"),
    ] {
        let started = Instant::now();
        let results = conformance::run_roundtrip(&suite, template, timeout);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(30), "{template}: took {took:?}");
        assert_eq!(results.len(), 2);
        for r in &results {
            assert_eq!(
                r.status,
                Status::Fail,
                "{template}: {}",
                all_details(&results)
            );
            assert!(
                r.details.iter().any(|d| d.contains(expected)),
                "{template}: {expected:?} not in\n{}",
                all_details(&results)
            );
        }
    }
}

/// Issue 13, defect 5: the timeout bounds the whole case, a round trip too: a command that
/// blocks on its output (a FIFO nobody reads) is killed with its process group.
#[test]
fn a_round_trip_that_hangs_is_killed_after_the_timeout() {
    let suite = small_suite(&["cif-minimal", "cbf10-minimal"]);
    let started = Instant::now();
    let results = conformance::run_roundtrip(
        &suite,
        "mkfifo {out}; cat {in} > {out}",
        Duration::from_secs(1),
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    for r in &results {
        assert_eq!(r.outcome, Outcome::TimedOut { after_ms: 1000 }, "{}", r.id);
        assert_eq!(r.status, Status::Fail);
    }
}

/// Issue 13, defect 5: each case writes into a fresh private folder of its own (mode 0700,
/// empty), so that nobody can plant `{out}` beforehand; the folders are removed after.
#[test]
fn each_round_trip_case_writes_into_a_fresh_private_folder() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let fake = script(
        dir.path(),
        "private.sh",
        &format!(
            "d=$(dirname \"$2\")\n\
             [ -z \"$(ls -A \"$d\")\" ] || {{ echo \"$d is not empty\" >&2; exit 1; }}\n\
             [ \"$(stat -c %a \"$d\")\" = 700 ] || {{ echo \"$d is not private\" >&2; exit 1; }}\n\
             echo \"$d\" >> '{}'\n\
             cp \"$1\" \"$2\"",
            log.display()
        ),
    );
    let suite = small_suite(&["cif-minimal", "cbf10-minimal", "cbf07-main-line"]);
    let results = conformance::run_roundtrip(
        &suite,
        &format!("sh '{}' {{in}} {{out}}", fake.display()),
        Duration::from_secs(10),
    );
    assert!(
        results.iter().all(|r| r.status == Status::Pass),
        "{}",
        all_details(&results)
    );
    let log = std::fs::read_to_string(&log).unwrap();
    let folders: std::collections::BTreeSet<&str> = log.lines().collect();
    assert_eq!(folders.len(), 3, "one folder a case: {log}");
    for folder in folders {
        assert!(!Path::new(folder).exists(), "{folder} was left behind");
    }
}

/// Issue 13, defect 5: what a command leaves running in its process group when it ends (a
/// background child that could keep writing to `{out}`, or hold the pipes) is killed too.
#[test]
fn what_a_command_leaves_running_is_killed_when_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let suite = small_suite(&["cif-minimal", "cbf10-minimal"]);
    let started = Instant::now();
    let results = conformance::run_roundtrip(
        &suite,
        &format!(
            "cp {{in}} {{out}}; sleep 100 & echo $! >> '{}'",
            pids.display()
        ),
        Duration::from_secs(10),
    );
    assert!(
        results.iter().all(|r| r.status == Status::Pass),
        "{}",
        all_details(&results)
    );
    let took = started.elapsed();
    let pids = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(pids.lines().count(), 2);
    let alive = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                stat.rsplit_once(") ")
                    .map(|(_, rest)| !rest.starts_with('Z'))
            })
            .unwrap_or(false)
    };
    if !Path::new("/proc/self/stat").exists() {
        common::skip(
            common::Need::Platform,
            "no /proc, leftover processes are not checked",
        );
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.lines().any(alive) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    for pid in pids.lines() {
        assert!(!alive(pid), "sleep {pid} survived its command");
    }
    assert!(took < Duration::from_secs(5), "took {took:?}");
}
