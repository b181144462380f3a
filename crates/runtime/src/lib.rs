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
//! - [`heapcheck`]: memory errors — use after free, double and invalid frees, accesses to
//!   the stack of a thread that exited, uninitialised heap reads (opt-in) — checked on
//!   every instrumented access through a shadow of the arena;
//! - [`tls`]: `__tls_get_addr`, serving the program's `__thread` variables per thread;
//! - [`nondet`]: SV-COMP's nondeterministic values, drawn from a valuation fixed per
//!   exploration and reported per execution;
//! - [`shims`]: the `__unfold_*` C entry points the program is compiled against
//!   ([`HEADER`] renames the pthread/libc functions to them);
//! - [`sync`], [`c11`]: the shims of condition variables, semaphores, read-write locks,
//!   barriers, `pthread_once`, spinlocks and C11 `<threads.h>` (their own shim tables);
//! - [`image`]: loading the program once, its writable data, TLS segment, constructors
//!   and destructors; [`process`]: constructors, `atexit` handlers, destructors and
//!   `_exit` inside each execution;
//! - `shared`: the plain-data protocol between the parent and its worker (validated
//!   decoding: the program cannot corrupt the checker); [`signals`]: interrupts, the
//!   crash handler, children that die with their parent;
//! - [`worker`]: worker processes (persistent, or a fork server) and [`CProgram`], the
//!   [`Program`](unfold_engine::Program) implementation the explorers drive.
//!
//! The `unfold` binary must export the shims to the program it loads: link it with
//! `-rdynamic` and keep the shims alive by calling [`shims::shim_table`].
//!
//! # Design decisions (and what was rejected)
//!
//! - **Renaming, not wrapping.** The program is compiled as a shared object with a
//!   force-included header that renames the supported functions to `__unfold_*` shims
//!   (function-like macros pass `__FILE__`/`__LINE__`, so most sites need no debug info;
//!   functions programs commonly redeclare — `exit`, `abort`, `__VERIFIER_*`, the
//!   allocator — are renamed to static trampolines that pass their return address,
//!   resolved with DWARF).
//!   `-Wl,--wrap` needs a static link and would not see calls inside the object; a
//!   header also keeps the program's own `pthread_mutex_t` layout. Whatever the object
//!   still imports is vetted by name before anything runs.
//! - **The parent loads the program once**, before forking any worker; its globals, the
//!   heap arena and the stacks (reserved at fixed places in the parent) therefore have
//!   the same addresses in every worker, so mutex identities ([`ObjId`](unfold_engine::ObjId)
//!   = address) are stable across executions *and* worker re-forks without any
//!   normalisation. The loader runs none of the program's constructors and destructors
//!   there: each execution runs them ([`image`], [`process`]).
//! - **Coroutines on fixed per-thread stack slots** (`corosensei`, nanosecond switches);
//!   a thread runs eagerly to its next visible operation, as the engine's protocol asks.
//!   Discarding an execution resets the coroutines without unwinding (nothing on their
//!   stacks needs `Drop`).
//! - **Persistent worker first, fork server as fallback.** Resetting the image's writable
//!   segments (minus RELRO) and the used part of the arena costs well under a
//!   microsecond for small programs; a fork costs 200–800 µs here. Programs importing
//!   functions with libc-internal state (files, `rand`, `atexit`...) use the fork
//!   server. Crashes and timeouts kill the worker; the next execution forks a new one.
//! - **Hand-off through shared memory**: spin (yielding the CPU; after a yield that lost
//!   the core for a time slice, briefly and without yielding: `shared::Spinner`) on
//!   sequence numbers, then block on pipes, which also reveal a dead worker. Pipes alone
//!   cost ~60 µs per round trip on this machine. The parent decodes the steps the worker
//!   has finished while it waits.
//! - **Atomic sections** (`__VERIFIER_atomic_begin/end`, functions named
//!   `__VERIFIER_atomic_*` hooked with `-finstrument-functions`) hold one hidden global
//!   mutex ([`ATOMIC_OBJ`]): sections exclude each other and their order is explored,
//!   which is exactly the ordering information plain memory accesses (invisible to the
//!   engine) need. A thread that blocks on a mutex inside a section keeps the hidden
//!   mutex, which may report a deadlock that a truly atomic block would not have.
//! - **`pthread_mutex_destroy`** of a mutex held by another thread depends on the
//!   schedule, so it is a visible `trylock` (plus `unlock` when it succeeds); destroying a
//!   mutex the thread itself holds, relocking a non-recursive mutex and unlocking a mutex
//!   not held are decided by the thread's own history and reported without a step.
//!
//! # Limitations
//!
//! Plain memory accesses are seen through the thread sanitizer's instrumentation (see
//! [`memory`]) and atomics are scheduling points; thread-local storage needs the
//! general-dynamic model (see [`tls`]); stack overflows are recognised on x86-64 only;
//! `pthread_key_create` is invisible to the scheduler; x86-64 and aarch64 glibc layouts
//! of `pthread_mutex_t`, `sem_t`, `pthread_cond_t`, `pthread_rwlock_t` and
//! `pthread_barrier_t` are assumed (the [`sync`] shims keep a marker in their first 4
//! bytes), and C11's `thrd_start_t` returns its `int` in the register of a pointer result.

