//! The machinery the sequence-based explorers share (dfs, classic-, source- and
//! optimal-DPOR): the explicit exploration stack, the happens-before analysis of an
//! execution with clock vectors, race detection, the sequences `v` of JACM'17 and
//! wakeup trees.
//!
//! # The stack
//!
//! Node `k` of the stack is the state `s[E_k]` after the first `k` steps of the current
//! execution `E`. It keeps the branch being explored from it (`cur`), the enabled
//! threads, the sleep set (`sleep(E_k)`: the inherited sleep set plus the branches
//! explored from `E_k`), and the algorithm's choice structure: a backtrack set
//! (classic/source/dfs) or a wakeup tree (optimal). Memory is proportional to the
//! current branch plus the wakeup trees. Runs go through [`Session::run`] with the
//! replay `E_k.p(.w)` and the sleep set at the end of the replay; the runtime continues
//! with the shared default policy, so the nodes after the replay are created from the
//! execution that comes back.
//!
//! # Happens-before (JACM'17 Def. 3.2)
//!
//! `e →_E e'` is the transitive closure of: program order; [`causes`] between an
//! earlier and a later event (dependent actions per [`Independence::dependent`], thread
//! creation before the created thread's first action, exit before the join that waits
//! for it, every event before a process exit). It is computed with one clock vector per
//! event (POPL'05 Fig. 4): `vc[e][t]` is the number of events of `t` that happen before
//! or are `e`. Cost O(n·T) per execution for n steps and T threads.
//!
//! Races (JACM'17 §3.3, `e ⋖_E e'`): `e →_E e'` through a direct dependence, different
//! threads, and no event in between in happens-before. Only the maximal conflicting
//! earlier accesses of the object can race with an event, so detection is O(n·T).
//!
//! # Blocking (JACM'17 §8, generalised to every kind of object)
//!
//! A race `e ⋖ e'` is *reversible* iff `e'` would be enabled where the reversal puts it:
//! in the object's state before `e`, plus the operations on the object that follow `e`
//! without happening after it (read-side operations that commute with `e`). The object
//! state before every event is kept by the analysis ([`Analysis::enabled_before`]) and
//! the question is asked of the object's kind ([`crate::objects`]): an `unlock → lock`
//! race is irreversible, as in the paper, and so is `post → wait` on an empty semaphore
//! or `signal → wake`. JACM'17's lock rule (Alg. 3/4: a blocked or later `lock` races
//! with the last *acquire*, not with the `unlock` it waited for) becomes: a request
//! ([`Action::request`]) races with the last dependent event before which it would have
//! been granted ([`Analysis::grantable`]).

use crate::action::{Access, Action, Bytes, Independence, ObjKind};
use crate::explore::{Cancel, ExploreError, Session};
use crate::ids::{ObjId, ThreadId};
use crate::objects::rwlock::RwState;
use crate::objects::ObjState;
use crate::program::{Execution, SchedState, Step};
use rustc_hash::FxHashMap as HashMap;
use rustc_hash::FxHashSet as HashSet;
use std::time::Instant;

/// Whether an event `a` of `ta`, placed before an event `b` of `tb`, is ordered before
/// it by a direct happens-before edge (see the module documentation).
#[inline]
pub(crate) fn causes(mode: Independence, ta: ThreadId, a: Action, tb: ThreadId, b: Action) -> bool {
    ta == tb
        || mode.dependent(ta, a, tb, b)
        || a == Action::Create(tb)
        || (a == Action::Exit && b == Action::Join(ta))
        || b == Action::ExitProcess
}

/// After this many events, a scan over the events after an event takes the bound
/// [`Analysis::concurrent_end`] gives.
const LONG_SCAN: usize = 32;

/// What the scans of one episode of a pending request (a run of states where its
/// thread's next operation stays the same) have settled, so that each later state scans
/// only what may have changed ([`Analysis::grantable`]). Within an episode the request's
/// clock does not change, so an event that happens before it, commutes with it, or was
/// taken stays so; a read-side event whose test no later state can change (the
/// reversal's `limit` no longer matters) too.
#[derive(Debug)]
pub(crate) struct Settled {
    /// Read-side events taken as races of the episode, or never grantable in it.
    events: HashSet<usize>,
    /// Position in the object's list of events below which every event is settled.
    floor: usize,
    /// Cuts a scan short (its result is then partial, and the caller stops): the first
    /// scan of an episode over a long run of concurrent reads can take seconds.
    cancel: Option<Cancel>,
}

impl Settled {
    /// Nothing settled yet; scans asking `cancel` now and then.
    pub fn new(cancel: Option<Cancel>) -> Self {
        Settled { events: HashSet::default(), floor: 0, cancel }
    }

    /// Forget what an episode settled (for the next one), keeping the room.
    pub fn reset(&mut self) {
        self.events.clear();
        self.floor = 0;
    }
}

/// One event of an analysed execution.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ev {
    pub thread: ThreadId,
    pub action: Action,
    /// Index of the event among its thread's events.
    pub local: u32,
}

/// The happens-before analysis of one execution (clock vectors and races).
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    pub evs: Vec<Ev>,
    /// Number of thread slots (max thread id + 1).
    pub nt: usize,
    // invariant: vc[i * stride + t] = number of events of thread t that happen before or
    // are i; stride >= nt, and the entries from nt on are 0.
    vc: Vec<u32>,
    stride: usize,
    /// Per thread: event indices in order.
    pub by_thread: Vec<Vec<u32>>,
    /// Per thread: index of the event that created it (none for main).
    pub creator: Vec<Option<u32>>,
    /// Reversible races `(e, e')`, `e < e'`, in order of `e'`.
    pub races: Vec<(u32, u32)>,
    /// Per object: event indices touching it, in order.
    pub by_object: HashMap<ObjId, Vec<u32>>,
    /// The independence relation the analysis was built with.
    pub mode: Independence,
    // invariant: before[i] is the state of event i's object just before it (Fresh for
    // events without an object and for memory accesses).
    before: Vec<ObjState>,
    /// Current object states while building.
    states: HashMap<ObjId, ObjState>,
    /// Per object: the indices of the events that move its await count (writes and
    /// changing read-modify-writes of a location, unlocks of a mutex:
    /// [`Action::moves_await_count`]), in order (its count before event `e` is the
    /// number of them before `e`: what a spin-wait is enabled by).
    writes: HashMap<ObjId, Vec<u32>>,
    /// Per object, the access state of its locations while building.
    objs: HashMap<ObjId, ObjectAccess>,
    /// Scratch: the race candidates of a step.
    cands: Vec<u32>,
}

/// Per-location access state while computing clocks: a location is a byte of a memory
/// word, or a synchronising object (always touched whole).
#[derive(Clone, Debug, Default)]
struct AccessState {
    last: Option<u32>,
    last_write: Option<u32>,
    reads: Vec<u32>,
    /// Whether `reads` holds reads of each [`Action::read_class`] (two classes share an
    /// object only when a spin-wait watches a read-write lock).
    classes: [bool; 2],
}

/// Per-object access state: one [`AccessState`] per byte of a memory word once some
/// access touched part of it (under read-read independence: accesses to disjoint bytes
/// commute, [`Independence::objects_conflict`]); until then `bytes[0]` stands for every
/// byte (synchronising objects, and words only ever accessed whole, stay so).
#[derive(Debug, Default)]
struct ObjectAccess {
    split: bool,
    bytes: [AccessState; 8],
    /// Per thread: its last event on the object.
    last_by_thread: Vec<Option<u32>>,
    /// A read-write lock's running sums (empty for other objects).
    rw: RwIndex,
}

/// A read-write lock's events as [`Analysis::write_lock_before`] reads them: per
/// thread, each of its events on the lock with the read locks the thread has taken
/// minus those it has released after it; and the write-side events.
#[derive(Debug, Default)]
struct RwIndex {
    /// Per thread: (event, read locks held, unlocks made) after each of its events.
    by_thread: Vec<Vec<(u32, i64, u32)>>,
    writes: Vec<u32>,
}

impl RwIndex {
    fn note(&mut self, t: ThreadId, j: u32, a: Action) {
        if a.access() == Access::Write {
            self.writes.push(j);
        }
        let delta = match a {
            Action::RdLock(_) | Action::TryRdLock(_, true) => 1,
            Action::RwUnlock(_, false) => -1,
            _ => 0,
        };
        if self.by_thread.len() <= t.index() {
            self.by_thread.resize_with(t.index() + 1, Vec::new);
        }
        let held = &mut self.by_thread[t.index()];
        let (sum, unlocks) = held.last().map_or((0, 0), |&(_, s, u)| (s, u));
        held.push((j, sum + delta, unlocks + u32::from(matches!(a, Action::RwUnlock(..)))));
    }

    /// A thread's running sums over its events (`held`) before index `i`: read locks
    /// held, unlocks made.
    fn before(held: &[(u32, i64, u32)], i: usize) -> (i64, u32) {
        let n = held.partition_point(|&(j, ..)| (j as usize) < i);
        n.checked_sub(1).map_or((0, 0), |k| (held[k].1, held[k].2))
    }

