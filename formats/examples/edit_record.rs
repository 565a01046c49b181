//! Reads a CBF record, changes the Red player, and writes it back in its own encoding.
//!
//! ```sh
//! cargo run --example edit_record -- examples/valid/short-game-2007.cbf /tmp/renamed.cbf 许银川
//! ```
//!
//! A record with problems is not written: every diagnostic is printed, as `boardxml
//! validate` prints them, and the exit code is 1.

use std::process::ExitCode;

use boardxml_formats::cbf;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, red] = args.as_slice() else {
        eprintln!("usage: edit_record INPUT.cbf OUTPUT.cbf RED-PLAYER");
        return ExitCode::from(2);
    };
    let mut record = match cbf::read_file(input) {
        Ok(record) => record,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let previous = match &mut record.document {
        cbf::Document::V2007(r) => r.head.red.replace(red.clone()),
        cbf::Document::V1_0(r) => r.head.red.replace(red.clone()),
    };
    if let Err(e) = cbf::write_file(output, &record) {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    println!(
        "{input} -> {output}: Red {} -> {red} ({}, {})",
        previous.as_deref().unwrap_or("(none)"),
        match record.document.dialect() {
            cbf::Dialect::V2007 => "CBF 2007",
            cbf::Dialect::V1_0 => "CBF 1.0",
        },
        record.encoding.name()
    );
    ExitCode::SUCCESS
}
