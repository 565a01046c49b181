//! The small interface between generated code and the runtime (in the spirit of prost's
//! `Message`): generated types implement these traits, and the runtime never interprets a
//! schema at run time.

use std::borrow::Cow;
use std::fmt;

pub use crate::text_form::TextForm;
use crate::xml::{Reader, Tag, Writer};

/// A value was invalid and the problem has been reported to the reader; the caller goes on
/// reading (to report everything) but cannot build its own value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invalid;

/// Why a simple value is not valid for its type. Carries what the type expected, so a
/// diagnostic can say "expected ..., found ...".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FacetError {
    /// Not in the lexical space of the base type (e.g. not an integer).
    Lexical {
        /// The base type, e.g. `xs:unsignedByte`.
        expected: &'static str,
    },
    /// Not one of the enumerated values.
    Enumeration {
        /// The allowed values.
        allowed: &'static [&'static str],
    },
    /// Does not match the pattern(s) of a derivation step.
    Pattern {
        /// The XSD pattern(s), as written in the schema (ORed within the step).
        patterns: &'static [&'static str],
    },
    /// Below the lower bound.
    TooSmall {
        /// The smallest allowed value.
        min: i128,
    },
    /// Above the upper bound.
    TooLarge {
        /// The largest allowed value.
        max: i128,
    },
    /// Wrong length (in characters, or items for a list).
    Length {
        /// The required length.
        expected: u64,
        /// The value's length.
        found: u64,
    },
    /// Shorter than minLength.
    TooShort {
        /// The minimum length.
        min: u64,
        /// The value's length.
        found: u64,
    },
    /// Longer than maxLength.
    TooLong {
        /// The maximum length.
        max: u64,
        /// The value's length.
        found: u64,
    },
    /// More digits than totalDigits allows.
    TotalDigits {
        /// The maximum number of digits.
        max: u32,
    },
    /// Outside a value bound (minInclusive, minExclusive, maxInclusive, maxExclusive) of a
    /// type that is not an integer held in a primitive, or not comparable with it (a
    /// `NaN`, a date without a time zone within 14 hours of a zoned bound): Part 2 makes an
    /// indeterminate comparison a failure.
    Bound {
        /// `>=`, `>`, `<=` or `<`.
        relation: &'static str,
        /// The bound as the schema writes it.
        bound: &'static str,
    },
    /// More fraction digits than fractionDigits allows.
    FractionDigits {
        /// The maximum number of fraction digits.
        max: u32,
    },
    /// Fits none of a union's member types.
    Union {
        /// The member types' names.
        members: &'static [&'static str],
    },
    /// A QName (or NOTATION) whose prefix no namespace declaration in scope binds: the
    /// value is the expanded name (Part 2, 3.2.18), so without a binding it has none.
    UnboundPrefix,
    /// A date or time value without a timezone where `xs:explicitTimezone` requires one
    /// (`required`), or with one where it prohibits it.
    Timezone {
        /// Whether the facet requires a timezone (else it prohibits one).
        required: bool,
    },
    /// A value that does not make an XSD 1.1 `xs:assertion` of its type true (its test is
    /// false, or raises an error).
    Assertion {
        /// The test, as the schema writes it.
        test: &'static str,
    },
}

impl FacetError {
    /// What was expected, for the "expected" part of a diagnostic.
    pub fn expected(&self) -> String {
        match self {
            FacetError::Lexical { expected } => format!("a value of type {expected}"),
            FacetError::Enumeration { allowed } => format!("one of {}", allowed.join(", ")),
            FacetError::Pattern { patterns } => {
                format!("a value matching {}", patterns.join(" or "))
            }
            FacetError::TooSmall { min } => format!("a value >= {min}"),
            FacetError::TooLarge { max } => format!("a value <= {max}"),
            FacetError::Length { expected, .. } => format!("length {expected}"),
            FacetError::TooShort { min, .. } => format!("length >= {min}"),
            FacetError::TooLong { max, .. } => format!("length <= {max}"),
            FacetError::TotalDigits { max } => format!("at most {max} digits"),
            FacetError::Bound { relation, bound } => format!("a value {relation} {bound}"),
            FacetError::FractionDigits { max } => {
                format!("at most {max} digits after the decimal point")
            }
            // XSD 1.1's xs:error, the union of no types.
            FacetError::Union { members: [] } => {
                "nothing: the type is xs:error, which has no valid value".to_string()
            }
            FacetError::Union { members } => {
                format!("a value of one of the types {}", members.join(", "))
            }
            FacetError::UnboundPrefix => {
                "a QName whose prefix is declared (xmlns:prefix=\"...\") on this element or an ancestor"
                    .to_string()
            }
            FacetError::Timezone { required: true } => {
                "a value with a timezone (Z or +hh:mm), as explicitTimezone requires".to_string()
            }
            FacetError::Timezone { required: false } => {
                "a value without a timezone, as explicitTimezone prohibits one".to_string()
            }
            FacetError::Assertion { test } => format!("a value for which {test} is true"),
        }
    }
}

