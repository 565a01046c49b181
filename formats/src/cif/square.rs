//! A CIF square as a value: file and rank numbers, and the optional 3D board letter and 4D
//! row, read from and written to the notation of SPEC.md (`e4`, `aa27`, `lll64`, `e4B`,
//! `e4B3`).
//!
//! The schema's pattern already decides which strings are squares; this type exists so
//! that the rules can compare a square with the board size and the renderer can place it,
//! and its parse errors say *why* a string is not a square (the pattern can only say that
//! it is not one).

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use boardxml::facets::{ExactParser, Restricted};
use boardxml::schema::{FacetError, SimpleValue};

/// The highest file and rank number any CIF board has (file `lll`, rank `64`).
pub const MAX_DIMENSION: u8 = 64;

/// The 3D board letters, in order.
const BOARD_LETTERS: std::ops::RangeInclusive<char> = 'A'..='H';

/// The highest 4D row.
const MAX_ROW: u8 = 8;

/// One square: a file (1..64), a rank (1..64), and for 3D/4D boards a board letter `A`..`H`
/// and, after it, a row `1`..`8`.
///
/// The order (`Ord`) is the reading order of a stack of boards: 2D squares first, then board
/// `A`, `A1`, `A2`, ..., `B`, ...; on one board by rank, then by file (`a1 < b1 < a2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    // Field order is the `Ord` order documented above.
    board: Option<char>,
    row: Option<u8>,
    rank: u8,
    file: u8,
}

impl Square {
    /// A square of a 2D board; `None` when a number is outside 1..64.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        let ok = |n: u8| (1..=MAX_DIMENSION).contains(&n);
        (ok(file) && ok(rank)).then_some(Square {
            file,
            rank,
            board: None,
            row: None,
        })
    }

    /// The same square on 3D board `board` (`A`..`H`) and, for 4D, row `row` (1..8); `None`
    /// when the letter or the row is out of range.
    pub fn with_board(self, board: char, row: Option<u8>) -> Option<Square> {
        let row_ok = row.is_none_or(|r| (1..=MAX_ROW).contains(&r));
        (BOARD_LETTERS.contains(&board) && row_ok).then_some(Square {
            board: Some(board),
            row,
            ..self
        })
    }

    /// The file number, 1..64 (`a` = 1, `z` = 26, `aa` = 27, `lll` = 64).
    pub fn file(self) -> u8 {
        self.file
    }

    /// The rank number, 1..64.
    pub fn rank(self) -> u8 {
        self.rank
    }

    /// The 3D board letter, `A`..`H`, if any.
    pub fn board(self) -> Option<char> {
        self.board
    }

    /// The 4D row, 1..8, if any (only ever with a board letter).
    pub fn row(self) -> Option<u8> {
        self.row
    }

    /// The square with its board letter and row dropped: where a 2D picture shows it.
    pub fn projection(self) -> Square {
        Square {
            board: None,
            row: None,
            ..self
        }
    }

    /// Whether both squares are on the same 3D/4D board (two 2D squares are).
    pub fn same_board(self, other: Square) -> bool {
        (self.board, self.row) == (other.board, other.row)
    }
}

/// The name of file `n` (1..64): `a`..`z`, then `aa`, `bb`..`zz`, then `aaa`..`lll`.
///
/// # Panics
/// When `n` is not in 1..64 (a [`Square`] never holds such a file).
pub fn file_name(n: u8) -> String {
    assert!((1..=MAX_DIMENSION).contains(&n), "file {n} is not in 1..64");
    let index = (n - 1) % 26;
    let times = usize::from((n - 1) / 26) + 1;
    let letter = char::from(b'a' + index);
    std::iter::repeat_n(letter, times).collect()
}

/// The number of file name `name`, if it is one (`a` = 1, `aa` = 27, `lll` = 64).
pub fn file_number(name: &str) -> Option<u8> {
    parse_file(name).ok()
}

