//! Brute force, written independently of the engine's explorers and of `trace_key`:
//! enumerate every schedule of a program through `Program::run` and `SchedState` only,
//! and compute each maximal execution's canonical Mazurkiewicz form by hand.
#![allow(dead_code)]

use std::collections::BTreeSet;
use unfold_engine::model::Model;
use unfold_engine::{
    Action, End, Execution, Independence, ObjId, Program, ProgramError, RunRequest, SchedState, Step, ThreadId,
};

/// One position in an object's history: a single access, or (read-read mode) a set of
/// consecutive reads of one class.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Slot {
    /// (thread, index of the step in that thread's sequence)
    One(ThreadId, usize),
    /// Consecutive reads of one class (see `read_class`), order forgotten.
    Reads(u8, BTreeSet<(ThreadId, usize)>),
}

/// Canonical form of a trace: per-thread action sequences, per-location histories. A
/// location is an object in all-dependent mode, and a byte of an object in read-read
/// mode (where accesses to disjoint bytes of a memory word commute; every other
/// operation touches all eight bytes of its object).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Canon {
    pub threads: Vec<(ThreadId, Vec<(u8, String)>)>,
    pub objects: Vec<((ObjId, u8), Vec<Slot>)>,
}

/// An orderable encoding of an action (its debug form names the operation, its object
/// and its outcome).
pub fn akey(a: Action) -> (u8, String) {
    (0, format!("{a:?}"))
}

/// Operations that commute with each other in read-read mode, by class: memory reads,
/// spin-waits and weak unlocks of a mutex (which move no release count: they commute with
/// the waits on the mutex) (1), and the read side of a read-write lock (2). A spin-wait may watch a
/// read-write lock (a try retry loop): it does not commute with the lock's read side (a
/// read unlock moves what it waits on), so reads of the two classes do not commute.
fn read_class(a: Action) -> Option<u8> {
    match a {
        Action::Read(..) | Action::Await(..) | Action::Unlock(_, false) => Some(1),
        Action::RdLock(_) | Action::TryRdLock(..) | Action::RwUnlock(_, false) => Some(2),
        _ => None,
    }
}

pub fn canon(steps: &[Step], mode: Independence) -> Canon {
    let mut threads: std::collections::BTreeMap<ThreadId, Vec<(u8, String)>> = Default::default();
    let mut objects: std::collections::BTreeMap<(ObjId, u8), Vec<Slot>> = Default::default();
    for s in steps {
        let seq = threads.entry(s.thread).or_default();
        let idx = seq.len();
        seq.push(akey(s.action));
        // A spin-wait on several locations is a read of each of them.
        let locations = s.action.objects().flat_map(|o| {
            let bits = match (mode, s.action) {
                (Independence::AllDependent, _) => 1,
                (_, Action::Await(w)) => w.iter().find(|e| e.0 == o).expect("a watched object").1.bits(),
                (_, Action::Read(_, b) | Action::Write(_, b) | Action::Rmw(_, b, _)) => b.bits(),
                _ => 0xff,
            };
            (0..8u8).filter(move |k| bits & (1 << k) != 0).map(move |k| (o, k))
        });
        for loc in locations {
            let hist = objects.entry(loc).or_default();
            let class = read_class(s.action);
            if let (Some(class), Independence::ReadReadIndependent) = (class, mode) {
                if let Some(Slot::Reads(c, set)) = hist.last_mut() {
                    if *c == class {
                        set.insert((s.thread, idx));
                        continue;
                    }
                }
                hist.push(Slot::Reads(class, [(s.thread, idx)].into_iter().collect()));
            } else {
                hist.push(Slot::One(s.thread, idx));
            }
        }
    }
    Canon { threads: threads.into_iter().collect(), objects: objects.into_iter().collect() }
}

/// The result of brute force.
#[derive(Debug, Default)]
pub struct Brute {
    /// Canonical forms of all maximal executions.
    pub traces: BTreeSet<Canon>,
    /// Number of maximal schedules.
    pub schedules: u64,
    /// Traces with a defect.
    pub defective: BTreeSet<Canon>,
    /// Traces ending in a deadlock.
    pub deadlocks: BTreeSet<Canon>,
    /// Traces ending in a deadlock that is a defect: no blocked thread stopped on a
    /// failed assumption (`Execution::assumed`, a spin's included: `Awaited::assume`).
    pub stuck: BTreeSet<Canon>,
    /// The messages of every defect met.
    pub messages: BTreeSet<String>,
    /// The most threads blocked at the end of one execution on waits whose first object is
    /// the same (pollers of one mutex that wait forever; failed assumptions not counted).
    pub max_blocked_waiters: usize,
}

