//! Source-DPOR: JACM'17 Algorithm 1 (source sets + sleep sets), with the lock
//! extension of Algorithm 3 (§8.1.1).
//!
//! The recursive `Explore(E, Sleep)` becomes the explicit stack of
//! `dpor` module. Race detection (Alg. 1 lines 5–9) is done once per execution
//! over the events that are new in it (the events of the replayed prefix were analysed
//! with the same prefix when they were first executed, which gives the same `v`): for
//! each reversible race `e ⋖ e'`, `v = notdep(e, E).e'` with `E` the prefix up to `e'`,
//! and if no initial of `v` after `pre(E, e)` is in `backtrack(pre(E, e))`, one is
//! added. Which initial is left open by the paper; none when an initial is asleep at
//! `pre(E, e)` (adding it would explore nothing: see `ensure_initial`), else the thread
//! of `e'` itself when it is an initial, else the first initial (with this choice
//! lastzero(5) takes 79 executions and Indexer(12) 8, JACM'17 Tables 3 and 4's figures;
//! taking the first initial gave 97 on lastzero(5), and preferring an awake initial to a
//! sleeping one 11 on Indexer(12)).
//!
//! Locks and other blocking objects (Alg. 3 lines 2–8, generalised): at every state, for
//! every thread `p` whose next operation is a request ([`Action::request`]: a lock, a
//! semaphore wait, a condition wake, a barrier leave, or their try/timed variants) —
//! enabled or blocked — with `e` the last event before which the request would have
//! been granted (`Analysis::grantable`; for a mutex, the last acquire), the
//! same test is made with `v = notdep(e, E).p`. Only the first state of each
//! (episode of `p`, `e`) pair matters: later states only lengthen `v` with events
//! independent of `p`'s request, and the initials only grow.
//!
//! Departure: the runtime chooses the first branch of a new state (the shared default
//! policy), which is a valid "arbitrary r" of line 3.

use super::dpor::{self, Driver, Kind, Settled};
use super::{Cancel, ExploreConfig, ExploreError, Explorer, Session, Stats};
use crate::action::Action;
use crate::ids::ThreadId;
use crate::program::Execution;
use rustc_hash::FxHashSet as HashSet;

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
    let mut initials = std::mem::take(&mut d.initials);
    d.v.initials(&mut initials);
    let node = &d.stack[e];
    let awake = |q: &ThreadId| !node.sleep.iter().any(|&(u, _)| u == *q);
    // An initial asleep at `E'` is a valid choice of line 9 that explores nothing: every
    // trace starting with it from here is explored from the branch that put it to sleep,
    // and `E'.v` is one of them. Choosing an awake initial instead runs into the sleeping
    // one later and is sleep-set blocked (POPL'05 Indexer with 12 threads: 11 executions,
    // 3 blocked, against 8).
    if !initials.iter().any(|q| node.backtrack.contains(q) || !awake(q)) {
        let last = d.v.evs.last().map(|&(t, _)| t);
        let pick = last.filter(|q| initials.contains(q)).or_else(|| initials.first().copied());
        if let Some(q) = pick {
            d.add_backtrack(e, q, stats);
        }
    }
    d.initials = initials;
}

/// Analyse the run `exec`, whose events from `fresh` on are new. False when `cancel`
/// fired first: the analysis is then unfinished, and the exploration must stop.
pub(crate) fn analyse(
    d: &mut Driver,
    exec: &Execution,
    fresh: usize,
    stats: &mut Stats,
    cancel: Option<&Cancel>,
) -> bool {
    // A long run's analysis can take seconds: `cancel` (made to be cheap) is asked
    // before each item.
    let cancelled = || cancel.is_some_and(Cancel::is_set);
    // Races whose second event is new.
    let races = std::mem::take(&mut d.an.races);
    for &(e, j) in &races {
        if (j as usize) < fresh {
            continue;
        }
        if cancelled() {
            d.an.races = races;
            return false;
        }
        d.build_v(e as usize, j as usize, Some(j as usize));
        ensure_initial(d, e as usize, stats);
    }
    d.an.races = races;
    // Request races (Alg. 3 lines 2–8, generalised: see `dpor`'s module documentation).
    // The last grantable event only changes when p's pending action changes or an
    // event touches its object, so it is looked up only then.
    // Per thread: its pending action and the number of its episode (a run of states
    // with one pending action).
    let mut episode: Vec<(Option<Action>, u32)> = Vec::new();
    let mut work: Vec<(ThreadId, usize, Action, u32)> = Vec::new();
    dpor::walk_states(exec, 0, |k, st| {
        // The step just taken, whose objects may have changed what p's request waits on.
        let touched = k.checked_sub(1).map(|i| exec.steps[i].action);
        let touches = |a: Action| touched.is_some_and(|b| b.objects().any(|x| a.touches(x)));
        for p in st.threads() {
            let pend = st.pending(p);
            if episode.len() <= p.index() {
                episode.resize(p.index() + 1, (None, 0));
            }
            let changed = episode[p.index()].0 != pend;
            // A thread that moved and asks for the same again (two waits on a semaphore
            // in a row) starts a new episode too: its request's clock has grown, so what
            // its last episode settled does not carry over.
            let moved = k.checked_sub(1).is_some_and(|i| exec.steps[i].thread == p);
            if changed || moved {
                episode[p.index()] = (pend, episode[p.index()].1 + 1);
            }
            let Some(a) = pend else { continue };
            if a.request().is_none() || k <= fresh || !(changed || touches(a)) {
                continue;
            }
            work.push((p, k, a, episode[p.index()].1));
        }
    });
    let mut clock = std::mem::take(&mut d.clock);
    // Per thread: the episode, what its scans settled, and the events whose race with
    // it was taken. Only the first state of each (episode of p, e) pair matters: later
    // states only lengthen `v` with events independent of p's request. (A request
    // pending through a long run of read-side events, a writer behind pollers, races
    // with each of them: taking each once, and scanning only what a state may have
    // changed, keeps the analysis of a long run from growing with its cube.)
    let mut taken: Vec<(u32, Settled, HashSet<usize>)> = Vec::new();
    let mut races = Vec::new();
    for (p, k, a, ep) in work {
        if cancelled() {
            d.clock = clock;
            return false;
        }
        if taken.len() <= p.index() {
            taken.resize_with(p.index() + 1, || (0, Settled::new(cancel.cloned()), HashSet::default()));
        }
        let (episode, settled, seen) = &mut taken[p.index()];
        if *episode != ep {
            *episode = ep;
            settled.reset();
            seen.clear();
        }
        let local = d.an.pending_clock(p, k, &mut clock);
        d.an.grantable(p, a, k, &clock, Some(settled), &mut races);
        if cancelled() {
            d.clock = clock;
            return false;
        }
        races.retain(|&e| seen.insert(e));
        for &e in &races {
            d.build_v(e, k, None);
            d.v.push_request(d.mode, p, a, &clock, local);
            ensure_initial(d, e, stats);
        }
    }
    d.clock = clock;
    true
}
