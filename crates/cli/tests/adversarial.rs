//! The adversarial corpus (`tests/adversarial/*.c`, issue 12): programs written to hurt
//! the checker itself — constructors and destructors that crash, exit, loop or print,
//! `atexit` handlers, `_exit` in a thread, process creation, wild mutex pointers, writes
//! into the checker's shared memory, files, huge allocations. Each file states what
//! must happen:
//!
//! - `// expect: verdict=ok`, `// expect: verdict=defect kind=K`: the verdict and a
//!   defect of kind K; `// expect: verdict=incomplete`;
//! - `// expect: refused=TEXT`: refused before running, the message naming TEXT;
//! - `// expect: limit=TEXT`: stopped at a limit of the checker (`error_kind` `limit`),
//!   the message naming TEXT;
//! - `// expect: error=TEXT`: the checker stops with an error whose message has TEXT;
//! - optional `// args: FLAGS` (passed to `unfold check`) and `// stderr: TEXT` (a
//!   diagnostic that must be printed).
//!
//! For every program: stdout is exactly one JSON object, the exit status matches the
//! verdict, no file is left in `$TMPDIR` and no process is left running in the program's
//! directory. Two runs of the same program print the same JSON apart from times and
//! memory.

mod common;

use common::{processes_left_in, terminate_when_running};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/adversarial");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/adversarial exists")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    assert!(v.len() >= 15, "the adversarial corpus is missing programs: {v:?}");
    v
}

