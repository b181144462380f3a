//! A memory location accessed by visible operations (reads, writes, read-modify-writes):
//! every access is always enabled; reads commute with reads under read-read independence
//! ([`crate::action::Access`]). The state is the number of writes so far (stores and
//! read-modify-writes that changed the value: [`Action::moves_writes`]), which is what a
//! spin-wait ([`Action::Await`]) waits on: a thread whose loop iteration read some
//! locations and changed nothing is blocked until the count of one of them moves past
//! what it saw.
//!
//! A wait on several locations is one operation on each of them (it reads all of them:
//! dependent with a write to any, [`crate::Independence::objects_conflict`]), and its
//! enabledness needs the state of all of them: [`await_woken`], which every caller asks
//! instead of [`ObjectKind::enabled`] (that one answers for a single location only).

use super::ObjectKind;
use crate::action::Action;
use crate::action::Awaited;
use crate::ids::{ObjId, ThreadId};
use crate::objects::ObjState;

/// Whether the spin-wait `w` is enabled: some watched object's await count (a
/// location's write count, a mutex's release count: [`ObjState::await_count`], `Fresh`
/// meaning none yet) differs from the one the thread saw.
pub fn await_woken<'a>(w: Awaited, state: impl Fn(ObjId) -> &'a ObjState) -> bool {
    w.woken(|o| state(o).await_count().unwrap_or(0))
}

/// A visible memory location.
#[derive(Debug)]
pub struct Memory;

impl ObjectKind for Memory {
    /// The number of writes and read-modify-writes that changed the value performed
    /// (wrapping; [`Action::moves_writes`]). An unchanged read-modify-write is a load
    /// here: counting it woke every thread spinning with test-and-set on a held lock
    /// whenever another spinner tried it, forever.
    type State = u32;

    /// Every access is; a wait ([`Action::Await`]) is asked of
    /// [`ObjState::enabled`]/[`await_woken`], which read [`Memory::await_count`].
    fn enabled(_: &u32, _: ThreadId, _: Action) -> bool {
        true
    }

    fn apply(writes: &mut u32, _: ThreadId, a: Action) -> Result<(), String> {
        match a {
            a @ (Action::Write(_) | Action::Rmw(..)) if a.moves_writes() => *writes = writes.wrapping_add(1),
            Action::Read(_) | Action::Rmw(_, false) => {}
            other => return Err(format!("{other:?} is not a memory access")),
        }
        Ok(())
    }

    /// A spin-wait on a location waits for a write to it.
    fn await_count(writes: &u32) -> Option<u32> {
        Some(*writes)
    }
}
