//! The rules of a CBF record beyond its schema: the structure of its variations, the start
//! position, the legality of every move of every line under the full rules of xiangqi, and
//! a recorded result that contradicts a final mate.

use crate::codes;
use boardxml_xiangqi::{IllegalMove, LegalPosition, Move, Position, Side, Undo};

use crate::cbf::record::{self, Anchors, MoveAnchor, Record};
use crate::cbf::values::StartPosition;
use crate::generated::{cbf_1_0, cbf_2007};
use boardxml::diagnostic::{Code, Diagnostic};
use boardxml::xml::{At, Observer};

/// Room for the moves' notes, made once the head is read (the moves come after it): most
/// records have fewer, and a longer one grows the room as usual.
const MOVES_RESERVED: usize = 256;

/// A recorded result: its code, its path and its offset.
type RecordedResult<'r> = (u8, &'r str, usize);

/// The CBF rules, as a visitor of records of either dialect: where each element the rules
/// name stands is noted as it is read (each move's attributes, the start position, the
/// result), and once the record is read whole its rules run over the typed record, each
/// finding anchored at the offset noted. A record is small and its rules need its tree, so
/// it is kept until then.
#[derive(Debug, Default)]
pub struct CbfRules {
    /// Where each move of the record being read stands.
    moves: Vec<MoveAnchor>,
    /// Where its start position stands.
    start: usize,
    /// Where its recorded result stands.
    result: usize,
}

impl CbfRules {
    /// Notes where a move stands: its start tag when the text read is at hand (its
    /// attributes are looked up only for a move with something to report, as most have
    /// nothing), else each of its attributes (this runs for every move of every record).
    fn note_move(&mut self, at: &At<'_>) {
        let tag = at.offset();
        if at.has_source() {
            self.moves.push(MoveAnchor::Tag(tag));
            return;
        }
        let (mut nid, mut value, mut branch, mut end) = (tag, tag, tag, tag);
        // The move was read and is valid, so its attributes are those its dialect declares
        // (2007: nid, value; 1.0: value, branch, end), whose first letters differ.
        for (name, offset) in at.attributes() {
            match name.first() {
                Some(b'n') => nid = offset,
                Some(b'v') => value = offset,
                Some(b'b') => branch = offset,
                Some(b'e') => end = offset,
                _ => {}
            }
        }
        self.moves.push(MoveAnchor::Attributes {
            nid,
            value,
            branch,
            end,
        });
    }

    /// The record, read at `at`, is whole: its rules run over it, anchored at what was
    /// noted, and the notes are cleared for the next record (their buffer kept).
    fn record_read(
        &mut self,
        at: &At<'_>,
        check: impl FnOnce(&Anchors<'_>) -> Vec<Diagnostic>,
        found: &mut Vec<Diagnostic>,
    ) {
        let anchors = Anchors {
            moves: std::mem::take(&mut self.moves),
            start: std::mem::take(&mut self.start),
            result: std::mem::take(&mut self.result),
            at: Some(at),
        };
        found.extend(check(&anchors));
        self.moves = anchors.moves;
        self.moves.clear();
    }
}

impl Observer for CbfRules {
    /// What the rules need of a record is in its elements once read.
    fn starts(&self) -> bool {
        false
    }

    fn element(
        &mut self,
        element: boardxml::xml::Visited<'_>,
        at: &At<'_>,
        found: &mut Vec<Diagnostic>,
    ) {
        let _ =
            cbf_1_0::visit(self, element, at, found) || cbf_2007::visit(self, element, at, found);
    }
}

impl cbf_2007::Visitor for CbfRules {
    fn head(&mut self, _: &cbf_2007::Head, _: &At<'_>, _: &mut Vec<Diagnostic>) {
        self.moves.reserve(MOVES_RESERVED);
    }

    fn board(&mut self, _: &cbf_2007::Board, at: &At<'_>, _: &mut Vec<Diagnostic>) {
        self.start = at.attribute("value");
    }

    fn record_result(&mut self, _: &cbf_2007::RecordResult, at: &At<'_>, _: &mut Vec<Diagnostic>) {
        self.result = at.attribute("value");
    }

