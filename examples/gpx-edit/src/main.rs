//! Reads a GPX file with types generated from GPX 1.1's schema in build.rs, renames its
//! first waypoint, writes it to a new file (safely) and reads that back.
#![recursion_limit = "512"]

#[allow(missing_docs, clippy::all)]
mod gpx {
    include!(concat!(env!("OUT_DIR"), "/gpx.rs"));
}

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, name] = &args[..] else {
        eprintln!("usage: gpx-edit INPUT.gpx OUTPUT.gpx NEW-NAME");
        return ExitCode::from(2);
    };
    match edit(input, output, name) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn edit(input: &str, output: &str, name: &str) -> Result<(), boardxml::Error> {
    let mut doc = boardxml::read_file::<gpx::Root>(input)?;
    let gpx::Root::Gpx(g) = &mut doc.document;
    if let Some(first) = g.wpt.first_mut() {
        first.name = Some(name.to_string());
    }
    boardxml::write_file(output, &doc)?;
    let again = boardxml::read_file::<gpx::Root>(output)?;
    let gpx::Root::Gpx(g) = &again.document;
    println!(
        "{output}: {} waypoints, the first named {:?}",
        g.wpt.len(),
        g.wpt.first().and_then(|w| w.name.clone())
    );
    Ok(())
}
