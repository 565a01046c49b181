//! Validating one file of the board formats: tell its format from its first bytes (a
//! players' binary or PGN format by its magic or text) or its root element (not the file
//! extension: `.cbf` is also an old ChessBase extension), read it with the generated types
//! while the format's rules ([`crate::rules::Rules`]) watch each element, and place every
//! diagnostic at its line and column, through the runtime's pipeline
//! ([`boardxml::validate`]). What this adds: the format detection, the limits of records
//! kept whole, the players' formats, and the dialect names of CBF's diagnostics.

use std::io::Read;
use std::ops::{Deref, DerefMut};
use std::path::Path;

use boardxml::complex::Complex;
use boardxml::diagnostic::{Code, Diagnostic};
use boardxml::encoding::DecodeReader;
pub use boardxml::validate::Options;
use boardxml::validate::{
    finish, read_source, with_file, with_reader, BytesSource, Limit, Purpose, Report, Source,
};
use boardxml::xml::Reader;

use crate::codes;
use crate::document::{Document, Format};

/// The outcome for one file: the runtime's [`Report`] (through which its fields are
/// read: `validated.diagnostics`), the format it was told to be, and what was kept of it.
#[derive(Debug, Clone)]
pub struct Validated {
    /// The diagnostics, placed, and how the file was stored.
    pub report: Report,
    /// The format detected, if the first bytes or the root element told it.
    pub format: Option<Format>,
    /// The document, if it is valid and was kept.
    pub document: Option<Document>,
    /// A players' format (XQF, CBR, CBL, PGN): its records as read (each as far as it
    /// could be read, for `convert --salvage`), kept only with `keep_document`.
    pub players: Option<Box<crate::players::Read>>,
}

impl Validated {
    /// The outcome of `report`, of the format `format`, nothing kept.
    fn of(report: Report, format: Option<Format>) -> Validated {
        let mut report = report;
        report.format = format.map(Format::name);
        Validated {
            report,
            format,
            document: None,
            players: None,
        }
    }
}

impl From<Report> for Validated {
    fn from(report: Report) -> Validated {
        Validated::of(report, None)
    }
}

impl Deref for Validated {
    type Target = Report;
    fn deref(&self) -> &Report {
        &self.report
    }
}

impl DerefMut for Validated {
    fn deref_mut(&mut self) -> &mut Report {
        &mut self.report
    }
}

/// The largest CBF record read (in bytes of the file): its rules, and `convert`, need its
/// whole tree in memory (about 30 times the record's size for convert, 4 times for
/// validate: 500 MB and 75 MB at this size). A record is a few KB; one over this is
/// refused with a limit error (E0106) before its tree is built. `schema_only` reads any
/// size in bounded memory. The runtime's limit on a document read whole.
pub const MAX_RECORD: u64 = boardxml::validate::MAX_WHOLE;

/// The largest file of a players' format read whole: a library holds thousands of records
/// of 4 KiB; a single record or a PGN file is refused past [`MAX_RECORD`]. A larger
/// library is read record by record where its records need not be kept (`validate`, and
/// `convert`, which reads it again the same way to convert it): see
/// [`crate::players::cbr::LibraryReader`].
pub const MAX_LIBRARY: u64 = 1 << 30;

/// Reads and validates the file at `path`, streaming it. A path that is not a regular
/// file (a FIFO, a device, `/dev/stdin`) is read once, as [`validate_reader`] reads.
pub fn validate_file(path: &Path, options: &Options) -> Validated {
    with_file(path, Validated::from, |source| {
        validate_source(path, source, options)
    })
}

/// Validates what `input` gives (standard input, a pipe, a device); `name` names it. Read
/// once, as the runtime's [`with_reader`] reads.
pub fn validate_reader(name: &Path, input: impl Read, options: &Options) -> Validated {
    with_reader(name, input, Validated::from, |source| {
        validate_source(name, source, options)
    })
}

/// Validates a document given as bytes; `path` names it.
pub fn validate_bytes(path: &Path, bytes: &[u8], options: &Options) -> Validated {
    validate_source(path, &BytesSource(bytes), options)
}

/// [`validate_bytes`] through the streaming path that files over 2 MiB take (for tests:
/// the two paths must report the same).
#[doc(hidden)]
pub fn validate_bytes_streamed(path: &Path, bytes: &[u8], options: &Options) -> Validated {
    validate_source(path, &boardxml::validate::streamed(bytes), options)
}

