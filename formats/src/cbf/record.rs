//! The dialect-neutral model of a CBF record, built from either dialect's generated types,
//! with the structural problems found on the way.

use crate::codes;
use boardxml_xiangqi::{Move, Position};

use crate::cbf::values::{BoardForm, FenForm, StartPosition};
use crate::generated::{cbf_1_0, cbf_2007};
use boardxml::complex::{Complex, Kind};
use boardxml::diagnostic::{Code, Diagnostic};
use boardxml::xml::At;

/// Which generation of the format a record is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// The 2007 announcement (`nid`, `Board`, GBK).
    V2007,
    /// XiangQi Bridge 3 and later (`Version="1.0"`, FEN, `branch`/`end`).
    V1_0,
}

/// One head field as written (element name and text), kept in document order so that a
/// rewrite loses nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadField {
    /// The element name, e.g. `Red`.
    pub name: &'static str,
    /// Its text (for Type/Result/Board of 2007: the `value` attribute).
    pub value: String,
    /// The display label of 2007 `Type`/`Result` (their element text, such as 和棋), kept
    /// so that a conversion can say what it drops; `None` for every other field.
    pub label: Option<String>,
}

/// One ply in the tree of moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveNode {
    /// The move.
    pub mv: Move,
    /// The comment after the move (may be empty).
    pub comment: String,
    /// The path of the move's `value` attribute, for diagnostics.
    pub path: String,
    /// The move before it (`None`: from the start position).
    pub parent: Option<usize>,
    /// The moves after it: the first continues the line, the others are variations.
    pub children: Vec<usize>,
}

/// A CBF record in either dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The dialect it was read from.
    pub dialect: Dialect,
    /// Head fields present, in schema order (Type and Result of 2007 last).
    pub head: Vec<HeadField>,
    /// The start position (`None` if its Board/FEN could not be read: see the issues).
    pub start: Option<Position>,
    /// The start position as written (empty for the standard start).
    pub start_text: String,
    /// The path of the Board value or FEN.
    pub start_path: String,
    /// The game comment (2007: Head/Comment; 1.0: the 00-00 placeholder's text).
    pub game_comment: Option<String>,
    /// Every move, in document order.
    pub moves: Vec<MoveNode>,
    /// The first moves: the first is the main line, the others variations from the start.
    pub root_children: Vec<usize>,
    /// The recorded result code (2007 Result/@value, 1.0 RecordResult) and its path.
    pub result: Option<(u8, String)>,
    /// Structural problems found while building the tree (a record has no source text:
    /// their offsets are 0, their paths name the elements).
    pub structure_issues: Vec<Diagnostic>,
}

const LIST: &str = "/ChineseChessRecord/MoveList";

/// The start position's path in a 2007 record.
pub(crate) const START_PATH_2007: &str = "/ChineseChessRecord/Head/Board/@value";
/// The start position's path in a 1.0 record.
pub(crate) const START_PATH_1_0: &str = "/ChineseChessRecord/Head/FEN";
/// The head field of a 1.0 record that holds its start position.
pub(crate) const START_FIELD_1_0: &str = "FEN";
const RESULT_PATH_2007: &str = "/ChineseChessRecord/Head/Result/@value";
const RESULT_PATH_1_0: &str = "/ChineseChessRecord/Head/RecordResult";

/// The path of an attribute of the `k`-th move (1-based). Built by hand rather than with
/// `format!`: a record reader makes one per move.
pub(crate) fn move_path(k: usize, attribute: &str) -> String {
    use std::fmt::Write;
    let mut path = String::with_capacity(LIST.len() + 16 + attribute.len());
    path.push_str(LIST);
    path.push_str("/Move");
    if k != 1 {
        let _ = write!(path, "[{k}]");
    }
    path.push_str("/@");
    path.push_str(attribute);
    path
}

/// Where a record's elements stand in its source, as its rules' visitor saw them (byte
/// offsets; 0 for a record built in memory, which has no source): what the rules anchor
/// their findings at.
#[derive(Default)]
pub struct Anchors<'s> {
    /// Each move, by its index in the move list.
    pub(crate) moves: Vec<MoveAnchor>,
    /// The start position: 2007 Board/@value, 1.0 FEN.
    pub(crate) start: usize,
    /// The recorded result: 2007 Result/@value, 1.0 RecordResult.
    pub(crate) result: usize,
    /// The record's element as read, to look up the attributes of moves noted by their
    /// start tag alone.
    pub(crate) at: Option<&'s At<'s>>,
}

