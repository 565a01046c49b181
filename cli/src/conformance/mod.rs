//! The conformance suite (`conformance/` at the repository root): documents with their
//! expected verdict and error codes, and runners that hold an implementation to them.
//!
//! - [`load`] reads a suite and checks its manifest;
//! - [`run_boardxml`] runs this crate's validator (verdict and the exact set of codes);
//! - [`run_external`] runs another implementation per case (`COMMAND {file}`; verdict = exit
//!   code), in parallel, reporting crashes and hangs instead of suffering them;
//! - [`run_roundtrip`] has another implementation read and write every valid case and
//!   compares the output with the original at the level of the data model;
//! - [`render`] writes results for people (`human`), programs (`json`) or CI (`junit`);
//! - [`export`] copies the suite and its manifest somewhere else.
//!
//! Everything returns data: the CLI (`boardxml conformance ...`) only parses its arguments,
//! calls these, prints [`render`]'s output and turns [`Summary::is_success`] into an exit code.

use boardxml::bounded;
mod diff;
pub mod embedded;
mod process;
mod report;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use boardxml::diagnostic::Severity;
use boardxml_formats::document::Format;
use boardxml_formats::validate::{validate_bytes, Options};

pub use bounded::MAX_DOCUMENT_BYTES;
pub use diff::document_differences;
pub use report::{render, ReportFormat, Summary};

/// The file that describes a suite, in its folder.
pub const MANIFEST: &str = "manifest.json";

/// The manifest version this module reads.
pub const MANIFEST_VERSION: u32 = 1;

/// A document's verdict: what an implementation must say about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The document is valid (warnings allowed).
    Valid,
    /// The document has at least one error.
    Invalid,
}

impl Verdict {
    /// `valid` or `invalid`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
        }
    }
}

/// The format family of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseFormat {
    /// A CIF marker document.
    Cif,
    /// A CBF record (see [`Dialect`]).
    Cbf,
}

/// The CBF dialect of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dialect {
    /// The 2007 announcement (nid, Board strings).
    #[serde(rename = "cbf-2007")]
    Cbf2007,
    /// What XiangQi Bridge 3 writes (`Version="1.0"`).
    #[serde(rename = "cbf-1.0")]
    Cbf10,
}

/// One document of the suite and what it must give.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Unique, stable name.
    pub id: String,
    /// The document, relative to the suite's folder, with `/` separators.
    pub file: String,
    /// CIF or CBF.
    pub format: CaseFormat,
    /// The CBF dialect; `null` for CIF.
    pub dialect: Option<Dialect>,
    /// How the file is encoded (`utf-8`, `gbk`, `gb18030`, `utf-16le`, `utf-16be`), for
    /// counting; the document itself says it to a reader.
    pub encoding: String,
    /// The verdict.
    pub verdict: Verdict,
    /// The exact set of error codes (empty for a valid case).
    pub codes: BTreeSet<String>,
    /// The exact set of warning codes, when the case is about warnings; otherwise warnings
    /// are not compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<BTreeSet<String>>,
    /// One line: what the document does.
    pub description: String,
    /// The rule it tests: a SPEC.md rule (`SPEC: ...`) or a schema construct (`cif.xsd: ...`).
    pub rule: String,
    /// For an invalid case: the id of the valid case it differs from least.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbour: Option<String>,
    /// Where boardxml is known to disagree with the expectation: why (a bug to fix).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known_failure: Option<String>,
}

impl Case {
    /// The format and dialect as boardxml names them.
    pub fn validate_format(&self) -> Format {
        match (self.format, self.dialect) {
            (CaseFormat::Cif, _) => Format::Cif,
            (CaseFormat::Cbf, Some(Dialect::Cbf2007)) => Format::Cbf2007,
            (CaseFormat::Cbf, _) => Format::Cbf10,
        }
    }
}

/// The manifest: the cases and what they cover.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The suite's name (JUnit's testsuite name).
    pub suite: String,
    /// [`MANIFEST_VERSION`].
    pub version: u32,
    /// The SPEC.md rules the suite covers, by the name cases give in `rule`, with a summary.
    #[serde(default)]
    pub spec_rules: BTreeMap<String, String>,
    /// Diagnostic codes no document can cause, with the reason.
    #[serde(default)]
    pub uncovered_codes: BTreeMap<String, String>,
    /// The cases, in a stable order.
    pub cases: Vec<Case>,
}

