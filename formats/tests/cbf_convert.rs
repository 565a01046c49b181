//! Conversions of CBF records: between the dialects (with exactly the losses expected), to
//! PGN in each notation, and to JSON; round trips over the seed records.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use boardxml_formats::cbf::convert::{record_of, to_cbf_1_0, to_cbf_2007, to_json, Loss};
use boardxml_formats::cbf::pgn::{to_pgn, Notation};
use boardxml_formats::cbf::show::{select_line, show};
use boardxml_formats::cbf::Record;
use boardxml_formats::document::{write_document, Document};
use boardxml_formats::generated::{cbf_1_0, cbf_2007};
use boardxml_formats::validate::{validate_bytes, validate_file, Options};

const SEED_1995: &str = "seed-1995-lv-qin-vs-xu-yinchuan.cbf";
const SEED_TRAP: &str = "seed-sacrifice-two-rooks-trap.cbf";

/// The seed folder, or `None` (with a loud SKIPPED line) where `../shared` is absent.
fn seeds() -> Option<PathBuf> {
    common::shared("corpus/cbf-seed")
}

fn seed(name: &str) -> Option<Record> {
    let report = validate_file(&seeds()?.join(name), &Options::default());
    assert!(report.is_valid(), "{name}: {:?}", report.diagnostics);
    Some(record_of(report.document.as_ref().expect("kept")).expect("a CBF record"))
}

/// Writes a document and reads it back through the full validator (schema and rules).
fn reread(doc: &Document, encoding: &'static encoding_rs::Encoding) -> Record {
    let bytes = write_document(doc, encoding, false);
    let report = validate_bytes(Path::new("converted.cbf"), &bytes, &Options::default());
    assert!(
        report.is_valid(),
        "converted document is not valid: {:?}\n{}",
        report.diagnostics,
        String::from_utf8_lossy(&bytes)
    );
    record_of(report.document.as_ref().expect("kept")).expect("a CBF record")
}

fn via_1_0(r: &Record) -> (Record, Vec<Loss>) {
    let c = to_cbf_1_0(r).expect("converts");
    let doc = Document::Cbf10(cbf_1_0::Root::ChineseChessRecord(c.output));
    (reread(&doc, encoding_rs::UTF_8), c.losses)
}

fn via_2007(r: &Record) -> (Record, Vec<Loss>) {
    let c = to_cbf_2007(r).expect("converts");
    let doc = Document::Cbf2007(cbf_2007::Root::ChineseChessRecord(c.output));
    (reread(&doc, encoding_rs::GBK), c.losses)
}

fn fields(losses: &[Loss]) -> Vec<&str> {
    losses.iter().map(|l| l.field.as_str()).collect()
}

fn without_labels(mut r: Record) -> Record {
    for f in &mut r.head {
        f.label = None;
    }
    r
}

fn read_1_0(text: &str) -> Record {
    let report = validate_bytes(Path::new("t.cbf"), text.as_bytes(), &Options::default());
    assert!(report.is_valid(), "{:?}", report.diagnostics);
    record_of(report.document.as_ref().unwrap()).unwrap()
}

fn read_2007(text: &str) -> Record {
    read_1_0(text)
}

#[test]
fn seeds_2007_to_1_0_and_back_keep_everything_but_the_labels() {
    // Both seeds label Type 1 实战的全局, not the code's own 实战全局: lost in 1.0. Their
    // Result labels (和棋, 红胜) are the codes' own: written back, so not lost.
    for name in [SEED_1995, SEED_TRAP] {
        let Some(original) = seed(name) else { return };
        let (v10, losses) = via_1_0(&original);
        assert_eq!(fields(&losses), ["Type label"], "{name}");
        assert!(
            losses[0].message.contains("\"实战的全局\""),
            "{}",
            losses[0]
        );
        // The same tree, comments, start and result in the 1.0 record.
        assert_eq!(v10.moves.len(), original.moves.len());
        assert_eq!(v10.game_comment, original.game_comment);
        assert_eq!(
            v10.result.as_ref().map(|r| r.0),
            original.result.as_ref().map(|r| r.0)
        );
        let contest = v10.head.iter().find(|f| f.name == "Contest").unwrap();
        let event = original.head.iter().find(|f| f.name == "Event").unwrap();
        assert_eq!(contest.value, event.value);

        let (back, losses) = via_2007(&v10);
        assert!(losses.is_empty(), "{name}: {losses:?}");
        // 1.0 has no labels: 2007 gets the code's own label.
        let labels: Vec<_> = back.head.iter().filter_map(|f| f.label.clone()).collect();
        let original_result = original.head.iter().find(|f| f.name == "Result").unwrap();
        assert_eq!(labels[0], "实战全局");
        assert_eq!(Some(&labels[1]), original_result.label.as_ref());
        assert_eq!(without_labels(back), without_labels(original), "{name}");
    }
}

