//! The CIF format beyond its schema: squares as values ([`square`]), a game's board size
//! ([`board`]), the rules that check every marker's squares against it ([`rules`], codes
//! E04xx), and an SVG picture of a game's board with its markers ([`render`]).

pub mod board;
pub mod render;
pub mod rules;
pub mod square;

pub use board::{BoardSize, SizeConflict};
pub use render::render_game_svg;
pub use rules::{check, CifRules};
pub use square::{split_squares, Square, SquareError, Squares, SquaresError};

use std::path::Path;

use crate::front::{self, Encoded, Error};
use crate::generated::cif;

fn only_cif(
    path: &Path,
    read: Encoded<crate::document::Document>,
) -> Result<Encoded<cif::Cif>, Error> {
    match read.document {
        crate::document::Document::Cif(cif::Root::Cif(document)) => Ok(Encoded {
            document,
            encoding: read.encoding,
            bom: read.bom,
            warnings: read.warnings,
        }),
        other => Err(front::wrong_format(path, "a CIF document", other.format())),
    }
}

/// Reads a CIF document from bytes: schema-valid, and every marker's squares on its
/// game's board.
pub fn read(bytes: &[u8]) -> Result<Encoded<cif::Cif>, Error> {
    only_cif(Path::new("<bytes>"), front::read_bytes(bytes)?)
}

/// Reads a CIF document from the file at `path`, as [`read`] does.
pub fn read_file(path: impl AsRef<Path>) -> Result<Encoded<cif::Cif>, Error> {
    let path = path.as_ref();
    only_cif(path, front::read_path(path)?)
}

/// The bytes of a CIF document in its encoding, if [`read`] takes them: a document whose
/// markers leave their board (or that breaks the schema) is refused with the codes
/// reading it would give (E04xx), and nothing is made.
pub fn write(document: &Encoded<cif::Cif>) -> Result<Vec<u8>, Error> {
    bytes_for(Path::new("<bytes>"), document)
}

/// Writes a CIF document to `path` in its encoding, safely (see [`boardxml::safe_write`]);
/// one that [`read_file`] would refuse is refused, and nothing is written.
pub fn write_file(path: impl AsRef<Path>, document: &Encoded<cif::Cif>) -> Result<(), Error> {
    let path = path.as_ref();
    front::to_path(path, &bytes_for(path, document)?)
}

fn bytes_for(name: &Path, document: &Encoded<cif::Cif>) -> Result<Vec<u8>, Error> {
    let bytes = front::to_bytes(
        &document.document,
        front::root_of::<cif::Root>(),
        document.encoding,
        document.bom,
    );
    front::readable(name, bytes)
}
