//! Litmus tests under sequential consistency: for each classic shape (store buffering,
//! message passing, load buffering, IRIW, 2+2W, WRC), a C program on C11 atomics is
//! generated from a small description, and for every candidate final state `unfold
//! check` must find an execution ending in it exactly when a brute-force enumeration of
//! the description's interleavings (written here, independently of unfold) reaches it.
//! So the set of final states unfold can observe is exactly the SC set: no outcome
//! missed, no non-SC outcome ever.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

#[derive(Clone, Copy, Debug)]
enum Op {
    /// `atomic_store(&v, k)`.
    Store(usize, i64),
    /// `r = atomic_load(&v)`.
    Load(usize, usize),
    /// `atomic_store(&v, r)`.
    StoreReg(usize, usize),
}

struct Litmus {
    name: &'static str,
    vars: usize,
    threads: Vec<Vec<Op>>,
    /// The final values of these variables are part of the outcome too.
    observe_vars: Vec<usize>,
}

impl Litmus {
    fn regs(&self) -> usize {
        self.threads.iter().flatten().filter(|o| matches!(o, Op::Load(..))).count()
    }

    /// Every SC outcome: registers, then observed variables.
    fn sc_outcomes(&self) -> BTreeSet<Vec<i64>> {
        let mut out = BTreeSet::new();
        let mut pcs = vec![0usize; self.threads.len()];
        let mut mem = vec![0i64; self.vars];
        let mut regs = vec![0i64; self.regs()];
        self.enumerate(&mut pcs, &mut mem, &mut regs, &mut out);
        out
    }

    fn enumerate(&self, pcs: &mut [usize], mem: &mut [i64], regs: &mut [i64], out: &mut BTreeSet<Vec<i64>>) {
        let mut any = false;
        for t in 0..self.threads.len() {
            let Some(&op) = self.threads[t].get(pcs[t]) else { continue };
            any = true;
            let (saved_mem, saved_regs) = (mem.to_vec(), regs.to_vec());
            match op {
                Op::Store(v, k) => mem[v] = k,
                Op::Load(v, r) => regs[r] = mem[v],
                Op::StoreReg(v, r) => mem[v] = regs[r],
            }
            pcs[t] += 1;
            self.enumerate(pcs, mem, regs, out);
            pcs[t] -= 1;
            mem.copy_from_slice(&saved_mem);
            regs.copy_from_slice(&saved_regs);
        }
        if !any {
            let mut o = regs.to_vec();
            o.extend(self.observe_vars.iter().map(|&v| mem[v]));
            out.insert(o);
        }
    }

    /// Values each outcome component can take (0 and every constant stored anywhere).
    fn domain(&self) -> Vec<i64> {
        let mut d: BTreeSet<i64> = [0].into_iter().collect();
        for op in self.threads.iter().flatten() {
            if let Op::Store(_, k) = op {
                d.insert(*k);
            }
        }
        d.into_iter().collect()
    }

    /// The C program: the outcome to look for is given with -DO0=.. -DO1=..
    fn c_source(&self) -> String {
        let mut s = String::from("#include <pthread.h>\n#include <stdatomic.h>\n#include <assert.h>\n");
        for v in 0..self.vars {
            s += &format!("atomic_int v{v};\n");
        }
        for r in 0..self.regs() {
            s += &format!("int r{r};\n");
        }
        let mut r = 0;
        for (t, ops) in self.threads.iter().enumerate() {
            s += &format!("void *t{t}(void *arg) {{\n    (void)arg;\n");
            for op in ops {
                match *op {
                    Op::Store(v, k) => s += &format!("    atomic_store(&v{v}, {k});\n"),
                    Op::Load(v, reg) => {
                        assert_eq!(reg, r, "registers are numbered in program order");
                        s += &format!("    r{reg} = atomic_load(&v{v});\n");
                        r += 1;
                    }
                    Op::StoreReg(v, reg) => s += &format!("    atomic_store(&v{v}, r{reg});\n"),
                }
            }
            s += "    return 0;\n}\n";
        }
        s += "int main(void) {\n";
        s += &format!("    pthread_t th[{}];\n", self.threads.len());
        for t in 0..self.threads.len() {
            s += &format!("    pthread_create(&th[{t}], 0, t{t}, 0);\n");
        }
        for t in 0..self.threads.len() {
            s += &format!("    pthread_join(th[{t}], 0);\n");
        }
        let mut conds: Vec<String> = (0..self.regs()).map(|r| format!("r{r} == O{r}")).collect();
        for (i, v) in self.observe_vars.iter().enumerate() {
            conds.push(format!("atomic_load(&v{v}) == O{}", self.regs() + i));
        }
        s += &format!("    assert(!({}));\n    return 0;\n}}\n", conds.join(" && "));
        s
    }
}

