//! Move notation for output: Chinese (WXF) notation such as `炮二平五` / `马２进３`, and the
//! WXF ASCII notation such as `C2.5` / `H8+7`. (ICCS `h2e2` and CBF `77-47` are the
//! [`Display`](std::fmt::Display) and [`Move::cbf`] of [`Move`].)
//!
//! # Conventions
//!
//! * Files are counted from each player's right: red's files 一..九 (red's right is the
//!   right as drawn, so x = 7 is 二), black's files with full-width digits １..９ (black's
//!   right is the left as drawn, so x = 7 is ８).
//! * Verbs: 进 forward (towards the opponent), 退 back, 平 sideways. After 平, and after any
//!   move of a horse, elephant or advisor, the number is the destination file; after a
//!   straight 进/退 of a rook, cannon, king or pawn it is the number of rows moved. Numbers
//!   are written in the mover's digits (Chinese numerals for red, full-width for black).
//! * Two like pieces on one file: 前 (front, closer to the opponent) / 后 (rear) take the
//!   place of the file number: `前炮进一`. Advisors and elephants are never marked this
//!   way: the verb already tells which one moves (national rules; WXF `A6+5`).
//! * Pawns, following the Chinese national rules and the WXF tandem-pawn rules: three on
//!   one file are 前/中/后; four or five are 一/二/三/四/五 counted from the front
//!   (`二兵平四`; the order words are Chinese numerals for both sides). When two files
//!   each carry two or more pawns of the mover (tandem pawns on two files; at most 2+3
//!   pawns), the order word is followed by the pawn's file number instead of the piece
//!   name: `前七平六`, `中３平４`.
//! * WXF ASCII: letters R H E A K C P; operators `+` forward, `-` back, `.` sideways;
//!   tandem pieces `C+.5` / `C--1`; three pawns `P+` / `P<file>` (middle) / `P-`; four or
//!   five pawns `++`, `P+`, (`P<file>` middle of five), `P-`, `--`; tandem pawns on two
//!   files `<file>+`, `<file><file>` (middle), `<file>-` (e.g. `3+.4`, `33.4`, `7-.6`),
//!   as in the WXF's official notation page.

use std::fmt;

use crate::position::Position;
use crate::rules::IllegalMove;
use crate::types::{Move, PieceKind, Point, Side};

const RED_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The mover's file number 1..9 of column `x`, counted from the mover's right.
pub fn file_number(side: Side, x: u8) -> u8 {
    match side {
        Side::Red => 9 - x,
        Side::Black => x + 1,
    }
}

