//! Element wildcards (issue 14, items 5 and 6): `xs:any` in sequences and choices takes
//! the elements its namespace constraint allows (matched on expanded names, whatever the
//! prefix); `skip` keeps them as the generic tree and writes them back exactly, `strict`
//! reads them by their global declarations and refuses an undeclared one, `lax` does
//! either. Every mismatch is a located diagnostic.
#![deny(warnings)]

mod common;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/element-wildcards/expected.rs"]
mod element_wildcards;

use boardxml::any::lax::AnyChild;
use boardxml::diagnostic::{Code, Diagnostic};
use boardxml::schema::{Document, Invalid};
use boardxml::xml::{Reader, Writer};
use element_wildcards::{GlobalElement, Root};

const NS: &str = "xmlns=\"urn:boardxml:wild\"";

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

fn accepted(text: &str) -> Root {
    let (doc, diags) = read(text);
    assert!(diags.is_empty(), "{text}: {diags:?}");
    doc.unwrap()
}

/// The first diagnostic, which must have `code` and a position (a document with a
/// diagnostic is invalid, whether or not a value could still be built).
fn rejected(text: &str, code: Code) -> Diagnostic {
    let (_, diags) = read(text);
    assert!(!diags.is_empty(), "{text} was accepted");
    assert_eq!(diags[0].code, code, "{text}: {diags:?}");
    assert!(diags[0].offset > 0, "located: {diags:?}");
    diags[0].clone()
}

fn doc(body: &str) -> String {
    format!("<doc {NS}><title>t</title>{body}</doc>")
}

#[test]
fn the_example_is_read_by_each_wildcard_and_written_back_exactly() {
    let text = include_str!("../codegen/tests/cases/element-wildcards/example.xml");
    let doc = accepted(text);
    let Root::Doc(d) = &doc else { panic!("a doc") };
    // skip, ##other: both foreign elements, kept whole with their content.
    assert_eq!(d.any.len(), 2);
    assert_eq!(d.any[0].name().namespace(), Some("urn:x"));
    assert_eq!(d.any[0].content().string_value(), "text  and <raw>");
    assert_eq!(d.any[1].name().namespace(), Some("urn:y"));
    // strict, ##targetNamespace: read by the global declarations, typed.
    assert_eq!(d.any_2.len(), 4);
    assert!(matches!(&d.any_2[0], GlobalElement::Note(n) if n.as_str() == "declared"));
    assert!(matches!(&d.any_2[1], GlobalElement::Count(c) if *c == 3));
    // Mixed content with a lax wildcard: text, <b>, a foreign element, in order.
    let GlobalElement::Para(para) = &d.any_2[2] else {
        panic!("a para: {:?}", d.any_2[2])
    };
    use element_wildcards::ParaContent;
    assert!(matches!(&para.content[..], [
        ParaContent::Text(t1),
        ParaContent::B(b),
        ParaContent::Text(_),
        ParaContent::Any(AnyChild::Undeclared(em)),
        ParaContent::Text(t2),
    ] if t1 == "Mixed " && b == "bold" && matches!(em.content().children(), [boardxml::any::Node::Text(f)] if f == "foreign") && t2 == " text."));
    let GlobalElement::Part(part) = &d.any_2[3] else {
        panic!("a part: {:?}", d.any_2[3])
    };
    assert_eq!(part.n, Some(1));
    // The part's own lax wildcard found the declared <part> inside it.
    assert!(
        matches!(&part.any, Some(AnyChild::Declared(GlobalElement::Part(p))) if p.n == Some(2))
    );
    assert_eq!(d.end.as_deref(), Some("fin"));
    // lax, urn:other in a choice: nothing declared there, kept as the tree.
    let Some(element_wildcards::DocChoice::Any(others)) = &d.content else {
        panic!("the choice's wildcard: {:?}", d.content)
    };
    assert!(matches!(&others[..], [AnyChild::Undeclared(e)] if e.name().local() == "thing"));
    // Written back, the document reads as the same value; the kept trees are exact.
    let written = write(&doc);
    assert_eq!(accepted(&written), doc, "{written}");
    assert!(
        written.contains(
            "<x:ext xmlns:x=\"urn:x\" x:a=\"1\">text <x:b/> and <![CDATA[<raw>]]></x:ext>"
        ),
        "{written}"
    );
}

