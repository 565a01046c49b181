//! Validating one document: decode as it is read, tell the format from the root element
//! (not the file extension: `.cbf` is also an old ChessBase extension), read it with the
//! generated types, the format's rules watching each element as it is read, and place every
//! diagnostic at its line and column.
//!
//! Files are streamed: reading holds the nesting path and the current event, not the file.
//! Every finding, of the schema or of the rules, carries its byte offset: the source is read
//! once more only when there is something to place (line and column, and the source line
//! for excerpts), in one pass.

use crate::codes;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use crate::complex::Complex;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::document::{Document, Format};
use crate::encoding::DecodeReader;
use crate::xml::Reader;

/// How to validate.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Stop reading a document after this many errors.
    pub max_errors: usize,
    /// Only the schema layer: the format rules do not run, and the document is not kept
    /// (memory stays bounded whatever the file's size).
    pub schema_only: bool,
    /// Keep the document for the caller (`Report.document`). Off, a CIF document is checked
    /// by its rules while it is read and never kept whole, so full validation runs in
    /// bounded memory too; CBF records (small, and their rules need the whole tree) are
    /// kept until checked, then dropped, so a batch's reports hold no documents.
    pub keep_document: bool,
    /// Well-formedness alone (XML 1.0 5th edition and Namespaces 1.0, with the same limits
    /// and the same refusal of DTDs): no schema, no format rules; every finding is an
    /// E01xx. Any root element will do.
    pub xml_only: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_errors: 100,
            schema_only: false,
            keep_document: true,
            xml_only: false,
        }
    }
}

/// The outcome for one document.
#[derive(Debug, Clone)]
pub struct Report {
    /// The file.
    pub path: PathBuf,
    /// The format detected, if the root element told it.
    pub format: Option<Format>,
    /// What was found, in document order, each placed at its line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// The document, if it is valid and was kept.
    pub document: Option<Document>,
    /// The encoding the document was in.
    pub encoding: &'static encoding_rs::Encoding,
    /// Whether the file started with a byte order mark.
    pub bom: bool,
    /// The source lines the diagnostics point into, by 1-based line number (for excerpts).
    pub source_lines: BTreeMap<usize, String>,
    /// Errors found past the [`MAX_KEPT`] diagnostics kept, counted only.
    pub omitted_errors: usize,
    /// Warnings found past the [`MAX_KEPT`] diagnostics kept, counted only.
    pub omitted_warnings: usize,
    /// A players' format (XQF, CBR, CBL, PGN): its records as read (each as far as it
    /// could be read, for `convert --salvage`), kept only with `keep_document`.
    pub players: Option<Box<crate::players::Read>>,
}

impl Report {
    /// Whether the document has no errors (warnings allowed).
    pub fn is_valid(&self) -> bool {
        !self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// Line and column of a diagnostic (0, 0 where it has none, as for bad bytes).
    pub fn line_column(&self, d: &Diagnostic) -> (usize, usize) {
        (d.line as usize, d.column as usize)
    }

    fn failed(path: &Path, d: Diagnostic) -> Report {
        Report {
            path: path.to_owned(),
            format: None,
            diagnostics: vec![d],
            document: None,
            encoding: encoding_rs::UTF_8,
            bom: false,
            source_lines: BTreeMap::new(),
            omitted_errors: 0,
            omitted_warnings: 0,
            players: None,
        }
    }

    /// The report of a path that could not be read at all (E0001).
    pub fn io_error(path: &Path, message: String) -> Report {
        Report::failed(path, Diagnostic::error(Code::IO, 0, "", message))
    }
}

/// At most this many diagnostics are kept per document (in document order); the rest are
/// counted in [`Report::omitted_errors`] and [`Report::omitted_warnings`], so memory stays
/// bounded whatever `max_errors` says.
pub const MAX_KEPT: usize = 1000;

/// The largest CBF record read (in bytes of the file): its rules, and `convert`, need its
/// whole tree in memory (about 30 times the record's size for convert, 4 times for
/// validate: 500 MB and 75 MB at this size). A record is a few KB; one over this is
/// refused with a limit error (E0106) before its tree is built. `schema_only` reads any
/// size in bounded memory.
pub const MAX_RECORD: u64 = 16 << 20;

/// Where a document's bytes come from; opened again for the passes after reading.
trait Source {
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>>;
    /// The whole document in memory, if it is there already or small enough to read whole
    /// (`None`: stream it).
    fn whole(&self) -> Option<Cow<'_, [u8]>>;
    /// The size, where it is known before reading.
    fn len(&self) -> Option<u64>;
    /// The first bytes (up to `WHOLE_FILE_LIMIT`), to tell the format before streaming.
    fn head(&self) -> Option<Cow<'_, [u8]>>;
}

/// Files up to this size are read whole and parsed in place, which skips the streaming
/// decoder and size guard and the copy of every event (most records are a few KB); larger
/// ones stream, so memory stays bounded whatever the size. UTF-8 is read where it lies;
/// other encodings are decoded into a copy, up to three times this size (GBK to UTF-8).
const WHOLE_FILE_LIMIT: u64 = 2 << 20;

/// A regular file, of the size its metadata told.
struct FileSource<'p>(&'p Path, u64);

