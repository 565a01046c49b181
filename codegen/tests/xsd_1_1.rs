//! XSD 1.1 constructs the generator builds, read with `--xsd-version 1.1` (the library's
//! `Allowed::xsd_version`): what each makes of the schema's types, and the errors each
//! can have. (The W3C suite's 1.1 tests judge them too: `tests/xsts.rs`.)

use std::path::{Path, PathBuf};

use boardxml_codegen::check::{check_files_allowed, Verdict};
use boardxml_codegen::ir::{Schema, TypeKind};
use boardxml_codegen::xsd::{read_schema_files_allowed, Allowed, Catalog, XsdVersion};

/// Writes `text` as `t.xsd` into a fresh folder.
fn schema_file(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.xsd");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn as_1_1() -> Allowed {
    let mut allowed = Allowed::new();
    allowed.xsd_version(XsdVersion::Xsd11);
    allowed
}

/// `check --xsd-version 1.1` of `text` as `t.xsd`: the verdict and the diagnostics.
fn check_1_1(text: &str) -> (Verdict, String) {
    let (_dir, path) = schema_file(text);
    let report = check_files_allowed(&[path], &[], &as_1_1());
    (report.verdict, report.diagnostics.to_string())
}

/// [`check_1_1`] of `body` in an `xs:schema` without a target namespace.
fn check_body_1_1(body: &str) -> (Verdict, String) {
    check_1_1(&format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}</xs:schema>\n"
    ))
}

fn read(path: &Path) -> Schema {
    read_schema_files_allowed(&[path.to_owned()], &Catalog::default(), &as_1_1())
        .unwrap_or_else(|d| panic!("{d}"))
}

/// The names of the attributes of complex type `ty`, sorted.
fn attributes(schema: &Schema, ty: &str) -> Vec<String> {
    let TypeKind::Complex(c) = &schema.types[ty].kind else {
        panic!("{ty} is not complex")
    };
    let mut names: Vec<String> = c.attributes.iter().map(|a| a.name.clone()).collect();
    names.sort();
    names
}

const HEAD: &str = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:t=\"urn:t\" targetNamespace=\"urn:t\" defaultAttributes=\"t:common\">\n<xs:attributeGroup name=\"common\"><xs:attribute name=\"lang\" type=\"xs:language\" use=\"required\"/><xs:anyAttribute namespace=\"##other\" processContents=\"skip\"/></xs:attributeGroup>\n";

/// Part 1, 3.4.2.5: every complex type of the document takes the `defaultAttributes`
/// group's attribute uses and wildcard, unless it says `defaultAttributesApply="false"`,
/// whatever its content: none, simple content, an extension or a restriction.
#[test]
fn default_attributes_reach_every_complex_type_that_applies_them() {
    let (_dir, path) = schema_file(&format!(
        "{HEAD}\
         <xs:complexType name=\"Plain\"><xs:attribute name=\"k\"/></xs:complexType>\n\
         <xs:complexType name=\"Valued\"><xs:simpleContent><xs:extension base=\"xs:int\"><xs:attribute name=\"unit\"/></xs:extension></xs:simpleContent></xs:complexType>\n\
         <xs:complexType name=\"Extended\"><xs:complexContent><xs:extension base=\"t:Plain\"><xs:attribute name=\"more\"/></xs:extension></xs:complexContent></xs:complexType>\n\
         <xs:complexType name=\"Restricted\"><xs:complexContent><xs:restriction base=\"t:Plain\"><xs:attribute name=\"k\" use=\"prohibited\"/></xs:restriction></xs:complexContent></xs:complexType>\n\
         <xs:complexType name=\"Apart\" defaultAttributesApply=\"false\"><xs:attribute name=\"k\"/></xs:complexType>\n\
         <xs:element name=\"r\" type=\"t:Plain\"/>\n\
         </xs:schema>\n"
    ));
    let schema = read(&path);
    assert_eq!(attributes(&schema, "Plain"), ["k", "lang"]);
    assert_eq!(attributes(&schema, "Valued"), ["lang", "unit"]);
    assert_eq!(attributes(&schema, "Extended"), ["k", "lang", "more"]);
    assert_eq!(attributes(&schema, "Restricted"), ["lang"]);
    assert_eq!(attributes(&schema, "Apart"), ["k"]);
    // The group's wildcard comes too.
    for (ty, wildcard) in [("Plain", true), ("Apart", false)] {
        let TypeKind::Complex(c) = &schema.types[ty].kind else {
            panic!()
        };
        assert_eq!(c.any_attribute.is_some(), wildcard, "{ty}");
    }
    // The same document read as XSD 1.0: the attributes are 1.1's, errors there.
    let mut as_1_0 = Allowed::new();
    as_1_0.xsd_version(XsdVersion::Xsd10);
    let report = check_files_allowed(std::slice::from_ref(&path), &[], &as_1_0);
    assert_eq!(report.verdict, Verdict::Invalid, "{}", report.diagnostics);
    assert!(
        report
            .diagnostics
            .to_string()
            .contains("attribute defaultAttributes on xs:schema is XSD 1.1's"),
        "{}",
        report.diagnostics
    );
}

/// The errors `defaultAttributes` can bring: a name no attribute group has (src-resolve,
/// at the xs:schema), and an attribute the type declares itself as well
/// (ct-props-correct.4).
#[test]
fn default_attributes_errors_are_located() {
    let judge = check_1_1;
    let (verdict, shown) = judge(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" defaultAttributes=\"nope\">\n<xs:complexType name=\"C\"/></xs:schema>\n",
    );
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(
        shown.contains("t.xsd:1:1: error: no attribute group named \"nope\""),
        "{shown}"
    );
    assert_eq!(shown.matches("error:").count(), 1, "reported once: {shown}");
    let (verdict, shown) = judge(&format!(
        "{HEAD}<xs:complexType name=\"Twice\"><xs:attribute name=\"lang\"/></xs:complexType></xs:schema>\n"
    ));
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(
        shown.contains("attribute \"lang\" is declared twice"),
        "{shown}"
    );
}

/// XSD 1.1's `notNamespace` (3.10.2): every namespace but those listed (`##local` is no
/// namespace, `##targetNamespace` the document's), on element and attribute wildcards; it
/// and `namespace` never stand together.
#[test]
fn not_namespace_excludes_what_it_lists() {
    use boardxml_codegen::ir::{NamespaceConstraint, Term};
    let (_dir, path) = schema_file(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"urn:t\">\n\
         <xs:complexType name=\"Open\"><xs:sequence><xs:any notNamespace=\"##targetNamespace urn:x\" processContents=\"lax\"/></xs:sequence>\n\
         <xs:anyAttribute notNamespace=\"##local\" processContents=\"skip\"/></xs:complexType>\n\
         </xs:schema>\n",
    );
    let schema = read(&path);
    let TypeKind::Complex(c) = &schema.types["Open"].kind else {
        panic!()
    };
    let attribute = c.any_attribute.as_ref().expect("a wildcard");
    assert_eq!(attribute.namespaces, NamespaceConstraint::Not(vec![None]));
    assert!(attribute.allows(Some("urn:t")) && !attribute.allows(None));
    let boardxml_codegen::ir::Content::Elements(p) = &c.content else {
        panic!()
    };
    let Term::Sequence(items) = &p.term else {
        panic!()
    };
    let Term::Any(element) = &items[0].term else {
        panic!()
    };
    assert_eq!(
        element.namespaces,
        NamespaceConstraint::Not(vec![Some("urn:t".into()), Some("urn:x".into())])
    );
    // Unlike ##other, it lets unqualified names in unless it lists ##local.
    assert!(element.allows(None) && element.allows(Some("urn:o")));
    let judge = check_body_1_1;
    let (verdict, shown) = judge(
        "<xs:complexType name=\"Both\"><xs:anyAttribute namespace=\"##any\" notNamespace=\"urn:x\"/></xs:complexType>\n",
    );
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(
        shown.contains("t.xsd:2:") && shown.contains("namespace= or notNamespace=, not both"),
        "{shown}"
    );
    let (verdict, shown) = judge(
        "<xs:complexType name=\"Bad\"><xs:anyAttribute notNamespace=\"##other\"/></xs:complexType>\n",
    );
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(shown.contains("notNamespace=\"##other\""), "{shown}");
}

