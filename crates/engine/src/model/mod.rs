//! The in-memory test model: a tiny thread language and its executor.
//!
//! A [`Model`] is a set of thread *codes* (code 0 is `main`) over mutexes, shared integer
//! variables and per-thread registers. It implements [`Program`], so every explorer can
//! run it exactly as it runs a C program, and it is the substrate of every engine test
//! and benchmark.
//!
//! # Semantics
//!
//! Visible actions (one [`Step`] each): `lock`, `unlock`, `trylock`, visible memory
//! accesses ([`Action::Read`], [`Action::Write`], [`Action::Rmw`]), `spawn`
//! ([`Action::Create`]), `join`, and a thread's end ([`Action::Exit`], or
//! [`Action::ExitProcess`] for main). Everything else is *invisible* local computation:
//! register arithmetic, branches, `assert`, `assume`, and the invisible shared accesses
//! [`ThreadBuilder::load`]/[`ThreadBuilder::store`], which the QPOR paper (§2) allows only
//! inside critical sections (the model does not check this; a program that uses them
//! outside a lock is not data-deterministic per trace and the explorers may miss
//! behaviours of it).
//!
//! After each step the stepping thread runs its local code eagerly up to its next visible
//! action, so [`Step::next`], [`Step::child_next`] and [`Execution::first`] are filled.
//! A failed `assert` records a [`Defect`] and stops the thread (`next: None`); a failed
//! `assume` stops it and lists it in [`Execution::assumed`]; the other threads go on.
//! Unlocking a mutex the thread does not hold or relocking one it holds is a
//! [`DefectKind::MutexMisuse`] defect.
//!
//! Scheduling is the shared drive loop's ([`crate::program::drive`], used by every [`Program`]); [`SchedState`]
//! validates each step. Thread ids come from a [`ThreadNames`] owned by the model, so
//! they are stable across runs. A [`Site`](crate::program::Site) is
//! `(code index << 32) | pc`.
//!
//! # Cost
//!
//! A run reuses every buffer of the model and of the [`Execution`]: no allocation per
//! step once warm (only [`crate::End::Deadlock`] and defects allocate).

mod builder;
pub mod programs;
pub mod random;

pub use builder::{
    Barrier, CodeId, Cond, Expr, Label, ModelBuilder, Mutex, Poll, Reg, RwLock, Sem, ThreadBuilder, Var,
};

use crate::action::{Action, Bytes, ObjKind};
use crate::ids::{ObjId, ThreadId, ThreadNames};
use crate::objects::memory::ByteWrites;
use crate::program::{
    drive, Defect, DefectKind, Execution, Frontend, Program, ProgramError, RunRequest, SchedState, Step,
};
use crate::race::{AtomicOp, MemoryOrder, Race, RaceDetector};
use std::fmt;

/// Object ids of variables start here; mutex `k` is `ObjId(k)`.
pub const VAR_BASE: u64 = 1 << 32;

/// Object ids of the other synchronising objects (condition variables, semaphores,
/// read-write locks, barriers) start here.
pub const SYNC_BASE: u64 = 2 << 32;

/// Binary operators of [`Expr`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinOp {
    /// `a + b` (wrapping).
    Add,
    /// `a - b` (wrapping).
    Sub,
    /// `a * b` (wrapping).
    Mul,
    /// `a % b`, 0 when `b == 0`.
    Rem,
    /// `a == b` as 0/1.
    Eq,
    /// `a != b` as 0/1.
    Ne,
    /// `a < b` as 0/1.
    Lt,
    /// `a <= b` as 0/1.
    Le,
    /// Logical and as 0/1.
    And,
    /// Logical or as 0/1.
    Or,
}

