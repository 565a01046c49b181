//! An SVG picture of a xiangqi position: the board of 9x10 points with red at the bottom,
//! its pieces, and the last move; and of the position reached along one line of a CBF
//! record.
//!
//! What is drawn, and how:
//! - Layers, bottom to top: the board (background and frame), the grid, the point marks,
//!   the river text, the file numbers, the last move's origin dot, the pieces, the last
//!   move's corner marks.
//! - The grid: ten rows and nine files of lines, the pieces stand on their crossings; the
//!   seven inner files stop at the river (between rows 4 and 5, written 楚河 and 汉界); the
//!   two palaces (files 3..5 of rows 0..2 and 7..9) have their diagonals.
//! - Point marks: the usual small corner marks at the cannons' and pawns' start points
//!   (only the inner half at the board's edge).
//! - File numbers: red's 一..九 below the board, counted from red's right (file 一 is the
//!   rightmost); black's １..９ above it, counted from black's right (file １ is the
//!   leftmost as drawn).
//! - Pieces: an ivory disc with a ring and the piece's Chinese character (red 帅 仕 相 马 车
//!   炮 兵, black 将 士 象 马 车 炮 卒), in red `#c8102e` or black `#1a1a1a`. Each piece is a
//!   group `<g class="piece red" data-at="e0" data-piece="K">` (ICCS point, FEN letter)
//!   holding one `circle class="disc"`.
//! - The last move: a blue (`#1c7ed6`) dot on its origin (under the pieces), and blue
//!   corner brackets around both points (over the pieces), as `path class="last-move from"`
//!   and `path class="last-move to"`. A point off the board is not drawn; an XML comment
//!   says so.
//! - The position's FEN is the picture's `<desc>`.
//! - All text (the pieces, 楚河汉界, the file numbers, the caption) is drawn from outlines
//!   embedded once per picture in `<defs>` and placed with `<use>` (see
//!   [`crate::lettering`]): the picture needs no font. A character with no embedded outline
//!   (a rare one in a name) is a visible box with its code point, listed in
//!   [`Picture::missing`]. The text stays in the document as transparent `<text>` too, so
//!   that it can be found, copied and read aloud.
//! - With a caption ([`render_captioned_svg`], what `boardxml render` draws for a record):
//!   a band below the board with the players (红方 red, 黑方 black), the last move with its
//!   number in Chinese notation, and the side to move.
//!
//! The output is deterministic: the same position and move always give the same text.
//!
//! A line of a record is chosen by child indices: `line[k]` is the index (0-based) of the
//! move chosen at ply `k + 1` among the moves that may follow ply `k` (at ply 1: the first
//! moves of the record); a missing entry means 0, the main line. So `[]` is the main line
//! and `[0, 0, 1]` leaves it at ply 3 for the first variation there, then follows that
//! variation's main line.

use crate::lettering::{Anchor, Lettering, Picture, Style};
use crate::svg::{escape, num};
use std::fmt::Write as _;

use boardxml_xiangqi::{Move, Piece, Point, Position, Side};

use super::record::Record;

/// The distance between two neighbouring points, in pixels.
const CELL: f64 = 50.0;
/// The frame's distance from the outer lines: outside the pieces on them.
const FRAME_GAP: f64 = 28.0;
/// The space left and right of the outer files (room for the pieces and the frame).
const MARGIN_X: f64 = 40.0;
/// The space above and below the outer rows (room for the frame and the file numbers).
const MARGIN_Y: f64 = 66.0;
/// Board, lines and labels.
const BOARD: &str = "#f1d39b";
const LINE: &str = "#5b3a1a";
/// Pieces.
const PIECE_FILL: &str = "#fdf3dc";
const RED: &str = "#c8102e";
const BLACK: &str = "#1a1a1a";
/// The last move.
const HIGHLIGHT: &str = "#1c7ed6";
const RED_NUMBERS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_NUMBERS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Renders `position` as a standalone SVG document, with `last_move` (if any) highlighted
/// (see the module documentation for what is drawn and how).
pub fn render_position_svg(position: &Position, last_move: Option<Move>) -> String {
    let mut title = String::from("Xiangqi position");
    if let Some(mv) = last_move {
        let _ = write!(title, " after {} ({})", mv.cbf(), mv.iccs());
    }
    let _ = write!(title, ", {} to move", position.side_to_move().name());
    render(position, last_move, &title)
}

