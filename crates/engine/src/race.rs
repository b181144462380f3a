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
//! - atomics (sequentially consistent): a store → a later load or read-modify-write of the
//!   location (a store overwrites: it starts a new release sequence; a read-modify-write
//!   continues it); a failed compare-exchange only acquires.
//!
//! # Algorithm (vector clocks with epochs, as in FastTrack)
//!
//! Each thread has a vector clock; each synchronising object keeps the clock its last
//! release published. A thread's own entry is incremented after each of its visible
//! steps, so an access is identified by an *epoch* `(thread, clock)` and `e ≤ C` is one
//! comparison. Shadow memory keeps, per byte, the epoch of its last write and of its
//! last read — or of every read since the last write, when reads were concurrent. A
//! write races with the previous write and reads it does not happen after; a read races
//! with the previous write. Cost per access: O(size) map look-ups and comparisons
//! (O(threads) for a byte read concurrently).
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

/// Shadow state of one byte.
#[derive(Clone, Debug, Default)]
struct Byte {
    write: Option<(Epoch, bool)>,
    /// The reads since the last write that no later read happens after (one, usually).
    reads: Vec<(Epoch, bool)>,
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
    /// A fence (sequentially consistent: every atomic already synchronises; a no-op).
    Fence,
}

/// The happens-before detector of one execution (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct RaceDetector {
    threads: Vec<Clock>,
    /// Final clock of each exited thread (for joins).
    finals: Vec<Option<Clock>>,
    /// Clock published by each synchronising object's releases.
    objects: HashMap<ObjId, Clock>,
    /// Read-write locks: the clock published by read unlocks (write locks acquire it).
    read_released: HashMap<ObjId, Clock>,
    shadow: HashMap<u64, Byte>,
    /// The last word accessed, by whom, at which epoch, and which of its bytes that
    /// thread has already written / read at that epoch: repeating such an access can
    /// neither race nor change the shadow state (the hot path of a loop).
    hot: Option<Hot>,
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

