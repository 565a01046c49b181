//! Schema composition: `xs:include`, `xs:import`, `xs:redefine`, XML catalogs, and the
//! diagnostics of a schema made of several documents (each in the document it stands in).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use boardxml_codegen::check::{check_files, Verdict};
use boardxml_codegen::diagnostic::{Kind, SchemaDiagnostic};
use boardxml_codegen::ir::{Builtin, Content, Term, TypeKind, TypeRef};
use boardxml_codegen::xsd::{compose, read_schema_files, Catalog};

const HEAD: &str = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n";

/// Writes schema documents (`name`, body) into a fresh folder.
fn documents(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let text = if body.starts_with("<xs:schema") || body.starts_with("<catalog") {
            body.to_string()
        } else {
            format!("{HEAD}{body}</xs:schema>\n")
        };
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn check(dir: &Path, files: &[&str]) -> (Verdict, Vec<SchemaDiagnostic>) {
    let paths: Vec<PathBuf> = files.iter().map(|f| dir.join(f)).collect();
    let r = check_files(&paths, &[]);
    (r.verdict, r.diagnostics.0)
}

/// The document the redefinition tests redefine: a type `Code`, a group `G` holding a
/// `code`, and a type `Holder` of that group.
const REDEFINED: &str = concat!(
    "<xs:simpleType name=\"Code\"><xs:restriction base=\"xs:string\"><xs:maxLength value=\"8\"/></xs:restriction></xs:simpleType>\n",
    "<xs:group name=\"G\"><xs:sequence><xs:element name=\"code\" type=\"Code\"/></xs:sequence></xs:group>\n",
    "<xs:complexType name=\"Holder\"><xs:group ref=\"G\"/></xs:complexType>\n",
);

/// The schema of `file` in `dir`, which `check` must accept.
fn supported(dir: &Path, file: &str) -> boardxml_codegen::ir::Schema {
    let (verdict, d) = check(dir, &[file]);
    assert_eq!(verdict, Verdict::Supported, "{d:?}");
    read_schema_files(&[dir.join(file)], &Catalog::default()).unwrap()
}

/// The names of the elements of complex type `ty`'s content, in document order.
fn element_names(schema: &boardxml_codegen::ir::Schema, ty: &str) -> Vec<String> {
    let TypeKind::Complex(t) = &schema.types[ty].kind else {
        panic!("{ty} is not complex")
    };
    let Content::Elements(p) = &t.content else {
        panic!("{ty} has no element content")
    };
    let mut names = Vec::new();
    let mut stack = vec![p];
    while let Some(p) = stack.pop() {
        match &p.term {
            Term::Element(e) => names.push(e.name.clone()),
            Term::Sequence(v) | Term::Choice(v) | Term::All(v) => stack.extend(v.iter().rev()),
            Term::Any(_) => {}
        }
    }
    names
}

fn at(d: &SchemaDiagnostic) -> (String, u32, u32) {
    (
        d.file.file_name().unwrap().to_string_lossy().into_owned(),
        d.span.line,
        d.span.column,
    )
}

#[test]
fn an_include_chain_brings_every_component() {
    let dir = documents(&[
        (
            "a.xsd",
            "<xs:include schemaLocation=\"sub/b.xsd\"/>\n<xs:element name=\"r\" type=\"Pair\"/>\n",
        ),
        // Relative to the including document: sub/c.xsd.
        (
            "sub/b.xsd",
            "<xs:include schemaLocation=\"c.xsd\"/>\n<xs:complexType name=\"Pair\"><xs:sequence><xs:element name=\"x\" type=\"Short\"/><xs:element ref=\"y\"/></xs:sequence></xs:complexType>\n",
        ),
        (
            "sub/c.xsd",
            "<xs:simpleType name=\"Short\"><xs:restriction base=\"xs:string\"><xs:maxLength value=\"3\"/></xs:restriction></xs:simpleType>\n<xs:element name=\"y\" type=\"xs:int\"/>\n",
        ),
    ]);
    let schema = supported(dir.path(), "a.xsd");
    assert!(schema.types.contains_key("Pair") && schema.types.contains_key("Short"));
    assert!(schema.roots.contains_key("r") && schema.roots.contains_key("y"));
}

#[test]
fn include_cycles_end_and_each_document_is_read_once() {
    let dir = documents(&[
        (
            "a.xsd",
            "<xs:include schemaLocation=\"b.xsd\"/>\n<xs:element name=\"r\" type=\"B\"/>\n<xs:simpleType name=\"A\"><xs:restriction base=\"xs:string\"/></xs:simpleType>\n",
        ),
        (
            "b.xsd",
            "<xs:include schemaLocation=\"./a.xsd\"/>\n<xs:include schemaLocation=\"b.xsd\"/>\n<xs:simpleType name=\"B\"><xs:restriction base=\"A\"/></xs:simpleType>\n",
        ),
    ]);
    let set = compose::load(vec![(dir.path().join("a.xsd"), None)], &Catalog::default());
    assert_eq!(set.documents.len(), 2, "{:?}", set.diagnostics);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Supported, "{d:?}");
    // Both given on the command line: still one schema, no duplicate definitions.
    let (verdict, d) = check(dir.path(), &["a.xsd", "b.xsd"]);
    assert_eq!(verdict, Verdict::Supported, "{d:?}");
}

#[test]
fn problems_are_located_in_the_document_where_they_stand() {
    let dir = documents(&[
        (
            "a.xsd",
            "<xs:include schemaLocation=\"b.xsd\"/>\n<xs:element name=\"r\" type=\"Nowhere\"/>\n",
        ),
        (
            "b.xsd",
            "\n<xs:simpleType name=\"T\">\n  <xs:restriction base=\"xs:string\"><xs:maxLength value=\"-1\"/></xs:restriction></xs:simpleType>\n",
        ),
    ]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Invalid);
    let unknown = d
        .iter()
        .find(|d| d.message == "no type named \"Nowhere\" is declared")
        .expect("the unresolved reference is reported");
    assert_eq!(at(unknown), ("a.xsd".into(), 3, 1));
    let facet = d
        .iter()
        .find(|d| d.file.ends_with("b.xsd"))
        .unwrap_or_else(|| panic!("the facet error is in b.xsd: {d:?}"));
    assert_eq!(facet.kind, Kind::Invalid);
    assert_eq!((facet.span.line, facet.span.column), (4, 3), "{facet:?}");
}

