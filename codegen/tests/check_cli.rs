//! `boardxml-codegen check`: its exit statuses and its located messages.

use std::path::Path;
use std::process::Command;

fn check(args: &[&Path]) -> (i32, String) {
    check_with_all(&[], args)
}

/// `check FLAGS... SCHEMAS...`: the exit status and the standard error.
fn check_with_all(flags: &[&str], schemas: &[&Path]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
        .arg("check")
        .args(flags)
        .args(schemas)
        .output()
        .expect("the binary runs");
    (
        out.status.code().expect("an exit status"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const HEAD: &str = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n";

#[test]
fn exit_statuses_say_supported_invalid_unsupported_and_usage() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, body: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, format!("{HEAD}{body}</xs:schema>\n")).unwrap();
        p
    };
    let good = write("good.xsd", "<xs:element name=\"a\" type=\"xs:string\"/>\n");
    let cycle = write(
        "cycle.xsd",
        "<xs:simpleType name=\"foo\"><xs:restriction base=\"foo\"/></xs:simpleType>\n<xs:element name=\"e\" type=\"foo\"/>\n",
    );
    let group = write(
        "group.xsd",
        "<xs:complexType name=\"k\"><xs:sequence minOccurs=\"2\" maxOccurs=\"2\"><xs:choice><xs:element name=\"e\" maxOccurs=\"unbounded\"/><xs:element name=\"c\"/></xs:choice><xs:element name=\"d\" minOccurs=\"0\"/></xs:sequence></xs:complexType>\n",
    );
    let occurs = write(
        "occurs.xsd",
        "<xs:complexType name=\"t\"><xs:sequence><xs:element name=\"a\" type=\"xs:string\" minOccurs=\"2\" maxOccurs=\"1\"/></xs:sequence></xs:complexType>\n",
    );
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");

    assert_eq!(check(&[&good]).0, 0);
    let ours: Vec<_> = ["cif.xsd", "cbf-2007.xsd", "cbf-1.0.xsd"]
        .iter()
        .map(|f| schemas.join(f))
        .collect();
    // The files given form one schema: ours are three, each checked alone.
    for p in &ours {
        assert_eq!(check(&[p]).0, 0, "{} is valid and supported", p.display());
    }

    let (code, err) = check(&[&cycle]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("cycle.xsd:2:1: error: a simple type derived from itself: foo -> foo"),
        "{err}"
    );

    let (code, err) = check(&[&group]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("reading such counted repetitions is not supported yet"),
        "{err}"
    );

    let (code, err) = check(&[&occurs]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("minOccurs 2 is greater than maxOccurs 1"),
        "{err}"
    );

    // The worst verdict wins, and an invalid schema is never hidden by an unsupported one.
    assert_eq!(check(&[&good, &group]).0, 3);
    assert_eq!(check(&[&group, &cycle, &good]).0, 1);

    // Usage and I/O.
    assert_eq!(check(&[]).0, 2);
    assert_eq!(check(&[dir.path()]).0, 2, "a folder");
    assert_eq!(check(&[&dir.path().join("missing.xsd")]).0, 2);
}

/// Conditional inclusion (XSD 1.1 Part 1, 4.2.1): `check` reads a schema as XSD 1.0 does,
/// leaving out what asks for a later version. An assertion is no XSD 1.0 construct: under
/// `vc:minVersion="1.1"` the schema is valid 1.0; without it, it is not.
#[test]
fn conditional_inclusion_leaves_an_assertion_to_xsd_1_1() {
    let dir = tempfile::tempdir().unwrap();
    let schema = |vc: &str| {
        format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\">\n<xs:element name=\"t\"><xs:complexType><xs:attribute name=\"x\" type=\"xs:int\"/>\n<xs:assert test=\"@x > 3\"{vc}/>\n</xs:complexType></xs:element></xs:schema>\n"
        )
    };
    let kept = dir.path().join("kept.xsd");
    std::fs::write(&kept, schema("")).unwrap();
    let left_out = dir.path().join("left-out.xsd");
    std::fs::write(&left_out, schema(" vc:minVersion=\"1.1\"")).unwrap();
    let (code, err) = check(&[&left_out]);
    assert_eq!(code, 0, "{err}");
    let (code, err) = check(&[&kept]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("kept.xsd:3:1"), "{err}");
}

fn check_with(flags: &[&str], schema: &Path) -> (i32, String) {
    check_with_all(flags, &[schema])
}

