//! boardxml: the runtime of schema-generated code. `boardxml-codegen` turns XML Schemas
//! into Rust types (in `build.rs` with its `Config`, or as checked-in files); those types
//! implement the traits of [`schema`] and are read, checked and written by this crate:
//!
//! - [`read_file`], [`read`], [`write`](fn@write) and [`write_file`]: a document of one's own schema
//!   (`boardxml::read_file::<gpx::Root>("walk.gpx")`) read into its generated type by the
//!   strict streaming reader, every problem an [`Error`] of located diagnostics, and written
//!   back only if reading would take it (`examples/gpx-edit` in the repository);
//! - [`validate`]: one document validated against a generated schema in bounded memory,
//!   with its [`validate::Report`]; [`report`]: the report as text, JSON, GitHub
//!   annotations, SARIF or JUnit; [`validator`]: the command line of the validators that
//!   `boardxml-codegen validator` generates;
//! - below them, the layers generated code builds on: [`xml`] (well-formed XML 1.0 and
//!   Namespaces, encodings, limits), [`datatypes`] and [`facets`] (every XSD 1.0 built-in
//!   type and facet), [`complex`] (content models), [`identity`] (keys and references),
//!   [`diagnostic`] (stable codes, placed at line and column) and [`safe_write`].
//!
//! Nothing here knows a particular schema: a format built on the runtime adds its rules as
//! an [`xml::Observer`] of the elements read, and its diagnostic codes as
//! [`diagnostic::Code`] values of its own (the board formats of `boardxml-formats` do both).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

// Generated code names the runtime by absolute path (`::boardxml::...`), so that the same
// output works in a user's crate; this makes the path resolve inside this crate too.
extern crate self as boardxml;

pub mod any;
// Reading a file with a size limit, regular files only unless the user named it.
#[cfg(unix)]
pub mod bounded;
pub mod complex;
pub mod datatypes;
pub mod diagnostic;
pub mod encoding;
pub mod facets;
mod front;
pub mod identity;
pub mod identity_key;
pub mod mixed;
pub mod nillable;
pub mod report;
pub mod safe_write;
pub mod schema;
pub mod text_form;
pub mod type_substitution;
pub mod validate;
// The command line of the validators `boardxml-codegen validator` generates.
pub mod validator;
pub mod wildcards;

// Plumbing: what generated code, the formats and the tests call, not an API to build on.
#[doc(hidden)]
pub mod pattern;
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