    /// The sums of thread `q`'s events after `e` (whose index the analysis `an` gives)
    /// that do not happen after it, up to `cap`: (read locks taken minus released,
    /// unlocks).
    fn moved(&self, an: &Analysis, q: usize, e: usize, cap: usize) -> (i64, u32) {
        let Some(held) = self.by_thread.get(q).filter(|h| !h.is_empty()) else { return (0, 0) };
        let end = an.first_after(q, e).map_or(cap, |y| y.min(cap));
        let ((h1, u1), (h0, u0)) = (Self::before(held, end), Self::before(held, e + 1));
        (h1 - h0, u1.wrapping_sub(u0))
    }
}

impl ObjectAccess {
    /// The states of the locations `b` covers (splitting the word first if needed).
    fn locations(&mut self, b: Bytes) -> impl Iterator<Item = &mut AccessState> {
        if !self.split && b != Bytes::ALL {
            let whole = self.bytes[0].clone();
            self.bytes[1..].iter_mut().for_each(|s| *s = whole.clone());
            self.split = true;
        }
        let bits = if self.split { b.bits() } else { 1 };
        self.bytes.iter_mut().enumerate().filter(move |(k, _)| bits & (1 << k) != 0).map(|(_, s)| s)
    }
}

impl Analysis {
    /// Analyse `exec` under `mode`.
    pub fn build(&mut self, exec: &Execution, mode: Independence) {
        self.begin(mode);
        for s in &exec.steps {
            self.push(s);
        }
    }

    /// Start the analysis of an execution under `mode`, its steps to follow in order
    /// ([`Analysis::push`]), as the program hands them over: the analysis of a step
    /// reads only the steps before it.
    pub fn begin(&mut self, mode: Independence) {
        self.nt = 0;
        self.evs.clear();
        self.vc.clear();
        self.races.clear();
        self.by_thread.iter_mut().for_each(Vec::clear);
        self.creator.iter_mut().for_each(|c| *c = None);
        self.ensure_threads(1);
        self.by_object.clear();
        self.writes.clear();
        self.mode = mode;
        self.before.clear();
        self.states.clear();
        self.objs.clear();
    }

    /// Make room for threads `0..nt` (rows keep a stride of at least `nt`, kept between
    /// executions so that the clocks are rarely laid out again).
    fn ensure_threads(&mut self, nt: usize) {
        // invariant: stride >= self.nt and by_thread.len() >= self.nt.
        if nt <= self.nt {
            return;
        }
        self.nt = nt;
        if self.stride < nt {
            let stride = self.nt.max(self.stride * 2);
            let rows = self.vc.len() / self.stride.max(1);
            let mut vc = vec![0; rows * stride];
            for (r, row) in vc.chunks_exact_mut(stride).enumerate() {
                row[..self.stride].copy_from_slice(&self.vc[r * self.stride..(r + 1) * self.stride]);
            }
            self.vc = vc;
            self.stride = stride;
        }
        if self.by_thread.len() < self.nt {
            self.by_thread.resize_with(self.nt, Vec::new);
            self.creator.resize(self.nt, None);
        }
    }

    /// Analyse the next step of the execution ([`Analysis::begin`]).
    pub fn push(&mut self, s: &Step) {
        let mode = self.mode;
        let j = self.evs.len();
        let created = match s.action {
            Action::Create(c) => c.index(),
            _ => 0,
        };
        self.ensure_threads(s.thread.index().max(created) + 1);
        let (nt, stride) = (self.nt, self.stride);
        self.vc.resize((j + 1) * stride, 0);
        let mut objs = std::mem::take(&mut self.objs);
        let mut cands = std::mem::take(&mut self.cands);
        let t = s.thread;
        let local = self.by_thread[t.index()].len() as u32;
        self.evs.push(Ev { thread: t, action: s.action, local });
        // Direct predecessors other than the object ones.
        let prev = self.by_thread[t.index()].last().copied();
        let mut preds: [Option<u32>; 2] = [prev, None];
        if prev.is_none() {
            preds[1] = self.creator[t.index()];
        }
        if let Action::Join(u) = s.action {
            preds[1] = self.by_thread.get(u.index()).and_then(|v| v.last().copied());
        }
        for p in preds.into_iter().flatten() {
            self.join_clock(j, p as usize);
        }
        if s.action == Action::ExitProcess {
            for tv in &self.by_thread {
                if let Some(&p) = tv.last() {
                    let (a, b) = self.vc.split_at_mut(j * stride);
                    let src = &a[p as usize * stride..p as usize * stride + nt];
                    for (d, s) in b[..nt].iter_mut().zip(src) {
                        *d = (*d).max(*s);
                    }
                }
            }
        }
        // Object predecessors and race candidates.
        cands.clear();
        if let Some(o) = s.action.object() {
            let st = self.states.entry(o).or_default();
            self.before.push(st.clone());
            // The session validated the execution with the same semantics.
            let _ = st.apply(t, s.action);
        } else {
            self.before.push(ObjState::Fresh);
        }
        // A spin-wait on several locations reads each of them; an access to several
        // bytes of a word, each of them (under read-read independence).
        let mut locations = 0;
        for o in s.action.objects() {
            self.by_object.entry(o).or_default().push(j as u32);
            if s.action.moves_await_count() {
                self.writes.entry(o).or_default().push(j as u32);
            }
            let bytes = match mode {
                Independence::ReadReadIndependent => s.action.bytes_of(o).unwrap_or(Bytes::ALL),
                Independence::AllDependent => Bytes::ALL,
            };
            let access = objs.entry(o).or_default();
            if access.last_by_thread.len() <= t.index() {
                access.last_by_thread.resize(t.index() + 1, None);
            }
            access.last_by_thread[t.index()] = Some(j as u32);
            if s.action.obj_kind() == Some(ObjKind::RwLock) {
                access.rw.note(t, j as u32, s.action);
            }
            for st in access.locations(bytes) {
                locations += 1;
                if mode == Independence::ReadReadIndependent {
                    if s.action.access() == Access::Read {
                        cands.extend(st.last_write);
                        // Reads of the other class since the last write conflict with it
                        // (a spin-wait on a read-write lock and the lock's read side).
                        let class = s.action.read_class() as usize;
                        if st.classes[1 - class] {
                            let evs = &self.evs;
                            cands.extend(
                                st.reads.iter().filter(|&&r| evs[r as usize].action.read_class() as usize != class),
                            );
                        }
                        st.classes[class] = true;
                        // Only the last read of each thread and class is kept: an
                        // earlier one happens before it (program order), so it is
                        // hidden as a candidate and its clock is in the later one's.
                        // The list stays within two entries per thread, however long
                        // the execution reads without writing.
                        let evs = &self.evs;
                        st.reads.retain(|&r| {
                            let ev = evs[r as usize];
                            ev.thread != t || ev.action.read_class() as usize != class
                        });
                        st.reads.push(j as u32);
                    } else {
                        if st.reads.is_empty() {
                            cands.extend(st.last_write);
                        } else {
                            cands.extend_from_slice(&st.reads);
                        }
                        st.reads.clear();
                        st.classes = [false; 2];
                        st.last_write = Some(j as u32);
                    }
                } else {
                    cands.extend(st.last);
                }
                st.last = Some(j as u32);
            }
        }
        if locations > 1 {
            // The same earlier event may conflict on several locations: once each (a
            // repeated candidate would hide its own race).
            let mut k = 0;
            for i in 0..cands.len() {
                if !cands[..k].contains(&cands[i]) {
                    cands[k] = cands[i];
                    k += 1;
                }
            }
            cands.truncate(k);
        }
        for &c in &cands {
            self.join_clock(j, c as usize);
        }
        self.vc[j * stride + t.index()] = local + 1;
        // Races: candidates of other threads not ordered before another predecessor.
        if s.action != Action::ExitProcess {
            for (ci, &c) in cands.iter().enumerate() {
                let ce = self.evs[c as usize];
                if ce.thread == t {
                    continue;
                }
                let hidden = preds.iter().flatten().any(|&p| self.hb(c as usize, p as usize))
                    || cands.iter().enumerate().any(|(di, &d)| di != ci && self.hb(c as usize, d as usize));
                if hidden {
                    continue;
                }
                if self.enabled_before(c as usize, j, t, s.action.pending_form()) {
                    self.races.push((c, j as u32));
                }
            }
        }
        self.by_thread[t.index()].push(j as u32);
        if let Action::Create(c) = s.action {
            self.creator[c.index()] = Some(j as u32);
        }
        self.objs = objs;
        self.cands = cands;
    }

    /// Whether thread `p`'s pending action `a` (on `e`'s object) would be enabled if it
    /// were moved just before event `e`, with the events of `e`'s object up to `limit`
    /// that do not happen after `e` (read-side operations commuting with it) moved
    /// along: the reversibility test of the module documentation.
    pub fn enabled_before(&self, e: usize, limit: usize, p: ThreadId, a: Action) -> bool {
        self.reversal_enabled(e, limit, p, a).0
    }