impl Source for FileSource<'_> {
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(std::fs::File::open(self.0)?))
    }

    fn len(&self) -> Option<u64> {
        Some(self.1)
    }

    fn head(&self) -> Option<Cow<'_, [u8]>> {
        let mut head = Vec::new();
        std::fs::File::open(self.0)
            .ok()?
            .take(WHOLE_FILE_LIMIT)
            .read_to_end(&mut head)
            .ok()?;
        Some(Cow::Owned(head))
    }

    fn whole(&self) -> Option<Cow<'_, [u8]>> {
        if self.1 > WHOLE_FILE_LIMIT {
            return None;
        }
        let mut file = std::fs::File::open(self.0).ok()?;
        let metadata = file.metadata().ok()?;
        // Only regular files: what a pipe gives cannot be read again if it turns out large.
        if !metadata.is_file() || metadata.len() > WHOLE_FILE_LIMIT {
            return None;
        }
        let size = metadata.len();
        // One byte more than announced: a file that grew meanwhile is streamed instead.
        let mut bytes = Vec::with_capacity(size as usize + 1);
        (&mut file)
            .take(WHOLE_FILE_LIMIT + 1)
            .read_to_end(&mut bytes)
            .ok()?;
        (bytes.len() as u64 <= WHOLE_FILE_LIMIT).then_some(Cow::Owned(bytes))
    }
}

struct BytesSource<'b>(&'b [u8]);

impl Source for BytesSource<'_> {
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self.0))
    }

    fn whole(&self) -> Option<Cow<'_, [u8]>> {
        Some(Cow::Borrowed(self.0))
    }

    fn len(&self) -> Option<u64> {
        Some(self.0.len() as u64)
    }

    fn head(&self) -> Option<Cow<'_, [u8]>> {
        Some(Cow::Borrowed(self.0))
    }
}

/// Reads and validates the file at `path`, streaming it. A path that is not a regular
/// file (a FIFO, a device, `/dev/stdin`) is read once, as [`validate_reader`] reads.
pub fn validate_file(path: &Path, options: &Options) -> Report {
    let cannot =
        |e: std::io::Error| Report::io_error(path, format!("cannot read {}: {e}", path.display()));
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => validate_source(path, &FileSource(path, m.len()), options),
        Ok(m) if m.is_dir() => cannot(std::io::Error::other("a folder, not a file")),
        Ok(_) => match std::fs::File::open(path) {
            Ok(f) => validate_reader(path, f, options),
            Err(e) => cannot(e),
        },
        Err(e) => cannot(e),
    }
}

/// Validates what `input` gives (standard input, a pipe, a device); `name` names it.
///
/// It is read once, with the limits of any stream: up to 2 MiB are read whole and
/// validated in place, as a file; more streams through the decoder, and what was read is
/// kept in an unlinked temporary file so that diagnostics get their lines, columns and
/// excerpts as for a file. Reading stops at the first fatal error, so an endless input of
/// NULs (`/dev/zero`) costs a few kilobytes.
pub fn validate_reader(name: &Path, mut input: impl Read, options: &Options) -> Report {
    let mut head = Vec::new();
    if let Err(e) = (&mut input)
        .take(WHOLE_FILE_LIMIT + 1)
        .read_to_end(&mut head)
    {
        return Report::io_error(name, format!("cannot read {}: {e}", name.display()));
    }
    if head.len() as u64 <= WHOLE_FILE_LIMIT {
        return validate_source(name, &BytesSource(&head), options);
    }
    let source = StreamSource {
        head,
        rest: std::cell::RefCell::new(Some(Box::new(input))),
        spool: Spool::new(),
    };
    validate_source(name, &source, options)
}

/// A stream larger than `WHOLE_FILE_LIMIT`: its first bytes, then the rest, copied into
/// the spool as it is read the first time; opened again, it is the first bytes and the
/// spool.
struct StreamSource<'r> {
    head: Vec<u8>,
    rest: std::cell::RefCell<Option<Box<dyn Read + 'r>>>,
    spool: Option<Spool>,
}

