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
//! prefix only adds sequences the sleep-set test accepts), and at the ends of runs cut
//! short (a crash, a time limit, the step bound): the steps before the cut are a prefix
//! of every execution extending it, and their races are races of those executions
//! (`dpor::Driver`). As in the paper, every race
//! of the execution is analysed, including those inside the replayed prefix: `v`
//! contains the whole rest of the execution, so a prefix race analysed again after a
//! different suffix can give a new sequence. (Restricting the analysis to races with a
//! new second event, as source-DPOR may, loses traces: random program 228 of the
//! larger shape has 27 190 traces and the restricted analysis found 27 125; the case is
//! kept as the regression test `optimal_regression_prefix_races`.)
//!
//! # The next run starts before the analysis ends
//!
//! The analysis of an execution inserts into the wakeup trees of its nodes, and the next
//! run follows the leftmost branch of the deepest node whose tree has a branch left.
//! An insertion at node `e` changes only the tree of `e` outside the branch being
//! explored (`v` never starts with `e`'s own thread, which races with `v`, so the
//! insertion never descends into the explored child), so once the nodes from the
//! deepest down to `k` are analysed and `k` is the first with a branch left, the next
//! run is known: it is asked of the program at once ([`Session::run_overlapped`]) and
//! the nodes above `k` are analysed while it runs (on another core, for the C
//! frontend). The trees end up exactly as with the analysis done first (each node's
//! insertions come in the same order); after the analysis the branch at `k` is read
//! again, and a run that does not match it would be dropped and the right one run.

use super::dpor::{filter_sleep, Analysis, Driver, Kind};
use super::{Cancel, ExploreConfig, ExploreError, Explorer, Meanwhile, Session};
use crate::action::{Action, ObjKind};
use crate::ids::{ObjId, ThreadId};
use crate::program::{Execution, Step};
use rustc_hash::FxHashMap as HashMap;
use std::time::Instant;

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
        explore(session)
    }
}

/// Lines 6–7: insert `d.v` into `wut(E_e)` unless `sleep(E_e) ∩ WI[E_e](v) ≠ ∅`.
fn consider(d: &mut Driver, e: usize) {
    let mode = d.mode;
    let node = &d.stack[e];
    if node.sleep.iter().any(|&(q, a)| d.v.is_weak_initial(mode, q, a)) {
        return;
    }
    let root = d.stack[e].wut;
    let added = d.forest.insert(root, mode, &d.v);
    d.wakeup_added += added as u64;
}

/// The analysis of one execution (lines 2–14), carried out node by node from the
/// deepest: [`Analyser::node`] does every insertion into one node's wakeup tree, in the
/// order in which the whole analysis would do them.
#[derive(Debug, Default)]
pub(crate) struct Analyser {
    /// The reversible races `(e, e')`, by `e` from the last, those of one `e` in the
    /// analysis' order.
    races: Vec<(u32, u32)>,
    /// Races already considered (a prefix of `races`).
    cursor: usize,
    /// Whether some thread spin-waits: memory accesses then take part in request races.
    awaits: bool,
    /// Per object requested somewhere: the offset of its bit set in `bits`, of `words`
    /// words, of the threads that request it.
    slots: HashMap<ObjId, usize>,
    bits: Vec<u64>,
    words: usize,
    /// Scratch.
    cand: Vec<u64>,
    threads: Vec<usize>,
}

