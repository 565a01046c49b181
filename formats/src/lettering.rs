//! Text in the pictures (CIF games, xiangqi positions) drawn from embedded outlines, so
//! that a picture needs no font: every character with an outline in `src/glyphs.rs` (the
//! printable ASCII characters, the pieces, the board's and the notation's words, common
//! header words and names; see `scripts/glyphs.py`) is a `<use>` of its outline, defined
//! once per picture in `<defs>`; any other character is a visible placeholder (a box with
//! its code point written in it) and is named in [`Picture::missing`], which `boardxml
//! render` prints as a warning. Nothing is left to a font: a renderer without one draws
//! the same picture.
//!
//! The text itself stays in the picture as transparent `<text>` (`fill-opacity="0"`), so
//! that it can be found, copied and read aloud; it draws nothing.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::glyphs::{Glyph, GLYPHS, UNITS_PER_EM};
use crate::svg::{escape, num, num4};

/// A picture as SVG, with the characters it could not draw from outlines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// The SVG document.
    pub svg: String,
    /// The characters drawn as placeholders (no embedded outline), each once, in order
    /// of code point.
    pub missing: Vec<char>,
}

impl Picture {
    /// The warning for [`Picture::missing`] (`None` when every character was drawn from
    /// its outline): which characters, with their code points, and what was drawn instead.
    pub fn missing_warning(&self) -> Option<String> {
        if self.missing.is_empty() {
            return None;
        }
        let named: Vec<String> = self
            .missing
            .iter()
            .map(|&c| format!("{c} ({})", code_point(c)))
            .collect();
        let n = self.missing.len();
        Some(format!(
            "{n} {} no embedded outline and {} drawn as a box with {} code point: {}",
            if n == 1 {
                "character has"
            } else {
                "characters have"
            },
            if n == 1 { "is" } else { "are" },
            if n == 1 { "its" } else { "their" },
            named.join(", ")
        ))
    }
}

fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// The embedded outline of `ch`, with its index in [`GLYPHS`].
fn glyph(ch: char) -> Option<(usize, &'static Glyph)> {
    GLYPHS
        .binary_search_by(|g| g.ch.cmp(&ch))
        .ok()
        .map(|i| (i, &GLYPHS[i]))
}

/// Where a run of text stands relative to its `x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    Start,
    Middle,
    End,
}

/// How a run is drawn: its size (pixels to the em), colour, weight and opacity.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style<'a> {
    pub(crate) size: f64,
    pub(crate) fill: &'a str,
    /// Bold: the outlines get a stroke, of their own colour or `stroke`.
    pub(crate) bold: bool,
    /// The bold stroke's colour, if not the fill's (a dark edge for white letters).
    pub(crate) stroke: Option<&'a str>,
    /// `fill-opacity` (and the bold stroke's opacity); `None`: opaque.
    pub(crate) opacity: Option<&'a str>,
}

/// The characters drawn so far: which outlines to define, which had none.
#[derive(Debug, Default)]
pub(crate) struct Lettering {
    used: BTreeSet<usize>,
    missing: BTreeSet<char>,
}

impl Lettering {
    pub(crate) fn new() -> Lettering {
        Lettering::default()
    }

    /// The width of `c` at `size`: its advance, or one em for a placeholder.
    fn advance(c: char, size: f64) -> f64 {
        match glyph(c) {
            Some((_, g)) => f64::from(g.advance) / UNITS_PER_EM * size,
            // Other white space (a tab, an ideographic space) as a space.
            None if c.is_whitespace() => glyph(' ').map_or(0.3 * size, |(_, g)| {
                f64::from(g.advance) / UNITS_PER_EM * size
            }),
            None => size,
        }
    }

    /// The width of `text` at `size`.
    pub(crate) fn width(text: &str, size: f64) -> f64 {
        text.chars().map(|c| Lettering::advance(c, size)).sum()
    }

    /// One outline, its origin at (x, baseline).
    fn place(&mut self, out: &mut String, index: usize, (x, baseline): (f64, f64), style: Style) {
        self.used.insert(index);
        let k = style.size / UNITS_PER_EM;
        let _ = write!(
            out,
            r##"<use href="#{}" transform="translate({} {}) scale({} {})""##,
            glyph_id(GLYPHS[index].ch),
            num(x),
            num(baseline),
            num4(k),
            num4(-k)
        );
        if style.bold {
            // The stroke is in font units: the outline's own coordinate system.
            let _ = write!(
                out,
                r#" stroke="{}" stroke-width="{}" stroke-linejoin="round""#,
                style.stroke.unwrap_or(style.fill),
                num(UNITS_PER_EM * 0.045)
            );
            if let Some(o) = style.opacity {
                let _ = write!(out, r#" stroke-opacity="{o}""#);
            }
        }
        out.push_str("/>\n");
    }

    /// The placeholder of `c` in the em box at (x, baseline): a frame with its code point.
    fn placeholder(&mut self, out: &mut String, c: char, (x, baseline): (f64, f64), style: Style) {
        self.missing.insert(c);
        let size = style.size;
        let hex = format!("{:X}", c as u32);
        let _ = writeln!(
            out,
            r#"<g class="missing-glyph" data-char="{}" fill="{}"><title>{} {}: no embedded outline</title>"#,
            code_point(c),
            style.fill,
            code_point(c),
            escape(&c.to_string())
        );
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="{}"/>"#,
            num(x + 0.08 * size),
            num(baseline - 0.82 * size),
            num(0.84 * size),
            num(0.94 * size),
            style.fill,
            num((size * 0.05).max(0.5))
        );
        let digit = Style {
            size: (0.74 / (hex.len() as f64 * 0.57)).min(0.42) * size,
            bold: false,
            ..style
        };
        let width = Lettering::width(&hex, digit.size);
        let mut at = x + 0.5 * size - width / 2.0;
        let digits_baseline = baseline - 0.35 * size + digit.size * 0.36;
        for d in hex.chars() {
            if let Some((i, _)) = glyph(d) {
                self.place(out, i, (at, digits_baseline), digit);
            }
            at += Lettering::advance(d, digit.size);
        }
        out.push_str("</g>\n");
    }