impl fmt::Display for FacetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.expected())
    }
}

impl std::error::Error for FacetError {}

/// A simple type: parsed from, and written as, a lexical form.
pub trait SimpleValue: Sized {
    /// Parses the value as written in a document (before white-space processing, which the
    /// type applies itself, as its whiteSpace facet says). A QName read this way keeps its
    /// prefix unresolved: see [`SimpleValue::parse_in`].
    fn parse_lexical(text: &str) -> Result<Self, FacetError>;
    /// Parses the value as written where `scope` gives the namespace declarations in
    /// force: the value of a QName or NOTATION is an expanded name (Part 2, 3.2.18), so
    /// it is resolved here, and a prefix `scope` does not bind makes it invalid. The
    /// reader reads every value this way; the types that hold no names (all but QName,
    /// NOTATION and the lists, unions and restrictions over them) parse as
    /// [`SimpleValue::parse_lexical`] does.
    #[inline]
    fn parse_in(text: &str, scope: &dyn NamespaceScope) -> Result<Self, FacetError> {
        let _ = scope;
        Self::parse_lexical(text)
    }
    /// Hands `found` each namespace binding (prefix, namespace; `""` for the default
    /// namespace) that the canonical lexical form relies on: a writer declares them where
    /// the value is written, so that it reads back as the same expanded names. Only QName
    /// and NOTATION values (resolved ones) hold any.
    #[inline]
    fn bindings(&self, found: &mut dyn FnMut(&str, &str)) {
        let _ = found;
    }
    /// The canonical lexical form.
    fn to_lexical(&self) -> Cow<'_, str>;
    /// Hands `found` each ID or IDREF name the value holds (xs:ID, xs:IDREF, xs:IDREFS and
    /// the types derived from them, lists and unions of them), for the checks that span the
    /// whole document (Part 2, 3.3.8-3.3.10). Other types hold none.
    #[inline]
    fn ids(&self, found: &mut dyn FnMut(IdRole, &str)) {
        let _ = found;
    }
    /// The value as identity constraints compare it (Part 1, 3.11.4: in the value space
    /// of its type's primitive). A string unless the type says otherwise.
    fn identity_key(&self) -> crate::identity_key::KeyValue {
        crate::identity_key::KeyValue::new(
            crate::identity_key::Primitive::String,
            &self.to_lexical(),
        )
    }
}

/// Reads `text` as a `T`: in `scope` if one is given ([`SimpleValue::parse_in`]), as
/// written otherwise (a value built by a program, which no document's declarations scope).
pub fn parse_scoped<T: SimpleValue>(
    text: &str,
    scope: Option<&dyn NamespaceScope>,
) -> Result<T, FacetError> {
    match scope {
        Some(scope) => T::parse_in(text, scope),
        None => T::parse_lexical(text),
    }
}

/// The namespace declarations in force where a value stands: what a QName's prefix means
/// there (Namespaces in XML 1.0, 6.1).
pub trait NamespaceScope {
    /// The namespace `prefix` is bound to (`""`: the default namespace), if any. `xml`
    /// is always bound, and the reader's scopes say so.
    fn namespace(&self, prefix: &str) -> Option<&str>;
}

