//! The derivation, identity-constraint and facet constraints: each rule once rejecting
//! a schema (with its constraint named, at the element that breaks it) and once
//! accepting the valid neighbour.

const HEAD: &str = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"urn:t\" xmlns:t=\"urn:t\">\n";

/// The validity pass's messages for a schema body, with their lines.
fn problems(body: &str) -> Vec<(u32, String)> {
    let text = format!("{HEAD}{body}\n</xs:schema>");
    let tree = crate::xsd::tree::Tree::read(text);
    // One document: the components it knows are its own.
    let mut known = super::Known::default();
    known.add_document(&tree, Some("urn:t"));
    super::check_in(&tree, 0, &known, Some("urn:t"), false)
        .into_iter()
        .map(|p| (p.span.line, p.message))
        .collect()
}

/// The same, the document read as XSD 1.1.
fn problems_1_1(body: &str) -> Vec<(u32, String)> {
    let text = format!("{HEAD}{body}\n</xs:schema>");
    let tree = crate::xsd::tree::Tree::read_as(text, Some(crate::xsd::tree::Version::Xsd11));
    let mut known = super::Known::default();
    known.add_document(&tree, Some("urn:t"));
    super::check_in(&tree, 0, &known, Some("urn:t"), false)
        .into_iter()
        .map(|p| (p.span.line, p.message))
        .collect()
}

fn base(content: &str) -> String {
    format!("<xs:complexType name=\"b\">{content}</xs:complexType>\n")
}

fn restricting(content: &str) -> String {
    format!("<xs:complexType name=\"r\"><xs:complexContent><xs:restriction base=\"t:b\">\n{content}</xs:restriction></xs:complexContent></xs:complexType>")
}

#[test]
fn particle_restriction_cases() {
    let seq_ab = base("<xs:sequence><xs:element name=\"a\" type=\"xs:string\"/><xs:element name=\"b\" type=\"xs:string\" minOccurs=\"0\"/></xs:sequence>");
    // Leaving out an optional element, restricting a type: valid.
    let ok = restricting("<xs:sequence><xs:element name=\"a\" type=\"xs:token\"/></xs:sequence>");
    assert_eq!(problems(&format!("{seq_ab}{ok}")), vec![]);
    let cases = [
        // Widening the occurrences.
        ("<xs:sequence><xs:element name=\"a\" type=\"xs:string\" maxOccurs=\"2\"/></xs:sequence>", "rcase-NameAndTypeOK.3"),
        // Another name.
        ("<xs:sequence><xs:element name=\"c\" type=\"xs:string\"/></xs:sequence>", "rcase-NameAndTypeOK.1"),
        // A type not derived from the base's element type.
        ("<xs:sequence><xs:element name=\"a\" type=\"xs:int\"/></xs:sequence>", "rcase-NameAndTypeOK.7"),
        // Leaving out a required element.
        ("<xs:sequence><xs:element name=\"b\" type=\"xs:string\"/></xs:sequence>", "rcase-Recurse.2"),
        // A choice for a sequence.
        ("<xs:choice><xs:element name=\"a\" type=\"xs:string\"/><xs:element name=\"b\" type=\"xs:string\"/></xs:choice>", "xs:choice cannot restrict xs:sequence"),
    ];
    for (content, expected) in cases {
        let found = problems(&format!("{seq_ab}{}", restricting(content)));
        assert_eq!(found.len(), 1, "{content}: {found:?}");
        assert!(found[0].1.contains(expected), "{content}: {found:?}");
        assert!(
            found[0].1.starts_with("derivation-ok-restriction.5.3"),
            "{found:?}"
        );
        // At the derived particle, on the line after the restriction's.
        assert_eq!(found[0].0, 4, "{content}: {found:?}");
    }
    // Wildcards: an element the wildcard allows, a narrower wildcard; a wider one not.
    let any = base("<xs:sequence><xs:any namespace=\"##other\" processContents=\"lax\" maxOccurs=\"2\"/></xs:sequence>");
    assert_eq!(problems(&format!("{any}{}", restricting("<xs:sequence><xs:any namespace=\"urn:u\" processContents=\"strict\"/></xs:sequence>"))), vec![]);
    for (content, expected) in [
        ("<xs:sequence><xs:element name=\"a\" form=\"qualified\" type=\"xs:string\"/></xs:sequence>", "rcase-NSCompat.1"),
        ("<xs:sequence><xs:any namespace=\"##any\" processContents=\"lax\"/></xs:sequence>", "rcase-NSSubset.2"),
        ("<xs:sequence><xs:any namespace=\"urn:u\" processContents=\"skip\"/></xs:sequence>", "rcase-NSSubset.3"),
        ("<xs:sequence><xs:any namespace=\"urn:u\" processContents=\"lax\" maxOccurs=\"3\"/></xs:sequence>", "rcase-NSSubset.1"),
    ] {
        let found = problems(&format!("{any}{}", restricting(content)));
        assert!(found.len() == 1 && found[0].1.contains(expected), "{content}: {found:?}");
    }
}

