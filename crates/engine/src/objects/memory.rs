//! A memory location accessed by visible operations (reads, writes, read-modify-writes):
//! every access is always enabled; reads commute with reads under read-read independence
//! ([`crate::action::Access`]). The state is the number of writes so far, which is what a
//! spin-wait ([`Action::Await`]) waits on: a thread whose loop iteration read the
//! location and changed nothing is blocked until the count moves past what it saw.

use super::ObjectKind;
use crate::action::Action;
use crate::ids::ThreadId;

/// A visible memory location.
#[derive(Debug)]
pub struct Memory;

impl ObjectKind for Memory {
    /// The number of writes and read-modify-writes performed (wrapping).
    type State = u32;

    fn enabled(writes: &u32, _: ThreadId, a: Action) -> bool {
        match a {
            Action::Await(_, seen) => *writes != seen,
            _ => true,
        }
    }

    fn apply(writes: &mut u32, _: ThreadId, a: Action) -> Result<(), String> {
        match a {
            Action::Write(_) | Action::Rmw(_) => *writes = writes.wrapping_add(1),
            Action::Read(_) => {}
            Action::Await(o, seen) => {
                if *writes == seen {
                    return Err(format!("await({o}) performed with no new write"));
                }
            }
            other => return Err(format!("{other:?} is not a memory access")),
        }
        Ok(())
    }
}