/// Every schedule, or `None` if there are more than `cap`.
pub fn brute_force(p: &mut dyn Program, mode: Independence, cap: u64) -> Option<Brute> {
    let mut res = Brute::default();
    let mut out = Execution::default();
    let mut stack: Vec<Vec<ThreadId>> = vec![Vec::new()];
    while let Some(prefix) = stack.pop() {
        let req = RunRequest { replay: &prefix, sleep: &[], independence: mode, max_steps: 10_000 };
        p.run(&req, &mut out).expect("brute force run");
        assert!(matches!(out.end, End::Finished | End::Deadlock { .. }), "brute force: {:?}", out.end);
        res.schedules += 1;
        if res.schedules > cap {
            return None;
        }
        let c = canon(&out.steps, mode);
        if !out.defects.is_empty() {
            res.defective.insert(c.clone());
            res.messages.extend(out.defects.iter().map(|d| d.message.clone()));
        }
        if let End::Deadlock { blocked } = &out.end {
            res.deadlocks.insert(c.clone());
            if out.assumed.is_empty() {
                res.stuck.insert(c.clone());
            }
            // Waits forever: not a failed assumption.
            let firsts: Vec<ObjId> = blocked
                .iter()
                .filter(|(t, _)| !out.assumed.contains(t))
                .filter_map(|(_, a)| match a {
                    Action::Await(w) => Some(w.first()),
                    _ => None,
                })
                .collect();
            let most = firsts.iter().map(|o| firsts.iter().filter(|x| *x == o).count()).max().unwrap_or(0);
            res.max_blocked_waiters = res.max_blocked_waiters.max(most);
        }
        res.traces.insert(c);
        // Branch at every state after the prefix.
        let mut st = SchedState::new(out.first);
        for (k, s) in out.steps.iter().enumerate() {
            if k >= prefix.len() {
                for t in st.threads().collect::<Vec<_>>() {
                    if t != s.thread && st.enabled(t) {
                        let mut np: Vec<ThreadId> = out.steps[..k].iter().map(|s| s.thread).collect();
                        np.push(t);
                        stack.push(np);
                    }
                }
            }
            st.apply(k, s).expect("brute force: step rejected by SchedState");
        }
    }
    Some(res)
}

/// Run every maximal schedule of `p` (up to `cap` of them), calling `f` on each
/// execution. Returns false if there were more than `cap`.
pub fn each_schedule(p: &mut dyn Program, cap: u64, mut f: impl FnMut(&Execution)) -> bool {
    let mut out = Execution::default();
    let mut stack: Vec<Vec<ThreadId>> = vec![Vec::new()];
    let mut n = 0;
    while let Some(prefix) = stack.pop() {
        let req =
            RunRequest { replay: &prefix, sleep: &[], independence: Independence::AllDependent, max_steps: 10_000 };
        p.run(&req, &mut out).expect("brute force run");
        n += 1;
        if n > cap {
            return false;
        }
        f(&out);
        let mut st = SchedState::new(out.first);
        for (k, s) in out.steps.iter().enumerate() {
            if k >= prefix.len() {
                for t in st.threads().collect::<Vec<_>>() {
                    if t != s.thread && st.enabled(t) {
                        let mut np: Vec<ThreadId> = out.steps[..k].iter().map(|s| s.thread).collect();
                        np.push(t);
                        stack.push(np);
                    }
                }
            }
            st.apply(k, s).expect("brute force: step rejected by SchedState");
        }
    }
    true
}

/// When a model's run hands the explorer's work during the run its turns, in the orders
/// [`Program::run_overlapped`] allows besides the model's default (all of the work
/// first).
#[derive(Clone, Copy, Debug)]
pub enum Order {
    /// The run ends before the work starts.
    After,
    /// The replayed steps are handed over at once, then the others one at a time, with
    /// one part of the work between two (the C frontend's order when the explorer keeps
    /// up with the program).
    Between,
}

/// A model run in another [`Order`].
pub struct Overlap(pub Model, pub Order);

impl Program for Overlap {
    fn run(&mut self, req: &RunRequest<'_>, out: &mut Execution) -> Result<(), ProgramError> {
        self.0.run(req, out)
    }

    fn run_overlapped(
        &mut self,
        req: &RunRequest<'_>,
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
        meanwhile: &mut dyn FnMut() -> bool,
    ) -> Result<(), ProgramError> {
        let ran = self.0.run(req, out);
        let mut more = true;
        if matches!(self.1, Order::Between) {
            // Every step but the last goes to `early` (the last one only comes in `out`).
            let last = out.steps.len().saturating_sub(1);
            let replayed = req.replay.len().min(last);
            if replayed > 0 {
                early(&out.steps[..replayed]);
            }
            for i in replayed + 1..=last {
                early(&out.steps[..i]);
                if more {
                    more = meanwhile();
                }
            }
        }
        while more && meanwhile() {}
        ran
    }
}
