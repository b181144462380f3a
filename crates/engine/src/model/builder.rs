//! The builder API of the test model.
//!
//! ```
//! use unfold_engine::model::ModelBuilder;
//! let mut b = ModelBuilder::new();
//! let m = b.mutex();
//! let x = b.var(0);
//! let w = b.thread("w", |t| {
//!     t.lock(m);
//!     t.store(x, 7);
//!     t.unlock(m);
//! });
//! b.main(|t| {
//!     let h = t.spawn(w);
//!     t.lock(m);
//!     let v = t.load(x);
//!     t.unlock(m);
//!     t.join(h);
//!     t.assert(v.eq(0), "w ran first");
//! });
//! let model = b.build();
//! assert_eq!(model.code_count(), 2);
//! ```

use super::{BinOp, Code, Instr, Model};
use crate::action::{Action, Bytes};
use crate::ids::ObjId;

/// A per-thread register.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Reg(pub(crate) u32);

/// A mutex of the model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Mutex(pub(crate) u32);

/// A shared integer variable of the model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Var(pub(crate) u32);

impl Var {
    /// The variable's index (the order it was declared in; see [`Model::var_values`]).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A thread code (code 0 is main).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CodeId(pub(crate) u32);

/// A jump target inside one thread code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Label(u32);

/// An integer expression over the thread's registers (booleans are 0/1).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Expr {
    /// A constant.
    Const(i64),
    /// A register.
    Reg(Reg),
    /// A binary operation.
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// Logical negation (0 → 1, anything else → 0).
    Not(Box<Expr>),
}

impl From<i64> for Expr {
    fn from(v: i64) -> Expr {
        Expr::Const(v)
    }
}

impl From<Reg> for Expr {
    fn from(r: Reg) -> Expr {
        Expr::Reg(r)
    }
}

macro_rules! binops {
    ($($name:ident => $op:ident),* $(,)?) => {
        impl Expr {
            $(
                #[doc = concat!("`self ", stringify!($name), " other`.")]
                #[allow(clippy::should_implement_trait)]
                pub fn $name(self, other: impl Into<Expr>) -> Expr {
                    Expr::Bin(BinOp::$op, Box::new(self), Box::new(other.into()))
                }
            )*
        }
        impl Reg {
            $(
                #[doc = concat!("`self ", stringify!($name), " other`.")]
                #[allow(clippy::should_implement_trait)]
                pub fn $name(self, other: impl Into<Expr>) -> Expr {
                    Expr::from(self).$name(other)
                }
            )*
        }
    };
}

binops!(add => Add, sub => Sub, mul => Mul, rem => Rem, eq => Eq, ne => Ne, lt => Lt, le => Le, and => And, or => Or);

impl Expr {
    /// Logical negation.
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Expr {
        Expr::Not(Box::new(self))
    }

    /// Evaluate over a register file.
    pub(crate) fn eval(&self, regs: &[i64]) -> i64 {
        match self {
            Expr::Const(v) => *v,
            Expr::Reg(r) => regs[r.0 as usize],
            Expr::Not(e) => (e.eval(regs) == 0) as i64,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(regs), b.eval(regs));
                match op {
                    BinOp::Add => a.wrapping_add(b),
                    BinOp::Sub => a.wrapping_sub(b),
                    BinOp::Mul => a.wrapping_mul(b),
                    BinOp::Rem => {
                        if b == 0 {
                            0
                        } else {
                            a.wrapping_rem(b)
                        }
                    }
                    BinOp::Eq => (a == b) as i64,
                    BinOp::Ne => (a != b) as i64,
                    BinOp::Lt => (a < b) as i64,
                    BinOp::Le => (a <= b) as i64,
                    BinOp::And => (a != 0 && b != 0) as i64,
                    BinOp::Or => (a != 0 || b != 0) as i64,
                }
            }
        }
    }
}

impl Reg {
    /// The register as an expression.
    pub fn e(self) -> Expr {
        Expr::Reg(self)
    }
}

/// A condition variable of a model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cond(pub(crate) ObjId);

/// A semaphore of a model (initialised with [`ThreadBuilder::sem_init`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sem(pub(crate) ObjId);

/// A read-write lock of a model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RwLock(pub(crate) ObjId);

/// A barrier of a model (initialised with [`ThreadBuilder::barrier_init`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Barrier(pub(crate) ObjId);