/// Where one move stands: its start tag, and its attributes (the start tag's offset for one
/// it lacks) unless they are to be looked up in the text read ([`At::attribute_of`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum MoveAnchor {
    /// The start tag; the text read is at hand.
    Tag(usize),
    /// Each attribute, noted as the move was read (the text read is not kept).
    Attributes {
        nid: usize,
        value: usize,
        branch: usize,
        end: usize,
    },
}

impl Anchors<'_> {
    /// The offset of attribute `attribute` of the `k`-th move (1-based; 0 if unknown).
    pub(crate) fn of_move(&self, k: usize, attribute: &str) -> usize {
        let Some(m) = k.checked_sub(1).and_then(|i| self.moves.get(i)) else {
            return 0;
        };
        match *m {
            MoveAnchor::Tag(tag) => self
                .at
                .and_then(|at| at.attribute_of(tag, attribute))
                .unwrap_or(tag),
            MoveAnchor::Attributes {
                nid,
                value,
                branch,
                end,
            } => match attribute {
                "nid" => nid,
                "branch" => branch,
                "end" => end,
                _ => value,
            },
        }
    }
}

/// The Board value of a 2007 record, read (`None` when absent).
pub(crate) fn board_of(doc: &cbf_2007::ChineseChessRecord) -> Option<&StartPosition<BoardForm>> {
    doc.head.board.as_ref().and_then(|b| b.value.as_ref())
}

/// The FEN of a 1.0 record, read (`None` when absent).
pub(crate) fn fen_of(doc: &cbf_1_0::ChineseChessRecord) -> Option<&StartPosition<FenForm>> {
    doc.head.fen.as_ref()
}

/// The recorded result code of a 2007 record, with its path.
pub(crate) fn result_2007(doc: &cbf_2007::ChineseChessRecord) -> Option<(u8, &'static str)> {
    doc.head
        .result
        .as_ref()
        .map(|res| (res.value.get(), RESULT_PATH_2007))
}

/// The recorded result code of a 1.0 record, with its path (3 and 4 are both draws).
pub(crate) fn result_1_0(doc: &cbf_1_0::ChineseChessRecord) -> Option<(u8, &'static str)> {
    match &doc.head.record_result {
        Some(cbf_1_0::RecordResultField::ResultCode(c)) => Some((c.get().min(3), RESULT_PATH_1_0)),
        _ => None,
    }
}

/// The start position a record states (read once, with its value): missing or empty is
/// the standard start; one that cannot be read is a finding at `offset` and `path`.
pub(crate) fn parse_start<F>(
    start: Option<&StartPosition<F>>,
    (offset, path): (usize, &str),
    code: Code,
    issues: &mut Vec<Diagnostic>,
) -> Option<Position> {
    match start.and_then(StartPosition::position) {
        None => Some(Position::start()),
        Some(Ok(p)) => Some(p.clone()),
        Some(Err(e)) => {
            let text = start.map(|s| s.as_str().trim()).unwrap_or_default();
            issues.push(
                Diagnostic::error(
                    code,
                    offset,
                    path,
                    format!("the start position cannot be read: {e}"),
                )
                .found(text.to_string()),
            );
            None
        }
    }
}

impl Record {
    /// The index of the last move of the main line (`None` if there are no moves).
    pub fn main_line_end(&self) -> usize {
        let mut at = match self.root_children.first() {
            Some(&i) => i,
            None => return usize::MAX,
        };
        while let Some(&next) = self.moves[at].children.first() {
            at = next;
        }
        at
    }

    /// The moves from the start up to and including move `index`.
    pub fn line_to(&self, index: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut at = Some(index);
        while let Some(i) = at {
            line.push(self.moves[i].mv);
            at = self.moves[i].parent;
        }
        line.reverse();
        line
    }

    fn push_move(
        &mut self,
        mv: Move,
        comment: String,
        path: String,
        parent: Option<usize>,
    ) -> usize {
        let index = self.moves.len();
        self.moves.push(MoveNode {
            mv,
            comment,
            path,
            parent,
            children: Vec::new(),
        });
        match parent {
            Some(p) => self.moves[p].children.push(index),
            None => self.root_children.push(index),
        }
        index
    }

    /// The start position, from its text in the head (`code`: the diagnostic of text that
    /// is no position).
    fn set_start<F>(&mut self, start: Option<&StartPosition<F>>, code: Code) {
        self.start_text = start.map(|s| s.as_str().to_string()).unwrap_or_default();
        self.start = parse_start(
            start,
            (0, &self.start_path),
            code,
            &mut self.structure_issues,
        );
    }

