//! Explorers: one trait, one session, the same statistics for every algorithm.
//!
//! An explorer decides which executions to run; the [`Session`] runs them, counts them,
//! tells the [`Observer`] about each, and keeps the statistics that must be comparable
//! across algorithms (executions, maximal configurations, SSB). Each explorer
//! lives in its own file and adds its own figures to [`Stats`] (events and combs for
//! QPOR, wakeup-tree nodes for optimal-DPOR, backtrack sets for the others).
//!
//! Calling protocol of [`Explorer::explore`]: called once per exploration with a fresh
//! session; it calls [`Session::run`] once per execution, must stop as soon as
//! [`Session::should_stop`] is true, and returns when the exploration is complete.
//!
//! # Counting maximal configurations in constant memory
//!
//! Every reducing explorer (QPOR with any k, source-, optimal- and classic-DPOR) runs
//! at most one maximal execution per Mazurkiewicz trace: sleep sets (the DPORs) and the
//! set `D` of Algorithm 1 (QPOR) forbid a second one, whatever else they waste on
//! sleep-set-blocked executions. So the session counts maximal executions and keeps no
//! per-execution memory. The claim is checked, not trusted: with
//! [`ExploreConfig::check_distinct`] (a diagnostic the tests turn on) the session keeps
//! the set of trace keys it has seen (16 bytes per distinct trace) and counts repeats as
//! [`Stats::redundant`]; the property tests assert 0 on random programs for every
//! reducing explorer. The exhaustive `dfs` runs every interleaving of each trace, and
//! counts the one in lexicographic normal form
//! ([`crate::trace::is_lexicographic_normal_form`]): also without memory. With a
//! context-switch bound it may miss a trace's normal form, so it keeps the set then
//! (a bounded search is a diagnostic of its own); with `check_distinct` it keeps both,
//! and debug builds assert that the counts agree at the end of a complete search.

use crate::action::{Action, Independence};
use crate::ids::ThreadId;
use crate::program::{End, Execution, Program, ProgramError, RunRequest, Step};
use crate::trace::{is_lexicographic_normal_form, trace_key, TraceKey};
use rustc_hash::FxHashSet as HashSet;
use std::time::{Duration, Instant};

pub mod classic;
pub mod dfs;
mod dpor;
pub mod optimal;
pub mod qpor;
pub mod source;

/// Which exploration algorithm to run.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum Algorithm {
    /// Quasi-optimal POR (QPOR Algorithm 1) with k-partial alternatives; `k = None`
    /// means optimal alternatives (k = ∞).
    Qpor {
        /// The k of k-partial alternatives, or `None` for optimal alternatives.
        k: Option<usize>,
    },
    /// Source-DPOR (JACM'17 Algorithm 1, with the lock/blocking extensions of §8).
    SourceDpor,
    /// Optimal-DPOR with wakeup trees (JACM'17 Algorithm 2, §8 extensions).
    OptimalDpor,
    /// Classic DPOR with persistent and sleep sets (POPL'05 Figure 3/4).
    ClassicDpor,
    /// Every interleaving of visible steps: the ground truth for small programs.
    Dfs,
}

impl Algorithm {
    /// The name used on the command line and in reports.
    pub fn name(&self) -> String {
        match self {
            Algorithm::Qpor { k: None } => "qpor".into(),
            Algorithm::Qpor { k: Some(k) } => format!("qpor-k{k}"),
            Algorithm::SourceDpor => "source-dpor".into(),
            Algorithm::OptimalDpor => "optimal-dpor".into(),
            Algorithm::ClassicDpor => "classic-dpor".into(),
            Algorithm::Dfs => "dfs".into(),
        }
    }

    /// Parse a name as printed by [`Algorithm::name`] (`qpor`, `qpor-k2`, `source-dpor`...).
    pub fn parse(s: &str) -> Option<Algorithm> {
        Some(match s {
            "qpor" | "qpor-optimal" => Algorithm::Qpor { k: None },
            "source-dpor" => Algorithm::SourceDpor,
            "optimal-dpor" => Algorithm::OptimalDpor,
            "classic-dpor" => Algorithm::ClassicDpor,
            "dfs" => Algorithm::Dfs,
            _ => {
                let k = s.strip_prefix("qpor-k")?.parse().ok().filter(|&k| k >= 1)?;
                Algorithm::Qpor { k: Some(k) }
            }
        })
    }
}

