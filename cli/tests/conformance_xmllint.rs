//! xmllint (libxml2) as the "other implementation" of the conformance suite's CBF cases,
//! through `conformance::run_external`: `xmllint --noout --schema schemas/cbf-<dialect>.xsd
//! {file}`, valid when it exits with 0.
//!
//! xmllint knows XML and XSD 1.0, not the CBF format rules, so it disagrees with the suite
//! where a case is about more than the schema. Every disagreement must be listed in
//! `conformance/xmllint-disagreements.txt` with its category and reason:
//! - `beyond-xsd`: a CBF format rule (E03xx) that no schema can state;
//! - `policy`: a refusal boardxml documents beyond XML (README: no DTDs, size limits);
//! - `xmllint`: xmllint is wrong (the reason says which rule it breaks).
//!
//! The test fails on a disagreement that is not listed and on a listed one that no longer
//! happens. CIF cases are left out: cif.xsd needs XSD 1.1, which libxml2 does not have.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use boardxml_cli::conformance::{self, CaseFormat, Dialect, Outcome, Suite};

const LIST: &str = "conformance/xmllint-disagreements.txt";

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The listed disagreements: case id -> (category, reason).
fn documented() -> BTreeMap<String, (String, String)> {
    let text = std::fs::read_to_string(root().join(LIST)).expect(LIST);
    let mut list = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(3, '\t');
        let (Some(id), Some(category), Some(reason)) = (parts.next(), parts.next(), parts.next())
        else {
            panic!("{LIST}:{}: expected ID<TAB>CATEGORY<TAB>REASON", n + 1);
        };
        assert!(
            ["beyond-xsd", "policy", "xmllint"].contains(&category),
            "{LIST}:{}: unknown category {category:?}",
            n + 1
        );
        assert!(!reason.trim().is_empty(), "{LIST}:{}: no reason", n + 1);
        let earlier = list.insert(id.to_string(), (category.to_string(), reason.to_string()));
        assert!(earlier.is_none(), "{LIST}:{}: {id} listed twice", n + 1);
    }
    list
}

fn xmllint_present() -> bool {
    Command::new("xmllint")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn xmllint_agrees_with_the_cbf_cases_but_for_the_listed_ones() {
    if !xmllint_present() {
        common::skip(
            common::Need::Tools,
            "xmllint not found (apt-get install -y libxml2-utils)",
        );
        return;
    }
    let suite = conformance::load(&root().join("conformance")).unwrap_or_else(|e| panic!("{e}"));
    let documented = documented();
    let mut results = Vec::new();
    for (dialect, schema) in [
        (Dialect::Cbf2007, "schemas/cbf-2007.xsd"),
        (Dialect::Cbf10, "schemas/cbf-1.0.xsd"),
    ] {
        let mut part = Suite {
            dir: suite.dir.clone(),
            manifest: suite.manifest.clone(),
        };
        part.manifest
            .cases
            .retain(|c| c.format == CaseFormat::Cbf && c.dialect == Some(dialect));
        let command = format!(
            "xmllint --noout --schema '{}' {{file}} 2>/dev/null",
            root().join(schema).display()
        );
        results.extend(conformance::run_external(
            &part,
            &command,
            0,
            Duration::from_secs(60),
        ));
    }
    let mut undocumented = Vec::new();
    let mut agreed = 0;
    for r in &results {
        assert!(
            matches!(r.outcome, Outcome::Exited { .. }),
            "{}: xmllint did not run normally: {:?}",
            r.id,
            r.outcome
        );
        let agrees = r.verdict == Some(r.expected);
        match (agrees, documented.get(&r.id)) {
            (true, None) => agreed += 1,
            (true, Some((category, _))) => undocumented.push(format!(
                "{}: listed as a disagreement ({category}) but xmllint agrees now: remove it",
                r.id
            )),
            (false, Some((category, _))) => {
                let case = suite.case(&r.id).expect("a case of the suite");
                if category == "beyond-xsd" {
                    assert!(
                        case.codes.iter().any(|c| c.starts_with("E03")),
                        "{}: beyond-xsd, but its codes {:?} are no CBF format rule",
                        r.id,
                        case.codes
                    );
                }
            }
            (false, None) => {
                let case = suite.case(&r.id).expect("a case of the suite");
                undocumented.push(format!(
                    "{}\t?\tthe suite says {} {:?}, xmllint says {}",
                    r.id,
                    r.expected.as_str(),
                    case.codes,
                    r.verdict.map_or("nothing", |v| v.as_str())
                ))
            }
        }
    }
    for id in documented.keys() {
        assert!(
            results.iter().any(|r| &r.id == id),
            "{LIST}: {id} is not a CBF case of the suite"
        );
    }
    let mut by_category: BTreeMap<&str, usize> = BTreeMap::new();
    for (category, _) in documented.values() {
        *by_category.entry(category).or_default() += 1;
    }
    eprintln!(
        "xmllint: {} CBF cases, {agreed} agree, {} documented disagreements {by_category:?}",
        results.len(),
        results.len() - agreed - undocumented.len()
    );
    assert!(
        undocumented.is_empty(),
        "disagreements with xmllint not (or no longer) as {LIST} says:\n{}",
        undocumented.join("\n")
    );
}