    /// The moves of the document, placed in their tree by `place` (the dialect's, which
    /// hands each move with its index and parent to the function it is given), each with
    /// its comment (`comment` of its index).
    fn place_moves(
        &mut self,
        place: impl FnOnce(&mut Vec<Diagnostic>, &mut dyn FnMut(Move, usize, Option<usize>) -> usize),
        comment: impl Fn(usize) -> String,
    ) {
        let mut issues = std::mem::take(&mut self.structure_issues);
        place(&mut issues, &mut |mv, i, parent| {
            self.push_move(mv, comment(i), move_path(i + 1, "value"), parent)
        });
        self.structure_issues = issues;
    }

    fn empty(dialect: Dialect, start_path: &str) -> Record {
        Record {
            dialect,
            head: Vec::new(),
            start: None,
            start_text: String::new(),
            start_path: start_path.to_string(),
            game_comment: None,
            moves: Vec::new(),
            root_children: Vec::new(),
            result: None,
            structure_issues: Vec::new(),
        }
    }

    /// A 2007 record: Board string, `nid` tree.
    pub fn from_2007(doc: &cbf_2007::ChineseChessRecord) -> Record {
        let mut r = Record::empty(Dialect::V2007, START_PATH_2007);
        r.result = result_2007(doc).map(|(code, path)| (code, path.to_string()));
        let h: &cbf_2007::Head = &doc.head;
        // Every head field of one simple value, as the schema lists them; Type and Result
        // carry a code and a label, the Board value is the start position (below).
        r.head = text_fields(h, &[]);
        if let Some(t) = &h.r#type {
            r.head.push(HeadField {
                name: "Type",
                value: t.value.get().to_string(),
                label: Some(t.content.clone()),
            });
        }
        if let Some(res) = &h.result {
            r.head.push(HeadField {
                name: "Result",
                value: res.value.get().to_string(),
                label: Some(res.content.clone()),
            });
        }
        r.game_comment = h.comment.clone();
        r.set_start(board_of(doc), codes::BOARD_STRING);
        let moves = &doc.move_list.r#move;
        r.place_moves(
            |issues, add| place_2007(doc, &Anchors::default(), issues, add),
            |i| moves[i].content.clone(),
        );
        r
    }

    /// A 1.0 record: FEN, `00-00` root move, `branch`/`end` tree.
    pub fn from_1_0(doc: &cbf_1_0::ChineseChessRecord) -> Record {
        let mut r = Record::empty(Dialect::V1_0, START_PATH_1_0);
        r.result = result_1_0(doc).map(|(code, path)| (code, path.to_string()));
        let h: &cbf_1_0::Head = &doc.head;
        // Every head field of one simple value, as the schema lists them (RecordType and
        // RecordResult included); the FEN is the start position (below).
        r.head = text_fields(h, &[START_FIELD_1_0]);
        r.set_start(fen_of(doc), codes::FEN);
        let moves = &doc.move_list.r#move;
        if let Some(first) = moves.first() {
            if first.value.is_placeholder() && !first.content.is_empty() {
                r.game_comment = Some(first.content.clone());
            }
        }
        r.place_moves(
            |issues, add| place_1_0(doc, &Anchors::default(), issues, add),
            |i| moves[i].content.clone(),
        );
        r
    }
}

/// The head fields that are plain text, in the order given, where present.
/// The fields of a head that hold one simple value and are present, in schema order, from
/// the generated type's field table: a field added to a schema is read without a line here.
fn text_fields<H: Complex>(head: &H, skip: &[&str]) -> Vec<HeadField> {
    H::FIELDS
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == Kind::Element && !skip.contains(&f.xml))
        .filter_map(|(i, f)| {
            Some(HeadField {
                name: f.xml,
                value: head.text(i)?.into_owned(),
                label: None,
            })
        })
        .collect()
}

