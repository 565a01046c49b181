//! XQF (象棋演播室 / XQStudio), the most common archive format of xiangqi games.
//!
//! Learnt from the public descriptions: xqbase/eleeye `XQFTOOLS/XQF.TXT`, `xqffile.h` and
//! `xqf2pgn.cpp`, and the reader of the Python library cchess. Our own code.
//!
//! # Layout
//!
//! A 1024-byte header, then the move tree. In the header: `XQ` and the version byte
//! (10 = 1.0 and before: plain; 11 and later: obfuscated); bytes 3 and 8..16 the keys;
//! 16..48 the square of each of the 32 pieces (red R N E A K A E N R C C P P P P P, then
//! black; a square is `file * 10 + rank`, file 0 = red's left, rank 0 = red's back rank;
//! above 89: not on the board); 0x33 the result (0 unknown, 1 red wins, 2 black wins,
//! 3 draw); 0x40 the kind (0 full game, 1 opening, 2 middle game, 3 endgame); then
//! length-prefixed GBK strings: title 0x50, event 0xD0, date 0x110, site 0x120, red 0x130,
//! black 0x140, time rule 0x150, red's time 0x190, black's time 0x1A0, annotator 0x1D0,
//! author 0x1E0.
//!
//! The tree is a run of 4-byte move records `from, to, flags, reserved` in depth-first
//! order, each followed by its comment: the first record is not a move but carries the
//! game comment. Before version 11 a 4-byte comment length always follows, and flags
//! `0xF0` mean "a continuation follows", `0x0F` "an alternative to this move follows
//! after its subtree". From 11 on the bytes from 1024 are shifted by a 32-byte key stream
//! (`[(C) Copyright Mr. Dong Shiwei.]` masked by keys from the header), squares by
//! further keys, flags `0x80` continuation, `0x40` alternative, `0x20` a comment (its
//! length, less a key, follows); from 12 on the piece squares are also rotated.
//!
//! XQF stores no side to move: it is the side of the first move's piece.

use crate::codes;
use boardxml_xiangqi::{Move, Piece, PieceKind, Point, Position, Side};

use super::{all_warnings, title_of, truncated, Builder, Kind, Parent, Place, Read, Text, Titled};
use boardxml::diagnostic::Diagnostic;

/// The header's size; the move tree starts here.
pub const HEADER: usize = 1024;

/// The newest version this reader knows (XQStudio 1.8).
const NEWEST: u8 = 18;

const KEY_STREAM_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The kinds of the 16 pieces of a side, in the order of the piece table.
pub const PIECE_ORDER: [PieceKind; 16] = {
    use PieceKind::*;
    [
        Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn,
        Pawn, Pawn, Pawn, Pawn,
    ]
};

/// The header's text fields: offset of the length byte, capacity, CBF 1.0 field.
pub const TEXT_FIELDS: &[(usize, usize, &str)] = &[
    (0x50, 63, "Name"),
    (0xD0, 63, "Contest"),
    (0x110, 15, "Date"),
    (0x120, 15, "Site"),
    (0x130, 15, "Red"),
    (0x140, 15, "Black"),
    (0x150, 63, "TimeRule"),
    (0x190, 15, "RedTime"),
    (0x1A0, 15, "BlackTime"),
    (0x1D0, 15, "Commentator"),
    (0x1E0, 15, "Creator"),
];

/// Offset of the result byte.
pub const RESULT: usize = 0x33;
/// Offset of the kind byte (full game, opening, middle game, endgame).
pub const KIND: usize = 0x40;

/// `x*x*54 + 221` of the key formulas (the published ((((x²·3+9)·3+8)·2+1)·3+8)).
fn square54(x: u8) -> u32 {
    let x = u32::from(x);
    x * x * 54 + 221
}

/// The keys of an obfuscated file (version 11 on).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Keys {
    /// Piece squares.
    pub(crate) xy: u8,
    /// Move origins.
    pub(crate) from: u8,
    /// Move destinations.
    pub(crate) to: u8,
    /// Comment lengths.
    pub(crate) comment: u32,
    /// The stream the bytes from 1024 are shifted by.
    pub(crate) stream: [u8; 32],
}

