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

use crate::codes;
use boardxml_xiangqi::{Move, Piece, PieceKind, Point, Position, Side};

use super::{all_warnings, title_of, truncated, Builder, Kind, Parent, Place, Read, Text, Titled};
use boardxml::diagnostic::{Code, Diagnostic};

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
    let text = Text {
        encoding: encoding_rs::UTF_16LE,
        offset,
        what,
        problem: "is not UTF-16LE text (an unpaired surrogate)",
        expected: "UTF-16LE text",
    };
    text.decode(&bytes[..end], diagnostics)
}

/// Reads a `.cbr` file: one record.
pub fn read_record_file(bytes: &[u8]) -> Read {
    let mut diagnostics = Vec::new();
    let record = read_record(bytes, 0, &mut diagnostics).map(|(record, _)| record);
    Read::binary(Kind::Cbr, record.into_iter().collect(), diagnostics)
}

/// Reads the record at `base` of `file`; gives it and where its move tree ends (`None`:
/// its header could not be read).
pub(crate) fn read_record(
    file: &[u8],
    base: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Titled, usize)> {
    read_record_at(&file[base..], base, diagnostics)
}

/// [`read_record`] of `bytes`, the file from offset `base` on (to its end, or at least past
/// the record's move tree and the four bytes after it): the places named are `base` on.
fn read_record_at(
    bytes: &[u8],
    base: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Titled, usize)> {
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
                        codes::BINARY_HEADER,
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
                    codes::BINARY_HEADER,
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
                    codes::BINARY_HEADER,
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
                    codes::TRUNCATED,
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
                        codes::TEXT_BYTES,
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
            _ => b.off_board(
                Place::byte(base + here + 2),
                [s.from, s.to],
                "a board index 0..89",
            ),
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

/// Where the move tree of the record `bytes` (the file from the record's start on) ends,
/// found from the tree's structure alone (flags and comment lengths; no text decoded, no
/// move checked): the end [`read_record`] gives, so that a library's records can be found
/// first and then read in parallel. With it whether the end is the tree's own (`true`) or
/// where `bytes` ran out (`false`: of a file, the record is cut short; of a window on a
/// stream, more is to be read). `None` where [`read_record`] reads nothing (the header is
/// cut short).
fn record_extent(bytes: &[u8]) -> Option<(usize, bool)> {
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
        return Some((at, false));
    }
    let rest = &bytes[at..];
    if rest.len() < 4 {
        return Some((at, false));
    }
    if rest[..4] == [0, 0, 0, 0] {
        return Some((at, true));
    }
    // The alternatives announced and not yet read (`read_tree`'s `pending`).
    let mut pending = 0usize;
    loop {
        let Some(flags) = skip(&mut at) else {
            return Some((at, false));
        };
        if flags & 0x02 != 0 {
            pending += 1;
        }
        if flags & 0x01 != 0 {
            if pending == 0 {
                return Some((at, true));
            }
            pending -= 1;
        }
    }
}

/// Where a library's bytes come from: the whole file in memory ([`Whole`]), or a stream
/// read a window at a time ([`Stream`]).
trait Window {
    /// The bytes from offset `at` of the file on: at least `want` of them unless the file
    /// ends first, with whether they run to its end. `at` never goes back before an offset
    /// asked for earlier (what lies before it may be dropped).
    fn from(&mut self, at: usize, want: usize) -> std::io::Result<(&[u8], bool)>;
    /// The file's length as far as it is known: all of it once `from` has met its end.
    fn seen(&self) -> usize;
}

/// A library in memory.
struct Whole<'a>(&'a [u8]);

impl Window for Whole<'_> {
    fn from(&mut self, at: usize, _want: usize) -> std::io::Result<(&[u8], bool)> {
        Ok((self.0.get(at..).unwrap_or_default(), true))
    }

    fn seen(&self) -> usize {
        self.0.len()
    }
}

