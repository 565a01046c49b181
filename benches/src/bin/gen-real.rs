//! Writes a large, deterministic, valid document of one of four `../shared/xsd-real` sets,
//! built from the set's own valid documents: the model document's head and tail are kept as
//! they are, and its repeatable unit is written again and again, in groups, with varied
//! values, until the document reaches `--mb` megabytes (10^6 bytes):
//!
//! | set        | unit                       | group (default size)     | models                                  |
//! |------------|----------------------------|--------------------------|-----------------------------------------|
//! | gpx11      | track point `trkpt`        | a track (12,000 points)  | around-visnjan-with-car.xml             |
//! | kml22      | `Placemark` (20 kinds)     | a `Folder` (1,000)       | KML_Samples.xml                         |
//! | xliff12    | `trans-unit` (41 kinds)    | a `file` (1,000)         | security.de.xml, security.ja.xml, withnote.xml |
//! | musicxml40 | `measure` (33 kinds)       | the one part (no limit)  | asa-branca.xml                          |
//!
//! Groups keep what the schemas remember bounded: XLIFF's `trans-unit` ids are a key of their
//! `file` (a validator keeps each file's ids, never the whole document's), as in a real
//! project of many source files; GPX tracks and KML folders are what real files hold.
//! Nothing here carries an `xs:ID`, so no ID table grows with the size either.
//!
//! Which values vary (each unit differs from the last; every value stays in its type's
//! range): GPX latitude, longitude, elevation (random walks from the model's first point)
//! and time (increasing); KML names, coordinates, `LookAt` longitude and latitude; XLIFF
//! ids (unique in their file), source and target texts and note priorities, and each file's
//! `original`; MusicXML measure numbers, widths, `default-x`, steps, root steps and octaves.
//!
//! usage: gen-real --set SET --xsd-real DIR [--mb N] [--seed S] [--per-group N] OUT
//! (DIR is `../shared/xsd-real`; prints what it wrote to stderr)

use std::io::Write;
use std::path::{Path, PathBuf};

use boardxml_bench::Rng;

/// Flushed to the file whenever the buffer passes this size: the document is never held
/// whole.
const FLUSH_AT: usize = 1 << 20;

fn main() {
    let mut set = None;
    let mut root = None;
    let mut mb: f64 = 40.0;
    let mut seed: u64 = 32;
    let mut per_group = None;
    let mut out = None;
    let mut args = std::env::args().skip(1);
    let usage = "usage: gen-real --set gpx11|kml22|xliff12|musicxml40 --xsd-real DIR [--mb N] [--seed S] [--per-group N] OUT";
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| fail(usage));
        match a.as_str() {
            "--set" => set = Some(value()),
            "--xsd-real" => root = Some(PathBuf::from(value())),
            "--mb" => mb = value().parse().unwrap_or_else(|_| fail(usage)),
            "--seed" => seed = value().parse().unwrap_or_else(|_| fail(usage)),
            "--per-group" => per_group = Some(value().parse().unwrap_or_else(|_| fail(usage))),
            _ if a.starts_with("--") => fail(usage),
            _ => out = Some(PathBuf::from(a)),
        }
    }
    let (Some(set), Some(root), Some(out)) = (set, root, out) else {
        fail(usage)
    };
    let models: &[&str] = match set.as_str() {
        "gpx11" => &["gpx11/docs/around-visnjan-with-car.xml"],
        "kml22" => &["kml22/docs/KML_Samples.xml"],
        "xliff12" => &[
            "xliff12/docs/security.de.xml",
            "xliff12/docs/security.ja.xml",
            "xliff12/docs/withnote.xml",
        ],
        "musicxml40" => &["musicxml40/docs/asa-branca.xml"],
        _ => fail(usage),
    };
    let models: Vec<String> = models
        .iter()
        .map(|doc| {
            let path = root.join(doc);
            std::fs::read_to_string(&path)
                .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())))
        })
        .collect();
    let mut shape: Box<dyn Shape> = match set.as_str() {
        "gpx11" => Box::new(Gpx::new(&models[0])),
        "kml22" => Box::new(Kml::new(&models[0])),
        "xliff12" => Box::new(Xliff::new(&models[0], &models[1..])),
        _ => Box::new(MusicXml::new(&models[0])),
    };
    // A set without groups (MusicXML's one part) takes no group size.
    let per_group = match shape.frame().default_group {
        0 => 0,
        default => per_group.unwrap_or(default),
    };
    let target = (mb * 1e6) as usize;
    let stats = write(&mut *shape, &mut Rng::new(seed), target, per_group, &out)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", out.display())));
    eprintln!(
        "{}: {} bytes, {} {}s in {} group(s) of up to {}",
        out.display(),
        stats.bytes,
        stats.units,
        shape.frame().unit_name,
        stats.groups,
        if per_group == 0 {
            "any number".to_string()
        } else {
            per_group.to_string()
        },
    );
}