#[test]
fn a_missing_document_is_a_located_error() {
    let dir = documents(&[(
        "a.xsd",
        "<xs:element name=\"r\" type=\"xs:string\"/>\n<xs:include schemaLocation=\"gone.xsd\"/>\n",
    )]);
    // (An include after a definition is also out of order: reported, but not the point.)
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    let missing = d
        .iter()
        .find(|d| d.kind == Kind::Io)
        .unwrap_or_else(|| panic!("{d:?}"));
    assert_eq!(at(missing), ("a.xsd".into(), 3, 1));
    assert_eq!(missing.construct, "xs:include schemaLocation=\"gone.xsd\"");
    assert!(
        missing.message.starts_with("cannot read \"gone.xsd\": "),
        "{}",
        missing.message
    );
    assert_eq!(
        verdict,
        Verdict::Invalid,
        "the out-of-order include is invalid"
    );
    let dir = documents(&[(
        "a.xsd",
        "<xs:include schemaLocation=\"gone.xsd\"/>\n<xs:element name=\"r\" type=\"FromGone\"/>\n",
    )]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Io, "{d:?}");
    // What the missing document would have declared is no further error.
    assert_eq!(d.len(), 1, "{d:?}");
}

#[test]
fn a_missing_document_nothing_needs_is_a_located_warning() {
    // XSD 1.0, 4.2.1 and 4.2.3: a location that does not resolve is no error in itself;
    // the schema is read without the document, and the user is told.
    for composition in [
        "<xs:include schemaLocation=\"gone.xsd\"/>",
        "<xs:import namespace=\"urn:elsewhere\" schemaLocation=\"gone.xsd\"/>",
        "<xs:import namespace=\"urn:elsewhere\" schemaLocation=\"http://example.org/gone.xsd\"/>",
        "<xs:redefine schemaLocation=\"gone.xsd\"/>",
    ] {
        let dir = documents(&[(
            "a.xsd",
            &format!("{composition}\n<xs:element name=\"r\" type=\"xs:string\"/>\n"),
        )]);
        let (verdict, d) = check(dir.path(), &["a.xsd"]);
        assert_eq!(verdict, Verdict::Supported, "{composition}: {d:?}");
        assert_eq!(d.len(), 1, "{composition}: {d:?}");
        assert_eq!(d[0].kind, Kind::Warning, "{d:?}");
        assert_eq!(at(&d[0]), ("a.xsd".into(), 2, 1), "{d:?}");
        assert!(d[0].to_string().contains(": warning: "), "{}", d[0]);
        assert!(d[0].message.contains("read without it"), "{}", d[0].message);
        // Invalid for another reason: the unresolved location is reported as before.
        let dir = documents(&[(
            "a.xsd",
            &format!(
                "{composition}\n<xs:element name=\"r\" type=\"xs:string\" minOccurs=\"1\"/>\n"
            ),
        )]);
        let (verdict, d) = check(dir.path(), &["a.xsd"]);
        assert_eq!(verdict, Verdict::Invalid, "{composition}: {d:?}");
        assert!(d.iter().any(|d| d.kind == Kind::Io), "{d:?}");
    }
}

/// A schema that imports XLink linked by its W3C location, and the XML namespace's
/// `xml:lang`, as real schemas do.
const LINKED: &str = concat!(
    "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n",
    "<xs:import namespace=\"http://www.w3.org/1999/xlink\" schemaLocation=\"http://www.w3.org/XML/2008/06/xlink.xsd\"/>\n",
    "<xs:import namespace=\"http://www.w3.org/XML/1998/namespace\" schemaLocation=\"https://www.w3.org/2001/xml.xsd\"/>\n",
    "<xs:element name=\"link\"><xs:complexType>\n",
    "<xs:attribute ref=\"xml:lang\"/><xs:attributeGroup ref=\"xlink:simpleAttrs\"/>\n",
    "</xs:complexType></xs:element>\n",
    "</xs:schema>\n",
);

/// The attributes of `link` in [`LINKED`]'s schema as read: (namespace, name, fixed).
fn link_attributes(
    schema: &boardxml_codegen::ir::Schema,
) -> Vec<(Option<String>, String, Option<String>)> {
    let element = schema
        .roots
        .values()
        .find(|e| e.name == "link")
        .expect("the element link");
    let TypeRef::Named(ty) = &element.type_ref else {
        panic!("link's type: {:?}", element.type_ref)
    };
    let TypeKind::Complex(t) = &schema.types[ty.as_str()].kind else {
        panic!("{ty} is not complex")
    };
    t.attributes
        .iter()
        .map(|a| (a.namespace.clone(), a.name.clone(), a.fixed.clone()))
        .collect()
}

