//! What a CI job relies on when it runs `unfold` (issue 12): self-contained replays,
//! distinct exit statuses, one JSON object on stdout whatever happens, nothing left behind
//! by a cancelled run, every distinct defect reported, bounded output, clear flag errors.
//! Each test runs the real binary on small programs written into a temporary directory.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn unfold_cmd(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_unfold"));
    c.current_dir(dir);
    c
}

fn unfold(dir: &Path, args: &[&str]) -> Output {
    unfold_cmd(dir).args(args).output().expect("the unfold binary runs")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(&p, text).expect("write");
    p
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// stdout must be exactly one JSON object (and nothing else).
fn one_json(out: &Output) -> Value {
    let s = text(&out.stdout);
    let mut it = serde_json::Deserializer::from_str(&s).into_iter::<Value>();
    let j = match it.next() {
        Some(Ok(j)) => j,
        other => panic!("no JSON object on stdout ({other:?}): stdout {s:?}, stderr {}", text(&out.stderr)),
    };
    assert!(it.next().is_none(), "more than one JSON value on stdout: {s}");
    assert!(j.is_object(), "{j}");
    j
}

const ASSERT_WITH_FLAGS: &str = r#"#include <string.h>
#include <assert.h>
#include <pthread.h>
#include "config.h"
int x;
void *t(void *a) { (void)a; x = 1; return 0; }
int main(int argc, char **argv) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    /* Fails only with -D VALUE=7, the include dir, --cflags -DEXTRA, and the argument. */
    assert(!(argc == 2 && strcmp(argv[1], "hello") == 0 && VALUE == 7 && FROM_INCLUDE == 3 && EXTRA == 1));
    pthread_join(h, 0);
    return 0;
}
"#;

#[test]
fn replay_tokens_carry_flags_and_arguments_and_refuse_another_program() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    write(dir, "inc/config.h", "#define FROM_INCLUDE 3\n");
    write(dir, "prog.c", ASSERT_WITH_FLAGS);
    let check = unfold(
        dir,
        &["check", "prog.c", "--json", "-D", "VALUE=7", "-I", "inc", "-O", "1", "--cflags", "-DEXTRA=1", "--", "hello"],
    );
    assert_eq!(check.status.code(), Some(1), "{}", text(&check.stderr));
    let j = one_json(&check);
    let d = &j["defects"][0];
    assert_eq!(d["kind"], "assertion", "{j}");
    let token = d["replay"].as_str().expect("a token").to_string();

    // The printed command, pasted as is, from another directory: the same defect.
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let file = dir.join("prog.c");
    let file = file.to_str().expect("utf-8");
    let r = unfold(elsewhere.path(), &["replay", file, &token, "--json"]);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r.stderr));
    let rj = one_json(&r);
    assert_eq!(rj["defects"][0]["kind"], "assertion", "{rj}");
    // The same steps (the file is named as given: here by its absolute path).
    let steps = |t: &Value| -> Vec<(Value, Value, Value)> {
        t.as_array()
            .expect("trace")
            .iter()
            .map(|s| (s["thread"].clone(), s["op"].clone(), s["location"]["line"].clone()))
            .collect()
    };
    assert_eq!(steps(&rj["trace"]), steps(&d["trace"]));

    // Flags given to replay must match the recorded ones.
    let r = unfold(dir, &["replay", "prog.c", &token, "-D", "VALUE=8"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r.stderr).contains("VALUE=8") && text(&r.stderr).contains("differ"), "{}", text(&r.stderr));
    let r = unfold(dir, &["replay", "prog.c", &token, "--", "bye"]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r.stdout));

    // Another program: refused, never a clean run.
    write(dir, "prog.c", &ASSERT_WITH_FLAGS.replace("x = 1", "x = 2"));
    let r = unfold(dir, &["replay", "prog.c", &token]);
    assert_eq!(r.status.code(), Some(2));
    assert!(!text(&r.stdout).contains("no defect"), "{}", text(&r.stdout));
    assert!(text(&r.stderr).contains("not the program this token was made from"), "{}", text(&r.stderr));
    let r = unfold(dir, &["replay", "prog.c", &token, "--json"]);
    assert_eq!(one_json(&r)["error_kind"], "replay-mismatch");
}

