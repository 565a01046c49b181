//! The SVG pictures of xiangqi positions: the start, and positions reached along every line
//! of the corpus records, rasterised with resvg (a picture it cannot read, or whose shapes
//! it drops as invalid, fails), with structural counts and a few pixels checked. resvg is
//! built without text support here: the pixels checked are those of shapes.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use boardxml::encoding::decode;
use boardxml::xml::Reader;
use boardxml_formats::cbf::render::{render_position_svg, render_record_svg};
use boardxml_formats::cbf::Record;
use boardxml_formats::document::Document;
use boardxml_formats::generated::cbf_1_0;
use boardxml_xiangqi::{Move, Position};
use pictures::{attribute_after, near, pixel, rasterise, rgb, save_for_review};
use resvg::tiny_skia;

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../../tests/common/pictures.rs"]
mod pictures;

const BOARD: &str = "#f1d39b";
const PIECE_FILL: &str = "#fdf3dc";
const RED: &str = "#c8102e";
const BLACK: &str = "#1a1a1a";
const HIGHLIGHT: &str = "#1c7ed6";

fn shapes_written(svg: &str) -> usize {
    // A glyph outline in <defs> is drawn once per <use> of it, not where it is defined.
    [
        "<rect ",
        "<line ",
        "<circle ",
        "<polygon ",
        "<path ",
        "<use ",
    ]
    .iter()
    .map(|s| svg.matches(s).count())
    .sum::<usize>()
        - svg.matches("<path id=\"g-").count()
}

/// The centre of the piece on `point` (ICCS), from its disc.
fn piece_centre(svg: &str, point: &str) -> (f64, f64) {
    let anchor = format!("data-at=\"{point}\" data-piece=");
    (
        attribute_after(svg, &anchor, "cx"),
        attribute_after(svg, &anchor, "cy"),
    )
}

/// The centre of a point as drawn: from the last-move marks' or a disc's coordinates is
/// not always possible (empty points), so from two discs of the start: a9 and i0.
fn point_centre(point: &str) -> (f64, f64) {
    static CORNERS: OnceLock<((f64, f64), (f64, f64))> = OnceLock::new();
    let ((left, top), (right, bottom)) = *CORNERS.get_or_init(|| {
        let start = render_position_svg(&Position::start(), None);
        (piece_centre(&start, "a9"), piece_centre(&start, "i0"))
    });
    let b = point.as_bytes();
    let x = f64::from(b[0] - b'a');
    let y = f64::from(9 - (b[1] - b'0'));
    (
        left + x * (right - left) / 8.0,
        top + y * (bottom - top) / 9.0,
    )
}

/// The pixels that prove a last move drawn: the origin dot (over the board, between the
/// lines) and the corner brackets of both points.
fn check_last_move_pixels(pixmap: &tiny_skia::Pixmap, mv: Move, what: &str) {
    let (fx, fy) = point_centre(&mv.from.iccs());
    let [hr, hg, hb] = rgb(HIGHLIGHT);
    let [br, bg, bb] = rgb(BOARD);
    let mix = |a: u8, b: u8| (0.85 * f64::from(a) + 0.15 * f64::from(b)).round() as u8;
    let dot = [mix(hr, br), mix(hg, bg), mix(hb, bb)];
    // Off the lines, the diagonals and the point marks, towards the middle (the frame is
    // beside the outer files).
    let dx = if mv.from.x < 4 { 5.0 } else { -6.0 };
    assert!(
        near(pixel(pixmap, fx + dx, fy - 3.0), dot),
        "{what}: the origin dot at {}: {:?}",
        mv.from,
        pixel(pixmap, fx + dx, fy - 3.0)
    );
    for p in [mv.from, mv.to] {
        let (x, y) = point_centre(&p.iccs());
        // The top-left bracket: a corner 24 px up and left, its arms 8 px long.
        for (dx, dy) in [(-24.0, -20.0), (-20.0, -24.0), (23.0, 19.0)] {
            assert!(
                near(pixel(pixmap, x + dx, y + dy), rgb(HIGHLIGHT)),
                "{what}: the bracket at {p} ({dx}, {dy}): {:?}",
                pixel(pixmap, x + dx, y + dy)
            );
        }
    }
}

