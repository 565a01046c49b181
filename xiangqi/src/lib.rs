//! The rules of xiangqi (Chinese chess), with no XML in it: positions and their FEN and
//! 2007 CBF Board strings, position validity, full move legality with precise reasons,
//! legal move generation, check/checkmate/stalemate, perft, and move notation (CBF
//! `XY-XY`, ICCS `h2e2`, Chinese WXF `炮二平五`, WXF ASCII `C2.5`).
//!
//! Coordinates: a [`Point`] is (x, y) with x the column 0..8 from the left as drawn (red
//! at the bottom) and y the row 0..9 from the top (row 0 is black's back rank).
//!
//! ```
//! use boardxml_xiangqi::{Move, Position};
//! let mut pos = Position::start();
//! let mv = Move::parse_cbf("77-47").unwrap();
//! assert_eq!(mv.to_string(), "h2e2");
//! assert_eq!(pos.to_chinese(mv).unwrap(), "炮二平五");
//! pos.play(mv).unwrap();
//! assert_eq!(pos.legal_moves().len(), 45);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod notation;
pub mod position;
pub mod rules;
#[doc(hidden)]
pub mod seeded;
pub mod types;
pub mod validate;

pub use notation::{file_number, NotationError};
pub use position::{Position, PositionFormat, PositionParseError, START_BOARD, START_FEN};
pub use rules::{perft, IllegalMove, LegalPosition, Undo};
pub use types::{Move, MoveParseError, Piece, PieceKind, Point, Side};
pub use validate::PositionError;