/// A polling loop that never ends: the execution hits the step bound after 100 000 steps.
/// (It counts its rounds: a pure poll would be a wait, reported as a livelock.)
const POLLING: &str = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;
unsigned long rounds;
void *poll_flag(void *a) {
    (void)a;
    for (unsigned long i = 0;; i++) {
        rounds = i;
        pthread_mutex_lock(&m);
        int f = flag;
        pthread_mutex_unlock(&m);
        if (f) break;
    }
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, poll_flag, 0);
    pthread_join(h, 0);
    return 0;
}
"#;

#[test]
fn long_traces_are_summarised_and_their_tokens_stay_short() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(tmp.path(), "poll.c", POLLING);
    let human = unfold(tmp.path(), &["check", "poll.c"]);
    assert_eq!(human.status.code(), Some(1), "{}", text(&human.stderr));
    let out = text(&human.stdout);
    assert!(out.contains("defect 1: bound"), "{out}");
    assert!(out.lines().count() < 120, "{} lines", out.lines().count());
    assert!(out.contains("steps elided"), "{out}");
    let token = out.lines().find_map(|l| l.trim().strip_prefix("replay: unfold replay poll.c ")).expect("replay line");
    assert!(token.len() < 4_000, "a {}-byte token", token.len());

    let full = unfold(tmp.path(), &["check", "poll.c", "--full-trace"]);
    assert!(text(&full.stdout).lines().count() >= 100_000);
    let json = unfold(tmp.path(), &["check", "poll.c", "--json"]);
    let j = one_json(&json);
    assert!(j["defects"][0]["trace"].as_array().expect("trace").len() >= 100_000);

    let r = unfold(tmp.path(), &["replay", "poll.c", token]);
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stdout).contains("defect 1: bound") && text(&r.stdout).contains("steps elided"));
}

// Computes forever on local data: no shared access, no visible operation (a spin on a
// shared flag would be detected as a livelock instead).
const SPIN: &str = r#"#include <pthread.h>
void *spin(void *a) {
    (void)a;
    unsigned long x = 1;
    for (;;) {
        x = x * 6364136223846793005ul + 1;
        __asm__ volatile("" : "+r"(x));
    }
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, spin, 0);
    pthread_join(h, 0);
    return 0;
}
"#;

