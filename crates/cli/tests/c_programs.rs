//! Runs the real `unfold` binary on the C corpus in `tests/c/` and checks each program's
//! expectation, written in its header comment:
//!
//! - `// expect: verdict=ok maximal=N [maximal-rr=M]` — no defect, exactly N maximal
//!   configurations (M under read-read independence, the relation of the DPOR explorers,
//!   when read locks or memory reads make it differ from QPOR's all-dependent one);
//! - `// expect: verdict=defect kind=K[|K2] [line=L|L2]` — a defect of one of the kinds at
//!   one of the lines;
//! - `// expect: refused=NAME` — refused before exploring (exit 2), naming NAME;
//! - `// expect: compile-error` — the compiler's diagnostics and exit 2;
//! - `flags=ARG` (repeatable) — extra `unfold check` arguments.
//!
//! For every defect, `unfold replay` with the reported token must print the same trace.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/c").canonicalize().expect("tests/c exists")
}

/// The corpus programs (`.c`) whose names begin with `prefix`, sorted.
fn corpus_files(dir: &Path, prefix: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/c is readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".c"))
        .collect();
    files.sort();
    files
}

fn unfold(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_unfold")).current_dir(dir).args(args).output().expect("the unfold binary runs")
}

/// The JSON report of `unfold ARGS` run in `dir` (a panic naming the arguments if there
/// is none).
fn json_of(dir: &Path, args: &[&str]) -> Value {
    let out = unfold(dir, args);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: no JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)))
}

#[derive(Debug, Default)]
struct Expect {
    verdict: Option<String>,
    maximal: Option<u64>,
    maximal_rr: Option<u64>,
    kind: Vec<String>,
    lines: Vec<u64>,
    refused: Option<String>,
    compile_error: bool,
    flags: Vec<String>,
}

fn expectation(src: &str) -> Expect {
    let mut e = Expect::default();
    for line in src.lines().filter_map(|l| l.trim().strip_prefix("// expect:")) {
        for item in line.split_whitespace() {
            match item.split_once('=') {
                Some(("verdict", v)) => e.verdict = Some(v.into()),
                Some(("maximal", v)) => e.maximal = Some(v.parse().expect("maximal=N")),
                Some(("maximal-rr", v)) => e.maximal_rr = Some(v.parse().expect("maximal-rr=N")),
                Some(("kind", v)) => e.kind = v.split('|').map(String::from).collect(),
                Some(("line", v)) => e.lines = v.split('|').map(|l| l.parse().expect("line=N")).collect(),
                Some(("refused", v)) => e.refused = Some(v.into()),
                Some(("flags", v)) => e.flags.push(v.into()),
                None if item == "compile-error" => e.compile_error = true,
                _ => panic!("bad expectation item `{item}`"),
            }
        }
    }
    e
}

