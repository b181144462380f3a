//! Worker processes and the [`Program`] implementation for a compiled C program.
//!
//! The parent (the `unfold` process, which runs the explorer) `dlopen`s the program once,
//! then forks a *worker* from that pristine image. Requests and results travel through a
//! shared anonymous mapping created before the fork; one byte on a pipe in each direction
//! says "request ready" / "result ready" (end of file on the result pipe means the worker
//! died). Two modes:
//!
//! - [`Mode::Persistent`] (the fast route): the worker runs executions in place and, after
//!   answering, restores the image's writable segments and resets its heap arena, while
//!   the parent's explorer works on the result. A crash or timeout kills it; the next
//!   execution forks a fresh one.
//! - [`Mode::ForkPerExecution`] (robust, for programs whose state the reset cannot cover:
//!   files, libc-internal state...): the worker is a fork server, forking one child per
//!   execution from its pristine state.
//!
//! Steps are streamed into shared memory as they happen, so a crash keeps the trace up to
//! the crashing step, and a crash handler records the faulting instruction address.
//! Thread identities live in shared memory too (`ThreadNames` entries in interning
//! order), so they survive worker re-forks.

use crate::exec::{take_results, Executor, Outcome, Rt, StepSink, RT};
use crate::image::Image;
use crate::mem::{Arena, ImageSnapshot, Stacks, TlsBlocks};
use crate::nondet::{Draw, NondetKind};
use crate::shared::{
    decode_independence, decode_name, encode_independence, encode_name, end_tag, error_code, load_len, pipe, read_byte,
    step_digest, wait_seq, write_byte, AwaitsFull, Corrupt, Header, Shared, Spinner, WireStep, MAX_DEFECTS, MAX_NAMES,
    MAX_SLEEP, PARENT_SPIN, WORKER_SPIN,
};
use crate::signals::{
    describe_wait_status, die_with, install_crash_handler, interrupted, signal_name, INTERRUPT_SIGNALS,
};
use crate::RuntimeError;
use std::ffi::{c_char, c_int, CString};
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use unfold_engine::{
    Action, Defect, DefectKind, End, Execution, Independence, Program, ProgramError, RunRequest, SchedState, Scheduler,
    Step, ThreadId,
};

/// How executions are isolated from each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One worker runs many executions, resetting the program's memory in between.
    Persistent,
    /// A fork server forks one process per execution.
    ForkPerExecution,
}

/// Options of a [`CProgram`].
#[derive(Clone, Debug)]
pub struct Options {
    /// Isolation mode.
    pub mode: Mode,
    /// Wall-clock limit of one execution.
    pub exec_timeout: Option<Duration>,
    /// `argv[0..]` of the program.
    pub args: Vec<String>,
    /// Entry addresses of the program's own SV-COMP functions whose call means
    /// something whatever their body does (`reach_error`: the error; a function named
    /// `__VERIFIER_atomic_*`: an atomic section).
    pub entry_hooks: Vec<(u64, crate::exec::EntryHook)>,
    /// Discard the program's stdout/stderr.
    pub quiet: bool,
    /// Most steps one execution can record.
    pub step_capacity: usize,
    /// How plain memory accesses are treated (programs compiled with
    /// `-fsanitize=thread`; without it no access is seen).
    pub memory: crate::memory::MemoryMode,
    /// Stack size of threads (main included) that do not ask for one with
    /// `pthread_attr_setstacksize`, at most [`crate::mem::MAX_STACK`].
    pub stack_size: usize,
    /// Report reads of uninitialised heap bytes ([`crate::heapcheck`]).
    pub check_uninit: bool,
    /// Heap bytes per thread ([`crate::mem::MIN_HEAP`] to [`crate::mem::MAX_HEAP`]): an
    /// allocation beyond it stops the run with "heap limit of the checker reached".
    pub heap_size: usize,
    /// A persistent worker keeps the execution as it stood at each request's branch
    /// point and starts the next request whose schedule begins the same way from
    /// there, instead of running the program from its start ("Checkpoints" at
    /// `WorkerCtx`).
    pub checkpoints: bool,
}

/// The most bytes of heap and writable data a checkpoint copies: past it a run starts
/// from the beginning (copying would cost about as much as the steps it saves).
const CHECKPOINT_LIMIT: usize = 1 << 20;

/// The most bytes all kept checkpoints may hold: past it no new one is kept until
/// deeper ones go (the worker's memory stays bounded whatever the executions' length).
const CHECKPOINTS_BUDGET: usize = 32 << 20;

/// In builds with debug assertions (the tests), the requests served from a checkpoint
/// numbered 1, 2, 4, 8... and every multiple of this are run again from the program's
/// start, and both runs must take the same steps ([`WorkerCtx::cross_check`]): a
/// checkpoint that does not put everything back shows up there, not only when a known
/// step differs.
const CROSS_CHECK_EVERY: u64 = 8;

/// An execution kept at a branch point ([`Options::checkpoints`]).
#[derive(Debug, Default)]
struct WorkerCheckpoint {
    /// Steps taken: the execution stands before its step `depth`.
    depth: usize,
    /// Main's first action.
    first: Option<Action>,
    /// The thread of the last step.
    last: Option<ThreadId>,
    state: SchedState,
    exec: crate::exec::Checkpoint,
    /// Bytes it holds ([`crate::exec::Checkpoint::footprint`], counted when taken).
    footprint: usize,
}

/// Time spent per phase, over all executions (see the benchmark).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// Executions run.
    pub executions: u64,
    /// Workers (persistent) or execution processes (fork mode) created.
    pub processes: u64,
    /// Worker: running the program (scheduler + coroutines), per its own clock.
    pub run: Duration,
    /// Worker: restoring memory between executions (persistent) or forking and reaping
    /// the execution process (fork mode).
    pub reset: Duration,
    /// Parent: copying the trace out of shared memory into the [`Execution`].
    pub transfer: Duration,
    /// Parent: waiting on top of the worker's (or, when longer, the explorer's) work:
    /// the round trip minus the longer of the worker's time and the explorer's work
    /// during the run ([`Program::run_overlapped`]).
    pub handoff: Duration,
    /// The explorer's work during runs, up to each run's length: time in which the
    /// parent and the worker both worked.
    pub overlap: Duration,
    /// Worker: running executions ahead of their request, while the explorer still
    /// worked on the last one (`WorkerCtx`, "Running ahead"), for the runs continued.
    pub ahead: Duration,
    /// Executions that continued a run ahead of their request.
    pub continued: u64,
}

struct Worker {
    pid: libc::pid_t,
    req: c_int,
    resp: c_int,
}

/// Which per-thread memory an address lies in (see [`CProgram::locate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// The thread's heap arena.
    Heap,
    /// The thread's stack (or its guard region).
    Stack,
    /// The thread's block of `__thread` variables.
    ThreadLocal,
}

/// A compiled C program as a [`Program`].
pub struct CProgram {
    image: Image,
    opts: Options,
    snapshot: ImageSnapshot,
    arena: Option<Arena>,
    stacks: Option<Stacks>,
    tls: Option<TlsBlocks>,
    argv_c: Vec<CString>,
    hdr: Shared<Header>,
    replay: Shared<AtomicU16>,
    steps: Shared<WireStep>,
    /// The digests of the steps of the last execution ([`crate::shared::step_digest`]),
    /// for the prefix a request shares with it.
    known: Shared<AtomicU64>,
    worker: Option<Worker>,
    /// Phase times.
    pub timing: Timing,
    interrupted: bool,
    /// Sequence number of the last request posted.
    seq: u64,
    /// How `wait` spins before it blocks.
    spinner: Spinner,
    /// Highest peak RSS seen among the workers, in bytes.
    worker_hwm: u64,
    /// Whether SIGINT cuts the execution in progress.
    interruptible: bool,
    /// Pending sites of the blocked threads of the last deadlocked execution.
    deadlock_sites: PendingSites,
    /// The pending site of each thread at the end of the last execution (0: none).
    last_sites: Vec<u64>,
    /// End of the whole exploration: an execution still running then is cut.
    deadline: Option<Instant>,
    /// The valuation of nondeterministic values of the next executions, sorted by key,
    /// and the value of the keys it does not name.
    valuation: crate::nondet::Valuation,
    nondet_default: i64,
    /// Whether `valuation` changed since it was last written for the worker.
    valuation_dirty: bool,
    /// The nondeterministic values the executions drew.
    nondet: NondetLog,
    /// The steps of the last execution: a request that replays a prefix of its schedule
    /// gets those steps from here, and the worker only checks them (`known`).
    known_steps: Vec<Step>,
}

/// The nondeterministic values drawn by executions ([`crate::nondet`]): readable by an
/// observer while an explorer holds the program (see [`CProgram::nondet_log`]).
#[derive(Clone, Debug, Default)]
pub struct NondetLog(std::sync::Arc<std::sync::Mutex<NondetDraws>>);

/// What [`NondetLog`] holds.
#[derive(Clone, Debug, Default)]
pub struct NondetDraws {
    /// The draws of the last execution, in the order they were made.
    pub last: Vec<Draw>,
    /// Every key drawn since the last [`NondetLog::take_keys`], with its kind.
    pub keys: std::collections::BTreeMap<(ThreadId, u32), NondetKind>,
    /// Some execution drew more values than it could report (its keys are missing), or a
    /// thread's path was cut at its limit of draws
    /// ([`MAX_THREAD_DRAWS`](crate::nondet::MAX_THREAD_DRAWS)).
    pub truncated: bool,
}

impl NondetLog {
    fn record(&self, draws: Vec<Draw>, truncated: bool) {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for d in &draws {
            g.keys.insert((d.thread, d.n), d.kind);
        }
        g.truncated |= truncated;
        g.last = draws;
    }

    /// The draws of the last execution.
    pub fn last(&self) -> Vec<Draw> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).last.clone()
    }

    /// The keys drawn since the last call, and whether some were lost.
    pub fn take_keys(&self) -> (std::collections::BTreeMap<(ThreadId, u32), NondetKind>, bool) {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        (std::mem::take(&mut g.keys), std::mem::take(&mut g.truncated))
    }
}

/// The sites of the pending actions of the threads blocked in the last execution that
/// ended in a deadlock, indexed by thread: readable by an observer while an explorer
/// holds the program (see [`CProgram::deadlock_sites`]).
#[derive(Clone, Debug, Default)]
pub struct PendingSites(std::sync::Arc<std::sync::Mutex<Vec<u64>>>);

impl PendingSites {
    /// The site of thread `t`'s pending action (None: unknown).
    pub fn get(&self, t: ThreadId) -> Option<u64> {
        let v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.get(t.index()).copied().filter(|&s| s != 0)
    }

