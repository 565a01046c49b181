//! `LegalPosition::undo` takes back exactly what `LegalPosition::play_undoable` played: for
//! every from/to pair of the side to move along seeded random games, the position after
//! play and undo is the one before (whatever the move: king moves, captures, checks, the
//! move counters), and `play_undoable` answers as `play` does.

use boardxml_xiangqi::seeded::XorShift;
use boardxml_xiangqi::{LegalPosition, Move, Point, Position};

#[test]
fn undo_takes_back_what_play_undoable_played() {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let starts = [
        Position::start(),
        // Counters at their ends, and sparse boards where kings move often (and one where
        // red starts in check).
        Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3K1R3 b - - 4294967295 4294967295").unwrap(),
        Position::from_fen("3k5/4a4/4b4/9/2n6/9/9/4C4/4p4/4K4 w - - 7 40").unwrap(),
    ];
    let mut undone = 0;
    for game in 0..120 {
        let mut lp = LegalPosition::new(starts[game % starts.len()].clone()).unwrap();
        for _ in 0..100 {
            let pos = lp.position().clone();
            for from in (0..90).map(Point::from_index) {
                if pos.piece_at(from).map(|p| p.side) != Some(pos.side_to_move()) {
                    continue;
                }
                for to in (0..90).map(Point::from_index) {
                    let mv = Move::new(from, to);
                    let mut played = lp.clone();
                    let mut plain = lp.clone();
                    let got = played.play_undoable(mv);
                    let want = plain.play(mv);
                    assert_eq!(got.as_ref().err(), want.as_ref().err(), "{mv}");
                    assert_eq!(played, plain, "{mv} in {}", pos.to_fen());
                    if let Ok(undo) = got {
                        played.undo(undo);
                        assert_eq!(played, lp, "undo {mv} in {}", pos.to_fen());
                        undone += 1;
                    }
                }
            }
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            lp.play(legal[rng.below(legal.len())]).unwrap();
        }
    }
    assert!(undone > 100_000, "only {undone} moves taken back");
}
