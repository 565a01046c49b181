//! Compiled `xs:pattern` facets, as generated code checks them.
//!
//! A translated pattern (boardxml-xsd-regex's output, anchored `\A(?:...)\z`) is matched
//! against whole, short values: a square, a move. The regex crate's general engine spends
//! most of such a call choosing a strategy and building lazy-DFA states; a dense DFA,
//! determinised once when the pattern is first used, is a table walk over the value (about
//! 1.7x faster on the CIF square and CBF move patterns, see BENCHMARKS.md). Patterns whose
//! DFA would be large (XSD's Unicode classes such as `\w` under a bounded repetition) keep
//! the regex crate's engine, which builds only the states a value visits.

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::{Anchored, Input};

/// The size limit for patterns compiled by the regex crate (XSD classes such as `\w` are
/// large Unicode sets).
pub const REGEX_SIZE_LIMIT: usize = 256 << 20;

/// The largest dense DFA built for a pattern, and the most memory determinising it may
/// take; over either, the pattern falls back to the regex crate.
const DFA_SIZE_LIMIT: usize = 1 << 20;
const DETERMINIZE_SIZE_LIMIT: usize = 4 << 20;

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Pattern(Engine);

#[derive(Debug, Clone)]
enum Engine {
    // Boxed: the DFA's header is large, and a pattern array holds one of either kind.
    Dfa(Box<dense::DFA<Vec<u32>>>),
    Regex(regex::Regex),
}

impl Pattern {
    /// Compiles a translated pattern: as a dense DFA when it is small enough, else with the
    /// regex crate (whose error is returned if neither can compile it).
    pub fn new(translated: &str) -> Result<Pattern, regex::Error> {
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    // Values are matched whole, from their start: no unanchored prefix.
                    .start_kind(StartKind::Anchored)
                    .dfa_size_limit(Some(DFA_SIZE_LIMIT))
                    .determinize_size_limit(Some(DETERMINIZE_SIZE_LIMIT)),
            )
            .build(translated);
        match dfa {
            Ok(dfa) => Ok(Pattern(Engine::Dfa(Box::new(dfa)))),
            Err(_) => regex::RegexBuilder::new(translated)
                .size_limit(REGEX_SIZE_LIMIT)
                .build()
                .map(|re| Pattern(Engine::Regex(re))),
        }
    }

    /// Whether `value` matches (the translation anchors both ends).
    pub fn is_match(&self, value: &str) -> bool {
        match &self.0 {
            // Without quit bytes or Unicode word boundaries (the builder was given neither,
            // and XSD has no word boundaries) the search cannot fail; were it to, the value
            // would be refused, never let through.
            Engine::Dfa(dfa) => dfa
                .try_search_fwd(&Input::new(value).anchored(Anchored::Yes))
                .is_ok_and(|m| m.is_some()),
            Engine::Regex(re) => re.is_match(value),
        }
    }

    /// Whether the dense DFA is in use (for tests).
    #[doc(hidden)]
    pub fn is_dfa(&self) -> bool {
        matches!(self.0, Engine::Dfa(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_patterns_get_a_dfa_and_large_classes_keep_the_regex_engine() {
        let square = Pattern::new(r"\A(?:(?:[a-z]|aa|bb)(?:[1-9]|[1-5][0-9]|6[0-4]))\z").unwrap();
        assert!(square.is_dfa());
        assert!(square.is_match("a1") && square.is_match("bb64"));
        assert!(!square.is_match("a65") && !square.is_match("a1 ") && !square.is_match(""));
        let words = Pattern::new(r"\A(?:\w{1,255})\z").unwrap();
        assert!(!words.is_dfa());
        assert!(words.is_match("象棋") && !words.is_match("a b"));
    }
}
