//! JUnit XML for `boardxml validate`: a test case per file, a `<failure>` per diagnostic
//! that fails the run, an `<error>` for a file that cannot be read, and the findings that
//! do not fail (warnings, allowed codes) in the case's `<system-out>`.
//!
//! Counts, as CI systems read them: `tests` files, `failures` files that fail, `errors`
//! files that could not be read.

use std::fmt::Write as _;

use super::policy::Policy;
use crate::diagnostic::{Code, Diagnostic};
use crate::validate::Report;

/// The test cases of a run, gathered until its end.
#[derive(Debug, Default)]
pub struct Builder {
    cases: String,
    tests: usize,
    failures: usize,
    errors: usize,
}

impl Builder {
    /// Adds the test case of `report`.
    pub fn add(&mut self, report: &Report, policy: &Policy) {
        self.tests += 1;
        let file = report.path.display().to_string();
        let _ = write!(
            self.cases,
            "    <testcase name=\"{}\" classname=\"boardxml.validate\" file=\"{}\"",
            escape(&file),
            escape(&file)
        );
        if report.diagnostics.is_empty() {
            self.cases.push_str("/>\n");
            return;
        }
        self.cases.push_str(">\n");
        let mut out = String::new();
        let (mut failed, mut broken) = (false, false);
        for d in &report.diagnostics {
            if d.code == Code::IO {
                broken = true;
                let _ = writeln!(
                    self.cases,
                    "      <error type=\"{}\" message=\"{}\">{}</error>",
                    d.code,
                    escape(&format!("{} {}", d.code, d.message)),
                    escape(&details(report, d))
                );
            } else if policy.fails(d) {
                failed = true;
                let _ = writeln!(
                    self.cases,
                    "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                    d.code,
                    escape(&format!("{} {}", d.code, d.message)),
                    escape(&details(report, d))
                );
            } else {
                let _ = writeln!(out, "{}", details(report, d));
            }
        }
        if !out.is_empty() {
            let _ = writeln!(
                self.cases,
                "      <system-out>{}</system-out>",
                escape(&out)
            );
        }
        self.cases.push_str("    </testcase>\n");
        if broken {
            self.errors += 1;
        } else if failed {
            self.failures += 1;
        }
    }

    /// The JUnit document.
    pub fn finish(self, seconds: f64) -> String {
        let counts = format!(
            "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{seconds:.3}\"",
            self.tests, self.failures, self.errors
        );
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <testsuites name=\"boardxml validate\" {counts}>\n  \
             <testsuite name=\"boardxml validate\" {counts}>\n{}  </testsuite>\n</testsuites>\n",
            self.cases
        )
    }
}

/// `file:line:column: severity[CODE] message`, then the path, expected and found.
fn details(report: &Report, d: &Diagnostic) -> String {
    let (line, column) = report.line_column(d);
    let severity = match d.severity {
        crate::diagnostic::Severity::Error => "error",
        crate::diagnostic::Severity::Warning => "warning",
        crate::diagnostic::Severity::Note => "note",
    };
    let mut text = format!(
        "{}:{line}:{column}: {severity}[{}] {}",
        report.path.display(),
        d.code,
        d.message
    );
    if !d.path.is_empty() {
        let _ = write!(text, "\n  at {}", d.path);
    }
    if let Some(e) = &d.expected {
        let _ = write!(text, "\n  expected {e}");
    }
    if let Some(f) = &d.found {
        let _ = write!(text, "\n  found {f}");
    }
    text
}

/// Escapes text for an XML attribute or element; what XML 1.0 cannot hold at all (C0
/// controls but tab and line ends, U+FFFE, U+FFFF) is written as a `\u{..}` escape.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}