/// A fixed table of bindings, (prefix, namespace) with `""` for the default namespace:
/// what generated code gives for the values a schema writes (an enumerated QName is
/// resolved by the declarations in scope at its `xs:enumeration`, Part 2, 3.2.18.1).
impl NamespaceScope for &[(&str, &str)] {
    fn namespace(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(crate::xml::wf::XML_NAMESPACE);
        }
        self.iter()
            .rev()
            .find(|(p, _)| *p == prefix)
            .map(|(_, ns)| *ns)
    }
}

/// What a name held in a value does in its document (IDs and references).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdRole {
    /// An `xs:ID`: names its element, uniquely in the document.
    Id,
    /// An `xs:IDREF` (or an item of `xs:IDREFS`): must name an ID of the document.
    Reference,
}

/// A type that an element can have: reads the element's attributes and content, and writes
/// them back.
pub trait Element: Sized {
    /// Reads the element whose start tag is `tag`, through its end tag.
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid>;
    /// Writes the element as `name`.
    fn write_element(&self, w: &mut Writer, name: &str);
    /// The identity constraints of the element declaration this type belongs to (a
    /// declaration with constraints has a type of its own), checked while it is read.
    const IDENTITY: &'static [crate::identity::Constraint] = &[];
    /// Whether this is what a skip wildcard takes (content no schema assesses): identity
    /// constraints neither select it nor read it, nor anything in it.
    const SKIPPED: bool = false;
    /// Whether [`Element::visit`] does anything: the reader spares the call for the types
    /// whose elements no visitor sees (text leaves, types of schemas without a visitor).
    const VISITED: bool = false;
    /// Hands the element, just read at `at`, to its schema's visitor in `observer`, if
    /// there is one (generated types of a schema with a visitor; nothing for the others).
    fn visit(
        &self,
        observer: &mut dyn crate::xml::Observer,
        at: &crate::xml::At<'_>,
        found: &mut Vec<crate::diagnostic::Diagnostic>,
    ) {
        let _ = (observer, at, found);
    }
}

/// A boxed element reads and writes as the value it holds: the generator boxes the fields
/// through which a type would contain itself (a recursive type), and nothing else changes.
impl<T: Element> Element for Box<T> {
    const IDENTITY: &'static [crate::identity::Constraint] = T::IDENTITY;
    const SKIPPED: bool = T::SKIPPED;
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        T::read_element(r, tag).map(Box::new)
    }
    fn write_element(&self, w: &mut Writer, name: &str) {
        (**self).write_element(w, name)
    }
}

// The XML Schema instance namespace: the XML layer declares it when it writes `xsi:` attributes.
pub use crate::xml::XSI_NAMESPACE;

/// `xsi:nil` as the reader names it (an expanded name: whatever its prefix).
pub const XSI_NIL: &str = "{http://www.w3.org/2001/XMLSchema-instance}nil";

/// `xsi:type` as the reader names it.
pub const XSI_TYPE: &str = "{http://www.w3.org/2001/XMLSchema-instance}type";

/// `xsi:schemaLocation` and `xsi:noNamespaceSchemaLocation` as the reader names them:
/// hints where a schema may be found, allowed on any element (XSD 1.0, 3.2.7). The schema
/// is the generated code's, so they are accepted and never fetched.
pub const XSI_HINTS: [&str; 2] = [
    "{http://www.w3.org/2001/XMLSchema-instance}schemaLocation",
    "{http://www.w3.org/2001/XMLSchema-instance}noNamespaceSchemaLocation",
];

/// The value of an element declared `nillable="true"` (of a simple type): `xsi:nil="true"`
/// with no content, or a value. (XSD 1.0, 3.3.4, Element Locally Valid (Element) 3.)
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Nillable<T> {
    /// `xsi:nil="true"`: no value (and no content).
    Nil,
    /// A value.
    Value(T),
}

