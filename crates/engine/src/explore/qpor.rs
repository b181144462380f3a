//! Quasi-Optimal POR: Algorithm 1 of the QPOR paper with k-partial alternatives.
//!
//! # The algorithm (QPOR §3, Algorithm 1)
//!
//! `Explore(C, D, A)` adds `ex(C)` to `U`; returns if `en(C) ⊆ D`; picks `e` from
//! `A ∩ en(C)` (or `en(C) \ D`), explores `C ∪ {e}`; then looks for a clue
//! `J ∈ Alt(C, D ∪ {e})` and, if there is one, explores `(C, D ∪ {e}, J \ C)`.
//!
//! Here it is an explicit-stack search over the current branch (programs reach depths
//! of 10^5):
//! - the branch `C` is a sequence of events (`seq`); node `i` holds the configuration
//!   `C_i = seq[..i]` and its *sleep set* `D_i ∩ en(C_i)` — the events of `D` that are
//!   still enabled. Events of `D` in `cex(C_i)` need no bookkeeping: every clue already
//!   conflicts with them through `C_i`.
//! - A left descent is one program run: the runtime follows a replay of `C_k ∪ J`, then
//!   continues with the sleep set `D ∩ en(C_k ∪ J)` (a sleeping thread wakes when a
//!   dependent action runs — exactly when its `D`-event falls into `cex`). The run's
//!   steps are turned into events (found or added to `U`).
//! - `ex(C)`: `en(C)` events are discovered by running; `cex(C)` by `cexp` (Alg. 1,
//!   §5.3), generalised below to trylock and memory accesses. `cex` of each event of
//!   the branch is computed once: `cex(C_i) ⊆ C ∪ cex(C)` for every prefix, and an
//!   event's conflicting extensions depend only on the event. It is computed late: when
//!   the backtracking pops the event, or, for an event still in the branch when the next
//!   run is asked for, while that run runs. `Alt(C_k, D_k)` needs only those of the
//!   events at positions `k` and beyond: one of an event `e` of `C_k` conflicts with `e`,
//!   so it is never compatible with `C_k`.
//! - Backtracking pops the branch; at node `k` the popped event joins the sleep set and
//!   `Alt(C_k, D_k)` is computed with a comb (§5, Def. 5–6); the first alternative found
//!   is the next run, asked for at once.
//!
//! # Alternatives and combs (Def. 5, Def. 6, steps 1–5)
//!
//! For k-partial alternatives the comb has one spike per selected event of the sleep set
//! (the event just explored and the `k-1` most recently added; all of them for optimal
//! alternatives). Spike `i` holds the events in conflict with `d_i` that are compatible
//! with `C` and whose history avoids `D` (step 3). Only the *minimal* such events are
//! needed: every candidate contains an operation on `d_i`'s object that is a sibling of
//! `d_i` in that object's tree, and that sibling conflicts with no more events than the
//! candidate. So a spike is built from the children of `pm(d_i)`, not from all of `U`.
//! The search (step 4) picks one element per spike, pairwise conflict-free, depth-first
//! over spikes sorted by size; a spike is skipped when an element already chosen
//! conflicts with its event (the union still conflicts with every selected event).
//!
//! # Generalised `cexp`
//!
//! For an operation `e` on object `o` by thread `i` with thread-causal predecessor
//! `et`, the conflicting extensions with the same statement are the events
//! `⟨a', [et] ∪ [q]⟩` for every position `q` strictly above `pm(e)` in `o`'s tree, up
//! to and including the first `q ≤ et`, where the statement can execute after `q`:
//! `lock` needs the mutex free (the paper's loop, which steps over `acq` nodes), `unlock`
//! and memory accesses can go anywhere, and `trylock` resolves to success (free) or
//! failure (held). Only object operations have conflicting extensions: creates, joins
//! and exits are never in immediate conflict.
//!
//! # Memory: the pruning rule (Alg. 1 line 19, replaced)
//!
//! This explorer does not prune to the paper's `Q(C, D) = C ∪ D ∪ #(C ∪ D)`. It prunes
//! `U` to the causal closure of
//!
//! `K(C, D) = C ∪ D ∪ S(C)`, where `S(C)` = the object operations `x ∉ C` such that,
//! for some node `j` of the branch where `pm(x)` is the last operation on `x`'s object
//! `o` in `C_j` (`pm(x)` an event of `C`, or the root `⊥`),
//! - some thread other than `x`'s has its pending action on `o` at `C_j`,
//! - `[x] ∪ C_j` is a configuration, and
//! - `[x] ∩ D_j = ∅`,
//!
//! with `C` the branch and `D` the union of the sleep sets of its nodes. This is the
//! only rule; `Qpor::prune` implements it. Why it suffices: a spike member at node `j`
//! of the branch is a sibling `x` of some `d ∈ D_j` in `d`'s object tree, in another
//! thread (`Qpor::spike_member`), with `[x] ∪ C_j` a configuration and `[x] ∩ D_j = ∅`
//! (Def. 6 step 3), and `d ∈ en(C_j)` is the pending action of its thread at `C_j`, on
//! `o`. While node `j` is on the branch, `C_j` is fixed and `D_j` only grows, so an `x`
//! that fails the last two conditions now fails them at every later `Alt` at `j`; the
//! events `D_j` will receive later are enabled at `C_j`, and a thread's pending action
//! at `C_j` depends only on `C_j`, so the pending actions the run reported for the
//! branch stay valid (`Qpor::next_pending`). A node created later below a node `k` of
//! the window inherits the blocking: its configuration `C'` contains `C_k`, and if
//! `[x] ∪ C'` is a configuration and `z ∈ [x] ∩ D_k`, no event of `C' \ C_k` is on
//! `z`'s object (it would be comparable with `z` in that tree, putting `z` in `C'` or
//! it in `C_k`), so `z` stays in every sleep set down to that node. The events an `Alt`
//! at a node not yet created will use otherwise hang under events outside `C` and are
//! added again by `cexp` when the run that creates that node passes through them.
//! Causes are kept because trees, `tmax` and `lmax` refer to them.
//!
//! How `K` relates to `Q`: `Q` keeps every event in conflict with `C ∪ D`; on a
//! lock-heavy program that is nearly all of `U`. `K` drops the ones hanging under
//! events outside `C` and those on objects no other thread is about to touch — such
//! as the variants of a thread's private inner lock, one per history of an outer lock —
//! and those whose history holds an event the sleep sets already exclude. `K` is still
//! not bounded by the branch when another thread does wait on the inner lock (nested
//! locking with a partner per inner mutex, `bench/mpat_nested.c`): the variants whose
//! history avoids the sleep sets are spike candidates for the `Alt` calls at the nodes
//! before the first inner-lock operation of the branch, and both rules keep them
//! (measured in `docs/qpor-performance.md`). The spike scan does not pay for them:
//! `Unfolding::preds_below` leaves out the variants whose history is not below the
//! branch (`Qpor::spike_ranges`). Pruning decides on every event when `U` has grown by
//! half since the last such pruning (`PRUNE_GROWTH`), which keeps its cost amortised
//! constant per event (the peak is at most 1.5 times the kept set plus the slack), and
//! in between, while each next run runs, on the events added since the last pruning
//! once there are `YOUNG_PRUNE` of them (most of a run's new events are useless once the
//! backtracking has passed them; the older ones stay until the next full pruning). Both
//! wait until `U` outgrows the slack. Deciding one event walks at most `PRUNE_WALK`
//! nodes of its window; an event not decided by then is kept (keeping is always safe).
//!
//! # Where Algorithm 1's lines are
//!
//! - line 5 (add `ex(C)` to `U`): `Qpor::absorb` (`en` events from the run) and
//!   `cexp`/`cexp_walk`/`cexp_blocked` (`cex`, lines 22–34);
//! - lines 7–16 (return if `en(C) ⊆ D`; choose `e` from `A` or `en(C) \ D`; explore
//!   left): the runtime's run with the replay of the clue and the sleep set (a left
//!   descent is one program run);
//! - lines 17–18 (`J ∈ Alt(C, D ∪ {e})`, explore right): the backtracking loop of
//!   `explore` and `Qpor::alternative`;
//! - line 19 (`U := U ∩ Q`): `Qpor::prune`, lazily.
//!
//! # Departures from the paper
//!
//! - Thread creation, join, trylock, memory accesses and process exit are added to the
//!   paper's `acq`/`rel`/`loc` language (see [`crate::action`]).
//! - `U` is pruned lazily (when it has grown by half) instead of at every return of
//!   `Explore`, to `K(C, D)` instead of `Q(C, D)` (section "Memory").
//! - A spin-wait on several locations ([`crate::Awaited`] with more than one location)
//!   is refused: it would be an event of several object trees, and neither the
//!   conflict test of Theorem 5.1 (one `lmax` per tree) nor `cexp` (one tree walked)
//!   would cover it. The DPOR family supports it.

