//! A position of a record as text, for `boardxml show`: the board, the side to move, and
//! the moves of the line so far.
//!
//! # Choosing a line
//!
//! A line is named by a path of child indices, 1-based, separated by dots: the n-th number
//! chooses among the moves that can be played at ply n (1 is the main continuation, 2 the
//! first variation, ...); after the last number the line follows main continuations to its
//! end. So `1.2` is the main line's first move, then the first variation at ply 2 and its
//! own main continuation; `2` is the first variation of the first move; the empty path (or
//! `1`, `1.1`, ...) is the main line.

use boardxml_xiangqi::{IllegalMove, Move, Point, Position, Side};

use crate::cbf::record::Record;

/// The moves (indices into `record.moves`) of the line that `path` names (see the module
/// documentation), or why there is no such line.
pub fn select_line(record: &Record, path: &str) -> Result<Vec<usize>, String> {
    let mut choices: Vec<usize> = Vec::new();
    for part in path.split('.').filter(|p| !p.trim().is_empty()) {
        match part.trim().parse::<usize>() {
            Ok(n) if n >= 1 => choices.push(n),
            _ => {
                return Err(format!(
                    "bad line path \"{path}\": expected 1-based child numbers separated by dots, such as 1.2"
                ))
            }
        }
    }
    let mut line = Vec::new();
    let mut options: &[usize] = &record.root_children;
    let mut ply = 1;
    loop {
        let choice = choices.get(ply - 1).copied().unwrap_or(1);
        match options.get(choice - 1) {
            Some(&index) => {
                line.push(index);
                options = &record.moves[index].children;
            }
            None if options.is_empty() && ply > choices.len() => return Ok(line),
            None => {
                return Err(format!(
                    "line {path}: at ply {ply} there {} but {choice} was chosen",
                    match options.len() {
                        0 => "are no more moves".to_string(),
                        1 => "is 1 move".to_string(),
                        n => format!("are {n} moves to choose from"),
                    }
                ))
            }
        }
        ply += 1;
    }
}

/// The board as ten rows of nine points, black at the top: black's file numbers (１..９)
/// above, red's (九..一) below, the river between rows 5 and 6, `·` for an empty point. Red
/// pieces are in parentheses, so that 车马炮 (the same characters for both sides) tell
/// their side without colour.
pub fn board_text(pos: &Position) -> String {
    let mut out = String::new();
    const BLACK_FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
    const RED_FILES: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
    let files = |names: [&str; 9]| {
        names
            .iter()
            .map(|n| format!(" {n} "))
            .collect::<String>()
            .trim_end()
            .to_string()
    };
    out.push_str(&files(BLACK_FILES));
    out.push('\n');
    for y in 0..10u8 {
        if y == 5 {
            out.push_str(" ─────── 楚 河      汉 界 ───────\n");
        }
        let mut row = String::new();
        for x in 0..9u8 {
            let cell = match Point::new(x, y).and_then(|p| pos.piece_at(p)) {
                Some(piece) if piece.side == Side::Red => format!("({})", piece.chinese_name()),
                Some(piece) => format!(" {} ", piece.chinese_name()),
                None => " ·  ".to_string(),
            };
            row.push_str(&cell);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out.push_str(&files(RED_FILES));
    out.push('\n');
    out
}

/// A line of a record replayed to a ply: what [`show`] and `boardxml render` draw.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The position reached.
    pub position: Position,
    /// The moves played to reach it, in order.
    pub moves: Vec<Played>,
}

impl Replayed {
    /// The move that led to the position (`None` at the start).
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().map(|p| p.mv)
    }
}

/// One move of a replayed line, as it was played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// Its index in the record's `moves`.
    pub index: usize,
    /// The move.
    pub mv: Move,
    /// In Chinese notation, in the position it was played in.
    pub chinese: String,
    /// The side that played it.
    pub side: Side,
    /// Its move number (a red move and the black reply share one).
    pub move_number: u32,
}

/// Why a line cannot be replayed to a ply. Its text is `show`'s; `boardxml render` words
/// the same cases its own way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The ply asked for is past the end of the line.
    #[error("the line has {plies} plies; there is no ply {ply}")]
    PastEnd {
        /// The ply asked for.
        ply: usize,
        /// How many the line has.
        plies: usize,
    },
    /// The record's start position could not be read.
    #[error("the start position cannot be read")]
    NoStart,
    /// A move on the way is not legal in its position.
    #[error("move {} (ply {ply}) is not legal: {reason}", mv.iccs())]
    Illegal {
        /// Its ply, 1-based.
        ply: usize,
        /// The move.
        mv: Move,
        /// Why it is not legal.
        reason: IllegalMove,
    },
}

/// Plays the first `ply` moves of `line` (indices into `record.moves`, as [`select_line`]
/// gives them; all of it when `None`) from the record's start, each checked.
pub fn replay(
    record: &Record,
    line: &[usize],
    ply: Option<usize>,
) -> Result<Replayed, ReplayError> {
    let ply = ply.unwrap_or(line.len());
    if ply > line.len() {
        return Err(ReplayError::PastEnd {
            ply,
            plies: line.len(),
        });
    }
    let mut position = record.start.clone().ok_or(ReplayError::NoStart)?;
    let mut moves = Vec::with_capacity(ply);
    for (i, &index) in line[..ply].iter().enumerate() {
        let mv = record.moves[index].mv;
        // Naming the move checks it (the same test as Position::play).
        let chinese = position
            .to_chinese(mv)
            .map_err(|reason| ReplayError::Illegal {
                ply: i + 1,
                mv,
                reason,
            })?;
        moves.push(Played {
            index,
            mv,
            chinese,
            side: position.side_to_move(),
            move_number: position.move_number(),
        });
        position.apply_unchecked(mv);
    }
    Ok(Replayed { position, moves })
}

