//! Schema diagnostics: every problem the generator finds names the file, line and column,
//! the XSD construct and, where one helps, a hint.

use std::fmt;
use std::path::PathBuf;

use crate::span::Span;

/// What kind of problem a diagnostic reports: what `boardxml-codegen check` turns into its
/// exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The schema is not a valid XSD 1.0 schema (a schema component constraint or the
    /// schema for schemas is broken): no generator could accept it.
    Invalid,
    /// The schema is valid XSD, but it uses something boardxml-codegen does not support yet.
    Unsupported,
    /// A file could not be read (or a bindings file is malformed): not about XSD at all.
    Io,
    /// Not a problem of the schema: something the reader did without, which its user should
    /// know (a `schemaLocation` that does not resolve and whose components nothing uses).
    Warning,
}

/// One problem in a schema.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SchemaDiagnostic {
    /// The schema file.
    pub file: PathBuf,
    /// Where in it.
    pub span: Span,
    /// The construct, e.g. `xs:pattern in simpleType "Square"`.
    pub construct: String,
    /// What is wrong.
    pub message: String,
    /// How to fix it, where we know.
    pub hint: Option<String>,
    /// Invalid schema, unsupported construct or I/O.
    pub kind: Kind,
}

impl fmt::Display for SchemaDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {}\n  in: {}",
            self.file.display(),
            self.span.line,
            self.span.column,
            if self.kind == Kind::Warning {
                "warning"
            } else {
                "error"
            },
            self.message,
            self.construct
        )?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// All the problems found in one run; generation fails if there is any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<SchemaDiagnostic>);

impl Diagnostics {
    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether any problem is of this kind.
    pub fn any(&self, kind: Kind) -> bool {
        self.0.iter().any(|d| d.kind == kind)
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
