//! Validation checks a CBF document's rules straight from the generated types
//! (`rules::check`, through `cbf::check_2007`/`check_1_0`) rather than from a [`Record`];
//! both must give the same issues. Held over every CBF conformance case, example and corpus
//! record, and over variants of each with moves, nids, flags, results and sides changed,
//! so that every kind of rule issue is met.

#[path = "../../tests/common/mod.rs"]
mod common;

use boardxml_formats::codes;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use boardxml::diagnostic::Code;
use boardxml::encoding::decode;
use boardxml::xml::Reader;
use boardxml_formats::cbf::Record;
use boardxml_formats::document::Document;
use boardxml_formats::generated::{cbf_1_0, cbf_2007};
use boardxml_xiangqi::seeded::XorShift;

fn cbf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            cbf_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "cbf") {
            out.push(path);
        }
    }
}

/// The byte ranges of the values of `attribute="..."` in `text`.
fn values(text: &str, attribute: &str) -> Vec<(usize, usize)> {
    let key = format!(" {attribute}=\"");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(&key) {
        let start = from + i + key.len();
        let Some(len) = text[start..].find('"') else {
            break;
        };
        out.push((start, start + len));
        from = start + len;
    }
    out
}

fn replace(text: &str, (start, end): (usize, usize), with: &str) -> String {
    format!("{}{with}{}", &text[..start], &text[end..])
}

/// A variant of `text` with one thing changed.
fn variant(text: &str, rng: &mut XorShift) -> String {
    let moves = values(text, "value")
        .into_iter()
        .filter(|&(s, e)| e - s == 5 && text.as_bytes()[s + 2] == b'-')
        .collect::<Vec<_>>();
    let point = |rng: &mut XorShift| format!("{}{}", rng.below(9), rng.below(10));
    match rng.below(6) {
        0 | 1 if !moves.is_empty() => {
            let at = moves[rng.below(moves.len())];
            let mv = format!("{}-{}", point(rng), point(rng));
            replace(text, at, &mv)
        }
        2 if !moves.is_empty() => {
            // Another move of the record, often one of the right piece at the wrong time.
            let at = moves[rng.below(moves.len())];
            let (s, e) = moves[rng.below(moves.len())];
            replace(text, at, &text[s..e])
        }
        3 => {
            let nids = values(text, "nid");
            if nids.is_empty() {
                match text.match_indices("<Move value=").nth(1 + rng.below(8)) {
                    Some((i, _)) => {
                        let flag = [" branch=\"1\"", " end=\"1\""][rng.below(2)];
                        format!("{}<Move{flag}{}", &text[..i], &text[i + 5..])
                    }
                    None => text.to_string(),
                }
            } else {
                let at = nids[rng.below(nids.len())];
                let nid: usize = text[at.0..at.1].parse().unwrap_or(1);
                replace(text, at, &(nid + rng.below(3)).max(1).to_string())
            }
        }
        4 => {
            let code = rng.below(4).to_string();
            let mut out = text.to_string();
            for (open, close) in [("<RecordResult>", "</RecordResult>")] {
                if let (Some(s), Some(e)) = (out.find(open), out.find(close)) {
                    out = replace(&out, (s + open.len(), e), &code);
                }
            }
            if let Some(&at) = values(&out, "value")
                .iter()
                .find(|&&(s, _)| out[..s].ends_with("<Result value=\""))
            {
                out = replace(&out, at, &code);
            }
            out
        }
        _ => text
            .replacen(" w - -", " b - -", 1)
            .replacen("-r1\"", "-b1\"", 1),
    }
}

/// Both paths on one document text (nothing if it is not a schema-valid CBF record); the
/// codes of the issues found are counted in `seen`.
fn compare(name: &str, text: &str, seen: &mut BTreeMap<Code, usize>) -> bool {
    let Ok(doc) = Reader::new(text).read_document::<Document>() else {
        return false;
    };
    let record = match &doc {
        Document::Cbf2007(cbf_2007::Root::ChineseChessRecord(r)) => Record::from_2007(r),
        Document::Cbf10(cbf_1_0::Root::ChineseChessRecord(r)) => Record::from_1_0(r),
        Document::Cif(_) => return false,
    };
    let issues = boardxml_formats::rules::check(&doc);
    assert_eq!(
        issues,
        boardxml_formats::cbf::check(&record),
        "{name}\n{text}"
    );
    for issue in issues {
        *seen.entry(issue.code).or_default() += 1;
    }
    true
}

#[test]
fn checking_a_document_gives_the_issues_of_checking_its_record() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut files = Vec::new();
    cbf_files(&root.join("conformance/cases"), &mut files);
    cbf_files(&root.join("examples"), &mut files);
    if let Some(corpus) = common::shared("corpus") {
        cbf_files(&corpus, &mut files);
    }
    files.sort();
    assert!(files.len() > 250, "{} CBF files", files.len());
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let (mut records, mut variants) = (0, 0);
    let mut seen = BTreeMap::new();
    for file in &files {
        let Ok(decoded) = decode(&std::fs::read(file).unwrap()) else {
            continue;
        };
        let name = file.display().to_string();
        records += usize::from(compare(&name, &decoded.text, &mut seen));
        for k in 0..6 {
            let mut text = decoded.text.clone();
            for _ in 0..=k % 3 {
                text = variant(&text, &mut rng);
            }
            variants += usize::from(compare(&format!("{name} (variant {k})"), &text, &mut seen));
        }
    }
    eprintln!("{records} records and {variants} variants compared; issues: {seen:?}");
    assert!(records > 150 && variants > 1000, "{records} / {variants}");
    for code in [
        codes::BOARD_STRING,
        codes::FEN,
        codes::ILLEGAL_POSITION,
        codes::MOVE_TREE,
        codes::ROOT_MOVE,
        codes::ILLEGAL_MOVE,
        codes::RESULT_CONTRADICTION,
    ] {
        assert!(seen.contains_key(&code), "no {code:?} issue met: {seen:?}");
    }
}