fn fail(message: &str) -> ! {
    eprintln!("gen-real: {message}");
    std::process::exit(2)
}

struct Stats {
    bytes: usize,
    units: usize,
    groups: usize,
}

/// Head, groups of units, tail; stops once the next unit would not be needed to reach
/// `target` bytes (at least one unit is written).
fn write(
    shape: &mut dyn Shape,
    rng: &mut Rng,
    target: usize,
    per_group: usize,
    out: &Path,
) -> std::io::Result<Stats> {
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    let mut buf = String::with_capacity(2 * FLUSH_AT);
    let mut stats = Stats {
        bytes: 0,
        units: 0,
        groups: 0,
    };
    let (head, group_close, tail) = {
        let f = shape.frame();
        (
            f.head.to_owned(),
            f.group_close.to_owned(),
            f.tail.to_owned(),
        )
    };
    let closing = group_close.len() + tail.len();
    buf.push_str(&head);
    loop {
        shape.open_group(stats.groups, rng, &mut buf);
        stats.groups += 1;
        let mut in_group = 0;
        loop {
            shape.unit(in_group, rng, &mut buf);
            in_group += 1;
            stats.units += 1;
            if buf.len() >= FLUSH_AT {
                file.write_all(buf.as_bytes())?;
                stats.bytes += buf.len();
                buf.clear();
            }
            if stats.bytes + buf.len() + closing >= target || in_group == per_group {
                break;
            }
        }
        buf.push_str(&group_close);
        if stats.bytes + buf.len() + tail.len() >= target {
            break;
        }
    }
    buf.push_str(&tail);
    file.write_all(buf.as_bytes())?;
    stats.bytes += buf.len();
    file.flush()?;
    Ok(stats)
}

/// The text of a set's document around its units: the model's head and tail and a
/// group's closing text.
struct Frame<'a> {
    unit_name: &'static str,
    /// Units per group by default (0: one group, however large, whatever `--per-group`).
    default_group: usize,
    head: &'a str,
    group_close: &'a str,
    tail: &'a str,
}

/// A set's document: its frame, a group's opening text, and the units.
trait Shape {
    fn frame(&self) -> &Frame<'_>;
    fn open_group(&mut self, group: usize, rng: &mut Rng, out: &mut String);
    fn unit(&mut self, in_group: usize, rng: &mut Rng, out: &mut String);
}

// ---------------------------------------------------------------------------------------
// Cutting model documents

/// `text` split at the first occurrence of `at`: (before, from `at` on).
fn split_at<'a>(text: &'a str, at: &str) -> (&'a str, &'a str) {
    let i = text
        .find(at)
        .unwrap_or_else(|| fail(&format!("the model document has no {at:?}")));
    text.split_at(i)
}

/// `text` split after the last occurrence of `at`: (up to and with `at`, the rest).
fn split_after_last<'a>(text: &'a str, at: &str) -> (&'a str, &'a str) {
    let i = text
        .rfind(at)
        .unwrap_or_else(|| fail(&format!("the model document has no {at:?}")));
    text.split_at(i + at.len())
}

