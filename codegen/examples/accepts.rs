//! Measuring aid (issue 14): reads schema paths from stdin, one a line, and prints for each
//! `ok PATH` when the generator accepts it, or `no PATH<TAB>FIRST-MESSAGE` when it reports
//! diagnostics. Output is flushed line by line so that a driver can tell which schema
//! brought the process down if one does (`scripts/xsts_accepts.py`). With
//! `ACCEPTS_OUT=DIR`, the code generated for the N-th accepted schema is written to
//! `DIR/mN.rs`, to compile a sample of them together.

use std::io::{BufRead, Write};
use std::path::Path;

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let keep = std::env::var_os("ACCEPTS_OUT").map(std::path::PathBuf::from);
    let mut accepted = 0usize;
    for line in stdin.lock().lines() {
        let Ok(path) = line else { break };
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(out, "no {path}\tcannot read: {e}");
                continue;
            }
        };
        match boardxml_codegen::generate_str(Path::new(&path), &text) {
            Ok((_, code)) => {
                if let Some(dir) = &keep {
                    let _ = std::fs::write(dir.join(format!("m{accepted}.rs")), code);
                }
                accepted += 1;
                let _ = writeln!(out, "ok {path}");
            }
            Err(d) => {
                let first =
                    d.0.first()
                        .map(|d| format!("{}: {}", d.construct, d.message))
                        .unwrap_or_default()
                        .replace(['\n', '\t'], " ");
                let _ = writeln!(out, "no {path}\t{first}");
            }
        }
        let _ = out.flush();
    }
}
