//! OASIS XML Catalogs 1.1 (<https://www.oasis-open.org/committees/download.php/14809/xml-catalogs.html>):
//! where a schema document named by a URL (or any system identifier) is on disk, so that
//! composition never fetches anything from the network.
//!
//! Read: `system` and `uri` (an exact identifier), `rewriteSystem` and `rewriteURI` (the
//! longest matching prefix is replaced), and `nextCatalog` (consulted, in order, when no
//! entry of this catalog matches). A relative `uri`, `rewritePrefix` or `catalog` is
//! resolved against the catalog file (its `xml:base` is not read). `public`, `delegate*`
//! and `*Suffix` entries are ignored: none names a schema location XSD composition looks up.

use std::path::{Path, PathBuf};

use quick_xml::events::Event;
use quick_xml::NsReader;

use crate::diagnostic::{Kind, SchemaDiagnostic};
use crate::ir::Span;

const CATALOG_NS: &[u8] = b"urn:oasis:names:tc:entity:xmlns:xml:catalog";

/// One mapping of a catalog.
#[derive(Debug, Clone)]
enum Entry {
    /// An identifier mapped to a file.
    Exact { id: String, to: PathBuf },
    /// Identifiers starting with `prefix` mapped by replacing it with `to` (a path prefix).
    Rewrite { prefix: String, to: String },
}

/// The catalogs given to one run, in order (the first that maps a location wins).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Entries of each catalog file, in the order files are consulted.
    files: Vec<(PathBuf, Vec<Entry>)>,
    /// Whether the user gave any catalog (even one that could not be read).
    given: bool,
}

