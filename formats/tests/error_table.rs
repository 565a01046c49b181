//! One small bad input per diagnostic code, and the exact code, line and column it gives.

use std::path::Path;

use boardxml::diagnostic::Code;
use boardxml_formats::validate::{validate_bytes, Options};

const CBF10_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ChineseChessRecord Version=\"1.0\">\n<Head/>\n<MoveList>\n";

fn cbf10(moves: &str) -> String {
    format!("{CBF10_HEAD}{moves}\n</MoveList>\n</ChineseChessRecord>\n")
}

fn cif(moves: &str) -> String {
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cif>\n<game>\n<moves>{moves}</moves>\n</game>\n</cif>\n")
}

/// (input, code, line, column, path) of the first diagnostic.
fn table() -> Vec<(Vec<u8>, Code, usize, usize, &'static str)> {
    vec![
        (b"<cif><game></cif>".to_vec(), Code::MALFORMED, 1, 12, "/cif/game"),
        (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cif>\xC3\x28</cif>".to_vec(), Code::INVALID_BYTES, 0, 0, ""),
        ([&[0xEF, 0xBB, 0xBF][..], b"<?xml version=\"1.0\" encoding=\"GBK\"?><cif/>"].concat(), Code::ENCODING_MISMATCH, 0, 0, ""),
        (b"<?xml version=\"1.0\" encoding=\"EBCDIC-XYZ\"?><cif/>".to_vec(), Code::UNSUPPORTED_ENCODING, 0, 0, ""),
        (b"<?xml version=\"1.0\"?>\n<!DOCTYPE cif [<!ENTITY a \"b\">]>\n<cif/>".to_vec(), Code::DOCTYPE, 2, 1, ""),
        (b"<?xml version=\"1.0\"?>\n<!DOCTYPE cif SYSTEM \"cif.dtd\">\n<cif><game/></cif>".to_vec(), Code::EXTERNAL_DTD, 2, 1, ""),
        (b"<root/>".to_vec(), Code::UNKNOWN_ROOT, 1, 1, "/root"),
        (cif("<arrow color=\"red\" from=\"a1\" to=\"b2\"/><bogus/>").into_bytes(), Code::UNEXPECTED_ELEMENT, 4, 46, "/cif/game/moves/bogus"),
        (b"<cif>\n  <game/>\n</cif>".to_vec(), Code::MISSING_ELEMENT, 2, 3, "/cif/game"),
        (cif("<arrow color=\"red\" from=\"a1\" to=\"b2\" size=\"3\"/>").into_bytes(), Code::UNKNOWN_ATTRIBUTE, 4, 45, "/cif/game/moves/arrow/@size"),
        (cif("<arrow color=\"red\" from=\"a1\"/>").into_bytes(), Code::MISSING_ATTRIBUTE, 4, 8, "/cif/game/moves/arrow/@to"),
        (b"<ChineseChessRecord Version=\"2.0\"><Head/><MoveList><Move value=\"00-00\"/></MoveList></ChineseChessRecord>".to_vec(), Code::FIXED_VALUE, 1, 21, "/ChineseChessRecord/@Version"),
        (b"<cif>\n  <game>oops<moves/></game>\n</cif>".to_vec(), Code::UNEXPECTED_TEXT, 2, 9, "/cif/game"),
        (cif("<value at=\"a1\">1.5</value>").into_bytes(), Code::LEXICAL, 4, 8, "/cif/game/moves/value"),
        (cif("<marker type=\"blob\" color=\"red\" at=\"a1\"/>").into_bytes(), Code::ENUMERATION, 4, 16, "/cif/game/moves/marker/@type"),
        (cbf10("<Move value=\"00-00\"/><Move value=\"9-47\"/>").into_bytes(), Code::PATTERN, 5, 28, "/ChineseChessRecord/MoveList/Move[2]/@value"),
        (cif("<arrow color=\"red\" opacity=\"256\" from=\"a1\" to=\"b2\"/>").into_bytes(), Code::RANGE, 4, 27, "/cif/game/moves/arrow/@opacity"),
        (cif("<marker type=\"text\" color=\"red\" at=\"a1\"></marker>").into_bytes(), Code::LENGTH, 4, 8, "/cif/game/moves/marker"),
        (cif("<marker color=\"red\" at=\"a1\">skull</marker>").into_bytes(), Code::ALTERNATIVE, 4, 8, "/cif/game/moves/marker"),
        (b"<ChineseChessRecord Version=\"1.0\"><Head><RecordResult>x</RecordResult></Head><MoveList><Move value=\"00-00\"/></MoveList></ChineseChessRecord>".to_vec(), Code::UNION, 1, 41, "/ChineseChessRecord/Head/RecordResult"),
    ]
}

#[test]
fn every_bad_input_gives_its_code_line_and_column() {
    let mut failures = Vec::new();
    for (i, (input, code, line, column, path)) in table().into_iter().enumerate() {
        let report = validate_bytes(Path::new("t.xml"), &input, &Options::default());
        let Some(d) = report.diagnostics.first() else {
            failures.push(format!("row {i}: no diagnostic, expected {code}"));
            continue;
        };
        let (l, c) = report.line_column(d);
        if (d.code, l, c, d.path.as_str()) != (code, line, column, path) {
            failures.push(format!(
                "row {i}: expected {code} at {line}:{column} {path}, got {} at {l}:{c} {} ({})",
                d.code, d.path, d.message
            ));
        }
        // A note (E0107) says how a document was read; the document may be valid.
        if d.severity != boardxml::diagnostic::Severity::Note {
            assert!(!report.is_valid());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_table_covers_every_code_that_a_document_can_cause() {
    let covered: Vec<Code> = table().into_iter().map(|row| row.1).collect();
    for code in Code::ALL {
        let code = *code;
        // E0001 comes from the file system; E0106 has its own tests (hostile input).
        if matches!(code, Code::IO | Code::LIMIT) {
            continue;
        }
        // The format rules (E03xx CBF, E04xx CIF) have error tables of their own.
        if code.as_str().starts_with("E03") || code.as_str().starts_with("E04") {
            continue;
        }
        // ID and IDREF (E0215, E0216) need a schema with such types, identity constraints
        // (E0217-E0219) one with xs:key, xs:unique, xs:keyref, E0220 one with XSD 1.1's
        // explicitTimezone, E0221 one with XSD 1.1's assertions: tests/cases.rs.
        if matches!(
            code,
            Code::DUPLICATE_ID
                | Code::DANGLING_ID_REF
                | Code::DUPLICATE_KEY
                | Code::IDENTITY_FIELD
                | Code::DANGLING_KEY_REF
                | Code::TIMEZONE
                | Code::ASSERTION
        ) {
            continue;
        }
        // The players' formats (E05xx: XQF, CBR, CBL, PGN) have theirs in tests/players.rs.
        if code.as_str().starts_with("E05") {
            continue;
        }
        assert!(covered.contains(&code), "no error-table row for {code}");
    }
}

#[test]
fn errors_after_a_recoverable_one_are_all_reported() {
    let doc = cif("<arrow color=\"pink\" from=\"a1\" to=\"b2\"/><arrow color=\"red\" from=\"zz99\" to=\"b2\"/><value at=\"a1\">300</value>");
    let report = validate_bytes(Path::new("t.xml"), doc.as_bytes(), &Options::default());
    let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["E0209", "E0210", "E0211"]);
    let limited = validate_bytes(
        Path::new("t.xml"),
        doc.as_bytes(),
        &Options {
            max_errors: 2,
            ..Options::default()
        },
    );
    assert_eq!(limited.diagnostics.len(), 2);
}
