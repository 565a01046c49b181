//! The front door for library users: read bytes or a file into a typed document (schema and
//! format rules checked), write one back, and one error type that carries every diagnostic.
//! `boardxml::cbf` and `boardxml::cif` expose these for their documents.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Severity};
use crate::document::{Document, Format};
use crate::report::{render, OutputFormat};
use crate::safe_write::{Inputs, WriteError};
use crate::validate::{validate_bytes, validate_file, Options, Report};

/// The character encoding of a document (encoding_rs's, re-exported so that a user need not
/// depend on it): `boardxml::encoding_rs::UTF_8`, `GBK`, ...
pub use encoding_rs::Encoding;

/// A document with how it was (or is to be) stored: its encoding and byte order mark, so
/// that it can be written back as it came. Warnings found while reading are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded<T> {
    /// The document.
    pub document: T,
    /// The encoding it was read in, and is written in.
    pub encoding: &'static Encoding,
    /// Whether it started with a byte order mark (and is written with one).
    pub bom: bool,
    /// The warnings reading found (a valid document may have some).
    pub warnings: Vec<Diagnostic>,
}

impl<T> Encoded<T> {
    /// A document to be written as UTF-8 without a byte order mark.
    pub fn new(document: T) -> Self {
        Encoded {
            document,
            encoding: encoding_rs::UTF_8,
            bom: false,
            warnings: Vec::new(),
        }
    }
}

/// Why a document could not be read or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The document is not valid: every diagnostic, placed at its line and column. Its
    /// `Display` is the CLI's human format.
    Invalid(Box<Report>),
    /// A valid document, but of another format than the one asked for.
    WrongFormat {
        /// The file (or the name given to bytes).
        path: PathBuf,
        /// What was asked for.
        expected: &'static str,
        /// What it is.
        found: Format,
    },
    /// A file of one of the players' formats (XQF, CBR, CBL, PGN), which the CIF and CBF
    /// readers do not take: `crate::players::read` reads it, `boardxml convert` makes CBF
    /// of it. The report holds what reading it found (errors too, if it is broken).
    PlayersFormat(Box<Report>),
    /// Writing failed, or would have overwritten something it must not.
    Write(WriteError),
}

impl Error {
    /// Every diagnostic (errors and warnings) of an invalid document; none for the others.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Invalid(report) | Error::PlayersFormat(report) => &report.diagnostics,
            _ => &[],
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(report) => {
                let errors = report
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .count();
                write!(
                    f,
                    "{}{} is not valid ({errors} error{})",
                    render(report, OutputFormat::Human, false),
                    report.path.display(),
                    if errors == 1 { "" } else { "s" }
                )
            }
            Error::WrongFormat {
                path,
                expected,
                found,
            } => write!(
                f,
                "{} is a {} document, not {expected}",
                path.display(),
                found.name()
            ),
            Error::PlayersFormat(report) => {
                let kind = report
                    .players
                    .as_ref()
                    .map_or("players'", |r| r.kind.name());
                write!(
                    f,
                    "{} is in the {} format (one of the players' formats), not a CIF or CBF document: \
                     `boardxml convert {}` makes CBF records of it, and \
                     `boardxml::players::read` reads it",
                    report.path.display(),
                    kind.to_uppercase(),
                    report.path.display()
                )
            }
            Error::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Write(e) => Some(e),
            _ => None,
        }
    }
}

impl From<WriteError> for Error {
    fn from(e: WriteError) -> Self {
        Error::Write(e)
    }
}

/// Reads the file at `path` as a document of a schema of one's own: `D` is the `Root` of a
/// module `boardxml-codegen` generated (`boardxml::read_file::<gpx::Root>("walk.gpx")`),
/// checked against that schema by the strict reader `validate` uses (its limits, its
/// located diagnostics: a problem is [`Error::Invalid`]). The CIF and CBF formats' own rules
/// are `boardxml::cif` and `boardxml::cbf`'s.
pub fn read_file<D: crate::schema::Document>(path: impl AsRef<Path>) -> Result<Encoded<D>, Error> {
    let path = path.as_ref();
    kept(crate::validate::read_file_as::<D>(path))
}

/// [`read_file`] for a document given as bytes.
pub fn read<D: crate::schema::Document>(bytes: &[u8]) -> Result<Encoded<D>, Error> {
    kept(crate::validate::read_bytes_as::<D>(
        Path::new(BYTES_NAME),
        bytes,
    ))
}

