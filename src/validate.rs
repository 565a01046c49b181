//! Validating one document against a generated schema: decode it as it is read, read it
//! with the generated types (a format's rules, an [`Observer`], watching each element as it
//! is read), and place every diagnostic at its line and column.
//!
//! Files are streamed: reading holds the nesting path and the current event, not the file.
//! Every finding carries its byte offset: the source is read once more only when there is
//! something to place (line and column, and the source line for excerpts), in one pass.
//!
//! The pieces are public for the formats built on the runtime: a [`Source`] of bytes (a
//! file, bytes in memory, a stream kept in a spool), [`read_source`] (one document read
//! from it by a generated type), and [`finish`] (the [`Report`], its diagnostics placed).
//! [`validate_file_as`] and [`read_file_as`] put them together for one generated schema.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::encoding::DecodeReader;
use crate::schema::Document;
use crate::xml::{Observer, Reader, Tag};

/// How to validate.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Stop reading a document after this many errors.
    pub max_errors: usize,
    /// Only the schema layer: a format's rules do not run, and the document is not kept
    /// (memory stays bounded whatever the file's size).
    pub schema_only: bool,
    /// Keep the document for the caller. Off, nothing of the document is kept beyond what
    /// its rules need, so validation runs in bounded memory.
    pub keep_document: bool,
    /// Well-formedness alone (XML 1.0 5th edition and Namespaces 1.0, with the same limits
    /// and the same refusal of DTDs): no schema, no rules; every finding is an E01xx. Any
    /// root element will do.
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
    /// The format (or schema set) the document was read as, if one was told: named in the
    /// JSON and SARIF output.
    pub format: Option<&'static str>,
    /// What was found, in document order, each placed at its line and column.
    pub diagnostics: Vec<Diagnostic>,
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

    /// The report of `path` with nothing found yet.
    fn new(path: &Path) -> Report {
        Report {
            path: path.to_owned(),
            format: None,
            diagnostics: Vec::new(),
            encoding: encoding_rs::UTF_8,
            bom: false,
            source_lines: BTreeMap::new(),
            omitted_errors: 0,
            omitted_warnings: 0,
        }
    }

    /// The report of a document that could not be read past `d` (a problem of the file
    /// itself, placed by whoever made it).
    pub fn failed(path: &Path, d: Diagnostic) -> Report {
        Report {
            diagnostics: vec![d],
            ..Report::new(path)
        }
    }

    /// The report of a path that could not be read at all (E0001).
    pub fn io_error(path: &Path, message: String) -> Report {
        Report::failed(path, Diagnostic::error(Code::IO, 0, "", message))
    }

    /// The report of a file refused before it is read, over a size limit (E0106, at its
    /// start): `message` says what is over the limit, `expected` what is allowed.
    pub fn refused(path: &Path, message: String, expected: String) -> Report {
        let mut d = Diagnostic::error(Code::LIMIT, 0, "", message).expected(expected);
        (d.line, d.column) = (1, 1);
        Report::failed(path, d)
    }

    /// The report of diagnostics found without a text to place them in (a binary format
    /// read by a format's own reader; lines given by it, if any): the first [`MAX_KEPT`]
    /// kept, the others counted.
    pub fn of_diagnostics(
        path: &Path,
        encoding: &'static encoding_rs::Encoding,
        diagnostics: impl Iterator<Item = Diagnostic>,
    ) -> Report {
        let mut report = Report {
            encoding,
            ..Report::new(path)
        };
        for d in diagnostics {
            if report.diagnostics.len() < MAX_KEPT {
                report.diagnostics.push(d);
            } else {
                report.count_omitted(&d);
            }
        }
        report
    }

    fn count_omitted(&mut self, d: &Diagnostic) {
        match d.severity {
            Severity::Error => self.omitted_errors += 1,
            Severity::Warning => self.omitted_warnings += 1,
            Severity::Note => {}
        }
    }
}

/// The name a document given as bytes has in its diagnostics.
pub const BYTES_NAME: &str = "<bytes>";

/// At most this many diagnostics are kept per document (in document order); the rest are
/// counted in [`Report::omitted_errors`] and [`Report::omitted_warnings`], so memory stays
/// bounded whatever `max_errors` says.
pub const MAX_KEPT: usize = 1000;

