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
//!
//! The short form names only the plies where the line leaves the main continuation:
//! `22:2` is the second choice at ply 22 (the main line up to it, the main continuation
//! after), `22:2,30:3` also takes the third choice at ply 30 of that variation. The
//! variation tree [`variation_tree`] lists every variation with its short form.

use boardxml_xiangqi::{IllegalMove, Move, Point, Position, Side};

use crate::cbf::record::Record;

/// The moves (indices into `record.moves`) of the line that `path` names (see the module
/// documentation), or why there is no such line.
pub fn select_line(record: &Record, path: &str) -> Result<Vec<usize>, String> {
    let mut choices: Vec<usize> = Vec::new();
    if path.contains(':') {
        for part in path.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
            let pair = part.split_once(':').and_then(|(ply, choice)| {
                Some((
                    ply.trim().parse::<usize>().ok()?,
                    choice.trim().parse::<usize>().ok()?,
                ))
            });
            match pair {
                Some((ply, choice)) if ply >= 1 && choice >= 1 && ply <= 100_000 => {
                    if choices.len() < ply {
                        choices.resize(ply, 1);
                    }
                    choices[ply - 1] = choice;
                }
                _ => {
                    return Err(format!(
                        "bad line \"{path}\": expected PLY:CHOICE pairs separated by commas, such as 22:2 or 22:2,30:3 (1-based)"
                    ))
                }
            }
        }
    }
    for part in path
        .split('.')
        .filter(|p| !p.trim().is_empty() && !path.contains(':'))
    {
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
    board_text_marked(pos, None)
}

