//! Type substitution (`xsi:type`, XSD 1.0 Part 1, 3.3.4 Element Locally Valid (Element) 4)
//! end to end: the generator computes from the schema which types may stand in for an
//! element's declared type (derivations, `block`, `blockDefault`, abstract types), and the
//! generated code, compiled, judges documents (valid ones read and written back with their
//! `xsi:type`, invalid ones refused where the attribute stands, saying why).

use std::path::Path;
use std::process::Command;

/// A schema in namespace `urn:t`: an abstract Shape with two extensions, a restriction of
/// one of them, a type derived from nothing here, a simple type restricting xs:int, a
/// union, and elements whose `block` or whose type's `block` forbid some of these.
const SCHEMA: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns="urn:t" targetNamespace="urn:t" elementFormDefault="qualified">
  <xs:complexType name="Shape" abstract="true">
    <xs:sequence><xs:element name="label" type="xs:string"/></xs:sequence>
  </xs:complexType>
  <xs:complexType name="Circle">
    <xs:complexContent><xs:extension base="Shape"><xs:sequence><xs:element name="r" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent>
  </xs:complexType>
  <xs:complexType name="Square" block="restriction">
    <xs:complexContent><xs:extension base="Shape"><xs:sequence><xs:element name="side" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent>
  </xs:complexType>
  <xs:complexType name="Tiny">
    <xs:complexContent><xs:restriction base="Square"><xs:sequence><xs:element name="label" type="xs:string"/><xs:element name="side" type="xs:int"/></xs:sequence></xs:restriction></xs:complexContent>
  </xs:complexType>
  <xs:complexType name="Other"><xs:sequence><xs:element name="x" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:simpleType name="Small"><xs:restriction base="xs:int"><xs:maxInclusive value="9"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="U"><xs:union memberTypes="xs:int xs:boolean"/></xs:simpleType>
  <xs:element name="drawing">
    <xs:complexType><xs:sequence>
      <xs:element name="shape" type="Shape" maxOccurs="unbounded"/>
      <xs:element name="sq" type="Square" minOccurs="0"/>
      <xs:element name="noext" type="Shape" block="extension" minOccurs="0"/>
      <xs:element name="n" type="xs:int" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="d" type="xs:decimal" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="s" type="xs:string" minOccurs="0"/>
      <xs:element name="u" type="U" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="nb" type="xs:int" block="restriction" minOccurs="0"/>
      <xs:element name="any" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="anyb" block="restriction" minOccurs="0"/>
      <xs:element name="other" type="Other" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>
"#;

/// Generated code without white space (and the trailing commas of wrapped lists), so that
/// what a test looks for does not depend on where the formatter breaks lines.
fn flat(code: &str) -> String {
    let s: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    s.replace(",]", "]").replace(",)", ")")
}

/// Whether generated `code` holds `needle`, white space aside.
fn holds(code: &str, needle: &str) -> bool {
    flat(code).contains(&flat(needle))
}

fn generate(schema: &str) -> Result<String, String> {
    match boardxml_codegen::generate_str(Path::new("t.xsd"), schema) {
        Ok((_, code)) => Ok(code),
        Err(d) => Err(d.to_string()),
    }
}

