//! The CIF rules beyond the schema: every square of every marker against its game's board,
//! the game's two statements of its board size, and the corners of regions.
//!
//! - E0402 [`Code::BoardSizeConflict`]: `boardsize` and `files`/`ranks` disagree (see
//!   [`BoardSize`]). The game's squares are then checked against the widest reading, so
//!   that the one mistake is reported once.
//! - E0401 [`Code::SquareOffBoard`]: a square of an arrow (`from`, `to`), a marker of any
//!   shape (`at`), a line (each vertex), a region (`from`, `to`) or a value (`at`) outside
//!   the board. Reported at the attribute's path, or for a line's vertices at the line's
//!   path (the content has no path of its own), one issue per square.
//! - E0404 [`Code::RegionOrder`]: a region is the rectangle with `from` and `to` as opposite
//!   corners, given in either order (`a1`..`c3`, `c3`..`a1` and `a3`..`c1` are the same
//!   region: the source says nothing of an order, and rejecting one would reject documents
//!   that mean something plain). On 3D/4D boards both corners must be on the same board
//!   (same letter and row; a 2D corner with a 3D one counts as different): the notation has
//!   no way to say which boards lie "between" two others, so a region across boards has no
//!   one meaning.
//!
//! A marker that fits none of its three shapes is the schema layer's to report (E0214,
//! which names the closest shape): on a schema-valid document every marker has a shape.

use super::board::BoardSize;
use super::square::Square;
use crate::diagnostic::Code;
use crate::generated::cif;
use crate::semantics::Issue;

/// Checks every game of `doc`; the issues come in document order.
pub fn check(doc: &cif::Root) -> Vec<Issue> {
    let cif::Root::Cif(root) = doc;
    let mut issues = Vec::new();
    for (i, game) in root.game.iter().enumerate() {
        check_game(game, &child_path("/cif", "game", i + 1), &mut issues);
    }
    issues
}

/// Checks one game whose element path is `game_path` (e.g. `/cif/game[2]`).
pub fn check_game(game: &cif::Game, game_path: &str, issues: &mut Vec<Issue>) {
    let board = match BoardSize::of_game(game) {
        Ok(board) => board,
        Err(conflict) => {
            issues.push(conflict.to_issue(game_path));
            conflict.widest()
        }
    };
    let moves_path = format!("{game_path}/moves");
    let mut siblings = Siblings::default();
    for item in &game.moves.content {
        let (name, element): (&'static str, &dyn std::any::Any) = match item {
            cif::MovesContent::Text(_) | cif::MovesContent::CData(_) => continue,
            cif::MovesContent::Arrow(v) => ("arrow", v),
            // All three shapes are elements named `marker`: one count for them all.
            cif::MovesContent::Marker(v) => ("marker", v),
            cif::MovesContent::Line(v) => ("line", v),
            cif::MovesContent::Region(v) => ("region", v),
            cif::MovesContent::Value(v) => ("value", v),
        };
        let n = siblings.count(name);
        check_element(board, element, &|| child_path(&moves_path, name, n), issues);
    }
}

/// Checks one marker element (any of the kinds inside `<moves>`) against `board`; `path`
/// gives its path, asked only when there is something to report (paths cost an allocation,
/// and this runs for every element of a large document). Used on a whole document, and
/// while reading (see `stream`).
pub fn check_element(
    board: BoardSize,
    element: &dyn std::any::Any,
    path: &dyn Fn() -> String,
    issues: &mut Vec<Issue>,
) {
    let mut on_board = |square: &Square, what: &str, attribute: &str| {
        check_square(
            board,
            square,
            what,
            &|| format!("{}/@{attribute}", path()),
            issues,
        )
    };
    if let Some(arrow) = element.downcast_ref::<cif::Arrow>() {
        on_board(&arrow.from, "<arrow> from", "from");
        on_board(&arrow.to, "<arrow> to", "to");
    } else if let Some(marker) = element.downcast_ref::<cif::Marker>() {
        let (at, shape) = match marker {
            cif::Marker::SquareMarker(m) => (&m.at, "<marker> (square marker) at"),
            cif::Marker::TextMarker(m) => (&m.at, "<marker> (text marker) at"),
            cif::Marker::SymbolMarker(m) => (&m.at, "<marker> (symbol) at"),
        };
        on_board(at, shape, "at");
    } else if let Some(line) = element.downcast_ref::<cif::Line>() {
        check_line(board, line, path, issues);
    } else if let Some(region) = element.downcast_ref::<cif::Region>() {
        on_board(&region.from, "<region> from", "from");
        on_board(&region.to, "<region> to", "to");
        check_region_corners(region, path, issues);
    } else if let Some(value) = element.downcast_ref::<cif::Value>() {
        on_board(&value.at, "<value> at", "at");
    }
}

