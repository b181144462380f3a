//! TEMPORARY: an exhaustive depth-first explorer over replays, used by `unfold check`
//! while the engine's explorers are being written in another branch (the engine's
//! `explorer_for` still answers `Unsupported`). It is replaced by the engine's `dfs`
//! explorer when the branches are merged; delete this file then.
//!
//! It runs every interleaving of visible steps: after each execution it records, for each
//! new position of the schedule, the enabled threads (from the engine's [`SchedState`]),
//! and backtracks to the deepest position with an enabled thread not yet tried there.
//! No sleep sets and no reduction: exponential, but the ground truth.

use unfold_engine::{Execution, ExploreError, Explorer, SchedState, Session, ThreadId};

/// The temporary exhaustive explorer (see the module docs).
#[derive(Debug, Default)]
pub struct TempDfs;

impl Explorer for TempDfs {
    fn explore(&mut self, session: &mut Session<'_>) -> Result<(), ExploreError> {
        let mut exec = Execution::default();
        let mut prefix: Vec<ThreadId> = Vec::new();
        // One node per position of the current path: (enabled threads, threads tried).
        let mut stack: Vec<(Vec<ThreadId>, Vec<ThreadId>)> = Vec::new();
        loop {
            session.run(&prefix, &[], &mut exec)?;
            if session.should_stop() {
                return Ok(());
            }
            let mut state = SchedState::new(exec.first);
            for (i, step) in exec.steps.iter().enumerate() {
                if i >= prefix.len() {
                    let enabled: Vec<ThreadId> =
                        state.threads().filter(|&t| state.enabled(t)).collect();
                    stack.push((enabled, vec![step.thread]));
                }
                state.apply(i, step)?;
            }
            let schedule = exec.schedule();
            loop {
                let Some((enabled, tried)) = stack.last_mut() else {
                    return Ok(());
                };
                if let Some(&t) = enabled.iter().find(|t| !tried.contains(t)) {
                    tried.push(t);
                    let depth = stack.len() - 1;
                    prefix.clear();
                    prefix.extend_from_slice(&schedule[..depth]);
                    prefix.push(t);
                    break;
                }
                stack.pop();
            }
        }
    }
}
