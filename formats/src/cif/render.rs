//! An SVG picture of one CIF game: the board at its size (8x8 up to 64x64) with file and
//! rank labels, and every marker of its move text.
//!
//! What is drawn, and how (the CIF page leaves the look to the application):
//! - Layers, bottom to top: regions, markers (all three shapes), values, lines, arrows;
//!   within a layer, document order (a later marker covers an earlier one).
//! - Colours ([`color_rgb`]): red `#e03131`, orange `#f08c00`, yellow `#fcc419`, green
//!   `#2f9e44`, blue `#1c7ed6`, darkblue `#1b2a7a`, purple `#862e9c`, white `#ffffff`, black
//!   `#000000`. White and yellow shapes get a thin dark outline, so that they show on the
//!   light squares.
//! - Opacity 1..255 becomes `fill-opacity` (and `stroke-opacity` for outlined shapes)
//!   `opacity / 255`; arrows, lines and symbols take it as the group's `opacity`, so that
//!   their overlapping parts do not add up. Absent (the reserved 0) means: 1, except for
//!   `full` markers (0.5, so that the square's own shade shows through) and arrows and lines
//!   (0.8, so that they do not hide what they cross).
//! - Square markers: `full` fills the square; `square` is a filled smaller square and
//!   `rectangle` the square's frame (outline); `disk` a filled circle and `circle` a ring;
//!   `cross` an X from corner to corner and `littlecross` a small X in the middle.
//! - Text markers: the character, centred, in the marker's colour. All text (markers,
//!   region text, labels, board tags) is drawn from embedded outlines
//!   ([`crate::lettering`]), so the picture needs no font; a character with none is a
//!   visible box with its code point, listed in [`Picture::missing`].
//! - Symbols (no colour in CIF): small vector drawings of a skull, a mushroom, a strawberry
//!   and a parcel, in their own colours; each carries a `<title>` with its name.
//! - Lines: a polyline through the centres of their squares. Regions: the rectangle with
//!   `from` and `to` as opposite corners, tinted, with its text (if any) across it.
//! - Values: a bar from the square's midline, up for positive values (green), down for
//!   negative ones (red), its height `|value| / 128` of half the square.
//! - 3D/4D squares (`e4B`, `e4B3`) are drawn on the 2D projection, at their file and rank;
//!   markers and values on them get a small tag with the board letter and row in the
//!   square's corner, and every drawn item keeps its squares as written in `data-*`
//!   attributes.
//! - A square outside the board (a document the rules reject) is not drawn; an XML comment
//!   says so. A game whose two board-size statements disagree is drawn at the widest
//!   reading, as the rules check it.
//!
//! The output is deterministic: the same game always gives the same text (the one `id`,
//! of the checkerboard pattern, is fixed).

use crate::lettering::{Anchor, Lettering, Picture, Style};
use crate::svg::num;
use std::fmt::Write as _;

use super::board::BoardSize;
use super::square::{file_name, Square};
use crate::generated::cif;

/// The RGB value (`#rrggbb`) this picture uses for a CIF colour.
pub fn color_rgb(color: cif::Color) -> &'static str {
    match color {
        cif::Color::Red => "#e03131",
        cif::Color::Orange => "#f08c00",
        cif::Color::Yellow => "#fcc419",
        cif::Color::Green => "#2f9e44",
        cif::Color::Blue => "#1c7ed6",
        cif::Color::Darkblue => "#1b2a7a",
        cif::Color::Purple => "#862e9c",
        cif::Color::White => "#ffffff",
        cif::Color::Black => "#000000",
    }
}

/// The light and dark squares (the usual wooden-board tones).
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
/// Value bars.
const POSITIVE: &str = "#2f9e44";
const NEGATIVE: &str = "#e03131";
/// Space above and right of the board.
const PAD: f64 = 8.0;

/// Renders `game`'s board and markers as a standalone SVG document (see the module
/// documentation for what is drawn and how).
pub fn render_game_svg(game: &cif::Game) -> String {
    render_game(game).svg
}

/// [`render_game_svg`], with the characters that had no embedded outline (a text marker
/// or a region's text may be any character: those are drawn as placeholders and listed).
pub fn render_game(game: &cif::Game) -> Picture {
    let size = BoardSize::of_game_or_widest(game);
    let mut canvas = Canvas::new(size);
    canvas.board();
    for class in LAYERS {
        canvas.layer(class, &game.moves.content);
    }
    canvas.out.push_str("</svg>\n");
    canvas.letters.finish(&canvas.head, &canvas.out)
}