/// Every `<name ...>...</name>` of `text`, in order (the element does not nest in itself).
fn elements<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name}");
    let close = format!("</{name}>");
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(&open) {
        let after = rest.as_bytes().get(i + open.len()).copied();
        if !matches!(after, Some(b'>' | b' ' | b'\t' | b'\r' | b'\n')) {
            rest = &rest[i + open.len()..];
            continue;
        }
        let end = rest[i..]
            .find(&close)
            .unwrap_or_else(|| fail(&format!("an unclosed {open}")))
            + i
            + close.len();
        found.push(&rest[i..end]);
        rest = &rest[end..];
    }
    assert!(!found.is_empty(), "the model document has no {open}");
    found
}

/// A model unit cut into literal text and the values to vary. A slot is named by the text
/// that precedes its value: `lat="` (an attribute, up to the next `"`) or `<ele>` (an
/// element's text, up to the next `<`); slots are numbered by their place in the list.
struct Template<'a> {
    pieces: Vec<Piece<'a>>,
}

enum Piece<'a> {
    Text(&'a str),
    Slot { slot: usize, old: &'a str },
}

impl<'a> Template<'a> {
    fn new(text: &'a str, slots: &[&str]) -> Template<'a> {
        let mut pieces = Vec::new();
        let mut rest = text;
        loop {
            let next = slots
                .iter()
                .enumerate()
                .filter_map(|(slot, prefix)| rest.find(prefix).map(|at| (at, slot, prefix)))
                .min();
            let Some((at, slot, prefix)) = next else {
                pieces.push(Piece::Text(rest));
                break;
            };
            let start = at + prefix.len();
            let end_char = if prefix.ends_with('"') { '"' } else { '<' };
            let len = rest[start..]
                .find(end_char)
                .unwrap_or_else(|| fail(&format!("an unterminated value after {prefix:?}")));
            pieces.push(Piece::Text(&rest[..start]));
            pieces.push(Piece::Slot {
                slot,
                old: &rest[start..start + len],
            });
            rest = &rest[start + len..];
        }
        Template { pieces }
    }

    /// The first value of `slot` in the model.
    fn old(&self, slot: usize) -> &'a str {
        self.pieces
            .iter()
            .find_map(|p| match p {
                Piece::Slot { slot: s, old } if *s == slot => Some(*old),
                _ => None,
            })
            .unwrap_or_else(|| fail(&format!("the model has no value of slot {slot}")))
    }

    /// The unit with each slot's value given by `value(slot, old value, out)`.
    fn render(&self, out: &mut String, mut value: impl FnMut(usize, &str, &mut String)) {
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Slot { slot, old } => value(*slot, old, out),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Values

/// A decimal of `scale` fraction digits held as an integer of its last digit's unit.
#[derive(Clone, Copy)]
struct Fixed {
    units: i64,
    scale: u32,
}

impl Fixed {
    /// Reads `-?digits(.digits)?`; `None` for anything else.
    fn parse(s: &str) -> Option<Fixed> {
        let (negative, digits) = match s.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, s),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let units: i64 = format!("{int}{frac}").parse().ok()?;
        Some(Fixed {
            units: if negative { -units } else { units },
            scale: frac.len() as u32,
        })
    }

    /// This value moved by up to `step` units either way, kept within `[min, max]` (in
    /// units).
    fn jitter(self, rng: &mut Rng, step: i64, min: i64, max: i64) -> Fixed {
        let delta = rng.below(2 * step as u64 + 1) as i64 - step;
        Fixed {
            units: (self.units + delta).clamp(min, max),
            ..self
        }
    }

    fn write(self, out: &mut String) {
        use std::fmt::Write;
        let unit = 10i64.pow(self.scale);
        let sign = if self.units < 0 { "-" } else { "" };
        let abs = self.units.unsigned_abs();
        let _ = write!(out, "{sign}{}", abs / unit as u64);
        if self.scale > 0 {
            let _ = write!(out, ".{:0w$}", abs % unit as u64, w = self.scale as usize);
        }
    }
}

/// Up to 10^-4 (or one unit of the last digit, when coarser): how far a coordinate moves.
fn small_step(f: Fixed) -> i64 {
    10i64.pow(f.scale.saturating_sub(4))
}

/// Each decimal number of `text` (coordinates: `lon,lat[,alt]` tuples) moved by up to
/// [`small_step`], its form kept; everything else copied.
fn jitter_numbers(text: &str, rng: &mut Rng, out: &mut String) {
    let mut rest = text;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .unwrap_or(rest.len());
        if number_len == 0 {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let token = &rest[..number_len];
        match Fixed::parse(token) {
            // Whole numbers (altitudes of 0) stay as they are.
            Some(f) if f.scale > 0 => f
                .jitter(rng, small_step(f), i64::MIN / 2, i64::MAX / 2)
                .write(out),
            _ => out.push_str(token),
        }
        rest = &rest[number_len..];
    }
}

/// A UTC date and time that only moves forward (the track points' times).
#[derive(Clone, Copy)]
struct Clock {
    year: i64,
    month: i64,
    day: i64,
    seconds: i64,
}

impl Clock {
    /// Reads `YYYY-MM-DDThh:mm:ss` (what follows is ignored).
    fn parse(s: &str) -> Clock {
        let n = |r: std::ops::Range<usize>| -> i64 {
            s.get(r)
                .and_then(|t| t.parse().ok())
                .unwrap_or_else(|| fail(&format!("not a date and time: {s:?}")))
        };
        Clock {
            year: n(0..4),
            month: n(5..7),
            day: n(8..10),
            seconds: n(11..13) * 3600 + n(14..16) * 60 + n(17..19),
        }
    }

    /// `seconds` later, day by day through the Gregorian calendar.
    fn advance(&mut self, seconds: i64) {
        self.seconds += seconds;
        while self.seconds >= 86_400 {
            self.seconds -= 86_400;
            let leap = self.year % 4 == 0 && (self.year % 100 != 0 || self.year % 400 == 0);
            let days = match self.month {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            self.day += 1;
            if self.day > days {
                self.day = 1;
                self.month += 1;
                if self.month > 12 {
                    self.month = 1;
                    self.year += 1;
                }
            }
        }
    }

    /// `YYYY-MM-DD{sep}hh:mm:ss`.
    fn write(self, sep: char, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(
            out,
            "{:04}-{:02}-{:02}{sep}{:02}:{:02}:{:02}",
            self.year,
            self.month,
            self.day,
            self.seconds / 3600,
            self.seconds / 60 % 60,
            self.seconds % 60
        );
    }
}

fn push_display(out: &mut String, value: impl std::fmt::Display) {
    use std::fmt::Write;
    let _ = write!(out, "{value}");
}

// ---------------------------------------------------------------------------------------
// GPX 1.1: track points in tracks

struct Gpx<'a> {
    frame: Frame<'a>,
    track_open: Template<'a>,
    point: Template<'a>,
    lat: Fixed,
    lon: Fixed,
    ele: Fixed,
    time: Clock,
}

const GPX_LAT: usize = 0;
const GPX_LON: usize = 1;
const GPX_ELE: usize = 2;
const GPX_TIME: usize = 3;

impl<'a> Gpx<'a> {
    fn new(model: &'a str) -> Gpx<'a> {
        let (head, rest) = split_at(model, "<trk>");
        let (open, _) = split_at(rest, "<trkpt ");
        let (body, tail) = split_after_last(rest, "</trk>");
        let (points, _) = split_after_last(body, "</trkpt>");
        let track_close = &body[points.len()..];
        let point = Template::new(
            elements(rest, "trkpt")[0],
            &["lat=\"", "lon=\"", "<ele>", "<time>"],
        );
        let fixed =
            |slot| Fixed::parse(point.old(slot)).unwrap_or_else(|| fail("a track point's number"));
        Gpx {
            frame: Frame {
                unit_name: "track point",
                default_group: 12_000,
                head,
                group_close: track_close,
                tail,
            },
            track_open: Template::new(open, &["<name>"]),
            lat: fixed(GPX_LAT),
            lon: fixed(GPX_LON),
            ele: fixed(GPX_ELE),
            time: Clock::parse(point.old(GPX_TIME)),
            point,
        }
    }
}

impl Shape for Gpx<'_> {
    fn frame(&self) -> &Frame<'_> {
        &self.frame
    }
    fn open_group(&mut self, group: usize, rng: &mut Rng, out: &mut String) {
        if group > 0 {
            // The next track starts a few hours later.
            self.time.advance(3600 + rng.below(4 * 3600) as i64);
        }
        // The model names a track by its start, local time (an hour ahead of UTC).
        let mut local = self.time;
        local.advance(3600);
        self.track_open
            .render(out, |_, _, out| local.write(' ', out));
    }
    fn unit(&mut self, _: usize, rng: &mut Rng, out: &mut String) {
        // About a metre a step, ten decimals as the model has them.
        let deg = 10i64.pow(self.lat.scale);
        self.lat = self.lat.jitter(rng, 100_000, -90 * deg, 90 * deg);
        self.lon = self.lon.jitter(rng, 100_000, -180 * deg, 180 * deg - 1);
        self.ele = self.ele.jitter(rng, 60, -40_000, 880_000);
        self.time.advance(1 + rng.below(15) as i64);
        let (lat, lon, ele, time) = (self.lat, self.lon, self.ele, self.time);
        self.point.render(out, |slot, _, out| match slot {
            GPX_LAT => lat.write(out),
            GPX_LON => lon.write(out),
            GPX_ELE => ele.write(out),
            _ => {
                time.write('T', out);
                out.push('Z');
            }
        });
    }
}

// ---------------------------------------------------------------------------------------
// KML 2.2: placemarks in folders

struct Kml<'a> {
    frame: Frame<'a>,
    placemarks: Vec<Template<'a>>,
    next: usize,
}

