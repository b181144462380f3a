//! The program interface: what an explorer needs from a running program.
//!
//! One execution (design brief, "The program interface"):
//! 1. start from the pristine initial state;
//! 2. follow [`RunRequest::replay`] — which thread takes each visible step — until it is
//!    exhausted; a replay that names a thread which cannot move is a
//!    [`ProgramError::Divergence`], never a silently different execution;
//! 3. continue under the deterministic default policy of [`Scheduler`]: run the last
//!    thread again if it is enabled and awake, otherwise the lowest enabled awake
//!    thread; a thread is *asleep* while its entry of [`RunRequest::sleep`] has not been
//!    woken by a dependent action (sleep sets, Godefroid 1996; QPOR's `D ∩ en(C)`);
//! 4. return the [`Execution`]: the visible steps, each with the stepping thread's next
//!    pending action, the thread-local defects, and how the run ended.
//!
//! Implementations: the in-memory test model ([`crate::model`]), the C runtime
//! (`unfold-runtime`), and later the Rust API. The policy lives in [`Scheduler`] so that
//! every implementation schedules identically.

use crate::action::{Action, Independence};
use crate::ids::{ObjId, ThreadId};
use crate::objects::ObjState;
use rustc_hash::FxHashMap as HashMap;
use std::fmt;

/// An opaque program location of a step (a return address for C, an instruction index
/// for the test model). Frontends symbolise it for reports.
pub type Site = u64;

/// One visible step of an execution.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Step {
    /// The thread that moved.
    pub thread: ThreadId,
    /// What it did.
    pub action: Action,
    /// Where in the program.
    pub site: Site,
    /// The thread's pending action after this step (it runs its local code eagerly up to
    /// its next visible action), or `None` if it has no more actions: it exited, or it
    /// stopped on a defect or a failed assumption.
    pub next: Option<Action>,
    /// For [`Action::Create`]: the created thread's first pending action.
    pub child_next: Option<Action>,
}

/// The kind of a program defect.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DefectKind {
    /// A failed `assert`, `reach_error`, `__VERIFIER_error`.
    Assertion,
    /// `abort()`.
    Abort,
    /// The process exited with a non-zero status.
    Exit,
    /// The process was killed by a signal (SIGSEGV, SIGFPE, SIGBUS, SIGILL, ...).
    Crash,
    /// Unlocking a mutex the thread does not hold, relocking a non-recursive mutex,
    /// destroying a locked mutex; the same misuse of spinlocks and read-write locks;
    /// locking through a null, invalid or destroyed mutex; initialising a held one.
    MutexMisuse,
    /// Two conflicting accesses, at least one plain, not ordered by happens-before
    /// ([`crate::race`]).
    DataRace,
    /// Misuse of a condition variable, semaphore or barrier: waiting without holding the
    /// mutex, two mutexes with one condition variable, destroying a condition variable
    /// with waiters, using a semaphore or barrier never initialised or destroyed, a null
    /// or invalid object pointer.
    SyncMisuse,
    /// An access to a heap block after it was freed, the free happening before the
    /// access (a free not ordered with the access is a [`DefectKind::DataRace`]).
    UseAfterFree,
    /// Freeing (or reallocating) a heap block already freed.
    DoubleFree,
    /// Freeing (or reallocating) a pointer `malloc` did not return: into the middle of
    /// a heap block, to a stack, a global or thread-local storage.
    InvalidFree,
    /// An access to a thread's stack after that thread exited.
    StackUseAfterExit,
    /// A read of heap bytes allocated by `malloc`/`realloc` and never written (opt-in).
    UninitRead,
    /// An access past the end of a heap block, or before its start (into the red zones
    /// between blocks).
    HeapBufferOverflow,
}

