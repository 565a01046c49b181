//! The types generated from `schemas/` by `boardxml-codegen` (files in `generated/`, never
//! edited by hand). Compiling them here means a stale or broken output fails the build.

#[rustfmt::skip]
#[path = "../generated/cif.rs"]
pub mod cif;

#[rustfmt::skip]
#[path = "../generated/cbf_2007.rs"]
pub mod cbf_2007;

#[rustfmt::skip]
#[path = "../generated/cbf_1_0.rs"]
pub mod cbf_1_0;
