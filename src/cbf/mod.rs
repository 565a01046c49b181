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

use boardxml_xiangqi::{IllegalMove, LegalPosition, Move, Position, Side};

use crate::diagnostic::Code;
use crate::generated::{cbf_1_0, cbf_2007};
use crate::semantics::Issue;

/// The rule issues of a schema-valid record: structure, start position, and the legality of
/// every move of every line; at the end of the main line, a result that contradicts a mate.
pub fn check(record: &Record) -> Vec<Issue> {
    check_tree(
        &RecordTree(record),
        Start {
            position: record.start.as_ref(),
            text: &record.start_text,
            path: &record.start_path,
        },
        record
            .result
            .as_ref()
            .map(|(code, path)| (*code, path.as_str())),
        record.structure_issues.clone(),
    )
}

/// The issues [`check`] gives for [`Record::from_2007`] of `doc`, without building the
/// record: validation needs neither comments nor head fields, nor a path per move unless
/// that move is illegal.
pub fn check_2007(doc: &cbf_2007::ChineseChessRecord) -> Vec<Issue> {
    check_document(
        StartOf {
            text: record::board_text(doc),
            parse: Position::from_board_string,
            path: record::START_PATH_2007,
            code: Code::BoardString,
        },
        doc.move_list.r#move.len(),
        |issues, tree| record::place_2007(doc, issues, |mv, i, parent| tree.add(mv, i, parent)),
        record::result_2007(doc),
    )
}

/// The issues [`check`] gives for [`Record::from_1_0`] of `doc`, without building the
/// record (see [`check_2007`]).
pub fn check_1_0(doc: &cbf_1_0::ChineseChessRecord) -> Vec<Issue> {
    check_document(
        StartOf {
            text: record::fen_text(doc),
            parse: Position::from_fen,
            path: record::START_PATH_1_0,
            code: Code::Fen,
        },
        doc.move_list.r#move.len(),
        |issues, tree| record::place_1_0(doc, issues, |mv, i, parent| tree.add(mv, i, parent)),
        record::result_1_0(doc),
    )
}

/// Where a dialect writes its start position, and how it is read.
struct StartOf<'d> {
    text: Option<&'d str>,
    parse: fn(&str) -> Result<Position, boardxml_xiangqi::PositionParseError>,
    path: &'static str,
    code: Code,
}

/// The check of a document of either dialect: its start position, its `moves` moves placed
/// in a [`Tree`] by the dialect's `place` (which reports structure issues), its result.
fn check_document(
    start: StartOf<'_>,
    moves: usize,
    place: impl FnOnce(&mut Vec<Issue>, &mut Tree),
    result: Option<(u8, &str)>,
) -> Vec<Issue> {
    let mut issues = Vec::new();
    let position =
        record::parse_start(start.text, start.parse, start.path, start.code, &mut issues);
    let mut tree = Tree::with_capacity(moves);
    place(&mut issues, &mut tree);
    tree.link();
    check_tree(
        &tree,
        Start {
            position: position.as_ref(),
            text: start.text.unwrap_or_default(),
            path: start.path,
        },
        result,
        issues,
    )
}

/// The tree of moves as the rule check walks it: a [`Record`], or the lighter [`Tree`]
/// read straight from a document.
trait MoveTree {
    /// The first moves: the main line first.
    fn roots(&self) -> &[usize];
    /// The moves after `node`: the line's continuation first.
    fn children(&self, node: usize) -> &[usize];
    fn mv(&self, node: usize) -> Move;
    fn parent(&self, node: usize) -> Option<usize>;
    /// The path of the move's `value` attribute, for an issue.
    fn path(&self, node: usize) -> String;
}

struct RecordTree<'a>(&'a Record);

impl MoveTree for RecordTree<'_> {
    fn roots(&self) -> &[usize] {
        &self.0.root_children
    }
    fn children(&self, node: usize) -> &[usize] {
        &self.0.moves[node].children
    }
    fn mv(&self, node: usize) -> Move {
        self.0.moves[node].mv
    }
    fn parent(&self, node: usize) -> Option<usize> {
        self.0.moves[node].parent
    }
    fn path(&self, node: usize) -> String {
        self.0.moves[node].path.clone()
    }
}

/// The moves of a document with only what the rule check needs, in a few flat vectors
/// rather than a `Vec` of children and a path `String` per move.
struct Tree {
    nodes: Vec<Node>,
    roots: Vec<usize>,
    /// The children of node `i` are `children[first_child[i]..first_child[i + 1]]`.
    first_child: Vec<usize>,
    children: Vec<usize>,
}

struct Node {
    mv: Move,
    parent: Option<usize>,
    /// The index of the move in the document's move list.
    source: usize,
}

impl Tree {
    fn with_capacity(moves: usize) -> Tree {
        Tree {
            nodes: Vec::with_capacity(moves),
            roots: Vec::new(),
            first_child: Vec::new(),
            children: Vec::new(),
        }
    }

    fn add(&mut self, mv: Move, source: usize, parent: Option<usize>) -> usize {
        self.nodes.push(Node { mv, parent, source });
        self.nodes.len() - 1
    }

