//! `unfold`: a stateless model checker for C/pthread programs.
//!
//! `unfold check prog.c` compiles the program with the system C compiler, runs it under
//! every relevant thread schedule and reports every concurrency defect with a trace and a
//! replay token; `unfold replay prog.c TOKEN` re-runs one execution and prints its trace.

/// A line on stderr; a closed stderr is not worth a panic.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

mod bench;
mod compile;
mod dot;
mod nondet;
mod report;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use report::{Build, DefectReport, FindingKey, Kind, Recording, Symbols};
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use unfold_engine::explore::explorer_for;
use unfold_engine::{
    Algorithm, Cancel, Control, Execution, ExploreConfig, ExploreError, Explorer, Independence, Program, ProgramError,
    RunRequest, Session, Stats, ThreadId,
};
use unfold_runtime::{CProgram, Image, MemoryMode, Mode, Options, Valuation};

/// No defect in any execution (verdict `ok`).
const EXIT_OK: u8 = 0;
/// A defect was found (verdict `defect`).
const EXIT_DEFECT: u8 = 1;
/// Usage, input, compilation or internal error (verdict `error`).
const EXIT_ERROR: u8 = 2;
/// The exploration stopped before covering everything and found no defect (verdict
/// `incomplete`): --timeout, a bound, a signal, or nondeterministic values left out.
const EXIT_INCOMPLETE: u8 = 3;

const EXIT_HELP: &str = "Exit status:
  0  no defect in any execution (verdict ok)
  1  defect found (verdict defect)
  2  usage, input, compilation or internal error (verdict error), a replay whose program
     source or flags differ from the recorded ones, or a --dot file that could not be
     written when no defect was found (the report is printed first)
  3  incomplete: stopped by --timeout, --max-context-switches or a signal (SIGINT,
     SIGTERM, SIGHUP) before any defect was found, or no defect for the values of
     __VERIFIER_nondet_* explored when they leave some out, or a finding of the
     exploration that did not happen again when replayed, or a loop that counts its polls of
     shared memory, explored for its first polls only (verdict incomplete)

The program is compiled with $CC (default cc; may include arguments, e.g. CC=\"gcc -m64\")
as a shared object with debug info and thread-sanitizer instrumentation (shared memory is \
seen: atomics are scheduling points, plain accesses are checked for data races; see --memory).
Supported: pthread_create/join/exit/self/equal/detach/yield, pthread_setcancelstate/setcanceltype/\
testcancel (no thread is ever cancelled), pthread_setname_np/getname_np, pthread_mutex_init/destroy/lock/\
unlock/trylock/timedlock, mutex types normal/errorcheck/recursive, pthread_cond_*, sem_init/wait/\
trywait/timedwait/post/getvalue/destroy, pthread_rwlock_*, pthread_barrier_*, pthread_once, \
pthread_spin_*, C11 thrd_*/mtx_*/cnd_*/call_once and <stdatomic.h>, static initializers, assert, \
abort, exit, reach_error, sleep/usleep/nanosleep (returning at once), \
__VERIFIER_error/assume/atomic_begin/atomic_end and functions named __VERIFIER_atomic_*, __VERIFIER_nondet_* (explored over the values of --nondet; _Bool: 0 and 1). \
Time-outs are explored, not timed. Other pthread functions and named semaphores are refused by name \
before exploring.

A replay token records the program's source hash, its -D/-I/-O/--cflags flags, its \
arguments, --max-steps, --stack-size, --heap-size, the values of nondeterministic draws and the schedule: \
`unfold replay FILE TOKEN` needs nothing else.

--json prints exactly one JSON object on stdout, in every case: verdict (ok|defect|\
incomplete|error), executions, maximal_configurations, ssb, events (QPOR: the events its \
unfolding created; other explorers: the distinct events of the executions explored with \
--dot, else null: counting them costs memory per event), events_peak and \
unfolding_peak_bytes (QPOR: the most events and bytes its unfolding held; else null), \
wakeup_peak (optimal-dpor: the most wakeup-tree nodes held; else null), steps, elapsed_s, peak_rss_bytes, algorithm, isolation, stopped_early (timeout or signal when \
--timeout or a signal cut the exploration short: an incomplete verdict, or with --keep-going a \
defect list that may be partial; else null), defects: [{kind, message, thread, \
location: {file, line} or null, replay, trace: [{thread, op, location}]}] (the full trace), \
kind one of assertion, deadlock, abort, exit, crash, mutex-misuse, sync-misuse, data-race, \
use-after-free, double-free, invalid-free, stack-use-after-exit, uninit-read, heap-buffer-overflow, livelock, bound, timeout; \
dot_error if --dot failed; warnings if any; nondet {valuations, values, complete, partial} when the \
program drew nondeterministic values (each defect then lists its draws: nondet [{thread, call, type, \
value, location}]); algorithm_choice when the default algorithm handed over to optimal-dpor (two threads read one object or access disjoint bytes of one memory word, or qpor's unfolding outgrew --unfolding-budget); memory_choice when a program written for SV-COMP is checked under --memory sc by default; bounded_poll (why the verdict is incomplete) when a loop counting its polls was explored for its first polls only. On an error: {verdict: error, error_kind (usage, input, compile, \
refused, limit, replay-mismatch, interrupted, internal), message, diagnostics (compiler output, \
capped)}.";

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
2 usage or suite error, 3 stopped by SIGINT, SIGTERM or SIGHUP (the run in progress is stopped too; nothing \
is written). See bench/README.md for the suite format.")]
    Bench(bench::BenchArgs),
}

/// A `--nondet` list.
#[derive(Clone, Debug)]
struct NondetValues(Vec<i64>);

fn parse_nondet(s: &str) -> std::result::Result<NondetValues, String> {
    nondet::parse_domain(s).map(NondetValues)
}

/// Longest time limit accepted, in seconds (about 115 days).
const MAX_SECONDS: f64 = 1e7;
/// Most visible steps one execution may take: the shared step buffer is sized for it.
const MAX_STEPS: usize = 10_000_000;
/// Default --max-steps.
const DEFAULT_MAX_STEPS: usize = 100_000;
/// Default --exec-timeout, in seconds.
const DEFAULT_EXEC_TIMEOUT: f64 = 10.0;

/// A positive, finite number of seconds up to [`MAX_SECONDS`].
fn parse_seconds(s: &str) -> std::result::Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !v.is_finite() || v <= 0.0 {
        return Err("the time limit must be a positive, finite number of seconds".into());
    }
    if v > MAX_SECONDS {
        return Err(format!("the time limit must be at most {MAX_SECONDS:.0} seconds"));
    }
    Ok(v)
}

/// A step bound between 1 and [`MAX_STEPS`].
fn parse_max_steps(s: &str) -> std::result::Result<usize, String> {
    let v: u128 = s.trim().parse().map_err(|_| format!("`{s}` is not a number of steps"))?;
    if v == 0 || v > MAX_STEPS as u128 {
        return Err(format!("the step bound must be between 1 and {MAX_STEPS} (the size of the shared step buffer)"));
    }
    Ok(v as usize)
}

fn parse_stack_size(s: &str) -> std::result::Result<String, String> {
    unfold_runtime::mem::parse_size(s)
        .filter(|v| (unfold_runtime::mem::MIN_STACK..=unfold_runtime::mem::MAX_STACK).contains(v))
        .map(|_| s.trim().to_string())
        .ok_or_else(|| format!("`{s}`: expected a size from 16K to 128M (e.g. 8M)"))
}

