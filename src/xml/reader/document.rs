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
        self.root = Some(Tag::clone(&tag));
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
    fn read_root_tag(&mut self) -> Result<Box<Tag>, Invalid> {
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
                        Code::MALFORMED,
                        offset,
                        "text before the root element".into(),
                    );
                    return Err(Invalid);
                }
                Node::End(_) | Node::Eof => {
                    if !self.fatal {
                        let at = self.position();
                        self.fatal_error(Code::MALFORMED, at, "no root element".into());
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
                Node::Text { offset, .. } => {
                    self.content_after_root(offset);
                    break;
                }
                Node::Start(tag) => {
                    self.content_after_root(tag.offset);
                    break;
                }
                Node::End(_) => break,
            }
        }
    }

    /// Reports character data or an element at `offset`, after the root element.
    fn content_after_root(&mut self, offset: usize) {
        self.fatal_error(
            Code::MALFORMED,
            offset,
            "content after the root element".into(),
        );
    }

    /// Reads the root element with `D`, and the end of the document after it; its values
    /// by the lexical spaces of the edition of XSD `D`'s schema was read as.
    pub fn read_document<D: crate::schema::Document>(&mut self) -> Result<D, Invalid> {
        crate::datatypes::with_edition(D::XSD_1_1, || self.read_document_here::<D>())
    }

    fn read_document_here<D: crate::schema::Document>(&mut self) -> Result<D, Invalid> {
        self.schema_types = D::TYPES;
        self.ids.xsd_1_1 = D::XSD_1_1;
        let tag = self.read_root_tag()?;
        self.root = Some(Tag::clone(&tag));
        if !D::ROOTS.contains(&tag.name()) {
            self.unknown_root::<D>(&tag, None);
            return Err(Invalid);
        }
        self.document_from(tag, |r, tag| r.read_declared_root::<D>(tag))
    }

    /// Validates the document as [`Reader::read_document`] reads it, keeping nothing but
    /// the diagnostics; a root the schema declares no element for is valid when its
    /// `xsi:type` names a type it is valid for ([`crate::schema::Document::TYPES`]; XSD
    /// 1.0 Part 1, 3.3.4 Schema-Validity Assessment (Element) 1.2 and 2).
    pub fn validate_document<D: crate::schema::Document>(&mut self) -> Result<(), Invalid> {
        crate::datatypes::with_edition(D::XSD_1_1, || self.validate_document_here::<D>())
    }

    fn validate_document_here<D: crate::schema::Document>(&mut self) -> Result<(), Invalid> {
        self.schema_types = D::TYPES;
        self.ids.xsd_1_1 = D::XSD_1_1;
        let tag = self.read_root_tag()?;
        self.root = Some(Tag::clone(&tag));
        if D::ROOTS.contains(&tag.name()) {
            return self.document_from(tag, |r, tag| r.read_declared_root::<D>(tag).map(drop));
        }
        if D::TYPES.is_empty() || tag.attribute(crate::schema::XSI_TYPE).is_none() {
            self.unknown_root::<D>(&tag, None);
            return Err(Invalid);
        }
        self.document_from(tag, |r, tag| {
            // Resolved inside the root: its own namespace declarations are in scope.
            let written = tag.attribute(crate::schema::XSI_TYPE).unwrap_or_default();
            let named = r.resolve_qname(written);
            match named
                .as_ref()
                .ok()
                .and_then(|n| D::TYPES.iter().find(|(t, _)| t == n))
            {
                Some((_, validate)) => validate(r, tag),
                None => {
                    let why = match named {
                        Ok(n) => format!(
                            "its xsi:type names {n}, which is no type of the schema a root can have (an abstract type cannot)"
                        ),
                        Err(e) => format!("its xsi:type {written:?} is not a QName in scope: {e}"),
                    };
                    r.unknown_root::<D>(tag, Some(why));
                    r.skip_to_end();
                    Err(Invalid)
                }
            }
        })
    }

    /// Reports a root element `D` declares no element for (`why`: what its `xsi:type`
    /// could not do).
    fn unknown_root<D: crate::schema::Document>(&mut self, tag: &Tag, why: Option<String>) {
        let roots: Vec<String> = D::ROOTS.iter().map(|r| format!("<{r}>")).collect();
        let message = match why {
            Some(why) => format!("unexpected root element <{}>: {why}", tag.name()),
            None => format!("unexpected root element <{}>", tag.name()),
        };
        let d = Diagnostic::error(
            Code::UNKNOWN_ROOT,
            tag.offset,
            format!("/{}", tag.name()),
            message,
        )
        .expected(roots.join(" or "))
        .found(format!("<{}>", tag.name()));
        self.report(d);
    }

    /// The root `tag`, of a declared global element, read by `D` (and shown to the
    /// observer).
    fn read_declared_root<D: crate::schema::Document>(&mut self, tag: &Tag) -> Result<D, Invalid> {
        let result = D::read_root(self, tag);
        if let (Some(_), Ok(value)) = (&self.observer, &result) {
            self.observe(tag, |o, at, found| value.visit_root(o, at, found));
        }
        result
    }

    /// Reads the root element whose start tag is `tag` by `read`, and the end of the
    /// document after it.
    fn document_from<R>(
        &mut self,
        tag: Box<Tag>,
        read: impl FnOnce(&mut Self, &Tag) -> Result<R, Invalid>,
    ) -> Result<R, Invalid> {
        self.enter(&tag);
        if self.observer.is_some() {
            self.observe(&tag, |o, at, found| o.start(at, found));
            self.observe_starts = self.observer.as_ref().is_some_and(|o| o.starts());
        }
        let result = read(self, &tag);
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

#[cfg(test)]
mod tests {
    use crate::xml::Reader;

    /// A schema with the global element `<a>` of xs:int, whose undeclared roots may name
    /// xs:int or xs:anyType by xsi:type.
    #[derive(Debug)]
    enum Doc {
        A(#[allow(dead_code)] i32),
    }
    crate::document!(Doc, ["a" A], types [
        "{http://www.w3.org/2001/XMLSchema}int" i32,
        "{http://www.w3.org/2001/XMLSchema}anyType" crate::any::AnyType,
    ]);

    const NS: &str = r#"xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#;

    /// The codes and messages of validating `text` as `Doc`, and whether it was valid.
    fn validate(text: &str) -> (bool, Vec<(String, String)>) {
        let mut r = Reader::new(text).without_retaining();
        let ok = r.validate_document::<Doc>().is_ok();
        let found = r
            .into_diagnostics()
            .into_iter()
            .map(|d| (d.code.as_str().to_string(), d.message))
            .collect();
        (ok, found)
    }

    /// The same schema read as XSD 1.0 and as XSD 1.1: a root `<y>` of xs:gYear, `<f>` of
    /// xs:float.
    #[derive(Debug, PartialEq)]
    enum Years {
        Y(crate::datatypes::GYear),
        F(crate::datatypes::Float),
    }
    crate::document!(Years, ["y" Y, "f" F]);
    #[derive(Debug, PartialEq)]
    enum Years11 {
        Y(crate::datatypes::GYear),
        F(crate::datatypes::Float),
    }
    crate::document!(Years11, ["y" Y, "f" F], xsd_version "1.1");

    #[test]
    fn values_are_read_by_the_lexical_spaces_of_the_schemas_version() {
        let year_0 = "<y>0000</y>";
        assert!(Reader::new(year_0).read_document::<Years>().is_err());
        let year: crate::datatypes::GYear =
            crate::datatypes::with_edition(true, || "0000".parse().unwrap());
        assert_eq!(year.to_string(), "0000");
        assert_eq!(
            Reader::new(year_0).read_document::<Years11>().ok(),
            Some(Years11::Y(year))
        );
        assert!(Reader::new("<f>+INF</f>")
            .validate_document::<Years>()
            .is_err());
        assert!(Reader::new("<f>+INF</f>")
            .validate_document::<Years11>()
            .is_ok());
        // Only for the span of the read: values parsed after it are XSD 1.0's again.
        assert!("0000".parse::<crate::datatypes::GYear>().is_err());
    }

    #[test]
    fn an_undeclared_root_is_validated_by_the_type_its_xsi_type_names() {
        let doc = |attrs: &str, content: &str| format!("<x {NS} {attrs}>{content}</x>");
        assert_eq!(
            validate(&doc(r#"xsi:type="xs:int""#, " 7 ")),
            (true, vec![])
        );
        // Resolved in the root's own scope: its default namespace for an unprefixed name.
        assert_eq!(
            validate(
                r#"<x xmlns="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="int">7</x>"#
            ),
            (true, vec![])
        );
        assert_eq!(
            validate(&doc(r#"xsi:type="xs:anyType" other="1""#, "<y/>t")),
            (true, vec![])
        );
        // The type judges the content and the attributes.
        let (ok, found) = validate(&doc(r#"xsi:type="xs:int""#, "seven"));
        assert!(!ok);
        assert_eq!(found[0].0, "E0208", "{found:?}");
        let (ok, found) = validate(&doc(r#"xsi:type="xs:int" other="1""#, "7"));
        assert!(!ok);
        assert_eq!(found[0].0, "E0204", "{found:?}");
        // A type the root may not name, or no type: the root is unknown, and says why.
        let (ok, found) = validate(&doc(r#"xsi:type="xs:date""#, "2020-01-01"));
        assert!(!ok);
        assert_eq!(found[0].0, "E0201");
        assert!(
            found[0]
                .1
                .contains("names {http://www.w3.org/2001/XMLSchema}date"),
            "{found:?}"
        );
        let (ok, found) = validate(&doc(r#"xsi:type="q:int""#, "7"));
        assert!(!ok);
        assert!(found[0].1.contains("not a QName in scope"), "{found:?}");
        let (ok, found) = validate(&format!("<x {NS}>7</x>"));
        assert!(!ok);
        assert_eq!(
            found,
            vec![("E0201".into(), "unexpected root element <x>".into())]
        );
        // A declared root is read by its declaration as ever.
        assert_eq!(validate("<a>7</a>"), (true, vec![]));
        assert!(!validate("<a>x</a>").0);
        // Reading into the document type, which holds declared roots only, refuses it.
        let typed = doc(r#"xsi:type="xs:int""#, "7");
        let mut r = Reader::new(&typed);
        assert!(r.read_document::<Doc>().is_err());
        assert_eq!(r.into_diagnostics()[0].code.as_str(), "E0201");
    }
}