/// `parent/name` for the first such child, `parent/name[n]` from the second on: the
/// reader's form (`Reader::enter`).
fn child_path(parent: &str, name: &str, n: usize) -> String {
    if n > 1 {
        format!("{parent}/{name}[{n}]")
    } else {
        format!("{parent}/{name}")
    }
}

/// Counts the children of one element by name, as the reader does for paths.
#[derive(Default)]
struct Siblings(Vec<(&'static str, usize)>);

impl Siblings {
    /// Counts one more `name` child and returns its index among them (its path is built
    /// only if something is reported).
    fn count(&mut self, name: &'static str) -> usize {
        // Five element names at most: a list beats hashing each element's name.
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => {
                *count += 1;
                *count
            }
            None => {
                self.0.push((name, 1));
                1
            }
        }
    }
}

fn off_board(board: BoardSize, square: Square, what: &str, path: String) -> Issue {
    Issue::error(
        Code::SquareOffBoard,
        path,
        format!("square {square} ({what}) is outside {}", board.describe()),
    )
    .expected(format!("a square of {}", board.describe()))
    .found(format!(
        "{square} (file {}, rank {})",
        square.file(),
        square.rank()
    ))
}

fn check_square(
    board: BoardSize,
    square: &Square,
    what: &str,
    path: &dyn Fn() -> String,
    issues: &mut Vec<Issue>,
) {
    if !board.contains(*square) {
        issues.push(off_board(board, *square, what, path()));
    }
}

fn check_line(
    board: BoardSize,
    line: &cif::Line,
    path: &dyn Fn() -> String,
    issues: &mut Vec<Issue>,
) {
    for (i, &square) in line.content.squares().iter().enumerate() {
        if !board.contains(square) {
            let what = format!("<line> vertex {}", i + 1);
            issues.push(off_board(board, square, &what, path()));
        }
    }
}

fn check_region_corners(region: &cif::Region, path: &dyn Fn() -> String, issues: &mut Vec<Issue>) {
    let (from, to) = (region.from, region.to);
    if from.same_board(to) {
        return;
    }
    let board_of = |s: Square| match (s.board(), s.row()) {
        (None, _) => "the 2D board".to_string(),
        (Some(b), None) => format!("board {b}"),
        (Some(b), Some(r)) => format!("board {b}, row {r}"),
    };
    issues.push(
        Issue::error(
            Code::RegionOrder,
            path(),
            format!(
                "region from {from} to {to} spans two boards ({} and {}): a region's corners must be on one board",
                board_of(from),
                board_of(to)
            ),
        )
        .expected(format!(
            "to on {} like from, e.g. {}",
            board_of(from),
            corner_on_board_of(to, from)
        ))
        .found(to.to_string()),
    );
}

/// `square` moved to the board (letter and row) of `like`.
fn corner_on_board_of(square: Square, like: Square) -> Square {
    match like.board() {
        None => square.projection(),
        Some(b) => square
            .projection()
            .with_board(b, like.row())
            .unwrap_or(square),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::Reader;

    fn read(text: &str) -> cif::Root {
        let mut reader = Reader::new(text);
        let doc = reader.read_document::<cif::Root>();
        assert!(
            reader.diagnostics().is_empty(),
            "not schema-valid: {:?}",
            reader.diagnostics()
        );
        doc.expect("a document")
    }

    fn issues(game_attributes: &str, moves: &str) -> Vec<Issue> {
        check(&read(&format!(
            "<cif><game{game_attributes}><moves>{moves}</moves></game></cif>"
        )))
    }

    fn summary(issues: &[Issue]) -> Vec<(Code, &str)> {
        issues.iter().map(|i| (i.code, i.path.as_str())).collect()
    }

    #[test]
    fn squares_on_the_board_give_nothing() {
        let moves = r#"<arrow color="red" from="a1" to="h8"/><marker type="full" color="red" at="h1"/><marker type="text" color="red" at="a8">x</marker><marker at="d4">skull</marker><line color="red">a1h8a8</line><region color="red" from="h8" to="a1"/><value at="e5">3</value>"#;
        assert_eq!(issues("", moves), []);
    }

    #[test]
    fn an_arrow_off_the_board() {
        let found = issues(
            "",
            r#"<arrow color="red" from="a1" to="h8"/><arrow color="red" from="j9" to="i1"/>"#,
        );
        assert_eq!(
            summary(&found),
            [
                (Code::SquareOffBoard, "/cif/game/moves/arrow[2]/@from"),
                (Code::SquareOffBoard, "/cif/game/moves/arrow[2]/@to"),
            ]
        );
        assert_eq!(
            found[0].message,
            "square j9 (<arrow> from) is outside the 8x8 board (files a..h, ranks 1..8)"
        );
        assert_eq!(
            found[0].expected.as_deref(),
            Some("a square of the 8x8 board (files a..h, ranks 1..8)")
        );
        assert_eq!(found[0].found.as_deref(), Some("j9 (file 10, rank 9)"));
    }

    #[test]
    fn markers_of_all_three_shapes_share_one_count() {
        let found = issues(
            "",
            r#"<marker type="full" color="red" at="a1"/><marker type="text" color="red" at="a9">x</marker><marker at="i1">skull</marker><marker type="cross" color="red" at="i9"/>"#,
        );
        assert_eq!(
            summary(&found),
            [
                (Code::SquareOffBoard, "/cif/game/moves/marker[2]/@at"),
                (Code::SquareOffBoard, "/cif/game/moves/marker[3]/@at"),
                (Code::SquareOffBoard, "/cif/game/moves/marker[4]/@at"),
            ]
        );
        assert_eq!(
            found[0].message,
            "square a9 (<marker> (text marker) at) is outside the 8x8 board (files a..h, ranks 1..8)"
        );
        assert!(found[1].message.contains("(<marker> (symbol) at)"));
        assert!(found[2].message.contains("(<marker> (square marker) at)"));
    }

    #[test]
    fn each_vertex_of_a_line() {
        let found = issues(
            "",
            r#"<line color="red">a1b2</line><line color="red">a1i2c3a9</line>"#,
        );
        assert_eq!(
            summary(&found),
            [
                (Code::SquareOffBoard, "/cif/game/moves/line[2]"),
                (Code::SquareOffBoard, "/cif/game/moves/line[2]"),
            ]
        );
        assert_eq!(
            found[0].message,
            "square i2 (<line> vertex 2) is outside the 8x8 board (files a..h, ranks 1..8)"
        );
        assert!(found[1].message.starts_with("square a9 (<line> vertex 4)"));
    }

    #[test]
    fn a_region_and_a_value() {
        let found = issues(
            "",
            r#"<region color="red" from="a1" to="h9"/><value at="a1">1</value><value at="z1">-1</value>"#,
        );
        assert_eq!(
            summary(&found),
            [
                (Code::SquareOffBoard, "/cif/game/moves/region/@to"),
                (Code::SquareOffBoard, "/cif/game/moves/value[2]/@at"),
            ]
        );
    }

    #[test]
    fn regions_in_any_corner_order() {
        for (from, to) in [
            ("a1", "c3"),
            ("c3", "a1"),
            ("a3", "c1"),
            ("c1", "a3"),
            ("b2", "b2"),
        ] {
            let moves = format!(r#"<region color="red" from="{from}" to="{to}"/>"#);
            assert_eq!(issues("", &moves), [], "{from}..{to}");
        }
    }

    #[test]
    fn a_region_across_3d_boards() {
        let found = issues(
            "",
            r#"<region color="red" from="a1B" to="c3B"/><region color="red" from="a1B2" to="c3B2"/><region color="red" from="a1A" to="c3B"/><region color="red" from="a1B" to="c3B1"/><region color="red" from="a1" to="c3C"/>"#,
        );
        assert_eq!(
            summary(&found),
            [
                (Code::RegionOrder, "/cif/game/moves/region[3]"),
                (Code::RegionOrder, "/cif/game/moves/region[4]"),
                (Code::RegionOrder, "/cif/game/moves/region[5]"),
            ]
        );
        assert_eq!(
            found[0].message,
            "region from a1A to c3B spans two boards (board A and board B): a region's corners must be on one board"
        );
        assert_eq!(
            found[0].expected.as_deref(),
            Some("to on board A like from, e.g. c3A")
        );
        assert_eq!(found[0].found.as_deref(), Some("c3B"));
        assert!(found[1].message.contains("(board B and board B, row 1)"));
        assert_eq!(
            found[2].expected.as_deref(),
            Some("to on the 2D board like from, e.g. c3")
        );
    }

    #[test]
    fn squares_of_3d_and_4d_boards_are_bounded_by_file_and_rank() {
        let found = issues(
            "",
            r#"<marker type="full" color="red" at="h8H8"/><marker type="full" color="red" at="i8A"/><marker type="full" color="red" at="a9B3"/>"#,
        );
        assert_eq!(
            summary(&found),
            [
                (Code::SquareOffBoard, "/cif/game/moves/marker[2]/@at"),
                (Code::SquareOffBoard, "/cif/game/moves/marker[3]/@at"),
            ]
        );
        assert!(found[1].message.starts_with("square a9B3 "));
    }

    #[test]
    fn a_64x64_board() {
        let moves = r#"<arrow color="red" from="lll64" to="aa27"/><line color="red">a1zz52aaa53lll64</line>"#;
        assert_eq!(issues(r#" boardsize="64x64""#, moves), []);
        assert_eq!(issues(r#" files="64" ranks="64""#, moves), []);
        let found = issues(r#" boardsize="64x63""#, moves);
        assert_eq!(
            summary(&found),
            [
                (Code::SquareOffBoard, "/cif/game/moves/arrow/@from"),
                (Code::SquareOffBoard, "/cif/game/moves/line"),
            ]
        );
        assert_eq!(
            found[0].message,
            "square lll64 (<arrow> from) is outside the 64x63 board (files a..lll, ranks 1..63)"
        );
        let found = issues(
            r#" files="27""#,
            r#"<marker at="bb8">parcel</marker><marker at="aa9">parcel</marker>"#,
        );
        assert_eq!(
            summary(&found),
            [
                (Code::SquareOffBoard, "/cif/game/moves/marker/@at"),
                (Code::SquareOffBoard, "/cif/game/moves/marker[2]/@at"),
            ]
        );
        assert!(found[0]
            .message
            .ends_with("outside the 27x8 board (files a..aa, ranks 1..8)"));
    }

    #[test]
    fn a_board_size_conflict_is_reported_once_per_game() {
        let found = issues(
            r#" boardsize="8x8" files="10""#,
            r#"<marker type="full" color="red" at="j8"/><marker type="full" color="red" at="k8"/>"#,
        );
        assert_eq!(
            summary(&found),
            [
                (Code::BoardSizeConflict, "/cif/game"),
                (Code::SquareOffBoard, "/cif/game/moves/marker[2]/@at"),
            ]
        );
        assert_eq!(
            found[1].message,
            "square k8 (<marker> (square marker) at) is outside the 10x8 board (files a..j, ranks 1..8)"
        );
    }

    #[test]
    fn games_are_counted_and_sized_each_on_its_own() {
        let doc = read(
            r#"<cif><game boardsize="10x10"><moves><marker at="j10">skull</marker></moves></game><game><moves>1. e4 <marker at="j10">skull</marker></moves></game><game files="9" ranks="9" boardsize="9x10"><moves/></game></cif>"#,
        );
        assert_eq!(
            summary(&check(&doc)),
            [
                (Code::SquareOffBoard, "/cif/game[2]/moves/marker/@at"),
                (Code::BoardSizeConflict, "/cif/game[3]"),
            ]
        );
    }
}
