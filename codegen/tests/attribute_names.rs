//! Attributes are told apart by expanded name (XSD 1.0, 3.4.6 ct-props-correct.4 and
//! 3.6.3 ag-props-correct.2 compare names and target namespaces): one local name in two
//! namespaces is two attributes, in a type, through attribute groups and across an
//! extension; twice in one namespace is still an error.

const IMPORTED: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:imp" attributeFormDefault="qualified">
  <xs:attribute name="lang" type="xs:string"/>
</xs:schema>"#;

fn generate(body: &str) -> Result<String, String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("imp.xsd"), IMPORTED).unwrap();
    let main = dir.path().join("t.xsd");
    std::fs::write(
        &main,
        format!(
            r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t" xmlns:t="urn:t" xmlns:imp="urn:imp" attributeFormDefault="qualified">
<xs:import namespace="urn:imp" schemaLocation="imp.xsd"/>
{body}
</xs:schema>"#
        ),
    )
    .unwrap();
    match boardxml_codegen::generate_file(&main) {
        Ok((_, code)) => Ok(code),
        Err(d) => Err(d.to_string().replace(&*dir.path().to_string_lossy(), "")),
    }
}

#[test]
fn one_local_name_in_two_namespaces_is_two_attributes() {
    let code = generate(
        r#"<xs:attributeGroup name="G"><xs:attribute name="lang" type="xs:string"/><xs:attribute ref="imp:lang"/></xs:attributeGroup>
<xs:complexType name="T"><xs:attributeGroup ref="t:G"/></xs:complexType>
<xs:element name="e" type="t:T"/>"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        code.contains(r#"attribute("{urn:t}lang", false)"#),
        "{code}"
    );
    assert!(
        code.contains(r#"attribute("{urn:imp}lang", false)"#),
        "{code}"
    );
    // Across an extension: the base's own and the imported one.
    let code = generate(
        r#"<xs:complexType name="B"><xs:attribute name="lang" type="xs:string"/></xs:complexType>
<xs:complexType name="D"><xs:complexContent><xs:extension base="t:B"><xs:attribute ref="imp:lang"/></xs:extension></xs:complexContent></xs:complexType>
<xs:element name="e" type="t:D"/>"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        code.contains(r#"attribute("{urn:imp}lang", false)"#),
        "{code}"
    );
}

#[test]
fn one_expanded_name_twice_is_still_an_error() {
    let r = generate(
        r#"<xs:attributeGroup name="G"><xs:attribute ref="imp:lang"/></xs:attributeGroup>
<xs:complexType name="T"><xs:attribute ref="imp:lang"/><xs:attributeGroup ref="t:G"/></xs:complexType>"#,
    )
    .unwrap_err();
    assert!(r.contains("attribute \"lang\" is declared twice"), "{r}");
    let r = generate(
        r#"<xs:complexType name="B"><xs:attribute ref="imp:lang"/></xs:complexType>
<xs:complexType name="D"><xs:complexContent><xs:extension base="t:B"><xs:attribute ref="imp:lang"/></xs:extension></xs:complexContent></xs:complexType>"#,
    )
    .unwrap_err();
    assert!(
        r.contains("attribute \"lang\" is declared twice (by the base type and the extension)"),
        "{r}"
    );
}