const KML_NAME: usize = 0;
const KML_COORDINATES: usize = 1;
const KML_LONGITUDE: usize = 2;

impl<'a> Kml<'a> {
    fn new(model: &'a str) -> Kml<'a> {
        let (head, rest) = split_at(model, "<Folder>");
        let tail = &model[model
            .rfind("</Document>")
            .unwrap_or_else(|| fail("no </Document>"))..];
        let placemarks = elements(rest, "Placemark")
            .into_iter()
            .map(|p| Template::new(p, &["<name>", "<coordinates>", "<longitude>", "<latitude>"]))
            .collect();
        Kml {
            frame: Frame {
                unit_name: "placemark",
                default_group: 1_000,
                head,
                group_close: "    </Folder>\n    ",
                tail,
            },
            placemarks,
            next: 0,
        }
    }
}

impl Shape for Kml<'_> {
    fn frame(&self) -> &Frame<'_> {
        &self.frame
    }
    fn open_group(&mut self, group: usize, _: &mut Rng, out: &mut String) {
        out.push_str("<Folder>\n      <name>Placemarks ");
        push_display(out, group + 1);
        out.push_str("</name>\n");
    }
    fn unit(&mut self, _: usize, rng: &mut Rng, out: &mut String) {
        let n = self.next;
        self.next += 1;
        out.push_str("      ");
        self.placemarks[n % self.placemarks.len()].render(out, |slot, old, out| match slot {
            KML_NAME => {
                out.push_str(old);
                out.push(' ');
                push_display(out, n + 1);
            }
            KML_COORDINATES => jitter_numbers(old, rng, out),
            // LookAt's angles: within ±180 and ±90 degrees.
            _ => {
                let limit = if slot == KML_LONGITUDE { 180 } else { 90 };
                match Fixed::parse(old) {
                    Some(f) => {
                        let deg = 10i64.pow(f.scale);
                        f.jitter(rng, small_step(f), -limit * deg, limit * deg)
                            .write(out)
                    }
                    None => out.push_str(old),
                }
            }
        });
        out.push('\n');
    }
}

