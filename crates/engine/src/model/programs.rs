//! Ready-made programs from the papers, with their known numbers of Mazurkiewicz
//! traces. Each is written from the paper's description (the figures themselves are
//! not machine-readable); where a description is ambiguous, the doc comment says which
//! reading was taken and why.

use super::{Model, ModelBuilder, Mutex, Var};

/// QPOR Figure 1, made mutex-only as QPOR §2 says ("Fig. 1 (a) can be trivially
/// modified"): `n` writers `w_i: lock(m_i); x_i = 7; unlock(m_i)`; a `count` thread
/// incrementing `c` `n-1` times under mutex `mc`; a `master` reading `c` into `i` under
/// `mc`, then writing `x_i = 0` under `m_i`. Exactly `2n` maximal configurations: `i` is
/// any of `0..n`, and `master`'s section on `m_i` is before or after `w_i`'s.
pub fn qpor_fig1(n: usize) -> Model {
    assert!(n >= 1);
    let mut b = ModelBuilder::new();
    let ms: Vec<Mutex> = (0..n).map(|_| b.mutex()).collect();
    let xs: Vec<Var> = (0..n).map(|_| b.var(0)).collect();
    let mc = b.mutex();
    let c = b.var(0);
    let writers: Vec<_> = (0..n)
        .map(|i| {
            let (m, x) = (ms[i], xs[i]);
            b.thread(&format!("w{i}"), |t| {
                t.lock(m);
                t.store(x, 7);
                t.unlock(m);
            })
        })
        .collect();
    let count = b.thread("count", |t| {
        for _ in 0..n.saturating_sub(1) {
            t.lock(mc);
            let v = t.load(c);
            t.store(c, v.add(1));
            t.unlock(mc);
        }
    });
    let master = b.thread("master", |t| {
        t.lock(mc);
        let i = t.load(c);
        t.unlock(mc);
        for k in 0..n {
            let (m, x) = (ms[k], xs[k]);
            t.if_(i.eq(k as i64), |t| {
                t.lock(m);
                t.store(x, 0);
                t.unlock(m);
            });
        }
    });
    b.main(|t| {
        for &w in &writers {
            t.spawn(w);
        }
        t.spawn(count);
        t.spawn(master);
    });
    b.build()
}

/// QPOR Figure 2 (a): thread 0 `x := 0; lock(m); if (y == 0) unlock(m) else { lock(m');
/// z := 2 }`, thread 1 `lock(m); y := 1; unlock(m)`, thread 2 `lock(m'); z := 3;
/// unlock(m')`. Main spawns threads 1 and 2, then runs thread 0's code. Three maximal
/// configurations (`[7]∪[17]`, `[14]`, `[19]` in Fig. 2 (b)); in `[14]` thread 2 stays
/// blocked on `m'` when main exits.
pub fn qpor_fig2() -> Model {
    let mut b = ModelBuilder::new();
    let m = b.mutex();
    let m2 = b.mutex();
    let x = b.var(1);
    let y = b.var(0);
    let z = b.var(0);
    let t1 = b.thread("t1", |t| {
        t.lock(m);
        t.store(y, 1);
        t.unlock(m);
    });
    let t2 = b.thread("t2", |t| {
        t.lock(m2);
        t.store(z, 3);
        t.unlock(m2);
    });
    b.main(|t| {
        t.spawn(t1);
        t.spawn(t2);
        t.store(x, 0);
        t.lock(m);
        let v = t.load(y);
        t.if_else(
            v.eq(0),
            |t| t.unlock(m),
            |t| {
                t.lock(m2);
                t.store(z, 2);
            },
        );
    });
    b.build()
}

