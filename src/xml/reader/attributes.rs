//! The attributes of a start tag as a generated type takes them: each declared attribute
//! by name (required, optional or fixed), typed through its simple type, and every one no
//! declaration took reported at the end.

use super::{excerpt, quote, Reader, Tag};
use crate::diagnostic::{Code, Diagnostic};
use crate::schema::{Invalid, SimpleValue};

/// Past this many attributes on a tag, declared attributes are looked up by name through an
/// index rather than by a scan of the tag.
const INDEXED: usize = 16;

/// A start tag's attributes while a type takes the ones it declares.
pub struct Attributes<'t> {
    /// Borrowed: taking attributes copies nothing. A missing attribute is reported at the
    /// tag's offset.
    tag: &'t Tag,
    /// Which items a declaration took: a bit each, the first 256 here (no allocation for
    /// the tags of real documents), the rest in `more_used`.
    used: [u64; 4],
    more_used: Vec<u64>,
    /// How many items were taken: once all were, a declaration's look-up is answered at
    /// once (a type declares many attributes that an element seldom has all of).
    taken: usize,
    /// The items' indices by name, built on the first look-up in a tag of more than
    /// [`INDEXED`] attributes: taking every declared attribute stays linear, not the
    /// declared count times the present count (names are unique: the reader checked).
    /// Boxed, as the other rare parts: the value is returned and moved on every element,
    /// and an empty map inline is 48 bytes to move each time.
    #[allow(clippy::box_collection)]
    index: Option<Box<std::collections::HashMap<&'t str, usize>>>,
    /// `xsi:type`'s value resolved where the element stands (its expanded name), or why
    /// it is no QName; `None` without one.
    pub(super) xsi_type: Option<Box<Result<String, String>>>,
    /// Why the element may not have its `xsi:type` (its declared type is simple, and the
    /// type named is not one that may stand in): reported for that attribute by `finish`.
    pub(super) xsi_refusal: Option<Box<Diagnostic>>,
    /// The expanded name of the element's declared type, where the type reading the
    /// element gave it (see [`Attributes::declared_type`]).
    declared: Option<&'static str>,
}

/// One attribute of a tag, borrowed.
#[derive(Clone, Copy)]
struct AttrRef<'t> {
    name: &'t str,
    value: &'t str,
    offset: usize,
}

/// How the reader names an attribute in the `xsi:` namespace: this, then its local name.
const XSI_PREFIX: &str = "{http://www.w3.org/2001/XMLSchema-instance}";

impl<'t> Attributes<'t> {
    /// None of `tag`'s attributes taken yet.
    pub(super) fn new(tag: &'t Tag) -> Self {
        Attributes {
            tag,
            used: [0; 4],
            more_used: Vec::new(),
            taken: 0,
            index: None,
            xsi_type: None,
            xsi_refusal: None,
            declared: None,
        }
    }

    fn is_used(&self, i: usize) -> bool {
        let word = match self.used.get(i / 64) {
            Some(w) => *w,
            None => self.more_used.get(i / 64 - 4).copied().unwrap_or(0),
        };
        word & (1 << (i % 64)) != 0
    }

    /// Marks item `i`, not taken yet, as taken.
    fn mark_used(&mut self, i: usize) {
        self.taken += 1;
        let word = match self.used.get_mut(i / 64) {
            Some(w) => w,
            None => {
                let k = i / 64 - 4;
                if self.more_used.len() <= k {
                    self.more_used.resize(k + 1, 0);
                }
                &mut self.more_used[k]
            }
        };
        *word |= 1 << (i % 64);
    }

