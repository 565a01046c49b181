//! CBF (XiangQi Bridge / 象棋桥) records beyond the schema: one dialect-neutral model of
//! both dialects, the structure of their variations, and the rules of xiangqi applied to
//! every line.
//!
//! The 2007 dialect lists moves depth-first with `nid` (a move with nid n is the child of
//! the nearest earlier move with nid n-1); the 1.0 dialect lists them depth-first with
//! `branch="1"` (a later sibling of this move follows) and `end="1"` (this line ends; the
//! next move is the next sibling of the most recently remembered move).

pub mod convert;
pub mod pgn;
pub mod record;
pub mod render;
pub mod rules;
pub mod show;
pub mod values;

pub use record::{Dialect, HeadField, MoveNode, Record};
pub use rules::{check, check_1_0, check_2007, CbfRules};
pub use values::{BoardForm, FenForm, MoveValue, StartPosition};

use std::path::Path;

use boardxml_xiangqi::Move;

use crate::front::{self, Encoded, Error};
use crate::generated::{cbf_1_0, cbf_2007};

/// A CBF record as read: the generated type of its dialect. [`Document::record`] gives the
/// dialect-neutral [`Record`] (the tree of moves, positions, head fields in order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Document {
    /// The 2007 dialect.
    V2007(cbf_2007::ChineseChessRecord),
    /// The `Version="1.0"` dialect.
    V1_0(cbf_1_0::ChineseChessRecord),
}

impl Document {
    /// Which dialect it is in.
    pub fn dialect(&self) -> Dialect {
        match self {
            Document::V2007(_) => Dialect::V2007,
            Document::V1_0(_) => Dialect::V1_0,
        }
    }

    /// The dialect-neutral record.
    pub fn record(&self) -> Record {
        match self {
            Document::V2007(r) => Record::from_2007(r),
            Document::V1_0(r) => Record::from_1_0(r),
        }
    }
}

fn only_cbf(
    path: &Path,
    read: Encoded<crate::document::Document>,
) -> Result<Encoded<Document>, Error> {
    use crate::document::Document as Any;
    let document = match read.document {
        Any::Cbf2007(cbf_2007::Root::ChineseChessRecord(r)) => Document::V2007(r),
        Any::Cbf10(cbf_1_0::Root::ChineseChessRecord(r)) => Document::V1_0(r),
        Any::Cif(_) => {
            return Err(front::wrong_format(
                path,
                "a CBF record",
                crate::document::Format::Cif,
            ))
        }
    };
    Ok(Encoded {
        document,
        encoding: read.encoding,
        bom: read.bom,
        warnings: read.warnings,
    })
}

/// Reads a CBF record (either dialect, any supported encoding) from bytes: schema-valid,
/// and every rule of the format holds (start position, variations, every move legal).
pub fn read(bytes: &[u8]) -> Result<Encoded<Document>, Error> {
    only_cbf(Path::new("<bytes>"), front::read_bytes(bytes)?)
}

/// Reads a CBF record from the file at `path`, as [`read`] does.
pub fn read_file(path: impl AsRef<Path>) -> Result<Encoded<Document>, Error> {
    let path = path.as_ref();
    only_cbf(path, front::read_path(path)?)
}

/// The bytes of a record in its encoding (with a byte order mark if it has one), if
/// [`read`] takes them: a record with an illegal move, a bad start position or any other
/// broken rule (or schema constraint) is refused with the codes reading it would give.
pub fn write(record: &Encoded<Document>) -> Result<Vec<u8>, Error> {
    bytes_for(Path::new("<bytes>"), record)
}

/// Writes a record to `path` in its encoding, safely: through a new temporary file renamed
/// over the target, never through a link (see [`boardxml::safe_write`]). A record that
/// [`read_file`] would refuse is refused, and nothing is written.
pub fn write_file(path: impl AsRef<Path>, record: &Encoded<Document>) -> Result<(), Error> {
    let path = path.as_ref();
    front::to_path(path, &bytes_for(path, record)?)
}

fn bytes_for(name: &Path, record: &Encoded<Document>) -> Result<Vec<u8>, Error> {
    let (encoding, bom) = (record.encoding, record.bom);
    let bytes = match &record.document {
        Document::V2007(r) => front::to_bytes(r, front::root_of::<cbf_2007::Root>(), encoding, bom),
        Document::V1_0(r) => front::to_bytes(r, front::root_of::<cbf_1_0::Root>(), encoding, bom),
    };
    front::readable(name, bytes)
}

/// The moves of a record's main line (first child at every step), for display and tests.
pub fn main_line(record: &Record) -> Vec<Move> {
    let mut out = Vec::new();
    let mut next = record.root_children.first().copied();
    while let Some(i) = next {
        out.push(record.moves[i].mv);
        next = record.moves[i].children.first().copied();
    }
    out
}
