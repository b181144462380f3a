//! Condition variables (`pthread_cond_t`).
//!
//! `pthread_cond_wait(c, m)` is four visible operations: [`Action::CondWait`] (join the
//! waiters), [`Action::Unlock`] of `m`, [`Action::CondWake`] (blocked until a signal
//! addressed to this waiter is pending) and [`Action::Lock`] of `m`. Joining the waiters
//! *before* releasing the mutex is equivalent to POSIX's atomic release-and-wait: a
//! signal between the two commutes with the unlock (they touch different objects), so
//! no interleaving can tell them apart.
//!
//! # Which waiter a signal wakes
//!
//! POSIX: a signal wakes at least one of the threads waiting *at the time of the
//! signal* (we wake exactly one), and is lost if there is none. The choice is explored
//! without making the signal itself nondeterministic: the signal leaves a *token*
//! eligible to every thread waiting at that moment, and the waiters compete for tokens
//! with their wake operation — which waiter wakes is then a scheduling choice like any
//! other. The state is
//! - `waiting`: the waiters in the order they joined, and
//! - `tokens`: for each pending signal, oldest first, the number of waiters it is
//!   eligible to — a prefix of `waiting` (the waiters at the time of the signal; later
//!   waiters come after them).
//!
//! A signal adds a token only if some waiter has no token yet (`waiting.len() >
//! tokens.len()`), otherwise it is lost; a broadcast gives a token to every waiter. A
//! waiter at position `w` can wake if some token's prefix exceeds `w`, and takes the
//! oldest such token. Taking the oldest keeps every later token for waiters that only
//! it can serve, so every set of woken threads POSIX allows is reachable and no other:
//! the prefixes stay non-decreasing and Hall's condition holds after every step.
//!
//! A timed wait's wake (and every wake when spurious wake-ups are explored) is always
//! enabled: it takes a token if one is eligible, otherwise it returns by time-out
//! without one. Misuse (waiting without holding the mutex, two mutexes on one condition
//! variable) is detected by the frontend.
//!
//! A condition variable also counts its signals and broadcasts: the state a spin-wait
//! on it watches ([`Action::Await`]). A thread whose loop iteration was a timed wait
//! that timed out (plus loads under the mutex) waits, still among the waiters, for
//! another thread's unlock of the mutex or for a signal (docs/memory.md, "Timed
//! condition waits in a loop").

use super::ObjectKind;
use crate::action::Action;
use crate::ids::ThreadId;

/// A condition variable.
#[derive(Debug)]
pub struct CondVar;

/// The state of a condition variable (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CondState {
    /// Waiting threads, in the order they joined.
    pub waiting: Vec<ThreadId>,
    // invariant: non-decreasing, every entry ≤ waiting.len(), len ≤ waiting.len().
    /// Pending signals, oldest first: the length of the prefix of `waiting` each one is
    /// eligible to.
    pub tokens: Vec<u32>,
    /// The number of signals and broadcasts so far, lost ones included (wrapping): the
    /// await count ([`ObjectKind::await_count`], [`Action::moves_await_count`]).
    pub signals: u32,
}

impl CondState {
    /// The token `t` would take: the oldest whose prefix contains `t`.
    fn token_for(&self, t: ThreadId) -> Option<(usize, usize)> {
        let w = self.waiting.iter().position(|&u| u == t)?;
        let k = self.tokens.iter().position(|&p| p as usize > w)?;
        Some((w, k))
    }

    /// Remove the waiter at position `w` (and the token `k` it takes, if any).
    fn leave(&mut self, w: usize, k: Option<usize>) {
        if let Some(k) = k {
            self.tokens.remove(k);
        }
        self.waiting.remove(w);
        for p in &mut self.tokens {
            if *p as usize > w {
                *p -= 1;
            }
        }
    }
}

impl ObjectKind for CondVar {
    type State = CondState;

    fn enabled(st: &CondState, t: ThreadId, a: Action) -> bool {
        match a {
            Action::CondWake(_, false, _) => st.token_for(t).is_some(),
            _ => true,
        }
    }

    fn resolve(st: &CondState, t: ThreadId, a: Action) -> Action {
        match a {
            Action::CondWake(c, true, _) => Action::CondWake(c, true, st.token_for(t).is_some()),
            Action::CondWake(c, false, _) => Action::CondWake(c, false, true),
            a => a,
        }
    }

