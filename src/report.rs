//! Presenting diagnostics: rustc-like text for people, one JSON object per diagnostic for
//! tools, and GitHub workflow annotations for CI; for a whole run ([`run::Run`]): SARIF,
//! JUnit, the JSON summary record and the GitHub step summary.

use std::borrow::Cow;
use std::fmt::Write as _;

use annotate_snippets::{Level, Renderer, Snippet};
use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::validate::Report;

/// The output formats of `boardxml validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// rustc-like, with the source line and a caret.
    Human,
    /// One JSON object per line, per diagnostic (shape documented in docs/errors.md).
    Json,
    /// GitHub Actions workflow annotations, and a Markdown table of every finding in
    /// `$GITHUB_STEP_SUMMARY` when it is set.
    Github,
    /// SARIF 2.1.0, one document for the run (for code scanning).
    Sarif,
    /// JUnit XML, one document for the run: a test case per file.
    Junit,
}

impl OutputFormat {
    /// Whether diagnostics printed to standard output in this format are coloured: the
    /// human format on a terminal (see [`colors`]).
    pub fn colors_stdout(self) -> bool {
        use std::io::IsTerminal;
        self == OutputFormat::Human && colors(std::io::stdout().is_terminal())
    }
}

/// Whether text for a stream is coloured: on a terminal, unless `NO_COLOR` is set
/// (<https://no-color.org>).
pub fn colors(terminal: bool) -> bool {
    terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The JSON shape of one diagnostic. Stable: fields are only ever added.
#[derive(Debug, Serialize)]
pub struct JsonDiagnostic<'a> {
    /// The file.
    pub file: String,
    /// 1-based line (0 when the file could not be decoded).
    pub line: usize,
    /// 1-based column in characters (0 when the file could not be decoded).
    pub column: usize,
    /// Byte offset (in the file for E0102, else in the decoded text).
    pub offset: usize,
    /// `error` or `warning`.
    pub severity: Severity,
    /// The stable code, e.g. `E0210`.
    pub code: &'static str,
    /// The code's short name, e.g. `pattern`.
    pub name: &'static str,
    /// The element path.
    pub path: &'a str,
    /// The message.
    pub message: &'a str,
    /// What was expected, if known.
    pub expected: Option<&'a str>,
    /// What was found, if known.
    pub found: Option<&'a str>,
    /// The format detected (`cif`, `cbf-2007`, `cbf-1.0`), if known.
    pub format: Option<&'static str>,
}

/// Renders all diagnostics of one report.
pub fn render(report: &Report, format: OutputFormat, color: bool) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        match format {
            OutputFormat::Human => out.push_str(&human(report, d, color)),
            OutputFormat::Json => {
                out.push_str(&json(report, d));
                out.push('\n');
            }
            OutputFormat::Github => {
                out.push_str(&github(report, d));
                out.push('\n');
            }
            // One document for the whole run: see `run::Run`.
            OutputFormat::Sarif | OutputFormat::Junit => {}
        }
    }
    out
}

/// How an invalid document displays as an error: every diagnostic as the human output
/// shows it, then a line with the file and its count of errors.
pub fn not_valid(report: &Report) -> String {
    let errors = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    format!(
        "{}{} is not valid ({errors} error{})",
        render(report, OutputFormat::Human, false),
        report.path.display(),
        if errors == 1 { "" } else { "s" }
    )
}

/// One diagnostic as a JSON object.
pub fn json(report: &Report, d: &Diagnostic) -> String {
    let (line, column) = report.line_column(d);
    serde_json::to_string(&JsonDiagnostic {
        file: report.path.display().to_string(),
        line,
        column,
        offset: d.offset,
        severity: d.severity,
        code: d.code.as_str(),
        name: d.code.name(),
        path: &d.path,
        message: &d.message,
        expected: d.expected.as_deref(),
        found: d.found.as_deref(),
        format: report.format,
    })
    .map(|j| json_terminal_safe(&j))
    .unwrap_or_default()
}