#[test]
fn a_2007_record_to_2007_is_unchanged() {
    let Some(original) = seed(SEED_1995) else {
        return;
    };
    let (again, losses) = via_2007(&original);
    assert!(losses.is_empty());
    assert_eq!(again, original);
}

const FULL_1_0_HEAD: &str = "<Name>n</Name><URL/><From>web</From><ContestType>个人赛</ContestType>\
<Contest>全国赛</Contest><Round>3</Round><Group>A</Group><Table>1</Table><Date>2020-01-01</Date>\
<Site>北京</Site><TimeRule>90+30</TimeRule><Red>甲</Red><RedTeam>T1</RedTeam><RedTime>1:00</RedTime>\
<RedRating>2500</RedRating><Black>乙</Black><BlackTeam>T2</BlackTeam><BlackTime>1:10</BlackTime>\
<BlackRating></BlackRating><Referee>丙</Referee><Recorder>丁</Recorder><Commentator/><CommentatorURL/>\
<Creator/><CreatorURL/><DateCreated/><DateModified/><ECCO>C45</ECCO><RecordType>7</RecordType>\
<RecordKind>1</RecordKind><RecordResult>4</RecordResult><ResultType>3</ResultType>\
<FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 3 1</FEN>";

fn v10(head: &str, moves: &str) -> String {
    format!("<ChineseChessRecord Version=\"1.0\"><Head>{head}</Head><MoveList><Move value=\"00-00\">game</Move>{moves}</MoveList></ChineseChessRecord>")
}

