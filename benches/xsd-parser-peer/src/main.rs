//! Parse time of xsd-parser's generated quick-xml deserializer vs boardxml on one CIF file
//! (in memory, interleaved rounds, medians).
//! usage: boardxml-xsd-parser-peer [--rounds N] FILE
//! prints whether the strict variant's deserializer accepts FILE, then per reader: name ms MB/s
//! ratio-to-boardxml-schema-only.

use std::hint::black_box;
use std::path::Path;

use boardxml::validate::{validate_bytes, Options};
use xsd_parser_types::quick_xml::{DeserializeSync, IoReader, XmlReader};

/// Generated from the variant with the MarkerContent workaround (see build.rs): timed.
#[allow(dead_code, unused_imports, unused_variables, unused_mut, clippy::all)]
mod cif {
    include!(concat!(env!("OUT_DIR"), "/cif.rs"));
}

/// Generated from benches/schemas/cif-xsd10.xsd as it is: only tried once, its verdict printed.
#[allow(dead_code, unused_imports, unused_variables, unused_mut, clippy::all)]
mod cif_strict {
    include!(concat!(env!("OUT_DIR"), "/cif_strict.rs"));
}

fn theirs(bytes: &[u8]) -> cif::Cif {
    let mut reader = IoReader::new(bytes).with_error_info();
    cif::Cif::deserialize(&mut reader).expect("xsd-parser deserializer accepts the document")
}

fn main() {
    let mut rounds = 7usize;
    let mut file = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().unwrap().parse().unwrap(),
            _ => file = Some(a),
        }
    }
    let file = file.expect("usage: boardxml-xsd-parser-peer [--rounds N] FILE");
    let bytes = std::fs::read(&file).expect("read");
    let path = Path::new(&file);
    let schema = Options { schema_only: true, ..Options::default() };
    let full = Options::default();
    assert!(validate_bytes(path, &bytes, &full).is_valid());
    match cif_strict::Cif::deserialize(&mut IoReader::new(&bytes[..]).with_error_info()) {
        Ok(_) => println!("strict-variant accepted"),
        Err(e) => println!("strict-variant rejected: {e:?}"),
    }
    let _ = theirs(&bytes);
    let times = boardxml_bench::interleaved(
        rounds,
        &mut [
            ("boardxml schema-only", &mut || {
                black_box(validate_bytes(path, black_box(&bytes), &schema));
            }),
            ("boardxml full", &mut || {
                black_box(validate_bytes(path, black_box(&bytes), &full));
            }),
            ("xsd-parser", &mut || {
                black_box(theirs(black_box(&bytes)));
            }),
        ],
    );
    let base = times[0].as_secs_f64();
    for (name, t) in ["boardxml-schema-only", "boardxml-full", "xsd-parser"].iter().zip(&times) {
        let s = t.as_secs_f64();
        println!("{name} {:.1} {:.1} {:.2}", s * 1e3, bytes.len() as f64 / 1e6 / s, s / base);
    }
}