/// Why a string is not a square.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    /// Nothing at all.
    #[error("a square cannot be empty")]
    Empty,
    /// The first character is not a lower-case letter.
    #[error("a square starts with its file, a lower-case letter a..z, not {found:?}")]
    NoFile {
        /// The character found first.
        found: char,
    },
    /// Letters that are not one file: mixed (`ab`), too many (`aaaa`), or past `lll`.
    #[error("{found} is not a file: {why}")]
    NotAFile {
        /// The letters.
        found: String,
        /// What the file names are, for this case.
        why: &'static str,
    },
    /// A file without a rank (`e`, or `eB`).
    #[error("file {file} has no rank after it (a rank is 1..64)")]
    NoRank {
        /// The file's name.
        file: String,
    },
    /// A rank of 0 or above 64.
    #[error("rank {found} is not on any board: ranks are 1..64")]
    RankOutOfRange {
        /// The rank as written.
        found: String,
    },
    /// A rank written with a leading zero (`a07`).
    #[error("rank {found} has a leading zero: write {}", found.trim_start_matches('0'))]
    RankLeadingZero {
        /// The rank as written.
        found: String,
    },
    /// A character after the rank that is not a 3D board letter (`e4I`).
    #[error("{found:?} is not a 3D board letter: the boards are A..H")]
    BoardLetter {
        /// The character found.
        found: char,
    },
    /// A 4D row outside 1..8 (`e4B9`, `e4B0`, `e4B12`).
    #[error("{found} is not a 4D row: after the board letter comes one digit 1..8")]
    Row {
        /// The row as written.
        found: String,
    },
    /// Anything after a complete square (`e4B3x`); a line's squares are split before.
    #[error("{found:?} after the square {square} is not part of a square")]
    Trailing {
        /// The square read so far.
        square: String,
        /// The rest.
        found: String,
    },
}

/// Why a line's content is not a list of squares: which square (1-based) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquaresError {
    /// Nothing at all.
    #[error("no squares: a line needs at least two")]
    Empty,
    /// Text before the first square (squares start with a lower-case letter).
    #[error("{found:?} before the first square: squares start with a lower-case file letter")]
    Leading {
        /// The text.
        found: String,
    },
    /// Square number `index` (1-based) is not a square.
    #[error("square {index} ({text}): {error}")]
    Square {
        /// Which square, counting from 1.
        index: usize,
        /// Its text.
        text: String,
        /// Why.
        error: SquareError,
    },
}

fn parse_file(letters: &str) -> Result<u8, SquareError> {
    let not_a_file = |why| {
        Err(SquareError::NotAFile {
            found: letters.to_string(),
            why,
        })
    };
    let bytes = letters.as_bytes();
    let Some(&first) = bytes.first() else {
        return Err(SquareError::Empty);
    };
    if !first.is_ascii_lowercase() {
        return Err(SquareError::NoFile {
            found: letters.chars().next().unwrap_or(' '),
        });
    }
    if bytes.iter().any(|&b| b != first) {
        return not_a_file("after z come aa, bb, ...");
    }
    let index = first - b'a' + 1;
    match bytes.len() {
        1 => Ok(index),
        2 => Ok(26 + index),
        3 if index <= 12 => Ok(52 + index),
        3 => not_a_file("the tripled files end at lll, the 64th"),
        _ => not_a_file("a file has at most three letters (the last is lll, the 64th)"),
    }
}

impl FromStr for Square {
    type Err = SquareError;

    /// Reads one square, exactly: no white space, nothing after it.
    fn from_str(s: &str) -> Result<Square, SquareError> {
        // Most squares are one file letter and a rank of one or two digits ("e4", "p12"):
        // read those at once; the rest (and every error) take the general path.
        if let [file @ b'a'..=b'z', rank @ ..] = s.as_bytes() {
            let rank = match *rank {
                [d @ b'1'..=b'9'] => Some(d - b'0'),
                [t @ b'1'..=b'9', u @ b'0'..=b'9'] => Some((t - b'0') * 10 + (u - b'0')),
                _ => None,
            };
            if let Some(rank @ 1..=64) = rank {
                return Ok(Square {
                    file: file - b'a' + 1,
                    rank,
                    board: None,
                    row: None,
                });
            }
        }
        parse_square(s)
    }
}

