//! Real-world schema sets with real documents (`../shared/xsd-real`, its README.md and
//! manifest.tsv): for each set (a main schema of a set; saml20 and sitemap09 have two),
//! `check` runs on the main schema; where it passes, a validator is generated
//! (`boardxml-codegen validator`, the set's catalog passed with `--catalog`), built, and
//! every document judged against its expected verdict.
//!
//! Every failure is listed in `tests/xsd-real-known-failures.txt` with its reason: a set
//! whose schema `check` does not accept (`SET:MAIN.xsd<TAB>reason`) or a document judged
//! wrongly (`SET/docs/DOC.xml<TAB>reason`). The test fails on a failure not listed and on a
//! listed one that now passes (a set accepted at last is then judged document by document).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use boardxml_codegen::check::{check_files, Verdict};
use common::xsd_real::{manifest, write_catalog};

const KNOWN_FAILURES: &str = "tests/xsd-real-known-failures.txt";

fn known_failures() -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(KNOWN_FAILURES);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (id, reason) = line.split_once('\t').unwrap_or((line, ""));
        assert!(
            out.insert(id.to_string(), reason.to_string()).is_none(),
            "{id} is listed twice"
        );
    }
    out
}

#[test]
fn real_world_sets() {
    let Some(root) = common::shared("xsd-real") else {
        return;
    };
    let sets = manifest(&root);
    assert!(sets.len() >= 11, "the sets of the README ({})", sets.len());
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace");
    let target = workspace.join("target/xsts-validators");
    let mut failures: BTreeMap<String, String> = BTreeMap::new();
    let mut judged = 0usize;
    for (n, ((set, main), rows)) in sets.iter().enumerate() {
        let key = format!(
            "{set}:{}",
            Path::new(main).file_name().unwrap().to_string_lossy()
        );
        let schema = root.join(main);
        let catalog = tmp.path().join(format!("catalog{n}.xml"));
        write_catalog(&catalog, &root, &rows[0].catalog);
        let report = check_files(
            std::slice::from_ref(&schema),
            std::slice::from_ref(&catalog),
        );
        if report.verdict != Verdict::Supported {
            let first = report
                .diagnostics
                .0
                .first()
                .map(|d| d.message.replace(['\t', '\n'], " "))
                .unwrap_or_default();
            failures.insert(
                key,
                format!(
                    "check exit {}: {}",
                    report.verdict.exit_code(),
                    first.chars().take(160).collect::<String>()
                ),
            );
            continue;
        }
        if Command::new(env!("CARGO"))
            .arg("--version")
            .output()
            .is_err()
        {
            common::skip_tools("cargo does not run: the validators cannot be built");
            return;
        }
        let out = tmp.path().join(format!("v{n}"));
        let generated = Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
            .arg("validator")
            .arg("--out")
            .arg(&out)
            .arg("--runtime")
            .arg(&workspace)
            .arg("--catalog")
            .arg(&catalog)
            .arg(&schema)
            .output()
            .expect("boardxml-codegen runs");
        let name = schema.file_stem().unwrap().to_string_lossy().into_owned();
        let verdicts = if !generated.status.success() {
            Err(format!(
                "validator generation failed: {}",
                String::from_utf8_lossy(&generated.stderr).replace(['\t', '\n'], " ")
            ))
        } else {
            match common::build_validator(&out, &target) {
                Err(e) => Err(format!(
                    "the validator does not compile: {}",
                    e.lines().find(|l| l.contains("error")).unwrap_or("")
                )),
                Ok(()) => {
                    let docs: Vec<PathBuf> = rows.iter().map(|r| root.join(&r.document)).collect();
                    common::validator_errors(
                        &target.join("release/validate"),
                        &name,
                        &docs,
                        Duration::from_secs(60),
                    )
                }
            }
        };
        for row in rows {
            judged += 1;
            let wrong = match &verdicts {
                Err(why) => Some(why.clone()),
                Ok(errors) => match (row.valid, errors.get(&root.join(&row.document))) {
                    (true, None) | (false, Some(_)) => None,
                    (true, Some(e)) => Some(format!("rejected a valid document: {e}")),
                    (false, None) => Some("accepted an invalid document".into()),
                },
            };
            if let Some(why) = wrong {
                failures.insert(row.document.clone(), why.replace(['\t', '\n'], " "));
            }
        }
    }
    println!(
        "xsd-real: {} sets, {} of them accepted by check; {judged} documents judged, {} failures",
        sets.len(),
        sets.len() - failures.keys().filter(|k| k.contains(':')).count(),
        failures.len()
    );
    if std::env::var_os("BOARDXML_BLESS").is_some() {
        let mut text = String::from(
            "# The real-world schema sets of ../shared/xsd-real that fail today: a set whose main\n\
             # schema `check` does not accept (SET:MAIN.xsd), or a document its generated validator\n\
             # judges wrongly (SET/docs/DOC.xml). Format: ID<TAB>reason. Regenerate with\n\
             # BOARDXML_BLESS=1 cargo test -p boardxml-codegen --test xsd_real (codegen/tests/xsd_real.rs\n\
             # fails on a failure not listed and on a listed one that now passes).\n",
        );
        for (id, why) in &failures {
            text.push_str(&format!("{id}\t{why}\n"));
        }
        // Through a temporary file renamed over the old one (a failed run leaves it whole).
        use std::io::Write;
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut file =
            tempfile::NamedTempFile::new_in(manifest.join("tests")).expect("a temporary file");
        file.write_all(text.as_bytes()).expect("writable");
        file.persist(manifest.join(KNOWN_FAILURES))
            .expect("renamed into place");
    }
    let known = known_failures();
    let mut problems = Vec::new();
    for (id, why) in &failures {
        if !known.contains_key(id) {
            problems.push(format!("{id}: a failure not in {KNOWN_FAILURES}: {why}"));
        }
    }
    for id in known.keys() {
        if !failures.contains_key(id) {
            problems.push(format!(
                "{id}: listed in {KNOWN_FAILURES} but passes now: remove it"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
