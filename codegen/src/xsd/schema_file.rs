//! Reading one schema document or catalog file, bounded: shared by composition and the
//! catalog reader (which composition uses), so neither imports the other for it.

use std::path::Path;

/// The largest schema document or catalog read, 64 MiB (the largest real schema in the
/// corpus is a few MiB): more is an error, not memory exhausted.
pub const MAX_SCHEMA_BYTES: u64 = 64 << 20;

/// The bytes of a schema document or catalog, at most [`MAX_SCHEMA_BYTES`]: a regular file,
/// or when the user `named` it (on the command line), also a stream. The error says why
/// without the path (the caller names it).
pub(crate) fn read_bounded(path: &Path, named: bool) -> Result<Vec<u8>, String> {
    let read = if named {
        boardxml::bounded::read_named(path, MAX_SCHEMA_BYTES)
    } else {
        boardxml::bounded::read_document(path, true, MAX_SCHEMA_BYTES, None)
    };
    read.map_err(|e| match e {
        boardxml::bounded::ReadError::Failed(why) => {
            let shown = path.display().to_string();
            why.strip_prefix(&shown)
                .map_or(why.clone(), |w| w.trim_start().to_string())
        }
        boardxml::bounded::ReadError::TimedOut => "timed out".to_string(),
    })
}
