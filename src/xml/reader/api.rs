//! What generated code calls while it reads an element: looking at the next child
//! (`peek_*`), reading or skipping it, reporting what is missing or left over, simple,
//! empty and mixed content, the attributes of a tag, and the observer that runs format
//! rules on elements as they are read.

use super::attributes::Attributes;
use super::{excerpt, release_large, Node, Reader, Tag};
use crate::diagnostic::{Code, Diagnostic};
use crate::schema::{Element, Invalid, SimpleValue, TextForm};
use crate::type_substitution::SimpleChoice;

/// Where an element being visited stands in the source: its start tag (byte offsets from
/// the start of the document, as every [`Diagnostic`] carries) and its element path.
pub struct At<'t> {
    tag: &'t Tag,
    /// The element's own level: its children seen.
    level: &'t super::path::Level,
    /// The text read, when it is read in place (offsets are into it).
    source: Option<&'t str>,
    path: &'t dyn Fn() -> String,
}

impl<'t> At<'t> {
    pub(super) fn new(
        tag: &'t Tag,
        level: &'t super::path::Level,
        source: Option<&'t str>,
        path: &'t dyn Fn() -> String,
    ) -> Self {
        At {
            tag,
            level,
            source,
            path,
        }
    }

    /// Whether the text read is at hand (a document read in place), so that
    /// [`At::attribute_of`] can look back at an earlier start tag.
    pub fn has_source(&self) -> bool {
        self.source.is_some()
    }

    /// The byte offset of attribute `name` of the start tag at `start_tag`, read earlier,
    /// found in the text read when it is at hand (`None` otherwise, or if the tag has no
    /// such attribute). A rule that reports about few of many elements notes only where
    /// each starts, and looks an attribute up when it has something to report there.
    pub fn attribute_of(&self, start_tag: usize, name: &str) -> Option<usize> {
        super::tag::attribute_in(self.source?, start_tag, name)
    }

    /// The byte offset of the start tag of the element's first child named `name`, once
    /// it has been read (an element is visited after its content: a child of a simple
    /// type has no visitor method of its own, and this is where it stands).
    pub fn child(&self, name: &str) -> Option<usize> {
        self.level.child(name)
    }

    /// The element's name.
    pub fn name(&self) -> &str {
        self.tag.name()
    }

    /// The byte offset of the start tag's `<`.
    pub fn offset(&self) -> usize {
        self.tag.offset
    }

    /// The byte offset of attribute `name` of the start tag (of its name); the start tag's
    /// offset if the attribute is absent.
    pub fn attribute(&self, name: &str) -> usize {
        self.tag
            .attributes
            .iter()
            .find(|a| self.tag.attr_name(a) == name)
            .map_or(self.tag.offset, |a| a.offset)
    }

    /// The attributes of the start tag, in document order: each name (as bytes, to be
    /// matched cheaply: this can run for every element of a large document) and offset.
    #[inline]
    pub fn attributes(&self) -> impl Iterator<Item = (&[u8], usize)> {
        self.tag
            .attributes
            .iter()
            .map(|a| (self.tag.attr_name_bytes(a), a.offset))
    }

    /// The value of attribute `name` as written (for a start, before the schema has read
    /// it; a visited element's attributes are its typed fields).
    pub fn attribute_value(&self, name: &str) -> Option<&str> {
        self.tag.attribute(name)
    }

    /// The element path, in the reader's form (`/cif/game[2]/moves/marker[3]`). Built when
    /// asked: only for what is reported.
    pub fn path(&self) -> String {
        (self.path)()
    }

    /// The path of attribute `name` of the element (`.../marker[3]/@at`).
    pub fn attribute_path(&self, name: &str) -> String {
        let mut path = self.path();
        path.push_str("/@");
        path.push_str(name);
        path
    }
}