/// Builds a [`Model`]: declare mutexes and variables, then thread codes, then main.
#[derive(Debug, Default)]
pub struct ModelBuilder {
    codes: Vec<Option<Code>>,
    var_init: Vec<i64>,
    word: Vec<u32>,
    bytes: Vec<Bytes>,
    nmutex: u32,
    nsync: u64,
    /// [`ModelBuilder::polls_as_bounded_loops`].
    poll_bound: Option<u32>,
    /// [`ModelBuilder::poll_warmup`].
    poll_warmup: u32,
    /// The polls of every code built so far: (code index, pc of the poll's wait or
    /// give-up instruction, what it polls).
    polls: Vec<(u32, u32, Poll)>,
}

/// What a poll under a mutex ([`ThreadBuilder::poll_under_mutex`]) reads: its flag (a
/// plain variable guarded by the mutex), the variable it also reads atomically, if any,
/// and whether it consumes (decrements the flag when it finds it positive).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Poll {
    /// The polled variable.
    pub flag: Var,
    /// The variable also read atomically in the critical section.
    pub also: Option<Var>,
    /// Whether the poll takes one unit of `flag` when it finds it positive.
    pub consume: bool,
}

impl ModelBuilder {
    /// An empty builder (main must be given with [`ModelBuilder::main`]).
    pub fn new() -> Self {
        ModelBuilder {
            codes: vec![None],
            var_init: Vec::new(),
            word: Vec::new(),
            bytes: Vec::new(),
            nmutex: 0,
            nsync: 0,
            poll_bound: None,
            poll_warmup: 2,
            polls: Vec::new(),
        }
    }

    fn sync_obj(&mut self) -> ObjId {
        self.nsync += 1;
        ObjId(super::SYNC_BASE + self.nsync - 1)
    }

    /// A new condition variable.
    pub fn cond(&mut self) -> Cond {
        Cond(self.sync_obj())
    }

    /// A new semaphore (value 0 until a thread runs [`ThreadBuilder::sem_init`]).
    pub fn sem(&mut self) -> Sem {
        Sem(self.sync_obj())
    }

    /// A new read-write lock, initially free.
    pub fn rwlock(&mut self) -> RwLock {
        RwLock(self.sync_obj())
    }

    /// A new barrier (to be initialised with [`ThreadBuilder::barrier_init`]).
    pub fn barrier(&mut self) -> Barrier {
        Barrier(self.sync_obj())
    }

    /// A new mutex, initially free.
    pub fn mutex(&mut self) -> Mutex {
        self.nmutex += 1;
        Mutex(self.nmutex - 1)
    }

    /// A new shared variable with an initial value (a whole memory word).
    pub fn var(&mut self, init: i64) -> Var {
        self.var_bytes(init, Bytes::ALL)
    }

    /// A new shared variable with an initial value in the given bytes of a new memory
    /// word (as an `int` at offset 0 of its word in C): more variables may share the
    /// word ([`ModelBuilder::var_beside`]).
    pub fn var_bytes(&mut self, init: i64, bytes: Bytes) -> Var {
        self.var_init.push(init);
        self.word.push(self.var_init.len() as u32 - 1);
        self.bytes.push(bytes);
        Var(self.var_init.len() as u32 - 1)
    }

    /// A new shared variable in bytes `bytes` of the memory word of `of` (as `count` and
    /// `sense` in `atomic_int count, sense;`): it has its own value; its visible
    /// accesses operate on `of`'s memory object, touching `bytes`, so they are dependent
    /// with the accesses to the word that touch a common byte (all of them in
    /// all-dependent mode), and a spin-wait reading it watches those bytes. Overlapping
    /// bytes stand for one C object accessed at two sizes (the model keeps the values
    /// apart: it checks the explorers, not the arithmetic of overlapping objects).
    pub fn var_beside(&mut self, of: Var, init: i64, bytes: Bytes) -> Var {
        let w = self.word[of.0 as usize];
        self.var_init.push(init);
        self.word.push(w);
        self.bytes.push(bytes);
        Var(self.var_init.len() as u32 - 1)
    }

    /// A new shared variable in the same memory word as `of` (as two `int`s of one
    /// 8-byte word in C): it has its own value and its plain accesses are checked for
    /// races on their own, but its visible accesses operate on `of`'s memory object, so
    /// they are dependent with `of`'s and a spin-wait on either watches both.
    pub fn var_in_word_of(&mut self, of: Var, init: i64) -> Var {
        self.var_beside(of, init, Bytes::ALL)
    }