#[test]
fn an_incomplete_run_has_its_own_exit_status() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(tmp.path(), "spin.c", SPIN);
    let started = std::time::Instant::now();
    let out = unfold(tmp.path(), &["check", "spin.c", "--timeout", "1", "--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!(one_json(&out)["verdict"], "incomplete");
    // --timeout cuts the running execution instead of waiting for its own 10 s limit.
    assert!(started.elapsed() < Duration::from_secs(8), "{:?}", started.elapsed());
    let help = unfold(tmp.path(), &["check", "--help"]);
    assert!(text(&help.stdout).contains("3  incomplete"), "{}", text(&help.stdout));
}

#[test]
fn json_is_one_object_on_stdout_whatever_happens() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    write(dir, "refused.c", "#include <pthread.h>\nint main(void) { pthread_cancel(pthread_self()); return 0; }\n");
    write(dir, "broken.c", "int main(void) { return nope; }\n");
    write(dir, "ok.c", "int main(void) { return 0; }\n");
    write(dir, "notes.txt", "hello\n");
    std::fs::create_dir(dir.join("adir.c")).expect("mkdir");
    for (args, kind) in [
        (vec!["check", "refused.c", "--json"], "refused"),
        (vec!["check", "broken.c", "--json"], "compile"),
        (vec!["check", "missing.c", "--json"], "input"),
        (vec!["check", "notes.txt", "--json"], "input"),
        (vec!["check", "adir.c", "--json"], "input"),
        (vec!["check", "ok.c", "--json", "--timeout", "inf"], "usage"),
        (vec!["check", "ok.c", "--json", "--algorithm", "nope"], "usage"),
        (vec!["check", "ok.c", "--json", "--max-context-switches", "2"], "usage"),
        (vec!["replay", "ok.c", "not-a-token", "--json"], "usage"),
    ] {
        let out = unfold(dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let j = one_json(&out);
        assert_eq!(j["verdict"], "error", "{args:?}: {j}");
        assert_eq!(j["error_kind"], kind, "{args:?}: {j}");
        assert!(j["message"].as_str().is_some_and(|m| !m.is_empty()), "{args:?}: {j}");
    }
    let j = one_json(&unfold(dir, &["check", "refused.c", "--json"]));
    assert!(j["message"].as_str().is_some_and(|m| m.contains("pthread_cancel")), "{j}");
    let j = one_json(&unfold(dir, &["check", "broken.c", "--json"]));
    assert!(j["diagnostics"].as_str().is_some_and(|m| m.contains("nope")), "{j}");
}

#[test]
fn a_closed_pipe_ends_the_report_quietly() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(tmp.path(), "ok.c", "int main(void) { return 0; }\n");
    for json in [false, true] {
        let mut cmd = unfold_cmd(tmp.path());
        cmd.args(["check", "ok.c"]);
        if json {
            cmd.arg("--json");
        }
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("starts");
        // The reader goes away before unfold writes anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("exits");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(!text(&out.stderr).contains("panicked"), "{}", text(&out.stderr));
    }
}

