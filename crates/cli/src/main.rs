//! `unfold`: a stateless model checker for C/pthread programs.
//!
//! `unfold check prog.c` compiles the program with the system C compiler, runs it under
//! every relevant thread schedule and reports every concurrency defect with a trace and a
//! replay token; `unfold replay prog.c TOKEN` re-runs one execution and prints its trace.

mod bench;
mod compile;
mod dot;
mod report;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use report::{DefectReport, Kind, RawFinding, Symbols};
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use unfold_engine::explore::explorer_for;
use unfold_engine::{
    Algorithm, Control, Execution, ExploreConfig, Explorer, Independence, Program, RunRequest, Session, Stats, ThreadId,
};
use unfold_runtime::{CProgram, Image, Mode, Options};

const EXIT_HELP: &str = "Exit status: 0 no defect found (verdict ok, or incomplete), 1 defect found, \
2 usage, compilation or internal error.

The program is compiled with $CC (default cc) as a shared object with debug info.
Supported: pthread_create/join/exit/self/equal/detach, pthread_mutex_init/destroy/lock/\
unlock/trylock, PTHREAD_MUTEX_INITIALIZER, mutex types normal/errorcheck/recursive, \
pthread_attr_* (detachstate, stacksize, guardsize, scope, schedpolicy, inheritsched, schedparam), \
pthread_key_*/getspecific/setspecific, tss_*, __thread variables, assert, \
abort, exit, reach_error, __VERIFIER_error/assume/atomic_begin/atomic_end and functions \
named __VERIFIER_atomic_*. Other pthread, semaphore or condition-variable functions and \
__VERIFIER_nondet_* are refused by name before exploring.

--json prints one object: verdict (ok|defect|incomplete), executions, \
maximal_configurations, ssb, events (QPOR: the events its unfolding created; other explorers: the distinct \
events of the executions explored), steps, elapsed_s, peak_rss_bytes, algorithm, \
explorer, isolation, defects: [{kind, message, thread, location: {file, line} or null, \
replay, trace: [{thread, op, location}]}], kind one of assertion, deadlock, abort, exit, \
crash, mutex-misuse, bound, timeout.";

/// unfold — model-check multithreaded C programs (POSIX threads).
#[derive(Parser, Debug)]
#[command(name = "unfold", version, after_help = EXIT_HELP)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Explore every relevant schedule of a C program and report its defects.
    #[command(after_help = EXIT_HELP)]
    Check(CheckArgs),
    /// Re-run exactly the execution named by a replay token and print its trace.
    #[command(after_help = EXIT_HELP)]
    Replay(ReplayArgs),
    /// Run a benchmark suite (programs × parameters × algorithms) and write tables and plots.
    #[command(after_help = "Exit status: 0 every finished run agrees, 1 a DISAGREEMENT (or a failed run), \
2 usage or suite error. See bench/README.md for the suite format.")]
    Bench(bench::BenchArgs),
}

