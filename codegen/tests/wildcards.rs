//! Open content and attribute wildcards in the adapter (issue 14, item 5): what is
//! accepted, and what is still reported as not supported (with its position) rather than
//! ignored.

use std::path::Path;

use boardxml_codegen::diagnostic::Kind;

fn report(body: &str) -> String {
    let text =
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}\n</xs:schema>");
    match boardxml_codegen::generate_str(Path::new("t.xsd"), &text) {
        Ok(_) => String::new(),
        Err(d) => {
            // Every problem here is a construct not supported yet (exit 3), not an error.
            assert!(d.0.iter().all(|x| x.kind == Kind::Unsupported), "{d}");
            d.to_string()
        }
    }
}

#[test]
fn untyped_and_any_type_elements_are_accepted() {
    let r = report(
        r#"<xs:element name="r"/>
<xs:complexType name="T"><xs:sequence><xs:element name="a"/><xs:element name="b" type="xs:anyType" maxOccurs="unbounded"/></xs:sequence></xs:complexType>"#,
    );
    assert!(r.is_empty(), "{r}");
}

#[test]
fn value_constraints_and_nil_on_open_content_are_accepted() {
    // xs:anyType is mixed and may be empty: an empty element takes the text (3.3.6).
    assert_eq!(
        report(r#"<xs:element name="r" type="xs:anyType" default="x"/>"#),
        ""
    );
    assert_eq!(report(r#"<xs:element name="r" fixed="x"/>"#), "");
    // A nil element of open content keeps its attributes (tests/nillable.rs).
    assert_eq!(report(r#"<xs:element name="r" nillable="true"/>"#), "");
}

#[test]
fn attribute_wildcards_are_accepted_where_supported_and_located_where_not() {
    let r = report(
        r###"<xs:attribute name="g" type="xs:int"/>
<xs:attributeGroup name="G"><xs:anyAttribute namespace="##other"/></xs:attributeGroup>
<xs:complexType name="T"><xs:attributeGroup ref="G"/><xs:anyAttribute namespace="##local urn:a" processContents="lax"/></xs:complexType>
<xs:element name="r" type="T"/>"###,
    );
    assert!(r.is_empty(), "{r}");
    // Simple content takes a wildcard too (derived-wildcards case).
    let r = report(
        r#"<xs:complexType name="T"><xs:simpleContent><xs:extension base="xs:int">
  <xs:anyAttribute/>
</xs:extension></xs:simpleContent></xs:complexType>"#,
    );
    assert!(r.is_empty(), "{r}");
}

#[test]
fn element_wildcards_are_accepted_in_sequences_and_choices() {
    let r = report(
        r###"<xs:element name="r" type="T"/>
<xs:complexType name="T"><xs:sequence>
  <xs:any namespace="##other" processContents="skip" minOccurs="0" maxOccurs="unbounded"/>
  <xs:element name="a" type="xs:string"/>
  <xs:choice maxOccurs="3"><xs:element name="b"/><xs:any namespace="urn:x urn:y" processContents="lax"/></xs:choice>
  <xs:any namespace="urn:z" processContents="strict" minOccurs="0"/>
</xs:sequence></xs:complexType>"###,
    );
    assert!(r.is_empty(), "{r}");
    // XSD 1.1's disallowed names, in a document read as XSD 1.1, are built: the
    // wildcard's name pattern lists them (tests/xsd_1_1.rs has their rules).
    let text = r###"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning" vc:minVersion="1.1">
<xs:complexType name="T"><xs:sequence>
  <xs:any notQName="a"/>
</xs:sequence></xs:complexType></xs:schema>"###;
    let (_, code) = boardxml_codegen::generate_str(Path::new("t.xsd"), text).unwrap();
    assert!(code.contains(r#"element("*\ta", 1, 1)"#), "{code}");
}

fn invalid(body: &str) -> String {
    let text =
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}\n</xs:schema>");
    match boardxml_codegen::generate_str(Path::new("t.xsd"), &text) {
        Ok(_) => panic!("accepted: {body}"),
        Err(d) => {
            assert!(d.0.iter().any(|x| x.kind == Kind::Invalid), "{d}");
            d.to_string()
        }
    }
}

#[test]
fn a_wildcard_and_an_element_that_match_one_name_at_one_point_are_ambiguous() {
    // An element in no namespace after an optional ##any wildcard: both could take <a>.
    let r = invalid(
        r###"<xs:complexType name="T"><xs:sequence>
  <xs:any minOccurs="0"/>
  <xs:element name="a"/>
</xs:sequence></xs:complexType>"###,
    );
    assert!(
        r.contains("t.xsd:4:3: error: the content model is ambiguous: an element could match this particle, <a>, or the one at 3:3, xs:any (any element) (Unique Particle Attribution"),
        "{r}"
    );
    // Two wildcards of a choice that share a namespace.
    let r = invalid(
        r###"<xs:complexType name="T"><xs:choice>
  <xs:any namespace="urn:a urn:b"/>
  <xs:any namespace="urn:b"/>
</xs:choice></xs:complexType>"###,
    );
    assert!(
        r.contains("t.xsd:4:3: error: the content model is ambiguous"),
        "{r}"
    );
    // Disjoint namespaces decide: ##other does not take an element in no namespace, and
    // two wildcards of different namespaces never overlap.
    let r = report(
        r###"<xs:complexType name="T"><xs:sequence>
  <xs:any namespace="##other" minOccurs="0" maxOccurs="unbounded"/>
  <xs:element name="a"/>
  <xs:choice><xs:any namespace="urn:a"/><xs:any namespace="urn:b"/></xs:choice>
</xs:sequence></xs:complexType>"###,
    );
    assert!(r.is_empty(), "{r}");
}
