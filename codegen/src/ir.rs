//! The generator's own model of a schema: what rendering reads.
//!
//! The adapter (`crate::xsd`) is the only code that sees XSD; it resolves names, checks what
//! we support and hands over this IR. Constraints are data here (facets, occurrence bounds,
//! translated patterns), so rendering never interprets XSD and a facet that cannot be
//! honoured has already been reported with its position.

use std::collections::{BTreeMap, BTreeSet};

use boardxml::facets::{Constraint, ExplicitTimezone, Facet, FACETS};

pub use crate::span::Span;

/// One schema file, resolved.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    /// The schema's documentation (the top-level `xs:annotation`).
    pub doc: Option<String>,
    /// Named types, by XSD name. A `BTreeMap` keeps rendering order deterministic.
    pub types: BTreeMap<String, TypeDef>,
    /// Global elements: the documents' possible roots, by element name.
    pub roots: BTreeMap<String, RootElement>,
    /// The names of the notation declarations (`xs:notation`): a NOTATION value names one.
    pub notations: BTreeSet<String>,
    /// Global attribute declarations, by name: what strict and lax attribute wildcards
    /// validate against (filled when the schema has an attribute wildcard).
    pub global_attributes: BTreeMap<String, Attribute>,
    /// `targetNamespace`: the namespace of every global declaration and of the local ones
    /// that are qualified (`None`: the schema has none, names are in no namespace).
    pub target_namespace: Option<String>,
    /// The identity constraints (`xs:unique`, `xs:key`, `xs:keyref`) of element
    /// declarations, by the name of the complex type the declaration reads with (each
    /// such declaration has a type of its own: its anonymous type, or a copy of its named
    /// one, see [`IdentityTable::copy_of`]).
    pub identity: BTreeMap<String, IdentityTable>,
    /// What the schema was read without ([`crate::diagnostic::Kind::Warning`]): locations
    /// of included or imported documents that do not resolve, where nothing they would
    /// declare is used.
    pub warnings: Vec<crate::diagnostic::SchemaDiagnostic>,
    /// Whether the schema was read as XSD 1.1: its documents then validate by 1.1's
    /// rules where they differ from 1.0's at run time (the ID/IDREF table of 1.1 Part 1,
    /// 3.17.5.2: several ID attributes on an element, an element's ID content bound to its
    /// parent), which the generated document type says (`document!(..., xsd_version "1.1")`).
    pub xsd_1_1: bool,
    /// For each complex type some nillable element has, the name of its attributes-only
    /// companion type (its attributes and attribute wildcard, empty content): what a nil
    /// element of that type keeps (XSD 1.0 Part 1, 3.3.4, Element Locally Valid
    /// (Element) 3.2: a nil element has no content but its attributes).
    pub nil_attributes: BTreeMap<String, String>,
    /// The named types an undeclared root may be validated by, through its `xsi:type`
    /// (XSD 1.0 Part 1, 3.3.4 Schema-Validity Assessment (Element) 1.2), by expanded name:
    /// every named type of the schema but the abstract ones, and the built-ins.
    pub root_types: BTreeMap<String, TypeRef>,
}

impl Schema {
    /// Whether the schema has XPath the generated code cannot decide itself: XSD 1.1
    /// assertions of simple and complex types, or type alternatives' tests outside the attribute tests
    /// it makes. Its generated code needs the runtime's `xpath` feature, which evaluates them.
    pub fn needs_xpath(&self) -> bool {
        self.types.values().any(|t| match &t.kind {
            TypeKind::Restriction(r) => !r.facets.assertions.is_empty(),
            TypeKind::Complex(c) => !c.assertions.is_empty(),
            TypeKind::Alternatives(alts) => alts
                .iter()
                .any(|a| matches!(a.test, Some(AltTest::XPath(_)))),
            _ => false,
        })
    }
}

/// The identity constraints of one element declaration.
#[derive(Debug, Clone, Default)]
pub struct IdentityTable {
    /// The constraints, in schema order.
    pub constraints: Vec<IdentityConstraint>,
    /// The named type this declaration's type is a copy of (`type="T"` with constraints:
    /// the constraints belong to the declaration, not to `T`'s other elements).
    pub copy_of: Option<String>,
}

/// One identity-constraint definition (XSD 1.0 Part 1, 3.11).
#[derive(Debug, Clone)]
pub struct IdentityConstraint {
    /// Its expanded name (see [`expanded_name`]).
    pub name: String,
    /// unique, key or keyref.
    pub kind: IdentityKind,
    /// The selector's alternatives.
    pub selector: Vec<IdentityPath>,
    /// The fields: each as written, with its alternatives.
    pub fields: Vec<(String, Vec<IdentityPath>)>,
    /// Where it is declared.
    pub span: Span,
}

/// Which identity constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdentityKind {
    /// `xs:unique`.
    Unique,
    /// `xs:key`.
    Key,
    /// `xs:keyref`, with the expanded name of the key or unique it refers to.
    KeyRef(String),
}

/// One path of the XPath subset of selectors and fields (3.11.6), prefixes resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityPath {
    /// Opens with `.//`.
    pub descendant: bool,
    /// The child steps (`.` steps left out).
    pub steps: Vec<NameTest>,
    /// A field's attribute step.
    pub attribute: Option<NameTest>,
}

/// A name test of an identity-constraint path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameTest {
    /// `*`.
    Any,
    /// `prefix:*`: the namespace.
    Namespace(String),
    /// A name, expanded.
    Name(String),
}

/// A global element that can be a document's root.
#[derive(Debug, Clone)]
pub struct RootElement {
    /// The element's local name.
    pub name: String,
    /// Its namespace: the target namespace (a global element is always qualified).
    pub namespace: Option<String>,
    /// Its type (anonymous types get a name derived from the element).
    pub type_ref: TypeRef,
    /// Documentation.
    pub doc: Option<String>,
    /// Where it is declared (for `diff`'s locations).
    pub span: Span,
    /// `default=` or `fixed=` on the declaration: a root's content is checked against it
    /// as a child's is.
    pub value: Option<ValueConstraint>,
    /// `nillable="true"`: a document's root may be nil as a child may.
    pub nillable: bool,
    /// What `xsi:type` may name, where the declared type is simple.
    pub xsi_simple: Option<Box<SimpleSubstitution>>,
}

