//! `boardxml::read_file::<D>` / `write_file`: the front doors for a generated schema's
//! document type, through the strict reader `validate` uses, its errors located.

use boardxml_formats::generated::{cbf_1_0, cif};

const EVERY_MARKER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../examples/valid/every-marker.cif"
);

#[test]
fn a_generated_root_reads_writes_and_reads_back() {
    let doc = boardxml::read_file::<cif::Root>(EVERY_MARKER).unwrap();
    let cif::Root::Cif(c) = &doc.document;
    assert!(!c.game.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("again.cif");
    boardxml::write_file(&out, &doc).unwrap();
    let again = boardxml::read_file::<cif::Root>(&out).unwrap();
    assert_eq!(again.document, doc.document);
    assert_eq!(
        boardxml::write(&again).unwrap(),
        std::fs::read(&out).unwrap()
    );
}

#[test]
fn a_document_of_another_schema_is_a_located_error() {
    // A CIF document read as CBF 1.0: its root is no global element of that schema.
    let e = boardxml::read_file::<cbf_1_0::Root>(EVERY_MARKER).unwrap_err();
    let d = &e.diagnostics()[0];
    assert_eq!(d.code.as_str(), "E0201", "{e}");
    assert!(d.line > 0 && d.column > 0, "{e}");
    // Bad bytes: located too.
    let e = boardxml::read::<cif::Root>(b"<cif><game><moves></game></cif>").unwrap_err();
    assert!(
        !e.diagnostics().is_empty() && e.diagnostics()[0].line == 1,
        "{e}"
    );
}

#[test]
fn nothing_is_written_for_a_document_reading_would_refuse() {
    let mut doc = boardxml::read_file::<cif::Root>(EVERY_MARKER).unwrap();
    let cif::Root::Cif(c) = &mut doc.document;
    // The schema requires at least one game.
    c.game.clear();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("empty.cif");
    let e = boardxml::write_file(&out, &doc).unwrap_err();
    assert!(!e.diagnostics().is_empty(), "{e}");
    assert!(!out.exists());
}