/// The largest document read into its type whole (in bytes of the file): the tree is kept
/// in memory (a few times the document's size), so one over this is refused with a limit
/// error (E0106) before its tree is built. Validation that keeps nothing reads any size in
/// bounded memory.
pub const MAX_WHOLE: u64 = 16 << 20;

/// Where a document's bytes come from; opened again for the passes after reading.
pub trait Source {
    /// The bytes from the start.
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>>;
    /// The whole document in memory, if it is there already or small enough to read whole
    /// (`None`: stream it).
    fn whole(&self) -> Option<Cow<'_, [u8]>>;
    /// The size, where it is known before reading.
    fn size(&self) -> Option<u64>;
    /// The first bytes (up to 2 MiB), to tell the format before streaming.
    fn head(&self) -> Option<Cow<'_, [u8]>>;
    /// The most bytes the reader takes into its window at a time, when it streams, if not
    /// the reader's own (a test source takes few, so that the window's ends fall
    /// everywhere).
    #[doc(hidden)]
    fn stream_step(&self) -> Option<usize> {
        None
    }
}

/// Files up to this size are read whole and parsed in place, which skips the streaming
/// decoder and its window (most records are a few KB); larger
/// ones stream, so memory stays bounded whatever the size. UTF-8 is read where it lies;
/// other encodings are decoded into a copy, up to three times this size (GBK to UTF-8).
const WHOLE_FILE_LIMIT: u64 = 2 << 20;

/// A regular file, of the size its metadata told.
struct FileSource<'p> {
    path: &'p Path,
    /// The size its metadata told.
    size: u64,
    /// The whole file, once read (up to `WHOLE_FILE_LIMIT`; `None` inside: streamed):
    /// the format's sniffing, the read and its head share one read of the file.
    whole: std::cell::OnceCell<Option<Vec<u8>>>,
}

impl<'p> FileSource<'p> {
    fn new(path: &'p Path, size: u64) -> FileSource<'p> {
        FileSource {
            path,
            size,
            whole: std::cell::OnceCell::new(),
        }
    }

    fn read_whole(&self) -> Option<Vec<u8>> {
        if self.size > WHOLE_FILE_LIMIT {
            return None;
        }
        let mut file = std::fs::File::open(self.path).ok()?;
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
        (bytes.len() as u64 <= WHOLE_FILE_LIMIT).then_some(bytes)
    }
}

impl Source for FileSource<'_> {
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(std::fs::File::open(self.path)?))
    }

    fn size(&self) -> Option<u64> {
        Some(self.size)
    }

    fn head(&self) -> Option<Cow<'_, [u8]>> {
        if let Some(Some(whole)) = self.whole.get() {
            return Some(Cow::Borrowed(whole));
        }
        let mut head = Vec::new();
        std::fs::File::open(self.path)
            .ok()?
            .take(WHOLE_FILE_LIMIT)
            .read_to_end(&mut head)
            .ok()?;
        Some(Cow::Owned(head))
    }

    fn whole(&self) -> Option<Cow<'_, [u8]>> {
        self.whole
            .get_or_init(|| self.read_whole())
            .as_deref()
            .map(Cow::Borrowed)
    }
}

/// Bytes in memory.
pub struct BytesSource<'b>(pub &'b [u8]);

impl Source for BytesSource<'_> {
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self.0))
    }

    fn whole(&self) -> Option<Cow<'_, [u8]>> {
        Some(Cow::Borrowed(self.0))
    }

    fn size(&self) -> Option<u64> {
        Some(self.0.len() as u64)
    }

    fn head(&self) -> Option<Cow<'_, [u8]>> {
        Some(Cow::Borrowed(self.0))
    }
}

/// Calls `read` with the file at `path` as a [`Source`]: a regular file as itself, a path
/// that is not one (a FIFO, a device, `/dev/stdin`) read once as [`with_reader`] reads; a
/// file that cannot be read, or a folder, is `failed`'s report (E0001).
pub fn with_file<T>(
    path: &Path,
    failed: impl FnOnce(Report) -> T,
    read: impl FnOnce(&dyn Source) -> T,
) -> T {
    let cannot =
        |e: std::io::Error| Report::io_error(path, format!("cannot read {}: {e}", path.display()));
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => read(&FileSource::new(path, m.len())),
        Ok(m) if m.is_dir() => failed(cannot(std::io::Error::other("a folder, not a file"))),
        Ok(_) => match std::fs::File::open(path) {
            Ok(f) => with_reader(path, f, failed, read),
            Err(e) => failed(cannot(e)),
        },
        Err(e) => failed(cannot(e)),
    }
}

