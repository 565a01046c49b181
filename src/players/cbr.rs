//! XiangQi Bridge's (象棋桥) binary formats: the CBR record and the CBL library.
//!
//! Learnt from the public readers (cchess `read_cbr.py`, vschess `function.cbr.js`) and a
//! public write-up of the layout; our own code.
//!
//! # A record
//!
//! `CCBridge Record\0`, then fixed-width UTF-16LE text fields, NUL-terminated within their
//! width (the bytes after the NUL are whatever was in memory: never read): title at 180,
//! event at 692, red at 1076, black at 1300 and the others of [`TEXT_FIELDS`]; 2040 the
//! kind, 2076 the result (0 unknown, 1 red wins, 2 black wins, 3 draw, 4 other), 2112 the
//! side to move (1 red, 2 black), 2116 the move number (16-bit), 2120 the board (90
//! bytes, top row first; `0x1k` red, `0x2k` black, k = 1 rook, 2 horse, 3 elephant,
//! 4 advisor, 5 king, 6 cannon, 7 pawn).
//!
//! From 2214 the move tree: 4-byte records `flags, 0, from, to` (a board index each),
//! depth first. The first record is no move: its flags may announce the game comment.
//! Flags: `0x01` this line ends, `0x02` an alternative to this move follows (after its
//! subtree), `0x04` a comment follows: a 4-byte byte length, then UTF-16LE text. The tree
//! ends with the end of a line when no alternative is pending.
//!
//! # A library
//!
//! `CCBridgeLibrary\0`; at 60 the number of index slots, at 64 the library's name (512
//! bytes); from 66624 one 276-byte index entry per slot; then the records, each starting
//! on a 4096-byte boundary from `66624 + slots * 276` (a long record runs on into the next
//! slots).

use boardxml_xiangqi::{Move, Piece, PieceKind, Point, Position, Side};

use super::{all_warnings, title_of, Builder, Kind, Parent, Place, Read, Titled};
use crate::diagnostic::{Code, Diagnostic};

/// The magic of a record.
pub const RECORD_MAGIC: &[u8; 16] = b"CCBridge Record\0";
/// The magic of a library.
pub const LIBRARY_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
/// Where the move tree starts in a record.
pub const MOVES: usize = 2214;
/// A library's slot size.
pub const SLOT: usize = 4096;
/// Where a library's index starts.
pub const INDEX: usize = 66624;
/// The size of an index entry.
pub const INDEX_ENTRY: usize = 276;
/// Offset of the kind byte.
pub const KIND: usize = 2040;
/// Offset of the result byte.
pub const RESULT: usize = 2076;
/// Offset of the side-to-move byte.
pub const SIDE: usize = 2112;
/// Offset of the 16-bit move number.
pub const MOVE_NUMBER: usize = 2116;
/// Offset of the board.
pub const BOARD: usize = 2120;

/// The text fields: offset, width in bytes, CBF 1.0 field.
pub const TEXT_FIELDS: &[(usize, usize, &str)] = &[
    (180, 128, "Name"),
    (564, 64, "From"),
    (628, 64, "ContestType"),
    (692, 64, "Contest"),
    (756, 64, "Round"),
    (820, 32, "Group"),
    (852, 32, "Table"),
    (884, 64, "Date"),
    (948, 64, "Site"),
    (1012, 64, "TimeRule"),
    (1076, 64, "Red"),
    (1140, 64, "RedTeam"),
    (1204, 64, "RedTime"),
    (1268, 32, "RedRating"),
    (1300, 64, "Black"),
    (1364, 64, "BlackTeam"),
    (1428, 64, "BlackTime"),
    (1492, 32, "BlackRating"),
    (1524, 64, "Referee"),
    (1588, 64, "Recorder"),
    (1652, 64, "Commentator"),
    (1716, 64, "CommentatorURL"),
    (1780, 64, "Creator"),
    (1844, 64, "CreatorURL"),
    (1908, 40, "DateCreated"),
    (1972, 40, "DateModified"),
    (2044, 32, "RecordKind"),
    (2080, 32, "ResultType"),
];

/// A board byte that is no piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoPiece(pub u8);