    /// [`Analysis::enabled_before`], and whether the answer is the same for every
    /// larger `limit` (no event from `limit` on could move along: the scan stopped at a
    /// write, at the end of the object's events, or where every later event happens
    /// after `e`).
    fn reversal_enabled(&self, e: usize, limit: usize, p: ThreadId, a: Action) -> (bool, bool) {
        if let Action::Await(w) = a {
            // The await counts where the reversal puts the wait: the count of the bytes
            // watched before e, plus the writes to them between e and `limit` that do not
            // happen after e (they move along, before the wait). For a wait on e's own
            // bytes there are none of the latter (writes to them are dependent with e),
            // but a wait on several locations (or bytes) can be woken by a write to
            // another one that commutes with e.
            let mut last = true;
            let woken = w.woken(|o, b| {
                let Some(list) = self.writes.get(&o) else { return 0 };
                let before = self.state_before(e, o).await_count(b).unwrap_or(0);
                let from = list.partition_point(|&x| (x as usize) < e);
                // A read-write lock's count is its unlocks: its index sums them per
                // thread once the walk would be long (`write_lock_before`).
                let span = list[from..].partition_point(|&x| (x as usize) < limit);
                if let Some(index) = self.objs.get(&o).filter(|a| span > LONG_SCAN && !a.rw.by_thread.is_empty()) {
                    last &= self.concurrent_end(e, limit) < limit;
                    let moved = (0..self.nt).map(|q| index.rw.moved(self, q, e, limit).1);
                    return moved.fold(before, u32::wrapping_add);
                }
                let mut end = limit;
                let mut n = before;
                for (i, &x) in list[from..].iter().enumerate() {
                    // The walk ends at `limit`, lowered to the end of the events
                    // concurrent with e once it runs long.
                    if i == LONG_SCAN {
                        end = self.concurrent_end(e, limit);
                    }
                    let x = x as usize;
                    if x >= end {
                        last &= end < limit;
                        return n;
                    }
                    if x != e && !self.hb(e, x) {
                        n = n.wrapping_add(self.evs[x].action.await_weight(b));
                    }
                }
                n
            });
            let last = last || self.concurrent_end(e, limit) < limit;
            return (woken, last);
        }
        let Some(o) = a.object() else { return (true, true) };
        if a.obj_kind() == Some(ObjKind::Memory) && !matches!(a, Action::Await(..)) {
            return (true, true);
        }
        let ev = self.evs[e];
        if self.mode == Independence::AllDependent || ev.action.access() == Access::Write {
            // Every later operation on the object happens after e.
            return (self.state_before(e, o).enabled(p, a), true);
        }
        let st = self.state_before(e, o);
        if let ObjState::RwLock(rw) = &st {
            // Read-side events never change the writer: a read lock's answer is the
            // state before e's. A write lock's needs the readers after the moved events,
            // which the lock's index sums per thread once the scan would be long.
            match a {
                Action::RdLock(_) => return (rw.writer.is_none(), true),
                Action::WrLock(_) => {
                    let list = self.by_object.get(&o).map_or(&[][..], |l| l.as_slice());
                    let span =
                        list.partition_point(|&x| (x as usize) < limit) - list.partition_point(|&x| x as usize <= e);
                    if let Some(index) = self.objs.get(&o).filter(|_| span > LONG_SCAN) {
                        return self.write_lock_before(e, limit, rw, &index.rw);
                    }
                }
                _ => {}
            }
        }
        self.scan_enabled(e, limit, o, st, p, a)
    }

    /// The read-side events of `o` after `e` (up to `limit`, or a write-side event) that
    /// do not happen after `e`, applied one by one to `st`, the state before `e`:
    /// [`Analysis::reversal_enabled`] in general.
    fn scan_enabled(&self, e: usize, limit: usize, o: ObjId, mut st: ObjState, p: ThreadId, a: Action) -> (bool, bool) {
        let mut last = true;
        if let Some(list) = self.by_object.get(&o) {
            let from = list.partition_point(|&x| x as usize <= e);
            let mut end = limit;
            for (i, &x) in list[from..].iter().enumerate() {
                if i == LONG_SCAN {
                    end = self.concurrent_end(e, limit);
                }
                let x = x as usize;
                if self.evs[x].action.access() == Access::Write {
                    break;
                }
                if x >= end {
                    last = end < limit || self.concurrent_end(e, limit) < limit;
                    break;
                }
                if !self.hb(e, x) {
                    let _ = st.apply(self.evs[x].thread, self.evs[x].action);
                }
            }
        }
        (st.enabled(p, a), last)
    }

    /// [`Analysis::reversal_enabled`] for a write lock of the read-write lock whose
    /// state before the read-side event `e` is `before`: free once the read-side events
    /// that move along are applied. Those of thread `q` are its events on the lock from
    /// `e` up to the first of them that happens after `e`, the lock's next write-side
    /// event, or `limit`: their sum of read locks taken and released is a difference of
    /// two of `index`'s running sums. A bisection or three per thread instead of a walk
    /// over every event up to `limit`.
    fn write_lock_before(&self, e: usize, limit: usize, before: &RwState, index: &RwIndex) -> (bool, bool) {
        if before.writer.is_some() {
            return (false, true);
        }
        let write = index.writes.get(index.writes.partition_point(|&x| x as usize <= e)).map(|&x| x as usize);
        let cap = write.map_or(limit, |w| w.min(limit));
        let readers = i64::from(before.readers) + (0..self.nt).map(|q| index.moved(self, q, e, cap).0).sum::<i64>();
        let last = write.is_some_and(|w| w < limit) || self.concurrent_end(e, limit) < limit;
        (readers == 0, last)
    }

    /// The first event of thread `q` after `e` that happens after `e`. Happening after
    /// `e` is upward closed in a thread's order, so one bisection finds it, and every
    /// later event of `q` happens after `e` too.
    fn first_after(&self, q: usize, e: usize) -> Option<usize> {
        let evs = &self.by_thread[q];
        let after = &evs[evs.partition_point(|&y| y as usize <= e)..];
        after.get(after.partition_point(|&y| !self.hb(e, y as usize))).map(|&y| y as usize)
    }

    /// An index past which every event before `limit` happens after `e`: the end of
    /// the events that can move along with a reversal before `e`. (Each thread's
    /// events that happen after `e` are a suffix of its events after `e`, so the
    /// first of them, found by bisection, bounds that thread's others.) Costs a
    /// bisection per thread, so scans take it only once they run long.
    fn concurrent_end(&self, e: usize, limit: usize) -> usize {
        let mut end = 0;
        for (q, evs) in self.by_thread[..self.nt].iter().enumerate() {
            let bound = self.first_after(q, e).unwrap_or_else(|| evs.last().map_or(0, |&y| y as usize + 1));
            end = end.max(bound);
            if end >= limit {
                return limit;
            }
        }
        end
    }

    /// The state of object `o` just before event `e`, which touches it: `before[e]` when
    /// `o` is `e`'s object; otherwise `e` is a spin-wait on several objects (which
    /// changes none of them) and `o` is in the state the last earlier event with `o` as
    /// its object left it in.
    fn state_before(&self, e: usize, o: ObjId) -> ObjState {
        if self.evs[e].action.object() == Some(o) {
            return self.before[e].clone();
        }
        let list = self.by_object.get(&o).map_or(&[][..], |l| l.as_slice());
        let upto = list.partition_point(|&x| (x as usize) < e);
        for &x in list[..upto].iter().rev() {
            let ev = self.evs[x as usize];
            if ev.action.object() == Some(o) {
                let mut st = self.before[x as usize].clone();
                let _ = st.apply(ev.thread, ev.action);
                return st;
            }
        }
        ObjState::Fresh
    }

    /// The events before `k` with which thread `p`'s pending request `a` races in the
    /// sense of JACM'17 §8 (generalised), latest first, into `out`: events of `a`'s
    /// object, of other threads, not happening before `p`'s pending action (whose clock
    /// is `pclock`), dependent with `a`, and before which the request would be granted
    /// ([`Action::request`] enabled, [`Analysis::enabled_before`]).
    ///
    /// When every operation on the object is dependent, they are totally ordered and only
    /// the last such event races (earlier ones are reached recursively once the request
    /// is moved before it, as JACM'17's lock rule). With read-side operations commuting
    /// (a read-write lock under read-read independence), read sections of different
    /// threads are unordered: each read-side acquisition after the last write-side one
    /// is a distinct place for the request (the other sections move along in `notdep`),
    /// so all of them race, down to and including the last grantable write-side event.
    /// A spin-wait on several locations races with the last such event on any of them.
    ///
    /// `settled`: what the earlier states of this episode of the request settled, for a
    /// caller that needs only the first state of each (episode, event) pair (source-DPOR):
    /// the scan leaves those events out of `out` and skips their test, and records what
    /// it settles. `None`: every race is reported.
    pub fn grantable(
        &self,
        p: ThreadId,
        a: Action,
        k: usize,
        pclock: &[u32],
        settled: Option<&mut Settled>,
        out: &mut Vec<usize>,
    ) {
        out.clear();
        let Some(req) = a.request() else { return };
        let mut objs = a.objects();
        let (Some(first), second) = (objs.next(), objs.next()) else { return };
        let Some(second) = second else {
            self.grantable_on(first, p, a, req, k, pclock, settled, out);
            return;
        };
        let mut one = Vec::new();
        let mut best = None;
        for o in [first, second].into_iter().chain(objs) {
            self.grantable_on(o, p, a, req, k, pclock, None, &mut one);
            best = best.max(one.first().copied());
        }
        out.extend(best);
    }

