//! The generator's feature cases, compiled here under `deny(warnings)` (so generated code
//! is warning-free) and driven through the runtime: read the example, write it, read again.
#![deny(warnings)]

#[rustfmt::skip]
#[allow(missing_docs)]
// A test uses only part of the generated API; unused items are not a defect of the code.
#[allow(dead_code)]
#[path = "../codegen/tests/cases/name-collision/expected.rs"]
mod name_collision;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/content-and-facets/expected.rs"]
mod content_and_facets;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/datatypes/expected.rs"]
mod datatypes;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/simple-derivations/expected.rs"]
mod simple_derivations;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/identity/expected.rs"]
mod identity;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/timezones/expected.rs"]
mod timezones;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/repeated-all/expected.rs"]
mod repeated_all;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/disallowed-names/expected.rs"]
mod disallowed_names;

#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/all-substitution/expected.rs"]
mod all_substitution;
#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/type-alternatives/expected.rs"]
mod type_alternatives;
#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/counted-repetitions/expected.rs"]
mod counted_repetitions;
#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/ids-xsd-1-1/expected.rs"]
mod ids_xsd_1_1;
#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/open-content-xsd-1-1/expected.rs"]
mod open_content_xsd_1_1;
#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/xsi-attributes-xsd-1-1/expected.rs"]
mod xsi_attributes_xsd_1_1;
#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/error-type-xsd-1-1/expected.rs"]
mod error_type_xsd_1_1;
// Assertions are evaluated by the runtime's `xpath` feature, which the workspace's test
// run has (boardxml-codegen asks for it).
#[cfg(feature = "xpath")]
#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/assertions-xsd-1-1/expected.rs"]
mod assertions_xsd_1_1;
// So are complex types' assertions.
#[cfg(feature = "xpath")]
#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/complex-assertions-xsd-1-1/expected.rs"]
mod complex_assertions_xsd_1_1;
// Type alternatives' XPath tests are evaluated by the same feature.
#[cfg(feature = "xpath")]
#[rustfmt::skip]
#[allow(missing_docs)]
#[allow(dead_code)]
#[path = "../codegen/tests/cases/alternative-tests-xsd-1-1/expected.rs"]
mod alternative_tests_xsd_1_1;

use boardxml::diagnostic::Code;
use boardxml::schema::{Document, SimpleValue};
use boardxml::xml::{Reader, Writer};

fn read<D: Document>(
    text: &str,
) -> (
    Result<D, boardxml::schema::Invalid>,
    Vec<boardxml::diagnostic::Diagnostic>,
) {
    let mut r = Reader::new(text);
    let d = r.read_document::<D>();
    (d, r.into_diagnostics())
}