/// Renders the position of `record` after `ply` plies of the line chosen by `line` (see the
/// module documentation; `None`: at the end of that line), with the last move played
/// highlighted; ply 0 is the start position, with no move highlighted.
///
/// The moves are played with the rules; the errors are messages for a person: a line
/// index with no such move to choose, a line longer than the record's moves, a ply beyond
/// the end of the line, an illegal move on the way, a start position that could not be
/// read.
pub fn render_record_svg(
    record: &Record,
    line: &[usize],
    ply: Option<usize>,
) -> Result<String, String> {
    let Some(start) = &record.start else {
        return Err(format!(
            "the record's start position ({}) could not be read, so there is no position to draw",
            record.start_path
        ));
    };
    let path = follow_line(record, line)?;
    let ply = match ply {
        None => path.len(),
        Some(p) if p <= path.len() => p,
        Some(p) => {
            return Err(format!(
                "ply {p} is beyond the end of the line, which has {} {}",
                path.len(),
                plural(path.len(), "ply", "plies")
            ))
        }
    };
    let mut position = start.clone();
    let mut last = None;
    for (k, &index) in path[..ply].iter().enumerate() {
        let mv = record.moves[index].mv;
        if let Err(reason) = position.play(mv) {
            return Err(format!(
                "the move {} ({}) at ply {} of the line is illegal: {reason}",
                mv.cbf(),
                mv.iccs(),
                k + 1
            ));
        }
        last = Some(mv);
    }
    let mut title = format!("Xiangqi record, ply {ply} of the ");
    if line.iter().all(|&i| i == 0) {
        title.push_str("main line");
    } else {
        let indices: Vec<String> = line.iter().map(usize::to_string).collect();
        let _ = write!(title, "line [{}]", indices.join(", "));
    }
    if let Some(mv) = last {
        let _ = write!(title, " (last move {} {})", mv.cbf(), mv.iccs());
    }
    let _ = write!(title, ", {} to move", position.side_to_move().name());
    Ok(render(&position, last, &title))
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The indices (into `record.moves`) of the moves of the line `line` chooses, to its end.
fn follow_line(record: &Record, line: &[usize]) -> Result<Vec<usize>, String> {
    let mut path: Vec<usize> = Vec::new();
    let mut choices: &[usize] = &record.root_children;
    loop {
        let k = path.len();
        if choices.is_empty() {
            if k < line.len() {
                let after = match path.last() {
                    Some(&i) => format!(
                        "it ends after ply {k} ({}): no move follows",
                        record.moves[i].mv.cbf()
                    ),
                    None => "the record has no moves".to_string(),
                };
                return Err(format!(
                    "the line has {} {}, but {after}",
                    line.len(),
                    plural(line.len(), "entry", "entries")
                ));
            }
            return Ok(path);
        }
        let chosen = line.get(k).copied().unwrap_or(0);
        let Some(&index) = choices.get(chosen) else {
            let moves: Vec<String> = choices
                .iter()
                .enumerate()
                .map(|(j, &i)| format!("{j}: {}", record.moves[i].mv.cbf()))
                .collect();
            return Err(format!(
                "line entry {k} chooses move {chosen} at ply {}, but there {} only {} to choose from there ({})",
                k + 1,
                plural(choices.len(), "is", "are"),
                choices.len(),
                moves.join(", ")
            ));
        };
        path.push(index);
        choices = &record.moves[index].children;
    }
}

/// What a caption says: the players, the last move, the side to move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caption {
    /// Red's name (empty: unknown).
    pub red: String,
    /// Black's name.
    pub black: String,
    /// The last move: its move number, the side that played it, its Chinese notation.
    pub last: Option<(u32, Side, String)>,
}

