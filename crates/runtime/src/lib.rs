//! # unfold-runtime
//!
//! The C runtime of unfold, and the only crate of the project with `unsafe` code: it runs
//! a compiled C/pthread program under the control of an explorer.
//!
//! - [`mem`]: memory with stable addresses (program image, per-thread heap arena and
//!   stacks) and its reset between executions;
//! - [`exec`]: one execution inside a worker — program threads as `corosensei` coroutines
//!   that switch only at visible operations, scheduled by the engine's shared
//!   [`Scheduler`](unfold_engine::Scheduler);
//! - [`shims`]: the `__unfold_*` C entry points the program is compiled against
//!   ([`HEADER`] renames the pthread/libc functions to them);
//! - [`worker`]: worker processes (persistent, or a fork server) and [`CProgram`], the
//!   [`Program`](unfold_engine::Program) implementation the explorers drive.
//!
//! The `unfold` binary must export the shims to the program it loads: link it with
//! `-rdynamic` and keep the shims alive by calling [`shims::shim_table`].

pub mod exec;
pub mod mem;
pub mod shims;
pub mod worker;

pub use exec::{decode_site, SiteKind, ATOMIC_OBJ};
pub use worker::{install_interrupt_handler, interrupted, CProgram, Image, Mode, Options, Timing};

/// The header force-included (`cc -include`) into every program.
pub const HEADER: &str = include_str!("unfold.h");

/// Why the runtime could not set a program up.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// A system call failed.
    #[error("{0} failed: {1}")]
    Os(&'static str, #[source] std::io::Error),
    /// The program could not be loaded.
    #[error("cannot load the program: {0}")]
    Load(String),
}

/// Peak resident set size of this process and of its reaped children, in bytes.
pub fn peak_rss_bytes() -> (u64, u64) {
    let get = |who| {
        // SAFETY: getrusage fills the struct we pass.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        unsafe { libc::getrusage(who, &mut ru) };
        ru.ru_maxrss.max(0) as u64 * 1024
    };
    (get(libc::RUSAGE_SELF), get(libc::RUSAGE_CHILDREN))
}