/// A loaded suite: its folder and its manifest.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The folder the manifest's file names are relative to.
    pub dir: PathBuf,
    /// The manifest.
    pub manifest: Manifest,
}

impl Suite {
    /// The cases.
    pub fn cases(&self) -> &[Case] {
        &self.manifest.cases
    }

    /// The file of `case` on disk.
    pub fn path_of(&self, case: &Case) -> PathBuf {
        self.dir.join(&case.file)
    }

    /// The case with this id.
    pub fn case(&self, id: &str) -> Option<&Case> {
        self.manifest.cases.iter().find(|c| c.id == id)
    }
}

/// Reads `dir/manifest.json` and checks it: unique ids, files that exist inside the suite,
/// a dialect exactly for CBF, codes that exist, no codes on a valid case and some on an
/// invalid one, neighbours that are valid cases. Every problem is reported, one a line.
pub fn load(dir: &Path) -> Result<Suite, String> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest: Manifest =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if manifest.version != MANIFEST_VERSION {
        return Err(format!(
            "{}: manifest version {}, this boardxml reads version {MANIFEST_VERSION}",
            path.display(),
            manifest.version
        ));
    }
    let known: HashSet<&str> = boardxml_formats::codes::CATALOG
        .codes()
        .map(|c| c.as_str())
        .collect();
    let mut problems = Vec::new();
    let mut ids = HashSet::new();
    for case in &manifest.cases {
        let id = &case.id;
        if id.is_empty() || !ids.insert(id.as_str()) {
            problems.push(format!("case {id:?}: empty or duplicate id"));
        }
        if !is_inside(&case.file) {
            problems.push(format!(
                "case {id}: file {:?} must be a relative path inside the suite",
                case.file
            ));
        } else if !dir.join(&case.file).is_file() {
            problems.push(format!("case {id}: file {} does not exist", case.file));
        }
        if (case.format == CaseFormat::Cbf) != case.dialect.is_some() {
            problems.push(format!(
                "case {id}: a CBF case needs a dialect, a CIF case has none"
            ));
        }
        match (case.verdict, case.codes.is_empty()) {
            (Verdict::Valid, false) => {
                problems.push(format!("case {id}: a valid case lists error codes"))
            }
            (Verdict::Invalid, true) => {
                problems.push(format!("case {id}: an invalid case lists no error code"))
            }
            _ => {}
        }
        for code in case.codes.iter().chain(case.warnings.iter().flatten()) {
            if !known.contains(code.as_str()) {
                problems.push(format!("case {id}: unknown code {code}"));
            }
        }
        if case.description.trim().is_empty() || case.description.contains('\n') {
            problems.push(format!("case {id}: the description must be one line"));
        }
        if case.rule.trim().is_empty() {
            problems.push(format!("case {id}: no rule"));
        }
    }
    for case in &manifest.cases {
        if let Some(n) = &case.neighbour {
            match manifest.cases.iter().find(|c| &c.id == n) {
                Some(c) if c.verdict == Verdict::Valid => {}
                _ => problems.push(format!(
                    "case {}: neighbour {n} is not a valid case of the suite",
                    case.id
                )),
            }
        }
    }
    if problems.is_empty() {
        Ok(Suite {
            dir: dir.to_owned(),
            manifest,
        })
    } else {
        Err(format!("{}:\n{}", path.display(), problems.join("\n")))
    }
}

