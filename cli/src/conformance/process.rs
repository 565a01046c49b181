//! Running one command of another implementation with a timeout, without trusting it: it
//! may crash, hang, fork children that keep its pipes open, or print megabytes.

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::Outcome;

/// What is kept of each output stream: its end says why it failed.
const KEPT_OUTPUT: usize = 4096;

/// How long to wait for the output pipes after the command ended; a child it left behind
/// may hold them open.
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// Signals whose death a shell reports as exit code 128 + signal: a crash of the command it
/// ran (SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGKILL, SIGSEGV).
const CRASH_SIGNALS: [i32; 6] = [4, 6, 7, 8, 9, 11];

/// A finished run.
pub(super) struct Run {
    pub(super) outcome: Outcome,
    pub(super) stderr: Vec<u8>,
}

impl Run {
    /// The last lines of stderr, for a failure's details.
    pub(super) fn stderr_tail(&self) -> Vec<String> {
        let text = String::from_utf8_lossy(&self.stderr);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let from = lines.len().saturating_sub(5);
        lines[from..]
            .iter()
            .map(|l| format!("  stderr: {}", l.chars().take(300).collect::<String>()))
            .collect()
    }
}

/// Runs `command` through `sh -c` in its own process group; after `timeout` the whole group
/// is killed, so that `sh -c 'sleep 100'` does not leave its sleep behind, and so is what
/// is left of the group when the command ends (`sleep 100 &`).
/// `env` is set for it (the placeholders' values).
pub(super) fn run_shell(command: &str, env: &[(&str, &OsStr)], timeout: Duration) -> Run {
    let mut child = match Command::new("sh")
        .arg("-c")
        .arg(command)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            return Run {
                outcome: Outcome::NotRun {
                    error: format!("cannot run sh: {e}"),
                },
                stderr: Vec::new(),
            }
        }
    };
    // Drain both pipes while waiting: a command that fills a pipe would block forever.
    let (tx, rx) = mpsc::channel();
    for (stream, is_stderr) in [
        (
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
            false,
        ),
        (
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
            true,
        ),
    ] {
        let Some(stream) = stream else { continue };
        let tx = tx.clone();
        std::thread::spawn(move || {
            let _ = tx.send((is_stderr, drain(stream)));
        });
    }
    drop(tx);
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    let status = loop {
        // The command has ended but is not reaped yet, so its pid (its group's id) cannot be
        // reused: kill what it left running in its group (a background child could keep
        // writing to {out} or hold the pipes open), then reap it.
        if is_zombie(child.id()) {
            kill_group(child.id());
        }
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() >= timeout => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(e) => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                return Run {
                    outcome: Outcome::NotRun {
                        error: format!("cannot wait for the command: {e}"),
                    },
                    stderr: Vec::new(),
                };
            }
        }
    };
    let mut stderr = Vec::new();
    let deadline = Instant::now() + PIPE_GRACE;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok((true, bytes)) => stderr = bytes,
            Ok((false, _)) => {}
            Err(_) => break,
        }
    }
    let outcome = match status {
        None => Outcome::TimedOut {
            after_ms: timeout.as_millis() as u64,
        },
        Some(status) => match (status.signal(), status.code()) {
            (Some(signal), _) => Outcome::Crashed { signal },
            (None, Some(code)) if code > 128 && CRASH_SIGNALS.contains(&(code - 128)) => {
                Outcome::Crashed { signal: code - 128 }
            }
            (None, Some(code)) => Outcome::Exited { code },
            (None, None) => Outcome::NotRun {
                error: format!("no exit code: {status}"),
            },
        },
    };
    Run { outcome, stderr }
}

/// Reads a stream to its end, keeping only its last [`KEPT_OUTPUT`] bytes.
fn drain(mut stream: Box<dyn Read + Send>) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * KEPT_OUTPUT {
                    kept.drain(..kept.len() - KEPT_OUTPUT);
                }
            }
        }
    }
    if kept.len() > KEPT_OUTPUT {
        kept.drain(..kept.len() - KEPT_OUTPUT);
    }
    kept
}

/// Whether the process has ended and waits to be reaped (Linux's /proc; elsewhere, or
/// when /proc is not there, false: what the command left running is then not killed).
fn is_zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit_once(") ")
                .map(|(_, rest)| rest.starts_with('Z'))
        })
        .unwrap_or(false)
}

/// Kills the process group the command leads (its pid is the group id). The crate has no
/// unsafe code, hence no `kill(2)`: the shell's built-in `kill` sends the signal.
fn kill_group(pid: u32) {
    let group = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw);
    if let Some(group) = group {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
}
