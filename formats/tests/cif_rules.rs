//! The CIF rules (E04xx) on whole documents: one small document per rule and element kind,
//! with the exact code, path and message; the paths cross-checked against the ones the
//! reader gives; and the shipped examples (valid ones give nothing, each invalid one gives
//! what its comment says).

use boardxml_formats::codes;
use std::path::Path;

use boardxml::diagnostic::Code;
use boardxml::diagnostic::Diagnostic;
use boardxml::xml::Reader;
use boardxml_formats::cif::rules::check;
use boardxml_formats::generated::cif;

/// Reads a schema-valid document (a schema error fails the test: the rules run only on
/// schema-valid documents).
fn read(text: &str) -> cif::Root {
    let mut reader = Reader::new(text);
    let doc = reader.read_document::<cif::Root>();
    assert!(
        reader.diagnostics().is_empty(),
        "not schema-valid: {:?}\n{text}",
        reader.diagnostics()
    );
    doc.expect("a document")
}

/// A document of one game with these attributes and this move text. `@@` marks the element
/// where the issue is expected (see [`reader_path_of_mark`]).
fn doc(game_attributes: &str, moves: &str) -> String {
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cif>\n<game{game_attributes}>\n<moves>{moves}</moves>\n</game>\n</cif>\n")
}

/// The path the reader gives the element marked `@@`: the mark becomes an attribute the
/// schema does not declare, and the reader reports it at `<element path>/@bogus`.
fn reader_path_of_mark(text: &str) -> String {
    let marked = text.replacen("@@", " bogus=\"1\"", 1);
    let mut reader = Reader::new(&marked);
    let _ = reader.read_document::<cif::Root>();
    let d = reader
        .diagnostics()
        .iter()
        .find(|d| d.code == Code::UNKNOWN_ATTRIBUTE)
        .unwrap_or_else(|| panic!("no unknown-attribute diagnostic for the mark in\n{marked}"));
    d.path
        .strip_suffix("/@bogus")
        .expect("an attribute path")
        .to_string()
}

/// The element part of an issue's path (without `/@attribute`).
fn element_of(path: &str) -> &str {
    path.split("/@").next().unwrap_or(path)
}

struct Row {
    name: &'static str,
    text: String,
    code: Code,
    path: &'static str,
    message: &'static str,
}

fn row(
    name: &'static str,
    text: String,
    code: Code,
    path: &'static str,
    message: &'static str,
) -> Row {
    Row {
        name,
        text,
        code,
        path,
        message,
    }
}

