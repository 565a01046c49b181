//! Issue 14, namespaces: the generated code of the feature cases `namespaces-qualified`
//! and `namespaces-unqualified` (codegen/tests/cases), compiled here under
//! `deny(warnings)` and run against documents. Elements and attributes are matched by
//! (namespace, local name): the prefix a document uses does not matter, the namespace
//! does. Every verdict is also xmllint's when it is installed (an independent XSD 1.0
//! validator), so a test cannot bless a wrong answer.
#![deny(warnings)]

mod common;

#[rustfmt::skip]
#[allow(missing_docs)]
// A test uses only part of the generated API; unused items are not a defect of the code.
#[allow(dead_code)]
#[path = "../codegen/tests/cases/namespaces-qualified/expected.rs"]
mod qualified;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/namespaces-unqualified/expected.rs"]
mod unqualified;

use common::cases::{judge, read, write};

const LIB: &str = "urn:example:library";
const ORDER: &str = "urn:example:order";
const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

#[test]
fn qualified_elements_are_read_by_namespace_whatever_their_prefix() {
    let text = include_str!("../codegen/tests/cases/namespaces-qualified/example.xml");
    let (doc, diags) = read::<qualified::Root>(text);
    assert!(diags.is_empty(), "{diags:#?}");
    let qualified::Root::Library(lib) = doc.unwrap() else {
        panic!("a <library>")
    };
    assert_eq!(lib.book.len(), 2, "<book> and <l:book> are one element");
    assert_eq!(lib.book[1].title.as_str(), "XML");
    assert_eq!(lib.lang.as_ref().map(|l| l.as_str()), Some("en"));
    assert_eq!(lib.remark.as_deref(), Some("two books"));
    // The same document with other prefixes (and none) is the same value.
    let prefixed = format!(
        "<a:library xmlns:a='{LIB}' a:lang='en'><a:book id='b1'><a:title>Rust</a:title><a:year>2015</a:year></a:book>\
         <b:book xmlns:b='{LIB}' id='b2'><b:title>XML</b:title><b:year>1998</b:year></b:book><remark>two books</remark></a:library>"
    );
    let (again, diags) = read::<qualified::Root>(&prefixed);
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(again.unwrap(), qualified::Root::Library(lib));
}

#[test]
fn a_write_declares_the_namespace_once_on_the_root_and_reads_back() {
    let text = include_str!("../codegen/tests/cases/namespaces-qualified/example.xml");
    let doc = read::<qualified::Root>(text).0.unwrap();
    let written = write(&doc);
    // `remark` is unqualified: the empty namespace is needed, so the target namespace
    // takes the prefix ns1, declared once, on the root.
    assert_eq!(
        written,
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <ns1:library xmlns:ns1=\"{LIB}\" ns1:lang=\"en\">\n  \
             <ns1:book id=\"b1\">\n    <ns1:title>Rust</ns1:title>\n    <ns1:year>2015</ns1:year>\n  </ns1:book>\n  \
             <ns1:book id=\"b2\">\n    <ns1:title>XML</ns1:title>\n    <ns1:year>1998</ns1:year>\n  </ns1:book>\n  \
             <remark>two books</remark>\n</ns1:library>\n"
        )
    );
    let (again, diags) = read::<qualified::Root>(&written);
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(again.unwrap(), doc);
    assert_eq!(write(&doc), written, "deterministic");
}

#[test]
fn qualified_documents_are_judged_by_namespace_like_xmllint() {
    let book = "<book id='b1'><title>T</title><year>2015</year></book>";
    let docs: Vec<(String, &[&str], &str)> = vec![
        (format!("<library xmlns='{LIB}'>{book}</library>"), &[], "default namespace"),
        (
            format!("<x:library xmlns:x='{LIB}' xmlns:xsi='{XSI}' xsi:schemaLocation='{LIB} lib.xsd'>{}</x:library>", book.replace("book", "x:book").replace("title", "x:title").replace("year", "x:year")),
            &[],
            "a prefix, and a schemaLocation hint (never fetched)",
        ),
        (
            format!("<library xmlns='urn:other'>{book}</library>"),
            &["E0201"],
            "the right local name in another namespace",
        ),
        (format!("<library>{book}</library>"), &["E0201"], "the root in no namespace"),
        (
            format!("<library xmlns='{LIB}'><book xmlns='' id='b1'><title>T</title><year>2015</year></book></library>"),
            &["E0202", "E0203"],
            "<book> in no namespace is not the qualified local element",
        ),
        (
            format!("<library xmlns='{LIB}'>{book}<remark>r</remark></library>"),
            &["E0202"],
            "the unqualified <remark> in the target namespace",
        ),
        (
            format!("<library xmlns='{LIB}' lang='en'>{book}</library>"),
            &["E0204"],
            "the global attribute lang is qualified: unprefixed, it is another attribute",
        ),
        (
            format!("<library xmlns='{LIB}' xmlns:l='{LIB}'><book l:id='b1'><title>T</title><year>2015</year></book></library>"),
            &["E0205", "E0204"],
            "the local attribute id is unqualified: with a prefix, it is another attribute",
        ),
        (
            format!("<library xmlns='{LIB}' xmlns:l='{LIB}' l:lang='e n'>{book}</library>"),
            &["E0208"],
            "a qualified attribute's value is checked",
        ),
    ];
    let docs: Vec<(&str, &[&str], &str)> =
        docs.iter().map(|(t, c, w)| (t.as_str(), *c, *w)).collect();
    judge::<qualified::Root>("namespaces-qualified", &docs);
}

