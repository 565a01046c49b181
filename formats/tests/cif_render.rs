//! The SVG pictures of CIF games: every game of the valid examples, and games made to use
//! every kind of marker, rasterised with resvg (a picture it cannot read, or whose shapes it
//! drops as invalid, fails), with structural counts and a few pixels checked.

use std::path::Path;

use boardxml::xml::Reader;
use boardxml_formats::cif::render::{color_rgb, render_game_svg};
use boardxml_formats::generated::cif;
use pictures::{attribute_after, near, pixel, rasterise, rgb, save_for_review};

#[path = "../../tests/common/pictures.rs"]
mod pictures;

fn games(text: &str) -> Vec<cif::Game> {
    let mut reader = Reader::new(text);
    let doc = reader.read_document::<cif::Root>();
    assert!(
        reader.diagnostics().is_empty(),
        "{:?}",
        reader.diagnostics()
    );
    let cif::Root::Cif(root) = doc.expect("a document");
    root.game
}

fn game(attributes: &str, moves: &str) -> cif::Game {
    games(&format!(
        "<cif><game{attributes}><moves>{moves}</moves></game></cif>"
    ))
    .remove(0)
}

/// The shape elements written (the checkerboard pattern's three rects are paint, not
/// shapes of the picture).
fn shapes_written(svg: &str) -> usize {
    [
        "<rect ",
        "<line ",
        "<circle ",
        "<polygon ",
        "<polyline ",
        "<path ",
    ]
    .iter()
    .map(|s| svg.matches(s).count())
    .sum::<usize>()
        - 3
        + svg.matches("<use ").count()
        - svg.matches("<path id=\"g-").count()
}

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";

#[test]
fn every_game_of_the_valid_examples_renders() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/valid");
    let mut rendered = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/valid")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cif"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        for (i, g) in games(&text).iter().enumerate() {
            let what = format!("{} game {}", file.display(), i + 1);
            let svg = render_game_svg(g);
            let pixmap = rasterise(&svg, &what, shapes_written(&svg));
            check_counts(g, &svg, &what);
            save_for_review(
                &svg,
                &pixmap,
                &format!(
                    "{}-{}",
                    file.file_stem().and_then(|s| s.to_str()).unwrap_or("game"),
                    i + 1
                ),
            );
            rendered += 1;
            // a1 is a dark square (unless something covers it).
            if svg.contains("=\"a1") {
                continue;
            }
            let x = attribute_after(&svg, "<rect class=\"board\"", "x");
            let bottom = attribute_after(&svg, "<rect class=\"board\"", "y")
                + attribute_after(&svg, "<rect class=\"board\"", "height");
            assert!(
                near(pixel(&pixmap, x + 1.5, bottom - 1.5), rgb(DARK)),
                "{what}: a1"
            );
        }
    }
    assert!(rendered >= 3, "the examples hold at least three games");
}