impl DefectKind {
    /// The stable name used in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            DefectKind::Assertion => "assertion",
            DefectKind::Abort => "abort",
            DefectKind::Exit => "exit",
            DefectKind::Crash => "crash",
            DefectKind::MutexMisuse => "mutex-misuse",
            DefectKind::DataRace => "data-race",
            DefectKind::SyncMisuse => "sync-misuse",
            DefectKind::UseAfterFree => "use-after-free",
            DefectKind::DoubleFree => "double-free",
            DefectKind::InvalidFree => "invalid-free",
            DefectKind::StackUseAfterExit => "stack-use-after-exit",
            DefectKind::UninitRead => "uninit-read",
            DefectKind::HeapBufferOverflow => "heap-buffer-overflow",
        }
    }
}

/// A defect found in one execution: a result, not an error.
#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Defect {
    /// What went wrong.
    pub kind: DefectKind,
    /// A human-readable message (the failed assertion, the signal, ...).
    pub message: String,
    /// The thread in which it happened.
    pub thread: ThreadId,
    /// Where, if known.
    pub site: Option<Site>,
    /// Number of steps of the execution that had happened when it occurred.
    pub after_steps: usize,
}

/// How an execution ended.
#[derive(Clone, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum End {
    /// No thread has a pending action left: a maximal execution.
    #[default]
    Finished,
    /// Some threads have pending actions but none is enabled (a maximal execution that
    /// is a deadlock). Lists each blocked thread with the action it waits to perform.
    Deadlock {
        /// The blocked threads and their pending actions.
        blocked: Vec<(ThreadId, Action)>,
    },
    /// Every enabled thread is asleep: a sleep-set-blocked (SSB) execution.
    SleepBlocked,
    /// The per-execution step bound was reached (possible livelock).
    StepBound,
    /// The per-execution wall-clock timeout expired.
    Timeout,
    /// The process died (signal): the trace is cut at the last completed step.
    Crash(Defect),
}

/// The result of one run of the program.
#[derive(Clone, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Execution {
    /// Main's first pending action (`None` if main stopped before any visible action).
    pub first: Option<Action>,
    /// The visible steps, in execution order.
    pub steps: Vec<Step>,
    /// Thread-local defects, in the order they happened. The thread that failed stops;
    /// the others go on (delaying a failure loses nothing: ARCHITECTURE.md).
    pub defects: Vec<Defect>,
    /// Threads that stopped on a failed assumption (`__VERIFIER_assume`): they never
    /// move again, and a deadlock involving them is not a defect.
    pub assumed: Vec<ThreadId>,
    /// How the run ended.
    pub end: End,
    /// For a run cut short ([`End::Timeout`]): the thread that was running, if known.
    #[serde(default)]
    pub running: Option<ThreadId>,
    /// For a run cut short ([`End::Timeout`]): where the running thread was stopped (the
    /// program counter it was interrupted at), if known.
    #[serde(default)]
    pub stopped_at: Option<Site>,
    /// Where a loop polling with a changing local state (a counter) made polls that were
    /// not steps (the C runtime's "Polls that count"): other threads' writes could not
    /// come between them, so the exploration is bounded there.
    #[serde(default)]
    pub bounded_poll: Option<Site>,
}

impl Execution {
    /// Reset to empty, keeping allocations.
    pub fn clear(&mut self) {
        self.first = None;
        self.steps.clear();
        self.defects.clear();
        self.assumed.clear();
        self.end = End::Finished;
        self.running = None;
        self.stopped_at = None;
        self.bounded_poll = None;
    }

    /// The sequence of threads that took each step: a replay of this execution.
    pub fn schedule(&self) -> Vec<ThreadId> {
        self.steps.iter().map(|s| s.thread).collect()
    }
}

/// What the explorer asks of one run.
#[derive(Clone, Copy, Debug)]
pub struct RunRequest<'a> {
    /// The thread that takes each of the first visible steps.
    pub replay: &'a [ThreadId],
    /// The sleep set at the end of the replay: threads that must not be scheduled, with
    /// their pending action, until an action dependent with it is executed.
    pub sleep: &'a [(ThreadId, Action)],
    /// The independence relation used to wake sleeping threads.
    pub independence: Independence,
    /// Stop with [`End::StepBound`] after this many visible steps.
    pub max_steps: usize,
}

