//! `unfold bench SUITE.toml`: run a matrix of programs × parameter sets × algorithms and
//! write the tables and plots a paper needs.
//!
//! Every run is its own child process (`unfold check FILE -D ... --json --keep-going
//! --timeout T`, the executable being this one), so that the peak memory it reports is the
//! run's own. The harness writes into the output directory:
//!
//! - `results.md`: one table in the layout of the QPOR paper's Table 1 (benchmark,
//!   parameters, threads, maximal configurations, then per algorithm time / SSB / peak
//!   memory; `TO` for a time-out), a table of executions, the machine and the command;
//! - `results.csv`: the raw figures of every run;
//! - `results.jsonl`: the JSON object each run printed, with the suite's labels;
//! - `plots/<benchmark>-{executions,ssb,time}.svg`: executions, sleep-set-blocked
//!   executions and time against the benchmark's family parameter, one line per algorithm (log scale when
//!   the figures span more than two orders of magnitude).
//!
//! Runs that finished (verdict `ok` or `defect`; `--keep-going` explores everything either
//! way) must agree on the number of maximal configurations: a difference is a bug of one of
//! the explorers, never a result. The harness prints a `DISAGREEMENT` line for it (in
//! `results.md` and on stderr) and exits with status 1. A parameter set may also state the
//! expected count (`expect`), checked the same way.
//!
//! # Suite format
//!
//! ```toml
//! name = "fig1"                       # optional; default: the file stem
//! timeout = 30                        # seconds per run (overridden by --timeout)
//! algorithms = ["qpor-k1", "qpor-optimal", "source-dpor"]   # optional; default below
//!
//! [[benchmark]]
//! name = "Fig1"
//! program = "../fig1.c"               # relative to the suite file
//! family = "N"                        # the -D parameter on the plots' x axis
//! defines = { STEPS = 10 }            # optional -D common to every set
//! params = [ { N = 2, threads = 5, expect = 4 }, { N = 3, threads = 6, expect = 6 } ]
//! ```
//!
//! In a parameter set, `threads` (shown in the table) and `expect` (the expected number
//! of maximal configurations) are reserved; every other key is a `-D NAME=VALUE`. An
//! algorithm is a name — `qpor-k1`, `qpor-k2`, `qpor-k3` (any k), `qpor-optimal`,
//! `source-dpor`, `optimal-dpor`, `classic-dpor`, `dfs` — or a table
//! `{ label = "...", args = ["--algorithm", "qpor", "-k", "2"] }` of `unfold check` flags.
//! `--quick` runs only the first parameter set of every benchmark (or the first `quick`
//! sets when a benchmark says `quick = n`).