/// The bytes of a document of a schema of one's own in its encoding, if [`read`] takes
/// them back (a document built in memory can break the schema: a value beyond a facet
/// set directly, a required list left empty); refused otherwise with the codes reading
/// would give, nothing made.
pub fn write<D: crate::schema::Document>(document: &Encoded<D>) -> Result<Vec<u8>, Error> {
    bytes_of(Path::new(BYTES_NAME), document)
}

/// Writes a document of a schema of one's own to `path`, safely (see
/// [`crate::safe_write`]: a new temporary file renamed into place, never through a link);
/// one that [`read_file`] would refuse is refused, and nothing is written.
pub fn write_file<D: crate::schema::Document>(
    path: impl AsRef<Path>,
    document: &Encoded<D>,
) -> Result<(), Error> {
    let path = path.as_ref();
    to_path(path, &bytes_of(path, document)?)
}

fn bytes_of<D: crate::schema::Document>(
    name: &Path,
    document: &Encoded<D>,
) -> Result<Vec<u8>, Error> {
    let mut w = crate::xml::Writer::new(document.encoding);
    document.document.write_root(&mut w);
    let bytes = crate::encoding::encode(&w.finish(), document.encoding, document.bom);
    let (report, _) = crate::validate::read_bytes_as::<D>(name, &bytes);
    if report.is_valid() {
        Ok(bytes)
    } else {
        Err(Error::Invalid(Box::new(report)))
    }
}

fn kept<D>((report, document): (Report, Option<D>)) -> Result<Encoded<D>, Error> {
    match document {
        Some(document) if report.is_valid() => Ok(Encoded {
            document,
            encoding: report.encoding,
            bom: report.bom,
            warnings: report.diagnostics,
        }),
        _ => Err(Error::Invalid(Box::new(report))),
    }
}

/// The name bytes are given in diagnostics.
const BYTES_NAME: &str = "<bytes>";

/// Reads `bytes` (any format), fully validated.
pub(crate) fn read_bytes(bytes: &[u8]) -> Result<Encoded<Document>, Error> {
    into_encoded(validate_bytes(
        Path::new(BYTES_NAME),
        bytes,
        &Options::default(),
    ))
}

/// Reads the file at `path` (any format), fully validated.
pub(crate) fn read_path(path: &Path) -> Result<Encoded<Document>, Error> {
    into_encoded(validate_file(path, &Options::default()))
}

fn into_encoded(mut report: Report) -> Result<Encoded<Document>, Error> {
    // A players' file is told apart before validity: broken or not, the answer is that
    // this reader does not take that format (and which one it is).
    if report.players.is_some() {
        return Err(Error::PlayersFormat(Box::new(report)));
    }
    if !report.is_valid() {
        report.document = None;
        return Err(Error::Invalid(Box::new(report)));
    }
    match report.document.take() {
        Some(document) => Ok(Encoded {
            document,
            encoding: report.encoding,
            bom: report.bom,
            warnings: report.diagnostics,
        }),
        // A valid report always keeps its document with the default options.
        None => Err(Error::Invalid(Box::new(report))),
    }
}

/// The bytes of a document whose root element `root` has the value `value`, in its
/// encoding (written from the borrowed value: nothing is copied to wrap it in a root enum).
pub(crate) fn to_bytes<T: crate::schema::Element>(
    value: &T,
    root: &str,
    encoding: &'static Encoding,
    bom: bool,
) -> Vec<u8> {
    let mut w = crate::xml::Writer::new(encoding);
    value.write_element(&mut w, root);
    crate::encoding::encode(&w.finish(), encoding, bom)
}

/// The root element of a schema that has one global element (as the CBF and CIF schemas
/// do), from the generated root's table.
pub(crate) fn root_of<R: crate::schema::Document>() -> &'static str {
    R::ROOTS[0]
}

/// Writes `bytes` to `path` safely (see [`crate::safe_write`]).
/// The bytes a writer made, if reading them back takes them: a document built or changed
/// in memory can break the format's rules (a marker off its board, an illegal move) while
/// every value is schema-valid, and what is written must be what `read` accepts, refused
/// otherwise with the codes `read` would give. `name` places the diagnostics.
pub(crate) fn readable(name: &Path, bytes: Vec<u8>) -> Result<Vec<u8>, Error> {
    let report = validate_bytes(name, &bytes, &Options::default());
    if report.is_valid() {
        Ok(bytes)
    } else {
        Err(Error::Invalid(Box::new(report)))
    }
}

pub(crate) fn to_path(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    Ok(crate::safe_write::write_file(path, bytes, &Inputs::new())?)
}

/// The error for a valid document of another format.
pub(crate) fn wrong_format(path: &Path, expected: &'static str, found: Format) -> Error {
    Error::WrongFormat {
        path: path.to_path_buf(),
        expected,
        found,
    }
}
