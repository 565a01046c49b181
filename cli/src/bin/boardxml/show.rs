//! `boardxml show`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Shows a position of a valid record (CBF, or record `n` of a players' format).
pub fn run(file: &Path, line: &str, n: usize, ply: Option<usize>) -> ExitCode {
    let report = match crate::read_valid(file, "shown") {
        Ok(report) => report,
        Err(code) => return code,
    };
    let record = match crate::record_of_report(&report, n) {
        Ok(r) => r,
        Err(e) => {
            crate::error(format_args!("{}: {e}", file.display()));
            return ExitCode::from(2);
        }
    };
    let text = boardxml_formats::cbf::show::select_line(&record, line)
        .and_then(|l| boardxml_formats::cbf::show::show(&record, &l, ply));
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
