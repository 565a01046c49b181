//! Regressions found by the fuzz targets (fuzz/, scripts/fuzz.sh) that the conformance
//! suite (conformance/cases/fuzz/) cannot hold well: documents over the reader's 64 KiB
//! chunk.

use std::path::Path;

use boardxml::diagnostic::Code;
use boardxml_formats::validate::{validate_bytes, Options};

/// The decoder reads in 64 KiB chunks (after a first read of 1 KiB for the declaration); a
/// multi-byte sequence begun in one chunk and broken in the next was reported from the
/// bytes before the buffer: a subtract overflow (a slice panic without overflow checks).
/// Here a UTF-8 document (no BOM) has `E4 B8` at offsets 65534..65536 and `(` after it.
#[test]
fn bad_sequence_across_a_chunk_boundary_is_e0102_at_its_file_offset() {
    let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cif><game><moves><!--";
    let tail = "--></moves></game></cif>\n";
    let mut doc = head.as_bytes().to_vec();
    doc.resize(65534, b'x');
    doc.extend_from_slice(b"\xe4\xb8(");
    doc.extend_from_slice(&[b'x'; 100]);
    doc.extend_from_slice(tail.as_bytes());
    let report = validate_bytes(Path::new("t.cif"), &doc, &Options::default());
    let errors: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::INVALID_BYTES)
        .collect();
    assert_eq!(errors.len(), 1, "{:#?}", report.diagnostics);
    assert_eq!(errors[0].offset, 65534, "{:#?}", errors[0]);
    assert_eq!(
        errors[0].found.as_deref(),
        Some("E4 B8"),
        "{:#?}",
        errors[0]
    );
}

/// The same boundary with a character that is whole: it decodes (no error at all).
#[test]
fn good_sequence_across_a_chunk_boundary_decodes() {
    let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cif><game><moves><!--";
    let tail = "--></moves></game></cif>\n";
    let mut doc = head.as_bytes().to_vec();
    doc.resize(65535, b'x');
    doc.extend_from_slice("中".as_bytes());
    doc.extend_from_slice(tail.as_bytes());
    let report = validate_bytes(Path::new("t.cif"), &doc, &Options::default());
    assert!(
        !report
            .diagnostics
            .iter()
            .any(|d| d.code == Code::INVALID_BYTES),
        "{:#?}",
        report.diagnostics
    );
}
