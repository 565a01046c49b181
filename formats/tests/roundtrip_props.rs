//! Round trips over documents built from the generated types: write -> read gives an equal
//! value, and writing is a fixed point (canonical layout comes back byte for byte).

use boardxml::schema::{Document, TextForm};
use boardxml::xml::{Reader, Writer};
use boardxml_formats::generated::{cbf_1_0, cif};
use proptest::prelude::*;

fn square() -> impl Strategy<Value = boardxml_formats::cif::Square> {
    let file = prop_oneof![
        (b'a'..=b'z').prop_map(|c| (c as char).to_string()),
        (b'a'..=b'z').prop_map(|c| (c as char).to_string().repeat(2)),
        (b'a'..=b'l').prop_map(|c| (c as char).to_string().repeat(3)),
    ];
    let third = prop_oneof![
        Just(String::new()),
        (b'A'..=b'H').prop_map(|c| (c as char).to_string())
    ];
    (file, 1u8..=64, third, proptest::option::of(1u8..=8)).prop_map(|(f, r, b, row)| {
        let row = if b.is_empty() {
            String::new()
        } else {
            row.map(|x| x.to_string()).unwrap_or_default()
        };
        boardxml::schema::SimpleValue::parse_lexical(&format!("{f}{r}{b}{row}"))
            .expect("a square by construction")
    })
}

fn color() -> impl Strategy<Value = cif::Color> {
    proptest::sample::select(cif::Color::ALL.to_vec())
}

fn opacity() -> impl Strategy<Value = Option<cif::Opacity>> {
    proptest::option::of((1u64..=255).prop_map(|v| cif::Opacity::new(v).unwrap()))
}

fn form() -> impl Strategy<Value = TextForm> {
    prop_oneof![Just(TextForm::Text), Just(TextForm::CData)]
}

/// Text without characters XML forbids, and (so CDATA stays writable) without `\r`, which
/// a CDATA section cannot keep.
fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 <>&\"'\\]\n\t帅將]{1,12}"
}

fn item() -> impl Strategy<Value = cif::MovesContent> {
    prop_oneof![
        text().prop_map(cif::MovesContent::Text),
        text().prop_map(cif::MovesContent::CData),
        (color(), opacity(), square(), square()).prop_map(|(color, opacity, from, to)| {
            cif::MovesContent::Arrow(cif::Arrow {
                color,
                opacity,
                from,
                to,
            })
        }),
        (
            proptest::sample::select(cif::MarkerTypeID::ALL.to_vec()),
            color(),
            opacity(),
            square()
        )
            .prop_map(|(t, color, opacity, at)| cif::MovesContent::Marker(
                cif::Marker::SquareMarker(cif::SquareMarker {
                    r#type: t,
                    color,
                    opacity,
                    at
                })
            )),
        (
            color(),
            opacity(),
            square(),
            "[^\\r\\u{0}-\\u{8}\\u{b}\\u{c}\\u{e}-\\u{1f}\\u{fffe}\\u{ffff}]",
            form()
        )
            .prop_map(
                |(color, opacity, at, c, content_form)| cif::MovesContent::Marker(
                    cif::Marker::TextMarker(cif::TextMarker {
                        color,
                        opacity,
                        at,
                        content: cif::Character::new(c).unwrap(),
                        content_form
                    })
                )
            ),
        (
            opacity(),
            square(),
            proptest::sample::select(cif::Symbol::ALL.to_vec()),
            form()
        )
            .prop_map(
                |(opacity, at, content, content_form)| cif::MovesContent::Marker(
                    cif::Marker::SymbolMarker(cif::SymbolMarker {
                        opacity,
                        at,
                        content,
                        content_form
                    })
                )
            ),
        (
            color(),
            opacity(),
            proptest::collection::vec(square(), 2..5),
            form()
        )
            .prop_map(|(color, opacity, s, content_form)| cif::MovesContent::Line(
                cif::Line {
                    color,
                    opacity,
                    content: boardxml_formats::cif::Squares::new(s).unwrap(),
                    content_form
                }
            )),
        (
            color(),
            square(),
            square(),
            proptest::option::of(text()),
            form()
        )
            .prop_map(
                |(color, from, to, t, f)| cif::MovesContent::Region(cif::Region {
                    color,
                    from,
                    to,
                    content: t.unwrap_or_default(),
                    content_form: f,
                })
            ),
        (square(), any::<i8>(), form()).prop_map(|(at, content, content_form)| {
            cif::MovesContent::Value(cif::Value {
                at,
                content,
                content_form,
            })
        }),
    ]
}