/// An unlinked temporary file holding what was read of a stream; `complete` goes false if
/// a write failed (the later passes then do not place what they cannot see).
struct Spool {
    file: std::fs::File,
    complete: std::cell::Cell<bool>,
}

impl Spool {
    fn new() -> Option<Spool> {
        // An anonymous file (O_TMPFILE where there is one, else created exclusively under a
        // random name and unlinked at once, by the tempfile crate): nothing to plant, nothing
        // left behind.
        tempfile::tempfile().ok().map(|file| Spool {
            file,
            complete: std::cell::Cell::new(true),
        })
    }
}

/// Copies what passes into the spool.
struct Tee<'s, R> {
    inner: R,
    spool: Option<(&'s Spool, std::fs::File)>,
}

impl<R: Read> Read for Tee<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::io::Write;
        let n = self.inner.read(buf)?;
        if let Some((spool, file)) = &mut self.spool {
            if file.write_all(&buf[..n]).is_err() {
                spool.complete.set(false);
                self.spool = None;
            }
        }
        Ok(n)
    }
}

impl Source for StreamSource<'_> {
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>> {
        use std::io::Seek;
        let head = std::io::Cursor::new(&self.head[..]);
        if let Some(rest) = self.rest.borrow_mut().take() {
            let spool = self
                .spool
                .as_ref()
                .and_then(|s| Some((s, s.file.try_clone().ok()?)));
            if spool.is_none() {
                if let Some(s) = &self.spool {
                    s.complete.set(false);
                }
            }
            return Ok(Box::new(head.chain(Tee { inner: rest, spool })));
        }
        match &self.spool {
            Some(spool) if spool.complete.get() => {
                let mut file = spool.file.try_clone()?;
                file.seek(std::io::SeekFrom::Start(0))?;
                Ok(Box::new(head.chain(file)))
            }
            _ => Err(std::io::Error::other(
                "a stream cannot be read twice (no temporary file could keep it)",
            )),
        }
    }

    fn whole(&self) -> Option<Cow<'_, [u8]>> {
        None
    }

    fn len(&self) -> Option<u64> {
        None
    }

    fn head(&self) -> Option<Cow<'_, [u8]>> {
        Some(Cow::Borrowed(&self.head))
    }
}

/// Stops a stream after `left` bytes with a limit error (E0106): a CBF record's tree is
/// kept whole, so its size is bounded before the tree is built.
struct Budget<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Budget<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            // One byte more than allowed tells the limit was passed.
            let mut probe = [0u8; 1];
            if self.inner.read(&mut probe)? == 0 {
                return Ok(0);
            }
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                crate::xml::TooLarge {
                    offset: 0,
                    message: record_too_large(None),
                },
            ));
        }
        let want = buf.len().min(self.left.min(usize::MAX as u64) as usize);
        let n = self.inner.read(&mut buf[..want])?;
        self.left -= n as u64;
        Ok(n)
    }
}

fn record_too_large(size: Option<u64>) -> String {
    let size = size.map_or(String::new(), |s| format!(" ({s} bytes)"));
    format!(
        "a CBF record larger than {} MiB{size}: its rules and convert keep the whole record in memory",
        MAX_RECORD >> 20
    )
}

/// A CBF record over [`MAX_RECORD`], refused before it is read.
fn record_refused(path: &Path, format: Format, size: u64) -> Report {
    refused(
        path,
        format,
        record_too_large(Some(size)),
        format!(
            "a record of at most {} MiB (--schema-only checks the schema alone, in bounded memory)",
            MAX_RECORD >> 20
        ),
    )
}

/// A file refused before it is read (E0106, at its start).
fn refused(path: &Path, format: Format, message: String, expected: String) -> Report {
    let mut d = Diagnostic::error(Code::LIMIT, 0, "", message).expected(expected);
    (d.line, d.column) = (1, 1);
    let mut report = Report::failed(path, d);
    report.format = Some(format);
    report
}