impl Keys {
    /// The keys of the header's key bytes (`header[0..16]`).
    pub(crate) fn of(tag: &[u8]) -> Keys {
        let xy = (square54(tag[13]) * u32::from(tag[13])) as u8;
        let from = (square54(tag[14]) * u32::from(xy)) as u8;
        let to = (square54(tag[15]) * u32::from(from)) as u8;
        let comment = (u32::from(tag[12]) * 256 + u32::from(tag[13])) % 32000 + 767;
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            *s = (tag[8 + i % 4] | (tag[12 + i % 4] & tag[3])) & KEY_STREAM_MASK[i];
        }
        Keys {
            xy,
            from,
            to,
            comment,
            stream,
        }
    }

    /// The keys of a plain file (before version 11): nothing shifted.
    pub(crate) fn plain() -> Keys {
        Keys {
            xy: 0,
            from: 0,
            to: 0,
            comment: 0,
            stream: [0; 32],
        }
    }
}

/// The point of an XQF square (`file * 10 + rank`, rank 0 at red's back), if on the board.
pub fn point_of(square: u8) -> Option<Point> {
    (square < 90).then(|| Point {
        x: square / 10,
        y: 9 - square % 10,
    })
}

/// The XQF square of a point.
pub fn square_of(p: Point) -> u8 {
    p.x * 10 + (9 - p.y)
}

/// Decodes GBK text strictly; bad bytes are an E0503 at `offset` (the text is then given
/// with replacement characters, so that the rest can still be read).
pub(crate) fn gbk_text(
    bytes: &[u8],
    offset: usize,
    what: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let bytes = match bytes.iter().position(|&b| b == 0) {
        Some(end) => &bytes[..end],
        None => bytes,
    };
    let text = Text {
        encoding: encoding_rs::GBK,
        offset,
        what,
        problem: "holds bytes that are not GBK text",
        expected: "GBK (GB18030) text",
    };
    text.decode(bytes, diagnostics)
}

/// Reads an XQF file.
pub fn read(bytes: &[u8]) -> Read {
    let mut diagnostics = Vec::new();
    let record = read_record(bytes, &mut diagnostics);
    Read::binary(Kind::Xqf, record.into_iter().collect(), diagnostics)
}