/// Calls `read` with what `input` gives (standard input, a pipe, a device) as a [`Source`];
/// `name` names it.
///
/// It is read once, with the limits of any stream: up to 2 MiB are read whole and
/// validated in place, as a file; more streams through the decoder, and what was read is
/// kept in an unlinked temporary file so that diagnostics get their lines, columns and
/// excerpts as for a file. Reading stops at the first fatal error, so an endless input of
/// NULs (`/dev/zero`) costs a few kilobytes.
pub fn with_reader<T>(
    name: &Path,
    mut input: impl Read,
    failed: impl FnOnce(Report) -> T,
    read: impl FnOnce(&dyn Source) -> T,
) -> T {
    let mut head = Vec::new();
    if let Err(e) = (&mut input)
        .take(WHOLE_FILE_LIMIT + 1)
        .read_to_end(&mut head)
    {
        return failed(Report::io_error(
            name,
            format!("cannot read {}: {e}", name.display()),
        ));
    }
    if head.len() as u64 <= WHOLE_FILE_LIMIT {
        return read(&BytesSource(&head));
    }
    let source = StreamSource {
        head,
        rest: std::cell::RefCell::new(Some(Box::new(input))),
        spool: Spool::new(),
    };
    read(&source)
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

    fn size(&self) -> Option<u64> {
        None
    }

    fn head(&self) -> Option<Cow<'_, [u8]>> {
        Some(Cow::Borrowed(&self.head))
    }
}

/// Stops a stream after `left` bytes with a limit error (E0106): a document read into its
/// type is kept whole, so its size is bounded before the tree is built.
struct Budget<R> {
    inner: R,
    left: u64,
    /// What the limit error says.
    message: fn() -> String,
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
                    message: (self.message)(),
                },
            ));
        }
        let want = buf.len().min(self.left.min(usize::MAX as u64) as usize);
        let n = self.inner.read(&mut buf[..want])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// The bytes of `bytes` read as if they were a large file: through the streaming path
/// that files over 2 MiB take, its window taking 7 bytes at a time (for tests: the two
/// paths must report the same, wherever the window's ends fall).
pub fn streamed(bytes: &[u8]) -> impl Source + '_ {
    StreamedBytes(bytes)
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

    fn size(&self) -> Option<u64> {
        Some(self.0.len() as u64)
    }

    fn head(&self) -> Option<Cow<'_, [u8]>> {
        let n = self.0.len().min(WHOLE_FILE_LIMIT as usize);
        Some(Cow::Borrowed(&self.0[..n]))
    }

    /// The window's ends fall anywhere in an event (tests compare with the text read in
    /// place): a step of a few bytes, not one that divides tags evenly.
    fn stream_step(&self) -> Option<usize> {
        Some(7)
    }
}

/// A size limit on what is decoded: at most `bytes`, else `message()` as a limit error
/// (E0106).
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// The most bytes read.
    pub bytes: u64,
    /// What the error says past it.
    pub message: fn() -> String,
}

fn open_decoded<'s>(
    source: &'s dyn Source,
    path: &Path,
    budget: Option<Limit>,
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
        Some(limit) => Box::new(Budget {
            inner: input,
            left: limit.bytes,
            message: limit.message,
        }),
        None => input,
    };
    // No BufReader: DecodeReader reads in 64 KiB chunks itself, and a second buffer
    // would only add a copy.
    DecodeReader::new(input)
}

/// What a read of one document is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The value is kept (its tree built whole).
    Keep,
    /// Validity alone: values hold no repeated children, so memory stays bounded (an
    /// observer may still ask the reader to retain what its rules need).
    Validate,
    /// Well-formedness alone: no schema.
    WellFormed,
}