/// The piece of a board byte (`None` for 0, an empty point).
pub fn piece_of(byte: u8) -> Result<Option<Piece>, NoPiece> {
    if byte == 0 {
        return Ok(None);
    }
    let side = match byte >> 4 {
        1 => Side::Red,
        2 => Side::Black,
        _ => return Err(NoPiece(byte)),
    };
    let kind = match byte & 0x0F {
        1 => PieceKind::Rook,
        2 => PieceKind::Horse,
        3 => PieceKind::Elephant,
        4 => PieceKind::Advisor,
        5 => PieceKind::King,
        6 => PieceKind::Cannon,
        7 => PieceKind::Pawn,
        _ => return Err(NoPiece(byte)),
    };
    Ok(Some(Piece::new(side, kind)))
}

/// The point of a board index (top row first).
pub fn point_of(index: u8) -> Option<Point> {
    (index < 90).then(|| Point::from_index(usize::from(index)))
}

/// Decodes fixed-width UTF-16LE text up to its first NUL, strictly (bad text is an E0503
/// at `offset`, then given with replacement characters).
pub(crate) fn utf16_text(
    bytes: &[u8],
    offset: usize,
    what: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let mut end = bytes.len() & !1;
    for i in (0..end).step_by(2) {
        if bytes[i] == 0 && bytes[i + 1] == 0 {
            end = i;
            break;
        }
    }
    let bytes = &bytes[..end];
    match encoding_rs::UTF_16LE.decode_without_bom_handling_and_without_replacement(bytes) {
        Some(text) => text.into_owned(),
        None => {
            let (text, _) = encoding_rs::UTF_16LE.decode_without_bom_handling(bytes);
            diagnostics.push(
                Place::byte(offset)
                    .error(
                        Code::TextBytes,
                        what,
                        format!("the {what} is not UTF-16LE text (an unpaired surrogate)"),
                    )
                    .expected("UTF-16LE text")
                    .found(format!("{:02X?}", &bytes[..bytes.len().min(16)])),
            );
            text.into_owned()
        }
    }
}

fn truncated(at: usize, what: &str, len: usize) -> Diagnostic {
    Place::byte(at)
        .error(
            Code::Truncated,
            what,
            format!("the file ends inside the {what}"),
        )
        .expected(format!("{len} more bytes"))
        .found("the end of the file")
}

/// Reads a `.cbr` file: one record.
pub fn read_record_file(bytes: &[u8]) -> Read {
    let mut diagnostics = Vec::new();
    let mut records = Vec::new();
    if let Some((record, _)) = read_record(bytes, 0, &mut diagnostics) {
        records.push(record);
    }
    Read {
        kind: Kind::Cbr,
        records,
        diagnostics,
        encoding: encoding_rs::UTF_16LE,
        text: None,
    }
}

/// Reads the record at `base` of `file`; gives it and where its move tree ends (`None`:
/// its header could not be read).
pub(crate) fn read_record(
    file: &[u8],
    base: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Titled, usize)> {
    let bytes = &file[base..];
    if bytes.len() < MOVES {
        diagnostics.push(truncated(
            base + bytes.len(),
            "CBR header",
            MOVES - bytes.len(),
        ));
        return None;
    }
    let at = |o: usize| Place::byte(base + o);
    let mut problems = Vec::new();
    let mut start = Position::empty(Side::Red);
    for i in 0..90u8 {
        let byte = bytes[BOARD + usize::from(i)];
        match piece_of(byte) {
            Ok(piece) => start.set_piece(Point::from_index(usize::from(i)), piece),
            Err(_) => problems.push(
                at(BOARD + usize::from(i))
                    .error(
                        Code::BinaryHeader,
                        "board",
                        format!(
                            "the board byte of {} is no piece",
                            Point::from_index(usize::from(i)).iccs()
                        ),
                    )
                    .expected("0, 0x11..0x17 (red) or 0x21..0x27 (black)")
                    .found(format!("0x{byte:02X}")),
            ),
        }
    }
    match bytes[SIDE] {
        1 => {}
        2 => start.set_side_to_move(Side::Black),
        other => problems.push(
            at(SIDE)
                .error(
                    Code::BinaryHeader,
                    "side to move",
                    "the side to move is neither red nor black",
                )
                .expected("1 (red) or 2 (black)")
                .found(other.to_string()),
        ),
    }
    let number = u16::from_le_bytes([bytes[MOVE_NUMBER], bytes[MOVE_NUMBER + 1]]);
    if number > 0 {
        start.set_move_number(u32::from(number));
    }
    let mut b = Builder::new(start, false, at(BOARD));
    b.diagnostics.append(&mut problems);
    for &(offset, width, name) in TEXT_FIELDS {
        let text = utf16_text(
            &bytes[offset..offset + width],
            base + offset,
            name,
            &mut b.diagnostics,
        );
        b.head(name, text.trim());
    }
    b.head("RecordType", &bytes[KIND].to_string());
    let result = bytes[RESULT];
    if result <= 4 {
        b.head("RecordResult", &result.to_string());
        b.record.result = Some((result.min(3), at(RESULT).path("result")));
    } else {
        b.diagnostics.push(
            at(RESULT)
                .warning(
                    Code::BinaryHeader,
                    "result",
                    format!("result code {result} is none CBR knows (kept as unknown)"),
                )
                .expected("0..4")
                .found(result.to_string()),
        );
    }
    let end = read_tree(bytes, base, &mut b);
    let title = title_of(&b.record);
    let (record, mut found) = b.finish();
    let valid = all_warnings(&found);
    diagnostics.append(&mut found);
    Some((
        Titled {
            title,
            record,
            offset: base,
            valid,
        },
        base + end,
    ))
}