fn parse_heap_size(s: &str) -> std::result::Result<usize, String> {
    use unfold_runtime::mem::{MAX_HEAP, MIN_HEAP};
    unfold_runtime::mem::parse_size(s)
        .filter(|v| (MIN_HEAP..=MAX_HEAP).contains(v))
        .ok_or_else(|| format!("`{s}`: expected a size from 1M to 16G (e.g. 256M, 2G)"))
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
    /// Wall-clock limit of one execution, in seconds [default: 10].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, help_heading = "Limits")]
    exec_timeout: Option<f64>,
    /// Visible steps after which an execution is reported as a livelock (defect `bound`),
    /// at most 10000000 [default: 100000].
    #[arg(long, value_name = "N", value_parser = parse_max_steps, help_heading = "Limits")]
    max_steps: Option<usize>,
    /// How executions are isolated: `auto` (a persistent worker that resets the program's
    /// memory, or one process per execution when the program uses libc state the reset
    /// cannot cover), `persistent`, or `fork` (one process per execution).
    #[arg(long, value_name = "MODE", default_value = "auto", value_parser = ["auto", "persistent", "fork"], help_heading = "Execution")]
    isolation: String,
    /// With a persistent worker, keep each execution as it stands at the point where
    /// the next one branches off, and start the next one there instead of running the
    /// program again from its start (`on`); `off` runs every execution from the start.
    /// Results are the same either way.
    #[arg(long, value_name = "ON|OFF", default_value = "on", value_parser = ["on", "off"], help_heading = "Execution")]
    checkpoints: String,
    /// How shared memory is treated: `races` (plain accesses are checked for data races
    /// in every execution; atomics are scheduling points), `sc` (every shared access,
    /// plain or atomic, is a scheduling point under sequential consistency; races are not
    /// reported), or `none` (the program is not instrumented: only pthread calls are
    /// visible, atomics run unobserved — for measurements and programs whose memory
    /// accesses are all protected by locks) [default: races; sc for a program written for
    /// SV-COMP (it uses reach_error, __VERIFIER_error, __VERIFIER_assume or
    /// __VERIFIER_atomic_*), whose concurrency tasks are racy by design and are checked
    /// under sequential consistency].
    #[arg(long, value_name = "MODE", value_parser = ["races", "sc", "none"], help_heading = "Execution")]
    memory: Option<String>,
    /// Explore spurious wake-ups: every untimed condition wait may also return without
    /// a signal (as POSIX allows).
    #[arg(long, help_heading = "Execution")]
    spurious_wakeups: bool,
    /// Stack size of every program thread that does not set one with
    /// pthread_attr_setstacksize, main included (e.g. 512K, 8M; at most 128M).
    #[arg(long, value_name = "SIZE", default_value = "8M", value_parser = parse_stack_size, help_heading = "Execution")]
    stack_size: String,
    /// Report reads of heap bytes that `malloc`/`realloc` returned and no instrumented
    /// write initialised (`uninit-read`); `calloc` memory counts as initialised. Bytes
    /// written only by libc (`memset`, `memcpy`, `read`...) are not seen as written.
    #[arg(long, help_heading = "Execution")]
    check_uninit: bool,
    /// Heap of each program thread (e.g. 64M, 2G; from 1M to 16G) [default: 256M]: an
    /// allocation beyond it stops the run with the error "heap limit of the checker
    /// reached" (not a defect of the program).
    #[arg(long, value_name = "SIZE", value_parser = parse_heap_size, help_heading = "Execution")]
    heap_size: Option<usize>,
    /// Arguments passed to the program's main (after `--`).
    #[arg(last = true, value_name = "PROGRAM ARGS")]
    args: Vec<String>,
}

impl BuildArgs {
    /// The build as recorded in tokens (include directories made absolute, so that a
    /// replay from another directory compiles the same program).
    fn build(&self) -> Build {
        let cwd = std::env::current_dir().unwrap_or_default();
        Build {
            defines: self.define.clone(),
            includes: self.include.iter().map(|i| cwd.join(i).display().to_string()).collect(),
            opt: self.opt.clone(),
            cflags: self.cflags.iter().flat_map(|s| s.split_whitespace().map(String::from)).collect(),
            args: self.args.clone(),
            max_steps: self.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
            memory: self.memory.clone().unwrap_or_else(|| MEMORY_AUTO.to_string()),
            spurious_wakeups: self.spurious_wakeups,
            stack_size: self.stack_size.clone(),
            check_uninit: self.check_uninit,
            heap_size: self.heap_size.unwrap_or(0) as u64,
        }
    }
}

/// `--unfolding-budget`'s default: QPOR's unfolding may hold 44 MiB
/// ([`unfold_engine::unfolding::Unfolding::heap_bytes`]). The peak RSS of the parent was 10–11 MiB
/// above the budget on mpat_nested K=8 (58.4 MiB with 48M, 50.9 with 40M): the
/// checker's own 7 MiB and what the count leaves out (allocator slack, the
/// explorer's configuration). 44M keeps the peak near 55 MiB, under 64 MB.
const DEFAULT_UNFOLDING_BUDGET: &str = "44M";

fn parse_budget(s: &str) -> std::result::Result<u64, String> {
    unfold_runtime::mem::parse_size(s)
        .map(|v| v as u64)
        .ok_or_else(|| format!("`{s}`: expected a size (e.g. 48M, 512K, 2G)"))
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The C source file (`.c`), or a preprocessed one (`.i`).
    file: PathBuf,
    /// Exploration algorithm: qpor, source-dpor, optimal-dpor, classic-dpor or dfs.
    /// Default: qpor, switching to optimal-dpor when two threads read one object (qpor
    /// orders reads, optimal-dpor lets them commute; the report notes it) and, with a
    /// warning, on a program qpor does not support (spin-waits on several locations), and
    /// when qpor's unfolding outgrows --unfolding-budget; an algorithm named here is never
    /// switched.
    #[arg(long, value_name = "NAME", help_heading = "Exploration")]
    algorithm: Option<String>,
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
    /// Values drawn for `__VERIFIER_nondet_*` of integer and floating types,
    /// comma-separated; the first is also the value of draws not varied (`_Bool` draws
    /// take 0 and 1, pointers NULL). Every combination of the values of an execution's draws is
    /// explored, with all schedules for each; without a defect the verdict is
    /// `incomplete` unless only `_Bool` values were drawn.
    #[arg(long, value_name = "VALUES", default_value = "0,1,-1", value_parser = parse_nondet, help_heading = "Exploration")]
    nondet: NondetValues,
    /// On each path of the search, the first N nondeterministic draws met take every
    /// value; later ones keep the first value of --nondet (the verdict is then
    /// `incomplete`).
    #[arg(long, value_name = "N", default_value_t = 12, help_heading = "Exploration")]
    nondet_keys: usize,
    /// Stop the whole exploration after this many seconds (verdict `incomplete`, exit 3).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, help_heading = "Limits")]
    timeout: Option<f64>,
    /// The default algorithm hands over to optimal-dpor (starting again; the report says
    /// why) once qpor's unfolding holds more than SIZE bytes (counted from its events
    /// and tables, the same on every machine): on some programs (nested locking) it
    /// grows with the run, where optimal-dpor's memory does not. An algorithm named with
    /// --algorithm is never switched.
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_UNFOLDING_BUDGET, value_parser = parse_budget, help_heading = "Limits")]
    unfolding_budget: u64,
    /// Print one JSON object on stdout instead of the human report.
    #[arg(long, help_heading = "Output")]
    json: bool,
    /// Print every step of long traces (by default the report shows their first and last
    /// steps; --json always has them all).
    #[arg(long, help_heading = "Output")]
    full_trace: bool,
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
    /// The C source file (it must be the one the token was made from).
    file: PathBuf,
    /// The replay token printed with a defect (it records the flags and arguments; any
    /// given here must match them).
    token: String,
    /// Print JSON instead of the human trace.
    #[arg(long)]
    json: bool,
    /// Print every step of a long trace.
    #[arg(long)]
    full_trace: bool,
    #[command(flatten)]
    build: BuildArgs,
}

