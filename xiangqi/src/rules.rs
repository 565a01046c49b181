//! The moves of the pieces and the legality of a move: generation of legal moves, a move
//! checker that tells precisely why a move is illegal, check, checkmate, stalemate, and
//! perft.
//!
//! A move is legal when the piece may make it by its own rule (palace, river, horse leg,
//! elephant eye, cannon screen, pawn direction, no capture of one's own piece) and, after
//! it, the mover's king is not attacked and the two kings do not face each other on an
//! open file (the "flying general" rule, checked for every move).

use std::fmt;

use crate::position::Position;
use crate::types::{Move, Piece, PieceKind, Point, Side, HEIGHT, WIDTH};
use crate::validate::PositionError;

const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Horse steps (dx, dy) with the leg (the adjacent point that must be empty).
const HORSE: [(i8, i8, i8, i8); 8] = [
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
];

/// How two points lie to each other: bits of [`relation`].
mod geometry {
    /// On one file or rank (and distinct); the low two bits then give the line from the
    /// first point that passes through the second (0..4, in the order of `ORTHO`).
    pub const LINE: u8 = 1 << 2;
    /// Diagonally next to each other (an advisor's move; a horse's leg beside its target).
    pub const DIAGONAL: u8 = 1 << 3;
    /// A horse's move apart.
    pub const HORSE: u8 = 1 << 4;
    /// Two points apart diagonally (an elephant's move).
    pub const ELEPHANT: u8 = 1 << 5;
    /// Next to each other on a file or rank (a king's move).
    pub const STEP: u8 = 1 << 6;
}

/// [`relation`] for every pair of board indices, worked out when compiling: the piece rules
/// and the king-safety tests ask it of two points on every move.
static GEOMETRY: [[u8; 90]; 90] = {
    let mut table = [[0u8; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            let (ax, ay) = ((a % 9) as i8, (a / 9) as i8);
            let (bx, by) = ((b % 9) as i8, (b / 9) as i8);
            let (dx, dy) = (bx - ax, by - ay);
            let (adx, ady) = (dx.abs(), dy.abs());
            let mut bits = 0;
            if a != b && (dx == 0 || dy == 0) {
                // The order of ORTHO: +x, -x, +y, -y.
                bits |= geometry::LINE
                    | if dy == 0 {
                        if dx > 0 {
                            0
                        } else {
                            1
                        }
                    } else if dy > 0 {
                        2
                    } else {
                        3
                    };
            }
            if adx == 1 && ady == 1 {
                bits |= geometry::DIAGONAL;
            }
            if (adx == 2 && ady == 1) || (adx == 1 && ady == 2) {
                bits |= geometry::HORSE;
            }
            if adx == 2 && ady == 2 {
                bits |= geometry::ELEPHANT;
            }
            if adx + ady == 1 {
                bits |= geometry::STEP;
            }
            table[a][b] = bits;
            b += 1;
        }
        a += 1;
    }
    table
};

/// How the on-board point `b` lies from the on-board point `a` ([`geometry`] bits).
#[inline]
fn relation(a: Point, b: Point) -> u8 {
    GEOMETRY[a.index()][b.index()]
}

/// Why a move is illegal in a position. Points are named in ICCS (`e3`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// A point of the move is off the board.
    OffBoard {
        /// The offending point (x, y as given).
        point: Point,
    },
    /// From equals to.
    NotAMove {
        /// The point.
        at: Point,
    },
    /// Nothing stands on the from point.
    NoPiece {
        /// The from point.
        at: Point,
    },
    /// The piece belongs to the side not to move.
    WrongSide {
        /// The from point.
        at: Point,
        /// Whose turn it is.
        turn: Side,
        /// The piece found.
        piece: Piece,
    },
    /// The destination holds a piece of the mover's side.
    CaptureOwn {
        /// The destination.
        at: Point,
        /// The piece there.
        piece: Piece,
    },
    /// The piece does not move that way at all.
    BadShape {
        /// The moving piece.
        piece: Piece,
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// A rook (or straight-moving piece) meets a piece on its way.
    PathBlocked {
        /// The moving piece.
        piece: Piece,
        /// The first blocking point.
        at: Point,
    },
    /// The horse's leg point is occupied.
    HorseLegBlocked {
        /// The leg point.
        leg: Point,
    },
    /// The elephant's eye (the midpoint) is occupied.
    ElephantEyeBlocked {
        /// The eye point.
        eye: Point,
    },
    /// An elephant tries to cross the river.
    ElephantCrossesRiver {
        /// Destination.
        to: Point,
    },
    /// An advisor tries to leave its palace.
    AdvisorLeavesPalace {
        /// Destination.
        to: Point,
    },
    /// A king tries to leave its palace.
    KingLeavesPalace {
        /// Destination.
        to: Point,
    },
    /// A cannon captures over a number of screens other than one.
    CannonScreen {
        /// Screens found between from and to.
        found: usize,
    },
    /// A cannon jumps over a piece to an empty point.
    CannonJumps {
        /// The first piece jumped over.
        screen: Point,
    },
    /// A pawn moves sideways on its own half of the board.
    PawnSideways,
    /// A pawn moves backwards.
    PawnBackwards,
    /// After the move the two kings face each other on an open file.
    KingsFacing,
    /// After the move the mover's king is attacked.
    LeavesInCheck {
        /// The mover's side.
        side: Side,
        /// An attacking piece.
        attacker: Piece,
        /// Where it stands.
        at: Point,
    },
}

