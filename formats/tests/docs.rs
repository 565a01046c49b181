//! docs/errors.md lists every diagnostic code with its name.

use boardxml_formats::codes::CATALOG;

#[test]
fn every_code_is_documented() {
    let doc = include_str!("../../docs/errors.md");
    for code in CATALOG.codes() {
        let row = format!("| {} | {} |", code.as_str(), code.name());
        assert!(doc.contains(&row), "docs/errors.md lacks the row {row}");
    }
}
