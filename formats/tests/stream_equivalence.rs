//! Documents in memory (and files up to 2 MiB) are read in place; larger files stream
//! through the decoder and the size guard. Both paths must report exactly the same.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use boardxml_formats::validate::{
    validate_bytes, validate_bytes_streamed, Options, Validated as Report,
};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("cif" | "cbf" | "xml")
        ) {
            out.push(path);
        }
    }
}

fn summary(report: &Report) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {} {}:{} {} | {} | {:?} | {:?}",
                d.code, d.offset, d.line, d.column, d.path, d.message, d.expected, d.found
            )
        })
        .collect()
}

fn assert_same(name: &str, bytes: &[u8]) {
    for options in [
        Options::default(),
        Options {
            schema_only: true,
            ..Options::default()
        },
        Options {
            keep_document: false,
            ..Options::default()
        },
        Options {
            max_errors: 1,
            ..Options::default()
        },
    ] {
        let path = Path::new(name);
        let in_place = validate_bytes(path, bytes, &options);
        let streamed = validate_bytes_streamed(path, bytes, &options);
        assert_eq!(
            summary(&in_place),
            summary(&streamed),
            "{name} with {options:?}"
        );
        assert_eq!(in_place.is_valid(), streamed.is_valid(), "{name}");
        assert_eq!(in_place.format, streamed.format, "{name}");
        assert_eq!(
            (in_place.encoding, in_place.bom),
            (streamed.encoding, streamed.bom),
            "{name}"
        );
        assert_eq!(
            in_place.document.is_some(),
            streamed.document.is_some(),
            "{name}"
        );
    }
}

#[test]
fn conformance_cases_and_examples_read_the_same_in_place_and_streamed() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut files = Vec::new();
    files_under(&root.join("conformance/cases"), &mut files);
    files_under(&root.join("examples"), &mut files);
    files_under(&root.join("tests"), &mut files);
    if let Some(corpus) = common::shared("corpus") {
        files_under(&corpus, &mut files);
    }
    assert!(files.len() > 400, "{} files", files.len());
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        assert_same(&file.display().to_string(), &bytes);
    }
}

/// Every prefix of a document, and the document with one byte changed at each position:
/// the malformed cases are where the two paths could part (error positions, end of input).
#[test]
fn truncations_and_byte_flips_read_the_same_in_place_and_streamed() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    for example in [
        "examples/valid/every-marker.cif",
        "examples/valid/short-game.cbf",
    ] {
        let bytes = std::fs::read(root.join(example)).unwrap();
        for cut in (0..bytes.len()).step_by(7) {
            assert_same(&format!("{example} cut at {cut}"), &bytes[..cut]);
        }
        for at in (0..bytes.len()).step_by(5) {
            for replacement in [b'<', b'&', b'"', 0xFF, b'\r', 0] {
                let mut changed = bytes.clone();
                changed[at] = replacement;
                assert_same(&format!("{example} byte {at} = {replacement:#x}"), &changed);
            }
        }
    }
}

/// A reader's diagnostics once it has read `reader`'s document for well-formedness.
fn well_formed(mut reader: boardxml::xml::Reader<'_>) -> Vec<String> {
    let _ = reader.read_well_formed();
    reader
        .diagnostics()
        .iter()
        .map(|d| format!("{} {} {} | {}", d.code, d.offset, d.path, d.message))
        .collect()
}

/// Streamed text is read in place in a window that takes the input a step at a time: the
/// real-world documents of `../shared/xsd-real`, read through windows of a few bytes,
/// report what the text read whole in place reports.
#[test]
fn real_documents_read_the_same_whatever_the_window_ends() {
    let Some(dir) = common::shared("xsd-real") else {
        return;
    };
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    assert!(files.len() > 50, "{} files", files.len());
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let whole = well_formed(boardxml::xml::Reader::new(text));
        let steps: &[usize] = if bytes.len() < 64 << 10 {
            &[1, 5, 64, 4096]
        } else {
            &[7, 4096]
        };
        for &step in steps {
            let windowed = boardxml::xml::Reader::from_reader_in_steps(&bytes[..], step);
            assert_eq!(
                well_formed(windowed),
                whole,
                "{} in steps of {step}",
                file.display()
            );
        }
    }
}
