//! The real records in ../shared/corpus (written by XiangQi Bridge and other tools, not by
//! us) must all read, and round-trip through the writer.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use boardxml::encoding::decode;
use boardxml::xml::Reader;
use boardxml_formats::document::{write_document, Document};
use boardxml_formats::validate::{validate_bytes, validate_file, Options};

/// The schema layer only: the format rules have their own corpus test (cbf_rules.rs).
const SCHEMA_ONLY: Options = Options {
    max_errors: 100,
    schema_only: true,
    keep_document: true,
    xml_only: false,
};

fn corpus() -> Option<Vec<PathBuf>> {
    let root = common::shared("corpus")?;
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap().flatten() {
        if dir.path().is_dir() {
            for f in std::fs::read_dir(dir.path()).unwrap().flatten() {
                if f.path().extension().is_some_and(|x| x == "cbf") {
                    files.push(f.path());
                }
            }
        }
    }
    files.sort();
    Some(files)
}

#[test]
fn every_corpus_file_is_schema_valid() {
    let Some(files) = corpus() else { return };
    assert_eq!(
        files.len(),
        25,
        "the corpus has 2 seed files and 23 XiangQi Bridge files"
    );
    for f in &files {
        let report = validate_file(f, &SCHEMA_ONLY);
        assert!(
            report.is_valid(),
            "{}: {:?}",
            f.display(),
            report.diagnostics
        );
        let expected = if f.to_string_lossy().contains("cbf-seed") {
            "cbf-2007"
        } else {
            "cbf-1.0"
        };
        assert_eq!(
            report.format.map(|f| f.name()),
            Some(expected),
            "{}",
            f.display()
        );
    }
}

#[test]
fn corpus_files_round_trip_in_their_own_encoding() {
    let Some(files) = corpus() else { return };
    for f in &files {
        let decoded = decode(&std::fs::read(f).unwrap()).unwrap();
        let mut reader = Reader::new(&decoded.text);
        let doc = reader.read_document::<Document>().expect("schema-valid");
        let written = write_document(&doc, decoded.encoding, decoded.bom);
        let again = validate_bytes(f, &written, &SCHEMA_ONLY);
        assert!(again.is_valid(), "{}: {:?}", f.display(), again.diagnostics);
        assert_eq!(again.encoding, decoded.encoding, "a GBK record stays GBK");
        let re_decoded = decode(&written).unwrap();
        let again_doc = Reader::new(&re_decoded.text)
            .read_document::<Document>()
            .expect("still valid");
        assert_eq!(again_doc, doc, "{}", f.display());
        let bom = decoded.bom;
        // Canonical layout is a fixed point: writing the re-read document gives the same bytes.
        assert_eq!(
            write_document(&again_doc, again.encoding, bom),
            written,
            "{}",
            f.display()
        );
    }
}