/// An error with a kind for the JSON error object.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct Failure {
    kind: &'static str,
    message: String,
}

/// The `error_kind` of an error the program's run ended with: something the checker does
/// not model is `refused`, a limit of the checker is `limit`; `None` for the others.
fn program_error_kind(e: &anyhow::Error) -> Option<&'static str> {
    let pe = match (e.downcast_ref::<ExploreError>(), e.downcast_ref::<ProgramError>()) {
        (Some(ExploreError::Program(pe)), _) | (None, Some(pe)) => pe,
        (Some(ExploreError::Unsupported(_)), _) => return Some("refused"),
        _ => return None,
    };
    match pe {
        ProgramError::Unsupported(_) => Some("refused"),
        ProgramError::Limit(_) => Some("limit"),
        ProgramError::Divergence { .. } | ProgramError::Failed(_) => None,
    }
}

fn failure(kind: &'static str, message: impl Into<String>) -> anyhow::Error {
    Failure { kind, message: message.into() }.into()
}

/// Whether the command line asks for JSON (decided before parsing, so that a command line
/// clap rejects still gets its JSON object).
fn json_requested(argv: &[OsString]) -> bool {
    argv.iter().skip(1).take_while(|a| *a != "--").any(|a| a == "--json")
}

/// Write `text` to stdout. A reader that went away (`unfold check … | head -1`) ends the
/// output quietly: that is not an error of the check.
fn emit(text: &str) -> Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(anyhow!(e).context("writing to stdout")),
        _ => Ok(()),
    }
}

/// The JSON object of a run that ended in an error.
fn error_json(kind: &str, message: &str, diagnostics: Option<&str>) -> String {
    let mut j = serde_json::json!({ "verdict": "error", "error_kind": kind, "message": message });
    if let Some(d) = diagnostics {
        j["diagnostics"] = d.into();
    }
    format!("{j}\n")
}

/// A check of the signals and of `deadline`, cheap enough to be asked after every small
/// piece of an explorer's work: the clock (33 ns a read on this machine's VM) is read at
/// every 64th question only.
fn deadline_check(deadline: Option<Instant>) -> impl Fn() -> bool + Send + Sync + 'static {
    use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
    let asked = AtomicU32::new(0);
    move || {
        if unfold_runtime::interrupted() {
            return true;
        }
        let Some(d) = deadline else { return false };
        // A load and a store, not a read-modify-write: one thread asks.
        let n = asked.load(Relaxed);
        asked.store(n.wrapping_add(1), Relaxed);
        n.is_multiple_of(64) && Instant::now() >= d
    }
}

fn main() -> ExitCode {
    // Keep the C shims in the binary (they are exported to the program under test).
    std::hint::black_box(unfold_runtime::shims::shim_table());
    std::hint::black_box(unfold_runtime::memory::shim_table());
    std::hint::black_box(unfold_runtime::process::shim_table());
    std::hint::black_box((unfold_runtime::sync::shim_table(), unfold_runtime::c11::shim_table()));
    let argv: Vec<OsString> = std::env::args_os().collect();
    let json = json_requested(&argv);
    let cli = match Cli::try_parse_from(&argv) {
        Ok(c) => c,
        Err(e) => {
            if !e.use_stderr() {
                // --help, --version.
                let _ = emit(&e.render().to_string());
                return ExitCode::from(EXIT_OK);
            }
            if json {
                let text = e.to_string();
                let first = text.lines().next().unwrap_or("").trim_start_matches("error: ").to_string();
                let _ = emit(&error_json("usage", &first, None));
            }
            let _ = e.print();
            return ExitCode::from(EXIT_ERROR);
        }
    };
    // Before compiling: a signal must never kill unfold before its temporary directory and
    // worker processes are cleaned up.
    unfold_runtime::install_interrupt_handler();
    reap_stale_temp_dirs();
    // A binary linked with a stale tsan.c object would run with other semantics than its
    // sources say: refuse to run at all (an internal error).
    let r = unfold_runtime::memory::check_tsan_object().map_err(anyhow::Error::msg).and_then(|()| match cli.cmd {
        Cmd::Check(a) => check(a),
        Cmd::Replay(a) => replay(a),
        Cmd::Bench(a) => bench::bench(a),
    });
    match r {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let interrupted = unfold_runtime::interrupted();
            let message = format!("{e:#}");
            let (kind, diagnostics) = if interrupted {
                ("interrupted", None)
            } else if let Some(c) = e.downcast_ref::<compile::CompileError>() {
                ("compile", Some(c.diagnostics.as_str()))
            } else if e.downcast_ref::<compile::Refused>().is_some() {
                ("refused", None)
            } else if let Some(f) = e.downcast_ref::<Failure>() {
                (f.kind, None)
            } else if let Some(k) = program_error_kind(&e) {
                (k, None)
            } else {
                ("internal", None)
            };
            if let Some(d) = diagnostics {
                let _ = std::io::Write::write_all(&mut std::io::stderr(), d.as_bytes());
            }
            if json {
                let _ = emit(&error_json(kind, &message, diagnostics));
            }
            if interrupted {
                let sig = unfold_runtime::interrupt_signal().unwrap_or_else(|| "a signal".into());
                say!("unfold: interrupted by {sig} ({message})");
                ExitCode::from(EXIT_INCOMPLETE)
            } else {
                say!("unfold: error: {message}");
                ExitCode::from(EXIT_ERROR)
            }
        }
    }
}

/// Name of the file that marks a temporary directory with the process that owns it.
const OWNER_FILE: &str = "owner";
/// The files unfold puts in its temporary directory (a directory with anything else is
/// not reaped).
const TEMP_FILES: [&str; 7] =
    [OWNER_FILE, "unfold.h", "unfold_i.h", "unfold_renames.h", "program.i", "program.so", "program.o"];

