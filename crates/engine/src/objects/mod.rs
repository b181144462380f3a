//! Synchronising objects: each kind defined in one place.
//!
//! Every explorer, the scheduler and the unfolding ask this module — never match on
//! operations themselves — when they need to know, for an operation on an object:
//! - whether it is **enabled** in the object's current state ([`ObjState::enabled`]);
//! - its **outcome** (a trylock's success, a timed wait's wake-up, a barrier's serial
//!   arrival: [`ObjState::resolve`]) and the value handed back to the thread
//!   ([`ObjState::result`]);
//! - what it does to the state ([`ObjState::apply`]);
//! - whether two operations of different threads **may be co-enabled**
//!   ([`co_enabled`], POPL'05 §3);
//! - which operations are **dependent** ([`crate::Independence::dependent`], from
//!   [`crate::action::Access`]) and which can **block** ([`Action::request`]).
//!
//! Each kind implements [`ObjectKind`] in its own file: [`mutex`], [`condvar`],
//! [`semaphore`], [`rwlock`], [`barrier`] and [`memory`]. Adding a kind means one new
//! file here, the variants of its operations in [`Action`], and a shim in a runtime.
//!
//! # Why object state is explicit
//!
//! The QPOR paper's `cexp` (§5.3) reads a mutex's state off the last `acq`/`rel` in its
//! lock tree; with semaphores, condition variables and barriers the state depends on
//! the whole history of the object. So every event of the unfolding keeps the state
//! of its object *after* it (the state after `pm(e)` plus `e`), the DPOR analysis keeps
//! the state *before* each event of the analysed execution, and the scheduler keeps the
//! current state: all three apply the same [`ObjectKind::apply`]. Reversibility of a
//! race and the lock rules of JACM'17 §8 become one question — "is this request enabled
//! in the state where the reversal would place it?" — answered by
//! [`ObjectKind::enabled`].

pub mod barrier;
pub mod condvar;
pub mod memory;
pub mod mutex;
pub mod rwlock;
pub mod semaphore;

use crate::action::{Action, Bytes, ObjKind};
use crate::ids::ThreadId;

/// The semantics of one kind of synchronising object. All methods take the object's
/// state and an operation of that kind by thread `t`; `a` is a pending action for
/// `enabled`/`resolve` and a resolved one for `apply`.
pub trait ObjectKind {
    /// The object's state; `Default` is the state of an object never operated on.
    type State: Clone + Default + PartialEq + Eq + std::hash::Hash + std::fmt::Debug;

    /// Whether `t` can perform `a` now (a blocked operation is not enabled).
    fn enabled(st: &Self::State, t: ThreadId, a: Action) -> bool;

    /// The action `t` performs if scheduled now (outcome fields filled in).
    fn resolve(st: &Self::State, t: ThreadId, a: Action) -> Action {
        let _ = (st, t);
        a
    }

    /// The value handed back to `t` for the resolved action `a` (default: its outcome
    /// flag).
    fn result(st: &Self::State, t: ThreadId, a: Action) -> u64 {
        let _ = (st, t);
        a.outcome()
    }

    /// Perform the resolved action `a` of `t`. An error means the operation was not
    /// possible in this state (a frontend reported an impossible step).
    fn apply(st: &mut Self::State, t: ThreadId, a: Action) -> Result<(), String>;

    /// The *await count* of the object, if a spin-wait ([`Action::Await`]) can watch
    /// this kind: a counter that moves on every operation that may change what a thread
    /// polling the object observes ([`Action::moves_await_count`]). A wait is enabled
    /// once the count of one of its objects differs from the one it saw.
    fn await_count(st: &Self::State) -> Option<u32> {
        let _ = st;
        None
    }

    /// Whether `a` and `b` (of different threads) may ever be enabled at once
    /// (POPL'05 §3). `true` is always sound; `false` prunes classic-DPOR's backtracking.
    fn co_enabled(a: Action, b: Action) -> bool {
        let _ = (a, b);
        true
    }
}

/// The state of one object, whatever its kind. `Fresh` is the state of an object never
/// operated on (every kind's default).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ObjState {
    /// Never operated on.
    #[default]
    Fresh,
    /// A mutex.
    Mutex(<mutex::Mutex as ObjectKind>::State),
    /// A memory word (the write count of each byte).
    Memory(memory::ByteWrites),
    /// A condition variable.
    CondVar(<condvar::CondVar as ObjectKind>::State),
    /// A semaphore.
    Semaphore(<semaphore::Semaphore as ObjectKind>::State),
    /// A read-write lock.
    RwLock(<rwlock::RwLock as ObjectKind>::State),
    /// A barrier.
    Barrier(<barrier::Barrier as ObjectKind>::State),
}

