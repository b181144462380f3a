//! Visible actions and the one independence relation every explorer shares.
//!
//! A thread's code between two visible actions is invisible local computation. The
//! visible actions are the QPOR paper's `acq`/`rel` (§2) extended with thread creation,
//! join, exit, `trylock`, and visible memory accesses.
//!
//! # Independence (QPOR §2, relation ◇_P, extended)
//!
//! Two actions of *different* threads are dependent when
//! - they operate on the same object (mutex, condition variable, semaphore, barrier,
//!   read-write lock, memory location), except that in
//!   [`Independence::ReadReadIndependent`] mode two [`Access::Read`] operations commute:
//!   two reads of a memory location, or two read-side operations on a read-write lock
//!   (read locks and read unlocks). In [`Independence::AllDependent`] mode (what QPOR's
//!   trees need) every two operations on one object are dependent.
//!
//! Create, join, exit and process exit are independent of every action of another
//! thread: they order events by *causality* only (a thread's first action follows its
//! creation; a join follows the joined thread's exit; a process exit follows the last
//! action of every thread, because it is enabled only when no other thread can move).
//! Two actions of the same thread are always dependent.

use crate::ids::{ObjId, ThreadId};
use std::fmt;

/// A visible action, as executed (or, for a thread's *pending* action, as requested:
/// then the outcome fields — a trylock's `acquired` flag, a timed wait's `signalled`
/// flag, a barrier arrival's `serial` flag — are meaningless and normalised by
/// [`Action::pending_form`]).
///
/// The semantics of each operation on a synchronising object (when it is enabled, what
/// it does, what it depends on) is defined once, in the object's module under
/// [`crate::objects`].
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
    /// Mutex unlock (`rel`), and whether it moves the mutex's *release count*, the await
    /// count a poll's wait on the mutex watches ([`Action::moves_await_count`]). `false`
    /// for a *weak* unlock: the runtime makes one when the unlocking thread polls under
    /// the mutex and its critical section was found to repeat an iteration that changed
    /// nothing, so that it will block at its next lock of the mutex without writing or
    /// releasing anything in between (docs/memory.md, "Two pollers of one mutex"). Known
    /// before the step (part of the pending action). For mutual exclusion,
    /// happens-before and dependence a weak unlock is an ordinary one.
    Unlock(ObjId, bool),
    /// `pthread_mutex_trylock` (and `timedlock`): an `acq` when `acquired`, otherwise a
    /// read of the mutex state. Always enabled.
    TryLock(ObjId, bool),
    /// A visible read of a memory object.
    Read(ObjId),
    /// A visible write of a memory object.
    Write(ObjId),
    /// A visible read-modify-write (atomic exchange, fetch-add, compare-exchange...) and
    /// whether it changed the location's value. The outcome is known only once the
    /// program ran it: a thread *announces* `Rmw(o, true)` (its pending form: it may
    /// write), and the frontend reports the executed step as `Rmw(o, false)` when it
    /// left the value as it was (a failed compare-exchange, an exchange or `fetch_or` of
    /// the value already there, `fetch_add(0)`). An unchanged one is observationally a
    /// load: it does not move the write count spin-waits wait on
    /// ([`Action::moves_writes`]), and a spin iteration made of loads and unchanged
    /// read-modify-writes is pure. For dependence it is a write either way (see
    /// docs/memory.md, "Read-modify-writes that change nothing").
    Rmw(ObjId, bool),
    /// A spin-wait: the thread's last loop iteration read these locations (when it had
    /// seen the given numbers of writes) and changed nothing, so it cannot make progress
    /// until another thread writes one of them: enabled once the write count of some
    /// awaited location differs from the one seen. A read of every awaited location
    /// otherwise (see `objects::memory`). One of the watched objects may be a mutex, with
    /// the number of its releases seen: a poll of plain locations under that mutex waits
    /// for another thread's unlock of it (see `objects::mutex` and docs/memory.md).
    Await(Awaited),
    /// First half of `pthread_cond_wait`: the thread joins the condition variable's
    /// waiters (the mutex is then released by the [`Action::Unlock`] that follows).
    CondWait(ObjId),
    /// Second half of a condition wait: `(cond, timed, signalled)`. An untimed wake is
    /// enabled once a signal addressed to this waiter is pending; a timed one (also
    /// used for spurious wake-ups) is always enabled and consumes a pending signal if
    /// there is one (`signalled`), else returns by time-out.
    CondWake(ObjId, bool, bool),
    /// `pthread_cond_signal`: wakes one waiter (which one is explored); lost if none.
    Signal(ObjId),
    /// `pthread_cond_broadcast`: wakes every current waiter.
    Broadcast(ObjId),
    /// `sem_init` with the initial value.
    SemInit(ObjId, u32),
    /// `sem_post`.
    SemPost(ObjId),
    /// `sem_wait`: enabled when the value is positive.
    SemWait(ObjId),
    /// `sem_trywait` / `sem_timedwait`: decrements when positive (`true`), otherwise
    /// fails. Always enabled.
    SemTryWait(ObjId, bool),
    /// `sem_getvalue`: reads the value.
    SemValue(ObjId),
    /// `pthread_rwlock_rdlock`: enabled when no writer holds the lock.
    RdLock(ObjId),
    /// `pthread_rwlock_wrlock`: enabled when the lock is free.
    WrLock(ObjId),
    /// `pthread_rwlock_tryrdlock` / `timedrdlock`: `true` if acquired.
    TryRdLock(ObjId, bool),
    /// `pthread_rwlock_trywrlock` / `timedwrlock`: `true` if acquired.
    TryWrLock(ObjId, bool),
    /// `pthread_rwlock_unlock`: `true` when releasing a write lock.
    RwUnlock(ObjId, bool),
    /// `pthread_barrier_init` with the count.
    BarrierInit(ObjId, u32),
    /// First half of `pthread_barrier_wait`: arrive; `serial` is true for the arrival
    /// that completes the round (it returns `PTHREAD_BARRIER_SERIAL_THREAD` and does not
    /// wait).
    BarrierArrive(ObjId, bool),
    /// Second half of `pthread_barrier_wait`: enabled once the round is complete.
    BarrierLeave(ObjId),
}