/// serde_json escapes C0 controls only; the C1 controls and the bidi overrides are written
/// as `\uXXXX` too, the same string to a JSON reader, and harmless on a terminal.
fn json_terminal_safe(json: &str) -> String {
    if !json.chars().any(is_unsafe_on_terminal) {
        return json.to_owned();
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_unsafe_on_terminal(c) {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` made safe to print on a terminal: every control character but the tab (ESC
/// sequences would recolour, retitle or clear the terminal; a line end would start a fake
/// line), the C1 controls, and the bidirectional overrides and isolates (which reorder what
/// is shown: "Trojan Source") are written as `\u{..}` escapes. Names, paths, values and
/// source lines come from the documents and file names, which anyone may have written.
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_on_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe_on_terminal(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn is_unsafe_on_terminal(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

fn github(report: &Report, d: &Diagnostic) -> String {
    let (line, column) = report.line_column(d);
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    };
    let mut message = format!("{} {}", d.code, d.message);
    if let Some(e) = &d.expected {
        let _ = write!(message, "; expected {e}");
    }
    if let Some(f) = &d.found {
        let _ = write!(message, ", found {f}");
    }
    if !d.path.is_empty() {
        let _ = write!(message, " (at {})", d.path);
    }
    // Workflow commands end at a line end and take `%`, CR and LF escaped; the log shows
    // them on a terminal-like page, so the rest is made terminal-safe first.
    let escape = |s: &str| {
        terminal_safe(s)
            .replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let file = escape(&report.path.display().to_string())
        .replace(',', "%2C")
        .replace(':', "%3A");
    // No line (bad bytes, an unreadable file): the annotation is on the file.
    let place = if line == 0 {
        String::new()
    } else {
        format!(",line={line},col={column}")
    };
    format!(
        "::{level} file={file}{place},title={}::{}",
        d.code,
        escape(&message)
    )
}

fn human(report: &Report, d: &Diagnostic, color: bool) -> String {
    let (line, column) = report.line_column(d);
    let level = match d.severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
        Severity::Note => Level::Note,
    };
    let mut notes = Vec::new();
    if !d.path.is_empty() {
        notes.push(format!("at {}", d.path));
    }
    if let Some(e) = &d.expected {
        notes.push(format!("expected {e}"));
    }
    if let Some(f) = &d.found {
        notes.push(format!("found {f}"));
    }
    let notes: Vec<String> = notes
        .iter()
        .map(|n| terminal_safe(n).into_owned())
        .collect();
    let title = terminal_safe(&d.message);
    let origin = terminal_safe(&report.path.display().to_string()).into_owned();
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let code = d.code.as_str();
    if line == 0 {
        let mut message = level.title(&title).id(code);
        for n in &notes {
            message = message.footer(Level::Note.title(n));
        }
        return format!(
            "{}\n --> {origin} (byte {})\n\n",
            renderer.render(message),
            d.offset
        );
    }
    // Show the one line, with the caret at the column (lines are kept only up to a few
    // KiB: past that, no excerpt).
    let source = report
        .source_lines
        .get(&line)
        .map(String::as_str)
        .unwrap_or("");
    if source.chars().count() + 1 < column {
        let mut message = level.title(&title).id(code);
        for n in &notes {
            message = message.footer(Level::Note.title(n));
        }
        return format!(
            "{}\n --> {origin}:{line}:{column}\n\n",
            renderer.render(message)
        );
    }
    let start: usize = source
        .chars()
        .take(column - 1)
        .map(char::len_utf8)
        .sum::<usize>()
        .min(source.len());
    let end = source[start..]
        .chars()
        .next()
        .map(|c| start + c.len_utf8())
        .unwrap_or(start);
    let label = d
        .found
        .as_deref()
        .map(|f| terminal_safe(&format!("found {f}")).into_owned())
        .unwrap_or_default();
    // The line is escaped in three parts so that the caret stays on the character.
    let (before, at, after) = (
        terminal_safe(&source[..start]),
        terminal_safe(&source[start..end]),
        terminal_safe(&source[end..]),
    );
    let (start, end) = (before.len(), before.len() + at.len());
    let source = format!("{before}{at}{after}");
    let snippet = Snippet::source(&source)
        .line_start(line)
        .origin(&origin)
        .annotation(level.span(start..end).label(&label));
    let mut message = level.title(&title).id(code).snippet(snippet);
    for n in notes.iter().filter(|n| !n.starts_with("found ")) {
        message = message.footer(Level::Note.title(n));
    }
    format!("{}\n\n", renderer.render(message))
}

pub mod codes;
pub mod junit;
pub mod policy;
pub mod run;
pub mod sarif;
pub mod step_summary;