use anyhow::{anyhow, bail, Context, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The algorithms run when a suite does not list its own.
pub const DEFAULT_ALGORITHMS: [&str; 7] =
    ["qpor-k1", "qpor-k2", "qpor-k3", "qpor-optimal", "source-dpor", "optimal-dpor", "classic-dpor"];

/// Arguments of `unfold bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The suite (a TOML file; see `bench/README.md`).
    pub suite: PathBuf,
    /// Run only the first parameter set of every benchmark (a smoke run).
    #[arg(long)]
    pub quick: bool,
    /// Output directory (default: `bench-out/<suite name>`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Time limit of one run, in seconds (default: the suite's `timeout`, else 60).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct SuiteFile {
    name: Option<String>,
    timeout: Option<f64>,
    algorithms: Option<Vec<AlgSpec>>,
    #[serde(default)]
    benchmark: Vec<BenchFile>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
enum AlgSpec {
    Name(String),
    Custom { label: String, args: Vec<String> },
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct BenchFile {
    name: String,
    program: PathBuf,
    family: Option<String>,
    #[serde(default)]
    defines: BTreeMap<String, toml::Value>,
    params: Vec<BTreeMap<String, toml::Value>>,
    algorithms: Option<Vec<AlgSpec>>,
    quick: Option<usize>,
}

/// One algorithm column: its label and the `unfold check` flags selecting it.
#[derive(Debug, Clone)]
struct Alg {
    label: String,
    args: Vec<String>,
}

/// One row of the table: a program with one parameter set.
#[derive(Debug)]
struct Row {
    bench: String,
    program: PathBuf,
    family: Option<String>,
    /// `-D` values, in order.
    defines: Vec<(String, String)>,
    threads: Option<i64>,
    expect: Option<u64>,
    algs: Vec<Alg>,
}

impl Row {
    fn params(&self) -> String {
        self.defines.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
    }
    fn family_value(&self) -> Option<f64> {
        let f = self.family.as_ref()?;
        self.defines.iter().find(|(k, _)| k == f).and_then(|(_, v)| v.parse().ok())
    }
}

/// The outcome of one run.
#[derive(Debug, Clone, Default)]
struct Outcome {
    /// ok, defect, incomplete, or error.
    verdict: String,
    executions: u64,
    configs: u64,
    ssb: u64,
    /// Not counted by the sequence-based explorers (null in their JSON).
    events: Option<u64>,
    /// QPOR: the most events its unfolding held at once (null for the others).
    events_peak: Option<u64>,
    elapsed: f64,
    rss: u64,
    /// For `error`: what went wrong (stderr's last line).
    error: String,
    json: Option<serde_json::Value>,
}

impl Outcome {
    fn finished(&self) -> bool {
        self.verdict == "ok" || self.verdict == "defect"
    }
}

fn alg_from_spec(s: &AlgSpec) -> Result<Alg> {
    match s {
        AlgSpec::Custom { label, args } => Ok(Alg { label: label.clone(), args: args.clone() }),
        AlgSpec::Name(n) => {
            let args: Vec<&str> = match n.as_str() {
                "qpor-optimal" => vec!["--algorithm", "qpor", "--optimal"],
                "source-dpor" | "optimal-dpor" | "classic-dpor" | "dfs" => vec!["--algorithm", n],
                q => match q.strip_prefix("qpor-k").and_then(|k| k.parse::<usize>().ok()) {
                    Some(k) if k >= 1 => {
                        return Ok(Alg {
                            label: n.clone(),
                            args: vec!["--algorithm".into(), "qpor".into(), "-k".into(), k.to_string()],
                        })
                    }
                    _ => bail!(
                        "unknown algorithm `{n}` (qpor-k1, qpor-k2, qpor-k3, qpor-optimal, source-dpor, \
                         optimal-dpor, classic-dpor, dfs, or {{ label = \"...\", args = [...] }})"
                    ),
                },
            };
            Ok(Alg { label: n.clone(), args: args.into_iter().map(String::from).collect() })
        }
    }
}

fn value_string(v: &toml::Value) -> Result<String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(if *b { "1" } else { "0" }.into()),
        other => bail!("a -D value must be a string, number or boolean, not {other}"),
    }
}

/// A suite, parsed and checked before anything is run or written.
#[derive(Debug)]
struct Suite {
    name: String,
    timeout: f64,
    rows: Vec<Row>,
}

