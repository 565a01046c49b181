//! `boardxml validate`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use boardxml::report::run::{append_step_summary, io_report, Policy, Run};
use boardxml::report::OutputFormat;
use boardxml::validate::{validate_file, Options, Report};
use rayon::prelude::*;

use crate::files::collect;
use crate::policy::Exclude;

/// Files validated (in parallel) between two printings of their reports.
const REPORT_CHUNK: usize = 1024;

pub fn run(paths: &[PathBuf], format: OutputFormat, options: Options, ci: &Ci) -> ExitCode {
    // A path that cannot be read is a finding (E0001) in the chosen format, like any other.
    let mut unreadable = Vec::new();
    let mut files = Vec::new();
    for p in paths {
        match collect(std::slice::from_ref(p)) {
            Ok(found) => files.extend(found),
            Err(e) => unreadable.push(io_report(p, format!("cannot read {e}"))),
        }
    }
    files.retain(|f| !ci.exclude.excludes(f, false));
    unreadable.retain(|r| !ci.exclude.excludes(&r.path, false));
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
    let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut run = Run::new(format, ci.policy.clone(), color, &root);
    // The first failed write to standard output: the run goes on (its exit code must still
    // say what was found) but ends in exit 2.
    let mut write_error: Option<std::io::Error> = None;
    // In chunks, printed in order as each is done: memory stays bounded whatever the number
    // of files (a batch of 10,000 records held every report until the end).
    for (i, chunk) in files.chunks(REPORT_CHUNK).enumerate() {
        let mut reports: Vec<Report> = chunk
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
        if i == 0 {
            reports.splice(0..0, std::mem::take(&mut unreadable));
        }
        bar.suspend(|| {
            for r in &mut reports {
                let text = run.add(r);
                if write_error.is_none() {
                    write_error = out.write_all(text.as_bytes()).err();
                }
            }
            if write_error.is_none() {
                write_error = out.flush().err();
            }
        });
    }
    bar.finish_and_clear();
    // Paths that could not be read, when no file was found at all.
    for r in &mut unreadable {
        let text = run.add(r);
        if write_error.is_none() {
            write_error = out.write_all(text.as_bytes()).err();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let finished = run.finish(seconds);
    let summary = finished.summary.line(seconds);
    // The summary line goes to stderr in the machine formats, so stdout stays parseable;
    // their own summary (the JSON record, SARIF, JUnit) is the last thing on stdout.
    match format {
        OutputFormat::Human => {
            if write_error.is_none() {
                write_error = writeln!(out, "{summary}").err();
            }
        }
        _ => eprintln!("{summary}"),
    }
    if write_error.is_none() {
        write_error = out
            .write_all(finished.stdout.as_bytes())
            .and_then(|()| out.flush())
            .err();
    }
    if let (Some(markdown), Some(file)) = (
        &finished.step_summary,
        std::env::var_os("GITHUB_STEP_SUMMARY").filter(|f| !f.is_empty()),
    ) {
        if let Err(e) = append_step_summary(Path::new(&file), markdown) {
            crate::error(format_args!(
                "cannot append to $GITHUB_STEP_SUMMARY ({}): {e}",
                Path::new(&file).display()
            ));
            return ExitCode::from(2);
        }
    }
    if let Some(e) = write_error {
        return crate::output_failed(&e);
    }
    ExitCode::from(finished.summary.exit_code)
}

/// `validate`'s CI flags: which files are left out, and what fails the run.
pub struct Ci {
    /// `--exclude`.
    pub exclude: Exclude,
    /// `--deny-warnings`, `--allow`.
    pub policy: Policy,
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