impl Catalog {
    /// The catalog files read (those given and the `nextCatalog`s they chain to), in the
    /// order they are consulted.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(|(p, _)| p.as_path())
    }

    /// Reads catalog files (and the `nextCatalog`s they chain to, each once); every problem
    /// is an I/O diagnostic located in the catalog.
    pub fn read(paths: &[PathBuf]) -> Result<Catalog, Vec<SchemaDiagnostic>> {
        let (catalog, problems) = Catalog::read_partly(paths);
        if problems.is_empty() {
            Ok(catalog)
        } else {
            Err(problems)
        }
    }

    /// [`Catalog::read`], keeping what could be read next to the problems (so that `check`
    /// goes on, and says a catalog was given even when one of them failed).
    pub fn read_partly(paths: &[PathBuf]) -> (Catalog, Vec<SchemaDiagnostic>) {
        let mut catalog = Catalog {
            given: !paths.is_empty(),
            ..Catalog::default()
        };
        let mut problems = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for p in paths {
            catalog.read_file(p, None, &mut seen, &mut problems);
        }
        (catalog, problems)
    }

    fn read_file(
        &mut self,
        path: &Path,
        from: Option<(&Path, Span)>,
        seen: &mut std::collections::HashSet<PathBuf>,
        problems: &mut Vec<SchemaDiagnostic>,
    ) {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        if !seen.insert(key) {
            return;
        }
        // A catalog the user named may be a stream; one a nextCatalog names, only a file.
        let read = super::schema_file::read_bounded(path, from.is_none())
            .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "it is not UTF-8".to_string()));
        let text = match read {
            Ok(t) => t,
            Err(e) => {
                let (file, span) =
                    from.map_or((path, Span { line: 1, column: 1 }), |(f, s)| (f, s));
                problems.push(problem(
                    file,
                    span,
                    format!("cannot read the catalog {}: {e}", path.display()),
                ));
                return;
            }
        };
        let base = path.parent().unwrap_or(Path::new("."));
        let mut entries = Vec::new();
        let mut next = Vec::new();
        let mut reader = NsReader::from_str(&text);
        let mut root_seen = false;
        loop {
            let at = reader.buffer_position() as usize;
            let event = match reader.read_resolved_event() {
                Ok(e) => e,
                Err(e) => {
                    let span = span_at(&text, reader.error_position() as usize);
                    problems.push(problem(path, span, format!("not well-formed XML: {e}")));
                    return;
                }
            };
            let (ns, start) = match &event {
                (ns, Event::Start(s) | Event::Empty(s)) => (ns.clone(), s.clone()),
                (_, Event::Eof) => break,
                _ => continue,
            };
            let in_catalog_ns =
                matches!(&ns, quick_xml::name::ResolveResult::Bound(n) if n.as_ref() == CATALOG_NS);
            let span = span_at(&text, at + text[at..].find('<').unwrap_or(0));
            // A file whose root is not an OASIS <catalog> is no catalog (a wrong file
            // given by mistake would otherwise map nothing, silently).
            if !root_seen {
                root_seen = true;
                if !in_catalog_ns || start.local_name().as_ref() != b"catalog" {
                    let found = String::from_utf8_lossy(start.name().as_ref()).into_owned();
                    problems.push(problem(
                        path,
                        span,
                        format!("expected <catalog> in the namespace {} (an OASIS XML Catalog), found <{found}>", String::from_utf8_lossy(CATALOG_NS)),
                    ));
                    return;
                }
            }
            if !in_catalog_ns {
                continue;
            }
            let decoder = reader.decoder();
            let attr = |name: &str| -> Option<String> {
                start
                    .attributes()
                    .flatten()
                    .find(|a| a.key.as_ref() == name.as_bytes())
                    .and_then(|a| {
                        a.decode_and_unescape_value(decoder)
                            .ok()
                            .map(|v| v.trim().to_string())
                    })
            };
            let local = start.local_name();
            let (id_attr, to_attr, rewrite) = match local.as_ref() {
                b"system" => ("systemId", "uri", false),
                b"uri" => ("name", "uri", false),
                b"rewriteSystem" => ("systemIdStartString", "rewritePrefix", true),
                b"rewriteURI" => ("uriStartString", "rewritePrefix", true),
                b"nextCatalog" => {
                    match attr("catalog") {
                        Some(c) => next.push((local_path(base, &c), span)),
                        None => problems.push(problem(
                            path,
                            span,
                            "nextCatalog needs a catalog attribute".into(),
                        )),
                    }
                    continue;
                }
                _ => continue,
            };
            let (Some(id), Some(to)) = (attr(id_attr), attr(to_attr)) else {
                let name = String::from_utf8_lossy(local.as_ref()).into_owned();
                problems.push(problem(
                    path,
                    span,
                    format!("<{name}> needs the attributes {id_attr} and {to_attr}"),
                ));
                continue;
            };
            entries.push(if rewrite {
                let to = local_path(base, &to).to_string_lossy().into_owned();
                Entry::Rewrite { prefix: id, to }
            } else {
                Entry::Exact {
                    id,
                    to: local_path(base, &to),
                }
            });
        }
        self.files.push((path.to_owned(), entries));
        for (n, span) in next {
            self.read_file(&n, Some((path, span)), seen, problems);
        }
    }

    /// Whether no catalog was given (a catalog that failed to read was given).
    pub fn is_empty(&self) -> bool {
        !self.given && self.files.is_empty()
    }

    /// The file a location (a system identifier or URI) maps to: an exact entry first, then
    /// the longest rewrite prefix, catalog by catalog.
    pub fn resolve(&self, location: &str) -> Option<PathBuf> {
        self.resolve_within(location).map(|(file, _)| file)
    }

    /// [`Catalog::resolve`], with what the mapping allows reading: an exact entry's file, or
    /// the folder of a rewrite's prefix (a `../` in the rest of the location cannot leave it).
    pub fn resolve_within(&self, location: &str) -> Option<(PathBuf, PathBuf)> {
        for (_, entries) in &self.files {
            let exact = entries.iter().find_map(|e| match e {
                Entry::Exact { id, to } if id == location => Some(to.clone()),
                _ => None,
            });
            if let Some(to) = exact {
                return Some((to.clone(), to));
            }
            let rewrite = entries
                .iter()
                .filter_map(|e| match e {
                    Entry::Rewrite { prefix, to } if location.starts_with(prefix.as_str()) => {
                        Some((prefix.len(), to))
                    }
                    _ => None,
                })
                .max_by_key(|(len, _)| *len);
            if let Some((len, to)) = rewrite {
                let within = if to.ends_with('/') {
                    PathBuf::from(to)
                } else {
                    Path::new(to)
                        .parent()
                        .map_or_else(PathBuf::new, Path::to_owned)
                };
                return Some((PathBuf::from(format!("{to}{}", &location[len..])), within));
            }
        }
        None
    }
}