/// Adjacent texts (and adjacent CDATA sections) are one run of character data once written.
fn normalise(items: Vec<cif::MovesContent>) -> Vec<cif::MovesContent> {
    let mut out: Vec<cif::MovesContent> = Vec::new();
    for i in items {
        match (out.last_mut(), i) {
            (Some(cif::MovesContent::Text(a)), cif::MovesContent::Text(b)) => a.push_str(&b),
            (Some(cif::MovesContent::CData(a)), cif::MovesContent::CData(b)) => a.push_str(&b),
            (_, i) => out.push(i),
        }
    }
    out
}

fn cif_doc() -> impl Strategy<Value = cif::Root> {
    let game = (
        proptest::collection::vec(item(), 0..12),
        proptest::option::of(1u8..=64),
    )
        .prop_map(|(items, files)| cif::Game {
            boardsize: None,
            files: files.map(|f| cif::BoardDimension::new(f).unwrap()),
            ranks: None,
            moves: cif::Moves {
                content: normalise(items),
            },
        });
    proptest::collection::vec(game, 1..4).prop_map(|game| cif::Root::Cif(cif::Cif { game }))
}

fn cbf_doc() -> impl Strategy<Value = cbf_1_0::Root> {
    let mv = (
        (0u8..9, 0u8..10, 0u8..9, 0u8..10),
        proptest::option::of(0u8..=1),
        proptest::option::of(0u8..=1),
        proptest::option::of(text()),
    )
        .prop_map(|((a, b, c, d), branch, end, comment)| cbf_1_0::Move {
            value: boardxml::schema::SimpleValue::parse_lexical(&format!("{a}{b}-{c}{d}")).unwrap(),
            branch: branch.map(|v| cbf_1_0::Flag::new(v).unwrap()),
            end: end.map(|v| cbf_1_0::Flag::new(v).unwrap()),
            content_form: if comment.is_some() {
                TextForm::CData
            } else {
                TextForm::Text
            },
            content: comment.unwrap_or_default(),
        });
    (
        proptest::collection::vec(mv, 1..20),
        proptest::option::of(text()),
        proptest::option::of(0u8..=4),
    )
        .prop_map(|(moves, name, result)| {
            let head = cbf_1_0::Head {
                name,
                record_result: result.map(|r| {
                    cbf_1_0::RecordResultField::ResultCode(cbf_1_0::ResultCode::new(r).unwrap())
                }),
                ..Default::default()
            };
            cbf_1_0::Root::ChineseChessRecord(cbf_1_0::ChineseChessRecord {
                head: Box::new(head),
                move_list: cbf_1_0::MoveList { r#move: moves },
            })
        })
}

fn round_trip<D: Document + PartialEq + std::fmt::Debug>(
    doc: &D,
    encoding: &'static encoding_rs::Encoding,
) -> Result<(), TestCaseError> {
    let mut w = Writer::new(encoding);
    doc.write_root(&mut w);
    let text = w.finish();
    let mut r = Reader::new(&text);
    let again = r.read_document::<D>();
    let diagnostics = r.into_diagnostics();
    prop_assert!(diagnostics.is_empty(), "{:?}\n{text}", diagnostics);
    let again = again.unwrap();
    prop_assert_eq!(&again, doc);
    let mut w2 = Writer::new(encoding);
    again.write_root(&mut w2);
    prop_assert_eq!(w2.finish(), text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn cif_documents_round_trip(doc in cif_doc()) {
        round_trip(&doc, encoding_rs::UTF_8)?;
    }

    #[test]
    fn cbf_documents_round_trip(doc in cbf_doc()) {
        round_trip(&doc, encoding_rs::UTF_8)?;
    }
}
