//! Values as identity constraints compare them (XSD 1.0 Part 1, 3.11.4): a primitive and a
//! canonical form. A leaf module, apart from the engine in `identity.rs`, so that the
//! value types (`schema`, `facets`, `datatypes`) can give their keys without naming the
//! engine, which names them back.

/// The primitive type a value belongs to: values of different primitives are never equal
/// (Part 1, 3.11.4: equality is in the value space, and XSD 1.0's value spaces of the
/// primitives are disjoint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Primitive {
    String,
    Boolean,
    Decimal,
    Float,
    Double,
    Duration,
    DateTime,
    Time,
    Date,
    GYearMonth,
    GYear,
    GMonthDay,
    GDay,
    GMonth,
    HexBinary,
    Base64Binary,
    AnyUri,
    QName,
    Notation,
    /// A list: its items' values in order.
    List,
}

/// A value as identity constraints compare it: its primitive and one canonical form of
/// its value (decimals without trailing zeros, so that 1, 1.0 and 01 are one value).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeyValue {
    primitive: Primitive,
    value: String,
}

impl KeyValue {
    /// The value of `primitive` whose canonical lexical form (as the type writes it) is
    /// `lexical`.
    pub fn new(primitive: Primitive, lexical: &str) -> KeyValue {
        let value = if primitive == Primitive::Decimal {
            canonical_decimal(lexical)
        } else {
            lexical.to_string()
        };
        KeyValue { primitive, value }
    }

    /// A list of the item values `items`.
    pub fn list(items: impl IntoIterator<Item = KeyValue>) -> KeyValue {
        let parts: Vec<String> = items
            .into_iter()
            .map(|k| format!("{:?}:{}", k.primitive, k.value))
            .collect();
        KeyValue {
            primitive: Primitive::List,
            value: parts.join(" "),
        }
    }

    /// The value of a resolved QName or NOTATION: its expanded name (3.11.4 compares
    /// values, never the prefixes written), `{namespace}local`, `{}local` in no namespace.
    pub fn expanded(primitive: Primitive, namespace: Option<&str>, local: &str) -> KeyValue {
        let ns = namespace.unwrap_or("");
        KeyValue {
            primitive,
            value: format!("{{{ns}}}{local}"),
        }
    }

    /// A QName's value is its expanded name: `resolve` gives the namespace of a prefix in
    /// scope where it was read, for a key of a QName read without a scope (one already
    /// expanded, `{...}local`, stays).
    pub(crate) fn resolve_qname(&mut self, resolve: impl Fn(&str) -> Option<String>) {
        if self.primitive != Primitive::QName || self.value.starts_with('{') {
            return;
        }
        let (prefix, local) = self.value.split_once(':').unwrap_or(("", &self.value));
        let ns = resolve(prefix).unwrap_or_default();
        self.value = format!("{{{ns}}}{local}");
    }

    /// The value for messages.
    pub(crate) fn shown(&self) -> String {
        match self.primitive {
            // The items were tagged with their primitives for comparison only.
            Primitive::List => self
                .value
                .split(' ')
                .map(|p| p.split_once(':').map_or(p, |(_, v)| v))
                .collect::<Vec<_>>()
                .join(" "),
            Primitive::QName | Primitive::Notation => self
                .value
                .strip_prefix("{}")
                .unwrap_or(&self.value)
                .to_string(),
            _ => self.value.clone(),
        }
    }
}

/// A decimal's digits without a sign on zero, leading zeros or trailing fraction zeros.
pub(crate) fn canonical_decimal(lexical: &str) -> String {
    let (negative, digits) = match lexical.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, lexical.strip_prefix('+').unwrap_or(lexical)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let mut out = String::new();
    if negative && (int != "0" || !frac.is_empty()) {
        out.push('-');
    }
    out.push_str(int);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// The primitive of each value type of [`crate::datatypes`].
pub(crate) trait HasPrimitive {
    const PRIMITIVE: Primitive;
}

/// The key of a value type of [`crate::datatypes`] (lists by their items).
pub(crate) fn value_key<T: HasPrimitive>(lexical: &str) -> KeyValue {
    if T::PRIMITIVE == Primitive::List {
        let items: Vec<KeyValue> = lexical
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(|s| KeyValue::new(Primitive::String, s))
            .collect();
        return KeyValue::list(items);
    }
    KeyValue::new(T::PRIMITIVE, lexical)
}