/// The position after `ply` plies of `line` (all of it when `None`) as text: the board,
/// the side to move, the FEN, and the moves so far in Chinese and ICCS notation.
pub fn show(record: &Record, line: &[usize], ply: Option<usize>) -> Result<String, String> {
    let Replayed {
        position: pos,
        moves,
    } = replay(record, line, ply).map_err(|e| e.to_string())?;
    let ply = moves.len();
    let mut out = board_text(&pos);
    out.push('\n');
    let side = match pos.side_to_move() {
        Side::Red => "red (红方)",
        Side::Black => "black (黑方)",
    };
    let state = if pos.is_checkmate() {
        ", checkmated"
    } else if pos.is_stalemate() {
        ", stalemated"
    } else if pos.in_check(pos.side_to_move()) {
        ", in check"
    } else {
        ""
    };
    out.push_str(&format!("to move: {side}{state}\n"));
    out.push_str(&format!("FEN: {}\n", pos.to_fen()));
    out.push_str(&format!("ply {ply} of {}\n", line.len()));
    if let Some(last) = moves.last() {
        let c = record.moves[last.index].comment.trim();
        if !c.is_empty() {
            out.push_str(&format!("comment: {c}\n"));
        }
    }
    if !moves.is_empty() {
        out.push('\n');
        for m in &moves {
            let number = match m.side {
                Side::Red => format!("{}.", m.move_number),
                Side::Black => format!("{}...", m.move_number),
            };
            out.push_str(&format!("{number} {} {}\n", m.chinese, m.mv.iccs()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::validate::{validate_bytes, Options};

    /// The shipped 2007 example: 1. 77-47 10-22 2. 79-67, and 70-62 a variation at ply 2.
    fn example() -> Record {
        let bytes = include_bytes!("../../examples/valid/short-game-2007.cbf");
        let report = validate_bytes(Path::new("short-game-2007.cbf"), bytes, &Options::default());
        assert!(report.is_valid(), "{:?}", report.diagnostics);
        crate::cbf::convert::record_of(report.document.as_ref().unwrap()).unwrap()
    }

    #[test]
    fn replay_plays_every_line_to_every_ply_as_by_hand() {
        let record = example();
        let mut lines = 0;
        for path in ["", "1.2"] {
            let line = select_line(&record, path).unwrap();
            for ply in 0..=line.len() {
                let replayed = replay(&record, &line, Some(ply)).unwrap();
                let mut by_hand = record.start.clone().unwrap();
                let mut played = Vec::new();
                for &index in &line[..ply] {
                    let mv = record.moves[index].mv;
                    let chinese = by_hand.to_chinese(mv).unwrap();
                    played.push((
                        index,
                        mv,
                        chinese,
                        by_hand.side_to_move(),
                        by_hand.move_number(),
                    ));
                    by_hand.play(mv).unwrap();
                }
                assert_eq!(replayed.position, by_hand, "line {path:?}, ply {ply}");
                let got: Vec<_> = replayed
                    .moves
                    .iter()
                    .map(|p| (p.index, p.mv, p.chinese.clone(), p.side, p.move_number))
                    .collect();
                assert_eq!(got, played, "line {path:?}, ply {ply}");
                let last = line[..ply].last().map(|&i| record.moves[i].mv);
                assert_eq!(replayed.last_move(), last);
            }
            // No ply: the whole line.
            let whole = replay(&record, &line, None).unwrap();
            assert_eq!(whole.moves.len(), line.len());
            lines += 1;
        }
        assert_eq!(lines, 2);
        // The variation really is another line: its second move is not the main line's.
        let (main, variation) = (
            select_line(&record, "").unwrap(),
            select_line(&record, "1.2").unwrap(),
        );
        assert_ne!(record.moves[main[1]].mv, record.moves[variation[1]].mv);
    }

    #[test]
    fn replay_says_why_it_stops() {
        let mut record = example();
        let line = select_line(&record, "1.2").unwrap();
        assert_eq!(
            replay(&record, &line, Some(3)).unwrap_err(),
            ReplayError::PastEnd { ply: 3, plies: 2 }
        );
        assert_eq!(
            replay(&record, &line, Some(3)).unwrap_err().to_string(),
            "the line has 2 plies; there is no ply 3"
        );
        // The variation's move replaced by the first move again: its point is empty now.
        let first = record.moves[line[0]].mv;
        record.moves[line[1]].mv = first;
        let Err(ReplayError::Illegal { ply: 2, mv, .. }) = replay(&record, &line, None) else {
            panic!("an illegal second move must stop the replay at ply 2");
        };
        assert_eq!(mv, first);
        record.start = None;
        assert_eq!(
            replay(&record, &line, Some(0)).unwrap_err(),
            ReplayError::NoStart
        );
    }
}