fn shape_rule(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Rook | PieceKind::Cannon => "moves along a file or a rank",
        PieceKind::Horse => "moves one point straight and then one point diagonally outwards",
        PieceKind::Elephant => "moves exactly two points diagonally",
        PieceKind::Advisor => "moves one point diagonally",
        PieceKind::King => "moves one point along a file or a rank",
        PieceKind::Pawn => "moves one point forward (or sideways once across the river)",
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalMove::*;
        match self {
            OffBoard { point } => write!(
                f,
                "point ({}, {}) is off the board (x must be 0-8, y 0-9)",
                point.x, point.y
            ),
            NotAMove { at } => write!(f, "not a move: from equals to ({at})"),
            NoPiece { at } => write!(f, "no piece at {at}"),
            WrongSide { at, turn, piece } => {
                write!(
                    f,
                    "it is {turn}'s turn, the piece at {at} is {}",
                    piece.side
                )
            }
            CaptureOwn { at, piece } => write!(f, "cannot capture own piece ({piece} at {at})"),
            BadShape { piece, from, to } => {
                let a = match piece.kind {
                    PieceKind::Elephant | PieceKind::Advisor => "an",
                    _ => "a",
                };
                write!(
                    f,
                    "{a} {} cannot go from {from} to {to}: {a} {} {}",
                    piece.kind,
                    piece.kind,
                    shape_rule(piece.kind)
                )
            }
            PathBlocked { piece, at } => write!(f, "{} path blocked at {at}", piece.kind),
            HorseLegBlocked { leg } => write!(f, "horse leg blocked at {leg}"),
            ElephantEyeBlocked { eye } => write!(f, "elephant eye blocked at {eye}"),
            ElephantCrossesRiver { to } => {
                write!(f, "elephant cannot cross the river (to {to})")
            }
            AdvisorLeavesPalace { to } => {
                write!(f, "advisor must stay in the palace (to {to})")
            }
            KingLeavesPalace { to } => write!(f, "king must stay in the palace (to {to})"),
            CannonScreen { found } => write!(
                f,
                "cannon needs exactly one screen to capture (found {found})"
            ),
            CannonJumps { screen } => write!(
                f,
                "cannon cannot jump without capturing (piece at {screen} in the way)"
            ),
            PawnSideways => write!(f, "pawn cannot move sideways before crossing the river"),
            PawnBackwards => write!(f, "pawn cannot move backwards"),
            KingsFacing => write!(f, "leaves the king facing the other king"),
            LeavesInCheck { side, attacker, at } => write!(
                f,
                "leaves the {side} king in check (attacked by the {} at {at})",
                attacker.kind
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    #[inline]
    fn at(&self, p: Point) -> Option<Piece> {
        self.board[p.index()]
    }

    /// Appends the pseudo-legal moves of `side` (each piece's own rule, captures of own
    /// pieces excluded, king safety not considered).
    fn pseudo_moves(&self, side: Side, out: &mut Vec<Move>) {
        for i in 0..90 {
            let Some(pc) = self.board[i] else { continue };
            if pc.side != side {
                continue;
            }
            let from = Point::from_index(i);
            let mut push = |to: Point| {
                if !matches!(self.at(to), Some(t) if t.side == side) {
                    out.push(Move { from, to });
                }
            };
            match pc.kind {
                PieceKind::Rook => {
                    for (dx, dy) in ORTHO {
                        let mut p = from;
                        while let Some(q) = p.offset(dx, dy) {
                            push(q);
                            if self.at(q).is_some() {
                                break;
                            }
                            p = q;
                        }
                    }
                }
                PieceKind::Cannon => {
                    for (dx, dy) in ORTHO {
                        let mut p = from;
                        let mut screened = false;
                        while let Some(q) = p.offset(dx, dy) {
                            match (self.at(q), screened) {
                                (None, false) => push(q),
                                (None, true) => {}
                                (Some(_), false) => screened = true,
                                (Some(_), true) => {
                                    push(q);
                                    break;
                                }
                            }
                            p = q;
                        }
                    }
                }
                PieceKind::Horse => {
                    for (dx, dy, lx, ly) in HORSE {
                        if let Some(to) = from.offset(dx, dy) {
                            if let Some(leg) = from.offset(lx, ly) {
                                if self.at(leg).is_none() {
                                    push(to);
                                }
                            }
                        }
                    }
                }
                PieceKind::Elephant => {
                    for (dx, dy) in DIAG {
                        if let Some(to) = from.offset(2 * dx, 2 * dy) {
                            if side.own_half(to.y) {
                                if let Some(eye) = from.offset(dx, dy) {
                                    if self.at(eye).is_none() {
                                        push(to);
                                    }
                                }
                            }
                        }
                    }
                }
                PieceKind::Advisor => {
                    for (dx, dy) in DIAG {
                        if let Some(to) = from.offset(dx, dy) {
                            if to.in_palace(side) {
                                push(to);
                            }
                        }
                    }
                }
                PieceKind::King => {
                    for (dx, dy) in ORTHO {
                        if let Some(to) = from.offset(dx, dy) {
                            if to.in_palace(side) {
                                push(to);
                            }
                        }
                    }
                }
                PieceKind::Pawn => {
                    if let Some(to) = from.offset(0, side.forward()) {
                        push(to);
                    }
                    if !side.own_half(from.y) {
                        for dx in [-1, 1] {
                            if let Some(to) = from.offset(dx, 0) {
                                push(to);
                            }
                        }
                    }
                }
            }
        }
    }

    /// A piece of `by` that attacks `target` (could capture on it), if any. Kings and the
    /// flying-general rule are not counted here (see [`Position::kings_facing`]).
    pub fn attacker(&self, target: Point, by: Side) -> Option<Point> {
        // Along files and ranks: rooks (first piece) and cannons (second piece).
        for (dx, dy) in ORTHO {
            let mut p = target;
            let mut seen = 0;
            while let Some(q) = p.offset(dx, dy) {
                if let Some(pc) = self.at(q) {
                    seen += 1;
                    if seen == 1 {
                        if pc == Piece::new(by, PieceKind::Rook) {
                            return Some(q);
                        }
                    } else {
                        if pc == Piece::new(by, PieceKind::Cannon) {
                            return Some(q);
                        }
                        break;
                    }
                }
                p = q;
            }
        }
        // Horses: a horse at target - step, with its leg next to the horse.
        for (dx, dy, lx, ly) in HORSE {
            if let Some(h) = target.offset(-dx, -dy) {
                if self.at(h) == Some(Piece::new(by, PieceKind::Horse)) {
                    if let Some(leg) = h.offset(lx, ly) {
                        if self.at(leg).is_none() {
                            return Some(h);
                        }
                    }
                }
            }
        }
        // Pawns: from behind (relative to `by`), or from the side once across the river.
        let pawn = Some(Piece::new(by, PieceKind::Pawn));
        if let Some(p) = target.offset(0, -by.forward()) {
            if self.at(p) == pawn {
                return Some(p);
            }
        }
        for dx in [-1, 1] {
            if let Some(p) = target.offset(dx, 0) {
                if self.at(p) == pawn && !by.own_half(p.y) {
                    return Some(p);
                }
            }
        }
        // Advisors and elephants never leave their own half, kings their palace; they
        // attack only points on their own side. Count them too, for completeness.
        if !by.own_half(target.y) {
            return None;
        }
        for (dx, dy) in DIAG {
            if let Some(p) = target.offset(dx, dy) {
                if self.at(p) == Some(Piece::new(by, PieceKind::Advisor)) && target.in_palace(by) {
                    return Some(p);
                }
            }
            if let (Some(p), Some(eye)) = (target.offset(2 * dx, 2 * dy), target.offset(dx, dy)) {
                if self.at(p) == Some(Piece::new(by, PieceKind::Elephant))
                    && by.own_half(target.y)
                    && self.at(eye).is_none()
                {
                    return Some(p);
                }
            }
        }
        for (dx, dy) in ORTHO {
            if let Some(p) = target.offset(dx, dy) {
                if self.at(p) == Some(Piece::new(by, PieceKind::King)) && target.in_palace(by) {
                    return Some(p);
                }
            }
        }
        None
    }

    /// Whether a piece of `by` attacks the on-board point `target`: the same answer as
    /// `attacker(target, by).is_some()`, found with less work (board indices along the
    /// lines, horses looked for only behind an empty leg).
    fn attacked(&self, target: Point, by: Side) -> bool {
        if by.own_half(target.y) {
            // Advisors, elephants and the king count here too; never the case for a king
            // in its palace, attacked by the other side.
            return self.attacker(target, by).is_some();
        }
        if (0..4).any(|d| self.line_attacked(target, d, by)) {
            return true;
        }
        if DIAG.into_iter().any(|(dx, dy)| {
            target
                .offset(dx, dy)
                .is_some_and(|leg| self.horse_behind(target, leg, by))
        }) {
            return true;
        }
        let pawn = Some(Piece::new(by, PieceKind::Pawn));
        [(0, -by.forward()), (-1, 0), (1, 0)]
            .into_iter()
            .filter_map(|(dx, dy)| target.offset(dx, dy))
            .any(|p| self.at(p) == pawn && (p.x == target.x || !by.own_half(p.y)))
    }

    /// Whether the move `mv`, just made, exposes the king on `king` (which did not move) to
    /// a piece of `by`, the mover's opponent, knowing that none attacked it before the move.
    /// Only the lines through `mv.from` (emptied) and `mv.to` (filled, unless the move
    /// captured: a new cannon screen), and the horses whose leg is `mv.from`, can have
    /// changed; what `by`'s pawns attack does not depend on other pieces, and its advisors,
    /// elephants and king never reach the mover's half.
    #[inline]
    fn exposes(&self, king: Point, mv: Move, by: Side, capture: bool) -> bool {
        let (from, to) = (mv.from, mv.to);
        // Most moves are far from the king: settled with a table look-up or two.
        let to_line = !capture && relation(king, to) & geometry::LINE != 0;
        let near = to_line || relation(king, from) & (geometry::LINE | geometry::DIAGONAL) != 0;
        near && self.attacked_through(king, from, to_line.then_some(to), by)
    }

    /// Whether the move `mv`, just made by `by`, gives check to the king on `king`, which
    /// was not attacked before it: through the lines and horse leg that [`Position::exposes`]
    /// looks at (the moved piece on `mv.to` is the rook or cannon found on its line), or by
    /// the moved piece itself if it is a horse or a pawn (on the king's lines, or a horse
    /// step away).
    #[inline]
    fn gives_check(&self, king: Point, mv: Move, by: Side) -> bool {
        let (from, to) = (mv.from, mv.to);
        let near = relation(king, from) & (geometry::LINE | geometry::DIAGONAL)
            | relation(king, to) & (geometry::LINE | geometry::HORSE)
            != 0;
        near && (self.attacked_through(king, from, Some(to), by)
            || self.moved_piece_checks(king, to, by))
    }

    /// Whether a rook or cannon of `by` attacks `king` along the line through `from` or
    /// through `to` (if given), or a horse of `by` over the leg `from`.
    fn attacked_through(&self, king: Point, from: Point, to: Option<Point>, by: Side) -> bool {
        let from_rel = relation(king, from);
        let from_line = toward(from_rel);
        let to_line = to.and_then(|to| toward(relation(king, to)));
        from_line.is_some_and(|d| self.line_attacked(king, d, by))
            || to_line
                .filter(|&d| Some(d) != from_line)
                .is_some_and(|d| self.line_attacked(king, d, by))
            || (from_rel & geometry::DIAGONAL != 0 && self.horse_behind(king, from, by))
    }

    /// Whether the piece on `to`, if it is a horse or a pawn of `by`, attacks `king`.
    fn moved_piece_checks(&self, king: Point, to: Point, by: Side) -> bool {
        match self.at(to) {
            Some(Piece {
                side,
                kind: PieceKind::Horse,
            }) if side == by => {
                relation(king, to) & geometry::HORSE != 0 && {
                    // The leg is next to the horse, one point towards the king along the
                    // longer side of the step.
                    let leg = if to.x.abs_diff(king.x) == 2 {
                        Point {
                            x: (to.x + king.x) / 2,
                            y: to.y,
                        }
                    } else {
                        Point {
                            x: to.x,
                            y: (to.y + king.y) / 2,
                        }
                    };
                    self.at(leg).is_none()
                }
            }
            Some(Piece {
                side,
                kind: PieceKind::Pawn,
            }) if side == by => {
                // From behind (relative to `by`), or from the side once across the river.
                king.offset(0, -by.forward()) == Some(to)
                    || (to.y == king.y && to.x.abs_diff(king.x) == 1 && !by.own_half(to.y))
            }
            _ => false,
        }
    }

    /// Whether a rook or cannon of `by` attacks the on-board point `target` along line `d`
    /// (0..4, in the order of [`ORTHO`]): the first piece met is a rook, or the second a
    /// cannon.
    fn line_attacked(&self, target: Point, d: usize, by: Side) -> bool {
        // Walked by board index, with the number of points to the edge known.
        let (step, points) = match d {
            0 => (1, WIDTH - 1 - target.x),
            1 => (-1, target.x),
            2 => (WIDTH as isize, HEIGHT - 1 - target.y),
            _ => (-(WIDTH as isize), target.y),
        };
        let mut i = target.index() as isize;
        let mut screened = false;
        for _ in 0..points {
            i += step;
            let Some(pc) = self.board[i as usize] else {
                continue;
            };
            if screened {
                return pc == Piece::new(by, PieceKind::Cannon);
            }
            if pc == Piece::new(by, PieceKind::Rook) {
                return true;
            }
            screened = true;
        }
        false
    }

    /// Whether a horse of `by` attacks `target` over the leg `leg`, a point diagonally next
    /// to `target`: the leg is empty and a horse stands on one of the two points beyond it.
    fn horse_behind(&self, target: Point, leg: Point, by: Side) -> bool {
        if self.at(leg).is_some() {
            return false;
        }
        let (dx, dy) = (leg.x as i8 - target.x as i8, leg.y as i8 - target.y as i8);
        let horse = Some(Piece::new(by, PieceKind::Horse));
        [(2 * dx, dy), (dx, 2 * dy)]
            .into_iter()
            .filter_map(|(hx, hy)| target.offset(hx, hy))
            .any(|h| self.at(h) == horse)
    }

    /// Whether the two kings stand on one file with nothing between them.
    pub fn kings_facing(&self) -> bool {
        let (Some(r), Some(b)) = (self.king(Side::Red), self.king(Side::Black)) else {
            return false;
        };
        if r.x != b.x {
            return false;
        }
        self.facing(r, b)
    }

    /// Whether `side`'s king is attacked by an opponent's piece.
    pub fn in_check(&self, side: Side) -> bool {
        self.checker(side).is_some()
    }

    /// A piece that gives check to `side`'s king, with its point.
    pub fn checker(&self, side: Side) -> Option<(Point, Piece)> {
        let k = self.king(side)?;
        let a = self.attacker(k, side.opponent())?;
        self.at(a).map(|pc| (a, pc))
    }

    /// Whether the kings on `r` and `b` face each other on an open file.
    fn facing(&self, r: Point, b: Point) -> bool {
        if r.x != b.x {
            return false;
        }
        let (lo, hi) = if r.y < b.y { (r.y, b.y) } else { (b.y, r.y) };
        ((lo + 1)..hi).all(|y| self.board[Point { x: r.x, y }.index()].is_none())
    }

    /// Moves the piece without any check and without touching side or counters; returns
    /// what was on the destination.
    fn make_raw(&mut self, m: Move) -> Option<Piece> {
        let captured = self.board[m.to.index()];
        self.board[m.to.index()] = self.board[m.from.index()];
        self.board[m.from.index()] = None;
        captured
    }

    fn unmake_raw(&mut self, m: Move, captured: Option<Piece>) {
        self.board[m.from.index()] = self.board[m.to.index()];
        self.board[m.to.index()] = captured;
    }

    /// All legal moves of the side to move, in board order of the moving piece.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.pseudo_moves(self.side_to_move, &mut moves);
        let mut filter = LegalFilter::new(self);
        moves.retain(|&m| filter.keeps(m));
        moves
    }

    /// Whether the side to move has a legal move; stops at the first one found, so it is
    /// cheaper than asking [`Position::legal_moves`] whether it is empty.
    pub fn has_legal_move(&self) -> bool {
        let mut moves = Vec::with_capacity(64);
        self.pseudo_moves(self.side_to_move, &mut moves);
        let mut filter = LegalFilter::new(self);
        moves.into_iter().any(|m| filter.keeps(m))
    }

    /// Whether `mv` is legal for the side to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Checks `mv` for the side to move and says precisely why it is illegal.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        self.check_piece_rule(mv)?;
        let mut after = self.clone();
        after.make_raw(mv);
        after.king_safe(self.side_to_move)
    }

    /// Everything [`Position::check_move`] checks before king safety: the points, the
    /// piece and whose it is, the target, and the piece's own way of moving.
    #[inline]
    fn check_piece_rule(&self, mv: Move) -> Result<(), IllegalMove> {
        let Move { from, to } = mv;
        for point in [from, to] {
            if !point.is_on_board() {
                return Err(IllegalMove::OffBoard { point });
            }
        }
        if from == to {
            return Err(IllegalMove::NotAMove { at: from });
        }
        let piece = self.at(from).ok_or(IllegalMove::NoPiece { at: from })?;
        let side = self.side_to_move;
        if piece.side != side {
            return Err(IllegalMove::WrongSide {
                at: from,
                turn: side,
                piece,
            });
        }
        let target = self.at(to);
        if let Some(t) = target {
            if t.side == side {
                return Err(IllegalMove::CaptureOwn { at: to, piece: t });
            }
        }
        self.check_shape(piece, from, to, target.is_some())
    }

    /// On the board after a move of `side`: the kings must not face each other (reported
    /// first) and `side`'s king must not be attacked. The same answers as
    /// [`Position::kings_facing`] then [`Position::checker`], with each king looked up once.
    fn king_safe(&self, side: Side) -> Result<(), IllegalMove> {
        self.kings_safe(side, self.king(side), self.king(side.opponent()))
    }

    /// [`Position::king_safe`] with the kings' points known: `own` is `side`'s.
    fn kings_safe(
        &self,
        side: Side,
        own: Option<Point>,
        other: Option<Point>,
    ) -> Result<(), IllegalMove> {
        if let (Some(k), Some(o)) = (own, other) {
            if self.facing(k, o) {
                return Err(IllegalMove::KingsFacing);
            }
        }
        if let Some(k) = own {
            if let Some(at) = self.attacker(k, side.opponent()) {
                if let Some(attacker) = self.at(at) {
                    return Err(IllegalMove::LeavesInCheck { side, attacker, at });
                }
            }
        }
        Ok(())
    }

    /// The first occupied point strictly between the distinct on-board points `from` and
    /// `to` of one file or rank (seen from `from`), and how many there are.
    #[inline]
    fn between(&self, from: Point, to: Point) -> (Option<Point>, usize) {
        // Walked by board index: one step and one bounds check per point.
        let step = if from.y == to.y { 1 } else { WIDTH as isize };
        let step = if to.index() > from.index() {
            step
        } else {
            -step
        };
        let points = from.x.abs_diff(to.x) + from.y.abs_diff(to.y) - 1;
        let mut first = None;
        let mut count = 0;
        let mut i = from.index() as isize;
        for _ in 0..points {
            i += step;
            if self.board[i as usize].is_some() {
                count += 1;
                first.get_or_insert(i as usize);
            }
        }
        (first.map(Point::from_index), count)
    }

    #[inline]
    fn check_shape(
        &self,
        piece: Piece,
        from: Point,
        to: Point,
        capture: bool,
    ) -> Result<(), IllegalMove> {
        let side = piece.side;
        let dx = to.x as i8 - from.x as i8;
        let dy = to.y as i8 - from.y as i8;
        let shape = relation(from, to);
        let bad = IllegalMove::BadShape { piece, from, to };
        match piece.kind {
            PieceKind::Rook => {
                if shape & geometry::LINE == 0 {
                    return Err(bad);
                }
                if let (Some(at), _) = self.between(from, to) {
                    return Err(IllegalMove::PathBlocked { piece, at });
                }
            }
            PieceKind::Cannon => {
                if shape & geometry::LINE == 0 {
                    return Err(bad);
                }
                let (first, count) = self.between(from, to);
                if capture {
                    if count != 1 {
                        return Err(IllegalMove::CannonScreen { found: count });
                    }
                } else if let Some(screen) = first {
                    return Err(IllegalMove::CannonJumps { screen });
                }
            }
            PieceKind::Horse => {
                if shape & geometry::HORSE == 0 {
                    return Err(bad);
                }
                let leg = if dx.abs() == 2 {
                    from.offset(dx / 2, 0)
                } else {
                    from.offset(0, dy / 2)
                };
                if let Some(leg) = leg {
                    if self.at(leg).is_some() {
                        return Err(IllegalMove::HorseLegBlocked { leg });
                    }
                }
            }
            PieceKind::Elephant => {
                if shape & geometry::ELEPHANT == 0 {
                    return Err(bad);
                }
                if !side.own_half(to.y) {
                    return Err(IllegalMove::ElephantCrossesRiver { to });
                }
                if let Some(eye) = from.offset(dx / 2, dy / 2) {
                    if self.at(eye).is_some() {
                        return Err(IllegalMove::ElephantEyeBlocked { eye });
                    }
                }
            }
            PieceKind::Advisor => {
                if shape & geometry::DIAGONAL == 0 {
                    return Err(bad);
                }
                if !to.in_palace(side) {
                    return Err(IllegalMove::AdvisorLeavesPalace { to });
                }
            }
            PieceKind::King => {
                if shape & geometry::STEP == 0 {
                    return Err(bad);
                }
                if !to.in_palace(side) {
                    return Err(IllegalMove::KingLeavesPalace { to });
                }
            }
            PieceKind::Pawn => {
                let fwd = side.forward();
                if dy != 0 && dy.signum() != fwd {
                    return Err(IllegalMove::PawnBackwards);
                }
                if dy == fwd && dx == 0 {
                    return Ok(());
                }
                if dy == 0 && dx.abs() == 1 {
                    if side.own_half(from.y) {
                        return Err(IllegalMove::PawnSideways);
                    }
                    return Ok(());
                }
                return Err(bad);
            }
        }
        Ok(())
    }

    /// Plays `mv` if it is legal: moves the piece, passes the turn, grows the move number
    /// after a black move and keeps the half-move clock. Returns the captured piece.
    pub fn play(&mut self, mv: Move) -> Result<Option<Piece>, IllegalMove> {
        self.check_piece_rule(mv)?;
        // Tried on this board and taken back if illegal: the same test as check_move
        // without copying the position.
        let captured = self.make_raw(mv);
        if let Err(e) = self.king_safe(self.side_to_move) {
            self.unmake_raw(mv, captured);
            return Err(e);
        }
        self.pass_turn(captured);
        Ok(captured)
    }

    /// The position after the legal move `mv`.
    pub fn after(&self, mv: Move) -> Result<Position, IllegalMove> {
        let mut p = self.clone();
        p.play(mv)?;
        Ok(p)
    }

    /// Plays `mv` without checking it (the from point must hold a piece, both points must
    /// be on the board). Returns the captured piece.
    ///
    /// # Panics
    /// If a point is off the board.
    pub fn apply_unchecked(&mut self, mv: Move) -> Option<Piece> {
        let captured = self.make_raw(mv);
        self.pass_turn(captured);
        captured
    }

    /// The bookkeeping after the pieces have moved: clock, move number, side to move.
    fn pass_turn(&mut self, captured: Option<Piece>) {
        self.halfmove_clock = if captured.is_some() {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
        if self.side_to_move == Side::Black {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.side_to_move = self.side_to_move.opponent();
    }

    /// Whether the side to move is checkmated (in check, no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.in_check(self.side_to_move) && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated (not in check, no legal move). In xiangqi a
    /// stalemated side loses; this only reports the state.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check(self.side_to_move) && !self.has_legal_move()
    }
}

/// The king-safety half of legal move generation, for pseudo-legal moves of the side to
/// move, set up once per position.
struct LegalFilter {
    scratch: Position,
    side: Side,
    own: Option<Point>,
    other: Option<Point>,
    in_check: bool,
}

impl LegalFilter {
    fn new(pos: &Position) -> LegalFilter {
        let side = pos.side_to_move;
        let own = pos.king(side);
        LegalFilter {
            scratch: pos.clone(),
            side,
            own,
            other: pos.king(side.opponent()),
            in_check: own.is_some_and(|k| pos.attacker(k, side.opponent()).is_some()),
        }
    }

    /// Whether the pseudo-legal move `m` leaves the mover's king safe.
    fn keeps(&mut self, m: Move) -> bool {
        let (side, own, other) = (self.side, self.own, self.other);
        // When not in check, a move can only expose its own king if it moves the king,
        // starts or ends on the king's file or rank (rook, cannon and king lines) or
        // starts diagonally next to the king (a horse leg); other moves need no test.
        if let (false, Some(k)) = (self.in_check, own) {
            let near = |p: Point| p.x == k.x || p.y == k.y;
            let diagonal = m.from.x.abs_diff(k.x) == 1 && m.from.y.abs_diff(k.y) == 1;
            if !near(m.from) && !near(m.to) && !diagonal {
                return true;
            }
        }
        let scratch = &mut self.scratch;
        let c = scratch.make_raw(m);
        let king = if Some(m.from) == own { Some(m.to) } else { own };
        let ok = match (king, other) {
            (Some(k), Some(o)) => {
                !scratch.facing(k, o) && scratch.attacker(k, side.opponent()).is_none()
            }
            (Some(k), None) => scratch.attacker(k, side.opponent()).is_none(),
            (None, _) => true,
        };
        scratch.unmake_raw(m, c);
        ok
    }
}

/// A position reached by legal play from a valid one, which keeps at hand what that
/// guarantees: one king of each side in its palace, the kings not facing each other, the
/// side not to move not in check; and where the kings stand and whether the side to move
/// is in check.
///
/// [`LegalPosition::play`] gives every move exactly the answer of [`Position::play`], but
/// knowing those facts it tests king safety (and whether the move gives check) only along
/// the lines and horse legs that the move changed, which makes following a long game (a
/// record's moves) cheaper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalPosition {
    position: Position,
    /// The kings' points, indexed by `Side as usize`.
    kings: [Point; 2],
    /// Whether the side to move is attacked (the kings never face: see the invariants).
    in_check: bool,
}

