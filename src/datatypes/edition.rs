//! Which edition of XSD Part 2 the lexical spaces follow while a document, or a schema,
//! is read: XSD 1.1 (Part 2, 3.3.5 and 3.3.7) has a year `0000` (1 BCE) and spells positive
//! infinity `+INF` as well as `INF`; XSD 1.0 has neither.
//!
//! The edition is the schema's, not the value type's: one `xs:dateTime` type serves both,
//! and the reader of a document of a schema read as 1.1 reads its values by 1.1's rules.
//! It is kept per thread, set for the span of one read ([`with_edition`]), since the value
//! types parse through `FromStr` and `SimpleValue`, which take no context; outside such a
//! span the lexical spaces are XSD 1.0's, as they always were.

use std::cell::Cell;

thread_local! {
    static XSD_1_1: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with the lexical spaces of XSD 1.1 (`xsd_1_1`) or XSD 1.0, and restores the
/// edition in force before, also if `f` unwinds.
pub fn with_edition<R>(xsd_1_1: bool, f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            XSD_1_1.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(XSD_1_1.with(|c| c.replace(xsd_1_1)));
    f()
}

/// Whether values are read by XSD 1.1's lexical spaces now. Asked only on the rare
/// spellings the editions disagree on, never on every value.
pub(crate) fn xsd_1_1() -> bool {
    XSD_1_1.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edition_holds_for_the_span_of_one_call_only() {
        assert!(!xsd_1_1());
        let inside = with_edition(true, || {
            let nested = with_edition(false, xsd_1_1);
            (xsd_1_1(), nested)
        });
        assert_eq!(inside, (true, false));
        assert!(!xsd_1_1());
        let unwound = std::panic::catch_unwind(|| with_edition(true, || panic!("unwinds")));
        assert!(unwound.is_err());
        assert!(!xsd_1_1(), "restored when the call unwinds");
    }
}
