//! Substitution groups in the generator (issue 14): a reference to a head is a choice
//! over the head and its members, so the content-model checks see the members (UPA, EDC),
//! `block` keeps members out, members of another namespace are matched by expanded
//! name, and what generated code cannot hold is refused where it stands.

use std::path::Path;

fn report(body: &str) -> Result<String, String> {
    let text =
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}\n</xs:schema>");
    match boardxml_codegen::generate_str(Path::new("t.xsd"), &text) {
        Ok((_, code)) => Ok(code),
        Err(d) => Err(d.to_string()),
    }
}

#[test]
fn a_member_makes_a_content_model_ambiguous() {
    // h? then m: an <m> could stand for h or be the m that follows.
    let r = report(
        r#"<xs:element name="h" type="xs:string"/>
<xs:element name="m" type="xs:string" substitutionGroup="h"/>
<xs:element name="r">
  <xs:complexType>
    <xs:sequence>
      <xs:element ref="h" minOccurs="0"/>
      <xs:element ref="m"/>
    </xs:sequence>
  </xs:complexType>
</xs:element>"#,
    )
    .unwrap_err();
    assert!(
        r.contains("t.xsd:8:7: error: the content model is ambiguous: an element <m> could match this particle or the one at 7:7 (Unique Particle Attribution"),
        "{r}"
    );
    // With block="substitution" the same model is deterministic.
    let code = report(
        r#"<xs:element name="h" type="xs:string" block="substitution"/>
<xs:element name="m" type="xs:string" substitutionGroup="h"/>
<xs:element name="r">
  <xs:complexType>
    <xs:sequence>
      <xs:element ref="h" minOccurs="0"/>
      <xs:element ref="m"/>
    </xs:sequence>
  </xs:complexType>
</xs:element>"#,
    )
    .unwrap();
    assert!(!code.contains("pub enum RChoice"), "no choice: {code}");
}

#[test]
fn a_member_and_a_local_element_of_its_name_must_agree_on_the_type() {
    let r = report(
        r#"<xs:element name="h" type="xs:string"/>
<xs:element name="m" type="xs:string" substitutionGroup="h"/>
<xs:element name="r">
  <xs:complexType>
    <xs:choice maxOccurs="unbounded">
      <xs:element ref="h"/>
      <xs:element name="m" type="xs:int"/>
    </xs:choice>
  </xs:complexType>
</xs:element>"#,
    )
    .unwrap_err();
    assert!(
        r.contains("Element Declarations Consistent") && r.contains("element <m>"),
        "{r}"
    );
}

#[test]
fn block_on_the_head_and_on_its_type_leave_members_out() {
    let schema = |head_block: &str, type_block: &str| {
        format!(
            r#"<xs:complexType name="Base" {type_block}><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType>
<xs:complexType name="Ext"><xs:complexContent><xs:extension base="Base"><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
<xs:complexType name="Res"><xs:complexContent><xs:restriction base="Base"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:restriction></xs:complexContent></xs:complexType>
<xs:element name="head" type="Base" {head_block}/>
<xs:element name="extended" type="Ext" substitutionGroup="head"/>
<xs:element name="restricted" type="Res" substitutionGroup="head"/>
<xs:element name="same" substitutionGroup="head"/>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element ref="head"/></xs:sequence></xs:complexType></xs:element>"#
        )
    };
    // The variants of the choice a reference to head makes (no choice: the head alone).
    let variants = |code: &str| -> Vec<&'static str> {
        let Some(start) = code.find("pub enum RChoice") else {
            return vec!["Head("];
        };
        let body = &code[start..start + code[start..].find('}').unwrap()];
        ["Head(", "Extended(", "Restricted(", "Same("]
            .into_iter()
            .filter(|v| body.contains(&format!("    {v}")))
            .collect()
    };
    let all = ["Head(", "Extended(", "Restricted(", "Same("];
    let code = report(&schema("", "")).unwrap();
    assert_eq!(variants(&code), all);
    let code = report(&schema("block=\"extension\"", "")).unwrap();
    assert_eq!(variants(&code), ["Head(", "Restricted(", "Same("]);
    let code = report(&schema("block=\"restriction\"", "")).unwrap();
    assert_eq!(variants(&code), ["Head(", "Extended(", "Same("]);
    // The head's type's block counts as the head's own (3.3.6, clause 2.3).
    let code = report(&schema("", "block=\"extension\"")).unwrap();
    assert_eq!(variants(&code), ["Head(", "Restricted(", "Same("]);
    // #all blocks substitution too: only the head.
    let code = report(&schema("block=\"#all\"", "")).unwrap();
    assert_eq!(variants(&code), ["Head("]);
    // blockDefault stands for a missing block.
    let text = format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" blockDefault=\"extension\">\n{}\n</xs:schema>",
        schema("", "")
    );
    let (_, code) = boardxml_codegen::generate_str(Path::new("t.xsd"), &text).unwrap();
    assert_eq!(variants(&code), ["Head(", "Restricted(", "Same("]);
}