/// Everything an exploration is configured by.
#[derive(Clone, Debug)]
pub struct ExploreConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The independence relation on memory accesses.
    pub independence: Independence,
    /// Per-execution bound on visible steps.
    pub max_steps: usize,
    /// Stop after this many executions (the exploration is then incomplete).
    pub max_executions: Option<u64>,
    /// Skip step of the skip-list ancestor search in thread/lock trees (QPOR §5.2).
    pub skip_step: usize,
    /// QPOR: prune `U` once it holds this many events more than 1.5 times what it held
    /// after the last pruning (0: no slack, which tests use to exercise pruning on small
    /// programs).
    pub prune_slack: usize,
    /// Context-switch bounding (`dfs` only): explore only the schedules with at most
    /// this many preemptions — switches away from a thread that could have gone on
    /// (Musuvathi and Qadeer's preemption bound; Dpu's `-x`). Not sound for proofs: an
    /// exploration with a bound finds bugs within the bound.
    pub max_preemptions: Option<usize>,
    /// Diagnostic: keep the set of trace keys of the maximal executions (16 bytes per
    /// distinct trace) to count distinct traces and detect redundant executions
    /// ([`Stats::redundant`]). Off, memory stays flat in the number of executions and
    /// [`Stats::maximal_configurations`] counts maximal executions, which every reducing
    /// explorer runs once per trace (see the module documentation). Always on for `dfs`.
    pub check_distinct: bool,
    /// Asked now and then during an explorer's own work between runs (the analysis of a
    /// long execution can take seconds): once it returns true the exploration stops as
    /// an observer's [`Control::Stop`] would. Asked often, so it must be cheap (the
    /// CLI's reads the clock at every 64th question only). The CLI's `--timeout` and signals.
    pub cancel: Option<Cancel>,
}

/// A predicate that cancels an exploration ([`ExploreConfig::cancel`]).
#[derive(Clone)]
pub struct Cancel(std::sync::Arc<dyn Fn() -> bool + Send + Sync>);

impl Cancel {
    /// A cancel predicate.
    pub fn new(f: impl Fn() -> bool + Send + Sync + 'static) -> Self {
        Cancel(std::sync::Arc::new(f))
    }

    /// Whether the exploration is to stop.
    pub fn is_set(&self) -> bool {
        (self.0)()
    }
}

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cancel(..)")
    }
}

impl Default for ExploreConfig {
    fn default() -> Self {
        ExploreConfig {
            algorithm: Algorithm::Qpor { k: None },
            independence: Independence::AllDependent,
            max_steps: 1_000_000,
            max_executions: None,
            skip_step: 4,
            prune_slack: 4096,
            max_preemptions: None,
            check_distinct: false,
            cancel: None,
        }
    }
}

/// Wall-clock time spent in each phase of an exploration.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct PhaseTimes {
    /// Running the program (including process or state reset).
    pub run: Duration,
    /// Adding the events of executions to the unfolding (QPOR) or processing the trace.
    pub add_events: Duration,
    /// Computing conflicting extensions (QPOR `cexp`) of the threads blocked at the end
    /// of a run and of the events left in the branch (those popped by the backtracking
    /// get theirs there, counted in `comb_build`).
    pub cex: Duration,
    /// Building combs with the `cexp` of the events popped before each (QPOR) /
    /// wakeup-tree insertions (optimal-DPOR) / race analysis.
    pub comb_build: Duration,
    /// Searching combs for a solution (QPOR).
    pub comb_search: Duration,
    /// Pruning the unfolding (QPOR; done while the next run runs, which it outlasts when
    /// it is long).
    pub prune: Duration,
}