/// One instruction of a thread code.
#[derive(Clone, Debug)]
pub(crate) enum Instr {
    Lock(u32),
    /// Unlock: *weak* ([`Action::Unlock`] with `false`: it moves no release count) when
    /// the thread's previous unlock was of this mutex and it has since written nothing and
    /// performed no visible operation but locks of this mutex and waits, as the C runtime
    /// decides (`ThreadRt::clean_unlock`; docs/memory.md, "Two pollers of one mutex").
    Unlock(u32),
    /// The C runtime's test of whether a poll's iteration found pure inside its critical
    /// section may be waited on: the register gets 1 if the mutex's release count is the
    /// one just after this thread's last unlock, which was of this mutex (no other thread
    /// released it since), else 0.
    ReleasesUnchanged(Reg, u32),
    TryLock(u32, Reg),
    Load(Reg, u32),
    Store(u32, Expr),
    Read(Reg, u32),
    Write(u32, Expr),
    FetchAdd(Reg, u32, Expr),
    Exchange(Reg, u32, Expr),
    /// Compare-exchange `(old, var, expected, new)`: the register gets the old value;
    /// the variable becomes `new` if it held `expected`.
    Cas(Reg, u32, Expr, Expr),
    Set(Reg, Expr),
    /// Jump to the target when the expression is zero.
    JumpIfZero(Expr, u32),
    Jump(u32),
    Assert(Expr, String),
    Assume(Expr),
    Spawn(Reg, u32),
    Join(Expr),
    End,
    /// A spin-wait on variables (1 to [`crate::action::MAX_AWAITED`]): blocked until
    /// another thread writes one of them (pending [`Action::Await`] with the variables'
    /// write counts now).
    AwaitChange(Vec<u32>),
    /// A poll under mutex `m` that found nothing: blocked until another thread unlocks
    /// `m` (pending [`Action::Await`] on the mutex, with its release count just after
    /// this thread's last unlock of it), as the C runtime makes one after a pure
    /// iteration of `lock(m); r = flag; unlock(m);` that read plain locations; or until
    /// another thread writes one of the variables (read atomically in the iteration),
    /// with the write counts seen as for [`Instr::AwaitChange`]; or until the await count
    /// of one of the synchronising objects moves, each with the count seen as for
    /// [`Instr::AwaitTried`] (a condition variable a timed wait in the loop timed out
    /// on: [`ThreadBuilder::cond_timedwait_poll`]). Without such objects and with weak
    /// unlocks, an assumption ([`crate::Awaited::assume`]), as the C runtime makes it.
    AwaitUnlock(u32, Vec<u32>, Vec<ObjId>),
    /// A retry loop of try operations that failed, as the C runtime makes one after a
    /// pure iteration: blocked until the await count of one of the synchronising objects
    /// moves ([`Action::moves_await_count`]: a mutex's unlocks, a semaphore's posts, a
    /// read-write lock's unlocks), each with the count this thread saw at its last failed
    /// try on it ([`Action::is_failed_try`]), or until another thread writes one of the
    /// variables (write counts as for [`Instr::AwaitChange`]). An assumption
    /// ([`crate::Awaited::assume`]), as the C runtime makes it.
    AwaitTried(Vec<ObjId>, Vec<u32>),
    /// Any other operation on a synchronising object (condition variable, semaphore,
    /// read-write lock, barrier), in pending form; the value the engine hands back
    /// ([`crate::SchedState::result`]) goes to the register.
    Op(Action, Option<Reg>),
}

impl Instr {
    fn is_visible(&self) -> bool {
        matches!(
            self,
            Instr::Lock(_)
                | Instr::Unlock(_)
                | Instr::TryLock(..)
                | Instr::Read(..)
                | Instr::Write(..)
                | Instr::FetchAdd(..)
                | Instr::Exchange(..)
                | Instr::Cas(..)
                | Instr::Spawn(..)
                | Instr::Join(_)
                | Instr::End
                | Instr::Op(..)
                | Instr::AwaitChange(_)
                | Instr::AwaitUnlock(..)
                | Instr::AwaitTried(..)
        )
    }
}

/// The code of one kind of thread.
#[derive(Clone, Debug)]
pub(crate) struct Code {
    pub(crate) name: String,
    pub(crate) instrs: Vec<Instr>,
    pub(crate) nregs: usize,
}

/// Runtime state of one thread of a run.
#[derive(Clone, Debug, Default)]
struct ThreadRt {
    exists: bool,
    code: u32,
    pc: u32,
    regs: Vec<i64>,
    spawned: u32,
    /// The pending visible action, if the thread is live.
    pending: Option<Action>,
    /// Per word (variable, see `Model::word`) read visibly: the write count of each
    /// byte when this thread last read it (of the word as it was at the thread's first
    /// read of it, for a byte never read): what a spin-wait on it waits to change, as the
    /// C runtime logs it at the read.
    seen: Vec<(u32, ByteWrites)>,
    /// Per mutex this thread unlocked: the mutex's release count just after its last
    /// unlock (what [`Instr::AwaitUnlock`] waits to change).
    unlocked: Vec<(u32, u32)>,
    /// The mutex this thread unlocked last, with its release count just after (what
    /// [`Instr::ReleasesUnchanged`] compares with, as the C runtime's `released`).
    last_unlock: Option<(u32, u32)>,
    /// The mutex of this thread's last unlock, while since that unlock the thread has
    /// written nothing (visibly or not) and performed no visible operation but locks of
    /// that mutex and waits: its next unlock of the mutex is then weak.
    clean_unlock: Option<u32>,
    /// Per synchronising object this thread failed a try on (or joined the waiters of,
    /// for a condition variable): the object's await count then (what
    /// [`Instr::AwaitTried`] waits to change, as the C runtime logs it).
    tried: Vec<(ObjId, u32)>,
    /// Whether the thread made a plain (invisible) load since its last visible step that
    /// was not a read or an unchanged read-modify-write: a wait on variables
    /// ([`Instr::AwaitChange`]) is an assumption ([`crate::Awaited::assume`]) only if
    /// not, as the C runtime makes one only after an iteration of visible loads.
    plain_read: bool,
}

