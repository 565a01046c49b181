//! `boardxml validate`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use boardxml::report::{render, OutputFormat};
use boardxml::validate::{validate_file, Options, Report};
use rayon::prelude::*;

use crate::files::collect;

/// Files validated (in parallel) between two printings of their reports.
const REPORT_CHUNK: usize = 1024;

pub fn run(paths: &[PathBuf], format: OutputFormat, options: Options) -> ExitCode {
    let files = match collect(paths) {
        Ok(f) => f,
        Err(e) => {
            crate::error(format_args!("{e}"));
            return ExitCode::from(2);
        }
    };
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
                let r = validate_file(f, &options);
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
                .count();
            warnings += r
                .diagnostics
                .iter()
                .filter(|d| d.severity == boardxml::diagnostic::Severity::Warning)
                .count();
        }
    }
    bar.finish_and_clear();
    let valid = files.len() - invalid - io_errors;
    let summary = format!(
        "{} files: {valid} valid, {invalid} invalid{}; {errors} errors, {warnings} warnings ({:.2} s)",
        files.len(),
        if io_errors > 0 { format!(", {io_errors} unreadable") } else { String::new() },
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