/// Format rules that see elements as they are read, typed, in document order, so that a
/// document need not be kept whole (memory stays bounded). The reader calls [`start`] at
/// each start tag and, once an element is read and valid, hands it to [`element`] if its
/// type's schema has a visitor (`schemas/bindings.txt`: `cif.xsd @visitor`). Findings go
/// into `found`, anchored at byte offsets ([`At`]); the reader reports them with its own
/// diagnostics.
///
/// The reader names no schema: [`element`] gets the element as a value of its generated
/// type (`&dyn Any`), and the schema's generated `visit` function hands it to the method of
/// that type on the schema's `Visitor` (`cif::visit(&mut rules, element, at, found)`).
///
/// [`start`]: Observer::start
/// [`element`]: Observer::element
pub trait Observer {
    /// An element starts: its attributes are known (as written), its content not yet.
    fn start(&mut self, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        let _ = (at, found);
    }
    /// Whether the start tags below the root are to be handed to [`start`] (asked once,
    /// after the root's: a format whose rules need none spares a call per element).
    ///
    /// [`start`]: Observer::start
    fn starts(&self) -> bool {
        true
    }
    /// An element of a visited schema, just read and valid, at `at`: a value of its
    /// generated type, for the schema's generated `visit` function to dispatch.
    fn element(&mut self, element: Visited<'_>, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        let _ = (element, at, found);
    }
}

/// An element handed to an [`Observer`]: its value, of a generated type, and that type's
/// place among its schema's visited types (which the schema's generated `visit` function
/// dispatches on, the value's downcast checking it).
#[derive(Clone, Copy)]
pub struct Visited<'e> {
    index: usize,
    value: &'e dyn std::any::Any,
}

impl<'e> Visited<'e> {
    /// The element `value`, of the visited type at `index` of its schema.
    pub fn new(index: usize, value: &'e dyn std::any::Any) -> Visited<'e> {
        Visited { index, value }
    }

    /// Its type's place among its schema's visited types.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The element.
    pub fn value(&self) -> &'e dyn std::any::Any {
        self.value
    }
}

impl std::fmt::Debug for Visited<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Visited")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

/// One shape of an element typed by XSD 1.1 alternatives: the attributes it declares.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The shape's type name, e.g. `SquareMarker`.
    pub name: &'static str,
    /// Its required attributes.
    pub required: &'static [&'static str],
    /// Its optional attributes.
    pub optional: &'static [&'static str],
}

impl Shape {
    /// What `tag` lacks (required attributes absent) and has too many (attributes the
    /// shape does not declare) for this shape.
    fn misfit<'t>(&self, tag: &'t Tag) -> (Vec<&'static str>, Vec<&'t str>) {
        let missing = self
            .required
            .iter()
            .copied()
            .filter(|a| tag.attribute(a).is_none())
            .collect();
        let extra = tag
            .attribute_names()
            .filter(|n| !self.required.contains(n) && !self.optional.contains(n))
            .collect();
        (missing, extra)
    }
}

/// An item of mixed content.
#[derive(Debug, Clone)]
pub enum MixedItem {
    /// Character data (line ends normalised, references resolved).
    Text(String),
    /// A CDATA section's content.
    CData(String),
    /// A child element's start; read it with [`Reader::read_child`] or skip it.
    /// (Which element: ask [`Reader::peek_index`]; the name is not copied out.)
    Child,
}

impl<'a> Reader<'a> {
    /// Whether the current element's children are known to have ended: a look-ahead
    /// found its end (or the input's), so no later particle can match. Reads nothing.
    #[inline]
    pub(crate) fn children_ended(&self) -> bool {
        matches!(self.peeked, Some(Node::End(_) | Node::Eof))
    }

    /// Skips to the next child element of the current element, reporting text that the
    /// content model does not allow; `None` at the current element's end.
    pub fn peek_child(&mut self) -> Option<&str> {
        // A child already peeked (a sequence asks once per particle): no reading.
        let peeked = match &self.peeked {
            Some(Node::Start(_)) => Some(true),
            Some(Node::End(_) | Node::Eof) => Some(false),
            _ => None,
        };
        match peeked {
            Some(true) => return self.peeked_name(),
            Some(false) => return None,
            None => {}
        }
        // Inside mixed content read over an element particle, text is the content's
        // own, white space included: it is gathered, not reported (see `interleaved`).
        let gathering = self.gathers_text();
        loop {
            match self.next_node_with(!gathering) {
                Node::Text { cdata, .. } if gathering => self.gather_text(cdata),
                Node::Text { blank: true, .. } => continue,
                Node::Text { offset, .. } => {
                    let path = self.path();
                    let name = self.current_name().to_string();
                    let found = excerpt(&self.text);
                    self.report(
                        Diagnostic::error(
                            Code::UNEXPECTED_TEXT,
                            offset,
                            path,
                            format!("text is not allowed in <{name}>, only elements"),
                        )
                        .found(found),
                    );
                }
                node @ Node::Start(_) => {
                    self.peeked = Some(node);
                    break;
                }
                node @ (Node::End(_) | Node::Eof) => {
                    self.peeked = Some(node);
                    return None;
                }
            }
        }
        self.peeked_name()
    }

