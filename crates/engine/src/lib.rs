//! # unfold-engine
//!
//! The exploration engine of unfold, a stateless model checker for multithreaded
//! programs: the program interface, the independence relation, the unfolding with its
//! thread and lock trees, and the explorers (QPOR and the DPOR family). No I/O, no
//! `unsafe`: programs are run through the [`program::Program`] trait, implemented by the
//! C runtime, the Rust API and the in-memory test model.
//!
//! # References
//!
//! - **QPOR**: H. T. T. Nguyen, C. Rodríguez, M. Sousa, C. Coti, L. Petrucci.
//!   *Quasi-Optimal Partial Order Reduction.* CAV 2018 (extended version).
//! - **JACM'17**: P. A. Abdulla, S. Aronis, B. Jonsson, K. Sagonas. *Source Sets: A
//!   Foundation for Optimal Dynamic Partial Order Reduction.* J. ACM 64(4), 2017.
//! - **POPL'05**: C. Flanagan, P. Godefroid. *Dynamic Partial-Order Reduction for
//!   Model Checking Software.* POPL 2005.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod action;
pub mod configuration;
pub mod explore;
pub mod ids;
pub mod model;
pub mod objects;
pub mod program;
pub mod race;
pub mod trace;
pub mod unfolding;

pub use action::{Access, Action, Awaited, Bytes, Independence};
pub use explore::{
    explore, Algorithm, Cancel, Control, ExploreConfig, ExploreError, Explorer, Observer, Session, Stats,
};
pub use ids::{EventId, ObjId, ThreadId, ThreadNames};
pub use program::{Defect, DefectKind, End, Execution, Program, ProgramError, RunRequest, SchedState, Scheduler, Step};