#[test]
fn the_w3c_xlink_and_xml_documents_are_built_in_and_a_catalog_still_wins() {
    const XLINK: &str = "http://www.w3.org/1999/xlink";
    let dir = documents(&[
        ("linked.xsd", LINKED),
        // A local copy of XLink that a catalog maps the W3C location to: it has no
        // simpleAttrs, so the schema is invalid exactly when the copy is what is read.
        (
            "copies/xlink.xsd",
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"http://www.w3.org/1999/xlink\"><xs:attribute name=\"href\" type=\"xs:anyURI\"/></xs:schema>\n",
        ),
        (
            "catalog.xml",
            "<catalog xmlns=\"urn:oasis:names:tc:entity:xmlns:xml:catalog\">\n<system systemId=\"http://www.w3.org/XML/2008/06/xlink.xsd\" uri=\"copies/xlink.xsd\"/>\n</catalog>\n",
        ),
        // The built-in document is XLink's: importing it as another namespace is the
        // mismatch of any import (src-import 3.1).
        (
            "misnamed.xsd",
            "<xs:import namespace=\"urn:other\" schemaLocation=\"http://www.w3.org/1999/xlink.xsd\"/>\n",
        ),
    ]);
    let schema = supported(dir.path(), "linked.xsd");
    let attributes = link_attributes(&schema);
    let xml = Some("http://www.w3.org/XML/1998/namespace".to_string());
    assert!(
        attributes.contains(&(xml, "lang".into(), None)),
        "{attributes:?}"
    );
    for name in ["href", "role", "arcrole", "title", "show", "actuate"] {
        assert!(
            attributes.contains(&(Some(XLINK.into()), name.into(), None)),
            "xlink:{name} in {attributes:?}"
        );
    }
    assert!(
        attributes.contains(&(Some(XLINK.into()), "type".into(), Some("simple".into()))),
        "{attributes:?}"
    );

    let r = check_files(
        &[dir.path().join("linked.xsd")],
        &[dir.path().join("catalog.xml")],
    );
    assert_eq!(r.verdict, Verdict::Invalid, "{}", r.diagnostics);
    assert!(
        r.diagnostics
            .0
            .iter()
            .any(|d| d.message.contains("simpleAttrs")),
        "{}",
        r.diagnostics
    );

    let (verdict, d) = check(dir.path(), &["misnamed.xsd"]);
    assert_eq!(verdict, Verdict::Invalid, "{d:?}");
    assert!(
        d.iter().any(|d| d.message.contains("targetNamespace")
            && d.message.contains(XLINK)
            && d.message.contains("urn:other")),
        "{d:?}"
    );
}