/// Check one program; returns a description of each mismatch.
fn check_program(dir: &Path, file: &str) -> Vec<String> {
    let src = std::fs::read_to_string(dir.join(file)).expect("readable source");
    let e = expectation(&src);
    let mut errs = Vec::new();
    let mut args = vec!["check", file, "--json"];
    args.extend(e.flags.iter().map(String::as_str));
    let out = unfold(dir, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    if e.compile_error || e.refused.is_some() {
        if code != Some(2) {
            errs.push(format!("{file}: expected exit 2, got {code:?}"));
        }
        if let Some(name) = &e.refused {
            if !stderr.contains(name.as_str()) {
                errs.push(format!("{file}: refusal does not name `{name}`: {stderr}"));
            }
        }
        if e.compile_error && !stderr.contains("error:") {
            errs.push(format!("{file}: compiler diagnostics not shown: {stderr}"));
        }
        return errs;
    }
    let json: Value = match serde_json::from_slice(&out.stdout) {
        Ok(j) => j,
        Err(err) => return vec![format!("{file}: bad JSON ({err}); stderr: {stderr}")],
    };
    let verdict = json["verdict"].as_str().unwrap_or("?");
    if Some(verdict) != e.verdict.as_deref() {
        errs.push(format!("{file}: verdict {verdict}, expected {:?}; {json}", e.verdict));
    }
    let expected_code = match verdict {
        "defect" => 1,
        "incomplete" => 3,
        _ => 0,
    };
    if code != Some(expected_code) {
        errs.push(format!("{file}: exit {code:?}, expected {expected_code}"));
    }
    for key in ["executions", "maximal_configurations", "ssb", "peak_rss_bytes"] {
        if !json[key].is_u64() {
            errs.push(format!("{file}: JSON lacks `{key}`"));
        }
    }
    // QPOR counts the events of its unfolding; the sequence-based explorers do not (it
    // would cost memory per event) and say so with null.
    let qpor = json["algorithm"].as_str().is_some_and(|a| a.starts_with("qpor"));
    if !(json["events"].is_u64() || !qpor && json.get("events").is_some_and(|e| e.is_null())) {
        errs.push(format!("{file}: JSON lacks `events`"));
    }
    if !json["elapsed_s"].is_f64() {
        errs.push(format!("{file}: JSON lacks `elapsed_s`"));
    }
    // The default algorithm is qpor, or optimal-dpor when threads share reads (then the
    // JSON says why).
    let named = e.flags.iter().any(|f| f.starts_with("--algorithm"));
    let why = json["algorithm_choice"].is_string() || json["warnings"].is_array();
    if !named && !qpor && !why {
        errs.push(format!("{file}: the default ran optimal-dpor without saying why: {json}"));
    }
    if let Some(n) = e.maximal {
        let n = if qpor { n } else { e.maximal_rr.unwrap_or(n) };
        if json["maximal_configurations"].as_u64() != Some(n) {
            errs.push(format!("{file}: {} maximal configurations, expected {n}", json["maximal_configurations"]));
        }
    }
    let defects = json["defects"].as_array().cloned().unwrap_or_default();
    if !e.kind.is_empty() {
        let Some(d) = defects.first() else {
            errs.push(format!("{file}: no defect reported"));
            return errs;
        };
        if !d["kind"].as_str().is_some_and(|k| e.kind.iter().any(|x| x == k)) {
            errs.push(format!("{file}: kind {}, expected {:?}", d["kind"], e.kind));
        }
        if !e.lines.is_empty() {
            let line = d["location"]["line"].as_u64();
            if !line.is_some_and(|l| e.lines.contains(&l)) {
                errs.push(format!("{file}: line {line:?}, expected one of {:?}", e.lines));
            }
            if d["location"]["file"].as_str().is_none_or(|f| !f.ends_with(".c")) {
                errs.push(format!("{file}: location file {}", d["location"]["file"]));
            }
        }
        for key in ["message", "replay"] {
            if !d[key].is_string() {
                errs.push(format!("{file}: defect lacks `{key}`"));
            }
        }
        if !d["thread"].is_u64() {
            errs.push(format!("{file}: defect lacks `thread`"));
        }
        // check -> replay gives the same trace and the same defect.
        let token = d["replay"].as_str().unwrap_or_default();
        let mut rargs = vec!["replay", file, token, "--json"];
        // How the defect was searched for (the explorer, the values of nondeterministic
        // draws tried) is not a replay option: the token holds the execution's values.
        let search_only = |f: &str| ["--algorithm", "--nondet"].iter().any(|o| f.starts_with(o));
        rargs.extend(e.flags.iter().filter(|f| !search_only(f)).map(String::as_str));
        let r = unfold(dir, &rargs);
        match serde_json::from_slice::<Value>(&r.stdout) {
            Ok(rj) => {
                if rj["trace"] != d["trace"] {
                    errs.push(format!("{file}: replay trace differs:\n{}\nvs\n{}", rj["trace"], d["trace"]));
                }
                // A time-out is located where the running thread was interrupted, which
                // depends on timing: only its kind must match.
                let timeout = d["kind"] == "timeout";
                let same = rj["defects"].as_array().is_some_and(|v| {
                    v.iter().any(|x| x["kind"] == d["kind"] && (timeout || x["location"] == d["location"]))
                });
                if !same {
                    errs.push(format!("{file}: replay does not show the defect: {rj}"));
                }
                if r.status.code() != Some(1) {
                    errs.push(format!("{file}: replay exit {:?}", r.status.code()));
                }
            }
            Err(err) => errs.push(format!("{file}: replay JSON ({err}): {}", String::from_utf8_lossy(&r.stderr))),
        }
    } else if !defects.is_empty() {
        errs.push(format!("{file}: unexpected defects {defects:?}"));
    }
    errs
}

#[test]
fn corpus_programs_meet_their_expectations() {
    let dir = corpus();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/c is readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".c") || n.ends_with(".i"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the corpus has {} programs", files.len());
    let errs: Vec<String> = std::thread::scope(|s| {
        let chunks: Vec<Vec<String>> = (0..2).map(|i| files.iter().skip(i).step_by(2).cloned().collect()).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let dir = dir.clone();
                s.spawn(move || chunk.iter().flat_map(|f| check_program(&dir, f)).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("no panic")).collect()
    });
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

#[test]
fn human_report_shows_verdict_trace_location_and_statistics() {
    let dir = corpus();
    let out = unfold(&dir, &["check", "deadlock_abba.c"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    for needle in [
        "verdict: DEFECT",
        "deadlock",
        "waits for",
        "held by",
        "deadlock_abba.c:",
        "lock(a)",
        "replay: unfold replay",
        "executions:",
        "maximal configurations:",
        "peak memory",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in:\n{text}");
    }
}

#[test]
fn keep_going_reports_every_distinct_defect() {
    let dir = corpus();
    let out = unfold(&dir, &["check", "verifier_error.c", "--keep-going", "--json"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let lines: Vec<u64> =
        j["defects"].as_array().expect("defects").iter().filter_map(|d| d["location"]["line"].as_u64()).collect();
    // Only __VERIFIER_error (turn == 1) is reachable: reach_error needs turn == 2 and the
    // worker increments once. Exploring everything must report it once.
    assert_eq!(lines, vec![23], "{j}");
}

#[test]
fn fork_and_persistent_isolation_agree() {
    let dir = corpus();
    let run = |iso: &str| -> Value {
        let out = unfold(&dir, &["check", "alternation_safe.c", "--json", "--isolation", iso]);
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let (p, f) = (run("persistent"), run("fork"));
    assert_eq!(p["maximal_configurations"], 20);
    assert_eq!(p["maximal_configurations"], f["maximal_configurations"]);
    assert_eq!(p["executions"], f["executions"]);
    assert_eq!(p["isolation"], "persistent");
    assert_eq!(f["isolation"], "fork");
}

/// A persistent worker's checkpoints (an execution kept where the next one branches
/// off, put back instead of running the program from its start) change nothing in the
/// results: programs with heap blocks, a dead thread's stack, thread-local variables,
/// spin loops, condition variables, semaphores, defects, nondeterministic values and a
/// long repeated prefix, under three explorers.
#[test]
fn checkpoints_on_and_off_agree() {
    let bench = corpus().join("../../bench").canonicalize().expect("bench/ exists");
    let mut programs: Vec<(PathBuf, &str)> = [
        "heap_mutex.c",
        "mem_double_free.c",
        "mem_stack_exit_race.c",
        "tls_counter.c",
        "spin_flag_handoff.c",
        "spin_rmw_tas_lock.c",
        "sync_cond_broadcast.c",
        "sync_sem_buffer.c",
        "deadlock_abba.c",
        "lost_update_assert.c",
        "nondet_two_values_break_sum.c",
        "thread_specific.c",
    ]
    .into_iter()
    .map(|f| (corpus(), f))
    .collect();
    programs.push((bench, "long_prefix.c"));
    let key = |j: &Value| {
        let defects: Vec<_> = j["defects"]
            .as_array()
            .map(|d| d.iter().map(|d| (d["kind"].clone(), d["location"]["line"].clone())).collect())
            .unwrap_or_default();
        (j["verdict"].clone(), j["executions"].clone(), j["maximal_configurations"].clone(), j["ssb"].clone(), defects)
    };
    let mut compared = 0;
    for (dir, file) in &programs {
        let src = std::fs::read_to_string(dir.join(file)).expect("readable source");
        let flags = expectation(&src).flags;
        // DFS too where it is small: its branch points are every step, so its
        // checkpoints catch a thread suspended anywhere (a destructor run at thread
        // exit once held the runtime's list of them across its call, which a restored
        // frame then read freed).
        let small = !matches!(*file, "long_prefix.c" | "sync_sem_buffer.c" | "nondet_two_values_break_sum.c");
        let algorithms: &[&str] = if small {
            &["qpor", "optimal-dpor", "source-dpor", "dfs"]
        } else {
            &["qpor", "optimal-dpor", "source-dpor"]
        };
        for &alg in algorithms {
            let run = |cp: &str| {
                let mut args = vec!["check", file, "--json", "--keep-going", "--algorithm", alg, "--checkpoints", cp];
                args.extend(flags.iter().map(String::as_str));
                json_of(dir, &args)
            };
            let (on, off) = (run("on"), run("off"));
            assert_eq!(key(&on), key(&off), "{file} under {alg}: checkpoints on and off differ");
            assert!(on["executions"].as_u64().is_some_and(|n| n > 1), "{file} under {alg}: {on}");
            compared += 1;
        }
    }
    assert_eq!(compared, programs.len() * 3 + programs.len() - 3);
}

/// `--breakdown` splits the explorer's time into the phases its algorithm has, and the
/// phases are parts of that time (none counted twice, none taken from the program's run).
#[test]
fn the_breakdown_splits_the_explorers_time_into_its_phases() {
    let dir = corpus();
    let figures = |alg: &str| -> Vec<(String, f64)> {
        let out = unfold(&dir, &["check", "alternation_safe.c", "--algorithm", alg, "--breakdown"]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let at = text.find("breakdown per execution").unwrap_or_else(|| panic!("{alg}: no breakdown in {text}"));
        text[at..]
            .lines()
            .skip(1)
            .filter_map(|l| {
                let (name, value) = l.trim().rsplit_once(' ')?;
                Some((name.trim().trim_end_matches(':').to_string(), value.parse().ok()?))
            })
            .collect()
    };
    let phases = ["steps into events", "conflicting extensions", "analysis (combs, races)", "comb search", "pruning"];
    for alg in ["qpor", "optimal-dpor"] {
        let f = figures(alg);
        let value = |name: &str| f.iter().find(|(n, _)| n == name).map(|&(_, v)| v);
        let explorer = value("explorer and reporting").unwrap_or_else(|| panic!("{alg}: {f:?}"));
        let named: Vec<&str> = phases.iter().copied().filter(|p| value(p).is_some()).collect();
        let sum: f64 = named.iter().filter_map(|p| value(p)).sum();
        assert!(sum <= explorer * 1.02 + 0.5, "{alg}: phases {sum} µs > explorer {explorer} µs: {f:?}");
        if alg == "qpor" {
            assert!(named.contains(&"steps into events") && named.contains(&"conflicting extensions"), "{f:?}");
        } else {
            assert_eq!(named, ["analysis (combs, races)"], "{f:?}");
        }
    }
}

#[test]
fn usage_errors_exit_with_2() {
    let dir = corpus();
    for args in [
        vec!["check"],
        vec!["check", "no_such_file.c"],
        vec!["check", "two_threads_mutex.c", "--algorithm", "nope"],
        // A context-switch bound with a partial-order reduction would lose schedules.
        vec!["check", "two_threads_mutex.c", "--max-context-switches", "2"],
        vec!["replay", "two_threads_mutex.c", "not-a-token"],
    ] {
        let out = unfold(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!out.stderr.is_empty(), "{args:?}: no diagnostic");
    }
}

#[test]
fn program_arguments_and_defines_reach_the_program() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path().join("args.c");
    std::fs::write(
        &src,
        "#include <string.h>\n#include <assert.h>\nint main(int argc, char **argv) {\n  assert(argc == 2 && strcmp(argv[1], \"hello\") == 0);\n  assert(VALUE == 7);\n  return 0;\n}\n",
    )
    .expect("write");
    let ok = unfold(dir.path(), &["check", "args.c", "-D", "VALUE=7", "--", "hello"]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stdout));
    let bad = unfold(dir.path(), &["check", "args.c", "-D", "VALUE=8", "--", "hello"]);
    assert_eq!(bad.status.code(), Some(1));
}

#[test]
fn ctrl_c_prints_statistics_and_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/pi.c");
    let child = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .args(["check", bench.to_str().expect("utf-8 path"), "-D", "THREADS=9", "--json"])
        .env("TMPDIR", tmp.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("unfold starts");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let pid = child.id().to_string();
    // The shell's builtin kill: no procps needed on a fresh machine.
    let status = Command::new("sh").args(["-c", &format!("kill -INT {pid}")]).status().expect("sh runs");
    assert!(status.success());
    let out = child.wait_with_output().expect("unfold exits");
    // Incomplete: exit status 3, never 0.
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON after Ctrl-C");
    assert_eq!(j["verdict"], "incomplete", "{j}");
    assert!(j["executions"].as_u64().unwrap_or(0) > 0, "{j}");
    // The worker is gone (it would keep the temp dir's files open) and the temp dir is
    // removed.
    let children: Vec<String> = std::fs::read_dir("/proc")
        .expect("/proc is readable")
        .filter_map(|e| {
            let stat = std::fs::read_to_string(e.ok()?.path().join("stat")).ok()?;
            // Fields after the command name (which may contain spaces): state, ppid, ...
            let ppid = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.to_string();
            (ppid == pid).then_some(stat)
        })
        .collect();
    assert!(children.is_empty(), "children left: {children:?}");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).expect("readable").collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
}

#[test]
fn bench_families_have_their_closed_form_counts() {
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench").canonicalize().expect("bench/");
    let cases = [("pi.c", "THREADS=3", 6u64), ("mpat.c", "K=1", 2), ("small.c", "NOPS=1", 2), ("steps.c", "N=3", 6)];
    for (file, define, expected) in cases {
        let out = unfold(&bench, &["check", file, "-D", define, "--json"]);
        let j: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(j["verdict"], "ok", "{file}: {j}");
        assert_eq!(j["maximal_configurations"].as_u64(), Some(expected), "{file} -D {define}: {j}");
    }
}

#[test]
fn dot_writes_the_explored_unfolding() {
    let dir = corpus();
    let out_dir = tempfile::tempdir().expect("temp dir");
    let dot = out_dir.path().join("u.dot");
    let out = unfold(&dir, &["check", "two_threads_mutex.c", "--dot", dot.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&dot).expect("the dot file is written");
    // Two maximal configurations of 11 events each (create x2, per worker lock, unlock,
    // exit, join x2, process exit) sharing only main's two creates: 11 + 9 = 20 events;
    // the two first locks of m are in immediate conflict.
    assert_eq!(text.matches("[label=").count(), 20, "{text}");
    assert_eq!(text.matches("style=dashed").count(), 1, "{text}");
    assert!(text.starts_with("digraph unfolding {") && text.contains("lock(m)"));
}

/// A spin-wait event of the unfolding names the location it watches, not the variable
/// whose word the location shares (a `--dot` label has no step site to take the byte
/// from). The spin reads a plain flag (an ordinary wait, performed once the racy write
/// wakes it; `--keep-going` explores past the race).
#[test]
fn dot_names_a_spin_wait_by_the_watched_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("spin.c"),
        r#"#include <pthread.h>
struct { int pad; int flag; } s = {1, 0};
void *waiter(void *arg) {
  while (!s.flag) ;
  return arg;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  s.flag = 1;
  pthread_join(t, 0);
  return s.pad - 1;
}
"#,
    )
    .expect("write");
    let out = unfold(dir.path(), &["check", "spin.c", "--keep-going", "--dot", "u.dot"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let dot = std::fs::read_to_string(dir.path().join("u.dot")).expect("the dot file is written");
    assert!(dot.contains("spin-wait on s+4 "), "{dot}");
}

/// A data race on a heap location names the block and the offset in it (where it was
/// allocated, by whom), not an address or an offset in the thread's heap.
#[test]
fn a_heap_race_names_its_block_and_offset() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("heap.c"),
        r#"#include <pthread.h>
#include <stdlib.h>
struct pair { int a; int b; };
struct pair *p;
void *bump(void *arg) {
  p->b++;
  return arg;
}
int main(void) {
  p = calloc(1, sizeof *p);
  pthread_t x, y;
  pthread_create(&x, 0, bump, 0);
  pthread_create(&y, 0, bump, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
"#,
    )
    .expect("write");
    let out = unfold(dir.path(), &["check", "heap.c", "--json"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let msg = j["defects"][0]["message"].as_str().unwrap_or_default().to_string();
    assert!(msg.starts_with("data race on offset 4 of a heap block of 8 bytes allocated by t0 at heap.c:10:"), "{j}");
}

/// Every algorithm finds exactly the expected number of maximal configurations on every
/// safe corpus program; optimal QPOR runs exactly one execution per configuration.
#[test]
fn every_algorithm_agrees_on_the_safe_corpus() {
    let dir = corpus();
    let mut checked = 0;
    let files = corpus_files(&dir, "");
    let algorithms: [&[&str]; 6] = [
        &["--algorithm", "qpor"],
        &["--algorithm", "qpor", "-k", "1"],
        &["--algorithm", "source-dpor"],
        &["--algorithm", "optimal-dpor"],
        &["--algorithm", "classic-dpor"],
        &["--algorithm", "dfs"],
    ];
    let mut errs = Vec::new();
    for f in &files {
        let e = expectation(&std::fs::read_to_string(dir.join(f)).expect("readable"));
        let (Some("ok"), Some(n)) = (e.verdict.as_deref(), e.maximal) else { continue };
        checked += 1;
        // A program that names its algorithm (a spin-wait on several locations, which
        // qpor refuses) runs under every other one.
        let pinned = e.flags.iter().any(|f| f.starts_with("--algorithm"));
        for alg in algorithms {
            if pinned && alg[1] == "qpor" {
                continue;
            }
            let mut args = vec!["check", f.as_str(), "--json"];
            args.extend(e.flags.iter().filter(|f| !f.starts_with("--algorithm")).map(String::as_str));
            args.extend_from_slice(alg);
            let out = unfold(&dir, &args);
            let Ok(j) = serde_json::from_slice::<Value>(&out.stdout) else {
                errs.push(format!("{f} {alg:?}: no JSON: {}", String::from_utf8_lossy(&out.stderr)));
                continue;
            };
            let n = if alg[1] == "qpor" { n } else { e.maximal_rr.unwrap_or(n) };
            if j["maximal_configurations"].as_u64() != Some(n) || j["verdict"] != "ok" {
                errs.push(format!("{f} {alg:?}: expected {n} configurations, got {j}"));
            }
            if alg == ["--algorithm", "qpor"] && (j["executions"].as_u64() != Some(n) || j["ssb"].as_u64() != Some(0)) {
                errs.push(format!("{f}: optimal qpor is not optimal: {j}"));
            }
        }
    }
    assert!(checked >= 5, "only {checked} safe programs with a configuration count");
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

/// The strict-alternation bug needs 4 preemptions: a bound of 3 misses it (and says the
/// search is incomplete), a bound of 4 finds it.
#[test]
fn context_switch_bound_finds_bugs_within_the_bound_only() {
    let dir = corpus();
    let run = |bound: &str| {
        let out = unfold(
            &dir,
            &["check", "three_switch_bug.c", "--algorithm", "dfs", "--max-context-switches", bound, "--json"],
        );
        let j: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        (out.status.code(), j["verdict"].as_str().map(str::to_owned), j["executions"].as_u64().unwrap_or(0))
    };
    let (code3, verdict3, execs3) = run("3");
    assert_eq!((code3, verdict3.as_deref()), (Some(3), Some("incomplete")));
    let (code4, verdict4, _) = run("4");
    assert_eq!((code4, verdict4.as_deref()), (Some(1), Some("defect")));
    let (_, _, execs1) = run("1");
    assert!(execs1 < execs3, "a smaller bound explores fewer schedules: {execs1} vs {execs3}");
}

/// The synchronisation corpus (`tests/c/sync_*.c`: condition variables, semaphores,
/// read-write locks, barriers, once, spinlocks, C11 threads, misuse) under every
/// algorithm: each gives the expected verdict and the expected kind of first defect,
/// and on safe programs with a configuration count, that count.
#[test]
fn every_algorithm_agrees_on_the_sync_corpus() {
    let dir = corpus();
    let files = corpus_files(&dir, "sync_");
    assert!(files.len() >= 25, "the sync corpus has {} programs", files.len());
    let mut errs = Vec::new();
    let mut defects = 0;
    for f in &files {
        let e = expectation(&std::fs::read_to_string(dir.join(f)).expect("readable"));
        if e.refused.is_some() || e.compile_error {
            continue;
        }
        defects += !e.kind.is_empty() as usize;
        for alg in ["qpor", "optimal-dpor", "source-dpor", "classic-dpor", "dfs"] {
            check_under(&dir, f, alg, &e, &mut errs);
        }
    }
    assert!(defects >= 15, "only {defects} defective sync programs");
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

/// Run corpus program `f` under `alg` (with the program's own flags) and push into `errs`
/// every way its report misses the expectation `e`: the verdict, the kind and line of the
/// first defect, the number of maximal configurations (`maximal_rr` for the DPOR family
/// and dfs). Returns the report for further checks.
fn check_under(dir: &Path, f: &str, alg: &str, e: &Expect, errs: &mut Vec<String>) -> Option<Value> {
    let mut args = vec!["check", f, "--json", "--algorithm", alg];
    args.extend(e.flags.iter().map(String::as_str));
    let out = unfold(dir, &args);
    let Ok(j) = serde_json::from_slice::<Value>(&out.stdout) else {
        errs.push(format!("{f} {alg}: no JSON: {}", String::from_utf8_lossy(&out.stderr)));
        return None;
    };
    if j["verdict"].as_str() != e.verdict.as_deref() {
        errs.push(format!("{f} {alg}: verdict {}, expected {:?}", j["verdict"], e.verdict));
    }
    let d = &j["defects"][0];
    if !e.kind.is_empty() && !d["kind"].as_str().is_some_and(|k| e.kind.iter().any(|x| x == k)) {
        errs.push(format!("{f} {alg}: first defect {}, expected {:?}", d["kind"], e.kind));
    }
    if !e.lines.is_empty() && !d["location"]["line"].as_u64().is_some_and(|l| e.lines.contains(&l)) {
        errs.push(format!("{f} {alg}: first defect at {}, expected {:?}", d["location"], e.lines));
    }
    if let Some(n) = e.maximal {
        let n = if alg == "qpor" { n } else { e.maximal_rr.unwrap_or(n) };
        if j["maximal_configurations"].as_u64() != Some(n) {
            errs.push(format!("{f} {alg}: {} configurations, expected {n}", j["maximal_configurations"]));
        }
    }
    Some(j)
}

/// A `memcpy` into shared memory under `--memory sc` is a visible step per word it
/// writes, under every explorer: the four traces of `mem_sc_memcpy_torn.c` (each read of
/// the reader before or after the write of its word), not one.
#[test]
fn a_memcpy_is_a_step_per_word_under_sequential_consistency() {
    let dir = corpus();
    for alg in ["qpor", "optimal-dpor", "source-dpor", "dfs"] {
        let j = json_of(&dir, &["check", "mem_sc_memcpy_torn.c", "--json", "--keep-going", "--algorithm", alg]);
        assert_eq!(j["maximal_configurations"], 4, "{alg}: {j}");
        assert_eq!(j["defects"].as_array().map(Vec::len), Some(1), "{alg}: one assertion, reached twice: {j}");
    }
}

/// A data race is one defect whichever threads made its accesses, so `--keep-going`
/// reports the same races under every explorer, though they run different executions and
/// meet different thread pairs (`race_three_symmetric.c`: before, QPOR reported six and
/// optimal-DPOR four).
#[test]
fn keep_going_reports_the_same_races_under_every_explorer() {
    let dir = corpus();
    let races = |alg: &str| {
        let j = json_of(&dir, &["check", "race_three_symmetric.c", "--json", "--keep-going", "--algorithm", alg]);
        let mut v: Vec<(String, u64)> = j["defects"]
            .as_array()
            .expect("defects")
            .iter()
            .map(|d| (d["kind"].as_str().unwrap_or("?").to_string(), d["location"]["line"].as_u64().unwrap_or(0)))
            .collect();
        v.sort();
        v
    };
    let qpor = races("qpor");
    assert_eq!(qpor, [("data-race".to_string(), 19), ("data-race".to_string(), 22)], "the read and the write");
    for alg in ["optimal-dpor", "source-dpor", "dfs"] {
        assert_eq!(races(alg), qpor, "{alg}");
    }
}

/// The memory-error corpus (`tests/c/mem_*.c`: use after free, double and invalid
/// frees, frees racing with accesses, stacks used after their thread exited, and the
/// fixed versions) under every algorithm: the same verdict, the same kind of first
/// defect at one of the expected lines, and on fixed programs the expected count.
#[test]
fn every_algorithm_agrees_on_the_memory_corpus() {
    let dir = corpus();
    let files = corpus_files(&dir, "mem_");
    assert!(files.len() >= 12, "the memory corpus has {} programs", files.len());
    let mut errs = Vec::new();
    for f in &files {
        let e = expectation(&std::fs::read_to_string(dir.join(f)).expect("readable"));
        for alg in ["qpor", "optimal-dpor", "source-dpor", "classic-dpor", "dfs"] {
            check_under(&dir, f, alg, &e, &mut errs);
        }
    }
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

/// Loops that count their polls (`tests/c/spin_counting_*.c`; docs/memory.md, "Polls
/// that count") under every algorithm: the same verdict, first defect and configurations;
/// an `incomplete` one names the loop's line in `bounded_poll`, and a finished one that
/// hid polls says so too.
#[test]
fn every_algorithm_agrees_on_the_counting_poll_corpus() {
    let dir = corpus();
    let files = corpus_files(&dir, "spin_counting_");
    assert!(files.len() >= 5, "the counting-poll corpus has {} programs", files.len());
    let mut errs = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(dir.join(f)).expect("readable");
        let e = expectation(&src);
        // The line of the loop: its `while` or `for`.
        let line = src.lines().position(|l| l.trim_start().starts_with("while (")).map(|i| i + 1);
        for alg in ["qpor", "optimal-dpor", "source-dpor", "classic-dpor", "dfs"] {
            let Some(j) = check_under(&dir, f, alg, &e, &mut errs) else { continue };
            if e.verdict.as_deref() == Some("incomplete") {
                let want = format!("{f}:{}", line.unwrap_or(0));
                if !j["bounded_poll"].as_str().is_some_and(|b| b.contains(&want)) {
                    errs.push(format!("{f} {alg}: bounded_poll {} does not name {want}", j["bounded_poll"]));
                }
            }
        }
    }
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

/// Spinlocks built from read-modify-writes (`spin_rmw_*.c`): every algorithm meets the
/// expectation (an unchanged RMW is a load for spin-waits under every explorer); dfs,
/// which runs every interleaving, is skipped on the three-thread locks (682 039 and
/// 302 263 executions). The AB-BA livelock names both loops' lines and both flags.
#[test]
fn every_algorithm_agrees_on_the_rmw_spin_corpus() {
    let dir = corpus();
    let files = corpus_files(&dir, "spin_rmw_");
    assert!(files.len() >= 7, "the RMW spin corpus has {} programs", files.len());
    let mut errs = Vec::new();
    for f in &files {
        let e = expectation(&std::fs::read_to_string(dir.join(f)).expect("readable"));
        for alg in ["qpor", "optimal-dpor", "source-dpor", "classic-dpor", "dfs"] {
            if alg == "dfs" && (f == "spin_rmw_xchg_lock3.c" || f == "spin_rmw_ttas_lock3.c") {
                continue;
            }
            let Some(j) = check_under(&dir, f, alg, &e, &mut errs) else { continue };
            let d = &j["defects"][0];
            if f == "spin_rmw_abba_livelock.c" {
                let msg = d["message"].as_str().unwrap_or_default();
                for needle in
                    ["spins on fa at spin_rmw_abba_livelock.c:28", "spins on fb at spin_rmw_abba_livelock.c:17"]
                {
                    if !msg.contains(needle) {
                        errs.push(format!("{f} {alg}: the livelock does not name `{needle}`: {msg}"));
                    }
                }
            }
        }
    }
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

/// Retry loops of failed try and timed operations (`tests/c/spin_try_*.c`: trylock,
/// spinlock trylock, timedlock, sem_trywait/timedwait and read-write lock try loops, timed
/// condition waits in a loop, C11): every algorithm meets the expectation (qpor is
/// skipped where the program names its algorithm: a timed-wait poll waits on the mutex and
/// the condition variable, which qpor refuses), so the counts are cross-checked with dfs;
/// each livelock names the objects and the loop's line.
#[test]
fn every_algorithm_agrees_on_the_try_spin_corpus() {
    let dir = corpus();
    let files = corpus_files(&dir, "spin_try_");
    assert!(files.len() >= 19, "the try-spin corpus has {} programs", files.len());
    let livelocks = [
        (
            "spin_try_mutex_livelock.c",
            "t1 retries trylock(m) at spin_try_mutex_livelock.c:11 and no other thread will unlock it",
        ),
        (
            "spin_try_sem_livelock.c",
            "t0 retries sem_trywait(s) at spin_try_sem_livelock.c:22 and no other thread will post it",
        ),
        (
            "spin_try_cond_livelock.c",
            "t0 polls under m and waits on cv with a time-out at spin_try_cond_livelock.c:27 and no other thread will \
             unlock m or signal cv",
        ),
        (
            "spin_try_cond_lost_signal.c",
            "t0 waits on cv with a time-out at spin_try_cond_lost_signal.c:31 and no other thread will signal it",
        ),
    ];
    let mut errs = Vec::new();
    for f in &files {
        let mut e = expectation(&std::fs::read_to_string(dir.join(f)).expect("readable"));
        let pinned = e.flags.iter().any(|f| f.starts_with("--algorithm"));
        e.flags.retain(|f| !f.starts_with("--algorithm"));
        for alg in ["qpor", "optimal-dpor", "source-dpor", "classic-dpor", "dfs"] {
            if pinned && alg == "qpor" {
                continue;
            }
            let Some(j) = check_under(&dir, f, alg, &e, &mut errs) else { continue };
            if let Some((_, needle)) = livelocks.iter().find(|(name, _)| name == f) {
                let msg = j["defects"][0]["message"].as_str().unwrap_or_default();
                if !msg.contains(needle) {
                    errs.push(format!("{f} {alg}: the livelock does not say `{needle}`: {msg}"));
                }
            }
        }
    }
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

/// A memory error names the allocation, the free and the access by file and line, and a
/// NULL dereference stays a crash at its line.
#[test]
fn memory_errors_name_allocation_free_and_access() {
    let dir = corpus();
    let run = |file: &str| -> Value {
        let out = unfold(&dir, &["check", file, "--json"]);
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let j = run("mem_use_after_free.c");
    assert_eq!(
        j["defects"][0]["message"],
        "t0 reads 4 bytes at offset 4 of a heap block of 8 bytes allocated by t0 at mem_use_after_free.c:18 \
         after t1 freed it at mem_use_after_free.c:13",
        "{j}"
    );
    let j = run("mem_free_race.c");
    let msg = j["defects"][0]["message"].as_str().unwrap_or_default().to_string();
    for needle in ["data race", "allocated by t0 at mem_free_race.c:20", "mem_free_race.c:24", "t1 reads"] {
        assert!(msg.contains(needle), "{needle}: {msg}");
    }
    let j = run("mem_double_free.c");
    let msg = j["defects"][0]["message"].as_str().unwrap_or_default().to_string();
    assert!(msg.contains("already freed by") && msg.contains("mem_double_free.c:20"), "{msg}");
    let j = run("mem_invalid_free_global.c");
    assert_eq!(
        j["defects"][0]["message"],
        "t2 frees fallback (the program's static data): not a pointer malloc returned"
    );
    let j = run("mem_invalid_free_stack.c");
    let msg = j["defects"][0]["message"].as_str().unwrap_or_default().to_string();
    assert!(msg.starts_with("t1 frees a local of t1 ") && msg.contains(" bytes below the top of its stack"), "{msg}");
    let j = run("mem_heap_overflow_past_end.c");
    assert_eq!(
        j["defects"][0]["message"],
        "t0 writes 4 bytes at offset 16 of a heap block of 16 bytes allocated by t0 at \
         mem_heap_overflow_past_end.c:13: just past its end",
        "{j}"
    );
    let j = run("mem_heap_overflow_before_start.c");
    assert_eq!(
        j["defects"][0]["message"],
        "t1 reads 4 bytes at offset -4 of a heap block of 12 bytes allocated by t0 at \
         mem_heap_overflow_before_start.c:17: 4 bytes before its start",
        "{j}"
    );
    let j = run("crash_null.c");
    assert_eq!(j["defects"][0]["kind"], "crash", "{j}");
    assert!(j["defects"][0]["location"]["line"].is_u64(), "{j}");
    // Under --memory sc a free is not a scheduling point nor tracked by happens-before:
    // the access after it is a use after free.
    let out = unfold(&dir, &["check", "mem_free_race.c", "--json", "--memory", "sc"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (&j["defects"][0]["kind"], &j["defects"][0]["location"]["line"]),
        (&"use-after-free".into(), &16.into())
    );
    // Uninitialised reads are opt-in, and the replay token records the flag.
    assert_eq!(run("mem_uninit_read.c")["verdict"], "ok");
    let out = unfold(&dir, &["check", "mem_uninit_read.c", "--json", "--check-uninit"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let token = j["defects"][0]["replay"].as_str().expect("a token").to_string();
    let r = unfold(&dir, &["replay", "mem_uninit_read.c", &token, "--json"]);
    let rj: Value = serde_json::from_slice(&r.stdout).expect("JSON");
    assert_eq!(rj["defects"][0]["kind"], "uninit-read", "{rj}");
}

/// `--spurious-wakeups` lets an untimed wait return unsignalled: a consumer guarding its
/// wait with `if` fails, the `while` versions stay correct, and more configurations are
/// explored than without the flag.
#[test]
fn spurious_wakeups_break_if_but_not_while() {
    let dir = corpus();
    let run = |file: &str, spurious: bool| -> Value {
        let mut args = vec!["check", file, "--json"];
        if spurious {
            args.push("--spurious-wakeups");
        }
        let out = unfold(&dir, &args);
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let j = run("sync_cond_if_no_spurious.c", true);
    assert_eq!(j["verdict"], "defect", "{j}");
    assert_eq!(j["defects"][0]["kind"], "assertion", "{j}");
    for f in ["sync_cond_lost_wakeup_fixed.c", "sync_cond_while_two_consumers.c", "sync_c11_prodcons.c"] {
        let (plain, spurious) = (run(f, false), run(f, true));
        assert_eq!(spurious["verdict"], "ok", "{f}: {spurious}");
        let (p, s) = (plain["maximal_configurations"].as_u64(), spurious["maximal_configurations"].as_u64());
        assert!(s > p, "{f}: spurious wake-ups add configurations ({p:?} -> {s:?})");
    }
}

/// A stack overflow names the thread and the function, and a smaller default stack
/// (`--stack-size`) turns a large local array of main into one.
#[test]
fn stack_overflow_names_thread_and_function() {
    let dir = corpus();
    let out = unfold(&dir, &["check", "stack_overflow.c", "--json"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(j["defects"][0]["message"], "stack overflow in thread t1 in function `recurse`", "{j}");
    // Run out inside the memory hook's prologue (the stack pointer in the guard page).
    let out = unfold(&dir, &["check", "stack_overflow_in_hook.c", "--json"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(j["defects"][0]["message"], "stack overflow in thread t1 in function `walk`", "{j}");
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        tmp.path().join("big.c"),
        "#include <string.h>\nint main(void) {\n  char a[2 << 20];\n  memset(a, 1, sizeof a);\n  return a[7] - 1;\n}\n",
    )
    .expect("write");
    let ok = unfold(tmp.path(), &["check", "big.c", "--json"]);
    assert_eq!(ok.status.code(), Some(0), "8 MiB default: {}", String::from_utf8_lossy(&ok.stdout));
    let small = unfold(tmp.path(), &["check", "big.c", "--json", "--stack-size", "1M"]);
    let j: Value = serde_json::from_slice(&small.stdout).expect("JSON");
    assert_eq!(j["defects"][0]["message"], "stack overflow in thread t0 in function `main`", "{j}");
}

/// The default algorithm is QPOR until an execution shows two threads reading one
/// object, or accessing disjoint bytes of one memory word: then optimal-DPOR explores
/// the program (those commute there; QPOR orders them), and the report says why. A program whose reads are all one thread's stays
/// with QPOR, and a named algorithm is never replaced.
#[test]
fn the_default_lets_reads_of_two_threads_commute() {
    let dir = corpus();
    let run = |args: &[&str]| json_of(&dir, args);
    // Peterson's lock: both threads read `want` and `turn`.
    let default = run(&["check", "peterson_bounded.c", "--json"]);
    let qpor = run(&["check", "peterson_bounded.c", "--json", "--algorithm", "qpor"]);
    let dpor = run(&["check", "peterson_bounded.c", "--json", "--algorithm", "optimal-dpor"]);
    assert_eq!(default["algorithm"], "optimal-dpor", "{default}");
    let why = default["algorithm_choice"].as_str().unwrap_or_default();
    assert!(why.contains("read(") && why.contains("peterson_bounded.c:") && why.contains("t1"), "{default}");
    // Nothing of the interrupted QPOR exploration leaks into the figures.
    assert_eq!(default["executions"], dpor["executions"], "{default} vs {dpor}");
    assert!(
        qpor["executions"].as_u64() > dpor["executions"].as_u64(),
        "the choice is worth making here: {qpor} vs {dpor}"
    );
    assert_eq!(qpor["algorithm"], "qpor");
    assert!(qpor.get("algorithm_choice").is_none() && dpor.get("algorithm_choice").is_none());
    // One spinning reader (main waits for a flag a thread sets): QPOR explores it as
    // few times as optimal-DPOR, and stays.
    let one_reader = run(&["check", "spin_flag_handoff.c", "--json"]);
    assert_eq!(one_reader["algorithm"], "qpor", "{one_reader}");
    assert!(one_reader.get("algorithm_choice").is_none(), "{one_reader}");
    // Two threads writing neighbouring slots of one memory word: optimal-DPOR lets the
    // writes commute (byte-aware dependence), QPOR orders them.
    let slots = run(&["check", "adjacent_slots.c", "--json"]);
    let qpor = run(&["check", "adjacent_slots.c", "--json", "--algorithm", "qpor"]);
    assert_eq!(slots["algorithm"], "optimal-dpor", "{slots}");
    let why = slots["algorithm_choice"].as_str().unwrap_or_default();
    assert!(why.contains("different bytes of one memory word") && why.contains("adjacent_slots.c:14"), "{slots}");
    assert!(slots["executions"].as_u64() < qpor["executions"].as_u64(), "{slots} vs {qpor}");
}

/// The default algorithm hands over to optimal-DPOR once QPOR's unfolding holds more
/// bytes than `--unfolding-budget`, starting again: the figures are the new exploration's
/// alone, and the report says why. A named algorithm is never switched.
#[test]
fn the_default_hands_over_when_the_unfolding_outgrows_its_budget() {
    let dir = corpus().join("../../bench").canonicalize().expect("bench/ exists");
    let run = |args: &[&str]| json_of(&dir, args);
    // mpat_nested: k! * 2^k maximal configurations (its header), 384 for k = 4.
    let small = run(&["check", "mpat_nested.c", "-D", "K=4", "--json", "--unfolding-budget", "64K"]);
    assert_eq!(small["algorithm"], "optimal-dpor", "{small}");
    let why = small["algorithm_choice"].as_str().unwrap_or_default();
    assert!(why.contains("--unfolding-budget (0.1 MiB)") && why.contains("executions"), "{small}");
    assert_eq!(small["executions"], 384, "{small}");
    assert_eq!(small["maximal_configurations"], 384, "{small}");
    // Optimal-DPOR's pending work is reported, QPOR's is not (its unfolding is).
    assert!(small["wakeup_peak"].as_u64().is_some_and(|p| p > 0), "{small}");
    assert!(small["events_peak"].is_null(), "{small}");
    // Named, QPOR keeps going past the same budget (and its unfolding did outgrow it).
    let named =
        run(&["check", "mpat_nested.c", "-D", "K=4", "--json", "--unfolding-budget", "64K", "--algorithm", "qpor"]);
    assert_eq!(named["algorithm"], "qpor", "{named}");
    assert!(named.get("algorithm_choice").is_none(), "{named}");
    assert!(named["unfolding_peak_bytes"].as_u64().is_some_and(|p| p > 64 << 10), "{named}");
    assert!(small["unfolding_peak_bytes"].is_null(), "{small}");
    assert!(named["wakeup_peak"].is_null(), "{named}");
    assert_eq!(named["maximal_configurations"], 384, "{named}");
    // Within the default budget the default stays QPOR.
    let default = run(&["check", "mpat_nested.c", "-D", "K=4", "--json"]);
    assert_eq!(default["algorithm"], "qpor", "{default}");
    assert!(default.get("algorithm_choice").is_none(), "{default}");
}

/// A program written for SV-COMP (it names `reach_error`) is checked under sequential
/// consistency by default, SV-COMP's semantics for its racy-by-design tasks, and says so;
/// `--memory races` still finds its races, and a program without the harness keeps the
/// race detector by default.
#[test]
fn an_svcomp_program_is_checked_under_sequential_consistency_by_default() {
    let dir = corpus();
    let run = |args: &[&str]| json_of(&dir, args);
    let default = run(&["check", "svcomp_racy_publish.c", "--json"]);
    assert_eq!(default["verdict"], "ok", "{default}");
    assert!(default["memory_choice"].as_str().is_some_and(|c| c.contains("SV-COMP") && c.contains("--memory races")));
    let races = run(&["check", "svcomp_racy_publish.c", "--json", "--memory", "races"]);
    assert_eq!(races["defects"][0]["kind"], "data-race", "{races}");
    assert!(races.get("memory_choice").is_none(), "{races}");
    // The racy counter without the harness: a data race by default.
    let plain = run(&["check", "race_counter.c", "--json"]);
    assert_eq!(plain["defects"][0]["kind"], "data-race", "{plain}");
    assert!(plain.get("memory_choice").is_none(), "{plain}");
    // The replay token records the mode that ran: replaying the races run's defect
    // re-finds the race without naming --memory.
    let token = races["defects"][0]["replay"].as_str().expect("a replay token");
    let replay = run(&["replay", "svcomp_racy_publish.c", token, "--json"]);
    assert_eq!(replay["defects"][0]["kind"], "data-race", "{replay}");
}

/// `pthread_mutex_init` and `pthread_mutex_destroy` are modelled as a trylock (is the
/// mutex held by another thread?) and an unlock; traces name the call, not those
/// operations.
#[test]
fn traces_name_mutex_init_and_destroy() {
    let dir = corpus();
    let ops = |file: &str| -> Vec<String> {
        let out = unfold(&dir, &["check", file, "--json"]);
        let j: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        j["defects"][0]["trace"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: a defect with a trace: {j}"))
            .iter()
            .map(|s| s["op"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let destroy = ops("misuse_destroy_locked.c");
    assert_eq!(
        destroy.last().map(String::as_str),
        Some("pthread_mutex_destroy(m): held by another thread"),
        "{destroy:?}"
    );
    let init = ops("sync_misuse_init_held.c");
    let at = init.iter().position(|o| o == "pthread_mutex_init(m): not held").expect("the init is named");
    assert_eq!(init.get(at + 1).map(String::as_str), Some("pthread_mutex_init(m) done"), "{init:?}");
    assert!(!init.iter().chain(&destroy).any(|o| o.starts_with("trylock")), "{init:?} {destroy:?}");
}

/// Adjacent variables are separate locations (byte-aware dependence, docs/memory.md):
/// the sense-reversing barrier of `barrier_sense_adjacent.c`, with `count` and `sense` in
/// one 8-byte word, has exactly the traces of the same program with the two in separate
/// words (`-D APART`) under every DPOR, dfs confirming the smallest size (dfs cannot
/// enumerate 3 threads x 2 barriers: before byte-aware dependence that size had more
/// than 1.9 million traces); Peterson's algorithm on adjacent plain `int`s under
/// `--memory sc` has 12 (dfs: 8 404 761 interleavings, 12 distinct, too long here).
#[test]
fn adjacent_atomics_are_separate_locations() {
    let dir = corpus();
    let mut errs = Vec::new();
    let mut expect = |file: &str, args: &[&str], algorithms: &[&str], n: u64| {
        for alg in algorithms {
            let mut a = vec!["check", file, "--json", "--algorithm", alg];
            a.extend_from_slice(args);
            let j = json_of(&dir, &a);
            if j["maximal_configurations"].as_u64() != Some(n) || j["verdict"] != "ok" {
                errs.push(format!("{file} {args:?} {alg}: expected {n} configurations, got {j}"));
            }
        }
    };
    let dpors = ["optimal-dpor", "source-dpor", "classic-dpor"];
    for apart in [false, true] {
        let sized = |threads: &'static str, rounds: &'static str| {
            let mut v = vec!["-D", threads, "-D", rounds];
            if apart {
                v.extend(["-D", "APART"]);
            }
            v
        };
        let b = "barrier_sense_adjacent.c";
        expect(b, &sized("THREADS=2", "ROUNDS=1"), &["optimal-dpor", "source-dpor", "classic-dpor", "dfs"], 6);
        expect(b, &sized("THREADS=3", "ROUNDS=1"), &dpors, 54);
        expect(b, &sized("THREADS=3", "ROUNDS=2"), &dpors[..2], 1350);
    }
    expect("peterson_sc_adjacent.c", &["--memory", "sc"], &dpors, 10);
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

/// A program and its preprocessed form (`cc -E`, with line markers, and `cc -E -P`,
/// without, as SV-COMP ships its `.i` files, also for 32-bit x86) are checked alike: same verdict, executions
/// and defect kinds, and with line markers the same defect lines. The programs cover each
/// kind of routed call (threads, every synchronising object and its try and timed forms,
/// the allocator, exit, the SV-COMP functions, nondeterministic values, thread-local
/// storage) and each kind of defect.
#[test]
fn preprocessed_programs_check_as_their_sources() {
    const PROGRAMS: &[&str] = &[
        "lost_update_assert.c",
        "deadlock_abba.c",
        "atomic_cas_counter.c",
        "spin_rmw_tas_lock.c",
        "peterson_broken.c",
        "spin_try_mutex_bug.c",
        "spin_try_cond_timedwait_bug.c",
        "spin_try_sem_livelock.c",
        "spin_try_rwlock.c",
        "spin_try_c11.c",
        "sync_poll_beside_trylock.c",
        "sync_cond_lost_wakeup.c",
        "sync_sem_buffer.c",
        "sync_rw_upgrade_deadlock.c",
        "sync_barrier_wrong_count.c",
        "sync_once_missing.c",
        "sync_c11_prodcons.c",
        "sync_spin_counter.c",
        "sync_misuse_sem_uninit.c",
        "misuse_unlock_not_held.c",
        "mutex_lock_uninitialised.c",
        "recursive_mutex.c",
        "mem_double_free.c",
        "mem_use_after_free.c",
        "mem_stack_exit_race.c",
        "mem_heap_overflow_past_end.c",
        "thread_specific.c",
        "tls_counter.c",
        "nondet_two_values_break_sum.c",
        "svcomp_reach_error.c",
        "svcomp_own_verifier_error.c",
        "svcomp_own_atomic_stubs_lost.c",
        "atomic_sections.c",
        "verifier_error.c",
        "exit_status.c",
        "abort_in_thread.c",
        "stack_overflow.c",
        "detached_thread.c",
        "race_counter.c",
    ];
    let corpus = corpus();
    let tmp = tempfile::tempdir().expect("temp dir");
    // SV-COMP's files are mostly preprocessed for 32-bit x86: with a multilib compiler
    // (.ci/run installs one), each program is also checked in that form.
    let m32 = Command::new("cc")
        .args(["-m32", "-E", "-o"])
        .arg(tmp.path().join("probe.i"))
        .arg(corpus.join("lost_update_assert.c"))
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let mut variants: Vec<(&str, &[&str])> = vec![("markers.i", &["-E"]), ("bare.i", &["-E", "-P"])];
    if m32 {
        variants.push(("m32.i", &["-m32", "-E", "-P"]));
    } else {
        eprintln!("note: `cc -m32` cannot preprocess pthread programs here: 32-bit forms not checked");
    }
    let summary = |j: &Value, lines: bool| -> String {
        let mut defects: Vec<String> = j["defects"]
            .as_array()
            .map(|d| {
                d.iter()
                    .map(|d| match lines {
                        true => format!("{}@{}", d["kind"], d["location"]["line"]),
                        false => d["kind"].to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        defects.sort();
        format!("{} {} {:?}", j["verdict"], j["executions"], defects)
    };
    let errs: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|i| {
                let (corpus, tmp) = (&corpus, tmp.path());
                let (summary, variants) = (&summary, &variants);
                s.spawn(move || {
                    let mut errs = Vec::new();
                    for f in PROGRAMS.iter().skip(i).step_by(2) {
                        let flags = expectation(&std::fs::read_to_string(corpus.join(f)).expect("source")).flags;
                        let run = |path: &Path| {
                            let mut args = vec!["check", path.to_str().expect("UTF-8 path"), "--json"];
                            args.extend(flags.iter().map(String::as_str));
                            json_of(corpus, &args)
                        };
                        let source = run(&corpus.join(f));
                        for &(suffix, cpp_flags) in variants {
                            // (Named after the thread too: two threads never write one file.)
                            let pre = tmp.join(f.replace(".c", &format!("_{i}_{suffix}")));
                            let cc =
                                Command::new("cc").args(cpp_flags).arg(corpus.join(f)).arg("-o").arg(&pre).status();
                            assert!(cc.expect("cc runs").success(), "cc -E {f}");
                            let lines = suffix == "markers.i";
                            let (want, got) = (summary(&source, lines), summary(&run(&pre), lines));
                            if want != got {
                                errs.push(format!("{f} ({suffix}): {got}, its source: {want}"));
                            }
                        }
                    }
                    errs
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("no panic")).collect()
    });
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

/// A temporary directory left by a checker killed while compiling (its owner gone, an
/// hour old) is removed by the next check when it holds only unfold's files, those of a
/// preprocessed program included; one holding anything else is left alone.
#[test]
fn stale_temporary_directories_are_reaped() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
    let stale = |name: &str, files: &[&str]| {
        let d = tmp.path().join(name);
        std::fs::create_dir(&d).expect("mkdir");
        // A pid that no process has: above the kernel's limit.
        std::fs::write(d.join("owner"), "4194305").expect("owner");
        for f in files {
            std::fs::write(d.join(f), "x").expect("file");
        }
        let dir = std::fs::File::open(&d).expect("open dir");
        dir.set_modified(hour_ago).expect("set mtime");
        d
    };
    let ours = stale("unfold-i0", &["unfold_i.h", "unfold_renames.h", "program.i", "program.o"]);
    let foreign = stale("unfold-i1", &["unfold.h", "notes.txt"]);
    let out = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(corpus())
        .env("TMPDIR", tmp.path())
        .args(["check", "atomic_counter.c", "--json"])
        .output()
        .expect("the unfold binary runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!ours.exists(), "a stale directory of unfold's files is removed");
    assert!(foreign.exists(), "a directory holding another file is kept");
}