    fn set(&self, sites: &[u64]) {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.clear();
        v.extend_from_slice(sites);
    }
}

impl std::fmt::Debug for CProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CProgram").field("image", &self.image).field("mode", &self.opts.mode).finish()
    }
}

struct ShmSink<'a> {
    hdr: &'a Header,
    steps: &'a [WireStep],
    n: usize,
    /// The last step pushed, as it was stored.
    last: Option<Step>,
    /// The lists of the spin-waits on several locations overflowed their capacity: the
    /// run was stopped and is reported as a limit of the checker.
    full: Option<AwaitsFull>,
    /// The digests of the first steps, which the parent knows ([`Header::known_len`]):
    /// they are checked, not written.
    known: &'a [AtomicU64],
    /// The first known step that the run did not repeat: the run stops there.
    diverged: Option<(usize, Step)>,
    /// The thread of every step so far (what a run ahead of the next request repeats).
    schedule: &'a mut Vec<ThreadId>,
    /// The digest of every step completed so far (what a run ahead checks its steps
    /// against, without waiting for the parent's copy in [`Header::known`]).
    digests: &'a mut Vec<u64>,
}

impl StepSink for ShmSink<'_> {
    fn push(&mut self, s: Step) -> bool {
        if self.diverged.is_some() {
            return false;
        }
        if self.n < self.known.len() {
            // Known to the parent: only counted (its digest is checked once it is done).
            self.hdr.last_final.store(0, Ordering::Release);
            self.schedule.push(s.thread);
            self.n += 1;
            self.hdr.running.store(s.thread.0 as u64, Ordering::Relaxed);
            self.hdr.nsteps.store(self.n as u64, Ordering::Release);
            return true;
        }
        let Some(slot) = self.steps.get(self.n) else { return false };
        self.hdr.last_final.store(0, Ordering::Release);
        if let Err(e) = slot.store(&s, &self.hdr.awaits) {
            self.full = Some(e);
            return false;
        }
        self.schedule.push(s.thread);
        self.n += 1;
        self.last = Some(s);
        self.hdr.running.store(s.thread.0 as u64, Ordering::Relaxed);
        self.hdr.nsteps.store(self.n as u64, Ordering::Release);
        true
    }
    fn update_last(&mut self, s: Step) {
        let i = self.n - 1;
        let digest = step_digest(s.thread, s.action);
        self.digests.truncate(i);
        self.digests.push(digest);
        if let Some(d) = self.known.get(i) {
            if d.load(Ordering::Relaxed) != digest {
                self.diverged = Some((i, s));
            }
            self.hdr.last_final.store(1, Ordering::Release);
            return;
        }
        let slot = &self.steps[i];
        let stored = match self.last.take() {
            Some(before) => slot.complete(&s, &before, &self.hdr.awaits),
            None => slot.store(&s, &self.hdr.awaits),
        };
        if let Err(e) = stored {
            self.full = Some(e);
        }
        self.hdr.last_final.store(1, Ordering::Release);
    }
    fn running(&mut self, t: ThreadId) {
        self.hdr.running.store(t.0 as u64, Ordering::Relaxed);
    }
    fn names(&mut self, entries: &[(ThreadId, u32)]) {
        publish_names(self.hdr, entries);
    }
}

/// Append threads interned by the worker to the shared thread table.
fn publish_names(hdr: &Header, entries: &[(ThreadId, u32)]) {
    for &e in entries {
        let n = hdr.nnames.load(Ordering::Relaxed) as usize;
        if let Some(slot) = hdr.names.get(n) {
            slot.store(encode_name(e), Ordering::Relaxed);
            hdr.nnames.store(n as u64 + 1, Ordering::Release);
        }
    }
}

/// Where the steps of a run ahead of its request go ("Running ahead", [`WorkerCtx`]):
/// nowhere; each is checked against the digest of the same step of the last execution,
/// which it repeats.
///
/// It writes nothing into shared memory either: it may start while the parent still
/// reads the last execution's results, so the thread running and the threads interned
/// are kept until the request comes.
struct AheadSink<'a> {
    /// The digests of the last execution's steps, as far as the run may go.
    known: &'a [u64],
    n: usize,
    /// A step did not repeat the last execution's: the run cannot be continued.
    diverged: bool,
    /// The thread running, for [`Header::running`].
    running: Option<ThreadId>,
    /// Threads interned, for [`publish_names`].
    names: Vec<(ThreadId, u32)>,
}

impl StepSink for AheadSink<'_> {
    fn push(&mut self, _: Step) -> bool {
        if self.diverged || self.n >= self.known.len() {
            return false;
        }
        self.n += 1;
        true
    }
    fn update_last(&mut self, s: Step) {
        self.diverged |= self.known[self.n - 1] != step_digest(s.thread, s.action);
    }
    fn running(&mut self, t: ThreadId) {
        self.running = Some(t);
    }
    fn names(&mut self, entries: &[(ThreadId, u32)]) {
        self.names.extend_from_slice(entries);
    }
}

/// Everything a worker needs, moved out of the parent's copy after the fork.
///
/// # Running ahead
///
/// The next request of an explorer almost always replays a prefix of the last
/// execution: it branches off where the explorer found an alternative. A persistent
/// worker does not wait for it idle: it resets the program and replays the last
/// execution's schedule (all but its last step, checking each step against the digest
/// it kept of it), pausing before every step to look for the request. When the request
/// comes and its known prefix covers the steps already taken, the run goes on from there
/// ([`Scheduler::continue_with`]) as if it had started with the request; otherwise it
/// is discarded and the request runs from the start. The explorer's analysis of the
/// last execution and the replay of the next one's prefix overlap. Only with the
/// program's output discarded (a discarded run would print twice).
///
/// Until the request comes, a run ahead writes nothing else into shared memory (the
/// thread running and the threads interned wait for the request). So when the last
/// execution drew no nondeterministic value (a draw would be recorded there: one in a
/// run started early drops it) it starts at once, while the parent still reads the
/// results, provided the explorer
/// bounds where it will branch off ([`Header::ahead_limit`], which QPOR lowers as its
/// backtracking passes each node): the run stops at the bound, where it is sure to be
/// continued. Otherwise it starts once the parent has read the results
/// ([`Header::collected_seq`]) and runs until the request comes: without a bound, the
/// earlier start made more runs go past the branch point than it saved.
///
/// Started early, it also pauses where the last execution branched off its
/// predecessor ([`WorkerCtx::last_known`]) until the request comes. The bound reaches
/// the next branch point only when the explorer's backtracking gets there, and a
/// worker faster than that backtracking runs past it and must start again. A
/// depth-first explorer's next branch point is at the last one or deeper about half
/// the time (QPOR on mpat_nested K=6: 22 500 of 45 000 requests); pausing at the last
/// one never runs past it then, and costs only the steps between the two points,
/// replayed after the request instead of before (docs/execution-cost.md, round 9).
/// The other half of the time the next branch point lies below the last one: once the
/// bound passes below the point where the run waits, the run starts again at once from
/// the deepest checkpoint under the bound (and goes on to the bound, which is mostly
/// where it is by then), so that the request finds it put back (round 17: requests that continue the run ahead, 23 040 → 41 900 of
/// 46 080 on mpat_nested K=6).
///
/// # Checkpoints
///
/// The prefix a request shares with the last execution need not run again at all.
/// With [`Options::checkpoints`], a run keeps the execution as it stands before the
/// step where its request branched off ([`WorkerCtx::go_on_keeping`],
/// [`crate::exec::Checkpoint`]); these checkpoints form a stack along the last
/// execution's schedule, and a run whose known prefix reaches one starts there
/// ([`Scheduler::at`]) instead of at the program's start — a run ahead of its request
/// from the deepest one where it would pause, a request served directly from the
/// deepest one within its known prefix. Deeper checkpoints go when a request branches
/// off above them, all of them when a run fails; a run put back that does not repeat
/// its known steps turns them off ([`WorkerCtx::checkpoints_failed`]), and in builds
/// with debug assertions a sample of the runs put back is run again from the program's
/// start and compared step by step ([`CROSS_CHECK_EVERY`]). Docs/execution-cost.md,
/// rounds 14 and 15.
struct WorkerCtx<'a> {
    exec: Executor,
    hdr: &'a Header,
    replay: &'a [AtomicU16],
    steps: &'a [WireStep],
    known: &'a [AtomicU64],
    /// The request, decoded (buffers reused across executions).
    replay_buf: Vec<ThreadId>,
    sleep_buf: Vec<(ThreadId, Action)>,
    /// The thread of each step of the last execution.
    schedule: Vec<ThreadId>,
    /// The digest of each step of the last execution.
    digests: Vec<u64>,
    /// The last execution ran to a normal end: it can be repeated ahead of the next
    /// request.
    repeatable: bool,
    /// The last execution drew no nondeterministic value: a run ahead, which repeats
    /// it, draws none either, and may start before the parent has read the results
    /// (it writes nothing the parent reads).
    drew_nothing: bool,
    /// The last request's independence relation.
    independence: Independence,
    /// How many steps of the last request the parent knew ([`Header::known_len`]): where
    /// the last execution branched off its predecessor, at least. A run ahead with a
    /// bound pauses there too ("Running ahead").
    last_known: usize,
    /// Checkpoints are taken ([`Options::checkpoints`]).
    use_checkpoints: bool,
    /// The executions kept at the branch points of the last execution's schedule, the
    /// deepest last. invariant: each one's first `depth` steps are the last execution's.
    checkpoints: Vec<WorkerCheckpoint>,
    /// Checkpoints no longer kept, whose allocations the next ones reuse.
    spare: Vec<WorkerCheckpoint>,
    /// Reset the program's memory to its state at load.
    pristine: &'a dyn Fn(),
    /// The program's memory is not as loaded: an execution ran since the last
    /// [`WorkerCtx::pristine`] (a run put back at a checkpoint does not need it).
    dirty: bool,
    /// Requests served from a checkpoint (for [`CROSS_CHECK_EVERY`]).
    restored_runs: u64,
    /// The scheduler's state of a run (its allocations reused).
    state_buf: SchedState,
    /// The program's writable data (what a checkpoint copies besides heap and stacks).
    writable: Vec<(usize, usize)>,
}

/// A request, decoded ([`WorkerCtx::decode_request`]).
struct Decoded {
    independence: Independence,
    max_steps: usize,
    /// Steps known to the parent ([`Header::known_len`]).
    known: usize,
    /// The valuation of nondeterministic values is the last request's.
    same_valuation: bool,
}

