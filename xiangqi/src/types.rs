//! The vocabulary of the game: sides, pieces, points of the board and moves, with the CBF
//! (`XY-XY`) and ICCS (`h2e2`) spellings of points and moves.

use std::fmt;

/// Number of columns (files) of the board.
pub const WIDTH: u8 = 9;
/// Number of rows (ranks) of the board.
pub const HEIGHT: u8 = 10;

/// One of the two players. Red moves first and is drawn at the bottom (rows 5..9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Red (帅's side), drawn at the bottom, moves first.
    Red,
    /// Black (将's side), drawn at the top.
    Black,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// The lower-case English name, as used in messages (`red`, `black`).
    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Black => "black",
        }
    }

    /// The row step that goes forward (towards the opponent) for this side.
    pub(crate) fn forward(self) -> i8 {
        match self {
            Side::Red => -1,
            Side::Black => 1,
        }
    }

    /// Whether row `y` lies on this side's own half of the board (before the river).
    pub(crate) fn own_half(self, y: u8) -> bool {
        match self {
            Side::Red => y >= 5,
            Side::Black => y <= 4,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of xiangqi pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 车 rook (chariot).
    Rook,
    /// 马 horse (knight).
    Horse,
    /// 相/象 elephant (minister).
    Elephant,
    /// 仕/士 advisor (guard).
    Advisor,
    /// 帅/将 king (general).
    King,
    /// 炮 cannon.
    Cannon,
    /// 兵/卒 pawn (soldier).
    Pawn,
}

impl PieceKind {
    /// All kinds, in declaration order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Elephant,
        PieceKind::Advisor,
        PieceKind::King,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// The lower-case English name used in messages (`rook`, `horse`, ...).
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::Rook => "rook",
            PieceKind::Horse => "horse",
            PieceKind::Elephant => "elephant",
            PieceKind::Advisor => "advisor",
            PieceKind::King => "king",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }

    /// How many pieces of this kind each side has at the start.
    pub fn start_count(self) -> usize {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The WXF letter (`R H E A K C P`).
    pub fn wxf_letter(self) -> char {
        match self {
            PieceKind::Rook => 'R',
            PieceKind::Horse => 'H',
            PieceKind::Elephant => 'E',
            PieceKind::Advisor => 'A',
            PieceKind::King => 'K',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a kind owned by a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub side: Side,
    /// The kind.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `side` and `kind`.
    pub const fn new(side: Side, kind: PieceKind) -> Piece {
        Piece { side, kind }
    }

    /// The FEN letter: `r n b a k c p`, upper case for red.
    pub fn fen_char(self) -> char {
        let c = match self.kind {
            PieceKind::Rook => 'r',
            PieceKind::Horse => 'n',
            PieceKind::Elephant => 'b',
            PieceKind::Advisor => 'a',
            PieceKind::King => 'k',
            PieceKind::Cannon => 'c',
            PieceKind::Pawn => 'p',
        };
        self.cased(c)
    }

    /// The piece for a FEN letter (`r n b a k c p`, also `h` horse and `e` elephant as
    /// written by some tools), upper case red.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_lowercase() {
            'r' => PieceKind::Rook,
            'n' | 'h' => PieceKind::Horse,
            'b' | 'e' => PieceKind::Elephant,
            'a' => PieceKind::Advisor,
            'k' => PieceKind::King,
            'c' => PieceKind::Cannon,
            'p' => PieceKind::Pawn,
            _ => return None,
        };
        Some(Piece::new(Self::case_side(c), kind))
    }

    /// The letter of the 2007 CBF Board string: `J M X S W P B` (rook, horse, elephant,
    /// advisor, king, cannon, pawn), upper case red.
    pub fn cbf_char(self) -> char {
        let c = match self.kind {
            PieceKind::Rook => 'j',
            PieceKind::Horse => 'm',
            PieceKind::Elephant => 'x',
            PieceKind::Advisor => 's',
            PieceKind::King => 'w',
            PieceKind::Cannon => 'p',
            PieceKind::Pawn => 'b',
        };
        self.cased(c)
    }

    /// The piece for a letter of the 2007 CBF Board string.
    pub fn from_cbf_char(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_lowercase() {
            'j' => PieceKind::Rook,
            'm' => PieceKind::Horse,
            'x' => PieceKind::Elephant,
            's' => PieceKind::Advisor,
            'w' => PieceKind::King,
            'p' => PieceKind::Cannon,
            'b' => PieceKind::Pawn,
            _ => return None,
        };
        Some(Piece::new(Self::case_side(c), kind))
    }

    /// The Chinese name: red 车 马 相 仕 帅 炮 兵, black 车 马 象 士 将 炮 卒.
    pub fn chinese_name(self) -> char {
        match (self.side, self.kind) {
            (_, PieceKind::Rook) => '车',
            (_, PieceKind::Horse) => '马',
            (_, PieceKind::Cannon) => '炮',
            (Side::Red, PieceKind::Elephant) => '相',
            (Side::Black, PieceKind::Elephant) => '象',
            (Side::Red, PieceKind::Advisor) => '仕',
            (Side::Black, PieceKind::Advisor) => '士',
            (Side::Red, PieceKind::King) => '帅',
            (Side::Black, PieceKind::King) => '将',
            (Side::Red, PieceKind::Pawn) => '兵',
            (Side::Black, PieceKind::Pawn) => '卒',
        }
    }

    fn cased(self, c: char) -> char {
        match self.side {
            Side::Red => c.to_ascii_uppercase(),
            Side::Black => c,
        }
    }

    fn case_side(c: char) -> Side {
        if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.side, self.kind)
    }
}

