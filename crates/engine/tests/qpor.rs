//! QPOR (optimal and k-partial alternatives) against brute force and the paper's
//! Figure 1.
mod common;
use common::{brute_force, canon, Canon, Order, Overlap};
use std::collections::BTreeSet;
use unfold_engine::model::{programs, random, Model};
use unfold_engine::{explore, Algorithm, Control, End, Execution, ExploreConfig, Independence, Program, Stats};

const MODE: Independence = Independence::AllDependent;

fn run(m: &Model, k: Option<usize>) -> (Stats, BTreeSet<Canon>) {
    run_pruning(m, k, 4096)
}

/// Explore with QPOR, pruning `U` whenever it has grown by `slack` events.
fn run_pruning(m: &Model, k: Option<usize>, slack: usize) -> (Stats, BTreeSet<Canon>) {
    run_program(&mut m.clone(), k, slack)
}

/// [`run_pruning`] on any program.
fn run_program(p: &mut dyn Program, k: Option<usize>, slack: usize) -> (Stats, BTreeSet<Canon>) {
    let config = ExploreConfig {
        algorithm: Algorithm::Qpor { k },
        prune_slack: slack,
        check_distinct: true,
        ..ExploreConfig::default()
    };
    let mut traces = BTreeSet::new();
    let mut obs = |e: &Execution, _new: bool, _s: &Stats| {
        if matches!(e.end, End::Finished | End::Deadlock { .. }) {
            traces.insert(canon(&e.steps, MODE));
        }
        Control::Continue
    };
    let stats = explore(p, &config, &mut obs).expect("exploration");
    (stats, traces)
}

#[test]
fn random_programs_match_brute_force() {
    let (mut checked, mut traces_total) = (0, 0);
    let mut ssb_k1 = 0;
    let mut pruned = 0;
    for seed in 0..250u64 {
        let m = random::program(seed);
        let Some(brute) = brute_force(&mut m.clone(), MODE, 20_000) else { continue };
        checked += 1;
        traces_total += brute.traces.len();
        for k in [None, Some(1), Some(2), Some(3)] {
            // Prune after every execution, so that pruning is exercised on small programs.
            let (stats, traces) = run_pruning(&m, k, 0);
            assert!(
                traces == brute.traces,
                "seed {seed} k={k:?}: qpor found {} traces, brute force {} (missing {:?})\n{m:?}",
                traces.len(),
                brute.traces.len(),
                brute.traces.difference(&traces).next()
            );
            if k.is_none() {
                assert_eq!(
                    (stats.redundant, stats.ssb),
                    (0, 0),
                    "seed {seed}: optimal qpor explored a trace twice or hit a sleep-set block\n{m:?}"
                );
                assert_eq!(stats.executions as usize, brute.traces.len(), "seed {seed}");
            }
            if k == Some(1) {
                ssb_k1 += stats.ssb;
            }
            pruned += stats.events_added - stats.events_peak;
        }
    }
    println!("{checked} random programs, {traces_total} traces; SSB with k=1: {ssb_k1}; events pruned: {pruned}");
    assert!(pruned > 1000, "pruning must be exercised: {pruned} events pruned");
    assert!(checked >= 150, "only {checked} random programs were small enough for brute force");
}

#[test]
fn figure1_has_2n_configurations_and_no_ssb_for_k2_and_optimal() {
    let mut ssb_k1 = Vec::new();
    for n in 2..=10 {
        let m = programs::qpor_fig1(n);
        for k in [None, Some(2), Some(3)] {
            let (stats, traces) = run_pruning(&m, k, 0);
            assert_eq!(traces.len(), 2 * n, "n={n} k={k:?}");
            assert_eq!(stats.maximal_configurations as usize, 2 * n);
            assert_eq!((stats.ssb, stats.redundant), (0, 0), "n={n} k={k:?}: {stats:?}");
        }
        let (stats, traces) = run(&m, Some(1));
        assert_eq!(traces.len(), 2 * n, "n={n} k=1");
        ssb_k1.push((n, stats.ssb));
    }
    println!("Figure 1, SSB with k=1 by n: {ssb_k1:?}");
    // k = 1 is not optimal here: its SSB count grows with n.
    assert!(ssb_k1.last().unwrap().1 > ssb_k1.first().unwrap().1, "{ssb_k1:?}");
}

