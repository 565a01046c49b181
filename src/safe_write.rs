//! Writing output files so that nothing is lost and no planted link is followed.
//!
//! A probe found the old way (a temporary `.NAME.PID.tmp` opened with `O_TRUNC`, then a
//! rename) turnable: anyone who could write the output folder could plant a link under
//! the predictable name and make a run overwrite a file of their choosing, and renaming
//! over `/dev/null` replaced the device with a regular file. Here:
//! - a regular file (or a new name) is written to a temporary file that the tempfile crate
//!   creates exclusively (`O_CREAT | O_EXCL`, so a planted name or link makes the creation
//!   fail and another random name is tried), in the same folder, then renamed over the
//!   target. A rename replaces a link at the target with the file; it never writes through
//!   it. The temporary file is removed on every error path (a full disk included);
//! - a character device or a FIFO at the target (`/dev/null`, `/dev/stdout`, a pipe) is
//!   written to directly, as a shell redirection would, and never replaced;
//! - `-` is standard output;
//! - a target that is one of the inputs (the same file, also through a hard or symbolic
//!   link) is refused: no input is ever overwritten;
//! - a directory, block device or socket at the target is refused, and so is a read-only
//!   file (no write permission for anyone): as root or as the folder's owner a rename
//!   would replace it all the same, and someone made it read-only to keep it.
//!
//! A run killed half-way (`kill -9`) leaves its temporary file behind. The name says whose
//! it is, `.NAME.boardxml.PID.RANDOM.tmp`: never mistaken for output (the folder walk
//! takes `.cbf`, `.cif` and `.xml` files only), and removed by the next run that writes
//! into the same folder once its process is gone.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// The files a run reads: none of them is ever written.
#[derive(Debug, Default, Clone)]
pub struct Inputs {
    /// Device and inode of each regular input: a hard link or a symbolic link to an input
    /// is the same file under another name.
    files: HashSet<(u64, u64)>,
}

impl Inputs {
    /// No inputs.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `path` (followed if it is a link). A path that does not exist is no input.
    pub fn add(&mut self, path: &Path) {
        if let Some(id) = file_id(path) {
            self.files.insert(id);
        }
    }

    /// Whether `path` (followed if it is a link) is one of the inputs.
    pub fn contains(&self, path: &Path) -> bool {
        file_id(path).is_some_and(|id| self.files.contains(&id))
    }
}

#[cfg(unix)]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    // No inode numbers: compare canonical paths through a hash of their text.
    use std::hash::{Hash, Hasher};
    let c = std::fs::canonicalize(path).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    c.hash(&mut h);
    Some((0, h.finish()))
}

