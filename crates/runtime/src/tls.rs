//! Thread-local storage of the program, one block per program thread.
//!
//! All program threads are coroutines on one OS thread, so the C library's TLS (one block
//! per OS thread) would give them all the same `__thread` variables. The program is
//! therefore compiled with the general-dynamic TLS model and the traditional dialect
//! (`-ftls-model=global-dynamic -mtls-dialect=gnu` on x86-64, `trad` on aarch64): every
//! access to a thread-local variable calls `__tls_get_addr(&tls_index)`. The `unfold`
//! binary exports its own [`__tls_get_addr`], and the executable comes first in the
//! dynamic linker's symbol lookup, so the program's calls bind to it. For the program's
//! module it returns the address in the *current coroutine thread's* block
//! ([`crate::mem::TlsBlocks`], at a fixed address per thread, initialised from the
//! image when the thread starts); requests for any other module (a library's own TLS)
//! are passed to the dynamic linker's implementation, found with `dlsym(RTLD_NEXT)`.
//!
//! Objects that use the static TLS models (initial-exec, local-exec) or TLS descriptors
//! do not call `__tls_get_addr` and are refused when compiled (see the CLI).

use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The program's TLS module id (0: the program has no TLS).
static MODULE: AtomicUsize = AtomicUsize::new(0);
/// The running program thread's TLS block (0: no program thread is running).
static CURRENT: AtomicUsize = AtomicUsize::new(0);
/// The dynamic linker's `__tls_get_addr` (0: not looked up yet).
static REAL: AtomicUsize = AtomicUsize::new(0);

/// The argument of `__tls_get_addr` (glibc's `tls_index`).
#[repr(C)]
#[derive(Debug)]
pub struct TlsIndex {
    /// Module id (`DTPMOD` relocation).
    pub module: usize,
    /// Offset in the module's block (`DTPOFF` relocation).
    pub offset: usize,
}

type GetAddr = unsafe extern "C" fn(*const TlsIndex) -> *mut c_void;

/// Route the TLS of module `id` (the program's) to the per-thread blocks.
pub(crate) fn set_module(id: usize) {
    MODULE.store(id, Ordering::Relaxed);
}

/// The block of the program thread about to run (0 when none runs).
pub(crate) fn set_current(block: usize) {
    CURRENT.store(block, Ordering::Relaxed);
}

fn real() -> GetAddr {
    let mut f = REAL.load(Ordering::Relaxed);
    if f == 0 {
        // SAFETY: dlsym with a C string; RTLD_NEXT finds the definition after ours (the
        // dynamic linker's).
        f = unsafe { libc::dlsym(libc::RTLD_NEXT, c"__tls_get_addr".as_ptr()) } as usize;
        if f == 0 {
            // No other definition: nothing can be done safely.
            std::process::abort();
        }
        REAL.store(f, Ordering::Relaxed);
    }
    // SAFETY: f is the address of the dynamic linker's __tls_get_addr, which has this
    // signature.
    unsafe { std::mem::transmute::<usize, GetAddr>(f) }
}

/// Resolve the dynamic linker's `__tls_get_addr` now (before any worker forks), so that
/// the lookup never happens in the middle of an execution.
pub(crate) fn init() {
    let _ = real();
}

/// Exported to the program: the address of a thread-local variable of the calling
/// program thread.
///
/// # Safety
/// Called by compiled code with a pointer to a `tls_index` filled by the dynamic linker.
#[no_mangle]
pub unsafe extern "C" fn __tls_get_addr(ti: *const TlsIndex) -> *mut c_void {
    // SAFETY: by the contract ti points to a tls_index.
    let (module, offset) = unsafe { ((*ti).module, (*ti).offset) };
    let block = CURRENT.load(Ordering::Relaxed);
    if module != 0 && module == MODULE.load(Ordering::Relaxed) && block != 0 {
        return (block + offset) as *mut c_void;
    }
    // SAFETY: forwarding the caller's argument to the real implementation.
    unsafe { real()(ti) }
}