/// A players' file over its limit ([`MAX_LIBRARY`] for a CBL, [`MAX_RECORD`] for the
/// others), refused before it is read: the message names the format and its limit.
fn players_refused(path: &Path, format: Format, size: u64) -> Report {
    if format != Format::Cbl {
        return record_refused(path, format, size);
    }
    refused(
        path,
        format,
        format!(
            "a CBL library larger than {} MiB ({size} bytes): show reads a library whole (validate and convert read it record by record)",
            MAX_LIBRARY >> 20
        ),
        format!("a library of at most {} MiB", MAX_LIBRARY >> 20),
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
    impl crate::schema::Document for RootOnly {
        const ROOTS: &'static [&'static str] = &["cif", "ChineseChessRecord"];
        fn read_root(
            r: &mut Reader<'_>,
            _tag: &crate::xml::Tag,
        ) -> Result<Self, crate::schema::Invalid> {
            // A fatal diagnostic ends reading; it is not reported anywhere.
            r.report(Diagnostic::error(Code::LIMIT, 0, "", String::new()));
            Err(crate::schema::Invalid)
        }
        fn write_root(&self, _w: &mut crate::xml::Writer) {}
    }
    let decoder = DecodeReader::new(head).ok()?;
    let mut reader = Reader::from_reader(decoder).without_retaining();
    let _ = reader.read_document::<RootOnly>();
    reader.root().map(Format::of_root)
}

/// Validates a document given as bytes; `path` names it.
pub fn validate_bytes(path: &Path, bytes: &[u8], options: &Options) -> Report {
    validate_source(path, &BytesSource(bytes), options)
}

/// [`validate_bytes`] through the streaming path that files over `WHOLE_FILE_LIMIT` take
/// (for tests: the two paths must report the same).
#[doc(hidden)]
pub fn validate_bytes_streamed(path: &Path, bytes: &[u8], options: &Options) -> Report {
    validate_source(path, &StreamedBytes(bytes), options)
}

/// Bytes in memory read as if they were a large file.
struct StreamedBytes<'b>(&'b [u8]);

impl Source for StreamedBytes<'_> {
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self.0))
    }

    fn whole(&self) -> Option<Cow<'_, [u8]>> {
        None
    }

    fn len(&self) -> Option<u64> {
        Some(self.0.len() as u64)
    }

    fn head(&self) -> Option<Cow<'_, [u8]>> {
        let n = self.0.len().min(WHOLE_FILE_LIMIT as usize);
        Some(Cow::Borrowed(&self.0[..n]))
    }
}