#[test]
fn the_types_that_stand_in_are_computed_from_the_schema() {
    let code = generate(SCHEMA).unwrap();
    // shape: the abstract Shape, for which every derived type but none may stand in
    // (Tiny through Square by extension, then restriction: Square's block forbids
    // restriction only for elements declared Square).
    assert!(
        holds(
            &code,
            r#"members: &["{urn:t}Circle", "{urn:t}Square", "{urn:t}Tiny"]"#
        ),
        "{code}"
    );
    assert!(holds(&code, "declared_abstract: true"), "{code}");
    // noext: block="extension" leaves nothing, each refusal with its reason.
    assert!(
        holds(
            &code,
            r#"("{urn:t}Circle", "it is derived by extension, and the element's block (or blockDefault) forbids extension")"#
        ),
        "{code}"
    );
    // sq: Square's own block="restriction" refuses Tiny, so nothing stands in for
    // Square and the element keeps its type (no enum for it).
    assert!(!code.contains("SquareTyped"), "{code}");
    assert!(
        holds(&code, "pub sq: ::core::option::Option<Square>"),
        "{code}"
    );
    // n: xs:int, a simple type: the field keeps i32 (no enum), and its table offers the
    // built-ins derived from xs:int and the schema's Small, each validated as itself.
    assert!(!code.contains("IntTyped"), "{code}");
    assert!(holds(&code, "pub n: ::std::vec::Vec<i32>"), "{code}");
    assert!(
        holds(
            &code,
            r#"pub const XSI_TYPES_INT: ::boardxml::type_substitution::SimpleTable = ::boardxml::type_substitution::SimpleTable {
                declared: ::core::option::Option::Some("{http://www.w3.org/2001/XMLSchema}int"),
                members: ::boardxml::xsi_members!["{http://www.w3.org/2001/XMLSchema}byte" => i8,
                    "{http://www.w3.org/2001/XMLSchema}short" => i16,
                    "{urn:t}Small" => Small],
                refused: &[],"#
        ),
        "{code}"
    );
    // nb: xs:int with block="restriction": every derived simple type refused, and why.
    assert!(
        holds(
            &code,
            r#"("{urn:t}Small", "it is derived by restriction, and the element's block (or blockDefault) forbids restriction (XSD 1.0, 3.14.6 clause 2.1)")"#
        ),
        "{code}"
    );
    // Other is known (a type of the schema), so naming it is "not derived", not "unknown".
    assert!(holds(&code, r#""{urn:t}Other""#), "{code}");
}

#[test]
fn block_default_keeps_every_element_as_declared() {
    let blocked = SCHEMA.replace(
        r#"elementFormDefault="qualified">"#,
        r#"elementFormDefault="qualified" blockDefault="extension restriction">"#,
    );
    let code = generate(&blocked).unwrap();
    // Only the abstract Shape is a substitution type: nothing may stand in for it.
    assert!(!code.contains("IntTyped"), "{code}");
    assert!(holds(&code, "pub enum ShapeTyped {}"), "{code}");
    // The simple elements keep their tables, every derived type refused.
    assert!(
        holds(
            &code,
            r#"declared: ::core::option::Option::Some("{http://www.w3.org/2001/XMLSchema}int"), members: ::boardxml::xsi_members![],"#
        ),
        "{code}"
    );
}

#[test]
fn a_union_s_members_stand_in_unless_restriction_is_blocked() {
    let schema = |block: &str| {
        format!(
            r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
<xs:simpleType name="U"><xs:union memberTypes="xs:int xs:boolean"/></xs:simpleType>
<xs:element name="e" type="U" {block}/>
</xs:schema>"#
        )
    };
    // The members, and the built-ins derived from a member (3.14.6 clause 2.2.4); the
    // element keeps the union's type.
    let code = generate(&schema("")).unwrap();
    assert!(!code.contains("UTyped"), "{code}");
    assert!(
        holds(
            &code,
            r#"members: ::boardxml::xsi_members!["{http://www.w3.org/2001/XMLSchema}boolean" => bool,
                "{http://www.w3.org/2001/XMLSchema}byte" => i8,
                "{http://www.w3.org/2001/XMLSchema}int" => i32,
                "{http://www.w3.org/2001/XMLSchema}short" => i16]"#
        ),
        "{code}"
    );
    let code = generate(&schema(r#"block="restriction""#)).unwrap();
    assert!(
        holds(&code, "members: ::boardxml::xsi_members![],"),
        "{code}"
    );
    assert!(
        holds(
            &code,
            r#"("{http://www.w3.org/2001/XMLSchema}int", "it is derived by restriction, and the element's block (or blockDefault) forbids restriction (XSD 1.0, 3.14.6 clause 2.1)")"#
        ),
        "{code}"
    );
}

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

// Each document: `ok` and the document written back, or its first error.
fn main() {
    for p in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&p).unwrap();
        let mut r = boardxml::xml::Reader::new(&text);
        let read = r.read_document::<t::__Document>();
        let found = r.into_diagnostics();
        match (read, found.first()) {
            (Ok(d), None) => {
                let mut w = boardxml::xml::Writer::new(boardxml::encoding_rs::UTF_8);
                d.write_root(&mut w);
                println!("ok {}", w.finish().replace('\n', " "));
            }
            // One-line documents of ASCII: the column is the offset plus one.
            (_, Some(e)) => println!("{} 1:{} {} {}", e.code.as_str(), e.offset + 1, e.path, e.message),
            (Err(_), None) => println!("error without a diagnostic"),
        }
    }
}
"#;

#[test]
fn generated_code_reads_writes_and_refuses_xsi_type() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("p");
    std::fs::create_dir_all(pkg.join("src")).unwrap();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = workspace.canonicalize().unwrap();
    std::fs::write(
        pkg.join("Cargo.toml"),
        format!(
            "[package]\nname = \"xsi-type-probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nboardxml = {{ path = {:?} }}\n\n[workspace]\n",
            workspace.display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(workspace.join("Cargo.lock"), pkg.join("Cargo.lock")).unwrap();
    std::fs::write(pkg.join("src/t.rs"), generate(SCHEMA).unwrap()).unwrap();
    std::fs::write(pkg.join("src/main.rs"), MAIN).unwrap();
    let docs: Vec<(&str, &str)> = vec![
        // Valid: derived types by extension and by restriction, prefixed and not, the
        // declared type named as such, a simple type standing in for xs:int.
        (
            "valid",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:t="urn:t"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><shape xsi:type="t:Tiny"><label>b</label><side>2</side></shape><n xmlns:xs="http://www.w3.org/2001/XMLSchema" xsi:type="xs:int">4</n><n xsi:type="Small">5</n><n>6</n></drawing>"#,
        ),
        (
            "abstract-without",
            r#"<drawing xmlns="urn:t"><shape><label>a</label></shape></drawing>"#,
        ),
        (
            "abstract-named",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><shape xsi:type="Shape"><label>a</label></shape></drawing>"#,
        ),
        (
            "not-derived",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><shape xsi:type="Other"><x>1</x></shape></drawing>"#,
        ),
        (
            "unknown",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><shape xsi:type="Nope"/></drawing>"#,
        ),
        (
            "blocked",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><noext xsi:type="Circle"><label>a</label><r>1</r></noext></drawing>"#,
        ),
        (
            "facet-of-the-named-type",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><n xsi:type="Small">10</n></drawing>"#,
        ),
        (
            "content-of-the-named-type",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><shape xsi:type="Circle"><label>a</label></shape></drawing>"#,
        ),
        // Simple declared types: a built-in derived from the declared built-in, a union
        // member, the declared type named as such, held as the declared type.
        (
            "simple-valid",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><d xsi:type="xs:integer">12</d><d xsi:type="xs:decimal">1.5</d><s xsi:type="xs:token">  a   b </s><u xsi:type="xs:boolean">true</u><nb xsi:type="xs:int">3</nb></drawing>"#,
        ),
        (
            "simple-builtin-invalid",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><d xsi:type="xs:integer">1.5</d></drawing>"#,
        ),
        (
            "simple-member-invalid",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><u xsi:type="xs:int">true</u></drawing>"#,
        ),
        (
            "simple-blocked",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><nb xsi:type="xs:short">3</nb></drawing>"#,
        ),
        (
            "simple-not-derived",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><d xsi:type="xs:string">1</d></drawing>"#,
        ),
        (
            "simple-unknown",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><d xsi:type="Nope">1</d></drawing>"#,
        ),
        // xs:anyType elements (no type given): a simple type named is checked (text only,
        // a value of it), the content kept as read, xsi:type with it; every simple type
        // derives from anyType by restriction, which block="restriction" forbids.
        (
            "any-simple-valid",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><any xsi:type="xs:int"> 5 </any><any xsi:type="Other"><x>1</x></any></drawing>"#,
        ),
        (
            "any-simple-child",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><any xsi:type="xs:int">5<x/></any></drawing>"#,
        ),
        (
            "any-simple-invalid",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><any xsi:type="Small">12</any></drawing>"#,
        ),
        // A type no other type is derived from stands in for itself, named with or
        // without a prefix; another type named is refused.
        (
            "self-named",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:t="urn:t"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><other xsi:type="Other"><x>1</x></other><other xsi:type="t:Other"><x>2</x></other></drawing>"#,
        ),
        (
            "self-not-derived",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:t="urn:t"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><other xsi:type="Circle"><x>1</x></other></drawing>"#,
        ),
        (
            "any-blocked",
            r#"<drawing xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"><shape xsi:type="Circle"><label>a</label><r>1</r></shape><anyb xsi:type="xs:int">5</anyb></drawing>"#,
        ),
    ];
    let mut args = Vec::new();
    for (name, text) in &docs {
        let p = dir.path().join(format!("{name}.xml"));
        std::fs::write(&p, text).unwrap();
        args.push(p);
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
    let exe = target_dir().join("debug/xsi-type-probe");
    let run = Command::new(&exe)
        .args(&args)
        .output()
        .expect("the probe runs");
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), docs.len(), "{out}");
    // The round trip keeps every xsi:type of a complex type (declaring the prefixes it
    // needs): the document written back reads to the same value. An element of a simple
    // declared type is held as that type, which has no place for the name: its value is
    // written back without it (valid for the declared type, the same value).
    assert_eq!(
        lines[0],
        r#"ok <?xml version="1.0" encoding="UTF-8"?> <drawing xmlns="urn:t">   <shape xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Circle">     <label>a</label>     <r>1</r>   </shape>   <shape xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Tiny">     <label>b</label>     <side>2</side>   </shape>   <n>4</n>   <n>5</n>   <n>6</n> </drawing> "#,
        "{out}"
    );
    let expect = [
        "E0205 1:24 /{urn:t}drawing/{urn:t}shape/@xsi:type <{urn:t}shape> has the abstract type {urn:t}Shape: it needs xsi:type naming a type derived from it",
        "E0204 1:85 /{urn:t}drawing/{urn:t}shape/@xsi:type xsi:type on <{urn:t}shape> names the type {urn:t}Shape, but the declared type {urn:t}Shape is abstract",
        "E0204 1:85 /{urn:t}drawing/{urn:t}shape/@xsi:type xsi:type on <{urn:t}shape> names the type {urn:t}Other, but it is not derived from the declared type {urn:t}Shape",
        "E0204 1:85 /{urn:t}drawing/{urn:t}shape/@xsi:type xsi:type on <{urn:t}shape> names the type {urn:t}Nope, but the schema defines no type of that name",
        "E0204 1:142 /{urn:t}drawing/{urn:t}noext/@xsi:type xsi:type on <{urn:t}noext> names the type {urn:t}Circle, but it does not stand in for the declared type {urn:t}Shape: it is derived by extension, and the element's block (or blockDefault) forbids extension",
        "E0211 1:135 /{urn:t}drawing/{urn:t}n the content of <{urn:t}n> (of the xsi:type {urn:t}Small) is out of range",
        "E0203 1:119 /{urn:t}drawing/{urn:t}shape missing element <{urn:t}r>",
        // Held as the declared types: xs:token's white space collapsed, xs:integer's 12 a
        // decimal (canonical 12.0), the union's member value.
        r#"ok <?xml version="1.0" encoding="UTF-8"?> <drawing xmlns="urn:t">   <shape xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Circle">     <label>a</label>     <r>1</r>   </shape>   <d>12.0</d>   <d>1.5</d>   <s>a b</s>   <u>true</u>   <nb>3</nb> </drawing>"#,
        "E0208 1:179 /{urn:t}drawing/{urn:t}d the content of <{urn:t}d> (of the xsi:type {http://www.w3.org/2001/XMLSchema}integer) is not a valid xs:integer",
        "E0208 1:179 /{urn:t}drawing/{urn:t}u the content of <{urn:t}u> (of the xsi:type {http://www.w3.org/2001/XMLSchema}int) is not a valid xs:int",
        "E0204 1:183 /{urn:t}drawing/{urn:t}nb/@xsi:type xsi:type on <{urn:t}nb> names the type {http://www.w3.org/2001/XMLSchema}short, but it does not stand in for the declared type {http://www.w3.org/2001/XMLSchema}int: it is derived by restriction, and the element's block (or blockDefault) forbids restriction",
        "E0204 1:182 /{urn:t}drawing/{urn:t}d/@xsi:type xsi:type on <{urn:t}d> names the type {http://www.w3.org/2001/XMLSchema}string, but it is not derived from the declared simple type {http://www.w3.org/2001/XMLSchema}decimal",
        "E0204 1:182 /{urn:t}drawing/{urn:t}d/@xsi:type xsi:type on <{urn:t}d> names the type {urn:t}Nope, but the schema defines no type of that name",
        r#"ok <?xml version="1.0" encoding="UTF-8"?> <drawing xmlns="urn:t">   <shape xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Circle">     <label>a</label>     <r>1</r>   </shape>   <any"#,
        "E0202 1:179 /{urn:t}drawing/{urn:t}any <{urn:t}any> has the simple type {http://www.w3.org/2001/XMLSchema}int (its xsi:type): it may hold text only, no element",
        "E0211 1:179 /{urn:t}drawing/{urn:t}any the content of <{urn:t}any> (of the xsi:type {urn:t}Small) is out of range",
        r#"ok <?xml version="1.0" encoding="UTF-8"?> <drawing xmlns="urn:t">   <shape xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Circle">     <label>a</label>     <r>1</r>   </shape>   <other>     <x>1</x>   </other>   <other>     <x>2</x>"#,
        "E0204 1:158 /{urn:t}drawing/{urn:t}other/@xsi:type xsi:type on <{urn:t}other> names the type {urn:t}Circle, but it does not stand in for the declared type {urn:t}Other: no type of the schema is derived from it",
        "E0204 1:185 /{urn:t}drawing/{urn:t}anyb/@xsi:type xsi:type on <{urn:t}anyb> names the type {http://www.w3.org/2001/XMLSchema}int, but it does not stand in for the declared type {http://www.w3.org/2001/XMLSchema}anyType: it is derived by restriction, and the element's block (or blockDefault) forbids restriction",
    ];
    assert_eq!(lines.len(), expect.len() + 1, "{out}");
    for (line, want) in lines[1..].iter().zip(expect) {
        assert!(
            line.starts_with(want),
            "{out}\n{line}\nshould start with\n{want}"
        );
    }
    // What was written back reads again, to the same document.
    let again = dir.path().join("again.xml");
    let written = lines[0].strip_prefix("ok ").unwrap();
    std::fs::write(&again, written).unwrap();
    let run = Command::new(&exe)
        .arg(&again)
        .output()
        .expect("the probe runs");
    assert_eq!(
        String::from_utf8_lossy(&run.stdout).trim_end(),
        lines[0].trim_end()
    );
}

/// A type 40 restrictions below the declared one stands in for it: the walk up the chain
/// of bases has no step limit of its own (the depth limits of `xsd::limits` bound it).
#[test]
fn a_long_chain_of_restrictions_stands_in() {
    let mut schema = String::from(
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t" xmlns="urn:t"><xs:simpleType name="T0"><xs:restriction base="xs:string"/></xs:simpleType>"#,
    );
    for i in 1..=40 {
        schema += &format!(
            r#"<xs:simpleType name="T{i}"><xs:restriction base="T{}"/></xs:simpleType>"#,
            i - 1
        );
    }
    schema += r#"<xs:element name="e" type="T0"/></xs:schema>"#;
    let code = generate(&schema).unwrap();
    assert!(holds(&code, r#""{urn:t}T40" => T40"#), "{code}");
}