/// Statistics of one exploration. Fields that an algorithm does not use stay zero.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    /// Program runs.
    pub executions: u64,
    /// Distinct Mazurkiewicz traces among the maximal executions explored (maximal
    /// configurations of the unfolding). Without [`ExploreConfig::check_distinct`]
    /// (and not `dfs`), the number of maximal executions, which is the same for every
    /// reducing explorer (module documentation).
    pub maximal_configurations: u64,
    /// Maximal executions explored whose trace had been explored before; counted only
    /// when [`Stats::distinct_checked`] (otherwise 0).
    pub redundant: u64,
    /// Whether distinctness was checked: with a set of trace keys (see
    /// [`ExploreConfig::check_distinct`]) or, by dfs, with normal forms (module
    /// documentation).
    pub distinct_checked: bool,
    /// Sleep-set-blocked executions.
    pub ssb: u64,
    /// Maximal executions that ended in a deadlock.
    pub deadlocks: u64,
    /// Executions in which the program showed a defect.
    pub defective: u64,
    /// Executions cut short (step bound, timeout, crash).
    pub cut: u64,
    /// Visible steps run, over all executions.
    pub steps: u64,
    /// QPOR: events in the unfolding now.
    pub events: u64,
    /// QPOR: most events the unfolding held at once.
    pub events_peak: u64,
    /// QPOR: the bytes the unfolding holds now ([`crate::unfolding::Unfolding::heap_bytes`]).
    pub unfolding_bytes: u64,
    /// QPOR: the most bytes the unfolding held at the end of an execution.
    pub unfolding_bytes_peak: u64,
    /// QPOR: events created (including those later pruned).
    pub events_added: u64,
    /// QPOR: steps of executions matched to an existing event.
    pub events_found: u64,
    /// QPOR: alternatives computations (calls of Alt).
    pub alt_calls: u64,
    /// QPOR: Alt calls that found an alternative.
    pub alt_found: u64,
    /// QPOR: largest comb (sum of spike lengths).
    pub comb_max: u64,
    /// QPOR: sum of comb sizes.
    pub comb_total: u64,
    /// QPOR: combinations tried during comb searches.
    pub comb_tried: u64,
    /// QPOR: spike candidates examined (children of `pm(d)` tested for membership).
    pub comb_scanned: u64,
    /// Optimal-DPOR: wakeup-tree nodes now / at most.
    pub wakeup_nodes: u64,
    /// Optimal-DPOR: most wakeup-tree nodes held at once.
    pub wakeup_peak: u64,
    /// Sequence-based DPORs: largest backtrack set.
    pub backtrack_max: u64,
    /// Sequence-based DPORs: total backtrack-set insertions.
    pub backtrack_total: u64,
    /// Time per phase.
    pub time: PhaseTimes,
    /// Wall-clock time of the whole exploration.
    pub elapsed: Duration,
    /// True if the exploration stopped before it was complete (observer or limit).
    pub stopped_early: bool,
}

impl Stats {
    /// Add the figures of `other`, an exploration of the same program that followed this
    /// one (the explorations of a search over a program's input values): counts and
    /// times add up, peaks and largest sizes take the larger, the current sizes (`events`,
    /// `unfolding_bytes`, `wakeup_nodes`) are `other`'s.
    pub fn absorb(&mut self, other: &Stats) {
        let Stats {
            executions,
            maximal_configurations,
            redundant,
            distinct_checked,
            ssb,
            deadlocks,
            defective,
            cut,
            steps,
            events,
            events_peak,
            unfolding_bytes,
            unfolding_bytes_peak,
            events_added,
            events_found,
            alt_calls,
            alt_found,
            comb_max,
            comb_total,
            comb_tried,
            comb_scanned,
            wakeup_nodes,
            wakeup_peak,
            backtrack_max,
            backtrack_total,
            time,
            elapsed,
            stopped_early,
        } = other;
        for (mine, theirs) in [
            (&mut self.executions, executions),
            (&mut self.maximal_configurations, maximal_configurations),
            (&mut self.redundant, redundant),
            (&mut self.ssb, ssb),
            (&mut self.deadlocks, deadlocks),
            (&mut self.defective, defective),
            (&mut self.cut, cut),
            (&mut self.steps, steps),
            (&mut self.events_added, events_added),
            (&mut self.events_found, events_found),
            (&mut self.alt_calls, alt_calls),
            (&mut self.alt_found, alt_found),
            (&mut self.comb_total, comb_total),
            (&mut self.comb_tried, comb_tried),
            (&mut self.comb_scanned, comb_scanned),
            (&mut self.backtrack_total, backtrack_total),
        ] {
            *mine += theirs;
        }
        for (mine, theirs) in [
            (&mut self.events_peak, events_peak),
            (&mut self.unfolding_bytes_peak, unfolding_bytes_peak),
            (&mut self.comb_max, comb_max),
            (&mut self.wakeup_peak, wakeup_peak),
            (&mut self.backtrack_max, backtrack_max),
        ] {
            *mine = (*mine).max(*theirs);
        }
        self.events = *events;
        self.unfolding_bytes = *unfolding_bytes;
        self.wakeup_nodes = *wakeup_nodes;
        self.distinct_checked |= distinct_checked;
        self.time.run += time.run;
        self.time.add_events += time.add_events;
        self.time.cex += time.cex;
        self.time.comb_build += time.comb_build;
        self.time.comb_search += time.comb_search;
        self.elapsed += *elapsed;
        self.stopped_early |= stopped_early;
    }
}

