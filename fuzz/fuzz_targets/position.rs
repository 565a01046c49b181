//! The FEN and 2007 Board string parsers, and their round trips.
//!
//! First byte selects the parser (even: FEN, odd: Board string); the rest is the text.
#![no_main]

use boardxml_xiangqi::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if selector & 1 == 0 {
        if let Ok(pos) = Position::from_fen(text) {
            let fen = pos.to_fen();
            let back = Position::from_fen(&fen).unwrap_or_else(|e| {
                panic!("to_fen output does not parse: {text:?} -> {fen:?}: {e}")
            });
            assert_eq!(pos, back, "FEN round trip: {text:?} -> {fen:?}");
            assert_eq!(fen, back.to_fen(), "FEN not stable: {text:?}");
            let _ = pos.validate();
        }
    } else if let Ok(pos) = Position::from_board_string(text) {
        let board = pos.to_board_string();
        let back = Position::from_board_string(&board).unwrap_or_else(|e| {
            panic!("to_board_string output does not parse: {text:?} -> {board:?}: {e}")
        });
        assert_eq!(pos, back, "Board string round trip: {text:?} -> {board:?}");
        assert_eq!(
            board,
            back.to_board_string(),
            "Board string not stable: {text:?}"
        );
        let _ = pos.validate();
    }
});
