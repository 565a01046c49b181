//! Mixed content in the generator: every particle is accepted under `mixed="true"`
//! (documents are judged in tests/mixed_content.rs of the runtime), and what XSD 1.0
//! forbids of mixed content is an error of the schema (exit 1) at the construct at fault.

use std::path::Path;

use boardxml_codegen::diagnostic::Kind;

fn generate(body: &str) -> Result<String, String> {
    let text =
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}\n</xs:schema>");
    match boardxml_codegen::generate_str(Path::new("t.xsd"), &text) {
        Ok((_, code)) => Ok(code),
        Err(d) => {
            // Nothing here is unsupported: a schema is generated or it is invalid.
            assert!(d.0.iter().all(|x| x.kind == Kind::Invalid), "{d}");
            Err(d.to_string())
        }
    }
}

#[test]
fn mixed_content_over_any_particle_is_generated() {
    let shapes = [
        r#"<xs:sequence><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:int" minOccurs="0" maxOccurs="3"/></xs:sequence>"#,
        r#"<xs:sequence maxOccurs="unbounded"><xs:element name="a" type="xs:string"/><xs:choice><xs:element name="b"/><xs:sequence><xs:element name="c"/></xs:sequence></xs:choice></xs:sequence>"#,
        r#"<xs:all><xs:element name="a" type="xs:string"/><xs:element name="b" minOccurs="0"/></xs:all>"#,
        r###"<xs:sequence><xs:element name="a"/><xs:any namespace="##other" processContents="lax" maxOccurs="unbounded"/></xs:sequence>"###,
        r#"<xs:choice maxOccurs="unbounded"><xs:element name="a" maxOccurs="2"/><xs:element name="b"/></xs:choice>"#,
        r#"<xs:choice minOccurs="2" maxOccurs="4"><xs:element name="a" minOccurs="0"/><xs:element name="b"/></xs:choice>"#,
    ];
    for shape in shapes {
        let code = generate(&format!(
            r#"<xs:element name="r" type="R"/><xs:complexType name="R" mixed="true">{shape}</xs:complexType>"#
        ))
        .unwrap_or_else(|e| panic!("{shape}:\n{e}"));
        // The children as element-only content has them, the text beside them.
        assert!(
            code.contains("pub text: ::boardxml::mixed::MixedText"),
            "{shape}:\n{code}"
        );
        assert!(code.contains("__c::Content::Interleaved"), "{shape}");
    }
    // A repeated choice of single elements keeps its document-order enum.
    let code = generate(
        r#"<xs:element name="r" type="R"/><xs:complexType name="R" mixed="true"><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="a"/><xs:element name="b"/></xs:choice></xs:complexType>"#,
    )
    .unwrap();
    assert!(
        code.contains("pub content: ::std::vec::Vec<RContent>"),
        "{code}"
    );
    assert!(!code.contains("MixedText"), "{code}");
}

const MIXED_BASE: &str = r#"<xs:complexType name="M" mixed="true"><xs:sequence><xs:element name="a" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType>"#;

#[test]
fn derived_mixed_content_is_generated() {
    let derived = [
        // A mixed extension adds its particle after the base's.
        r#"<xs:complexType name="D" mixed="true"><xs:complexContent><xs:extension base="M"><xs:sequence><xs:element name="b"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>"#,
        // A mixed restriction, and an element-only one (3.4.6, 5.4).
        r#"<xs:complexType name="D" mixed="true"><xs:complexContent><xs:restriction base="M"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:restriction></xs:complexContent></xs:complexType>"#,
        r#"<xs:complexType name="D"><xs:complexContent><xs:restriction base="M"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:restriction></xs:complexContent></xs:complexType>"#,
        // Mixed content that may be empty restricted to simple content (5.1.2).
        r#"<xs:complexType name="D"><xs:simpleContent><xs:restriction base="M"><xs:simpleType><xs:restriction base="xs:int"/></xs:simpleType></xs:restriction></xs:simpleContent></xs:complexType>"#,
        // A default on mixed content that may be empty (3.3.4, cos-valid-default 2.2.2).
        r#"<xs:element name="e" type="M" default="x"/>"#,
    ];
    for d in derived {
        if let Err(e) = generate(&format!("{MIXED_BASE}\n{d}")) {
            panic!("{d}:\n{e}");
        }
    }
}

#[test]
fn what_xsd_forbids_of_mixed_content_is_a_located_error() {
    let element_only = r#"<xs:complexType name="B"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType>"#;
    let required = MIXED_BASE.replace(r#" minOccurs="0""#, "");
    let cases = [
        (
            element_only.to_string(),
            r#"<xs:complexType name="D" mixed="true"><xs:complexContent><xs:restriction base="B"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:restriction></xs:complexContent></xs:complexType>"#,
            "t.xsd:3:58: error: derivation-ok-restriction.5.3: the restriction is mixed, but the base type's content is element-only",
        ),
        (
            MIXED_BASE.to_string(),
            r#"<xs:complexType name="D"><xs:complexContent><xs:extension base="M"><xs:sequence><xs:element name="b"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>"#,
            "t.xsd:3:45: error: an element-only extension of \"M\", whose content is mixed",
        ),
        (
            required.clone(),
            r#"<xs:complexType name="D"><xs:simpleContent><xs:restriction base="M"><xs:simpleType><xs:restriction base="xs:int"/></xs:simpleType></xs:restriction></xs:simpleContent></xs:complexType>"#,
            "t.xsd:3:44: error: a simpleContent restriction of mixed content needs a base whose particle may be empty; that of \"M\" may not",
        ),
        (
            MIXED_BASE.to_string(),
            r#"<xs:complexType name="D"><xs:simpleContent><xs:restriction base="M"><xs:maxLength value="3"/></xs:restriction></xs:simpleContent></xs:complexType>"#,
            "t.xsd:3:44: error: a simpleContent restriction of the mixed content of \"M\" needs an xs:simpleType child giving the value type",
        ),
        (
            required,
            r#"<xs:element name="e" type="M" fixed="x"/>"#,
            "t.xsd:3:1: error: default= or fixed= needs a simple type, simple content, or mixed content that may be empty",
        ),
    ];
    let mut wrong = Vec::new();
    for (base, derived, expected) in cases {
        let e = generate(&format!("{base}\n{derived}")).expect_err(derived);
        if !e.contains(expected) {
            wrong.push(format!("{expected}\n{e}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