#[test]
fn content_type_derivation() {
    let elements = base("<xs:sequence><xs:element name=\"a\" type=\"xs:string\"/></xs:sequence>");
    let mixed =
        restricting("<xs:sequence><xs:element name=\"a\" type=\"xs:string\"/></xs:sequence>")
            .replace("<xs:complexContent>", "<xs:complexContent mixed=\"true\">");
    let found = problems(&format!("{elements}{mixed}"));
    assert!(
        found
            .iter()
            .any(|(_, m)| m.contains("derivation-ok-restriction.5.3: the restriction is mixed")),
        "{found:?}"
    );
    // Empty content for a base whose content needs an element.
    let found = problems(&format!("{elements}{}", restricting("")));
    assert!(
        found
            .iter()
            .any(|(_, m)| m.contains("derivation-ok-restriction.5.2")),
        "{found:?}"
    );
    // Extending element-only content as mixed.
    let ext = "<xs:complexType name=\"e\"><xs:complexContent mixed=\"true\"><xs:extension base=\"t:b\"><xs:sequence><xs:element name=\"z\" type=\"xs:string\"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>";
    let found = problems(&format!("{elements}{ext}"));
    assert!(
        found
            .iter()
            .any(|(_, m)| m.contains("cos-ct-extends.1.4.3.2.2.1")),
        "{found:?}"
    );
    assert_eq!(
        problems(&format!("{elements}{}", ext.replace(" mixed=\"true\"", ""))),
        vec![]
    );
}

#[test]
fn identity_constraint_xpaths_and_refer() {
    let element = |selector: &str, field: &str, more: &str| {
        format!("<xs:element name=\"r\"><xs:complexType><xs:sequence><xs:element name=\"i\" maxOccurs=\"unbounded\"><xs:complexType><xs:attribute name=\"k\"/></xs:complexType></xs:element></xs:sequence></xs:complexType>\n<xs:key name=\"k\"><xs:selector xpath=\"{selector}\"/><xs:field xpath=\"{field}\"/></xs:key>{more}</xs:element>")
    };
    for (s, f) in [
        (".//t:i", "@k"),
        ("t:i | .//t:*", "attribute::k"),
        ("child::t:i", ". | @ *"),
    ] {
        assert_eq!(problems(&element(s, f, "")), vec![], "{s} {f}");
    }
    for (s, f, expected) in [
        ("", "@k", "c-selector-xpath"),
        ("@k", "@k", "c-selector-xpath"),
        ("descendant::i", "@k", "c-selector-xpath"),
        ("t :i", "@k", "c-selector-xpath"),
        ("u:i", "@k", "the prefix \"u\" is not bound"),
        ("t:i", "@k/x", "c-fields-xpaths"),
        ("t:i", "i[1]", "c-fields-xpaths"),
        ("./ /.", "@k", "c-selector-xpath"),
    ] {
        let found = problems(&element(s, f, ""));
        assert!(
            found.len() == 1 && found[0].1.contains(expected),
            "{s} {f}: {found:?}"
        );
    }
    let keyref = |fields: &str| {
        format!(
            "<xs:keyref name=\"kr\" refer=\"t:k\"><xs:selector xpath=\"t:i\"/>{fields}</xs:keyref>"
        )
    };
    assert_eq!(
        problems(&element("t:i", "@k", &keyref("<xs:field xpath=\"@k\"/>"))),
        vec![]
    );
    let found = problems(&element(
        "t:i",
        "@k",
        &keyref("<xs:field xpath=\"@k\"/><xs:field xpath=\".\"/>"),
    ));
    assert!(
        found.len() == 1 && found[0].1.contains("c-props-correct.2"),
        "{found:?}"
    );
}

