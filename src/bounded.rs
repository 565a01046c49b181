//! Reading a file someone else may have made hostile, with a limit: what a conformance round
//! trip wrote at `{out}` (or a case file of a suite someone else made), a schema document an
//! `xs:include` names, a catalog, may be a link to `/dev/zero`, a FIFO nobody writes, a
//! device, a sparse file of gigabytes. Only a regular file is read, checked on the opened
//! handle, up to a limit and a deadline; a file the user named on the command line may also
//! be a stream (a FIFO, `/dev/stdin`), still read up to the limit.
//!
//! Shared by the conformance runner and boardxml-codegen (schemas, catalogs), so that there
//! is one way to read such a file.

use std::fs::OpenOptions;
use std::io::{ErrorKind, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;
use std::time::Instant;

/// The largest document the conformance runner reads, 64 MiB: a case file, or what a round
/// trip wrote (the suite's documents are a few KiB; a faithful copy is about as large).
pub const MAX_DOCUMENT_BYTES: u64 = 64 << 20;

/// Why a document was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The deadline passed while reading.
    TimedOut,
    /// Anything else, said in a sentence that starts with the path.
    Failed(String),
}

/// Reads `path` if it is a regular file of at most `limit` bytes, before `deadline`.
/// `follow_links: false` refuses a symbolic link at `path` itself (`O_NOFOLLOW`); the file is
/// opened with `O_NONBLOCK`, so that a FIFO cannot block the open, and its type and size
/// are taken from the opened handle (`fstat`), so that nothing can swap it in between.
pub fn read_document(
    path: &Path,
    follow_links: bool,
    limit: u64,
    deadline: Option<Instant>,
) -> Result<Vec<u8>, ReadError> {
    let shown = path.display();
    let failed = |what: String| ReadError::Failed(format!("{shown} {what}"));
    let mut flags = rustix::fs::OFlags::NONBLOCK;
    if !follow_links {
        flags |= rustix::fs::OFlags::NOFOLLOW;
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(path)
        .map_err(|e| match e.kind() {
            ErrorKind::NotFound => failed("was not written".into()),
            _ if !follow_links
                && e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) =>
            {
                failed("is a symbolic link: not followed, only a regular file is read".into())
            }
            _ => failed(format!("cannot be opened: {e}")),
        })?;
    let meta = file
        .metadata()
        .map_err(|e| failed(format!("cannot be examined: {e}")))?;
    let kind = meta.file_type();
    if !kind.is_file() {
        let what = what_it_is(&kind);
        return Err(failed(format!("is not a regular file ({what})")));
    }
    if meta.len() > limit {
        return Err(failed(too_large(meta.len(), limit)));
    }
    read_limited(file, limit, deadline).map_err(|e| match e {
        ReadError::Failed(why) => failed(why),
        e => e,
    })
}

/// Reads a file the user named (on the command line): a regular file as [`read_document`]
/// does, or a stream (a FIFO, a character device such as `/dev/stdin`), opened as the user
/// asked (it may block until a writer comes) and read up to `limit` bytes: `/dev/zero` ends
/// with an error, not with memory exhausted. A folder is refused.
pub fn read_named(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let shown = path.display();
    let failed = |what: String| ReadError::Failed(format!("{shown} {what}"));
    let file = std::fs::File::open(path).map_err(|e| match e.kind() {
        ErrorKind::NotFound => failed("does not exist".into()),
        _ => failed(format!("cannot be opened: {e}")),
    })?;
    let meta = file
        .metadata()
        .map_err(|e| failed(format!("cannot be examined: {e}")))?;
    if meta.is_dir() {
        return Err(failed("is not a regular file (a folder)".into()));
    }
    if meta.is_file() && meta.len() > limit {
        return Err(failed(too_large(meta.len(), limit)));
    }
    read_limited(file, limit, None).map_err(|e| match e {
        ReadError::Failed(why) => failed(why),
        e => e,
    })
}

/// Reads a stream (standard input, say) up to `limit` bytes; more is an error.
pub fn read_stream(stream: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_limited(stream, limit, None)
}

fn too_large(size: u64, limit: u64) -> String {
    format!(
        "is {size} bytes or more, more than the limit of {} MiB",
        limit >> 20
    )
}

/// Reads at most `limit` bytes; one more is an error (the text starts after the path).
fn read_limited(
    stream: impl Read,
    limit: u64,
    deadline: Option<Instant>,
) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    let mut reader = stream.take(limit + 1);
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(ReadError::TimedOut);
        }
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Failed(format!("cannot be read: {e}"))),
        }
    }
    if bytes.len() as u64 > limit {
        // A stream, or a file that grew while being read.
        return Err(ReadError::Failed(too_large(bytes.len() as u64, limit)));
    }
    Ok(bytes)
}

fn what_it_is(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}
