//! CBF values the schemas' simple types are bound to (`schemas/bindings.txt`): read once,
//! when the document is read, into the types the rules and the conversions use.

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use boardxml_xiangqi::{Move, Point};

use crate::facets::Restricted;
use crate::schema::{Element, FacetError, Invalid, SimpleValue, TextForm};
use crate::xml::{Reader, Tag, Writer};

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

impl<S: Restricted> SimpleValue for MoveValue<S> {
    fn parse_lexical(text: &str) -> Result<Self, FacetError> {
        S::facets().read(text, |t| Move::parse_cbf(t).ok().map(MoveValue::new))
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