/// XSD 1.1's `targetNamespace` on a local declaration (3.3.2, 3.2.2): the declaration is in
/// that namespace; a namespace other than the schema's only where a restriction (of a type
/// other than `xs:anyType`) narrows what the base allows there (src-element.5,
/// src-attribute.6).
#[test]
fn target_namespace_on_local_declarations() {
    use boardxml_codegen::ir::{Content, Term};
    let (_dir, path) = schema_file(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:t=\"urn:t\" targetNamespace=\"urn:t\">\n\
         <xs:complexType name=\"Base\"><xs:sequence><xs:any namespace=\"urn:o\"/></xs:sequence><xs:anyAttribute namespace=\"urn:o\"/></xs:complexType>\n\
         <xs:complexType name=\"Narrow\"><xs:complexContent><xs:restriction base=\"t:Base\"><xs:sequence><xs:element name=\"e\" targetNamespace=\"urn:o\"/></xs:sequence>\n\
         <xs:attribute name=\"a\" targetNamespace=\"urn:o\"/></xs:restriction></xs:complexContent></xs:complexType>\n\
         </xs:schema>\n",
    );
    let schema = read(&path);
    let TypeKind::Complex(c) = &schema.types["Narrow"].kind else {
        panic!()
    };
    assert_eq!(c.attributes[0].namespace.as_deref(), Some("urn:o"));
    let Content::Elements(p) = &c.content else {
        panic!()
    };
    let Term::Sequence(items) = &p.term else {
        panic!()
    };
    let Term::Element(e) = &items[0].term else {
        panic!()
    };
    assert_eq!(e.namespace.as_deref(), Some("urn:o"));
    let judge = |body: &str| {
        check_1_1(&format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"urn:t\">\n{body}</xs:schema>\n"
        ))
    };
    for (body, message) in [
        (
            "<xs:element name=\"g\" targetNamespace=\"urn:t\"/>\n",
            "targetNamespace= is allowed only on a local xs:element",
        ),
        (
            "<xs:complexType name=\"C\"><xs:sequence><xs:element name=\"e\" form=\"qualified\" targetNamespace=\"urn:t\"/></xs:sequence></xs:complexType>\n",
            "targetNamespace= or form=, not both",
        ),
        (
            "<xs:complexType name=\"C\"><xs:attribute name=\"a\" targetNamespace=\"urn:o\"/></xs:complexType>\n",
            "must stand in the restriction of a type other than xs:anyType",
        ),
    ] {
        let (verdict, shown) = judge(body);
        assert_eq!(verdict, Verdict::Invalid, "{body}: {shown}");
        assert!(shown.contains("t.xsd:2:") && shown.contains(message), "{body}: {shown}");
    }
    // The schema's own namespace needs no restriction.
    let (verdict, shown) = judge(
        "<xs:complexType name=\"C\"><xs:attribute name=\"a\" targetNamespace=\"urn:t\"/></xs:complexType>\n",
    );
    assert_eq!(verdict, Verdict::Supported, "{shown}");
}

/// XSD 1.1's `xpathDefaultNamespace` (3.11.2, 3.17.2): an unprefixed element name in a
/// selector or field is in that namespace (the selector's or field's own, else the
/// schema's); an unprefixed attribute name stays in none. Read as 1.0 it is an error.
#[test]
fn xpath_default_namespace_qualifies_unprefixed_element_names() {
    use boardxml_codegen::ir::NameTest;
    let text = |own: &str| {
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns=\"urn:d\" targetNamespace=\"urn:t\" elementFormDefault=\"qualified\" xpathDefaultNamespace=\"##targetNamespace\">\n\
             <xs:element name=\"list\"><xs:complexType><xs:sequence><xs:element name=\"item\" maxOccurs=\"unbounded\"><xs:complexType><xs:attribute name=\"id\"/></xs:complexType></xs:element></xs:sequence></xs:complexType>\n\
             <xs:key name=\"ids\"><xs:selector xpath=\"item\"{own}/><xs:field xpath=\"@id\"/></xs:key></xs:element>\n\
             </xs:schema>\n"
        )
    };
    let selector = |own: &str| {
        let (_dir, path) = schema_file(&text(own));
        let schema = read(&path);
        let table = schema.identity.values().next().expect("a constraint");
        let c = &table.constraints[0];
        assert_eq!(
            c.fields[0].1[0].attribute,
            Some(NameTest::Name("id".into())),
            "an attribute stays unqualified"
        );
        c.selector[0].steps.clone()
    };
    assert_eq!(selector(""), [NameTest::Name("{urn:t}item".into())]);
    assert_eq!(
        selector(" xpathDefaultNamespace=\"##defaultNamespace\""),
        [NameTest::Name("{urn:d}item".into())]
    );
    assert_eq!(
        selector(" xpathDefaultNamespace=\"##local\""),
        [NameTest::Name("item".into())]
    );
    let (_dir, path) = schema_file(&text(""));
    let mut as_1_0 = Allowed::new();
    as_1_0.xsd_version(XsdVersion::Xsd10);
    let report = check_files_allowed(std::slice::from_ref(&path), &[], &as_1_0);
    assert_eq!(report.verdict, Verdict::Invalid, "{}", report.diagnostics);
}

/// XSD 1.1's `ref=` on an identity constraint (3.11.2): the element has the constraint
/// declared (by name) on another element, which must be of the same kind; a reference
/// gives nothing of its own.
#[test]
fn identity_constraints_by_reference() {
    let text = |reference: &str| {
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:t=\"urn:t\" targetNamespace=\"urn:t\" elementFormDefault=\"qualified\">\n\
             <xs:complexType name=\"Items\"><xs:sequence><xs:element name=\"item\" maxOccurs=\"unbounded\"><xs:complexType><xs:attribute name=\"id\"/></xs:complexType></xs:element></xs:sequence></xs:complexType>\n\
             <xs:element name=\"doc\"><xs:complexType><xs:sequence>\n\
             <xs:element name=\"a\" type=\"t:Items\"><xs:unique name=\"ids\"><xs:selector xpath=\"t:item\"/><xs:field xpath=\"@id\"/></xs:unique></xs:element>\n\
             <xs:element name=\"b\" type=\"t:Items\">{reference}</xs:element>\n\
             </xs:sequence></xs:complexType></xs:element>\n\
             </xs:schema>\n"
        )
    };
    let (_dir, path) = schema_file(&text("<xs:unique ref=\"t:ids\"/>"));
    let schema = read(&path);
    // Both elements read with a type of their own that carries the one constraint.
    let carrying: Vec<&String> = schema
        .identity
        .iter()
        .filter(|(_, t)| t.constraints.iter().any(|c| c.name == "{urn:t}ids"))
        .map(|(name, _)| name)
        .collect();
    assert_eq!(carrying.len(), 2, "{:?}", schema.identity.keys());
    let judge = |reference: &str| check_1_1(&text(reference));
    for (reference, message) in [
        (
            "<xs:key ref=\"t:ids\"/>",
            "\"t:ids\" is an xs:unique; xs:key ref= names an xs:key",
        ),
        ("<xs:unique ref=\"t:nope\"/>", "nope"),
        (
            "<xs:unique ref=\"t:ids\" name=\"again\"/>",
            "xs:unique with ref= takes no name=",
        ),
    ] {
        let (verdict, shown) = judge(reference);
        assert_eq!(verdict, Verdict::Invalid, "{reference}: {shown}");
        assert!(
            shown.contains("t.xsd:5:") && shown.contains(message),
            "{reference}: {shown}"
        );
    }
}

/// XSD 1.1's `inheritable` on an attribute changes only what type alternatives see: taken
/// with or without them (a descendant's alternatives read it: tests/cases.rs), and its
/// value must still be one of XSD 1.1's booleans.
#[test]
fn inheritable_attributes_with_and_without_alternatives() {
    let judge = |inheritable: &str, extra: &str| {
        let (_dir, path) = schema_file(&format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n\
             <xs:element name=\"r\"><xs:complexType><xs:sequence><xs:element name=\"c\" type=\"xs:anyType\">{extra}</xs:element></xs:sequence>\n\
             <xs:attribute name=\"lang\" type=\"xs:language\" inheritable=\"{inheritable}\"/></xs:complexType></xs:element>\n\
             </xs:schema>\n"
        ));
        check_files_allowed(&[path], &[], &as_1_1())
    };
    let alternatives =
        "<xs:alternative test=\"@lang = 'en'\" type=\"xs:string\"/><xs:alternative type=\"xs:token\"/>";
    for extra in ["", alternatives] {
        for inheritable in ["true", "false", "1"] {
            let report = judge(inheritable, extra);
            assert_eq!(report.verdict, Verdict::Supported, "{}", report.diagnostics);
        }
        let report = judge("yes", extra);
        assert_eq!(report.verdict, Verdict::Invalid, "{}", report.diagnostics);
    }
    // A restriction keeps each attribute's inheritance (derivation-ok-restriction.2.1.4;
    // the suite's cta9004err and cta9005err), whichever way it would change.
    for (base, restricted, verdict) in [
        ("true", "true", Verdict::Supported),
        ("true", "false", Verdict::Invalid),
        ("false", "1", Verdict::Invalid),
    ] {
        let (verdict_found, shown) = check_body_1_1(&format!(
            "<xs:complexType name=\"B\"><xs:attribute name=\"lang\" inheritable=\"{base}\"/></xs:complexType>\n\
             <xs:complexType name=\"R\"><xs:complexContent><xs:restriction base=\"B\"><xs:attribute name=\"lang\" inheritable=\"{restricted}\"/></xs:restriction></xs:complexContent></xs:complexType>\n\
             <xs:element name=\"r\" type=\"R\"/>\n"
        ));
        assert_eq!(verdict_found, verdict, "{base} {restricted}: {shown}");
        if verdict == Verdict::Invalid {
            assert!(shown.contains("derivation-ok-restriction.2.1.4"), "{shown}");
        }
    }
}

