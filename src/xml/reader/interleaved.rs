//! The text of general mixed content (see [`crate::mixed`]): while a mixed element's
//! children are read by its element particle, every run of character data directly inside
//! it is gathered here, at its place among the children, instead of being reported as text
//! where only elements may stand. The content model's reading is the element-only one,
//! unchanged: it never sees the text.

use super::Reader;
use crate::mixed::{MixedText, TextRun};
use crate::schema::{Invalid, TextForm};

/// The text of one mixed element being read.
#[derive(Debug)]
pub(crate) struct Gathering {
    /// The element's depth (`Reader::open` inside it): text at this depth is its own.
    depth: usize,
    text: MixedText,
    /// The fields of the `xs:all` children read so far, in order.
    all_order: Vec<usize>,
    /// The element's `default=` or `fixed=`, which its content as a whole answers to.
    constraint: Option<super::ContentConstraint>,
}

impl Reader<'_> {
    /// Starts reading mixed content over an element particle: the element's text is
    /// gathered (and its value constraint taken) until [`Reader::finish_interleaved`].
    pub fn begin_interleaved(&mut self) {
        let constraint = self.content_constraint();
        self.interleaved.push(Gathering {
            depth: self.open,
            text: MixedText::new(),
            all_order: Vec::new(),
            constraint,
        });
    }

    /// Ends mixed content begun with [`Reader::begin_interleaved`], once its end tag is
    /// consumed (the reader still stands in the element): its text, with the value of an
    /// empty element that has a default; an unmatched fixed value is reported.
    pub fn finish_interleaved(&mut self) -> Result<MixedText, Invalid> {
        let Some(Gathering {
            depth,
            mut text,
            all_order,
            constraint,
        }) = self.interleaved.pop()
        else {
            return Err(Invalid);
        };
        debug_assert_eq!(depth, self.open, "finished where it began");
        text.set_all_order(all_order);
        let children = self.levels[self.open - 1].child_count();
        // The text was handed to the constraint as it was gathered.
        if let Some(mut c) = constraint {
            if children > 0 {
                c.child();
            }
            match c.finish(self)? {
                // XSD 1.0, 3.3.4 (Element Locally Valid (Element) 5.1.2): an empty element
                // holds the value as its text.
                Some(value) if self.retain => {
                    // An empty element has no run yet: the first cannot be out of order.
                    let _ = text.push_text(0, value);
                }
                _ => {}
            }
        }
        Ok(text)
    }

    /// Notes that the child of an `xs:all` about to be read is field `field` of the type
    /// being read, if that type's mixed content is being gathered (see
    /// [`MixedText::all_order`]).
    pub fn note_all_child(&mut self, field: usize) {
        if self.gathers_text() && self.retain {
            if let Some(g) = self.interleaved.last_mut() {
                g.all_order.push(field);
            }
        }
    }

    /// Whether the element being read gathers its text (mixed content over a particle).
    pub(super) fn gathers_text(&self) -> bool {
        self.interleaved
            .last()
            .is_some_and(|g| g.depth == self.open)
    }

    /// Gathers the run of character data just read (the reader's `text`).
    pub(super) fn gather_text(&mut self, cdata: bool) {
        let at = self.levels[self.open - 1].child_count();
        let retain = self.retain;
        let Some(g) = self.interleaved.last_mut() else {
            return;
        };
        if let Some(c) = &mut g.constraint {
            if at > 0 {
                c.child();
            }
            c.text(&self.text);
        }
        // Validating without keeping holds no text either (memory stays bounded).
        if retain {
            // Children are only ever added: places never go back.
            let _ = g.text.push(TextRun {
                at,
                text: self.text.clone(),
                form: if cdata {
                    TextForm::CData
                } else {
                    TextForm::Text
                },
            });
        }
    }
}
