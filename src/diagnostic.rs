//! Diagnostics: what is wrong in a document, where, and what was expected.
//!
//! Every kind of problem has a stable code (the table is `docs/errors.md`); users match on
//! codes in CI, so a code's meaning never changes. Positions are kept as byte offsets into
//! the decoded text while reading and turned into line:column once, at the end.

use serde::Serialize;

/// The stable code of a kind of problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Code {
    /// E0001: the file cannot be read.
    Io,
    /// E0101: the document is not well-formed XML.
    Malformed,
    /// E0102: bytes that are not valid in the document's encoding.
    InvalidBytes,
    /// E0103: the encoding declaration contradicts the byte order mark or the bytes.
    EncodingMismatch,
    /// E0104: an encoding this tool does not read.
    UnsupportedEncoding,
    /// E0105: a DOCTYPE (refused: no DTDs, no entity expansion).
    Doctype,
    /// E0106: a size or depth limit was exceeded.
    Limit,
    /// E0107 (a note): a DOCTYPE that only names an external DTD, not fetched or applied.
    ExternalDtd,
    /// E0201: the root element is not one this format has.
    UnknownRoot,
    /// E0202: an element where the schema does not allow it.
    UnexpectedElement,
    /// E0203: a required element is missing.
    MissingElement,
    /// E0204: an attribute the schema does not declare.
    UnknownAttribute,
    /// E0205: a required attribute is missing.
    MissingAttribute,
    /// E0206: an attribute, or an element's simple content, whose value differs from its fixed value.
    FixedValue,
    /// E0207: text where the schema allows none.
    UnexpectedText,
    /// E0208: a value outside its type's lexical space (not a number, ...).
    Lexical,
    /// E0209: a value not among the enumerated ones.
    Enumeration,
    /// E0210: a value that does not match its type's pattern.
    Pattern,
    /// E0211: a number outside its type's bounds.
    Range,
    /// E0212: a value of the wrong length.
    Length,
    /// E0213: a value that fits none of a union's member types.
    Union,
    /// E0214: an element that fits none of its alternatives' shapes.
    Alternative,
    /// E0215: an ID value that another ID in the document already has.
    DuplicateId,
    /// E0216: an IDREF value that no ID in the document has.
    DanglingIdRef,
    /// E0217: two elements an `xs:unique` or `xs:key` selects with the same field values.
    DuplicateKey,
    /// E0218: an `xs:key` field with no value, or any identity-constraint field that
    /// selects more than one node.
    IdentityField,
    /// E0219: an `xs:keyref` whose field values are no row of the key or unique it refers to.
    DanglingKeyRef,
    /// E0301: a record that mixes the 2007 and 1.0 dialects (e.g. nid and branch/end).
    DialectMix,
    /// E0302: a 2007 Board value that is not 90 points, has an unknown piece letter, a bad side or move number.
    BoardString,
    /// E0303: a FEN that is not ten rows of nine points, has an unknown piece letter or a bad side.
    Fen,
    /// E0304: a start position that cannot occur (kings, palaces, piece counts and points, facing kings, side not to move in check).
    IllegalPosition,
    /// E0305: the variation structure is broken: a nid that jumps or does not start at 1, an end with no open branch, a branch never closed.
    MoveTree,
    /// E0306: 1.0: the first move is not the 00-00 placeholder, or 00-00 appears later.
    RootMove,
    /// E0307: a move that is not legal in its position (the message says why).
    IllegalMove,
    /// E0308: warning: the recorded result contradicts a checkmate or stalemate at the end of the main line.
    ResultContradiction,
    /// E0501: a binary record (XQF, CBR, CBL) ends inside a header, a move record or a comment, or a length points past the end of the file.
    Truncated,
    /// E0502: a binary record's header holds a value out of range: an unknown version, a text length over its field, an unknown result code, two pieces on one point.
    BinaryHeader,
    /// E0503: a text field or comment of a binary record holds bytes invalid in its encoding (GBK for XQF, UTF-16LE for CBR/CBL).
    TextBytes,
    /// E0504: a binary move record whose square is off the board.
    MoveSquare,
    /// E0505: warning: bytes or text after the end of a record's moves, which no reader reads.
    TrailingData,
    /// E0506: a CBL library's structure is broken: its record area does not start where its index says, or a slot holds no record.
    Library,
    /// E0511: PGN that cannot be read: an unclosed tag, comment or variation, a `)` with no `(`, a token that is neither a move, a move number, a comment nor a result.
    PgnSyntax,
    /// E0512: PGN move text that no legal move of the side to move reads (in ICCS, Chinese or WXF notation).
    PgnMove,
    /// E0513: a PGN tag whose value cannot be used: a Result that is not 1-0, 0-1, 1/2-1/2 or *, a Format that is not ICCS, Chinese or WXF, a tag given twice.
    PgnTag,
    /// E0401: a square outside the game's board.
    SquareOffBoard,
    /// E0402: boardsize and files/ranks both given and disagreeing.
    BoardSizeConflict,
    /// E0404: a region whose from and to do not span a region (e.g. on different 3D boards).
    RegionOrder,
}

