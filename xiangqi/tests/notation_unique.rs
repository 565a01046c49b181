//! Self-consistency of the notations over seeded random games: at every ply the Chinese
//! and the WXF ASCII notations of the legal moves are all distinct (so the 前/后/中 and
//! tandem-pawn conventions disambiguate), the move played reads back from both, ICCS and
//! CBF texts parse back to the move, and the 2007 Board string and the FEN of every
//! position read back to the same position.

use std::collections::HashSet;

use boardxml_xiangqi::seeded::XorShift;
use boardxml_xiangqi::{Move, Position};

#[test]
fn notations_are_unambiguous_and_round_trip() {
    let mut rng = XorShift(0x0123_4567_89ab_cdef);
    let mut positions = 0;
    for game in 0..100 {
        let mut pos = Position::start();
        for _ in 0..150 {
            positions += 1;
            assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
            // The Board string carries no half-move clock.
            let board = pos.to_board_string();
            let back = Position::from_board_string(&board).unwrap();
            assert_eq!(back.to_board_string(), board);
            assert!(back.pieces().eq(pos.pieces()));
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut chinese = HashSet::new();
            let mut wxf = HashSet::new();
            for &m in &moves {
                let c = pos.to_chinese(m).unwrap();
                assert_eq!(c.chars().count(), 4, "{c}");
                assert!(chinese.insert(c.clone()), "{c} twice in {}", pos.to_fen());
                let w = pos.to_wxf(m).unwrap();
                assert_eq!(w.len(), 4, "{w}");
                assert!(wxf.insert(w.clone()), "{w} twice in {}", pos.to_fen());
                assert_eq!(Move::parse_iccs(&m.iccs()).unwrap(), m);
                assert_eq!(Move::parse_cbf(&m.cbf()).unwrap(), m);
            }
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            let mv = if game % 2 == 1 && !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            // Reading back (costly: it writes every legal move) only the move played.
            assert_eq!(pos.parse_chinese(&pos.to_chinese(mv).unwrap()), Ok(mv));
            assert_eq!(pos.parse_wxf(&pos.to_wxf(mv).unwrap()), Ok(mv));
            pos.play(mv).unwrap();
        }
    }
    eprintln!("notation: {positions} positions checked");
}
