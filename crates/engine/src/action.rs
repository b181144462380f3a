//! Visible actions and the one independence relation every explorer shares.
//!
//! A thread's code between two visible actions is invisible local computation. The
//! visible actions are the QPOR paper's `acq`/`rel` (§2) extended with thread creation,
//! join, exit, `trylock`, and visible memory accesses.
//!
//! # Independence (QPOR §2, relation ◇_P, extended)
//!
//! Two actions of *different* threads are dependent when
//! - they operate on the same mutex (lock, unlock, trylock — successful or not);
//! - they access the same memory object and, in [`Independence::ReadReadIndependent`]
//!   mode, at least one of them writes; in [`Independence::AllDependent`] mode every
//!   two accesses to one object are dependent (the object behaves like a lock that is
//!   never held).
//!
//! Create, join, exit and process exit are independent of every action of another
//! thread: they order events by *causality* only (a thread's first action follows its
//! creation; a join follows the joined thread's exit; a process exit follows the last
//! action of every thread, because it is enabled only when no other thread can move).
//! Two actions of the same thread are always dependent.

use crate::ids::{ObjId, ThreadId};
use std::fmt;

/// A visible action, as executed (or, for a thread's *pending* action, as requested:
/// then the `acquired` flag of [`Action::TryLock`] is meaningless and is reported as
/// `false`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// `pthread_create`: creates the given thread.
    Create(ThreadId),
    /// `pthread_join`: enabled once the given thread has exited.
    Join(ThreadId),
    /// The thread's last action (its start routine returned or it called `pthread_exit`).
    Exit,
    /// `exit()` or `main` returning: ends the process. Enabled only when no other thread
    /// is enabled (an exit can always be delayed until then, and delaying it loses no
    /// defect: see ARCHITECTURE.md).
    ExitProcess,
    /// Mutex lock (`acq` in QPOR §2). Enabled when the mutex is free.
    Lock(ObjId),
    /// Mutex unlock (`rel`).
    Unlock(ObjId),
    /// `pthread_mutex_trylock`: an `acq` when `acquired`, otherwise a read of the mutex
    /// state (dependent with every other operation on the mutex). Always enabled.
    TryLock(ObjId, bool),
    /// A visible read of a memory object.
    Read(ObjId),
    /// A visible write of a memory object.
    Write(ObjId),
    /// A visible read-modify-write (atomic exchange, fetch-add, compare-exchange...).
    Rmw(ObjId),
}

/// What kind of object an action touches, if any.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ObjKind {
    /// A mutex.
    Mutex,
    /// A memory location.
    Memory,
}

impl Action {
    /// The mutex or memory object the action operates on, if any.
    #[inline]
    pub fn object(self) -> Option<ObjId> {
        match self {
            Action::Lock(o)
            | Action::Unlock(o)
            | Action::TryLock(o, _)
            | Action::Read(o)
            | Action::Write(o)
            | Action::Rmw(o) => Some(o),
            _ => None,
        }
    }

    /// The kind of object the action touches.
    #[inline]
    pub fn obj_kind(self) -> Option<ObjKind> {
        match self {
            Action::Lock(_) | Action::Unlock(_) | Action::TryLock(..) => Some(ObjKind::Mutex),
            Action::Read(_) | Action::Write(_) | Action::Rmw(_) => Some(ObjKind::Memory),
            _ => None,
        }
    }

    /// True for actions that leave the object's state unchanged: a read, or a failed
    /// trylock.
    #[inline]
    pub fn is_read_only(self) -> bool {
        matches!(self, Action::Read(_) | Action::TryLock(_, false))
    }

    /// True for `acq` actions: a lock, or a successful trylock.
    #[inline]
    pub fn is_acquire(self) -> bool {
        matches!(self, Action::Lock(_) | Action::TryLock(_, true))
    }