#[test]
fn inputs_that_are_not_c_sources_are_named_as_such() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(tmp.path(), "foo.txt", "int main(void) { return 0; }\n");
    let out = unfold(tmp.path(), &["check", "foo.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a C source file"), "{}", text(&out.stderr));
    let out = unfold(tmp.path(), &["check", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is a directory"), "{}", text(&out.stderr));
}

#[test]
fn compiler_output_is_capped_and_names_the_runtime_header() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let junk: String = (0..3000).map(|i| format!("int f{i}(void) {{ return @ + $ + `; }}\n")).collect();
    write(tmp.path(), "junk.c", &junk);
    let out = unfold(tmp.path(), &["check", "junk.c"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.len() < 40_000, "{} bytes of diagnostics", err.len());
    assert!(err.contains("more error(s) not shown"), "{err}");
    assert!(err.contains("compilation of junk.c failed"), "{err}");

    // An error involving a macro of the force-included header: no temporary path.
    write(tmp.path(), "macro.c", "#include <pthread.h>\nint main(void) { pthread_mutex_lock(0, 1); return 0; }\n");
    let scratch = tempfile::tempdir().expect("temp dir");
    let out = unfold_cmd(tmp.path()).args(["check", "macro.c"]).env("TMPDIR", scratch.path()).output().expect("runs");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(!err.contains(&scratch.path().display().to_string()), "{err}");
    assert!(err.contains("<unfold.h>") && err.contains("runtime header"), "{err}");
}

#[test]
fn cc_may_carry_arguments() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(
        tmp.path(),
        "cc.c",
        "#ifndef FROM_CC\n#error CC's arguments were dropped\n#endif\nint main(void) { return 0; }\n",
    );
    let out = unfold_cmd(tmp.path()).args(["check", "cc.c"]).env("CC", "cc -DFROM_CC=1").output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// The processes whose environment holds `tag` (a fork keeps its parent's environment).
fn processes_tagged(tag: &str) -> Vec<String> {
    let needle = format!("UNFOLD_TEST_TAG={tag}");
    std::fs::read_dir("/proc")
        .expect("/proc is readable")
        .filter_map(|e| {
            let e = e.ok()?;
            let env = std::fs::read(e.path().join("environ")).ok()?;
            env.split(|&b| b == 0).any(|v| v == needle.as_bytes()).then(|| e.file_name().to_string_lossy().into_owned())
        })
        .collect()
}

#[test]
fn sigterm_and_sighup_stop_cleanly_and_leave_nothing_behind() {
    let src = tempfile::tempdir().expect("temp dir");
    write(src.path(), "spin.c", SPIN);
    for (isolation, how) in [("persistent", "timeout"), ("fork", "timeout"), ("persistent", "hup")] {
        let tmp = tempfile::tempdir().expect("temp dir");
        let tag = format!("{}-{isolation}-{how}", std::process::id());
        let unfold = env!("CARGO_BIN_EXE_unfold");
        let args = ["check", "spin.c", "--isolation", isolation];
        let mut cmd = match how {
            // What CI does: `timeout` sends SIGTERM to the checker's process group.
            "timeout" => {
                let mut c = Command::new("timeout");
                c.args(["-s", "TERM", "1", unfold]).args(args);
                c
            }
            _ => {
                let mut c = Command::new(unfold);
                c.args(args);
                c
            }
        };
        let child = cmd
            .current_dir(src.path())
            .env("TMPDIR", tmp.path())
            .env("UNFOLD_TEST_TAG", &tag)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        if how == "hup" {
            std::thread::sleep(Duration::from_millis(1000));
            let kill = Command::new("sh").args(["-c", &format!("kill -HUP {}", child.id())]).status().expect("sh");
            assert!(kill.success());
        }
        let out = child.wait_with_output().expect("exits");
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        let signal = if how == "hup" { "SIGHUP" } else { "SIGTERM" };
        // During exploration: the report; while compiling (a slow machine): the message.
        assert!(
            stdout.contains(&format!("INCOMPLETE (interrupted by {signal}"))
                || stderr.contains(&format!("interrupted by {signal}")),
            "{isolation} {how}: {stdout}\n{stderr}"
        );
        if how == "hup" {
            assert_eq!(out.status.code(), Some(3));
        }
        // Killed workers and execution processes may take a moment to be reaped by init.
        let mut left = processes_tagged(&tag);
        for _ in 0..20 {
            if left.is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
            left = processes_tagged(&tag);
        }
        assert!(left.is_empty(), "{isolation} {how}: processes left: {left:?}");
        let files: Vec<_> = std::fs::read_dir(tmp.path()).expect("readable").collect();
        assert!(files.is_empty(), "{isolation} {how}: temporary files left: {files:?}");
    }
}

#[test]
fn a_killed_checker_leaves_no_temporary_directory() {
    let src = tempfile::tempdir().expect("temp dir");
    write(src.path(), "spin.c", SPIN);
    let tmp = tempfile::tempdir().expect("temp dir");
    let tag = format!("{}-kill", std::process::id());
    let mut child = unfold_cmd(src.path())
        .args(["check", "spin.c"])
        .env("TMPDIR", tmp.path())
        .env("UNFOLD_TEST_TAG", &tag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    // Wait until the program runs (the checker and its worker, both the unfold binary;
    // not the compiler), then SIGKILL: no handler runs. A process forked to run the
    // compiler shows the unfold binary for a moment before its exec, so the condition
    // must hold on several polls in a row; compiling with the sanitizer's
    // instrumentation can take seconds on a loaded machine: wait up to a minute.
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_unfold")).expect("the binary");
    let mut in_a_row = 0;
    for _ in 0..1200 {
        let running = processes_tagged(&tag)
            .iter()
            .filter(|p| std::fs::read_link(format!("/proc/{p}/exe")).is_ok_and(|e| e == exe))
            .count();
        in_a_row = if running >= 2 { in_a_row + 1 } else { 0 };
        if in_a_row >= 4 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().expect("kill");
    child.wait().expect("reaped");
    let mut left = processes_tagged(&tag);
    for _ in 0..20 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        left = processes_tagged(&tag);
    }
    assert!(left.is_empty(), "processes left: {left:?}");
    let files: Vec<_> = std::fs::read_dir(tmp.path()).expect("readable").collect();
    assert!(files.is_empty(), "temporary files left: {files:?}");
}

const TWO_DEADLOCKS: &str = r#"#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t c = PTHREAD_MUTEX_INITIALIZER, d = PTHREAD_MUTEX_INITIALIZER;
void *ab(void *x) { (void)x; pthread_mutex_lock(&a); pthread_mutex_lock(&b); pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }
void *ba(void *x) { (void)x; pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return 0; }
void *cd(void *x) { (void)x; pthread_mutex_lock(&c); pthread_mutex_lock(&d); pthread_mutex_unlock(&d); pthread_mutex_unlock(&c); return 0; }
void *dc(void *x) { (void)x; pthread_mutex_lock(&d); pthread_mutex_lock(&c); pthread_mutex_unlock(&c); pthread_mutex_unlock(&d); return 0; }
int main(void) {
    pthread_t t[4];
    pthread_create(&t[0], 0, ab, 0);
    pthread_create(&t[1], 0, ba, 0);
    pthread_create(&t[2], 0, cd, 0);
    pthread_create(&t[3], 0, dc, 0);
    for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
    return 0;
}
"#;

fn defects(j: &Value) -> Vec<(String, String)> {
    j["defects"]
        .as_array()
        .expect("defects")
        .iter()
        .map(|d| (d["kind"].as_str().unwrap_or("?").to_string(), d["message"].as_str().unwrap_or("?").to_string()))
        .collect()
}

#[test]
fn keep_going_reports_each_independent_deadlock() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(tmp.path(), "two.c", TWO_DEADLOCKS);
    let out = unfold(tmp.path(), &["check", "two.c", "--keep-going", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let j = one_json(&out);
    let mut lines: Vec<u64> = j["defects"]
        .as_array()
        .expect("defects")
        .iter()
        .filter(|d| d["kind"] == "deadlock")
        .map(|d| d["location"]["line"].as_u64().expect("a deadlock has a location"))
        .collect();
    lines.sort();
    // One inversion on a/b (lines 4-5), one on c/d (lines 6-7); both happening in the same
    // execution is still these two.
    assert_eq!(lines.len(), 2, "{j}");
    assert!([4, 5].contains(&lines[0]) && [6, 7].contains(&lines[1]), "{lines:?}: {j}");
}

const FAILED_THREAD: &str = r#"#include <pthread.h>
#include <assert.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *fails(void *x) { (void)x; assert(0 && "worker fails"); return 0; }
void *ab(void *x) { (void)x; pthread_mutex_lock(&a); pthread_mutex_lock(&b); pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }
void *ba(void *x) { (void)x; pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return 0; }
int main(void) {
    pthread_t f, t1, t2;
    pthread_create(&f, 0, fails, 0);
#ifdef INVERSION
    pthread_create(&t1, 0, ab, 0);
    pthread_create(&t2, 0, ba, 0);
#endif
    pthread_join(f, 0);
#ifdef INVERSION
    pthread_join(t1, 0);
    pthread_join(t2, 0);
#endif
    return 0;
}
"#;

#[test]
fn joining_a_failed_thread_is_not_a_deadlock_and_hides_none() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(tmp.path(), "failed.c", FAILED_THREAD);
    let out = unfold(tmp.path(), &["check", "failed.c", "--keep-going", "--json"]);
    let ds = defects(&one_json(&out));
    assert_eq!(ds.iter().map(|d| d.0.as_str()).collect::<Vec<_>>(), vec!["assertion"], "{ds:?}");

    let out = unfold(tmp.path(), &["check", "failed.c", "--keep-going", "--json", "-D", "INVERSION"]);
    let ds = defects(&one_json(&out));
    assert_eq!(ds.iter().filter(|d| d.0 == "assertion").count(), 1, "{ds:?}");
    let deadlocks: Vec<&(String, String)> = ds.iter().filter(|d| d.0 == "deadlock").collect();
    assert_eq!(deadlocks.len(), 1, "{ds:?}");
    assert!(deadlocks[0].1.contains("waits for a") && deadlocks[0].1.contains("waits for b"), "{ds:?}");
}

#[test]
fn bad_limits_are_usage_errors() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(tmp.path(), "ok.c", "int main(void) { return 0; }\n");
    for flag in [
        "--timeout=inf",
        "--timeout=-1",
        "--timeout=nan",
        "--timeout=0",
        "--exec-timeout=1e30",
        "--exec-timeout=NaN",
        "--max-steps=9223372036854775807",
        "--max-steps=0",
    ] {
        let out = unfold(tmp.path(), &["check", "ok.c", flag]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert!(err.contains("invalid value") && !err.contains("panicked"), "{flag}: {err}");
    }
    // The largest accepted bound works.
    let out = unfold(tmp.path(), &["check", "ok.c", "--max-steps", "10000000"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn an_unwritable_dot_file_keeps_the_report() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(tmp.path(), "ok.c", "int main(void) { return 0; }\n");
    let out = unfold(tmp.path(), &["check", "ok.c", "--dot", "/nonexistent/dir/x.dot"]);
    assert!(text(&out.stdout).contains("verdict: OK"), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("cannot write the --dot file"), "{}", text(&out.stderr));
    assert_eq!(out.status.code(), Some(2));
    let out = unfold(tmp.path(), &["check", "ok.c", "--json", "--dot", "/nonexistent/dir/x.dot"]);
    let j = one_json(&out);
    assert_eq!(j["verdict"], "ok");
    assert!(j["dot_error"].is_string(), "{j}");
}

#[test]
fn process_endings_are_named_not_numbered() {
    let tmp = tempfile::tempdir().expect("temp dir");
    write(tmp.path(), "alarm.c", "#include <unistd.h>\nint main(void) { alarm(1); for (;;) {} }\n");
    let out = unfold(tmp.path(), &["check", "alarm.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("killed by SIGALRM"), "{}", text(&out.stdout));
    // `_exit(3)` is the program's exit with status 3 (a defect), in both isolation modes.
    write(tmp.path(), "exit3.c", "#include <unistd.h>\nint main(void) { _exit(3); }\n");
    for iso in ["persistent", "fork"] {
        let out = unfold(tmp.path(), &["check", "exit3.c", "--isolation", iso]);
        let report = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{iso}: {report} {}", text(&out.stderr));
        assert!(report.contains("exited with status 3") && !report.contains("768"), "{iso}: {report}");
    }
}

/// Dekker's mutual exclusion with C11 atomics: its waits read two flags at once, which
/// QPOR does not support.
const DEKKER: &str = r#"#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>
atomic_int want0, want1, turn;
int inside;
void *t1(void *a) {
    (void)a;
    atomic_store(&want1, 1);
    while (atomic_load(&want0)) {
        if (atomic_load(&turn) != 1) {
            atomic_store(&want1, 0);
            while (atomic_load(&turn) != 1) {}
            atomic_store(&want1, 1);
        }
    }
    inside++;
    assert(inside == 1);
    inside--;
    atomic_store(&turn, 0);
    atomic_store(&want1, 0);
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t1, 0);
    atomic_store(&want0, 1);
    while (atomic_load(&want1)) {
        if (atomic_load(&turn) != 0) {
            atomic_store(&want0, 0);
            while (atomic_load(&turn) != 0) {}
            atomic_store(&want0, 1);
        }
    }
    inside++;
    assert(inside == 1);
    inside--;
    atomic_store(&turn, 1);
    atomic_store(&want0, 0);
    pthread_join(h, 0);
    return 0;
}
"#;

#[test]
fn the_default_algorithm_gives_way_on_a_program_it_does_not_support_a_named_one_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "dekker.c", DEKKER);
    // Default: qpor meets a two-location wait, warns, and optimal-DPOR explores it all.
    let out = unfold(dir.path(), &["check", "dekker.c", "--json"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let j = one_json(&out);
    assert_eq!(j["verdict"], "ok", "{j}");
    assert_eq!(j["algorithm"], "optimal-dpor", "{j}");
    let w = j["warnings"].as_array().expect("a warning says why").iter().filter_map(|w| w.as_str()).collect::<Vec<_>>();
    assert!(w.iter().any(|w| w.contains("several locations") && w.contains("optimal-dpor instead")), "{j}");
    assert!(text(&out.stderr).contains("optimal-dpor instead"), "the warning is on stderr too");
    // The same count as optimal-DPOR named directly: nothing of the first attempt leaks in.
    let named = one_json(&unfold(dir.path(), &["check", "dekker.c", "--json", "--algorithm", "optimal-dpor"]));
    assert_eq!(j["executions"], named["executions"], "{j} vs {named}");
    assert!(named.get("warnings").is_none(), "{named}");
    // Named by the user (also through -k): refused, exit 2, error_kind refused.
    for args in [&["--algorithm", "qpor"][..], &["-k", "2"][..]] {
        let out = unfold(dir.path(), &[&["check", "dekker.c", "--json"][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let j = one_json(&out);
        assert_eq!(j["error_kind"], "refused", "{args:?}: {j}");
        assert!(j["message"].as_str().is_some_and(|m| m.contains("several locations")), "{j}");
    }
}

/// A `--keep-going` run that finds a defect and is then cut short by `--timeout` says
/// that the list may be partial (text and JSON); a run that stops at its first defect,
/// as asked, does not; an incomplete run names the time-out as its reason.
#[test]
fn a_keep_going_run_cut_by_the_timeout_says_its_list_may_be_partial() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // Six threads taking a mutex three times each: far more schedules than one second
    // explores; main's assertion fails in the first.
    write(
        tmp.path(),
        "many.c",
        "#include <pthread.h>\n#include <assert.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint x;\n\
         void *t(void *a) { for (int i = 0; i < 3; i++) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); } return a; }\n\
         int main(void) { pthread_t p[6]; for (int i = 0; i < 6; i++) pthread_create(&p[i], 0, t, 0);\n\
         assert(x < 100); assert(x < 10); for (int i = 0; i < 6; i++) pthread_join(p[i], 0); return 0; }\n",
    );
    let out = unfold(tmp.path(), &["check", "many.c", "--keep-going", "--timeout", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("note: stopped by --timeout before the exploration ended: other defects may exist"),
        "{}",
        text(&out.stdout)
    );
    let out = unfold(tmp.path(), &["check", "many.c", "--keep-going", "--timeout", "1", "--json"]);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!((j["verdict"].as_str(), j["stopped_early"].as_str()), (Some("defect"), Some("timeout")), "{j}");
    let out = unfold(tmp.path(), &["check", "many.c", "--json"]);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!((j["verdict"].as_str(), j["stopped_early"].is_null()), (Some("defect"), true), "{j}");
    // Without a defect, the time-out is the reason for the incomplete verdict.
    let src = std::fs::read_to_string(tmp.path().join("many.c")).expect("many.c");
    write(tmp.path(), "many_ok.c", &src.replace("assert(x < 100); assert(x < 10); ", ""));
    let out = unfold(tmp.path(), &["check", "many_ok.c", "--timeout", "1", "--json"]);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!((j["verdict"].as_str(), j["stopped_early"].as_str()), (Some("incomplete"), Some("timeout")), "{j}");
}