/// A reference to a type: a built-in XSD type or a named (possibly synthesised) one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TypeRef {
    /// An XSD built-in simple type.
    Builtin(Builtin),
    /// A type in [`Schema::types`].
    Named(String),
}

/// The XSD built-in types the generator supports, each with its Rust representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Builtin {
    /// `xs:string`
    String,
    /// `xs:normalizedString`
    NormalizedString,
    /// `xs:token`
    Token,
    /// `xs:boolean`
    Boolean,
    /// `xs:byte`
    Byte,
    /// `xs:short`
    Short,
    /// `xs:int`
    Int,
    /// `xs:long`
    Long,
    /// `xs:unsignedByte`
    UnsignedByte,
    /// `xs:unsignedShort`
    UnsignedShort,
    /// `xs:unsignedInt`
    UnsignedInt,
    /// `xs:unsignedLong`
    UnsignedLong,
    /// `xs:integer`: unbounded, held exactly (`boardxml::datatypes::Integer`) unless facets
    /// bound a restriction into a machine integer ([`Builtin::unbounded_integer`]).
    Integer,
    /// `xs:nonNegativeInteger` (>= 0, unbounded above; as `xs:integer`)
    NonNegativeInteger,
    /// `xs:positiveInteger` (>= 1, unbounded above; as `xs:integer`)
    PositiveInteger,
    /// `xs:nonPositiveInteger` (<= 0, unbounded below; as `xs:integer`)
    NonPositiveInteger,
    /// `xs:negativeInteger` (<= -1, unbounded below; as `xs:integer`)
    NegativeInteger,
    /// `xs:anyURI` (held as a string; not resolved)
    AnyUri,
    /// `xs:anyType`: only as the declared type of an element with alternatives.
    AnyType,
    /// A built-in held in a value type of the runtime's `boardxml::datatypes`.
    Value(ValueType),
}

/// The built-ins held in a value type of `boardxml::datatypes` (exact decimals, IEEE
/// floats, dates and times with zones, octets, names): each has its own lexical space, value
/// space and order there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum ValueType {
    Decimal,
    Float,
    Double,
    Duration,
    /// XSD 1.1's.
    DayTimeDuration,
    /// XSD 1.1's.
    YearMonthDuration,
    DateTime,
    /// XSD 1.1's.
    DateTimeStamp,
    Time,
    Date,
    GYearMonth,
    GYear,
    GMonthDay,
    GDay,
    GMonth,
    HexBinary,
    Base64Binary,
    QName,
    Notation,
    Language,
    Name,
    NCName,
    NmToken,
    NmTokens,
    Id,
    IdRef,
    IdRefs,
    Entity,
    Entities,
    AnySimpleType,
}

/// The families of facets Part 2, 4.1.5 grants together (the runtime's table of facets).
pub use boardxml::facets::FacetKind;

impl ValueType {
    /// Every value type, with its XSD local name.
    pub const ALL: &'static [(ValueType, &'static str)] = &[
        (ValueType::Decimal, "decimal"),
        (ValueType::Float, "float"),
        (ValueType::Double, "double"),
        (ValueType::Duration, "duration"),
        (ValueType::DayTimeDuration, "dayTimeDuration"),
        (ValueType::YearMonthDuration, "yearMonthDuration"),
        (ValueType::DateTime, "dateTime"),
        (ValueType::DateTimeStamp, "dateTimeStamp"),
        (ValueType::Time, "time"),
        (ValueType::Date, "date"),
        (ValueType::GYearMonth, "gYearMonth"),
        (ValueType::GYear, "gYear"),
        (ValueType::GMonthDay, "gMonthDay"),
        (ValueType::GDay, "gDay"),
        (ValueType::GMonth, "gMonth"),
        (ValueType::HexBinary, "hexBinary"),
        (ValueType::Base64Binary, "base64Binary"),
        (ValueType::QName, "QName"),
        (ValueType::Notation, "NOTATION"),
        (ValueType::Language, "language"),
        (ValueType::Name, "Name"),
        (ValueType::NCName, "NCName"),
        (ValueType::NmToken, "NMTOKEN"),
        (ValueType::NmTokens, "NMTOKENS"),
        (ValueType::Id, "ID"),
        (ValueType::IdRef, "IDREF"),
        (ValueType::IdRefs, "IDREFS"),
        (ValueType::Entity, "ENTITY"),
        (ValueType::Entities, "ENTITIES"),
        (ValueType::AnySimpleType, "anySimpleType"),
    ];

    /// The type's name in `boardxml::datatypes`.
    pub fn rust_name(self) -> &'static str {
        match self {
            ValueType::Decimal => "Decimal",
            ValueType::Float => "Float",
            ValueType::Double => "Double",
            ValueType::Duration => "Duration",
            ValueType::DayTimeDuration => "DayTimeDuration",
            ValueType::YearMonthDuration => "YearMonthDuration",
            ValueType::DateTime => "DateTime",
            ValueType::DateTimeStamp => "DateTimeStamp",
            ValueType::Time => "Time",
            ValueType::Date => "Date",
            ValueType::GYearMonth => "GYearMonth",
            ValueType::GYear => "GYear",
            ValueType::GMonthDay => "GMonthDay",
            ValueType::GDay => "GDay",
            ValueType::GMonth => "GMonth",
            ValueType::HexBinary => "HexBinary",
            ValueType::Base64Binary => "Base64Binary",
            ValueType::QName => "QName",
            ValueType::Notation => "Notation",
            ValueType::Language => "Language",
            ValueType::Name => "Name",
            ValueType::NCName => "NCName",
            ValueType::NmToken => "NmToken",
            ValueType::NmTokens => "NmTokens",
            ValueType::Id => "Id",
            ValueType::IdRef => "IdRef",
            ValueType::IdRefs => "IdRefs",
            ValueType::Entity => "Entity",
            ValueType::Entities => "Entities",
            ValueType::AnySimpleType => "AnySimpleType",
        }
    }

    /// The XSD local name.
    pub fn xsd_local(self) -> &'static str {
        ValueType::ALL
            .iter()
            .find(|(v, _)| *v == self)
            .map_or("", |(_, n)| n)
    }

    /// The primitive the type derives from, or `list` for the list types (what decides
    /// the facets it takes, Part 2, 4.1.5).
    pub fn primitive(self) -> &'static str {
        use ValueType::*;
        match self {
            Language | Name | NCName | NmToken | Id | IdRef | Entity => "string",
            NmTokens | IdRefs | Entities => "list",
            DayTimeDuration | YearMonthDuration => "duration",
            DateTimeStamp => "dateTime",
            _ => self.xsd_local(),
        }
    }

    /// Whether the type takes facets of `kind` (the table of facets says; anySimpleType
    /// takes none).
    pub fn allows(self, kind: FacetKind) -> bool {
        kind.applies_to(self.primitive())
    }
}