    fn apply(st: &mut CondState, t: ThreadId, a: Action) -> Result<(), String> {
        match a {
            Action::CondWait(c) => {
                if st.waiting.contains(&t) {
                    return Err(format!("{t} waits twice on {c}"));
                }
                st.waiting.push(t);
            }
            Action::CondWake(c, _, signalled) => {
                let Some(w) = st.waiting.iter().position(|&u| u == t) else {
                    return Err(format!("{t} woke from {c} without waiting on it"));
                };
                let token = st.token_for(t).map(|(_, k)| k);
                if token.is_some() != signalled {
                    return Err(format!("{t} woke from {c} (signalled={signalled}) against its pending signals"));
                }
                st.leave(w, token);
            }
            Action::Signal(_) => {
                if st.waiting.len() > st.tokens.len() {
                    st.tokens.push(st.waiting.len() as u32);
                }
                st.signals = st.signals.wrapping_add(1);
            }
            Action::Broadcast(_) => {
                let n = st.waiting.len() as u32;
                st.tokens.clear();
                st.tokens.resize(n as usize, n);
                st.signals = st.signals.wrapping_add(1);
            }
            other => return Err(format!("{other:?} is not a condition variable operation")),
        }
        Ok(())
    }

    /// A spin-wait on a condition variable (a timed wait in a loop) waits for a signal
    /// or broadcast.
    fn await_count(st: &CondState) -> Option<u32> {
        Some(st.signals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::ObjId;

    const C: ObjId = ObjId(9);
    const A: ThreadId = ThreadId(1);
    const B: ThreadId = ThreadId(2);
    const D: ThreadId = ThreadId(3);

    fn run(ops: &[(ThreadId, Action)]) -> CondState {
        let mut st = CondState::default();
        for &(t, a) in ops {
            let r = CondVar::resolve(&st, t, a);
            assert!(CondVar::enabled(&st, t, a), "{t} {a:?} in {st:?}");
            CondVar::apply(&mut st, t, r).unwrap();
        }
        st
    }

    const WAKE: Action = Action::CondWake(C, false, true);

    #[test]
    fn a_signal_with_no_waiter_is_lost() {
        let st = run(&[(B, Action::Signal(C)), (A, Action::CondWait(C))]);
        assert!(!CondVar::enabled(&st, A, WAKE));
    }

    #[test]
    fn a_signal_wakes_only_threads_waiting_at_the_time() {
        // A waits, signal, B waits: only A can wake.
        let st = run(&[(A, Action::CondWait(C)), (D, Action::Signal(C)), (B, Action::CondWait(C))]);
        assert!(CondVar::enabled(&st, A, WAKE));
        assert!(!CondVar::enabled(&st, B, WAKE));
        // A second signal serves B; then both can wake, in either order.
        let st2 = run(&[
            (A, Action::CondWait(C)),
            (D, Action::Signal(C)),
            (B, Action::CondWait(C)),
            (D, Action::Signal(C)),
            (B, WAKE),
        ]);
        assert!(CondVar::enabled(&st2, A, WAKE));
    }

    #[test]
    fn one_signal_two_waiters_wakes_either_but_not_both() {
        let base = [(A, Action::CondWait(C)), (B, Action::CondWait(C)), (D, Action::Signal(C))];
        let st = run(&base);
        assert!(CondVar::enabled(&st, A, WAKE) && CondVar::enabled(&st, B, WAKE));
        let mut after_a = base.to_vec();
        after_a.push((A, WAKE));
        assert!(!CondVar::enabled(&run(&after_a), B, WAKE));
        let mut after_b = base.to_vec();
        after_b.push((B, WAKE));
        assert!(!CondVar::enabled(&run(&after_b), A, WAKE));
    }

    #[test]
    fn broadcast_wakes_every_current_waiter_only() {
        let st = run(&[
            (A, Action::CondWait(C)),
            (B, Action::CondWait(C)),
            (D, Action::Broadcast(C)),
            (D, Action::CondWait(C)),
            (A, WAKE),
        ]);
        assert!(CondVar::enabled(&st, B, WAKE));
        assert!(!CondVar::enabled(&st, D, WAKE));
    }

    #[test]
    fn timed_wake_times_out_without_a_token_and_takes_one_otherwise() {
        let timed = Action::CondWake(C, true, false);
        let st = run(&[(A, Action::CondWait(C))]);
        assert!(CondVar::enabled(&st, A, timed));
        assert_eq!(CondVar::resolve(&st, A, timed), Action::CondWake(C, true, false));
        let st = run(&[(A, Action::CondWait(C)), (B, Action::Signal(C))]);
        assert_eq!(CondVar::resolve(&st, A, timed), Action::CondWake(C, true, true));
        // After A times out, a later signal has nobody to wake.
        let st = run(&[(A, Action::CondWait(C)), (A, timed), (B, Action::Signal(C))]);
        assert!(st.tokens.is_empty() && st.waiting.is_empty());
    }
}
