//! PGN as Chinese-chess programs write it (XQWizard / 象棋巫师 and those that follow it),
//! read strictly: the reverse of [`crate::cbf::pgn`].
//!
//! - Text: UTF-8 (with or without a byte order mark), else GBK; bytes valid in neither are
//!   an E0503.
//! - Tags `[Name "value"]` (`\"` and `\\` escaped). A tag fills the CBF 1.0 head field of
//!   its name, found in the schema's field table (Site, Date, Red, ECCO, DateCreated, ...),
//!   its value checked against the field's type; PGN's own names map on ([`TAG_ALIASES`]:
//!   Event → Contest, RedElo → RedRating, BlackElo → BlackRating, Annotator →
//!   Commentator, TimeControl → TimeRule, Title → Name); Result → RecordResult; `[FEN]` is
//!   the start position, `[Format]` the notation, `[Game]` should say Chinese Chess. Any
//!   other tag with a value (no such field, a value its field's type refuses, a field an
//!   earlier tag filled) is a warning (E0513) naming it, never dropped unsaid.
//! - Moves in ICCS (`h2e2`, `h2-e2`), Chinese (`炮二平五`, traditional characters and any
//!   digit form too) or WXF (`C2.5`, `C2=5`, `H8+7`), as `[Format]` says or, without it,
//!   as each move looks. Move numbers (`1.`, `1...`) are read over; `{...}` and `;` to the
//!   end of the line are comments (before the first move: the game comment); `( ... )` a
//!   variation of the move before it, nested as deep as wanted; `$n` glyphs are not kept
//!   (a warning). The result token ends the game; what follows up to the next `[` tag is
//!   a warning (E0505). Several games in one file are several records.

use crate::codes;
use boardxml_xiangqi::{Move, Position};

use super::{all_warnings, title_of, Builder, Kind, Parent, Place, Read, Titled};
use crate::generated::cbf_1_0;
use boardxml::complex::{Complex, Kind as ComplexKind};
use boardxml::diagnostic::Diagnostic;

/// PGN tags whose name is not the CBF 1.0 field they fill: PGN's own vocabulary (Event, the
/// Elo ratings, Annotator, TimeControl) and Title. Every other tag fills the head field of
/// its own name, found in the schema's field table ([`cbf_1_0::Head`]'s `FIELDS`): a field
/// added to the schema takes its tag with no line here.
pub const TAG_ALIASES: &[(&str, &str)] = &[
    ("Event", "Contest"),
    ("RedElo", "RedRating"),
    ("BlackElo", "BlackRating"),
    ("Annotator", "Commentator"),
    ("TimeControl", "TimeRule"),
    ("Title", "Name"),
];

/// Head fields no tag of their name fills: the reader fills them from other tags.
const FILLED_OTHERWISE: &[(&str, &str)] = &[("FEN", "[FEN]"), ("RecordResult", "[Result]")];

/// What becomes of a tag's value in the CBF 1.0 head.
#[derive(Debug, PartialEq, Eq)]
pub enum TagField {
    /// It fills this field (the schema's name for it).
    Field(&'static str),
    /// The head has no field for it.
    None,
    /// The field exists but the value is not one of its type: what the type expects.
    Invalid(String),
}

/// The head field the tag `name` with `value` fills, through the schema's field table (see
/// [`TAG_ALIASES`]); the value is checked against the field's type, as a CBF reader would.
pub fn tag_field(name: &str, value: &str) -> TagField {
    let field = TAG_ALIASES
        .iter()
        .find(|(tag, _)| *tag == name)
        .map_or(name, |(_, field)| field);
    if FILLED_OTHERWISE.iter().any(|(f, _)| *f == field) {
        return TagField::None;
    }
    let Some(i) = cbf_1_0::Head::field_index(field) else {
        return TagField::None;
    };
    let f = &cbf_1_0::Head::FIELDS[i];
    if f.kind != ComplexKind::Element {
        return TagField::None;
    }
    match cbf_1_0::Head::default().set_text(i, value) {
        Ok(true) => TagField::Field(f.xml),
        Ok(false) => TagField::None,
        Err(e) => TagField::Invalid(e.to_string()),
    }
}

/// Which notation the move text is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Notation {
    Iccs,
    Chinese,
    Wxf,
}