/// Most locations one spin-wait watches ([`Awaited`]). A loop iteration that read more
/// distinct locations is explored iteration by iteration. (Two: Peterson's wait, a
/// two-flag wait. Every [`Action`] is as large as its largest variant: with two, an
/// action takes 32 bytes, with three it took 48 and optimal-DPOR's memory on lock-heavy
/// programs grew by 70 %.)
pub const MAX_AWAITED: usize = 2;

/// The objects a spin-wait ([`Action::Await`]) watches, each with the value of its
/// *await count* the thread had seen (a location's writes, a mutex's releases:
/// [`Action::moves_await_count`]): 1 to [`MAX_AWAITED`] distinct objects, in the order
/// the loop iteration first read them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Awaited {
    // invariant: objs[0] != NONE; the used entries are the leading ones that are not
    // NONE (no object is `ObjId(u64::MAX)`: the C runtime's objects are addresses, the
    // test model's small numbers), distinct; an unused entry has seen 0 (so that the
    // derived equality and hash see only the used ones).
    objs: [ObjId; MAX_AWAITED],
    seen: [u32; MAX_AWAITED],
}

/// The unused entries of an [`Awaited`].
const NONE: ObjId = ObjId(u64::MAX);

impl Awaited {
    /// A wait on one object.
    pub fn one(o: ObjId, seen: u32) -> Awaited {
        assert!(o != NONE, "unfold bug: a wait on the reserved object id");
        let mut w = Awaited { objs: [NONE; MAX_AWAITED], seen: [0; MAX_AWAITED] };
        w.objs[0] = o;
        w.seen[0] = seen;
        w
    }

