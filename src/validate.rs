//! Validating one document: decode as it is read, tell the format from the root element
//! (not the file extension: `.cbf` is also an old ChessBase extension), read it with the
//! generated types, run the format's rules, and place every diagnostic at its line and
//! column.
//!
//! Files are streamed: reading holds the nesting path and the current event, not the file.
//! The source is read again only when there is something to place (rule issues name paths;
//! diagnostics need line and column and the source line for excerpts).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::encoding::DecodeReader;
use crate::generated::{cbf_1_0, cbf_2007, cif};
use crate::schema::{Element, Invalid};
use crate::xml::{Reader, Tag};

/// The formats and dialects boardxml reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Format {
    /// CIF marker document (`<cif>`).
    #[serde(rename = "cif")]
    Cif,
    /// CBF as announced in 2007 (`<ChineseChessRecord>` without `Version`).
    #[serde(rename = "cbf-2007")]
    Cbf2007,
    /// CBF as XiangQi Bridge 3 writes it (`<ChineseChessRecord Version="1.0">`).
    #[serde(rename = "cbf-1.0")]
    Cbf10,
}

impl Format {
    /// The name users see.
    pub fn name(self) -> &'static str {
        match self {
            Format::Cif => "cif",
            Format::Cbf2007 => "cbf-2007",
            Format::Cbf10 => "cbf-1.0",
        }
    }

    /// The format a root start tag announces: `<cif>`, or `<ChineseChessRecord>` with or
    /// without `Version` (its presence marks the 1.0 dialect; a wrong value is the 1.0
    /// schema's to report as a fixed-value error).
    pub fn of_root(tag: &Tag) -> Option<Format> {
        match tag.name() {
            "cif" => Some(Format::Cif),
            "ChineseChessRecord" if tag.attribute("Version").is_some() => Some(Format::Cbf10),
            "ChineseChessRecord" => Some(Format::Cbf2007),
            _ => None,
        }
    }
}

/// A document read successfully, as its generated type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Document {
    /// CIF.
    Cif(cif::Root),
    /// CBF, dialect 2007.
    Cbf2007(cbf_2007::Root),
    /// CBF, dialect 1.0.
    Cbf10(cbf_1_0::Root),
}

/// Every root boardxml knows, read by the format its start tag announces.
impl crate::schema::Document for Document {
    const ROOTS: &'static [&'static str] = &["cif", "ChineseChessRecord"];

    fn read_root(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        // With the CIF rules watching, a CIF document need not be kept; a CBF record's rules
        // need its whole tree.
        // The observer holds CIF rules: a CBF record has no use for it (and it would be asked
        // about every element).
        if r.has_observer() {
            let cif = Format::of_root(tag) == Some(Format::Cif);
            r.set_retaining(!cif);
            if !cif {
                r.remove_observer();
            }
        }
        match Format::of_root(tag) {
            Some(Format::Cif) => {
                cif::Cif::read_element(r, tag).map(|d| Document::Cif(cif::Root::Cif(d)))
            }
            Some(Format::Cbf2007) => cbf_2007::ChineseChessRecord::read_element(r, tag)
                .map(|d| Document::Cbf2007(cbf_2007::Root::ChineseChessRecord(d))),
            Some(Format::Cbf10) => cbf_1_0::ChineseChessRecord::read_element(r, tag)
                .map(|d| Document::Cbf10(cbf_1_0::Root::ChineseChessRecord(d))),
            None => Err(Invalid),
        }
    }

    fn write_root(&self, w: &mut crate::xml::Writer) {
        match self {
            Document::Cif(d) => d.write_root(w),
            Document::Cbf2007(d) => d.write_root(w),
            Document::Cbf10(d) => d.write_root(w),
        }
    }
}

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
        }
    }
}