#[test]
fn unqualified_locals_and_one_local_name_in_two_namespaces() {
    let text = include_str!("../codegen/tests/cases/namespaces-unqualified/example.xml");
    let (doc, diags) = read::<unqualified::Root>(text);
    assert!(diags.is_empty(), "{diags:#?}");
    let doc = doc.unwrap();
    let unqualified::Root::Order(order) = &doc else {
        panic!("an <order>")
    };
    // `{urn:example:order}item` and `item` are two fields.
    assert_eq!(order.item, "pencils");
    assert_eq!(order.item_2.get(), &12.into());
    assert_eq!(order.code.as_str(), "A1");
    assert_eq!(order.line.len(), 2);
    let written = write(&doc);
    assert_eq!(
        written,
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <ns1:order xmlns:ns1=\"{ORDER}\" ns1:code=\"A1\" note=\"rush\">\n  \
             <ns1:item>pencils</ns1:item>\n  <item>12</item>\n  \
             <line>\n    <sku>P-1</sku>\n  </line>\n  <line>\n    <text>gift wrap</text>\n  </line>\n</ns1:order>\n"
        )
    );
    let (again, diags) = read::<unqualified::Root>(&written);
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(again.unwrap(), doc);
}

#[test]
fn unqualified_documents_are_judged_by_namespace_like_xmllint() {
    let ok = |root: &str, attrs: &str, body: &str| {
        format!("<{root} xmlns:o='{ORDER}' {attrs}>{body}</{root}>")
    };
    let body = "<o:item>a</o:item><item>1</item>";
    let docs: Vec<(String, &[&str], &str)> = vec![
        (ok("o:order", "o:code='A'", body), &[], "qualified global, unqualified locals"),
        (
            format!("<order xmlns='{ORDER}' xmlns:o='{ORDER}' o:code='A'><item>a</item><item xmlns=''>1</item></order>"),
            &[],
            "the default namespace, undeclared for the local element",
        ),
        (
            ok("o:order", "o:code='A'", "<o:item>a</o:item><o:item>1</o:item>"),
            &["E0202", "E0203"],
            "the local <item> is unqualified: in the target namespace it is the global one again",
        ),
        (
            ok("o:order", "o:code='A'", "<item>a</item><item>1</item>"),
            &["E0203", "E0208", "E0202"],
            "the global <item> in no namespace: missing; the first is the local one, the second is too many",
        ),
        (
            ok("o:order", "code='A'", body),
            &["E0205", "E0204"],
            "code is qualified by form=: unprefixed, it is missing (and another attribute)",
        ),
        (
            ok("o:order", "o:code='A' o:note='n'", body),
            &["E0204"],
            "note is unqualified: with a prefix it is another attribute",
        ),
        (
            ok("o:order", "o:code='A'", "<o:item>a</o:item><item>1</item><line><o:sku>s</o:sku></line>"),
            &["E0202", "E0203"],
            "a local element of a choice, qualified",
        ),
    ];
    let docs: Vec<(&str, &[&str], &str)> =
        docs.iter().map(|(t, c, w)| (t.as_str(), *c, *w)).collect();
    judge::<unqualified::Root>("namespaces-unqualified", &docs);
}

#[test]
fn diagnostics_name_elements_by_expanded_name() {
    let text = format!(
        "<library xmlns='{LIB}'><book id='b1'><title>T</title><year>2015</year></book><other/></library>"
    );
    let (_, diags) = read::<qualified::Root>(&text);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let d = &diags[0];
    assert_eq!(d.code.as_str(), "E0202");
    assert_eq!(d.message, format!("unexpected element <{{{LIB}}}other>"));
    assert_eq!(d.path, format!("/{{{LIB}}}library/{{{LIB}}}other"));
}

