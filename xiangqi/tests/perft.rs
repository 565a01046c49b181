//! Perft (leaf counts of the legal move tree) against published figures.
//!
//! Sources:
//! * Start position: 44; 1,920; 79,666; 3,290,240 (chessprogramming.org "Chinese Chess
//!   Perft Results"; Fairy-Stockfish `tests/perft.sh`: `xiangqi startpos 4 3290240`).
//! * Middle-game positions from Fairy-Stockfish `tests/perft.sh` (large-board variants):
//!   `1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1`
//!   depth 4 = 4,485,547, and `4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1` depth 4 =
//!   92,741. The shallower figures for these two were computed with pyffish 0.0.90
//!   (Fairy-Stockfish's Python binding), an independent implementation.
//!
//! All figures run in every build: the depth-4 counts take about 5 s (start) and 8 s
//! (middle game 1) in a plain debug build, well under a second with optimisations.

use boardxml_xiangqi::{perft, Position};

const MIDGAME_1: &str =
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1";
const MIDGAME_2: &str = "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1";

fn check(fen: &str, figures: &[u64]) {
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(pos.validate(), Ok(()), "{fen}");
    for (i, &want) in figures.iter().enumerate() {
        let depth = i as u32 + 1;
        let t = std::time::Instant::now();
        let got = perft(&pos, depth);
        eprintln!("perft {fen} depth {depth} = {got} in {:?}", t.elapsed());
        assert_eq!(got, want, "perft({fen}, {depth})");
    }
}

#[test]
fn start_position() {
    check(boardxml_xiangqi::START_FEN, &[44, 1_920, 79_666, 3_290_240]);
}

#[test]
fn midgame_1() {
    check(MIDGAME_1, &[49, 2_265, 100_326, 4_485_547]);
}

#[test]
fn midgame_2() {
    check(MIDGAME_2, &[13, 272, 3_707, 92_741]);
}
