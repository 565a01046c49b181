//! Issue 13, defects 2, 3, 6, 7 and 9: writes that cannot be turned, inputs never
//! destroyed, no temporary file left behind, no terminal escapes passed through, and a
//! failed write to standard output is exit 2.
#![cfg(unix)]

#[path = "../../tests/common/mod.rs"]
mod common;

use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use boardxml::safe_write::{write_file, write_with, Inputs, WriteError};

fn example(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("examples/valid")
        .join(name)
}

fn boardxml(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Links planted under every name the old code would have used (`.NAME.PID.tmp`, for the
/// PIDs a child is likely to get) and under the new code's prefix: none is followed.
#[test]
fn planted_links_in_the_output_folder_are_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let me = std::process::id();
    for pid in me.saturating_sub(50)..me + 1500 {
        for name in [
            format!(".p.svg.{pid}.tmp"),
            format!(".p.svg.boardxml.{pid}.tmp"),
        ] {
            std::os::unix::fs::symlink(&victim, out_dir.join(name)).unwrap();
        }
    }
    let out = out_dir.join("p.svg");
    let o = boardxml(&["render", s(&example("every-marker.cif")), "-o", s(&out)]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("<svg"));
    // In process too, where the PID is known for certain.
    let out = out_dir.join("q.svg");
    std::os::unix::fs::symlink(&victim, out_dir.join(format!(".q.svg.{me}.tmp"))).unwrap();
    write_file(&out, b"<svg/>", &Inputs::new()).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read(&out).unwrap(), b"<svg/>");
}

/// An output that is a link is replaced by the file; what it pointed at is untouched.
#[test]
fn an_output_that_is_a_link_is_replaced_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.path().join("p.svg");
    std::os::unix::fs::symlink(&victim, &out).unwrap();
    let o = boardxml(&["render", s(&example("every-marker.cif")), "-o", s(&out)]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::symlink_metadata(&out).unwrap().is_file());
}

