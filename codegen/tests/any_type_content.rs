//! The content of `xs:anyType` is laxly assessed (XSD 1.0 Part 1, 3.4.7: the ur-type's
//! content is a lax `##any` element wildcard, mixed, with a lax `##any` attribute
//! wildcard) end to end: generated code, compiled, validates each child element that has
//! a global declaration against it and each attribute that has a global attribute
//! declaration against that, at any depth of undeclared elements; keeps the rest whole;
//! writes the document back to one that reads to the same value; and leaves a skip
//! wildcard's content unassessed.

use std::path::Path;
use std::process::Command;

const SCHEMA: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t" elementFormDefault="qualified">
  <xs:attribute name="when" type="xs:date"/>
  <xs:element name="count" type="xs:int"/>
  <xs:element name="pair">
    <xs:complexType>
      <xs:sequence><xs:element name="a" type="xs:int"/><xs:element name="b"/></xs:sequence>
      <xs:attribute name="n" type="xs:int"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="doc"/>
  <xs:element name="box">
    <xs:complexType><xs:sequence><xs:element name="open" type="xs:anyType" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  </xs:element>
  <xs:element name="typed">
    <xs:complexType><xs:sequence><xs:element name="v" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
    <xs:unique name="distinct"><xs:selector xpath="t:v"/><xs:field xpath="."/></xs:unique>
  </xs:element>
  <xs:element name="laxly">
    <xs:complexType><xs:sequence><xs:any processContents="lax" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  </xs:element>
  <xs:attribute name="id" type="xs:int"/>
  <xs:element name="keyed">
    <xs:key name="ids"><xs:selector xpath="*"/><xs:field xpath="@t:id"/></xs:key>
  </xs:element>
  <xs:element name="self" type="xs:int">
    <xs:unique name="itself"><xs:selector xpath="."/><xs:field xpath="."/></xs:unique>
  </xs:element>
  <xs:complexType name="Labelled">
    <xs:complexContent><xs:extension base="xs:anyType"><xs:attribute name="label" type="xs:int"/></xs:extension></xs:complexContent>
  </xs:complexType>
  <xs:element name="labelled" type="t:Labelled"/>
  <xs:element name="skipped">
    <xs:complexType><xs:sequence><xs:any processContents="skip" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>
"#;

/// The workspace's target folder: the test program below shares the runtime's build.
fn target_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target/tmp is in the target folder")
        .to_owned()
}

const MAIN: &str = r#"
#[path = "t.rs"]
#[allow(dead_code)]
mod t;
use boardxml::schema::Document as _;

// Each document: `ok` and the document written back, or its first error; read once more
// without keeping (as a validator reads), which must come to the same verdict.
fn main() {
    for p in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&p).unwrap();
        let mut r = boardxml::xml::Reader::new(&text);
        let read = r.read_document::<t::__Document>();
        let found = r.into_diagnostics();
        let mut v = boardxml::xml::Reader::new(&text).without_retaining();
        let validated = v.read_document::<t::__Document>().is_ok() && v.into_diagnostics().is_empty();
        if validated != (read.is_ok() && found.is_empty()) {
            println!("the verdicts differ: kept {}, validated {validated}", read.is_ok());
            continue;
        }
        match (read, found.first()) {
            (Ok(d), None) => {
                let mut w = boardxml::xml::Writer::new(boardxml::encoding_rs::UTF_8);
                d.write_root(&mut w);
                println!("ok {}", w.finish().replace('\n', " "));
            }
            (_, Some(e)) => println!("{} {} {}", e.code.as_str(), e.path, e.message),
            (Err(_), None) => println!("error without a diagnostic"),
        }
    }
}
"#;

