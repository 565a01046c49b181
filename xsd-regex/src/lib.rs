//! XSD 1.0 regular expressions (XML Schema Part 2, second edition,
//! Appendix F), and XSD 1.1's ([`Version`]): a strict parser into an AST and an
//! exact translation into the syntax of the Rust `regex` crate.
//!
//! The code generator uses [`translate`] to turn every `xs:pattern` facet
//! into a string it compiles with
//! `regex::RegexBuilder::new(p).size_limit(REGEX_SIZE_LIMIT).build()` (other
//! settings default, Unicode on; see [`REGEX_SIZE_LIMIT`]). The translation
//! is *exact*, not the usual `^(?:p)$` wrapping:
//!
//! * it is anchored with `\A(?:...)\z`, since XSD patterns match whole values
//!   (and `$` in the regex crate would accept a value ending in `\n`);
//! * `^` and `$` are ordinary characters in XSD and are escaped;
//! * `.`, `\s`, `\w`, `\i`, `\c` (and complements) get XSD's definitions as
//!   explicit classes instead of the regex crate's (different) ones;
//! * `\p{IsXxx}` means the Unicode 3.1 *block* XSD 1.0 names (the regex crate
//!   would read it as a script) and is spelled out as code-point ranges;
//! * class subtraction `[a-z-[aeiou]]` becomes the regex crate's `--`.
//!
//! Everything that is not XSD 1.0 syntax is rejected with a [`PatternError`]
//! carrying the character offset of the problem, even where the regex crate
//! would accept it (`(?:`, `*?`, `\b`, `\x41`, `{,3}`, back-references ...).
//!
//! `\i` and `\c` use XML 1.0 *fifth edition* `NameStartChar` / `NameChar`
//! (XSD 1.0 cites the second edition's `Letter` tables; the W3C suite only
//! probes characters on which both agree).
//!
//! Characters are Unicode code points, as in XML: a supplementary-plane
//! character such as U+1D7A8 is one character of its own category and block
//! (never a UTF-16 surrogate pair).
//!
//! Unicode-version caveat: general categories (`\p{Lu}`, `\d` = `\p{Nd}`,
//! `\w`) use the regex crate's tables, i.e. a current Unicode version, not
//! Unicode 3.1. This is what the W3C suite's version-specific tests expect
//! (their XSD 1.0 answers follow Unicode 6.0 or later); characters assigned
//! or recategorised since then follow the newer data.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod emit;
mod parse;
mod tables;
#[cfg(test)]
mod tests;

use std::fmt;

/// The compiled-size limit (`regex::RegexBuilder::size_limit`) to build
/// translated patterns with; generated code and this crate's tests use it.
///
/// XSD's multi-character escapes are large explicit Unicode classes (`\w` is
/// every code point outside `\p{P}`, `\p{Z}` and `\p{C}`; `\i`, `\c`, `.`,
/// `\p{L}` and the blocks are similar), and a counted repetition copies the
/// class once per count: `\w{1,255}` already exceeds the regex crate's 10 MiB
/// default. 256 MiB leaves room for such repetitions while still bounding
/// what a hostile pattern can make the regex compiler allocate.
pub const REGEX_SIZE_LIMIT: usize = 256 << 20;

/// The root of a parsed pattern: one or more branches separated by `|`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regex {
    /// The alternatives; a pattern without `|` has exactly one.
    pub branches: Vec<Branch>,
}

/// Alias for the AST root, for callers that also import `regex::Regex`.
pub type Ast = Regex;

/// A sequence of pieces (possibly empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The pieces, in order.
    pub pieces: Vec<Piece>,
}

/// An atom with its quantifier (`{1,1}` when there is none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// What is repeated.
    pub atom: Atom,
    /// Minimum number of repetitions.
    pub min: u32,
    /// Maximum number of repetitions; `None` = unbounded.
    pub max: Option<u32>,
}

