//! A position (the 90 points, the side to move, the move number) and its two text forms:
//! the standard xiangqi FEN and the Board string of the 2007 CBF dialect.

use std::fmt;

use crate::types::{Piece, PieceKind, Point, Side, HEIGHT, WIDTH};

/// The standard start position as FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// The standard start position as a 2007 CBF Board string.
pub const START_BOARD: &str = "jmxswsxmj10p5p1b1b1b1b1b18B1B1B1B1B1P5P10JMXSWSXMJ-r1";

/// [`START_FEN`], built when compiling: records nearly all start from it, and are read
/// without parsing it (`start_is_its_texts_parsed` holds the two equal).
const START_POSITION: Position = {
    const ROWS: [&[u8; 9]; 10] = [
        b"rnbakabnr",
        b".........",
        b".c.....c.",
        b"p.p.p.p.p",
        b".........",
        b".........",
        b"P.P.P.P.P",
        b".C.....C.",
        b".........",
        b"RNBAKABNR",
    ];
    let mut board = [None; 90];
    let mut i = 0;
    while i < board.len() {
        let letter = ROWS[i / 9][i % 9];
        let side = if letter.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        let kind = match letter.to_ascii_lowercase() {
            b'r' => Some(PieceKind::Rook),
            b'n' => Some(PieceKind::Horse),
            b'b' => Some(PieceKind::Elephant),
            b'a' => Some(PieceKind::Advisor),
            b'k' => Some(PieceKind::King),
            b'c' => Some(PieceKind::Cannon),
            b'p' => Some(PieceKind::Pawn),
            _ => None,
        };
        if let Some(kind) = kind {
            board[i] = Some(Piece::new(side, kind));
        }
        i += 1;
    }
    Position {
        board,
        side_to_move: Side::Red,
        move_number: 1,
        halfmove_clock: 0,
    }
};

/// A xiangqi position: what stands on each point, whose turn it is, the move number
/// (starts at 1, grows after each black move) and the FEN half-move clock (plies since
/// the last capture; kept only so that FEN round-trips).
///
/// Any placement can be held; [`Position::validate`] tells whether it is a legal one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: [Option<Piece>; 90],
    pub(crate) side_to_move: Side,
    pub(crate) move_number: u32,
    pub(crate) halfmove_clock: u32,
}

/// Which text form a [`PositionParseError`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionFormat {
    /// Standard xiangqi FEN.
    Fen,
    /// The 2007 CBF Board string.
    Board2007,
}

impl fmt::Display for PositionFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionFormat::Fen => "FEN",
            PositionFormat::Board2007 => "Board string",
        })
    }
}

/// Why a FEN or 2007 Board string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionParseError {
    /// A FEN has no placement at all.
    Empty {
        /// The format read.
        format: PositionFormat,
    },
    /// A FEN placement does not have 10 rows.
    RowCount {
        /// Rows found.
        found: usize,
    },
    /// A FEN row does not have 9 points.
    RowWidth {
        /// Row number, 1-based from the top (black's side).
        row: usize,
        /// Points found in that row.
        found: usize,
    },
    /// A 2007 Board placement does not describe exactly 90 points.
    PointCount {
        /// Points described.
        found: usize,
    },
    /// A letter that names no piece.
    UnknownPiece {
        /// The format read.
        format: PositionFormat,
        /// The character.
        letter: char,
        /// Its character index in the placement (0-based).
        index: usize,
    },
    /// A run of empty points written as `0`.
    ZeroRun {
        /// The format read.
        format: PositionFormat,
        /// Character index in the placement (0-based).
        index: usize,
    },
    /// No side after the placement.
    MissingSide {
        /// The format read.
        format: PositionFormat,
    },
    /// The side is not `r`/`b` (2007) or `w`/`r`/`b` (FEN).
    BadSide {
        /// The format read.
        format: PositionFormat,
        /// What was found.
        found: String,
    },
    /// The 2007 Board string has no `-` between placement and side.
    MissingSeparator,
    /// The move number is missing or not a decimal number.
    BadMoveNumber {
        /// The format read.
        format: PositionFormat,
        /// What was found.
        found: String,
    },
    /// The move number is 0 (it starts at 1).
    MoveNumberZero {
        /// The format read.
        format: PositionFormat,
    },
    /// A FEN half-move clock that is not a number.
    BadHalfmoveClock {
        /// What was found.
        found: String,
    },
    /// A FEN castling or en-passant field other than `-`.
    BadField {
        /// Field number, 1-based (3 or 4).
        field: usize,
        /// What was found.
        found: String,
    },
    /// A FEN with more than 6 fields.
    TrailingText {
        /// The extra text.
        found: String,
    },
}