/// What [`LegalPosition::undo`] needs to take back a move played by
/// [`LegalPosition::play_undoable`]: following the variations of a game, one position can be
/// walked back to where a variation starts rather than copied at every branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    mv: Move,
    captured: Option<Piece>,
    in_check: bool,
    halfmove_clock: u32,
    move_number: u32,
}

impl LegalPosition {
    /// `position` if it is valid ([`Position::validate`]), else its problems.
    pub fn new(position: Position) -> Result<LegalPosition, Vec<PositionError>> {
        position.validate()?;
        let king = |side| {
            position
                .king(side)
                .expect("a valid position has a king of each side")
        };
        let kings = [king(Side::Red), king(Side::Black)];
        let side = position.side_to_move;
        let in_check = position.attacked(kings[side as usize], side.opponent());
        Ok(LegalPosition {
            position,
            kings,
            in_check,
        })
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position, given back.
    pub fn into_position(self) -> Position {
        self.position
    }

    /// Plays `mv` if it is legal, as [`Position::play`] does (with the same reason if it is
    /// not, leaving the position as it was).
    #[inline]
    pub fn play(&mut self, mv: Move) -> Result<Option<Piece>, IllegalMove> {
        let pos = &mut self.position;
        pos.check_piece_rule(mv)?;
        let side = pos.side_to_move;
        let king = self.kings[side as usize];
        let other = self.kings[side.opponent() as usize];
        let captured = pos.make_raw(mv);
        // Each side has one king (a valid position), and no move that passes the piece
        // rules can take the other one (it would stand in check with its side not to
        // move): `own` and `other` are what `king` would find on this board.
        let own = if mv.from == king { mv.to } else { king };
        let exposed = if self.in_check || mv.from == king {
            pos.facing(own, other) || pos.attacked(own, side.opponent())
        } else {
            // Out of check, with the kings not facing, only what the move changed can
            // expose the king: the file between the kings opens only if `from` was on it.
            (mv.from.x == own.x && pos.facing(own, other))
                || pos.exposes(own, mv, side.opponent(), captured.is_some())
        };
        if exposed {
            // The reason, found as Position::play finds it.
            if let Err(e) = pos.kings_safe(side, Some(own), Some(other)) {
                pos.unmake_raw(mv, captured);
                return Err(e);
            }
        }
        pos.pass_turn(captured);
        self.kings[side as usize] = own;
        // The opponent was not in check before this move (it moved last, legally).
        self.in_check = pos.gives_check(other, mv, side);
        Ok(captured)
    }

    /// Plays `mv` as [`LegalPosition::play`] does, and returns what takes it back.
    pub fn play_undoable(&mut self, mv: Move) -> Result<Undo, IllegalMove> {
        let before = Undo {
            mv,
            captured: None,
            in_check: self.in_check,
            halfmove_clock: self.position.halfmove_clock,
            move_number: self.position.move_number,
        };
        let captured = self.play(mv)?;
        Ok(Undo { captured, ..before })
    }

    /// Takes back the last move played, given what [`LegalPosition::play_undoable`]
    /// returned for it: the position is again the one before that move.
    pub fn undo(&mut self, undo: Undo) {
        let pos = &mut self.position;
        let mover = pos.side_to_move.opponent();
        pos.unmake_raw(undo.mv, undo.captured);
        if pos.at(undo.mv.from) == Some(Piece::new(mover, PieceKind::King)) {
            self.kings[mover as usize] = undo.mv.from;
        }
        pos.side_to_move = mover;
        pos.halfmove_clock = undo.halfmove_clock;
        pos.move_number = undo.move_number;
        self.in_check = undo.in_check;
    }
}

/// Which line from a point (0..4, in the order of [`ORTHO`]) passes through a point in
/// [`relation`] `rel` to it, if any.
fn toward(rel: u8) -> Option<usize> {
    (rel & geometry::LINE != 0).then_some((rel & 3) as usize)
}

/// Counts the leaf nodes of the legal move tree of depth `depth` from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut p = pos.clone();
    perft_inner(&mut p, depth)
}

