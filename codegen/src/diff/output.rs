//! The report as text for people, as JSON for tools, and its witness files.

use std::io::Write;
use std::path::Path;

use serde_json::{json, Value};

use super::docs::Verdict;
use super::{Change, Loc, Report};

fn loc(l: &Option<Loc>) -> String {
    l.as_ref().map_or_else(|| "-".to_string(), Loc::to_string)
}

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').chars().take(60).collect()
}

/// Writes every witness of `report` into `dir` (created if missing), each in a file of its
/// own, exclusively created: an existing file is never overwritten (the run fails instead).
pub fn write_witnesses(report: &mut Report, dir: &Path) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let mut n = 0;
    for (i, ch) in report.changes.iter_mut().enumerate() {
        for (side, v) in [(0, &ch.old_break), (1, &ch.new_rejected)] {
            let Verdict::Yes { doc, .. } = v else {
                continue;
            };
            let name = format!(
                "{:02}-{}-{}.{}.xml",
                i + 1,
                ch.kind,
                slug(&ch.component),
                if side == 0 { "old-valid" } else { "new-valid" }
            );
            write_new(&dir.join(&name), doc.document().as_bytes())?;
            ch.witness_files[side] = Some(name);
            n += 1;
        }
    }
    Ok(n)
}

/// Creates `path` with `bytes`: written to a fresh temporary file beside it, then linked into
/// place only if nothing is there (no planted link followed, no file replaced, no half file).
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut builder = tempfile::Builder::new();
    builder.prefix(".witness.").suffix(".tmp");
    // The mode a new file gets (0666 less the umask), as the runtime's writes have, not the
    // temporary file's private 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist_noclobber(path).map_err(|e| {
        std::io::Error::new(
            e.error.kind(),
            format!(
                "{}: {} (witness files are never overwritten)",
                path.display(),
                e.error
            ),
        )
    })?;
    Ok(())
}

fn verdict_line(v: &Verdict, file: &Option<String>) -> String {
    match v {
        Verdict::No(p) => format!("no  (proof: {p})"),
        Verdict::Yes { reason, .. } => match file {
            Some(f) => format!("YES ({reason}; witness {f})"),
            None => format!("YES ({reason})"),
        },
        Verdict::CannotTell(r) => format!("cannot tell ({r})"),
    }
}

/// The report for people.
pub fn human(report: &Report) -> String {
    let mut out = String::new();
    let meaning: Vec<&Change> = report.changes.iter().filter(|c| !c.documentation).collect();
    let docs: Vec<&Change> = report.changes.iter().filter(|c| c.documentation).collect();
    out.push_str(&format!(
        "diff {} -> {}: {} change{}, {} documentation change{}\n",
        report.old_file,
        report.new_file,
        meaning.len(),
        if meaning.len() == 1 { "" } else { "s" },
        docs.len(),
        if docs.len() == 1 { "" } else { "s" }
    ));
    for (i, c) in report.changes.iter().enumerate() {
        if c.documentation {
            continue;
        }
        out.push_str(&format!("\n[{}] {}: {}\n", i + 1, c.kind, c.component));
        out.push_str(&format!(
            "    old: {}   new: {}\n",
            loc(&c.old),
            loc(&c.new)
        ));
        out.push_str(&format!("    schema: {}\n", c.summary));
        for d in &c.details {
            out.push_str(&format!("      - {d}\n"));
        }
        if c.api.is_empty() {
            out.push_str("    API (none): the generated types do not change\n");
        } else {
            out.push_str(&format!("    API ({}):\n", c.semver.name()));
            for a in &c.api {
                out.push_str(&format!("      - {} [{}]\n", a.what, a.semver.name()));
            }
        }
        out.push_str(&format!(
            "    old documents break?            {}\n",
            verdict_line(&c.old_break, &c.witness_files[0])
        ));
        out.push_str(&format!(
            "    old readers reject new documents? {}\n",
            verdict_line(&c.new_rejected, &c.witness_files[1])
        ));
        for (side, v) in [
            ("old-valid, new-invalid", &c.old_break),
            ("new-valid, old-invalid", &c.new_rejected),
        ] {
            if let Verdict::Yes { doc, .. } = v {
                out.push_str(&format!("    witness ({side}):\n"));
                for line in doc.document().lines() {
                    out.push_str(&format!("      | {line}\n"));
                }
            }
        }
    }
    if !docs.is_empty() {
        out.push_str("\ndocumentation changes (no effect on documents or code):\n");
        for c in docs {
            out.push_str(&format!(
                "  - {} ({}; new {})\n",
                c.summary,
                loc(&c.old),
                loc(&c.new)
            ));
        }
    }
    out.push_str(&format!(
        "\noverall: old documents break? {}\n         old readers reject new documents? {}\n         generated API: {}\n",
        short(&report.old_break),
        short(&report.new_rejected),
        report.semver.name()
    ));
    out
}

