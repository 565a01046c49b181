//! boardxml: strict, schema-generated reading, writing and validation of CIF marker
//! documents and CBF (XiangQi Bridge / 象棋桥) Chinese-chess records.
//!
//! The types in [`generated`] come from `schemas/*.xsd` through `boardxml-codegen`; they
//! implement the traits of [`schema`].
//!
//! # Reading and writing records
//!
//! [`cbf::read_file`] reads a CBF record in either dialect and any supported encoding, and
//! checks everything: the schema, the start position and every move under the rules of
//! xiangqi. The record comes back as its dialect's generated type, with its encoding, so
//! that [`cbf::write_file`] writes it back as it came. [`cif`] has the same four functions.
//! A document with problems is an [`Error`] that carries every diagnostic and displays them
//! as the `boardxml validate` command does.
//!
//! ```
//! use boardxml::cbf;
//!
//! # fn main() -> Result<(), boardxml::Error> {
//! # let dir = tempfile::tempdir().unwrap();
//! # let input = dir.path().join("game.cbf");
//! # std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/valid/short-game-2007.cbf"), &input).unwrap();
//! let mut record = cbf::read_file(&input)?;
//! match &mut record.document {
//!     cbf::Document::V2007(r) => r.head.red = Some("许银川".into()),
//!     cbf::Document::V1_0(r) => r.head.red = Some("许银川".into()),
//! }
//! let output = input.with_file_name("renamed.cbf");
//! cbf::write_file(&output, &record)?;
//!
//! // Written in its own encoding (this record is GBK), and it reads back the same.
//! let again = cbf::read_file(&output)?;
//! assert_eq!(again.encoding, boardxml::encoding_rs::GBK);
//! assert_eq!(again.document, record.document);
//!
//! // A broken record is an error listing every problem, with its line and column.
//! let broken = cbf::read(b"<ChineseChessRecord Version=\"1.0\"><Head/></ChineseChessRecord>");
//! let error = broken.unwrap_err();
//! assert!(!error.diagnostics().is_empty());
//! assert!(error.to_string().contains("error[E"));
//! # Ok(())
//! # }
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

// README's Rust examples (the CBF and CIF library use) are compiled as doctests, so they
// cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;

// Generated code names the runtime by absolute path (`::boardxml::...`), so that the same
// output works in a user's crate; this makes the path resolve inside this crate too.
extern crate self as boardxml;

pub mod any;
// Reading a file with a size limit, regular files only unless the user named it.
#[cfg(unix)]
pub mod bounded;
pub mod cbf;
pub mod cif;
pub mod complex;
pub mod datatypes;
// The conformance suite's runner (the `conformance` command) needs the `cli` feature.
pub mod codes;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod conformance;
pub mod diagnostic;
pub mod document;
pub mod encoding;
#[cfg(test)]
mod exact_claims;
pub mod facets;
mod front;
pub mod generated;
mod glyphs;
pub mod identity;
pub mod identity_key;
pub mod lettering;
pub mod mixed;
pub mod nillable;
pub mod players;
pub mod report;
pub mod safe_write;
pub mod schema;
mod svg;
pub mod text_form;
pub mod validate;
// The command line of the validators `boardxml-codegen validator` generates (argument
// parsing needs the `cli` feature).
pub mod type_substitution;
#[cfg(feature = "cli")]
pub mod validator;
pub mod wildcards;

// Plumbing: what generated code, the CLI and the tests call, not an API to build on.
#[doc(hidden)]
pub mod pattern;
#[doc(hidden)]
pub mod rules;
#[doc(hidden)]
pub mod xml;

pub use encoding_rs;
pub use front::{read, read_file, write, write_file, Encoded, Encoding, Error};

/// What generated code needs from outside the runtime, re-exported so that a user's crate
/// only depends on `boardxml`.
#[doc(hidden)]
pub mod __private {
    pub use crate::pattern::Pattern;
    pub use compact_str::CompactString;
}