/// Places the moves of a 2007 record in their tree, in document order: `add(move, index in
/// the move list, parent)` is called for each move placed and returns its node index.
/// Moves whose value cannot be read are passed over; the first structural problem goes to
/// `issues` and ends the placing. Shared by [`Record::from_2007`] and the rule check, so
/// that both see the same tree.
pub(crate) fn place_2007(
    doc: &cbf_2007::ChineseChessRecord,
    at: &Anchors<'_>,
    issues: &mut Vec<Diagnostic>,
    mut add: impl FnMut(Move, usize, Option<usize>) -> usize,
) {
    // nid: the move with nid n is the child of the nearest earlier move with nid n-1.
    // As deep as the record is long at most; sized once rather than grown along a game.
    let mut last_with_nid: Vec<usize> = Vec::with_capacity(doc.move_list.r#move.len());
    let mut previous_nid = 0u64;
    for (i, m) in doc.move_list.r#move.iter().enumerate() {
        let k = i + 1;
        // xs:positiveInteger is unbounded: a nid beyond u64 is further than any record
        // reaches, so a jump (reported as written).
        let written = m.nid.get();
        let nid = written
            .to_i128()
            .and_then(|v| u64::try_from(v).ok())
            .unwrap_or(u64::MAX);
        let mv = m.value.get();
        let bad = if i == 0 && nid != 1 {
            Some(format!(
                "the first move has nid {written}; a record starts at nid 1"
            ))
        } else if nid > previous_nid + 1 {
            Some(format!("nid jumps from {previous_nid} to {written}: a move's nid is at most one more than the move before it"))
        } else {
            None
        };
        if let Some(message) = bad {
            issues.push(
                Diagnostic::error(
                    codes::MOVE_TREE,
                    at.of_move(k, "nid"),
                    move_path(k, "nid"),
                    message,
                )
                .expected(format!("a nid from 1 to {}", previous_nid + 1))
                .found(written.to_string()),
            );
            // The rest of the tree cannot be placed.
            return;
        }
        let parent = if nid == 1 {
            None
        } else {
            Some(last_with_nid[(nid - 2) as usize])
        };
        let index = add(mv, i, parent);
        last_with_nid.truncate((nid - 1) as usize);
        last_with_nid.push(index);
        previous_nid = nid;
    }
}

/// Places the moves of a 1.0 record in their tree, as [`place_2007`] does: the `00-00`
/// placeholder first, then `branch`/`end`.
pub(crate) fn place_1_0(
    doc: &cbf_1_0::ChineseChessRecord,
    at: &Anchors<'_>,
    issues: &mut Vec<Diagnostic>,
    mut add: impl FnMut(Move, usize, Option<usize>) -> usize,
) {
    let moves = &doc.move_list.r#move;
    match moves.first() {
        Some(first) if first.value.is_placeholder() => {}
        Some(first) => {
            issues.push(
                Diagnostic::error(codes::ROOT_MOVE, at.of_move(1, "value"), move_path(1, "value"), "the first move of a 1.0 record must be the 00-00 placeholder (it carries the game comment)")
                    .expected("00-00")
                    .found(first.value.to_string()),
            );
            return;
        }
        None => return,
    }
    // Parents remembered at each branch="1"; end="1" returns to the most recent one.
    let mut remembered: Vec<(Option<usize>, usize)> = Vec::new();
    let mut parent: Option<usize> = None;
    let mut ended: Option<usize> = None;
    for (i, m) in moves.iter().enumerate().skip(1) {
        let k = i + 1;
        if m.value.is_placeholder() {
            issues.push(
                Diagnostic::error(
                    codes::ROOT_MOVE,
                    at.of_move(k, "value"),
                    move_path(k, "value"),
                    "00-00 is only the placeholder first move",
                )
                .expected("a move XY-XY between two points")
                .found("00-00"),
            );
            return;
        }
        let mv = m.value.get();
        if let Some(end_k) = ended.take() {
            match remembered.pop() {
                Some((p, _)) => parent = p,
                None => {
                    issues.push(
                        Diagnostic::error(
                            codes::MOVE_TREE,
                            at.of_move(end_k, "end"),
                            move_path(end_k, "end"),
                            format!("end=\"1\" closes the main line, yet move {} follows with no open branch", m.value),
                        )
                        .expected("a branch=\"1\" earlier on this line, or no more moves")
                        .found(format!("{} more move(s)", moves.len() - i)),
                    );
                    return;
                }
            }
        }
        let flag = |f: &Option<cbf_1_0::Flag>| f.is_some_and(|f| f.get() == 1);
        if flag(&m.branch) {
            remembered.push((parent, k));
        }
        let index = add(mv, i, parent);
        parent = Some(index);
        if flag(&m.end) {
            ended = Some(k);
        }
    }
    if let Some((_, k)) = remembered.first() {
        issues.push(
            Diagnostic::error(codes::MOVE_TREE, at.of_move(*k, "branch"), move_path(*k, "branch"), "branch=\"1\" announces a later sibling of this move, but the record ends before it")
                .expected("a variation after this move's line ends")
                .found("the end of the record"),
        );
    }
}