/// `-o /dev/null` writes to the device; it never replaces it with a regular file.
#[test]
fn a_character_device_is_written_to_not_replaced() {
    let null = Path::new("/dev/null");
    if !null.exists() {
        common::skip(common::Need::Platform, "no /dev/null");
        return;
    }
    let o = boardxml(&["render", s(&example("every-marker.cif")), "-o", "/dev/null"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let meta = std::fs::symlink_metadata(null).unwrap();
    assert!(meta.file_type().is_char_device(), "/dev/null was replaced");
}

/// A FIFO at the output receives the output and stays a FIFO.
#[test]
fn a_fifo_is_written_to_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.svg");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        common::skip(common::Need::Platform, "mkfifo is not available");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = boardxml(&["render", s(&example("every-marker.cif")), "-o", s(&fifo)]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(reader.join().unwrap().starts_with("<svg"));
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

/// `-o -` is standard output.
#[test]
fn a_dash_is_standard_output() {
    let o = boardxml(&["render", s(&example("every-marker.cif")), "-o", "-"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("<svg"));
    assert!(!Path::new("-").exists());
    let o = boardxml(&[
        "convert",
        "--to",
        "pgn",
        s(&example("short-game.cbf")),
        "-o",
        "-",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with('['), "{out}");
    // The report goes to stderr, so the record on stdout stays clean.
    assert!(!out.contains("converted to"), "{out}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 converted"));
}

/// `render r.cif -o r.cif` (or through a hard or symbolic link) refuses; r.cif is kept.
#[test]
fn render_never_writes_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("r.cif");
    std::fs::copy(example("every-marker.cif"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    std::fs::hard_link(&input, dir.path().join("hard.cif")).unwrap();
    std::os::unix::fs::symlink(&input, dir.path().join("soft.cif")).unwrap();
    for out in ["r.cif", "hard.cif", "soft.cif"] {
        let out = dir.path().join(out);
        let o = boardxml(&["render", s(&input), "-o", s(&out)]);
        assert_eq!(o.status.code(), Some(2), "{}", out.display());
        assert!(String::from_utf8_lossy(&o.stderr).contains("is an input"));
        assert_eq!(std::fs::read(&input).unwrap(), before);
    }
}

/// Directories and other special files are refused with a message, not replaced.
#[test]
fn a_folder_is_not_an_output() {
    let dir = tempfile::tempdir().unwrap();
    let o = boardxml(&[
        "render",
        s(&example("every-marker.cif")),
        "-o",
        s(dir.path()),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a folder"));
    assert!(dir.path().is_dir());
}

/// A read-only file is kept, even for root, who could rename over it.
#[test]
fn a_read_only_file_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.svg");
    std::fs::write(&kept, "keep me").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o444)).unwrap();
    let o = boardxml(&["render", s(&example("every-marker.cif")), "-o", s(&kept)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("read-only file"));
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "keep me");
    assert_eq!(names(dir.path()), vec!["kept.svg"]);
}

/// A write that fails half-way (a full disk) leaves the target as it was and no
/// temporary file behind.
#[test]
fn a_failed_write_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("x.json");
    std::fs::write(&target, "old").unwrap();
    let err = write_with(&target, &Inputs::new(), |w| {
        w.write_all(&[b'x'; 65536])?;
        Err(std::io::Error::new(
            std::io::ErrorKind::StorageFull,
            "no space left on device",
        ))
    })
    .unwrap_err();
    assert!(matches!(err, WriteError::Io(..)), "{err}");
    assert_eq!(names(dir.path()), vec!["x.json"]);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
    // And a new name stays absent.
    let fresh = dir.path().join("new.json");
    let _ = write_with(&fresh, &Inputs::new(), |_| {
        Err(std::io::Error::other("refused"))
    });
    assert_eq!(names(dir.path()), vec!["x.json"]);
}

/// On a real full file system, where one can be mounted (root in CI): the temporary file
/// is removed and the disk is left as it was.
#[test]
fn a_full_disk_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(dir.path())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        common::skip(
            common::Need::Platform,
            "cannot mount a small tmpfs here; the in-process test covers the error path",
        );
        return;
    }
    let target = dir.path().join("x.json");
    let err = write_file(&target, &vec![b'x'; 1 << 20], &Inputs::new()).unwrap_err();
    let left = names(dir.path());
    let _ = Command::new("umount").arg(dir.path()).status();
    assert!(matches!(err, WriteError::Io(..)), "{err}");
    assert!(left.is_empty(), "{left:?}");
}

