//! Mutexes (QPOR §2's locks): `lock` is enabled when the mutex is free, `unlock`
//! releases it, `trylock` (and `timedlock`, whose time-out is explored as a failed try)
//! acquires it when free and otherwise fails without blocking. Recursive relocking and
//! misuse (unlocking a mutex not held) are the frontend's business: the engine sees only
//! the operations that change ownership.
//!
//! A mutex also counts its releases, the state a spin-wait on it watches
//! ([`Action::Await`] with the mutex among its objects): a thread that polls plain
//! locations under the mutex (`lock; r = flag; unlock;` until `r`) and found an iteration
//! that changed nothing waits for another thread's unlock. In a race-free program every
//! write by another thread to what it read happens while that thread holds the mutex,
//! hence before that thread's next unlock: until then the iteration would give the same
//! state again (docs/memory.md, "Polling under a mutex"). A `trylock` (or `timedlock`)
//! retry loop whose attempts failed waits for the same count: the mutex can only become
//! free by an unlock (docs/memory.md, "Failed try and timed operations"). A *weak* unlock
//! (`Action::Unlock(m, false)`, a poller's that will block at its next lock of the mutex
//! having written nothing) is an ordinary unlock but does not move the count: two pollers
//! of one mutex then do not wake each other (docs/memory.md, "Two pollers of one mutex").
//! It would not wake a `trylock` retry loop either: a frontend makes no weak unlock in a
//! program that tries or time-limits its mutex operations (the C runtime decides it
//! per program).

use super::ObjectKind;
use crate::action::Action;
use crate::ids::ThreadId;

/// A mutex.
#[derive(Debug)]
pub struct Mutex;

/// The state of a mutex.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MutexState {
    /// The holder, if any.
    pub owner: Option<ThreadId>,
    /// The number of unlocks so far that were not weak (wrapping): the await count
    /// ([`ObjectKind::await_count`], [`Action::moves_await_count`]).
    pub releases: u32,
}

impl ObjectKind for Mutex {
    type State = MutexState;

    fn enabled(st: &MutexState, _: ThreadId, a: Action) -> bool {
        match a {
            Action::Lock(_) => st.owner.is_none(),
            _ => true,
        }
    }

    fn resolve(st: &MutexState, _: ThreadId, a: Action) -> Action {
        match a {
            Action::TryLock(m, _) => Action::TryLock(m, st.owner.is_none()),
            a => a,
        }
    }

    fn apply(st: &mut MutexState, t: ThreadId, a: Action) -> Result<(), String> {
        match a {
            Action::Lock(m) | Action::TryLock(m, true) => match st.owner {
                None => {
                    st.owner = Some(t);
                    Ok(())
                }
                Some(o) => Err(format!("{t} acquired {m}, held by {o}")),
            },
            Action::TryLock(m, false) => match st.owner {
                Some(_) => Ok(()),
                None => Err(format!("{t}'s trylock of {m} failed but the mutex is free")),
            },
            Action::Unlock(m, _) => {
                if st.owner != Some(t) {
                    return Err(format!("{t} unlocked {m} which it does not hold"));
                }
                st.owner = None;
                if a.moves_await_count() {
                    st.releases = st.releases.wrapping_add(1);
                }
                Ok(())
            }
            other => Err(format!("{other:?} is not a mutex operation")),
        }
    }

    /// A spin-wait on a mutex waits for an unlock.
    fn await_count(st: &MutexState) -> Option<u32> {
        Some(st.releases)
    }

    /// An unlock and another thread's lock of one mutex never are (the unlocker holds it).
    fn co_enabled(a: Action, b: Action) -> bool {
        !matches!((a, b), (Action::Unlock(..), Action::Lock(_)) | (Action::Lock(_), Action::Unlock(..)))
    }
}
