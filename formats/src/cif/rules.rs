//! The CIF rules beyond the schema: every square of every marker against its game's board,
//! the game's two statements of its board size, and the corners of regions.
//!
//! - E0402 [`codes::BOARD_SIZE_CONFLICT`]: `boardsize` and `files`/`ranks` disagree (see
//!   [`BoardSize`]). The game's squares are then checked against the widest reading, so
//!   that the one mistake is reported once.
//! - E0401 [`codes::SQUARE_OFF_BOARD`]: a square of an arrow (`from`, `to`), a marker of any
//!   shape (`at`), a line (each vertex), a region (`from`, `to`) or a value (`at`) outside
//!   the board. Reported at the attribute's path, or for a line's vertices at the line's
//!   path (the content has no path of its own), one issue per square.
//! - E0404 [`codes::REGION_ORDER`]: a region is the rectangle with `from` and `to` as opposite
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
use crate::codes;
use crate::generated::cif;
use boardxml::diagnostic::Diagnostic;
use boardxml::xml::{At, Observer, Reader};

/// The CIF rules, as a visitor of CIF documents: the board of each game from its start tag,
/// then every marker against it as the reader reads it, in document order. The reader
/// calls them for a document kept whole and for one streamed alike; nothing of the
/// document is kept here, so full validation of a 100 MB CIF needs no more memory than
/// schema validation.
#[derive(Debug, Default)]
pub struct CifRules {
    /// The board of the game being read.
    board: BoardSize,
}

impl Observer for CifRules {
    fn start(&mut self, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        if at.name() != "game" {
            return;
        }
        // The start tag comes before the schema has read the game's attributes (the
        // markers inside it come before the game is whole): values the schema rejects (it
        // reports them) count as absent here.
        let number = |name: &str| {
            at.attribute_value(name)
                .and_then(|v| v.trim().parse::<u8>().ok())
                .filter(|n| (1..=64).contains(n))
        };
        match BoardSize::of_attributes(
            at.attribute_value("boardsize"),
            number("files"),
            number("ranks"),
        ) {
            Ok(board) => self.board = board,
            Err(conflict) => {
                self.board = conflict.widest();
                found.push(conflict.to_diagnostic(at.offset(), &at.path()));
            }
        }
    }

    fn element(
        &mut self,
        element: boardxml::xml::Visited<'_>,
        at: &At<'_>,
        found: &mut Vec<Diagnostic>,
    ) {
        cif::visit(self, element, at, found);
    }
}

impl cif::Visitor for CifRules {
    fn arrow(&mut self, arrow: &cif::Arrow, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        on_board(self.board, arrow.from, "<arrow> from", at, "from", found);
        on_board(self.board, arrow.to, "<arrow> to", at, "to", found);
    }

    fn marker(&mut self, marker: &cif::Marker, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        let (square, shape) = match marker {
            cif::Marker::SquareMarker(m) => (m.at, "<marker> (square marker) at"),
            cif::Marker::TextMarker(m) => (m.at, "<marker> (text marker) at"),
            cif::Marker::SymbolMarker(m) => (m.at, "<marker> (symbol) at"),
        };
        on_board(self.board, square, shape, at, "at", found);
    }

    fn line(&mut self, line: &cif::Line, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        // The vertices are content, which has no path or offset of its own: each is
        // reported at the line.
        for (i, &square) in line.content.squares().iter().enumerate() {
            if !self.board.contains(square) {
                let what = format!("<line> vertex {}", i + 1);
                found.push(off_board(self.board, square, &what, at.offset(), at.path()));
            }
        }
    }

    fn region(&mut self, region: &cif::Region, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        on_board(self.board, region.from, "<region> from", at, "from", found);
        on_board(self.board, region.to, "<region> to", at, "to", found);
        check_region_corners(region, at, found);
    }

    fn value(&mut self, value: &cif::Value, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        on_board(self.board, value.at, "<value> at", at, "at", found);
    }
}

/// The rule findings of a CIF document built or changed in memory: it is written out and
/// read back through the same visitor as a file (so a document that is not schema-valid
/// as written gets its schema errors too). Offsets are into the text as written (canonical
/// layout, UTF-8); paths are the reader's.
pub fn check(doc: &cif::Root) -> Vec<Diagnostic> {
    use boardxml::schema::Document as _;
    let mut w = boardxml::xml::Writer::new(encoding_rs::UTF_8);
    doc.write_root(&mut w);
    let text = w.finish();
    let mut reader = Reader::new(&text)
        .without_retaining()
        .with_observer(Box::new(CifRules::default()));
    let _ = reader.read_document::<cif::Root>();
    reader.into_diagnostics()
}

