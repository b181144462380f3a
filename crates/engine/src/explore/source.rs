//! Source-DPOR: JACM'17 Algorithm 1 (source sets + sleep sets), with the lock
//! extension of Algorithm 3 (§8.1.1).
//!
//! The recursive `Explore(E, Sleep)` becomes the explicit stack of
//! `dpor` module. Race detection (Alg. 1 lines 5–9) is done once per execution
//! over the events that are new in it (the events of the replayed prefix were analysed
//! with the same prefix when they were first executed, which gives the same `v`): for
//! each reversible race `e ⋖ e'`, `v = notdep(e, E).e'` with `E` the prefix up to `e'`,
//! and if no initial of `v` after `pre(E, e)` is in `backtrack(pre(E, e))`, one is
//! added. Which initial is left open by the paper; we take the thread of `e'` itself
//! when it is an initial and not asleep, else the first initial that is not asleep
//! (with this choice lastzero(5) takes 79 executions, JACM'17 Table 4's figure; taking
//! the first initial gave 97).
//!
//! Locks (Alg. 3 lines 2–8): at every state, for every thread `p` whose next operation
//! is an acquire of `l` — enabled or blocked — with `e` the last acquire of `l`, the
//! same test is made with `v = notdep(e, E).p`. Only the first state of each
//! (episode of `p`, `e`) pair matters: later states only lengthen `v` with events
//! independent of `p`'s lock, and the initials only grow. A successful trylock counts
//! as an acquire, and a pending trylock as a request (it may then succeed).
//!
//! Departure: the runtime chooses the first branch of a new state (the shared default
//! policy), which is a valid "arbitrary r" of line 3.

use super::dpor::{self, Driver, Kind};
use super::{ExploreConfig, ExploreError, Explorer, Session, Stats};
use crate::action::Action;
use crate::ids::{ObjId, ThreadId};
use crate::program::Execution;
use std::collections::HashMap;

/// Source-DPOR (JACM'17 Alg. 1 + Alg. 3).
#[derive(Debug, Default)]
pub struct SourceDpor;

impl SourceDpor {
    /// A source-DPOR explorer.
    pub fn new(_config: &ExploreConfig) -> Self {
        SourceDpor
    }
}

impl Explorer for SourceDpor {
    fn explore(&mut self, session: &mut Session<'_>) -> Result<(), ExploreError> {
        dpor::explore(Kind::Source, session)
    }
}

/// Alg. 1 lines 7–9: make sure `backtrack(E_e)` holds an initial of `d.v`.
fn ensure_initial(d: &mut Driver, e: usize, stats: &mut Stats) {
    d.v.finish();
    let mut initials = std::mem::take(&mut d.initials);
    d.v.initials(&mut initials);
    let node = &d.stack[e];
    if !initials.iter().any(|q| node.backtrack.contains(q)) {
        let last = d.v.evs.last().map(|&(t, _)| t);
        let awake = |q: &ThreadId| !node.sleep.iter().any(|&(u, _)| u == *q);
        let pick = last
            .filter(|q| initials.contains(q) && awake(q))
            .or_else(|| initials.iter().copied().find(awake))
            .or_else(|| initials.first().copied());
        if let Some(q) = pick {
            d.add_backtrack(e, q, stats);
        }
    }
    d.initials = initials;
}

/// The mutex an action requests to acquire, if any (lock or trylock).
pub(crate) fn acquire_request(a: Action) -> Option<ObjId> {
    match a {
        Action::Lock(m) | Action::TryLock(m, _) => Some(m),
        _ => None,
    }
}

pub(crate) fn analyse(d: &mut Driver, exec: &Execution, fresh: usize, stats: &mut Stats) {
    // Races whose second event is new.
    let races = std::mem::take(&mut d.an.races);
    for &(e, j) in &races {
        if (j as usize) < fresh {
            continue;
        }
        d.build_v(e as usize, j as usize, Some(j as usize));
        ensure_initial(d, e as usize, stats);
    }
    d.an.races = races;
    // Lock races (Alg. 3 lines 2–8).
    let mut last_acq: HashMap<ObjId, usize> = HashMap::new();
    // Per thread: (pending action, last e handled for this episode).
    let mut episode: Vec<(Option<Action>, Option<usize>)> = Vec::new();
    let mut work: Vec<(usize, ThreadId, usize, Action)> = Vec::new();
    dpor::walk_states(exec, 0, |k, st| {
        for p in st.threads() {
            let pend = st.pending(p);
            if episode.len() <= p.index() {
                episode.resize(p.index() + 1, (None, None));
            }
            if episode[p.index()].0 != pend {
                episode[p.index()] = (pend, None);
            }
            let Some(a) = pend else { continue };
            let Some(l) = acquire_request(a) else {
                continue;
            };
            let Some(&e) = last_acq.get(&l) else { continue };
            if k <= fresh || episode[p.index()].1 == Some(e) {
                continue;
            }
            episode[p.index()].1 = Some(e);
            if exec.steps[e].thread != p {
                work.push((e, p, k, a));
            }
        }
        if let Some(s) = exec.steps.get(k) {
            if s.action.is_acquire() {
                last_acq.insert(s.action.object().expect("acquire has an object"), k);
            }
        }
    });
    for (e, p, k, a) in work {
        lock_race(d, e, p, k, a, stats);
    }
}

/// The lock race of `e` (an acquire) with `p`'s request `a` pending at state `k`.
fn lock_race(d: &mut Driver, e: usize, p: ThreadId, k: usize, a: Action, stats: &mut Stats) {
    let mut clock = std::mem::take(&mut d.clock);
    let local = d.an.pending_clock(p, k, &mut clock);
    let et = d.an.evs[e];
    if clock[et.thread.index()] > et.local {
        // p itself happens after e: its request cannot move before e.
        d.clock = clock;
        return;
    }
    d.build_v(e, k, None);
    d.v.push(p, a, &clock, local);
    ensure_initial(d, e, stats);
    d.clock = clock;
}
