//! `boardxml conformance run|export`.

use std::process::ExitCode;
use std::time::Duration;

use crate::ConformanceAction;

/// `boardxml conformance run|export`.
pub fn run(action: ConformanceAction) -> ExitCode {
    use boardxml::conformance as cf;
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
            let suite = match cf::load(&suite) {
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
                    if let Some(problem) = cf::missing_placeholders(command, &["{file}"]) {
                        crate::error(format_args!("--impl: {problem}"));
                        return ExitCode::from(2);
                    }
                    cf::run_external(&suite, command, valid_exit, timeout)
                }
                (None, Some(command)) => {
                    if let Some(problem) = cf::missing_placeholders(command, &["{in}", "{out}"]) {
                        crate::error(format_args!("--impl-roundtrip: {problem}"));
                        return ExitCode::from(2);
                    }
                    cf::run_roundtrip(&suite, command, timeout)
                }
                (None, None) => cf::run_boardxml(&suite),
            };
            print!(
                "{}",
                cf::render(&results, report_format, &suite.manifest.suite)
            );
            if cf::Summary::of(&results).is_success() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        ConformanceAction::Export { dir, suite } => {
            match cf::load(&suite).and_then(|s| cf::export(&s, &dir)) {
                Ok(n) => {
                    println!("{n} cases written to {}", dir.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    crate::error(format_args!("{e}"));
                    ExitCode::from(2)
                }
            }
        }
    }
}
