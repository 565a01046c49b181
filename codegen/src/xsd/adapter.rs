//! xsd-parser behind one adapter: its reading of a schema document, from the document's
//! positioned tree ([`Tree`]).
//!
//! xsd-parser stays the reader of XSD's structure (its schema model types each element's
//! attributes and content), but it does not parse the text: its deserializer takes its
//! events through the `XmlReaderSync` trait of xsd-parser-types, and here they come from
//! the tree, which kept every event of the one parse (`tree.rs`). So a document is parsed
//! once, and the model and the tree are two views of the same events.
//!
//! Why this way round, and not a reader that records positions while xsd-parser pulls
//! events from the text: the tree is read first, on any thread and without recursion, so
//! composition, the depth limits and the markup checks judge a document before anything
//! that recurses on its depth (xsd-parser's deserializers do) sees it; and a document that
//! several schemas of one run bring in is read and modelled once, the model kept with its
//! tree ([`model`]).

use std::sync::atomic::{AtomicUsize, Ordering};

use quick_xml::events::Event;
use xsd_parser::models::schema::xs::Schema;
use xsd_parser_types::quick_xml::{DeserializeSync, Error, XmlReader, XmlReaderSync};

use super::tree::{Replay, Tree};

/// xsd-parser's model of a document, or why it could not read it.
pub(super) type Model = Result<Schema, String>;

/// How many documents xsd-parser has modelled in this process.
static MODELS_READ: AtomicUsize = AtomicUsize::new(0);

/// How many schema documents xsd-parser has modelled in this process ([`model`]): a test's
/// measure that each is modelled once.
#[doc(hidden)]
pub fn models_read() -> usize {
    MODELS_READ.load(Ordering::Relaxed)
}

/// xsd-parser's model of the document of `tree`, made on first use. Only for a
/// well-formed document within the limits: xsd-parser's deserializers recurse on its depth.
pub(super) fn model(tree: &Tree) -> &Model {
    tree.model.get_or_init(|| {
        MODELS_READ.fetch_add(1, Ordering::Relaxed);
        let mut reader = Events {
            replay: tree.replay(),
            at: 0,
        };
        Schema::deserialize(&mut reader).map_err(|error| {
            // As xsd-parser's own reader says it: where it stopped, in the text it was given.
            format!("XML Error: {error}; position={}", reader.at)
        })
    })
}

/// The tree's events, as an xsd-parser reader.
struct Events<'t> {
    replay: Replay<'t>,
    /// The offset just past the last event given.
    at: usize,
}

impl XmlReader for Events<'_> {
    fn extend_error(&self, error: Error) -> Error {
        error
    }
}

impl<'t> XmlReaderSync<'t> for Events<'t> {
    fn read_event(&mut self) -> Result<Event<'t>, Error> {
        let Some((event, at)) = self.replay.next() else {
            return Ok(Event::Eof);
        };
        self.at = at;
        // As xsd-parser's own schema reader: a malformed attribute stops the reading.
        if let Event::Start(e) | Event::Empty(e) = &event {
            for a in e.attributes() {
                a?;
            }
        }
        Ok(event)
    }
}