fn read_record(bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> Option<Titled> {
    if bytes.len() < HEADER {
        diagnostics.push(truncated(bytes.len(), "XQF header", HEADER - bytes.len()));
        return None;
    }
    let version = bytes[2];
    if version > NEWEST {
        diagnostics.push(
            Place::byte(2)
                .error(
                    codes::BINARY_HEADER,
                    "version",
                    format!("XQF version {version} is newer than any this reader knows"),
                )
                .expected(format!("a version up to {NEWEST}"))
                .found(version.to_string()),
        );
        return None;
    }
    let obfuscated = version >= 11;
    let keys = if obfuscated {
        Keys::of(&bytes[..16])
    } else {
        Keys::plain()
    };

    // The pieces.
    let raw = &bytes[16..48];
    let mut squares = [0u8; 32];
    for (i, &b) in raw.iter().enumerate() {
        let at = if version >= 12 {
            (usize::from(keys.xy) + 1 + i) % 32
        } else {
            i
        };
        squares[at] = b.wrapping_sub(keys.xy);
    }
    let mut start = Position::empty(Side::Red);
    for (i, &square) in squares.iter().enumerate() {
        let Some(point) = point_of(square) else {
            continue;
        };
        let side = if i < 16 { Side::Red } else { Side::Black };
        let piece = Piece::new(side, PIECE_ORDER[i % 16]);
        if let Some(other) = start.piece_at(point) {
            diagnostics.push(
                Place::byte(16 + i)
                    .error(
                        codes::BINARY_HEADER,
                        "piece table",
                        format!(
                            "two pieces on {}: {} and {}",
                            point.iccs(),
                            other.chinese_name(),
                            piece.chinese_name()
                        ),
                    )
                    .expected("one piece a point")
                    .found(point.iccs()),
            );
            continue;
        }
        start.set_piece(point, Some(piece));
    }
    let mut b = Builder::new(start, true, Place::byte(16));
    for &(offset, capacity, name) in TEXT_FIELDS {
        let len = usize::from(bytes[offset]);
        let len = if len > capacity {
            b.diagnostics.push(
                Place::byte(offset)
                    .error(
                        codes::BINARY_HEADER,
                        name,
                        format!("the length of the {name} text is over its field's size"),
                    )
                    .expected(format!("at most {capacity}"))
                    .found(len.to_string()),
            );
            capacity
        } else {
            len
        };
        let text = gbk_text(
            &bytes[offset + 1..offset + 1 + len],
            offset + 1,
            name,
            &mut b.diagnostics,
        );
        b.head(name, text.trim());
    }
    // The kind of position (XQF.TXT: 0 a whole game, 1 an opening, 2 a middle game, 3 an
    // endgame): CBF has no field for it (its RecordType says played or composed).
    let kind = bytes[KIND];
    if let Some(name) = match kind {
        1 => Some("an opening"),
        2 => Some("a middle game"),
        3 => Some("an endgame"),
        _ => None,
    } {
        b.diagnostics.push(
            Place::byte(KIND)
                .warning(
                    codes::BINARY_HEADER,
                    "kind",
                    format!("the XQF kind {kind} ({name}) has no CBF field: not kept"),
                )
                .found(kind.to_string()),
        );
    }
    let result = bytes[RESULT];
    if result <= 4 {
        b.head("RecordResult", &result.to_string());
        b.record.result = Some((result.min(3), Place::byte(RESULT).path("result")));
    } else {
        b.diagnostics.push(
            Place::byte(RESULT)
                .warning(
                    codes::BINARY_HEADER,
                    "result",
                    format!("result code {result} is none XQF knows (kept as unknown)"),
                )
                .expected("0 (unknown), 1 (red wins), 2 (black wins) or 3 (draw)")
                .found(result.to_string()),
        );
    }

    // The move tree, shifted back by the key stream.
    let body: Vec<u8> = bytes[HEADER..]
        .iter()
        .enumerate()
        .map(|(i, &v)| v.wrapping_sub(keys.stream[i % 32]))
        .collect();
    let mut tree = Tree {
        body: &body,
        at: 0,
        version,
        keys,
        complete: true,
    };
    match tree.record() {
        Err(d) => b.diagnostics.push(d),
        Ok(root) => {
            b.record.game_comment = root.comment.filter(|c| !c.is_empty());
            if root.next {
                read_moves(&mut tree, &mut b);
            }
            let rest = &body[tree.at..];
            if tree.complete && rest.iter().any(|&v| v != 0) {
                b.diagnostics.push(
                    Place::byte(HEADER + tree.at)
                        .warning(
                            codes::TRAILING_DATA,
                            "move tree",
                            format!(
                                "{} bytes follow the end of the move tree (not read)",
                                rest.len()
                            ),
                        )
                        .expected("the end of the file")
                        .found(format!("{} bytes", rest.len())),
                );
            }
        }
    }
    let title = title_of(&b.record);
    let (record, mut found) = b.finish();
    let valid = all_warnings(&found) && all_warnings(diagnostics);
    diagnostics.append(&mut found);
    Some(Titled {
        title,
        record,
        offset: 0,
        valid,
    })
}

/// One record of the tree as read.
struct Step {
    from: u8,
    to: u8,
    next: bool,
    alternative: bool,
    comment: Option<String>,
    comment_errors: Vec<Diagnostic>,
}

struct Tree<'b> {
    body: &'b [u8],
    at: usize,
    version: u8,
    keys: Keys,
    /// False once the tree could not be read to its end.
    complete: bool,
}

