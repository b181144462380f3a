//! The test model against brute force: the paper programs have the numbers of traces the
//! papers give.
mod common;
use common::brute_force;
use unfold_engine::model::{programs, random};
use unfold_engine::Independence::{AllDependent, ReadReadIndependent};

#[test]
fn qpor_fig1_has_2n_traces() {
    // n = 2 already has millions of schedules; larger n are checked against the
    // explorers (dfs included) in dpor.rs.
    for n in 1..=1 {
        let b = brute_force(&mut programs::qpor_fig1(n), AllDependent, 1_000_000).unwrap();
        assert_eq!(b.traces.len(), 2 * n, "n={n}");
    }
}

#[test]
fn qpor_fig2_has_3_traces() {
    let b = brute_force(&mut programs::qpor_fig2(), AllDependent, 1_000_000).unwrap();
    assert_eq!(b.traces.len(), 3);
}

#[test]
fn jacm_fig10_has_4n_plus_1_traces() {
    for n in 1..=1 {
        let b = brute_force(&mut programs::jacm_fig10(n), ReadReadIndependent, 5_000_000).unwrap();
        assert_eq!(b.traces.len(), 4 * n + 1, "n={n}");
    }
}

#[test]
fn readers_have_2_to_the_n_traces() {
    for n in 1..=3 {
        let b = brute_force(&mut programs::readers(n), ReadReadIndependent, 5_000_000).unwrap();
        assert_eq!(b.traces.len(), 1 << n, "n={n}");
        let all = brute_force(&mut programs::readers(n), AllDependent, 5_000_000).unwrap();
        assert!(all.traces.len() > b.traces.len() || n == 1);
    }
}

#[test]
fn lastzero_small_counts() {
    // Brute force is only feasible for small N; lastzero(5) = 64 is checked against
    // the explorers in dpor.rs.
    let b = brute_force(&mut programs::lastzero(2), ReadReadIndependent, 5_000_000).unwrap();
    println!("lastzero(2): {} traces, {} schedules", b.traces.len(), b.schedules);
    assert!(b.traces.len() >= 4);
}

#[test]
fn philosophers_deadlock() {
    let b = brute_force(&mut programs::philosophers(3), AllDependent, 5_000_000).unwrap();
    assert!(!b.deadlocks.is_empty());
    println!("philosophers(3): {} traces, {} deadlocks", b.traces.len(), b.deadlocks.len());
}

#[test]
fn lock_chain_has_multinomial_traces() {
    // (n k)! / (k!)^n
    let b = brute_force(&mut programs::lock_chain(2, 2), AllDependent, 5_000_000).unwrap();
    assert_eq!(b.traces.len(), 6);
    let b = brute_force(&mut programs::lock_chain(3, 1), AllDependent, 5_000_000).unwrap();
    assert_eq!(b.traces.len(), 6);
}

#[test]
fn random_programs_have_deadlocks_defects_and_stay_small() {
    let (mut dl, mut def, mut small) = (0, 0, 0);
    for seed in 0..100 {
        if let Some(b) = brute_force(&mut random::program(seed), AllDependent, 20_000) {
            small += 1;
            dl += !b.deadlocks.is_empty() as u32;
            def += !b.defective.is_empty() as u32;
        }
    }
    println!("random: {small}/100 enumerable, {dl} with deadlocks, {def} with defects");
    assert!(small >= 70, "{small}");
    assert!(dl >= 3, "{dl}");
    assert!(def >= 3, "{def}");
}