    fn r#move(&mut self, _: &cbf_2007::Move, at: &At<'_>, _: &mut Vec<Diagnostic>) {
        self.note_move(at);
    }

    fn chinese_chess_record(
        &mut self,
        record: &cbf_2007::ChineseChessRecord,
        at: &At<'_>,
        found: &mut Vec<Diagnostic>,
    ) {
        self.record_read(at, |anchors| check_2007_at(record, anchors), found);
    }
}

impl cbf_1_0::Visitor for CbfRules {
    fn head(&mut self, _: &cbf_1_0::Head, at: &At<'_>, _: &mut Vec<Diagnostic>) {
        // The start position and the result are elements of a simple type, with no visitor
        // method of their own: their start tags are where findings about them stand.
        self.moves.reserve(MOVES_RESERVED);
        self.start = at.child(record::START_FIELD_1_0).unwrap_or(at.offset());
        self.result = at.child("RecordResult").unwrap_or(at.offset());
    }

    fn r#move(&mut self, _: &cbf_1_0::Move, at: &At<'_>, _: &mut Vec<Diagnostic>) {
        self.note_move(at);
    }

    fn chinese_chess_record(
        &mut self,
        record: &cbf_1_0::ChineseChessRecord,
        at: &At<'_>,
        found: &mut Vec<Diagnostic>,
    ) {
        self.record_read(at, |anchors| check_1_0_at(record, anchors), found);
    }
}

/// The rule issues of a schema-valid record: structure, start position, and the legality of
/// every move of every line; at the end of the main line, a result that contradicts a mate.
pub fn check(record: &Record) -> Vec<Diagnostic> {
    // A record has no source: its findings name paths, at offset 0.
    let start = Start {
        position: record.start.as_ref(),
        text: &record.start_text,
        path: &record.start_path,
        offset: 0,
    };
    let result = record
        .result
        .as_ref()
        .map(|(code, path)| (*code, path.as_str(), 0));
    let mut walk = Walk::new(&start, result, record.moves.len());
    if let Ok(walk) = &mut walk {
        // The walk takes moves depth-first, the main line first: the order the readers
        // place them in, but a record may have been built otherwise, so it is walked by
        // its `root_children` and `children` (each move once, even if they loop).
        let mut seen = vec![false; record.moves.len()];
        let mut stack: Vec<(usize, Option<usize>)> = record
            .root_children
            .iter()
            .rev()
            .map(|&m| (m, None))
            .collect();
        let mut placed = 0;
        while let Some((m, parent)) = stack.pop() {
            let Some(node) = record.moves.get(m).filter(|_| !seen[m]) else {
                continue;
            };
            seen[m] = true;
            walk.add(node.mv, parent, || (0, node.path.clone()));
            stack.extend(node.children.iter().rev().map(|&c| (c, Some(placed))));
            placed += 1;
        }
    }
    rule_issues(record.structure_issues.clone(), walk)
}

/// The findings [`check`] gives for [`Record::from_2007`] of `doc`, without building the
/// record: validation needs neither comments nor head fields, nor a path per move unless
/// that move is illegal. Each move is checked as it is placed, with no tree built. For a
/// record read from a source, the reader's visitor ([`CbfRules`]) anchors them at their
/// offsets; here (a record in memory) the offsets are 0.
pub fn check_2007(doc: &cbf_2007::ChineseChessRecord) -> Vec<Diagnostic> {
    check_2007_at(doc, &Anchors::default())
}

fn check_2007_at(doc: &cbf_2007::ChineseChessRecord, at: &Anchors<'_>) -> Vec<Diagnostic> {
    check_document(
        start_of(
            record::board_of(doc),
            (at.start, record::START_PATH_2007),
            codes::BOARD_STRING,
        ),
        doc.move_list.r#move.len(),
        record::result_2007(doc).map(|(code, path)| (code, path, at.result)),
        at,
        |issues, moves| {
            record::place_2007(doc, at, issues, |mv, i, parent| moves.add(mv, i, parent))
        },
    )
}