/// What the observer wants after an execution.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Control {
    /// Go on exploring.
    Continue,
    /// Stop the exploration as soon as possible.
    Stop,
}

/// Sees every execution an explorer runs (reports, progress, defect collection).
pub trait Observer {
    /// Called once per execution. `new_trace` is true for a maximal execution that
    /// counts as a Mazurkiewicz trace: one whose trace had not been explored before
    /// (with [`ExploreConfig::check_distinct`]), one in lexicographic normal form
    /// (`dfs` without it: its trace may have been explored already, and each trace has
    /// exactly one such execution), else every maximal execution.
    fn execution(&mut self, exec: &Execution, new_trace: bool, stats: &Stats) -> Control;
}

/// An observer that ignores everything.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoObserver;

impl Observer for NoObserver {
    fn execution(&mut self, _: &Execution, _: bool, _: &Stats) -> Control {
        Control::Continue
    }
}

impl<F: FnMut(&Execution, bool, &Stats) -> Control> Observer for F {
    fn execution(&mut self, exec: &Execution, new_trace: bool, stats: &Stats) -> Control {
        self(exec, new_trace, stats)
    }
}

/// Why an exploration could not be carried out.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ExploreError {
    /// Running the program failed (divergence, cannot start...).
    #[error(transparent)]
    Program(#[from] ProgramError),
    /// The algorithm does not support what was asked of it.
    #[error("{0}")]
    Unsupported(String),
}

/// One part of the work an explorer does while the program runs
/// ([`Session::run_overlapped`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meanwhile {
    /// More is left: call again.
    More,
    /// The work is done; whether the run asked for is still wanted.
    Done {
        /// False: the analysis changed the choice of the run (it is dropped).
        wanted: bool,
    },
}

/// The context of one exploration: runs executions and keeps the shared statistics.
pub struct Session<'p> {
    program: &'p mut dyn Program,
    observer: &'p mut dyn Observer,
    /// The configuration.
    pub config: ExploreConfig,
    /// Statistics so far; explorers add their own figures.
    pub stats: Stats,
    // invariant: Some iff distinctness is checked with a set (config.check_distinct, or
    // dfs with a context-switch bound).
    seen: Option<HashSet<TraceKey>>,
    // Unbounded dfs: a trace is counted at its lexicographic normal form; how many
    // executions were in normal form.
    normal_forms: bool,
    normal_count: u64,
    stop: bool,
    started: Instant,
}

impl std::fmt::Debug for Session<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("config", &self.config).field("stats", &self.stats).finish()
    }
}

impl<'p> Session<'p> {
    /// A session over `program`, reporting to `observer`.
    pub fn new(program: &'p mut dyn Program, observer: &'p mut dyn Observer, config: ExploreConfig) -> Self {
        let dfs = config.algorithm == Algorithm::Dfs;
        let set = config.check_distinct || (dfs && config.max_preemptions.is_some());
        let normal_forms = dfs && config.max_preemptions.is_none();
        Session {
            program,
            observer,
            config,
            stats: Stats { distinct_checked: set || normal_forms, ..Stats::default() },
            seen: set.then(HashSet::default),
            normal_forms,
            normal_count: 0,
            stop: false,
            started: Instant::now(),
        }
    }

    /// Run one execution: follow `replay`, then the default policy with `sleep` as the
    /// sleep set at the end of the replay. Updates the shared statistics and calls the
    /// observer.
    pub fn run(
        &mut self,
        replay: &[ThreadId],
        sleep: &[(ThreadId, Action)],
        out: &mut Execution,
    ) -> Result<(), ExploreError> {
        self.run_streaming(replay, sleep, out, &mut |_| {})
    }

    /// [`Session::run`], handing `early` the steps known to be final while the program
    /// still runs ([`Program::run_streaming`]).
    pub fn run_streaming(
        &mut self,
        replay: &[ThreadId],
        sleep: &[(ThreadId, Action)],
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
    ) -> Result<(), ExploreError> {
        let req = self.request(replay, sleep);
        let t0 = Instant::now();
        self.program.run_streaming(&req, out, early)?;
        self.stats.time.run += t0.elapsed();
        self.account(out);
        Ok(())
    }