/// The layers, bottom first: each kind of marking is drawn in a group of its own.
const LAYERS: [&str; 5] = ["regions", "markers", "values", "lines", "arrows"];

/// The layer an item of a game's moves is drawn in (`None`: text, not drawn).
fn layer_of(item: &cif::MovesContent) -> Option<&'static str> {
    match item {
        cif::MovesContent::Region(_) => Some("regions"),
        cif::MovesContent::Marker(_) => Some("markers"),
        cif::MovesContent::Value(_) => Some("values"),
        cif::MovesContent::Line(_) => Some("lines"),
        cif::MovesContent::Arrow(_) => Some("arrows"),
        cif::MovesContent::Text(_) | cif::MovesContent::CData(_) => None,
    }
}

/// Opacity 1..255 as a fraction, or `default` when absent.
fn alpha(opacity: Option<cif::Opacity>, default: f64) -> String {
    num(opacity.map_or(default, |o| o.get() as f64 / 255.0))
}

/// A thin dark outline for the colours that vanish on light squares.
fn outline(color: cif::Color) -> &'static str {
    match color {
        cif::Color::White | cif::Color::Yellow => r##" stroke="#404040" stroke-width="1""##,
        _ => "",
    }
}

/// The edge of text in the colours that vanish on light squares.
fn edge(color: cif::Color) -> Option<&'static str> {
    match color {
        cif::Color::White | cif::Color::Yellow => Some("#404040"),
        _ => None,
    }
}

struct Canvas {
    /// The `<svg>` start tag and the title; the outlines' `<defs>` go between it and `out`.
    head: String,
    out: String,
    letters: Lettering,
    size: BoardSize,
    /// The side of one square, in pixels.
    cell: f64,
    /// The board's left edge (the rank labels are left of it).
    x0: f64,
    /// The board's top edge.
    y0: f64,
    font: f64,
}

impl Canvas {
    fn new(size: BoardSize) -> Canvas {
        let longest = f64::from(size.files.max(size.ranks));
        // 48 px squares up to 10x10, shrinking to 12 px so that 64x64 stays about 800 px.
        let cell = (480.0 / longest).clamp(12.0, 48.0);
        let font = (cell * 0.45).clamp(7.0, 14.0);
        // Room for "64" left of the board and "lll" below it.
        let margin = (font * 2.2).max(20.0);
        let width = margin + f64::from(size.files) * cell + PAD;
        let height = PAD + f64::from(size.ranks) * cell + margin;
        let head = crate::svg::start(width, height, &format!("CIF game on the {size} board"));
        Canvas {
            head,
            out: String::new(),
            letters: Lettering::new(),
            size,
            cell,
            x0: margin,
            y0: PAD,
            font,
        }
    }

    /// The top-left corner of a square.
    fn corner(&self, s: Square) -> (f64, f64) {
        (
            self.x0 + f64::from(s.file() - 1) * self.cell,
            self.y0 + f64::from(self.size.ranks - s.rank()) * self.cell,
        )
    }

    fn centre(&self, s: Square) -> (f64, f64) {
        let (x, y) = self.corner(s);
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }

    /// The checkerboard, its frame and its labels.
    fn board(&mut self) {
        let c = self.cell;
        let (w, h) = (
            f64::from(self.size.files) * c,
            f64::from(self.size.ranks) * c,
        );
        // a1 is dark; the pattern starts at the top-left square, file a of the last rank.
        let top_left_dark = self.size.ranks % 2 == 1;
        let (d1, d2) = if top_left_dark {
            ((0.0, 0.0), (c, c))
        } else {
            ((c, 0.0), (0.0, c))
        };
        let _ = writeln!(
            self.out,
            r#"<defs><pattern id="cif-checker" patternUnits="userSpaceOnUse" x="{x}" y="{y}" width="{c2}" height="{c2}"><rect width="{c2}" height="{c2}" fill="{LIGHT}"/><rect x="{}" y="{}" width="{c}" height="{c}" fill="{DARK}"/><rect x="{}" y="{}" width="{c}" height="{c}" fill="{DARK}"/></pattern></defs>"#,
            num(d1.0),
            num(d1.1),
            num(d2.0),
            num(d2.1),
            x = num(self.x0),
            y = num(self.y0),
            c = num(c),
            c2 = num(2.0 * c),
        );
        let _ = writeln!(
            self.out,
            r##"<rect class="board" x="{}" y="{}" width="{}" height="{}" fill="url(#cif-checker)" stroke="#5c4630" stroke-width="1"/>"##,
            num(self.x0),
            num(self.y0),
            num(w),
            num(h)
        );
        self.out.push_str("<g class=\"labels\">\n");
        let style = Style {
            size: self.font,
            fill: "#333333",
            bold: false,
            stroke: None,
            opacity: None,
        };
        // Tripled file names are wider than the squares of big boards: then all file
        // labels are written downwards.
        let widest = Lettering::width(&file_name(self.size.files), self.font);
        let downwards = widest > 0.9 * c;
        for file in 1..=self.size.files {
            let x = self.x0 + (f64::from(file) - 0.5) * c;
            let name = file_name(file);
            if downwards {
                let (x, y) = (x - self.font * 0.35, self.y0 + h + 3.0);
                let _ = writeln!(
                    self.out,
                    "<g transform=\"rotate(90 {x} {y})\">",
                    x = num(x),
                    y = num(y),
                );
                let (out, letters) = (&mut self.out, &mut self.letters);
                letters.run(out, &name, (x, y), Anchor::Start, style);
                self.out.push_str("</g>\n");
            } else {
                let at = (x, self.y0 + h + self.font * 1.3);
                self.letters
                    .run(&mut self.out, &name, at, Anchor::Middle, style);
            }
        }
        for rank in 1..=self.size.ranks {
            let x = self.x0 - self.font * 1.1;
            let y = self.y0 + (f64::from(self.size.ranks - rank) + 0.5) * c + self.font * 0.35;
            let rank = rank.to_string();
            self.letters
                .run(&mut self.out, &rank, (x, y), Anchor::Middle, style);
        }
        self.out.push_str("</g>\n");
    }

    /// One group of items, drawn by `draw` for each item of the move text.
    /// The group `class` (one of [`LAYERS`]): the items of `content` drawn in it.
    fn layer(&mut self, class: &str, content: &[cif::MovesContent]) {
        let _ = writeln!(self.out, "<g class=\"{class}\">");
        for item in content.iter().filter(|item| layer_of(item) == Some(class)) {
            match item {
                cif::MovesContent::Region(r) => self.region(r),
                cif::MovesContent::Marker(m) => self.marker(m),
                cif::MovesContent::Value(v) => self.value(v),
                cif::MovesContent::Line(l) => self.line(l),
                cif::MovesContent::Arrow(a) => self.arrow(a),
                cif::MovesContent::Text(_) | cif::MovesContent::CData(_) => {}
            }
        }
        self.out.push_str("</g>\n");
    }

    /// The square, if it is one on the board; otherwise a comment says why it is not drawn.
    fn place(&mut self, square: Square, what: &str) -> Option<Square> {
        if self.size.contains(square) {
            return Some(square);
        }
        // Squares hold no "--", so the comment stays well-formed.
        let _ = writeln!(
            self.out,
            "<!-- {what} not drawn: {square} is not a square of the {} board -->",
            self.size
        );
        None
    }

    /// The small board-letter tag of a 3D/4D square, in its top-right corner.
    fn board_tag(&mut self, s: Square) {
        let Some(board) = s.board() else {
            return;
        };
        let (x, y) = self.corner(s);
        let row = s.row().map(|r| r.to_string()).unwrap_or_default();
        let style = Style {
            size: self.cell * 0.28,
            fill: "#222222",
            bold: false,
            stroke: None,
            opacity: None,
        };
        let at = (x + self.cell - style.size * 0.2, y + style.size);
        self.out.push_str("<g class=\"board-tag\">\n");
        let tag = format!("{board}{row}");
        self.letters
            .run(&mut self.out, &tag, at, Anchor::End, style);
        self.out.push_str("</g>\n");
    }

