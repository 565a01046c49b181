//! `boardxml-codegen check`: whether schemas are valid XSD (1.0, or 1.1: the version they
//! are read as) and whether the generator supports everything they use, without writing
//! anything.
//!
//! The verdict comes from the kinds of the diagnostics ([`Kind`]): any
//! [`Kind::Invalid`] makes the schema invalid (exit 1), even when it also uses something
//! unsupported; otherwise any [`Kind::Unsupported`] makes it "valid, not supported yet"
//! (exit 3); a file that cannot be read is exit 2. A schema is checked as far as generating
//! its Rust code (rendering finds some problems too), so exit 0 means `boardxml-codegen`
//! generates it.

use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostics, Kind};

/// What `check` concludes about a set of schema files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Valid, and the generator supports everything it uses (exit 0).
    Supported,
    /// Not a valid schema of the XSD version it is read as (exit 1).
    Invalid,
    /// Valid as far as can be checked, but it uses something not supported yet (exit 3).
    Unsupported,
    /// A file could not be read (exit 2).
    Io,
}

impl Verdict {
    /// The exit status of `boardxml-codegen check`.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Supported => 0,
            Verdict::Invalid => 1,
            Verdict::Io => 2,
            Verdict::Unsupported => 3,
        }
    }
}

/// The verdict and every diagnostic behind it (warnings too: they leave the verdict as it
/// is).
#[derive(Debug, Clone)]
pub struct Report {
    /// What the diagnostics add up to.
    pub verdict: Verdict,
    /// Every problem, each located.
    pub diagnostics: Diagnostics,
}

fn verdict_of(diagnostics: &Diagnostics) -> Verdict {
    if diagnostics.any(Kind::Io) {
        Verdict::Io
    } else if diagnostics.any(Kind::Invalid) {
        Verdict::Invalid
    } else if diagnostics.any(Kind::Unsupported) {
        Verdict::Unsupported
    } else {
        Verdict::Supported
    }
}

/// Checks one schema given as text; `path` names it in diagnostics.
pub fn check_str(path: &Path, text: &str) -> Report {
    let diagnostics = match crate::generate_str(path, text) {
        Ok(_) => Diagnostics::default(),
        Err(d) => d,
    };
    Report {
        verdict: verdict_of(&diagnostics),
        diagnostics,
    }
}

/// Checks schema files that together form one schema, with the documents they include,
/// import or redefine (followed from each file; `catalogs` are OASIS XML Catalog files
/// mapping their locations, never fetched from the network). The verdict is the worst of
/// the diagnostics': invalid over I/O error over unsupported over supported, so an invalid
/// document is never hidden by an unreadable one.
pub fn check_files(paths: &[PathBuf], catalogs: &[PathBuf]) -> Report {
    check_files_allowed(paths, catalogs, &crate::xsd::Allowed::default())
}

/// [`check_files`], the documents also allowed to read under `allowed`'s folders
/// (`--allow-path`).
pub fn check_files_allowed(
    paths: &[PathBuf],
    catalogs: &[PathBuf],
    allowed: &crate::xsd::Allowed,
) -> Report {
    let (catalog, problems) = crate::xsd::Catalog::read_partly(catalogs);
    let cache = crate::xsd::Cache::new();
    check_read(paths, &catalog, problems, allowed, &cache).0
}

/// The code `check` generated for a supported schema.
pub(crate) struct Generated {
    /// The module's text.
    pub code: String,
    /// How many types the schema has.
    pub types: usize,
    /// Whether the code needs the runtime's `xpath` feature ([`crate::ir::Schema::needs_xpath`]: assertions,
    /// or type alternatives' tests that it evaluates).
    pub xpath: bool,
}

