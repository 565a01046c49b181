//! Converting a [`Record`] (read from either dialect) to the 1.0 dialect, the 2007 dialect,
//! PGN ([`crate::cbf::pgn`]) or JSON. Every conversion returns its output and the list of
//! [`Loss`]es: what the target cannot hold, each said once, with a message a user can act on.
//!
//! # Head mapping
//!
//! | 2007                      | 1.0                         | Decision / loss                                                                 |
//! |---------------------------|-----------------------------|---------------------------------------------------------------------------------|
//! | Name, URL, Round, Date, Site, TimeRule, Red, RedTeam, RedTime, Black, BlackTeam, BlackTime, Commentator, CommentatorURL, Creator, CreatorURL, DateCreated, DateModified | same names | copied as written (dates are free text in both) |
//! | Event                     | Contest                     | the same thing (the competition's name); 1.0's ContestType is its *kind*         |
//! | —                         | From, ContestType, Group, Table, RedRating, BlackRating, Referee, Recorder, ECCO, RecordKind, ResultType | 2007 has no place: a loss when the text is not empty (an empty element, as XiangQi Bridge writes for unknown values, carries nothing) |
//! | Type `value` 0..4         | RecordType                  | the same code; 1.0 RecordType codes above 4 (undocumented) have no 2007 value: a loss, Type omitted |
//! | Type text (label)         | —                           | 1.0 has no place for the display label: a loss, unless it is empty or the code's own label, which 1.0 → 2007 writes back (未知, 实战全局, 摆谱全局, 实战残局, 摆谱残局) |
//! | Result `value` 0..3       | RecordResult                | the same code; 1.0's 4 (a draw whose nuance is unknown) becomes 3: a loss          |
//! | Result text (label)       | —                           | as for Type; the codes' own labels are 未知, 红胜, 黑胜, 和棋                      |
//! | Board `value`             | FEN                         | the same position, side to move and move number, each written whenever the source wrote one (absent stays absent: the standard start). FEN's half-move clock has no place in a Board string: a loss when it is not 0 |
//! | Comment                   | text of the `00-00` move    | the game comment                                                                |
//!
//! An empty RecordType or RecordResult (XiangQi Bridge writes them empty) means "not given":
//! no Type/Result is written. Moves: 2007 `nid` (ply in the line, depth-first) and 1.0
//! `branch`/`end` (depth-first, first child first) hold the same tree; a comment is CDATA.
//! Converting within a dialect rewrites it canonically and loses nothing.
//!
//! So 2007 → 1.0 → 2007 gives back the same record but for Type/Result labels other than
//! the codes' own (reported when 2007 → 1.0 drops them) and an empty game comment (the 1.0
//! placeholder cannot tell an empty Comment from a missing one).
//!
//! JSON ([`to_json`]) holds everything: the head as written (with the 2007 labels), the start
//! position, the main line with its variations nested, each move in CBF, ICCS, Chinese and
//! WXF notation. It loses nothing.

use std::fmt;

use boardxml_xiangqi::{Move, Position, Side, START_FEN};
use serde::Serialize;

use crate::cbf::record::{Dialect, HeadField, Record};
use crate::document::Document;
use crate::generated::{cbf_1_0, cbf_2007};
use boardxml::complex::Complex;
use boardxml::schema::{FacetError, SimpleValue, TextForm};

/// Something of the source that the target cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Loss {
    /// The source field or feature, e.g. `RedRating`, `Result label`, `FEN half-move clock`.
    pub field: String,
    /// What is lost and why, for a user.
    pub message: String,
}

impl Loss {
    /// Whether it is only a note: the 2007 display label of a Type or Result code (such as
    /// 实战全局) that the target has no place for, while the code itself is kept. A player
    /// does not need it as a warning; `convert --verbose` shows it.
    pub fn is_note(&self) -> bool {
        self.field.ends_with(" label")
    }

