//! `boardxml validate`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use boardxml::report::run::{Policy, Printer, Run};
use boardxml::report::OutputFormat;
use boardxml_formats::codes;
use boardxml_formats::document::Format;
use boardxml_formats::validate::{
    detect_format, validate_file, validate_reader, Options, Validated as Report,
};
use rayon::prelude::*;

use crate::files::{collect, Input};
use crate::policy::Exclude;

/// Files validated (in parallel) between two printings of their reports.
const REPORT_CHUNK: usize = 1024;

/// Reads and validates one input (standard input is read as any stream).
pub fn read_input(input: &Input, options: &Options) -> Report {
    match input {
        Input::File { path, .. } => validate_file(path, options),
        Input::Stdin => validate_reader(input.shown(), std::io::stdin().lock(), options),
        Input::Unreadable { path, error } => {
            boardxml::validate::Report::io_error(path, error.clone()).into()
        }
    }
}

pub fn run(paths: &[PathBuf], format: OutputFormat, options: Options, ci: &Ci) -> ExitCode {
    // A path that cannot be read is an input too: its report is a finding (E0001) in the
    // chosen format, like any other.
    let collected = collect(paths);
    collected.print_skipped();
    let files: Vec<&Input> = collected
        .inputs
        .iter()
        .filter(|f| matches!(f, Input::Stdin) || !ci.exclude.excludes(f.shown(), false))
        .collect();
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
    let color = format.colors_stdout();
    let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let run = Run::new(format, ci.policy.clone(), color, &root, codes::CATALOG);
    let mut printer = Printer::new(run, std::io::stdout().lock());
    // In chunks, printed in order as each is done: memory stays bounded whatever the number
    // of files (a batch of 10,000 records held every report until the end).
    let left_out_count = std::sync::atomic::AtomicUsize::new(0);
    for chunk in files.chunks(REPORT_CHUNK) {
        let mut reports: Vec<Report> = chunk
            .par_iter()
            .filter_map(|f| {
                if left_out(f, &ci.only) {
                    bar.inc(1);
                    left_out_count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    bar.suspend(|| {
                        eprintln!(
                            "{}",
                            boardxml::report::terminal_safe(&format!(
                                "skipped (not {}): {}",
                                only_names(&ci.only),
                                f.shown().display()
                            ))
                        )
                    });
                    return None;
                }
                let r = read_input(f, &options);
                bar.inc(1);
                if stderr_tty
                    && started.elapsed() > Duration::from_millis(500)
                    && !shown.swap(true, std::sync::atomic::Ordering::Relaxed)
                {
                    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(200));
                }
                Some(r)
            })
            .collect();
        bar.suspend(|| {
            for r in &mut reports {
                printer.print(r);
            }
            printer.flush();
        });
    }
    bar.finish_and_clear();
    let mut notes = Vec::new();
    if !collected.skipped.is_empty() {
        notes.push(format!(
            "{} skipped (not regular files)",
            collected.skipped.len()
        ));
    }
    let left_out_count = left_out_count.into_inner();
    if left_out_count > 0 {
        notes.push(format!(
            "{left_out_count} skipped (not {})",
            only_names(&ci.only)
        ));
    }
    let ended = printer.finish(started.elapsed().as_secs_f64(), &notes);
    ExitCode::from(ended.exit_code())
}

/// `validate`'s CI flags: which files are left out, and what fails the run.
pub struct Ci {
    /// `--exclude`.
    pub exclude: Exclude,
    /// `--deny-warnings`, `--allow`.
    pub policy: Policy,
    /// `--only`: the formats validated (empty: every file).
    pub only: Vec<Only>,
}

/// A format `--only` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Only {
    /// CIF marker documents.
    Cif,
    /// CBF records, either dialect.
    Cbf,
    /// XQF records.
    Xqf,
    /// XiangQi Bridge records.
    Cbr,
    /// XiangQi Bridge libraries.
    Cbl,
    /// PGN files.
    Pgn,
}

impl Only {
    fn takes(self, format: Format) -> bool {
        matches!(
            (self, format),
            (Only::Cif, Format::Cif)
                | (Only::Cbf, Format::Cbf2007 | Format::Cbf10)
                | (Only::Xqf, Format::Xqf)
                | (Only::Cbr, Format::Cbr)
                | (Only::Cbl, Format::Cbl)
                | (Only::Pgn, Format::Pgn)
        )
    }
}

/// Whether `--only` leaves `input` out: a file whose content is none of its formats. A
/// file that cannot be read is kept (its report says so), and so is standard input (read
/// once, by validation).
fn left_out(input: &Input, only: &[Only]) -> bool {
    if only.is_empty() {
        return false;
    }
    let Input::File { path, .. } = input else {
        return false;
    };
    match detect_format(path) {
        Ok(Some(format)) => !only.iter().any(|o| o.takes(format)),
        Ok(None) => true,
        Err(_) => false,
    }
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

/// `--only`'s formats as the messages name them: `cbf or cif`.
fn only_names(only: &[Only]) -> String {
    let names: Vec<&str> = only
        .iter()
        .map(|o| match o {
            Only::Cif => "cif",
            Only::Cbf => "cbf",
            Only::Xqf => "xqf",
            Only::Cbr => "cbr",
            Only::Cbl => "cbl",
            Only::Pgn => "pgn",
        })
        .collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