/// [`check_files_allowed`] with the catalog read (`problems`: what was wrong with the
/// catalog files) and the documents already read in this run in `cache`; with the
/// report, the code generated when the schema is read and rendered without error.
pub(crate) fn check_read(
    paths: &[PathBuf],
    catalog: &crate::xsd::Catalog,
    problems: Vec<crate::diagnostic::SchemaDiagnostic>,
    allowed: &crate::xsd::Allowed,
    cache: &crate::xsd::Cache,
) -> (Report, Option<Generated>) {
    let mut all = problems;
    let mut generated = None;
    match crate::xsd::read_schema_files_cached(paths, catalog, allowed, cache) {
        Ok(schema) => {
            // What the schema was read without is said even when it is valid.
            all.extend(schema.warnings.iter().cloned());
            let first = paths
                .first()
                .map_or(Path::new("schema.xsd"), PathBuf::as_path);
            match crate::render_schema(first, &schema, &crate::Externs::new()) {
                Ok((_, code)) => {
                    generated = Some(Generated {
                        code,
                        types: schema.types.len(),
                        xpath: schema.needs_xpath(),
                    })
                }
                Err(d) => all.extend(d.0),
            }
        }
        Err(d) => all.extend(d.0),
    }
    let diagnostics = Diagnostics(all);
    let mut verdict = verdict_of(&diagnostics);
    // An invalid schema stays invalid even when another file cannot be read.
    if diagnostics.any(Kind::Invalid) {
        verdict = Verdict::Invalid;
    }
    (
        Report {
            verdict,
            diagnostics,
        },
        generated,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &str) -> Verdict {
        check_str(Path::new("t.xsd"), text).verdict
    }

    const HEAD: &str = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">";

    #[test]
    fn supported_invalid_and_unsupported() {
        assert_eq!(
            verdict(&format!(
                "{HEAD}<xs:element name=\"a\" type=\"xs:string\"/></xs:schema>"
            )),
            Verdict::Supported
        );
        // Model groups are supported.
        assert_eq!(
            verdict(&format!("{HEAD}<xs:group name=\"g\"><xs:sequence><xs:element name=\"a\" type=\"xs:string\"/></xs:sequence></xs:group><xs:element name=\"r\"><xs:complexType><xs:group ref=\"g\"/></xs:complexType></xs:element></xs:schema>")),
            Verdict::Supported
        );
        // Element wildcards are supported.
        assert_eq!(
            verdict(&format!("{HEAD}<xs:element name=\"r\"><xs:complexType><xs:sequence><xs:any/></xs:sequence></xs:complexType></xs:element></xs:schema>")),
            Verdict::Supported
        );
        // Unsupported (counted repetitions the reader cannot tell apart), but valid.
        assert_eq!(
            verdict(&format!("{HEAD}<xs:complexType name=\"k\"><xs:sequence minOccurs=\"2\" maxOccurs=\"2\"><xs:choice><xs:element name=\"e\" maxOccurs=\"unbounded\"/><xs:element name=\"c\"/></xs:choice><xs:element name=\"d\" minOccurs=\"0\"/></xs:sequence></xs:complexType></xs:schema>")),
            Verdict::Unsupported
        );
        // Unsupported construct, and an invalid reference beside it: invalid.
        assert_eq!(
            verdict(&format!("{HEAD}<xs:complexType name=\"k\"><xs:sequence minOccurs=\"2\" maxOccurs=\"2\"><xs:choice><xs:element name=\"e\" maxOccurs=\"unbounded\"/><xs:element name=\"c\"/></xs:choice><xs:element name=\"d\" minOccurs=\"0\"/></xs:sequence></xs:complexType><xs:complexType name=\"c\"><xs:sequence><xs:element name=\"a\" type=\"nope\"/></xs:sequence></xs:complexType></xs:schema>")),
            Verdict::Invalid
        );
        assert_eq!(
            verdict(&format!(
                "{HEAD}<xs:element name=\"a\" type=\"xs:strin\"/></xs:schema>"
            )),
            Verdict::Invalid
        );
    }

    #[test]
    fn cycles_are_located_schema_errors() {
        let report = check_str(
            Path::new("t.xsd"),
            &format!("{HEAD}\n<xs:simpleType name=\"foo\"><xs:restriction base=\"foo\"/></xs:simpleType>\n<xs:element name=\"e\" type=\"foo\"/></xs:schema>"),
        );
        assert_eq!(report.verdict, Verdict::Invalid);
        let d = report
            .diagnostics
            .0
            .iter()
            .find(|d| d.message.contains("derived from itself"))
            .expect("the cycle is reported");
        assert_eq!((d.span.line, d.span.column), (2, 1));
        assert_eq!(d.message, "a simple type derived from itself: foo -> foo");
    }

    /// Every kind of cycle is an invalid schema, located at the cycle's first member (in
    /// name order), the cycle spelt out.
    #[test]
    fn every_kind_of_cycle_is_located() {
        let cases = [
            (
                "<xs:simpleType name=\"a\"><xs:list itemType=\"b\"/></xs:simpleType>\n<xs:simpleType name=\"b\"><xs:restriction base=\"a\"/></xs:simpleType>",
                "a simple type derived from itself: a -> b -> a",
            ),
            (
                "<xs:complexType name=\"a\"><xs:complexContent><xs:extension base=\"b\"/></xs:complexContent></xs:complexType>\n<xs:complexType name=\"b\"><xs:complexContent><xs:restriction base=\"a\"/></xs:complexContent></xs:complexType>",
                "a complex type derived from itself: a -> b -> a",
            ),
            (
                "<xs:group name=\"g\"><xs:sequence><xs:element name=\"x\" type=\"xs:string\"/><xs:choice><xs:group ref=\"g\"/></xs:choice></xs:sequence></xs:group>",
                "a model group that contains itself: g -> g",
            ),
            (
                "<xs:attributeGroup name=\"a\"><xs:attributeGroup ref=\"b\"/></xs:attributeGroup>\n<xs:attributeGroup name=\"b\"><xs:attributeGroup ref=\"a\"/></xs:attributeGroup>",
                "an attribute group that contains itself: a -> b -> a",
            ),
            (
                "<xs:element name=\"a\" type=\"xs:string\" substitutionGroup=\"b\"/>\n<xs:element name=\"b\" type=\"xs:string\" substitutionGroup=\"a\"/>",
                "a substitution group that contains itself: a -> b -> a",
            ),
        ];
        for (body, message) in cases {
            let report = check_str(Path::new("t.xsd"), &format!("{HEAD}\n{body}\n</xs:schema>"));
            assert_eq!(report.verdict, Verdict::Invalid, "{body}");
            let found: Vec<_> = report
                .diagnostics
                .0
                .iter()
                .filter(|d| d.message.contains("itself"))
                .collect();
            assert_eq!(found.len(), 1, "{body}: one report per cycle: {found:?}");
            assert_eq!(found[0].message, message);
            assert_eq!((found[0].span.line, found[0].span.column), (2, 1), "{body}");
        }
        // Recursion through an element declaration is no cycle.
        let ok = check_str(
            Path::new("t.xsd"),
            &format!("{HEAD}<xs:complexType name=\"t\"><xs:sequence><xs:element name=\"c\" type=\"t\" minOccurs=\"0\"/></xs:sequence></xs:complexType><xs:element name=\"r\" type=\"t\"/></xs:schema>"),
        );
        assert_eq!(ok.verdict, Verdict::Supported, "{}", ok.diagnostics);
    }
}