/// A relative path that stays inside the folder it is relative to.
fn is_inside(file: &str) -> bool {
    let p = Path::new(file);
    !file.is_empty()
        && p.components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Writes the suite to `dir`: every case file at its place and the manifest, plus the
/// suite's README.md if it has one, so that the suite can be used without boardxml. Returns
/// the number of cases written.
///
/// `dir` must be missing (it is created, with its parents) or an empty folder, and must not
/// overlap the suite: not the suite's folder by any name, not inside it, not around it
/// (canonical paths are compared, so links and `..` do not hide it). Every file is created
/// new (`create_new`): nothing that is there is written over, an input least of all, and a
/// symbolic link planted in the target is refused, never followed.
pub fn export(suite: &Suite, dir: &Path) -> Result<usize, String> {
    let fail = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    let source = suite.dir.canonicalize().map_err(|e| fail(&suite.dir, e))?;
    let target = resolve(dir).map_err(|e| fail(dir, e))?;
    if target.starts_with(&source) || source.starts_with(&target) {
        return Err(format!(
            "cannot export the suite {} to {}: the target and the suite overlap ({} and {}); \
             export to a folder outside the suite",
            suite.dir.display(),
            dir.display(),
            source.display(),
            target.display()
        ));
    }
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| fail(parent, e))?;
            }
            std::fs::create_dir(dir).map_err(|e| fail(dir, e))?;
        }
        Err(e) => return Err(fail(dir, e)),
        Ok(_) => {
            let mut entries = std::fs::read_dir(dir).map_err(|e| fail(dir, e))?;
            if entries.next().is_some() {
                return Err(format!(
                    "{}: the folder is not empty; export writes to a new or empty folder",
                    dir.display()
                ));
            }
        }
    }
    let write_new = |to: &Path, bytes: &[u8]| -> Result<(), String> {
        boardxml::safe_write::write_new(to, bytes).map_err(|e| fail(to, e))
    };
    for case in suite.cases() {
        // The manifest's file names are relative and stay inside (see `load`).
        let mut to = dir.to_path_buf();
        let mut parts = Path::new(&case.file).components().peekable();
        while let Some(part) = parts.next() {
            to.push(part);
            if parts.peek().is_some() {
                new_dir(&to).map_err(|e| fail(&to, e))?;
            }
        }
        let from = suite.path_of(case);
        let bytes = std::fs::read(&from).map_err(|e| fail(&from, e))?;
        write_new(&to, &bytes)?;
    }
    let readme = suite.dir.join("README.md");
    if readme.is_file() {
        let bytes = std::fs::read(&readme).map_err(|e| fail(&readme, e))?;
        write_new(&dir.join("README.md"), &bytes)?;
    }
    let mut json = serde_json::to_string_pretty(&suite.manifest).map_err(|e| e.to_string())?;
    json.push('\n');
    write_new(&dir.join(MANIFEST), json.as_bytes())?;
    Ok(suite.cases().len())
}

/// Creates a folder of an export, or accepts one export made already: a real folder, not a
/// symbolic link to one.
fn new_dir(path: &Path) -> std::io::Result<()> {
    match std::fs::create_dir(path) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            if std::fs::symlink_metadata(path)?.is_dir() {
                Ok(())
            } else {
                Err(std::io::Error::other(
                    "exists and is not a folder (a symbolic link is not followed)",
                ))
            }
        }
        other => other,
    }
}

/// The canonical form of a path that may not exist yet: its longest existing beginning,
/// canonicalized, then the rest (`..` taken lexically: nothing there is a link).
fn resolve(path: &Path) -> std::io::Result<PathBuf> {
    let absolute = std::path::absolute(path)?;
    let parts: Vec<Component> = absolute.components().collect();
    for i in (1..=parts.len()).rev() {
        let head: PathBuf = parts[..i].iter().collect();
        let Ok(mut resolved) = head.canonicalize() else {
            continue;
        };
        for part in &parts[i..] {
            match part {
                Component::ParentDir => {
                    resolved.pop();
                }
                Component::Normal(name) => resolved.push(name),
                _ => {}
            }
        }
        return Ok(resolved);
    }
    Ok(absolute)
}

/// How one case went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The implementation agrees with the case.
    Pass,
    /// It does not (or it crashed, hung, or could not be run).
    Fail,
    /// boardxml disagrees as the manifest says it does (`known_failure`).
    KnownFailure,
}

/// What running an implementation on a case gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// boardxml, in this process: the codes of its errors and warnings.
    Validated {
        /// Error codes.
        codes: BTreeSet<String>,
        /// Warning codes.
        warnings: BTreeSet<String>,
    },
    /// The command ran and exited with this code.
    Exited {
        /// The exit code.
        code: i32,
    },
    /// The command was killed by a signal (also when its shell reports that as exit code
    /// 128 + the signal of a crash: SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGKILL, SIGSEGV).
    Crashed {
        /// The signal.
        signal: i32,
    },
    /// The command ran longer than the timeout and was killed (with its process group).
    TimedOut {
        /// The timeout, in milliseconds.
        after_ms: u64,
    },
    /// The command could not be run.
    NotRun {
        /// Why.
        error: String,
    },
}

