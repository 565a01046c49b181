//! The format rules beyond the schema (CIF squares against the board, CBF positions and
//! move legality), plugged in through one interface: a format's rules look at a
//! schema-valid document and return [`Issue`]s that name elements by path. The runtime
//! turns each path into a line and column by locating it in the document text.

use crate::diagnostic::{Code, Diagnostic, Severity};

/// A rule violation found in a schema-valid document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// The stable code (E03xx for CBF, E04xx for CIF; see docs/errors.md).
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The element path, in the reader's form: `/cif/game[2]/moves/marker[3]/@at` (a
    /// sibling index only from the second same-named sibling on).
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// What was expected.
    pub expected: Option<String>,
    /// What was found.
    pub found: Option<String>,
}

impl Issue {
    /// An error at `path`.
    pub fn error(code: Code, path: impl Into<String>, message: impl Into<String>) -> Self {
        Issue {
            code,
            severity: Severity::Error,
            path: path.into(),
            message: message.into(),
            expected: None,
            found: None,
        }
    }

    /// A warning at `path`.
    pub fn warning(code: Code, path: impl Into<String>, message: impl Into<String>) -> Self {
        Issue {
            severity: Severity::Warning,
            ..Issue::error(code, path, message)
        }
    }

    /// With what was expected.
    pub fn expected(mut self, e: impl Into<String>) -> Self {
        self.expected = Some(e.into());
        self
    }

    /// With what was found.
    pub fn found(mut self, f: impl Into<String>) -> Self {
        self.found = Some(f.into());
        self
    }
}

/// Where each element (and attribute) path stands in a document: one pass of quick-xml,
/// used only when there are issues to place.
pub fn locate(text: &str, paths: &[&str]) -> Vec<usize> {
    use std::collections::HashMap;
    // The paths asked for and their ancestors (an unknown path falls back to one of them).
    let mut wanted: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for p in paths {
        let mut p = *p;
        wanted.insert(p);
        while let Some(i) = p.rfind('/').filter(|i| *i > 0) {
            p = &p[..i];
            wanted.insert(p);
        }
    }
    let mut found: HashMap<String, usize> = HashMap::new();
    let mut reader = quick_xml::Reader::from_str(text);
    let mut stack: Vec<(String, HashMap<String, usize>)> = vec![(String::new(), HashMap::new())];
    loop {
        let before = reader.buffer_position() as usize;
        let (start, empty) = match reader.read_event() {
            Ok(quick_xml::events::Event::Start(s)) => (s, false),
            Ok(quick_xml::events::Event::Empty(s)) => (s, true),
            Ok(quick_xml::events::Event::End(_)) => {
                stack.pop();
                continue;
            }
            Ok(quick_xml::events::Event::Eof) | Err(_) => break,
            Ok(_) => continue,
        };
        let name = String::from_utf8_lossy(start.name().as_ref()).into_owned();
        let offset = before + text[before..].find('<').unwrap_or(0);
        let Some((parent, counts)) = stack.last_mut() else {
            break;
        };
        let n = counts.entry(name.clone()).or_insert(0);
        *n += 1;
        let path = if *n > 1 {
            format!("{parent}/{name}[{n}]")
        } else {
            format!("{parent}/{name}")
        };
        if wanted.contains(path.as_str()) {
            found.insert(path.clone(), offset);
        }
        for a in start.attributes().flatten() {
            let apath = format!("{path}/@{}", String::from_utf8_lossy(a.key.as_ref()));
            if wanted.contains(apath.as_str()) {
                let base = text.as_ptr() as usize;
                let at = a.key.as_ref().as_ptr() as usize;
                found.insert(
                    apath,
                    if at >= base && at < base + text.len() {
                        at - base
                    } else {
                        offset
                    },
                );
            }
        }
        if !empty {
            stack.push((path, HashMap::new()));
        }
    }
    paths
        .iter()
        .map(|p| {
            // An unknown path falls back to its nearest located ancestor.
            let mut p = *p;
            loop {
                if let Some(o) = found.get(p) {
                    return *o;
                }
                match p.rfind('/') {
                    Some(i) if i > 0 => p = &p[..i],
                    _ => return 0,
                }
            }
        })
        .collect()
}

/// Turns issues into diagnostics placed in `text`.
pub fn place(text: &str, issues: Vec<Issue>) -> Vec<Diagnostic> {
    let paths: Vec<&str> = issues.iter().map(|i| i.path.as_str()).collect();
    let offsets = locate(text, &paths);
    issues
        .iter()
        .zip(offsets)
        .map(|(i, offset)| Diagnostic {
            code: i.code,
            severity: i.severity,
            message: i.message.clone(),
            offset,
            path: i.path.clone(),
            expected: i.expected.clone(),
            found: i.found.clone(),
            line: 0,
            column: 0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_located_like_the_reader_names_them() {
        let text = "<cif>\n<game>\n<moves><marker at=\"a1\"/><marker at=\"b2\"/></moves>\n</game>\n<game/>\n</cif>";
        let offsets = locate(
            text,
            &[
                "/cif/game[2]",
                "/cif/game/moves/marker[2]/@at",
                "/cif/game/moves/marker[9]",
            ],
        );
        assert_eq!(&text[offsets[0]..offsets[0] + 6], "<game/");
        assert_eq!(&text[offsets[1]..offsets[1] + 3], "at=");
        assert_eq!(
            &text[offsets[2]..offsets[2] + 7],
            "<moves>",
            "falls back to the nearest ancestor"
        );
    }
}
