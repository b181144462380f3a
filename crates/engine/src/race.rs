//! Data-race detection: happens-before over every synchronising object, checked on every
//! plain memory access of an execution.
//!
//! # What is a data race
//!
//! Two accesses to overlapping bytes, by different threads, at least one of them a
//! write and at least one of them plain (not atomic), that are not ordered by
//! happens-before. Happens-before is the transitive closure of program order and of the
//! *synchronises-with* edges of the visible operations:
//! - thread creation → the new thread's first action; a thread's last action → the join
//!   that waits for it;
//! - mutex and spinlock: unlock → the next acquisition (lock, successful trylock);
//! - read-write lock: write unlock → every later acquisition; read unlock → the next
//!   write acquisition (readers do not synchronise with each other);
//! - semaphore: post → a wait or successful trywait; condition variable: signal or
//!   broadcast → a signalled wake-up; barrier: every arrival of a round → every thread
//!   leaving it;
//! - atomics, by memory order (C11 7.17.3-4; schedules stay sequentially consistent,
//!   the orders decide only happens-before): a release store (release, acq_rel,
//!   seq_cst) → a later acquire load or read-modify-write of the location (acquire,
//!   consume, acq_rel, seq_cst) that reads it or a later value of its release sequence
//!   (the read-modify-writes after it and the same thread's later stores; another
//!   thread's store starts a new one); a failed compare-exchange is a load with its
//!   failure order. A relaxed store releases what its thread's last release fence
//!   published, and a relaxed load's acquisition takes effect at its thread's next
//!   acquire fence (fence synchronisation, 7.17.4). Relaxed accesses alone order
//!   nothing: message passing through a relaxed flag races.
//!
//! # Algorithm (vector clocks with epochs, as in FastTrack)
//!
//! Each thread has a vector clock; each synchronising object keeps the clock its last
//! release published. A thread's own entry is incremented after each of its visible
//! steps, so an access is identified by an *epoch* `(thread, clock)` and `e ≤ C` is one
//! comparison. The shadow state of a byte is the epoch of its last write and of its last
//! read — or of every read since the last write, when reads were concurrent. A write
//! races with the previous write and reads it does not happen after; a read races with
//! the previous write. The first racing byte of an access (lowest address) is reported,
//! with the write before the reads and the reads in the order they were made.
//!
//! # Atomic writes that are not ordered
//!
//! Dropping the earlier write and reads at a write is sound for a plain write: any of
//! them it is not ordered after races with it and is reported. An atomic write races
//! with no atomic access, and with relaxed orders two atomic writes need not be
//! ordered, so it cannot stand for them: it keeps, after itself, the write and reads it
//! is not ordered after (in the read half, each marked as a write or a read). Reads
//! check those writes and never drop them (a later read by a third thread may race
//! with one, however this read is ordered); the next plain write drops them all. An
//! atomic access is checked between what it acquires and what it releases
//! ([`RaceDetector::atomic_access`]), so that a thread acquiring it is ordered after the
//! access itself.
//!
//! # Shadow memory
//!
//! The state is per byte, but stored per 8-byte word, in pages of 512 bytes of address
//! space (`Shadow`) made, zeroed, when an execution first touches them (a reset keeps
//! their room: an execution costs the pages it touches). Small pages keep small what a
//! checkpoint of the C frontend copies: a program's variables and a thread's stack
//! frames touch a few words of a page each.
//!
//! - An access is interned once into the execution's table of accesses (thread, epoch,
//!   site, atomic), and a byte's state is two 32-bit indices: its last write, and its
//!   reads — one access, or an immutable *read set* stored out of line (only when reads
//!   are concurrent). Equal states are equal integers.
//! - A word's cell is that state when its 8 bytes agree (an untouched word, one written
//!   or read as a whole, or byte by byte by one loop of one thread: the common case); it
//!   is checked and updated once per access. Only a word whose bytes differ (mixed
//!   sizes or offsets, neighbouring fields of different threads) points to 8 per-byte
//!   states, and goes back to one state when its bytes agree again.
//! - The read-set transition of a read (keep the reads it is not ordered after, add it)
//!   is a function of the old state and of the reading access while no clock moves: the
//!   last one is memoised, so the bytes of a word, and the words an array loop reads,
//!   share one set instead of building one each.
//!
//! Cost per access: O(words) cell operations (O(bytes) for split words; O(threads) for a
//! byte read concurrently), plus one look-up of the access in the table. Memory: 8 bytes
//! per touched word of the program (a page's worth at a time), 64 more per split word,
//! and one table entry per distinct access. The hot path (a word this thread already
//! accessed at this epoch) skips all of it.
//!
//! # Why exploring every trace of the synchronising events finds every race
//!
//! Suppose some execution has a race, and take the earliest racing pair `(a, b)` along
//! it (by the position of `b`). Before `b`, the execution is race-free, so the values
//! every thread read, hence its control flow and its visible operations, are determined
//! by the order of the visible operations alone. Plain accesses are not scheduling points:
//! each runs in the stretch of its thread between two visible operations, so `a` and `b`
//! belong to two visible steps `s_a`, `s_b` (the steps that end those stretches), and
//! `a`, `b` unordered by happens-before means `s_a` does not happen before the step
//! preceding `b`'s stretch. The explorers visit every Mazurkiewicz trace of the visible
//! operations (every happens-before order of them), and in the execution of the trace of
//! this prefix the same two stretches run, with the same happens-before relation between
//! them: the detector, which checks every access against happens-before rather than
//! against the order the accesses happened to run in, reports `(a, b)` there — whatever
//! interleaving of the stretches that execution uses. Data races therefore need no
//! scheduling points of their own, and one execution per trace suffices.

use crate::action::Action;
use crate::ids::{ObjId, ThreadId};
use crate::program::Site;
use rustc_hash::FxHashMap as HashMap;

#[cfg(test)]
#[path = "race_reference.rs"]
mod reference;

/// A vector clock: entry `t` is the number of `t`'s steps known to happen before.
type Clock = Vec<u32>;

