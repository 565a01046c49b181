//! The witnesses of the README's "Evolving a format" (`boardxml-codegen diff` on CBF 2007),
//! judged by our own generated validator: each is a document of the shipped
//! `schemas/cbf-2007.xsd` (the NEW side of the head revision, the OLD side of the
//! tightened facet), so `boardxml validate` must accept it. The codegen tests check that
//! `diff` produces exactly these files and that xmllint and xmlschema judge both sides.

use std::path::Path;

use boardxml_formats::validate::{validate_bytes, Options};

#[test]
fn the_cbf_witnesses_are_valid_under_the_shipped_schema() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("codegen/tests/diff");
    for name in [
        "cbf-2007-head-witness.new-valid.xml",
        "cbf-2007-tightened-witness.old-valid.xml",
    ] {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        let report = validate_bytes(&path, &bytes, &Options::default());
        assert!(report.is_valid(), "{name}: {:?}", report.diagnostics);
    }
}

#[test]
fn the_tightened_witness_breaks_only_the_bound_it_shows() {
    // Under the shipped schema the witness's Type value 4 is the only thing at stake: with
    // value 3 (what the tightened schema allows) it is valid too.
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("codegen/tests/diff");
    let path = dir.join("cbf-2007-tightened-witness.old-valid.xml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("<Type value=\"4\"/>"));
    let three = text.replace("<Type value=\"4\"/>", "<Type value=\"3\"/>");
    let five = text.replace("<Type value=\"4\"/>", "<Type value=\"5\"/>");
    assert!(validate_bytes(&path, three.as_bytes(), &Options::default()).is_valid());
    assert!(!validate_bytes(&path, five.as_bytes(), &Options::default()).is_valid());
}