/// An in-memory program (see the module documentation). Build one with
/// [`ModelBuilder`], or take a ready-made one from [`programs`] or [`random`].
#[derive(Clone)]
pub struct Model {
    pub(crate) codes: Vec<Code>,
    pub(crate) var_init: Vec<i64>,
    // invariant: word[v] is the variable whose memory object v's visible accesses
    // operate on (v itself, or the variable it shares an 8-byte word with), and
    // word[word[v]] == word[v].
    pub(crate) word: Vec<u32>,
    /// The bytes of its word variable `v` occupies ([`ModelBuilder::var_beside`]).
    pub(crate) bytes: Vec<Bytes>,
    pub(crate) nmutex: usize,
    names: ThreadNames,
    // Run buffers, reused across runs.
    threads: Vec<ThreadRt>,
    vars: Vec<i64>,
    owner: Vec<Option<ThreadId>>,
    /// Read-write locks held: (thread, lock, as writer).
    rw_held: Vec<(ThreadId, ObjId, bool)>,
    sched: SchedState,
    /// Plain `load`/`store` are visible steps (sequential consistency) instead of
    /// invisible accesses checked for data races.
    plain_visible: bool,
    /// A plain `store` to a word another thread's pending spin-wait watches is a
    /// visible write ([`Model::with_awaited_stores_visible`]).
    awaited_stores_visible: bool,
    race: RaceDetector,
    /// Visible writes per byte of each word (indexed by the word's variable) in this run
    /// (the engine's memory state).
    writes: Vec<ByteWrites>,
    /// Unlocks per mutex in this run (the engine's mutex state's release count).
    releases: Vec<u32>,
    /// Every poll under a mutex ([`ThreadBuilder::poll_under_mutex`]): the site of its
    /// wait (or, as a bounded loop, of its give-up) and what it polls.
    pub(crate) polls: Vec<(crate::program::Site, Poll)>,
    /// The await count of each other synchronising object in this run (semaphores,
    /// read-write locks, condition variables: [`Action::moves_await_count`]).
    sync_counts: Vec<(ObjId, u32)>,
    /// Whether a thread's unlock can be weak (`ThreadRt::clean_unlock`): not in a program
    /// with a `trylock` retry loop or a timed condition wait poll, which wait for every
    /// unlock of the mutex (a weak unlock would not wake them); the C runtime decides per
    /// program too (docs/memory.md, "Two pollers of one mutex").
    weak_unlocks: bool,
    /// Whether a wait on variables after visible loads only is an assumption
    /// ([`crate::Awaited::assume`]; on by default, as in the C runtime;
    /// [`Model::without_assumptions`]).
    assumptions: bool,
}

/// Whether some thread of `codes` retries a failed `trylock` (or `timedlock`) of a mutex
/// in a loop that waits for the mutex's unlocks, or makes a timed condition wait poll
/// ([`Model::weak_unlocks`]). (The C runtime, which cannot tell a retry loop from a lone
/// `trylock` before running the program, is more cautious: any `trylock` turns weak
/// unlocks off.)
fn codes_try_mutexes(codes: &[Code]) -> bool {
    codes.iter().flat_map(|c| &c.instrs).any(|i| match i {
        Instr::AwaitTried(objs, _) => objs.iter().any(|o| o.0 < VAR_BASE),
        Instr::AwaitUnlock(_, _, syncs) => !syncs.is_empty(),
        _ => false,
    })
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "model: {} mutexes, vars {:?}", self.nmutex, self.var_init)?;
        for (i, c) in self.codes.iter().enumerate() {
            writeln!(f, "code {i} ({}), {} regs:", c.name, c.nregs)?;
            for (pc, ins) in c.instrs.iter().enumerate() {
                writeln!(f, "  {pc:3}: {ins:?}")?;
            }
        }
        Ok(())
    }
}

/// Object id of mutex `k`.
pub fn mutex_obj(k: u32) -> ObjId {
    ObjId(k as u64)
}

/// Object id of variable `k`.
pub fn var_obj(k: u32) -> ObjId {
    ObjId(VAR_BASE + k as u64)
}

impl Model {
    pub(crate) fn new(codes: Vec<Code>, var_init: Vec<i64>, word: Vec<u32>, bytes: Vec<Bytes>, nmutex: usize) -> Model {
        Model {
            var_init,
            word,
            bytes,
            nmutex,
            names: ThreadNames::new(),
            threads: Vec::new(),
            vars: Vec::new(),
            owner: Vec::new(),
            rw_held: Vec::new(),
            sched: SchedState::default(),
            plain_visible: false,
            awaited_stores_visible: false,
            race: RaceDetector::default(),
            writes: Vec::new(),
            releases: Vec::new(),
            polls: Vec::new(),
            sync_counts: Vec::new(),
            weak_unlocks: !codes_try_mutexes(&codes),
            assumptions: true,
            codes,
        }
    }

    /// Every poll of the program ([`ThreadBuilder::poll_under_mutex`]).
    pub fn polls(&self) -> Vec<Poll> {
        self.polls.iter().map(|p| p.1).collect()
    }

    /// The poll whose wait (or give-up, [`ModelBuilder::polls_as_bounded_loops`]) is at
    /// `site`, if any.
    pub fn poll_at(&self, site: crate::program::Site) -> Option<Poll> {
        self.polls.iter().find(|p| p.0 == site).map(|p| p.1)
    }

    /// The threads left with a pending action after the last run (blocked at its end, or
    /// still there when the process exited), with that action.
    pub fn pending_actions(&self) -> Vec<(ThreadId, Action)> {
        self.threads
            .iter()
            .enumerate()
            .filter(|(_, t)| t.exists)
            .filter_map(|(i, t)| Some((ThreadId(i as u16), t.pending?)))
            .collect()
    }

    /// Where thread `t` stands after the last run (its pending or failed instruction).
    pub fn thread_site(&self, t: ThreadId) -> crate::program::Site {
        let th = &self.threads[t.index()];
        ((th.code as u64) << 32) | th.pc as u64
    }