/// Where a document's bytes come from; opened again for the passes after reading.
trait Source {
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>>;
    /// The whole document in memory, if it is there already or small enough to read whole
    /// (`None`: stream it).
    fn whole(&self) -> Option<Cow<'_, [u8]>>;
}

/// Files up to this size are read whole and parsed in place, which skips the streaming
/// decoder and size guard and the copy of every event (most records are a few KB); larger
/// ones stream, so memory stays bounded whatever the size. UTF-8 is read where it lies;
/// other encodings are decoded into a copy, up to three times this size (GBK to UTF-8).
const WHOLE_FILE_LIMIT: u64 = 2 << 20;

struct FileSource<'p>(&'p Path);

impl Source for FileSource<'_> {
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(std::fs::File::open(self.0)?))
    }

    fn whole(&self) -> Option<Cow<'_, [u8]>> {
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
}

/// Reads and validates the file at `path`, streaming it.
pub fn validate_file(path: &Path, options: &Options) -> Report {
    validate_source(path, &FileSource(path), options)
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
}

fn open_decoded<'s>(
    source: &'s dyn Source,
    path: &Path,
) -> Result<DecodeReader<Box<dyn Read + 's>>, Diagnostic> {
    let input = source.open().map_err(|e| {
        Diagnostic::error(
            Code::Io,
            0,
            "",
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    // No BufReader: DecodeReader reads in 64 KiB chunks itself, and a second buffer
    // would only add a copy.
    DecodeReader::new(input)
}

fn validate_source(path: &Path, source: &dyn Source, options: &Options) -> Report {
    // In memory, the text is decoded whole and read in place. Bad bytes take the streaming
    // path, which reports them after what precedes them, as for any large file.
    let whole = source.whole();
    let decoded = whole
        .as_deref()
        .and_then(|bytes| crate::encoding::decode_borrowing(bytes).ok());
    let (reader, encoding, bom) = match &decoded {
        Some((text, encoding, bom)) => (Reader::new(text), *encoding, *bom),
        None => {
            let decoder = match open_decoded(source, path) {
                Ok(d) => d,
                Err(d) => return Report::failed(path, d),
            };
            let (encoding, bom) = (decoder.encoding(), decoder.bom());
            (Reader::from_reader(decoder), encoding, bom)
        }
    };
    let mut reader = reader.with_max_errors(options.max_errors);
    if options.xml_only {
        let mut reader = reader.without_retaining();
        // The findings are the diagnostics.
        let _ = reader.read_well_formed();
        let diagnostics = reader.into_diagnostics();
        return finish(path, source, None, diagnostics, None, (encoding, bom));
    }
    let streamed_rules = !options.schema_only && !options.keep_document;
    if options.schema_only {
        reader = reader.without_retaining();
    } else if streamed_rules {
        reader = reader.with_observer(Box::new(crate::cif::stream::CifRules::default()));
    }
    let document = reader.read_document::<Document>().ok();
    let format = reader.root().and_then(Format::of_root);
    let mut diagnostics = reader.into_diagnostics();
    for d in diagnostics
        .iter_mut()
        .filter(|d| d.code == Code::UnknownRoot)
    {
        d.expected = Some("<cif> or <ChineseChessRecord>".into());
    }
    if let Some(format @ (Format::Cbf2007 | Format::Cbf10)) = format {
        name_dialect_mix(format, &mut diagnostics);
    }
    let schema_valid = !diagnostics.iter().any(|d| d.severity == Severity::Error);
    let mut document = if schema_valid && !options.schema_only {
        document
    } else {
        None
    };
    if streamed_rules && format == Some(Format::Cif) {
        // Checked while read, and not kept: the value read lacks its repeated children.
        document = None;
    }
    if let Some(doc) = &document {
        let issues = crate::rules::check(doc);
        if !issues.is_empty() {
            match placed_issues(source, path, issues) {
                Ok(placed) => diagnostics.extend(placed),
                Err(d) => diagnostics.push(d),
            }
        }
    }
    // Not asked for (a batch keeps every report until it prints them), or not valid.
    if !options.keep_document || diagnostics.iter().any(|d| d.severity == Severity::Error) {
        document = None;
    }
    finish(path, source, format, diagnostics, document, (encoding, bom))
}

/// The report: diagnostics in document order, placed at their lines and columns.
fn finish(
    path: &Path,
    source: &dyn Source,
    format: Option<Format>,
    mut diagnostics: Vec<Diagnostic>,
    document: Option<Document>,
    (encoding, bom): (&'static encoding_rs::Encoding, bool),
) -> Report {
    // Attributes are checked in schema order and rules run after reading; report in
    // document order.
    diagnostics.sort_by_key(|d| (d.offset, d.code));
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
    }
}

/// Head fields and move attributes that only one CBF dialect has.
const ONLY_1_0_HEAD: &[&str] = &[
    "From",
    "ContestType",
    "Contest",
    "Group",
    "Table",
    "RedRating",
    "BlackRating",
    "Referee",
    "Recorder",
    "ECCO",
    "RecordType",
    "RecordKind",
    "RecordResult",
    "ResultType",
    "FEN",
];
const ONLY_2007_HEAD: &[&str] = &["Event", "Type", "Result", "Board", "Comment"];
const ONLY_1_0_MOVE: &[&str] = &["branch", "end"];
const ONLY_2007_MOVE: &[&str] = &["nid"];

/// A record that uses the other dialect's fields is a mix of the two (E0301), which says
/// more than "unknown attribute" or "unexpected element": the schema layer's diagnostic is
/// renamed, keeping its position.
fn name_dialect_mix(format: Format, diagnostics: &mut [Diagnostic]) {
    let (other_head, other_move, this, other) = match format {
        Format::Cbf2007 => (
            ONLY_1_0_HEAD,
            ONLY_1_0_MOVE,
            "the 2007 dialect (no Version attribute)",
            "1.0",
        ),
        _ => (
            ONLY_2007_HEAD,
            ONLY_2007_MOVE,
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
            Code::UnknownAttribute
                if parent_is("Move") && other_move.contains(&name.trim_start_matches('@')) =>
            {
                format!("attribute {} of <Move>", name.trim_start_matches('@'))
            }
            Code::UnexpectedElement if parent_is("Head") && other_head.contains(&name) => {
                format!("<{name}> in the head")
            }
            _ => continue,
        };
        d.code = Code::DialectMix;
        d.message = format!("{what} belongs to the {other} dialect, but this record is {this}");
    }
}

/// Rule issues name paths; one more pass finds their offsets.
fn placed_issues(
    source: &dyn Source,
    path: &Path,
    issues: Vec<crate::semantics::Issue>,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    let mut text = String::new();
    // The document was just read whole and is schema-valid: it decodes.
    open_decoded(source, path)?
        .read_to_string(&mut text)
        .map_err(|e| {
            Diagnostic::error(
                Code::Io,
                0,
                "",
                format!("cannot read {} again: {e}", path.display()),
            )
        })?;
    Ok(crate::semantics::place(&text, issues))
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
        .filter(|(_, d)| !matches!(d.code, Code::InvalidBytes | Code::Io))
        .map(|(i, d)| (d.offset, i))
        .collect();
    wanted.sort_unstable();
    let mut lines = BTreeMap::new();
    if wanted.is_empty() {
        return Ok(lines);
    }
    let Ok(mut input) = open_decoded(source, path) else {
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

/// Writes a valid document back in canonical layout, in `encoding` (with a BOM if `bom`).
pub fn write_document(
    document: &Document,
    encoding: &'static encoding_rs::Encoding,
    bom: bool,
) -> Vec<u8> {
    use crate::schema::Document as _;
    let mut w = crate::xml::Writer::new(encoding);
    document.write_root(&mut w);
    crate::encoding::encode(&w.finish(), encoding, bom)
}