/// Any square, by the grammar (see [`Square`]'s `FromStr` for the shortcut taken first).
fn parse_square(s: &str) -> Result<Square, SquareError> {
    if s.is_empty() {
        return Err(SquareError::Empty);
    }
    let letters_end = s.find(|c: char| !c.is_ascii_lowercase()).unwrap_or(s.len());
    if letters_end == 0 {
        return Err(SquareError::NoFile {
            found: s.chars().next().unwrap_or(' '),
        });
    }
    let letters = &s[..letters_end];
    let file = parse_file(letters)?;
    let rest = &s[letters_end..];
    let digits_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let digits = &rest[..digits_end];
    if digits.is_empty() {
        return Err(SquareError::NoRank {
            file: letters.to_string(),
        });
    }
    if digits.len() > 1 && digits.starts_with('0') && !digits.trim_start_matches('0').is_empty() {
        return Err(SquareError::RankLeadingZero {
            found: digits.to_string(),
        });
    }
    let rank = match digits.parse::<u32>() {
        Ok(n @ 1..=64) => n as u8,
        _ => {
            return Err(SquareError::RankOutOfRange {
                found: digits.to_string(),
            })
        }
    };
    let square = Square {
        file,
        rank,
        board: None,
        row: None,
    };
    let rest = &rest[digits_end..];
    let mut chars = rest.chars();
    let Some(letter) = chars.next() else {
        return Ok(square);
    };
    if !BOARD_LETTERS.contains(&letter) {
        if letter.is_ascii_uppercase() {
            return Err(SquareError::BoardLetter { found: letter });
        }
        return Err(SquareError::Trailing {
            square: square.to_string(),
            found: rest.to_string(),
        });
    }
    let rest = chars.as_str();
    let row_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let row_text = &rest[..row_end];
    let row = match row_text {
        "" => None,
        r if r.len() == 1 && ("1"..="8").contains(&r) => Some(r.as_bytes()[0] - b'0'),
        r => {
            return Err(SquareError::Row {
                found: r.to_string(),
            })
        }
    };
    let square = Square {
        board: Some(letter),
        row,
        ..square
    };
    if row_end < rest.len() {
        return Err(SquareError::Trailing {
            square: square.to_string(),
            found: rest[row_end..].to_string(),
        });
    }
    Ok(square)
}

impl fmt::Display for Square {
    /// The notation `FileRank[Board[Row]]`, e.g. `e4`, `aa27`, `e4B3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_name(self.file), self.rank)?;
        if let Some(board) = self.board {
            write!(f, "{board}")?;
        }
        if let Some(row) = self.row {
            write!(f, "{row}")?;
        }
        Ok(())
    }
}

/// Splits a line's content, squares written back to back (`a1b2c3`, `aa27e4B3`), into its
/// squares. Every square starts with a lower-case letter and nothing else in a square is
/// one, so a new square begins at each lower-case letter that follows a digit or a board
/// letter. The number of squares is not checked here (the schema wants at least two).
pub fn split_squares(text: &str) -> Result<Vec<Square>, SquaresError> {
    if text.is_empty() {
        return Err(SquaresError::Empty);
    }
    let first = text
        .find(|c: char| c.is_ascii_lowercase())
        .unwrap_or(text.len());
    if first > 0 {
        return Err(SquaresError::Leading {
            found: text[..first].to_string(),
        });
    }
    // One pass: a new square begins at each lower-case letter that follows a digit or a
    // board letter (no list of boundaries is built first: a long line is read with one
    // allocation, the result's).
    let mut squares = Vec::with_capacity(text.len() / 2);
    let mut start = 0;
    let mut previous_lower = true;
    let read = |index: usize, part: &str| {
        part.parse().map_err(|error| SquaresError::Square {
            index,
            text: part.to_string(),
            error,
        })
    };
    for (i, b) in text.bytes().enumerate() {
        let lower = b.is_ascii_lowercase();
        if lower && !previous_lower {
            squares.push(read(squares.len() + 1, &text[start..i])?);
            start = i;
        }
        previous_lower = lower;
    }
    squares.push(read(squares.len() + 1, &text[start..])?);
    Ok(squares)
}

