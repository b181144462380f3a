//! Barriers (`pthread_barrier_t`): `init` sets the count; `pthread_barrier_wait` is two
//! operations, an *arrival* and a *leave*. The arrival that completes a round is the
//! serial one (`PTHREAD_BARRIER_SERIAL_THREAD`): it releases every thread that arrived
//! in the round and does not wait itself; every other arrival is followed by a leave,
//! enabled once its round is complete. A barrier whose count is never reached leaves
//! its waiters blocked (a deadlock report).

use super::ObjectKind;
use crate::action::Action;
use crate::ids::ThreadId;

/// A barrier.
#[derive(Debug)]
pub struct Barrier;

/// The state of a barrier.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BarrierState {
    /// The count given to `init` (0: not initialised).
    pub count: u32,
    /// Threads that arrived in the current round, in arrival order.
    pub arrived: Vec<ThreadId>,
    /// Threads whose round is complete and that have not left yet.
    pub released: Vec<ThreadId>,
}

impl ObjectKind for Barrier {
    type State = BarrierState;

    fn enabled(st: &BarrierState, t: ThreadId, a: Action) -> bool {
        match a {
            Action::BarrierLeave(_) => st.released.contains(&t),
            _ => true,
        }
    }

    fn resolve(st: &BarrierState, _: ThreadId, a: Action) -> Action {
        match a {
            Action::BarrierArrive(b, _) => Action::BarrierArrive(b, st.arrived.len() as u64 + 1 >= st.count as u64),
            a => a,
        }
    }

    fn apply(st: &mut BarrierState, t: ThreadId, a: Action) -> Result<(), String> {
        match a {
            Action::BarrierInit(_, n) => {
                st.count = n;
                st.arrived.clear();
            }
            Action::BarrierArrive(b, serial) => {
                let completes = st.arrived.len() as u64 + 1 >= st.count as u64;
                if completes != serial {
                    return Err(format!("{t}'s arrival at {b}: serial={serial} but the round says {completes}"));
                }
                if serial {
                    let round = std::mem::take(&mut st.arrived);
                    st.released.extend(round);
                } else {
                    st.arrived.push(t);
                }
            }
            Action::BarrierLeave(b) => {
                let Some(i) = st.released.iter().position(|&u| u == t) else {
                    return Err(format!("{t} left {b} before its round was complete"));
                };
                st.released.remove(i);
            }
            other => return Err(format!("{other:?} is not a barrier operation")),
        }
        Ok(())
    }
}