/// Emit one group of JACM'17 Figure 2 (processes q, r, s over `x`, `y`, `z`) and return
/// their codes. Reading of the figure: `q: y := 1`; `r: m := y; if m = 0 then z := 1`;
/// `s: n := z; if n = 1 then { l := y; if l = 0 then x := 1 }`. The paper's counts
/// (Table 1: 5 traces for n = 1, "four ways to schedule q, r and s, only one of which
/// reveals the write on x") fix that `s` reads `y` only when `n = 1`.
fn jacm_group(b: &mut ModelBuilder, x: Var, y: Var, z: Var) -> [super::CodeId; 3] {
    let q = b.thread("q", |t| t.write(y, 1));
    let r = b.thread("r", |t| {
        let m = t.read(y);
        t.if_(m.eq(0), |t| t.write(z, 1));
    });
    let s = b.thread("s", |t| {
        let n = t.read(z);
        t.if_(n.eq(1), |t| {
            let l = t.read(y);
            t.if_(l.eq(0), |t| t.write(x, 1));
        });
    });
    [q, r, s]
}

/// JACM'17 Figure 2: `p: l := x` and one group q, r, s (see [`jacm_fig10`]). With
/// read-read independence it has 5 traces; source-DPOR may be sleep-set blocked on it,
/// optimal-DPOR never is.
pub fn jacm_fig2() -> Model {
    jacm_fig10(1)
}

/// JACM'17 Figure 10: `n` groups of Figure 2; `p` reads `x_i` and, if `s_i`'s write is
/// visible (`x_i = 1`), spawns group `i+1` and goes on reading `x_{i+1}` (p is one thread
/// that plays `p_1 … p_n`). With read-read independence: `4n + 1` traces (Table 1:
/// optimal explores 5, 9, 13, ...).
pub fn jacm_fig10(n: usize) -> Model {
    assert!(n >= 1);
    let mut b = ModelBuilder::new();
    let mut groups = Vec::new();
    let mut xs = Vec::new();
    for _ in 0..n {
        let (x, y, z) = (b.var(0), b.var(0), b.var(0));
        xs.push(x);
        groups.push(jacm_group(&mut b, x, y, z));
    }
    let p = b.thread("p", |t| {
        // Nested: read x_i; if 1 { spawn group i+1; read x_{i+1}; ... }
        fn level(t: &mut super::ThreadBuilder, i: usize, xs: &[Var], groups: &[[super::CodeId; 3]]) {
            let v = t.read(xs[i]);
            if i + 1 < xs.len() {
                t.if_(v.eq(1), |t| {
                    for &c in &groups[i + 1] {
                        t.spawn(c);
                    }
                    level(t, i + 1, xs, groups);
                });
            }
        }
        level(t, 0, &xs, &groups);
    });
    b.main(|t| {
        t.spawn(p);
        for &c in &groups[0] {
            t.spawn(c);
        }
    });
    b.build()
}

/// JACM'17 Figure 13 / Figure 1 generalised (`readers(N)`): a writer `x := 1` and `N`
/// readers, reader `i` reading its own `y_i` then `x`. With read-read independence:
/// `2^N` traces (Table 4).
pub fn readers(n: usize) -> Model {
    let mut b = ModelBuilder::new();
    let x = b.var(0);
    let writer = b.thread("writer", |t| t.write(x, 1));
    let rs: Vec<_> = (0..n)
        .map(|i| {
            let y = b.var(0);
            b.thread(&format!("reader{i}"), |t| {
                t.read(y);
                t.read(x);
            })
        })
        .collect();
    b.main(|t| {
        t.spawn(writer);
        for &r in &rs {
            t.spawn(r);
        }
    });
    b.build()
}

/// JACM'17 Figure 11, `lastzero(N)`: array `a[0..=N]` of zeros; thread 0 does
/// `for (i := N; a[i] != 0; i--);`, thread `j` (1..=N) does `a[j] := a[j-1] + 1`. All
/// accesses visible. With read-read independence, optimal-DPOR explores 64 traces for
/// N = 5 (Table 4).
pub fn lastzero(n: usize) -> Model {
    let mut b = ModelBuilder::new();
    let a: Vec<Var> = (0..=n).map(|_| b.var(0)).collect();
    let searcher = b.thread("search", |t| {
        let done = t.label();
        for i in (0..=n).rev() {
            let v = t.read(a[i]);
            t.jump_if(v.eq(0), done);
        }
        t.place(done);
    });
    let workers: Vec<_> = (1..=n)
        .map(|j| {
            let (src, dst) = (a[j - 1], a[j]);
            b.thread(&format!("w{j}"), |t| {
                let v = t.read(src);
                t.write(dst, v.add(1));
            })
        })
        .collect();
    b.main(|t| {
        t.spawn(searcher);
        for &w in &workers {
            t.spawn(w);
        }
    });
    b.build()
}

