//! A game's board size, from either of the two ways CIF states it.
//!
//! The published `game` element says `boardsize="FxR"`; the marker page speaks of `files`
//! and `ranks` attributes. SPEC.md accepts either. How they combine:
//! - nothing stated: 8x8;
//! - `boardsize` alone: that size;
//! - `files` or `ranks` alone: the other stays at its default, 8 (`files="10"` is 10x8),
//!   because a missing attribute means "the default", as a missing `boardsize` does;
//! - `boardsize` with `files` and/or `ranks`: each of `files`/`ranks` that is given must
//!   equal the matching part of `boardsize` (`boardsize="10x10" files="10"` agrees: an
//!   absent `ranks` states nothing). Otherwise it is a [`SizeConflict`] (E0402).

use crate::codes;
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use super::square::{file_name, Square, MAX_DIMENSION};
use crate::generated::cif;
use boardxml::diagnostic::Diagnostic;
use boardxml::facets::{ExactParser, Restricted};
use boardxml::schema::{FacetError, SimpleValue};

/// The default number of files and of ranks.
pub const DEFAULT_DIMENSION: u8 = 8;

/// The size of a game's board: files (1..64) by ranks (1..64). Written `FxR`, files first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardSize {
    /// The number of files (columns, `a`..), 1..64.
    pub files: u8,
    /// The number of ranks (rows, `1`..), 1..64.
    pub ranks: u8,
}

impl Default for BoardSize {
    /// 8x8, the CIF default.
    fn default() -> Self {
        BoardSize {
            files: DEFAULT_DIMENSION,
            ranks: DEFAULT_DIMENSION,
        }
    }
}

/// A game that states its size twice, differently: `boardsize` against `files`/`ranks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeConflict {
    /// What `boardsize` says.
    pub boardsize: BoardSize,
    /// The `files` attribute, if given.
    pub files: Option<u8>,
    /// The `ranks` attribute, if given.
    pub ranks: Option<u8>,
}

impl BoardSize {
    /// The size of `game`'s board, or the conflict between its two statements of it (see the
    /// module documentation for how they combine).
    pub fn of_game(game: &cif::Game) -> Result<BoardSize, SizeConflict> {
        BoardSize::of_values(
            game.boardsize,
            game.files.map(|f| f.get()),
            game.ranks.map(|r| r.get()),
        )
    }

    /// The same from the attributes as written (`boardsize`, `files`, `ranks`): for rules
    /// that run while the game is read, before its value exists.
    pub fn of_attributes(
        boardsize: Option<&str>,
        files: Option<u8>,
        ranks: Option<u8>,
    ) -> Result<BoardSize, SizeConflict> {
        // The start tag comes before the schema has checked it: a value the schema rejects
        // (it reports it) is read as the default.
        let boardsize = boardsize.map(|b| b.trim().parse().unwrap_or_default());
        BoardSize::of_values(boardsize, files, ranks)
    }

    /// The same from the values read.
    pub fn of_values(
        boardsize: Option<BoardSize>,
        files: Option<u8>,
        ranks: Option<u8>,
    ) -> Result<BoardSize, SizeConflict> {
        // A dimension outside 1..64 is not one (the schema rejects it): read it as absent.
        let in_range = |n: Option<u8>| n.filter(|n| (1..=MAX_DIMENSION).contains(n));
        let (files, ranks) = (in_range(files), in_range(ranks));
        let Some(boardsize) = boardsize else {
            return Ok(BoardSize {
                files: files.unwrap_or(DEFAULT_DIMENSION),
                ranks: ranks.unwrap_or(DEFAULT_DIMENSION),
            });
        };
        let agrees = |given: Option<u8>, size: u8| given.is_none_or(|g| g == size);
        if agrees(files, boardsize.files) && agrees(ranks, boardsize.ranks) {
            Ok(boardsize)
        } else {
            Err(SizeConflict {
                boardsize,
                files,
                ranks,
            })
        }
    }

    /// The size to check and draw `game` with: its board size, or for a conflict the
    /// [widest](SizeConflict::widest) reading.
    pub fn of_game_or_widest(game: &cif::Game) -> BoardSize {
        BoardSize::of_game(game).unwrap_or_else(|c| c.widest())
    }

    /// Whether `square` lies on this board. A 3D/4D square is on the board when its file and
    /// rank are: the game states no number of boards or rows, and the notation allows only
    /// `A`..`H` and `1`..`8` anyway.
    pub fn contains(self, square: Square) -> bool {
        square.file() <= self.files && square.rank() <= self.ranks
    }

