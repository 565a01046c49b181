//! General mixed content (XSD 1.0, 3.4.2 `mixed="true"` over any particle): the element
//! children are held, read and written exactly as element-only content of the same particle
//! is (its fields, its groups, its occurrence checks), and the character data between them
//! is held apart, each run at its position among the element children ([`MixedText`]).
//!
//! Reading: the reader gathers every run of text and CDATA directly inside the element
//! while the content model reads the children (see [`crate::xml::Reader::begin_interleaved`]);
//! the content model never sees the text, so the children are judged by the particle alone.
//! Writing: the writer puts each run back before the child element it preceded
//! ([`crate::xml::Writer::interleave`]). A document comes back with its text, its CDATA
//! sections and their places; comments and processing instructions are not kept by the
//! reader (anywhere), so they are not kept here either.

use std::fmt;

use crate::text_form::TextForm;

/// One run of character data in mixed content, at its place among the element children.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextRun {
    /// How many element children come before it (0: before the first; the number of
    /// children: after the last).
    pub at: usize,
    /// The characters (line ends normalised, references resolved).
    pub text: String,
    /// Whether it was a CDATA section (kept for rewriting).
    pub form: TextForm,
}

/// The character data of mixed content, in document order: runs whose places never go
/// back (checked as runs are added).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct MixedText {
    runs: Vec<TextRun>,
    /// In an `xs:all`, the order its children came in, as indexes of their fields in the
    /// type's field table (`Complex::FIELDS`): an `xs:all` holds its children in schema
    /// order, and the text between them keeps its meaning only in theirs.
    all_order: Vec<usize>,
}

/// A run given a place before one already given (the runs are in document order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfOrder {
    /// The place asked for.
    pub at: usize,
    /// The place of the last run.
    pub last: usize,
}

impl fmt::Display for OutOfOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "text placed after {} element children cannot follow text placed after {}: runs are in document order",
            self.at, self.last
        )
    }
}

impl std::error::Error for OutOfOrder {}

impl MixedText {
    /// No text at all.
    pub fn new() -> Self {
        MixedText::default()
    }

    /// Adds a run of text after `at` element children.
    pub fn push_text(&mut self, at: usize, text: impl Into<String>) -> Result<(), OutOfOrder> {
        self.push(TextRun {
            at,
            text: text.into(),
            form: TextForm::Text,
        })
    }

    /// Adds a CDATA section after `at` element children.
    pub fn push_cdata(&mut self, at: usize, text: impl Into<String>) -> Result<(), OutOfOrder> {
        self.push(TextRun {
            at,
            text: text.into(),
            form: TextForm::CData,
        })
    }

    /// Adds a run; its place may not come before the last run's.
    pub fn push(&mut self, run: TextRun) -> Result<(), OutOfOrder> {
        if let Some(last) = self.runs.last() {
            if run.at < last.at {
                return Err(OutOfOrder {
                    at: run.at,
                    last: last.at,
                });
            }
        }
        self.runs.push(run);
        Ok(())
    }

    /// The runs, in document order.
    pub fn runs(&self) -> &[TextRun] {
        &self.runs
    }

    /// Whether there is no run.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The characters after `at` element children (and before the next), CDATA included.
    pub fn at(&self, at: usize) -> String {
        self.runs
            .iter()
            .filter(|r| r.at == at)
            .map(|r| r.text.as_str())
            .collect()
    }

    /// All the characters, in order (the string value of the content's text).
    pub fn concatenated(&self) -> String {
        self.runs.iter().map(|r| r.text.as_str()).collect()
    }

    /// In an `xs:all`, the fields of the children in the order they came in (see
    /// [`MixedText::set_all_order`]); empty: schema order.
    pub fn all_order(&self) -> &[usize] {
        &self.all_order
    }

    /// Sets the order in which the children of an `xs:all` are written, as indexes of
    /// their fields in the type's field table; fields not named are written after these,
    /// in schema order, and a field named twice is written once.
    pub fn set_all_order(&mut self, fields: Vec<usize>) {
        self.all_order = fields;
    }

    /// The place of the last run, if any: a value is written faithfully when it has at
    /// least this many element children (runs past the last child are written at the end).
    pub fn last_place(&self) -> Option<usize> {
        self.runs.last().map(|r| r.at)
    }
}