/// POPL'05 Figure 7, the file-system example (Frangipani idiom), with `NUMBLOCKS = 26`
/// and `NUMINODE = 32` as in the paper: thread `tid` takes inode `i = tid % 32` under
/// `locki[i]` and, if it has no block, searches blocks from `(i*2) % 26` under
/// `lockb[b]` for a free one. Inode and busy-bit accesses are invisible (they are
/// protected by the locks). Threads `13..` collide with threads `0..`; JACM'17 Table 3:
/// 2, 8, 32, 64 traces for 14, 16, 18, 19 threads.
pub fn filesystem(nthreads: usize) -> Model {
    const NUMBLOCKS: usize = 26;
    const NUMINODE: usize = 32;
    let mut b = ModelBuilder::new();
    let locki: Vec<Mutex> = (0..NUMINODE).map(|_| b.mutex()).collect();
    let lockb: Vec<Mutex> = (0..NUMBLOCKS).map(|_| b.mutex()).collect();
    let inode: Vec<Var> = (0..NUMINODE).map(|_| b.var(0)).collect();
    let busy: Vec<Var> = (0..NUMBLOCKS).map(|_| b.var(0)).collect();
    let codes: Vec<_> = (0..nthreads)
        .map(|tid| {
            let i = tid % NUMINODE;
            let (locki, lockb, inode, busy) = (&locki, &lockb, &inode, &busy);
            b.thread(&format!("fs{tid}"), move |t| {
                t.lock(locki[i]);
                let has = t.load(inode[i]);
                let done = t.label();
                t.jump_if(has.ne(0), done);
                let start = (i * 2) % NUMBLOCKS;
                for k in 0..NUMBLOCKS {
                    let blk = (start + k) % NUMBLOCKS;
                    t.lock(lockb[blk]);
                    let used = t.load(busy[blk]);
                    let next = t.label();
                    t.jump_if(used.ne(0), next);
                    t.store(busy[blk], 1);
                    t.store(inode[i], (blk + 1) as i64);
                    t.unlock(lockb[blk]);
                    t.jump(done);
                    t.place(next);
                    t.unlock(lockb[blk]);
                }
                t.place(done);
                t.unlock(locki[i]);
            })
        })
        .collect();
    b.main(|t| {
        for &c in &codes {
            t.spawn(c);
        }
    });
    b.build()
}

/// Dining philosophers, a lock-heavy family with deadlocks: philosopher `i` locks fork
/// `i` then fork `(i+1) % n`, eats (an invisible write), and unlocks both. Main joins them all, so a cycle of
/// philosophers each holding one fork is an [`End::Deadlock`](crate::End::Deadlock).
pub fn philosophers(n: usize) -> Model {
    let mut b = ModelBuilder::new();
    let forks: Vec<Mutex> = (0..n).map(|_| b.mutex()).collect();
    let meals = b.var(0);
    let ps: Vec<_> = (0..n)
        .map(|i| {
            let (l, r) = (forks[i], forks[(i + 1) % n]);
            b.thread(&format!("phil{i}"), |t| {
                t.lock(l);
                t.lock(r);
                let v = t.load(meals);
                t.store(meals, v.add(1));
                t.unlock(r);
                t.unlock(l);
            })
        })
        .collect();
    b.main(|t| {
        let hs: Vec<_> = ps.iter().map(|&p| t.spawn(p)).collect();
        for h in hs {
            t.join(h);
        }
    });
    b.build()
}