/// How much a [`Stream`] reads at a time.
const CHUNK: usize = 1 << 20;

/// A library read from a stream: a window of it in memory, what lies before the offset
/// last asked for dropped (once it is at least half the window, so that each byte is moved
/// a bounded number of times).
struct Stream<R> {
    input: R,
    window: Vec<u8>,
    /// The offset in the file of `window[0]`.
    origin: usize,
    /// The stream has ended.
    ended: bool,
}

impl<R: std::io::Read> Window for Stream<R> {
    fn from(&mut self, at: usize, want: usize) -> std::io::Result<(&[u8], bool)> {
        use std::io::Read;
        loop {
            let before = at.saturating_sub(self.origin).min(self.window.len());
            if before > 0 && before >= self.window.len() / 2 {
                self.window.drain(..before);
                self.origin += before;
            }
            if self.ended || self.origin + self.window.len() >= at.saturating_add(want) {
                break;
            }
            let missing = at.saturating_add(want) - (self.origin + self.window.len());
            let ask = missing.clamp(CHUNK, 4 * CHUNK) as u64;
            let got = (&mut self.input).take(ask).read_to_end(&mut self.window)?;
            // `take` reads until it has `ask` bytes or the stream ends.
            if (got as u64) < ask {
                self.ended = true;
            }
        }
        let start = at.saturating_sub(self.origin).min(self.window.len());
        let bytes = &self.window[start..];
        Ok((bytes, self.ended))
    }

    fn seen(&self) -> usize {
        self.origin + self.window.len()
    }
}

/// What a library's slots hold, in file order: a record's start, or a warning about a slot
/// that holds none, or a problem that ends the walk (a bad header, a record too long to
/// find the next one after it).
enum Slot {
    Record(usize),
    Empty(Diagnostic),
    End(Diagnostic),
}

/// A walk over a library's slots, header first.
struct Slots {
    /// Where the next slot starts (`None`: the header is not read yet).
    at: Option<usize>,
    /// The number of the next slot (from 0).
    slot: usize,
    /// The walk is over.
    done: bool,
    /// How far past its start a record's tree may run before the walk gives up on it: the
    /// window a [`Stream`] must hold (no limit for a library in memory).
    longest: usize,
}

impl Slots {
    fn new(longest: usize) -> Slots {
        Slots {
            at: None,
            slot: 0,
            done: false,
            longest,
        }
    }

    /// The next slot of the library `w` holds, or `None` at its end.
    fn next(&mut self, w: &mut impl Window) -> std::io::Result<Option<Slot>> {
        if self.done {
            return Ok(None);
        }
        let at = match self.at {
            Some(at) => at,
            None => match Self::first(w)? {
                Ok(first) => {
                    self.at = Some(first);
                    first
                }
                Err(d) => {
                    self.done = true;
                    return Ok(Some(Slot::End(d)));
                }
            },
        };
        // Slots of zeros (never written, or cleared) are passed over.
        let mut at = at;
        loop {
            let (bytes, _) = w.from(at, SLOT)?;
            if bytes.is_empty() {
                self.done = true;
                return Ok(None);
            }
            if bytes.starts_with(RECORD_MAGIC) {
                break;
            }
            let end = SLOT.min(bytes.len());
            let slot = self.slot;
            self.at = Some(at + SLOT);
            self.slot += 1;
            if bytes[..end].iter().any(|&b| b != 0) {
                return Ok(Some(Slot::Empty(
                    Place::byte(at)
                        .warning(
                            codes::LIBRARY,
                            "slot",
                            format!(
                                "slot {} holds no record (a deleted one?): not read",
                                slot + 1
                            ),
                        )
                        .expected("CCBridge Record")
                        .found(format!("{:02X?}", &bytes[..16.min(bytes.len())])),
                )));
            }
            at += SLOT;
        }
        // The record's extent: read on until its tree ends, the file ends, or the tree runs
        // past `longest`.
        let mut want = (4 * SLOT).min(self.longest.max(MOVES));
        loop {
            let (bytes, to_end) = w.from(at, want)?;
            match record_extent(bytes) {
                // The header is cut short (read_record reports it): nothing follows.
                None if to_end => {
                    self.done = true;
                    return Ok(Some(Slot::Record(at)));
                }
                Some((end, complete)) if (complete || to_end) && end <= self.longest => {
                    // The next record starts on the slot boundary after this one's tree.
                    let used = end.div_ceil(SLOT).max(1);
                    self.at = Some(at + used * SLOT);
                    self.slot += used;
                    return Ok(Some(Slot::Record(at)));
                }
                Some((end, _)) if end > self.longest || want >= self.longest => {
                    self.done = true;
                    return Ok(Some(Slot::End(
                        Place::byte(at)
                            .error(
                                Code::LIMIT,
                                "record",
                                format!(
                                    "the record in slot {} runs past {} MiB: read record by record, a library's record is at most that long, and the records after it cannot be found",
                                    self.slot + 1,
                                    self.longest >> 20
                                ),
                            )
                            .expected(format!("a record of at most {} MiB", self.longest >> 20))
                            .found("a longer one"),
                    )));
                }
                _ => want = want.saturating_mul(2).min(self.longest),
            }
        }
    }

