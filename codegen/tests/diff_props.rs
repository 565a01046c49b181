//! `diff` under random edits of a small schema: every "yes" witness is judged by xmllint
//! under both schemas (valid under the one, invalid under the other), and every overall
//! "no" is checked against a batch of random documents valid under the first schema
//! (generated from its IR, each confirmed valid by xmllint), which xmllint must find valid
//! under the second too.

mod common;

use std::path::{Path, PathBuf};

use boardxml_codegen::diff::{self, docs::Random, docs::Verdict};
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::TestRunner;

const BASE: &str = r##"<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="Set" type="Set"/>
  <xs:complexType name="Set">
    <xs:sequence>
      <xs:element name="Title" type="Label"/>
      <xs:element name="Note" type="xs:string" minOccurs="0"/>
      <xs:element name="Item" type="Item" minOccurs="1" maxOccurs="3"/>
    </xs:sequence>
    <xs:attribute name="id" type="Size" use="required"/>
    <xs:attribute name="mode" type="Mode"/>
    <xs:attribute name="since" type="Since"/>
  </xs:complexType>
  <xs:complexType name="Item">
    <xs:simpleContent>
      <xs:extension base="Code">
        <xs:attribute name="size" type="Size"/>
        <xs:attribute name="weight" type="Weight"/>
      </xs:extension>
    </xs:simpleContent>
  </xs:complexType>
  <xs:simpleType name="Size">
    <xs:restriction base="xs:int">
      <xs:minInclusive value="0"/>
      <xs:maxInclusive value="100"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Weight">
    <xs:restriction base="xs:decimal">
      <xs:minInclusive value="0"/>
      <xs:maxInclusive value="2.5"/>
      <xs:fractionDigits value="2"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Since">
    <xs:restriction base="xs:date">
      <xs:minInclusive value="2000-01-01"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Code">
    <xs:restriction base="xs:string">
      <xs:pattern value="[a-c][0-9]{1,2}"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Label">
    <xs:restriction base="xs:string">
      <xs:minLength value="1"/>
      <xs:maxLength value="8"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Mode">
    <xs:restriction base="xs:string">
      <xs:enumeration value="on"/>
      <xs:enumeration value="off"/>
    </xs:restriction>
  </xs:simpleType>
</xs:schema>
"##;