impl Builtin {
    /// The built-in named `local` in the XSD namespace, if supported.
    pub fn from_xsd_name(local: &str) -> Option<Builtin> {
        Some(match local {
            "string" => Builtin::String,
            "normalizedString" => Builtin::NormalizedString,
            "token" => Builtin::Token,
            "boolean" => Builtin::Boolean,
            "byte" => Builtin::Byte,
            "short" => Builtin::Short,
            "int" => Builtin::Int,
            "long" => Builtin::Long,
            "unsignedByte" => Builtin::UnsignedByte,
            "unsignedShort" => Builtin::UnsignedShort,
            "unsignedInt" => Builtin::UnsignedInt,
            "unsignedLong" => Builtin::UnsignedLong,
            "integer" => Builtin::Integer,
            "nonNegativeInteger" => Builtin::NonNegativeInteger,
            "positiveInteger" => Builtin::PositiveInteger,
            "nonPositiveInteger" => Builtin::NonPositiveInteger,
            "negativeInteger" => Builtin::NegativeInteger,
            "anyURI" => Builtin::AnyUri,
            "anyType" => Builtin::AnyType,
            other => Builtin::Value(
                ValueType::ALL
                    .iter()
                    .find(|(_, name)| *name == other)
                    .map(|(v, _)| *v)?,
            ),
        })
    }

    /// The XSD name, for documentation and messages.
    pub fn xsd_name(self) -> &'static str {
        match self {
            Builtin::String => "xs:string",
            Builtin::NormalizedString => "xs:normalizedString",
            Builtin::Token => "xs:token",
            Builtin::Boolean => "xs:boolean",
            Builtin::Byte => "xs:byte",
            Builtin::Short => "xs:short",
            Builtin::Int => "xs:int",
            Builtin::Long => "xs:long",
            Builtin::UnsignedByte => "xs:unsignedByte",
            Builtin::UnsignedShort => "xs:unsignedShort",
            Builtin::UnsignedInt => "xs:unsignedInt",
            Builtin::UnsignedLong => "xs:unsignedLong",
            Builtin::Integer => "xs:integer",
            Builtin::NonNegativeInteger => "xs:nonNegativeInteger",
            Builtin::PositiveInteger => "xs:positiveInteger",
            Builtin::NonPositiveInteger => "xs:nonPositiveInteger",
            Builtin::NegativeInteger => "xs:negativeInteger",
            Builtin::AnyUri => "xs:anyURI",
            Builtin::AnyType => "xs:anyType",
            Builtin::Value(v) => match v {
                ValueType::Decimal => "xs:decimal",
                ValueType::Float => "xs:float",
                ValueType::Double => "xs:double",
                ValueType::Duration => "xs:duration",
                ValueType::DayTimeDuration => "xs:dayTimeDuration",
                ValueType::YearMonthDuration => "xs:yearMonthDuration",
                ValueType::DateTime => "xs:dateTime",
                ValueType::DateTimeStamp => "xs:dateTimeStamp",
                ValueType::Time => "xs:time",
                ValueType::Date => "xs:date",
                ValueType::GYearMonth => "xs:gYearMonth",
                ValueType::GYear => "xs:gYear",
                ValueType::GMonthDay => "xs:gMonthDay",
                ValueType::GDay => "xs:gDay",
                ValueType::GMonth => "xs:gMonth",
                ValueType::HexBinary => "xs:hexBinary",
                ValueType::Base64Binary => "xs:base64Binary",
                ValueType::QName => "xs:QName",
                ValueType::Notation => "xs:NOTATION",
                ValueType::Language => "xs:language",
                ValueType::Name => "xs:Name",
                ValueType::NCName => "xs:NCName",
                ValueType::NmToken => "xs:NMTOKEN",
                ValueType::NmTokens => "xs:NMTOKENS",
                ValueType::Id => "xs:ID",
                ValueType::IdRef => "xs:IDREF",
                ValueType::IdRefs => "xs:IDREFS",
                ValueType::Entity => "xs:ENTITY",
                ValueType::Entities => "xs:ENTITIES",
                ValueType::AnySimpleType => "xs:anySimpleType",
            },
        }
    }

    /// How the value is held: a string or an integer of some width.
    pub fn repr(self) -> Repr {
        match self {
            Builtin::String
            | Builtin::NormalizedString
            | Builtin::Token
            | Builtin::AnyUri
            | Builtin::AnyType => Repr::String,
            Builtin::Boolean => Repr::Bool,
            Builtin::Byte => Repr::Int(IntRepr::I8),
            Builtin::Short => Repr::Int(IntRepr::I16),
            Builtin::Int => Repr::Int(IntRepr::I32),
            Builtin::Long
            | Builtin::Integer
            | Builtin::NonPositiveInteger
            | Builtin::NegativeInteger => Repr::Int(IntRepr::I64),
            Builtin::UnsignedByte => Repr::Int(IntRepr::U8),
            Builtin::UnsignedShort => Repr::Int(IntRepr::U16),
            Builtin::UnsignedInt => Repr::Int(IntRepr::U32),
            Builtin::UnsignedLong | Builtin::NonNegativeInteger | Builtin::PositiveInteger => {
                Repr::Int(IntRepr::U64)
            }
            Builtin::Value(v) => Repr::Value(v),
        }
    }

    /// For the integer built-ins whose value space is unbounded (`xs:integer` and the four
    /// derived by a bound on one side only), the runtime type holding any of their values
    /// exactly (in `boardxml::datatypes`). [`Builtin::repr`] gives such a built-in the
    /// machine integer a restriction falls back to when its facets bound it into one.
    pub fn unbounded_integer(self) -> Option<&'static str> {
        Some(match self {
            Builtin::Integer => "Integer",
            Builtin::NonNegativeInteger => "NonNegativeInteger",
            Builtin::PositiveInteger => "PositiveInteger",
            Builtin::NonPositiveInteger => "NonPositiveInteger",
            Builtin::NegativeInteger => "NegativeInteger",
            _ => return None,
        })
    }

    /// The whiteSpace facet the built-in fixes (XSD Part 2, 4.3.6).
    pub fn white_space(self) -> WhiteSpace {
        match self {
            Builtin::String | Builtin::AnyType | Builtin::Value(ValueType::AnySimpleType) => {
                WhiteSpace::Preserve
            }
            Builtin::NormalizedString => WhiteSpace::Replace,
            _ => WhiteSpace::Collapse,
        }
    }

    /// Bounds implied by the built-in beyond its Rust type (positiveInteger >= 1, ...).
    pub fn implied_bounds(self) -> (Option<i128>, Option<i128>) {
        match self {
            Builtin::PositiveInteger => (Some(1), None),
            Builtin::NonPositiveInteger => (None, Some(0)),
            Builtin::NegativeInteger => (None, Some(-1)),
            _ => (None, None),
        }
    }
}

