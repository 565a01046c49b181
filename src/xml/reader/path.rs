//! The element path (`/ChineseChessRecord/MoveList/Move[17]`) that every diagnostic
//! carries: the open elements with their index among same-named siblings, kept cheaply
//! and turned into text only when a diagnostic needs it.

use super::Reader;

/// An open element. Its path is built only when a diagnostic needs it: building it for
/// every element would cost an allocation per element of a large document.
#[derive(Default)]
pub(super) struct Level {
    /// The element's name.
    name: String,
    /// Its 1-based index among same-named siblings.
    index: usize,
    /// Children seen so far by name, for `[n]` in paths (few distinct names: a list):
    /// the name is `child_names[start..end]`, then the count.
    children: Vec<(usize, usize, usize)>,
    child_names: String,
    /// The offset of the first child of each name of `children`, in the same order (for
    /// [`At::child`](super::At::child); apart, so that the search by name stays tight).
    child_offsets: Vec<usize>,
}

impl Level {
    /// How many child elements have been entered so far.
    pub(super) fn child_count(&self) -> usize {
        self.children.iter().map(|(_, _, count)| count).sum()
    }

    /// The offset of the first child element named `name` read so far.
    pub(super) fn child(&self, name: &str) -> Option<usize> {
        self.children
            .iter()
            .position(|(start, end, _)| &self.child_names[*start..*end] == name)
            .and_then(|i| self.child_offsets.get(i).copied())
    }

    /// The level below the root: the document, whose one child is the root element.
    pub(super) fn document() -> Level {
        Level {
            index: 1,
            ..Level::default()
        }
    }
}

/// The path of the innermost of the open elements `levels` (the document first).
pub(super) fn path_of(levels: &[Level]) -> String {
    let mut path = String::with_capacity(levels.iter().map(|l| l.name.len() + 8).sum());
    for level in levels.iter().skip(1) {
        path.push('/');
        path.push_str(&level.name);
        if level.index > 1 {
            push_index(&mut path, level.index);
        }
    }
    path
}

/// Appends `[n]`. Digits by hand: the formatting machinery cost more than the rest of a
/// path, and identity constraints build one for every key kept.
fn push_index(path: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    path.push('[');
    for &d in &digits[start..] {
        path.push(char::from(d));
    }
    path.push(']');
}

impl Reader<'_> {
    /// The path of the element being read.
    pub fn path(&self) -> String {
        path_of(&self.levels[..self.open])
    }

    /// The path of the parent of the element being read; the root's own path for the root.
    pub(super) fn parent_path(&self) -> String {
        // Level 0 is the document, level 1 the root element.
        let end = match self.open {
            // The root (or nothing open yet): its own path.
            0..=2 => self.open,
            open => open - 1,
        };
        path_of(&self.levels[..end])
    }

    /// Opens the level of child element `tag` of the current element.
    pub(super) fn enter(&mut self, tag: &super::Tag) {
        let name = tag.name();
        let watched = self.observer.is_some();
        let parent = &mut self.levels[self.open - 1];
        let found = parent
            .children
            .iter_mut()
            .find(|(start, end, _)| &parent.child_names[*start..*end] == name);
        let index = match found {
            Some((_, _, count)) => {
                *count += 1;
                *count
            }
            None => {
                let start = parent.child_names.len();
                parent.child_names.push_str(name);
                parent.children.push((start, parent.child_names.len(), 1));
                // Only a visitor asks where a child stands (`At::child`).
                if watched {
                    parent.child_offsets.push(tag.offset);
                }
                1
            }
        };
        // Levels past `open` are kept: entering one reuses its buffers.
        if self.open == self.levels.len() {
            self.levels.push(Level::default());
        }
        let level = &mut self.levels[self.open];
        level.name.clear();
        level.name.push_str(name);
        level.index = index;
        level.children.clear();
        level.child_names.clear();
        level.child_offsets.clear();
        self.open += 1;
        self.identity_enter(tag);
    }

    /// Closes the current element's level.
    pub(super) fn leave(&mut self) {
        self.identity_leave();
        if self.open > 1 {
            self.open -= 1;
        }
    }

    /// The name of the element being read.
    pub(super) fn current_name(&self) -> &str {
        &self.levels[self.open - 1].name
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn indices_are_written_in_decimal() {
        for n in [2, 9, 10, 17, 100, 12_345, usize::MAX] {
            let mut path = String::new();
            super::push_index(&mut path, n);
            assert_eq!(path, format!("[{n}]"));
        }
    }
}