    pub(crate) fn new(field: impl Into<String>, message: impl Into<String>) -> Loss {
        Loss {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// The output of a conversion and what it could not hold.
#[derive(Debug, Clone)]
pub struct Converted<T> {
    /// The converted record.
    pub output: T,
    /// What the target cannot hold, in head order, then moves.
    pub losses: Vec<Loss>,
}

/// Why a record cannot be converted at all (only a record that is not valid gets here).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// The start position could not be read.
    #[error("the start position cannot be read")]
    NoStartPosition,
    /// A move of a line is not legal in its position.
    #[error("move {mv} (ply {ply} of its line) is not legal: {reason}")]
    IllegalMove {
        /// The move, in ICCS.
        mv: String,
        /// Its ply in its line (1-based).
        ply: usize,
        /// Why.
        reason: String,
    },
    /// A value does not fit the target's schema type.
    #[error("{field}: {error}")]
    Facet {
        /// The field.
        field: String,
        /// The facet it breaks.
        error: FacetError,
    },
}

fn facet(field: &str) -> impl FnOnce(FacetError) -> ConvertError + '_ {
    move |error| ConvertError::Facet {
        field: field.to_string(),
        error,
    }
}

/// The record of a CBF document (`None` for CIF).
pub fn record_of(document: &Document) -> Option<Record> {
    match document {
        Document::Cbf2007(cbf_2007::Root::ChineseChessRecord(r)) => Some(Record::from_2007(r)),
        Document::Cbf10(cbf_1_0::Root::ChineseChessRecord(r)) => Some(Record::from_1_0(r)),
        Document::Cif(_) => None,
    }
}

/// The head fields that are one thing under two names, 2007 name first. Every other field
/// of one simple value goes to the field of the same name in the target's schema (found in
/// its generated field table), or is reported as lost.
pub const SAME_FIELD: &[(&str, &str)] = &[("Event", "Contest")];

/// The head fields the conversions read and write themselves rather than by name: codes
/// with display labels, the start position, the game comment (2007's `Comment`, 1.0's
/// `00-00` move), 2007 name first where the two dialects name one thing.
pub const CONVERTED_FIELDS: &[(&str, &str)] = &[
    ("Type", "RecordType"),
    ("Result", "RecordResult"),
    ("Board", "FEN"),
    ("Comment", ""),
];

/// The head fields only the 1.0 dialect has: 2007 has no place for them.
pub const ONLY_1_0: &[&str] = &[
    "From",
    "ContestType",
    "Group",
    "Table",
    "RedRating",
    "BlackRating",
    "Referee",
    "Recorder",
    "ECCO",
    "RecordKind",
    "ResultType",
];

/// The head fields only the 2007 dialect has (none: its Comment is 1.0's placeholder text).
pub const ONLY_2007: &[&str] = &[];

fn to_1_0_name(name: &str) -> &str {
    SAME_FIELD
        .iter()
        .find(|(v2007, _)| *v2007 == name)
        .map_or(name, |(_, v1_0)| v1_0)
}

fn to_2007_name(name: &str) -> &str {
    SAME_FIELD
        .iter()
        .find(|(_, v1_0)| *v1_0 == name)
        .map_or(name, |(v2007, _)| v2007)
}

/// Sets the head field named `name` from its text, through the generated type's field table;
/// `false` when the head has no such field of one simple value.
fn set_field<H: Complex>(head: &mut H, name: &str, value: &str) -> Result<bool, ConvertError> {
    match H::field_index(name) {
        Some(i) => head
            .set_text(i, value)
            .map_err(|error| ConvertError::Facet {
                field: name.to_string(),
                error,
            }),
        None => Ok(false),
    }
}

/// The display label 2007 readers show for a Type code (SPEC: 实战全局 etc.).
pub fn type_label(code: u8) -> &'static str {
    match code {
        1 => "实战全局",
        2 => "摆谱全局",
        3 => "实战残局",
        4 => "摆谱残局",
        _ => "未知",
    }
}

/// The display label 2007 readers show for a Result code.
pub fn result_label(code: u8) -> &'static str {
    match code {
        1 => "红胜",
        2 => "黑胜",
        3 => "和棋",
        _ => "未知",
    }
}

fn text_form(comment: &str) -> TextForm {
    if comment.is_empty() {
        TextForm::Text
    } else {
        TextForm::CData
    }
}

fn start_position(record: &Record) -> Result<&Position, ConvertError> {
    record.start.as_ref().ok_or(ConvertError::NoStartPosition)
}

/// Whether the source wrote a start position (absent or empty means the standard start).
fn start_written(record: &Record) -> bool {
    !record.start_text.trim().is_empty()
}