    /// [`Analysis::grantable`] among the events on object `o`.
    #[allow(clippy::too_many_arguments)]
    fn grantable_on(
        &self,
        o: ObjId,
        p: ThreadId,
        a: Action,
        req: Action,
        k: usize,
        pclock: &[u32],
        mut settled: Option<&mut Settled>,
        out: &mut Vec<usize>,
    ) {
        out.clear();
        let Some(list) = self.by_object.get(&o) else { return };
        let total =
            self.mode == Independence::AllDependent || !matches!(a.obj_kind(), Some(ObjKind::RwLock | ObjKind::Memory));
        let upto = list.partition_point(|&x| (x as usize) < k);
        // Every event below the first one of some other thread that does not happen
        // before p's request does (or is p's own), and none of them can race: the scan
        // stops there instead of at the start of a long run of commuting reads. (A
        // thread whose last event on the object happens before the request has none
        // to count.)
        let last_on = self.objs.get(&o).map_or(&[][..], |s| &s.last_by_thread[..]);
        let mut from = (0..self.nt)
            .filter(|&q| q != p.index())
            .filter_map(|q| {
                let first = *self.by_thread[q].get(pclock[q] as usize)?;
                (last_on.get(q).copied().flatten()? >= first).then_some(first)
            })
            .min()
            .map_or(upto, |low| list[..upto].partition_point(|&x| x < low));
        if total {
            settled = None;
        }
        if let Some(s) = settled.as_deref() {
            from = from.max(s.floor.min(upto));
        }
        // The lowest position whose event may race at a later state of the episode.
        let mut open = None;
        for pos in (from..upto).rev() {
            if pos % 256 == 0 && settled.as_deref().and_then(|s| s.cancel.as_ref()).is_some_and(Cancel::is_set) {
                return;
            }
            let x = list[pos] as usize;
            let ev = self.evs[x];
            // An event happening before p's request (p's own included) cannot be
            // reordered after it; with read-side operations, an earlier one still can.
            if ev.thread == p || pclock[ev.thread.index()] > ev.local {
                if total {
                    return;
                }
                continue;
            }
            if !self.mode.dependent(ev.thread, ev.action, p, a) {
                continue;
            }
            let write = ev.action.access() == Access::Write;
            if !write && settled.as_deref().is_some_and(|s| s.events.contains(&x)) {
                continue;
            }
            let (granted, last) = self.reversal_enabled(x, k, p, req);
            if granted {
                out.push(x);
                if total || write {
                    return;
                }
            }
            match settled.as_deref_mut() {
                // A read-side race is taken now; one never granted stays so.
                Some(s) if !write && (granted || last) => {
                    s.events.insert(x);
                }
                _ => open = Some(pos),
            }
        }
        if let Some(s) = settled {
            s.floor = open.unwrap_or(upto);
        }
    }

    fn join_clock(&mut self, j: usize, p: usize) {
        let (nt, stride) = (self.nt, self.stride);
        let (a, b) = self.vc.split_at_mut(j * stride);
        let src = &a[p * stride..p * stride + nt];
        for (d, s) in b[..nt].iter_mut().zip(src) {
            *d = (*d).max(*s);
        }
    }

    /// The clock vector of event `i`.
    #[inline]
    pub fn clock(&self, i: usize) -> &[u32] {
        &self.vc[i * self.stride..i * self.stride + self.nt]
    }

    /// `i →_E j` or `i == j`.
    #[inline]
    pub fn hb(&self, i: usize, j: usize) -> bool {
        let e = self.evs[i];
        self.vc[j * self.stride + e.thread.index()] > e.local
    }

    /// The clock a pending action of `p` would have if it were executed at state `k`
    /// with no dependent event since: that of `p`'s last event before `k`, or of its
    /// creation. Written into `out` with `p`'s own entry set.
    pub fn pending_clock(&self, p: ThreadId, k: usize, out: &mut Vec<u32>) -> u32 {
        out.clear();
        out.resize(self.nt, 0);
        let evs = self.by_thread.get(p.index()).map(|v| v.as_slice()).unwrap_or(&[]);
        let before = evs.partition_point(|&e| (e as usize) < k);
        let src = if before > 0 { Some(evs[before - 1]) } else { self.creator.get(p.index()).copied().flatten() };
        if let Some(s) = src {
            out.copy_from_slice(self.clock(s as usize));
        }
        out[p.index()] = before as u32 + 1;
        before as u32
    }
}

/// A sequence `v` of events to perform after a prefix `E'` (JACM'17 §3–6), with its own
/// happens-before relation as clock vectors restricted to `v`.
#[derive(Debug, Default)]
pub(crate) struct VSeq {
    pub evs: Vec<(ThreadId, Action)>,
    nt: usize,
    /// Per thread: position among the thread's events of v, for each event.
    tpos: Vec<u32>,
    /// Per thread: the indices of its events in v.
    of_thread: Vec<Vec<u32>>,
    // The clock of event x restricted to v (the number of t-events of v that happen
    // before or are x) is computed when asked (`v_clock`) from what was pushed: per
    // thread, the local index of its first event in v and its count in v; per event, its
    // clock in the analysed execution (`raw[x * nt..]`). Computing every entry when v
    // was complete cost more than the few `initial_after` tests that read them.
    first_local: Vec<Option<u32>>,
    count: Vec<u32>,
    raw: Vec<u32>,
    // nt zeros: "nothing removed".
    zero: Vec<u32>,
}

impl VSeq {
    /// Start a sequence over `nt` thread slots.
    pub fn clear(&mut self, nt: usize) {
        self.evs.clear();
        self.nt = nt;
        self.zero.clear();
        self.zero.resize(nt, 0);
        self.tpos.clear();
        self.first_local.clear();
        self.first_local.resize(nt, None);
        self.count.clear();
        self.count.resize(nt, 0);
        self.raw.clear();
        self.of_thread.iter_mut().for_each(Vec::clear);
        self.of_thread.resize_with(nt, Vec::new);
    }

    /// Append an event with its clock in the analysed execution and its local index.
    pub fn push(&mut self, t: ThreadId, a: Action, eclock: &[u32], local: u32) {
        let ti = t.index();
        self.first_local[ti].get_or_insert(local);
        self.tpos.push(self.count[ti]);
        self.count[ti] += 1;
        self.of_thread[ti].push(self.evs.len() as u32);
        self.evs.push((t, a.pending_form()));
        self.raw.extend_from_slice(&eclock[..self.nt]);
    }

    /// Append thread `p`'s request `a` at the end of `v` (the `.p` of Alg. 4's `w.p`):
    /// `pclock` is its clock in the analysed execution up to its program-order and
    /// creation predecessors ([`Analysis::pending_clock`]); in `v` it also happens after
    /// every earlier event of `v` it depends on (a write-lock request after the read
    /// sections `notdep` moved before it). Without that, `p` would count as an initial
    /// of `v` although a dependent event precedes it, and the sleep-set test would reject
    /// `v` when `p` sleeps.
    pub fn push_request(&mut self, mode: Independence, p: ThreadId, a: Action, pclock: &[u32], local: u32) {
        let nt = self.nt;
        let mut c = pclock[..nt].to_vec();
        let a = a.pending_form();
        for (x, &(t, b)) in self.evs.iter().enumerate() {
            if causes(mode, t, b, p, a) {
                for (cu, &r) in c.iter_mut().zip(&self.raw[x * nt..x * nt + nt]) {
                    *cu = (*cu).max(r);
                }
            }
        }
        self.push(p, a, &c, local);
    }

    /// Entry `u` of event `x`'s clock restricted to `v`: the number of `u`-events of `v`
    /// that happen before `x` or are `x` (valid once `v` is complete).
    fn v_clock(&self, x: usize, u: usize) -> u32 {
        match self.first_local[u] {
            None => 0,
            Some(fl) => self.raw[x * self.nt + u].saturating_sub(fl).min(self.count[u]),
        }
    }

    /// Whether event `x` has all its `v`-predecessors among the removed events (given
    /// per thread as the number removed from the front) and is first of its thread.
    fn initial_after(&self, x: usize, removed: &[u32]) -> bool {
        let t = self.evs[x].0.index();
        if self.tpos[x] != removed[t] {
            return false;
        }
        (0..self.nt).all(|u| u == t || self.v_clock(x, u) <= removed[u])
    }

    /// The first event of thread `p` in `v` after `removed[p]` removed ones, if any.
    fn first_of(&self, p: ThreadId, removed: &[u32]) -> Option<usize> {
        let r = removed.get(p.index()).copied().unwrap_or(0) as usize;
        self.of_thread.get(p.index()).and_then(|v| v.get(r)).map(|&x| x as usize)
    }

    /// `p ∈ I[E'](v)` (JACM'17 Def. 4.1 / Lemma 4.2(1)).
    pub fn is_initial(&self, p: ThreadId) -> bool {
        self.first_of(p, &self.zero).is_some_and(|x| self.initial_after(x, &self.zero))
    }

    /// The initials of `v`, in order of first occurrence.
    pub fn initials(&self, out: &mut Vec<ThreadId>) {
        out.clear();
        for x in 0..self.evs.len() {
            if self.tpos[x] == 0 && self.initial_after(x, &self.zero) {
                out.push(self.evs[x].0);
            }
        }
    }

    /// `p ∈ WI[E'](v)` for a thread `p` whose next action after `E'` is `a` (Lemma
    /// 4.2(2)): an initial, or absent from `v` and independent of all of it.
    pub fn is_weak_initial(&self, mode: Independence, p: ThreadId, a: Action) -> bool {
        if self.evs.iter().any(|&(t, _)| t == p) {
            return self.is_initial(p);
        }
        !self.evs.iter().any(|&(t, b)| causes(mode, p, a, t, b))
    }
}

