//! A file of the players' formats given to the CIF or CBF reader: the error says which
//! format it is and what reads it (it said "is not valid (0 errors)" before).

use std::path::Path;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The reader's error for `path`, through both front doors.
fn refusals(path: &Path) -> Vec<boardxml_formats::Error> {
    vec![
        boardxml_formats::cbf::read_file(path).expect_err("the CBF reader takes no players' file"),
        boardxml_formats::cif::read_file(path).expect_err("the CIF reader takes no players' file"),
    ]
}

#[test]
fn a_players_file_is_named_by_its_format_not_called_invalid() {
    let dir = tempfile::tempdir().unwrap();
    // An XQF written by our own writer from a shipped record, and the shipped PGN.
    let record =
        boardxml_formats::cbf::read_file(Path::new(ROOT).join("examples/valid/short-game.cbf"))
            .unwrap()
            .document
            .record();
    let xqf = dir.path().join("game.xqf");
    std::fs::write(
        &xqf,
        boardxml_formats::players::xqf::write(&record)
            .unwrap()
            .output,
    )
    .unwrap();
    let pgn = Path::new(ROOT).join("examples/players/opening.pgn");
    for (path, kind) in [(&xqf, "XQF"), (&pgn, "PGN")] {
        for e in refusals(path) {
            assert!(
                matches!(e, boardxml_formats::Error::PlayersFormat(_)),
                "{}: {e:?}",
                path.display()
            );
            let said = e.to_string();
            assert!(said.contains(&format!("is in the {kind} format")), "{said}");
            assert!(said.contains("boardxml convert"), "{said}");
            assert!(!said.contains("0 errors"), "{said}");
        }
    }
}

#[test]
fn a_broken_players_file_keeps_its_problems() {
    let dir = tempfile::tempdir().unwrap();
    // An XQF magic and a header cut short.
    let broken = dir.path().join("cut.xqf");
    std::fs::write(&broken, b"XQ\x12\x00\x00").unwrap();
    let e = boardxml_formats::cbf::read_file(&broken).unwrap_err();
    assert!(
        matches!(e, boardxml_formats::Error::PlayersFormat(_)),
        "{e:?}"
    );
    assert!(e.to_string().contains("is in the XQF format"), "{e}");
    assert!(
        e.diagnostics()
            .iter()
            .any(|d| d.severity == boardxml::diagnostic::Severity::Error),
        "{:?}",
        e.diagnostics()
    );
}
