//! `boardxml convert` and `boardxml show`, run as the binary on temporary folders.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

fn boardxml(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A folder with the two example records (one per dialect) in a subfolder.
fn inputs() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("in/sub");
    std::fs::create_dir_all(&sub).unwrap();
    for name in ["short-game-2007.cbf", "short-game.cbf"] {
        std::fs::copy(examples().join("valid").join(name), sub.join(name)).unwrap();
    }
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_batch_into_an_out_dir() {
    let dir = inputs();
    let out = dir.path().join("out");
    for (to, ext) in [
        ("cbf-1.0", "cbf"),
        ("cbf-2007", "cbf"),
        ("pgn", "pgn"),
        ("json", "json"),
    ] {
        let target = out.join(to);
        let o = boardxml(&[
            "convert",
            "--to",
            to,
            "--notation",
            "chinese",
            s(&dir.path().join("in")),
            "--out-dir",
            s(&target),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{to}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(
            stdout(&o).contains(&format!("2 files: 2 converted to {to}, 0 failed")),
            "{}",
            stdout(&o)
        );
        for stem in ["short-game-2007", "short-game"] {
            let written = target.join(format!("{stem}.{ext}"));
            assert!(written.is_file(), "{} missing", written.display());
            if ext == "cbf" {
                // What convert writes, validate accepts.
                let v = boardxml(&["validate", s(&written)]);
                assert_eq!(v.status.code(), Some(0), "{}", stdout(&v));
            }
        }
    }
    // The 2007 default is GBK.
    let gbk = std::fs::read(out.join("cbf-2007/short-game.cbf")).unwrap();
    assert!(gbk.starts_with(b"<?xml version=\"1.0\" encoding=\"GBK\"?>"));
    let pgn = std::fs::read_to_string(out.join("pgn/short-game-2007.pgn")).unwrap();
    assert!(pgn.starts_with("[Game \"Chinese Chess\"]"));
    assert!(pgn.contains("[Format \"Chinese\"]"));
    let json = std::fs::read_to_string(out.join("json/short-game.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["dialect"], "cbf-1.0");
}

#[test]
fn one_output_file_for_two_inputs_is_refused() {
    let dir = inputs();
    let target = dir.path().join("x.pgn");
    let o = boardxml(&[
        "convert",
        "--to",
        "pgn",
        s(&dir.path().join("in")),
        "-o",
        s(&target),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("2 inputs"), "{}", stderr(&o));
    assert!(!target.exists());
    // And one input with -o is fine.
    let one = dir.path().join("in/sub/short-game.cbf");
    let o = boardxml(&["convert", "--to", "pgn", s(&one), "-o", s(&target)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(target.is_file());
}

#[test]
fn an_input_is_never_overwritten() {
    let dir = inputs();
    let sub = dir.path().join("in/sub");
    let input = sub.join("short-game-2007.cbf");
    let before = std::fs::read(&input).unwrap();
    // 2007 to 1.0 into the input's own folder: the output name is the input's name.
    let o = boardxml(&[
        "convert",
        "--to",
        "cbf-1.0",
        s(&input),
        "--out-dir",
        s(&sub),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("is an input"), "{}", stdout(&o));
    assert_eq!(std::fs::read(&input).unwrap(), before);
    let o = boardxml(&["convert", "--to", "cbf-1.0", s(&input), "-o", s(&input)]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // Nor through another name of the same file: a hard link, a symbolic link.
    let hard = sub.join("hard.cbf");
    std::fs::hard_link(&input, &hard).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&input, sub.join("soft.cbf")).unwrap();
    for other in ["hard.cbf", "soft.cbf"] {
        let out = sub.join(other);
        if !out.exists() {
            continue;
        }
        let o = boardxml(&["convert", "--to", "cbf-1.0", s(&input), "-o", s(&out)]);
        assert_eq!(o.status.code(), Some(1), "{other}: {}", stdout(&o));
        assert_eq!(std::fs::read(&input).unwrap(), before, "{other}");
    }
    // --force is gone: there is no way to write over an input.
    let o = boardxml(&[
        "convert",
        "--to",
        "cbf-1.0",
        s(&input),
        "-o",
        s(&input),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn an_invalid_input_is_counted_as_failed() {
    let dir = inputs();
    std::fs::copy(
        examples().join("invalid/bad-record.cbf"),
        dir.path().join("in/bad-record.cbf"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = boardxml(&[
        "convert",
        "--to",
        "json",
        s(&dir.path().join("in")),
        "--out-dir",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let text = stdout(&o);
    assert!(text.contains("error[E0210]"), "its diagnostics: {text}");
    assert!(text.contains("bad-record.cbf is not valid; not converted"));
    assert!(
        text.contains("3 files: 2 converted to json, 1 failed"),
        "{text}"
    );
    assert!(!out.join("bad-record.json").exists());
    assert!(out.join("short-game.json").is_file());
}

#[test]
fn usage_errors() {
    let dir = inputs();
    let input = dir.path().join("in/sub/short-game.cbf");
    let o = boardxml(&["convert", "--to", "pgn", s(&input)]);
    assert_eq!(o.status.code(), Some(2), "no output named");
    let o = boardxml(&[
        "convert",
        "--to",
        "json",
        "--encoding",
        "gbk",
        s(&input),
        "-o",
        "x.json",
    ]);
    assert_eq!(o.status.code(), Some(2), "JSON is UTF-8");
    let o = boardxml(&["convert", "--to", "pgn", "/no/such/file.cbf", "-o", "x.pgn"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn losses_are_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("rated.cbf");
    std::fs::write(
        &input,
        "<ChineseChessRecord Version=\"1.0\"><Head><RedRating>2500</RedRating><ECCO>C45</ECCO>\
         <RecordResult>4</RecordResult></Head><MoveList><Move value=\"00-00\"/>\
         <Move value=\"77-47\" end=\"1\"/></MoveList></ChineseChessRecord>",
    )
    .unwrap();
    let o = boardxml(&[
        "convert",
        "--to",
        "cbf-2007",
        s(&input),
        "-o",
        s(&dir.path().join("o.cbf")),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    for field in ["RedRating", "ECCO", "RecordResult"] {
        assert!(text.contains(&format!("rated.cbf: {field}: ")), "{text}");
    }
    assert!(
        text.contains("1 files: 1 converted to cbf-2007, 0 failed; 3 warnings"),
        "{text}"
    );
}

#[test]
fn show_prints_the_board_and_the_moves() {
    let input = examples().join("valid/short-game.cbf");
    let o = boardxml(&["show", s(&input), "--ply", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("楚 河"), "{text}");
    assert!(text.contains("to move: black"), "{text}");
    assert!(text.contains("1. "), "{text}");
    let o = boardxml(&["show", s(&input), "--line", "9"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let o = boardxml(&["show", s(&examples().join("invalid/bad-record.cbf"))]);
    assert_eq!(o.status.code(), Some(1));
}