/// The Rust representation of a simple value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repr {
    /// `String`
    String,
    /// `bool`
    Bool,
    /// A primitive integer.
    Int(IntRepr),
    /// A value type of `boardxml::datatypes`.
    Value(ValueType),
}

/// Primitive integer widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum IntRepr {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

impl IntRepr {
    /// The Rust type name.
    pub fn rust_name(self) -> &'static str {
        match self {
            IntRepr::I8 => "i8",
            IntRepr::I16 => "i16",
            IntRepr::I32 => "i32",
            IntRepr::I64 => "i64",
            IntRepr::U8 => "u8",
            IntRepr::U16 => "u16",
            IntRepr::U32 => "u32",
            IntRepr::U64 => "u64",
        }
    }

    /// The range of the Rust type.
    pub fn range(self) -> (i128, i128) {
        match self {
            IntRepr::I8 => (i8::MIN as i128, i8::MAX as i128),
            IntRepr::I16 => (i16::MIN as i128, i16::MAX as i128),
            IntRepr::I32 => (i32::MIN as i128, i32::MAX as i128),
            IntRepr::I64 => (i64::MIN as i128, i64::MAX as i128),
            IntRepr::U8 => (0, u8::MAX as i128),
            IntRepr::U16 => (0, u16::MAX as i128),
            IntRepr::U32 => (0, u32::MAX as i128),
            IntRepr::U64 => (0, u64::MAX as i128),
        }
    }
}

/// The whiteSpace facet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum WhiteSpace {
    /// Keep the value as written.
    Preserve,
    /// Tabs, line feeds and carriage returns become spaces.
    Replace,
    /// Replace, then runs of spaces become one and leading/trailing spaces go.
    Collapse,
}

/// A named type.
#[derive(Debug, Clone)]
pub struct TypeDef {
    /// The XSD name (or the synthesised name of an anonymous type).
    pub name: String,
    /// Documentation from `xs:annotation`.
    pub doc: Option<String>,
    /// Where it is defined.
    pub span: Span,
    /// Its kind.
    pub kind: TypeKind,
}

/// What a type is.
#[derive(Debug, Clone)]
pub enum TypeKind {
    /// A restriction of a simple type by facets (not an enumeration).
    Restriction(Restriction),
    /// A restriction whose values are enumerated: a Rust enum.
    Enumeration(Enumeration),
    /// A union of simple types: a Rust enum, one variant per member.
    Union(Vec<TypeRef>),
    /// A list of simple values separated by white space.
    List(ListType),
    /// A complex type: a struct.
    Complex(ComplexType),
    /// An element's type chosen by XSD 1.1 `xs:alternative`: a Rust enum.
    Alternatives(Vec<Alternative>),
    /// An element's type chosen by `xsi:type` among its declared type and the types of the
    /// schema validly derived from it (XSD 1.0 type substitution): a Rust enum.
    Substitution(TypeSubstitution),
}

/// The types that may stand in for an element's declared type through `xsi:type` (XSD 1.0
/// Part 1, 3.3.4 Element Locally Valid (Element) 4), computed from the schema's derivations
/// and `block`s (see `xsd/passes/type_substitution.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeSubstitution {
    /// The declared type.
    pub declared: TypeRef,
    /// The declared type's expanded name (`None` for an anonymous type, which `xsi:type`
    /// cannot name).
    pub declared_name: Option<String>,
    /// The declared type is abstract: an element needs `xsi:type` naming another type.
    pub declared_abstract: bool,
    /// The types that may stand in (the declared one not among them), each by expanded
    /// name, in name order.
    pub members: Vec<(String, TypeRef)>,
    /// Types derived from the declared one that may not stand in, by expanded name, with
    /// why (abstract, or a derivation method the element's or the type's `block` forbids).
    pub refused: Vec<(String, String)>,
    /// Every named type of the schema, by expanded name: what `xsi:type` may name at all
    /// (a name outside is an unknown type, one inside but not derived is not derived).
    pub known: Vec<String>,
}