impl RaceDetector {
    /// Forget everything: a new execution, main thread only.
    pub fn reset(&mut self) {
        self.threads.clear();
        self.finals.clear();
        self.objects.clear();
        self.read_released.clear();
        self.shadow.clear();
        self.hot = None;
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

    fn acquire(&mut self, t: ThreadId, from: Option<Clock>) {
        if let Some(f) = from {
            join(self.clock_mut(t), &f);
        }
    }

    fn tick(&mut self, t: ThreadId) {
        self.clock_mut(t)[t.index()] += 1;
    }

    /// The synchronisation of a visible step of `t` that is not a memory access:
    /// acquisitions join the object's clock into `t`'s, releases publish `t`'s. Called
    /// when the step is performed, before `t` runs on.
    pub fn on_step(&mut self, t: ThreadId, a: Action) {
        let own = self.clock_mut(t).clone();
        match a {
            Action::Create(c) => {
                let mut child = own;
                let ci = c.index();
                if child.len() <= ci {
                    child.resize(ci + 1, 0);
                }
                child[ci] = child[ci].max(1);
                if self.threads.len() <= ci {
                    self.threads.resize_with(ci + 1, Vec::new);
                }
                self.threads[ci] = child;
            }
            Action::Exit => {
                let i = t.index();
                if self.finals.len() <= i {
                    self.finals.resize(i + 1, None);
                }
                self.finals[i] = Some(own);
            }
            Action::Join(u) => {
                let f = self.finals.get(u.index()).cloned().flatten();
                self.acquire(t, f);
            }
            Action::Lock(o)
            | Action::TryLock(o, true)
            | Action::SemWait(o)
            | Action::SemTryWait(o, true)
            | Action::CondWake(o, _, true)
            | Action::BarrierLeave(o)
            | Action::RdLock(o)
            | Action::TryRdLock(o, true) => {
                let f = self.objects.get(&o).cloned();
                self.acquire(t, f);
            }
            Action::WrLock(o) | Action::TryWrLock(o, true) => {
                let f = self.objects.get(&o).cloned();
                self.acquire(t, f);
                let r = self.read_released.get(&o).cloned();
                self.acquire(t, r);
            }
            Action::Unlock(o) | Action::RwUnlock(o, true) => {
                self.objects.insert(o, own);
            }
            Action::RwUnlock(o, false) => join(self.read_released.entry(o).or_default(), &own),
            Action::SemPost(o) | Action::Signal(o) | Action::Broadcast(o) => {
                join(self.objects.entry(o).or_default(), &own);
            }
            Action::BarrierArrive(o, serial) => {
                join(self.objects.entry(o).or_default(), &own);
                if serial {
                    let f = self.objects.get(&o).cloned();
                    self.acquire(t, f);
                }
            }
            _ => {}
        }
        self.tick(t);
    }

    /// The synchronisation of an atomic operation of `t` on location `o`.
    pub fn on_atomic(&mut self, t: ThreadId, o: ObjId, op: AtomicOp) {
        match op {
            AtomicOp::Load | AtomicOp::FailedRmw => {
                let f = self.objects.get(&o).cloned();
                self.acquire(t, f);
            }
            AtomicOp::Store => {
                let own = self.clock_mut(t).clone();
                self.objects.insert(o, own);
            }
            AtomicOp::Rmw => {
                let f = self.objects.get(&o).cloned();
                self.acquire(t, f);
                let own = self.clock_mut(t).clone();
                self.objects.insert(o, own);
            }
            AtomicOp::Fence => return,
        }
        self.tick(t);
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
        let now = self.clock_mut(t)[t.index()];
        // Hot path: an access within one word that this thread already made at this
        // epoch, with the same atomicity, changes nothing.
        let word = addr & !7;
        let in_word = size > 0 && size <= 8 && (addr & 7) + size <= 8;
        let mask = if in_word { (((1u16 << size) - 1) << (addr & 7)) as u8 } else { 0 };
        let key = |h: &Hot| h.thread == t && h.word == word && h.clock == now && h.atomic == atomic;
        if let Some(h) = self.hot.filter(|h| in_word && key(h)) {
            if mask & !h.written == 0 || (!write && mask & !(h.read | h.written) == 0) {
                return None;
            }
        }
        let me = Epoch { thread: t, clock: now, site };
        let clock = &self.threads[t.index()];
        let mut race = None;
        for b in addr..addr.saturating_add(size.max(1)) {
            let byte = self.shadow.entry(b).or_default();
            let conflicts =
                |e: &Epoch, other_atomic: bool| e.thread != t && !(atomic && other_atomic) && !e.before(clock);
            if race.is_none() {
                let hit = match byte.write {
                    Some((e, a)) if conflicts(&e, a) => Some((e, true, a)),
                    _ if write => byte.reads.iter().find(|(e, a)| conflicts(e, *a)).map(|&(e, a)| (e, false, a)),
                    _ => None,
                };
                if let Some((e, w, a)) = hit {
                    race = Some(Race {
                        addr: b,
                        first: RaceAccess { thread: e.thread, write: w, atomic: a, site: e.site },
                        second: RaceAccess { thread: t, write, atomic, site },
                    });
                }
            }
            if write {
                byte.write = Some((me, atomic));
                byte.reads.clear();
            } else {
                // Keep only the reads that do not happen before this one.
                byte.reads.retain(|(e, _)| e.thread != t && !e.before(clock));
                byte.reads.push((me, atomic));
            }
        }
        if in_word {
            let mut h = match self.hot {
                Some(h) if key(&h) => h,
                _ => Hot { thread: t, word, clock: now, atomic, written: 0, read: 0 },
            };
            if write {
                h.written |= mask;
            } else {
                h.read |= mask;
            }
            self.hot = Some(h);
        } else {
            self.hot = None;
        }
        race
    }
}

impl RaceDetector {
    /// `t`'s current epoch: the value of its own clock entry, which identifies its
    /// accesses (and frees) until its next visible step.
    pub fn epoch(&mut self, t: ThreadId) -> u32 {
        self.clock_mut(t)[t.index()]
    }