/// The result of one case.
#[derive(Debug, Clone, Serialize)]
pub struct CaseResult {
    /// The case's id.
    pub id: String,
    /// The case's file.
    pub file: PathBuf,
    /// `cif`, `cbf-2007` or `cbf-1.0`.
    pub format: String,
    /// The case's rule.
    pub rule: String,
    /// The case's description.
    pub description: String,
    /// The verdict the case expects.
    pub expected: Verdict,
    /// The verdict the implementation gave, if it gave one.
    pub verdict: Option<Verdict>,
    /// What happened.
    pub outcome: Outcome,
    /// Pass, fail or known failure.
    pub status: Status,
    /// Why it failed (or what is known), one item a line: differing codes, differences of a
    /// round trip, the end of the command's stderr.
    pub details: Vec<String>,
    /// How long the case took, in milliseconds.
    pub duration_ms: u64,
}

impl CaseResult {
    fn new(suite: &Suite, case: &Case, outcome: Outcome, started: Instant) -> CaseResult {
        CaseResult {
            id: case.id.clone(),
            file: suite.path_of(case),
            format: case.validate_format().name().to_string(),
            rule: case.rule.clone(),
            description: case.description.clone(),
            expected: case.verdict,
            verdict: None,
            outcome,
            status: Status::Fail,
            details: Vec::new(),
            duration_ms: started.elapsed().as_millis() as u64,
        }
    }
}

/// Runs boardxml's own validator over every case (in parallel): the verdict and the exact
/// set of error codes must agree, and the warnings too where the case lists them. A case
/// with `known_failure` is a [`Status::KnownFailure`] while it disagrees, and a failure
/// once it agrees (so that the mark is removed with the fix).
pub fn run_boardxml(suite: &Suite) -> Vec<CaseResult> {
    suite
        .cases()
        .par_iter()
        .map(|case| run_boardxml_case(suite, case))
        .collect()
}

fn run_boardxml_case(suite: &Suite, case: &Case) -> CaseResult {
    let started = Instant::now();
    let path = suite.path_of(case);
    let bytes = match bounded::read_document(&path, true, MAX_DOCUMENT_BYTES, None) {
        Ok(b) => b,
        Err(e) => {
            let outcome = Outcome::NotRun {
                error: match e {
                    bounded::ReadError::Failed(why) => why,
                    bounded::ReadError::TimedOut => "timed out".into(),
                },
            };
            return CaseResult::new(suite, case, outcome, started);
        }
    };
    let report = validate_bytes(&path, &bytes, &Options::default());
    let of = |severity: Severity| -> BTreeSet<String> {
        report
            .diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .map(|d| d.code.as_str().to_string())
            .collect()
    };
    let (codes, warnings) = (of(Severity::Error), of(Severity::Warning));
    let mut details = Vec::new();
    let verdict = if report.is_valid() {
        Verdict::Valid
    } else {
        Verdict::Invalid
    };
    if verdict != case.verdict {
        details.push(format!(
            "verdict {}, expected {}",
            verdict.as_str(),
            case.verdict.as_str()
        ));
    }
    if codes != case.codes {
        details.push(format!(
            "error codes {}, expected {}",
            code_list(&codes),
            code_list(&case.codes)
        ));
    }
    if let Some(expected) = &case.warnings {
        if &warnings != expected {
            details.push(format!(
                "warning codes {}, expected {}",
                code_list(&warnings),
                code_list(expected)
            ));
        }
    }
    let agrees = details.is_empty();
    if !agrees {
        for d in report.diagnostics.iter().take(5) {
            details.push(format!(
                "  {}:{}: {} {} at {}",
                d.line, d.column, d.code, d.message, d.path
            ));
        }
    }
    let status = match (&case.known_failure, agrees) {
        (None, true) => Status::Pass,
        (None, false) => Status::Fail,
        (Some(reason), false) => {
            details.insert(0, format!("known failure: {reason}"));
            Status::KnownFailure
        }
        (Some(_), true) => {
            details.push(
                "marked known_failure in the manifest but agrees now: remove the mark".into(),
            );
            Status::Fail
        }
    };
    let mut result = CaseResult::new(suite, case, Outcome::Validated { codes, warnings }, started);
    result.verdict = Some(verdict);
    result.status = status;
    result.details = details;
    result
}

