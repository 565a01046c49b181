//! boardxml: strict, schema-generated reading, writing and validation of CIF marker
//! documents and CBF (XiangQi Bridge / 象棋桥) Chinese-chess records.
//!
//! The types in [`generated`] come from `schemas/*.xsd` through `boardxml-codegen`; they
//! implement the traits of [`schema`] and are read with [`xml::Reader`].
#![forbid(unsafe_code)]
#![deny(missing_docs)]

// Generated code names the runtime by absolute path (`::boardxml::...`), so that the same
// output works in a user's crate; this makes the path resolve inside this crate too.
extern crate self as boardxml;

pub mod cbf;
pub mod cif;
pub mod conformance;
pub mod diagnostic;
pub mod document;
pub mod encoding;
pub mod generated;
pub mod pattern;
pub mod report;
pub mod rules;
pub mod safe_write;
pub mod schema;
pub mod semantics;
mod svg;
pub mod validate;
pub mod xml;

/// What generated code needs from outside the runtime, re-exported so that a user's crate
/// only depends on `boardxml`.
#[doc(hidden)]
pub mod __private {
    pub use crate::pattern::Pattern;
    pub use compact_str::CompactString;
}
