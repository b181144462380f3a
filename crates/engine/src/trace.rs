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
//!   In that mode a memory word some access touches only part of is as many locations
//!   as it has bytes: the order is kept per byte, over the accesses touching it (two
//!   accesses to disjoint bytes commute; two that share a byte are ordered on it).
//!
//! Create/join/exit edges are determined by the per-thread sequences. [`trace_key`]
//! hashes exactly this information, so every explorer — optimal or not — can report the
//! number of distinct traces it explored, and the counts are comparable by construction.
//!
//! Cost: O(n log n) in the number of steps (the per-object grouping sorts).

use crate::action::{Access, Action, Bytes, Independence};
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

/// One access of a step to an object, for [`trace_key`]: (object, position in execution
/// order, thread, index in thread, read class + 1 or 0 for a write, bytes touched).
type Access6 = (ObjId, u32, ThreadId, u32, u8, u8);

/// The key of the trace of `steps` under independence `mode`.
pub fn trace_key(steps: &[Step], mode: Independence) -> TraceKey {
    let mut per_thread_len: Vec<u32> = Vec::new();
    let mut accesses: Vec<Access6> = Vec::with_capacity(steps.len());
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
            let bytes = s.action.bytes_of(o).unwrap_or(Bytes::ALL).bits();
            accesses.push((o, i as u32, s.thread, idx, read, bytes));
        }
    }
    for (t, (a, b)) in thread_hash.iter().enumerate() {
        (t, *a, per_thread_len[t]).hash(&mut h1);
        (t, *b).hash(&mut h2);
    }
    // Group by object, keeping execution order within an object.
    accesses.sort_unstable_by_key(|&(o, pos, ..)| (o, pos));
    let rr = mode == Independence::ReadReadIndependent;
    let mut one_byte: Vec<Access6> = Vec::new();
    let mut i = 0;
    while i < accesses.len() {
        let o = accesses[i].0;
        o.hash(&mut h1);
        o.hash(&mut h2);
        let end = i + accesses[i..].iter().take_while(|a| a.0 == o).count();
        let group = &accesses[i..end];
        if rr && group.iter().any(|a| a.5 != Bytes::ALL.bits()) {
            // Accesses to disjoint bytes commute: the order of the accesses to each byte
            // (a word accessed only whole keeps its one sequence, the same information).
            for b in 0..8 {
                one_byte.clear();
                one_byte.extend(group.iter().filter(|a| a.5 & (1 << b) != 0));
                (0xfdu8, b).hash(&mut h1);
                hash_sequence(&one_byte, rr, &mut h1, &mut h2);
            }
        } else {
            hash_sequence(group, rr, &mut h1, &mut h2);
        }
        i = end;
    }
    TraceKey(h1.finish(), h2.finish())
}

/// Hash the order of the accesses to one location: a sequence, where in read-read mode
/// each maximal run of reads of one class is a set.
/// Whether `steps`, a finished or deadlocked execution, is the lexicographically least
/// (by thread index) of the executions of its trace, the trace's *lexicographic normal
/// form*: no step could move in front of a step of a higher thread just before it
/// (Anisimov and Knuth's characterisation, "Inhomogeneous sorting", 1979: a word is
/// its trace's least one iff it has no factor `b·u·a` with `a < b` and `a` independent
/// of every letter of `b·u`).
///
/// Every trace has exactly one, so an exhaustive search that runs every interleaving
/// counts its distinct traces, in constant memory, as its executions in normal form.
/// "Independent" is the equivalence of [`trace_key`] (module documentation), plus the
/// orders every execution keeps although no object carries them: a thread's steps
/// after its creation and before its join, and the end of the process after
/// everything (it is enabled only when no other thread is). Those orders change no
/// trace, only which swaps a real execution can make: a word they forbid is never run.
/// (The creation order matters when a thread created later has a lower index: the
/// frontends name a thread by its creator and rank among the creator's children, so a
/// grandchild may be created after a higher-numbered child of main.)
///
/// Cost: linear in the steps times the longest run of steps independent of one.
pub fn is_lexicographic_normal_form(steps: &[Step], mode: Independence) -> bool {
    let ordered = |b: &Step, a: &Step| {
        b.thread == a.thread
            || a.action == Action::ExitProcess
            || b.action == Action::ExitProcess
            || b.action == Action::Create(a.thread)
            || a.action == Action::Join(b.thread)
            || mode.objects_conflict(b.action, a.action)
    };
    for (j, a) in steps.iter().enumerate() {
        for b in steps[..j].iter().rev() {
            if ordered(b, a) {
                break;
            }
            if b.thread > a.thread {
                return false;
            }
        }
    }
    true
}