/// Why an output was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The target is one of the inputs.
    #[error("{} is an input; inputs are never overwritten", .0.display())]
    IsInput(PathBuf),
    /// The target is something that cannot be written safely.
    #[error("{} is a {}; write to a regular file, a character device, a FIFO or - (standard output)", .0.display(), .1)]
    NotWritable(PathBuf, &'static str),
    /// Reading the target's folder, creating, writing or renaming failed.
    #[error("cannot write {}: {}", .0.display(), .1)]
    Io(PathBuf, #[source] io::Error),
}

/// The name that means standard output.
pub const STDOUT: &str = "-";

/// Writes `bytes` to `path` as this module describes.
pub fn write_file(path: &Path, bytes: &[u8], inputs: &Inputs) -> Result<(), WriteError> {
    write_with(path, inputs, |w| w.write_all(bytes))
}

/// Writes what `fill` writes to `path` as this module describes. An error from `fill`
/// leaves no temporary file and the target as it was.
pub fn write_with(
    path: &Path,
    inputs: &Inputs,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let io_error = |e| WriteError::Io(path.to_path_buf(), e);
    let Some(tmp) = stage(path, inputs, fill)? else {
        return Ok(());
    };
    tmp.as_file().sync_all().map_err(io_error)?;
    tmp.persist(path).map_err(|e| io_error(e.error))?;
    Ok(())
}

/// What [`write_with`] does up to the sync: checks the target, then either writes a
/// stream target (standard output, a device, a FIFO) in place and gives `None`, or fills
/// an exclusively created temporary file beside the target and gives it, flushed but not
/// synced. An error leaves no temporary file.
fn stage(
    path: &Path,
    inputs: &Inputs,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Option<tempfile::NamedTempFile>, WriteError> {
    if path.as_os_str() == STDOUT {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        return fill(&mut out)
            .and_then(|()| out.flush())
            .map(|()| None)
            .map_err(|e| WriteError::Io(PathBuf::from("standard output"), e));
    }
    let io_error = |e| WriteError::Io(path.to_path_buf(), e);
    if check_target(path, inputs)? == Kind::Stream {
        return write_stream(path, fill).map(|()| None).map_err(io_error);
    }
    let dir = folder_of(path);
    let name = path
        .file_name()
        .ok_or_else(|| WriteError::NotWritable(path.to_path_buf(), "folder"))?;
    remove_leftovers(dir);
    let mut builder = tempfile::Builder::new();
    let prefix = format!(
        ".{}.{TEMP_MARK}.{}.",
        name.to_string_lossy(),
        std::process::id()
    );
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
    // The new file gets the old one's permissions, or those a new file gets (0666 less the
    // umask: tempfile's own default is 0600, which would hide a record from its readers).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map_or(0o666, |m| m.permissions().mode() & 0o7777);
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(io_error)?;
    // On any error `tmp` is dropped, which removes the temporary file.
    fill(tmp.as_file_mut())
        .and_then(|()| tmp.as_file_mut().flush())
        .map_err(io_error)?;
    Ok(Some(tmp))
}

/// Refuses a target that is an input, read-only, a folder or another special file, and
/// tells a stream (written in place) from a file or new name (replaced by a rename).
fn check_target(path: &Path, inputs: &Inputs) -> Result<Kind, WriteError> {
    if inputs.contains(path) {
        return Err(WriteError::IsInput(path.to_path_buf()));
    }
    match std::fs::symlink_metadata(path) {
        Ok(meta) => match kind_of(&meta.file_type()) {
            Kind::Regular if is_read_only(&meta) => Err(WriteError::NotWritable(
                path.to_path_buf(),
                "read-only file",
            )),
            Kind::Other(what) => Err(WriteError::NotWritable(path.to_path_buf(), what)),
            kind => Ok(kind),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Kind::Regular),
        Err(e) => Err(WriteError::Io(path.to_path_buf(), e)),
    }
}

/// The folder a file of `path` is created in.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Many files written as one: each is staged as [`write_file`] stages it (checked, then
/// filled into an exclusively created temporary file beside its target), and
/// [`Batch::commit`] makes them durable together and renames each over its target.
///
/// Why: a sync per file waits for the disk once per file. Converting a library of 1,000
/// records to 1,000 files on an ext4 disk took 1.2-3.1 s that way, nearly all of it
/// waiting; one `syncfs(2)` per file system flushes every staged file in one journal
/// commit (it also flushes what other programs wrote to that file system, which costs
/// them nothing). Where `syncfs` is missing (not Linux) or fails, each file is synced.
/// A staged file holds no open descriptor, so a batch of any size stays within the
/// process's file limit. Dropping a batch without committing removes its temporary files.
pub struct Batch {
    staged: Mutex<Vec<(tempfile::TempPath, PathBuf)>>,
    inputs: Inputs,
}

impl Batch {
    /// A batch that never writes over one of `inputs`.
    pub fn new(inputs: &Inputs) -> Self {
        Batch {
            staged: Mutex::new(Vec::new()),
            inputs: inputs.clone(),
        }
    }

    /// Stages `bytes` for `path` (a stream target is written at once). Safe to call from
    /// several threads.
    pub fn write_file(&self, path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
        let Some(tmp) = stage(path, &self.inputs, |w| w.write_all(bytes))? else {
            return Ok(());
        };
        let tmp = tmp.into_temp_path();
        let mut staged = self.staged.lock().unwrap_or_else(|p| p.into_inner());
        staged.push((tmp, path.to_path_buf()));
        Ok(())
    }

    /// Syncs every staged file, then renames each over its target (each target checked
    /// again, as it may have changed since it was staged), then syncs their folders so that
    /// the renames last too. Gives the error of every file that could not be written; the
    /// others are written all the same.
    pub fn commit(self) -> Vec<WriteError> {
        let staged = self.staged.into_inner().unwrap_or_else(|p| p.into_inner());
        let mut errors = Vec::new();
        let mut folders: Vec<PathBuf> = staged
            .iter()
            .map(|(_, target)| folder_of(target).to_path_buf())
            .collect();
        folders.sort();
        folders.dedup();
        if !sync_file_systems(&folders) {
            let mut synced = Vec::with_capacity(staged.len());
            for (tmp, target) in staged {
                match File::open(&tmp).and_then(|f| f.sync_all()) {
                    Ok(()) => synced.push((tmp, target)),
                    Err(e) => errors.push(WriteError::Io(target, e)),
                }
            }
            return finish(synced, &folders, &self.inputs, errors);
        }
        finish(staged, &folders, &self.inputs, errors)
    }
}

/// Renames each synced temporary file over its target, then syncs the folders.
fn finish(
    synced: Vec<(tempfile::TempPath, PathBuf)>,
    folders: &[PathBuf],
    inputs: &Inputs,
    mut errors: Vec<WriteError>,
) -> Vec<WriteError> {
    for (tmp, target) in synced {
        match check_target(&target, inputs) {
            Ok(Kind::Stream) => errors.push(WriteError::Io(
                target,
                io::Error::other("it became a device or FIFO while the batch was written"),
            )),
            Ok(_) => {
                if let Err(e) = tmp.persist(&target) {
                    errors.push(WriteError::Io(target, e.error));
                }
            }
            Err(e) => errors.push(e),
        }
    }
    for folder in folders {
        // A folder cannot be opened for syncing on every platform; the files are synced.
        if let Ok(f) = File::open(folder) {
            let _ = f.sync_all();
        }
    }
    errors
}

/// One `syncfs` per file system holding one of `folders`; false if any could not be
/// synced so (then each file is synced instead).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn sync_file_systems(folders: &[PathBuf]) -> bool {
    use std::os::unix::fs::MetadataExt;
    let mut devices = HashSet::new();
    for folder in folders {
        let Ok(f) = File::open(folder) else {
            return false;
        };
        let Ok(meta) = f.metadata() else {
            return false;
        };
        if devices.insert(meta.dev()) && rustix::fs::syncfs(&f).is_err() {
            return false;
        }
    }
    true
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn sync_file_systems(_: &[PathBuf]) -> bool {
    false
}

/// No write bit at all: kept by its owner on purpose (mode bits, not access(2): root may
/// write anything).
#[cfg(unix)]
fn is_read_only(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o222 == 0
}

#[cfg(not(unix))]
fn is_read_only(meta: &std::fs::Metadata) -> bool {
    meta.permissions().readonly()
}

/// Creates `path` as a new file holding `bytes`, for writers that fill a new or private
/// folder (`conformance export`, the built-in suite): exclusively (`O_CREAT | O_EXCL`, so an
/// existing file or a planted link makes it fail and nothing is followed or written over);
/// a file left half-written by an error is removed.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .inspect_err(|_| {
            let _ = std::fs::remove_file(path);
        })
}

