//! Enumerating the values of SV-COMP's nondeterministic draws (`__VERIFIER_nondet_int()`
//! and its siblings) across explorations.
//!
//! The runtime names each draw by its *key* — the thread and how many values it drew
//! before (`unfold_runtime::nondet`) — and returns the value a *valuation* gives the key,
//! or a default. Under a fixed valuation the program is data-deterministic, and one
//! exploration covers all its schedules. This module chooses the valuations: a
//! depth-first search over the keys in the order they are met, each key trying the
//! values of its type in turn (`_Bool`: 0 and 1; integer and floating types: the
//! `--nondet` list, the default first; pointers: NULL). A key is met by running:
//! an exploration reports the keys its executions drew, the new ones join the search
//! with the value they just had, and the search moves on to the next valuation.
//!
//! Two rules keep the search exact and small:
//! - a key that no exploration drew since it took its value is not varied further when
//!   the search comes back to it: whether a key is drawn does not depend on its own
//!   value, so every exploration below it would come out the same (whether it was drawn
//!   in the *last* exploration is not enough: a key the search met later, and varied
//!   since, may have taken it off the path);
//! - at most `max_keys` keys are varied on one path of the search; the others keep the
//!   default, and the result says that it is partial.
//!
//! Every combination of values of the keys an execution draws (within the lists) is
//! covered by some valuation; with only `_Bool` draws and no key left at its default by
//! the cap, the search is complete.

use std::collections::BTreeMap;
use unfold_engine::ThreadId;
use unfold_runtime::NondetKind;

/// A draw's key: the thread and how many values it drew before.
pub type Key = (ThreadId, u32);

/// One key of the search and the value it has now.
#[derive(Clone, Debug)]
struct Decision {
    key: Key,
    kind: NondetKind,
    /// Index into the values of `kind` (`Enumeration::values`).
    index: usize,
    /// Whether some exploration drew the key since it took this value.
    drawn: bool,
}

/// The depth-first search over valuations (module documentation).
#[derive(Clone, Debug)]
pub struct Enumeration {
    /// The values of integer and floating draws; the first is the default.
    domain: Vec<i64>,
    max_keys: usize,
    stack: Vec<Decision>,
    /// Valuations handed out so far.
    valuations: u64,
    /// A key was drawn whose type has values the lists leave out.
    partial_types: bool,
    /// A key was left at its default because `max_keys` keys were varied already.
    capped: bool,
    /// An execution drew more values than it could report.
    truncated: bool,
    /// Some value was drawn at all.
    drew: bool,
    /// The search ran to its end.
    exhausted: bool,
}

impl Enumeration {
    /// A search drawing `domain` (not empty; its first value is the default) for integer
    /// and floating types, varying at most `max_keys` keys on a path.
    pub fn new(domain: Vec<i64>, max_keys: usize) -> Self {
        assert!(!domain.is_empty(), "the value list is checked by the argument parser");
        Enumeration {
            domain,
            max_keys,
            stack: Vec::new(),
            valuations: 1,
            partial_types: false,
            capped: false,
            truncated: false,
            drew: false,
            exhausted: false,
        }
    }

    /// The value of keys the valuation does not name.
    pub fn default_value(&self) -> i64 {
        self.domain[0]
    }

    /// The values a key of kind `kind` takes, its value at discovery first.
    fn values(&self, kind: NondetKind) -> Vec<i64> {
        match kind {
            NondetKind::Bool => {
                let d = (self.default_value() != 0) as i64;
                vec![d, 1 - d]
            }
            NondetKind::Pointer => vec![0],
            _ => self.domain.clone(),
        }
    }

    /// The current valuation.
    pub fn valuation(&self) -> Vec<(Key, i64)> {
        self.stack.iter().map(|d| (d.key, self.values(d.kind)[d.index])).collect()
    }

