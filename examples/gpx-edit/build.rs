// GPX 1.1's types, generated from the schema shipped beside this crate.
fn main() {
    boardxml_codegen::Config::new()
        .type_attribute("wptType", "#[doc(alias = \"waypoint\")]")
        .compile(&["schemas/gpx.xsd"])
        .unwrap_or_else(|e| panic!("{e}"));
}