/// Wakeup trees, JACM'17 Def. 6.1, for every node of the stack at once.
///
/// The wakeup tree of stack node `k` is the subtree rooted at tree node `root(k)`;
/// `root(k+1)` is the first child of `root(k)` (the branch being explored), so the
/// trees of the whole stack are one tree whose leftmost path is the current execution
/// and taking `subtree(wut(E), p)` (Alg. 2 line 18) costs nothing. Children are ordered
/// by insertion (`≺`). Nodes are typed indices into one arena with first-child /
/// next-sibling links; removed subtrees go to a free list.
///
/// The trees hold the exploration's pending work, which on some programs grows with
/// the run (the shallow nodes' trees fill as races deep in later executions insert
/// sequences there: 1.35 million nodes on mpat_nested K=8). A node is therefore 12
/// bytes: its step `(thread, action)` (40 bytes) is stored once in [`StepTable`] and
/// named by index, and no last-child link is kept.
#[derive(Clone, Debug, Default)]
pub(crate) struct WakeupForest {
    nodes: Vec<WNode>,
    free: Vec<u32>,
    steps: StepTable,
    // Scratch of `insert` and `remove_first_child`, kept between calls (insert runs once
    // per race: two allocations per race before).
    removed: Vec<u32>,
    consumed: Vec<bool>,
    stack: Vec<u32>,
}

pub(crate) const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct WNode {
    /// The step, an index into the forest's [`StepTable`].
    step: u32,
    first: u32,
    next: u32,
}

/// The distinct steps `(thread, pending action)` the nodes of a [`WakeupForest`] stand
/// for, each stored once. Steps no live node names any more are dropped when the table
/// has doubled since the last collection, so that it stays proportional to the live
/// nodes however long the run.
#[derive(Clone, Debug, Default)]
struct StepTable {
    steps: Vec<(ThreadId, Action)>,
    index: HashMap<(ThreadId, Action), u32>,
    /// Collect when the table reaches this many steps.
    collect_at: usize,
}

impl StepTable {
    const MIN_COLLECT: usize = 4096;

    fn clear(&mut self) {
        self.steps.clear();
        self.index.clear();
        self.collect_at = Self::MIN_COLLECT;
    }

    fn get(&self, id: u32) -> (ThreadId, Action) {
        self.steps[id as usize]
    }

    /// The index of `step`, added if new.
    fn intern(&mut self, step: (ThreadId, Action)) -> u32 {
        let next = self.steps.len() as u32;
        let id = *self.index.entry(step).or_insert(next);
        if id == next {
            self.steps.push(step);
        }
        id
    }
}

impl WakeupForest {
    /// Live nodes.
    pub fn live(&self) -> usize {
        self.nodes.len() - self.free.len()
    }

    fn alloc(&mut self, thread: ThreadId, action: Action) -> u32 {
        if self.steps.steps.len() >= self.steps.collect_at.max(StepTable::MIN_COLLECT) {
            self.collect_steps();
        }
        let n = WNode { step: self.steps.intern((thread, action)), first: NIL, next: NIL };
        if let Some(id) = self.free.pop() {
            self.nodes[id as usize] = n;
            id
        } else {
            self.nodes.push(n);
            self.nodes.len() as u32 - 1
        }
    }

    /// Drop the steps no live node names, renumbering the others (node indices do not
    /// change). Linear in the arena and the table; runs when the table has doubled, so
    /// its cost per added step is constant.
    fn collect_steps(&mut self) {
        let mut is_free = vec![false; self.nodes.len()];
        for &f in &self.free {
            is_free[f as usize] = true;
        }
        let mut renumber = vec![NIL; self.steps.steps.len()];
        let old = std::mem::take(&mut self.steps.steps);
        self.steps.index.clear();
        for (n, free) in self.nodes.iter_mut().zip(is_free) {
            if free {
                continue;
            }
            let s = n.step as usize;
            if renumber[s] == NIL {
                renumber[s] = self.steps.intern(old[s]);
            }
            n.step = renumber[s];
        }
        self.steps.collect_at = (2 * self.steps.steps.len()).max(StepTable::MIN_COLLECT);
    }

    /// A fresh root (the empty sequence after the initial state).
    pub fn new_root(&mut self) -> u32 {
        self.nodes.clear();
        self.free.clear();
        self.steps.clear();
        self.alloc(ThreadId::MAIN, Action::ExitProcess)
    }

    /// Append a child after all existing children of `parent` (walks them: nodes keep
    /// no last-child link, which would make them a quarter larger; the one caller that
    /// appends to a node with children, `insert`, has just walked them and uses
    /// [`WakeupForest::add_after`]).
    pub fn add_child(&mut self, parent: u32, thread: ThreadId, action: Action) -> u32 {
        let mut last = NIL;
        let mut c = self.nodes[parent as usize].first;
        while c != NIL {
            last = c;
            c = self.nodes[c as usize].next;
        }
        self.add_after(parent, last, thread, action)
    }

    /// Append a child to `parent` after `last`, its last child (`NIL` if it has none).
    fn add_after(&mut self, parent: u32, last: u32, thread: ThreadId, action: Action) -> u32 {
        let id = self.alloc(thread, action.pending_form());
        if last == NIL {
            debug_assert_eq!(self.nodes[parent as usize].first, NIL);
            self.nodes[parent as usize].first = id;
        } else {
            debug_assert_eq!(self.nodes[last as usize].next, NIL);
            self.nodes[last as usize].next = id;
        }
        id
    }

    /// The first (`≺`-least) child of `n`.
    pub fn first_child(&self, n: u32) -> Option<u32> {
        let f = self.nodes[n as usize].first;
        (f != NIL).then_some(f)
    }

    /// The next (`≺`-greater) sibling of `n`.
    pub fn next_sibling(&self, n: u32) -> Option<u32> {
        let s = self.nodes[n as usize].next;
        (s != NIL).then_some(s)
    }

    /// The step a node stands for.
    pub fn step(&self, n: u32) -> (ThreadId, Action) {
        self.steps.get(self.nodes[n as usize].step)
    }

    /// Remove the first child of `n` with its subtree (Alg. 2 line 20).
    pub fn remove_first_child(&mut self, n: u32) {
        let f = self.nodes[n as usize].first;
        if f == NIL {
            return;
        }
        let next = self.nodes[f as usize].next;
        self.nodes[n as usize].first = next;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push(f);
        while let Some(x) = stack.pop() {
            let mut c = self.nodes[x as usize].first;
            while c != NIL {
                stack.push(c);
                c = self.nodes[c as usize].next;
            }
            self.free.push(x);
        }
        self.stack = stack;
    }

    /// `insert[E](v, wut)`, JACM'17 §6.2, into the tree rooted at `root`: descend along
    /// the `≺`-least child compatible with `v` (a child `p` is compatible if
    /// `p ∈ I[E.u](v')` — its first event is then consumed — or `p ∈ WI[E.u](v')`); stop
    /// if that reaches a leaf or exhausts `v`, otherwise add the rest of `v` as a new
    /// leaf after all existing children. Returns the number of nodes added.
    pub fn insert(&mut self, root: u32, mode: Independence, v: &VSeq) -> usize {
        let (mut removed, mut consumed) = (std::mem::take(&mut self.removed), std::mem::take(&mut self.consumed));
        removed.clear();
        removed.resize(v.nt, 0);
        consumed.clear();
        consumed.resize(v.evs.len(), false);
        let added = self.insert_with(root, mode, v, &mut removed, &mut consumed);
        (self.removed, self.consumed) = (removed, consumed);
        added
    }

    fn insert_with(
        &mut self,
        root: u32,
        mode: Independence,
        v: &VSeq,
        removed: &mut [u32],
        consumed: &mut [bool],
    ) -> usize {
        let mut left = v.evs.len();
        let mut node = root;
        loop {
            if left == 0 {
                return 0;
            }
            let mut c = self.nodes[node as usize].first;
            if c == NIL && node != root {
                return 0; // reached a leaf compatible with v
            }
            let (mut chosen, mut last) = (NIL, NIL);
            while c != NIL {
                last = c;
                let cn = self.nodes[c as usize];
                let (thread, action) = self.steps.get(cn.step);
                if let Some(x) = v.first_of(thread, removed) {
                    if v.initial_after(x, removed) {
                        removed[thread.index()] += 1;
                        consumed[x] = true;
                        left -= 1;
                        chosen = c;
                        break;
                    }
                } else if !v
                    .evs
                    .iter()
                    .enumerate()
                    .any(|(x, &(t, b))| !consumed[x] && causes(mode, thread, action, t, b))
                {
                    chosen = c;
                    break;
                }
                c = cn.next;
            }
            if chosen == NIL {
                // The new leaf goes after all of `node`'s children (walked above); each
                // of its nodes is the only child of the one before.
                let (mut at, mut after) = (node, last);
                let mut added = 0;
                for (x, &(t, a)) in v.evs.iter().enumerate() {
                    if !consumed[x] {
                        at = self.add_after(at, after, t, a);
                        after = NIL;
                        added += 1;
                    }
                }
                return added;
            }
            node = chosen;
        }
    }
}

