//! `LegalPosition::play` skips the king-safety test for moves that cannot change it; it
//! must still answer every move exactly as `Position::play` does, and agree with
//! `legal_moves`. Checked for every move of the side to move (every own piece to every
//! point) along seeded random games, from the start and from random valid positions.

use std::collections::BTreeSet;

use boardxml_xiangqi::seeded::XorShift;
use boardxml_xiangqi::{LegalPosition, Move, Piece, PieceKind, Point, Position, Side};

fn random_side(rng: &mut XorShift) -> Side {
    if rng.below(2) == 0 {
        Side::Red
    } else {
        Side::Black
    }
}

/// A random valid position: kings in their palaces and a random handful of other pieces,
/// kept only if `validate` accepts it.
fn random_position(rng: &mut XorShift) -> Position {
    loop {
        let mut pos = Position::empty(random_side(rng));
        for side in [Side::Red, Side::Black] {
            let y = match side {
                Side::Red => 7 + rng.below(3) as u8,
                Side::Black => rng.below(3) as u8,
            };
            let k = Point::new(3 + rng.below(3) as u8, y).unwrap();
            pos.set_piece(k, Some(Piece::new(side, PieceKind::King)));
        }
        for _ in 0..rng.below(14) {
            let side = random_side(rng);
            let kind = PieceKind::ALL[rng.below(7)];
            let p = Point::from_index(rng.below(90));
            if kind != PieceKind::King && pos.piece_at(p).is_none() {
                pos.set_piece(p, Some(Piece::new(side, kind)));
            }
        }
        if pos.validate().is_ok() {
            return pos;
        }
    }
}

/// Every from/to pair with a piece of the side to move on `from`, in `lp`: the same answer
/// as `Position::play`, the same position after it (or none changed), the same tracked
/// facts as a fresh `LegalPosition`, and legal exactly when `legal_moves` lists it.
/// Returns the number of legal moves.
fn compare_every_move(lp: &LegalPosition) -> usize {
    let pos = lp.position();
    let legal: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
    let mut ok = 0;
    for from in (0..90).map(Point::from_index) {
        if pos.piece_at(from).map(|p| p.side) != Some(pos.side_to_move()) {
            continue;
        }
        for to in (0..90).map(Point::from_index) {
            let mv = Move::new(from, to);
            let mut fast = lp.clone();
            let got = fast.play(mv);
            let mut plain = pos.clone();
            let want = plain.play(mv);
            assert_eq!(got, want, "{mv} in {}", pos.to_fen());
            assert_eq!(
                got.is_ok(),
                legal.contains(&mv),
                "{mv} against legal_moves in {}",
                pos.to_fen()
            );
            if got.is_ok() {
                ok += 1;
                assert_eq!(fast.position(), &plain, "{mv} in {}", pos.to_fen());
                let fresh = LegalPosition::new(plain).expect("legal play keeps it valid");
                assert_eq!(fast, fresh, "tracked facts after {mv} in {}", pos.to_fen());
            } else {
                assert_eq!(&fast, lp, "{mv} changed {}", pos.to_fen());
            }
        }
    }
    assert_eq!(ok, legal.len(), "in {}", pos.to_fen());
    ok
}

#[test]
fn legal_position_play_agrees_with_position_play() {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let mut plies = 0usize;
    let mut moves = 0usize;
    for game in 0..400 {
        let start = if game % 2 == 0 {
            Position::start()
        } else {
            random_position(&mut rng)
        };
        let mut lp = LegalPosition::new(start).unwrap();
        // Every third game prefers captures, to reach sparse endgames.
        let greedy = game % 3 == 0;
        for _ in 0..150 {
            moves += compare_every_move(&lp);
            plies += 1;
            let legal = lp.position().legal_moves();
            if legal.is_empty() {
                break;
            }
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| lp.position().piece_at(m.to).is_some())
                .collect();
            let mv = if greedy && !captures.is_empty() {
                captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            let mut plain = lp.position().clone();
            let want = plain.play(mv);
            assert_eq!(lp.play(mv), want);
            assert_eq!(lp.position(), &plain);
        }
    }
    eprintln!("{plies} positions, {moves} legal moves compared");
    assert!(plies > 20_000, "only {plies} positions");
}

#[test]
fn invalid_positions_are_refused_with_their_problems() {
    for fen in [
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
        "3k5/9/9/9/9/9/9/9/4r4/3K5 b",
        "9/9/9/9/9/9/9/9/9/4K4 w",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.validate().is_err(), "{fen}");
        assert_eq!(
            LegalPosition::new(pos.clone()).map(|_| ()),
            pos.validate(),
            "{fen}"
        );
    }
    let start = LegalPosition::new(Position::start()).unwrap();
    assert_eq!(start.into_position(), Position::start());
}
