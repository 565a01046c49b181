//! Well-formed means well-formed (issue 13): one not-well-formed input per line and the
//! exact code, line and column of its first finding, in full validation and with
//! `--xml-only`, read in place and streamed. Each of these was once reported valid, or as
//! a schema error instead of a well-formedness one.

use std::path::Path;

use boardxml::diagnostic::Code;
use boardxml_formats::validate::{
    validate_bytes, validate_bytes_streamed, Options, Validated as Report,
};

const BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// A declaration padded with white space well past the first kilobyte.
fn padded(encoding: &str) -> String {
    format!(
        "<?xml version=\"1.0\"{} encoding=\"{encoding}\"?>",
        " ".repeat(1500)
    )
}

/// `text` in UTF-16 without a byte order mark.
fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|u| {
            if little_endian {
                u.to_le_bytes()
            } else {
                u.to_be_bytes()
            }
        })
        .collect()
}

/// (what, input, code, line, column) of the first diagnostic.
fn table() -> Vec<(&'static str, Vec<u8>, Code, u32, u32)> {
    let m = Code::MALFORMED;
    let row = |what, input: &str, code, line, column| {
        (what, input.as_bytes().to_vec(), code, line, column)
    };
    vec![
        // The XML declaration, [23]-[32].
        row("version 2.0", "<?xml version=\"2.0\"?><cif/>", m, 1, 15),
        row("version 1.", "<?xml version=\"1.\"?><cif/>", m, 1, 15),
        row(
            "standalone maybe",
            "<?xml version=\"1.0\" standalone=\"maybe\"?><cif/>",
            m,
            1,
            32,
        ),
        row("no version", "<?xml encoding=\"UTF-8\"?><cif/>", m, 1, 7),
        row("no pseudo-attribute at all", "<?xml ?><cif/>", m, 1, 7),
        row(
            "unknown pseudo-attribute",
            "<?xml version=\"1.0\" foo=\"bar\"?><cif/>",
            m,
            1,
            21,
        ),
        row(
            "pseudo-attributes out of order",
            "<?xml version=\"1.0\" standalone=\"yes\" encoding=\"UTF-8\"?><cif/>",
            m,
            1,
            38,
        ),
        row(
            "no space between pseudo-attributes",
            "<?xml version=\"1.0\"encoding=\"UTF-8\"?><cif/>",
            m,
            1,
            20,
        ),
        row(
            "a bad encoding name",
            "<?xml version=\"1.0\" encoding=\"UTF 8\"?><cif/>",
            m,
            1,
            30,
        ),
        row(
            "declaration after white space",
            " <?xml version=\"1.0\"?><cif/>",
            m,
            1,
            2,
        ),
        row(
            "declaration after a comment",
            "<!-- c --><?xml version=\"1.0\"?><cif/>",
            m,
            1,
            11,
        ),
        row(
            "two declarations",
            "<?xml version=\"1.0\"?><?xml version=\"1.0\"?><cif/>",
            m,
            1,
            22,
        ),
        row(
            "a declaration inside the root",
            "<cif>\n<?xml version=\"1.0\"?></cif>",
            m,
            2,
            1,
        ),
        // Processing instructions, [16]/[17] and Namespaces 1.0, 7.
        row("<? ?>", "<? ?><cif/>", m, 1, 3),
        row("<?XmL x?>", "<?XmL x?><cif/>", m, 1, 3),
        row("a colon in a PI target", "<?a:b x?><cif/>", m, 1, 4),
        // Characters XML forbids, [2].
        row("NUL in a comment", "<cif><!-- a\0b --></cif>", m, 1, 12),
        row("ESC in a comment", "<cif><!-- a\u{1b}b --></cif>", m, 1, 12),
        row("NUL in a PI", "<cif><?pi a\0b?></cif>", m, 1, 12),
        row("ESC in a PI", "<cif><?pi a\u{1b}b?></cif>", m, 1, 12),
        row("NUL in an element name", "<ci\0f/>", m, 1, 4),
        row(
            "ESC in an element name",
            "<cif><ga\u{1b}me/></cif>",
            m,
            1,
            9,
        ),
        row("NUL in an attribute name", "<cif a\0b=\"1\"/>", m, 1, 7),
        row("ESC in an attribute name", "<cif a\u{1b}=\"1\"/>", m, 1, 7),
        // Names, [4]/[5], and QNames.
        row(
            "a name starting with a digit",
            "<cif><1game/></cif>",
            m,
            1,
            7,
        ),
        row("two colons in a name", "<a:b:c xmlns:a=\"u\"/>", m, 1, 5),
        // Character data, [14].
        row("]]> in text", "<cif>a]]>b</cif>", m, 1, 7),
        row("a reference before the root", "&#32;<cif/>", m, 1, 1),
        row(
            "a reference after the root",
            "<cif><game><moves/></game></cif>\n&#32;",
            m,
            2,
            1,
        ),
        row(
            "a blank CDATA section before the root",
            "<![CDATA[ ]]><cif/>",
            m,
            1,
            1,
        ),
        // Comments, [15].
        row("-- in a comment", "<cif><!-- a -- b --></cif>", m, 1, 13),
        row(
            "a comment ending in --->",
            "<cif><!-- a ---></cif>",
            m,
            1,
            13,
        ),
        // Start tags, [40]/[41]/[10].
        row(
            "no white space between attributes",
            "<cif boardsize=\"8x8\"files=\"8\"/>",
            m,
            1,
            21,
        ),
        row("an unquoted value", "<cif boardsize=8/>", m, 1, 16),
        row("< in an attribute value", "<cif a=\"1<2\"/>", m, 1, 10),
        // Namespaces 1.0.
        row("xmlns:=", "<cif xmlns:=\"urn:x\"/>", m, 1, 12),
        row("xmlns:p=\"\"", "<cif xmlns:p=\"\"/>", m, 1, 6),
        row(
            "xmlns:xml bound elsewhere",
            "<cif xmlns:xml=\"urn:x\"/>",
            m,
            1,
            6,
        ),
        row(
            "xmlns:xmlns declared",
            "<cif xmlns:xmlns=\"urn:x\"/>",
            m,
            1,
            6,
        ),
        row(
            "a prefix bound to the xml namespace",
            "<cif xmlns:p=\"http://www.w3.org/XML/1998/namespace\"/>",
            m,
            1,
            6,
        ),
        row(
            "the default namespace the xmlns one",
            "<cif xmlns=\"http://www.w3.org/2000/xmlns/\"/>",
            m,
            1,
            6,
        ),
        row("an undeclared element prefix", "<p:cif/>", m, 1, 2),
        row(
            "an undeclared attribute prefix",
            "<cif p:a=\"1\"/>",
            m,
            1,
            6,
        ),
        row("the xmlns prefix on an element", "<xmlns:cif/>", m, 1, 2),
        row(
            "one attribute twice by namespace",
            "<cif xmlns:a=\"u\" xmlns:b=\"u\"><game a:x=\"1\" b:x=\"2\"/></cif>",
            m,
            1,
            44,
        ),
        // Encodings (E0102-E0104 have no line: they come before any text).
        ("a double BOM", [BOM, BOM, b"<cif/>"].concat(), m, 1, 1),
        (
            "a UTF-8 BOM and a padded GBK declaration",
            [BOM, padded("GBK").as_bytes(), b"<cif/>"].concat(),
            Code::ENCODING_MISMATCH,
            0,
            0,
        ),
        (
            "a padded unknown encoding",
            format!("{}<cif/>", padded("x-unknown-9")).into_bytes(),
            Code::UNSUPPORTED_ENCODING,
            0,
            0,
        ),
        (
            "UTF-16LE without a BOM, declared UTF-16",
            utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?><cif/>", true),
            Code::ENCODING_MISMATCH,
            0,
            0,
        ),
        (
            "UTF-16BE without a BOM or encoding",
            utf16("<?xml version=\"1.0\"?><cif/>", false),
            Code::ENCODING_MISMATCH,
            0,
            0,
        ),
        (
            "UTF-16BE without a BOM, declared UTF-16LE",
            utf16("<?xml version=\"1.0\" encoding=\"UTF-16LE\"?><cif/>", false),
            Code::ENCODING_MISMATCH,
            0,
            0,
        ),
        // A declaration too long to be one.
        (
            "a declaration over its limit",
            format!("<?xml version=\"1.0\"{}?><cif/>", " ".repeat(40 << 10)).into_bytes(),
            Code::LIMIT,
            1,
            1,
        ),
    ]
}