#[test]
fn the_start_position() {
    let start = Position::start();
    let svg = render_position_svg(&start, None);
    let pixmap = rasterise(&svg, "start", shapes_written(&svg));
    save_for_review(&svg, &pixmap, "xiangqi-start");
    assert_eq!(svg.matches("<circle class=\"disc\"").count(), 32);
    assert_eq!(svg.matches("<g class=\"piece red\"").count(), 16);
    assert_eq!(svg.matches("<g class=\"piece black\"").count(), 16);
    assert!(!svg.contains("last-move"));
    // Every piece's character, as its side writes it.
    for (point, ch) in [
        ("e0", '帅'),
        ("e9", '将'),
        ("a0", '车'),
        ("c9", '象'),
        ("a3", '兵'),
        ("a6", '卒'),
    ] {
        let rest = &svg[svg
            .find(&format!("data-at=\"{point}\" data-piece="))
            .expect(point)..];
        let text = &rest[..rest.find("</g>").expect("the group's end")];
        assert!(
            text.ends_with(&format!(">{ch}</text>\n")),
            "{point}: {text}"
        );
    }
    // 9 + 9 file numbers, the river's two words, and 32 characters.
    assert_eq!(svg.matches("<text ").count(), 18 + 2 + 32);
    // Lines: 10 rows, 2 outer files, 7 inner files in two halves, 4 palace diagonals.
    assert_eq!(svg.matches("<line ").count(), 10 + 2 + 14 + 4);
    // Point marks: 4 cannon points and 10 pawn points.
    let marks = &svg[svg.find("class=\"point-marks\"").expect("marks")..];
    let marks = &marks[..marks.find("</g>").expect("the end")];
    assert_eq!(marks.matches("<path ").count(), 14);

    // The red king's disc: ivory inside, red at its rim; the black king's rim is black.
    let (x, y) = piece_centre(&svg, "e0");
    assert!(near(pixel(&pixmap, x + 20.0, y), rgb(PIECE_FILL)));
    assert!(
        near(pixel(&pixmap, x + 21.0, y), rgb(RED)),
        "{:?}",
        pixel(&pixmap, x + 21.0, y)
    );
    let (x, y) = piece_centre(&svg, "e9");
    assert!(near(pixel(&pixmap, x - 22.0, y), rgb(BLACK)));
    // An empty point away from its lines shows the board; the middle of the river too, but
    // where the outer file crosses it, the line.
    let (x, y) = point_centre("e4");
    assert!(near(pixel(&pixmap, x + 10.0, y + 10.0), rgb(BOARD)));
    let (x, y) = point_centre("b5");
    assert!(near(pixel(&pixmap, x, y + 25.0), rgb(BOARD)), "river");
    let (x, y) = point_centre("a5");
    assert!(!near(pixel(&pixmap, x, y + 25.0), rgb(BOARD)), "the a-file");
    // Deterministic.
    assert_eq!(svg, render_position_svg(&start.clone(), None));
}

