//! Generates Rust types and the quick-xml deserializer for the XSD 1.0 variant of cif.xsd
//! with xsd-parser 1.5.2, facets kept (USE_UNRESTRICTED_BASE_TYPE_SIMPLE off, so that
//! restricted simple types keep their pattern/enumeration/range checks). Two modules:
//!
//! - `cif_strict.rs`: the variant as it is (benches/schemas/cif-xsd10.xsd).
//! - `cif.rs`: the same with one workaround, because the generated deserializer rejects valid
//!   documents of the strict one (every text marker): for the union `MarkerContent`
//!   (Symbol | Character | EmptyContent) it matches the Symbol literals and then tries only
//!   the last member (EmptyContent), never Character; and it checks `xs:length` on strings
//!   with `String::len` (UTF-8 bytes, not characters), so "帅" is not one character. The
//!   workaround types the marker content `xs:string` with maxLength 10 instead: looser than
//!   the variant (any short text), everything else unchanged.

use std::path::PathBuf;

use xsd_parser::config::{GeneratorFlags, InterpreterFlags, OptimizerFlags, Schema};
use xsd_parser::{generate, Config, IdentType};

const UNION: &str = r#"<xs:union memberTypes="Symbol Character EmptyContent"/>"#;
const WORKAROUND: &str = r#"<xs:restriction base="xs:string"><xs:maxLength value="10"/></xs:restriction>"#;

fn main() {
    let xsd = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../schemas/cif-xsd10.xsd");
    println!("cargo:rerun-if-changed={}", xsd.display());
    println!("cargo:rerun-if-changed=build.rs");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let text = std::fs::read_to_string(&xsd).unwrap();
    assert!(text.contains(UNION), "cif-xsd10.xsd changed: update the workaround in build.rs");
    let loose = out_dir.join("cif-xsd10-peer.xsd");
    std::fs::write(&loose, text.replace(UNION, WORKAROUND)).unwrap();
    generate_module(&xsd.canonicalize().unwrap(), &out_dir.join("cif_strict.rs"));
    generate_module(&loose, &out_dir.join("cif.rs"));
}

fn generate_module(xsd: &std::path::Path, out: &std::path::Path) {
    let mut config = Config::default();
    config.parser.schemas = vec![Schema::File(xsd.to_path_buf())];
    config.interpreter.flags = InterpreterFlags::all();
    config.optimizer.flags = (OptimizerFlags::all() - OptimizerFlags::REMOVE_DUPLICATES)
        - OptimizerFlags::USE_UNRESTRICTED_BASE_TYPE_SIMPLE;
    let config = config
        .set_generator_flags(GeneratorFlags::FLATTEN_CONTENT | GeneratorFlags::MIXED_TYPE_SUPPORT)
        .with_quick_xml_deserialize()
        .with_generate([(IdentType::Element, "cif")]);
    let code = match generate(config) {
        Ok(code) => code,
        Err(e) => panic!("xsd-parser cannot generate code for {}: {e}\n{e:?}", xsd.display()),
    };
    let text = match syn::parse2::<syn::File>(code.clone()) {
        Ok(f) => prettyplease::unparse(&f),
        Err(_) => code.to_string(),
    };
    std::fs::write(out, text).unwrap();
}
