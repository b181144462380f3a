//! Data-race detection against brute force: a program has a data race iff, with its
//! plain accesses made visible steps, some interleaving runs two conflicting accesses of
//! different threads (at least one a write, at least one plain) back to back — the
//! definition, checked here by enumerating every interleaving. Every explorer, running
//! the program with plain accesses invisible and the happens-before detector on, must
//! report a race exactly then (JACM'17 §2's argument; `unfold_engine::race` docs).
mod common;
use common::each_schedule;
use unfold_engine::model::{random, Model};
use unfold_engine::{explore, Action, Algorithm, Control, DefectKind, Execution, ExploreConfig, Independence, Stats};

/// The definition, by brute force over the SC interleavings with plain accesses visible.
fn racy_by_definition(m: &Model) -> Option<bool> {
    let sc = m.clone().with_plain_accesses_visible();
    let mut racy = false;
    let mut p = sc.clone();
    let complete = each_schedule(&mut p, 30_000, |e: &Execution| {
        for w in e.steps.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            let mem = |x: Action| match x {
                Action::Read(o, _) => Some((o, false)),
                Action::Write(o, _) | Action::Rmw(o, ..) => Some((o, true)),
                _ => None,
            };
            if let (Some((oa, wa)), Some((ob, wb))) = (mem(a.action), mem(b.action)) {
                let plain = sc.is_plain_site(a.site) || sc.is_plain_site(b.site);
                if a.thread != b.thread && oa == ob && (wa || wb) && plain {
                    racy = true;
                }
            }
        }
    });
    complete.then_some(racy)
}

/// Whether `alg` reports a data race (stopping at the first one, as `unfold check`
/// does by default: a racy program's behaviour after the race is not determined by the
/// order of its visible steps).
fn explorer_finds_race(m: &Model, alg: Algorithm, mode: Independence) -> bool {
    let mut m = m.clone();
    let config = ExploreConfig { algorithm: alg, independence: mode, check_distinct: true, ..ExploreConfig::default() };
    let mut found = false;
    let mut obs = |e: &Execution, _: bool, _: &Stats| {
        if e.defects.iter().any(|d| d.kind == DefectKind::DataRace) {
            found = true;
            return Control::Stop;
        }
        Control::Continue
    };
    explore(&mut m, &config, &mut obs).expect("exploration");
    found
}

#[test]
fn race_verdicts_equal_the_definition_on_random_programs() {
    let shapes = [
        random::Shape { racy: true, ..random::Shape::default() },
        random::Shape { racy: true, sync_objects: true, ..random::Shape::default() },
    ];
    let (mut checked, mut racy, mut clean) = (0, 0, 0);
    for (i, shape) in shapes.into_iter().enumerate() {
        for seed in 0..140u64 {
            let m = random::program_with(9000 + 1000 * i as u64 + seed, shape);
            let Some(expected) = racy_by_definition(&m) else { continue };
            checked += 1;
            if expected {
                racy += 1;
            } else {
                clean += 1;
            }
            for (alg, mode) in [
                (Algorithm::Qpor { k: None }, Independence::AllDependent),
                (Algorithm::OptimalDpor, Independence::ReadReadIndependent),
                (Algorithm::SourceDpor, Independence::ReadReadIndependent),
                (Algorithm::ClassicDpor, Independence::AllDependent),
                (Algorithm::Dfs, Independence::AllDependent),
            ] {
                let got = explorer_finds_race(&m, alg, mode);
                assert_eq!(
                    got,
                    expected,
                    "seed {seed} shape {i} {}: race reported={got}, by definition={expected}\n{m:?}",
                    alg.name()
                );
            }
        }
    }
    println!("{checked} random programs: {racy} racy, {clean} race-free");
    assert!(checked >= 150 && racy >= 30 && clean >= 30, "{checked} checked, {racy} racy, {clean} clean");
}
