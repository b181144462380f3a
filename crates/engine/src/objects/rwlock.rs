//! Read-write locks (`pthread_rwlock_t`): a read lock is enabled when no writer holds
//! the lock, a write lock when nobody does; try and timed variants fail instead of
//! blocking (a time-out is explored as a failed try). Readers are not blocked by waiting
//! writers (the reader preference of the default glibc lock; POSIX leaves it open).
//!
//! Read-side operations (read locks, read unlocks, failed read tries) commute with each
//! other: they are [`Access::Read`](crate::action::Access), independent under read-read
//! independence. QPOR treats them as dependent (its trees need every two operations on
//! an object to be dependent), which is sound and explores more.
//!
//! A read-write lock also counts its unlocks (read and write), the operations that may
//! make a failed try succeed: the state a spin-wait on it watches ([`Action::Await`], a
//! `tryrdlock`/`trywrlock` retry loop whose iteration changed nothing). A read unlock
//! moves that count, so a wait and a read-side operation of the lock are dependent
//! although both are read-side ([`crate::Independence::objects_conflict`]).

use super::ObjectKind;
use crate::action::Action;
use crate::ids::ThreadId;

/// A read-write lock.
#[derive(Debug)]
pub struct RwLock;

/// The state of a read-write lock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RwState {
    /// The writer holding it, if any.
    pub writer: Option<ThreadId>,
    /// Number of read locks held.
    pub readers: u32,
    /// The number of unlocks so far (wrapping): the await count
    /// ([`ObjectKind::await_count`], [`Action::moves_await_count`]).
    pub releases: u32,
}

impl RwState {
    fn free(&self) -> bool {
        self.writer.is_none() && self.readers == 0
    }
}

impl ObjectKind for RwLock {
    type State = RwState;

    fn enabled(st: &RwState, _: ThreadId, a: Action) -> bool {
        match a {
            Action::RdLock(_) => st.writer.is_none(),
            Action::WrLock(_) => st.free(),
            _ => true,
        }
    }

    fn resolve(st: &RwState, _: ThreadId, a: Action) -> Action {
        match a {
            Action::TryRdLock(l, _) => Action::TryRdLock(l, st.writer.is_none()),
            Action::TryWrLock(l, _) => Action::TryWrLock(l, st.free()),
            a => a,
        }
    }

    fn apply(st: &mut RwState, t: ThreadId, a: Action) -> Result<(), String> {
        match a {
            Action::RdLock(l) | Action::TryRdLock(l, true) => {
                if let Some(w) = st.writer {
                    return Err(format!("{t} read-locked {l}, write-locked by {w}"));
                }
                st.readers += 1;
            }
            Action::WrLock(l) | Action::TryWrLock(l, true) => {
                if !st.free() {
                    return Err(format!("{t} write-locked {l}, which is held"));
                }
                st.writer = Some(t);
            }
            Action::TryRdLock(l, false) => {
                if st.writer.is_none() {
                    return Err(format!("{t}'s tryrdlock of {l} failed but no writer holds it"));
                }
            }
            Action::TryWrLock(l, false) => {
                if st.free() {
                    return Err(format!("{t}'s trywrlock of {l} failed but it is free"));
                }
            }
            Action::RwUnlock(l, true) => {
                if st.writer != Some(t) {
                    return Err(format!("{t} write-unlocked {l}, which it does not hold"));
                }
                st.writer = None;
                st.releases = st.releases.wrapping_add(1);
            }
            Action::RwUnlock(l, false) => {
                if st.readers == 0 {
                    return Err(format!("{t} read-unlocked {l}, which has no reader"));
                }
                st.readers -= 1;
                st.releases = st.releases.wrapping_add(1);
            }
            other => return Err(format!("{other:?} is not a read-write lock operation")),
        }
        Ok(())
    }

    /// A spin-wait on a read-write lock (a try retry loop) waits for an unlock.
    fn await_count(st: &RwState) -> Option<u32> {
        Some(st.releases)
    }

    /// An unlock and another thread's blocking lock are never co-enabled: a write unlock
    /// means the unlocker holds it exclusively; a read unlock means a reader holds it,
    /// which disables write locks.
    fn co_enabled(a: Action, b: Action) -> bool {
        let excludes = |u: Action, l: Action| {
            matches!(
                (u, l),
                (Action::RwUnlock(_, true), Action::RdLock(_) | Action::WrLock(_))
                    | (Action::RwUnlock(_, false), Action::WrLock(_))
            )
        };
        !excludes(a, b) && !excludes(b, a)
    }
}
