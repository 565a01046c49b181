//! The formats' front door for library users: read bytes or a file into a typed document
//! (schema and format rules checked), write one back, and one error type that carries
//! every diagnostic. [`crate::cbf`] and [`crate::cif`] expose these for their documents;
//! the runtime's own front door (`boardxml::read_file::<D>`) reads any generated schema's.

use std::fmt;
use std::path::{Path, PathBuf};

use boardxml::diagnostic::Diagnostic;
use boardxml::safe_write::{Inputs, WriteError};
pub use boardxml::{Encoded, Encoding};

use crate::document::{Document, Format};
use crate::validate::{validate_bytes, validate_file, Options, Validated};

/// Why a document could not be read or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The document is not valid: every diagnostic, placed at its line and column. Its
    /// `Display` is the CLI's human format.
    Invalid(Box<Validated>),
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
    PlayersFormat(Box<Validated>),
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
            Error::Invalid(report) => f.write_str(&boardxml::report::not_valid(report)),
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
                     `boardxml_formats::players::read` reads it",
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

/// The name bytes are given in diagnostics.
const BYTES_NAME: &str = boardxml::validate::BYTES_NAME;

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

fn into_encoded(mut report: Validated) -> Result<Encoded<Document>, Error> {
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
            warnings: report.report.diagnostics,
        }),
        // A valid report always keeps its document with the default options.
        None => Err(Error::Invalid(Box::new(report))),
    }
}

/// The bytes of a document whose root element `root` has the value `value`, in its
/// encoding (written from the borrowed value: nothing is copied to wrap it in a root enum).
pub(crate) fn to_bytes<T: boardxml::schema::Element>(
    value: &T,
    root: &str,
    encoding: &'static Encoding,
    bom: bool,
) -> Vec<u8> {
    let mut w = boardxml::xml::Writer::new(encoding);
    value.write_element(&mut w, root);
    boardxml::encoding::encode(&w.finish(), encoding, bom)
}

/// The root element of a schema that has one global element (as the CBF and CIF schemas
/// do), from the generated root's table.
pub(crate) fn root_of<R: boardxml::schema::Document>() -> &'static str {
    R::ROOTS[0]
}

/// Writes `bytes` to `path` safely (see [`boardxml::safe_write`]).
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
    Ok(boardxml::safe_write::write_file(
        path,
        bytes,
        &Inputs::new(),
    )?)
}

/// The error for a valid document of another format.
pub(crate) fn wrong_format(path: &Path, expected: &'static str, found: Format) -> Error {
    Error::WrongFormat {
        path: path.to_path_buf(),
        expected,
        found,
    }
}