use super::{ExploreConfig, ExploreError, Explorer, Meanwhile, Session};
use crate::action::{Action, Independence};
use crate::configuration::Configuration;
use crate::ids::{EventId, ThreadId};
use crate::program::{Execution, ProgramError, Step};
use crate::unfolding::{Child, ObjIdx, Preds, Unfolding, BOTTOM};
use rustc_hash::FxHashSet as HashSet;
use std::time::{Duration, Instant};

/// A spike of a comb (QPOR Def. 5): the events of `U` in conflict with one selected
/// event `target` of `D` that are compatible with `C` and whose history avoids `D`
/// (Def. 6 step 3), restricted to the minimal ones — the siblings of `target` in its
/// object's tree, in other threads (module documentation, `Qpor::spike_member`).
/// Filled lazily during one Alt call.
#[derive(Debug)]
struct Spike {
    /// The event of `D` this spike must conflict with.
    target: EventId,
    /// Its object.
    obj: ObjIdx,
    /// Number of candidates (children of `pm(target)` in other threads).
    candidates: usize,
    // invariant: the members among the candidates scanned so far, in scan order.
    members: Vec<EventId>,
    // The candidates: (index range, whether the range is of the children in the order
    // of `ChildGroup::by_pred` rather than `ChildGroup::children`) into `pm(target)`'s
    // children (`Unfolding::obj_kids`, `Qpor::spike_ranges`); the scan is at
    // `ranges[range]`, index `pos`.
    ranges: Vec<(std::ops::Range<usize>, bool)>,
    range: usize,
    pos: usize,
}

/// A comb (QPOR Def. 5): one spike per selected event of `D`; a solution picks one
/// member per spike, pairwise conflict-free (Def. 6 step 4), and `J` is the union of
/// their causal histories.
#[derive(Debug, Default)]
struct Comb {
    spikes: Vec<Spike>,
    // Spikes of earlier calls, kept for their vectors: most `Alt` calls end at their
    // first empty spike, and allocating a comb's vectors afresh each time cost more
    // than the scan.
    spare: Vec<Spike>,
}

/// How far [`Qpor::absorb_steps`] got with the steps of one run.
#[derive(Debug)]
struct Feed {
    /// The length of the branch when the run began (the replayed steps before it are
    /// checked, the ones after become events).
    from: usize,
    /// The next step to take.
    next: usize,
    /// Steps found as existing events / added as new ones.
    found: u64,
    added: u64,
    /// The positions `from..cexp_to` of the branch have had their `cexp` while the run
    /// went on ([`Qpor::take_steps`]); `cexp_added`: the events it added.
    cexp_to: usize,
    cexp_added: u64,
    /// The first error met; no step is taken after it.
    error: Option<ExploreError>,
}

impl Feed {
    fn new(from: usize) -> Self {
        Feed { from, next: 0, found: 0, added: 0, cexp_to: from, cexp_added: 0, error: None }
    }
}

/// A node of the branch: the state at configuration `C_i`.
#[derive(Debug, Default, Clone)]
struct Node {
    /// `D_i ∩ en(C_i)`, in the order events were added to `D`.
    sleep: Vec<EventId>,
}

/// The buffers of [`Qpor::prune`] (see there): per object, the positions of its
/// operations in the branch and the nodes where the threads pending on it change; per
/// thread, the object of its pending action; per object, how many threads are pending
/// on it; the events to decide.
#[derive(Debug, Default)]
struct PruneScratch {
    chains: Vec<Vec<u32>>,
    pending_changes: Vec<Vec<(u32, u32, u32)>>,
    pend: Vec<Option<ObjIdx>>,
    count: Vec<(u32, u32)>,
    candidates: Vec<EventId>,
}

/// Quasi-optimal POR explorer (QPOR Algorithm 1 with k-partial alternatives).
#[derive(Debug)]
pub struct Qpor {
    /// `Some(k)`: k-partial alternatives; `None`: optimal alternatives.
    k: Option<usize>,
    u: Unfolding,
    // The branch C (Algorithm 1's C at the deepest node), as a sequence with its
    // frontier.
    c: Configuration,
    // nodes[i] for i in 0..=c.len(); nodes beyond are stale (reused allocations).
    nodes: Vec<Node>,
    // Live-event count after the last full pruning.
    pruned_at: usize,
    // All false: the marks of a young pruning (`Qpor::prune`), kept between them.
    young_keep: Vec<bool>,
    // The other buffers of `Qpor::prune`, kept between calls (a young pruning runs
    // every few executions).
    prune_scratch: PruneScratch,
    // The pending action of main before the branch, and after step i of the branch
    // (for i < c.len()): the moving thread's next action and, for a create, the new
    // thread's first one — as the run that made the branch reported them. A thread's
    // pending action at C_i depends only on C_i, so they stay valid while C_i does.
    first_pending: Option<Action>,
    next_pending: Vec<(Option<Action>, Option<Action>)>,
    // The comb of the last `Alt` call, reused (see `Comb::spare`).
    comb: Comb,
}

impl Qpor {
    /// A QPOR explorer with k-partial alternatives (`None`: optimal alternatives).
    pub fn new(k: Option<usize>, config: &ExploreConfig) -> Result<Self, ExploreError> {
        if k == Some(0) {
            return Err(ExploreError::Unsupported("qpor needs k ≥ 1".into()));
        }
        if config.independence != Independence::AllDependent {
            return Err(ExploreError::Unsupported(
                "qpor supports only the all-dependent independence on memory accesses; \
                 use source-dpor or optimal-dpor for read-read independence"
                    .into(),
            ));
        }
        Ok(Qpor {
            k,
            u: Unfolding::new(config.skip_step),
            c: Configuration::new(),
            nodes: vec![Node::default()],
            pruned_at: 0,
            young_keep: Vec::new(),
            prune_scratch: PruneScratch::default(),
            first_pending: None,
            next_pending: Vec::new(),
            comb: Comb::default(),
        })
    }

    /// The unfolding explored so far (pruned as `Qpor::prune` says).
    pub fn unfolding(&self) -> &Unfolding {
        &self.u
    }

    // ----- frontier ---------------------------------------------------------------

    /// Whether `e` (not [`BOTTOM`]) is in the branch `C`.
    #[inline]
    fn in_c(&self, e: EventId) -> bool {
        self.c.contains(e)
    }

    /// The last event of thread `t` in the branch, or `⊥` ([`BOTTOM`]) — the virtual
    /// root of the thread tree, which precedes every event (QPOR §5.1).
    fn last_of(&self, t: ThreadId) -> EventId {
        self.c.last_of(t).unwrap_or(BOTTOM)
    }

    /// The last operation on object `o` in the branch, or the root `⊥` of its tree.
    fn obj_last_of(&self, o: ObjIdx) -> EventId {
        self.c.obj_last_of(o).unwrap_or(BOTTOM)
    }

    /// The size of `U` now and at its largest, in events and bytes, into `stats`.
    fn record_size(&self, stats: &mut super::Stats) {
        stats.events = self.u.len() as u64;
        stats.events_peak = stats.events_peak.max(self.u.peak() as u64);
        stats.unfolding_bytes = self.u.heap_bytes() as u64;
        stats.unfolding_bytes_peak = stats.unfolding_bytes_peak.max(stats.unfolding_bytes);
    }

    /// Append `e` to the branch.
    fn push(&mut self, e: EventId) {
        self.c.push(&self.u, e);
    }

    /// Remove the last event of the branch, restoring the frontier.
    fn pop(&mut self) -> EventId {
        self.c.pop(&self.u)
    }

    /// The immediate predecessors of `thread` performing `action` after the branch.
    fn preds_for(&mut self, thread: ThreadId, action: Action, step: usize) -> Result<Preds, ProgramError> {
        let mut preds =
            Preds { tpred: self.c.last_of(thread).or_else(|| self.c.creator_of(thread)), ..Preds::default() };
        if preds.tpred.is_none() && thread != ThreadId::MAIN {
            return Err(ProgramError::Divergence {
                step,
                detail: format!("{thread} moved before any thread created it"),
            });
        }
        match action {
            Action::Join(u) => {
                let x = self.c.last_of(u).filter(|&x| self.u.action(x) == Action::Exit);
                let Some(x) = x else {
                    return Err(ProgramError::Divergence {
                        step,
                        detail: format!("{thread} joined {u}, which has not exited"),
                    });
                };
                preds.opred = Some(x);
            }
            Action::ExitProcess => {
                for (i, &x) in self.c.last_per_thread().iter().enumerate() {
                    if let (Some(x), false) = (x, i == thread.index()) {
                        preds.extra.push(x);
                    }
                }
            }
            a => {
                if let Some(o) = a.object() {
                    let oi = self.u.obj_index(o);
                    preds.opred = self.c.obj_last_of(oi);
                }
            }
        }
        Ok(preds)
    }