fn load_suite(path: &Path, quick: bool, timeout: Option<f64>) -> Result<Suite> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading suite {}", path.display()))?;
    let f: SuiteFile = toml::from_str(&text).with_context(|| format!("parsing suite {}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let default_algs: Vec<AlgSpec> = match &f.algorithms {
        Some(a) => a.clone(),
        None => DEFAULT_ALGORITHMS.iter().map(|s| AlgSpec::Name(s.to_string())).collect(),
    };
    let timeout = timeout.or(f.timeout).unwrap_or(60.0);
    if !(timeout.is_finite() && timeout > 0.0) {
        bail!("the timeout must be a positive number of seconds");
    }
    if f.benchmark.is_empty() {
        bail!("suite {} lists no [[benchmark]]", path.display());
    }
    let mut rows = Vec::new();
    for b in &f.benchmark {
        let program = base.join(&b.program);
        if !program.is_file() {
            bail!("benchmark `{}`: program {} does not exist", b.name, program.display());
        }
        let algs = b
            .algorithms
            .as_ref()
            .unwrap_or(&default_algs)
            .iter()
            .map(alg_from_spec)
            .collect::<Result<Vec<_>>>()
            .with_context(|| format!("benchmark `{}`", b.name))?;
        if algs.is_empty() {
            bail!("benchmark `{}`: no algorithm to run", b.name);
        }
        let mut labels: Vec<&str> = algs.iter().map(|a| a.label.as_str()).collect();
        labels.sort_unstable();
        if labels.windows(2).any(|w| w[0] == w[1]) {
            bail!("benchmark `{}`: an algorithm label is given twice", b.name);
        }
        if b.params.is_empty() {
            bail!("benchmark `{}`: `params` is empty", b.name);
        }
        let take = if quick { b.quick.unwrap_or(1).max(1) } else { usize::MAX };
        for p in b.params.iter().take(take) {
            let mut defines = Vec::new();
            for (k, v) in &b.defines {
                defines.push((k.clone(), value_string(v).with_context(|| format!("benchmark `{}`", b.name))?));
            }
            let (mut threads, mut expect) = (None, None);
            for (k, v) in p {
                match k.as_str() {
                    "threads" => {
                        threads = Some(
                            v.as_integer()
                                .ok_or_else(|| anyhow!("benchmark `{}`: `threads` must be an integer", b.name))?,
                        )
                    }
                    "expect" => {
                        expect = Some(v.as_integer().and_then(|i| u64::try_from(i).ok()).ok_or_else(|| {
                            anyhow!("benchmark `{}`: `expect` must be a non-negative integer", b.name)
                        })?)
                    }
                    _ => {
                        let s = value_string(v).with_context(|| format!("benchmark `{}`", b.name))?;
                        defines.retain(|(d, _)| d != k);
                        defines.push((k.clone(), s));
                    }
                }
            }
            if let Some(fam) = &b.family {
                if !defines.iter().any(|(k, _)| k == fam) {
                    bail!("benchmark `{}`: a parameter set does not define the family parameter `{fam}`", b.name);
                }
            }
            rows.push(Row {
                bench: b.name.clone(),
                program: program.clone(),
                family: b.family.clone(),
                defines,
                threads,
                expect,
                algs: algs.clone(),
            });
        }
    }
    let name = f.name.clone().unwrap_or_else(|| {
        path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "suite".into())
    });
    Ok(Suite { name, timeout, rows })
}

