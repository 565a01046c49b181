//! Whether a position is a legal xiangqi position: the pieces present, where each kind may
//! stand, the kings, and that the side not to move is not in check.

use std::fmt;

use crate::position::Position;
use crate::types::{Piece, PieceKind, Point, Side};

/// One reason why a position is not a legal xiangqi position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing {
        /// The side.
        side: Side,
    },
    /// A side has more pieces of a kind than at the start (e.g. three rooks, two kings).
    TooManyPieces {
        /// The side.
        side: Side,
        /// The kind.
        kind: PieceKind,
        /// How many there are.
        count: usize,
        /// How many the starting set has.
        max: usize,
    },
    /// A king stands outside its palace.
    KingOutsidePalace {
        /// The side.
        side: Side,
        /// Where.
        at: Point,
    },
    /// An advisor stands on a point it can never reach (not one of its palace's 5 points).
    AdvisorMisplaced {
        /// The side.
        side: Side,
        /// Where.
        at: Point,
    },
    /// An elephant stands on a point it can never reach (not one of its 7 points).
    ElephantMisplaced {
        /// The side.
        side: Side,
        /// Where.
        at: Point,
    },
    /// A pawn stands on a point it can never reach (behind its start row, or on an odd
    /// file before the river).
    PawnMisplaced {
        /// The side.
        side: Side,
        /// Where.
        at: Point,
    },
    /// The two kings face each other on an open file.
    KingsFacing {
        /// The red king.
        red: Point,
        /// The black king.
        black: Point,
    },
    /// The side that is not to move is in check (its king could be taken).
    SideNotToMoveInCheck {
        /// The side in check.
        side: Side,
        /// The attacking piece.
        attacker: Piece,
        /// Where it stands.
        at: Point,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            MissingKing { side } => write!(f, "{side} has no king"),
            TooManyPieces {
                side,
                kind,
                count,
                max,
            } => write!(f, "{side} has {count} pieces of kind {kind}, at most {max} allowed"),
            KingOutsidePalace { side, at } => {
                write!(f, "{side} king at {at} is outside its palace")
            }
            AdvisorMisplaced { side, at } => write!(
                f,
                "{side} advisor at {at} is not on one of its 5 palace points"
            ),
            ElephantMisplaced { side, at } => write!(
                f,
                "{side} elephant at {at} is not on one of its 7 points on its side of the river"
            ),
            PawnMisplaced { side, at } => write!(
                f,
                "{side} pawn at {at} stands where no pawn can go (behind its start row or on an odd file before the river)"
            ),
            KingsFacing { red, black } => write!(
                f,
                "the kings face each other on an open file (red at {red}, black at {black})"
            ),
            SideNotToMoveInCheck { side, attacker, at } => write!(
                f,
                "{side} is not to move but is in check (by the {} at {at})",
                attacker.kind
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Whether an advisor of `side` can ever stand on `p`.
pub fn advisor_point(side: Side, p: Point) -> bool {
    p.in_palace(side) && (p.x + p.y) % 2 == if side == Side::Red { 0 } else { 1 }
}

/// Whether an elephant of `side` can ever stand on `p`.
pub fn elephant_point(side: Side, p: Point) -> bool {
    // Red: (2,9) (6,9) (0,7) (4,7) (8,7) (2,5) (6,5); black mirrored.
    let y = if side == Side::Red {
        p.y
    } else {
        9 - p.y.min(9)
    };
    match y {
        9 | 5 => p.x == 2 || p.x == 6,
        7 => p.x % 4 == 0,
        _ => false,
    }
}

/// Whether a pawn of `side` can ever stand on `p`.
pub fn pawn_point(side: Side, p: Point) -> bool {
    // Rows counted from the pawn's own back rank (0) to the far side (9).
    let own_row = if side == Side::Red { 9 - p.y } else { p.y };
    match own_row {
        0..=2 => false,
        3 | 4 => p.x % 2 == 0,
        _ => true,
    }
}

impl Position {
    /// Checks that this is a legal xiangqi position and lists every problem found.
    pub fn validate(&self) -> Result<(), Vec<PositionError>> {
        if self.has_start_board() {
            // The usual start of a record, legal whichever side is to move: told without
            // the count.
            return Ok(());
        }
        let mut errors = Vec::new();
        let mut counts = [[0usize; 7]; 2];
        for (at, pc) in self.pieces() {
            let s = pc.side as usize;
            counts[s][pc.kind.index()] += 1;
            let side = pc.side;
            match pc.kind {
                PieceKind::King if !at.in_palace(side) => {
                    errors.push(PositionError::KingOutsidePalace { side, at })
                }
                PieceKind::Advisor if !advisor_point(side, at) => {
                    errors.push(PositionError::AdvisorMisplaced { side, at })
                }
                PieceKind::Elephant if !elephant_point(side, at) => {
                    errors.push(PositionError::ElephantMisplaced { side, at })
                }
                PieceKind::Pawn if !pawn_point(side, at) => {
                    errors.push(PositionError::PawnMisplaced { side, at })
                }
                _ => {}
            }
        }
        let mut count_errors = Vec::new();
        for side in [Side::Red, Side::Black] {
            for kind in PieceKind::ALL {
                let count = counts[side as usize][kind.index()];
                let max = kind.start_count();
                if kind == PieceKind::King && count == 0 {
                    count_errors.push(PositionError::MissingKing { side });
                } else if count > max {
                    count_errors.push(PositionError::TooManyPieces {
                        side,
                        kind,
                        count,
                        max,
                    });
                }
            }
        }
        count_errors.append(&mut errors);
        let mut errors = count_errors;
        if self.kings_facing() {
            if let (Some(red), Some(black)) = (self.king(Side::Red), self.king(Side::Black)) {
                errors.push(PositionError::KingsFacing { red, black });
            }
        }
        let waiting = self.side_to_move().opponent();
        if let Some((at, attacker)) = self.checker(waiting) {
            errors.push(PositionError::SideNotToMoveInCheck {
                side: waiting,
                attacker,
                at,
            });
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errs(fen: &str) -> Vec<PositionError> {
        Position::from_fen(fen).unwrap().validate().unwrap_err()
    }

    #[test]
    fn reachable_point_counts() {
        for side in [Side::Red, Side::Black] {
            let all = (0..90).map(Point::from_index);
            assert_eq!(all.clone().filter(|&p| advisor_point(side, p)).count(), 5);
            assert_eq!(all.clone().filter(|&p| elephant_point(side, p)).count(), 7);
            assert_eq!(all.filter(|&p| pawn_point(side, p)).count(), 10 + 45);
        }
        assert!(advisor_point(Side::Red, Point { x: 4, y: 8 }));
        assert!(advisor_point(Side::Black, Point { x: 4, y: 1 }));
        assert!(elephant_point(Side::Black, Point { x: 6, y: 4 }));
        assert!(pawn_point(Side::Red, Point { x: 0, y: 5 }));
        assert!(!pawn_point(Side::Red, Point { x: 1, y: 5 }));
        assert!(!pawn_point(Side::Black, Point { x: 0, y: 2 }));
    }

    #[test]
    fn start_is_valid() {
        assert_eq!(Position::start().validate(), Ok(()));
    }

    #[test]
    fn problems() {
        use PositionError::*;
        assert_eq!(
            errs("4k4/9/9/9/9/9/9/9/9/9 w"),
            vec![MissingKing { side: Side::Red }]
        );
        let ok = |fen: &str| Position::from_fen(fen).unwrap().validate();
        assert_eq!(ok("3k5/9/9/9/9/9/9/9/9/4K4 w"), Ok(()));
        assert_eq!(ok("3k5/9/9/9/9/9/9/9/4A4/5K3 w"), Ok(()));
        assert_eq!(
            errs("4k4/9/9/9/9/9/9/9/9/4K4 w"),
            vec![KingsFacing {
                red: Point { x: 4, y: 9 },
                black: Point { x: 4, y: 0 }
            }]
        );
        assert_eq!(
            errs("3k5/9/9/9/9/9/9/9/9/2K6 w"),
            vec![KingOutsidePalace {
                side: Side::Red,
                at: Point { x: 2, y: 9 }
            }]
        );
        assert_eq!(
            errs("3k5/9/9/9/9/9/9/4A4/9/5K3 w"),
            vec![AdvisorMisplaced {
                side: Side::Red,
                at: Point { x: 4, y: 7 }
            }]
        );
        assert_eq!(
            errs("3k5/9/9/9/9/3B5/9/9/9/5K3 w"),
            vec![ElephantMisplaced {
                side: Side::Red,
                at: Point { x: 3, y: 5 }
            }]
        );
        assert_eq!(
            errs("3k5/9/9/9/9/9/9/P8/9/5K3 w"),
            vec![PawnMisplaced {
                side: Side::Red,
                at: Point { x: 0, y: 7 }
            }]
        );
        assert_eq!(
            errs("3k5/9/9/9/9/9/RRR6/9/9/5K3 w"),
            vec![TooManyPieces {
                side: Side::Red,
                kind: PieceKind::Rook,
                count: 3,
                max: 2
            }]
        );
        let e = errs("3k5/9/9/9/9/9/9/9/9/3RK4 w");
        assert_eq!(
            e,
            vec![SideNotToMoveInCheck {
                side: Side::Black,
                attacker: Piece::new(Side::Red, PieceKind::Rook),
                at: Point { x: 3, y: 9 }
            }]
        );
        assert_eq!(
            e[0].to_string(),
            "black is not to move but is in check (by the rook at d0)"
        );
    }
}