/// `diff` names a change of an attribute's inheritance and cannot tell what it breaks: a
/// descendant's type alternative may read it.
#[test]
fn diff_names_a_change_of_inheritance() {
    use boardxml_codegen::diff::{self, docs::Verdict as Breaks};
    let schema = |inheritable: &str| {
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\" vc:minVersion=\"1.1\">\n<xs:element name=\"r\"><xs:complexType><xs:sequence><xs:element name=\"c\" type=\"xs:decimal\"><xs:alternative test=\"@lang = 'en'\" type=\"xs:int\"/></xs:element></xs:sequence>\n<xs:attribute name=\"lang\" type=\"xs:language\" inheritable=\"{inheritable}\"/></xs:complexType></xs:element>\n</xs:schema>\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.xsd"), dir.path().join("new.xsd"));
    std::fs::write(&old, schema("false")).unwrap();
    std::fs::write(&new, schema("true")).unwrap();
    let report = diff::diff_files(&old, &new).unwrap();
    let change = report
        .changes
        .iter()
        .find(|c| c.summary.contains("inheritable false -> true"))
        .unwrap_or_else(|| panic!("{:#?}", report.changes));
    assert_eq!(change.kind, "attribute-changed");
    assert!(
        matches!(change.old_break, Breaks::CannotTell(_)),
        "{change:#?}"
    );
    assert!(diff::diff_files(&new, &new).unwrap().changes.is_empty());
}

/// XSD 1.1's `xs:anyAtomicType` types a declaration (any atomic value, as written); it is
/// special, so no list, union or restriction of the schema's own is built on it.
#[test]
fn any_atomic_type_types_declarations_only() {
    let judge = check_body_1_1;
    let (verdict, shown) = judge("<xs:element name=\"e\" type=\"xs:anyAtomicType\"/>\n");
    assert_eq!(verdict, Verdict::Supported, "{shown}");
    for body in [
        "<xs:simpleType name=\"L\"><xs:list itemType=\"xs:anyAtomicType\"/></xs:simpleType>\n",
        "<xs:simpleType name=\"U\"><xs:union memberTypes=\"xs:string xs:anyAtomicType\"/></xs:simpleType>\n",
        "<xs:simpleType name=\"R\"><xs:restriction base=\"xs:anyAtomicType\"/></xs:simpleType>\n",
    ] {
        let (verdict, shown) = judge(body);
        assert_eq!(verdict, Verdict::Invalid, "{body}: {shown}");
        assert!(
            shown.contains("t.xsd:2:") && shown.contains("xs:anyAtomicType is special"),
            "{body}: {shown}"
        );
    }
}

/// XSD 1.1's `explicitTimezone` (Part 2, 4.3.14): its value, where it applies, the rule
/// that a required or prohibited timezone stays so, a fixed facet kept (Part 2, 4.3, for
/// every facet), and that XSD 1.0 has no such facet.
#[test]
fn explicit_timezone_errors_are_located() {
    let restriction = |base: &str, facets: &str| {
        format!(
            "<xs:simpleType name=\"T\"><xs:restriction base=\"{base}\">{facets}</xs:restriction></xs:simpleType>\n"
        )
    };
    let zone = |v: &str| format!("<xs:explicitTimezone value=\"{v}\"/>");
    for (body, error) in [
        (
            restriction("xs:dateTime", &zone("sometimes")),
            "\"sometimes\" is not a valid value of xs:explicitTimezone",
        ),
        (
            restriction("xs:duration", &zone("required")),
            "xs:explicitTimezone does not apply to a type derived from xs:duration",
        ),
        (
            restriction("xs:dateTimeStamp", &zone("optional")),
            // dateTimeStamp's timezone is required and fixed (Part 2, 3.4.28).
            "explicitTimezone \"optional\" changes the base type's explicitTimezone \"required\", which is fixed",
        ),
        (
            format!(
                "{}<xs:simpleType name=\"U\"><xs:restriction base=\"T\">{}</xs:restriction></xs:simpleType>\n",
                restriction("xs:time", &zone("prohibited")),
                zone("required")
            ),
            "explicitTimezone \"required\" loosens the base type's \"prohibited\"",
        ),
        (
            format!(
                "{}<xs:simpleType name=\"U\"><xs:restriction base=\"T\"><xs:maxLength value=\"3\"/></xs:restriction></xs:simpleType>\n",
                restriction("xs:string", "<xs:maxLength value=\"4\" fixed=\"true\"/>"),
            ),
            "maxLength \"3\" changes the base type's maxLength \"4\", which is fixed",
        ),
    ] {
        let (verdict, shown) = check_body_1_1(&body);
        assert_eq!(verdict, Verdict::Invalid, "{body}\n{shown}");
        assert!(shown.contains(error), "{body}\nwanted {error}\n{shown}");
    }
    // Kept within its rule, and restated where fixed: valid.
    let (verdict, shown) = check_body_1_1(&format!(
        "{}<xs:simpleType name=\"U\"><xs:restriction base=\"T\">{}<xs:maxInclusive value=\"2000\" fixed=\"true\"/></xs:restriction></xs:simpleType>\n",
        restriction("xs:gYear", &zone("optional")),
        zone("prohibited")
    ));
    assert_eq!(verdict, Verdict::Supported, "{shown}");
    // XSD 1.0 has no explicitTimezone.
    let (_dir, path) = schema_file(&format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{}</xs:schema>\n",
        restriction("xs:date", &zone("required"))
    ));
    let report = check_files_allowed(&[path], &[], &Allowed::new());
    assert_eq!(report.verdict, Verdict::Invalid, "{}", report.diagnostics);
}

/// `diff` of an explicitTimezone added: a document with a zone-less value breaks, and
/// the change is named.
#[test]
fn diff_names_an_explicit_timezone_and_finds_its_witness() {
    use boardxml_codegen::diff::{self, docs::Verdict as Breaks};
    let schema = |facet: &str| {
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\" vc:minVersion=\"1.1\">\n<xs:element name=\"at\" type=\"At\"/>\n<xs:simpleType name=\"At\"><xs:restriction base=\"xs:dateTime\">{facet}</xs:restriction></xs:simpleType>\n</xs:schema>\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.xsd"), dir.path().join("new.xsd"));
    std::fs::write(&old, schema("<xs:explicitTimezone value=\"optional\"/>")).unwrap();
    std::fs::write(&new, schema("<xs:explicitTimezone value=\"required\"/>")).unwrap();
    let report = diff::diff_files(&old, &new).unwrap();
    let change = report
        .changes
        .iter()
        .find(|c| c.kind == "timezone-changed")
        .unwrap_or_else(|| panic!("{:#?}", report.changes));
    assert_eq!(
        change.summary,
        "explicitTimezone of At: optional -> required"
    );
    let Breaks::Yes { reason, .. } = &change.old_break else {
        panic!("{:?}", change.old_break)
    };
    assert!(reason.contains("2000-01-01T00:00:00"), "{reason}");
    // Back the other way, no OLD document breaks.
    let report = diff::diff_files(&new, &old).unwrap();
    assert!(!report.may_break(), "{:?}", report.old_break);
}

/// A pattern is read by its document's version: XSD 1.1 takes a literal hyphen anywhere
/// in a character group (Part 2, G.4.2.3), 1.0 only at the group's ends.
#[test]
fn patterns_are_read_as_their_documents_version() {
    let body = "<xs:simpleType name=\"Code\"><xs:restriction base=\"xs:string\"><xs:pattern value=\"[a-c-1-4]+\"/></xs:restriction></xs:simpleType>\n";
    let (verdict, shown) = check_body_1_1(body);
    assert_eq!(verdict, Verdict::Supported, "{shown}");
    let (_dir, path) = schema_file(&format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}</xs:schema>\n"
    ));
    let report = check_files_allowed(std::slice::from_ref(&path), &[], &Allowed::new());
    assert_eq!(report.verdict, Verdict::Invalid);
    assert!(
        report
            .diagnostics
            .to_string()
            .contains("`-` is only allowed at the start or end of a character group"),
        "{}",
        report.diagnostics
    );
    // Read as 1.1, the generated pattern takes the hyphen as a character.
    let schema = read(&path);
    let TypeKind::Restriction(r) = &schema.types["Code"].kind else {
        panic!("{:?}", schema.types["Code"].kind)
    };
    let rust = &r.facets.patterns[0].rust;
    let re = regex::Regex::new(rust).unwrap();
    assert!(re.is_match("a-3") && !re.is_match("d"), "{rust}");
}