/// What `xsi:type` may name on an element whose declared type is simple (XSD 1.0 Part 1,
/// 3.3.4 cvc-elt.4.3, 3.14.6 Type Derivation OK (Simple)): the simple types validly
/// derived from it that its `block` allows. The element is held as its declared type; a
/// named type's content is validated against that type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimpleSubstitution {
    /// The declared type.
    pub declared: TypeRef,
    /// The declared type's expanded name (`None` for an anonymous type).
    pub declared_name: Option<String>,
    /// The simple types that may stand in (not the declared one), by expanded name, in
    /// name order.
    pub members: Vec<(String, TypeRef)>,
    /// Types derived from the declared one that may not stand in, with why.
    pub refused: Vec<(String, String)>,
    /// Every named type of the schema, by expanded name.
    pub known: Vec<String>,
    /// The declared type is `xs:anyType`: a complex type of the schema that is neither a
    /// member nor refused may be named, and the content is read as anyType content.
    pub open: bool,
}

/// A restriction step: its base and the facets it adds.
#[derive(Debug, Clone)]
pub struct Restriction {
    /// The base type.
    pub base: TypeRef,
    /// The facets this step adds.
    pub facets: Facets,
}

/// Facets as data. Patterns are ORed within one derivation step; steps are ANDed by
/// validating the base first.
#[derive(Debug, Clone, Default)]
pub struct Facets {
    /// `xs:length`, in characters (or list items).
    pub length: Option<u64>,
    /// `xs:minLength`.
    pub min_length: Option<u64>,
    /// `xs:maxLength`.
    pub max_length: Option<u64>,
    /// Patterns of this step, each with its translation to the regex crate's syntax.
    pub patterns: Vec<Pattern>,
    /// `xs:minInclusive` / `xs:minExclusive` folded into an inclusive integer bound.
    pub min: Option<i128>,
    /// `xs:maxInclusive` / `xs:maxExclusive` folded into an inclusive integer bound.
    pub max: Option<i128>,
    /// `xs:whiteSpace`, if this step sets it.
    pub white_space: Option<WhiteSpace>,
    /// `xs:totalDigits`.
    pub total_digits: Option<u32>,
    /// `xs:fractionDigits`.
    pub fraction_digits: Option<u32>,
    /// The value bounds as written (`min`/`max` hold them folded for an integer base;
    /// these are compared in the value space of any other ordered base).
    pub bounds: Vec<(BoundKind, String)>,
    /// `xs:enumeration` values of a step that has other facets too (a step with only
    /// enumerations is an [`Enumeration`]), compared in the base's value space.
    pub enumeration: Vec<String>,
    /// The namespace bindings each enumerated value relies on, in the order of
    /// [`Facets::enumeration`] (see [`EnumValue::namespaces`]).
    pub enumeration_scopes: Vec<Vec<(String, String)>>,
    /// `xs:explicitTimezone` (XSD 1.1).
    pub explicit_timezone: Option<ExplicitTimezone>,
    /// XSD 1.1's `xs:assertion`s, in schema order.
    pub assertions: Vec<Assertion>,
}

/// XSD 1.1's `xs:assertion` of a restriction step (Part 2, 4.3.13): an XPath expression
/// the value, as `$value`, must make true.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Assertion {
    /// The test, as the schema writes it.
    pub test: String,
    /// The namespace bindings in scope at the `xs:assertion` (prefix, namespace; `""`
    /// for the default namespace).
    pub namespaces: Vec<(String, String)>,
    /// The namespace of unprefixed element names in the test (`xpathDefaultNamespace`),
    /// if any.
    pub default_element_namespace: Option<String>,
}

impl Assertion {
    /// The namespace bindings in scope, borrowed, as the XPath compiler takes them.
    pub fn bindings(&self) -> Vec<(&str, &str)> {
        self.namespaces
            .iter()
            .map(|(p, ns)| (p.as_str(), ns.as_str()))
            .collect()
    }
}

impl Facets {
    /// The facets of a step whose only facet is the enumeration `values`.
    pub fn enumerated(values: &[EnumValue]) -> Facets {
        let mut facets = Facets::default();
        facets.set_enumeration(values);
        facets
    }

    /// The count a count facet (a length, the digits) sets in this step.
    pub fn count(&self, facet: Facet) -> Option<u64> {
        match facet {
            Facet::Length => self.length,
            Facet::MinLength => self.min_length,
            Facet::MaxLength => self.max_length,
            Facet::TotalDigits => self.total_digits.map(u64::from),
            Facet::FractionDigits => self.fraction_digits.map(u64::from),
            _ => None,
        }
    }

    /// Sets the count facet `facet` (no other) of this step to `count`.
    pub fn set_count(&mut self, facet: Facet, count: Option<u64>) {
        match facet {
            Facet::Length => self.length = count,
            Facet::MinLength => self.min_length = count,
            Facet::MaxLength => self.max_length = count,
            Facet::TotalDigits => self.total_digits = count.map(|v| v as u32),
            Facet::FractionDigits => self.fraction_digits = count.map(|v| v as u32),
            _ => {}
        }
    }

    /// Whether this step sets `facet`.
    pub fn has(&self, facet: Facet) -> bool {
        match facet.def().constrains {
            Constraint::Bound(b) => self.bounds.iter().any(|(k, _)| *k == b),
            Constraint::Pattern => !self.patterns.is_empty(),
            Constraint::Enumeration => !self.enumeration.is_empty(),
            Constraint::WhiteSpace => self.white_space.is_some(),
            Constraint::Timezone => self.explicit_timezone.is_some(),
            _ => self.count(facet).is_some(),
        }
    }

    /// Whether this step sets a facet of the family `kind`.
    pub fn has_kind(&self, kind: FacetKind) -> bool {
        FACETS.iter().any(|d| d.kind == kind && self.has(d.facet))
    }

