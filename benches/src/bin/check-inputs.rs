//! Judges generated CIF and CBF inputs as `boardxml validate` does (boardxml_formats' full
//! validation, the rules included): each FILE given, and each `.cif` and `.cbf` file under
//! each FOLDER given. Prints `N files valid` and exits 0, or names each invalid file with
//! its first diagnostic and exits 1 (2 when an argument cannot be read).
//!
//! usage: check-inputs FILE|FOLDER...

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use boardxml_formats::validate::{validate_file, Options};

fn main() -> ExitCode {
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        if let Err(e) = collect(Path::new(&arg), &mut files) {
            eprintln!("check-inputs: cannot read {arg}: {e}");
            return ExitCode::from(2);
        }
    }
    if files.is_empty() {
        eprintln!("usage: check-inputs FILE|FOLDER...  (no .cif or .cbf file found)");
        return ExitCode::from(2);
    }
    let options = Options::default();
    let mut invalid = 0;
    for file in &files {
        let validated = validate_file(file, &options);
        if !validated.is_valid() {
            invalid += 1;
            let first = validated
                .diagnostics
                .first()
                .map(|d| format!("{} {}", d.code, d.message))
                .unwrap_or_default();
            eprintln!("{}: invalid: {first}", file.display());
        }
    }
    if invalid > 0 {
        eprintln!("{invalid} of {} files invalid", files.len());
        return ExitCode::from(1);
    }
    println!("{} files valid", files.len());
    ExitCode::SUCCESS
}

/// `path` itself, or the `.cif` and `.cbf` files under it (folders walked with a stack of
/// their own, not by recursion), each folder's entries in name order.
fn collect(path: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !path.is_dir() {
        std::fs::metadata(path)?;
        files.push(path.to_path_buf());
        return Ok(());
    }
    let mut folders = vec![path.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&folder)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        // Pushed in reverse: the first sub-folder is walked first.
        for entry in entries.iter().rev().filter(|e| e.is_dir()) {
            folders.push(entry.clone());
        }
        files.extend(entries.into_iter().filter(|e| {
            !e.is_dir() && matches!(e.extension().and_then(|x| x.to_str()), Some("cif" | "cbf"))
        }));
    }
    Ok(())
}
