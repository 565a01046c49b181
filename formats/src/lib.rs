//! boardxml-formats: strict, schema-generated reading, writing and validation of CIF marker
//! documents and CBF (XiangQi Bridge / 象棋桥) Chinese-chess records, on the `boardxml`
//! runtime.
//!
//! The types in [`generated`] come from `schemas/*.xsd` through `boardxml-codegen`; they
//! implement the runtime's traits (`boardxml::schema`).
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
//! use boardxml_formats::cbf;
//!
//! # fn main() -> Result<(), boardxml_formats::Error> {
//! # let dir = tempfile::tempdir().unwrap();
//! # let input = dir.path().join("game.cbf");
//! # std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/valid/short-game-2007.cbf"), &input).unwrap();
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
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;

// The schema bindings name the formats' runtime types by absolute path
// (`::boardxml_formats::cif::Square`); this makes the path resolve inside this crate.
extern crate self as boardxml_formats;

pub mod cbf;
pub mod cif;
pub mod codes;
pub mod document;
#[cfg(test)]
mod exact_claims;
mod front;
pub mod generated;
mod glyphs;
pub mod lettering;
pub mod players;
#[doc(hidden)]
pub mod rules;
mod svg;
pub mod validate;

pub use boardxml::encoding_rs;
pub use front::{Encoded, Error};