/// Errors that mean "the checker could not run this execution" (as opposed to defects
/// of the program, which are results).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ProgramError {
    /// The program did not do what the replay says (it is not data-deterministic, or the
    /// checker has a bug).
    #[error("replay diverged at step {step}: {detail}")]
    Divergence {
        /// 0-based index of the step that diverged.
        step: usize,
        /// What was expected and what happened.
        detail: String,
    },
    /// The program could not be run at all.
    #[error("cannot run the program: {0}")]
    Failed(String),
    /// The program does something the checker does not model (named in the message);
    /// it is refused rather than run with other semantics.
    #[error("{0}")]
    Unsupported(String),
    /// The program went past one of the checker's limits (threads, heap...): the
    /// message names the limit and how to raise it, if it can be.
    #[error("{0}")]
    Limit(String),
}

/// What a program offers an explorer: run it once under a replay and a sleep set.
///
/// Protocol: `run` may be called any number of times; every call starts from the
/// pristine initial state and must be deterministic in its request (same request, same
/// execution). `out` is cleared by the implementation.
pub trait Program {
    /// Run one execution.
    fn run(&mut self, req: &RunRequest<'_>, out: &mut Execution) -> Result<(), ProgramError>;

    /// [`Program::run`], handing `early` steps known to be final while the execution
    /// still runs, so that an explorer can work on them meanwhile (the C frontend runs
    /// the program in another process). Each call gets a longer prefix of the steps
    /// `out` holds at the end, the same steps in the same order; there may be no call
    /// at all, and the last steps always come only in `out`. The default calls
    /// `early` never.
    fn run_streaming(
        &mut self,
        req: &RunRequest<'_>,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
    ) -> Result<(), ProgramError> {
        let _ = early;
        self.run(req, out)
    }

    /// [`Program::run_streaming`], with `meanwhile` called while the program runs, so
    /// that an explorer can work in the meantime (the C frontend runs the program in
    /// another process, on another core). `meanwhile` does a part of its work per call
    /// and returns whether more is left; it is called again until it returns false,
    /// all of it before this returns. An implementation that streams steps calls it when
    /// it has none to hand to `early` (the steps go first: what the explorer has not
    /// taken when the run ends is left on the critical path). `meanwhile` must not
    /// depend on this run: the explorer finishes the previous execution's analysis
    /// there. The default calls it to the end first, then runs.
    fn run_overlapped(
        &mut self,
        req: &RunRequest<'_>,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
        meanwhile: &mut dyn FnMut() -> bool,
    ) -> Result<(), ProgramError> {
        while meanwhile() {}
        self.run_streaming(req, out, early)
    }

    /// A hint, given between runs: the next request will repeat at most the first
    /// `steps` steps of the last execution (its replay branches off there or earlier).
    /// The C frontend's worker, which starts the next execution ahead of its request by
    /// repeating the last one, stops there instead of running past the branch point.
    /// The default ignores it.
    fn next_branch_at_most(&mut self, steps: usize) {
        let _ = steps;
    }
}

impl<P: Program + ?Sized> Program for &mut P {
    fn run(&mut self, req: &RunRequest<'_>, out: &mut Execution) -> Result<(), ProgramError> {
        (**self).run(req, out)
    }

    fn run_streaming(
        &mut self,
        req: &RunRequest<'_>,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
    ) -> Result<(), ProgramError> {
        (**self).run_streaming(req, out, early)
    }

    fn run_overlapped(
        &mut self,
        req: &RunRequest<'_>,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
        meanwhile: &mut dyn FnMut() -> bool,
    ) -> Result<(), ProgramError> {
        (**self).run_overlapped(req, out, early, meanwhile)
    }

    fn next_branch_at_most(&mut self, steps: usize) {
        (**self).next_branch_at_most(steps)
    }
}

/// Life of a thread as seen by the scheduler.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    /// Has a pending action.
    Live(Action),
    /// Exited normally (after its `Exit`).
    Exited,
    /// Stopped without exiting (defect, failed assumption): never moves again.
    Stopped,
}