    /// A wait on the given locations (the first count kept for a repeated one); `None`
    /// if there are none or more than [`MAX_AWAITED`] distinct ones (or the reserved
    /// `ObjId(u64::MAX)`).
    pub fn new(reads: impl IntoIterator<Item = (ObjId, u32)>) -> Option<Awaited> {
        let mut w = Awaited { objs: [NONE; MAX_AWAITED], seen: [0; MAX_AWAITED] };
        let mut len = 0;
        for (o, v) in reads {
            if o == NONE {
                return None;
            }
            if w.objs[..len].contains(&o) {
                continue;
            }
            if len == MAX_AWAITED {
                return None;
            }
            w.objs[len] = o;
            w.seen[len] = v;
            len += 1;
        }
        (len > 0).then_some(w)
    }

    /// The number of locations watched.
    #[inline]
    pub fn len(&self) -> usize {
        self.objs.iter().take_while(|&&o| o != NONE).count()
    }

    /// Always false (a wait watches at least one location); for clippy's sake.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.objs[0] == NONE
    }

    /// The first location read by the loop iteration.
    #[inline]
    pub fn first(&self) -> ObjId {
        self.objs[0]
    }

    /// The locations with the write counts seen.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = (ObjId, u32)> {
        (0..self.len()).map(move |i| (self.objs[i], self.seen[i]))
    }

    /// Whether `o` is watched.
    #[inline]
    pub fn contains(&self, o: ObjId) -> bool {
        o != NONE && self.objs.contains(&o)
    }

    /// Whether the wait is over, given each location's current write count: some
    /// location has been written since the thread read it.
    #[inline]
    pub fn woken(&self, mut writes: impl FnMut(ObjId) -> u32) -> bool {
        self.iter().any(|(o, seen)| writes(o) != seen)
    }
}

impl fmt::Debug for Awaited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// What kind of object an action touches, if any. Each kind is defined in one module
/// of [`crate::objects`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ObjKind {
    /// A mutex (also spinlocks, `pthread_once` controls, C11 `mtx_t`).
    Mutex,
    /// A memory location.
    Memory,
    /// A condition variable.
    CondVar,
    /// A counting semaphore.
    Semaphore,
    /// A read-write lock.
    RwLock,
    /// A barrier.
    Barrier,
}

/// How an operation touches its object, for read-read independence: two `Read`
/// operations on one object commute under [`Independence::ReadReadIndependent`]. A weak
/// unlock ([`Action::Unlock`] with `false`) is a `Read` of its mutex: it moves neither
/// the release count a wait reads nor anything a wait changes, so it commutes with waits
/// on the mutex (the only other read-side operations on a mutex); with every lock, trylock
/// and ordinary unlock of the mutex (all `Write`s) it stays dependent, as a read unlock of
/// a read-write lock is with its write locks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Access {
    /// Commutes with every other `Read` of the object (a memory read; a read-side
    /// operation on a read-write lock).
    Read,
    /// Conflicts with every other operation on the object.
    Write,
}

impl Action {
    /// The synchronising object or memory location the action operates on, if any.
    #[inline]
    pub fn object(self) -> Option<ObjId> {
        match self {
            Action::Create(_) | Action::Join(_) | Action::Exit | Action::ExitProcess => None,
            Action::Lock(o)
            | Action::Unlock(o, _)
            | Action::TryLock(o, _)
            | Action::Read(o)
            | Action::Write(o)
            | Action::Rmw(o, _)
            | Action::CondWait(o)
            | Action::CondWake(o, ..)
            | Action::Signal(o)
            | Action::Broadcast(o)
            | Action::SemInit(o, _)
            | Action::SemPost(o)
            | Action::SemWait(o)
            | Action::SemTryWait(o, _)
            | Action::SemValue(o)
            | Action::RdLock(o)
            | Action::WrLock(o)
            | Action::TryRdLock(o, _)
            | Action::TryWrLock(o, _)
            | Action::RwUnlock(o, _)
            | Action::BarrierInit(o, _)
            | Action::BarrierArrive(o, _)
            | Action::BarrierLeave(o) => Some(o),
            Action::Await(w) => Some(w.first()),
        }
    }

