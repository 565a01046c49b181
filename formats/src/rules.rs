//! The one place where each format's rules plug in: a visitor of every format the reader
//! hands elements to as it reads them ([`Rules`], for files, streamed or kept alike), and
//! the findings of a document in memory ([`check`]). Each format keeps its rules in its own
//! module.

use crate::cbf::rules::CbfRules;
use crate::cif::rules::CifRules;
use crate::document::{Document, Format};
use crate::generated::{cbf_1_0, cbf_2007, cif};
use boardxml::diagnostic::Diagnostic;
use boardxml::xml::{At, Observer, Visited};

/// The rules of every format, as the reader's observer: findings come with the reader's
/// diagnostics, anchored at byte offsets.
#[derive(Debug, Default)]
pub struct Rules {
    cif: CifRules,
    cbf: CbfRules,
    /// The document's format, once its root has started: only its rules are asked about
    /// each start tag, and only its schema's types are tried for each element read.
    format: Option<Format>,
}

impl Observer for Rules {
    fn start(&mut self, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        // The first start tag is the root's: it tells the format as validation does
        // (`Format::of_root`).
        let format = *self.format.get_or_insert_with(|| match at.name() {
            "cif" => Format::Cif,
            _ if at.attribute_value("Version").is_some() => Format::Cbf10,
            _ => Format::Cbf2007,
        });
        if format == Format::Cif {
            self.cif.start(at, found);
        }
    }

    fn starts(&self) -> bool {
        // Only the CIF rules need start tags (a game's board before its markers).
        matches!(self.format, None | Some(Format::Cif))
    }

    fn element(&mut self, element: Visited<'_>, at: &At<'_>, found: &mut Vec<Diagnostic>) {
        match self.format {
            Some(Format::Cif) => {
                cif::visit(&mut self.cif, element, at, found);
            }
            Some(Format::Cbf10) => {
                cbf_1_0::visit(&mut self.cbf, element, at, found);
            }
            Some(Format::Cbf2007) => {
                cbf_2007::visit(&mut self.cbf, element, at, found);
            }
            // Elements come after their root's start tag, which tells the format.
            _ => {}
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