/// One document per rule and element kind; each gives exactly one issue.
fn table() -> Vec<Row> {
    use boardxml_formats::codes::{BOARD_SIZE_CONFLICT, REGION_ORDER, SQUARE_OFF_BOARD};
    vec![
        row(
            "arrow from",
            doc("", r#"<arrow color="red" from="a1" to="b2"/>1. e4 <arrow@@ color="red" from="j9" to="b2"/>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/arrow[2]/@from",
            "square j9 (<arrow> from) is outside the 8x8 board (files a..h, ranks 1..8)",
        ),
        row(
            "arrow to",
            doc("", r#"<arrow@@ color="red" from="a1" to="a9"/>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/arrow/@to",
            "square a9 (<arrow> to) is outside the 8x8 board (files a..h, ranks 1..8)",
        ),
        row(
            "square marker, counted with the other shapes",
            doc("", r#"<marker type="text" color="red" at="a1">x</marker><marker at="b1">skull</marker><marker@@ type="littlecross" color="red" at="i1"/>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/marker[3]/@at",
            "square i1 (<marker> (square marker) at) is outside the 8x8 board (files a..h, ranks 1..8)",
        ),
        row(
            "text marker",
            doc(r#" boardsize="9x10""#, r#"<marker type="full" color="red" at="i10"/><marker@@ type="text" color="green" at="j10">帅</marker>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/marker[2]/@at",
            "square j10 (<marker> (text marker) at) is outside the 9x10 board (files a..i, ranks 1..10)",
        ),
        row(
            "symbol",
            doc("", r#"<marker@@ at="h9">mushroom</marker>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/marker/@at",
            "square h9 (<marker> (symbol) at) is outside the 8x8 board (files a..h, ranks 1..8)",
        ),
        row(
            "line vertex",
            doc("", r#"<line color="blue">a1h8</line><line@@ color="blue">a1b2c3d9</line>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/line[2]",
            "square d9 (<line> vertex 4) is outside the 8x8 board (files a..h, ranks 1..8)",
        ),
        row(
            "region from",
            doc(r#" files="5""#, r#"<region@@ color="blue" from="f1" to="a1"/>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/region/@from",
            "square f1 (<region> from) is outside the 5x8 board (files a..e, ranks 1..8)",
        ),
        row(
            "region to",
            doc(r#" ranks="5""#, r#"<region@@ color="blue" from="a1" to="h6">text</region>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/region/@to",
            "square h6 (<region> to) is outside the 8x5 board (files a..h, ranks 1..5)",
        ),
        row(
            "value",
            doc("", r#"<value at="a1">1</value><value at="a2">2</value><value@@ at="z26">3</value>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/value[3]/@at",
            "square z26 (<value> at) is outside the 8x8 board (files a..h, ranks 1..8)",
        ),
        row(
            "3D square",
            doc("", r#"<marker@@ type="full" color="red" at="i1A"/>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/marker/@at",
            "square i1A (<marker> (square marker) at) is outside the 8x8 board (files a..h, ranks 1..8)",
        ),
        row(
            "4D square",
            doc("", r#"<arrow@@ color="red" from="h8H8" to="a9B3"/>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/arrow/@to",
            "square a9B3 (<arrow> to) is outside the 8x8 board (files a..h, ranks 1..8)",
        ),
        row(
            "64 files, 63 ranks",
            doc(r#" boardsize="64x63""#, r#"<arrow color="red" from="lll63" to="aa27"/><arrow@@ color="red" from="lll64" to="a1"/>"#),
            SQUARE_OFF_BOARD,
            "/cif/game/moves/arrow[2]/@from",
            "square lll64 (<arrow> from) is outside the 64x63 board (files a..lll, ranks 1..63)",
        ),
        row(
            "board size conflict",
            "<cif><game><moves/></game><game@@ boardsize=\"10x10\" files=\"10\" ranks=\"12\"><moves/></game></cif>".to_string(),
            BOARD_SIZE_CONFLICT,
            "/cif/game[2]",
            "the game states its board size twice, differently: boardsize=\"10x10\" but files=\"10\" ranks=\"12\"",
        ),
        row(
            "region across 3D boards",
            doc("", r#"<region color="red" from="c3B" to="a1B"/><region@@ color="red" from="a1B" to="c3C"/>"#),
            REGION_ORDER,
            "/cif/game/moves/region[2]",
            "region from a1B to c3C spans two boards (board B and board C): a region's corners must be on one board",
        ),
        row(
            "region from a 2D to a 4D square",
            doc("", r#"<region@@ color="red" from="a1" to="c3C2"/>"#),
            REGION_ORDER,
            "/cif/game/moves/region",
            "region from a1 to c3C2 spans two boards (the 2D board and board C, row 2): a region's corners must be on one board",
        ),
    ]
}

#[test]
fn every_rule_gives_its_code_path_and_message() {
    let mut failures = Vec::new();
    for r in table() {
        let text = r.text.replacen("@@", "", 1);
        let issues: Vec<Diagnostic> = check(&read(&text));
        match issues.as_slice() {
            [i] if (i.code, i.path.as_str(), i.message.as_str()) == (r.code, r.path, r.message) => {
                assert!(
                    i.expected.is_some() && i.found.is_some(),
                    "{}: {i:?}",
                    r.name
                );
            }
            _ => failures.push(format!(
                "{}: expected one {} at {}: {}\n  got {issues:#?}",
                r.name, r.code, r.path, r.message
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn issue_paths_are_the_reader_s_paths() {
    for r in table() {
        assert_eq!(
            element_of(r.path),
            reader_path_of_mark(&r.text),
            "{}: the rules and the reader name the element differently",
            r.name
        );
    }
}

#[test]
fn expected_and_found_say_the_board_and_the_square() {
    let issues = check(&read(&doc("", r#"<arrow color="red" from="a1" to="j9"/>"#)));
    assert_eq!(
        issues[0].expected.as_deref(),
        Some("a square of the 8x8 board (files a..h, ranks 1..8)")
    );
    assert_eq!(issues[0].found.as_deref(), Some("j9 (file 10, rank 9)"));
}

#[test]
fn on_board_documents_give_nothing() {
    for text in [
        doc(
            "",
            r#"<arrow color="red" from="a1" to="h8"/><marker type="full" color="red" at="h1"/><marker type="text" color="red" at="a8">x</marker><marker at="d4">skull</marker><line color="red">a1h8a8</line><region color="red" from="h8" to="a1"/><value at="e5">-128</value>"#,
        ),
        doc(
            r#" boardsize="64x64""#,
            r#"<arrow color="red" from="lll64" to="a1"/><line color="red">a1zz52aaa53lll64</line><region color="red" from="lll1" to="a64"/>"#,
        ),
        doc(
            r#" files="64" ranks="64" boardsize="64x64""#,
            r#"<marker at="lll64H8">parcel</marker>"#,
        ),
        doc(
            r#" boardsize="8x8" files="8""#,
            r#"<region color="red" from="a1A1" to="h8A1"/><region color="red" from="a1" to="h8"/>"#,
        ),
    ] {
        assert_eq!(check(&read(&text)), [], "{text}");
    }
}

#[test]
fn several_problems_in_one_document_come_in_document_order() {
    let text = "<cif><game boardsize=\"8x8\" ranks=\"9\"><moves><marker at=\"a10\">skull</marker><region color=\"red\" from=\"a1A\" to=\"i9B\"/></moves></game><game><moves><value at=\"a9\">0</value></moves></game></cif>";
    let issues = check(&read(text));
    let got: Vec<(Code, &str)> = issues.iter().map(|i| (i.code, i.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (codes::BOARD_SIZE_CONFLICT, "/cif/game"),
            // Checked against the widest reading, 8x9: a10 is off it, a9 would not be.
            (codes::SQUARE_OFF_BOARD, "/cif/game/moves/marker/@at"),
            (codes::SQUARE_OFF_BOARD, "/cif/game/moves/region/@to"),
            (codes::REGION_ORDER, "/cif/game/moves/region"),
            (codes::SQUARE_OFF_BOARD, "/cif/game[2]/moves/value/@at"),
        ]
    );
}

fn cif_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cif"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_valid_examples_keep_the_rules() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/valid");
    let files = cif_files(&dir);
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        assert_eq!(check(&read(&text)), [], "{}", file.display());
    }
}

/// Each invalid example says in its comment what it breaks (`expect: E0401 /path`), and
/// gives exactly that issue.
#[test]
fn each_invalid_example_breaks_the_rule_it_names() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/invalid/cif");
    let files = cif_files(&dir);
    assert!(files.len() >= 6, "one example per rule and element kind");
    let mut codes = std::collections::BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let expect = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("expect: "))
            .unwrap_or_else(|| panic!("{}: no `expect:` line", file.display()));
        let (code, path) = expect.split_once(' ').expect("expect: CODE PATH");
        let issues = check(&read(&text));
        let got: Vec<(&str, &str)> = issues
            .iter()
            .map(|i| (i.code.as_str(), i.path.as_str()))
            .collect();
        assert_eq!(got, [(code, path)], "{}", file.display());
        let name = issues[0].code.name();
        assert!(
            text.contains(&format!("Breaks {code} {name}:")),
            "{}: the comment names the rule as `Breaks {code} {name}:`",
            file.display()
        );
        codes.insert(code.to_string());
    }
    assert_eq!(
        codes.into_iter().collect::<Vec<_>>(),
        ["E0401", "E0402", "E0404"],
        "every rule has an example"
    );
}
