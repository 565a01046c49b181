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
enum ConformanceAction {
    /// Run an implementation over every case and report agreement case by case. Without
    /// --impl or --impl-roundtrip, boardxml itself is run.
    ///
    /// Exit code: 0 every case agrees, 1 some disagree, 2 usage or I/O error.
    Run {
        /// The suite folder.
        #[arg(long, default_value = "conformance")]
        suite: PathBuf,
        /// The implementation: a shell command with {file} for the case's path; its exit
        /// code tells its verdict.
        #[arg(long = "impl")]
        implementation: Option<String>,
        /// The exit code that means "valid".
        #[arg(long, default_value_t = 0)]
        valid_exit: i32,
        /// A round-trip implementation: reads {in}, writes {out}; compared with the
        /// original at the level of the data model.
        #[arg(long = "impl-roundtrip")]
        roundtrip: Option<String>,
        /// Seconds a case may take before it is killed and reported as a hang.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
        /// How to report.
        #[arg(long, default_value = "human")]
        format: String,
    },
    /// Write the suite with its manifest to DIR, for use without boardxml.
    Export {
        /// Where to write it.
        dir: PathBuf,
        /// The suite folder.
        #[arg(long, default_value = "conformance")]
        suite: PathBuf,
    },
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
        /// Only XML 1.0 and Namespaces 1.0 well-formedness (no schema, no format rules; a
        /// DOCTYPE is refused, the limits apply): every finding is an E01xx code.
        #[arg(long, conflicts_with = "schema_only")]
        xml_only: bool,
    },
    /// Draw a CIF game (the board at its size with every marker) or a CBF position (the
    /// xiangqi board with the last move highlighted) as SVG.
    Render {
        /// The CIF document or CBF record.
        file: PathBuf,
        /// CIF: which game (1-based).
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// CBF: which line, as 1-based child numbers per ply separated by dots (as in
        /// `show`); the main line by default.
        #[arg(long, default_value = "")]
        line: String,
        /// CBF: the position after this many plies (default: the end of the line).
        #[arg(long)]
        ply: Option<usize>,
        /// Where to write the SVG (written to a temporary file, then renamed).
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
    },
    /// The conformance suite: run an implementation over it, or export it.
    Conformance {
        #[command(subcommand)]
        action: ConformanceAction,
    },
    /// Convert CBF records (either dialect) to CBF 1.0, CBF 2007, PGN or JSON.
    ///
    /// Each input is validated first; an invalid one is reported and skipped. What the
    /// target cannot hold is printed as a warning. Exit code: 0 all converted, 1 some
    /// failed, 2 usage or I/O error.
    Convert {
        /// Files or folders (searched recursively like `validate`).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The target.
        #[arg(long, value_enum)]
        to: Target,
        /// The output encoding (default: GBK for cbf-2007, UTF-8 otherwise; JSON is UTF-8).
        #[arg(long, value_enum)]
        encoding: Option<EncodingArg>,
        /// The move notation of PGN.
        #[arg(long, value_enum, default_value = "iccs")]
        notation: NotationArg,
        /// The output file (one input only).
        #[arg(short = 'o', long = "output", conflicts_with = "out_dir")]
        output: Option<PathBuf>,
        /// The output folder: each input's stem with the target's extension.
        #[arg(long)]
        out_dir: Option<PathBuf>,
        /// Allow overwriting an input file.
        #[arg(long)]
        force: bool,
    },
    /// Show a position of a CBF record: the board, the side to move, the moves so far.
    Show {
        /// The CBF record.
        file: PathBuf,
        /// The line: 1-based child numbers by ply, separated by dots (`1.2`: the main
        /// line's first move, then the first variation at ply 2; after the last number
        /// the line follows main continuations). Default: the main line.
        #[arg(long, default_value = "")]
        line: String,
        /// The position after this many plies of the line (default: its end).
        #[arg(long)]
        ply: Option<usize>,
    },
}

/// A conversion target.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Target {
    /// CBF, dialect 1.0 (`.cbf`).
    #[value(name = "cbf-1.0")]
    Cbf10,
    /// CBF, dialect 2007 (`.cbf`).
    #[value(name = "cbf-2007")]
    Cbf2007,
    /// PGN (`.pgn`).
    Pgn,
    /// JSON (`.json`).
    Json,
}