#[test]
fn facets_against_each_other_and_the_base() {
    let st = |name: &str, base: &str, facets: &str| {
        format!("<xs:simpleType name=\"{name}\"><xs:restriction base=\"{base}\">{facets}</xs:restriction></xs:simpleType>\n")
    };
    let found = problems(&st(
        "d",
        "xs:decimal",
        "<xs:minInclusive value=\"7.7\"/><xs:maxInclusive value=\"1.1\"/>",
    ));
    assert!(
        found.len() == 1
            && found[0]
                .1
                .contains("minInclusive \"7.7\" is above maxInclusive \"1.1\""),
        "{found:?}"
    );
    let found = problems(&st(
        "d",
        "xs:date",
        "<xs:minExclusive value=\"2000-05-31\"/><xs:maxExclusive value=\"1999-01-31\"/>",
    ));
    assert!(found.len() == 1, "{found:?}");
    assert_eq!(
        problems(&st(
            "d",
            "xs:date",
            "<xs:minInclusive value=\"1999-05-31\"/><xs:maxInclusive value=\"2000-01-31\"/>"
        )),
        vec![]
    );
    let b = st(
        "b",
        "xs:int",
        "<xs:maxExclusive value=\"10\"/><xs:totalDigits value=\"3\"/>",
    );
    assert_eq!(
        problems(&format!(
            "{b}{}",
            st("r", "t:b", "<xs:maxInclusive value=\"9\"/>")
        )),
        vec![]
    );
    for (facets, expected) in [
        (
            "<xs:maxInclusive value=\"10\"/>",
            "maxInclusive-valid-restriction",
        ),
        (
            "<xs:minInclusive value=\"11\"/>",
            "minInclusive-valid-restriction",
        ),
        (
            "<xs:totalDigits value=\"4\"/>",
            "totalDigits-valid-restriction",
        ),
    ] {
        let found = problems(&format!("{b}{}", st("r", "t:b", facets)));
        assert!(
            found.len() == 1 && found[0].1.contains(expected),
            "{facets}: {found:?}"
        );
    }
}

