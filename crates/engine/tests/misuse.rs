//! Deliberate mutex misuse (unlocking a mutex not held, relocking one held), often under
//! a data-dependent branch: every explorer finds every trace with a misuse defect that a
//! brute-force enumeration of all schedules finds, with objects of every kind around.
mod common;
use common::{brute_force, canon, Canon};
use std::collections::BTreeSet;
use unfold_engine::model::{random, Model};
use unfold_engine::{explore, Algorithm, Control, DefectKind, End, Execution, ExploreConfig, Independence};

/// Explore; return the maximal traces and those with a defect.
fn run(m: &Model, alg: Algorithm, mode: Independence) -> (BTreeSet<Canon>, BTreeSet<Canon>) {
    let mut m = m.clone();
    let config = ExploreConfig { algorithm: alg, independence: mode, ..ExploreConfig::default() };
    let (mut traces, mut defective) = (BTreeSet::new(), BTreeSet::new());
    let mut obs = |e: &Execution, _new: bool, _s: &unfold_engine::Stats| {
        if matches!(e.end, End::Finished | End::Deadlock { .. }) {
            let c = canon(&e.steps, mode);
            if !e.defects.is_empty() {
                defective.insert(c.clone());
            }
            traces.insert(c);
        }
        Control::Continue
    };
    explore(&mut m, &config, &mut obs).expect("exploration");
    (traces, defective)
}

/// Whether some schedule of `m` has a misuse defect and some has none.
fn misuse_depends_on_schedule(m: &Model) -> (bool, bool) {
    let (mut with, mut without) = (false, false);
    common::each_schedule(&mut m.clone(), 20_000, |e| {
        let misuse = e.defects.iter().any(|d| d.kind == DefectKind::MutexMisuse);
        with |= misuse;
        without |= !misuse;
    });
    (with, without)
}

#[test]
fn every_explorer_finds_every_misuse() {
    let shape = random::Shape { sync_objects: true, misuse: true, ..random::Shape::default() };
    let algs = [
        (Algorithm::Qpor { k: None }, Independence::AllDependent),
        (Algorithm::Qpor { k: Some(1) }, Independence::AllDependent),
        (Algorithm::Qpor { k: Some(2) }, Independence::AllDependent),
        (Algorithm::OptimalDpor, Independence::AllDependent),
        (Algorithm::SourceDpor, Independence::AllDependent),
        (Algorithm::ClassicDpor, Independence::AllDependent),
        (Algorithm::OptimalDpor, Independence::ReadReadIndependent),
        (Algorithm::SourceDpor, Independence::ReadReadIndependent),
        (Algorithm::ClassicDpor, Independence::ReadReadIndependent),
    ];
    let (mut checked, mut with_misuse, mut schedule_dependent) = (0, 0, 0);
    for seed in 21_000..21_200u64 {
        let m = random::program_with(seed, shape);
        let mut brutes = Vec::new();
        for mode in [Independence::AllDependent, Independence::ReadReadIndependent] {
            match brute_force(&mut m.clone(), mode, 20_000) {
                Some(b) => brutes.push(b),
                None => break,
            }
        }
        if brutes.len() < 2 {
            continue;
        }
        checked += 1;
        let (with, without) = misuse_depends_on_schedule(&m);
        with_misuse += with as usize;
        schedule_dependent += (with && without) as usize;
        for (alg, mode) in algs {
            let brute = &brutes[(mode == Independence::ReadReadIndependent) as usize];
            let (traces, defective) = run(&m, alg, mode);
            assert!(
                traces == brute.traces,
                "seed {seed} {alg:?} {mode:?}: traces differ from brute force: missing {:#?}\n{m:?}",
                brute.traces.difference(&traces).next()
            );
            assert!(
                defective == brute.defective,
                "seed {seed} {alg:?} {mode:?}: {} defective traces, brute force {} (missing {:?})\n{m:?}",
                defective.len(),
                brute.defective.len(),
                brute.defective.difference(&defective).next()
            );
        }
    }
    println!("{checked} programs, {with_misuse} with a misuse, {schedule_dependent} where it depends on the schedule");
    assert!(checked >= 100, "only {checked} programs were small enough for brute force");
    assert!(with_misuse >= 30, "only {with_misuse} programs misuse a mutex");
    assert!(schedule_dependent >= 10, "only {schedule_dependent} programs misuse a mutex on some schedules only");
}