impl Code {
    /// Every code, in table order.
    pub const ALL: &'static [Code] = &[
        Code::Io,
        Code::Malformed,
        Code::InvalidBytes,
        Code::EncodingMismatch,
        Code::UnsupportedEncoding,
        Code::Doctype,
        Code::Limit,
        Code::ExternalDtd,
        Code::UnknownRoot,
        Code::UnexpectedElement,
        Code::MissingElement,
        Code::UnknownAttribute,
        Code::MissingAttribute,
        Code::FixedValue,
        Code::UnexpectedText,
        Code::Lexical,
        Code::Enumeration,
        Code::Pattern,
        Code::Range,
        Code::Length,
        Code::Union,
        Code::Alternative,
        Code::DuplicateId,
        Code::DanglingIdRef,
        Code::DuplicateKey,
        Code::IdentityField,
        Code::DanglingKeyRef,
        Code::DialectMix,
        Code::BoardString,
        Code::Fen,
        Code::IllegalPosition,
        Code::MoveTree,
        Code::RootMove,
        Code::IllegalMove,
        Code::ResultContradiction,
        Code::Truncated,
        Code::BinaryHeader,
        Code::TextBytes,
        Code::MoveSquare,
        Code::TrailingData,
        Code::Library,
        Code::PgnSyntax,
        Code::PgnMove,
        Code::PgnTag,
        Code::SquareOffBoard,
        Code::BoardSizeConflict,
        Code::RegionOrder,
    ];

    /// The code as users see it, e.g. `E0210`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Io => "E0001",
            Code::Malformed => "E0101",
            Code::InvalidBytes => "E0102",
            Code::EncodingMismatch => "E0103",
            Code::UnsupportedEncoding => "E0104",
            Code::Doctype => "E0105",
            Code::Limit => "E0106",
            Code::ExternalDtd => "E0107",
            Code::UnknownRoot => "E0201",
            Code::UnexpectedElement => "E0202",
            Code::MissingElement => "E0203",
            Code::UnknownAttribute => "E0204",
            Code::MissingAttribute => "E0205",
            Code::FixedValue => "E0206",
            Code::UnexpectedText => "E0207",
            Code::Lexical => "E0208",
            Code::Enumeration => "E0209",
            Code::Pattern => "E0210",
            Code::Range => "E0211",
            Code::Length => "E0212",
            Code::Union => "E0213",
            Code::Alternative => "E0214",
            Code::DuplicateId => "E0215",
            Code::DanglingIdRef => "E0216",
            Code::DuplicateKey => "E0217",
            Code::IdentityField => "E0218",
            Code::DanglingKeyRef => "E0219",
            Code::DialectMix => "E0301",
            Code::BoardString => "E0302",
            Code::Fen => "E0303",
            Code::IllegalPosition => "E0304",
            Code::MoveTree => "E0305",
            Code::RootMove => "E0306",
            Code::IllegalMove => "E0307",
            Code::ResultContradiction => "E0308",
            Code::Truncated => "E0501",
            Code::BinaryHeader => "E0502",
            Code::TextBytes => "E0503",
            Code::MoveSquare => "E0504",
            Code::TrailingData => "E0505",
            Code::Library => "E0506",
            Code::PgnSyntax => "E0511",
            Code::PgnMove => "E0512",
            Code::PgnTag => "E0513",
            Code::SquareOffBoard => "E0401",
            Code::BoardSizeConflict => "E0402",
            Code::RegionOrder => "E0404",
        }
    }

    /// A short name, used in the JSON output next to the code.
    pub fn name(self) -> &'static str {
        match self {
            Code::Io => "io",
            Code::Malformed => "malformed-xml",
            Code::InvalidBytes => "invalid-bytes",
            Code::EncodingMismatch => "encoding-mismatch",
            Code::UnsupportedEncoding => "unsupported-encoding",
            Code::Doctype => "doctype",
            Code::Limit => "limit",
            Code::ExternalDtd => "external-dtd",
            Code::UnknownRoot => "unknown-root",
            Code::UnexpectedElement => "unexpected-element",
            Code::MissingElement => "missing-element",
            Code::UnknownAttribute => "unknown-attribute",
            Code::MissingAttribute => "missing-attribute",
            Code::FixedValue => "fixed-value",
            Code::UnexpectedText => "unexpected-text",
            Code::Lexical => "lexical",
            Code::Enumeration => "enumeration",
            Code::Pattern => "pattern",
            Code::Range => "range",
            Code::Length => "length",
            Code::Union => "union",
            Code::Alternative => "alternative",
            Code::DuplicateId => "duplicate-id",
            Code::DanglingIdRef => "dangling-idref",
            Code::DuplicateKey => "duplicate-key",
            Code::IdentityField => "identity-field",
            Code::DanglingKeyRef => "dangling-keyref",
            Code::DialectMix => "dialect-mix",
            Code::BoardString => "board-string",
            Code::Fen => "fen",
            Code::IllegalPosition => "illegal-position",
            Code::MoveTree => "move-tree",
            Code::RootMove => "root-move",
            Code::IllegalMove => "illegal-move",
            Code::ResultContradiction => "result-contradiction",
            Code::Truncated => "truncated",
            Code::BinaryHeader => "binary-header",
            Code::TextBytes => "text-bytes",
            Code::MoveSquare => "move-square",
            Code::TrailingData => "trailing-data",
            Code::Library => "library",
            Code::PgnSyntax => "pgn-syntax",
            Code::PgnMove => "pgn-move",
            Code::PgnTag => "pgn-tag",
            Code::SquareOffBoard => "square-off-board",
            Code::BoardSizeConflict => "board-size-conflict",
            Code::RegionOrder => "region",
        }
    }

    /// Whether reading can go on after it (the rest of the document still gets checked).
    pub fn is_fatal(self) -> bool {
        matches!(
            self,
            Code::Io
                | Code::Malformed
                | Code::InvalidBytes
                | Code::EncodingMismatch
                | Code::UnsupportedEncoding
                | Code::Doctype
                | Code::Limit
                | Code::UnknownRoot
        )
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The document is invalid.
    Error,
    /// Worth a look; the document is still valid.
    Warning,
    /// For information: how the document was read (`--deny-warnings` does not fail it).
    Note,
}

