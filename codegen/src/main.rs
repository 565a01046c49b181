//! `boardxml-codegen`: generate `generated/*.rs` from `schemas/*.xsd`, check that the
//! checked-in output is current (`--check`), judge schemas (`check`), generate a compiled
//! validator for schemas (`validator`), or try an XSD pattern (`regex`).

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "boardxml-codegen",
    version,
    about = "XSD -> Rust code generator for boardxml"
)]
struct Cli {
    /// Folder of schemas (every .xsd in it is generated).
    #[arg(long, default_value = "schemas")]
    schemas: PathBuf,
    /// Folder of generated Rust files.
    #[arg(long, default_value = "generated")]
    out: PathBuf,
    /// Regenerate in memory and fail with a diff if the files in --out are stale.
    #[arg(long)]
    check: bool,
    /// An OASIS XML Catalog mapping the locations of included and imported documents to
    /// local files (repeatable); nothing is fetched from the network.
    #[arg(long)]
    catalog: Vec<PathBuf>,
    /// A folder schema documents may also read from (repeatable); without it, an include,
    /// import or redefine reads only under the schemas' own folders and what a catalog maps.
    #[arg(long = "allow-path", value_name = "DIR")]
    allow_path: Vec<PathBuf>,
    /// The version of XSD the schema documents are read as: 1.0 or 1.1. Without it, a
    /// document is read as XSD 1.0 unless its xs:schema says vc:minVersion="1.1".
    #[arg(long = "xsd-version", value_name = "VERSION")]
    xsd_version: Option<boardxml_codegen::xsd::XsdVersion>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Judge a schema: exit 0 = valid and supported, 1 = invalid XSD (every error
    /// located), 3 = valid but using something not supported yet (named and located),
    /// 2 = usage or I/O error. The files given form one schema, with the documents they
    /// include, import or redefine.
    Check {
        /// An OASIS XML Catalog mapping the locations of included and imported documents
        /// to local files (repeatable); nothing is fetched from the network.
        #[arg(long)]
        catalog: Vec<PathBuf>,
        /// A folder schema documents may also read from (repeatable); without it, an
        /// include, import or redefine reads only under the schemas' own folders and what a
        /// catalog maps.
        #[arg(long = "allow-path", value_name = "DIR")]
        allow_path: Vec<PathBuf>,
        /// The version of XSD the schema documents are read as: 1.0 or 1.1. Without it, a
        /// document is read as XSD 1.0 unless its xs:schema says vc:minVersion="1.1".
        #[arg(long = "xsd-version", value_name = "VERSION")]
        xsd_version: Option<boardxml_codegen::xsd::XsdVersion>,
        /// The schema files (not folders).
        #[arg(required = true)]
        schemas: Vec<PathBuf>,
    },
    /// Read candidate values from stdin (one JSON string per line) and print `true` or
    /// `false` per line: whether the XSD pattern matches the whole value.
    Regex {
        /// The version of XSD the pattern is read as: 1.0 (the default) or 1.1 (where a
        /// hyphen that starts no range is a literal anywhere in a character group).
        #[arg(long = "xsd-version", value_name = "VERSION")]
        xsd_version: Option<boardxml_codegen::xsd::XsdVersion>,
        /// The XSD pattern.
        pattern: String,
    },
    /// Compare two schemas: what the change does to documents (proved, or shown by a
    /// witness document) and to the generated API. Exit 0 when no document valid under OLD
    /// can be invalid under NEW, 1 when one can (or the tool cannot tell), 2 on error.
    Diff(DiffArgs),
    /// Generate a Cargo package whose binary `validate [--schema NAME] [--format
    /// human|json|github] DOC...` validates documents against these schemas as `boardxml
    /// validate` does (exit 0 all valid, 1 some invalid, 2 usage or I/O). Every schema must
    /// pass `check` (its exit status otherwise). Build it with `cargo run --manifest-path
    /// DIR/Cargo.toml -- DOC...`.
    Validator(ValidatorArgs),
}

#[derive(clap::Args)]
struct ValidatorArgs {
    /// The package folder: new, empty, or a previous validator output (nothing else is
    /// written into).
    #[arg(long)]
    out: PathBuf,
    /// A local checkout of the boardxml runtime crate (a path dependency); without it, the
    /// checkout this generator was built from if it is still there, else the published
    /// version of this generator's number.
    #[arg(long, conflicts_with = "published")]
    runtime: Option<PathBuf>,
    /// Depend on the published boardxml of this generator's version, even when the
    /// generator was built from a checkout.
    #[arg(long)]
    published: bool,
    /// An OASIS XML Catalog (`<system>`, `<uri>`) for imported documents (repeatable): read
    /// and checked now; used once composition (include/import) is supported.
    #[arg(long)]
    catalog: Vec<PathBuf>,
    /// A folder schema documents may also read from (repeatable).
    #[arg(long = "allow-path", value_name = "DIR")]
    allow_path: Vec<PathBuf>,
    /// The version of XSD the schema documents are read as: 1.0 or 1.1. Without it, a
    /// document is read as XSD 1.0 unless its xs:schema says vc:minVersion="1.1".
    #[arg(long = "xsd-version", value_name = "VERSION")]
    xsd_version: Option<boardxml_codegen::xsd::XsdVersion>,
    /// A file of schema sets, one a line: `NAME<TAB>SCHEMA.xsd[<TAB>MORE.xsd...]`.
    #[arg(long, conflicts_with = "schemas")]
    sets: Option<PathBuf>,
    /// Schema files, one set each, named by the file stem (`my.xsd`: `--schema my`).
    #[arg(required_unless_present = "sets")]
    schemas: Vec<PathBuf>,
}

#[derive(clap::Args)]
struct DiffArgs {
    /// `human` or `json`.
    #[arg(long, default_value = "human")]
    format: String,
    /// Write each witness document into this folder (never overwriting a file).
    #[arg(long)]
    witness: Option<PathBuf>,
    /// An OASIS XML Catalog mapping the locations of included and imported documents of
    /// either schema to local files (repeatable).
    #[arg(long)]
    catalog: Vec<PathBuf>,
    /// A folder schema documents may also read from (repeatable).
    #[arg(long = "allow-path", value_name = "DIR")]
    allow_path: Vec<PathBuf>,
    /// The version of XSD the schema documents are read as: 1.0 or 1.1. Without it, a
    /// document is read as XSD 1.0 unless its xs:schema says vc:minVersion="1.1".
    #[arg(long = "xsd-version", value_name = "VERSION")]
    xsd_version: Option<boardxml_codegen::xsd::XsdVersion>,
    /// The schema before the change.
    old: PathBuf,
    /// The schema after the change.
    new: PathBuf,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // Usage errors are exit 2, as `check` documents (clap's own default, said here).
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli.command {
        Some(Command::Regex {
            xsd_version,
            pattern,
        }) => regex(&pattern, xsd_version),
        Some(Command::Diff(args)) => diff(&args),
        Some(Command::Check {
            catalog,
            allow_path,
            xsd_version,
            schemas,
        }) => check(&schemas, &catalog, &allow_path, xsd_version),
        Some(Command::Validator(args)) => validator(&args),
        None => generate(
            &cli.schemas,
            &cli.out,
            cli.check,
            &cli.catalog,
            &cli.allow_path,
            cli.xsd_version,
        ),
    }
}

/// The folders `--allow-path` adds, or why one is not a folder, and the version
/// `--xsd-version` chose.
fn allowed(
    dirs: &[PathBuf],
    version: Option<boardxml_codegen::xsd::XsdVersion>,
) -> Result<boardxml_codegen::xsd::Allowed, ExitCode> {
    let mut allowed = boardxml_codegen::xsd::Allowed::new();
    if let Some(v) = version {
        allowed.xsd_version(v);
    }
    for d in dirs {
        if let Err(e) = allowed.folder(d) {
            eprintln!("error: {e}");
            return Err(ExitCode::from(2));
        }
    }
    Ok(allowed)
}

/// Reads the catalogs, or says why not.
fn catalog(paths: &[PathBuf]) -> Result<boardxml_codegen::xsd::Catalog, ExitCode> {
    boardxml_codegen::xsd::Catalog::read(paths).map_err(|problems| {
        eprintln!("{}", boardxml_codegen::diagnostic::Diagnostics(problems));
        ExitCode::from(2)
    })
}

fn generate(
    schemas: &std::path::Path,
    out: &std::path::Path,
    check: bool,
    catalogs: &[PathBuf],
    allow_path: &[PathBuf],
    xsd_version: Option<boardxml_codegen::xsd::XsdVersion>,
) -> ExitCode {
    let catalog = match catalog(catalogs) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let allowed = match allowed(allow_path, xsd_version) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let outputs = match boardxml_codegen::generate_dir_allowed(schemas, &catalog, &allowed) {
        Ok(outputs) => outputs,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    if check {
        match boardxml_codegen::check_dir(&outputs, out) {
            Ok(()) => {
                println!("generated/ is up to date ({} files)", outputs.len());
                ExitCode::SUCCESS
            }
            Err(report) => {
                // What the schema changes do (diff's verdicts), above the raw diff.
                let summary = boardxml_codegen::diff::check::summary(schemas, out, &outputs);
                if !summary.is_empty() {
                    eprintln!("schema changes since the checked-in code was generated:\n{summary}");
                }
                eprintln!("{report}");
                eprintln!("generated/ is stale: run `cargo run -p boardxml-codegen` and commit the result");
                ExitCode::from(1)
            }
        }
    } else {
        match boardxml_codegen::write_dir(&outputs, out) {
            Ok(changed) => {
                println!("{} files generated, {} changed", outputs.len(), changed);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        }
    }
}

fn diff(args: &DiffArgs) -> ExitCode {
    let catalog = match catalog(&args.catalog) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if args.format != "human" && args.format != "json" {
        eprintln!(
            "error: --format must be human or json, not {:?}",
            args.format
        );
        return ExitCode::from(2);
    }
    let allowed = match allowed(&args.allow_path, args.xsd_version) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let diffed =
        boardxml_codegen::diff::diff_files_allowed(&args.old, &args.new, &catalog, &allowed);
    let mut report = match diffed {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = &args.witness {
        if let Err(e) = boardxml_codegen::diff::output::write_witnesses(&mut report, dir) {
            eprintln!("error: writing witnesses into {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    }
    if args.format == "json" {
        println!("{:#}", boardxml_codegen::diff::output::json(&report));
    } else {
        print!("{}", boardxml_codegen::diff::output::human(&report));
    }
    if report.may_break() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn check(
    schemas: &[PathBuf],
    catalogs: &[PathBuf],
    allow_path: &[PathBuf],
    xsd_version: Option<boardxml_codegen::xsd::XsdVersion>,
) -> ExitCode {
    let allowed = match allowed(allow_path, xsd_version) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if let Some(dir) = schemas.iter().find(|p| p.is_dir()) {
        eprintln!(
            "error: {} is a folder; check takes schema files (e.g. {}/*.xsd)",
            dir.display(),
            dir.display()
        );
        return ExitCode::from(2);
    }
    let report = boardxml_codegen::check::check_files_allowed(schemas, catalogs, &allowed);
    if !report.diagnostics.is_empty() {
        eprintln!("{}", report.diagnostics);
    }
    use boardxml_codegen::check::Verdict;
    match report.verdict {
        Verdict::Supported => println!("{} schema file(s): valid and supported", schemas.len()),
        Verdict::Invalid => eprintln!(
            "invalid: the schema breaks {} (see the errors above)",
            xsd_version.map_or("XSD".to_string(), |v| v.to_string())
        ),
        Verdict::Unsupported => eprintln!(
            "valid as far as checked, but it uses what boardxml-codegen does not support yet"
        ),
        Verdict::Io => {}
    }
    ExitCode::from(report.verdict.exit_code())
}

fn validator(args: &ValidatorArgs) -> ExitCode {
    use boardxml_codegen::validator::{
        package_allowed, read_sets_file, sets_of_files, write, Runtime,
    };
    let allowed = match allowed(&args.allow_path, args.xsd_version) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let sets = match &args.sets {
        Some(file) => match read_sets_file(file) {
            Ok(sets) => sets,
            Err(f) => {
                eprintln!("{}", f.message);
                return ExitCode::from(f.exit_code);
            }
        },
        None => sets_of_files(&args.schemas),
    };
    let runtime = match &args.runtime {
        Some(p) => Runtime::Path(p.clone()),
        None if args.published => Runtime::Published,
        None => Runtime::built_with(),
    };
    let files = match package_allowed(&sets, &args.catalog, &allowed, &runtime) {
        Ok(p) => {
            for w in &p.warnings {
                eprintln!("{w}");
            }
            p.files
        }
        Err(f) => {
            eprintln!("{}", f.message);
            return ExitCode::from(f.exit_code);
        }
    };
    let inputs: Vec<PathBuf> = sets.iter().flat_map(|s| s.schemas.clone()).collect();
    match write(&files, &args.out, &inputs) {
        Ok(changed) => {
            println!(
                "{}: a validator of {} schema set(s) on {}, {changed} file(s) changed; run it with cargo run --release --manifest-path {}/Cargo.toml -- DOC...",
                args.out.display(),
                sets.len(),
                runtime.describe(),
                args.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The most `regex` reads from standard input, 64 MiB of candidate values.
const MAX_REGEX_INPUT: u64 = 64 << 20;

fn regex(pattern: &str, version: Option<boardxml_codegen::xsd::XsdVersion>) -> ExitCode {
    let version = match version {
        Some(boardxml_codegen::xsd::XsdVersion::Xsd11) => boardxml_xsd_regex::Version::Xsd11,
        _ => boardxml_xsd_regex::Version::Xsd10,
    };
    let translated = match boardxml_xsd_regex::translate_as(pattern, version) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: invalid XSD pattern: {e}");
            return ExitCode::from(2);
        }
    };
    let re = match boardxml_codegen::compile_pattern(&translated) {
        Ok(re) => re,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // With a limit: `< /dev/zero` (one endless line) is an error, not memory exhausted.
    let input = match boardxml::bounded::read_stream(std::io::stdin().lock(), MAX_REGEX_INPUT) {
        Ok(bytes) => bytes,
        Err(boardxml::bounded::ReadError::Failed(why)) => {
            eprintln!("error: standard input {why}");
            return ExitCode::from(2);
        }
        Err(boardxml::bounded::ReadError::TimedOut) => {
            eprintln!("error: reading standard input timed out");
            return ExitCode::from(2);
        }
    };
    for (i, line) in input.lines().enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: reading stdin: {e}");
                return ExitCode::from(2);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<String>(&line) {
            Ok(value) => println!("{}", re.is_match(&value)),
            Err(e) => {
                eprintln!("error: line {}: not a JSON string: {e}", i + 1);
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}
