//! The writers refuse what the readers would: a document changed in memory that breaks
//! the format's rules (a CIF marker off its board, an illegal CBF move) is refused by
//! `write` and `write_file` with the codes reading it would give, and nothing is written.

use std::path::Path;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn codes(e: &boardxml_formats::Error) -> Vec<&'static str> {
    e.diagnostics().iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn a_cif_marker_moved_off_its_board_is_not_written() {
    let mut doc =
        boardxml_formats::cif::read_file(Path::new(ROOT).join("examples/valid/every-marker.cif"))
            .unwrap();
    // The first game's markers reach j10; on 8x8 they are off the board.
    doc.document.game[0].boardsize = Some("8x8".parse().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.cif");
    let e = boardxml_formats::cif::write_file(&out, &doc).unwrap_err();
    let found = codes(&e);
    assert!(
        !found.is_empty() && found.iter().all(|c| c.starts_with("E04")),
        "{found:?}: {e}"
    );
    assert!(!out.exists(), "nothing is written");
    assert_eq!(
        codes(&boardxml_formats::cif::write(&doc).unwrap_err()),
        found
    );
    // As read, it is written, and reads back the same.
    doc.document.game[0].boardsize = Some("10x10".parse().unwrap());
    boardxml_formats::cif::write_file(&out, &doc).unwrap();
    assert_eq!(
        boardxml_formats::cif::read_file(&out).unwrap().document,
        doc.document
    );
}

#[test]
fn a_cbf_record_with_an_illegal_move_is_not_written() {
    let mut rec =
        boardxml_formats::cbf::read_file(Path::new(ROOT).join("examples/valid/short-game.cbf"))
            .unwrap();
    let boardxml_formats::cbf::Document::V1_0(r) = &mut rec.document else {
        panic!("short-game.cbf is of the 1.0 dialect");
    };
    // Red's first move made black's reply (a black horse moved with red to move): every
    // value is schema-valid, the move is not legal.
    r.move_list.r#move[1].value = r.move_list.r#move[2].value;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.cbf");
    let e = boardxml_formats::cbf::write_file(&out, &rec).unwrap_err();
    let found = codes(&e);
    assert!(!found.is_empty() && found == ["E0307"], "{found:?}: {e}");
    assert!(!out.exists(), "nothing is written");
    assert_eq!(
        codes(&boardxml_formats::cbf::write(&rec).unwrap_err()),
        found
    );
}