// ---------------------------------------------------------------------------------------
// XLIFF 1.2: trans-units in files

struct Xliff<'a> {
    frame: Frame<'a>,
    file_open: Template<'a>,
    units: Vec<Template<'a>>,
    next: usize,
}

const XLIFF_ID: usize = 0;
const XLIFF_SOURCE: usize = 1;
const XLIFF_TARGET: usize = 2;

impl<'a> Xliff<'a> {
    fn new(model: &'a str, more: &'a [String]) -> Xliff<'a> {
        let (head, rest) = split_at(model, "<file ");
        let (open, _) = split_at(rest, "<trans-unit ");
        let (body, tail) = split_after_last(rest, "</file>\n");
        let (all_units, _) = split_after_last(body, "</trans-unit>");
        let slots = ["id=\"", "<source>", "<target>", "priority=\""];
        let units = std::iter::once(model)
            .chain(more.iter().map(String::as_str))
            .flat_map(|doc| elements(doc, "trans-unit"))
            .map(|u| Template::new(u, &slots))
            .collect();
        Xliff {
            frame: Frame {
                unit_name: "trans-unit",
                default_group: 1_000,
                head,
                group_close: &body[all_units.len()..],
                tail,
            },
            file_open: Template::new(open, &["original=\""]),
            units,
            next: 0,
        }
    }
}