    /// The same program with every plain `load`/`store` a visible step (a read or write
    /// of the variable's object) instead of an invisible access checked for data races:
    /// what `--memory sc` is to a C program.
    pub fn with_plain_accesses_visible(mut self) -> Model {
        self.plain_visible = true;
        self
    }

    /// The same program with the C runtime's rule for plain writes in race mode: a plain
    /// `store` to a variable whose memory word a spin-wait of another thread is pending
    /// on ([`Action::Await`]) is a visible write of that word, so that the waiter wakes;
    /// any other plain store stays invisible. Whether a store is a step then depends on
    /// what the other threads are doing, not only on what the storing thread read: with
    /// two variables in one word ([`ModelBuilder::var_in_word_of`]) this reproduces
    /// programs on which no explorer of the DPOR family can be complete (see
    /// `docs/memory.md`, "Spin-waits and plain writes to the same word").
    pub fn with_awaited_stores_visible(mut self) -> Model {
        self.awaited_stores_visible = true;
        self
    }

    /// The same program where every wait is an ordinary one, woken by a write, never an
    /// assumption ([`crate::Awaited::assume`]): every failed attempt is explored, as
    /// before assumptions existed (the reference their rule is checked against).
    pub fn without_assumptions(mut self) -> Model {
        self.assumptions = false;
        self
    }

    /// The memory object of variable `v`'s visible accesses (its word's).
    fn obj(&self, v: u32) -> ObjId {
        var_obj(self.word[v as usize])
    }

    /// Whether the step at `site` is a plain `load`/`store` (made visible by
    /// [`Model::with_plain_accesses_visible`]) rather than an atomic access.
    pub fn is_plain_site(&self, site: crate::program::Site) -> bool {
        let (code, pc) = ((site >> 32) as usize, (site & 0xffff_ffff) as usize);
        matches!(self.codes.get(code).and_then(|c| c.instrs.get(pc)), Some(Instr::Load(..) | Instr::Store(..)))
    }

    /// Number of thread codes (code 0 is main).
    pub fn code_count(&self) -> usize {
        self.codes.len()
    }

    /// Total number of visible instructions over all codes (a size measure).
    pub fn visible_instructions(&self) -> usize {
        self.codes.iter().flat_map(|c| c.instrs.iter()).filter(|i| i.is_visible()).count()
    }

    /// The final value of variable `v` after the last run.
    pub fn var_value(&self, v: Var) -> i64 {
        self.vars[v.0 as usize]
    }

    /// The final values of every variable after the last run.
    pub fn var_values(&self) -> &[i64] {
        &self.vars
    }

    /// The creation path of thread `t` (see [`ThreadNames`]).
    pub fn thread_path(&self, t: ThreadId) -> Vec<u32> {
        self.names.path(t)
    }

    fn reset(&mut self) {
        self.vars.clear();
        self.vars.extend_from_slice(&self.var_init);
        self.owner.clear();
        self.owner.resize(self.nmutex, None);
        self.rw_held.clear();
        self.race.reset();
        self.writes.clear();
        self.writes.resize(self.var_init.len(), ByteWrites::default());
        self.releases.clear();
        self.releases.resize(self.nmutex, 0);
        self.sync_counts.clear();
        for t in &mut self.threads {
            t.exists = false;
            t.pending = None;
        }
    }

    fn spawn_thread(&mut self, id: ThreadId, code: u32) {
        let i = id.index();
        if self.threads.len() <= i {
            self.threads.resize_with(i + 1, ThreadRt::default);
        }
        let nregs = self.codes[code as usize].nregs;
        let t = &mut self.threads[i];
        t.exists = true;
        t.code = code;
        t.pc = 0;
        t.spawned = 0;
        t.pending = None;
        t.seen.clear();
        t.unlocked.clear();
        t.last_unlock = None;
        t.clean_unlock = None;
        t.tried.clear();
        t.plain_read = false;
        t.regs.clear();
        t.regs.resize(nregs, 0);
    }

