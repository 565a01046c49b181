//! `boardxml conformance run|export`.

use std::process::ExitCode;
use std::time::Duration;

use crate::ConformanceAction;

/// `boardxml conformance run|export`.
pub fn run(action: ConformanceAction) -> ExitCode {
    use boardxml_cli::conformance as cf;
    match action {
        ConformanceAction::Run {
            suite,
            implementation,
            valid_exit,
            roundtrip,
            timeout,
            format,
        } => {
            let Ok(report_format) = format.parse::<cf::ReportFormat>() else {
                crate::error(format_args!(
                    "--format takes human, json or junit, not {format}"
                ));
                return ExitCode::from(2);
            };
            if !(timeout > 0.0 && timeout.is_finite()) {
                crate::error(format_args!("--timeout takes a positive number of seconds"));
                return ExitCode::from(2);
            }
            let suite = match load(suite.as_deref()) {
                Ok(s) => s,
                Err(e) => {
                    crate::error(format_args!("{e}"));
                    return ExitCode::from(2);
                }
            };
            let timeout = Duration::from_secs_f64(timeout);
            let results = match (&implementation, &roundtrip) {
                (Some(_), Some(_)) => {
                    crate::error(format_args!("give --impl or --impl-roundtrip, not both"));
                    return ExitCode::from(2);
                }
                (Some(command), None) => {
                    if let Some(problem) = cf::check_template(command, &["{file}"]) {
                        crate::error(format_args!("--impl: {problem}"));
                        return ExitCode::from(2);
                    }
                    cf::run_external(&suite.1, command, valid_exit, timeout)
                }
                (None, Some(command)) => {
                    if let Some(problem) = cf::check_template(command, &["{in}", "{out}"]) {
                        crate::error(format_args!("--impl-roundtrip: {problem}"));
                        return ExitCode::from(2);
                    }
                    cf::run_roundtrip(&suite.1, command, timeout)
                }
                (None, None) => cf::run_boardxml(&suite.1),
            };
            let report = cf::render(&results, report_format, &suite.1.manifest.suite);
            if let Err(e) = write_stdout(&report) {
                return crate::output_failed(&e);
            }
            if cf::Summary::of(&results).is_success() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        ConformanceAction::Export { dir, suite } => {
            match load(suite.as_deref()).and_then(|s| cf::export(&s.1, &dir)) {
                Ok(n) => match write_stdout(&format!("{n} cases written to {}\n", dir.display())) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => crate::output_failed(&e),
                },
                Err(e) => {
                    crate::error(format_args!("{e}"));
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// The suite in `dir`, or the one built into the binary (written to a private temporary
/// folder, removed when the returned guard is dropped).
fn load(
    dir: Option<&std::path::Path>,
) -> Result<(Option<tempfile::TempDir>, boardxml_cli::conformance::Suite), String> {
    use boardxml_cli::conformance as cf;
    match dir {
        Some(dir) => cf::load(dir).map(|s| (None, s)),
        None => cf::embedded::materialise().map(|(guard, s)| (Some(guard), s)),
    }
}

/// Writes `text` to standard output, flushed, so that a failed write is seen.
fn write_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush())
}