/// The schema's `Square` is read into [`Square`]: once, when the document is read, after the
/// schema's facets (generated as data) have admitted the text.
/// [`Square`]'s `FromStr` reads exactly the schema's `Square` pattern (shown by the tests).
pub(crate) static SQUARE_PATTERN: ExactParser = ExactParser::new(
    "([a-z]|aa|bb|cc|dd|ee|ff|gg|hh|ii|jj|kk|ll|mm|nn|oo|pp|qq|rr|ss|tt|uu|vv|ww|xx|yy|zz|aaa|bbb|ccc|ddd|eee|fff|ggg|hhh|iii|jjj|kkk|lll)([1-9]|[1-5][0-9]|6[0-4])([A-H][1-8]?)?",
);

/// [`split_squares`] reads exactly the schema's `Squares` pattern (shown by the tests).
pub(crate) static SQUARES_PATTERN: ExactParser = ExactParser::new(
    "(([a-z]|aa|bb|cc|dd|ee|ff|gg|hh|ii|jj|kk|ll|mm|nn|oo|pp|qq|rr|ss|tt|uu|vv|ww|xx|yy|zz|aaa|bbb|ccc|ddd|eee|fff|ggg|hhh|iii|jjj|kkk|lll)([1-9]|[1-5][0-9]|6[0-4])([A-H][1-8]?)?){2,}",
);

impl SimpleValue for Square {
    fn parse_lexical(text: &str) -> Result<Self, FacetError> {
        let facets = <Square as Restricted>::facets();
        facets.read_exact(SQUARE_PATTERN.holds_for(facets), text, |t| t.parse().ok())
    }
    fn to_lexical(&self) -> Cow<'_, str> {
        Cow::Owned(self.to_string())
    }
}

boardxml::bound_element!(Square);

/// Two or more squares written back to back, as a `<line>` holds them (`a1b2c3`): the
/// schema's `Squares`, read once into its squares.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Squares(Vec<Square>);

impl Squares {
    /// The squares, in order (at least two when read from a document: the schema says so).
    pub fn squares(&self) -> &[Square] {
        &self.0
    }

    /// Squares from a list; `None` for fewer than two (the schema's minimum).
    pub fn new(squares: Vec<Square>) -> Option<Squares> {
        (squares.len() >= 2).then_some(Squares(squares))
    }
}

impl fmt::Display for Squares {
    /// The squares back to back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|s| write!(f, "{s}"))
    }
}

impl SimpleValue for Squares {
    fn parse_lexical(text: &str) -> Result<Self, FacetError> {
        let facets = <Squares as Restricted>::facets();
        // Two squares at least, as the pattern's `{2,}` says.
        facets.read_exact(SQUARES_PATTERN.holds_for(facets), text, |t| {
            split_squares(t)
                .ok()
                .filter(|squares| squares.len() >= 2)
                .map(Squares)
        })
    }
    fn to_lexical(&self) -> Cow<'_, str> {
        Cow::Owned(self.to_string())
    }
}