/// The label of a 2007 Type/Result field, when it says more than its code: empty labels
/// and the code's own label (which a conversion to 2007 writes back) say nothing more.
pub(crate) fn telling_label(f: &HeadField) -> Option<&str> {
    let label = f.label.as_deref()?.trim();
    let code = f.value.trim().parse::<u8>().ok();
    let own = match (f.name, code) {
        ("Type", Some(c)) => Some(type_label(c)),
        ("Result", Some(c)) => Some(result_label(c)),
        _ => None,
    };
    (!label.is_empty() && own != Some(label)).then_some(label)
}

fn label_loss(losses: &mut Vec<Loss>, f: &HeadField) {
    let field = f.name;
    if let Some(l) = telling_label(f) {
        losses.push(Loss::new(
            format!("{field} label"),
            format!(
                "the display label \"{l}\" has no place in the 1.0 dialect (only the code is kept)"
            ),
        ));
    }
}

/// Converts to the 1.0 dialect (`Version="1.0"`, FEN, `00-00` placeholder, `branch`/`end`).
pub fn to_cbf_1_0(record: &Record) -> Result<Converted<cbf_1_0::ChineseChessRecord>, ConvertError> {
    let start = start_position(record)?;
    let mut losses = Vec::new();
    let mut head = cbf_1_0::Head::default();
    for f in &record.head {
        match f.name {
            "Type" | "RecordType" => {
                head.record_type =
                    Some(cbf_1_0::RecordTypeField::parse_lexical(&f.value).map_err(facet(f.name))?);
                label_loss(&mut losses, f);
            }
            "Result" | "RecordResult" => {
                head.record_result = Some(
                    cbf_1_0::RecordResultField::parse_lexical(&f.value).map_err(facet(f.name))?,
                );
                label_loss(&mut losses, f);
            }
            // The game comment goes into the placeholder move, below.
            "Comment" => {}
            name => {
                if !set_field(&mut head, to_1_0_name(name), &f.value)? {
                    losses.push(Loss::new(
                        name,
                        "the 1.0 dialect has no such field (dropped)",
                    ));
                }
            }
        }
    }
    if start_written(record) {
        head.fen = Some(SimpleValue::parse_lexical(&start.to_fen()).map_err(facet("FEN"))?);
    }
    let comment = record.game_comment.clone().unwrap_or_default();
    let mut list = vec![cbf_1_0::Move {
        value: crate::cbf::MoveValue::placeholder(),
        branch: None,
        end: None,
        content_form: text_form(&comment),
        content: comment,
    }];
    let flag = || cbf_1_0::Flag::new(1).map_err(facet("Move/@branch"));
    // Depth-first, first child first: a move with a later sibling carries branch="1", a
    // move without children ends its line with end="1" (the reader then returns to the
    // most recently remembered branch point).
    let mut stack: Vec<(usize, bool)> = siblings(&record.root_children);
    while let Some((index, has_later_sibling)) = stack.pop() {
        let node = &record.moves[index];
        list.push(cbf_1_0::Move {
            value: crate::cbf::MoveValue::new(node.mv),
            branch: if has_later_sibling {
                Some(flag()?)
            } else {
                None
            },
            end: if node.children.is_empty() {
                Some(flag()?)
            } else {
                None
            },
            content_form: text_form(&node.comment),
            content: node.comment.clone(),
        });
        stack.extend(siblings(&node.children));
    }
    Ok(Converted {
        output: cbf_1_0::ChineseChessRecord {
            head: Box::new(head),
            move_list: cbf_1_0::MoveList { r#move: list },
        },
        losses,
    })
}

/// Children in reverse (for a stack), each with whether a later sibling follows it.
fn siblings(children: &[usize]) -> Vec<(usize, bool)> {
    let n = children.len();
    children
        .iter()
        .enumerate()
        .rev()
        .map(|(i, &c)| (c, i + 1 < n))
        .collect()
}

/// Converts to the 2007 dialect (Board string, `nid`, Type/Result with labels).
pub fn to_cbf_2007(
    record: &Record,
) -> Result<Converted<cbf_2007::ChineseChessRecord>, ConvertError> {
    let start = start_position(record)?;
    let mut losses = Vec::new();
    let mut head = cbf_2007::Head::default();
    for f in &record.head {
        match f.name {
            // The game comment is written from `game_comment`, below.
            "Comment" => {}
            "Type" | "RecordType" => {
                let code = f.value.trim();
                if code.is_empty() {
                    continue;
                }
                match code.parse::<u8>().ok().filter(|&c| c <= 4) {
                    Some(c) => {
                        head.r#type = Some(cbf_2007::RecordType {
                            value: cbf_2007::RecordTypeCode::new(c).map_err(facet(f.name))?,
                            content: f.label.clone().unwrap_or_else(|| type_label(c).into()),
                            content_form: TextForm::Text,
                        })
                    }
                    None => losses.push(Loss::new(
                        f.name,
                        format!("record type {code} has no 2007 code (2007 knows 0..4; dropped)"),
                    )),
                }
            }
            "Result" | "RecordResult" => {
                let code = f.value.trim();
                if code.is_empty() {
                    continue;
                }
                let Ok(mut c) = code.parse::<u8>() else {
                    return Err(ConvertError::Facet {
                        field: f.name.into(),
                        error: FacetError::Lexical {
                            expected: "a result code 0..4",
                        },
                    });
                };
                if c == 4 {
                    losses.push(Loss::new(
                        f.name,
                        "result 4 (a draw of a kind 1.0 does not document) is written as 3, a plain draw",
                    ));
                    c = 3;
                }
                head.result = Some(cbf_2007::RecordResult {
                    value: cbf_2007::ResultCode::new(c).map_err(facet(f.name))?,
                    content: f.label.clone().unwrap_or_else(|| result_label(c).into()),
                    content_form: TextForm::Text,
                });
            }
            name => {
                if !set_field(&mut head, to_2007_name(name), &f.value)?
                    && !f.value.trim().is_empty()
                {
                    losses.push(Loss::new(
                        name,
                        format!(
                            "\"{}\" is dropped: the 2007 dialect has no {name} field",
                            f.value
                        ),
                    ));
                }
            }
        }
    }
    if start_written(record) {
        if start.halfmove_clock() != 0 {
            losses.push(Loss::new(
                "FEN half-move clock",
                format!(
                    "the half-move clock {} has no place in a 2007 Board string (dropped)",
                    start.halfmove_clock()
                ),
            ));
        }
        head.board = Some(cbf_2007::Board {
            value: Some(
                SimpleValue::parse_lexical(&start.to_board_string()).map_err(facet("Board"))?,
            ),
            content: String::new(),
            content_form: TextForm::Text,
        });
    }
    head.comment = record.game_comment.clone();
    let mut list = Vec::new();
    // Depth-first, first child first; nid is the ply in the line.
    let mut stack: Vec<(usize, u64)> = record.root_children.iter().rev().map(|&c| (c, 1)).collect();
    while let Some((index, nid)) = stack.pop() {
        let node = &record.moves[index];
        list.push(cbf_2007::Move {
            nid: boardxml::datatypes::PositiveInteger::new(nid).map_err(facet("Move/@nid"))?,
            value: crate::cbf::MoveValue::new(node.mv),
            content_form: text_form(&node.comment),
            content: node.comment.clone(),
        });
        stack.extend(node.children.iter().rev().map(|&c| (c, nid + 1)));
    }
    Ok(Converted {
        output: cbf_2007::ChineseChessRecord {
            head: Box::new(head),
            move_list: cbf_2007::MoveList { r#move: list },
        },
        losses,
    })
}

