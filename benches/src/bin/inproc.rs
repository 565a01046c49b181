//! In-process parse time on one document held in memory, interleaved rounds, medians:
//!   floor       quick-xml 0.38 reading every event, every attribute (unescaped) and every
//!               text (decoded): no validation, nothing built
//!   floor-stack the floor's loop reading through boardxml's streaming decoder
//!   schema-only boardxml_formats::validate::validate_bytes, Options { schema_only: true }
//!   full        validate_bytes with the format rules (the document is built and kept)
//! usage: inproc [--rounds N] FILE      (prints one line per variant: name ms MB/s ratio)
//!        inproc --once floor|schema-only|full FILE   (one run, nothing printed: for profilers)

use std::hint::black_box;
use std::path::Path;

use boardxml_formats::validate::{validate_bytes, Options};
use quick_xml::events::Event;

pub fn floor(bytes: &[u8]) -> usize {
    read_all(quick_xml::Reader::from_reader(bytes))
}

/// The floor's loop over boardxml's streaming decoder instead of the slice: what reading a
/// stream costs before any checking.
pub fn floor_stack(bytes: &[u8]) -> usize {
    let decoded = boardxml::encoding::DecodeReader::new(bytes).expect("encoding");
    read_all(quick_xml::Reader::from_reader(decoded))
}

/// Reads every event, unescapes every attribute value and decodes every text; builds and
/// checks nothing.
fn read_all<R: std::io::BufRead>(mut r: quick_xml::Reader<R>) -> usize {
    let mut buf = Vec::with_capacity(1024);
    let mut n = 0usize;
    loop {
        match r.read_event_into(&mut buf).expect("well-formed") {
            Event::Start(e) | Event::Empty(e) => {
                n += e.name().as_ref().len();
                for a in e.attributes() {
                    let a = a.expect("attribute");
                    n += a.key.as_ref().len() + a.unescape_value().expect("value").len();
                }
            }
            Event::End(e) => n += e.name().as_ref().len(),
            Event::Text(t) => n += t.decode().expect("utf-8").len(),
            Event::CData(t) => n += t.decode().expect("utf-8").len(),
            Event::GeneralRef(g) => n += g.len(),
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    n
}

fn main() {
    let mut rounds = 7usize;
    let mut file = None;
    let mut once = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().unwrap().parse().unwrap(),
            "--once" => once = args.next(),
            _ => file = Some(a),
        }
    }
    let file = file.expect("usage: inproc [--rounds N] FILE");
    let bytes = std::fs::read(&file).expect("read");
    let path = Path::new(&file);
    let schema = Options {
        schema_only: true,
        ..Options::default()
    };
    let full = Options::default();
    match once.as_deref() {
        Some("floor") => {
            black_box(floor(&bytes));
            return;
        }
        Some("floor-stack") => {
            black_box(floor_stack(&bytes));
            return;
        }
        Some("schema-only") => return drop(black_box(validate_bytes(path, &bytes, &schema))),
        Some("full") => return drop(black_box(validate_bytes(path, &bytes, &full))),
        Some(other) => panic!("--once {other}: expected floor, schema-only or full"),
        None => {}
    }
    for o in [&schema, &full] {
        let r = validate_bytes(path, &bytes, o);
        assert!(
            r.is_valid(),
            "{file} is not valid: {:?}",
            r.diagnostics.first()
        );
    }
    let times = boardxml_bench::interleaved(
        rounds,
        &mut [
            ("floor", &mut || {
                black_box(floor(black_box(&bytes)));
            }),
            ("floor-stack", &mut || {
                black_box(floor_stack(black_box(&bytes)));
            }),
            ("schema-only", &mut || {
                black_box(validate_bytes(path, black_box(&bytes), &schema));
            }),
            ("full", &mut || {
                black_box(validate_bytes(path, black_box(&bytes), &full));
            }),
        ],
    );
    let base = times[0].as_secs_f64();
    for (name, t) in ["floor", "floor-stack", "schema-only", "full"]
        .iter()
        .zip(&times)
    {
        let s = t.as_secs_f64();
        println!(
            "{name} {:.1} {:.1} {:.2}",
            s * 1e3,
            bytes.len() as f64 / 1e6 / s,
            s / base
        );
    }
}
