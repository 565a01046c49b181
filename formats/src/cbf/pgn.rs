//! PGN as Chinese-chess software reads it (XQWizard / 象棋巫师 and the programs that follow
//! it): the PGN of chess with a `[Game "Chinese Chess"]` tag, a `[Format]` tag naming the
//! move notation, and `[FEN]` for a start other than the standard one.
//!
//! ```text
//! [Game "Chinese Chess"]
//! [Event "民百杯精英赛决赛与吕钦之战"]
//! [Site "兰州"]
//! [Date "1995.5.22"]
//! [Round ""]
//! [Red "吕钦"]
//! [Black "许银川"]
//! [Result "1/2-1/2"]
//! [Name "羊城体育《银川棋路》24"]
//! [Format "Chinese"]
//! {the game comment}
//! 1. 炮二平五 马２进３ 2. 马二进三 炮８平６ ...
//! ```
//!
//! Decisions:
//! - Tags: Game, Event, Site, Date, Round, Red, Black and Result always (empty when the
//!   record has no value; dates as written, CBF dates are free text), then every other head
//!   field that has a value, under its own name, in head order (readers skip tags they do
//!   not know). Event is
//!   2007's Event or 1.0's Contest. Result: 1 `1-0`, 2 `0-1`, 3 and 4 `1/2-1/2`, else `*`;
//!   a 1.0 result 4 loses its (unknown) nuance, and the 2007 Type/Result labels have no tag:
//!   both are reported as losses (a label that is just its code's own, such as 和棋 for 3,
//!   is not). A tag value's `\` and `"` are escaped with `\`; line
//!   breaks in a tag value become spaces (a loss).
//! - `[FEN]` only when the start is not the standard one; `[Format "ICCS"]`,
//!   `[Format "Chinese"]` or `[Format "WXF"]` always.
//! - Moves: `1. h2e2 h9g7`, numbered from the start position's move number; a black move
//!   that does not follow its red move directly (at the start, after a comment or a
//!   variation) is numbered `1...`. Variations are parenthesised after the move they
//!   replace, nested as deep as the record's tree. The game comment stands before the
//!   first move; a move's comment after it, in braces. A brace comment cannot hold `}`
//!   (PGN has no escape inside comments): it is written as the full-width `｝` (a loss).
//! - Notation: ICCS (`h2e2`), Chinese (`炮二平五`, black with full-width digits `马２进３`) or
//!   WXF ASCII (`C2.5`), from the xiangqi crate's [`boardxml_xiangqi::notation`]. Its
//!   convention for three or more pawns on one file is the Chinese national rules' and
//!   the WXF's tandem-pawn rules: three are 前/中/后, four or five 一..五 counted from the
//!   front, and with pawns on two files the order word is followed by the file number
//!   (`前七平六`); see that module's documentation.
//! - Lines are wrapped before 80 columns (a Chinese character takes two), between tokens;
//!   a move number stays with its move.

use boardxml_xiangqi::{Move, Position, Side};

use crate::cbf::convert::{
    checked, is_standard_start, pgn_result, raw_result, telling_label, ConvertError, Converted,
    Loss,
};
use crate::cbf::record::Record;

/// The move notation of the movetext.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// ICCS coordinates, `h2e2`.
    Iccs,
    /// Chinese notation, `炮二平五`.
    Chinese,
    /// WXF ASCII notation, `C2.5`.
    Wxf,
}

impl Notation {
    /// The `[Format]` tag's value.
    pub fn format_tag(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Chinese => "Chinese",
            Notation::Wxf => "WXF",
        }
    }

    /// The move `mv` from `pos` in this notation.
    pub fn write(self, pos: &Position, mv: Move) -> Result<String, boardxml_xiangqi::IllegalMove> {
        match self {
            Notation::Iccs => pos.check_move(mv).map(|()| mv.iccs()),
            Notation::Chinese => pos.to_chinese(mv),
            Notation::Wxf => pos.to_wxf(mv),
        }
    }
}

/// Converts to PGN in `notation`.
pub fn to_pgn(record: &Record, notation: Notation) -> Result<Converted<String>, ConvertError> {
    let start = record.start.as_ref().ok_or(ConvertError::NoStartPosition)?;
    let mut losses = Vec::new();
    let mut out = String::new();
    let field = |names: &[&str]| {
        record
            .head
            .iter()
            .find(|f| names.contains(&f.name))
            .map(|f| f.value.clone())
            .unwrap_or_default()
    };
    let code = raw_result(record);
    let result = pgn_result(code);
    let mut tag = |name: &str, value: &str, losses: &mut Vec<Loss>| {
        if value.contains(['\n', '\r']) {
            losses.push(Loss::new(
                name,
                "a PGN tag value is one line: its line breaks are written as spaces",
            ));
        }
        let value: String = value
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace("\r\n", " ")
            .replace(['\r', '\n'], " ");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    };
    tag("Game", "Chinese Chess", &mut losses);
    let roster = [
        ("Event", &["Event", "Contest"][..]),
        ("Site", &["Site"]),
        ("Date", &["Date"]),
        ("Round", &["Round"]),
        ("Red", &["Red"]),
        ("Black", &["Black"]),
    ];
    for (name, sources) in roster {
        tag(name, &field(sources), &mut losses);
    }
    tag("Result", result, &mut losses);
    for f in &record.head {
        match f.name {
            "Event" | "Contest" | "Site" | "Date" | "Round" | "Red" | "Black" | "Comment" => {}
            // An empty field says nothing; the roster above is always written.
            _ if f.value.trim().is_empty() => {}
            "Type" | "RecordType" => {
                tag(f.name, &f.value, &mut losses);
                label_loss(f, &mut losses);
            }
            "Result" | "RecordResult" => {
                if code == Some(4) {
                    losses.push(Loss::new(
                        f.name,
                        "result 4 (a draw of a kind 1.0 does not document) is written as 1/2-1/2",
                    ));
                }
                label_loss(f, &mut losses);
            }
            name => tag(name, &f.value, &mut losses),
        }
    }
    if !is_standard_start(start) {
        tag("FEN", &start.to_fen(), &mut losses);
    }
    tag("Format", notation.format_tag(), &mut losses);

    let mut tokens = Vec::new();
    let mut braces = false;
    out.push('\n');
    if let Some(c) = record
        .game_comment
        .as_deref()
        .filter(|c| !c.trim().is_empty())
    {
        // The game comment stands on its own before the moves.
        out.push_str(&comment(c, &mut braces));
        out.push('\n');
    }
    if let Some((&first, alternatives)) = record.root_children.split_first() {
        let mut w = Movetext {
            record,
            notation,
            tokens,
            braces,
        };
        w.line(start, first, alternatives, 1, true)?;
        tokens = w.tokens;
        braces = w.braces;
    }
    if braces {
        losses.push(Loss::new(
            "comment",
            "a PGN comment cannot hold '}': written as the full-width '｝'",
        ));
    }
    tokens.push(result.to_string());
    out.push_str(&wrap(&tokens, 79));
    Ok(Converted {
        output: out,
        losses,
    })
}