fn digit(side: Side, n: u8) -> char {
    let i = (n.clamp(1, 9) - 1) as usize;
    match side {
        Side::Red => RED_DIGITS[i],
        Side::Black => BLACK_DIGITS[i],
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Verb {
    Forward,
    Back,
    Sideways,
}

/// What both notations need to know about a move.
struct Described {
    side: Side,
    kind: PieceKind,
    file: u8,
    verb: Verb,
    number: u8,
    /// 0-based rank of the piece among like pieces on its file, from the front.
    order: usize,
    /// How many like pieces share the file (1 when it needs no marking).
    count: usize,
    /// Tandem pawns on two files.
    two_files: bool,
}

fn describe(pos: &Position, mv: Move) -> Result<Described, IllegalMove> {
    pos.check_move(mv)?;
    let piece = pos
        .piece_at(mv.from)
        .ok_or(IllegalMove::NoPiece { at: mv.from })?;
    let side = piece.side;
    let kind = piece.kind;
    let dy = mv.to.y as i8 - mv.from.y as i8;
    let verb = if dy == 0 {
        Verb::Sideways
    } else if dy.signum() == side.forward() {
        Verb::Forward
    } else {
        Verb::Back
    };
    let diagonal = matches!(
        kind,
        PieceKind::Horse | PieceKind::Elephant | PieceKind::Advisor
    );
    let number = if verb == Verb::Sideways || diagonal {
        file_number(side, mv.to.x)
    } else {
        dy.unsigned_abs()
    };
    let same_file = |x: u8| -> Vec<Point> {
        let mut v: Vec<Point> = (0..10u8)
            .map(|y| Point { x, y })
            .filter(|&p| pos.piece_at(p) == Some(piece))
            .collect();
        if side == Side::Black {
            v.reverse();
        }
        v
    };
    let mut order = 0;
    let mut count = 1;
    let mut two_files = false;
    if !matches!(kind, PieceKind::Advisor | PieceKind::Elephant) {
        let here = same_file(mv.from.x);
        if here.len() >= 2 {
            count = here.len();
            order = here.iter().position(|&p| p == mv.from).unwrap_or(0);
            if kind == PieceKind::Pawn {
                two_files = (0..9u8)
                    .filter(|&x| x != mv.from.x)
                    .any(|x| same_file(x).len() >= 2);
            }
        }
    }
    Ok(Described {
        side,
        kind,
        file: file_number(side, mv.from.x),
        verb,
        number,
        order,
        count,
        two_files,
    })
}

fn chinese_order_word(order: usize, count: usize) -> char {
    match count {
        2 => ['前', '后'][order.min(1)],
        3 => ['前', '中', '后'][order.min(2)],
        _ => RED_DIGITS[order.min(8)],
    }
}

impl Position {
    /// The Chinese (WXF) notation of the legal move `mv`, e.g. `炮二平五`, `马２进３`.
    /// See the [module documentation](crate::notation) for the conventions.
    pub fn to_chinese(&self, mv: Move) -> Result<String, IllegalMove> {
        let d = describe(self, mv)?;
        let name = crate::types::Piece::new(d.side, d.kind).chinese_name();
        let mut s = String::new();
        if d.count >= 2 {
            s.push(chinese_order_word(d.order, d.count));
            if d.two_files {
                s.push(digit(d.side, d.file));
            } else {
                s.push(name);
            }
        } else {
            s.push(name);
            s.push(digit(d.side, d.file));
        }
        s.push(match d.verb {
            Verb::Forward => '进',
            Verb::Back => '退',
            Verb::Sideways => '平',
        });
        s.push(digit(d.side, d.number));
        Ok(s)
    }

    /// The WXF ASCII notation of the legal move `mv`, e.g. `C2.5`, `H8+7`, `C+.5`.
    /// See the [module documentation](crate::notation) for the conventions.
    pub fn to_wxf(&self, mv: Move) -> Result<String, IllegalMove> {
        let d = describe(self, mv)?;
        let letter = d.kind.wxf_letter();
        let file = char::from(b'0' + d.file);
        let mut s = String::new();
        if d.count < 2 {
            s.push(letter);
            s.push(file);
        } else if d.two_files {
            s.push(file);
            s.push(match (d.order, d.count) {
                (0, _) => '+',
                (o, c) if o + 1 == c => '-',
                _ => file,
            });
        } else {
            let marks: &[&str] = match d.count {
                2 => &["P+", "P-"],
                3 => &["P+", "P*", "P-"],
                4 => &["++", "P+", "P-", "--"],
                _ => &["++", "P+", "P*", "P-", "--"],
            };
            let m = marks[d.order.min(marks.len() - 1)];
            for c in m.chars() {
                s.push(match c {
                    'P' => letter,
                    '*' => file,
                    c => c,
                });
            }
        }
        s.push(match d.verb {
            Verb::Forward => '+',
            Verb::Back => '-',
            Verb::Sideways => '.',
        });
        s.push(char::from(b'0' + d.number));
        Ok(s)
    }
}

/// Why a Chinese or WXF move text could not be read in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// No legal move of the side to move is written this way.
    NoLegalMove {
        /// The text as given.
        text: String,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::NoLegalMove { text } => {
                write!(f, "no legal move of the side to move reads {text:?}")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Folds the spellings of Chinese notation onto one: traditional characters, the red and
/// black names of a piece, and every digit form (Chinese numerals, full-width, ASCII).
fn fold_chinese(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '車' | '俥' | '伡' => '车',
            '馬' | '傌' | '㐷' => '马',
            '相' => '象',
            '仕' => '士',
            '帥' | '將' | '帅' => '将',
            '砲' | '包' => '炮',
            '兵' => '卒',
            '進' => '进',
            '後' => '后',
            c => match RED_DIGITS.iter().position(|&d| d == c) {
                Some(i) => char::from(b'1' + i as u8),
                None => match BLACK_DIGITS.iter().position(|&d| d == c) {
                    Some(i) => char::from(b'1' + i as u8),
                    None => c,
                },
            },
        })
        .collect()
}

impl Position {
    /// Reads a move of the side to move in Chinese notation (as written by
    /// [`Position::to_chinese`], also with traditional characters, either side's piece
    /// names and any digit form: the side is the position's, not the text's).
    pub fn parse_chinese(&self, text: &str) -> Result<Move, NotationError> {
        let want = fold_chinese(text);
        self.legal_moves()
            .into_iter()
            .find(|&m| self.to_chinese(m).is_ok_and(|s| fold_chinese(&s) == want))
            .ok_or_else(|| NotationError::NoLegalMove {
                text: text.to_string(),
            })
    }

    /// Reads a move in WXF ASCII notation (as written by [`Position::to_wxf`]; `=` is
    /// accepted for `.`, letters in either case).
    pub fn parse_wxf(&self, text: &str) -> Result<Move, NotationError> {
        let fold = |s: &str| -> String {
            s.trim()
                .chars()
                .map(|c| {
                    if c == '=' {
                        '.'
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let want = fold(text);
        self.legal_moves()
            .into_iter()
            .find(|&m| self.to_wxf(m).is_ok_and(|s| fold(&s) == want))
            .ok_or_else(|| NotationError::NoLegalMove {
                text: text.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cbf(s: &str) -> Move {
        Move::parse_cbf(s).unwrap()
    }

    #[test]
    fn seed_opening() {
        let mut p = Position::start();
        let mut chinese = Vec::new();
        let mut wxf = Vec::new();
        for m in ["77-47", "10-22", "79-67", "72-52"] {
            let m = cbf(m);
            chinese.push(p.to_chinese(m).unwrap());
            wxf.push(p.to_wxf(m).unwrap());
            p.play(m).unwrap();
        }
        assert_eq!(chinese, ["炮二平五", "马２进３", "马二进三", "炮８平６"]);
        assert_eq!(wxf, ["C2.5", "H2+3", "H2+3", "C8.6"]);
    }

    #[test]
    fn straight_and_diagonal_numbers() {
        let p = Position::start();
        // 车一进一 (a0a1 is red's rook on file 九; i0i1 is file 一).
        assert_eq!(
            p.to_chinese(Move::parse_iccs("i0i1").unwrap()).unwrap(),
            "车一进一"
        );
        assert_eq!(
            p.to_chinese(Move::parse_iccs("g3g4").unwrap()).unwrap(),
            "兵三进一"
        );
        assert_eq!(
            p.to_chinese(Move::parse_iccs("c0e2").unwrap()).unwrap(),
            "相七进五"
        );
        assert_eq!(
            p.to_chinese(Move::parse_iccs("f0e1").unwrap()).unwrap(),
            "仕四进五"
        );
        assert_eq!(
            p.to_chinese(Move::parse_iccs("e0e1").unwrap()).unwrap(),
            "帅五进一"
        );
        assert_eq!(p.to_wxf(Move::parse_iccs("e0e1").unwrap()).unwrap(), "K5+1");
    }

    #[test]
    fn tandem_pieces() {
        // Two red cannons on the e-file; black cannons on b-file.
        let p = Position::from_fen("3k5/9/1c7/9/1c7/4C4/9/4C4/9/4K4 w").unwrap();
        assert_eq!(
            p.to_chinese(Move::parse_iccs("e4d4").unwrap()).unwrap(),
            "前炮平六"
        );
        assert_eq!(
            p.to_chinese(Move::parse_iccs("e2e1").unwrap()).unwrap(),
            "后炮退一"
        );
        assert_eq!(p.to_wxf(Move::parse_iccs("e4d4").unwrap()).unwrap(), "C+.6");
        assert_eq!(p.to_wxf(Move::parse_iccs("e2e1").unwrap()).unwrap(), "C--1");
        let mut b = p.clone();
        b.set_side_to_move(Side::Black);
        // Black's front cannon is the one closer to red: b5 (y = 4).
        assert_eq!(
            b.to_chinese(Move::parse_iccs("b5c5").unwrap()).unwrap(),
            "前炮平３"
        );
        assert_eq!(
            b.to_chinese(Move::parse_iccs("b7b8").unwrap()).unwrap(),
            "后炮退１"
        );
    }

    #[test]
    fn tandem_pawns() {
        // Three red pawns on file 七 (x = 2), beyond the river.
        let p = Position::from_fen("3k5/2P6/2P6/2P6/9/9/9/9/9/4K4 w").unwrap();
        let c = |s: &str| p.to_chinese(Move::parse_iccs(s).unwrap()).unwrap();
        let w = |s: &str| p.to_wxf(Move::parse_iccs(s).unwrap()).unwrap();
        assert_eq!(c("c8d8"), "前兵平六");
        assert_eq!(c("c7d7"), "中兵平六");
        assert_eq!(c("c6d6"), "后兵平六");
        assert_eq!(w("c8d8"), "P+.6");
        assert_eq!(w("c7d7"), "P7.6");
        assert_eq!(w("c6d6"), "P-.6");
        // Five pawns on one file.
        let p = Position::from_fen("2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w").unwrap();
        let c = |s: &str| p.to_chinese(Move::parse_iccs(s).unwrap()).unwrap();
        let w = |s: &str| p.to_wxf(Move::parse_iccs(s).unwrap()).unwrap();
        assert_eq!(c("c9d9"), "一兵平六");
        assert_eq!(c("c8d8"), "二兵平六");
        assert_eq!(c("c6b6"), "四兵平八");
        assert_eq!(c("c5d5"), "五兵平六");
        assert_eq!(w("c9d9"), "++.6");
        assert_eq!(w("c8d8"), "P+.6");
        assert_eq!(w("c7d7"), "P7.6");
        assert_eq!(w("c6d6"), "P-.6");
        assert_eq!(w("c5d5"), "--.6");
        // Tandem pawns on two files: three on 七 (x = 2), two on 三 (x = 6).
        let p = Position::from_fen("3k5/2P3P2/2P3P2/2P6/9/9/9/9/9/4K4 w").unwrap();
        let c = |s: &str| p.to_chinese(Move::parse_iccs(s).unwrap()).unwrap();
        let w = |s: &str| p.to_wxf(Move::parse_iccs(s).unwrap()).unwrap();
        assert_eq!(c("c8d8"), "前七平六");
        assert_eq!(c("c7d7"), "中七平六");
        assert_eq!(c("g7f7"), "后三平四");
        assert_eq!(w("c8d8"), "7+.6");
        assert_eq!(w("c7d7"), "77.6");
        assert_eq!(w("c6d6"), "7-.6");
        assert_eq!(w("g8f8"), "3+.4");
        // Black pawns: front is the one closer to red (larger y).
        let p = Position::from_fen("3k5/9/9/9/9/9/6p2/6p2/9/4K4 b").unwrap();
        let c = |s: &str| p.to_chinese(Move::parse_iccs(s).unwrap()).unwrap();
        assert_eq!(c("g2f2"), "前卒平６");
        assert_eq!(c("g3f3"), "后卒平６");
    }

    #[test]
    fn parse_back() {
        let p = Position::start();
        let h2e2 = Move::parse_iccs("h2e2").unwrap();
        assert_eq!(p.parse_chinese("炮二平五"), Ok(h2e2));
        assert_eq!(p.parse_chinese("砲2平5"), Ok(h2e2));
        assert_eq!(p.parse_wxf("c2=5"), Ok(h2e2));
        assert_eq!(
            p.parse_chinese("炮二进九").unwrap_err().to_string(),
            "no legal move of the side to move reads \"炮二进九\""
        );
        let mut b = p.after(h2e2).unwrap();
        assert_eq!(
            b.parse_chinese("马２进３"),
            Ok(Move::parse_cbf("10-22").unwrap())
        );
        assert_eq!(
            b.parse_chinese("馬2進3"),
            Ok(Move::parse_cbf("10-22").unwrap())
        );
        b.play(Move::parse_cbf("10-22").unwrap()).unwrap();
        // Digits and names are folded: the side comes from the position.
        assert_eq!(
            b.parse_chinese("马２进３"),
            Ok(Move::parse_cbf("79-67").unwrap())
        );
    }

    #[test]
    fn illegal_moves_have_no_notation() {
        let p = Position::start();
        assert!(p.to_chinese(Move::parse_iccs("e3e5").unwrap()).is_err());
    }
}
