//! Value constraints on elements whose content is not simple (issue 14, item 6; XSD 1.0,
//! 3.3.6 cos-valid-default): accepted on xs:anyType and on mixed content that may be
//! empty, and on elements in xs:choice and mixed content; on mixed content that cannot be
//! empty, or element-only content, an error of the schema (exit 1), located.

use std::path::Path;

use boardxml_codegen::diagnostic::Kind;

fn report(body: &str) -> Result<(), (String, Vec<Kind>)> {
    let text =
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}\n</xs:schema>");
    match boardxml_codegen::generate_str(Path::new("t.xsd"), &text) {
        Ok(_) => Ok(()),
        Err(d) => Err((d.to_string(), d.0.iter().map(|x| x.kind).collect())),
    }
}

const MIXED: &str = r#"<xs:complexType name="M" mixed="true"><xs:choice minOccurs="MIN" maxOccurs="unbounded"><xs:element name="b" type="xs:string"/></xs:choice></xs:complexType>"#;

#[test]
fn mixed_content_takes_a_value_only_when_it_may_be_empty() {
    let emptiable = MIXED.replace("MIN", "0");
    let required = MIXED.replace("MIN", "1");
    let el = r#"<xs:element name="r" type="M" default="text"/>"#;
    assert_eq!(report(&format!("{emptiable}\n{el}")), Ok(()));
    let (r, kinds) = report(&format!("{required}\n{el}")).unwrap_err();
    assert!(kinds.iter().all(|k| *k == Kind::Invalid), "{r}");
    assert!(r.contains("t.xsd:3:1: error:"), "{r}");
    assert!(r.contains("mixed content that may be empty"), "{r}");
}

#[test]
fn elements_in_a_choice_take_value_constraints() {
    let el = r#"<xs:element name="r"><xs:complexType><xs:choice><xs:element name="a" type="xs:int" default="1"/><xs:element name="b" type="xs:string" fixed="x"/></xs:choice></xs:complexType></xs:element>"#;
    assert_eq!(report(el), Ok(()));
}

/// A default or fixed value must be a value of the declaration's type (XSD 1.0, 3.2.6
/// a-props-correct.2, 3.3.6 e-props-correct.2), with every facet of every step: a pattern,
/// a union's members, the simple content of a complex type, an attribute reference's own
/// value. Each is an error of the schema where the value stands.
#[test]
fn value_constraints_must_be_values_of_their_type() {
    let types = r#"<xs:simpleType name="Six"><xs:restriction base="xs:integer"><xs:pattern value="\d{6}"/></xs:restriction></xs:simpleType>
<xs:simpleType name="Size"><xs:union><xs:simpleType><xs:restriction base="xs:positiveInteger"><xs:minInclusive value="8"/></xs:restriction></xs:simpleType><xs:simpleType><xs:restriction base="xs:NMTOKEN"><xs:enumeration value="small"/></xs:restriction></xs:simpleType></xs:union></xs:simpleType>
<xs:complexType name="Answer"><xs:simpleContent><xs:extension base="xs:boolean"><xs:attribute name="c"/></xs:extension></xs:simpleContent></xs:complexType>
<xs:attribute name="g" type="Six"/>"#;
    let good = [
        r#"<xs:element name="r" type="Six" default="123456"/>"#,
        r#"<xs:element name="r" type="Size" fixed=" small "/>"#,
        r#"<xs:element name="r" type="Size" fixed="08"/>"#,
        r#"<xs:element name="r" type="Answer" default="1"/>"#,
        r#"<xs:element name="r"><xs:complexType><xs:attribute ref="g" default="000001"/></xs:complexType></xs:element>"#,
    ];
    for el in good {
        assert_eq!(report(&format!("{types}\n{el}")), Ok(()), "{el}");
    }
    let bad = [
        (
            r#"<xs:element name="r" type="Six" default="0000000"/>"#,
            "\"0000000\" is not a value of \"Six\"",
        ),
        (
            r#"<xs:element name="r" type="Size" fixed="1"/>"#,
            "\"1\" is not a value of \"Size\"",
        ),
        (
            r#"<xs:element name="r" type="Answer" default="Yes"/>"#,
            "\"Yes\" is not a value of \"xs:boolean\"",
        ),
        (
            r#"<xs:element name="r"><xs:complexType><xs:attribute ref="g" default="1"/></xs:complexType></xs:element>"#,
            "\"1\" is not a value of \"Six\"",
        ),
        (
            r#"<xs:element name="r"><xs:complexType><xs:attribute name="a" type="xs:date" fixed="2020-13-01"/></xs:complexType></xs:element>"#,
            "is not a value of \"xs:date\"",
        ),
    ];
    for (el, want) in bad {
        let (r, kinds) = report(&format!("{types}\n{el}")).unwrap_err();
        assert!(kinds.iter().all(|k| *k == Kind::Invalid), "{r}");
        assert!(r.contains("t.xsd:6:"), "{r}");
        assert!(r.contains(want), "{el}: {r}");
    }
}
