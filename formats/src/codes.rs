//! The board formats' diagnostic codes, beside the runtime's own ([`Code`]'s constants):
//! CBF's rules E03xx, CIF's E04xx, the players' formats E05xx. Each is described in
//! `docs/errors.md`, with the runtime's.

use boardxml::diagnostic::{Code, CodeDef};
use boardxml::report::codes::Catalog;

/// E0301: a record that mixes the 2007 and 1.0 dialects (e.g. nid and branch/end).
pub const DIALECT_MIX: Code = Code::new(&CodeDef::new("E0301", "dialect-mix"));
/// E0302: a 2007 Board value that is not 90 points, has an unknown piece letter, a bad side or move number.
pub const BOARD_STRING: Code = Code::new(&CodeDef::new("E0302", "board-string"));
/// E0303: a FEN that is not ten rows of nine points, has an unknown piece letter or a bad side.
pub const FEN: Code = Code::new(&CodeDef::new("E0303", "fen"));
/// E0304: a start position that cannot occur (kings, palaces, piece counts and points, facing kings, side not to move in check).
pub const ILLEGAL_POSITION: Code = Code::new(&CodeDef::new("E0304", "illegal-position"));
/// E0305: the variation structure is broken: a nid that jumps or does not start at 1, an end with no open branch, a branch never closed.
pub const MOVE_TREE: Code = Code::new(&CodeDef::new("E0305", "move-tree"));
/// E0306: 1.0: the first move is not the 00-00 placeholder, or 00-00 appears later.
pub const ROOT_MOVE: Code = Code::new(&CodeDef::new("E0306", "root-move"));
/// E0307: a move that is not legal in its position (the message says why).
pub const ILLEGAL_MOVE: Code = Code::new(&CodeDef::new("E0307", "illegal-move"));
/// E0308: warning: the recorded result contradicts a checkmate or stalemate at the end of the main line.
pub const RESULT_CONTRADICTION: Code = Code::new(&CodeDef::new("E0308", "result-contradiction"));
/// E0501: a binary record (XQF, CBR, CBL) ends inside a header, a move record or a comment, or a length points past the end of the file.
pub const TRUNCATED: Code = Code::new(&CodeDef::new("E0501", "truncated"));
/// E0502: a binary record's header holds a value out of range: an unknown version, a text length over its field, an unknown result code, two pieces on one point.
pub const BINARY_HEADER: Code = Code::new(&CodeDef::new("E0502", "binary-header"));
/// E0503: a text field or comment of a binary record holds bytes invalid in its encoding (GBK for XQF, UTF-16LE for CBR/CBL).
pub const TEXT_BYTES: Code = Code::new(&CodeDef::new("E0503", "text-bytes"));
/// E0504: a binary move record whose square is off the board.
pub const MOVE_SQUARE: Code = Code::new(&CodeDef::new("E0504", "move-square"));
/// E0505: warning: bytes or text after the end of a record's moves, which no reader reads.
pub const TRAILING_DATA: Code = Code::new(&CodeDef::new("E0505", "trailing-data"));
/// E0506: a CBL library's structure is broken: its record area does not start where its index says, or a slot holds no record.
pub const LIBRARY: Code = Code::new(&CodeDef::new("E0506", "library"));
/// E0511: PGN that cannot be read: an unclosed tag, comment or variation, a `)` with no `(`, a token that is neither a move, a move number, a comment nor a result.
pub const PGN_SYNTAX: Code = Code::new(&CodeDef::new("E0511", "pgn-syntax"));
/// E0512: PGN move text that no legal move of the side to move reads (in ICCS, Chinese or WXF notation).
pub const PGN_MOVE: Code = Code::new(&CodeDef::new("E0512", "pgn-move"));
/// E0513: a PGN tag whose value cannot be used: a Result that is not 1-0, 0-1, 1/2-1/2 or *, a Format that is not ICCS, Chinese or WXF, a tag given twice.
pub const PGN_TAG: Code = Code::new(&CodeDef::new("E0513", "pgn-tag"));
/// E0401: a square outside the game's board.
pub const SQUARE_OFF_BOARD: Code = Code::new(&CodeDef::new("E0401", "square-off-board"));
/// E0402: boardsize and files/ranks both given and disagreeing.
pub const BOARD_SIZE_CONFLICT: Code = Code::new(&CodeDef::new("E0402", "board-size-conflict"));
/// E0404: a region whose from and to do not span a region (e.g. on different 3D boards).
pub const REGION_ORDER: Code = Code::new(&CodeDef::new("E0404", "region"));

/// The formats' codes, in table order (after [`Code::ALL`]).
pub const ALL: &[Code] = &[
    DIALECT_MIX,
    BOARD_STRING,
    FEN,
    ILLEGAL_POSITION,
    MOVE_TREE,
    ROOT_MOVE,
    ILLEGAL_MOVE,
    RESULT_CONTRADICTION,
    TRUNCATED,
    BINARY_HEADER,
    TEXT_BYTES,
    MOVE_SQUARE,
    TRAILING_DATA,
    LIBRARY,
    PGN_SYNTAX,
    PGN_MOVE,
    PGN_TAG,
    SQUARE_OFF_BOARD,
    BOARD_SIZE_CONFLICT,
    REGION_ORDER,
];

/// The codes of the board formats' tools: the runtime's, then the formats'.
pub const CATALOG: Catalog = Catalog::new(&[Code::ALL, ALL]);