/// `n` threads each doing `k` critical sections on one mutex (a counter increment):
/// `(n·k)! / (k!)^n` traces. A lock-only stress family.
pub fn lock_chain(n: usize, k: usize) -> Model {
    let mut b = ModelBuilder::new();
    let m = b.mutex();
    let c = b.var(0);
    let ts: Vec<_> = (0..n)
        .map(|i| {
            b.thread(&format!("inc{i}"), |t| {
                for _ in 0..k {
                    t.lock(m);
                    let v = t.load(c);
                    t.store(c, v.add(1));
                    t.unlock(m);
                }
            })
        })
        .collect();
    b.main(|t| {
        let hs: Vec<_> = ts.iter().map(|&c| t.spawn(c)).collect();
        for h in hs {
            t.join(h);
        }
        let v = t.reg();
        t.lock(m);
        let got = t.load(c);
        t.set(v, got);
        t.unlock(m);
        t.assert(v.eq((n * k) as i64), "lost update");
    });
    b.build()
}

/// Nested critical sections (the shape of the QPOR paper's §6 benchmarks, `Mpat` with
/// a lock inside a lock; `bench/mpat_nested.c`): `k` pairs of threads; `A_i` locks the
/// global mutex `g` and, inside it, its pair's mutex `p_i`; `B_i` locks `p_i` alone.
/// `k!·2^k` traces: the order of the `A`s on `g`, and per pair which of `A_i`, `B_i`
/// takes `p_i` first. Every lock of `g` has as many variants in `U` as there are orders
/// of the earlier `A`s, which is what makes QPOR's object-tree sibling lists long.
pub fn nested_pairs(k: usize) -> Model {
    let mut b = ModelBuilder::new();
    let g = b.mutex();
    let ps: Vec<Mutex> = (0..k).map(|_| b.mutex()).collect();
    let counts: Vec<Var> = (0..k).map(|_| b.var(0)).collect();
    let mut ts = Vec::new();
    for i in 0..k {
        let (p, c) = (ps[i], counts[i]);
        ts.push(b.thread(&format!("a{i}"), |t| {
            t.lock(g);
            t.lock(p);
            let v = t.load(c);
            t.store(c, v.add(1));
            t.unlock(p);
            t.unlock(g);
        }));
        ts.push(b.thread(&format!("b{i}"), |t| {
            t.lock(p);
            let v = t.load(c);
            t.store(c, v.add(1));
            t.unlock(p);
        }));
    }
    b.main(|t| {
        let hs: Vec<_> = ts.iter().map(|&c| t.spawn(c)).collect();
        for h in hs {
            t.join(h);
        }
    });
    b.build()
}

/// A program of the shared corpus with its exact number of Mazurkiewicz traces.
#[derive(Debug, Clone)]
pub struct Case {
    /// Name, e.g. `filesystem(16)`.
    pub name: String,
    /// The program.
    pub model: Model,
    /// The independence relation the count is for.
    pub independence: crate::Independence,
    /// Exact number of traces (maximal configurations).
    pub traces: u64,
}

/// The paper programs with their exact trace counts, for any explorer to check against
/// (an optimal one must explore exactly `traces` executions with no SSB). The counts
/// come from the papers (QPOR Fig. 1: 2n, Fig. 2: 3; JACM'17 Tables 1, 3, 4) or, for
/// the synthetic families, from the formula in their doc; all are also reached by
/// optimal-, source- and classic-DPOR in `tests/dpor.rs`.
pub fn catalogue() -> Vec<Case> {
    use crate::Independence::{AllDependent, ReadReadIndependent};
    let mut v = Vec::new();
    let mut add = |name: String, model: Model, independence, traces: u64| {
        v.push(Case { name, model, independence, traces });
    };
    for n in 2..=6 {
        add(format!("qpor_fig1({n})"), qpor_fig1(n), AllDependent, 2 * n as u64);
    }
    add("qpor_fig2".into(), qpor_fig2(), AllDependent, 3);
    for n in 1..=5 {
        add(format!("jacm_fig10({n})"), jacm_fig10(n), ReadReadIndependent, 4 * n as u64 + 1);
    }
    for n in [2, 4, 8] {
        add(format!("readers({n})"), readers(n), ReadReadIndependent, 1 << n);
    }
    add("lastzero(5)".into(), lastzero(5), ReadReadIndependent, 64);
    add("lastzero(10)".into(), lastzero(10), ReadReadIndependent, 3328);
    for (n, t) in [(14, 2), (16, 8), (18, 32), (19, 64)] {
        add(format!("filesystem({n})"), filesystem(n), AllDependent, t);
    }
    add("lock_chain(3,3)".into(), lock_chain(3, 3), AllDependent, 1680);
    add("lock_chain(4,2)".into(), lock_chain(4, 2), AllDependent, 2520);
    add("philosophers(3)".into(), philosophers(3), AllDependent, 7);
    for (k, t) in [(2, 8), (3, 48)] {
        add(format!("nested_pairs({k})"), nested_pairs(k), AllDependent, t);
    }
    v
}