/// Run one `unfold check` child; kill it if it outlives its own `--timeout` by far.
fn run_one(exe: &Path, row: &Row, alg: &Alg, timeout: f64) -> Outcome {
    let mut cmd = Command::new(exe);
    cmd.arg("check").arg(&row.program);
    for (k, v) in &row.defines {
        cmd.arg("-D").arg(format!("{k}={v}"));
    }
    cmd.args(&alg.args).args(["--json", "--keep-going", "--timeout"]).arg(format!("{timeout}"));
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // A killed `unfold bench` must not leave its current run behind.
    unfold_runtime::die_with_parent(&mut cmd);
    let err = |e: String| Outcome { verdict: "error".into(), error: e, ..Outcome::default() };
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return err(format!("cannot start {}: {e}", exe.display())),
    };
    // The child stops itself at `timeout`; this is the backstop for a hung child
    // (compilation, or one execution stuck past its own limit).
    let hard = Duration::from_secs_f64(timeout * 2.0 + 30.0);
    let started = Instant::now();
    let (out_t, err_t) = {
        let mut so = child.stdout.take();
        let mut se = child.stderr.take();
        (
            std::thread::spawn(move || {
                let mut s = String::new();
                if let Some(o) = so.as_mut() {
                    let _ = std::io::Read::read_to_string(o, &mut s);
                }
                s
            }),
            std::thread::spawn(move || {
                let mut s = String::new();
                if let Some(o) = se.as_mut() {
                    let _ = std::io::Read::read_to_string(o, &mut s);
                }
                s
            }),
        )
    };
    let mut killed = false;
    let mut forwarded = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if unfold_runtime::interrupted() && !forwarded => {
                // Stopped (Ctrl-C reaches the child too, `kill` only us): the child stops
                // as cleanly, then the suite ends.
                unfold_runtime::interrupt_child(&child);
                forwarded = true;
            }
            Ok(None) if started.elapsed() > hard => {
                let _ = child.kill();
                killed = true;
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    let stdout = out_t.join().unwrap_or_default();
    let stderr = err_t.join().unwrap_or_default();
    if killed {
        return Outcome {
            verdict: "incomplete".into(),
            elapsed: started.elapsed().as_secs_f64(),
            error: "killed after outliving its --timeout".into(),
            ..Outcome::default()
        };
    }
    let code = status.and_then(|s| s.code());
    let last_err = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").to_string();
    // 0 ok, 1 defect, 3 incomplete (the run's own --timeout): all have their JSON.
    if !matches!(code, Some(0) | Some(1) | Some(3)) {
        return err(format!("exit status {code:?}: {last_err}"));
    }
    let j: serde_json::Value = match stdout.lines().rev().find_map(|l| serde_json::from_str(l).ok()) {
        Some(j) => j,
        None => return err(format!("no JSON on stdout: {last_err}")),
    };
    let n = |k: &str| j.get(k).and_then(|v| v.as_u64()).unwrap_or(0);
    Outcome {
        verdict: j.get("verdict").and_then(|v| v.as_str()).unwrap_or("error").to_string(),
        executions: n("executions"),
        configs: n("maximal_configurations"),
        ssb: n("ssb"),
        events: j.get("events").and_then(|v| v.as_u64()),
        events_peak: j.get("events_peak").and_then(|v| v.as_u64()),
        elapsed: j.get("elapsed_s").and_then(|v| v.as_f64()).unwrap_or(0.0),
        rss: n("peak_rss_bytes"),
        error: String::new(),
        json: Some(j),
    }
}

/// The machine the suite ran on, for the record.
fn machine() -> String {
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, m)| m.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map(|kb| format!("{:.1} GiB", kb / (1024.0 * 1024.0)))
        .unwrap_or_else(|| "unknown".into());
    format!("{cpus} CPUs (nproc), {model}, {mem} memory, {} {}", std::env::consts::OS, std::env::consts::ARCH)
}

fn fmt_time(o: &Outcome) -> String {
    match o.verdict.as_str() {
        "incomplete" => "TO".into(),
        "error" => "ERR".into(),
        _ => format!("{:.2}", o.elapsed),
    }
}

fn mb(o: &Outcome) -> String {
    if o.rss == 0 {
        "—".into()
    } else {
        format!("{:.0}", o.rss as f64 / 1e6)
    }
}

