//! How a text value was written, kept below both the XML layer and the schema layer that
//! read and write it.

/// Whether a text value was written as character data or as a CDATA section. Kept for
/// simple content so that a rewrite keeps comments in CDATA where they were.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TextForm {
    /// Plain (escaped) character data.
    #[default]
    Text,
    /// At least one CDATA section.
    CData,
}
