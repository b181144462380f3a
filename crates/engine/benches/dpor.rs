//! The DPOR family on the paper programs: `cargo bench -p unfold-engine --bench dpor`.
//!
//! Prints one row per (algorithm, program): executions, distinct traces, SSB
//! executions, wall time, and steps and executions per second. A speed-up that
//! explores more executions is a regression, so the counts are printed beside the time.
//! Pass a substring as the first argument to run only matching programs.

use std::time::Instant;
use unfold_engine::model::{programs, Model};
use unfold_engine::{explore, Algorithm, Control, Execution, ExploreConfig, Independence, Stats};

fn main() {
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let rr = Independence::ReadReadIndependent;
    let all = Independence::AllDependent;
    // (name, program, independence, run dfs too)
    let cases: Vec<(String, Model, Independence, bool)> = vec![
        ("qpor_fig1(3)".into(), programs::qpor_fig1(3), all, false),
        ("qpor_fig1(8)".into(), programs::qpor_fig1(8), all, false),
        ("qpor_fig2".into(), programs::qpor_fig2(), all, true),
        ("jacm_fig10(3)".into(), programs::jacm_fig10(3), rr, false),
        ("jacm_fig10(8)".into(), programs::jacm_fig10(8), rr, false),
        ("readers(8)".into(), programs::readers(8), rr, false),
        ("readers(13)".into(), programs::readers(13), rr, false),
        ("lastzero(5)".into(), programs::lastzero(5), rr, false),
        ("lastzero(10)".into(), programs::lastzero(10), rr, false),
        ("filesystem(14)".into(), programs::filesystem(14), all, false),
        ("filesystem(16)".into(), programs::filesystem(16), all, false),
        ("filesystem(18)".into(), programs::filesystem(18), all, false),
        ("filesystem(19)".into(), programs::filesystem(19), all, false),
        ("philosophers(3)".into(), programs::philosophers(3), all, true),
        ("philosophers(5)".into(), programs::philosophers(5), all, false),
        ("lock_chain(3,3)".into(), programs::lock_chain(3, 3), all, false),
        ("lock_chain(4,2)".into(), programs::lock_chain(4, 2), all, false),
        ("nested_pairs(5)".into(), programs::nested_pairs(5), all, false),
        ("nested_pairs(6)".into(), programs::nested_pairs(6), all, false),
    ];
    println!(
        "{:13} {:16} {:>10} {:>8} {:>8} {:>10} {:>12} {:>10}  note",
        "algorithm", "program", "execs", "traces", "ssb", "time", "steps/s", "execs/s"
    );
    for (name, model, mode, dfs) in cases {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let mut algs = vec![Algorithm::OptimalDpor, Algorithm::SourceDpor, Algorithm::ClassicDpor];
        if dfs {
            algs.push(Algorithm::Dfs);
        }
        for alg in algs {
            let mut m = model.clone();
            let config = ExploreConfig {
                algorithm: alg,
                independence: mode,
                max_executions: Some(300_000),
                check_distinct: true,
                ..ExploreConfig::default()
            };
            let mut obs = |_: &Execution, _: bool, _: &Stats| Control::Continue;
            let t0 = Instant::now();
            let s = explore(&mut m, &config, &mut obs).expect("exploration");
            let dt = t0.elapsed();
            let secs = dt.as_secs_f64().max(1e-9);
            let mut note = String::new();
            if s.stopped_early {
                note.push_str("STOPPED at the execution limit ");
            }
            if alg == Algorithm::OptimalDpor {
                note.push_str(&format!("wakeup peak {} ", s.wakeup_peak));
            } else {
                note.push_str(&format!("backtrack max {} ", s.backtrack_max));
            }
            note.push_str(&format!("analysis {:.0}%", 100.0 * s.time.comb_build.as_secs_f64() / secs));
            println!(
                "{:13} {:16} {:>10} {:>8} {:>8} {:>9.3}s {:>12.0} {:>10.0}  {}",
                alg.name(),
                name,
                s.executions,
                s.maximal_configurations,
                s.ssb,
                secs,
                s.steps as f64 / secs,
                s.executions as f64 / secs,
                note
            );
        }
    }
}
