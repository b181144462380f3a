//! Shims for C11 `<threads.h>`: threads, mutexes, condition variables and `call_once`,
//! mapped onto the pthread shims (glibc's `thrd_t`, `mtx_t` and `cnd_t` have the layout
//! of `pthread_t`, `pthread_mutex_t` and `pthread_cond_t`; `once_flag` that of
//! `pthread_once_t`). Results are translated to the `thrd_*` codes. `tss_*` is not
//! handled here.

use crate::shims::{
    __unfold_pthread_create, __unfold_pthread_exit, __unfold_pthread_join, __unfold_pthread_mutex_destroy,
    __unfold_pthread_mutex_init, __unfold_pthread_mutex_lock, __unfold_pthread_mutex_trylock,
    __unfold_pthread_mutex_unlock, guard,
};
use crate::sync::{
    __unfold_pthread_cond_broadcast, __unfold_pthread_cond_destroy, __unfold_pthread_cond_init,
    __unfold_pthread_cond_signal, __unfold_pthread_cond_timedwait, __unfold_pthread_cond_wait, once,
};
use std::ffi::{c_char, c_int, c_void};

/// `thrd_success`.
const SUCCESS: c_int = 0;
/// `thrd_busy`.
const BUSY: c_int = 1;
/// `thrd_error`.
const ERROR: c_int = 2;
/// `thrd_timedout`.
const TIMEDOUT: c_int = 4;
/// `mtx_recursive`.
const MTX_RECURSIVE: c_int = 1;

/// An errno-style result as a `thrd_*` code.
fn code(r: c_int) -> c_int {
    match r {
        0 => SUCCESS,
        libc::EBUSY => BUSY,
        libc::ETIMEDOUT => TIMEDOUT,
        _ => ERROR,
    }
}

type C11Start = unsafe extern "C" fn(*mut c_void) -> c_int;
type PStart = unsafe extern "C" fn(*mut c_void) -> *mut c_void;

/// Replaces `thrd_create`. The start routine returns an `int`; it is run as a pthread
/// start routine, and `thrd_join` keeps the low 32 bits of the returned register,
/// which is where both x86-64 and aarch64 return an `int`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_thrd_create(
    t: *mut libc::pthread_t,
    f: Option<C11Start>,
    arg: *mut c_void,
    file: *const c_char,
    line: c_int,
) -> c_int {
    // SAFETY: the same ABI slot on the supported targets (see above); a null routine
    // stays null.
    let f: Option<PStart> = f.map(|f| unsafe { std::mem::transmute::<C11Start, PStart>(f) });
    // SAFETY: same contract as pthread_create.
    code(unsafe { __unfold_pthread_create(t, std::ptr::null(), f, arg, file, line) })
}

/// Replaces `thrd_join`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_thrd_join(
    t: libc::pthread_t,
    res: *mut c_int,
    file: *const c_char,
    line: c_int,
) -> c_int {
    let mut v: *mut c_void = std::ptr::null_mut();
    // SAFETY: v is a local void* receiving the value.
    let r = unsafe { __unfold_pthread_join(t, &mut v, file, line) };
    if r == 0 && !res.is_null() {
        // SAFETY: the program passed a pointer to an int for the result.
        unsafe { res.write(v as usize as u32 as c_int) };
    }
    code(r)
}

/// Replaces `thrd_exit`.
#[no_mangle]
pub extern "C" fn __unfold_thrd_exit(res: c_int, file: *const c_char, line: c_int) -> ! {
    __unfold_pthread_exit(res as isize as *mut c_void, file, line)
}

/// Replaces `thrd_detach`.
#[no_mangle]
pub extern "C" fn __unfold_thrd_detach(t: libc::pthread_t) -> c_int {
    code(crate::shims::__unfold_pthread_detach(t))
}

/// Replaces `thrd_yield` (a no-op).
#[no_mangle]
pub extern "C" fn __unfold_thrd_yield() {}

/// Replaces `mtx_init`: `mtx_recursive` makes a recursive mutex; `mtx_timed` needs
/// nothing (every mutex supports `mtx_timedlock`).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mtx_init(
    m: *mut libc::pthread_mutex_t,
    kind: c_int,
    file: *const c_char,
    line: c_int,
) -> c_int {
    let attr: c_int = if kind & MTX_RECURSIVE != 0 { libc::PTHREAD_MUTEX_RECURSIVE } else { 0 };
    // SAFETY: our mutexattr shims keep the type in the attribute's first int; a local
    // int stands for one here.
    code(unsafe { __unfold_pthread_mutex_init(m, (&attr as *const c_int).cast(), file, line) })
}