/// Remove `$TMPDIR/unfold-*` directories left by checkers that were killed while
/// compiling (after loading, the directory is removed at once): only directories holding
/// nothing but unfold's files, whose owner process is gone, untouched for an hour.
fn reap_stale_temp_dirs() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for e in entries.flatten() {
        if !e.file_name().to_string_lossy().starts_with("unfold-") {
            continue;
        }
        let dir = e.path();
        let Ok(meta) = std::fs::symlink_metadata(&dir) else { continue };
        let old = meta.modified().ok().and_then(|m| m.elapsed().ok()).is_some_and(|a| a > Duration::from_secs(3600));
        if !meta.is_dir() || !old {
            continue;
        }
        let Ok(owner) = std::fs::read_to_string(dir.join(OWNER_FILE)) else { continue };
        let Ok(pid) = owner.trim().parse::<u32>() else { continue };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let only_ours = std::fs::read_dir(&dir).is_ok_and(|files| {
            // Ours, or the compiler's temporaries (`cc*`: compilation runs with TMPDIR here).
            files.flatten().all(|f| {
                let name = f.file_name();
                let cc_temp = name.to_string_lossy().starts_with("cc");
                (TEMP_FILES.iter().any(|n| name == *n) || cc_temp) && f.path().is_file()
            })
        });
        if only_ours {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// A program compiled, loaded and ready to run, with what is needed to report on it.
struct Loaded {
    prog: CProgram,
    sym: Symbols,
    mode: Mode,
    stateful: Vec<String>,
    /// Hash of the source that was compiled.
    source_hash: u64,
    build: Build,
    /// Warnings about the program (printed on stderr when loading; also in the JSON).
    warnings: Vec<String>,
    /// Why the memory model is not the default one, when `--memory` was not given.
    memory_choice: Option<String>,
    /// The values of the program's nondeterministic draws in the executions run now
    /// (`nondet`), and the value of the draws they do not name.
    valuation: Valuation,
    nondet_default: i64,
}

/// `Build::memory` when `--memory` was not given: `races`, or `sc` for a program written
/// for SV-COMP (resolved by [`load`], so tokens record the mode that ran).
const MEMORY_AUTO: &str = "auto";

fn load(file: &Path, build: &Build, b: &BuildArgs, quiet: bool) -> Result<Loaded> {
    compile::check_source(file).map_err(|e| failure("input", format!("{e:#}")))?;
    let source = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let dir = tempfile::Builder::new().prefix("unfold-").tempdir().context("creating a temporary directory")?;
    std::fs::write(dir.path().join(OWNER_FILE), std::process::id().to_string())
        .context("writing into the temporary directory")?;
    let flags = compile::CompileFlags {
        defines: build.defines.clone(),
        includes: build.includes.iter().map(PathBuf::from).collect(),
        opt: build.opt.clone(),
        cflags: build.cflags.clone(),
        instrument: build.memory != "none",
    };
    let c = compile::compile(file, dir.path(), &flags)?;
    if unfold_runtime::interrupted() {
        bail!("interrupted while compiling");
    }
    let mode = match b.isolation.as_str() {
        "auto" if c.resettable => Mode::Persistent,
        "persistent" => Mode::Persistent,
        _ => Mode::ForkPerExecution,
    };
    let mut build = build.clone();
    let mut memory_choice = None;
    let svcomp = compile::written_for_svcomp(&source);
    if build.memory == MEMORY_AUTO {
        build.memory = if svcomp { "sc" } else { "races" }.to_string();
        if svcomp {
            memory_choice = Some(
                "memory sc: the program is written for SV-COMP (it uses reach_error or __VERIFIER_*), whose \
                 concurrency tasks are racy by design; every shared access is a scheduling point under sequential \
                 consistency and data races are not reported (--memory races checks them)"
                    .to_string(),
            );
        }
    }
    let memory = match build.memory.as_str() {
        "races" => MemoryMode::Races,
        "sc" => MemoryMode::Sc,
        "none" => MemoryMode::Off,
        other => bail!("unknown --memory `{other}` (races, sc or none)"),
    };
    // Before any worker is forked (they inherit it).
    unfold_runtime::sync::set_spurious_wakeups(build.spurious_wakeups);
    unfold_runtime::memory::set_weak_unlocks(!c.tries_mutexes);
    let stack_size = unfold_runtime::mem::parse_size(&build.stack_size)
        .filter(|s| (unfold_runtime::mem::MIN_STACK..=unfold_runtime::mem::MAX_STACK).contains(s))
        .ok_or_else(|| failure("usage", format!("--stack-size `{}`: not a valid stack size", build.stack_size)))?;
    let image = Image::load(&c.so)?;
    let base = image.base;
    // SV-COMP's tasks end infeasible paths with abort() (`assume_abort_if_not`); set
    // before any worker is forked (they inherit it).
    unfold_runtime::shims::set_abort_ends_path(svcomp);
    let mut args = vec![file.display().to_string()];
    args.extend(build.args.iter().cloned());
    let opts = Options {
        mode,
        exec_timeout: Some(Duration::from_secs_f64(b.exec_timeout.unwrap_or(DEFAULT_EXEC_TIMEOUT))),
        args,
        entry_hooks: c.entry_hooks.iter().map(|&(o, h)| (o + base, h)).collect(),
        quiet,
        step_capacity: build.max_steps.saturating_add(1),
        memory,
        stack_size,
        check_uninit: build.check_uninit,
        heap_size: match build.heap_size {
            0 => unfold_runtime::mem::ARENA_SLOT,
            h => h as usize,
        },
        checkpoints: b.checkpoints == "on",
    };
    let prog = CProgram::new(image, opts)?;
    // Maps the object's debug info: it stays readable once the file is gone.
    let sym = Symbols::new(&c.so, base, c.data_symbols);
    // The program is loaded and its debug info mapped: nothing needs the directory any
    // more. Removing it now means a checker killed from here on (even by SIGKILL) leaves
    // nothing in $TMPDIR.
    let _ = dir.close();
    let warnings: Vec<String> = compile::file_warning(&c.stateful_imports).into_iter().collect();
    for w in &warnings {
        say!("unfold: warning: {w}");
    }
    Ok(Loaded {
        warnings,
        prog,
        sym,
        mode,
        stateful: c.stateful_imports,
        source_hash: report::source_hash(&source),
        build,
        memory_choice,
        valuation: Vec::new(),
        nondet_default: 0,
    })
}

/// Two threads operating on one object in a way QPOR orders and optimal-DPOR lets
/// commute, seen in an execution (the earlier thread and the other thread's step): the
/// sign that the default algorithm should not be QPOR. QPOR's object trees order every
/// two operations on an object, so each order of two reads (or of two accesses to
/// disjoint bytes of one memory word) is a trace of its own; optimal-DPOR lets reads
/// commute (JACM'17 §2) and accesses to disjoint bytes too (docs/memory.md, "Byte-aware
/// dependence"), and explores one execution where QPOR explores up to 1 000
/// (`bench/handoff.c`, docs/memory.md). Operations of one thread only are ordered by
/// the thread anyway: QPOR explores as few traces as optimal-DPOR there.
#[derive(Clone, Copy)]
struct Commuting {
    first: ThreadId,
    step: unfold_engine::Step,
    why: CommuteWhy,
}

/// What lets two operations commute for optimal-DPOR and not for QPOR.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CommuteWhy {
    /// Both are reads.
    Reads,
    /// They touch disjoint bytes of one memory word.
    DisjointBytes,
}

/// Why the default algorithm handed over to optimal-DPOR.
enum Handover {
    /// Two threads' operations commute for optimal-DPOR only (`commuting_pair`).
    Commuting(Commuting),
    /// QPOR's unfolding held more bytes than `--unfolding-budget` after that many
    /// executions.
    Outgrown { executions: u64, events: u64, budget: u64 },
}

/// The first [`Commuting`] pair of `exec`, if any.
fn commuting_pair(exec: &Execution) -> Option<Commuting> {
    use unfold_engine::{Access, Action};
    // Per object: the first thread reading it and the bytes it read, and per thread the
    // bytes of the memory word it accessed.
    let mut readers: HashMap<unfold_engine::ObjId, (ThreadId, u8)> = HashMap::new();
    let mut bytes: HashMap<unfold_engine::ObjId, Vec<(ThreadId, u8)>> = HashMap::new();
    for s in &exec.steps {
        let found = |first, why| Some(Commuting { first, step: *s, why });
        if let Action::Read(o, b) | Action::Write(o, b) | Action::Rmw(o, b, _) = s.action {
            let seen = bytes.entry(o).or_default();
            if let Some(&(t, _)) = seen.iter().find(|&&(t, seen)| t != s.thread && seen & b.bits() == 0) {
                return found(t, CommuteWhy::DisjointBytes);
            }
            match seen.iter_mut().find(|(t, _)| *t == s.thread) {
                Some((_, mine)) => *mine |= b.bits(),
                None => seen.push((s.thread, b.bits())),
            }
        }
        // A weak unlock is a read of its mutex only for its commuting with waits on it:
        // two threads re-locking a mutex without writing are no reason to switch.
        if s.action.access() != Access::Read || matches!(s.action, Action::Unlock(..)) {
            continue;
        }
        for o in s.action.objects() {
            let read = s.action.bytes_of(o).map_or(u8::MAX, |b| b.bits());
            match readers.entry(o) {
                // Reads of disjoint bytes (`w[0]` and `w[1]`) commute for optimal-DPOR
                // as accesses to different locations, not only as reads.
                std::collections::hash_map::Entry::Occupied(e) if e.get().0 != s.thread => {
                    let (first, bytes) = *e.get();
                    let why = if bytes & read == 0 { CommuteWhy::DisjointBytes } else { CommuteWhy::Reads };
                    return found(first, why);
                }
                std::collections::hash_map::Entry::Occupied(_) => {}
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert((s.thread, read));
                }
            }
        }
    }
    None
}

