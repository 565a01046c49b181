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
