//! `boardxml render`.

use std::path::Path;
use std::process::ExitCode;

use boardxml::safe_write::{write_file, Inputs};

/// Renders a game of a valid CIF document, or a position of a valid record (CBF, or
/// record `record` of a players' format) with its caption, to `output`.
pub fn run(
    file: &Path,
    game: usize,
    record: usize,
    line: &str,
    ply: Option<usize>,
    output: &Path,
    format: Option<PictureFormat>,
) -> ExitCode {
    let report = match crate::read_valid(file, "drawn") {
        Ok(report) => report,
        Err(code) => return code,
    };
    let picture = match &report.document {
        Some(boardxml_formats::document::Document::Cif(
            boardxml_formats::generated::cif::Root::Cif(cif),
        )) => match game.checked_sub(1).and_then(|i| cif.game.get(i)) {
            Some(g) => Ok(boardxml_formats::cif::render::render_game(g)),
            None => Err(format!(
                "it has {} game(s); there is no game {game}",
                cif.game.len()
            )),
        },
        _ => crate::record_of_report(&report, record)
            .and_then(|record| cbf_position_svg(&record, line, ply)),
    };
    let picture = match picture {
        Ok(picture) => picture,
        Err(e) => {
            crate::error(format_args!("{}: {e}", file.display()));
            return ExitCode::from(2);
        }
    };
    let png = match format {
        Some(PictureFormat::Png) => true,
        Some(PictureFormat::Svg) => false,
        None => output
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png")),
    };
    let warning = picture.missing_warning();
    let bytes = if png {
        match rasterise(&picture.svg) {
            Ok(bytes) => bytes,
            Err(e) => {
                crate::error(format_args!(
                    "{}: cannot draw it as PNG: {e}",
                    file.display()
                ));
                return ExitCode::from(2);
            }
        }
    } else {
        picture.svg.into_bytes()
    };
    let mut inputs = Inputs::new();
    inputs.add(file);
    match write_file(output, &bytes, &inputs) {
        Ok(()) => {
            // Said after the picture is written: it is there, with visible placeholders.
            if let Some(warning) = warning {
                crate::warning(format_args!("{}: {warning}", file.display()));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            crate::error(format_args!("{e}"));
            ExitCode::from(2)
        }
    }
}

/// What `render` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PictureFormat {
    /// SVG, the picture as drawn.
    Svg,
    /// PNG, the SVG rasterised at twice its size.
    Png,
}

/// How many pixels a PNG has per unit of the SVG: twice, for screens that double.
const PNG_SCALE: f32 = 2.0;

/// The SVG `svg` (ours: shapes and outlines only, no text) drawn and encoded as PNG.
fn rasterise(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).map_err(|e| e.to_string())?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(PNG_SCALE)
        .ok_or("too large")?;
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("too large a picture")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// The position after `ply` plies of the line `line` (as `show` reads it), drawn.
fn cbf_position_svg(
    record: &boardxml_formats::cbf::Record,
    line: &str,
    ply: Option<usize>,
) -> Result<boardxml_formats::lettering::Picture, String> {
    use boardxml_formats::cbf::show::{replay, select_line, ReplayError};
    let moves = select_line(record, line)?;
    // `render`'s own wording of each case (its messages predate the shared replay).
    let replayed = replay(record, &moves, ply).map_err(|e| match e {
        ReplayError::PastEnd { ply, plies } => {
            format!("ply {ply} is beyond the end of the line, which has {plies} plies")
        }
        ReplayError::NoStart => "the start position could not be read".to_string(),
        ReplayError::Illegal { mv, reason, .. } => format!(
            "the move {} ({}) on the way is illegal: {reason}",
            mv.cbf(),
            mv.iccs()
        ),
    })?;
    let name = |n: &str| {
        record
            .head
            .iter()
            .find(|f| f.name == n)
            .map(|f| f.value.trim().to_string())
            .unwrap_or_default()
    };
    let caption = boardxml_formats::cbf::render::Caption {
        red: name("Red"),
        black: name("Black"),
        last: replayed
            .moves
            .last()
            .map(|m| (m.move_number, m.side, m.chinese.clone())),
    };
    Ok(boardxml_formats::cbf::render::render_captioned(
        &replayed.position,
        replayed.last_move(),
        &caption,
    ))
}
