//! `boardxml convert` and `boardxml show`, run as the binary on temporary folders.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn examples() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples")
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

/// `convert` of what the reader of a players' format could not keep (issue 29, item 3): a
/// PGN tag CBF has no field for, text after the result. `validate` warned (E0513, E0505);
/// `convert` said "0 warnings". Now its output names each and its summary counts them.
#[test]
fn what_a_players_reader_does_not_keep_is_a_counted_warning() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    std::fs::write(
        &pgn,
        "[Game \"Chinese Chess\"]\n[Red \"甲\"]\n[Opening \"中炮对单提马\"]\n\n1. h2e2 h9g7 *\n\
         ======\nhttp://www.xqbase.com/\n",
    )
    .unwrap();
    let out = dir.path().join("game.cbf");
    let o = boardxml(&["convert", "--to", "cbf-1.0", s(&pgn), "-o", s(&out)]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("warning[E0513]: tag Opening has no CBF field: not kept"),
        "{text}"
    );
    assert!(text.contains("game.pgn:3:1"), "{text}");
    assert!(
        text.contains("warning[E0505]: 2 lines of text after the result"),
        "{text}"
    );
    assert!(
        text.contains("1 converted to cbf-1.0, 0 failed; 2 warnings"),
        "{text}"
    );
    // What a field exists for is kept.
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("<Red>甲</Red>"));
}

/// PGN tags fill the CBF head through the schema's field table: a tag named as a field
/// fills it with no hand-written entry (DateCreated, CreatorURL and RecordKind had none, and
/// were dropped with "has no CBF field"); a value the field's type refuses and a field
/// filled twice are warnings naming the tag.
#[test]
fn pgn_tags_fill_the_head_fields_of_their_names() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("tags.pgn");
    std::fs::write(
        &pgn,
        "[Game \"Chinese Chess\"]\n[DateCreated \"2024-01-02\"]\n[CreatorURL \"http://x\"]\n\
         [RecordKind \"全局\"]\n[Event \"A\"]\n[Contest \"B\"]\n[RecordType \"x\"]\n\nh2e2 *\n",
    )
    .unwrap();
    let out = dir.path().join("tags.cbf");
    let o = boardxml(&["convert", "--to", "cbf-1.0", s(&pgn), "-o", s(&out)]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let cbf = std::fs::read_to_string(&out).unwrap();
    for kept in [
        "<DateCreated>2024-01-02</DateCreated>",
        "<CreatorURL>http://x</CreatorURL>",
        "<RecordKind>全局</RecordKind>",
        "<Contest>A</Contest>",
    ] {
        assert!(cbf.contains(kept), "{kept} in\n{cbf}");
    }
    assert!(!cbf.contains("<RecordType>"), "{cbf}");
    let text = stdout(&o);
    assert!(
        text.contains(
            "tag Contest fills the CBF field Contest, which an earlier tag filled: not kept"
        ),
        "{text}"
    );
    assert!(
        text.contains("tag RecordType is no value of its CBF field (expected"),
        "{text}"
    );
    assert!(text.contains("; 2 warnings"), "{text}");
}

/// XQF's kind of position (an opening, a middle game, an endgame) has no CBF field: a
/// warning naming it, where it was dropped unsaid.
#[test]
fn an_xqf_kind_cbf_cannot_hold_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    std::fs::write(&pgn, "[Game \"Chinese Chess\"]\n\nh2e2 h9g7 *\n").unwrap();
    let xqf = dir.path().join("game.xqf");
    let o = boardxml(&["convert", "--to", "xqf", s(&pgn), "-o", s(&xqf)]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let mut bytes = std::fs::read(&xqf).unwrap();
    assert_eq!(bytes[0x40], 0, "a whole game from the standard start");
    bytes[0x40] = 3;
    let endgame = dir.path().join("endgame.xqf");
    std::fs::write(&endgame, &bytes).unwrap();
    let out = dir.path().join("endgame.cbf");
    let o = boardxml(&["convert", "--to", "cbf-1.0", s(&endgame), "-o", s(&out)]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("the XQF kind 3 (an endgame) has no CBF field: not kept"),
        "{text}"
    );
    assert!(text.contains("; 1 warnings"), "{text}");
}