/// The findings [`check`] gives for [`Record::from_1_0`] of `doc`, without building the
/// record (see [`check_2007`]).
pub fn check_1_0(doc: &cbf_1_0::ChineseChessRecord) -> Vec<Diagnostic> {
    check_1_0_at(doc, &Anchors::default())
}

fn check_1_0_at(doc: &cbf_1_0::ChineseChessRecord, at: &Anchors<'_>) -> Vec<Diagnostic> {
    check_document(
        start_of(
            record::fen_of(doc),
            (at.start, record::START_PATH_1_0),
            codes::FEN,
        ),
        doc.move_list.r#move.len(),
        record::result_1_0(doc).map(|(code, path)| (code, path, at.result)),
        at,
        |issues, moves| {
            record::place_1_0(doc, at, issues, |mv, i, parent| moves.add(mv, i, parent))
        },
    )
}

/// The check of a document of either dialect: its start position, then its `moves` moves
/// as the dialect's `place` gives them (reporting structure issues), then its result.
fn check_document<'r>(
    start: StartOf<'_>,
    moves: usize,
    result: Option<RecordedResult<'r>>,
    at: &'r Anchors<'r>,
    place: impl FnOnce(&mut Vec<Diagnostic>, &mut DocumentMoves<'r>),
) -> Vec<Diagnostic> {
    let mut issues = Vec::new();
    let mut document = DocumentMoves::new(start, moves, result, at, &mut issues);
    place(&mut issues, &mut document);
    rule_issues(issues, document.walk)
}

/// A dialect's start position, as written and as read (once, with the document).
struct StartOf<'d> {
    text: Option<&'d str>,
    position: Option<Position>,
    /// Why it cannot be read, if it cannot.
    issues: Vec<Diagnostic>,
    path: &'static str,
    offset: usize,
}

fn start_of<'d, F>(
    start: Option<&'d StartPosition<F>>,
    (offset, path): (usize, &'static str),
    code: Code,
) -> StartOf<'d> {
    let mut issues = Vec::new();
    let position = record::parse_start(start, (offset, path), code, &mut issues);
    StartOf {
        text: start.map(|s| s.as_str()),
        position,
        issues,
        path,
        offset,
    }
}

/// The moves of a document as its dialect's `place` gives them, checked on the way.
struct DocumentMoves<'r> {
    walk: Result<Walk<'r>, Vec<Diagnostic>>,
    at: &'r Anchors<'r>,
    /// How many moves were placed: the node number of the next.
    nodes: usize,
}

impl<'r> DocumentMoves<'r> {
    /// Reads the start position (its problems go to `issues`) for up to `moves` moves.
    fn new(
        start: StartOf<'_>,
        moves: usize,
        result: Option<RecordedResult<'r>>,
        at: &'r Anchors<'r>,
        issues: &mut Vec<Diagnostic>,
    ) -> DocumentMoves<'r> {
        issues.extend(start.issues);
        let position = start.position;
        let start = Start {
            position: position.as_ref(),
            text: start.text.unwrap_or_default(),
            path: start.path,
            offset: start.offset,
        };
        DocumentMoves {
            walk: Walk::new(&start, result, moves),
            at,
            nodes: 0,
        }
    }

    /// The move `mv`, at `source` in the document's move list, the child of node `parent`:
    /// checked, and given its node number.
    fn add(&mut self, mv: Move, source: usize, parent: Option<usize>) -> usize {
        if let Ok(walk) = &mut self.walk {
            let at = self.at;
            walk.add(mv, parent, || {
                (
                    at.of_move(source + 1, "value"),
                    record::move_path(source + 1, "value"),
                )
            });
        }
        self.nodes += 1;
        self.nodes - 1
    }
}

/// The start position of a record (`None`: it could not be read), as written, and its path.
struct Start<'a> {
    position: Option<&'a Position>,
    text: &'a str,
    path: &'a str,
    offset: usize,
}

