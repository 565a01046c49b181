//! What the tests of generated feature cases (codegen/tests/cases/CASE, compiled into a
//! test) share: reading and writing a document, and judging documents against expected
//! error codes and, where it is installed, xmllint (libxml2, an independent XSD 1.0
//! validator), so a test cannot bless a wrong answer.

use std::path::Path;
use std::process::{Command, Stdio};

use boardxml::diagnostic::Diagnostic;
use boardxml::schema::{Document, Invalid};
use boardxml::xml::{Reader, Writer};

/// Reads a document: its value (or why not) and every diagnostic.
pub fn read<D: Document>(text: &str) -> (Result<D, Invalid>, Vec<Diagnostic>) {
    let mut r = Reader::new(text);
    let d = r.read_document::<D>();
    (d, r.into_diagnostics())
}

/// Writes a document as UTF-8.
pub fn write<D: Document>(doc: &D) -> String {
    let mut w = Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    w.finish()
}

/// Whether `xmllint` runs here.
pub fn xmllint_present() -> bool {
    Command::new("xmllint")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Every document of `documents` (text, expected error codes, why): our error codes as
/// expected, a value where there are none, and valid for us exactly when valid for xmllint
/// against the case's `schema.xsd` (a loud skip without xmllint).
pub fn judge<D: Document>(case: &str, documents: &[(impl AsRef<str>, &[&str], &str)]) {
    let schema = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("codegen/tests/cases")
        .join(case)
        .join("schema.xsd");
    let lint = xmllint_present();
    if !lint {
        super::skip(
            super::Need::Tools,
            "xmllint not found (apt-get install -y libxml2-utils): verdicts not cross-checked",
        );
    }
    let dir = tempfile::tempdir().unwrap();
    for (n, (text, expected, why)) in documents.iter().enumerate() {
        let text = text.as_ref();
        let (doc, diags) = read::<D>(text);
        let got: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(&got, expected, "{case} #{n} ({why}): {text}\n{diags:#?}");
        if expected.is_empty() {
            assert!(doc.is_ok(), "{case} #{n}: a valid document gives its value");
        }
        if lint {
            assert_eq!(
                xmllint_valid(&schema, &dir.path().join(format!("{n}.xml")), text),
                expected.is_empty(),
                "{case} #{n} ({why}): xmllint disagrees: {text}"
            );
        }
    }
}

/// Whether xmllint finds `text` (written to `file`) valid against `schema`; fails the test
/// when xmllint itself fails (an exit other than 0, valid, or 3, invalid).
pub fn xmllint_valid(schema: &Path, file: &Path, text: &str) -> bool {
    std::fs::write(file, text).unwrap();
    let status = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(schema)
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let code = status.code();
    assert!(
        matches!(code, Some(0 | 3)),
        "{}: xmllint {status}",
        file.display()
    );
    code == Some(0)
}