/// `--xsd-version` chooses the version every document is read as; conditional inclusion
/// then selects for it, the root's own `vc:minVersion` included.
#[test]
fn xsd_version_chooses_how_the_schema_is_read() {
    let dir = tempfile::tempdir().unwrap();
    // An XSD 1.1 construct with no version said: an error read as 1.0, valid read as 1.1.
    let assertion = dir.path().join("assertion.xsd");
    std::fs::write(&assertion, format!("{HEAD}<xs:element name=\"t\"><xs:complexType><xs:attribute name=\"x\" type=\"xs:int\"/>\n<xs:assert test=\"@x > 3\"/>\n</xs:complexType></xs:element></xs:schema>\n")).unwrap();
    let (code, err) = check_with(&[], &assertion);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("breaks XSD"), "{err}");
    let (code, err) = check_with(&["--xsd-version", "1.0"], &assertion);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("breaks XSD 1.0"), "{err}");
    let (code, err) = check_with(&["--xsd-version", "1.1"], &assertion);
    assert_eq!(code, 0, "{err}");
    // A schema that asks for XSD 1.1 is, read as 1.0, an empty schema: valid, with a
    // warning at its xs:schema.
    let asks = dir.path().join("asks.xsd");
    std::fs::write(&asks, "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"\n  xmlns:vc=\"http://www.w3.org/2007/XMLSchema-versioning\" vc:minVersion=\"1.1\">\n<xs:element name=\"t\" type=\"xs:nope\"/></xs:schema>\n").unwrap();
    let (code, err) = check_with(&["--xsd-version", "1.0"], &asks);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("asks.xsd:1:1: warning: conditional inclusion"),
        "{err}"
    );
    let (code, err) = check_with(&["--xsd-version", "1.1"], &asks);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("breaks XSD 1.1"), "{err}");
    // Our own schemas, each as what it is.
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let (code, err) = check_with(&["--xsd-version", "1.1"], &schemas.join("cif.xsd"));
    assert_eq!(code, 0, "{err}");
    for cbf in ["cbf-2007.xsd", "cbf-1.0.xsd"] {
        let (code, err) = check_with(&["--xsd-version", "1.0"], &schemas.join(cbf));
        assert_eq!(code, 0, "{cbf}: {err}");
    }
    // XSD 1.1's built-in types: built (with their facets and values checked) in 1.1, no
    // types at all in 1.0.
    let types = dir.path().join("types.xsd");
    let body = |default: &str| {
        format!("{HEAD}<xs:element name=\"r\"><xs:complexType><xs:sequence>\n<xs:element name=\"stamp\" type=\"xs:dateTimeStamp\"/>\n<xs:element name=\"dt\" type=\"xs:dayTimeDuration\" default=\"{default}\"/>\n<xs:element name=\"ym\"><xs:simpleType><xs:restriction base=\"xs:yearMonthDuration\"><xs:maxInclusive value=\"P2Y\"/></xs:restriction></xs:simpleType></xs:element>\n</xs:sequence></xs:complexType></xs:element></xs:schema>\n")
    };
    std::fs::write(&types, body("PT5M")).unwrap();
    let (code, err) = check_with(&["--xsd-version", "1.1"], &types);
    assert_eq!(code, 0, "{err}");
    let (code, err) = check_with(&["--xsd-version", "1.0"], &types);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("types.xsd:3:1: error: xs:dateTimeStamp is not a built-in type of XSD 1.0"),
        "{err}"
    );
    std::fs::write(&types, body("P1M")).unwrap();
    let (code, err) = check_with(&["--xsd-version", "1.1"], &types);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("\"P1M\" is not a value of \"xs:dayTimeDuration\""),
        "{err}"
    );
    // Not a version.
    let (code, err) = check_with(&["--xsd-version", "2.0"], &assertion);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("an XSD version is 1.0 or 1.1"), "{err}");
}

/// A schema document is decoded as XML reads it: UTF-16 with a byte order mark, or the
/// encoding its declaration names; bytes that encoding does not have are an error where
/// they stand.
#[test]
fn schema_documents_in_other_encodings_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n{HEAD}<xs:element name=\"caf\u{e9}\" type=\"xs:string\"/>\n<xs:element name=\"x\" type=\"xs:nope\"/></xs:schema>\n");
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let path = dir.path().join("utf16.xsd");
    std::fs::write(&path, utf16).unwrap();
    let (code, err) = check(&[&path]);
    assert_eq!(code, 1, "{err}");
    // Located in characters, as in any other document.
    assert!(err.contains("utf16.xsd:4:1"), "{err}");
    assert!(err.contains("xs:nope"), "{err}");
    let latin1 = dir.path().join("latin1.xsd");
    let mut bytes = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n".to_vec();
    bytes.extend(HEAD.as_bytes());
    bytes.extend(b"<xs:element name=\"caf\xe9\" type=\"xs:string\"/></xs:schema>\n");
    std::fs::write(&latin1, &bytes).unwrap();
    let (code, err) = check(&[&latin1]);
    assert_eq!(code, 0, "{err}");
    // The same bytes declared as (or defaulting to) UTF-8 are not well-formed.
    let bad = dir.path().join("bad.xsd");
    std::fs::write(
        &bad,
        &bytes[bytes.iter().position(|&b| b == b'\n').unwrap() + 1..],
    )
    .unwrap();
    let (code, err) = check(&[&bad]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not valid UTF-8"), "{err}");
}

/// `regex --xsd-version 1.1` reads the pattern as XSD 1.1 does; without it, as 1.0.
#[test]
fn regex_reads_a_pattern_as_the_version_chosen() {
    use std::io::Write;
    let run = |flags: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
            .arg("regex")
            .args(flags)
            .arg("[a-c-1-4]+")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A pattern it refuses ends the program before it reads its input: a broken
        // pipe then is no failure of the test.
        let written = child.stdin.take().unwrap().write_all(b"\"a-3\"\n\"d\"\n");
        if let Err(e) = written {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
        let out = child.wait_with_output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(
        run(&["--xsd-version", "1.1"]),
        (0, "true\nfalse\n".into(), String::new())
    );
    let (code, out, err) = run(&[]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("`-` is only allowed at the start or end"),
        "{err}"
    );
}
