//! Records whose variations nest very deep (issue 28, D1 and D2): `convert` to PGN, JSON
//! and XQF and `show` walked them on the call stack and aborted with a stack overflow at
//! 10,000 levels (and `show` copied each variation's path, quadratic in the depth). The
//! inputs are built here, deterministically: each level is a variation of the move before
//! it, so the tree is as deep as the levels.

use std::path::Path;
use std::process::Output;

/// Levels of nested variations: the 200,000, twenty times what overflowed the call
/// stack (10,000). About 20 s in a debug build for both tests (0.2 to 2 s a conversion in
/// release: BENCHMARKS.md, "Deep variations").
const LEVELS: usize = 200_000;

fn boardxml(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .args(args)
        .output()
        .unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A PGN whose every variation holds the next: horses shuffle back and forth along the
/// line (`h0g2 h9g7 g2h0 g7h9`), and at each ply a rook move (`a0a1`, `a9a8`) is the main
/// continuation that the next variation replaces. `levels` variations, nested `levels`
/// deep, the line `levels + 1` plies long.
fn deep_pgn(levels: usize) -> String {
    let shuffle = |ply: usize| match (ply % 2, (ply / 2) % 2) {
        (0, 0) => "h0g2",
        (0, _) => "g2h0",
        (_, 0) => "h9g7",
        _ => "g7h9",
    };
    let mut text = String::from("[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n");
    text.push_str(shuffle(0));
    for ply in 1..=levels {
        text.push_str(if ply % 2 == 0 { " a0a1 (" } else { " a9a8 (" });
        text.push_str(shuffle(ply));
    }
    text.push_str(&")".repeat(levels));
    text.push_str(" *\n");
    text
}

fn converted(dir: &Path, input: &Path, to: &str, name: &str) -> std::path::PathBuf {
    let out = dir.join(name);
    let o = boardxml(&["convert", "--to", to, s(input), "-o", s(&out)]);
    assert!(
        o.status.success(),
        "convert --to {to} of {}: {:?}\n{}",
        input.display(),
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// Variations in a PGN's move text: its opening parentheses (no comment holds one here).
fn pgn_variations(pgn: &Path) -> usize {
    std::fs::read_to_string(pgn).unwrap().matches('(').count()
}

#[test]
fn convert_writes_variations_nested_any_depth() {
    converts_variations_nested(LEVELS);
}

#[test]
fn show_lists_variations_nested_any_depth() {
    shows_variations_nested(LEVELS);
}

/// Converts a record of `levels` nested variations to every target and back.
fn converts_variations_nested(levels: usize) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("deep.pgn");
    std::fs::write(&input, deep_pgn(levels)).unwrap();

    let pgn = converted(dir.path(), &input, "pgn", "out.pgn");
    assert_eq!(pgn_variations(&pgn), levels);

    let json = converted(dir.path(), &input, "json", "out.json");
    let text = std::fs::read_to_string(&json).unwrap();
    assert_eq!(text.matches("\"variations\"").count(), levels);
    // Still JSON: serde_json reads it back (its own nesting limit aside, it must parse
    // as far as the structure goes: check the start and that brackets balance).
    assert!(
        text.starts_with("{\n  \"dialect\": \"cbf-1.0\""),
        "{}",
        &text[..80]
    );
    let opened = text.matches('[').count();
    let closed = text.matches(']').count();
    assert_eq!(opened, closed);

    // XQF written by our own writer, read back by our own reader, to PGN again.
    let xqf = converted(dir.path(), &input, "xqf", "out.xqf");
    let back = converted(dir.path(), &xqf, "pgn", "back.pgn");
    assert_eq!(pgn_variations(&back), levels);

    // CBF of both dialects, read back.
    for dialect in ["cbf-1.0", "cbf-2007"] {
        let cbf = converted(dir.path(), &input, dialect, &format!("out-{dialect}.cbf"));
        let o = boardxml(&[
            "convert",
            "--to",
            "pgn",
            s(&cbf),
            "-o",
            s(&dir.path().join(format!("back-{dialect}.pgn"))),
        ]);
        // Whatever the CBF reader's limits, it never crashes: it converts or says why.
        assert!(
            o.status.code().is_some_and(|c| c == 0 || c == 1),
            "convert of {dialect}: {:?}\n{}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        );
        if o.status.success() {
            assert_eq!(
                pgn_variations(&dir.path().join(format!("back-{dialect}.pgn"))),
                levels
            );
        }
    }
}

/// Shows a record of `levels` nested variations.
fn shows_variations_nested(levels: usize) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("deep.pgn");
    std::fs::write(&input, deep_pgn(levels)).unwrap();
    let o = boardxml(&["show", s(&input)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains(&format!("variations ({levels}):")), "{text}");
    // The tree shows 200 entries, then how many more.
    assert!(
        text.contains(&format!("... {} more", levels - 200)),
        "{text}"
    );
    // The deepest entry shown names all 200 choices on its way.
    let deepest = text
        .lines()
        .filter(|l| l.contains("--line"))
        .map(|l| l.matches(':').count())
        .max();
    assert_eq!(deepest, Some(200));
}

/// A line of `plies` horse moves, then `alternatives` variations of its last move, each
/// the move `alternative`.
fn line_with_alternatives(plies: usize, alternatives: usize, alternative: &str) -> String {
    let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let mut text = String::from("[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n");
    for ply in 0..plies {
        text.push_str(shuffle[ply % 4]);
        text.push(' ');
    }
    for _ in 0..alternatives {
        text.push_str(&format!("({alternative}) "));
    }
    text.push_str("*\n");
    text
}

/// The E0307 messages of `validate` on `path`, checked to be `count`.
fn illegal_move_messages(path: &Path, count: usize) -> Vec<String> {
    let o = boardxml(&["validate", "--max-errors", "1000", s(path)]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    let messages: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("error[E0307]"))
        .map(str::to_owned)
        .collect();
    assert_eq!(messages.len(), count, "{}", &text[..text.len().min(2000)]);
    messages
}

/// Checks that the `count` E0307 messages of `path` (illegal moves at ply 2,000) are short,
/// name the ply, and end their line with `last` (the move before and the illegal one).
fn names_the_last_moves(path: &Path, count: usize, last: &str) {
    for message in illegal_move_messages(path, count) {
        assert!(
            message.len() < 600,
            "{} bytes: {message:.300}",
            message.len()
        );
        assert!(
            message.contains("at ply 2000 of the line (after 1968 earlier moves) "),
            "{message:.300}"
        );
        assert!(message.contains(last), "{message:.300}");
    }
}

/// An illegal move's message named the whole line before it: every illegal variation at
/// the end of a deep line copied the line, time and memory quadratic in the depth (10,000
/// plies and as many illegal variations: 10 s and 575 MB in release; now 0.5 s, 19 MB).
/// The message names the ply and the line's last moves.
#[test]
fn illegal_moves_at_the_end_of_a_deep_line_name_only_its_last_moves() {
    const PLIES: usize = 2_000;
    // Fewer than the 1,000 diagnostics a report keeps.
    const ALTERNATIVES: usize = 500;
    let dir = tempfile::tempdir().unwrap();
    // Players' format (PGN): the reader's check. Ply 2,000 is black's: a red king's move.
    let pgn = dir.path().join("illegal.pgn");
    std::fs::write(&pgn, line_with_alternatives(PLIES, ALTERNATIVES, "e0e5")).unwrap();
    names_the_last_moves(&pgn, ALTERNATIVES, " g2h0 e0e5: ");

    // CBF: the rules' walk. Written with legal alternatives (black's rook a9a8), which are
    // then made a red king's move (49-44, e0e5) in the file.
    let legal = dir.path().join("legal.pgn");
    std::fs::write(&legal, line_with_alternatives(PLIES, ALTERNATIVES, "a9a8")).unwrap();
    let cbf = converted(dir.path(), &legal, "cbf-1.0", "legal.cbf");
    let text = std::fs::read_to_string(&cbf).unwrap();
    assert_eq!(text.matches("value=\"00-01\"").count(), ALTERNATIVES);
    let illegal = dir.path().join("illegal.cbf");
    std::fs::write(&illegal, text.replace("value=\"00-01\"", "value=\"49-44\"")).unwrap();
    names_the_last_moves(&illegal, ALTERNATIVES, " 67-79 49-44: ");
}