fn open_decoded<'s>(
    source: &'s dyn Source,
    path: &Path,
    budget: Option<u64>,
) -> Result<DecodeReader<Box<dyn Read + 's>>, Diagnostic> {
    let input = source.open().map_err(|e| {
        Diagnostic::error(
            Code::IO,
            0,
            "",
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    let input = match budget {
        Some(left) => Box::new(Budget { inner: input, left }),
        None => input,
    };
    // No BufReader: DecodeReader reads in 64 KiB chunks itself, and a second buffer
    // would only add a copy.
    DecodeReader::new(input)
}

fn validate_source(path: &Path, source: &dyn Source, options: &Options) -> Report {
    // In memory, the text is decoded whole and read in place. Bad bytes take the streaming
    // path, which reports them after what precedes them, as for any large file.
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
    let decoded = whole
        .as_deref()
        .and_then(|bytes| crate::encoding::decode_borrowing(bytes).ok());
    let (reader, encoding, bom) = match &decoded {
        Some((text, encoding, bom)) => (Reader::new(text), *encoding, *bom),
        None => {
            // A CBF record is kept whole: bound it before its tree is built. (A stream whose
            // first bytes show no root is bounded too, in case it is one.)
            let root = match options.schema_only {
                true => Some(None),
                false => source.head().and_then(|h| sniff_root(&h)),
            };
            let budget = match root {
                Some(Some(format @ (Format::Cbf2007 | Format::Cbf10))) => {
                    if let Some(size) = source.len().filter(|&s| s > MAX_RECORD) {
                        return record_refused(path, format, size);
                    }
                    Some(MAX_RECORD)
                }
                Some(_) => None,
                None => Some(MAX_RECORD),
            };
            let decoder = match open_decoded(source, path, budget) {
                Ok(d) => d,
                Err(d) => return Report::failed(path, d),
            };
            let (encoding, bom) = (decoder.encoding(), decoder.bom());
            (Reader::from_reader(decoder), encoding, bom)
        }
    };
    let mut reader = reader
        .with_max_errors(options.max_errors)
        .with_max_kept(MAX_KEPT);
    if options.xml_only {
        let mut reader = reader.without_retaining();
        // The findings are the diagnostics.
        let _ = reader.read_well_formed();
        let omitted = reader.omitted();
        let diagnostics = reader.into_diagnostics();
        return finish(
            path,
            source,
            None,
            diagnostics,
            None,
            (encoding, bom),
            omitted,
        );
    }
    if options.schema_only || !options.keep_document {
        // Values hold no repeated children: memory stays bounded (a CBF record, whose rules
        // need its tree, is kept while its rules watch: see `Document::read_root`).
        reader = reader.without_retaining();
    }
    if !options.schema_only {
        reader = reader.with_observer(Box::new(crate::rules::Rules::default()));
    }
    let document = reader.read_document::<Document>().ok();
    let format = reader.root().and_then(Format::of_root);
    let omitted = reader.omitted();
    let mut diagnostics = reader.into_diagnostics();
    for d in diagnostics
        .iter_mut()
        .filter(|d| d.code == Code::UNKNOWN_ROOT)
    {
        d.expected = Some("<cif> or <ChineseChessRecord>".into());
    }
    if let Some(format @ (Format::Cbf2007 | Format::Cbf10)) = format {
        name_dialect_mix(format, &mut diagnostics);
    }
    let mut document = if options.schema_only { None } else { document };
    // Not asked for (a batch keeps every report until it prints them), or not valid.
    if !options.keep_document || diagnostics.iter().any(|d| d.severity == Severity::Error) {
        document = None;
    }
    finish(
        path,
        source,
        format,
        diagnostics,
        document,
        (encoding, bom),
        omitted,
    )
}

/// The report: diagnostics in document order, placed at their lines and columns.
fn finish(
    path: &Path,
    source: &dyn Source,
    format: Option<Format>,
    mut diagnostics: Vec<Diagnostic>,
    document: Option<Document>,
    (encoding, bom): (&'static encoding_rs::Encoding, bool),
    (mut omitted_errors, mut omitted_warnings): (usize, usize),
) -> Report {
    // Attributes are checked in schema order and rules run after reading; report in
    // document order.
    diagnostics.sort_by_key(|d| (d.offset, d.code));
    // Rule issues come on top of what the reader kept.
    if diagnostics.len() > MAX_KEPT {
        for d in diagnostics.drain(MAX_KEPT..) {
            match d.severity {
                Severity::Error => omitted_errors += 1,
                Severity::Warning => omitted_warnings += 1,
                Severity::Note => {}
            }
        }
    }
    let source_lines = if diagnostics.is_empty() {
        BTreeMap::new()
    } else {
        match place_lines(source, path, &mut diagnostics) {
            Ok(lines) => lines,
            Err(d) => {
                diagnostics.push(d);
                BTreeMap::new()
            }
        }
    };
    Report {
        path: path.to_owned(),
        format,
        diagnostics,
        document,
        encoding,
        bom,
        source_lines,
        omitted_errors,
        omitted_warnings,
        players: None,
    }
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

/// The longest source line kept for an excerpt: a one-line 100 MB file must not cost
/// 100 MB to show one caret.
const MAX_EXCERPT: usize = 4096;

/// Fills in line and column of every diagnostic from its offset, in one streaming pass, and
/// keeps (the start of) the lines they point into.
fn place_lines(
    source: &dyn Source,
    path: &Path,
    diagnostics: &mut [Diagnostic],
) -> Result<BTreeMap<usize, String>, Diagnostic> {
    // Bad bytes have a file offset and no place in the decoded text.
    let mut wanted: Vec<(usize, usize)> = diagnostics
        .iter()
        .enumerate()
        .filter(|(_, d)| !matches!(d.code, Code::INVALID_BYTES | Code::IO))
        .map(|(i, d)| (d.offset, i))
        .collect();
    wanted.sort_unstable();
    let mut lines = BTreeMap::new();
    if wanted.is_empty() {
        return Ok(lines);
    }
    let Ok(mut input) = open_decoded(source, path, None) else {
        return Ok(lines);
    };
    let mut line = LineState {
        number: 1,
        chars: 0,
        excerpt: Vec::new(),
        waiting: false,
    };
    let mut pos = 0usize;
    let mut next = 0usize;
    'read: loop {
        let chunk = match input.fill_buf() {
            Ok(c) if !c.is_empty() => c,
            // The end, or bad bytes later on: what was placed stays placed.
            _ => break,
        };
        let len = chunk.len();
        for &b in chunk {
            while next < wanted.len() && wanted[next].0 <= pos {
                let d = &mut diagnostics[wanted[next].1];
                d.line = line.number as u32;
                d.column = line.chars as u32 + 1;
                line.waiting = true;
                next += 1;
            }
            if b == b'\n' {
                line.finish(&mut lines);
                line.number += 1;
                line.chars = 0;
                if next >= wanted.len() {
                    break 'read;
                }
            } else {
                // Count characters, not bytes: a column is what an editor shows.
                if b & 0xC0 != 0x80 {
                    line.chars += 1;
                }
                if line.excerpt.len() < MAX_EXCERPT {
                    line.excerpt.push(b);
                } else if next >= wanted.len() {
                    // Everything is placed and the excerpt is full: the rest of the line
                    // (a file of NULs has no line end) is not read.
                    break 'read;
                }
            }
            pos += 1;
        }
        input.consume(len);
    }
    // Offsets at or past the end (a missing end tag) belong to the last line.
    for &(_, i) in &wanted[next..] {
        diagnostics[i].line = line.number as u32;
        diagnostics[i].column = line.chars as u32 + 1;
        line.waiting = true;
    }
    line.finish(&mut lines);
    Ok(lines)
}

/// The line being read while placing diagnostics.
struct LineState {
    number: usize,
    chars: usize,
    excerpt: Vec<u8>,
    /// A diagnostic points into this line: keep its excerpt.
    waiting: bool,
}

impl LineState {
    fn finish(&mut self, lines: &mut BTreeMap<usize, String>) {
        if self.waiting {
            let text = String::from_utf8_lossy(&self.excerpt);
            lines.insert(
                self.number,
                text.strip_suffix('\r').unwrap_or(&text).to_string(),
            );
        }
        self.excerpt.clear();
        self.waiting = false;
    }
}

/// The largest file of a players' format read whole: a library holds thousands of records
/// of 4 KiB; a single record or a PGN file is refused past [`MAX_RECORD`]. A larger
/// library is read record by record where its records need not be kept (`validate`, and
/// `convert`, which reads it again the same way to convert it): see
/// [`crate::players::cbr::LibraryReader`].
pub const MAX_LIBRARY: u64 = 1 << 30;

/// Validates a file of a players' format (told by its first bytes): read whole, every
/// record checked as it is read.
fn validate_players(
    path: &Path,
    source: &dyn Source,
    kind: crate::players::Kind,
    options: &Options,
    whole: Option<&[u8]>,
) -> Report {
    use crate::players::Kind;
    let format = players_format(kind);
    let limit = if kind == Kind::Cbl {
        MAX_LIBRARY
    } else {
        MAX_RECORD
    };
    if let Some(size) = source.len().filter(|&s| s > limit) {
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
                return Report::io_error(path, format!("cannot read {}: {e}", path.display()));
            }
            &owned
        }
    };
    if bytes.len() as u64 > limit {
        return players_refused(path, format, bytes.len() as u64);
    }
    let mut read = crate::players::read(kind, bytes);
    let diagnostics = std::mem::take(&mut read.diagnostics);
    let mut source_lines = BTreeMap::new();
    if let Some(text) = &read.text {
        let wanted: std::collections::BTreeSet<usize> = diagnostics
            .iter()
            .map(|d| d.line as usize)
            .filter(|&l| l > 0)
            .collect();
        for (i, line) in text.lines().enumerate() {
            if wanted.contains(&(i + 1)) {
                source_lines.insert(i + 1, line.to_string());
            }
        }
    }
    let mut report = players_report(path, format, read.encoding, diagnostics.into_iter());
    report.source_lines = source_lines;
    report.players = options.keep_document.then(|| Box::new(read));
    report
}

/// The report of a players' file whose reading found `diagnostics`: the first
/// [`MAX_KEPT`] kept, the others counted.
fn players_report(
    path: &Path,
    format: Format,
    encoding: &'static encoding_rs::Encoding,
    diagnostics: impl Iterator<Item = Diagnostic>,
) -> Report {
    let mut kept = Vec::new();
    let (mut omitted_errors, mut omitted_warnings) = (0, 0);
    for d in diagnostics {
        if kept.len() < MAX_KEPT {
            kept.push(d);
            continue;
        }
        match d.severity {
            Severity::Error => omitted_errors += 1,
            Severity::Warning => omitted_warnings += 1,
            Severity::Note => {}
        }
    }
    Report {
        path: path.to_owned(),
        format: Some(format),
        diagnostics: kept,
        document: None,
        encoding,
        bom: false,
        source_lines: BTreeMap::new(),
        omitted_errors,
        omitted_warnings,
        players: None,
    }
}

/// Validates a CBL library larger than [`MAX_LIBRARY`] record by record
/// ([`crate::players::cbr::LibraryReader`]): memory bounded by its longest record
/// ([`MAX_RECORD`]), its records not kept.
fn validate_library_stream(path: &Path, source: &dyn Source) -> Report {
    let cannot =
        |e: std::io::Error| Report::io_error(path, format!("cannot read {}: {e}", path.display()));
    let input = match source.open() {
        Ok(input) => input,
        Err(e) => return cannot(e),
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
    let report = players_report(path, Format::Cbl, encoding_rs::UTF_16LE, diagnostics);
    match failed {
        Some(e) => cannot(e),
        None => report,
    }
}

/// The document of `bytes` if it is schema-valid, whatever its format rules say (for
/// `convert --salvage`, which converts a record as far as its moves are legal). `None`
/// for bytes that are not a schema-valid document.
pub fn schema_valid_document(bytes: &[u8]) -> Option<Document> {
    let (text, _, _) = crate::encoding::decode_borrowing(bytes).ok()?;
    let mut reader = Reader::new(&text);
    let document = reader.read_document::<Document>().ok()?;
    let diagnostics = reader.into_diagnostics();
    (!diagnostics.iter().any(|d| d.severity == Severity::Error)).then_some(document)
}

/// Validates the file at `path` against the global elements of one generated schema: `D`
/// is a generated module's `Root` (every schema's module has one, one variant per global
/// element; [`crate::schema::Document`] is what it implements). The document's root element
/// picks the declaration; a root no global element declares is E0201, naming the allowed
/// ones.
///
/// The same strict reader, limits and diagnostics as [`validate_file`], without what is
/// boardxml's own (the players' binary formats, the CIF and CBF rules, the dialect names):
/// the schema layer alone, in bounded memory (nothing is kept, so [`Report::document`] and
/// [`Report::format`] are `None`). This is what `boardxml-codegen validator` builds on.
pub fn validate_file_as<D: crate::schema::Document>(path: &Path, options: &Options) -> Report {
    let cannot =
        |e: std::io::Error| Report::io_error(path, format!("cannot read {}: {e}", path.display()));
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => validate_source_as::<D>(path, &FileSource(path, m.len()), options),
        Ok(m) if m.is_dir() => cannot(std::io::Error::other("a folder, not a file")),
        Ok(_) => match std::fs::File::open(path) {
            Ok(f) => validate_reader_as::<D>(path, f, options),
            Err(e) => cannot(e),
        },
        Err(e) => cannot(e),
    }
}

/// [`validate_file_as`] for what `input` gives (a pipe, standard input), read once as
/// [`validate_reader`] reads.
pub fn validate_reader_as<D: crate::schema::Document>(
    name: &Path,
    mut input: impl Read,
    options: &Options,
) -> Report {
    let mut head = Vec::new();
    if let Err(e) = (&mut input)
        .take(WHOLE_FILE_LIMIT + 1)
        .read_to_end(&mut head)
    {
        return Report::io_error(name, format!("cannot read {}: {e}", name.display()));
    }
    if head.len() as u64 <= WHOLE_FILE_LIMIT {
        return validate_source_as::<D>(name, &BytesSource(&head), options);
    }
    let source = StreamSource {
        head,
        rest: std::cell::RefCell::new(Some(Box::new(input))),
        spool: Spool::new(),
    };
    validate_source_as::<D>(name, &source, options)
}

/// [`validate_file_as`] for a document given as bytes; `path` names it.
pub fn validate_bytes_as<D: crate::schema::Document>(
    path: &Path,
    bytes: &[u8],
    options: &Options,
) -> Report {
    validate_source_as::<D>(path, &BytesSource(bytes), options)
}

fn validate_source_as<D: crate::schema::Document>(
    path: &Path,
    source: &dyn Source,
    options: &Options,
) -> Report {
    read_source_as::<D>(path, source, options, false).0
}

/// Reads the file at `path` as a document of one generated schema (`D`, a generated
/// module's `Root`) and keeps it: [`validate_file_as`]'s reader and diagnostics, the value
/// returned when the document is valid. The tree is held whole, so a file over
/// [`MAX_RECORD`] is refused (E0106) before it is built, as a CBF record is.
pub fn read_file_as<D: crate::schema::Document>(path: &Path) -> (Report, Option<D>) {
    let cannot =
        |e: std::io::Error| Report::io_error(path, format!("cannot read {}: {e}", path.display()));
    let options = Options::default();
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() > MAX_RECORD => (kept_refused(path, m.len()), None),
        Ok(m) if m.is_file() => {
            read_source_as::<D>(path, &FileSource(path, m.len()), &options, true)
        }
        Ok(m) if m.is_dir() => (cannot(std::io::Error::other("a folder, not a file")), None),
        Ok(_) => read_stream_as::<D>(path),
        Err(e) => (cannot(e), None),
    }
}