impl<T: SimpleValue + Element> Element for Nillable<T> {
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        let mut attributes = r.attributes(tag);
        let nil = match r.xsi_nil_name(tag) {
            Some(name) => attributes.optional::<bool>(r, &name),
            None => Ok(None),
        };
        // Judged here (reading an xsi: attribute does not take it: an attribute use may
        // name it, XSD 1.1): no unknown attribute.
        attributes.take_xsi_nil();
        let finished = attributes.finish(r);
        let value = match nil {
            // A nil element has no content: no text, no child elements.
            Ok(Some(true)) => {
                let fixed = r.nil_value_constraint(tag);
                r.read_nil_content(tag).and(fixed).map(|()| Nillable::Nil)
            }
            Ok(_) => r.simple_content::<T>(tag).map(|(v, _)| Nillable::Value(v)),
            // Whether it is nil is unknown: its content is read, not judged again.
            Err(_) => r.simple_content::<String>(tag).map(|_| Nillable::Nil),
        };
        finished?;
        nil?;
        value
    }

    fn write_element(&self, w: &mut Writer, name: &str) {
        match self {
            Nillable::Nil => {
                w.start(name);
                // The writer declares the xsi prefix where it is not in force.
                w.attribute("xsi:nil", "true");
                w.end_empty();
            }
            Nillable::Value(v) => v.write_element(w, name),
        }
    }
}

/// The root of a schema's documents: one variant per global element.
pub trait Document: Sized {
    /// The names of the global elements (the possible roots).
    const ROOTS: &'static [&'static str];
    /// The types a root the schema declares no element for may be validated by, named by
    /// its `xsi:type` (XSD 1.0 Part 1, 3.3.4 Schema-Validity Assessment (Element) 1.2: the
    /// type is then the root's governing type): every named type of the schema but the
    /// abstract ones, and the built-ins, by expanded name. Such a root is validated
    /// ([`crate::xml::Reader::validate_document`]) but not held: the document type has a
    /// variant per global element only.
    const TYPES: &'static [(&'static str, TypedRoot)] = &[];
    /// Whether the schema was read as XSD 1.1, whose run-time rules differ from 1.0's in
    /// the ID/IDREF table (1.1 Part 1, 3.17.5.2): an element may have several attributes
    /// of an ID type (1.0: one, 3.4.4 Element Locally Valid (Complex Type) 5), the same ID
    /// twice on one element is one binding, and an element whose content is an ID gives
    /// the ID to its parent.
    const XSD_1_1: bool = false;
    /// Reads the root element whose start tag is `tag`.
    fn read_root(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid>;
    /// Writes the root element.
    fn write_root(&self, w: &mut Writer);
    /// Hands the root element, just read, to its schema's visitor (see [`Element::visit`]).
    fn visit_root(
        &self,
        observer: &mut dyn crate::xml::Observer,
        at: &crate::xml::At<'_>,
        found: &mut Vec<crate::diagnostic::Diagnostic>,
    ) {
        let _ = (observer, at, found);
    }
}

/// Validates the element whose start tag the reader has just read as a root of one type
/// (see [`Document::TYPES`]), keeping nothing.
pub type TypedRoot = fn(&mut Reader<'_>, &Tag) -> Result<(), Invalid>;

/// [`TypedRoot`] of type `T`: its `xsi:type` chose it, so the reader takes that attribute.
pub fn typed_root<T: Element>(r: &mut Reader<'_>, tag: &Tag) -> Result<(), Invalid> {
    r.read_root_substituted::<T>(tag).map(drop)
}

/// `Display`, `FromStr` and [`Element`] for a type that implements [`SimpleValue`]: what
/// every generated simple type has, written once here rather than in each type.
#[macro_export]
macro_rules! impl_simple_type {
    ($ty:ty) => {
        impl ::core::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&$crate::schema::SimpleValue::to_lexical(self))
            }
        }

        impl ::core::str::FromStr for $ty {
            type Err = $crate::schema::FacetError;
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                <Self as $crate::schema::SimpleValue>::parse_lexical(s)
            }
        }

        $crate::bound_element!($ty);
    };
}

/// `Element` for a simple value (a type that implements `SimpleValue`: generated, built in,
/// or bound to a schema type): read and written as simple content.
#[macro_export]
macro_rules! bound_element {
    ($ty:ty) => {
        impl $crate::schema::Element for $ty {
            fn read_element(
                r: &mut $crate::xml::Reader<'_>,
                tag: &$crate::xml::Tag,
            ) -> ::core::result::Result<Self, $crate::schema::Invalid> {
                r.simple_element(tag)
            }
            fn write_element(&self, w: &mut $crate::xml::Writer, name: &str) {
                // Started first: the value's QNames may need declarations on the element.
                w.start(name);
                let text = w.lexical(self);
                w.simple_content(name, &text, $crate::schema::TextForm::Text);
            }
        }
    };
}

