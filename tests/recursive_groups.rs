//! Model groups referred to from anonymous types inside themselves (the generator's
//! `recursive-groups` case): the generated code, with the recursion boxed, reads nested
//! documents to any depth, writes them and reads them back, and refuses what the schema
//! refuses at every depth.
#![deny(warnings)]

#[rustfmt::skip]
#[allow(missing_docs)]
// A test uses only part of the generated API; unused items are not a defect of the code.
#[allow(dead_code)]
#[path = "../codegen/tests/cases/recursive-groups/expected.rs"]
mod recursive_groups;

use boardxml::schema::Document;
use boardxml::xml::{Reader, Writer};
use recursive_groups::{PcContent, Root, SourceContent};

fn read(text: &str) -> (Option<Root>, Vec<boardxml::diagnostic::Diagnostic>) {
    let mut r = Reader::new(text);
    let d = r.read_document::<Root>();
    (d.ok(), r.into_diagnostics())
}

#[test]
fn recursive_groups_case_reads_writes_and_reads_back() {
    let text = include_str!("../codegen/tests/cases/recursive-groups/example.xml");
    let (doc, diags) = read(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.expect("the example is valid");
    let Root::Doc(d) = &doc else {
        panic!("a <doc>")
    };
    // <pc> inside <pc> inside <source>: the group `inline` inside itself.
    let outer = d
        .source
        .content
        .iter()
        .find_map(|c| match c {
            SourceContent::Pc(pc) => Some(pc),
            _ => None,
        })
        .expect("a <pc> in <source>");
    let inner = outer
        .content
        .iter()
        .find_map(|c| match c {
            PcContent::Pc(pc) => Some(pc),
            _ => None,
        })
        .expect("a <pc> in <pc>");
    assert!(inner.content.iter().any(|c| matches!(c, PcContent::Ph(_))));
    // item -> list -> item and list -> note -> list: two groups and a global element.
    assert_eq!(d.content.len(), 2, "two items at the top");
    let first = &d.content[0].item;
    assert_eq!(first.label, "one");
    let list = first.content.as_ref().expect("items inside the first");
    assert_eq!(list.content[0].item.label, "one.one");
    let note = list.note.as_ref().expect("a note after them");
    assert_eq!(note.text, "deep");
    let in_note = note.content.as_ref().expect("a list in the note");
    assert_eq!(in_note.content[0].item.label, "in the note");
    // section -> sections -> section, through an extension of a named type.
    assert_eq!(d.section.len(), 1);
    assert_eq!(d.section[0].title, "A");
    assert_eq!(d.section[0].section[0].title, "A.1");
    assert!(d.section[0].section[0].section.is_empty());

    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let written = w.finish();
    let (again, diags) = read(&written);
    assert!(diags.is_empty(), "{diags:?}\n{written}");
    assert_eq!(again.as_ref(), Some(&doc), "{written}");
}

#[test]
fn deep_nesting_reads_and_writes() {
    let depth = 200;
    let text = format!(
        "<doc><source>{}x{}</source><item><label>l</label></item></doc>",
        "<pc id=\"p\">".repeat(depth),
        "</pc>".repeat(depth)
    );
    let (doc, diags) = read(&text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.expect("valid");
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let (again, diags) = read(&w.finish());
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(again, Some(doc));
}

/// The first error reading `text` (the reader may recover a document, but says why it
/// is not valid).
fn first_error(text: &str) -> (String, String) {
    let (_, diags) = read(text);
    let d = diags
        .iter()
        .find(|d| d.severity == boardxml::diagnostic::Severity::Error)
        .unwrap_or_else(|| panic!("refused: {text}"));
    (d.code.to_string(), d.path.clone())
}

#[test]
fn what_the_schema_refuses_is_refused_at_any_depth() {
    // <item> is not in the group `inline`, however deep.
    let (code, path) = first_error(
        r#"<doc><source><pc id="a"><pc id="b"><item/></pc></pc></source><item><label>l</label></item></doc>"#,
    );
    assert_eq!(code, "E0202");
    assert_eq!(path, "/doc/source/pc/pc/item");
    // The required attribute of a nested <pc>.
    let (code, path) = first_error(
        r#"<doc><source><pc id="a"><pc>x</pc></pc></source><item><label>l</label></item></doc>"#,
    );
    assert_eq!(
        (code.as_str(), path.as_str()),
        ("E0205", "/doc/source/pc/pc/@id")
    );
    // The list inside an item needs an item before its note.
    let (code, path) = first_error(
        r#"<doc><source/><item><label>l</label><note><text>t</text></note></item></doc>"#,
    );
    assert_eq!((code.as_str(), path.as_str()), ("E0202", "/doc/item/note"));
    // A nested section needs its title.
    let (code, path) = first_error(
        r#"<doc><source/><item><label>l</label></item><section><title>A</title><section/></section></doc>"#,
    );
    assert_eq!(path, "/doc/section/section", "{code}");
}