/// [`read_file_as`] for a document given as bytes; `path` names it.
pub fn read_bytes_as<D: crate::schema::Document>(path: &Path, bytes: &[u8]) -> (Report, Option<D>) {
    if bytes.len() as u64 > MAX_RECORD {
        return (kept_refused(path, bytes.len() as u64), None);
    }
    read_source_as::<D>(path, &BytesSource(bytes), &Options::default(), true)
}

/// A device or FIFO: read once, at most [`MAX_RECORD`] and a byte (so the excess is seen),
/// then as bytes.
fn read_stream_as<D: crate::schema::Document>(path: &Path) -> (Report, Option<D>) {
    let mut bytes = Vec::new();
    let read =
        std::fs::File::open(path).and_then(|f| f.take(MAX_RECORD + 1).read_to_end(&mut bytes));
    match read {
        Ok(_) => read_bytes_as::<D>(path, &bytes),
        Err(e) => (
            Report::io_error(path, format!("cannot read {}: {e}", path.display())),
            None,
        ),
    }
}

/// A document to be kept whole, over [`MAX_RECORD`]: refused before its tree is built.
fn kept_refused(path: &Path, size: u64) -> Report {
    let mut d = Diagnostic::error(
        Code::LIMIT,
        0,
        "",
        format!(
            "a document larger than {} MiB ({size} bytes or more): reading it into its type keeps the whole tree in memory",
            MAX_RECORD >> 20
        ),
    )
    .expected(format!(
        "a document of at most {} MiB (validating it alone reads any size in bounded memory)",
        MAX_RECORD >> 20
    ));
    (d.line, d.column) = (1, 1);
    Report::failed(path, d)
}

