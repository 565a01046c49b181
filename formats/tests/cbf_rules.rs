//! CBF rules: the variation structure of both dialects, start positions, and move legality,
//! each as a small record and the exact code, path and message it must give.

#[path = "../../tests/common/mod.rs"]
mod common;

use boardxml_formats::codes;
use std::path::Path;

use boardxml::diagnostic::Code;
use boardxml::xml::Reader;
use boardxml_formats::cbf::{main_line, Record};
use boardxml_formats::generated::{cbf_1_0, cbf_2007};
use boardxml_formats::validate::{validate_bytes, Options};

fn v10(head: &str, moves: &str) -> String {
    format!("<ChineseChessRecord Version=\"1.0\"><Head>{head}</Head><MoveList><Move value=\"00-00\"/>{moves}</MoveList></ChineseChessRecord>")
}

fn v2007(head: &str, moves: &str) -> String {
    format!(
        "<ChineseChessRecord><Head>{head}</Head><MoveList>{moves}</MoveList></ChineseChessRecord>"
    )
}

fn first(doc: &str) -> (Code, String, String) {
    let report = validate_bytes(Path::new("t.cbf"), doc.as_bytes(), &Options::default());
    let d = report
        .diagnostics
        .first()
        .unwrap_or_else(|| panic!("no diagnostic for {doc}"));
    (d.code, d.path.clone(), d.message.clone())
}

fn record_2007(doc: &str) -> Record {
    let mut r = Reader::new(doc);
    let cbf_2007::Root::ChineseChessRecord(rec) =
        r.read_document::<cbf_2007::Root>().expect("schema-valid");
    Record::from_2007(&rec)
}

