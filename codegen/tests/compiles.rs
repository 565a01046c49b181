//! Every accepted schema produces code that compiles: the schemas of `tests/compile-cases`
//! (shapes that once generated code rustc refused: no global element, recursive types,
//! `totalDigits` on an unsigned base, XSD names that map to one Rust name, one local name
//! in two namespaces, letters and digits rustc lints as uncommon or confusable) are
//! generated,
//! and the modules compiled together against the runtime crate, in one `cargo check`
//! (type checking is where those failures were; no code generation is needed to find
//! them), under `deny(warnings)`.
//!
//! The package is written to a temporary folder; its target folder is shared between runs
//! (`target/codegen-compile`), so only the generated modules are checked again.

mod common;

use std::path::{Path, PathBuf};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Generates each schema and compiles all of them in one package; returns the modules'
/// sources by name (for the assertions of each case).
fn generate_and_compile(schemas: &[PathBuf]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for schema in schemas {
        let text = std::fs::read_to_string(schema).unwrap();
        let shown = Path::new("tests/compile-cases").join(schema.file_name().unwrap());
        let (file, code) =
            boardxml_codegen::generate_str(&shown, &text).unwrap_or_else(|d| panic!("{d}"));
        out.push((file.trim_end_matches(".rs").to_string(), code));
    }
    if let Err(e) = common::compile_modules(&out) {
        panic!("the generated code does not compile:\n{e}");
    }
    out
}

#[test]
fn every_compile_case_generates_code_that_compiles() {
    let dir = manifest().join("tests/compile-cases");
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "xsd"))
        .collect();
    schemas.sort();
    assert!(schemas.len() >= 4);
    let modules = generate_and_compile(&schemas);
    let code = |name: &str| {
        &modules
            .iter()
            .find(|(m, _)| m == name)
            .unwrap_or_else(|| panic!("no module {name}"))
            .1
    };
    // Recursion is broken by a box where a type would contain itself; a Vec needs none.
    let rec = code("recursive");
    assert!(rec.contains("Box<Node>"), "{rec}");
    assert!(rec.contains("Box<Expr>"), "{rec}");
    assert!(rec.contains("Vec<Node>"), "{rec}");
    // Names that clash get deterministic suffixes, in XSD name order.
    // A value listed twice is one variant.
    let dup = code("duplicate_enumeration");
    assert_eq!(dup.matches("/// `a`").count(), 1, "{dup}");
    assert_eq!(dup.matches("/// `1`").count(), 1, "{dup}");
    assert!(!dup.contains("/// `01`"), "{dup}");
    let clash = code("name_clash");
    for name in [
        "pub struct FooBar(",
        "pub struct FooBar2(",
        "pub struct FooBar3(",
    ] {
        assert!(clash.contains(name), "{name}:\n{clash}");
    }
    // No global element: a document type without variants.
    assert!(code("no_global_element").contains("pub enum Root {}"));
    // One local name in two namespaces: two variants of a choice and of mixed content,
    // matched by their expanded names.
    // Compared with runs of white space as one space: prettyplease breaks a long macro
    // call's tokens over lines where it fits them.
    let ns = code("namespaced_collisions")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for text in [
        "Item(::std::string::String)",
        "Item2(i32)",
        "\"{urn:example:collide}item\"",
        "namespaces[\"ns1\" \"urn:example:collide\"]",
    ] {
        assert!(ns.contains(text), "{text}:\n{ns}");
    }
    assert_eq!(ns.matches("Item2(i32)").count(), 2, "{ns}");
}
