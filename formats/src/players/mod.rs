//! The formats players keep their games in, read strictly into the dialect-neutral
//! [`Record`]: XQF (象棋演播室, binary, every version, obfuscated from 1.0 on), XiangQi
//! Bridge's binary CBR record and CBL library (UTF-16LE), and PGN as XQWizard (象棋巫师)
//! writes it (ICCS, Chinese or WXF move text, GBK or UTF-8, comments, variations, `[FEN]`).
//!
//! Every move is checked under the full rules of xiangqi while it is read; every problem is
//! a [`Diagnostic`] with a stable code (docs/errors.md, E05xx) and a position: a byte
//! offset in the file for the binary formats (line and column 0), a line and column for
//! PGN. Nothing is skipped silently: a move that cannot be played is an error, and what
//! follows it on its line (which has no position to be played in) is left out of the
//! record, so that `convert --salvage` can keep what came before.
//!
//! The records use the head field names of CBF 1.0 (`Name`, `Contest`, `Red`, ...), so
//! that converting one to CBF is a plain copy.

pub mod cbr;
pub mod pgn;
pub mod xqf;

use crate::codes;
use boardxml_xiangqi::{IllegalMove, LegalPosition, Move, Position, Side};

use crate::cbf::record::{Dialect, HeadField, MoveNode, Record};
use crate::cbf::rules::{line_shown, LINE_SHOWN};
use boardxml::diagnostic::{Code, Diagnostic, Severity};

/// A players' format, as told by a file's first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// XQF (`XQ` magic).
    Xqf,
    /// One XiangQi Bridge record (`CCBridge Record\0`).
    Cbr,
    /// A XiangQi Bridge library (`CCBridgeLibrary\0`).
    Cbl,
    /// PGN (text whose first non-blank character is `[` or `{` or a move number).
    Pgn,
}

impl Kind {
    /// Tells the format from the first bytes (`None`: not one of these; XML is left to
    /// the XML reader).
    pub fn sniff(head: &[u8]) -> Option<Kind> {
        if head.starts_with(cbr::RECORD_MAGIC) {
            return Some(Kind::Cbr);
        }
        if head.starts_with(cbr::LIBRARY_MAGIC) {
            return Some(Kind::Cbl);
        }
        if head.starts_with(b"XQ") && head.len() >= 3 {
            return Some(Kind::Xqf);
        }
        let text = head.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(head);
        let first = text.iter().find(|b| !b.is_ascii_whitespace())?;
        matches!(first, b'[').then_some(Kind::Pgn)
    }

    /// The name users see.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Xqf => "xqf",
            Kind::Cbr => "cbr",
            Kind::Cbl => "cbl",
            Kind::Pgn => "pgn",
        }
    }
}

/// One record of a file, with the title a library gives it (for output names).
#[derive(Debug, Clone)]
pub struct Titled {
    /// The record's title (its Name field, else empty).
    pub title: String,
    /// The record.
    pub record: Record,
    /// Where it starts in the file (bytes).
    pub offset: usize,
    /// Whether every problem found in it was a warning.
    pub valid: bool,
}

/// What reading a file gave.
#[derive(Debug, Clone)]
pub struct Read {
    /// The format.
    pub kind: Kind,
    /// Its records (one, but for a library), each as far as it could be read.
    pub records: Vec<Titled>,
    /// Every problem, in file order; PGN ones carry line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// The encoding of its text (GBK for XQF, UTF-16LE for CBR/CBL, GBK or UTF-8 for PGN).
    pub encoding: &'static encoding_rs::Encoding,
    /// For PGN: the text, for excerpts of its diagnostics.
    pub text: Option<String>,
}

impl Read {
    /// What was read of a file of a binary format (XQF in GBK, CBR and CBL in UTF-16LE):
    /// its diagnostics place bytes, so no text is kept.
    pub(crate) fn binary(kind: Kind, records: Vec<Titled>, diagnostics: Vec<Diagnostic>) -> Read {
        let encoding = match kind {
            Kind::Xqf => encoding_rs::GBK,
            _ => encoding_rs::UTF_16LE,
        };
        Read {
            kind,
            records,
            diagnostics,
            encoding,
            text: None,
        }
    }
}

