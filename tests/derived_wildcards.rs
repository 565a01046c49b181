//! Attribute wildcards through derivation (issue 14, item 4; XSD 1.0, 3.4.2), on the
//! feature case `derived-wildcards`: an extension takes the union of its own wildcard and
//! its base's (with its own processContents), or the base's alone; a restriction its own
//! alone, or none; simple content as complex content. Each is checked on read (located)
//! and kept on a round trip.
#![deny(warnings)]

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/derived-wildcards/expected.rs"]
mod derived_wildcards;

use boardxml::diagnostic::{Code, Diagnostic};
use boardxml::schema::{Document, Invalid};
use boardxml::xml::{Reader, Writer};
use derived_wildcards::Root;

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
    let doc = doc.unwrap();
    // What a wildcard took is written back and reads as the same document.
    let written = write(&doc);
    assert_eq!(read(&written).0.as_ref(), Ok(&doc), "{written}");
    doc
}

fn rejected(text: &str, code: Code) {
    let (doc, diags) = read(text);
    assert!(doc.is_err() && !diags.is_empty(), "{text} was accepted");
    assert_eq!(diags[0].code, code, "{text}: {diags:?}");
    // Located: at the attribute (past the root's start tag name), or the element by path.
    assert!(diags[0].path.starts_with('/'), "located: {diags:?}");
    if code != Code::RANGE {
        assert!(diags[0].offset > 0, "located: {diags:?}");
    }
}

const NS: &str = "xmlns:a=\"urn:a\" xmlns:b=\"urn:b\" xmlns:c=\"urn:c\"";

#[test]
fn the_example_round_trips_with_both_namespaces_of_the_union() {
    let text = include_str!("../codegen/tests/cases/derived-wildcards/example.xml");
    let doc = accepted(text);
    let Root::Wider(w) = &doc else {
        panic!("a wider")
    };
    let others = w.other_attributes.as_slice();
    assert_eq!(others.len(), 2);
    assert_eq!(others[0].name().namespace(), Some("urn:a"));
    assert_eq!(others[1].name().namespace(), Some("urn:b"));
    assert_eq!(others[1].value(), "any text");
    assert_eq!(w.note.as_deref(), Some("kept"));
    assert_eq!(write(&doc), text);
}

#[test]
fn an_extension_takes_the_union_or_the_bases_wildcard() {
    // Wider: urn:a (the base's) and urn:b (its own), nothing else.
    accepted(&format!("<wider {NS} a:x=\"1\" b:y=\"2\"><name/></wider>"));
    rejected(
        &format!("<wider {NS} c:x=\"1\"><name/></wider>"),
        Code::UNKNOWN_ATTRIBUTE,
    );
    rejected("<wider x=\"1\"><name/></wider>", Code::UNKNOWN_ATTRIBUTE);
    // Inherited: the base's urn:a only, beside its own declared attribute.
    let doc = accepted(&format!(
        "<inherited {NS} extra=\"true\" a:x=\"1\"><name/></inherited>"
    ));
    let Root::Inherited(i) = &doc else {
        panic!("an inherited")
    };
    assert_eq!(i.extra, Some(true));
    assert_eq!(i.other_attributes.as_slice().len(), 1);
    rejected(
        &format!("<inherited {NS} b:x=\"1\"><name/></inherited>"),
        Code::UNKNOWN_ATTRIBUTE,
    );
}

#[test]
fn a_restriction_has_its_own_wildcard_or_none() {
    // Narrowed: strict, and urn:a declares no global attribute.
    rejected(
        &format!("<narrowed {NS} a:x=\"1\"><name/></narrowed>"),
        Code::UNKNOWN_ATTRIBUTE,
    );
    accepted("<narrowed id=\"1\"><name/></narrowed>");
    // Closed: no wildcard, so what the base's took is undeclared.
    rejected(
        &format!("<closed {NS} a:x=\"1\"><name/></closed>"),
        Code::UNKNOWN_ATTRIBUTE,
    );
    accepted("<closed id=\"1\"><name/></closed>");
}

#[test]
fn simple_content_takes_wildcards_as_complex_content_does() {
    // Price: ##local, lax: a declared global attribute is checked, others kept.
    let doc = accepted("<price currency=\"EUR\" size=\"3\" other=\"y\">1.50</price>");
    let Root::Price(p) = &doc else {
        panic!("a price")
    };
    assert_eq!(p.other_attributes.as_slice().len(), 2);
    rejected("<price size=\"x\">1</price>", Code::LEXICAL);
    rejected(
        &format!("<price {NS} b:x=\"1\">1</price>"),
        Code::UNKNOWN_ATTRIBUTE,
    );
    // Tagged: the attribute group's urn:b ##local (skip) united with Price's ##local.
    accepted(&format!(
        "<tagged {NS} b:x=\"1\" size=\"not checked\">2</tagged>"
    ));
    rejected(
        &format!("<tagged {NS} a:x=\"1\">2</tagged>"),
        Code::UNKNOWN_ATTRIBUTE,
    );
    // Strict: only declared global attributes, and the value at most 100.
    accepted("<strict size=\"3\">100</strict>");
    rejected("<strict other=\"y\">1</strict>", Code::UNKNOWN_ATTRIBUTE);
    rejected("<strict>101</strict>", Code::RANGE);
}
