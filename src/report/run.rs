//! A whole `boardxml validate` run: the policy that says what fails it, the counts, and
//! the outputs that are one document for the run (SARIF, JUnit, the JSON summary record,
//! the Markdown step summary) next to the per-diagnostic ones.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::codes::Catalog;
pub use super::policy::{Policy, Summary};
use super::{junit, render, sarif, step_summary, OutputFormat};
use crate::diagnostic::{Code, Severity};
use crate::validate::Report;

/// A run in progress: feed it every report in order with [`Run::add`], print what that
/// returns, and print [`Finished::stdout`] at the end.
#[derive(Debug)]
pub struct Run {
    format: OutputFormat,
    policy: Policy,
    color: bool,
    root: PathBuf,
    summary: Summary,
    sarif: sarif::Builder,
    junit: junit::Builder,
    step_summary: step_summary::Builder,
    /// Fingerprints seen so far, to number equal findings (stable across runs).
    seen: BTreeMap<String, usize>,
}

/// What a run prints at its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The counts.
    pub summary: Summary,
    /// What goes to standard output last: the SARIF or JUnit document, the JSON summary
    /// record, nothing for the other formats.
    pub stdout: String,
    /// For `--format github`: the Markdown for `$GITHUB_STEP_SUMMARY`.
    pub step_summary: Option<String>,
}

impl Run {
    /// A run in `format` under `policy` of a tool that reports the codes of `catalog`;
    /// `root` is the folder that relative paths and SARIF's `%SRCROOT%` are relative to
    /// (the current folder).
    pub fn new(
        format: OutputFormat,
        policy: Policy,
        color: bool,
        root: &Path,
        catalog: Catalog,
    ) -> Run {
        Run {
            format,
            policy,
            color,
            root: root.to_owned(),
            summary: Summary::default(),
            sarif: sarif::Builder::new(catalog),
            junit: junit::Builder::default(),
            step_summary: step_summary::Builder::default(),
            seen: BTreeMap::new(),
        }
    }

    /// Takes one file's report (applying the policy to it); returns what to print for it
    /// now (nothing for SARIF and JUnit, which print one document at the end).
    pub fn add(&mut self, report: &mut Report) -> String {
        self.summary.allowed += self.policy.apply(report);
        let s = &mut self.summary;
        s.files += 1;
        let failing = report
            .diagnostics
            .iter()
            .filter(|d| self.policy.fails(d))
            .count();
        s.failing += failing;
        if report.diagnostics.iter().any(|d| d.code == Code::IO) {
            s.unreadable += 1;
        } else if failing > 0 {
            s.invalid += 1;
        } else {
            s.valid += 1;
        }
        for d in &report.diagnostics {
            match d.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
                // Notes are shown, not counted as problems.
                Severity::Note => {}
            }
        }
        // Found but not kept (past the per-file cap): counted all the same.
        s.errors += report.omitted_errors;
        s.warnings += report.omitted_warnings;

        match self.format {
            OutputFormat::Sarif => {
                for d in &report.diagnostics {
                    let uri = sarif::Artifact::of(&report.path, &self.root);
                    let key = sarif::fingerprint(d, &uri.uri);
                    let n = self.seen.entry(key.clone()).or_insert(0);
                    *n += 1;
                    self.sarif
                        .add(report, d, &uri, format!("{key}:{n}"), self.policy.fails(d));
                }
                String::new()
            }
            OutputFormat::Junit => {
                self.junit.add(report, &self.policy);
                String::new()
            }
            OutputFormat::Github => {
                self.step_summary.add(report, &self.policy);
                render(report, self.format, self.color)
            }
            OutputFormat::Human | OutputFormat::Json => render(report, self.format, self.color),
        }
    }

    /// The counts so far.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Ends the run.
    pub fn finish(mut self, seconds: f64) -> Finished {
        self.summary.exit_code = self.summary.exit();
        let summary = self.summary.clone();
        let (stdout, step_summary) = match self.format {
            OutputFormat::Human => (String::new(), None),
            OutputFormat::Json => (format!("{}\n", summary.json()), None),
            OutputFormat::Github => (
                String::new(),
                Some(self.step_summary.finish(&summary, seconds)),
            ),
            OutputFormat::Sarif => (self.sarif.finish(&self.root, &summary), None),
            OutputFormat::Junit => (self.junit.finish(seconds), None),
        };
        Finished {
            summary,
            stdout,
            step_summary,
        }
    }
}

/// Appends `markdown` to the file `path` (GitHub's `$GITHUB_STEP_SUMMARY`: each step
/// appends to it), creating it if needed.
pub fn append_step_summary(path: &Path, markdown: &str) -> std::io::Result<()> {
    crate::safe_write::append(path, markdown.as_bytes())
}