/// One node of the exploration stack: the state after `k` steps.
#[derive(Debug)]
pub(crate) struct Node {
    /// The branch explored from this state in the current execution.
    pub cur: (ThreadId, Action),
    /// Enabled threads with the action each would perform (empty for optimal-DPOR,
    /// which never reads it).
    pub enabled: Vec<(ThreadId, Action)>,
    /// `sleep(E)`: the inherited sleep set plus the branches explored from here.
    pub sleep: Vec<(ThreadId, Action)>,
    /// Branches explored from here (dfs has no sleep sets, so it needs this).
    pub done: Vec<ThreadId>,
    /// `backtrack(E)` (classic, source, dfs): includes `cur` and `done`.
    pub backtrack: Vec<ThreadId>,
    /// `wut(E)` (optimal): the root of this node's wakeup tree in the forest, whose
    /// first child is `cur` (`NIL` for the other algorithms).
    pub wut: u32,
    /// Preemptions in the steps up to and including `cur`: switches away from a thread
    /// that was still enabled (dfs with a context-switch bound).
    pub preempts: u32,
}

impl Node {
    /// A node with empty vectors (filled by [`Driver::extend`]).
    fn empty() -> Self {
        Node {
            cur: (ThreadId::MAIN, Action::Exit),
            enabled: Vec::new(),
            sleep: Vec::new(),
            done: Vec::new(),
            backtrack: Vec::new(),
            wut: NIL,
            preempts: 0,
        }
    }
}

/// Sleep set after performing `(t, a)`: keep the entries independent of it (the rule
/// the runtime's [`crate::Scheduler`] also applies).
pub(crate) fn filter_sleep(
    mode: Independence,
    sleep: &[(ThreadId, Action)],
    t: ThreadId,
    a: Action,
    out: &mut Vec<(ThreadId, Action)>,
) {
    out.clear();
    out.extend(sleep.iter().copied().filter(|&(u, b)| !mode.dependent(t, a, u, b)));
}

/// The pending action of every thread at the end of `exec`, indexed by thread (`None`:
/// exited, stopped, or not created): what [`SchedState::pending`] answers after all the
/// steps, read off the steps without replaying the objects' states.
pub(crate) fn final_pending_of(exec: &Execution, out: &mut Vec<Option<Action>>) {
    out.clear();
    out.push(exec.first);
    let set = |out: &mut Vec<Option<Action>>, t: ThreadId, a: Option<Action>| {
        if out.len() <= t.index() {
            out.resize(t.index() + 1, None);
        }
        out[t.index()] = a;
    };
    for s in &exec.steps {
        if let Action::Create(c) = s.action {
            set(out, c, s.child_next);
        }
        set(out, s.thread, if s.action == Action::Exit { None } else { s.next });
    }
}

/// Walk the states `base..=n` of `exec`, calling `f` with each state's index and
/// synchronisation state.
pub(crate) fn walk_states(exec: &Execution, base: usize, mut f: impl FnMut(usize, &SchedState)) {
    let mut st = SchedState::new(exec.first);
    for (k, s) in exec.steps.iter().enumerate() {
        if k >= base {
            f(k, &st);
        }
        st.apply(k, s).expect("checker bug: the session accepted an execution SchedState rejects");
    }
    f(exec.steps.len(), &st);
}

/// The error of [`Driver::extend`]: the program's visible operations depend on the
/// schedule.
fn schedule_dependent(step: usize, what: String) -> ExploreError {
    ExploreError::Program(crate::program::ProgramError::Divergence {
        step,
        detail: format!(
            "{what}: a thread's visible operations depend on the schedule, not only on the values it read, so \
             the exploration cannot be complete"
        ),
    })
}

/// Which sequence-based explorer the driver runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Dfs,
    Classic,
    Source,
    Optimal,
}

/// The exploration state shared by the sequence-based explorers.
#[derive(Debug)]
pub(crate) struct Driver {
    pub kind: Kind,
    pub mode: Independence,
    /// dfs only: explore only schedules with at most this many preemptions.
    pub bound: Option<u32>,
    pub stack: Vec<Node>,
    pub an: Analysis,
    pub v: VSeq,
    /// Scratch of `build_v`: the events of `notdep`.
    notdep: Vec<u32>,
    /// Pending action of each thread at the end of the execution.
    pub final_pending: Vec<Option<Action>>,
    /// Scratch.
    pub initials: Vec<ThreadId>,
    pub clock: Vec<u32>,
    pub wakeup_added: u64,
    /// The wakeup trees of all stack nodes (optimal).
    pub forest: WakeupForest,
    /// Nodes popped off the stack, whose vectors the next new nodes reuse (a new node
    /// allocated two to four vectors before).
    spare: Vec<Node>,
}

impl Driver {
    pub(crate) fn new(kind: Kind, mode: Independence, bound: Option<usize>) -> Driver {
        Driver {
            kind,
            mode,
            bound: bound.map(|b| b as u32),
            stack: Vec::new(),
            an: Analysis::default(),
            v: VSeq::default(),
            notdep: Vec::new(),
            final_pending: Vec::new(),
            initials: Vec::new(),
            clock: Vec::new(),
            wakeup_added: 0,
            forest: WakeupForest::default(),
            spare: Vec::new(),
        }
    }

    /// Create the nodes `base..n` from the execution that came back (and refresh the
    /// branching node's `cur` with the action actually performed).
    ///
    /// Fails if the execution contradicts what the exploration derived from earlier
    /// ones: the new branch, or a step of optimal-DPOR's wakeup path, performed another
    /// action than the one it was chosen for, or a thread ran while the sleep set
    /// computed from the actual steps says it sleeps (the runtime woke it with the
    /// predicted actions, not those performed). Either means that a thread's visible
    /// operations depended on the schedule and not only on what it read, which every
    /// explorer of the family assumes; exploring on would miss traces silently.
    pub(crate) fn extend(
        &mut self,
        exec: &Execution,
        base: usize,
        stats: &mut crate::explore::Stats,
    ) -> Result<(), ExploreError> {
        let n = exec.steps.len();
        if base < self.stack.len() {
            self.spare.extend(self.stack.drain(base..));
        }
        if base > 0 {
            if let Some(s) = exec.steps.get(base - 1) {
                let (t, a) = self.stack[base - 1].cur;
                debug_assert_eq!(t, s.thread, "checker bug: replay not followed");
                if a.pending_form() != s.action.pending_form() {
                    return Err(schedule_dependent(
                        base - 1,
                        format!("{t} performed {:?} where an earlier execution performed {a:?}", s.action),
                    ));
                }
                self.stack[base - 1].cur = (s.thread, s.action);
            }
        }
        let (kind, mode, bound) = (self.kind, self.mode, self.bound);
        final_pending_of(exec, &mut self.final_pending);
        let stack = &mut self.stack;
        let final_pending = &self.final_pending;
        let forest = &mut self.forest;
        let spare = &mut self.spare;
        let mut diverged: Option<ExploreError> = None;
        // Each new node; `st` is the state before step k, which only the explorers that
        // read a node's enabled set need (optimal-DPOR does not: no replay of the states).
        let mut add_node = |k: usize, st: Option<&SchedState>| {
            if diverged.is_some() {
                return;
            }
            if k == n {
                debug_assert!(
                    st.is_none_or(|st| st
                        .threads()
                        .all(|t| final_pending.get(t.index()).copied().flatten() == st.pending(t))),
                    "checker bug: final_pending_of disagrees with the replayed state"
                );
                return;
            }
            let s = &exec.steps[k];
            let cur = (s.thread, s.action);
            let mut reused = spare.pop().unwrap_or_else(Node::empty);
            let mut enabled = std::mem::take(&mut reused.enabled);
            enabled.clear();
            // Optimal-DPOR never reads a node's enabled set (its branches come from the
            // wakeup trees, with their actions).
            if let Some(st) = st {
                enabled.extend(
                    st.threads()
                        .filter(|&t| st.enabled(t))
                        .map(|t| (t, st.resolve(t).expect("enabled thread has an action"))),
                );
            }
            let mut sleep = std::mem::take(&mut reused.sleep);
            sleep.clear();
            if kind != Kind::Dfs && k > 0 {
                let parent = &stack[k - 1];
                filter_sleep(mode, &parent.sleep, parent.cur.0, parent.cur.1, &mut sleep);
            }
            if let Some(&(_, b)) = sleep.iter().find(|&&(u, _)| u == s.thread) {
                diverged = Some(schedule_dependent(
                    k,
                    format!(
                        "{} ran although asleep since its pending {b:?}: no step since woke it, so the runtime \
                         was told other actions than those performed",
                        s.thread
                    ),
                ));
                return;
            }
            // Preemptions so far, and whether scheduling `t` here is one.
            let prev = (k > 0).then(|| exec.steps[k - 1].thread);
            let before = if k > 0 { stack[k - 1].preempts } else { 0 };
            let preempts_with =
                |t: ThreadId| before + u32::from(prev.is_some_and(|p| p != t && enabled.iter().any(|&(u, _)| u == p)));
            let preempts = preempts_with(s.thread);
            let mut backtrack = std::mem::take(&mut reused.backtrack);
            backtrack.clear();
            match kind {
                Kind::Dfs => backtrack.extend(
                    enabled
                        .iter()
                        .map(|&(t, _)| t)
                        .filter(|&t| t == s.thread || bound.is_none_or(|b| preempts_with(t) <= b)),
                ),
                Kind::Optimal => {}
                _ => backtrack.push(s.thread),
            }
            stats.backtrack_total += backtrack.len() as u64;
            stats.backtrack_max = stats.backtrack_max.max(backtrack.len() as u64);
            let wut = if kind == Kind::Optimal {
                // root(k) is the first child of root(k-1); its first child is cur.
                let root = if k == 0 {
                    forest.new_root()
                } else {
                    forest.first_child(stack[k - 1].wut).expect("checker bug: parent's branch missing")
                };
                match forest.first_child(root) {
                    Some(c) => {
                        let (t, a) = forest.step(c);
                        debug_assert_eq!(t, cur.0, "checker bug: wakeup path not followed");
                        if a != cur.1.pending_form() {
                            diverged = Some(schedule_dependent(
                                k,
                                format!("{t} performed {:?} where an earlier execution performed {a:?}", cur.1),
                            ));
                            return;
                        }
                    }
                    None => {
                        forest.add_child(root, cur.0, cur.1);
                    }
                }
                root
            } else {
                NIL
            };
            let mut done = std::mem::take(&mut reused.done);
            done.clear();
            stack.push(Node { cur, enabled, sleep, done, backtrack, wut, preempts });
        };
        if kind == Kind::Optimal {
            (base..=n).for_each(|k| add_node(k, None));
        } else {
            walk_states(exec, base, |k, st| add_node(k, Some(st)));
        }
        diverged.map_or(Ok(()), Err)
    }

