//! Reading the W3C XML Schema Test Suite's catalogue (w3c/xsdtests), as the schema tests
//! (`tests/xsts.rs`) and the instance tests (`tests/xsts_instances.rs`) both do.

use std::collections::BTreeMap;
use std::path::Path;

use quick_xml::events::{BytesStart, Event};

/// The version tokens of the suite's vocabulary (common/xsts.xsd, `version-token`) that
/// describe a configuration of ours. Both: XML 1.0 (fifth edition), Unicode tables newer
/// than 6.0 (Rust's `char` methods and the regex crate follow current Unicode).
pub struct Tokens(pub &'static [&'static str]);

/// XSD 1.0, second edition.
pub const XSD_1_0: Tokens = Tokens(&["1.0", "1.0-2e", "XML-1.0", "XML-1.0-5e", "Unicode_6.0.0"]);

/// XSD 1.1, with what it leaves to the implementation chosen as we do: a faulty
/// restriction of an all-group found in the schema (`CTR-all-compile`), full XPath 2.0 in
/// conditional type assignment (`full-xpath-in-CTA`: the runtime's XPath engine evaluates
/// any test, where a processor must take at least a subset), comments and processing
/// instructions out of the tree an assertion sees.
pub const XSD_1_1: Tokens = Tokens(&[
    "1.1",
    "XML-1.0",
    "XML-1.0-5e",
    "Unicode_6.0.0",
    "CTR-all-compile",
    "full-xpath-in-CTA",
    "comments-and-PIs-excluded",
]);

impl Tokens {
    /// Whether a `version` attribute (tokens joined by "or") admits us.
    pub fn applies(&self, version: Option<&str>) -> bool {
        version.is_none_or(|v| v.split_whitespace().any(|t| self.0.contains(&t)))
    }

    /// Whether an `expected` element's `version` (tokens joined by "and") is ours.
    pub fn expected_applies(&self, version: Option<&str>) -> bool {
        version.is_none_or(|v| v.split_whitespace().all(|t| self.0.contains(&t)))
    }
}

/// An element's attributes by local name, their values unescaped.
pub fn attributes(
    e: &BytesStart<'_>,
    decoder: quick_xml::encoding::Decoder,
) -> BTreeMap<String, String> {
    e.attributes()
        .flatten()
        .map(|a| {
            let key = String::from_utf8_lossy(a.key.local_name().as_ref()).into_owned();
            let value = a
                .decode_and_unescape_value(decoder)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| String::from_utf8_lossy(&a.value).into_owned());
            (key, value)
        })
        .collect()
}

/// The test sets `suite.xml` names (each `testSetRef`'s `href`, relative to `root`).
pub fn test_sets(root: &Path) -> Vec<String> {
    let suite = std::fs::read_to_string(root.join("suite.xml")).expect("suite.xml");
    let mut hrefs = Vec::new();
    let mut r = quick_xml::Reader::from_str(&suite);
    loop {
        match r.read_event().expect("suite.xml is well-formed") {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"testSetRef" => {
                hrefs.push(attributes(&e, r.decoder())["href"].clone());
            }
            Event::Eof => break,
            _ => {}
        }
    }
    hrefs
}
