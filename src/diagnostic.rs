//! Diagnostics: what is wrong in a document, where, and what was expected.
//!
//! Every kind of problem has a stable code (the table is `docs/errors.md`); users match on
//! codes in CI, so a code's meaning never changes. Positions are kept as byte offsets into
//! the decoded text while reading and turned into line:column once, at the end.

use serde::Serialize;

/// The stable code of a kind of problem: its number (shown as `E0210`) and its short name
/// (`pattern`).
///
/// The runtime's codes (reading and schema validity: E00xx, E01xx, E02xx) are the
/// associated constants; a format built on the runtime defines its own codes with
/// [`Code::new`] in a number range of its own (the board formats use E03xx-E05xx), so that
/// the reader and the output formats carry them without knowing the formats. Every code is
/// described in `docs/errors.md`; users match on codes in CI, so a code's meaning never
/// changes.
///
/// A code is one pointer wide (diagnostics are moved around while reading): it refers to
/// its [`CodeDef`], which a format writes as a constant, `Code::new(&CodeDef::new("E0307",
/// "illegal-move"))`. Codes compare by what they define.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(&'static CodeDef);

/// What a [`Code`] is: its id as users see it, its short name, and whether it ends reading.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CodeDef {
    id: &'static str,
    name: &'static str,
    fatal: bool,
}

impl CodeDef {
    /// A code that reading goes on after (the rest of the document still gets checked):
    /// `id` as users see it (`E` and four digits, checked when the constant is built) and
    /// its short name.
    pub const fn new(id: &'static str, name: &'static str) -> CodeDef {
        let b = id.as_bytes();
        assert!(
            b.len() == 5
                && b[0] == b'E'
                && b[1].is_ascii_digit()
                && b[2].is_ascii_digit()
                && b[3].is_ascii_digit()
                && b[4].is_ascii_digit(),
            "a code is E and four digits"
        );
        CodeDef {
            id,
            name,
            fatal: false,
        }
    }

    /// A code that ends reading the document (only the reader's own: the document cannot
    /// be read further).
    const fn fatal(id: &'static str, name: &'static str) -> CodeDef {
        CodeDef {
            fatal: true,
            ..CodeDef::new(id, name)
        }
    }
}

impl Code {
    /// The code `def` defines.
    pub const fn new(def: &'static CodeDef) -> Code {
        Code(def)
    }