    /// Whether this step sets any facet.
    pub fn any(&self) -> bool {
        FACETS.iter().any(|d| self.has(d.facet)) || !self.assertions.is_empty()
    }

    /// Sets the step's enumeration to `values`, with their namespace bindings.
    pub fn set_enumeration(&mut self, values: &[EnumValue]) {
        self.enumeration = values.iter().map(|v| v.value.clone()).collect();
        self.enumeration_scopes = values.iter().map(|v| v.namespaces.clone()).collect();
    }
}

/// Which value bound: the runtime's, which names its facet ([`BoundKind::xsd_name`]).
pub type BoundKind = boardxml::facets::Bound;

/// One `xs:pattern`.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// As written in the schema.
    pub xsd: String,
    /// Translated: anchored, exact, for the `regex` crate.
    pub rust: String,
}

/// An enumeration.
#[derive(Debug, Clone)]
pub struct Enumeration {
    /// The base type (its lexical space and whiteSpace).
    pub base: TypeRef,
    /// The values, in schema order.
    pub values: Vec<EnumValue>,
}

/// One enumerated value.
#[derive(Debug, Clone)]
pub struct EnumValue {
    /// The lexical value.
    pub value: String,
    /// Documentation.
    pub doc: Option<String>,
    /// The namespace bindings in scope at the `xs:enumeration` for the prefixes its value
    /// uses, (prefix, namespace) with `""` for the default namespace: what the value means
    /// if its type holds QNames (Part 2, 3.2.18.1). Empty when nothing is bound.
    pub namespaces: Vec<(String, String)>,
}

/// A list type.
#[derive(Debug, Clone)]
pub struct ListType {
    /// The item type.
    pub item: TypeRef,
    /// Facets on the list (lengths count items).
    pub facets: Facets,
}

/// A complex type.
#[derive(Debug, Clone)]
pub struct ComplexType {
    /// Attributes, in schema order.
    pub attributes: Vec<Attribute>,
    /// The attribute wildcard (`xs:anyAttribute`, combined with those of the attribute
    /// groups used), if any.
    pub any_attribute: Option<Wildcard>,
    /// The content.
    pub content: Content,
    /// XSD 1.1's assertions (`xs:assert`, Part 1, 3.13): the base type's first, then the
    /// type's own, in schema order. A test sees the element as its context item, and
    /// `$value` is its simple content's value (the empty sequence without).
    pub assertions: Vec<Assertion>,
}

impl ComplexType {
    /// `xs:anyType` as a complex type (XSD 1.0 Part 1, 3.4.7, the ur-type): mixed content
    /// of one `<xs:any namespace="##any" processContents="lax"/>` repeated without bound,
    /// and `<xs:anyAttribute namespace="##any" processContents="lax"/>`. What a type
    /// extending it, or a declaration of it with identity constraints, is built on
    /// (`span`: where that stands).
    pub fn any_type(span: Span) -> Self {
        let lax = Wildcard {
            namespaces: NamespaceConstraint::Any,
            disallowed: Disallowed::default(),
            process: ProcessContents::Lax,
            span,
        };
        ComplexType {
            attributes: Vec::new(),
            any_attribute: Some(lax.clone()),
            content: Content::Mixed(Particle {
                min: 0,
                max: None,
                term: Term::Any(lax),
            }),
            assertions: Vec::new(),
        }
    }
}

/// An attribute use.
#[derive(Debug, Clone)]
pub struct Attribute {
    /// Its local name.
    pub name: String,
    /// Its namespace (a global attribute's, or a qualified local one's: the target
    /// namespace; `None` for an unqualified one).
    pub namespace: Option<String>,
    /// Its type (a simple type).
    pub type_ref: TypeRef,
    /// `use="required"`.
    pub required: bool,
    /// `default="..."`.
    pub default: Option<String>,
    /// `fixed="..."`.
    pub fixed: Option<String>,
    /// XSD 1.1's `inheritable="true"` (the use's, else the declaration's): an element passes
    /// the attribute on to its descendants' type alternatives (Part 1, 3.3.5.6).
    pub inheritable: bool,
    /// Documentation.
    pub doc: Option<String>,
    /// Where it is declared (for `diff`'s locations).
    pub span: Span,
}

/// A complex type's content.
#[derive(Debug, Clone)]
pub enum Content {
    /// No content (only white space is allowed between the tags).
    Empty,
    /// Simple content of this type (`xs:simpleContent`).
    Simple(TypeRef),
    /// Element-only content.
    Elements(Particle),
    /// Mixed content: text interleaved with the particle's elements, order kept.
    Mixed(Particle),
}

/// A particle of a content model.
#[derive(Debug, Clone)]
pub struct Particle {
    /// minOccurs.
    pub min: u32,
    /// maxOccurs (`None` = unbounded).
    pub max: Option<u32>,
    /// What occurs.
    pub term: Term,
}

/// What a particle holds.
#[derive(Debug, Clone)]
pub enum Term {
    /// A local element (or a reference to a global one).
    Element(ElementDecl),
    /// `xs:sequence`.
    Sequence(Vec<Particle>),
    /// `xs:choice`.
    Choice(Vec<Particle>),
    /// `xs:all`.
    All(Vec<Particle>),
    /// `xs:any`: an element wildcard.
    Any(Wildcard),
}

impl Term {
    /// Whether the term can match no elements at all (occurrences of its own particles
    /// included).
    pub fn can_be_empty(&self) -> bool {
        let particle = |p: &Particle| p.min == 0 || p.term.can_be_empty();
        match self {
            Term::Element(_) | Term::Any(_) => false,
            Term::Sequence(items) | Term::All(items) => items.iter().all(particle),
            // An empty choice matches nothing, not even no elements (XSD 1.0, 3.8.4).
            Term::Choice(items) => items.iter().any(particle),
        }
    }