boardxml::bound_element!(Squares);

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn err(s: &str) -> String {
        match s.parse::<Square>() {
            Ok(q) => panic!("{s} read as {q:?}"),
            Err(e) => e.to_string(),
        }
    }

    /// The shortcut in `from_str` agrees with the grammar on every string of up to four
    /// characters from the alphabet that matters to it.
    #[test]
    fn the_shortcut_reads_what_the_grammar_reads() {
        let alphabet = ['a', 'l', 'z', 'A', '0', '1', '4', '6', '9', 'B', '-'];
        let mut strings = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = strings
                .iter()
                .filter(|s| s.len() == strings.last().map_or(0, |l| l.len()))
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            strings.extend(longer);
        }
        assert!(strings.len() > 14_000);
        for s in &strings {
            let shortcut = s.parse::<Square>().map_err(|e| e.to_string());
            let grammar = parse_square(s).map_err(|e| e.to_string());
            assert_eq!(shortcut, grammar, "{s:?}");
        }
    }

    #[test]
    fn every_file_name_reads_back_to_its_number() {
        for n in 1..=64 {
            let name = file_name(n);
            assert_eq!(file_number(&name), Some(n), "{name}");
        }
        assert_eq!(file_name(1), "a");
        assert_eq!(file_name(26), "z");
        assert_eq!(file_name(27), "aa");
        assert_eq!(file_name(28), "bb");
        assert_eq!(file_name(52), "zz");
        assert_eq!(file_name(53), "aaa");
        assert_eq!(file_name(64), "lll");
    }

    #[test]
    fn squares_read_and_write_in_the_notation() {
        for (text, file, rank, board, row) in [
            ("a1", 1, 1, None, None),
            ("e4", 5, 4, None, None),
            ("h8", 8, 8, None, None),
            ("z26", 26, 26, None, None),
            ("aa27", 27, 27, None, None),
            ("zz10", 52, 10, None, None),
            ("aaa53", 53, 53, None, None),
            ("lll64", 64, 64, None, None),
            ("e4B", 5, 4, Some('B'), None),
            ("e4B3", 5, 4, Some('B'), Some(3)),
            ("a1A1", 1, 1, Some('A'), Some(1)),
            ("lll64H8", 64, 64, Some('H'), Some(8)),
            ("c10A", 3, 10, Some('A'), None),
        ] {
            let s = sq(text);
            assert_eq!(
                (s.file(), s.rank(), s.board(), s.row()),
                (file, rank, board, row),
                "{text}"
            );
            assert_eq!(s.to_string(), text);
        }
    }

    #[test]
    fn bad_squares_say_why() {
        assert_eq!(err("ab7"), "ab is not a file: after z come aa, bb, ...");
        assert_eq!(err("a0"), "rank 0 is not on any board: ranks are 1..64");
        assert_eq!(err("a65"), "rank 65 is not on any board: ranks are 1..64");
        assert_eq!(err("a100"), "rank 100 is not on any board: ranks are 1..64");
        assert_eq!(err("a07"), "rank 07 has a leading zero: write 7");
        assert_eq!(err("a00"), "rank 00 is not on any board: ranks are 1..64");
        assert_eq!(
            err("e4I"),
            "'I' is not a 3D board letter: the boards are A..H"
        );
        assert_eq!(
            err("e4B9"),
            "9 is not a 4D row: after the board letter comes one digit 1..8"
        );
        assert_eq!(
            err("e4B0"),
            "0 is not a 4D row: after the board letter comes one digit 1..8"
        );
        assert_eq!(
            err("e4B12"),
            "12 is not a 4D row: after the board letter comes one digit 1..8"
        );
        assert_eq!(
            err("mmm1"),
            "mmm is not a file: the tripled files end at lll, the 64th"
        );
        assert_eq!(
            err("aaaa1"),
            "aaaa is not a file: a file has at most three letters (the last is lll, the 64th)"
        );
        assert_eq!(err(""), "a square cannot be empty");
        assert_eq!(
            err("4e"),
            "a square starts with its file, a lower-case letter a..z, not '4'"
        );
        assert_eq!(
            err("E4"),
            "a square starts with its file, a lower-case letter a..z, not 'E'"
        );
        assert_eq!(err("e"), "file e has no rank after it (a rank is 1..64)");
        assert_eq!(err("eB"), "file e has no rank after it (a rank is 1..64)");
        assert_eq!(
            err("e4b"),
            "\"b\" after the square e4 is not part of a square"
        );
        assert_eq!(
            err("e4B3x"),
            "\"x\" after the square e4B3 is not part of a square"
        );
        assert_eq!(
            err("e4 "),
            "\" \" after the square e4 is not part of a square"
        );
    }

    #[test]
    fn the_order_is_board_then_rank_then_file() {
        let mut squares: Vec<Square> = ["b1", "a2", "a1", "a1B", "a1A2", "a1A", "h8", "aa1"]
            .iter()
            .map(|s| sq(s))
            .collect();
        squares.sort();
        let names: Vec<String> = squares.iter().map(Square::to_string).collect();
        assert_eq!(names, ["a1", "b1", "aa1", "a2", "h8", "a1A", "a1A2", "a1B"]);
    }

    #[test]
    fn constructors_keep_the_ranges() {
        assert_eq!(Square::new(5, 4), Some(sq("e4")));
        assert_eq!(Square::new(0, 4), None);
        assert_eq!(Square::new(65, 4), None);
        assert_eq!(Square::new(5, 65), None);
        let e4 = sq("e4");
        assert_eq!(e4.with_board('B', Some(3)), Some(sq("e4B3")));
        assert_eq!(e4.with_board('I', None), None);
        assert_eq!(e4.with_board('B', Some(9)), None);
        assert_eq!(sq("e4B3").projection(), e4);
        assert!(sq("a1").same_board(sq("h8")));
        assert!(sq("a1B").same_board(sq("h8B")));
        assert!(!sq("a1B").same_board(sq("h8B1")));
        assert!(!sq("a1").same_board(sq("h8A")));
    }

    #[test]
    fn lines_split_at_each_file_letter() {
        let names = |t: &str| -> Vec<String> {
            split_squares(t)
                .unwrap_or_else(|e| panic!("{t}: {e}"))
                .iter()
                .map(Square::to_string)
                .collect()
        };
        assert_eq!(names("a1b2c3"), ["a1", "b2", "c3"]);
        assert_eq!(names("aa27lll64e4B3e4B"), ["aa27", "lll64", "e4B3", "e4B"]);
        assert_eq!(names("e4"), ["e4"]);
        assert_eq!(
            split_squares("a1ab7").unwrap_err().to_string(),
            "square 2 (ab7): ab is not a file: after z come aa, bb, ..."
        );
        assert_eq!(
            split_squares("a1b").unwrap_err().to_string(),
            "square 2 (b): file b has no rank after it (a rank is 1..64)"
        );
        assert_eq!(
            split_squares("1a1").unwrap_err().to_string(),
            "\"1\" before the first square: squares start with a lower-case file letter"
        );
        assert_eq!(split_squares("").unwrap_err(), SquaresError::Empty);
    }

    /// The schema's pattern and this parser agree: every square the pattern admits reads,
    /// and reads back to the same text.
    #[test]
    fn the_schema_pattern_and_the_parser_agree() {
        // The schema's facets, as generated for the bound type.
        let facets = <Square as Restricted>::facets();
        for file in 1..=64 {
            for rank in [1u8, 9, 10, 64] {
                for suffix in ["", "A", "H8", "C1"] {
                    let text = format!("{}{}{}", file_name(file), rank, suffix);
                    assert!(facets.check_lexical(&text).is_ok(), "{text}");
                    assert_eq!(
                        Square::parse_lexical(&text).map(|s| s.to_string()),
                        Ok(text.clone())
                    );
                    assert_eq!(sq(&text).to_string(), text);
                }
            }
        }
        for bad in ["ab7", "a0", "a65", "a07", "e4I", "e4B9", "mmm1", "e", "E4"] {
            assert!(facets.check_lexical(bad).is_err(), "{bad}");
            assert!(Square::parse_lexical(bad).is_err(), "{bad}");
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