impl WorkerCtx<'_> {
    /// Clear the results in the header (all but the step count, which the parent resets
    /// with each request).
    fn clear_results(&self) {
        let hdr = self.hdr;
        hdr.last_final.store(1, Ordering::Relaxed);
        hdr.crash_pc.store(0, Ordering::Relaxed);
        hdr.crash_addr.store(0, Ordering::Relaxed);
        hdr.crash_sp.store(0, Ordering::Relaxed);
        hdr.stop_pc.store(0, Ordering::Relaxed);
        hdr.running.store(0, Ordering::Relaxed);
        hdr.ndefects.store(0, Ordering::Relaxed);
        hdr.nassumed.store(0, Ordering::Relaxed);
        hdr.nblocked.store(0, Ordering::Relaxed);
        hdr.nsites.store(0, Ordering::Relaxed);
        hdr.ndraws.store(0, Ordering::Relaxed);
        hdr.draws_cut.store(0, Ordering::Relaxed);
        hdr.bounded_poll.store(0, Ordering::Relaxed);
        hdr.error.store(error_code::NONE, Ordering::Relaxed);
        hdr.awaits.clear();
    }

    /// Go on with the execution in progress to its end. With `keep_at`, keep it as it
    /// stands before that step on the way (a checkpoint, pushed on
    /// [`WorkerCtx::checkpoints`]), unless a nondeterministic value was drawn before it
    /// (a run put back there would not draw it again) or its steps diverged.
    fn go_on_keeping(
        &mut self,
        sched: &mut Scheduler<'_>,
        state: &mut SchedState,
        sink: &mut ShmSink<'_>,
        first: Option<Action>,
        keep_at: Option<usize>,
    ) -> Result<End, ProgramError> {
        let mut end = self.exec.advance(sched, state, sink, |i| Some(i) == keep_at)?;
        if let (None, Some(depth)) = (end.as_ref(), keep_at) {
            if self.hdr.ndraws.load(Ordering::Relaxed) == 0 && sink.diverged.is_none() {
                let mut c = self.spare.pop().unwrap_or_default();
                if self.exec.checkpoint(&mut c.exec, &self.writable, CHECKPOINT_LIMIT) {
                    (c.depth, c.first, c.last) = (depth, first, sched.last());
                    c.state.clone_from(state);
                    c.footprint = c.exec.footprint();
                    self.checkpoints.push(c);
                } else {
                    self.spare.push(c);
                }
            }
            end = self.exec.advance(sched, state, sink, |_| false)?;
        }
        Ok(end.expect("never paused"))
    }

    /// Where the next run keeps a checkpoint: the request's branch point (`known`
    /// steps), unless one is kept there or deeper, or the kept ones fill the budget.
    fn keep_at(&self, known: usize) -> Option<usize> {
        let held: usize = self.checkpoints.iter().map(|c| c.footprint).sum();
        (self.use_checkpoints
            && self.checkpoints.last().is_none_or(|c| c.depth < known)
            && known > 0
            && held < CHECKPOINTS_BUDGET)
            .then_some(known)
    }

    /// A run put back at a checkpoint did not repeat the steps that followed it the
    /// first time: the program depends on something a checkpoint does not restore (the
    /// bytes below a thread's stack pointer, read uninitialised), so the worker stops
    /// taking checkpoints and resets the program for a run from its start. No step of
    /// the failed run reached the parent: a divergence stops a run at the first known
    /// step it does not repeat, and known steps are not written.
    fn checkpoints_failed(&mut self) {
        self.use_checkpoints = false;
        self.drop_checkpoints(0);
        self.spare.clear();
        (self.pristine)();
        self.dirty = false;
    }

    /// Forget the checkpoints deeper than `known` steps (the next execution branches off
    /// there), or all of them.
    fn drop_checkpoints(&mut self, deeper_than: usize) {
        while self.checkpoints.last().is_some_and(|c| c.depth > deeper_than) {
            self.spare.extend(self.checkpoints.pop());
        }
    }

    /// Put back the deepest checkpoint at most `bound` steps deep; its index, or None
    /// (nothing in progress then) when there is none. One that cannot be put back (a
    /// stack it copied is no longer committed: a thread's stack changed size since) is
    /// forgotten with the deeper ones, and the next shallower one tried.
    fn restore_deepest(&mut self, bound: usize) -> Option<usize> {
        loop {
            let i = self.checkpoints.iter().rposition(|c| c.depth <= bound)?;
            if self.exec.restore(&self.checkpoints[i].exec) {
                return Some(i);
            }
            self.spare.extend(self.checkpoints.drain(i..));
        }
    }

    /// Run one execution described in the header, write the results into it. It starts
    /// from the deepest checkpoint on the way, or from the program as loaded.
    fn run_one(&mut self) {
        // Compiled out of release builds (see `shims::fault_injected`).
        if cfg!(debug_assertions) && crate::shims::fault_injected("worker-panic") {
            panic!("fault injected (UNFOLD_FAULT=worker-panic)");
        }
        let mut t0 = Instant::now();
        self.hdr.nsteps.store(0, Ordering::Relaxed);
        self.hdr.ahead_ns.store(0, Ordering::Relaxed);
        self.clear_results();
        let mut from_checkpoint = false;
        let r = match self.decode_request() {
            Ok(d) => {
                let mut schedule = std::mem::take(&mut self.schedule);
                let mut digests = std::mem::take(&mut self.digests);
                let replay = std::mem::take(&mut self.replay_buf);
                let sleep = std::mem::take(&mut self.sleep_buf);
                let req =
                    RunRequest { replay: &replay, sleep: &sleep, independence: d.independence, max_steps: d.max_steps };
                // Start from the deepest checkpoint on the way to the branch point, if any.
                // (Neither the valuation nor the independence relation matters to a
                // checkpoint: none is kept after a drawn value, and the steps before a
                // branch point are replayed.)
                self.drop_checkpoints(d.known);
                let mut state = std::mem::take(&mut self.state_buf);
                let start = self.restore_deepest(d.known).map(|i| {
                    let c = &self.checkpoints[i];
                    state.clone_from(&c.state);
                    (c.depth, c.first, c.last)
                });
                if start.is_none() && self.dirty {
                    (self.pristine)();
                }
                self.dirty = true;
                self.hdr.reset_ns.store(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
                t0 = Instant::now();
                let depth = start.as_ref().map_or(0, |s| s.0);
                schedule.truncate(depth);
                digests.truncate(depth);
                if depth > 0 {
                    self.hdr.nsteps.store(depth as u64, Ordering::Release);
                }
                let (hdr, steps, known) = (self.hdr, self.steps, self.known);
                let mut sink = ShmSink {
                    hdr,
                    steps,
                    n: depth,
                    last: None,
                    full: None,
                    known: &known[..d.known],
                    diverged: None,
                    schedule: &mut schedule,
                    digests: &mut digests,
                };
                let began = match start {
                    Some((_, first, last)) => Ok((first, Scheduler::at(req, depth, last))),
                    None => self.exec.begin(&mut sink).map(|first| {
                        state.reset(first);
                        (first, Scheduler::new(req))
                    }),
                };
                let keep_at = self.keep_at(d.known);
                let r = began.and_then(|(first, mut sched)| {
                    let end = self.go_on_keeping(&mut sched, &mut state, &mut sink, first, keep_at)?;
                    Ok(Outcome { first, end })
                });
                self.state_buf = state;
                self.exec.end();
                let r = sink_verdict(r, sink.full, sink.diverged);
                if r.is_err() {
                    self.drop_checkpoints(0);
                }
                from_checkpoint = depth > 0;
                (self.replay_buf, self.sleep_buf, self.schedule, self.digests) = (replay, sleep, schedule, digests);
                r
            }
            Err(c) => Err(ProgramError::Failed(c.message())),
        };
        if from_checkpoint && matches!(r, Err(ProgramError::Divergence { .. })) {
            self.checkpoints_failed();
            self.run_one();
            return;
        }
        if from_checkpoint && self.cross_check_due() {
            self.cross_check(&r);
            return;
        }
        self.publish(r, t0);
    }

    /// Whether the request just served from a checkpoint is to be run again from the
    /// program's start (see [`CROSS_CHECK_EVERY`]).
    fn cross_check_due(&mut self) -> bool {
        self.restored_runs += 1;
        cfg!(debug_assertions)
            && (self.restored_runs.is_power_of_two() || self.restored_runs.is_multiple_of(CROSS_CHECK_EVERY))
    }

    /// Serve the request again from the program's start, without checkpoints, and check
    /// that it takes the steps the run put back at a checkpoint took (`r`: its result),
    /// unless either was cut short by the time limit. The second run's results are the
    /// ones published.
    fn cross_check(&mut self, r: &Result<Outcome, ProgramError>) {
        let (schedule, digests) = (self.schedule.clone(), self.digests.clone());
        let kept = std::mem::take(&mut self.checkpoints);
        let on = std::mem::replace(&mut self.use_checkpoints, false);
        self.run_one();
        self.use_checkpoints = on;
        let hdr = self.hdr;
        let ended = |tag: u64| tag != end_tag::TIMEOUT;
        if hdr.error.load(Ordering::Relaxed) != error_code::NONE {
            // The run from the start failed (a time limit, a divergence of its own):
            // nothing to compare, and the checkpoints of the first run are not trusted.
            self.spare.extend(kept);
            return;
        }
        self.checkpoints = kept;
        if r.as_ref().is_ok_and(|o| !matches!(o.end, End::Timeout | End::Crash(_)))
            && ended(hdr.end_tag.load(Ordering::Relaxed))
        {
            let differ = schedule
                .iter()
                .zip(&self.schedule)
                .zip(digests.iter().zip(&self.digests))
                .position(|((t1, t2), (d1, d2))| t1 != t2 || d1 != d2);
            if differ.is_some() || schedule.len() != self.schedule.len() {
                let at = differ.unwrap_or(schedule.len().min(self.schedule.len()));
                let msg = format!(
                    "unfold bug: a run put back at a checkpoint took other steps than the same run from the \
                     program's start (from step {at}: {} and {} steps); --checkpoints off avoids it",
                    schedule.len(),
                    self.schedule.len()
                );
                self.publish(Err(ProgramError::Failed(msg)), Instant::now());
            }
        }
    }

    /// Run the next execution ahead of its request ("Running ahead"), then serve the
    /// request. False when the parent is gone.
    ///
    /// Started `early` (before the parent has read the last execution's results:
    /// [`WorkerCtx::drew_nothing`], `Header::ahead_bounded`), it writes nothing into shared
    /// memory before the request comes; otherwise the draws it makes are recorded as it
    /// makes them.
    fn run_ahead(&mut self, seen: u64, early: bool, fd: c_int, spinner: &mut Spinner) -> bool {
        let hdr = self.hdr;
        let t0 = Instant::now();
        if !early {
            // The parent has read the results: the draws of this run go into the header
            // as it makes them.
            self.clear_results();
        }
        let last = std::mem::take(&mut self.schedule);
        let digests = std::mem::take(&mut self.digests);
        // The last step is where the next execution branches off at the latest.
        let limit = last.len().saturating_sub(1).min(digests.len());
        let pause_at = self.last_known;
        let independence = self.independence;
        let req = RunRequest { replay: &last[..limit], sleep: &[], independence, max_steps: limit };
        // The run starts from the deepest checkpoint where it would pause at the latest,
        // if any, else from the program's start.
        let mut bound = if early { pause_at.min(limit) } else { limit };
        let mut pause = if early { pause_at } else { usize::MAX };
        let mut state = std::mem::take(&mut self.state_buf);
        let (mut reset, mut tr) = (Duration::ZERO, t0);
        let mut t1;
        let (sink, sched, first, going, sink_before, depth) = loop {
            let from = self.restore_deepest(bound).map(|i| &self.checkpoints[i]);
            if from.is_none() {
                (self.pristine)();
            }
            self.dirty = true;
            reset += tr.elapsed();
            t1 = Instant::now();
            let depth = from.map_or(0, |c| c.depth);
            let mut sink =
                AheadSink { known: &digests[..limit], n: depth, diverged: false, running: None, names: Vec::new() };
            let mut sched = match from {
                Some(c) => {
                    state.clone_from(&c.state);
                    Scheduler::at(req, depth, c.last)
                }
                None => Scheduler::new(req),
            };
            // Started early, a draw of a nondeterministic value must not be recorded in
            // shared memory yet: the last execution made none, so one now means the run
            // does not repeat it.
            let sink_before = early.then(crate::nondet::detach_sink);
            let first = match from {
                Some(c) => Ok(c.first),
                None => self.exec.begin(&mut sink).inspect(|&f| state.reset(f)),
            };
            let going = first.as_ref().is_ok_and(|_| {
                // Before each step: has the request come, or is the next branch point
                // known to be here (`Header::ahead_limit`)?
                let paused = self.exec.advance(&mut sched, &mut state, &mut sink, |i| {
                    jitter(8);
                    hdr.req_seq.load(Ordering::Acquire) != seen
                        || i as u64 >= hdr.ahead_limit.load(Ordering::Relaxed)
                        || i >= pause
                });
                matches!(paused, Ok(None | Some(End::StepBound))) && !sink.diverged
            });
            // Paused where it started (the last branch point), the run follows the bound
            // down: once the explorer's backtracking passes below it, the next request
            // branches off deeper in the past, and the checkpoint it will start from is
            // put back now instead of after the request (round 17). Not once a step was
            // taken: the threads it interned are kept for the request. `below`: the bound,
            // once it has passed below the run with a checkpoint under it; it is read once,
            // as the explorer may lower it again meanwhile (a second read could fall below
            // every checkpoint, and the run would start from the program's start over
            // threads still standing: a crash of the worker, seen in CI).
            let below = || {
                let lim = hdr.ahead_limit.load(Ordering::Relaxed);
                jitter(2);
                (lim < depth as u64 && self.checkpoints.iter().any(|c| (c.depth as u64) <= lim)).then_some(lim)
            };
            let followed = if going && depth > 0 && sched.steps() == depth {
                let woken = spinner.spin(|| hdr.req_seq.load(Ordering::Acquire) != seen || below().is_some(), || false);
                below().filter(|_| woken && hdr.req_seq.load(Ordering::Acquire) == seen)
            } else {
                None
            };
            if let Some(lim) = followed {
                // The paused run ends here, as every begun run does (`Executor::end`);
                // the restore below, or a new start, would discard its threads anyway.
                self.exec.end();
                jitter(1);
                bound = lim as usize;
                pause = bound;
                tr = Instant::now();
                if sink_before.is_none_or(crate::nondet::attach_sink) {
                    continue;
                }
                break (sink, sched, first, false, None, depth);
            }
            break (sink, sched, first, going, sink_before, depth);
        };
        let going = sink_before.is_none_or(crate::nondet::attach_sink) && going;
        let ahead = t1.elapsed();
        if !wait_seq(&hdr.req_seq, seen, &hdr.worker_waiting, fd, spinner) {
            self.exec.end();
            return false;
        }
        // The parent has read the last results: what the run ahead kept can be written.
        publish_names(hdr, &sink.names);
        let t2 = Instant::now();
        let taken = sched.steps();
        match self.decode_request() {
            Ok(d)
                if going
                    && d.same_valuation
                    && d.independence == independence
                    && taken <= d.known
                    && taken <= d.max_steps =>
            {
                if early {
                    self.clear_results();
                }
                if let Some(t) = sink.running {
                    hdr.running.store(t.0 as u64, Ordering::Relaxed);
                }
                hdr.reset_ns.store(reset.as_nanos() as u64, Ordering::Relaxed);
                hdr.ahead_ns.store(ahead.as_nanos() as u64, Ordering::Relaxed);
                hdr.nsteps.store(taken as u64, Ordering::Release);
                let replay = std::mem::take(&mut self.replay_buf);
                let sleep = std::mem::take(&mut self.sleep_buf);
                let req =
                    RunRequest { replay: &replay, sleep: &sleep, independence: d.independence, max_steps: d.max_steps };
                let mut sched = Scheduler::continue_with(&sched, req);
                let mut schedule = last;
                schedule.truncate(taken);
                let mut digests = digests;
                digests.truncate(taken);
                let (steps, known) = (self.steps, self.known);
                let mut sink = ShmSink {
                    hdr,
                    steps,
                    n: taken,
                    last: None,
                    full: None,
                    known: &known[..d.known],
                    diverged: None,
                    schedule: &mut schedule,
                    digests: &mut digests,
                };
                self.drop_checkpoints(d.known);
                let keep_at = self.keep_at(d.known);
                let first = first.expect("going");
                let r = self.go_on_keeping(&mut sched, &mut state, &mut sink, first, keep_at);
                self.state_buf = std::mem::take(&mut state);
                self.exec.end();
                let r = r.map(|end| Outcome { first, end });
                let r = sink_verdict(r, sink.full, sink.diverged);
                if r.is_err() {
                    self.drop_checkpoints(0);
                }
                (self.replay_buf, self.sleep_buf, self.schedule, self.digests) = (replay, sleep, schedule, digests);
                if depth > 0 && matches!(r, Err(ProgramError::Divergence { .. })) {
                    self.checkpoints_failed();
                    self.run_one();
                    return true;
                }
                if depth > 0 && self.cross_check_due() {
                    self.cross_check(&r);
                    return true;
                }
                self.publish(r, t2);
            }
            _ => {
                // Not a continuation of the run ahead (or the request is garbage, which
                // `run_one` reports): start afresh.
                self.exec.end();
                (self.schedule, self.digests) = (last, digests);
                self.state_buf = std::mem::take(&mut state);
                self.run_one();
            }
        }
        true
    }

    /// Write the results of a run into the header; `t0`: when it started.
    fn publish(&mut self, r: Result<Outcome, ProgramError>, t0: Instant) {
        let hdr = self.hdr;
        self.repeatable = matches!(
            &r,
            Ok(o) if matches!(o.end, End::Finished | End::Deadlock { .. } | End::SleepBlocked | End::StepBound)
        );
        self.drew_nothing = hdr.ndraws.load(Ordering::Relaxed) == 0 && hdr.draws_cut.load(Ordering::Relaxed) == 0;
        // No bound yet on where the next request branches off (the parent sets one only
        // once it has this response).
        hdr.ahead_limit.store(u64::MAX, Ordering::Relaxed);
        let (defects, assumed, bounded_poll) = take_results();
        if let Some(site) = bounded_poll {
            hdr.bounded_poll_site.store(site, Ordering::Relaxed);
            hdr.bounded_poll.store(1, Ordering::Relaxed);
        }
        // The results' waits on several locations: `first` and the blocked threads.
        let r = r.and_then(|o| {
            let full = |e: AwaitsFull| ProgramError::Limit(e.message());
            hdr.first.store(o.first, &hdr.awaits).map_err(full)?;
            if let End::Deadlock { blocked } = &o.end {
                let n = blocked.len().min(MAX_SLEEP);
                for (w, &b) in hdr.blocked.iter().zip(&blocked[..n]) {
                    w.store(b, &hdr.awaits).map_err(full)?;
                }
                hdr.nblocked.store(n as u64, Ordering::Relaxed);
            }
            Ok(o)
        });
        match r {
            Ok(o) => {
                let tag = match o.end {
                    End::Finished => end_tag::FINISHED,
                    End::Deadlock { .. } => end_tag::DEADLOCK,
                    End::SleepBlocked => end_tag::SLEEP_BLOCKED,
                    End::StepBound => end_tag::STEP_BOUND,
                    End::Timeout | End::Crash(_) => end_tag::TIMEOUT,
                };
                hdr.end_tag.store(tag, Ordering::Relaxed);
            }
            Err(e) => {
                let (code, step, msg) = match e {
                    ProgramError::Divergence { step, detail } => (error_code::DIVERGENCE, step, detail),
                    ProgramError::Failed(m) => (error_code::FAILED, 0, m),
                    ProgramError::Unsupported(m) => (error_code::UNSUPPORTED, 0, m),
                    ProgramError::Limit(m) => (error_code::LIMIT, 0, m),
                };
                hdr.error.store(code, Ordering::Relaxed);
                hdr.error_step.store(step as u64, Ordering::Relaxed);
                hdr.error_msg.store(&msg);
            }
        }
        let n = defects.len().min(MAX_DEFECTS);
        for (w, d) in hdr.defects.iter().zip(&defects[..n]) {
            w.store(d);
        }
        hdr.ndefects.store(n as u64, Ordering::Relaxed);
        let n = assumed.len().min(MAX_SLEEP);
        for (w, t) in hdr.assumed.iter().zip(&assumed[..n]) {
            w.store(t.0 as u64, Ordering::Relaxed);
        }
        hdr.nassumed.store(n as u64, Ordering::Relaxed);
        let n = self.exec.sites.len().min(MAX_SLEEP);
        for (w, &s) in hdr.sites.iter().zip(&self.exec.sites[..n]) {
            w.store(s, Ordering::Relaxed);
        }
        hdr.nsites.store(n as u64, Ordering::Relaxed);
        // The program's output (shown by `unfold replay`) must not stay in stdio buffers
        // of a process that ends with _exit.
        // SAFETY: fflush(NULL) flushes every open output stream.
        unsafe { libc::fflush(std::ptr::null_mut()) };
        hdr.run_ns.store(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }

    /// Read the request into the buffers. Also catches up with the threads interned by other processes (fork mode:
    /// earlier execution processes; persistent mode: nothing new), which must keep their
    /// ids here.
    fn decode_request(&mut self) -> Result<Decoded, Corrupt> {
        let hdr = self.hdr;
        let n = load_len(&hdr.nnames, MAX_NAMES, "threads")?;
        let known = crate::exec::with_rt(|rt| rt.names.len() - 1);
        for i in known..n {
            let (parent, nth) = decode_name(i, hdr.names[i].load(Ordering::Acquire))?;
            crate::exec::with_rt(|rt| rt.names.child(parent, nth));
        }
        let n = load_len(&hdr.replay_len, self.replay.len(), "replayed steps")?;
        self.replay_buf.clear();
        self.replay_buf.extend(self.replay[..n].iter().map(|t| ThreadId(t.load(Ordering::Relaxed))));
        let n = load_len(&hdr.sleep_len, MAX_SLEEP, "sleeping threads")?;
        self.sleep_buf.clear();
        for (i, w) in hdr.sleep[..n].iter().enumerate() {
            self.sleep_buf.push(w.load(&hdr.sleep_awaits, &|| format!("sleep set entry {i}"))?);
        }
        let independence = decode_independence(hdr.independence.load(Ordering::Relaxed))?;
        let max_steps = load_len(&hdr.max_steps, self.steps.len(), "maximum steps")?;
        let (valuation, default) = hdr.valuation()?;
        let same_valuation = crate::exec::with_rt(|rt| {
            let same = rt.valuation == valuation && rt.nondet_default == default;
            (rt.valuation, rt.nondet_default) = (valuation, default);
            same
        });
        // Known steps lie within the replay (the parent knows nothing past it).
        let known = load_len(&hdr.known_len, self.replay_buf.len(), "known steps")?;
        self.independence = independence;
        self.last_known = known;
        Ok(Decoded { independence, max_steps, known, same_valuation })
    }
}

/// Make a panic of the worker (a checker bug: the shims abort on one, `shims::guard`)
/// reach the parent as an internal error with its message, not as the program dying of
/// SIGABRT: the hook writes the message into the header (`error_code::PANIC`), which
/// the parent reads when the worker dies ([`worker_panic`]). The worker's stderr is
/// the program's, discarded by default, so the message would be lost otherwise.
///
/// The hook then aborts: a panic outside a shim would otherwise unwind out of
/// `worker_main` (or, in an execution process, out of the fork server's loop) into the
/// forked copy of the checker's code, running its destructors — the checker's
/// temporary directory among them — before it exits. (The outcome the parent reports is
/// the same either way; the test cannot tell the two apart.)
fn install_panic_hook(hdr: *const Header) {
    PANIC_HEADER.store(hdr as usize, Ordering::SeqCst);
    let print = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        print(info);
        internal_abort(&format!("unfold bug: the worker panicked: {info}"));
    }));
}