/// One random edit of the schema text.
#[derive(Debug, Clone)]
enum Edit {
    MaxInclusive(u32),
    MinInclusive(u32),
    MaxLength(u32),
    MinLength(u32),
    ItemMax(Option<u32>),
    ItemMin(u32),
    NoteRequired,
    NoteRemoved,
    ExtraElement(bool),
    ExtraAttribute(bool),
    ModeRequired,
    Pattern(&'static str),
    Enumeration(&'static [&'static str]),
    RenameNote,
    WeightMax(&'static str),
    WeightExclusive,
    WeightDigits(u32),
    SinceMin(&'static str),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0u32..150).prop_map(Edit::MaxInclusive),
        (0u32..50).prop_map(Edit::MinInclusive),
        (1u32..12).prop_map(Edit::MaxLength),
        (0u32..4).prop_map(Edit::MinLength),
        prop_oneof![Just(None), (1u32..5).prop_map(Some)].prop_map(Edit::ItemMax),
        (0u32..2).prop_map(Edit::ItemMin),
        Just(Edit::NoteRequired),
        Just(Edit::NoteRemoved),
        any::<bool>().prop_map(Edit::ExtraElement),
        any::<bool>().prop_map(Edit::ExtraAttribute),
        Just(Edit::ModeRequired),
        prop_oneof![
            Just("[a-c][0-9]{1,3}"),
            Just("[a-b][0-9]{1,2}"),
            Just("[a-c][0-9]"),
            Just("([a-c][0-9]|[a-c][0-9][0-9])"),
            Just("[a-c]\\d{1,2}"),
        ]
        .prop_map(Edit::Pattern),
        prop_oneof![
            Just(&["on"][..]),
            Just(&["on", "off", "auto"][..]),
            Just(&["off", "on"][..]),
        ]
        .prop_map(Edit::Enumeration),
        Just(Edit::RenameNote),
        prop_oneof![
            Just("2.5"),
            Just("2.50"),
            Just("2.25"),
            Just("2"),
            Just("3"),
            Just("0.75")
        ]
        .prop_map(Edit::WeightMax),
        Just(Edit::WeightExclusive),
        (0u32..4).prop_map(Edit::WeightDigits),
        prop_oneof![
            Just("1999-12-31"),
            Just("2000-01-01"),
            Just("2000-01-02"),
            Just("2001-06-15")
        ]
        .prop_map(Edit::SinceMin),
    ]
}

fn apply(text: &str, e: &Edit) -> String {
    let max_item = |m: Option<u32>| m.map_or("unbounded".to_string(), |m| m.to_string());
    match e {
        Edit::MaxInclusive(v) => text.replace("<xs:maxInclusive value=\"100\"/>", &format!("<xs:maxInclusive value=\"{v}\"/>")),
        Edit::MinInclusive(v) => text.replace("<xs:minInclusive value=\"0\"/>", &format!("<xs:minInclusive value=\"{v}\"/>")),
        Edit::MaxLength(v) => text.replace("<xs:maxLength value=\"8\"/>", &format!("<xs:maxLength value=\"{v}\"/>")),
        Edit::MinLength(v) => text.replace("<xs:minLength value=\"1\"/>", &format!("<xs:minLength value=\"{v}\"/>")),
        Edit::ItemMax(m) => text.replace("maxOccurs=\"3\"", &format!("maxOccurs=\"{}\"", max_item(*m))),
        Edit::ItemMin(m) => text.replace("type=\"Item\" minOccurs=\"1\"", &format!("type=\"Item\" minOccurs=\"{m}\"")),
        Edit::NoteRequired => text.replace("type=\"xs:string\" minOccurs=\"0\"", "type=\"xs:string\""),
        Edit::NoteRemoved => text.replace("<xs:element name=\"Note\" type=\"xs:string\" minOccurs=\"0\"/>", ""),
        Edit::ExtraElement(required) => text.replace(
            "<xs:element name=\"Item\"",
            &format!("<xs:element name=\"Extra\" type=\"xs:string\" minOccurs=\"{}\"/><xs:element name=\"Item\"", u8::from(*required)),
        ),
        Edit::ExtraAttribute(required) => text.replace(
            "<xs:attribute name=\"mode\"",
            &format!("<xs:attribute name=\"extra\" type=\"xs:string\" use=\"{}\"/><xs:attribute name=\"mode\"", if *required { "required" } else { "optional" }),
        ),
        Edit::ModeRequired => text.replace("<xs:attribute name=\"mode\" type=\"Mode\"/>", "<xs:attribute name=\"mode\" type=\"Mode\" use=\"required\"/>"),
        Edit::Pattern(p) => text.replace("[a-c][0-9]{1,2}", p),
        Edit::Enumeration(vs) => text.replace(
            "<xs:enumeration value=\"on\"/>\n      <xs:enumeration value=\"off\"/>",
            &vs.iter().map(|v| format!("<xs:enumeration value=\"{v}\"/>")).collect::<Vec<_>>().join(""),
        ),
        Edit::RenameNote => text.replace("name=\"Note\"", "name=\"Remark\""),
        Edit::WeightMax(v) => text.replace("<xs:maxInclusive value=\"2.5\"/>", &format!("<xs:maxInclusive value=\"{v}\"/>")),
        Edit::WeightExclusive => text.replace("<xs:maxInclusive value=\"2.5\"/>", "<xs:maxExclusive value=\"2.5\"/>"),
        Edit::WeightDigits(d) => text.replace("<xs:fractionDigits value=\"2\"/>", &format!("<xs:fractionDigits value=\"{d}\"/>")),
        Edit::SinceMin(v) => text.replace("<xs:minInclusive value=\"2000-01-01\"/>", &format!("<xs:minInclusive value=\"{v}\"/>")),
    }
}

/// Writes `n` random documents valid under `schema` into `dir`; returns their paths.
fn random_docs(schema: &Path, dir: &Path, tag: &str, seed: u64, n: usize) -> Vec<PathBuf> {
    let ir = boardxml_codegen::xsd::read_schema_file(schema).unwrap();
    // A small deterministic generator (xorshift), seeded by the case.
    let mut state = seed | 1;
    let mut random = Random::new(&ir, move |k: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % k.max(1) as u64) as usize
    });
    (0..n)
        .map(|i| {
            let doc = random.document().unwrap();
            let p = dir.join(format!("{tag}-{i}.xml"));
            std::fs::write(&p, doc.document()).unwrap();
            p
        })
        .collect()
}