/// The caption band's height.
const CAPTION: f64 = 78.0;

/// [`render_position_svg`] with a caption band below the board: the players, the last
/// move with its number in Chinese notation, the side to move.
pub fn render_captioned_svg(
    position: &Position,
    last_move: Option<Move>,
    caption: &Caption,
) -> String {
    render_captioned(position, last_move, caption).svg
}

/// [`render_captioned_svg`], with the characters that had no embedded outline (a name may
/// have any character: those are drawn as placeholders and listed).
pub fn render_captioned(
    position: &Position,
    last_move: Option<Move>,
    caption: &Caption,
) -> Picture {
    let mut title = String::from("Xiangqi position");
    if let Some((n, side, text)) = &caption.last {
        let dots = if *side == Side::Red { "." } else { "..." };
        let _ = write!(title, " after {n}{dots} {text}");
    }
    let _ = write!(title, ", {} to move", position.side_to_move().name());
    render_with(position, last_move, &title, Some(caption))
}

/// The centre of point (x, y) as drawn.
fn at(x: f64, y: f64) -> (f64, f64) {
    (MARGIN_X + x * CELL, MARGIN_Y + y * CELL)
}

fn centre(p: Point) -> (f64, f64) {
    at(f64::from(p.x), f64::from(p.y))
}

fn side_colour(side: Side) -> &'static str {
    match side {
        Side::Red => RED,
        Side::Black => BLACK,
    }
}

fn render(position: &Position, last_move: Option<Move>, title: &str) -> String {
    render_with(position, last_move, title, None).svg
}

/// The caption's two lines: the players, then the last move and the side to move.
fn caption_lines(position: &Position, caption: &Caption) -> (String, String) {
    let name = |n: &str| {
        if n.trim().is_empty() {
            "?".to_string()
        } else {
            n.trim().to_string()
        }
    };
    let players = format!(
        "红方 {}   黑方 {}",
        name(&caption.red),
        name(&caption.black)
    );
    let to_move = match position.side_to_move() {
        Side::Red => "红方走",
        Side::Black => "黑方走",
    };
    let moved = match &caption.last {
        Some((n, Side::Red, text)) => format!("{n}. {text}   {to_move}"),
        Some((n, Side::Black, text)) => format!("{n}... {text}   {to_move}"),
        None => to_move.to_string(),
    };
    (players, moved)
}