fn join(into: &mut Clock, from: &Clock) {
    if into.len() < from.len() {
        into.resize(from.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(from) {
        *a = (*a).max(*b);
    }
}

/// Happens-before in one execution: every thread's vector clock and the clocks the
/// synchronising objects published (module documentation, "Algorithm"). Shared with the
/// tests' reference detector, which differs only in its shadow memory.
#[derive(Debug, Default)]
struct Clocks {
    threads: Vec<Clock>,
    /// Final clock of each exited thread (for joins).
    finals: Vec<Option<Clock>>,
    /// Clock published by each synchronising object's releases.
    objects: HashMap<ObjId, Clock>,
    /// Read-write locks: the clock published by read unlocks (write locks acquire it).
    read_released: HashMap<ObjId, Clock>,
    /// Per thread: its clock at its last release fence (what its relaxed stores release).
    fence_released: Vec<Clock>,
    /// Per thread: what its relaxed loads read, acquired at its next acquire fence.
    fence_pending: Vec<Clock>,
    /// The thread whose release store heads each location's release sequence (its later
    /// relaxed stores continue it: C11's definition).
    heads: HashMap<ObjId, ThreadId>,
    /// Barriers: the clock of the last completed round, which its waiters acquire when
    /// they leave (`objects` holds the arrivals of the round in progress: a thread that
    /// left and arrived for the next round before a slower one left is not ordered
    /// before the slower one's leaving). Only the last round can have waiters still to
    /// leave: the next one needs their arrivals to complete.
    rounds: HashMap<ObjId, Clock>,
}

impl Clocks {
    /// A new execution, main thread only. The clocks' allocations are kept for the next
    /// execution (an empty clock is the zero clock): a run allocated one per step before.
    fn reset(&mut self) {
        for c in &mut self.threads {
            c.clear();
        }
        self.finals.clear();
        if self.objects.len() > MAX_KEPT_OBJECTS {
            self.objects.clear();
        }
        for c in self.objects.values_mut() {
            c.clear();
        }
        self.read_released.clear();
        self.rounds.clear();
        self.fence_released.iter_mut().for_each(Vec::clear);
        self.fence_pending.iter_mut().for_each(Vec::clear);
        self.heads.clear();
        self.clock_mut(ThreadId::MAIN)[0] = 1;
    }

    fn clock_mut(&mut self, t: ThreadId) -> &mut Clock {
        let i = t.index();
        if self.threads.len() <= i {
            self.threads.resize_with(i + 1, Vec::new);
        }
        let c = &mut self.threads[i];
        if c.len() <= i {
            c.resize(i + 1, 0);
        }
        c
    }

    /// `t` acquires what `o`'s releases published.
    fn acquire_object(&mut self, t: ThreadId, o: ObjId) {
        self.clock_mut(t);
        if let Some(f) = self.objects.get(&o) {
            join(&mut self.threads[t.index()], f);
        }
    }

    /// `o` publishes `t`'s clock (replacing what it held).
    fn publish(&mut self, t: ThreadId, o: ObjId) {
        self.clock_mut(t);
        let c = self.objects.entry(o).or_default();
        c.clear();
        c.extend_from_slice(&self.threads[t.index()]);
    }

    fn tick(&mut self, t: ThreadId) {
        self.clock_mut(t)[t.index()] += 1;
    }

    /// The synchronisation of a visible step of `t` that is not a memory access:
    /// acquisitions join the object's clock into `t`'s, releases publish `t`'s. Called
    /// when the step is performed, before `t` runs on.
    fn on_step(&mut self, t: ThreadId, a: Action) {
        self.clock_mut(t);
        let ti = t.index();
        match a {
            Action::Create(c) => {
                let ci = c.index();
                if self.threads.len() <= ci {
                    self.threads.resize_with(ci + 1, Vec::new);
                }
                if ci != ti {
                    let (own, child) = if ti < ci {
                        let (a, b) = self.threads.split_at_mut(ci);
                        (&a[ti], &mut b[0])
                    } else {
                        let (a, b) = self.threads.split_at_mut(ti);
                        (&b[0], &mut a[ci])
                    };
                    child.clear();
                    child.extend_from_slice(own);
                    if child.len() <= ci {
                        child.resize(ci + 1, 0);
                    }
                    child[ci] = child[ci].max(1);
                }
            }
            Action::Exit => {
                if self.finals.len() <= ti {
                    self.finals.resize(ti + 1, None);
                }
                self.finals[ti] = Some(self.threads[ti].clone());
            }
            Action::Join(u) => {
                if let Some(Some(f)) = self.finals.get(u.index()) {
                    join(&mut self.threads[ti], f);
                }
            }
            Action::BarrierLeave(o) => {
                self.clock_mut(t);
                if let Some(r) = self.rounds.get(&o) {
                    join(&mut self.threads[ti], r);
                }
            }
            Action::Lock(o)
            | Action::TryLock(o, true)
            | Action::SemWait(o)
            | Action::SemTryWait(o, true)
            | Action::CondWake(o, _, true)
            | Action::RdLock(o)
            | Action::TryRdLock(o, true) => self.acquire_object(t, o),
            Action::WrLock(o) | Action::TryWrLock(o, true) => {
                self.acquire_object(t, o);
                if let Some(r) = self.read_released.get(&o) {
                    join(&mut self.threads[ti], r);
                }
            }
            Action::Unlock(o, _) | Action::RwUnlock(o, true) => self.publish(t, o),
            Action::RwUnlock(o, false) => join(self.read_released.entry(o).or_default(), &self.threads[ti]),
            Action::SemPost(o) | Action::Signal(o) | Action::Broadcast(o) => {
                join(self.objects.entry(o).or_default(), &self.threads[ti]);
            }
            Action::BarrierArrive(o, serial) => {
                let arrivals = self.objects.entry(o).or_default();
                join(arrivals, &self.threads[ti]);
                if serial {
                    // The round is complete: its clock goes to its leavers, and the next
                    // round's arrivals start from nothing.
                    let round = self.rounds.entry(o).or_default();
                    round.clear();
                    round.extend_from_slice(arrivals);
                    arrivals.clear();
                    join(&mut self.threads[ti], round);
                }
            }
            _ => {}
        }
        self.tick(t);
    }

    /// The synchronisation of an atomic operation of `t` on location `o` with memory
    /// order `mo` (module documentation).
    fn on_atomic(&mut self, t: ThreadId, o: ObjId, op: AtomicOp, mo: MemoryOrder) {
        self.atomic_acquire(t, o, op, mo);
        self.atomic_release(t, o, op, mo);
    }

    /// The read side of an atomic operation: what its load acquires (at once, or at the
    /// thread's next acquire fence). The access itself is checked after it and before
    /// [`Clocks::atomic_release`], so that what the operation releases covers it.
    fn atomic_acquire(&mut self, t: ThreadId, o: ObjId, op: AtomicOp, mo: MemoryOrder) {
        self.clock_mut(t);
        let ti = t.index();
        if matches!(op, AtomicOp::Load | AtomicOp::FailedRmw | AtomicOp::Rmw) {
            if mo.acquires() {
                self.acquire_object(t, o);
            } else if let Some(c) = self.objects.get(&o) {
                join(per_thread(&mut self.fence_pending, ti), c);
            }
        }
    }

    /// The write side of an atomic operation (or a fence), then the thread's next epoch.
    fn atomic_release(&mut self, t: ThreadId, o: ObjId, op: AtomicOp, mo: MemoryOrder) {
        self.clock_mut(t);
        let ti = t.index();
        match op {
            AtomicOp::Store if mo.releases() => {
                self.publish(t, o);
                self.heads.insert(o, t);
            }
            AtomicOp::Store => {
                let fence = per_thread(&mut self.fence_released, ti);
                let c = self.objects.entry(o).or_default();
                if self.heads.get(&o) == Some(&t) {
                    join(c, fence);
                } else {
                    c.clone_from(fence);
                    self.heads.remove(&o);
                }
            }
            AtomicOp::Rmw => {
                // Continues the release sequence, adding what this one releases.
                let released: &Clock =
                    if mo.releases() { &self.threads[ti] } else { per_thread(&mut self.fence_released, ti) };
                join(self.objects.entry(o).or_default(), released);
            }
            AtomicOp::Load | AtomicOp::FailedRmw => {}
            AtomicOp::Fence => {
                if mo.acquires() {
                    join(&mut self.threads[ti], per_thread(&mut self.fence_pending, ti));
                }
                if mo.releases() {
                    per_thread(&mut self.fence_released, ti).clone_from(&self.threads[ti]);
                }
            }
        }
        self.tick(t);
    }
}

/// Most races one [`RaceDetector::on_free`] returns.
pub const MAX_FREE_RACES: usize = 16;

/// Add `r` to the races of a free (in address order) unless one with the same earlier
/// site is there: the runtime reports a pair of sites once, whichever ran first.
pub(crate) fn push_free_race(races: &mut Vec<Race>, r: Race) {
    if races.len() < MAX_FREE_RACES && !races.iter().any(|x| x.first.site == r.first.site) {
        races.push(r);
    }
}

/// Objects whose clocks [`Clocks::reset`] keeps (emptied) for the next execution; beyond
/// it the table is dropped, so that it stays bounded.
const MAX_KEPT_OBJECTS: usize = 4096;

/// An access identified by its thread's clock entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Epoch {
    thread: ThreadId,
    clock: u32,
    site: Site,
}

impl Epoch {
    /// Whether this access happens before a thread whose clock is `c`.
    #[inline]
    fn before(&self, c: &Clock) -> bool {
        c.get(self.thread.index()).is_some_and(|&x| self.clock <= x)
    }
}

/// One side of a data race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceAccess {
    /// The thread that made the access.
    pub thread: ThreadId,
    /// Whether it wrote.
    pub write: bool,
    /// Whether it was atomic.
    pub atomic: bool,
    /// Where (a code address for C).
    pub site: Site,
}

/// A data race: an earlier access and the current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    /// The first byte both accesses touch.
    pub addr: u64,
    /// The earlier access.
    pub first: RaceAccess,
    /// The access being made.
    pub second: RaceAccess,
}

/// Entry `i` of a per-thread table of clocks, grown as needed.
fn per_thread(v: &mut Vec<Clock>, i: usize) -> &mut Clock {
    if v.len() <= i {
        v.resize_with(i + 1, Vec::new);
    }
    &mut v[i]
}

/// The memory order of an atomic operation or fence (C11 `memory_order`), as far as
/// happens-before is concerned: consume is taken as acquire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryOrder {
    /// `memory_order_relaxed`: orders nothing by itself.
    Relaxed,
    /// `memory_order_acquire` (and `consume`).
    Acquire,
    /// `memory_order_release`.
    Release,
    /// `memory_order_acq_rel`.
    AcqRel,
    /// `memory_order_seq_cst` (the default of `<stdatomic.h>` and `__sync_*`).
    SeqCst,
}

impl MemoryOrder {
    /// From the thread-sanitizer ABI's numbering (relaxed 0, consume 1, acquire 2,
    /// release 3, acq_rel 4, seq_cst 5); anything else is taken as seq_cst.
    pub fn from_tsan(mo: i32) -> Self {
        match mo & 0xffff {
            0 => MemoryOrder::Relaxed,
            1 | 2 => MemoryOrder::Acquire,
            3 => MemoryOrder::Release,
            4 => MemoryOrder::AcqRel,
            _ => MemoryOrder::SeqCst,
        }
    }

    fn acquires(self) -> bool {
        matches!(self, MemoryOrder::Acquire | MemoryOrder::AcqRel | MemoryOrder::SeqCst)
    }

    fn releases(self) -> bool {
        matches!(self, MemoryOrder::Release | MemoryOrder::AcqRel | MemoryOrder::SeqCst)
    }
}

/// What an atomic memory operation did, for happens-before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// A load: acquires what the location's last store released.
    Load,
    /// A store: releases (and starts a new release sequence).
    Store,
    /// A read-modify-write: acquires and releases (continuing the release sequence).
    Rmw,
    /// A failed compare-exchange: a load.
    FailedRmw,
    /// A fence: with its memory order, it makes the thread's relaxed accesses
    /// synchronise (module documentation).
    Fence,
}

/// The happens-before detector of one execution (see the module documentation).
#[derive(Debug, Default)]
pub struct RaceDetector {
    /// Happens-before: the threads' clocks and what the objects published.
    hb: Clocks,
    /// The state of every byte accessed in this execution.
    shadow: Shadow,
    /// What the shadow's states refer to: accesses and read sets.
    log: Log,
    /// Per word, the last access to it (in the slot `HotSlots::slot` gives the word):
    /// by whom, at which epoch, and which of its bytes that thread has already written /
    /// read at that epoch. Repeating such an access can neither race nor change the shadow
    /// state (the hot path of a loop).
    hot: HotSlots,
}