#[test]
fn a_url_is_never_fetched_and_a_catalog_maps_it() {
    let dir = documents(&[
        (
            "a.xsd",
            "<xs:include schemaLocation=\"http://example.org/schemas/b.xsd\"/>\n<xs:element name=\"r\" type=\"B\"/>\n",
        ),
        // Reached through the URL: its relative include resolves against the URL.
        (
            "copies/b.xsd",
            "<xs:include schemaLocation=\"c.xsd\"/>\n<xs:simpleType name=\"B\"><xs:restriction base=\"C\"/></xs:simpleType>\n",
        ),
        (
            "copies/c.xsd",
            "<xs:simpleType name=\"C\"><xs:restriction base=\"xs:token\"/></xs:simpleType>\n",
        ),
        (
            "catalog.xml",
            "<catalog xmlns=\"urn:oasis:names:tc:entity:xmlns:xml:catalog\">\n<system systemId=\"http://example.org/schemas/b.xsd\" uri=\"copies/b.xsd\"/>\n<uri name=\"http://example.org/schemas/c.xsd\" uri=\"copies/c.xsd\"/>\n</catalog>\n",
        ),
    ]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Io);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(at(&d[0]), ("a.xsd".into(), 2, 1));
    assert!(
        d[0].message.contains("http://example.org/schemas/b.xsd"),
        "{}",
        d[0].message
    );
    assert!(
        d[0].message.contains("nothing is fetched"),
        "{}",
        d[0].message
    );
    assert!(d[0].hint.as_deref().unwrap_or("").contains("--catalog"));

    let catalog = [dir.path().join("catalog.xml")];
    let r = check_files(&[dir.path().join("a.xsd")], &catalog);
    assert_eq!(r.verdict, Verdict::Supported, "{}", r.diagnostics);

    // The command line takes the catalog the same way.
    let out = Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
        .arg("check")
        .arg("--catalog")
        .arg(&catalog[0])
        .arg(dir.path().join("a.xsd"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
        .arg("check")
        .arg(dir.path().join("a.xsd"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a.xsd:2:1: error: http://example.org/schemas/b.xsd is not a local file"),
        "{err}"
    );
}

#[test]
fn redefinitions_are_in_terms_of_themselves() {
    let dir = documents(&[
        (
            "a.xsd",
            concat!(
                "<xs:redefine schemaLocation=\"b.xsd\">\n",
                "  <xs:simpleType name=\"Code\"><xs:restriction base=\"Code\"><xs:maxLength value=\"4\"/></xs:restriction></xs:simpleType>\n",
                "  <xs:group name=\"G\"><xs:sequence><xs:group ref=\"G\"/><xs:element name=\"extra\" type=\"xs:int\"/></xs:sequence></xs:group>\n",
                "</xs:redefine>\n",
                "<xs:element name=\"r\" type=\"Holder\"/>\n",
            ),
        ),
        (
            "b.xsd",
            REDEFINED,
        ),
    ]);
    let schema = supported(dir.path(), "a.xsd");
    // The redefinition takes the name and restricts the original.
    let TypeKind::Restriction(code) = &schema.types["Code"].kind else {
        panic!("{:?}", schema.types["Code"].kind)
    };
    let TypeRef::Named(original) = &code.base else {
        panic!()
    };
    assert_ne!(original, "Code");
    assert!(schema.types.contains_key(original));
    // The type of b.xsd that refers to G gets the redefined group: code, then extra.
    let names = element_names(&schema, "Holder");
    assert_eq!(names, ["code", "extra"]);

    // Redefining what the redefined document does not have is an error there.
    let dir = documents(&[
        (
            "a.xsd",
            "<xs:redefine schemaLocation=\"b.xsd\">\n  <xs:simpleType name=\"Other\"><xs:restriction base=\"Other\"/></xs:simpleType>\n</xs:redefine>\n",
        ),
        ("b.xsd", "<xs:element name=\"e\" type=\"xs:string\"/>\n"),
    ]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Invalid);
    let e = d
        .iter()
        .find(|d| d.message.contains("has no simpleType named \"Other\""))
        .unwrap_or_else(|| panic!("{d:?}"));
    assert_eq!(at(e), ("a.xsd".into(), 3, 3));
}

/// src-redefine 5-7: a redefinition is in terms of what it redefines.
/// A chain of redefines (a redefines b, which redefines c): each redefinition restricts
/// the one below it, the topmost takes the name, and the types and groups of every
/// document refer to it (redefinition is pervasive, Part 1, 4.2.2).
#[test]
fn chained_redefinitions_each_restrict_the_one_below() {
    let dir = documents(&[
        (
            "a.xsd",
            concat!(
                "<xs:redefine schemaLocation=\"b.xsd\">\n",
                "  <xs:simpleType name=\"Code\"><xs:restriction base=\"Code\"><xs:maxLength value=\"2\"/></xs:restriction></xs:simpleType>\n",
                "  <xs:group name=\"G\"><xs:sequence><xs:group ref=\"G\"/><xs:element name=\"top\" type=\"xs:int\"/></xs:sequence></xs:group>\n",
                "</xs:redefine>\n",
                "<xs:element name=\"r\" type=\"Holder\"/>\n",
            ),
        ),
        (
            "b.xsd",
            concat!(
                "<xs:redefine schemaLocation=\"c.xsd\">\n",
                "  <xs:simpleType name=\"Code\"><xs:restriction base=\"Code\"><xs:maxLength value=\"4\"/></xs:restriction></xs:simpleType>\n",
                "  <xs:group name=\"G\"><xs:sequence><xs:group ref=\"G\"/><xs:element name=\"middle\" type=\"xs:int\"/></xs:sequence></xs:group>\n",
                "</xs:redefine>\n",
                "<xs:element name=\"m\" type=\"Code\"/>\n",
            ),
        ),
        (
            "c.xsd",
            REDEFINED,
        ),
    ]);
    let schema = supported(dir.path(), "a.xsd");
    // Code (max 2) restricts b's Code (max 4), which restricts c's (max 8): three types,
    // each the base of the one above.
    let mut chain = Vec::new();
    let mut name = "Code".to_string();
    while let TypeKind::Restriction(r) = &schema.types[&name].kind {
        chain.push(name.clone());
        match &r.base {
            TypeRef::Named(base) => name = base.clone(),
            TypeRef::Builtin(_) => break,
        }
    }
    assert_eq!(chain.len(), 3, "{chain:?}");
    assert_eq!(chain.iter().collect::<HashSet<_>>().len(), 3, "{chain:?}");
    // b's element `m` has the topmost Code: redefinition is pervasive.
    let m = &schema.roots["m"];
    assert_eq!(m.type_ref, TypeRef::Named("Code".into()), "{m:?}");
    // c's Holder gets the group as both redefinitions extend it: code, middle, top.
    let names = element_names(&schema, "Holder");
    assert_eq!(names, ["code", "middle", "top"]);
}

/// A cycle of redefines (a redefines b, b redefines c, c redefines a) where no document
/// defines the type: nothing is there to redefine (src-redefine 6.1).
#[test]
fn a_cycle_of_redefines_without_a_definition_is_invalid() {
    let redefine = |target: &str, element: &str| {
        format!(
            "<xs:redefine schemaLocation=\"{target}\">\n  <xs:simpleType name=\"Code\"><xs:restriction base=\"Code\"/></xs:simpleType>\n</xs:redefine>\n<xs:element name=\"{element}\" type=\"Code\"/>\n"
        )
    };
    let (a, b, c) = (
        redefine("b.xsd", "ra"),
        redefine("c.xsd", "rb"),
        redefine("a.xsd", "rc"),
    );
    let dir = documents(&[("a.xsd", &a), ("b.xsd", &b), ("c.xsd", &c)]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Invalid, "{d:?}");
    assert!(
        d.iter().any(|d| d
            .message
            .contains("has no simpleType named \"Code\" to redefine")),
        "{d:?}"
    );
}

#[test]
fn a_redefinition_not_in_terms_of_itself_is_invalid() {
    let base = concat!(
        "<xs:simpleType name=\"S\"><xs:restriction base=\"xs:string\"/></xs:simpleType>\n",
        "<xs:complexType name=\"C\"><xs:sequence><xs:element name=\"a\" type=\"xs:string\"/></xs:sequence></xs:complexType>\n",
        "<xs:group name=\"G\"><xs:sequence><xs:element name=\"g\" type=\"xs:string\"/></xs:sequence></xs:group>\n",
        "<xs:attributeGroup name=\"A\"><xs:attribute name=\"x\" type=\"xs:string\"/></xs:attributeGroup>\n",
    );
    let cases = [
        (
            "<xs:simpleType name=\"S\"><xs:restriction base=\"xs:token\"/></xs:simpleType>",
            "a redefined simple type must restrict itself (its base is the type it redefines)",
        ),
        (
            "<xs:complexType name=\"C\"><xs:sequence/></xs:complexType>",
            "a redefined complex type must restrict or extend itself (its base is the type it redefines)",
        ),
        (
            "<xs:group name=\"G\"><xs:sequence><xs:group ref=\"G\"/><xs:group ref=\"G\"/></xs:sequence></xs:group>",
            "a redefined group refers to itself 2 times; at most once",
        ),
        // The self-reference stands for the original once (src-redefine 6.1.2).
        (
            "<xs:group name=\"G\"><xs:sequence><xs:group ref=\"G\" minOccurs=\"0\"/></xs:sequence></xs:group>",
            "src-redefine.6.1.2: a redefined group's reference to itself must have minOccurs and maxOccurs 1, not minOccurs=\"0\"",
        ),
        (
            "<xs:group name=\"G\"><xs:choice><xs:group ref=\"G\" maxOccurs=\"2\"/></xs:choice></xs:group>",
            "src-redefine.6.1.2: a redefined group's reference to itself must have minOccurs and maxOccurs 1, not maxOccurs=\"2\"",
        ),
        // One redefine defines a component once (sch-props-correct.2).
        (
            "<xs:attributeGroup name=\"A\"><xs:attribute name=\"x\" type=\"xs:string\"/></xs:attributeGroup>\n  <xs:attributeGroup name=\"A\"><xs:attribute name=\"x\" type=\"xs:string\"/></xs:attributeGroup>",
            "the attribute group \"A\" is already redefined (line 3); a schema redefines a component once",
        ),
    ];
    for (redefinition, message) in cases {
        let a =
            format!("<xs:redefine schemaLocation=\"b.xsd\">\n  {redefinition}\n</xs:redefine>\n");
        let dir = documents(&[("a.xsd", &a), ("b.xsd", base)]);
        let (verdict, d) = check(dir.path(), &["a.xsd"]);
        assert_eq!(verdict, Verdict::Invalid, "{redefinition}: {d:?}");
        let e = d
            .iter()
            .find(|d| d.message == message)
            .unwrap_or_else(|| panic!("{redefinition}: {d:?}"));
        let line = if message.contains("already redefined") {
            4
        } else {
            3
        };
        assert_eq!(at(e).1, line, "{redefinition}: {e:?}");
    }
    // With minOccurs and maxOccurs 1 written out (as any nonNegativeInteger may be), the
    // self-reference is the original once.
    let a = "<xs:redefine schemaLocation=\"b.xsd\">\n  <xs:group name=\"G\"><xs:sequence><xs:group ref=\"G\" minOccurs=\"01\" maxOccurs=\"+1\"/><xs:element name=\"h\" type=\"xs:string\"/></xs:sequence></xs:group>\n</xs:redefine>\n";
    let dir = documents(&[("a.xsd", a), ("b.xsd", base)]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Supported, "{d:?}");
}

/// Two documents of one schema redefining the same component would each define it: the
/// second redefinition is an error where it stands, naming the first.
#[test]
fn two_documents_redefining_one_component_is_invalid() {
    let redefining = |element: &str| {
        format!("<xs:redefine schemaLocation=\"c.xsd\">\n  <xs:simpleType name=\"Code\"><xs:restriction base=\"Code\"><xs:maxLength value=\"2\"/></xs:restriction></xs:simpleType>\n</xs:redefine>\n<xs:element name=\"{element}\" type=\"Code\"/>\n")
    };
    let top = "<xs:include schemaLocation=\"a.xsd\"/>\n<xs:include schemaLocation=\"b.xsd\"/>\n";
    let (a, b) = (redefining("ra"), redefining("rb"));
    let dir = documents(&[
        ("top.xsd", top),
        ("a.xsd", &a),
        ("b.xsd", &b),
        ("c.xsd", REDEFINED),
    ]);
    let (verdict, d) = check(dir.path(), &["top.xsd"]);
    assert_eq!(verdict, Verdict::Invalid, "{d:?}");
    let e = d
        .iter()
        .find(|d| d.message.contains("redefines the same simpleType \"Code\""))
        .unwrap_or_else(|| panic!("{d:?}"));
    assert_eq!(at(e), ("b.xsd".into(), 3, 3), "{e:?}");
    assert!(
        e.message
            .starts_with(&dir.path().join("a.xsd").display().to_string()),
        "{e:?}"
    );
    // One of them alone is the valid neighbour.
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Supported, "{d:?}");
}

#[test]
fn imports_and_their_namespaces() {
    // namespace="" names no namespace (Namespaces in XML 1.0, 2): leaving it out imports
    // components without one.
    let dir = documents(&[(
        "a.xsd",
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n<xs:import namespace=\"\"/>\n</xs:schema>\n",
    )]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Invalid, "{d:?}");
    let e = d
        .iter()
        .find(|d| d.message.starts_with("namespace=\"\" is no namespace name"))
        .unwrap_or_else(|| panic!("{d:?}"));
    assert_eq!(at(e), ("a.xsd".into(), 2, 1));
    // An import without schemaLocation of a namespace no document defines: the reference
    // into it is the error, where it stands.
    let dir = documents(&[(
        "a.xsd",
        "<xs:import namespace=\"urn:x\"/>\n<xs:element xmlns:x=\"urn:x\" name=\"r\" type=\"x:T\"/>\n",
    )]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Invalid, "{d:?}");
    let e = d
        .iter()
        .find(|d| d.message.contains("in namespace urn:x by any document"))
        .unwrap_or_else(|| panic!("{d:?}"));
    assert_eq!(at(e), ("a.xsd".into(), 3, 1));
    // The imported document's namespace must be the one the import names.
    let dir = documents(&[
        (
            "a.xsd",
            "<xs:import namespace=\"urn:x\" schemaLocation=\"b.xsd\"/>\n<xs:element name=\"r\" type=\"xs:string\"/>\n",
        ),
        ("b.xsd", "<xs:element name=\"e\" type=\"xs:string\"/>\n"),
    ]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Invalid);
    let e = d
        .iter()
        .find(|d| d.message.contains("targetNamespace is no namespace"))
        .unwrap_or_else(|| panic!("{d:?}"));
    assert_eq!(at(e), ("a.xsd".into(), 2, 1));
    // A chameleon include takes on the includer's namespace; an import of another
    // namespace is loaded as it is; imports of each other end.
    let dir = documents(&[
        (
            "a.xsd",
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"urn:a\">\n<xs:include schemaLocation=\"c.xsd\"/>\n<xs:import namespace=\"urn:b\" schemaLocation=\"b.xsd\"/>\n</xs:schema>\n",
        ),
        (
            "b.xsd",
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"urn:b\">\n<xs:import namespace=\"urn:a\" schemaLocation=\"a.xsd\"/>\n</xs:schema>\n",
        ),
        ("c.xsd", "<xs:element name=\"e\" type=\"xs:string\"/>\n"),
    ]);
    let set = compose::load(vec![(dir.path().join("a.xsd"), None)], &Catalog::default());
    assert!(set.diagnostics.is_empty(), "{:?}", set.diagnostics);
    let ns: Vec<(String, Option<String>)> = set
        .documents
        .iter()
        .map(|d| {
            (
                d.path.file_name().unwrap().to_string_lossy().into_owned(),
                d.namespace.clone(),
            )
        })
        .collect();
    assert_eq!(
        ns,
        [
            ("a.xsd".to_string(), Some("urn:a".to_string())),
            ("c.xsd".to_string(), Some("urn:a".to_string())),
            ("b.xsd".to_string(), Some("urn:b".to_string())),
        ]
    );
    assert_eq!(set.documents[1].target_namespace, None);
}

/// Two imported namespaces declaring one local name: two components, each reference
/// resolving to its own namespace's (a content model `(p:x+, q:x)` is not ambiguous).
#[test]
fn namesakes_of_two_namespaces_are_not_confused() {
    let ns = |n: &str, t: &str| {
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"urn:{n}\">\n<xs:element name=\"x\" type=\"xs:{t}\"/>\n<xs:simpleType name=\"T\"><xs:restriction base=\"xs:{t}\"/></xs:simpleType>\n</xs:schema>\n")
    };
    let (p, q) = (ns("p", "string"), ns("q", "int"));
    let dir = documents(&[
        (
            "a.xsd",
            concat!(
                "<xs:import namespace=\"urn:p\" schemaLocation=\"p.xsd\"/>\n",
                "<xs:import namespace=\"urn:q\" schemaLocation=\"q.xsd\"/>\n",
                "<xs:element name=\"r\" xmlns:p=\"urn:p\" xmlns:q=\"urn:q\"><xs:complexType><xs:sequence>",
                "<xs:element ref=\"p:x\" maxOccurs=\"unbounded\"/><xs:element ref=\"q:x\"/>",
                "<xs:element name=\"t\" type=\"q:T\"/>",
                "</xs:sequence></xs:complexType></xs:element>\n",
            ),
        ),
        ("p.xsd", &p),
        ("q.xsd", &q),
    ]);
    let schema = supported(dir.path(), "a.xsd");
    let TypeRef::Named(r) = &schema.roots["r"].type_ref else {
        panic!()
    };
    let TypeKind::Complex(c) = &schema.types[r].kind else {
        panic!()
    };
    let Content::Elements(p) = &c.content else {
        panic!("{:?}", c.content)
    };
    let Term::Sequence(items) = &p.term else {
        panic!("{:?}", p.term)
    };
    let decls: Vec<_> = items
        .iter()
        .map(|i| match &i.term {
            Term::Element(e) => (
                e.name.clone(),
                e.namespace.clone(),
                e.type_ref.clone(),
                e.xsi_simple.clone(),
            ),
            t => panic!("{t:?}"),
        })
        .collect();
    assert_eq!(decls[0].0, "x");
    assert_eq!(decls[0].1.as_deref(), Some("urn:p"));
    assert_eq!(decls[1].0, "x");
    assert_eq!(decls[1].1.as_deref(), Some("urn:q"));
    assert_ne!(
        decls[0].2, decls[1].2,
        "each x has its own namespace's type"
    );
    // q:T is q.xsd's T (a restriction of xs:int), not p.xsd's (of xs:string).
    let TypeRef::Named(t) = &decls[2].2 else {
        panic!()
    };
    let TypeKind::Restriction(tq) = &schema.types[t].kind else {
        panic!("{:?}", schema.types[t].kind)
    };
    assert_eq!(format!("{:?}", tq.base), "Builtin(Int)");
    // r's type and the two T: an element of a simple type keeps it, and what xsi:type may
    // name in its place is the element's table (tests/type_substitution.rs). Each x's
    // table offers its own namespace's T (derived from its built-in), not the other's.
    assert_eq!(schema.types.keys().collect::<Vec<_>>(), ["R", "T", "T-2"]);
    let members = |i: usize| -> Vec<String> {
        let table = decls[i]
            .3
            .as_ref()
            .expect("a table of what xsi:type may name");
        table
            .members
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| n.starts_with("{urn:"))
            .collect()
    };
    assert_eq!(decls[0].2, TypeRef::Builtin(Builtin::String));
    assert_eq!(decls[1].2, TypeRef::Builtin(Builtin::Int));
    assert_eq!(members(0), ["{urn:p}T"]);
    assert_eq!(members(1), ["{urn:q}T"]);
}