/// Finished runs that disagree on the number of maximal configurations, or with `expect`.
fn disagreement(row: &Row, outs: &[Outcome]) -> Option<String> {
    let mut counts: Vec<(String, u64)> =
        row.algs.iter().zip(outs).filter(|(_, o)| o.finished()).map(|(a, o)| (a.label.clone(), o.configs)).collect();
    let distinct: std::collections::BTreeSet<u64> = counts.iter().map(|c| c.1).collect();
    let wrong_expect = row.expect.is_some_and(|e| distinct.iter().any(|&c| c != e));
    if distinct.len() <= 1 && !wrong_expect {
        return None;
    }
    if let Some(e) = row.expect {
        counts.push(("expected".into(), e));
    }
    let list = counts.iter().map(|(l, c)| format!("{l}={c}")).collect::<Vec<_>>().join(", ");
    Some(format!("DISAGREEMENT: {} [{}]: maximal configurations {list}", row.bench, row.params()))
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Entry point of `unfold bench`: returns the exit status (0 all agree, 1 disagreement
/// or a run that failed).
pub fn bench(a: BenchArgs) -> Result<u8> {
    if let Some(t) = a.timeout {
        if !(t.is_finite() && t > 0.0) {
            bail!("--timeout must be a positive number of seconds");
        }
    }
    let suite = load_suite(&a.suite, a.quick, a.timeout)?;
    let exe = std::env::current_exe().context("locating the unfold executable")?;
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from("bench-out").join(&suite.name));
    let total: usize = suite.rows.iter().map(|r| r.algs.len()).sum();
    say!(
        "unfold bench: suite `{}`: {} runs, timeout {}s each, results in {}",
        suite.name,
        total,
        suite.timeout,
        out.display()
    );
    let started = Instant::now();
    let mut results: Vec<Vec<Outcome>> = Vec::new();
    let mut done = 0;
    for row in &suite.rows {
        let mut outs = Vec::new();
        for alg in &row.algs {
            done += 1;
            let o = run_one(&exe, row, alg, suite.timeout);
            if unfold_runtime::interrupted() {
                bail!("stopped during run {done} of {total}: no results written");
            }
            say!(
                "  [{done}/{total}] {} {} {}: {} — {} executions, {} configurations, {} SSB, {:.2}s{}",
                row.bench,
                row.params(),
                alg.label,
                o.verdict,
                o.executions,
                o.configs,
                o.ssb,
                o.elapsed,
                if o.error.is_empty() { String::new() } else { format!(" ({})", o.error) }
            );
            outs.push(o);
        }
        results.push(outs);
    }
    let wall = started.elapsed().as_secs_f64();
    std::fs::create_dir_all(out.join("plots")).with_context(|| format!("creating {}", out.display()))?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let (md, bad) = markdown(&suite, &results, &command, wall);
    std::fs::write(out.join("results.md"), md).context("writing results.md")?;
    std::fs::write(out.join("results.csv"), csv(&suite, &results)).context("writing results.csv")?;
    let mut jsonl = String::new();
    for (row, outs) in suite.rows.iter().zip(&results) {
        for (alg, o) in row.algs.iter().zip(outs) {
            let j = serde_json::json!({
                "benchmark": row.bench, "program": row.program.display().to_string(), "params": row.params(),
                "algorithm": alg.label, "verdict": o.verdict, "error": o.error, "run": o.json,
            });
            let _ = writeln!(jsonl, "{j}");
        }
    }
    std::fs::write(out.join("results.jsonl"), jsonl).context("writing results.jsonl")?;
    for (name, file) in plots(&suite, &results) {
        std::fs::write(out.join("plots").join(&name), file).with_context(|| format!("writing plots/{name}"))?;
    }
    for l in &bad {
        say!("unfold bench: {l}");
    }
    let errors = results.iter().flatten().filter(|o| o.verdict == "error").count();
    if errors > 0 {
        say!("unfold bench: {errors} run(s) failed (ERR in the table)");
    }
    say!("unfold bench: wrote {} ({wall:.0}s)", out.join("results.md").display());
    Ok(if bad.is_empty() && errors == 0 { 0 } else { 1 })
}

fn markdown(suite: &Suite, results: &[Vec<Outcome>], command: &str, wall: f64) -> (String, Vec<String>) {
    let mut s = String::new();
    let mut bad = Vec::new();
    let _ = writeln!(s, "# unfold bench: {}\n", suite.name);
    let _ = writeln!(s, "- command: `{command}`");
    let _ = writeln!(s, "- machine: {}", machine());
    let _ = writeln!(s, "- time limit per run: {} s (`TO`: timed out; `ERR`: the run failed)", suite.timeout);
    let _ = writeln!(s, "- total wall-clock time: {wall:.0} s\n");
    let _ = writeln!(
        s,
        "Time: seconds of one `unfold check` process, compilation of the program included. SSB: \
         sleep-set-blocked executions. Mem: peak resident memory of the run, MB (10^6 bytes), the \
         larger of the checker and its worker process. Confs: maximal configurations, agreed by every \
         run that finished.\n"
    );
    // Group rows by their algorithm columns so that each table has one header.
    let mut i = 0;
    while i < suite.rows.len() {
        let labels: Vec<&str> = suite.rows[i].algs.iter().map(|a| a.label.as_str()).collect();
        let mut j = i;
        while j < suite.rows.len() && suite.rows[j].algs.iter().map(|a| a.label.as_str()).eq(labels.iter().copied()) {
            j += 1;
        }
        let _ = write!(s, "| Benchmark | Params | Th | Confs |");
        for l in &labels {
            let _ = write!(s, " {l} Time | {l} SSB | {l} Mem |");
        }
        let _ = write!(s, "\n| --- | --- | ---: | ---: |");
        for _ in &labels {
            let _ = write!(s, " ---: | ---: | ---: |");
        }
        s.push('\n');
        for (row, outs) in suite.rows[i..j].iter().zip(&results[i..j]) {
            let d = disagreement(row, outs);
            let confs = match (&d, outs.iter().find(|o| o.finished())) {
                (Some(_), _) => "**DISAGREE**".to_string(),
                (None, Some(o)) => o.configs.to_string(),
                (None, None) => {
                    format!("≥{}", outs.iter().map(|o| o.configs).max().unwrap_or(0))
                }
            };
            let th = row.threads.map(|t| t.to_string()).unwrap_or_else(|| "—".into());
            let _ = write!(s, "| {} | {} | {th} | {confs} |", row.bench, row.params());
            for o in outs {
                let (ssb, m) =
                    if o.verdict == "error" { ("—".into(), "—".into()) } else { (o.ssb.to_string(), mb(o)) };
                let _ = write!(s, " {} | {ssb} | {m} |", fmt_time(o));
            }
            s.push('\n');
            bad.extend(d);
        }
        s.push('\n');
        // Executions, the figure the plots show.
        let _ = write!(s, "Executions (SSB included):\n\n| Benchmark | Params |");
        for l in &labels {
            let _ = write!(s, " {l} |");
        }
        let _ = write!(s, "\n| --- | --- |");
        for _ in &labels {
            let _ = write!(s, " ---: |");
        }
        s.push('\n');
        for (row, outs) in suite.rows[i..j].iter().zip(&results[i..j]) {
            let _ = write!(s, "| {} | {} |", row.bench, row.params());
            for o in outs {
                let _ = match o.verdict.as_str() {
                    "incomplete" => write!(s, " ≥{} (TO) |", o.executions),
                    "error" => write!(s, " ERR |"),
                    _ => write!(s, " {} |", o.executions),
                };
            }
            s.push('\n');
        }
        s.push('\n');
        i = j;
    }
    for (row, outs) in suite.rows.iter().zip(results) {
        for (alg, o) in row.algs.iter().zip(outs) {
            if o.verdict == "error" {
                let _ = writeln!(s, "- ERROR: {} [{}] {}: {}", row.bench, row.params(), alg.label, o.error);
            }
        }
    }
    if bad.is_empty() {
        let _ = writeln!(s, "All finished runs agree on the number of maximal configurations.");
    } else {
        for l in &bad {
            let _ = writeln!(s, "**{l}**\n");
        }
    }
    (s, bad)
}

fn csv(suite: &Suite, results: &[Vec<Outcome>]) -> String {
    let mut s = String::from(
        "benchmark,program,params,threads,algorithm,verdict,executions,maximal_configurations,ssb,events,\
         elapsed_s,peak_rss_bytes,events_peak\n",
    );
    for (row, outs) in suite.rows.iter().zip(results) {
        for (alg, o) in row.algs.iter().zip(outs) {
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{},{},{:.3},{},{}",
                csv_field(&row.bench),
                csv_field(&row.program.display().to_string()),
                csv_field(&row.params()),
                row.threads.map(|t| t.to_string()).unwrap_or_default(),
                csv_field(&alg.label),
                o.verdict,
                o.executions,
                o.configs,
                o.ssb,
                o.events.map(|e| e.to_string()).unwrap_or_default(),
                o.elapsed,
                o.rss,
                o.events_peak.map(|e| e.to_string()).unwrap_or_default()
            );
        }
    }
    s
}

