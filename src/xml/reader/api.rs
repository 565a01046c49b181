//! What generated code calls while it reads an element: looking at the next child
//! (`peek_*`), reading or skipping it, reporting what is missing or left over, simple,
//! empty and mixed content, the attributes of a tag, and the observer that runs format
//! rules on elements as they are read.

use super::attributes::Attributes;
use super::{excerpt, release_large, Node, Reader, Tag};
use crate::diagnostic::{Code, Diagnostic};
use crate::schema::{Element, Invalid, SimpleValue, TextForm};

/// Format rules that look at elements as they are read, so that a document need not be
/// kept whole (memory stays bounded). Both calls return issues, which the reader places at
/// the attribute their path names (or the element) and reports.
pub trait Observer {
    /// A child element starts (its attributes are known, its content not yet).
    fn start(&mut self, tag: &Tag, path: &dyn Fn() -> String) -> Vec<crate::semantics::Issue>;
    /// A child element was read and is valid; `value` is its generated type.
    fn element(
        &mut self,
        tag: &Tag,
        value: &dyn std::any::Any,
        path: &dyn Fn() -> String,
    ) -> Vec<crate::semantics::Issue>;
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
    /// Skips to the next child element of the current element, reporting text that the
    /// content model does not allow; `None` at the current element's end.
    pub fn peek_child(&mut self) -> Option<&str> {
        loop {
            match self.next_node_with(true) {
                Node::Text { blank: true, .. } => continue,
                Node::Text { offset, .. } => {
                    let path = self.path();
                    let name = self.current_name().to_string();
                    let found = excerpt(&self.text);
                    self.report(
                        Diagnostic::error(
                            Code::UnexpectedText,
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
        match &self.peeked {
            Some(Node::Start(tag)) => Some(tag.name()),
            _ => None,
        }
    }

    /// Whether the next child is element `name`.
    pub fn peek_is(&mut self, name: &str) -> bool {
        self.peek_child() == Some(name)
    }

    /// The index in `names` of the next child's name, if it is one of them.
    pub fn peek_index(&mut self, names: &[&str]) -> Option<usize> {
        let next = self.peek_child()?;
        names.iter().position(|n| *n == next)
    }

    /// Reads the child whose start [`Reader::peek_child`] (or [`Reader::next_mixed`]) found.
    pub fn read_child<T: Element + 'static>(&mut self) -> Result<T, Invalid> {
        let Some(Node::Start(tag)) = self.peeked.take() else {
            // Only reachable after a fatal error has replaced the peeked node.
            return Err(Invalid);
        };
        self.enter(tag.name());
        if self.observer.is_some() {
            self.observe(&tag, None);
        }
        let result = T::read_element(self, &tag);
        if let (Some(_), Ok(value)) = (&self.observer, &result) {
            self.observe(&tag, Some(value as &dyn std::any::Any));
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
        self.value_constraint = constraint;
        let result = self.read_child();
        self.value_constraint = None;
        result
    }

    /// The name under which `tag` gives `xsi:nil` (its prefix bound to the XML Schema
    /// instance namespace where the reader stands), if it does.
    pub fn xsi_nil_name(&self, tag: &Tag) -> Option<String> {
        tag.attribute_names()
            .find(|n| {
                n.split_once(':').is_some_and(|(p, local)| {
                    local == "nil" && self.namespace_of(p) == Some(crate::schema::XSI_NAMESPACE)
                })
            })
            .map(str::to_string)
    }

    /// Hands a start tag (`value` None) or a value just read to the observer, and reports
    /// what it finds, placed at the attribute its path names or else at the element.
    fn observe(&mut self, tag: &Tag, value: Option<&dyn std::any::Any>) {
        let Some(mut observer) = self.observer.take() else {
            return;
        };
        let issues = {
            let path = || self.path();
            match value {
                None => observer.start(tag, &path),
                Some(v) => observer.element(tag, v, &path),
            }
        };
        self.observer = Some(observer);
        for issue in issues {
            let offset = issue
                .path
                .rsplit_once("/@")
                .and_then(|(_, attribute)| {
                    tag.attributes
                        .iter()
                        .find(|a| tag.attr_name(a) == attribute)
                })
                .map_or(tag.offset, |a| a.offset);
            self.report(Diagnostic {
                code: issue.code,
                severity: issue.severity,
                message: issue.message,
                offset,
                path: issue.path,
                expected: issue.expected,
                found: issue.found,
                line: 0,
                column: 0,
            });
        }
    }

    /// Watch elements as they are read (format rules that need no whole document).
    pub fn with_observer(mut self, observer: Box<dyn Observer + 'a>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Stops the observer watching (a format whose rules it does not hold).
    pub fn remove_observer(&mut self) {
        self.observer = None;
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
        self.enter(tag.name());
        let path = self.path();
        self.report(
            Diagnostic::error(
                Code::UnexpectedElement,
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

    /// Before a required particle: reports and skips children that neither start it
    /// (`this`) nor anything that may follow it (`later`), so that one stray element gives
    /// one error instead of a missing-element error and a cascade.
    pub fn skip_strays(&mut self, this: &[&str], later: &[&str], expected: &str) {
        loop {
            let stray = match self.peek_child() {
                Some(name) => !this.contains(&name) && !later.contains(&name),
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
                Code::Alternative,
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
                Code::MissingElement,
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
    fn skip_to_end(&mut self) {
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
        if let Some(constraint) = self.value_constraint.take() {
            if text.is_empty() {
                // XSD 1.0, 3.3.4 (Element Locally Valid (Element) 5.1.2): an empty
                // element has the declaration's value.
                text.push_str(constraint.value());
            } else if let crate::complex::ValueConstraint::Fixed(fixed) = constraint {
                let canonical = |t: &str| T::parse_lexical(t).map(|v| v.to_lexical().into_owned());
                if let (Ok(given), Ok(wanted)) = (canonical(text), canonical(fixed)) {
                    if given != wanted {
                        let path = self.path();
                        self.report(
                            Diagnostic::error(
                                Code::FixedValue,
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
        }
        match T::parse_lexical(text) {
            Ok(v) => Ok((v, form)),
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
                            Code::UnexpectedText,
                            offset,
                            path,
                            format!("<{}> must be empty", tag.name()),
                        )
                        .expected(format!("<{0}/> or <{0}></{0}>", tag.name()))
                        .found(found),
                    );
                    ok = false;
                }
                node @ Node::Start(_) => {
                    self.peeked = Some(node);
                    let expected = format!("</{}> (the element is empty)", tag.name());
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
        Attributes::new(tag)
    }
}
