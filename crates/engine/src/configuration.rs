//! A configuration of the unfolding held as the sequence that built it (QPOR §2, Def. 2).
//!
//! A configuration is a causally closed, conflict-free set of events. QPOR's explorer
//! holds its branch `C` as the sequence of events in the order they ran, which is also
//! a replay for the runtime, plus the *frontier* every query needs in O(1): the last
//! event of each thread, the event that created each thread, the last operation on each
//! object, and each event's position in the sequence (membership). `push` and `pop`
//! keep all of it in step, in O(1) each; the explorer only ever pushes an event whose
//! immediate predecessors are in the configuration and pops the last one.

use crate::action::Action;
use crate::ids::{EventId, ThreadId};
use crate::unfolding::{ObjIdx, Unfolding, BOTTOM};

/// A configuration `C` as a sequence of events of one [`Unfolding`], with its frontier.
#[derive(Debug, Default, Clone)]
pub struct Configuration {
    // invariant: seq is a linearisation of a configuration of the unfolding (every
    // event's immediate predecessors come before it); sched[i] = thread(seq[i]).
    seq: Vec<EventId>,
    sched: Vec<ThreadId>,
    // invariant: last[t] = the last event of thread t in seq (None if none, or t out of
    // range); creator[t] = the create event of thread t in seq; obj_last[o] = the last
    // operation on object o in seq.
    last: Vec<Option<EventId>>,
    creator: Vec<Option<EventId>>,
    obj_last: Vec<Option<EventId>>,
    // invariant: pos[seq[i]] == i; NOT_IN (or out of range) for other events.
    pos: Vec<u32>,
}

/// The position of an event outside the configuration.
const NOT_IN: u32 = u32::MAX;

fn set_slot(v: &mut Vec<Option<EventId>>, i: usize, e: EventId) {
    if v.len() <= i {
        v.resize(i + 1, None);
    }
    v[i] = Some(e);
}

impl Configuration {
    /// The empty configuration.
    pub fn new() -> Self {
        Configuration::default()
    }

    /// Number of events.
    pub fn len(&self) -> usize {
        self.seq.len()
    }

    /// True for the empty configuration.
    pub fn is_empty(&self) -> bool {
        self.seq.is_empty()
    }

    /// The events, in the order they were pushed.
    pub fn events(&self) -> &[EventId] {
        &self.seq
    }

    /// The thread of each event, in order: a replay of the configuration.
    pub fn schedule(&self) -> &[ThreadId] {
        &self.sched
    }

    /// Whether `e` is in the configuration ([`BOTTOM`], the root, always is).
    #[inline]
    pub fn contains(&self, e: EventId) -> bool {
        e == BOTTOM || self.position(e).is_some()
    }

    /// The position of `e` in the sequence, if it is in the configuration.
    #[inline]
    pub fn position(&self, e: EventId) -> Option<usize> {
        if e == BOTTOM {
            return None;
        }
        self.pos.get(e.index()).copied().filter(|&p| p != NOT_IN).map(|p| p as usize)
    }

    /// The last event of thread `t`, if the thread has one.
    #[inline]
    pub fn last_of(&self, t: ThreadId) -> Option<EventId> {
        self.last.get(t.index()).copied().flatten()
    }

    /// The last event of every thread (index = thread), `None` for none.
    pub fn last_per_thread(&self) -> &[Option<EventId>] {
        &self.last
    }

    /// The event that created thread `t`, if it is in the configuration.
    #[inline]
    pub fn creator_of(&self, t: ThreadId) -> Option<EventId> {
        self.creator.get(t.index()).copied().flatten()
    }

    /// The last operation on object `o`, if there is one.
    #[inline]
    pub fn obj_last_of(&self, o: ObjIdx) -> Option<EventId> {
        self.obj_last.get(o as usize).copied().flatten()
    }

    /// Append `e`, an event of `u` whose immediate predecessors are in the
    /// configuration.
    pub fn push(&mut self, u: &Unfolding, e: EventId) {
        let ev = u.event(e);
        let (t, action, obj) = (ev.thread, u.action(e), ev.obj);
        debug_assert!(
            self.contains(ev.tpred) && self.contains(ev.opred) && u.extra(e).iter().all(|&p| self.contains(p)),
            "checker bug: pushed {e:?} before its causes"
        );
        set_slot(&mut self.last, t.index(), e);
        if let Action::Create(c) = action {
            set_slot(&mut self.creator, c.index(), e);
        }
        if let Some(obj) = obj {
            set_slot(&mut self.obj_last, obj as usize, e);
        }
        if self.pos.len() <= e.index() {
            self.pos.resize(e.index() + 1, NOT_IN);
        }
        self.pos[e.index()] = self.seq.len() as u32;
        self.seq.push(e);
        self.sched.push(t);
    }

    /// Remove the last event, restoring the frontier.
    ///
    /// # Panics
    /// On an empty configuration (a checker bug).
    pub fn pop(&mut self, u: &Unfolding) -> EventId {
        let e = self.seq.pop().expect("checker bug: pop on an empty configuration");
        self.sched.pop();
        let ev = u.event(e);
        let t = ev.thread;
        let prev = (ev.tpred != BOTTOM && u.event(ev.tpred).thread == t).then_some(ev.tpred);
        self.last[t.index()] = prev;
        if let Action::Create(c) = u.action(e) {
            self.creator[c.index()] = None;
        }
        if let Some(obj) = ev.obj {
            self.obj_last[obj as usize] = (ev.opred != BOTTOM).then_some(ev.opred);
        }
        self.pos[e.index()] = NOT_IN;
        e
    }

    /// Check the invariants against `u` (tests call this; O(|C| · |frontier|)).
    ///
    /// # Panics
    /// With a message naming the broken invariant: that is a checker bug.
    pub fn assert_invariants(&self, u: &Unfolding) {
        let mut last: Vec<Option<EventId>> = Vec::new();
        let mut creator: Vec<Option<EventId>> = Vec::new();
        let mut obj_last: Vec<Option<EventId>> = Vec::new();
        for (i, &e) in self.seq.iter().enumerate() {
            let ev = u.event(e);
            assert_eq!(self.position(e), Some(i), "checker bug: position of {e:?}");
            assert_eq!(self.sched[i], ev.thread, "checker bug: schedule at {i}");
            for p in [ev.tpred, ev.opred].iter().chain(u.extra(e)) {
                assert!(
                    *p == BOTTOM || self.position(*p).is_some_and(|q| q < i),
                    "checker bug: {e:?} at {i} before its cause {p:?}"
                );
            }
            for &f in &self.seq[..i] {
                assert!(!u.conflict(e, f), "checker bug: {e:?} and {f:?} in conflict in one configuration");
            }
            set_slot(&mut last, ev.thread.index(), e);
            if let Action::Create(c) = u.action(e) {
                set_slot(&mut creator, c.index(), e);
            }
            if let Some(obj) = ev.obj {
                set_slot(&mut obj_last, obj as usize, e);
            }
        }
        let same = |a: &[Option<EventId>], b: &[Option<EventId>]| {
            (0..a.len().max(b.len())).all(|i| a.get(i).copied().flatten() == b.get(i).copied().flatten())
        };
        assert!(same(&last, &self.last), "checker bug: last event per thread");
        assert!(same(&creator, &self.creator), "checker bug: creator per thread");
        assert!(same(&obj_last, &self.obj_last), "checker bug: last operation per object");
        let members = self.pos.iter().filter(|&&p| p != NOT_IN).count();
        assert_eq!(members, self.seq.len(), "checker bug: membership of events not in the sequence");
    }
}