    fn marker(&mut self, marker: &cif::Marker) {
        match marker {
            cif::Marker::SquareMarker(m) => self.square_marker(m),
            cif::Marker::TextMarker(m) => self.text_marker(m),
            cif::Marker::SymbolMarker(m) => self.symbol(m),
        }
    }

    fn square_marker(&mut self, m: &cif::SquareMarker) {
        let Some(s) = self.place(m.at, "marker") else {
            return;
        };
        let c = self.cell;
        let (x, y) = self.corner(s);
        let (cx, cy) = self.centre(s);
        let rgb = color_rgb(m.color);
        let kind = m.r#type.as_str();
        let _ = writeln!(self.out, "<g class=\"marker {kind}\" data-at=\"{}\">", m.at);
        let filled = |default| {
            format!(
                r#"fill="{rgb}" fill-opacity="{}"{}"#,
                alpha(m.opacity, default),
                outline(m.color)
            )
        };
        let stroked = |width: f64| {
            format!(
                r#"fill="none" stroke="{rgb}" stroke-opacity="{}" stroke-width="{}" stroke-linecap="round""#,
                alpha(m.opacity, 1.0),
                num(width)
            )
        };
        let line = |out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), paint: &str| {
            let _ = writeln!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {paint}/>",
                num(x1),
                num(y1),
                num(x2),
                num(y2)
            );
        };
        match m.r#type {
            cif::MarkerTypeID::Full => {
                let _ = writeln!(
                    self.out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {}/>",
                    num(x),
                    num(y),
                    num(c),
                    num(c),
                    filled(0.5)
                );
            }
            cif::MarkerTypeID::Square => {
                let _ = writeln!(
                    self.out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {}/>",
                    num(cx - c * 0.25),
                    num(cy - c * 0.25),
                    num(c * 0.5),
                    num(c * 0.5),
                    filled(1.0)
                );
            }
            cif::MarkerTypeID::Rectangle => {
                let w = c * 0.1;
                let _ = writeln!(
                    self.out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {}/>",
                    num(x + w / 2.0),
                    num(y + w / 2.0),
                    num(c - w),
                    num(c - w),
                    stroked(w)
                );
            }
            cif::MarkerTypeID::Disk => {
                let _ = writeln!(
                    self.out,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/>",
                    num(cx),
                    num(cy),
                    num(c * 0.3),
                    filled(1.0)
                );
            }
            cif::MarkerTypeID::Circle => {
                let _ = writeln!(
                    self.out,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/>",
                    num(cx),
                    num(cy),
                    num(c * 0.38),
                    stroked(c * 0.08)
                );
            }
            cif::MarkerTypeID::Cross | cif::MarkerTypeID::Littlecross => {
                let (inset, width) = if m.r#type == cif::MarkerTypeID::Cross {
                    (0.14, 0.1)
                } else {
                    (0.34, 0.08)
                };
                let (a, b) = (c * inset, c * (1.0 - inset));
                let paint = stroked(c * width);
                line(&mut self.out, (x + a, y + a), (x + b, y + b), &paint);
                line(&mut self.out, (x + a, y + b), (x + b, y + a), &paint);
            }
        }
        self.board_tag(s);
        self.out.push_str("</g>\n");
    }

    fn text_marker(&mut self, m: &cif::TextMarker) {
        let Some(s) = self.place(m.at, "text marker") else {
            return;
        };
        let (cx, cy) = self.centre(s);
        let size = self.cell * 0.7;
        let _ = writeln!(self.out, "<g class=\"marker text\" data-at=\"{}\">", m.at);
        let opacity = alpha(m.opacity, 1.0);
        let style = Style {
            size,
            fill: color_rgb(m.color),
            bold: true,
            // White and yellow letters get a dark edge, as the shapes do.
            stroke: edge(m.color),
            opacity: Some(&opacity),
        };
        // The baseline, so that capitals and CJK characters sit about the centre.
        let at = (cx, cy + size * 0.35);
        let text = m.content.as_str();
        self.letters
            .run(&mut self.out, text, at, Anchor::Middle, style);
        self.board_tag(s);
        self.out.push_str("</g>\n");
    }

    fn symbol(&mut self, m: &cif::SymbolMarker) {
        let Some(s) = self.place(m.at, "symbol") else {
            return;
        };
        let (x, y) = self.corner(s);
        let name = m.content.as_str();
        let _ = writeln!(
            self.out,
            r#"<g class="marker symbol {name}" data-at="{}" opacity="{}">"#,
            m.at,
            alpha(m.opacity, 1.0)
        );
        let _ = writeln!(
            self.out,
            r#"<title>{name}</title><g transform="translate({} {}) scale({})">{}</g>"#,
            num(x),
            num(y),
            num(self.cell / 100.0),
            symbol_drawing(m.content)
        );
        self.board_tag(s);
        self.out.push_str("</g>\n");
    }

    fn line(&mut self, l: &cif::Line) {
        let squares = l.content.squares();
        if !squares.iter().all(|s| self.size.contains(*s)) {
            let _ = writeln!(
                self.out,
                "<!-- line not drawn: {} leaves the {} board -->",
                l.content, self.size
            );
            return;
        }
        let points: Vec<String> = squares
            .iter()
            .map(|s| {
                let (x, y) = self.centre(*s);
                format!("{},{}", num(x), num(y))
            })
            .collect();
        let _ = writeln!(
            self.out,
            r#"<polyline class="line" data-squares="{}" points="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round" opacity="{}"/>"#,
            l.content,
            points.join(" "),
            color_rgb(l.color),
            num(self.cell * 0.12),
            alpha(l.opacity, 0.8)
        );
    }

    fn region(&mut self, r: &cif::Region) {
        let (Some(from), Some(to)) = (
            self.place(r.from, "region corner"),
            self.place(r.to, "region corner"),
        ) else {
            return;
        };
        // Either corner order: the rectangle spans the smaller to the larger file and rank.
        let (low_file, high_file) = (from.file().min(to.file()), from.file().max(to.file()));
        let (low_rank, high_rank) = (from.rank().min(to.rank()), from.rank().max(to.rank()));
        let top_left = Square::new(low_file, high_rank).expect("a square of the board");
        let (x, y) = self.corner(top_left);
        let w = f64::from(high_file - low_file + 1) * self.cell;
        let h = f64::from(high_rank - low_rank + 1) * self.cell;
        let rgb = color_rgb(r.color);
        let _ = writeln!(
            self.out,
            r#"<g class="region" data-from="{}" data-to="{}">"#,
            r.from, r.to
        );
        let _ = writeln!(
            self.out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{rgb}" fill-opacity="0.3" stroke="{rgb}" stroke-width="{}"/>"#,
            num(x),
            num(y),
            num(w),
            num(h),
            num(self.cell * 0.06)
        );
        let text = r.content.trim();
        if !text.is_empty() {
            // As large as fits: half the height, and the width for this many characters.
            // (A run of zero-width characters still gets a finite size.)
            let em_width = Lettering::width(text, 1.0).max(0.1);
            let size = (h * 0.5).min(w * 0.9 / em_width).min(self.cell * 0.8);
            let style = Style {
                size,
                fill: "#111111",
                bold: true,
                stroke: None,
                opacity: None,
            };
            let at = (x + w / 2.0, y + h / 2.0 + size * 0.35);
            self.letters
                .run(&mut self.out, text, at, Anchor::Middle, style);
        }
        self.out.push_str("</g>\n");
    }

    fn value(&mut self, v: &cif::Value) {
        let Some(s) = self.place(v.at, "value") else {
            return;
        };
        let c = self.cell;
        let (x, _) = self.corner(s);
        let (cx, cy) = self.centre(s);
        let _ = writeln!(
            self.out,
            r#"<g class="value" data-at="{}" data-value="{}">"#,
            v.at, v.content
        );
        let _ = writeln!(
            self.out,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#333333" stroke-width="1"/>"##,
            num(x + c * 0.15),
            num(cy),
            num(x + c * 0.85),
            num(cy)
        );
        if v.content != 0 {
            let height = f64::from(v.content.unsigned_abs()) / 128.0 * c * 0.45;
            let (top, fill) = if v.content > 0 {
                (cy - height, POSITIVE)
            } else {
                (cy, NEGATIVE)
            };
            let _ = writeln!(
                self.out,
                r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="#222222" stroke-width="0.5"/>"##,
                num(cx - c * 0.15),
                num(top),
                num(c * 0.3),
                num(height)
            );
        }
        self.board_tag(s);
        self.out.push_str("</g>\n");
    }

    fn arrow(&mut self, a: &cif::Arrow) {
        let (Some(from), Some(to)) = (self.place(a.from, "arrow"), self.place(a.to, "arrow"))
        else {
            return;
        };
        let c = self.cell;
        let rgb = color_rgb(a.color);
        let _ = writeln!(
            self.out,
            r#"<g class="arrow" data-from="{}" data-to="{}" opacity="{}">"#,
            a.from,
            a.to,
            alpha(a.opacity, 0.8)
        );
        let (x1, y1) = self.centre(from);
        let (x2, y2) = self.centre(to);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let length = dx.hypot(dy);
        if length == 0.0 {
            // From a square to itself (say, on two 3D boards): a ring on the square.
            let _ = writeln!(
                self.out,
                r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{rgb}" stroke-width="{}"/>"#,
                num(x1),
                num(y1),
                num(c * 0.3),
                num(c * 0.12)
            );
        } else {
            let (ux, uy) = (dx / length, dy / length);
            let head = (c * 0.45).min(length * 0.6);
            let half_width = c * 0.2;
            // The shaft ends inside the head, so that no butt shows at the tip.
            let (sx, sy) = (x2 - ux * head * 0.8, y2 - uy * head * 0.8);
            let (bx, by) = (x2 - ux * head, y2 - uy * head);
            let _ = writeln!(
                self.out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{rgb}" stroke-width="{}" stroke-linecap="round"/>"#,
                num(x1),
                num(y1),
                num(sx),
                num(sy),
                num(c * 0.12)
            );
            let _ = writeln!(
                self.out,
                r#"<polygon points="{},{} {},{} {},{}" fill="{rgb}"/>"#,
                num(x2),
                num(y2),
                num(bx - uy * half_width),
                num(by + ux * half_width),
                num(bx + uy * half_width),
                num(by - ux * half_width)
            );
        }
        self.out.push_str("</g>\n");
    }
}

