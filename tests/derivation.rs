//! Issue 14, type derivation: the generated code of the feature case `derivation`
//! (codegen/tests/cases/derivation), compiled here under `deny(warnings)` and run against
//! valid and invalid documents. A derived type checks what its derivation says: an
//! extension its base's content then its own and both sets of attributes, a restriction
//! its own content model and its base's attributes narrowed or prohibited, a simple-content
//! restriction its base's value with the new facets. Every verdict is also xmllint's
//! (libxml2, an independent XSD 1.0 validator), so a test cannot bless a wrong answer.
#![deny(warnings)]

mod common;

#[rustfmt::skip]
#[allow(missing_docs)]
// A test uses only part of the generated API; unused items are not a defect of the code.
#[allow(dead_code)]
#[path = "../codegen/tests/cases/derivation/expected.rs"]
mod derivation;

use boardxml::schema::Document;
use boardxml::xml::Writer;
use common::cases::{judge, read};

#[test]
fn derived_types_read_into_flattened_fields_and_write_back() {
    let text = include_str!("../codegen/tests/cases/derivation/example.xml");
    let (doc, diags) = read::<derivation::Root>(text);
    assert!(diags.is_empty(), "{diags:?}");
    let derivation::Root::Board(board) = doc.unwrap();
    // An extension of an extension: Item's name and attributes, Piece's squares and side,
    // Pawn's promotion and moved flag, in one struct.
    let pawn = &board.pawn[0];
    assert_eq!(pawn.id, "p1");
    assert_eq!(pawn.side, derivation::Side::Red);
    assert_eq!(pawn.name, "pawn");
    assert_eq!(pawn.square, ["e3", "e4"]);
    assert_eq!(pawn.promotion.as_deref(), Some("rook"));
    assert_eq!(pawn.moved, Some(true));
    assert_eq!(board.piece[0].comment.as_deref(), Some("the general"));
    let clock = board.clock.as_ref().unwrap();
    assert_eq!(
        (clock.label.as_str(), &clock.minutes[..]),
        ("red", &[10, 5][..])
    );
    assert_eq!(board.r#move.as_ref().unwrap().from, "h2");
    let note = board.note.as_ref().unwrap();
    assert_eq!(
        (note.content.as_str(), note.author.as_deref()),
        ("central", Some("ann"))
    );
    let rank = board.rank.as_ref().unwrap();
    assert_eq!(rank.content.get(), 7);
    assert_eq!(
        (rank.scale.as_deref(), rank.title.as_str()),
        (Some("dan"), "master")
    );
    // The restricted value types check their facets on construction too.
    assert!(
        derivation::RankValue::new(0).is_err(),
        "Rank's minInclusive 1"
    );
    assert!(
        derivation::RankValue::new(10).is_err(),
        "SmallLevel's maxInclusive 9"
    );
    assert!(derivation::ShortNoteValue::new("eleven char").is_err());
    // Written and read back: the same value.
    let mut w = Writer::new(encoding_rs::UTF_8);
    derivation::Root::Board(board.clone()).write_root(&mut w);
    let written = w.finish();
    let (again, diags) = read::<derivation::Root>(&written);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(again.unwrap(), derivation::Root::Board(board));
}

#[test]
fn derived_types_judge_documents_like_xmllint() {
    let ok: &[&str] = &[];
    let piece = "<name>n</name><square>a1</square>";
    let docs: Vec<(String, &[&str], &str)> = vec![
        ("<board/>".into(), ok, "everything optional"),
        (
            format!("<board><piece id='a' side='red'>{piece}</piece></board>"),
            ok,
            "the smallest piece",
        ),
        (
            "<board><piece id='a' side='red'><square>a1</square></piece></board>".into(),
            &["E0203"],
            "the base's element comes first and is required",
        ),
        (
            "<board><piece id='a' side='red'><square>a1</square><name>n</name></piece></board>".into(),
            &["E0203", "E0202"],
            "the base's particle, then the extension's: not the other way round",
        ),
        (
            format!("<board><piece side='red'>{piece}</piece></board>"),
            &["E0205"],
            "id is the base's required attribute",
        ),
        (
            format!("<board><piece id='a'>{piece}</piece></board>"),
            &["E0205"],
            "side is the extension's required attribute",
        ),
        (
            format!("<board><piece id='a' side='red' moved='true'>{piece}</piece></board>"),
            &["E0204"],
            "moved is Pawn's, not Piece's",
        ),
        (
            format!("<board><pawn id='a' side='blue'>{piece}</pawn></board>"),
            &["E0209"],
            "side keeps its enumeration through two extensions",
        ),
        (
            format!("<board><pawn id='a' side='red'>{piece}<promotion/><promotion/></pawn></board>"),
            &["E0202"],
            "promotion occurs at most once",
        ),
        (
            "<board><clock label='x'><minutes>1</minutes></clock></board>".into(),
            ok,
            "the restricted clock",
        ),
        (
            "<board><clock label='x'/></board>".into(),
            &["E0203"],
            "the restriction requires a minute, the base did not",
        ),
        (
            "<board><clock label='x'><minutes>1</minutes><minutes>2</minutes><minutes>3</minutes></clock></board>".into(),
            &["E0202"],
            "the restriction allows two minutes",
        ),
        (
            "<board><clock><minutes>1</minutes></clock></board>".into(),
            &["E0205"],
            "the restriction makes label required",
        ),
        (
            "<board><clock label='x' running='true'><minutes>1</minutes></clock></board>".into(),
            &["E0204"],
            "running is prohibited in the restriction",
        ),
        (
            "<board><move ply='0'><from>a</from><to>b</to></move></board>".into(),
            &["E0211"],
            "xs:anyType restricted: ply is a positiveInteger",
        ),
        (
            "<board><move ply='1'><to>b</to></move></board>".into(),
            &["E0203"],
            "xs:anyType restricted: from is required",
        ),
        (
            "<board><note author='a'>0123456789</note></board>".into(),
            ok,
            "ten characters",
        ),
        (
            "<board><note>0123456789x</note></board>".into(),
            &["E0212"],
            "the restriction's maxLength 10",
        ),
        (
            "<board><note lang='en'>x</note></board>".into(),
            &["E0204"],
            "lang is prohibited in the restriction",
        ),
        (
            "<board><rank title='t'>9</rank></board>".into(),
            ok,
            "the chain's bounds: 1..9",
        ),
        (
            "<board><rank title='t'>10</rank></board>".into(),
            &["E0211"],
            "SmallLevel's maxInclusive, two steps up the chain",
        ),
        (
            "<board><rank title='t'>0</rank></board>".into(),
            &["E0211"],
            "Rank's own minInclusive",
        ),
        (
            "<board><rank>5</rank></board>".into(),
            &["E0205"],
            "the restriction makes the extension's title required",
        ),
        (
            "<board><rank title='t'>five</rank></board>".into(),
            &["E0208"],
            "the value is still an xs:int",
        ),
        (
            "<board><level scale='pct'>99</level></board>".into(),
            ok,
            "an inline value type: 0..99, Level's attribute kept",
        ),
        (
            "<board><level>100</level></board>".into(),
            &["E0211"],
            "the restriction's maxExclusive on the inline type",
        ),
        (
            "<board><level>-1</level></board>".into(),
            &["E0211"],
            "the inline type's minInclusive",
        ),
        (
            format!("<figure id='a' side='red'>{piece}</figure>"),
            &["E0201"],
            "an abstract element is never a document's root",
        ),
        (
            format!("<board><figure id='a' side='red'>{piece}</figure></board>"),
            &["E0202"],
            "a reference to an abstract element without members matches nothing",
        ),
    ];
    let docs: Vec<(&str, &[&str], &str)> =
        docs.iter().map(|(t, c, w)| (t.as_str(), *c, *w)).collect();
    judge::<derivation::Root>("derivation", &docs);
}
