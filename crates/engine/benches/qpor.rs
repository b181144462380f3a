//! QPOR engine benchmark on the test model: `cargo bench -p unfold-engine --bench qpor`.
//!
//! Prints, per program and k: executions, traces, SSB, executions/s, events processed
//! (found or added) per second, alternatives computed per second, peak events in `U`.
//! Then the cost of one causality query at depth 10 and at depth 10^5 (the skip-list
//! search of QPOR §5.2 makes it independent of history size), and the size of `U` and
//! the process RSS as the number of explored executions grows at fixed depth (pruning
//! keeps them flat). Medians of 5 runs.

use std::time::{Duration, Instant};
use unfold_engine::model::{programs, Model};
use unfold_engine::unfolding::{Preds, Unfolding};
use unfold_engine::{explore, Action, Algorithm, Bytes, Control, Execution, ExploreConfig, ObjId, Stats, ThreadId};

fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|x| x.parse::<u64>().ok()))
        .map(|pages| pages * 4096)
        .unwrap_or(0)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn run(m: &Model, k: Option<usize>) -> (Stats, Duration) {
    let cfg = ExploreConfig { algorithm: Algorithm::Qpor { k }, check_distinct: true, ..ExploreConfig::default() };
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..5 {
        let mut m = m.clone();
        let t0 = Instant::now();
        let stats = explore(&mut m, &cfg, &mut |_: &Execution, _: bool, _: &Stats| Control::Continue).expect("explore");
        times.push(t0.elapsed());
        last = Some(stats);
    }
    (last.expect("ran"), median(times))
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    println!("## QPOR on the test model (median of 5 runs)\n");
    println!("| program | k | executions | traces | SSB | time | exec/s | events/s | alt/s | peak U |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let cases: Vec<(String, Model)> = vec![
        ("fig1(10)".into(), programs::qpor_fig1(10)),
        ("fig1(50)".into(), programs::qpor_fig1(50)),
        ("fig1(200)".into(), programs::qpor_fig1(200)),
        ("lock_chain(3,4)".into(), programs::lock_chain(3, 4)),
        ("lock_chain(4,3)".into(), programs::lock_chain(4, 3)),
        ("philosophers(5)".into(), programs::philosophers(5)),
        ("filesystem(18)".into(), programs::filesystem(18)),
        ("nested_pairs(5)".into(), programs::nested_pairs(5)),
        ("nested_pairs(6)".into(), programs::nested_pairs(6)),
    ];
    for (name, m) in &cases {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        for k in [Some(1), Some(2), None] {
            let (s, t) = run(m, k);
            let secs = t.as_secs_f64().max(1e-9);
            println!(
                "| {name} | {} | {} | {} | {} | {:.1} ms | {:.0} | {:.0} | {:.0} | {} |",
                k.map_or("opt".into(), |k| k.to_string()),
                s.executions,
                s.maximal_configurations,
                s.ssb,
                secs * 1e3,
                s.executions as f64 / secs,
                (s.events_added + s.events_found) as f64 / secs,
                s.alt_calls as f64 / secs,
                s.events_peak
            );
        }
    }

    println!("\n## Causality query cost by depth (skip step 4)\n");
    let mut u = Unfolding::new(4);
    let mut chain = Vec::new();
    let mut last = None;
    for _ in 0..100_000 {
        let (e, _) = u.find_or_add(
            ThreadId(0),
            Action::Write(ObjId(1), Bytes::ALL),
            &Preds { tpred: last, opred: last, extra: vec![] },
        );
        last = Some(e);
        chain.push(e);
    }
    for (label, lo, hi) in [
        ("depth 10, distance 9", 1, 10),
        ("depth 10^5, distance 9", 99_990, 99_999),
        ("depth 10^5, distance 10^5", 0, 99_999),
    ] {
        let n = 2_000_000u32;
        let mut samples = Vec::new();
        for _ in 0..5 {
            let t0 = Instant::now();
            let mut hits = 0u32;
            for i in 0..n {
                hits += u.le(chain[lo + (i as usize & 1)], chain[hi]) as u32;
            }
            assert_eq!(hits, n);
            samples.push(t0.elapsed() / n);
        }
        println!("- {label}: {:?} per query", median(samples));
    }

    println!("\n## Memory as executions grow (lock_chain(4,4): 63 063 000 traces), one run per algorithm\n");
    println!("Each row: one exploration stopped at 10^7 executions; RSS of this process at each checkpoint.");
    println!("(`cargo bench -p unfold-engine --bench qpor -- memory` runs only this section.)\n");
    println!("| algorithm | executions | maximal configurations | events in U | peak U | RSS | time |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    if filter.as_deref().is_some_and(|f| f != "memory") {
        return;
    }
    for alg in [Algorithm::Qpor { k: None }, Algorithm::OptimalDpor, Algorithm::SourceDpor, Algorithm::ClassicDpor] {
        let mut m = programs::lock_chain(4, 4);
        let cfg = ExploreConfig { algorithm: alg, max_executions: Some(10_000_000), ..ExploreConfig::default() };
        let mut next = 100_000u64;
        let t0 = Instant::now();
        explore(&mut m, &cfg, &mut |_: &Execution, _: bool, s: &Stats| {
            if s.executions == next {
                println!(
                    "| {} | {} | {} | {} | {} | {:.1} MB | {:.1} s |",
                    alg.name(),
                    s.executions,
                    s.maximal_configurations,
                    s.events,
                    s.events_peak,
                    rss_bytes() as f64 / 1e6,
                    t0.elapsed().as_secs_f64()
                );
                next *= 10;
            }
            Control::Continue
        })
        .expect("explore");
    }
}
