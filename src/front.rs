//! The front door for library users: read bytes or a file into the typed document of a
//! generated schema (every problem found, located), write one back (refused if reading
//! would refuse it), and one error type that carries every diagnostic.

use std::fmt;
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::report::not_valid;
use crate::safe_write::{Inputs, WriteError};
use crate::validate::Report;

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
    /// Writing failed, or would have overwritten something it must not.
    Write(WriteError),
}

impl Error {
    /// Every diagnostic (errors and warnings) of an invalid document; none for the others.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Invalid(report) => &report.diagnostics,
            Error::Write(_) => &[],
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(report) => f.write_str(&not_valid(report)),
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
/// checked against that schema by the strict reader of [`crate::validate`] (its limits,
/// its located diagnostics: a problem is [`Error::Invalid`]).
pub fn read_file<D: crate::schema::Document>(path: impl AsRef<Path>) -> Result<Encoded<D>, Error> {
    let path = path.as_ref();
    kept(crate::validate::read_file_as::<D>(path))
}

/// [`read_file`] for a document given as bytes.
pub fn read<D: crate::schema::Document>(bytes: &[u8]) -> Result<Encoded<D>, Error> {
    kept(crate::validate::read_bytes_as::<D>(
        Path::new(crate::validate::BYTES_NAME),
        bytes,
    ))
}

/// The bytes of a document of a schema of one's own in its encoding, if [`read`] takes
/// them back (a document built in memory can break the schema: a value beyond a facet
/// set directly, a required list left empty); refused otherwise with the codes reading
/// would give, nothing made.
pub fn write<D: crate::schema::Document>(document: &Encoded<D>) -> Result<Vec<u8>, Error> {
    bytes_of(Path::new(crate::validate::BYTES_NAME), document)
}

/// Writes a document of a schema of one's own to `path`, safely (see
/// [`crate::safe_write`]: a new temporary file renamed into place, never through a link);
/// one that [`read_file`] would refuse is refused, and nothing is written.
pub fn write_file<D: crate::schema::Document>(
    path: impl AsRef<Path>,
    document: &Encoded<D>,
) -> Result<(), Error> {
    let path = path.as_ref();
    let bytes = bytes_of(path, document)?;
    Ok(crate::safe_write::write_file(path, &bytes, &Inputs::new())?)
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