#[test]
fn name_collision_case_reads_writes_and_reads_back() {
    let text = include_str!("../codegen/tests/cases/name-collision/example.xml");
    let (doc, diags) = read::<name_collision::Root>(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.unwrap();
    let name_collision::Root::Box(b) = &doc;
    assert_eq!(b.r#type, "t");
    assert_eq!(b.self_, Some(name_collision::Option::Type));
    assert_eq!(
        b.result.iter().map(|r| r.get()).collect::<Vec<_>>(),
        [-5, 99]
    );
    assert_eq!(
        b.content.len(),
        3,
        "the repeated choice keeps order: String, Vec, String"
    );
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let written = w.finish();
    let (again, diags) = read::<name_collision::Root>(&written);
    assert!(diags.is_empty(), "{diags:?}\n{written}");
    assert_eq!(again.unwrap(), doc);
    // The example is in canonical layout: it comes back byte for byte.
    assert_eq!(written, text);
}

#[test]
fn name_collision_facets_hold() {
    assert!(
        name_collision::Result::new(100).is_err(),
        "maxExclusive 100"
    );
    assert!(name_collision::Result::new(-6).is_err());
    assert_eq!(
        name_collision::Option::parse_lexical(""),
        Ok(name_collision::Option::Empty)
    );
    assert_eq!(
        name_collision::String::parse_lexical("Self"),
        Ok(name_collision::String::Option(
            name_collision::Option::SelfValue2
        ))
    );
    assert_eq!(
        name_collision::String::parse_lexical("3"),
        Ok(name_collision::String::Result(
            name_collision::Result::new(3).unwrap()
        ))
    );
    assert!(name_collision::String::parse_lexical("1000").is_err());
}

#[test]
fn wrong_occurrences_and_fixed_values_are_reported() {
    let text = r#"<Box type="t" fn="y"><Result>1</Result><Result>1</Result><Result>1</Result><Result>1</Result></Box>"#;
    let (doc, diags) = read::<name_collision::Root>(text);
    assert!(doc.is_err());
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["E0206", "E0202"], "{diags:?}");
    assert_eq!(diags[1].path, "/Box/Result[4]");
}

fn codes(text: &str) -> Vec<&'static str> {
    let (_, diags) = read::<content_and_facets::Root>(text);
    diags.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn content_and_facets_case_reads_writes_and_reads_back() {
    let text = include_str!("../codegen/tests/cases/content-and-facets/example.xml");
    let (doc, diags) = read::<content_and_facets::Root>(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.unwrap();
    let content_and_facets::Root::Doc(d) = &doc else {
        panic!("a <doc>")
    };
    assert_eq!(d.version, Some(2));
    assert_eq!(d.title, "  Content models  ", "xs:string keeps white space");
    assert_eq!(d.content.len(), 2);
    assert_eq!(d.sequence.len(), 2);
    assert_eq!(d.sequence[0].val.items().len(), 3);
    assert!(d.sequence[1].val.items().is_empty());
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let written = w.finish();
    assert_eq!(written, text, "the example is canonical");
}

#[test]
fn patterns_are_anded_across_steps_and_ored_within_one() {
    use content_and_facets::Word;
    assert!(Word::new("abc").is_ok(), "starts with a");
    assert!(Word::new("quiz").is_ok(), "ends with z");
    assert!(Word::new("bcd").is_err(), "neither a.* nor .*z");
    assert!(Word::new("aBz").is_err(), "the base's [a-z]+ still applies");
    assert!(Word::new("a").is_err(), "minLength 2");
    assert!(Word::new("abcdez").is_err(), "maxLength 5");
    assert_eq!(
        Word::new("  abc ").map(|w| w.into_inner()),
        Ok("abc".to_string()),
        "xs:token collapses"
    );
    use content_and_facets::Digits;
    assert!(Digits::new(999).is_ok());
    assert!(Digits::new(1000).is_err(), "totalDigits 3");
    assert!(Digits::new(-1000).is_err(), "minExclusive -1000");
}

#[test]
fn occurrence_bounds_are_enforced() {
    let ok = "<doc><title/><x>a</x><end/></doc>";
    assert_eq!(codes(ok), Vec::<&str>::new());
    assert_eq!(
        codes("<doc><title/><end/></doc>"),
        ["E0203"],
        "the choice must occur once"
    );
    assert_eq!(
        codes("<doc><title/><x>a</x><y>1</y><x>b</x><end/></doc>"),
        ["E0202"],
        "at most twice"
    );
    assert_eq!(
        codes("<doc><title/><x>a</x><key/><end/></doc>"),
        ["E0203"],
        "key needs its val"
    );
    assert_eq!(
        codes("<doc><x>a</x><title/><end/></doc>"),
        ["E0203", "E0202"],
        "order matters: title missing, then a stray title"
    );
    assert_eq!(
        codes("<settings><b>ab</b><a>true</a></settings>"),
        Vec::<&str>::new(),
        "xs:all: any order"
    );
    assert_eq!(
        codes("<settings><a>1</a><a>0</a></settings>"),
        ["E0202"],
        "xs:all: at most once"
    );
    assert_eq!(
        codes("<settings><b>ab</b></settings>"),
        ["E0203"],
        "xs:all: a is required"
    );
    assert_eq!(
        codes("<doc version=\"70000\"><title/><x>a</x><end/></doc>"),
        ["E0211"]
    );
    assert_eq!(
        codes("<doc><title/><x>a</x><end>text</end></doc>"),
        ["E0207"],
        "empty content"
    );
}

#[test]
fn datatypes_case_reads_writes_and_reads_back() {
    let text = include_str!("../codegen/tests/cases/datatypes/example.xml");
    let (doc, diags) = read::<datatypes::Root>(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.unwrap();
    let datatypes::Root::Values(v) = &doc;
    // Values held exactly, in their value types.
    let decimal = v.decimal.as_ref().unwrap();
    assert_eq!(decimal, &"-1.50".parse().unwrap());
    assert_eq!(v.price.len(), 2);
    assert_eq!(v.price[0].get(), &"999.990".parse().unwrap());
    assert_eq!(v.date.as_ref().unwrap().year(), -1);
    // xs:integer is unbounded: a value beyond i128 is held, not refused or wrapped.
    assert_eq!(
        v.integer.as_ref().unwrap().to_string(),
        "-123456789012345678901234567890"
    );
    assert_eq!(v.hex_binary.as_ref().unwrap().as_bytes(), [0x0f, 0xa1]);
    assert_eq!(v.base64_binary.as_ref().unwrap().as_bytes(), b"abc");
    assert_eq!(v.nmtokens.as_ref().unwrap().items().len(), 2);
    assert_eq!(v.stamps.as_ref().unwrap().items().len(), 2);
    // Construction checks the facets too.
    assert!(datatypes::Price::new("1000".parse().unwrap()).is_err());
    assert!(datatypes::Price::new("0.5".parse().unwrap()).is_ok());
    assert!(datatypes::Halves::new("0.50".parse().unwrap()).is_ok());
    assert!(datatypes::Halves::new("0.7".parse().unwrap()).is_err());
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let written = w.finish();
    let (again, diags) = read::<datatypes::Root>(&written);
    assert!(diags.is_empty(), "{diags:?}\n{written}");
    assert_eq!(again.unwrap(), doc);
    // The example is in canonical form and layout: it comes back byte for byte.
    assert_eq!(written, text);
}

#[test]
fn datatype_facets_are_checked_in_the_value_space() {
    let codes = |body: &str| {
        let text = format!("<values>{body}</values>");
        let (_, diags) = read::<datatypes::Root>(&text);
        diags.iter().map(|d| d.code.as_str()).collect::<Vec<_>>()
    };
    assert_eq!(
        codes("<price>0.01</price><half>0.50</half>"),
        Vec::<&str>::new()
    );
    let range = boardxml::diagnostic::Code::RANGE.as_str();
    let lexical = boardxml::diagnostic::Code::LEXICAL.as_str();
    let enumeration = boardxml::diagnostic::Code::ENUMERATION.as_str();
    let length = boardxml::diagnostic::Code::LENGTH.as_str();
    assert_eq!(codes("<price>1000</price>"), [range]);
    assert_eq!(codes("<price>0.00</price>"), [range]);
    assert_eq!(codes("<price>1.005</price>"), [range]);
    assert_eq!(codes("<price>1e3</price>"), [lexical]);
    assert_eq!(
        codes("<price>1</price><when>2001-01-01T00:00:00Z</when>"),
        [range]
    );
    // Without a time zone, within 14 hours of a zoned bound: indeterminate, so invalid.
    assert_eq!(
        codes("<price>1</price><when>2000-01-01T05:00:00</when>"),
        [range]
    );
    assert_eq!(codes("<price>1</price><ratio>NaN</ratio>"), [range]);
    assert_eq!(codes("<price>1</price><ratio>INF</ratio>"), [range]);
    assert_eq!(codes("<price>1</price><half>0.7</half>"), [enumeration]);
    assert_eq!(codes("<price>1</price><key>DEAD</key>"), [length]);
    assert_eq!(codes("<price>1</price><wait>PT2H</wait>"), [range]);
    assert_eq!(
        codes("<price>1</price><stamps>2000-02-30</stamps>"),
        [lexical]
    );
    // A restricted boolean: its pattern judges the lexical form, its value stays a bool.
    let pattern = boardxml::diagnostic::Code::PATTERN.as_str();
    let spelled = |value: &str| {
        let text = format!("<values spelled=\"{value}\"><price>1</price></values>");
        let (doc, diags) = read::<datatypes::Root>(&text);
        let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
        let value = doc
            .ok()
            .and_then(|datatypes::Root::Values(v)| v.spelled.map(|s| *s.get()));
        (value, codes)
    };
    assert_eq!(spelled("true"), (Some(true), vec![]));
    assert_eq!(spelled(" false "), (Some(false), vec![]));
    assert_eq!(spelled("1").1, [pattern]);
    assert!(datatypes::SpelledOut::new(true).is_ok());
}

#[test]
fn simple_derivations_case_reads_writes_and_reads_back() {
    let text = include_str!("../codegen/tests/cases/simple-derivations/example.xml");
    let (doc, diags) = read::<simple_derivations::Root>(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.unwrap();
    let simple_derivations::Root::Sample(s) = &doc;
    assert_eq!(s.scores.items().len(), 3);
    assert_eq!(s.pair.as_ref().unwrap().get().items().len(), 2);
    // The union's members in order: an integer first, then the inline enumeration.
    assert_eq!(
        s.size,
        Some(simple_derivations::Size::SizeMember1(
            simple_derivations::SizeMember1::Large
        ))
    );
    assert_eq!(
        s.width.as_ref().map(|w| w.get().clone()),
        Some(simple_derivations::Size::Integer(20.into()))
    );
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let written = w.finish();
    // The example is in canonical layout: it comes back byte for byte.
    assert_eq!(written, text);
}

#[test]
fn restrictions_of_lists_unions_and_enumerations_check_their_own_facets() {
    let codes = |body: &str| {
        let text = format!("<sample><scores>1</scores>{body}</sample>");
        let (_, diags) = read::<simple_derivations::Root>(&text);
        diags.iter().map(|d| d.code.as_str()).collect::<Vec<_>>()
    };
    let code = |c: boardxml::diagnostic::Code| c.as_str();
    assert_eq!(codes(""), Vec::<&str>::new());
    // The item type of the list (written in place) is checked item by item.
    assert_eq!(
        codes("<pair>0 101</pair>").first().copied(),
        Some(code(Code::RANGE))
    );
    // A list restriction: length counts items; the enumeration compares values.
    assert_eq!(codes("<pair>0 50 50</pair>"), [code(Code::LENGTH)]);
    assert_eq!(codes("<extremes> 0   0100 </extremes>"), Vec::<&str>::new());
    assert_eq!(
        codes("<extremes>50 50</extremes>"),
        [code(Code::ENUMERATION)]
    );
    assert_eq!(codes("<extremes>0 100 0</extremes>"), [code(Code::LENGTH)]);
    // A union restriction: the pattern sees the text, the enumeration the member value.
    assert_eq!(codes("<width>small</width>"), Vec::<&str>::new());
    assert_eq!(codes("<width>large</width>"), [code(Code::PATTERN)]);
    assert_eq!(codes("<width>30</width>"), [code(Code::ENUMERATION)]);
    // An enumeration of an enumeration: a value of the base's set that is not in its own.
    assert_eq!(codes("<primary>black</primary>"), [code(Code::ENUMERATION)]);
    assert_eq!(codes("<primary>pink</primary>"), [code(Code::ENUMERATION)]);
    // A pattern over an inline enumeration base: 10 is in the base's set, not the pattern.
    assert_eq!(codes("<levels>10</levels>"), [code(Code::PATTERN)]);
    assert_eq!(codes("<levels>4</levels>"), [code(Code::ENUMERATION)]);
    // A restriction of an inline base: the base's fractionDigits and its own bound.
    assert_eq!(codes("<small>9.55</small>"), [code(Code::RANGE)]);
    assert_eq!(codes("<small>10</small>"), [code(Code::RANGE)]);
    // Construction checks the same facets.
    let pair = |text: &str| simple_derivations::Scores::parse_lexical(text).unwrap();
    assert!(simple_derivations::Pair::new(pair("0 99")).is_ok());
    assert!(simple_derivations::Pair::new(pair("0")).is_err());
    assert!(simple_derivations::Extremes::new(pair("100 0")).is_ok());
    assert!(simple_derivations::Extremes::new(pair("0 99")).is_err());
}

#[test]
fn ids_are_unique_and_idrefs_resolve_across_the_document() {
    let diags = |nodes: &str| {
        let text = format!("<sample><scores>1</scores>{nodes}</sample>");
        let (_, diags) = read::<simple_derivations::Root>(&text);
        diags
            .iter()
            .map(|d| (d.code.as_str(), d.offset, d.path.clone(), d.message.clone()))
            .collect::<Vec<_>>()
    };
    // A reference before the ID it names is resolved at the end of the document.
    assert_eq!(
        diags(r#"<node id="n1" links="n2"/><node id="n2"/><owner>n2</owner>"#),
        []
    );
    // A second element with the same ID: reported there, naming the first.
    let found = diags(r#"<node id="n1"/><node id="n1"/>"#);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::DUPLICATE_ID.as_str());
    assert_eq!(found[0].2, "/sample/node[2]/@id");
    assert!(found[0].3.contains("at /sample/node/@id"), "{found:?}");
    // Dangling references: an IDREFS item and element content, each where it stands.
    let found = diags(r#"<node id="n1" links="n1 n9"/><owner>n7</owner>"#);
    let dangling: Vec<_> = found.iter().map(|d| (d.0, d.2.as_str())).collect();
    assert_eq!(
        dangling,
        [
            (Code::DANGLING_ID_REF.as_str(), "/sample/node/@links"),
            (Code::DANGLING_ID_REF.as_str(), "/sample/owner")
        ]
    );
    assert!(found[0].3.contains("\"n9\""), "{found:?}");
    // A value that fails its own type (the pattern of NodeId) is not an ID.
    let found = diags(r#"<node id="x1"/><owner>x1</owner>"#);
    let codes: Vec<_> = found.iter().map(|d| d.0).collect();
    assert_eq!(
        codes,
        [Code::PATTERN.as_str(), Code::DANGLING_ID_REF.as_str()]
    );
}

#[test]
fn schema_location_hints_are_allowed_on_every_element() {
    let text = r#"<sample xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="s.xsd"><scores xsi:schemaLocation="urn:a a.xsd">1</scores></sample>"#;
    let (doc, diags) = read::<simple_derivations::Root>(text);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(doc.is_ok());
    // Bound to another namespace, the same name is an attribute the type does not declare.
    let text = r#"<sample xmlns:xsi="urn:not-xsi" xsi:noNamespaceSchemaLocation="s.xsd"><scores>1</scores></sample>"#;
    let (_, diags) = read::<simple_derivations::Root>(text);
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [boardxml::diagnostic::Code::UNKNOWN_ATTRIBUTE.as_str()]
    );
}

/// The identity case's diagnostics for a library with `body` (its shelves, annex, loans):
/// each code, path and message.
fn library(body: &str) -> Vec<(&'static str, String, String)> {
    let text = format!("<library xmlns=\"urn:library\">{body}</library>");
    let (_, diags) = read::<identity::Root>(&text);
    diags
        .iter()
        // Paths name elements by expanded name; the namespace is left out to read them.
        .map(|d| {
            let short = |s: &str| s.replace("{urn:library}", "");
            (d.code.as_str(), short(&d.path), short(&d.message))
        })
        .collect()
}

#[test]
fn identity_case_reads_writes_and_reads_back() {
    let text = include_str!("../codegen/tests/cases/identity/example.xml");
    let (doc, diags) = read::<identity::Root>(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.unwrap();
    let identity::Root::Library(l) = &doc;
    assert_eq!(l.shelf.len(), 2);
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let written = w.finish();
    let (again, diags) = read::<identity::Root>(&written);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(again.unwrap(), doc);
}

#[test]
fn keys_and_uniques_refuse_duplicates_naming_both_places() {
    // Two books of one shelf with one id: the key of the shelf.
    let found = library(r#"<shelf number="1"><book id="a"/><book id="a"/></shelf>"#);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::DUPLICATE_KEY.as_str());
    assert!(found[0].1.ends_with("/shelf/book[2]"), "{found:?}");
    assert!(found[0].2.contains("xs:key \"book\""), "{found:?}");
    assert!(found[0].2.contains("\"a\""), "{found:?}");
    assert!(found[0].2.ends_with("/shelf/book already"), "{found:?}");
    // The same id on two shelves is two keys: each shelf has its own.
    assert_eq!(
        library(
            r#"<shelf number="1"><book id="a"/></shelf><shelf number="2"><book id="a"/></shelf>"#
        ),
        []
    );
    // Decimals compare by value: 1 and 1.0 are one shelf number (the annex is selected too).
    let found = library(r#"<shelf number="1"/><annex number="1.0"/>"#);
    let codes: Vec<_> = found.iter().map(|d| d.0).collect();
    assert_eq!(codes, [Code::DUPLICATE_KEY.as_str()], "{found:?}");
    assert!(found[0].1.ends_with("/annex"), "{found:?}");
    // The unique selects books at any depth; books without an isbn are left out.
    assert_eq!(
        library(
            r#"<shelf number="1"><book id="a"/><book id="b"/></shelf><annex number="2"><book/></annex>"#
        ),
        []
    );
    let found = library(
        r#"<shelf number="1"><book id="a"><isbn>9</isbn></book></shelf><annex number="2"><book><isbn>9</isbn></book></annex>"#,
    );
    let codes: Vec<_> = found.iter().map(|d| d.0).collect();
    assert_eq!(codes, [Code::DUPLICATE_KEY.as_str()], "{found:?}");
    assert!(found[0].2.contains("xs:unique \"isbn\""), "{found:?}");
}

/// What a skip wildcard takes is not assessed: no selector selects an element in it and
/// no field reads one (XSD 1.1, 3.11.4, as the W3C suite's wild101 to wild104 judge it).
#[test]
fn skipped_content_is_invisible_to_identity_constraints() {
    // A book in the scrapbook has the isbn of a shelved one, and no id: neither the isbn
    // unique nor anything else sees it.
    let skipped = r#"<shelf number="1"><book id="a"><isbn>9</isbn></book><scrapbook><book><isbn>9</isbn></book><book id="a"/><l:shelf xmlns:l="urn:library" number="1"/></scrapbook></shelf>"#;
    assert_eq!(library(skipped), []);
    // The same book beside the scrapbook's, on the annex, is seen: the constraint after a
    // skipped subtree still selects.
    let found = library(&format!(
        r#"{skipped}<annex number="2"><book><isbn>9</isbn></book></annex>"#
    ));
    let codes: Vec<_> = found.iter().map(|d| d.0).collect();
    assert_eq!(codes, [Code::DUPLICATE_KEY.as_str()], "{found:?}");
    assert!(found[0].1.ends_with("/annex/book"), "{found:?}");
}

#[test]
fn fields_see_default_attribute_values() {
    let shelf = r#"<shelf number="1"><book id="b"/></shelf>"#;
    assert_eq!(
        library(&format!(
            r#"{shelf}<loan shelf="1" book="b"/><loan shelf="1" book="b" copy="2"/>"#
        )),
        []
    );
    // Both loans are of copy 1: one by default, one written.
    let found = library(&format!(
        r#"{shelf}<loan shelf="1" book="b"/><loan shelf="1" book="b" copy="01"/>"#
    ));
    let codes: Vec<_> = found.iter().map(|d| d.0).collect();
    assert_eq!(codes, [Code::DUPLICATE_KEY.as_str()], "{found:?}");
    assert!(found[0].2.contains("(\"b\", \"1\")"), "{found:?}");
}

#[test]
fn a_key_field_must_be_there() {
    let found = library(r#"<shelf number="1"><book/></shelf>"#);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::IDENTITY_FIELD.as_str());
    assert!(found[0].1.ends_with("/shelf/book"), "{found:?}");
    assert!(found[0].2.contains("@id"), "{found:?}");
}

#[test]
fn keyrefs_resolve_against_their_key_here_or_carried_up() {
    let shelves = r#"<shelf number="1"><book id="a"/><book id="b"/></shelf><shelf number="2"><book id="a"/></shelf>"#;
    // A shelf number of the library's key, a book of a shelf's key (carried up).
    assert_eq!(
        library(&format!(r#"{shelves}<loan shelf="1.00" book="b"/>"#)),
        []
    );
    // A shelf that is not there: names the keyref and the key.
    let found = library(&format!(r#"{shelves}<loan shelf="7"/>"#));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::DANGLING_KEY_REF.as_str());
    assert!(found[0].1.ends_with("/loan"), "{found:?}");
    assert!(found[0].2.contains("\"loanShelf\""), "{found:?}");
    assert!(found[0].2.contains("\"shelfNumber\""), "{found:?}");
    assert!(found[0].2.contains("\"7\""), "{found:?}");
    // Book "a" is on two shelves: the two rows conflict and neither reaches the library
    // (XSD 1.0, 3.11.5), so a loan of "a" names no book.
    let found = library(&format!(r#"{shelves}<loan shelf="2" book="a"/>"#));
    let codes: Vec<_> = found.iter().map(|d| d.0).collect();
    assert_eq!(codes, [Code::DANGLING_KEY_REF.as_str()], "{found:?}");
    assert!(found[0].2.contains("\"loanBook\""), "{found:?}");
    // The annex has no key of books: its books are no rows of "book".
    let found = library(
        r#"<shelf number="1"/><annex number="2"><book id="z"/></annex><loan shelf="2" book="z"/>"#,
    );
    let codes: Vec<_> = found.iter().map(|d| d.0).collect();
    assert_eq!(codes, [Code::DANGLING_KEY_REF.as_str()], "{found:?}");
}

#[test]
fn qname_enumerations_compare_expanded_names() {
    let codes = |attributes: &str, body: &str| {
        let text = format!("<values {attributes}><price>1</price>{body}</values>");
        let (doc, diags) = read::<datatypes::Root>(&text);
        let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
        (doc, codes)
    };
    let axes = "xmlns:a='urn:example:axes'";
    // The schema writes ax:rank and (by its default namespace) file: any prefix bound to
    // urn:example:axes names them, and the default namespace where the value stands too.
    for body in [
        "<axis>a:rank</axis><axis>a:file</axis>",
        "<axis xmlns:z='urn:example:axes'>z:file</axis>",
    ] {
        let (doc, found) = codes(axes, body);
        assert_eq!(found, Vec::<&str>::new(), "{body}");
        let datatypes::Root::Values(v) = doc.unwrap();
        assert_eq!(v.axis[0].get().namespace(), Some(Some("urn:example:axes")));
    }
    let enumeration = boardxml::diagnostic::Code::ENUMERATION.as_str();
    let lexical = boardxml::diagnostic::Code::LEXICAL.as_str();
    let union = boardxml::diagnostic::Code::UNION.as_str();
    // The prefix the schema uses, bound to another namespace: another value.
    assert_eq!(
        codes("xmlns:ax='urn:other'", "<axis>ax:rank</axis>").1,
        [enumeration]
    );
    // Unprefixed, in no namespace: not the schema's `file`.
    assert_eq!(codes("", "<axis>file</axis>").1, [enumeration]);
    // A prefix bound to nothing: no QName at all.
    assert_eq!(codes("", "<axis>ax:rank</axis>").1, [lexical]);
    // A list enumerated as a whole, and a union whose QName member needs the binding.
    assert_eq!(
        codes(&format!("{axes} axes='a:rank  a:file' sort='a:rank'"), "").1,
        Vec::<&str>::new()
    );
    assert_eq!(
        codes(&format!("{axes} axes='a:file a:rank'"), "").1,
        [enumeration]
    );
    assert_eq!(codes("sort='7'", "").1, Vec::<&str>::new());
    assert_eq!(codes("sort='p:rank'", "").1, [union]);

    // Written back, each value declares the binding its prefix relies on, so the document
    // reads back as the same expanded names.
    let text = format!(
        "<values {axes} axes='a:rank a:file'><price>1</price>\
         <axis xmlns:z='urn:example:axes'>z:file</axis></values>"
    );
    let doc = read::<datatypes::Root>(&text).0.unwrap();
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let written = w.finish();
    assert!(
        written.contains("<axis xmlns:z=\"urn:example:axes\">z:file</axis>"),
        "{written}"
    );
    let (again, diags) = read::<datatypes::Root>(&written);
    assert!(diags.is_empty(), "{diags:?}\n{written}");
    assert_eq!(again.unwrap(), doc);
}

#[test]
fn a_written_qname_whose_prefix_is_taken_gets_another() {
    use boardxml::datatypes::QName;
    // A QName built by a program: its prefix `xsi` is reserved, and `b` is written twice
    // for two namespaces on one element (an attribute and the content).
    let rank = QName::new(Some("urn:example:axes"), Some("xsi"), "rank").unwrap();
    let axis = datatypes::Axis::new(rank).unwrap();
    let mut w = Writer::new(encoding_rs::UTF_8);
    w.start("axis");
    let text = w.lexical(&axis);
    w.simple_content("axis", &text, boardxml::schema::TextForm::Text);
    let written = w.finish();
    assert!(
        written.contains("<axis xmlns:q1=\"urn:example:axes\">q1:rank</axis>"),
        "{written}"
    );
    let other = QName::new(Some("urn:other"), Some("b"), "x").unwrap();
    let mine = QName::new(Some("urn:mine"), Some("b"), "y").unwrap();
    let mut w = Writer::new(encoding_rs::UTF_8);
    w.start("e");
    let first = w.lexical(&other).into_owned();
    w.attribute("one", &first);
    let second = w.lexical(&mine).into_owned();
    w.attribute("two", &second);
    w.end_empty();
    let written = w.finish();
    assert_eq!(
        written,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <e xmlns:b=\"urn:other\" one=\"b:x\" xmlns:q1=\"urn:mine\" two=\"q1:y\"/>\n"
    );
}

#[test]
fn an_xsi_type_in_an_undeclared_namespace_declares_a_prefix_values_reuse() {
    use boardxml::datatypes::QName;
    // The type's namespace gets a prefix on the element. A QName value of that namespace
    // keeps its own prefix where it is free (`t`); one whose prefix cannot be used
    // (`xsi`, reserved) takes the prefix already bound there rather than declaring another.
    let mut w = Writer::new(encoding_rs::UTF_8);
    w.type_substitution("{urn:types}Wide");
    w.start("e");
    for (attribute, prefix) in [("ref", "t"), ("other", "xsi")] {
        let value = QName::new(Some("urn:types"), Some(prefix), "x").unwrap();
        let text = w.lexical(&value).into_owned();
        w.attribute(attribute, &text);
    }
    w.end_empty();
    assert_eq!(
        w.finish(),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <e xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsit1=\"urn:types\" \
         xsi:type=\"xsit1:Wide\" xmlns:t=\"urn:types\" ref=\"t:x\" other=\"t:x\"/>\n"
    );
}

/// Reads a feature case's example without a diagnostic, writes it back byte for byte
/// (the example is in canonical form and layout), and reads that as the same document.
fn example_round_trips<D: Document + PartialEq + std::fmt::Debug>(text: &str) {
    let (doc, diags) = read::<D>(text);
    assert!(diags.is_empty(), "{diags:?}");
    let doc = doc.unwrap();
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let written = w.finish();
    assert_eq!(written, text);
    let (again, diags) = read::<D>(&written);
    assert!(diags.is_empty(), "{diags:?}\n{written}");
    assert_eq!(again.unwrap(), doc);
}

#[test]
fn timezones_case_reads_writes_and_reads_back() {
    // Canonical: zoned values in UTC.
    example_round_trips::<timezones::Root>(include_str!(
        "../codegen/tests/cases/timezones/example.xml"
    ));
}

#[test]
fn explicit_timezone_requires_or_prohibits_a_timezone() {
    let timezone = Code::TIMEZONE.as_str();
    let diagnostics = |entry: &str, day: &str| {
        let text = format!("<log day=\"{day}\"><entry>{entry}</entry></log>");
        let (_, diags) = read::<timezones::Root>(&text);
        diags
            .iter()
            .map(|d| (d.code.as_str(), d.path.clone()))
            .collect::<Vec<_>>()
    };
    let at = "<at>2026-12-06T09:30:00Z</at>";
    assert_eq!(diagnostics(at, "2026-12-06"), []);
    // Required: a dateTime without a zone.
    assert_eq!(
        diagnostics("<at>2026-12-06T09:30:00</at>", "2026-12-06"),
        [(timezone, "/log/entry/at".to_string())]
    );
    // Prohibited: a time and a date with one, Z or an offset alike.
    assert_eq!(
        diagnostics(&format!("{at}<opens>08:00:00Z</opens>"), "2026-12-06"),
        [(timezone, "/log/entry/opens".to_string())]
    );
    assert_eq!(
        diagnostics(at, "2026-12-06+01:00"),
        [(timezone, "/log/@day".to_string())]
    );
    // Optional takes both; dateTimeStamp's own lexical space needs the zone (E0208).
    assert_eq!(
        diagnostics(&format!("{at}<month>2026-12+14:00</month>"), "2026-12-06"),
        []
    );
    assert_eq!(
        diagnostics(
            &format!("{at}<stamped>2026-12-06T09:30:00</stamped>"),
            "2026-12-06"
        ),
        [(Code::LEXICAL.as_str(), "/log/entry/stamped".to_string())]
    );
    // A restriction keeps its base's rule, and adds its own bound after it.
    use timezones::OpeningTime;
    assert!(OpeningTime::parse_lexical("09:00:00").is_ok());
    let zoned = OpeningTime::parse_lexical("09:00:00Z").unwrap_err();
    assert_eq!(zoned.code(), Code::TIMEZONE);
    assert_eq!(
        zoned.to_string(),
        "expected a value without a timezone, as explicitTimezone prohibits one"
    );
    assert_eq!(
        OpeningTime::parse_lexical("07:59:59").unwrap_err().code(),
        Code::RANGE
    );
}

#[test]
fn repeated_all_case_reads_writes_and_reads_back() {
    // In schema order, as the writer puts an all group's elements.
    example_round_trips::<repeated_all::Root>(include_str!(
        "../codegen/tests/cases/repeated-all/example.xml"
    ));
}

#[test]
fn elements_of_an_all_group_repeat_in_any_order_within_their_counts() {
    let read_codes = |text: &str| {
        let (doc, diags) = read::<repeated_all::Root>(text);
        let codes: Vec<(&str, String)> = diags
            .iter()
            .map(|d| (d.code.as_str(), d.path.clone()))
            .collect();
        (doc, codes)
    };
    // Repeats anywhere among the others, in document order within each element.
    let (doc, codes) = read_codes(
        "<order><coupon>A</coupon><line>tea</line><customer>Ada</customer><coupon>B</coupon><line>cake</line></order>",
    );
    assert_eq!(codes, []);
    let repeated_all::Root::Order(repeated_all::OrderTyped::Declared(o)) = doc.unwrap() else {
        panic!("an order")
    };
    assert_eq!(o.line, ["tea", "cake"]);
    assert_eq!(o.coupon, ["A", "B"]);
    assert!(o.note.is_empty());
    // Beyond maxOccurs: the extra one is unexpected; below minOccurs: missing.
    let unexpected = Code::UNEXPECTED_ELEMENT.as_str();
    let missing = Code::MISSING_ELEMENT.as_str();
    let (_, codes) = read_codes(
        "<order><customer>Ada</customer><line>x</line><note>1</note><coupon>A</coupon><note>2</note><coupon>B</coupon><note>3</note></order>",
    );
    assert_eq!(codes, [(unexpected, "/order/note[3]".to_string())]);
    let (_, codes) =
        read_codes("<order><customer>Ada</customer><line>x</line><coupon>A</coupon></order>");
    assert_eq!(codes, [(missing, "/order".to_string())]);
    // The wildcard takes elements of other namespaces, as often as it allows.
    let (doc, codes) = read_codes(
        "<order><x:tag xmlns:x=\"urn:x\"/><customer>Ada</customer><line>x</line><coupon>A</coupon><y:tag xmlns:y=\"urn:y\">1</y:tag><coupon>B</coupon></order>",
    );
    assert_eq!(codes, []);
    let repeated_all::Root::Order(repeated_all::OrderTyped::Declared(o)) = doc.unwrap() else {
        panic!("an order")
    };
    assert_eq!(o.any.len(), 2);
    let (_, codes) = read_codes(
        "<order><customer>Ada</customer><line>x</line><coupon>A</coupon><coupon>B</coupon><stray/><x:a xmlns:x=\"urn:x\"/><x:b xmlns:x=\"urn:x\"/><x:c xmlns:x=\"urn:x\"/></order>",
    );
    assert_eq!(
        codes,
        [
            (unexpected, "/order/stray".to_string()),
            (unexpected, "/order/{urn:x}c".to_string())
        ]
    );
    // The extension's all group is the base's with its own element after: one group.
    let (doc, codes) = read_codes(
        "<gift><card>hi</card><customer>Ada</customer><line>x</line><coupon>A</coupon><card>ho</card><coupon>B</coupon></gift>",
    );
    assert_eq!(codes, []);
    let repeated_all::Root::Gift(g) = doc.unwrap() else {
        panic!("a gift")
    };
    assert_eq!(g.card, ["hi", "ho"]);
}

#[test]
fn disallowed_names_case_reads_writes_and_reads_back() {
    example_round_trips::<disallowed_names::Root>(include_str!(
        "../codegen/tests/cases/disallowed-names/example.xml"
    ));
}

#[test]
fn wildcards_take_no_name_they_disallow() {
    let read_codes = |text: &str| {
        let (doc, diags) = read::<disallowed_names::Root>(text);
        let codes: Vec<(&str, String)> = diags
            .iter()
            .map(|d| (d.code.as_str(), d.path.clone()))
            .collect();
        (doc, codes)
    };
    let unexpected = Code::UNEXPECTED_ELEMENT.as_str();
    let no_attribute = Code::UNKNOWN_ATTRIBUTE.as_str();
    // Elements of any name but the siblings' and s:secret, in any namespace.
    let (doc, codes) = read_codes(
        r#"<order xmlns="urn:shop" xmlns:x="urn:x"><item>a</item><receipt/><x:item/></order>"#,
    );
    assert_eq!(codes, []);
    let disallowed_names::Root::Order(o) = doc.unwrap() else {
        panic!("an order")
    };
    assert_eq!((o.item.len(), o.any.len()), (1, 2));
    // ##definedSibling: an item after what the wildcard took is neither the items' (they
    // are behind) nor the wildcard's.
    let (_, codes) =
        read_codes(r#"<order xmlns="urn:shop"><item>a</item><receipt/><item>b</item></order>"#);
    assert_eq!(
        codes,
        [(unexpected, "/{urn:shop}order/{urn:shop}item[2]".to_string())]
    );
    // A name the list gives.
    let (_, codes) = read_codes(r#"<order xmlns="urn:shop"><item>a</item><secret/></order>"#);
    assert_eq!(
        codes,
        [(unexpected, "/{urn:shop}order/{urn:shop}secret".to_string())]
    );
    // The attribute wildcard: ##defined keeps out the global attribute s:rank, the list
    // the unqualified `internal`; other names it takes.
    let (_, codes) = read_codes(
        r#"<order xmlns="urn:shop" xmlns:s="urn:shop" s:rank="1" rank="2" internal="3"><item>a</item></order>"#,
    );
    assert_eq!(
        codes,
        [
            (no_attribute, "/{urn:shop}order/@{urn:shop}rank".to_string()),
            (no_attribute, "/{urn:shop}order/@internal".to_string())
        ]
    );
    // ##defined on an element wildcard: no element the schema declares globally.
    let (_, codes) =
        read_codes(r#"<memo xmlns="urn:shop"><x:note xmlns:x="urn:x"/><note>hi</note></memo>"#);
    assert_eq!(
        codes,
        [(unexpected, "/{urn:shop}memo/{urn:shop}note".to_string())]
    );
    // A program is held to the same names.
    let mut attributes = boardxml::any::OtherAttributes::<disallowed_names::OrderWildcard>::new();
    let named = |namespace: Option<&str>, local: &str| {
        let name = boardxml::any::ExpandedName::new(namespace, local).unwrap();
        let prefix = namespace.map(|_| "p");
        boardxml::any::AnyAttribute::new(name, prefix, "1").unwrap()
    };
    assert!(attributes.push(named(Some("urn:x"), "flag")).is_ok());
    assert_eq!(
        attributes.push(named(None, "internal")),
        Err(boardxml::any::WildcardError::Disallowed("internal".into()))
    );
}

/// XSD 1.1's Unique Particle Attribution: where an element particle and a wildcard
/// compete, the element wins (the generator has the wildcard disallow the name).
#[test]
fn an_element_beats_a_wildcard_it_competes_with() {
    let (doc, diags) = read::<disallowed_names::Root>(
        r#"<basket xmlns="urn:shop" xmlns:x="urn:x"><x:apple/><pear/><total>3</total></basket>"#,
    );
    assert!(diags.is_empty(), "{diags:?}");
    let disallowed_names::Root::Basket(b) = doc.unwrap() else {
        panic!("a basket")
    };
    assert_eq!((b.any.len(), b.total), (2, 3));
    // The first total is the element's; a second is no one's.
    let (_, diags) = read::<disallowed_names::Root>(
        r#"<basket xmlns="urn:shop"><total>1</total><total>2</total></basket>"#,
    );
    let codes: Vec<(&str, &str)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.path.as_str()))
        .collect();
    assert_eq!(
        codes,
        [(
            Code::UNEXPECTED_ELEMENT.as_str(),
            "/{urn:shop}basket/{urn:shop}total[2]"
        )]
    );
}

#[test]
fn all_substitution_case_reads_writes_and_reads_back() {
    example_round_trips::<all_substitution::Root>(include_str!(
        "../codegen/tests/cases/all-substitution/example.xml"
    ));
}

/// A reference to a substitution group's head in `xs:all`: the head or one member, once,
/// anywhere among the group's other elements.
#[test]
fn an_all_group_takes_a_substitution_group_member_once() {
    let read_codes = |text: &str| {
        let (doc, diags) = read::<all_substitution::Root>(text);
        let codes: Vec<(&str, String)> = diags
            .iter()
            .map(|d| (d.code.as_str(), d.path.clone()))
            .collect();
        (doc, codes)
    };
    let (doc, codes) = read_codes("<basket><apple>red</apple><owner>Ada</owner></basket>");
    assert_eq!(codes, []);
    let all_substitution::Root::Basket(b) = doc.unwrap() else {
        panic!("a basket")
    };
    assert_eq!(
        b.content,
        all_substitution::BasketChoice::Apple("red".into())
    );
    // A second member is one too many; none is one too few; the abstract head without
    // members matches nothing.
    let unexpected = Code::UNEXPECTED_ELEMENT.as_str();
    let (_, codes) = read_codes("<basket><owner/><apple/><pear/></basket>");
    assert_eq!(codes, [(unexpected, "/basket/pear".to_string())]);
    let (_, diags) = read::<all_substitution::Root>("<basket><owner/></basket>");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, Code::MISSING_ELEMENT);
    assert!(
        diags[0]
            .expected
            .as_deref()
            .unwrap_or_default()
            .contains("one of <fruit>, <apple>, <pear>")
            || diags[0].message.contains("one of <fruit>, <apple>, <pear>"),
        "{diags:?}"
    );
    let (_, codes) = read_codes("<basket><owner/><fruit/><ghost/></basket>");
    assert_eq!(codes, [(unexpected, "/basket/ghost".to_string())]);
}

#[test]
fn type_alternatives_case_reads_writes_and_reads_back() {
    example_round_trips::<type_alternatives::Root>(include_str!(
        "../codegen/tests/cases/type-alternatives/example.xml"
    ));
}

/// XSD 1.1 type alternatives on an element declared with a type of its own: two tests
/// choose one type, one an inline type, and what no test chooses has the declared type.
#[test]
fn type_alternatives_choose_by_test_and_default_to_the_declared_type() {
    use type_alternatives::{Count, MeasureElement, Root};
    let shape = |text: &str| {
        let (doc, diags) = read::<Root>(text);
        let Root::Measure(m) = doc.unwrap_or_else(|_| panic!("{text}: {diags:?}")) else {
            panic!("{text}: a measure")
        };
        assert!(diags.is_empty(), "{text}: {diags:?}");
        match m {
            MeasureElement::Length(_) => "Length",
            MeasureElement::MeasureAlternative(_) => "inline",
            MeasureElement::Measure(_) => "Measure",
        }
    };
    assert_eq!(shape("<measure unit=\"m\">2</measure>"), "Length");
    assert_eq!(shape("<measure unit=\"km\">1.5</measure>"), "Length");
    assert_eq!(shape("<measure unit=\"count\">12</measure>"), "inline");
    assert_eq!(
        shape("<measure unit=\"inch\">about two</measure>"),
        "Measure"
    );
    assert_eq!(shape("<measure>about two</measure>"), "Measure");
    // The chosen type's facets hold: "about two" is no length, 1.5 no count.
    for text in [
        "<measure unit=\"km\">about two</measure>",
        "<measure unit=\"count\">1.5</measure>",
    ] {
        let (doc, diags) = read::<Root>(text);
        assert!(doc.is_err() && !diags.is_empty(), "{text}: {diags:?}");
    }
    // Built-in simple types as shapes: where the test holds, xs:decimal, which (as every
    // simple type) has no attributes, so the one the test reads is not allowed; else a
    // count.
    let (doc, diags) = read::<Root>("<count approximate=\"yes\">2.5</count>");
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert!(doc.is_err(), "{doc:?}");
    assert_eq!(
        codes,
        [Code::UNKNOWN_ATTRIBUTE.as_str(), Code::ALTERNATIVE.as_str()],
        "{diags:?}"
    );
    let (doc, diags) = read::<Root>("<count>3</count>");
    assert!(
        matches!(doc, Ok(Root::Count(Count::XsNonNegativeInteger(_)))),
        "{doc:?} {diags:?}"
    );
    let (doc, diags) = read::<Root>("<count>2.5</count>");
    assert!(doc.is_err() && !diags.is_empty(), "{diags:?}");
}

#[test]
fn counted_repetitions_case_reads_writes_and_reads_back() {
    example_round_trips::<counted_repetitions::Root>(include_str!(
        "../codegen/tests/cases/counted-repetitions/example.xml"
    ));
}

/// A counted repetition around a repeated particle that can end an occurrence and start
/// the next: the greedy reader's occurrences are split until there are enough, the
/// children keeping their order and the other particles their occurrence.
#[test]
fn counted_repetitions_split_occurrences_until_there_are_enough() {
    use counted_repetitions::{
        ChoiceChoice, ChoiceSequence, NestedSequence, NestedSequence2, Root, RunsChoice,
        SequenceSequence,
    };
    let doc = |text: &str| {
        let (doc, diags) = read::<Root>(text);
        assert!(diags.is_empty(), "{text}: {diags:?}");
        doc.unwrap()
    };
    let Root::Sequence(s) = doc("<sequence><c>1</c><a>2</a><a>3</a><b>4</b></sequence>") else {
        panic!("a sequence")
    };
    let occurrence = |c, a: &[i32], b| SequenceSequence {
        c,
        a: a.to_vec(),
        b,
    };
    assert_eq!(
        s.content,
        [
            occurrence(Some(1), &[2], None),
            occurrence(None, &[3], Some(4))
        ]
    );
    // Enough occurrences already: nothing is split.
    let Root::Sequence(s) = doc("<sequence><a>1</a><b>2</b><a>3</a><a>4</a></sequence>") else {
        panic!("a sequence")
    };
    assert_eq!(
        s.content,
        [
            occurrence(None, &[1], Some(2)),
            occurrence(None, &[3, 4], None)
        ]
    );
    let Root::Nested(n) = doc("<nested><a>1</a><a>2</a><b>3</b></nested>") else {
        panic!("nested")
    };
    let inner = |a: &[i32]| NestedSequence2 { a: a.to_vec() };
    assert_eq!(
        n.content,
        [
            NestedSequence {
                content: vec![inner(&[1])],
                b: None
            },
            NestedSequence {
                content: vec![inner(&[2])],
                b: Some(3)
            },
        ]
    );
    let Root::Choice(c) = doc("<choice><a>1</a><a>2</a><a>3</a></choice>") else {
        panic!("a choice")
    };
    let branch = |a: &[i32], b| ChoiceChoice::ChoiceSequence(ChoiceSequence { a: a.to_vec(), b });
    assert_eq!(c.content, [branch(&[1, 2], None), branch(&[3], None)]);
    let Root::Runs(r) =
        doc("<runs><a>1</a><a>2</a><a>3</a><a>4</a><a>5</a><a>6</a><a>7</a></runs>")
    else {
        panic!("runs")
    };
    assert_eq!(
        r.content,
        [
            RunsChoice::A(vec![1, 2, 3, 4]),
            RunsChoice::A(vec![5, 6, 7])
        ]
    );
}

/// Every sequence of children up to a length, judged by reading (values kept, and written
/// back as they were read) and by validating in bounded memory (values not kept), against
/// the content model as a regular expression over the children's names.
#[test]
fn counted_repetitions_accept_exactly_the_content_model() {
    use counted_repetitions::Root;
    let models = [
        ("sequence", "cab", "(c?a{1,2}b?){2,3}", 7),
        ("nested", "ab", "((a{1,2}){1,3}b?){2}", 9),
        ("choice", "abc", "((a+b?)|c){2,3}", 7),
        ("runs", "abz", "(a{3,}|b){2,}z?", 8),
        ("pairs", "ab", "(a{2}b?){2,}", 9),
        ("remainder", "ab", "(a{2,3}b?)*", 10),
        ("bounded", "ab", "(a{2,4}b?){2,3}", 12),
        ("grouped", "ab", "((a{1,2}){2,3}b?)+", 10),
        ("branches", "abc", "((ab?){2,3}|c){2,4}", 8),
        ("picks", "abz", "(a{2,3}|b){3,4}z?", 8),
    ];
    for (root, names, model, longest) in models {
        let model = regex::Regex::new(&format!("^(?:{model})$")).unwrap();
        let names: Vec<char> = names.chars().collect();
        let mut children = vec![String::new()];
        let mut checked = 0;
        while let Some(word) = children.pop() {
            if word.len() < longest {
                children.extend(names.iter().map(|n| format!("{word}{n}")));
            }
            let body: String = word
                .chars()
                .enumerate()
                .map(|(i, n)| format!("<{n}>{i}</{n}>"))
                .collect();
            let text = format!("<{root}>{body}</{root}>");
            let valid = model.is_match(&word);
            let (doc, diags) = read::<Root>(&text);
            assert_eq!(doc.is_ok() && diags.is_empty(), valid, "{text}: {diags:?}");
            let mut r = Reader::new(&text).without_retaining();
            let validated = r.read_document::<Root>().is_ok() && r.into_diagnostics().is_empty();
            assert_eq!(validated, valid, "{text}, validated without keeping values");
            if let (Ok(doc), true) = (doc, valid) {
                assert!(divided_within_bounds(&doc), "{text}: {doc:?}");
                let mut w = Writer::new(encoding_rs::UTF_8);
                doc.write_root(&mut w);
                let written = w.finish();
                // The writer's declaration and indentation aside, the same children.
                let body = written.split_once("?>").map_or(&*written, |(_, b)| b);
                let body: String = body.split_whitespace().collect();
                let body = body.replace(&format!("<{root}/>"), &format!("<{root}></{root}>"));
                assert_eq!(body, text);
            }
            checked += 1;
        }
        assert!(checked > 100, "{root}: {checked}");
    }
}

/// Whether every occurrence of a counted-repetitions value holds what its particle
/// allows: the reader's division of the children is one the content model accepts.
fn divided_within_bounds(doc: &counted_repetitions::Root) -> bool {
    use counted_repetitions::{BranchesChoice, ChoiceChoice, PicksChoice, Root, RunsChoice};
    let within = |n: usize, min: usize, max: usize| (min..=max).contains(&n);
    match doc {
        Root::Sequence(s) => {
            within(s.content.len(), 2, 3) && s.content.iter().all(|o| within(o.a.len(), 1, 2))
        }
        Root::Nested(n) => {
            n.content.len() == 2
                && n.content.iter().all(|o| {
                    within(o.content.len(), 1, 3)
                        && o.content.iter().all(|i| within(i.a.len(), 1, 2))
                })
        }
        Root::Choice(c) => {
            within(c.content.len(), 2, 3)
                && c.content.iter().all(|o| match o {
                    ChoiceChoice::ChoiceSequence(s) => !s.a.is_empty(),
                    ChoiceChoice::C(_) => true,
                })
        }
        Root::Runs(r) => {
            r.content.len() >= 2
                && r.content.iter().all(|o| match o {
                    RunsChoice::A(a) => a.len() >= 3,
                    RunsChoice::B(_) => true,
                })
        }
        Root::Pairs(p) => p.content.len() >= 2 && p.content.iter().all(|o| o.a.len() == 2),
        Root::Remainder(r) => r.content.iter().all(|o| within(o.a.len(), 2, 3)),
        Root::Bounded(b) => {
            within(b.content.len(), 2, 3) && b.content.iter().all(|o| within(o.a.len(), 2, 4))
        }
        Root::Grouped(g) => {
            !g.content.is_empty()
                && g.content.iter().all(|o| {
                    within(o.content.len(), 2, 3)
                        && o.content.iter().all(|i| within(i.a.len(), 1, 2))
                })
        }
        Root::Branches(b) => {
            within(b.content.len(), 2, 4)
                && b.content.iter().all(|o| match o {
                    BranchesChoice::BranchesSequence(s) => within(s.len(), 2, 3),
                    BranchesChoice::C(_) => true,
                })
        }
        Root::Picks(p) => {
            within(p.content.len(), 3, 4)
                && p.content.iter().all(|o| match o {
                    PicksChoice::A(a) => within(a.len(), 2, 3),
                    PicksChoice::B(_) => true,
                })
        }
    }
}

#[test]
fn ids_xsd_1_1_case_reads_writes_and_reads_back() {
    example_round_trips::<ids_xsd_1_1::Root>(include_str!(
        "../codegen/tests/cases/ids-xsd-1-1/example.xml"
    ));
}

/// XSD 1.1's ID/IDREF table (Part 1, 3.17.5.2): an ID is an error only when it identifies
/// two elements; IDs of attributes a wildcard takes and of defaults count.
#[test]
fn ids_by_xsd_1_1s_table() {
    let codes = |text: &str| -> Vec<&'static str> {
        let (_, diags) = read::<ids_xsd_1_1::Root>(text);
        diags.iter().map(|d| d.code.as_str()).collect()
    };
    for valid in [
        // Two attributes of an ID type, one taken by the wildcard, the same ID twice.
        r#"<doc><node id-one="a" id-two="a"/></doc>"#,
        // ID content gives the ID to the parent: twice under one parent, and beside the
        // parent's own attribute.
        r#"<doc><node><id>x</id><id>x</id></node></doc>"#,
        r#"<doc><node id-one="x"><id>x</id></node></doc>"#,
        // A defaulted ID, referred to.
        r#"<doc><para/><node><see>para001</see></node></doc>"#,
        r#"<doc><node id-one="a" id-two="b" refs="a b"/></doc>"#,
    ] {
        assert!(codes(valid).is_empty(), "{valid}: {:?}", codes(valid));
    }
    let duplicate = Code::DUPLICATE_ID.as_str();
    for (invalid, code) in [
        // The wildcard's attribute, validated by the global declaration, holds an ID.
        (
            r#"<doc><node id-one="a"/><node id-two="a"/></doc>"#,
            duplicate,
        ),
        // Two parents.
        (
            r#"<doc><node><id>x</id></node><node><id>x</id></node></doc>"#,
            duplicate,
        ),
        // A child's ID content and another element's attribute.
        (
            r#"<doc><node id-one="x"><node><id>x</id></node></node></doc>"#,
            duplicate,
        ),
        // Two defaulted IDs.
        (r#"<doc><para/><para/></doc>"#, duplicate),
        // The wildcard's attribute holds references: one names no ID.
        (
            r#"<doc><node id-one="a" refs="a zz"/></doc>"#,
            Code::DANGLING_ID_REF.as_str(),
        ),
    ] {
        assert_eq!(codes(invalid), [code], "{invalid}");
    }
}

#[test]
fn open_content_xsd_1_1_case_reads_writes_and_reads_back() {
    example_round_trips::<open_content_xsd_1_1::Root>(include_str!(
        "../codegen/tests/cases/open-content-xsd-1-1/example.xml"
    ));
}

/// XSD 1.1's open content (Part 1, 3.4.4.2): an element the content model cannot take
/// where it stands goes to the open content's wildcard, which must allow it; a suffix
/// takes elements only after the model's own.
#[test]
fn open_content_is_interleaved_or_suffixed() {
    let codes = |text: &str| -> Vec<&'static str> {
        let (_, diags) = read::<open_content_xsd_1_1::Root>(text);
        diags.iter().map(|d| d.code.as_str()).collect()
    };
    let track = |inside: &str| {
        format!(r#"<track xmlns="urn:boardxml:open" xmlns:g="urn:gps">{inside}</track>"#)
    };
    let point = "<point><lat>1</lat><lon>2</lon></point>";
    for valid in [
        // Interleaved: before, between and after a point's children, between repeats.
        track(
            "<name>n</name><point><g:a/><lat>1</lat><g:b/><lon>2</lon><note>x</note><g:c/><note>y</note><g:d/></point>",
        ),
        // Suffixed: after the track's children only, however many.
        track(&format!("<name>n</name>{point}{point}<g:end/><g:end/>")),
        // An extension keeps its base's interleaved open content.
        r#"<waypoint xmlns="urn:boardxml:open" xmlns:g="urn:gps" sym="s"><g:a/><lat>1</lat><lon>2</lon><g:b/></waypoint>"#.to_string(),
        // An all group in any order, then the suffix.
        r#"<settings xmlns="urn:boardxml:open" xmlns:g="urn:gps"><zone>z</zone><unit>u</unit><g:a/><g:b/></settings>"#.to_string(),
    ] {
        assert!(codes(&valid).is_empty(), "{valid}: {:?}", codes(&valid));
    }
    let unexpected = Code::UNEXPECTED_ELEMENT.as_str();
    for invalid in [
        // A suffix does not come between the model's children.
        track(&format!("<name>n</name><g:early/>{point}")),
        // After a suffix's first element, the model takes nothing more.
        track(&format!("<name>n</name>{point}<g:end/>{point}")),
        // The wildcard allows other namespaces only.
        track("<name>n</name><point><lat>1</lat><name>own</name><lon>2</lon></point>"),
        // mode="none": no open content, whatever the document's default.
        track(&format!(
            "<name>n</name>{point}<closed><x>1</x><g:y/></closed>"
        )),
        // After an all group's suffix, the group takes nothing more.
        r#"<settings xmlns="urn:boardxml:open" xmlns:g="urn:gps"><unit>u</unit><g:a/><zone>z</zone></settings>"#.to_string(),
        r#"<settings xmlns="urn:boardxml:open" xmlns:g="urn:gps"><g:a/><unit>u</unit></settings>"#.to_string(),
    ] {
        let found = codes(&invalid);
        assert!(found.contains(&unexpected), "{invalid}: {found:?}");
    }
}

#[test]
fn xsi_attributes_xsd_1_1_case_reads_writes_and_reads_back() {
    example_round_trips::<xsi_attributes_xsd_1_1::Root>(include_str!(
        "../codegen/tests/cases/xsi-attributes-xsd-1-1/example.xml"
    ));
}

/// XSD 1.1's built-in xsi: attribute declarations in attribute uses (Part 1, 3.2.7): a use
/// may require one; its default is never applied; the attribute keeps its meaning.
#[test]
fn xsi_attributes_named_by_attribute_uses() {
    let codes = |text: &str| -> Vec<&'static str> {
        let (_, diags) = read::<xsi_attributes_xsd_1_1::Root>(text);
        diags.iter().map(|d| d.code.as_str()).collect()
    };
    const XSI: &str = r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#;
    let hint = r#"xsi:noNamespaceSchemaLocation="ledger.xsd""#;
    assert!(codes(&format!("<ledger {XSI} {hint}><amount>1</amount></ledger>")).is_empty());
    // Required by the use.
    assert_eq!(
        codes(&format!("<ledger {XSI}><amount>1</amount></ledger>")),
        [Code::MISSING_ATTRIBUTE.as_str()]
    );
    // The default xsi:nil="true" is not applied: an empty amount is an empty decimal.
    assert_eq!(
        codes(&format!("<ledger {XSI} {hint}><amount/></ledger>")),
        [Code::LEXICAL.as_str()]
    );
    // xsi:nil keeps its meaning: a nil amount has no content.
    assert!(codes(&format!(
        r#"<ledger {XSI} {hint}><amount xsi:nil="true"/></ledger>"#
    ))
    .is_empty());
    assert!(!codes(&format!(
        r#"<ledger {XSI} {hint}><amount xsi:nil="true">1</amount></ledger>"#
    ))
    .is_empty());
}

#[cfg(feature = "xpath")]
#[test]
fn assertions_xsd_1_1_case_reads_writes_and_reads_back() {
    example_round_trips::<assertions_xsd_1_1::Root>(include_str!(
        "../codegen/tests/cases/assertions-xsd-1-1/example.xml"
    ));
}

/// XSD 1.1's assertion facet (Part 2, 4.3.13): `$value` typed by the built-in (an int, a
/// list's integers, a date, a union's member); each step's assertions; a false test or
/// one that raises an error is E0221, and a value outside the type keeps its own error.
#[cfg(feature = "xpath")]
#[test]
fn simple_values_make_their_assertions_true() {
    let codes = |round: &str, opened: &str| -> Vec<&'static str> {
        let text = format!("<season opened=\"{opened}\">{round}</season>");
        let (_, diags) = read::<assertions_xsd_1_1::Root>(&text);
        diags.iter().map(|d| d.code.as_str()).collect()
    };
    let round = |table: &str, colour: &str, boards: &str, scores: &str, venue: &str, when: &str| {
        format!("<round table=\"{table}\" colour=\"{colour}\"><boards>{boards}</boards><scores>{scores}</scores><venue>{venue}</venue><when>{when}</when></round>")
    };
    let good = round("12", "red", "8", "1 5 9", "Oak", "3");
    assert!(codes(&good, "1999-05-01").is_empty());
    let assertion = [Code::ASSERTION.as_str()];
    // Each simple type's test false.
    for bad in [
        round("12", "red", "7", "1 5 9", "Oak", "3"),
        round("12", "red", "8", "1 9 5", "Oak", "3"),
        round("12", "red", "8", "1 5 9", "oak", "3"),
        round("12", "red", "8", "1 5 9", "Oak", "0"),
        round("12", "red", "8", "1 5 9", "Oak", "1999-12-31"),
        round("12", "blue", "8", "1 5 9", "Oak", "3"),
        // The base step's assertion (even), then the type's own (at least ten).
        round("13", "red", "8", "1 5 9", "Oak", "3"),
        round("8", "red", "8", "1 5 9", "Oak", "3"),
    ] {
        assert_eq!(codes(&bad, "1999-05-01"), assertion, "{bad}");
    }
    // A date compared as a date, with the schema's xs prefix.
    assert_eq!(codes(&good, "2000-01-01"), assertion);
    // A value outside the type gets the error of the facet it breaks, not the assertion's.
    assert_eq!(
        codes(&round("102", "red", "8", "1", "Oak", "3"), "1999-05-01"),
        [Code::RANGE.as_str()]
    );
    assert_eq!(
        codes(&round("12", "green", "8", "1", "Oak", "3"), "1999-05-01"),
        [Code::ENUMERATION.as_str()]
    );
    assert_eq!(
        codes(&round("12", "red", "eight", "1", "Oak", "3"), "1999-05-01"),
        [Code::LEXICAL.as_str()]
    );
    // The message names the test.
    let text = format!(
        "<season opened=\"1999-05-01\">{}</season>",
        round("12", "red", "7", "1", "Oak", "3")
    );
    let (_, diags) = read::<assertions_xsd_1_1::Root>(&text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let shown = format!("{:?}", diags[0]);
    assert!(shown.contains("$value mod 2 = 0"), "{shown}");
    // A value built by a program is checked too.
    assert!(assertions_xsd_1_1::Boards::new(4).is_ok());
    assert_eq!(
        assertions_xsd_1_1::Boards::new(5).unwrap_err().code(),
        Code::ASSERTION
    );
}

#[cfg(feature = "xpath")]
#[test]
fn alternative_tests_xsd_1_1_case_reads_writes_and_reads_back() {
    example_round_trips::<alternative_tests_xsd_1_1::Root>(include_str!(
        "../codegen/tests/cases/alternative-tests-xsd-1-1/example.xml"
    ));
}

/// XSD 1.1's type alternatives with XPath tests (Part 1, 3.12.4): the first true test picks
/// the type, a test that raises an error is false, and the element is then validated by the
/// type picked.
#[cfg(feature = "xpath")]
#[test]
fn xpath_tests_pick_an_elements_type() {
    use alternative_tests_xsd_1_1::{Game, Root};
    let games = |game: &str| -> (Option<Game>, Vec<&'static str>) {
        let (doc, diags) = read::<Root>(&format!("<tournament>{game}</tournament>"));
        let game = doc.ok().map(|Root::Tournament(t)| t.game[0].clone());
        (game, diags.iter().map(|d| d.code.as_str()).collect())
    };
    let (game, codes) = games(r#"<game minutes="3" increment="2"/>"#);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(matches!(game, Some(Game::Blitz(b)) if b.increment == 2));
    let (game, codes) = games("<game><move>a</move></game>");
    assert!(codes.is_empty(), "{codes:?}");
    assert!(matches!(game, Some(Game::Casual(_))));
    // Eleven minutes is not blitz: classical, which has no increment.
    let (game, codes) = games(r#"<game minutes="11"/>"#);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(matches!(game, Some(Game::Classical(c)) if c.minutes == 11));
    // Blitz without its increment is invalid: the test picked blitz.
    let (_, codes) = games(r#"<game minutes="3"/>"#);
    assert!(!codes.is_empty());
    assert!(games(r#"<game minutes="11" increment="2"/>"#).1.len() == 1);
    // Minutes that are no number make the blitz test false (no error from the cast), so the
    // game is classical, whose minutes are an xs:int: the value's own error is reported.
    let (_, codes) = games(r#"<game minutes="ninety"/>"#);
    assert_eq!(codes, [Code::LEXICAL.as_str()]);
    // A QName value resolves by the bindings in scope where the element stands, an
    // ancestor's or its own, the innermost winning. No shape declares rules (E0204); a
    // game the test does not pick is classical and lacks its minutes too.
    let rules = |at_root: &str, game: &str| {
        let (_, diags) = read::<Root>(&format!(
            "<tournament {at_root}><game {game} rules=\"r:asian\"/></tournament>"
        ));
        diags.iter().map(|d| d.code.as_str()).collect::<Vec<_>>()
    };
    let missing = Code::MISSING_ATTRIBUTE.as_str();
    let picked = rules(r#"xmlns:r="urn:boardxml:rules""#, "");
    assert!(
        !picked.is_empty() && !picked.contains(&missing),
        "{picked:?}"
    );
    let picked = rules("", r#"xmlns:r="urn:boardxml:rules""#);
    assert!(
        !picked.is_empty() && !picked.contains(&missing),
        "{picked:?}"
    );
    let other = rules(r#"xmlns:r="urn:boardxml:rules""#, r#"xmlns:r="urn:other""#);
    assert!(other.contains(&missing), "{other:?}");
}

/// XSD 1.1's inherited attributes (Part 1, 3.3.5.6): an ancestor's inheritable attribute is
/// seen by an element's type alternatives, by the attribute tests generated code makes and
/// by XPath tests, where the element has no attribute of that name; it ends with the
/// ancestor.
#[cfg(feature = "xpath")]
#[test]
fn type_alternatives_see_inherited_attributes() {
    use alternative_tests_xsd_1_1::{Game, Root};
    let games = |format: &str, games: &str| -> (Vec<Game>, Vec<&'static str>) {
        let (doc, diags) = read::<Root>(&format!("<tournament{format}>{games}</tournament>"));
        let games = doc.map(|Root::Tournament(t)| t.game).unwrap_or_default();
        (games, diags.iter().map(|d| d.code.as_str()).collect())
    };
    // A casual tournament's games are casual, whatever their minutes.
    let (found, codes) = games(r#" format="casual""#, "<game><move>a</move></game><game/>");
    assert!(codes.is_empty(), "{codes:?}");
    assert!(
        found.iter().all(|g| matches!(g, Game::Casual(_))),
        "{found:?}"
    );
    let (_, codes) = games(
        r#" format="casual""#,
        r#"<game minutes="3" increment="1"/>"#,
    );
    assert!(!codes.is_empty(), "a casual game has no minutes");
    // Any other format: the games' own attributes decide, and the inherited attribute is
    // among the attributes an XPath test sees (`empty(@*)` is false), so an attribute-less
    // game is classical, and lacks its minutes.
    let (found, codes) = games(r#" format="open""#, r#"<game minutes="3" increment="1"/>"#);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(matches!(found[..], [Game::Blitz(_)]), "{found:?}");
    let (_, codes) = games(r#" format="open""#, "<game/>");
    assert!(!codes.is_empty(), "inherited @format makes @* non-empty");
    let (found, codes) = games("", "<game/>");
    assert!(codes.is_empty(), "{codes:?}");
    assert!(matches!(found[..], [Game::Casual(_)]), "{found:?}");
}

/// Without a default alternative the declared type is the default (Part 1, 3.3.2.1), also
/// where it is xs:anyType: a note that no test picks holds any content.
#[cfg(feature = "xpath")]
#[test]
fn the_declared_type_is_the_default_alternative() {
    use alternative_tests_xsd_1_1::{Note, Root};
    let note = |note: &str| {
        let (doc, diags) = read::<Root>(&format!("<tournament><game/>{note}</tournament>"));
        let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
        (doc.ok().and_then(|Root::Tournament(t)| t.note), codes)
    };
    let (found, codes) = note("<note>和棋</note>");
    assert!(codes.is_empty(), "{codes:?}");
    assert!(
        matches!(found, Some(Note::XsString(ref s)) if s == "和棋"),
        "{found:?}"
    );
    // A note that does not say its language is text only.
    assert!(!note("<note><b>和棋</b></note>").1.is_empty());
    let (found, codes) = note(r#"<note lang="en">a <b>draw</b></note>"#);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(matches!(found, Some(Note::XsAnyType(_))), "{found:?}");
}

#[test]
fn error_type_xsd_1_1_case_reads_writes_and_reads_back() {
    example_round_trips::<error_type_xsd_1_1::Root>(include_str!(
        "../codegen/tests/cases/error-type-xsd-1-1/example.xml"
    ));
}

/// XSD 1.1's xs:error: an element an alternative gives it, or declared with it, is
/// invalid whatever it holds; the message says why.
#[test]
fn the_error_type_has_no_valid_value() {
    let diags = |body: &str| {
        let text = format!("<log>{body}</log>");
        read::<error_type_xsd_1_1::Root>(&text).1
    };
    let codes =
        |body: &str| -> Vec<&'static str> { diags(body).iter().map(|d| d.code.as_str()).collect() };
    assert!(codes("<reading unit=\"m\">1</reading>").is_empty());
    // The alternative's test selects xs:error: the value is refused, and xs:error, a
    // simple type, has no attribute.
    assert_eq!(
        codes("<reading unit=\"raw\">1</reading>"),
        [Code::UNKNOWN_ATTRIBUTE.as_str(), Code::UNION.as_str()]
    );
    // Declared so: even empty, no note is valid.
    for note in ["<note/>", "<note>x</note>"] {
        let found = diags(&format!("<reading unit=\"m\">1</reading>{note}"));
        assert_eq!(found.len(), 1, "{note}: {found:?}");
        assert_eq!(found[0].code, Code::UNION);
        let shown = format!("{:?}", found[0]);
        assert!(shown.contains("xs:error"), "{shown}");
    }
    use boardxml::schema::SimpleValue;
    assert!(error_type_xsd_1_1::XsError::parse_lexical("").is_err());
}

#[cfg(feature = "xpath")]
#[test]
fn complex_assertions_xsd_1_1_case_reads_writes_and_reads_back() {
    example_round_trips::<complex_assertions_xsd_1_1::Root>(include_str!(
        "../codegen/tests/cases/complex-assertions-xsd-1-1/example.xml"
    ));
}

/// XSD 1.1's assertions of complex types (Part 1, 3.13): the element is the context item
/// and the root of the tree (no parent); `$value` is its simple content, typed; a derived
/// type's base assertions hold too; each false test is one E0221 at the element, also when
/// the reader drops repeated children (validation only): an asserted element keeps its own.
#[cfg(feature = "xpath")]
#[test]
fn elements_make_the_assertions_of_their_types_true() {
    let document = |games: &str, body: &str| {
        format!("<match xmlns=\"urn:boardxml:match\" games=\"{games}\">{body}</match>")
    };
    let codes = |text: &str, retain: bool| -> Vec<(&'static str, String)> {
        let mut r = Reader::new(text);
        if !retain {
            r = r.without_retaining();
        }
        let _ = r.read_document::<complex_assertions_xsd_1_1::Root>();
        r.into_diagnostics()
            .iter()
            .map(|d| (d.code.as_str(), d.message.clone()))
            .collect()
    };
    let two = "<game winner=\"red\">40</game><game winner=\"black\">61</game>";
    for retain in [true, false] {
        assert_eq!(codes(&document("2", two), retain), [], "retain {retain}");
        // The base type's assertion: as many games as it says.
        let found = codes(&document("3", two), retain);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Code::ASSERTION.as_str());
        assert!(
            found[0].1.contains("xs:int(@games) = count(m:game)"),
            "{found:?}"
        );
        // The derived type's own: the winner won a game (a general comparison).
        let named = format!("{two}<winner>red</winner>");
        assert_eq!(codes(&document("2", &named), retain), []);
        let stranger = format!("{two}<winner>blue</winner>");
        let found = codes(&document("2", &stranger), retain);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].1.contains("m:winner = m:game/@winner"),
            "{found:?}"
        );
        // Both false: two errors at the one element.
        assert_eq!(codes(&document("1", &stranger), retain).len(), 2);
        // $value is the game's positive integer, compared as a number (300 < 1000 as
        // numbers, not as text), and the game has no parent in its test's tree.
        let long = "<game winner=\"red\">1000</game>";
        let found = codes(&document("1", long), retain);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].1.contains("$value le 300"), "{found:?}");
        assert_eq!(
            codes(&document("1", "<game winner=\"red\">99</game>"), retain),
            []
        );
        // The attributes' values are typed: 9 comes before 10 as numbers (as text it
        // would not), and 10 after 9.
        let game = |from: &str, to: &str| {
            format!("<game winner=\"red\" from=\"{from}\" to=\"{to}\">40</game>")
        };
        assert_eq!(codes(&document("1", &game("9", "10")), retain), []);
        let found = codes(&document("1", &game("10", "9")), retain);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].1.contains("@from le @to"), "{found:?}");
        // Shorter games first, compared as numbers (data() of typed nodes).
        let ordered = "<game winner=\"red\">9</game><game winner=\"red\">10</game>";
        assert_eq!(codes(&document("2", ordered), retain), []);
        let unordered = "<game winner=\"red\">10</game><game winner=\"red\">9</game>";
        let found = codes(&document("2", unordered), retain);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].1.contains("data(m:game[1]) le"), "{found:?}");
        // The opening is a QName resolved by the record's own namespace declarations,
        // on the match or on the game, under any prefix: not its text.
        let opening = |declared: &str, on_game: &str, value: &str| {
            format!(
                "<match xmlns=\"urn:boardxml:match\" {declared} games=\"1\">\
                 <game {on_game} winner=\"red\" opening=\"{value}\">40</game></match>"
            )
        };
        let openings = "urn:boardxml:openings";
        for (declared, on_game) in [
            (format!("xmlns:o=\"{openings}\""), String::new()),
            (String::new(), format!("xmlns:o=\"{openings}\"")),
        ] {
            let text = opening(&declared, &on_game, "o:central-cannon");
            assert_eq!(codes(&text, retain), [], "{text}");
            let text = opening(&declared, &on_game, "o:pawn-opening");
            let found = codes(&text, retain);
            assert_eq!(found.len(), 1, "{found:?}");
            assert!(found[0].1.contains("@opening ="), "{found:?}");
        }
        let other = opening(
            &format!("xmlns:p=\"{openings}\" xmlns:o=\"urn:elsewhere\""),
            "",
            "p:elephant",
        );
        assert_eq!(codes(&other, retain), [], "{other}");
        let elsewhere = opening(
            &format!("xmlns:p=\"{openings}\" xmlns:o=\"urn:elsewhere\""),
            "",
            "o:elephant",
        );
        assert_eq!(codes(&elsewhere, retain).len(), 1, "{elsewhere}");
    }
}