    /// The name of the start tag peeked, if one is.
    fn peeked_name(&self) -> Option<&str> {
        match &self.peeked {
            Some(Node::Start(tag)) => Some(tag.name()),
            _ => None,
        }
    }

    /// Whether the next child is element `name`.
    pub fn peek_is(&mut self, name: &str) -> bool {
        // `name` may be an element wildcard's pattern (crate::wildcards).
        self.peek_child()
            .is_some_and(|n| crate::wildcards::name_matches(name, n))
    }

    /// The index in `names` of the next child's name, if it is one of them.
    #[inline]
    pub fn peek_index(&mut self, names: &[&str]) -> Option<usize> {
        let next = self.peek_child()?;
        names
            .iter()
            .position(|n| crate::wildcards::name_matches(n, next))
    }

    /// Reads the child whose start [`Reader::peek_child`] (or [`Reader::next_mixed`]) found.
    pub fn read_child<T: Element>(&mut self) -> Result<T, Invalid> {
        let Some(Node::Start(tag)) = self.peeked.take() else {
            // Only reachable after a fatal error has replaced the peeked node.
            return Err(Invalid);
        };
        if T::SKIPPED {
            self.identity.skip_next();
        }
        self.enter(&tag);
        if !T::IDENTITY.is_empty() {
            self.activate_identity(T::IDENTITY, &tag);
        }
        if self.observe_starts {
            self.observe(&tag, |o, at, found| o.start(at, found));
        }
        let result = T::read_element(self, &tag);
        if let (true, Some(_), Ok(value)) = (T::VISITED, &self.observer, &result) {
            self.observe(&tag, |o, at, found| value.visit(o, at, found));
        }
        self.leave();
        self.recycle(tag);
        result
    }