fn hash_sequence(seq: &[Access6], rr: bool, h1: &mut Fnv, h2: &mut Fnv) {
    let mut j = 0;
    while j < seq.len() {
        if rr && seq[j].4 != 0 {
            // A maximal run of reads of one class: order-insensitive.
            let (start, class) = (j, seq[j].4);
            while j < seq.len() && seq[j].4 == class {
                j += 1;
            }
            let mut run: Vec<(ThreadId, u32)> = seq[start..j].iter().map(|a| (a.2, a.3)).collect();
            run.sort_unstable();
            0xfeu8.hash(h1);
            run.hash(h1);
            run.hash(h2);
        } else {
            (seq[j].2, seq[j].3).hash(h1);
            (seq[j].3, seq[j].2).hash(h2);
            j += 1;
        }
    }
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
    fn each_trace_has_one_normal_form_among_its_interleavings() {
        // Threads 1 and 2 each lock their own mutex, then both write x: of the six
        // interleavings of each order of the writes, exactly one is in normal form.
        let (m, n, x) = (ObjId(1), ObjId(2), ObjId(3));
        let one = [st(1, Action::Lock(m)), st(1, Action::Write(x, Bytes::ALL))];
        let two = [st(2, Action::Lock(n)), st(2, Action::Write(x, Bytes::ALL))];
        let mode = Independence::AllDependent;
        let mut normal: Vec<(TraceKey, Vec<u16>)> = Vec::new();
        for pick in [[1u16, 1, 2, 2], [1, 2, 1, 2], [1, 2, 2, 1], [2, 1, 1, 2], [2, 1, 2, 1], [2, 2, 1, 1]] {
            let (mut i, mut j) = (0, 0);
            let steps: Vec<Step> = pick
                .iter()
                .map(|&t| {
                    let (seq, k) = if t == 1 { (&one, &mut i) } else { (&two, &mut j) };
                    *k += 1;
                    seq[*k - 1]
                })
                .collect();
            if is_lexicographic_normal_form(&steps, mode) {
                normal.push((trace_key(&steps, mode), pick.to_vec()));
            }
        }
        normal.sort();
        assert_eq!(normal.len(), 2, "{normal:?}");
        assert_ne!(normal[0].0, normal[1].0);
        let picks: Vec<&Vec<u16>> = normal.iter().map(|(_, p)| p).collect();
        assert!(picks.contains(&&vec![1, 1, 2, 2]) && picks.contains(&&vec![1, 2, 2, 1]), "{picks:?}");
        // A thread cannot move before its creation: thread 1, created by thread 3 after
        // thread 2 ran, is in normal form after them ([0,0,2,3,1] is the least order).
        let (x, y) = (ObjId(4), ObjId(5));
        let late = [
            st(0, Action::Create(ThreadId(3))),
            st(0, Action::Create(ThreadId(2))),
            st(2, Action::Write(y, Bytes::ALL)),
            st(3, Action::Create(ThreadId(1))),
            st(1, Action::Write(x, Bytes::ALL)),
        ];
        assert!(is_lexicographic_normal_form(&late, mode));
        let mut swapped = late;
        swapped.swap(2, 3);
        assert!(!is_lexicographic_normal_form(&swapped, mode));
        // The end of the process never moves: main's exit after a thread's step is normal.
        let end = [st(0, Action::Create(ThreadId(1))), st(1, Action::Exit), st(0, Action::ExitProcess)];
        assert!(is_lexicographic_normal_form(&end, mode));
    }

    #[test]
    fn reads_commute_only_in_read_read_mode() {
        let x = ObjId(3);
        let a = [
            st(1, Action::Read(x, Bytes::ALL)),
            st(2, Action::Read(x, Bytes::ALL)),
            st(3, Action::Write(x, Bytes::ALL)),
        ];
        let b = [
            st(2, Action::Read(x, Bytes::ALL)),
            st(1, Action::Read(x, Bytes::ALL)),
            st(3, Action::Write(x, Bytes::ALL)),
        ];
        let c = [
            st(2, Action::Read(x, Bytes::ALL)),
            st(3, Action::Write(x, Bytes::ALL)),
            st(1, Action::Read(x, Bytes::ALL)),
        ];
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
        assert!(!rr.dependent(ThreadId(1), wx, ThreadId(2), Action::Read(x, Bytes::ALL)));
        let d = [st(1, wx), st(2, Action::Read(x, Bytes::ALL))];
        let e = [st(2, Action::Read(x, Bytes::ALL)), st(1, wx)];
        assert_eq!(trace_key(&d, rr), trace_key(&e, rr));
    }
}