#[test]
fn the_seed_nid_example_gives_its_three_lines() {
    // 1A 2B 3C 4D 5E 6F 4G 2H 3I 4J 5K gives the lines ABCDEF, ABCG, AHIJK (SPEC.md). With
    // legal moves: A=77-47, B=70-62, C=79-67, D=72-52?? (blocked) -- use moves that are
    // legal in every line.
    let moves = [
        (1, "77-47"),
        (2, "10-22"),
        (3, "79-67"),
        (4, "72-52"),
        (5, "89-88"),
        (6, "90-80"),
        (4, "70-62"),
        (2, "70-62"),
        (3, "79-67"),
        (4, "10-22"),
        (5, "89-88"),
    ];
    let xml: String = moves
        .iter()
        .map(|(n, v)| format!("<Move nid=\"{n}\" value=\"{v}\"/>"))
        .collect();
    let rec = record_2007(&v2007("", &xml).replace("90-80", "80-70"));
    assert!(
        rec.structure_issues.is_empty(),
        "{:?}",
        rec.structure_issues
    );
    let lines: Vec<String> = (0..rec.moves.len())
        .filter(|&i| rec.moves[i].children.is_empty())
        .map(|i| {
            rec.line_to(i)
                .iter()
                .map(|m| m.cbf())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(
        lines,
        [
            "77-47 10-22 79-67 72-52 89-88 80-70",
            "77-47 10-22 79-67 70-62",
            "77-47 70-62 79-67 10-22 89-88",
        ]
    );
    assert_eq!(main_line(&rec).len(), 6);
}

#[test]
fn structure_errors() {
    let table: Vec<(String, Code, &str, &str)> = vec![
        (v2007("", "<Move nid=\"2\" value=\"77-47\"/>"), codes::MOVE_TREE, "/ChineseChessRecord/MoveList/Move/@nid", "the first move has nid 2"),
        (v2007("", "<Move nid=\"1\" value=\"77-47\"/><Move nid=\"3\" value=\"70-62\"/>"), codes::MOVE_TREE, "/ChineseChessRecord/MoveList/Move[2]/@nid", "nid jumps from 1 to 3"),
        (v10("", "<Move value=\"77-47\" end=\"1\"/><Move value=\"70-62\"/>"), codes::MOVE_TREE, "/ChineseChessRecord/MoveList/Move[2]/@end", "closes the main line"),
        (v10("", "<Move value=\"77-47\" branch=\"1\"/><Move value=\"70-62\"/>"), codes::MOVE_TREE, "/ChineseChessRecord/MoveList/Move[2]/@branch", "the record ends before it"),
        ("<ChineseChessRecord Version=\"1.0\"><Head/><MoveList><Move value=\"77-47\"/></MoveList></ChineseChessRecord>".to_string(), codes::ROOT_MOVE, "/ChineseChessRecord/MoveList/Move/@value", "00-00 placeholder"),
        (v10("", "<Move value=\"77-47\"/><Move value=\"00-00\"/>"), codes::ROOT_MOVE, "/ChineseChessRecord/MoveList/Move[3]/@value", "only the placeholder"),
        (v2007("<Board value=\"jmxswsxmj10p5p1b1b1b1b1b18B1B1B1B1B1P5P9JMXSWSXMJ-r1\"/>", ""), codes::BOARD_STRING, "/ChineseChessRecord/Head/Board/@value", "cannot be read"),
        (v2007("<Board value=\"jmxswsxmj10p5p1b1b1b1b1b18B1B1B1B1B1P5P11JMXSWSXMJ-r1\"/>", ""), codes::BOARD_STRING, "/ChineseChessRecord/Head/Board/@value", "cannot be read"),
        (v10("<FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w</FEN>", ""), codes::FEN, "/ChineseChessRecord/Head/FEN", "cannot be read"),
        (v10("<FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABRR w</FEN>", ""), codes::ILLEGAL_POSITION, "/ChineseChessRecord/Head/FEN", "not legal"),
        (v10("<FEN>4k4/9/9/9/9/9/9/9/9/4K4 w</FEN>", ""), codes::ILLEGAL_POSITION, "/ChineseChessRecord/Head/FEN", "not legal"),
        (v10("", "<Move value=\"19-38\"/>"), codes::ILLEGAL_MOVE, "/ChineseChessRecord/MoveList/Move[2]/@value", "horse leg blocked at c0"),
        (v10("", "<Move value=\"77-47\"/><Move value=\"72-52\"/><Move value=\"70-62\"/>"), codes::ILLEGAL_MOVE, "/ChineseChessRecord/MoveList/Move[4]/@value", "line 77-47 72-52 70-62: it is red's turn"),
        (v2007("", "<Move nid=\"1\" value=\"77-47\"/><Move nid=\"2\" value=\"77-47\"/>"), codes::ILLEGAL_MOVE, "/ChineseChessRecord/MoveList/Move[2]/@value", "ply 2"),
    ];
    let mut failures = Vec::new();
    for (i, (doc, code, path, fragment)) in table.iter().enumerate() {
        let (c, p, m) = first(doc);
        if c != *code || p != *path || !m.contains(fragment) {
            failures.push(format!("row {i}: expected {code} at {path} containing {fragment:?}\n   got {c} at {p}: {m}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_result_that_contradicts_a_mate_is_a_warning() {
    // Black's king on e9; a red rook on a8 holds row 8, the red king on d0 holds the d-file
    // (flying general), and the other rook goes b0-b9: checkmate.
    let fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w";
    let won = v10(
        &format!("<RecordResult>1</RecordResult><FEN>{fen}</FEN>"),
        "<Move value=\"19-10\"/>",
    );
    let report = validate_bytes(Path::new("t.cbf"), won.as_bytes(), &Options::default());
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let wrong = won.replace(
        "<RecordResult>1</RecordResult>",
        "<RecordResult>2</RecordResult>",
    );
    let report = validate_bytes(Path::new("t.cbf"), wrong.as_bytes(), &Options::default());
    assert!(report.is_valid(), "a warning leaves the record valid");
    assert_eq!(report.diagnostics.len(), 1, "{:?}", report.diagnostics);
    assert_eq!(report.diagnostics[0].code, codes::RESULT_CONTRADICTION);
}

#[test]
fn the_corpus_is_valid_but_for_the_flying_king() {
    let Some(root) = common::shared("corpus") else {
        return;
    };
    let mut checked = 0;
    for dir in ["cbf-seed", "cbf-xqbridge"] {
        for f in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            let report = boardxml_formats::validate::validate_file(&f.path(), &Options::default());
            checked += 1;
            if f.file_name() == "jcq15_chessmanual-data-test.cbf" {
                let codes: Vec<(Code, &str)> = report
                    .diagnostics
                    .iter()
                    .map(|d| (d.code, d.path.as_str()))
                    .collect();
                assert_eq!(
                    codes,
                    [(
                        codes::ILLEGAL_MOVE,
                        "/ChineseChessRecord/MoveList/Move[4]/@value"
                    )]
                );
                assert!(
                    report.diagnostics[0]
                        .message
                        .contains("flying-king capture"),
                    "{}",
                    report.diagnostics[0].message
                );
            } else {
                assert!(
                    report.diagnostics.is_empty(),
                    "{}: {:?}",
                    f.path().display(),
                    report.diagnostics
                );
            }
        }
    }
    assert_eq!(checked, 25);
}

#[test]
fn both_dialects_of_the_same_game_give_the_same_tree() {
    let a = record_2007(&v2007("", "<Move nid=\"1\" value=\"77-47\"/><Move nid=\"2\" value=\"10-22\"/><Move nid=\"2\" value=\"70-62\"/>"));
    let text = v10("", "<Move value=\"77-47\"/><Move value=\"10-22\" branch=\"1\" end=\"1\"/><Move value=\"70-62\" end=\"1\"/>");
    let mut r = Reader::new(&text);
    let cbf_1_0::Root::ChineseChessRecord(b) = r.read_document::<cbf_1_0::Root>().unwrap();
    let b = Record::from_1_0(&b);
    let shape = |r: &Record| r.moves.iter().map(|m| (m.mv, m.parent)).collect::<Vec<_>>();
    assert_eq!(shape(&a), shape(&b));
}