/// Appends `bytes` to `path`, creating it if needed: for files that others write to as well
/// and that must not be replaced (GitHub's `$GITHUB_STEP_SUMMARY`, which each step appends
/// to). Never through a link (`O_NOFOLLOW`); only a regular file, a character device or a
/// FIFO.
pub fn append(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    }
    let mut file = options.open(path)?;
    let kind = kind_of(&file.metadata()?.file_type());
    if !matches!(kind, Kind::Regular | Kind::Stream) {
        return Err(io::Error::other(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    file.write_all(bytes)?;
    file.flush()
}

/// An exclusive lock on a folder, held until dropped: for writers that fill one folder with
/// files that must agree with each other (a generated package), so that concurrent runs
/// into the same folder take turns instead of interleaving. It is `flock` on the folder
/// itself, so there is no lock file to plant or to leave behind, and the folder is opened
/// without following a link (`O_NOFOLLOW | O_DIRECTORY`). Elsewhere than on Unix it locks
/// nothing.
#[derive(Debug)]
pub struct FolderLock {
    _folder: Option<File>,
}

/// Takes [`FolderLock`] on `dir`, waiting for another holder to let go.
pub fn lock_folder(dir: &Path) -> io::Result<FolderLock> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let folder = OpenOptions::new()
            .read(true)
            .custom_flags(
                (rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::DIRECTORY).bits() as i32,
            )
            .open(dir)?;
        rustix::fs::flock(&folder, rustix::fs::FlockOperation::LockExclusive)?;
        Ok(FolderLock {
            _folder: Some(folder),
        })
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(FolderLock { _folder: None })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Regular,
    Link,
    /// A character device or FIFO: written to, never replaced.
    Stream,
    Other(&'static str),
}

fn kind_of(t: &std::fs::FileType) -> Kind {
    if t.is_file() {
        return Kind::Regular;
    }
    if t.is_symlink() {
        return Kind::Link;
    }
    if t.is_dir() {
        return Kind::Other("folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() || t.is_fifo() {
            return Kind::Stream;
        }
        if t.is_block_device() {
            return Kind::Other("block device");
        }
        if t.is_socket() {
            return Kind::Other("socket");
        }
    }
    Kind::Other("special file")
}

/// Writes to a character device or FIFO in place. Opened without creating or truncating
/// anything and without following a link (a link swapped in since it was looked at fails).
fn write_stream(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    }
    let mut file: File = options.open(path)?;
    fill(&mut file)?;
    file.flush()
}

/// The mark in the name of every temporary file this module makes.
const TEMP_MARK: &str = "boardxml";
const TEMP_SUFFIX: &str = ".tmp";

/// How old a leftover must be before it is removed: a live writer in another process
/// namespace (where its PID means nothing here) renames its file within moments.
const LEFTOVER_AGE: Duration = Duration::from_secs(60);

/// Removes, once per folder and run, the temporary files of runs that are gone: named
/// `.NAME.boardxml.PID.RANDOM.tmp`, a regular file (not a link), owned by this user, whose
/// PID no longer runs, older than a minute.
fn remove_leftovers(dir: &Path) {
    static CLEANED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    // The folder as given is looked up first: canonicalising costs a system call per path
    // component, and a library converted to 1,000 files names one folder 1,000 times.
    {
        let mut cleaned = CLEANED.lock().unwrap_or_else(|p| p.into_inner());
        let cleaned = cleaned.get_or_insert_with(HashSet::new);
        if cleaned.contains(dir) {
            return;
        }
        cleaned.insert(dir.to_path_buf());
    }
    let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    {
        let mut cleaned = CLEANED.lock().unwrap_or_else(|p| p.into_inner());
        if key != dir && !cleaned.get_or_insert_with(HashSet::new).insert(key) {
            return;
        }
    }
    let Some(uid) = own_uid() else { return };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(leftover_pid) else {
            continue;
        };
        if pid == std::process::id() || is_running(pid) {
            continue;
        }
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age >= LEFTOVER_AGE);
        if meta.file_type().is_file() && owner(&meta) == Some(uid) && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The PID in a temporary file name of this module's, if `name` is one.
fn leftover_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(TEMP_SUFFIX)?;
    // `.NAME.boardxml.PID.RANDOM.tmp`: NAME may itself hold dots, RANDOM does not.
    let (head, random) = rest.rsplit_once('.')?;
    let (head, pid) = head.rsplit_once('.')?;
    let (_, mark) = head.rsplit_once('.')?;
    (mark == TEMP_MARK && !random.is_empty() && random.bytes().all(|b| b.is_ascii_alphanumeric()))
        .then(|| pid.parse().ok())
        .flatten()
}

