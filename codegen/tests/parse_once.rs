//! Each schema document is parsed once per run of `check`, `validator` and `diff`, however
//! many documents, schemas and passes read it: the text once (the positioned tree every
//! pass reads), and xsd-parser's model once (made from that tree).
//!
//! The counters are the process's, so this file holds one test, run alone in its binary.

use std::path::{Path, PathBuf};

use boardxml_codegen::check::{check_files, Verdict};
use boardxml_codegen::validator::{package, Runtime, SetSpec};
use boardxml_codegen::xsd::{documents_parsed, models_read};

const XS: &str = "xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"";

/// Documents that bring each other in every way: `main.xsd` includes the chameleon
/// `a.xsd`, imports `b.xsd` (which includes `a.xsd` as well, so `a.xsd`'s components stand
/// in two namespaces) and redefines `c.xsd`; `other.xsd` and `main2.xsd` bring in some of
/// the same documents. `main.xsd` also names a document that is not there (the schema is
/// read without it, then with its absence known) and has a group referred to from an
/// anonymous type inside itself.
fn write_schemas(dir: &Path) {
    let files = [
        (
            "main.xsd",
            format!(
                r#"<xs:schema {XS} targetNamespace="urn:m" xmlns:m="urn:m" xmlns:b="urn:b" elementFormDefault="qualified">
  <xs:include schemaLocation="a.xsd"/>
  <xs:include schemaLocation="missing.xsd"/>
  <xs:import namespace="urn:b" schemaLocation="b.xsd"/>
  <xs:redefine schemaLocation="c.xsd">
    <xs:complexType name="C">
      <xs:complexContent>
        <xs:extension base="m:C"><xs:sequence><xs:element name="more" type="m:A"/></xs:sequence></xs:extension>
      </xs:complexContent>
    </xs:complexType>
  </xs:redefine>
  <xs:group name="inline"><xs:choice>
    <xs:element name="pc"><xs:complexType mixed="true">
      <xs:group ref="m:inline" minOccurs="0" maxOccurs="unbounded"/>
    </xs:complexType></xs:element>
    <xs:element name="text" type="m:A"/>
  </xs:choice></xs:group>
  <xs:element name="root">
    <xs:complexType><xs:sequence>
      <xs:element name="c" type="m:C"/>
      <xs:element ref="b:item"/>
      <xs:group ref="m:inline"/>
    </xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>"#
            ),
        ),
        (
            "main2.xsd",
            format!(
                r#"<xs:schema {XS} targetNamespace="urn:m" xmlns:m="urn:m" xmlns:b="urn:b" elementFormDefault="qualified">
  <xs:include schemaLocation="a.xsd"/>
  <xs:import namespace="urn:b" schemaLocation="b.xsd"/>
  <xs:redefine schemaLocation="c.xsd"/>
  <xs:element name="root">
    <xs:complexType><xs:sequence>
      <xs:element name="c" type="m:C"/>
      <xs:element ref="b:item" minOccurs="0"/>
    </xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>"#
            ),
        ),
        (
            "other.xsd",
            format!(
                r#"<xs:schema {XS} targetNamespace="urn:o" xmlns:o="urn:o" xmlns:b="urn:b">
  <xs:include schemaLocation="a.xsd"/>
  <xs:import namespace="urn:b" schemaLocation="b.xsd"/>
  <xs:element name="top" type="o:A"/>
  <xs:element name="wrapped"><xs:complexType><xs:sequence><xs:element ref="b:item"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>"#
            ),
        ),
        (
            "a.xsd",
            format!(
                r#"<xs:schema {XS}>
  <xs:simpleType name="A"><xs:restriction base="xs:string"><xs:maxLength value="8"/></xs:restriction></xs:simpleType>
</xs:schema>"#
            ),
        ),
        (
            "b.xsd",
            format!(
                r#"<xs:schema {XS} targetNamespace="urn:b" xmlns:b="urn:b">
  <xs:include schemaLocation="a.xsd"/>
  <xs:element name="item" type="b:A"/>
</xs:schema>"#
            ),
        ),
        (
            "c.xsd",
            format!(
                r#"<xs:schema {XS} targetNamespace="urn:m" xmlns:m="urn:m" elementFormDefault="qualified">
  <xs:complexType name="C"><xs:sequence><xs:element name="x" type="xs:int"/></xs:sequence></xs:complexType>
</xs:schema>"#
            ),
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("a schema file");
    }
}

/// How many documents were parsed, and modelled by xsd-parser, while `run` ran.
fn counted<T>(run: impl FnOnce() -> T) -> (T, usize, usize) {
    let (parsed, modelled) = (documents_parsed(), models_read());
    let out = run();
    (out, documents_parsed() - parsed, models_read() - modelled)
}

#[test]
fn each_document_is_parsed_once_per_run() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    write_schemas(dir.path());
    let at = |name: &str| -> PathBuf { dir.path().join(name) };

    // check: main, a (in two namespaces), b and c.
    let (report, parsed, modelled) = counted(|| check_files(&[at("main.xsd")], &[]));
    assert_eq!(report.verdict, Verdict::Supported, "{}", report.diagnostics);
    assert!(
        report.diagnostics.to_string().contains("missing.xsd"),
        "{}",
        report.diagnostics
    );
    assert_eq!((parsed, modelled), (4, 4), "check");

    // validator: two sets sharing a and b; main, other, a, b, c.
    let sets = [
        SetSpec {
            name: "main".into(),
            schemas: vec![at("main.xsd")],
        },
        SetSpec {
            name: "other".into(),
            schemas: vec![at("other.xsd")],
        },
    ];
    let (package, parsed, modelled) = counted(|| package(&sets, &[], &Runtime::Published));
    let package = package.unwrap_or_else(|f| panic!("{}", f.message));
    assert!(package.files.contains_key("src/sets/s_other.rs"));
    assert_eq!((parsed, modelled), (5, 5), "validator");

    // diff: both schemas bring in a, b and c; main, main2, a, b, c.
    let (report, parsed, modelled) =
        counted(|| boardxml_codegen::diff::diff_files(&at("main.xsd"), &at("main2.xsd")));
    let report = report.unwrap_or_else(|d| panic!("{d}"));
    assert!(
        !report.changes.is_empty(),
        "the two schemas differ: {report:?}"
    );
    assert_eq!((parsed, modelled), (5, 5), "diff");
}