    // ----- absorbing a run ----------------------------------------------------------

    /// Turn the steps of `exec` from position `from` on into events of the branch (the
    /// ones `feed` has not taken yet while the program ran: `Qpor::absorb_steps`), then
    /// add the conflicting extensions of the threads blocked at the end of the run. The
    /// branch held `C_from` when the run began; `expect` are the events of the clue being
    /// followed. The conflicting extensions of the new events of the branch are added
    /// later, each before the first `Alt` that can use them (`Qpor::explore`).
    fn absorb(
        &mut self,
        s: &mut Session<'_>,
        exec: &Execution,
        expect: &[EventId],
        feed: &mut Feed,
    ) -> Result<(), ExploreError> {
        let t0 = Instant::now();
        self.absorb_steps(&exec.steps, expect, feed);
        s.stats.events_added += feed.added + feed.cexp_added;
        s.stats.events_found += feed.found;
        if let Some(e) = feed.error.take() {
            return Err(e);
        }
        self.first_pending = exec.first;
        s.stats.time.add_events += t0.elapsed();
        let t1 = Instant::now();
        self.cexp_blocked(exec, s);
        s.stats.time.cex += t1.elapsed();
        Ok(())
    }

    /// Take the steps of `steps` that `feed` has not taken yet (`steps` is a prefix of
    /// the run's steps, the whole run at the end: [`Session::run_streaming`]): the
    /// replayed ones are checked against the branch, the new ones become events of the
    /// branch. The first error is kept in `feed`, and nothing is taken after it.
    fn absorb_steps(&mut self, steps: &[Step], expect: &[EventId], feed: &mut Feed) {
        while feed.error.is_none() && feed.next < steps.len() {
            let i = feed.next;
            match self.absorb_step(i, &steps[i], expect, feed) {
                Ok(()) => feed.next += 1,
                Err(e) => feed.error = Some(e),
            }
        }
    }

    /// [`Qpor::absorb_steps`] while the program runs, and the `cexp` of the events it
    /// took: it depends only on an event's causal past, known once the event is, so
    /// the backtracking after the run no longer waits for it (only the steps the program
    /// handed over at its end are left to it). Like the conflicting extensions added
    /// while a run goes on ([`Qpor::explore`]), these change only what later `Alt` calls
    /// see, and an event of `C_k` conflicts with every extension it has: `Alt` at node
    /// `k` cannot use them.
    fn take_steps(&mut self, steps: &[Step], expect: &[EventId], feed: &mut Feed) {
        self.absorb_steps(steps, expect, feed);
        if feed.error.is_some() {
            return;
        }
        let end = self.c.len();
        for i in feed.cexp_to..end {
            feed.cexp_added += self.cexp(self.c.events()[i]);
        }
        feed.cexp_to = end;
    }

    /// Step `i` of the run (see [`Qpor::absorb_steps`]).
    fn absorb_step(&mut self, i: usize, step: &Step, expect: &[EventId], feed: &mut Feed) -> Result<(), ExploreError> {
        let from = feed.from;
        if i < from {
            let (t, e) = (self.c.schedule()[i], self.c.events()[i]);
            if step.thread != t || step.action != self.u.action(e) {
                return Err(ProgramError::Divergence {
                    step: i,
                    detail: format!("replayed {} {:?}, the branch has {:?}", step.thread, step.action, self.u.show(e)),
                }
                .into());
            }
            return Ok(());
        }
        debug_assert_eq!(self.c.len(), i);
        // A spin-wait on several locations would be an event in several object trees:
        // not supported here (see the module documentation).
        let multi = |a: &Option<Action>| matches!(a, Some(Action::Await(w)) if w.len() > 1);
        if multi(&Some(step.action)) || multi(&step.next) {
            return Err(ExploreError::Unsupported(format!(
                "{} spin-waits on several locations at once; qpor supports spin-waits on one \
                 location only: use --algorithm optimal-dpor (or source-dpor, classic-dpor, dfs)",
                step.thread
            )));
        }
        self.next_pending.push((step.next, step.child_next));
        let preds = self.preds_for(step.thread, step.action, i)?;
        let (e, new) = self.u.find_or_add(step.thread, step.action, &preds);
        // A read-modify-write added as a conflicting extension learns its outcome.
        self.u.settle(e, step.action);
        if new {
            feed.added += 1;
        } else {
            feed.found += 1;
        }
        if let Some(&x) = expect.get(i - from) {
            if x != e {
                return Err(ProgramError::Divergence {
                    step: i,
                    detail: format!(
                        "the run did not follow the alternative: expected {x:?} {:?}, got {e:?} {:?}",
                        self.u.show(x),
                        self.u.show(e)
                    ),
                }
                .into());
            }
        }
        debug_assert!(!self.nodes[i].sleep.contains(&e), "checker bug: the runtime scheduled a sleeping event {e:?}");
        // Node i+1's sleep set: those of node i not in conflict with e.
        if self.nodes.len() <= i + 1 {
            self.nodes.push(Node::default());
        }
        let (head, tail) = self.nodes.split_at_mut(i + 1);
        let next = &mut tail[0].sleep;
        next.clear();
        let eo = self.u.event(e).obj;
        for &d in &head[i].sleep {
            let dobj = self.u.event(d).obj;
            if dobj.is_none() || dobj != eo {
                next.push(d);
            }
        }
        self.push(e);
        Ok(())
    }

    /// Add the conflicting extensions that share `e`'s statement (generalised `cexp`,
    /// Alg. 1 lines 22–34).
    /// Returns how many events it added to `U`.
    fn cexp(&mut self, e: EventId) -> u64 {
        let ev = self.u.event(e);
        if ev.obj.is_none() || ev.opred == BOTTOM {
            return 0;
        }
        let (thread, stmt, et, pm) = (ev.thread, self.u.action(e).pending_form(), ev.tpred, ev.opred);
        if self.u.le(pm, et) {
            return 0;
        }
        let first = self.u.event(pm).opred;
        self.cexp_walk(thread, stmt, et, first)
    }

    /// The events of `thread` performing `stmt` after `[et] ∪ [q]`, for `q = first`
    /// and its ancestors in the object's tree, up to and including the first `q ≤ et`,
    /// wherever the object's state after `q` enables the statement (asked of the
    /// object's kind: a lock needs the mutex free, a semaphore wait a positive value...).
    /// Returns how many events it added to `U`.
    fn cexp_walk(&mut self, thread: ThreadId, stmt: Action, et: EventId, first: EventId) -> u64 {
        let mut added = 0;
        let mut q = first;
        loop {
            let st = self.u.state_after(q);
            let action = st.enabled(thread, stmt).then(|| st.resolve(thread, stmt));
            if let Some(a) = action {
                let preds = Preds {
                    tpred: Some(et).filter(|&x| x != BOTTOM),
                    opred: Some(q).filter(|&x| x != BOTTOM),
                    extra: Vec::new(),
                };
                let (_, new) = self.u.find_or_add(thread, a, &preds);
                added += u64::from(new);
            }
            if q == BOTTOM || self.u.le(q, et) {
                return added;
            }
            q = self.u.event(q).opred;
        }
    }

    /// `cex` events of threads still blocked at the end of a run (on a lock, a
    /// semaphore, a condition variable, a barrier): their operation at earlier positions
    /// of the object's tree. (The paper's `cexp` reads `cex(C)` off the `acq` events *in*
    /// `C`; a thread that never acquired the mutex in `C` — a deadlock — has none, yet
    /// its earlier acquisitions are in `ex(C)`.)
    fn cexp_blocked(&mut self, exec: &Execution, s: &mut Session<'_>) {
        let mut pending: Vec<Option<Action>> = vec![exec.first];
        for st in &exec.steps {
            if let (Action::Create(c), Some(a)) = (st.action, st.child_next) {
                if pending.len() <= c.index() {
                    pending.resize(c.index() + 1, None);
                }
                pending[c.index()] = Some(a);
            }
            pending[st.thread.index()] = st.next;
        }
        for (t, a) in pending.into_iter().enumerate() {
            // Blocking requests only (a try or timed operation never blocks).
            let Some(a) = a.filter(|a| a.request() == Some(*a)) else { continue };
            let Some(m) = a.object() else { continue };
            let t = ThreadId(t as u16);
            let Some(o) = self.u.obj_lookup(m) else { continue };
            let Some(last) = self.c.obj_last_of(o) else { continue };
            let et = self.c.last_of(t).or_else(|| self.c.creator_of(t)).unwrap_or(BOTTOM);
            s.stats.events_added += self.cexp_walk(t, a, et, last);
        }
    }

