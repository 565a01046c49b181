//! The documents boardxml reads: each format's generated root type, told apart by the root
//! start tag, and written back. Below validation (which reads them) and the formats' rules
//! and conversions (which use them).

use crate::generated::{cbf_1_0, cbf_2007, cif};
use boardxml::schema::{Element, Invalid};
use boardxml::xml::{Reader, Tag};

/// The formats and dialects boardxml reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Format {
    /// CIF marker document (`<cif>`).
    #[serde(rename = "cif")]
    Cif,
    /// CBF as announced in 2007 (`<ChineseChessRecord>` without `Version`).
    #[serde(rename = "cbf-2007")]
    Cbf2007,
    /// CBF as XiangQi Bridge 3 writes it (`<ChineseChessRecord Version="1.0">`).
    #[serde(rename = "cbf-1.0")]
    Cbf10,
    /// XQF (象棋演播室), binary: read into the record model by [`crate::players`].
    #[serde(rename = "xqf")]
    Xqf,
    /// A XiangQi Bridge binary record (`.cbr`).
    #[serde(rename = "cbr")]
    Cbr,
    /// A XiangQi Bridge binary library of records (`.cbl`).
    #[serde(rename = "cbl")]
    Cbl,
    /// PGN as Chinese-chess programs write it.
    #[serde(rename = "pgn")]
    Pgn,
}

impl Format {
    /// The name users see.
    pub fn name(self) -> &'static str {
        match self {
            Format::Cif => "cif",
            Format::Cbf2007 => "cbf-2007",
            Format::Cbf10 => "cbf-1.0",
            Format::Xqf => "xqf",
            Format::Cbr => "cbr",
            Format::Cbl => "cbl",
            Format::Pgn => "pgn",
        }
    }

    /// The format a root start tag announces: `<cif>`, or `<ChineseChessRecord>` with or
    /// without `Version` (its presence marks the 1.0 dialect; a wrong value is the 1.0
    /// schema's to report as a fixed-value error).
    pub fn of_root(tag: &Tag) -> Option<Format> {
        match tag.name() {
            "cif" => Some(Format::Cif),
            "ChineseChessRecord" if tag.attribute("Version").is_some() => Some(Format::Cbf10),
            "ChineseChessRecord" => Some(Format::Cbf2007),
            _ => None,
        }
    }
}

/// A document read successfully, as its generated type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Document {
    /// CIF.
    Cif(cif::Root),
    /// CBF, dialect 2007.
    Cbf2007(cbf_2007::Root),
    /// CBF, dialect 1.0.
    Cbf10(cbf_1_0::Root),
}

impl Document {
    /// Its format.
    pub fn format(&self) -> Format {
        match self {
            Document::Cif(_) => Format::Cif,
            Document::Cbf2007(_) => Format::Cbf2007,
            Document::Cbf10(_) => Format::Cbf10,
        }
    }
}

/// Every root boardxml knows, read by the format its start tag announces.
impl boardxml::schema::Document for Document {
    const ROOTS: &'static [&'static str] = &["cif", "ChineseChessRecord"];

    fn read_root(r: &mut Reader<'_>, tag: &Tag) -> Result<Self, Invalid> {
        // A CBF record's rules need its whole tree: it is kept even when the caller keeps
        // nothing (a record is small); a CIF document is checked element by element as it
        // is read, and kept only if the caller asked.
        if r.has_observer() && Format::of_root(tag) != Some(Format::Cif) {
            r.set_retaining(true);
        }
        match Format::of_root(tag) {
            Some(Format::Cif) => {
                cif::Cif::read_element(r, tag).map(|d| Document::Cif(cif::Root::Cif(d)))
            }
            Some(Format::Cbf2007) => cbf_2007::ChineseChessRecord::read_element(r, tag)
                .map(|d| Document::Cbf2007(cbf_2007::Root::ChineseChessRecord(d))),
            Some(Format::Cbf10) => cbf_1_0::ChineseChessRecord::read_element(r, tag)
                .map(|d| Document::Cbf10(cbf_1_0::Root::ChineseChessRecord(d))),
            // A root element never announces a binary or PGN format.
            Some(Format::Xqf | Format::Cbr | Format::Cbl | Format::Pgn) | None => Err(Invalid),
        }
    }

    fn write_root(&self, w: &mut boardxml::xml::Writer) {
        match self {
            Document::Cif(d) => d.write_root(w),
            Document::Cbf2007(d) => d.write_root(w),
            Document::Cbf10(d) => d.write_root(w),
        }
    }

    fn visit_root(
        &self,
        observer: &mut dyn boardxml::xml::Observer,
        at: &boardxml::xml::At<'_>,
        found: &mut Vec<boardxml::diagnostic::Diagnostic>,
    ) {
        match self {
            Document::Cif(d) => d.visit_root(observer, at, found),
            Document::Cbf2007(d) => d.visit_root(observer, at, found),
            Document::Cbf10(d) => d.visit_root(observer, at, found),
        }
    }
}

/// Writes a valid document back in canonical layout, in `encoding` (with a BOM if `bom`).
pub fn write_document(
    document: &Document,
    encoding: &'static encoding_rs::Encoding,
    bom: bool,
) -> Vec<u8> {
    use boardxml::schema::Document as _;
    let mut w = boardxml::xml::Writer::new(encoding);
    document.write_root(&mut w);
    boardxml::encoding::encode(&w.finish(), encoding, bom)
}