/// The header [`internal_abort`] writes into (0 outside a worker).
static PANIC_HEADER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Record `msg` as the worker's internal error (`error_code::PANIC`, which the parent
/// reports as an error of unfold, not as a crash of the program), then abort. For the
/// panic hook, and for a shim that catches an unwind no hook saw (a coroutine unwound
/// by a drop: `shims::guard`).
pub(crate) fn internal_abort(msg: &str) -> ! {
    let hdr = PANIC_HEADER.load(Ordering::SeqCst);
    if hdr != 0 {
        // SAFETY: set by `install_panic_hook` in a worker, whose header mapping is never
        // unmapped (nor in the execution processes forked from it) and is only accessed
        // atomically.
        let hdr = unsafe { &*(hdr as *const Header) };
        hdr.error_msg.store(msg);
        hdr.error.store(error_code::PANIC, Ordering::SeqCst);
    }
    std::process::abort();
}

/// The worker (or an execution process) died: the internal error its panic hook
/// recorded, if it panicked.
fn worker_panic(hdr: &Header) -> Result<Option<ProgramError>, Corrupt> {
    if hdr.error.load(Ordering::SeqCst) != error_code::PANIC {
        return Ok(None);
    }
    Ok(Some(ProgramError::Failed(hdr.error_msg.load(&|| "panic message".into())?)))
}