    /// Whether the action operates on object `o`: its object, or one of the locations
    /// a spin-wait watches.
    #[inline]
    pub fn touches(self, o: ObjId) -> bool {
        match self {
            Action::Await(w) => w.contains(o),
            a => a.object() == Some(o),
        }
    }

    /// Every object the action operates on: at most one, except for a spin-wait on
    /// several locations ([`Awaited`]), which reads each of them.
    #[inline]
    pub fn objects(self) -> impl Iterator<Item = ObjId> {
        let (w, one) = match self {
            Action::Await(w) => (Some(w), None),
            a => (None, a.object()),
        };
        w.into_iter().flat_map(|w| w.iter().map(|(o, _)| o)).chain(one)
    }

    /// The kind of object the action touches.
    #[inline]
    pub fn obj_kind(self) -> Option<ObjKind> {
        Some(match self {
            Action::Create(_) | Action::Join(_) | Action::Exit | Action::ExitProcess => return None,
            Action::Lock(_) | Action::Unlock(..) | Action::TryLock(..) => ObjKind::Mutex,
            Action::Read(_) | Action::Write(_) | Action::Rmw(..) | Action::Await(..) => ObjKind::Memory,
            Action::CondWait(_) | Action::CondWake(..) | Action::Signal(_) | Action::Broadcast(_) => ObjKind::CondVar,
            Action::SemInit(..)
            | Action::SemPost(_)
            | Action::SemWait(_)
            | Action::SemTryWait(..)
            | Action::SemValue(_) => ObjKind::Semaphore,
            Action::RdLock(_)
            | Action::WrLock(_)
            | Action::TryRdLock(..)
            | Action::TryWrLock(..)
            | Action::RwUnlock(..) => ObjKind::RwLock,
            Action::BarrierInit(..) | Action::BarrierArrive(..) | Action::BarrierLeave(_) => ObjKind::Barrier,
        })
    }

    /// How the action touches its object (see [`Access`]); `Write` for actions without
    /// an object.
    #[inline]
    pub fn access(self) -> Access {
        match self {
            Action::Read(_)
            | Action::Await(..)
            | Action::Unlock(_, false)
            | Action::RdLock(_)
            | Action::TryRdLock(..)
            | Action::RwUnlock(_, false) => Access::Read,
            _ => Access::Write,
        }
    }

    /// True for `acq` actions: a lock, or a successful trylock.
    #[inline]
    pub fn is_acquire(self) -> bool {
        matches!(self, Action::Lock(_) | Action::TryLock(_, true))
    }

    /// The same action with the pending-form normalisation applied (outcomes
    /// forgotten). Two pending actions compare equal iff they request the same thing.
    #[inline]
    pub fn pending_form(self) -> Action {
        match self {
            Action::TryLock(o, _) => Action::TryLock(o, false),
            Action::SemTryWait(o, _) => Action::SemTryWait(o, false),
            Action::TryRdLock(o, _) => Action::TryRdLock(o, false),
            Action::TryWrLock(o, _) => Action::TryWrLock(o, false),
            Action::CondWake(o, true, _) => Action::CondWake(o, true, false),
            Action::CondWake(o, false, _) => Action::CondWake(o, false, true),
            Action::BarrierArrive(o, _) => Action::BarrierArrive(o, false),
            Action::Rmw(o, _) => Action::Rmw(o, true),
            a => a,
        }
    }