    /// The name of the last file (`h` on 8x8, `lll` on 64x64).
    pub fn last_file(self) -> String {
        file_name(self.files)
    }

    /// Says what the squares of this board are: "the 8x8 board (files a..h, ranks 1..8)".
    pub fn describe(self) -> String {
        format!(
            "the {self} board (files a..{}, ranks 1..{})",
            self.last_file(),
            self.ranks
        )
    }
}

impl fmt::Display for BoardSize {
    /// `FxR`, as the `boardsize` attribute writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

/// [`BoardSize`]'s `FromStr` reads exactly the schema's `BoardSize` pattern (shown by the
/// tests).
pub(crate) static BOARD_SIZE_PATTERN: ExactParser =
    ExactParser::new("([1-9]|[1-5][0-9]|6[0-4])x([1-9]|[1-5][0-9]|6[0-4])");

/// The schema's `BoardSize` (`boardsize="FxR"`) is read into [`BoardSize`], once, after the
/// schema's facets have admitted the text.
impl SimpleValue for BoardSize {
    fn parse_lexical(text: &str) -> Result<Self, FacetError> {
        let facets = <BoardSize as Restricted>::facets();
        facets.read_exact(BOARD_SIZE_PATTERN.holds_for(facets), text, |t| {
            t.parse().ok()
        })
    }
    fn to_lexical(&self) -> Cow<'_, str> {
        Cow::Owned(self.to_string())
    }
}

boardxml::bound_element!(BoardSize);

/// Why a string is not a board size `FxR`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{found:?} is not a board size: expected files x ranks, each 1..64, e.g. 8x8")]
pub struct BoardSizeError {
    /// The text.
    pub found: String,
}

impl FromStr for BoardSize {
    type Err = BoardSizeError;

    /// Reads `FxR` (each 1..64, no leading zero), as the schema's pattern admits it.
    fn from_str(s: &str) -> Result<BoardSize, BoardSizeError> {
        let dimension = |t: &str| match t.parse::<u8>() {
            Ok(n) if (1..=MAX_DIMENSION).contains(&n) && !t.starts_with(['0', '+']) => Some(n),
            _ => None,
        };
        s.split_once('x')
            .and_then(|(f, r)| Some((dimension(f)?, dimension(r)?)))
            .map(|(files, ranks)| BoardSize { files, ranks })
            .ok_or_else(|| BoardSizeError {
                found: s.to_string(),
            })
    }
}

impl SizeConflict {
    /// The board that holds both readings (the larger number of files and of ranks). The
    /// rules check squares against it, so that one disagreement gives one error (E0402)
    /// and not one more for every square that only one of the readings leaves off.
    pub fn widest(self) -> BoardSize {
        let files = self.files.unwrap_or(0).max(self.boardsize.files);
        let ranks = self.ranks.unwrap_or(0).max(self.boardsize.ranks);
        BoardSize { files, ranks }
    }

    /// The attributes as written, e.g. `files="12" ranks="10"`.
    fn files_ranks(self) -> String {
        let mut parts = Vec::new();
        if let Some(f) = self.files {
            parts.push(format!("files=\"{f}\""));
        }
        if let Some(r) = self.ranks {
            parts.push(format!("ranks=\"{r}\""));
        }
        parts.join(" ")
    }