    /// A new thread code, built by `f`.
    pub fn thread(&mut self, name: &str, f: impl FnOnce(&mut ThreadBuilder)) -> CodeId {
        let (code, polls) = ThreadBuilder::build(name, (self.poll_bound, self.poll_warmup), f);
        self.codes.push(Some(code));
        let id = self.codes.len() as u32 - 1;
        self.polls.extend(polls.into_iter().map(|(pc, p)| (id, pc, p)));
        CodeId(id)
    }

    /// The code of main.
    pub fn main(&mut self, f: impl FnOnce(&mut ThreadBuilder)) {
        let (code, polls) = ThreadBuilder::build("main", (self.poll_bound, self.poll_warmup), f);
        self.codes[0] = Some(code);
        self.polls.extend(polls.into_iter().map(|(pc, p)| (0, pc, p)));
    }

    /// Build every later [`ThreadBuilder::poll_under_mutex`] as the real loop, without
    /// waits: up to `k` iterations (`lock; read; unlock`, leaving when the flag is
    /// set), then the thread gives up (a failed `assume`: it stops, listed in
    /// [`crate::Execution::assumed`]). The same program with and without it is the
    /// independent oracle of the waits and weak unlocks a poll makes
    /// (`crates/engine/tests/dpor.rs`, `polls_lose_no_behaviour_of_the_real_loops`).
    pub fn polls_as_bounded_loops(&mut self, k: u32) {
        assert!(k >= 1, "at least one iteration");
        self.poll_bound = Some(k);
    }

    /// How many iterations every later [`ThreadBuilder::poll_under_mutex`] makes, after
    /// each start and each wake, before it compares one (2 by default: the C runtime's
    /// polls call the lock shims, so their first visit is not compared and the third
    /// finds the iteration pure). Fewer make smaller programs for brute force; the waits,
    /// the weak unlocks and the checks are the same.
    pub fn poll_warmup(&mut self, n: u32) {
        self.poll_warmup = n;
    }

    /// The model.
    ///
    /// # Panics
    /// If main was not given.
    pub fn build(self) -> Model {
        let codes = self.codes.into_iter().map(|c| c.expect("ModelBuilder: main was not given")).collect();
        let mut m = Model::new(codes, self.var_init, self.word, self.bytes, self.nmutex as usize);
        m.polls = self.polls.into_iter().map(|(c, pc, p)| (((c as u64) << 32) | pc as u64, p)).collect();
        m
    }
}

/// Builds the code of one thread. Every code ends with an implicit thread end.
#[derive(Debug)]
pub struct ThreadBuilder {
    instrs: Vec<Instr>,
    nregs: u32,
    // invariant: labels[l] is the pc of label l once placed (u32::MAX before).
    labels: Vec<u32>,
    /// [`ModelBuilder::polls_as_bounded_loops`].
    poll_bound: Option<u32>,
    /// [`ModelBuilder::poll_warmup`].
    poll_warmup: u32,
    /// The polls built: (pc of the wait, or of the give-up, what it polls).
    polls: Vec<(u32, Poll)>,
}

impl ThreadBuilder {
    fn build(name: &str, polls: (Option<u32>, u32), f: impl FnOnce(&mut ThreadBuilder)) -> (Code, Vec<(u32, Poll)>) {
        let mut t = ThreadBuilder {
            instrs: Vec::new(),
            nregs: 0,
            labels: Vec::new(),
            poll_bound: polls.0,
            poll_warmup: polls.1,
            polls: Vec::new(),
        };
        f(&mut t);
        t.instrs.push(Instr::End);
        // Resolve labels: jumps were emitted with label numbers.
        let labels = t.labels;
        for ins in &mut t.instrs {
            match ins {
                Instr::JumpIfZero(_, l) | Instr::Jump(l) => {
                    let pc = labels[*l as usize];
                    assert!(pc != u32::MAX, "ThreadBuilder: label used but never placed");
                    *l = pc;
                }
                _ => {}
            }
        }
        (Code { name: name.to_string(), instrs: t.instrs, nregs: t.nregs as usize }, t.polls)
    }

    /// A fresh register, initially 0.
    pub fn reg(&mut self) -> Reg {
        self.nregs += 1;
        Reg(self.nregs - 1)
    }

    /// `lock(m)`: visible, blocks while `m` is held.
    pub fn lock(&mut self, m: Mutex) {
        self.instrs.push(Instr::Lock(m.0));
    }

    /// `unlock(m)`: visible.
    pub fn unlock(&mut self, m: Mutex) {
        self.instrs.push(Instr::Unlock(m.0));
    }