/// Reads `bytes` as `kind`.
pub fn read(kind: Kind, bytes: &[u8]) -> Read {
    match kind {
        Kind::Xqf => xqf::read(bytes),
        Kind::Cbr => cbr::read_record_file(bytes),
        Kind::Cbl => cbr::read_library(bytes),
        Kind::Pgn => pgn::read(bytes),
    }
}

/// Where a move hangs in the tree being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parent {
    /// A first move (from the start position).
    Root,
    /// After the node.
    Node(usize),
    /// After a move that could not be played: not checked, not kept.
    Lost,
}

/// Builds a record move by move, checking each under the rules as it comes (in any order
/// of parents), with the position after every node kept for its children.
pub(crate) struct Builder {
    pub(crate) record: Record,
    start: Option<LegalPosition>,
    /// The position after each node.
    after: Vec<LegalPosition>,
    /// The ply of each node in its line (a first move's is 1), for messages that name it
    /// without walking the line back to the start.
    plies: Vec<usize>,
    /// Whether the side to move at the start is still open: formats that do not store it
    /// (XQF) take it from the first move.
    side_open: bool,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The moves left out because they followed an illegal one.
    pub(crate) lost: usize,
}

impl Builder {
    /// A record from `start` (checked: an impossible position is an E0304 at `at`).
    pub(crate) fn new(start: Position, side_open: bool, at: Place) -> Builder {
        let mut diagnostics = Vec::new();
        let legal = match LegalPosition::new(start.clone()) {
            Ok(p) => Some(p),
            Err(problems) => {
                // With the side open, the other side may be the one to move.
                let mut flipped = start.clone();
                flipped.set_side_to_move(start.side_to_move().opponent());
                match (side_open, LegalPosition::new(flipped)) {
                    (true, Ok(p)) => Some(p),
                    _ => {
                        for problem in problems {
                            diagnostics.push(at.error(
                                codes::ILLEGAL_POSITION,
                                "start position",
                                format!("the start position is not legal: {problem}"),
                            ));
                        }
                        None
                    }
                }
            }
        };
        let record = Record {
            dialect: Dialect::V1_0,
            head: Vec::new(),
            start: Some(start.clone()),
            start_text: if crate::cbf::convert::is_standard_start(&start) {
                String::new()
            } else {
                start.to_fen()
            },
            start_path: at.path("start position"),
            game_comment: None,
            moves: Vec::new(),
            root_children: Vec::new(),
            result: None,
            structure_issues: Vec::new(),
        };
        Builder {
            record,
            start: legal,
            after: Vec::new(),
            plies: Vec::new(),
            side_open,
            diagnostics,
            lost: 0,
        }
    }

    /// A move at `at` whose squares (`from`, `to`: 0..89 on the board) are not both on the
    /// board: reported, and what follows it on its line is lost.
    pub(crate) fn off_board(&mut self, at: Place, squares: [u8; 2], expected: &str) -> Parent {
        let bad = squares.into_iter().find(|&s| s >= 90).unwrap_or(squares[1]);
        self.diagnostics.push(
            at.error(
                codes::MOVE_SQUARE,
                "move",
                format!("a move square {bad} is off the board (squares are 0..89)"),
            )
            .expected(expected)
            .found(bad.to_string()),
        );
        self.lost += 1;
        Parent::Lost
    }

    /// A head field (skipped when empty: an empty field says nothing).
    pub(crate) fn head(&mut self, name: &'static str, value: &str) {
        if !value.is_empty() {
            self.record.head.push(HeadField {
                name,
                value: value.to_string(),
                label: None,
            });
        }
    }

    /// The position a child of `parent` is played in.
    pub(crate) fn position(&self, parent: Parent) -> Option<&Position> {
        match parent {
            Parent::Root => self.start.as_ref().map(LegalPosition::position),
            Parent::Node(n) => self.after.get(n).map(LegalPosition::position),
            Parent::Lost => None,
        }
    }

