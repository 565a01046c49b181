//! Inputs found by the fuzz targets in fuzz/ (`scripts/fuzz.sh position ...`), kept as
//! regression tests.

use boardxml_xiangqi::{Position, PositionParseError};

/// fuzz `position`: a run of empty points longer than usize::MAX overflowed
/// (`run * 10 + digit`: a panic with overflow checks, and without them a wrap that could
/// make a garbage placement count exactly 90 points: this one read as an empty board).
#[test]
fn board_string_huge_run_is_an_error_not_an_overflow() {
    // The fuzzer's minimal input (after the selector byte): an error, not a panic.
    assert!(Position::from_board_string("444444444444444444811;-").is_err());
    for text in [
        "18446744073709551615190-r1",
        "99999999999999999999999999-r1",
        "18446744073709551615J-r1",
    ] {
        match Position::from_board_string(text) {
            Err(PositionParseError::PointCount { found }) => {
                assert_eq!(found, usize::MAX, "{text}")
            }
            other => panic!("{text:?}: expected a PointCount error, got {other:?}"),
        }
    }
}
