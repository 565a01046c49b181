//! Hostile and broken input: a clear error, never a panic, a hang or unbounded memory.

use std::path::Path;

use boardxml::diagnostic::Code;
use boardxml::validate::{validate_bytes, Options};

fn first_code(bytes: &[u8]) -> Code {
    let report = validate_bytes(Path::new("t.xml"), bytes, &Options::default());
    assert!(!report.is_valid());
    report.diagnostics[0].code
}

#[test]
fn a_million_levels_of_nesting_stop_at_the_depth_limit() {
    let mut doc = String::from("<cif>");
    doc.push_str(&"<game>".repeat(1_000_000));
    let report = validate_bytes(Path::new("t.xml"), doc.as_bytes(), &Options::default());
    assert!(
        report.diagnostics.iter().any(|d| d.code == Code::Limit),
        "{:?}",
        report.diagnostics
    );
}

#[test]
fn a_100_mb_attribute_is_refused() {
    let mut doc = Vec::with_capacity(100 << 20);
    doc.extend_from_slice(b"<cif><game boardsize=\"");
    doc.resize(doc.len() + (100 << 20), b'8');
    doc.extend_from_slice(b"\"><moves/></game></cif>");
    assert_eq!(first_code(&doc), Code::Limit);
}

#[test]
fn truncated_files_are_malformed() {
    let full = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/valid/every-marker.cif"
    ))
    .unwrap();
    for cut in [1, 10, 50, 200, full.len() - 10, full.len() - 2] {
        let report = validate_bytes(Path::new("t.xml"), &full[..cut], &Options::default());
        assert!(!report.is_valid(), "cut at {cut}");
        assert!(
            report.diagnostics.iter().any(|d| d.code == Code::Malformed),
            "cut at {cut}: {:?}",
            report.diagnostics
        );
    }
}

#[test]
fn nul_bytes_and_forbidden_references_are_errors() {
    assert_eq!(first_code(b"<cif>\0</cif>"), Code::Malformed);
    assert_eq!(first_code(b"<cif>&#0;</cif>"), Code::Malformed);
    assert_eq!(first_code(b"<cif>&nbsp;</cif>"), Code::Malformed);
    assert_eq!(first_code(b"<cif a=\"&foo;\"/>"), Code::Malformed);
    assert_eq!(first_code(b""), Code::Malformed);
}

#[test]
fn random_bytes_never_panic() {
    // A small deterministic generator; proptest covers structured inputs elsewhere.
    let mut state = 0x2545F4914F6CDD1Du64;
    let valid = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/valid/short-game.cbf"
    ))
    .unwrap();
    for _ in 0..2000 {
        let mut doc = valid.clone();
        for _ in 0..4 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let at = (state as usize) % doc.len();
            doc[at] = (state >> 32) as u8;
        }
        let _ = validate_bytes(Path::new("t.xml"), &doc, &Options::default());
    }
}
