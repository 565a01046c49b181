//! Generated code checks `xs:pattern` with `boardxml::__private::Pattern`, which matches
//! with a dense DFA where the pattern's DFA is small and with the regex crate otherwise.
//! Both must give the regex crate's answer on every pattern and value of the W3C XML
//! Schema Test Suite's regex rows (`../shared/conformance/xsts-regex.tsv`).

mod common;

use boardxml::__private::Pattern;

fn json_string(field: &str) -> Option<String> {
    (field != "null").then(|| serde_json::from_str::<String>(field).expect("a JSON string"))
}

#[test]
fn the_dense_dfa_answers_as_the_regex_crate_on_the_w3c_regex_rows() {
    let Some(dir) = common::shared("conformance") else {
        return;
    };
    let tsv = std::fs::read_to_string(dir.join("xsts-regex.tsv")).unwrap();
    let (mut compared, mut on_dfa) = (0usize, 0usize);
    let mut disagreements = Vec::new();
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (id, pattern, value) = (cols[0], cols[5], cols[6]);
        let (Some(pattern), Some(value)) = (json_string(pattern), json_string(value)) else {
            continue;
        };
        let Ok(translated) = boardxml_xsd_regex::translate(&pattern) else {
            continue;
        };
        let Ok(reference) = regex::RegexBuilder::new(&translated)
            .size_limit(boardxml_xsd_regex::REGEX_SIZE_LIMIT)
            .build()
        else {
            continue;
        };
        let ours = Pattern::new(&translated).expect("what the regex crate compiles");
        compared += 1;
        if ours.is_dfa() {
            on_dfa += 1;
        }
        // The value, and the value cut short and lengthened: near misses too.
        let mut values = vec![value.clone(), format!("{value}x"), format!("{value}\n")];
        if let Some((cut, _)) = value.char_indices().last() {
            values.push(value[..cut].to_string());
        }
        for v in &values {
            if ours.is_match(v) != reference.is_match(v) {
                disagreements.push(format!("{id}: {pattern:?} on {v:?}"));
            }
        }
    }
    assert!(compared > 1000, "only {compared} rows compared");
    // Most patterns of the suite are small enough for a DFA; the test must exercise it.
    assert!(on_dfa * 2 > compared, "{on_dfa} of {compared} on the DFA");
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

/// The patterns of our own schemas: every generated pattern type gets the DFA, and it
/// agrees with the regex crate on valid and invalid values.
#[test]
fn the_schemas_patterns_run_on_the_dfa() {
    for (pattern, valid, invalid) in [
        (
            "(([a-z])|(aa|bb|cc|dd|ee|ff|gg|hh|ii|jj|kk|ll|mm|nn|oo|pp|qq|rr|ss|tt|uu|vv|ww|xx|yy|zz)|(aaa|bbb|ccc|ddd|eee|fff|ggg|hhh|iii|jjj|kkk|lll))([1-9]|[1-5][0-9]|6[0-4])([A-H][1-8]?)?",
            &["a1", "zz59", "lll64", "a64H8", "bb7A"][..],
            &["a0", "a65", "ab1", "mmm1", "a1I", "a1\n", ""][..],
        ),
        (
            "[0-8][0-9]-[0-8][0-9]",
            &["00-00", "89-89"][..],
            &["90-00", "0-00", "00-00\n", ""][..],
        ),
    ] {
        let translated = boardxml_xsd_regex::translate(pattern).unwrap();
        let ours = Pattern::new(&translated).unwrap();
        assert!(ours.is_dfa(), "{pattern}");
        for v in valid {
            assert!(ours.is_match(v), "{pattern} on {v:?}");
        }
        for v in invalid {
            assert!(!ours.is_match(v), "{pattern} on {v:?}");
        }
    }
}
