//! The command line of a compiled validator, as `boardxml-codegen validator` generates it:
//! `validate [--schema NAME] [--format human|json|github] DOC...`. The generated package's
//! `main` names its schema sets ([`Set::of`], one per generated module's `Root`) and calls
//! [`main`]; everything else is here, shared with `boardxml validate`: the reader
//! ([`crate::validate::validate_file_as`]), the diagnostics and the output formats
//! ([`crate::report::run::Run`]).
//!
//! Exit status: 0 every document valid, 1 some invalid, 2 a usage error or a document that
//! cannot be read.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use crate::diagnostic::Code;
use crate::report::codes::Catalog;
use crate::report::run::{Policy, Printer, Run};
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

/// The command line, parsed.
#[derive(Debug, PartialEq, Eq)]
struct Args {
    /// `--schema NAME`: the schema set to validate against (default: the only one, or the
    /// one whose global elements include the document's root element).
    schema: Option<String>,
    /// `--format human|json|github`.
    format: OutputFormat,
    /// The documents.
    documents: Vec<PathBuf>,
}

const USAGE: &str = "Validate XML documents against the schemas this validator was generated from

Usage: validate [OPTIONS] <DOCUMENTS>...

Arguments:
  <DOCUMENTS>...  The documents

Options:
      --schema <SCHEMA>  The schema set to validate against (default: the only one, or the
                         one whose global elements include the document's root element)
      --format <FORMAT>  `human`, `json` (one object a diagnostic, then a summary record) or
                         `github` (workflow annotations) [default: human]
  -h, --help             Print help
";

/// What the command line asks for: a run, or the help text (`Ok(None)`); `Err` is a usage
/// error's message.
fn parse_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Option<Args>, String> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_iter(std::iter::once("validate".into()).chain(args));
    let mut schema = None;
    let mut format = OutputFormat::Human;
    let mut documents = Vec::new();
    let text = |v: std::ffi::OsString, what: &str| {
        v.into_string()
            .map_err(|v| format!("{what} is not UTF-8: {}", v.to_string_lossy()))
    };
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("schema") => {
                schema = Some(text(
                    parser.value().map_err(|e| e.to_string())?,
                    "--schema",
                )?)
            }
            Long("format") => {
                let value = text(parser.value().map_err(|e| e.to_string())?, "--format")?;
                format = match value.as_str() {
                    "human" => OutputFormat::Human,
                    "json" => OutputFormat::Json,
                    "github" => OutputFormat::Github,
                    other => {
                        return Err(format!(
                            "--format must be human, json or github, not {other:?}"
                        ))
                    }
                };
            }
            Short('h') | Long("help") => return Ok(None),
            Value(document) => documents.push(PathBuf::from(document)),
            other => return Err(other.unexpected().to_string()),
        }
    }
    if documents.is_empty() {
        return Err("no document given".into());
    }
    Ok(Some(Args {
        schema,
        format,
        documents,
    }))
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
    let args = match parse_args(std::env::args_os().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let format = args.format;
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
    let color = format.colors_stdout();
    let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let run = Run::new(format, Policy::default(), color, &root, Catalog::RUNTIME);
    let mut printer = Printer::new(run, std::io::stdout().lock());
    for (doc, set) in args.documents.iter().zip(chosen) {
        let mut report = (set.validate)(doc, &options);
        if args.schema.is_none() && sets.len() > 1 {
            name_every_root(sets, &mut report);
        }
        printer.print(&mut report);
    }
    let ended = printer.finish(started.elapsed().as_secs_f64(), &[]);
    ExitCode::from(ended.exit_code())
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
    use crate::schema::{Document, Invalid};
    use crate::xml::{Reader, Tag, Writer};

    /// A schema set whose one global element is `<markers>` (whatever it holds: these tests
    /// choose sets and name roots, they read no content).
    struct Markers;
    /// Another, whose one global element is `<record>`.
    struct Records;

    impl Document for Markers {
        const ROOTS: &'static [&'static str] = &["markers"];
        fn read_root(_: &mut Reader<'_>, _: &Tag) -> Result<Self, Invalid> {
            Err(Invalid)
        }
        fn write_root(&self, _: &mut Writer) {}
    }

    impl Document for Records {
        const ROOTS: &'static [&'static str] = &["record"];
        fn read_root(_: &mut Reader<'_>, _: &Tag) -> Result<Self, Invalid> {
            Err(Invalid)
        }
        fn write_root(&self, _: &mut Writer) {}
    }

    #[test]
    fn a_set_is_chosen_by_name_or_root() {
        let sets = [Set::of::<Markers>("markers"), Set::of::<Records>("records")];
        assert_eq!(
            choose(&sets, Some("records"), None).unwrap().name(),
            "records"
        );
        assert!(choose(&sets, Some("nope"), None)
            .unwrap_err()
            .contains("the sets are: markers, records"));
        assert_eq!(
            choose(&sets, None, Some("record")).unwrap().name(),
            "records"
        );
        assert_eq!(
            choose(&sets, None, Some("markers")).unwrap().name(),
            "markers"
        );
        // Unknown everywhere: the first set reports it.
        assert_eq!(choose(&sets, None, Some("x")).unwrap().name(), "markers");
        let twice = [Set::of::<Markers>("a"), Set::of::<Markers>("b")];
        assert!(choose(&twice, None, Some("markers"))
            .unwrap_err()
            .contains("several schema sets (a, b)"));
        assert!(choose(&[], None, None).is_err());
    }

    #[test]
    fn an_unknown_root_names_every_set_s_roots() {
        let sets = [Set::of::<Markers>("markers"), Set::of::<Records>("records")];
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
            Some("<markers> (set markers) or <record> (set records)")
        );
        assert_eq!((d.line, d.column), (1, 1));
    }

    #[test]
    fn the_command_line_takes_options_anywhere_and_refuses_what_it_does_not_know() {
        let parse = |words: &[&str]| parse_args(words.iter().map(|w| w.into()));
        assert_eq!(
            parse(&["a.xml", "--format=json", "--schema", "gpx", "b.xml"]),
            Ok(Some(Args {
                schema: Some("gpx".into()),
                format: OutputFormat::Json,
                documents: vec!["a.xml".into(), "b.xml".into()],
            }))
        );
        // After `--`, a name that starts with a dash is a document.
        assert_eq!(
            parse(&["--", "-odd.xml"]).unwrap().unwrap().documents,
            [PathBuf::from("-odd.xml")]
        );
        assert_eq!(parse(&["--help"]), Ok(None));
        assert!(parse(&[]).unwrap_err().contains("no document"));
        assert!(parse(&["--format", "sarif", "a.xml"])
            .unwrap_err()
            .contains("human, json or github"));
        assert!(parse(&["--frobnicate", "a.xml"])
            .unwrap_err()
            .contains("--frobnicate"));
        assert!(parse(&["--schema"]).unwrap_err().contains("--schema"));
    }
}