impl Analyser {
    /// Prepare the analysis of `exec` (whose happens-before analysis is `d.an`).
    pub fn start(&mut self, d: &Driver, exec: &Execution) {
        self.races.clear();
        self.races.extend_from_slice(&d.an.races);
        // Stable: a node's races keep their order.
        self.races.sort_by_key(|&(e, _)| std::cmp::Reverse(e));
        self.cursor = 0;
        // Memory accesses block nobody unless a thread spin-waits (Action::Await).
        self.awaits = exec.steps.iter().any(|s| matches!(s.next, Some(Action::Await(..))))
            || d.final_pending.iter().any(|a| matches!(a, Some(Action::Await(..))));
        // The threads that request each object at some point (an event or the pending
        // action at the end): p's next action after e can only be a request on one of
        // e's objects if p requests it somewhere, so the other threads are skipped
        // without a search for their next action (that search, for every event and every
        // thread, was most of the analysis' time).
        let words = d.an.nt.max(d.final_pending.len()).div_ceil(64);
        self.words = words;
        self.slots.clear();
        self.bits.clear();
        let requests = d.an.evs.iter().map(|ev| (ev.thread.index(), ev.action.pending_form()));
        let pending = d.final_pending.iter().enumerate().filter_map(|(pi, a)| a.map(|a| (pi, a)));
        for (pi, a) in requests.chain(pending) {
            if a.request().is_none() {
                continue;
            }
            for o in a.objects() {
                let bits = &mut self.bits;
                let base = *self.slots.entry(o).or_insert_with(|| {
                    bits.resize(bits.len() + words, 0);
                    bits.len() - words
                });
                bits[base + pi / 64] |= 1 << (pi % 64);
            }
        }
        self.cand.clear();
        self.cand.resize(words, 0);
    }

    /// Every insertion into the wakeup tree of node `e`: for the races `e ⋖ e'`
    /// (lines 3–7), then for the threads whose next request `e` delays (Alg. 4 lines
    /// 8–14, generalised: see `dpor`'s module documentation). Nodes must be analysed from
    /// the last to the first.
    pub fn node(&mut self, d: &mut Driver, e: usize) {
        let n = d.an.evs.len();
        while let Some(&(x, j)) = self.races.get(self.cursor) {
            if x as usize != e {
                debug_assert!((x as usize) < e, "checker bug: nodes analysed out of order");
                break;
            }
            d.build_v(e, n, Some(j as usize));
            consider(d, e);
            self.cursor += 1;
        }
        let ev = d.an.evs[e];
        match ev.action.obj_kind() {
            None => return,
            Some(ObjKind::Memory) if !self.awaits => return,
            _ => {}
        }
        let words = self.words;
        self.cand.iter_mut().for_each(|w| *w = 0);
        for o in ev.action.objects() {
            if let Some(&base) = self.slots.get(&o) {
                self.cand.iter_mut().zip(&self.bits[base..base + words]).for_each(|(c, b)| *c |= b);
            }
        }
        self.threads.clear();
        for (w, &m) in self.cand.iter().enumerate() {
            let mut m = m;
            while m != 0 {
                self.threads.push(w * 64 + m.trailing_zeros() as usize);
                m &= m - 1;
            }
        }
        let mut clock = std::mem::take(&mut d.clock);
        for &pi in &self.threads {
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
            consider(d, e);
        }
        d.clock = clock;
    }
}

/// The leftmost branch of node `k`'s wakeup tree (Alg. 2 line 16), into `path`.
fn leftmost(d: &Driver, k: usize, path: &mut Vec<(ThreadId, Action)>) {
    path.clear();
    let mut at = d.stack[k].wut;
    while let Some(c) = d.forest.first_child(at) {
        path.push(d.forest.step(c));
        at = c;
    }
}

/// The run that follows `path` from node `k`: the replay `E_k.path` and the sleep set at
/// its end. Sets node `k`'s branch to the first step of `path`.
fn request(
    d: &mut Driver,
    k: usize,
    path: &[(ThreadId, Action)],
    replay: &mut Vec<ThreadId>,
    sleep_end: &mut Vec<(ThreadId, Action)>,
    scratch: &mut Vec<(ThreadId, Action)>,
) {
    let (p, a) = path[0];
    d.stack[k].cur = (p, a);
    replay.clear();
    replay.extend(d.stack.iter().map(|n| n.cur.0));
    filter_sleep(d.mode, &d.stack[k].sleep, p, a, sleep_end);
    for &(t, b) in &path[1..] {
        replay.push(t);
        scratch.clear();
        scratch.extend_from_slice(sleep_end);
        filter_sleep(d.mode, scratch, t, b, sleep_end);
    }
}

