//! A model group referred to from an anonymous complex type inside itself (valid XSD 1.0:
//! the recursion goes through an element declaration): accepted and generated with the
//! recursion boxed, while a group that contains itself with no element between stays a
//! located error. The generated code is compiled and driven in the runtime's
//! `tests/recursive_groups.rs` (the `recursive-groups` feature case).

use std::path::Path;

fn generate(body: &str) -> Result<String, String> {
    let text =
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}\n</xs:schema>");
    match boardxml_codegen::generate_str(Path::new("t.xsd"), &text) {
        Ok((_, code)) => Ok(code),
        Err(d) => Err(d.to_string()),
    }
}

const INLINE: &str = r#"<xs:group name="inline"><xs:choice>
  <xs:element name="b" type="xs:string"/>
  <xs:element name="pc">
    <xs:complexType>
      <xs:sequence><xs:group ref="inline" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
      <xs:attribute name="id" type="xs:string"/>
    </xs:complexType>
  </xs:element>
</xs:choice></xs:group>
<xs:element name="doc"><xs:complexType><xs:group ref="inline" maxOccurs="unbounded"/></xs:complexType></xs:element>"#;

#[test]
fn the_anonymous_type_is_named_and_the_recursion_boxed() {
    let code = generate(INLINE).unwrap_or_else(|e| panic!("{e}"));
    assert!(code.contains("pub struct Pc {"), "{code}");
    // The choice inside <pc> holds a <pc> again: by a box (a type cannot hold itself).
    assert!(
        code.contains("Pc(::std::boxed::Box<Pc>)"),
        "the recursion is boxed: {code}"
    );
    // Deterministic: the same schema gives the same code.
    assert_eq!(generate(INLINE).unwrap(), code);
}

#[test]
fn through_other_groups_and_global_elements() {
    // outer -> inner -> item's type -> outer, and outer -> ref top -> top's type -> outer.
    let code = generate(
        r#"<xs:group name="outer"><xs:sequence><xs:group ref="inner"/><xs:element ref="top" minOccurs="0"/></xs:sequence></xs:group>
<xs:group name="inner"><xs:sequence><xs:element name="item"><xs:complexType><xs:sequence><xs:group ref="outer" minOccurs="0"/></xs:sequence></xs:complexType></xs:element></xs:sequence></xs:group>
<xs:element name="top"><xs:complexType><xs:sequence><xs:element name="x" type="xs:string"/><xs:group ref="outer" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(code.contains("pub struct Item {"), "{code}");
    assert!(code.contains("pub struct Top {"), "{code}");
}

#[test]
fn a_group_containing_itself_without_an_element_between_is_still_an_error() {
    // Inside the anonymous type, the group refers to itself directly: a cycle of groups
    // (Part 1, 3.8.6, Model Group Correct 2), not a recursion through an element.
    let r = generate(
        r#"<xs:group name="G"><xs:sequence><xs:element name="e"><xs:complexType><xs:group ref="H"/></xs:complexType></xs:element></xs:sequence></xs:group>
<xs:group name="H"><xs:sequence><xs:group ref="G"/><xs:group ref="H"/></xs:sequence></xs:group>"#,
    )
    .unwrap_err();
    assert!(
        r.contains("error: a model group that contains itself: H -> H"),
        "{r}"
    );
    assert!(!r.contains("anonymous type inside itself"), "{r}");
}

#[test]
fn errors_inside_the_deferred_type_are_located_once() {
    let r = generate(
        r#"<xs:group name="G"><xs:sequence><xs:element name="e" minOccurs="0"><xs:complexType>
  <xs:sequence><xs:group ref="G"/><xs:element name="u" type="Undeclared"/></xs:sequence>
</xs:complexType></xs:element></xs:sequence></xs:group>"#,
    )
    .unwrap_err();
    // Said once (the first pass, which met the recursion, is not reported), where it is.
    assert_eq!(
        r.matches("error: no type named \"Undeclared\" is declared")
            .count(),
        1,
        "{r}"
    );
    assert!(
        r.contains("t.xsd:3:35: error: no type named \"Undeclared\""),
        "{r}"
    );
    assert!(!r.contains("anonymous type inside itself"), "{r}");
}
