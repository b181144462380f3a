//! Time per execution against the size of `U`, over one exploration:
//! `cargo run --release -p unfold-engine --example qpor_growth -- nested_pairs 6 qpor`.
//!
//! Prints a CSV row every `executions / 20`: executions so far, live events in `U`,
//! the peak, and the mean explorer time per execution over the last window (µs). A
//! per-execution cost that does not depend on how many executions came before shows as
//! a flat last column. Families: `nested_pairs K`, `lock_chain N K`, `philosophers N`.

use std::time::Instant;
use unfold_engine::model::programs;
use unfold_engine::{explore, Algorithm, Control, Execution, ExploreConfig, Stats};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize| args.get(i).and_then(|s| s.parse::<usize>().ok()).unwrap_or(4);
    let (model, rest) = match args.first().map(String::as_str) {
        Some("lock_chain") => (programs::lock_chain(num(1), num(2)), 3),
        Some("philosophers") => (programs::philosophers(num(1)), 2),
        _ => (programs::nested_pairs(num(1)), 2),
    };
    let alg = args.get(rest).and_then(|s| Algorithm::parse(s)).unwrap_or(Algorithm::Qpor { k: None });
    let every: u64 = args.get(rest + 1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let mut m = model;
    let cfg = ExploreConfig { algorithm: alg, ..ExploreConfig::default() };
    println!("algorithm,executions,events_in_U,peak_U,us_per_execution,spike_candidates_per_execution");
    let mut last = Instant::now();
    let mut last_scanned = 0u64;
    let t0 = last;
    let stats = explore(&mut m, &cfg, &mut |_: &Execution, _: bool, s: &Stats| {
        if s.executions.is_multiple_of(every) {
            let us = last.elapsed().as_secs_f64() * 1e6 / every as f64;
            let scanned = (s.comb_scanned - last_scanned) as f64 / every as f64;
            println!("{},{},{},{},{us:.1},{scanned:.1}", alg.name(), s.executions, s.events, s.events_peak);
            last = Instant::now();
            last_scanned = s.comb_scanned;
        }
        Control::Continue
    })
    .expect("explore");
    eprintln!(
        "{}: {} executions, {} maximal configurations, {} SSB, peak U {}, spike candidates scanned {}, steps found in U {}, added {}, {:.2} s",
        alg.name(),
        stats.executions,
        stats.maximal_configurations,
        stats.ssb,
        stats.events_peak,
        stats.comb_scanned,
        stats.events_found,
        stats.events_added,
        t0.elapsed().as_secs_f64()
    );
}