/// Peterson's mutual exclusion with the unbounded wait `while (want[other] && turn ==
/// other) {}`, as the C runtime runs it: each thread sets its flag, gives the turn away,
/// then reads `want[other]` and `turn` until one lets it in, blocking on a wait for
/// both locations ([`super::ThreadBuilder::await_change`]) after an iteration that
/// did not. The critical section asserts that the other thread is not in it. With
/// `broken`, the two entry stores are swapped (turn first): mutual exclusion fails.
pub fn peterson(broken: bool) -> Model {
    peterson_with(broken, false)
}

/// [`peterson`], with both flags in one variable when `one_word` (as `atomic_int
/// want[2]` is one 8-byte word in C): a thread raises and lowers its flag (bit `me`)
/// with a fetch-add, and tests the other's bit.
pub fn peterson_with(broken: bool, one_word: bool) -> Model {
    peterson_impl(broken, one_word, false, false)
}

/// [`peterson`] laid out as `tests/c/peterson_unbounded.c` is: `atomic_int want[2];`
/// puts both flags in one 8-byte word, on disjoint bytes (`want[0]` bytes 0–3,
/// `want[1]` bytes 4–7, [`ModelBuilder::var_beside`]), each raised and lowered with a
/// store and read with a load, so that under read-read independence a thread's accesses
/// to its own flag commute with the other's to its flag.
pub fn peterson_int_flags(broken: bool) -> Model {
    peterson_impl(broken, false, false, true)
}

/// [`peterson_with`] with both flags in one word, laid out as `atomic_int want[2],
/// turn; int inside;` is in C: the plain counter of the critical section shares its
/// 8-byte word with `turn`, and (`Model::with_awaited_stores_visible`) the C runtime
/// makes a plain store to it a visible write while the other thread's spin-wait on
/// `turn`'s word is pending. Whether `inside++` is a step then depends on the schedule.
/// (That runtime found a spin waiting at the third visit of its checkpoint; its waits
/// are placed as it placed them.)
pub fn peterson_inside_in_turn_word(broken: bool) -> Model {
    peterson_impl(broken, true, true, false).with_awaited_stores_visible()
}

/// A spin-wait and a plain write to the other half of its word, as in
/// `struct { atomic_int flag; int data; } s;`: the writer stores `data` twice (plainly)
/// around an atomic store to another location, then sets `flag`; the waiter spins until
/// `flag` is set. With the C runtime's rule for plain writes
/// (`Model::with_awaited_stores_visible`), the second store of `data` is a step only if
/// the waiter is already blocked on its wait.
pub fn await_false_sharing() -> Model {
    let mut b = ModelBuilder::new();
    let flag = b.var(0);
    let data = b.var_in_word_of(flag, 0);
    let other = b.var(0);
    let writer = b.thread("writer", |t| {
        t.store(data, 1);
        t.write(other, 1);
        t.store(data, 2);
        t.write(flag, 1);
    });
    let waiter = b.thread("waiter", |t| {
        t.write(other, 2);
        t.spin_until_nonzero(flag);
        let d = t.load(data);
        t.assert(d.eq(2), "data published before the flag");
    });
    b.main(|t| {
        let a = t.spawn(writer);
        let c = t.spawn(waiter);
        t.join(a);
        t.join(c);
    });
    b.build().with_awaited_stores_visible()
}