impl fmt::Display for PositionParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionParseError::*;
        match self {
            Empty { format } => write!(f, "{format}: empty placement"),
            RowCount { found } => write!(f, "FEN: placement has {found} rows, expected 10"),
            RowWidth { row, found } => {
                write!(f, "FEN: row {row} has {found} points, expected 9")
            }
            PointCount { found } => {
                write!(f, "Board string: placement has {found} points, expected 90")
            }
            UnknownPiece {
                format,
                letter,
                index,
            } => write!(
                f,
                "{format}: unknown piece letter {letter:?} at index {index} of the placement"
            ),
            ZeroRun { format, index } => {
                write!(f, "{format}: empty run of length 0 at index {index}")
            }
            MissingSide { format } => write!(f, "{format}: side to move is missing"),
            BadSide { format, found } => match format {
                PositionFormat::Fen => {
                    write!(f, "FEN: side to move {found:?} is not w (or r) or b")
                }
                PositionFormat::Board2007 => {
                    write!(f, "Board string: side to move {found:?} is not r or b")
                }
            },
            MissingSeparator => {
                write!(f, "Board string: no '-' between the placement and the side")
            }
            BadMoveNumber { format, found } => {
                write!(f, "{format}: move number {found:?} is not a number")
            }
            MoveNumberZero { format } => write!(f, "{format}: move number 0 (must be >= 1)"),
            BadHalfmoveClock { found } => {
                write!(f, "FEN: half-move clock {found:?} is not a number")
            }
            BadField { field, found } => {
                write!(f, "FEN: field {field} is {found:?}, expected '-'")
            }
            TrailingText { found } => write!(f, "FEN: unexpected trailing text {found:?}"),
        }
    }
}