const COLOURS: [&str; 8] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];

/// One SVG line chart per benchmark family and measure. Hand-written SVG: text is drawn by
/// the viewer, so nothing here needs fonts.
fn plots(suite: &Suite, results: &[Vec<Outcome>]) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut benches: Vec<&str> = Vec::new();
    for r in &suite.rows {
        if r.family.is_some() && !benches.contains(&r.bench.as_str()) {
            benches.push(&r.bench);
        }
    }
    for b in benches {
        let rows: Vec<(usize, &Row)> = suite.rows.iter().enumerate().filter(|(_, r)| r.bench == b).collect();
        if rows.len() < 2 {
            continue;
        }
        let fam = rows[0].1.family.clone().unwrap_or_default();
        let labels: Vec<String> = rows[0].1.algs.iter().map(|a| a.label.clone()).collect();
        type Measure = fn(&Outcome) -> f64;
        let measures: [(&str, &str, Measure); 3] = [
            ("executions", "executions", |o| o.executions as f64),
            ("ssb", "SSB executions", |o| o.ssb as f64),
            ("time", "time (s)", |o| o.elapsed),
        ];
        for (file, ylabel, f) in measures {
            let mut series = Vec::new();
            for l in &labels {
                let mut pts = Vec::new();
                for (i, r) in &rows {
                    let Some(k) = r.algs.iter().position(|a| &a.label == l) else { continue };
                    let o = &results[*i][k];
                    if let (Some(x), true) = (r.family_value(), o.finished()) {
                        pts.push((x, f(o)));
                    }
                }
                series.push((l.clone(), pts));
            }
            let title = format!("{b}: {ylabel} vs {fam} (timed-out runs omitted)");
            files.push((format!("{}-{file}.svg", slug(b)), svg_chart(&title, &fam, ylabel, &series, XAxis::Family)));
        }
    }
    if let Some(chart) = qpor_cost_chart(suite, results) {
        files.push(("qpor-time-per-execution-vs-unfolding.svg".into(), chart));
    }
    files
}

