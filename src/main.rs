//! The `boardxml` command.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use boardxml::report::{render, OutputFormat};
use boardxml::validate::{validate_file, Options, Report};
use clap::{Parser, Subcommand};
use rayon::prelude::*;

#[derive(Parser)]
#[command(
    name = "boardxml",
    version,
    about = "Strict validation of CIF marker documents and CBF Chinese-chess records"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate files (folders are searched recursively for .cbf, .cif and .xml files).
    ///
    /// Exit code: 0 all valid, 1 some invalid, 2 usage or I/O error.
    Validate {
        /// Files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// How to print diagnostics.
        #[arg(long, value_enum, default_value = "human")]
        format: OutputFormat,
        /// Stop reading a document after this many errors.
        #[arg(long, default_value_t = 100)]
        max_errors: usize,
        /// Only the schema layer: no format rules, and memory stays bounded whatever the
        /// files' sizes.
        #[arg(long)]
        schema_only: bool,
    },
    /// Draw a game of a CIF document (the board at its size with every marker) as SVG.
    Render {
        /// The CIF document.
        file: PathBuf,
        /// Which game (1-based).
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// Where to write the SVG (written to a temporary file, then renamed).
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate {
            paths,
            format,
            max_errors,
            schema_only,
        } => validate(
            &paths,
            format,
            Options {
                max_errors,
                schema_only,
            },
        ),
        Command::Render { file, game, output } => render_cif(&file, game, &output),
    }
}

/// Every file to validate under `paths`, in a stable order.
fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            walk(p, &mut out).map_err(|e| format!("{}: {e}", p.display()))?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let path = e.path();
        if e.file_type()?.is_dir() {
            walk(&path, out)?;
        } else if path
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| matches!(x.to_ascii_lowercase().as_str(), "cbf" | "cif" | "xml"))
        {
            out.push(path);
        }
    }
    Ok(())
}

fn validate(paths: &[PathBuf], format: OutputFormat, options: Options) -> ExitCode {
    let files = match collect(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
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
    let reports: Vec<Report> = files
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
    bar.finish_and_clear();
    let color = format == OutputFormat::Human
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut invalid = 0usize;
    let mut io_errors = 0usize;
    let mut errors = 0usize;
    let mut warnings = 0usize;
    for r in &reports {
        let _ = out.write_all(render(r, format, color).as_bytes());
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
    let valid = reports.len() - invalid - io_errors;
    let summary = format!(
        "{} files: {valid} valid, {invalid} invalid{}; {errors} errors, {warnings} warnings ({:.2} s)",
        reports.len(),
        if io_errors > 0 { format!(", {io_errors} unreadable") } else { String::new() },
        started.elapsed().as_secs_f64()
    );
    // The summary goes to stderr in the machine formats, so stdout stays parseable.
    match format {
        OutputFormat::Human => {
            let _ = writeln!(out, "{summary}");
        }
        _ => eprintln!("{summary}"),
    }
    if io_errors > 0 {
        ExitCode::from(2)
    } else if invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Renders game `game` of a valid CIF document to `output`.
fn render_cif(file: &Path, game: usize, output: &Path) -> ExitCode {
    let report = validate_file(file, &Options::default());
    if !report.is_valid() {
        let color = std::io::stderr().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        eprint!("{}", render(&report, OutputFormat::Human, color));
        eprintln!("error: {} is not valid; nothing drawn", file.display());
        return ExitCode::from(1);
    }
    let Some(boardxml::validate::Document::Cif(boardxml::generated::cif::Root::Cif(cif))) =
        &report.document
    else {
        eprintln!(
            "error: {} is not a CIF document (render draws CIF games)",
            file.display()
        );
        return ExitCode::from(2);
    };
    let Some(g) = game.checked_sub(1).and_then(|i| cif.game.get(i)) else {
        eprintln!(
            "error: {} has {} game(s); there is no game {game}",
            file.display(),
            cif.game.len()
        );
        return ExitCode::from(2);
    };
    let svg = boardxml::cif::render::render_game_svg(g);
    match write_atomically(output, svg.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", output.display());
            ExitCode::from(2)
        }
    }
}

/// Writes through a temporary file in the same folder and a rename, so that a failure never
/// leaves a half-written file (nor truncates the one that was there).
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