    /// Whether this executed action moves its location's write count, the memory state
    /// a spin-wait ([`Action::Await`]) waits on: a write, or a read-modify-write that
    /// changed the value. The one definition every counter of writes uses (the memory
    /// object, the DPOR analysis, the test model; the C runtime counts the same way).
    #[inline]
    pub fn moves_writes(self) -> bool {
        matches!(self, Action::Write(_) | Action::Rmw(_, true))
    }

    /// Whether this executed action moves the *await count* of its object, the state a
    /// spin-wait ([`Action::Await`]) on that object watches: a location's write count
    /// ([`Action::moves_writes`]) or a mutex's release count (an unlock that is not
    /// weak: see [`Action::Unlock`]). The one definition the DPOR analysis uses to place a
    /// wait; the object kinds count the same way
    /// ([`crate::objects::ObjectKind::await_count`]), as does the C runtime.
    #[inline]
    pub fn moves_await_count(self) -> bool {
        self.moves_writes() || matches!(self, Action::Unlock(_, true))
    }

    /// Whether `self`, as a frontend reported it executed, is what the resolved pending
    /// action `requested` became: the same action, or the same read-modify-write with
    /// the outcome only the program knows (whether it changed the value).
    #[inline]
    pub fn performs(self, requested: Action) -> bool {
        match (self, requested) {
            (Action::Rmw(o, _), Action::Rmw(p, true)) => o == p,
            (a, b) => a == b,
        }
    }

    /// The blocking operation an action *requests*: a try or timed operation requests
    /// what its blocking variant would wait for (a trylock requests the lock). Used by
    /// the explorers to ask "could this request have been granted before event `e`?".
    /// `None` for actions that are not requests for a synchronising object.
    #[inline]
    pub fn request(self) -> Option<Action> {
        Some(match self {
            Action::Lock(o) | Action::TryLock(o, _) => Action::Lock(o),
            Action::SemWait(o) | Action::SemTryWait(o, _) => Action::SemWait(o),
            Action::RdLock(o) | Action::TryRdLock(o, _) => Action::RdLock(o),
            Action::WrLock(o) | Action::TryWrLock(o, _) => Action::WrLock(o),
            Action::CondWake(o, ..) => Action::CondWake(o, false, true),
            Action::BarrierLeave(o) => Action::BarrierLeave(o),
            Action::Await(w) => Action::Await(w),
            _ => return None,
        })
    }

