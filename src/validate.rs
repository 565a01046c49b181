//! Validating one document: decode, tell the format from the root element (not the file
//! extension: `.cbf` is also an old ChessBase extension), read it with the generated types,
//! and collect every diagnostic.

use std::path::{Path, PathBuf};

use crate::diagnostic::{Code, Diagnostic, LineIndex};
use crate::encoding;
use crate::generated::{cbf_1_0, cbf_2007, cif};
use crate::xml::Reader;

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

/// How to validate.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Stop reading a document after this many errors.
    pub max_errors: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { max_errors: 100 }
    }
}

/// The outcome for one document.
#[derive(Debug, Clone)]
pub struct Report {
    /// The file.
    pub path: PathBuf,
    /// The format detected, if the root element told it.
    pub format: Option<Format>,
    /// The decoded text (for source excerpts in diagnostics); empty if it could not be decoded.
    pub text: String,
    /// What was found, in document order.
    pub diagnostics: Vec<Diagnostic>,
    /// The document, if it is valid.
    pub document: Option<Document>,
    /// The encoding the document was in.
    pub encoding: &'static encoding_rs::Encoding,
}

impl Report {
    /// Whether the document has no errors (warnings allowed).
    pub fn is_valid(&self) -> bool {
        !self
            .diagnostics
            .iter()
            .any(|d| d.severity == crate::diagnostic::Severity::Error)
    }

    /// Line and column of a diagnostic.
    pub fn line_column(&self, d: &Diagnostic) -> (usize, usize) {
        if d.code == Code::InvalidBytes || self.text.is_empty() {
            // The offset is into the undecodable bytes; no text to count lines in.
            return (0, 0);
        }
        LineIndex::new(&self.text).line_column(&self.text, d.offset)
    }
}

/// Reads and validates the file at `path`.
pub fn validate_file(path: &Path, options: &Options) -> Report {
    match std::fs::read(path) {
        Ok(bytes) => validate_bytes(path, &bytes, options),
        Err(e) => Report {
            path: path.to_owned(),
            format: None,
            text: String::new(),
            diagnostics: vec![Diagnostic::error(
                Code::Io,
                0,
                "",
                format!("cannot read {}: {e}", path.display()),
            )],
            document: None,
            encoding: encoding_rs::UTF_8,
        },
    }
}

/// Validates a document given as bytes; `path` names it.
pub fn validate_bytes(path: &Path, bytes: &[u8], options: &Options) -> Report {
    let decoded = match encoding::decode(bytes) {
        Ok(d) => d,
        Err(d) => {
            return Report {
                path: path.to_owned(),
                format: None,
                text: String::new(),
                diagnostics: vec![d],
                document: None,
                encoding: encoding_rs::UTF_8,
            }
        }
    };
    let format = detect(&decoded.text);
    let mut reader = Reader::new(&decoded.text).with_max_errors(options.max_errors);
    let document = match format {
        Some(Format::Cbf10) => reader
            .read_document::<cbf_1_0::Root>()
            .ok()
            .map(Document::Cbf10),
        Some(Format::Cbf2007) => reader
            .read_document::<cbf_2007::Root>()
            .ok()
            .map(Document::Cbf2007),
        // CIF, and anything whose root is unknown: the CIF reader reports the root with
        // every root boardxml knows as the expected one.
        _ => read_unknown(&mut reader),
    };
    let mut diagnostics = reader.into_diagnostics();
    // Attributes are checked in schema order; report in document order.
    diagnostics.sort_by_key(|d| d.offset);
    if format.is_none() {
        for d in diagnostics
            .iter_mut()
            .filter(|d| d.code == Code::UnknownRoot)
        {
            d.expected = Some("<cif> or <ChineseChessRecord>".into());
        }
    }
    let document = if diagnostics
        .iter()
        .any(|d| d.severity == crate::diagnostic::Severity::Error)
    {
        None
    } else {
        document
    };
    Report {
        path: path.to_owned(),
        format,
        text: decoded.text,
        diagnostics,
        document,
        encoding: decoded.encoding,
    }
}

fn read_unknown(reader: &mut Reader<'_>) -> Option<Document> {
    reader.read_document::<cif::Root>().ok().map(Document::Cif)
}

/// The format from the root element: `<cif>`, or `<ChineseChessRecord>` with or without
/// `Version` (its presence marks the 1.0 dialect; a wrong value is the 1.0 schema's to
/// report as a fixed-value error).
pub fn detect(text: &str) -> Option<Format> {
    let mut xml = quick_xml::Reader::from_str(text);
    loop {
        match xml.read_event() {
            Ok(quick_xml::events::Event::Start(s)) | Ok(quick_xml::events::Event::Empty(s)) => {
                return match s.name().as_ref() {
                    b"cif" => Some(Format::Cif),
                    b"ChineseChessRecord" => {
                        let versioned = s
                            .attributes()
                            .flatten()
                            .any(|a| a.key.as_ref() == b"Version");
                        Some(if versioned {
                            Format::Cbf10
                        } else {
                            Format::Cbf2007
                        })
                    }
                    _ => None,
                };
            }
            Ok(quick_xml::events::Event::Eof) | Err(_) => return None,
            Ok(_) => {}
        }
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
    match document {
        Document::Cif(d) => d.write_root(&mut w),
        Document::Cbf2007(d) => d.write_root(&mut w),
        Document::Cbf10(d) => d.write_root(&mut w),
    }
    encoding::encode(&w.finish(), encoding, bom)
}