/// A catalog's `uri`: a `file:` URL or a path, relative to the catalog's folder.
fn local_path(base: &Path, uri: &str) -> PathBuf {
    let p = uri.strip_prefix("file://").unwrap_or(uri);
    let p = p.strip_prefix("file:").unwrap_or(p);
    base.join(p)
}

fn problem(file: &Path, span: Span, message: String) -> SchemaDiagnostic {
    SchemaDiagnostic {
        file: file.to_owned(),
        span,
        construct: "the XML catalog".into(),
        message,
        hint: None,
        kind: Kind::Io,
    }
}

/// Line and column (in characters) of a byte offset.
pub(super) fn span_at(text: &str, offset: usize) -> Span {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32 + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    Span {
        line,
        column: before[start..].chars().count() as u32 + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_resolve_against_the_catalog_file() {
        let dir = tempfile::tempdir().unwrap();
        let cat = dir.path().join("catalog.xml");
        std::fs::write(
            &cat,
            r#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <system systemId="http://example.org/a.xsd" uri="local/a.xsd"/>
  <uri name="urn:b" uri="b.xsd"/>
  <rewriteSystem systemIdStartString="http://example.org/" rewritePrefix="mirror/"/>
  <rewriteURI uriStartString="http://example.org/deep/" rewritePrefix="deep/"/>
  <nextCatalog catalog="more.xml"/>
</catalog>"#,
        )
        .unwrap();
        std::fs::write(
            dir.path().join("more.xml"),
            r#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><system systemId="http://other/c.xsd" uri="c.xsd"/></catalog>"#,
        )
        .unwrap();
        let c = Catalog::read(&[cat]).unwrap();
        let d = dir.path();
        assert_eq!(
            c.resolve("http://example.org/a.xsd"),
            Some(d.join("local/a.xsd"))
        );
        assert_eq!(c.resolve("urn:b"), Some(d.join("b.xsd")));
        assert_eq!(
            c.resolve("http://example.org/x/y.xsd"),
            Some(PathBuf::from(format!(
                "{}x/y.xsd",
                d.join("mirror/").display()
            )))
        );
        // The longest prefix wins.
        assert_eq!(
            c.resolve("http://example.org/deep/z.xsd"),
            Some(PathBuf::from(format!("{}z.xsd", d.join("deep/").display())))
        );
        assert_eq!(c.resolve("http://other/c.xsd"), Some(d.join("c.xsd")));
        assert_eq!(c.resolve("http://nowhere/x.xsd"), None);
    }

    #[test]
    fn a_broken_catalog_is_a_located_error() {
        let dir = tempfile::tempdir().unwrap();
        let cat = dir.path().join("catalog.xml");
        std::fs::write(
            &cat,
            "<catalog xmlns=\"urn:oasis:names:tc:entity:xmlns:xml:catalog\">\n  <system uri=\"a.xsd\"/>\n  <nextCatalog catalog=\"missing.xml\"/>\n</catalog>",
        )
        .unwrap();
        let e = Catalog::read(std::slice::from_ref(&cat)).unwrap_err();
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!((e[0].span.line, e[0].span.column), (2, 3));
        assert!(e[0].message.contains("systemId"), "{}", e[0].message);
        assert_eq!(e[1].file, cat);
        assert_eq!((e[1].span.line, e[1].span.column), (3, 3));
        assert!(
            e[1].message.starts_with("cannot read the catalog"),
            "{}",
            e[1].message
        );
        assert!(Catalog::read(&[dir.path().join("none.xml")]).is_err());
    }
}
