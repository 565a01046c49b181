//! `boardxml-codegen check`: its exit statuses and its located messages.

use std::path::Path;
use std::process::Command;

fn check(args: &[&Path]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
        .arg("check")
        .args(args)
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
        "<xs:complexType name=\"k\"><xs:sequence minOccurs=\"2\" maxOccurs=\"2\"><xs:element name=\"e\" maxOccurs=\"unbounded\"/></xs:sequence></xs:complexType>\n",
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
