//! The `boardxml` command: one module a command.

mod conformance;
mod convert;
mod files;
mod policy;
mod render;
mod show;
mod validate;

use std::path::PathBuf;
use std::process::ExitCode;

use boardxml::report::OutputFormat;
use boardxml_formats::validate::Options;
use clap::{Parser, Subcommand};

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
pub enum ConformanceAction {
    /// Run an implementation over every case and report agreement case by case. Without
    /// --impl or --impl-roundtrip, boardxml itself is run.
    ///
    /// Exit code: 0 every case agrees, 1 some disagree, 2 usage or I/O error.
    Run {
        /// The suite folder (default: the suite built into this binary).
        #[arg(long)]
        suite: Option<PathBuf>,
        /// The implementation: a shell command (run by `sh -c`) with {file} for the case's
        /// path; its exit code tells its verdict. {file} is replaced by one shell word,
        /// quoted already ("$BOARDXML_FILE", the path in the environment), so that no
        /// file name can run as a command: write it bare, `tool --strict {file}`; a
        /// placeholder inside quotes ('{file}', "{file}") is refused.
        #[arg(long = "impl")]
        implementation: Option<String>,
        /// The exit code that means "valid".
        #[arg(long, default_value_t = 0)]
        valid_exit: i32,
        /// A round-trip implementation: reads {in}, writes {out} (in a fresh private
        /// folder; only a regular file of at most 64 MiB is read back); compared with the
        /// original at the level of the data model. {in} and {out} are quoted already,
        /// like {file} ("$BOARDXML_IN", "$BOARDXML_OUT"): write them bare.
        #[arg(long = "impl-roundtrip")]
        roundtrip: Option<String>,
        /// Seconds a case may take (the command, and reading what it wrote) before it is
        /// killed with its process group and reported as a hang.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
        /// How to report.
        #[arg(long, default_value = "human")]
        format: String,
    },
    /// Write the suite with its manifest to DIR, for use without boardxml.
    ///
    /// DIR must be missing or empty and outside the suite (not the suite, not inside it,
    /// not around it); files are created new, never written over. Exit code: 0 written,
    /// 2 refused or I/O error.
    Export {
        /// Where to write it (a new or empty folder).
        dir: PathBuf,
        /// The suite folder (default: the suite built into this binary).
        #[arg(long)]
        suite: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Validate files (folders are searched recursively for .cbf, .cif, .xml, .xqf, .cbr,
    /// .cbl and .pgn files; the format is told by the content, not the extension).
    ///
    /// In folders only regular files (and symlinks to them) are read; what is skipped is
    /// named on stderr. Exit code: 0 all valid, 1 some invalid, 2 usage or I/O error.
    Validate {
        /// Files or folders; `-` is standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// How to print diagnostics.
        #[arg(long, value_enum, default_value = "human")]
        format: FormatArg,
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
        /// Warnings fail the run too (exit 1).
        #[arg(long)]
        deny_warnings: bool,
        /// Leave out paths matching GLOB, read as a .gitignore line relative to the
        /// current folder (`vendor/`, `*.xml`, `/build`, `!keep.xml`); repeatable.
        #[arg(long, value_name = "GLOB")]
        exclude: Vec<String>,
        /// Report CODE (E0210, or its name: pattern) as a warning that never fails the
        /// run, not even with --deny-warnings; repeatable. E0001 (unreadable) cannot be
        /// allowed.
        #[arg(long, value_name = "CODE")]
        allow: Vec<String>,
        /// Validate only files of these formats, told by their content as validation
        /// tells it (`cbf,cif`: a CBF record of either dialect and CIF documents); every
        /// other file (another XML vocabulary such as a pom.xml, text, ...) is skipped and
        /// named on stderr. Comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMATS")]
        only: Vec<validate::Only>,
    },
    /// Draw a CIF game (the board at its size with every marker) or a position of a record
    /// (CBF, XQF, CBR, CBL, PGN: the xiangqi board with the last move highlighted and a
    /// caption with the players, the move and the side to move) as SVG that needs no font:
    /// all text (pieces, coordinates, names, markers, notation) is drawn from embedded
    /// outlines (printable ASCII, the pieces and board words, common header words and
    /// names); any other character is drawn as a box with its code point, and a warning
    /// on stderr names it.
    Render {
        /// The CIF document or CBF record.
        file: PathBuf,
        /// CIF: which game (1-based).
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// A record: which position.
        #[command(flatten)]
        at: RecordPosition,
        /// Where to write the picture: `-` for standard output; a character device or
        /// FIFO is written to; a file is written to a new temporary file, then renamed
        /// over it. An input is never overwritten.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// SVG, or PNG (the SVG rasterised at twice its size); by default PNG for an
        /// output ending in `.png`, else SVG.
        #[arg(long, value_enum)]
        format: Option<render::PictureFormat>,
    },
    /// The conformance suite: run an implementation over it, or export it.
    Conformance {
        #[command(subcommand)]
        action: ConformanceAction,
    },
    /// Convert records (CBF of either dialect, XQF, CBR, CBL, PGN) to CBF 1.0, CBF 2007, PGN,
    /// JSON or XQF.
    ///
    /// Each input is validated first; an invalid one is reported and skipped. What the
    /// target cannot hold is printed as a warning. Exit code: 0 all converted, 1 some
    /// failed, 2 usage or I/O error.
    Convert {
        /// Files or folders (searched recursively like `validate`); `-` is standard input
        /// (with -o).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// What to convert to, and where.
        #[command(flatten)]
        settings: convert::Settings,
    },
    /// Show a position of a record (CBF, XQF, CBR, CBL, PGN): its header (players, event,
    /// date, result), the board with the last move marked, the side to move, the moves so
    /// far, and its variations as a tree (each with the --line that picks it).
    Show {
        /// The record.
        file: PathBuf,
        /// Which position.
        #[command(flatten)]
        at: RecordPosition,
    },
}

/// A position of a record (`render` and `show`): which record, which line, which ply.
#[derive(clap::Args)]
pub struct RecordPosition {
    /// The line: `PLY:CHOICE` pairs where it leaves the main continuation (`22:2`: the
    /// second choice at ply 22; `22:2,30:3`), or 1-based child numbers by ply separated by
    /// dots (`1.2`: the main line's first move, then the first variation at ply 2; after
    /// the last number the line follows main continuations). Default: the main line.
    #[arg(long, default_value = "")]
    line: String,
    /// Which record of a library (CBL) or of a PGN file of several games (1-based).
    #[arg(long, default_value_t = 1)]
    record: usize,
    /// The position after this many plies of the line (default: its end).
    #[arg(long)]
    ply: Option<usize>,
}

/// A conversion target.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
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
    /// XQF (`.xqf`), version 1.8, for XQStudio and the tools that read it.
    Xqf,
}

impl Target {
    fn extension(self) -> &'static str {
        match self {
            Target::Cbf10 | Target::Cbf2007 => "cbf",
            Target::Pgn => "pgn",
            Target::Json => "json",
            Target::Xqf => "xqf",
        }
    }
}