fn render_with(
    position: &Position,
    last_move: Option<Move>,
    title: &str,
    caption: Option<&Caption>,
) -> Picture {
    let width = 2.0 * MARGIN_X + 8.0 * CELL;
    let board_height = 2.0 * MARGIN_Y + 9.0 * CELL;
    let height = board_height + caption.map_or(0.0, |_| CAPTION);
    let mut head = crate::svg::start(width, height, title);
    let _ = writeln!(head, "<desc>FEN {}</desc>", escape(&position.to_fen()));
    let lines = caption.map(|c| caption_lines(position, c));
    // The body first: the outlines' <defs> (between head and body) hold what it drew.
    let mut letters = Lettering::new();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<rect class="board" x="0" y="0" width="{}" height="{}" fill="{BOARD}"/>"#,
        num(width),
        num(height)
    );
    grid(&mut out);
    point_marks(&mut out);
    river(&mut out, &mut letters);
    file_numbers(&mut out, &mut letters);
    let last = last_move.filter(|mv| {
        let on_board = mv.from.is_on_board() && mv.to.is_on_board();
        if !on_board {
            // Off-board points display as "(x, y)": the comment stays well-formed.
            let _ = writeln!(
                out,
                "<!-- last move not drawn: {} to {} leaves the board -->",
                mv.from, mv.to
            );
        }
        on_board
    });
    if let Some(mv) = last {
        let (x, y) = centre(mv.from);
        let _ = writeln!(
            out,
            r#"<circle class="last-move-origin" data-at="{}" cx="{}" cy="{}" r="{}" fill="{HIGHLIGHT}" fill-opacity="0.85"/>"#,
            mv.from,
            num(x),
            num(y),
            num(CELL * 0.2)
        );
    }
    out.push_str("<g class=\"pieces\">\n");
    for (p, piece) in position.pieces() {
        draw_piece(&mut out, &mut letters, p, piece);
    }
    out.push_str("</g>\n");
    if let Some(mv) = last {
        let _ = writeln!(
            out,
            r#"<g class="last-move" data-from="{}" data-to="{}">"#,
            mv.from, mv.to
        );
        corner_marks(&mut out, mv.from, "from");
        corner_marks(&mut out, mv.to, "to");
        out.push_str("</g>\n");
    }
    if let Some((players, moved)) = &lines {
        let _ = writeln!(
            out,
            r#"<g class="caption" data-players="{}" data-move="{}">"#,
            escape(players),
            escape(moved)
        );
        let (cx, _) = at(4.0, 0.0);
        let style = Style {
            size: CELL * 0.4,
            fill: LINE,
            bold: false,
            stroke: None,
            opacity: None,
        };
        let first = board_height + 18.0;
        letters.run(&mut out, players, (cx, first), Anchor::Middle, style);
        let second = first + style.size * 1.5;
        letters.run(&mut out, moved, (cx, second), Anchor::Middle, style);
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    letters.finish(&head, &out)
}

/// The style of the board's own characters (river, file numbers) at `size`.
fn board_letters(size: f64) -> Style<'static> {
    Style {
        size,
        fill: LINE,
        bold: false,
        stroke: None,
        opacity: None,
    }
}

fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
    let _ = writeln!(
        out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        num(x1),
        num(y1),
        num(x2),
        num(y2)
    );
}

/// The frame, the lines, the palace diagonals.
fn grid(out: &mut String) {
    let (left, top) = at(0.0, 0.0);
    let gap = FRAME_GAP;
    let _ = writeln!(
        out,
        r#"<rect class="frame" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{LINE}" stroke-width="3"/>"#,
        num(left - gap),
        num(top - gap),
        num(8.0 * CELL + 2.0 * gap),
        num(9.0 * CELL + 2.0 * gap)
    );
    let _ = writeln!(
        out,
        r#"<g class="grid" stroke="{LINE}" stroke-width="1.5" stroke-linecap="square">"#
    );
    for y in 0..10 {
        let y = f64::from(y);
        line(out, at(0.0, y), at(8.0, y));
    }
    for x in 0..9 {
        let x = f64::from(x);
        if x == 0.0 || x == 8.0 {
            line(out, at(x, 0.0), at(x, 9.0));
        } else {
            // The river cuts the inner files.
            line(out, at(x, 0.0), at(x, 4.0));
            line(out, at(x, 5.0), at(x, 9.0));
        }
    }
    for top in [0.0, 7.0] {
        line(out, at(3.0, top), at(5.0, top + 2.0));
        line(out, at(5.0, top), at(3.0, top + 2.0));
    }
    out.push_str("</g>\n");
}

