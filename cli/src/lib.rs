//! boardxml-cli: the `boardxml` command (its binary) and, as a library, the conformance
//! suite's runner that `boardxml conformance` drives: the suite's cases, built into the
//! binary, run against boardxml itself or another implementation.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod conformance;
