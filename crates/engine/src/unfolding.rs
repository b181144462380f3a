//! The unfolding `U`: an arena of events with thread trees and object (lock) trees.
//!
//! # What it stores (QPOR §2 Def. 1, §5.1, §5.2)
//!
//! An [`Event`] is its action plus its immediate causal predecessors — its canonical
//! name `⟨a, H⟩` with `H` given by its maximal elements:
//! - `tpred`: the previous event of the same thread (`pt(e)`), or, for a thread's first
//!   event, the `create` event that started the thread;
//! - `opred`: for an operation on a mutex or memory object, the previous operation on
//!   that object (`pm(e)`, its parent in the object's tree); for a join, the joined
//!   thread's exit;
//! - `extra`: for a process exit, the last events of the other threads.
//!
//! Events are deduplicated by (thread, action, predecessors), so re-running a known
//! history finds the existing events ([`Unfolding::find_or_add`]).
//!
//! Every event is a node of its thread's tree (parent: the previous event of the thread;
//! a thread's first events hang off a virtual root) and, for object operations, of the
//! object's tree (parent: `pm(e)`; first operations hang off the object's virtual root).
//! A mutex's tree is the paper's *lock tree*; a memory object's tree is the same
//! structure for accesses, which are all mutually dependent in
//! [`Independence::AllDependent`](crate::Independence) mode.
//!
//! # Causality and conflict (Theorem 5.1)
//!
//! Each event keeps `tmax(e, i)` for every thread `i` in its history and `lmax(e, o)`
//! for every object `o` (Def. 7). Then
//! - same thread: `e ≤ e'` iff `e` is an ancestor of `e'` in the thread tree;
//! - different threads: `e < e'` iff `e ≤ tmax(e', thread(e))`;
//! - `e # e'` iff for some object `o`, `lmax(e, o)` and `lmax(e', o)` are incomparable
//!   in `o`'s tree. (Every immediate conflict is between two operations on one object:
//!   creates, joins and exits are never in immediate conflict. The paper's Theorem 5.1
//!   uses lock trees the same way.)
//!
//! Ancestor queries use the skip-list search of §5.2: a node at depth `d` stores
//! pointers to its ancestors at depths `d - s^j` for `j = 1..=tz_s(d)` (the number of
//! trailing zeros of `d` in base `s`), so `q(n, g)` takes `O(s · log_s(d(n) - g))` steps,
//! independent of the size of the history.
//!
//! # Memory
//!
//! Slots are recycled: [`Unfolding::retain`] frees every event outside a kept set (the
//! explorer decides what to keep, see `Qpor::prune`, and its causal closure is kept), and
//! freed slots are reused. A freed event's id must not be used again by the caller.
//!
//! An event is 52 bytes plus what it does not share (see [`Unfolding`], "Memory"):
//! actions and object states are interned; `tmax(e)` and `lmax(e)` are answered for
//! `e`'s own thread and object without a vector (`tmax(e, thread(e)) = e`,
//! `lmax(e, obj(e)) = e`), so an event whose other entries are those of an immediate
//! predecessor uses that predecessor's vector. An operation on an object is
//! deduplicated among its object-tree parent's children (its thread's run, at its
//! thread-tree depth and predecessor): one lookup of the children finds it or places it.
//! The few other events (creations, joins, exits) are in a dedup index of event ids that
//! compares keys against the events themselves.

use crate::action::Action;
use crate::ids::{EventId, ObjId, ThreadId};
use crate::objects::ObjState;
use rustc_hash::{FxHashMap as HashMap, FxHasher};
use std::fmt;
use std::hash::{Hash, Hasher};
use thin_vec::ThinVec;

/// The virtual root `⊥` of every thread and object tree: the event the paper adds to
/// the unfolding to precede every event (QPOR §5.1). `tmax`/`lmax` map to it when the
/// history has no event of the thread or object (Def. 7), as in the paper. Where the
/// API means "no event" rather than the root (the frontier of a
/// [`Configuration`](crate::configuration::Configuration), [`Preds`], an event's
/// object) it uses `Option`.
pub const BOTTOM: EventId = EventId(u32::MAX);

/// Dense index of an object within one unfolding.
pub type ObjIdx = u32;

// Flags of an [`Event`].
/// The slot holds a live event.
const LIVE: u8 = 1;
/// `tpred` is the previous event of the same thread: the event's thread-tree parent
/// (otherwise the parent is the virtual root and `tpred` the creating event or ⊥).
const TPARENT: u8 = 2;
/// The event owns its `tmax` vector (the vector is freed with the event).
const OWN_TMAX: u8 = 4;
/// The event owns its `lmax` vector.
const OWN_LMAX: u8 = 8;
/// The event has further immediate predecessors (`Unfolding::extra`).
const HAS_EXTRA: u8 = 16;

/// No offset in the skip pool (a node without skip pointers).
const NO_SKIPS: u32 = u32::MAX;

/// An event of the unfolding (QPOR §2, Def. 1): an action after a history.
///
/// 52 bytes: the action and the object's state after the event are interned (indices
/// into tables of distinct values), the skip pointers of §5.2 live in a shared pool,
/// and `tmax`/`lmax` (Def. 7) are vectors shared along chains of events (see
/// [`Unfolding`], "Memory").
#[derive(Clone)]
pub struct Event {
    /// The thread performing it.
    pub thread: ThreadId,
    // LIVE | TPARENT | OWN_TMAX | OWN_LMAX | HAS_EXTRA.
    flags: u8,
    /// The object of the action, as a dense index (`None` for creates, joins, exits).
    pub obj: Option<ObjIdx>,
    /// `pt(e)`, or the creating event for a thread's first event, or [`BOTTOM`].
    pub tpred: EventId,
    /// `pm(e)` for object operations, the joined thread's exit for joins, else [`BOTTOM`].
    pub opred: EventId,
    // The action `h(e)`: an index into `Unfolding::actions`.
    action: u32,
    // invariant: for an object operation, the state of its object after `pm(e)` (or the
    // fresh state) with the action applied; `Fresh` otherwise. An index into
    // `Unfolding::states`.
    state: u32,
    // Depths in the thread tree and the object tree (children of a virtual root have
    // depth 1; 0 in the object tree for an event on no object).
    tdepth: u32,
    odepth: u32,
    // Offsets in the skip pool of the node's skip pointers (their number is a function
    // of the depth: `Unfolding::skip_count`), or NO_SKIPS.
    tskips: u32,
    oskips: u32,
    // invariant: tmax(e, i) = e for i = thread, else tvecs[tmax][i] (BOTTOM past its
    // end); lmax(e, o) = e for o = obj, else the entry of o in lvecs[lmax] (BOTTOM if
    // none). The vector is owned by this event (OWN_TMAX / OWN_LMAX) or shared with an
    // immediate predecessor whose vector gives the same values, so its owner is a cause
    // of this event and lives at least as long.
    tmax: u32,
    lmax: u32,
}

impl Event {
    /// Whether the event has further immediate predecessors (a process exit), read
    /// with [`Unfolding::extra`].
    #[inline]
    pub fn has_extra(&self) -> bool {
        self.flags & HAS_EXTRA != 0
    }

    #[inline]
    fn live(&self) -> bool {
        self.flags & LIVE != 0
    }

    /// The thread-tree parent: `tpred` when it is of the same thread, else the root.
    #[inline]
    fn tparent(&self) -> EventId {
        if self.flags & TPARENT != 0 {
            self.tpred
        } else {
            BOTTOM
        }
    }
}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The action is interned: `Unfolding::show` prints it.
        write!(f, "{} a{}", self.thread, self.action)?;
        let pre: Vec<String> =
            [self.tpred, self.opred].iter().filter(|&&p| p != BOTTOM).map(|p| format!("{p:?}")).collect();
        write!(f, " pre=[{}{}]", pre.join(","), if self.has_extra() { ",…" } else { "" })
    }
}

/// An event as the paper writes it, `t1 Lock(o5) pre=[e7,e9]` ([`Unfolding::show`]).
#[derive(Clone, Copy)]
pub struct Show<'a> {
    u: &'a Unfolding,
    e: EventId,
}

impl fmt::Debug for Show<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ev = self.u.event(self.e);
        write!(f, "{} {:?}", ev.thread, self.u.action(self.e))?;
        let pre: Vec<String> = [ev.tpred, ev.opred]
            .iter()
            .chain(self.u.extra(self.e))
            .filter(|&&p| p != BOTTOM)
            .map(|p| format!("{p:?}"))
            .collect();
        write!(f, " pre=[{}]", pre.join(","))
    }
}

/// The action an event is identified by: a read-modify-write without its outcome
/// (whether it changed the value is a function of the event's history, but only the
/// program knows it: an event added as a conflicting extension carries the pending
/// `Rmw(o, true)` until a run performs it, [`Unfolding::settle`]).
fn key_action(a: Action) -> Action {
    match a {
        Action::Rmw(o, b, _) => Action::Rmw(o, b, true),
        a => a,
    }
}

/// The hash under which an event is deduplicated: of (thread, action without its
/// outcome, immediate predecessors), mixed so that its top bits are well spread (the
/// index takes its position from them).
fn key_hash(thread: ThreadId, action: Action, tpred: EventId, opred: EventId, extra: &[EventId]) -> u64 {
    let mut h = FxHasher::default();
    (thread, key_action(action), tpred, opred).hash(&mut h);
    extra.hash(&mut h);
    let mut x = h.finish();
    x ^= x >> 29;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 32)
}

/// The dedup index of the events on no object (creations, joins, exits) and of those
/// with further predecessors (`find_or_add` finds an operation on an object among its
/// object-tree parent's children): an open-addressing table (linear probing) of event ids, each slot
/// with the top 32 bits of its event's [`key_hash`] so that a probe touches an event
/// only when those match; the event itself is the key (8 bytes a slot instead of a
/// copy of the key). [`Unfolding::retain`] rebuilds it, [`Unfolding::retain_young`] deletes
/// the entries of the events it frees.
#[derive(Clone, Default)]
struct EventIndex {
    // (hash >> 32, event); event BOTTOM: empty. Length 0 or a power of two.
    slots: Vec<(u32, EventId)>,
    len: usize,
}

impl EventIndex {
    /// An empty index sized for `n` events.
    fn with_room(n: usize) -> Self {
        let cap = (n * 4 / 3 + 1).next_power_of_two().max(16);
        EventIndex { slots: vec![(0, BOTTOM); cap], len: 0 }
    }

