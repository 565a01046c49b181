//! CBF (XiangQi Bridge / 象棋桥) records beyond the schema: one dialect-neutral model of
//! both dialects, the structure of their variations, and the rules of xiangqi applied to
//! every line.
//!
//! The 2007 dialect lists moves depth-first with `nid` (a move with nid n is the child of
//! the nearest earlier move with nid n-1); the 1.0 dialect lists them depth-first with
//! `branch="1"` (a later sibling of this move follows) and `end="1"` (this line ends; the
//! next move is the next sibling of the most recently remembered move).

pub mod convert;
pub mod pgn;
pub mod record;
pub mod render;
pub mod show;

pub use record::{Dialect, HeadField, MoveNode, Record};

use boardxml_xiangqi::{Move, Position, Side};

use crate::diagnostic::Code;
use crate::semantics::Issue;

/// The rule issues of a schema-valid record: structure, start position, and the legality of
/// every move of every line; at the end of the main line, a result that contradicts a mate.
pub fn check(record: &Record) -> Vec<Issue> {
    let mut issues = record.structure_issues.clone();
    let Some(start) = &record.start else {
        return issues;
    };
    for problem in start.validate().err().unwrap_or_default() {
        issues.push(
            Issue::error(
                Code::IllegalPosition,
                record.start_path.clone(),
                format!("the start position is not legal: {problem}"),
            )
            .found(record.start_text.clone()),
        );
    }
    if issues.iter().any(|i| i.code == Code::IllegalPosition) {
        // Legality of moves from an impossible position means nothing.
        return issues;
    }
    // Depth-first over the tree, carrying the position; a line stops at its first illegal
    // move (what follows it has no position to be checked in).
    let mut stack: Vec<(usize, Position)> = record
        .root_children
        .iter()
        .rev()
        .map(|&c| (c, start.clone()))
        .collect();
    while let Some((index, position)) = stack.pop() {
        let node = &record.moves[index];
        match position.check_move(node.mv) {
            Ok(()) => {
                let mut next = position.clone();
                next.apply_unchecked(node.mv);
                for &child in node.children.iter().rev() {
                    stack.push((child, next.clone()));
                }
                if node.children.is_empty() && index == record.main_line_end() {
                    result_warning(record, &next, &mut issues);
                }
            }
            Err(reason) => {
                let reason = flying_king(&position, node.mv).unwrap_or_else(|| reason.to_string());
                let line = record.line_to(index);
                let piece = position
                    .piece_at(node.mv.from)
                    .map(|p| format!("{} ", p.chinese_name()))
                    .unwrap_or_default();
                issues.push(
                    Issue::error(
                        Code::IllegalMove,
                        node.path.clone(),
                        format!(
                            "illegal move {piece}{} ({}) at ply {} of the line {}: {reason}",
                            node.mv.cbf(),
                            node.mv.iccs(),
                            line.len(),
                            line.iter().map(|m| m.cbf()).collect::<Vec<_>>().join(" ")
                        ),
                    )
                    .expected(format!(
                        "a legal move for {}",
                        side_name(position.side_to_move())
                    ))
                    .found(format!("{} ({})", node.mv.cbf(), node.mv.iccs())),
                );
            }
        }
    }
    issues
}

/// A king moving along its file onto the other king is the "flying general" capture, legal
/// only on an open file; say so, with the pieces in the way, rather than only that kings
/// move one point.
fn flying_king(position: &Position, mv: Move) -> Option<String> {
    use boardxml_xiangqi::{PieceKind, Point};
    let piece = position.piece_at(mv.from)?;
    let target = position.piece_at(mv.to)?;
    if piece.kind != PieceKind::King
        || target.kind != PieceKind::King
        || target.side == piece.side
        || mv.from.x != mv.to.x
    {
        return None;
    }
    let (lo, hi) = (mv.from.y.min(mv.to.y), mv.from.y.max(mv.to.y));
    let between: Vec<String> = (lo + 1..hi)
        .filter_map(|y| Point::new(mv.from.x, y))
        .filter_map(|p| {
            position
                .piece_at(p)
                .map(|q| format!("{} at {}", q.chinese_name(), p.iccs()))
        })
        .collect();
    if between.is_empty() {
        return None;
    }
    Some(format!(
        "a flying-king capture, but the kings do not face each other: {} between them (a king may only fly to capture on an open file)",
        between.join(", ")
    ))
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Red => "red",
        Side::Black => "black",
    }
}

/// At the end of the main line: a checkmate or stalemate (a loss in xiangqi) that the
/// recorded result contradicts is worth a warning, not an error (records are often
/// annotated by hand).
fn result_warning(record: &Record, end: &Position, issues: &mut Vec<Issue>) {
    let loser = if end.is_checkmate() || end.is_stalemate() {
        end.side_to_move()
    } else {
        return;
    };
    let winner_code = match loser {
        Side::Black => 1,
        Side::Red => 2,
    };
    let Some((code, path)) = &record.result else {
        return;
    };
    if *code != 0 && *code != winner_code {
        let how = if end.is_checkmate() {
            "checkmated"
        } else {
            "stalemated (a loss in xiangqi)"
        };
        issues.push(
            Issue::warning(
                Code::ResultContradiction,
                path.clone(),
                format!(
                    "the main line ends with {} {how}, but the recorded result is {code}",
                    side_name(loser)
                ),
            )
            .expected(format!(
                "{winner_code} ({} wins)",
                side_name(loser.opponent())
            ))
            .found(code.to_string()),
        );
    }
}

/// The moves of a record's main line (first child at every step), for display and tests.
pub fn main_line(record: &Record) -> Vec<Move> {
    let mut out = Vec::new();
    let mut next = record.root_children.first().copied();
    while let Some(i) = next {
        out.push(record.moves[i].mv);
        next = record.moves[i].children.first().copied();
    }
    out
}
