//! `boardxml convert`: validate each input, convert it, write it atomically.

use std::collections::HashMap;

use boardxml_formats::cbf::convert::{self as cv, Loss};
use boardxml_formats::cbf::pgn::{self, Notation};
use boardxml_formats::document::{write_document, Document};
use boardxml_formats::generated::{cbf_1_0, cbf_2007};

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use boardxml::report::{render, OutputFormat};
use boardxml_formats::validate::{Options, Validated as Report, MAX_RECORD};
use rayon::prelude::*;

use crate::files::{collect, Input};
use crate::validate::{batch_exit, read_input};
use crate::{EncodingArg, NotationArg, Target};
use boardxml::report::terminal_safe as safe;
use boardxml::safe_write::{write_file, Batch, Inputs, STDOUT};

/// What the command line asked for. (Notes, with `verbose`, are the losses that are
/// only notes: see `Loss::is_note`.)
#[derive(clap::Args)]
pub struct Settings {
    /// The target.
    #[arg(long, value_enum)]
    pub to: Target,
    /// The output encoding (default: GBK for cbf-2007, UTF-8 otherwise; JSON is UTF-8).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
    /// The move notation of PGN.
    #[arg(long, value_enum, default_value = "iccs")]
    pub notation: NotationArg,
    /// The output file (one input only): `-` for standard output; written as render's
    /// `-o` is. An input is never overwritten.
    #[arg(short = 'o', long = "output", conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// The output folder: each input's stem with the target's extension; a library
    /// (CBL, or PGN of several games) gives one file per record, named from its title.
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Convert a record of XQF, CBR, CBL or PGN that has errors (an illegal move, a
    /// broken tail) as far as it could be read: what follows the problem on its line is
    /// left out, and the loss is reported.
    #[arg(long)]
    pub salvage: bool,
    /// Print notes too: what a player rarely needs, such as a 2007 Type or Result
    /// display label (实战全局) the target has no place for while its code is kept.
    #[arg(long)]
    pub verbose: bool,
}

/// What became of one input.
enum Outcome {
    /// Converted; `report` is the input's when reading it gave warnings: what was read but
    /// not kept (a PGN tag CBF has no field for, text after the result, ...).
    Converted {
        report: Option<Box<Report>>,
        losses: Vec<Loss>,
    },
    /// Salvaged (`--salvage`): converted as far as it could be read; the report says what
    /// was wrong.
    Salvaged {
        report: Box<Report>,
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
    let color = boardxml::report::colors(if report_to_stderr {
        std::io::stderr().is_terminal()
    } else {
        std::io::stdout().is_terminal()
    });
    let mut out = String::new();
    let (mut converted, mut failed, mut io_errors, mut warnings) = (0, 0, 0, 0);
    let mut skipped = 0;
    let mut notes = 0;
    for (input, outcome) in files.iter().zip(&outcomes) {
        let f = input.shown();
        match outcome {
            Outcome::Converted { report, losses } => {
                converted += 1;
                if let Some(report) = report {
                    warnings += read_warnings(report);
                    out.push_str(&render(report, OutputFormat::Human, color));
                }
                let (shown, hidden) = split_notes(losses, s.verbose);
                warnings += shown.iter().filter(|l| !l.is_note()).count();
                notes += hidden;
                for l in shown {
                    let level = if l.is_note() { "note" } else { "warning" };
                    let _ = writeln!(out, "{level}: {}", safe(&format!("{}: {l}", f.display())));
                }
            }
            Outcome::Salvaged { report, losses } => {
                converted += 1;
                warnings += read_warnings(report);
                let (shown, hidden) = split_notes(losses, s.verbose);
                warnings += shown.iter().filter(|l| !l.is_note()).count();
                notes += hidden;
                out.push_str(&render(report, OutputFormat::Human, color));
                for l in shown {
                    let level = if l.is_note() { "note" } else { "warning" };
                    let _ = writeln!(out, "{level}: {}", safe(&format!("{}: {l}", f.display())));
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
        "{} files: {converted} converted to {}, {failed} failed{}{}; {warnings} warnings{} ({:.2} s)",
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
        if notes > 0 {
            format!(", {notes} notes (--verbose shows them)")
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
    // its tree is built, a CIF document is checked in bounded memory (and skipped). A
    // library of players' records is not kept either, whatever its size: it is validated
    // (record by record past MAX_LIBRARY), then read again record by record and each
    // record converted as it is read (`convert_library`).
    let library = match input {
        Input::File { path, .. } => is_library(path).then_some(path.as_path()),
        _ => None,
    };
    let large = match input {
        Input::File { path, .. } => std::fs::metadata(path).is_ok_and(|m| m.len() > MAX_RECORD),
        _ => false,
    };
    let options = Options {
        keep_document: !large && library.is_none(),
        ..Options::default()
    };
    let report = read_input(input, &options);
    if let Some(d) = report
        .diagnostics
        .iter()
        .find(|d| d.code == boardxml::diagnostic::Code::IO)
    {
        return Outcome::Io(d.message.clone());
    }
    if let Some(path) = library {
        return convert_library(report, path, output, s, encoding, inputs);
    }
    if report.players.is_some() {
        return convert_players(report, output, s, encoding, inputs);
    }
    if !report.is_valid() {
        if s.salvage {
            if let Some(outcome) = salvage_cbf(input, report.clone(), output, s, encoding, inputs) {
                return outcome;
            }
        }
        return Outcome::Invalid(Box::new(report));
    }
    let Some(record) = report.document.as_ref().and_then(cv::record_of) else {
        return if named {
            Outcome::Failed("not a CBF record (convert reads CBF)".into())
        } else {
            Outcome::Skipped
        };
    };
    let converted = convert_record(&record, s, encoding);
    match converted {
        Ok((bytes, losses)) => match write_file(output, &bytes, inputs) {
            Ok(()) => Outcome::Converted {
                report: with_warnings(report),
                losses,
            },
            Err(e @ boardxml::safe_write::WriteError::Io(..)) => Outcome::Io(e.to_string()),
            Err(e) => Outcome::Failed(e.to_string()),
        },
        Err(e) => Outcome::Failed(format!("cannot convert: {e}")),
    }
}

/// Whether the file starts as a XiangQi Bridge library (CBL): its first bytes tell.
fn is_library(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::with_capacity(32);
    std::fs::File::open(path)
        .and_then(|f| f.take(32).read_to_end(&mut head))
        .is_ok()
        && boardxml_formats::players::Kind::sniff(&head)
            == Some(boardxml_formats::players::Kind::Cbl)
}

/// The bytes of `record` converted to the target, and what the target cannot hold.
fn convert_record(
    record: &boardxml_formats::cbf::Record,
    s: &Settings,
    encoding: &'static encoding_rs::Encoding,
) -> Result<(Vec<u8>, Vec<Loss>), cv::ConvertError> {
    match s.to {
        Target::Cbf10 => cv::to_cbf_1_0(record).map(|c| {
            let doc = Document::Cbf10(cbf_1_0::Root::ChineseChessRecord(c.output));
            (write_document(&doc, encoding, false), c.losses)
        }),
        Target::Cbf2007 => cv::to_cbf_2007(record).map(|c| {
            let doc = Document::Cbf2007(cbf_2007::Root::ChineseChessRecord(c.output));
            (write_document(&doc, encoding, false), c.losses)
        }),
        Target::Pgn => {
            let notation = match s.notation {
                NotationArg::Iccs => Notation::Iccs,
                NotationArg::Chinese => Notation::Chinese,
                NotationArg::Wxf => Notation::Wxf,
            };
            pgn::to_pgn(record, notation).map(|c| {
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
        Target::Json => cv::to_json(record).map(|c| (c.output.into_bytes(), c.losses)),
        Target::Xqf => boardxml_formats::players::xqf::write(record).map(|c| (c.output, c.losses)),
    }
}

/// A file of a players' format (XQF, CBR, PGN read whole): its record, or (a PGN file of
/// several games) each of its records under a name from its title, made unique, in the
/// output folder.
fn convert_players(
    mut report: Report,
    output: &Path,
    s: &Settings,
    encoding: &'static encoding_rs::Encoding,
    inputs: &Inputs,
) -> Outcome {
    let Some(read) = report.players.take() else {
        return Outcome::Failed("nothing read".into());
    };
    let valid = report.is_valid();
    if !valid && !s.salvage {
        return Outcome::Invalid(Box::new(report));
    }
    if read.records.is_empty() {
        return no_record(report, valid);
    }
    let several = read.records.len() > 1;
    let mut writer = match RecordWriter::new(
        several,
        output,
        s,
        encoding,
        inputs,
        Some(read.records.len()),
    ) {
        Ok(w) => w,
        Err(outcome) => return outcome,
    };
    writer.convert(read.records);
    writer.finish(report, valid)
}

/// A CBL library (validated already: `report`), read again record by record from `path`
/// and each record converted as it is read, a batch at a time: memory bounded by the
/// longest record ([`MAX_RECORD`]) and the batch, whatever the library's size.
fn convert_library(
    report: Report,
    path: &Path,
    output: &Path,
    s: &Settings,
    encoding: &'static encoding_rs::Encoding,
    inputs: &Inputs,
) -> Outcome {
    let valid = report.is_valid();
    if !valid && !s.salvage {
        return Outcome::Invalid(Box::new(report));
    }
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return Outcome::Io(format!("cannot read it again to convert it: {e}")),
    };
    let mut failure = None;
    let mut records = boardxml_formats::players::cbr::LibraryReader::new(file, MAX_RECORD as usize)
        .map_while(|item| match item {
            Ok((record, _)) => Some(record),
            Err(e) => {
                failure = Some(e);
                None
            }
        })
        .flatten()
        .peekable();
    // Two records tell whether it needs an output folder.
    let Some(first) = records.next() else {
        drop(records);
        return match failure {
            Some(e) => Outcome::Io(format!("cannot read it again to convert it: {e}")),
            None => no_record(report, valid),
        };
    };
    let several = records.peek().is_some();
    let mut writer = match RecordWriter::new(several, output, s, encoding, inputs, None) {
        Ok(w) => w,
        Err(outcome) => return outcome,
    };
    let mut batch = vec![first];
    for record in records {
        batch.push(record);
        if batch.len() == LIBRARY_BATCH {
            writer.convert(std::mem::take(&mut batch));
        }
    }
    writer.convert(batch);
    if let Some(e) = failure {
        writer
            .failures
            .push(format!("cannot read it again to convert it: {e}"));
    }
    writer.finish(report, valid)
}

/// How many records of a library are converted at once (in parallel) before the next are
/// read.
const LIBRARY_BATCH: usize = 256;

/// A players' file that holds no record: a failure if it is valid, else its report.
fn no_record(report: Report, valid: bool) -> Outcome {
    if valid {
        Outcome::Failed("no record in it".into())
    } else {
        Outcome::Invalid(Box::new(report))
    }
}

/// Converts the records of one players' file, in file order, and stages their files in
/// one batch: named from their titles, made unique, in the output folder when there are
/// several.
struct RecordWriter<'a> {
    dir: Option<&'a Path>,
    output: &'a Path,
    several: bool,
    s: &'a Settings,
    encoding: &'static encoding_rs::Encoding,
    names: std::collections::HashSet<String>,
    /// Records converted so far.
    done: usize,
    batch: Batch,
    bar: indicatif::ProgressBar,
    losses: Vec<Loss>,
    failures: Vec<String>,
}

impl<'a> RecordWriter<'a> {
    fn new(
        several: bool,
        output: &'a Path,
        s: &'a Settings,
        encoding: &'static encoding_rs::Encoding,
        inputs: &Inputs,
        count: Option<usize>,
    ) -> Result<Self, Outcome> {
        let dir =
            match (several, &s.out_dir) {
                (true, Some(dir)) => Some(dir.as_path()),
                (true, None) => return Err(Outcome::Failed(match count {
                    Some(n) => format!(
                        "it holds {n} records: write them with --out-dir DIR (one file each)"
                    ),
                    None => {
                        "it holds several records: write them with --out-dir DIR (one file each)"
                            .into()
                    }
                })),
                (false, _) => None,
            };
        let bar = indicatif::ProgressBar::with_draw_target(
            count.map(|n| n as u64),
            if several && std::io::stderr().is_terminal() {
                indicatif::ProgressDrawTarget::stderr()
            } else {
                indicatif::ProgressDrawTarget::hidden()
            },
        );
        let template = if count.is_some() {
            "{bar:40} {pos}/{len} records {msg}"
        } else {
            "{spinner} {pos} records {msg}"
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Ok(RecordWriter {
            dir,
            output,
            several,
            s,
            encoding,
            names: std::collections::HashSet::new(),
            done: 0,
            // Written as one batch: one sync for all the files instead of one each.
            batch: Batch::new(inputs),
            bar,
            losses: Vec::new(),
            failures: Vec::new(),
        })
    }

    /// Converts `records` (the next ones of the file) and stages their files: names first,
    /// in order (unique by title); then the records converted in parallel.
    fn convert(&mut self, records: Vec<boardxml_formats::players::Titled>) {
        let first = self.done;
        self.done += records.len();
        let targets: Vec<PathBuf> = records
            .iter()
            .enumerate()
            .map(|(i, titled)| match self.dir {
                Some(dir) => dir.join(unique_name(
                    &titled.title,
                    first + i + 1,
                    self.s.to.extension(),
                    &mut self.names,
                )),
                None => self.output.to_path_buf(),
            })
            .collect();
        let (s, encoding, several, batch, bar) =
            (self.s, self.encoding, self.several, &self.batch, &self.bar);
        let results: Vec<(Vec<Loss>, Option<String>)> = records
            .par_iter()
            .zip(targets.par_iter())
            .enumerate()
            .map(|(i, (titled, target))| {
                let which = if several {
                    format!(
                        "record {} ({}) -> {}: ",
                        first + i + 1,
                        titled.title,
                        target.display()
                    )
                } else {
                    String::new()
                };
                let mut losses = Vec::new();
                if !titled.valid {
                    losses.push(Loss {
                        field: "salvage".into(),
                        message: format!(
                            "{which}converted as far as it could be read: what follows an illegal or unreadable move is left out (see the errors above)"
                        ),
                    });
                }
                let failure = match convert_record(&titled.record, s, encoding) {
                    Ok((bytes, more)) => {
                        losses.extend(more.into_iter().map(|l| Loss {
                            field: l.field,
                            message: format!("{which}{}", l.message),
                        }));
                        batch
                            .write_file(target, &bytes)
                            .err()
                            .map(|e| format!("{which}{e}"))
                    }
                    Err(e) => Some(format!("{which}cannot convert: {e}")),
                };
                bar.inc(1);
                (losses, failure)
            })
            .collect();
        for (l, f) in results {
            self.losses.extend(l);
            self.failures.extend(f);
        }
    }

    /// Commits the batch; the outcome of the file.
    fn finish(mut self, report: Report, valid: bool) -> Outcome {
        self.failures
            .extend(self.batch.commit().into_iter().map(|e| e.to_string()));
        self.bar.finish_and_clear();
        if !self.failures.is_empty() {
            return Outcome::Failed(self.failures.join("; "));
        }
        if valid {
            Outcome::Converted {
                report: with_warnings(report),
                losses: self.losses,
            }
        } else {
            Outcome::Salvaged {
                report: Box::new(report),
                losses: self.losses,
            }
        }
    }
}

/// The report of a valid input when reading it gave warnings (printed with the conversion's
/// losses: what the reader could not keep is as much a loss as what the target cannot hold).
fn with_warnings(mut report: Report) -> Option<Box<Report>> {
    report.document = None;
    report.players = None;
    (!report.diagnostics.is_empty() || report.omitted_warnings > 0).then(|| Box::new(report))
}

/// The warnings of an input's report, those it left out included.
fn read_warnings(report: &Report) -> usize {
    report
        .diagnostics
        .iter()
        .filter(|d| d.severity == boardxml::diagnostic::Severity::Warning)
        .count()
        + report.omitted_warnings
}

/// The losses to print (notes only with `--verbose`) and how many notes were held back.
fn split_notes(losses: &[Loss], verbose: bool) -> (Vec<&Loss>, usize) {
    let shown: Vec<&Loss> = losses.iter().filter(|l| verbose || !l.is_note()).collect();
    let hidden = losses.len() - shown.len();
    (shown, hidden)
}

/// `--salvage` for a CBF record that is schema-valid but breaks the rules (an illegal
/// move): converted up to the move before each illegal one, the loss reported. `None`
/// when there is nothing to salvage (not schema-valid, not a CBF record, no file).
fn salvage_cbf(
    input: &Input,
    report: Report,
    output: &Path,
    s: &Settings,
    encoding: &'static encoding_rs::Encoding,
    inputs: &Inputs,
) -> Option<Outcome> {
    let Input::File { path, .. } = input else {
        return None;
    };
    // Only rule problems can be salvaged: the schema layer's mean the record was not read.
    if report.diagnostics.iter().any(|d| {
        d.severity == boardxml::diagnostic::Severity::Error && !d.code.as_str().starts_with("E03")
    }) {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let document = boardxml_formats::validate::schema_valid_document(&bytes)?;
    let record = cv::record_of(&document)?;
    let (salvaged, lost) = boardxml_formats::players::salvage(&record);
    let mut losses = vec![Loss {
        field: "salvage".into(),
        message: format!(
            "converted as far as it is legal: {lost} of {} moves left out (an illegal move and what follows it on its line; see the errors above)",
            record.moves.len()
        ),
    }];
    Some(match convert_record(&salvaged, s, encoding) {
        Ok((bytes, more)) => match write_file(output, &bytes, inputs) {
            Ok(()) => {
                losses.extend(more);
                Outcome::Salvaged {
                    report: Box::new(report),
                    losses,
                }
            }
            Err(e) => Outcome::Failed(e.to_string()),
        },
        Err(e) => Outcome::Failed(format!("cannot convert: {e}")),
    })
}

/// A file name from a record's title: path separators, controls and leading dots taken
/// out, at most 80 characters, `record-N` when nothing is left, `-2`, `-3`... when taken.
fn unique_name(
    title: &str,
    n: usize,
    extension: &str,
    taken: &mut std::collections::HashSet<String>,
) -> String {
    let cleaned: String = title
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') {
                '_'
            } else {
                c
            }
        })
        .take(80)
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').trim().to_string();
    let base = if cleaned.is_empty() {
        format!("record-{n}")
    } else {
        cleaned
    };
    let mut name = base.clone();
    let mut k = 1;
    while !taken.insert(name.to_lowercase()) {
        k += 1;
        name = format!("{base}-{k}");
    }
    format!("{name}.{extension}")
}

impl Target {
    fn name(self) -> &'static str {
        match self {
            Target::Cbf10 => "cbf-1.0",
            Target::Cbf2007 => "cbf-2007",
            Target::Pgn => "pgn",
            Target::Json => "json",
            Target::Xqf => "xqf",
        }
    }
}
