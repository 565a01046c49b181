//! The command line of a compiled validator, as `boardxml-codegen validator` generates it:
//! `validate [--schema NAME] [--format human|json|github] DOC...`. The generated package's
//! `main` names its schema sets ([`Set::of`], one per generated module's `Root`) and calls
//! [`main`]; everything else is here, shared with `boardxml validate`: the reader
//! ([`crate::validate::validate_file_as`]), the diagnostics and the output formats
//! ([`crate::report::run::Run`]).
//!
//! Exit status: 0 every document valid, 1 some invalid, 2 a usage error or a document that
//! cannot be read.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;

use crate::diagnostic::Code;
use crate::report::codes::Catalog;
use crate::report::run::{append_step_summary, Policy, Run};
use crate::report::OutputFormat;
use crate::validate::{Options, Report};

/// One schema set of a validator: its name (`--schema NAME`), its global elements, and the
/// validation through its generated `Root`.
#[derive(Clone, Copy)]
pub struct Set {
    name: &'static str,
    roots: &'static [&'static str],
    validate: fn(&Path, &Options) -> Report,
}

impl std::fmt::Debug for Set {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Set")
            .field("name", &self.name)
            .field("roots", &self.roots)
            .finish()
    }
}

impl Set {
    /// The set `name` whose documents are `D` (a generated module's `Root`).
    pub fn of<D: crate::schema::Document>(name: &'static str) -> Set {
        Set {
            name,
            roots: D::ROOTS,
            validate: crate::validate::validate_file_as::<D>,
        }
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Its global elements.
    pub fn roots(&self) -> &'static [&'static str] {
        self.roots
    }
}

#[derive(Parser)]
#[command(
    name = "validate",
    about = "Validate XML documents against the schemas this validator was generated from"
)]
struct Args {
    /// The schema set to validate against (default: the only one, or the one whose global
    /// elements include the document's root element).
    #[arg(long)]
    schema: Option<String>,
    /// `human`, `json` (one object a diagnostic, then a summary record) or `github`
    /// (workflow annotations).
    #[arg(long, default_value = "human")]
    format: String,
    /// The documents.
    #[arg(required = true)]
    documents: Vec<PathBuf>,
}

/// Which set a document is validated against, or why none can be chosen (a usage error).
pub fn choose<'s>(
    sets: &'s [Set],
    named: Option<&str>,
    root: Option<&str>,
) -> Result<&'s Set, String> {
    if let Some(name) = named {
        return sets.iter().find(|s| s.name == name).ok_or_else(|| {
            let names: Vec<&str> = sets.iter().map(|s| s.name).collect();
            format!(
                "no schema set is named {name:?}; the sets are: {}",
                names.join(", ")
            )
        });
    }
    let Some(first) = sets.first() else {
        return Err("this validator has no schema set".into());
    };
    if sets.len() == 1 {
        return Ok(first);
    }
    let Some(root) = root else {
        // Not read as far as a root: whichever set reads it reports why, the same for all.
        return Ok(first);
    };
    let matching: Vec<&Set> = sets.iter().filter(|s| s.roots.contains(&root)).collect();
    match matching[..] {
        [one] => Ok(one),
        // Unknown to all: the first set reports it, naming every set's roots (see `run`).
        [] => Ok(first),
        _ => {
            let names: Vec<&str> = matching.iter().map(|s| s.name).collect();
            Err(format!(
                "<{root}> is a global element of several schema sets ({}): choose one with --schema",
                names.join(", ")
            ))
        }
    }
}

