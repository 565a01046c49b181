//! What fails a `boardxml validate` run, and the run's counts: the two things every
//! run-level output (JSON summary, SARIF, JUnit, step summary) reads, below all of them.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::validate::Report;

/// What fails a run beyond errors.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// Warnings fail the run too (`--deny-warnings`).
    pub deny_warnings: bool,
    /// Codes that are reported but never fail the run (`--allow CODE`): their errors are
    /// shown as warnings, and not even `--deny-warnings` makes them fail. Never
    /// [`Code::IO`]: a file that cannot be read is always exit 2.
    pub allow: BTreeSet<Code>,
}

impl Policy {
    /// Whether `d` (after [`Policy::apply`]) fails the run.
    pub fn fails(&self, d: &Diagnostic) -> bool {
        // A note never fails a run: it says how the document was read.
        !self.allow.contains(&d.code)
            && (d.severity == Severity::Error
                || (self.deny_warnings && d.severity == Severity::Warning))
    }

    /// Shows the errors of allowed codes as warnings; returns how many it changed.
    pub fn apply(&self, report: &mut Report) -> usize {
        let mut changed = 0;
        for d in &mut report.diagnostics {
            if self.allow.contains(&d.code) && d.code != Code::IO && d.severity == Severity::Error {
                d.severity = Severity::Warning;
                changed += 1;
            }
        }
        changed
    }
}

/// The counts of a run: the JSON summary record, the last line of the human output.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Files looked at (paths that could not be read included).
    pub files: usize,
    /// Files that pass under the policy.
    pub valid: usize,
    /// Files that fail under the policy.
    pub invalid: usize,
    /// Files or paths that could not be read (E0001).
    pub unreadable: usize,
    /// Diagnostics shown as errors.
    pub errors: usize,
    /// Diagnostics shown as warnings (allowed errors included).
    pub warnings: usize,
    /// Errors shown as warnings because their code was allowed (`--allow`).
    pub allowed: usize,
    /// Diagnostics that fail the run under the policy.
    pub failing: usize,
    /// The run's exit code: 2 some path unreadable, 1 some file fails, 0 otherwise.
    pub exit_code: u8,
}

impl Summary {
    /// The human summary line.
    pub fn line(&self, seconds: f64) -> String {
        format!(
            "{} files: {} valid, {} invalid{}; {} errors, {} warnings{} ({seconds:.2} s)",
            self.files,
            self.valid,
            self.invalid,
            if self.unreadable > 0 {
                format!(", {} unreadable", self.unreadable)
            } else {
                String::new()
            },
            self.errors,
            self.warnings,
            if self.allowed > 0 {
                format!(" ({} of them allowed errors)", self.allowed)
            } else {
                String::new()
            },
        )
    }

    /// The JSON summary record (one line, no line end): `{"summary":{...}}`.
    pub fn json(&self) -> String {
        #[derive(Serialize)]
        struct Record<'a> {
            summary: &'a Summary,
        }
        serde_json::to_string(&Record { summary: self }).unwrap_or_default()
    }

    pub(super) fn exit(&self) -> u8 {
        if self.unreadable > 0 {
            2
        } else if self.invalid > 0 {
            1
        } else {
            0
        }
    }
}