    /// The same action with the pending-form normalisation applied (a trylock's outcome
    /// forgotten). Two pending actions compare equal iff they request the same thing.
    #[inline]
    pub fn pending_form(self) -> Action {
        match self {
            Action::TryLock(o, _) => Action::TryLock(o, false),
            a => a,
        }
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Create(t) => write!(f, "create({t})"),
            Action::Join(t) => write!(f, "join({t})"),
            Action::Exit => write!(f, "exit"),
            Action::ExitProcess => write!(f, "exit-process"),
            Action::Lock(o) => write!(f, "lock({o})"),
            Action::Unlock(o) => write!(f, "unlock({o})"),
            Action::TryLock(o, true) => write!(f, "trylock({o})=ok"),
            Action::TryLock(o, false) => write!(f, "trylock({o})=busy"),
            Action::Read(o) => write!(f, "read({o})"),
            Action::Write(o) => write!(f, "write({o})"),
            Action::Rmw(o) => write!(f, "rmw({o})"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Which independence relation on memory accesses the exploration uses. Mutex, thread
/// and process actions are treated the same way in both modes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum Independence {
    /// Every two accesses to one memory object are dependent (what QPOR supports).
    #[default]
    AllDependent,
    /// Two accesses to one object are dependent only if one of them writes (the
    /// standard relation of the source-sets JACM paper, §2).
    ReadReadIndependent,
}

impl Independence {
    /// Whether actions `a` of thread `ta` and `b` of thread `tb` are dependent.
    ///
    /// Same-thread actions are always dependent. See the module documentation for the
    /// relation between different threads.
    #[inline]
    pub fn dependent(self, ta: ThreadId, a: Action, tb: ThreadId, b: Action) -> bool {
        if ta == tb {
            return true;
        }
        self.objects_conflict(a, b)
    }

    /// Whether two actions (assumed to be of different threads) are dependent through
    /// the object they touch.
    #[inline]
    pub fn objects_conflict(self, a: Action, b: Action) -> bool {
        match (a.object(), b.object()) {
            (Some(x), Some(y)) if x == y => match (a.obj_kind(), b.obj_kind()) {
                (Some(ObjKind::Memory), Some(ObjKind::Memory)) => {
                    self == Independence::AllDependent
                        || !(matches!(a, Action::Read(_)) && matches!(b, Action::Read(_)))
                }
                _ => true,
            },
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: ThreadId = ThreadId(0);
    const T1: ThreadId = ThreadId(1);
    const M: ObjId = ObjId(7);
    const X: ObjId = ObjId(8);

    #[test]
    fn mutex_operations_on_one_mutex_are_dependent() {
        for mode in [Independence::AllDependent, Independence::ReadReadIndependent] {
            for a in [Action::Lock(M), Action::Unlock(M), Action::TryLock(M, false), Action::TryLock(M, true)] {
                for b in [Action::Lock(M), Action::Unlock(M), Action::TryLock(M, false)] {
                    assert!(mode.dependent(T0, a, T1, b), "{a:?} {b:?}");
                }
                assert!(!mode.dependent(T0, a, T1, Action::Lock(X)));
            }
        }
    }

    #[test]
    fn reads_commute_only_in_read_read_mode() {
        let all = Independence::AllDependent;
        let rr = Independence::ReadReadIndependent;
        assert!(all.dependent(T0, Action::Read(X), T1, Action::Read(X)));
        assert!(!rr.dependent(T0, Action::Read(X), T1, Action::Read(X)));
        assert!(rr.dependent(T0, Action::Read(X), T1, Action::Write(X)));
        assert!(rr.dependent(T0, Action::Rmw(X), T1, Action::Read(X)));
        assert!(!rr.dependent(T0, Action::Write(X), T1, Action::Write(M)));
    }

    #[test]
    fn thread_actions_are_independent_across_threads_but_not_within() {
        let all = Independence::AllDependent;
        assert!(!all.dependent(T0, Action::Create(T1), T1, Action::Lock(M)));
        assert!(!all.dependent(T0, Action::Join(T1), T1, Action::Exit));
        assert!(all.dependent(T0, Action::Read(X), T0, Action::Read(M)));
    }
}