fn off_board(
    board: BoardSize,
    square: Square,
    what: &str,
    offset: usize,
    path: String,
) -> Diagnostic {
    Diagnostic::error(
        codes::SQUARE_OFF_BOARD,
        offset,
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

/// `square`, of attribute `attribute` of the element at `at`, checked against `board`.
fn on_board(
    board: BoardSize,
    square: Square,
    what: &str,
    at: &At<'_>,
    attribute: &str,
    found: &mut Vec<Diagnostic>,
) {
    if !board.contains(square) {
        found.push(off_board(
            board,
            square,
            what,
            at.attribute(attribute),
            at.attribute_path(attribute),
        ));
    }
}

fn check_region_corners(region: &cif::Region, at: &At<'_>, found: &mut Vec<Diagnostic>) {
    let (from, to) = (region.from, region.to);
    if from.same_board(to) {
        return;
    }
    let board_of = |s: Square| match (s.board(), s.row()) {
        (None, _) => "the 2D board".to_string(),
        (Some(b), None) => format!("board {b}"),
        (Some(b), Some(r)) => format!("board {b}, row {r}"),
    };
    found.push(
        Diagnostic::error(
            codes::REGION_ORDER,
            at.offset(),
            at.path(),
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
    use boardxml::diagnostic::Code;
    use boardxml::xml::Reader;

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

    fn issues(game_attributes: &str, moves: &str) -> Vec<Diagnostic> {
        check(&read(&format!(
            "<cif><game{game_attributes}><moves>{moves}</moves></game></cif>"
        )))
    }

    fn summary(issues: &[Diagnostic]) -> Vec<(Code, &str)> {
        issues.iter().map(|i| (i.code, i.path.as_str())).collect()
    }

    /// Read from a source, a finding stands at the attribute it is about (or the element),
    /// as the reader saw it: no second pass looks for it.
    #[test]
    fn findings_are_anchored_where_the_reader_saw_them() {
        let text = "<cif>\n<game boardsize=\"8x8\" files=\"10\">\n<moves><arrow color=\"red\" from=\"a1\" to=\"k2\"/><line color=\"red\">a1z9</line></moves></game></cif>";
        let mut reader = Reader::new(text).with_observer(Box::new(CifRules::default()));
        reader.read_document::<cif::Root>().expect("schema-valid");
        let found: Vec<(Code, &str)> = reader
            .diagnostics()
            .iter()
            .map(|d| (d.code, &text[d.offset..]))
            .collect();
        assert_eq!(found.len(), 3, "{:?}", reader.diagnostics());
        assert_eq!(found[0].0, codes::BOARD_SIZE_CONFLICT);
        assert!(found[0].1.starts_with("<game "), "{found:?}");
        assert!(found[1].1.starts_with("to=\"k2\""), "{found:?}");
        assert!(found[2].1.starts_with("<line "), "{found:?}");
    }

    /// A document built in memory is checked through the same visitor.
    #[test]
    fn a_document_built_in_memory_is_checked_too() {
        let mut doc = read(r#"<cif><game><moves><value at="a1">1</value></moves></game></cif>"#);
        let cif::Root::Cif(root) = &mut doc;
        let cif::MovesContent::Value(value) = &mut root.game[0].moves.content[0] else {
            panic!("a value")
        };
        value.at = "i9".parse().unwrap();
        assert_eq!(
            summary(&check(&doc)),
            [(codes::SQUARE_OFF_BOARD, "/cif/game/moves/value/@at")]
        );
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
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/arrow[2]/@from"),
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/arrow[2]/@to"),
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
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/marker[2]/@at"),
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/marker[3]/@at"),
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/marker[4]/@at"),
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
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/line[2]"),
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/line[2]"),
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
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/region/@to"),
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/value[2]/@at"),
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
                (codes::REGION_ORDER, "/cif/game/moves/region[3]"),
                (codes::REGION_ORDER, "/cif/game/moves/region[4]"),
                (codes::REGION_ORDER, "/cif/game/moves/region[5]"),
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
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/marker[2]/@at"),
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/marker[3]/@at"),
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
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/arrow/@from"),
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/line"),
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
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/marker/@at"),
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/marker[2]/@at"),
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
                (codes::BOARD_SIZE_CONFLICT, "/cif/game"),
                (codes::SQUARE_OFF_BOARD, "/cif/game/moves/marker[2]/@at"),
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
                (codes::SQUARE_OFF_BOARD, "/cif/game[2]/moves/marker/@at"),
                (codes::BOARD_SIZE_CONFLICT, "/cif/game[3]"),
            ]
        );
    }
}
