//! Canonical forms of executions: which Mazurkiewicz trace an execution belongs to.
//!
//! Two executions are equivalent (same Mazurkiewicz trace, same maximal configuration of
//! the unfolding) iff they agree on
//! - each thread's sequence of actions (program order), and
//! - for each object, the order of its dependent accesses: the sequence of operations
//!   on it, where in [`Independence::ReadReadIndependent`] mode the reads between two
//!   writes form a *set* — or, when reads of both [`Action::read_class`](crate::action::Action::read_class)es share the
//!   object (a spin-wait on a read-write lock), a sequence of maximal runs of one
//!   class, each run a set (reads of one class commute, reads of different classes do
//!   not: swapping two adjacent reads keeps the runs exactly when they commute).
//!
//! Create/join/exit edges are determined by the per-thread sequences. [`trace_key`]
//! hashes exactly this information, so every explorer — optimal or not — can report the
//! number of distinct traces it explored, and the counts are comparable by construction.
//!
//! Cost: O(n log n) in the number of steps (the per-object grouping sorts).

use crate::action::{Access, Independence};
use crate::ids::{ObjId, ThreadId};
use crate::program::Step;
use std::hash::{Hash, Hasher};

/// A 128-bit key identifying the Mazurkiewicz trace of a sequence of steps.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TraceKey(pub u64, pub u64);