/// A head in `xs:all` is one field of the head and its members (the all-substitution
/// feature case drives it); in XSD 1.0 the reference occurs at most once.
#[test]
fn a_head_in_xs_all_is_one_field_of_its_group() {
    let body = |occurs: &str| {
        format!(
            r#"<xs:element name="h" type="xs:string"/>
<xs:element name="m" type="xs:string" substitutionGroup="h"/>
<xs:element name="r">
  <xs:complexType>
    <xs:all>
      <xs:element ref="h"{occurs}/>
    </xs:all>
  </xs:complexType>
</xs:element>"#
        )
    };
    let code = report(&body("")).unwrap();
    assert!(code.contains(r#"group_in_all("|h m", 1, 1)"#), "{code}");
    let r = report(&body(r#" maxOccurs="2""#)).unwrap_err();
    assert!(
        r.starts_with("t.xsd:6:5: error: an element in xs:all has maxOccurs 0 or 1"),
        "{r}"
    );
}

#[test]
fn members_of_another_namespace_are_matched_by_expanded_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.xsd"),
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="urn:a" xmlns:b="urn:b" targetNamespace="urn:a" elementFormDefault="qualified">
  <xs:import namespace="urn:b" schemaLocation="ext.xsd"/>
  <xs:element name="item" type="xs:string" abstract="true"/>
  <xs:element name="list"><xs:complexType><xs:sequence><xs:element ref="a:item" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="note" type="xs:string" substitutionGroup="a:item"/>
</xs:schema>"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("ext.xsd"),
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="urn:a" targetNamespace="urn:b">
  <xs:import namespace="urn:a" schemaLocation="main.xsd"/>
  <xs:element name="note" type="xs:string" substitutionGroup="a:item"/>
</xs:schema>"#,
    )
    .unwrap();
    let (_, code) = boardxml_codegen::generate_file(&dir.path().join("main.xsd"))
        .unwrap_or_else(|d| panic!("{d}"));
    // One local name in two namespaces: two members, each matched by its expanded name.
    assert!(code.contains("\"{urn:a}note\""), "{code}");
    assert!(code.contains("\"{urn:b}note\""), "{code}");
}

#[test]
fn a_typeless_member_of_a_head_whose_type_contains_the_head_is_generated() {
    // leaf comes first and has node's type, node's anonymous type references node, whose
    // group has leaf: leaf's type is known while that type is being converted.
    let code = report(
        r#"<xs:element name="leaf" substitutionGroup="node"/>
<xs:element name="node"><xs:complexType><xs:sequence><xs:element ref="node" minOccurs="0" maxOccurs="unbounded"/></xs:sequence><xs:attribute name="id" type="xs:string"/></xs:complexType></xs:element>"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(code.contains("Leaf(Node)"), "{code}");
    assert!(code.contains("Node(Node)"), "{code}");
}

#[test]
fn a_circular_group_of_typeless_members_is_reported_not_followed() {
    // Each takes its head's type: the cycle gives none (and the schema is invalid).
    let r = report(
        r#"<xs:element name="a" substitutionGroup="b"/>
<xs:element name="b" substitutionGroup="a"/>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element ref="a"/></xs:sequence></xs:complexType></xs:element>"#,
    )
    .unwrap_err();
    assert!(
        r.contains("t.xsd:2:1: error: a substitution group that contains itself: a -> b -> a"),
        "{r}"
    );
}
