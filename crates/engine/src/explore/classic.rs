//! Classic DPOR: POPL'05 Figure 3 with the clock vectors of Figure 4, plus sleep sets.
//!
//! At every state `s` of the explored execution, for every thread `p` with a pending
//! action `next(s, p)` (enabled or not), let `i` be the last event that is dependent
//! and may be co-enabled with `next(s, p)` and does not happen before `p`; if `p` is
//! enabled before `i`, add `p` to `backtrack(pre(S, i))`, otherwise add every thread
//! enabled there (as the paper does for blocked processes). Co-enabledness is asked of
//! the object's kind ([`crate::objects::co_enabled`]): an `unlock(m)` and another
//! thread's `lock(m)` never are, nor a write unlock and a lock of a read-write lock.
//!
//! Departure (sleep sets): if `p` is asleep at `pre(S, i)`, every enabled thread is
//! added instead of `p`. POPL'05 adds `p`, which is then skipped; with trylock and
//! dynamically created threads that loses traces: in random program 16 the reversal
//! needs a thread created after `pre(S, i)`'s parent branch to run first, and nothing
//! else ever adds it (the case is kept as the regression test
//! `classic_regression_random_16`). Adding all enabled threads keeps the backtrack set
//! a persistent set in the subtree where `p` sleeps.
//!
//! Read-read independence: POPL'05 (end of §4) requires every two accesses to a
//! variable to be dependent and only sketches the refinement. Taking only "the last
//! dependent event" under read-read independence is unsound together with sleep sets
//! (a race hidden behind an independent read is never reversed: readers(2) loses a
//! trace). So the backtracking points are computed with every access dependent
//! (happens-before included), which yields persistent sets for the finer relation too,
//! while sleep sets and trace identity use the configured relation. Classic-DPOR thus
//! explores more than the others in that mode, as in JACM'17 Table 4.
//!
//! The test at a state only changes when `p`'s pending action changes or an event on
//! its object happens, so it is evaluated only then. States of the replayed prefix are
//! skipped: the test at a state depends only on the prefix up to it, which was
//! analysed when it was first executed.

use super::dpor::{self, Driver, Kind};
use super::{ExploreConfig, ExploreError, Explorer, Session, Stats};
use crate::action::{Action, Bytes, Independence};
use crate::program::Execution;

/// The relation classic-DPOR computes backtracking points with (see the module doc).
const ALL: Independence = Independence::AllDependent;

/// Classic DPOR with sleep sets (POPL'05).
#[derive(Debug, Default)]
pub struct ClassicDpor;

impl ClassicDpor {
    /// A classic-DPOR explorer.
    pub fn new(_config: &ExploreConfig) -> Self {
        ClassicDpor
    }
}

impl Explorer for ClassicDpor {
    fn explore(&mut self, session: &mut Session<'_>) -> Result<(), ExploreError> {
        dpor::explore(Kind::Classic, session)
    }
}

use crate::objects::co_enabled;

pub(crate) fn analyse(d: &mut Driver, exec: &Execution, fresh: usize, stats: &mut Stats) {
    let mut prev_pending: Vec<Option<crate::Action>> = Vec::new();
    let mut work: Vec<(usize, crate::ThreadId, Action)> = Vec::new();
    dpor::walk_states(exec, 0, |k, st| {
        // The step just taken, whose objects may have changed what p's request waits on.
        let touched = k.checked_sub(1).map(|i| exec.steps[i].action);
        let touches = |a: Action| touched.is_some_and(|b| b.objects().any(|x| a.touches(x)));
        for p in st.threads() {
            let pend = st.pending(p);
            if prev_pending.len() <= p.index() {
                prev_pending.resize(p.index() + 1, None);
            }
            let changed = prev_pending[p.index()] != pend;
            prev_pending[p.index()] = pend;
            let Some(a) = pend else { continue };
            if a.object().is_none() || k <= fresh || !(changed || touches(a)) {
                continue;
            }
            work.push((k, p, a));
        }
    });
    let mut clock = std::mem::take(&mut d.clock);
    for (k, p, a) in work {
        d.an.pending_clock(p, k, &mut clock);
        // The last dependent event on each object of the action (several for a
        // spin-wait on several locations).
        let mut found: Vec<usize> = Vec::new();
        for o in a.objects() {
            let Some(list) = d.an.by_object.get(&o) else {
                continue;
            };
            let upto = list.partition_point(|&x| (x as usize) < k);
            let bytes = a.bytes_of(o).unwrap_or(Bytes::ALL);
            for &x in list[..upto].iter().rev() {
                let ev = d.an.evs[x as usize];
                // With every access dependent, the operations on one object are totally
                // ordered by happens-before: once one happens before p, all earlier do.
                // With accesses to disjoint bytes of a word commuting, that holds of an
                // event covering every byte p's action touches (an earlier access to one
                // of them conflicts with it); past one that does not, look further.
                if ev.thread == p || clock[ev.thread.index()] > ev.local {
                    let covers = ev.action.bytes_of(o).is_some_and(|b| b.bits() & bytes.bits() == bytes.bits());
                    if d.mode == ALL || covers {
                        break;
                    }
                    continue;
                }
                if !ALL.dependent(ev.thread, ev.action, p, a) || !co_enabled(ev.action, a) {
                    continue;
                }
                found.push(x as usize);
                break;
            }
        }
        for i in found {
            let asleep = d.stack[i].sleep.iter().any(|&(u, _)| u == p);
            if !asleep && d.stack[i].enabled.iter().any(|&(u, _)| u == p) {
                d.add_backtrack(i, p, stats);
            } else {
                let all: Vec<_> = d.stack[i].enabled.iter().map(|&(u, _)| u).collect();
                for q in all {
                    d.add_backtrack(i, q, stats);
                }
            }
        }
    }
    d.clock = clock;
}