    /// Adds `mv` after `parent`; an illegal move is an E0307 at `at` and gives
    /// [`Parent::Lost`] (its line is not kept).
    pub(crate) fn add(&mut self, parent: Parent, mv: Move, comment: String, at: Place) -> Parent {
        let before = match parent {
            Parent::Lost => {
                self.lost += 1;
                return Parent::Lost;
            }
            Parent::Root => match &mut self.start {
                Some(start) => {
                    // The side to move, where the format does not say it, is the first
                    // move's.
                    if self.side_open && self.record.root_children.is_empty() {
                        if let Some(piece) = start.position().piece_at(mv.from) {
                            if piece.side != start.position().side_to_move() {
                                let mut p = start.position().clone();
                                p.set_side_to_move(piece.side);
                                if let Ok(l) = LegalPosition::new(p.clone()) {
                                    *start = l;
                                    self.record.start_text = p.to_fen();
                                    self.record.start = Some(p);
                                }
                            }
                        }
                        self.side_open = false;
                    }
                    start.clone()
                }
                None => {
                    self.lost += 1;
                    return Parent::Lost;
                }
            },
            Parent::Node(n) => self.after[n].clone(),
        };
        // `play` leaves the position as it was when the move is illegal: `after` is then
        // the position before, for the message.
        let mut after = before;
        if let Err(reason) = after.play(mv) {
            let d = self.illegal(after.position(), parent, mv, reason, at);
            self.diagnostics.push(d);
            self.lost += 1;
            return Parent::Lost;
        }
        let index = self.record.moves.len();
        let parent_index = match parent {
            Parent::Node(n) => Some(n),
            _ => None,
        };
        self.record.moves.push(MoveNode {
            mv,
            comment,
            path: at.move_path(),
            parent: parent_index,
            children: Vec::new(),
        });
        match parent_index {
            Some(p) => self.record.moves[p].children.push(index),
            None => self.record.root_children.push(index),
        }
        self.after.push(after);
        self.plies
            .push(parent_index.map_or(1, |p| self.plies[p] + 1));
        Parent::Node(index)
    }

    fn illegal(
        &self,
        position: &Position,
        parent: Parent,
        mv: Move,
        reason: IllegalMove,
        at: Place,
    ) -> Diagnostic {
        // The line's last moves only, walked back from the parent (see LINE_SHOWN).
        let mut shown = vec![mv];
        let mut back = match parent {
            Parent::Node(n) => Some(n),
            _ => None,
        };
        while let Some(n) = back.filter(|_| shown.len() < LINE_SHOWN) {
            shown.push(self.record.moves[n].mv);
            back = self.record.moves[n].parent;
        }
        shown.reverse();
        let ply = match parent {
            Parent::Node(n) => self.plies[n] + 1,
            _ => 1,
        };
        let line = line_shown(ply, shown.iter().map(|m| m.iccs()));
        let piece = position
            .piece_at(mv.from)
            .map(|p| format!("{} ", p.chinese_name()))
            .unwrap_or_default();
        let side = match position.side_to_move() {
            Side::Red => "red",
            Side::Black => "black",
        };
        at.error(
            codes::ILLEGAL_MOVE,
            "move",
            format!(
                "illegal move {piece}{} ({}) at ply {ply} of the line {line}: {reason}",
                mv.cbf(),
                mv.iccs(),
            ),
        )
        .expected(format!("a legal move for {side}"))
        .found(format!("{} ({})", mv.cbf(), mv.iccs()))
    }

    /// The record and the problems found.
    pub(crate) fn finish(self) -> (Record, Vec<Diagnostic>) {
        (self.record, self.diagnostics)
    }
}

/// Where something is in the file: a byte offset (binary formats), or a byte offset in
/// the text with its line and column (PGN).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Place {
    pub(crate) offset: usize,
    pub(crate) line: u32,
    pub(crate) column: u32,
}

impl Place {
    /// A byte offset in a binary file.
    pub(crate) fn byte(offset: usize) -> Place {
        Place {
            offset,
            line: 0,
            column: 0,
        }
    }

    /// The path of what is there, for diagnostics: `what @ byte N` or `what @ L:C`.
    pub(crate) fn path(self, what: &str) -> String {
        if self.line == 0 {
            format!("{what} at byte {}", self.offset)
        } else {
            format!("{what} at {}:{}", self.line, self.column)
        }
    }

    /// [`Place::path`] of a move, built without `format!` (one a move of every record).
    pub(crate) fn move_path(self) -> String {
        use std::fmt::Write;
        let mut s = String::with_capacity(24);
        if self.line == 0 {
            s.push_str("move at byte ");
            let _ = write!(s, "{}", self.offset);
        } else {
            s.push_str("move at ");
            let _ = write!(s, "{}:{}", self.line, self.column);
        }
        s
    }