    /// Whether what thread `u` did at epoch `clock` happens before `t`'s current point.
    pub fn happens_before(&mut self, u: ThreadId, clock: u32, t: ThreadId) -> bool {
        u == t || self.clock_mut(t).get(u.index()).is_some_and(|&x| clock <= x)
    }

    /// The end of the life of `[addr, addr + size)` by thread `t` (`free` of a heap
    /// block, or the exit of the thread whose stack it is): like a write to every byte,
    /// it races with every earlier access by another thread that does not happen before
    /// it. Returns the race with the lowest address, if any, and forgets the range's
    /// shadow state (any later access is a use after the end of life, which the
    /// runtime's own checks report against the free's epoch).
    ///
    /// Cost: O(min(size, bytes tracked)) — the shadow is walked instead of the range
    /// when it is smaller (a thread's whole stack slot, a large block).
    pub fn on_free(&mut self, t: ThreadId, addr: u64, size: u64, site: Site) -> Option<Race> {
        self.hot = None;
        let end = addr.saturating_add(size);
        let clock = self.clock_mut(t).clone();
        let mut race: Option<Race> = None;
        let mut check = |b: u64, byte: &Byte| {
            if race.is_some_and(|r| r.addr <= b) {
                return;
            }
            let conflicts = |e: &Epoch| e.thread != t && !e.before(&clock);
            let hit = match byte.write {
                Some((e, a)) if conflicts(&e) => Some((e, true, a)),
                _ => byte.reads.iter().find(|(e, _)| conflicts(e)).map(|&(e, a)| (e, false, a)),
            };
            if let Some((e, w, a)) = hit {
                race = Some(Race {
                    addr: b,
                    first: RaceAccess { thread: e.thread, write: w, atomic: a, site: e.site },
                    second: RaceAccess { thread: t, write: true, atomic: false, site },
                });
            }
        };
        if size <= self.shadow.len() as u64 {
            for b in addr..end {
                if let Some(byte) = self.shadow.remove(&b) {
                    check(b, &byte);
                }
            }
        } else {
            self.shadow.retain(|&b, byte| {
                if b < addr || b >= end {
                    return true;
                }
                check(b, byte);
                false
            });
        }
        race
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
        d.on_step(A, Action::Unlock(L));
        d.on_step(B, Action::Lock(L));
        assert!(d.on_access(B, X, 4, false, false, 2).is_none());
        assert!(d.on_access(B, X, 4, true, false, 3).is_none());
    }

    #[test]
    fn accesses_after_a_release_are_not_covered_by_it() {
        let mut d = two_threads();
        d.on_step(A, Action::Lock(L));
        d.on_step(A, Action::Unlock(L));
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
        d.on_step(B, Action::Unlock(L));
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
        let r = d.on_free(A, X, 16, 9).expect("free races with the read");
        assert_eq!((r.addr, r.first.thread, r.first.write, r.first.site), (X + 8, B, false, 2));
        assert_eq!((r.second.thread, r.second.write, r.second.site), (A, true, 9));
        // The block's shadow is gone: freeing again finds nothing to race with.
        assert!(d.on_free(A, X, 16, 9).is_none());

        // Ordered by a mutex: no race; the epoch of the free happens before B after it
        // acquires the mutex A released.
        let mut d = two_threads();
        d.on_step(B, Action::Lock(L));
        assert!(d.on_access(B, X, 4, true, false, 2).is_none());
        d.on_step(B, Action::Unlock(L));
        d.on_step(A, Action::Lock(L));
        let e = d.epoch(A);
        assert!(d.on_free(A, X, 16, 9).is_none());
        assert!(!d.happens_before(A, e, B));
        d.on_step(A, Action::Unlock(L));
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
        // 1 MiB range, three tracked bytes: the lowest racing address is reported, the
        // byte outside the range stays.
        let r = d.on_free(A, X, 1 << 20, 9).expect("race");
        assert_eq!((r.addr, r.first.site), (X + 1, 2));
        assert!(d.on_access(B, X + (2 << 20), 1, true, false, 5).is_some(), "outside bytes keep their state");
    }
}