    fn take(&mut self, name: &str) -> Option<AttrRef<'t>> {
        let tag = self.tag;
        if self.taken == tag.attributes.len() {
            return None;
        }
        let i = if tag.attributes.len() > INDEXED {
            let index = self.index.get_or_insert_with(|| {
                let names = tag.attributes.iter().map(|a| tag.attr_name(a));
                Box::new(names.enumerate().map(|(i, n)| (n, i)).collect())
            });
            index.get(name).copied().filter(|&i| !self.is_used(i))?
        } else {
            (0..tag.attributes.len())
                .find(|&i| !self.is_used(i) && tag.attr_name(&tag.attributes[i]) == name)?
        };
        self.mark_used(i);
        Some(self.item(i))
    }

    /// The attribute a declaration reads: taken, so that no other declaration or wildcard
    /// takes it; but an `xsi:` attribute (which an XSD 1.1 schema may name in an
    /// attribute use, 3.2.7) only looked at, as its own meaning (the element's type, nil,
    /// schema hints) is still the reader's to give it.
    fn declared_attribute(&mut self, name: &str) -> Option<AttrRef<'t>> {
        if !name.starts_with(XSI_PREFIX) {
            return self.take(name);
        }
        let tag = self.tag;
        (0..tag.attributes.len())
            .find(|&i| tag.attr_name(&tag.attributes[i]) == name)
            .map(|i| self.item(i))
    }

    /// Takes `xsi:type`: a substitution type chose the element's type by it.
    pub(super) fn take_xsi_type(&mut self) {
        self.take(crate::schema::XSI_TYPE);
    }

    /// The element's declared type is the type named `declared` (its expanded name, see
    /// [`crate::complex::Complex::XSI_NAME`]; `None`: anonymous): an `xsi:type` naming
    /// it is taken, as a type always stands in for itself, and one naming another type is
    /// refused saying which type was declared.
    pub fn declared_type(&mut self, declared: Option<&'static str>) {
        self.declared = declared;
        if let (Some(declared), Some(Ok(named))) = (declared, self.xsi_type.as_deref()) {
            if named == declared {
                self.take_xsi_type();
            }
        }
    }

    /// Takes `xsi:nil` (its element's declaration is nillable, and the value was judged).
    pub(crate) fn take_xsi_nil(&mut self) {
        self.take(crate::schema::XSI_NIL);
    }

    fn item(&self, i: usize) -> AttrRef<'t> {
        let (tag, a) = (self.tag, &self.tag.attributes[i]);
        AttrRef {
            name: tag.attr_name(a),
            value: tag.attr_value(a),
            offset: a.offset,
        }
    }

    fn parse<T: SimpleValue>(r: &mut Reader<'_>, attr: AttrRef<'t>) -> Result<T, Invalid> {
        let value = T::parse_in(attr.value, &r.scope(false));
        if let Ok(v) = &value {
            r.note_ids(v, attr.offset, Some(attr.name));
            r.note_identity(v, Some(attr.name));
        }
        value.map_err(|e| {
            r.attribute_facet_error(e, attr.offset, attr.name, attr.value);
            Invalid
        })
    }

    /// A required attribute.
    pub fn required<T: SimpleValue>(
        &mut self,
        r: &mut Reader<'_>,
        name: &str,
    ) -> Result<T, Invalid> {
        match self.declared_attribute(name) {
            Some(attr) => Self::parse(r, attr),
            None => {
                r.report(
                    r.attribute_error(
                        Code::MISSING_ATTRIBUTE,
                        self.tag.offset,
                        name,
                        format!("<{}> needs attribute {name}", self.tag.name()),
                    )
                    .expected(format!("{name}=\"...\"")),
                );
                Err(Invalid)
            }
        }
    }

    /// An optional attribute.
    pub fn optional<T: SimpleValue>(
        &mut self,
        r: &mut Reader<'_>,
        name: &str,
    ) -> Result<Option<T>, Invalid> {
        match self.declared_attribute(name) {
            Some(attr) => Self::parse(r, attr).map(Some),
            None => Ok(None),
        }
    }

    /// An attribute with a fixed value: present or not (as `required` says), it must equal
    /// `fixed` in the type's value space.
    pub fn fixed<T: SimpleValue>(
        &mut self,
        r: &mut Reader<'_>,
        name: &str,
        fixed: &str,
        required: bool,
    ) -> Result<Option<T>, Invalid> {
        let value: Option<T> = if required {
            Some(self.required(r, name)?)
        } else {
            self.optional(r, name)?
        };
        let Some(value) = value else { return Ok(None) };
        let want = T::parse_lexical(fixed)
            .map(|v| v.to_lexical().into_owned())
            .unwrap_or_else(|_| fixed.to_string());
        if value.to_lexical() != want {
            let attr_offset = self
                .tag
                .attributes
                .iter()
                .find(|a| self.tag.attr_name(a) == name)
                .map_or(0, |a| a.offset);
            r.report(
                r.attribute_error(
                    Code::FIXED_VALUE,
                    attr_offset,
                    name,
                    format!("attribute {name} must be \"{fixed}\""),
                )
                .expected(quote(fixed))
                .found(quote(&value.to_lexical())),
            );
            return Err(Invalid);
        }
        Ok(Some(value))
    }

    /// Takes, for an attribute wildcard, every attribute no declaration took whose name
    /// `matches` accepts (given the reader, to resolve the name's prefix), checking each
    /// value with `check`: `Err(None)` reports a strict wildcard's attribute that has no
    /// global declaration, `Err(Some(e))` a value its declaration does not allow. Returns
    /// the names and values taken, in document order. Attributes it does not accept are
    /// left to [`Attributes::finish`].
    pub fn take_matching(
        &mut self,
        r: &mut Reader<'_>,
        matches: impl Fn(&Reader<'_>, &str) -> bool,
        check: impl Fn(&Reader<'_>, &str, &str) -> Result<(), Option<crate::schema::FacetError>>,
    ) -> Result<Vec<(String, String)>, Invalid> {
        let mut taken = Vec::new();
        let mut ok = true;
        for i in 0..self.tag.attributes.len() {
            // xsi:type, xsi:nil, xsi:schemaLocation and xsi:noNamespaceSchemaLocation are
            // never a wildcard's (XSD 1.0, 3.4.4, Element Locally Valid (Complex Type) 3):
            // they are left to their own checks and to `finish`.
            let name = self.item(i).name;
            if self.is_used(i)
                || crate::schema::XSI_HINTS.contains(&name)
                || name == crate::schema::XSI_TYPE
                || name == crate::schema::XSI_NIL
                || !matches(r, name)
            {
                continue;
            }
            self.mark_used(i);
            let attr = self.item(i);
            match check(r, attr.name, attr.value) {
                Ok(()) => taken.push((attr.name.to_string(), attr.value.to_string())),
                Err(None) => {
                    r.report(
                        r.attribute_error(
                            Code::UNKNOWN_ATTRIBUTE,
                            attr.offset,
                            attr.name,
                            format!(
                                "<{}> allows attribute {} only through a strict wildcard, and the schema declares no global attribute of that name",
                                self.tag.name(),
                                attr.name
                            ),
                        )
                        .expected("a globally declared attribute".to_string())
                        .found(format!("{}=\"{}\"", attr.name, excerpt(attr.value))),
                    );
                    ok = false;
                }
                Err(Some(e)) => {
                    r.attribute_facet_error(e, attr.offset, attr.name, attr.value);
                    ok = false;
                }
            }
        }
        if ok {
            Ok(taken)
        } else {
            Err(Invalid)
        }
    }

    /// The offset of the start tag.
    pub fn tag_offset(&self) -> usize {
        self.tag.offset
    }

    /// The prefix attribute `name` (an expanded name) was written with, if any.
    pub fn prefix_of(&self, name: &str) -> Option<&str> {
        self.tag.attribute_prefix(name)
    }

    /// `xsi:type` where no declaration takes it: its value must be a QName (resolved where
    /// the element stands). The element's declared type has no type of the schema derived
    /// from it (the generator gives those a table of what may stand in, and the declared
    /// type itself was taken by [`Attributes::declared_type`]), so whatever type the
    /// attribute names does not stand in for it: refused, as an attribute the type does not
    /// declare (XSD 1.0 Part 1, 3.3.4 cvc-elt.4.3).
    fn xsi_type_not_supported(&self, r: &mut Reader<'_>, attr: AttrRef<'t>) {
        let path = format!("{}/@xsi:type", r.path());
        let found = format!("xsi:type=\"{}\"", excerpt(attr.value));
        let d = match self.xsi_type.as_deref() {
            Some(Err(why)) => Diagnostic::error(
                Code::LEXICAL,
                attr.offset,
                path,
                format!("the value of xsi:type on <{}> is not a QName: {why}", self.tag.name()),
            )
            .expected("a QName naming a type"),
            Some(Ok(name)) => Diagnostic::error(
                Code::UNKNOWN_ATTRIBUTE,
                attr.offset,
                path,
                format!(
                    "xsi:type on <{}> names the type {name}, but it does not stand in for the declared type {}: no type of the schema is derived from it",
                    self.tag.name(),
                    self.declared.unwrap_or("(anonymous)"),
                ),
            )
            .expected(match self.declared {
                Some(declared) => format!("no xsi:type, or xsi:type naming {declared}"),
                None => "no xsi:type".to_string(),
            }),
            None => Diagnostic::error(
                Code::UNKNOWN_ATTRIBUTE,
                attr.offset,
                path,
                format!(
                    "<{}> may not have xsi:type: no type of the schema is derived from its declared type {}",
                    self.tag.name(),
                    self.declared.unwrap_or("(anonymous)"),
                ),
            ),
        };
        r.report(d.found(found));
    }

    /// Reports every attribute no declaration took.
    pub fn finish(mut self, r: &mut Reader<'_>) -> Result<(), Invalid> {
        // An xsi:type the element may not have: the type its other attributes belong to
        // is unknown, so they are not judged (as a refused complex substitution skips
        // the element).
        if let Some(d) = self.xsi_refusal.take() {
            r.report(*d);
            return Err(Invalid);
        }
        let mut ok = true;
        for i in 0..self.tag.attributes.len() {
            if !self.is_used(i) {
                let attr = self.item(i);
                // xsi:schemaLocation and xsi:noNamespaceSchemaLocation are hints for finding
                // a schema, allowed on every element whatever its type says (XSD 1.0 Part 1,
                // 3.4.4, Element Locally Valid (Complex Type) 3; 2.6.3): never unknown.
                if crate::schema::XSI_HINTS.contains(&attr.name) {
                    continue;
                }
                if attr.name == crate::schema::XSI_TYPE {
                    self.xsi_type_not_supported(r, attr);
                    ok = false;
                    continue;
                }
                if attr.name == crate::schema::XSI_NIL {
                    r.xsi_nil_not_nillable(self.tag, attr.offset, attr.value);
                    ok = false;
                    continue;
                }
                r.report(
                    r.attribute_error(
                        Code::UNKNOWN_ATTRIBUTE,
                        attr.offset,
                        attr.name,
                        format!("<{}> has no attribute {}", self.tag.name(), attr.name),
                    )
                    .found(format!(
                        "{}=\"{}\"",
                        attr.name,
                        excerpt(attr.value)
                    )),
                );
                ok = false;
            }
        }
        if ok {
            Ok(())
        } else {
            Err(Invalid)
        }
    }
}
