//! The generator's feature cases, compiled here under `deny(warnings)` (so generated code
//! is warning-free) and driven through the runtime: read the example, write it, read again.
#![deny(warnings)]

#[rustfmt::skip]
#[allow(missing_docs)]
// A test uses only part of the generated API; unused items are not a defect of the code.
#[allow(dead_code)]
#[path = "../codegen/tests/cases/name-collision/expected.rs"]
mod name_collision;

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