/// The result of a run, given what its sink saw: a full list of waits or a known step
/// not repeated stops the run with an error.
fn sink_verdict(
    r: Result<Outcome, ProgramError>,
    full: Option<AwaitsFull>,
    diverged: Option<(usize, Step)>,
) -> Result<Outcome, ProgramError> {
    match (full, diverged) {
        (Some(e), _) => Err(ProgramError::Limit(e.message())),
        (None, Some((step, s))) => Err(ProgramError::Divergence {
            step,
            detail: format!(
                "{} performed {:?} where the same replay performed another action before (the program does not \
                 repeat its steps: it is not data-deterministic)",
                s.thread, s.action
            ),
        }),
        (None, None) => r,
    }
}

/// Main's first pending action of a run cut short (the worker died before reporting
/// it): main takes the first step of every execution.
fn first_of(out: &Execution) -> Option<Action> {
    out.steps.first().map(|s| s.action.pending_form())
}

impl CProgram {
    /// A program over a loaded image. Reserves the arena and stacks and the shared
    /// memory; no process is started until the first execution.
    pub fn new(image: Image, opts: Options) -> Result<Self, RuntimeError> {
        // SAFETY: the writable ranges of a loaded image stay mapped (never dlclosed).
        let snapshot = unsafe { ImageSnapshot::take(&image.writable, &image.bss) };
        let argv_c = opts
            .args
            .iter()
            .map(|a| CString::new(a.as_bytes()).map_err(|_| RuntimeError::Load("program argument contains NUL".into())))
            .collect::<Result<Vec<_>, _>>()?;
        let cap = opts.step_capacity.max(16);
        if opts.stack_size > crate::mem::MAX_STACK {
            return Err(RuntimeError::Load(format!(
                "a stack size of {} bytes is too large (at most {} MiB)",
                opts.stack_size,
                crate::mem::MAX_STACK >> 20
            )));
        }
        let tls = match image.tls {
            Some(t) => Some(TlsBlocks::new(t.init, t.filesz, t.memsz)?),
            None => None,
        };
        let mut arena = Arena::new(opts.heap_size)?;
        if opts.check_uninit {
            arena.shadow_mut().track_uninit()?;
        }
        Ok(CProgram {
            snapshot,
            arena: Some(arena),
            stacks: Some(Stacks::new()?),
            tls,
            argv_c,
            hdr: Shared::new(1)?,
            replay: Shared::new(cap)?,
            known: Shared::new(cap)?,
            steps: Shared::new(cap)?,
            worker: None,
            timing: Timing::default(),
            interrupted: false,
            seq: 0,
            spinner: Spinner::new(PARENT_SPIN),
            worker_hwm: 0,
            interruptible: true,
            deadlock_sites: PendingSites::default(),
            last_sites: Vec::new(),
            deadline: None,
            valuation: Vec::new(),
            nondet_default: 0,
            valuation_dirty: false,
            nondet: NondetLog::default(),
            known_steps: Vec::new(),
            image,
            opts,
        })
    }

    /// The loaded image.
    pub fn image(&self) -> &Image {
        &self.image
    }

    /// Whether SIGINT (see [`crate::install_interrupt_handler`]) cuts the execution in progress
    /// (default: yes). Turned off to re-run the executions of defects for the report
    /// after an interrupted exploration.
    pub fn set_interruptible(&mut self, yes: bool) {
        self.interruptible = yes;
    }

    /// The end of the whole exploration (`unfold check --timeout`): an execution still
    /// running then is cut like an interrupted one ([`CProgram::was_interrupted`]) instead of
    /// running on to its own time limit. `None`: no deadline.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Whether an execution was cut short by SIGINT, SIGTERM, SIGHUP or the deadline.
    pub fn was_interrupted(&self) -> bool {
        self.interrupted
    }

    /// The site of thread `t`'s pending action at the end of the last execution.
    pub fn pending_site(&self, t: ThreadId) -> Option<u64> {
        self.last_sites.get(t.index()).copied().filter(|&s| s != 0)
    }

    /// A handle on the pending sites of the blocked threads of the last deadlock, updated
    /// by every execution that ends in a deadlock.
    pub fn deadlock_sites(&self) -> PendingSites {
        self.deadlock_sites.clone()
    }

    /// A handle on the nondeterministic values the executions draw ([`crate::nondet`]).
    pub fn nondet_log(&self) -> NondetLog {
        self.nondet.clone()
    }

    /// The values of the nondeterministic draws of the next executions, by key `(thread,
    /// n)`, and the value of the keys not named. More than 1 024 keys is a limit of the
    /// checker.
    pub fn set_valuation(&mut self, v: &[((ThreadId, u32), i64)], default: i64) -> Result<(), RuntimeError> {
        if v.len() > crate::shared::MAX_VALUATION {
            return Err(RuntimeError::Load(format!(
                "more than {} nondeterministic values to fix (a limit of the checker)",
                crate::shared::MAX_VALUATION
            )));
        }
        let mut v = v.to_vec();
        v.sort_unstable_by_key(|&(k, _)| k);
        v.dedup_by_key(|&mut (k, _)| k);
        if v != self.valuation || default != self.nondet_default {
            self.valuation = v;
            self.nondet_default = default;
            self.valuation_dirty = true;
            // Other values, other steps.
            self.known_steps.clear();
        }
        Ok(())
    }

    /// The thread table shared with workers: `(parent, nth)` per ThreadId from 1.
    pub fn thread_paths(&self) -> Vec<(ThreadId, u32)> {
        // Validated after every execution (`run`): an error here means a worker corrupted
        // the table since, and its execution reported it.
        self.hdr.one().names().unwrap_or_default()
    }

    /// Where a heap, stack or thread-local address lives: `(thread slot, what, offset)`,
    /// the offset being from the start of the thread's slot of that region: stable across
    /// processes (the slots' base addresses are not).
    pub fn locate(&self, addr: u64) -> Option<(usize, Region, u64)> {
        if let Some((s, off)) = self.arena.as_ref().and_then(|a| a.locate(addr)) {
            return Some((s, Region::Heap, off as u64));
        }
        if let Some((s, off)) = self.tls.as_ref().and_then(|t| t.locate_offset(addr)) {
            return Some((s, Region::ThreadLocal, off));
        }
        let stacks = self.stacks.as_ref()?;
        let s = stacks.locate(addr)?;
        Some((s, Region::Stack, stacks.offset_in_slot(addr)))
    }

