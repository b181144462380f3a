//! The cost of a coroutine switch by the depth of the calls around it:
//! `cargo bench -p unfold-runtime --bench switch`.
//!
//! A visible step of a C program is two switches: the executor resumes the thread, the
//! thread suspends in a shim. After a switch the CPU predicts each return from the
//! return addresses the *other* stack's calls left, so every frame between a switch and
//! the code that runs on after it costs a mispredicted return. This prints, per depth d,
//! the time of a resume and a suspend with d frames on each side, and the time of the
//! same calls without switching, so that the price of a frame around a switch can be
//! read off (docs/execution-cost.md, round 22: why the runtime inlines its switch paths).
//! Each row is the median of 7 runs of `N` round trips.

use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::hint::black_box;
use std::time::Instant;

const N: u64 = 2_000_000;

#[inline(never)]
fn deep_suspend(y: &Yielder<u64, u64>, v: u64, d: u32) -> u64 {
    if d == 0 {
        return y.suspend(v + 1);
    }
    black_box(deep_suspend(y, v, d - 1))
}

#[inline(never)]
fn deep_resume(c: &mut Coroutine<u64, u64, ()>, v: u64, d: u32) -> u64 {
    if d == 0 {
        return match c.resume(v) {
            CoroutineResult::Yield(v) => v,
            CoroutineResult::Return(()) => 0,
        };
    }
    black_box(deep_resume(c, v, d - 1))
}

#[inline(never)]
fn deep_plain(v: u64, d: u32) -> u64 {
    if d == 0 {
        return black_box(v + 1);
    }
    black_box(deep_plain(v, d - 1))
}

/// The median over 7 runs of the time of one call of `f`, in ns (`N` calls a run).
fn median_ns(mut f: impl FnMut(u64) -> u64) -> f64 {
    let mut v: Vec<f64> = (0..7)
        .map(|_| {
            let t = Instant::now();
            let mut acc = 0u64;
            for i in 0..N {
                acc = acc.wrapping_add(f(i));
            }
            black_box(acc);
            t.elapsed().as_nanos() as f64 / N as f64
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    println!("{:>5} {:>22} {:>22} {:>14}", "depth", "switch pair (ns)", "same calls, no switch", "extra/frame");
    let mut base = None;
    for depth in [0u32, 1, 2, 4, 8] {
        let mut co: Coroutine<u64, u64, ()> = Coroutine::new(move |y, mut v: u64| loop {
            v = deep_suspend(y, v, depth);
        });
        let switched = median_ns(|i| deep_resume(&mut co, i, depth));
        let plain = median_ns(|i| deep_plain(i, 2 * depth));
        let b = *base.get_or_insert(switched - plain);
        let per_frame = if depth == 0 { 0.0 } else { (switched - plain - b) / (2 * depth) as f64 };
        println!("{depth:>5} {switched:>22.1} {plain:>22.1} {per_frame:>14.1}");
    }
}