fn peterson_impl(broken: bool, one_word: bool, inside_with_turn: bool, int_flags: bool) -> Model {
    let mut b = ModelBuilder::new();
    let want = if one_word {
        let w = b.var(0);
        [w, w]
    } else if int_flags {
        let w0 = b.var_bytes(0, crate::Bytes::span(0, 4));
        [w0, b.var_beside(w0, 0, crate::Bytes::span(4, 4))]
    } else {
        [b.var(0), b.var(0)]
    };
    let turn = b.var(0);
    let inside = if inside_with_turn { b.var_in_word_of(turn, 0) } else { b.var(0) };
    let proc_ = |b: &mut ModelBuilder, me: usize| {
        let other = 1 - me;
        b.thread(&format!("p{me}"), move |t| {
            let raise = |t: &mut super::ThreadBuilder, up: bool| {
                if one_word {
                    let bit = 1i64 << me;
                    t.fetch_add(want[me], if up { bit } else { -bit });
                } else {
                    t.write(want[me], up as i64);
                }
            };
            if broken {
                t.write(turn, other as i64);
                raise(t, true);
            } else {
                raise(t, true);
                t.write(turn, other as i64);
            }
            let enter = t.label();
            let test_w = |t: &mut super::ThreadBuilder| {
                let w = t.read(want[other]);
                let theirs = match (one_word, other) {
                    (false, _) => w.e(),
                    (true, 0) => w.rem(2),
                    (true, _) => w.lt(2).eq(0),
                };
                t.jump_if_zero(theirs, enter);
            };
            let test_t = |t: &mut super::ThreadBuilder| {
                let tu = t.read(turn);
                t.jump_if_zero(tu.eq(other as i64), enter);
            };
            // As the C runtime runs the loop (tests/c/peterson_unbounded.c compiled
            // without optimisation): it compares a checkpoint's state with the one at its
            // previous visit, the first visit included, and waits at the first visit
            // that finds it unchanged but for bytes dead there (the loads' temporaries,
            // which the next load overwrites before they are read: docs/memory.md, "Dead
            // temporaries"). The first iteration writes the loads' address temporaries
            // for the first time, which the instrumentation does not see: the second
            // visit of W differs from the first there. At the second visit of T they
            // are as at the first, and only the dead temporaries differ: each thread
            // reads W T W and waits there. (Measured: the runtime's steps
            // of every schedule of the C program, both versions, with a log of the
            // performed steps. The wait is an assumption: no schedule performs it.
            // Before dead bytes were allowed, p0 read W T W T and waited at the third
            // visit of W.)
            if inside_with_turn {
                // The former runtime, whose rule `peterson_inside_in_turn_word` reproduces:
                // it blocked after two identical iterations (the first visit of a
                // checkpoint registered it, the second took the snapshot, the third
                // compared), at the loop head (want, turn) the first time; after a wake
                // the checkpoints started afresh one read later, so the waits alternated
                // between the two reads: W T W T await(W,T), then W T W T W await(T,W),
                // T W T W T await(W,T), and so on.
                for _ in 0..2 {
                    test_w(t);
                    test_t(t);
                }
                t.await_change(&[want[other], turn]);
                let again = t.label();
                t.place(again);
                for _ in 0..2 {
                    test_w(t);
                    test_t(t);
                }
                test_w(t);
                t.await_change(&[turn, want[other]]);
                for _ in 0..2 {
                    test_t(t);
                    test_w(t);
                }
                test_t(t);
                t.await_change(&[want[other], turn]);
                t.jump(again);
            } else {
                test_w(t);
                test_t(t);
                test_w(t);
                t.await_change(&[turn, want[other]]);
                let again = t.label();
                t.place(again);
                test_t(t);
                test_w(t);
                t.await_change(&[turn, want[other]]);
                t.jump(again);
            }
            t.place(enter);
            // Plain accesses, as in C: checked for races, not scheduling points.
            let x = t.load(inside);
            t.store(inside, x.add(1));
            t.assert(x.eq(0), "mutual exclusion");
            let y = t.load(inside);
            t.store(inside, y.sub(1));
            raise(t, false);
        })
    };
    let p0 = proc_(&mut b, 0);
    let p1 = proc_(&mut b, 1);
    b.main(|t| {
        let a = t.spawn(p0);
        let c = t.spawn(p1);
        t.join(a);
        t.join(c);
    });
    b.build()
}