#[test]
fn namespace_constraints_match_by_resolved_namespace_not_prefix() {
    // ##other takes a foreign element under any prefix, or as the default namespace.
    accepted(&doc("<p:e xmlns:p=\"urn:p\"/><note>n</note>"));
    accepted(&doc("<e xmlns=\"urn:p\"/><note>n</note>"));
    // ##other never takes an unqualified element: it is not allowed where it stands.
    let d = rejected(
        &doc("<e xmlns=\"\"/><note>n</note>"),
        Code::UNEXPECTED_ELEMENT,
    );
    assert_eq!(d.found.as_deref(), Some("<e>"), "{d:?}");
    // A prefix bound to the target namespace makes an element of it: the strict wildcard's.
    accepted(&doc("<w:note xmlns:w=\"urn:boardxml:wild\">n</w:note>"));
}

#[test]
fn a_strict_wildcard_refuses_an_undeclared_element_and_checks_declared_ones() {
    // Declared in the target namespace, invalid by its declaration.
    rejected(&doc("<count>three</count>"), Code::LEXICAL);
    // In the namespace the wildcard allows, but without a global declaration.
    let d = rejected(&doc("<nothing/>"), Code::UNEXPECTED_ELEMENT);
    assert!(d.message.contains("has no global declaration"), "{d:?}");
    assert!(
        d.expected
            .as_deref()
            .is_some_and(|e| e.contains("<{urn:boardxml:wild}note>")),
        "{d:?}"
    );
    assert!(d.path.ends_with("nothing"), "element path: {d:?}");
    // xsi:type could stand for the declaration (XSD 1.0 3.3.4), which is not supported:
    // still refused, and the message says why.
    let d = rejected(
        &doc("<nothing xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xsi:type=\"xs:string\"/>"),
        Code::UNEXPECTED_ELEMENT,
    );
    assert!(
        d.message.contains("type substitution is not supported"),
        "{d:?}"
    );
    // Occurrences: at least one, at most four.
    let d = rejected(&doc(""), Code::MISSING_ELEMENT);
    assert!(
        d.expected
            .as_deref()
            .is_some_and(|e| e.contains("urn:boardxml:wild")),
        "{d:?}"
    );
    rejected(
        &doc("<note/><note/><note/><note/><note/>"),
        Code::UNEXPECTED_ELEMENT,
    );
    accepted(&doc("<note/><note/><note/><note/>"));
}

/// An element a wildcard takes is read by its global declaration as a root would be: the
/// declaration's fixed value holds, and an `xsi:type` on an element of a simple declared
/// type may name a type derived from it (XSD 1.0, 3.3.4 cvc-elt.4.3 and 5.2.2).
#[test]
fn a_wildcard_s_element_keeps_its_declaration_s_fixed_value_and_xsi_type() {
    let xsi = "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
               xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"";
    accepted(&doc("<revision>2</revision>"));
    accepted(&doc("<revision> 2 </revision>"));
    let d = rejected(&doc("<revision>3</revision>"), Code::FIXED_VALUE);
    assert!(d.path.ends_with("revision"), "element path: {d:?}");
    // xs:short is derived from the declared xs:int; xs:decimal is not.
    accepted(&doc(&format!(
        "<count {xsi} xsi:type=\"xs:short\">5</count>"
    )));
    rejected(
        &doc(&format!("<count {xsi} xsi:type=\"xs:short\">70000</count>")),
        Code::RANGE,
    );
    let d = rejected(
        &doc(&format!("<count {xsi} xsi:type=\"xs:decimal\">5</count>")),
        Code::UNKNOWN_ATTRIBUTE,
    );
    assert!(
        d.message.contains("xs:decimal") || d.message.contains("decimal"),
        "{d:?}"
    );
    // The same through a lax wildcard (Part's), by the same declaration.
    let part = |body: &str| doc(&format!("<part>{body}</part>"));
    accepted(&part(&format!(
        "<count {xsi} xsi:type=\"xs:short\">5</count>"
    )));
    rejected(&part("<revision>3</revision>"), Code::FIXED_VALUE);
}

