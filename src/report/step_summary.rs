//! The Markdown that `--format github` appends to `$GITHUB_STEP_SUMMARY`: the counts and a
//! table of every finding. GitHub shows only the first 10 error annotations of a step;
//! the summary has them all, up to GitHub's limit of 1 MiB per step summary (past
//! [`LIMIT`], a last line says how many rows were left out).

use std::fmt::Write as _;

use super::policy::{Policy, Summary};
use super::terminal_safe;
use crate::diagnostic::Severity;
use crate::validate::Report;

/// The most bytes of table rows written (GitHub refuses a step summary over 1 MiB).
pub const LIMIT: usize = 900 * 1024;

/// The rows of a run, gathered until its end.
#[derive(Debug, Default)]
pub struct Builder {
    rows: String,
    left_out: usize,
}

impl Builder {
    /// Adds a row per diagnostic of `report`.
    pub fn add(&mut self, report: &Report, policy: &Policy) {
        for d in &report.diagnostics {
            let (line, column) = report.line_column(d);
            let severity = match (d.severity, policy.fails(d)) {
                (Severity::Error, _) => "error",
                (Severity::Warning, true) => "warning (denied)",
                (Severity::Warning, false) => "warning",
                (Severity::Note, _) => "note",
            };
            let mut message = d.message.clone();
            if let Some(e) = &d.expected {
                let _ = write!(message, "; expected {e}");
            }
            if let Some(f) = &d.found {
                let _ = write!(message, ", found {f}");
            }
            let row = format!(
                "| {} | {line} | {column} | {severity} | {} | {} | {} |\n",
                cell(&report.path.display().to_string()),
                d.code,
                cell(&message),
                cell(&d.path),
            );
            if self.rows.len() + row.len() > LIMIT {
                self.left_out += 1;
            } else {
                self.rows.push_str(&row);
            }
        }
    }

    /// The Markdown, ending with a blank line (summaries of several steps follow on).
    pub fn finish(self, summary: &Summary, seconds: f64) -> String {
        let verdict = match summary.exit_code {
            0 => "passed",
            1 => "failed",
            _ => "failed (unreadable paths)",
        };
        let mut out = format!(
            "### boardxml validate: {verdict}\n\n{}\n\n",
            cell(&summary.line(seconds))
        );
        if self.rows.is_empty() {
            out.push_str("No findings.\n\n");
            return out;
        }
        out.push_str("| file | line | column | severity | code | message | path |\n");
        out.push_str("|---|---:|---:|---|---|---|---|\n");
        out.push_str(&self.rows);
        if self.left_out > 0 {
            let _ = writeln!(
                out,
                "\n{} more findings are left out (GitHub takes at most 1 MiB of summary a step); \
                 `--format sarif` or `--format json` lists them all.",
                self.left_out
            );
        }
        out.push('\n');
        out
    }
}

/// Text for a table cell: terminal-safe, `|` escaped, markup characters as entities, line
/// ends as spaces, so that a value cannot break the table or inject HTML.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in terminal_safe(text).chars() {
        match c {
            '|' => out.push_str("\\|"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '`' => out.push_str("\\`"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