    // ----- alternatives -------------------------------------------------------------

    /// Whether `[x] ∪ C` is a configuration, `C` being the branch.
    fn compatible_with_branch(&self, x: EventId) -> bool {
        let ev = self.u.event(x);
        let in_c = |e: EventId| e == BOTTOM || self.in_c(e);
        let lt = self.last_of(ev.thread);
        // Fast accept: x is the next event of its thread and of its object after C, and
        // its other causes are in C.
        let thread_next = if ev.tpred != BOTTOM && self.u.event(ev.tpred).thread == ev.thread {
            lt == ev.tpred
        } else {
            lt == BOTTOM && in_c(ev.tpred)
        };
        if thread_next
            && ev.obj.is_none_or(|o| self.obj_last_of(o) == ev.opred)
            && in_c(ev.opred)
            && (!ev.has_extra() || self.u.extra(x).iter().all(|&e| in_c(e)))
        {
            return true;
        }
        // Fast reject without a tree walk: x's thread predecessor is in C but is not the
        // last event of x's thread in C (or x is its thread's first event and C already
        // has one). Then C holds a thread successor of that predecessor other than x
        // (x itself is not in C: callers pass events outside it), in conflict with x.
        if lt != BOTTOM && in_c(ev.tpred) && (ev.tpred == BOTTOM || ev.tpred != lt) {
            return false;
        }
        // Reject: C holds an event of x's thread that does not precede x.
        if lt != BOTTOM && !self.u.le(lt, x) {
            return false;
        }
        self.u.lmax_all(x).all(|(o, l)| self.obj_compatible(l, self.obj_last_of(o)))
    }

    /// Whether `l`, an operation on object `o`, is comparable in `o`'s tree with
    /// `last`, the last operation on `o` in the branch. An `l` in `C` precedes `last`
    /// (`C` is causally closed); an `l` outside `C` can only follow it, which needs no
    /// tree walk when `l` is not deeper.
    #[inline]
    fn obj_compatible(&self, l: EventId, last: EventId) -> bool {
        self.in_c(l) || self.u.obj_le(last, l)
    }

    /// Whether every immediate predecessor of `x` is in the branch (then `[x] \ C` is
    /// `{x}`, and no event outside C precedes x).
    fn preds_in_branch(&self, x: EventId) -> bool {
        let ev = self.u.event(x);
        let in_c = |e: EventId| e == BOTTOM || self.in_c(e);
        in_c(ev.tpred) && in_c(ev.opred) && (!ev.has_extra() || self.u.extra(x).iter().all(|&e| in_c(e)))
    }

    /// Whether `x`, a child of `pm(d)` in `d`'s object tree, belongs to the spike of
    /// `d` at node `k` (Def. 6 step 3): `x ≠ d`, `[x] ∪ C_k` is a configuration and
    /// `[x]` avoids `D_k`.
    ///
    /// Callers skip the siblings of `d` in `d`'s own thread: they are never members.
    /// `d ∈ en(C_k)`, so `pt(d)` is its thread's last event in `C_k` (or the thread has
    /// none there). If a sibling `x`'s thread predecessor is `pt(d)`, `x` is `d`'s
    /// statement after the same history: `x = d`. Otherwise `x`'s history holds the
    /// event `y` of the thread right after `pt(d)`; `y` runs `d`'s statement (a thread
    /// is deterministic given its causal history), so it is an operation on `d`'s
    /// object below `x`: `y ≤ pm(d)`, so `y ∈ C_k`, a later event of the thread than its
    /// last one in `C_k`. This keeps nested locking cheap: the variants of a thread's
    /// inner lock (one per history of its outer lock) all hang under one node.
    fn spike_member(&self, c: &Child, d: EventId, k: usize) -> bool {
        debug_assert!(c.thread != self.u.event(d).thread, "checker bug: a same-thread sibling reached spike_member");
        let in_c = |e: EventId| e == BOTTOM || self.in_c(e);
        // The fast reject of `compatible_with_branch`, without touching the event.
        let lt = self.last_of(c.thread);
        if lt != BOTTOM && in_c(c.tpred) && (c.tpred == BOTTOM || c.tpred != lt) {
            return false;
        }
        // A thread with no event in C: x's thread predecessor, an operation on some
        // object outside C, must come after C's last operation on that object, so it
        // must be deeper in that object's tree.
        if let (true, Some((o, depth))) = (lt == BOTTOM, c.tpred_obj) {
            if depth <= self.u.obj_depth(self.obj_last_of(o)) {
                return false;
            }
        }
        let x = c.event;
        if !self.compatible_with_branch(x) {
            return false;
        }
        // Sleep events are outside C: when x's history is C plus x, only x itself can
        // be one.
        let sleep = &self.nodes[k].sleep;
        if self.preds_in_branch(x) {
            !sleep.contains(&x)
        } else {
            sleep.iter().all(|&z| !self.u.le(z, x))
        }
    }

    /// The `i`-th element of `spike` (Def. 6 step 3), filling it lazily from its
    /// candidate list: a spike is scanned only as far as the search needs (the lazy
    /// comb construction the paper's §6 suggests).
    fn spike_get(&self, spike: &mut Spike, i: usize, k: usize, s: &mut Session<'_>) -> Option<EventId> {
        let (children, by_pred) = self.u.obj_kids(spike.obj, self.u.event(spike.target).opred);
        while spike.members.len() <= i && spike.range < spike.ranges.len() {
            let end = spike.ranges[spike.range].0.end;
            if spike.pos >= end {
                spike.range += 1;
                spike.pos = spike.ranges.get(spike.range).map_or(0, |x| x.0.start);
                continue;
            }
            let c =
                if spike.ranges[spike.range].1 { self.u.child_record(by_pred[spike.pos]) } else { children[spike.pos] };
            spike.pos += 1;
            s.stats.comb_scanned += 1;
            if self.spike_member(&c, spike.target, k) {
                spike.members.push(c.event);
            }
        }
        spike.members.get(i).copied()
    }

    /// The candidates of the spike of `d` with the branch at `C_k`, added to `ranges`
    /// (their number is returned): index ranges into `pm(d)`'s children, thread by
    /// thread (`Unfolding::obj_kids`). `d`'s own thread is skipped (see
    /// `spike_member`); in a thread with events in `C_k`, only the children whose
    /// thread predecessor is its last event in `C_k`, or deeper, can be compatible
    /// (`ChildGroup::after`); in a thread with none, only those whose thread
    /// predecessor, when it is an operation on an object, lies below `C_k`'s last
    /// operation on that object (`Unfolding::preds_below`). The ranges hold every
    /// member, so the scan's cost follows the candidates that can be members, not the
    /// number of variants in `U`.
    #[allow(clippy::type_complexity)]
    fn spike_ranges(&self, d: EventId, obj: ObjIdx, ranges: &mut Vec<(std::ops::Range<usize>, bool)>) -> usize {
        let dev = self.u.event(d);
        let mut n = 0;
        for g in self.u.obj_children_by_thread(obj, dev.opred) {
            if g.thread == dev.thread {
                continue;
            }
            let at = |r: std::ops::Range<usize>| g.start + r.start..g.start + r.end;
            let lt = self.last_of(g.thread);
            if lt == BOTTOM {
                self.u.preds_below(
                    &g,
                    |o| self.obj_last_of(o),
                    |r| {
                        n += r.len();
                        ranges.push((at(r), true));
                    },
                );
                continue;
            }
            for r in g.after(self.u.thread_depth(lt), lt) {
                if !r.is_empty() {
                    n += r.len();
                    ranges.push((at(r), false));
                }
            }
        }
        n
    }

    /// `Alt(C_k, D_k)` with the branch at `C_k` (Alg. 1 line 17, via a comb: §5, Def.
    /// 5–6): a clue `J`, returned as `J \ C_k` in causal order, or `None`.
    fn alternative(&mut self, k: usize, s: &mut Session<'_>) -> Option<Vec<EventId>> {
        let mut comb = std::mem::take(&mut self.comb);
        let spare = &mut comb.spare;
        spare.append(&mut comb.spikes);
        let found = self.alternative_with(&mut comb, k, s);
        self.comb = comb;
        found
    }