    /// Whether the generated reader divides an occurrence of this group's term at the
    /// repeated particle `x` (by identity), where `x` may both end an occurrence and start
    /// the next (see the runtime's `complex::read_items`): `x` is a sequence's
    /// [`split_field`], a choice's branch repeated by its own occurrence, or one a group
    /// at such a place is divided at, or a group a choice's branch nests once.
    pub fn splits_at(&self, x: &Particle) -> bool {
        let group = |p: &Particle| matches!(p.term, Term::Sequence(_) | Term::Choice(_));
        let at = |p: &Particle| std::ptr::eq(p, x) || group(p) && p.term.splits_at(x);
        match self {
            Term::Sequence(items) => {
                let fields = sequence_fields(items);
                split_field(&fields).is_some_and(|k| at(fields[k]))
            }
            Term::Choice(items) => items.iter().any(|b| {
                if b.max != Some(1) {
                    at(b)
                } else {
                    group(b) && b.term.splits_at(x)
                }
            }),
            Term::Element(_) | Term::Any(_) | Term::All(_) => false,
        }
    }
}

impl Particle {
    /// Whether the particle allows nothing but emptiness (XSD 1.0 Part 1, 3.4.2: an empty
    /// sequence or all, an empty choice that may be absent, or one that may not occur):
    /// the explicit content it gives a complex type is empty.
    pub fn allows_only_emptiness(&self) -> bool {
        match &self.term {
            _ if self.max == Some(0) => true,
            Term::Sequence(v) | Term::All(v) => v.is_empty(),
            Term::Choice(v) => v.is_empty() && self.min == 0,
            Term::Element(_) | Term::Any(_) => false,
        }
    }

    /// minOccurs as the generated reader counts a sequence's particle: a group that can
    /// match no elements is optional whatever its minOccurs (zero occurrences and empty
    /// ones read the same).
    pub fn reader_min(&self) -> u32 {
        if matches!(self.term, Term::Element(_) | Term::Any(_)) || !self.term.can_be_empty() {
            self.min
        } else {
            0
        }
    }
}

/// The items of a sequence with the sequences inside it that occur exactly once spliced in:
/// the fields of the struct generated for it, in order (a referenced `xs:group` of a
/// sequence reads as its elements, not as a nested struct).
pub fn sequence_fields(items: &[Particle]) -> Vec<&Particle> {
    let mut out = Vec::new();
    // Innermost last: the items still to visit, each list from its next item.
    let mut stack = vec![items.iter()];
    while let Some(top) = stack.last_mut() {
        let Some(p) = top.next() else {
            stack.pop();
            continue;
        };
        match &p.term {
            Term::Sequence(inner) if p.min == 1 && p.max == Some(1) => stack.push(inner.iter()),
            _ => out.push(p),
        }
    }
    out
}

/// The field (an index into `fields`, a sequence's [`sequence_fields`]) at which an
/// occurrence of the sequence may be split into several: its one required particle,
/// where that is repeated and every other is optional. Reading `(a{1,2}, b?){2}` over
/// `<a/><a/>` takes both `a` into one occurrence; split there, they make two.
pub fn split_field(fields: &[&Particle]) -> Option<usize> {
    let mut required = fields
        .iter()
        .enumerate()
        .filter(|(_, p)| p.reader_min() > 0);
    let (k, p) = required.next()?;
    (required.next().is_none() && p.max != Some(1)).then_some(k)
}

/// An element declaration inside a content model.
#[derive(Debug, Clone)]
pub struct ElementDecl {
    /// The local name.
    pub name: String,
    /// Its namespace (`None` for an unqualified local element or a schema without a
    /// target namespace).
    pub namespace: Option<String>,
    /// Where the particle stands (the reference, for a reference to a global element; also
    /// `diff`'s location).
    pub span: Span,
    /// Its type.
    pub type_ref: TypeRef,
    /// Documentation.
    pub doc: Option<String>,
    /// `default=` or `fixed=` (simple content only).
    pub value: Option<ValueConstraint>,
    /// `nillable="true"`: `xsi:nil="true"` may stand for the value.
    pub nillable: bool,
    /// What `xsi:type` may name, where the declared type is simple (the element keeps
    /// its declared type's Rust type; see `xsd/passes/type_substitution.rs`).
    pub xsi_simple: Option<Box<SimpleSubstitution>>,
}

/// An element declaration's value constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueConstraint {
    /// `default="..."`: the value of an empty element.
    Default(String),
    /// `fixed="..."`: the only value allowed; an empty element has it.
    Fixed(String),
}

/// An expanded name (`{namespace}local`, or `local` in no namespace) as its namespace and
/// local name: [`expanded_name`] undone.
pub fn split_expanded_name(name: &str) -> (Option<&str>, &str) {
    match name.strip_prefix('{').and_then(|r| r.split_once('}')) {
        Some((ns, local)) => (Some(ns), local),
        None => (None, name),
    }
}

/// An expanded name as generated code matches it: the local name alone in no namespace,
/// `{namespace}local` (Clark notation) in one. The reader gives element and attribute
/// names in documents the same form, whatever prefix they are written with, so matching
/// stays one string comparison and a namespace-free schema's names are what they were.
pub fn expanded_name(namespace: Option<&str>, local: &str) -> String {
    match namespace {
        Some(ns) => format!("{{{ns}}}{local}"),
        None => local.to_string(),
    }
}

impl ElementDecl {
    /// The expanded name (see [`expanded_name`]).
    pub fn xml_name(&self) -> String {
        expanded_name(self.namespace.as_deref(), &self.name)
    }
}

impl Attribute {
    /// The expanded name (see [`expanded_name`]).
    pub fn xml_name(&self) -> String {
        expanded_name(self.namespace.as_deref(), &self.name)
    }
}

impl RootElement {
    /// The expanded name (see [`expanded_name`]).
    pub fn xml_name(&self) -> String {
        expanded_name(self.namespace.as_deref(), &self.name)
    }
}

