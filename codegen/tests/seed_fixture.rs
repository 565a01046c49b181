//! The CIF page's own XSD fragments: the generator must report its errors with positions,
//! never accept or silently repair them.

use std::path::Path;

fn case(file: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/seed-marker-page");
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    // Name the file relative to the crate so the snapshot does not depend on the checkout.
    let shown = Path::new("tests/cases/seed-marker-page").join(file);
    match boardxml_codegen::generate_str(&shown, &text) {
        Ok(_) => panic!("{file} must not generate"),
        Err(d) => d.to_string(),
    }
}

#[test]
fn seed_fragments_give_the_quantifier_and_union_errors_with_positions() {
    let report = case("schema.xsd");
    assert!(
        report.contains("schema.xsd:13:65: error: invalid XSD pattern \"[a-a]{1-3}"),
        "the pattern error points at the Square xs:pattern:\n{report}"
    );
    assert!(
        report.contains("schema.xsd:8:31: error: member type"),
        "the union error points at xs:union:\n{report}"
    );
    assert!(report.contains("hint: {1,3}"), "{report}");
    assert!(
        report.contains("member type \"SquareMarker\" is a complex type"),
        "{report}"
    );
    insta::assert_snapshot!(report);
}

#[test]
fn the_literal_page_is_not_even_well_formed() {
    let report = case("literal.xsd");
    assert!(report.contains("literal.xsd:6:"), "{report}");
    assert!(report.contains("not well-formed XML"), "{report}");
    insta::assert_snapshot!(report);
}

#[test]
fn a_misspelt_attribute_is_reported_not_ignored() {
    let text = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="a">
    <xs:complexType>
      <xs:attribute name="b" type="xs:string" usee="required"/>
    </xs:complexType>
  </xs:element>
</xs:schema>"#;
    let report = boardxml_codegen::generate_str(Path::new("t.xsd"), text)
        .unwrap_err()
        .to_string();
    assert_eq!(
        report,
        "t.xsd:4:7: error: unknown attribute usee on xs:attribute\n  in: xs:attribute\n  hint: did you mean use?"
    );
}

#[test]
fn unsupported_constructs_are_errors() {
    let text = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:complexType name="k"><xs:sequence minOccurs="2" maxOccurs="2"><xs:choice><xs:element name="e" maxOccurs="unbounded"/><xs:element name="c"/></xs:choice><xs:element name="d" minOccurs="0"/></xs:sequence></xs:complexType>
  <xs:simpleType name="D"><xs:restriction base="xs:dateTimeStamp"/></xs:simpleType>
</xs:schema>"#;
    let report = boardxml_codegen::generate_str(Path::new("t.xsd"), text)
        .unwrap_err()
        .to_string();
    assert!(
        report.contains("t.xsd:2:")
            && report.contains("reading such counted repetitions is not supported yet"),
        "{report}"
    );
    assert!(
        // Every XSD 1.0 built-in is supported; this one is XSD 1.1's, no type of XSD 1.0
        // (read as 1.1 it is built: tests/check_cli.rs).
        report.contains("t.xsd:3:27: error: xs:dateTimeStamp is not a built-in type of XSD 1.0"),
        "{report}"
    );
}