/// Replaces `mtx_lock`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mtx_lock(m: *mut libc::pthread_mutex_t, file: *const c_char, line: c_int) -> c_int {
    // SAFETY: same contract as pthread_mutex_lock.
    code(unsafe { __unfold_pthread_mutex_lock(m, file, line) })
}

/// Replaces `mtx_trylock` (`thrd_busy` when held).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mtx_trylock(
    m: *mut libc::pthread_mutex_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    // SAFETY: same contract as pthread_mutex_trylock.
    code(unsafe { __unfold_pthread_mutex_trylock(m, file, line) })
}

/// Replaces `mtx_timedlock`: a try whose failure is `thrd_timedout`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mtx_timedlock(
    m: *mut libc::pthread_mutex_t,
    _t: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    // SAFETY: same contract as pthread_mutex_trylock.
    match unsafe { __unfold_pthread_mutex_trylock(m, file, line) } {
        libc::EBUSY => TIMEDOUT,
        r => code(r),
    }
}

/// Replaces `mtx_unlock`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mtx_unlock(m: *mut libc::pthread_mutex_t, file: *const c_char, line: c_int) -> c_int {
    // SAFETY: same contract as pthread_mutex_unlock.
    code(unsafe { __unfold_pthread_mutex_unlock(m, file, line) })
}

/// Replaces `mtx_destroy`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mtx_destroy(m: *mut libc::pthread_mutex_t, file: *const c_char, line: c_int) {
    // SAFETY: same contract as pthread_mutex_destroy.
    unsafe { __unfold_pthread_mutex_destroy(m, file, line) };
}

/// Replaces `cnd_init`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_cnd_init(c: *mut libc::pthread_cond_t, file: *const c_char, line: c_int) -> c_int {
    // SAFETY: same contract as pthread_cond_init.
    code(unsafe { __unfold_pthread_cond_init(c, std::ptr::null(), file, line) })
}

/// Replaces `cnd_signal`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_cnd_signal(c: *mut libc::pthread_cond_t, file: *const c_char, line: c_int) -> c_int {
    // SAFETY: same contract as pthread_cond_signal.
    code(unsafe { __unfold_pthread_cond_signal(c, file, line) })
}

/// Replaces `cnd_broadcast`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_cnd_broadcast(
    c: *mut libc::pthread_cond_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    // SAFETY: same contract as pthread_cond_broadcast.
    code(unsafe { __unfold_pthread_cond_broadcast(c, file, line) })
}

/// Replaces `cnd_wait`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_cnd_wait(
    c: *mut libc::pthread_cond_t,
    m: *mut libc::pthread_mutex_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    // SAFETY: same contract as pthread_cond_wait.
    code(unsafe { __unfold_pthread_cond_wait(c, m, file, line) })
}

/// Replaces `cnd_timedwait` (`thrd_timedout` on time-out).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_cnd_timedwait(
    c: *mut libc::pthread_cond_t,
    m: *mut libc::pthread_mutex_t,
    t: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    // SAFETY: same contract as pthread_cond_timedwait.
    code(unsafe { __unfold_pthread_cond_timedwait(c, m, t, file, line) })
}

/// Replaces `cnd_destroy`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_cnd_destroy(c: *mut libc::pthread_cond_t, file: *const c_char, line: c_int) {
    // SAFETY: same contract as pthread_cond_destroy.
    unsafe { __unfold_pthread_cond_destroy(c, file, line) };
}

/// Replaces `call_once`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_call_once(
    flag: *mut c_int,
    f: Option<unsafe extern "C" fn()>,
    file: *const c_char,
    line: c_int,
) {
    guard(|| once(flag, f, file, line));
}

/// Addresses of every shim of this module (see [`crate::shims::shim_table`]).
pub fn shim_table() -> Vec<usize> {
    vec![
        __unfold_thrd_create as *const () as usize,
        __unfold_thrd_join as *const () as usize,
        __unfold_thrd_exit as *const () as usize,
        __unfold_thrd_detach as *const () as usize,
        __unfold_thrd_yield as *const () as usize,
        __unfold_mtx_init as *const () as usize,
        __unfold_mtx_lock as *const () as usize,
        __unfold_mtx_trylock as *const () as usize,
        __unfold_mtx_timedlock as *const () as usize,
        __unfold_mtx_unlock as *const () as usize,
        __unfold_mtx_destroy as *const () as usize,
        __unfold_cnd_init as *const () as usize,
        __unfold_cnd_signal as *const () as usize,
        __unfold_cnd_broadcast as *const () as usize,
        __unfold_cnd_wait as *const () as usize,
        __unfold_cnd_timedwait as *const () as usize,
        __unfold_cnd_destroy as *const () as usize,
        __unfold_call_once as *const () as usize,
    ]
}