fn shapes() -> Vec<Litmus> {
    use Op::*;
    vec![
        Litmus {
            name: "SB",
            vars: 2,
            threads: vec![vec![Store(0, 1), Load(1, 0)], vec![Store(1, 1), Load(0, 1)]],
            observe_vars: vec![],
        },
        Litmus {
            name: "MP",
            vars: 2,
            threads: vec![vec![Store(0, 1), Store(1, 1)], vec![Load(1, 0), Load(0, 1)]],
            observe_vars: vec![],
        },
        Litmus {
            name: "LB",
            vars: 2,
            threads: vec![vec![Load(0, 0), Store(1, 1)], vec![Load(1, 1), Store(0, 1)]],
            observe_vars: vec![],
        },
        Litmus {
            name: "IRIW",
            vars: 2,
            threads: vec![
                vec![Store(0, 1)],
                vec![Store(1, 1)],
                vec![Load(0, 0), Load(1, 1)],
                vec![Load(1, 2), Load(0, 3)],
            ],
            observe_vars: vec![],
        },
        Litmus {
            name: "2+2W",
            vars: 2,
            threads: vec![vec![Store(0, 1), Store(1, 2)], vec![Store(1, 1), Store(0, 2)]],
            observe_vars: vec![0, 1],
        },
        Litmus {
            name: "WRC",
            vars: 2,
            threads: vec![vec![Store(0, 1)], vec![Load(0, 0), StoreReg(1, 0)], vec![Load(1, 1), Load(0, 2)]],
            observe_vars: vec![],
        },
    ]
}

/// Every tuple over `domain` of length `n`.
fn tuples(domain: &[i64], n: usize) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out.into_iter().flat_map(|t| domain.iter().map(move |&d| [t.clone(), vec![d]].concat())).collect();
    }
    out
}

fn reachable(dir: &Path, file: &str, outcome: &[i64], algorithm: &str) -> bool {
    let mut args: Vec<String> =
        vec!["check".into(), file.into(), "--json".into(), "--algorithm".into(), algorithm.into()];
    args.extend(outcome.iter().enumerate().map(|(i, v)| format!("-DO{i}={v}")));
    let out = Command::new(env!("CARGO_BIN_EXE_unfold")).current_dir(dir).args(&args).output().expect("unfold runs");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{file} {outcome:?}: no JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    match j["verdict"].as_str() {
        Some("ok") => false,
        Some("defect") => {
            let kinds: Vec<&str> = j["defects"].as_array().unwrap().iter().filter_map(|d| d["kind"].as_str()).collect();
            assert!(kinds.contains(&"assertion"), "{file} {outcome:?}: unexpected defects {kinds:?}");
            assert!(!kinds.contains(&"data-race"), "{file}: atomics must not race: {j}");
            true
        }
        other => panic!("{file} {outcome:?}: verdict {other:?}: {j}"),
    }
}

#[test]
fn litmus_outcomes_are_exactly_the_sequentially_consistent_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut report = Vec::new();
    for l in shapes() {
        let file = format!("{}.c", l.name.replace('+', "_"));
        std::fs::write(dir.path().join(&file), l.c_source()).expect("write litmus");
        let sc = l.sc_outcomes();
        let n = l.regs() + l.observe_vars.len();
        let candidates = tuples(&l.domain(), n);
        assert!(sc.len() < candidates.len(), "{}: every outcome is SC, the test would prove nothing", l.name);
        for o in &candidates {
            // QPOR on every candidate; the DPOR family (read-read independent) too.
            for alg in ["qpor", "optimal-dpor", "source-dpor"] {
                let got = reachable(dir.path(), &file, o, alg);
                if got != sc.contains(o) {
                    report.push(format!(
                        "{} {alg}: outcome {o:?} found={got}, SC-reachable={}",
                        l.name,
                        sc.contains(o)
                    ));
                }
            }
        }
        println!("{}: {} of {} candidate outcomes are SC", l.name, sc.len(), candidates.len());
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}
