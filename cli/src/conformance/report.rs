//! Writing results: for people (one line a case and a summary), for programs (JSON) and for
//! CI systems (JUnit XML, so that every case shows as a test).

// One escaping for both JUnit writers (an implementation's stderr may contain any byte).
use boardxml::report::junit::escape;
use std::fmt::Write as _;
use std::str::FromStr;

use serde::Serialize;

use super::{CaseResult, Outcome, Status};

/// How to write results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// One line a case, then a summary.
    Human,
    /// One JSON object: `summary` and `results`.
    Json,
    /// JUnit XML: a testsuite of testcases with failure, error and skipped elements.
    Junit,
}

impl FromStr for ReportFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "human" => Ok(ReportFormat::Human),
            "json" => Ok(ReportFormat::Json),
            "junit" => Ok(ReportFormat::Junit),
            _ => Err(format!("unknown report format {s:?}: human, json or junit")),
        }
    }
}

/// The counts of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Summary {
    /// Cases run.
    pub total: usize,
    /// Cases that agree.
    pub passed: usize,
    /// Cases that do not (including crashes, hangs and cases not run).
    pub failed: usize,
    /// Cases where boardxml disagrees as the manifest says.
    pub known_failures: usize,
    /// Of the failed: killed by a signal.
    pub crashed: usize,
    /// Of the failed: killed after the timeout.
    pub timed_out: usize,
    /// Of the failed: could not be run.
    pub not_run: usize,
}

impl Summary {
    /// Counts `results`.
    pub fn of(results: &[CaseResult]) -> Summary {
        let mut s = Summary {
            total: results.len(),
            ..Summary::default()
        };
        for r in results {
            match r.status {
                Status::Pass => s.passed += 1,
                Status::Fail => s.failed += 1,
                Status::KnownFailure => s.known_failures += 1,
            }
            match r.outcome {
                Outcome::Crashed { .. } => s.crashed += 1,
                Outcome::TimedOut { .. } => s.timed_out += 1,
                Outcome::NotRun { .. } => s.not_run += 1,
                _ => {}
            }
        }
        s
    }

    /// Whether the run is a success (no failure; known failures allowed): the CLI's exit
    /// code.
    pub fn is_success(&self) -> bool {
        self.failed == 0
    }

    fn line(&self) -> String {
        let mut line = format!(
            "{} cases: {} passed, {} failed",
            self.total, self.passed, self.failed
        );
        if self.crashed + self.timed_out + self.not_run > 0 {
            let _ = write!(
                line,
                " ({} crashed, {} timed out, {} not run)",
                self.crashed, self.timed_out, self.not_run
            );
        }
        if self.known_failures > 0 {
            let _ = write!(line, ", {} known failures", self.known_failures);
        }
        line
    }
}

/// Writes `results` in `format`; `suite_name` names the JUnit testsuite.
pub fn render(results: &[CaseResult], format: ReportFormat, suite_name: &str) -> String {
    match format {
        ReportFormat::Human => human(results),
        ReportFormat::Json => json(results, suite_name),
        ReportFormat::Junit => junit(results, suite_name),
    }
}

fn human(results: &[CaseResult]) -> String {
    let mut out = String::new();
    for r in results {
        let tag = match r.status {
            Status::Pass => "PASS ",
            Status::Fail => "FAIL ",
            Status::KnownFailure => "KNOWN",
        };
        let _ = write!(out, "{tag} {} ({})", r.id, r.rule);
        if let Some(first) = r.details.first() {
            let _ = write!(out, ": {first}");
        }
        out.push('\n');
        if r.status == Status::Fail {
            for d in r.details.iter().skip(1) {
                let _ = writeln!(out, "        {d}");
            }
        }
    }
    let _ = writeln!(out, "{}", Summary::of(results).line());
    out
}

fn json(results: &[CaseResult], suite_name: &str) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        suite: &'a str,
        summary: Summary,
        results: &'a [CaseResult],
    }
    let mut text = serde_json::to_string_pretty(&Out {
        suite: suite_name,
        summary: Summary::of(results),
        results,
    })
    .unwrap_or_else(|e| format!("{{\"error\": {:?}}}", e.to_string()));
    text.push('\n');
    text
}

fn junit(results: &[CaseResult], suite_name: &str) -> String {
    let s = Summary::of(results);
    let errors = s.crashed + s.timed_out + s.not_run;
    let seconds = |ms: u64| format!("{:.3}", ms as f64 / 1000.0);
    let total_ms: u64 = results.iter().map(|r| r.duration_ms).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    // The one suite is the whole run: both elements say the same.
    let counts = format!(
        "name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{errors}\" skipped=\"{}\" time=\"{}\"",
        escape(suite_name),
        s.total,
        s.failed - errors.min(s.failed),
        s.known_failures,
        seconds(total_ms)
    );
    let _ = writeln!(out, "<testsuites {counts}>");
    let _ = writeln!(out, "  <testsuite {counts}>");
    for r in results {
        let _ = write!(
            out,
            "    <testcase name=\"{}\" classname=\"conformance.{}\" file=\"{}\" time=\"{}\"",
            escape(&r.id),
            escape(&r.format),
            escape(&r.file.to_string_lossy()),
            seconds(r.duration_ms)
        );
        let message = r.details.first().cloned().unwrap_or_default();
        let body = r.details.join("\n");
        let element = match (r.status, &r.outcome) {
            (Status::Pass, _) => None,
            (Status::KnownFailure, _) => Some(("skipped", "known-failure")),
            (Status::Fail, Outcome::Crashed { .. }) => Some(("error", "crash")),
            (Status::Fail, Outcome::TimedOut { .. }) => Some(("error", "timeout")),
            (Status::Fail, Outcome::NotRun { .. }) => Some(("error", "not-run")),
            (Status::Fail, _) => Some(("failure", "disagreement")),
        };
        match element {
            None => out.push_str("/>\n"),
            Some((name, kind)) => {
                out.push_str(">\n");
                let _ = writeln!(
                    out,
                    "      <{name} message=\"{}\" type=\"{kind}\">{}</{name}>",
                    escape(&message),
                    escape(&format!("{}\nrule: {}\n{body}", r.description, r.rule))
                );
                out.push_str("    </testcase>\n");
            }
        }
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escaping_leaves_no_markup_and_no_forbidden_characters() {
        assert_eq!(
            escape("a<b>&\"c'\u{0}\u{1b}[31m\n"),
            "a&lt;b&gt;&amp;&quot;c&apos;\\u{0}\\u{1b}[31m&#10;"
        );
    }
}
