//! A whole `boardxml validate` run: the policy that says what fails it, the counts, and
//! the outputs that are one document for the run (SARIF, JUnit, the JSON summary record,
//! the Markdown step summary) next to the per-diagnostic ones.

use std::collections::BTreeMap;
use std::io::Write;
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

/// The one writer of a validation run's output, for `boardxml validate` and for the
/// validators `boardxml-codegen validator` generates: each report's text as it is added,
/// a note for what was found but not kept, then the summary line (on standard error in the
/// machine formats, so that standard output stays parseable), the run's closing document
/// (the JSON record, SARIF, JUnit) and GitHub's step summary. A failed write to standard
/// output does not stop the run (its exit code must still say what was found); the run
/// then ends in [`Ended::WriteFailed`].
pub struct Printer<'w> {
    run: Run,
    out: Box<dyn Write + 'w>,
    /// The first failed write to `out`.
    write_error: Option<std::io::Error>,
}

/// How a printed run ended.
#[derive(Debug)]
pub enum Ended {
    /// Everything was written: the run's exit code (0 valid, 1 invalid, 2 unreadable).
    Exit(u8),
    /// Standard output could not be written (exit 2).
    WriteFailed(std::io::Error),
    /// `$GITHUB_STEP_SUMMARY` could not be appended to (exit 2).
    StepSummaryFailed(PathBuf, std::io::Error),
}

impl Ended {
    /// The process's exit status, with the message for a failure on standard error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Ended::Exit(code) => *code,
            Ended::WriteFailed(e) => {
                eprintln!("error: cannot write to standard output: {e}");
                2
            }
            Ended::StepSummaryFailed(file, e) => {
                eprintln!(
                    "error: cannot append to $GITHUB_STEP_SUMMARY ({}): {e}",
                    file.display()
                );
                2
            }
        }
    }
}

impl<'w> Printer<'w> {
    /// Prints `run` to `out` (standard output, locked).
    pub fn new(run: Run, out: impl Write + 'w) -> Printer<'w> {
        Printer {
            run,
            out: Box::new(out),
            write_error: None,
        }
    }

    /// Adds one file's report to the run and prints what it shows of it now.
    pub fn print(&mut self, report: &mut Report) {
        let text = self.run.add(report);
        self.write(text.as_bytes());
        // A line of its own: in the machine formats, on stderr (stdout stays one
        // diagnostic a line).
        if let Some(note) = omitted_note(report) {
            match self.run.format {
                OutputFormat::Human => self.write(format!("{note}\n").as_bytes()),
                _ => eprintln!("{}", super::terminal_safe(&note)),
            }
        }
    }

    /// Writes what was printed so far.
    pub fn flush(&mut self) {
        if self.write_error.is_none() {
            self.write_error = self.out.flush().err();
        }
    }

    /// The counts so far.
    pub fn summary(&self) -> &Summary {
        self.run.summary()
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.write_error.is_none() {
            self.write_error = self.out.write_all(bytes).err();
        }
    }

    /// Ends the run, `seconds` after it started: the summary line (with `notes`, what the
    /// caller left out, appended), the closing document, the step summary.
    pub fn finish(self, seconds: f64, notes: &[String]) -> Ended {
        let Printer {
            run,
            mut out,
            mut write_error,
        } = self;
        let format = run.format;
        let finished = run.finish(seconds);
        let mut summary = finished.summary.line(seconds);
        for note in notes {
            summary.push_str("; ");
            summary.push_str(note);
        }
        let mut text = String::new();
        match format {
            OutputFormat::Human => text = format!("{summary}\n"),
            _ => eprintln!("{summary}"),
        }
        text.push_str(&finished.stdout);
        if write_error.is_none() {
            write_error = out
                .write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .err();
        }
        if let (Some(markdown), Some(file)) = (
            &finished.step_summary,
            std::env::var_os("GITHUB_STEP_SUMMARY").filter(|f| !f.is_empty()),
        ) {
            if let Err(e) = append_step_summary(Path::new(&file), markdown) {
                return Ended::StepSummaryFailed(PathBuf::from(file), e);
            }
        }
        match write_error {
            Some(e) => Ended::WriteFailed(e),
            None => Ended::Exit(finished.summary.exit_code),
        }
    }
}

/// The note for diagnostics found but not kept, if any.
pub fn omitted_note(r: &Report) -> Option<String> {
    let (e, w) = (r.omitted_errors, r.omitted_warnings);
    if e + w == 0 {
        return None;
    }
    let what = match (e, w) {
        (e, 0) => format!("{e} more errors"),
        (0, w) => format!("{w} more warnings"),
        (e, w) => format!("{e} more errors and {w} more warnings"),
    };
    Some(format!(
        "note: {}: {what} not shown (at most {} diagnostics are kept per file)",
        r.path.display(),
        crate::validate::MAX_KEPT
    ))
}

/// Appends `markdown` to the file `path` (GitHub's `$GITHUB_STEP_SUMMARY`: each step
/// appends to it), creating it if needed.
pub fn append_step_summary(path: &Path, markdown: &str) -> std::io::Result<()> {
    crate::safe_write::append(path, markdown.as_bytes())
}
