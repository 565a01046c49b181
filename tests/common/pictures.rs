//! Looking at pictures: an SVG rasterised with resvg, its pixels and attributes read back
//! (the render tests of the formats and of the CLI include it by path).
// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::path::Path;

use resvg::{tiny_skia, usvg};

fn paths_read(group: &usvg::Group) -> usize {
    group
        .children()
        .iter()
        .map(|n| match n {
            usvg::Node::Group(g) => paths_read(g),
            usvg::Node::Path(_) => 1,
            _ => 0,
        })
        .sum()
}

/// Parses and rasterises `svg`; fails if resvg cannot read it, draws nothing, or drops any
/// of the `shapes_written` shapes (which it does, silently, for a negative size or a
/// malformed path).
pub fn rasterise(svg: &str, what: &str, shapes_written: usize) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .unwrap_or_else(|e| panic!("{what}: resvg cannot read the SVG: {e}\n{svg}"));
    assert_eq!(
        paths_read(tree.root()),
        shapes_written,
        "{what}: resvg dropped shapes\n{svg}"
    );
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("a pixmap");
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    assert!(
        pixmap.pixels().iter().any(|p| p.alpha() > 0),
        "{what}: nothing drawn"
    );
    pixmap
}

/// With `BOARDXML_PICTURES=dir`, keeps the SVG and the PNG for a person to look at.
pub fn save_for_review(svg: &str, pixmap: &tiny_skia::Pixmap, name: &str) {
    if let Some(dir) = std::env::var_os("BOARDXML_PICTURES") {
        let dir = Path::new(&dir);
        std::fs::create_dir_all(dir).expect("a folder for the pictures");
        std::fs::write(dir.join(format!("{name}.svg")), svg).expect("writable");
        pixmap
            .save_png(dir.join(format!("{name}.png")))
            .expect("writable");
    }
}

/// The colour at (x, y), as RGB.
pub fn pixel(pixmap: &tiny_skia::Pixmap, x: f64, y: f64) -> [u8; 3] {
    let p = pixmap
        .pixel(x as u32, y as u32)
        .expect("inside the picture")
        .demultiply();
    [p.red(), p.green(), p.blue()]
}

/// `#rrggbb` as RGB.
pub fn rgb(hex: &str) -> [u8; 3] {
    let n = u32::from_str_radix(hex.trim_start_matches('#'), 16).expect("#rrggbb");
    [(n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// Colours equal up to anti-aliasing.
pub fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 6)
}

/// The value of attribute `name` of the first element at or after `anchor`.
pub fn attribute_after(svg: &str, anchor: &str, name: &str) -> f64 {
    let rest = &svg[svg.find(anchor).unwrap_or_else(|| panic!("no {anchor}"))..];
    let key = format!(" {name}=\"");
    let start = rest.find(&key).expect("the attribute") + key.len();
    let end = start + rest[start..].find('"').expect("a closing quote");
    rest[start..end].parse().expect("a number")
}
