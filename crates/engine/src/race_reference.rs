//! The race detector as it was before its shadow memory was compacted (a hash map from
//! every byte to its last write and reads), kept for the tests only: the compact shadow of
//! [`super::RaceDetector`] must report exactly the races this one reports, on random
//! sequences of accesses (`super::tests::the_compact_shadow_reports_what_the_per_byte_map_reports`).
//! Slow (a map entry per byte) but obviously a transcription of the definition.

use super::{AtomicOp, Race, RaceAccess};
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