/// A chameleon include (no targetNamespace) takes the includer's namespace: its
/// components are in it, its unprefixed references find them there, and its local
/// elements follow its own elementFormDefault.
#[test]
fn a_chameleon_include_takes_the_includers_namespace() {
    let dir = documents(&[
        (
            "a.xsd",
            concat!(
                "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"urn:a\" xmlns:a=\"urn:a\" elementFormDefault=\"qualified\">\n",
                "<xs:include schemaLocation=\"b.xsd\"/>\n",
                "<xs:element name=\"r\" type=\"a:Pair\"/>\n",
                "</xs:schema>\n",
            ),
        ),
        (
            "b.xsd",
            "<xs:complexType name=\"Pair\"><xs:sequence><xs:element name=\"x\" type=\"Short\"/><xs:element ref=\"y\"/></xs:sequence></xs:complexType>\n<xs:simpleType name=\"Short\"><xs:restriction base=\"xs:string\"><xs:maxLength value=\"3\"/></xs:restriction></xs:simpleType>\n<xs:element name=\"y\" type=\"xs:int\"/>\n",
        ),
    ]);
    let schema = supported(dir.path(), "a.xsd");
    assert_eq!(schema.roots["r"].namespace.as_deref(), Some("urn:a"));
    assert_eq!(schema.roots["y"].namespace.as_deref(), Some("urn:a"));
    let TypeKind::Complex(pair) = &schema.types["Pair"].kind else {
        panic!()
    };
    let Content::Elements(p) = &pair.content else {
        panic!()
    };
    let Term::Sequence(items) = &p.term else {
        panic!()
    };
    let Term::Element(x) = &items[0].term else {
        panic!()
    };
    // b.xsd's own elementFormDefault (unqualified): x is in no namespace.
    assert_eq!((x.name.as_str(), x.namespace.as_deref()), ("x", None));
    assert_eq!(x.type_ref, TypeRef::Named("Short".into()));
    let Term::Element(y) = &items[1].term else {
        panic!()
    };
    assert_eq!(y.namespace.as_deref(), Some("urn:a"));
}