fn record_too_large(size: Option<u64>) -> String {
    let size = size.map_or(String::new(), |s| format!(" ({s} bytes)"));
    format!(
        "a CBF record larger than {} MiB{size}: its rules and convert keep the whole record in memory",
        MAX_RECORD >> 20
    )
}

/// The limit on a CBF record streamed: its tree is kept whole.
const RECORD_LIMIT: Limit = Limit {
    bytes: MAX_RECORD,
    message: || record_too_large(None),
};

/// A CBF record over [`MAX_RECORD`], refused before it is read.
fn record_refused(path: &Path, format: Format, size: u64) -> Validated {
    Validated::of(
        Report::refused(
            path,
            record_too_large(Some(size)),
            format!(
                "a record of at most {} MiB (--schema-only checks the schema alone, in bounded memory)",
                MAX_RECORD >> 20
            ),
        ),
        Some(format),
    )
}

/// A players' file over its limit ([`MAX_LIBRARY`] for a CBL, [`MAX_RECORD`] for the
/// others), refused before it is read: the message names the format and its limit.
fn players_refused(path: &Path, format: Format, size: u64) -> Validated {
    if format != Format::Cbl {
        return record_refused(path, format, size);
    }
    Validated::of(
        Report::refused(
            path,
            format!(
                "a CBL library larger than {} MiB ({size} bytes): show reads a library whole (validate and convert read it record by record)",
                MAX_LIBRARY >> 20
            ),
            format!("a library of at most {} MiB", MAX_LIBRARY >> 20),
        ),
        Some(format),
    )
}

/// The format of a players' file.
fn players_format(kind: crate::players::Kind) -> Format {
    use crate::players::Kind;
    match kind {
        Kind::Xqf => Format::Xqf,
        Kind::Cbr => Format::Cbr,
        Kind::Cbl => Format::Cbl,
        Kind::Pgn => Format::Pgn,
    }
}

/// How much of a file [`detect_format`] reads: a root element's start tag after a
/// prolog of comments and white space fits in it.
const DETECT_LIMIT: u64 = 64 << 10;

/// The format of the file at `path` as [`validate_file`] would tell it, from its first
/// bytes alone (at most 64 KiB): a players' format by its magic or text, CIF or a CBF
/// dialect by the root element; `None` for anything else (another XML vocabulary, text
/// that is not XML, a root not within the first 64 KiB). What `validate --only` filters on.
pub fn detect_format(path: &Path) -> std::io::Result<Option<Format>> {
    let mut head = Vec::new();
    std::fs::File::open(path)?
        .take(DETECT_LIMIT)
        .read_to_end(&mut head)?;
    if let Some(kind) = crate::players::Kind::sniff(&head) {
        return Ok(Some(players_format(kind)));
    }
    Ok(sniff_root(&head).flatten())
}

/// The root element of `head`: `None` if `head` does not get that far, else the format it
/// announces (`None` for a root that is neither).
fn sniff_root(head: &[u8]) -> Option<Option<Format>> {
    /// Reads the root's start tag and stops.
    struct RootOnly;
    impl boardxml::schema::Document for RootOnly {
        const ROOTS: &'static [&'static str] = &["cif", "ChineseChessRecord"];
        fn read_root(
            r: &mut Reader<'_>,
            _tag: &boardxml::xml::Tag,
        ) -> Result<Self, boardxml::schema::Invalid> {
            // A fatal diagnostic ends reading; it is not reported anywhere.
            r.report(Diagnostic::error(Code::LIMIT, 0, "", String::new()));
            Err(boardxml::schema::Invalid)
        }
        fn write_root(&self, _w: &mut boardxml::xml::Writer) {}
    }
    let decoder = DecodeReader::new(head).ok()?;
    let mut reader = Reader::from_reader(decoder).without_retaining();
    let _ = reader.read_document::<RootOnly>();
    reader.root().map(Format::of_root)
}