/// XSD 1.1's `substitutionGroup` is a list of heads (Part 1, 3.3.2): each is resolved,
/// and the member's type must derive from each head's; 1.0 takes one QName.
#[test]
fn an_element_may_have_several_substitution_group_heads() {
    let heads = "<xs:element name=\"a\" type=\"xs:decimal\"/>\n<xs:element name=\"b\" type=\"xs:integer\"/>\n";
    let (verdict, shown) = check_body_1_1(&format!(
        "{heads}<xs:element name=\"m\" type=\"xs:int\" substitutionGroup=\"a b\"/>\n"
    ));
    assert_eq!(verdict, Verdict::Supported, "{shown}");
    // Of a's type (decimal) but not derived from b's (integer).
    let (verdict, shown) = check_body_1_1(&format!(
        "{heads}<xs:element name=\"m\" type=\"xs:decimal\" substitutionGroup=\"b a\"/>\n"
    ));
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(shown.contains("substitution group head \"b\""), "{shown}");
    assert_eq!(shown.matches("error:").count(), 1, "{shown}");
    let (verdict, shown) = check_body_1_1(&format!(
        "{heads}<xs:element name=\"m\" type=\"xs:int\" substitutionGroup=\"a nope\"/>\n"
    ));
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(shown.contains("nope"), "{shown}");
    // XSD 1.0: one QName.
    let (_dir, path) = schema_file(&format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{heads}<xs:element name=\"m\" type=\"xs:int\" substitutionGroup=\"a b\"/>\n</xs:schema>\n"
    ));
    let report = check_files_allowed(&[path], &[], &Allowed::new());
    assert_eq!(report.verdict, Verdict::Invalid, "{}", report.diagnostics);
    assert!(
        report
            .diagnostics
            .to_string()
            .contains("\"a b\" is not a qualified name"),
        "{}",
        report.diagnostics
    );
}

/// XSD 1.1's all groups: an element may repeat (not yet in mixed content, exit 3), and
/// an all group extended by an all group is one group; XSD 1.0 refuses both.
#[test]
fn all_groups_repeat_and_extend_in_1_1_only() {
    let repeating = |mixed: &str| {
        format!("<xs:complexType name=\"T\"{mixed}><xs:all><xs:element name=\"a\" maxOccurs=\"3\"/><xs:element name=\"b\"/></xs:all></xs:complexType>\n")
    };
    let extended = "<xs:complexType name=\"B\"><xs:all><xs:element name=\"a\"/></xs:all></xs:complexType>\n<xs:complexType name=\"E\"><xs:complexContent><xs:extension base=\"B\"><xs:all><xs:element name=\"b\"/></xs:all></xs:extension></xs:complexContent></xs:complexType>\n";
    for body in [repeating(""), extended.to_string()] {
        let (verdict, shown) = check_body_1_1(&body);
        assert_eq!(verdict, Verdict::Supported, "{body}\n{shown}");
        let (_dir, path) = schema_file(&format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}</xs:schema>\n"
        ));
        let report = check_files_allowed(&[path], &[], &Allowed::new());
        assert_eq!(
            report.verdict,
            Verdict::Invalid,
            "{body}\n{}",
            report.diagnostics
        );
    }
    let (verdict, shown) = check_body_1_1(&repeating(" mixed=\"true\""));
    assert_eq!(verdict, Verdict::Unsupported, "{shown}");
    assert!(
        shown.contains("in mixed content that may occur more than once"),
        "{shown}"
    );
    // The extension's content is one all group, the base's element first.
    let (_dir, path) = schema_file(&format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{extended}</xs:schema>\n"
    ));
    let schema = read(&path);
    let TypeKind::Complex(c) = &schema.types["E"].kind else {
        panic!("{:?}", schema.types["E"].kind)
    };
    let boardxml_codegen::ir::Content::Elements(p) = &c.content else {
        panic!("{:?}", c.content)
    };
    let boardxml_codegen::ir::Term::All(items) = &p.term else {
        panic!("{:?}", p.term)
    };
    let names: Vec<&str> = items
        .iter()
        .map(|i| match &i.term {
            boardxml_codegen::ir::Term::Element(e) => e.name.as_str(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(names, ["a", "b"]);
}

/// XSD 1.1's `notQName` (3.10.2, 3.10.4.2, 3.10.6): the names a wildcard disallows, with
/// `##defined` (the schema's global declarations of its kind) and `##definedSibling` (the
/// element declarations of its content model) resolved into names; what each disallows
/// keeps a model deterministic that would not be otherwise; and the schema errors.
#[test]
fn not_qname_disallows_names_and_keywords() {
    use boardxml_codegen::ir::Term;
    let (_dir, path) = schema_file(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:t=\"urn:t\" targetNamespace=\"urn:t\" elementFormDefault=\"qualified\">\n\
         <xs:element name=\"g\"/><xs:attribute name=\"ga\"/>\n\
         <xs:complexType name=\"Open\"><xs:sequence><xs:element name=\"a\" maxOccurs=\"unbounded\"/>\
         <xs:any notQName=\"##definedSibling ##defined t:x\" minOccurs=\"0\"/></xs:sequence>\n\
         <xs:anyAttribute notQName=\"##defined t:y z\" processContents=\"skip\"/></xs:complexType>\n\
         </xs:schema>\n",
    );
    let schema = read(&path);
    let TypeKind::Complex(c) = &schema.types["Open"].kind else {
        panic!()
    };
    let attribute = c.any_attribute.as_ref().expect("a wildcard");
    assert_eq!(attribute.disallowed.names, ["z", "{urn:t}ga", "{urn:t}y"]);
    assert!(attribute.allows_name(None, "ga") && !attribute.allows_name(None, "z"));
    let boardxml_codegen::ir::Content::Elements(p) = &c.content else {
        panic!()
    };
    let Term::Sequence(items) = &p.term else {
        panic!()
    };
    let Term::Any(element) = &items[1].term else {
        panic!()
    };
    assert_eq!(
        element.disallowed.names,
        ["{urn:t}a", "{urn:t}g", "{urn:t}x"]
    );
    assert_eq!(element.pattern(), "*\t{urn:t}a {urn:t}g {urn:t}x");
    // Either way the model is deterministic (1.1's element wins, or the name is not the
    // wildcard's at all).
    let judge = check_body_1_1;
    for not in ["b", "a", "##definedSibling"] {
        let (verdict, shown) = judge(&format!(
            "<xs:complexType name=\"C\"><xs:sequence><xs:element name=\"a\" maxOccurs=\"unbounded\"/><xs:any notQName=\"{not}\"/></xs:sequence></xs:complexType>\n"
        ));
        assert_eq!(verdict, Verdict::Supported, "{not}: {shown}");
    }
    // The errors, each located at its wildcard.
    for (body, said) in [
        (
            "<xs:any notQName=\":a\"/>",
            "\":a\" is not a qualified name",
        ),
        (
            "<xs:any notQName=\"p:a\"/>",
            "the prefix \"p\" of \"p:a\" is not bound",
        ),
        (
            "<xs:any notQName=\"##other\"/>",
            "\"##other\" is not a keyword",
        ),
        (
            "<xs:any namespace=\"urn:x\" notQName=\"a\"/>",
            "wc-props-correct.4",
        ),
    ] {
        let (verdict, shown) = judge(&format!(
            "<xs:complexType name=\"C\"><xs:sequence>{body}</xs:sequence></xs:complexType>\n"
        ));
        assert_eq!(verdict, Verdict::Invalid, "{body}: {shown}");
        assert!(
            shown.contains("t.xsd:2:") && shown.contains(said),
            "{body}: {shown}"
        );
    }
    let (verdict, shown) = judge(
        "<xs:complexType name=\"C\"><xs:anyAttribute notQName=\"##definedSibling\"/></xs:complexType>\n",
    );
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(shown.contains("is for xs:any only"), "{shown}");
    // A restriction keeps its base's ##defined (3.10.6.2 clause 3), even where it names
    // every global declaration itself.
    let (verdict, shown) = judge(
        "<xs:attribute name=\"g\"/>\n\
         <xs:complexType name=\"B\"><xs:anyAttribute notQName=\"##defined\"/></xs:complexType>\n\
         <xs:complexType name=\"R\"><xs:complexContent><xs:restriction base=\"B\"><xs:anyAttribute notQName=\"g\"/></xs:restriction></xs:complexContent></xs:complexType>\n",
    );
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(
        shown.contains("lacks the base's notQName keyword ##defined"),
        "{shown}"
    );
    // And disallows what its base disallows.
    let (verdict, shown) = judge(
        "<xs:complexType name=\"B\"><xs:anyAttribute notQName=\"a b\"/></xs:complexType>\n\
         <xs:complexType name=\"R\"><xs:complexContent><xs:restriction base=\"B\"><xs:anyAttribute notQName=\"a\"/></xs:restriction></xs:complexContent></xs:complexType>\n",
    );
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(
        shown.contains("allows the name b, which the base's wildcard disallows"),
        "{shown}"
    );
}

/// XSD 1.1's Unique Particle Attribution (3.8.6.4): an element particle and a wildcard may
/// compete, and the element wins; read as 1.0 the same model is ambiguous. The wildcard
/// disallows the names it competes with where that is what 1.1 means in every state; where
/// it is not (the wildcard alone may take the name elsewhere), not supported.
#[test]
fn an_element_particle_beats_a_wildcard_in_1_1() {
    use boardxml_codegen::ir::Term;
    let body = "<xs:complexType name=\"C\"><xs:sequence><xs:any minOccurs=\"0\" maxOccurs=\"unbounded\" processContents=\"skip\"/><xs:element name=\"a\"/></xs:sequence></xs:complexType>\n";
    let (verdict, shown) = check_body_1_1(body);
    assert_eq!(verdict, Verdict::Supported, "{shown}");
    let (_dir, path) = schema_file(&format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}</xs:schema>\n"
    ));
    let schema = read(&path);
    let TypeKind::Complex(c) = &schema.types["C"].kind else {
        panic!()
    };
    let boardxml_codegen::ir::Content::Elements(p) = &c.content else {
        panic!()
    };
    let Term::Sequence(items) = &p.term else {
        panic!()
    };
    let Term::Any(w) = &items[0].term else {
        panic!()
    };
    assert_eq!(w.disallowed.names, ["a"]);
    // As 1.0: ambiguous.
    let (_dir, path) = schema_file(&format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}</xs:schema>\n"
    ));
    let report = check_files_allowed(&[path], &[], &Allowed::new());
    assert_eq!(report.verdict, Verdict::Invalid);
    assert!(report
        .diagnostics
        .to_string()
        .contains("Unique Particle Attribution"));
    // A wildcard that must occur first takes an <a> there, and yields it after: not built.
    let (verdict, shown) = check_body_1_1(
        "<xs:complexType name=\"C\"><xs:sequence><xs:any maxOccurs=\"unbounded\"/><xs:element name=\"a\"/></xs:sequence></xs:complexType>\n",
    );
    assert_eq!(verdict, Verdict::Unsupported, "{shown}");
    assert!(
        shown.contains("t.xsd:2:") && shown.contains("an element <a> goes to an element particle"),
        "{shown}"
    );
    // Two wildcards that compete are still an error.
    let (verdict, shown) = check_body_1_1(
        "<xs:complexType name=\"C\"><xs:choice><xs:any namespace=\"urn:a\"/><xs:any namespace=\"##any\"/></xs:choice></xs:complexType>\n",
    );
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
}

