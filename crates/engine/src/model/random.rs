//! Seeded random programs for property tests: small programs whose every schedule can be
//! enumerated by brute force.
//!
//! Shape: 2–4 threads in all (main, its children, possibly a grandchild), 1–3 mutexes,
//! 0–2 visible variables, and one invisible variable per mutex that is only accessed
//! while that mutex is held (so the programs are data-race free in the QPOR §2 sense and
//! data-deterministic per trace). Statements: critical sections, nested in random
//! orders (so deadlocks occur), trylock with a branch on its result, visible reads,
//! writes and read-modify-writes, branches and asserts on values read (data-dependent
//! control flow), rare assumes, spawn and join; with [`Shape::sync_objects`], also
//! condition variables, semaphores, read-write locks and barriers. The same seed always
//! gives the same program.

use super::{Barrier, CodeId, Cond, Expr, Model, ModelBuilder, Mutex, Reg, RwLock, Sem, ThreadBuilder, Var};
use crate::action::Bytes;

/// SplitMix64: a tiny deterministic generator (no dependency needed).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5851_f42d_4c95_7f2d)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `p` percent.
    pub fn chance(&mut self, p: u32) -> bool {
        (self.next_u64() % 100) < p as u64
    }
}

/// Size knobs of the generator.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Most threads in all, main included (at least 2).
    pub max_threads: usize,
    /// Most top-level statements per thread.
    pub max_statements: usize,
    /// Most visible steps a thread's code may contain (a soft budget).
    pub max_visible: usize,
    /// No mutexes and no joins: only visible memory accesses, branches and asserts
    /// (programs in which no thread can block another).
    pub lock_free: bool,
    /// Also use condition variables (guarded flag waits, bare waits, timed waits,
    /// signal, broadcast), semaphores (post, wait, trywait, getvalue), read-write locks
    /// (read and write sections, try variants) and barriers.
    pub sync_objects: bool,
    /// Also make plain (invisible) accesses to shared variables outside the mutex that
    /// guards them, or to the atomically accessed ones: programs that may race.
    pub racy: bool,
    /// Also spin until a visible variable is non-zero (spin-waits, [`ThreadBuilder::spin_until_nonzero`]).
    pub spins: bool,
    /// With `spins`: some spin-waits watch two variables (`while (!a && !b) {}`,
    /// [`ThreadBuilder::spin_until_any_nonzero`]), and there are always two visible
    /// variables.
    pub multi_spins: bool,
    /// With `multi_spins`: three visible variables, and some spin-waits watch all three
    /// (`while (!a && !b && !c) {}`: more locations than an action holds inline, so the
    /// wait is interned: [`crate::Awaited`]).
    pub wide_spins: bool,
    /// Also spinlocks built from read-modify-writes (1–2 lock words, apart from the
    /// visible variables): critical sections under a compare-exchange or test-and-set
    /// spinlock ([`ThreadBuilder::spin_lock`]: a failed attempt changes nothing, so the
    /// thread waits for a write to the lock word), acquisitions that give up after one
    /// or two failed compare-exchanges, lock-free compare-exchange increments
    /// ([`ThreadBuilder::cas_add`]), and read-modify-writes that may leave the value
    /// unchanged (`fetch_add(0)`, an exchange of the value maybe already there). Two
    /// threads always take the first spinlock.
    pub rmw_spins: bool,
    /// With `spins`: Peterson-like waits over a flag and a turn. There are three visible
    /// variables (two flags and a turn); two threads run Peterson's entry protocol
    /// (`want[me] = 1; turn = other`, or swapped, which breaks mutual exclusion), wait
    /// `while (want[other] == 1 && turn == other) {}` ([`ThreadBuilder::spin_while_both`],
    /// either placement of the wait), run a critical section of plain accesses that
    /// asserts exclusion, and lower their flag; other statements also spin while two
    /// visible variables hold given values.
    pub flag_turn: bool,
    /// Also polls of a plain flag under the mutex that guards it
    /// (`for (;;) { lock(m); r = flag; unlock(m); if (r) break; }`, waiting for another
    /// thread's unlock of `m` after an iteration that found nothing, with weak unlocks:
    /// [`ThreadBuilder::poll_under_mutex`]). One thread polls the first mutex's flag (two
    /// or three in a third of the programs of three threads or more) and another sets it
    /// under the mutex; in some programs the pollers consume
    /// (decrement the flag, a counter, when they find it positive) and the producer adds
    /// one per critical section, in one or two sections. Sometimes one more thread polls
    /// the second mutex's flag, which only other statements may set. With `multi_spins`,
    /// some polls also read a visible variable atomically in the critical section (a
    /// wait on the mutex and the variable).
    pub poll_mutex: bool,
    /// With `poll_mutex`: write every poll as the real loop of at most this many
    /// iterations instead ([`ModelBuilder::polls_as_bounded_loops`]; the same program
    /// otherwise, for the same seed).
    pub poll_loops: Option<u32>,
    /// Also retry loops of try operations as the C runtime makes them after a pure
    /// iteration (a failed try is a load of its object; the loop waits for the object's
    /// await count to move: [`ThreadBuilder::trylock_spin`] and the like):
    /// critical sections entered with a `trylock` retry loop, `sem_trywait` retry loops
    /// waiting for another thread's post, read and write sections of a read-write lock
    /// entered with try retry loops, and `lock(m); while (!flag) timedwait(c, m);`
    /// ([`ThreadBuilder::cond_timedwait_poll`]) against a thread that sets the flag under
    /// `m` and signals (or forgets to). Each program plans one or two of these families
    /// with their partners, and random statements (nested in other critical sections, so
    /// that deadlocks and livelocks occur) use them too. With `multi_spins`, some retry
    /// loops also read a visible variable and leave the loop when it is set.
    pub try_spins: bool,
    /// Also make deliberate mutex misuse (unlocking a mutex the thread does not hold,
    /// relocking one it holds), often under a data-dependent branch, so that whether it
    /// happens depends on the schedule.
    pub misuse: bool,
    /// The visible variables (and spinlock words) share 8-byte memory words, as
    /// `atomic_int count, sense;` do in C ([`ModelBuilder::var_beside`]): each word holds
    /// two or three variables on disjoint bytes (two `int`s; two `char`s and an `int`),
    /// or on overlapping bytes (an `int` and the whole word as one `long`; two `int`s
    /// overlapping by two bytes), or one variable alone. Accesses to disjoint bytes
    /// commute under read-read independence, and a spin-wait on one variable is not
    /// woken by writes to another of its word.
    pub shared_words: bool,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            max_threads: 4,
            max_statements: 3,
            max_visible: 8,
            lock_free: false,
            sync_objects: false,
            racy: false,
            spins: false,
            multi_spins: false,
            wide_spins: false,
            rmw_spins: false,
            flag_turn: false,
            poll_mutex: false,
            poll_loops: None,
            try_spins: false,
            misuse: false,
            shared_words: false,
        }
    }
}