impl Shape for Xliff<'_> {
    fn frame(&self) -> &Frame<'_> {
        &self.frame
    }
    fn open_group(&mut self, group: usize, _: &mut Rng, out: &mut String) {
        self.file_open.render(out, |_, _, out| {
            out.push_str("src/messages-");
            push_display(out, group + 1);
            out.push_str(".txt");
        });
    }
    fn unit(&mut self, in_group: usize, rng: &mut Rng, out: &mut String) {
        let n = self.next;
        self.next += 1;
        if in_group > 0 {
            out.push_str("\n            ");
        }
        self.units[n % self.units.len()].render(out, |slot, old, out| match slot {
            // The key of the file: unique within it.
            XLIFF_ID => push_display(out, in_group + 1),
            XLIFF_SOURCE | XLIFF_TARGET => {
                out.push_str(old);
                if !old.is_empty() {
                    out.push_str(" (");
                    push_display(out, n + 1);
                    out.push(')');
                }
            }
            // Note priorities: 1 to 10.
            _ => push_display(out, 1 + rng.below(10)),
        });
    }
}

// ---------------------------------------------------------------------------------------
// MusicXML 4.0: measures of one part

struct MusicXml<'a> {
    frame: Frame<'a>,
    measures: Vec<Template<'a>>,
    next: usize,
}

const MUSIC_NUMBER: usize = 0;
const MUSIC_WIDTH: usize = 1;
const MUSIC_X: usize = 2;
const MUSIC_STEP: usize = 3;
const MUSIC_ROOT_STEP: usize = 4;

impl<'a> MusicXml<'a> {
    fn new(model: &'a str) -> MusicXml<'a> {
        // The first measure (the pickup, with the part's attributes) stays in the head.
        let (_, part) = split_at(model, "<measure ");
        let first = elements(part, "measure")[0];
        let head_len = model.len() - part.len() + first.len();
        let (body, tail) = split_after_last(model, "</measure>");
        let measures = elements(&body[head_len..], "measure")
            .into_iter()
            .map(|m| {
                Template::new(
                    m,
                    &[
                        "<measure number=\"",
                        " width=\"",
                        " default-x=\"",
                        "<step>",
                        "<root-step>",
                        "<octave>",
                    ],
                )
            })
            .collect();
        MusicXml {
            frame: Frame {
                unit_name: "measure",
                default_group: 0,
                head: &model[..head_len],
                group_close: "",
                tail,
            },
            measures,
            next: 0,
        }
    }
}

impl Shape for MusicXml<'_> {
    fn frame(&self) -> &Frame<'_> {
        &self.frame
    }
    fn open_group(&mut self, _: usize, _: &mut Rng, _: &mut String) {}
    fn unit(&mut self, _: usize, rng: &mut Rng, out: &mut String) {
        const STEPS: [&str; 7] = ["A", "B", "C", "D", "E", "F", "G"];
        let n = self.next;
        self.next += 1;
        out.push_str("\n    ");
        self.measures[n % self.measures.len()].render(out, |slot, old, out| match slot {
            MUSIC_NUMBER => push_display(out, n + 1),
            MUSIC_WIDTH | MUSIC_X => match Fixed::parse(old) {
                Some(f) => f.jitter(rng, 300, -100_000, 100_000).write(out),
                None => out.push_str(old),
            },
            MUSIC_STEP | MUSIC_ROOT_STEP => out.push_str(STEPS[rng.below(7) as usize]),
            // Octaves 0 to 9; the model's stay within 2 to 6, so do these.
            _ => push_display(out, 3 + rng.below(3)),
        });
    }
}