    /// Where the records start (after the header and the index), or what is wrong with
    /// the header.
    fn first(w: &mut impl Window) -> std::io::Result<Result<usize, Diagnostic>> {
        let (bytes, _) = w.from(0, INDEX)?;
        if bytes.len() < INDEX {
            return Ok(Err(truncated(
                bytes.len(),
                "CBL header",
                INDEX - bytes.len(),
            )));
        }
        let slots = u32::from_le_bytes([bytes[60], bytes[61], bytes[62], bytes[63]]) as usize;
        let first = slots
            .checked_mul(INDEX_ENTRY)
            .and_then(|n| n.checked_add(INDEX));
        if let Some(first) = first {
            // Past the index (a stream reads through it): the file must reach its end.
            let (_, _) = w.from(first, 0)?;
            if w.seen() >= first {
                return Ok(Ok(first));
            }
        }
        let len = w.seen();
        Ok(Err(Place::byte(60)
            .error(
                codes::LIBRARY,
                "slot count",
                format!("{slots} index slots put the records past the end of the file"),
            )
            .expected(format!("at most {} slots", (len - INDEX) / INDEX_ENTRY))
            .found(slots.to_string())))
    }
}

/// Reads a `.cbl` library: every record in it. The records are found first, from their
/// trees' structure (`record_extent`), then read and checked in parallel (a library holds
/// thousands of games, each independent of the others); the diagnostics keep file order.
pub fn read_library(bytes: &[u8]) -> Read {
    let mut diagnostics = Vec::new();
    let mut slots_read = Vec::new();
    let mut walk = Slots::new(usize::MAX);
    let mut whole = Whole(bytes);
    // Reading from memory cannot fail.
    while let Ok(Some(slot)) = walk.next(&mut whole) {
        slots_read.push(slot);
    }
    let read_one = |slot: Slot| match slot {
        Slot::Record(at) => {
            let mut found = Vec::new();
            let record = read_record(bytes, at, &mut found).map(|(record, _)| record);
            (record, found)
        }
        Slot::Empty(d) | Slot::End(d) => (None, vec![d]),
    };
    #[cfg(feature = "parallel")]
    let read: Vec<(Option<Titled>, Vec<Diagnostic>)> = {
        use rayon::prelude::*;
        slots_read.into_par_iter().map(read_one).collect()
    };
    #[cfg(not(feature = "parallel"))]
    let read: Vec<(Option<Titled>, Vec<Diagnostic>)> =
        slots_read.into_iter().map(read_one).collect();
    let mut records = Vec::new();
    for (record, mut found) in read {
        diagnostics.append(&mut found);
        records.extend(record);
    }
    Read::binary(Kind::Cbl, records, diagnostics)
}

