//! The program's process lifecycle inside one execution: its constructors before `main`,
//! its `atexit` handlers and destructors when it exits, and `_exit`.
//!
//! Natively, constructors run before `main` in the main thread, and `exit` (or `main`
//! returning) runs the `atexit` handlers in reverse order of registration, then the
//! destructors, in the thread that exits, while the other threads keep running; `_exit`
//! and `_Exit` run neither. Here each *execution* is a run of the program, so all of
//! them run inside it, as program code with visible operations and defects of its own
//! (an assertion failing in an `atexit` handler is found). The loader runs none of them
//! in the checker (see [`crate::image`]). A handler that calls `exit` again exits with
//! the new status without running the remaining handlers (POSIX leaves it undefined).
//!
//! The handlers' functions and the list of registered ones are per execution: the list
//! lives in the runtime state that every execution resets, so a handler registered in
//! one execution never runs in another.

use crate::exec::{stop, suspend, with_rt, Yield};
use crate::shims::guard;
use std::ffi::{c_char, c_int, c_void};
use unfold_engine::{Action, ProgramError};

/// Most `atexit` handlers an execution may register (POSIX guarantees 32).
pub const MAX_ATEXIT: usize = 1024;

/// The program's constructors and destructors (function addresses, in array order),
/// set once per worker from the image.
#[derive(Debug, Default, Clone)]
pub(crate) struct InitFini {
    pub ctors: Vec<usize>,
    pub dtors: Vec<usize>,
}

/// Run the program's constructors, as the loader would: `f(argc, argv, envp)`.
pub(crate) fn run_constructors(argc: c_int, argv: *mut *mut c_char, envp: *mut *mut c_char) {
    // One entry at a time: no allocation lives in this frame while program code runs
    // (it may suspend the thread; a checkpoint copies the frame, not what it owns).
    let mut i = 0;
    while let Some(f) = with_rt(|rt| rt.init_fini.ctors.get(i).copied()) {
        i += 1;
        // SAFETY: an entry of the program's .init_array, relocated by the loader: a
        // constructor, which glibc calls with (argc, argv, envp) (extra arguments are
        // harmless under the C calling convention for a `void f(void)`).
        let f: unsafe extern "C" fn(c_int, *mut *mut c_char, *mut *mut c_char) =
            unsafe { std::mem::transmute::<usize, _>(f) };
        // SAFETY: calling the program's constructor with the arguments of main.
        unsafe { f(argc, argv, envp) };
    }
}

/// `exit`'s work before the process ends: the `atexit` handlers (last registered first),
/// then the destructors (last first). Only the first exit of an execution runs them.
pub(crate) fn run_exit_handlers() {
    if with_rt(|rt| std::mem::replace(&mut rt.exiting, true)) {
        return;
    }
    while let Some(f) = with_rt(|rt| rt.atexit.pop()) {
        // SAFETY: a function the program registered with atexit (checked non-null).
        let f: unsafe extern "C" fn() = unsafe { std::mem::transmute::<usize, _>(f) };
        // SAFETY: calling the program's handler, as exit would.
        unsafe { f() };
    }
    let mut left = with_rt(|rt| rt.init_fini.dtors.len());
    while left > 0 {
        left -= 1;
        let f = with_rt(|rt| rt.init_fini.dtors[left]);
        // SAFETY: an entry of the program's .fini_array, relocated by the loader.
        let f: unsafe extern "C" fn() = unsafe { std::mem::transmute::<usize, _>(f) };
        // SAFETY: calling the program's destructor, as exit would.
        unsafe { f() };
    }
}

/// Replaces `atexit`: registers `f` for this execution's exit. Any thread may call it.
#[no_mangle]
pub extern "C" fn __unfold_atexit(f: Option<unsafe extern "C" fn()>) -> c_int {
    guard(|| {
        let Some(f) = f else { return -1 };
        with_rt(|rt| {
            if rt.atexit.len() >= MAX_ATEXIT {
                return -1;
            }
            rt.atexit.push(f as usize);
            0
        })
    })
}

/// Replaces `_exit` and `_Exit`: the process exit, with status `code`, without running
/// `atexit` handlers or destructors. Like `exit`, it is the thread's pending action,
/// taken when no other thread can move; a non-zero status is the defect `exit`.
#[no_mangle]
pub extern "C" fn __unfold__exit_at(code: c_int, ra: *mut c_void) -> ! {
    guard(|| {
        with_rt(|rt| {
            rt.exit_code = code;
            rt.exiting = true;
        });
        suspend(Yield::Pending(Action::ExitProcess, (ra as u64).saturating_sub(1)));
        stop()
    })
}

/// Stop the execution: the current thread's heap slot cannot hold `size` more bytes.
pub(crate) fn heap_limit_reached(size: usize, limit: usize) -> ! {
    let t = with_rt(|rt| rt.current);
    with_rt(|rt| {
        rt.unsupported = Some(ProgramError::Limit(format!(
            "heap limit of the checker reached: thread {t} allocated more than its {} MiB (this allocation: \
             {size} bytes); raise it with --heap-size",
            limit >> 20
        )))
    });
    stop()
}

/// Addresses of every shim of this module (see [`crate::shims::shim_table`]).
pub fn shim_table() -> [usize; 2] {
    [__unfold_atexit as *const () as usize, __unfold__exit_at as *const () as usize]
}