/// The PGN result of a result code: 1 red wins `1-0`, 2 black wins `0-1`, 3 and 4 draw
/// `1/2-1/2`, 0 or none `*`.
pub fn pgn_result(code: Option<u8>) -> &'static str {
    match code {
        Some(1) => "1-0",
        Some(2) => "0-1",
        Some(3) | Some(4) => "1/2-1/2",
        _ => "*",
    }
}

/// The recorded result code, as written (1.0's 4 stays 4).
pub(crate) fn raw_result(record: &Record) -> Option<u8> {
    record
        .head
        .iter()
        .find(|f| f.name == "Result" || f.name == "RecordResult")
        .and_then(|f| f.value.trim().parse().ok())
}

/// A record as JSON: the serialisable view of [`Record`].
#[derive(Debug, Clone, Serialize)]
pub struct RecordView {
    /// `cbf-2007` or `cbf-1.0`.
    pub dialect: &'static str,
    /// The head fields as written, in document order (Type/Result: their codes; the 2007
    /// Comment is `game_comment`).
    pub head: HeadView,
    /// The 2007 Type/Result display labels, by field name (empty for 1.0).
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "pairs")]
    pub labels: Vec<(String, String)>,
    /// The start position.
    pub start: StartView,
    /// The result: its code and PGN form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    /// The game comment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_comment: Option<String>,
    // The moves follow, written by `to_json` on a stack of its own (see `write_moves`):
    // a serde tree of them would nest as deep as the variations, on the call stack.
}