/// The corner marks of the cannons' and pawns' start points.
fn point_marks(out: &mut String) {
    let mut points: Vec<(u8, u8)> = Vec::new();
    for y in [2, 7] {
        points.extend([(1, y), (7, y)]);
    }
    for y in [3, 6] {
        points.extend((0..9).step_by(2).map(|x| (x, y)));
    }
    points.sort_by_key(|&(x, y)| (y, x));
    let (gap, arm) = (CELL * 0.08, CELL * 0.16);
    let _ = writeln!(
        out,
        r#"<g class="point-marks" fill="none" stroke="{LINE}" stroke-width="1.5">"#
    );
    for (px, py) in points {
        let (cx, cy) = at(f64::from(px), f64::from(py));
        let mut d = String::new();
        for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            if (px == 0 && dx < 0.0) || (px == 8 && dx > 0.0) {
                continue;
            }
            let (x, y) = (cx + dx * gap, cy + dy * gap);
            let _ = write!(
                d,
                "M{} {}L{} {}L{} {}",
                num(x),
                num(y + dy * arm),
                num(x),
                num(y),
                num(x + dx * arm),
                num(y)
            );
        }
        let _ = writeln!(
            out,
            r#"<path data-at="{}" d="{d}"/>"#,
            Point { x: px, y: py }
        );
    }
    out.push_str("</g>\n");
}

/// 楚河 and 汉界 in the river.
fn river(out: &mut String, letters: &mut Lettering) {
    let size = CELL * 0.56;
    let (_, y) = at(0.0, 4.5);
    let _ = writeln!(
        out,
        r#"<g class="river" fill="{LINE}" font-size="{}" text-anchor="middle" letter-spacing="{}">"#,
        num(size),
        num(size * 0.6)
    );
    for (x, text) in [(2.0, "楚河"), (6.0, "汉界")] {
        let (x, _) = at(x, 0.0);
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" fill-opacity=\"0\">{text}</text>",
            num(x),
            num(y + size * 0.36)
        );
        // The outlines, spaced as the text's letter-spacing spaces it.
        for (i, ch) in text.chars().enumerate() {
            let dx = (i as f64 - 0.5) * size * 1.6;
            letters.centred(out, ch, (x + dx, y), board_letters(size));
        }
    }
    out.push_str("</g>\n");
}

/// Black's numbers above the board, red's below it.
fn file_numbers(out: &mut String, letters: &mut Lettering) {
    let size = CELL * 0.34;
    let _ = writeln!(
        out,
        r#"<g class="file-numbers" fill="{LINE}" font-size="{}" text-anchor="middle">"#,
        num(size)
    );
    let (_, top) = at(0.0, 0.0);
    let (_, bottom) = at(0.0, 9.0);
    for x in 0..9u8 {
        let (cx, _) = at(f64::from(x), 0.0);
        // Black counts from its right (the left as drawn), red from its right.
        let black = BLACK_NUMBERS[usize::from(x)];
        let red = RED_NUMBERS[usize::from(8 - x)];
        let (black_y, red_y) = (
            top - FRAME_GAP - 8.0,
            bottom + FRAME_GAP + 6.0 + size * 0.88,
        );
        let _ = writeln!(
            out,
            "<text class=\"black\" x=\"{}\" y=\"{}\" fill-opacity=\"0\">{black}</text>",
            num(cx),
            num(black_y)
        );
        let number = board_letters(size * 0.8);
        letters.centred(out, black, (cx, black_y - size * 0.36), number);
        let _ = writeln!(
            out,
            "<text class=\"red\" x=\"{}\" y=\"{}\" fill-opacity=\"0\">{red}</text>",
            num(cx),
            num(red_y)
        );
        letters.centred(out, red, (cx, red_y - size * 0.36), number);
    }
    out.push_str("</g>\n");
}