    fn spawn(&mut self) -> Result<(), RuntimeError> {
        let (req_r, req_w) = pipe()?;
        let (resp_r, resp_w) = pipe()?;
        // SAFETY: getpid has no preconditions.
        let parent = unsafe { libc::getpid() };
        // The last request is the one a worker before this one died in (or none): a new
        // request is one with a later number. Starting from 0, a worker spawned after a
        // crash took that request for a new one and could read its fields while the
        // parent was writing the next (it re-ran the crashed schedule: the execution
        // after a crash was lost now and then under --keep-going).
        let seen = self.hdr.one().req_seq.load(Ordering::SeqCst);
        // SAFETY: the parent is single-threaded; the child only uses memory it inherited
        // and async-signal-safe calls until it has set itself up, then never returns.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(RuntimeError::Os("fork", std::io::Error::last_os_error()));
        }
        if pid == 0 {
            // SAFETY: in the child: close the parent's ends, then serve forever.
            unsafe {
                libc::close(req_w);
                libc::close(resp_r);
            }
            self.worker_main(parent, req_r, resp_w, seen)
        }
        // SAFETY: closing the child's ends in the parent.
        unsafe {
            libc::close(req_r);
            libc::close(resp_w);
        }
        self.worker = Some(Worker { pid, req: req_w, resp: resp_r });
        self.timing.processes += 1;
        Ok(())
    }

    /// The worker process: never returns.
    /// `seen`: the number of the last request before the worker was spawned (read by the
    /// parent before the fork: the child may run after the parent posted the next one).
    fn worker_main(&mut self, parent: libc::pid_t, req: c_int, resp: c_int, seen: u64) -> ! {
        die_with(parent);
        // SAFETY: process setup calls in the freshly forked, single-threaded child.
        unsafe {
            // The parent handles interruptions (and kills us); a signal sent to the whole
            // process group (Ctrl-C, `timeout`) must not kill us first.
            for sig in INTERRUPT_SIGNALS {
                libc::signal(sig, libc::SIG_IGN);
            }
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
            if self.opts.quiet {
                let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                if null >= 0 {
                    libc::dup2(null, 0);
                    libc::dup2(null, 1);
                    libc::dup2(null, 2);
                    libc::close(null);
                }
            }
        }
        crate::signals::set_program_range(self.image.range);
        install_crash_handler(self.hdr.as_ptr());
        install_panic_hook(self.hdr.as_ptr());
        crate::nondet::SINK.store(self.hdr.as_ptr() as usize, Ordering::Relaxed);
        let mut argv: Vec<*mut c_char> = self.argv_c.iter().map(|c| c.as_ptr() as *mut c_char).collect();
        argv.push(std::ptr::null_mut());
        let stacks = self.stacks.take().expect("stacks are present until a worker takes them");
        let arena = self.arena.take();
        let tls = self.tls.take();
        let names = self.thread_paths();
        RT.with(|rt| {
            let mut rt: std::cell::RefMut<'_, Rt> = rt.borrow_mut();
            rt.arena = arena;
            rt.static_data = self.image.writable.iter().map(|&(s, n)| (s as u64, (s + n) as u64)).collect();
            rt.heap.regions = crate::heapcheck::Regions {
                image: self.image.range,
                stacks: stacks.bounds(),
                tls: tls.as_ref().map_or((0, 0, 0), |t| t.bounds()),
            };
            rt.default_stack = self.opts.stack_size;
            let mut hooks = self.opts.entry_hooks.clone();
            hooks.sort_unstable();
            rt.entry_hooks = hooks;
            rt.init_fini =
                crate::process::InitFini { ctors: self.image.ctors.clone(), dtors: self.image.dtors.clone() };
            rt.mem.mode = self.opts.memory;
            for (p, nth) in names {
                rt.names.child(p, nth);
            }
        });
        let snapshot = &self.snapshot;
        let restore = || {
            snapshot.restore();
            crate::exec::with_rt(|rt| rt.arena.as_mut().map(|a| a.reset()));
        };
        let mut ctx = WorkerCtx {
            exec: Executor::new(self.image.main, argv, stacks, tls),
            hdr: self.hdr.one(),
            replay: self.replay.get(),
            steps: self.steps.get(),
            known: self.known.get(),
            replay_buf: Vec::new(),
            sleep_buf: Vec::new(),
            schedule: Vec::new(),
            digests: Vec::new(),
            repeatable: false,
            drew_nothing: false,
            independence: Independence::default(),
            last_known: 0,
            use_checkpoints: self.opts.checkpoints && self.opts.mode == Mode::Persistent,
            checkpoints: Vec::new(),
            spare: Vec::new(),
            pristine: &restore,
            dirty: false,
            restored_runs: 0,
            state_buf: SchedState::default(),
            writable: self.image.writable.clone(),
        };
        let persistent = self.opts.mode == Mode::Persistent;
        let ahead = persistent && self.opts.quiet;
        let mut seen = seen;
        let mut spinner = Spinner::new(WORKER_SPIN);
        loop {
            let h = ctx.hdr;
            // Run the next execution ahead of its request ("Running ahead" at
            // `WorkerCtx`): at once when it writes nothing the parent reads and the
            // explorer tells where it will stop (a run ahead that goes past the branch
            // point is lost), else once the parent has read the last one's results.
            let early = ctx.drew_nothing && h.ahead_bounded.load(Ordering::Relaxed) == 1;
            if ahead
                && ctx.repeatable
                && (early
                    || spinner.spin(
                        || h.req_seq.load(Ordering::Acquire) != seen || h.collected_seq.load(Ordering::Acquire) == seen,
                        || false,
                    ))
                && h.req_seq.load(Ordering::Acquire) == seen
            {
                if !ctx.run_ahead(seen, early, req, &mut spinner) {
                    break;
                }
                seen = h.req_seq.load(Ordering::SeqCst);
                h.resp_seq.store(seen, Ordering::SeqCst);
                if h.parent_waiting.load(Ordering::SeqCst) == 1 && !write_byte(resp, 1) {
                    break;
                }
                continue;
            }
            if !wait_seq(&h.req_seq, seen, &h.worker_waiting, req, &mut spinner) {
                break;
            }
            seen = h.req_seq.load(Ordering::SeqCst);
            let t0 = Instant::now();
            if persistent {
                ctx.run_one();
            } else {
                // SAFETY: getpid has no preconditions.
                let server = unsafe { libc::getpid() };
                // SAFETY: fork server: the child runs one execution from our pristine
                // state and exits without returning; we reap it.
                let child = unsafe { libc::fork() };
                if child == 0 {
                    // PR_SET_PDEATHSIG is not inherited: the execution process must die
                    // with the fork server (which dies with the checker).
                    die_with(server);
                    ctx.run_one();
                    // SAFETY: leaving the execution process without running atexit handlers.
                    unsafe { libc::_exit(0) };
                }
                let mut status = 0;
                if child > 0 {
                    // SAFETY: reaping our own child.
                    while unsafe { libc::waitpid(child, &mut status, 0) } < 0
                        && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                    {
                    }
                } else {
                    status = -1;
                }
                h.child_status.store(status, Ordering::Relaxed);
                h.exec_rss.store(crate::peak_rss_bytes().1, Ordering::Relaxed);
                let run = h.run_ns.load(Ordering::Relaxed);
                h.reset_ns.store((t0.elapsed().as_nanos() as u64).saturating_sub(run), Ordering::Relaxed);
            }
            h.resp_seq.store(seen, Ordering::SeqCst);
            if h.parent_waiting.load(Ordering::SeqCst) == 1 && !write_byte(resp, 1) {
                break;
            }
        }
        // SAFETY: leaving the worker without running the parent's atexit handlers.
        unsafe { libc::_exit(0) }
    }

    /// Peak resident set size of the worker processes and (fork mode) the execution
    /// processes so far, in bytes (a persistent worker is not reaped until the end, so
    /// `getrusage(RUSAGE_CHILDREN)` misses it; and that would count the compiler too).
    pub fn worker_peak_rss(&mut self) -> u64 {
        let exec = self.hdr.one().exec_rss.load(Ordering::Relaxed);
        self.worker_hwm = self.worker_hwm.max(exec);
        if let Some(w) = &self.worker {
            let hwm = crate::vm_hwm_bytes(&w.pid.to_string()).unwrap_or(0);
            self.worker_hwm = self.worker_hwm.max(hwm);
        }
        self.worker_hwm
    }

    fn kill_worker(&mut self) {
        self.worker_peak_rss();
        if let Some(w) = self.worker.take() {
            // SAFETY: killing and reaping our own child, closing our own descriptors.
            unsafe {
                libc::kill(w.pid, libc::SIGKILL);
                let mut st = 0;
                libc::waitpid(w.pid, &mut st, 0);
                libc::close(w.req);
                libc::close(w.resp);
            }
        }
    }

    /// Wait for the worker's answer. Ok(true): answered; Ok(false): the worker died
    /// (returns its wait status through `status`); Err: timeout or interrupt.
    ///
    /// While it waits, the steps the worker publishes go to `early`, and when there are
    /// none to take, `meanwhile` does a part of its work (`ExplorerWork`: it is set to `None`
    /// once done). The steps go first: an explorer that is behind the worker when the
    /// run ends has that much left on the critical path, while its other work may wait
    /// for the gaps between steps. The execution's time limit (`exec_timeout`, from
    /// `started`) does not count the time `meanwhile` took.
    fn wait(
        &mut self,
        started: Instant,
        status: &mut c_int,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
        meanwhile: &mut ExplorerWork<'_>,
    ) -> Result<bool, bool> {
        let w = self.worker.as_ref().expect("a worker is running");
        let h = self.hdr.one();
        let seq = self.seq;
        let done = || h.resp_seq.load(Ordering::Acquire) == seq;
        // Spin first: most executions of small programs take microseconds. Meanwhile,
        // decode the steps the worker has finished, so that `collect` has only the last
        // few left: every step but the last published one is final (`ShmSink`: only the
        // last step is rewritten, and a step's slot and the awaits it refers to are
        // written before the count that publishes it). A slot that does not decode is
        // left to `collect`, which reports it.
        let steps = self.steps.get();
        let mut stream = true;
        // In batches, and not next to the slot being written: reading the lines the
        // worker writes takes them from its cache, which slows it down more than the
        // decoding saves when done step by step. The explorer takes each batch at once
        // (`early`) and works on it while the worker runs the rest.
        let decode = || {
            let published = (h.nsteps.load(Ordering::Acquire) as usize).min(steps.len());
            let before = out.steps.len();
            while stream && out.steps.len() + STREAM_MARGIN < published {
                let k = out.steps.len();
                match steps[k].load(k, &h.awaits) {
                    Ok(s) => out.steps.push(s),
                    Err(_) => stream = false,
                }
            }
            let progress = out.steps.len() > before;
            if progress {
                early(&out.steps);
                return true;
            }
            // No step to take: a part of the other work (counted as progress, so that
            // the wait goes on spinning rather than yielding the core).
            meanwhile.part()
        };
        if self.spinner.spin(done, decode) {
            return Ok(true);
        }
        // Every part of `meanwhile` is done before the wait blocks (a part reports
        // progress, so the spinner only gives up once there is none left).
        meanwhile.finish();
        let deadline = match (self.opts.exec_timeout.map(|d| started + d + meanwhile.spent), self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        loop {
            h.parent_waiting.store(1, Ordering::SeqCst);
            if h.resp_seq.load(Ordering::SeqCst) == seq {
                h.parent_waiting.store(0, Ordering::SeqCst);
                return Ok(true);
            }
            if self.interruptible && interrupted() {
                h.parent_waiting.store(0, Ordering::SeqCst);
                return Err(true);
            }
            let timeout_ms = match deadline {
                None => 200,
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        h.parent_waiting.store(0, Ordering::SeqCst);
                        return Err(false);
                    }
                    ((d - now).as_millis() as c_int).clamp(1, 200)
                }
            };
            let mut pfd = libc::pollfd { fd: w.resp, events: libc::POLLIN, revents: 0 };
            // SAFETY: polling one descriptor we own.
            let r = unsafe { libc::poll(&mut pfd, 1, timeout_ms) };
            if r > 0 && read_byte(w.resp).is_none() {
                if h.resp_seq.load(Ordering::SeqCst) == seq {
                    // Answered, then died (e.g. killed): the answer stands; the next
                    // request notices the dead worker.
                    h.parent_waiting.store(0, Ordering::SeqCst);
                    return Ok(true);
                }
                h.parent_waiting.store(0, Ordering::SeqCst);
                // SAFETY: reaping our own dead worker.
                unsafe {
                    libc::waitpid(w.pid, status, 0);
                    libc::close(w.req);
                    libc::close(w.resp);
                }
                self.worker = None;
                return Ok(false);
            }
        }
    }

    fn crash_defect(&self, sig: c_int, steps: usize) -> Defect {
        let hdr = self.hdr.one();
        let pc = hdr.crash_pc.load(Ordering::Relaxed);
        let running = self.running().unwrap_or(ThreadId::MAIN);
        let overflow =
            self.overflowed(sig, hdr.crash_addr.load(Ordering::Relaxed), hdr.crash_sp.load(Ordering::Relaxed));
        let (thread, message) = match overflow {
            Some(t) => (t, format!("stack overflow in thread {t}")),
            None => (running, format!("killed by {}", signal_name(sig))),
        };
        Defect { kind: DefectKind::Crash, message, thread, site: (pc != 0).then_some(pc), after_steps: steps }
    }

    /// The thread whose stack overflowed, when a crash is one: a memory fault in the
    /// guard region of the stack slot the stack pointer is in (every committed byte of a
    /// slot is accessible, so a fault there lies below the stack).
    fn overflowed(&self, sig: c_int, addr: u64, sp: u64) -> Option<ThreadId> {
        if sig != libc::SIGSEGV && sig != libc::SIGBUS {
            return None;
        }
        let stacks = self.stacks.as_ref()?;
        let slot = stacks.locate(addr)?;
        (stacks.locate(sp) == Some(slot) && addr != 0).then_some(ThreadId(slot as u16))
    }
}

