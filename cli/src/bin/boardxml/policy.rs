//! `validate`'s policy flags: `--exclude GLOB` (gitignore semantics, by the ignore crate),
//! `--allow CODE` and `--deny-warnings`.

use std::path::Path;

use boardxml::diagnostic::Code;
use boardxml::report::run::Policy;
use boardxml_formats::codes::CATALOG;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// The paths left out of a run: `--exclude` patterns, read as lines of a `.gitignore` in
/// `root` (the current folder): `*.xml` anywhere, `vendor/` a folder and all below it,
/// `/build` anchored at the root, `!keep.xml` taken back in, `**` across folders.
pub struct Exclude(Option<Gitignore>);

impl Exclude {
    /// The matcher of `patterns`, or what is wrong with one.
    pub fn new(root: &Path, patterns: &[String]) -> Result<Exclude, String> {
        if patterns.is_empty() {
            return Ok(Exclude(None));
        }
        let mut builder = GitignoreBuilder::new(root);
        for p in patterns {
            builder
                .add_line(None, p)
                .map_err(|e| format!("--exclude {p:?}: {e}"))?;
        }
        builder
            .build()
            .map(|g| Exclude(Some(g)))
            .map_err(|e| format!("--exclude: {e}"))
    }

    /// Whether `path` (a file, or a folder with `is_dir`), or a folder it is in, is left out.
    pub fn excludes(&self, path: &Path, is_dir: bool) -> bool {
        let Some(g) = &self.0 else {
            return false;
        };
        // Made relative to the root where it lies under it (gitignore's own rule for
        // absolute paths); `./` is dropped.
        let path = path.strip_prefix(".").unwrap_or(path);
        let path = path.strip_prefix(g.path()).unwrap_or(path);
        if path.is_absolute() || path.starts_with("..") {
            // Outside the root: the patterns still apply to its name, as `git` would
            // apply them had the root been the file's own folder.
            let name = Path::new(path.file_name().unwrap_or_default());
            return g.matched(name, is_dir).is_ignore();
        }
        g.matched_path_or_any_parents(path, is_dir).is_ignore()
    }
}

/// The policy of `--deny-warnings` and `--allow CODE...` (a code as `E0210` or by its
/// name, `pattern`), or what is wrong with an `--allow`.
pub fn policy(deny_warnings: bool, allow: &[String]) -> Result<Policy, String> {
    let mut policy = Policy {
        deny_warnings,
        ..Policy::default()
    };
    for a in allow {
        match CATALOG.parse(a) {
            Some(Code::IO) => {
                return Err(format!(
                    "--allow {a}: a path that cannot be read always fails the run (exit 2)"
                ))
            }
            Some(code) => {
                policy.allow.insert(code);
            }
            None => {
                return Err(format!(
                    "--allow {a}: not a diagnostic code (E0210 or its name, pattern; the table: docs/errors.md)"
                ))
            }
        }
    }
    Ok(policy)
}