/// Hot records for up to [`HOT_SLOTS`] words, one slot per word (direct-mapped by the
/// word's address). Every access to a word goes through its slot, replacing a record of
/// another access or word there, so a record of a word is always about the last access to
/// it; an access off the hot path (across words) and a free clear the slots of their
/// words. A loop over up to `HOT_SLOTS` consecutive words keeps all of them hot, where a
/// single record was replaced at every word (bench/accesses.c: docs/execution-cost.md,
/// round 24).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct HotSlots([Option<Hot>; HOT_SLOTS]);

/// The number of hot records ([`HotSlots`]): 128 bytes of consecutive words.
const HOT_SLOTS: usize = 16;

impl HotSlots {
    #[inline]
    fn slot(word: u64) -> usize {
        ((word >> 3) as usize) & (HOT_SLOTS - 1)
    }

    /// Whether the record of its word covers the access `a` ([`Hot::of`]): see
    /// [`Hot::covers`].
    #[inline]
    fn covers(&self, a: Option<(Hot, u8)>, write: bool) -> bool {
        a.is_some_and(|(h, _)| Hot::covers(self.0[Self::slot(h.word)], a, write))
    }

    /// Record the access `a` ([`Hot::of`]) of `[addr, addr + size)`, made after the
    /// check: the record of its word after it, or, for an access off the hot path, no
    /// record of any word it touched.
    #[inline]
    fn record(&mut self, a: Option<(Hot, u8)>, addr: u64, size: u64, write: bool) {
        if let Some((h, _)) = a {
            let s = &mut self.0[Self::slot(h.word)];
            *s = Hot::after(*s, a, write);
            return;
        }
        let end = addr.saturating_add(size.max(1));
        if end - (addr & !7) >= (HOT_SLOTS as u64) * 8 {
            // Every slot's word may be among them (a large memset, a free).
            self.clear();
            return;
        }
        let mut w = addr & !7;
        while w < end {
            let s = &mut self.0[Self::slot(w)];
            if s.is_some_and(|h| h.word == w) {
                *s = None;
            }
            w = match w.checked_add(8) {
                Some(n) => n,
                None => break,
            };
        }
    }

    fn clear(&mut self) {
        self.0 = [None; HOT_SLOTS];
    }
}

/// `dst := src` for a map of clocks, reusing `dst`'s clocks (the C frontend's
/// checkpoints copy the detector at every branch point).
fn clone_clocks_from<K: Copy + Eq + std::hash::Hash>(dst: &mut HashMap<K, Clock>, src: &HashMap<K, Clock>) {
    dst.retain(|k, _| src.contains_key(k));
    for (k, c) in src {
        dst.entry(*k).or_default().clone_from(c);
    }
}

// Clones that reuse the destination's allocations (`clone_from`), for the C frontend's
// checkpoints, which copy a detector back and forth at every branch point.
impl Clone for Clocks {
    fn clone(&self) -> Self {
        let mut c = Clocks::default();
        c.clone_from(self);
        c
    }

    fn clone_from(&mut self, src: &Self) {
        // Destructured: a field added later must be listed here.
        let Clocks { threads, finals, objects, read_released, fence_released, fence_pending, heads, rounds } = src;
        self.threads.clone_from(threads);
        self.finals.clone_from(finals);
        clone_clocks_from(&mut self.objects, objects);
        clone_clocks_from(&mut self.read_released, read_released);
        self.fence_released.clone_from(fence_released);
        self.fence_pending.clone_from(fence_pending);
        self.heads.clone_from(heads);
        clone_clocks_from(&mut self.rounds, rounds);
    }
}

impl Clone for Shadow {
    fn clone(&self) -> Self {
        let mut c = Shadow::default();
        c.clone_from(self);
        c
    }

    fn clone_from(&mut self, src: &Self) {
        // Destructured: a field added later must be listed here.
        let Shadow { index, pages, last, splits, free_splits } = src;
        self.index.clone_from(index);
        self.pages.clone_from(pages);
        self.last = *last;
        self.splits.clone_from(splits);
        self.free_splits.clone_from(free_splits);
    }
}

impl Clone for RaceDetector {
    fn clone(&self) -> Self {
        let mut c = RaceDetector::default();
        c.clone_from(self);
        c
    }

    fn clone_from(&mut self, src: &Self) {
        let RaceDetector { hb, shadow, log, hot } = src;
        self.hb.clone_from(hb);
        self.shadow.clone_from(shadow);
        self.log.clone_from(log);
        self.hot = *hot;
    }
}

/// See [`RaceDetector::hot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hot {
    thread: ThreadId,
    word: u64,
    clock: u32,
    atomic: bool,
    written: u8,
    read: u8,
}

impl Hot {
    /// An access of `size` bytes at `addr` by `t` at clock `now`, as a record with no
    /// bytes yet, and the mask of its bytes in its word; `None` for one that is empty or
    /// crosses a word (it is never on the hot path).
    fn of(t: ThreadId, addr: u64, size: u64, now: u32, atomic: bool) -> Option<(Hot, u8)> {
        let in_word = size > 0 && size <= 8 && (addr & 7) + size <= 8;
        let mask = (((1u16 << size.min(8)) - 1) << (addr & 7)) as u8;
        in_word.then_some((Hot { thread: t, word: addr & !7, clock: now, atomic, written: 0, read: 0 }, mask))
    }

    /// Whether both records are of one thread, word, epoch and atomicity.
    fn same(&self, o: &Hot) -> bool {
        (self.thread, self.word, self.clock, self.atomic) == (o.thread, o.word, o.clock, o.atomic)
    }

    /// Whether `hot`, the last record, already covers the access `(a, mask, write)`: it
    /// would neither race nor change the shadow state.
    fn covers(hot: Option<Hot>, a: Option<(Hot, u8)>, write: bool) -> bool {
        match (hot, a) {
            (Some(h), Some((a, mask))) if h.same(&a) => {
                mask & !h.written == 0 || (!write && mask & !(h.read | h.written) == 0)
            }
            _ => false,
        }
    }

    /// The record after the access `a` (`None` for one off the hot path), given the last.
    fn after(hot: Option<Hot>, a: Option<(Hot, u8)>, write: bool) -> Option<Hot> {
        let (a, mask) = a?;
        let mut h = hot.filter(|h| h.same(&a)).unwrap_or(a);
        if write {
            h.written |= mask;
        } else {
            h.read |= mask;
        }
        Some(h)
    }
}

// ---- shadow states ---------------------------------------------------------------------

/// The state of one byte, or of every byte of a word whose bytes agree: the low half is
/// the last write (0: none; else an index into [`Log::accesses`]), the high half the
/// reads since (0: none; an index into [`Log::accesses`] for one read; [`READ_SET`]` | i`
/// for the read set `i` of [`Log::sets`]). A word's cell whose low half is [`SPLIT`]
/// holds, in its high half, the index of its bytes' states in [`Shadow::splits`].
type Cell = u64;

/// Tags a read half that names a read set.
const READ_SET: u32 = 1 << 31;
/// Tags a word's cell whose bytes' states differ.
const SPLIT: u32 = u32::MAX;
/// The state of a byte never accessed (or whose block was freed).
const EMPTY: Cell = 0;

#[inline]
fn cell(write: u32, read: u32) -> Cell {
    u64::from(write) | (u64::from(read) << 32)
}

#[inline]
fn write_of(c: Cell) -> u32 {
    c as u32
}

#[inline]
fn read_of(c: Cell) -> u32 {
    (c >> 32) as u32
}

/// A 32-bit index for the tables of the shadow, below [`READ_SET`] (so below [`SPLIT`]).
fn index32(len: usize, what: &str) -> u32 {
    match u32::try_from(len) {
        Ok(i) if i < READ_SET => i,
        _ => panic!("race detector: more than 2^31 {what} in one execution"),
    }
}

/// How many of the last interned accesses [`Log::intern`] compares before it looks the
/// access up.
const RECENT: usize = 4;

/// An access as the shadow refers to it.
#[derive(Clone, Copy, Debug)]
struct Access {
    epoch: Epoch,
    atomic: bool,
    /// A write. The read half of a state holds writes too: the atomic writes (and the
    /// write before them) that a later atomic write did not happen after (module
    /// documentation, "Atomic writes that are not ordered").
    write: bool,
}

/// The accesses and read sets the shadow's states refer to (per execution). Both are
/// append-only: a state, once made, never changes meaning.
#[derive(Debug, Default)]
struct Log {
    /// Interned accesses; index 0 is unused (it means "none" in a state).
    accesses: Vec<Access>,
    /// The latest access of each (thread, site, atomic, write): interning a repeated
    /// access is one look-up (the epoch is compared with the entry's).
    interned: HashMap<(ThreadId, Site, bool, bool), u32>,
    /// The accesses interned last, most recent first (0: none): a loop's accesses repeat
    /// them, and a loop body has a read and a write site at least (`a[i] += x`), which
    /// alternate; a look-up of `interned` cost about a sixth of a plain access
    /// (docs/execution-cost.md, round 24).
    recent: [u32; RECENT],
    /// Read sets: `(start, len)` in `set_items`, each item an index into `accesses`,
    /// in the order the reads were made.
    sets: Vec<(u32, u32)>,
    set_items: Vec<u32>,
    /// The last read transition: (old read half, reading access) → new read half. Valid
    /// while no clock moves (cleared at every synchronisation).
    memo: Option<(u32, u32, u32)>,
}