/// The synchronisation state of a run: which thread is live with which pending action,
/// the state of every synchronising object (asked of [`crate::objects`]), who has
/// exited. Used by [`Scheduler`] and by explorers that need `enabled(s)` at every state
/// of an execution.
#[derive(Debug, Default)]
pub struct SchedState {
    // invariant: threads[t] is Some for every thread created so far.
    threads: Vec<Option<Status>>,
    objects: HashMap<ObjId, ObjState>,
    exited_process: bool,
}

impl Clone for SchedState {
    fn clone(&self) -> Self {
        let mut s = SchedState::default();
        s.clone_from(self);
        s
    }

    /// Field by field, reusing the destination's allocations (the C frontend's
    /// checkpoints copy the state at every branch point).
    fn clone_from(&mut self, src: &Self) {
        let SchedState { threads, objects, exited_process } = src;
        self.threads.clone_from(threads);
        self.objects.clone_from(objects);
        self.exited_process = *exited_process;
    }
}

impl SchedState {
    /// The initial state: only main, with its first pending action.
    pub fn new(first: Option<Action>) -> Self {
        let mut s = SchedState::default();
        s.reset(first);
        s
    }

    /// Reset to the initial state, keeping allocations.
    pub fn reset(&mut self, first: Option<Action>) {
        self.threads.clear();
        self.threads.push(Some(match first {
            Some(a) => Status::Live(a),
            None => Status::Stopped,
        }));
        self.objects.clear();
        self.exited_process = false;
    }

    /// The pending action of `t`, if it is live.
    pub fn pending(&self, t: ThreadId) -> Option<Action> {
        match self.threads.get(t.index()) {
            Some(Some(Status::Live(a))) => Some(*a),
            _ => None,
        }
    }

    /// Whether `t` has exited normally.
    pub fn has_exited(&self, t: ThreadId) -> bool {
        matches!(self.threads.get(t.index()), Some(Some(Status::Exited)))
    }

    /// The thread holding mutex (or write-locked read-write lock) `m`, if any.
    pub fn owner(&self, m: ObjId) -> Option<ThreadId> {
        self.objects.get(&m).and_then(ObjState::holder)
    }

    /// The state of object `o` ([`ObjState::Fresh`] if never operated on).
    pub fn object(&self, o: ObjId) -> &ObjState {
        const FRESH: &ObjState = &ObjState::Fresh;
        self.objects.get(&o).unwrap_or(FRESH)
    }