fn ways() -> Vec<(&'static str, Options, bool)> {
    let xml_only = Options {
        xml_only: true,
        keep_document: false,
        ..Options::default()
    };
    vec![
        ("validate", Options::default(), false),
        ("validate, streamed", Options::default(), true),
        ("--xml-only", xml_only, false),
        ("--xml-only, streamed", xml_only, true),
    ]
}

fn run(input: &[u8], options: &Options, streamed: bool) -> Report {
    if streamed {
        validate_bytes_streamed(Path::new("t.xml"), input, options)
    } else {
        validate_bytes(Path::new("t.xml"), input, options)
    }
}

#[test]
fn every_not_well_formed_input_gives_its_code_line_and_column() {
    let mut failures = Vec::new();
    for (what, input, code, line, column) in table() {
        for (way, options, streamed) in ways() {
            let report = run(&input, &options, streamed);
            let Some(d) = report.diagnostics.first() else {
                failures.push(format!(
                    "{what} ({way}): valid, expected {code} at {line}:{column}"
                ));
                continue;
            };
            if (d.code, d.line, d.column) != (code, line, column) {
                failures.push(format!(
                    "{what} ({way}): expected {code} at {line}:{column}, got {} at {}:{} ({})",
                    d.code, d.line, d.column, d.message
                ));
            }
            if !d.code.as_str().starts_with("E01") || d.message.is_empty() {
                failures.push(format!("{what} ({way}): {d:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What must stay accepted next to the rows above.
#[test]
fn well_formed_inputs_stay_valid() {
    let cif = "<cif><game><moves>吕</moves></game></cif>";
    let gbk = encoding_rs::GBK
        .encode(&format!("{}{cif}", padded("GBK")))
        .0
        .into_owned();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("a padded GBK declaration on GBK bytes", gbk),
        ("version 1.1 read as 1.0", b"<?xml version=\"1.1\"?><cif/>".to_vec()),
        ("every pseudo-attribute", b"<?xml version='1.0' encoding='UTF-8' standalone='no' ?>\n<cif/>".to_vec()),
        ("UTF-16LE without a BOM, declared UTF-16LE", utf16(&format!("<?xml version=\"1.0\" encoding=\"UTF-16LE\"?>{cif}"), true)),
        ("UTF-16BE without a BOM, declared UTF-16BE", utf16(&format!("<?xml version=\"1.0\" encoding=\"UTF-16BE\"?>{cif}"), false)),
        ("a PI whose target starts with xml", b"<?xml-stylesheet href='a.xsl'?><cif/>".to_vec()),
        ("comments, PIs and references where they may be", b"<!-- a - b --><?pi x?><cif><game><moves>&#32;&lt;]]&gt;<![CDATA[]]]]></moves></game></cif><!--e-->".to_vec()),
        ("xml:lang with no declaration", b"<cif xml:lang=\"en\" xmlns:xml=\"http://www.w3.org/XML/1998/namespace\"/>".to_vec()),
        ("one local name under two namespaces", b"<r xmlns:a=\"u\" xmlns:b=\"v\"><e a:x=\"1\" b:x=\"2\"/></r>".to_vec()),
        ("a prefix declared after its use in the same tag", b"<p:r p:a=\"1\" xmlns:p=\"u\"/>".to_vec()),
        ("names beyond ASCII", "<r><\u{5415}\u{94A6} \u{E9}t\u{E9}=\"1\"/><a\u{B7}b/></r>".as_bytes().to_vec()),
    ];
    let xml_only = Options {
        xml_only: true,
        keep_document: false,
        ..Options::default()
    };
    for (what, input) in cases {
        for streamed in [false, true] {
            let report = run(&input, &xml_only, streamed);
            assert!(
                report.diagnostics.is_empty(),
                "{what}: {:?}",
                report.diagnostics
            );
        }
    }
    // The CIF ones are valid in full too.
    let report = run(
        &utf16(
            &format!("<?xml version=\"1.0\" encoding=\"UTF-16LE\"?>{cif}"),
            true,
        ),
        &Options::default(),
        false,
    );
    assert!(report.is_valid(), "{:?}", report.diagnostics);
}

/// `--xml-only` takes any root and reports no schema errors; a DOCTYPE is refused as ever.
#[test]
fn xml_only_checks_well_formedness_alone() {
    let xml_only = Options {
        xml_only: true,
        keep_document: false,
        ..Options::default()
    };
    let report = run(
        b"<anything at=\"all\"><cif bogus=\"1\"/></anything>",
        &xml_only,
        false,
    );
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    assert_eq!(report.format, None);
    let report = run(
        b"<?xml version=\"1.0\"?>\n<!DOCTYPE r>\n<r/>",
        &xml_only,
        false,
    );
    let codes: Vec<Code> = report.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::DOCTYPE]);
    let deep = format!("{}{}", "<a>".repeat(300), "</a>".repeat(300));
    let report = run(deep.as_bytes(), &xml_only, false);
    assert_eq!(report.diagnostics[0].code, Code::LIMIT);
}
