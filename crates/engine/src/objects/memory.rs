//! A memory location accessed by visible operations (reads, writes, read-modify-writes):
//! every operation is always enabled and changes no synchronisation state. Reads commute
//! with reads under read-read independence ([`crate::action::Access`]).

use super::ObjectKind;
use crate::action::Action;
use crate::ids::ThreadId;

/// A visible memory location.
#[derive(Debug)]
pub struct Memory;

impl ObjectKind for Memory {
    type State = ();

    fn enabled(_: &(), _: ThreadId, _: Action) -> bool {
        true
    }

    fn apply(_: &mut (), _: ThreadId, a: Action) -> Result<(), String> {
        match a {
            Action::Read(_) | Action::Write(_) | Action::Rmw(_) => Ok(()),
            other => Err(format!("{other:?} is not a memory access")),
        }
    }
}