/// What reading one document found, before its diagnostics are placed ([`finish`]).
pub struct Reading<D> {
    /// The document, if it was kept and read without errors.
    pub document: Option<D>,
    /// The root element's start tag, if reading got that far.
    pub root: Option<Tag>,
    /// Every finding, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// Errors and warnings found past the ones kept.
    pub omitted: (usize, usize),
    /// The document's encoding and whether it had a byte order mark.
    pub encoding: (&'static encoding_rs::Encoding, bool),
}

/// Reads one document of `source` by the generated type `D` for `purpose`, with
/// `observer` watching each element (a format's rules), streaming through `limit` if the
/// source is not read whole (`Err`: the source could not be opened, as a report).
pub fn read_source<'o, D: Document>(
    path: &Path,
    source: &dyn Source,
    options: &Options,
    purpose: Purpose,
    observer: Option<Box<dyn Observer + 'o>>,
    limit: Option<Limit>,
) -> Result<Reading<D>, Report> {
    // In memory, the text is decoded whole and read in place. Bad bytes take the streaming
    // path, which reports them after what precedes them, as for any large file.
    let whole = source.whole();
    let decoded = whole
        .as_deref()
        .and_then(|bytes| crate::encoding::decode_borrowing(bytes).ok());
    let (reader, encoding) = match &decoded {
        Some((text, encoding, bom)) => (Reader::new(text), (*encoding, *bom)),
        None => {
            let decoder = open_decoded(source, path, limit).map_err(|d| Report::failed(path, d))?;
            let encoding = (decoder.encoding(), decoder.bom());
            let reader = match source.stream_step() {
                Some(step) => Reader::from_reader_in_steps(decoder, step),
                None => Reader::from_reader(decoder),
            };
            (reader, encoding)
        }
    };
    let mut reader = reader
        .with_max_errors(options.max_errors)
        .with_max_kept(MAX_KEPT);
    if purpose != Purpose::Keep {
        reader = reader.without_retaining();
    }
    if let Some(observer) = observer {
        reader = reader.with_observer(observer);
    }
    let document = match purpose {
        Purpose::WellFormed => {
            let _ = reader.read_well_formed();
            None
        }
        Purpose::Keep => reader.read_document::<D>().ok(),
        Purpose::Validate => {
            let _ = reader.validate_document::<D>();
            None
        }
    };
    let root = reader.root().cloned();
    let omitted = reader.omitted();
    let diagnostics = reader.into_diagnostics();
    let failed = diagnostics.iter().any(|d| d.severity == Severity::Error);
    Ok(Reading {
        document: document.filter(|_| !failed),
        root,
        diagnostics,
        omitted,
        encoding,
    })
}