#[test]
fn figure2_program() {
    let m = programs::qpor_fig2();
    let brute = brute_force(&mut m.clone(), MODE, 100_000).expect("small");
    for k in [None, Some(1), Some(2)] {
        let (stats, traces) = run(&m, k);
        assert_eq!(traces, brute.traces, "k={k:?}");
        if k.is_none() {
            assert_eq!((stats.redundant, stats.ssb), (0, 0));
        }
    }
}

#[test]
fn qpor_agrees_with_the_dpor_family_on_paper_programs() {
    for (name, m) in [
        ("lastzero(3)", programs::lastzero(3)),
        ("filesystem(16)", programs::filesystem(16)),
        ("philosophers(4)", programs::philosophers(4)),
        ("lock_chain(3,2)", programs::lock_chain(3, 2)),
    ] {
        let (qs, qt) = run(&m, None);
        let mut mm = m.clone();
        let config =
            ExploreConfig { algorithm: Algorithm::OptimalDpor, check_distinct: true, ..ExploreConfig::default() };
        let mut traces = BTreeSet::new();
        let mut obs = |e: &Execution, _: bool, _: &Stats| {
            if matches!(e.end, End::Finished | End::Deadlock { .. }) {
                traces.insert(canon(&e.steps, MODE));
            }
            Control::Continue
        };
        explore(&mut mm, &config, &mut obs).expect("optimal-dpor");
        assert_eq!(qt, traces, "{name}");
        assert_eq!((qs.redundant, qs.ssb), (0, 0), "{name}");
    }
}

#[test]
fn deep_executions_do_not_overflow_the_stack() {
    // One thread with 30 000 critical sections: a branch 60 000 events deep.
    let m = programs::lock_chain(1, 30_000);
    let (stats, traces) = run(&m, None);
    assert_eq!((stats.executions, traces.len()), (1, 1));
    assert!(stats.steps > 60_000, "{stats:?}");
}

#[test]
fn random_programs_with_every_sync_object_match_brute_force() {
    // Condition variables, semaphores, read-write locks and barriers: QPOR asks each
    // kind's semantics (engine::objects) for enabledness in its cexp walk.
    let shape = random::Shape { sync_objects: true, ..random::Shape::default() };
    let (mut checked, mut traces_total, mut deadlocks) = (0, 0, 0);
    // Programs whose traces exercise each kind of blocking operation.
    let kinds = ["cond-wake(", "cond-timedwake(", "signal(", "broadcast(", "sem-wait(", "rdlock(", "wrlock("];
    let kinds = [&kinds[..], &["tryrdlock(", "trywrlock(", "sem-trywait(", "barrier-leave("]].concat();
    let mut exercised = vec![0usize; kinds.len()];
    for seed in 7000..7250u64 {
        let m = random::program_with(seed, shape);
        let Some(brute) = brute_force(&mut m.clone(), MODE, 20_000) else { continue };
        checked += 1;
        traces_total += brute.traces.len();
        deadlocks += !brute.deadlocks.is_empty() as usize;
        for (i, k) in kinds.iter().enumerate() {
            let used =
                brute.traces.iter().any(|c| c.threads.iter().any(|(_, a)| a.iter().any(|(_, s)| s.starts_with(k))));
            exercised[i] += used as usize;
        }
        for k in [None, Some(1), Some(2)] {
            let (stats, traces) = run_pruning(&m, k, 0);
            assert!(
                traces == brute.traces,
                "seed {seed} k={k:?}: qpor found {} traces, brute force {} (missing {:?})\n{m:?}",
                traces.len(),
                brute.traces.len(),
                brute.traces.difference(&traces).next()
            );
            if k.is_none() {
                assert_eq!((stats.redundant, stats.ssb), (0, 0), "seed {seed}: optimal qpor not optimal\n{m:?}");
                assert_eq!(stats.executions as usize, brute.traces.len(), "seed {seed}");
            }
        }
    }
    println!("{checked} random programs with sync objects, {traces_total} traces, {deadlocks} with deadlocks");
    println!("programs exercising each operation: {:?}", kinds.iter().zip(&exercised).collect::<Vec<_>>());
    for (k, n) in kinds.iter().zip(&exercised) {
        assert!(*n >= 5, "only {n} programs exercise {k}");
    }
    assert!(checked >= 150, "only {checked} random programs were small enough for brute force");
    assert!(deadlocks >= 10, "the suite must contain blocking bugs: {deadlocks}");
}