fn label_loss(f: &crate::cbf::record::HeadField, losses: &mut Vec<Loss>) {
    if let Some(l) = telling_label(f) {
        losses.push(Loss::new(
            format!("{} label", f.name),
            format!("the display label \"{l}\" has no PGN tag (only the code is kept)"),
        ));
    }
}

fn comment(text: &str, braces: &mut bool) -> String {
    if text.contains('}') {
        *braces = true;
    }
    format!("{{{}}}", text.trim().replace('}', "｝"))
}

struct Movetext<'r> {
    record: &'r Record,
    notation: Notation,
    tokens: Vec<String>,
    braces: bool,
}

/// A line being written: the position before its next move, that move, the moves that
/// replace it, how many of those are written, its ply, whether a black move needs its
/// number, and the token its `(` goes on (for a variation).
struct Walk<'r> {
    pos: Position,
    at: Option<usize>,
    alternatives: &'r [usize],
    written: Option<usize>,
    ply: usize,
    number_black: bool,
    opening: usize,
}

impl<'r> Movetext<'r> {
    /// The line from `pos` starting with `first` and following first children; each move
    /// is followed by the variations that replace it (`alternatives` for the first).
    /// The variations nest on a stack of their own, not the call stack, so that any depth
    /// is written (and in time linear in the moves).
    fn line(
        &mut self,
        pos: &Position,
        first: usize,
        alternatives: &'r [usize],
        first_ply: usize,
        number_black: bool,
    ) -> Result<(), ConvertError> {
        let record = self.record;
        let mut stack = vec![Walk {
            pos: pos.clone(),
            at: Some(first),
            alternatives,
            written: None,
            ply: first_ply,
            number_black,
            opening: 0,
        }];
        while let Some(walk) = stack.last_mut() {
            let Some(index) = walk.at else {
                // The line is written: close its variation, if it is one.
                let done = stack.pop().map_or(0, |w| w.opening);
                if let Some(outer) = stack.last_mut() {
                    // The parentheses stick to the first and last tokens of the variation,
                    // so that a line break never leaves one alone.
                    self.tokens[done].insert(0, '(');
                    if let Some(last) = self.tokens.last_mut() {
                        last.push(')');
                    }
                    outer.number_black = true;
                }
                continue;
            };
            let node = &record.moves[index];
            let written = match walk.written {
                Some(n) => n,
                None => {
                    let text = self.notation.write(&walk.pos, node.mv).map_err(|e| {
                        ConvertError::IllegalMove {
                            mv: node.mv.iccs(),
                            ply: walk.ply,
                            reason: e.to_string(),
                        }
                    })?;
                    // The number and its move are one token, so that a line break never
                    // parts them.
                    self.tokens.push(match walk.pos.side_to_move() {
                        Side::Red => format!("{}. {text}", walk.pos.move_number()),
                        Side::Black if walk.number_black => {
                            format!("{}... {text}", walk.pos.move_number())
                        }
                        Side::Black => text,
                    });
                    walk.number_black = false;
                    if !node.comment.trim().is_empty() {
                        let c = comment(&node.comment, &mut self.braces);
                        self.tokens.push(c);
                        walk.number_black = true;
                    }
                    0
                }
            };
            if let Some(&alt) = walk.alternatives.get(written) {
                walk.written = Some(written + 1);
                let variation = Walk {
                    pos: walk.pos.clone(),
                    at: Some(alt),
                    alternatives: &[],
                    written: None,
                    ply: walk.ply,
                    number_black: true,
                    opening: self.tokens.len(),
                };
                stack.push(variation);
                continue;
            }
            walk.pos = checked(&walk.pos, node.mv, walk.ply)?;
            walk.at = node.children.first().copied();
            walk.alternatives = node.children.get(1..).unwrap_or(&[]);
            walk.written = None;
            walk.ply += 1;
        }
        Ok(())
    }
}

/// Joins tokens with spaces, breaking lines before `width` columns where a token allows.
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut len = 0usize;
    for t in tokens {
        let tlen = display_width(t);
        if len > 0 && len + 1 + tlen > width {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(t);
        len += tlen;
    }
    out.push('\n');
    out
}

/// Columns a terminal gives `text`: CJK and full-width characters take two.
fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| if (c as u32) >= 0x1100 { 2 } else { 1 })
        .sum()
}