/// QPOR's time per execution against the size of its unfolding (the most events `U`
/// held at once), one point per finished run of every benchmark, one series per QPOR
/// column: a cost per execution that grows with `U` shows as a rising cloud. `None` if
/// the suite has no QPOR run.
fn qpor_cost_chart(suite: &Suite, results: &[Vec<Outcome>]) -> Option<String> {
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (row, outs) in suite.rows.iter().zip(results) {
        for (alg, o) in row.algs.iter().zip(outs) {
            let (Some(peak), true) = (o.events_peak, o.finished() && o.executions > 0) else { continue };
            let point = (peak.max(1) as f64, o.elapsed / o.executions as f64 * 1e6);
            match series.iter_mut().find(|(l, _)| *l == alg.label) {
                Some((_, pts)) => pts.push(point),
                None => series.push((alg.label.clone(), vec![point])),
            }
        }
    }
    if series.is_empty() {
        return None;
    }
    Some(svg_chart(
        "QPOR: time per execution vs size of the unfolding (every finished run)",
        "events held at most in U (log scale)",
        "µs per execution (whole run / executions)",
        &series,
        XAxis::Log,
    ))
}

/// How a chart's x axis is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
enum XAxis {
    /// Linear, a tick at each distinct value, the points of a series joined by a line.
    Family,
    /// Logarithmic with a tick per decade, points not joined (a scatter).
    Log,
}