    #[inline]
    fn start(&self, tag: u32) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (tag >> (32 - bits)) as usize
    }

    /// The event with hash `hash` for which `eq` holds.
    fn find(&self, hash: u64, mut eq: impl FnMut(EventId) -> bool) -> Option<EventId> {
        if self.slots.is_empty() {
            return None;
        }
        let tag = (hash >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut i = self.start(tag);
        loop {
            let (t, e) = self.slots[i];
            if e == BOTTOM {
                return None;
            }
            if t == tag && eq(e) {
                return Some(e);
            }
            i = (i + 1) & mask;
        }
    }

    /// Add `e` (not present) with hash `hash`; at most 3/4 full.
    fn insert(&mut self, hash: u64, e: EventId) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            let cap = (2 * self.slots.len()).max(16);
            let old = std::mem::replace(self, EventIndex { slots: vec![(0, BOTTOM); cap], len: 0 });
            for (t, x) in old.slots {
                if x != BOTTOM {
                    self.put(t, x);
                }
            }
        }
        self.put((hash >> 32) as u32, e);
    }

    /// Remove `e` (with hash `hash`) if present, shifting back the entries after it
    /// that its slot kept from their start (linear probing's deletion).
    fn remove(&mut self, hash: u64, e: EventId) {
        if self.slots.is_empty() {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.start((hash >> 32) as u32);
        while self.slots[i].1 != e {
            if self.slots[i].1 == BOTTOM {
                return;
            }
            i = (i + 1) & mask;
        }
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let (tag, x) = self.slots[j];
            if x == BOTTOM {
                break;
            }
            // The entry at j stays when its start is cyclically in (i, j].
            let h = self.start(tag);
            let stays = if i <= j { i < h && h <= j } else { i < h || h <= j };
            if !stays {
                self.slots[i] = self.slots[j];
                i = j;
            }
        }
        self.slots[i] = (0, BOTTOM);
        self.len -= 1;
    }

    /// A copy with the entries for which `keep` holds, sized for them.
    fn rebuilt(&self, keep: impl Fn(EventId) -> bool) -> Self {
        let n = self.slots.iter().filter(|&&(_, e)| e != BOTTOM && keep(e)).count();
        let mut index = EventIndex::with_room(n);
        for &(tag, e) in &self.slots {
            if e != BOTTOM && keep(e) {
                index.put(tag, e);
            }
        }
        index
    }

    fn put(&mut self, tag: u32, e: EventId) {
        let mask = self.slots.len() - 1;
        let mut i = self.start(tag);
        while self.slots[i].1 != BOTTOM {
            i = (i + 1) & mask;
        }
        self.slots[i] = (tag, e);
        self.len += 1;
    }
}

/// A table of distinct values, each named by its index (actions and object states:
/// few distinct values, stored once instead of once per event). Never shrinks: the
/// number of distinct values is bounded by the program, not by the exploration.
#[derive(Clone)]
struct Interner<T> {
    values: Vec<T>,
    ids: HashMap<T, u32>,
}

impl<T: Clone + Eq + Hash> Interner<T> {
    fn new() -> Self {
        Interner { values: Vec::new(), ids: HashMap::default() }
    }

    fn intern(&mut self, v: &T) -> u32 {
        if let Some(&i) = self.ids.get(v) {
            return i;
        }
        let i = u32::try_from(self.values.len()).expect("more than 2^32 distinct values");
        self.values.push(v.clone());
        self.ids.insert(v.clone(), i);
        i
    }

    /// The bytes of its values: once in the vector, once in the map with its index.
    fn bytes(&self) -> usize {
        self.values.len() * (2 * std::mem::size_of::<T>() + 4)
    }
}

/// Vectors of `Copy` values named by index, all in one pool: vector `i` is
/// `pool[spans[i].0..][..spans[i].1]`. A freed index is reused, and a freed run of the
/// pool is reused by a vector of the same length (like [`SkipPool`]). One allocation per
/// vector cost a malloc header and its rounding on top of a `tmax` vector's 4 bytes per
/// thread: on `qpor_growth nested_pairs 6` the boxes were 24.9 MB of the 48.9 MB peak
/// heap, from 2.2 million allocations (docs/qpor-performance.md, round 6).
#[derive(Clone)]
struct Slab<T> {
    pool: Vec<T>,
    // invariant: spans[i] is the (offset, length) of live vector i, (0, 0) if i is free;
    // no two live vectors' runs overlap, and no free run overlaps a live one.
    spans: Vec<(u32, u32)>,
    free_ids: Vec<u32>,
    /// Freed runs by length.
    free_runs: Vec<Vec<u32>>,
}

impl<T: Copy> Slab<T> {
    fn new() -> Self {
        Slab { pool: Vec::new(), spans: Vec::new(), free_ids: Vec::new(), free_runs: Vec::new() }
    }

    fn add(&mut self, v: &[T]) -> u32 {
        let n = u32::try_from(v.len()).expect("a vector of more than 2^32 entries");
        let off = match self.free_runs.get_mut(v.len()).and_then(|f| f.pop()) {
            Some(off) => {
                self.pool[off as usize..off as usize + v.len()].copy_from_slice(v);
                off
            }
            None => {
                let off = u32::try_from(self.pool.len()).expect("more than 2^32 pooled entries");
                self.pool.extend_from_slice(v);
                off
            }
        };
        match self.free_ids.pop() {
            Some(i) => {
                self.spans[i as usize] = (off, n);
                i
            }
            None => {
                self.spans.push((off, n));
                u32::try_from(self.spans.len() - 1).expect("more than 2^32 vectors")
            }
        }
    }

    fn remove(&mut self, i: u32) {
        let (off, n) = std::mem::take(&mut self.spans[i as usize]);
        if n > 0 {
            if self.free_runs.len() <= n as usize {
                self.free_runs.resize(n as usize + 1, Vec::new());
            }
            self.free_runs[n as usize].push(off);
        }
        self.free_ids.push(i);
    }

    /// The bytes in use: the pool and the spans up to their lengths, the free lists.
    fn bytes(&self) -> usize {
        self.pool.len() * std::mem::size_of::<T>()
            + self.spans.len() * 8
            + (self.free_ids.len() + self.free_runs.iter().map(Vec::len).sum::<usize>()) * 4
    }

    #[inline]
    fn get(&self, i: u32) -> &[T] {
        let (off, n) = self.spans[i as usize];
        &self.pool[off as usize..(off + n) as usize]
    }
}

/// The skip pointers of every tree node (§5.2) in one vector: a node with `n` of them
/// owns `pool[off..off + n]`; freed runs are reused by nodes with as many pointers.
#[derive(Clone, Default)]
struct SkipPool {
    pool: Vec<EventId>,
    // free[n]: offsets of freed runs of length n.
    free: Vec<Vec<u32>>,
}

impl SkipPool {
    fn add(&mut self, s: &[EventId]) -> u32 {
        if s.is_empty() {
            return NO_SKIPS;
        }
        if let Some(off) = self.free.get_mut(s.len()).and_then(|f| f.pop()) {
            self.pool[off as usize..off as usize + s.len()].copy_from_slice(s);
            return off;
        }
        let off = u32::try_from(self.pool.len()).expect("more than 2^32 skip pointers");
        self.pool.extend_from_slice(s);
        off
    }

    fn remove(&mut self, off: u32, n: usize) {
        if n == 0 {
            return;
        }
        if self.free.len() <= n {
            self.free.resize(n + 1, Vec::new());
        }
        self.free[n].push(off);
    }

    /// The bytes in use: the pool up to its length and the free lists.
    fn bytes(&self) -> usize {
        (self.pool.len() + self.free.iter().map(Vec::len).sum::<usize>()) * 4
    }
}

/// The `(object, lmax(e, object))` pairs of an event, by object ([`Unfolding::lmax_all`]):
/// its `lmax` vector with the event's own object mapped to the event itself.
#[derive(Clone, Debug)]
pub struct Lmax<'a> {
    v: &'a [(ObjIdx, EventId)],
    i: usize,
    // The event's own entry, until it has been yielded.
    own: Option<(ObjIdx, EventId)>,
}

impl Iterator for Lmax<'_> {
    type Item = (ObjIdx, EventId);

    #[inline]
    fn next(&mut self) -> Option<(ObjIdx, EventId)> {
        let next = self.v.get(self.i).copied();
        match (self.own, next) {
            (Some(own), Some(x)) => {
                if own.0 <= x.0 {
                    self.own = None;
                    if own.0 == x.0 {
                        self.i += 1;
                    }
                    Some(own)
                } else {
                    self.i += 1;
                    Some(x)
                }
            }
            (Some(own), None) => {
                self.own = None;
                Some(own)
            }
            (None, x) => {
                self.i += 1;
                x
            }
        }
    }
}

/// The immediate predecessors of an event about to be found or added.
#[derive(Clone, Debug, Default)]
pub struct Preds {
    /// `pt(e)` or the creating event.
    pub tpred: Option<EventId>,
    /// `pm(e)` or the joined thread's exit.
    pub opred: Option<EventId>,
    /// Further predecessors (process exit).
    pub extra: Vec<EventId>,
}

/// A child in an object tree, with what a scan for spike candidates needs first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    /// The child event.
    pub event: EventId,
    /// Its thread.
    pub thread: ThreadId,
    /// Its thread predecessor (`tpred`).
    pub tpred: EventId,
    /// Its depth in its thread's tree (1 for a thread's first event).
    pub depth: u32,
    /// When its thread predecessor is an operation of the same thread on an object:
    /// that object and the predecessor's depth in the object's tree (`None` otherwise).
    /// A scan rejects the child without touching its event when the predecessor is
    /// outside a configuration and not below the configuration's last operation on
    /// that object (see `Qpor::spike_member`).
    pub tpred_obj: Option<(ObjIdx, u32)>,
}

impl Child {
    /// The order of a [`ChildGroup`]: by depth in the thread tree, then by thread
    /// predecessor, so that the children after a given event of the thread are one
    /// binary search away (see [`ChildGroup::after`]).
    fn key(&self) -> (u32, EventId) {
        (self.depth, self.tpred)
    }
}

/// Where the children of `thread` with key `key` ([`Child::key`]) are in a node's
/// children (`Kids::children`, sorted by thread, then key): empty at the place such a
/// child goes, after its equals.
/// Where the children of `thread` are in a node's children (`Kids::children`, sorted by
/// thread; the same range in `Kids::by_pred`).
fn thread_run(c: &[Child], thread: ThreadId) -> std::ops::Range<usize> {
    c.partition_point(|x| x.thread < thread)..c.partition_point(|x| x.thread <= thread)
}

