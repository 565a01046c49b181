//! The conformance suite as built into the binary (by `build.rs`, from `conformance/`), so
//! that `boardxml conformance run` and `export` need no checkout.

use std::path::{Component, Path};

use super::{load, Suite};

include!(concat!(env!("OUT_DIR"), "/conformance_suite.rs"));

/// The number of files built in (0 in a build without the suite).
pub fn file_count() -> usize {
    FILES.len()
}

/// Writes the built-in suite to a new private temporary folder and loads it from there
/// (implementations under test read real files). The folder is removed when the returned
/// [`tempfile::TempDir`] is dropped: keep it as long as the suite is used.
pub fn materialise() -> Result<(tempfile::TempDir, Suite), String> {
    if FILES.is_empty() {
        return Err(
            "this boardxml was built without its conformance suite: give --suite DIR".into(),
        );
    }
    let dir = tempfile::Builder::new()
        .prefix("boardxml-conformance.")
        .tempdir()
        .map_err(|e| format!("a temporary folder for the built-in suite: {e}"))?;
    for (name, bytes) in FILES {
        let relative = Path::new(name);
        // Names come from build.rs's walk of the suite: relative, inside, never `..`.
        if !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
        {
            return Err(format!("built-in suite: bad file name {name:?}"));
        }
        let to = dir.path().join(relative);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        boardxml::safe_write::write_new(&to, bytes)
            .map_err(|e| format!("{}: {e}", to.display()))?;
    }
    let suite = load(dir.path())?;
    Ok((dir, suite))
}
