//! `boardxml convert`: validate each input, convert it, write it atomically.

use std::collections::HashMap;

use boardxml::cbf::convert::{self as cv, Loss};
use boardxml::cbf::pgn::{self, Notation};
use boardxml::document::{write_document, Document};
use boardxml::generated::{cbf_1_0, cbf_2007};

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use boardxml::report::{render, OutputFormat};
use boardxml::validate::{Options, Report, MAX_RECORD};
use rayon::prelude::*;

use crate::files::{collect, Input};
use crate::validate::{batch_exit, read_input};
use crate::{EncodingArg, NotationArg, Target};
use boardxml::report::terminal_safe as safe;
use boardxml::safe_write::{write_file, Inputs, STDOUT};

/// What the command line asked for.
pub struct Settings {
    pub to: Target,
    pub encoding: Option<EncodingArg>,
    pub notation: NotationArg,
    pub output: Option<PathBuf>,
    pub out_dir: Option<PathBuf>,
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
    crate::error(format_args!("{message}"));
    ExitCode::from(2)
}

pub fn run(paths: &[PathBuf], s: &Settings) -> ExitCode {
    if s.output.is_none() && s.out_dir.is_none() {
        return usage("say where to write: -o FILE (one input) or --out-dir DIR");
    }
    if s.to == Target::Json && s.encoding == Some(EncodingArg::Gbk) {
        return usage("JSON is always UTF-8 (RFC 8259); --encoding gbk does not apply");
    }
    let collected = collect(paths);
    collected.print_skipped();
    let files = &collected.inputs;
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
    if s.out_dir.is_some() && files.iter().any(|f| matches!(f, Input::Stdin)) {
        return usage("standard input (-) has no name to write under: use -o FILE");
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
    let mut inputs = Inputs::new();
    for f in files {
        if let Input::File { path, .. } = f {
            inputs.add(path);
        }
    }
    // Plan every output first: two inputs with one stem in different folders would
    // write one file twice.
    let mut claimed: HashMap<PathBuf, &Path> = HashMap::new();
    let plan: Vec<Result<PathBuf, String>> = files
        .iter()
        .map(|input| {
            let f = input.shown();
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
            if inputs.contains(&out) {
                return Err(format!(
                    "its output {} is an input; inputs are never overwritten",
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
    let outcomes: Vec<Outcome> = files
        .par_iter()
        .zip(plan.par_iter())
        .map(|(f, out)| {
            let o = match out {
                Ok(out) => convert_one(f, out, s, encoding, &inputs),
                Err(e) => Outcome::Failed(e.clone()),
            };
            bar.inc(1);
            o
        })
        .collect();
    bar.finish_and_clear();

    // With `-o -` the converted record is standard output: the report goes to stderr.
    let report_to_stderr = s.output.as_deref() == Some(Path::new(STDOUT));
    let color = if report_to_stderr {
        std::io::stderr().is_terminal()
    } else {
        std::io::stdout().is_terminal()
    } && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut out = String::new();
    let (mut converted, mut failed, mut io_errors, mut warnings) = (0, 0, 0, 0);
    let mut skipped = 0;
    for (input, outcome) in files.iter().zip(&outcomes) {
        let f = input.shown();
        match outcome {
            Outcome::Converted { losses } => {
                converted += 1;
                warnings += losses.len();
                for l in losses {
                    let _ = writeln!(out, "warning: {}", safe(&format!("{}: {l}", f.display())));
                }
            }
            Outcome::Invalid(report) => {
                failed += 1;
                out.push_str(&render(report, OutputFormat::Human, color));
                let _ = writeln!(
                    out,
                    "error: {} is not valid; not converted",
                    safe(&f.display().to_string())
                );
            }
            Outcome::Failed(e) => {
                failed += 1;
                let _ = writeln!(out, "error: {}", safe(&format!("{}: {e}", f.display())));
            }
            Outcome::Io(e) => {
                io_errors += 1;
                let _ = writeln!(out, "error: {}", safe(&format!("{}: {e}", f.display())));
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
    let written = if report_to_stderr {
        std::io::stderr().lock().write_all(out.as_bytes())
    } else {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(out.as_bytes())
            .and_then(|()| stdout.flush())
    };
    if let Err(e) = written {
        return crate::output_failed(&e);
    }
    batch_exit(io_errors, failed)
}

fn convert_one(
    input: &Input,
    output: &Path,
    s: &Settings,
    encoding: &'static encoding_rs::Encoding,
    inputs: &Inputs,
) -> Outcome {
    let named = match input {
        Input::File { named, .. } => *named,
        Input::Stdin => true,
        Input::Unreadable { error, .. } => return Outcome::Io(error.clone()),
    };
    // A file too large to be a record is not kept: a CBF record is refused (E0106) before
    // its tree is built, a CIF document is checked in bounded memory (and skipped).
    let large = match input {
        Input::File { path, .. } => std::fs::metadata(path).is_ok_and(|m| m.len() > MAX_RECORD),
        _ => false,
    };
    let options = Options {
        keep_document: !large,
        ..Options::default()
    };
    let report = read_input(input, &options);
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
        Ok((bytes, losses)) => match write_file(output, &bytes, inputs) {
            Ok(()) => Outcome::Converted { losses },
            Err(e @ boardxml::safe_write::WriteError::Io(..)) => Outcome::Io(e.to_string()),
            Err(e) => Outcome::Failed(e.to_string()),
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