/// Decodes the file's text: UTF-8 (BOM or not), else GBK.
fn decode(bytes: &[u8]) -> Result<(String, &'static encoding_rs::Encoding), Diagnostic> {
    let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(bytes);
    match std::str::from_utf8(body) {
        Ok(t) => Ok((t.to_string(), encoding_rs::UTF_8)),
        Err(utf8) => {
            if let Some(t) =
                encoding_rs::GBK.decode_without_bom_handling_and_without_replacement(body)
            {
                return Ok((t.into_owned(), encoding_rs::GBK));
            }
            let at = bytes.len() - body.len() + utf8.valid_up_to();
            Err(Place::byte(at)
                .error(
                    codes::TEXT_BYTES,
                    "text",
                    "the PGN is neither UTF-8 nor GBK text",
                )
                .expected("UTF-8 or GBK text")
                .found(format!("{:02X?}", &bytes[at..(at + 4).min(bytes.len())])))
        }
    }
}

/// Reads a PGN file: one record per game.
pub fn read(bytes: &[u8]) -> Read {
    let (text, encoding) = match decode(bytes) {
        Ok(t) => t,
        Err(d) => {
            return Read {
                kind: Kind::Pgn,
                records: Vec::new(),
                diagnostics: vec![d],
                encoding: encoding_rs::UTF_8,
                text: None,
            }
        }
    };
    let mut p = Parser {
        chars: text.char_indices().collect(),
        i: 0,
        line: 1,
        column: 1,
        diagnostics: Vec::new(),
    };
    let mut records = Vec::new();
    while p.skip_blank() {
        let before = p.diagnostics.len();
        let offset = p.place().offset;
        let game = p.game();
        let valid = all_warnings(&p.diagnostics[before..]);
        if let Some(record) = game {
            records.push(Titled {
                title: title_of(&record),
                record,
                offset,
                valid,
            });
        }
    }
    Read {
        kind: Kind::Pgn,
        records,
        diagnostics: p.diagnostics,
        encoding,
        text: Some(text),
    }
}

struct Parser {
    chars: Vec<(usize, char)>,
    i: usize,
    line: u32,
    column: u32,
    diagnostics: Vec<Diagnostic>,
}