    /// Run one execution while the explorer works on the previous one
    /// ([`Program::run_overlapped`]), handing `early` the steps known to be final as
    /// [`Session::run_streaming`] does: `meanwhile` is called while the program runs,
    /// one part of the work per call ([`Meanwhile`]), and says at the end whether this
    /// run is still wanted. An explorer that asks for its next run before its analysis
    /// of the last one is complete checks there that the analysis did not change its
    /// choice. A run that is not wanted is neither counted nor reported, and an error it
    /// ends with is dropped (the run that replaces it would meet it again). Returns
    /// whether the run was wanted. The time `meanwhile` takes is the explorer's, not the
    /// run's.
    pub fn run_overlapped(
        &mut self,
        replay: &[ThreadId],
        sleep: &[(ThreadId, Action)],
        out: &mut Execution,
        early: &mut dyn FnMut(&[Step]),
        meanwhile: &mut dyn FnMut() -> Meanwhile,
    ) -> Result<bool, ExploreError> {
        let req = self.request(replay, sleep);
        let t0 = Instant::now();
        let mut wanted = true;
        let mut spent = Duration::ZERO;
        let ran = self.program.run_overlapped(&req, out, early, &mut || {
            let t = Instant::now();
            let more = match meanwhile() {
                Meanwhile::More => true,
                Meanwhile::Done { wanted: w } => {
                    wanted = w;
                    false
                }
            };
            spent += t.elapsed();
            more
        });
        self.stats.time.run += t0.elapsed().saturating_sub(spent);
        if !wanted {
            return Ok(false);
        }
        ran?;
        self.account(out);
        Ok(true)
    }

    /// Tell the program that the next run will repeat at most the first `steps` steps of
    /// the last one ([`Program::next_branch_at_most`]).
    pub fn next_branch_at_most(&mut self, steps: usize) {
        self.program.next_branch_at_most(steps);
    }

    /// The request for a run that follows `replay`, then the default policy with `sleep`.
    fn request<'r>(&self, replay: &'r [ThreadId], sleep: &'r [(ThreadId, Action)]) -> RunRequest<'r> {
        RunRequest { replay, sleep, independence: self.config.independence, max_steps: self.config.max_steps }
    }

    /// Count a finished run and report it to the observer.
    fn account(&mut self, out: &Execution) {
        self.stats.executions += 1;
        self.stats.steps += out.steps.len() as u64;
        if !out.defects.is_empty() || matches!(out.end, End::Crash(_)) {
            self.stats.defective += 1;
        }
        let mut new_trace = false;
        match out.end {
            End::Finished | End::Deadlock { .. } => {
                if matches!(out.end, End::Deadlock { .. }) {
                    self.stats.deadlocks += 1;
                }
                let mode = self.config.independence;
                let normal = self.normal_forms && is_lexicographic_normal_form(&out.steps, mode);
                self.normal_count += u64::from(normal);
                let new = match self.seen.as_mut() {
                    Some(seen) => seen.insert(trace_key(&out.steps, mode)),
                    None => normal || !self.normal_forms,
                };
                if new {
                    self.stats.maximal_configurations += 1;
                    new_trace = true;
                } else {
                    self.stats.redundant += 1;
                }
            }
            End::SleepBlocked => self.stats.ssb += 1,
            End::StepBound | End::Timeout | End::Crash(_) => self.stats.cut += 1,
        }
        if self.observer.execution(out, new_trace, &self.stats) == Control::Stop {
            self.stop = true;
        }
        if self.config.max_executions.is_some_and(|m| self.stats.executions >= m) {
            self.stop = true;
        }
    }

    /// True once the observer or a limit asked the exploration to stop.
    pub fn should_stop(&self) -> bool {
        self.stop
    }

    /// A check of [`ExploreConfig::cancel`] for work done outside a run; `None` when
    /// nothing can cancel. Once it has returned true, [`Session::cancel`] the session.
    pub(crate) fn canceller(&self) -> Option<Cancel> {
        self.config.cancel.clone()
    }