/// Dispatch `$body` on the kind of `$a`, with `$K` the kind's type and `$st` its state
/// (the default for a fresh object; `None` on a kind mismatch).
macro_rules! dispatch {
    ($self:expr, $a:expr, |$K:ident, $st:ident| $body:expr, $mismatch:expr) => {
        match $a.obj_kind() {
            None => $mismatch,
            Some(ObjKind::Mutex) => dispatch!(@one $self, Mutex, mutex::Mutex, $K, $st, $body, $mismatch),
            Some(ObjKind::CondVar) => dispatch!(@one $self, CondVar, condvar::CondVar, $K, $st, $body, $mismatch),
            Some(ObjKind::Semaphore) => {
                dispatch!(@one $self, Semaphore, semaphore::Semaphore, $K, $st, $body, $mismatch)
            }
            Some(ObjKind::RwLock) => dispatch!(@one $self, RwLock, rwlock::RwLock, $K, $st, $body, $mismatch),
            Some(ObjKind::Barrier) => dispatch!(@one $self, Barrier, barrier::Barrier, $K, $st, $body, $mismatch),
            Some(ObjKind::Memory) => dispatch!(@one $self, Memory, memory::Memory, $K, $st, $body, $mismatch),
        }
    };
    (@one $self:expr, $variant:ident, $ty:ty, $K:ident, $st:ident, $body:expr, $mismatch:expr) => {
        match $self {
            ObjState::$variant(s) => {
                type $K = $ty;
                let $st = s;
                $body
            }
            ObjState::Fresh => {
                type $K = $ty;
                let $st = &<$ty as ObjectKind>::State::default();
                $body
            }
            _ => $mismatch,
        }
    };
}

impl ObjState {
    /// Whether `t` can perform the pending action `a` on this object now. An action on
    /// an object of another kind is never enabled. A spin-wait asked here must watch
    /// this object only (one on several objects needs the state of each:
    /// [`memory::await_woken`]).
    pub fn enabled(&self, t: ThreadId, a: Action) -> bool {
        if let Action::Await(w) = a {
            assert!(w.len() == 1, "unfold bug: a wait on several objects asked of one object");
            return self.await_count(Bytes::ALL).is_some() && w.woken(|_, b| self.await_count(b).unwrap_or(0));
        }
        dispatch!(self, a, |K, st| K::enabled(st, t, a), false)
    }

    /// The object's await count ([`ObjectKind::await_count`]; 0 for a fresh object),
    /// `None` for a kind no spin-wait watches; of a memory word, the count of the given
    /// bytes ([`memory::ByteWrites::count`]: the writes to them), which a synchronising
    /// object (always watched whole) ignores.
    pub fn await_count(&self, bytes: Bytes) -> Option<u32> {
        match self {
            ObjState::Fresh => Some(0),
            ObjState::Mutex(s) => mutex::Mutex::await_count(s),
            ObjState::Memory(s) => Some(s.count(bytes)),
            ObjState::CondVar(s) => condvar::CondVar::await_count(s),
            ObjState::Semaphore(s) => semaphore::Semaphore::await_count(s),
            ObjState::RwLock(s) => rwlock::RwLock::await_count(s),
            ObjState::Barrier(s) => barrier::Barrier::await_count(s),
        }
    }

    /// The action `t` performs if its pending action `a` is scheduled now.
    pub fn resolve(&self, t: ThreadId, a: Action) -> Action {
        dispatch!(self, a, |K, st| K::resolve(st, t, a), a)
    }

    /// The value handed back to `t` for the resolved action `a`, in the state before it.
    pub fn result(&self, t: ThreadId, a: Action) -> u64 {
        dispatch!(self, a, |K, st| K::result(st, t, a), 0)
    }

    /// Perform the resolved action `a` of `t`.
    pub fn apply(&mut self, t: ThreadId, a: Action) -> Result<(), String> {
        if let Action::Await(_) = a {
            // A wait reads its objects (enabledness was checked on each by the caller).
            return match self.await_count(Bytes::ALL) {
                Some(_) => Ok(()),
                None => Err(format!("{a:?} on an object used as {}", self.kind_name())),
            };
        }
        let kind = a.obj_kind().ok_or_else(|| format!("{a:?} is not an object operation"))?;
        if matches!(self, ObjState::Fresh) {
            *self = match kind {
                ObjKind::Mutex => ObjState::Mutex(Default::default()),
                ObjKind::Memory => ObjState::Memory(Default::default()),
                ObjKind::CondVar => ObjState::CondVar(Default::default()),
                ObjKind::Semaphore => ObjState::Semaphore(Default::default()),
                ObjKind::RwLock => ObjState::RwLock(Default::default()),
                ObjKind::Barrier => ObjState::Barrier(Default::default()),
            };
        }
        let used_as = self.kind_name();
        match (&mut *self, kind) {
            (ObjState::Mutex(s), ObjKind::Mutex) => mutex::Mutex::apply(s, t, a),
            (ObjState::Memory(s), ObjKind::Memory) => memory::Memory::apply(s, t, a),
            (ObjState::CondVar(s), ObjKind::CondVar) => condvar::CondVar::apply(s, t, a),
            (ObjState::Semaphore(s), ObjKind::Semaphore) => semaphore::Semaphore::apply(s, t, a),
            (ObjState::RwLock(s), ObjKind::RwLock) => rwlock::RwLock::apply(s, t, a),
            (ObjState::Barrier(s), ObjKind::Barrier) => barrier::Barrier::apply(s, t, a),
            _ => Err(format!("{a:?} on an object used as {used_as}")),
        }
    }

