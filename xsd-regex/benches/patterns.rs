//! Per-value cost of checking XSD patterns: our exact translation compiled
//! once into `regex::Regex`, versus a hand-written matcher (the floor) and
//! the naive `^(?:p)$` wrapping other generators emit.
//!
//! Run: `cargo bench -p boardxml-xsd-regex -- --warm-up-time 1 --measurement-time 3`.

use criterion::{criterion_group, criterion_main, Criterion};
use regex::{Regex, RegexBuilder};
use std::hint::black_box;

const CIF_SQUARE: &str = "(([a-z])|(aa|bb|cc|dd|ee|ff|gg|hh|ii|jj|kk|ll|mm|nn|oo|pp|qq|rr|ss|tt|uu|vv|ww|xx|yy|zz)|(aaa|bbb|ccc|ddd|eee|fff|ggg|hhh|iii|jjj|kkk|lll))([1-9]|[1-5][0-9]|6[0-4])([A-H][1-8]?)?";
const CBF_MOVE: &str = "[0-8][0-9]-[0-8][0-9]";

/// A fixed mix of valid and invalid CIF squares.
const CIF_VALUES: &[&str] = &[
    "a1", "h8", "z64", "aa10", "zz59", "lll64", "a64H8", "bb7A", "ccc12C3", "e4", // valid
    "a0", "a65", "ab1", "mmm1", "A1", "a1I", "a1H9", "a1\n", "", "a01", // invalid
];

/// A fixed mix of valid and invalid CBF moves.
const CBF_VALUES: &[&str] = &[
    "00-00", "89-89", "45-07", "17-27", "80-81", "12-13", // valid
    "90-00", "00-90", "0-00", "00_00", "00-00\n", "000-00", "ab-cd", "", // invalid
];

/// Hand-written CIF square check: the file is the maximal run of lowercase
/// letters (the rank always starts with a digit), so no backtracking.
fn hand_cif(v: &str) -> bool {
    let b = v.as_bytes();
    let file = b.iter().take_while(|c| c.is_ascii_lowercase()).count();
    let f = &b[..file];
    let file_ok = match file {
        1 => true,
        2 => f[0] == f[1],
        3 => f[0] == f[1] && f[1] == f[2] && f[0] <= b'l',
        _ => false,
    };
    if !file_ok {
        return false;
    }
    let rest = &b[file..];
    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let d = &rest[..digits];
    let rank_ok = match digits {
        1 => d[0] != b'0',
        2 => matches!(d[0], b'1'..=b'5') || (d[0] == b'6' && d[1] <= b'4'),
        _ => false,
    };
    if !rank_ok {
        return false;
    }
    match &rest[digits..] {
        [] => true,
        [c] => (b'A'..=b'H').contains(c),
        [c, r] => (b'A'..=b'H').contains(c) && (b'1'..=b'8').contains(r),
        _ => false,
    }
}

/// Hand-written CBF move check.
fn hand_cbf(v: &str) -> bool {
    matches!(
        v.as_bytes(),
        [b'0'..=b'8', b'0'..=b'9', b'-', b'0'..=b'8', b'0'..=b'9']
    )
}

fn bench_one(
    c: &mut Criterion,
    name: &str,
    pattern: &str,
    values: &[&str],
    hand: fn(&str) -> bool,
) {
    // Compiled as generated code compiles it.
    let ours = RegexBuilder::new(&boardxml_xsd_regex::translate(pattern).expect("valid XSD"))
        .size_limit(boardxml_xsd_regex::REGEX_SIZE_LIMIT)
        .build()
        .unwrap();
    let naive = Regex::new(&format!("^(?:{pattern})$")).unwrap();
    // The same translation fully determinised ahead of the search (regex-automata's dense
    // DFA), searched anchored: no lazy state building or strategy dispatch per value.
    let dfa =
        regex_automata::dfa::dense::DFA::new(&boardxml_xsd_regex::translate(pattern).unwrap())
            .unwrap();
    let dfa_match = |v: &str| {
        use regex_automata::dfa::Automaton;
        let input = regex_automata::Input::new(v).anchored(regex_automata::Anchored::Yes);
        dfa.try_search_fwd(&input).unwrap().is_some()
    };
    // The three must agree, or the comparison is meaningless.
    for v in values {
        assert_eq!(ours.is_match(v), hand(v), "{name}: {v:?}");
        assert_eq!(naive.is_match(v), hand(v), "{name}: {v:?}");
        assert_eq!(dfa_match(v), hand(v), "{name}: {v:?}");
    }
    let mut g = c.benchmark_group(name);
    g.bench_function("hand", |b| {
        b.iter(|| values.iter().filter(|v| hand(black_box(v))).count())
    });
    g.bench_function("xsd_regex", |b| {
        b.iter(|| {
            values
                .iter()
                .filter(|v| ours.is_match(black_box(v)))
                .count()
        })
    });
    g.bench_function("dense_dfa", |b| {
        b.iter(|| values.iter().filter(|v| dfa_match(black_box(v))).count())
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            values
                .iter()
                .filter(|v| naive.is_match(black_box(v)))
                .count()
        })
    });
    g.finish();
}

fn patterns(c: &mut Criterion) {
    bench_one(c, "cif_square", CIF_SQUARE, CIF_VALUES, hand_cif);
    bench_one(c, "cbf_move", CBF_MOVE, CBF_VALUES, hand_cbf);
}

criterion_group!(benches, patterns);
criterion_main!(benches);