/// Algorithm 2 (lines 15–21 around the analysis of lines 2–14), the next run asked for
/// as soon as it is known (module documentation).
fn explore(session: &mut Session<'_>) -> Result<(), ExploreError> {
    let mode = session.config.independence;
    let mut d = Driver::new(Kind::Optimal, mode, None);
    let mut an = Analyser::default();
    let mut next = Analysis::default();
    let (mut replay, mut sleep_end) = (Vec::new(), Vec::new());
    let (mut path, mut fresh, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
    let mut exec = Execution::default();
    let mut base = 0usize;
    // The node whose branch the run asked for follows, and whether the nodes before it
    // are still to be analysed.
    let mut branch = 0usize;
    let mut tail = false;
    // Wakeup-tree nodes after the whole analysis, before the explored branch left the
    // tree (the figure `wakeup_peak` keeps), and how many nodes that branch had.
    let (mut analysed_live, mut left) = (0u64, 0u64);
    // The analysis of a long run can take seconds: a cancel is asked every few nodes.
    let canceller = session.canceller();
    let cancelled = |k: usize| k.is_multiple_of(16) && canceller.as_ref().is_some_and(Cancel::is_set);
    loop {
        let mut cut = false;
        let mut finish = || {
            if !std::mem::take(&mut tail) {
                return Meanwhile::Done { wanted: true };
            }
            for e in (0..branch).rev() {
                if cancelled(e) {
                    // The run goes on; the exploration stops after it.
                    cut = true;
                    return Meanwhile::Done { wanted: true };
                }
                an.node(&mut d, e);
            }
            analysed_live = d.forest.live() as u64 + left;
            // The shallower nodes' insertions cannot reach node `branch` (module
            // documentation): check it, and give the right branch if it came out wrong.
            leftmost(&d, branch, &mut fresh);
            let same = fresh == path;
            debug_assert!(same, "checker bug: an insertion reached the branch asked for");
            if !same {
                std::mem::swap(&mut path, &mut fresh);
            }
            Meanwhile::Done { wanted: same }
        };
        // The happens-before analysis of the run is built from its steps as they come.
        next.begin(mode);
        let mut early = |steps: &[Step]| {
            for s in &steps[next.evs.len()..] {
                next.push(s);
            }
        };
        let t_run = session.stats.time.run;
        let t0 = Instant::now();
        let wanted = session.run_overlapped(&replay, &sleep_end, &mut exec, &mut early, &mut finish)?;
        session.stats.time.comb_build += t0.elapsed().saturating_sub(session.stats.time.run - t_run);
        session.stats.wakeup_peak = session.stats.wakeup_peak.max(analysed_live);
        if cut {
            session.cancel();
            return Ok(());
        }
        if !wanted {
            request(&mut d, branch, &path, &mut replay, &mut sleep_end, &mut scratch);
            continue;
        }
        let t0 = Instant::now();
        d.extend(&exec, base, &mut session.stats)?;
        if session.should_stop() {
            return Ok(());
        }
        std::mem::swap(&mut d.an, &mut next);
        for s in &exec.steps[d.an.evs.len()..] {
            d.an.push(s);
        }
        an.start(&d, &exec);
        // The deepest node with a branch left once its own insertions are done (lines
        // 15–21 backtrack to it).
        let mut found = None;
        for k in (0..d.stack.len()).rev() {
            if cancelled(k) {
                session.cancel();
                return Ok(());
            }
            an.node(&mut d, k);
            let root = d.stack[k].wut;
            if d.forest.first_child(root).is_some_and(|c| d.forest.next_sibling(c).is_some()) {
                found = Some(k);
                break;
            }
        }
        let live = d.forest.live() as u64;
        session.stats.wakeup_nodes = live;
        session.stats.wakeup_peak = session.stats.wakeup_peak.max(live);
        let Some(k) = found else {
            session.stats.time.comb_build += t0.elapsed();
            return Ok(());
        };
        // Nodes after k have no branch left: pop them; k's explored branch goes to its
        // sleep set and leaves its tree (line 20).
        d.pop_above(k);
        let node = &mut d.stack[k];
        let cur = node.cur;
        node.done.push(cur.0);
        node.sleep.push(cur);
        let root = node.wut;
        d.forest.remove_first_child(root);
        session.stats.wakeup_nodes = d.forest.live() as u64;
        left = live - session.stats.wakeup_nodes;
        leftmost(&d, k, &mut path);
        request(&mut d, k, &path, &mut replay, &mut sleep_end, &mut scratch);
        base = k + 1;
        branch = k;
        tail = true;
        session.stats.time.comb_build += t0.elapsed();
    }
}