    /// Pop the nodes after node `k` (their vectors are kept for reuse).
    pub fn pop_above(&mut self, k: usize) {
        if k + 1 < self.stack.len() {
            self.spare.extend(self.stack.drain(k + 1..));
        }
    }

    /// Add `q` to `backtrack(E_k)` unless present.
    pub fn add_backtrack(&mut self, k: usize, q: ThreadId, stats: &mut crate::explore::Stats) {
        let node = &mut self.stack[k];
        if !node.backtrack.contains(&q) {
            node.backtrack.push(q);
            stats.backtrack_total += 1;
            stats.backtrack_max = stats.backtrack_max.max(node.backtrack.len() as u64);
        }
    }

    /// Build `v = notdep(e, E[..end]).tail` into `self.v`: the events after `e` and
    /// before `end` that do not happen after `e`, in order, then the events of `tail`
    /// (execution indices).
    ///
    /// The events after `e` that do not happen after it are, in each other thread, a run
    /// of consecutive events: after `e`, up to the thread's first event that happens after
    /// `e` (happening after `e` is upward closed in program order), and none of `e`'s own
    /// thread. So they are found with two binary searches per thread and merged in
    /// execution order, instead of testing every event after `e`: the analysis of one
    /// execution asks for `v` at most once per event and request, which made it
    /// quadratic in the length of the execution.
    pub fn build_v(&mut self, e: usize, end: usize, tail: Option<usize>) {
        self.v.clear(self.an.nt);
        let mut picked = std::mem::take(&mut self.notdep);
        picked.clear();
        let me = self.an.evs[e].thread.index();
        for (t, evs) in self.an.by_thread.iter().enumerate() {
            if t == me {
                continue;
            }
            let from = evs.partition_point(|&x| (x as usize) <= e);
            let upto = evs.partition_point(|&x| (x as usize) < end);
            if from >= upto {
                continue;
            }
            let run = &evs[from..upto];
            let n = run.partition_point(|&x| !self.an.hb(e, x as usize));
            picked.extend_from_slice(&run[..n]);
        }
        picked.sort_unstable();
        for &x in &picked {
            let x = x as usize;
            let ev = self.an.evs[x];
            self.v.push(ev.thread, ev.action, self.an.clock(x), ev.local);
        }
        self.notdep = picked;
        if let Some(j) = tail {
            let ev = self.an.evs[j];
            self.v.push(ev.thread, ev.action, self.an.clock(j), ev.local);
        }
    }
}

