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
//! explorer decides what to keep, see `Qpor::prune`, and its causal closure is kept), and freed slots are reused. A
//! freed event's id must not be used again by the caller.

use crate::action::Action;
use crate::ids::{EventId, ObjId, ThreadId};
use crate::objects::ObjState;
use rustc_hash::FxHashMap as HashMap;
use std::fmt;

/// The virtual root `⊥` of every thread and object tree: the event the paper adds to
/// the unfolding to precede every event (QPOR §5.1). `tmax`/`lmax` map to it when the
/// history has no event of the thread or object (Def. 7), as in the paper. Where the
/// API means "no event" rather than the root (the frontier of a
/// [`Configuration`](crate::configuration::Configuration), [`Preds`], an event's
/// object) it uses `Option`.
pub const BOTTOM: EventId = EventId(u32::MAX);

/// Dense index of an object within one unfolding.
pub type ObjIdx = u32;

/// A node's position in a tree (thread tree or object tree), with skip pointers.
#[derive(Clone, Debug)]
struct TreeNode {
    /// Parent event, or [`BOTTOM`] for a child of the virtual root.
    parent: EventId,
    /// Depth: children of the virtual root have depth 1.
    depth: u32,
    /// Ancestors at depths `depth - s^1, depth - s^2, ...` ([`BOTTOM`] for depth 0).
    skips: Box<[EventId]>,
}

impl Default for TreeNode {
    fn default() -> Self {
        TreeNode { parent: BOTTOM, depth: 0, skips: Box::new([]) }
    }
}

/// An event of the unfolding (QPOR §2, Def. 1): an action after a history.
#[derive(Clone)]
pub struct Event {
    /// The action `h(e)`.
    pub action: Action,
    /// The thread performing it.
    pub thread: ThreadId,
    /// `pt(e)`, or the creating event for a thread's first event, or [`BOTTOM`].
    pub tpred: EventId,
    /// `pm(e)` for object operations, the joined thread's exit for joins, else [`BOTTOM`].
    pub opred: EventId,
    /// Further immediate predecessors (process exit only).
    pub extra: Box<[EventId]>,
    /// The object of the action, as a dense index (`None` for creates, joins, exits).
    pub obj: Option<ObjIdx>,
    // invariant: for an object operation, the state of its object after `pm(e)` (or the
    // fresh state) with the action applied; `Fresh` otherwise.
    state: ObjState,
    tnode: TreeNode,
    onode: TreeNode,
    // invariant: tmax[i] is the <-maximal event of thread i in [e] (BOTTOM if none),
    // tmax[thread] == self; length = 1 + the largest thread index in [e].
    tmax: Box<[EventId]>,
    // invariant: sorted by object; (o, lmax(e, o)) for every object o touched in [e].
    lmax: Box<[(ObjIdx, EventId)]>,
    // Intrusive list of children in the object tree.
    first_ochild: EventId,
    next_osibling: EventId,
    live: bool,
}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.thread, self.action)?;
        let mut pre = vec![];
        for p in [self.tpred, self.opred].iter().chain(self.extra.iter()) {
            if *p != BOTTOM {
                pre.push(format!("{p:?}"));
            }
        }
        write!(f, " pre=[{}]", pre.join(","))
    }
}

/// Key under which events are deduplicated.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key {
    thread: ThreadId,
    action: Action,
    tpred: EventId,
    opred: EventId,
    extra_hash: u64,
}

