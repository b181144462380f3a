//! Exhaustive depth-first search: every interleaving of visible steps, no reduction.
//! The ground truth for small programs (each node's backtrack set is its whole enabled
//! set; no sleep sets).

use super::dpor::{self, Kind};
use super::{ExploreConfig, ExploreError, Explorer, Session};

/// Every interleaving.
#[derive(Debug, Default)]
pub struct Dfs;

impl Dfs {
    /// A dfs explorer.
    pub fn new(_config: &ExploreConfig) -> Self {
        Dfs
    }
}

impl Explorer for Dfs {
    fn explore(&mut self, session: &mut Session<'_>) -> Result<(), ExploreError> {
        dpor::explore(Kind::Dfs, session)
    }
}