fn code_list(codes: &BTreeSet<String>) -> String {
    if codes.is_empty() {
        "{}".to_string()
    } else {
        format!(
            "{{{}}}",
            codes.iter().cloned().collect::<Vec<_>>().join(", ")
        )
    }
}

/// Runs another implementation over every case, in parallel: `command_template` with
/// `{file}` replaced by the case's path (as `"$BOARDXML_FILE"`, see [`check_template`];
/// a template it refuses runs nothing) runs through `sh -c`; its verdict is
/// "valid" exactly when it exits with `valid_exit`. Only the verdict is compared (codes are
/// boardxml's own). A command killed by a signal is [`Outcome::Crashed`]; one still running
/// after `timeout` is killed with its process group and is [`Outcome::TimedOut`]. The
/// results come in the suite's order.
pub fn run_external(
    suite: &Suite,
    command_template: &str,
    valid_exit: i32,
    timeout: Duration,
) -> Vec<CaseResult> {
    let missing = check_template(command_template, &["{file}"]);
    suite
        .cases()
        .par_iter()
        .map(|case| {
            let started = Instant::now();
            if let Some(error) = &missing {
                let outcome = Outcome::NotRun {
                    error: error.clone(),
                };
                return CaseResult::new(suite, case, outcome, started);
            }
            let path = suite.path_of(case);
            let (command, env) = substitute(command_template, &[("{file}", &path)]);
            let run = process::run_shell(&command, &env, timeout);
            let mut result = CaseResult::new(suite, case, run.outcome.clone(), started);
            if let Outcome::Exited { code } = run.outcome {
                let verdict = if code == valid_exit {
                    Verdict::Valid
                } else {
                    Verdict::Invalid
                };
                result.verdict = Some(verdict);
                if verdict == case.verdict {
                    result.status = Status::Pass;
                } else {
                    result.details.push(format!(
                        "verdict {} (exit code {code}), expected {}",
                        verdict.as_str(),
                        case.verdict.as_str()
                    ));
                }
            } else {
                result.details.push(describe_outcome(&run.outcome));
            }
            if result.status == Status::Fail {
                result.details.extend(run.stderr_tail());
            }
            result
        })
        .collect()
}

/// Has another implementation read every valid case and write it back: `command_template`
/// with `{in}` (the case) and `{out}` (a file in a fresh private folder of the case's own,
/// removed after) runs through `sh -c` and must exit with 0. Then what it wrote is read with
/// boardxml (only a regular file, not a link, of at most [`MAX_DOCUMENT_BYTES`]) and its
/// document compared with the original's; every difference is reported with its path in the
/// data model (`head.red`, `move_list.move[3].value`, ...). `timeout` bounds the whole
/// case, the command and the reading of its output. Invalid cases are not run. Results come
/// in the suite's order.
pub fn run_roundtrip(suite: &Suite, command_template: &str, timeout: Duration) -> Vec<CaseResult> {
    // A template without its placeholders, or with them quoted, runs nothing.
    let problem = check_template(command_template, &["{in}", "{out}"]);
    suite
        .cases()
        .par_iter()
        .filter(|case| case.verdict == Verdict::Valid)
        .map(|case| {
            let started = Instant::now();
            if let Some(error) = &problem {
                let outcome = Outcome::NotRun {
                    error: error.clone(),
                };
                return CaseResult::new(suite, case, outcome, started);
            }
            roundtrip_case(suite, case, command_template, timeout, started)
        })
        .collect()
}

