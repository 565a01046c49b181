//! The reader for every format: CIF, both CBF dialects, decoding, schema and format rules.
#![no_main]

use std::path::Path;

use boardxml_formats::validate::{validate_bytes, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let report = validate_bytes(Path::new("f.xml"), data, &Options::default());
    // Default options keep the document of every valid input.
    if report.is_valid() {
        assert!(report.document.is_some(), "valid report without a document");
    }
    for d in &report.diagnostics {
        let _ = report.line_column(d);
    }
});