impl Clone for Log {
    fn clone(&self) -> Self {
        let mut c = Log::default();
        c.clone_from(self);
        c
    }

    /// Field by field, reusing the destination's buffers (see [`RaceDetector`]'s).
    fn clone_from(&mut self, src: &Self) {
        let Log { accesses, interned, recent, sets, set_items, memo } = src;
        self.accesses.clone_from(accesses);
        self.interned.clone_from(interned);
        self.sets.clone_from(sets);
        self.set_items.clone_from(set_items);
        (self.recent, self.memo) = (*recent, *memo);
    }
}

/// What an access (or a free) checks a state against, and what it becomes.
struct Cx<'a> {
    thread: ThreadId,
    /// The access's index into [`Log::accesses`].
    me: u32,
    write: bool,
    atomic: bool,
    clock: &'a Clock,
    /// A free: the bytes are checked like for a write, then forgotten.
    free: bool,
}

impl Cx<'_> {
    /// Whether `a` races with this access: another thread's, not both atomic, not
    /// happening before it.
    #[inline]
    fn conflicts(&self, a: &Access) -> bool {
        a.epoch.thread != self.thread && !(self.atomic && a.atomic) && !a.epoch.before(self.clock)
    }

    /// Whether the read `a` stays in the read set after this thread reads: it is another
    /// thread's and does not happen before.
    #[inline]
    fn keeps(&self, a: &Access) -> bool {
        a.epoch.thread != self.thread && !a.epoch.before(self.clock)
    }

    /// Whether entry `a` of a read half stays there after this read: a read as
    /// [`Cx::keeps`] says; a write always (a later read by a third thread may race with
    /// it, however this read is ordered: reads do not conflict).
    #[inline]
    fn keeps_on_read(&self, a: &Access) -> bool {
        a.write || self.keeps(a)
    }
}

impl Log {
    fn reset(&mut self) {
        self.accesses.clear();
        let none = Epoch { thread: ThreadId(0), clock: 0, site: 0 };
        self.accesses.push(Access { epoch: none, atomic: false, write: false });
        self.interned.clear();
        self.recent = [0; RECENT];
        self.sets.clear();
        self.set_items.clear();
        self.memo = None;
    }

    /// The index of the access (`t` at epoch `clock`, at `site`).
    #[inline]
    fn intern(&mut self, t: ThreadId, clock: u32, site: Site, atomic: bool, write: bool) -> u32 {
        let epoch = Epoch { thread: t, clock, site };
        for k in 0..RECENT {
            let r = self.recent[k];
            let l = &self.accesses[r as usize];
            if r != 0 && l.epoch == epoch && l.atomic == atomic && l.write == write {
                // Most recent first: a loop's sites stay in front.
                for j in (1..=k).rev() {
                    self.recent[j] = self.recent[j - 1];
                }
                self.recent[0] = r;
                return r;
            }
        }
        let next = self.accesses.len();
        let i = self.interned.entry((t, site, atomic, write)).or_insert(0);
        if *i == 0 || self.accesses[*i as usize].epoch.clock != clock {
            *i = index32(next, "accesses");
            self.accesses.push(Access { epoch, atomic, write });
        }
        let i = *i;
        for j in (1..RECENT).rev() {
            self.recent[j] = self.recent[j - 1];
        }
        self.recent[0] = i;
        i
    }

    /// The reads of a read half, in the order they were made.
    #[inline]
    fn reads(&self, r: u32) -> (Option<u32>, &[u32]) {
        if r == 0 {
            (None, &[])
        } else if r & READ_SET == 0 {
            (Some(r), &[])
        } else {
            let (start, len) = self.sets[(r & !READ_SET) as usize];
            (None, &self.set_items[start as usize..(start + len) as usize])
        }
    }

    /// The access in state `c` that races with `cx`, and whether it wrote: the write
    /// first, then (for a write) the reads in order.
    #[inline]
    fn conflict(&self, c: Cell, cx: &Cx) -> Option<(Access, bool)> {
        let w = write_of(c);
        if w != 0 {
            let a = self.accesses[w as usize];
            if cx.conflicts(&a) {
                return Some((a, true));
            }
        }
        if read_of(c) != 0 {
            let (one, set) = self.reads(read_of(c));
            for i in one.iter().chain(set) {
                let a = self.accesses[*i as usize];
                if (cx.write || a.write) && cx.conflicts(&a) {
                    return Some((a, a.write));
                }
            }
        }
        None
    }

    /// The state after the access `cx` to a byte in state `c`.
    #[inline]
    fn next(&mut self, c: Cell, cx: &Cx) -> Cell {
        if cx.write && cx.atomic {
            cell(cx.me, self.kept_by_atomic_write(c, cx))
        } else if cx.write {
            cell(cx.me, 0)
        } else {
            cell(write_of(c), self.read_after(read_of(c), cx))
        }
    }

    /// The read half after an atomic write `cx` to a byte in state `c`: the write and the
    /// read half's entries that it does not happen after (another thread's), in order.
    /// Unlike a plain write, which races with any of them it is not ordered after (and is
    /// reported), an atomic write is no race with another atomic access, so it cannot
    /// stand for them: a later plain access must still be checked against them.
    fn kept_by_atomic_write(&mut self, c: Cell, cx: &Cx) -> u32 {
        let at = self.set_items.len();
        let w = write_of(c);
        if w != 0 && cx.keeps(&self.accesses[w as usize]) {
            self.set_items.push(w);
        }
        self.push_kept(read_of(c), |a| cx.keeps(a));
        match self.set_items.len() - at {
            0 => 0,
            1 => self.set_items.pop().expect("one item"),
            _ => self.push_set(at),
        }
    }

    /// The read half after the read `cx`: the reads it does not happen after (nor its
    /// own thread's), then itself.
    fn read_after(&mut self, r: u32, cx: &Cx) -> u32 {
        if let Some((old, me, new)) = self.memo {
            if old == r && me == cx.me {
                return new;
            }
        }
        let new = if r == 0 {
            cx.me
        } else if r & READ_SET == 0 {
            if cx.keeps_on_read(&self.accesses[r as usize]) {
                self.new_set(&[r], cx.me)
            } else {
                cx.me
            }
        } else {
            let at = self.set_items.len();
            self.push_kept(r, |a| cx.keeps_on_read(a));
            if self.set_items.len() == at {
                cx.me
            } else {
                self.set_items.push(cx.me);
                self.push_set(at)
            }
        };
        self.memo = Some((r, cx.me, new));
        new
    }

    /// Push onto `set_items` the entries of read half `r` (none, one access, or a set)
    /// that `keep` keeps, in order.
    #[inline]
    fn push_kept(&mut self, r: u32, keep: impl Fn(&Access) -> bool) {
        if r == 0 {
            return;
        }
        if r & READ_SET == 0 {
            if keep(&self.accesses[r as usize]) {
                self.set_items.push(r);
            }
        } else {
            let (start, len) = self.sets[(r & !READ_SET) as usize];
            for k in start..start + len {
                let i = self.set_items[k as usize];
                if keep(&self.accesses[i as usize]) {
                    self.set_items.push(i);
                }
            }
        }
    }

    fn new_set(&mut self, kept: &[u32], me: u32) -> u32 {
        let at = self.set_items.len();
        self.set_items.extend_from_slice(kept);
        self.set_items.push(me);
        self.push_set(at)
    }

    /// The read set made of `set_items[at..]`.
    fn push_set(&mut self, at: usize) -> u32 {
        let start = index32(at, "read-set items");
        let len = index32(self.set_items.len() - at, "read-set items");
        let i = index32(self.sets.len(), "read sets");
        self.sets.push((start, len));
        READ_SET | i
    }
}

// ---- shadow memory ---------------------------------------------------------------------

/// log2 of the bytes of address space per page of the shadow. 512 bytes: the copies of
/// the detector in checkpoints took 263 ns each with 4 KiB pages on mpat_nested K=6 (two
/// pages in use), and QPOR's time per execution fell 2.6–3.9 % with these on three
/// programs of four (docs/execution-cost.md, round 17).
const PAGE_BITS: u32 = 9;
/// Words (cells) per page.
const WORDS: usize = 1 << (PAGE_BITS - 3);

/// One cell per 8-byte word of the address space touched in this execution, in pages
/// allocated on first touch (see the module documentation).
#[derive(Debug, Default)]
struct Shadow {
    /// Page number (address >> [`PAGE_BITS`]) → index into `pages`.
    index: HashMap<u64, u32>,
    /// The pages of this execution, in the order they were touched (their room is kept
    /// for the next execution).
    pages: Vec<[Cell; WORDS]>,
    /// The page last looked up: (page number, index into `pages`).
    last: Option<(u64, u32)>,
    /// The per-byte states of split words (never [`SPLIT`] themselves).
    splits: Vec<[Cell; 8]>,
    /// Entries of `splits` no word uses.
    free_splits: Vec<u32>,
}

impl Shadow {
    /// Forget every state.
    fn reset(&mut self) {
        self.pages.clear();
        self.index.clear();
        self.last = None;
        self.splits.clear();
        self.free_splits.clear();
    }

    /// The index of the page of number `n`, allocating it.
    #[inline]
    fn page(&mut self, n: u64) -> usize {
        if let Some((m, i)) = self.last {
            if m == n {
                return i as usize;
            }
        }
        let len = self.pages.len();
        let i = *self.index.entry(n).or_insert_with(|| index32(len, "shadow pages"));
        if i as usize == len {
            self.pages.push([EMPTY; WORDS]);
        }
        self.last = Some((n, i));
        i as usize
    }

