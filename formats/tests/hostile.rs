//! Hostile and broken input: a clear error, never a panic, a hang or unbounded memory.

use std::path::Path;

use boardxml::diagnostic::Code;
use boardxml_formats::validate::{validate_bytes, validate_bytes_streamed, Options};

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
        report.diagnostics.iter().any(|d| d.code == Code::LIMIT),
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
    assert_eq!(first_code(&doc), Code::LIMIT);
}

/// Streamed (as files over 2 MiB are), the size guard stops a huge tag or text run before
/// quick-xml buffers it: the error names where the run started.
#[test]
fn streamed_huge_tags_and_text_runs_stop_at_the_guard() {
    let mut tag = Vec::with_capacity(100 << 20);
    tag.extend_from_slice(b"<cif><game boardsize=\"");
    tag.resize(tag.len() + (100 << 20), b'8');
    tag.extend_from_slice(b"\"><moves/></game></cif>");
    let mut text = Vec::with_capacity(100 << 20);
    text.extend_from_slice(b"<cif><game><moves>");
    text.resize(text.len() + (100 << 20), b'x');
    text.extend_from_slice(b"</moves></game></cif>");
    for (doc, offset, what) in [(&tag, 5, "a tag"), (&text, 18, "a text run")] {
        let report = validate_bytes_streamed(Path::new("t.xml"), doc, &Options::default());
        let d = &report.diagnostics[0];
        assert_eq!(d.code, Code::LIMIT, "{d:?}");
        assert_eq!(d.offset, offset, "{d:?}");
        assert!(d.message.starts_with(what), "{d:?}");
    }
}

#[test]
fn truncated_files_are_malformed() {
    let full = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/..",
        "/examples/valid/every-marker.cif"
    ))
    .unwrap();
    for cut in [1, 10, 50, 200, full.len() - 10, full.len() - 2] {
        let report = validate_bytes(Path::new("t.xml"), &full[..cut], &Options::default());
        assert!(!report.is_valid(), "cut at {cut}");
        assert!(
            report.diagnostics.iter().any(|d| d.code == Code::MALFORMED),
            "cut at {cut}: {:?}",
            report.diagnostics
        );
    }
}

#[test]
fn nul_bytes_and_forbidden_references_are_errors() {
    assert_eq!(first_code(b"<cif>\0</cif>"), Code::MALFORMED);
    assert_eq!(first_code(b"<cif>&#0;</cif>"), Code::MALFORMED);
    assert_eq!(first_code(b"<cif>&nbsp;</cif>"), Code::MALFORMED);
    assert_eq!(first_code(b"<cif a=\"&foo;\"/>"), Code::MALFORMED);
    assert_eq!(first_code(b""), Code::MALFORMED);
}

#[test]
fn random_bytes_never_panic() {
    // A small deterministic generator; proptest covers structured inputs elsewhere.
    let mut state = 0x2545F4914F6CDD1Du64;
    let valid = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/..",
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

/// Thousands of attributes on one tag are well-formed (the limit is a resource guard, far
/// above them); a name repeated among them is still found, at its second occurrence, and
/// so is the same expanded name under two prefixes; past the guard, a limit.
#[test]
fn thousands_of_attributes_are_read_and_repeats_among_them_found() {
    let tag = |n: usize, extra: &str| {
        let mut doc = String::from("<cif xmlns:p=\"u\" xmlns:q=\"u\"><game");
        for i in 0..n {
            doc.push_str(&format!(" a{i}=\"{i}\""));
        }
        doc.push_str(extra);
        doc.push_str("><moves/></game></cif>");
        doc
    };
    let codes = |doc: &str| {
        let validated = validate_bytes(Path::new("t.xml"), doc.as_bytes(), &Options::default());
        validated.report.diagnostics
    };
    // Undeclared by the schema, but read: no malformed and no limit error.
    let found = codes(&tag(3000, ""));
    assert!(
        found
            .iter()
            .all(|d| d.code != Code::MALFORMED && d.code != Code::LIMIT),
        "{:?}",
        &found[..1]
    );
    let doc = tag(3000, " a7=\"x\"");
    let found = codes(&doc);
    assert_eq!(found[0].code, Code::MALFORMED, "{:?}", found[0]);
    assert!(
        found[0].message.contains("a7 appears twice"),
        "{:?}",
        found[0]
    );
    assert_eq!(found[0].offset, doc.find(" a7=\"x").unwrap() + 1);
    let found = codes(&tag(3000, " p:z=\"1\" q:z=\"2\""));
    assert!(
        found[0].message.contains("same name {u}z"),
        "{:?}",
        found[0]
    );
    let found = codes(&tag(20_000, ""));
    assert_eq!(found[0].code, Code::LIMIT, "{:?}", found[0]);
}

/// XML 1.0 3.1 (Unique Att Spec): a name twice in one tag is not well-formed, namespace
/// declarations included; the error points at the second occurrence.
#[test]
fn an_attribute_twice_in_one_tag_is_malformed() {
    for (doc, at) in [
        (
            &b"<cif><game boardsize=\"8\" boardsize=\"8\"><moves/></game></cif>"[..],
            25,
        ),
        (b"<cif xmlns:a=\"u\" xmlns:a=\"u\"/>", 17),
        (b"<cif xmlns=\"\" xmlns=\"\"/>", 14),
    ] {
        let report = validate_bytes(Path::new("t.xml"), doc, &Options::default());
        let d = &report.diagnostics[0];
        assert_eq!(d.code, Code::MALFORMED, "{d:?}");
        assert!(d.message.contains("appears twice"), "{d:?}");
        assert_eq!(d.offset, at, "{d:?}");
    }
    // The same local name under two prefixes is two names as far as XML 1.0 goes.
    let report = validate_bytes(
        Path::new("t.xml"),
        b"<cif xmlns:a=\"u\" xmlns:b=\"v\"><game a:x=\"1\" b:x=\"2\"><moves/></game></cif>",
        &Options::default(),
    );
    assert!(
        report.diagnostics.iter().all(|d| d.code != Code::MALFORMED),
        "{:?}",
        report.diagnostics
    );
}

/// Attribute-value normalisation (XML 1.0 3.3.3) writes into the tag's shared buffer: a
/// value's line ends and references must come out the same whatever precedes it.
#[test]
fn attribute_values_are_normalised_in_place() {
    let doc = "<cif><game><moves><marker at=\"e4\" type=\"text\" color=\"red\">&#x5e05;</marker>\
               <marker at=\"&#x65;5\" type=\"tex&#116;\" color=\"r&#101;d\">&lt;</marker></moves></game></cif>";
    let report = validate_bytes(Path::new("t.xml"), doc.as_bytes(), &Options::default());
    assert!(report.is_valid(), "{:?}", report.diagnostics);
    let doc = "<cif><game><moves><marker at=\"e4\r\n\" type=\"text\" color=\"red\">x</marker></moves></game></cif>";
    let report = validate_bytes(Path::new("t.xml"), doc.as_bytes(), &Options::default());
    let d = &report.diagnostics[0];
    // One space for `\r\n`, so the value shown is "e4 " (not "e4  ").
    assert_eq!(d.found.as_deref(), Some("\"e4 \""), "{d:?}");
}
