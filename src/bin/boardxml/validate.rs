//! `boardxml validate`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use boardxml::report::{render, OutputFormat};
use boardxml::validate::{validate_file, validate_reader, Options, Report, MAX_KEPT};
use rayon::prelude::*;

use crate::files::{collect, Input};

/// Files validated (in parallel) between two printings of their reports.
const REPORT_CHUNK: usize = 1024;

/// Reads and validates one input (standard input is read as any stream).
pub fn read_input(input: &Input, options: &Options) -> Report {
    match input {
        Input::File { path, .. } => validate_file(path, options),
        Input::Stdin => validate_reader(input.shown(), std::io::stdin().lock(), options),
        Input::Unreadable { path, error } => Report::io_error(path, error.clone()),
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
        "note: {}: {what} not shown (at most {MAX_KEPT} diagnostics are kept per file)",
        r.path.display()
    ))
}

pub fn run(paths: &[PathBuf], format: OutputFormat, options: Options) -> ExitCode {
    let collected = collect(paths);
    collected.print_skipped();
    let files = &collected.inputs;
    let started = Instant::now();
    let stderr_tty = std::io::stderr().is_terminal();
    // A bar only on a terminal, and only once a batch takes longer than a moment: a quick
    // run should not flicker.
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(files.len() as u64),
        indicatif::ProgressDrawTarget::hidden(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let shown = std::sync::atomic::AtomicBool::new(false);
    let color = format == OutputFormat::Human
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut invalid = 0usize;
    let mut io_errors = 0usize;
    let mut errors = 0usize;
    let mut warnings = 0usize;
    // The first failed write to standard output: the run goes on (its exit code must still
    // say what was found) but ends in exit 2.
    let mut write_error: Option<std::io::Error> = None;
    // In chunks, printed in order as each is done: memory stays bounded whatever the number
    // of files (a batch of 10,000 records held every report until the end).
    for chunk in files.chunks(REPORT_CHUNK) {
        let reports: Vec<Report> = chunk
            .par_iter()
            .map(|f| {
                let r = read_input(f, &options);
                bar.inc(1);
                if stderr_tty
                    && started.elapsed() > Duration::from_millis(500)
                    && !shown.swap(true, std::sync::atomic::Ordering::Relaxed)
                {
                    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(200));
                }
                r
            })
            .collect();
        bar.suspend(|| {
            for r in &reports {
                if write_error.is_none() {
                    write_error = out.write_all(render(r, format, color).as_bytes()).err();
                }
                // A line of its own: in the machine formats, on stderr (stdout stays one
                // diagnostic a line).
                if let Some(note) = omitted_note(r) {
                    match format {
                        OutputFormat::Human => {
                            if write_error.is_none() {
                                write_error = writeln!(out, "{note}").err();
                            }
                        }
                        _ => eprintln!("{}", boardxml::report::terminal_safe(&note)),
                    }
                }
            }
            if write_error.is_none() {
                write_error = out.flush().err();
            }
        });
        for r in &reports {
            if r.diagnostics
                .iter()
                .any(|d| d.code == boardxml::diagnostic::Code::Io)
            {
                io_errors += 1;
            } else if !r.is_valid() {
                invalid += 1;
            }
            errors += r
                .diagnostics
                .iter()
                .filter(|d| d.severity == boardxml::diagnostic::Severity::Error)
                .count()
                + r.omitted_errors;
            warnings += r
                .diagnostics
                .iter()
                .filter(|d| d.severity == boardxml::diagnostic::Severity::Warning)
                .count()
                + r.omitted_warnings;
        }
    }
    bar.finish_and_clear();
    let valid = files.len() - invalid - io_errors;
    let skipped = collected.skipped.len();
    let summary = format!(
        "{} files: {valid} valid, {invalid} invalid{}{}; {errors} errors, {warnings} warnings ({:.2} s)",
        files.len(),
        if io_errors > 0 { format!(", {io_errors} unreadable") } else { String::new() },
        if skipped > 0 { format!(", {skipped} skipped") } else { String::new() },
        started.elapsed().as_secs_f64()
    );
    // The summary goes to stderr in the machine formats, so stdout stays parseable.
    match format {
        OutputFormat::Human => {
            if write_error.is_none() {
                write_error = writeln!(out, "{summary}").and_then(|()| out.flush()).err();
            }
        }
        _ => eprintln!("{summary}"),
    }
    if let Some(e) = write_error {
        return crate::output_failed(&e);
    }
    batch_exit(io_errors, invalid)
}

/// The exit code of a batch: 2 if a file could not be read or written, 1 if one failed
/// (invalid, or not converted), 0 otherwise.
pub fn batch_exit(io_errors: usize, failed: usize) -> ExitCode {
    if io_errors > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