/// One `xs:alternative`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Alternative {
    /// The condition; `None` is the default alternative.
    pub test: Option<AltTest>,
    /// The type chosen (a complex or simple named type).
    pub type_ref: TypeRef,
}

/// The subset of XPath 2.0 tests the generator understands in `xs:alternative`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AltTest {
    /// `@name`: the attribute is present.
    Present(String),
    /// `not(@name)`: the attribute is absent.
    Absent(String),
    /// `@name = 'value'`.
    Equals(String, String),
    /// `@name != 'value'`.
    NotEquals(String, String),
    /// Any other XPath 2.0 test, evaluated by the runtime's XPath engine (its `xpath`
    /// feature) on a copy of the element with its attributes (Part 1, 3.12.4).
    XPath(Assertion),
}

/// A wildcard (`xs:any`, `xs:anyAttribute`): which namespaces it allows and how what it
/// matches is validated (XSD 1.0, 3.10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wildcard {
    /// The namespace constraint.
    pub namespaces: NamespaceConstraint,
    /// XSD 1.1's {disallowed names} (`notQName`): names it never matches.
    pub disallowed: Disallowed,
    /// processContents.
    pub process: ProcessContents,
    /// Where it is declared.
    pub span: Span,
}

/// XSD 1.1's {disallowed names} of a wildcard (Part 1, 3.10.1, from `notQName`): expanded
/// names, and the keywords `defined` (`##defined`: the names of the schema's global
/// declarations) and `sibling` (`##definedSibling`: of the element declarations of the
/// content model the wildcard stands in). The generator resolves the keywords into
/// `names` where the declarations are known (`xsd/passes/wildcard.rs`), so the runtime
/// compares names only; the keywords stay, for what derivation compares.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Disallowed {
    /// Expanded names (`{namespace}local`, or `local` in no namespace), sorted, no repeats.
    pub names: Vec<String>,
    /// `##defined`.
    pub defined: bool,
    /// `##definedSibling` (element wildcards only).
    pub sibling: bool,
}

impl Disallowed {
    /// Whether nothing is disallowed.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && !self.defined && !self.sibling
    }

    /// Adds expanded names (kept sorted, without repeats).
    pub fn add<I: IntoIterator<Item = String>>(&mut self, names: I) {
        self.names.extend(names);
        self.names.sort();
        self.names.dedup();
    }
}

/// A wildcard's namespace constraint over expanded names: each namespace by URI, `None`
/// for no namespace (absent). Sets are sorted and without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NamespaceConstraint {
    /// `##any`.
    Any,
    /// Any namespace except these (`##other`: the target namespace and absent).
    Not(Vec<Option<String>>),
    /// Only these.
    Only(Vec<Option<String>>),
}

impl Wildcard {
    /// How messages name what the wildcard allows: `any element`, `an element in a
    /// namespace other than urn:a and no namespace`, ...
    pub fn describe(&self) -> String {
        let list = |v: &[Option<String>]| {
            v.iter()
                .map(|n| n.as_deref().unwrap_or("no namespace"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let allowed = match &self.namespaces {
            NamespaceConstraint::Any => "any element".into(),
            NamespaceConstraint::Not(v) => {
                format!("an element in a namespace other than {}", list(v))
            }
            NamespaceConstraint::Only(v) if v.is_empty() => {
                "an element in no namespace the wildcard allows (none)".into()
            }
            NamespaceConstraint::Only(v) => format!("an element in {}", list(v)),
        };
        match self.disallowed.names.as_slice() {
            [] => allowed,
            names => {
                let names: Vec<String> = names.iter().map(|n| format!("<{n}>")).collect();
                format!("{allowed} but {}", names.join(", "))
            }
        }
    }

    /// The name pattern generated tables give the runtime for the wildcard, where they give
    /// an element's expanded name (`boardxml::any::name_matches` reads it): `*` for any
    /// namespace, `*!` or `*=` followed by the namespaces excluded or allowed, separated by
    /// spaces, `##local` standing for no namespace; then, where names are disallowed
    /// (XSD 1.1's `notQName`), a tab and their expanded names, separated by spaces. An
    /// expanded name never starts with `*`, and neither a namespace in `namespace=` (a list
    /// of URIs) nor an expanded name holds white space.
    pub fn pattern(&self) -> String {
        let list = |v: &[Option<String>]| {
            v.iter()
                .map(|n| n.as_deref().unwrap_or("##local"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let namespaces = match &self.namespaces {
            NamespaceConstraint::Any => "*".into(),
            NamespaceConstraint::Not(v) => format!("*!{}", list(v)),
            NamespaceConstraint::Only(v) => format!("*={}", list(v)),
        };
        match self.disallowed.names.as_slice() {
            [] => namespaces,
            names => format!("{namespaces}\t{}", names.join(" ")),
        }
    }

    /// Whether the wildcard matches the element or attribute `expanded` (its expanded
    /// name) in `namespace`: the namespace allowed, the name not disallowed (XSD 1.1, Part
    /// 1, 3.10.4.2 Wildcard allows Expanded Name, with the keywords resolved).
    pub fn allows_name(&self, namespace: Option<&str>, expanded: &str) -> bool {
        self.allows(namespace)
            && self
                .disallowed
                .names
                .binary_search_by(|n| n.as_str().cmp(expanded))
                .is_err()
    }

    /// Whether the wildcard allows a name in `namespace` (`None`: no namespace).
    pub fn allows(&self, namespace: Option<&str>) -> bool {
        let has = |v: &[Option<String>]| v.iter().any(|n| n.as_deref() == namespace);
        match &self.namespaces {
            NamespaceConstraint::Any => true,
            NamespaceConstraint::Not(v) => !has(v),
            NamespaceConstraint::Only(v) => has(v),
        }
    }
}

/// `processContents`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessContents {
    /// A global declaration must exist and the item must be valid against it.
    Strict,
    /// Validated if a global declaration exists.
    Lax,
    /// Only well-formedness.
    Skip,
}