    /// Stop the exploration: a [`ExploreConfig::cancel`] fired during the explorer's
    /// own work, which is left unfinished (so the exploration is incomplete).
    pub(crate) fn cancel(&mut self) {
        self.stop = true;
    }

    /// Finish: fill in elapsed time and whether the exploration stopped early.
    pub fn finish(mut self) -> Stats {
        self.stats.elapsed = self.started.elapsed();
        self.stats.stopped_early = self.stop;
        // A set kept beside the normal forms (dfs with check_distinct) saw each trace once
        // in a complete search: the counts agree, or one of them is wrong.
        debug_assert!(
            self.stop
                || !self.normal_forms
                || self.seen.is_none()
                || self.normal_count == self.stats.maximal_configurations,
            "checker bug: {} executions in lexicographic normal form, {} distinct traces",
            self.normal_count,
            self.stats.maximal_configurations
        );
        self.stats
    }
}

/// An exploration algorithm. See the module documentation for the calling protocol.
pub trait Explorer {
    /// Explore the program of `session` until complete or asked to stop.
    fn explore(&mut self, session: &mut Session<'_>) -> Result<(), ExploreError>;
}

/// The explorer for `config.algorithm`, or an error if it does not support the
/// configuration.
pub fn explorer_for(config: &ExploreConfig) -> Result<Box<dyn Explorer>, ExploreError> {
    if config.max_preemptions.is_some() && config.algorithm != Algorithm::Dfs {
        return Err(ExploreError::Unsupported(format!(
            "a context-switch bound is implemented for the dfs algorithm only (combining it with {}'s \
             reduction would lose schedules); use --algorithm dfs",
            config.algorithm.name()
        )));
    }
    match config.algorithm {
        Algorithm::Qpor { k } => Ok(Box::new(qpor::Qpor::new(k, config)?)),
        Algorithm::Dfs => Ok(Box::new(dfs::Dfs::new(config))),
        Algorithm::ClassicDpor => Ok(Box::new(classic::ClassicDpor::new(config))),
        Algorithm::SourceDpor => Ok(Box::new(source::SourceDpor::new(config))),
        Algorithm::OptimalDpor => Ok(Box::new(optimal::OptimalDpor::new(config))),
    }
}

/// Explore `program` with `config`, reporting every execution to `observer`.
pub fn explore(
    program: &mut dyn Program,
    config: &ExploreConfig,
    observer: &mut dyn Observer,
) -> Result<Stats, ExploreError> {
    let mut explorer = explorer_for(config)?;
    let mut session = Session::new(program, observer, config.clone());
    explorer.explore(&mut session)?;
    Ok(session.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_names_round_trip() {
        for a in [
            Algorithm::Qpor { k: None },
            Algorithm::Qpor { k: Some(2) },
            Algorithm::SourceDpor,
            Algorithm::OptimalDpor,
            Algorithm::ClassicDpor,
            Algorithm::Dfs,
        ] {
            assert_eq!(Algorithm::parse(&a.name()), Some(a));
        }
        assert_eq!(Algorithm::parse("qpor-k0"), None);
        assert_eq!(Algorithm::parse("nope"), None);
    }

    #[test]
    fn explorations_add_up_counts_and_keep_the_larger_peaks() {
        let a = Stats {
            executions: 10,
            maximal_configurations: 7,
            ssb: 2,
            steps: 100,
            events: 50,
            events_peak: 80,
            wakeup_peak: 3,
            time: PhaseTimes { run: Duration::from_millis(5), ..PhaseTimes::default() },
            elapsed: Duration::from_millis(9),
            ..Stats::default()
        };
        let b = Stats {
            executions: 4,
            maximal_configurations: 4,
            steps: 40,
            events: 20,
            events_peak: 30,
            wakeup_peak: 9,
            time: PhaseTimes { run: Duration::from_millis(2), ..PhaseTimes::default() },
            elapsed: Duration::from_millis(3),
            stopped_early: true,
            ..Stats::default()
        };
        let mut t = a.clone();
        t.absorb(&b);
        assert_eq!((t.executions, t.maximal_configurations, t.ssb, t.steps), (14, 11, 2, 140));
        assert_eq!((t.events, t.events_peak, t.wakeup_peak), (20, 80, 9), "now: the last; peaks: the larger");
        assert_eq!((t.time.run, t.elapsed), (Duration::from_millis(7), Duration::from_millis(12)));
        assert!(t.stopped_early, "a stop in any exploration stops the whole");
    }
}