fn perft_inner(pos: &mut Position, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let side = pos.side_to_move;
    let mut n = 0;
    for m in moves {
        let c = pos.make_raw(m);
        pos.side_to_move = side.opponent();
        n += perft_inner(pos, depth - 1);
        pos.side_to_move = side;
        pos.unmake_raw(m, c);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded::XorShift;

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).unwrap()
    }

    #[test]
    fn geometry_is_what_the_coordinates_say() {
        for a in (0..90).map(Point::from_index) {
            for b in (0..90).map(Point::from_index) {
                let rel = relation(a, b);
                let (dx, dy) = (b.x as i8 - a.x as i8, b.y as i8 - a.y as i8);
                let (adx, ady) = (dx.abs(), dy.abs());
                let line = ORTHO
                    .iter()
                    .position(|&(sx, sy)| (1..10).any(|n| a.offset(sx * n, sy * n) == Some(b)));
                assert_eq!(toward(rel), line, "{a} {b}");
                assert_eq!(rel & geometry::DIAGONAL != 0, adx == 1 && ady == 1);
                assert_eq!(
                    rel & geometry::HORSE != 0,
                    (adx, ady) == (2, 1) || (adx, ady) == (1, 2)
                );
                assert_eq!(rel & geometry::ELEPHANT != 0, adx == 2 && ady == 2);
                assert_eq!(rel & geometry::STEP != 0, adx + ady == 1);
            }
        }
    }

    /// `attacked` against `attacker`, its definition, for every point and side of random
    /// placements (legal or not) of every kind of piece.
    #[test]
    fn attacked_is_attacker_found() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..3_000 {
            let mut pos = Position::empty(Side::Red);
            for _ in 0..1 + rng.below(40) {
                let side = [Side::Red, Side::Black][rng.below(2)];
                let kind = PieceKind::ALL[rng.below(7)];
                pos.board[rng.below(90)] = Some(Piece::new(side, kind));
            }
            for target in (0..90).map(Point::from_index) {
                for by in [Side::Red, Side::Black] {
                    assert_eq!(
                        pos.attacked(target, by),
                        pos.attacker(target, by).is_some(),
                        "{target} by {by} in {}",
                        pos.to_fen()
                    );
                }
            }
        }
    }

    #[test]
    fn start_perft_small() {
        let p = Position::start();
        assert_eq!(perft(&p, 1), 44);
        assert_eq!(perft(&p, 2), 1920);
    }

    #[test]
    fn reasons() {
        let p = Position::start();
        let e = |s: &str| p.check_move(mv(s)).unwrap_err().to_string();
        assert_eq!(e("d3d4"), "no piece at d3");
        assert_eq!(e("a6a5"), "it is red's turn, the piece at a6 is black");
        assert_eq!(e("b0b1"), "a horse cannot go from b0 to b1: a horse moves one point straight and then one point diagonally outwards");
        assert_eq!(e("a0a4"), "rook path blocked at a3");
        assert_eq!(e("a0b0"), "cannot capture own piece (red horse at b0)");
        assert_eq!(
            e("h2h7"),
            "cannon needs exactly one screen to capture (found 0)"
        );
        assert_eq!(
            e("h2h8"),
            "cannon cannot jump without capturing (piece at h7 in the way)"
        );
        assert_eq!(
            e("a3b3"),
            "pawn cannot move sideways before crossing the river"
        );
        assert_eq!(e("a3a2"), "pawn cannot move backwards");
        assert_eq!(e("e0e0"), "not a move: from equals to (e0)");
        assert_eq!(
            e("d0d1"),
            "an advisor cannot go from d0 to d1: an advisor moves one point diagonally"
        );
        assert!(p.check_move(mv("h2e2")).is_ok());
        assert!(p.check_move(mv("c0e2")).is_ok());
        assert!(p.check_move(mv("h2h9")).is_ok());
        assert!(p.check_move(mv("b2b9")).is_ok());
    }

    #[test]
    fn flying_general_for_every_move() {
        // Kings on the e-file, a red rook between them on e5: moving it sideways exposes.
        let p = Position::from_fen("4k4/9/9/9/4R4/9/9/9/9/4K4 w").unwrap();
        assert_eq!(
            p.check_move(mv("e5a5")).unwrap_err(),
            IllegalMove::KingsFacing
        );
        assert!(p.check_move(mv("e5e8")).is_ok());
        let p = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        assert_eq!(
            p.check_move(mv("e0d0")).unwrap_err(),
            IllegalMove::KingsFacing
        );
    }

    #[test]
    fn check_reasons() {
        let p = Position::from_fen("3k5/9/9/9/9/9/9/9/9/3AK4 w").unwrap();
        assert_eq!(
            p.check_move(mv("d0c1")).unwrap_err().to_string(),
            "advisor must stay in the palace (to c1)"
        );
        let p = Position::from_fen("3k5/9/9/9/9/9/9/9/4r4/3K5 w").unwrap();
        assert_eq!(
            p.check_move(mv("d0e0")).unwrap_err().to_string(),
            "leaves the red king in check (attacked by the rook at e1)"
        );
        let p = Position::from_fen("3k5/9/9/9/2b6/9/9/9/4B4/4K4 w").unwrap();
        assert_eq!(
            p.check_move(mv("e1e3")).unwrap_err().to_string(),
            "an elephant cannot go from e1 to e3: an elephant moves exactly two points diagonally"
        );
        assert_eq!(
            Position::from_fen("3k5/9/9/9/9/2B6/9/9/9/4K4 w")
                .unwrap()
                .check_move(mv("c4e6"))
                .unwrap_err()
                .to_string(),
            "elephant cannot cross the river (to e6)"
        );
        assert_eq!(
            Position::from_fen("3k5/9/9/9/9/2B6/3p5/9/9/4K4 w")
                .unwrap()
                .check_move(mv("c4e2"))
                .unwrap_err()
                .to_string(),
            "elephant eye blocked at d3"
        );
        assert_eq!(
            Position::from_fen("3k5/9/9/9/9/9/9/9/9/3K5 w")
                .unwrap()
                .check_move(mv("d0c0"))
                .unwrap_err()
                .to_string(),
            "king must stay in the palace (to c0)"
        );
        assert_eq!(
            Position::start()
                .check_move(mv("b0c2"))
                .map_err(|e| e.to_string()),
            Ok(())
        );
        let p = Position::from_fen("3k5/9/9/9/9/9/9/9/1P7/1N1K5 w").unwrap();
        assert_eq!(
            p.check_move(mv("b0a2")).unwrap_err().to_string(),
            "horse leg blocked at b1"
        );
    }

    #[test]
    fn cannon_screens() {
        let p = Position::from_fen("3k5/9/9/9/r8/P8/P8/9/9/C3K4 w").unwrap();
        assert_eq!(
            p.check_move(mv("a0a5")).unwrap_err(),
            IllegalMove::CannonScreen { found: 2 }
        );
        assert!(p.check_move(mv("a0a2")).is_ok());
        assert!(p.check_move(mv("a0a1")).is_ok());
        let p = Position::from_fen("3k5/9/9/9/r8/9/P8/9/9/C3K4 w").unwrap();
        assert!(p.check_move(mv("a0a5")).is_ok());
    }

    #[test]
    fn mate_and_stalemate() {
        // Rook d7 checks the king on d9; e9 would face the red king: mate.
        let mate = Position::from_fen("3k5/9/3R5/9/9/9/9/9/9/4K4 b").unwrap();
        assert!(mate.in_check(Side::Black));
        assert!(mate.is_checkmate());
        assert!(!mate.is_stalemate());
        // Pawn d7 covers d8, the red king covers e9; black is not in check: stalemate.
        let stale = Position::from_fen("3k5/9/3P5/9/9/9/9/9/9/4K4 b").unwrap();
        assert!(!stale.in_check(Side::Black));
        assert!(stale.is_stalemate());
        assert!(!stale.is_checkmate());
        assert!(!Position::start().is_checkmate());
    }
}