impl Drop for CProgram {
    fn drop(&mut self) {
        self.kill_worker();
    }
}

/// Under `UNFOLD_FAULT=ahead-jitter` (builds with debug assertions only), one call in
/// `one_in` waits a random moment (a yield, or a sleep of under 210 µs): placed where the
/// worker's run ahead and the explorer meet (`Header::ahead_limit`), it widens the windows
/// in which one side acts between two reads of the other, so that a stress test meets the
/// interleavings a loaded machine makes rarely (the race of round 18 needed ~356 runs
/// beside three busy loops).
fn jitter(one_in: u64) {
    if !cfg!(debug_assertions) || !crate::shims::fault_injected("ahead-jitter") {
        return;
    }
    use std::cell::RefCell;
    use unfold_engine::model::random::Rng;
    thread_local!(static RNG: RefCell<Rng> = RefCell::new(Rng::new(u64::from(std::process::id()))));
    let r = RNG.with(|g| g.borrow_mut().next_u64());
    if !r.is_multiple_of(one_in) {
        return;
    }
    match (r >> 32) % 4 {
        0 => std::thread::yield_now(),
        n => std::thread::sleep(std::time::Duration::from_micros((r >> 40) % (70 * n))),
    }
}

impl Program for CProgram {
    fn run(&mut self, req: &RunRequest<'_>, out: &mut Execution) -> Result<(), ProgramError> {
        self.run_streaming(req, out, &mut |_| {})
    }

    /// A run ahead of the next request stops there (`Header::ahead_limit`).
    fn next_branch_at_most(&mut self, steps: usize) {
        if self.worker.is_some() {
            let h = self.hdr.one();
            jitter(2);
            h.ahead_limit.store(steps as u64, Ordering::Relaxed);
            h.ahead_bounded.store(1, Ordering::Relaxed);
        }
    }

    /// Runs the execution in the worker; the steps the parent decodes while it waits go
    /// to `early` (`CProgram::wait`).
    fn run_streaming(
        &mut self,
        req: &RunRequest<'_>,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
    ) -> Result<(), ProgramError> {
        self.run_in_worker(req, out, early, None)
    }

    /// Posts the request, does `meanwhile` in the gaps between the steps the worker
    /// publishes, then waits.
    fn run_overlapped(
        &mut self,
        req: &RunRequest<'_>,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
        meanwhile: &mut dyn FnMut() -> bool,
    ) -> Result<(), ProgramError> {
        self.run_in_worker(req, out, early, Some(meanwhile))
    }
}

/// The explorer's work during a run ([`Program::run_overlapped`]), done a part at a
/// time in `CProgram::wait`, and the time it took.
struct ExplorerWork<'a> {
    work: Option<&'a mut dyn FnMut() -> bool>,
    spent: Duration,
}

impl ExplorerWork<'_> {
    /// Do a part of the work; false if none was left.
    fn part(&mut self) -> bool {
        let Some(work) = self.work.as_mut() else { return false };
        let t = Instant::now();
        if !work() {
            self.work = None;
        }
        self.spent += t.elapsed();
        true
    }

    /// Do what is left of the work.
    fn finish(&mut self) {
        while self.part() {}
    }
}

/// How long `stop_cut_execution` waits for the worker to record where it was stopped.
const STOP_PROBE_LIMIT: Duration = Duration::from_secs(1);

/// How many of the last published steps `CProgram::wait` leaves to `collect`: the last
/// one may still be rewritten. (The one before shares cache lines with it, but leaving
/// it too cost more than the worker's misses on them: QPOR on mpat_nested K=6 39.1–47.1
/// against 43.4–50.2 µs per execution, 4 alternating runs.)
const STREAM_MARGIN: usize = 1;

impl CProgram {
    /// One execution in the worker (`Program::run_overlapped`).
    fn run_in_worker(
        &mut self,
        req: &RunRequest<'_>,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
        meanwhile: Option<&mut dyn FnMut() -> bool>,
    ) -> Result<(), ProgramError> {
        out.clear();
        // The steps this request repeats from the last execution: the same threads in the
        // same order from the same state do the same (data-determinism), and the worker
        // checks each against its digest.
        let known = req.replay.iter().zip(&self.known_steps).take_while(|(&t, s)| t == s.thread).count();
        if req.replay.len() > self.replay.len() {
            return Err(ProgramError::Failed("replay longer than the step capacity".into()));
        }
        if req.sleep.len() > MAX_SLEEP {
            return Err(ProgramError::Failed("sleep set too large".into()));
        }
        if self.worker.is_none() {
            self.spawn().map_err(|e| ProgramError::Failed(e.to_string()))?;
        }
        {
            // The worker is idle (waiting for a request): the request fields are ours.
            let hdr = self.hdr.one();
            for (w, &t) in self.replay.get().iter().zip(req.replay) {
                w.store(t.0, Ordering::Relaxed);
            }
            hdr.sleep_awaits.clear();
            for (w, &p) in hdr.sleep.iter().zip(req.sleep) {
                w.store(p, &hdr.sleep_awaits).map_err(|e| ProgramError::Limit(e.message()))?;
            }
            hdr.replay_len.store(req.replay.len() as u64, Ordering::Relaxed);
            hdr.sleep_len.store(req.sleep.len() as u64, Ordering::Relaxed);
            hdr.independence.store(encode_independence(req.independence), Ordering::Relaxed);
            hdr.max_steps.store(req.max_steps.min(self.steps.len()) as u64, Ordering::Relaxed);
            hdr.child_status.store(0, Ordering::Relaxed);
            if std::mem::take(&mut self.valuation_dirty) {
                hdr.set_valuation(&self.valuation, self.nondet_default);
            }
            // Steps are decoded while the worker runs (`wait`): the count must not show the
            // previous execution's steps before the worker starts this one.
            hdr.nsteps.store(0, Ordering::Relaxed);
            hdr.known_len.store(known as u64, Ordering::Relaxed);
        }
        out.steps.extend_from_slice(&self.known_steps[..known]);
        let t0 = Instant::now();
        let w = self.worker.as_ref().expect("spawned above");
        let h = self.hdr.one();
        self.seq += 1;
        h.req_seq.store(self.seq, Ordering::SeqCst);
        if h.worker_waiting.load(Ordering::SeqCst) == 1 && !write_byte(w.req, 1) {
            self.kill_worker();
            return Err(ProgramError::Failed("the worker process is gone".into()));
        }
        if known > 0 {
            early(&out.steps);
        }
        let mut meanwhile = ExplorerWork { work: meanwhile, spent: Duration::ZERO };
        let mut status = 0;
        // The execution's time limit counts from now, less the explorer's work (the
        // limit can only be generous by the time `early` takes).
        let waited = self.wait(Instant::now(), &mut status, out, early, &mut meanwhile);
        // (A worker that answered early leaves the rest of the work to here.)
        meanwhile.finish();
        let worked = meanwhile.spent;
        let roundtrip = t0.elapsed();
        self.timing.executions += 1;
        let ran = self.timing.run + self.timing.reset;
        let t1 = Instant::now();
        let r = self.collect(waited, status, out, known);
        match &r {
            Ok(Ok(())) => self.learn_steps(out, known),
            _ => self.known_steps.clear(),
        }
        // The results are read and the digests of the new steps written: the worker may
        // run the next execution ahead of its request.
        self.hdr.one().collected_seq.store(self.seq, Ordering::Release);
        self.timing.transfer += t1.elapsed();
        let ran = (self.timing.run + self.timing.reset).saturating_sub(ran);
        self.timing.handoff += roundtrip.saturating_sub(ran.max(worked));
        self.timing.overlap += ran.min(worked);
        r.map_err(|c| ProgramError::Failed(c.message()))?
    }