    /// Groups the children of each node, in the order they were added (which is the order
    /// of the variations).
    fn link(&mut self) {
        let n = self.nodes.len();
        // Counted at p + 2 and summed, `first[p + 1]` is where p's children start; filling
        // them moves it on to where they end, which is where p + 1's start. One array
        // serves as both the cursors and the result.
        let mut first = vec![0usize; n + 2];
        for node in &self.nodes {
            if let Some(p) = node.parent {
                first[p + 2] += 1;
            }
        }
        for i in 2..n + 2 {
            first[i] += first[i - 1];
        }
        let mut children = vec![0usize; first[n + 1]];
        for (i, node) in self.nodes.iter().enumerate() {
            match node.parent {
                Some(p) => {
                    children[first[p + 1]] = i;
                    first[p + 1] += 1;
                }
                None => self.roots.push(i),
            }
        }
        first.truncate(n + 1);
        self.first_child = first;
        self.children = children;
    }
}

impl MoveTree for Tree {
    fn roots(&self) -> &[usize] {
        &self.roots
    }
    fn children(&self, node: usize) -> &[usize] {
        &self.children[self.first_child[node]..self.first_child[node + 1]]
    }
    fn mv(&self, node: usize) -> Move {
        self.nodes[node].mv
    }
    fn parent(&self, node: usize) -> Option<usize> {
        self.nodes[node].parent
    }
    fn path(&self, node: usize) -> String {
        record::move_path(self.nodes[node].source + 1, "value")
    }
}

/// The start position of a record (`None`: it could not be read), as written, and its path.
struct Start<'a> {
    position: Option<&'a Position>,
    text: &'a str,
    path: &'a str,
}

/// The check itself, after the structure issues (`issues`) are known.
fn check_tree(
    tree: &impl MoveTree,
    start: Start<'_>,
    result: Option<(u8, &str)>,
    mut issues: Vec<Issue>,
) -> Vec<Issue> {
    let Some(start_position) = start.position else {
        return issues;
    };
    let walk = match LegalPosition::new(start_position.clone()) {
        Ok(walk) => walk,
        Err(problems) => {
            for problem in problems {
                issues.push(
                    Issue::error(
                        Code::IllegalPosition,
                        start.path,
                        format!("the start position is not legal: {problem}"),
                    )
                    .found(start.text),
                );
            }
            return issues;
        }
    };
    if issues.iter().any(|i| i.code == Code::IllegalPosition) {
        // Legality of moves from an impossible position means nothing.
        return issues;
    }
    let main_line_end = main_line_end(tree);
    // Depth-first over the tree, carrying the position; a line stops at its first illegal
    // move (what follows it has no position to be checked in). Each line is followed down
    // its first moves in place; only the variations met on the way wait on the stack,
    // each with a copy of the position it starts from.
    let mut stack: Vec<(usize, LegalPosition)> = Vec::new();
    if let Some((&first, variations)) = tree.roots().split_first() {
        push_variations(&mut stack, variations, &walk);
        stack.push((first, walk));
    }
    while let Some((mut index, mut walk)) = stack.pop() {
        loop {
            let mv = tree.mv(index);
            // On an illegal move `play` leaves the position as it was, for the message.
            if let Err(reason) = walk.play(mv) {
                issues.push(illegal_move(tree, index, walk.position(), reason));
                break;
            }
            match tree.children(index).split_first() {
                Some((&first, variations)) => {
                    push_variations(&mut stack, variations, &walk);
                    index = first;
                }
                None => {
                    if index == main_line_end {
                        result_warning(result, walk.position(), &mut issues);
                    }
                    break;
                }
            }
        }
    }
    issues
}

/// Stacks the variations `nodes` to be checked from `walk`, the first on top so that they
/// come out in order.
fn push_variations(stack: &mut Vec<(usize, LegalPosition)>, nodes: &[usize], walk: &LegalPosition) {
    for &node in nodes.iter().rev() {
        stack.push((node, walk.clone()));
    }
}

/// The issue for the illegal move `node`, played in `position`.
fn illegal_move(
    tree: &impl MoveTree,
    node: usize,
    position: &Position,
    reason: IllegalMove,
) -> Issue {
    let mv = tree.mv(node);
    let reason = flying_king(position, mv).unwrap_or_else(|| reason.to_string());
    let line = line_to(tree, node);
    let piece = position
        .piece_at(mv.from)
        .map(|p| format!("{} ", p.chinese_name()))
        .unwrap_or_default();
    Issue::error(
        Code::IllegalMove,
        tree.path(node),
        format!(
            "illegal move {piece}{} ({}) at ply {} of the line {}: {reason}",
            mv.cbf(),
            mv.iccs(),
            line.len(),
            line.iter().map(|m| m.cbf()).collect::<Vec<_>>().join(" ")
        ),
    )
    .expected(format!(
        "a legal move for {}",
        side_name(position.side_to_move())
    ))
    .found(format!("{} ({})", mv.cbf(), mv.iccs()))
}

/// The last move of the main line (`usize::MAX` if there are no moves).
fn main_line_end(tree: &impl MoveTree) -> usize {
    let Some(mut at) = tree.roots().first().copied() else {
        return usize::MAX;
    };
    while let Some(&next) = tree.children(at).first() {
        at = next;
    }
    at
}

/// The moves from the start up to and including `node`.
fn line_to(tree: &impl MoveTree, node: usize) -> Vec<Move> {
    let mut line = Vec::new();
    let mut at = Some(node);
    while let Some(i) = at {
        line.push(tree.mv(i));
        at = tree.parent(i);
    }
    line.reverse();
    line
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
fn result_warning(result: Option<(u8, &str)>, end: &Position, issues: &mut Vec<Issue>) {
    let Some((code, path)) = result else {
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
        Issue::warning(
            Code::ResultContradiction,
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