/// Head fields in document order, serialised as one JSON object.
#[derive(Debug, Clone)]
pub struct HeadView(pub Vec<(String, String)>);

impl Serialize for HeadView {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        pairs(&self.0, s)
    }
}

fn pairs<S: serde::Serializer>(p: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(p.len()))?;
    for (k, v) in p {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// The start position.
#[derive(Debug, Clone, Serialize)]
pub struct StartView {
    /// Its FEN.
    pub fen: String,
    /// `red` or `black`.
    pub side_to_move: &'static str,
    /// The move number.
    pub move_number: u32,
    /// Whether it is the standard start position.
    pub standard: bool,
}

/// The result.
#[derive(Debug, Clone, Serialize)]
pub struct ResultView {
    /// The code as written (0 unknown, 1 red wins, 2 black wins, 3 and 4 draw).
    pub code: u8,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub pgn: &'static str,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Red => "red",
        Side::Black => "black",
    }
}

/// Whether `p` is the standard start (placement and side; counters aside).
pub fn is_standard_start(p: &Position) -> bool {
    let fields = |f: &str| f.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    fields(&p.to_fen()) == fields(START_FEN)
}

/// The move `mv` in position `pos`, or why it cannot be played.
pub(crate) fn checked(pos: &Position, mv: Move, ply: usize) -> Result<Position, ConvertError> {
    pos.after(mv).map_err(|e| ConvertError::IllegalMove {
        mv: mv.iccs(),
        ply,
        reason: e.to_string(),
    })
}

/// The serialisable view of a record.
pub fn json_view(record: &Record) -> Result<RecordView, ConvertError> {
    let start = start_position(record)?;
    let mut labels = Vec::new();
    let head = record
        .head
        .iter()
        // The 2007 Comment is the game comment, given once as `game_comment`.
        .filter(|f| f.name != "Comment")
        .map(|f| {
            if let Some(l) = &f.label {
                labels.push((f.name.to_string(), l.clone()));
            }
            (f.name.to_string(), f.value.clone())
        })
        .collect();
    Ok(RecordView {
        dialect: match record.dialect {
            Dialect::V2007 => "cbf-2007",
            Dialect::V1_0 => "cbf-1.0",
        },
        head: HeadView(head),
        labels,
        start: StartView {
            fen: start.to_fen(),
            side_to_move: side_name(start.side_to_move()),
            move_number: start.move_number(),
            standard: is_standard_start(start),
        },
        result: raw_result(record).map(|code| ResultView {
            code,
            pgn: pgn_result(Some(code)),
        }),
        game_comment: record.game_comment.clone(),
    })
}

/// Nesting deeper than this is written without more indentation: pretty-printing every
/// level would make the text (and the time) quadratic in the depth of the variations.
const JSON_INDENT_DEPTH: usize = 32;

/// JSON as `serde_json`'s pretty printer writes it (two spaces a level), value by value,
/// so that any depth is written without recursion.
struct PrettyJson {
    out: String,
    /// For each open object or array: whether nothing is in it yet.
    empty: Vec<bool>,
}