    /// Take the keys the exploration under the current valuation drew, and move to the
    /// next valuation; false when the search is over.
    pub fn advance(&mut self, drawn: &BTreeMap<Key, NondetKind>, truncated: bool) -> bool {
        self.truncated |= truncated;
        self.drew |= !drawn.is_empty() || truncated;
        self.partial_types |= drawn.values().any(|&k| k != NondetKind::Bool);
        for d in &mut self.stack {
            d.drawn |= drawn.contains_key(&d.key);
        }
        for (&key, &kind) in drawn {
            if self.stack.iter().any(|d| d.key == key) {
                continue;
            }
            if self.stack.len() >= self.max_keys {
                self.capped = true;
                continue;
            }
            self.stack.push(Decision { key, kind, index: 0, drawn: true });
        }
        while let Some(top) = self.stack.last() {
            let len = self.values(top.kind).len();
            if top.drawn && top.index + 1 < len {
                let top = self.stack.last_mut().expect("just looked");
                top.index += 1;
                top.drawn = false;
                self.valuations += 1;
                return true;
            }
            self.stack.pop();
        }
        self.exhausted = true;
        false
    }

    /// Valuations handed out so far (the first one included).
    pub fn valuations(&self) -> u64 {
        self.valuations
    }

    /// Whether the program drew any value.
    pub fn drew(&self) -> bool {
        self.drew
    }

    /// Whether the valuations handed out cover every value the program can draw
    /// (vacuously when it drew none), once the search has ended.
    fn covers_every_value(&self) -> bool {
        !self.partial_types && !self.capped && !self.truncated
    }

    /// Whether the search ended and covered every value the program can draw.
    pub fn complete(&self) -> bool {
        self.exhausted && self.covers_every_value()
    }

    /// Why the values searched (or to be searched) leave some out, whatever the search's
    /// progress (None when they leave none out).
    pub fn partial_reason(&self) -> Option<String> {
        if self.covers_every_value() {
            return None;
        }
        let list = self.domain.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
        let mut why = Vec::new();
        if self.partial_types {
            why.push(format!(
                "__VERIFIER_nondet_* values were drawn from {list} (_Bool: 0, 1; pointers: NULL) only; --nondet sets \
                 the list"
            ));
        }
        if self.capped {
            why.push(format!(
                "only the first {} draws of an execution took every value, the later ones took {}; --nondet-keys \
                 raises the number",
                self.max_keys,
                self.default_value()
            ));
        }
        if self.truncated {
            why.push(
                "an execution drew too many values (more than 100 in one thread, whose path was cut there, or more \
                 than 4096 in all)"
                    .into(),
            );
        }
        Some(why.join("; "))
    }
}