impl std::error::Error for PositionParseError {}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The standard start position, red to move, move 1.
    pub fn start() -> Position {
        START_POSITION
    }

    /// Whether the pieces stand as at the start (whatever the side to move and counters).
    pub(crate) fn has_start_board(&self) -> bool {
        self.board == START_POSITION.board
    }

    /// An empty board with `side` to move at move 1.
    pub fn empty(side: Side) -> Position {
        Position {
            board: [None; 90],
            side_to_move: side,
            move_number: 1,
            halfmove_clock: 0,
        }
    }

    /// What stands on `p` (`None` when empty or off the board).
    pub fn piece_at(&self, p: Point) -> Option<Piece> {
        if p.is_on_board() {
            self.board[p.index()]
        } else {
            None
        }
    }

    /// Puts `piece` (or nothing) on the on-board point `p`.
    ///
    /// # Panics
    /// If `p` is off the board.
    pub fn set_piece(&mut self, p: Point, piece: Option<Piece>) {
        assert!(p.is_on_board(), "point {p:?} is off the board");
        self.board[p.index()] = piece;
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, side: Side) {
        self.side_to_move = side;
    }

    /// The move number (1 at the start; it grows after each black move).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Sets the move number.
    pub fn set_move_number(&mut self, n: u32) {
        self.move_number = n;
    }

    /// Plies since the last capture (FEN field 5).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// All pieces with their points, row by row from the top.
    pub fn pieces(&self) -> impl Iterator<Item = (Point, Piece)> + '_ {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (Point::from_index(i), p)))
    }

    /// Where `side`'s king stands (the first one found, if there are several).
    pub fn king(&self, side: Side) -> Option<Point> {
        let ys = match side {
            Side::Red => 7..=9,
            Side::Black => 0..=2,
        };
        for y in ys {
            for x in 3..=5 {
                let p = Point { x, y };
                if self.board[p.index()] == Some(Piece::new(side, PieceKind::King)) {
                    return Some(p);
                }
            }
        }
        self.pieces()
            .find(|&(_, pc)| pc == Piece::new(side, PieceKind::King))
            .map(|(p, _)| p)
    }

    /// Reads a standard xiangqi FEN (`rnbakabnr/9/... w - - 0 1`). The side may be `w` or
    /// `r` for red, `b` for black; the fields after the side are optional.
    pub fn from_fen(text: &str) -> Result<Position, PositionParseError> {
        const F: PositionFormat = PositionFormat::Fen;
        if text == START_FEN {
            return Ok(START_POSITION);
        }
        let mut fields = text.split_whitespace();
        let placement = fields
            .next()
            .ok_or(PositionParseError::Empty { format: F })?;
        let mut pos = Position::empty(Side::Red);
        // The rows are counted first (a wrong count is the error reported, whatever the
        // rows hold), then walked in one pass over the characters: a record reader parses
        // one FEN per record.
        let count = placement.bytes().filter(|&b| b == b'/').count() + 1;
        if count != HEIGHT as usize {
            return Err(PositionParseError::RowCount { found: count });
        }
        let (mut x, mut y) = (0usize, 0usize);
        // `index` is the byte offset of `c` in the placement.
        for (index, c) in placement.char_indices() {
            if c == '/' {
                if x != WIDTH as usize {
                    return Err(PositionParseError::RowWidth {
                        row: y + 1,
                        found: x,
                    });
                }
                (x, y) = (0, y + 1);
            } else if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(PositionParseError::ZeroRun { format: F, index });
                }
                x += d as usize;
            } else if let Some(piece) = Piece::from_fen_char(c) {
                if x < WIDTH as usize {
                    pos.board[y * WIDTH as usize + x] = Some(piece);
                }
                x += 1;
            } else {
                return Err(PositionParseError::UnknownPiece {
                    format: F,
                    letter: c,
                    index,
                });
            }
        }
        if x != WIDTH as usize {
            return Err(PositionParseError::RowWidth {
                row: y + 1,
                found: x,
            });
        }
        match fields.next() {
            None => return Err(PositionParseError::MissingSide { format: F }),
            Some("w") | Some("r") | Some("W") | Some("R") => pos.side_to_move = Side::Red,
            Some("b") | Some("B") => pos.side_to_move = Side::Black,
            Some(s) => {
                return Err(PositionParseError::BadSide {
                    format: F,
                    found: s.to_string(),
                })
            }
        }
        for field in [3, 4] {
            match fields.next() {
                None => return Ok(pos),
                Some("-") => {}
                Some(s) => {
                    return Err(PositionParseError::BadField {
                        field,
                        found: s.to_string(),
                    })
                }
            }
        }
        match fields.next() {
            None => return Ok(pos),
            Some(s) => {
                pos.halfmove_clock =
                    s.parse()
                        .map_err(|_| PositionParseError::BadHalfmoveClock {
                            found: s.to_string(),
                        })?
            }
        }
        match fields.next() {
            None => return Ok(pos),
            Some(s) => pos.move_number = parse_move_number(F, s)?,
        }
        let rest: Vec<&str> = fields.collect();
        if !rest.is_empty() {
            return Err(PositionParseError::TrailingText {
                found: rest.join(" "),
            });
        }
        Ok(pos)
    }

    /// The FEN, always with all six fields (`... w - - 0 1`).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for y in 0..HEIGHT as usize {
            if y > 0 {
                s.push('/');
            }
            let mut run = 0;
            for x in 0..WIDTH as usize {
                match self.board[y * WIDTH as usize + x] {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            s.push_str(&run.to_string());
                            run = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
        }
        let side = match self.side_to_move {
            Side::Red => 'w',
            Side::Black => 'b',
        };
        format!(
            "{s} {side} - - {} {}",
            self.halfmove_clock, self.move_number
        )
    }

    /// Reads a 2007 CBF Board string (`<placement>-<side><move number>`). An empty (or
    /// all-blank) string means the standard start position.
    pub fn from_board_string(text: &str) -> Result<Position, PositionParseError> {
        const F: PositionFormat = PositionFormat::Board2007;
        let text = text.trim();
        if text.is_empty() || text == START_BOARD {
            return Ok(START_POSITION);
        }
        let (placement, tail) = text
            .split_once('-')
            .ok_or(PositionParseError::MissingSeparator)?;
        let mut pos = Position::empty(Side::Red);
        let mut count = 0usize;
        let mut chars = placement.char_indices().peekable();
        while let Some((index, c)) = chars.next() {
            if c.is_ascii_digit() {
                let mut run = c.to_digit(10).unwrap_or(0) as usize;
                while let Some(&(_, d)) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    run = run
                        .saturating_mul(10)
                        .saturating_add(d.to_digit(10).unwrap_or(0) as usize);
                    chars.next();
                }
                if run == 0 {
                    return Err(PositionParseError::ZeroRun { format: F, index });
                }
                count = count.saturating_add(run);
            } else if let Some(piece) = Piece::from_cbf_char(c) {
                if count < 90 {
                    pos.board[count] = Some(piece);
                }
                count = count.saturating_add(1);
            } else {
                return Err(PositionParseError::UnknownPiece {
                    format: F,
                    letter: c,
                    index,
                });
            }
        }
        if count != 90 {
            return Err(PositionParseError::PointCount { found: count });
        }
        let mut tail_chars = tail.chars();
        match tail_chars.next() {
            None => return Err(PositionParseError::MissingSide { format: F }),
            Some('r') | Some('R') => pos.side_to_move = Side::Red,
            Some('b') | Some('B') => pos.side_to_move = Side::Black,
            Some(c) => {
                return Err(PositionParseError::BadSide {
                    format: F,
                    found: c.to_string(),
                })
            }
        }
        pos.move_number = parse_move_number(F, tail_chars.as_str())?;
        Ok(pos)
    }

    /// The 2007 CBF Board string; runs of empty points cross row ends (`10`, `18`).
    pub fn to_board_string(&self) -> String {
        let mut s = String::with_capacity(64);
        let mut run = 0;
        for p in self.board.iter() {
            match p {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push(p.cbf_char());
                }
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        let side = match self.side_to_move {
            Side::Red => 'r',
            Side::Black => 'b',
        };
        format!("{s}-{side}{}", self.move_number)
    }
}