/// What the picture must hold, counted from the game itself.
fn check_counts(g: &cif::Game, svg: &str, what: &str) {
    let mut arrows = 0;
    let mut lines = 0;
    let mut regions = 0;
    let mut values = 0;
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    for item in &g.moves.content {
        match item {
            cif::MovesContent::Arrow(_) => arrows += 1,
            cif::MovesContent::Line(_) => lines += 1,
            cif::MovesContent::Region(_) => regions += 1,
            cif::MovesContent::Value(_) => values += 1,
            cif::MovesContent::Marker(cif::Marker::SquareMarker(m)) => {
                *kinds.entry(m.r#type.as_str()).or_default() += 1
            }
            cif::MovesContent::Marker(cif::Marker::TextMarker(_)) => {
                *kinds.entry("text").or_default() += 1
            }
            cif::MovesContent::Marker(cif::Marker::SymbolMarker(m)) => {
                *kinds.entry(m.content.as_str()).or_default() += 1
            }
            _ => {}
        }
    }
    assert_eq!(
        svg.matches("<g class=\"arrow\"").count(),
        arrows,
        "{what}: arrows"
    );
    assert_eq!(
        svg.matches("<polyline class=\"line\"").count(),
        lines,
        "{what}: lines"
    );
    assert_eq!(
        svg.matches("<g class=\"region\"").count(),
        regions,
        "{what}: regions"
    );
    assert_eq!(
        svg.matches("<g class=\"value\"").count(),
        values,
        "{what}: values"
    );
    for (kind, n) in &kinds {
        let class = match *kind {
            "skull" | "mushroom" | "strawberry" | "parcel" => format!("marker symbol {kind}"),
            k => format!("marker {k}"),
        };
        assert_eq!(
            svg.matches(&format!("<g class=\"{class}\"")).count(),
            *n,
            "{what}: {kind} markers"
        );
    }
    assert!(!svg.contains("not drawn"), "{what}: something was left out");
}

#[test]
fn every_kind_of_marker_in_every_colour() {
    let mut moves = String::new();
    let kinds = [
        "full",
        "square",
        "disk",
        "circle",
        "rectangle",
        "cross",
        "littlecross",
    ];
    for (i, color) in cif::Color::VALUES.iter().enumerate() {
        let rank = i + 1;
        for (j, kind) in kinds.iter().enumerate() {
            let file = char::from(b'a' + j as u8);
            moves.push_str(&format!(
                r#"<marker type="{kind}" color="{color}" at="{file}{rank}"/>"#
            ));
        }
        moves.push_str(&format!(
            r#"<marker type="text" color="{color}" at="h{rank}">{}</marker>"#,
            ["&lt;", "&amp;", "\"", "'", "帅", "x", "♞", "&gt;", "1"][i]
        ));
        moves.push_str(&format!(
            r#"<arrow color="{color}" opacity="{}" from="i{rank}" to="j{}"/>"#,
            28 * rank,
            10 - rank
        ));
    }
    for (i, symbol) in ["skull", "mushroom", "strawberry", "parcel"]
        .iter()
        .enumerate()
    {
        moves.push_str(&format!(
            r#"<marker at="{}10" opacity="200">{symbol}</marker>"#,
            char::from(b'a' + i as u8)
        ));
    }
    moves.push_str(r#"<line color="blue">a1j10a10</line><region color="purple" from="j1" to="i3">R&amp;D</region>"#);
    moves.push_str(
        r#"<value at="e10">127</value><value at="f10">-128</value><value at="g10">0</value>"#,
    );
    let g = game(r#" boardsize="10x10""#, &moves);
    let svg = render_game_svg(&g);
    let pixmap = rasterise(&svg, "every marker", shapes_written(&svg));
    save_for_review(&svg, &pixmap, "every-kind");
    check_counts(&g, &svg, "every marker");
    // Shapes per kind: 7 markers x 9 colours, arrows with a shaft and a head.
    assert_eq!(svg.matches("<g class=\"arrow\"").count(), 9);
    assert_eq!(svg.matches("<polygon ").count(), 9, "one head per arrow");
    // Lines: 9 arrow shafts, 2 per cross and little cross, 1 midline per value.
    assert_eq!(svg.matches("<line ").count(), 9 + 2 * 2 * 9 + 3);
    // Rects: the board, full/square/rectangle markers, the region, the two non-zero values,
    // the parcel's three; plus the pattern's three; plus the frame of ♞'s placeholder (no
    // embedded outline: drawn as a box with its code point).
    assert_eq!(svg.matches("<rect ").count(), 1 + 3 * 9 + 1 + 2 + 3 + 3 + 1);
    assert!(svg.contains(r#"<g class="missing-glyph" data-char="U+265E""#));
    assert!(svg.contains(">&lt;</text>") && svg.contains(">&amp;</text>"));
    assert!(svg.contains(">&quot;</text>") && svg.contains(">&apos;</text>"));
    assert!(svg.contains(">帅</text>") && svg.contains(">R&amp;D</text>"));
    assert!(svg.contains("<title>skull</title>"));
    // Opacity: 28 x 9 = 252 of 255.
    assert!(svg.contains(r#"opacity="0.99""#));
    // The full red marker on a1: half red over the dark square.
    let (x, bottom) = (
        attribute_after(&svg, "<rect class=\"board\"", "x"),
        attribute_after(&svg, "<rect class=\"board\"", "y")
            + attribute_after(&svg, "<rect class=\"board\"", "height"),
    );
    let [r, gr, b] = rgb(color_rgb(cif::Color::Red));
    let [dr, dg, db] = rgb(DARK);
    let half = |a: u8, b: u8| ((u16::from(a) + u16::from(b)) / 2) as u8;
    assert!(
        near(
            pixel(&pixmap, x + 2.0, bottom - 2.0),
            [half(r, dr), half(gr, dg), half(b, db)]
        ),
        "a1: {:?}",
        pixel(&pixmap, x + 2.0, bottom - 2.0)
    );
    // The white `square` marker on b8 (rank 8 is white): its centre is white.
    let cell = attribute_after(&svg, "<rect class=\"board\"", "width") / 10.0;
    let b8 = (x + 1.5 * cell, bottom - 7.5 * cell);
    assert_eq!(pixel(&pixmap, b8.0, b8.1), [255, 255, 255]);
    // The positive value bar on e10 is green above the midline; the negative one on f10 red
    // below it.
    let e10 = (x + 4.5 * cell, bottom - 9.5 * cell);
    assert!(near(
        pixel(&pixmap, e10.0, e10.1 - cell * 0.3),
        rgb("#2f9e44")
    ));
    let f10 = (x + 5.5 * cell, bottom - 9.5 * cell);
    assert!(near(
        pixel(&pixmap, f10.0, f10.1 + cell * 0.3),
        rgb("#e03131")
    ));
}

#[test]
fn big_and_odd_boards() {
    for (attributes, moves) in [
        (
            r#" boardsize="64x64""#,
            r#"<arrow color="red" from="a1" to="lll64"/><marker type="full" color="blue" at="aaa53"/><marker at="zz52">parcel</marker><line color="green">a64lll1</line><value at="lll64">-1</value>"#,
        ),
        (
            r#" files="27""#,
            r#"<region color="orange" from="aa8" to="a1">wide</region>"#,
        ),
        (
            r#" boardsize="1x1""#,
            r#"<marker type="circle" color="black" at="a1"/><arrow color="red" from="a1" to="a1"/>"#,
        ),
        (
            r#" ranks="64""#,
            r#"<marker type="text" color="red" at="h64C2">Q</marker><value at="a1B">5</value>"#,
        ),
        (
            r#" boardsize="9x10""#,
            r#"<marker type="cross" color="yellow" at="e5"/>"#,
        ),
    ] {
        let g = game(attributes, moves);
        let svg = render_game_svg(&g);
        let pixmap = rasterise(&svg, attributes, shapes_written(&svg));
        save_for_review(&svg, &pixmap, &attributes.replace(['"', ' ', '='], ""));
        check_counts(&g, &svg, attributes);
    }
}

#[test]
fn the_checkerboard_starts_dark_at_a1_on_every_height() {
    for ranks in [1, 2, 7, 8, 9, 10] {
        let g = game(&format!(r#" boardsize="3x{ranks}""#), "");
        let svg = render_game_svg(&g);
        let pixmap = rasterise(&svg, "empty board", shapes_written(&svg));
        let x = attribute_after(&svg, "<rect class=\"board\"", "x");
        let bottom = attribute_after(&svg, "<rect class=\"board\"", "y")
            + attribute_after(&svg, "<rect class=\"board\"", "height");
        let cell = attribute_after(&svg, "<rect class=\"board\"", "width") / 3.0;
        assert!(
            near(
                pixel(&pixmap, x + cell / 2.0, bottom - cell / 2.0),
                rgb(DARK)
            ),
            "{ranks}: a1"
        );
        assert!(
            near(
                pixel(&pixmap, x + 1.5 * cell, bottom - cell / 2.0),
                rgb(LIGHT)
            ),
            "{ranks}: b1"
        );
    }
}

#[test]
fn three_d_squares_are_drawn_on_the_projection_with_a_tag() {
    let flat = render_game_svg(&game("", r#"<marker type="disk" color="red" at="e4"/>"#));
    let deep = render_game_svg(&game("", r#"<marker type="disk" color="red" at="e4B3"/>"#));
    let circle = |svg: &str| {
        let start = svg.find("<circle ").expect("a disk");
        svg[start..start + svg[start..].find("/>").expect("an end")].to_string()
    };
    assert_eq!(circle(&flat), circle(&deep));
    assert!(deep.contains(">B3</text>"));
    assert!(deep.contains("data-at=\"e4B3\""));
}

/// Issue 29, item 4: every character of a CIF picture (the text marker 帅, a Latin marker,
/// the coordinates) is drawn from embedded outlines, never left to a font: the only
/// `<text>` is the transparent copy for search, and resvg here (no text support, no
/// fonts) draws the marker; a character with no outline is a placeholder, and named.
#[test]
fn cif_text_is_drawn_from_outlines_without_a_font() {
    use boardxml_formats::cif::render::render_game;
    let g = game(
        "",
        r#"<marker type="text" color="red" at="d4">帅</marker><marker type="text" color="blue" at="e5">L</marker>"#,
    );
    let picture = render_game(&g);
    let svg = &picture.svg;
    assert!(picture.missing.is_empty(), "{:?}", picture.missing);
    assert_eq!(picture.missing_warning(), None);
    for text in svg.split("<text ").skip(1) {
        assert!(
            text.contains(r#"fill-opacity="0""#),
            "a visible <text>: {text}"
        );
    }
    for ch in ['帅', 'L', 'a', '1'] {
        let id = format!("<path id=\"g-{:x}\"", ch as u32);
        assert_eq!(svg.matches(&id).count(), 1, "{ch}");
    }
    let pixmap = rasterise(svg, "cif outlines", shapes_written(svg));
    save_for_review(svg, &pixmap, "cif-outlines");
    // Red strokes of 帅 in d4 (48 px squares, file labels left of the board).
    let (cx, cy) = (
        attribute_after(svg, r#"data-at="d4""#, "x"),
        attribute_after(svg, r#"data-at="d4""#, "y"),
    );
    let mut red = 0;
    for dx in -14..=14 {
        for dy in -30..=4 {
            if near(
                pixel(&pixmap, cx + f64::from(dx), cy + f64::from(dy)),
                rgb(color_rgb(cif::Color::Red)),
            ) {
                red += 1;
            }
        }
    }
    assert!(red > 40, "red pixels of 帅: {red}");
    let other = render_game(&game(
        "",
        r#"<marker type="text" color="red" at="d4">龘</marker>"#,
    ));
    assert_eq!(other.missing, vec!['龘']);
    assert!(other
        .svg
        .contains(r#"<g class="missing-glyph" data-char="U+9F98""#));
    let warning = other.missing_warning().expect("a warning");
    assert!(warning.contains("龘 (U+9F98)"), "{warning}");
}
