//! read -> write -> read: every valid document (schema and rules) written back in its own
//! encoding must read as valid, to an equal document, and writing it again gives the same
//! bytes.
#![no_main]

use std::path::Path;

use boardxml_formats::document::write_document;
use boardxml_formats::validate::{validate_bytes, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = Options::default();
    let first = validate_bytes(Path::new("f.xml"), data, &options);
    if !first.is_valid() {
        return;
    }
    // Known finding (conformance case fuzz-gbk-four-byte-gb18030-in-cdata): GBK is read
    // with a decoder that accepts GB18030's four-byte sequences, which the GBK writer
    // cannot write back (a CDATA section becomes text with a character reference). Skipped
    // here so that the target finds other problems; remove once that is settled.
    if std::env::var_os("FUZZ_ROUNDTRIP_STRICT").is_none() {
        if let Ok(decoded) = boardxml::encoding::decode(data) {
            if !boardxml::encoding::can_encode(first.encoding, &decoded.text) {
                return;
            }
        }
    }
    let doc = first
        .document
        .as_ref()
        .expect("valid report without a document");
    let written = write_document(doc, first.encoding, first.bom);
    let second = validate_bytes(Path::new("f.xml"), &written, &options);
    assert!(
        second.is_valid(),
        "written document is invalid ({}, bom {}):\n{:#?}\n--- written ---\n{}",
        first.encoding.name(),
        first.bom,
        second.diagnostics,
        String::from_utf8_lossy(&written)
    );
    assert_eq!(
        first.document,
        second.document,
        "document changed by write + read ({}):\n--- written ---\n{}",
        first.encoding.name(),
        String::from_utf8_lossy(&written)
    );
    let again = write_document(
        second.document.as_ref().unwrap(),
        second.encoding,
        second.bom,
    );
    assert!(
        written == again,
        "writing is not stable:\n--- first ---\n{}\n--- second ---\n{}",
        String::from_utf8_lossy(&written),
        String::from_utf8_lossy(&again)
    );
});