struct Step {
    flags: u8,
    from: u8,
    to: u8,
    comment: String,
}

/// One record of the tree at `*at` (relative to the record), with its comment.
fn step(bytes: &[u8], base: usize, at: &mut usize, b: &mut Builder) -> Result<Step, Diagnostic> {
    let here = *at;
    let Some(r) = bytes.get(here..here + 4) else {
        return Err(truncated(
            base + bytes.len(),
            "move record",
            here + 4 - bytes.len(),
        ));
    };
    let (flags, from, to) = (r[0], r[2], r[3]);
    *at += 4;
    let mut comment = String::new();
    if flags & 0x04 != 0 {
        let Some(l) = bytes.get(*at..*at + 4) else {
            return Err(truncated(
                base + bytes.len(),
                "comment length",
                *at + 4 - bytes.len(),
            ));
        };
        let length = u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize;
        *at += 4;
        let left = bytes.len() - *at;
        if length > left {
            return Err(Place::byte(base + *at - 4)
                .error(
                    Code::Truncated,
                    "comment length",
                    format!("a comment of {length} bytes, but {left} bytes are left"),
                )
                .expected(format!("0 to {left}"))
                .found(length.to_string()));
        }
        let text_at = base + *at;
        comment = utf16_text(
            &bytes[*at..*at + length],
            text_at,
            "comment",
            &mut b.diagnostics,
        );
        if length % 2 == 1 {
            b.diagnostics.push(
                Place::byte(text_at)
                    .error(
                        Code::TextBytes,
                        "comment",
                        "a UTF-16LE comment of an odd number of bytes",
                    )
                    .expected("an even length")
                    .found(length.to_string()),
            );
        }
        *at += length;
    }
    Ok(Step {
        flags,
        from,
        to,
        comment,
    })
}

/// Reads the move tree of the record `bytes` into `b`; gives where it ends.
fn read_tree(bytes: &[u8], base: usize, b: &mut Builder) -> usize {
    let mut at = MOVES;
    match step(bytes, base, &mut at, b) {
        Ok(root) => {
            if !root.comment.is_empty() {
                b.record.game_comment = Some(root.comment);
            }
        }
        Err(d) => {
            b.diagnostics.push(d);
            return at;
        }
    }
    // No move at all: the file (or the slot) ends, or holds zeros only.
    let rest = &bytes[at..];
    if rest.len() < 4 || rest[..4] == [0, 0, 0, 0] {
        return at;
    }
    let mut pending: Vec<Parent> = Vec::new();
    let mut parent = Parent::Root;
    loop {
        let here = at;
        let s = match step(bytes, base, &mut at, b) {
            Ok(s) => s,
            Err(d) => {
                b.diagnostics.push(d);
                return at;
            }
        };
        let node = match (point_of(s.from), point_of(s.to)) {
            (Some(from), Some(to)) => b.add(
                parent,
                Move::new(from, to),
                s.comment,
                Place::byte(base + here),
            ),
            _ => {
                let bad = if point_of(s.from).is_none() {
                    s.from
                } else {
                    s.to
                };
                b.diagnostics.push(
                    Place::byte(base + here + 2)
                        .error(
                            Code::MoveSquare,
                            "move",
                            format!("a move square {bad} is off the board (squares are 0..89)"),
                        )
                        .expected("a board index 0..89")
                        .found(bad.to_string()),
                );
                b.lost += 1;
                Parent::Lost
            }
        };
        if s.flags & 0x02 != 0 {
            pending.push(parent);
        }
        if s.flags & 0x01 == 0 {
            parent = node;
        } else {
            match pending.pop() {
                Some(p) => parent = p,
                None => return at,
            }
        }
    }
}