/// The report: diagnostics in document order, placed at their lines and columns (the
/// source read once more, only if there is something to place).
pub fn finish(
    path: &Path,
    source: &dyn Source,
    format: Option<&'static str>,
    mut diagnostics: Vec<Diagnostic>,
    (encoding, bom): (&'static encoding_rs::Encoding, bool),
    (omitted_errors, omitted_warnings): (usize, usize),
) -> Report {
    // Attributes are checked in schema order and rules run after reading; report in
    // document order.
    diagnostics.sort_by_key(|d| (d.offset, d.code));
    let mut report = Report {
        format,
        encoding,
        bom,
        omitted_errors,
        omitted_warnings,
        ..Report::new(path)
    };
    // Rule issues come on top of what the reader kept.
    if diagnostics.len() > MAX_KEPT {
        for d in diagnostics.drain(MAX_KEPT..) {
            report.count_omitted(&d);
        }
    }
    if !diagnostics.is_empty() {
        match place_lines(source, path, &mut diagnostics) {
            Ok(lines) => report.source_lines = lines,
            Err(d) => diagnostics.push(d),
        }
    }
    report.diagnostics = diagnostics;
    report
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

/// Validates the file at `path` against the global elements of one generated schema: `D`
/// is a generated module's `Root` (every schema's module has one, one variant per global
/// element; [`crate::schema::Document`] is what it implements). The document's root element
/// picks the declaration; a root no global element declares is E0201, naming the allowed
/// ones. Nothing is kept, so memory stays bounded whatever the file's size. This is what
/// the validators `boardxml-codegen validator` generates run.
pub fn validate_file_as<D: Document>(path: &Path, options: &Options) -> Report {
    with_file(
        path,
        |r| r,
        |source| validate_source_as::<D>(path, source, options),
    )
}

/// [`validate_file_as`] for what `input` gives (a pipe, standard input), read once as
/// [`with_reader`] reads.
pub fn validate_reader_as<D: Document>(name: &Path, input: impl Read, options: &Options) -> Report {
    with_reader(
        name,
        input,
        |r| r,
        |source| validate_source_as::<D>(name, source, options),
    )
}

/// [`validate_file_as`] for a document given as bytes; `path` names it.
pub fn validate_bytes_as<D: Document>(path: &Path, bytes: &[u8], options: &Options) -> Report {
    validate_source_as::<D>(path, &BytesSource(bytes), options)
}

/// [`validate_file_as`] for any [`Source`].
pub fn validate_source_as<D: Document>(
    path: &Path,
    source: &dyn Source,
    options: &Options,
) -> Report {
    let purpose = if options.xml_only {
        Purpose::WellFormed
    } else {
        Purpose::Validate
    };
    read_as::<D>(path, source, options, purpose).0
}

/// Reads the file at `path` as a document of one generated schema (`D`, a generated
/// module's `Root`) and keeps it: [`validate_file_as`]'s reader and diagnostics, the value
/// returned when the document is valid. The tree is held whole, so a file over
/// [`MAX_WHOLE`] is refused (E0106) before it is built.
pub fn read_file_as<D: Document>(path: &Path) -> (Report, Option<D>) {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() > MAX_WHOLE => (too_large(path, m.len()), None),
        Ok(m) if m.is_file() || m.is_dir() => {
            with_file(path, |r| (r, None), |source| keep_source::<D>(path, source))
        }
        // A device or FIFO: read once, at most MAX_WHOLE and a byte (so the excess is
        // seen), then as bytes.
        Ok(_) => {
            let mut bytes = Vec::new();
            match std::fs::File::open(path)
                .and_then(|f| f.take(MAX_WHOLE + 1).read_to_end(&mut bytes))
            {
                Ok(_) => read_bytes_as::<D>(path, &bytes),
                Err(e) => (
                    Report::io_error(path, format!("cannot read {}: {e}", path.display())),
                    None,
                ),
            }
        }
        Err(e) => (
            Report::io_error(path, format!("cannot read {}: {e}", path.display())),
            None,
        ),
    }
}

/// [`read_file_as`] for a document given as bytes; `path` names it.
pub fn read_bytes_as<D: Document>(path: &Path, bytes: &[u8]) -> (Report, Option<D>) {
    if bytes.len() as u64 > MAX_WHOLE {
        return (too_large(path, bytes.len() as u64), None);
    }
    keep_source::<D>(path, &BytesSource(bytes))
}

fn keep_source<D: Document>(path: &Path, source: &dyn Source) -> (Report, Option<D>) {
    read_as::<D>(path, source, &Options::default(), Purpose::Keep)
}

/// The message of a document to be kept whole that is over [`MAX_WHOLE`].
fn whole_too_large() -> String {
    format!(
        "a document larger than {} MiB: reading it into its type keeps the whole tree in memory",
        MAX_WHOLE >> 20
    )
}

/// A document to be kept whole, over [`MAX_WHOLE`]: refused before its tree is built.
fn too_large(path: &Path, size: u64) -> Report {
    Report::refused(
        path,
        format!(
            "a document larger than {} MiB ({size} bytes or more): reading it into its type keeps the whole tree in memory",
            MAX_WHOLE >> 20
        ),
        format!(
            "a document of at most {} MiB (validating it alone reads any size in bounded memory)",
            MAX_WHOLE >> 20
        ),
    )
}

/// One document of one generated schema, read for `purpose`, its report finished.
fn read_as<D: Document>(
    path: &Path,
    source: &dyn Source,
    options: &Options,
    purpose: Purpose,
) -> (Report, Option<D>) {
    let limit = (purpose == Purpose::Keep).then_some(Limit {
        bytes: MAX_WHOLE,
        message: whole_too_large,
    });
    let reading = match read_source::<D>(path, source, options, purpose, None, limit) {
        Ok(reading) => reading,
        Err(report) => return (report, None),
    };
    let mut diagnostics = reading.diagnostics;
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
    let report = finish(
        path,
        source,
        None,
        diagnostics,
        reading.encoding,
        reading.omitted,
    );
    (report, reading.document)
}

/// The name of the root element of the file at `path` (as written, prefix included), read
/// from its first bytes; `None` when the file cannot be read or gets no root element there
/// (the validation that follows reports why).
pub fn root_element(path: &Path) -> Option<String> {
    let head = match std::fs::metadata(path) {
        Ok(m) if m.is_file() => FileSource::new(path, m.len()).head()?.into_owned(),
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
