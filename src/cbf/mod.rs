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

pub use record::{Dialect, HeadField, MoveNode, Record};
pub use rules::{check, check_1_0, check_2007};

use boardxml_xiangqi::Move;

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