fn key_run(c: &[Child], thread: ThreadId, key: (u32, EventId)) -> std::ops::Range<usize> {
    let lo = c.partition_point(|x| (x.thread, x.key()) < (thread, key));
    lo..lo + c[lo..].partition_point(|x| (x.thread, x.key()) == (thread, key))
}

/// The children of one object-tree node: thread by thread (by increasing thread id, so
/// that a thread's run is a binary search away), each thread's run in two orders.
#[derive(Clone, Debug, Default)]
struct Kids {
    // Thin vectors (length and capacity in the allocation, 8 bytes here, nothing
    // allocated while empty): every slot has a `Kids`, and about half of the events
    // are leaves of their object's tree. Two `Vec`s were 48 bytes a slot: 12.6 MB of the
    // 63.6 MB peak heap of the default on mpat_nested K=8 (docs/execution-cost.md,
    // round 20).
    // invariant: sorted by thread, then by `Child::key` (depth, then thread
    // predecessor).
    children: ThinVec<Child>,
    // invariant: the same children, in the same runs of threads; within a thread,
    // sorted by `Unfolding::pred_order`: those whose thread predecessor is an operation
    // on an object first, by that object, then by the predecessor's position in the
    // object's tree in pre-order; the others last. The subtree of one node is then one
    // range (see [`Unfolding::preds_below`]).
    by_pred: ThinVec<EventId>,
}

/// Make room for one more element in `v`, growing it by half (most object-tree nodes
/// have one or two children: the default doubling from 4 would waste most of it).
fn grow<T>(v: &mut ThinVec<T>) {
    if v.len() == v.capacity() {
        v.reserve_exact(1 + v.len() / 2);
    }
}

/// The heap bytes of a list: its elements' room, its header (length and capacity) and
/// the allocator's 8-byte chunk header; nothing when empty.
fn list_bytes<T>(v: &ThinVec<T>) -> usize {
    match v.capacity() {
        0 => 0,
        c => 24 + c * std::mem::size_of::<T>(),
    }
}

impl Kids {
    /// The heap bytes of both lists ([`list_bytes`]).
    fn heap(&self) -> usize {
        list_bytes(&self.children) + list_bytes(&self.by_pred)
    }
}

/// Give back the room of `v` beyond half again its length (what [`grow`] would leave).
fn shrink<T: Copy>(v: &mut ThinVec<T>) {
    let n = v.len();
    if v.capacity() > n + n / 2 {
        let mut w = ThinVec::with_capacity(n + n / 2);
        w.extend_from_slice(v);
        *v = w;
    }
}

/// The children of one object-tree node performed by one thread: a run of the node's
/// children ([`Unfolding::obj_children_by_thread`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildGroup<'a> {
    /// The thread.
    pub thread: ThreadId,
    /// Where the run starts among the node's children ([`Unfolding::obj_kids`]), in both
    /// orders.
    pub start: usize,
    children: &'a [Child],
    by_pred: &'a [EventId],
}

impl ChildGroup<'_> {
    /// All the children, sorted by depth then thread predecessor.
    pub fn children(&self) -> &[Child] {
        self.children
    }

    /// All the children, in the order of [`Unfolding::preds_below`]'s ranges.
    pub fn by_pred(&self) -> &[EventId] {
        self.by_pred
    }

    /// The children that can follow `last`, an event of this thread, in a
    /// configuration (`last ≤ pt(x)`): as two index ranges of [`ChildGroup::children`],
    /// those whose thread predecessor is `last`, and those deeper in the thread tree
    /// (which the caller must still test). Children at `last`'s depth or above with
    /// another predecessor cannot follow it.
    pub fn after(&self, last_depth: u32, last: EventId) -> [std::ops::Range<usize>; 2] {
        let c = self.children;
        let lo = c.partition_point(|x| x.key() < (last_depth + 1, last));
        let hi = c.partition_point(|x| x.key() <= (last_depth + 1, last));
        let deeper = c.partition_point(|x| x.depth <= last_depth + 1);
        [lo..hi, deeper..c.len()]
    }
}

/// The runs of one thread each of a node's children ([`Unfolding::obj_children_by_thread`]).
#[derive(Clone, Debug)]
pub struct ChildGroups<'a> {
    kids: Option<&'a Kids>,
    at: usize,
}

impl<'a> Iterator for ChildGroups<'a> {
    type Item = ChildGroup<'a>;

    fn next(&mut self) -> Option<ChildGroup<'a>> {
        let k = self.kids?;
        let start = self.at;
        let thread = k.children.get(start)?.thread;
        let end = start + k.children[start..].partition_point(|c| c.thread == thread);
        self.at = end;
        Some(ChildGroup { thread, start, children: &k.children[start..end], by_pred: &k.by_pred[start..end] })
    }
}

/// The unfolding: the event arena, its trees and its dedup index.
///
/// # Memory
///
/// What one live event costs, besides its 52-byte [`Event`] and the 16-byte header of
/// its own children's lists at its slot: its [`Child`] record in its object-tree
/// parent's groups (or, for an event on no object, a slot of the dedup index: 8 bytes,
/// at most 3/4 full), its skip pointers when its depth is a multiple of the skip step (one in `s`
/// nodes has one or more), and its `tmax`/`lmax` vectors only when they differ from
/// those of an immediate predecessor apart from the event's own entry: along a chain of
/// events of one thread that learn nothing new from their object predecessor (a
/// thread's lock, its nested lock at the root of the inner mutex's tree, the unlocks)
/// the chain shares one vector. Actions and object states are interned. Freed slots
/// (and their vectors and skip runs) are reused. [`Unfolding::heap_bytes`] counts it
/// all: about 200 bytes a live event on mpat_nested K=8 (17 threads, 48 MiB at 253 510
/// events).
#[derive(Clone)]
pub struct Unfolding {
    events: Vec<Event>,
    free: Vec<EventId>,
    index: EventIndex,
    actions: Interner<Action>,
    states: Interner<ObjState>,
    tvecs: Slab<EventId>,
    lvecs: Slab<(ObjIdx, EventId)>,
    skip_pool: SkipPool,
    // The further predecessors of the events with HAS_EXTRA (process exits).
    extras: HashMap<EventId, Box<[EventId]>>,
    // invariant: the total length of `extras`' vectors.
    extra_len: usize,
    objects: HashMap<ObjId, ObjIdx>,
    obj_ids: Vec<ObjId>,
    // The children of each object-tree node, compact and grouped by thread: per
    // parent, per thread, each child with its thread predecessor, so that a scan for
    // spike candidates skips a whole thread at once and rejects most children without
    // touching their events. An event's children (all on its own object) are at its
    // slot (empty for a free slot), those of object o's virtual root at `root_kids[o]`:
    // found without hashing, at one load.
    kids: Vec<Kids>,
    root_kids: Vec<Kids>,
    skip: u32,
    // log2(skip) when the skip step is a power of two (the default, 4), else 0.
    skip_log2: u32,
    live: usize,
    peak: usize,
    // The generation of each slot's event: `retain` calls before it was added.
    born: Vec<u32>,
    // invariant: the sum of `Kids::heap` over `kids` and `root_kids` (see
    // `Unfolding::heap_bytes`).
    kid_bytes: usize,
    generation: u32,
    // The events added since the last retain (born in this generation).
    young: Vec<EventId>,
    // Buffers of `retain_among` kept between calls (a young pruning runs every few
    // executions: allocating them each time, and growing `young` again from nothing,
    // was most of its allocations): the closure's stack and the freed events.
    retain_scratch: (Vec<EventId>, Vec<EventId>),
    // Scratch buffers of `find_or_add` (tmax, lmax, a merge), kept between calls: a new
    // event's vectors are built here and copied once into exact-size boxes (growing
    // them in place cost several reallocations per event).
    scratch: Scratch,
}

/// See [`Unfolding`]'s `scratch`: tmax, lmax, and the buffer of an lmax merge.
type Scratch = (Vec<EventId>, Vec<(ObjIdx, EventId)>, Vec<(ObjIdx, EventId)>);

impl fmt::Debug for Unfolding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.events.iter().enumerate() {
            if e.live() {
                writeln!(f, "e{i} {:?}", self.show(EventId(i as u32)))?;
            }
        }
        Ok(())
    }
}

impl Unfolding {
    /// An empty unfolding whose trees use skip step `skip` (≥ 2; the paper uses 4).
    pub fn new(skip: usize) -> Self {
        let mut states = Interner::new();
        states.intern(&ObjState::Fresh);
        Unfolding {
            events: Vec::new(),
            free: Vec::new(),
            index: EventIndex::default(),
            actions: Interner::new(),
            states,
            tvecs: Slab::new(),
            lvecs: Slab::new(),
            skip_pool: SkipPool::default(),
            extras: HashMap::default(),
            extra_len: 0,
            objects: HashMap::default(),
            obj_ids: Vec::new(),
            kids: Vec::new(),
            root_kids: Vec::new(),
            skip: skip.max(2) as u32,
            skip_log2: if skip.max(2).is_power_of_two() { skip.max(2).trailing_zeros() } else { 0 },
            live: 0,
            peak: 0,
            born: Vec::new(),
            kid_bytes: 0,
            generation: 0,
            young: Vec::new(),
            scratch: Default::default(),
            retain_scratch: Default::default(),
        }
    }

    /// Number of live events.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True if no event is live.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Number of event slots (live or free): every event id is below it.
    pub fn slots(&self) -> usize {
        self.events.len()
    }

    /// Whether `e` was added after the last [`Unfolding::retain`].
    pub fn added_since_retain(&self, e: EventId) -> bool {
        self.born.get(e.index()) == Some(&self.generation)
    }

    /// Most events live at once.
    pub fn peak(&self) -> usize {
        self.peak
    }