#[test]
fn xsi_attributes_are_recognised_by_namespace() {
    let body = "<book id='b1'><title>T</title><year>2015</year></book>";
    // Schema location hints are accepted on any element, whatever the prefix, and never
    // fetched (the hosts do not exist).
    let hinted = format!(
        "<library xmlns='{LIB}' xmlns:i='{XSI}' i:noNamespaceSchemaLocation='http://invalid.example/a.xsd'>\
         <book xmlns:xsi='{XSI}' xsi:schemaLocation='{LIB} http://invalid.example/b.xsd' id='b1'><title>T</title><year>2015</year></book></library>"
    );
    let (doc, diags) = read::<qualified::Root>(&hinted);
    assert!(diags.is_empty(), "{diags:#?}");
    assert!(doc.is_ok());
    // The same local names in another namespace are attributes the type does not declare.
    let other = format!(
        "<library xmlns='{LIB}' xmlns:i='urn:not-xsi' i:schemaLocation='x'>{body}</library>"
    );
    let (_, diags) = read::<qualified::Root>(&other);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].code.as_str(), "E0204");
    // xsi:type is resolved as a QName where it stands (the prefix is the document's own):
    // naming the declared type Book is naming the type the element has (a type stands in
    // for itself, 3.3.4 cvc-elt.4.3); naming Library, which is not derived from Book, is
    // refused, naming both types.
    for (prefix, decl) in [("xsi", ""), ("t", " xmlns:t='urn:example:library'")] {
        let typed = |name: &str| {
            format!(
                "<library xmlns='{LIB}' xmlns:i='{XSI}'><book{decl} i:type='{prefix}:{name}' id='b1' xmlns:xsi='{LIB}'><title>T</title><year>2015</year></book></library>"
            )
        };
        let (doc, diags) = read::<qualified::Root>(&typed("Book"));
        assert!(diags.is_empty(), "{diags:#?}");
        assert!(doc.is_ok());
        let (_, diags) = read::<qualified::Root>(&typed("Library"));
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert_eq!(diags[0].code.as_str(), "E0204");
        assert!(
            diags[0].message.contains(&format!(
                "names the type {{{LIB}}}Library, but it does not stand in for the declared type {{{LIB}}}Book"
            )),
            "{}",
            diags[0].message
        );
    }
    let unbound = format!("<library xmlns='{LIB}' xmlns:i='{XSI}'><book i:type='nope:Book' id='b1'><title>T</title><year>2015</year></book></library>");
    let (_, diags) = read::<qualified::Root>(&unbound);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].code.as_str(), "E0208");
    assert!(
        diags[0].message.contains("the prefix nope is not declared"),
        "{}",
        diags[0].message
    );
}

#[test]
fn an_external_dtd_is_noted_not_fetched_and_an_internal_subset_refused() {
    let body = "<book id='b1'><title>T</title><year>2015</year></book>";
    let external = format!(
        "<?xml version='1.0'?>\n<!DOCTYPE library PUBLIC \"-//Example//DTD Library//EN\" \"http://invalid.example/library.dtd\">\n<library xmlns='{LIB}'>{body}</library>"
    );
    let (doc, diags) = read::<qualified::Root>(&external);
    assert!(doc.is_ok(), "{diags:#?}");
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].code.as_str(), "E0107");
    assert_eq!(diags[0].severity, boardxml::diagnostic::Severity::Note);
    let internal = format!(
        "<?xml version='1.0'?>\n<!DOCTYPE library SYSTEM \"library.dtd\" [<!ENTITY t \"T\">]>\n<library xmlns='{LIB}'>{body}</library>"
    );
    let (doc, diags) = read::<qualified::Root>(&internal);
    assert!(doc.is_err());
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["E0105"]);
}

/// The copy of an element an XSD 1.1 assertion sees declares the namespaces in scope at
/// the element (a later binding of a prefix winning, the default namespace and `xml` left
/// out), and its names in them keep their prefixes; a name in another namespace gets a
/// fresh prefix, declared where it is used.
#[test]
fn an_assertion_copy_keeps_the_namespaces_in_scope() {
    let bindings = [
        ("a", "http://test"),
        ("", "urn:default"),
        ("m", "urn:match"),
        ("xml", "http://www.w3.org/XML/1998/namespace"),
        ("a", "http://other"),
    ];
    let mut w = boardxml::xml::Writer::copy_in_scope(bindings);
    w.start("{urn:match}x");
    w.attribute("{urn:match}at", "1");
    w.begin_elements();
    w.start("{urn:third}y");
    w.end_empty();
    w.end("{urn:match}x");
    assert_eq!(
        w.finish(),
        "<m:x xmlns:m=\"urn:match\" xmlns:a=\"http://other\" m:at=\"1\">\
         <n1:y xmlns:n1=\"urn:third\"/></m:x>\n"
    );
}