/// A `.cbl` library read from a stream record by record, in memory bounded by the longest
/// record (`longest` bytes from its start, tree and all: [`crate::validate::MAX_RECORD`]
/// for the command line), so that a library of any size can be converted. Each item is
/// one slot's: its record (if it holds one that could be read) and the problems found in
/// it, in file order, with the same places and messages as [`read_library`] gives; a
/// record longer than `longest` ends the walk with an error (E0106), as nothing after it
/// can be found without reading it whole.
pub struct LibraryReader<R> {
    stream: Stream<R>,
    slots: Slots,
}

impl<R: std::io::Read> LibraryReader<R> {
    /// A reader of the library `input` holds, from its first byte.
    pub fn new(input: R, longest: usize) -> Self {
        LibraryReader {
            stream: Stream {
                input,
                window: Vec::new(),
                origin: 0,
                ended: false,
            },
            slots: Slots::new(longest.max(MOVES)),
        }
    }
}

impl<R: std::io::Read> Iterator for LibraryReader<R> {
    type Item = std::io::Result<(Option<Titled>, Vec<Diagnostic>)>;

    fn next(&mut self) -> Option<Self::Item> {
        let slot = match self.slots.next(&mut self.stream) {
            Ok(slot) => slot?,
            Err(e) => {
                self.slots.done = true;
                return Some(Err(e));
            }
        };
        Some(match slot {
            Slot::Record(at) => {
                // The walk has found the record's extent: its bytes are in the window.
                self.stream.from(at, 0).map(|(bytes, _)| {
                    let mut found = Vec::new();
                    let record = read_record_at(bytes, at, &mut found).map(|(r, _)| r);
                    (record, found)
                })
            }
            Slot::Empty(d) | Slot::End(d) => Ok((None, vec![d])),
        })
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
    fn record_extent_agrees_with_read_record() {
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
            assert_eq!(
                record_extent(&bytes).map(|(end, _)| end),
                read,
                "tree {tree:?}"
            );
        }
        // A header cut short: neither reads anything.
        let short = &record(&[])[..MOVES - 1];
        assert_eq!(record_extent(short), None);
        assert!(read_record(short, 0, &mut Vec::new()).is_none());
    }