fn read_source_as<D: crate::schema::Document>(
    path: &Path,
    source: &dyn Source,
    options: &Options,
    keep: bool,
) -> (Report, Option<D>) {
    let whole = source.whole();
    let decoded = whole
        .as_deref()
        .and_then(|bytes| crate::encoding::decode_borrowing(bytes).ok());
    let (reader, encoding, bom) = match &decoded {
        Some((text, encoding, bom)) => (Reader::new(text), *encoding, *bom),
        None => {
            let decoder = match open_decoded(source, path, keep.then_some(MAX_RECORD)) {
                Ok(d) => d,
                Err(d) => return (Report::failed(path, d), None),
            };
            let (encoding, bom) = (decoder.encoding(), decoder.bom());
            (Reader::from_reader(decoder), encoding, bom)
        }
    };
    let mut reader = reader
        .with_max_errors(options.max_errors)
        .with_max_kept(MAX_KEPT);
    let mut document = None;
    if options.xml_only {
        reader = reader.without_retaining();
        let _ = reader.read_well_formed();
    } else if keep {
        document = reader.read_document::<D>().ok();
    } else {
        // Nothing is kept: values hold no repeated children, so memory stays bounded.
        reader = reader.without_retaining();
        let _ = reader.validate_document::<D>();
    }
    let omitted = reader.omitted();
    let mut diagnostics = reader.into_diagnostics();
    if D::ROOTS.is_empty() {
        // "expected" would be empty: say why no root can do.
        for d in diagnostics
            .iter_mut()
            .filter(|d| d.code == Code::UNKNOWN_ROOT)
        {
            d.expected = Some(if D::TYPES.is_empty() {
                "none: the schema declares no global element".into()
            } else {
                "none: the schema declares no global element; a root may name one of its types with xsi:type".into()
            });
        }
    }
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        document = None;
    }
    let report = finish(
        path,
        source,
        None,
        diagnostics,
        None,
        (encoding, bom),
        omitted,
    );
    (report, document)
}

/// The name of the root element of the file at `path` (as written, prefix included), read
/// from its first bytes; `None` when the file cannot be read or gets no root element there
/// (the validation that follows reports why).
pub fn root_element(path: &Path) -> Option<String> {
    let head = match std::fs::metadata(path) {
        Ok(m) if m.is_file() => FileSource(path, m.len()).head()?.into_owned(),
        _ => return None,
    };
    /// Reads the root's start tag and stops.
    struct RootOnly;
    impl crate::schema::Document for RootOnly {
        // Every root is unknown to it: the reader keeps the tag all the same.
        const ROOTS: &'static [&'static str] = &[];
        fn read_root(
            _r: &mut Reader<'_>,
            _tag: &crate::xml::Tag,
        ) -> Result<Self, crate::schema::Invalid> {
            Err(crate::schema::Invalid)
        }
        fn write_root(&self, _w: &mut crate::xml::Writer) {}
    }
    let decoder = DecodeReader::new(&head[..]).ok()?;
    let mut reader = Reader::from_reader(decoder).without_retaining();
    let _ = reader.read_document::<RootOnly>();
    reader.root().map(|t| t.name().to_owned())
}