/// A variation being read: where its moves go, and where the move before went.
#[derive(Clone, Copy)]
struct Line {
    /// The parent of the next move.
    next: Parent,
    /// The parent of the last move (a variation replaces it), if any move came.
    last: Option<Parent>,
    /// The last move's node, for its comments.
    last_node: Option<Parent>,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).map(|&(_, c)| c)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn place(&self) -> Place {
        Place {
            offset: self.chars.get(self.i).map_or_else(
                || self.chars.last().map_or(0, |&(o, c)| o + c.len_utf8()),
                |&(o, _)| o,
            ),
            line: self.line,
            column: self.column,
        }
    }

    /// Skips white space; whether anything is left.
    fn skip_blank(&mut self) -> bool {
        while self
            .peek()
            .is_some_and(|c| c.is_whitespace() || c == '\u{feff}')
        {
            self.bump();
        }
        self.peek().is_some()
    }

    /// Reads a tag `[Name "value"]` (at `[`).
    fn tag(&mut self) -> Option<(String, String, Place)> {
        let at = self.place();
        self.bump();
        let mut name = String::new();
        while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            name.extend(self.bump());
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if name.is_empty() || self.peek() != Some('"') {
            let found = self
                .peek()
                .map_or("the end of the file".into(), |c| format!("{c:?}"));
            self.diagnostics.push(
                self.place()
                    .error(codes::PGN_SYNTAX, "tag", "a tag is [Name \"value\"]")
                    .expected(if name.is_empty() {
                        "a tag name"
                    } else {
                        "a quoted value"
                    })
                    .found(found),
            );
            self.skip_line();
            return None;
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('\\') => value.extend(self.bump()),
                Some('"') => break,
                Some('\n') | None => {
                    self.diagnostics.push(
                        at.error(
                            codes::PGN_SYNTAX,
                            "tag",
                            format!("the value of tag {name} is not closed"),
                        )
                        .expected("a closing \" then ]")
                        .found("the end of the line"),
                    );
                    return None;
                }
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() == Some(']') {
            self.bump();
        } else {
            self.diagnostics.push(
                self.place()
                    .error(
                        codes::PGN_SYNTAX,
                        "tag",
                        format!("tag {name} is not closed"),
                    )
                    .expected("]")
                    .found(
                        self.peek()
                            .map_or("the end of the file".into(), |c| format!("{c:?}")),
                    ),
            );
            self.skip_line();
        }
        Some((name, value, at))
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    /// The next word: up to white space or a character that stands alone.
    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';') {
                break;
            }
            w.push(c);
            self.bump();
        }
        w
    }

    /// One game: its tags, then its moves up to the result (or the end, or the next tag).
    fn game(&mut self) -> Option<crate::cbf::record::Record> {
        let mut tags: Vec<(String, String, Place)> = Vec::new();
        while self.skip_blank() && self.peek() == Some('[') {
            if let Some(t) = self.tag() {
                tags.push(t);
            }
        }
        // The start position and notation come first: the moves need them.
        let mut start = Position::start();
        let mut start_at = self.place();
        let mut notation = None;
        let mut seen: Vec<&str> = Vec::new();
        for (name, value, at) in &tags {
            if seen.contains(&name.as_str()) {
                self.diagnostics.push(
                    at.error(codes::PGN_TAG, "tag", format!("tag {name} is given twice"))
                        .expected("each tag once")
                        .found(format!("{name} again")),
                );
                continue;
            }
            seen.push(name);
            match name.as_str() {
                "FEN" if !value.trim().is_empty() => match Position::from_fen(value.trim()) {
                    Ok(p) => {
                        start = p;
                        start_at = *at;
                    }
                    Err(e) => self.diagnostics.push(
                        at.error(codes::FEN, "FEN", format!("the FEN cannot be read: {e}"))
                            .found(value.clone()),
                    ),
                },
                "Format" => {
                    notation = match value.trim().to_ascii_uppercase().as_str() {
                        "ICCS" => Some(Notation::Iccs),
                        "CHINESE" => Some(Notation::Chinese),
                        "WXF" => Some(Notation::Wxf),
                        "" => None,
                        _ => {
                            self.diagnostics.push(
                                at.error(
                                    codes::PGN_TAG,
                                    "Format",
                                    format!("move notation {value:?} is none this reader knows"),
                                )
                                .expected("ICCS, Chinese or WXF")
                                .found(value.clone()),
                            );
                            None
                        }
                    }
                }
                _ => {}
            }
        }
        let mut b = Builder::new(start, false, start_at);
        let mut tag_result = None;
        for (name, value, at) in &tags {
            let value = value.trim();
            match name.as_str() {
                "FEN" | "Format" => {}
                "Game" => {
                    if !value.is_empty() && !value.contains("Chinese") && value != "Xiangqi" {
                        b.diagnostics.push(
                            at.warning(
                                codes::PGN_TAG,
                                "Game",
                                format!(
                                    "the game is {value:?}, not Chinese Chess (read as xiangqi)"
                                ),
                            )
                            .expected("Chinese Chess")
                            .found(value.to_string()),
                        );
                    }
                }
                "Result" => match result_code(value) {
                    Some(code) => {
                        tag_result = Some(code);
                        b.head("RecordResult", &code.to_string());
                        b.record.result = Some((code, at.path("Result")));
                    }
                    None => b.diagnostics.push(
                        at.error(
                            codes::PGN_TAG,
                            "Result",
                            format!("result {value:?} is no PGN result"),
                        )
                        .expected("1-0, 0-1, 1/2-1/2 or *")
                        .found(value.to_string()),
                    ),
                },
                _ if value.is_empty() => {}
                other => {
                    let lost = |why: String| {
                        at.warning(
                            codes::PGN_TAG,
                            "tag",
                            format!("tag {other} {why}: not kept"),
                        )
                        .found(format!("[{other} \"{value}\"]"))
                    };
                    match tag_field(other, value) {
                        TagField::Field(field) => {
                            if b.record.head.iter().any(|f| f.name == field) {
                                b.diagnostics.push(lost(format!(
                                    "fills the CBF field {field}, which an earlier tag filled"
                                )));
                            } else {
                                b.head(field, value);
                            }
                        }
                        TagField::None => {
                            let why = match FILLED_OTHERWISE.iter().find(|(f, _)| *f == other) {
                                Some((_, from)) => {
                                    format!("is not read (CBF's {other} comes from {from})")
                                }
                                None => "has no CBF field".to_string(),
                            };
                            b.diagnostics.push(lost(why));
                        }
                        TagField::Invalid(expected) => {
                            b.diagnostics
                                .push(lost(format!("is no value of its CBF field ({expected})")));
                        }
                    }
                }
            }
        }
        let before = self.diagnostics.len();
        self.diagnostics.append(&mut b.diagnostics);
        let _ = before;
        self.moves(&mut b, notation, tag_result);
        let (record, mut found) = b.finish();
        self.diagnostics.append(&mut found);
        Some(record)
    }

    /// The movetext, up to the result, the end, or a tag at the start of a line.
    fn moves(&mut self, b: &mut Builder, notation: Option<Notation>, tag_result: Option<u8>) {
        let mut stack: Vec<(Line, Place)> = Vec::new();
        let mut line = Line {
            next: Parent::Root,
            last: None,
            last_node: None,
        };
        // Comments waiting for the next move (at the start of a variation).
        let mut pending = String::new();
        loop {
            if !self.skip_blank() {
                break;
            }
            let at = self.place();
            match self.peek() {
                Some('[') if at.column == 1 => break,
                Some('{') => {
                    self.bump();
                    let mut c = String::new();
                    loop {
                        match self.bump() {
                            Some('}') => break,
                            Some(ch) => c.push(ch),
                            None => {
                                b.diagnostics.push(
                                    at.error(
                                        codes::PGN_SYNTAX,
                                        "comment",
                                        "a comment is not closed",
                                    )
                                    .expected("}")
                                    .found("the end of the file"),
                                );
                                break;
                            }
                        }
                    }
                    self.comment(b, &line, &mut pending, c.trim());
                }
                Some(';') => {
                    self.bump();
                    let mut c = String::new();
                    while let Some(ch) = self.peek() {
                        if ch == '\n' {
                            break;
                        }
                        c.push(ch);
                        self.bump();
                    }
                    self.comment(b, &line, &mut pending, c.trim());
                }
                Some('(') => {
                    self.bump();
                    match line.last {
                        Some(parent) => {
                            stack.push((line, at));
                            line = Line {
                                next: parent,
                                last: None,
                                last_node: None,
                            };
                        }
                        None => {
                            b.diagnostics.push(
                                at.error(
                                    codes::PGN_SYNTAX,
                                    "variation",
                                    "a variation before any move it could replace",
                                )
                                .expected("a move, then ( its alternative )")
                                .found("("),
                            );
                            stack.push((line, at));
                            line.next = Parent::Lost;
                        }
                    }
                    pending.clear();
                }
                Some(')') => {
                    self.bump();
                    match stack.pop() {
                        Some((outer, _)) => line = outer,
                        None => b.diagnostics.push(
                            at.error(
                                codes::PGN_SYNTAX,
                                "variation",
                                "a ) that closes no variation",
                            )
                            .expected("a move or the result")
                            .found(")"),
                        ),
                    }
                    pending.clear();
                }
                Some(']' | '}') => {
                    let c = self.bump().unwrap_or(']');
                    b.diagnostics.push(
                        at.error(
                            codes::PGN_SYNTAX,
                            "movetext",
                            format!("a {c} that closes nothing"),
                        )
                        .expected("a move, a comment or the result")
                        .found(c.to_string()),
                    );
                }
                _ => {
                    let w = self.word();
                    if w.is_empty() {
                        // A lone '[' inside the movetext.
                        let c = self.bump().unwrap_or('[');
                        b.diagnostics.push(
                            at.error(codes::PGN_SYNTAX, "movetext", "a tag inside the moves")
                                .expected("tags before the moves")
                                .found(c.to_string()),
                        );
                        continue;
                    }
                    if let Some(code) = result_code(&w) {
                        if stack.is_empty() {
                            if tag_result.is_some_and(|t| t != code) {
                                b.diagnostics.push(
                                    at.warning(
                                        codes::PGN_TAG,
                                        "result",
                                        "the result after the moves differs from the Result tag",
                                    )
                                    .expected(format!("{}", tag_result.map_or(0, u8::from)))
                                    .found(w.clone()),
                                );
                            }
                            if tag_result.is_none() {
                                b.head("RecordResult", &code.to_string());
                                b.record.result = Some((code, at.path("result")));
                            }
                            self.trailing();
                            return;
                        }
                        b.diagnostics.push(
                            at.error(
                                codes::PGN_SYNTAX,
                                "variation",
                                "the result inside a variation",
                            )
                            .expected(")")
                            .found(w),
                        );
                        continue;
                    }
                    if let Some(rest) = number_prefix(&w) {
                        if rest.is_empty() {
                            continue;
                        }
                        // `1.h2e2`: a move glued to its number.
                        self.play(b, &mut line, &mut pending, rest, notation, at);
                        continue;
                    }
                    if w.starts_with('$') {
                        b.diagnostics.push(
                            at.warning(
                                codes::PGN_SYNTAX,
                                "glyph",
                                "a numeric annotation glyph: not kept (CBF has none)",
                            )
                            .found(w),
                        );
                        continue;
                    }
                    self.play(b, &mut line, &mut pending, &w, notation, at);
                }
            }
        }
        if let Some((_, at)) = stack.first() {
            b.diagnostics.push(
                at.error(codes::PGN_SYNTAX, "variation", "a variation is not closed")
                    .expected(")")
                    .found("the end of the game"),
            );
        }
    }

    fn comment(&mut self, b: &mut Builder, line: &Line, pending: &mut String, c: &str) {
        if c.is_empty() {
            return;
        }
        match line.last_node {
            Some(Parent::Node(n)) => {
                let old = &mut b.record.moves[n].comment;
                if !old.is_empty() {
                    old.push('\n');
                }
                old.push_str(c);
            }
            Some(_) => {}
            None if matches!(line.next, Parent::Root) && b.record.moves.is_empty() => {
                let g = b.record.game_comment.get_or_insert_with(String::new);
                if !g.is_empty() {
                    g.push('\n');
                }
                g.push_str(c);
            }
            None => {
                if !pending.is_empty() {
                    pending.push('\n');
                }
                pending.push_str(c);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn play(
        &mut self,
        b: &mut Builder,
        line: &mut Line,
        pending: &mut String,
        text: &str,
        notation: Option<Notation>,
        at: Place,
    ) {
        let parent = line.next;
        let node = match parent {
            Parent::Lost => {
                b.lost += 1;
                Parent::Lost
            }
            _ => match b.position(parent).map(|p| parse_move(p, text, notation)) {
                Some(Ok(mv)) => b.add(parent, mv, std::mem::take(pending), at),
                Some(Err(expected)) => {
                    b.diagnostics.push(
                        at.error(
                            codes::PGN_MOVE,
                            "move",
                            format!("no legal move of the side to move reads {text:?}"),
                        )
                        .expected(expected)
                        .found(text.to_string()),
                    );
                    b.lost += 1;
                    Parent::Lost
                }
                None => {
                    b.lost += 1;
                    Parent::Lost
                }
            },
        };
        line.last = Some(parent);
        line.last_node = Some(node);
        line.next = node;
    }

    /// After the result: what follows up to the next tag is a warning.
    fn trailing(&mut self) {
        if !self.skip_blank() {
            return;
        }
        let at = self.place();
        if self.peek() == Some('[') {
            return;
        }
        let mut n = 0usize;
        while self.skip_blank() && !(self.peek() == Some('[') && self.column == 1) {
            self.skip_line();
            n += 1;
        }
        self.diagnostics.push(
            at.warning(
                codes::TRAILING_DATA,
                "text",
                format!("{n} lines of text after the result of the game (not read)"),
            )
            .expected("the end of the file or the next game's tags"),
        );
    }
}

/// `1.` / `12...` / `1.h2e2`: what follows the move number (`None`: no number).
fn number_prefix(w: &str) -> Option<&str> {
    let digits = w.find(|c: char| !c.is_ascii_digit())?;
    if digits == 0 {
        return None;
    }
    let rest = &w[digits..];
    let rest = rest.strip_prefix('.')?;
    Some(rest.trim_start_matches('.'))
}

/// The result code of a PGN result token.
fn result_code(w: &str) -> Option<u8> {
    match w {
        "1-0" => Some(1),
        "0-1" => Some(2),
        "1/2-1/2" | "½-½" => Some(3),
        "*" => Some(0),
        _ => None,
    }
}

/// The move `text` in `pos`, in `notation` or as it looks; `Err` says what was expected.
fn parse_move(pos: &Position, text: &str, notation: Option<Notation>) -> Result<Move, String> {
    let iccs = |t: &str| -> Option<Move> {
        let t: String = t.chars().filter(|&c| c != '-').collect();
        (t.len() == 4)
            .then(|| Move::parse_iccs(&t.to_ascii_lowercase()).ok())
            .flatten()
    };
    let looks = notation.unwrap_or_else(|| {
        if !text.is_ascii() {
            Notation::Chinese
        } else if iccs(text).is_some() {
            Notation::Iccs
        } else {
            Notation::Wxf
        }
    });
    match looks {
        // An ICCS move is taken as written; the rules judge it when it is played.
        Notation::Iccs => iccs(text).ok_or_else(|| "an ICCS move such as h2e2".to_string()),
        Notation::Chinese => pos
            .parse_chinese(text)
            .map_err(|_| "a legal move in Chinese notation, such as 炮二平五".to_string()),
        Notation::Wxf => {
            // N and B are other letters for the horse and elephant.
            let t: String = text
                .chars()
                .map(|c| match c.to_ascii_uppercase() {
                    'N' => 'H',
                    'B' => 'E',
                    u => u,
                })
                .collect();
            pos.parse_wxf(&t)
                .map_err(|_| "a legal move in WXF notation, such as C2.5".to_string())
        }
    }
}

#[cfg(test)]
mod tag_tests {
    use super::*;

    /// Every text field of the CBF 1.0 head, as the generated field table lists it, is
    /// filled by the tag of its name: the mapping is the schema's, not a list here.
    #[test]
    fn every_text_field_of_the_schema_takes_the_tag_of_its_name() {
        let mut mapped = 0;
        for f in cbf_1_0::Head::FIELDS {
            if f.kind != ComplexKind::Element || FILLED_OTHERWISE.iter().any(|(n, _)| *n == f.xml) {
                continue;
            }
            // RecordType holds a code: a text value is refused by its type.
            let value = if f.xml == "RecordType" { "1" } else { "text" };
            assert_eq!(tag_field(f.xml, value), TagField::Field(f.xml), "{}", f.xml);
            mapped += 1;
        }
        assert!(mapped >= 30, "{mapped}");
        assert_eq!(tag_field("Opening", "中炮"), TagField::None);
        assert_eq!(tag_field("FEN", "x"), TagField::None);
        assert_eq!(tag_field("Event", "A"), TagField::Field("Contest"));
        assert!(matches!(tag_field("RecordType", "x"), TagField::Invalid(_)));
    }
}