pub mod c11;
pub mod exec;
pub mod heapcheck;
pub mod image;
pub mod mem;
pub mod memory;
pub mod nondet;
pub mod process;
pub(crate) mod shared;
pub mod shims;
pub mod signals;
pub mod sync;
pub mod tls;
pub mod worker;

pub use exec::{decode_site, site_role, site_word_offset, EntryHook, SiteKind, SiteRole, ATOMIC_OBJ};
pub use image::Image;
pub use memory::{memory_addr, memory_obj, MemoryMode};
pub use nondet::{Draw, NondetKind, Valuation};
pub use signals::{
    describe_wait_status, die_with_parent, install_interrupt_handler, interrupt_child, interrupt_signal, interrupted,
};
pub use worker::{CProgram, Mode, NondetDraws, NondetLog, Options, PendingSites, Region, Timing};

/// The header force-included (`cc -include`) into every program.
pub const HEADER: &str = include_str!("unfold.h");

/// The plain renames both headers include (`#include "unfold_renames.h"`: written next
/// to them).
pub const HEADER_RENAMES: &str = include_str!("unfold_renames.h");

/// The header force-included into a preprocessed program (a `.i` file): renames only,
/// to adapters that take the call site from their return address (`tsan.c`).
pub const HEADER_PREPROCESSED: &str = include_str!("unfold_i.h");

