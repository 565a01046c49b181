//! `boardxml_codegen::Config`, the build.rs API: attributes land on the named type and
//! field, a name the generated code lacks is an error naming it, and every document read
//! (includes too) is listed for `cargo:rerun-if-changed`.

use std::path::Path;

use boardxml_codegen::Config;

const MAIN: &str = r#"<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:include schemaLocation="point.xsd"/>
  <xs:element name="track" type="trackType"/>
  <xs:complexType name="trackType">
    <xs:sequence>
      <xs:element name="name" type="xs:string"/>
      <xs:element name="pt" type="pointType" maxOccurs="unbounded"/>
    </xs:sequence>
  </xs:complexType>
</xs:schema>"#;

const POINT: &str = r#"<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:complexType name="pointType">
    <xs:attribute name="lat" type="xs:decimal" use="required"/>
  </xs:complexType>
</xs:schema>"#;

fn schema_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("track.xsd"), MAIN).unwrap();
    std::fs::write(dir.path().join("point.xsd"), POINT).unwrap();
    dir
}

fn config(out: &Path) -> Config {
    let mut c = Config::new();
    c.out_dir(out).emit_rerun_if_changed(false);
    c
}

#[test]
fn attributes_land_on_their_type_and_field_and_every_document_is_listed() {
    let dir = schema_dir();
    let out = dir.path().join("out");
    let compiled = config(&out)
        .type_attribute("trackType", "#[derive(PartialOrd)]")
        .type_attribute("PointType", "#[doc(alias = \"waypoint\")]")
        .field_attribute("trackType.name", "#[doc(alias = \"title\")]")
        .compile(&[dir.path().join("track.xsd")])
        .unwrap();
    assert_eq!(compiled.output, out.join("track.rs"));
    let text = std::fs::read_to_string(&compiled.output).unwrap();
    assert!(text.starts_with("// @generated"), "header kept");
    let track = &text[text.find("pub struct TrackType").unwrap() - 120..];
    let before_track = &text[..text.find("pub struct TrackType").unwrap()];
    assert!(
        before_track
            .rsplit("pub struct")
            .next()
            .unwrap()
            .contains("PartialOrd"),
        "derive on TrackType: {track}"
    );
    let point = &text[..text.find("pub struct PointType").unwrap()];
    assert!(point
        .rsplit("pub struct")
        .next()
        .unwrap()
        .contains("alias = \"waypoint\""));
    let body = &text[text.find("pub struct TrackType").unwrap()..];
    let body = &body[..body.find('}').unwrap()];
    let name_at = body.find("pub name").unwrap();
    assert!(body[..name_at].contains("alias = \"title\""), "{body}");
    assert!(!body[name_at..].contains("alias"), "only on name: {body}");
    // Both documents, the include too.
    let names: Vec<String> = compiled
        .inputs
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["track.xsd", "point.xsd"]);
}

#[test]
fn an_unknown_type_or_field_is_an_error_naming_it() {
    let dir = schema_dir();
    let out = dir.path().join("out");
    let e = config(&out)
        .type_attribute("routeType", "#[derive(PartialOrd)]")
        .field_attribute("trackType.title", "#[doc(alias = \"x\")]")
        .field_attribute("nosuch.f", "#[doc(alias = \"x\")]")
        .compile(&[dir.path().join("track.xsd")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("no generated type is named routeType"), "{e}");
    assert!(
        e.contains("has no field title") && e.contains("name, pt"),
        "{e}"
    );
    assert!(e.contains("no generated type is named nosuch"), "{e}");
    assert!(
        !out.join("track.rs").exists(),
        "nothing written on an error"
    );
}

#[test]
fn a_bad_attribute_and_a_missing_schema_are_errors() {
    let dir = schema_dir();
    let out = dir.path().join("out");
    let e = config(&out)
        .type_attribute(".", "derive(Debug)")
        .compile(&[dir.path().join("track.xsd")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("is not an attribute"), "{e}");
    let e = config(&out)
        .compile(&[dir.path().join("gone.xsd")])
        .unwrap_err();
    assert!(e.to_string().contains("gone.xsd"), "{e}");
}

#[test]
fn extern_types_and_allowed_folders_are_passed_on() {
    let dir = schema_dir();
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("point.xsd"), POINT).unwrap();
    std::fs::remove_file(dir.path().join("point.xsd")).unwrap();
    let main = MAIN.replace(
        "point.xsd",
        &other.path().join("point.xsd").display().to_string(),
    );
    std::fs::write(dir.path().join("track.xsd"), main).unwrap();
    let out = dir.path().join("out");
    // Outside the schema's folder: refused until allowed.
    let e = config(&out)
        .compile(&[dir.path().join("track.xsd")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("outside the allowed folders"), "{e}");
    let compiled = config(&out)
        .allow_path(other.path())
        .compile(&[dir.path().join("track.xsd")])
        .unwrap();
    assert_eq!(compiled.inputs.len(), 2);
    // A binding for a type the schema lacks is an error naming it.
    let e = config(&out)
        .allow_path(other.path())
        .extern_type("Nope", "::std::string::String")
        .compile(&[dir.path().join("track.xsd")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("Nope"), "{e}");
}

/// A document built into the generator (the W3C's XLink and XML namespace documents, named
/// by their `http://www.w3.org/` locations) is no file: the build depends on the schemas'
/// own files only, not on a path that never exists (which would rerun it every time).
#[test]
fn a_built_in_document_is_no_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("linked.xsd"),
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xlink="http://www.w3.org/1999/xlink">
  <xs:import namespace="http://www.w3.org/1999/xlink" schemaLocation="http://www.w3.org/XML/2008/06/xlink.xsd"/>
  <xs:element name="link">
    <xs:complexType><xs:attributeGroup ref="xlink:simpleAttrs"/></xs:complexType>
  </xs:element>
</xs:schema>"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let compiled = config(&out)
        .compile(&[dir.path().join("linked.xsd")])
        .unwrap();
    let names: Vec<String> = compiled
        .inputs
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].ends_with("linked.xsd"), "{names:?}");
}
