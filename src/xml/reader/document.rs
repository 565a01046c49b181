//! Reading a whole document: up to the root element (only white space, comments and
//! processing instructions may come first), the root with the document type's reader or
//! for well-formedness alone, and what may follow it.

use super::{Node, Reader, Tag};
use crate::diagnostic::{Code, Diagnostic};
use crate::schema::Invalid;

impl Reader<'_> {
    /// Reads the document's well-formedness alone (XML 1.0 and Namespaces 1.0, with the
    /// reader's limits and its refusal of DTDs): no schema, no format. The findings are
    /// the diagnostics, every one an E01xx.
    pub fn read_well_formed(&mut self) -> Result<(), Invalid> {
        let tag = self.read_root_tag()?;
        self.root = Some(tag.clone());
        self.recycle(tag);
        let mut depth = 1usize;
        while depth > 0 {
            match self.next_node() {
                Node::Start(tag) => {
                    depth += 1;
                    self.recycle(tag);
                }
                Node::End(_) => depth -= 1,
                Node::Text { .. } => {}
                Node::Eof => return Err(Invalid),
            }
        }
        self.read_epilog();
        if self.fatal {
            return Err(Invalid);
        }
        Ok(())
    }

    /// Reads up to the root element's start tag: only white space, comments and processing
    /// instructions may come first.
    fn read_root_tag(&mut self) -> Result<Tag, Invalid> {
        loop {
            match self.next_node() {
                Node::Start(tag) => return Ok(tag),
                // White space in a CDATA section is character data all the same.
                Node::Text {
                    blank: true,
                    cdata: false,
                    ..
                } => continue,
                Node::Text { offset, .. } => {
                    self.fatal_error(
                        Code::Malformed,
                        offset,
                        "text before the root element".into(),
                    );
                    return Err(Invalid);
                }
                Node::End(_) | Node::Eof => {
                    if !self.fatal {
                        let at = self.position();
                        self.fatal_error(Code::Malformed, at, "no root element".into());
                    }
                    return Err(Invalid);
                }
            }
        }
    }

    /// After the root: only white space, comments and processing instructions.
    fn read_epilog(&mut self) {
        loop {
            match self.next_node() {
                Node::Eof => break,
                Node::Text {
                    blank: true,
                    cdata: false,
                    ..
                } => continue,
                Node::Text { offset, .. } | Node::Start(Tag { offset, .. }) => {
                    self.fatal_error(
                        Code::Malformed,
                        offset,
                        "content after the root element".into(),
                    );
                    break;
                }
                Node::End(_) => break,
            }
        }
    }

    /// Reads the root element with `D`, and the end of the document after it.
    pub fn read_document<D: crate::schema::Document>(&mut self) -> Result<D, Invalid> {
        let tag = self.read_root_tag()?;
        self.root = Some(tag.clone());
        if !D::ROOTS.contains(&tag.name()) {
            let roots: Vec<String> = D::ROOTS.iter().map(|r| format!("<{r}>")).collect();
            let d = Diagnostic::error(
                Code::UnknownRoot,
                tag.offset,
                format!("/{}", tag.name()),
                format!("unexpected root element <{}>", tag.name()),
            )
            .expected(roots.join(" or "))
            .found(format!("<{}>", tag.name()));
            self.report(d);
            return Err(Invalid);
        }
        self.enter(&tag);
        if self.observer.is_some() {
            self.observe(&tag, |o, at, found| o.start(at, found));
            self.observe_starts = self.observer.as_ref().is_some_and(|o| o.starts());
        }
        let result = D::read_root(self, &tag);
        if let (Some(_), Ok(value)) = (&self.observer, &result) {
            self.observe(&tag, |o, at, found| value.visit_root(o, at, found));
        }
        self.leave();
        self.recycle(tag);
        self.read_epilog();
        for d in self.ids.dangling() {
            self.report(d);
        }
        if self.fatal {
            return Err(Invalid);
        }
        result
    }
}