/// Run a sequence-based exploration with backtrack sets (dfs, classic- and
/// source-DPOR; optimal-DPOR has its own loop, `optimal::explore`).
pub(crate) fn explore(kind: Kind, session: &mut Session<'_>) -> Result<(), ExploreError> {
    debug_assert!(kind != Kind::Optimal, "optimal-DPOR runs its own loop");
    let mode = session.config.independence;
    let mut d = Driver::new(kind, mode, session.config.max_preemptions);
    let mut replay: Vec<ThreadId> = Vec::new();
    let mut sleep_end: Vec<(ThreadId, Action)> = Vec::new();
    let mut exec = Execution::default();
    let mut base = 0usize;
    loop {
        session.run(&replay, &sleep_end, &mut exec)?;
        let t0 = Instant::now();
        d.extend(&exec, base, &mut session.stats)?;
        let fresh = base.saturating_sub(1);
        // A run after which the exploration stops (a defect without --keep-going, a
        // limit) leaves nothing to backtrack to: its analysis would be thrown away, and
        // on a long run (a livelock up to the step bound) it is most of the time spent.
        if session.should_stop() {
            session.stats.time.comb_build += t0.elapsed();
            return Ok(());
        }
        // Every run is analysed, also one cut short by a crash or a time limit: its steps
        // are a prefix of the executions that extend it, and their races are those
        // executions' races. (Skipping them lost, under --keep-going, every other
        // schedule of a run that crashed.)
        if kind != Kind::Dfs {
            // Classic-DPOR computes its backtracking points with every access dependent.
            d.an.build(&exec, if kind == Kind::Classic { Independence::AllDependent } else { mode });
            match kind {
                Kind::Classic => super::classic::analyse(&mut d, &exec, fresh, &mut session.stats),
                Kind::Source => {
                    let cancel = session.canceller();
                    if !super::source::analyse(&mut d, &exec, fresh, &mut session.stats, cancel.as_ref()) {
                        session.cancel();
                    }
                }
                Kind::Optimal | Kind::Dfs => {}
            }
        }
        session.stats.time.comb_build += t0.elapsed();
        if session.should_stop() {
            return Ok(());
        }
        // Backtrack to the deepest node with an unexplored branch.
        loop {
            let Some(k) = d.stack.len().checked_sub(1) else {
                return Ok(());
            };
            let node = &mut d.stack[k];
            let cur = node.cur;
            node.done.push(cur.0);
            if kind != Kind::Dfs {
                node.sleep.push(cur);
            }
            let mut next = None;
            for &p in &node.backtrack {
                if node.done.contains(&p) || node.sleep.iter().any(|&(u, _)| u == p) {
                    continue;
                }
                if let Some(&(_, a)) = node.enabled.iter().find(|&&(u, _)| u == p) {
                    next = Some((p, a));
                    break;
                }
            }
            if let Some((p, a)) = next {
                node.cur = (p, a);
                if k > 0 {
                    let (before, prev) = (d.stack[k - 1].preempts, d.stack[k - 1].cur.0);
                    let node = &mut d.stack[k];
                    node.preempts = before + u32::from(prev != p && node.enabled.iter().any(|&(u, _)| u == prev));
                }
                replay.clear();
                replay.extend(d.stack.iter().map(|n| n.cur.0));
                filter_sleep(mode, &d.stack[k].sleep, p, a, &mut sleep_end);
                base = k + 1;
                break;
            }
            d.spare.extend(d.stack.pop());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Awaited;
    use crate::program::Step;

    const P: ThreadId = ThreadId(1);
    const Q: ThreadId = ThreadId(2);
    const R: ThreadId = ThreadId(3);
    const X: ObjId = ObjId(10);
    const Y: ObjId = ObjId(11);
    const Z: ObjId = ObjId(12);

    fn exec(steps: &[(ThreadId, Action)]) -> Execution {
        Execution {
            steps: steps
                .iter()
                .map(|&(thread, action)| Step { thread, action, site: 0, next: None, child_next: None })
                .collect(),
            ..Execution::default()
        }
    }

    /// JACM'17 Figure 1 (p: x := 1; q: read y, read x; r: read z, read x), read-read
    /// independent, executed as q.q.r.r.p.
    fn figure1() -> Analysis {
        let e = exec(&[
            (Q, Action::Read(Y, Bytes::ALL)),
            (Q, Action::Read(X, Bytes::ALL)),
            (R, Action::Read(Z, Bytes::ALL)),
            (R, Action::Read(X, Bytes::ALL)),
            (P, Action::Write(X, Bytes::ALL)),
        ]);
        let mut a = Analysis::default();
        a.build(&e, Independence::ReadReadIndependent);
        a
    }

    fn v_of(a: &Analysis, idx: &[usize]) -> VSeq {
        let mut v = VSeq::default();
        v.clear(a.nt);
        for &i in idx {
            let ev = a.evs[i];
            v.push(ev.thread, ev.action, a.clock(i), ev.local);
        }
        v
    }

    /// Everything the explorers read of an analysis: thread slots, clocks,
    /// happens-before, races.
    type Summary = (usize, Vec<Vec<u32>>, Vec<Vec<bool>>, Vec<(u32, u32)>);

    fn summary(a: &Analysis) -> Summary {
        let n = a.evs.len();
        let hb = (0..n).map(|i| (0..n).map(|j| a.hb(i, j)).collect()).collect();
        (a.nt, (0..n).map(|i| a.clock(i).to_vec()).collect(), hb, a.races.clone())
    }

    #[test]
    fn an_analysis_reused_after_more_threads_gives_the_same_clocks_and_races() {
        // Rows keep the widest stride seen: an execution of 7 threads first leaves rows
        // wider than the next execution's 4 threads, whose clocks must not see it; a
        // stream that grows the threads one at a time lays the rows out again.
        let mut wide = vec![];
        for c in 1..=6u16 {
            wide.push((ThreadId::MAIN, Action::Create(ThreadId(c))));
        }
        for c in 1..=6u16 {
            wide.push((ThreadId(c), Action::Write(X, Bytes::ALL)));
        }
        let fig = exec(&[
            (Q, Action::Read(Y, Bytes::ALL)),
            (Q, Action::Read(X, Bytes::ALL)),
            (R, Action::Read(Z, Bytes::ALL)),
            (R, Action::Read(X, Bytes::ALL)),
            (P, Action::Write(X, Bytes::ALL)),
            (Q, Action::Write(Z, Bytes::ALL)),
        ]);
        for mode in [Independence::ReadReadIndependent, Independence::AllDependent] {
            let mut fresh = Analysis::default();
            fresh.build(&fig, mode);
            let expected = summary(&fresh);
            assert_eq!(expected.0, 4);
            assert!(!expected.3.is_empty());
            let mut reused = Analysis::default();
            reused.build(&exec(&wide), mode);
            assert_eq!(reused.races.len(), 5, "the six writes of x race in a chain");
            reused.build(&fig, mode);
            assert_eq!(summary(&reused), expected, "{mode:?}");
        }
    }

    /// The write-lock test by running sums (`write_lock_before`) gives the walk's answer
    /// (`scan_enabled`), and calls final only what is, on random runs of a read-write lock
    /// and a memory word shared by four threads, at every read-side event and limit.
    #[test]
    fn a_write_lock_by_running_sums_agrees_with_the_walk() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let threads = [ThreadId(0), P, Q, R];
        let mut checked = 0;
        // Short runs, and long ones whose scans pass `LONG_SCAN` (the sums' turn in
        // `reversal_enabled`).
        for len in [60; 200].into_iter().chain([240; 20]) {
            // A valid run: each thread holds at most two read locks or the write lock.
            let mut held = [0u32; 4];
            let mut writer = None;
            let mut steps = Vec::new();
            while steps.len() < len {
                let i = rand(4) as usize;
                let t = threads[i];
                let a = match (writer, rand(6)) {
                    (Some(w), _) if w == i => Action::RwUnlock(X, true),
                    (Some(_), 0) => Action::TryRdLock(X, false),
                    (Some(_), _) => Action::Read(Y, Bytes::ALL),
                    (None, 0 | 1) if held[i] < 2 => Action::RdLock(X),
                    (None, 2 | 3) if held[i] > 0 => Action::RwUnlock(X, false),
                    // Long runs have long stretches of concurrent read-side events.
                    (None, 4) if held.iter().all(|&h| h == 0) && (len < 100 || rand(8) == 0) => Action::WrLock(X),
                    (None, 5) if len < 100 => Action::Write(Y, Bytes::ALL),
                    _ => Action::Read(Y, Bytes::ALL),
                };
                match a {
                    Action::RdLock(_) => held[i] += 1,
                    Action::RwUnlock(_, false) => held[i] -= 1,
                    Action::WrLock(_) => writer = Some(i),
                    Action::RwUnlock(_, true) => writer = None,
                    _ => {}
                }
                steps.push((t, a));
            }
            let mut an = Analysis::default();
            an.build(&exec(&steps), Independence::ReadReadIndependent);
            let n = steps.len();
            for e in 0..n {
                let ev = an.evs[e];
                if ev.action.object() != Some(X) || ev.action.access() == Access::Write {
                    continue;
                }
                let rw = match an.state_before(e, X) {
                    ObjState::RwLock(rw) => rw,
                    ObjState::Fresh => RwState::default(),
                    other => panic!("{other:?}: a read-write lock's state"),
                };
                let index = &an.objs[&X].rw;
                let mut answers = Vec::new();
                for limit in e + 1..=n {
                    let walk = an.scan_enabled(e, limit, X, an.state_before(e, X), P, Action::WrLock(X));
                    let sums = an.write_lock_before(e, limit, &rw, index);
                    assert_eq!(sums.0, walk.0, "run {steps:?}: e {e}, limit {limit}");
                    answers.push(sums);
                    checked += 1;
                    // A wait for the lock's unlocks counts them as the walk does: those
                    // before e and those after it that do not happen after e.
                    let count = rw.releases
                        + (e + 1..limit)
                            .filter(|&x| matches!(an.evs[x].action, Action::RwUnlock(..)) && !an.hb(e, x))
                            .count() as u32;
                    let wait = |seen| an.reversal_enabled(e, limit, P, Action::Await(Awaited::one(X, seen))).0;
                    assert!(!wait(count) && wait(count + 1), "run {steps:?}: e {e}, limit {limit}, count {count}");
                }
                // Final: the same answer at every larger limit.
                for (k, &(ans, last)) in answers.iter().enumerate() {
                    if last {
                        assert!(answers[k..].iter().all(|&(b, _)| b == ans), "run {steps:?}: e {e}");
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked} comparisons");
    }

    #[test]
    fn races_are_direct_and_reads_commute() {
        let a = figure1();
        // p's write races with both reads of x (they are unordered), not with each other.
        assert_eq!(a.races, vec![(1, 4), (3, 4)]);
        assert!(a.hb(0, 1) && !a.hb(1, 3) && a.hb(3, 4) && a.hb(1, 4));
        let mut b = Analysis::default();
        b.build(&figure1_exec_all(), Independence::AllDependent);
        // All-dependent: q's read of x happens before r's, so only r's races with p.
        assert_eq!(b.races, vec![(1, 3), (3, 4)]);
    }

    fn figure1_exec_all() -> Execution {
        exec(&[
            (Q, Action::Read(Y, Bytes::ALL)),
            (Q, Action::Read(X, Bytes::ALL)),
            (R, Action::Read(Z, Bytes::ALL)),
            (R, Action::Read(X, Bytes::ALL)),
            (P, Action::Write(X, Bytes::ALL)),
        ])
    }

    #[test]
    fn initials_and_weak_initials() {
        let a = figure1();
        let mode = Independence::ReadReadIndependent;
        let v = v_of(&a, &[2, 3, 4]); // r.r.p
        let mut init = Vec::new();
        v.initials(&mut init);
        assert_eq!(init, vec![R]); // p's write follows r's read of x
        assert!(v.is_initial(R) && !v.is_initial(P));
        // q (next: read y) is independent of all of v: a weak initial, not an initial.
        assert!(v.is_weak_initial(mode, Q, Action::Read(Y, Bytes::ALL)) && !v.is_initial(Q));
        // a thread about to write x is not.
        assert!(!v.is_weak_initial(mode, ThreadId(4), Action::Write(X, Bytes::ALL)));
    }

    #[test]
    fn the_step_table_keeps_only_the_steps_of_live_nodes() {
        // A long run adds and removes many distinct steps (here: writes of ever new
        // objects); the table must stay proportional to the live nodes, and the live
        // nodes must keep their steps through the renumbering.
        let mut f = WakeupForest::default();
        let root = f.new_root();
        let keep = f.add_child(root, P, Action::Lock(ObjId(7)));
        for i in 0..50_000u64 {
            let c = f.add_child(keep, Q, Action::Write(ObjId(1000 + i), Bytes::ALL));
            f.add_child(c, P, Action::Read(ObjId(1000 + i), Bytes::ALL));
            assert_eq!(f.step(c), (Q, Action::Write(ObjId(1000 + i), Bytes::ALL)));
            f.remove_first_child(keep);
        }
        assert_eq!(f.live(), 2);
        assert!(f.steps.steps.len() <= 2 * StepTable::MIN_COLLECT, "{} steps kept", f.steps.steps.len());
        assert_eq!(f.step(keep), (P, Action::Lock(ObjId(7))));
        assert_eq!(f.step(root), (ThreadId::MAIN, Action::ExitProcess));
    }

    #[test]
    fn wakeup_insert_follows_the_paper_example() {
        // JACM'17 §6.2: a tree with the single leaf p; insert q.q adds a leaf after p;
        // inserting r.r then changes nothing, since q.q ~ r.r.
        let a = figure1();
        let mode = Independence::ReadReadIndependent;
        let mut f = WakeupForest::default();
        let root = f.new_root();
        f.add_child(root, P, Action::Write(X, Bytes::ALL));
        assert_eq!(f.insert(root, mode, &v_of(&a, &[0, 1])), 2);
        assert_eq!(f.live(), 4);
        assert_eq!(f.insert(root, mode, &v_of(&a, &[2, 3])), 0);
        assert_eq!(f.live(), 4);
        // Inserting p.q... with p first: p is an initial, consumed; p is a leaf: no-op.
        assert_eq!(f.insert(root, mode, &v_of(&a, &[4])), 0);
        // Removing the first branch frees it; the q.q branch becomes first.
        f.remove_first_child(root);
        assert_eq!(f.live(), 3);
        let c = f.first_child(root).unwrap();
        assert_eq!(f.step(c).0, Q);
    }
}