/// A no-namespace document given on its own and also included as a chameleon is read once
/// per namespace (XSD 1.0 Part 1, 4.2.1): its components are in no namespace and, for the
/// include, in the includer's, where the includer's references find them (Boeing ipo3:
/// `itematt.xsd` given beside `ipo.xsd`, which includes it).
#[test]
fn a_document_given_and_included_as_a_chameleon_is_in_both_namespaces() {
    let dir = documents(&[
        (
            "a.xsd",
            concat!(
                "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"urn:a\" xmlns:a=\"urn:a\">\n",
                "<xs:include schemaLocation=\"b.xsd\"/>\n",
                "<xs:element name=\"r\"><xs:complexType><xs:attributeGroup ref=\"a:G\"/></xs:complexType></xs:element>\n",
                "</xs:schema>\n",
            ),
        ),
        (
            "b.xsd",
            "<xs:attributeGroup name=\"G\"><xs:attribute name=\"n\" type=\"Short\"/></xs:attributeGroup>\n<xs:simpleType name=\"Short\"><xs:restriction base=\"xs:string\"><xs:maxLength value=\"3\"/></xs:restriction></xs:simpleType>\n",
        ),
    ]);
    // b.xsd first: read in no namespace before the include asks for it in urn:a.
    let set = compose::load(
        vec![
            (dir.path().join("b.xsd"), None),
            (dir.path().join("a.xsd"), None),
        ],
        &Catalog::default(),
    );
    assert!(set.diagnostics.is_empty(), "{:?}", set.diagnostics);
    let ns: Vec<(String, Option<String>)> = set
        .documents
        .iter()
        .map(|d| {
            (
                d.path.file_name().unwrap().to_string_lossy().into_owned(),
                d.namespace.clone(),
            )
        })
        .collect();
    assert_eq!(
        ns,
        [
            ("b.xsd".to_string(), None),
            ("a.xsd".to_string(), Some("urn:a".to_string())),
            ("b.xsd".to_string(), Some("urn:a".to_string())),
        ]
    );
    let (verdict, d) = check(dir.path(), &["b.xsd", "a.xsd"]);
    assert_eq!(verdict, Verdict::Supported, "{d:?}");
}

