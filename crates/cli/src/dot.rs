//! `--dot`: the part of the unfolding that the explored executions cover, in Graphviz
//! format.
//!
//! Events are canonical (design brief): an event is its thread, its action and its
//! immediate causal predecessors — the thread's previous event; for a mutex operation the
//! previous operation on that mutex; for a thread's first event the `Create` that made
//! the thread; for a join the joined thread's `Exit`. Interning that tuple identifies the
//! same event across executions, so the union of the explored executions' events, with
//! their causality edges, is a prefix of the program's unfolding (QPOR §2–3) — the
//! explored part of it, whatever the explorer. Two events with a common predecessor on
//! the same mutex are in immediate conflict; such pairs are drawn as dashed red edges.
//!
//! Cost: one hash-map lookup per step; memory: one entry per distinct event.

use crate::report::Symbols;
use std::collections::HashMap;
use std::fmt::Write as _;
use unfold_engine::{Action, Execution, ObjId, ThreadId};
use unfold_runtime::CProgram;

/// (thread, action, immediate predecessors sorted, padded with `NONE`).
type Key = (ThreadId, Action, [u32; 3]);

const NONE: u32 = u32::MAX;

/// The events seen so far.
#[derive(Debug, Default)]
pub struct Unfolding {
    ids: HashMap<Key, u32>,
    // invariant: events[i] is the key interned as id i.
    events: Vec<Key>,
    /// Events that are the object predecessor of several events: (pred, successor).
    obj_succ: Vec<(u32, u32, ObjId)>,
}

impl Unfolding {
    /// Add the events of one execution.
    pub fn add(&mut self, exec: &Execution) {
        let mut last_thread: HashMap<ThreadId, u32> = HashMap::new();
        let mut last_obj: HashMap<ObjId, u32> = HashMap::new();
        let mut creator: HashMap<ThreadId, u32> = HashMap::new();
        let mut exit_of: HashMap<ThreadId, u32> = HashMap::new();
        for s in &exec.steps {
            // At most three: thread (or creator), mutex, joined thread's exit.
            let mut preds: smallvec3::Preds = Default::default();
            match last_thread.get(&s.thread) {
                Some(&e) => preds.push(e),
                None => preds.extend(creator.get(&s.thread).copied()),
            }
            let obj = s.action.object();
            if let Some(&e) = obj.and_then(|o| last_obj.get(&o)) {
                preds.push(e);
            }
            if let Action::Join(u) = s.action {
                preds.extend(exit_of.get(&u).copied());
            }
            preds.sort_unstable();
            preds.dedup();
            let mut fixed = [NONE; 3];
            fixed[..preds.len()].copy_from_slice(&preds);
            let key = (s.thread, s.action, fixed);
            let id = match self.ids.get(&key) {
                Some(&id) => id,
                None => {
                    let id = self.events.len() as u32;
                    if let Some(o) = obj {
                        // u32::MAX: the mutex's first operation (no predecessor).
                        self.obj_succ.push((last_obj.get(&o).copied().unwrap_or(u32::MAX), id, o));
                    }
                    self.ids.insert(key, id);
                    self.events.push(key);
                    id
                }
            };
            last_thread.insert(s.thread, id);
            if let Some(o) = obj {
                last_obj.insert(o, id);
            }
            match s.action {
                Action::Create(c) => {
                    creator.insert(c, id);
                }
                Action::Exit => {
                    exit_of.insert(s.thread, id);
                }
                _ => {}
            }
        }
    }

    /// Number of distinct events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// The Graphviz text.
    pub fn to_dot(&self, sym: &Symbols, prog: &CProgram) -> String {
        let mut out = String::from("digraph unfolding {\n  node [shape=box, fontname=\"monospace\"];\n");
        for (i, (t, a, preds)) in self.events.iter().enumerate() {
            let label = format!("e{i} {t}\\n{}", sym.action(prog, *a).replace('"', "'"));
            let _ = writeln!(out, "  e{i} [label=\"{label}\"];");
            for p in preds.iter().filter(|&&p| p != NONE) {
                let _ = writeln!(out, "  e{p} -> e{i};");
            }
        }
        // Immediate conflicts: two events extending the same object predecessor.
        let mut by_pred: HashMap<(u32, ObjId), Vec<u32>> = HashMap::new();
        for &(p, e, o) in &self.obj_succ {
            by_pred.entry((p, o)).or_default().push(e);
        }
        let mut groups: Vec<_> = by_pred.into_values().filter(|v| v.len() > 1).collect();
        groups.sort();
        for g in groups {
            for (i, a) in g.iter().enumerate() {
                for b in &g[i + 1..] {
                    let _ = writeln!(out, "  e{a} -> e{b} [style=dashed, color=red, dir=none, constraint=false];");
                }
            }
        }
        out.push_str("}\n");
        out
    }
}

/// A tiny inline vector for the (at most three) predecessors of an event.
mod smallvec3 {
    /// Up to three u32s, without allocating.
    #[derive(Debug, Default)]
    pub struct Preds {
        v: [u32; 3],
        n: usize,
    }

    impl Preds {
        pub fn push(&mut self, x: u32) {
            self.v[self.n] = x;
            self.n += 1;
        }
        pub fn extend(&mut self, x: Option<u32>) {
            if let Some(x) = x {
                self.push(x);
            }
        }
        pub fn sort_unstable(&mut self) {
            self.v[..self.n].sort_unstable();
        }
        pub fn dedup(&mut self) {
            let mut w = 0;
            for r in 0..self.n {
                if w == 0 || self.v[w - 1] != self.v[r] {
                    self.v[w] = self.v[r];
                    w += 1;
                }
            }
            self.n = w;
        }
        pub fn len(&self) -> usize {
            self.n
        }
    }

    impl std::ops::Deref for Preds {
        type Target = [u32];
        fn deref(&self) -> &[u32] {
            &self.v[..self.n]
        }
    }
}
