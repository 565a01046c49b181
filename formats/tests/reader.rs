//! The runtime's streaming reader on the CIF schema's generated types: text decoded once,
//! empty-element tags in order, paths of same-named siblings (moved here from the reader's
//! unit tests when the formats left the runtime crate).

use boardxml::xml::Reader;
use boardxml_formats::generated::cif;

/// The text reaching the reader is UTF-8 whatever the declaration says; quick-xml must
/// not decode it again (it would, by the declaration, with its `encoding` feature on,
/// which a workspace build turns on through another crate).
#[test]
fn a_gbk_declaration_does_not_decode_utf8_text_again() {
    let text = "<?xml version=\"1.0\" encoding=\"GBK\"?><cif><game><moves>炮二平五<marker type=\"text\" color=\"red\" at=\"e4\">帅</marker><![CDATA[吕钦]]></moves></game></cif>";
    let mut r = Reader::new(text);
    let cif::Root::Cif(doc) = r.read_document::<cif::Root>().expect("valid");
    let content = &doc.game[0].moves.content;
    assert_eq!(content[0], cif::MovesContent::Text("炮二平五".into()));
    let cif::MovesContent::Marker(cif::Marker::TextMarker(m)) = &content[1] else {
        panic!("{content:?}")
    };
    assert_eq!(m.content.as_str(), "帅");
    assert_eq!(content[2], cif::MovesContent::CData("吕钦".into()));
}

/// `<x/>` is one event; the reader hands out its start and then its end itself, in
/// order with the text around it, the end placed at the tag, in memory and streamed.
#[test]
fn empty_element_tags_end_where_they_stand() {
    let text = "<cif><game><moves>1. e4<marker type=\"full\" color=\"red\" at=\"e4\"/>!<![CDATA[?]]><marker at=\"d5\">parcel</marker></moves></game></cif>";
    for streamed in [false, true] {
        let mut r = if streamed {
            Reader::from_reader(text.as_bytes())
        } else {
            Reader::new(text)
        };
        let cif::Root::Cif(doc) = r.read_document::<cif::Root>().expect("valid");
        let content = &doc.game[0].moves.content;
        assert_eq!(content.len(), 5, "{content:?}");
        assert_eq!(content[0], cif::MovesContent::Text("1. e4".into()));
        assert!(matches!(
            &content[1],
            cif::MovesContent::Marker(cif::Marker::SquareMarker(m)) if m.at.to_string() == "e4"
        ));
        assert_eq!(content[2], cif::MovesContent::Text("!".into()));
        assert_eq!(content[3], cif::MovesContent::CData("?".into()));
    }
    // A missing child is reported at the end of its parent: for `<game/>`, the tag.
    let text = "<cif>\n  <game/>\n</cif>";
    for streamed in [false, true] {
        let mut r = if streamed {
            Reader::from_reader(text.as_bytes())
        } else {
            Reader::new(text)
        };
        assert!(r.read_document::<cif::Root>().is_err());
        let d = &r.diagnostics()[0];
        assert_eq!((d.offset, d.path.as_str()), (8, "/cif/game"), "{d:?}");
        assert!(d.message.contains("moves"), "{d:?}");
    }
}

#[test]
fn paths_name_same_named_siblings_from_the_second_on() {
    let text = "<cif><game><moves/></game><game><moves><arrow color=\"pink\" from=\"a1\" to=\"b2\"/></moves></game></cif>";
    let mut r = Reader::new(text);
    assert!(r.read_document::<cif::Root>().is_err());
    assert_eq!(r.diagnostics()[0].path, "/cif/game[2]/moves/arrow/@color");
}