/// [`board_text`] with the last move marked: `∘` where the piece came from, and the piece
/// itself in `<>` (red) or `[]` (black) instead of `()` / spaces.
pub fn board_text_marked(pos: &Position, last: Option<Move>) -> String {
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
            let here = Point::new(x, y);
            let moved = last.is_some_and(|m| Some(m.to) == here);
            let left = last.is_some_and(|m| Some(m.from) == here);
            let cell = match here.and_then(|p| pos.piece_at(p)) {
                Some(piece) if moved && piece.side == Side::Red => {
                    format!("<{}>", piece.chinese_name())
                }
                Some(piece) if moved => format!("[{}]", piece.chinese_name()),
                Some(piece) if piece.side == Side::Red => format!("({})", piece.chinese_name()),
                Some(piece) => format!(" {} ", piece.chinese_name()),
                None if left => " ∘  ".to_string(),
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
    let mut out = header(record);
    out.push_str(&board_text_marked(&pos, moves.last().map(|m| m.mv)));
    if let Some(last) = moves.last() {
        let number = match last.side {
            Side::Red => format!("{}.", last.move_number),
            Side::Black => format!("{}...", last.move_number),
        };
        out.push_str(&format!(
            "last move: {number} {} ({}): ∘ where it came from, <> / [] the piece\n",
            last.chinese,
            last.mv.iccs()
        ));
    }
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
    let tree = variation_tree(record, 200);
    if !tree.is_empty() {
        out.push('\n');
        out.push_str(&tree);
    }
    Ok(out)
}

/// The head a player looks for: players, event, date, result (only what the record has).
pub fn header(record: &Record) -> String {
    let field = |names: &[&str]| {
        record
            .head
            .iter()
            .find(|f| names.contains(&f.name) && !f.value.trim().is_empty())
            .map(|f| f.value.trim().to_string())
    };
    let mut out = String::new();
    if let Some(title) = field(&["Name", "Title"]) {
        out.push_str(&format!("{title}\n"));
    }
    match (field(&["Red"]), field(&["Black"])) {
        (None, None) => {}
        (red, black) => out.push_str(&format!(
            "红方 red: {}   黑方 black: {}\n",
            red.as_deref().unwrap_or("?"),
            black.as_deref().unwrap_or("?")
        )),
    }
    if let Some(event) = field(&["Event", "Contest"]) {
        out.push_str(&format!("event: {event}\n"));
    }
    if let Some(date) = field(&["Date"]) {
        out.push_str(&format!("date: {date}\n"));
    }
    let result = record.result.as_ref().map(|r| r.0);
    if let Some(code @ 1..=3) = result {
        let text = match code {
            1 => "1-0 (红胜 red wins)",
            2 => "0-1 (黑胜 black wins)",
            _ => "1/2-1/2 (和棋 draw)",
        };
        out.push_str(&format!("result: {text}\n"));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The `(ply, choice)` pairs that lead to a move, shared: each step names the pair that
/// was added and the steps before it, so that a move deep in variations costs one step,
/// not a copy of every pair above it (which made the tree quadratic in variation depth).
struct Choices {
    /// `(ply, choice, the step before)`.
    steps: Vec<(usize, usize, Option<usize>)>,
}

impl Choices {
    /// The pairs of `at` (its last step), first to last.
    fn pairs(&self, mut at: Option<usize>) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        while let Some(i) = at {
            let (ply, choice, before) = self.steps[i];
            pairs.push((ply, choice));
            at = before;
        }
        pairs.reverse();
        pairs
    }
}

/// A move waiting to be walked: the node, the position before it, its ply, the last step
/// of the choices that lead to it, whether it starts a variation, how deep in variations
/// it is.
type Pending = (usize, Position, usize, Option<usize>, bool, usize);

/// Pushes the moves playable at `ply` (`options`), the main continuation last so that it
/// is walked first.
fn push_options(
    options: &[usize],
    pos: &Position,
    ply: usize,
    choice: Option<usize>,
    depth: usize,
    choices: &mut Choices,
    stack: &mut Vec<Pending>,
) {
    for (i, &alt) in options.iter().enumerate().skip(1).rev() {
        choices.steps.push((ply, i + 1, choice));
        let step = Some(choices.steps.len() - 1);
        stack.push((alt, pos.clone(), ply, step, true, depth + 1));
    }
    if let Some(&main) = options.first() {
        stack.push((main, pos.clone(), ply, choice, false, depth));
    }
}

/// Every variation of the record as a tree: where it branches (its move number and ply),
/// its first move in Chinese notation, and the `--line` short form that picks it; nested
/// variations indented under the one they branch from. At most `limit` entries (then how
/// many more there are). Empty for a record without variations. Linear in the number of
/// moves however deep the variations nest: an entry shown has at most `limit` pairs (each
/// is an entry shown before it).
pub fn variation_tree(record: &Record, limit: usize) -> String {
    let Some(start) = record.start.clone() else {
        return String::new();
    };
    let mut entries = Vec::new();
    let mut total = 0usize;
    let mut stack: Vec<Pending> = Vec::new();
    let mut choices = Choices { steps: Vec::new() };
    push_options(
        &record.root_children,
        &start,
        1,
        None,
        0,
        &mut choices,
        &mut stack,
    );
    let mut seen = vec![false; record.moves.len()];
    while let Some((node, pos, ply, choice, starts_variation, depth)) = stack.pop() {
        if std::mem::replace(&mut seen[node], true) {
            continue;
        }
        let mv = record.moves[node].mv;
        let Ok(chinese) = pos.to_chinese(mv) else {
            continue;
        };
        if starts_variation {
            total += 1;
            if entries.len() < limit {
                let number = match pos.side_to_move() {
                    Side::Red => format!("{}.", pos.move_number()),
                    Side::Black => format!("{}...", pos.move_number()),
                };
                let short: Vec<String> = choices
                    .pairs(choice)
                    .iter()
                    .map(|(p, c)| format!("{p}:{c}"))
                    .collect();
                entries.push(format!(
                    "{}{number} {chinese}  (ply {ply}, --line {})",
                    "  ".repeat(depth.saturating_sub(1)),
                    short.join(",")
                ));
            }
        }
        let mut after = pos;
        after.apply_unchecked(mv);
        push_options(
            &record.moves[node].children,
            &after,
            ply + 1,
            choice,
            depth,
            &mut choices,
            &mut stack,
        );
    }
    if total == 0 {
        return String::new();
    }
    let mut out = format!("variations ({total}):\n");
    for e in &entries {
        out.push_str("  ");
        out.push_str(e);
        out.push('\n');
    }
    if total > entries.len() {
        out.push_str(&format!("  ... {} more\n", total - entries.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::validate::{validate_bytes, Options};

    /// The shipped 2007 example: 1. 77-47 10-22 2. 79-67, and 70-62 a variation at ply 2.
    fn example() -> Record {
        let bytes = include_bytes!("../../../examples/valid/short-game-2007.cbf");
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
    fn the_short_form_picks_a_choice_at_a_ply() {
        let record = example();
        // 22:2 style: the second choice at ply 2 is the dotted path 1.2.
        assert_eq!(
            select_line(&record, "2:2").unwrap(),
            select_line(&record, "1.2").unwrap()
        );
        assert_eq!(
            select_line(&record, "").unwrap(),
            select_line(&record, "2:1").unwrap()
        );
        let e = select_line(&record, "2:3").unwrap_err();
        assert!(
            e.contains("at ply 2 there are 2 moves to choose from"),
            "{e}"
        );
        assert!(select_line(&record, "2:x")
            .unwrap_err()
            .contains("PLY:CHOICE"));
        assert!(select_line(&record, "0:1").is_err());
    }

    #[test]
    fn the_variation_tree_names_each_branch_with_its_line() {
        let record = example();
        let tree = variation_tree(&record, 10);
        // The variation at ply 2 (black's reply) replaces 马２进３.
        let line = select_line(&record, "2:2").unwrap();
        let replayed = replay(&record, &line, Some(2)).unwrap();
        let want = format!(
            "variations (1):\n  1... {}  (ply 2, --line 2:2)\n",
            replayed.moves[1].chinese
        );
        assert_eq!(tree, want);
        assert_eq!(
            variation_tree(&record, 0),
            "variations (1):\n  ... 1 more\n"
        );
    }

    #[test]
    fn show_marks_the_last_move_and_prints_the_header() {
        let record = example();
        let line = select_line(&record, "").unwrap();
        let text = show(&record, &line, Some(1)).unwrap();
        // 炮二平五 (h2e2): the cannon on e2 in <>, its origin h2 as ∘.
        let rows: Vec<&str> = text.lines().collect();
        let row = rows.iter().find(|r| r.contains('<')).unwrap();
        assert!(row.contains("<炮>"), "{text}");
        assert!(row.contains('∘'), "{text}");
        assert!(text.contains("last move: 1. 炮二平五 (h2e2)"), "{text}");
        assert_eq!(text.matches('<').count(), 2, "{text}");
        let plain = board_text(&record.start.clone().unwrap());
        assert!(!plain.contains('<') && !plain.contains('∘'));
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