/// The real-world sets of `../shared/xsd-real` compose with their catalogs: no document is
/// missing, no location left unmapped.
#[test]
fn real_world_sets_compose() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/xsd-real");
    let Ok(manifest) = std::fs::read_to_string(root.join("manifest.tsv")) else {
        common::skip("../shared/xsd-real is not there");
        return;
    };
    let mut seen = std::collections::BTreeSet::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (main, catalog) = (cols[1], cols.get(5).copied().unwrap_or(""));
        if !seen.insert(main.to_string()) {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let cat = dir.path().join("catalog.xml");
        let mut text =
            String::from("<catalog xmlns=\"urn:oasis:names:tc:entity:xmlns:xml:catalog\">\n");
        for pair in catalog.split(';').filter(|p| !p.is_empty()) {
            let (url, path) = pair.split_once('=').unwrap();
            text.push_str(&format!(
                "<system systemId=\"{url}\" uri=\"{}\"/>\n",
                root.join(path).display()
            ));
        }
        text.push_str("</catalog>\n");
        std::fs::write(&cat, text).unwrap();
        let catalog = Catalog::read(&[cat]).unwrap();
        let set = compose::load(vec![(root.join(main), None)], &catalog);
        assert!(set.diagnostics.is_empty(), "{main}: {:?}", set.diagnostics);
        assert!(set.documents.len() > 1 || !main.contains("xliff"), "{main}");
        // And `check` finds no broken constraint in any of them (they are valid schemas).
        let r = check_files(&[root.join(main)], &[dir.path().join("catalog.xml")]);
        assert_ne!(r.verdict, Verdict::Invalid, "{main}: {}", r.diagnostics);
        assert_ne!(r.verdict, Verdict::Io, "{main}: {}", r.diagnostics);
    }
}

mod common;

/// An import of the XML namespace without schemaLocation: its attributes come from the
/// generator's own document (xml:lang, xml:space, xml:base, xml:id and specialAttrs); a
/// schema that brings its own document of that namespace gets no second copy.
#[test]
fn the_xml_namespace_is_known_without_a_location() {
    let body = concat!(
        "<xs:import namespace=\"http://www.w3.org/XML/1998/namespace\"/>\n",
        "<xs:element name=\"root\"><xs:complexType>\n",
        "<xs:attributeGroup ref=\"xml:specialAttrs\"/>\n",
        "</xs:complexType></xs:element>\n",
        "<xs:element name=\"note\"><xs:complexType>\n",
        "<xs:attribute ref=\"xml:lang\" use=\"required\"/>\n",
        "</xs:complexType></xs:element>\n",
    );
    let dir = documents(&[("a.xsd", body)]);
    let schema = supported(dir.path(), "a.xsd");
    let attributes = |schema: &boardxml_codegen::ir::Schema, root: &str| {
        let TypeKind::Complex(t) = &schema.types[match &schema.roots[root].type_ref {
            TypeRef::Named(n) => n.as_str(),
            other => panic!("{other:?}"),
        }]
        .kind
        else {
            panic!("{root}'s type is not complex")
        };
        t.attributes.clone()
    };
    let xml = Some("http://www.w3.org/XML/1998/namespace".to_string());
    let lang = attributes(&schema, "note");
    assert_eq!((lang[0].name.as_str(), lang[0].required), ("lang", true));
    assert!(
        matches!(lang[0].type_ref, TypeRef::Named(_)),
        "a union: {lang:?}"
    );
    let root = attributes(&schema, "root");
    let mut names: Vec<(&str, bool)> = root
        .iter()
        .inspect(|a| assert_eq!(a.namespace, xml, "{a:?}"))
        .map(|a| (a.name.as_str(), a.required))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ("base", false),
            ("id", false),
            ("lang", false),
            ("space", false)
        ]
    );
    // Without the import, xml:lang is no component of the schema.
    let dir = documents(&[("a.xsd", &body[body.find('\n').unwrap() + 1..])]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Invalid, "{d:?}");
    // The schema's own document of the namespace is the one used: a lang of its own type.
    let own = concat!(
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"http://www.w3.org/XML/1998/namespace\">\n",
        "<xs:attribute name=\"lang\" type=\"xs:token\"/>\n",
        "<xs:attributeGroup name=\"specialAttrs\"><xs:attribute ref=\"xml:lang\"/></xs:attributeGroup>\n",
        "</xs:schema>\n",
    );
    let with_own = format!(
        "<xs:import namespace=\"http://www.w3.org/XML/1998/namespace\" schemaLocation=\"xml.xsd\"/>\n{}",
        &body[body.find('\n').unwrap() + 1..]
    );
    let top = "<xs:import namespace=\"http://www.w3.org/XML/1998/namespace\"/>\n<xs:include schemaLocation=\"b.xsd\"/>\n";
    let dir = documents(&[("top.xsd", top), ("b.xsd", &with_own), ("xml.xsd", own)]);
    let schema = supported(dir.path(), "top.xsd");
    let lang = attributes(&schema, "note");
    assert_eq!(
        lang[0].type_ref,
        TypeRef::Builtin(Builtin::Token),
        "{lang:?}"
    );
}

