//! Value constraints beyond simple content in a sequence (issue 14, item 6; XSD 1.0,
//! 3.3.4, Element Locally Valid (Element) 5), on the feature case `content-constraints`:
//! an empty element takes the default or fixed value, as text for xs:anyType and mixed
//! content (whose value is a string, compared as written) and as a value for elements in
//! an xs:choice or in mixed content (compared in the value space); a mismatch is a located
//! E0206.
#![deny(warnings)]

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/content-constraints/expected.rs"]
mod content_constraints;

use boardxml::any::lax::LaxNode;
use boardxml::diagnostic::{Code, Diagnostic};
use boardxml::schema::{Document, Invalid};
use boardxml::xml::{Reader, Writer};
use content_constraints::{DocChoice, NoteContent, ParaContent, Root};

fn read(text: &str) -> (Result<Root, Invalid>, Vec<Diagnostic>) {
    let mut r = Reader::new(text);
    let d = r.read_document::<Root>();
    (d, r.into_diagnostics())
}

fn write(doc: &Root) -> String {
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    w.finish()
}

fn accepted(text: &str) -> content_constraints::Doc {
    let (doc, diags) = read(text);
    assert!(diags.is_empty(), "{text}: {diags:?}");
    let Root::Doc(d) = doc.unwrap() else {
        panic!("a doc")
    };
    d
}

/// Rejected with E0206, located inside the document (at or past the end of `<doc>`) at the element's path.
fn fixed_mismatch(text: &str, path: &str) {
    let (doc, diags) = read(text);
    assert!(doc.is_err(), "{text} was accepted");
    assert_eq!(diags.len(), 1, "{text}: {diags:?}");
    assert_eq!(diags[0].code, Code::FIXED_VALUE, "{text}: {diags:?}");
    assert_eq!(diags[0].path, path, "{text}: {diags:?}");
    assert!(diags[0].offset >= 5, "located: {diags:?}");
}

#[test]
fn the_example_round_trips() {
    let text = include_str!("../codegen/tests/cases/content-constraints/example.xml");
    let (doc, diags) = read(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.unwrap();
    assert_eq!(write(&doc), text);
}

#[test]
fn empty_elements_take_the_value_as_text() {
    let d = accepted("<doc><open/><sealed></sealed><note/><stamp/></doc>");
    let text = |nodes: &[LaxNode<content_constraints::AnyTypeChild>]| nodes.to_vec();
    assert_eq!(
        text(d.open.as_ref().unwrap().children()),
        vec![LaxNode::Text("open text".into())]
    );
    assert_eq!(
        text(d.sealed.as_ref().unwrap().children()),
        vec![LaxNode::Text("sealed text".into())]
    );
    assert_eq!(
        d.note.as_ref().unwrap().content,
        vec![NoteContent::Text("no note".into())]
    );
    assert_eq!(
        d.stamp.as_ref().unwrap().content,
        vec![NoteContent::Text("approved".into())]
    );
    // Given content stands where there is only a default.
    let d = accepted("<doc><open><x/></open><note> </note></doc>");
    assert_eq!(d.open.as_ref().unwrap().children().len(), 1);
    assert_eq!(
        d.note.as_ref().unwrap().content,
        vec![NoteContent::Text(" ".into())]
    );
}

#[test]
fn a_fixed_string_value_is_matched_as_written_and_without_elements() {
    // Split by a comment, the text is still the fixed string.
    accepted(
        "<doc><sealed>sealed<!-- c --> text</sealed><stamp><![CDATA[appro]]>ved</stamp></doc>",
    );
    // A string: white space counts (no normalization for mixed content).
    fixed_mismatch("<doc><sealed> sealed text</sealed></doc>", "/doc/sealed");
    fixed_mismatch("<doc><stamp>refused</stamp></doc>", "/doc/stamp");
    // No element child, even with the right text around it.
    fixed_mismatch("<doc><stamp>approved<b/></stamp></doc>", "/doc/stamp");
    fixed_mismatch(
        "<doc><sealed><x>sealed text</x></sealed></doc>",
        "/doc/sealed",
    );
}

#[test]
fn elements_in_a_choice_take_their_constraints() {
    let d = accepted("<doc><size/><unit/><size>4</size><unit>cm</unit><unit>cm</unit></doc>");
    assert_eq!(d.content.len(), 4, "{:?}", d.content);
    assert_eq!(d.content[0], DocChoice::Size(10));
    assert_eq!(d.content[1], DocChoice::Unit(vec!["cm".to_string()]));
    assert_eq!(d.content[2], DocChoice::Size(4));
    // A fixed value is compared in the value space (xs:string keeps its spaces).
    fixed_mismatch("<doc><unit>mm</unit></doc>", "/doc/unit");
    fixed_mismatch("<doc><unit>cm</unit><unit>mm</unit></doc>", "/doc/unit[2]");
}

#[test]
fn elements_in_mixed_content_take_their_constraints() {
    let d = accepted("<doc><para>a <n/> b <n>1.00</n> <d/></para></doc>");
    let items = &d.para.as_ref().unwrap().content;
    assert!(items.contains(&ParaContent::D(true)), "{items:?}");
    // 1.00 is 1.0 in the value space of xs:decimal.
    assert_eq!(
        items
            .iter()
            .filter(|i| matches!(i, ParaContent::N(_)))
            .count(),
        2
    );
    fixed_mismatch("<doc><para><n>2</n></para></doc>", "/doc/para/n");
}

#[test]
fn root_elements_take_their_constraints() {
    let (doc, diags) = read("<count/>");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(doc, Ok(Root::Count(7)));
    let (doc, _) = read("<label/>");
    let Ok(Root::Label(label)) = doc else {
        panic!("a label: {doc:?}")
    };
    assert_eq!(label.children(), &[LaxNode::Text("sealed".into())]);
    let (doc, diags) = read("<label>open</label>");
    assert!(doc.is_err());
    assert_eq!(diags[0].code, Code::FIXED_VALUE, "{diags:?}");
    assert_eq!(diags[0].path, "/label", "{diags:?}");
}
