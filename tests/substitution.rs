//! Issue 14, substitution groups: the generated code of the feature case
//! `substitution-groups` (codegen/tests/cases/substitution-groups), compiled here under
//! `deny(warnings)` and run against valid and invalid documents. A reference to a head
//! reads any member of its group in its place (transitively, never an abstract element),
//! each into its own variant of one enum, and writes it back under its own name; `block`
//! on the head keeps members out. Every verdict is also xmllint's (libxml2, an independent
//! XSD 1.0 validator), so a test cannot bless a wrong answer.
#![deny(warnings)]

mod common;

#[rustfmt::skip]
#[allow(missing_docs)]
// A test uses only part of the generated API; unused items are not a defect of the code.
#[allow(dead_code)]
#[path = "../codegen/tests/cases/substitution-groups/expected.rs"]
mod substitution;

use boardxml::schema::Document;
use boardxml::xml::Writer;
use common::cases::{judge, read};

use substitution::{BoardChoice, BoardChoice2, PieceTyped, RankedTyped, Root};

// The schema derives types from Piece and Ranked, so their elements are read as the type
// xsi:type chooses (here always the declared one): these see through that. xs:string
// elements stay strings (a simple declared type keeps its Rust type).
fn string_of(s: &str) -> &str {
    s
}

fn piece(p: &PieceTyped) -> &substitution::Piece {
    match p {
        PieceTyped::Declared(p) | PieceTyped::Piece(p) => p,
        other => panic!("a piece as declared: {other:?}"),
    }
}

fn ranked(r: &RankedTyped) -> &substitution::Ranked {
    match r {
        RankedTyped::Declared(r) | RankedTyped::Ranked(r) => r,
        other => panic!("a ranked piece as declared: {other:?}"),
    }
}

const NS: &str = "xmlns='urn:boardxml:substitution'";

#[test]
fn members_read_into_their_own_variants_and_write_back_under_their_names() {
    let text = include_str!("../codegen/tests/cases/substitution-groups/example.xml");
    let (doc, diags) = read::<Root>(text);
    assert!(diags.is_empty(), "{diags:?}");
    let Ok(Root::Board(board)) = doc else {
        panic!("a board: {doc:?}");
    };
    // The abstract head's members, in document order, each with its own type: pawn has
    // its head's type (it declares none), queen is a member of a member.
    let names: Vec<&str> = board
        .content
        .iter()
        .map(|c| match c {
            BoardChoice::Pawn(p) => {
                assert_eq!(string_of(&piece(p).square), "e4");
                "pawn"
            }
            BoardChoice::Rook(r) => {
                let r = ranked(r);
                assert_eq!((r.rank, string_of(&r.square)), (2, "a1"));
                "rook"
            }
            BoardChoice::Queen(q) => {
                assert_eq!((q.rank, string_of(&q.from)), (9, "d7"));
                "queen"
            }
            BoardChoice::Knight(k) => {
                assert_eq!(string_of(&piece(k).square), "b1");
                "knight"
            }
        })
        .collect();
    assert_eq!(names, ["pawn", "rook", "queen", "knight"]);
    assert_eq!(
        board.choice.as_ref().map(|c| match c {
            BoardChoice2::Note(n) => n.clone(),
            BoardChoice2::ShortNote(s) => format!("short {}", s.as_str()),
        }),
        Some("short good".to_string()),
        "short-note stands for note, with its own (restricted) type"
    );
    // The member's restricted type checks its facets on construction too.
    assert!(substitution::ShortText::new("toolong").is_err());
    // Written and read back: the same value, each element under its own name.
    let mut w = Writer::new(encoding_rs::UTF_8);
    Root::Board(board.clone()).write_root(&mut w);
    let written = w.finish();
    for element in [
        "<pawn>",
        "<rook rank=\"2\">",
        "<queen rank=\"9\">",
        "<knight>",
        "<short-note>",
    ] {
        assert!(written.contains(element), "{element} in {written}");
    }
    let (again, diags) = read::<Root>(&written);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(again.unwrap(), Root::Board(board));
}

#[test]
fn a_built_member_is_written_under_its_name() {
    let board = substitution::Board {
        content: vec![BoardChoice::Queen(substitution::Promoted {
            rank: 3,
            square: "d1".into(),
            from: "d8".into(),
        })],
        choice: Some(BoardChoice2::Note("n".into())),
        marker: None,
    };
    let mut w = Writer::new(encoding_rs::UTF_8);
    Root::Board(board.clone()).write_root(&mut w);
    let written = w.finish();
    let queen = written.find("<queen rank=\"3\">").expect(&written);
    let note = written.find("<note>n</note>").expect(&written);
    assert!(queen < note, "{written}");
    let (again, diags) = read::<Root>(&written);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(again.unwrap(), Root::Board(board));
}

