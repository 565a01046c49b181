//! What the SVG pictures (CIF games, xiangqi positions) share: the start tag, numbers
//! written compactly and text escaped for XML.

/// The `<svg>` start tag of a picture `width` by `height` pixels, and its `title`
/// (escaped here), each on a line.
pub(crate) fn start(width: f64, height: f64, title: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<title>{}</title>\n",
        escape(title),
        w = num(width),
        h = num(height)
    )
}

/// A number for SVG: at most two decimals, no trailing zeros (keeps output small and
/// deterministic).
pub(crate) fn num(x: f64) -> String {
    trimmed(&format!("{x:.2}"))
}

/// A scale factor with four decimals (glyph scales are small).
pub(crate) fn num4(x: f64) -> String {
    trimmed(&format!("{x:.4}"))
}

/// A formatted number without trailing zeros, and no "-0".
fn trimmed(s: &str) -> String {
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// `text` escaped for XML content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