fn header(src: &str, key: &str) -> Option<String> {
    src.lines().find_map(|l| l.strip_prefix(&format!("// {key}: ")).map(|s| s.trim().to_string()))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Run `unfold check` on a copy of `prog` in a fresh directory, with a private `$TMPDIR`.
/// Returns the output, the JSON object and the program's directory (kept until the
/// checks of the caller are done).
fn check(prog: &Path, extra: &[String]) -> (Output, Value, tempfile::TempDir) {
    let work = tempfile::tempdir().expect("temp dir");
    let tmp = tempfile::tempdir().expect("temp dir");
    let name = prog.file_name().expect("a file name");
    std::fs::copy(prog, work.path().join(name)).expect("copy the program");
    let out = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(work.path())
        .env("TMPDIR", tmp.path())
        .arg("check")
        .arg(name)
        .arg("--json")
        .args(extra)
        .output()
        .expect("the unfold binary runs");
    let s = text(&out.stdout);
    let mut it = serde_json::Deserializer::from_str(&s).into_iter::<Value>();
    let j = match it.next() {
        Some(Ok(j)) if j.is_object() => j,
        other => panic!("{}: no JSON object on stdout ({other:?}): {s:?} {}", prog.display(), text(&out.stderr)),
    };
    assert!(it.next().is_none(), "{}: more than one JSON value on stdout: {s}", prog.display());
    let left: Vec<_> = std::fs::read_dir(tmp.path()).expect("read TMPDIR").collect();
    assert!(left.is_empty(), "{}: files left in TMPDIR: {left:?}", prog.display());
    (out, j, work)
}

#[test]
fn every_adversarial_program_gets_its_expected_verdict_and_leaves_nothing_behind() {
    let mut failures = Vec::new();
    for prog in corpus() {
        let src = std::fs::read_to_string(&prog).expect("read the program");
        let expect = header(&src, "expect").unwrap_or_else(|| panic!("{}: no `// expect:` line", prog.display()));
        let args: Vec<String> =
            header(&src, "args").map(|a| a.split_whitespace().map(String::from).collect()).unwrap_or_default();
        // Both isolation modes: the persistent worker (the default for most programs) and
        // one process per execution.
        for fork in [false, true] {
            let mut args = args.clone();
            if fork {
                args.extend(["--isolation".to_string(), "fork".to_string()]);
            }
            let (out, j, work) = check(&prog, &args);
            let file = prog.file_name().expect("name").to_string_lossy().into_owned();
            let name = format!("{file} ({})", if fork { "fork" } else { "auto" });
            let code = out.status.code();
            let kinds: Vec<&str> = j["defects"]
                .as_array()
                .map(|d| d.iter().filter_map(|d| d["kind"].as_str()).collect())
                .unwrap_or_default();
            let message = j["message"].as_str().unwrap_or("");
            let ok = if let Some(v) = expect.strip_prefix("verdict=") {
                let mut words = v.split_whitespace();
                let verdict = words.next().expect("a verdict");
                let kind = words.next().and_then(|k| k.strip_prefix("kind="));
                let status = match verdict {
                    "ok" => 0,
                    "defect" => 1,
                    "incomplete" => 3,
                    v => panic!("{name}: unknown verdict {v}"),
                };
                j["verdict"] == verdict && code == Some(status) && kind.is_none_or(|k| kinds.contains(&k))
            } else if let Some(t) = expect.strip_prefix("refused=") {
                j["verdict"] == "error" && j["error_kind"] == "refused" && message.contains(t) && code == Some(2)
            } else if let Some(t) = expect.strip_prefix("limit=") {
                j["verdict"] == "error" && j["error_kind"] == "limit" && message.contains(t) && code == Some(2)
            } else if let Some(t) = expect.strip_prefix("error=") {
                j["verdict"] == "error" && message.contains(t) && code == Some(2)
            } else {
                panic!("{name}: unknown expectation {expect}")
            };
            let stderr = text(&out.stderr);
            let diag_ok = header(&src, "stderr").is_none_or(|t| stderr.contains(&t));
            if !ok || !diag_ok {
                failures.push(format!("{name}: expected {expect}, got exit {code:?} {j}\nstderr: {stderr}"));
            }
            // Workers die with the checker.
            let left = processes_left_in(work.path());
            if !left.is_empty() {
                failures.push(format!("{name}: processes left behind: {left:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The JSON report without what differs between two runs by nature.
fn stable(mut j: Value) -> Value {
    let o = j.as_object_mut().expect("an object");
    for k in ["elapsed_s", "peak_rss_bytes"] {
        assert!(o.remove(k).is_some(), "the report has {k}");
    }
    j
}

/// A finding of the exploration that its replay does not show again is named in a
/// warning, and the verdict is incomplete, in both isolation modes: the exploration went
/// on from an execution that may not have been what the program does under its schedule.
#[test]
fn a_finding_the_replay_does_not_show_again_is_a_warning_and_an_incomplete_verdict() {
    let prog = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/adversarial/crash_not_replayed.c");
    for isolation in ["auto", "fork"] {
        let (out, j, _work) = check(&prog, &["--isolation".to_string(), isolation.to_string()]);
        assert_eq!(j["verdict"], "incomplete", "{isolation}: {j}");
        assert_eq!(out.status.code(), Some(3), "{isolation}: {j}");
        assert_eq!(j["defects"].as_array().map(Vec::len), Some(0), "{isolation}: {j}");
        let warned = j["warnings"].as_array().is_some_and(|w| {
            w.iter().filter_map(Value::as_str).any(|w| w.contains("crash") && w.contains("did not happen again"))
        });
        assert!(warned, "{isolation}: {j}");
    }
}

#[test]
fn two_runs_print_the_same_json_apart_from_time_and_memory() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/adversarial");
    let keep_going = vec!["--keep-going".to_string()];
    for (name, args) in
        [("atexit_assert.c", &keep_going), ("ctor_heap.c", &keep_going), ("thread_exit_status.c", &vec![])]
    {
        let prog = dir.join(name);
        let (_, a, _w1) = check(&prog, args);
        let (_, b, _w2) = check(&prog, args);
        let (a, b) = (stable(a), stable(b));
        assert_eq!(a, b, "{name}: the two reports differ");
        assert!(a["executions"].as_u64().is_some_and(|n| n >= 1), "{name}: {a}");
    }
}

#[test]
fn line_numbers_beyond_65535_are_reported_exactly() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let prog = tmp.path().join("long.c");
    std::fs::write(
        &prog,
        "#include <pthread.h>\n#include <assert.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint x;\n\
         void *t(void *a) { (void)a; pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }\n\
         int main(void) {\n    pthread_t h;\n    pthread_create(&h, 0, t, 0);\n#line 70000\n\
         pthread_mutex_lock(&m);\n    assert(x == 0);\n    pthread_mutex_unlock(&m);\n    pthread_join(h, 0);\n}\n",
    )
    .expect("write");
    let (out, j, _w) = check(&prog, &[]);
    assert_eq!(out.status.code(), Some(1), "{j}");
    let d = &j["defects"][0];
    assert_eq!(d["location"]["line"], 70001, "{d}");
    let lines: Vec<u64> = d["trace"]
        .as_array()
        .expect("a trace")
        .iter()
        .filter(|s| s["thread"] == "t0")
        .filter_map(|s| s["location"]["line"].as_u64())
        .collect();
    assert!(lines.contains(&70000), "main's lock at line 70000: {lines:?} in {d}");
}

#[test]
fn a_constructor_that_loops_does_not_keep_the_checker_from_stopping() {
    let prog = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/adversarial/ctor_loop.c");
    let work = tempfile::tempdir().expect("temp dir");
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::copy(&prog, work.path().join("ctor_loop.c")).expect("copy");
    // Stopped once the constructor runs in a worker (a second process in the directory).
    let out = terminate_when_running(
        work.path(),
        tmp.path(),
        &["check", "ctor_loop.c", "--json", "--exec-timeout", "600"],
        "check ctor_loop.c",
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let j: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(j["verdict"], "incomplete", "{j}");
    assert!(std::fs::read_dir(tmp.path()).expect("TMPDIR").next().is_none(), "files left in TMPDIR");
    let left = processes_left_in(work.path());
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

#[test]
fn peak_memory_is_the_checkers_not_the_compilers() {
    // A 10^6-element initializer: cc1 needs well over 100 MiB to compile it; the program
    // itself holds 1 MB of data.
    let tmp = tempfile::tempdir().expect("temp dir");
    let prog = tmp.path().join("big_initializer.c");
    let mut src = String::from("#define A1 1,2,3,4,5,6,7,8,9,10\n");
    for i in 2..=6 {
        let p = format!("A{}", i - 1);
        src += &format!("#define A{i} {}\n", vec![p; 10].join(","));
    }
    src += "static const char table[] = { A6 };\nint main(void) { return table[12345] == 6 ? 0 : 1; }\n";
    std::fs::write(&prog, src).expect("write");
    let (out, j, _w) = check(&prog, &[]);
    assert_eq!(out.status.code(), Some(0), "{j}");
    let peak = j["peak_rss_bytes"].as_u64().expect("peak_rss_bytes");
    assert!(peak > 0 && peak < 64 << 20, "peak {} MiB: the compiler's memory is counted", peak >> 20);
}

#[test]
fn peak_memory_is_the_checkers_not_the_memory_of_the_process_that_started_it() {
    // Linux keeps `ru_maxrss` across `execve`: a launcher that held 256 MiB and then
    // exec'd the checker must not have its memory reported as the checker's.
    let tmp = tempfile::tempdir().expect("temp dir");
    let launcher = tmp.path().join("launcher.c");
    std::fs::write(
        &launcher,
        "#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n\
         int main(int argc, char **argv) {\n    size_t n = 256u << 20;\n    char *p = malloc(n);\n    \
         if (!p) return 2;\n    memset(p, 1, n);\n    execv(argv[1], argv + 1);\n    return 3;\n}\n",
    )
    .expect("write");
    let exe = tmp.path().join("launcher");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let built = Command::new(cc).arg("-o").arg(&exe).arg(&launcher).status().expect("cc runs");
    assert!(built.success());
    let prog = tmp.path().join("two.c");
    std::fs::write(
        &prog,
        "#include <pthread.h>\nint x;\nvoid *t(void *a) { x++; return a; }\n\
         int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); pthread_join(a, 0); return 0; }\n",
    )
    .expect("write");
    let out = Command::new(&exe)
        .current_dir(tmp.path())
        .arg(env!("CARGO_BIN_EXE_unfold"))
        .args(["check", "two.c", "--json"])
        .output()
        .expect("the launcher runs");
    let j: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(j["verdict"], "ok", "{j}");
    let peak = j["peak_rss_bytes"].as_u64().expect("peak_rss_bytes");
    assert!(peak > 0 && peak < 128 << 20, "peak {} MiB: the launcher's memory is counted", peak >> 20);
}

#[test]
fn the_heap_size_travels_in_the_replay_token() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let prog = tmp.path().join("big_heap.c");
    std::fs::write(
        &prog,
        "#include <stdlib.h>\n#include <assert.h>\nint main(void) {\n    char *p = malloc(300 << 20);\n    \
         assert(p);\n    p[0] = 1;\n    assert(p[1] == 1);\n    return 0;\n}\n",
    )
    .expect("write");
    let (out, j, _w) = check(&prog, &["--heap-size".into(), "512M".into()]);
    assert_eq!(out.status.code(), Some(1), "{j}");
    let d = &j["defects"][0];
    assert_eq!(d["location"]["line"], 7, "the second assertion, not the allocation: {d}");
    let token = d["replay"].as_str().expect("a token");
    // The replay, without --heap-size, re-runs the same execution (not the default limit).
    let out = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(tmp.path())
        .args(["replay", "big_heap.c", token, "--json"])
        .output()
        .expect("replay");
    let r: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(out.status.code(), Some(1), "{r} {}", text(&out.stderr));
    // A different --heap-size given to the replay is a mismatch, not a silent change.
    let out = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(tmp.path())
        .args(["replay", "big_heap.c", token, "--heap-size", "64M"])
        .output()
        .expect("replay");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--heap-size: recorded 512 MiB, given 64 MiB"), "{}", text(&out.stderr));
}

/// A time limit that stops an execution while it replays the steps of the previous one
/// (which the worker no longer sends back: the parent keeps them) ends with one JSON
/// report, `incomplete` and exit status 3, under QPOR and optimal-DPOR alike. Every
/// execution here is 60 000 steps long and replays nearly all of the previous one, so
/// the one-second limit falls inside the replayed part.
#[test]
fn a_time_limit_inside_the_replayed_steps_reports_incomplete() {
    let dir = tempfile::tempdir().expect("temp dir");
    let prog = dir.path().join("long_replay.c");
    std::fs::write(
        &prog,
        "#include <pthread.h>\n#include <stdatomic.h>\natomic_int c;\n\
         void *w(void *p) { (void)p; for (int i = 0; i < 20000; i++) atomic_fetch_add(&c, 1); return 0; }\n\
         int main(void) {\n    pthread_t t[3];\n    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, w, 0);\n\
         for (int i = 0; i < 3; i++) pthread_join(t[i], 0);\n    return 0;\n}\n",
    )
    .expect("write the program");
    for alg in ["qpor", "optimal-dpor"] {
        let args = ["--timeout".to_string(), "1".to_string(), "--algorithm".to_string(), alg.to_string()];
        let (out, j, _work) = check(&prog, &args);
        assert_eq!(j["verdict"], "incomplete", "{alg}: {j}\n{}", text(&out.stderr));
        assert_eq!(out.status.code(), Some(3), "{alg}: {}", text(&out.stderr));
        assert!(j["executions"].as_u64().is_some_and(|n| n >= 1), "{alg}: {j}");
    }
}

/// `--timeout` holds while an explorer analyses a long run: with `--keep-going`,
/// `writer_behind_pollers.c` makes runs of 100 000 steps whose analysis by source- or
/// optimal-DPOR took seconds to minutes each (with `--timeout 10`, the binary before
/// ran 20 s under optimal-DPOR and was killed after 200 s under source-DPOR). The
/// analysis now asks the deadline as it goes.
#[test]
fn a_timeout_cuts_the_analysis_of_a_long_run() {
    let prog = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/adversarial/writer_behind_pollers.c");
    for alg in ["source-dpor", "optimal-dpor"] {
        let args = ["--keep-going", "--timeout", "2", "--algorithm", alg].map(String::from);
        let started = std::time::Instant::now();
        let (out, j, _work) = check(&prog, &args);
        let took = started.elapsed();
        assert_eq!(j["stopped_early"], "timeout", "{alg}: {j}\n{}", text(&out.stderr));
        let kinds: Vec<&str> =
            j["defects"].as_array().expect("defects").iter().filter_map(|d| d["kind"].as_str()).collect();
        assert!(kinds.contains(&"bound"), "{alg}: {kinds:?}");
        // Compilation, 2 s of exploration, and the report's replays of a few runs of
        // 100 000 steps; the margin is for a loaded machine.
        assert!(took < std::time::Duration::from_secs(30), "{alg}: took {took:?}");
    }
}

/// `--keep-going` reports every defect whatever the explorer, also when a run crashes or
/// is cut by its time limit before the schedule that shows the other defect: the races
/// of a cut run are analysed like those of any other (`tests/c/keep_going_crash_then_assert.c`).
#[test]
fn keep_going_finds_the_defect_behind_a_crash_with_every_explorer() {
    let prog = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/c/keep_going_crash_then_assert.c");
    for alg in ["qpor", "optimal-dpor", "source-dpor", "classic-dpor", "dfs"] {
        let args = ["--keep-going".to_string(), "--algorithm".to_string(), alg.to_string()];
        let (out, j, _work) = check(&prog, &args);
        let kinds: Vec<&str> =
            j["defects"].as_array().expect("defects").iter().filter_map(|d| d["kind"].as_str()).collect();
        assert!(kinds.contains(&"crash") && kinds.contains(&"assertion"), "{alg}: {kinds:?}\n{}", text(&out.stderr));
        assert_eq!(j["maximal_configurations"], 1, "{alg}: {j}");
    }
}

/// Every execution of `keep_going_crash_every_order.c` crashes (killing the persistent
/// worker) at a line naming the order three threads took a lock in: each run must list
/// all six. A worker spawned after a crash took the crashed request for a new one when
/// it started before the parent posted the next request, and re-ran it (3 runs in 80
/// lost an order, by a timing race, so the program is run several times).
#[test]
fn a_worker_spawned_after_a_crash_runs_the_next_request() {
    let prog = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/c/keep_going_crash_every_order.c");
    for round in 0..4 {
        for alg in ["qpor", "optimal-dpor", "source-dpor", "classic-dpor", "dfs"] {
            let args = ["--keep-going".to_string(), "--algorithm".to_string(), alg.to_string()];
            let (out, j, _work) = check(&prog, &args);
            let mut lines: Vec<u64> = j["defects"]
                .as_array()
                .expect("defects")
                .iter()
                .filter(|d| d["kind"] == "crash")
                .filter_map(|d| d["location"]["line"].as_u64())
                .collect();
            lines.sort_unstable();
            lines.dedup();
            assert_eq!(lines.len(), 6, "round {round}, {alg}: crash lines {lines:?}\n{}", text(&out.stderr));
        }
    }
}

/// A checker bug in the worker — a panic, here injected in a build with debug
/// assertions into every shim (`UNFOLD_FAULT=shim-panic`) or into the worker's own code
/// before each run (`worker-panic`), or an unwind no panic hook sees in a shim
/// (`shim-unwind`: a suspended coroutine dropped instead of discarded, as the run ahead
/// once did) — reaches the user as an internal error with the panic's message, in both
/// isolation modes, not as the program dying of SIGABRT (the worker's stderr, where the
/// message went, is the program's and is discarded), and a panic outside a shim does
/// not unwind into the forked copy of the checker.
#[cfg(debug_assertions)]
#[test]
fn a_panic_in_the_worker_is_an_internal_error_not_a_crash_of_the_program() {
    let prog = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/c/heap_mutex.c");
    for (isolation, fault) in
        [("persistent", "shim-panic"), ("fork", "shim-panic"), ("persistent", "worker-panic"), ("fork", "worker-panic")]
            .into_iter()
            .chain([("persistent", "shim-unwind"), ("fork", "shim-unwind")])
    {
        let tmp = tempfile::tempdir().expect("temp dir");
        let out = Command::new(env!("CARGO_BIN_EXE_unfold"))
            .env("TMPDIR", tmp.path())
            .env("UNFOLD_FAULT", fault)
            .args(["check", "--json", "--isolation", isolation])
            .arg(&prog)
            .output()
            .expect("the unfold binary runs");
        let j: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(j["verdict"], "error", "{isolation} {fault}: {j}");
        assert_eq!(j["error_kind"], "internal", "{isolation} {fault}: {j}");
        let msg = j["message"].as_str().expect("a message");
        let expected = match fault {
            "shim-unwind" => msg.contains("a program thread was unwound inside a C shim"),
            _ => msg.contains("the worker panicked") && msg.contains(fault),
        };
        assert!(expected, "{isolation} {fault}: {msg}");
        assert_ne!(out.status.code(), Some(1), "{isolation} {fault}: an error, not a defect");
        let left: Vec<_> = std::fs::read_dir(tmp.path()).expect("read TMPDIR").collect();
        assert!(left.is_empty(), "{isolation} {fault}: files left in TMPDIR: {left:?}");
    }
}

/// The run ahead (the worker runs the next execution's shared prefix before the request
/// comes, and follows the explorer's bound on where it will branch off) under random
/// delays where the two sides meet (`UNFOLD_FAULT=ahead-jitter`, builds with debug
/// assertions): every run explores what a run without checkpoints (no run ahead)
/// explores. Its race of round 18 lost executions about once in 356 runs on a loaded
/// machine; the delays make such windows wide.
#[cfg(debug_assertions)]
#[test]
fn the_run_ahead_explores_the_same_executions_under_random_delays() {
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench");
    let cases: [(&str, &[&str], u64); 3] = [
        ("disp.c", &["-D", "JOBS=2", "-D", "WORKERS=1", "-k", "1"], 28),
        ("mpat_nested.c", &["-D", "K=3"], 48),
        ("mpat_nested.c", &["-D", "K=3", "-k", "2"], 48),
    ];
    let run = |file: &str, args: &[&str], extra: &[&str], fault: Option<&str>| -> Value {
        let mut c = Command::new(env!("CARGO_BIN_EXE_unfold"));
        if let Some(f) = fault {
            c.env("UNFOLD_FAULT", f);
        }
        let out = c
            .args(["check", "--json", "--isolation", "persistent"])
            .args(args)
            .args(extra)
            .arg(bench.join(file))
            .output()
            .expect("the unfold binary runs");
        serde_json::from_slice(&out.stdout).expect("one JSON object")
    };
    for (file, args, configurations) in cases {
        let plain = run(file, args, &["--checkpoints", "off"], None);
        assert_eq!(plain["verdict"], "ok", "{file} {args:?}: {plain}");
        assert_eq!(plain["maximal_configurations"], configurations, "{file} {args:?}: {plain}");
        for i in 0..6 {
            let j = run(file, args, &[], Some("ahead-jitter"));
            for key in ["verdict", "executions", "maximal_configurations", "ssb"] {
                assert_eq!(
                    j[key], plain[key],
                    "{file} {args:?}, run {i} with delays: {key}\n{j}\nwithout run ahead: {plain}"
                );
            }
        }
    }
}