fn validate_source(path: &Path, source: &dyn Source, options: &Options) -> Validated {
    // In memory (a file up to 2 MiB, read once: the source keeps it), or streamed.
    let whole = source.whole();
    // The players' formats are told by their first bytes (what is in memory already, else
    // the head of the stream).
    if !options.xml_only {
        let kind = match &whole {
            Some(bytes) => crate::players::Kind::sniff(bytes),
            None => source.head().and_then(|h| crate::players::Kind::sniff(&h)),
        };
        if let Some(kind) = kind {
            return validate_players(path, source, kind, options, whole.as_deref());
        }
    }
    // A CBF record is kept whole: bound it before its tree is built, if it is streamed. (A
    // stream whose first bytes show no root is bounded too, in case it is one.)
    let root = match whole.is_some() || options.schema_only || options.xml_only {
        true => Some(None),
        false => source.head().and_then(|h| sniff_root(&h)),
    };
    let limit = match root {
        Some(Some(format @ (Format::Cbf2007 | Format::Cbf10))) => {
            if let Some(size) = source.size().filter(|&s| s > MAX_RECORD) {
                return record_refused(path, format, size);
            }
            Some(RECORD_LIMIT)
        }
        Some(_) => None,
        None => Some(RECORD_LIMIT),
    };
    let purpose = if options.xml_only {
        Purpose::WellFormed
    } else if options.schema_only || !options.keep_document {
        // Values hold no repeated children: memory stays bounded (a CBF record, whose rules
        // need its tree, is kept while its rules watch: see `Document::read_root`).
        Purpose::Validate
    } else {
        Purpose::Keep
    };
    let observer: Option<Box<dyn boardxml::xml::Observer>> = (!options.schema_only
        && !options.xml_only)
        .then(|| Box::new(crate::rules::Rules::default()) as _);
    let reading = match read_source::<Document>(path, source, options, purpose, observer, limit) {
        Ok(reading) => reading,
        Err(report) => return Validated::from(report),
    };
    let format = if options.xml_only {
        None
    } else {
        reading.root.as_ref().and_then(Format::of_root)
    };
    let mut diagnostics = reading.diagnostics;
    if !options.xml_only {
        for d in diagnostics
            .iter_mut()
            .filter(|d| d.code == Code::UNKNOWN_ROOT)
        {
            d.expected = Some("<cif> or <ChineseChessRecord>".into());
        }
    }
    if let Some(format @ (Format::Cbf2007 | Format::Cbf10)) = format {
        name_dialect_mix(format, &mut diagnostics);
    }
    let report = finish(
        path,
        source,
        None,
        diagnostics,
        reading.encoding,
        reading.omitted,
    );
    let mut validated = Validated::of(report, format);
    if options.keep_document && !options.schema_only && validated.is_valid() {
        validated.document = reading.document;
    }
    validated
}

/// The names of `T`'s element or attribute fields that `U` has no field of.
fn only_in<T: Complex, U: Complex>(attributes: bool) -> Vec<&'static str> {
    T::FIELDS
        .iter()
        .filter(|f| f.is_attribute() == attributes && !f.xml.is_empty())
        .filter(|f| U::field_index(f.xml).is_none())
        .map(|f| f.xml)
        .collect()
}

/// A record that uses the other dialect's fields is a mix of the two (E0301), which says
/// more than "unknown attribute" or "unexpected element": the schema layer's diagnostic is
/// renamed, keeping its position.
fn name_dialect_mix(format: Format, diagnostics: &mut [Diagnostic]) {
    use crate::generated::{cbf_1_0 as v1_0, cbf_2007 as v2007};
    if diagnostics.is_empty() {
        return;
    }
    // Read from the two schemas' field tables: what one dialect's Head and Move have and
    // the other's lack.
    let (other_head, other_move, this, other) = match format {
        Format::Cbf2007 => (
            only_in::<v1_0::Head, v2007::Head>(false),
            only_in::<v1_0::Move, v2007::Move>(true),
            "the 2007 dialect (no Version attribute)",
            "1.0",
        ),
        _ => (
            only_in::<v2007::Head, v1_0::Head>(false),
            only_in::<v2007::Move, v1_0::Move>(true),
            "the 1.0 dialect (Version=\"1.0\")",
            "2007",
        ),
    };
    for d in diagnostics.iter_mut() {
        let last = d.path.rsplit('/').next().unwrap_or("");
        let name = last.split('[').next().unwrap_or("");
        let parent_is = |p: &str| {
            d.path
                .rsplit('/')
                .nth(1)
                .is_some_and(|s| s.split('[').next() == Some(p))
        };
        let what = match d.code {
            Code::UNKNOWN_ATTRIBUTE
                if parent_is("Move") && other_move.contains(&name.trim_start_matches('@')) =>
            {
                format!("attribute {} of <Move>", name.trim_start_matches('@'))
            }
            Code::UNEXPECTED_ELEMENT if parent_is("Head") && other_head.contains(&name) => {
                format!("<{name}> in the head")
            }
            _ => continue,
        };
        d.code = codes::DIALECT_MIX;
        d.message = format!("{what} belongs to the {other} dialect, but this record is {this}");
    }
}