fn slug(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c.to_ascii_lowercase() } else { '_' }).collect()
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn svg_chart(title: &str, xlabel: &str, ylabel: &str, series: &[(String, Vec<(f64, f64)>)], xaxis: XAxis) -> String {
    let (w, h) = (720.0, 440.0);
    let (l, r, t, bm) = (80.0, 170.0, 40.0, 50.0);
    let pts: Vec<(f64, f64)> = series.iter().flat_map(|s| s.1.iter().copied()).collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#, w / 2.0, xml(title));
    if pts.is_empty() {
        let _ =
            writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">no finished run</text></svg>"#, w / 2.0, h / 2.0);
        return s;
    }
    let xmin = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let xmax = pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let ymin_raw = pts.iter().map(|p| p.1).filter(|&y| y > 0.0).fold(f64::INFINITY, f64::min);
    let ymax_raw = pts.iter().map(|p| p.1).fold(0.0, f64::max);
    let log = ymin_raw.is_finite() && ymax_raw / ymin_raw > 100.0;
    let (ylo, yhi) = if log {
        (ymin_raw.log10().floor(), ymax_raw.log10().ceil().max(ymin_raw.log10().floor() + 1.0))
    } else {
        (0.0, if ymax_raw > 0.0 { ymax_raw * 1.1 } else { 1.0 })
    };
    let xlog = xaxis == XAxis::Log;
    let (xlo, xhi) = if xlog {
        let lo = xmin.max(1.0).log10().floor();
        (lo, xmax.max(1.0).log10().ceil().max(lo + 1.0))
    } else if xmax > xmin {
        (xmin, xmax)
    } else {
        (xmin - 1.0, xmax + 1.0)
    };
    let pw = w - l - r;
    let ph = h - t - bm;
    let px = |x: f64| {
        let v = if xlog { x.max(1.0).log10() } else { x };
        l + (v - xlo) / (xhi - xlo) * pw
    };
    let py = |y: f64| {
        let v = if log { y.max(10f64.powf(ylo)).log10() } else { y };
        t + ph - (v - ylo) / (yhi - ylo) * ph
    };
    let _ = writeln!(s, r##"<rect x="{l}" y="{t}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>"##);
    // y ticks
    let yticks: Vec<f64> = if log {
        (ylo as i64..=yhi as i64).map(|e| 10f64.powi(e as i32)).collect()
    } else {
        (0..=5).map(|i| yhi * i as f64 / 5.0).collect()
    };
    for y in yticks {
        let yy = py(y);
        let lab = if log {
            format!("1e{}", y.log10().round())
        } else if yhi >= 100.0 {
            format!("{y:.0}")
        } else {
            format!("{y:.2}")
        };
        let _ = writeln!(s, r##"<line x1="{l}" y1="{yy:.1}" x2="{}" y2="{yy:.1}" stroke="#ddd"/>"##, l + pw);
        let _ = writeln!(s, r#"<text x="{}" y="{:.1}" text-anchor="end">{lab}</text>"#, l - 6.0, yy + 4.0);
    }
    // x ticks: the distinct family values, or the decades
    let mut xs: Vec<f64> = if xlog {
        (xlo as i64..=xhi as i64).map(|e| 10f64.powi(e as i32)).collect()
    } else {
        pts.iter().map(|p| p.0).collect()
    };
    xs.sort_by(|a, b| a.total_cmp(b));
    xs.dedup();
    for x in xs {
        let xx = px(x);
        let _ =
            writeln!(s, r##"<line x1="{xx:.1}" y1="{}" x2="{xx:.1}" y2="{}" stroke="#333"/>"##, t + ph, t + ph + 5.0);
        let _ = writeln!(s, r#"<text x="{xx:.1}" y="{}" text-anchor="middle">{x}</text>"#, t + ph + 18.0);
    }
    let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#, l + pw / 2.0, h - 10.0, xml(xlabel));
    let _ = writeln!(
        s,
        r#"<text x="18" y="{}" text-anchor="middle" transform="rotate(-90 18 {})">{}{}</text>"#,
        t + ph / 2.0,
        t + ph / 2.0,
        xml(ylabel),
        if log { " (log scale; 0 on the bottom axis)" } else { "" }
    );
    for (i, (label, p)) in series.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let dash = if i >= COLOURS.len() { r#" stroke-dasharray="4 3""# } else { "" };
        let mut p = p.clone();
        p.sort_by(|a, b| a.0.total_cmp(&b.0));
        let path: Vec<String> = p.iter().map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y))).collect();
        if path.len() > 1 && !xlog {
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"{dash}/>"#,
                path.join(" ")
            );
        }
        for &(x, y) in &p {
            let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{c}"/>"#, px(x), py(y));
        }
        let ly = t + 10.0 + 18.0 * i as f64;
        let lx = l + pw + 12.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{c}" stroke-width="2"{dash}/>"#,
            lx + 20.0
        );
        let _ = writeln!(s, r#"<text x="{}" y="{}">{}</text>"#, lx + 26.0, ly + 4.0, xml(label));
    }
    s.push_str("</svg>\n");
    s
}