    /// `text` on `baseline`, placed at `x` by `anchor`, in `style`; with the text as
    /// transparent `<text>` for search (its `class` is `class`, if any). Gives its width.
    pub(crate) fn run(
        &mut self,
        out: &mut String,
        text: &str,
        (x, baseline): (f64, f64),
        anchor: Anchor,
        style: Style,
    ) -> f64 {
        let total = Lettering::width(text, style.size);
        let mut at = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - total / 2.0,
            Anchor::End => x - total,
        };
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="{}" fill-opacity="0">{}</text>"#,
            num(at),
            num(baseline),
            num(style.size),
            escape(text)
        );
        let _ = write!(out, r#"<g fill="{}""#, style.fill);
        if let Some(o) = style.opacity {
            let _ = write!(out, r#" fill-opacity="{o}""#);
        }
        out.push_str(">\n");
        for c in text.chars() {
            match glyph(c) {
                Some((i, g)) if !g.path.is_empty() => self.place(out, i, (at, baseline), style),
                // A blank only moves on.
                Some(_) => {}
                None if c.is_whitespace() => {}
                None => self.placeholder(out, c, (at, baseline), style),
            }
            at += Lettering::advance(c, style.size);
        }
        out.push_str("</g>\n");
        total
    }

    /// `ch` at `size` pixels to the em, its bounding box centred on (cx, cy) (the pieces,
    /// the river, the file numbers); no transparent text (the caller writes its own).
    pub(crate) fn centred(
        &mut self,
        out: &mut String,
        ch: char,
        (cx, cy): (f64, f64),
        style: Style,
    ) {
        match glyph(ch) {
            Some((i, g)) if !g.path.is_empty() => {
                let k = style.size / UNITS_PER_EM;
                let [x0, y0, x1, y1] = g.bounds.map(f64::from);
                let at = (cx - (x0 + x1) / 2.0 * k, cy + (y0 + y1) / 2.0 * k);
                // The fill on the <use> itself: a piece's group holds no inner group.
                let mut one = String::new();
                self.place(&mut one, i, at, style);
                let filled = format!(r#"<use fill="{}" "#, style.fill);
                out.push_str(&one.replacen("<use ", &filled, 1));
            }
            Some(_) => {}
            None if ch.is_whitespace() => {}
            None => {
                let size = style.size;
                self.placeholder(out, ch, (cx - 0.5 * size, cy + 0.35 * size), style);
            }
        }
    }

    /// The `<defs>` with the outline of every character drawn, once each, in the table's
    /// order (deterministic).
    pub(crate) fn defs(&self) -> String {
        let mut out = String::from("<defs>\n");
        for &i in &self.used {
            let g = &GLYPHS[i];
            let _ = writeln!(out, r#"<path id="{}" d="{}"/>"#, glyph_id(g.ch), g.path);
        }
        out.push_str("</defs>\n");
        out
    }

    /// The picture: `head` (the `<svg>` start tag and what must come first), the outlines'
    /// `<defs>`, then `body` (which ends with `</svg>`).
    pub(crate) fn finish(self, head: &str, body: &str) -> Picture {
        let defs = self.defs();
        let mut svg = String::with_capacity(head.len() + defs.len() + body.len());
        svg.push_str(head);
        svg.push_str(&defs);
        svg.push_str(body);
        Picture {
            svg,
            missing: self.missing.into_iter().collect(),
        }
    }
}

/// The `id` of a character's outline in `<defs>`.
fn glyph_id(ch: char) -> String {
    format!("g-{:x}", ch as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_has_ascii_and_the_pieces() {
        assert!(GLYPHS.windows(2).all(|w| w[0].ch < w[1].ch));
        for c in (0x21u8..0x7F)
            .map(char::from)
            .chain("帅将楚河汉界棋手".chars())
        {
            assert!(glyph(c).is_some_and(|(_, g)| !g.path.is_empty()), "{c}");
        }
    }

    #[test]
    fn a_character_without_an_outline_is_a_named_placeholder() {
        let mut l = Lettering::new();
        let mut out = String::new();
        let style = Style {
            size: 20.0,
            fill: "#000000",
            bold: false,
            stroke: None,
            opacity: None,
        };
        l.run(&mut out, "a龘 b", (0.0, 20.0), Anchor::Start, style);
        assert!(
            out.contains(r##"<g class="missing-glyph" data-char="U+9F98" fill="#000000">"##),
            "{out}"
        );
        let picture = l.finish("<svg>", "</svg>");
        assert_eq!(picture.missing, vec!['龘']);
        assert_eq!(
            picture.missing_warning().as_deref(),
            Some("1 character has no embedded outline and is drawn as a box with its code point: 龘 (U+9F98)")
        );
        // a, b, and the placeholder's four hex digits.
        assert_eq!(out.matches("<use ").count(), 2 + 4);
    }
}