/// The structure issues `issues`, then those of the rules: of the start position if it
/// stopped the check, else of the moves (unless a structure issue says the start position
/// is impossible: legality of moves from it means nothing).
fn rule_issues(
    mut issues: Vec<Diagnostic>,
    walk: Result<Walk<'_>, Vec<Diagnostic>>,
) -> Vec<Diagnostic> {
    match walk {
        Err(start_issues) => issues.extend(start_issues),
        Ok(walk) => {
            if !issues.iter().any(|i| i.code == codes::ILLEGAL_POSITION) {
                issues.extend(walk.finish());
            }
        }
    }
    issues
}

/// The rule check of a record's moves, given one by one in document order, which both
/// dialects make a depth-first order: the parent of each move is the move before it or
/// one of that move's ancestors (its variations come after its whole main continuation).
/// So the main line is the first run of moves each the child of the one before.
///
/// One position is carried along the line from the start to the move before; to reach a
/// move's parent, the moves after it are taken back. A line stops at its first illegal
/// move: what follows it has no position to be checked in.
struct Walk<'r> {
    position: LegalPosition,
    /// The line from the start to the move before.
    line: Vec<Step>,
    /// How many moves came so far: the node number of the next.
    nodes: usize,
    /// Whether every move so far was the child of the one before.
    on_main_line: bool,
    result: Option<RecordedResult<'r>>,
    issues: Vec<Diagnostic>,
}

/// A move of [`Walk`]'s line: its node number, the move, and what takes it back (`None`:
/// not played, being illegal or after an illegal move).
struct Step {
    node: usize,
    mv: Move,
    undo: Option<Undo>,
}

impl<'r> Walk<'r> {
    /// A walk of up to `moves` moves from the start position, or the issues that stop the
    /// check there: none if the position could not be read, its problems if it is not
    /// legal.
    fn new(
        start: &Start<'_>,
        result: Option<RecordedResult<'r>>,
        moves: usize,
    ) -> Result<Walk<'r>, Vec<Diagnostic>> {
        let Some(position) = start.position else {
            return Err(Vec::new());
        };
        let position = LegalPosition::new(position.clone()).map_err(|problems| {
            problems
                .into_iter()
                .map(|problem| {
                    Diagnostic::error(
                        codes::ILLEGAL_POSITION,
                        start.offset,
                        start.path,
                        format!("the start position is not legal: {problem}"),
                    )
                    .found(start.text)
                })
                .collect::<Vec<_>>()
        })?;
        Ok(Walk {
            position,
            line: Vec::with_capacity(moves),
            nodes: 0,
            on_main_line: true,
            result,
            issues: Vec::new(),
        })
    }

    /// Checks the next move, `mv`, the child of node `parent` (`None`: a first move);
    /// `anchor` gives its offset and path for a finding.
    fn add(&mut self, mv: Move, parent: Option<usize>, anchor: impl FnOnce() -> (usize, String)) {
        let node = self.nodes;
        self.nodes += 1;
        let continues = match parent {
            None => node == 0,
            Some(p) => p + 1 == node,
        };
        if self.on_main_line && !continues {
            // The main line ended with the move before.
            self.on_main_line = false;
            self.main_line_ended();
        }
        let undo = if self.back_to(parent) {
            // On an illegal move `play_undoable` leaves the position as it was, for the
            // message.
            match self.position.play_undoable(mv) {
                Ok(undo) => Some(undo),
                Err(reason) => {
                    let issue = self.illegal_move(mv, anchor(), reason);
                    self.issues.push(issue);
                    None
                }
            }
        } else {
            None
        };
        self.line.push(Step { node, mv, undo });
    }

    /// The issues found, once every move has come.
    fn finish(mut self) -> Vec<Diagnostic> {
        if self.on_main_line {
            self.main_line_ended();
        }
        self.issues
    }

    /// At the end of the main line, which is the last move of the line: whether the result
    /// contradicts a mate there.
    fn main_line_ended(&mut self) {
        if self.line.last().is_some_and(|step| step.undo.is_some()) {
            result_warning(self.result, self.position.position(), &mut self.issues);
        }
    }

    /// Takes back the moves of the line after `parent` (all of them for `None`); returns
    /// whether a child of `parent` is to be played (it was played itself).
    fn back_to(&mut self, parent: Option<usize>) -> bool {
        while let Some(last) = self.line.last() {
            if Some(last.node) == parent {
                return last.undo.is_some();
            }
            if let Some(undo) = last.undo {
                self.position.undo(undo);
            }
            self.line.pop();
        }
        // In depth-first order the parent is always on the line; a move whose parent is
        // not could not be checked.
        debug_assert!(parent.is_none(), "parent {parent:?} is not on the line");
        parent.is_none()
    }

    /// The finding for the illegal move `mv`, after the line, at `offset` and `path`.
    fn illegal_move(
        &self,
        mv: Move,
        (offset, path): (usize, String),
        reason: IllegalMove,
    ) -> Diagnostic {
        let position = self.position.position();
        let reason = flying_king(position, mv).unwrap_or_else(|| reason.to_string());
        let shown = &self.line[self.line.len().saturating_sub(LINE_SHOWN - 1)..];
        let line = line_shown(
            self.line.len() + 1,
            shown.iter().map(|step| step.mv).chain([mv]).map(Move::cbf),
        );
        let piece = position
            .piece_at(mv.from)
            .map(|p| format!("{} ", p.chinese_name()))
            .unwrap_or_default();
        Diagnostic::error(
            codes::ILLEGAL_MOVE,
            offset,
            path,
            format!(
                "illegal move {piece}{} ({}) at ply {} of the line {line}: {reason}",
                mv.cbf(),
                mv.iccs(),
                self.line.len() + 1,
            ),
        )
        .expected(format!(
            "a legal move for {}",
            side_name(position.side_to_move())
        ))
        .found(format!("{} ({})", mv.cbf(), mv.iccs()))
    }
}

