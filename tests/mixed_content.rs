//! General mixed content: the generated code of the feature case `mixed-content`
//! (codegen/tests/cases), compiled here under `deny(warnings)` and run against valid and
//! invalid documents. The element children of mixed content are judged by the particle as
//! element-only content is; the text between them is kept at its place and written back
//! there. Every verdict is also xmllint's (libxml2, an independent XSD 1.0 validator).
#![deny(warnings)]

mod common;

#[rustfmt::skip]
#[allow(missing_docs)]
// A test uses only part of the generated API; unused items are not a defect of the code.
#[allow(dead_code)]
#[path = "../codegen/tests/cases/mixed-content/expected.rs"]
mod mixed;

use std::path::Path;

use boardxml::mixed::{MixedText, OutOfOrder, TextRun};
use boardxml::schema::TextForm;
use boardxml::xml::Reader;
use common::cases::{read, write, xmllint_present, xmllint_valid};

const EXAMPLE: &str = include_str!("../codegen/tests/cases/mixed-content/example.xml");

fn runs(t: &MixedText) -> Vec<(usize, &str, TextForm)> {
    t.runs()
        .iter()
        .map(|r| (r.at, r.text.as_str(), r.form))
        .collect()
}

#[test]
fn the_example_reads_into_typed_children_and_placed_text() {
    let (doc, diags) = read::<mixed::Root>(EXAMPLE);
    assert!(diags.is_empty(), "{diags:#?}");
    let mixed::Root::Doc(doc) = doc.unwrap();
    let p = &doc.para[0];
    assert_eq!(p.title, "On & mixed");
    assert_eq!(
        p.content,
        [
            mixed::ParaChoice::B("bold".into()),
            mixed::ParaChoice::I("italic".into())
        ]
    );
    // Places count the element children before the text: title, b, i, note.
    assert_eq!(
        runs(&p.text),
        [
            (0, "Intro ", TextForm::Text),
            (1, " then ", TextForm::Text),
            (2, ", ", TextForm::Text),
            (3, " <raw> ", TextForm::CData),
            (4, "end.", TextForm::Text),
        ]
    );
    assert_eq!(p.text.at(3), " <raw> ");
    // Mixed content inside mixed content keeps its own text.
    assert_eq!(p.note[0].r#ref, Some(3));
    assert_eq!(
        runs(&p.note[0].text),
        [(0, "see ", TextForm::Text), (1, " below", TextForm::Text)]
    );
    // No text at all: nothing held.
    assert!(doc.para[1].text.is_empty());
    let a = doc.address.as_ref().unwrap();
    assert_eq!(
        (a.street.as_str(), a.city.as_deref()),
        ("Main 1", Some("Oslo"))
    );
    assert_eq!(a.text.concatenated(), "At , .");
    // The order of the xs:all children, by field: city (1) before street (0).
    assert_eq!(a.text.all_order(), [1, 0]);
    let o = doc.open.as_ref().unwrap();
    assert_eq!(o.any.len(), 1);
    assert_eq!(
        runs(&o.text),
        [(1, " and ", TextForm::Text), (2, " more", TextForm::Text)]
    );
    // The extension's elements follow the base's; the text is between both.
    let s = doc.signed.as_ref().unwrap();
    assert_eq!((s.r#ref, s.by.as_str()), (Some(1), "me"));
    assert_eq!(s.text.concatenated(), "text  signed ");
    // An empty element with a default holds the default as its text; a fixed value matched.
    assert_eq!(doc.remark.as_ref().unwrap().text.concatenated(), "none");
    assert_eq!(doc.stamp.as_ref().unwrap().text.concatenated(), "ok");
    // Mixed content that may be empty, restricted to simple content: a value of its type.
    assert_eq!(doc.count.as_ref().unwrap().content.get(), 7);
}

#[test]
fn mixed_content_is_written_back_where_it_was() {
    let (doc, diags) = read::<mixed::Root>(EXAMPLE);
    assert!(diags.is_empty(), "{diags:#?}");
    let doc = doc.unwrap();
    let written = write(&doc);
    // Text, CDATA and the children, in their order, nothing added inside mixed content.
    assert!(
        written.contains(r#"<para id="p1">Intro <title>On &amp; mixed</title> then <b>bold</b>, <i>italic</i><![CDATA[ <raw> ]]><note>see <ref>3</ref> below</note>end.</para>"#),
        "{written}"
    );
    // xs:all: its children in the order they came, the text between them where it was.
    assert!(
        written.contains("<address>At <city>Oslo</city>, <street>Main 1</street>.</address>"),
        "{written}"
    );
    assert!(
        written.contains("<open><head>h</head> and <x:e xmlns:x=\"urn:x\">"),
        "{written}"
    );
    assert!(
        written.contains("<signed>text <ref>1</ref> signed <by>me</by></signed>"),
        "{written}"
    );
    let (again, diags) = read::<mixed::Root>(&written);
    assert!(diags.is_empty(), "{diags:#?}\n{written}");
    assert_eq!(again.unwrap(), doc);
    // Written again: the same bytes.
    let (again, _) = read::<mixed::Root>(&written);
    assert_eq!(write(&again.unwrap()), written);
}

#[test]
fn a_value_built_in_code_is_written_with_its_text_in_place() {
    let mut text = MixedText::new();
    text.push_text(0, "a < b ").unwrap();
    text.push_text(1, " and ").unwrap();
    text.push_cdata(1, "]]>").unwrap();
    text.push_text(3, " after all").unwrap();
    // Places never go back: the runs are in document order.
    assert_eq!(
        text.push_text(2, "late"),
        Err(OutOfOrder { at: 2, last: 3 })
    );
    let para = mixed::Para {
        id: None,
        title: "T".into(),
        content: vec![mixed::ParaChoice::I("x".into())],
        note: vec![],
        text,
    };
    let doc = mixed::Root::Doc(mixed::Doc {
        para: vec![para],
        ..Default::default()
    });
    let written = write(&doc);
    // The run placed after three children, of two written, comes before the end tag.
    assert!(
        written.contains(
            "<para>a &lt; b <title>T</title> and <![CDATA[]]]]><![CDATA[>]]><i>x</i> after all</para>"
        ),
        "{written}"
    );
    let (again, diags) = read::<mixed::Root>(&written);
    assert!(diags.is_empty(), "{diags:#?}");
    let mixed::Root::Doc(again) = again.unwrap();
    assert_eq!(
        runs(&again.para[0].text),
        [
            (0, "a < b ", TextForm::Text),
            (1, " and ", TextForm::Text),
            // The two sections that carried `]]>` read as one run.
            (1, "]]>", TextForm::CData),
            (2, " after all", TextForm::Text),
        ]
    );
    assert_eq!(
        again.para[0].text.runs()[0],
        TextRun {
            at: 0,
            text: "a < b ".into(),
            form: TextForm::Text
        }
    );
}

#[test]
fn the_order_of_xs_all_children_is_the_one_read_or_set() {
    let mut text = MixedText::new();
    text.push_text(1, " then ").unwrap();
    let mut address = mixed::Address {
        street: "S".into(),
        city: Some("C".into()),
        text,
    };
    let doc = |a: &mixed::Address| {
        write(&mixed::Root::Doc(mixed::Doc {
            para: vec![mixed::Para {
                id: None,
                title: "t".into(),
                content: vec![],
                note: vec![],
                text: MixedText::new(),
            }],
            address: Some(a.clone()),
            ..Default::default()
        }))
    };
    // No order given: schema order.
    assert!(
        doc(&address).contains("<address><street>S</street> then <city>C</city></address>"),
        "{}",
        doc(&address)
    );
    // An order naming a field twice and one that is no child of the xs:all: each child once.
    address.text.set_all_order(vec![1, 1, 7]);
    let written = doc(&address);
    assert!(
        written.contains("<address><city>C</city> then <street>S</street></address>"),
        "{written}"
    );
    let (again, diags) = read::<mixed::Root>(&written);
    assert!(diags.is_empty(), "{diags:#?}");
    let mixed::Root::Doc(again) = again.unwrap();
    assert_eq!(again.address.unwrap().text.all_order(), [1, 0]);
}

/// `doc` around `body`, with the required first paragraph.
fn doc(body: &str) -> String {
    format!("<doc><para><title>t</title></para>{body}</doc>")
}

#[test]
fn mixed_content_judges_documents_like_xmllint() {
    let documents: Vec<(String, &[&str], &str)> = vec![
        (doc(""), &[], "the smallest document"),
        (
            doc("<para>\n  <title>t</title>\n  x <i>y</i> <note/> <note>z</note>\n</para>"),
            &[],
            "white space and text between children",
        ),
        (
            doc("<para>x <b>b</b> <title>t</title></para>"),
            &["E0203", "E0202"],
            "an element out of order: <b> before <title>",
        ),
        (
            doc("<para>only text</para>"),
            &["E0203"],
            "text does not stand for a required element",
        ),
        (
            doc("<para><title>t</title><note/><note/><note/></para>"),
            &["E0202"],
            "one <note> too many",
        ),
        (
            doc("<para><title>t</title><u>u</u></para>"),
            &["E0202"],
            "an element the particle does not have",
        ),
        (
            doc("<para><title>t</title>x<title>t</title></para>"),
            &["E0202"],
            "a second <title>",
        ),
        (
            doc("<address><street>s</street>, <street>s</street></address>"),
            &["E0202"],
            "xs:all takes each element once",
        ),
        (
            doc("<address>no street <city>c</city></address>"),
            &["E0203"],
            "xs:all still needs its required element",
        ),
        (
            doc("<signed>a <by>me</by> b <ref>1</ref></signed>"),
            &["E0202"],
            "an extension's element before the base's",
        ),
        (
            doc("<signed><ref>1</ref> unsigned</signed>"),
            &["E0203"],
            "the extension's element is required",
        ),
        (
            doc("<bare>x <ref>1</ref></bare>"),
            &["E0202"],
            "the restriction removed <ref>",
        ),
        (
            doc("<stamp>ko</stamp>"),
            &["E0206"],
            "not the fixed text",
        ),
        (
            doc("<stamp>ok<ref>1</ref></stamp>"),
            &["E0206"],
            // libxml2 takes this document: it compares the text and not the children.
            "a fixed value allows no element (XSD 1.0, 3.3.4, Element Locally Valid (Element) 5.2.2.1; xmllint differs)",
        ),
        (
            doc("<para><title>t</title><ref>x</ref></para>"),
            &["E0202"],
            "a child of <note> is not a child of <para>",
        ),
        (
            doc("<para><title>t</title><note><ref>x</ref></note></para>"),
            &["E0208"],
            "a bad value inside nested mixed content",
        ),
        (
            doc("<count>-1</count>"),
            &["E0211"],
            "mixed content restricted to an xs:int of at least 0",
        ),
        (
            doc("<count>1<ref>1</ref></count>"),
            &["E0202"],
            "simple content restricted from mixed content has no element",
        ),
        (
            "<doc>text <para><title>t</title></para></doc>".to_string(),
            &["E0207"],
            "text where the content is element-only",
        ),
    ];
    let schema =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("codegen/tests/cases/mixed-content/schema.xsd");
    let lint = xmllint_present();
    if !lint {
        common::skip(
            common::Need::Tools,
            "xmllint not found (apt-get install -y libxml2-utils): verdicts not cross-checked",
        );
    }
    let dir = tempfile::tempdir().unwrap();
    for (n, (text, expected, why)) in documents.iter().enumerate() {
        let (value, diags) = read::<mixed::Root>(text);
        let got: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(&got, expected, "#{n} ({why}): {text}\n{diags:#?}");
        if expected.is_empty() {
            // A valid document gives its value, and that value comes back from its text.
            let value = value.expect("a valid document gives its value");
            let (again, diags) = read::<mixed::Root>(&write(&value));
            assert!(diags.is_empty(), "#{n}: {diags:#?}");
            assert_eq!(
                again.unwrap(),
                value,
                "#{n}: the round trip keeps the value"
            );
        }
        if lint && !why.ends_with("xmllint differs)") {
            let file = dir.path().join(format!("{n}.xml"));
            assert_eq!(
                xmllint_valid(&schema, &file, text),
                expected.is_empty(),
                "#{n} ({why}): xmllint disagrees: {text}"
            );
        }
    }
}

#[test]
fn errors_in_mixed_content_are_located() {
    let text = "<doc>\n<para>x <b>b</b>\n <title>t</title></para>\n</doc>";
    let (_, diags) = read::<mixed::Root>(text);
    let found: Vec<(&str, usize, &str, &str)> = diags
        .iter()
        .map(|d| {
            (
                d.code.as_str(),
                d.offset,
                d.path.as_str(),
                d.message.as_str(),
            )
        })
        .collect();
    // As in element-only content: the required <title> is missed where <b> stands, and
    // the late <title> is one element too many.
    assert_eq!(
        found,
        [
            (
                "E0203",
                text.find("<b>").unwrap(),
                "/doc/para",
                "missing element <title>"
            ),
            (
                "E0202",
                text.find("<title>").unwrap(),
                "/doc/para/title",
                "unexpected element <title>"
            ),
        ],
        "{diags:#?}"
    );
}

#[test]
fn validating_without_keeping_reads_mixed_content_in_bounded_memory() {
    let mut r = Reader::new(EXAMPLE).without_retaining();
    let d = r.read_document::<mixed::Root>();
    assert!(r.into_diagnostics().is_empty());
    let mixed::Root::Doc(d) = d.unwrap();
    assert!(d.para.is_empty());
}