    /// `trylock(m)`: visible, never blocks; the result (1 acquired, 0 busy) in a register.
    pub fn trylock(&mut self, m: Mutex) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::TryLock(m.0, r));
        r
    }

    /// Invisible read of a shared variable (only inside critical sections).
    pub fn load(&mut self, v: Var) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Load(r, v.0));
        r
    }

    /// Invisible write of a shared variable (only inside critical sections).
    pub fn store(&mut self, v: Var, e: impl Into<Expr>) {
        self.instrs.push(Instr::Store(v.0, e.into()));
    }

    /// Visible read ([`crate::Action::Read`]).
    pub fn read(&mut self, v: Var) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Read(r, v.0));
        r
    }

    /// Visible write ([`crate::Action::Write`]).
    pub fn write(&mut self, v: Var, e: impl Into<Expr>) {
        self.instrs.push(Instr::Write(v.0, e.into()));
    }

    /// Visible atomic fetch-add ([`crate::Action::Rmw`]); returns the old value.
    pub fn fetch_add(&mut self, v: Var, e: impl Into<Expr>) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::FetchAdd(r, v.0, e.into()));
        r
    }

    /// Visible atomic exchange ([`crate::Action::Rmw`]); returns the old value.
    pub fn exchange(&mut self, v: Var, e: impl Into<Expr>) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Exchange(r, v.0, e.into()));
        r
    }

    /// Visible atomic compare-exchange ([`crate::Action::Rmw`]): `v` becomes `new` if
    /// it holds `expected`; returns the old value (the exchange succeeded iff it equals
    /// `expected`). A failed one leaves `v` unchanged: performed as `Rmw(v, false)`.
    pub fn cas(&mut self, v: Var, expected: impl Into<Expr>, new: impl Into<Expr>) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Cas(r, v.0, expected.into(), new.into()));
        r
    }

    /// A spinlock acquisition on `v` (0 free, 1 held) as the C runtime runs it: with
    /// `tas`, `while (atomic_exchange(&v, 1)) {}`, else
    /// `while (!atomic_compare_exchange_strong(&v, &(int){0}, 1)) {}`. A failed attempt
    /// changes nothing (an unchanged read-modify-write is a load), so the iteration is
    /// pure: the thread then waits for a write to `v` ([`crate::Action::Await`] with the
    /// write count its attempt saw) and tries again. Release with `write(v, 0)`.
    pub fn spin_lock(&mut self, v: Var, tas: bool) {
        let head = self.label();
        let done = self.label();
        self.place(head);
        let r = if tas { self.exchange(v, 1) } else { self.cas(v, 0, 1) };
        self.jump_if_zero(r.e(), done);
        self.await_change(&[v]);
        self.jump(head);
        self.place(done);
    }

    /// A lock-free increment `old = v; while (!CAS(&v, &old, old + k)) {}` (each failed
    /// attempt reloads `old`, so no iteration is pure: bounded by the other threads'
    /// changes). Returns the register holding the value replaced.
    pub fn cas_add(&mut self, v: Var, k: i64) -> Reg {
        let old = self.read(v);
        let head = self.label();
        let done = self.label();
        self.place(head);
        let r = self.cas(v, old.e(), old.add(k));
        self.jump_if(r.eq(old.e()), done);
        self.set(old, r.e());
        self.jump(head);
        self.place(done);
        old
    }

    fn op(&mut self, a: Action) {
        self.instrs.push(Instr::Op(a, None));
    }

    fn op_reg(&mut self, a: Action) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Op(a, Some(r)));
        r
    }

    /// `while (read(v) == 0) {}` as the C runtime runs it once it has seen one pure
    /// iteration: read; if zero, wait for another thread to write `v` ([`Action::Await`]),
    /// read again. Returns the register holding the (non-zero) value read.
    pub fn spin_until_nonzero(&mut self, v: Var) -> Reg {
        self.spin_until_any_nonzero(&[v])
    }

    /// `while (read(v1) == 0 && read(v2) == 0 ...) {}` as the C runtime runs it once it
    /// has seen one pure iteration: read the variables in order until one is non-zero;
    /// if all are zero, wait for another thread to write one of them ([`Action::Await`]
    /// on all of them), and start again. Returns the register of the first variable
    /// (non-zero unless another one ended the loop). At most
    /// [`crate::action::MAX_AWAITED`] distinct variables.
    pub fn spin_until_any_nonzero(&mut self, vs: &[Var]) -> Reg {
        assert!(!vs.is_empty() && vs.len() <= crate::action::MAX_AWAITED, "1 to MAX_AWAITED variables");
        let head = self.label();
        let done = self.label();
        self.place(head);
        let mut first = None;
        for &v in vs {
            let r = self.read(v);
            first.get_or_insert(r);
            self.jump_if(r.e(), done);
        }
        self.instrs.push(Instr::AwaitChange(vs.iter().map(|v| v.0).collect()));
        self.jump(head);
        self.place(done);
        first.expect("at least one variable")
    }

    /// A spin-wait on the given variables, as the C runtime makes one after a pure
    /// iteration that read them: blocked until another thread writes one of them
    /// ([`Action::Await`] with the write counts this thread saw at its last read of
    /// each). Build loops with it: read, test, `await_change`, jump back.
    pub fn await_change(&mut self, vs: &[Var]) {
        assert!(!vs.is_empty() && vs.len() <= crate::action::MAX_AWAITED, "1 to MAX_AWAITED variables");
        self.instrs.push(Instr::AwaitChange(vs.iter().map(|v| v.0).collect()));
    }

    /// `for (;;) { lock(m); r = flag; unlock(m); if (r) break; }` as the C runtime runs
    /// it: the read of the plain `flag` inside the critical section is the loop's
    /// checkpoint; its first visit is not compared (the lock shim ran before: see
    /// `crates/runtime/src/memory.rs`, "spin loops"), its second records the state, its
    /// third finds the iteration pure — if no other thread released `m` between the
    /// iteration's unlock and lock (`Instr::ReleasesUnchanged`: otherwise the next
    /// iteration is compared again) — and the thread then blocks at its next lock of `m`
    /// on a wait for another thread's unlock of `m` ([`Action::Await`] on the mutex, with
    /// its release count just after this thread's own unlock). After the wait the
    /// checkpoints start afresh. Its unlocks after the first are weak (the thread wrote
    /// nothing since its previous unlock: `Instr::Unlock`), so two pollers of one mutex
    /// do not wake each other. In a program with weak unlocks the wait is an assumption
    /// (never woken), as the C runtime makes it.
    ///
    /// With `also`, the iteration also reads that variable atomically inside the critical
    /// section (an acquire: its unlocks are not weak) and leaves when either is non-zero;
    /// the wait is then also on a write to it. With `consume`, a poll that finds `flag`
    /// positive decrements it before its unlock (a consumer taking an item). The model
    /// asserts what the runtime's wait relies on: an iteration found pure with no release
    /// of `m` by another thread since its unlock reads no new value, in a program without
    /// data races (docs/memory.md, "Two pollers of one mutex").
    ///
    /// Under [`ModelBuilder::polls_as_bounded_loops`] the poll is the real loop instead.
    /// Returns the register of `flag`'s last load.
    pub fn poll_under_mutex(&mut self, m: Mutex, flag: Var, also: Option<Var>, consume: bool) -> Reg {
        let info = Poll { flag, also, consume };
        let done = self.label();
        let (r, a, d) = (self.reg(), self.reg(), self.reg());
        // One iteration: lock, (the runtime's check), read, (consume), unlock, leave if
        // anything was found.
        let iteration = |t: &mut ThreadBuilder, checked: bool| {
            t.lock(m);
            if checked {
                t.instrs.push(Instr::ReleasesUnchanged(d, m.0));
            }
            t.instrs.push(Instr::Load(r, flag.0));
            if checked {
                t.assert(d.eq(0).or(r.eq(0)), "unfold model: a poll found pure read a new value");
            }
            if consume {
                t.if_(Expr::Const(0).lt(r), |t| t.store(flag, r.sub(1)));
            }
            if let Some(v) = also {
                t.instrs.push(Instr::Read(a, v.0));
            }
            t.unlock(m);
            t.jump_if(r.e(), done);
            if also.is_some() {
                t.jump_if(a.e(), done);
            }
        };
        match self.poll_bound {
            Some(k) => {
                for _ in 0..k {
                    iteration(self, false);
                }
                self.polls.push((self.instrs.len() as u32, info));
                self.assume(Expr::Const(0));
            }
            None => {
                let head = self.label();
                let again = self.label();
                self.place(head);
                for _ in 0..self.poll_warmup {
                    iteration(self, false);
                }
                self.place(again);
                iteration(self, true);
                self.jump_if_zero(d.e(), again);
                self.polls.push((self.instrs.len() as u32, info));
                self.instrs.push(Instr::AwaitUnlock(m.0, also.iter().map(|v| v.0).collect(), Vec::new()));
                self.jump(head);
            }
        }
        self.place(done);
        r
    }

    /// `while (try(o) fails) {}` as the C runtime runs it once it has seen a pure
    /// iteration: `try` (`pthread_mutex_trylock`, `sem_trywait`, `tryrdlock`,
    /// `trywrlock`, or a timed variant that timed out), and if it failed, wait for the
    /// object's await count to move past what this thread saw at its failed try
    /// ([`Action::Await`]: another thread's unlock, post or read-write unlock) and start
    /// again. With `also`, the iteration also reads that variable atomically after a
    /// failed try and leaves the loop (without the object) when it is non-zero; the wait
    /// then also ends on a write to it. Returns the register that is 1 when the try
    /// succeeded.
    fn try_spin(&mut self, try_: Instr, o: ObjId, r: Reg, also: Option<Var>) -> Reg {
        let head = self.label();
        let done = self.label();
        self.place(head);
        self.instrs.push(try_);
        self.jump_if(r.e(), done);
        if let Some(v) = also {
            let a = self.read(v);
            self.jump_if(a.e(), done);
        }
        self.instrs.push(Instr::AwaitTried(vec![o], also.iter().map(|v| v.0).collect()));
        self.jump(head);
        self.place(done);
        r
    }

    /// `while (pthread_mutex_trylock(m) != 0) {}` (also a `pthread_mutex_timedlock` or
    /// `pthread_spin_trylock` retry loop) as the C runtime runs it: see
    /// `ThreadBuilder::try_spin`. The thread holds `m` after it (unless `also` ended the
    /// loop: then the register is 0).
    pub fn trylock_spin(&mut self, m: Mutex, also: Option<Var>) -> Reg {
        let r = self.reg();
        self.try_spin(Instr::TryLock(m.0, r), super::mutex_obj(m.0), r, also)
    }

    /// `while (sem_trywait(s) != 0) {}` (also a `sem_timedwait` retry loop) as the C
    /// runtime runs it: waits for a post after a failed try.
    pub fn sem_trywait_spin(&mut self, s: Sem, also: Option<Var>) -> Reg {
        let r = self.reg();
        self.try_spin(Instr::Op(Action::SemTryWait(s.0, false), Some(r)), s.0, r, also)
    }

    /// `while (pthread_rwlock_tryrdlock(l) != 0) {}` (`trywrlock` with `write`; also the
    /// timed variants) as the C runtime runs it: waits for an unlock after a failed try.
    pub fn rw_try_spin(&mut self, l: RwLock, write: bool, also: Option<Var>) -> Reg {
        let r = self.reg();
        let a = if write { Action::TryWrLock(l.0, false) } else { Action::TryRdLock(l.0, false) };
        self.try_spin(Instr::Op(a, Some(r)), l.0, r, also)
    }

    /// `lock(m); while (!flag) pthread_cond_timedwait(c, m); unlock(m);` with a plain
    /// `flag` guarded by `m`, as the C runtime runs it once an iteration whose wait timed
    /// out was pure: the thread joins `c`'s waiters and releases `m`, then (still a
    /// waiter) waits for another thread's unlock of `m` or a signal or broadcast of `c`
    /// ([`Action::Await`] on both, with `m`'s release count after this thread's unlock
    /// and `c`'s signal count when it joined), then wakes (signalled if a signal is
    /// pending for it, else timed out), relocks `m` and tests the flag again. Returns the
    /// register holding the flag's last value.
    pub fn cond_timedwait_poll(&mut self, c: Cond, m: Mutex, flag: Var) -> Reg {
        let head = self.label();
        let done = self.label();
        self.lock(m);
        self.place(head);
        let f = self.load(flag);
        self.jump_if(f.e(), done);
        self.op(Action::CondWait(c.0));
        self.unlock(m);
        self.instrs.push(Instr::AwaitUnlock(m.0, Vec::new(), vec![c.0]));
        self.op_reg(Action::CondWake(c.0, true, false));
        self.lock(m);
        self.jump(head);
        self.place(done);
        self.unlock(m);
        f
    }

    /// [`ThreadBuilder::spin_until_any_nonzero`] on two variables with the wait placed
    /// as the C runtime may place it when the loop head's first visit did not match: one
    /// full iteration, then the loop `read(b); read(a); wait on (b, a)` entered at its
    /// second read. Returns the register of `a`'s last read.
    pub fn spin_until_either_nonzero_rotated(&mut self, a: Var, b: Var) -> Reg {
        let head = self.label();
        let done = self.label();
        let ra = self.read(a);
        self.jump_if(ra.e(), done);
        self.place(head);
        let rb = self.read(b);
        self.jump_if(rb.e(), done);
        let ra2 = self.read(a);
        self.set(ra, ra2.e());
        self.jump_if(ra.e(), done);
        self.instrs.push(Instr::AwaitChange(vec![b.0, a.0]));
        self.jump(head);
        self.place(done);
        ra
    }

    /// `while (read(a) == x && read(b) == y) {}` (Peterson's `want[other] && turn ==
    /// other`, and two-flag waits with other values than zero) as the C runtime runs it
    /// once it has seen a pure iteration: read `a`; if it differs from `x`, done; read
    /// `b`; if it differs from `y`, done; otherwise wait for a write to either
    /// ([`Action::Await`] on both) and start again. With `rotated`, the wait is placed
    /// as the runtime may place it when the loop head's first visit did not match: one
    /// full test, then the loop `read(b); read(a); wait on (b, a)` entered at its second
    /// read (the wait's locations in that order). `a` and `b` must differ.
    pub fn spin_while_both(&mut self, a: Var, x: i64, b: Var, y: i64, rotated: bool) {
        assert!(a != b, "two distinct variables");
        let head = self.label();
        let done = self.label();
        if rotated {
            let ra = self.read(a);
            self.jump_if(ra.ne(x), done);
            self.place(head);
            let rb = self.read(b);
            self.jump_if(rb.ne(y), done);
            let ra = self.read(a);
            self.jump_if(ra.ne(x), done);
            self.instrs.push(Instr::AwaitChange(vec![b.0, a.0]));
        } else {
            self.place(head);
            let ra = self.read(a);
            self.jump_if(ra.ne(x), done);
            let rb = self.read(b);
            self.jump_if(rb.ne(y), done);
            self.instrs.push(Instr::AwaitChange(vec![a.0, b.0]));
        }
        self.jump(head);
        self.place(done);
    }

    /// `pthread_cond_wait(c, m)`: join the waiters, release `m`, wait for a signal,
    /// reacquire `m` (four visible steps, see [`crate::objects::condvar`]).
    pub fn cond_wait(&mut self, c: Cond, m: Mutex) {
        self.op(Action::CondWait(c.0));
        self.unlock(m);
        self.op(Action::CondWake(c.0, false, true));
        self.lock(m);
    }

    /// `pthread_cond_timedwait(c, m)` (or a wait with spurious wake-ups): like
    /// [`ThreadBuilder::cond_wait`], but the wake never blocks; the register holds 1 if
    /// it was signalled, 0 on time-out.
    pub fn cond_timedwait(&mut self, c: Cond, m: Mutex) -> Reg {
        self.op(Action::CondWait(c.0));
        self.unlock(m);
        let r = self.op_reg(Action::CondWake(c.0, true, false));
        self.lock(m);
        r
    }

    /// `pthread_cond_signal(c)`.
    pub fn signal(&mut self, c: Cond) {
        self.op(Action::Signal(c.0));
    }

    /// `pthread_cond_broadcast(c)`.
    pub fn broadcast(&mut self, c: Cond) {
        self.op(Action::Broadcast(c.0));
    }

    /// `sem_init(s, v)`.
    pub fn sem_init(&mut self, s: Sem, v: u32) {
        self.op(Action::SemInit(s.0, v));
    }

    /// `sem_post(s)`.
    pub fn sem_post(&mut self, s: Sem) {
        self.op(Action::SemPost(s.0));
    }

    /// `sem_wait(s)`: blocks while the value is 0.
    pub fn sem_wait(&mut self, s: Sem) {
        self.op(Action::SemWait(s.0));
    }

    /// `sem_trywait(s)`: 1 if it decremented, 0 otherwise.
    pub fn sem_trywait(&mut self, s: Sem) -> Reg {
        self.op_reg(Action::SemTryWait(s.0, false))
    }

    /// `sem_getvalue(s)`.
    pub fn sem_getvalue(&mut self, s: Sem) -> Reg {
        self.op_reg(Action::SemValue(s.0))
    }

    /// `pthread_rwlock_rdlock(l)`.
    pub fn rdlock(&mut self, l: RwLock) {
        self.op(Action::RdLock(l.0));
    }

    /// `pthread_rwlock_wrlock(l)`.
    pub fn wrlock(&mut self, l: RwLock) {
        self.op(Action::WrLock(l.0));
    }

    /// `pthread_rwlock_tryrdlock(l)`: 1 if acquired.
    pub fn tryrdlock(&mut self, l: RwLock) -> Reg {
        self.op_reg(Action::TryRdLock(l.0, false))
    }

    /// `pthread_rwlock_trywrlock(l)`: 1 if acquired.
    pub fn trywrlock(&mut self, l: RwLock) -> Reg {
        self.op_reg(Action::TryWrLock(l.0, false))
    }

    /// `pthread_rwlock_unlock(l)` (read or write, as held; unlocking a lock not held
    /// is a misuse defect).
    pub fn rwunlock(&mut self, l: RwLock) {
        self.op(Action::RwUnlock(l.0, false));
    }

    /// `pthread_barrier_init(b, n)`.
    pub fn barrier_init(&mut self, b: Barrier, n: u32) {
        self.op(Action::BarrierInit(b.0, n));
    }

    /// `pthread_barrier_wait(b)`: the register holds 1 for the serial thread.
    pub fn barrier_wait(&mut self, b: Barrier) -> Reg {
        let r = self.op_reg(Action::BarrierArrive(b.0, false));
        let done = self.label();
        self.jump_if(r.e(), done);
        self.op(Action::BarrierLeave(b.0));
        self.place(done);
        r
    }

    /// `r := e` (local).
    pub fn set(&mut self, r: Reg, e: impl Into<Expr>) {
        self.instrs.push(Instr::Set(r, e.into()));
    }

    /// A fresh register holding `e`.
    pub fn let_(&mut self, e: impl Into<Expr>) -> Reg {
        let r = self.reg();
        self.set(r, e);
        r
    }

    /// `assert(cond)`: failure is a [`crate::DefectKind::Assertion`] defect.
    pub fn assert(&mut self, cond: impl Into<Expr>, msg: &str) {
        self.instrs.push(Instr::Assert(cond.into(), msg.to_string()));
    }

    /// `assume(cond)`: if false the thread stops silently.
    pub fn assume(&mut self, cond: impl Into<Expr>) {
        self.instrs.push(Instr::Assume(cond.into()));
    }

    /// Spawn a thread running `code` (visible [`crate::Action::Create`]); returns the
    /// handle to join.
    pub fn spawn(&mut self, code: CodeId) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Spawn(r, code.0));
        r
    }

    /// Join the thread whose handle is in `h` (visible).
    pub fn join(&mut self, h: Reg) {
        self.instrs.push(Instr::Join(h.e()));
    }

    /// A new, unplaced label.
    pub fn label(&mut self) -> Label {
        self.labels.push(u32::MAX);
        Label(self.labels.len() as u32 - 1)
    }

    /// Place `l` at the next instruction.
    pub fn place(&mut self, l: Label) {
        self.labels[l.0 as usize] = self.instrs.len() as u32;
    }

    /// Jump to `l` when `cond` is zero.
    pub fn jump_if_zero(&mut self, cond: impl Into<Expr>, l: Label) {
        self.instrs.push(Instr::JumpIfZero(cond.into(), l.0));
    }

    /// Jump to `l` when `cond` is non-zero.
    pub fn jump_if(&mut self, cond: impl Into<Expr>, l: Label) {
        self.instrs.push(Instr::JumpIfZero(cond.into().not(), l.0));
    }

    /// Unconditional jump.
    pub fn jump(&mut self, l: Label) {
        self.instrs.push(Instr::Jump(l.0));
    }

    /// `if cond { then }`.
    pub fn if_(&mut self, cond: impl Into<Expr>, then: impl FnOnce(&mut ThreadBuilder)) {
        let end = self.label();
        self.jump_if_zero(cond, end);
        then(self);
        self.place(end);
    }

    /// `if cond { then } else { els }`.
    pub fn if_else(
        &mut self,
        cond: impl Into<Expr>,
        then: impl FnOnce(&mut ThreadBuilder),
        els: impl FnOnce(&mut ThreadBuilder),
    ) {
        let other = self.label();
        let end = self.label();
        self.jump_if_zero(cond, other);
        then(self);
        self.jump(end);
        self.place(other);
        els(self);
        self.place(end);
    }

    /// `while { cond_code; cond } { body }`: `cond` computes the condition (it may emit
    /// instructions, e.g. a read) and is re-run before each iteration.
    pub fn while_(&mut self, cond: impl FnOnce(&mut ThreadBuilder) -> Expr, body: impl FnOnce(&mut ThreadBuilder)) {
        let head = self.label();
        let end = self.label();
        self.place(head);
        let c = cond(self);
        self.jump_if_zero(c, end);
        body(self);
        self.jump(head);
        self.place(end);
    }
}