#[test]
fn attribute_uses_of_derived_types() {
    let b = "<xs:complexType name=\"b\"><xs:attribute name=\"req\" type=\"xs:string\" use=\"required\"/><xs:attribute name=\"fix\" type=\"xs:string\" fixed=\"x\"/></xs:complexType>\n";
    let r = |attrs: &str| {
        format!("<xs:complexType name=\"r\"><xs:complexContent><xs:restriction base=\"t:b\">\n{attrs}</xs:restriction></xs:complexContent></xs:complexType>")
    };
    assert_eq!(problems(&format!("{b}{}", r("<xs:attribute name=\"req\" type=\"xs:token\" use=\"required\"/><xs:attribute name=\"fix\" type=\"xs:string\" fixed=\"x\"/>"))), vec![]);
    for (attrs, expected) in [
        (
            "<xs:attribute name=\"req\" type=\"xs:string\"/>",
            "derivation-ok-restriction.2.1.1",
        ),
        (
            "<xs:attribute name=\"req\" use=\"prohibited\"/>",
            "derivation-ok-restriction.3",
        ),
        (
            "<xs:attribute name=\"fix\" type=\"xs:string\" fixed=\"y\"/>",
            "derivation-ok-restriction.2.1.3",
        ),
        (
            "<xs:attribute name=\"req\" type=\"xs:int\" use=\"required\"/>",
            "derivation-ok-restriction.2.1.2",
        ),
        (
            "<xs:attribute name=\"new\" type=\"xs:string\"/>",
            "derivation-ok-restriction.2.2",
        ),
        ("<xs:anyAttribute/>", "derivation-ok-restriction.4.1"),
    ] {
        let found = problems(&format!("{b}{}", r(attrs)));
        assert!(
            found.len() == 1 && found[0].1.contains(expected),
            "{attrs}: {found:?}"
        );
        assert_eq!(found[0].0, 4, "{attrs}: {found:?}");
    }
    let e = "<xs:complexType name=\"e\"><xs:complexContent><xs:extension base=\"t:b\"><xs:attribute name=\"fix\" type=\"xs:string\"/></xs:extension></xs:complexContent></xs:complexType>";
    let found = problems(&format!("{b}{e}"));
    assert!(
        found.len() == 1 && found[0].1.contains("ct-props-correct.4"),
        "{found:?}"
    );
}

#[test]
fn substitution_group_members_derive_from_the_head() {
    let head = |fin: &str| format!("<xs:element name=\"h\" type=\"xs:decimal\"{fin}/>\n");
    assert_eq!(
        problems(&format!(
            "{}<xs:element name=\"m\" type=\"xs:int\" substitutionGroup=\"t:h\"/>",
            head("")
        )),
        vec![]
    );
    let found = problems(&format!(
        "{}<xs:element name=\"m\" type=\"xs:string\" substitutionGroup=\"t:h\"/>",
        head("")
    ));
    assert!(
        found.len() == 1
            && found[0]
                .1
                .contains("is not derived from the type of its substitution group head"),
        "{found:?}"
    );
    let found = problems(&format!(
        "{}<xs:element name=\"m\" type=\"xs:int\" substitutionGroup=\"t:h\"/>",
        head(" final=\"restriction\"")
    ));
    assert!(
        found.len() == 1 && found[0].1.contains("is final for restriction"),
        "{found:?}"
    );
}

#[test]
fn no_attribute_is_declared_in_the_xsi_namespace() {
    let xsi = "http://www.w3.org/2001/XMLSchema-instance";
    let run = |attrs: &str, body: &str| {
        let text = format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"{xsi}\"{attrs}>\n{body}\n</xs:schema>");
        let tree = crate::xsd::tree::Tree::read(text);
        let mut known = super::Known::default();
        known.add_document(&tree, Some(xsi));
        super::check_in(&tree, 0, &known, Some(xsi), false)
            .into_iter()
            .map(|p| (p.span.line, p.message))
            .collect::<Vec<_>>()
    };
    let global = r#"<xs:attribute name="a" type="xs:int"/>"#;
    let r = run("", global);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].0, 2);
    assert!(r[0].1.contains("no-xsi"), "{r:?}");
    // A local attribute is unqualified unless its form says otherwise.
    let local = r#"<xs:complexType name="t"><xs:attribute name="a"/></xs:complexType>"#;
    assert_eq!(run("", local), vec![]);
    assert_eq!(run(" attributeFormDefault=\"qualified\"", local).len(), 1);
}