/// A point of the board: `x` is the column 0..8 from the left as drawn (red at the bottom),
/// `y` the row 0..9 from the top (row 0 is black's back rank, row 9 red's).
///
/// Displays as its ICCS name: file `abcdefghi`\[x\], rank `9 - y` (e.g. `e8`).
/// The fields are public so that a caller can hold an off-board point taken from a record;
/// [`Point::is_on_board`] tells, and the rules report such points as errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column from the left as drawn, 0..=8.
    pub x: u8,
    /// Row from the top (black's back rank), 0..=9.
    pub y: u8,
}

impl Point {
    /// The point (x, y), or `None` when it is off the board.
    pub fn new(x: u8, y: u8) -> Option<Point> {
        let p = Point { x, y };
        p.is_on_board().then_some(p)
    }

    /// Whether x < 9 and y < 10.
    pub fn is_on_board(self) -> bool {
        self.x < WIDTH && self.y < HEIGHT
    }

    /// Board index `y * 9 + x` (0..90) of an on-board point.
    pub fn index(self) -> usize {
        self.y as usize * WIDTH as usize + self.x as usize
    }

    /// The point of a board index 0..90.
    pub fn from_index(i: usize) -> Point {
        Point {
            x: (i % WIDTH as usize) as u8,
            y: (i / WIDTH as usize) as u8,
        }
    }

    /// The ICCS file letter `a`..`i` (`?` off the board).
    pub fn iccs_file(self) -> char {
        if self.x < WIDTH {
            (b'a' + self.x) as char
        } else {
            '?'
        }
    }

    /// The ICCS rank 0..9 (`9 - y`).
    pub fn iccs_rank(self) -> u8 {
        9u8.wrapping_sub(self.y)
    }

    /// The ICCS name, e.g. `h2` for (7, 7).
    pub fn iccs(self) -> String {
        self.to_string()
    }

    /// The two CBF digits `XY`, e.g. `77`.
    pub fn cbf(self) -> String {
        let mut s = String::with_capacity(2);
        self.push_cbf(&mut s);
        s
    }

    /// Appends [`Point::cbf`] to `s` (writers of long move lists call it once a move:
    /// two pushes rather than a `format!`).
    fn push_cbf(self, s: &mut String) {
        if self.x < 10 && self.y < 10 {
            s.push(char::from(b'0' + self.x));
            s.push(char::from(b'0' + self.y));
        } else {
            // Off-board points as constructed by hand: the numbers as they are.
            s.push_str(&format!("{}{}", self.x, self.y));
        }
    }

    /// Parses an ICCS point name such as `h2` (letters a-i, either case; rank 0-9).
    pub fn parse_iccs(s: &str) -> Result<Point, MoveParseError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(MoveParseError::BadPoint(s.to_string()));
        }
        let f = b[0].to_ascii_lowercase();
        if !(b'a'..=b'i').contains(&f) || !b[1].is_ascii_digit() {
            return Err(MoveParseError::BadPoint(s.to_string()));
        }
        Ok(Point {
            x: f - b'a',
            y: 9 - (b[1] - b'0'),
        })
    }

    /// Parses the two CBF digits `XY` (x 0-8, y 0-9).
    pub fn parse_cbf(s: &str) -> Result<Point, MoveParseError> {
        let b = s.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
            return Err(MoveParseError::BadPoint(s.to_string()));
        }
        let p = Point {
            x: b[0] - b'0',
            y: b[1] - b'0',
        };
        if !p.is_on_board() {
            return Err(MoveParseError::OffBoard(s.to_string()));
        }
        Ok(p)
    }

    pub(crate) fn offset(self, dx: i8, dy: i8) -> Option<Point> {
        let x = self.x as i8 + dx;
        let y = self.y as i8 + dy;
        if (0..WIDTH as i8).contains(&x) && (0..HEIGHT as i8).contains(&y) {
            Some(Point {
                x: x as u8,
                y: y as u8,
            })
        } else {
            None
        }
    }

    /// Whether the point lies in `side`'s palace (columns 3..5 of its three back rows).
    pub fn in_palace(self, side: Side) -> bool {
        (3..=5).contains(&self.x)
            && match side {
                Side::Red => (7..=9).contains(&self.y),
                Side::Black => self.y <= 2,
            }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_on_board() {
            write!(f, "{}{}", self.iccs_file(), self.iccs_rank())
        } else {
            write!(f, "({}, {})", self.x, self.y)
        }
    }
}

