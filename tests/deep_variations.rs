//! Records whose variations nest very deep (issue 28, D1 and D2): `convert` to PGN, JSON
//! and XQF and `show` walked them on the call stack and aborted with a stack overflow at
//! 10,000 levels (and `show` copied each variation's path, quadratic in the depth). The
//! inputs are built here, deterministically: each level is a variation of the move before
//! it, so the tree is as deep as the levels.

use std::path::Path;
use std::process::Output;

/// Levels of nested variations: twice what overflowed the call stack (10,000). The issue's
/// 200,000 take 50 s in a debug build (0.4 to 3.4 s each in release, measured by hand and
/// recorded in BENCHMARKS.md), too long for a test; the code has no depth of its own, so
/// this depth proves the same.
const LEVELS: usize = 20_000;

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
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("deep.pgn");
    std::fs::write(&input, deep_pgn(LEVELS)).unwrap();

    let pgn = converted(dir.path(), &input, "pgn", "out.pgn");
    assert_eq!(pgn_variations(&pgn), LEVELS);

    let json = converted(dir.path(), &input, "json", "out.json");
    let text = std::fs::read_to_string(&json).unwrap();
    assert_eq!(text.matches("\"variations\"").count(), LEVELS);
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
    assert_eq!(pgn_variations(&back), LEVELS);

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
                LEVELS
            );
        }
    }
}

#[test]
fn show_lists_variations_nested_any_depth() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("deep.pgn");
    std::fs::write(&input, deep_pgn(LEVELS)).unwrap();
    let o = boardxml(&["show", s(&input)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains(&format!("variations ({LEVELS}):")), "{text}");
    // The tree shows 200 entries, then how many more.
    assert!(
        text.contains(&format!("... {} more", LEVELS - 200)),
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