#[test]
fn a_complex_type_has_at_most_one_id_attribute() {
    let two = "<xs:simpleType name=\"myId\"><xs:restriction base=\"xs:ID\"/></xs:simpleType><xs:complexType name=\"c\"><xs:attribute name=\"a\" type=\"xs:ID\"/><xs:attribute name=\"b\" type=\"t:myId\"/></xs:complexType>";
    let r = problems(two);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].1.contains("ct-props-correct.5"), "{r:?}");
    // Inherited through an extension, too.
    let ext = "<xs:complexType name=\"b\"><xs:attribute name=\"a\" type=\"xs:ID\"/></xs:complexType><xs:complexType name=\"d\"><xs:complexContent><xs:extension base=\"t:b\"><xs:attribute name=\"e\" type=\"xs:ID\"/></xs:extension></xs:complexContent></xs:complexType>";
    assert_eq!(problems(ext).len(), 1);
    let one = "<xs:complexType name=\"c\"><xs:attribute name=\"a\" type=\"xs:ID\"/><xs:attribute name=\"b\" type=\"xs:IDREF\"/></xs:complexType>";
    assert_eq!(problems(one), vec![]);
}

#[test]
fn white_space_may_not_loosen_an_inline_base() {
    // The base is inline: its own whiteSpace (collapse) is what the step may not loosen.
    let st = |ws: &str| {
        format!("<xs:simpleType name=\"s\"><xs:restriction><xs:simpleType><xs:restriction base=\"xs:string\"><xs:whiteSpace value=\"collapse\"/></xs:restriction></xs:simpleType><xs:whiteSpace value=\"{ws}\"/></xs:restriction></xs:simpleType>")
    };
    for loose in ["replace", "preserve"] {
        let found = problems(&st(loose));
        assert!(
            found
                .iter()
                .any(|(_, m)| m.contains("is looser than the base type's")),
            "{loose}: {found:?}"
        );
    }
    assert_eq!(problems(&st("collapse")), vec![]);
}