    /// The finding (E0402) at the game's start tag, `offset`, and its element path
    /// `game_path`.
    pub fn to_diagnostic(self, offset: usize, game_path: &str) -> Diagnostic {
        let b = self.boardsize;
        let mut expected = Vec::new();
        if self.files.is_some() {
            expected.push(format!("files=\"{}\"", b.files));
        }
        if self.ranks.is_some() {
            expected.push(format!("ranks=\"{}\"", b.ranks));
        }
        Diagnostic::error(
            codes::BOARD_SIZE_CONFLICT,
            offset,
            game_path,
            format!(
                "the game states its board size twice, differently: boardsize=\"{b}\" but {}",
                self.files_ranks()
            ),
        )
        .expected(format!(
            "{} (as boardsize=\"{b}\" says), or only one of the two forms",
            expected.join(" ")
        ))
        .found(self.files_ranks())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(boardsize: Option<&str>, files: Option<u8>, ranks: Option<u8>) -> cif::Game {
        cif::Game {
            boardsize: boardsize.map(|b| BoardSize::parse_lexical(b).expect("a board size")),
            files: files.map(|f| cif::BoardDimension::new(f).expect("a dimension")),
            ranks: ranks.map(|r| cif::BoardDimension::new(r).expect("a dimension")),
            moves: cif::Moves::default(),
        }
    }

    fn size(files: u8, ranks: u8) -> BoardSize {
        BoardSize { files, ranks }
    }

    #[test]
    fn the_default_is_8x8() {
        assert_eq!(BoardSize::of_game(&game(None, None, None)), Ok(size(8, 8)));
    }

    #[test]
    fn either_form_states_the_size() {
        assert_eq!(
            BoardSize::of_game(&game(Some("10x12"), None, None)),
            Ok(size(10, 12))
        );
        assert_eq!(
            BoardSize::of_game(&game(None, Some(27), Some(64))),
            Ok(size(27, 64))
        );
        assert_eq!(
            BoardSize::of_game(&game(Some("64x64"), None, None)),
            Ok(size(64, 64))
        );
    }

    #[test]
    fn files_or_ranks_alone_keeps_the_default_for_the_other() {
        assert_eq!(
            BoardSize::of_game(&game(None, Some(10), None)),
            Ok(size(10, 8))
        );
        assert_eq!(
            BoardSize::of_game(&game(None, None, Some(10))),
            Ok(size(8, 10))
        );
    }

    #[test]
    fn both_forms_must_agree_where_both_speak() {
        assert_eq!(
            BoardSize::of_game(&game(Some("10x10"), Some(10), Some(10))),
            Ok(size(10, 10))
        );
        assert_eq!(
            BoardSize::of_game(&game(Some("10x12"), Some(10), None)),
            Ok(size(10, 12))
        );
        assert_eq!(
            BoardSize::of_game(&game(Some("10x12"), None, Some(12))),
            Ok(size(10, 12))
        );
        let conflict = BoardSize::of_game(&game(Some("10x10"), Some(12), None)).unwrap_err();
        assert_eq!(conflict.widest(), size(12, 10));
        let conflict = BoardSize::of_game(&game(Some("8x8"), Some(8), Some(9))).unwrap_err();
        assert_eq!(conflict.widest(), size(8, 9));
        // Not the default either: boardsize="8x8" with files="10" disagrees.
        assert!(BoardSize::of_game(&game(Some("8x8"), Some(10), None)).is_err());
    }

    #[test]
    fn a_conflict_names_both_statements() {
        let issue = BoardSize::of_game(&game(Some("10x10"), Some(12), Some(10)))
            .unwrap_err()
            .to_diagnostic(0, "/cif/game[2]");
        assert_eq!(issue.code, codes::BOARD_SIZE_CONFLICT);
        assert_eq!(issue.path, "/cif/game[2]");
        assert_eq!(
            issue.message,
            "the game states its board size twice, differently: boardsize=\"10x10\" but files=\"12\" ranks=\"10\""
        );
        assert_eq!(
            issue.expected.as_deref(),
            Some("files=\"10\" ranks=\"10\" (as boardsize=\"10x10\" says), or only one of the two forms")
        );
        assert_eq!(issue.found.as_deref(), Some("files=\"12\" ranks=\"10\""));
    }

    #[test]
    fn squares_on_and_off_the_board() {
        let sq = |s: &str| s.parse::<Square>().expect("a square");
        let b8 = BoardSize::default();
        assert!(b8.contains(sq("a1")));
        assert!(b8.contains(sq("h8")));
        assert!(!b8.contains(sq("i1")));
        assert!(!b8.contains(sq("a9")));
        assert!(
            b8.contains(sq("h8H8")),
            "3D/4D: only file and rank are bounded"
        );
        assert!(!b8.contains(sq("i8A")));
        let b64 = size(64, 64);
        assert!(b64.contains(sq("lll64")));
        assert!(b64.contains(sq("aa27")));
        assert_eq!(
            b64.describe(),
            "the 64x64 board (files a..lll, ranks 1..64)"
        );
        assert_eq!(b8.describe(), "the 8x8 board (files a..h, ranks 1..8)");
        assert!(!size(27, 64).contains(sq("bb1")));
        assert!(size(27, 64).contains(sq("aa1")));
    }

    #[test]
    fn board_sizes_read_and_write() {
        assert_eq!("8x8".parse(), Ok(size(8, 8)));
        assert_eq!("64x1".parse(), Ok(size(64, 1)));
        assert_eq!(size(10, 12).to_string(), "10x12");
        for bad in ["0x8", "65x8", "08x8", "8x", "8", "8X8", "+8x8", ""] {
            assert!(bad.parse::<BoardSize>().is_err(), "{bad}");
        }
    }
}