    /// Threads that exist in this run, in id order.
    pub fn threads(&self) -> impl Iterator<Item = ThreadId> + '_ {
        self.threads.iter().enumerate().filter(|(_, s)| s.is_some()).map(|(i, _)| ThreadId(i as u16))
    }

    /// Whether thread `t`'s pending action `a` is enabled, ignoring process exit.
    fn enabled_ignoring_exit(&self, t: ThreadId, a: Action) -> bool {
        match a {
            Action::Join(u) => self.has_exited(u),
            Action::ExitProcess => false,
            Action::Await(w) => crate::objects::memory::await_woken(w, |o| self.object(o)),
            a => match a.object() {
                Some(o) => self.object(o).enabled(t, a),
                None => true,
            },
        }
    }

    /// Whether `t` can take a step now.
    pub fn enabled(&self, t: ThreadId) -> bool {
        if self.exited_process {
            return false;
        }
        match self.pending(t) {
            None => false,
            Some(Action::ExitProcess) => {
                self.threads().all(|u| u == t || !self.pending(u).is_some_and(|b| self.enabled_ignoring_exit(u, b)))
            }
            Some(a) => self.enabled_ignoring_exit(t, a),
        }
    }

    /// The action `t` would perform if scheduled now (resolving the outcome of a try or
    /// timed operation).
    pub fn resolve(&self, t: ThreadId) -> Option<Action> {
        self.pending(t).map(|a| match a.object() {
            Some(o) => self.object(o).resolve(t, a),
            None => a,
        })
    }

    /// The value handed back to `t` when it performs the resolved action `a` now (a try
    /// operation's success, a semaphore's value...): what a frontend resumes the thread
    /// with.
    pub fn result(&self, t: ThreadId, a: Action) -> u64 {
        match a.object() {
            Some(o) => self.object(o).result(t, a),
            None => 0,
        }
    }

    /// [`SchedState::resolve`] and [`SchedState::result`] of the resolved action at once
    /// (one look at the object).
    pub fn resolve_with_result(&self, t: ThreadId) -> Option<(Action, u64)> {
        self.pending(t).map(|a| match a.object() {
            Some(o) => {
                let st = self.object(o);
                let r = st.resolve(t, a);
                (r, st.result(t, r))
            }
            None => (a, 0),
        })
    }

    /// Apply a step reported by a program, checking that it was possible.
    pub fn apply(&mut self, index: usize, step: &Step) -> Result<(), ProgramError> {
        let t = step.thread;
        if !self.enabled(t) {
            return Err(ProgramError::Divergence {
                step: index,
                detail: format!("{t} took a step but is not enabled (pending {:?})", self.pending(t)),
            });
        }
        let expected = self.resolve(t);
        self.apply_resolved(index, step, expected)
    }

    /// [`SchedState::apply`] for a step whose thread was found enabled in this very
    /// state and whose pending action resolved to `expected` ([`drive`] has just asked
    /// both): only the step's agreement with `expected` is checked again.
    fn apply_resolved(&mut self, index: usize, step: &Step, expected: Option<Action>) -> Result<(), ProgramError> {
        let t = step.thread;
        let diverge = |detail: String| ProgramError::Divergence { step: index, detail };
        if !expected.is_some_and(|e| step.action.performs(e)) {
            return Err(diverge(format!("{t} performed {:?} but its pending action was {:?}", step.action, expected)));
        }
        if let Some(o) = step.action.object() {
            self.objects.entry(o).or_default().apply(t, step.action).map_err(diverge)?;
        }
        match step.action {
            Action::Create(c) => {
                if self.threads.len() <= c.index() {
                    self.threads.resize(c.index() + 1, None);
                }
                if self.threads[c.index()].is_some() {
                    return Err(diverge(format!("{t} created {c}, which already exists")));
                }
                self.threads[c.index()] = Some(match step.child_next {
                    Some(a) => Status::Live(a),
                    None => Status::Stopped,
                });
            }
            Action::ExitProcess => self.exited_process = true,
            _ => {}
        }
        self.threads[t.index()] = Some(match (step.action, step.next) {
            (Action::Exit, _) => Status::Exited,
            (_, Some(a)) => Status::Live(a),
            (_, None) => Status::Stopped,
        });
        Ok(())
    }

    /// Live threads whose pending action is not enabled, with that action.
    pub fn blocked(&self) -> Vec<(ThreadId, Action)> {
        if self.exited_process {
            return Vec::new();
        }
        self.threads().filter_map(|t| self.pending(t).filter(|_| !self.enabled(t)).map(|a| (t, a))).collect()
    }

    /// The threads blocked on an assumption ([`crate::Awaited::assume`]) whose
    /// locations were written since the loop iteration read them: the assumption
    /// failed (the wait would have ended; the attempt after the write is another
    /// execution), so their block is not a deadlock (the frontends list them in
    /// [`crate::Execution::assumed`]). An assumption whose locations did not move is a
    /// livelock like any wait no thread ends.
    pub fn failed_assumptions(&self) -> impl Iterator<Item = ThreadId> + '_ {
        self.threads().filter(|&t| match self.pending(t) {
            Some(Action::Await(w)) if w.is_assume() => w.moved(|o, b| self.object(o).await_count(b).unwrap_or(0)),
            _ => false,
        })
    }
}

/// The scheduling policy every [`Program`] implementation shares: follow the replay,
/// then prefer the last thread, otherwise the lowest enabled thread that is awake.
#[derive(Debug, Clone)]
pub struct Scheduler<'a> {
    req: RunRequest<'a>,
    pos: usize,
    asleep: Vec<(ThreadId, Action)>,
    sleep_loaded: bool,
    last: Option<ThreadId>,
}