/// The most moves of a line an illegal move's message names (the illegal one the last).
/// A line is as long as its record allows (200,000 plies of nested variations), and every
/// illegal variation at its end would copy it whole into its message: time and memory
/// quadratic in the depth.
pub(crate) const LINE_SHOWN: usize = 32;

/// The line of a message about its last move: the `len` moves whole when there are at
/// most [`LINE_SHOWN`], else how many come before `last` (the last ones, in order).
pub(crate) fn line_shown(len: usize, last: impl Iterator<Item = String>) -> String {
    let last: Vec<String> = last.collect();
    let earlier = len - last.len();
    let moves = last.join(" ");
    if earlier == 0 {
        moves
    } else {
        format!("(after {earlier} earlier moves) {moves}")
    }
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
fn result_warning(
    result: Option<RecordedResult<'_>>,
    end: &Position,
    issues: &mut Vec<Diagnostic>,
) {
    let Some((code, path, offset)) = result else {
        return;
    };
    // Only the side to move can be mated or stalemated, so the result that would agree is
    // known before the (costlier) search for a legal move.
    let loser = end.side_to_move();
    let winner_code = match loser {
        Side::Black => 1,
        Side::Red => 2,
    };
    if code == 0 || code == winner_code || end.has_legal_move() {
        return;
    }
    let how = if end.in_check(loser) {
        "checkmated"
    } else {
        "stalemated (a loss in xiangqi)"
    };
    issues.push(
        Diagnostic::warning(
            codes::RESULT_CONTRADICTION,
            offset,
            path,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cbf::record::{Dialect, MoveNode};
    use boardxml_xiangqi::seeded::XorShift;
    use boardxml_xiangqi::Point;

    /// A tree given by its moves and their parents, in document order.
    struct Plain {
        nodes: Vec<(Move, Option<usize>)>,
    }

    impl Plain {
        fn path(node: usize) -> String {
            format!("node {node}")
        }

        /// The moves from the start up to and including `node`.
        fn line_to(&self, node: usize) -> Vec<Move> {
            let mut line = Vec::new();
            let mut at = Some(node);
            while let Some(i) = at {
                line.push(self.nodes[i].0);
                at = self.nodes[i].1;
            }
            line.reverse();
            line
        }
    }

    /// What [`Walk`] finds in `tree`.
    fn walked(
        tree: &Plain,
        start: &Position,
        result: Option<RecordedResult<'_>>,
    ) -> Vec<Diagnostic> {
        let start = Start {
            position: Some(start),
            text: "",
            path: "/start",
            offset: 0,
        };
        let mut walk = Walk::new(&start, result, tree.nodes.len());
        if let Ok(walk) = &mut walk {
            for (node, &(mv, parent)) in tree.nodes.iter().enumerate() {
                walk.add(mv, parent, || (0, Plain::path(node)));
            }
        }
        rule_issues(Vec::new(), walk)
    }

    /// The rule check by its definition: depth first over the children of each node (in
    /// document order), with a copy of the position for every variation; a line stops at
    /// its first illegal move; the main line follows the first child of each node.
    fn by_definition(
        tree: &Plain,
        start: &Position,
        result: Option<RecordedResult<'_>>,
    ) -> Vec<Diagnostic> {
        let mut issues = Vec::new();
        let mut children = vec![Vec::new(); tree.nodes.len()];
        let mut roots = Vec::new();
        for (i, &(_, parent)) in tree.nodes.iter().enumerate() {
            match parent {
                Some(p) => children[p].push(i),
                None => roots.push(i),
            }
        }
        let mut end = roots.first().copied();
        while let Some(&next) = end.and_then(|e| children[e].first()) {
            end = Some(next);
        }
        let walk = LegalPosition::new(start.clone()).unwrap();
        let mut stack: Vec<(usize, LegalPosition)> =
            roots.iter().rev().map(|&r| (r, walk.clone())).collect();
        while let Some((node, mut walk)) = stack.pop() {
            let mv = tree.nodes[node].0;
            if let Err(reason) = walk.play(mv) {
                let position = walk.position();
                let reason = flying_king(position, mv).unwrap_or_else(|| reason.to_string());
                let line = tree.line_to(node);
                let shown = &line[line.len().saturating_sub(LINE_SHOWN)..];
                let piece = position
                    .piece_at(mv.from)
                    .map(|p| format!("{} ", p.chinese_name()))
                    .unwrap_or_default();
                issues.push(
                    Diagnostic::error(
                        codes::ILLEGAL_MOVE,
                        0,
                        Plain::path(node),
                        format!(
                            "illegal move {piece}{} ({}) at ply {} of the line {}: {reason}",
                            mv.cbf(),
                            mv.iccs(),
                            line.len(),
                            line_shown(line.len(), shown.iter().map(|m| m.cbf()))
                        ),
                    )
                    .expected(format!(
                        "a legal move for {}",
                        side_name(position.side_to_move())
                    ))
                    .found(format!("{} ({})", mv.cbf(), mv.iccs())),
                );
                continue;
            }
            if Some(node) == end {
                result_warning(result, walk.position(), &mut issues);
            }
            for &child in children[node].iter().rev() {
                stack.push((child, walk.clone()));
            }
        }
        issues
    }

    /// A random tree in depth-first order: each node continues the line of the node before
    /// or starts a variation at one of its ancestors (or at the start). Moves are legal
    /// ones, with now and then a random (mostly illegal) one.
    fn random_tree(rng: &mut XorShift, start: &Position) -> Plain {
        let mut nodes: Vec<(Move, Option<usize>)> = Vec::new();
        // The line to the node before, with the position after each of its nodes.
        let mut line: Vec<(usize, Position)> = Vec::new();
        let size = 1 + rng.below(80);
        while nodes.len() < size {
            if !line.is_empty() && rng.below(6) == 0 {
                line.truncate(rng.below(line.len()));
            }
            let parent = line.last().map(|(node, _)| *node);
            let position = line.last().map_or(start, |(_, p)| p).clone();
            let legal = position.legal_moves();
            let mv = if legal.is_empty() || rng.below(10) == 0 {
                let point = |rng: &mut XorShift| Point::from_index(rng.below(90));
                Move::new(point(rng), point(rng))
            } else {
                legal[rng.below(legal.len())]
            };
            nodes.push((mv, parent));
            let mut after = position;
            if after.play(mv).is_ok() {
                line.push((nodes.len() - 1, after));
            } else {
                // What follows an illegal move is never played; still give it children.
                line.push((nodes.len() - 1, Position::start()));
            }
        }
        Plain { nodes }
    }

    #[test]
    fn the_walk_gives_the_issues_of_the_definition() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let starts = [
            Position::start(),
            // Sparse: mates and stalemates come quickly.
            Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3K1R3 w").unwrap(),
            Position::from_fen("4k4/4a4/9/9/9/9/9/9/9/3K1R3 b").unwrap(),
        ];
        let mut seen = std::collections::BTreeMap::new();
        for round in 0..600 {
            let start = &starts[round % starts.len()];
            let tree = random_tree(&mut rng, start);
            let result = Some(((round % 4) as u8, "/result", 0));
            let want = by_definition(&tree, start, result);
            assert_eq!(walked(&tree, start, result), want, "tree {:?}", tree.nodes);
            for issue in want {
                *seen.entry(issue.code).or_insert(0) += 1;
            }
        }
        assert!(seen.get(&codes::ILLEGAL_MOVE) > Some(&500), "{seen:?}");
        assert!(seen.contains_key(&codes::RESULT_CONTRADICTION), "{seen:?}");
    }

    /// The record of `tree` with its moves stored in the order `order` gives (`order[i]`:
    /// where node `i` goes), parents and children renumbered to match.
    fn record_of(tree: &Plain, start: &Position, result: u8, order: &[usize]) -> Record {
        let mut moves: Vec<Option<MoveNode>> = vec![None; tree.nodes.len()];
        let mut root_children = Vec::new();
        for (i, &(mv, parent)) in tree.nodes.iter().enumerate() {
            moves[order[i]] = Some(MoveNode {
                mv,
                comment: String::new(),
                path: Plain::path(i),
                parent: parent.map(|p| order[p]),
                children: Vec::new(),
            });
        }
        for (i, &(_, parent)) in tree.nodes.iter().enumerate() {
            match parent {
                Some(p) => moves[order[p]].as_mut().unwrap().children.push(order[i]),
                None => root_children.push(order[i]),
            }
        }
        Record {
            dialect: Dialect::V1_0,
            head: Vec::new(),
            start: Some(start.clone()),
            start_text: String::new(),
            start_path: "/start".into(),
            game_comment: None,
            moves: moves.into_iter().map(Option::unwrap).collect(),
            root_children,
            result: Some((result, "/result".into())),
            structure_issues: Vec::new(),
        }
    }

    /// A record is checked by its tree, whatever order its moves are stored in.
    #[test]
    fn a_record_is_walked_by_its_tree_not_its_storage_order() {
        let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
        let start = Position::start();
        let mut shuffled_differently = 0;
        for round in 0..200 {
            let tree = random_tree(&mut rng, &start);
            let result = (round % 4) as u8;
            let want = by_definition(&tree, &start, Some((result, "/result", 0)));
            let n = tree.nodes.len();
            let in_order: Vec<usize> = (0..n).collect();
            assert_eq!(check(&record_of(&tree, &start, result, &in_order)), want);
            // Reversed, then shuffled: parents come after their children.
            let reversed: Vec<usize> = (0..n).rev().collect();
            let mut shuffled = in_order.clone();
            for i in (1..n).rev() {
                shuffled.swap(i, rng.below(i + 1));
            }
            shuffled_differently += usize::from(shuffled != in_order);
            for order in [reversed, shuffled] {
                let mut got = check(&record_of(&tree, &start, result, &order));
                let mut want = want.clone();
                // Diagnostics come in the order of the walk; compare them as sets.
                got.sort_by(|a, b| (&a.path, &a.message).cmp(&(&b.path, &b.message)));
                want.sort_by(|a, b| (&a.path, &a.message).cmp(&(&b.path, &b.message)));
                assert_eq!(got, want, "order {order:?}");
            }
        }
        assert!(shuffled_differently > 150);
    }
}