/// An XSD atom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Atom {
    /// A literal character (a normal char or a single-character escape).
    Char(char),
    /// A character class: an escape, `.` or a bracket expression.
    Class(CharClass),
    /// A parenthesised sub-expression.
    Group(Box<Regex>),
}

/// A set of characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CharClass {
    /// `.`: any character except `\n` and `\r`.
    Wildcard,
    /// A multi-character, category or block escape used outside brackets.
    Escape(ClassEscape),
    /// A bracket expression `[...]`, `[^...]` or `[...-[...]]`.
    Bracket(BracketClass),
}

/// A bracket expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BracketClass {
    /// `[^...]`.
    pub negated: bool,
    /// The characters, ranges and escapes of the group (never empty).
    pub items: Vec<ClassItem>,
    /// The class subtracted from the group, `[group-[subtracted]]`.
    pub subtract: Option<Box<BracketClass>>,
}

/// One member of a bracket expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassItem {
    /// A single character.
    Char(char),
    /// An inclusive range; `start <= end` is guaranteed by the parser.
    Range(char, char),
    /// A multi-character, category or block escape.
    Escape(ClassEscape),
}

/// A class escape that denotes more than one character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassEscape {
    /// `\s \S \i \I \c \C \d \D \w \W`: the letter after the backslash.
    Multi(char),
    /// `\p{Xx}` (or `\P{Xx}` when `negated`): a general category.
    Category {
        /// `\P` rather than `\p`.
        negated: bool,
        /// The category name, e.g. `Lu` or `L`.
        name: String,
    },
    /// `\p{IsXxx}` (or `\P{IsXxx}` when `negated`): a Unicode 3.1 block.
    Block {
        /// `\P` rather than `\p`.
        negated: bool,
        /// The block name without `Is`, e.g. `BasicLatin`.
        name: String,
    },
}

/// Why a pattern is not a valid XSD 1.0 regular expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// Character (not byte) offset of the problem in the pattern, 0-based;
    /// the 1-based column is `offset + 1`.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
    /// A suggested XSD spelling, where one helps.
    pub hint: Option<String>,
}

impl PatternError {
    pub(crate) fn new(offset: usize, message: impl Into<String>) -> Self {
        PatternError {
            offset,
            message: message.into(),
            hint: None,
        }
    }

    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid XSD pattern at offset {} (column {}): {}",
            self.offset,
            self.offset + 1,
            self.message
        )?;
        if let Some(hint) = &self.hint {
            write!(f, " (hint: {hint})")?;
        }
        Ok(())
    }
}

impl std::error::Error for PatternError {}

/// Which version of XSD's regular expressions a pattern is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Version {
    /// XSD 1.0 (second edition), Appendix F.
    #[default]
    Xsd10,
    /// XSD 1.1 Part 2, Appendix G: as 1.0, but an unescaped `-` that starts no range
    /// and no subtraction is a literal hyphen anywhere in a character group
    /// (`[a-c-x]` is `a` to `c`, `-` and `x`), where 1.0 allows it only at the
    /// group's start or end.
    Xsd11,
}

/// Parses an XSD 1.0 regular expression.
pub fn parse(pattern: &str) -> Result<Regex, PatternError> {
    parse_as(pattern, Version::Xsd10)
}

/// Parses a regular expression of XSD `version`.
pub fn parse_as(pattern: &str, version: Version) -> Result<Regex, PatternError> {
    parse::Parser::new(pattern, version).parse()
}

/// Parses an XSD 1.0 regular expression and translates it into an anchored
/// pattern for the `regex` crate that accepts exactly the values the XSD
/// pattern accepts. Compile it with [`REGEX_SIZE_LIMIT`] as the builder's
/// `size_limit` (all other settings default).
pub fn translate(pattern: &str) -> Result<String, PatternError> {
    translate_as(pattern, Version::Xsd10)
}

/// [`translate`] for a regular expression of XSD `version`.
pub fn translate_as(pattern: &str, version: Version) -> Result<String, PatternError> {
    let ast = parse_as(pattern, version)?;
    Ok(emit::anchored(&ast))
}
