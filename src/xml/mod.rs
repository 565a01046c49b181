//! Strict XML reading and canonical writing, for generated code to drive.

pub mod decl;
mod reader;
pub(crate) mod wf;
mod writer;

pub use reader::STREAM_STEP;
pub use reader::{
    excerpt, At, Attributes, ContentConstraint, Limits, MixedItem, Observer, Reader, Shape, Tag,
    Visited, XsiType,
};
pub use writer::Writer;

/// A limit passed by the input before the reader (a document's size budget), carried to
/// it as an `io::Error`: reported as a limit error (E0106) at `offset`.
#[derive(Debug, Clone)]
pub struct TooLarge {
    /// Decoded offset where the limit applies.
    pub offset: usize,
    /// What passed its limit.
    pub message: String,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TooLarge {}

/// The XML Schema instance namespace (`xsi:nil`, `xsi:type`).
pub const XSI_NAMESPACE: &str = "http://www.w3.org/2001/XMLSchema-instance";