    /// The thread holding this object exclusively, if it is a mutex or a write-locked
    /// read-write lock (for reports).
    pub fn holder(&self) -> Option<ThreadId> {
        match self {
            ObjState::Mutex(s) => s.owner,
            ObjState::RwLock(s) => s.writer,
            _ => None,
        }
    }

    fn kind_name(&self) -> &'static str {
        match self {
            ObjState::Fresh => "nothing yet",
            ObjState::Mutex(_) => "a mutex",
            ObjState::Memory(_) => "memory",
            ObjState::CondVar(_) => "a condition variable",
            ObjState::Semaphore(_) => "a semaphore",
            ObjState::RwLock(_) => "a read-write lock",
            ObjState::Barrier(_) => "a barrier",
        }
    }
}

/// Whether `a` and `b`, operations of different threads, may be co-enabled (POPL'05
/// §3): asked of the kind of their common object; actions on different objects always
/// may.
pub fn co_enabled(a: Action, b: Action) -> bool {
    if a.object() != b.object() || a.obj_kind() != b.obj_kind() {
        return true;
    }
    match a.obj_kind() {
        Some(ObjKind::Mutex) => mutex::Mutex::co_enabled(a, b),
        Some(ObjKind::RwLock) => rwlock::RwLock::co_enabled(a, b),
        Some(ObjKind::CondVar) => condvar::CondVar::co_enabled(a, b),
        Some(ObjKind::Semaphore) => semaphore::Semaphore::co_enabled(a, b),
        Some(ObjKind::Barrier) => barrier::Barrier::co_enabled(a, b),
        Some(ObjKind::Memory) | None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::ObjId;

    const O: ObjId = ObjId(5);
    const A: ThreadId = ThreadId(1);
    const B: ThreadId = ThreadId(2);

    /// Apply `ops` (pending forms, resolved against the state) and return the state.
    fn run(ops: &[(ThreadId, Action)]) -> ObjState {
        let mut st = ObjState::Fresh;
        for &(t, a) in ops {
            assert!(st.enabled(t, a), "{t} {a:?} not enabled in {st:?}");
            let r = st.resolve(t, a);
            st.apply(t, r).unwrap_or_else(|e| panic!("{e}"));
        }
        st
    }

    #[test]
    fn semaphore_counts_and_blocks_at_zero() {
        let st = run(&[(A, Action::SemInit(O, 1)), (A, Action::SemWait(O))]);
        assert!(!st.enabled(B, Action::SemWait(O)));
        assert_eq!(st.resolve(B, Action::SemTryWait(O, false)), Action::SemTryWait(O, false));
        let st = run(&[(A, Action::SemInit(O, 0)), (B, Action::SemPost(O)), (B, Action::SemPost(O))]);
        assert_eq!(st.result(A, Action::SemValue(O)), 2);
        assert_eq!(st.resolve(A, Action::SemTryWait(O, false)), Action::SemTryWait(O, true));
    }

    #[test]
    fn rwlock_readers_share_writers_exclude() {
        let st = run(&[(A, Action::RdLock(O))]);
        assert!(st.enabled(B, Action::RdLock(O)));
        assert!(!st.enabled(B, Action::WrLock(O)));
        assert_eq!(st.resolve(B, Action::TryWrLock(O, false)), Action::TryWrLock(O, false));
        let st = run(&[(A, Action::WrLock(O))]);
        assert!(!st.enabled(B, Action::RdLock(O)));
        assert_eq!(st.holder(), Some(A));
        let st = run(&[(A, Action::RdLock(O)), (B, Action::RdLock(O)), (A, Action::RwUnlock(O, false))]);
        assert!(!st.enabled(A, Action::WrLock(O)), "B still reads");
        let mut st = run(&[(A, Action::RdLock(O))]);
        assert!(st.apply(B, Action::RwUnlock(O, true)).is_err(), "write unlock of a read-locked lock");
    }

    #[test]
    fn barrier_releases_a_round_and_the_last_arrival_is_serial() {
        let arrive = Action::BarrierArrive(O, false);
        let st = run(&[(A, Action::BarrierInit(O, 2)), (A, arrive)]);
        assert!(!st.enabled(A, Action::BarrierLeave(O)));
        assert_eq!(st.resolve(B, arrive), Action::BarrierArrive(O, true));
        let st = run(&[(A, Action::BarrierInit(O, 2)), (A, arrive), (B, arrive)]);
        assert!(st.enabled(A, Action::BarrierLeave(O)));
        // The next round starts empty: a third arrival waits again.
        assert_eq!(st.resolve(B, arrive), Action::BarrierArrive(O, false));
    }

    #[test]
    fn an_object_keeps_its_kind() {
        let mut st = run(&[(A, Action::Lock(O))]);
        assert!(!st.enabled(B, Action::SemPost(O)));
        assert!(st.apply(B, Action::SemPost(O)).is_err());
    }

    #[test]
    fn a_wait_on_a_synchronising_object_ends_when_a_failed_try_could_succeed() {
        use crate::action::Awaited;
        let wait = |st: &ObjState| Action::Await(Awaited::one(O, st.await_count(Bytes::ALL).expect("a count")));
        // Semaphore: a trywait at zero fails; a post (or an init) moves the count.
        let st = run(&[(A, Action::SemInit(O, 0))]);
        assert_eq!(st.resolve(B, Action::SemTryWait(O, false)), Action::SemTryWait(O, false));
        let w = wait(&st);
        assert!(!st.enabled(B, w), "nothing moved since the failed try");
        let posted = run(&[(A, Action::SemInit(O, 0)), (A, Action::SemPost(O))]);
        assert!(posted.enabled(B, w) && Action::SemPost(O).moves_await_count());
        let reinit = run(&[(A, Action::SemInit(O, 0)), (A, Action::SemInit(O, 1))]);
        assert!(reinit.enabled(B, w));
        let waited = run(&[(A, Action::SemInit(O, 0)), (A, Action::SemPost(O)), (A, Action::SemWait(O))]);
        assert_eq!(waited.await_count(Bytes::ALL), posted.await_count(Bytes::ALL), "a decrement moves nothing");
        // Read-write lock: read and write unlocks move the count, locks do not.
        let held = run(&[(A, Action::RdLock(O))]);
        let w = wait(&held);
        assert_eq!(held.resolve(B, Action::TryWrLock(O, false)), Action::TryWrLock(O, false));
        assert!(!run(&[(A, Action::RdLock(O)), (A, Action::RdLock(O))]).enabled(B, w));
        assert!(run(&[(A, Action::RdLock(O)), (A, Action::RwUnlock(O, false))]).enabled(B, w));
        let w = wait(&run(&[(A, Action::WrLock(O))]));
        assert!(run(&[(A, Action::WrLock(O)), (A, Action::RwUnlock(O, true))]).enabled(B, w));
        // Condition variable: signals and broadcasts, lost ones included; waiters do not.
        let st = run(&[(A, Action::CondWait(O))]);
        let w = wait(&st);
        assert!(!run(&[(A, Action::CondWait(O)), (B, Action::CondWait(O))]).enabled(A, w));
        assert!(run(&[(A, Action::CondWait(O)), (B, Action::Signal(O))]).enabled(A, w));
        assert!(run(&[(B, Action::Signal(O))]).await_count(Bytes::ALL) == Some(1), "a lost signal counts");
        assert!(run(&[(A, Action::CondWait(O)), (B, Action::Broadcast(O))]).enabled(A, w));
        // A barrier is never waited on this way.
        assert_eq!(run(&[(A, Action::BarrierInit(O, 2))]).await_count(Bytes::ALL), None);
        for a in [Action::SemTryWait(O, false), Action::TryLock(O, false), Action::TryRdLock(O, false)] {
            assert!(a.is_failed_try() && !a.moves_await_count());
        }
        assert!(!Action::TryLock(O, true).is_failed_try() && !Action::SemTryWait(O, true).is_failed_try());
    }

    #[test]
    fn co_enabledness_excludes_unlock_and_lock() {
        assert!(!co_enabled(Action::Unlock(O, true), Action::Lock(O)));
        assert!(co_enabled(Action::Unlock(O, true), Action::Lock(ObjId(6))));
        assert!(!co_enabled(Action::RwUnlock(O, false), Action::WrLock(O)));
        assert!(co_enabled(Action::RwUnlock(O, false), Action::RdLock(O)));
        assert!(co_enabled(Action::SemPost(O), Action::SemWait(O)));
    }
}