/// Flags that control how the program is compiled and run.
#[derive(Args, Debug, Clone)]
struct BuildArgs {
    /// Define a preprocessor macro (NAME or NAME=VALUE) for the program.
    #[arg(short = 'D', value_name = "NAME=VALUE", help_heading = "Compilation")]
    define: Vec<String>,
    /// Add a directory to the program's include path.
    #[arg(short = 'I', value_name = "DIR", help_heading = "Compilation")]
    include: Vec<PathBuf>,
    /// Optimisation level passed to the compiler (default 0).
    #[arg(short = 'O', value_name = "N", help_heading = "Compilation")]
    opt: Option<String>,
    /// Extra compiler flags (split on whitespace; may be repeated).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true, help_heading = "Compilation")]
    cflags: Vec<String>,
    /// Wall-clock limit of one execution, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, help_heading = "Limits")]
    exec_timeout: f64,
    /// Visible steps after which an execution is reported as a livelock (defect `bound`).
    #[arg(long, value_name = "N", default_value_t = 100_000, help_heading = "Limits")]
    max_steps: usize,
    /// How executions are isolated: `auto` (a persistent worker that resets the program's
    /// memory, or one process per execution when the program uses libc state the reset
    /// cannot cover), `persistent`, or `fork` (one process per execution).
    #[arg(long, value_name = "MODE", default_value = "auto", help_heading = "Execution")]
    isolation: String,
    /// Stack size of every program thread that does not set one with
    /// pthread_attr_setstacksize, main included (e.g. 512K, 8M; at most 128M).
    #[arg(long, value_name = "SIZE", default_value = "8M", help_heading = "Execution")]
    stack_size: String,
    /// Arguments passed to the program's main (after `--`).
    #[arg(last = true, value_name = "PROGRAM ARGS")]
    args: Vec<String>,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The C source file.
    file: PathBuf,
    /// Exploration algorithm: qpor, source-dpor, optimal-dpor, classic-dpor or dfs.
    #[arg(long, default_value = "qpor", help_heading = "Exploration")]
    algorithm: String,
    /// QPOR with k-partial alternatives.
    #[arg(short = 'k', value_name = "N", conflicts_with = "optimal", help_heading = "Exploration")]
    k: Option<usize>,
    /// QPOR with optimal alternatives (the default).
    #[arg(long, help_heading = "Exploration")]
    optimal: bool,
    /// Explore everything and report every distinct defect (default: stop at the first).
    #[arg(long, help_heading = "Exploration")]
    keep_going: bool,
    /// Explore only schedules with at most N preemptions (with --algorithm dfs; a bounded
    /// search without defect ends with verdict `incomplete`).
    #[arg(long, value_name = "N", help_heading = "Exploration")]
    max_context_switches: Option<usize>,
    /// Stop the whole exploration after this many seconds (verdict `incomplete`).
    #[arg(long, value_name = "SECONDS", help_heading = "Limits")]
    timeout: Option<f64>,
    /// Print one JSON object on stdout instead of the human report.
    #[arg(long, help_heading = "Output")]
    json: bool,
    /// Write the explored part of the unfolding (events and causality of every explored
    /// execution; immediate conflicts dashed) in Graphviz format.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    dot: Option<PathBuf>,
    /// Print where the time of an execution goes (process/reset, run, transfer, explorer).
    #[arg(long, help_heading = "Output")]
    breakdown: bool,
    #[command(flatten)]
    build: BuildArgs,
}

#[derive(Args, Debug)]
struct ReplayArgs {
    /// The C source file (compiled with the same flags as for `check`).
    file: PathBuf,
    /// The replay token printed with a defect.
    token: String,
    /// Print JSON instead of the human trace.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    build: BuildArgs,
}