/// An overriding component stands in the document it overrides (Part 1, 4.2.5, the
/// override transformation): that document's `defaultOpenContent` and `defaultAttributes`
/// apply to it, not those of the document holding the `xs:override` (open043, open045,
/// s3_4_2_4ii08).
#[test]
fn an_overriding_type_takes_the_defaults_of_the_document_it_overrides() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    const XS: &str = "xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"";
    write(
        "base.xsd",
        &format!(
            "<xs:schema {XS}>\n<xs:complexType name=\"Alpha\"><xs:sequence/></xs:complexType>\n\
             <xs:complexType name=\"Beta\"><xs:sequence/></xs:complexType>\n</xs:schema>"
        ),
    );
    let main = write(
        "main.xsd",
        &format!(
            "<xs:schema {XS} defaultAttributes=\"stamped\">\n\
             <xs:override schemaLocation=\"base.xsd\">\n\
             <xs:complexType name=\"Beta\"><xs:sequence><xs:element name=\"b\"/></xs:sequence></xs:complexType>\n\
             </xs:override>\n\
             <xs:defaultOpenContent mode=\"suffix\"><xs:any namespace=\"urn:open\" processContents=\"lax\"/></xs:defaultOpenContent>\n\
             <xs:attributeGroup name=\"stamped\"><xs:attribute name=\"stamp\"/></xs:attributeGroup>\n\
             <xs:complexType name=\"Gamma\"><xs:sequence><xs:element name=\"g\"/></xs:sequence></xs:complexType>\n\
             <xs:element name=\"doc\"><xs:complexType><xs:sequence><xs:element name=\"a\" type=\"Alpha\"/><xs:element name=\"b\" type=\"Beta\"/><xs:element name=\"g\" type=\"Gamma\"/></xs:sequence></xs:complexType></xs:element>\n\
             </xs:schema>"
        ),
    );
    let schema = read(&main);
    let open = |ty: &str| {
        let TypeKind::Complex(c) = &schema.types[ty].kind else {
            panic!("{ty} is not complex")
        };
        format!("{:?}", c.content).contains("urn:open")
    };
    // The type of the document with the defaults takes them.
    assert!(open("Gamma"));
    assert_eq!(attributes(&schema, "Gamma"), ["stamp"]);
    // Beta, written in that document's xs:override, stands in base.xsd, which has none;
    // so does Alpha, base.xsd's own.
    assert!(!open("Beta"));
    assert!(attributes(&schema, "Beta").is_empty());
    assert!(!open("Alpha"));
}

/// XSD 1.1's `xs:override` (Part 1, 4.2.5): the overridden document's components of the
/// names the override gives are replaced by its children, in the documents it includes
/// too; a child that replaces nothing is no component; the errors are located.
#[test]
fn override_replaces_components_by_name() {
    use boardxml_codegen::ir::{Builtin, TypeRef, ValueType};
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    const XS: &str = "xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"";
    write(
        "parts.xsd",
        &format!("<xs:schema {XS}><xs:simpleType name=\"Size\"><xs:restriction base=\"xs:int\"/></xs:simpleType></xs:schema>"),
    );
    write(
        "base.xsd",
        &format!(
            "<xs:schema {XS}><xs:include schemaLocation=\"parts.xsd\"/>\n\
             <xs:element name=\"doc\"><xs:complexType><xs:sequence><xs:element name=\"p\" maxOccurs=\"unbounded\"/></xs:sequence></xs:complexType></xs:element>\n\
             <xs:element name=\"box\" type=\"Size\"/>\n\
             </xs:schema>"
        ),
    );
    let main = write(
        "main.xsd",
        &format!(
            "<xs:schema {XS}>\n<xs:override schemaLocation=\"base.xsd\">\n\
             <xs:element name=\"doc\" type=\"xs:date\"/>\n\
             <xs:simpleType name=\"Size\"><xs:restriction base=\"xs:string\"/></xs:simpleType>\n\
             <xs:element name=\"extra\" type=\"xs:string\"/>\n\
             </xs:override>\n</xs:schema>"
        ),
    );
    let schema = read(&main);
    // Replaced in the overridden document, and in the one it includes.
    assert_eq!(
        schema.roots["doc"].type_ref,
        TypeRef::Builtin(Builtin::Value(ValueType::Date))
    );
    assert_eq!(schema.roots["box"].type_ref, TypeRef::Named("Size".into()));
    let TypeKind::Restriction(size) = &schema.types["Size"].kind else {
        panic!("a restriction")
    };
    assert_eq!(size.base, TypeRef::Builtin(Builtin::String));
    // A child that overrides nothing is no component.
    assert!(
        !schema.roots.contains_key("extra"),
        "{:?}",
        schema.roots.keys()
    );
    // A reference to such a child finds nothing.
    let bad = write(
        "bad.xsd",
        &format!(
            "<xs:schema {XS}>\n<xs:override schemaLocation=\"base.xsd\">\n\
             <xs:element name=\"doc\" type=\"Zoned\"/>\n\
             <xs:simpleType name=\"Zoned\"><xs:restriction base=\"xs:date\"/></xs:simpleType>\n\
             </xs:override>\n</xs:schema>"
        ),
    );
    let report = check_files_allowed(&[bad], &[], &as_1_1());
    assert_eq!(report.verdict, Verdict::Invalid);
    let shown = report.diagnostics.to_string();
    assert!(
        shown.contains("bad.xsd:3:") && shown.contains("no type named \"Zoned\""),
        "{shown}"
    );
    // An overriding type derived from itself: there is no original to derive from.
    let selfish = write(
        "self.xsd",
        &format!(
            "<xs:schema {XS}>\n<xs:override schemaLocation=\"base.xsd\">\n\
             <xs:simpleType name=\"Size\"><xs:restriction base=\"Size\"/></xs:simpleType>\n\
             </xs:override>\n</xs:schema>"
        ),
    );
    let report = check_files_allowed(&[selfish], &[], &as_1_1());
    assert_eq!(report.verdict, Verdict::Invalid);
    let shown = report.diagnostics.to_string();
    assert!(
        shown.contains("self.xsd:3:") && shown.contains("derived from itself"),
        "{shown}"
    );
    // One component overridden by two override elements: two components of one name.
    let twice = write(
        "twice.xsd",
        &format!(
            "<xs:schema {XS}>\n<xs:override schemaLocation=\"base.xsd\"><xs:element name=\"doc\" type=\"xs:date\"/></xs:override>\n\
             <xs:override schemaLocation=\"base.xsd\"><xs:element name=\"doc\" type=\"xs:time\"/></xs:override>\n</xs:schema>"
        ),
    );
    let report = check_files_allowed(&[twice], &[], &as_1_1());
    assert_eq!(report.verdict, Verdict::Invalid);
    let shown = report.diagnostics.to_string();
    assert!(
        shown.contains("twice.xsd:3:") && shown.contains("is overridden twice"),
        "{shown}"
    );
    // Read as XSD 1.0, xs:override is an error.
    let report = check_files_allowed(&[main], &[], &Allowed::new());
    assert_eq!(report.verdict, Verdict::Invalid);
    assert!(
        report
            .diagnostics
            .to_string()
            .contains("xs:override is an element of XSD 1.1, not of XSD 1.0"),
        "{}",
        report.diagnostics
    );
}