#[test]
fn a_move_is_highlighted_at_both_points() {
    let mut pos = Position::start();
    let mv = Move::parse_cbf("77-47").expect("a move");
    let captured = pos.play(mv).expect("legal");
    assert!(captured.is_none());
    let svg = render_position_svg(&pos, Some(mv));
    let pixmap = rasterise(&svg, "after h2e2", shapes_written(&svg));
    save_for_review(&svg, &pixmap, "xiangqi-h2e2");
    assert_eq!(svg.matches("<path class=\"last-move from\"").count(), 1);
    assert_eq!(svg.matches("<path class=\"last-move to\"").count(), 1);
    assert!(svg.contains(r#"<g class="last-move" data-from="h2" data-to="e2">"#));
    assert!(svg.contains(r#"data-at="e2" data-piece="C""#));
    check_last_move_pixels(&pixmap, mv, "after h2e2");
    // The marks lie outside the piece: its rim is still red.
    let (x, y) = piece_centre(&svg, "e2");
    assert!(near(pixel(&pixmap, x + 21.0, y), rgb(RED)));
}

fn record_1_0(moves: &str) -> Record {
    let text = format!("<ChineseChessRecord Version=\"1.0\"><Head/><MoveList><Move value=\"00-00\"/>{moves}</MoveList></ChineseChessRecord>");
    let mut r = Reader::new(&text);
    let cbf_1_0::Root::ChineseChessRecord(doc) = r.read_document::<cbf_1_0::Root>().expect("valid");
    Record::from_1_0(&doc)
}

#[test]
fn lines_plies_and_their_errors() {
    // 77-47 then either 70-62 (main) or 10-22; after 70-62, 79-67.
    let rec = record_1_0(
        r#"<Move value="77-47"/><Move value="70-62" branch="1"/><Move value="79-67" end="1"/><Move value="10-22" end="1"/>"#,
    );
    let main = render_record_svg(&rec, &[], None).expect("the main line");
    assert!(main.contains(r#"data-from="h0" data-to="g2""#), "{main}");
    assert!(main.contains("ply 3 of the main line"));
    assert_eq!(render_record_svg(&rec, &[0, 0, 0], None), Ok(main.clone()));
    let variation = render_record_svg(&rec, &[0, 1], None).expect("the variation");
    assert!(variation.contains(r#"data-from="b9" data-to="c7""#));
    assert!(variation.contains("ply 2 of the line [0, 1]"));
    let start = render_record_svg(&rec, &[], Some(0)).expect("the start");
    assert!(!start.contains("last-move"));
    assert!(start.contains(&format!("<desc>FEN {}</desc>", Position::start().to_fen())));
    let one = render_record_svg(&rec, &[0, 1], Some(1)).expect("ply 1");
    assert_eq!(
        one,
        render_record_svg(&rec, &[], Some(1))
            .expect("ply 1")
            .replace("main line", "line [0, 1]")
    );

    let err = |line: &[usize], ply| render_record_svg(&rec, line, ply).expect_err("an error");
    assert_eq!(
        err(&[0, 2], None),
        "line entry 1 chooses move 2 at ply 2, but there are only 2 to choose from there (0: 70-62, 1: 10-22)"
    );
    assert_eq!(
        err(&[0, 1, 0], None),
        "the line has 3 entries, but it ends after ply 2 (10-22): no move follows"
    );
    assert_eq!(
        err(&[0, 1], Some(3)),
        "ply 3 is beyond the end of the line, which has 2 plies"
    );
    // An illegal move on the way (the king cannot leave its palace), but not before it.
    let bad = record_1_0(r#"<Move value="77-47"/><Move value="40-30"/><Move value="49-48"/>"#);
    let message = render_record_svg(&bad, &[], None).expect_err("illegal");
    assert!(
        message.starts_with("the move 40-30 (e9d9) at ply 2 of the line is illegal: "),
        "{message}"
    );
    assert!(render_record_svg(&bad, &[], Some(1)).is_ok());
    assert_eq!(
        render_record_svg(&record_1_0(""), &[0], None).expect_err("no moves"),
        "the line has 1 entry, but the record has no moves"
    );
}

fn corpus() -> Option<Vec<PathBuf>> {
    let root = common::shared("corpus")?;
    let mut files = Vec::new();
    for dir in ["cbf-seed", "cbf-xqbridge"] {
        for f in std::fs::read_dir(root.join(dir))
            .expect("a folder")
            .flatten()
        {
            if f.path().extension().is_some_and(|x| x == "cbf") {
                files.push(f.path());
            }
        }
    }
    files.sort();
    Some(files)
}

fn read_record(path: &Path) -> Record {
    let decoded = decode(&std::fs::read(path).expect("readable")).expect("decodable");
    let mut reader = Reader::new(&decoded.text);
    match reader.read_document::<Document>().expect("schema-valid") {
        Document::Cbf2007(boardxml_formats::generated::cbf_2007::Root::ChineseChessRecord(d)) => {
            Record::from_2007(&d)
        }
        Document::Cbf10(cbf_1_0::Root::ChineseChessRecord(d)) => Record::from_1_0(&d),
        Document::Cif(_) => panic!("{}: not CBF", path.display()),
    }
}

/// The child indices that lead from the start to move `index`.
fn line_of(record: &Record, index: usize) -> Vec<usize> {
    let mut line = Vec::new();
    let mut at = index;
    loop {
        let parent = record.moves[at].parent;
        let siblings = match parent {
            Some(p) => &record.moves[p].children,
            None => &record.root_children,
        };
        line.push(siblings.iter().position(|&c| c == at).expect("a child"));
        match parent {
            Some(p) => at = p,
            None => break,
        }
    }
    line.reverse();
    line
}

#[test]
fn positions_of_the_corpus_records() {
    let Some(files) = corpus() else { return };
    assert_eq!(files.len(), 25);
    let mut pictures = 0;
    let mut variations = 0;
    for file in &files {
        let name = file.file_stem().and_then(|s| s.to_str()).expect("a name");
        let record = read_record(file);
        if name == "jcq15_chessmanual-data-test" {
            // Its third move is the illegal flying king.
            let message = render_record_svg(&record, &[], None).expect_err("illegal");
            assert!(
                message.starts_with("the move 49-40 (e0e9) at ply 3 of the line is illegal"),
                "{message}"
            );
            assert!(render_record_svg(&record, &[], Some(2)).is_ok());
            continue;
        }
        let start = record.start.clone().expect("a start position");
        // The end of every line (each move with no move after it), and the middle of the
        // main line.
        let leaves: Vec<usize> = (0..record.moves.len())
            .filter(|&i| record.moves[i].children.is_empty())
            .collect();
        assert!(!leaves.is_empty(), "{name}: no moves");
        for (n, &leaf) in leaves.iter().enumerate() {
            let line = line_of(&record, leaf);
            let moves = record.line_to(leaf);
            let plies = if n == 0 {
                vec![None, Some(moves.len() / 2)]
            } else {
                variations += 1;
                vec![None]
            };
            for ply in plies {
                let what = format!("{name} line {line:?} ply {ply:?}");
                let svg = render_record_svg(&record, &line, ply)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let played = ply.unwrap_or(moves.len());
                let mut position = start.clone();
                for mv in &moves[..played] {
                    position.play(*mv).expect("legal");
                }
                let last = moves[played - 1];
                assert!(
                    svg.contains(&format!("<desc>FEN {}</desc>", position.to_fen())),
                    "{what}"
                );
                assert_eq!(
                    svg.matches("<circle class=\"disc\"").count(),
                    position.pieces().count(),
                    "{what}"
                );
                assert!(svg.contains(&format!(
                    r#"<g class="last-move" data-from="{}" data-to="{}">"#,
                    last.from, last.to
                )));
                let pixmap = rasterise(&svg, &what, shapes_written(&svg));
                let suffix = match ply {
                    Some(p) => format!("ply{p}"),
                    None => format!("line{n}"),
                };
                save_for_review(&svg, &pixmap, &format!("{name}-{suffix}"));
                check_last_move_pixels(&pixmap, last, &what);
                pictures += 1;
            }
        }
    }
    assert!(variations >= 2, "the corpus has variations: {variations}");
    assert!(pictures >= 48, "{pictures}");
}

/// Item 5 of issue 18: a caption (players, the move in Chinese notation with its number,
/// the side to move), and every CJK character drawn from outlines: resvg here has no text
/// support at all, so what it draws of a character comes from the embedded outline.
#[test]
fn a_captioned_picture_draws_its_characters_without_a_font() {
    use boardxml_formats::cbf::render::{render_captioned_svg, Caption};
    let mut pos = Position::start();
    let mv = Move::parse_cbf("77-47").expect("a move");
    pos.play(mv).expect("legal");
    let caption = Caption {
        red: "吕钦".into(),
        black: "许银川".into(),
        last: Some((1, boardxml_xiangqi::Side::Red, "炮二平五".into())),
    };
    let svg = render_captioned_svg(&pos, Some(mv), &caption);
    let pixmap = rasterise(&svg, "captioned", shapes_written(&svg));
    save_for_review(&svg, &pixmap, "xiangqi-captioned");
    assert!(
        svg.contains(r#"data-players="红方 吕钦   黑方 许银川""#),
        "{svg}"
    );
    assert!(svg.contains(r#"data-move="1. 炮二平五   黑方走""#), "{svg}");
    // Each outline once in <defs>, one <use> per character drawn: 32 pieces, 4 river
    // characters, 18 file numbers, and the caption's 红方 吕钦 黑方 许银川, then 1. 炮二平五
    // 黑方走.
    assert_eq!(
        svg.matches("<use ").count(),
        32 + 4 + 18 + (2 + 2 + 2 + 3) + (2 + 4 + 3)
    );
    for ch in ['帅', '将', '炮', '楚', '一', '１', '平', '走'] {
        let id = format!("<path id=\"g-{:x}\"", ch as u32);
        assert_eq!(svg.matches(&id).count(), 1, "{ch}");
    }
    // The names are outlines too; the only <text> is the transparent copy for search.
    for text in svg.split("<text ").skip(1) {
        assert!(
            text.contains(r#"fill-opacity="0""#),
            "a visible <text>: {text}"
        );
    }
    // A character is drawn: inside the red king's ring there are red pixels (its strokes)
    // and ivory ones; with no outline there would be ivory only.
    let (cx, cy) = piece_centre(&svg, "e0");
    let mut red = 0;
    for dx in -12..=12 {
        for dy in -12..=12 {
            if near(
                pixel(&pixmap, cx + f64::from(dx), cy + f64::from(dy)),
                rgb(RED),
            ) {
                red += 1;
            }
        }
    }
    assert!(red > 40, "red pixels in the king's character: {red}");
    // The caption band is below the board, and something is drawn in it.
    let board_height = render_position_svg(&pos, Some(mv))
        .split("height=\"")
        .nth(1)
        .and_then(|h| h.split('"').next())
        .and_then(|h| h.parse::<u32>().ok())
        .expect("the uncaptioned picture's height");
    assert!(pixmap.height() > board_height + 40);
    let band = (board_height + 2..pixmap.height())
        .flat_map(|y| (0..pixmap.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| !near(pixel(&pixmap, f64::from(x), f64::from(y)), rgb(BOARD)))
        .count();
    assert!(band > 300, "caption pixels: {band}");
    assert_eq!(svg, render_captioned_svg(&pos, Some(mv), &caption));
}

/// The README's xiangqi pictures are what `boardxml render` draws today (regenerate with
/// the commands in the README when the drawing changes).
#[test]
fn the_readme_pictures_are_fresh() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let dir = tempfile::tempdir().unwrap();
    for (input, args, picture) in [
        (
            "examples/valid/short-game.cbf",
            &["--ply", "3"][..],
            "short-game-ply3.svg",
        ),
        (
            "examples/players/opening.pgn",
            &["--ply", "7"],
            "captioned.svg",
        ),
    ] {
        let out = dir.path().join(picture);
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_boardxml"))
            .current_dir(root)
            .arg("render")
            .arg(input)
            .args(args)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let want = std::fs::read_to_string(&out).unwrap();
        let have = std::fs::read_to_string(root.join("docs/pictures").join(picture)).unwrap();
        assert!(
            have == want,
            "docs/pictures/{picture} is stale: cargo run -q -- render {input} {} -o docs/pictures/{picture}",
            args.join(" ")
        );
        let pixmap = rasterise(&want, picture, shapes_written(&want));
        save_for_review(&want, &pixmap, picture.trim_end_matches(".svg"));
    }
}

/// Issue 29, item 4: the player names of a captioned position (棋手, and a Latin name) are
/// drawn from outlines, not left to a font; a name's character with no outline is a
/// visible placeholder that `render` names in a warning.
#[test]
fn player_names_are_outlines_and_a_missing_character_is_named() {
    use boardxml_formats::cbf::render::{render_captioned, Caption};
    let caption = Caption {
        red: "棋手".into(),
        black: "Li Lai".into(),
        last: None,
    };
    let picture = render_captioned(&Position::start(), None, &caption);
    let svg = &picture.svg;
    assert!(picture.missing.is_empty(), "{:?}", picture.missing);
    for text in svg.split("<text ").skip(1) {
        assert!(
            text.contains(r#"fill-opacity="0""#),
            "a visible <text>: {text}"
        );
    }
    for ch in ['棋', '手', 'L', 'i', 'a'] {
        let id = format!("<path id=\"g-{:x}\"", ch as u32);
        assert_eq!(svg.matches(&id).count(), 1, "{ch}");
    }
    let pixmap = rasterise(svg, "names", shapes_written(svg));
    save_for_review(svg, &pixmap, "xiangqi-names");
    let other = Caption {
        red: "龘".into(),
        ..caption
    };
    let picture = render_captioned(&Position::start(), None, &other);
    assert_eq!(picture.missing, vec!['龘']);
    assert!(picture.svg.contains(r#"data-char="U+9F98""#));
    // The command says so on stderr, and still writes the picture.
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("names.pgn");
    std::fs::write(
        &input,
        "[Game \"Chinese Chess\"]\n[Red \"龘\"]\n[Black \"Li\"]\n[Result \"*\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 马８进７ *\n",
    )
    .unwrap();
    let out = dir.path().join("names.svg");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_boardxml"))
        .arg("render")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: ") && stderr.contains("龘 (U+9F98)"),
        "{stderr}"
    );
    assert!(std::fs::read_to_string(&out).unwrap().contains("U+9F98"));
}

/// `render -o picture.png` writes a PNG (it wrote the SVG's text under a .png name): the
/// SVG rasterised at twice its size, the board's colour where the board is; `--format svg`
/// keeps SVG whatever the name, and `--format png` gives PNG whatever the name.
#[test]
fn render_writes_png_for_a_png_name_or_format() {
    let tmp = tempfile::tempdir().unwrap();
    let record = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("examples/valid/short-game-2007.cbf");
    let run = |out: &Path, format: Option<&str>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_boardxml"));
        c.arg("render").arg(&record).arg("-o").arg(out);
        if let Some(f) = format {
            c.args(["--format", f]);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{o:?}");
        std::fs::read(out).unwrap()
    };
    let svg = run(&tmp.path().join("p.svg"), None);
    assert!(svg.starts_with(b"<svg"), "{:?}", &svg[..20]);
    let tree = resvg::usvg::Tree::from_data(&svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    for (name, format) in [("p.png", None), ("p.PNG", None), ("picture", Some("png"))] {
        let png = run(&tmp.path().join(name), format);
        let pixmap = tiny_skia::Pixmap::decode_png(&png)
            .unwrap_or_else(|e| panic!("{name}: not a PNG: {e}"));
        assert_eq!(
            (pixmap.width(), pixmap.height()),
            (2 * size.width(), 2 * size.height()),
            "{name}"
        );
        // Between the points of the river, at the board's middle: the board's colour.
        let p = pixmap
            .pixel(pixmap.width() / 2 + 7, pixmap.height() * 2 / 5)
            .unwrap();
        assert_eq!([p.red(), p.green(), p.blue()], rgb(BOARD), "{name}");
    }
    let kept = run(&tmp.path().join("q.png"), Some("svg"));
    assert!(kept.starts_with(b"<svg"));
}