/// Where the move tree of the record at `base` of `file` ends, found from the tree's
/// structure alone (flags and comment lengths; no text decoded, no move checked): the end
/// [`read_record`] gives, so that a library's records can be found first and then read in
/// parallel. `None` where [`read_record`] reads nothing (the header is cut short).
fn record_end(file: &[u8], base: usize) -> Option<usize> {
    let bytes = &file[base..];
    if bytes.len() < MOVES {
        return None;
    }
    // One tree record, `*at` moved as `step` moves it, also where it fails.
    let skip = |at: &mut usize| -> Option<u8> {
        let flags = *bytes.get(*at..*at + 4)?.first()?;
        *at += 4;
        if flags & 0x04 != 0 {
            let l = bytes.get(*at..*at + 4)?;
            let length = u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize;
            *at += 4;
            if length > bytes.len() - *at {
                return None;
            }
            *at += length;
        }
        Some(flags)
    };
    let mut at = MOVES;
    if skip(&mut at).is_none() {
        return Some(base + at);
    }
    let rest = &bytes[at..];
    if rest.len() < 4 || rest[..4] == [0, 0, 0, 0] {
        return Some(base + at);
    }
    // The alternatives announced and not yet read (`read_tree`'s `pending`).
    let mut pending = 0usize;
    loop {
        let Some(flags) = skip(&mut at) else {
            return Some(base + at);
        };
        if flags & 0x02 != 0 {
            pending += 1;
        }
        if flags & 0x01 != 0 {
            if pending == 0 {
                return Some(base + at);
            }
            pending -= 1;
        }
    }
}

/// What a library's slots hold, in file order: a record's start, or a warning about a slot
/// that holds none.
enum Slot {
    Record(usize),
    Empty(Diagnostic),
}