/// One problem in one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Its stable code.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in a sentence.
    pub message: String,
    /// Byte offset in the decoded (UTF-8) text; for [`Code::InvalidBytes`], in the file.
    pub offset: usize,
    /// The element path, e.g. `/ChineseChessRecord/MoveList/Move[17]/@value`.
    pub path: String,
    /// What the schema or the rules expected.
    pub expected: Option<String>,
    /// What the document has.
    pub found: Option<String>,
    /// 1-based line, once placed (0 until then, and for problems outside the text).
    pub line: u32,
    /// 1-based column in characters, once placed (0 until then).
    pub column: u32,
}

impl Diagnostic {
    /// An error.
    pub fn error(
        code: Code,
        offset: usize,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            offset,
            path: path.into(),
            expected: None,
            found: None,
            line: 0,
            column: 0,
        }
    }

    /// A warning.
    pub fn warning(
        code: Code,
        offset: usize,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, offset, path, message)
        }
    }

    /// A note.
    pub fn note(
        code: Code,
        offset: usize,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Note,
            ..Diagnostic::error(code, offset, path, message)
        }
    }

    /// With what was expected.
    pub fn expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// With what was found.
    pub fn found(mut self, found: impl Into<String>) -> Self {
        self.found = Some(found.into());
        self
    }
}