/// `n` variables initialised to 0, packed into memory words as [`Shape::shared_words`]
/// says.
fn packed_vars(b: &mut ModelBuilder, rng: &mut Rng, n: usize) -> Vec<Var> {
    let span = |o: u64, l: u64| Bytes::span(o, l);
    // Word layouts: the bytes of each variable of one word.
    let layouts: [&[Bytes]; 6] = [
        &[span(0, 4), span(4, 4)],
        &[span(0, 1), span(1, 1), span(4, 4)],
        &[span(4, 4), span(0, 8)],
        &[span(0, 4), span(2, 4)],
        &[span(0, 8)],
        &[span(4, 4), span(0, 4)],
    ];
    let mut vars: Vec<Var> = Vec::new();
    while vars.len() < n {
        let layout = layouts[rng.below(layouts.len())];
        let first = b.var_bytes(0, layout[0]);
        vars.push(first);
        for &bytes in &layout[1..] {
            if vars.len() < n {
                vars.push(b.var_beside(first, 0, bytes));
            }
        }
    }
    vars
}

struct Ctx {
    lock_free: bool,
    racy: bool,
    spins: bool,
    multi_spins: bool,
    wide_spins: bool,
    rmw_spins: bool,
    flag_turn: bool,
    poll_mutex: bool,
    /// Whether the polls of the first mutex consume ([`Shape::poll_mutex`]).
    poll_consume: bool,
    try_spins: bool,
    misuse: bool,
    /// The condition variable of timed-wait polls ([`Shape::try_spins`]), used with the
    /// first mutex.
    timed_cond: Option<Cond>,
    /// Spinlock words ([`Shape::rmw_spins`]).
    spinlocks: Vec<Var>,
    mutexes: Vec<Mutex>,
    guarded: Vec<Var>,
    /// The plain variable of Peterson's critical section (`flag_turn`).
    inside: Var,
    visible: Vec<Var>,
    /// Condition variables, each with the index of its mutex; the mutex's guarded
    /// variable is the flag waited for.
    conds: Vec<(Cond, usize)>,
    sems: Vec<Sem>,
    rwlocks: Vec<RwLock>,
    barriers: Vec<Barrier>,
}

struct Gen<'a> {
    rng: &'a mut Rng,
    ctx: &'a Ctx,
    held: Vec<usize>,
    /// Spinlocks held (indices into `ctx.spinlocks`).
    held_spin: Vec<usize>,
    data: Vec<Reg>,
    budget: usize,
}

