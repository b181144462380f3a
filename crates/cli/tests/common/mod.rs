//! Helpers shared by the CLI's integration tests.

use std::path::Path;

/// Processes whose working directory is `dir` (a checker's workers and an `unfold bench`'s
/// runs inherit it), as `pid: command line`.
pub fn processes_in(dir: &Path) -> Vec<String> {
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
        std::thread::sleep(std::time::Duration::from_millis(20));
        left = processes_in(dir);
    }
    left
}