    /// Kill whatever runs an execution cut by its time limit (`interrupt` false) or a
    /// signal, and return the thread that was running and, for a persistent worker,
    /// where it was stopped. In fork mode the execution process dies with the fork
    /// server (PR_SET_PDEATHSIG): its pid in shared memory is not trusted (the program
    /// could have written any process's there).
    fn stop_cut_execution(&mut self, interrupt: bool) -> (Option<ThreadId>, Option<u64>) {
        let running = self.running();
        let mut stopped_at = None;
        // A persistent worker (our own child, so its pid is trusted) is asked where it
        // is first: a short probe (STOP_SIGNAL) that records the interrupted program
        // counter, so that the report names the line.
        if let Some(w) = self.worker.as_ref().filter(|_| self.opts.mode == Mode::Persistent) {
            let hdr = self.hdr.one();
            // SAFETY: signalling our own child, which installed a handler for
            // STOP_SIGNAL that only stores an address.
            unsafe { libc::kill(w.pid, crate::signals::STOP_SIGNAL) };
            let probe = Instant::now();
            // The limit is generous (the loop ends when the handler has run): on a loaded
            // machine the worker can wait tens of milliseconds for a core, and a probe
            // given up too early leaves the report without a line.
            while hdr.stop_pc.load(Ordering::Acquire) == 0 && probe.elapsed() < STOP_PROBE_LIMIT {
                std::thread::sleep(Duration::from_micros(200));
            }
            let pc = hdr.stop_pc.load(Ordering::Acquire);
            // Stopped in the runtime (handling an access) or in a library: name the
            // program's last access instead, when there is one.
            let in_program = |a: u64| a >= self.image.range.0 && a < self.image.range.1;
            let ra = hdr.stop_ra.load(Ordering::Relaxed);
            stopped_at = if in_program(pc) || (pc > 1 && !in_program(ra)) { (pc > 1).then_some(pc) } else { Some(ra) };
        }
        self.kill_worker();
        self.interrupted |= interrupt || self.deadline.is_some_and(|d| Instant::now() >= d);
        (running, stopped_at)
    }

    /// The thread the worker last resumed (None: unknown or garbage).
    fn running(&self) -> Option<ThreadId> {
        u16::try_from(self.hdr.one().running.load(Ordering::Relaxed)).ok().map(ThreadId)
    }

    /// Decode the results of the execution the worker finished (or died or was cut in)
    /// into `out`. The outer error: the shared memory holds garbage.
    /// Keep the steps of the execution just collected for the next requests (the first
    /// `known` were known already), and give the worker the digests of the new ones.
    fn learn_steps(&mut self, out: &Execution, known: usize) {
        // A run cut short (a time limit, an interruption) can end inside the known steps.
        let known = known.min(out.steps.len());
        let n = out.steps.len().min(self.known.len());
        self.known_steps.truncate(known);
        self.known_steps.extend_from_slice(&out.steps[known..n]);
        for (w, s) in self.known.get()[known..n].iter().zip(&out.steps[known..n]) {
            w.store(step_digest(s.thread, s.action), Ordering::Relaxed);
        }
    }

    fn collect(
        &mut self,
        waited: Result<bool, bool>,
        status: c_int,
        out: &mut Execution,
        known: usize,
    ) -> Result<Result<(), ProgramError>, Corrupt> {
        // A time-out or Ctrl-C: stop whatever runs the execution before reading what it
        // wrote (it would go on writing steps while they are read).
        let cut = match waited {
            Err(interrupt) => Some(self.stop_cut_execution(interrupt)),
            Ok(_) => None,
        };
        self.last_sites.clear();
        let hdr = self.hdr.one();
        // The worker is idle or dead: nothing writes the results while we read them —
        // except, in fork mode, the execution process of a cut execution, which dies with
        // its fork server but not at once: it can only append steps past `nsteps` (read
        // first) or rewrite the last one, which is then not final.
        let mut nsteps = load_len(&hdr.nsteps, self.steps.len(), "steps")?;
        if cut.is_some() && hdr.last_final.load(Ordering::Acquire) == 0 {
            // Cut between a step's start and its end: its action may be unsettled (a
            // read-modify-write's outcome) and its thread's next action unknown, so the
            // explorers must not see it.
            nsteps = nsteps.saturating_sub(1);
        }
        // The known steps were not written: a run that stopped before their end (its
        // replay diverged) has only those it took.
        if nsteps < known {
            out.steps.truncate(nsteps);
        }
        // `wait` decoded the first steps while the worker ran (all final, and already
        // handed to the explorer): a count below them is garbage.
        let decoded = out.steps.len();
        if nsteps < decoded {
            return Err(Corrupt(format!("the step count fell to {nsteps} below the {decoded} steps already read")));
        }
        out.steps.reserve(nsteps - decoded);
        for (i, w) in self.steps.get()[..nsteps].iter().enumerate().skip(decoded) {
            match w.load(i, &hdr.awaits) {
                Ok(s) => out.steps.push(s),
                Err(c) => return Err(c),
            }
        }
        hdr.check_names()?;
        // The values drawn (published as they were drawn: a crash keeps them too).
        let (draws, truncated) = hdr.draws()?;
        self.nondet.record(draws, truncated);
        let mut crashed: Option<c_int> = None;
        match waited {
            Ok(true) => {
                self.timing.run += Duration::from_nanos(hdr.run_ns.load(Ordering::Relaxed));
                self.timing.reset += Duration::from_nanos(hdr.reset_ns.load(Ordering::Relaxed));
                let ahead = hdr.ahead_ns.load(Ordering::Relaxed);
                self.timing.ahead += Duration::from_nanos(ahead);
                self.timing.continued += u64::from(ahead > 0);
                if self.opts.mode == Mode::ForkPerExecution {
                    self.timing.processes += 1;
                    let st = hdr.child_status.load(Ordering::Relaxed);
                    if let Some(e) = worker_panic(hdr)? {
                        return Ok(Err(e));
                    }
                    if libc::WIFSIGNALED(st) {
                        crashed = Some(libc::WTERMSIG(st));
                    } else if !libc::WIFEXITED(st) || libc::WEXITSTATUS(st) != 0 {
                        return Ok(Err(ProgramError::Failed(format!(
                            "the execution process ended abnormally ({})",
                            describe_wait_status(st)
                        ))));
                    }
                }
            }
            Ok(false) => {
                if let Some(e) = worker_panic(hdr)? {
                    return Ok(Err(e));
                }
                if libc::WIFSIGNALED(status) {
                    crashed = Some(libc::WTERMSIG(status));
                } else {
                    return Ok(Err(ProgramError::Failed(format!(
                        "the worker process exited unexpectedly ({})",
                        describe_wait_status(status)
                    ))));
                }
            }
            Err(_) => {
                let (running, stopped_at) = cut.expect("stopped above");
                out.end = End::Timeout;
                out.first = first_of(out);
                out.running = running;
                out.stopped_at = stopped_at;
                return Ok(Ok(()));
            }
        }
        if let Some(sig) = crashed {
            out.end = End::Crash(self.crash_defect(sig, nsteps));
            out.first = first_of(out);
            return Ok(Ok(()));
        }
        let hdr = self.hdr.one();
        let error = hdr.error.load(Ordering::Relaxed);
        if error != error_code::NONE {
            let detail = hdr.error_msg.load(&|| "error message".into())?;
            return Ok(Err(match error {
                error_code::DIVERGENCE => ProgramError::Divergence {
                    step: usize::try_from(hdr.error_step.load(Ordering::Relaxed))
                        .map_err(|_| Corrupt("diverging step".into()))?,
                    detail,
                },
                error_code::FAILED => ProgramError::Failed(detail),
                error_code::UNSUPPORTED => ProgramError::Unsupported(detail),
                error_code::LIMIT => ProgramError::Limit(detail),
                _ => return Err(Corrupt("error code".into())),
            }));
        }
        out.first = hdr.first.load(&hdr.awaits, &|| "first action".into())?;
        let n = load_len(&hdr.ndefects, MAX_DEFECTS, "defects")?;
        for (i, d) in hdr.defects[..n].iter().enumerate() {
            out.defects.push(d.load(i)?);
        }
        let n = load_len(&hdr.nassumed, MAX_SLEEP, "failed assumptions")?;
        for t in &hdr.assumed[..n] {
            let t = t.load(Ordering::Relaxed);
            out.assumed.push(ThreadId(u16::try_from(t).map_err(|_| Corrupt("failed assumption".into()))?));
        }
        out.bounded_poll = match hdr.bounded_poll.load(Ordering::Relaxed) {
            0 => None,
            1 => Some(hdr.bounded_poll_site.load(Ordering::Relaxed)),
            _ => return Err(Corrupt("bounded poll".into())),
        };
        // Kept: the worker may clear them when it runs ahead (`pending_site`).
        let n = load_len(&hdr.nsites, MAX_SLEEP, "sites")?;
        self.last_sites.extend(hdr.sites[..n].iter().map(|s| s.load(Ordering::Relaxed)));
        out.end = match hdr.end_tag.load(Ordering::Relaxed) {
            end_tag::FINISHED => End::Finished,
            end_tag::DEADLOCK => {
                self.deadlock_sites.set(&self.last_sites);
                let n = load_len(&hdr.nblocked, MAX_SLEEP, "blocked threads")?;
                let mut blocked = Vec::with_capacity(n);
                for (i, w) in hdr.blocked[..n].iter().enumerate() {
                    blocked.push(w.load(&hdr.awaits, &|| format!("blocked thread {i}"))?);
                }
                End::Deadlock { blocked }
            }
            end_tag::SLEEP_BLOCKED => End::SleepBlocked,
            end_tag::STEP_BOUND => End::StepBound,
            end_tag::TIMEOUT => End::Timeout,
            _ => return Err(Corrupt("end of the execution".into())),
        };
        Ok(Ok(()))
    }
}