    /// Run thread `tid`'s local code up to its next visible action and record it as the
    /// pending action (or `None` if the thread stops). `after_steps` counts the steps
    /// done, including the one being performed.
    fn advance(&mut self, tid: ThreadId, out: &mut Execution, after_steps: usize) {
        let ti = tid.index();
        let code = self.threads[ti].code as usize;
        let mut fuel: u32 = 1_000_000;
        loop {
            fuel -= 1;
            let pc = self.threads[ti].pc as usize;
            let site = ((code as u64) << 32) | pc as u64;
            let instr = &self.codes[code].instrs[pc];
            let store_step = match instr {
                Instr::Store(v, _) if self.awaited_stores_visible => {
                    let (o, b) = (self.obj(*v), self.bytes[*v as usize]);
                    self.threads.iter().enumerate().any(|(u, th)| {
                        u != ti
                            && th.exists
                            && matches!(th.pending, Some(Action::Await(w)) if w.bytes_of(o).is_some_and(|m| m.overlaps(b)))
                    })
                }
                _ => false,
            };
            let (word, bytes, writes) = (&self.word, &self.bytes, &self.writes);
            let obj = |v: u32| var_obj(word[v as usize]);
            let at = |v: u32| bytes[v as usize];
            let t = &mut self.threads[ti];
            let defect = |kind: DefectKind, message: String| Defect {
                kind,
                message,
                thread: tid,
                site: Some(site),
                after_steps,
            };
            if fuel == 0 {
                // A local infinite loop: report it rather than hang the checker.
                out.defects.push(defect(DefectKind::Abort, "local code does not reach a visible action".into()));
                t.pending = None;
                return;
            }
            let pending = match instr {
                Instr::Lock(m) => {
                    if self.owner[*m as usize] == Some(tid) {
                        out.defects.push(defect(DefectKind::MutexMisuse, format!("relock of m{m}")));
                        t.pending = None;
                        return;
                    }
                    Action::Lock(mutex_obj(*m))
                }
                Instr::Unlock(m) => {
                    if self.owner[*m as usize] != Some(tid) {
                        out.defects.push(defect(DefectKind::MutexMisuse, format!("unlock of m{m}, not held")));
                        t.pending = None;
                        return;
                    }
                    Action::Unlock(mutex_obj(*m), !self.weak_unlocks || t.clean_unlock != Some(*m))
                }
                Instr::TryLock(m, _) => {
                    if self.owner[*m as usize] == Some(tid) {
                        out.defects.push(defect(DefectKind::MutexMisuse, format!("trylock of held m{m}")));
                        t.pending = None;
                        return;
                    }
                    Action::TryLock(mutex_obj(*m), false)
                }
                Instr::Read(_, v) => Action::Read(obj(*v), at(*v)),
                Instr::Write(v, _) => Action::Write(obj(*v), at(*v)),
                Instr::FetchAdd(_, v, _) | Instr::Exchange(_, v, _) | Instr::Cas(_, v, ..) => {
                    Action::Rmw(obj(*v), at(*v), true)
                }
                Instr::Spawn(..) => Action::Create(self.names.child(tid, t.spawned)),
                Instr::Join(e) => Action::Join(ThreadId(e.eval(&t.regs) as u16)),
                Instr::End => {
                    if tid == ThreadId::MAIN {
                        Action::ExitProcess
                    } else {
                        Action::Exit
                    }
                }
                Instr::Op(a, _) => match *a {
                    Action::RwUnlock(l, _) => match self.rw_held.iter().find(|&&(u, m, _)| u == tid && m == l) {
                        Some(&(_, _, write)) => Action::RwUnlock(l, write),
                        None => {
                            out.defects.push(defect(DefectKind::MutexMisuse, format!("unlock of {l:?}, not held")));
                            t.pending = None;
                            return;
                        }
                    },
                    Action::RdLock(l) | Action::WrLock(l) | Action::TryRdLock(l, _) | Action::TryWrLock(l, _)
                        if self.rw_held.iter().any(|&(u, m, _)| u == tid && m == l) =>
                    {
                        out.defects.push(defect(DefectKind::MutexMisuse, format!("relock of {l:?}")));
                        t.pending = None;
                        return;
                    }
                    a => a,
                },
                Instr::AwaitChange(vs) => {
                    let w = crate::Awaited::with_bytes(awaited_vars(vs, word, bytes, writes, &t.seen))
                        .expect("model: a spin-wait on 1 to MAX_AWAITED variables");
                    Action::Await(if self.assumptions && !t.plain_read { w.assume() } else { w })
                }
                Instr::AwaitUnlock(m, vs, syncs) => {
                    // A poll is an assumption, as in the C runtime, where weak unlocks are
                    // allowed; a timed condition wait poll (`syncs`: the condition
                    // variable) is not.
                    let assume = self.assumptions && self.weak_unlocks && syncs.is_empty();
                    let seen = t.unlocked.iter().find(|u| u.0 == *m).map_or(self.releases[*m as usize], |u| u.1);
                    let vars = awaited_vars(vs, word, bytes, writes, &t.seen);
                    let (releases, counts) = (&self.releases, &self.sync_counts);
                    let syncs = syncs.iter().map(|&o| {
                        (o, t.tried.iter().find(|x| x.0 == o).map_or_else(|| sync_count(releases, counts, o), |x| x.1))
                    });
                    let whole = |(o, v)| (o, Bytes::ALL, v);
                    let w = crate::Awaited::with_bytes(
                        std::iter::once((mutex_obj(*m), seen)).chain(syncs).map(whole).chain(vars),
                    )
                    .expect("model: a poll waits on a mutex and at most MAX_AWAITED - 1 other objects");
                    Action::Await(if assume { w.assume() } else { w })
                }
                Instr::AwaitTried(syncs, vs) => {
                    let (releases, counts) = (&self.releases, &self.sync_counts);
                    let syncs = syncs.iter().map(|&o| {
                        (o, t.tried.iter().find(|x| x.0 == o).map_or_else(|| sync_count(releases, counts, o), |x| x.1))
                    });
                    let vars = awaited_vars(vs, word, bytes, writes, &t.seen);
                    let w = crate::Awaited::with_bytes(syncs.map(|(o, v)| (o, Bytes::ALL, v)).chain(vars))
                        .expect("model: a try retry loop waits on 1 to MAX_AWAITED objects");
                    // A retry loop of tries is an assumption, as in the C runtime.
                    Action::Await(if self.assumptions { w.assume() } else { w })
                }
                Instr::Load(_, v) if self.plain_visible => Action::Read(obj(*v), at(*v)),
                Instr::Store(v, _) if self.plain_visible || store_step => Action::Write(obj(*v), at(*v)),
                Instr::Load(r, v) => {
                    if let Some(r) = self.race.on_access(tid, var_addr(*v), 8, false, false, site) {
                        out.defects.push(race_defect(&r, after_steps));
                    }
                    t.regs[r.0 as usize] = self.vars[*v as usize];
                    t.plain_read = true;
                    t.pc += 1;
                    continue;
                }
                Instr::Store(v, e) => {
                    if let Some(r) = self.race.on_access(tid, var_addr(*v), 8, true, false, site) {
                        out.defects.push(race_defect(&r, after_steps));
                    }
                    self.vars[*v as usize] = e.eval(&t.regs);
                    t.clean_unlock = None;
                    t.pc += 1;
                    continue;
                }
                Instr::Set(r, e) => {
                    t.regs[r.0 as usize] = e.eval(&t.regs);
                    t.pc += 1;
                    continue;
                }
                Instr::ReleasesUnchanged(r, m) => {
                    let seen = match t.last_unlock {
                        Some((u, n)) if u == *m => n,
                        _ => 0,
                    };
                    t.regs[r.0 as usize] = (self.releases[*m as usize] == seen) as i64;
                    t.pc += 1;
                    continue;
                }
                Instr::JumpIfZero(e, target) => {
                    t.pc = if e.eval(&t.regs) == 0 { *target } else { t.pc + 1 };
                    continue;
                }
                Instr::Jump(target) => {
                    t.pc = *target;
                    continue;
                }
                Instr::Assert(e, msg) => {
                    if e.eval(&t.regs) == 0 {
                        out.defects.push(defect(DefectKind::Assertion, msg.clone()));
                        t.pending = None;
                        return;
                    }
                    t.pc += 1;
                    continue;
                }
                Instr::Assume(e) => {
                    if e.eval(&t.regs) == 0 {
                        out.assumed.push(tid);
                        t.pending = None;
                        return;
                    }
                    t.pc += 1;
                    continue;
                }
            };
            t.pending = Some(pending);
            return;
        }
    }

