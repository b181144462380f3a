//! Helpers shared by the CLI's integration tests.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Processes whose working directory is `dir` (a checker's workers and an `unfold bench`'s
/// runs inherit it), as `pid: command line`.
fn processes_in(dir: &Path) -> Vec<String> {
    let dir = dir.canonicalize().expect("canonical path");
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let pid = e.file_name().to_string_lossy().into_owned();
        if pid.parse::<u32>().is_err() {
            continue;
        }
        if std::fs::read_link(e.path().join("cwd")).is_ok_and(|c| c == dir) {
            let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            found.push(format!("{pid}: {}", String::from_utf8_lossy(&cmd).replace('\0', " ")));
        }
    }
    found
}

/// The processes still in `dir` after up to a second: processes that die with their
/// parent need the kernel a moment to deliver the signal.
pub fn processes_left_in(dir: &Path) -> Vec<String> {
    let mut left = processes_in(dir);
    for _ in 0..50 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        left = processes_in(dir);
    }
    left
}

/// Start `unfold` with `args` in `dir` (with `TMPDIR` at `tmp`), wait until two of the
/// processes in `dir` have `running` in their command line (the work is under way: a
/// checker and its worker, or a suite and its run), send it SIGTERM, and return what it
/// printed once it stopped; it must stop within 30 s.
pub fn terminate_when_running(dir: &Path, tmp: &Path, args: &[&str], running: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(dir)
        .env("TMPDIR", tmp)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start unfold");
    let start = Instant::now();
    while processes_in(dir).iter().filter(|p| p.contains(running)).count() < 2 {
        assert!(start.elapsed().as_secs() < 60, "{running} did not start: {:?}", processes_in(dir));
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let kill = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    let waited = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        assert!(waited.elapsed().as_secs() < 30, "SIGTERM did not stop unfold {args:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}
