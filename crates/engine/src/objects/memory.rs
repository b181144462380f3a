//! A memory word accessed by visible operations (reads, writes, read-modify-writes of
//! some of its bytes, [`Bytes`]): every access is always enabled; reads commute with
//! reads under read-read independence ([`crate::action::Access`]), and so do accesses to
//! disjoint bytes. The state is the number of writes to each byte so far (stores and
//! read-modify-writes that changed the value: [`Action::moves_writes`]), which is what a
//! spin-wait ([`Action::Await`]) waits on: a thread whose loop iteration read some
//! locations and changed nothing is blocked until the count of one of them moves past
//! what it saw.
//!
//! The *await count* of some bytes of a word is the sum of their write counts
//! ([`ObjState::await_count`]): it moves on every write that touches one of them, and on
//! no other, so a spin on `sense` is not woken by a write to `count` in the same word,
//! and the two commute on the state as they do for dependence (a write to disjoint bytes
//! neither enables nor disables the wait). Counts wrap; a wait would sleep through a
//! write only if 2^32 byte writes happened in between.
//!
//! A wait on several locations is one operation on each of them (it reads all of them:
//! dependent with a write to any, [`crate::Independence::objects_conflict`]), and its
//! enabledness needs the state of all of them: [`await_woken`], which every caller asks
//! instead of [`ObjectKind::enabled`] (that one answers for a single location only).

use super::ObjectKind;
use crate::action::{Action, Awaited, Bytes};
use crate::ids::{ObjId, ThreadId};
use crate::objects::ObjState;

/// Whether the spin-wait `w` is enabled: some watched object's await count (the writes
/// to a location's bytes, a mutex's release count: [`ObjState::await_count`], `Fresh`
/// meaning none yet) differs from the one the thread saw.
pub fn await_woken<'a>(w: Awaited, state: impl Fn(ObjId) -> &'a ObjState) -> bool {
    w.woken(|o, b| state(o).await_count(b).unwrap_or(0))
}

/// A visible memory word.
#[derive(Debug)]
pub struct Memory;

/// The write count of each byte of a word (wrapping; [`Action::moves_writes`]).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct ByteWrites(pub [u32; 8]);

impl ByteWrites {
    /// The await count of `bytes`: the sum of their write counts (wrapping).
    #[inline]
    pub fn count(&self, bytes: Bytes) -> u32 {
        bytes.iter().fold(0u32, |s, b| s.wrapping_add(self.0[b]))
    }

    /// One more write to `bytes`.
    #[inline]
    pub fn write(&mut self, bytes: Bytes) {
        for b in bytes.iter() {
            self.0[b] = self.0[b].wrapping_add(1);
        }
    }
}

impl ObjectKind for Memory {
    /// The writes and read-modify-writes that changed the value performed, per byte
    /// (wrapping; [`Action::moves_writes`]). An unchanged read-modify-write is a load
    /// here: counting it woke every thread spinning with test-and-set on a held lock
    /// whenever another spinner tried it, forever.
    type State = ByteWrites;

    /// Every access is; a wait ([`Action::Await`]) is asked of
    /// [`ObjState::enabled`]/[`await_woken`], which read [`ByteWrites::count`].
    fn enabled(_: &ByteWrites, _: ThreadId, _: Action) -> bool {
        true
    }

    fn apply(writes: &mut ByteWrites, _: ThreadId, a: Action) -> Result<(), String> {
        match a {
            a @ (Action::Write(..) | Action::Rmw(..)) if a.moves_writes() => writes.write(a.bytes()),
            Action::Read(..) | Action::Rmw(_, _, false) => {}
            other => return Err(format!("{other:?} is not a memory access")),
        }
        Ok(())
    }

    /// A spin-wait on a location waits for a write to it (the whole word's count here;
    /// [`ObjState::await_count`] asks for the bytes read).
    fn await_count(writes: &ByteWrites) -> Option<u32> {
        Some(writes.count(Bytes::ALL))
    }
}