/// XSD white-space processing.
pub mod whitespace {
    use std::borrow::Cow;

    /// `replace`: tab, line feed and carriage return become spaces.
    pub fn replace(s: &str) -> Cow<'_, str> {
        if s.contains(['\t', '\n', '\r']) {
            Cow::Owned(s.replace(['\t', '\n', '\r'], " "))
        } else {
            Cow::Borrowed(s)
        }
    }

    /// `collapse`: replace, then runs of spaces become one, and leading and trailing spaces go.
    pub fn collapse(s: &str) -> Cow<'_, str> {
        // Nearly every value has no white space at all: one scan, eight bytes at a time,
        // says so; only a value with some looks closer.
        if !has_byte_up_to_space(s.as_bytes()) {
            return Cow::Borrowed(s);
        }
        let needs = s.starts_with([' ', '\t', '\n', '\r'])
            || s.ends_with([' ', '\t', '\n', '\r'])
            || s.contains(['\t', '\n', '\r'])
            || s.contains("  ");
        if !needs {
            return Cow::Borrowed(s);
        }
        // One pass, one allocation: each run of white space between two words becomes one
        // space (a list of pieces joined cost a vector and a copy of each piece: a tenth of
        // reading KML, whose coordinates are long lists broken over lines).
        let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        let bytes = s.as_bytes();
        let mut out = String::with_capacity(s.len());
        let mut i = 0;
        while i < bytes.len() {
            while i < bytes.len() && space(bytes[i]) {
                i += 1;
            }
            let word = i;
            while i < bytes.len() && !space(bytes[i]) {
                i += 1;
            }
            if word < i {
                if !out.is_empty() {
                    out.push(' ');
                }
                // White space is ASCII: the word's ends are character boundaries.
                out.push_str(&s[word..i]);
            }
        }
        Cow::Owned(out)
    }

    /// Whether `bytes` has a byte at or below `b' '` (white space or a control character).
    /// Values are short (a number, a date): eight bytes are tested at once in a `u64`, which
    /// beats a vectorised scan's setup. A byte under 0x21 borrows in `word - 0x21..21` and
    /// has its high bit clear, so some byte's high bit is set in the result exactly when
    /// there is such a byte (a borrow only reaches bytes above a byte that has one).
    #[inline]
    pub(crate) fn has_byte_up_to_space(bytes: &[u8]) -> bool {
        const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
        let below = |word: u64| word.wrapping_sub(ONES * 0x21) & !word & HIGH != 0;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            if below(u64::from_le_bytes(word)) {
                return true;
            }
        }
        chunks.remainder().iter().any(|&b| b <= b' ')
    }
}

/// Parses an XSD integer lexical form (optional sign, digits; leading zeros allowed) after
/// collapsing white space, into the range `[min, max]` of the Rust type.
pub fn parse_integer(
    text: &str,
    min: i128,
    max: i128,
    expected: &'static str,
) -> Result<i128, FacetError> {
    let t = whitespace::collapse(text);
    let digits = t.strip_prefix(['+', '-']).unwrap_or(&t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FacetError::Lexical { expected });
    }
    // Leading zeros are allowed and may be many; strip them before the width check.
    let significant = digits.trim_start_matches('0');
    if significant.len() > 38 {
        return Err(if t.starts_with('-') {
            FacetError::TooSmall { min }
        } else {
            FacetError::TooLarge { max }
        });
    }
    let magnitude: i128 = if significant.is_empty() {
        0
    } else {
        significant
            .parse()
            .map_err(|_| FacetError::Lexical { expected })?
    };
    let v = if t.starts_with('-') {
        -magnitude
    } else {
        magnitude
    };
    if v < min {
        return Err(FacetError::TooSmall { min });
    }
    if v > max {
        return Err(FacetError::TooLarge { max });
    }
    Ok(v)
}