/// Validates a file of a players' format (told by its first bytes): read whole, every
/// record checked as it is read.
fn validate_players(
    path: &Path,
    source: &dyn Source,
    kind: crate::players::Kind,
    options: &Options,
    whole: Option<&[u8]>,
) -> Validated {
    use crate::players::Kind;
    let format = players_format(kind);
    let limit = if kind == Kind::Cbl {
        MAX_LIBRARY
    } else {
        MAX_RECORD
    };
    if let Some(size) = source.size().filter(|&s| s > limit) {
        if kind == Kind::Cbl && !options.keep_document {
            return validate_library_stream(path, source);
        }
        return players_refused(path, format, size);
    }
    let mut owned = Vec::new();
    let bytes: &[u8] = match whole {
        Some(bytes) => bytes,
        None => {
            let read = source
                .open()
                .and_then(|r| r.take(limit + 1).read_to_end(&mut owned));
            if let Err(e) = read {
                return Report::io_error(path, format!("cannot read {}: {e}", path.display()))
                    .into();
            }
            &owned
        }
    };
    if bytes.len() as u64 > limit {
        return players_refused(path, format, bytes.len() as u64);
    }
    let mut read = crate::players::read(kind, bytes);
    let diagnostics = std::mem::take(&mut read.diagnostics);
    let mut report = Report::of_diagnostics(path, read.encoding, diagnostics.into_iter());
    if let Some(text) = &read.text {
        let wanted: std::collections::BTreeSet<usize> = report
            .diagnostics
            .iter()
            .map(|d| d.line as usize)
            .filter(|&l| l > 0)
            .collect();
        for (i, line) in text.lines().enumerate() {
            if wanted.contains(&(i + 1)) {
                report.source_lines.insert(i + 1, line.to_string());
            }
        }
    }
    let mut validated = Validated::of(report, Some(format));
    validated.players = options.keep_document.then(|| Box::new(read));
    validated
}

/// Validates a CBL library larger than [`MAX_LIBRARY`] record by record
/// ([`crate::players::cbr::LibraryReader`]): memory bounded by its longest record
/// ([`MAX_RECORD`]), its records not kept.
fn validate_library_stream(path: &Path, source: &dyn Source) -> Validated {
    let cannot =
        |e: std::io::Error| Report::io_error(path, format!("cannot read {}: {e}", path.display()));
    let input = match source.open() {
        Ok(input) => input,
        Err(e) => return cannot(e).into(),
    };
    let mut failed = None;
    let diagnostics = crate::players::cbr::LibraryReader::new(input, MAX_RECORD as usize)
        .map_while(|item| match item {
            Ok((_, found)) => Some(found),
            Err(e) => {
                failed = Some(e);
                None
            }
        })
        .flatten();
    let report = Report::of_diagnostics(path, encoding_rs::UTF_16LE, diagnostics);
    match failed {
        Some(e) => cannot(e).into(),
        None => Validated::of(report, Some(Format::Cbl)),
    }
}

/// The document of `bytes` if it is schema-valid, whatever its format rules say (for
/// `convert --salvage`, which converts a record as far as its moves are legal). `None`
/// for bytes that are not a schema-valid document.
pub fn schema_valid_document(bytes: &[u8]) -> Option<Document> {
    let (text, _, _) = boardxml::encoding::decode_borrowing(bytes).ok()?;
    let mut reader = Reader::new(&text);
    let document = reader.read_document::<Document>().ok()?;
    let diagnostics = reader.into_diagnostics();
    (!diagnostics
        .iter()
        .any(|d| d.severity == boardxml::diagnostic::Severity::Error))
    .then_some(document)
}