    /// Reads the peeked child as [`Reader::read_child`] does, with the element
    /// declaration's value constraint applied to its simple content: empty content has the
    /// default (or fixed) value; other content must equal the fixed value.
    pub fn read_constrained<T: Element + 'static>(
        &mut self,
        constraint: Option<crate::complex::ValueConstraint>,
    ) -> Result<T, Invalid> {
        self.read_declared(constraint, None)
    }

    /// Reads the peeked child as [`Reader::read_constrained`] does; `types`, for an element
    /// whose declared type is simple, says what its `xsi:type` may name (XSD 1.0, 3.3.4
    /// cvc-elt.4): the content is then validated against the named type and held as the
    /// declared one (see [`crate::type_substitution::SimpleTable`]).
    pub fn read_declared<T: Element + 'static>(
        &mut self,
        constraint: Option<crate::complex::ValueConstraint>,
        types: Option<&'static crate::type_substitution::SimpleTable>,
    ) -> Result<T, Invalid> {
        self.with_declaration(constraint, types, |r| r.read_child())
    }

    /// The namespace `prefix` is bound to where the reader stands (the declarations of the
    /// element being read included), if it is bound: open content and wildcards match
    /// elements and attributes by namespace, never by prefix.
    pub fn namespace_of_prefix(&self, prefix: &str) -> Option<&str> {
        self.namespace_of(prefix)
    }

    /// The name under which `tag` gives `xsi:nil` (its prefix bound to the XML Schema
    /// instance namespace where the reader stands), if it does.
    pub fn xsi_nil_name(&self, tag: &Tag) -> Option<String> {
        // The reader gives prefixed attributes their expanded names: xsi:nil is found by
        // namespace, whatever its prefix.
        let name = crate::schema::XSI_NIL;
        tag.attribute(name).map(|_| name.to_string())
    }

    /// Hands the element whose start tag is `tag` (the reader stands in it) to the
    /// observer through `call`, and reports what it finds.
    pub(super) fn observe(
        &mut self,
        tag: &Tag,
        call: impl FnOnce(&mut dyn Observer, &At<'_>, &mut Vec<Diagnostic>),
    ) {
        let Some(observer) = self.observer.as_deref_mut() else {
            return;
        };
        let levels = &self.levels[..self.open];
        let path = || super::path::path_of(levels);
        let at = At::new(tag, &levels[levels.len() - 1], self.source, &path);
        call(observer, &at, &mut self.found);
        if !self.found.is_empty() {
            let mut found = std::mem::take(&mut self.found);
            for d in found.drain(..) {
                self.report(d);
            }
            self.found = found;
        }
    }

    /// Watch elements as they are read, typed, by format rules (see [`Observer`]); set
    /// before reading, for the whole document.
    pub fn with_observer(mut self, observer: Box<dyn Observer + 'a>) -> Self {
        self.observer = Some(observer);
        self.observe_starts = true;
        self
    }

    /// Whether an observer watches.
    pub fn has_observer(&self) -> bool {
        self.observer.is_some()
    }

    /// Reports the peeked child as not allowed here and skips it with its content.
    pub fn skip_child(&mut self, expected: &str) {
        let Some(Node::Start(tag)) = self.peeked.take() else {
            return;
        };
        self.enter(&tag);
        let path = self.path();
        self.report(
            Diagnostic::error(
                Code::UNEXPECTED_ELEMENT,
                tag.offset,
                path,
                format!("unexpected element <{}>", tag.name()),
            )
            .expected(expected.to_string())
            .found(format!("<{}>", tag.name())),
        );
        self.skip_to_end();
        self.leave();
        self.recycle(tag);
    }

    /// Reports the element whose start tag is `tag`, which the reader has entered, as not
    /// valid here (`message`, with `expected`) and skips its content and end tag: what an
    /// element type does with an element it cannot read at all.
    pub fn reject_element(&mut self, tag: &Tag, message: String, expected: String) {
        let path = self.path();
        self.report(
            Diagnostic::error(Code::UNEXPECTED_ELEMENT, tag.offset, path, message)
                .expected(expected)
                .found(format!("<{}>", tag.name())),
        );
        self.skip_to_end();
    }

    /// Before a required particle: reports and skips children that neither start it
    /// (`this`) nor anything that may follow it (`later`), so that one stray element gives
    /// one error instead of a missing-element error and a cascade.
    pub fn skip_strays(&mut self, this: &[&str], later: &[&str], expected: &str) {
        loop {
            let stray = match self.peek_child() {
                Some(name) => {
                    let matches = |p: &&str| crate::wildcards::name_matches(p, name);
                    !this.iter().any(matches) && !later.iter().any(matches)
                }
                None => false,
            };
            if !stray {
                return;
            }
            self.skip_child(expected);
        }
    }

    /// After an element typed by alternatives failed the shape its attributes chose (index
    /// `chosen` in `shapes`): if its
    /// attributes do not fit that shape, say which shape they come closest to and what is
    /// missing or not allowed there (the specific errors are already reported).
    pub fn shape_mismatch(&mut self, tag: &Tag, shapes: &[Shape], chosen: usize) {
        if self.fatal || shapes.is_empty() {
            return;
        }
        let fits: Vec<(usize, Vec<&str>, Vec<&str>)> = shapes
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (missing, extra) = s.misfit(tag);
                (i, missing, extra)
            })
            .collect();
        // An attribute-perfect fit failed on values or content: those errors say it all.
        if fits.iter().any(|(_, m, e)| m.is_empty() && e.is_empty()) {
            return;
        }
        let (best, missing, extra) = fits
            .iter()
            // On a tie, the shape the attributes chose reads most naturally.
            .min_by_key(|(i, m, e)| (m.len() + e.len(), *i != chosen, *i))
            .expect("shapes is not empty");
        let mut lacks = Vec::new();
        if !missing.is_empty() {
            lacks.push(format!("missing {}", missing.join(", ")));
        }
        if !extra.is_empty() {
            lacks.push(format!("not allowed: {}", extra.join(", ")));
        }
        let names: Vec<&str> = shapes.iter().map(|s| s.name).collect();
        let path = self.path();
        self.report(
            Diagnostic::error(
                Code::ALTERNATIVE,
                tag.offset,
                path,
                format!(
                    "<{}> fits none of its shapes ({}); it comes closest to {} ({})",
                    tag.name(),
                    names.join(", "),
                    shapes[*best].name,
                    lacks.join("; ")
                ),
            )
            .expected(format!(
                "the attributes of one shape, e.g. {}",
                shapes[*best].name
            ))
            .found(tag.attribute_names().collect::<Vec<_>>().join(", ")),
        );
    }

    /// Reports that a required child is missing where the reader stands.
    pub fn missing_child(&mut self, expected: &str) {
        let (found, offset) = match &self.peeked {
            Some(Node::Start(tag)) => (format!("<{}>", tag.name()), tag.offset),
            Some(Node::End(offset)) => (format!("</{}>", self.current_name()), *offset),
            _ => (format!("</{}>", self.current_name()), self.position()),
        };
        let path = self.path();
        self.report(
            Diagnostic::error(
                Code::MISSING_ELEMENT,
                offset,
                path,
                format!("missing element {expected}"),
            )
            .expected(expected.to_string())
            .found(found),
        );
    }

    /// Ends element-only content: reports and skips every remaining child, then consumes
    /// the end tag.
    pub fn end_children(&mut self) {
        while self.peek_child().is_some() {
            let expected = format!("</{}>", self.current_name());
            self.skip_child(&expected);
        }
        self.consume_end();
    }

    fn consume_end(&mut self) {
        // Callers peek first: the end tag, if it is next, is the peeked node.
        if let Some(Node::End(_)) = self.peeked {
            self.peeked = None;
        }
    }

    /// Skips everything up to and including the current element's end tag.
    pub(super) fn skip_to_end(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.next_node() {
                Node::Start(tag) => {
                    depth += 1;
                    self.recycle(tag);
                }
                Node::End(_) if depth == 0 => return,
                Node::End(_) => depth -= 1,
                Node::Eof => return,
                Node::Text { .. } => {}
            }
        }
    }

    /// Reads an element that has no attributes and simple content of type `T`.
    pub fn simple_element<T: SimpleValue>(&mut self, tag: &Tag) -> Result<T, Invalid> {
        let attributes = self.attributes(tag);
        let attributes = attributes.finish(self);
        let value = self.simple_content::<T>(tag).map(|(v, _)| v);
        attributes?;
        value
    }

    /// Reads simple content of type `T` up to the end tag; child elements are reported.
    pub fn simple_content<T: SimpleValue>(&mut self, tag: &Tag) -> Result<(T, TextForm), Invalid> {
        // The reader's own buffer, taken for the while (reused from element to element).
        let mut text = std::mem::take(&mut self.content);
        release_large(&mut text);
        text.clear();
        let result = self.gather_simple_content::<T>(tag, &mut text);
        self.content = text;
        result
    }

    fn gather_simple_content<T: SimpleValue>(
        &mut self,
        tag: &Tag,
        text: &mut String,
    ) -> Result<(T, TextForm), Invalid> {
        // Taken now: the type xsi:type named is this element's, no other's.
        let named = self.xsi_named.take();
        let mut form = TextForm::Text;
        let mut ok = true;
        loop {
            match self.next_node() {
                Node::Text { cdata, .. } => {
                    if cdata {
                        form = TextForm::CData;
                    }
                    text.push_str(&self.text);
                }
                node @ Node::Start(_) => {
                    self.peeked = Some(node);
                    let expected = format!("text content, then </{}>", tag.name());
                    self.skip_child(&expected);
                    ok = false;
                }
                Node::End(_) => break,
                Node::Eof => return Err(Invalid),
            }
        }
        if !ok {
            return Err(Invalid);
        }
        // Taken here: the constraint is the element's whose content this is.
        let constraint = self.value_constraint.take();
        if let (Some(c), true) = (&constraint, text.is_empty()) {
            // XSD 1.0, 3.3.4 (Element Locally Valid (Element) 5.1.2): an empty element
            // has the declaration's value.
            text.push_str(c.value());
        }
        // The named type's value, for identity constraints.
        let mut named_key = None;
        if let Some((name, canonical)) = named {
            // xsi:type named a simple type derived from the declared one (3.3.4 cvc-elt.4.3,
            // 3.14.6): the content must be valid for it (its white space, lexical space and
            // facets). Its value, in canonical form, is a value of the declared type too
            // (restriction only narrows the value space; a union member's value is the
            // union's), which holds it.
            match canonical(text, &self.scope(true)) {
                Ok(value) => {
                    *text = value.canonical;
                    named_key = Some(value.key);
                }
                Err(e) => {
                    let path = self.path();
                    self.facet_error(
                        e,
                        tag.offset,
                        path,
                        &format!("the content of <{}> (of the xsi:type {name})", tag.name()),
                        text,
                    );
                    return Err(Invalid);
                }
            }
        }
        // An empty element has the fixed value already (above).
        if let Some(crate::complex::ValueConstraint::Fixed(fixed)) = constraint {
            let canonical = |t: &str| T::parse_lexical(t).map(|v| v.to_lexical().into_owned());
            if let (Ok(given), Ok(wanted)) = (canonical(text), canonical(fixed)) {
                if given != wanted {
                    let path = self.path();
                    self.report(
                        Diagnostic::error(
                            Code::FIXED_VALUE,
                            tag.offset,
                            path,
                            format!("the content of <{}> must be \"{fixed}\"", tag.name()),
                        )
                        .expected(format!("\"{fixed}\""))
                        .found(format!("\"{}\"", excerpt(text))),
                    );
                    return Err(Invalid);
                }
            }
        }
        match T::parse_in(text, &self.scope(true)) {
            Ok(v) => {
                self.note_ids(&v, tag.offset, None);
                match named_key {
                    Some(key) => self.note_identity_key(key, None),
                    None => self.note_identity(&v, None),
                }
                Ok((v, form))
            }
            Err(e) => {
                let path = self.path();
                self.facet_error(
                    e,
                    tag.offset,
                    path,
                    &format!("the content of <{}>", tag.name()),
                    text,
                );
                Err(Invalid)
            }
        }
    }

    /// Reads empty content up to the end tag. XSD 1.0 (Element Locally Valid (Complex
    /// Type) 1.1): an empty content type allows no character children at all, not even
    /// white space (element-only content does allow white space).
    pub fn empty_content(&mut self, tag: &Tag) -> Result<(), Invalid> {
        let mut ok = true;
        loop {
            match self.next_node() {
                // An empty CDATA section adds no characters (the infoset has none).
                Node::Text { .. } if self.text.is_empty() => {}
                Node::Text { offset, .. } => {
                    let path = self.path();
                    let found = format!("\"{}\"", excerpt(&self.text));
                    self.report(
                        Diagnostic::error(
                            Code::UNEXPECTED_TEXT,
                            offset,
                            path,
                            format!("<{}> must be empty{}", tag.name(), self.nil_reason(tag)),
                        )
                        .expected(format!("<{0}/> or <{0}></{0}>", tag.name()))
                        .found(found),
                    );
                    ok = false;
                }
                node @ Node::Start(_) => {
                    self.peeked = Some(node);
                    let expected = format!(
                        "</{}> (the element is empty{})",
                        tag.name(),
                        self.nil_reason(tag)
                    );
                    self.skip_child(&expected);
                    ok = false;
                }
                Node::End(_) => break,
                Node::Eof => return Err(Invalid),
            }
        }
        if ok {
            Ok(())
        } else {
            Err(Invalid)
        }
    }

    /// The next item of mixed content; `None` once the end tag is consumed.
    #[inline]
    pub fn next_mixed(&mut self) -> Option<MixedItem> {
        match self.next_node() {
            Node::Text { cdata: false, .. } => Some(MixedItem::Text(self.text.clone())),
            Node::Text { cdata: true, .. } => Some(MixedItem::CData(self.text.clone())),
            Node::Start(tag) => {
                self.peeked = Some(Node::Start(tag));
                Some(MixedItem::Child)
            }
            Node::End(_) | Node::Eof => None,
        }
    }

    /// The attributes of `tag`, to be taken one by one by the type's declarations.
    pub fn attributes<'t>(&mut self, tag: &'t Tag) -> Attributes<'t> {
        let mut attributes = Attributes::new(tag);
        // A substitution type chose the element's type by its xsi:type: taken.
        if self.substituted == Some(tag.offset) {
            attributes.take_xsi_type();
        }
        // xsi:type is a QName: resolved now, while the element's namespace scope is open
        // (it is closed by the time unknown attributes are reported).
        if tag.prefixed {
            attributes.xsi_type = tag
                .attribute(crate::schema::XSI_TYPE)
                .map(|v| Box::new(self.resolve_qname(v)));
        }
        if self.take_xsi_nil_allowed(tag) {
            attributes.take_xsi_nil();
        }
        // The element's declared type is simple: its xsi:type is judged here, where its
        // namespace scope is open.
        if let Some(table) = self.xsi_simple.take() {
            match crate::type_substitution::choose_simple(self, tag, table) {
                SimpleChoice::Declared => {}
                SimpleChoice::Same => attributes.take_xsi_type(),
                SimpleChoice::Named(name, canonical) => {
                    attributes.take_xsi_type();
                    self.xsi_named = Some((name, canonical));
                }
                SimpleChoice::Refused(d) => attributes.xsi_refusal = Some(Box::new(d)),
            }
        }
        attributes
    }
}
