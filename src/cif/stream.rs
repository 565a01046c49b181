//! The CIF rules while the document is read: the board size from each `<game>` start tag,
//! then every marker checked as it is read. Nothing of the document is kept, so full
//! validation of a 100 MB CIF needs no more memory than schema validation.

use super::board::BoardSize;
use super::rules::check_element;
use crate::semantics::Issue;
use crate::xml::{Observer, Tag};

/// The observer (install it with `Reader::with_observer`).
#[derive(Debug, Default)]
pub struct CifRules {
    /// The board of the game being read.
    board: BoardSize,
}

impl Observer for CifRules {
    fn start(&mut self, tag: &Tag, path: &dyn Fn() -> String) -> Vec<Issue> {
        if tag.name() != "game" {
            return Vec::new();
        }
        // The start tag comes before the schema has checked it: values the schema rejects
        // (it reports them) count as absent here.
        let number = |name: &str| {
            tag.attribute(name)
                .and_then(|v| v.trim().parse::<u8>().ok())
                .filter(|n| (1..=64).contains(n))
        };
        match BoardSize::of_attributes(tag.attribute("boardsize"), number("files"), number("ranks"))
        {
            Ok(board) => {
                self.board = board;
                Vec::new()
            }
            Err(conflict) => {
                self.board = conflict.widest();
                vec![conflict.to_issue(&path())]
            }
        }
    }

    fn element(
        &mut self,
        _tag: &Tag,
        value: &dyn std::any::Any,
        path: &dyn Fn() -> String,
    ) -> Vec<Issue> {
        let mut issues = Vec::new();
        // Only marker kinds are checked; cheap for every other element (a failed downcast).
        check_element(self.board, value, path, &mut issues);
        issues
    }
}