fn roundtrip_case(
    suite: &Suite,
    case: &Case,
    template: &str,
    timeout: Duration,
    started: Instant,
) -> CaseResult {
    let deadline = started + timeout;
    let not_run = |error: String| CaseResult::new(suite, case, Outcome::NotRun { error }, started);
    let timed_out = |mut result: CaseResult, what: &str| {
        result.outcome = Outcome::TimedOut {
            after_ms: timeout.as_millis() as u64,
        };
        result.status = Status::Fail;
        result.details.push(format!(
            "hung: the timeout of {} ms passed while {what}",
            timeout.as_millis()
        ));
        result
    };
    let input = suite.path_of(case);
    // Read before the command runs: it could change the file.
    let original = match bounded::read_document(&input, true, MAX_DOCUMENT_BYTES, Some(deadline)) {
        Ok(bytes) => bytes,
        Err(bounded::ReadError::Failed(why)) => return not_run(why),
        Err(bounded::ReadError::TimedOut) => {
            let result = not_run(String::new());
            return timed_out(result, "reading the case");
        }
    };
    // A folder of the case's own (mode 0700, a new name): nobody can plant {out} in it.
    let scratch = match tempfile::Builder::new()
        .prefix("boardxml-roundtrip-")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .tempdir()
    {
        Ok(dir) => dir,
        Err(e) => return not_run(format!("cannot create a temporary folder: {e}")),
    };
    let ext = input.extension().and_then(|e| e.to_str()).unwrap_or("xml");
    let output = scratch.path().join(format!("{}.{ext}", case.id));
    let (command, env) = substitute(template, &[("{in}", &input), ("{out}", &output)]);
    let left = deadline.saturating_duration_since(Instant::now());
    let run = process::run_shell(&command, &env, left.max(Duration::from_millis(1)));
    let mut result = CaseResult::new(suite, case, run.outcome.clone(), started);
    match &run.outcome {
        Outcome::Exited { code: 0 } => {}
        Outcome::TimedOut { .. } => {
            result.outcome = Outcome::TimedOut {
                after_ms: timeout.as_millis() as u64,
            };
            result.details.push(describe_outcome(&result.outcome));
            result.details.extend(run.stderr_tail());
            return result;
        }
        other => {
            result.details.push(describe_outcome(other));
            result.details.extend(run.stderr_tail());
            return result;
        }
    }
    let written = match bounded::read_document(&output, false, MAX_DOCUMENT_BYTES, Some(deadline)) {
        Ok(bytes) => bytes,
        Err(bounded::ReadError::Failed(why)) => {
            result
                .details
                .push(format!("cannot read the output: {why}"));
            return result;
        }
        Err(bounded::ReadError::TimedOut) => return timed_out(result, "reading its output"),
    };
    drop(scratch);
    let options = Options::default();
    let before = validate_bytes(&input, &original, &options);
    let after = validate_bytes(&output, &written, &options);
    result.verdict = Some(if after.is_valid() {
        Verdict::Valid
    } else {
        Verdict::Invalid
    });
    match (&before.document, &after.document) {
        (None, _) => result
            .details
            .push("boardxml cannot read the original (see run_boardxml)".into()),
        (Some(_), None) => {
            result
                .details
                .push("the written document is not valid:".to_string());
            for d in after.diagnostics.iter().take(10) {
                result.details.push(format!(
                    "  {}:{}: {} {} at {}",
                    d.line, d.column, d.code, d.message, d.path
                ));
            }
        }
        (Some(a), Some(b)) if a == b => result.status = Status::Pass,
        (Some(a), Some(b)) => result.details.extend(document_differences(a, b)),
    }
    result
}

/// Says which placeholders a command template lacks, if any.
pub fn missing_placeholders(template: &str, placeholders: &[&str]) -> Option<String> {
    let missing: Vec<&str> = placeholders
        .iter()
        .copied()
        .filter(|p| !template.contains(p))
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "the command {template:?} has no {}: it would not see the case",
            missing.join(" and ")
        )
    })
}

/// The environment variable that carries each placeholder's value: the placeholder is
/// replaced by `"$VARIABLE"`, so that a file name is data and never shell code, whatever it
/// contains and wherever the template puts it (even in a here-document).
const PLACEHOLDER_VARIABLES: [(&str, &str); 3] = [
    ("{file}", "BOARDXML_FILE"),
    ("{in}", "BOARDXML_IN"),
    ("{out}", "BOARDXML_OUT"),
];