    /// E0001: the file cannot be read.
    pub const IO: Code = Code(&CodeDef::fatal("E0001", "io"));
    /// E0101: the document is not well-formed XML.
    pub const MALFORMED: Code = Code(&CodeDef::fatal("E0101", "malformed-xml"));
    /// E0102: bytes that are not valid in the document's encoding.
    pub const INVALID_BYTES: Code = Code(&CodeDef::fatal("E0102", "invalid-bytes"));
    /// E0103: the encoding declaration contradicts the byte order mark or the bytes.
    pub const ENCODING_MISMATCH: Code = Code(&CodeDef::fatal("E0103", "encoding-mismatch"));
    /// E0104: an encoding this tool does not read.
    pub const UNSUPPORTED_ENCODING: Code = Code(&CodeDef::fatal("E0104", "unsupported-encoding"));
    /// E0105: a DOCTYPE (refused: no DTDs, no entity expansion).
    pub const DOCTYPE: Code = Code(&CodeDef::fatal("E0105", "doctype"));
    /// E0106: a size or depth limit was exceeded.
    pub const LIMIT: Code = Code(&CodeDef::fatal("E0106", "limit"));
    /// E0107: a DOCTYPE that only names an external DTD, not fetched or applied.
    pub const EXTERNAL_DTD: Code = Code(&CodeDef::new("E0107", "external-dtd"));
    /// E0201: the root element is not one this format has.
    pub const UNKNOWN_ROOT: Code = Code(&CodeDef::fatal("E0201", "unknown-root"));
    /// E0202: an element where the schema does not allow it.
    pub const UNEXPECTED_ELEMENT: Code = Code(&CodeDef::new("E0202", "unexpected-element"));
    /// E0203: a required element is missing.
    pub const MISSING_ELEMENT: Code = Code(&CodeDef::new("E0203", "missing-element"));
    /// E0204: an attribute the schema does not declare.
    pub const UNKNOWN_ATTRIBUTE: Code = Code(&CodeDef::new("E0204", "unknown-attribute"));
    /// E0205: a required attribute is missing.
    pub const MISSING_ATTRIBUTE: Code = Code(&CodeDef::new("E0205", "missing-attribute"));
    /// E0206: an attribute, or an element's simple content, whose value differs from its fixed value.
    pub const FIXED_VALUE: Code = Code(&CodeDef::new("E0206", "fixed-value"));
    /// E0207: text where the schema allows none.
    pub const UNEXPECTED_TEXT: Code = Code(&CodeDef::new("E0207", "unexpected-text"));
    /// E0208: a value outside its type's lexical space (not a number, ...).
    pub const LEXICAL: Code = Code(&CodeDef::new("E0208", "lexical"));
    /// E0209: a value not among the enumerated ones.
    pub const ENUMERATION: Code = Code(&CodeDef::new("E0209", "enumeration"));
    /// E0210: a value that does not match its type's pattern.
    pub const PATTERN: Code = Code(&CodeDef::new("E0210", "pattern"));
    /// E0211: a number outside its type's bounds.
    pub const RANGE: Code = Code(&CodeDef::new("E0211", "range"));
    /// E0212: a value of the wrong length.
    pub const LENGTH: Code = Code(&CodeDef::new("E0212", "length"));
    /// E0213: a value that fits none of a union's member types.
    pub const UNION: Code = Code(&CodeDef::new("E0213", "union"));
    /// E0214: an element that fits none of its alternatives' shapes.
    pub const ALTERNATIVE: Code = Code(&CodeDef::new("E0214", "alternative"));
    /// E0215: an ID value that another ID in the document already has.
    pub const DUPLICATE_ID: Code = Code(&CodeDef::new("E0215", "duplicate-id"));
    /// E0216: an IDREF value that no ID in the document has.
    pub const DANGLING_ID_REF: Code = Code(&CodeDef::new("E0216", "dangling-idref"));
    /// E0217: two elements an `xs:unique` or `xs:key` selects with the same field values.
    pub const DUPLICATE_KEY: Code = Code(&CodeDef::new("E0217", "duplicate-key"));
    /// E0218: an `xs:key` field with no value, or any identity-constraint field that selects more than one node.
    pub const IDENTITY_FIELD: Code = Code(&CodeDef::new("E0218", "identity-field"));
    /// E0219: an `xs:keyref` whose field values are no row of the key or unique it refers to.
    pub const DANGLING_KEY_REF: Code = Code(&CodeDef::new("E0219", "dangling-keyref"));
    /// E0220: a date or time value with a timezone where its type's `xs:explicitTimezone` prohibits one, or without one where it requires one (XSD 1.1).
    pub const TIMEZONE: Code = Code(&CodeDef::new("E0220", "timezone"));
    /// E0221: a value that does not make an `xs:assertion` of its type true (XSD 1.1).
    pub const ASSERTION: Code = Code(&CodeDef::new("E0221", "assertion"));

    /// The runtime's codes, in table order. A format's codes come after these in its own
    /// table (for the board formats, `boardxml_formats::codes::ALL`).
    pub const ALL: &'static [Code] = &[
        Code::IO,
        Code::MALFORMED,
        Code::INVALID_BYTES,
        Code::ENCODING_MISMATCH,
        Code::UNSUPPORTED_ENCODING,
        Code::DOCTYPE,
        Code::LIMIT,
        Code::EXTERNAL_DTD,
        Code::UNKNOWN_ROOT,
        Code::UNEXPECTED_ELEMENT,
        Code::MISSING_ELEMENT,
        Code::UNKNOWN_ATTRIBUTE,
        Code::MISSING_ATTRIBUTE,
        Code::FIXED_VALUE,
        Code::UNEXPECTED_TEXT,
        Code::LEXICAL,
        Code::ENUMERATION,
        Code::PATTERN,
        Code::RANGE,
        Code::LENGTH,
        Code::UNION,
        Code::ALTERNATIVE,
        Code::DUPLICATE_ID,
        Code::DANGLING_ID_REF,
        Code::DUPLICATE_KEY,
        Code::IDENTITY_FIELD,
        Code::DANGLING_KEY_REF,
        Code::TIMEZONE,
        Code::ASSERTION,
    ];

    /// The code as users see it, e.g. `E0210`.
    pub fn as_str(self) -> &'static str {
        self.0.id
    }

    /// A short name, used in the JSON output next to the code.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// Whether reading can go on after it (the rest of the document still gets checked).
    pub fn is_fatal(self) -> bool {
        self.0.fatal
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.id)
    }
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.0.id, self.0.name)
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
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
    /// Byte offset in the decoded (UTF-8) text; for [`Code::INVALID_BYTES`], in the file.
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
        Diagnostic::new(Severity::Error, code, offset, path, message)
    }

    /// A diagnostic of any severity (a warning, a note).
    pub fn new(
        severity: Severity,
        code: Code,
        offset: usize,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            offset,
            path: path.into(),
            expected: None,
            found: None,
            line: 0,
            column: 0,
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