/// A move from one point to another. Displays as ICCS (`h2e2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the moving piece stands.
    pub from: Point,
    /// Where it goes.
    pub to: Point,
}

/// Why a move or point text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// The text does not have the expected shape (`XY-XY` or `h2e2`).
    BadShape(String),
    /// A point is not two digits / a file letter and a rank digit.
    BadPoint(String),
    /// A CBF point has a column 9 (off the board).
    OffBoard(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::BadShape(s) => write!(f, "not a move: {s:?}"),
            MoveParseError::BadPoint(s) => write!(f, "not a point: {s:?}"),
            MoveParseError::OffBoard(s) => {
                write!(f, "point {s:?} is off the board (x must be 0-8, y 0-9)")
            }
        }
    }
}

impl std::error::Error for MoveParseError {}

impl Move {
    /// The move from `from` to `to`.
    pub const fn new(from: Point, to: Point) -> Move {
        Move { from, to }
    }

    /// Parses CBF move text `XY-XY`, e.g. `77-47`.
    #[inline]
    pub fn parse_cbf(s: &str) -> Result<Move, MoveParseError> {
        // The shape of nearly every move, read straight from the bytes (a record has one per
        // move); anything else takes the general path, which names the problem. A byte
        // below `'0'` wraps around, so `d < 9` / `d < 10` also says it is a digit.
        if let &[x1, y1, b'-', x2, y2] = s.as_bytes() {
            let [x1, y1, x2, y2] = [x1, y1, x2, y2].map(|b| b.wrapping_sub(b'0'));
            if x1 < WIDTH && y1 < HEIGHT && x2 < WIDTH && y2 < HEIGHT {
                return Ok(Move {
                    from: Point { x: x1, y: y1 },
                    to: Point { x: x2, y: y2 },
                });
            }
        }
        Move::parse_cbf_general(s)
    }

    /// [`Move::parse_cbf`] for any text: splits at the `-` and reads each point.
    #[cold]
    fn parse_cbf_general(s: &str) -> Result<Move, MoveParseError> {
        let (a, b) = s
            .split_once('-')
            .ok_or_else(|| MoveParseError::BadShape(s.to_string()))?;
        if a.len() != 2 || b.len() != 2 {
            return Err(MoveParseError::BadShape(s.to_string()));
        }
        Ok(Move {
            from: Point::parse_cbf(a)?,
            to: Point::parse_cbf(b)?,
        })
    }

    /// Parses ICCS move text such as `h2e2` (also `H2-E2`).
    pub fn parse_iccs(s: &str) -> Result<Move, MoveParseError> {
        let t: String = s.chars().filter(|&c| c != '-').collect();
        if t.len() != 4 || !t.is_ascii() {
            return Err(MoveParseError::BadShape(s.to_string()));
        }
        Ok(Move {
            from: Point::parse_iccs(&t[..2])?,
            to: Point::parse_iccs(&t[2..])?,
        })
    }

    /// The CBF text `XY-XY`.
    pub fn cbf(self) -> String {
        let mut s = String::with_capacity(5);
        self.from.push_cbf(&mut s);
        s.push('-');
        self.to.push_cbf(&mut s);
        s
    }

    /// The ICCS text, e.g. `h2e2`.
    pub fn iccs(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbf_and_iccs() {
        let m = Move::parse_cbf("77-47").unwrap();
        assert_eq!(m.from, Point { x: 7, y: 7 });
        assert_eq!(m.iccs(), "h2e2");
        assert_eq!(m.cbf(), "77-47");
        assert_eq!(Move::parse_iccs("h2e2").unwrap(), m);
        assert_eq!(Point { x: 4, y: 1 }.to_string(), "e8");
        assert!(matches!(
            Move::parse_cbf("97-47"),
            Err(MoveParseError::OffBoard(_))
        ));
        assert!(Move::parse_cbf("7747").is_err());
        assert!(Move::parse_iccs("j2e2").is_err());
    }

    #[test]
    fn letters_round_trip() {
        for side in [Side::Red, Side::Black] {
            for kind in PieceKind::ALL {
                let p = Piece::new(side, kind);
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
                assert_eq!(Piece::from_cbf_char(p.cbf_char()), Some(p));
            }
        }
    }
}