impl Gen<'_> {
    fn cond(&mut self) -> Expr {
        if self.data.is_empty() {
            return Expr::Const(self.rng.below(2) as i64);
        }
        let r = self.data[self.rng.below(self.data.len())];
        let k = self.rng.below(3) as i64;
        match self.rng.below(3) {
            0 => r.eq(k),
            1 => r.ne(k),
            _ => r.lt(k),
        }
    }

    /// A condition-variable statement under its mutex: `sub` 0–1 waits for the flag
    /// (in a loop or, wrongly, with an `if`), 2 waits without a flag, 3–4 set the flag
    /// and signal or broadcast. False if it does not fit.
    fn cond_statement(&mut self, t: &mut ThreadBuilder, sub: usize) -> bool {
        let ctx = self.ctx;
        if ctx.conds.is_empty() || self.budget < 3 {
            return false;
        }
        let (c, m) = ctx.conds[self.rng.below(ctx.conds.len())];
        if self.held.contains(&m) {
            return false;
        }
        let (mutex, flag) = (ctx.mutexes[m], ctx.guarded[m]);
        self.budget -= 3;
        t.lock(mutex);
        match sub {
            // Wait for the flag, correctly (a loop) or not (an if).
            0 | 1 => {
                // A timed wait may time out forever: never in a loop.
                let timed = self.rng.chance(25);
                let looped = !timed && self.rng.chance(60);
                let head = t.label();
                let end = t.label();
                t.place(head);
                let f = t.load(flag);
                t.jump_if(f.e(), end);
                if timed {
                    let r = t.cond_timedwait(c, mutex);
                    self.data.push(r);
                } else {
                    t.cond_wait(c, mutex);
                }
                if looped {
                    t.jump(head);
                }
                t.place(end);
            }
            // A bare wait (lost wake-ups deadlock it).
            2 => t.cond_wait(c, mutex),
            // Set the flag and wake one or all.
            _ => {
                t.store(flag, 1);
                if self.rng.chance(70) {
                    t.signal(c);
                } else {
                    t.broadcast(c);
                }
            }
        }
        t.unlock(mutex);
        true
    }

    /// A barrier wait (top level only). False if it does not fit.
    fn barrier_statement(&mut self, t: &mut ThreadBuilder, depth: usize) -> bool {
        let ctx = self.ctx;
        if ctx.barriers.is_empty() || depth > 0 || self.budget < 2 {
            return false;
        }
        self.budget -= 2;
        let b = ctx.barriers[self.rng.below(ctx.barriers.len())];
        let r = t.barrier_wait(b);
        self.data.push(r);
        true
    }

    /// A statement over the other synchronising objects; false if none fits.
    fn sync_statement(&mut self, t: &mut ThreadBuilder, depth: usize) -> bool {
        let ctx = self.ctx;
        match self.rng.below(5) {
            0 => {
                let sub = self.rng.below(5);
                self.cond_statement(t, sub)
            }
            1 if !ctx.sems.is_empty() => {
                self.budget -= 1;
                let s = ctx.sems[self.rng.below(ctx.sems.len())];
                match self.rng.below(5) {
                    0 | 1 => t.sem_post(s),
                    2 => t.sem_wait(s),
                    3 => {
                        let r = t.sem_trywait(s);
                        self.data.push(r);
                    }
                    _ => {
                        let r = t.sem_getvalue(s);
                        self.data.push(r);
                    }
                }
                true
            }
            2 | 3 if !ctx.rwlocks.is_empty() && self.budget >= 2 => {
                let l = ctx.rwlocks[self.rng.below(ctx.rwlocks.len())];
                self.budget -= 2;
                let write = self.rng.chance(40);
                let body = |g: &mut Self, t: &mut ThreadBuilder| {
                    if !g.ctx.visible.is_empty() && g.budget > 0 {
                        g.budget -= 1;
                        let v = g.ctx.visible[g.rng.below(g.ctx.visible.len())];
                        if write {
                            t.write(v, 1 + g.rng.below(2) as i64);
                        } else {
                            let r = t.read(v);
                            g.data.push(r);
                        }
                    } else if depth < 2 {
                        g.statement(t, depth + 1);
                    }
                };
                if self.rng.chance(25) {
                    let r = if write { t.trywrlock(l) } else { t.tryrdlock(l) };
                    let saved = self.data.len();
                    t.if_(r.e(), |t| {
                        body(self, t);
                        t.rwunlock(l);
                    });
                    self.data.truncate(saved);
                } else {
                    if write {
                        t.wrlock(l);
                    } else {
                        t.rdlock(l);
                    }
                    body(self, t);
                    t.rwunlock(l);
                }
                true
            }
            4 => self.barrier_statement(t, depth),
            _ => false,
        }
    }

    /// The lock of a critical section among `n` (`k`, or a random one not in `held`),
    /// paying its two statements from the budget; `None` if it is held or does not fit.
    fn pick_section(&mut self, n: usize, held: &[usize], k: Option<usize>) -> Option<usize> {
        let free: Vec<usize> = (0..n).filter(|k| !held.contains(k)).collect();
        let k = match k {
            Some(k) if !held.contains(&k) => k,
            Some(_) => return None,
            None if free.is_empty() => return None,
            None => free[self.rng.below(free.len())],
        };
        if self.budget < 2 {
            return None;
        }
        self.budget -= 2;
        Some(k)
    }

    /// A spinlock critical section on spinlock `k` (a free one if `None`); false if it
    /// does not fit.
    fn spin_section(&mut self, t: &mut ThreadBuilder, depth: usize, k: Option<usize>) -> bool {
        let held = self.held_spin.clone();
        let Some(k) = self.pick_section(self.ctx.spinlocks.len(), &held, k) else { return false };
        let sl = self.ctx.spinlocks[k];
        let tas = self.rng.chance(50);
        t.spin_lock(sl, tas);
        self.held_spin.push(k);
        let saved = self.data.len();
        for _ in 0..1 + self.rng.below(2) {
            self.statement(t, depth + 1);
        }
        self.data.truncate(saved);
        self.held_spin.pop();
        t.write(sl, 0);
        true
    }

    /// A poll of mutex `m`'s guarded flag ([`Shape::poll_mutex`]); `alone` if it is the
    /// only poller of `m`: only then may it also read a visible variable (an atomic read
    /// in the iteration makes its unlocks ordinary, and two such pollers would wake each
    /// other forever: docs/memory.md, "Two pollers of one mutex").
    fn poll(&mut self, t: &mut ThreadBuilder, m: usize, alone: bool) -> Reg {
        let also = (alone && self.ctx.multi_spins && !self.ctx.visible.is_empty() && self.rng.chance(40))
            .then(|| self.ctx.visible[self.rng.below(self.ctx.visible.len())]);
        t.poll_under_mutex(self.ctx.mutexes[m], self.ctx.guarded[m], also, m == 0 && self.ctx.poll_consume)
    }

    /// A statement of [`Shape::rmw_spins`].
    fn rmw_statement(&mut self, t: &mut ThreadBuilder, depth: usize) {
        match self.rng.below(5) {
            0 | 1 => {
                self.spin_section(t, depth, None);
            }
            // Bounded retries: one or two compare-exchanges, then give up.
            2 => {
                let free: Vec<usize> = (0..self.ctx.spinlocks.len()).filter(|k| !self.held_spin.contains(k)).collect();
                if free.is_empty() || self.budget < 3 {
                    return;
                }
                self.budget -= 3;
                let k = free[self.rng.below(free.len())];
                let sl = self.ctx.spinlocks[k];
                let (got, end) = (t.label(), t.label());
                let mut last = None;
                for _ in 0..1 + self.rng.below(2) {
                    let r = t.cas(sl, 0, 1);
                    t.jump_if_zero(r.e(), got);
                    last = Some(r);
                }
                t.jump(end);
                t.place(got);
                self.held_spin.push(k);
                let saved = self.data.len();
                if depth < 2 {
                    self.statement(t, depth + 1);
                }
                self.data.truncate(saved);
                self.held_spin.pop();
                t.write(sl, 0);
                t.place(end);
                // Non-zero after a give-up: an assertion on it fails only then.
                self.data.extend(last);
            }
            3 if !self.ctx.visible.is_empty() && self.budget >= 2 => {
                self.budget -= 2;
                let v = self.ctx.visible[self.rng.below(self.ctx.visible.len())];
                let r = t.cas_add(v, 1);
                self.data.push(r);
            }
            _ if !self.ctx.visible.is_empty() && self.budget >= 1 => {
                self.budget -= 1;
                let v = self.ctx.visible[self.rng.below(self.ctx.visible.len())];
                let r =
                    if self.rng.chance(50) { t.fetch_add(v, 0) } else { t.exchange(v, 1 + self.rng.below(2) as i64) };
                self.data.push(r);
            }
            _ => {}
        }
    }

    /// A variable a retry loop may also read ([`Shape::try_spins`] with `multi_spins`).
    fn also(&mut self) -> Option<Var> {
        (self.ctx.multi_spins && !self.ctx.visible.is_empty() && self.rng.chance(30))
            .then(|| self.ctx.visible[self.rng.below(self.ctx.visible.len())])
    }

    /// A critical section entered with a `trylock` retry loop on mutex `m` (a free one if
    /// `None`); false if it does not fit.
    fn trylock_section(&mut self, t: &mut ThreadBuilder, depth: usize, m: Option<usize>) -> bool {
        let held = self.held.clone();
        let Some(m) = self.pick_section(self.ctx.mutexes.len(), &held, m) else { return false };
        let also = self.also();
        let r = t.trylock_spin(self.ctx.mutexes[m], also);
        let saved = self.data.len();
        t.if_(r.e(), |t| {
            self.held.push(m);
            for _ in 0..1 + self.rng.below(2) {
                self.statement(t, depth + 1);
            }
            self.held.pop();
            t.unlock(self.ctx.mutexes[m]);
        });
        self.data.truncate(saved);
        self.data.push(r);
        true
    }

    /// A read or write section of the read-write lock entered with a try retry loop;
    /// false if it does not fit.
    fn rw_try_section(&mut self, t: &mut ThreadBuilder, depth: usize, write: bool) -> bool {
        if self.ctx.rwlocks.is_empty() || self.budget < 2 {
            return false;
        }
        self.budget -= 2;
        let l = self.ctx.rwlocks[0];
        let also = self.also();
        let r = t.rw_try_spin(l, write, also);
        let saved = self.data.len();
        t.if_(r.e(), |t| {
            if !self.ctx.visible.is_empty() && self.budget > 0 && self.rng.chance(60) {
                self.budget -= 1;
                let v = self.ctx.visible[self.rng.below(self.ctx.visible.len())];
                if write {
                    t.write(v, 1 + self.rng.below(2) as i64);
                } else {
                    let x = t.read(v);
                    self.data.push(x);
                }
            } else if depth < 2 {
                self.statement(t, depth + 1);
            }
            t.rwunlock(l);
        });
        self.data.truncate(saved);
        self.data.push(r);
        true
    }

    /// A `sem_trywait` retry loop; false if it does not fit.
    fn sem_try_statement(&mut self, t: &mut ThreadBuilder) -> bool {
        if self.ctx.sems.is_empty() || self.budget < 2 {
            return false;
        }
        self.budget -= 2;
        let also = self.also();
        let r = t.sem_trywait_spin(self.ctx.sems[0], also);
        self.data.push(r);
        true
    }

    /// `lock(m); while (!flag) timedwait(c, m); unlock(m);`; false if it does not fit.
    fn cond_poll_statement(&mut self, t: &mut ThreadBuilder) -> bool {
        let (Some(c), m) = (self.ctx.timed_cond, 0) else { return false };
        if self.held.contains(&m) || self.budget < 4 {
            return false;
        }
        self.budget -= 4;
        let r = t.cond_timedwait_poll(c, self.ctx.mutexes[m], self.ctx.guarded[m]);
        self.data.push(r);
        true
    }

    /// A statement of [`Shape::try_spins`]. (Timed-wait polls are planned only, one per
    /// program: two pollers of one mutex wake each other with their unlocks, an unbounded
    /// number of times — see docs/memory.md.)
    fn try_statement(&mut self, t: &mut ThreadBuilder, depth: usize) {
        match self.rng.below(6) {
            0 | 1 => {
                self.trylock_section(t, depth, None);
            }
            2 => {
                self.sem_try_statement(t);
            }
            3 | 4 => {
                let write = self.rng.chance(50);
                self.rw_try_section(t, depth, write);
            }
            _ if !self.ctx.sems.is_empty() => {
                self.budget = self.budget.saturating_sub(1);
                t.sem_post(self.ctx.sems[0]);
            }
            _ => {}
        }
    }

    fn statement(&mut self, t: &mut ThreadBuilder, depth: usize) {
        if self.budget == 0 {
            return;
        }
        if self.ctx.try_spins && self.rng.chance(20) {
            self.try_statement(t, depth);
            return;
        }
        if self.ctx.rmw_spins && self.rng.chance(25) {
            self.rmw_statement(t, depth);
            return;
        }
        if self.ctx.spins && !self.ctx.visible.is_empty() && self.rng.chance(20) {
            let v = self.ctx.visible[self.rng.below(self.ctx.visible.len())];
            if self.ctx.multi_spins && self.ctx.visible.len() >= 2 && self.budget >= 3 && self.rng.chance(50) {
                self.budget -= 3;
                let (a, b) = (self.ctx.visible[1], self.ctx.visible[0]);
                let r = if self.ctx.wide_spins && self.rng.chance(75) {
                    t.spin_until_any_nonzero(&[self.ctx.visible[2], a, b])
                } else if self.rng.chance(50) {
                    t.spin_until_any_nonzero(&[a, b])
                } else {
                    t.spin_until_either_nonzero_rotated(a, b)
                };
                self.data.push(r);
            } else if self.budget >= 2 {
                self.budget -= 2;
                let r = t.spin_until_nonzero(v);
                self.data.push(r);
            }
            return;
        }
        if self.ctx.flag_turn && self.budget >= 3 && self.rng.chance(15) {
            // Spin while two distinct visible variables hold given values.
            self.budget -= 3;
            let n = self.ctx.visible.len();
            let i = self.rng.below(n);
            let j = (i + 1 + self.rng.below(n - 1)) % n;
            let (x, y) = (self.rng.below(3) as i64, self.rng.below(3) as i64);
            let rotated = self.rng.chance(50);
            t.spin_while_both(self.ctx.visible[i], x, self.ctx.visible[j], y, rotated);
            return;
        }
        if self.ctx.misuse && self.rng.chance(12) {
            // Deliberate misuse: unlock a mutex not held, or relock one held.
            let m = self.rng.below(self.ctx.mutexes.len());
            self.budget = self.budget.saturating_sub(1);
            if self.held.contains(&m) {
                t.lock(self.ctx.mutexes[m]);
            } else {
                t.unlock(self.ctx.mutexes[m]);
            }
            return;
        }
        if self.ctx.racy && self.rng.chance(25) {
            // A plain access that nothing may order: a guarded variable without its
            // mutex, or an atomically accessed one.
            let pool: Vec<Var> = self.ctx.guarded.iter().chain(&self.ctx.visible).copied().collect();
            let v = pool[self.rng.below(pool.len())];
            if self.rng.chance(50) {
                let r = t.load(v);
                self.data.push(r);
            } else {
                t.store(v, 1 + self.rng.below(2) as i64);
            }
            return;
        }
        let c = self.ctx;
        let any = !c.conds.is_empty() || !c.sems.is_empty() || !c.rwlocks.is_empty() || !c.barriers.is_empty();
        if any && self.rng.chance(45) && self.sync_statement(t, depth) {
            return;
        }
        let mut choice = self.rng.below(if depth > 1 { 5 } else { 8 });
        if self.ctx.lock_free && choice >= 5 {
            choice = 1;
        }
        match choice {
            // Invisible access to a guarded variable of a held mutex.
            0 if !self.held.is_empty() => {
                let m = self.held[self.rng.below(self.held.len())];
                let v = self.ctx.guarded[m];
                if self.rng.chance(50) {
                    let r = t.load(v);
                    self.data.push(r);
                } else {
                    let e = match self.data.last() {
                        Some(&r) if self.rng.chance(50) => r.add(1),
                        _ => Expr::Const(1 + self.rng.below(2) as i64),
                    };
                    t.store(v, e);
                }
            }
            // Visible memory access.
            0..=2 if !self.ctx.visible.is_empty() => {
                self.budget -= 1;
                let v = self.ctx.visible[self.rng.below(self.ctx.visible.len())];
                match self.rng.below(3) {
                    0 => {
                        let r = t.read(v);
                        self.data.push(r);
                    }
                    1 => t.write(v, 1 + self.rng.below(2) as i64),
                    _ => {
                        let r = t.fetch_add(v, 1);
                        self.data.push(r);
                    }
                }
            }
            // Branch on data.
            3 => {
                let c = self.cond();
                let n_then = 1 + self.rng.below(2);
                let with_else = self.rng.chance(50);
                let saved = self.data.len();
                let budget = self.budget;
                if with_else {
                    let other = t.label();
                    let end = t.label();
                    t.jump_if_zero(c, other);
                    for _ in 0..n_then {
                        self.statement(t, depth + 1);
                    }
                    let b1 = self.budget;
                    t.jump(end);
                    t.place(other);
                    self.data.truncate(saved);
                    self.budget = budget;
                    self.statement(t, depth + 1);
                    t.place(end);
                    self.budget = self.budget.min(b1);
                } else {
                    t.if_(c, |t| {
                        for _ in 0..n_then {
                            self.statement(t, depth + 1);
                        }
                    });
                }
                self.data.truncate(saved);
            }
            // Assert on data (rarely assume).
            4 => {
                let c = self.cond();
                if self.rng.chance(15) {
                    t.assume(c.not().not());
                } else {
                    t.assert(c.not(), "random assertion");
                }
            }
            // Trylock with a branch on its result.
            5 => {
                let free: Vec<usize> = (0..self.ctx.mutexes.len()).filter(|m| !self.held.contains(m)).collect();
                if free.is_empty() || self.budget < 2 {
                    return;
                }
                self.budget -= 2;
                let m = free[self.rng.below(free.len())];
                let r = t.trylock(self.ctx.mutexes[m]);
                let saved = self.data.len();
                t.if_(r.e(), |t| {
                    self.held.push(m);
                    let n = self.rng.below(3);
                    for _ in 0..n {
                        self.statement(t, depth + 1);
                    }
                    self.held.pop();
                    t.unlock(self.ctx.mutexes[m]);
                });
                self.data.truncate(saved);
            }
            // Critical section, possibly nested.
            _ => {
                let free: Vec<usize> = (0..self.ctx.mutexes.len()).filter(|m| !self.held.contains(m)).collect();
                if free.is_empty() || self.budget < 2 {
                    return;
                }
                self.budget -= 2;
                let m = free[self.rng.below(free.len())];
                t.lock(self.ctx.mutexes[m]);
                self.held.push(m);
                let n = 1 + self.rng.below(2);
                for _ in 0..n {
                    self.statement(t, depth + 1);
                }
                self.held.pop();
                t.unlock(self.ctx.mutexes[m]);
            }
        }
    }
}