    /// The value handed back to the thread that performs this (resolved) action: 1 for
    /// a successful try operation, a signalled wake and the serial barrier arrival,
    /// else 0 (see also [`crate::SchedState::result`] for values read from the state).
    #[inline]
    pub fn outcome(self) -> u64 {
        match self {
            Action::TryLock(_, b)
            | Action::SemTryWait(_, b)
            | Action::TryRdLock(_, b)
            | Action::TryWrLock(_, b)
            | Action::CondWake(_, _, b)
            | Action::BarrierArrive(_, b) => b as u64,
            _ => 0,
        }
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ok = |b: bool| if b { "ok" } else { "busy" };
        match *self {
            Action::Create(t) => write!(f, "create({t})"),
            Action::Join(t) => write!(f, "join({t})"),
            Action::Exit => write!(f, "exit"),
            Action::ExitProcess => write!(f, "exit-process"),
            Action::Lock(o) => write!(f, "lock({o})"),
            Action::Unlock(o, true) => write!(f, "unlock({o})"),
            Action::Unlock(o, false) => write!(f, "unlock({o})=weak"),
            Action::TryLock(o, b) => write!(f, "trylock({o})={}", ok(b)),
            Action::Read(o) => write!(f, "read({o})"),
            Action::Write(o) => write!(f, "write({o})"),
            Action::Rmw(o, true) => write!(f, "rmw({o})"),
            Action::Rmw(o, false) => write!(f, "rmw({o})=unchanged"),
            Action::Await(w) => {
                write!(f, "await(")?;
                for (i, (o, v)) in w.iter().enumerate() {
                    write!(f, "{}{o}, {v}", if i > 0 { "; " } else { "" })?;
                }
                write!(f, ")")
            }
            Action::CondWait(o) => write!(f, "cond-wait({o})"),
            Action::CondWake(o, false, _) => write!(f, "cond-wake({o})"),
            Action::CondWake(o, true, s) => {
                write!(f, "cond-timedwake({o})={}", if s { "signalled" } else { "timeout" })
            }
            Action::Signal(o) => write!(f, "signal({o})"),
            Action::Broadcast(o) => write!(f, "broadcast({o})"),
            Action::SemInit(o, v) => write!(f, "sem-init({o}, {v})"),
            Action::SemPost(o) => write!(f, "sem-post({o})"),
            Action::SemWait(o) => write!(f, "sem-wait({o})"),
            Action::SemTryWait(o, b) => write!(f, "sem-trywait({o})={}", ok(b)),
            Action::SemValue(o) => write!(f, "sem-getvalue({o})"),
            Action::RdLock(o) => write!(f, "rdlock({o})"),
            Action::WrLock(o) => write!(f, "wrlock({o})"),
            Action::TryRdLock(o, b) => write!(f, "tryrdlock({o})={}", ok(b)),
            Action::TryWrLock(o, b) => write!(f, "trywrlock({o})={}", ok(b)),
            Action::RwUnlock(o, w) => write!(f, "rwunlock({o}){}", if w { "" } else { "-read" }),
            Action::BarrierInit(o, n) => write!(f, "barrier-init({o}, {n})"),
            Action::BarrierArrive(o, s) => write!(f, "barrier-arrive({o}){}", if s { "=serial" } else { "" }),
            Action::BarrierLeave(o) => write!(f, "barrier-leave({o})"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Which independence relation the exploration uses on operations that only read an
/// object (memory reads, read-side read-write lock operations). Every other action is
/// treated the same way in both modes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum Independence {
    /// Every two operations on one object are dependent (what QPOR supports).
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
    /// the object they touch: every two operations on one object are, except two
    /// [`Access::Read`]s in [`Independence::ReadReadIndependent`] mode.
    #[inline]
    pub fn objects_conflict(self, a: Action, b: Action) -> bool {
        let shared = match (a, b) {
            (Action::Await(x), Action::Await(y)) => x.iter().any(|(o, _)| y.contains(o)),
            (Action::Await(x), b) => b.object().is_some_and(|o| x.contains(o)),
            (a, Action::Await(y)) => a.object().is_some_and(|o| y.contains(o)),
            (a, b) => a.object().is_some() && a.object() == b.object(),
        };
        shared && (self == Independence::AllDependent || a.access() == Access::Write || b.access() == Access::Write)
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
            for a in [
                Action::Lock(M),
                Action::Unlock(M, true),
                Action::Unlock(M, false),
                Action::TryLock(M, false),
                Action::TryLock(M, true),
            ] {
                for b in [Action::Lock(M), Action::Unlock(M, true), Action::Unlock(M, false), Action::TryLock(M, false)]
                {
                    // Two weak unlocks are both read-side (see the next test).
                    let both_weak = a == Action::Unlock(M, false) && b == a;
                    assert_eq!(
                        mode.dependent(T0, a, T1, b),
                        !both_weak || mode == Independence::AllDependent,
                        "{a:?} {b:?}"
                    );
                }
                assert!(!mode.dependent(T0, a, T1, Action::Lock(X)));
            }
        }
    }

    #[test]
    fn an_unchanged_rmw_is_performed_from_the_pending_form_and_moves_no_write_count() {
        let (done, same) = (Action::Rmw(X, true), Action::Rmw(X, false));
        assert_eq!(same.pending_form(), done, "a thread announces an RMW as one that may write");
        assert!(same.performs(done) && done.performs(done));
        assert!(!done.performs(same), "only the program may report an outcome");
        assert!(!same.performs(Action::Rmw(M, true)) && !Action::Read(X).performs(done));
        assert!(done.moves_writes() && Action::Write(X).moves_writes());
        assert!(!same.moves_writes() && !Action::Read(X).moves_writes());
        assert_eq!(format!("{same:?}"), format!("rmw({X})=unchanged"));
    }

    #[test]
    fn a_weak_unlock_moves_no_release_count_and_commutes_only_with_waits() {
        let (weak, strong) = (Action::Unlock(M, false), Action::Unlock(M, true));
        assert!(strong.moves_await_count() && !weak.moves_await_count());
        assert_eq!(weak.pending_form(), weak, "weakness is known before the step");
        assert!(weak.performs(weak) && !weak.performs(strong) && !strong.performs(weak));
        let wait = Action::Await(Awaited::one(M, 3));
        let rr = Independence::ReadReadIndependent;
        assert!(!rr.dependent(T0, weak, T1, wait) && rr.dependent(T0, strong, T1, wait));
        for b in [Action::Lock(M), Action::TryLock(M, false), strong] {
            assert!(rr.dependent(T0, weak, T1, b), "{b:?}");
        }
        // Two unlocks of one mutex by two threads are never enabled together (each needs
        // its thread to hold the mutex): the lock between them orders them anyway.
        assert!(!rr.dependent(T0, weak, T1, weak));
        assert!(Independence::AllDependent.dependent(T0, weak, T1, wait), "QPOR's trees order them");
        assert_eq!(format!("{weak:?}"), format!("unlock({M})=weak"));
    }

    #[test]
    fn an_action_stays_small() {
        // Steps, events, sleep sets and wakeup trees hold actions by value.
        assert!(std::mem::size_of::<Action>() <= 32, "{} bytes", std::mem::size_of::<Action>());
    }

    #[test]
    fn a_wait_on_two_locations_conflicts_with_writes_to_either() {
        let (y, z) = (ObjId(0x11), ObjId(0x21));
        let w = Awaited::new([(y, 1), (z, 2), (y, 5)]).expect("two locations");
        assert_eq!(w.iter().collect::<Vec<_>>(), vec![(y, 1), (z, 2)]);
        assert!(Awaited::new([(y, 1), (z, 2), (ObjId(0x31), 0)]).is_none(), "three locations");
        let a = Action::Await(w);
        for mode in [Independence::AllDependent, Independence::ReadReadIndependent] {
            assert!(mode.dependent(T0, a, T1, Action::Write(z)));
            assert!(mode.dependent(T0, a, T1, Action::Rmw(y, true)));
            assert!(mode.dependent(T0, a, T1, Action::Rmw(y, false)));
            assert!(!mode.dependent(T0, a, T1, Action::Write(ObjId(0x31))));
        }
        assert!(!Independence::ReadReadIndependent.dependent(T0, a, T1, Action::Read(z)));
        assert!(w.woken(|o| if o == z { 3 } else { 1 }));
        assert!(!w.woken(|o| if o == z { 2 } else { 1 }));
    }

    #[test]
    fn reads_commute_only_in_read_read_mode() {
        let all = Independence::AllDependent;
        let rr = Independence::ReadReadIndependent;
        assert!(all.dependent(T0, Action::Read(X), T1, Action::Read(X)));
        assert!(!rr.dependent(T0, Action::Read(X), T1, Action::Read(X)));
        assert!(rr.dependent(T0, Action::Read(X), T1, Action::Write(X)));
        assert!(rr.dependent(T0, Action::Rmw(X, true), T1, Action::Read(X)));
        // An unchanged read-modify-write stays a write for dependence (its outcome is not
        // known before it runs; see docs/memory.md).
        assert!(rr.dependent(T0, Action::Rmw(X, false), T1, Action::Read(X)));
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