impl PrettyJson {
    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.empty.len().min(JSON_INDENT_DEPTH) {
            self.out.push_str("  ");
        }
    }

    fn open(&mut self, bracket: char) {
        self.out.push(bracket);
        self.empty.push(true);
    }

    fn close(&mut self, bracket: char) {
        if !self.empty.pop().unwrap_or(true) {
            self.newline();
        }
        self.out.push(bracket);
    }

    /// Starts the next element of the open array or object.
    fn item(&mut self) {
        if let Some(empty) = self.empty.last_mut() {
            if !std::mem::replace(empty, false) {
                self.out.push(',');
            }
        }
        self.newline();
    }

    fn key(&mut self, key: &str) {
        self.item();
        self.string(key);
        self.out.push_str(": ");
    }

    fn string(&mut self, text: &str) {
        self.out
            .push_str(&serde_json::to_string(text).expect("a string always serialises"));
    }

    fn field(&mut self, key: &str, text: &str) {
        self.key(key);
        self.string(text);
    }
}

/// A line being written as JSON: the position before its next move, that move, the moves
/// that replace it, how many of those are written, its ply.
struct JsonWalk<'r> {
    pos: Position,
    at: Option<usize>,
    alternatives: &'r [usize],
    written: Option<usize>,
    ply: usize,
}

/// The main line as a JSON array at nesting `depth`: each move (its CBF, ICCS, Chinese
/// and WXF forms, its comment) carries the lines that replace it as `variations`, each
/// from that move's position. The lines nest on a stack of their own.
fn write_moves(record: &Record, start: &Position, depth: usize) -> Result<String, ConvertError> {
    let mut json = PrettyJson {
        out: String::new(),
        empty: vec![false; depth],
    };
    json.open('[');
    let mut stack = match record.root_children.split_first() {
        Some((&first, alternatives)) => vec![JsonWalk {
            pos: start.clone(),
            at: Some(first),
            alternatives,
            written: None,
            ply: 1,
        }],
        None => Vec::new(),
    };
    while let Some(walk) = stack.last_mut() {
        let Some(index) = walk.at else {
            stack.pop();
            if !stack.is_empty() {
                // A variation's own array.
                json.close(']');
            }
            continue;
        };
        let node = &record.moves[index];
        let written = match walk.written {
            Some(n) => n,
            None => {
                let ply = walk.ply;
                let notation = |e: boardxml_xiangqi::IllegalMove| ConvertError::IllegalMove {
                    mv: node.mv.iccs(),
                    ply,
                    reason: e.to_string(),
                };
                let chinese = walk.pos.to_chinese(node.mv).map_err(notation)?;
                let wxf = walk.pos.to_wxf(node.mv).map_err(notation)?;
                json.item();
                json.open('{');
                json.field("cbf", &node.mv.cbf());
                json.field("iccs", &node.mv.iccs());
                json.field("chinese", &chinese);
                json.field("wxf", &wxf);
                if !node.comment.is_empty() {
                    json.field("comment", &node.comment);
                }
                if !walk.alternatives.is_empty() {
                    json.key("variations");
                    json.open('[');
                }
                0
            }
        };
        if let Some(&alt) = walk.alternatives.get(written) {
            walk.written = Some(written + 1);
            json.item();
            json.open('[');
            let variation = JsonWalk {
                pos: walk.pos.clone(),
                at: Some(alt),
                alternatives: &[],
                written: None,
                ply: walk.ply,
            };
            stack.push(variation);
            continue;
        }
        if !walk.alternatives.is_empty() {
            json.close(']');
        }
        json.close('}');
        walk.pos = checked(&walk.pos, node.mv, walk.ply)?;
        walk.at = node.children.first().copied();
        walk.alternatives = node.children.get(1..).unwrap_or(&[]);
        walk.written = None;
        walk.ply += 1;
    }
    json.close(']');
    Ok(json.out)
}

/// Converts to JSON (pretty-printed): see [`RecordView`]. JSON holds everything.
pub fn to_json(record: &Record) -> Result<Converted<String>, ConvertError> {
    let view = json_view(record)?;
    let moves = write_moves(record, start_position(record)?, 1)?;
    let mut text = serde_json::to_string_pretty(&view).expect("a view always serialises");
    // The view is an object with its dialect at least: the moves go last in it.
    if text.ends_with("\n}") {
        text.truncate(text.len() - 2);
        text.push_str(",\n  \"moves\": ");
        text.push_str(&moves);
        text.push_str("\n}");
    }
    text.push('\n');
    Ok(Converted {
        output: text,
        losses: Vec::new(),
    })
}