    /// Perform thread `tid`'s pending visible instruction, which the engine resolved to
    /// `action` with `result` for the thread, and run the thread (and a created one) to
    /// its next visible action.
    fn perform(&mut self, tid: ThreadId, action: Action, result: u64, out: &mut Execution) -> Step {
        let ti = tid.index();
        let code = self.threads[ti].code as usize;
        let pc = self.threads[ti].pc as usize;
        let site = ((code as u64) << 32) | pc as u64;
        // A read-modify-write's outcome (the engine requested `Rmw(o, true)`): whether it
        // changes the value, and for a compare-exchange whether it succeeds.
        let (changed, failed_cas) = {
            let regs = &self.threads[ti].regs;
            match &self.codes[code].instrs[pc] {
                Instr::FetchAdd(_, _, e) => (e.eval(regs) != 0, false),
                Instr::Exchange(_, v, e) => (e.eval(regs) != self.vars[*v as usize], false),
                Instr::Cas(_, v, exp, new) => {
                    let old = self.vars[*v as usize];
                    let ok = old == exp.eval(regs);
                    (ok && new.eval(regs) != old, !ok)
                }
                _ => (true, false),
            }
        };
        let action = match action {
            Action::Rmw(o, b, _) => Action::Rmw(o, b, changed),
            a => a,
        };
        if let Action::Write(o, b) | Action::Rmw(o, b, _) = action {
            if action.moves_writes() {
                self.writes[(o.0 - VAR_BASE) as usize].write(b);
            }
        }
        // Happens-before of the step, before the thread runs on (as the C runtime: a
        // failed compare-exchange is a load that acquires).
        match (&self.codes[code].instrs[pc], action) {
            (
                Instr::Read(_, v)
                | Instr::Write(v, _)
                | Instr::FetchAdd(_, v, _)
                | Instr::Exchange(_, v, _)
                | Instr::Cas(_, v, ..),
                a,
            ) => {
                let (op, write) = match a {
                    Action::Read(..) => (AtomicOp::Load, false),
                    Action::Write(..) => (AtomicOp::Store, true),
                    _ if failed_cas => (AtomicOp::FailedRmw, false),
                    _ => (AtomicOp::Rmw, true),
                };
                // Synchronisation per variable (its exact location), as the C runtime keys
                // it: a store to another variable of the word must not replace what this
                // one released.
                let (o, mo) = (ObjId(var_addr(*v)), MemoryOrder::SeqCst);
                if let Some(r) = self.race.atomic_access(tid, o, op, mo, var_addr(*v), 8, write, site) {
                    out.defects.push(race_defect(&r, out.steps.len() + 1));
                }
            }
            (Instr::Store(v, _), _) if !self.plain_visible => {
                // A plain store made a step by a waiter (with_awaited_stores_visible):
                // still a plain access for the race detector.
                if let Some(r) = self.race.on_access(tid, var_addr(*v), 8, true, false, site) {
                    out.defects.push(race_defect(&r, out.steps.len() + 1));
                }
            }
            (
                Instr::Load(..)
                | Instr::Store(..)
                | Instr::AwaitChange(_)
                | Instr::AwaitUnlock(..)
                | Instr::AwaitTried(..),
                _,
            ) => {}
            (_, a) => self.race.on_step(tid, a),
        }
        let mut child: Option<(ThreadId, u32)> = None;
        {
            let t = &mut self.threads[ti];
            match &self.codes[code].instrs[pc] {
                Instr::Lock(m) => self.owner[*m as usize] = Some(tid),
                Instr::Unlock(m) => {
                    self.owner[*m as usize] = None;
                    let n = &mut self.releases[*m as usize];
                    if action.moves_await_count() {
                        *n = n.wrapping_add(1);
                    }
                    match t.unlocked.iter_mut().find(|u| u.0 == *m) {
                        Some(u) => u.1 = *n,
                        None => t.unlocked.push((*m, *n)),
                    }
                    t.last_unlock = Some((*m, *n));
                }
                Instr::TryLock(m, r) => {
                    if result == 1 {
                        self.owner[*m as usize] = Some(tid);
                    }
                    t.regs[r.0 as usize] = result as i64;
                }
                Instr::Load(r, v) => t.regs[r.0 as usize] = self.vars[*v as usize],
                Instr::Store(v, e) => self.vars[*v as usize] = e.eval(&t.regs),
                Instr::Read(r, v) => {
                    t.regs[r.0 as usize] = self.vars[*v as usize];
                    let wv = self.word[*v as usize];
                    saw(&mut t.seen, wv, self.bytes[*v as usize], &self.writes[wv as usize]);
                }
                Instr::Write(v, e) => self.vars[*v as usize] = e.eval(&t.regs),
                Instr::FetchAdd(r, v, e) => {
                    let old = self.vars[*v as usize];
                    self.vars[*v as usize] = old.wrapping_add(e.eval(&t.regs));
                    t.regs[r.0 as usize] = old;
                }
                Instr::Exchange(r, v, e) => {
                    let old = self.vars[*v as usize];
                    self.vars[*v as usize] = e.eval(&t.regs);
                    t.regs[r.0 as usize] = old;
                }
                Instr::Cas(r, v, exp, new) => {
                    let old = self.vars[*v as usize];
                    if old == exp.eval(&t.regs) {
                        self.vars[*v as usize] = new.eval(&t.regs);
                    }
                    t.regs[r.0 as usize] = old;
                }
                Instr::Spawn(r, c) => {
                    let Action::Create(id) = action else { unreachable!("checker bug: spawn performed as {action:?}") };
                    t.spawned += 1;
                    t.regs[r.0 as usize] = id.0 as i64;
                    child = Some((id, *c));
                }
                Instr::Join(_)
                | Instr::End
                | Instr::AwaitChange(_)
                | Instr::AwaitUnlock(..)
                | Instr::AwaitTried(..) => {}
                Instr::Op(_, r) => {
                    match action {
                        Action::RdLock(l) | Action::TryRdLock(l, true) => self.rw_held.push((tid, l, false)),
                        Action::WrLock(l) | Action::TryWrLock(l, true) => self.rw_held.push((tid, l, true)),
                        Action::RwUnlock(l, _) => self.rw_held.retain(|&(u, m, _)| !(u == tid && m == l)),
                        _ => {}
                    }
                    if let Some(r) = r {
                        t.regs[r.0 as usize] = result as i64;
                    }
                }
                other => unreachable!("checker bug: performing invisible instruction {other:?}"),
            }
            // What makes the thread's next unlock weak (see `ThreadRt::clean_unlock`).
            t.clean_unlock = match (action, t.clean_unlock) {
                (Action::Unlock(m, _), _) => Some((m.0) as u32),
                (Action::Lock(m), Some(c)) if m == mutex_obj(c) => Some(c),
                (Action::Await(_), c) => c,
                _ => None,
            };
            if action.moves_await_count()
                && matches!(action.obj_kind(), Some(ObjKind::Semaphore | ObjKind::RwLock | ObjKind::CondVar))
            {
                let o = action.object().expect("an object operation");
                match self.sync_counts.iter_mut().find(|x| x.0 == o) {
                    Some(x) => x.1 = x.1.wrapping_add(1),
                    None => self.sync_counts.push((o, 1)),
                }
            }
            if action.is_failed_try() || matches!(action, Action::CondWait(_)) {
                // A failed try is a load of its object for spin-waits (as the C runtime
                // logs it), and so is joining a condition variable's waiters (a timed
                // wait that then times out changes nothing): a wait after it waits for
                // the object's await count to move past this.
                let o = action.object().expect("an object operation");
                let n = sync_count(&self.releases, &self.sync_counts, o);
                match t.tried.iter_mut().find(|x| x.0 == o) {
                    Some(x) => x.1 = n,
                    None => t.tried.push((o, n)),
                }
            }
            if !matches!(action, Action::Read(..) | Action::Rmw(_, _, false)) {
                t.plain_read = false;
            }
            if let Action::Rmw(o, b, false) = action {
                // An unchanged read-modify-write is a load for spin-waits (as the C
                // runtime logs it): a wait after it waits for a change past this count.
                let v = (o.0 - VAR_BASE) as u32;
                saw(&mut t.seen, v, b, &self.writes[v as usize]);
            }
            t.pc += 1;
        }
        let mut child_next = None;
        if let Some((id, c)) = child {
            self.spawn_thread(id, c);
            self.advance(id, out, out.steps.len() + 1);
            child_next = self.threads[id.index()].pending;
        }
        let next = if matches!(action, Action::Exit | Action::ExitProcess) {
            self.threads[ti].pending = None;
            None
        } else {
            self.advance(tid, out, out.steps.len() + 1);
            self.threads[ti].pending
        };
        Step { thread: tid, action, site, next, child_next }
    }
}

