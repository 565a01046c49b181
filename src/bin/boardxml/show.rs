//! `boardxml show`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Shows a position of a valid CBF record.
pub fn run(file: &Path, line: &str, ply: Option<usize>) -> ExitCode {
    let report = match crate::read_valid(file, "shown") {
        Ok(report) => report,
        Err(code) => return code,
    };
    let Some(record) = report
        .document
        .as_ref()
        .and_then(boardxml::cbf::convert::record_of)
    else {
        crate::error(format_args!("{} is not a CBF record", file.display()));
        return ExitCode::from(2);
    };
    let text = boardxml::cbf::show::select_line(&record, line)
        .and_then(|l| boardxml::cbf::show::show(&record, &l, ply));
    match text {
        Ok(t) => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(t.as_bytes()).and_then(|()| stdout.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => crate::output_failed(&e),
            }
        }
        Err(e) => {
            crate::error(format_args!("{}: {e}", file.display()));
            ExitCode::from(2)
        }
    }
}