#[cfg(unix)]
fn own_uid() -> Option<u32> {
    Some(rustix::process::getuid().as_raw())
}

/// Whether a process `pid` exists (signal 0: ESRCH means it does not; EPERM means it
/// does, as someone else's).
#[cfg(unix)]
fn is_running(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return true;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

#[cfg(not(unix))]
fn is_running(_: u32) -> bool {
    true
}

#[cfg(not(unix))]
fn own_uid() -> Option<u32> {
    None
}

#[cfg(unix)]
fn owner(meta: &std::fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    Some(meta.uid())
}

#[cfg(not(unix))]
fn owner(_: &std::fs::Metadata) -> Option<u32> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftover_names_are_recognised() {
        assert_eq!(leftover_pid(".r.cbf.boardxml.123.AbC9x1.tmp"), Some(123));
        assert_eq!(leftover_pid(".a.b.c.boardxml.7.zz.tmp"), Some(7));
        assert_eq!(leftover_pid(".r.cbf.123.tmp"), None);
        assert_eq!(leftover_pid(".r.cbf.boardxml.x.AbC.tmp"), None);
        assert_eq!(leftover_pid("r.cbf.boardxml.1.AbC.tmp"), None);
        assert_eq!(leftover_pid(".r.cbf.other.1.AbC.tmp"), None);
    }
}