    /// A split entry whose 8 bytes are in state `c`.
    fn split(&mut self, c: Cell) -> u32 {
        match self.free_splits.pop() {
            Some(i) => {
                self.splits[i as usize] = [c; 8];
                i
            }
            None => {
                self.splits.push([c; 8]);
                index32(self.splits.len() - 1, "split words")
            }
        }
    }

    /// After a split word's bytes changed: the cell it is now (its bytes' common state
    /// when they agree, the split entry then being freed).
    fn settle(&mut self, s: u32) -> Cell {
        let b = self.splits[s as usize];
        if b.iter().all(|&x| x == b[0]) {
            self.free_splits.push(s);
            b[0]
        } else {
            cell(SPLIT, s)
        }
    }
}

/// The bytes of the word at `word` in `[lo, hi)`, as a mask (bit `i`: byte `word + i`).
#[inline]
fn byte_mask(word: u64, lo: u64, hi: u64) -> u8 {
    let a = lo.max(word) - word;
    let b = hi.min(word.saturating_add(8)) - word;
    ((0xFFu16 << a) & (0xFFu16 >> (8 - b))) as u8
}

/// Check the bytes `mask` of the word at `word` (cell `w` of page `page`) against `cx`
/// and record `cx`'s access (a free: forget them instead). The first race (lowest byte)
/// goes into `race` unless one is there already.
#[inline]
fn visit_word(
    shadow: &mut Shadow,
    log: &mut Log,
    (page, w): (usize, usize),
    word: u64,
    mask: u8,
    cx: &Cx,
    race: &mut Option<(u64, Access, bool)>,
) {
    let free = cx.free;
    let c = shadow.pages[page][w];
    if write_of(c) != SPLIT {
        if c == EMPTY && free {
            return;
        }
        if race.is_none() {
            if let Some((a, wr)) = log.conflict(c, cx) {
                *race = Some((word + u64::from(mask.trailing_zeros()), a, wr));
            }
        }
        let n = if free { EMPTY } else { log.next(c, cx) };
        if mask == 0xFF {
            shadow.pages[page][w] = n;
        } else if n != c {
            let s = shadow.split(c);
            for (i, b) in shadow.splits[s as usize].iter_mut().enumerate() {
                if mask & (1 << i) != 0 {
                    *b = n;
                }
            }
            shadow.pages[page][w] = cell(SPLIT, s);
        }
    } else {
        let s = read_of(c);
        // Bytes in the same state as the previous one: same check, same next state.
        let mut prev: Option<(Cell, Cell)> = None;
        for i in 0..8 {
            if mask & (1 << i) == 0 {
                continue;
            }
            let old = shadow.splits[s as usize][i];
            let n = match prev {
                Some((o, n)) if o == old => n,
                _ => {
                    if race.is_none() {
                        if let Some((a, wr)) = log.conflict(old, cx) {
                            *race = Some((word + i as u64, a, wr));
                        }
                    }
                    let n = if free { EMPTY } else { log.next(old, cx) };
                    prev = Some((old, n));
                    n
                }
            };
            shadow.splits[s as usize][i] = n;
        }
        shadow.pages[page][w] = shadow.settle(s);
    }
}

impl RaceDetector {
    /// Forget everything: a new execution, main thread only.
    pub fn reset(&mut self) {
        self.hb.reset();
        self.shadow.reset();
        self.log.reset();
        self.hot.clear();
    }

    /// About how many bytes of memory the detector's state of this execution holds (its
    /// shadow pages and its log): what a copy of it costs.
    pub fn footprint(&self) -> usize {
        self.shadow.pages.len() * WORDS * std::mem::size_of::<Cell>()
            + self.log.accesses.len() * std::mem::size_of::<Access>()
            + self.log.set_items.len() * 4
            + self.hb.threads.iter().map(Vec::len).sum::<usize>() * 8
    }

    /// The synchronisation of a visible step of `t` that is not a memory access
    /// (`Clocks::on_step`).
    pub fn on_step(&mut self, t: ThreadId, a: Action) {
        self.hb.on_step(t, a);
        // A clock moved: a read transition may now keep other reads.
        self.log.memo = None;
    }

    /// The synchronisation of an atomic operation of `t` on location `o`
    /// (`Clocks::on_atomic`).
    pub fn on_atomic(&mut self, t: ThreadId, o: ObjId, op: AtomicOp) {
        self.on_atomic_ordered(t, o, op, MemoryOrder::SeqCst);
    }

    /// [`RaceDetector::on_atomic`] with the operation's memory order (a fence's location
    /// is ignored).
    pub fn on_atomic_ordered(&mut self, t: ThreadId, o: ObjId, op: AtomicOp, mo: MemoryOrder) {
        self.hb.on_atomic(t, o, op, mo);
        self.log.memo = None;
    }

    /// An atomic operation of `t` on location `o` that accesses `[addr, addr + size)`:
    /// what it acquires, then the check of the access (atomic accesses race only with
    /// plain ones), then what it releases — which covers the access itself, so that a
    /// thread acquiring it is ordered after the access (the order of the operation's
    /// parts in C11). Returns the race found, if any.
    #[allow(clippy::too_many_arguments)]
    pub fn atomic_access(
        &mut self,
        t: ThreadId,
        o: ObjId,
        op: AtomicOp,
        mo: MemoryOrder,
        addr: u64,
        size: u64,
        write: bool,
        site: Site,
    ) -> Option<Race> {
        self.hb.atomic_acquire(t, o, op, mo);
        self.log.memo = None;
        let race = self.on_access(t, addr, size, write, true, site);
        self.hb.atomic_release(t, o, op, mo);
        self.log.memo = None;
        race
    }

    /// Check an access of `size` bytes at `addr` by `t` against happens-before and record
    /// it. Returns the first race found (at most one per access). Atomic accesses race
    /// only with plain ones.
    pub fn on_access(
        &mut self,
        t: ThreadId,
        addr: u64,
        size: u64,
        write: bool,
        atomic: bool,
        site: Site,
    ) -> Option<Race> {
        let now = self.hb.clock_mut(t)[t.index()];
        // Hot path: an access within one word that this thread already made at this
        // epoch, with the same atomicity, changes nothing.
        let hot = Hot::of(t, addr, size, now, atomic);
        if self.hot.covers(hot, write) {
            return None;
        }
        let word = addr & !7;
        let me = self.log.intern(t, now, site, atomic, write);
        let cx = Cx { thread: t, me, write, atomic, clock: &self.hb.threads[t.index()], free: false };
        let mut race = None;
        let end = addr.saturating_add(size.max(1));
        let mut w = word;
        while w < end {
            let page = self.shadow.page(w >> PAGE_BITS);
            let i = ((w >> 3) as usize) & (WORDS - 1);
            let m = byte_mask(w, addr, end);
            visit_word(&mut self.shadow, &mut self.log, (page, i), w, m, &cx, &mut race);
            w = match w.checked_add(8) {
                Some(n) => n,
                None => break,
            };
        }
        self.hot.record(hot, addr, size, write);
        race.map(|(b, a, w): (u64, Access, bool)| Race {
            addr: b,
            first: RaceAccess { thread: a.epoch.thread, write: w, atomic: a.atomic, site: a.epoch.site },
            second: RaceAccess { thread: t, write, atomic, site },
        })
    }
}

impl RaceDetector {
    /// `t`'s current epoch: the value of its own clock entry, which identifies its
    /// accesses (and frees) until its next visible step.
    pub fn epoch(&mut self, t: ThreadId) -> u32 {
        self.hb.clock_mut(t)[t.index()]
    }

    /// Whether what thread `u` did at epoch `clock` happens before `t`'s current point.
    pub fn happens_before(&mut self, u: ThreadId, clock: u32, t: ThreadId) -> bool {
        u == t || self.hb.clock_mut(t).get(u.index()).is_some_and(|&x| clock <= x)
    }