fn parse_move_number(format: PositionFormat, s: &str) -> Result<u32, PositionParseError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionParseError::BadMoveNumber {
            format,
            found: s.to_string(),
        });
    }
    let n: u32 = s.parse().map_err(|_| PositionParseError::BadMoveNumber {
        format,
        found: s.to_string(),
    })?;
    if n == 0 {
        return Err(PositionParseError::MoveNumberZero { format });
    }
    Ok(n)
}

impl fmt::Display for Position {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let a = Position::from_fen(START_FEN).unwrap();
        let b = Position::from_board_string(START_BOARD).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_fen(), START_FEN);
        assert_eq!(a.to_board_string(), START_BOARD);
        assert_eq!(Position::from_board_string("").unwrap(), a);
        assert_eq!(
            a.piece_at(Point { x: 7, y: 7 }),
            Some(Piece::new(Side::Red, PieceKind::Cannon))
        );
        assert_eq!(
            a.piece_at(Point { x: 0, y: 3 }),
            Some(Piece::new(Side::Black, PieceKind::Pawn))
        );
        let short =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r");
        assert_eq!(short.unwrap(), a);
    }

    /// The start position as built when compiling, and as its texts read the long way
    /// (spelt so that they are not taken for the start texts at a glance).
    #[test]
    fn start_is_its_texts_parsed() {
        assert_eq!(
            Position::from_fen(&format!(" {START_FEN}")),
            Ok(START_POSITION)
        );
        let board = START_BOARD.replace("-r1", "-R01");
        assert_eq!(Position::from_board_string(&board), Ok(START_POSITION));
        assert!(START_POSITION.has_start_board());
        assert!(!Position::empty(Side::Red).has_start_board());
    }

    #[test]
    fn board_string_errors() {
        use PositionParseError::*;
        let e = |s: &str| Position::from_board_string(s).unwrap_err();
        assert_eq!(
            e("jmxswsxmj10p5p1b1b1b1b1b18B1B1B1B1B1P5P10JMXSWSXM-r1"),
            PointCount { found: 89 }
        );
        assert_eq!(
            e("jmxswsxmj10p5p1b1b1b1b1b18B1B1B1B1B1P5P10JMXSWSXMJJ-r1"),
            PointCount { found: 91 }
        );
        assert!(matches!(
            e("jmxswsxmjq9p5p1b1b1b1b1b18B1B1B1B1B1P5P10JMXSWSXMJ-r1"),
            UnknownPiece {
                letter: 'q',
                index: 9,
                ..
            }
        ));
        assert!(matches!(
            e(&START_BOARD.replace("-r1", "-x1")),
            BadSide { .. }
        ));
        assert!(matches!(
            e(&START_BOARD.replace("-r1", "-r0")),
            MoveNumberZero { .. }
        ));
        assert!(matches!(
            e(&START_BOARD.replace("-r1", "-r")),
            BadMoveNumber { .. }
        ));
        assert_eq!(e(&START_BOARD.replace("-r1", "")), MissingSeparator);
        let msg = e("jmxswsxmjq9p5p1b1b1b1b1b18B1B1B1B1B1P5P10JMXSWSXMJ-r1").to_string();
        assert!(msg.contains("'q'") && msg.contains("index 9"), "{msg}");
    }

    #[test]
    fn fen_errors() {
        use PositionParseError::*;
        let e = |s: &str| Position::from_fen(s).unwrap_err();
        assert_eq!(
            e("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            RowWidth { row: 2, found: 8 }
        );
        assert_eq!(
            e("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w"),
            RowWidth { row: 10, found: 10 }
        );
        assert_eq!(
            e("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w"),
            RowCount { found: 9 }
        );
        assert!(matches!(
            e("rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            UnknownPiece {
                letter: 'x',
                index: 8,
                ..
            }
        ));
        assert!(matches!(
            e("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
            BadSide { .. }
        ));
        assert!(matches!(
            e("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0"),
            MoveNumberZero { .. }
        ));
        assert!(matches!(
            e("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"),
            MissingSide { .. }
        ));
    }
}
