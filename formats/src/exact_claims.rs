//! Each [`ExactParser`] claim of the bound types: it holds for the shipped schemas, and the
//! parser accepts exactly what the schema's pattern accepts, on every string up to a length
//! over the alphabet that matters to it and on strings generated from the pattern.

use crate::cbf::values::{MoveValue, MOVE_PATTERN};
use crate::cif::board::{BoardSize, BOARD_SIZE_PATTERN};
use crate::cif::square::{Square, Squares, SQUARES_PATTERN, SQUARE_PATTERN};
use crate::generated::{cbf_1_0, cbf_2007};
use boardxml::facets::{ExactParser, Facets, Restricted};
use boardxml::schema::SimpleValue;

/// Every string over `alphabet` of at most `max_len` characters.
fn strings(alphabet: &[char], max_len: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..max_len {
        last = last
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

/// The parser (through `parse_lexical`, with the claim in force) and the pattern alone
/// agree on `text`.
fn agree<T: SimpleValue + std::fmt::Debug>(facets: &Facets, text: &str) {
    let by_pattern = facets.check_lexical(text).is_ok() && facets.check_string(text).is_ok();
    let by_parser = T::parse_lexical(text);
    assert_eq!(
        by_parser.is_ok(),
        by_pattern,
        "{text:?}: parser {by_parser:?}, pattern {by_pattern}"
    );
}

fn exhaustive<T: SimpleValue + std::fmt::Debug>(
    facets: &Facets,
    alphabet: &[char],
    max_len: usize,
) -> usize {
    let all = strings(alphabet, max_len);
    for s in &all {
        agree::<T>(facets, s);
    }
    all.len()
}

fn generated<T: SimpleValue + std::fmt::Debug>(facets: &Facets, pattern: &str) {
    use proptest::strategy::{Strategy, ValueTree};
    let strategy = proptest::string::string_regex(pattern).expect("the pattern");
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..2_000 {
        let text = strategy.new_tree(&mut runner).expect("a value").current();
        agree::<T>(facets, &text);
        assert!(
            T::parse_lexical(&text).is_ok(),
            "{text:?} matches the pattern"
        );
    }
}

#[test]
fn the_claims_hold_for_the_shipped_schemas() {
    assert!(SQUARE_PATTERN.holds_for(Square::facets()));
    assert!(SQUARES_PATTERN.holds_for(Squares::facets()));
    assert!(BOARD_SIZE_PATTERN.holds_for(BoardSize::facets()));
    assert!(ExactParser::carries(
        cbf_1_0::MoveValueFacets::facets(),
        MOVE_PATTERN
    ));
    assert!(ExactParser::carries(
        cbf_2007::MoveValueFacets::facets(),
        MOVE_PATTERN
    ));
    // A claim for another pattern does not hold: the schema's patterns are used then.
    assert!(!ExactParser::new("[a-z]").holds_for(Square::facets()));
}

#[test]
fn square_reads_its_pattern() {
    let n = exhaustive::<Square>(
        Square::facets(),
        &['a', 'b', 'l', 'm', 'z', 'A', 'H', 'I', '0', '1', '6', '9'],
        5,
    );
    assert!(n > 200_000);
    generated::<Square>(Square::facets(), SQUARE_PATTERN.pattern());
}

#[test]
fn squares_reads_its_pattern() {
    exhaustive::<Squares>(
        Squares::facets(),
        &['a', 'b', 'l', 'A', 'I', '0', '1', '6', '9'],
        6,
    );
    generated::<Squares>(Squares::facets(), SQUARES_PATTERN.pattern());
}

#[test]
fn board_size_reads_its_pattern() {
    exhaustive::<BoardSize>(
        BoardSize::facets(),
        &['0', '1', '4', '6', '9', 'x', 'X', ' '],
        6,
    );
    generated::<BoardSize>(BoardSize::facets(), BOARD_SIZE_PATTERN.pattern());
}

#[test]
fn moves_read_their_pattern() {
    exhaustive::<MoveValue<cbf_1_0::MoveValueFacets>>(
        cbf_1_0::MoveValueFacets::facets(),
        &['0', '1', '8', '9', '-', 'a', ' '],
        5,
    );
    exhaustive::<MoveValue<cbf_2007::MoveValueFacets>>(
        cbf_2007::MoveValueFacets::facets(),
        &['0', '8', '9', '-', 'x'],
        6,
    );
    generated::<MoveValue<cbf_1_0::MoveValueFacets>>(
        cbf_1_0::MoveValueFacets::facets(),
        MOVE_PATTERN,
    );
}