    /// [`Qpor::alternative`] with the spikes of `comb` (empty; its spare spikes are
    /// reused).
    fn alternative_with(&self, comb: &mut Comb, k: usize, s: &mut Session<'_>) -> Option<Vec<EventId>> {
        s.stats.alt_calls += 1;
        let sleep = &self.nodes[k].sleep;
        // Step 1–2: the selected events of D (the last k for k-partial alternatives).
        let take = self.k.unwrap_or(usize::MAX).min(sleep.len());
        for &d in sleep[sleep.len() - take..].iter().rev() {
            let dev = self.u.event(d);
            let Some(obj) = dev.obj else {
                // Never in conflict with anything: no configuration avoids it.
                return None;
            };
            let mut spike = comb.spare.pop().unwrap_or_else(|| Spike {
                target: d,
                obj,
                candidates: 0,
                members: Vec::new(),
                ranges: Vec::new(),
                range: 0,
                pos: 0,
            });
            spike.members.clear();
            spike.ranges.clear();
            let n = self.spike_ranges(d, obj, &mut spike.ranges);
            let pos = spike.ranges.first().map_or(0, |r| r.0.start);
            (spike.target, spike.obj, spike.candidates, spike.range, spike.pos) = (d, obj, n, 0, pos);
            comb.spikes.push(spike);
            if n == 0 {
                // A spike without candidates has no member (step 3): no alternative, and
                // the other spikes need not be built.
                return None;
            }
        }
        // Shortest candidate lists first: an empty spike is found after the least work,
        // and the search branches least near its root.
        comb.spikes.sort_by_key(|sp| sp.candidates);
        // Step 3, lazily: every spike needs one member, else there is no alternative.
        for i in 0..comb.spikes.len() {
            self.spike_get(&mut comb.spikes[i], 0, k, s)?;
        }
        // The caller times the whole backtracking (comb_build); the search is timed here
        // and taken out of it. (Reading the clock on every call, most of which end
        // above, cost more than some of the work it timed.)
        let t1 = Instant::now();
        // Step 4: depth-first search for a conflict-free combination.
        let chosen = self.search_comb(comb, k, s);
        let size: u64 = comb.spikes.iter().map(|sp| sp.members.len() as u64).sum();
        s.stats.comb_total += size;
        s.stats.comb_max = s.stats.comb_max.max(size);
        s.stats.time.comb_search += t1.elapsed();
        let chosen = chosen?;
        s.stats.alt_found += 1;
        Some(self.clue_events(&chosen))
    }

    /// Find one element per spike, pairwise conflict-free (a spike whose event already
    /// conflicts with a chosen element needs none). Explicit stack; spikes are filled as
    /// far as the search reaches.
    fn search_comb(&self, comb: &mut Comb, k: usize, s: &mut Session<'_>) -> Option<Vec<EventId>> {
        // cursor[i]: next index to try in spike i (usize::MAX: spike i is satisfied by
        // earlier choices); chosen[i]: the element picked, None when satisfied.
        let n = comb.spikes.len();
        let mut cursor = vec![0usize; n];
        let mut chosen: Vec<Option<EventId>> = Vec::with_capacity(n);
        let mut level = 0usize;
        loop {
            if level == n {
                return Some(chosen.into_iter().flatten().collect());
            }
            let d = comb.spikes[level].target;
            if cursor[level] == 0 && chosen.iter().flatten().any(|&x| self.u.conflict(x, d)) {
                cursor[level] = usize::MAX;
                chosen.push(None);
                level += 1;
                continue;
            }
            let mut picked = None;
            while let Some(x) = self.spike_get(&mut comb.spikes[level], cursor[level], k, s) {
                cursor[level] += 1;
                s.stats.comb_tried += 1;
                if chosen.iter().flatten().all(|&y| !self.u.conflict(x, y)) {
                    picked = Some(x);
                    break;
                }
            }
            match picked {
                Some(x) => {
                    chosen.push(Some(x));
                    level += 1;
                }
                None => {
                    // Backtrack to the previous level that can try another element.
                    cursor[level] = 0;
                    loop {
                        if level == 0 {
                            return None;
                        }
                        level -= 1;
                        chosen.pop();
                        if cursor[level] != usize::MAX {
                            break;
                        }
                        cursor[level] = 0;
                    }
                }
            }
        }
    }

    /// `J \ C` for `J = [x_1] ∪ ... ∪ [x_n]`, in causal order (post-order over causes).
    fn clue_events(&self, chosen: &[EventId]) -> Vec<EventId> {
        let mut out = Vec::new();
        let mut seen: HashSet<EventId> = HashSet::default();
        let mut stack: Vec<(EventId, bool)> = chosen.iter().rev().map(|&x| (x, false)).collect();
        while let Some((e, expanded)) = stack.pop() {
            if expanded {
                out.push(e);
                continue;
            }
            if self.in_c(e) || !seen.insert(e) {
                continue;
            }
            stack.push((e, true));
            let ev = self.u.event(e);
            for &p in self.u.extra(e).iter().rev().chain([ev.opred, ev.tpred].iter()) {
                if p != BOTTOM {
                    stack.push((p, false));
                }
            }
        }
        out
    }

    // ----- pruning ------------------------------------------------------------------