/// A random program with the default [`Shape`].
pub fn program(seed: u64) -> Model {
    program_with(seed, Shape::default())
}

/// A random program of the given shape.
pub fn program_with(seed: u64, shape: Shape) -> Model {
    let mut rng = Rng::new(seed);
    let mut b = ModelBuilder::new();
    if let Some(k) = shape.poll_loops {
        b.polls_as_bounded_loops(k);
    }
    let nm = 1 + rng.below(3);
    let mutexes: Vec<Mutex> = (0..nm).map(|_| b.mutex()).collect();
    let guarded: Vec<Var> = (0..nm).map(|_| b.var(0)).collect();
    let nv = if shape.flag_turn || (shape.multi_spins && shape.wide_spins) {
        3
    } else if shape.multi_spins {
        2
    } else if shape.lock_free || shape.spins {
        1 + rng.below(2)
    } else {
        rng.below(3)
    };
    let nl = if shape.rmw_spins { 1 + rng.below(2) } else { 0 };
    let (visible, spinlocks): (Vec<Var>, Vec<Var>) = if shape.shared_words {
        let mut all = packed_vars(&mut b, &mut rng, nv + nl);
        let locks = all.split_off(nv);
        (all, locks)
    } else {
        ((0..nv).map(|_| b.var(0)).collect(), (0..nl).map(|_| b.var(0)).collect())
    };
    let inside = b.var(0);
    let (mut conds, mut sems, mut rwlocks, mut barriers) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut sem_init = Vec::new();
    let mut barrier_init = Vec::new();
    // Retry loops of failed tries: one or two planned families (a trylock-entered
    // section contended by two threads, a semaphore handed over by a post, read-write
    // lock sections entered with tries, a timed condition wait in a loop) and their
    // objects.
    let try_families: Vec<u8> = if shape.try_spins && !shape.lock_free {
        let first = rng.below(4) as u8;
        let mut f = vec![first];
        if rng.chance(30) {
            let second = rng.below(4) as u8;
            if second != first {
                f.push(second);
            }
        }
        f
    } else {
        Vec::new()
    };
    if try_families.contains(&1) {
        let s = b.sem();
        sems.push(s);
        sem_init.push((s, rng.chance(20) as u32));
    }
    if try_families.contains(&2) {
        rwlocks.push(b.rwlock());
    }
    // Apart from `conds` (whose waiter and setter plans would make programs too big
    // for brute force).
    let timed_cond = try_families.contains(&3).then(|| b.cond());
    if shape.sync_objects && !shape.lock_free {
        if rng.chance(70) {
            conds.push((b.cond(), rng.below(nm)));
        }
        if rng.chance(50) {
            let s = b.sem();
            sems.push(s);
            sem_init.push((s, rng.below(2) as u32));
        }
        if rng.chance(45) {
            rwlocks.push(b.rwlock());
        }
        if rng.chance(35) {
            let x = b.barrier();
            barriers.push(x);
            barrier_init.push((x, 2));
        }
    }
    let ctx = Ctx {
        lock_free: shape.lock_free,
        racy: shape.racy,
        spins: shape.spins,
        multi_spins: shape.multi_spins,
        wide_spins: shape.multi_spins && shape.wide_spins,
        rmw_spins: shape.rmw_spins,
        flag_turn: shape.flag_turn && shape.spins,
        poll_mutex: shape.poll_mutex,
        poll_consume: shape.poll_mutex && rng.chance(40),
        try_spins: shape.try_spins && !shape.lock_free,
        misuse: shape.misuse && !shape.lock_free,
        timed_cond,
        spinlocks,
        mutexes,
        guarded,
        inside,
        visible,
        conds,
        sems,
        rwlocks,
        barriers,
    };

    // Thread tree: main has 1..=3 children; a child may have one child of its own.
    let total = 2 + rng.below(shape.max_threads.max(2) - 1);
    let mut others = total - 1;
    let mut top: Vec<CodeId> = Vec::new();
    // Planned statements so that blocking operations meet their partners: a waiter
    // and a setter of a condition variable, two barrier waits, in different threads
    // (slot 0 is main, slot i its i-th child; grandchildren get no plan).
    let mut plans: Vec<Vec<u8>> = vec![Vec::new(); total];
    if !ctx.conds.is_empty() && total >= 2 {
        let waiter = rng.below(total);
        let setter = (waiter + 1 + rng.below(total - 1)) % total;
        plans[waiter].push(0);
        plans[setter].push(3);
    }
    if ctx.flag_turn && total >= 2 {
        // Peterson's protocol in two threads (8: me = 0, 9: me = 1).
        let a = rng.below(total);
        let b2 = (a + 1 + rng.below(total - 1)) % total;
        plans[a].push(8);
        plans[b2].push(9);
    } else if shape.spins && total >= 2 {
        // A spin-wait on the first visible variable and a thread that sets it.
        let a = rng.below(total);
        let b2 = (a + 1 + rng.below(total - 1)) % total;
        plans[a].push(6);
        plans[b2].push(7);
    }
    if shape.rmw_spins && total >= 2 {
        // Two threads contend for the first spinlock.
        let a = rng.below(total);
        let b2 = (a + 1 + rng.below(total - 1)) % total;
        plans[a].push(10);
        plans[b2].push(10);
    }
    if ctx.poll_mutex && total >= 2 {
        // One to three polls of the first mutex's flag, in distinct threads, and a
        // producer (another thread) that sets it, or adds one to it in one or two
        // critical sections when the polls consume.
        let producer = rng.below(total);
        let mut others: Vec<usize> = (0..total).filter(|&t| t != producer).collect();
        // Several pollers make most programs too big for the brute force: a third of them.
        // (Not beside try retry loops, which turn weak unlocks off: two pollers would then
        // wake each other forever.)
        let pollers =
            if total == 2 || ctx.try_spins || !rng.chance(33) { 1 } else { (2 + rng.below(2)).min(others.len()) };
        for _ in 0..pollers {
            let k = rng.below(others.len());
            plans[others.swap_remove(k)].push(if pollers == 1 { 21 } else { 11 });
        }
        plans[producer].push(12);
        if ctx.poll_consume && rng.chance(50) {
            plans[producer].push(12);
        }
        if ctx.mutexes.len() >= 2 && rng.chance(40) {
            plans[rng.below(total)].push(13);
        }
    }
    for &family in &try_families {
        if total < 2 {
            break;
        }
        let a = rng.below(total);
        let b2 = (a + 1 + rng.below(total - 1)) % total;
        // 14: a trylock-entered section of the first mutex; 15/16: a trywait loop and a
        // post; 17: a read or write section entered with tries (18: a blocking write
        // section); 19/20: a timed-wait poll of the first mutex's flag and a thread that
        // sets it under the mutex and signals (or not).
        match family {
            0 => {
                plans[a].push(14);
                plans[b2].push(14);
            }
            1 => {
                plans[a].push(15);
                plans[b2].push(16);
            }
            2 => {
                plans[a].push(17);
                plans[b2].push(if rng.chance(50) { 17 } else { 18 });
            }
            _ => {
                // The poller is a child (main polling before it creates the setter would
                // only ever livelock).
                let a = 1 + rng.below(total - 1);
                let b2 = (a + 1 + rng.below(total - 1)) % total;
                plans[a].push(19);
                plans[b2].push(20);
            }
        }
    }
    if !ctx.barriers.is_empty() && total >= 2 {
        let a = rng.below(total);
        let b2 = (a + 1 + rng.below(total - 1)) % total;
        plans[a].push(5);
        plans[b2].push(5);
    }
    let body = |rng: &mut Rng, t: &mut ThreadBuilder, plan: &[u8]| {
        let mut g = Gen {
            rng,
            ctx: &ctx,
            held: Vec::new(),
            held_spin: Vec::new(),
            data: Vec::new(),
            budget: shape.max_visible,
        };
        for &p in plan {
            if p == 8 || p == 9 {
                let me = (p - 8) as usize;
                let other = 1 - me;
                let (want, turn) = ([g.ctx.visible[0], g.ctx.visible[1]], g.ctx.visible[2]);
                if g.rng.chance(25) {
                    // Broken: the turn first.
                    t.write(turn, other as i64);
                    t.write(want[me], 1);
                } else {
                    t.write(want[me], 1);
                    t.write(turn, other as i64);
                }
                let rotated = g.rng.chance(50);
                t.spin_while_both(want[other], 1, turn, other as i64, rotated);
                // The critical section: plain accesses to a variable of its own.
                let x = t.load(g.ctx.inside);
                t.store(g.ctx.inside, x.add(1));
                t.assert(x.eq(0), "mutual exclusion");
                let y = t.load(g.ctx.inside);
                t.store(g.ctx.inside, y.sub(1));
                t.write(want[me], 0);
            } else if p == 10 {
                g.budget += 2;
                g.spin_section(t, 0, Some(0));
            } else if p == 6 {
                let r = if g.ctx.wide_spins && g.rng.chance(75) {
                    t.spin_until_any_nonzero(&g.ctx.visible[..3])
                } else if g.ctx.multi_spins && g.rng.chance(50) {
                    t.spin_until_either_nonzero_rotated(g.ctx.visible[0], g.ctx.visible[1])
                } else if g.ctx.multi_spins {
                    t.spin_until_any_nonzero(&g.ctx.visible[..2])
                } else {
                    t.spin_until_nonzero(g.ctx.visible[0])
                };
                g.data.push(r);
            } else if p == 7 {
                let v = if g.ctx.wide_spins {
                    g.ctx.visible[g.rng.below(3)]
                } else if g.ctx.multi_spins {
                    g.ctx.visible[g.rng.below(2)]
                } else {
                    g.ctx.visible[0]
                };
                t.write(v, 1);
            } else if p == 11 || p == 21 {
                let r = g.poll(t, 0, p == 21);
                g.data.push(r);
            } else if p == 13 {
                let r = g.poll(t, 1, true);
                g.data.push(r);
            } else if p == 12 {
                let m = g.ctx.mutexes[0];
                t.lock(m);
                if g.ctx.poll_consume {
                    let n = t.load(g.ctx.guarded[0]);
                    t.store(g.ctx.guarded[0], n.add(1));
                } else {
                    t.store(g.ctx.guarded[0], 1);
                }
                t.unlock(m);
            } else if p == 14 {
                g.budget += 2;
                g.trylock_section(t, 0, Some(0));
            } else if p == 15 {
                g.budget += 2;
                g.sem_try_statement(t);
            } else if p == 16 {
                t.sem_post(g.ctx.sems[0]);
            } else if p == 17 {
                g.budget += 2;
                let write = g.rng.chance(50);
                g.rw_try_section(t, 0, write);
            } else if p == 18 {
                let l = g.ctx.rwlocks[0];
                t.wrlock(l);
                if !g.ctx.visible.is_empty() {
                    t.write(g.ctx.visible[0], 2);
                }
                t.rwunlock(l);
            } else if p == 19 {
                g.budget += 4;
                g.cond_poll_statement(t);
            } else if p == 20 {
                // Set the flag under the mutex, then signal, broadcast, or forget to.
                let (c, m) = (g.ctx.timed_cond.expect("a timed-wait poll's condition variable"), 0);
                t.lock(g.ctx.mutexes[m]);
                t.store(g.ctx.guarded[m], 1);
                match g.rng.below(4) {
                    0 | 1 => t.signal(c),
                    2 => t.broadcast(c),
                    _ => {}
                }
                t.unlock(g.ctx.mutexes[m]);
            } else if p == 5 {
                g.budget += 2;
                g.barrier_statement(t, 0);
            } else {
                g.budget += 3;
                g.cond_statement(t, p as usize);
            }
        }
        let n = 1 + g.rng.below(shape.max_statements);
        for _ in 0..n {
            g.statement(t, 0);
        }
    };
    while others > 0 {
        let grandchild = if others >= 2 && rng.chance(35) {
            others -= 1;
            Some(b.thread("grandchild", |t| body(&mut rng, t, &[])))
        } else {
            None
        };
        others -= 1;
        let join_gc = rng.chance(50);
        let slot = (top.len() + 1).min(total - 1);
        let plan = std::mem::take(&mut plans[slot]);
        let child = b.thread("child", |t| {
            let h = grandchild.map(|gc| t.spawn(gc));
            body(&mut rng, t, &plan);
            if let (Some(h), true, false) = (h, join_gc, shape.lock_free) {
                t.join(h);
            }
        });
        top.push(child);
    }
    let joins: Vec<bool> = top.iter().map(|_| rng.chance(70) && !shape.lock_free).collect();
    let main_plan = std::mem::take(&mut plans[0]);
    // A poll in main before it creates the other threads would wait for nothing.
    let main_first = rng.chance(50) && !main_plan.iter().any(|&p| p == 11 || p == 13 || p == 21);
    b.main(|t| {
        for &(s, v) in &sem_init {
            t.sem_init(s, v);
        }
        for &(x, n) in &barrier_init {
            t.barrier_init(x, n);
        }
        if main_first {
            body(&mut rng, t, &main_plan);
        }
        let hs: Vec<Reg> = top.iter().map(|&c| t.spawn(c)).collect();
        if !main_first {
            body(&mut rng, t, &main_plan);
        }
        for (h, j) in hs.into_iter().zip(joins) {
            if j {
                t.join(h);
            }
        }
    });
    b.build()
}