/// A symbol drawn in a 100x100 box (the square, scaled).
fn symbol_drawing(symbol: cif::Symbol) -> &'static str {
    match symbol {
        cif::Symbol::Skull => concat!(
            r##"<path d="M50 12C27 12 16 28 16 46C16 58 23 66 30 69L30 84L70 84L70 69C77 66 84 58 84 46C84 28 73 12 50 12Z" fill="#f5f5f0" stroke="#222222" stroke-width="4"/>"##,
            r##"<circle cx="37" cy="46" r="9" fill="#222222"/><circle cx="63" cy="46" r="9" fill="#222222"/>"##,
            r##"<path d="M50 57L45 66L55 66Z" fill="#222222"/>"##,
            r##"<path d="M41 74V84M50 74V84M59 74V84" fill="none" stroke="#222222" stroke-width="3"/>"##,
        ),
        cif::Symbol::Mushroom => concat!(
            r##"<path d="M40 55L37 86Q50 93 63 86L60 55Z" fill="#f3e6c8" stroke="#6b4f2a" stroke-width="3"/>"##,
            r##"<path d="M10 60C10 26 30 12 50 12C70 12 90 26 90 60Z" fill="#d62828" stroke="#6b1010" stroke-width="3"/>"##,
            r##"<circle cx="31" cy="38" r="7" fill="#ffffff"/><circle cx="54" cy="25" r="6" fill="#ffffff"/>"##,
            r##"<circle cx="71" cy="43" r="7" fill="#ffffff"/><circle cx="48" cy="49" r="5" fill="#ffffff"/>"##,
        ),
        cif::Symbol::Strawberry => concat!(
            r##"<path d="M50 92C30 82 14 62 16 44C18 31 31 27 50 31C69 27 82 31 84 44C86 62 70 82 50 92Z" fill="#e03131" stroke="#8a1c1c" stroke-width="3"/>"##,
            r##"<path d="M50 34L34 20L46 25L50 10L54 25L66 20Z" fill="#2f9e44" stroke="#1b5e20" stroke-width="2"/>"##,
            r##"<g fill="#ffe066"><circle cx="36" cy="46" r="2.5"/><circle cx="50" cy="50" r="2.5"/><circle cx="64" cy="46" r="2.5"/><circle cx="43" cy="63" r="2.5"/><circle cx="57" cy="63" r="2.5"/><circle cx="50" cy="77" r="2.5"/><circle cx="28" cy="56" r="2.5"/><circle cx="72" cy="56" r="2.5"/></g>"##,
        ),
        cif::Symbol::Parcel => concat!(
            r##"<rect x="16" y="34" width="68" height="54" fill="#c8955a" stroke="#6b4f2a" stroke-width="3"/>"##,
            r##"<rect x="12" y="26" width="76" height="14" fill="#d9a86c" stroke="#6b4f2a" stroke-width="3"/>"##,
            r##"<rect x="45" y="26" width="10" height="62" fill="#e03131"/>"##,
            r##"<path d="M50 26C40 8 26 14 38 26ZM50 26C60 8 74 14 62 26Z" fill="#e03131" stroke="#8a1c1c" stroke-width="2"/>"##,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg::escape;
    use boardxml::xml::Reader;

    fn game(attributes: &str, moves: &str) -> cif::Game {
        let text = format!("<cif><game{attributes}><moves>{moves}</moves></game></cif>");
        let mut reader = Reader::new(&text);
        let doc = reader.read_document::<cif::Root>();
        assert!(
            reader.diagnostics().is_empty(),
            "{:?}",
            reader.diagnostics()
        );
        let cif::Root::Cif(mut root) = doc.expect("a document");
        root.game.remove(0)
    }

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(48.0), "48");
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
        assert_eq!(alpha(None, 0.8), "0.8");
        assert_eq!(
            alpha(Some(cif::Opacity::new(255).expect("1..255")), 0.8),
            "1"
        );
        assert_eq!(
            alpha(Some(cif::Opacity::new(128).expect("1..255")), 0.8),
            "0.5"
        );
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape(r#"<&>"'帅"#), "&lt;&amp;&gt;&quot;&apos;帅");
        let svg = render_game_svg(&game(
            "",
            r#"<marker type="text" color="red" at="a1">&lt;</marker><region color="blue" from="a1" to="b2">a&amp;b</region>"#,
        ));
        assert!(svg.contains(">&lt;</text>"), "{svg}");
        assert!(svg.contains(">a&amp;b</text>"), "{svg}");
    }

    #[test]
    fn the_board_has_its_labels() {
        let svg = render_game_svg(&game(r#" boardsize="64x64""#, ""));
        assert!(svg.contains(">lll</text>"));
        assert!(svg.contains(">aa</text>"));
        assert!(svg.contains(">64</text>"));
        assert_eq!(svg.matches("<text ").count(), 128);
        let svg = render_game_svg(&game("", ""));
        assert_eq!(svg.matches("<text ").count(), 16);
        assert!(svg.contains("<title>CIF game on the 8x8 board</title>"));
    }

    #[test]
    fn squares_are_placed_by_file_and_rank() {
        // 8x8: 48 px squares.
        let c = Canvas::new(BoardSize::default());
        let a1 = "a1".parse().expect("a1");
        let h8 = "h8".parse().expect("h8");
        let (ax, ay) = c.corner(a1);
        let (hx, hy) = c.corner(h8);
        assert_eq!(hx - ax, 7.0 * 48.0);
        assert_eq!(ay - hy, 7.0 * 48.0, "rank 1 at the bottom");
        assert_eq!(
            c.corner("e4B3".parse().expect("e4B3")),
            c.corner("e4".parse().expect("e4"))
        );
    }

    #[test]
    fn off_board_squares_are_not_drawn() {
        let svg = render_game_svg(&game(
            "",
            r#"<marker type="full" color="red" at="j9"/><arrow color="red" from="a1" to="i1"/><line color="red">a1i9</line>"#,
        ));
        assert!(!svg.contains("class=\"marker full\""));
        assert!(!svg.contains("class=\"arrow\""));
        assert!(!svg.contains("class=\"line\""));
        assert!(svg.contains("<!-- marker not drawn: j9 is not a square of the 8x8 board -->"));
        assert!(svg.contains("<!-- line not drawn: a1i9 leaves the 8x8 board -->"));
    }

    #[test]
    fn output_is_deterministic() {
        let g = game(
            r#" files="10""#,
            r#"<arrow color="red" from="a1" to="j8"/><marker at="e4">skull</marker><value at="e5">-5</value>"#,
        );
        assert_eq!(render_game_svg(&g), render_game_svg(&g.clone()));
    }
}