    /// Pseudo-random trees as above: well-formed, cut short and damaged ones.
    fn random_trees(n: usize, seed: u64) -> Vec<Vec<u8>> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as u32
        };
        (0..n)
            .map(|k| {
                if k % 7 == 3 {
                    // A long comment: the record runs over several slots.
                    let comment = 9_000 + k * 512;
                    return [
                        vec![4, 0, 0, 0],
                        (comment as u32).to_le_bytes().to_vec(),
                        vec![b'x'; comment],
                        vec![1, 0, 64, 67],
                    ]
                    .concat();
                }
                let len = (next() % 120) as usize;
                (0..len)
                    .map(|i| match i % 4 {
                        0 => (next() % 8) as u8,
                        1 => 0,
                        _ => (next() % 96) as u8,
                    })
                    .collect()
            })
            .collect()
    }

    /// A library of `records`, each on the slot boundaries, with a slot of zeros and one of
    /// garbage among them; `cut` bytes are taken off its end.
    fn library(records: &[Vec<u8>], cut: usize) -> Vec<u8> {
        let slots = 3u32;
        let mut bytes = vec![0u8; INDEX + slots as usize * INDEX_ENTRY];
        bytes[..16].copy_from_slice(LIBRARY_MAGIC);
        bytes[60..64].copy_from_slice(&slots.to_le_bytes());
        for (i, r) in records.iter().enumerate() {
            if i == 2 {
                bytes.extend(std::iter::repeat_n(0u8, SLOT));
            }
            if i == 4 {
                bytes.extend(std::iter::repeat_n(0xA5u8, SLOT));
            }
            bytes.extend_from_slice(r);
            // Slots are counted from the end of the index.
            let first = INDEX + slots as usize * INDEX_ENTRY;
            let pad = (bytes.len() - first).next_multiple_of(SLOT) - (bytes.len() - first);
            bytes.extend(std::iter::repeat_n(0u8, pad));
        }
        bytes.truncate(bytes.len().saturating_sub(cut));
        bytes
    }

    /// A reader that gives at most a few bytes a call, as a pipe may.
    struct Trickle<'a>(&'a [u8], usize);

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.1 = self.1 % 4093 + 1;
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn streamed(bytes: &[u8], longest: usize) -> (Vec<Titled>, Vec<Diagnostic>) {
        let (mut records, mut diagnostics) = (Vec::new(), Vec::new());
        let mut reader = LibraryReader::new(Trickle(bytes, 0), longest);
        while let Some(item) = reader.next() {
            let (record, mut found) = item.expect("reading memory cannot fail");
            records.extend(record);
            diagnostics.append(&mut found);
            // The window holds the longest record and a few reads, not the library.
            assert!(
                reader.stream.window.len() <= 2 * (longest.max(SLOT * 4) + 4 * CHUNK),
                "window of {} bytes",
                reader.stream.window.len()
            );
        }
        (records, diagnostics)
    }

    /// Read record by record from a stream, a library gives what it gives read whole: the
    /// same records at the same offsets, the same diagnostics at the same places, whatever
    /// its records (several slots long, damaged, cut short at the end) and however the
    /// stream delivers its bytes.
    #[test]
    fn a_library_streamed_reads_as_read_whole() {
        for (seed, cut) in [
            (1u64, 0usize),
            (2, 1),
            (3, 3000),
            (4, SLOT + 5),
            (5, 40_000),
        ] {
            let records: Vec<Vec<u8>> = random_trees(40, seed).iter().map(|t| record(t)).collect();
            let bytes = library(&records, cut);
            let whole = read_library(&bytes);
            let (records, diagnostics) = streamed(&bytes, 16 << 20);
            assert_eq!(diagnostics, whole.diagnostics, "seed {seed}");
            assert_eq!(records.len(), whole.records.len(), "seed {seed}");
            for (a, b) in records.iter().zip(&whole.records) {
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "seed {seed}");
            }
        }
        // A header cut short, and an index past the end: one error each, as read whole.
        for bytes in [library(&[], 0)[..INDEX - 10].to_vec(), {
            let mut b = library(&[record(&[])], 0);
            b[60..64].copy_from_slice(&100_000u32.to_le_bytes());
            b
        }] {
            let (records, diagnostics) = streamed(&bytes, 16 << 20);
            assert!(records.is_empty());
            assert_eq!(diagnostics, read_library(&bytes).diagnostics);
            assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        }
    }

    /// A record whose tree runs past the longest a stream holds ends the walk with a named
    /// limit (the records after it cannot be found), after the records before it.
    #[test]
    fn a_record_past_the_stream_limit_is_a_named_error() {
        // A comment of 300 KB in the second record.
        let long = [
            vec![4, 0, 0, 0],
            (300_000u32).to_le_bytes().to_vec(),
            vec![b'x'; 300_000],
            vec![1, 0, 64, 67],
        ]
        .concat();
        let records = [record(&[0, 0, 0, 0]), record(&long), record(&[0, 0, 0, 0])];
        let bytes = library(&records, 0);
        let (read, diagnostics) = streamed(&bytes, 100_000);
        assert_eq!(read.len(), 1);
        let last = diagnostics.last().expect("a diagnostic");
        assert_eq!(last.code, Code::LIMIT);
        assert!(last.message.contains("runs past"), "{}", last.message);
        // Read whole, or with room for it, the library is read to its end.
        assert_eq!(read_library(&bytes).records.len(), 3);
        assert_eq!(streamed(&bytes, 1 << 20).0.len(), 3);
    }
}