    /// Prune `U` to the causal closure of `K(C, D)` (the rule and why it suffices are
    /// in the module documentation, section "Memory").
    ///
    /// `full`: decide on every event; otherwise only on the events added since the last
    /// pruning ([`Unfolding::young`]), at a cost that follows them. `also`: events to keep
    /// besides, the alternative the next run follows. The rule keeps them too as far as
    /// the tests and nested_pairs 6 show (the same counts without them), but the run is
    /// checked against them by id: a freed one whose slot went to another event would
    /// stop the exploration, so they are kept whatever the rule says.
    fn prune(&mut self, full: bool, also: &[EventId]) {
        let mut keep = if full { vec![false; self.u.slots()] } else { std::mem::take(&mut self.young_keep) };
        keep.resize(self.u.slots(), false);
        // A young pruning reads and resets the marks of young events only.
        let mark = |keep: &mut Vec<bool>, u: &Unfolding, e: EventId| {
            if full || u.added_since_retain(e) {
                keep[e.index()] = true;
            }
        };
        for &e in self.c.events().iter().chain(also) {
            mark(&mut keep, &self.u, e);
        }
        for node in &self.nodes[..=self.c.len()] {
            for &d in &node.sleep {
                mark(&mut keep, &self.u, d);
            }
        }
        let PruneScratch { mut chains, mut pending_changes, mut pend, mut count, mut candidates } =
            std::mem::take(&mut self.prune_scratch);
        let objects = self.u.objects();
        chains.iter_mut().for_each(Vec::clear);
        chains.resize_with(objects, Vec::new);
        pending_changes.iter_mut().for_each(Vec::clear);
        pending_changes.resize_with(objects, Vec::new);
        // Positions in C of the operations on each object, in order.
        for (i, &e) in self.c.events().iter().enumerate() {
            if let Some(o) = self.u.event(e).obj {
                chains[o as usize].push(i as u32);
            }
        }
        // The last operation on `o` in C_j.
        let last_in_prefix = |o: ObjIdx, j: u32| -> EventId {
            let chain = &chains[o as usize];
            let n = chain.partition_point(|&p| p < j);
            if n == 0 {
                BOTTOM
            } else {
                self.c.events()[chain[n - 1] as usize]
            }
        };
        // Per object, the nodes where the number of threads whose pending action is on
        // it changes: (node j, count at C_j, xor of those threads' indices — the
        // thread itself when the count is 1).
        {
            pend.clear();
            count.clear();
            count.resize(objects, (0, 0));
            let u = &self.u;
            let obj_of = |a: Option<Action>| a.and_then(|a| a.object()).and_then(|o| u.obj_lookup(o));
            let mut set = |t: ThreadId, o: Option<ObjIdx>, j: u32, pend: &mut Vec<Option<ObjIdx>>| {
                if pend.len() <= t.index() {
                    pend.resize(t.index() + 1, None);
                }
                let old = std::mem::replace(&mut pend[t.index()], o);
                for (p, add) in [(old, false), (o, true)] {
                    let Some(p) = p else { continue };
                    let c = &mut count[p as usize];
                    c.0 = if add { c.0 + 1 } else { c.0 - 1 };
                    c.1 ^= t.index() as u32;
                    let ch = &mut pending_changes[p as usize];
                    match ch.last_mut() {
                        Some(last) if last.0 == j => *last = (j, c.0, c.1),
                        _ => ch.push((j, c.0, c.1)),
                    }
                }
            };
            set(ThreadId::MAIN, obj_of(self.first_pending), 0, &mut pend);
            for (i, (&t, &(next, child_next))) in self.c.schedule().iter().zip(&self.next_pending).enumerate() {
                let j = i as u32 + 1;
                set(t, obj_of(next), j, &mut pend);
                if let Action::Create(c) = self.u.action(self.c.events()[i]) {
                    set(c, obj_of(child_next), j, &mut pend);
                }
            }
        }
        // The nodes j in lo..=hi where a thread other than t has its pending action on
        // object o, as ranges.
        let others_pending = |o: ObjIdx, t: ThreadId, lo: u32, hi: u32| {
            let ch = &pending_changes[o as usize];
            let start = ch.partition_point(|c| c.0 <= lo).saturating_sub(1);
            // ch[start] (if at or before lo) is the state at lo; each entry holds until
            // the next one.
            (start..ch.len()).take_while(move |&i| ch[i].0 <= hi).filter_map(move |i| {
                let (j, n, who) = ch[i];
                let end = ch.get(i + 1).map_or(hi, |c| (c.0 - 1).min(hi));
                (n >= 2 || (n == 1 && who != t.index() as u32)).then_some(j.max(lo)..=end)
            })
        };
        // Whether [x] ∪ C_j is a configuration (every lmax of x comparable with C_j's last
        // operation on its object).
        let compatible_at =
            |x: EventId, j: u32| self.u.lmax_all(x).all(|(o, y)| self.u.obj_comparable(y, last_in_prefix(o, j)));
        candidates.clear();
        if full {
            candidates.extend((0..keep.len() as u32).map(EventId));
        } else {
            candidates.extend_from_slice(self.u.young());
        }
        for &x in &candidates {
            let kept = &mut keep[x.index()];
            if *kept || !self.u.is_live(x) {
                continue;
            }
            let ev = self.u.event(x);
            let Some(obj) = ev.obj else { continue };
            // The nodes j = lo..=hi of the branch where pm(x) is the last operation on
            // x's object.
            let (lo, hi) = if ev.opred == BOTTOM {
                (0, chains[obj as usize].first().copied())
            } else {
                match self.c.position(ev.opred) {
                    Some(p) => {
                        let chain = &chains[obj as usize];
                        (p as u32 + 1, chain.get(chain.partition_point(|&q| q <= p as u32)).copied())
                    }
                    _ => continue,
                }
            };
            let hi = hi.unwrap_or(self.c.len() as u32);
            // A node j of the window where another thread is pending on the object, [x] ∪
            // C_j is a configuration and [x] avoids D_j. Compatibility only gets lost as j
            // grows (C_j grows), so the walk stops at the first incompatible node; a walk
            // longer than `PRUNE_WALK` nodes keeps x (keeping is always safe).
            let mut walked = 0;
            'nodes: for r in others_pending(obj, ev.thread, lo, hi) {
                for j in r {
                    walked += 1;
                    if walked > PRUNE_WALK {
                        *kept = true;
                        break 'nodes;
                    }
                    if !compatible_at(x, j) {
                        break 'nodes;
                    }
                    if self.nodes[j as usize].sleep.iter().all(|&z| !self.u.le(z, x)) {
                        *kept = true;
                        break 'nodes;
                    }
                }
            }
        }
        self.prune_scratch = PruneScratch { chains, pending_changes, pend, count, candidates };
        if full {
            self.u.retain(&mut keep);
            self.pruned_at = self.u.len();
        } else {
            self.u.retain_young(&mut keep);
            self.young_keep = keep;
        }
        // The tests' small unfoldings are checked whole after every pruning.
        if cfg!(debug_assertions) && self.u.len() <= 4096 {
            self.u.assert_invariants();
            assert!(!self.young_keep.contains(&true), "checker bug: a young pruning left a mark");
        }
    }
}

/// `Qpor::prune` runs once `U` holds `1 + 1/PRUNE_GROWTH` times what it held after the
/// last pruning (plus the slack). Growth by half rather than doubling: on mpat_nested
/// K=6 the peak RSS falls from 58 to 51 MiB (K=7: 792 to 682 MiB) at the same time per
/// execution (40.5–41.8 against 40.8–42.1 µs, 4 alternating runs); by a quarter the
/// prunings cost more than the smaller `U` saves (41.4–43.0 against 37.5–39.6 µs).
const PRUNE_GROWTH: usize = 2;

/// How many events added since the last pruning make `Qpor::prune` decide on them (and
/// only them) while the next run runs: most of a run's new events are useless once the
/// backtracking has passed them (of the 40 000–62 000 added between two prunings on
/// mpat_nested K=6, 33 000–51 000 went), and a pruning of a few dozen events takes less
/// than a run, so it costs the critical path nothing, where one of tens of thousands
/// stopped the worker for milliseconds.
const YOUNG_PRUNE: usize = 32;

/// How many positions of the branch get their deferred `cexp` per part of the work
/// done while the next run runs (`Meanwhile`): a part should take well under a step of
/// the run, which waits for it to be taken.
const CEXP_PART: usize = 4;

/// The most nodes `Qpor::prune` examines for one event before it keeps the event
/// without deciding (which is always safe): bounds the cost of a pruning to
/// `O(|U| · PRUNE_WALK · |D_j|)`.
const PRUNE_WALK: u32 = 64;

impl Explorer for Qpor {
    fn explore(&mut self, s: &mut Session<'_>) -> Result<(), ExploreError> {
        let mut exec = Execution::default();
        let mut replay: Vec<ThreadId> = Vec::new();
        let mut sleep_req: Vec<(ThreadId, Action)> = Vec::new();
        let mut from = 0usize;
        let mut expect: Vec<EventId> = Vec::new();
        // Positions `deferred..from` of the branch (left in it by the last backtracking)
        // whose events still need their conflicting extensions (`cexp`): added while the
        // next run runs.
        let mut deferred: Option<usize> = None;
        loop {
            // The steps of the run become events while the program still runs, as far as
            // the program hands them over early (the rest after it ends).
            debug_assert_eq!(self.c.len(), from);
            debug_assert!(self.next_pending.len() >= from, "checker bug: pending actions of the branch lost");
            self.next_pending.truncate(from);
            let mut feed = Feed::new(from);
            if let Some(lo) = deferred.take() {
                // The next run is decided (Alg. 1 line 18): ask for it now, and finish the
                // work on the last run while it runs. `cexp` of the events at positions
                // `lo..from` and the pruning change only what later `Alt` calls see, so
                // they may come before the run's steps are taken (the C frontend) or
                // after some (`Program::run_overlapped` allows both): `find_or_add` makes
                // an event once whoever asks first, and pruning is sound at any state.
                let slack = s.config.prune_slack;
                let (mut added, mut spent, mut pruning) = (0, Duration::ZERO, Duration::ZERO);
                let mut next_cexp = lo;
                let this = std::cell::RefCell::new((&mut *self, &mut feed));
                s.run_overlapped(
                    &replay,
                    &sleep_req,
                    &mut exec,
                    &mut |steps| {
                        let (q, feed) = &mut *this.borrow_mut();
                        q.take_steps(steps, &expect, feed)
                    },
                    &mut || {
                        // A part at a time, in the gaps between the run's steps (which go
                        // first): the `cexp` of a few positions, then the pruning.
                        let (q, _) = &mut *this.borrow_mut();
                        if next_cexp < from {
                            let t = Instant::now();
                            let end = (next_cexp + CEXP_PART).min(from);
                            for i in next_cexp..end {
                                added += q.cexp(q.c.events()[i]);
                            }
                            next_cexp = end;
                            spent += t.elapsed();
                            return Meanwhile::More;
                        }
                        let full = q.u.len() > q.pruned_at + q.pruned_at / PRUNE_GROWTH + slack;
                        // (Nothing is pruned while `U` is within the slack.)
                        let young = q.u.len() > slack && q.u.young().len() >= YOUNG_PRUNE.min(slack).max(1);
                        if full || young {
                            let t = Instant::now();
                            q.prune(full, &expect);
                            pruning = t.elapsed();
                        }
                        Meanwhile::Done { wanted: true }
                    },
                )?;
                s.stats.events_added += added;
                s.stats.time.cex += spent;
                s.stats.time.prune += pruning;
            } else {
                s.run_streaming(&replay, &sleep_req, &mut exec, &mut |steps| {
                    self.take_steps(steps, &expect, &mut feed)
                })?;
            }
            self.absorb(s, &exec, &expect, &mut feed)?;
            self.record_size(&mut s.stats);
            if s.should_stop() {
                return Ok(());
            }
            // Backtrack to the deepest node with an alternative (Alg. 1 lines 17–18 at
            // each node, from the deepest). `Alt` at node k can use the conflicting
            // extensions of the events at positions k and beyond only (those of an event
            // of C_k conflict with it), so each new event needs its `cexp` by the time it
            // is popped: the events taken while the run went on have had it
            // (`take_steps`), the last ones get it when popped, and those left in the
            // branch while the next run runs.
            // (The time of the `cexp` calls here counts as the analysis': timing each
            // would cost about as much as the calls.)
            let t0 = Instant::now();
            let searched = s.stats.time.comb_search;
            let found = loop {
                if self.c.is_empty() {
                    break None;
                }
                let k = self.c.len() - 1;
                // The next run replays C_k (the first k steps of the last one) at most.
                s.next_branch_at_most(k);
                let e = self.pop();
                // (The events taken while the run went on have had theirs.)
                if k >= feed.cexp_to {
                    s.stats.events_added += self.cexp(e);
                }
                self.nodes[k].sleep.push(e);
                if let Some(a) = self.alternative(k, s) {
                    break Some((k, a));
                }
            };
            s.stats.time.comb_build += t0.elapsed().saturating_sub(s.stats.time.comb_search - searched);
            let Some((k, a)) = found else {
                self.record_size(&mut s.stats);
                return Ok(());
            };
            replay.clear();
            replay.extend_from_slice(self.c.schedule());
            replay.extend(a.iter().map(|&x| self.u.event(x).thread));
            sleep_req.clear();
            for &d in &self.nodes[k].sleep {
                let dev = self.u.event(d);
                let woken = dev.obj.is_some() && a.iter().any(|&x| self.u.event(x).obj == dev.obj);
                if !woken {
                    sleep_req.push((dev.thread, self.u.action(d)));
                }
            }
            // Positions `from..k` stay in the branch: those not taken while the run went
            // on (`cexp_to..k`; empty when k is at most `from`, as `cexp_to` is at least
            // `from`) get their `cexp` while the next one runs.
            deferred = Some(feed.cexp_to.min(k));
            from = k;
            expect = a;
        }
    }
}

