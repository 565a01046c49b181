//! Issue 13, the input side: what the command line reads must not hang, spin, abort the
//! batch or take unbounded memory, whatever sits in a folder or comes down a pipe.
//!
//! Every run goes through [`run`], which kills the child after a deadline: a regression
//! fails here instead of hanging CI.

#![cfg(unix)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn example(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("examples")
        .join(name)
}

/// Runs boardxml with `args`, feeding `stdin` if given; kills it after `limit`.
fn run(args: &[&str], stdin: Option<Vec<u8>>, limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let feeder = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().unwrap();
        // A reader that stops early closes the pipe: a broken pipe is no failure here.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    // Drain both pipes while waiting, so a chatty child cannot block on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err, &mut v);
        v
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("boardxml {args:?} did not finish within {limit:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if let Some(f) = feeder {
        let _ = f.join();
    }
    Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The diagnostics of JSON output (the final summary record is not one).
fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    text(&o.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|e| panic!("{e}: {l}"))
        })
        .filter(|v| v.get("summary").is_none())
        .collect()
}

const LIMIT: Duration = Duration::from_secs(60);

/// A folder with one valid record and whatever `add` puts beside it.
fn folder(add: impl FnOnce(&Path)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        example("valid/short-game.cbf"),
        dir.path().join("short-game.cbf"),
    )
    .unwrap();
    add(dir.path());
    dir
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