/// The whole command: parses the arguments, validates every document and prints the
/// reports as `boardxml validate` does. Returns the exit status.
pub fn main(sets: &[Set]) -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let format = match args.format.as_str() {
        "human" => OutputFormat::Human,
        "json" => OutputFormat::Json,
        "github" => OutputFormat::Github,
        other => {
            eprintln!("error: --format must be human, json or github, not {other:?}");
            return ExitCode::from(2);
        }
    };
    // Every document's set first: an ambiguous root is a usage error before any output.
    let mut chosen = Vec::new();
    for doc in &args.documents {
        let root = if args.schema.is_none() && sets.len() > 1 {
            crate::validate::root_element(doc)
        } else {
            None
        };
        match choose(sets, args.schema.as_deref(), root.as_deref()) {
            Ok(set) => chosen.push(set),
            Err(e) => {
                eprintln!("error: {}: {e}", doc.display());
                return ExitCode::from(2);
            }
        }
    }
    let options = Options {
        schema_only: true,
        keep_document: false,
        ..Options::default()
    };
    let started = Instant::now();
    let color = format == OutputFormat::Human
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut run = Run::new(format, Policy::default(), color, &root, Catalog::RUNTIME);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut write_error = None;
    for (doc, set) in args.documents.iter().zip(chosen) {
        let mut report = (set.validate)(doc, &options);
        if args.schema.is_none() && sets.len() > 1 {
            name_every_root(sets, &mut report);
        }
        let text = run.add(&mut report);
        if write_error.is_none() {
            write_error = out.write_all(text.as_bytes()).err();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let finished = run.finish(seconds);
    let summary = finished.summary.line(seconds);
    match format {
        OutputFormat::Human => {
            if write_error.is_none() {
                write_error = writeln!(out, "{summary}").err();
            }
        }
        _ => eprintln!("{summary}"),
    }
    if write_error.is_none() {
        write_error = out
            .write_all(finished.stdout.as_bytes())
            .and_then(|()| out.flush())
            .err();
    }
    if let (Some(markdown), Some(file)) = (
        &finished.step_summary,
        std::env::var_os("GITHUB_STEP_SUMMARY").filter(|f| !f.is_empty()),
    ) {
        if let Err(e) = append_step_summary(Path::new(&file), markdown) {
            eprintln!(
                "error: cannot append to $GITHUB_STEP_SUMMARY ({}): {e}",
                Path::new(&file).display()
            );
            return ExitCode::from(2);
        }
    }
    if let Some(e) = write_error {
        eprintln!("error: cannot write the report: {e}");
        return ExitCode::from(2);
    }
    ExitCode::from(finished.summary.exit_code)
}

/// A root that no set declares was reported by the first set against its own roots: the
/// allowed roots are every set's.
fn name_every_root(sets: &[Set], report: &mut Report) {
    let all: Vec<String> = sets
        .iter()
        .flat_map(|s| {
            s.roots
                .iter()
                .map(move |r| format!("<{r}> (set {})", s.name))
        })
        .collect();
    for d in report
        .diagnostics
        .iter_mut()
        .filter(|d| d.code == Code::UNKNOWN_ROOT)
    {
        d.expected = Some(if all.is_empty() {
            "none: no schema set declares a global element".into()
        } else {
            all.join(" or ")
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::{cbf_1_0, cif};

    #[test]
    fn a_set_is_chosen_by_name_or_root() {
        let sets = [Set::of::<cif::Root>("cif"), Set::of::<cbf_1_0::Root>("cbf")];
        assert_eq!(choose(&sets, Some("cbf"), None).unwrap().name(), "cbf");
        assert!(choose(&sets, Some("nope"), None)
            .unwrap_err()
            .contains("the sets are: cif, cbf"));
        assert_eq!(
            choose(&sets, None, Some("ChineseChessRecord"))
                .unwrap()
                .name(),
            "cbf"
        );
        assert_eq!(choose(&sets, None, Some("cif")).unwrap().name(), "cif");
        // Unknown everywhere: the first set reports it.
        assert_eq!(choose(&sets, None, Some("x")).unwrap().name(), "cif");
        let twice = [Set::of::<cif::Root>("a"), Set::of::<cif::Root>("b")];
        assert!(choose(&twice, None, Some("cif"))
            .unwrap_err()
            .contains("several schema sets (a, b)"));
        assert!(choose(&[], None, None).is_err());
    }

    #[test]
    fn an_unknown_root_names_every_set_s_roots() {
        let sets = [Set::of::<cif::Root>("cif"), Set::of::<cbf_1_0::Root>("cbf")];
        let dir = tempfile::tempdir().unwrap();
        let doc = dir.path().join("d.xml");
        std::fs::write(&doc, "<other/>").unwrap();
        assert_eq!(
            crate::validate::root_element(&doc).as_deref(),
            Some("other")
        );
        let set = choose(&sets, None, Some("other")).unwrap();
        let mut report = (set.validate)(&doc, &Options::default());
        name_every_root(&sets, &mut report);
        let d = &report.diagnostics[0];
        assert_eq!(d.code, Code::UNKNOWN_ROOT);
        assert_eq!(
            d.expected.as_deref(),
            Some("<cif> (set cif) or <ChineseChessRecord> (set cbf)")
        );
        assert_eq!((d.line, d.column), (1, 1));
    }
}
