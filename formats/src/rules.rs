//! The one place where each format's rules plug in: a visitor of every format the reader
//! hands elements to as it reads them ([`Rules`], for files, streamed or kept alike), and
//! the findings of a document in memory ([`check`]). Each format keeps its rules in its own
//! module.

use std::any::Any;

use crate::cbf::rules::CbfRules;
use crate::cif::rules::CifRules;
use crate::document::Document;
use crate::generated::{cbf_1_0, cbf_2007, cif};
use boardxml::diagnostic::Diagnostic;
use boardxml::xml::{At, Observer};

/// The rules of every format, as the reader's observer: findings come with the reader's
/// diagnostics, anchored at byte offsets.
#[derive(Debug, Default)]
pub struct Rules {
    cif: CifRules,
    cbf: CbfRules,
    /// Whether the document is a CIF one, once its root has started (only its format's
    /// rules are asked about each start tag).
    cif_document: Option<bool>,
}

impl Observer for Rules {
    fn start(&mut self, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        // The first start tag is the root's.
        if *self.cif_document.get_or_insert_with(|| at.name() == "cif") {
            self.cif.start(at, found);
        }
    }

    fn starts(&self) -> bool {
        // Only the CIF rules need start tags (a game's board before its markers).
        self.cif_document != Some(false)
    }

    fn element(&mut self, element: &dyn Any, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        // The root told the format: only its schemas' types are tried.
        if self.cif_document == Some(true) {
            cif::visit(&mut self.cif, element, at, found);
        } else {
            self.cbf.element(element, at, found);
        }
    }
}

/// The rule findings of a schema-valid document in memory (built or changed by a caller):
/// a CIF document is written out and read back through [`Rules`] (offsets into the text as
/// written); a CBF record's rules run on the record (offset 0: it has no source).
pub fn check(document: &Document) -> Vec<Diagnostic> {
    // Each by the path of its own module: `crate::cbf` is also the front door, which reads
    // files through `validate`, so naming the rules through it would make an import cycle.
    match document {
        Document::Cif(doc) => crate::cif::rules::check(doc),
        Document::Cbf2007(cbf_2007::Root::ChineseChessRecord(r)) => {
            crate::cbf::rules::check_2007(r)
        }
        Document::Cbf10(cbf_1_0::Root::ChineseChessRecord(r)) => crate::cbf::rules::check_1_0(r),
    }
}