fn main() -> ExitCode {
    // Keep the C shims in the binary (they are exported to the program under test).
    std::hint::black_box(unfold_runtime::shims::shim_table());
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    // Before compiling: Ctrl-C must never kill unfold before its temporary directory and
    // worker processes are cleaned up.
    unfold_runtime::install_interrupt_handler();
    let r = match cli.cmd {
        Cmd::Check(a) => check(a),
        Cmd::Replay(a) => replay(a),
        Cmd::Bench(a) => bench::bench(a),
    };
    match r {
        Ok(code) => ExitCode::from(code),
        Err(e) if unfold_runtime::interrupted() => {
            eprintln!("unfold: interrupted ({e:#})");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("unfold: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A program compiled, loaded and ready to run, with what is needed to report on it.
struct Loaded {
    prog: CProgram,
    sym: Symbols,
    mode: Mode,
    stateful: Vec<String>,
    // Dropped last: the compiled program lives in it.
    _dir: tempfile::TempDir,
}

fn load(file: &Path, b: &BuildArgs, quiet: bool) -> Result<Loaded> {
    let dir = tempfile::Builder::new().prefix("unfold-").tempdir().context("creating a temporary directory")?;
    let flags = compile::CompileFlags {
        defines: b.define.clone(),
        includes: b.include.clone(),
        opt: b.opt.clone(),
        cflags: b.cflags.iter().flat_map(|s| s.split_whitespace().map(String::from)).collect(),
    };
    let c = compile::compile(file, dir.path(), &flags)?;
    let mode = match b.isolation.as_str() {
        "auto" if c.resettable => Mode::Persistent,
        "auto" | "fork" => Mode::ForkPerExecution,
        "persistent" => Mode::Persistent,
        other => bail!("unknown --isolation `{other}` (auto, persistent or fork)"),
    };
    if b.exec_timeout.is_nan() || b.exec_timeout <= 0.0 {
        bail!("--exec-timeout must be positive");
    }
    let stack_size = unfold_runtime::mem::parse_size(&b.stack_size)
        .filter(|s| (unfold_runtime::mem::MIN_STACK..=unfold_runtime::mem::MAX_STACK).contains(s))
        .ok_or_else(|| anyhow!("--stack-size `{}`: expected a size from 16K to 128M (e.g. 8M)", b.stack_size))?;
    let image = Image::load(&c.so)?;
    let base = image.base;
    let mut args = vec![file.display().to_string()];
    args.extend(b.args.iter().cloned());
    let opts = Options {
        mode,
        exec_timeout: Some(Duration::from_secs_f64(b.exec_timeout)),
        args,
        atomic_fns: c.atomic_fns.iter().map(|a| a + base).collect(),
        quiet,
        step_capacity: b.max_steps.saturating_add(1),
        stack_size,
    };
    let prog = CProgram::new(image, opts)?;
    let sym = Symbols::new(&c.so, base, c.data_symbols);
    Ok(Loaded { prog, sym, mode, stateful: c.stateful_imports, _dir: dir })
}

fn algorithm(a: &CheckArgs) -> Result<Algorithm> {
    let mut alg = Algorithm::parse(&a.algorithm).ok_or_else(|| {
        anyhow!("unknown algorithm `{}` (qpor, source-dpor, optimal-dpor, classic-dpor, dfs)", a.algorithm)
    })?;
    if let Some(k) = a.k {
        if !matches!(alg, Algorithm::Qpor { .. }) {
            bail!("-k applies to --algorithm qpor only");
        }
        if k == 0 {
            bail!("-k must be at least 1");
        }
        alg = Algorithm::Qpor { k: Some(k) };
    }
    if a.optimal && !matches!(alg, Algorithm::Qpor { .. }) {
        bail!("--optimal applies to --algorithm qpor only");
    }
    Ok(alg)
}

/// Hash of the source, so that replaying a token against another program is noticed.
fn source_tag(file: &Path) -> String {
    let bytes = std::fs::read(file).unwrap_or_default();
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{:06x}", h & 0xff_ffff)
}

fn token(file: &Path, schedule: &[ThreadId]) -> String {
    format!("{}.{}", report::encode_token(schedule), source_tag(file))
}

/// What makes two defects the same for `--keep-going`: kind, site and message.
type FindingKey = (Kind, Option<u64>, String);

fn finding_key(f: &RawFinding) -> FindingKey {
    (f.kind, f.site, f.message.clone())
}

/// Re-run `schedule` and build the report of the finding matching `key` (or the first).
fn report_for(
    l: &mut Loaded,
    file: &Path,
    schedule: &[ThreadId],
    key: Option<&FindingKey>,
    max_steps: usize,
) -> Result<(Execution, Vec<DefectReport>)> {
    let mut exec = Execution::default();
    let req = RunRequest { replay: schedule, sleep: &[], independence: Independence::AllDependent, max_steps };
    l.prog.run(&req, &mut exec).map_err(|e| anyhow!("replaying the execution failed: {e}"))?;
    let mut fs = report::findings(&exec, max_steps);
    if let Some(k) = key {
        if let Some(i) = fs.iter().position(|f| &finding_key(f) == k) {
            fs = vec![fs.swap_remove(i)];
        }
    }
    let trace = report::trace(&l.sym, &l.prog, &exec);
    let tok = token(file, &exec.schedule());
    let reports = fs
        .into_iter()
        .map(|f| {
            let message = if f.kind == Kind::Deadlock {
                report::describe_deadlock(&l.sym, &l.prog, &exec)
            } else if f.message.starts_with("stack overflow") {
                match l.sym.function(f.site) {
                    Some(func) => format!("{} in function `{func}`", f.message),
                    None => format!("{} (in code outside the program: a library function it called)", f.message),
                }
            } else {
                l.sym.name_addresses(&l.prog, &f.message)
            };
            let location = match (f.kind, f.site) {
                (Kind::Deadlock, _) => blocked_location(l, &exec, f.thread),
                (_, s) => l.sym.location(&l.prog, s),
            };
            DefectReport {
                kind: f.kind.name(),
                message,
                thread: f.thread.0,
                location,
                replay: tok.clone(),
                trace: trace.clone(),
            }
        })
        .collect();
    Ok((exec, reports))
}

/// Where a blocked thread is blocked: the site of its last step is not it, so use the
/// pending site recorded by the runtime when available, else its last step.
fn blocked_location(l: &Loaded, exec: &Execution, t: ThreadId) -> Option<report::Location> {
    let site = l.prog.pending_site(t).or_else(|| exec.steps.iter().rev().find(|s| s.thread == t).map(|s| s.site));
    l.sym.location(&l.prog, site)
}

fn check(a: CheckArgs) -> Result<u8> {
    let alg = algorithm(&a)?;
    if a.max_context_switches.is_some() && alg != Algorithm::Dfs {
        bail!(
            "--max-context-switches is implemented for --algorithm dfs only (a bound combined with a \
             partial-order reduction would lose schedules); add --algorithm dfs"
        );
    }
    let started = Instant::now();
    let mut l = load(&a.file, &a.build, true)?;
    let config = ExploreConfig {
        algorithm: alg,
        max_steps: a.build.max_steps,
        max_preemptions: a.max_context_switches,
        ..ExploreConfig::default()
    };
    let deadline = a.timeout.map(|s| started + Duration::from_secs_f64(s.max(0.0)));
    let keep_going = a.keep_going;
    let max_steps = a.build.max_steps;
    let mut found: Vec<(FindingKey, Vec<ThreadId>)> = Vec::new();
    let mut seen = HashSet::new();
    let mut timed_out = false;
    let progress = std::io::stderr().is_terminal() && !a.json;
    let mut last_progress = Instant::now();
    // The explored prefix of the unfolding: for --dot, and for the `events` figure of
    // explorers that do not build an unfolding themselves (all but qpor).
    let qpor = matches!(alg, Algorithm::Qpor { .. });
    let mut unfolding = (a.dot.is_some() || !qpor).then(dot::Unfolding::default);
    let mut observer = |exec: &Execution, _new: bool, stats: &Stats| -> Control {
        if unfold_runtime::interrupted() {
            return Control::Stop;
        }
        if let Some(u) = unfolding.as_mut() {
            u.add(exec);
        }
        for f in report::findings(exec, max_steps) {
            let k = finding_key(&f);
            if seen.insert(k.clone()) {
                found.push((k, exec.schedule()));
            }
        }
        if progress
            && stats.executions & 63 == 0
            && started.elapsed() > Duration::from_secs(1)
            && last_progress.elapsed() > Duration::from_millis(250)
        {
            last_progress = Instant::now();
            let el = started.elapsed().as_secs_f64();
            eprint!(
                "\r  {} executions ({:.0}/s), {} maximal configurations, {} SSB, {:.1}s   ",
                stats.executions,
                stats.executions as f64 / el,
                stats.maximal_configurations,
                stats.ssb,
                el
            );
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            timed_out = true;
            return Control::Stop;
        }
        if !found.is_empty() && !keep_going {
            return Control::Stop;
        }
        Control::Continue
    };
    let stats = {
        let mut session = Session::new(&mut l.prog, &mut observer, config.clone());
        let mut explorer: Box<dyn Explorer> = explorer_for(&config)?;
        explorer.explore(&mut session)?;
        session.finish()
    };
    if progress && started.elapsed() > Duration::from_secs(1) {
        eprintln!();
    }
    let interrupted = unfold_runtime::interrupted() || l.prog.was_interrupted();
    // QPOR: the events it created (its unfolding is pruned as it goes); the others: the
    // distinct events of the executions they explored.
    let events = match (&unfolding, qpor) {
        (_, true) => stats.events_added,
        (Some(u), false) => u.len() as u64,
        (None, false) => 0,
    };
    if let (Some(path), Some(u)) = (&a.dot, &unfolding) {
        std::fs::write(path, u.to_dot(&l.sym, &l.prog)).with_context(|| format!("writing {}", path.display()))?;
        if !a.json {
            eprintln!("unfold: wrote {} events of the explored unfolding to {}", u.len(), path.display());
        }
    }
    // Drop findings of an execution cut by Ctrl-C (reported as a timeout).
    if interrupted {
        found.retain(|f| f.0 .0 != Kind::Timeout);
    }
    let mut defects = Vec::new();
    l.prog.set_interruptible(false);
    for (key, schedule) in &found {
        let (_, mut r) = report_for(&mut l, &a.file, schedule, Some(key), max_steps)?;
        defects.append(&mut r);
    }
    let verdict = if !defects.is_empty() {
        "defect"
    } else if timed_out || interrupted || a.max_context_switches.is_some() {
        // A bounded search proves nothing beyond its bound.
        "incomplete"
    } else {
        "ok"
    };
    let (rss_self, rss_children) = unfold_runtime::peak_rss_bytes();
    let peak = rss_self.max(rss_children).max(l.prog.worker_peak_rss());
    let elapsed = started.elapsed().as_secs_f64();
    if a.json {
        let j = serde_json::json!({
            "verdict": verdict,
            "algorithm": alg.name(),
            "executions": stats.executions,
            "maximal_configurations": stats.maximal_configurations,
            "ssb": stats.ssb,
            "events": events,
            "steps": stats.steps,
            "elapsed_s": elapsed,
            "peak_rss_bytes": peak,
            "isolation": if l.mode == Mode::Persistent { "persistent" } else { "fork" },
            "defects": defects,
        });
        println!("{j}");
    } else {
        let mut out = String::new();
        use std::fmt::Write as _;
        let _ = writeln!(out, "unfold: {} ({})", a.file.display(), alg.name());
        let _ = writeln!(
            out,
            "verdict: {}",
            match verdict {
                "defect" => format!("DEFECT ({} found)", defects.len()),
                "incomplete" if a.max_context_switches.is_some() && !timed_out && !interrupted => format!(
                    "INCOMPLETE (no defect within {} context switches; schedules beyond the bound were not explored)",
                    a.max_context_switches.unwrap_or(0)
                ),
                "incomplete" => "INCOMPLETE (exploration stopped early; no defect found so far)".into(),
                _ => "OK (no defect in any execution)".into(),
            }
        );
        for (i, d) in defects.iter().enumerate() {
            out.push('\n');
            report::render_defect(&mut out, i, d, &a.file.display().to_string());
        }
        let _ = writeln!(out, "\nstatistics:");
        let _ = writeln!(out, "  executions:             {}", stats.executions);
        let _ = writeln!(out, "  maximal configurations: {}", stats.maximal_configurations);
        let _ = writeln!(out, "  SSB executions:         {}", stats.ssb);
        let _ = writeln!(out, "  events:                 {events}");
        let _ = writeln!(out, "  visible steps:          {}", stats.steps);
        let _ = writeln!(out, "  elapsed:                {elapsed:.3} s");
        let _ = writeln!(
            out,
            "  executions/s:           {:.0}",
            stats.executions as f64 / stats.elapsed.as_secs_f64().max(1e-9)
        );
        let _ = writeln!(out, "  peak memory (RSS):      {:.1} MiB", peak as f64 / (1 << 20) as f64);
        let _ = writeln!(
            out,
            "  isolation:              {}",
            if l.mode == Mode::Persistent {
                "persistent worker".to_string()
            } else if l.stateful.is_empty() {
                "one process per execution".to_string()
            } else {
                format!("one process per execution (the program uses {})", l.stateful.join(", "))
            }
        );
        if a.breakdown {
            let t = l.prog.timing;
            let n = t.executions.max(1) as f64;
            let us = |d: Duration| d.as_secs_f64() * 1e6 / n;
            let total = stats.elapsed;
            let explorer = total.saturating_sub(stats.time.run);
            let _ = writeln!(out, "  breakdown per execution (µs):");
            let _ = writeln!(out, "    process creation / memory reset: {:8.2}", us(t.reset));
            let _ = writeln!(out, "    running the program:             {:8.2}", us(t.run));
            let _ = writeln!(
                out,
                "    hand-off (pipes, scheduling):    {:8.2}",
                us(t.roundtrip.saturating_sub(t.run).saturating_sub(t.reset))
            );
            let _ = writeln!(out, "    trace transfer:                  {:8.2}", us(t.transfer));
            let _ = writeln!(out, "    explorer and reporting:          {:8.2}", us(explorer));
            let _ = writeln!(out, "    total:                           {:8.2}", us(total));
            let _ = writeln!(out, "    processes created:               {}", t.processes);
        }
        print!("{out}");
    }
    Ok(if verdict == "defect" { 1 } else { 0 })
}

fn replay(a: ReplayArgs) -> Result<u8> {
    let (body, tag) = match a.token.rsplit_once('.') {
        Some((b, t)) if b.starts_with("u1.") => (b.to_string(), Some(t.to_string())),
        _ => (a.token.clone(), None),
    };
    let schedule = report::decode_token(&body).ok_or_else(|| anyhow!("`{}` is not a replay token", a.token))?;
    if let Some(t) = tag {
        if t != source_tag(&a.file) {
            eprintln!(
                "unfold: warning: {} changed since this token was made; the replay may diverge",
                a.file.display()
            );
        }
    }
    let mut l = load(&a.file, &a.build, a.json)?;
    let (exec, defects) = report_for(&mut l, &a.file, &schedule, None, a.build.max_steps)?;
    let trace = report::trace(&l.sym, &l.prog, &exec);
    if a.json {
        let j = serde_json::json!({
            "verdict": if defects.is_empty() { "ok" } else { "defect" },
            "trace": trace,
            "defects": defects,
        });
        println!("{j}");
    } else {
        let mut out = String::new();
        use std::fmt::Write as _;
        let _ = writeln!(out, "unfold: replay of {} ({} steps)", a.file.display(), exec.steps.len());
        if defects.is_empty() {
            let _ = writeln!(out, "no defect in this execution");
            report::render_trace(&mut out, &trace);
        }
        for (i, d) in defects.iter().enumerate() {
            report::render_defect(&mut out, i, d, &a.file.display().to_string());
        }
        print!("{out}");
    }
    Ok(if defects.is_empty() { 0 } else { 1 })
}
