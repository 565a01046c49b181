//! The readers of players' formats (XQF, CBR, CBL, PGN) judged on real files.

mod common;

use boardxml::players::{self, Kind};

fn formats() -> Option<std::path::PathBuf> {
    common::shared("xiangqi-formats")
}

#[test]
fn explore() {
    let Some(dir) = formats() else { return };
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for p in names {
        let bytes = std::fs::read(&p).unwrap();
        let Some(kind) = Kind::sniff(&bytes) else {
            continue;
        };
        let r = players::read(kind, &bytes);
        println!("== {} {:?}: {} records", p.display(), kind, r.records.len());
        for t in &r.records {
            println!(
                "   title {:?} moves {} roots {} main {}",
                t.title,
                t.record.moves.len(),
                t.record.root_children.len(),
                boardxml::cbf::main_line(&t.record).len()
            );
        }
        for d in &r.diagnostics {
            println!(
                "   {} {}:{} @{} {} {}",
                d.code, d.line, d.column, d.offset, d.path, d.message
            );
        }
    }
}
