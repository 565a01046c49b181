//! CBF values the schemas' simple types are bound to (`schemas/bindings.txt`): read once,
//! when the document is read, into the types the rules and the conversions use.

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use boardxml_xiangqi::{Move, Point, Position, PositionParseError};
use compact_str::CompactString;

use boardxml::facets::{ExactParser, Restricted};
use boardxml::schema::{Element, FacetError, Invalid, SimpleValue, TextForm};
use boardxml::xml::{Reader, Tag, Writer};

/// A move's `value`, `XY-XY`: its from and to points, read once. `S` carries the facets of
/// the dialect's schema type (each CBF schema has its own `MoveValue`); `00-00` is the 1.0
/// dialect's placeholder (see [`MoveValue::is_placeholder`]).
pub struct MoveValue<S> {
    mv: Move,
    facets: PhantomData<fn() -> S>,
}

impl<S> MoveValue<S> {
    /// The value of a move (any move's points are in the schema's range).
    pub fn new(mv: Move) -> Self {
        MoveValue {
            mv,
            facets: PhantomData,
        }
    }

    /// `00-00`, the placeholder that starts a 1.0 move list.
    pub fn placeholder() -> Self {
        let corner = Point::new(0, 0).expect("a point of the board");
        MoveValue::new(Move::new(corner, corner))
    }

    /// The move.
    pub fn get(&self) -> Move {
        self.mv
    }

    /// Whether it is `00-00`, the placeholder that starts a 1.0 move list.
    pub fn is_placeholder(&self) -> bool {
        self.mv.from == self.mv.to && self.mv.from.x == 0 && self.mv.from.y == 0
    }
}

// By hand: derived impls would ask the same of `S`, a marker.
impl<S> Clone for MoveValue<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for MoveValue<S> {}
impl<S> PartialEq for MoveValue<S> {
    fn eq(&self, other: &Self) -> bool {
        self.mv == other.mv
    }
}
impl<S> Eq for MoveValue<S> {}
impl<S> Hash for MoveValue<S> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.mv.hash(state);
    }
}
impl<S> fmt::Debug for MoveValue<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MoveValue({})", self.mv.cbf())
    }
}
impl<S> fmt::Display for MoveValue<S> {
    /// `XY-XY`, as the value is written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.mv.cbf())
    }
}

/// `Move::parse_cbf` reads exactly the schemas' move pattern (shown by the tests).
pub(crate) const MOVE_PATTERN: &str = "[0-8][0-9]-[0-8][0-9]";

impl<S: Restricted> SimpleValue for MoveValue<S> {
    fn parse_lexical(text: &str) -> Result<Self, FacetError> {
        let facets = S::facets();
        // Generic over the dialect: the claim is decided per call (a string comparison).
        let exact = ExactParser::carries(facets, MOVE_PATTERN);
        facets.read_exact(exact, text, |t| Move::parse_cbf(t).ok().map(MoveValue::new))
    }
    fn to_lexical(&self) -> Cow<'_, str> {
        Cow::Owned(self.mv.cbf())
    }
}

impl<S: Restricted + 'static> Element for MoveValue<S> {
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        r.simple_element(tag)
    }
    fn write_element(&self, w: &mut Writer, name: &str) {
        w.simple_element(name, &self.to_lexical(), TextForm::Text);
    }
}

/// How a start position is written: a text form of [`Position`].
pub trait StartForm {
    /// Reads the text (trimmed, not empty).
    fn parse(text: &str) -> Result<Position, PositionParseError>;
}

/// The 1.0 dialect's `FEN`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FenForm;

impl StartForm for FenForm {
    fn parse(text: &str) -> Result<Position, PositionParseError> {
        Position::from_fen(text)
    }
}

/// The 2007 dialect's `Board` string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardForm;

impl StartForm for BoardForm {
    fn parse(text: &str) -> Result<Position, PositionParseError> {
        Position::from_board_string(text)
    }
}

/// A start position as a record writes it (the 1.0 `FEN`, the 2007 `Board` value), read
/// once: its text, kept as written so that a rewrite gives it back, and the position it
/// reads as. Empty means the standard start. Whether the position can be read, and is
/// legal, is a rule of the format (its diagnostics come from the rules, not the schema).
pub struct StartPosition<F> {
    text: CompactString,
    /// `None` for an empty text (the standard start).
    position: Option<Result<Position, PositionParseError>>,
    form: PhantomData<fn() -> F>,
}

impl<F: StartForm> StartPosition<F> {
    fn read(text: &str) -> Self {
        let trimmed = text.trim();
        StartPosition {
            text: text.into(),
            position: (!trimmed.is_empty()).then(|| F::parse(trimmed)),
            form: PhantomData,
        }
    }
}

impl<F> StartPosition<F> {
    /// The text as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The position it reads as: `None` for the standard start (an empty text), else the
    /// position or why it cannot be read.
    pub fn position(&self) -> Option<&Result<Position, PositionParseError>> {
        self.position.as_ref()
    }
}

impl<F> Clone for StartPosition<F> {
    fn clone(&self) -> Self {
        StartPosition {
            text: self.text.clone(),
            position: self.position.clone(),
            form: PhantomData,
        }
    }
}
impl<F> PartialEq for StartPosition<F> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}
impl<F> Eq for StartPosition<F> {}
impl<F> Hash for StartPosition<F> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}
impl<F> fmt::Debug for StartPosition<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StartPosition({:?})", self.text)
    }
}
impl<F> fmt::Display for StartPosition<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl<F: StartForm> SimpleValue for StartPosition<F>
where
    StartPosition<F>: Restricted,
{
    fn parse_lexical(text: &str) -> Result<Self, FacetError> {
        <Self as Restricted>::facets().read(text, |t| Some(StartPosition::read(t)))
    }
    fn to_lexical(&self) -> Cow<'_, str> {
        Cow::Borrowed(&self.text)
    }
}

impl<F: StartForm + 'static> Element for StartPosition<F>
where
    StartPosition<F>: Restricted,
{
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        r.simple_element(tag)
    }
    fn write_element(&self, w: &mut Writer, name: &str) {
        w.simple_element(name, &self.text, TextForm::Text);
    }
}