impl Target {
    fn extension(self) -> &'static str {
        match self {
            Target::Cbf10 | Target::Cbf2007 => "cbf",
            Target::Pgn => "pgn",
            Target::Json => "json",
        }
    }
}

/// An output encoding.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum EncodingArg {
    /// UTF-8 (no BOM).
    #[value(name = "utf-8")]
    Utf8,
    /// GBK.
    Gbk,
}

/// A PGN move notation.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum NotationArg {
    /// `h2e2`.
    Iccs,
    /// `炮二平五`.
    Chinese,
    /// `C2.5`.
    Wxf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate {
            paths,
            format,
            max_errors,
            schema_only,
            xml_only,
        } => validate(
            &paths,
            format,
            // The CLI keeps no document: CIF rules run while reading, in bounded memory.
            Options {
                max_errors,
                schema_only,
                keep_document: false,
                xml_only,
            },
        ),
        Command::Render {
            file,
            game,
            line,
            ply,
            output,
        } => render_file(&file, game, &line, ply, &output),
        Command::Conformance { action } => conformance(action),
        Command::Convert {
            paths,
            to,
            encoding,
            notation,
            output,
            out_dir,
            force,
        } => convert::run(
            &paths,
            &convert::Settings {
                to,
                encoding,
                notation,
                output,
                out_dir,
                force,
            },
        ),
        Command::Show { file, line, ply } => show(&file, &line, ply),
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
    // Entries of one folder differ only in their names: compare those, each fetched once
    // (a key of `e.path()` built two paths per comparison: collecting 10,000 files took
    // 285M instructions, now 31M).
    entries.sort_by_cached_key(|e| e.file_name());
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

/// Files validated (in parallel) between two printings of their reports.
const REPORT_CHUNK: usize = 1024;

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
    let color = format == OutputFormat::Human
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut invalid = 0usize;
    let mut io_errors = 0usize;
    let mut errors = 0usize;
    let mut warnings = 0usize;
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
                let _ = out.write_all(render(r, format, color).as_bytes());
            }
            let _ = out.flush();
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
            let _ = writeln!(out, "{summary}");
        }
        _ => eprintln!("{summary}"),
    }
    batch_exit(io_errors, invalid)
}

