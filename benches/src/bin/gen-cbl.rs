//! Writes a deterministic XiangQi Bridge library (CBL) of `--count` records: random legal
//! games of 60-200 plies from the standard start (as gen-cbf makes them), one move in eight
//! with a comment, each record a CBR (UTF-16LE fields, the move tree from byte 2214) on
//! 4096-byte slots after an index of 1024 slots. The layout is that of
//! src/players/cbr.rs; the records read back with every move legal.
//! usage: gen-cbl [--count N] [--seed S] OUT.cbl

use boardxml_formats::players::cbr;
use boardxml_bench::Rng;
use boardxml_xiangqi::{Move, Piece, PieceKind, Position, Side};

const NAMES: [&str; 6] = ["许银川", "吕钦", "胡荣华", "赵国荣", "Wang Tianyi", "柳大华"];
const COMMENTS: [&str; 5] = ["好棋", "红方优势", "A quiet move.", "黑方反击 & 谋子", "平稳"];

fn utf16(out: &mut [u8], at: usize, width: usize, text: &str) {
    let mut i = at;
    for unit in text.encode_utf16() {
        if i + 2 > at + width - 2 {
            break;
        }
        out[i..i + 2].copy_from_slice(&unit.to_le_bytes());
        i += 2;
    }
}

fn board_byte(p: Piece) -> u8 {
    let side = if p.side == Side::Red { 0x10 } else { 0x20 };
    side | match p.kind {
        PieceKind::Rook => 1,
        PieceKind::Horse => 2,
        PieceKind::Elephant => 3,
        PieceKind::Advisor => 4,
        PieceKind::King => 5,
        PieceKind::Cannon => 6,
        PieceKind::Pawn => 7,
    }
}

fn record(rng: &mut Rng, i: usize) -> Vec<u8> {
    let start = Position::start();
    let mut r = vec![0u8; cbr::MOVES];
    r[..16].copy_from_slice(cbr::RECORD_MAGIC);
    utf16(&mut r, 180, 128, &format!("对局 {i}"));
    utf16(&mut r, 692, 64, "全国象棋个人赛");
    let red = *rng.pick(&NAMES);
    utf16(&mut r, 1076, 64, red);
    let black = *rng.pick(&NAMES);
    utf16(&mut r, 1300, 64, black);
    r[cbr::KIND] = 1;
    r[cbr::SIDE] = 1;
    r[cbr::MOVE_NUMBER] = 1;
    for (p, piece) in start.pieces() {
        r[cbr::BOARD + p.index()] = board_byte(piece);
    }
    r[2210..2214].copy_from_slice(&[0xFF; 4]);
    // The root record (no game comment), then the main line.
    r.extend([0, 0, 0, 0]);
    let plies = 60 + rng.below(141) as usize;
    let mut pos = start;
    let mut line: Vec<Move> = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = *rng.pick(&moves);
        pos.play(mv).expect("legal");
        line.push(mv);
    }
    for (j, mv) in line.iter().enumerate() {
        let comment = (rng.below(8) == 0).then(|| *rng.pick(&COMMENTS));
        let mut flags = if j + 1 == line.len() { 0x01 } else { 0 };
        if comment.is_some() {
            flags |= 0x04;
        }
        r.extend([flags, 0, mv.from.index() as u8, mv.to.index() as u8]);
        if let Some(c) = comment {
            let text: Vec<u8> = c.encode_utf16().flat_map(u16::to_le_bytes).collect();
            r.extend((text.len() as u32).to_le_bytes());
            r.extend(text);
        }
    }
    r.resize(r.len().div_ceil(cbr::SLOT) * cbr::SLOT, 0);
    r
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut count, mut seed, mut out) = (1000usize, 1u64, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--count" => count = args.next().and_then(|v| v.parse().ok()).expect("--count N"),
            "--seed" => seed = args.next().and_then(|v| v.parse().ok()).expect("--seed S"),
            other => out = Some(other.to_string()),
        }
    }
    let out = out.expect("usage: gen-cbl [--count N] [--seed S] OUT.cbl");
    let slots = 1024u32;
    let mut lib = vec![0u8; cbr::INDEX + slots as usize * cbr::INDEX_ENTRY];
    lib[..16].copy_from_slice(cbr::LIBRARY_MAGIC);
    lib[60..64].copy_from_slice(&slots.to_le_bytes());
    let mut rng = Rng::new(seed);
    for i in 0..count {
        lib.extend(record(&mut rng, i + 1));
    }
    std::fs::write(&out, lib).expect("writable");
}