/// FNV-1a over 64 bits, seeded: two of them make a 128-bit key.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// The key of the trace of `steps` under independence `mode`.
pub fn trace_key(steps: &[Step], mode: Independence) -> TraceKey {
    // (object, position in object order, thread, index in thread, read class + 1 or 0
    // for a write)
    let mut per_thread_len: Vec<u32> = Vec::new();
    let mut accesses: Vec<(ObjId, u32, ThreadId, u32, u8)> = Vec::with_capacity(steps.len());
    let mut h1 = Fnv(0xcbf2_9ce4_8422_2325);
    let mut h2 = Fnv(0x6c62_272e_07bb_0142);
    // Per-thread sequences: hash (thread, index, action) in a thread-major order by
    // sorting afterwards; simpler: accumulate into per-thread hashes.
    let mut thread_hash: Vec<(u64, u64)> = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let t = s.thread.index();
        if per_thread_len.len() <= t {
            per_thread_len.resize(t + 1, 0);
            thread_hash.resize(t + 1, (0xcbf2_9ce4_8422_2325, 0x84222325cbf29ce4));
        }
        let idx = per_thread_len[t];
        per_thread_len[t] += 1;
        let (a, b) = &mut thread_hash[t];
        let mut f = Fnv(*a);
        s.action.hash(&mut f);
        *a = f.finish();
        let mut g = Fnv(*b);
        s.action.hash(&mut g);
        idx.hash(&mut g);
        *b = g.finish();
        // A spin-wait on several locations is an access (a read) to each of them.
        for o in s.action.objects() {
            let read = if s.action.access() == Access::Read { 1 + s.action.read_class() } else { 0 };
            accesses.push((o, i as u32, s.thread, idx, read));
        }
    }
    for (t, (a, b)) in thread_hash.iter().enumerate() {
        (t, *a, per_thread_len[t]).hash(&mut h1);
        (t, *b).hash(&mut h2);
    }
    // Group by object, keeping execution order within an object.
    accesses.sort_unstable_by_key(|&(o, pos, ..)| (o, pos));
    let rr = mode == Independence::ReadReadIndependent;
    let mut i = 0;
    while i < accesses.len() {
        let o = accesses[i].0;
        o.hash(&mut h1);
        o.hash(&mut h2);
        let mut j = i;
        while j < accesses.len() && accesses[j].0 == o {
            if rr && accesses[j].4 != 0 {
                // A maximal run of reads of one class: order-insensitive.
                let (start, class) = (j, accesses[j].4);
                while j < accesses.len() && accesses[j].0 == o && accesses[j].4 == class {
                    j += 1;
                }
                let mut run: Vec<(ThreadId, u32)> = accesses[start..j].iter().map(|a| (a.2, a.3)).collect();
                run.sort_unstable();
                0xfeu8.hash(&mut h1);
                run.hash(&mut h1);
                run.hash(&mut h2);
            } else {
                (accesses[j].2, accesses[j].3).hash(&mut h1);
                (accesses[j].3, accesses[j].2).hash(&mut h2);
                j += 1;
            }
        }
        i = j;
    }
    TraceKey(h1.finish(), h2.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;

    fn st(t: u16, a: Action) -> Step {
        Step { thread: ThreadId(t), action: a, site: 0, next: None, child_next: None }
    }

    #[test]
    fn independent_swaps_give_the_same_key_dependent_ones_do_not() {
        let m = ObjId(1);
        let n = ObjId(2);
        let a = [st(1, Action::Lock(m)), st(2, Action::Lock(n))];
        let b = [st(2, Action::Lock(n)), st(1, Action::Lock(m))];
        assert_eq!(trace_key(&a, Independence::AllDependent), trace_key(&b, Independence::AllDependent));
        let c = [st(1, Action::Lock(m)), st(1, Action::Unlock(m, true)), st(2, Action::Lock(m))];
        let d = [st(2, Action::Lock(m)), st(1, Action::Lock(m)), st(1, Action::Unlock(m, true))];
        assert_ne!(trace_key(&c, Independence::AllDependent), trace_key(&d, Independence::AllDependent));
    }

    #[test]
    fn reads_commute_only_in_read_read_mode() {
        let x = ObjId(3);
        let a = [st(1, Action::Read(x)), st(2, Action::Read(x)), st(3, Action::Write(x))];
        let b = [st(2, Action::Read(x)), st(1, Action::Read(x)), st(3, Action::Write(x))];
        let c = [st(2, Action::Read(x)), st(3, Action::Write(x)), st(1, Action::Read(x))];
        let rr = Independence::ReadReadIndependent;
        let all = Independence::AllDependent;
        assert_eq!(trace_key(&a, rr), trace_key(&b, rr));
        assert_ne!(trace_key(&a, all), trace_key(&b, all));
        assert_ne!(trace_key(&a, rr), trace_key(&c, rr));
    }

    #[test]
    fn a_wait_on_a_read_write_lock_is_ordered_with_its_read_side_only() {
        let (l, x) = (ObjId(4), ObjId(5));
        let rr = Independence::ReadReadIndependent;
        let wait = Action::Await(crate::Awaited::one(l, 0));
        let rd = Action::RdLock(l);
        // Two waits commute, and so do two read locks ...
        let a = [st(1, wait), st(2, wait), st(3, rd), st(4, rd)];
        let b = [st(2, wait), st(1, wait), st(4, rd), st(3, rd)];
        assert_eq!(trace_key(&a, rr), trace_key(&b, rr));
        // ... but a wait and a read lock of the lock it watches do not.
        let c = [st(1, wait), st(3, rd), st(2, wait), st(4, rd)];
        assert_ne!(trace_key(&a, rr), trace_key(&c, rr));
        assert!(rr.dependent(ThreadId(1), wait, ThreadId(3), rd));
        assert!(rr.dependent(ThreadId(1), wait, ThreadId(3), Action::RwUnlock(l, false)));
        assert!(!rr.dependent(ThreadId(1), wait, ThreadId(2), wait));
        // A wait on a memory location still commutes with its reads.
        let wx = Action::Await(crate::Awaited::one(x, 0));
        assert!(!rr.dependent(ThreadId(1), wx, ThreadId(2), Action::Read(x)));
        let d = [st(1, wx), st(2, Action::Read(x))];
        let e = [st(2, Action::Read(x)), st(1, wx)];
        assert_eq!(trace_key(&d, rr), trace_key(&e, rr));
    }
}