/// The scheduler's decision.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decision {
    /// Run this thread's pending action.
    Run(ThreadId),
    /// The run is over.
    Stop(StopReason),
}

/// Why the scheduler stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StopReason {
    /// No live thread has an enabled action ([`End::Finished`] or [`End::Deadlock`]).
    NoneEnabled,
    /// Enabled threads exist but all are asleep ([`End::SleepBlocked`]).
    SleepBlocked,
    /// The step bound was reached.
    StepBound,
}

impl<'a> Scheduler<'a> {
    /// A scheduler for one run.
    pub fn new(req: RunRequest<'a>) -> Self {
        Scheduler { req, pos: 0, asleep: Vec::new(), sleep_loaded: false, last: None }
    }

    /// The scheduler of a run that performed its first steps under another request
    /// whose replay `req` repeats (a worker that started replaying before it knew the
    /// whole request): it goes on from `before`'s position. `before` must still be inside
    /// its replay and `req`'s, so that no sleep set has been applied yet.
    pub fn continue_with(before: &Scheduler<'_>, req: RunRequest<'a>) -> Self {
        debug_assert!(!before.sleep_loaded && before.pos <= req.replay.len());
        debug_assert_eq!(before.req.replay[..before.pos], req.replay[..before.pos]);
        Scheduler { req, pos: before.pos, asleep: Vec::new(), sleep_loaded: false, last: before.last }
    }

    /// A scheduler that goes on with `req` from its step `pos` (within its replay),
    /// `last` having taken the step before: for an execution put back at that step
    /// (the C frontend's checkpoints), whose scheduler was [`Scheduler::last`] there.
    pub fn at(req: RunRequest<'a>, pos: usize, last: Option<ThreadId>) -> Self {
        debug_assert!(pos <= req.replay.len());
        Scheduler { req, pos, asleep: Vec::new(), sleep_loaded: false, last }
    }

    /// The thread that took the last step.
    pub fn last(&self) -> Option<ThreadId> {
        self.last
    }

    /// Decide who moves next in `state`. Errors if the replay names a thread that
    /// cannot move.
    pub fn decide(&mut self, state: &SchedState) -> Result<Decision, ProgramError> {
        if self.pos >= self.req.max_steps {
            return Ok(Decision::Stop(StopReason::StepBound));
        }
        if let Some(&t) = self.req.replay.get(self.pos) {
            if !state.enabled(t) {
                return Err(ProgramError::Divergence {
                    step: self.pos,
                    detail: format!("replay schedules {t}, which is not enabled (pending {:?})", state.pending(t)),
                });
            }
            return Ok(Decision::Run(t));
        }
        if !self.sleep_loaded {
            // The sleep set describes the state at the end of the replay.
            self.sleep_loaded = true;
            self.asleep.extend_from_slice(self.req.sleep);
        }
        let awake = |t: ThreadId| state.enabled(t) && !self.asleep.iter().any(|&(u, _)| u == t);
        if let Some(t) = self.last.filter(|&t| awake(t)) {
            return Ok(Decision::Run(t));
        }
        if let Some(t) = state.threads().find(|&t| awake(t)) {
            return Ok(Decision::Run(t));
        }
        if state.threads().any(|t| state.enabled(t)) {
            Ok(Decision::Stop(StopReason::SleepBlocked))
        } else {
            Ok(Decision::Stop(StopReason::NoneEnabled))
        }
    }

    /// Record that thread `t` performed `a`: advances the replay and wakes sleepers.
    pub fn performed(&mut self, t: ThreadId, a: Action) {
        if self.pos >= self.req.replay.len() {
            let mode = self.req.independence;
            self.asleep.retain(|&(u, b)| !mode.dependent(t, a, u, b));
        }
        self.pos += 1;
        self.last = Some(t);
    }

    /// Number of steps performed so far.
    pub fn steps(&self) -> usize {
        self.pos
    }
}