#[test]
fn a_lax_wildcard_validates_what_is_declared_and_keeps_the_rest() {
    // Part's lax wildcard: a declared element is checked...
    rejected(&doc("<part><count>x</count></part>"), Code::LEXICAL);
    // ...an undeclared one of the namespace is kept.
    let doc_ = accepted(&doc("<part><free a=\"1\"/></part>"));
    let Root::Doc(d) = &doc_ else { panic!() };
    let GlobalElement::Part(p) = &d.any_2[0] else {
        panic!()
    };
    assert!(matches!(&p.any, Some(AnyChild::Undeclared(e)) if e.name().local() == "free"));
    assert_eq!(accepted(&write(&doc_)), doc_);
    // In mixed content: a foreign element is taken (and checked nowhere), one of the
    // target namespace is not allowed.
    accepted(&doc("<para>a<f:x xmlns:f=\"urn:f\"><y/></f:x></para>"));
    let d = rejected(&doc("<para>a<x/></para>"), Code::UNEXPECTED_ELEMENT);
    assert!(
        d.expected.as_deref().is_some_and(
            |e| e.contains("<{urn:boardxml:wild}b>, an element in a namespace other than")
        ),
        "{d:?}"
    );
    // The choice's wildcard occurs at most twice; a third is not allowed.
    accepted(&doc(
        "<note/><o:a xmlns:o=\"urn:other\"/><o:b xmlns:o=\"urn:other\"/>",
    ));
    rejected(
        &doc("<note/><o:a xmlns:o=\"urn:other\"/><o:b xmlns:o=\"urn:other\"/><o:c xmlns:o=\"urn:other\"/>"),
        Code::UNEXPECTED_ELEMENT,
    );
}

/// An element a lax wildcard takes without a declaration is assessed laxly, but its
/// `xsi:type` must name a type (XSD 1.0, 3.3.4 cvc-elt.4.2): a built-in or a type of the
/// schema passes, a name no type has is refused where the attribute stands (as xmllint
/// refuses it: "does not resolve to a type definition"), in a choice's wildcard, in a
/// declared element's and in mixed content.
#[test]
fn a_lax_element_s_xsi_type_must_name_a_type() {
    const XSI: &str = "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"";
    let documents: Vec<(String, &[&str], &str)> = vec![
        (
            doc(&format!(
                "<note/><o:a xmlns:o=\"urn:other\" {XSI} xsi:type=\"xs:string\">x</o:a>"
            )),
            &[],
            "a built-in type",
        ),
        (
            doc(&format!(
                "<note/><o:a xmlns:o=\"urn:other\" {XSI} xsi:type=\"Nope\">x</o:a>"
            )),
            &["E0204"],
            "no type of that name, in a choice",
        ),
        (
            doc(&format!("<part><free {XSI} xsi:type=\"Nope\"/></part>")),
            &["E0204"],
            "no type of that name, in a declared element's wildcard",
        ),
        (
            doc(&format!(
                "<para>a<f:x xmlns:f=\"urn:f\" {XSI} xsi:type=\"f:Nope\"/></para>"
            )),
            &["E0204"],
            "no type of that name, in mixed content",
        ),
        (
            doc(&format!(
                "<note/><o:a xmlns:o=\"urn:other\" {XSI} xsi:type=\"nope:T\">x</o:a>"
            )),
            &["E0208"],
            "an unbound prefix",
        ),
    ];
    common::cases::judge::<Root>("element-wildcards", &documents);
    let (_, diags) = read(&documents[1].0);
    assert!(
        diags[0].path.ends_with("/{urn:other}a/@xsi:type")
            && diags[0]
                .message
                .contains("names the type {urn:boardxml:wild}Nope, but the schema defines no type"),
        "{diags:?}"
    );
}
