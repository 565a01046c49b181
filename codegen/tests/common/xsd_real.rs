//! The real-world schema sets of `../shared/xsd-real` (its README.md and manifest.tsv):
//! the manifest's rows and a set's catalog, for the tests that judge the sets' documents
//! (`tests/xsd_real.rs`) and the benchmarks' documents built from them
//! (`tests/bench_inputs.rs`).

use std::collections::BTreeMap;
use std::path::Path;

/// A manifest row: a document of a set, its expected verdict and the set's catalog.
#[derive(Debug)]
pub struct Row {
    /// The document, relative to the manifest's folder.
    pub document: String,
    /// Whether the document is expected valid.
    pub valid: bool,
    /// `(URL, path)` pairs: imports whose schemaLocation is an http(s) URL, and their copy
    /// (relative to the manifest's folder).
    pub catalog: Vec<(String, String)>,
}

/// The manifest's rows, by `(SET, MAIN)` (the set and its main schema's path).
pub fn manifest(root: &Path) -> BTreeMap<(String, String), Vec<Row>> {
    let text = std::fs::read_to_string(root.join("manifest.tsv")).expect("manifest.tsv");
    let mut sets: BTreeMap<(String, String), Vec<Row>> = BTreeMap::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f.len() >= 5, "a manifest row of 6 columns: {line:?}");
        let catalog = f
            .get(5)
            .unwrap_or(&"")
            .split(';')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (url, path) = p.split_once('=').expect("URL=path");
                (url.to_string(), path.to_string())
            })
            .collect();
        assert!(matches!(f[3], "valid" | "invalid"), "{line:?}");
        sets.entry((f[0].to_string(), f[1].to_string()))
            .or_default()
            .push(Row {
                document: f[2].to_string(),
                valid: f[3] == "valid",
                catalog,
            });
    }
    sets
}

/// An OASIS XML Catalog of the manifest's `URL=path` pairs (paths relative to `root`).
pub fn write_catalog(path: &Path, root: &Path, pairs: &[(String, String)]) {
    let mut xml = String::from("<catalog xmlns=\"urn:oasis:names:tc:entity:xmlns:xml:catalog\">\n");
    for (url, file) in pairs {
        let file = root.join(file);
        xml.push_str(&format!(
            "  <system systemId=\"{url}\" uri=\"{}\"/>\n  <uri name=\"{url}\" uri=\"{}\"/>\n",
            file.display(),
            file.display()
        ));
    }
    xml.push_str("</catalog>\n");
    std::fs::write(path, xml).expect("the catalog");
}
