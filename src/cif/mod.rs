//! The CIF format beyond its schema: squares as values ([`square`]), a game's board size
//! ([`board`]), the rules that check every marker's squares against it ([`rules`], codes
//! E04xx), and an SVG picture of a game's board with its markers ([`render`]).

pub mod board;
pub mod render;
pub mod rules;
pub mod square;
pub mod stream;

pub use board::{BoardSize, SizeConflict};
pub use render::render_game_svg;
pub use rules::check;
pub use square::{split_squares, Square, SquareError, SquaresError};
