//! Where two documents differ, by path in the data model.
//!
//! The generated types have `PartialEq` and `Debug` but no reflection. Their pretty `Debug`
//! output is a tree with one field or list element a line, so it is read back as a list of
//! (path, value) leaves, and the leaves of the two documents are compared. The paths are
//! the Rust field names (`head.red`, `move_list.move[3].value`); list positions are
//! 1-based, like the XML element paths (`Move[3]`).

use std::collections::HashMap;

use boardxml_formats::document::Document;

/// At most this many differences are listed per document; the rest are counted.
const MAX_LISTED: usize = 30;

/// Every difference between `original` and `written`, one line each: the path, then the
/// original value and the written one (`(absent)` where one side has no such leaf). Empty
/// when the documents are equal.
pub fn document_differences(original: &Document, written: &Document) -> Vec<String> {
    if original == written {
        return Vec::new();
    }
    let a = leaves(&format!("{original:#?}"));
    let b = leaves(&format!("{written:#?}"));
    let b_index: HashMap<&str, &str> = b.iter().map(|(p, v)| (p.as_str(), v.as_str())).collect();
    let a_index: HashMap<&str, &str> = a.iter().map(|(p, v)| (p.as_str(), v.as_str())).collect();
    let mut differences = Vec::new();
    for (path, value) in &a {
        match b_index.get(path.as_str()) {
            Some(other) if other == value => {}
            Some(other) => differences.push(format!("{}: {value} -> {other}", shown(path))),
            None => differences.push(format!("{}: {value} -> (absent)", shown(path))),
        }
    }
    for (path, value) in &b {
        if !a_index.contains_key(path.as_str()) {
            differences.push(format!("{}: (absent) -> {value}", shown(path)));
        }
    }
    if differences.is_empty() {
        // Equal leaves but unequal documents: the shapes differ (e.g. another variant).
        differences.push(format!(
            "(document): {} -> {}",
            first_line(original),
            first_line(written)
        ));
    }
    if differences.len() > MAX_LISTED {
        let more = differences.len() - MAX_LISTED;
        differences.truncate(MAX_LISTED);
        differences.push(format!("... and {more} more differences"));
    }
    differences
}

fn shown(path: &str) -> &str {
    if path.is_empty() {
        "(document)"
    } else {
        path
    }
}

fn first_line(d: &Document) -> String {
    format!("{d:?}").chars().take(80).collect()
}

/// A struct, tuple or list being read.
struct Level {
    /// The path segment this level adds (`head`, `[3]`, or nothing for a wrapper such as
    /// `Some(` or a newtype).
    segment: String,
    /// A list: its lines are elements, numbered.
    list: bool,
    elements: usize,
}

/// The leaves of a pretty `Debug` tree, with their paths, in order.
fn leaves(debug: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut levels: Vec<Level> = Vec::new();
    for line in debug.lines() {
        let item = line.trim().trim_end_matches(',');
        if item.is_empty() {
            continue;
        }
        if item.starts_with(['}', ')', ']']) {
            levels.pop();
            continue;
        }
        let (segment, rest) = match levels.last_mut() {
            Some(level) if level.list => {
                level.elements += 1;
                (format!("[{}]", level.elements), item)
            }
            _ => match field(item) {
                Some((name, rest)) => (name.to_string(), rest),
                None => (String::new(), item),
            },
        };
        if rest.ends_with(['{', '(', '[']) {
            levels.push(Level {
                segment,
                list: rest.ends_with('['),
                elements: 0,
            });
        } else {
            let mut path = String::new();
            for s in levels.iter().map(|l| l.segment.as_str()).chain([&*segment]) {
                if s.is_empty() {
                    continue;
                }
                if !path.is_empty() && !s.starts_with('[') {
                    path.push('.');
                }
                path.push_str(s);
            }
            out.push((path, rest.to_string()));
        }
    }
    out
}

/// `name: rest` where name is a Rust field name.
fn field(item: &str) -> Option<(&str, &str)> {
    let (name, rest) = item.split_once(": ")?;
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_lowercase() || first == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
    .then_some((name, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_have_field_and_element_paths() {
        let debug = "Root(\n    Rec {\n        head: Head {\n            red: Some(\n                \"a: b\",\n            ),\n            black: None,\n        },\n        moves: [\n            Move {\n                value: \"77-47\",\n            },\n            Move {\n                value: \"70-62\",\n            },\n        ],\n        empty: [],\n    },\n)";
        assert_eq!(
            leaves(debug),
            [
                ("head.red".to_string(), "\"a: b\"".to_string()),
                ("head.black".into(), "None".into()),
                ("moves[1].value".into(), "\"77-47\"".into()),
                ("moves[2].value".into(), "\"70-62\"".into()),
                ("empty".into(), "[]".into()),
            ]
        );
    }
}