/// XSD 1.1 drops src-attribute_group.3: an attribute group may refer to itself, directly
/// or through others, and the reference that closes the cycle adds nothing. Every group of
/// a cycle has the attributes of all of them, whichever a type names first (the groups
/// read inside the cycle are not kept half read). XSD 1.0 still refuses the cycle.
#[test]
fn attribute_groups_may_refer_to_themselves_in_1_1() {
    let body = "<xs:attributeGroup name=\"A\"><xs:attributeGroup ref=\"B\"/><xs:attribute name=\"x\"/></xs:attributeGroup>\n\
        <xs:attributeGroup name=\"B\"><xs:attributeGroup ref=\"A\"/><xs:attribute name=\"y\"/></xs:attributeGroup>\n\
        <xs:attributeGroup name=\"S\"><xs:attributeGroup ref=\"S\"/><xs:attribute name=\"s\"/></xs:attributeGroup>\n\
        <xs:complexType name=\"ByA\"><xs:attributeGroup ref=\"A\"/></xs:complexType>\n\
        <xs:complexType name=\"ByB\"><xs:attributeGroup ref=\"B\"/></xs:complexType>\n\
        <xs:complexType name=\"Self\"><xs:attributeGroup ref=\"S\"/></xs:complexType>\n";
    let text =
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}</xs:schema>\n");
    let (verdict, shown) = check_1_1(&text);
    assert_eq!(verdict, Verdict::Supported, "{shown}");
    let (_dir, path) = schema_file(&text);
    let schema = read(&path);
    assert_eq!(attributes(&schema, "ByA"), ["x", "y"]);
    assert_eq!(attributes(&schema, "ByB"), ["x", "y"]);
    assert_eq!(attributes(&schema, "Self"), ["s"]);
    let report = check_files_allowed(&[path], &[], &Allowed::new());
    assert_eq!(report.verdict, Verdict::Invalid, "{}", report.diagnostics);
    assert!(
        report
            .diagnostics
            .to_string()
            .contains("an attribute group that contains itself"),
        "{}",
        report.diagnostics
    );
}

/// XSD 1.1's xs:all may hold references to all groups (occurring once), whose members
/// join it, and may have maxOccurs="0" (no content at all); XSD 1.0 allows neither.
#[test]
fn all_group_references_and_absent_all_groups_in_1_1() {
    let nested = "<xs:group name=\"bc\"><xs:all><xs:element name=\"b\"/><xs:element name=\"c\" maxOccurs=\"2\"/></xs:all></xs:group>\n\
        <xs:complexType name=\"T\"><xs:all><xs:element name=\"a\"/><xs:group ref=\"bc\"/></xs:all></xs:complexType>\n";
    let absent = "<xs:complexType name=\"N\"><xs:all minOccurs=\"0\" maxOccurs=\"0\"><xs:element name=\"a\"/></xs:all></xs:complexType>\n";
    for body in [nested, absent] {
        let text = format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}</xs:schema>\n"
        );
        let (verdict, shown) = check_1_1(&text);
        assert_eq!(verdict, Verdict::Supported, "{body}\n{shown}");
        let (_dir, path) = schema_file(&text);
        let report = check_files_allowed(&[path], &[], &Allowed::new());
        assert_eq!(
            report.verdict,
            Verdict::Invalid,
            "{body}\n{}",
            report.diagnostics
        );
    }
    use boardxml_codegen::ir::{Content, Term};
    let content = |body: &str, ty: &str| {
        let (_dir, path) = schema_file(&format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}</xs:schema>\n"
        ));
        let schema = read(&path);
        let TypeKind::Complex(c) = &schema.types[ty].kind else {
            panic!("{ty}")
        };
        c.content.clone()
    };
    let Content::Elements(p) = content(nested, "T") else {
        panic!()
    };
    let Term::All(items) = &p.term else {
        panic!("{:?}", p.term)
    };
    let names: Vec<(&str, Option<u32>)> = items
        .iter()
        .map(|i| match &i.term {
            Term::Element(e) => (e.name.as_str(), i.max),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(names, [("a", Some(1)), ("b", Some(1)), ("c", Some(2))]);
    // An absent group (maxOccurs 0) makes the content type empty (3.4.2.3.3 4.1.1.4).
    let absent_content = content(absent, "N");
    assert!(
        matches!(absent_content, Content::Empty),
        "{absent_content:?}"
    );
}

/// XSD 1.1's `final` on a simple type may say "extension" (its simpleDerivationSet gained
/// it): a complex type may then not extend the simple type. In XSD 1.0 the token is not
/// a value of the attribute.
#[test]
fn simple_type_final_extension_in_1_1() {
    let simple = "<xs:simpleType name=\"d\" final=\"extension\"><xs:restriction base=\"xs:date\"/></xs:simpleType>\n";
    let (verdict, shown) = check_body_1_1(simple);
    assert_eq!(verdict, Verdict::Supported, "{shown}");
    let extended = format!("{simple}<xs:complexType name=\"c\"><xs:simpleContent><xs:extension base=\"d\"><xs:attribute name=\"a\"/></xs:extension></xs:simpleContent></xs:complexType>\n");
    let (verdict, shown) = check_body_1_1(&extended);
    assert_eq!(verdict, Verdict::Invalid, "{shown}");
    assert!(shown.contains("cos-ct-extends.1.1"), "{shown}");
    let (_dir, path) = schema_file(&format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{simple}</xs:schema>\n"
    ));
    let report = check_files_allowed(&[path], &[], &Allowed::new());
    assert_eq!(report.verdict, Verdict::Invalid, "{}", report.diagnostics);
    assert!(
        report
            .diagnostics
            .to_string()
            .contains("final=\"extension\" is not a valid value"),
        "{}",
        report.diagnostics
    );
}

/// Type alternatives on an element of a declared type other than xs:anyType: the
/// alternatives' types derive from it (e-props-correct.7), it is the default when no
/// alternative leaves out its test, an alternative may give its type inline, two
/// alternatives may choose one type, and only the last may leave out its test.
#[test]
fn type_alternatives_on_a_declared_type() {
    let types = "<xs:complexType name=\"Title\" mixed=\"true\"><xs:attribute name=\"kind\" type=\"xs:string\"/></xs:complexType>\n\
        <xs:complexType name=\"Plain\"><xs:simpleContent><xs:restriction base=\"Title\"><xs:simpleType><xs:restriction base=\"xs:string\"/></xs:simpleType></xs:restriction></xs:simpleContent></xs:complexType>\n";
    let element = |alternatives: &str| {
        format!("{types}<xs:element name=\"title\" type=\"Title\">{alternatives}</xs:element>\n")
    };
    let good = element(
        "<xs:alternative test=\"@kind = 'plain'\" type=\"Plain\"/>\
         <xs:alternative test=\"@kind = 'text'\" type=\"Plain\"/>\
         <xs:alternative test=\"@kind = 'empty'\"><xs:complexType><xs:complexContent><xs:restriction base=\"Title\"/></xs:complexContent></xs:complexType></xs:alternative>",
    );
    let (verdict, shown) = check_body_1_1(&good);
    assert_eq!(verdict, Verdict::Supported, "{shown}");
    let (_dir, path) = schema_file(&format!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{good}</xs:schema>\n"
    ));
    let schema = read(&path);
    let table = schema
        .types
        .values()
        .find_map(|d| match &d.kind {
            TypeKind::Alternatives(a) => Some(a.clone()),
            _ => None,
        })
        .expect("a type table");
    let chosen: Vec<String> = table
        .iter()
        .map(|a| match &a.type_ref {
            boardxml_codegen::ir::TypeRef::Named(n) => n.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    // The inline type is named after the element; the declared type is the default.
    assert_eq!(chosen, ["Plain", "Plain", "TitleAlternative", "Title"]);
    assert!(table.last().unwrap().test.is_none());
    for (alternatives, expected) in [
        (
            "<xs:alternative type=\"Plain\"/><xs:alternative test=\"@kind\" type=\"Plain\"/>",
            "src-element.5",
        ),
        (
            "<xs:alternative test=\"@kind\" type=\"xs:string\"/>",
            "e-props-correct.7: the alternative's type xs:string is not derived from the element's declared type \"Title\"",
        ),
        (
            "<xs:alternative test=\"@kind\" type=\"Plain\"><xs:simpleType><xs:restriction base=\"xs:string\"/></xs:simpleType></xs:alternative>",
            "both type= and an inline type",
        ),
    ] {
        let (verdict, shown) = check_body_1_1(&element(alternatives));
        assert_eq!(verdict, Verdict::Invalid, "{alternatives}\n{shown}");
        assert!(shown.contains(expected), "{alternatives}\n{shown}");
    }
}

/// A built-in simple type may be an alternative's type; and XSD 1.1's Element
/// Declarations Consistent (3.8.6.3) holds a local declaration to the global one of its
/// name that a strict or lax wildcard of the same model may match (a skip wildcard
/// matches nothing that is validated).
#[test]
fn builtin_alternatives_and_declarations_a_wildcard_may_match() {
    let schema = |process: &str| {
        format!(
            "<xs:element name=\"root\" type=\"zing\"/>\n\
             <xs:complexType name=\"zing\"><xs:sequence><xs:element name=\"a\" type=\"xs:date\"/>\
             <xs:any namespace=\"##local\" processContents=\"{process}\"/></xs:sequence></xs:complexType>\n\
             <xs:element name=\"a\"><xs:alternative type=\"xs:integer\"/></xs:element>\n"
        )
    };
    let (verdict, shown) = check_body_1_1(&schema("skip"));
    assert_eq!(verdict, Verdict::Supported, "{shown}");
    for process in ["lax", "strict"] {
        let (verdict, shown) = check_body_1_1(&schema(process));
        assert_eq!(verdict, Verdict::Invalid, "{process}: {shown}");
        assert!(
            shown.contains("element <a> has another type table (xs:alternative) here than the global declaration of its name, which the wildcard at 3:"),
            "{shown}"
        );
    }
}

/// Part 2 of XSD 1.1 has a year 0 (3.3.7.2) and spells positive infinity `+INF` (3.3.5.1);
/// 1.0 has neither. The bounds, enumerations and defaults of a schema are read by the
/// lexical spaces of the version it is read as.
#[test]
fn the_lexical_spaces_are_the_versions() {
    let body = "<xs:simpleType name=\"Era\"><xs:restriction base=\"xs:gYearMonth\"><xs:enumeration value=\"0000-12\"/><xs:enumeration value=\"-0000-06\"/><xs:enumeration value=\"0001-01\"/></xs:restriction></xs:simpleType>\n<xs:simpleType name=\"Since\"><xs:restriction base=\"xs:dateTime\"><xs:minInclusive value=\"-0001-01-01T00:00:00\"/><xs:maxExclusive value=\"0000-06-01T00:00:00\"/></xs:restriction></xs:simpleType>\n<xs:element name=\"reading\"><xs:complexType><xs:attribute name=\"high\" type=\"xs:double\" default=\"+INF\"/></xs:complexType></xs:element>\n";
    let (verdict, diagnostics) = check_body_1_1(body);
    assert_eq!(verdict, Verdict::Supported, "{diagnostics}");
    let text =
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}</xs:schema>\n");
    let (_dir, path) = schema_file(&text);
    let report = check_files_allowed(&[path], &[], &Allowed::new());
    let diagnostics = report.diagnostics.to_string();
    assert_eq!(report.verdict, Verdict::Invalid, "{diagnostics}");
    for refused in ["\"0000-12\"", "\"-0000-06\"", "\"+INF\""] {
        assert!(diagnostics.contains(refused), "{refused}: {diagnostics}");
    }
    assert!(!diagnostics.contains("0001-01"), "{diagnostics}");
    // Ordered as years of 1.1: -0001 (2 BCE) before 0000 (1 BCE), so the range is not empty.
    let reversed = body.replace("-0001-01-01T00:00:00", "0000-07-01T00:00:00");
    let (verdict, diagnostics) = check_body_1_1(&reversed);
    assert_eq!(verdict, Verdict::Invalid, "{diagnostics}");
    assert!(diagnostics.contains("minInclusive"), "{diagnostics}");
}