#[test]
fn identity_constraint_names_are_one_symbol_space_across_documents() {
    // Two documents of one namespace each declaring a key K: one name twice (3.11.2).
    let keyed = |element: &str| {
        format!("<xs:element name=\"{element}\"><xs:complexType><xs:sequence><xs:element name=\"i\" type=\"xs:int\" maxOccurs=\"unbounded\"/></xs:sequence></xs:complexType>\n  <xs:key name=\"K\"><xs:selector xpath=\"i\"/><xs:field xpath=\".\"/></xs:key>\n</xs:element>\n")
    };
    let (a, b) = (keyed("a"), keyed("b"));
    let top = format!("<xs:include schemaLocation=\"b.xsd\"/>\n{a}");
    let dir = documents(&[("a.xsd", &top), ("b.xsd", &b), ("c.xsd", &a)]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Invalid, "{d:?}");
    let e = d
        .iter()
        .find(|d| {
            d.message
                .contains("named \"K\" is already declared by another document")
        })
        .unwrap_or_else(|| panic!("{d:?}"));
    assert_eq!(e.span.line, 3, "{e:?}");
    // Each alone is the valid neighbour.
    for alone in ["b.xsd", "c.xsd"] {
        let (verdict, d) = check(dir.path(), &[alone]);
        assert_eq!(verdict, Verdict::Supported, "{d:?}");
    }
}

#[test]
fn a_keyref_refers_as_every_reference_does() {
    let key = "<xs:element name=\"r\"><xs:complexType><xs:sequence><xs:element name=\"i\" type=\"xs:int\" maxOccurs=\"unbounded\"/></xs:sequence></xs:complexType>\n  <xs:key name=\"K\"><xs:selector xpath=\"i\"/><xs:field xpath=\".\"/></xs:key>\n  <xs:keyref name=\"R\" refer=\"REFER\"><xs:selector xpath=\"i\"/><xs:field xpath=\".\"/></xs:keyref>\n</xs:element>\n";
    // No identity constraint is in the XSD namespace; a namespace not imported names
    // nothing (src-resolve).
    for (refer, want) in [
        (
            "xs:K",
            "the XSD namespace has no identity constraint named \"K\"",
        ),
        ("o:K", "which this schema does not import"),
    ] {
        let body = key.replace("REFER", refer);
        let text = format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:o=\"urn:o\">\n{body}</xs:schema>\n");
        let dir = documents(&[("a.xsd", &text)]);
        let (verdict, d) = check(dir.path(), &["a.xsd"]);
        assert_eq!(verdict, Verdict::Invalid, "{d:?}");
        assert!(d.iter().any(|x| x.message.contains(want)), "{refer}: {d:?}");
    }
    let dir = documents(&[("a.xsd", &key.replace("REFER", "K"))]);
    let (verdict, d) = check(dir.path(), &["a.xsd"]);
    assert_eq!(verdict, Verdict::Supported, "{d:?}");
}

#[test]
fn a_redefinition_without_itself_restricts_the_original() {
    let original = concat!(
        "<xs:group name=\"G\"><xs:sequence><xs:element name=\"a\" type=\"xs:decimal\"/><xs:element name=\"b\" type=\"xs:string\" minOccurs=\"0\"/></xs:sequence></xs:group>\n",
        "<xs:attributeGroup name=\"A\"><xs:attribute name=\"x\" type=\"xs:decimal\"/><xs:attribute name=\"y\" type=\"xs:string\" use=\"required\"/></xs:attributeGroup>\n",
    );
    let redefining = |group: &str, attributes: &str| {
        format!("<xs:redefine schemaLocation=\"o.xsd\">\n  <xs:group name=\"G\"><xs:sequence>{group}</xs:sequence></xs:group>\n  <xs:attributeGroup name=\"A\">{attributes}</xs:attributeGroup>\n</xs:redefine>\n")
    };
    let narrower = redefining(
        "<xs:element name=\"a\" type=\"xs:int\"/>",
        "<xs:attribute name=\"x\" type=\"xs:int\"/><xs:attribute name=\"y\" type=\"xs:token\" use=\"required\"/>",
    );
    let dir = documents(&[("o.xsd", original), ("r.xsd", &narrower)]);
    let (verdict, d) = check(dir.path(), &["r.xsd"]);
    assert_eq!(verdict, Verdict::Supported, "{d:?}");
    // Each breaks the restriction once: an element the original does not have, a
    // required attribute left optional.
    for (group, attributes, want) in [
        (
            "<xs:element name=\"a\" type=\"xs:int\"/><xs:element name=\"c\" type=\"xs:int\"/>",
            "<xs:attribute name=\"y\" type=\"xs:string\" use=\"required\"/>",
            "src-redefine.6.2.2: the redefinition of group \"G\"",
        ),
        (
            "<xs:element name=\"a\" type=\"xs:decimal\"/>",
            "<xs:attribute name=\"y\" type=\"xs:string\"/>",
            "src-redefine.7.2.2: the redefinition of attribute group \"A\"",
        ),
        (
            "<xs:element name=\"a\" type=\"xs:string\"/>",
            "<xs:attribute name=\"y\" type=\"xs:string\" use=\"required\"/>",
            "rcase-NameAndTypeOK.7",
        ),
    ] {
        let dir = documents(&[
            ("o.xsd", original),
            ("r.xsd", &redefining(group, attributes)),
        ]);
        let (verdict, d) = check(dir.path(), &["r.xsd"]);
        assert_eq!(verdict, Verdict::Invalid, "{want}: {d:?}");
        let e = d
            .iter()
            .find(|x| x.message.contains(want))
            .unwrap_or_else(|| panic!("{want}: {d:?}"));
        // Located in the redefining document.
        assert_eq!(at(e).0, "r.xsd", "{e:?}");
    }
}