impl Tree<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], Diagnostic> {
        if self.body.len() - self.at < n {
            return Err(truncated(
                HEADER + self.at,
                what,
                n - (self.body.len() - self.at),
            ));
        }
        let s = &self.body[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn int(&mut self, what: &str) -> Result<i64, Diagnostic> {
        let b = self.take(4, what)?;
        Ok(i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    }

    fn record(&mut self) -> Result<Step, Diagnostic> {
        let b = self.take(4, "move record")?;
        let (from, to, flags) = (b[0], b[1], b[2]);
        let (next, alternative, length) = if self.version < 11 {
            let length = self.int("comment length")?;
            (flags & 0xF0 != 0, flags & 0x0F != 0, length)
        } else {
            let length = if flags & 0x20 != 0 {
                self.int("comment length")? - i64::from(self.keys.comment)
            } else {
                0
            };
            (flags & 0x80 != 0, flags & 0x40 != 0, length)
        };
        let length_at = HEADER + self.at - 4;
        if length < 0 || length as usize > self.body.len() - self.at {
            return Err(Place::byte(length_at)
                .error(
                    codes::TRUNCATED,
                    "comment length",
                    format!(
                        "a comment of {length} bytes, but {} bytes are left in the file",
                        self.body.len() - self.at
                    ),
                )
                .expected(format!("0 to {}", self.body.len() - self.at))
                .found(length.to_string()));
        }
        let mut comment_errors = Vec::new();
        let comment = if length > 0 {
            let at = HEADER + self.at;
            let raw = self.take(length as usize, "comment")?;
            Some(gbk_text(raw, at, "comment", &mut comment_errors))
        } else {
            None
        };
        let (from, to) = if self.version < 11 {
            (from.wrapping_sub(0x18), to.wrapping_sub(0x20))
        } else {
            (
                from.wrapping_sub(0x18).wrapping_sub(self.keys.from),
                to.wrapping_sub(0x20).wrapping_sub(self.keys.to),
            )
        };
        Ok(Step {
            from,
            to,
            next,
            alternative,
            comment,
            comment_errors,
        })
    }
}

/// Reads the move records after the root one, depth first: after a move, its
/// continuation (if announced), then, once that subtree ends, its alternative.
fn read_moves(tree: &mut Tree<'_>, b: &mut Builder) {
    let mut pending: Vec<Parent> = Vec::new();
    let mut parent = Parent::Root;
    loop {
        let at = HEADER + tree.at;
        let step = match tree.record() {
            Ok(s) => s,
            Err(d) => {
                b.diagnostics.push(d);
                tree.complete = false;
                return;
            }
        };
        b.diagnostics.extend(step.comment_errors);
        let node = match (point_of(step.from), point_of(step.to)) {
            (Some(from), Some(to)) => b.add(
                parent,
                Move::new(from, to),
                step.comment.unwrap_or_default(),
                Place::byte(at),
            ),
            _ => b.off_board(
                Place::byte(at),
                [step.from, step.to],
                "a square 0..89 (file * 10 + rank)",
            ),
        };
        if step.alternative {
            pending.push(parent);
        }
        if step.next {
            parent = node;
        } else {
            match pending.pop() {
                Some(p) => parent = p,
                None => return,
            }
        }
    }
}

/// The version [`write()`] writes: 1.8, the most common, with every key byte zero (so the
/// key stream is all zeros and squares are only offset; comment lengths carry the
/// constant 767 of a zero key).
pub const WRITTEN_VERSION: u8 = 18;

/// Writes a record as XQF (version 1.8, keys zero). What XQF cannot hold is a
/// [`Loss`](crate::cbf::convert::Loss): head fields it has no place for, text over its
/// field's size or outside GBK, a start with black to move and no move (XQF takes the
/// side from the first move), a move number other than 1, result 4.
pub fn write(
    record: &crate::cbf::record::Record,
) -> Result<crate::cbf::convert::Converted<Vec<u8>>, crate::cbf::convert::ConvertError> {
    use crate::cbf::convert::{ConvertError, Converted, Loss};
    let start = record.start.as_ref().ok_or(ConvertError::NoStartPosition)?;
    let mut losses = Vec::new();
    let mut out = vec![0u8; HEADER];
    out[..3].copy_from_slice(&[b'X', b'Q', WRITTEN_VERSION]);
    // The pieces, each in the first free slot of its kind; absent ones off the board.
    let mut squares = [0xFFu8; 32];
    let mut used = [false; 32];
    for (point, piece) in start.pieces() {
        let base = if piece.side == Side::Red { 0 } else { 16 };
        match (0..16).find(|&i| !used[base + i] && PIECE_ORDER[i] == piece.kind) {
            Some(slot) => {
                used[base + slot] = true;
                squares[base + slot] = square_of(point);
            }
            None => losses.push(Loss::new(
                "start position",
                format!(
                    "XQF has no slot for another {} at {} (dropped)",
                    piece.chinese_name(),
                    point.iccs()
                ),
            )),
        }
    }
    // From version 12 the table is rotated by the key (zero): slot i is written at i - 1.
    for i in 0..32 {
        out[16 + i] = squares[(i + 1) % 32];
    }
    let standard = crate::cbf::convert::is_standard_start(start);
    // A kind under 2 tells readers to set up the standard start whatever the table says.
    out[KIND] = if standard { 0 } else { 2 };
    if start.move_number() != 1 {
        losses.push(Loss::new(
            "move number",
            format!(
                "XQF has no move number: the record starts at move {} (written as 1)",
                start.move_number()
            ),
        ));
    }
    if start.side_to_move() == Side::Black && record.root_children.is_empty() {
        losses.push(Loss::new(
            "side to move",
            "XQF takes the side to move from the first move: with no move, black to move is lost",
        ));
    }
    let code = record.result.as_ref().map_or(0, |r| r.0);
    let raw_result = record
        .head
        .iter()
        .find(|f| f.name == "RecordResult" || f.name == "Result")
        .and_then(|f| f.value.trim().parse::<u8>().ok());
    if raw_result == Some(4) {
        losses.push(Loss::new(
            "RecordResult",
            "result 4 (a draw of an undocumented kind) is written as 3, a draw",
        ));
    }
    out[RESULT] = code.min(3);
    for f in &record.head {
        let field = match f.name {
            "Event" => "Contest",
            "Title" => "Name",
            other => other,
        };
        match TEXT_FIELDS.iter().find(|(_, _, n)| *n == field) {
            Some(&(offset, capacity, _)) => {
                let (bytes, _, unmappable) = encoding_rs::GBK.encode(f.value.trim());
                if unmappable {
                    losses.push(Loss::new(
                        f.name,
                        "characters GBK cannot hold are written as &#...; references",
                    ));
                }
                let mut n = bytes.len().min(capacity);
                // Never cut a two-byte character in half.
                while n > 0
                    && n < bytes.len()
                    && encoding_rs::GBK
                        .decode_without_bom_handling_and_without_replacement(&bytes[..n])
                        .is_none()
                {
                    n -= 1;
                }
                if n < bytes.len() {
                    losses.push(Loss::new(
                        f.name,
                        format!("XQF holds {capacity} bytes of it: cut to {n}"),
                    ));
                }
                out[offset] = n as u8;
                out[offset + 1..offset + 1 + n].copy_from_slice(&bytes[..n]);
            }
            None => match f.name {
                "RecordResult" | "Result" | "Comment" | "FEN" | "Board" => {}
                _ if f.value.trim().is_empty() => {}
                name => losses.push(Loss::new(name, "XQF has no such field (dropped)")),
            },
        }
    }
    // The tree: the root record, then every move depth first, first child first.
    let comment = |text: &str, out: &mut Vec<u8>, losses: &mut Vec<Loss>| {
        let (bytes, _, unmappable) = encoding_rs::GBK.encode(text);
        if unmappable {
            losses.push(Loss::new(
                "comment",
                "characters GBK cannot hold are written as &#...; references",
            ));
        }
        let length = bytes.len() as u32 + 767;
        out.extend(length.to_le_bytes());
        out.extend(bytes.iter());
    };
    let game_comment = record.game_comment.as_deref().unwrap_or("");
    let mut flags = 0u8;
    if !record.root_children.is_empty() {
        flags |= 0x80;
    }
    if !game_comment.is_empty() {
        flags |= 0x20;
    }
    out.extend([0x18, 0x20, flags, 0]);
    if !game_comment.is_empty() {
        comment(game_comment, &mut out, &mut losses);
    }
    let mut stack: Vec<(usize, bool)> = Vec::new();
    let push = |stack: &mut Vec<(usize, bool)>, children: &[usize]| {
        for (i, &c) in children.iter().enumerate().rev() {
            stack.push((c, i + 1 < children.len()));
        }
    };
    push(&mut stack, &record.root_children);
    while let Some((index, later_sibling)) = stack.pop() {
        let node = &record.moves[index];
        let mut flags = 0u8;
        if !node.children.is_empty() {
            flags |= 0x80;
        }
        if later_sibling {
            flags |= 0x40;
        }
        if !node.comment.is_empty() {
            flags |= 0x20;
        }
        out.extend([
            square_of(node.mv.from) + 0x18,
            square_of(node.mv.to) + 0x20,
            flags,
            0,
        ]);
        if !node.comment.is_empty() {
            comment(&node.comment, &mut out, &mut losses);
        }
        push(&mut stack, &node.children);
    }
    Ok(Converted {
        output: out,
        losses,
    })
}