/// A killed run's temporary file is recognisable by its name and removed by the next run
/// that writes into its folder, once its process is gone; nothing else is touched.
#[test]
fn leftovers_of_a_killed_run_are_cleaned() {
    let dir = tempfile::tempdir().unwrap();
    // A PID that is not running: a child that has exited and been reaped.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let make = |name: &str, old_enough: bool| {
        let p = dir.path().join(name);
        let f = std::fs::File::create(&p).unwrap();
        if old_enough {
            f.set_modified(old).unwrap();
        }
        p
    };
    let leftover = make(&format!(".p.svg.boardxml.{dead}.Xy12ab.tmp"), true);
    let fresh = make(&format!(".p.svg.boardxml.{dead}.Zz34cd.tmp"), false);
    let live = make(
        &format!(".p.svg.boardxml.{}.Ab56ef.tmp", std::process::id()),
        true,
    );
    let other = make(".p.svg.12345.tmp", true);
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let link = dir
        .path()
        .join(format!(".p.svg.boardxml.{dead}.Link99.tmp"));
    std::os::unix::fs::symlink(&victim, &link).unwrap();

    let out = dir.path().join("p.svg");
    let o = boardxml(&["render", s(&example("every-marker.cif")), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!leftover.exists(), "the dead run's leftover is still there");
    assert!(fresh.exists(), "a recent file may belong to a live writer");
    assert!(live.exists(), "a live process's file was removed");
    assert!(other.exists(), "a file that is not ours was removed");
    assert!(
        std::fs::symlink_metadata(&link).is_ok(),
        "a link was removed"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

/// A new output gets the permissions a new file gets (not tempfile's 0600); an existing
/// one keeps its own.
#[test]
fn permissions_follow_the_umask_or_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.svg");
    write_file(&new, b"x", &Inputs::new()).unwrap();
    let mode = std::fs::metadata(&new).unwrap().permissions().mode() & 0o777;
    assert_ne!(
        mode & 0o044,
        0,
        "mode {mode:o}: others cannot read a new output"
    );
    let kept = dir.path().join("kept.svg");
    std::fs::write(&kept, "old").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    let ino = std::fs::metadata(&kept).unwrap().ino();
    write_file(&kept, b"new", &Inputs::new()).unwrap();
    let meta = std::fs::metadata(&kept).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    assert_ne!(meta.ino(), ino, "written in place instead of renamed");
}

fn run_to_dev_full(args: &[&str]) -> Option<Output> {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()?;
    Some(
        Command::new(env!("CARGO_BIN_EXE_boardxml"))
            .args(args)
            .env("NO_COLOR", "1")
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .output()
            .expect("the binary runs"),
    )
}

/// A failed write to standard output is exit 2 with a message: never a panic (101), never
/// exit 0 with the output lost.
#[test]
fn a_full_standard_output_is_exit_2() {
    let record = example("short-game.cbf");
    let invalid = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/invalid");
    for args in [
        vec!["show", s(&record)],
        vec!["validate", s(&record)],
        vec!["validate", "--format", "json", s(&invalid)],
        vec!["render", s(&example("every-marker.cif")), "-o", "-"],
        vec!["convert", "--to", "pgn", s(&record), "-o", "-"],
    ] {
        let Some(o) = run_to_dev_full(&args) else {
            common::skip(common::Need::Platform, "no /dev/full");
            return;
        };
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("standard output"),
            "{args:?}: no message: {err}"
        );
    }
}

/// Escape sequences, C1 controls and bidi overrides from documents and file names never
/// reach the terminal raw, in human or GitHub output.
#[test]
fn terminal_escapes_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let evil = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{202e}";
    let file = dir.path().join(format!("bad{}.cbf", "\u{1b}[31m\u{202e}"));
    let record = std::fs::read_to_string(example("short-game.cbf"))
        .unwrap()
        .replacen(
            "<Move value=\"77-47\"",
            &format!("<Move value=\"77-47{evil}\""),
            1,
        );
    assert!(
        record.contains(evil),
        "the example changed: pick another move"
    );
    std::fs::write(&file, record).unwrap();
    for format in ["human", "github", "json"] {
        let o = boardxml(&["validate", "--format", format, s(dir.path())]);
        assert_eq!(o.status.code(), Some(1), "{format}");
        for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            assert!(
                !text.contains(['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}']),
                "{format} {stream} passes a control through: {text:?}"
            );
        }
        if format == "json" {
            for line in String::from_utf8_lossy(&o.stdout).lines() {
                let v: serde_json::Value = serde_json::from_str(line).expect("JSON lines");
                if v.get("summary").is_some() {
                    continue; // the run's summary record, last
                }
                assert!(v["file"].as_str().unwrap().contains('\u{202e}'), "{line}");
            }
        } else {
            assert!(
                String::from_utf8_lossy(&o.stdout).contains("\\u{1b}"),
                "{format}: the escape is not shown"
            );
        }
    }
    let o = boardxml(&["show", s(&file)]);
    assert!(!String::from_utf8_lossy(&o.stderr).contains('\u{1b}'));
}