macro_rules! integer_simple_value {
    ($($t:ty => $xsd:literal),* $(,)?) => {$(
        impl SimpleValue for $t {
            fn parse_lexical(text: &str) -> Result<Self, FacetError> {
                parse_integer(text, <$t>::MIN as i128, <$t>::MAX as i128, $xsd).map(|v| v as $t)
            }
            fn to_lexical(&self) -> Cow<'_, str> {
                Cow::Owned(self.to_string())
            }
            fn identity_key(&self) -> crate::identity_key::KeyValue {
                crate::identity_key::KeyValue::new(crate::identity_key::Primitive::Decimal, &self.to_lexical())
            }
        }
        impl Element for $t {
            fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
                r.simple_element(tag)
            }
            fn write_element(&self, w: &mut Writer, name: &str) {
                w.simple_element(name, &self.to_lexical(), TextForm::Text);
            }
        }
    )*};
}

integer_simple_value!(i8 => "xs:byte", i16 => "xs:short", i32 => "xs:int", i64 => "xs:long",
    u8 => "xs:unsignedByte", u16 => "xs:unsignedShort", u32 => "xs:unsignedInt", u64 => "xs:unsignedLong");

impl SimpleValue for String {
    #[inline]
    fn parse_lexical(text: &str) -> Result<Self, FacetError> {
        Ok(text.to_owned())
    }
    fn to_lexical(&self) -> Cow<'_, str> {
        Cow::Borrowed(self)
    }
}

impl Element for String {
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        r.simple_element(tag)
    }
    fn write_element(&self, w: &mut Writer, name: &str) {
        w.simple_element(name, self, TextForm::Text);
    }
}

impl SimpleValue for bool {
    fn parse_lexical(text: &str) -> Result<Self, FacetError> {
        match &*whitespace::collapse(text) {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(FacetError::Lexical {
                expected: "xs:boolean",
            }),
        }
    }
    fn to_lexical(&self) -> Cow<'_, str> {
        Cow::Borrowed(if *self { "true" } else { "false" })
    }
    fn identity_key(&self) -> crate::identity_key::KeyValue {
        crate::identity_key::KeyValue::new(
            crate::identity_key::Primitive::Boolean,
            &self.to_lexical(),
        )
    }
}

impl Element for bool {
    fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        r.simple_element(tag)
    }
    fn write_element(&self, w: &mut Writer, name: &str) {
        w.simple_element(name, &self.to_lexical(), TextForm::Text);
    }
}

/// Built-in XSD types that need more than a Rust primitive: a check or white-space rule.
pub mod xs {
    use super::*;