fn run(exe: &Path, docs: &[&Path]) -> Vec<String> {
    let out = Command::new(exe)
        .args(docs)
        .output()
        .expect("the probe runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn any_type_content_is_assessed_laxly_at_any_depth() {
    let (_, code) = boardxml_codegen::generate_str(Path::new("t.xsd"), SCHEMA)
        .unwrap_or_else(|d| panic!("{d}"));
    // One enum of anyType content for the schema, shared by `doc` and `open`.
    assert_eq!(
        code.matches("pub type AnyTypeChild = ::boardxml::any::lax::AnyChild<GlobalElement>;")
            .count(),
        1,
        "{code}"
    );
    assert!(
        code.matches("LaxContent<AnyTypeChild>").count() >= 3,
        "{code}"
    );
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("p");
    std::fs::create_dir_all(pkg.join("src")).unwrap();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = workspace.canonicalize().unwrap();
    std::fs::write(
        pkg.join("Cargo.toml"),
        format!(
            "[package]\nname = \"lax-any-type-probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nboardxml = {{ path = {:?} }}\n\n[workspace]\n",
            workspace.display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(workspace.join("Cargo.lock"), pkg.join("Cargo.lock")).unwrap();
    std::fs::write(pkg.join("src/t.rs"), &code).unwrap();
    std::fs::write(pkg.join("src/main.rs"), MAIN).unwrap();
    let docs: Vec<(&str, &str)> = vec![
        // Valid: declared children and attributes where the schema has them, undeclared
        // ones (in any namespace, with any attribute) kept, declared ones inside them.
        (
            "valid",
            r#"<doc xmlns="urn:t" xmlns:t="urn:t" t:when="2020-01-01" other="x">text<count>3</count><free xmlns="urn:f" t:when="2021-02-03"><t:count>4</t:count><deep><t:pair n="1"><t:a>1</t:a><t:b>any<t:count>5</t:count></t:b></t:pair></deep></free><plain xmlns=""/></doc>"#,
        ),
        (
            "attribute-on-the-element",
            r#"<doc xmlns="urn:t" xmlns:t="urn:t" t:when="soon"/>"#,
        ),
        (
            "declared-child",
            r#"<doc xmlns="urn:t"><count>x</count></doc>"#,
        ),
        (
            "declared-child-at-depth",
            r#"<doc xmlns="urn:t"><free><free2><count>x</count></free2></free></doc>"#,
        ),
        (
            "attribute-at-depth",
            r#"<doc xmlns="urn:t" xmlns:t="urn:t"><free><x t:when="no"/></free></doc>"#,
        ),
        (
            "declared-content-model",
            r#"<doc xmlns="urn:t"><pair><a>1</a></pair></doc>"#,
        ),
        (
            "local-any-type-element",
            r#"<box xmlns="urn:t"><open><count>y</count></open></box>"#,
        ),
        // xsi:type naming a simple type: the content is judged by it, and is its value
        // for identity constraints (an int 1 and a float 1 are different values).
        (
            "xsi-type-simple",
            r#"<typed xmlns="urn:t" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><v xsi:type="xs:int">1</v><v xsi:type="xs:float">1</v></typed>"#,
        ),
        (
            "xsi-type-simple-invalid",
            r#"<typed xmlns="urn:t" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><v xsi:type="xs:int">x</v></typed>"#,
        ),
        (
            "xsi-type-simple-same-value",
            r#"<typed xmlns="urn:t" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><v xsi:type="xs:int">1</v><v xsi:type="xs:int">01</v></typed>"#,
        ),
        // A simple type allows no attribute but xsi: ones (cvc-type.3.1.1).
        (
            "xsi-type-simple-attribute",
            r#"<typed xmlns="urn:t" xmlns:t="urn:t" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><v xsi:type="xs:int" t:when="2020-01-01">1</v></typed>"#,
        ),
        // A skip wildcard assesses nothing.
        (
            "skip",
            r#"<skipped xmlns="urn:t"><count>z</count></skipped>"#,
        ),
        // A lax wildcard's undeclared element is assessed against the ur-type (3.3.4
        // Schema-Validity Assessment (Element) 2): declared children at any depth.
        (
            "lax-wildcard-at-depth",
            r#"<laxly xmlns="urn:t" xmlns:t="urn:t"><free><deeper><count>z</count></deeper></free></laxly>"#,
        ),
        (
            "lax-wildcard-attribute-at-depth",
            r#"<laxly xmlns="urn:t" xmlns:t="urn:t"><free><x t:id="one"/></free></laxly>"#,
        ),
        // Identity constraints on an element of xs:anyType: a field takes the typed
        // value an attribute's global declaration gives (1 and 01 are one int) ...
        (
            "key-on-any-type-distinct",
            r#"<keyed xmlns="urn:t" xmlns:t="urn:t"><a t:id="1"/><b t:id="2">text<c/></b></keyed>"#,
        ),
        (
            "key-on-any-type-repeated",
            r#"<keyed xmlns="urn:t" xmlns:t="urn:t"><a t:id="1"/><b t:id="01"/></keyed>"#,
        ),
        // ... and an attribute the schema does not declare has no typed value (3.11.4).
        (
            "key-on-any-type-undeclared-attribute",
            r#"<keyed xmlns="urn:t" xmlns:t="urn:t"><a t:id="1"/><b id="2"/></keyed>"#,
        ),
        // On an element of a simple built-in type, selecting itself.
        (
            "unique-on-a-simple-type",
            r#"<self xmlns="urn:t">07</self>"#,
        ),
        (
            "unique-on-a-simple-type-invalid",
            r#"<self xmlns="urn:t">x</self>"#,
        ),
        // An extension of xs:anyType keeps its open content and adds the attribute.
        (
            "extension-of-any-type",
            r#"<labelled xmlns="urn:t" xmlns:t="urn:t" label="3" other="o" t:id="4">x<count>5</count><free/></labelled>"#,
        ),
        (
            "extension-of-any-type-invalid",
            r#"<labelled xmlns="urn:t" label="three"><count>5</count></labelled>"#,
        ),
        (
            "extension-of-any-type-invalid-child",
            r#"<labelled xmlns="urn:t"><free><count>five</count></free></labelled>"#,
        ),
    ];
    let mut paths = Vec::new();
    for (name, text) in &docs {
        let p = dir.path().join(format!("{name}.xml"));
        std::fs::write(&p, text).unwrap();
        paths.push(p);
    }
    let build = Command::new(env!("CARGO"))
        .args(["build", "-q", "--offline", "--message-format", "short"])
        .arg("--manifest-path")
        .arg(pkg.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("cargo runs");
    assert!(
        build.status.success(),
        "the generated code does not compile:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let exe = target_dir().join("debug/lax-any-type-probe");
    let refs: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
    let lines = run(&exe, &refs);
    let all = lines.join("\n");
    assert_eq!(lines.len(), docs.len(), "{all}");
    // Kept whole: undeclared names, their namespaces (an undeclared element takes a
    // prefix rather than rebind the default namespace its declared children are written
    // by), attributes and text.
    assert_eq!(
        lines[0],
        r#"ok <?xml version="1.0" encoding="UTF-8"?> <doc xmlns="urn:t" xmlns:t="urn:t" t:when="2020-01-01" other="x">text<count>3</count><ns0:free xmlns:ns0="urn:f" t:when="2021-02-03"><count>4</count><ns0:deep><pair n="1"><a>1</a><b>any<count>5</count></b></pair></ns0:deep></ns0:free><plain xmlns=""/></doc> "#,
        "{all}"
    );
    // The verdicts of the two reads agree on every document.
    assert!(!all.contains("the verdicts differ"), "{all}");
    let expect = [
        "E0208 /{urn:t}doc/@{urn:t}when attribute {urn:t}when is not a valid xs:date",
        "E0208 /{urn:t}doc/{urn:t}count the content of <{urn:t}count> is not a valid xs:int",
        "E0208 /{urn:t}doc/{urn:t}free/{urn:t}free2/{urn:t}count the content of <{urn:t}count> is not a valid xs:int",
        "E0208 /{urn:t}doc/{urn:t}free/{urn:t}x/@{urn:t}when attribute {urn:t}when is not a valid xs:date",
        "E0203 /{urn:t}doc/{urn:t}pair missing element <{urn:t}b>",
        "E0208 /{urn:t}box/{urn:t}open/{urn:t}count the content of <{urn:t}count> is not a valid xs:int",
    ];
    for (line, want) in lines[1..7].iter().zip(expect) {
        assert!(
            line.starts_with(want),
            "{all}\n{line}\nshould start with\n{want}"
        );
    }
    assert!(lines[7].starts_with("ok "), "{all}");
    // Written back, an xsi:type declares the prefix of its value (the document declared
    // it on an element the writer writes without it).
    assert!(
        lines[7]
            .contains(r#"xmlns:xs="http://www.w3.org/2001/XMLSchema" xsi:type="xs:float">1</v>"#),
        "{all}"
    );
    assert!(
        lines[8].starts_with("E0208 /{urn:t}typed/{urn:t}v the content of <{urn:t}v> (of the xsi:type {http://www.w3.org/2001/XMLSchema}int) is not a valid xs:int"),
        "{all}"
    );
    assert!(lines[9].starts_with("E0217 "), "{all}");
    assert!(
        lines[10].starts_with("E0204 /{urn:t}typed/{urn:t}v <{urn:t}v> has the simple type {http://www.w3.org/2001/XMLSchema}int (its xsi:type), which allows no attribute"),
        "{all}"
    );
    assert!(lines[11].starts_with("ok "), "{all}");
    let expect = [
        "E0208 /{urn:t}laxly/{urn:t}free/{urn:t}deeper/{urn:t}count the content of <{urn:t}count> is not a valid xs:int",
        "E0208 /{urn:t}laxly/{urn:t}free/{urn:t}x/@{urn:t}id attribute {urn:t}id is not a valid xs:int",
        "ok ",
        "E0217 /{urn:t}keyed/{urn:t}b the xs:key \"ids\" has the value \"1\" here and at /{urn:t}keyed/{urn:t}a already",
        "E0218 /{urn:t}keyed/{urn:t}b the field @t:id of the xs:key \"ids\" selects nothing here",
        "ok ",
        "E0208 /{urn:t}self the content of <{urn:t}self> is not a valid xs:int",
        "ok ",
        "E0208 /{urn:t}labelled/@label attribute label is not a valid xs:int",
        "E0208 /{urn:t}labelled/{urn:t}free/{urn:t}count the content of <{urn:t}count> is not a valid xs:int",
    ];
    for (line, want) in lines[12..].iter().zip(expect) {
        assert!(
            line.starts_with(want),
            "{all}\n{line}\nshould start with\n{want}"
        );
    }
    // What was written back reads again, to the same document.
    for i in [0, 7, 14, 17, 19] {
        let again = dir.path().join(format!("again{i}.xml"));
        std::fs::write(&again, lines[i].strip_prefix("ok ").unwrap()).unwrap();
        assert_eq!(run(&exe, &[&again]), vec![lines[i].clone()]);
    }
}
