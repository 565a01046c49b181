//! Strict XML reading and canonical writing, for generated code to drive.

pub mod decl;
pub(crate) mod limit;
mod reader;
pub(crate) mod wf;
mod writer;

pub use limit::TooLarge;
pub use reader::{
    excerpt, At, Attributes, ContentConstraint, Inherited, Limits, MixedItem, Observer, Reader,
    Shape, Tag, Visited, XsiType,
};
pub use writer::Writer;

/// The XML Schema instance namespace (`xsi:nil`, `xsi:type`).
pub const XSI_NAMESPACE: &str = "http://www.w3.org/2001/XMLSchema-instance";