fn check(edits: &[Edit], seed: u64) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.xsd"), dir.path().join("new.xsd"));
    let mut text = BASE.to_string();
    let mut kinds = std::collections::HashSet::new();
    for e in edits {
        // Each kind of edit once: twice could declare an attribute twice.
        if kinds.insert(std::mem::discriminant(e)) {
            text = apply(&text, e);
        }
    }
    std::fs::write(&old, BASE).unwrap();
    std::fs::write(&new, &text).unwrap();
    if !common::xmllint_schema_ok(&new) {
        return Err(TestCaseError::reject(
            "the edits make a schema xmllint refuses",
        ));
    }
    // An edit can make the schema invalid (minInclusive above maxInclusive): xmllint must
    // then refuse it too; such cases test nothing more.
    let report = match diff::diff_files(&old, &new) {
        Ok(r) => r,
        Err(e) => return Err(TestCaseError::reject(format!("{e}"))),
    };
    let mut witnesses: Vec<(usize, String, &Verdict)> = Vec::new();
    for (i, c) in report.changes.iter().enumerate() {
        witnesses.push((
            i,
            format!("change {} ({}) old_break", i + 1, c.kind),
            &c.old_break,
        ));
        witnesses.push((
            i,
            format!("change {} ({}) new_rejected", i + 1, c.kind),
            &c.new_rejected,
        ));
    }
    witnesses.push((99, "overall old_break".into(), &report.old_break));
    witnesses.push((99, "overall new_rejected".into(), &report.new_rejected));
    for (k, (_, what, v)) in witnesses.iter().enumerate() {
        let Verdict::Yes { doc, .. } = v else {
            continue;
        };
        let p = dir.path().join(format!("w{k}.xml"));
        std::fs::write(&p, doc.document()).unwrap();
        let (valid, invalid) = if what.ends_with("old_break") {
            (&old, &new)
        } else {
            (&new, &old)
        };
        prop_assert!(
            common::xmllint_valid(valid, &p),
            "{what}: witness invalid under its schema\n{}\n{text}",
            doc.document()
        );
        prop_assert!(
            !common::xmllint_valid(invalid, &p),
            "{what}: witness valid under the other schema\n{}\n{text}",
            doc.document()
        );
        WITNESSES.fetch_add(1, Ordering::Relaxed);
    }
    for (verdict, a, b, tag) in [
        (&report.old_break, &old, &new, "old"),
        (&report.new_rejected, &new, &old, "new"),
    ] {
        if let Verdict::No(proof) = verdict {
            NOS.fetch_add(1, Ordering::Relaxed);
            let docs = random_docs(a, dir.path(), tag, seed, 16);
            let under_a = common::xmllint_batch(a, &docs);
            prop_assert!(
                under_a.iter().all(|v| *v),
                "random documents must be valid under their own schema: {under_a:?}\n{text}"
            );
            let under_b = common::xmllint_batch(b, &docs);
            for (d, ok) in docs.iter().zip(under_b) {
                prop_assert!(ok, "'no' ({proof}) but this {tag}-valid document is invalid under the other schema:\n{}\n{text}", std::fs::read_to_string(d).unwrap());
            }
        }
    }
    Ok(())
}

/// What the run checked, so that it cannot pass by checking nothing.
static WITNESSES: AtomicUsize = AtomicUsize::new(0);
static NOS: AtomicUsize = AtomicUsize::new(0);

#[test]
fn verdicts_hold_under_random_edits() {
    if !common::xmllint_present() {
        common::skip_tools(
            "xmllint not found (apt-get install -y libxml2-utils): random edits not judged",
        );
        return;
    }
    // BOARDXML_DIFF_CASES runs more (a longer search for a counterexample).
    let cases = std::env::var("BOARDXML_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let mut runner = TestRunner::new(ProptestConfig {
        cases,
        ..ProptestConfig::default()
    });
    let strategy = (prop::collection::vec(edit(), 1..4), any::<u64>());
    if let Err(e) = runner.run(&strategy, |(edits, seed)| check(&edits, seed)) {
        panic!("{e}");
    }
    let (w, n) = (
        WITNESSES.load(Ordering::Relaxed),
        NOS.load(Ordering::Relaxed),
    );
    assert!(w >= 10, "only {w} witnesses judged");
    assert!(
        n >= 5,
        "only {n} 'no' verdicts checked against random documents"
    );
}