/// `pollers` threads polling one mutex's plain flag (`for (;;) { lock(m); r = flag;
/// unlock(m); if (r) break; }`, or, with `consume`, taking one unit of it when positive)
/// while main, after creating them, sets the flag to `amount` under the mutex (not at all
/// when `amount` is 0: the pollers wait forever, a livelock), then joins them. Each poll
/// makes `warmup` iterations before it compares one ([`ModelBuilder::poll_warmup`]; 2 is
/// the C runtime's). With two pollers and the warm-up of the runtime this is
/// `tests/c/sync_poll_two_pollers.c` (`amount` 1) and `tests/c/sync_poll_two_consumers.c`
/// (`consume`, `amount` 2) step for step: brute force runs the 31 737 schedules dfs runs
/// on them and finds their 602 and 802 traces (test `several_pollers_of_one_mutex`).
pub fn pollers_of_one_mutex(pollers: usize, consume: bool, amount: i64, warmup: u32) -> Model {
    pollers_of_one_mutex_with(pollers, consume, amount, warmup, None)
}

/// [`pollers_of_one_mutex`], with `loops` its polls written as the real loops of at most
/// that many iterations ([`ModelBuilder::polls_as_bounded_loops`]).
pub fn pollers_of_one_mutex_with(pollers: usize, consume: bool, amount: i64, warmup: u32, loops: Option<u32>) -> Model {
    let mut b = ModelBuilder::new();
    b.poll_warmup(warmup);
    if let Some(k) = loops {
        b.polls_as_bounded_loops(k);
    }
    let m = b.mutex();
    let flag = b.var(0);
    let poller = b.thread("poller", |t| {
        t.poll_under_mutex(m, flag, None, consume);
    });
    b.main(|t| {
        let hs: Vec<_> = (0..pollers).map(|_| t.spawn(poller)).collect();
        if amount > 0 {
            t.lock(m);
            t.store(flag, amount);
            t.unlock(m);
        }
        for h in hs {
            t.join(h);
        }
    });
    b.build()
}

/// `pollers` threads polling mutex `m`'s flag; the thread that sets it (under `m`) first waits,
/// through a semaphore, for main's critical section on `m`, which writes nothing
/// (`lock(m); unlock(m); sem_post`): the happens-before chain from the pollers' reads to
/// the write passes through that empty section. Its unlock is an ordinary one (it is
/// main's first), and nothing is lost: every schedule ends with the pollers past their
/// loop. With `bug`, the setter publishes `data` in a second critical section after the
/// flag's, and the pollers assert it: a poller can see the flag first.
pub fn polls_behind_an_empty_section(pollers: usize, bug: bool) -> Model {
    let mut b = ModelBuilder::new();
    b.poll_warmup(0);
    let m = b.mutex();
    let flag = b.var(0);
    let data = b.var(0);
    let go = b.sem();
    let poller = b.thread("poller", |t| {
        t.poll_under_mutex(m, flag, None, false);
        t.lock(m);
        let d = t.load(data);
        t.unlock(m);
        t.assert(d.eq(42), "data published with the flag");
    });
    let setter = b.thread("setter", |t| {
        t.sem_wait(go);
        t.lock(m);
        t.store(flag, 1);
        if !bug {
            t.store(data, 42);
        }
        t.unlock(m);
        if bug {
            t.lock(m);
            t.store(data, 42);
            t.unlock(m);
        }
    });
    b.main(|t| {
        t.sem_init(go, 0);
        let mut hs: Vec<_> = (0..pollers).map(|_| t.spawn(poller)).collect();
        hs.push(t.spawn(setter));
        t.lock(m);
        t.unlock(m);
        t.sem_post(go);
        for h in hs {
            t.join(h);
        }
    });
    b.build()
}