#[test]
fn a_symlink_to_dev_zero_in_a_folder_is_skipped_with_a_note() {
    let dir = folder(|d| std::os::unix::fs::symlink("/dev/zero", d.join("zero.cbf")).unwrap());
    let o = run(&["validate", s(dir.path())], None, LIMIT);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let err = text(&o.stderr);
    assert!(err.contains("zero.cbf") && err.contains("skipped"), "{err}");
    assert!(err.contains("character device"), "{err}");
    assert!(
        text(&o.stdout).contains("1 files: 1 valid"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn a_fifo_in_a_folder_is_skipped_by_validate_and_convert() {
    let dir = folder(|d| mkfifo(&d.join("pipe.cbf")));
    // The machine formats stay parseable: the note goes to stderr.
    let o = run(
        &["validate", "--format", "json", s(dir.path())],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(json_lines(&o).is_empty());
    let err = text(&o.stderr);
    assert!(err.contains("pipe.cbf") && err.contains("FIFO"), "{err}");
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &[
            "convert",
            "--to",
            "pgn",
            s(dir.path()),
            "--out-dir",
            s(out.path()),
        ],
        None,
        LIMIT,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    assert!(out.path().join("short-game.pgn").is_file());
    assert!(text(&o.stderr).contains("pipe.cbf"), "{}", text(&o.stderr));
}

#[test]
fn symlinks_in_folders_regular_files_followed_folders_not() {
    let dir = folder(|d| {
        std::fs::create_dir(d.join("sub")).unwrap();
        // A loop: sub/up -> the folder itself.
        std::os::unix::fs::symlink(d, d.join("sub/up")).unwrap();
        // A link to a regular file is read, under the link's name.
        std::os::unix::fs::symlink(example("invalid/bad-record.cbf"), d.join("sub/link.cbf"))
            .unwrap();
        std::os::unix::fs::symlink(d.join("nowhere.cbf"), d.join("broken.cbf")).unwrap();
    });
    let o = run(
        &["validate", "--format", "json", s(dir.path())],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let files: Vec<String> = json_lines(&o)
        .iter()
        .map(|v| v["file"].as_str().unwrap().to_string())
        .collect();
    assert!(!files.is_empty());
    assert!(
        files.iter().all(|f| f.ends_with("sub/link.cbf")),
        "{files:?}"
    );
    let err = text(&o.stderr);
    assert!(err.contains("up") && err.contains("folder"), "{err}");
    assert!(err.contains("broken.cbf"), "{err}");
}

#[test]
fn dev_zero_by_name_fails_at_byte_0_quickly() {
    let started = Instant::now();
    let o = run(&["validate", "--format", "json", "/dev/zero"], None, LIMIT);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let d = &json_lines(&o)[0];
    assert_eq!(d["code"], "E0101", "{d}");
    assert_eq!(
        (&d["offset"], &d["line"], &d["column"]),
        (&0.into(), &1.into(), &1.into()),
        "{d}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// A sparse 1 GiB file of NULs: the error is at byte 0, found without reading the rest.
#[test]
fn a_gigabyte_of_nuls_fails_at_byte_0_without_being_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nul.xml");
    std::fs::File::create(&path)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let started = Instant::now();
    let o = run(&["validate", "--format", "json", s(&path)], None, LIMIT);
    let elapsed = started.elapsed();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let d = &json_lines(&o)[0];
    assert_eq!(
        (&d["code"], &d["offset"]),
        (&"E0101".into(), &0.into()),
        "{d}"
    );
    assert!(d["message"].as_str().unwrap().contains("U+0000"), "{d}");
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
}

/// Standard input, as `-` (shown as `<stdin>`) or `/dev/stdin`: lines and columns are
/// those of the text, not 1:1.
#[test]
fn standard_input_keeps_lines_and_columns() {
    let file = example("invalid/bad-record.cbf");
    let bytes = std::fs::read(&file).unwrap();
    let placed = |o: &Output| -> Vec<(String, u64, u64)> {
        json_lines(o)
            .iter()
            .map(|d| {
                let code = d["code"].as_str().unwrap().to_string();
                (
                    code,
                    d["line"].as_u64().unwrap(),
                    d["column"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let expected = placed(&run(
        &["validate", "--format", "json", s(&file)],
        None,
        LIMIT,
    ));
    assert!(expected.contains(&("E0210".into(), 8, 11)), "{expected:?}");
    for (arg, shown) in [("-", "<stdin>"), ("/dev/stdin", "/dev/stdin")] {
        let o = run(
            &["validate", "--format", "json", arg],
            Some(bytes.clone()),
            LIMIT,
        );
        assert_eq!(o.status.code(), Some(1), "{arg}: {}", text(&o.stderr));
        assert_eq!(json_lines(&o)[0]["file"], shown);
        assert_eq!(placed(&o), expected, "{arg}");
        // Human output shows the source line too.
        let o = run(&["validate", arg], Some(bytes.clone()), LIMIT);
        let out = text(&o.stdout);
        assert!(out.contains(&format!("{shown}:8:11")), "{out}");
        assert!(out.contains("<Move value=\"77-4\"/>"), "{out}");
    }
    // A stream larger than what is read whole (2 MiB) goes through the same placing.
    let mut big = b"<?xml version=\"1.0\"?>\n<cif>\n".to_vec();
    big.resize(big.len() + (3 << 20), b' ');
    big.extend_from_slice(b"\n\n  <bogus/>\n</cif>\n");
    let o = run(&["validate", "--format", "json", "-"], Some(big), LIMIT);
    let d = &json_lines(&o)[0];
    assert_eq!(d["code"], "E0202", "{d}");
    assert_eq!((&d["line"], &d["column"]), (&5.into(), &3.into()), "{d}");
}

/// `convert -` reads standard input, and needs `-o`.
#[test]
fn convert_reads_standard_input_with_o() {
    let bytes = std::fs::read(example("valid/short-game.cbf")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let pgn = out.path().join("x.pgn");
    let o = run(
        &["convert", "--to", "pgn", "-", "-o", s(&pgn)],
        Some(bytes.clone()),
        LIMIT,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    assert!(std::fs::read_to_string(&pgn)
        .unwrap()
        .contains("[Game \"Chinese Chess\"]"));
    let o = run(
        &["convert", "--to", "pgn", "-", "--out-dir", s(out.path())],
        Some(bytes),
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

/// One folder that cannot be read is reported (E0001, its own path) and the rest is
/// validated; the exit code is 2, as for any I/O error.
#[test]
fn an_unreadable_subfolder_is_reported_and_the_rest_goes_on() {
    // read_dir fails on a path longer than PATH_MAX (4096 on Linux), whoever runs the
    // test. Such a path cannot be created in one go: three chains of eight 200-byte names,
    // each built at a short path and moved into the deepest folder of the one before.
    let dir = folder(|d| {
        let name = "d".repeat(200);
        let chain = |top: &Path| -> PathBuf {
            let deepest = (0..8).fold(top.to_path_buf(), |p, _| p.join(&name));
            std::fs::create_dir_all(&deepest).unwrap();
            deepest
        };
        let mut deepest = chain(&d.join("deep"));
        for piece in ["p2", "p3"] {
            let end = chain(&d.join(piece));
            let moved = deepest.join(piece);
            std::fs::rename(d.join(piece), &moved).unwrap();
            deepest = moved.join(end.strip_prefix(d.join(piece)).unwrap());
        }
        assert!(deepest.as_os_str().len() > 4096);
    });
    std::fs::copy(example("valid/short-game.cbf"), dir.path().join("z.cbf")).unwrap();
    let o = run(
        &["validate", "--format", "json", s(dir.path())],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["code"], "E0001");
    let file = lines[0]["file"].as_str().unwrap();
    assert!(file.len() > 4096 && file.contains("/deep/"), "{file}");
    assert!(
        text(&o.stderr).contains("3 files: 2 valid"),
        "{}",
        text(&o.stderr)
    );

    // The classic way, where permissions are enforced (not as root).
    let dir = folder(|d| std::fs::create_dir(d.join("locked")).unwrap());
    let locked = dir.path().join("locked");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read_dir(&locked).is_ok() {
        eprintln!("SKIPPED (partly): running as root, chmod 000 does not stop read_dir; the PATH_MAX case above ran");
    } else {
        let o = run(
            &["validate", "--format", "json", s(dir.path())],
            None,
            LIMIT,
        );
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        let lines = json_lines(&o);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(lines[0]["file"], s(&locked));
        assert!(
            text(&o.stderr).contains("2 files: 1 valid"),
            "{}",
            text(&o.stderr)
        );
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The same file named twice (directly, through a symlink, in an overlapping folder) is
/// read once: convert does not fail on its own output.
#[test]
fn the_same_input_twice_is_converted_once() {
    let dir = folder(|d| {
        std::os::unix::fs::symlink(d.join("short-game.cbf"), d.join("alias.cbf")).unwrap()
    });
    let input = dir.path().join("short-game.cbf");
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &[
            "convert",
            "--to",
            "json",
            s(&input),
            s(&input),
            s(dir.path()),
            "--out-dir",
            s(out.path()),
        ],
        None,
        LIMIT,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    assert!(
        text(&o.stdout).contains("1 files: 1 converted"),
        "{}",
        text(&o.stdout)
    );
    let o = run(&["validate", s(&input), s(dir.path())], None, LIMIT);
    assert!(
        text(&o.stdout).contains("1 files: 1 valid"),
        "{}",
        text(&o.stdout)
    );
}

/// A raised --max-errors does not raise memory: at most 1000 diagnostics are kept per
/// file, and the rest are counted.
#[test]
fn diagnostics_kept_per_file_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.cif");
    let mut doc = String::from("<cif><game><moves>");
    for _ in 0..5000 {
        doc.push_str("<bogus/>");
    }
    doc.push_str("</moves></game></cif>");
    std::fs::write(&path, doc).unwrap();
    let o = run(
        &[
            "validate",
            "--format",
            "json",
            "--max-errors",
            "1000000",
            s(&path),
        ],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(1));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 1000);
    let err = text(&o.stderr);
    let more = 5000 - 1000;
    assert!(
        err.contains(&format!("{more} more errors not shown")),
        "{err}"
    );
    assert!(err.contains("5000 errors"), "{err}");
    let o = run(
        &["validate", "--max-errors", "1000000", s(&path)],
        None,
        LIMIT,
    );
    let out = text(&o.stdout);
    assert!(
        out.contains(&format!("{more} more errors not shown")),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
}

/// A valid 1.0 record padded with white space between its moves to `size` bytes.
fn padded_record(size: usize) -> Vec<u8> {
    let mut doc = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ChineseChessRecord Version=\"1.0\">\
        <Head><FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1</FEN></Head>\
        <MoveList><Move value=\"00-00\"/>"
        .to_vec();
    let moves = ["79-67", "10-22", "67-79", "22-10"];
    let pad = (1 << 20) - 16;
    let mut i = 0;
    while doc.len() < size {
        doc.resize(doc.len() + pad, b' ');
        doc.extend_from_slice(format!("<Move value=\"{}\"/>", moves[i % 4]).as_bytes());
        i += 1;
    }
    doc.extend_from_slice(b"</MoveList></ChineseChessRecord>\n");
    doc
}

/// A CBF record is kept whole for its rules and for convert: over 16 MiB it is refused
/// (E0106) before its tree is built, from a file or a stream; --schema-only still reads it.
#[test]
fn a_cbf_record_over_64_mib_is_refused() {
    let doc = padded_record(17 << 20);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.cbf");
    std::fs::write(&path, &doc).unwrap();
    let o = run(&["validate", "--format", "json", s(&path)], None, LIMIT);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let d = &json_lines(&o)[0];
    assert_eq!(d["code"], "E0106", "{d}");
    assert!(d["message"].as_str().unwrap().contains("16 MiB"), "{d}");
    let o = run(
        &["validate", "--format", "json", "-"],
        Some(doc.clone()),
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let d = &json_lines(&o)[0];
    assert_eq!(d["code"], "E0106", "{d}");
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &[
            "convert",
            "--to",
            "json",
            s(&path),
            "-o",
            s(&out.path().join("x.json")),
        ],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("E0106"), "{}", text(&o.stdout));
    let o = run(&["validate", "--schema-only", s(&path)], None, LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    // Just under the limit, a record is read as before.
    let small = padded_record(3 << 20);
    std::fs::write(&path, &small).unwrap();
    let o = run(&["validate", s(&path)], None, LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}
