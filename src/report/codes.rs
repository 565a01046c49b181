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

/// The codes a tool reports: the runtime's ([`Code::ALL`]), then those of the formats it
/// is built with, each group in its table order. SARIF's rules, `--allow CODE` and the
/// code checks of the conformance suite take them from here, so that a format's codes are
/// known where it is used without the runtime naming them.
#[derive(Debug, Clone, Copy)]
pub struct Catalog {
    groups: &'static [&'static [Code]],
}

impl Catalog {
    /// The runtime's codes alone: what a generated validator reports.
    pub const RUNTIME: Catalog = Catalog {
        groups: &[Code::ALL],
    };

    /// The codes of `groups`, in order (the runtime's first, by convention).
    pub const fn new(groups: &'static [&'static [Code]]) -> Catalog {
        Catalog { groups }
    }

    /// Every code, in table order.
    pub fn codes(&self) -> impl Iterator<Item = Code> + '_ {
        self.groups.iter().flat_map(|g| g.iter().copied())
    }

    /// The place of `code` in [`Catalog::codes`], if it is one of them.
    pub fn position(&self, code: Code) -> Option<usize> {
        self.codes().position(|c| c == code)
    }

    /// A code given by its code (`E0210`, any case) or its name (`pattern`).
    pub fn parse(&self, text: &str) -> Option<Code> {
        self.codes()
            .find(|c| c.as_str().eq_ignore_ascii_case(text) || c.name() == text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_describes_every_runtime_code_with_its_name_and_fatality() {
        let table = table();
        for code in Catalog::RUNTIME.codes() {
            let row = doc(code).unwrap_or_else(|| panic!("{code:?} has no row"));
            assert_eq!(row.name, code.name(), "{}", row.code);
            assert_eq!(row.fatal, code.is_fatal(), "{}", row.code);
            assert!(!row.meaning.is_empty());
            assert_eq!(table.iter().filter(|r| r.code == row.code).count(), 1);
        }
        assert!(!doc(Code::PATTERN).unwrap().warning);
    }

    #[test]
    fn codes_parse_by_code_or_name() {
        let c = Catalog::RUNTIME;
        assert_eq!(c.parse("e0210"), Some(Code::PATTERN));
        assert_eq!(c.parse("unknown-root"), Some(Code::UNKNOWN_ROOT));
        assert_eq!(c.parse("E9999"), None);
        assert_eq!(c.position(Code::IO), Some(0));
    }
}
