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

use boardxml_xiangqi::{Point, Position, Side};

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

/// The position after `ply` plies of `line` (all of it when `None`) as text: the board,
/// the side to move, the FEN, and the moves so far in Chinese and ICCS notation.
pub fn show(record: &Record, line: &[usize], ply: Option<usize>) -> Result<String, String> {
    let mut pos = record
        .start
        .clone()
        .ok_or("the start position cannot be read")?;
    let ply = ply.unwrap_or(line.len());
    if ply > line.len() {
        return Err(format!(
            "the line has {} plies; there is no ply {ply}",
            line.len()
        ));
    }
    let mut moves = Vec::new();
    for (i, &index) in line[..ply].iter().enumerate() {
        let mv = record.moves[index].mv;
        let chinese = pos
            .to_chinese(mv)
            .map_err(|e| format!("move {} (ply {}) is not legal: {e}", mv.iccs(), i + 1))?;
        let number = match pos.side_to_move() {
            Side::Red => format!("{}.", pos.move_number()),
            Side::Black => format!("{}...", pos.move_number()),
        };
        moves.push(format!("{number} {chinese} {}", mv.iccs()));
        pos.apply_unchecked(mv);
    }
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
    if let Some(&last) = line[..ply].last() {
        let c = record.moves[last].comment.trim();
        if !c.is_empty() {
            out.push_str(&format!("comment: {c}\n"));
        }
    }
    if !moves.is_empty() {
        out.push('\n');
        for m in moves {
            out.push_str(&m);
            out.push('\n');
        }
    }
    Ok(out)
}
