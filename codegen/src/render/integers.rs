//! How the integer built-ins whose value space is unbounded (`xs:integer`,
//! `nonNegativeInteger`, `positiveInteger`, `nonPositiveInteger`, `negativeInteger`) are held.
//!
//! Their value space has no machine range (XSD Part 2, 3.3.13 and 3.3.20 - 3.3.25), so a
//! bare use of one, or a restriction its facets leave open on either side, is held in the
//! runtime's exact `boardxml::datatypes` type: a value with any number of digits is read
//! and written back unchanged, never refused as out of range and never wrapped. Where the
//! facets bound the values on both sides into a machine integer (`minInclusive="1"
//! maxInclusive="255"`), or an enumeration lists only values that fit one, that integer
//! holds them: nothing the schema allows is beyond it, so the plain `Copy` integer loses
//! nothing and reads as fast as today's.

use super::*;

/// The runtime type holding every value of the unbounded integer built-in `b` exactly.
pub(super) fn unbounded_path(b: Builtin) -> TokenStream {
    let name = format_ident!("{}", b.unbounded_integer().unwrap_or("Integer"));
    quote! { ::boardxml::datatypes::#name }
}

/// The machine integer that holds every value in `lo..=hi`: the built-in's own width
/// first (the one it was always held in), then `i64`, then `u64`.
fn fitting(lo: i128, hi: i128, own: IntRepr) -> Option<IntRepr> {
    [own, IntRepr::I64, IntRepr::U64].into_iter().find(|r| {
        let (min, max) = r.range();
        min <= lo && hi <= max
    })
}

impl Renderer<'_> {
    /// The machine integer a restriction of the integer built-in `builtin` is held in:
    /// the built-in's own for a bounded one (`xs:int`: `i32`); for an unbounded one, the
    /// integer its bounds (those it implies and those of every step, folded inclusive)
    /// fit in, or `None` when a side is open or too wide: then it is held exactly.
    pub(super) fn held_integer(&self, r: &Restriction, builtin: Builtin) -> Option<IntRepr> {
        let Repr::Int(own) = builtin.repr() else {
            return None;
        };
        if builtin.unbounded_integer().is_none() {
            return Some(own);
        }
        let mut steps = Vec::new();
        let mut implied = None;
        self.steps(r, &mut steps, &mut implied);
        let all = || implied.iter().chain(steps.iter().map(|s| &**s));
        // Every facet that bounds the values: the value bounds, totalDigits (|v| < 10^n),
        // and an enumeration (its least and greatest values; a text that is no integer
        // bounds nothing, and is reported as no value of the base).
        let mut bounds: Vec<(i128, i128)> = Vec::new();
        for f in all() {
            bounds.push((f.min.unwrap_or(i128::MIN), f.max.unwrap_or(i128::MAX)));
            if let Some(most) = f.total_digits.and_then(|n| 10i128.checked_pow(n)) {
                bounds.push((1 - most, most - 1));
            }
            if let Some((lo, hi)) = enumerated_range(&f.enumeration) {
                bounds.push((lo, hi));
            }
        }
        let lo = bounds.iter().map(|b| b.0).max()?;
        let hi = bounds.iter().map(|b| b.1).min()?;
        fitting(lo, hi, own)
    }

    /// Whether a restriction with this base has its bounds and enumeration compared as
    /// values of a runtime value type (`true`), or folded into the integer bounds of a
    /// machine integer (`false`).
    pub(super) fn compared_as_values(&self, r: &Restriction) -> bool {
        self.simple_base(&r.base)
            .is_none_or(|b| match b.builtin.repr() {
                Repr::Value(_) | Repr::Bool => true,
                Repr::Int(_) => self.held_integer(r, b.builtin).is_none(),
                Repr::String => false,
            })
    }

    /// The machine integer an enumeration of the integer built-in `builtin` is held in:
    /// every enumerated value fits it (`None`: some value does not, or is no integer; the
    /// enumeration is then a newtype over the exact type, its values compared as values).
    pub(super) fn enumerated_integer(&self, builtin: Builtin, values: &[&str]) -> Option<IntRepr> {
        let Repr::Int(own) = builtin.repr() else {
            return None;
        };
        if builtin.unbounded_integer().is_none() {
            return Some(own);
        }
        let (lo, hi) = enumerated_range(values)?;
        fitting(lo, hi, own)
    }
}

/// The least and greatest of enumerated integers (`None`: none listed, or one is not an
/// integer an `i128` holds).
fn enumerated_range<S: AsRef<str>>(values: &[S]) -> Option<(i128, i128)> {
    let parsed: Option<Vec<i128>> = values
        .iter()
        .map(|v| v.as_ref().trim().parse().ok())
        .collect();
    let parsed = parsed?;
    Some((*parsed.iter().min()?, *parsed.iter().max()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_own_width_comes_first_then_i64_then_u64() {
        assert_eq!(fitting(1, 255, IntRepr::U64), Some(IntRepr::U64));
        assert_eq!(fitting(-5, 5, IntRepr::I64), Some(IntRepr::I64));
        assert_eq!(
            fitting(0, u64::MAX as i128, IntRepr::I64),
            Some(IntRepr::U64)
        );
        assert_eq!(fitting(-1, u64::MAX as i128, IntRepr::I64), None);
        assert_eq!(fitting(0, u64::MAX as i128 + 1, IntRepr::U64), None);
    }
}