fn short(v: &Verdict) -> String {
    match v {
        Verdict::No(_) => "no".into(),
        Verdict::Yes { reason, .. } => format!("YES ({reason})"),
        Verdict::CannotTell(r) => format!("cannot tell ({r})"),
    }
}

/// A one-paragraph summary (for `--check`).
pub fn summary(report: &Report) -> String {
    let mut out = String::new();
    for c in report.changes.iter().filter(|c| !c.documentation) {
        out.push_str(&format!(
            "  {}: {} [API {}; old documents break: {}; old readers reject new documents: {}]\n",
            c.kind,
            c.summary,
            c.semver.name(),
            word(&c.old_break),
            word(&c.new_rejected)
        ));
    }
    let docs = report.changes.iter().filter(|c| c.documentation).count();
    if docs > 0 {
        out.push_str(&format!(
            "  (and {docs} documentation change{})\n",
            if docs == 1 { "" } else { "s" }
        ));
    }
    out
}

fn word(v: &Verdict) -> &'static str {
    match v {
        Verdict::No(_) => "no",
        Verdict::Yes { .. } => "yes",
        Verdict::CannotTell(_) => "cannot tell",
    }
}

fn verdict_json(v: &Verdict, file: &Option<String>) -> Value {
    match v {
        Verdict::No(p) => json!({"verdict": "no", "proof": p}),
        Verdict::Yes { reason, doc } => json!({
            "verdict": "yes",
            "reason": reason,
            "witness": file,
            "witness_document": doc.document(),
        }),
        Verdict::CannotTell(r) => json!({"verdict": "cannot-tell", "reason": r}),
    }
}

fn loc_json(l: &Option<Loc>) -> Value {
    match l {
        Some(l) => json!({"file": l.file, "line": l.span.line, "column": l.span.column}),
        None => Value::Null,
    }
}

/// The report for tools: one object per change.
pub fn json(report: &Report) -> Value {
    let changes: Vec<Value> = report
        .changes
        .iter()
        .map(|c| {
            json!({
                "kind": c.kind,
                "component": c.component,
                "documentation": c.documentation,
                "old": loc_json(&c.old),
                "new": loc_json(&c.new),
                "schema": c.summary,
                "details": c.details,
                "api": c.api.iter().map(|a| json!({"owner": a.owner, "member": a.member, "change": a.what, "semver": a.semver.name()})).collect::<Vec<_>>(),
                "semver": c.semver.name(),
                "old_documents_break": verdict_json(&c.old_break, &c.witness_files[0]),
                "old_readers_reject_new_documents": verdict_json(&c.new_rejected, &c.witness_files[1]),
            })
        })
        .collect();
    json!({
        "old": report.old_file,
        "new": report.new_file,
        "changes": changes,
        "overall": {
            "old_documents_break": verdict_json(&report.old_break, &None),
            "old_readers_reject_new_documents": verdict_json(&report.new_rejected, &None),
            "semver": report.semver.name(),
        }
    })
}