    /// The bytes of memory the unfolding holds, as an estimate of what it adds to the
    /// resident set: each array counted up to its length (the pages past the length of
    /// an array that grew by doubling are not touched yet), the children's lists with
    /// their spare room and headers. A function of the events added and freed, so a
    /// decision taken on it (the CLI's hand-over to optimal-DPOR) does not depend on the
    /// machine. O(1) (the free lists' lengths by size aside): cheap after every execution.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.events.len() * (size_of::<Event>() + size_of::<Kids>() + size_of::<u32>())
            + self.kid_bytes
            + self.root_kids.len() * size_of::<Kids>()
            + self.index.slots.len() * size_of::<(u32, EventId)>()
            + (self.free.len() + self.young.len()) * size_of::<EventId>()
            + self.actions.bytes()
            + self.states.bytes()
            + self.tvecs.bytes()
            + self.lvecs.bytes()
            + self.skip_pool.bytes()
            + self.extras.len() * 40
            + self.extra_len * size_of::<EventId>()
    }

    /// The event `e`.
    #[inline]
    pub fn event(&self, e: EventId) -> &Event {
        &self.events[e.index()]
    }

    /// The action `h(e)` of event `e`.
    #[inline]
    pub fn action(&self, e: EventId) -> Action {
        self.actions.values[self.events[e.index()].action as usize]
    }

    /// The further immediate predecessors of `e` (a process exit's: the last events of
    /// the other threads); empty for every other event.
    #[inline]
    pub fn extra(&self, e: EventId) -> &[EventId] {
        if self.events[e.index()].has_extra() {
            &self.extras[&e]
        } else {
            &[]
        }
    }

    /// `e` for printing as the paper writes events: `t1 Lock(o5) pre=[e7,e9]`.
    pub fn show(&self, e: EventId) -> Show<'_> {
        Show { u: self, e }
    }

    /// Whether `e` is a live event.
    pub fn is_live(&self, e: EventId) -> bool {
        e != BOTTOM && self.events.get(e.index()).is_some_and(|ev| ev.live())
    }

    /// The dense index of object `o`, interning it.
    pub fn obj_index(&mut self, o: ObjId) -> ObjIdx {
        if let Some(&i) = self.objects.get(&o) {
            return i;
        }
        let i = self.obj_ids.len() as ObjIdx;
        self.objects.insert(o, i);
        self.obj_ids.push(o);
        i
    }

    /// The dense index of `o` if it was ever interned.
    pub fn obj_lookup(&self, o: ObjId) -> Option<ObjIdx> {
        self.objects.get(&o).copied()
    }

    /// Number of objects interned.
    pub fn objects(&self) -> usize {
        self.obj_ids.len()
    }

    // ----- trees ------------------------------------------------------------------

    /// The parent of `e` in its thread tree or its object tree ([`BOTTOM`]: the root).
    #[inline]
    fn parent(&self, e: EventId, object_tree: bool) -> EventId {
        let ev = &self.events[e.index()];
        if object_tree {
            ev.opred
        } else {
            ev.tparent()
        }
    }

    /// Depth of `e` in its thread tree (or object tree); 0 for [`BOTTOM`].
    #[inline]
    fn depth(&self, e: EventId, object_tree: bool) -> u32 {
        if e == BOTTOM {
            0
        } else if object_tree {
            self.events[e.index()].odepth
        } else {
            self.events[e.index()].tdepth
        }
    }

    /// The number of skip pointers of a node at depth `d` (§5.2): one per power `s^j`,
    /// `j ≥ 1`, dividing `d`.
    #[inline]
    fn skip_count(&self, mut d: u32) -> usize {
        if let Some(n) = d.trailing_zeros().checked_div(self.skip_log2) {
            return if d == 0 { 0 } else { n as usize };
        }
        let mut n = 0;
        while d != 0 && d.is_multiple_of(self.skip) {
            n += 1;
            d /= self.skip;
        }
        n
    }

    /// The skip pointers of `e` in one of its trees: its ancestors at depths
    /// `depth - s, depth - s^2, ...`.
    fn skips(&self, e: EventId, object_tree: bool) -> &[EventId] {
        let ev = &self.events[e.index()];
        let (d, off) = if object_tree { (ev.odepth, ev.oskips) } else { (ev.tdepth, ev.tskips) };
        let n = self.skip_count(d);
        if n == 0 {
            &[]
        } else {
            &self.skip_pool.pool[off as usize..off as usize + n]
        }
    }

    /// `q(n, g)` of QPOR §5.2: the ancestor of `n` at depth `g` (`g ≤ d(n)`).
    #[inline(always)]
    fn ancestor_at(&self, mut n: EventId, g: u32, object_tree: bool) -> EventId {
        if g == 0 {
            return BOTTOM;
        }
        let s = self.skip;
        loop {
            let ev = &self.events[n.index()];
            let (d, off, parent) =
                if object_tree { (ev.odepth, ev.oskips, ev.opred) } else { (ev.tdepth, ev.tskips, ev.tparent()) };
            debug_assert!(d >= g, "checker bug: ancestor_at above the node");
            if d == g {
                return n;
            }
            let dist = d - g;
            // Skips are at distances s, s^2, ... (the j-th one exists while s^j divides
            // d): take the longest that fits.
            n = if dist < s {
                parent
            } else if self.skip_log2 != 0 {
                // s = 2^k: the j-th skip exists iff d has at least j·k trailing zero
                // bits, and fits iff j·k ≤ log2(dist).
                let (k, t) = (self.skip_log2, d.trailing_zeros().min(31 - dist.leading_zeros()));
                let j = if k == 2 { t >> 1 } else { t / k };
                if j == 0 {
                    parent
                } else {
                    self.skip_pool.pool[off as usize + j as usize - 1]
                }
            } else {
                let mut next = parent;
                let (mut jump, mut rest, mut i) = (s, d, off as usize);
                while jump <= dist && rest.is_multiple_of(s) {
                    next = self.skip_pool.pool[i];
                    i += 1;
                    rest /= s;
                    jump = jump.saturating_mul(s);
                }
                next
            };
        }
    }

    /// Whether `a` is an ancestor of `b` or equal to it, in the thread tree
    /// (`object_tree == false`) or the object tree (both events must be in the tree).
    #[inline]
    fn tree_le(&self, a: EventId, b: EventId, object_tree: bool) -> bool {
        if a == BOTTOM {
            return true;
        }
        if b == BOTTOM {
            return false;
        }
        let da = self.depth(a, object_tree);
        let db = self.depth(b, object_tree);
        da <= db && self.ancestor_at(b, da, object_tree) == a
    }

    /// Whether two nodes of one object tree are comparable (one is an ancestor of the
    /// other). Incomparable nodes of an object tree are in conflict.
    #[inline]
    pub fn obj_comparable(&self, a: EventId, b: EventId) -> bool {
        let (lo, hi) = if self.depth(a, true) <= self.depth(b, true) { (a, b) } else { (b, a) };
        self.tree_le(lo, hi, true)
    }

    /// The order of two nodes of one object tree in a pre-order walk that visits the
    /// children of a node by increasing event id ([`BOTTOM`], the root, comes first).
    /// A node's subtree is then a contiguous range. The order of two live events never
    /// changes: it depends only on their ancestors, which are live and keep their ids.
    ///
    /// After bringing both to one depth, climbs both at once to the children of their
    /// deepest common ancestor with the skip pointers of §5.2: two nodes at one depth
    /// have skip pointers at the same depths, so the farthest pair that still differs
    /// is a safe jump (binary lifting). `O(s log_s d)` for depth `d`.
    pub fn obj_preorder_cmp(&self, a: EventId, b: EventId) -> std::cmp::Ordering {
        if a == b {
            return std::cmp::Ordering::Equal;
        }
        let (da, db) = (self.depth(a, true), self.depth(b, true));
        let m = da.min(db);
        let (mut x, mut y) = (self.ancestor_at(a, m, true), self.ancestor_at(b, m, true));
        if x == y {
            // One is an ancestor of the other: it comes first.
            return da.cmp(&db);
        }
        // invariant: x ≠ y, at one depth.
        loop {
            let (px, py) = (self.parent(x, true), self.parent(y, true));
            if px == py {
                return x.0.cmp(&y.0);
            }
            let (sx, sy) = (self.skips(x, true), self.skips(y, true));
            match (0..sx.len()).rev().find(|&j| sx[j] != sy[j]) {
                Some(j) => (x, y) = (sx[j], sy[j]),
                None => (x, y) = (px, py),
            }
        }
    }

    /// The key of a child of an object-tree node in [`ChildGroup::by_pred`]: the object
    /// of its thread predecessor when that is an operation on an object by the same
    /// thread (`None`, sorted last, otherwise).
    fn pred_obj(&self, x: EventId) -> Option<ObjIdx> {
        let p = self.events[x.index()].tparent();
        if p == BOTTOM {
            return None;
        }
        self.events[p.index()].obj
    }

    /// The order of [`ChildGroup::by_pred`]: by the object of the thread predecessor
    /// (`None` last), then by the predecessor's position in that object's tree.
    /// `oy` is `y`'s [`Unfolding::pred_obj`] (an insertion compares one event with many).
    fn pred_order(&self, x: EventId, y: EventId, oy: Option<ObjIdx>) -> std::cmp::Ordering {
        let ox = self.pred_obj(x);
        let key = |o: Option<ObjIdx>| o.unwrap_or(ObjIdx::MAX);
        key(ox).cmp(&key(oy)).then_with(|| match ox {
            Some(_) if ox == oy => self.obj_preorder_cmp(self.events[x.index()].tpred, self.events[y.index()].tpred),
            _ => x.0.cmp(&y.0),
        })
    }
    /// The children in `group` whose thread predecessor can lie outside a configuration
    /// `C` in which their thread has no event: as index ranges of
    /// [`ChildGroup::by_pred`]. `obj_last(o)` is `C`'s last operation on `o` ([`BOTTOM`]
    /// if none). A child `x` whose thread predecessor `p` is an operation on an object
    /// `o` is left out unless `p` is strictly below `obj_last(o)` in `o`'s tree: `p`
    /// is outside `C` (its thread has no event there), so `lmax(x, o) ≥ p` is outside
    /// `C` too and must follow `obj_last(o)` for `[x] ∪ C` to be a configuration; `p`
    /// and `obj_last(o)` are then both ancestors of `lmax(x, o)`, hence comparable, and
    /// `p` above would put `p` in `C`. The children whose predecessor is no object
    /// operation are all returned. One binary search per object.
    pub fn preds_below(
        &self,
        group: &ChildGroup,
        obj_last: impl Fn(ObjIdx) -> EventId,
        mut out: impl FnMut(std::ops::Range<usize>),
    ) {
        let v = &group.by_pred;
        let mut start = 0;
        while start < v.len() {
            let Some(o) = self.pred_obj(v[start]) else {
                out(start..v.len());
                return;
            };
            let end = start + v[start..].partition_point(|&x| self.pred_obj(x) == Some(o));
            let q = obj_last(o);
            if q == BOTTOM {
                out(start..end);
            } else {
                let run = &v[start..end];
                let pred = |x: EventId| self.events[x.index()].tpred;
                let lo = run.partition_point(|&x| self.obj_preorder_cmp(pred(x), q).is_le());
                let hi = run.partition_point(|&x| self.obj_preorder_cmp(pred(x), q).is_le() || self.obj_le(q, pred(x)));
                if lo < hi {
                    out(start + lo..start + hi);
                }
            }
            start = end;
        }
    }

    /// Whether `a` is `b` or an ancestor of `b` in their object's tree ([`BOTTOM`], the
    /// root, is an ancestor of every node). Both must be operations on one object.
    #[inline]
    pub fn obj_le(&self, a: EventId, b: EventId) -> bool {
        self.tree_le(a, b, true)
    }

    /// Depth of `e` in its object's tree (1 for a first operation); 0 for [`BOTTOM`].
    #[inline]
    pub fn obj_depth(&self, e: EventId) -> u32 {
        self.depth(e, true)
    }

    /// Depth of `e` in its thread's tree (1 for a thread's first event).
    #[inline]
    pub fn thread_depth(&self, e: EventId) -> u32 {
        self.depth(e, false)
    }

    /// `tmax(e, t)` (Def. 7): the last event of thread `t` in `[e]`, or [`BOTTOM`].
    #[inline]
    pub fn tmax(&self, e: EventId, t: ThreadId) -> EventId {
        if e == BOTTOM {
            return BOTTOM;
        }
        let ev = &self.events[e.index()];
        if ev.thread == t {
            return e;
        }
        self.tvecs.get(ev.tmax).get(t.index()).copied().unwrap_or(BOTTOM)
    }

    /// `lmax(e, o)` (Def. 7): the last operation on object `o` in `[e]`, or [`BOTTOM`].
    #[inline]
    pub fn lmax(&self, e: EventId, o: ObjIdx) -> EventId {
        if e == BOTTOM {
            return BOTTOM;
        }
        let ev = &self.events[e.index()];
        if ev.obj == Some(o) {
            return e;
        }
        let l = self.lvecs.get(ev.lmax);
        match l.binary_search_by_key(&o, |&(x, _)| x) {
            Ok(i) => l[i].1,
            Err(_) => BOTTOM,
        }
    }

    /// The `(object, lmax)` pairs of `e`, by object.
    #[inline]
    pub fn lmax_all(&self, e: EventId) -> Lmax<'_> {
        let ev = &self.events[e.index()];
        Lmax { v: self.lvecs.get(ev.lmax), i: 0, own: ev.obj.map(|o| (o, e)) }
    }

    /// Causality `a ≤ b` (Theorem 5.1). [`BOTTOM`] precedes everything.
    #[inline]
    pub fn le(&self, a: EventId, b: EventId) -> bool {
        if a == BOTTOM {
            return true;
        }
        if b == BOTTOM {
            return false;
        }
        let t = self.events[a.index()].thread;
        let m = self.tmax(b, t);
        self.tree_le(a, m, false)
    }

    /// Conflict `a # b` (Theorem 5.1).
    pub fn conflict(&self, a: EventId, b: EventId) -> bool {
        if a == BOTTOM || b == BOTTOM || a == b {
            return false;
        }
        let (mut la, mut lb) = (self.lmax_all(a), self.lmax_all(b));
        let (mut x, mut y) = (la.next(), lb.next());
        while let (Some((ox, ex)), Some((oy, ey))) = (x, y) {
            match ox.cmp(&oy) {
                std::cmp::Ordering::Less => x = la.next(),
                std::cmp::Ordering::Greater => y = lb.next(),
                std::cmp::Ordering::Equal => {
                    if !self.obj_comparable(ex, ey) {
                        return true;
                    }
                    x = la.next();
                    y = lb.next();
                }
            }
        }
        false
    }

    /// The children of `parent` (or of object `o`'s virtual root if `parent` is
    /// [`BOTTOM`]) in the tree of object `o`, compact and grouped by thread (see
    /// [`Child`], [`ChildGroup`]).
    pub fn obj_children_by_thread(&self, o: ObjIdx, parent: EventId) -> ChildGroups<'_> {
        ChildGroups { kids: self.kids_of(o, parent), at: 0 }
    }

    /// All the children of `parent` (or of `o`'s root) in the tree of object `o`, in
    /// both orders of [`ChildGroup`] (each group at its `start`).
    pub fn obj_kids(&self, o: ObjIdx, parent: EventId) -> (&[Child], &[EventId]) {
        self.kids_of(o, parent).map_or((&[], &[]), |k| (&k.children, &k.by_pred))
    }

    /// The children of `parent` (of `o`'s root if [`BOTTOM`]) in `o`'s tree.
    #[inline]
    fn kids_of(&self, o: ObjIdx, parent: EventId) -> Option<&Kids> {
        if parent == BOTTOM {
            self.root_kids.get(o as usize)
        } else {
            debug_assert_eq!(self.events[parent.index()].obj, Some(o), "checker bug: {parent:?} is not on {o}");
            self.kids.get(parent.index())
        }
    }

    /// [`Unfolding::kids_of`], to change.
    fn kids_mut(&mut self, o: ObjIdx, parent: EventId) -> &mut Kids {
        if parent == BOTTOM {
            if self.root_kids.len() <= o as usize {
                self.root_kids.resize_with(o as usize + 1, Kids::default);
            }
            &mut self.root_kids[o as usize]
        } else {
            &mut self.kids[parent.index()]
        }
    }

    /// The [`Child`] record of `e`, an operation on an object.
    pub fn child_record(&self, e: EventId) -> Child {
        let ev = &self.events[e.index()];
        let tparent = ev.tparent();
        let tpred_obj =
            (tparent != BOTTOM).then(|| &self.events[tparent.index()]).and_then(|p| p.obj.map(|o| (o, p.odepth)));
        Child { event: e, thread: ev.thread, tpred: ev.tpred, depth: ev.tdepth, tpred_obj }
    }

    /// Children of `parent` (or of object `o`'s virtual root if `parent` is
    /// [`BOTTOM`]) in the tree of object `o`, thread by thread.
    pub fn obj_children(&self, o: ObjIdx, parent: EventId) -> impl Iterator<Item = EventId> + '_ {
        self.obj_kids(o, parent).0.iter().map(|c| c.event)
    }

    // ----- adding events ----------------------------------------------------------

    /// Whether `find_or_add` finds `e` among its object-tree parent's children rather
    /// than in the index: an operation on an object with no further predecessors.
    fn deduplicated_in_tree(&self, e: EventId) -> bool {
        let ev = &self.events[e.index()];
        ev.obj.is_some() && !ev.has_extra()
    }

    /// The dedup hash of live event `e` (see [`key_hash`]).
    fn hash_of(&self, e: EventId) -> u64 {
        let ev = &self.events[e.index()];
        key_hash(ev.thread, self.action(e), ev.tpred, ev.opred, self.extra(e))
    }

    /// Find the event `⟨action, preds⟩` of `thread`, or add it. Returns the event and
    /// whether it was new.
    ///
    /// The caller guarantees that the predecessors are live and form a valid history
    /// for the action (the explorer derives them from a configuration).
    pub fn find_or_add(&mut self, thread: ThreadId, action: Action, preds: &Preds) -> (EventId, bool) {
        let tpred = preds.tpred.unwrap_or(BOTTOM);
        let opred = preds.opred.unwrap_or(BOTTOM);
        let obj = action.object().map(|o| self.obj_index(o));
        // Thread tree: parent is pt(e) when tpred is of the same thread.
        let same_thread = tpred != BOTTOM && self.events[tpred.index()].thread == thread;
        let tparent = if same_thread { tpred } else { BOTTOM };
        // Where the event is, or goes: an operation on an object among its object-tree
        // parent's children (its thread's run, at its key), anything else in the index.
        let in_tree = obj.is_some() && preds.extra.is_empty();
        let mut at = 0;
        if let Some(o) = obj {
            let c = self.obj_kids(o, opred).0;
            let run = key_run(c, thread, (self.depth(tparent, false) + 1, tpred));
            let same = |x: &&Child| {
                key_action(self.action(x.event)) == key_action(action) && !self.events[x.event.index()].has_extra()
            };
            if in_tree {
                if let Some(x) = c[run.clone()].iter().find(same) {
                    return (x.event, false);
                }
            }
            at = run.end;
        }
        let mut hash = None;
        if !in_tree {
            let h = key_hash(thread, action, tpred, opred, &preds.extra);
            let found = self.index.find(h, |e| {
                let ev = &self.events[e.index()];
                ev.thread == thread
                    && ev.tpred == tpred
                    && ev.opred == opred
                    && key_action(self.action(e)) == key_action(action)
                    && self.extra(e) == preds.extra.as_slice()
            });
            if let Some(e) = found {
                return (e, false);
            }
            hash = Some(h);
        }
        let e = self.alloc();
        let (tdepth, tskips) = self.make_node(tparent, false);
        let (odepth, oskips) = if obj.is_some() { self.make_node(opred, true) } else { (0, NO_SKIPS) };
        // tmax / lmax: merge of the predecessors', plus the event itself.
        let (mut tmax, mut lmax, mut merged) = std::mem::take(&mut self.scratch);
        tmax.clear();
        lmax.clear();
        // [e] = [tpred] ∪ [opred] ∪ extra: a predecessor in the history of the other
        // adds nothing to the merge (an operation on an object the thread used last,
        // a thread's first event after its creator's latest).
        let (mut tp, mut op) = (tpred, opred);
        if preds.extra.is_empty() && tp != BOTTOM && op != BOTTOM {
            if self.le(op, tp) {
                op = BOTTOM;
            } else if self.le(tp, op) {
                tp = BOTTOM;
            }
        }
        for &p in [tp, op].iter().chain(preds.extra.iter()) {
            // (Nor does a further predecessor in the history of the thread's previous
            // event: a process exit after joining the threads whose last events these are.)
            if p == BOTTOM || (p != tp && tp != BOTTOM && !preds.extra.is_empty() && self.le(p, tp)) {
                continue;
            }
            self.merge_into(p, &mut tmax, &mut lmax, &mut merged);
        }
        if tmax.len() <= thread.index() {
            tmax.resize(thread.index() + 1, BOTTOM);
        }
        tmax[thread.index()] = e;
        if let Some(obj) = obj {
            match lmax.binary_search_by_key(&obj, |&(x, _)| x) {
                Ok(i) => lmax[i].1 = e,
                Err(i) => lmax.insert(i, (obj, e)),
            }
        }
        // Share a predecessor's vector when it gives the same values (apart from the
        // event's own entry, which lookups answer without the vector).
        let mut flags = LIVE | if same_thread { TPARENT } else { 0 };
        let shared_t = [tpred, opred]
            .into_iter()
            .filter(|&p| p != BOTTOM)
            .map(|p| self.events[p.index()].tmax)
            .find(|&v| tvec_matches(self.tvecs.get(v), &tmax, thread.index()));
        let tvec = shared_t.unwrap_or_else(|| {
            flags |= OWN_TMAX;
            self.tvecs.add(&tmax)
        });
        let shared_l = [tpred, opred]
            .into_iter()
            .filter(|&p| p != BOTTOM)
            .map(|p| self.events[p.index()].lmax)
            .find(|&v| lvec_matches(self.lvecs.get(v), &lmax, obj));
        let lvec = shared_l.unwrap_or_else(|| {
            flags |= OWN_LMAX;
            self.lvecs.add(&lmax)
        });
        let mut state = 0;
        if obj.is_some() {
            let mut st = self.state_after(opred).clone();
            // The explorer only adds events whose action is enabled after their history.
            let applied = st.apply(thread, action);
            debug_assert!(applied.is_ok(), "checker bug: event {action:?} impossible after {opred:?}: {applied:?}");
            state = self.states.intern(&st);
        }
        if !preds.extra.is_empty() {
            flags |= HAS_EXTRA;
            self.extra_len += preds.extra.len();
            self.extras.insert(e, preds.extra.clone().into_boxed_slice());
        }
        let ev = Event {
            thread,
            flags,
            obj,
            tpred,
            opred,
            action: self.actions.intern(&action),
            state,
            tdepth,
            odepth,
            tskips,
            oskips,
            tmax: tvec,
            lmax: lvec,
        };
        self.scratch = (tmax, lmax, merged);
        self.events[e.index()] = ev;
        if let Some(obj) = obj {
            // Link into the object tree's children: into the thread's run, at its place
            // in both orders.
            let child = self.child_record(e);
            let (c, b) = self.obj_kids(obj, opred);
            let std::ops::Range { start: lo, end: hi } = thread_run(c, thread);
            debug_assert!((lo..=hi).contains(&at) && c[lo..at].iter().all(|x| x.key() <= child.key()));
            let oe = self.pred_obj(e);
            let at_pred = lo + b[lo..hi].partition_point(|&x| self.pred_order(x, e, oe).is_lt());
            let kids = self.kids_mut(obj, opred);
            let before = kids.heap();
            grow(&mut kids.children);
            kids.children.insert(at, child);
            grow(&mut kids.by_pred);
            kids.by_pred.insert(at_pred, e);
            self.kid_bytes += kids.heap() - before;
        }
        if let Some(hash) = hash {
            self.index.insert(hash, e);
        }
        (e, true)
    }

    /// Record the outcome a run performed event `e` with (`action`: its label as
    /// executed). Only a read-modify-write's outcome can differ from the label the event
    /// was added with, and only for an event added as a conflicting extension (with the
    /// pending `Rmw(o, true)`) that no run had performed yet: it has no successor in its
    /// object's tree (conflicting extensions are only added after performed events), so
    /// the corrected state after it is seen by every later event. Its dedup key does
    /// not hold the outcome, so the index is unchanged.
    pub fn settle(&mut self, e: EventId, action: Action) {
        let old = self.action(e);
        if old == action {
            return;
        }
        let ev = &self.events[e.index()];
        let leaf = ev.obj.is_some_and(|o| self.obj_kids(o, e).0.is_empty());
        assert!(
            matches!((old, action), (Action::Rmw(o, b, true), Action::Rmw(p, c, false)) if o == p && b == c) && leaf,
            "unfold bug: event {e:?} {:?} performed as {action:?}",
            self.show(e)
        );
        let mut state = self.state_after(ev.opred).clone();
        let applied = state.apply(ev.thread, action);
        debug_assert!(applied.is_ok(), "checker bug: {action:?} impossible: {applied:?}");
        let (a, s) = (self.actions.intern(&action), self.states.intern(&state));
        let ev = &mut self.events[e.index()];
        ev.action = a;
        ev.state = s;
    }

    /// The state of an object after event `e` of its tree (the fresh state for
    /// [`BOTTOM`], the root).
    pub fn state_after(&self, e: EventId) -> &ObjState {
        let i = if e == BOTTOM { 0 } else { self.events[e.index()].state };
        &self.states.values[i as usize]
    }

    fn alloc(&mut self) -> EventId {
        self.live += 1;
        self.peak = self.peak.max(self.live);
        if let Some(e) = self.free.pop() {
            self.born[e.index()] = self.generation;
            self.young.push(e);
            return e;
        }
        self.born.push(self.generation);
        self.kids.push(Kids::default());
        let id = u32::try_from(self.events.len()).ok().filter(|&i| i != u32::MAX).expect("more than 2^32-1 events");
        self.young.push(EventId(id));
        self.events.push(Event {
            thread: ThreadId(0),
            flags: 0,
            obj: None,
            tpred: BOTTOM,
            opred: BOTTOM,
            action: 0,
            state: 0,
            tdepth: 0,
            odepth: 0,
            tskips: NO_SKIPS,
            oskips: NO_SKIPS,
            tmax: 0,
            lmax: 0,
        });
        EventId(id)
    }

    /// A new node under `parent` in a thread or object tree: its depth and its skip
    /// pointers (an offset in the pool).
    fn make_node(&mut self, parent: EventId, object_tree: bool) -> (u32, u32) {
        let depth = self.depth(parent, object_tree) + 1;
        // At most one skip per power of `skip` (≥ 2) dividing a u32 depth: 32.
        let mut skips = [BOTTOM; 32];
        let n = self.skip_count(depth);
        let mut dist = self.skip;
        for s in skips.iter_mut().take(n) {
            // Ancestor at depth - dist.
            let target = depth - dist;
            *s = if target == 0 { BOTTOM } else { self.ancestor_at(parent, target, object_tree) };
            dist = dist.saturating_mul(self.skip);
        }
        (depth, self.skip_pool.add(&skips[..n]))
    }

    fn merge_into(
        &self,
        p: EventId,
        tmax: &mut Vec<EventId>,
        lmax: &mut Vec<(ObjIdx, EventId)>,
        merged: &mut Vec<(ObjIdx, EventId)>,
    ) {
        let ev = &self.events[p.index()];
        let tv = self.tvecs.get(ev.tmax);
        let own = ev.thread.index();
        if tmax.is_empty() {
            // The first predecessor: its vectors as they are (`p`, deeper than the
            // vector's entry for its own thread, replaces it).
            tmax.extend_from_slice(tv);
            if tmax.len() <= own {
                tmax.resize(own + 1, BOTTOM);
            }
            tmax[own] = p;
            if lmax.is_empty() {
                lmax.extend(self.lmax_all(p));
                return;
            }
        }
        let n = tv.len().max(own + 1);
        if tmax.len() < n {
            tmax.resize(n, BOTTOM);
        }
        // Events of one thread in a configuration form a chain: keep the deeper. `p`'s
        // own entry is `p` (the vector's may be an earlier event of the thread: `p`,
        // deeper, replaces it).
        for (slot, &m) in tmax.iter_mut().zip(tv) {
            if m != BOTTOM && m != *slot && (*slot == BOTTOM || self.depth(m, false) > self.depth(*slot, false)) {
                *slot = m;
            }
        }
        let slot = &mut tmax[own];
        if *slot == BOTTOM || ev.tdepth > self.depth(*slot, false) {
            *slot = p;
        }
        if lmax.is_empty() {
            lmax.extend(self.lmax_all(p));
            return;
        }
        merged.clear();
        let mut theirs = self.lmax_all(p).peekable();
        let mut i = 0;
        while i < lmax.len() || theirs.peek().is_some() {
            match theirs.peek().copied() {
                Some(y) if i == lmax.len() || y.0 < lmax[i].0 => {
                    merged.push(y);
                    theirs.next();
                }
                Some(y) if y.0 == lmax[i].0 => {
                    let a = lmax[i].1;
                    merged.push((y.0, if y.1 != a && self.depth(y.1, true) > self.depth(a, true) { y.1 } else { a }));
                    i += 1;
                    theirs.next();
                }
                _ => {
                    merged.push(lmax[i]);
                    i += 1;
                }
            }
        }
        std::mem::swap(lmax, merged);
    }

    // ----- pruning ----------------------------------------------------------------

    /// Free every live event not in `keep` and not a cause of an event in `keep`.
    /// `keep` is a per-slot mark vector (index = event id), extended with causes in
    /// place. Returns the number of events freed.
    pub fn retain(&mut self, keep: &mut Vec<bool>) -> usize {
        self.retain_among(keep, false)
    }

    /// Free the events added since the last retain ([`Unfolding::young`]) that are not
    /// in `keep` and not a cause of one in `keep`; every older event stays. Only the
    /// entries of `keep` for those events are read, and they are all false again on
    /// return (the caller can keep the vector, all false, for the next call: the cost
    /// follows the young events, not `U`). Returns the number of events freed.
    pub fn retain_young(&mut self, keep: &mut Vec<bool>) -> usize {
        self.retain_among(keep, true)
    }

    /// The events added since the last retain, all live.
    pub fn young(&self) -> &[EventId] {
        &self.young
    }

    fn retain_among(&mut self, keep: &mut Vec<bool>, young_only: bool) -> usize {
        keep.resize(self.events.len(), false);
        let generation = self.generation;
        let mut young = std::mem::take(&mut self.young);
        // The candidates: every live event, or those added since the last retain.
        let candidates: Vec<EventId> = if young_only {
            std::mem::take(&mut young)
        } else {
            (0..self.events.len() as u32).map(EventId).filter(|&e| self.events[e.index()].live()).collect()
        };
        let (mut stack, mut freed) = std::mem::take(&mut self.retain_scratch);
        // Between young events, `keep` decides; an older one stays.
        let (born, events) = (&self.born, &self.events);
        let decides = |e: EventId| !young_only || born[e.index()] == generation;
        // Causal closure (explicit stack).
        stack.clear();
        stack.extend(candidates.iter().copied().filter(|&e| keep[e.index()]));
        while let Some(e) = stack.pop() {
            let ev = &events[e.index()];
            let extra = if ev.has_extra() { &self.extras[&e][..] } else { &[] };
            for &p in [ev.tpred, ev.opred].iter().chain(extra) {
                if p != BOTTOM && !keep[p.index()] && decides(p) {
                    keep[p.index()] = true;
                    stack.push(p);
                }
            }
        }
        freed.clear();
        freed.extend(candidates.iter().copied().filter(|&e| !keep[e.index()]));
        let kept = |e: EventId| keep[e.index()] || !decides(e);
        // Out of the object trees first (the freed events' fields are still there). The
        // children of a freed event are all freed (a kept one would have kept it): its
        // own list goes whole. A list gives back the room it no longer needs.
        let filter = |k: &mut Kids| {
            k.children.retain(|c| kept(c.event));
            k.by_pred.retain(|&x| kept(x));
            shrink(&mut k.children);
            shrink(&mut k.by_pred);
        };
        if young_only {
            // A freed child of a kept node (or of a root) leaves its lists alone: found by
            // its key in `children` and among its thread's run in `by_pred`. (Filtering
            // the whole list instead probed `keep` for every sibling, and the root and
            // the early nodes of a busy object have thousands: most of a young pruning's
            // time on mpat_nested K=6, in cache misses.)
            for &f in &freed {
                // (Its room goes too: there are tens of thousands of free slots.)
                self.kid_bytes -= self.kids[f.index()].heap();
                self.kids[f.index()] = Kids::default();
                let ev = &self.events[f.index()];
                let Some(o) = ev.obj else { continue };
                if ev.opred != BOTTOM && !kept(ev.opred) {
                    continue;
                }
                let (thread, key) = (ev.thread, (ev.tdepth, ev.tpred));
                let k =
                    if ev.opred == BOTTOM { &mut self.root_kids[o as usize] } else { &mut self.kids[ev.opred.index()] };
                let before = k.heap();
                let run = key_run(&k.children, thread, key);
                let at = run.start
                    + k.children[run].iter().position(|x| x.event == f).expect("checker bug: a child not in its list");
                let run = thread_run(&k.children, thread);
                let at_pred = run.start
                    + k.by_pred[run].iter().position(|&x| x == f).expect("checker bug: a child not in by_pred");
                k.children.remove(at);
                k.by_pred.remove(at_pred);
                // The room the list no longer needs goes back (as in a full pruning's
                // filter): keeping it, even only in short lists, cost 4 MiB of peak RSS on
                // mpat_nested K=6 (44.0 against 40.1) and saved no measurable time.
                shrink(&mut k.children);
                shrink(&mut k.by_pred);
                self.kid_bytes = self.kid_bytes - before + k.heap();
            }
        } else {
            // Every event the trees hold was live before this call: it stays iff it is
            // kept (`keep`, a dense bitmap, is cheaper to probe than the events).
            for (i, k) in self.kids.iter_mut().enumerate() {
                if k.children.is_empty() {
                    continue;
                }
                if keep[i] {
                    filter(k);
                } else {
                    *k = Kids::default();
                }
            }
            self.root_kids.iter_mut().for_each(filter);
            self.kid_bytes = self.kids.iter().chain(&self.root_kids).map(Kids::heap).sum();
        }
        for &f in &freed {
            if young_only && !self.deduplicated_in_tree(f) {
                let hash = self.hash_of(f);
                self.index.remove(hash, f);
            }
            let i = f.index();
            let ev = &self.events[i];
            // Vectors, skip runs and extras are owned by this event alone: every event
            // sharing its vectors is one of its effects, freed with it (a kept effect
            // would have kept it).
            let (flags, tv, lv) = (ev.flags, ev.tmax, ev.lmax);
            let (tn, on) = (self.skip_count(ev.tdepth), if ev.obj.is_some() { self.skip_count(ev.odepth) } else { 0 });
            let (ts, os) = (ev.tskips, ev.oskips);
            if flags & OWN_TMAX != 0 {
                self.tvecs.remove(tv);
            }
            if flags & OWN_LMAX != 0 {
                self.lvecs.remove(lv);
            }
            if flags & HAS_EXTRA != 0 {
                self.extra_len -= self.extras.remove(&f).map_or(0, |x| x.len());
            }
            self.skip_pool.remove(ts, tn);
            self.skip_pool.remove(os, on);
            self.events[i].flags = 0;
            self.free.push(f);
        }
        self.live -= freed.len();
        let n = freed.len();
        if young_only {
            for &e in &candidates {
                keep[e.index()] = false;
            }
            // The next generation's young events go into the candidates' buffer.
            young = candidates;
        } else {
            // Rebuilt from its entries of kept events (their tags are their hashes'
            // upper halves, all that placing them needs).
            self.index = self.index.rebuilt(|e| keep[e.index()]);
        }
        young.clear();
        self.young = young;
        self.retain_scratch = (stack, freed);
        self.generation += 1;
        n
    }

    /// Check the structural invariants (tests call this; O(|U| · depth)).
    ///
    /// # Panics
    /// With a message naming the broken invariant: that is a checker bug.
    pub fn assert_invariants(&self) {
        assert_eq!(
            self.kid_bytes,
            self.kids.iter().chain(&self.root_kids).map(Kids::heap).sum::<usize>(),
            "checker bug: the children's lists' bytes"
        );
        // The children of each object-tree node: runs of threads in both orders, each run
        // sorted (`Kids`).
        let roots = self.root_kids.iter().enumerate().map(|(o, k)| (o as ObjIdx, BOTTOM, k));
        let nodes = self.kids.iter().enumerate().map(|(i, k)| {
            let ev = &self.events[i];
            assert!(k.children.is_empty() || ev.live(), "checker bug: a free slot e{i} has children");
            (ev.obj.unwrap_or(0), EventId(i as u32), k)
        });
        for (o, parent, k) in roots.chain(nodes) {
            assert_eq!(k.children.len(), k.by_pred.len(), "checker bug: children of {parent:?} on {o}");
            for (i, (c, &b)) in k.children.iter().zip(&k.by_pred).enumerate() {
                assert_eq!(c.thread, self.events[b.index()].thread, "checker bug: thread runs of {parent:?} on {o}");
                assert_eq!(self.events[c.event.index()].obj, Some(o), "checker bug: child {:?} of {parent:?}", c.event);
                assert_eq!(
                    self.events[c.event.index()].opred,
                    parent,
                    "checker bug: child {:?} of {parent:?}",
                    c.event
                );
                if i > 0 && k.children[i - 1].thread == c.thread {
                    let a = k.by_pred[i - 1];
                    assert!(k.children[i - 1].key() <= c.key(), "checker bug: order of the children of {parent:?}");
                    assert!(
                        self.pred_order(a, b, self.pred_obj(b)).is_le(),
                        "checker bug: by_pred order of the children of {parent:?}: {a:?} before {b:?}"
                    );
                }
            }
        }
        let (mut tmax, mut lmax, mut merged) = (Vec::new(), Vec::new(), Vec::new());
        for (i, ev) in self.events.iter().enumerate() {
            if !ev.live() {
                continue;
            }
            let e = EventId(i as u32);
            for &p in [ev.tpred, ev.opred].iter().chain(self.extra(e)) {
                assert!(p == BOTTOM || self.is_live(p), "checker bug: {e:?} has a dead predecessor {p:?}");
            }
            let in_index = self.index.find(self.hash_of(e), |x| x == e) == Some(e);
            assert_eq!(
                in_index,
                !self.deduplicated_in_tree(e),
                "checker bug: {e:?} in the dedup index: {in_index} (operations on objects are found in their trees)"
            );
            // tmax and lmax (shared vectors included) are those of the merge of the
            // immediate predecessors, plus the event itself.
            tmax.clear();
            lmax.clear();
            for &p in [ev.tpred, ev.opred].iter().chain(self.extra(e)) {
                if p != BOTTOM {
                    self.merge_into(p, &mut tmax, &mut lmax, &mut merged);
                }
            }
            for t in 0..tmax.len().max(ev.thread.index() + 1) {
                let want = if t == ev.thread.index() { e } else { tmax.get(t).copied().unwrap_or(BOTTOM) };
                assert_eq!(self.tmax(e, ThreadId(t as u16)), want, "checker bug: tmax({e:?}, t{t})");
            }
            if let Some(obj) = ev.obj {
                match lmax.binary_search_by_key(&obj, |&(x, _)| x) {
                    Ok(j) => lmax[j].1 = e,
                    Err(j) => lmax.insert(j, (obj, e)),
                }
            }
            assert!(self.lmax_all(e).eq(lmax.iter().copied()), "checker bug: lmax({e:?})");
            for &(o, l) in &lmax {
                assert_eq!(self.lmax(e, o), l, "checker bug: lmax({e:?}, {o})");
            }
            assert_eq!(ev.tdepth, self.depth(ev.tparent(), false) + 1, "checker bug: depth of {e:?}");
            if ev.obj.is_some() {
                assert_eq!(ev.odepth, self.depth(ev.opred, true) + 1, "checker bug: object depth of {e:?}");
            }
            // Skip pointers point at the right depths.
            for tree in [false, true] {
                if tree && ev.obj.is_none() {
                    continue;
                }
                let d = self.depth(e, tree);
                let mut dist = self.skip;
                for &s in self.skips(e, tree) {
                    assert_eq!(self.depth(s, tree), d - dist, "checker bug: skip pointer of {e:?}");
                    assert!(self.tree_le(s, self.parent(e, tree), tree), "checker bug: skip pointer of {e:?}");
                    dist = dist.saturating_mul(self.skip);
                }
            }
            // Causal predecessors precede.
            for &p in [ev.tpred, ev.opred].iter().chain(self.extra(e)) {
                if p != BOTTOM {
                    assert!(
                        self.le(p, e),
                        "checker bug: {p:?} is a predecessor of {e:?} but not ≤: {:?} / {:?}, tmax {:?}",
                        self.show(p),
                        self.show(e),
                        self.tmax(e, self.events[p.index()].thread)
                    );
                }
            }
        }
    }
}