#[cfg(test)]
mod tests {
    //! Straight-line programs (no data) checked against an exhaustive enumeration of
    //! schedules; the data-dependent programs of the papers are tested with the test
    //! model in `tests/`.
    use super::*;
    use crate::action::Bytes;
    use crate::explore::{explore, Algorithm};
    use crate::ids::{ObjId, ThreadNames};
    use crate::program::{drive, Frontend, Program, RunRequest, SchedState, Step};
    use crate::trace::trace_key;
    use crate::End;

    /// Thread code: a list of actions; `Create(ThreadId(i))` spawns code `i`.
    #[derive(Clone, Debug)]
    struct Lines {
        code: Vec<Vec<Action>>,
    }

    /// One run of [`Lines`]: program counters and code of each thread.
    struct LinesRun<'a> {
        code: &'a [Vec<Action>],
        names: ThreadNames,
        pc: Vec<usize>,
        code_of: Vec<usize>,
        spawned: Vec<u32>,
        out: &'a mut Execution,
    }

    impl LinesRun<'_> {
        fn pending(&mut self, t: usize) -> Option<Action> {
            let c = &self.code[self.code_of[t]];
            match c.get(self.pc[t]) {
                Some(Action::Create(_)) => Some(Action::Create(self.names.child(ThreadId(t as u16), self.spawned[t]))),
                Some(a) => Some(*a),
                None if t == 0 => Some(Action::ExitProcess),
                None if self.pc[t] == c.len() => Some(Action::Exit),
                None => None,
            }
        }
    }

    impl Frontend for LinesRun<'_> {
        fn site(&self, _: ThreadId) -> u64 {
            0
        }

        fn perform(
            &mut self,
            _: usize,
            t: ThreadId,
            action: Action,
            _: u64,
        ) -> Result<(Option<Action>, Option<Action>), ProgramError> {
            let ti = t.index();
            let mut child_next = None;
            if let Action::Create(c) = action {
                let Action::Create(ThreadId(code)) = self.code[self.code_of[ti]][self.pc[ti]] else { unreachable!() };
                self.spawned[ti] += 1;
                if self.pc.len() <= c.index() {
                    self.pc.resize(c.index() + 1, 0);
                    self.code_of.resize(c.index() + 1, 0);
                    self.spawned.resize(c.index() + 1, 0);
                }
                self.pc[c.index()] = 0;
                self.code_of[c.index()] = code as usize;
                child_next = self.pending(c.index());
            }
            self.pc[ti] += 1;
            Ok((self.pending(ti), child_next))
        }

        fn finish(&mut self, _: usize, step: &Step) -> Result<(), ProgramError> {
            self.out.steps.push(*step);
            Ok(())
        }
    }

    impl Program for Lines {
        fn run(&mut self, req: &RunRequest<'_>, out: &mut Execution) -> Result<(), ProgramError> {
            out.clear();
            let mut run = LinesRun {
                code: &self.code,
                names: ThreadNames::new(),
                pc: vec![0],
                code_of: vec![0],
                spawned: vec![0],
                out,
            };
            let first = run.pending(0);
            let end = drive(req, first, &mut SchedState::default(), &mut run)?;
            out.first = first;
            out.end = end;
            Ok(())
        }
    }

    /// Every schedule up to equivalence of prefixes, by recursion over replay
    /// prefixes: the set of trace keys of the maximal executions. Two prefixes with the
    /// same trace reach the same state, so only one of them is extended (state caching,
    /// not partial-order reduction: every distinct prefix trace is visited).
    fn brute_force(p: &mut Lines) -> HashSet<crate::trace::TraceKey> {
        let mode = Independence::AllDependent;
        let mut keys = HashSet::default();
        let mut visited = HashSet::default();
        let mut stack: Vec<Vec<ThreadId>> = vec![vec![]];
        let mut exec = Execution::default();
        while let Some(prefix) = stack.pop() {
            let req = RunRequest { replay: &prefix, sleep: &[], independence: mode, max_steps: 10_000 };
            p.run(&req, &mut exec).unwrap();
            let mut state = SchedState::new(exec.first);
            let mut steps: Vec<Step> = Vec::new();
            for (i, st) in exec.steps.iter().enumerate() {
                if i >= prefix.len() {
                    for t in state.threads() {
                        if t != st.thread && state.enabled(t) {
                            let action = state.resolve(t).unwrap();
                            steps.push(Step { thread: t, action, site: 0, next: None, child_next: None });
                            if visited.insert(trace_key(&steps, mode)) {
                                stack.push(steps.iter().map(|s| s.thread).collect());
                            }
                            steps.pop();
                        }
                    }
                }
                state.apply(i, st).unwrap();
                steps.push(*st);
                visited.insert(trace_key(&steps, mode));
            }
            keys.insert(trace_key(&exec.steps, mode));
        }
        keys
    }

    fn check(code: Vec<Vec<Action>>, k: Option<usize>) -> (u64, u64, u64) {
        let mut p = Lines { code };
        let expected = brute_force(&mut p.clone());
        let mut seen = HashSet::default();
        let mut obs = |e: &Execution, _new: bool, _: &crate::Stats| {
            if matches!(e.end, End::Finished | End::Deadlock { .. }) {
                seen.insert(trace_key(&e.steps, Independence::AllDependent));
            }
            crate::Control::Continue
        };
        let cfg = ExploreConfig { algorithm: Algorithm::Qpor { k }, check_distinct: true, ..ExploreConfig::default() };
        let stats = explore(&mut p, &cfg, &mut obs).unwrap();
        assert_eq!(seen, expected, "qpor k={k:?} missed or invented traces; stats {stats:?}");
        (stats.maximal_configurations, stats.redundant, stats.ssb)
    }

    fn cs(m: u64) -> Vec<Action> {
        vec![Action::Lock(ObjId(m)), Action::Unlock(ObjId(m), true)]
    }

    fn spawn_all(n: u16) -> Vec<Action> {
        let mut v: Vec<Action> = (1..=n).map(|i| Action::Create(ThreadId(i))).collect();
        v.extend((1..=n).map(|i| Action::Join(ThreadId(i))));
        v
    }

    #[test]
    fn two_threads_one_mutex() {
        let code = vec![spawn_all(2), cs(1), cs(1)];
        for k in [None, Some(1), Some(2)] {
            let (traces, redundant, ssb) = check(code.clone(), k);
            assert_eq!(traces, 2);
            assert_eq!((redundant, ssb), (0, 0));
        }
    }

    #[test]
    fn three_threads_two_critical_sections_each() {
        let mut t = cs(1);
        t.extend(cs(1));
        let code = vec![spawn_all(3), t.clone(), t.clone(), t];
        let (traces, redundant, ssb) = check(code, None);
        // 6 lock sections on one mutex, 2 per thread, in order per thread: 6!/(2!2!2!) = 90.
        assert_eq!(traces, 90);
        assert_eq!((redundant, ssb), (0, 0));
    }

    #[test]
    fn lock_order_inversion_deadlocks_are_found() {
        let a = vec![
            Action::Lock(ObjId(1)),
            Action::Lock(ObjId(2)),
            Action::Unlock(ObjId(2), true),
            Action::Unlock(ObjId(1), true),
        ];
        let b = vec![
            Action::Lock(ObjId(2)),
            Action::Lock(ObjId(1)),
            Action::Unlock(ObjId(1), true),
            Action::Unlock(ObjId(2), true),
        ];
        for k in [None, Some(1)] {
            let (traces, redundant, _) = check(vec![spawn_all(2), a.clone(), b.clone()], k);
            assert_eq!(traces, 3, "a-first, b-first and the deadlock");
            assert_eq!(redundant, 0);
        }
    }

    #[test]
    fn trylock_and_memory_accesses() {
        let x = ObjId(9);
        let a = vec![
            Action::TryLock(ObjId(1), false),
            Action::Write(x, Bytes::ALL),
            Action::Lock(ObjId(1)),
            Action::Unlock(ObjId(1), true),
        ];
        let b = vec![Action::Lock(ObjId(1)), Action::Read(x, Bytes::ALL), Action::Unlock(ObjId(1), true)];
        let c = vec![Action::Rmw(x, Bytes::ALL, true)];
        for k in [None, Some(1), Some(2)] {
            let (_, redundant, ssb) = check(vec![spawn_all(3), a.clone(), b.clone(), c.clone()], k);
            if k.is_none() {
                assert_eq!((redundant, ssb), (0, 0));
            }
        }
    }

    /// Random straight-line programs: nested critical sections in inconsistent orders,
    /// trylocks (whose failure is not handled: a successful trylock is never released,
    /// which makes more deadlocks), and memory accesses.
    fn random_lines(seed: u64) -> Vec<Vec<Action>> {
        let mut r = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move |n: u64| {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            r % n
        };
        let threads = 2 + next(2) as u16;
        let mutexes = 1 + next(3);
        let mut code = vec![spawn_all(threads)];
        for _ in 0..threads {
            let mut t = Vec::new();
            for _ in 0..1 + next(3) {
                match next(6) {
                    0 => t.push(Action::TryLock(ObjId(1 + next(mutexes)), false)),
                    1 => t.push(
                        [
                            Action::Read(ObjId(100), Bytes::ALL),
                            Action::Write(ObjId(100), Bytes::ALL),
                            Action::Rmw(ObjId(101), Bytes::ALL, true),
                        ][next(3) as usize],
                    ),
                    _ => {
                        let a = 1 + next(mutexes);
                        let b = 1 + next(mutexes);
                        t.push(Action::Lock(ObjId(a)));
                        if b != a && next(2) == 0 {
                            t.push(Action::Lock(ObjId(b)));
                            t.push(Action::Unlock(ObjId(b), true));
                        }
                        t.push(Action::Unlock(ObjId(a), true));
                    }
                }
            }
            code.push(t);
        }
        code
    }

    #[test]
    fn random_programs_match_brute_force() {
        let mut total = 0;
        for seed in 0..200 {
            let code = random_lines(seed);
            let (traces, redundant, ssb) = check(code.clone(), None);
            assert_eq!((redundant, ssb), (0, 0), "optimal qpor must be optimal on seed {seed}: {code:?}");
            for k in [1, 2, 3] {
                let (t, _, _) = check(code.clone(), Some(k));
                assert_eq!(t, traces, "seed {seed} k {k}");
            }
            total += traces;
        }
        assert!(total > 200, "the generator should make programs with several traces");
    }

    /// `cexp` (with the blocked-thread extension) against the definition of `cex`: for
    /// the configuration `C` of one run, every event `⟨a, H⟩` with `H` a causally closed
    /// subset of `C`, `a` enabled at `H`, and not itself in `C`, must have been added
    /// to `U`. The downsets `H` are enumerated exhaustively as bitmasks.
    #[test]
    fn cexp_finds_every_conflicting_extension_of_random_configurations() {
        let mut checked = 0usize;
        for seed in 0..150 {
            let code = random_lines(seed);
            let mut p = Lines { code };
            let mut exec = Execution::default();
            let req = RunRequest { replay: &[], sleep: &[], independence: Independence::AllDependent, max_steps: 64 };
            p.run(&req, &mut exec).unwrap();
            if exec.steps.len() > 40 {
                continue;
            }
            let cfg = ExploreConfig::default();
            let mut q = Qpor::new(None, &cfg).unwrap();
            let mut obs = crate::explore::NoObserver;
            let mut s = Session::new(&mut p, &mut obs, cfg);
            q.absorb(&mut s, &exec, &[], &mut Feed::new(0)).unwrap();
            // What the explorer adds later, before the `Alt` calls that use them.
            for i in 0..q.c.len() {
                q.cexp(q.c.events()[i]);
            }
            q.c.assert_invariants(&q.u);
            let seq = q.c.events().to_vec();
            let n = seq.len();
            // Immediate predecessors of each position, as positions.
            let pos = |e: EventId| seq.iter().position(|&x| x == e);
            let preds: Vec<u64> = seq
                .iter()
                .map(|&e| {
                    let ev = q.u.event(e);
                    [ev.tpred, ev.opred]
                        .iter()
                        .chain(q.u.extra(e))
                        .filter_map(|&p| pos(p))
                        .fold(0u64, |m, i| m | 1 << i)
                })
                .collect();
            // Every downset of C, by closure under adding a position whose preds are in.
            let mut seen_sets: HashSet<u64> = HashSet::default();
            let mut stack = vec![0u64];
            seen_sets.insert(0);
            while let Some(h) = stack.pop() {
                for (i, &pre) in preds.iter().enumerate() {
                    if h & (1 << i) == 0 && pre & !h == 0 {
                        let h2 = h | 1 << i;
                        if seen_sets.insert(h2) {
                            stack.push(h2);
                        }
                    }
                }
            }
            for &h in &seen_sets {
                // Per thread: last event in H and pending action; per object: last op.
                let mut last: Vec<Option<usize>> = vec![None; 8];
                let mut pending: Vec<Option<Action>> = vec![None; 8];
                let mut creator: Vec<Option<usize>> = vec![None; 8];
                pending[0] = exec.first;
                let mut obj_last: std::collections::HashMap<ObjId, usize> = Default::default();
                let mut owner: std::collections::HashMap<ObjId, ThreadId> = Default::default();
                let mut exited: Vec<bool> = vec![false; 8];
                for i in (0..n).filter(|i| h & (1 << i) != 0) {
                    let st = &exec.steps[i];
                    let t = st.thread.index();
                    last[t] = Some(i);
                    pending[t] = st.next;
                    if let Action::Create(c) = st.action {
                        creator[c.index()] = Some(i);
                        pending[c.index()] = st.child_next;
                    }
                    if st.action == Action::Exit {
                        exited[t] = true;
                    }
                    if let Some(o) = st.action.object() {
                        obj_last.insert(o, i);
                        match st.action {
                            Action::Lock(_) | Action::TryLock(_, true) => {
                                owner.insert(o, st.thread);
                            }
                            Action::Unlock(..) => {
                                owner.remove(&o);
                            }
                            _ => {}
                        }
                    }
                }
                for t in 0..8 {
                    let Some(a) = pending[t] else { continue };
                    if t != 0 && creator[t].is_none() {
                        continue;
                    }
                    let action = match a {
                        Action::Lock(m) if owner.contains_key(&m) => continue,
                        Action::TryLock(m, _) => Action::TryLock(m, !owner.contains_key(&m)),
                        Action::Join(u) if !exited[u.index()] => continue,
                        Action::ExitProcess => continue,
                        a => a,
                    };
                    let tpred = last[t].or(creator[t]).map(|i| seq[i]);
                    let opred = match action {
                        Action::Join(u) => last[u.index()].map(|i| seq[i]),
                        a => a.object().and_then(|o| obj_last.get(&o)).map(|&i| seq[i]),
                    };
                    let preds = Preds { tpred, opred, extra: vec![] };
                    let mut u = q.u.clone();
                    let (e, new) = u.find_or_add(ThreadId(t as u16), action, &preds);
                    assert!(
                        !new,
                        "seed {seed}: the extension {:?} of t{t} after {h:#b} is missing from U\n{:?}\n{:?}",
                        u.show(e),
                        exec.steps,
                        q.u
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "only {checked} extensions checked");
    }
}
