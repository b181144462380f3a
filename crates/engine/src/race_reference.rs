//! The race detector as it was before its shadow memory was compacted (a hash map from
//! every byte to its last write and reads), kept for the tests only: the compact shadow of
//! [`super::RaceDetector`] must report exactly the races this one reports, on random
//! sequences of accesses (`super::tests::the_compact_shadow_reports_what_the_per_byte_map_reports`).
//! Slow (a map entry per byte) but obviously a transcription of the definition. Its
//! happens-before ([`super::Clocks`]) is the compact detector's own: only the shadow
//! memory differs, and only the shadow is under test.

use super::{AtomicOp, Clocks, Epoch, Hot, HotSlots, Race, RaceAccess};
use crate::action::Action;
use crate::ids::{ObjId, ThreadId};
use crate::program::Site;
use rustc_hash::FxHashMap as HashMap;

/// Shadow state of one byte.
#[derive(Clone, Debug, Default)]
struct Byte {
    write: Option<(Epoch, bool)>,
    /// The reads since the last write that no later read happens after (one, usually),
    /// and the writes an atomic write did not happen after: (access, atomic, write).
    reads: Vec<(Epoch, bool, bool)>,
}

/// The happens-before detector of one execution (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct RaceDetector {
    /// Happens-before, shared with the compact detector.
    hb: Clocks,
    shadow: HashMap<u64, Byte>,
    /// The compact detector's hot records ([`super::RaceDetector`]'s `hot`): which
    /// repeated accesses are not recorded again is part of the definition (a repeated
    /// read at another site leaves the first site in the state), not of the shadow.
    hot: HotSlots,
    /// Check and record every access, repeated or not (the definition without the hot
    /// path): the tests compare which threads race on which word.
    every_access: bool,
}

impl RaceDetector {
    /// Forget everything: a new execution, main thread only.
    pub fn reset(&mut self) {
        self.hb.reset();
        self.shadow.clear();
        self.hot.clear();
    }

    /// A detector without the hot path: every access is checked and recorded.
    pub fn checking_every_access() -> Self {
        RaceDetector { every_access: true, ..RaceDetector::default() }
    }

    /// See [`super::RaceDetector::on_step`].
    pub fn on_step(&mut self, t: ThreadId, a: Action) {
        self.hb.on_step(t, a);
    }

    /// See [`super::RaceDetector::on_atomic`].
    pub fn on_atomic(&mut self, t: ThreadId, o: ObjId, op: AtomicOp) {
        self.hb.on_atomic(t, o, op, super::MemoryOrder::SeqCst);
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
        if !self.every_access && self.hot.covers(hot, write) {
            return None;
        }
        let me = Epoch { thread: t, clock: now, site };
        let clock = &self.hb.threads[t.index()];
        let mut race = None;
        for b in addr..addr.saturating_add(size.max(1)) {
            let byte = self.shadow.entry(b).or_default();
            let conflicts =
                |e: &Epoch, other_atomic: bool| e.thread != t && !(atomic && other_atomic) && !e.before(clock);
            if race.is_none() {
                let hit = match byte.write {
                    Some((e, a)) if conflicts(&e, a) => Some((e, true, a)),
                    _ => byte
                        .reads
                        .iter()
                        .find(|(e, a, w)| (write || *w) && conflicts(e, *a))
                        .map(|&(e, a, w)| (e, w, a)),
                };
                if let Some((e, w, a)) = hit {
                    race = Some(Race {
                        addr: b,
                        first: RaceAccess { thread: e.thread, write: w, atomic: a, site: e.site },
                        second: RaceAccess { thread: t, write, atomic, site },
                    });
                }
            }
            let unordered = |e: &Epoch| e.thread != t && !e.before(clock);
            if write && atomic {
                // An atomic write cannot stand for the accesses it is not ordered after.
                let mut kept: Vec<(Epoch, bool, bool)> =
                    byte.write.iter().filter(|(e, _)| unordered(e)).map(|&(e, a)| (e, a, true)).collect();
                kept.extend(byte.reads.iter().filter(|(e, _, _)| unordered(e)));
                byte.write = Some((me, atomic));
                byte.reads = kept;
            } else if write {
                byte.write = Some((me, atomic));
                byte.reads.clear();
            } else {
                // Keep the writes, and the reads that do not happen before this one.
                byte.reads.retain(|(e, _, w)| *w || unordered(e));
                byte.reads.push((me, atomic, false));
            }
        }
        self.hot.record(hot, addr, size, write);
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
    pub fn on_free(&mut self, t: ThreadId, addr: u64, size: u64, site: Site) -> Vec<Race> {
        self.hot.clear();
        let end = addr.saturating_add(size);
        let clock = self.hb.clock_mut(t).clone();
        // The race of each word: its lowest byte with a conflict.
        let mut words: std::collections::BTreeMap<u64, Race> = std::collections::BTreeMap::new();
        let mut check = |b: u64, byte: &Byte| {
            if words.get(&(b & !7)).is_some_and(|r| r.addr <= b) {
                return;
            }
            let conflicts = |e: &Epoch| e.thread != t && !e.before(&clock);
            let hit = match byte.write {
                Some((e, a)) if conflicts(&e) => Some((e, true, a)),
                _ => byte.reads.iter().find(|(e, _, _)| conflicts(e)).map(|&(e, a, w)| (e, w, a)),
            };
            if let Some((e, w, a)) = hit {
                let race = Race {
                    addr: b,
                    first: RaceAccess { thread: e.thread, write: w, atomic: a, site: e.site },
                    second: RaceAccess { thread: t, write: true, atomic: false, site },
                };
                words.insert(b & !7, race);
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
        let mut races: Vec<Race> = Vec::new();
        for r in words.into_values() {
            super::push_free_race(&mut races, r);
        }
        races
    }
}
