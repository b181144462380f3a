//! Optimal-DPOR: JACM'17 Algorithm 2 (wakeup trees, §6–7) with the lock extension of
//! Algorithm 4 (§8.1.3).
//!
//! At the end of every execution (Alg. 2 line 2), for every reversible race `e ⋖ e'`
//! with `E' = pre(E, e)` and `v = notdep(e, E).e'`, the sequence `v` is inserted into
//! `wut(E')` unless a thread of `sleep(E')` is a weak initial of `v` (lines 3–7). For
//! locks (Alg. 4 lines 8–14): for every acquire `e` of `l`, with `w = notdep(e, E)`,
//! for every thread `p` whose next action after `E'.w` requests `l` (executed later
//! in `E`, or still blocked at the end), `v = w.p` is treated the same way.
//!
//! Exploration (lines 15–21) follows the `≺`-least branch of `wut(E)`: the whole
//! leftmost path of the tree is replayed at once; the stack node reached by each step
//! of the path has that step's subtree as its wakeup tree (one forest for the whole
//! stack, see `dpor::WakeupForest`); after the path the runtime continues with the shared
//! default policy and the sleep set at the end of the path.
//!
//! Departures: races are analysed at sleep-set-blocked ends too (Alg. 2 never reaches
//! one without blocking; with locks it can, and analysing the races of the explored
//! prefix only adds sequences the sleep-set test accepts). As in the paper, every race
//! of the execution is analysed, including those inside the replayed prefix: `v`
//! contains the whole rest of the execution, so a prefix race analysed again after a
//! different suffix can give a new sequence. (Restricting the analysis to races with a
//! new second event, as source-DPOR may, loses traces: random program 228 of the
//! larger shape has 27 190 traces and the restricted analysis found 27 125; the case is
//! kept as the regression test `optimal_regression_prefix_races`.)

use super::dpor::{self, Driver, Kind};
use super::{ExploreConfig, ExploreError, Explorer, Session, Stats};
use crate::action::{Action, ObjKind};
use crate::ids::{ObjId, ThreadId};
use crate::program::Execution;
use rustc_hash::FxHashMap as HashMap;

/// Optimal-DPOR (JACM'17 Alg. 2 + Alg. 4).
#[derive(Debug, Default)]
pub struct OptimalDpor;

impl OptimalDpor {
    /// An optimal-DPOR explorer.
    pub fn new(_config: &ExploreConfig) -> Self {
        OptimalDpor
    }
}

impl Explorer for OptimalDpor {
    fn explore(&mut self, session: &mut Session<'_>) -> Result<(), ExploreError> {
        dpor::explore(Kind::Optimal, session)
    }
}

/// Lines 6–7: insert `d.v` into `wut(E_e)` unless `sleep(E_e) ∩ WI[E_e](v) ≠ ∅`.
fn consider(d: &mut Driver, e: usize, stats: &mut Stats) {
    let mode = d.mode;
    let node = &d.stack[e];
    if node.sleep.iter().any(|&(q, a)| d.v.is_weak_initial(mode, q, a)) {
        return;
    }
    let root = d.stack[e].wut;
    let added = d.forest.insert(root, mode, &d.v);
    d.wakeup_added += added as u64;
    let _ = stats;
}

pub(crate) fn analyse(d: &mut Driver, exec: &Execution, stats: &mut Stats) {
    let n = exec.steps.len();
    let races = std::mem::take(&mut d.an.races);
    for &(e, j) in &races {
        d.build_v(e as usize, n, Some(j as usize));
        consider(d, e as usize, stats);
    }
    d.an.races = races;
    // Request races (Alg. 4 lines 8–14, generalised: see `dpor`'s module documentation).
    let mut clock = std::mem::take(&mut d.clock);
    // Memory accesses block nobody unless a thread spin-waits (Action::Await).
    let awaits = exec.steps.iter().any(|s| matches!(s.next, Some(Action::Await(..))))
        || d.final_pending.iter().any(|a| matches!(a, Some(Action::Await(..))));
    // The threads that request each object at some point (an event or the pending action
    // at the end): p's next action after e can only be a request on one of e's objects if
    // p requests it somewhere, so the other threads are skipped without a search for their
    // next action (that search, for every event and every thread, was most of this
    // function's time).
    let words = d.an.nt.max(d.final_pending.len()).div_ceil(64);
    let mut slots: HashMap<ObjId, usize> = HashMap::default();
    let mut bits: Vec<u64> = Vec::new();
    let requests = d.an.evs.iter().map(|ev| (ev.thread.index(), ev.action.pending_form()));
    let pending = d.final_pending.iter().enumerate().filter_map(|(pi, a)| a.map(|a| (pi, a)));
    for (pi, a) in requests.chain(pending) {
        if a.request().is_none() {
            continue;
        }
        for o in a.objects() {
            let base = *slots.entry(o).or_insert_with(|| {
                bits.resize(bits.len() + words, 0);
                bits.len() - words
            });
            bits[base + pi / 64] |= 1 << (pi % 64);
        }
    }
    let mut cand = vec![0u64; words];
    let mut threads = Vec::new();
    for e in 0..n {
        let ev = d.an.evs[e];
        match ev.action.obj_kind() {
            None => continue,
            Some(ObjKind::Memory) if !awaits => continue,
            _ => {}
        }
        cand.iter_mut().for_each(|w| *w = 0);
        for o in ev.action.objects() {
            if let Some(&base) = slots.get(&o) {
                cand.iter_mut().zip(&bits[base..base + words]).for_each(|(c, b)| *c |= b);
            }
        }
        threads.clear();
        for (w, &m) in cand.iter().enumerate() {
            let mut m = m;
            while m != 0 {
                threads.push(w * 64 + m.trailing_zeros() as usize);
                m &= m - 1;
            }
        }
        for &pi in &threads {
            let p = ThreadId(pi as u16);
            if p == ev.thread {
                continue;
            }
            // p's next action after E'.w: its first event happening after e, or its
            // pending action at the end.
            let evs: &[u32] = d.an.by_thread.get(pi).map(|v| v.as_slice()).unwrap_or(&[]);
            // Happening after e is upward closed in program order: binary search.
            let first_after = evs.partition_point(|&x| !d.an.hb(e, x as usize));
            let next_pos = (first_after < evs.len()).then_some(first_after);
            let (k, a) = match next_pos {
                Some(i) => (evs[i] as usize, d.an.evs[evs[i] as usize].action.pending_form()),
                None => match d.final_pending.get(pi).copied().flatten() {
                    Some(a) => (n, a),
                    None => continue,
                },
            };
            let Some(req) = a.request() else { continue };
            if !ev.action.objects().any(|x| a.touches(x))
                || !d.mode.dependent(ev.thread, ev.action, p, a)
                || !d.an.enabled_before(e, n, p, req)
            {
                continue;
            }
            // p must exist after E'.w.
            let before = evs.partition_point(|&x| (x as usize) < k);
            if before == 0 && p != ThreadId::MAIN {
                match d.an.creator.get(pi).copied().flatten() {
                    Some(c) if !d.an.hb(e, c as usize) => {}
                    _ => continue,
                }
            }
            let local = d.an.pending_clock(p, k, &mut clock);
            d.build_v(e, n, None);
            d.v.push_request(d.mode, p, a, &clock, local);
            consider(d, e, stats);
        }
    }
    d.clock = clock;
}
