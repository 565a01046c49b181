//! The one place where each format's rules plug in: given a schema-valid document, the
//! issues its format's rules find. Each format keeps its rules in its own module.

use crate::document::Document;
use crate::semantics::Issue;

/// The rule issues of a schema-valid document.
pub fn check(document: &Document) -> Vec<Issue> {
    // Each by the path of its own module: `crate::cbf` is also the front door, which reads
    // files through `validate`, so naming the rules through it would make an import cycle.
    match document {
        Document::Cif(doc) => crate::cif::rules::check(doc),
        Document::Cbf2007(crate::generated::cbf_2007::Root::ChineseChessRecord(r)) => {
            crate::cbf::rules::check_2007(r)
        }
        Document::Cbf10(crate::generated::cbf_1_0::Root::ChineseChessRecord(r)) => {
            crate::cbf::rules::check_1_0(r)
        }
    }
}