/// The two other ways of writing: a new file (export, the built-in suite) never goes
/// through a planted link or over a file; an append (the GitHub step summary) never goes
/// through a link.
#[test]
fn new_files_and_appends_never_follow_a_planted_link() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let link = dir.path().join("planted");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    assert!(boardxml::safe_write::write_new(&link, b"x").is_err());
    assert!(boardxml::safe_write::append(&link, b"x").is_err());
    assert!(boardxml::safe_write::write_new(&victim, b"x").is_err());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let summary = dir.path().join("summary.md");
    boardxml::safe_write::append(&summary, b"a").unwrap();
    boardxml::safe_write::append(&summary, b"b").unwrap();
    assert_eq!(std::fs::read_to_string(&summary).unwrap(), "ab");
    let fresh = dir.path().join("new.txt");
    boardxml::safe_write::write_new(&fresh, b"n").unwrap();
    assert_eq!(std::fs::read(&fresh).unwrap(), b"n");
}

/// A batch (a library converted to one file a record) writes each file as `write_file`
/// does: a planted link is replaced, not followed; an input is refused; a read-only file is
/// kept; nothing appears before the commit, and no temporary file is left after it.
#[test]
fn a_batch_writes_like_single_files_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let linked = dir.path().join("linked.cbf");
    std::os::unix::fs::symlink(&victim, &linked).unwrap();
    let kept = dir.path().join("kept.cbf");
    std::fs::write(&kept, "kept").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o444)).unwrap();
    let input = dir.path().join("input.cbl");
    std::fs::write(&input, "library").unwrap();
    let mut inputs = Inputs::new();
    inputs.add(&input);

    let batch = boardxml::safe_write::Batch::new(&inputs);
    let many: Vec<PathBuf> = (0..50)
        .map(|i| dir.path().join(format!("r{i}.cbf")))
        .collect();
    for (i, p) in many.iter().enumerate() {
        batch
            .write_file(p, format!("record {i}").as_bytes())
            .unwrap();
    }
    batch.write_file(&linked, b"new").unwrap();
    assert!(matches!(
        batch.write_file(&input, b"x"),
        Err(WriteError::IsInput(_))
    ));
    assert!(matches!(
        batch.write_file(&kept, b"x"),
        Err(WriteError::NotWritable(..))
    ));
    // Staged, not written: the targets do not exist yet, the link still points at the victim.
    assert!(!many[0].exists());
    assert_eq!(std::fs::read_to_string(&linked).unwrap(), "precious");
    let errors = batch.commit();
    assert!(errors.is_empty(), "{errors:?}");
    for (i, p) in many.iter().enumerate() {
        assert_eq!(std::fs::read_to_string(p).unwrap(), format!("record {i}"));
    }
    assert!(!std::fs::symlink_metadata(&linked)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&linked).unwrap(), "new");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "kept");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "library");
    let left: Vec<String> = names(dir.path())
        .into_iter()
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // Dropped without a commit: nothing is written and nothing is left.
    let other = tempfile::tempdir().unwrap();
    let batch = boardxml::safe_write::Batch::new(&Inputs::new());
    batch.write_file(&other.path().join("a.cbf"), b"a").unwrap();
    drop(batch);
    assert!(names(other.path()).is_empty(), "{:?}", names(other.path()));
}

/// A target replaced by a folder between staging and commit is reported, not written
/// through, and the other files of the batch are written all the same.
#[test]
fn a_batch_checks_each_target_again_at_the_commit() {
    let dir = tempfile::tempdir().unwrap();
    let batch = boardxml::safe_write::Batch::new(&Inputs::new());
    let turned = dir.path().join("turned.cbf");
    let fine = dir.path().join("fine.cbf");
    batch.write_file(&turned, b"a").unwrap();
    batch.write_file(&fine, b"b").unwrap();
    std::fs::create_dir(&turned).unwrap();
    let errors = batch.commit();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].to_string().contains("turned.cbf"),
        "{}",
        errors[0]
    );
    assert!(turned.is_dir());
    assert_eq!(std::fs::read(&fine).unwrap(), b"b");
    let left: Vec<String> = names(dir.path())
        .into_iter()
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
