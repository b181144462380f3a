//! The random-program property test, through real C: generate small pthread programs
//! (threads running random sequences of critical sections — plain, nested, trylock),
//! compile and explore them with `unfold check --json --keep-going`, and compare the
//! number of maximal configurations with a brute-force enumeration of the abstract
//! program's interleavings, here in the test.
//!
//! Two interleavings are the same Mazurkiewicz trace iff every thread performs the same
//! sequence of operations (trylock outcomes included) and every mutex sees its operations
//! in the same order; the brute force counts distinct such signatures over all maximal
//! interleavings (deadlocks included: main joins every thread, so a deadlock among the
//! workers is a maximal execution of the C program too).

use serde_json::Value;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::process::Command;

#[derive(Clone, Copy, Debug)]
enum Section {
    Plain(usize),
    Nested(usize, usize),
    Try(usize),
}

use unfold_engine::model::random::Rng;

fn generate(seed: u64) -> (usize, Vec<Vec<Section>>) {
    let mut r = Rng::new(seed);
    let mutexes = 1 + r.below(2);
    let threads = 2 + r.below(2);
    // Small enough for exhaustive interleaving search on both sides: two threads with
    // up to two sections, or three threads with one section each.
    let sections = if threads == 2 { 2 } else { 1 };
    let prog = (0..threads)
        .map(|_| {
            (0..1 + r.below(sections))
                .map(|_| match r.below(3) {
                    0 => Section::Plain(r.below(mutexes)),
                    1 if mutexes > 1 => {
                        let a = r.below(mutexes);
                        Section::Nested(a, (a + 1) % mutexes)
                    }
                    _ => Section::Try(r.below(mutexes)),
                })
                .collect()
        })
        .collect();
    (mutexes, prog)
}

fn c_source(mutexes: usize, prog: &[Vec<Section>]) -> String {
    let mut s = String::from("#include <pthread.h>\n");
    let _ =
        writeln!(s, "pthread_mutex_t m[{mutexes}] = {{{}}};", vec!["PTHREAD_MUTEX_INITIALIZER"; mutexes].join(", "));
    for (i, th) in prog.iter().enumerate() {
        let _ = writeln!(s, "void *t{i}(void *arg) {{\n    (void)arg;");
        for sec in th {
            match *sec {
                Section::Plain(a) => {
                    let _ = writeln!(s, "    pthread_mutex_lock(&m[{a}]);\n    pthread_mutex_unlock(&m[{a}]);");
                }
                Section::Nested(a, b) => {
                    let _ = writeln!(
                        s,
                        "    pthread_mutex_lock(&m[{a}]);\n    pthread_mutex_lock(&m[{b}]);\n    pthread_mutex_unlock(&m[{b}]);\n    pthread_mutex_unlock(&m[{a}]);"
                    );
                }
                Section::Try(a) => {
                    let _ = writeln!(
                        s,
                        "    if (pthread_mutex_trylock(&m[{a}]) == 0)\n        pthread_mutex_unlock(&m[{a}]);"
                    );
                }
            }
        }
        s.push_str("    return 0;\n}\n");
    }
    s.push_str("int main(void) {\n");
    let _ = writeln!(s, "    pthread_t t[{}];", prog.len());
    for i in 0..prog.len() {
        let _ = writeln!(s, "    pthread_create(&t[{i}], 0, t{i}, 0);");
    }
    for i in 0..prog.len() {
        let _ = writeln!(s, "    pthread_join(t[{i}], 0);");
    }
    s.push_str("    return 0;\n}\n");
    s
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Op {
    Lock(usize),
    Unlock(usize),
    Try(usize),
}

/// Count distinct traces of maximal interleavings, by exhaustive search.
fn brute_force(mutexes: usize, prog: &[Vec<Section>]) -> usize {
    let code: Vec<Vec<Op>> = prog
        .iter()
        .map(|th| {
            th.iter()
                .flat_map(|s| match *s {
                    Section::Plain(a) => vec![Op::Lock(a), Op::Unlock(a)],
                    Section::Nested(a, b) => {
                        vec![Op::Lock(a), Op::Lock(b), Op::Unlock(b), Op::Unlock(a)]
                    }
                    // A successful trylock is followed by its unlock; a failed one skips it.
                    Section::Try(a) => vec![Op::Try(a), Op::Unlock(a)],
                })
                .collect()
        })
        .collect();
    // Signature: per thread, its (op, outcome) sequence; per mutex, the (thread, index)
    // order of operations on it.
    type Sig = (Vec<Vec<(Op, bool)>>, Vec<Vec<(usize, usize)>>);
    let mut seen: HashSet<Sig> = HashSet::new();
    let n = code.len();
    // DFS over states with explicit stack: (pcs, owners, signature so far).
    let start: (Vec<usize>, Vec<Option<usize>>, Sig) =
        (vec![0; n], vec![None; mutexes], (vec![Vec::new(); n], vec![Vec::new(); mutexes]));
    let mut stack = vec![start];
    while let Some((pcs, owners, sig)) = stack.pop() {
        let mut moved = false;
        for t in 0..n {
            let Some(&op) = code[t].get(pcs[t]) else {
                continue;
            };
            let mut pcs2 = pcs.clone();
            let mut own2 = owners.clone();
            let mut sig2 = sig.clone();
            let idx = sig.0[t].len();
            match op {
                Op::Lock(a) => {
                    if owners[a].is_some() {
                        continue;
                    }
                    own2[a] = Some(t);
                    pcs2[t] += 1;
                    sig2.0[t].push((op, true));
                    sig2.1[a].push((t, idx));
                }
                Op::Unlock(a) => {
                    own2[a] = None;
                    pcs2[t] += 1;
                    sig2.0[t].push((op, true));
                    sig2.1[a].push((t, idx));
                }
                Op::Try(a) => {
                    let ok = owners[a].is_none();
                    if ok {
                        own2[a] = Some(t);
                    }
                    pcs2[t] += if ok { 1 } else { 2 };
                    sig2.0[t].push((op, ok));
                    sig2.1[a].push((t, idx));
                }
            }
            moved = true;
            stack.push((pcs2, own2, sig2));
        }
        if !moved {
            seen.insert(sig);
        }
    }
    seen.len()
}

#[test]
fn random_c_programs_match_brute_force_counts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    for seed in 1..=14u64 {
        let (mutexes, prog) = generate(seed);
        let src = c_source(mutexes, &prog);
        let file = dir.path().join(format!("random_{seed}.c"));
        std::fs::write(&file, &src).expect("write source");
        let expected = brute_force(mutexes, &prog);
        let out = Command::new(env!("CARGO_BIN_EXE_unfold"))
            .current_dir(dir.path())
            .args(["check", file.file_name().and_then(|f| f.to_str()).expect("name"), "--json", "--keep-going"])
            .output()
            .expect("unfold runs");
        let j: Value = match serde_json::from_slice(&out.stdout) {
            Ok(j) => j,
            Err(e) => {
                failures.push(format!("seed {seed}: bad JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
                continue;
            }
        };
        let got = j["maximal_configurations"].as_u64();
        if got != Some(expected as u64) {
            failures.push(format!("seed {seed}: unfold counted {got:?}, brute force {expected}\n{src}"));
        }
        // The only possible defect of these programs is a deadlock (nested sections in
        // opposite orders).
        for d in j["defects"].as_array().into_iter().flatten() {
            if d["kind"] != "deadlock" {
                failures.push(format!("seed {seed}: unexpected defect {d}\n{src}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