/// An output encoding.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EncodingArg {
    /// UTF-8 (no BOM).
    #[value(name = "utf-8")]
    Utf8,
    /// GBK.
    Gbk,
}

/// A PGN move notation.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum NotationArg {
    /// `h2e2`.
    Iccs,
    /// `炮二平五`.
    Chinese,
    /// `C2.5`.
    Wxf,
}

/// The output formats of `validate`, as the command line names them (the runtime's
/// [`OutputFormat`]s).
#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
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

impl From<FormatArg> for OutputFormat {
    fn from(format: FormatArg) -> OutputFormat {
        match format {
            FormatArg::Human => OutputFormat::Human,
            FormatArg::Json => OutputFormat::Json,
            FormatArg::Github => OutputFormat::Github,
            FormatArg::Sarif => OutputFormat::Sarif,
            FormatArg::Junit => OutputFormat::Junit,
        }
    }
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
            deny_warnings,
            exclude,
            allow,
            only,
        } => {
            let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
            let ci = match (
                policy::Exclude::new(&root, &exclude),
                policy::policy(deny_warnings, &allow),
            ) {
                (Ok(exclude), Ok(policy)) => validate::Ci {
                    exclude,
                    policy,
                    only,
                },
                (Err(e), _) | (_, Err(e)) => {
                    error(format_args!("{e}"));
                    return ExitCode::from(2);
                }
            };
            validate::run(
                &paths,
                format.into(),
                // The CLI keeps no document: CIF rules run while reading, in bounded memory.
                Options {
                    max_errors,
                    schema_only,
                    keep_document: false,
                    xml_only,
                },
                &ci,
            )
        }
        Command::Render {
            file,
            game,
            at,
            output,
            format,
        } => render::run(&file, game, at.record, &at.line, at.ply, &output, format),
        Command::Conformance { action } => conformance::run(action),
        Command::Convert { paths, settings } => convert::run(&paths, &settings),
        Command::Show { file, at } => show::run(&file, &at.line, at.record, at.ply),
    }
}

/// A report or result that could not be written to standard output (a full disk, a closed
/// pipe): exit 2 with a message, never a panic and never a silent success.
fn output_failed(e: &std::io::Error) -> ExitCode {
    error(format_args!("cannot write to standard output: {e}"));
    ExitCode::from(2)
}

/// The record of a valid report: a CBF record, or record `n` (1-based) of a players'
/// format (XQF, CBR, PGN: one; a CBL library or a PGN file of several games: many).
fn record_of_report(
    report: &boardxml_formats::validate::Validated,
    n: usize,
) -> Result<boardxml_formats::cbf::Record, String> {
    if let Some(read) = &report.players {
        return match n.checked_sub(1).and_then(|i| read.records.get(i)) {
            Some(t) => Ok(t.record.clone()),
            None => Err(format!(
                "it holds {} record(s); there is no record {n}",
                read.records.len()
            )),
        };
    }
    report
        .document
        .as_ref()
        .and_then(boardxml_formats::cbf::convert::record_of)
        .ok_or_else(|| "it is not a record (CBF, XQF, CBR, CBL or PGN)".to_string())
}

/// Prints `error: MESSAGE` to stderr, made terminal-safe: messages name files and quote
/// values, which anyone may have written.
fn error(message: std::fmt::Arguments<'_>) {
    eprintln!(
        "error: {}",
        boardxml::report::terminal_safe(&message.to_string())
    );
}

/// Prints `warning: MESSAGE` to stderr, made terminal-safe as [`error`] is.
fn warning(message: std::fmt::Arguments<'_>) {
    eprintln!(
        "warning: {}",
        boardxml::report::terminal_safe(&message.to_string())
    );
}

/// Reads and fully validates `file` for a command that needs a valid document: an invalid
/// one is reported on stderr with "nothing WHAT" and exit 1.
fn read_valid(
    file: &std::path::Path,
    what: &str,
) -> Result<boardxml_formats::validate::Validated, ExitCode> {
    use std::io::IsTerminal;
    let report = boardxml_formats::validate::validate_file(file, &Options::default());
    if report.is_valid() {
        return Ok(report);
    }
    let color = boardxml::report::colors(std::io::stderr().is_terminal());
    eprint!(
        "{}",
        boardxml::report::render(&report, OutputFormat::Human, color)
    );
    error(format_args!(
        "{} is not valid; nothing {what}",
        file.display()
    ));
    Err(ExitCode::from(1))
}
