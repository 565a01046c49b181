//! The XSD regex translator: any pattern it accepts must compile in the regex crate (with
//! REGEX_SIZE_LIMIT) and the compiled regex must run.
//!
//! Input: the pattern, then optionally a NUL byte and a value to match.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (pattern, value) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b""[..]),
    };
    let Ok(pattern) = std::str::from_utf8(pattern) else {
        return;
    };
    let Ok(translated) = boardxml_xsd_regex::translate(pattern) else {
        return;
    };
    let re = match regex::RegexBuilder::new(&translated)
        .size_limit(boardxml_xsd_regex::REGEX_SIZE_LIMIT)
        .build()
    {
        Ok(re) => re,
        // A compiled program over the size limit is the documented bound on hostile
        // patterns (huge counted repetitions of big classes), not a translation bug.
        Err(regex::Error::CompiledTooBig(_)) => return,
        Err(e) => panic!(
            "translation rejected by the regex crate\n  XSD pattern: {pattern:?}\n  translated: {translated:?}\n  error: {e}"
        ),
    };
    let value = String::from_utf8_lossy(value);
    let _ = re.is_match(&value);
});