/// XSD 1.1 judges a restriction by what the content models accept (3.4.6.4): what 1.0's
/// particle mapping refuses is accepted when the language is a subset, and a restriction
/// that maps particle onto particle but lets an element through where the base does not,
/// or gives it to a weaker term, is refused with the shortest such content.
#[test]
fn xsd_1_1_restriction_by_content_language() {
    let el = |n: &str, extra: &str| format!("<xs:element name=\"{n}\" type=\"xs:string\"{extra}/>");
    let choice_ab = base(&format!(
        "<xs:choice maxOccurs=\"unbounded\">{}{}</xs:choice>",
        el("a", ""),
        el("b", "")
    ));
    // An element repeated as a sequence of copies, (a, a?) within a{1,3}: 1.0 forbids a
    // sequence restricting an element declaration; 1.1 sees the words a and a a.
    let a13 = base(&format!(
        "<xs:sequence>{}</xs:sequence>",
        el("a", " maxOccurs=\"3\"")
    ));
    let copies = restricting(&format!(
        "<xs:sequence>{}{}</xs:sequence>",
        el("a", ""),
        el("a", " minOccurs=\"0\"")
    ));
    assert!(!problems(&format!("{a13}{copies}")).is_empty());
    assert_eq!(problems_1_1(&format!("{a13}{copies}")), vec![]);
    // "b a" within (a|b)*.
    let seq = restricting(&format!(
        "<xs:sequence>{}{}</xs:sequence>",
        el("b", ""),
        el("a", "")
    ));
    assert_eq!(problems_1_1(&format!("{choice_ab}{seq}")), vec![]);
    let cases = [
        // One copy too many: the fourth <a>.
        (a13.clone(), format!("<xs:sequence>{}{}</xs:sequence>", el("a", " maxOccurs=\"2\""), el("a", " maxOccurs=\"2\"")), "accepts <a> after <a> ×3"),
        // An order the base does not have.
        (base(&format!("<xs:sequence>{}{}</xs:sequence>", el("a", ""), el("b", ""))), format!("<xs:sequence>{}{}</xs:sequence>", el("b", ""), el("a", "")), "accepts <b> as the first child"),
        // Ending early: the base needs its <b>.
        (base(&format!("<xs:sequence>{}{}</xs:sequence>", el("a", ""), el("b", ""))), format!("<xs:sequence>{}</xs:sequence>", el("a", "")), "accepts the content \"<a>\""),
        // A declaration whose type is not derived from the base's.
        (choice_ab.clone(), "<xs:sequence><xs:element name=\"a\" type=\"xs:int\"/></xs:sequence>".to_string(), "rcase-NameAndTypeOK.7"),
        // A wildcard taking an element the base gives its declaration (wild069).
        (base(&format!("<xs:sequence>{}</xs:sequence>", el("e", " minOccurs=\"0\""))), "<xs:sequence><xs:any namespace=\"##local\" processContents=\"lax\" minOccurs=\"0\"/></xs:sequence>".into(), "wildcard takes it"),
        // A weaker wildcard.
        (base("<xs:sequence><xs:any namespace=\"##any\" processContents=\"strict\"/></xs:sequence>"), "<xs:sequence><xs:any namespace=\"##other\" processContents=\"skip\"/></xs:sequence>".into(), "weaker"),
        // A wildcard wider than the base's: a namespace the base's does not allow.
        (base("<xs:sequence><xs:any namespace=\"urn:u\"/></xs:sequence>"), "<xs:sequence><xs:any namespace=\"##other\"/></xs:sequence>".into(), "an element of a namespace neither model names"),
    ];
    for (b, content, expected) in cases {
        let found = problems_1_1(&format!("{b}{}", restricting(&content)));
        assert_eq!(found.len(), 1, "{content}: {found:?}");
        assert!(
            found[0].1.starts_with("derivation-ok-restriction.5.4"),
            "{found:?}"
        );
        assert!(found[0].1.contains(expected), "{content}: {found:?}");
    }
    // A narrower wildcard, and an element the base's wildcard takes: both restrict.
    let any = base("<xs:sequence><xs:any namespace=\"##any\" processContents=\"lax\" maxOccurs=\"2\"/></xs:sequence>");
    let narrower = restricting("<xs:sequence><xs:any namespace=\"urn:u\" processContents=\"strict\"/><xs:element name=\"x\" form=\"unqualified\" type=\"xs:string\"/></xs:sequence>");
    assert_eq!(problems_1_1(&format!("{any}{narrower}")), vec![]);
    // xs:all with repeating members (1.1): a sequence in one of its orders restricts it.
    let all = base(&format!(
        "<xs:all>{}{}</xs:all>",
        el("a", " maxOccurs=\"2\""),
        el("b", " minOccurs=\"0\"")
    ));
    let order = restricting(&format!(
        "<xs:sequence>{}{}{}</xs:sequence>",
        el("b", ""),
        el("a", ""),
        el("a", "")
    ));
    assert_eq!(problems_1_1(&format!("{all}{order}")), vec![]);
    let three = restricting(&format!(
        "<xs:sequence>{}{}</xs:sequence>",
        el("a", " maxOccurs=\"3\""),
        el("b", "")
    ));
    let found = problems_1_1(&format!("{all}{three}"));
    assert!(
        found.len() == 1 && found[0].1.contains("accepts <a> after <a> ×2"),
        "{found:?}"
    );
}

/// A restriction whose product of models is vast ends (its search is bounded by the terms
/// its steps look at) and reports nothing it has not proven.
#[test]
fn a_vast_restriction_is_judged_within_bounds() {
    let names: String = (0..300)
        .map(|i| format!("<xs:element name=\"e{i}\" type=\"xs:string\"/>"))
        .collect();
    // Fifteen repeated choices of 300 names each: 4,500 positions a model, a follow set
    // of every later choice's names after each.
    let choices = |min: &str| -> String {
        (0..15)
            .map(|_| {
                format!(
                    "<xs:choice minOccurs=\"{min}\" maxOccurs=\"unbounded\">{names}</xs:choice>"
                )
            })
            .collect()
    };
    let b = base(&format!("<xs:sequence>{}</xs:sequence>", choices("0")));
    let r = restricting(&format!("<xs:sequence>{}</xs:sequence>", choices("1")));
    assert_eq!(problems_1_1(&format!("{b}{r}")), vec![]);
}