/// XSD 1.1's assertion facet: `check` compiles each test (a test that is no XPath
/// expression, or names an unbound prefix, makes the schema invalid), and `diff` names an
/// added assertion and cannot tell what it breaks (no witness is claimed for an XPath test).
#[test]
fn assertions_are_compiled_by_check_and_named_by_diff() {
    use boardxml_codegen::diff::{self, docs::Verdict as Breaks};
    let schema = |facets: &str| {
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\" vc:minVersion=\"1.1\">\n<xs:element name=\"n\" type=\"N\"/>\n<xs:simpleType name=\"N\"><xs:restriction base=\"xs:int\">{facets}</xs:restriction></xs:simpleType>\n</xs:schema>\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.xsd");
    for (facets, verdict) in [
        (
            "<xs:assertion test=\"$value mod 2 = 0\"/>",
            Verdict::Supported,
        ),
        (
            "<xs:assertion test=\"$value gt xs:int(3)\"/>",
            Verdict::Supported,
        ),
        ("<xs:assertion test=\"$value +\"/>", Verdict::Invalid),
        ("<xs:assertion test=\"p:f($value)\"/>", Verdict::Invalid),
        ("<xs:assertion test=\"$other\"/>", Verdict::Invalid),
        // Not known to the engine: not passed off as the schema's error.
        (
            "<xs:assertion test=\"no-such-function($value)\"/>",
            Verdict::Unsupported,
        ),
    ] {
        std::fs::write(&path, schema(facets)).unwrap();
        let report = check_files_allowed(std::slice::from_ref(&path), &[], &Allowed::new());
        assert_eq!(report.verdict, verdict, "{facets}: {}", report.diagnostics);
    }
    // Read as XSD 1.0, the assertion is an error.
    std::fs::write(
        &path,
        schema("<xs:assertion test=\"true()\"/>").replace(" vc:minVersion=\"1.1\"", ""),
    )
    .unwrap();
    let report = check_files_allowed(std::slice::from_ref(&path), &[], &Allowed::new());
    assert_eq!(report.verdict, Verdict::Invalid, "{}", report.diagnostics);

    let (old, new) = (dir.path().join("old.xsd"), dir.path().join("new.xsd"));
    std::fs::write(&old, schema("<xs:maxInclusive value=\"9\"/>")).unwrap();
    std::fs::write(
        &new,
        schema("<xs:maxInclusive value=\"9\"/><xs:assertion test=\"$value mod 2 = 0\"/>"),
    )
    .unwrap();
    let report = diff::diff_files(&old, &new).unwrap();
    let change = report
        .changes
        .iter()
        .find(|c| c.kind == "assertion-changed")
        .unwrap_or_else(|| panic!("{:#?}", report.changes));
    assert_eq!(
        change.summary,
        "assertion of N: (none) -> \"$value mod 2 = 0\""
    );
    let Breaks::CannotTell(reason) = &change.old_break else {
        panic!("{:?}", change.old_break)
    };
    assert!(
        reason.contains("XPath assertions are not compared"),
        "{reason}"
    );
    // The same schema on both sides: no change.
    let report = diff::diff_files(&new, &new).unwrap();
    assert!(report.changes.is_empty(), "{:#?}", report.changes);
}

/// XSD 1.1's `xs:assert` on complex types: `check` compiles each test (on the type or in
/// its derivation; no XPath expression makes the schema invalid), and `diff` names an added,
/// removed or changed assertion and cannot tell what it breaks.
#[test]
fn complex_assertions_are_compiled_by_check_and_named_by_diff() {
    use boardxml_codegen::diff::{self, docs::Verdict as Breaks};
    let schema = |asserts: &str, derived: &str| {
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\" vc:minVersion=\"1.1\">\n<xs:element name=\"r\" type=\"Span\"/>\n<xs:complexType name=\"Range\"><xs:attribute name=\"min\" type=\"xs:int\"/><xs:attribute name=\"max\" type=\"xs:int\"/>{asserts}</xs:complexType>\n<xs:complexType name=\"Span\"><xs:complexContent><xs:extension base=\"Range\">{derived}</xs:extension></xs:complexContent></xs:complexType>\n</xs:schema>\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.xsd");
    for (asserts, derived, verdict) in [
        ("<xs:assert test=\"@min le @max\"/>", "", Verdict::Supported),
        (
            "",
            "<xs:assert test=\"@max - @min lt 10\"/>",
            Verdict::Supported,
        ),
        ("<xs:assert test=\"@min le\"/>", "", Verdict::Invalid),
        ("", "<xs:assert test=\"p:f(.)\"/>", Verdict::Invalid),
        ("<xs:assert/>", "", Verdict::Invalid),
    ] {
        std::fs::write(&path, schema(asserts, derived)).unwrap();
        let report = check_files_allowed(std::slice::from_ref(&path), &[], &Allowed::new());
        assert_eq!(
            report.verdict, verdict,
            "{asserts}{derived}: {}",
            report.diagnostics
        );
    }
    let (old, new) = (dir.path().join("old.xsd"), dir.path().join("new.xsd"));
    std::fs::write(&old, schema("", "")).unwrap();
    std::fs::write(&new, schema("<xs:assert test=\"@min le @max\"/>", "")).unwrap();
    let report = diff::diff_files(&old, &new).unwrap();
    let summaries: Vec<&str> = report
        .changes
        .iter()
        .filter(|c| c.kind == "assertion-changed")
        .map(|c| c.summary.as_str())
        .collect();
    // The base's and the derived type's (which has the base's assertions too).
    assert_eq!(
        summaries,
        [
            "assertions of Range added: none -> \"@min le @max\"",
            "assertions of Span added: none -> \"@min le @max\""
        ],
        "{:#?}",
        report.changes
    );
    for change in report
        .changes
        .iter()
        .filter(|c| c.kind == "assertion-changed")
    {
        let Breaks::CannotTell(reason) = &change.old_break else {
            panic!("{:?}", change.old_break)
        };
        assert!(
            reason.contains("XPath assertions are not compared"),
            "{reason}"
        );
    }
    let report = diff::diff_files(&new, &old).unwrap();
    assert!(
        report
            .changes
            .iter()
            .any(|c| c.summary == "assertions of Range removed: \"@min le @max\" -> none"),
        "{:#?}",
        report.changes
    );
    let report = diff::diff_files(&new, &new).unwrap();
    assert!(report.changes.is_empty(), "{:#?}", report.changes);
}

