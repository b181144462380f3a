//! Counting semaphores (POSIX `sem_t`): `sem_init` sets the value, `post` increments it,
//! `wait` is enabled when it is positive and decrements it, `trywait`/`timedwait`
//! decrement when positive and otherwise fail (a time-out is explored as a failed try),
//! `getvalue` reads it. Every two operations on one semaphore are dependent (two posts
//! commute, but treating them as dependent keeps one rule for every explorer).
//!
//! A semaphore also counts the operations that may make a failed `trywait` succeed
//! (posts, and `sem_init`, which sets the value): the state a spin-wait on it watches
//! ([`Action::Await`]). A retry loop `while (sem_trywait(&s) != 0);` whose iteration
//! changed nothing waits for the count to move instead of failing again and again
//! (docs/memory.md, "Failed try and timed operations").

use super::ObjectKind;
use crate::action::Action;
use crate::ids::ThreadId;

/// A semaphore.
#[derive(Debug)]
pub struct Semaphore;

/// The state of a semaphore.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SemState {
    /// The value.
    pub value: u32,
    /// The number of posts and initialisations so far (wrapping): the await count
    /// ([`ObjectKind::await_count`], [`Action::moves_await_count`]).
    pub posts: u32,
}

impl ObjectKind for Semaphore {
    type State = SemState;

    fn enabled(st: &SemState, _: ThreadId, a: Action) -> bool {
        match a {
            Action::SemWait(_) => st.value > 0,
            _ => true,
        }
    }

    fn resolve(st: &SemState, _: ThreadId, a: Action) -> Action {
        match a {
            Action::SemTryWait(s, _) => Action::SemTryWait(s, st.value > 0),
            a => a,
        }
    }

    fn result(st: &SemState, _: ThreadId, a: Action) -> u64 {
        match a {
            Action::SemValue(_) => st.value as u64,
            a => a.outcome(),
        }
    }

    fn apply(st: &mut SemState, t: ThreadId, a: Action) -> Result<(), String> {
        match a {
            Action::SemInit(_, v) => {
                st.value = v;
                st.posts = st.posts.wrapping_add(1);
            }
            Action::SemPost(s) => {
                st.value = st.value.checked_add(1).ok_or_else(|| format!("{t}: value of {s} overflows"))?;
                st.posts = st.posts.wrapping_add(1);
            }
            Action::SemWait(s) | Action::SemTryWait(s, true) => {
                st.value = st.value.checked_sub(1).ok_or_else(|| format!("{t} decremented {s} at zero"))?;
            }
            Action::SemTryWait(s, false) => {
                if st.value > 0 {
                    return Err(format!("{t}'s trywait of {s} failed but the value is {}", st.value));
                }
            }
            Action::SemValue(_) => {}
            other => return Err(format!("{other:?} is not a semaphore operation")),
        }
        Ok(())
    }

    /// A spin-wait on a semaphore (a `trywait` retry loop) waits for a post.
    fn await_count(st: &SemState) -> Option<u32> {
        Some(st.posts)
    }
}