/// Parse a `--nondet` list: comma-separated integers, distinct, 1 to 64 of them.
pub fn parse_domain(s: &str) -> Result<Vec<i64>, String> {
    let mut out: Vec<i64> = Vec::new();
    for part in s.split(',') {
        let v: i64 = part.trim().parse().map_err(|_| format!("`{part}` is not an integer"))?;
        if out.contains(&v) {
            return Err(format!("{v} is listed twice"));
        }
        out.push(v);
    }
    if out.len() > 64 {
        return Err("at most 64 values".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A program as a function from a valuation to the draws its exploration makes, the
    /// values each execution sees: a draw reads the valuation (or the default).
    type Program<'a> = dyn Fn(&dyn Fn(Key, NondetKind) -> i64) -> Vec<Vec<(Key, i64)>> + 'a;

    /// Run the search on `p`, collecting the distinct value vectors of its executions.
    fn search(p: &Program<'_>, domain: Vec<i64>, max_keys: usize) -> (BTreeSet<Vec<(Key, i64)>>, Enumeration) {
        let mut e = Enumeration::new(domain, max_keys);
        let mut seen = BTreeSet::new();
        for _ in 0..100_000 {
            let v: BTreeMap<Key, i64> = e.valuation().into_iter().collect();
            let kinds = std::cell::RefCell::new(BTreeMap::new());
            let read = |k: Key, kind: NondetKind| {
                kinds.borrow_mut().insert(k, kind);
                let x = v.get(&k).copied().unwrap_or(e.default_value());
                if kind == NondetKind::Bool {
                    (x != 0) as i64
                } else {
                    x
                }
            };
            for exec in p(&read) {
                seen.insert(exec);
            }
            if !e.advance(&kinds.into_inner(), false) {
                return (seen, e);
            }
        }
        panic!("the search did not end");
    }

    const T0: ThreadId = ThreadId(0);
    const T1: ThreadId = ThreadId(1);

    #[test]
    fn independent_draws_take_every_combination() {
        // Two threads each draw an int; one execution per thread order sees both.
        let p = |read: &dyn Fn(Key, NondetKind) -> i64| {
            let a = read((T0, 0), NondetKind::I32);
            let b = read((T1, 0), NondetKind::I32);
            vec![vec![((T0, 0), a), ((T1, 0), b)], vec![((T1, 0), b), ((T0, 0), a)]]
        };
        let (seen, e) = search(&p, vec![0, 1, -1], 8);
        let pairs: BTreeSet<(i64, i64)> = seen.iter().map(|x| (x[0].1, x[1].1)).collect();
        assert_eq!(pairs.len(), 9, "{pairs:?}");
        assert_eq!(e.valuations(), 9);
        assert!(!e.complete(), "ints drawn from a list are not all their values");
    }

    #[test]
    fn a_draw_met_only_under_some_values_is_enumerated_there_and_only_there() {
        // `if (nondet_bool()) { x = nondet_int(); y = nondet_int(); }`: 1 + 3 * 3 paths.
        let p = |read: &dyn Fn(Key, NondetKind) -> i64| {
            let c = read((T0, 0), NondetKind::Bool);
            if c == 0 {
                return vec![vec![((T0, 0), 0)]];
            }
            let x = read((T0, 1), NondetKind::I32);
            let y = read((T0, 2), NondetKind::I32);
            vec![vec![((T0, 0), 1), ((T0, 1), x), ((T0, 2), y)]]
        };
        let (seen, e) = search(&p, vec![0, 1, -1], 8);
        assert_eq!(seen.len(), 10, "{seen:?}");
        // The inner keys are not varied while the condition is false: no repeats.
        assert_eq!(e.valuations(), 10);
    }

    #[test]
    fn a_draw_below_another_in_the_search_is_varied_where_the_other_lets_it_be_drawn() {
        // Thread 1 draws x; thread 0 draws d only when x is 0. d's key sorts first, so it
        // sits below x in the search: when the search comes back to d, the last
        // exploration (x = -1) did not draw it, yet d matters under x = 0.
        let d_key = (T0, 1);
        let x_key = (T1, 0);
        let p = move |read: &dyn Fn(Key, NondetKind) -> i64| {
            let x = read(x_key, NondetKind::I32);
            if x != 0 {
                return vec![vec![(x_key, x)]];
            }
            let d = read(d_key, NondetKind::I32);
            vec![vec![(x_key, x), (d_key, d)]]
        };
        let (seen, _) = search(&p, vec![0, 1, -1], 8);
        assert_eq!(seen.len(), 5, "x = 0 with every d, x = 1, x = -1: {seen:?}");
    }

    /// Random programs whose draws depend on earlier ones: the search must see exactly
    /// the value vectors of the brute-force enumeration of every key's values.
    #[test]
    fn random_programs_see_what_every_valuation_sees() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let domain = vec![0, 1, -1];
        let mut conditional = 0;
        for _ in 0..400 {
            // Keys of three threads; an execution draws them in a random order, each
            // (but the first) maybe only if an earlier one drew a given value.
            let n = 1 + rnd(5) as usize;
            let keys: Vec<Key> = (0..n).map(|i| (ThreadId((i % 3) as u16), (i / 3) as u32)).collect();
            let mut shuffle = |v: &mut Vec<usize>| {
                for i in (1..v.len()).rev() {
                    v.swap(i, rnd(i as u64 + 1) as usize);
                }
            };
            // Two executions per exploration (two interleavings): they may draw different
            // keys.
            let mut order: Vec<usize> = (0..n).collect();
            shuffle(&mut order);
            let mut order2 = order.clone();
            shuffle(&mut order2);
            let kinds: Vec<NondetKind> =
                (0..n).map(|_| if rnd(3) == 0 { NondetKind::Bool } else { NondetKind::I32 }).collect();
            let conds: Vec<Option<(usize, i64)>> = (0..n)
                .map(|pos| (pos > 0 && rnd(2) == 0).then(|| (order[rnd(pos as u64) as usize], rnd(2) as i64)))
                .collect();
            conditional += conds.iter().filter(|c| c.is_some()).count();
            // A key's condition (set by its position in `order`) holds in either order.
            let cond_of = |k: usize| conds[order.iter().position(|&x| x == k).expect("a key")];
            let run_in = |ord: &[usize], read: &dyn Fn(Key, NondetKind) -> i64| {
                let mut vals: Vec<(usize, i64)> = Vec::new();
                for &k in ord {
                    let go = match cond_of(k) {
                        None => true,
                        Some((j, c)) => vals.iter().any(|&(x, v)| x == j && v == c),
                    };
                    if go {
                        vals.push((k, read(keys[k], kinds[k])));
                    }
                }
                vals.into_iter().map(|(k, v)| (keys[k], v)).collect::<Vec<_>>()
            };
            let run = |read: &dyn Fn(Key, NondetKind) -> i64| vec![run_in(&order, read), run_in(&order2, read)];
            let (seen, _) = search(&run, domain.clone(), 8);
            // Brute force: every key takes every value of its type.
            let sizes: Vec<usize> = kinds.iter().map(|&k| if k == NondetKind::Bool { 2 } else { 3 }).collect();
            let mut want = BTreeSet::new();
            let mut digits = vec![0usize; n];
            loop {
                let value = |k: Key, kind: NondetKind| {
                    let i = keys.iter().position(|&x| x == k).expect("a key of the program");
                    if kind == NondetKind::Bool {
                        digits[i] as i64
                    } else {
                        domain[digits[i]]
                    }
                };
                want.extend(run(&value));
                let Some(i) = (0..n).find(|&i| digits[i] + 1 < sizes[i]) else { break };
                digits[i] += 1;
                digits[..i].iter_mut().for_each(|d| *d = 0);
            }
            assert_eq!(seen, want, "keys {keys:?} orders {order:?} {order2:?} kinds {kinds:?} conditions {conds:?}");
        }
        assert!(conditional > 100, "the generator should make draws that depend on others");
    }

    #[test]
    fn booleans_alone_make_a_complete_search() {
        // A loop `while (nondet_bool())` bounded by the key cap: with the cap above the
        // loop's length the search is complete.
        let p = |read: &dyn Fn(Key, NondetKind) -> i64| {
            let mut vals = Vec::new();
            for n in 0..3 {
                let v = read((T0, n), NondetKind::Bool);
                vals.push(((T0, n), v));
                if v == 0 {
                    break;
                }
            }
            vec![vals]
        };
        let (seen, e) = search(&p, vec![0, 1, -1], 8);
        assert_eq!(seen.len(), 4, "0; 1,0; 1,1,0; 1,1,1: {seen:?}");
        assert!(e.complete() && e.drew());
        // With a cap of 2, the third draw keeps the default: partial.
        let (seen, e) = search(&p, vec![0, 1, -1], 2);
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert!(!e.complete() && e.partial_reason().is_some_and(|r| r.contains("--nondet-keys")));
    }

    #[test]
    fn the_default_comes_first_and_a_program_without_draws_has_one_valuation() {
        let p = |read: &dyn Fn(Key, NondetKind) -> i64| vec![vec![((T0, 0), read((T0, 0), NondetKind::I64))]];
        let (seen, _) = search(&p, vec![7, 8], 8);
        let vals: Vec<i64> = seen.iter().map(|x| x[0].1).collect();
        assert_eq!(vals, vec![7, 8]);
        let none = |_: &dyn Fn(Key, NondetKind) -> i64| vec![vec![]];
        let (_, e) = search(&none, vec![0, 1], 8);
        assert_eq!(e.valuations(), 1);
        assert!(e.complete() && !e.drew());
    }

    #[test]
    fn value_lists_parse_and_reject_duplicates() {
        assert_eq!(parse_domain("0, 1,-1"), Ok(vec![0, 1, -1]));
        assert!(parse_domain("0,0").is_err());
        assert!(parse_domain("x").is_err());
        assert!(parse_domain("").is_err());
    }
}
