//! What each diagnostic code means, read from `docs/errors.md` (embedded at build time):
//! the table there is the one description of the codes, so SARIF rules and other outputs
//! never carry a second copy that could drift. The codes themselves are
//! [`Code::ALL`](crate::diagnostic::Code::ALL).

use crate::diagnostic::Code;

/// `docs/errors.md`, as built into this binary.
pub const ERRORS_MD: &str = include_str!("../../docs/errors.md");

/// One row of the code table of `docs/errors.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeDoc {
    /// The code, e.g. `E0210`.
    pub code: &'static str,
    /// Its short name, e.g. `pattern`.
    pub name: &'static str,
    /// Whether it ends reading the document.
    pub fatal: bool,
    /// What it means, as Markdown (one sentence or a few clauses).
    pub meaning: &'static str,
    /// Whether the table calls it a warning (its meaning starts with `warning:`).
    pub warning: bool,
}

impl CodeDoc {
    /// The meaning as plain text: Markdown code spans unwrapped, a leading `warning:` kept.
    pub fn meaning_text(&self) -> String {
        self.meaning.replace('`', "")
    }
}

/// Every row of the code table, in table order.
pub fn table() -> Vec<CodeDoc> {
    ERRORS_MD
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line
                .strip_prefix('|')?
                .strip_suffix('|')?
                .split('|')
                .map(str::trim)
                .collect();
            let [code, name, fatal, meaning] = cells[..] else {
                return None;
            };
            let is_code = code.len() == 5
                && code.starts_with('E')
                && code[1..].bytes().all(|b| b.is_ascii_digit());
            is_code.then_some(CodeDoc {
                code,
                name,
                fatal: fatal == "yes",
                meaning,
                warning: meaning.starts_with("warning:"),
            })
        })
        .collect()
}

/// The row of `code`, if the table has it (a test checks that it has every code).
pub fn doc(code: Code) -> Option<CodeDoc> {
    table().into_iter().find(|d| d.code == code.as_str())
}

/// A code given by its code (`E0210`, any case) or its name (`pattern`).
pub fn parse_code(text: &str) -> Option<Code> {
    Code::ALL
        .iter()
        .copied()
        .find(|c| c.as_str().eq_ignore_ascii_case(text) || c.name() == text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_every_code_once_with_its_name_and_fatality() {
        let table = table();
        assert_eq!(table.len(), Code::ALL.len(), "{table:#?}");
        for (row, code) in table.iter().zip(Code::ALL) {
            assert_eq!(row.code, code.as_str());
            assert_eq!(row.name, code.name(), "{}", row.code);
            assert_eq!(row.fatal, code.is_fatal(), "{}", row.code);
            assert!(!row.meaning.is_empty());
        }
        assert!(doc(Code::ResultContradiction).unwrap().warning);
        assert!(!doc(Code::Pattern).unwrap().warning);
    }

    #[test]
    fn codes_parse_by_code_or_name() {
        assert_eq!(parse_code("E0308"), Some(Code::ResultContradiction));
        assert_eq!(parse_code("e0210"), Some(Code::Pattern));
        assert_eq!(parse_code("unknown-root"), Some(Code::UnknownRoot));
        assert_eq!(parse_code("E9999"), None);
    }
}