    /// The end of the life of `[addr, addr + size)` by thread `t` (`free` of a heap
    /// block, or the exit of the thread whose stack it is): like a write to every byte,
    /// it races with every earlier access by another thread that does not happen before
    /// it. Returns the races in address order, one per word and per site of an earlier
    /// access (the lowest byte of each; at most [`MAX_FREE_RACES`]), and forgets the range's
    /// shadow state (any later access is a use after the end of life, which the
    /// runtime's own checks report against the free's epoch).
    ///
    /// Cost: O(min(size, pages in use)) — the pages in use are walked instead of the
    /// range when they are fewer (a thread's whole stack slot, a large block).
    pub fn on_free(&mut self, t: ThreadId, addr: u64, size: u64, site: Site) -> Vec<Race> {
        self.hot.clear();
        let end = addr.saturating_add(size);
        if end <= addr {
            return Vec::new();
        }
        self.hb.clock_mut(t);
        // A write by no access (`me` unused: freed bytes become EMPTY), plain: it races
        // with atomic accesses too.
        let cx = Cx { thread: t, me: 0, write: true, atomic: false, clock: &self.hb.threads[t.index()], free: true };
        let (first, last) = (addr >> PAGE_BITS, (end - 1) >> PAGE_BITS);
        let mut pages: Vec<(u64, u32)> = if last - first < self.shadow.index.len() as u64 {
            (first..=last).filter_map(|n| self.shadow.index.get(&n).map(|&i| (n, i))).collect()
        } else {
            self.shadow.index.iter().filter(|(&n, _)| n >= first && n <= last).map(|(&n, &i)| (n, i)).collect()
        };
        pages.sort_unstable();
        let mut races: Vec<Race> = Vec::new();
        for (n, page) in pages {
            let base = n << PAGE_BITS;
            let lo = addr.max(base);
            let hi = end.min(base.saturating_add(1 << PAGE_BITS));
            let mut w = lo & !7;
            while w < hi {
                let i = ((w >> 3) as usize) & (WORDS - 1);
                let m = byte_mask(w, lo, hi);
                let mut race = None;
                visit_word(&mut self.shadow, &mut self.log, (page as usize, i), w, m, &cx, &mut race);
                if let Some((b, a, wr)) = race {
                    let first = RaceAccess { thread: a.epoch.thread, write: wr, atomic: a.atomic, site: a.epoch.site };
                    let second = RaceAccess { thread: t, write: true, atomic: false, site };
                    push_free_race(&mut races, Race { addr: b, first, second });
                }
                w = match w.checked_add(8) {
                    Some(n) => n,
                    None => break,
                };
            }
        }
        races
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: ThreadId = ThreadId(0);
    const A: ThreadId = ThreadId(1);
    const B: ThreadId = ThreadId(2);
    const L: ObjId = ObjId(100);
    const X: u64 = 0x1000;

    fn two_threads() -> RaceDetector {
        let mut d = RaceDetector::default();
        d.reset();
        d.on_step(M, Action::Create(A));
        d.on_step(M, Action::Create(B));
        d
    }

    #[test]
    fn unsynchronised_writes_race_and_a_mutex_orders_them() {
        let mut d = two_threads();
        assert!(d.on_access(A, X, 4, true, false, 1).is_none());
        let r = d.on_access(B, X, 4, true, false, 2).expect("write-write race");
        assert_eq!((r.first.thread, r.first.site, r.second.thread, r.second.site), (A, 1, B, 2));

        let mut d = two_threads();
        d.on_step(A, Action::Lock(L));
        assert!(d.on_access(A, X, 4, true, false, 1).is_none());
        d.on_step(A, Action::Unlock(L, true));
        d.on_step(B, Action::Lock(L));
        assert!(d.on_access(B, X, 4, false, false, 2).is_none());
        assert!(d.on_access(B, X, 4, true, false, 3).is_none());
    }

    #[test]
    fn a_barrier_round_orders_its_arrivals_before_its_leavers_only() {
        // Round 1: A waits, B arrives last. B writes for round 2 and arrives again
        // before A leaves round 1: A's leaving acquires round 1, not B's later write.
        let bar = ObjId(0x3000);
        let mut d = two_threads();
        assert!(d.on_access(A, X, 4, true, false, 1).is_none());
        d.on_step(A, Action::BarrierArrive(bar, false));
        d.on_step(B, Action::BarrierArrive(bar, true));
        assert!(d.on_access(B, X, 4, false, false, 2).is_none(), "A's write is in round 1");
        assert!(d.on_access(B, X + 8, 4, true, false, 3).is_none());
        d.on_step(B, Action::BarrierArrive(bar, false));
        d.on_step(A, Action::BarrierLeave(bar));
        let r = d.on_access(A, X + 8, 4, false, false, 4).expect("B's write follows round 1");
        assert_eq!((r.first.site, r.second.site), (3, 4));
        // Round 2 completes with A's arrival: B's write is now ordered before B leaves
        // and A goes on (A arrived last).
        d.on_step(A, Action::BarrierArrive(bar, true));
        d.on_step(B, Action::BarrierLeave(bar));
        assert!(d.on_access(A, X + 16, 4, true, false, 5).is_none());
        d.on_step(A, Action::BarrierArrive(bar, false));
        d.on_step(B, Action::BarrierArrive(bar, true));
        assert!(d.on_access(B, X + 16, 4, false, false, 6).is_none(), "round 3 orders A's write");
    }

    /// A writes X then stores flag F with `store`; B loads F with `load` then reads X.
    fn message_pass(store: MemoryOrder, load: MemoryOrder) -> Option<Race> {
        let f = ObjId(0x2000);
        let mut d = two_threads();
        assert!(d.on_access(A, X, 4, true, false, 1).is_none());
        d.on_atomic_ordered(A, f, AtomicOp::Store, store);
        d.on_atomic_ordered(B, f, AtomicOp::Load, load);
        d.on_access(B, X, 4, false, false, 2)
    }

    #[test]
    fn relaxed_message_passing_races_release_acquire_does_not() {
        use MemoryOrder::*;
        assert!(message_pass(Relaxed, Relaxed).is_some());
        assert!(message_pass(Release, Relaxed).is_some(), "a relaxed load acquires nothing");
        assert!(message_pass(Relaxed, Acquire).is_some(), "a relaxed store releases nothing");
        assert!(message_pass(Release, Acquire).is_none());
        assert!(message_pass(SeqCst, SeqCst).is_none());
        assert!(message_pass(AcqRel, SeqCst).is_none());
    }

    #[test]
    fn fences_make_relaxed_accesses_synchronise() {
        use MemoryOrder::*;
        let f = ObjId(0x2000);
        for (release_fence, acquire_fence, race) in
            [(true, true, false), (false, true, true), (true, false, true), (false, false, true)]
        {
            let mut d = two_threads();
            assert!(d.on_access(A, X, 4, true, false, 1).is_none());
            if release_fence {
                d.on_atomic_ordered(A, ObjId(0), AtomicOp::Fence, Release);
            }
            d.on_atomic_ordered(A, f, AtomicOp::Store, Relaxed);
            d.on_atomic_ordered(B, f, AtomicOp::Load, Relaxed);
            if acquire_fence {
                d.on_atomic_ordered(B, ObjId(0), AtomicOp::Fence, Acquire);
            }
            assert_eq!(d.on_access(B, X, 4, false, false, 2).is_some(), race, "fences {release_fence} {acquire_fence}");
        }
    }

    #[test]
    fn release_sequences_go_on_through_read_modify_writes_and_the_heads_own_stores() {
        use MemoryOrder::*;
        const C: ThreadId = ThreadId(3);
        let f = ObjId(0x2000);
        // A releases; B's relaxed RMW continues A's sequence; C acquires B's value: A's
        // write happens before C's read.
        let three = || {
            let mut d = two_threads();
            d.on_step(M, Action::Create(C));
            assert!(d.on_access(A, X, 4, true, false, 1).is_none());
            d.on_atomic_ordered(A, f, AtomicOp::Store, Release);
            d
        };
        let mut d = three();
        d.on_atomic_ordered(B, f, AtomicOp::Rmw, Relaxed);
        d.on_atomic_ordered(C, f, AtomicOp::Load, Acquire);
        assert!(d.on_access(C, X, 4, false, false, 2).is_none());
        // A's own later relaxed store continues it too (C11's release sequence).
        let mut d = three();
        d.on_atomic_ordered(A, f, AtomicOp::Store, Relaxed);
        d.on_atomic_ordered(C, f, AtomicOp::Load, Acquire);
        assert!(d.on_access(C, X, 4, false, false, 2).is_none());
        // Another thread's relaxed store starts a new one, which releases nothing.
        let mut d = three();
        d.on_atomic_ordered(B, f, AtomicOp::Store, Relaxed);
        d.on_atomic_ordered(C, f, AtomicOp::Load, Acquire);
        assert!(d.on_access(C, X, 4, false, false, 2).is_some());
    }

    #[test]
    fn an_atomic_write_does_not_stand_for_the_accesses_it_is_not_ordered_after() {
        use MemoryOrder::*;
        let f = ObjId(X);
        // A and B decrement a relaxed counter; B then frees (writes) it: B's decrement
        // did not acquire A's, so A's races with B's plain write.
        let mut d = two_threads();
        assert!(d.atomic_access(A, f, AtomicOp::Rmw, Relaxed, X, 4, true, 1).is_none());
        assert!(
            d.atomic_access(B, f, AtomicOp::Rmw, Relaxed, X, 4, true, 2).is_none(),
            "atomics do not race with atomics"
        );
        let r = d.on_access(B, X, 4, true, false, 3).expect("A's write is not ordered before");
        assert_eq!((r.first.thread, r.first.write, r.first.atomic, r.first.site), (A, true, true, 1));
        // The same with a plain read after B's own relaxed store.
        let mut d = two_threads();
        assert!(d.atomic_access(A, f, AtomicOp::Store, Relaxed, X, 4, true, 1).is_none());
        assert!(d.atomic_access(B, f, AtomicOp::Store, Relaxed, X, 4, true, 2).is_none());
        assert!(d.on_access(B, X, 4, false, false, 3).is_some(), "a read races with A's write");
        // An atomic read of A, then B's atomic write and plain write: A's read races.
        let mut d = two_threads();
        assert!(d.atomic_access(A, f, AtomicOp::Load, Relaxed, X, 4, false, 1).is_none());
        assert!(d.atomic_access(B, f, AtomicOp::Store, Relaxed, X, 4, true, 2).is_none());
        let r = d.on_access(B, X, 4, true, false, 3).expect("A's read is not ordered before");
        assert_eq!((r.first.thread, r.first.write), (A, false));
        // Ordered by release/acquire, nothing is kept: no race.
        let mut d = two_threads();
        assert!(d.atomic_access(A, f, AtomicOp::Rmw, AcqRel, X, 4, true, 1).is_none());
        assert!(d.atomic_access(B, f, AtomicOp::Rmw, AcqRel, X, 4, true, 2).is_none());
        assert!(d.on_access(B, X, 4, true, false, 3).is_none());
    }

    #[test]
    fn accesses_after_a_release_are_not_covered_by_it() {
        let mut d = two_threads();
        d.on_step(A, Action::Lock(L));
        d.on_step(A, Action::Unlock(L, true));
        assert!(d.on_access(A, X, 1, true, false, 1).is_none());
        d.on_step(B, Action::Lock(L));
        assert!(d.on_access(B, X, 1, false, false, 2).is_some(), "A's write follows its unlock");
    }

    #[test]
    fn overlapping_bytes_race_disjoint_bytes_do_not() {
        let mut d = two_threads();
        d.on_access(A, X, 8, true, false, 1);
        assert!(d.on_access(B, X + 4, 4, false, false, 2).is_some());
        let mut d = two_threads();
        d.on_access(A, X, 4, true, false, 1);
        assert!(d.on_access(B, X + 4, 4, true, false, 2).is_none());
    }

    #[test]
    fn concurrent_reads_are_fine_until_a_write() {
        let mut d = two_threads();
        d.on_access(A, X, 4, false, false, 1);
        assert!(d.on_access(B, X, 4, false, false, 2).is_none());
        d.on_step(B, Action::Lock(L));
        d.on_step(B, Action::Unlock(L, true));
        d.on_step(M, Action::Lock(L));
        // main is ordered after B's read but not after A's.
        let r = d.on_access(M, X, 4, true, false, 3).expect("read-write race with A");
        assert_eq!(r.first.thread, A);
        assert!(!r.first.write);
    }

    #[test]
    fn message_passing_through_an_atomic_flag_orders_plain_accesses() {
        let f = ObjId(0x2000);
        let mut d = two_threads();
        d.on_access(A, X, 4, true, false, 1);
        d.on_atomic(A, f, AtomicOp::Store);
        d.on_atomic(B, f, AtomicOp::Load);
        assert!(d.on_access(B, X, 4, false, false, 2).is_none());
        // Without the load, B is not ordered after A's write.
        let mut d = two_threads();
        d.on_access(A, X, 4, true, false, 1);
        d.on_atomic(A, f, AtomicOp::Store);
        assert!(d.on_access(B, X, 4, false, false, 2).is_some());
        // Atomic accesses do not race with each other, but race with plain ones.
        let mut d = two_threads();
        d.on_access(A, X, 4, true, true, 1);
        assert!(d.on_access(B, X, 4, true, true, 2).is_none());
        assert!(d.on_access(A, X, 4, false, false, 3).is_some());
    }

    #[test]
    fn repeated_accesses_take_the_hot_path_without_hiding_races() {
        let mut d = two_threads();
        for _ in 0..3 {
            assert!(d.on_access(A, X, 8, false, false, 1).is_none());
            assert!(d.on_access(A, X, 8, true, false, 1).is_none());
        }
        // Another thread's access to the word replaces the hot entry: A's next access
        // is checked again and races with B's write.
        assert!(d.on_access(B, X + 4, 4, true, false, 2).is_some());
        let r = d.on_access(A, X, 8, false, false, 3).expect("A's read races with B's write");
        assert_eq!(r.first.thread, B);
        // An atomic access does not hit a plain access's hot entry.
        let mut d = two_threads();
        d.on_access(A, X, 4, true, true, 1);
        d.on_access(A, X, 4, true, false, 2);
        assert!(d.on_access(B, X, 4, true, true, 3).is_some(), "A's plain write races with B's atomic one");
    }

    #[test]
    fn join_and_create_order_accesses() {
        let mut d = RaceDetector::default();
        d.reset();
        d.on_access(M, X, 4, true, false, 1);
        d.on_step(M, Action::Create(A));
        assert!(d.on_access(A, X, 4, true, false, 2).is_none());
        d.on_step(A, Action::Exit);
        d.on_step(M, Action::Join(A));
        assert!(d.on_access(M, X, 4, false, false, 3).is_none());
    }

    #[test]
    fn read_locks_do_not_order_readers() {
        let mut d = two_threads();
        d.on_step(A, Action::RdLock(L));
        d.on_access(A, X, 4, true, false, 1); // a write under a read lock
        d.on_step(A, Action::RwUnlock(L, false));
        d.on_step(B, Action::RdLock(L));
        assert!(d.on_access(B, X, 4, false, false, 2).is_some());
        d.on_step(B, Action::RwUnlock(L, false));
        d.on_step(M, Action::WrLock(L));
        assert!(d.on_access(M, X, 4, true, false, 3).is_none(), "a writer follows every reader");
    }

    #[test]
    fn a_free_races_with_unordered_accesses_and_forgets_the_block() {
        // B reads the block, A frees it without synchronisation: a race naming both.
        let mut d = two_threads();
        assert!(d.on_access(B, X + 8, 4, false, false, 2).is_none());
        let r = d.on_free(A, X, 16, 9)[0];
        assert_eq!((r.addr, r.first.thread, r.first.write, r.first.site), (X + 8, B, false, 2));
        assert_eq!((r.second.thread, r.second.write, r.second.site), (A, true, 9));
        // The block's shadow is gone: freeing again finds nothing to race with.
        assert!(d.on_free(A, X, 16, 9).is_empty());

        // Ordered by a mutex: no race; the epoch of the free happens before B after it
        // acquires the mutex A released.
        let mut d = two_threads();
        d.on_step(B, Action::Lock(L));
        assert!(d.on_access(B, X, 4, true, false, 2).is_none());
        d.on_step(B, Action::Unlock(L, true));
        d.on_step(A, Action::Lock(L));
        let e = d.epoch(A);
        assert!(d.on_free(A, X, 16, 9).is_empty());
        assert!(!d.happens_before(A, e, B));
        d.on_step(A, Action::Unlock(L, true));
        d.on_step(B, Action::Lock(L));
        assert!(d.happens_before(A, e, B));
        let eb = d.epoch(B);
        assert!(d.happens_before(B, eb, B));
    }

    #[test]
    fn a_free_larger_than_the_shadow_walks_the_shadow() {
        let mut d = two_threads();
        assert!(d.on_access(B, X + 4096, 1, true, false, 3).is_none());
        assert!(d.on_access(B, X + 1, 1, true, false, 2).is_none());
        assert!(d.on_access(A, X + (2 << 20), 1, true, false, 4).is_none());
        // 1 MiB range, three tracked bytes: the two inside race, in address order; the
        // byte outside the range stays.
        let r = d.on_free(A, X, 1 << 20, 9);
        assert_eq!(r.iter().map(|r| (r.addr, r.first.site)).collect::<Vec<_>>(), [(X + 1, 2), (X + 4096, 3)]);
        assert!(d.on_access(B, X + (2 << 20), 1, true, false, 5).is_some(), "outside bytes keep their state");
    }

    /// Whether the word at `a` holds one state for its 8 bytes (not split).
    fn uniform(d: &RaceDetector, a: u64) -> bool {
        let n = *d.shadow.index.get(&(a >> PAGE_BITS)).expect("page in use");
        write_of(d.shadow.pages[n as usize][((a >> 3) as usize) & (WORDS - 1)]) != SPLIT
    }

    /// Split entries in use.
    fn splits_in_use(d: &RaceDetector) -> usize {
        d.shadow.splits.len() - d.shadow.free_splits.len()
    }

    #[test]
    fn mixed_sizes_within_a_word_keep_byte_precision() {
        let mut d = two_threads();
        // A writes the low half, B the high half: disjoint bytes, no race.
        assert!(d.on_access(A, X, 4, true, false, 1).is_none());
        assert!(d.on_access(B, X + 4, 4, true, false, 2).is_none());
        assert!(!uniform(&d, X));
        // A reads inside its own half: no race.
        assert!(d.on_access(A, X + 2, 2, false, false, 3).is_none());
        assert!(d.on_access(A, X + 1, 1, true, false, 4).is_none());
        // A's unaligned read of bytes 3..5 reaches B's half at X + 4.
        let r = d.on_access(A, X + 3, 2, false, false, 5).expect("race on byte 4");
        assert_eq!((r.addr, r.first.thread, r.first.site, r.first.write), (X + 4, B, 2, true));
        // A write of a whole word by A races with B's half first at X + 4 (byte 0..3
        // are A's own).
        let r = d.on_access(A, X, 8, true, false, 6).expect("race");
        assert_eq!((r.addr, r.first.site), (X + 4, 2));
        // ... and leaves the word uniform again: its split entry is free.
        assert!(uniform(&d, X));
        assert_eq!(splits_in_use(&d), 0);
        // An access straddling two words (bytes 6..10) checks both.
        let mut d = two_threads();
        assert!(d.on_access(B, X + 9, 1, true, false, 1).is_none());
        let r = d.on_access(A, X + 6, 4, false, false, 2).expect("race on byte 9");
        assert_eq!(r.addr, X + 9);
    }

    #[test]
    fn neighbouring_bytes_of_different_threads_do_not_race() {
        // Two threads write alternate chars of one 8-byte struct: no race; main, after
        // joining both, reads and writes the whole struct: no race either.
        let mut d = two_threads();
        for i in 0..8 {
            let t = if i % 2 == 0 { A } else { B };
            assert!(d.on_access(t, X + i, 1, true, false, 10 + i).is_none());
            assert!(d.on_access(t, X + i, 1, false, false, 20 + i).is_none());
        }
        assert!(!uniform(&d, X));
        // Each thread's char is its own; the other's is not.
        assert!(d.on_access(A, X + 2, 1, true, false, 30).is_none());
        let r = d.on_access(A, X + 2, 2, false, false, 31).expect("B's char at X + 3");
        assert_eq!((r.addr, r.first.thread, r.first.site), (X + 3, B, 13));
        d.on_step(A, Action::Exit);
        d.on_step(B, Action::Exit);
        d.on_step(M, Action::Join(A));
        d.on_step(M, Action::Join(B));
        assert!(d.on_access(M, X, 8, false, false, 40).is_none());
        assert!(d.on_access(M, X, 8, true, false, 41).is_none());
        assert!(uniform(&d, X));
    }

    #[test]
    fn a_writer_after_concurrent_readers_races_with_the_first_it_does_not_follow() {
        const C: ThreadId = ThreadId(3);
        let mut d = two_threads();
        d.on_step(M, Action::Create(C));
        for (t, site) in [(A, 1), (B, 2), (C, 3)] {
            assert!(d.on_access(t, X, 8, false, false, site).is_none());
        }
        // B and C publish their reads through L, A does not: main races with A's read.
        for t in [B, C] {
            d.on_step(t, Action::Lock(L));
            d.on_step(t, Action::Unlock(L, true));
        }
        d.on_step(M, Action::Lock(L));
        let r = d.on_access(M, X + 4, 4, true, false, 4).expect("race with A's read");
        assert_eq!((r.addr, r.first.thread, r.first.write, r.first.site), (X + 4, A, false, 1));
        // Readers in the set's order: C then A read again; D... B writes ordered after
        // neither: races with the earliest read still in the set (C, then A).
        let mut d = two_threads();
        d.on_step(M, Action::Create(C));
        assert!(d.on_access(C, X, 4, false, false, 3).is_none());
        assert!(d.on_access(A, X, 4, false, false, 1).is_none());
        let r = d.on_access(B, X, 4, true, false, 2).expect("race");
        assert_eq!((r.first.thread, r.first.site), (C, 3));
        // A reader ordered after every earlier read replaces the set: a writer ordered
        // after it alone does not race.
        let mut d = two_threads();
        assert!(d.on_access(A, X, 4, false, false, 1).is_none());
        assert!(d.on_access(B, X, 4, false, false, 2).is_none());
        for t in [A, B] {
            d.on_step(t, Action::Lock(L));
            d.on_step(t, Action::Unlock(L, true));
        }
        d.on_step(M, Action::Lock(L));
        assert!(d.on_access(M, X, 4, false, false, 3).is_none());
        d.on_step(M, Action::Unlock(L, true));
        d.on_step(A, Action::Lock(L));
        assert!(d.on_access(A, X, 4, true, false, 4).is_none());
    }

    #[test]
    fn an_array_read_by_two_threads_keeps_uniform_words_and_few_read_sets() {
        let n = 1u64 << 14;
        let mut d = two_threads();
        for t in [A, B] {
            for i in 0..n {
                assert!(d.on_access(t, X + 4 * i, 4, false, false, 1).is_none());
            }
        }
        assert_eq!(splits_in_use(&d), 0);
        assert!(d.log.sets.len() <= 2, "one read set shared by the words: {}", d.log.sets.len());
        assert_eq!(d.shadow.pages.len() as u64, (4 * n) >> PAGE_BITS);
        // A write to the middle by main races with A's read (the first of the set).
        let r = d.on_access(M, X + 4 * 777, 4, true, false, 2).expect("race");
        assert_eq!((r.addr, r.first.thread), (X + 4 * 777, A));
    }

    #[test]
    fn a_reset_forgets_every_page() {
        let mut d = two_threads();
        for i in 0..3 * WORDS as u64 {
            assert!(d.on_access(A, X + 8 * i, 1 + (i % 8), true, false, 1).is_none());
        }
        let pages = d.shadow.pages.len();
        assert_eq!(pages, 3);
        d.reset();
        assert!(d.shadow.pages.is_empty());
        d.on_step(M, Action::Create(A));
        d.on_step(M, Action::Create(B));
        // B writes everything A wrote in the previous execution: nothing to race with.
        for i in 0..3 * WORDS as u64 {
            assert!(d.on_access(B, X + 8 * i, 8, true, false, 2).is_none());
        }
        assert_eq!(d.shadow.pages.len(), pages);
        // And the new state is there: A now races with B.
        assert!(d.on_access(A, X + 8 * (WORDS as u64 + 5), 8, false, false, 3).is_some());
    }

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn the_compact_shadow_reports_what_the_per_byte_map_reports() {
        // Random sequences of accesses (sizes 1 to 16 at any offset, near a word, a page
        // boundary and far away), synchronisation, atomics, frees and resets, run on
        // both detectors: every result must be identical (the same race, the same sides,
        // the same byte). A third detector checks every access, without the hot path:
        // between two resets, the same threads must race on the same words (the hot path
        // only leaves out repeats of races already reported, and may name an earlier
        // site of the same thread and epoch).
        let threads = [M, A, B, ThreadId(3)];
        let sizes = [1, 1, 2, 2, 4, 4, 4, 8, 8, 3, 16, 5];
        let bases = [X, X + 4096 - 12, X + (5 << 20)];
        let mut compared = 0u64;
        let mut races = 0u64;
        for seed in 1..=400u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let mut new = RaceDetector::default();
            let mut old = reference::RaceDetector::default();
            let mut full = reference::RaceDetector::checking_every_access();
            type Met = std::collections::BTreeSet<(u64, ThreadId, ThreadId)>;
            let (mut met, mut met_full) = (Met::new(), Met::new());
            let meet = |m: &mut Met, r: &Race| {
                m.insert((r.addr >> 3, r.first.thread, r.second.thread));
            };
            let start = |new: &mut RaceDetector,
                         old: &mut reference::RaceDetector,
                         full: &mut reference::RaceDetector,
                         met: &mut Met,
                         met_full: &mut Met| {
                assert_eq!(met, met_full, "seed {seed}: the hot path changed which threads race where");
                met.clear();
                met_full.clear();
                new.reset();
                old.reset();
                full.reset();
                for &t in &threads[1..] {
                    new.on_step(M, Action::Create(t));
                    old.on_step(M, Action::Create(t));
                    full.on_step(M, Action::Create(t));
                }
            };
            start(&mut new, &mut old, &mut full, &mut met, &mut met_full);
            for _ in 0..300 {
                let t = threads[rng.below(4) as usize];
                let base = bases[rng.below(3) as usize];
                match rng.below(100) {
                    0..=69 => {
                        let addr = base + rng.below(24);
                        let size = sizes[rng.below(sizes.len() as u64) as usize];
                        let write = rng.below(2) == 0;
                        let atomic = rng.below(8) == 0;
                        let site = 1 + rng.below(5);
                        let (a, b) = (
                            new.on_access(t, addr, size, write, atomic, site),
                            old.on_access(t, addr, size, write, atomic, site),
                        );
                        assert_eq!(a, b, "seed {seed}: access {t:?} {addr:#x}+{size} w={write} a={atomic}");
                        a.iter().for_each(|r| meet(&mut met, r));
                        full.on_access(t, addr, size, write, atomic, site).iter().for_each(|r| meet(&mut met_full, r));
                        races += u64::from(a.is_some());
                        compared += 1;
                    }
                    70..=84 => {
                        let o = ObjId(100 + rng.below(2));
                        let a = if rng.below(2) == 0 { Action::Lock(o) } else { Action::Unlock(o, true) };
                        new.on_step(t, a);
                        old.on_step(t, a);
                        full.on_step(t, a);
                    }
                    85..=91 => {
                        let o = ObjId(200 + rng.below(2));
                        let op = [AtomicOp::Load, AtomicOp::Store, AtomicOp::Rmw][rng.below(3) as usize];
                        new.on_atomic(t, o, op);
                        old.on_atomic(t, o, op);
                        full.on_atomic(t, o, op);
                    }
                    92..=97 => {
                        let addr = base + rng.below(24);
                        let size = if rng.below(4) == 0 { 1 << 21 } else { rng.below(20) };
                        let (a, b) = (new.on_free(t, addr, size, 9), old.on_free(t, addr, size, 9));
                        assert_eq!(a, b, "seed {seed}: free {t:?} {addr:#x}+{size}");
                        // (A free reports one race per site of an earlier access, and the
                        // hot path's earlier sites can merge races of different words and
                        // threads: only whether the free races is compared.)
                        let free = |r: &Race| Race { addr: u64::MAX, first: RaceAccess { thread: M, ..r.first }, ..*r };
                        a.iter().for_each(|r| meet(&mut met, &free(r)));
                        full.on_free(t, addr, size, 9).iter().for_each(|r| meet(&mut met_full, &free(r)));
                        races += u64::from(!a.is_empty());
                        compared += 1;
                    }
                    _ => start(&mut new, &mut old, &mut full, &mut met, &mut met_full),
                }
            }
            start(&mut new, &mut old, &mut full, &mut met, &mut met_full);
        }
        // The comparison is not vacuous: both outcomes occur often.
        assert!(races > compared / 10 && races < compared * 9 / 10, "{races} races in {compared}");
    }
}