/// Reads a `.cbl` library: every record in it. The records are found first, from their
/// trees' structure (`record_end`), then read and checked in parallel (a library holds
/// thousands of games, each independent of the others); the diagnostics keep file order.
pub fn read_library(bytes: &[u8]) -> Read {
    let mut diagnostics = Vec::new();
    let mut slots_read = Vec::new();
    let mut find = |diagnostics: &mut Vec<Diagnostic>| -> Option<()> {
        if bytes.len() < INDEX {
            diagnostics.push(truncated(bytes.len(), "CBL header", INDEX - bytes.len()));
            return None;
        }
        let slots = u32::from_le_bytes([bytes[60], bytes[61], bytes[62], bytes[63]]) as usize;
        let first = slots
            .checked_mul(INDEX_ENTRY)
            .and_then(|n| n.checked_add(INDEX))
            .filter(|&f| f <= bytes.len());
        let Some(first) = first else {
            diagnostics.push(
                Place::byte(60)
                    .error(
                        Code::Library,
                        "slot count",
                        format!("{slots} index slots put the records past the end of the file"),
                    )
                    .expected(format!(
                        "at most {} slots",
                        (bytes.len() - INDEX) / INDEX_ENTRY
                    ))
                    .found(slots.to_string()),
            );
            return None;
        };
        let mut at = first;
        let mut slot = 0usize;
        while at < bytes.len() {
            if bytes[at..].starts_with(RECORD_MAGIC) {
                // The record's header is cut short: read_record reports it, below.
                let Some(end) = record_end(bytes, at) else {
                    slots_read.push(Slot::Record(at));
                    break;
                };
                slots_read.push(Slot::Record(at));
                // The next record starts on the slot boundary after this one's tree.
                let used = (end - at).div_ceil(SLOT).max(1);
                at += used * SLOT;
                slot += used;
            } else {
                let end = (at + SLOT).min(bytes.len());
                if bytes[at..end].iter().any(|&b| b != 0) {
                    slots_read.push(Slot::Empty(
                        Place::byte(at)
                            .warning(
                                Code::Library,
                                "slot",
                                format!(
                                    "slot {} holds no record (a deleted one?): not read",
                                    slot + 1
                                ),
                            )
                            .expected("CCBridge Record")
                            .found(format!("{:02X?}", &bytes[at..(at + 16).min(bytes.len())])),
                    ));
                }
                at += SLOT;
                slot += 1;
            }
        }
        Some(())
    };
    let _ = find(&mut diagnostics);
    let read_one = |slot: Slot| match slot {
        Slot::Record(at) => {
            let mut found = Vec::new();
            let record = read_record(bytes, at, &mut found).map(|(record, _)| record);
            (record, found)
        }
        Slot::Empty(d) => (None, vec![d]),
    };
    #[cfg(feature = "cli")]
    let read: Vec<(Option<Titled>, Vec<Diagnostic>)> = {
        use rayon::prelude::*;
        slots_read.into_par_iter().map(read_one).collect()
    };
    #[cfg(not(feature = "cli"))]
    let read: Vec<(Option<Titled>, Vec<Diagnostic>)> =
        slots_read.into_iter().map(read_one).collect();
    let mut records = Vec::new();
    for (record, mut found) in read {
        diagnostics.append(&mut found);
        records.extend(record);
    }
    Read {
        kind: Kind::Cbl,
        records,
        diagnostics,
        encoding: encoding_rs::UTF_16LE,
        text: None,
    }
}

/// The library's name (64..576, UTF-16LE), for reports.
pub fn library_name(bytes: &[u8]) -> String {
    let mut ignored = Vec::new();
    bytes
        .get(64..576)
        .map(|b| utf16_text(b, 64, "library name", &mut ignored))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record header (magic, an empty board, red to move) followed by `tree`.
    fn record(tree: &[u8]) -> Vec<u8> {
        let mut bytes = vec![0u8; MOVES];
        bytes[..16].copy_from_slice(RECORD_MAGIC);
        bytes[SIDE] = 1;
        bytes.extend_from_slice(tree);
        bytes
    }

    /// The structural walk ends each tree where the full reading does: on well-formed
    /// trees with alternatives and comments, and on arbitrary bytes (cut-short records,
    /// comment lengths past the end, squares off the board), as a damaged library has.
    #[test]
    fn record_end_agrees_with_read_record() {
        let mut trees: Vec<Vec<u8>> = vec![
            vec![],
            vec![0, 0],
            vec![0, 0, 0, 0],
            vec![0, 0, 0, 0, 0, 0, 0, 0],
            // Root with a comment, then h2e2 (line ends).
            [vec![4, 0, 0, 0, 2, 0, 0, 0, b'x', 0], vec![1, 0, 64, 67]].concat(),
            // An alternative pending, a comment length past the end.
            vec![
                0, 0, 0, 0, 2, 0, 64, 67, 1, 0, 19, 22, 4, 0, 1, 1, 255, 255, 0, 0,
            ],
        ];
        // Deterministic pseudo-random trees (a linear congruential generator), biased to
        // small flag bytes so that alternatives, comments and line ends all occur.
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as u32
        };
        for _ in 0..2_000 {
            let len = (next() % 120) as usize;
            let tree: Vec<u8> = (0..len)
                .map(|i| match i % 4 {
                    0 => (next() % 8) as u8,
                    1 => 0,
                    _ => (next() % 96) as u8,
                })
                .collect();
            trees.push(tree);
        }
        for tree in &trees {
            let bytes = record(tree);
            let mut diagnostics = Vec::new();
            let read = read_record(&bytes, 0, &mut diagnostics).map(|(_, end)| end);
            assert_eq!(record_end(&bytes, 0), read, "tree {tree:?}");
        }
        // A header cut short: neither reads anything.
        let short = &record(&[])[..MOVES - 1];
        assert_eq!(record_end(short, 0), None);
        assert!(read_record(short, 0, &mut Vec::new()).is_none());
    }
}