/// Type alternatives' tests beyond the attribute tests generated code makes are compiled by
/// `check` (a test that is no XPath expression, or names an unbound prefix, makes the
/// schema invalid; one that reads the document's or the schema's base URI, which the
/// element's copy does not have, is not supported), and `diff` shows a changed test and
/// cannot tell what it breaks.
#[test]
fn type_alternatives_xpath_tests_are_compiled_by_check_and_named_by_diff() {
    use boardxml_codegen::diff::{self, docs::Verdict as Breaks};
    let schema = |test: &str| {
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\" vc:minVersion=\"1.1\">\n<xs:element name=\"n\" type=\"xs:decimal\"><xs:alternative test=\"{test}\" type=\"xs:int\"/></xs:element>\n</xs:schema>\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.xsd");
    for (test, verdict) in [
        ("@size &lt; 5 and @size &gt; 0", Verdict::Supported),
        ("@size cast as xs:boolean", Verdict::Supported),
        ("self::n and count(@*) = 1", Verdict::Supported),
        ("@size +", Verdict::Invalid),
        ("p:f(@size)", Verdict::Invalid),
        ("$size = 1", Verdict::Invalid),
        (
            "resolve-QName(@kind, .) = xs:QName('xs:int')",
            Verdict::Supported,
        ),
        ("ends-with(base-uri(.), 'x.xml')", Verdict::Unsupported),
        ("static-base-uri() = ''", Verdict::Unsupported),
        // A test knows the built-in types only (3.12.6), and XPath 2.0 casts to no
        // xs:NOTATION.
        ("@size instance of xs:NMTOKENS", Verdict::Invalid),
        ("@size cast as xs:NOTATION", Verdict::Invalid),
        // Unprefixed, with no xpathDefaultNamespace: a type in no namespace, which no
        // built-in type is.
        ("@size cast as int = 1", Verdict::Invalid),
        ("no-such-function(@size)", Verdict::Unsupported),
    ] {
        std::fs::write(&path, schema(test)).unwrap();
        let report = check_files_allowed(std::slice::from_ref(&path), &[], &Allowed::new());
        assert_eq!(report.verdict, verdict, "{test}: {}", report.diagnostics);
    }
    // xpathDefaultNamespace is XPath's default element/type namespace: an unprefixed type
    // name is in it, on an alternative and on an assertion alike. An assertion may name
    // the schema's own types, which the engine does not know: a type it cannot find there
    // is not passed off as the schema's error.
    const XS: &str = "http://www.w3.org/2001/XMLSchema";
    let assertion = |test: &str, default: &str| {
        format!(
            "<xs:schema xmlns:xs=\"{XS}\" xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\" vc:minVersion=\"1.1\">\n<xs:element name=\"n\"><xs:simpleType><xs:restriction base=\"xs:string\"><xs:assertion test=\"{test}\" xpathDefaultNamespace=\"{default}\"/></xs:restriction></xs:simpleType></xs:element>\n</xs:schema>\n"
        )
    };
    for (text, verdict) in [
        (
            schema(
                "@size castable as int\" xpathDefaultNamespace=\"http://www.w3.org/2001/XMLSchema",
            ),
            Verdict::Supported,
        ),
        (
            assertion("$value castable as double", XS),
            Verdict::Supported,
        ),
        (
            assertion("$value castable as double", "urn:mine"),
            Verdict::Unsupported,
        ),
    ] {
        std::fs::write(&path, &text).unwrap();
        let report = check_files_allowed(std::slice::from_ref(&path), &[], &Allowed::new());
        assert_eq!(report.verdict, verdict, "{text}: {}", report.diagnostics);
    }

    let (old, new) = (dir.path().join("old.xsd"), dir.path().join("new.xsd"));
    std::fs::write(&old, schema("@size &gt; 0")).unwrap();
    std::fs::write(&new, schema("@size &gt; 1")).unwrap();
    let report = diff::diff_files(&old, &new).unwrap();
    let shown = format!("{:#?}", report.changes);
    assert!(
        shown.contains("@size > 0") && shown.contains("@size > 1"),
        "{shown}"
    );
    assert!(
        report
            .changes
            .iter()
            .all(|c| matches!(c.old_break, Breaks::CannotTell(_))),
        "{shown}"
    );
    let report = diff::diff_files(&new, &new).unwrap();
    assert!(report.changes.is_empty(), "{:#?}", report.changes);
}

/// A restriction whose own content model is empty takes only its open content's elements,
/// in either mode: judged by whether its base takes any number of them (3.4.6.4, the
/// suite's open021 and open022), not by comparing modes.
#[test]
fn an_empty_restriction_with_open_content_is_judged_by_what_it_accepts() {
    let schema = |base: &str, mode: &str| {
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\" vc:minVersion=\"1.1\">\n<xs:complexType name=\"B\" mixed=\"true\">{base}</xs:complexType>\n<xs:complexType name=\"R\"><xs:complexContent mixed=\"true\"><xs:restriction base=\"B\"><xs:openContent mode=\"{mode}\"><xs:any namespace=\"urn:open\" processContents=\"lax\"/></xs:openContent><xs:sequence/></xs:restriction></xs:complexContent></xs:complexType>\n<xs:element name=\"doc\" type=\"R\"/>\n</xs:schema>\n"
        )
    };
    const SUFFIX: &str = "<xs:openContent mode=\"suffix\"><xs:any namespace=\"urn:open\" processContents=\"lax\"/></xs:openContent>";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.xsd");
    for (base, mode, verdict) in [
        // Interleaved after nothing is the base's suffix.
        (format!("{SUFFIX}<xs:sequence><xs:element name=\"a\" minOccurs=\"0\"/></xs:sequence>"), "interleave", Verdict::Supported),
        // No open content, but a repeated wildcard that takes every such element.
        ("<xs:sequence><xs:any namespace=\"urn:open\" processContents=\"lax\" minOccurs=\"0\" maxOccurs=\"unbounded\"/></xs:sequence>".to_string(), "interleave", Verdict::Supported),
        // A base that takes none of them.
        ("<xs:sequence><xs:element name=\"a\" minOccurs=\"0\" maxOccurs=\"unbounded\"/></xs:sequence>".to_string(), "suffix", Verdict::Invalid),
        // A base that takes one at most.
        ("<xs:sequence><xs:any namespace=\"urn:open\" processContents=\"lax\" minOccurs=\"0\"/></xs:sequence>".to_string(), "interleave", Verdict::Invalid),
        // A base whose suffix takes other namespaces only.
        (SUFFIX.replace("urn:open", "urn:other") + "<xs:sequence/>", "suffix", Verdict::Invalid),
    ] {
        std::fs::write(&path, schema(&base, mode)).unwrap();
        let report = check_files_allowed(std::slice::from_ref(&path), &[], &Allowed::new());
        assert_eq!(report.verdict, verdict, "{base} {mode}: {}", report.diagnostics);
    }
}

/// A complex type whose model group has no particles of its own has an empty content type,
/// not element-only content with nothing in it: no character children, not even white
/// space (XSD 1.0, 3.4.2 clauses 2.1.2-2.1.3; XSD 1.1, 3.4.2.3.3 4.1.1.2-4.1.1.4, which adds
/// a group of maxOccurs 0). A group with a particle, even one that occurs 0 times, is
/// element-only content.
#[test]
fn a_group_without_particles_makes_the_content_empty() {
    use boardxml_codegen::ir::Content;
    let content = |group: &str, version: Option<XsdVersion>| {
        let (_dir, path) = schema_file(&format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n<xs:complexType name=\"T\">{group}</xs:complexType>\n<xs:element name=\"t\" type=\"T\"/>\n</xs:schema>\n"
        ));
        let mut allowed = Allowed::new();
        if let Some(v) = version {
            allowed.xsd_version(v);
        }
        let schema = read_schema_files_allowed(&[path], &Catalog::default(), &allowed)
            .unwrap_or_else(|d| panic!("{group}: {d}"));
        let TypeKind::Complex(t) = &schema.types["T"].kind else {
            panic!("T is not complex")
        };
        matches!(t.content, Content::Empty)
    };
    for (group, empty_1_0, empty_1_1) in [
        ("<xs:sequence/>", true, true),
        ("<xs:all><xs:annotation/></xs:all>", true, true),
        ("<xs:choice minOccurs=\"0\"/>", true, true),
        ("<xs:choice/>", false, false),
        (
            "<xs:sequence><xs:element name=\"a\" minOccurs=\"0\" maxOccurs=\"0\"/></xs:sequence>",
            false,
            false,
        ),
        (
            "<xs:sequence minOccurs=\"0\" maxOccurs=\"0\"><xs:element name=\"a\"/></xs:sequence>",
            false,
            true,
        ),
        (
            "<xs:sequence><xs:element name=\"a\"/></xs:sequence>",
            false,
            false,
        ),
    ] {
        assert_eq!(content(group, None), empty_1_0, "XSD 1.0: {group}");
        assert_eq!(
            content(group, Some(XsdVersion::Xsd11)),
            empty_1_1,
            "XSD 1.1: {group}"
        );
    }
}
