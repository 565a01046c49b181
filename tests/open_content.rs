//! Open content (issue 14, item 5): elements of type `xs:anyType` — declared so, or
//! declared without a type — read any attributes and any mixed content into a tree
//! (`boardxml::any::lax`), and write it back exactly; a child with a global declaration is
//! validated by it (XSD 1.0 3.4.7: anyType's content is a lax wildcard); the rest of the
//! document is checked as strictly as ever.
#![deny(warnings)]

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/open-content/expected.rs"]
mod open_content;

use boardxml::any::lax::{LaxContent, LaxElement, LaxNode};
use boardxml::any::ExpandedName;
use boardxml::diagnostic::{Code, Diagnostic};
use boardxml::schema::{Document, Invalid};
use boardxml::xml::{Reader, Writer};
use open_content::{AnyTypeChild, Root};

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

/// The `i`th child of `t`, an element the schema does not declare.
fn element(t: &LaxContent<AnyTypeChild>, i: usize) -> &LaxElement<AnyTypeChild> {
    match &t.children()[i] {
        LaxNode::Element(AnyTypeChild::Undeclared(e)) => e,
        other => panic!("an undeclared element, found {other:?}"),
    }
}

#[test]
fn open_content_is_read_into_the_tree_and_written_back_exactly() {
    let text = include_str!("../codegen/tests/cases/open-content/example.xml");
    let (doc, diags) = read(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.unwrap();
    let Root::Note(note) = &doc else {
        panic!("a note")
    };
    assert_eq!(note.id, 7);
    assert_eq!(note.title, "Open content");
    let body = &note.body;
    // Attributes by expanded name: m:style is in the namespace m is bound to.
    assert_eq!(body.attributes().len(), 2);
    let style = ExpandedName::new(Some("urn:markup"), "style").unwrap();
    assert_eq!(body.attribute(&style).unwrap().value(), "plain");
    // Mixed content in document order: text, an element, text, CDATA, text.
    assert_eq!(body.children().len(), 5);
    assert_eq!(body.children()[0], LaxNode::Text("Text ".into()));
    let b = element(body, 1);
    assert_eq!(b.name().namespace(), Some("urn:markup"));
    assert_eq!(b.name().local(), "b");
    assert_eq!(element(b.content(), 1).name().local(), "i");
    assert_eq!(body.children()[3], LaxNode::CData("<raw>".into()));
    assert_eq!(note.extra.len(), 2);
    assert!(note.extra[0].children().is_empty());
    assert_eq!(
        element(element(&note.extra[1], 0).content(), 0)
            .content()
            .attributes()[0]
            .value(),
        "1"
    );
    // Written back byte for byte (the example is in canonical layout), and read again.
    let written = write(&doc);
    assert_eq!(written, text);
    let (again, diags) = read(&written);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(again.unwrap(), doc);
}

#[test]
fn a_root_without_a_type_takes_any_document() {
    let text =
        "<blob a=\"1\">x<y:z xmlns:y=\"urn:y\" y:w=\"2\"/><d xmlns=\"urn:d\"><q/></d></blob>";
    let (doc, diags) = read(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.unwrap();
    let Root::Blob(blob) = &doc else {
        panic!("a blob")
    };
    // <q/> is in the default namespace declared on its parent.
    let q = element(element(blob, 2).content(), 0);
    assert_eq!(q.name().namespace(), Some("urn:d"));
    assert_eq!(q.name().local(), "q");
    assert_eq!(element(blob, 1).name().namespace(), Some("urn:y"));
    let (again, diags) = read(&write(&doc));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(again.unwrap(), doc);
}

#[test]
fn the_typed_parts_stay_strict_around_open_content() {
    // The body is required, whatever it holds.
    let (doc, diags) = read("<note id=\"1\"><title>t</title></note>");
    assert!(doc.is_err());
    assert_eq!(diags[0].code, Code::MISSING_ELEMENT, "{diags:?}");
    // After the open content, only what the sequence allows.
    let (_, diags) = read("<note id=\"1\"><title>t</title><body><any/></body><stray/></note>");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, Code::UNEXPECTED_ELEMENT, "{diags:?}");
    // The note's own attributes are typed.
    let (doc, diags) = read("<note id=\"x\"><title>t</title><body/></note>");
    assert!(doc.is_err());
    assert_eq!(diags[0].code, Code::LEXICAL, "{diags:?}");
    // Inside open content, a child with a global declaration is read by it: <note>.
    let (doc, diags) = read(
        "<note id=\"1\"><title>t</title><body><note id=\"x\"><title>t</title><body/></note></body></note>",
    );
    assert!(doc.is_err());
    assert_eq!(diags[0].code, Code::LEXICAL, "{diags:?}");
    // Inside open content, well-formedness still holds: an unbound prefix is an error.
    let (doc, diags) = read("<note id=\"1\"><title>t</title><body><p:x/></body></note>");
    assert!(doc.is_err());
    assert_eq!(diags[0].code, Code::MALFORMED, "{diags:?}");
    assert_eq!(diags[0].offset, 36, "located at the tag: {diags:?}");
}

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/attribute-wildcards/expected.rs"]
mod attribute_wildcards;

mod wildcards {
    use super::attribute_wildcards::{ItemWildcard, Root};
    use boardxml::any::{AnyAttribute, ExpandedName, OtherAttributes, WildcardError};
    use boardxml::diagnostic::{Code, Diagnostic};
    use boardxml::schema::{Document, Invalid};
    use boardxml::xml::{Reader, Writer};

    fn read(text: &str) -> (Result<Root, Invalid>, Vec<Diagnostic>) {
        let mut r = Reader::new(text);
        let d = r.read_document::<Root>();
        (d, r.into_diagnostics())
    }

    fn accepted(text: &str) -> Root {
        let (doc, diags) = read(text);
        assert!(diags.is_empty(), "{text}: {diags:?}");
        doc.unwrap()
    }

    fn rejected(text: &str, code: Code) {
        let (_, diags) = read(text);
        assert!(!diags.is_empty(), "{text} was accepted");
        assert_eq!(diags[0].code, code, "{text}: {diags:?}");
        assert!(diags[0].offset > 0, "located: {diags:?}");
    }

    #[test]
    fn attributes_a_wildcard_takes_are_kept_and_written_back() {
        let text = include_str!("../codegen/tests/cases/attribute-wildcards/example.xml");
        let doc = accepted(text);
        let Root::Item(item) = &doc else {
            panic!("an item")
        };
        assert_eq!(item.id, 1);
        let others = item.other_attributes.as_slice();
        assert_eq!(others.len(), 2);
        assert_eq!(others[0].name().namespace(), Some("urn:x"));
        assert_eq!(others[0].name().local(), "note");
        // processContents="skip": the global declaration of size is not consulted.
        assert_eq!(others[1].value(), "not checked");
        let mut w = Writer::new(encoding_rs::UTF_8);
        doc.write_root(&mut w);
        let written = w.finish();
        assert_eq!(written, text);
        assert_eq!(accepted(&written), doc);
    }

    #[test]
    fn namespace_constraints_match_by_resolved_namespace() {
        // ##other: a qualified name, whatever its prefix; never an unqualified one.
        accepted("<item xmlns:p=\"urn:p\" id=\"1\" p:a=\"\"><name/></item>");
        rejected(
            "<item id=\"1\" a=\"x\"><name/></item>",
            Code::UNKNOWN_ATTRIBUTE,
        );
        // urn:a ##local intersected with the group's ##other: urn:a only.
        accepted("<grouped xmlns:q=\"urn:a\" q:z=\"1\"/>");
        rejected(
            "<grouped xmlns:q=\"urn:b\" q:z=\"1\"/>",
            Code::UNKNOWN_ATTRIBUTE,
        );
        rejected("<grouped z=\"1\"/>", Code::UNKNOWN_ATTRIBUTE);
    }

    #[test]
    fn lax_and_strict_wildcards_validate_against_global_declarations() {
        // Lax: a declared attribute is checked, an undeclared one kept as it is.
        accepted("<lax size=\"3\" other=\"y\"/>");
        rejected("<lax size=\"x\"/>", Code::LEXICAL);
        // A fixed global attribute allows only its value.
        accepted("<lax unit=\"cm\"/>");
        rejected("<lax unit=\"mm\"/>", Code::ENUMERATION);
        // Strict: the attribute must be declared globally, and valid.
        accepted("<strict size=\"3\"/>");
        rejected("<strict other=\"y\"/>", Code::UNKNOWN_ATTRIBUTE);
        rejected("<strict size=\"x\"/>", Code::LEXICAL);
        // ##local: a qualified attribute is not the wildcard's.
        rejected(
            "<strict xmlns:p=\"urn:p\" p:size=\"3\"/>",
            Code::UNKNOWN_ATTRIBUTE,
        );
    }

    #[test]
    fn xsi_attributes_are_never_a_wildcards() {
        // xsi:schemaLocation under ##other (skip) and ##any (lax): allowed on any element,
        // and not taken into other_attributes (XSD 1.0, 3.4.4, clause 3).
        let doc = accepted(
            "<item xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"urn:x x.xsd\" id=\"1\"><name/></item>",
        );
        let Root::Item(item) = &doc else {
            panic!("an item")
        };
        assert!(item.other_attributes.as_slice().is_empty());
        accepted(
            "<lax xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" i:noNamespaceSchemaLocation=\"a.xsd\"/>",
        );
        // Strict ##local: an xsi hint is not an undeclared attribute of the wildcard's.
        accepted(
            "<strict xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"u s.xsd\" size=\"3\"/>",
        );
    }

    #[test]
    fn made_attributes_are_checked_against_the_wildcard() {
        let mut others = OtherAttributes::<ItemWildcard>::new();
        let qualified = ExpandedName::new(Some("urn:x"), "a").unwrap();
        let plain = ExpandedName::new(None, "a").unwrap();
        let declared = ExpandedName::new(None, "id").unwrap();
        others
            .push(AnyAttribute::new(qualified.clone(), Some("x"), "1").unwrap())
            .unwrap();
        assert!(matches!(
            others.push(AnyAttribute::new(qualified, None, "2").unwrap()),
            Err(WildcardError::Duplicate(_))
        ));
        assert!(matches!(
            others.push(AnyAttribute::new(plain, None, "1").unwrap()),
            Err(WildcardError::Namespace(_))
        ));
        assert!(matches!(
            others.push(AnyAttribute::new(declared, None, "1").unwrap()),
            Err(WildcardError::Declared(_))
        ));
        assert_eq!(others.as_slice().len(), 1);
    }
}