/// The synchronising objects whose layout the runtime relies on, by type name, with
/// their size on this machine (a preprocessed program made elsewhere is given these:
/// the CLI's `native_object_sizes`).
pub fn object_sizes() -> [(&'static str, usize); 8] {
    use std::mem::size_of;
    [
        ("pthread_attr_t", size_of::<libc::pthread_attr_t>()),
        ("pthread_mutex_t", size_of::<libc::pthread_mutex_t>()),
        ("pthread_cond_t", size_of::<libc::pthread_cond_t>()),
        ("pthread_rwlock_t", size_of::<libc::pthread_rwlock_t>()),
        ("pthread_barrier_t", size_of::<libc::pthread_barrier_t>()),
        ("sem_t", size_of::<libc::sem_t>()),
        // C11's, with the pthread sizes (glibc's <threads.h>).
        ("mtx_t", size_of::<libc::pthread_mutex_t>()),
        ("cnd_t", size_of::<libc::pthread_cond_t>()),
    ]
}

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
///
/// This process's is its memory's high-water mark (`VmHWM` of `/proc/self/status`),
/// not `getrusage`'s: Linux carries `ru_maxrss` across `execve`, so a checker started
/// by `cargo run` or by a benchmark harness reported the larger memory of the process
/// that started it (48 MiB under `cargo run` for a run that used 7).
pub fn peak_rss_bytes() -> (u64, u64) {
    let get = |who| {
        // SAFETY: getrusage fills the struct we pass.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        unsafe { libc::getrusage(who, &mut ru) };
        ru.ru_maxrss.max(0) as u64 * 1024
    };
    (vm_hwm_bytes("self").unwrap_or_else(|| get(libc::RUSAGE_SELF)), get(libc::RUSAGE_CHILDREN))
}

/// Give the allocator's free memory back to the system (glibc's `malloc_trim`). Freed
/// small chunks stay resident in the allocator's free lists: after the default algorithm
/// drops QPOR's unfolding at the hand-over, about 14 MiB of them, kept through the
/// optimal-DPOR run that follows (mpat_nested K=8). A no-op on other C libraries.
pub fn release_free_memory() {
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim takes no pointer; it only returns the allocator's own free
    // pages to the kernel, and no allocation is live in them.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The memory high-water mark (`VmHWM`) of process `pid` (`"self"`: this one), in bytes.
pub(crate) fn vm_hwm_bytes(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok().map(|kb| kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::{HEADER, HEADER_PREPROCESSED, HEADER_RENAMES};

    /// The names a header defines as macros, with what each expands to.
    fn macros(header: &str) -> Vec<(&str, &str)> {
        header
            .lines()
            .filter_map(|l| l.strip_prefix("#define "))
            .map(|d| {
                let name_end = d.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(d.len());
                let body = d[name_end..].trim_start_matches(|c| c != ' ').trim();
                (&d[..name_end], body)
            })
            .collect()
    }

    #[test]
    fn a_preprocessed_program_has_every_routed_function_routed() {
        assert!(HEADER.contains("#include \"unfold_renames.h\""));
        assert!(HEADER_PREPROCESSED.contains("#include \"unfold_renames.h\""));
        let pre = [macros(HEADER_PREPROCESSED), macros(HEADER_RENAMES)].concat();
        let adapters = include_str!("tsan.c");
        for (name, body) in [macros(HEADER), macros(HEADER_RENAMES)].concat() {
            if !body.starts_with("__unfold_") || name.starts_with("__unfold") {
                continue;
            }
            let Some(&(_, target)) = pre.iter().find(|(n, _)| *n == name) else {
                panic!("unfold.h routes {name}, unfold_i.h does not");
            };
            if let Some(api) = target.strip_prefix("__unfold_pc_") {
                // The adapter is defined in tsan.c, by name or by a macro given the API
                // (`PC1S(pthread_mutex_lock)`, `TRY_ENTRY(pthread_mutex_trylock)`).
                let by_name = adapters.contains(&format!("{target}("));
                let by_macro = adapters
                    .lines()
                    .any(|l| l.starts_with(|c: char| c.is_ascii_uppercase()) && l.ends_with(&format!("({api})")));
                assert!(by_name || by_macro, "{name}: no adapter {target} in tsan.c");
            } else {
                assert_eq!(target, body, "{name}: a plain rename is unfold.h's");
            }
        }
    }

    /// A function unfold.h routes through a function-like macro is reached through its
    /// address too: its symbol is renamed (`#pragma redefine_extname`, before the system
    /// headers) to the adapter a preprocessed program calls.
    #[test]
    fn a_function_routed_by_a_function_like_macro_has_its_symbol_renamed() {
        let pre = macros(HEADER_PREPROCESSED);
        let first_include = HEADER.find("#include").unwrap();
        let mut routed = 0;
        for line in HEADER.lines().filter_map(|l| l.strip_prefix("#define ")) {
            let Some((name, _)) = line.split_once('(') else { continue };
            if name.contains(' ') || name.starts_with("__unfold") {
                continue;
            }
            routed += 1;
            let &(_, adapter) = pre.iter().find(|(n, _)| *n == name).expect("routed in unfold_i.h (test above)");
            let pragma = format!("#pragma redefine_extname {name} {adapter}\n");
            let at = HEADER.find(&pragma).unwrap_or_else(|| panic!("unfold.h: no `{}`", pragma.trim()));
            assert!(at < first_include, "{name}: renamed after the system headers declared it");
        }
        assert!(routed > 60, "the macros were not found ({routed})");
        // And no rename is left over from a function routed otherwise now.
        assert_eq!(HEADER.matches("#pragma redefine_extname ").count(), routed, "a rename without its macro");
    }
}