/// Checks a command template before anything runs: it must have each of `placeholders`, and
/// none of them inside quotes or after a backslash (`"{file}"`, `'{file}'`): boardxml
/// quotes what it puts there, so quotes around it would be wrong twice over. Returns the
/// problem, if any.
pub fn check_template(template: &str, placeholders: &[&str]) -> Option<String> {
    if let Some(missing) = missing_placeholders(template, placeholders) {
        return Some(missing);
    }
    let (placeholder, context) = quoted_placeholder(template, placeholders)?;
    Some(format!(
        "{placeholder} is {context} in {template:?}: write it without quotes \
         (it is replaced by one shell word, quoted already, whatever the path contains)"
    ))
}

/// The first of `placeholders` that the shell would read inside quotes (or escaped), and
/// where. A small reading of `sh` syntax: quotes, backslashes, `$( )` and backquotes
/// (inside which quoting starts afresh), comments.
fn quoted_placeholder<'a>(
    template: &str,
    placeholders: &[&'a str],
) -> Option<(&'a str, &'static str)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Ctx {
        Code,
        Single,
        Double,
        /// `$( )`, with the depth of parentheses opened inside it.
        Subst(usize),
        Backquote,
    }
    let bytes = template.as_bytes();
    let mut stack = vec![Ctx::Code];
    let mut i = 0;
    while i < bytes.len() {
        let ctx = *stack.last().unwrap_or(&Ctx::Code);
        let rest = &bytes[i..];
        if let Some(p) = placeholders.iter().find(|p| rest.starts_with(p.as_bytes())) {
            match ctx {
                Ctx::Single => return Some((p, "inside single quotes")),
                Ctx::Double => return Some((p, "inside double quotes")),
                _ => {
                    i += p.len();
                    continue;
                }
            }
        }
        let c = bytes[i];
        let next_is_placeholder = |at: usize| {
            placeholders
                .iter()
                .find(|p| bytes.get(at..).is_some_and(|r| r.starts_with(p.as_bytes())))
                .copied()
        };
        match (ctx, c) {
            (Ctx::Single, b'\'') => {
                stack.pop();
            }
            (Ctx::Single, _) => {}
            (_, b'\\') => {
                if let Some(p) = next_is_placeholder(i + 1) {
                    return Some((p, "after a backslash"));
                }
                i += 1;
            }
            (Ctx::Double, b'"') => {
                stack.pop();
            }
            (_, b'$') if bytes.get(i + 1) == Some(&b'(') => {
                stack.push(Ctx::Subst(0));
                i += 1;
            }
            (Ctx::Backquote, b'`') => {
                stack.pop();
            }
            (_, b'`') => stack.push(Ctx::Backquote),
            (Ctx::Double, _) => {}
            (_, b'\'') => stack.push(Ctx::Single),
            (_, b'"') => stack.push(Ctx::Double),
            (Ctx::Subst(depth), b'(') => {
                stack.pop();
                stack.push(Ctx::Subst(depth + 1));
            }
            (Ctx::Subst(depth), b')') => {
                stack.pop();
                if depth > 0 {
                    stack.push(Ctx::Subst(depth - 1));
                }
            }
            (_, b'#') if i == 0 || b" \t\n;&|()".contains(&bytes[i - 1]) => {
                // A comment, to the end of the line.
                while i + 1 < bytes.len() && bytes[i + 1] != b'\n' {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The template with each placeholder replaced by its variable (`"$BOARDXML_FILE"`), and
/// the variables' values to run it with.
fn substitute<'a>(
    template: &str,
    values: &[(&str, &'a Path)],
) -> (String, Vec<(&'static str, &'a std::ffi::OsStr)>) {
    let mut command = template.to_string();
    let mut env = Vec::new();
    for (placeholder, value) in values {
        if let Some((_, var)) = PLACEHOLDER_VARIABLES.iter().find(|(p, _)| p == placeholder) {
            command = command.replace(placeholder, &format!("\"${var}\""));
            env.push((*var, value.as_os_str()));
        }
    }
    (command, env)
}

fn describe_outcome(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Validated { codes, .. } => format!("validated: {}", code_list(codes)),
        Outcome::Exited { code } => format!("exit code {code}"),
        Outcome::Crashed { signal } => format!("crashed: killed by signal {signal}"),
        Outcome::TimedOut { after_ms } => {
            format!("hung: killed after the timeout of {after_ms} ms")
        }
        Outcome::NotRun { error } => format!("not run: {error}"),
    }
}