#[test]
fn random_racy_programs_under_sequential_consistency_match_brute_force() {
    // Plain accesses made visible (`--memory sc`): one memory object per variable.
    let shape = random::Shape { racy: true, sync_objects: true, ..random::Shape::default() };
    let mut checked = 0;
    for seed in 9500..9640u64 {
        let m = random::program_with(seed, shape).with_plain_accesses_visible();
        let Some(brute) = brute_force(&mut m.clone(), MODE, 20_000) else { continue };
        checked += 1;
        optimal_and_k1_match(seed, &m, &brute.traces);
    }
    assert!(checked >= 90, "only {checked} programs small enough");
}

#[test]
fn random_programs_with_spin_waits_match_brute_force() {
    // Spin-waits block (Action::Await) until another thread writes the location: the
    // brute force treats them as blocking waits, and every execution spent on a spin
    // iteration would show as an extra trace.
    let shape = random::Shape { spins: true, sync_objects: true, ..random::Shape::default() };
    // Each program with its waits as assumptions (the C runtime's: never woken), and
    // every third one as ordinary waits too (performed once woken).
    let (mut checked, mut with_await, mut failed) = (0, 0, 0);
    for seed in 12_000..12_200u64 {
        let m = random::program_with(seed, shape);
        let Some(brute) = brute_force(&mut m.clone(), MODE, 20_000) else { continue };
        checked += 1;
        failed += (brute.deadlocks.len() > brute.stuck.len()) as u32;
        optimal_and_k1_match(seed, &m, &brute.traces);
        let old = m.clone().without_assumptions();
        if !seed.is_multiple_of(3) {
            continue;
        }
        let Some(brute_old) = brute_force(&mut old.clone(), MODE, 20_000) else { continue };
        with_await += brute_old
            .traces
            .iter()
            .any(|c| c.threads.iter().any(|(_, a)| a.iter().any(|(_, s)| s.starts_with("await("))))
            as u32;
        optimal_and_k1_match(seed, &old, &brute_old.traces);
    }
    println!("{checked} programs with spin-waits, {with_await} with a wait performed (ordinary waits), {failed} with a failed assumption");
    assert!(
        checked >= 120 && with_await >= 7 && failed >= 20,
        "{checked} checked, {with_await} with a wait performed, {failed} with a failed assumption"
    );
}

/// QPOR with optimal alternatives and with k = 1, pruning on, finds exactly `expected`
/// on random program `seed`, and the optimal one explores no trace twice and no SSB.
fn optimal_and_k1_match(seed: u64, m: &Model, expected: &BTreeSet<Canon>) {
    for k in [None, Some(1)] {
        let (stats, traces) = run_pruning(m, k, 0);
        assert!(
            traces == *expected,
            "seed {seed} k={k:?}: {} traces, brute force {}\n{m:?}",
            traces.len(),
            expected.len()
        );
        if k.is_none() {
            assert_eq!((stats.redundant, stats.ssb), (0, 0), "seed {seed}");
        }
    }
}