#[test]
fn a_member_out_of_place_is_a_located_error() {
    let text = format!(
        "<board {NS}>\n  <short-note>x</short-note>\n  <pawn><square>a</square></pawn>\n</board>"
    );
    let (_, diags) = read::<Root>(&text);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let d = &diags[0];
    assert_eq!(d.code.as_str(), "E0202", "{d:#?}");
    // Where the misplaced member stands (its byte offset: lines are placed when the
    // diagnostics are shown), its path, and what could come instead.
    assert_eq!(d.offset, text.find("<pawn>").unwrap(), "{d:#?}");
    assert_eq!(
        d.path,
        "/{urn:boardxml:substitution}board/{urn:boardxml:substitution}pawn"
    );
    assert_eq!(
        d.found.as_deref(),
        Some("<{urn:boardxml:substitution}pawn>")
    );
    assert_eq!(
        d.expected.as_deref(),
        Some("</{urn:boardxml:substitution}board>")
    );
}

#[test]
fn substitution_groups_judge_documents_like_xmllint() {
    let ok: &[&str] = &[];
    let sq = "<square>a1</square>";
    let docs: Vec<(String, &[&str], &str)> = vec![
        (format!("<board {NS}/>"), ok, "everything optional"),
        (
            format!("<board {NS}><pawn>{sq}</pawn><rook rank='1'>{sq}</rook><knight>{sq}</knight></board>"),
            ok,
            "members of the abstract head, in any order and number",
        ),
        (
            format!("<board {NS}><queen rank='1'>{sq}<from>x</from></queen></board>"),
            ok,
            "a member of a member",
        ),
        (
            format!("<board {NS}><piece>{sq}</piece></board>"),
            &["E0202"],
            "the abstract head never appears itself",
        ),
        (
            format!("<board {NS}><minor>{sq}</minor></board>"),
            &["E0202"],
            "nor an abstract member",
        ),
        (
            format!("<board {NS}><rook>{sq}</rook></board>"),
            &["E0205"],
            "a member is read by its own type: rook's rank is required",
        ),
        (
            format!("<board {NS}><pawn rank='1'>{sq}</pawn></board>"),
            &["E0204"],
            "pawn has its head's type, which has no rank",
        ),
        (
            format!("<board {NS}><queen rank='1'>{sq}</queen></board>"),
            &["E0203"],
            "queen's type requires from",
        ),
        (format!("<board {NS}><note>any text</note></board>"), ok, "the concrete head itself"),
        (
            format!("<board {NS}><short-note>12345</short-note></board>"),
            ok,
            "a member whose type restricts the head's",
        ),
        (
            format!("<board {NS}><short-note>123456</short-note></board>"),
            &["E0212"],
            "the member's own facet",
        ),
        (
            format!("<board {NS}><signed-note by='x'>y</signed-note></board>"),
            &["E0202"],
            "block=\"extension\" on note: a member with an extended type cannot stand for it",
        ),
        (
            format!("<board {NS}><note>a</note><short-note>b</short-note></board>"),
            &["E0202"],
            "the group stands for one occurrence of note",
        ),
        (format!("<board {NS}><marker>m</marker></board>"), ok, "marker itself"),
        (
            format!("<board {NS}><flag>m</flag></board>"),
            &["E0202"],
            "block=\"substitution\" on marker: flag cannot stand for it",
        ),
        (
            format!("<pawn {NS}>{sq}</pawn>"),
            ok,
            "a member is a global element: a document's root",
        ),
        (
            format!("<piece {NS}>{sq}</piece>"),
            &["E0201"],
            "an abstract head is never a document's root",
        ),
        (
            format!("<signed-note {NS} by='a'>b</signed-note>"),
            ok,
            "a blocked member is still a root of its own",
        ),
        // xsi:type on the members (type substitution): a type derived from the member's
        // own, which the member's and the head's blocks do not forbid.
        (
            format!("<board {NS} {XSI}><pawn xsi:type='t:Ranked' rank='1'>{sq}</pawn></board>"),
            ok,
            "pawn (type Piece) with xsi:type naming Ranked, derived from Piece",
        ),
        (
            format!("<board {NS} {XSI}><pawn xsi:type='t:Ranked'>{sq}</pawn></board>"),
            &["E0205"],
            "the type xsi:type names reads the element: Ranked requires rank",
        ),
        (
            format!("<board {NS} {XSI}><rook xsi:type='t:Piece'>{sq}</rook></board>"),
            &["E0204"],
            "Piece is Ranked's base, not derived from it",
        ),
        (
            format!("<board {NS} {XSI}><note xsi:type='t:ShortText'>12345</note></board>"),
            ok,
            "note (xs:string) with xsi:type naming a restriction of xs:string",
        ),
        (
            format!("<board {NS} {XSI}><note xsi:type='t:ShortText'>123456</note></board>"),
            &["E0212"],
            "the facets of the type xsi:type names",
        ),
        (
            format!("<board {NS} {XSI}><note xsi:type='t:Signed' by='x'>y</note></board>"),
            &["E0204"],
            "block=\"extension\" on note: no type derived by extension stands in either",
        ),
    ];
    judge::<Root>("substitution-groups", &docs);
}

/// The xsi and t prefixes of the documents above that use xsi:type.
const XSI: &str =
    "xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xmlns:t='urn:boardxml:substitution'";