/// The independence relation an explorer runs with: reads of a memory location (and
/// read locks) commute for the DPOR family (JACM'17 §2); QPOR's trees need every two
/// operations on an object dependent.
fn independence_for(alg: Algorithm) -> Independence {
    match alg {
        Algorithm::Qpor { .. } => Independence::AllDependent,
        _ => Independence::ReadReadIndependent,
    }
}

fn algorithm(a: &CheckArgs) -> Result<Algorithm> {
    let name = a.algorithm.as_deref().unwrap_or("qpor");
    let mut alg = Algorithm::parse(name)
        .ok_or_else(|| anyhow!("unknown algorithm `{name}` (qpor, source-dpor, optimal-dpor, classic-dpor, dfs)"))?;
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

/// The replay token of `schedule` on the loaded program.
fn token(l: &Loaded, schedule: &[ThreadId]) -> String {
    report::encode_token(&Recording {
        source_hash: l.source_hash,
        build: l.build.clone(),
        schedule: schedule.to_vec(),
        nondet: l.valuation.clone(),
        nondet_default: l.nondet_default,
    })
}

/// Re-run `schedule` (unless the execution is `kept`) and build the report of the
/// finding matching `key` (or the first).
fn report_for(
    l: &mut Loaded,
    schedule: &[ThreadId],
    key: Option<&FindingKey>,
    kept: Option<&Execution>,
) -> Result<(Execution, Vec<DefectReport>)> {
    let max_steps = l.build.max_steps;
    let (exec, draws) = match kept {
        // The values a kept execution drew are not kept with it.
        Some(e) => (e.clone(), Vec::new()),
        None => {
            let mut exec = Execution::default();
            let req = RunRequest { replay: schedule, sleep: &[], independence: Independence::AllDependent, max_steps };
            l.prog.set_valuation(&l.valuation, l.nondet_default)?;
            l.prog.run(&req, &mut exec).map_err(|e| anyhow!("replaying the execution failed: {e}"))?;
            (exec, l.prog.nondet_log().last())
        }
    };
    let nondet: Vec<report::NondetValue> = draws
        .iter()
        .map(|d| report::NondetValue {
            thread: d.thread.0,
            call: d.n + 1,
            c_type: d.kind.c_type(),
            value: d.kind.show(d.value),
            location: l.sym.location(&l.prog, Some(d.site)),
        })
        .collect();
    let sites = l.prog.deadlock_sites();
    let mut fs = report::findings(&exec, max_steps, &|t| sites.get(t));
    if let Some(k) = key {
        // The finding itself, else those of its kind (a message can differ in a detail);
        // one of another kind only, or none, means that the replay did not show it again,
        // which the caller reports.
        match fs.iter().position(|f| &f.key() == k) {
            Some(i) => fs = vec![fs.swap_remove(i)],
            None => fs.retain(|f| f.kind == k.0),
        }
    }
    let trace = report::trace(&l.sym, &l.prog, &exec);
    let tok = token(l, &exec.schedule());
    let reports = fs
        .into_iter()
        .map(|f| {
            let message = if matches!(f.kind, Kind::Deadlock | Kind::Livelock) {
                let group: Vec<ThreadId> = f.blocked.iter().map(|b| b.0).collect();
                report::describe_deadlock(&l.sym, &l.prog, &exec, &group)
            } else if f.message.starts_with("stack overflow") {
                match l.sym.function(f.site) {
                    Some(func) => format!("{} in function `{func}`", f.message),
                    None => format!("{} (in code outside the program: a library function it called)", f.message),
                }
            } else {
                l.sym.name_addresses(&l.prog, &f.message)
            };
            let location = match (f.kind, f.site) {
                (Kind::Deadlock | Kind::Livelock, _) => blocked_location(l, &exec, f.thread),
                (_, s) => l.sym.location(&l.prog, s),
            };
            DefectReport {
                kind: f.kind.name(),
                message,
                thread: f.thread.0,
                location,
                replay: tok.clone(),
                trace: trace.clone(),
                nondet: nondet.clone(),
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
    let alg = algorithm(&a).map_err(|e| failure("usage", e.to_string()))?;
    if a.max_context_switches.is_some() && alg != Algorithm::Dfs {
        return Err(failure(
            "usage",
            "--max-context-switches is implemented for --algorithm dfs only (a bound combined with a \
             partial-order reduction would lose schedules); add --algorithm dfs",
        ));
    }
    let started = Instant::now();
    let build = a.build.build();
    let mut l = load(&a.file, &build, &a.build, true)?;
    let max_steps = build.max_steps;
    let deadline = a.timeout.map(|s| started + Duration::from_secs_f64(s));
    let config = ExploreConfig {
        algorithm: alg,
        max_steps,
        max_preemptions: a.max_context_switches,
        independence: independence_for(alg),
        // The explorer's work on a long run is cut by the deadline and by signals, as
        // the run itself is.
        cancel: Some(Cancel::new(deadline_check(deadline))),
        ..ExploreConfig::default()
    };
    let keep_going = a.keep_going;
    // Each finding's schedule and the values of its nondeterministic draws, and for a
    // timed-out execution the execution itself: it is reported as it was, not run again
    // to its time limit.
    let mut found: Vec<(FindingKey, Vec<ThreadId>, Option<Execution>, Valuation)> = Vec::new();
    // The valuation of the exploration under way (module `nondet`).
    let current: std::cell::RefCell<Valuation> = Default::default();
    let mut seen = HashSet::new();
    let mut timed_out = false;
    // The first poll run without a step (a counting loop's: `memory.rs`, "Polls that
    // count"): the exploration is bounded there.
    let mut bounded_poll = None;
    let progress = std::io::stderr().is_terminal() && !a.json;
    let mut last_progress = Instant::now();
    // The explored prefix of the unfolding, for --dot (and then the `events` figure of
    // explorers that do not build an unfolding themselves): it costs memory per distinct
    // event, so it is not built otherwise.
    let mut switched = Vec::new();
    // The default algorithm gives way to optimal-DPOR as soon as an execution shows two
    // threads' operations that commute for optimal-DPOR only (see `commuting_pair`) or QPOR's unfolding outgrows the
    // unfolding budget; an algorithm the user named never does.
    let chosen = a.algorithm.is_some() || a.k.is_some() || a.optimal;
    let watch = std::cell::Cell::new(!chosen && matches!(config.algorithm, Algorithm::Qpor { .. }));
    let handover = std::cell::Cell::new(None);
    let budget = a.unfolding_budget;
    let mut unfolding = a.dot.is_some().then(dot::Unfolding::default);
    let sites = l.prog.deadlock_sites();
    l.prog.set_deadline(deadline);
    let mut observer = |exec: &Execution, _new: bool, stats: &Stats| -> Control {
        if unfold_runtime::interrupted() {
            return Control::Stop;
        }
        if let Some(u) = unfolding.as_mut() {
            u.add(exec);
        }
        if bounded_poll.is_none() {
            bounded_poll = exec.bounded_poll;
        }
        for f in report::findings(exec, max_steps, &|t| sites.get(t)) {
            let k = f.key();
            if seen.insert(k.clone()) {
                let keep = matches!(exec.end, unfold_engine::End::Timeout).then(|| exec.clone());
                found.push((k, exec.schedule(), keep, current.borrow().clone()));
            }
        }
        if progress
            && stats.executions & 63 == 0
            && started.elapsed() > Duration::from_secs(1)
            && last_progress.elapsed() > Duration::from_millis(250)
        {
            last_progress = Instant::now();
            let el = started.elapsed().as_secs_f64();
            use std::io::Write as _;
            let _ = write!(
                std::io::stderr(),
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
        if watch.get() {
            let why = commuting_pair(exec).map(Handover::Commuting).or_else(|| {
                (stats.unfolding_bytes > budget).then_some(Handover::Outgrown {
                    executions: stats.executions,
                    events: stats.events,
                    budget,
                })
            });
            if why.is_some() {
                handover.set(why);
                return Control::Stop;
            }
        }
        Control::Continue
    };
    // The default algorithm gives way to optimal-DPOR on a program it does not support
    // or whose threads share reads (found in the middle of the exploration: the defects
    // found so far stand, and the new exploration starts from scratch); an algorithm the
    // user named never does.
    let mut config = config;
    let mut chosen_because = None;
    // One exploration of the schedules per valuation of the nondeterministic draws
    // (`nondet`): a program that draws none has one.
    let nondet_log = l.prog.nondet_log();
    let mut enumeration = nondet::Enumeration::new(a.nondet.0.clone(), a.nondet_keys);
    let mut total: Option<Stats> = None;
    let stats = loop {
        let valuation = enumeration.valuation();
        l.prog.set_valuation(&valuation, enumeration.default_value()).map_err(|e| failure("limit", e.to_string()))?;
        *current.borrow_mut() = valuation;
        let stats = loop {
            let mut session = Session::new(&mut l.prog, &mut observer, config.clone());
            let mut explorer: Box<dyn Explorer> = explorer_for(&config)?;
            let outcome = explorer.explore(&mut session);
            let handed_over = if watch.get() && outcome.is_ok() { handover.take() } else { None };
            match outcome {
                Ok(()) if handed_over.is_some() => {
                    session.finish();
                    // QPOR's unfolding goes: its pages go back to the system rather
                    // than stay in the allocator's free lists for the whole new run.
                    drop(explorer);
                    unfold_runtime::release_free_memory();
                    watch.set(false);
                    chosen_because = handed_over;
                    config.algorithm = Algorithm::OptimalDpor;
                    config.independence = independence_for(config.algorithm);
                }
                Ok(()) => break session.finish(),
                Err(ExploreError::Unsupported(why))
                    if !chosen && matches!(config.algorithm, Algorithm::Qpor { .. }) =>
                {
                    let w = format!("qpor does not support this program ({why}); explored with optimal-dpor instead");
                    say!("unfold: warning: {w}");
                    switched.push(w);
                    watch.set(false);
                    config.algorithm = Algorithm::OptimalDpor;
                    config.independence = independence_for(config.algorithm);
                }
                Err(ExploreError::Unsupported(why)) => return Err(failure("refused", why)),
                Err(e) => return Err(e.into()),
            }
        };
        let stopped = stats.stopped_early;
        match total.as_mut() {
            None => total = Some(stats),
            Some(t) => t.absorb(&stats),
        }
        let (drawn, truncated) = nondet_log.take_keys();
        if stopped || !enumeration.advance(&drawn, truncated) {
            break total.take().expect("set above");
        }
    };
    l.nondet_default = enumeration.default_value();
    let alg = config.algorithm;
    let qpor = matches!(alg, Algorithm::Qpor { .. });
    // Why the default algorithm is optimal-DPOR here (a choice, not a warning).
    let choice = chosen_because.map(|why| {
        let Commuting { first, step: s, why } = match why {
            Handover::Commuting(c) => c,
            Handover::Outgrown { executions, events, budget } => {
                return format!(
                    "optimal-dpor chosen over qpor: after {executions} executions qpor's unfolding ({events} \
                     events) passed --unfolding-budget ({:.1} MiB): qpor keeps the events its alternatives may need, which \
                     on some programs (nested locking) grow with the run, and optimal-dpor's memory does not (the \
                     exploration started again; name --algorithm to choose)",
                    budget as f64 / (1 << 20) as f64
                )
            }
        };
        let at = l
            .sym
            .location(&l.prog, Some(s.site))
            .map(|loc| format!(" at {}:{}", loc.file, loc.line))
            .unwrap_or_default();
        let (what, commute) = match why {
            CommuteWhy::Reads => {
                ("both read one object", "every two operations on an object, optimal-dpor lets reads commute")
            }
            CommuteWhy::DisjointBytes => (
                "access different bytes of one memory word",
                "every two accesses to a word, optimal-dpor lets accesses to disjoint bytes commute",
            ),
        };
        format!(
            "optimal-dpor chosen over qpor: {first} and {} {what} ({} by {}{at}); qpor orders {commute} (name \
             --algorithm to choose)",
            s.thread,
            l.sym.step_op(&l.prog, &s),
            s.thread
        )
    });
    l.warnings.append(&mut switched);
    if progress && started.elapsed() > Duration::from_secs(1) {
        say!();
    }
    // Cut short: by a signal, or by --timeout (which also cuts the execution running then).
    let signalled = unfold_runtime::interrupted();
    timed_out |= deadline.is_some_and(|d| Instant::now() >= d);
    let cut = signalled || l.prog.was_interrupted();
    let interrupted = cut || timed_out;
    l.prog.set_deadline(None);
    // QPOR: the events it created (its unfolding is pruned as it goes); the others: the
    // distinct events of the executions they explored.
    let events = match (&unfolding, qpor) {
        (_, true) => Some(stats.events_added),
        (Some(u), false) => Some(u.len() as u64),
        (None, false) => None,
    };
    // QPOR: the most events its unfolding `U` held at once (the memory that matters).
    let events_peak = qpor.then_some(stats.events_peak);
    let unfolding_peak = qpor.then_some(stats.unfolding_bytes_peak);
    // Optimal-DPOR: the most wakeup-tree nodes held at once (its memory beyond the stack).
    let wakeup_peak = matches!(alg, Algorithm::OptimalDpor).then_some(stats.wakeup_peak);
    // A --dot file that cannot be written must not throw the finished report away: the
    // error is reported after it.
    let mut dot_note = None;
    let mut dot_error = None;
    if let (Some(path), Some(u)) = (&a.dot, &unfolding) {
        match std::fs::write(path, u.to_dot(&l.sym, &l.prog)) {
            Ok(()) => {
                dot_note =
                    Some(format!("unfold: wrote {} events of the explored unfolding to {}", u.len(), path.display()))
            }
            Err(e) => dot_error = Some(format!("cannot write the --dot file {}: {e}", path.display())),
        }
    }
    // Drop findings of an execution cut by a signal or --timeout (reported as a timeout).
    if cut {
        found.retain(|f| f.0 .0 != Kind::Timeout);
    }
    let mut defects = Vec::new();
    let mut unreproduced = 0;
    l.prog.set_interruptible(false);
    for (key, schedule, kept, valuation) in &found {
        l.valuation.clone_from(valuation);
        let (_, mut r) = report_for(&mut l, schedule, Some(key), kept.as_ref())?;
        if r.is_empty() {
            // The exploration went on from an execution that ended differently than its
            // replay: what it explored after it may be incomplete.
            unreproduced += 1;
            let w = format!(
                "a {} seen during the exploration ({}) did not happen again when its execution was replayed: the \
                 program depends on something unfold does not control (time, randomness, its environment), or \
                 this is a bug of unfold; the exploration may have missed schedules",
                key.0.name(),
                key.2
            );
            if !a.json {
                eprintln!("unfold: warning: {w}");
            }
            l.warnings.push(w);
        }
        defects.append(&mut r);
    }
    // Values of nondeterministic draws left out of the search (`nondet`).
    let nondet_partial = enumeration.partial_reason();
    let verdict = if !defects.is_empty() {
        "defect"
    } else if timed_out
        || interrupted
        || a.max_context_switches.is_some()
        || nondet_partial.is_some()
        || unreproduced > 0
        || bounded_poll.is_some()
    {
        // A bounded search proves nothing beyond its bound.
        "incomplete"
    } else {
        "ok"
    };
    let polls_note = bounded_poll.map(|site| {
        let at =
            l.sym.location(&l.prog, Some(site)).map_or_else(|| "a loop".to_string(), |p| format!("the loop at {p}"));
        format!(
            "{at} counts its polls (it polls the same locations in a new local state each time): its polls \
             after the first few ran without scheduling points, so writes between them were not explored"
        )
    });
    // Not RUSAGE_CHILDREN: it would count the compiler (a reaped child too).
    let (rss_self, _) = unfold_runtime::peak_rss_bytes();
    let peak = rss_self.max(l.prog.worker_peak_rss());
    let elapsed = started.elapsed().as_secs_f64();
    if a.json {
        let mut j = serde_json::json!({
            "verdict": verdict,
            // What cut the exploration short: the reason for an incomplete verdict, or
            // (defects found with --keep-going) why the list may be partial.
            "stopped_early": interrupted.then_some(if timed_out { "timeout" } else { "signal" }),
            "algorithm": alg.name(),
            "executions": stats.executions,
            "maximal_configurations": stats.maximal_configurations,
            "ssb": stats.ssb,
            "events": events,
            "events_peak": events_peak,
            "unfolding_peak_bytes": unfolding_peak,
            "wakeup_peak": wakeup_peak,
            "steps": stats.steps,
            "elapsed_s": elapsed,
            "peak_rss_bytes": peak,
            "isolation": if l.mode == Mode::Persistent { "persistent" } else { "fork" },
            "defects": defects,
        });
        if let Some(e) = &dot_error {
            j["dot_error"] = e.as_str().into();
        }
        if !l.warnings.is_empty() {
            j["warnings"] = l.warnings.clone().into();
        }
        if let Some(c) = &choice {
            j["algorithm_choice"] = c.as_str().into();
        }
        if let Some(c) = &l.memory_choice {
            j["memory_choice"] = c.as_str().into();
        }
        if enumeration.drew() {
            j["nondet"] = serde_json::json!({
                "valuations": enumeration.valuations(),
                "values": a.nondet.0,
                "complete": enumeration.complete(),
            });
            if let Some(why) = &nondet_partial {
                j["nondet"]["partial"] = why.as_str().into();
            }
        }
        if let Some(p) = &polls_note {
            j["bounded_poll"] = p.as_str().into();
        }
        emit(&format!("{j}\n"))?;
    } else {
        let mut out = String::new();
        use std::fmt::Write as _;
        let _ = writeln!(out, "unfold: {} ({})", a.file.display(), alg.name());
        if let Some(c) = &l.memory_choice {
            let _ = writeln!(out, "note: {c}");
        }
        if let Some(c) = &choice {
            let _ = writeln!(out, "note: {c}");
        }
        let stopped_by = match unfold_runtime::interrupt_signal() {
            Some(sig) if signalled => format!("interrupted by {sig}"),
            _ if timed_out => "stopped by --timeout".to_string(),
            _ => "interrupted".to_string(),
        };
        let _ = writeln!(
            out,
            "verdict: {}",
            match verdict {
                "defect" => format!("DEFECT ({} found)", defects.len()),
                "incomplete" if a.max_context_switches.is_some() && !timed_out && !interrupted => format!(
                    "INCOMPLETE (no defect within {} context switches; schedules beyond the bound were not explored)",
                    a.max_context_switches.unwrap_or(0)
                ),
                "incomplete" if !timed_out && !interrupted && nondet_partial.is_some() => format!(
                    "INCOMPLETE (no defect for the nondeterministic values explored: {})",
                    nondet_partial.as_deref().unwrap_or_default()
                ),
                "incomplete"
                    if !timed_out
                        && !interrupted
                        && unreproduced == 0
                        && nondet_partial.is_none()
                        && polls_note.is_some() =>
                {
                    format!("INCOMPLETE (no defect found; {})", polls_note.as_deref().unwrap_or_default())
                }
                "incomplete" if !timed_out && !interrupted && unreproduced > 0 => format!(
                    "INCOMPLETE ({unreproduced} finding(s) of the exploration did not happen again on replay: see the \
                     warnings)"
                ),
                "incomplete" => format!("INCOMPLETE ({stopped_by}; no defect found so far)"),
                _ => "OK (no defect in any execution)".into(),
            }
        );
        if verdict == "defect" && interrupted {
            let _ = writeln!(out, "note: {stopped_by} before the exploration ended: other defects may exist");
        }
        for (i, d) in defects.iter().enumerate() {
            out.push('\n');
            report::render_defect(&mut out, i, d, &a.file.display().to_string(), a.full_trace);
        }
        let _ = writeln!(out, "\nstatistics:");
        let _ = writeln!(out, "  executions:             {}", stats.executions);
        let _ = writeln!(out, "  maximal configurations: {}", stats.maximal_configurations);
        if enumeration.drew() {
            let values = a.nondet.0.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
            let _ = writeln!(
                out,
                "  nondeterministic values: {} valuations explored (values {values}; _Bool 0, 1){}",
                enumeration.valuations(),
                if enumeration.complete() { ", all of them" } else { "" }
            );
        }
        let _ = writeln!(out, "  SSB executions:         {}", stats.ssb);
        match events {
            Some(n) => _ = writeln!(out, "  events:                 {n}"),
            None => {
                _ = writeln!(
                    out,
                    "  events:                 not counted ({} builds no unfolding; --dot counts them)",
                    alg.name()
                )
            }
        }
        if let (Some(n), Some(b)) = (events_peak, unfolding_peak) {
            let _ = writeln!(out, "  events held at most:    {n} ({:.1} MiB)", b as f64 / (1 << 20) as f64);
        }
        if let Some(n) = wakeup_peak {
            let _ = writeln!(out, "  wakeup-tree nodes, max: {n}");
        }
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
            let _ = writeln!(out, "    hand-off (pipes, scheduling):    {:8.2}", us(t.handoff));
            let _ = writeln!(out, "    trace transfer:                  {:8.2}", us(t.transfer));
            let _ = writeln!(out, "    explorer and reporting:          {:8.2}", us(explorer));
            // The explorer's phases (those its algorithm has), parts of its time above: each
            // is timed outside the program's runs (the steps QPOR turns into events while
            // the program still runs, and their `cexp`, are in the run's time).
            let ph = stats.time;
            for (name, d) in [
                ("steps into events", ph.add_events),
                ("conflicting extensions", ph.cex),
                ("analysis (combs, races)", ph.comb_build),
                ("comb search", ph.comb_search),
                ("pruning", ph.prune),
            ] {
                if !d.is_zero() {
                    let _ = writeln!(out, "      {name:<31}{:8.2}", us(d));
                }
            }
            // Negative: the part of the explorer's time that the running time already covers.
            let _ = writeln!(out, "    explorer while the program ran:  {:8.2}", 0.0 - us(t.overlap));
            let _ = writeln!(out, "    total:                           {:8.2}", us(total));
            // Not in the total: the worker replayed the next execution's prefix while the
            // explorer worked on the last one.
            let _ = writeln!(
                out,
                "    run ahead of the request:        {:8.2} (during the explorer's time; {} of {} executions)",
                us(t.ahead),
                t.continued,
                t.executions
            );
            let _ = writeln!(out, "    processes created:               {}", t.processes);
        }
        emit(&out)?;
        if let Some(n) = dot_note {
            say!("{n}");
        }
    }
    if let Some(e) = dot_error {
        say!("unfold: error: {e}");
        if verdict != "defect" {
            return Ok(EXIT_ERROR);
        }
    }
    Ok(match verdict {
        "defect" => EXIT_DEFECT,
        "incomplete" => EXIT_INCOMPLETE,
        _ => EXIT_OK,
    })
}

/// The differences between the flags given to `unfold replay` and the recorded ones
/// (flags not given take their recorded values).
fn build_mismatches(given: &BuildArgs, recorded: &Build) -> Vec<String> {
    let g = given.build();
    let mut v = Vec::new();
    let mut cmp = |what: &str, given: &[String], rec: &[String]| {
        if !given.is_empty() && given != rec {
            v.push(format!("{what}: recorded {rec:?}, given {given:?}"));
        }
    };
    cmp("-D", &g.defines, &recorded.defines);
    cmp("-I", &g.includes, &recorded.includes);
    cmp("--cflags", &g.cflags, &recorded.cflags);
    cmp("program arguments", &g.args, &recorded.args);
    if given.opt.is_some() && g.opt != recorded.opt {
        v.push(format!("-O: recorded {:?}, given {:?}", recorded.opt, g.opt));
    }
    if given.memory.is_some() && g.memory != recorded.memory {
        v.push(format!("--memory: recorded {}, given {}", recorded.memory, g.memory));
    }
    if given.max_steps.is_some() && g.max_steps != recorded.max_steps {
        v.push(format!("--max-steps: recorded {}, given {}", recorded.max_steps, g.max_steps));
    }
    let heap = |h: u64| if h == 0 { unfold_runtime::mem::ARENA_SLOT as u64 } else { h };
    if given.heap_size.is_some() && heap(g.heap_size) != heap(recorded.heap_size) {
        v.push(format!(
            "--heap-size: recorded {} MiB, given {} MiB",
            heap(recorded.heap_size) >> 20,
            heap(g.heap_size) >> 20
        ));
    }
    v
}

fn replay(a: ReplayArgs) -> Result<u8> {
    let rec = report::decode_token(&a.token).ok_or_else(|| {
        let why = if a.token.trim().starts_with(report::TOKEN_V2) {
            "its data is damaged: cut short, altered or run on; copy the whole token from the report of \
             `unfold check`"
        } else {
            "tokens start with `u2.`; tokens of older unfold versions must be re-made with `unfold check`"
        };
        failure("usage", format!("`{}` is not a replay token ({why})", a.token))
    })?;
    compile::check_source(&a.file).map_err(|e| failure("input", format!("{e:#}")))?;
    let source = std::fs::read(&a.file).with_context(|| format!("reading {}", a.file.display()))?;
    if report::source_hash(&source) != rec.source_hash {
        return Err(failure(
            "replay-mismatch",
            format!(
                "{} is not the program this token was made from (its source changed): the replay would not \
                 re-run the recorded execution; run `unfold check` again",
                a.file.display()
            ),
        ));
    }
    let diffs = build_mismatches(&a.build, &rec.build);
    if !diffs.is_empty() {
        return Err(failure(
            "replay-mismatch",
            format!(
                "the flags differ from the ones this token was made with ({}); the token records them: \
                 run `unfold replay FILE TOKEN` without flags",
                diffs.join("; ")
            ),
        ));
    }
    let mut l = load(&a.file, &rec.build, &a.build, a.json)?;
    (l.valuation, l.nondet_default) = (rec.nondet.clone(), rec.nondet_default);
    let (exec, defects) = report_for(&mut l, &rec.schedule, None, None)?;
    let trace = report::trace(&l.sym, &l.prog, &exec);
    if a.json {
        let j = serde_json::json!({
            "verdict": if defects.is_empty() { "ok" } else { "defect" },
            "trace": trace,
            "defects": defects,
        });
        emit(&format!("{j}\n"))?;
    } else {
        let mut out = String::new();
        use std::fmt::Write as _;
        let _ = writeln!(out, "unfold: replay of {} ({} steps)", a.file.display(), exec.steps.len());
        if defects.is_empty() {
            let _ = writeln!(out, "no defect in this execution");
            report::render_trace(&mut out, &trace, a.full_trace);
        }
        for (i, d) in defects.iter().enumerate() {
            report::render_defect(&mut out, i, d, &a.file.display().to_string(), a.full_trace);
        }
        emit(&out)?;
    }
    Ok(if defects.is_empty() { EXIT_OK } else { EXIT_DEFECT })
}