/// Spinlocks built from read-modify-writes (see the DPOR family's
/// `random_programs_with_rmw_spinlocks`): QPOR keeps a read-modify-write's event label
/// without its outcome (an event added as a conflicting extension learns it when a run
/// performs it), finds exactly the brute force's traces with and without pruning, and
/// never diverges on a replay. `UNFOLD_RMW_SEEDS` runs more seeds locally.
#[test]
fn random_programs_with_rmw_spinlocks_match_brute_force() {
    let shape = random::Shape { rmw_spins: true, ..random::Shape::default() };
    let n: u64 = std::env::var("UNFOLD_RMW_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(120);
    let (mut checked, mut unchanged) = (0u64, 0u64);
    for seed in 18_000..18_000 + n {
        let m = random::program_with(seed, shape);
        let Some(brute) = brute_force(&mut m.clone(), MODE, 20_000) else { continue };
        checked += 1;
        unchanged += brute
            .traces
            .iter()
            .any(|c| c.threads.iter().any(|(_, a)| a.iter().any(|(_, s)| s.ends_with("=unchanged"))))
            as u64;
        optimal_and_k1_match(seed, &m, &brute.traces);
    }
    println!("{checked} programs with RMW spinlocks, {unchanged} with an unchanged read-modify-write");
    assert!(checked * 2 >= n && unchanged * 2 >= checked, "{checked} checked, {unchanged} with an unchanged RMW");
}

/// Model `m` (waits as assumptions, as the C runtime makes them) against brute force
/// with QPOR optimal and k = 1, and every third seed also with ordinary waits. `None` if
/// the brute force does not fit; else whether some execution ended on a failed
/// assumption, and the brute force with ordinary waits when it ran and fitted.
fn both_ways(seed: u64, m: Model) -> Option<(bool, Option<common::Brute>)> {
    let brute = brute_force(&mut m.clone(), MODE, 20_000)?;
    optimal_and_k1_match(seed, &m, &brute.traces);
    let assumed = brute.deadlocks.len() > brute.stuck.len();
    if !seed.is_multiple_of(3) {
        return Some((assumed, None));
    }
    let old = m.without_assumptions();
    let ordinary = brute_force(&mut old.clone(), MODE, 20_000);
    if let Some(b) = &ordinary {
        optimal_and_k1_match(seed, &old, &b.traces);
    }
    Some((assumed, ordinary))
}

/// Polls of a plain flag under the mutex that guards it (see the DPOR family's
/// `random_programs_with_polls_under_a_mutex`): after an iteration that found nothing the
/// poller stops on an assumption (`Awaited::assume`), as the C runtime makes it; every
/// third program also with the ordinary wait for another thread's unlock of the mutex,
/// an await event in the mutex's tree, enabled where the release count differs from the
/// one seen. QPOR with optimal alternatives and with k = 1, pruning on, finds exactly the
/// brute force's traces, the optimal one with no redundant and no SSB execution.
/// `UNFOLD_POLL_SEEDS` runs more seeds locally.
#[test]
fn random_programs_with_polls_under_a_mutex_match_brute_force() {
    let shape = random::Shape { poll_mutex: true, ..random::Shape::default() };
    let n: u64 = std::env::var("UNFOLD_POLL_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(120);
    let (mut checked, mut failed, mut ordinary, mut waited) = (0u64, 0u64, 0u64, 0u64);
    for seed in 22_000..22_000 + n {
        let m = random::program_with(seed, shape);
        let Some((assumed, old)) = both_ways(seed, m) else { continue };
        checked += 1;
        failed += assumed as u64;
        let Some(brute) = old else { continue };
        ordinary += 1;
        // The model's mutexes print as small object ids: `await(o0, 3)`.
        waited += brute.traces.iter().any(|c| {
            c.threads.iter().any(|(_, a)| {
                a.iter().any(|(_, s)| {
                    s.strip_prefix("await(o").and_then(|r| r.split(',').next()).is_some_and(|id| id.len() < 9)
                })
            })
        }) as u64;
    }
    println!(
        "{checked} programs polling under a mutex, {failed} with a failed assumption; {ordinary} also with \
         ordinary waits, {waited} with a wait on a mutex"
    );
    assert!(
        checked * 2 >= n && failed * 5 >= checked && ordinary * 4 >= checked && waited * 3 >= ordinary,
        "{checked} checked, {failed} with a failed assumption, {waited} of {ordinary} with a wait on a mutex"
    );
}

/// Several threads polling one mutex (`programs::pollers_of_one_mutex` and
/// `programs::polls_behind_an_empty_section`, as in the DPOR family's
/// `several_pollers_of_one_mutex`): the pollers' weak unlocks move no release count, so
/// their waits are woken only by an unlock that may publish something; the waits are
/// assumptions, as the C runtime makes them (and checked as ordinary waits too). QPOR
/// with optimal alternatives and with k = 1 finds exactly the brute force's traces and
/// verdicts, the optimal one with no redundant and no SSB execution (114 traces for two
/// pollers of a flag with the C runtime's warm-up, 1 086 with ordinary waits: `unfold
/// check --algorithm qpor` runs 114 on tests/c/sync_poll_two_pollers.c).
#[test]
fn several_pollers_of_one_mutex_match_brute_force() {
    let cases = [
        ("2 pollers, set", programs::pollers_of_one_mutex(2, false, 1, 2), Some((114, 1_086))),
        ("2 consumers, 1 item", programs::pollers_of_one_mutex(2, true, 1, 0), None),
        ("2 pollers, never set", programs::pollers_of_one_mutex(2, false, 0, 2), None),
        ("3 pollers, never set", programs::pollers_of_one_mutex(3, false, 0, 0), None),
        ("1 poller behind an empty section, bug", programs::polls_behind_an_empty_section(1, true), None),
    ];
    for (i, (name, m, figures)) in cases.into_iter().enumerate() {
        let brute = brute_force(&mut m.clone(), MODE, 400_000).expect("small enough");
        optimal_and_k1_match(i as u64, &m, &brute.traces);
        let old = m.clone().without_assumptions();
        let ordinary = brute_force(&mut old.clone(), MODE, 400_000).expect("small enough");
        optimal_and_k1_match(i as u64, &old, &ordinary.traces);
        assert_eq!(ordinary.defective.is_empty(), brute.defective.is_empty(), "{name}");
        if let Some(n) = figures {
            assert_eq!((brute.traces.len(), ordinary.traces.len()), n, "{name}");
        }
        for k in [None, Some(1)] {
            let mut mm = m.clone();
            let config = ExploreConfig { algorithm: Algorithm::Qpor { k }, ..ExploreConfig::default() };
            let s = explore(&mut mm, &config, &mut |_: &Execution, _: bool, _: &Stats| Control::Continue)
                .expect("exploration");
            assert_eq!(s.defective > 0, !brute.defective.is_empty(), "{name} k={k:?}");
        }
    }
}

/// Retry loops of failed try operations (see the DPOR family's
/// `random_programs_with_try_spins`): after a failed `trylock`, `trywait` or read-write
/// try the thread stops on an assumption (`Awaited::assume`), as the C runtime makes it;
/// every third program also with the ordinary wait for the object's await count to move
/// (an unlock, a post), an await event in the object's tree, enabled where the count
/// after its tree predecessor differs from the one seen. QPOR with optimal alternatives
/// and with k = 1, pruning on, finds exactly the brute force's traces, the optimal one
/// with no redundant and no SSB execution. Programs with a timed-wait poll (a wait on the mutex and the condition
/// variable) wait on two objects, which QPOR refuses: they are skipped (and retry loops
/// that also read a variable are not in this shape). `UNFOLD_TRY_SEEDS` runs more seeds
/// locally.
#[test]
fn random_programs_with_try_spins_match_brute_force() {
    let shape = random::Shape { try_spins: true, ..random::Shape::default() };
    let n: u64 = std::env::var("UNFOLD_TRY_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(120);
    let (mut checked, mut failed, mut ordinary, mut waited, mut multi) = (0u64, 0u64, 0u64, 0u64, 0u64);
    for seed in 30_000..30_000 + n {
        let m = random::program_with(seed, shape);
        if format!("{m:?}").contains("AwaitUnlock(") {
            // A timed-wait poll: a wait on two objects.
            multi += 1;
            continue;
        }
        let Some((assumed, old)) = both_ways(seed, m) else { continue };
        checked += 1;
        failed += assumed as u64;
        let Some(brute) = old else { continue };
        ordinary += 1;
        waited += brute.traces.iter().any(|c| {
            c.threads
                .iter()
                .any(|(_, a)| a.windows(2).any(|w| w[0].1.ends_with("=busy") && w[1].1.starts_with("await(")))
        }) as u64;
    }
    println!(
        "{checked} programs with try retry loops, {failed} with a failed assumption; {ordinary} also with ordinary \
         waits, {waited} with a wait after a failed try ({multi} skipped: waits on two objects)"
    );
    assert!(
        checked * 2 >= n - multi && failed * 5 >= checked && ordinary * 4 >= checked && waited * 5 >= ordinary,
        "{checked} checked, {failed} with a failed assumption, {waited} of {ordinary} with a wait after a failed try"
    );
}

/// Pruning keeps the unfolding near the size of what the current branch can still use,
/// not of everything explored: over thousands of executions, the most events held at once
/// stays a small fraction of the events created (without pruning they are equal).
#[test]
fn memory_stays_bounded_over_many_executions() {
    // Two threads with 6 critical sections each on one mutex: C(12, 6) = 924 traces.
    let m = programs::lock_chain(2, 6);
    let (unpruned, traces) = run_pruning(&m, None, 1 << 40);
    assert_eq!((unpruned.executions, traces.len()), (924, 924));
    assert_eq!(unpruned.events_peak, unpruned.events_added, "{unpruned:?}");
    let (pruned, traces) = run_pruning(&m, None, 64);
    assert_eq!((pruned.executions, traces.len()), (924, 924));
    println!(
        "events created {}, peak {} (unpruned peak {})",
        pruned.events_added, pruned.events_peak, unpruned.events_peak
    );
    assert!(pruned.events_peak * 10 < pruned.events_added, "{pruned:?}");
}

/// k threads, each taking a global mutex and, inside it, a mutex of its own that no
/// other thread touches. Each inner lock has one variant per history of the outer lock
/// (hanging under the root of the inner mutex's tree), but no other thread ever has a
/// pending action on the inner mutex, so no `Alt` can use them as spike members: the
/// pruning rule (`K(C, D)`, module documentation of `explore::qpor`) drops them, and
/// `U` stays proportional to the branch. Counted in events, not time.
#[test]
fn pruning_drops_variants_of_locks_no_other_thread_takes() {
    use unfold_engine::model::ModelBuilder;
    let k = 6;
    let mut b = ModelBuilder::new();
    let g = b.mutex();
    let mut ts = Vec::new();
    for _ in 0..k {
        let p = b.mutex();
        let c = b.var(0);
        ts.push(b.thread("worker", |t| {
            t.lock(g);
            t.lock(p);
            t.store(c, 1);
            t.unlock(p);
            t.unlock(g);
        }));
    }
    b.main(|t| {
        let hs: Vec<_> = ts.iter().map(|&c| t.spawn(c)).collect();
        for h in hs {
            t.join(h);
        }
    });
    let m = b.build();
    let (unpruned, traces) = run_pruning(&m, None, 1 << 40);
    // The order of the k workers on g: k! = 720 traces.
    assert_eq!((unpruned.executions, traces.len()), (720, 720));
    let (pruned, traces) = run_pruning(&m, None, 64);
    assert_eq!((pruned.executions, traces.len(), pruned.ssb), (720, 720, 0));
    println!(
        "events created {}, peak {} (unpruned peak {})",
        pruned.events_added, pruned.events_peak, unpruned.events_peak
    );
    // Without the pending-action condition of the rule the variants stay (peak 8 513
    // of 14 126 events); with it, the peak is a few hundred.
    assert!(pruned.events_peak * 8 < unpruned.events_peak, "{pruned:?} vs {unpruned:?}");
}

/// Variables sharing 8-byte memory words ([`random::Shape::shared_words`]): QPOR keeps
/// every two accesses to one word dependent (its trees need it), the relation of
/// all-dependent mode, under which its counts and the brute force's are word-level;
/// spin-waits are still woken only by writes to the bytes they read. QPOR with optimal
/// alternatives and with k = 1, pruning on, finds exactly the brute force's traces.
#[test]
fn random_programs_with_shared_words_match_brute_force() {
    let d = random::Shape { shared_words: true, ..random::Shape::default() };
    let shapes = [
        random::Shape { spins: true, sync_objects: true, ..d },
        random::Shape { rmw_spins: true, ..d },
        random::Shape { lock_free: true, ..d },
    ];
    for (i, shape) in shapes.into_iter().enumerate() {
        let (mut checked, mut partial_waits) = (0, 0);
        for seed in 40_000 + 1_000 * i as u64..40_080 + 1_000 * i as u64 {
            // As assumptions, and every third program as ordinary waits too (which are
            // performed).
            let m = random::program_with(seed, shape);
            let Some(brute) = brute_force(&mut m.clone(), MODE, 20_000) else { continue };
            checked += 1;
            optimal_and_k1_match(seed, &m, &brute.traces);
            let old = m.clone().without_assumptions();
            if !seed.is_multiple_of(3) {
                continue;
            }
            let Some(brute_old) = brute_force(&mut old.clone(), MODE, 20_000) else { continue };
            partial_waits += brute_old.traces.iter().any(|c| {
                c.threads.iter().any(|(_, a)| a.iter().any(|(_, s)| s.starts_with("await(") && s.contains("..")))
            }) as u32;
            optimal_and_k1_match(seed, &old, &brute_old.traces);
        }
        println!("shared words, shape {i}: {checked} programs, {partial_waits} with a wait on part of a word");
        assert!(checked >= 40, "shape {i}: only {checked} programs small enough");
        assert!(i != 0 || partial_waits >= 2, "only {partial_waits} programs waited on part of a word");
    }
}

/// QPOR asks for its next run before it has added the conflicting extensions of the
/// last run's events left in the branch, and prunes while the run runs. Whether that
/// work comes before the run's steps are taken (the model), after them (`Order::After`)
/// or a part between two steps (`Order::Between`, the C frontend's order), it must
/// explore the same traces, each once.
#[test]
fn the_work_done_while_a_run_runs_may_come_before_between_or_after_its_steps() {
    let mut compared = 0;
    for seed in 0..200u64 {
        let m = random::program(seed);
        for k in [None, Some(2)] {
            let (before, traces_before) = run_program(&mut m.clone(), k, 0);
            let after = run_program(&mut Overlap(m.clone(), Order::After), k, 0);
            let between = run_program(&mut Overlap(m.clone(), Order::Between), k, 0);
            for (order, (stats, traces)) in [("after", after), ("between", between)] {
                assert_eq!(traces_before, traces, "seed {seed} k={k:?}: different traces {order}\n{m:?}");
                if k.is_none() {
                    assert_eq!(
                        (before.executions, before.redundant),
                        (stats.executions, stats.redundant),
                        "seed {seed}: executions, redundant {order}\n{m:?}"
                    );
                    assert_eq!(stats.redundant, 0, "seed {seed}: a trace explored twice {order}\n{m:?}");
                }
            }
            compared += usize::from(before.executions > 1);
        }
    }
    assert!(compared >= 200, "{compared}");
}
