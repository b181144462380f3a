//! QPOR explorer (placeholder while the unfolding is being written).
use super::{ExploreConfig, ExploreError, Explorer, Session};

/// Quasi-optimal POR.
#[derive(Debug)]
pub struct Qpor {
    #[allow(dead_code)]
    k: Option<usize>,
}

impl Qpor {
    /// A QPOR explorer with k-partial alternatives (`None`: optimal).
    pub fn new(k: Option<usize>, _config: &ExploreConfig) -> Result<Self, ExploreError> {
        Ok(Qpor { k })
    }
}

impl Explorer for Qpor {
    fn explore(&mut self, _session: &mut Session<'_>) -> Result<(), ExploreError> {
        Err(ExploreError::Unsupported("qpor is being written".into()))
    }
}