/// A thread read bytes `b` of word `w`, whose write counts are `now`: record them in
/// its `seen` (`ThreadRt::seen`).
fn saw(seen: &mut Vec<(u32, ByteWrites)>, w: u32, b: Bytes, now: &ByteWrites) {
    let k = match seen.iter().position(|s| s.0 == w) {
        Some(k) => k,
        None => {
            seen.push((w, *now));
            seen.len() - 1
        }
    };
    for i in b.iter() {
        seen[k].1 .0[i] = now.0[i];
    }
}

/// The entries of a spin-wait on variables `vs` ([`Instr::AwaitChange`]): one per word,
/// on the bytes of its variables, with the count of those bytes when the thread last
/// read them (now, for a word it never read), as the C runtime merges the reads of an
/// iteration.
fn awaited_vars(
    vs: &[u32],
    word: &[u32],
    bytes: &[Bytes],
    writes: &[ByteWrites],
    seen: &[(u32, ByteWrites)],
) -> Vec<crate::action::AwaitEntry> {
    let mut words: Vec<(u32, Bytes)> = Vec::new();
    for &v in vs {
        let (w, b) = (word[v as usize], bytes[v as usize]);
        match words.iter_mut().find(|x| x.0 == w) {
            Some(x) => x.1 = x.1.union(b),
            None => words.push((w, b)),
        }
    }
    words
        .into_iter()
        .map(|(w, b)| {
            let counts = seen.iter().find(|s| s.0 == w).map_or(&writes[w as usize], |s| &s.1);
            (var_obj(w), b, counts.count(b))
        })
        .collect()
}

