//! Runs the real `unfold bench` on tiny suites in a temporary directory: the files it
//! writes, the figures in them, the disagreement detection, and bad input.

mod common;

use common::{processes_left_in, terminate_when_running};
use std::path::Path;
use std::process::{Command, Output};

/// N threads each take one mutex once: N! maximal configurations. With `-D EXTRA` one
/// more such thread is created, which changes the count (used to craft a disagreement).
const LOCKS_C: &str = r#"
#include <pthread.h>
#ifndef N
#define N 2
#endif
#ifdef EXTRA
#define T (N + 1)
#else
#define T N
#endif
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *w(void *a) { (void)a; pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
    pthread_t t[T];
    for (int i = 0; i < T; i++) pthread_create(&t[i], 0, w, 0);
    for (int i = 0; i < T; i++) pthread_join(t[i], 0);
    return 0;
}
"#;

fn unfold(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_unfold")).current_dir(dir).args(args).output().expect("the unfold binary runs")
}

fn setup(suite: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("suites")).expect("mkdir");
    std::fs::write(dir.path().join("locks.c"), LOCKS_C).expect("write locks.c");
    std::fs::write(dir.path().join("suites/s.toml"), suite).expect("write suite");
    dir
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{} must exist: {e}", p.display()))
}

#[test]
fn writes_table_csv_and_plots_and_accepts_different_counts_for_different_parameters() {
    // The same program with different -D values has different counts: not a disagreement.
    let dir = setup(
        r#"
name = "tiny"
timeout = 30
algorithms = ["qpor-k1", "qpor-optimal", "source-dpor", "optimal-dpor"]
[[benchmark]]
name = "Locks"
program = "../locks.c"
family = "N"
params = [ { N = 2, threads = 3, expect = 2 }, { N = 3, threads = 4, expect = 6 }, { N = 4, threads = 5 } ]
"#,
    );
    let out = unfold(dir.path(), &["bench", "suites/s.toml", "--out", "res"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let md = read(&dir.path().join("res/results.md"));
    assert!(!md.contains("DISAGREE"), "{md}");
    assert!(md.contains("All finished runs agree"), "{md}");
    assert!(md.contains("| Benchmark | Params | Th | Confs | qpor-k1 Time | qpor-k1 SSB | qpor-k1 Mem |"), "{md}");
    assert!(md.contains("| Locks | N=2 | 3 | 2 |"), "{md}");
    assert!(md.contains("| Locks | N=3 | 4 | 6 |"), "{md}");
    assert!(md.contains("| Locks | N=4 | 5 | 24 |"), "{md}");
    assert!(md.contains("command: `"), "{md}");
    assert!(md.contains("machine: "), "{md}");

    let csv = read(&dir.path().join("res/results.csv"));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "benchmark,program,params,threads,algorithm,verdict,executions,maximal_configurations,ssb,events,\
             elapsed_s,peak_rss_bytes,events_peak"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3 * 4, "{csv}");
    for r in &rows {
        assert_eq!(r.len(), 13, "{r:?}");
        assert_eq!(r[5], "ok", "{r:?}");
        let n: u64 = r[2].trim_start_matches("N=").parse().expect("N");
        let fact: u64 = (1..=n).product();
        // The size of U is QPOR's alone: at least the events of one maximal execution.
        if r[4].starts_with("qpor") {
            assert!(r[12].parse::<u64>().expect("events_peak") > n, "{r:?}");
        } else {
            assert_eq!(r[12], "", "{r:?}");
        }
        assert_eq!(r[7].parse::<u64>().expect("configs"), fact, "{r:?}");
        // One mutex: every algorithm here is optimal, executions = configurations, 0 SSB.
        assert_eq!(r[6], r[7], "{r:?}");
        assert_eq!(r[8], "0", "{r:?}");
        assert!(r[11].parse::<u64>().expect("rss") > 1_000_000, "a run's peak RSS is measured: {r:?}");
    }
    assert_eq!(read(&dir.path().join("res/results.jsonl")).lines().count(), 12);
    for f in ["locks-executions.svg", "locks-ssb.svg", "locks-time.svg"] {
        let svg = read(&dir.path().join("res/plots").join(f));
        assert!(svg.starts_with("<svg"), "{f}");
        assert!(svg.trim_end().ends_with("</svg>"), "{f}");
        assert_eq!(svg.matches("<polyline").count(), 4, "one line per algorithm in {f}");
        assert!(svg.contains("source-dpor"), "legend in {f}");
    }
    // QPOR's cost against the size of U: one point per finished QPOR run (2 columns x 3
    // sizes), a scatter (no line), both QPOR columns in the legend and no DPOR one.
    let svg = read(&dir.path().join("res/plots/qpor-time-per-execution-vs-unfolding.svg"));
    assert_eq!(svg.matches("<circle").count(), 6, "{svg}");
    assert_eq!(svg.matches("<polyline").count(), 0, "{svg}");
    assert!(svg.contains("qpor-optimal") && !svg.contains("source-dpor"), "{svg}");
    // 2 .. 24 executions span more than two orders of magnitude? No (12x): linear scale.
    assert!(!read(&dir.path().join("res/plots/locks-executions.svg")).contains("log scale"));
}

#[test]
fn a_crafted_disagreement_is_flagged_with_exit_status_1() {
    // Two "algorithms" that do not explore the same program: the second adds a thread.
    let dir = setup(
        r#"
timeout = 30
[[benchmark]]
name = "Crafted"
program = "../locks.c"
params = [ { N = 2 } ]
algorithms = [
  "qpor-optimal",
  { label = "wrong", args = ["--algorithm", "source-dpor", "-D", "EXTRA"] },
]
"#,
    );
    let out = unfold(dir.path(), &["bench", "suites/s.toml", "--out", "res"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(stderr.contains("DISAGREEMENT: Crafted [N=2]: maximal configurations qpor-optimal=2, wrong=6"), "{stderr}");
    let md = read(&dir.path().join("res/results.md"));
    assert!(md.contains("**DISAGREE**"), "{md}");
    assert!(md.contains("DISAGREEMENT: Crafted [N=2]"), "{md}");
}

#[test]
fn a_wrong_expectation_is_flagged_and_timeouts_are_not_compared() {
    let dir = setup(
        r#"
algorithms = ["qpor-optimal", "dfs"]
[[benchmark]]
name = "Expect"
program = "../locks.c"
params = [ { N = 3, expect = 5 } ]
"#,
    );
    let out = unfold(dir.path(), &["bench", "suites/s.toml", "--out", "res", "--timeout", "30"]);
    assert_eq!(out.status.code(), Some(1));
    let md = read(&dir.path().join("res/results.md"));
    assert!(
        md.contains("DISAGREEMENT: Expect [N=3]: maximal configurations qpor-optimal=6, dfs=6, expected=5"),
        "{md}"
    );

    // A run that times out is `TO` and does not take part in the comparison.
    let dir = setup(
        r#"
algorithms = ["qpor-optimal", { label = "slow", args = ["--algorithm", "dfs", "-D", "N=9"] }]
[[benchmark]]
name = "Slow"
program = "../locks.c"
params = [ { N = 2 } ]
"#,
    );
    let out = unfold(dir.path(), &["bench", "suites/s.toml", "--out", "res", "--timeout", "1"]);
    let md = read(&dir.path().join("res/results.md"));
    assert_eq!(out.status.code(), Some(0), "{md}");
    assert!(md.contains("| Slow | N=2 | — | 2 |"), "{md}");
    assert!(md.contains(" TO |"), "{md}");
    assert!(read(&dir.path().join("res/results.csv")).contains(",slow,incomplete,"));
}

#[test]
fn bad_input_is_a_clear_error_with_exit_status_2_and_writes_nothing() {
    let cases = [
        ("missing = [", "parsing suite"),
        ("[[benchmark]]\nname = \"x\"\nprogram = \"../nope.c\"\nparams = [ {} ]\n", "does not exist"),
        (
            "[[benchmark]]\nname = \"x\"\nprogram = \"../locks.c\"\nparams = [ {} ]\nalgorithms = [\"fastest\"]\n",
            "unknown algorithm `fastest`",
        ),
        ("[[benchmark]]\nname = \"x\"\nprogram = \"../locks.c\"\nparams = []\n", "`params` is empty"),
        ("colour = 1\n", "unknown field"),
    ];
    for (suite, msg) in cases {
        let dir = setup(suite);
        let out = unfold(dir.path(), &["bench", "suites/s.toml", "--out", "res"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{suite}: {stderr}");
        assert!(stderr.contains(msg), "{suite}: expected `{msg}` in {stderr}");
        assert!(!dir.path().join("res").exists(), "{suite}: nothing may be written");
    }
    let dir = setup("");
    let out = unfold(dir.path(), &["bench", "suites/absent.toml", "--out", "res"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("reading suite suites/absent.toml"));
    assert!(!dir.path().join("res").exists());
}

/// `kill` (SIGTERM to the suite alone) stops the run in progress too, as cleanly as a
/// lone `unfold check`: status 3, no process, no temporary file and no half-written
/// results left behind.
#[test]
fn a_signal_stops_the_suite_and_its_run_and_writes_nothing() {
    // 11! maximal configurations: minutes of work, so only the signal can end it.
    let dir = setup(
        r#"
name = "long"
timeout = 600
algorithms = ["optimal-dpor"]
[[benchmark]]
name = "Locks"
program = "../locks.c"
family = "N"
params = [ { N = 11, threads = 12 } ]
"#,
    );
    let tmp = tempfile::tempdir().expect("temp dir");
    // Stopped once the run's check explores (the check and its worker).
    let out = terminate_when_running(dir.path(), tmp.path(), &["bench", "suites/s.toml", "--out", "out"], "check");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("interrupted by SIGTERM") && stderr.contains("run 1 of 1"), "{stderr}");
    assert!(!dir.path().join("out").exists(), "results written by a stopped suite");
    let left = processes_left_in(dir.path());
    assert!(left.is_empty(), "processes left behind: {left:?}");
    assert!(std::fs::read_dir(tmp.path()).expect("TMPDIR").next().is_none(), "files left in TMPDIR");
}
