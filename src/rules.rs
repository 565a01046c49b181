//! The one place where each format's rules plug in: given a schema-valid document, the
//! issues its format's rules find. Each format keeps its rules in its own module.

use crate::semantics::Issue;
use crate::validate::Document;

/// The rule issues of a schema-valid document.
pub fn check(document: &Document) -> Vec<Issue> {
    match document {
        // CIF rules: squares against the board (module `cif`, in progress).
        Document::Cif(_) => Vec::new(),
        // CBF rules: positions and move legality (module `cbf`, in progress).
        Document::Cbf2007(_) | Document::Cbf10(_) => Vec::new(),
    }
}