/// The await count of synchronising object `o` now (a mutex's releases, the others'
/// counts, 0 if never moved).
fn sync_count(releases: &[u32], counts: &[(ObjId, u32)], o: ObjId) -> u32 {
    if o.0 < VAR_BASE {
        releases[o.0 as usize]
    } else {
        counts.iter().find(|x| x.0 == o).map_or(0, |x| x.1)
    }
}

/// The address standing for variable `v` in the race detector's shadow memory.
fn var_addr(v: u32) -> u64 {
    0x1000 + 8 * v as u64
}

fn race_defect(r: &Race, after_steps: usize) -> Defect {
    Defect {
        kind: DefectKind::DataRace,
        message: format!("data race between {} and {}", r.first.thread, r.second.thread),
        thread: r.second.thread,
        site: Some(r.second.site),
        after_steps,
    }
}

/// One run of a [`Model`] as a [`Frontend`] of the shared drive loop.
struct ModelRun<'a> {
    model: &'a mut Model,
    out: &'a mut Execution,
    /// The action of the step just performed, as performed (a read-modify-write's
    /// outcome).
    performed: Option<Action>,
}

impl Frontend for ModelRun<'_> {
    fn site(&self, t: ThreadId) -> crate::program::Site {
        let th = &self.model.threads[t.index()];
        ((th.code as u64) << 32) | th.pc as u64
    }

    fn perform(
        &mut self,
        _index: usize,
        t: ThreadId,
        action: Action,
        result: u64,
    ) -> Result<(Option<Action>, Option<Action>), ProgramError> {
        let step = self.model.perform(t, action, result, self.out);
        self.performed = Some(step.action);
        Ok((step.next, step.child_next))
    }

    fn performed_as(&mut self, _t: ThreadId, action: Action) -> Action {
        self.performed.take().unwrap_or(action)
    }

    fn finish(&mut self, _index: usize, step: &Step) -> Result<(), ProgramError> {
        self.out.steps.push(*step);
        Ok(())
    }
}

impl Program for Model {
    fn run(&mut self, req: &RunRequest<'_>, out: &mut Execution) -> Result<(), ProgramError> {
        out.clear();
        self.reset();
        self.spawn_thread(ThreadId::MAIN, 0);
        self.advance(ThreadId::MAIN, out, 0);
        out.first = self.threads[0].pending;
        let mut state = std::mem::take(&mut self.sched);
        let first = out.first;
        let end = drive(req, first, &mut state, &mut ModelRun { model: self, out, performed: None });
        if let Ok(crate::program::End::Deadlock { .. }) = end {
            // A spin's assumption that failed: not a deadlock.
            out.assumed.extend(state.failed_assumptions());
        }
        self.sched = state;
        out.end = end?;
        Ok(())
    }

    /// Runs, then hands `early` prefixes of the steps in chunks of 1, 2, 3, 1, 2, 3...
    /// steps, never the whole execution: the model runs in the explorer's thread, so this
    /// streams nothing in time, but it puts every explorer's handling of early steps
    /// under the model's tests.
    fn run_streaming(
        &mut self,
        req: &RunRequest<'_>,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
    ) -> Result<(), ProgramError> {
        self.run(req, out)?;
        let mut k = 0;
        for chunk in [1, 2, 3].into_iter().cycle() {
            k += chunk;
            if k >= out.steps.len() {
                break;
            }
            early(&out.steps[..k]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