    /// An error here.
    pub(crate) fn error(self, code: Code, what: &str, message: impl Into<String>) -> Diagnostic {
        self.placed(Diagnostic::error(code, self.offset, what, message))
    }

    /// A warning here.
    pub(crate) fn warning(self, code: Code, what: &str, message: impl Into<String>) -> Diagnostic {
        self.placed(Diagnostic::new(
            Severity::Warning,
            code,
            self.offset,
            what,
            message,
        ))
    }

    fn placed(self, mut d: Diagnostic) -> Diagnostic {
        d.line = self.line;
        d.column = self.column;
        d
    }
}

/// A text field of a binary format, as its diagnostics name it: its encoding, where it
/// is, what it is, what is wrong with bytes that are not text (`the {what} {problem}`),
/// and what was expected.
pub(crate) struct Text<'a> {
    pub(crate) encoding: &'static encoding_rs::Encoding,
    pub(crate) offset: usize,
    pub(crate) what: &'a str,
    pub(crate) problem: &'a str,
    pub(crate) expected: &'a str,
}

impl Text<'_> {
    /// Decodes `bytes` (the field up to its end) strictly: bad bytes are an E0503 at the
    /// field, and the text is then given with replacement characters, so that the rest
    /// can still be read.
    pub(crate) fn decode(&self, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> String {
        let strict = self
            .encoding
            .decode_without_bom_handling_and_without_replacement(bytes);
        if let Some(text) = strict {
            return text.into_owned();
        }
        let what = self.what;
        diagnostics.push(
            Place::byte(self.offset)
                .error(
                    codes::TEXT_BYTES,
                    what,
                    format!("the {what} {}", self.problem),
                )
                .expected(self.expected)
                .found(format!("{:02X?}", &bytes[..bytes.len().min(16)])),
        );
        let (text, _) = self.encoding.decode_without_bom_handling(bytes);
        text.into_owned()
    }
}

/// The file ends inside `what`, at `at`, `len` bytes short.
pub(crate) fn truncated(at: usize, what: &str, len: usize) -> Diagnostic {
    Place::byte(at)
        .error(
            codes::TRUNCATED,
            what,
            format!("the file ends inside the {what}"),
        )
        .expected(format!("{len} more bytes"))
        .found("the end of the file")
}

/// Whether none of `diagnostics` is an error.
pub(crate) fn all_warnings(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().all(|d| d.severity != Severity::Error)
}

/// The record's title: its Name field.
pub(crate) fn title_of(record: &Record) -> String {
    record
        .head
        .iter()
        .find(|f| f.name == "Name")
        .map(|f| f.value.clone())
        .unwrap_or_default()
}

/// A record cut back to its legal part, for `convert --salvage`: every line up to the move
/// before its first illegal one (what follows has no position to be played in). Gives the
/// record and how many moves were left out. The head, start and comments are kept.
pub fn salvage(record: &Record) -> (Record, usize) {
    let Some(start) = record.start.clone() else {
        return (record.clone(), 0);
    };
    let mut b = Builder::new(start, false, Place::byte(0));
    let mut stack: Vec<(usize, Parent)> = record
        .root_children
        .iter()
        .rev()
        .map(|&m| (m, Parent::Root))
        .collect();
    let mut seen = vec![false; record.moves.len()];
    while let Some((m, parent)) = stack.pop() {
        let Some(node) = record.moves.get(m).filter(|_| !seen[m]) else {
            continue;
        };
        seen[m] = true;
        let placed = b.add(parent, node.mv, node.comment.clone(), Place::byte(0));
        if let Parent::Node(n) = placed {
            b.record.moves[n].path = node.path.clone();
        }
        stack.extend(node.children.iter().rev().map(|&c| (c, placed)));
    }
    let lost = record.moves.len() - b.record.moves.len();
    let mut out = b.record;
    out.dialect = record.dialect;
    out.head = record.head.clone();
    out.start_text = record.start_text.clone();
    out.start_path = record.start_path.clone();
    out.game_comment = record.game_comment.clone();
    out.result = record.result.clone();
    (out, lost)
}