    macro_rules! string_builtin {
        ($(#[$doc:meta])* $name:ident, $ws:path) => {
            $(#[$doc])*
            #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
            pub struct $name(String);
            impl $name {
                /// The value.
                pub fn as_str(&self) -> &str {
                    &self.0
                }
                /// Builds the value, applying the type's white-space rule.
                pub fn new(value: &str) -> Self {
                    $name($ws(value).into_owned())
                }
            }
            impl SimpleValue for $name {
                fn parse_lexical(text: &str) -> Result<Self, FacetError> {
                    Ok($name::new(text))
                }
                fn to_lexical(&self) -> Cow<'_, str> {
                    Cow::Borrowed(&self.0)
                }
            }
            impl Element for $name {
                fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
                    r.simple_element(tag)
                }
                fn write_element(&self, w: &mut Writer, name: &str) {
                    w.simple_element(name, &self.0, TextForm::Text);
                }
            }
            impl std::fmt::Display for $name {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(&self.0)
                }
            }
        };
    }

    string_builtin!(
        /// `xs:normalizedString`: no tabs or line ends.
        NormalizedString, whitespace::replace);
    string_builtin!(
        /// `xs:token`: white space collapsed.
        Token, whitespace::collapse);
    string_builtin!(
        /// `xs:anyURI`, held as written (collapsed), not resolved.
        AnyUri, whitespace::collapse);

    macro_rules! bounded_integer {
        ($(#[$doc:meta])* $name:ident, $repr:ty, $min:expr, $max:expr, $xsd:literal) => {
            $(#[$doc])*
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub struct $name($repr);
            impl $name {
                /// Validates `value`.
                pub fn new(value: $repr) -> Result<Self, FacetError> {
                    let v = value as i128;
                    if v < $min {
                        return Err(FacetError::TooSmall { min: $min });
                    }
                    if v > $max {
                        return Err(FacetError::TooLarge { max: $max });
                    }
                    Ok($name(value))
                }
                /// The value.
                pub fn get(self) -> $repr {
                    self.0
                }
            }
            impl SimpleValue for $name {
                fn parse_lexical(text: &str) -> Result<Self, FacetError> {
                    let v = parse_integer(text, <$repr>::MIN as i128, <$repr>::MAX as i128, $xsd)?;
                    $name::new(v as $repr)
                }
                fn to_lexical(&self) -> Cow<'_, str> {
                    Cow::Owned(self.0.to_string())
                }
                fn identity_key(&self) -> crate::identity_key::KeyValue {
                    crate::identity_key::KeyValue::new(crate::identity_key::Primitive::Decimal, &self.to_lexical())
                }
            }
            impl Element for $name {
                fn read_element(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
                    r.simple_element(tag)
                }
                fn write_element(&self, w: &mut Writer, name: &str) {
                    w.simple_element(name, &self.to_lexical(), TextForm::Text);
                }
            }
            impl std::fmt::Display for $name {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    write!(f, "{}", self.0)
                }
            }
        };
    }

    bounded_integer!(
        /// `xs:positiveInteger` (>= 1), held as u64.
        PositiveInteger, u64, 1, u64::MAX as i128, "xs:positiveInteger");
    bounded_integer!(
        /// `xs:nonPositiveInteger` (<= 0), held as i64.
        NonPositiveInteger, i64, i64::MIN as i128, 0, "xs:nonPositiveInteger");
    bounded_integer!(
        /// `xs:negativeInteger` (<= -1), held as i64.
        NegativeInteger, i64, i64::MIN as i128, -1, "xs:negativeInteger");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_space_is_found_wherever_it_stands() {
        // Every byte value at every place of strings of 1 to 19 bytes, around bytes that
        // borrow or carry (0x00, 0x21, 0x80, 0xA1, 0xFF): the word-wise test agrees with
        // a byte-wise one.
        let fill = [b'a', 0x21, 0x80, 0xA1, 0xFF, 0x00];
        for len in 1..20 {
            for place in 0..len {
                for byte in 0..=255u8 {
                    for &other in &fill {
                        let mut bytes = vec![other; len];
                        bytes[place] = byte;
                        let expected = bytes.iter().any(|&b| b <= b' ');
                        assert_eq!(
                            whitespace::has_byte_up_to_space(&bytes),
                            expected,
                            "{bytes:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn integers_follow_xsd_lexical_rules() {
        assert_eq!(u8::parse_lexical(" 007 "), Ok(7));
        assert_eq!(i8::parse_lexical("+5"), Ok(5));
        assert_eq!(i8::parse_lexical("-128"), Ok(-128));
        assert_eq!(
            i8::parse_lexical("128"),
            Err(FacetError::TooLarge { max: 127 })
        );
        assert_eq!(
            u8::parse_lexical("-1"),
            Err(FacetError::TooSmall { min: 0 })
        );
        assert_eq!(
            u8::parse_lexical("1.0"),
            Err(FacetError::Lexical {
                expected: "xs:unsignedByte"
            })
        );
        assert_eq!(
            u8::parse_lexical(""),
            Err(FacetError::Lexical {
                expected: "xs:unsignedByte"
            })
        );
        assert_eq!(
            u64::parse_lexical(&"9".repeat(60)),
            Err(FacetError::TooLarge {
                max: u64::MAX as i128
            })
        );
        assert_eq!(
            xs::PositiveInteger::parse_lexical("0"),
            Err(FacetError::TooSmall { min: 1 })
        );
    }

    #[test]
    fn collapse() {
        assert_eq!(whitespace::collapse("  a \t\n b  "), "a b");
        assert_eq!(
            whitespace::collapse("\r\n 1,2,3\n\t\t4,5,6 é  ü\n"),
            "1,2,3 4,5,6 é ü"
        );
        assert_eq!(whitespace::collapse(" \n\t "), "");
        assert_eq!(whitespace::collapse("ab"), "ab");
    }
}