/// The action an event is identified by: a read-modify-write without its outcome
/// (whether it changed the value is a function of the event's history, but only the
/// program knows it: an event added as a conflicting extension carries the pending
/// `Rmw(o, true)` until a run performs it, [`Unfolding::settle`]).
fn key_action(a: Action) -> Action {
    match a {
        Action::Rmw(o, _) => Action::Rmw(o, true),
        a => a,
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

/// The children of one object-tree node performed by one thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildGroup {
    /// The thread.
    pub thread: ThreadId,
    // invariant: sorted by `Child::key` (depth, then thread predecessor).
    children: Vec<Child>,
    // invariant: the same children, sorted by `Unfolding::pred_order`: those whose
    // thread predecessor is an operation on an object first, by that object, then by
    // the predecessor's position in the object's tree in pre-order; the others last.
    // The subtree of one node is then one range (see [`Unfolding::preds_below`]).
    by_pred: Vec<EventId>,
}

impl ChildGroup {
    /// All the children, sorted by depth then thread predecessor.
    pub fn children(&self) -> &[Child] {
        &self.children
    }

    /// All the children, in the order of [`Unfolding::preds_below`]'s ranges.
    pub fn by_pred(&self) -> &[EventId] {
        &self.by_pred
    }

    /// The children that can follow `last`, an event of this thread, in a
    /// configuration (`last ≤ pt(x)`): as two index ranges of [`ChildGroup::children`],
    /// those whose thread predecessor is `last`, and those deeper in the thread tree
    /// (which the caller must still test). Children at `last`'s depth or above with
    /// another predecessor cannot follow it.
    pub fn after(&self, last_depth: u32, last: EventId) -> [std::ops::Range<usize>; 2] {
        let c = &self.children;
        let lo = c.partition_point(|x| x.key() < (last_depth + 1, last));
        let hi = c.partition_point(|x| x.key() <= (last_depth + 1, last));
        let deeper = c.partition_point(|x| x.depth <= last_depth + 1);
        [lo..hi, deeper..c.len()]
    }
}

/// The unfolding: the event arena, its trees and its dedup index.
#[derive(Clone)]
pub struct Unfolding {
    events: Vec<Event>,
    free: Vec<EventId>,
    index: HashMap<Key, EventId>,
    objects: HashMap<ObjId, ObjIdx>,
    obj_ids: Vec<ObjId>,
    // Head of the child list of each object's virtual root.
    obj_root_child: Vec<EventId>,
    // The same children, compact and grouped by thread: per (object, parent), per
    // thread, each child with its thread predecessor, so that a scan for spike
    // candidates skips a whole thread at once and rejects most children without
    // touching their events.
    children: HashMap<(ObjIdx, EventId), Vec<ChildGroup>>,
    skip: u32,
    live: usize,
    peak: usize,
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
            if e.live {
                writeln!(f, "e{i} {e:?}")?;
            }
        }
        Ok(())
    }
}

