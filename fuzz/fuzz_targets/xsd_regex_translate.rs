//! The XSD regex parser and translator alone, fast enough for millions of executions
//! (`xsd_regex` also compiles and runs the result, which for XSD's large Unicode classes
//! costs milliseconds): any accepted pattern must translate to text that the regex crate's
//! own parser accepts, and translating twice gives the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(pattern) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(translated) = boardxml_xsd_regex::translate(pattern) else {
        return;
    };
    assert_eq!(
        boardxml_xsd_regex::translate(pattern).ok().as_deref(),
        Some(translated.as_str())
    );
    if let Err(e) = regex_syntax::Parser::new().parse(&translated) {
        panic!("translation rejected by regex-syntax\n  XSD pattern: {pattern:?}\n  translated: {translated:?}\n  error: {e}");
    }
});