#[test]
fn a_full_1_0_head_to_2007_reports_exactly_what_2007_cannot_hold() {
    let r = read_1_0(&v10(
        FULL_1_0_HEAD,
        "<Move value=\"77-47\" end=\"1\"><![CDATA[c]]></Move>",
    ));
    let c = to_cbf_2007(&r).unwrap();
    // BlackRating is empty: nothing to lose. Losses come in head order, which is the order
    // of the schema's field table.
    assert_eq!(
        fields(&c.losses),
        [
            "From",
            "ContestType",
            "Group",
            "Table",
            "RedRating",
            "Referee",
            "Recorder",
            "ECCO",
            "RecordType",
            "RecordKind",
            "RecordResult",
            "ResultType",
            "FEN half-move clock",
        ]
    );
    assert!(
        c.losses[8].message.contains("record type 7"),
        "{}",
        c.losses[8]
    );
    assert!(
        c.losses[10].message.contains("written as 3"),
        "{}",
        c.losses[10]
    );
    let h = &c.output.head;
    assert_eq!(h.event.as_deref(), Some("全国赛"));
    assert_eq!(h.r#type, None);
    let result = h.result.as_ref().unwrap();
    assert_eq!((result.value.get(), result.content.as_str()), (3, "和棋"));
    assert_eq!(h.comment.as_deref(), Some("game"));
    assert_eq!(
        h.board.as_ref().unwrap().value.as_ref().unwrap().as_str(),
        "jmxswsxmj10p5p1b1b1b1b1b18B1B1B1B1B1P5P10JMXSWSXMJ-r1"
    );
    assert_eq!(c.output.move_list.r#move[0].content, "c");
}

#[test]
fn a_1_0_record_to_1_0_loses_nothing() {
    let r = read_1_0(&v10(
        FULL_1_0_HEAD,
        "<Move value=\"77-47\"/><Move value=\"10-22\" branch=\"1\" end=\"1\"/><Move value=\"70-62\" end=\"1\"/>",
    ));
    let (again, losses) = via_1_0(&r);
    assert!(losses.is_empty(), "{losses:?}");
    // The FEN is written in full; everything else as it was.
    assert_eq!(again.head, r.head);
    assert_eq!(again.moves, r.moves);
    assert_eq!(again.start, r.start);
}

#[test]
fn empty_1_0_type_and_result_are_not_given_in_2007() {
    let r = read_1_0(&v10("<RecordType/><RecordResult/><ECCO/>", ""));
    let c = to_cbf_2007(&r).unwrap();
    assert!(c.losses.is_empty(), "{:?}", c.losses);
    assert!(c.output.head.r#type.is_none() && c.output.head.result.is_none());
    assert!(c.output.head.board.is_none(), "no FEN: no Board either");
}

/// 1A 2B 3C 4D 5E 6F 4G 2H 3I 4J 5K (SPEC.md) with legal moves: lines ABCDEF, ABCG, AHIJK.
fn nested_2007() -> String {
    let moves = [
        (1, "77-47", "A"),
        (2, "10-22", ""),
        (3, "79-67", ""),
        (4, "72-52", ""),
        (5, "89-88", ""),
        (6, "80-81", "F}"),
        (4, "70-62", "G"),
        (2, "70-62", "H"),
        (3, "79-67", ""),
        (4, "10-22", ""),
        (5, "89-88", ""),
    ];
    let xml: String = moves
        .iter()
        .map(|(n, v, c)| format!("<Move nid=\"{n}\" value=\"{v}\"><![CDATA[{c}]]></Move>"))
        .collect();
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ChineseChessRecord><Head><Type value=\"2\"/></Head><MoveList>{xml}</MoveList></ChineseChessRecord>")
}

#[test]
fn nested_variations_survive_both_dialects() {
    let original = read_2007(&nested_2007());
    assert_eq!(original.root_children.len(), 1);
    let (v10, losses) = via_1_0(&original);
    assert!(losses.is_empty(), "an empty label is no loss: {losses:?}");
    let shape = |r: &Record| {
        r.moves
            .iter()
            .map(|m| (m.mv, m.parent, m.comment.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(shape(&v10), shape(&original));
    let (back, _) = via_2007(&v10);
    assert_eq!(shape(&back), shape(&original));
}

fn moves_of(pgn: &str) -> Vec<String> {
    // The movetext without tags, comments, numbers and the result.
    let mut text = String::new();
    let mut depth = 0;
    for line in pgn.lines().filter(|l| !l.starts_with('[')) {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                c if depth == 0 => text.push(c),
                _ => {}
            }
        }
        text.push(' ');
    }
    text.split_whitespace()
        .filter(|t| !t.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_1995_seed_in_chinese_notation() {
    let Some(r) = seed(SEED_1995) else { return };
    let c = to_pgn(&r, Notation::Chinese).unwrap();
    let pgn = &c.output;
    assert_eq!(
        moves_of(pgn)[..4],
        ["炮二平五", "马２进３", "马二进三", "炮８平６"]
    );
    assert!(pgn.starts_with("[Game \"Chinese Chess\"]\n[Event \"民百杯精英赛决赛与吕钦之战\"]\n[Site \"兰州\"]\n[Date \"1995.5.22\"]\n"));
    for tag in [
        "[Red \"吕钦\"]",
        "[Black \"许银川\"]",
        "[Result \"1/2-1/2\"]",
        "[Format \"Chinese\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} missing from\n{pgn}");
    }
    assert!(!pgn.contains("[FEN"), "the standard start needs no FEN");
    assert!(
        pgn.contains("\n{却说“民百杯”精英赛"),
        "game comment before the moves"
    );
    assert!(pgn.contains("\n1. 炮二平五 马２进３ 2. 马二进三 炮８平６ 3. 兵三进一"));
    // A comment after a red move: the black reply is numbered again.
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("而定。} 3... 卒３进１"), "{pgn}");
    assert!(pgn.trim_end().ends_with("1/2-1/2"));
    assert_eq!(fields(&c.losses), ["Type label"]);
    // Every move of the record is in the PGN.
    assert_eq!(moves_of(pgn).len(), r.moves.len());
}

#[test]
fn pgn_in_iccs_and_wxf() {
    let Some(r) = seed(SEED_1995) else { return };
    let iccs = to_pgn(&r, Notation::Iccs).unwrap().output;
    assert!(iccs.contains("[Format \"ICCS\"]"));
    assert!(iccs.contains("\n1. h2e2 b9c7 2. h0g2 h7f7 "), "{iccs}");
    let wxf = to_pgn(&r, Notation::Wxf).unwrap().output;
    assert!(wxf.contains("[Format \"WXF\"]"));
    assert_eq!(moves_of(&wxf)[..4], ["C2.5", "H2+3", "H2+3", "C8.6"]);
}

#[test]
fn pgn_variations_are_nested_parentheses() {
    let r = read_2007(&nested_2007());
    let c = to_pgn(&r, Notation::Iccs).unwrap();
    let movetext: String = c
        .output
        .lines()
        .filter(|l| !l.starts_with('[') && !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        movetext,
        "1. h2e2 {A} 1... b9c7 (1... h9g7 {H} 2. h0g2 b9c7 3. i0i1) 2. h0g2 h7f7 (2... h9g7 {G}) 3. i0i1 i9i8 {F｝} *"
    );
    assert_eq!(fields(&c.losses), ["comment"]);
    assert!(c.output.contains("[Type \"2\"]"));
}

#[test]
fn pgn_of_a_position_with_black_to_move() {
    let r = read_1_0(&v10(
        "<Red>a \"b\"</Red><FEN>4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 7</FEN>",
        "<Move value=\"40-41\"/><Move value=\"48-59\" end=\"1\"/>",
    ));
    let pgn = to_pgn(&r, Notation::Chinese).unwrap().output;
    assert!(
        pgn.contains("[FEN \"4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 7\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[Red \"a \\\"b\\\"\"]"));
    assert!(pgn.contains("\n7... 将５进１ 8. 仕五退四 *"), "{pgn}");
}

#[test]
fn json_shape() {
    let Some(r) = seed(SEED_TRAP) else { return };
    let c = to_json(&r).unwrap();
    assert!(c.losses.is_empty());
    let v: serde_json::Value = serde_json::from_str(&c.output).unwrap();
    assert_eq!(v["dialect"], "cbf-2007");
    assert_eq!(v["head"]["Name"], "弃双车陷阱");
    assert_eq!(v["head"]["Type"], "1");
    assert!(
        v["head"].get("Comment").is_none(),
        "the game comment is separate"
    );
    assert_eq!(v["labels"]["Result"], "红胜");
    assert_eq!(v["start"]["standard"], true);
    assert_eq!(v["start"]["side_to_move"], "red");
    assert_eq!(v["result"]["code"], 1);
    assert_eq!(v["result"]["pgn"], "1-0");
    let first = &v["moves"][0];
    assert_eq!(first["cbf"], "77-47");
    assert_eq!(first["iccs"], "h2e2");
    assert_eq!(first["chinese"], "炮二平五");
    assert_eq!(first["wxf"], "C2.5");
    assert!(first.get("variations").is_none());
    // The record's one variation replaces the main line's 19th ply.
    let moves = v["moves"].as_array().unwrap();
    let with_variation: Vec<usize> = (0..moves.len())
        .filter(|&i| moves[i].get("variations").is_some())
        .collect();
    assert_eq!(with_variation, [18]);
    assert_eq!(moves[18]["variations"][0][0]["chinese"], "车三平四");
    assert_eq!(moves[18]["variations"][0].as_array().unwrap().len(), 10);
}

#[test]
fn show_a_variation() {
    let r = read_2007(&nested_2007());
    let main = select_line(&r, "").unwrap();
    assert_eq!(main.len(), 6);
    assert_eq!(select_line(&r, "1.1.1").unwrap(), main);
    let g = select_line(&r, "1.1.1.2").unwrap();
    assert_eq!(g.len(), 4);
    assert_eq!(r.moves[*g.last().unwrap()].comment, "G");
    let h = select_line(&r, "1.2").unwrap();
    assert_eq!(h.len(), 5);
    assert!(select_line(&r, "1.3").unwrap_err().contains("ply 2"));
    assert!(select_line(&r, "x").is_err());
    let text = show(&r, &h, Some(2)).unwrap();
    assert!(text.contains("to move: red"), "{text}");
    assert!(
        text.contains("1. 炮二平五 h2e2\n1... 马８进７ h9g7\n"),
        "{text}"
    );
    assert!(text.contains("楚 河"));
    assert!(text.contains("(帅)") && text.contains(" 将 "));
    assert!(show(&r, &h, Some(6)).is_err());
}

#[test]
fn the_1_0_corpus_through_2007_keeps_its_trees() {
    let Some(seeds) = seeds() else { return };
    let dir = seeds.join("../cbf-xqbridge");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let report = validate_file(&path, &Options::default());
        // One corpus file has an illegal flying-king move: nothing to convert.
        let Some(r) = report.document.as_ref().and_then(record_of) else {
            continue;
        };
        let (v2007, _) = via_2007(&r);
        let (back, losses) = via_1_0(&v2007);
        assert!(losses.is_empty(), "{}: {losses:?}", path.display());
        let tree = |r: &Record| {
            r.moves
                .iter()
                .map(|m| (m.mv, m.parent, m.comment.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(tree(&back), tree(&r), "{}", path.display());
        assert_eq!(back.start, r.start, "{}", path.display());
        assert_eq!(back.game_comment, r.game_comment, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} corpus records converted");
}

/// Every head field of each dialect's schema is accounted for: the other dialect has a field
/// of the same name, or the mapping names it (one thing under two names, or written by the
/// conversion itself), or it is listed as only in its dialect. A field added to one schema
/// and to none of these fails here, named.
#[test]
fn every_head_field_of_both_schemas_is_mapped_or_listed() {
    use boardxml::complex::{Complex, Kind};
    use boardxml_formats::cbf::convert::{CONVERTED_FIELDS, ONLY_1_0, ONLY_2007, SAME_FIELD};
    use boardxml_formats::generated::{cbf_1_0, cbf_2007};

    fn elements<T: Complex>() -> Vec<&'static str> {
        T::FIELDS
            .iter()
            .filter(|f| f.kind == Kind::Element)
            .map(|f| f.xml)
            .collect()
    }
    let (h2007, h1_0) = (elements::<cbf_2007::Head>(), elements::<cbf_1_0::Head>());
    let mut unaccounted = Vec::new();
    for f in &h1_0 {
        let accounted = h2007.contains(f)
            || SAME_FIELD.iter().any(|(_, v)| v == f)
            || CONVERTED_FIELDS.iter().any(|(_, v)| v == f)
            || ONLY_1_0.contains(f);
        if !accounted {
            unaccounted.push(format!("1.0 Head/{f}"));
        }
    }
    for f in &h2007 {
        let accounted = h1_0.contains(f)
            || SAME_FIELD.iter().any(|(v, _)| v == f)
            || CONVERTED_FIELDS.iter().any(|(v, _)| v == f)
            || ONLY_2007.contains(f);
        if !accounted {
            unaccounted.push(format!("2007 Head/{f}"));
        }
    }
    assert!(
        unaccounted.is_empty(),
        "head fields neither in the other dialect, nor mapped, nor listed as only in theirs: {unaccounted:?}"
    );
    // And every name the lists give is a field of its schema (no stale entry).
    for f in ONLY_1_0 {
        assert!(h1_0.contains(f) && !h2007.contains(f), "ONLY_1_0 lists {f}");
    }
    for (v2007, v1_0) in SAME_FIELD.iter().chain(CONVERTED_FIELDS) {
        assert!(h2007.contains(v2007), "no 2007 Head/{v2007}");
        assert!(v1_0.is_empty() || h1_0.contains(v1_0), "no 1.0 Head/{v1_0}");
    }
}