/// What a frontend does for [`drive`]: run its threads' code, one visible step at a
/// time. The frontend owns the threads (coroutines for C, an interpreter for the test
/// model); [`drive`] owns the schedule and the synchronisation state, so every frontend
/// schedules identically and no frontend decides an outcome itself.
pub trait Frontend {
    /// The program location of `t`'s pending action.
    fn site(&self, t: ThreadId) -> Site;

    /// Called with step `index` before it is performed (its `next` fields still empty).
    /// A frontend that streams steps records it here, so that a crash while performing
    /// it leaves the step behind. Returns false if the step cannot be recorded (the run
    /// then ends with [`End::StepBound`]).
    fn begin(&mut self, index: usize, step: &Step) -> bool {
        let _ = (index, step);
        true
    }

    /// Perform `t`'s resolved `action`, handing the thread `result` (the value its call
    /// returns: [`SchedState::result`]), and run the thread (and, for a create, the new
    /// thread) up to its next visible action. Returns `(next, child_next)` as in
    /// [`Step`].
    fn perform(
        &mut self,
        index: usize,
        t: ThreadId,
        action: Action,
        result: u64,
    ) -> Result<(Option<Action>, Option<Action>), ProgramError>;

    /// The action `t` performed in the step [`Frontend::perform`] just ran, for the one
    /// outcome only the program knows: whether a read-modify-write changed its location
    /// (report [`Action::Rmw`]`(o, false)` if not; see [`Action::performs`]). The
    /// default reports the requested action, a changing read-modify-write being the
    /// conservative answer.
    fn performed_as(&mut self, t: ThreadId, action: Action) -> Action {
        let _ = t;
        action
    }

    /// Called with the completed step `index`, before it is applied to the state.
    fn finish(&mut self, index: usize, step: &Step) -> Result<(), ProgramError>;
}

/// Run one execution: the drive loop every frontend shares (decide → resolve → perform
/// → apply). `state` is reset to the initial state with main's first pending action
/// `first` (the frontend has started main). Returns how the run ended.
pub fn drive(
    req: &RunRequest<'_>,
    first: Option<Action>,
    state: &mut SchedState,
    frontend: &mut impl Frontend,
) -> Result<End, ProgramError> {
    state.reset(first);
    let mut sched = Scheduler::new(*req);
    Ok(drive_until(&mut sched, state, frontend, |_| false)?.expect("never paused"))
}

/// The loop of [`drive`] on a run already started (`state` and `sched` as the last call
/// left them), which stops before step `i` when `pause(i)` says so: `Ok(None)`. A
/// paused run goes on with another call, possibly with a scheduler for a longer
/// request ([`Scheduler::continue_with`]).
pub fn drive_until(
    sched: &mut Scheduler<'_>,
    state: &mut SchedState,
    frontend: &mut impl Frontend,
    mut pause: impl FnMut(usize) -> bool,
) -> Result<Option<End>, ProgramError> {
    Ok(Some(loop {
        if pause(sched.steps()) {
            return Ok(None);
        }
        let t = match sched.decide(state)? {
            Decision::Run(t) => t,
            Decision::Stop(StopReason::NoneEnabled) => {
                let blocked = state.blocked();
                break if blocked.is_empty() { End::Finished } else { End::Deadlock { blocked } };
            }
            Decision::Stop(StopReason::SleepBlocked) => break End::SleepBlocked,
            Decision::Stop(StopReason::StepBound) => break End::StepBound,
        };
        let (action, result) =
            state.resolve_with_result(t).expect("checker bug: scheduled a thread without a pending action");
        let index = sched.steps();
        let mut step = Step { thread: t, action, site: frontend.site(t), next: None, child_next: None };
        if !frontend.begin(index, &step) {
            break End::StepBound;
        }
        (step.next, step.child_next) = frontend.perform(index, t, action, result)?;
        step.action = frontend.performed_as(t, action);
        frontend.finish(index, &step)?;
        // `decide` found `t` enabled and `action` is its resolved pending action, in this
        // state (the frontend does not change it).
        state.apply_resolved(index, &step, Some(action))?;
        sched.performed(t, step.action);
    }))
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.thread, self.action)
    }
}