fn hash_extra(extra: &[EventId]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for e in extra {
        h ^= e.0 as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

impl Unfolding {
    /// An empty unfolding whose trees use skip step `skip` (≥ 2; the paper uses 4).
    pub fn new(skip: usize) -> Self {
        Unfolding {
            events: Vec::new(),
            free: Vec::new(),
            index: HashMap::default(),
            objects: HashMap::default(),
            obj_ids: Vec::new(),
            obj_root_child: Vec::new(),
            children: HashMap::default(),
            skip: skip.max(2) as u32,
            live: 0,
            peak: 0,
            scratch: Default::default(),
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

    /// Most events live at once.
    pub fn peak(&self) -> usize {
        self.peak
    }

    /// The event `e`.
    #[inline]
    pub fn event(&self, e: EventId) -> &Event {
        &self.events[e.index()]
    }

    /// Whether `e` is a live event.
    pub fn is_live(&self, e: EventId) -> bool {
        e != BOTTOM && self.events.get(e.index()).is_some_and(|ev| ev.live)
    }

    /// The dense index of object `o`, interning it.
    pub fn obj_index(&mut self, o: ObjId) -> ObjIdx {
        if let Some(&i) = self.objects.get(&o) {
            return i;
        }
        let i = self.obj_ids.len() as ObjIdx;
        self.objects.insert(o, i);
        self.obj_ids.push(o);
        self.obj_root_child.push(BOTTOM);
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

    #[inline]
    fn node(&self, e: EventId, object_tree: bool) -> &TreeNode {
        let ev = &self.events[e.index()];
        if object_tree {
            &ev.onode
        } else {
            &ev.tnode
        }
    }

    /// Depth of `e` in its thread tree (or object tree); 0 for [`BOTTOM`].
    #[inline]
    fn depth(&self, e: EventId, object_tree: bool) -> u32 {
        if e == BOTTOM {
            0
        } else {
            self.node(e, object_tree).depth
        }
    }

    /// `q(n, g)` of QPOR §5.2: the ancestor of `n` at depth `g` (`g ≤ d(n)`).
    fn ancestor_at(&self, mut n: EventId, g: u32, object_tree: bool) -> EventId {
        if g == 0 {
            return BOTTOM;
        }
        loop {
            let node = self.node(n, object_tree);
            let d = node.depth;
            debug_assert!(d >= g, "checker bug: ancestor_at above the node");
            if d == g {
                return n;
            }
            let dist = d - g;
            // Skips are at distances s, s^2, ...: take the longest that fits.
            let mut next = node.parent;
            let mut jump = self.skip;
            for &s in node.skips.iter() {
                if jump > dist {
                    break;
                }
                next = s;
                jump = jump.saturating_mul(self.skip);
            }
            n = next;
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
    /// `O(log d · s log_s d)` for depth `d` (a binary search for the deepest common
    /// ancestor with the skip-list queries of §5.2).
    pub fn obj_preorder_cmp(&self, a: EventId, b: EventId) -> std::cmp::Ordering {
        if a == b {
            return std::cmp::Ordering::Equal;
        }
        let (da, db) = (self.depth(a, true), self.depth(b, true));
        let m = da.min(db);
        let (a1, b1) = (self.ancestor_at(a, m, true), self.ancestor_at(b, m, true));
        if a1 == b1 {
            // One is an ancestor of the other: it comes first.
            return da.cmp(&db);
        }
        // invariant: the ancestors at depth `lo` are equal (depth 0: the root), those at
        // depth `hi` differ.
        let (mut lo, mut hi) = (0, m);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.ancestor_at(a1, mid, true) == self.ancestor_at(b1, mid, true) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        self.ancestor_at(a1, hi, true).0.cmp(&self.ancestor_at(b1, hi, true).0)
    }

    /// The key of a child of an object-tree node in [`ChildGroup::by_pred`]: the object
    /// of its thread predecessor when that is an operation on an object by the same
    /// thread (`None`, sorted last, otherwise).
    fn pred_obj(&self, x: EventId) -> Option<ObjIdx> {
        let ev = &self.events[x.index()];
        if ev.tnode.parent == BOTTOM {
            return None;
        }
        self.events[ev.tpred.index()].obj
    }

    /// The order of [`ChildGroup::by_pred`]: by the object of the thread predecessor
    /// (`None` last), then by the predecessor's position in that object's tree.
    fn pred_order(&self, x: EventId, y: EventId) -> std::cmp::Ordering {
        let (ox, oy) = (self.pred_obj(x), self.pred_obj(y));
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
        self.events[e.index()].tmax.get(t.index()).copied().unwrap_or(BOTTOM)
    }

    /// `lmax(e, o)` (Def. 7): the last operation on object `o` in `[e]`, or [`BOTTOM`].
    #[inline]
    pub fn lmax(&self, e: EventId, o: ObjIdx) -> EventId {
        if e == BOTTOM {
            return BOTTOM;
        }
        let l = &self.events[e.index()].lmax;
        match l.binary_search_by_key(&o, |&(x, _)| x) {
            Ok(i) => l[i].1,
            Err(_) => BOTTOM,
        }
    }

    /// The `(object, lmax)` pairs of `e`.
    #[inline]
    pub fn lmax_all(&self, e: EventId) -> &[(ObjIdx, EventId)] {
        &self.events[e.index()].lmax
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
        let la = &self.events[a.index()].lmax;
        let lb = &self.events[b.index()].lmax;
        let (mut i, mut j) = (0, 0);
        while i < la.len() && j < lb.len() {
            match la[i].0.cmp(&lb[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    if !self.obj_comparable(la[i].1, lb[j].1) {
                        return true;
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        false
    }

    /// The children of `parent` (or of object `o`'s virtual root if `parent` is
    /// [`BOTTOM`]) in the tree of object `o`, compact and grouped by thread (see
    /// [`Child`], [`ChildGroup`]).
    pub fn obj_children_by_thread(&self, o: ObjIdx, parent: EventId) -> &[ChildGroup] {
        self.children.get(&(o, parent)).map_or(&[], |v| v.as_slice())
    }

    /// The [`Child`] record of `e`, an operation on an object.
    pub fn child_record(&self, e: EventId) -> Child {
        let ev = &self.events[e.index()];
        let tparent = ev.tnode.parent;
        let tpred_obj =
            (tparent != BOTTOM).then(|| &self.events[tparent.index()]).and_then(|p| p.obj.map(|o| (o, p.onode.depth)));
        Child { event: e, thread: ev.thread, tpred: ev.tpred, depth: ev.tnode.depth, tpred_obj }
    }

    /// Children of `parent` (or of object `o`'s virtual root if `parent` is
    /// [`BOTTOM`]) in the tree of object `o`.
    pub fn obj_children(&self, o: ObjIdx, parent: EventId) -> ObjChildren<'_> {
        let head =
            if parent == BOTTOM { self.obj_root_child[o as usize] } else { self.events[parent.index()].first_ochild };
        ObjChildren { u: self, next: head }
    }

    // ----- adding events ----------------------------------------------------------

    /// Find the event `⟨action, preds⟩` of `thread`, or add it. Returns the event and
    /// whether it was new.
    ///
    /// The caller guarantees that the predecessors are live and form a valid history
    /// for the action (the explorer derives them from a configuration).
    pub fn find_or_add(&mut self, thread: ThreadId, action: Action, preds: &Preds) -> (EventId, bool) {
        let tpred = preds.tpred.unwrap_or(BOTTOM);
        let opred = preds.opred.unwrap_or(BOTTOM);
        let key = Key { thread, action: key_action(action), tpred, opred, extra_hash: hash_extra(&preds.extra) };
        if let Some(&e) = self.index.get(&key) {
            if *self.events[e.index()].extra == *preds.extra {
                return (e, false);
            }
        }
        let obj = action.object().map(|o| self.obj_index(o));
        let e = self.alloc();
        // Thread tree: parent is pt(e) when tpred is of the same thread.
        let tparent = if tpred != BOTTOM && self.events[tpred.index()].thread == thread { tpred } else { BOTTOM };
        let tnode = self.make_node(tparent, false);
        let onode = if obj.is_some() { self.make_node(opred, true) } else { TreeNode::default() };
        // tmax / lmax: merge of the predecessors', plus the event itself.
        let (mut tmax, mut lmax, mut merged) = std::mem::take(&mut self.scratch);
        tmax.clear();
        lmax.clear();
        for &p in [tpred, opred].iter().chain(preds.extra.iter()) {
            if p == BOTTOM {
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
        let mut state = ObjState::Fresh;
        if obj.is_some() {
            state = self.state_after(opred).clone();
            // The explorer only adds events whose action is enabled after their history.
            let applied = state.apply(thread, action);
            debug_assert!(applied.is_ok(), "checker bug: event {action:?} impossible after {opred:?}: {applied:?}");
        }
        let ev = Event {
            action,
            thread,
            tpred,
            opred,
            extra: preds.extra.clone().into_boxed_slice(),
            obj,
            state,
            tnode,
            onode,
            tmax: Box::from(tmax.as_slice()),
            lmax: Box::from(lmax.as_slice()),
            first_ochild: BOTTOM,
            next_osibling: BOTTOM,
            live: true,
        };
        self.scratch = (tmax, lmax, merged);
        self.events[e.index()] = ev;
        if let Some(obj) = obj {
            // Link into the object tree's child list.
            let head = if opred == BOTTOM {
                &mut self.obj_root_child[obj as usize]
            } else {
                &mut self.events[opred.index()].first_ochild
            };
            let old = std::mem::replace(head, e);
            self.events[e.index()].next_osibling = old;
            let child = self.child_record(e);
            let groups = self.children.entry((obj, opred)).or_default();
            let gi = match groups.iter().position(|g| g.thread == thread) {
                Some(gi) => {
                    let g = &mut groups[gi];
                    let at = g.children.partition_point(|x| x.key() <= child.key());
                    g.children.insert(at, child);
                    gi
                }
                None => {
                    groups.push(ChildGroup { thread, children: vec![child], by_pred: Vec::new() });
                    groups.len() - 1
                }
            };
            let by_pred = &self.children[&(obj, opred)][gi].by_pred;
            let at = by_pred.partition_point(|&x| self.pred_order(x, e).is_lt());
            self.children.get_mut(&(obj, opred)).expect("just inserted")[gi].by_pred.insert(at, e);
        }
        self.index.insert(key, e);
        (e, true)
    }

    /// Record the outcome a run performed event `e` with (`action`: its label as
    /// executed). Only a read-modify-write's outcome can differ from the label the event
    /// was added with, and only for an event added as a conflicting extension (with the
    /// pending `Rmw(o, true)`) that no run had performed yet: it has no successor in its
    /// object's tree (conflicting extensions are only added after performed events), so
    /// the corrected state after it is seen by every later event.
    pub fn settle(&mut self, e: EventId, action: Action) {
        let ev = &self.events[e.index()];
        if ev.action == action {
            return;
        }
        assert!(
            matches!((ev.action, action), (Action::Rmw(o, true), Action::Rmw(p, false)) if o == p)
                && ev.first_ochild == BOTTOM,
            "unfold bug: event {e:?} {ev:?} performed as {action:?}"
        );
        let mut state = self.state_after(ev.opred).clone();
        let applied = state.apply(ev.thread, action);
        debug_assert!(applied.is_ok(), "checker bug: {action:?} impossible: {applied:?}");
        let ev = &mut self.events[e.index()];
        ev.action = action;
        ev.state = state;
    }

    /// The state of an object after event `e` of its tree (the fresh state for
    /// [`BOTTOM`], the root).
    pub fn state_after(&self, e: EventId) -> &ObjState {
        const FRESH: &ObjState = &ObjState::Fresh;
        if e == BOTTOM {
            FRESH
        } else {
            &self.events[e.index()].state
        }
    }

    fn alloc(&mut self) -> EventId {
        self.live += 1;
        self.peak = self.peak.max(self.live);
        if let Some(e) = self.free.pop() {
            return e;
        }
        let id = u32::try_from(self.events.len()).ok().filter(|&i| i != u32::MAX).expect("more than 2^32-1 events");
        self.events.push(Event {
            action: Action::Exit,
            thread: ThreadId(0),
            tpred: BOTTOM,
            opred: BOTTOM,
            extra: Box::new([]),
            obj: None,
            state: ObjState::Fresh,
            tnode: TreeNode::default(),
            onode: TreeNode::default(),
            tmax: Box::new([]),
            lmax: Box::new([]),
            first_ochild: BOTTOM,
            next_osibling: BOTTOM,
            live: false,
        });
        EventId(id)
    }

    fn make_node(&self, parent: EventId, object_tree: bool) -> TreeNode {
        let depth = self.depth(parent, object_tree) + 1;
        // At most one skip per power of `skip` (≥ 2) dividing a u32 depth: 32.
        let mut skips = [BOTTOM; 32];
        let mut n = 0;
        let mut d = depth;
        let mut dist = self.skip;
        while d.is_multiple_of(self.skip) {
            // Ancestor at depth - dist.
            let target = depth - dist;
            skips[n] = if target == 0 { BOTTOM } else { self.ancestor_at(parent, target, object_tree) };
            n += 1;
            d /= self.skip;
            match dist.checked_mul(self.skip) {
                Some(x) if x <= depth => dist = x,
                _ => break,
            }
        }
        TreeNode { parent, depth, skips: Box::from(&skips[..n]) }
    }

    fn merge_into(
        &self,
        p: EventId,
        tmax: &mut Vec<EventId>,
        lmax: &mut Vec<(ObjIdx, EventId)>,
        merged: &mut Vec<(ObjIdx, EventId)>,
    ) {
        let ev = &self.events[p.index()];
        if tmax.len() < ev.tmax.len() {
            tmax.resize(ev.tmax.len(), BOTTOM);
        }
        for (i, &m) in ev.tmax.iter().enumerate() {
            if m == BOTTOM {
                continue;
            }
            let cur = tmax[i];
            // Events of one thread in a configuration form a chain: keep the deeper.
            if cur == BOTTOM || self.depth(m, false) > self.depth(cur, false) {
                tmax[i] = m;
            }
        }
        if lmax.is_empty() {
            lmax.extend_from_slice(&ev.lmax);
            return;
        }
        merged.clear();
        let (mut i, mut j) = (0, 0);
        while i < lmax.len() || j < ev.lmax.len() {
            if j == ev.lmax.len() || (i < lmax.len() && lmax[i].0 < ev.lmax[j].0) {
                merged.push(lmax[i]);
                i += 1;
            } else if i == lmax.len() || ev.lmax[j].0 < lmax[i].0 {
                merged.push(ev.lmax[j]);
                j += 1;
            } else {
                let (a, b) = (lmax[i].1, ev.lmax[j].1);
                merged.push((lmax[i].0, if self.depth(b, true) > self.depth(a, true) { b } else { a }));
                i += 1;
                j += 1;
            }
        }
        std::mem::swap(lmax, merged);
    }

    // ----- pruning ----------------------------------------------------------------

    /// Free every live event not in `keep` and not a cause of an event in `keep`.
    /// `keep` is a per-slot mark vector (index = event id), extended with causes in
    /// place. Returns the number of events freed.
    pub fn retain(&mut self, keep: &mut Vec<bool>) -> usize {
        keep.resize(self.events.len(), false);
        // Causal closure (explicit stack).
        let mut stack: Vec<EventId> =
            (0..self.events.len()).filter(|&i| keep[i] && self.events[i].live).map(|i| EventId(i as u32)).collect();
        while let Some(e) = stack.pop() {
            let ev = &self.events[e.index()];
            for &p in [ev.tpred, ev.opred].iter().chain(ev.extra.iter()) {
                if p != BOTTOM && !keep[p.index()] {
                    keep[p.index()] = true;
                    stack.push(p);
                }
            }
        }
        let mut freed = 0;
        for (i, &kept) in keep.iter().enumerate() {
            if self.events[i].live && !kept {
                let ev = &self.events[i];
                let key = Key {
                    thread: ev.thread,
                    action: key_action(ev.action),
                    tpred: ev.tpred,
                    opred: ev.opred,
                    extra_hash: hash_extra(&ev.extra),
                };
                self.index.remove(&key);
                let ev = &mut self.events[i];
                ev.live = false;
                ev.tmax = Box::new([]);
                ev.lmax = Box::new([]);
                ev.extra = Box::new([]);
                ev.tnode.skips = Box::new([]);
                ev.onode.skips = Box::new([]);
                ev.state = ObjState::Fresh;
                self.free.push(EventId(i as u32));
                freed += 1;
            }
        }
        self.live -= freed;
        // Unlink freed events from the object trees' child lists. A freed event's
        // children are freed too (they are not causes of anything kept... unless kept,
        // in which case the parent was kept by causal closure).
        for o in 0..self.obj_root_child.len() {
            let head = self.obj_root_child[o];
            self.obj_root_child[o] = self.skip_dead(head);
        }
        let events = &self.events;
        self.children.retain(|&(_, parent), v| {
            if parent != BOTTOM && !events[parent.index()].live {
                return false;
            }
            for g in v.iter_mut() {
                g.children.retain(|c| events[c.event.index()].live);
                g.by_pred.retain(|x| events[x.index()].live);
            }
            v.retain(|g| !g.children.is_empty());
            !v.is_empty()
        });
        for i in 0..self.events.len() {
            if self.events[i].live {
                let c = self.events[i].first_ochild;
                self.events[i].first_ochild = self.skip_dead(c);
                let s = self.events[i].next_osibling;
                self.events[i].next_osibling = self.skip_dead(s);
            }
        }
        freed
    }

    fn skip_dead(&self, mut e: EventId) -> EventId {
        while e != BOTTOM && !self.events[e.index()].live {
            e = self.events[e.index()].next_osibling;
        }
        e
    }

    /// Check the structural invariants (tests call this; O(|U| · depth)).
    ///
    /// # Panics
    /// With a message naming the broken invariant: that is a checker bug.
    pub fn assert_invariants(&self) {
        for (i, ev) in self.events.iter().enumerate() {
            if !ev.live {
                continue;
            }
            let e = EventId(i as u32);
            for &p in [ev.tpred, ev.opred].iter().chain(ev.extra.iter()) {
                assert!(p == BOTTOM || self.is_live(p), "checker bug: {e:?} has a dead predecessor {p:?}");
            }
            assert_eq!(ev.tmax.get(ev.thread.index()), Some(&e), "checker bug: tmax({e:?}, own thread)");
            if let Some(obj) = ev.obj {
                assert_eq!(self.lmax(e, obj), e, "checker bug: lmax({e:?}, own object)");
                assert_eq!(ev.onode.parent, ev.opred, "checker bug: object-tree parent of {e:?}");
            }
            assert_eq!(ev.tnode.depth, self.depth(ev.tnode.parent, false) + 1, "checker bug: depth of {e:?}");
            // Skip pointers point at the right depths.
            for tree in [false, true] {
                if tree && ev.obj.is_none() {
                    continue;
                }
                let node = if tree { &ev.onode } else { &ev.tnode };
                let mut dist = self.skip;
                for &s in node.skips.iter() {
                    assert_eq!(self.depth(s, tree), node.depth - dist, "checker bug: skip pointer of {e:?}");
                    dist = dist.saturating_mul(self.skip);
                }
            }
            // Causal predecessors precede.
            for &p in [ev.tpred, ev.opred].iter().chain(ev.extra.iter()) {
                if p != BOTTOM {
                    assert!(self.le(p, e), "checker bug: {p:?} is a predecessor of {e:?} but not ≤");
                }
            }
        }
    }
}

/// Iterator over the children of a node in an object tree.
#[derive(Debug)]
pub struct ObjChildren<'a> {
    u: &'a Unfolding,
    next: EventId,
}

impl Iterator for ObjChildren<'_> {
    type Item = EventId;
    fn next(&mut self) -> Option<EventId> {
        while self.next != BOTTOM {
            let e = self.next;
            let ev = &self.u.events[e.index()];
            self.next = ev.next_osibling;
            if ev.live {
                return Some(e);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Naive reference: walk parents.
    fn naive_le(u: &Unfolding, a: EventId, mut b: EventId, object_tree: bool) -> bool {
        loop {
            if a == b {
                return true;
            }
            if b == BOTTOM {
                return a == BOTTOM;
            }
            b = u.node(b, object_tree).parent;
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
            let (e, new) = u.find_or_add(t, Action::Write(ObjId(1)), &Preds { tpred, opred: parent, extra: vec![] });
            if new {
                nodes.push(e);
            }
        }
        (u, nodes)
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
            let (e, _) =
                u.find_or_add(ThreadId(0), Action::Write(ObjId(9)), &Preds { tpred: last, opred: last, extra: vec![] });
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
        let (r1, _) =
            u.find_or_add(ThreadId(1), Action::Unlock(m), &Preds { tpred: Some(a1), opred: Some(a1), extra: vec![] });
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