/// The exit code of a batch: 2 if a file could not be read or written, 1 if one failed
/// (invalid, or not converted), 0 otherwise.
fn batch_exit(io_errors: usize, failed: usize) -> ExitCode {
    if io_errors > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Renders a game of a valid CIF document, or a position of a valid CBF record, to `output`.
fn render_file(
    file: &Path,
    game: usize,
    line: &str,
    ply: Option<usize>,
    output: &Path,
) -> ExitCode {
    let report = validate_file(file, &Options::default());
    if !report.is_valid() {
        let color = std::io::stderr().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        eprint!("{}", render(&report, OutputFormat::Human, color));
        eprintln!("error: {} is not valid; nothing drawn", file.display());
        return ExitCode::from(1);
    }
    let svg = match &report.document {
        Some(boardxml::validate::Document::Cif(boardxml::generated::cif::Root::Cif(cif))) => {
            match game.checked_sub(1).and_then(|i| cif.game.get(i)) {
                Some(g) => Ok(boardxml::cif::render::render_game_svg(g)),
                None => Err(format!(
                    "it has {} game(s); there is no game {game}",
                    cif.game.len()
                )),
            }
        }
        Some(doc) => match boardxml::cbf::convert::record_of(doc) {
            Some(record) => cbf_position_svg(&record, line, ply),
            None => Err("it is neither a CIF document nor a CBF record".to_string()),
        },
        None => Err("it could not be read".to_string()),
    };
    let svg = match svg {
        Ok(svg) => svg,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    match write_atomically(output, svg.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", output.display());
            ExitCode::from(2)
        }
    }
}

/// The position after `ply` plies of the line `line` (as `show` reads it), drawn.
fn cbf_position_svg(
    record: &boardxml::cbf::Record,
    line: &str,
    ply: Option<usize>,
) -> Result<String, String> {
    let moves = boardxml::cbf::show::select_line(record, line)?;
    let ply = ply.unwrap_or(moves.len());
    if ply > moves.len() {
        return Err(format!(
            "ply {ply} is beyond the end of the line, which has {} plies",
            moves.len()
        ));
    }
    let mut position = record
        .start
        .clone()
        .ok_or("the start position could not be read")?;
    let mut last = None;
    for &i in &moves[..ply] {
        let mv = record.moves[i].mv;
        position.play(mv).map_err(|e| {
            format!(
                "the move {} ({}) on the way is illegal: {e}",
                mv.cbf(),
                mv.iccs()
            )
        })?;
        last = Some(mv);
    }
    Ok(boardxml::cbf::render::render_position_svg(&position, last))
}

/// `boardxml conformance run|export`.
fn conformance(action: ConformanceAction) -> ExitCode {
    use boardxml::conformance as cf;
    match action {
        ConformanceAction::Run {
            suite,
            implementation,
            valid_exit,
            roundtrip,
            timeout,
            format,
        } => {
            let Ok(report_format) = format.parse::<cf::ReportFormat>() else {
                eprintln!("error: --format takes human, json or junit, not {format}");
                return ExitCode::from(2);
            };
            if !(timeout > 0.0 && timeout.is_finite()) {
                eprintln!("error: --timeout takes a positive number of seconds");
                return ExitCode::from(2);
            }
            let suite = match cf::load(&suite) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let timeout = Duration::from_secs_f64(timeout);
            let results = match (&implementation, &roundtrip) {
                (Some(_), Some(_)) => {
                    eprintln!("error: give --impl or --impl-roundtrip, not both");
                    return ExitCode::from(2);
                }
                (Some(command), None) => {
                    if let Some(problem) = cf::missing_placeholders(command, &["{file}"]) {
                        eprintln!("error: --impl: {problem}");
                        return ExitCode::from(2);
                    }
                    cf::run_external(&suite, command, valid_exit, timeout)
                }
                (None, Some(command)) => {
                    if let Some(problem) = cf::missing_placeholders(command, &["{in}", "{out}"]) {
                        eprintln!("error: --impl-roundtrip: {problem}");
                        return ExitCode::from(2);
                    }
                    cf::run_roundtrip(&suite, command, timeout)
                }
                (None, None) => cf::run_boardxml(&suite),
            };
            print!(
                "{}",
                cf::render(&results, report_format, &suite.manifest.suite)
            );
            if cf::Summary::of(&results).is_success() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        ConformanceAction::Export { dir, suite } => {
            match cf::load(&suite).and_then(|s| cf::export(&s, &dir)) {
                Ok(n) => {
                    println!("{n} cases written to {}", dir.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
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

/// Shows a position of a valid CBF record.
fn show(file: &Path, line: &str, ply: Option<usize>) -> ExitCode {
    let report = validate_file(file, &Options::default());
    if !report.is_valid() {
        let color = std::io::stderr().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        eprint!("{}", render(&report, OutputFormat::Human, color));
        eprintln!("error: {} is not valid; nothing shown", file.display());
        return ExitCode::from(1);
    }
    let Some(record) = report
        .document
        .as_ref()
        .and_then(boardxml::cbf::convert::record_of)
    else {
        eprintln!("error: {} is not a CBF record", file.display());
        return ExitCode::from(2);
    };
    let text = boardxml::cbf::show::select_line(&record, line)
        .and_then(|l| boardxml::cbf::show::show(&record, &l, ply));
    match text {
        Ok(t) => {
            print!("{t}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            ExitCode::from(2)
        }
    }
}

/// `boardxml convert`: validate each input, convert it, write it atomically.
mod convert {
    use std::collections::{HashMap, HashSet};

    use boardxml::cbf::convert::{self as cv, Loss};
    use boardxml::cbf::pgn::{self, Notation};
    use boardxml::generated::{cbf_1_0, cbf_2007};
    use boardxml::validate::{write_document, Document};

    use super::*;

    /// What the command line asked for.
    pub struct Settings {
        pub to: Target,
        pub encoding: Option<EncodingArg>,
        pub notation: NotationArg,
        pub output: Option<PathBuf>,
        pub out_dir: Option<PathBuf>,
        pub force: bool,
    }

    /// What became of one input.
    enum Outcome {
        Converted {
            losses: Vec<Loss>,
        },
        /// Not valid: its report says why.
        Invalid(Box<Report>),
        /// Valid, but not converted (not a CBF record, would overwrite an input, ...).
        Failed(String),
        /// Could not be read or written.
        Io(String),
        /// A CIF document met in a folder: not for convert, and no failure.
        Skipped,
    }

    fn usage(message: &str) -> ExitCode {
        eprintln!("error: {message}");
        ExitCode::from(2)
    }

    pub fn run(paths: &[PathBuf], s: &Settings) -> ExitCode {
        if s.output.is_none() && s.out_dir.is_none() {
            return usage("say where to write: -o FILE (one input) or --out-dir DIR");
        }
        if s.to == Target::Json && s.encoding == Some(EncodingArg::Gbk) {
            return usage("JSON is always UTF-8 (RFC 8259); --encoding gbk does not apply");
        }
        let files = match collect(paths) {
            Ok(f) => f,
            Err(e) => return usage(&e),
        };
        if files.is_empty() {
            return usage("no .cbf, .cif or .xml files found");
        }
        if let (Some(o), true) = (&s.output, files.len() > 1) {
            return usage(&format!(
                "-o {} names one output file, but there are {} inputs; use --out-dir",
                o.display(),
                files.len()
            ));
        }
        if let Some(dir) = &s.out_dir {
            if let Err(e) = std::fs::create_dir_all(dir) {
                return usage(&format!("cannot create {}: {e}", dir.display()));
            }
        }
        let encoding = match s.encoding {
            Some(EncodingArg::Gbk) => encoding_rs::GBK,
            Some(EncodingArg::Utf8) => encoding_rs::UTF_8,
            None if s.to == Target::Cbf2007 => encoding_rs::GBK,
            None => encoding_rs::UTF_8,
        };
        let inputs: HashSet<PathBuf> = files
            .iter()
            .filter_map(|f| std::fs::canonicalize(f).ok())
            .collect();
        // Plan every output first: two inputs with one stem in different folders would
        // write one file twice.
        let mut claimed: HashMap<PathBuf, &Path> = HashMap::new();
        let plan: Vec<Result<PathBuf, String>> = files
            .iter()
            .map(|f| {
                let out = match (&s.output, &s.out_dir) {
                    (Some(o), _) => o.clone(),
                    (None, Some(dir)) => {
                        let stem = f.file_stem().unwrap_or_default().to_string_lossy();
                        dir.join(format!("{stem}.{}", s.to.extension()))
                    }
                    (None, None) => unreachable!("checked above"),
                };
                if let Some(other) = claimed.get(&out) {
                    return Err(format!(
                        "its output {} is already the output of {}",
                        out.display(),
                        other.display()
                    ));
                }
                claimed.insert(out.clone(), f);
                let overwrites_input = std::fs::canonicalize(&out)
                    .ok()
                    .is_some_and(|c| inputs.contains(&c));
                if overwrites_input && !s.force {
                    return Err(format!(
                        "its output {} is an input file; not overwritten (use --force)",
                        out.display()
                    ));
                }
                Ok(out)
            })
            .collect();

        let started = Instant::now();
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(files.len() as u64),
            if std::io::stderr().is_terminal() {
                indicatif::ProgressDrawTarget::stderr()
            } else {
                indicatif::ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        // Files named on the command line must convert; folders may hold CIF documents too.
        let named: HashSet<&PathBuf> = paths.iter().filter(|p| p.is_file()).collect();
        let outcomes: Vec<Outcome> = files
            .par_iter()
            .zip(plan.par_iter())
            .map(|(f, out)| {
                let o = match out {
                    Ok(out) => convert_one(f, out, s, encoding, named.contains(f)),
                    Err(e) => Outcome::Failed(e.clone()),
                };
                bar.inc(1);
                o
            })
            .collect();
        bar.finish_and_clear();

        let color = std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let (mut converted, mut failed, mut io_errors, mut warnings) = (0, 0, 0, 0);
        let mut skipped = 0;
        for (f, outcome) in files.iter().zip(&outcomes) {
            match outcome {
                Outcome::Converted { losses } => {
                    converted += 1;
                    warnings += losses.len();
                    for l in losses {
                        let _ = writeln!(out, "warning: {}: {l}", f.display());
                    }
                }
                Outcome::Invalid(report) => {
                    failed += 1;
                    let _ = out.write_all(render(report, OutputFormat::Human, color).as_bytes());
                    let _ = writeln!(out, "error: {} is not valid; not converted", f.display());
                }
                Outcome::Failed(e) => {
                    failed += 1;
                    let _ = writeln!(out, "error: {}: {e}", f.display());
                }
                Outcome::Io(e) => {
                    io_errors += 1;
                    let _ = writeln!(out, "error: {}: {e}", f.display());
                }
                Outcome::Skipped => skipped += 1,
            }
        }
        let _ = writeln!(
            out,
            "{} files: {converted} converted to {}, {failed} failed{}{}; {warnings} warnings ({:.2} s)",
            files.len(),
            s.to.name(),
            if skipped > 0 {
                format!(", {skipped} skipped (not CBF)")
            } else {
                String::new()
            },
            if io_errors > 0 {
                format!(", {io_errors} unreadable or unwritable")
            } else {
                String::new()
            },
            started.elapsed().as_secs_f64()
        );
        super::batch_exit(io_errors, failed)
    }

    fn convert_one(
        file: &Path,
        output: &Path,
        s: &Settings,
        encoding: &'static encoding_rs::Encoding,
        named: bool,
    ) -> Outcome {
        let report = validate_file(file, &Options::default());
        if let Some(d) = report
            .diagnostics
            .iter()
            .find(|d| d.code == boardxml::diagnostic::Code::Io)
        {
            return Outcome::Io(d.message.clone());
        }
        if !report.is_valid() {
            return Outcome::Invalid(Box::new(report));
        }
        let Some(record) = report.document.as_ref().and_then(cv::record_of) else {
            return if named {
                Outcome::Failed("not a CBF record (convert reads CBF)".into())
            } else {
                Outcome::Skipped
            };
        };
        let converted = match s.to {
            Target::Cbf10 => cv::to_cbf_1_0(&record).map(|c| {
                let doc = Document::Cbf10(cbf_1_0::Root::ChineseChessRecord(c.output));
                (write_document(&doc, encoding, false), c.losses)
            }),
            Target::Cbf2007 => cv::to_cbf_2007(&record).map(|c| {
                let doc = Document::Cbf2007(cbf_2007::Root::ChineseChessRecord(c.output));
                (write_document(&doc, encoding, false), c.losses)
            }),
            Target::Pgn => {
                let notation = match s.notation {
                    NotationArg::Iccs => Notation::Iccs,
                    NotationArg::Chinese => Notation::Chinese,
                    NotationArg::Wxf => Notation::Wxf,
                };
                pgn::to_pgn(&record, notation).map(|c| {
                    let (bytes, _, unmappable) = encoding.encode(&c.output);
                    let mut losses = c.losses;
                    if unmappable {
                        losses.push(cv::Loss {
                            field: "encoding".into(),
                            message: format!(
                                "characters {} cannot hold are written as &#...; references",
                                encoding.name()
                            ),
                        });
                    }
                    (bytes.into_owned(), losses)
                })
            }
            Target::Json => cv::to_json(&record).map(|c| (c.output.into_bytes(), c.losses)),
        };
        match converted {
            Ok((bytes, losses)) => match write_atomically(output, &bytes) {
                Ok(()) => Outcome::Converted { losses },
                Err(e) => Outcome::Io(format!("cannot write {}: {e}", output.display())),
            },
            Err(e) => Outcome::Failed(format!("cannot convert: {e}")),
        }
    }

    impl Target {
        fn name(self) -> &'static str {
            match self {
                Target::Cbf10 => "cbf-1.0",
                Target::Cbf2007 => "cbf-2007",
                Target::Pgn => "pgn",
                Target::Json => "json",
            }
        }
    }
}
