//! Safe writes (issue 13): `safe_write::write_file` to arbitrary output names inside a
//! scratch folder full of traps — links to victim files outside it (under plain names and
//! under the temporary-file names of old and new code), a FIFO, a read-only file, a
//! sub-folder, an input — must never change a victim, an input or a read-only file, never
//! replace a FIFO, and never leave a temporary file behind.
#![no_main]

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use boardxml::safe_write::{write_file, Inputs};
use libfuzzer_sys::fuzz_target;

struct Scratch {
    _root: tempfile::TempDir,
    dir: PathBuf,
    victims: Vec<(PathBuf, Vec<u8>)>,
    kept: Vec<(PathBuf, Vec<u8>)>,
    fifo: PathBuf,
    /// Kept open for reading so that a write to the FIFO never blocks; drained each run.
    fifo_reader: std::fs::File,
    inputs: Inputs,
    /// Every planted link (its name in the scratch folder, its target): planted again after
    /// a run that replaced it, so that each run meets every trap.
    links: Vec<(PathBuf, PathBuf)>,
}

const NAMES: &[&str] = &[
    "out.svg",
    "link-to-victim",
    "input.cif",
    "hard-input.cif",
    "soft-input.cif",
    "readonly.cbf",
    "pipe",
    "sub",
    "sub/inner.svg",
    ".out.svg.1.tmp",
    "-",
];

fn scratch() -> &'static std::sync::Mutex<Scratch> {
    static S: OnceLock<std::sync::Mutex<Scratch>> = OnceLock::new();
    S.get_or_init(|| {
        let root = tempfile::tempdir().expect("a scratch folder");
        let outside = root.path().join("outside");
        let dir = root.path().join("scratch");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let mut victims = Vec::new();
        for i in 0..3 {
            let v = outside.join(format!("victim{i}"));
            let content = format!("victim {i}").into_bytes();
            std::fs::write(&v, &content).unwrap();
            victims.push((v, content));
        }
        let mut links = Vec::new();
        let mut link = |name: &str, to: &Path| {
            std::os::unix::fs::symlink(to, dir.join(name)).unwrap();
            links.push((dir.join(name), to.to_path_buf()));
        };
        link("link-to-victim", &victims[0].0);
        link("sub/inner.svg", &victims[1].0);
        // The names the old code used (`.NAME.PID.tmp`) and the new code's prefix.
        let pid = std::process::id();
        for name in ["out.svg", "x", "link-to-victim", "readonly.cbf"] {
            link(&format!(".{name}.{pid}.tmp"), &victims[2].0);
            link(&format!(".{name}.boardxml.{pid}.tmp"), &victims[2].0);
        }
        let input = dir.join("input.cif");
        std::fs::write(&input, "<cif/>").unwrap();
        std::fs::hard_link(&input, dir.join("hard-input.cif")).unwrap();
        link("soft-input.cif", &input);
        let mut inputs = Inputs::new();
        inputs.add(&input);
        let readonly = dir.join("readonly.cbf");
        std::fs::write(&readonly, "read only").unwrap();
        std::fs::set_permissions(&readonly, std::fs::Permissions::from_mode(0o444)).unwrap();
        let kept = vec![
            (input, b"<cif/>".to_vec()),
            (readonly, b"read only".to_vec()),
        ];
        let fifo = dir.join("pipe");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let fifo_reader = {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
                .open(&fifo)
                .unwrap()
        };
        std::sync::Mutex::new(Scratch {
            _root: root,
            dir,
            victims,
            kept,
            fifo,
            fifo_reader,
            inputs,
            links,
        })
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let s = scratch().lock().unwrap_or_else(|p| p.into_inner());
    // A name from the traps, or one made of the input (one path component: outputs are
    // placed in a folder, never above it).
    let (name, bytes) = if pick & 0x80 == 0 {
        (NAMES[pick as usize % NAMES.len()].to_string(), rest)
    } else {
        let (n, b) = rest.split_at(rest.len().min((pick & 0x0f) as usize + 1));
        let name: String = String::from_utf8_lossy(n)
            .chars()
            .filter(|c| *c != '/' && *c != '\0')
            .collect();
        if name.is_empty() || name == "." || name == ".." {
            return;
        }
        (name, b)
    };
    if name == "-" {
        return; // standard output is the fuzzer's own
    }
    let bytes = &bytes[..bytes.len().min(4096)];
    let path = s.dir.join(&name);
    let _ = write_file(&path, bytes, &s.inputs);

    for (v, content) in s.victims.iter().chain(&s.kept) {
        assert_eq!(
            &std::fs::read(v).unwrap(),
            content,
            "{} changed",
            v.display()
        );
    }
    assert!(
        std::fs::symlink_metadata(&s.fifo)
            .unwrap()
            .file_type()
            .is_fifo(),
        "the FIFO was replaced"
    );
    let mut drained = Vec::new();
    let _ = std::io::Read::read_to_end(&mut (&s.fifo_reader), &mut drained);
    for e in std::fs::read_dir(&s.dir).unwrap().flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let is_ours = n.contains(".boardxml.") && n.ends_with(".tmp");
        let is_planted = e.file_type().unwrap().is_symlink();
        assert!(!is_ours || is_planted, "temporary file left behind: {n}");
    }
    // Outputs that were written are removed again, so the traps stay as they were.
    let meta = std::fs::symlink_metadata(&path);
    if meta.is_ok_and(|m| m.is_file()) && !NAMES.contains(&name.as_str()) {
        let _ = std::fs::remove_file(&path);
    }
    if name == "out.svg" {
        let _ = std::fs::remove_file(&path);
    }
    for (at, to) in &s.links {
        if !std::fs::symlink_metadata(at).is_ok_and(|m| m.file_type().is_symlink()) {
            let _ = std::fs::remove_file(at);
            std::os::unix::fs::symlink(to, at).unwrap();
        }
    }
});