/// Whether an event of thread `own` whose `tmax` is `want` can use the vector `v`:
/// every entry but its own is the same (missing entries are [`BOTTOM`]).
fn tvec_matches(v: &[EventId], want: &[EventId], own: usize) -> bool {
    let n = v.len().max(want.len());
    (0..n).all(|i| i == own || v.get(i).copied().unwrap_or(BOTTOM) == want.get(i).copied().unwrap_or(BOTTOM))
}

/// Whether an event on object `own` whose `lmax` is `want` can use the vector `v`:
/// every entry but the one of its own object is the same.
fn lvec_matches(v: &[(ObjIdx, EventId)], want: &[(ObjIdx, EventId)], own: Option<ObjIdx>) -> bool {
    let not_own = |x: &&(ObjIdx, EventId)| Some(x.0) != own;
    v.iter().filter(not_own).eq(want.iter().filter(not_own))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Bytes;

    /// Naive reference: walk parents.
    fn naive_le(u: &Unfolding, a: EventId, mut b: EventId, object_tree: bool) -> bool {
        loop {
            if a == b {
                return true;
            }
            if b == BOTTOM {
                return a == BOTTOM;
            }
            b = u.parent(b, object_tree);
        }
    }

    use crate::model::random::Rng;

    /// A random object tree: accesses of one memory object by 8 threads, each new node
    /// hanging under a random existing node (biased to deep chains); each node's thread
    /// predecessor is the last event of its thread in its parent's history, so the
    /// result is a well-formed unfolding.
    fn random_tree(rng: &mut Rng, n: usize, skip: usize) -> (Unfolding, Vec<EventId>) {
        let mut u = Unfolding::new(skip);
        let mut nodes: Vec<EventId> = Vec::new();
        while nodes.len() < n {
            let parent = if nodes.is_empty() || rng.below(50) == 0 {
                None
            } else if rng.below(4) != 0 {
                Some(*nodes.last().unwrap())
            } else {
                Some(nodes[rng.below(nodes.len())])
            };
            let t = ThreadId(rng.below(8) as u16);
            let tpred = parent.map(|p| u.tmax(p, t)).filter(|&e| e != BOTTOM);
            let (e, new) =
                u.find_or_add(t, Action::Write(ObjId(1), Bytes::ALL), &Preds { tpred, opred: parent, extra: vec![] });
            if new {
                nodes.push(e);
            }
        }
        (u, nodes)
    }

    /// A random unfolding of several threads writing several memory objects: each new
    /// event takes a random event of its thread (or none) as its thread predecessor
    /// and a random node of its object's tree compatible with it as its object
    /// predecessor; random prunings in between. After each step the invariants hold:
    /// shared `tmax`/`lmax` vectors give what a merge of the predecessors gives, freed
    /// slots, vectors and skip runs are reused without corrupting live events, and the
    /// rebuilt dedup index and the object trees find every live event — after a retain
    /// of the whole unfolding and after one of the events added since the last.
    #[test]
    fn shared_vectors_and_reused_slots_survive_random_pruning() {
        let mut rng = Rng::new(0xc0ff_ee00_1234);
        let mut u = Unfolding::new(2);
        let (threads, objects) = (6u16, 3u64);
        let mut added = 0;
        for round in 0..40 {
            for _ in 0..150 {
                let t = ThreadId(rng.below(threads as usize) as u16);
                let mine: Vec<EventId> =
                    (0..u.slots() as u32).map(EventId).filter(|&e| u.is_live(e) && u.event(e).thread == t).collect();
                let tpred = if mine.is_empty() || rng.below(8) == 0 { BOTTOM } else { mine[rng.below(mine.len())] };
                // Threads are deterministic: the object of a thread's next write is a
                // function of the thread and its position (two events of a thread after
                // the same predecessor are on one object, so in conflict).
                let o = ObjId(1 + (t.0 as u64 + u.thread_depth(tpred) as u64) % objects);
                let oi = u.obj_index(o);
                let floor = u.lmax(tpred, oi);
                let nodes: Vec<EventId> = (0..u.slots() as u32)
                    .map(EventId)
                    .filter(|&e| u.is_live(e) && u.event(e).obj == Some(oi))
                    .filter(|&q| {
                        u.obj_le(floor, q) && !u.conflict(tpred, q) && u.le(u.tmax(q, t), tpred) && u.tmax(q, t) != q
                    })
                    .collect();
                let opred = if nodes.is_empty() || rng.below(6) == 0 { floor } else { nodes[rng.below(nodes.len())] };
                let preds = Preds {
                    tpred: Some(tpred).filter(|&e| e != BOTTOM),
                    opred: Some(opred).filter(|&e| e != BOTTOM),
                    extra: vec![],
                };
                let (e, new) = u.find_or_add(t, Action::Write(o, Bytes::ALL), &preds);
                added += usize::from(new);
                assert_eq!(
                    u.find_or_add(t, Action::Write(o, Bytes::ALL), &preds),
                    (e, false),
                    "dedup after {round} prunings"
                );
            }
            u.assert_invariants();
            let mut keep: Vec<bool> = (0..u.slots()).map(|_| rng.below(3) == 0).collect();
            if round % 2 == 1 {
                // Between full prunings: the older events all stay, the younger ones are
                // looked at alone.
                for (i, k) in keep.iter_mut().enumerate() {
                    *k |= !u.added_since_retain(EventId(i as u32));
                }
                u.retain_young(&mut keep);
            } else {
                u.retain(&mut keep);
            }
            u.assert_invariants();
        }
        assert!(added > 3_000, "only {added} events added");
        assert!(u.free.len() + u.len() == u.slots() && u.slots() < added, "slots are reused");
        // The bytes counted: at least the arena and the children's lists; emptied, only
        // what stays with the slots (the children's lists are given back).
        let full = u.heap_bytes();
        assert!(full >= u.slots() * 72 + u.kid_bytes && u.kid_bytes > 0, "{full} bytes for {} slots", u.slots());
        u.retain(&mut vec![false; u.slots()]);
        u.assert_invariants();
        assert_eq!(u.kid_bytes, 0);
        assert!(u.heap_bytes() < full);
    }

    /// The event stays as small as its documentation says (the arena holds one per
    /// slot: 4 bytes more is 1 MB at nested_pairs(6)'s peak).
    #[test]
    fn an_event_is_52_bytes_and_prints_like_the_paper() {
        assert_eq!(std::mem::size_of::<Event>(), 52);
        // And so does the empty children's lists' header every slot has.
        assert_eq!(std::mem::size_of::<Kids>(), 16);
        let mut u = Unfolding::new(4);
        let (a, _) = u.find_or_add(ThreadId(1), Action::Lock(ObjId(5)), &Preds::default());
        let p = Preds { tpred: Some(a), opred: Some(a), extra: vec![] };
        let (b, _) = u.find_or_add(ThreadId(1), Action::Unlock(ObjId(5), true), &p);
        assert_eq!(format!("{:?}", u.show(b)), format!("t1 {:?} pre=[{a:?},{a:?}]", Action::Unlock(ObjId(5), true)));
    }

    #[test]
    fn skip_list_ancestor_queries_match_naive_walk() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        for (n, skip) in [(200, 2), (2_000, 4), (3_000, 3), (100_000, 4)] {
            let (u, nodes) = random_tree(&mut rng, n, skip);
            u.assert_invariants();
            let queries = if n > 10_000 { 20_000 } else { 5_000 };
            for _ in 0..queries {
                let a = nodes[rng.below(n)];
                let b = nodes[rng.below(n)];
                assert_eq!(u.tree_le(a, b, true), naive_le(&u, a, b, true), "{a:?} {b:?} skip {skip}");
                let da = u.depth(b, true);
                let g = rng.below(da as usize + 1) as u32;
                let q = u.ancestor_at(b, g, true);
                assert_eq!(u.depth(q, true), g);
                assert!(naive_le(&u, q, b, true));
            }
        }
    }

    /// `obj_preorder_cmp` against a pre-order walk of the tree (children by increasing
    /// id): the index of spike candidates (`preds_below`) relies on subtrees being
    /// contiguous in this order.
    #[test]
    fn preorder_comparison_matches_a_walk_of_the_tree() {
        let mut rng = Rng::new(0x5eed_0f0d);
        for (n, skip) in [(300, 2), (3_000, 4)] {
            let (u, nodes) = random_tree(&mut rng, n, skip);
            let mut rank = vec![usize::MAX; u.slots()];
            let mut stack: Vec<EventId> = u.obj_children(0, BOTTOM).collect();
            stack.sort_by_key(|e| std::cmp::Reverse(e.0));
            let mut next = 0;
            while let Some(e) = stack.pop() {
                rank[e.index()] = next;
                next += 1;
                let mut cs: Vec<EventId> = u.obj_children(0, e).collect();
                cs.sort_by_key(|e| std::cmp::Reverse(e.0));
                stack.extend(cs);
            }
            assert_eq!(next, n, "the walk reaches every node");
            for _ in 0..20_000 {
                let a = nodes[rng.below(n)];
                let b = nodes[rng.below(n)];
                assert_eq!(u.obj_preorder_cmp(a, b), rank[a.index()].cmp(&rank[b.index()]), "{a:?} {b:?}");
            }
            assert!(nodes.iter().all(|&a| u.obj_preorder_cmp(BOTTOM, a).is_lt()));
        }
    }

    #[test]
    fn deep_chain_reaches_depth_1e5_and_queries_stay_correct() {
        let mut u = Unfolding::new(4);
        let mut last = None;
        let mut all = vec![];
        for _ in 0..100_000 {
            let (e, _) = u.find_or_add(
                ThreadId(0),
                Action::Write(ObjId(9), Bytes::ALL),
                &Preds { tpred: last, opred: last, extra: vec![] },
            );
            // tpred and opred both the previous event of the same thread.
            last = Some(e);
            all.push(e);
        }
        assert_eq!(u.depth(all[99_999], false), 100_000);
        assert!(u.le(all[3], all[99_999]));
        assert!(u.le(all[50_000], all[50_001]));
        assert!(!u.le(all[50_001], all[50_000]));
        assert_eq!(u.ancestor_at(all[99_999], 17, false), all[16]);
    }

    #[test]
    fn dedup_finds_existing_events_and_conflict_is_tree_branching() {
        let mut u = Unfolding::new(4);
        let m = ObjId(5);
        let (a1, _) = u.find_or_add(ThreadId(1), Action::Lock(m), &Preds::default());
        let (b1, _) = u.find_or_add(ThreadId(2), Action::Lock(m), &Preds::default());
        let (a1b, new) = u.find_or_add(ThreadId(1), Action::Lock(m), &Preds::default());
        assert_eq!((a1b, new), (a1, false));
        assert!(u.conflict(a1, b1));
        let (r1, _) = u.find_or_add(
            ThreadId(1),
            Action::Unlock(m, true),
            &Preds { tpred: Some(a1), opred: Some(a1), extra: vec![] },
        );
        let (b2, _) =
            u.find_or_add(ThreadId(2), Action::Lock(m), &Preds { tpred: None, opred: Some(r1), extra: vec![] });
        assert!(u.le(a1, b2));
        assert!(u.le(r1, b2));
        assert!(!u.conflict(a1, b2));
        assert!(u.conflict(b1, b2), "two first locks of thread 2 with different histories");
        assert!(u.conflict(b1, r1));
        let children: Vec<_> = u.obj_children(0, BOTTOM).collect();
        assert_eq!(children.len(), 2);
        u.assert_invariants();
        // Prune everything but b2: its causes stay.
        let mut keep = vec![false; 8];
        keep[b2.index()] = true;
        let freed = u.retain(&mut keep);
        assert_eq!(freed, 1, "only b1 is neither kept nor a cause of b2");
        assert!(!u.is_live(b1));
        assert_eq!(u.obj_children(0, BOTTOM).collect::<Vec<_>>(), vec![a1]);
        u.assert_invariants();
    }
}