fn draw_piece(out: &mut String, letters: &mut Lettering, p: Point, piece: Piece) {
    let (cx, cy) = centre(p);
    let colour = side_colour(piece.side);
    let size = CELL * 0.56;
    let _ = writeln!(
        out,
        r#"<g class="piece {}" data-at="{p}" data-piece="{}">"#,
        piece.side.name(),
        piece.fen_char()
    );
    let _ = writeln!(
        out,
        r#"<circle class="disc" cx="{}" cy="{}" r="{}" fill="{PIECE_FILL}" stroke="{colour}" stroke-width="2"/>"#,
        num(cx),
        num(cy),
        num(CELL * 0.44)
    );
    let _ = writeln!(
        out,
        r#"<circle class="ring" cx="{}" cy="{}" r="{}" fill="none" stroke="{colour}" stroke-width="1"/>"#,
        num(cx),
        num(cy),
        num(CELL * 0.37)
    );
    // The character drawn from its outline, centred on the point, and as text for search
    // and screen readers (transparent).
    let style = Style {
        size: size * 0.92,
        fill: colour,
        bold: false,
        stroke: None,
        opacity: None,
    };
    letters.centred(out, piece.chinese_name(), (cx, cy), style);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="{colour}" fill-opacity="0">{}</text>"#,
        num(cx),
        num(cy + size * 0.36),
        num(size),
        piece.chinese_name()
    );
    out.push_str("</g>\n");
}

/// Four corner brackets around point `p`, outside its piece.
fn corner_marks(out: &mut String, p: Point, class: &str) {
    let (cx, cy) = centre(p);
    let (half, arm) = (CELL * 0.48, CELL * 0.16);
    let mut d = String::new();
    for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        let (x, y) = (cx + dx * half, cy + dy * half);
        let _ = write!(
            d,
            "M{} {}L{} {}L{} {}",
            num(x),
            num(y - dy * arm),
            num(x),
            num(y),
            num(x - dx * arm),
            num(y)
        );
    }
    let _ = writeln!(
        out,
        r#"<path class="last-move {class}" data-at="{p}" d="{d}" fill="none" stroke="{HIGHLIGHT}" stroke-width="3" stroke-linecap="square"/>"#
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_escapes() {
        assert_eq!(num(50.0), "50");
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(-0.001), "0");
        assert_eq!(escape(r#"<&>"'帅"#), "&lt;&amp;&gt;&quot;&apos;帅");
    }

    #[test]
    fn the_start_has_32_pieces_and_the_file_numbers() {
        let svg = render_position_svg(&Position::start(), None);
        assert_eq!(svg.matches("<circle class=\"disc\"").count(), 32);
        assert_eq!(svg.matches("<g class=\"piece red\"").count(), 16);
        assert!(svg.contains(r#"data-at="e0" data-piece="K""#));
        assert!(svg.contains(">帅</text>") && svg.contains(">将</text>"));
        assert!(!svg.contains("last-move"));
        // Red's 一 is the rightmost file, black's １ the leftmost.
        let first = |s: &str| {
            let i = svg.find(s).expect(s);
            svg[..i].rfind(" x=\"").expect("an x") + 4
        };
        let x_of = |s: &str| -> f64 {
            let start = first(s);
            svg[start..start + svg[start..].find('"').expect("quote")]
                .parse()
                .expect("a number")
        };
        assert_eq!(x_of(">一</text>"), MARGIN_X + 8.0 * CELL);
        assert_eq!(x_of(">１</text>"), MARGIN_X);
        assert!(svg.contains("楚河") && svg.contains("汉界"));
        assert_eq!(svg, render_position_svg(&Position::start(), None));
    }

    #[test]
    fn the_last_move_is_marked_at_both_points() {
        let mut pos = Position::start();
        let mv = Move::parse_cbf("77-47").expect("a move");
        pos.play(mv).expect("legal");
        let svg = render_position_svg(&pos, Some(mv));
        assert!(svg.contains(r#"<path class="last-move from" data-at="h2""#));
        assert!(svg.contains(r#"<path class="last-move to" data-at="e2""#));
        assert!(svg.contains(r#"<circle class="last-move-origin" data-at="h2""#));
        assert!(svg.contains("after 77-47 (h2e2), black to move"));
        let off = Move::new(Point { x: 9, y: 3 }, Point { x: 4, y: 7 });
        let svg = render_position_svg(&pos, Some(off));
        assert!(svg.contains("<!-- last move not drawn: (9, 3) to e2 leaves the board -->"));
        assert!(!svg.contains("class=\"last-move"));
    }
}
