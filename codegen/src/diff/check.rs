//! The summary `--check` prints above the raw diff when `generated/` is stale: per schema,
//! what changed since the schema the checked-in code was generated from, with verdicts.
//!
//! Finding that OLD schema: the checked-in file names its schema but not its text. The
//! candidates are the schema's versions git knows — the index, then each commit that touched
//! the file, newest first (at most [`HISTORY_LIMIT`]) — and OLD is the first whose generated
//! code is byte for byte the checked-in file. That is deterministic and exact: it is the
//! schema the file was generated from (or one that generates the same code, which means the
//! same validation and API). Nothing is embedded in generated files. When no version
//! matches (the generator itself changed since), OLD is the committed schema (HEAD) and the
//! summary says so; outside a git checkout there is no summary, and it says why.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::render::Externs;

/// How many past versions of a schema are tried.
pub const HISTORY_LIMIT: usize = 30;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The summary for every stale output of `schemas` (outputs as `generate_dir` made them).
pub fn summary(schemas: &Path, out: &Path, outputs: &BTreeMap<String, String>) -> String {
    let bindings = crate::read_bindings(&schemas.join(crate::BINDINGS_FILE)).unwrap_or_default();
    let none = Externs::new();
    let mut paths: Vec<_> = std::fs::read_dir(schemas)
        .map(|e| {
            e.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "xsd"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    let mut text = String::new();
    for path in paths {
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let externs = bindings.get(&file).unwrap_or(&none);
        let Ok(new_text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok((name, generated)) = crate::generate_str_with(&path, &new_text, externs) else {
            continue;
        };
        let Ok(current) = std::fs::read_to_string(out.join(&name)) else {
            text.push_str(&format!(
                "{}: {} is missing: no earlier generated code to compare with\n",
                path.display(),
                out.join(&name).display()
            ));
            continue;
        };
        if outputs.get(&name) == Some(&current) || generated == current {
            continue;
        }
        text.push_str(&one(&path, &new_text, &current, externs));
    }
    text
}

fn one(path: &Path, new_text: &str, current: &str, externs: &Externs) -> String {
    let head = format!("{}:", path.display());
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let Some(rel) = git(dir, &["ls-files", "--full-name", "--", file])
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
    else {
        return format!("{head} no summary: not a file of a git checkout, so the schema the checked-in code was generated from is unknown\n");
    };
    let mut candidates: Vec<(String, String)> = Vec::new();
    if let Some(t) = git(dir, &["show", &format!(":{rel}")]) {
        candidates.push(("the index".into(), t));
    }
    let log = git(
        dir,
        &[
            "log",
            "--format=%h",
            &format!("-n{HISTORY_LIMIT}"),
            "--",
            file,
        ],
    )
    .unwrap_or_default();
    for rev in log.lines() {
        if let Some(t) = git(dir, &["show", &format!("{rev}:{rel}")]) {
            candidates.push((format!("commit {rev}"), t));
        }
    }
    let found = candidates
        .iter()
        .find(|(_, t)| crate::generate_str_with(path, t, externs).is_ok_and(|(_, g)| g == current));
    let (whence, old_text) = match found {
        Some((w, t)) => (format!("{w} (its generated code is the checked-in file)"), t.clone()),
        None => match git(dir, &["show", &format!("HEAD:{rel}")]) {
            Some(t) => ("HEAD (no version of the schema generates the checked-in file: the generator changed too)".to_string(), t),
            None => return format!("{head} no summary: the schema is not committed yet\n"),
        },
    };
    let (a, b) = match (
        crate::xsd::read_schema(path, &old_text),
        crate::xsd::read_schema(path, new_text),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return format!("{head} no summary: {e}\n"),
    };
    let old_name = format!(
        "{rel}@{}",
        whence.split(' ').take(2).collect::<Vec<_>>().join(" ")
    );
    let report = super::diff(
        &a,
        &b,
        &old_name,
        &path.display().to_string(),
        externs,
        externs,
    );
    let mut s = format!("{head} compared with the schema of {whence}\n");
    if report.changes.is_empty() {
        s.push_str("  no schema changes: the difference comes from the generator\n");
    } else {
        s.push_str(&super::output::summary(&report));
        s.push_str(&format!(
            "  overall: old documents break: {}; old readers reject new documents: {}; API: {}\n",
            word(&report.old_break),
            word(&report.new_rejected),
            report.semver.name()
        ));
    }
    s
}

fn word(v: &super::docs::Verdict) -> &'static str {
    match v {
        super::docs::Verdict::No(_) => "no",
        super::docs::Verdict::Yes { .. } => "yes",
        super::docs::Verdict::CannotTell(_) => "cannot tell",
    }
}
