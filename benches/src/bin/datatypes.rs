//! Reading typed values (issue 15): a document of N `<r>` elements with a decimal, a date
//! and a double attribute each (benches/schemas/datatypes/values.xsd), against the same
//! document shape read through the integer and string paths (baseline.xsd: xs:long,
//! xs:token, xs:int, values of about the same length), and against
//! `xmllint --stream --noout --schema` on the typed document.
//!
//! usage: datatypes [--count N] [--rounds R] [--dir DIR]
//!        datatypes --once typed|baseline [--count N]   (one read, nothing printed: for
//!        instruction counts under callgrind, which the machine's load does not move)
//! Prints one markdown table. The documents are generated deterministically into DIR
//! (default /tmp/boardxml-bench-datatypes). The generated types in src/generated come from
//! `cargo run -p boardxml-codegen -- --schemas benches/schemas/datatypes --out benches/src/generated`.

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use boardxml::schema::Document;
use boardxml::xml::Reader;
use boardxml_bench::{interleaved, Rng};

#[allow(dead_code, missing_docs)]
#[rustfmt::skip]
mod baseline {
    include!("../generated/baseline.rs");
}
#[allow(dead_code, missing_docs)]
#[rustfmt::skip]
mod values {
    include!("../generated/values.rs");
}

fn typed_document(count: usize, rng: &mut Rng) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<readings>\n");
    for _ in 0..count {
        let sign = if rng.below(4) == 0 { "-" } else { "" };
        let amount = format!("{sign}{}.{:02}", rng.below(100_000), rng.below(100));
        let day = format!(
            "{}-{:02}-{:02}",
            1900 + rng.below(200),
            1 + rng.below(12),
            1 + rng.below(28)
        );
        let level = format!("{}.{}E{}", 1 + rng.below(9), rng.below(1000), rng.below(40));
        s.push_str(&format!(
            "  <r amount=\"{amount}\" day=\"{day}\" level=\"{level}\"/>\n"
        ));
    }
    s.push_str("</readings>\n");
    s
}

fn baseline_document(count: usize, rng: &mut Rng) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<readings>\n");
    for _ in 0..count {
        let sign = if rng.below(4) == 0 { "-" } else { "" };
        let amount = format!("{sign}{}{:02}", rng.below(100_000), rng.below(100));
        let day = format!(
            "d{}x{:02}x{:02}",
            rng.below(1_000_000),
            rng.below(100),
            rng.below(10)
        );
        let level = format!("{}{}{}", 1 + rng.below(9), rng.below(1000), rng.below(40));
        s.push_str(&format!(
            "  <r amount=\"{amount}\" day=\"{day}\" level=\"{level}\"/>\n"
        ));
    }
    s.push_str("</readings>\n");
    s
}

fn read<D: Document>(text: &str) -> D {
    let mut r = Reader::new(text);
    let d = r.read_document::<D>();
    let diagnostics = r.into_diagnostics();
    assert!(diagnostics.is_empty(), "{:?}", &diagnostics[..1]);
    d.expect("valid")
}

fn median(mut t: Vec<Duration>) -> Duration {
    t.sort();
    t[t.len() / 2]
}

fn xmllint(schema: &Path, doc: &Path, rounds: usize) -> Option<Duration> {
    let run = || {
        let t = Instant::now();
        let out = Command::new("xmllint")
            .args(["--stream", "--noout", "--schema"])
            .arg(schema)
            .arg(doc)
            .output()
            .ok()?;
        let elapsed = t.elapsed();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && said.contains("validates"),
            "xmllint: {said}"
        );
        Some(elapsed)
    };
    run()?;
    let times: Option<Vec<Duration>> = (0..rounds).map(|_| run()).collect();
    times.map(median)
}

fn main() {
    let (mut count, mut rounds) = (100_000usize, 7usize);
    let mut dir = std::path::PathBuf::from("/tmp/boardxml-bench-datatypes");
    let mut once = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--count" => count = args.next().unwrap().parse().unwrap(),
            "--rounds" => rounds = args.next().unwrap().parse().unwrap(),
            "--dir" => dir = args.next().unwrap().into(),
            "--once" => once = args.next(),
            other => panic!("unknown argument {other}"),
        }
    }
    let mut rng = Rng::new(15);
    let typed = typed_document(count, &mut rng);
    let plain = baseline_document(count, &mut rng);
    match once.as_deref() {
        Some("typed") => {
            black_box(read::<values::Root>(&typed));
            return;
        }
        Some("baseline") => {
            black_box(read::<baseline::Root>(&plain));
            return;
        }
        Some(other) => panic!("--once typed|baseline, not {other}"),
        None => {}
    }
    std::fs::create_dir_all(&dir).unwrap();
    let typed_path = dir.join("values.xml");
    let plain_path = dir.join("baseline.xml");
    std::fs::write(&typed_path, &typed).unwrap();
    std::fs::write(&plain_path, &plain).unwrap();
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/datatypes");
    // The typed document holds what it says: a sample value survives.
    let doc: values::Root = read(&typed);
    let values::Root::Readings(r) = &doc;
    assert_eq!(r.r.len(), count);

    let mut t_typed = || {
        black_box(read::<values::Root>(black_box(&typed)));
    };
    let mut t_plain = || {
        black_box(read::<baseline::Root>(black_box(&plain)));
    };
    let times = interleaved(
        rounds,
        &mut [("typed", &mut t_typed), ("baseline", &mut t_plain)],
    );
    let lint_typed = xmllint(&schemas.join("values.xsd"), &typed_path, 3.min(rounds));
    let lint_plain = xmllint(&schemas.join("baseline.xsd"), &plain_path, 3.min(rounds));
    let mbs = |bytes: usize, t: Duration| bytes as f64 / 1e6 / t.as_secs_f64();
    println!("| document | bytes | boardxml in process | MB/s | ns/attribute | xmllint --stream --schema (whole process) |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, bytes, t, lint) in [
        ("decimal, date, double", typed.len(), times[0], lint_typed),
        (
            "long, token, int (baseline)",
            plain.len(),
            times[1],
            lint_plain,
        ),
    ] {
        println!(
            "| {name} | {bytes} | {:.1} ms | {:.1} | {:.0} | {} |",
            t.as_secs_f64() * 1e3,
            mbs(bytes, t),
            t.as_secs_f64() * 1e9 / (3 * count) as f64,
            lint.map_or("xmllint not found".into(), |l| format!(
                "{:.1} ms ({:.1} MB/s)",
                l.as_secs_f64() * 1e3,
                mbs(bytes, l)
            )),
        );
    }
}
