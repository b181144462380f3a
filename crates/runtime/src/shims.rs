//! The C ABI entry points the compiled program calls (declared in `unfold.h`, which
//! renames the libc/pthread functions to them).
//!
//! Every shim is called by a program thread, i.e. on a coroutine of the executor
//! ([`crate::exec`]), except the allocator, which also serves code that runs outside an
//! execution (constructors run at `dlopen`), falling back to libc there. A shim that
//! performs a visible operation suspends the thread with its pending action and returns
//! when the executor has performed it. No shim lets a panic unwind into C: each body runs
//! under `guard`, which aborts the worker with a message (reported as an internal error).

use crate::exec::{fail, site_file_line, stop, suspend, with_rt, Yield, ATOMIC_OBJ};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use unfold_engine::{Action, DefectKind, ObjId, ThreadId};

/// Run a shim body; a panic (an unfold bug) aborts instead of unwinding into C.
pub(crate) fn guard<R>(f: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => {
            eprintln!("unfold: internal error in a C shim (see the panic message above)");
            std::process::abort()
        }
    }
}

/// `pthread_t` values are ThreadId + 1 (so that a zeroed `pthread_t` names no thread).
fn tid_of(p: libc::pthread_t) -> Option<ThreadId> {
    (p >= 1 && p <= u16::MAX as libc::pthread_t).then(|| ThreadId((p - 1) as u16))
}

fn current() -> ThreadId {
    with_rt(|rt| rt.current)
}

fn visible(a: Action, file: *const c_char, line: c_int) -> u64 {
    suspend(Yield::Pending(a, site_file_line(file, line)))
}

/// Read a C string for a message, tolerating null.
///
/// # Safety
/// `p` must be null or point to a NUL-terminated string.
unsafe fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: by the contract, p is a NUL-terminated string.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

// ---- threads ------------------------------------------------------------------------

/// Replaces `pthread_create`. Attributes are ignored (the pthread_attr_* functions are
/// refused before exploration, so only a null attribute can reach here).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_create(
    thread: *mut libc::pthread_t,
    _attr: *const libc::pthread_attr_t,
    f: Option<unsafe extern "C" fn(*mut c_void) -> *mut c_void>,
    arg: *mut c_void,
    file: *const c_char,
    line: c_int,
) -> c_int {
    guard(|| {
        let Some(f) = f else {
            fail(DefectKind::Crash, "pthread_create with a null start routine".into(), site_file_line(file, line))
        };
        let child = with_rt(|rt| {
            let me = rt.current;
            let nth = rt.thread(me).created;
            rt.thread(me).created += 1;
            let before = rt.names.len();
            let c = rt.names.child(me, nth);
            if rt.names.len() > before {
                rt.new_names.push((me, nth));
            }
            if c.index() >= crate::mem::SLOTS {
                rt.too_many_threads = true;
            }
            *rt.thread(c) = Default::default();
            rt.thread(c).spawn = Some((f as usize, arg as usize));
            c
        });
        visible(Action::Create(child), file, line);
        if !thread.is_null() {
            // SAFETY: the program passed a pointer to its pthread_t.
            unsafe { thread.write(child.0 as libc::pthread_t + 1) };
        }
        0
    })
}

/// Replaces `pthread_join`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_join(
    th: libc::pthread_t,
    ret: *mut *mut c_void,
    file: *const c_char,
    line: c_int,
) -> c_int {
    guard(|| {
        let me = current();
        let Some(t) = tid_of(th) else {
            return libc::ESRCH;
        };
        let ok = with_rt(|rt| rt.threads.get(t.index()).map(|s| (s.exists, s.detached)));
        match ok {
            None | Some((false, _)) => return libc::ESRCH,
            Some((_, true)) => return libc::EINVAL,
            _ => {}
        }
        if t == me {
            return libc::EDEADLK;
        }
        visible(Action::Join(t), file, line);
        if !ret.is_null() {
            let v = with_rt(|rt| rt.thread(t).retval);
            // SAFETY: the program passed a pointer to a void* to receive the value.
            unsafe { ret.write(v as *mut c_void) };
        }
        0
    })
}

/// Replaces `pthread_exit`: the thread's `Exit` becomes its pending action.
#[no_mangle]
pub extern "C" fn __unfold_pthread_exit(v: *mut c_void, file: *const c_char, line: c_int) -> ! {
    guard(|| {
        let me = current();
        with_rt(|rt| rt.thread(me).retval = v as usize);
        visible(Action::Exit, file, line);
        stop()
    })
}

/// Replaces `pthread_self`.
#[no_mangle]
pub extern "C" fn __unfold_pthread_self() -> libc::pthread_t {
    guard(|| current().0 as libc::pthread_t + 1)
}

/// Replaces `pthread_equal`.
#[no_mangle]
pub extern "C" fn __unfold_pthread_equal(a: libc::pthread_t, b: libc::pthread_t) -> c_int {
    (a == b) as c_int
}

/// Replaces `pthread_detach` (local: only join is affected).
#[no_mangle]
pub extern "C" fn __unfold_pthread_detach(th: libc::pthread_t) -> c_int {
    guard(|| {
        let Some(t) = tid_of(th) else {
            return libc::ESRCH;
        };
        with_rt(|rt| match rt.threads.get_mut(t.index()) {
            Some(s) if s.exists => {
                s.detached = true;
                0
            }
            _ => libc::ESRCH,
        })
    })
}

// ---- mutexes ------------------------------------------------------------------------

const NORMAL: c_int = 0;
const RECURSIVE: c_int = 1;
const ERRORCHECK: c_int = 2;
/// Byte offset of glibc's `__kind` in `pthread_mutex_t` (x86-64 and aarch64 alike).
const KIND_OFFSET: usize = 16;

/// The type of a mutex, as stored in it by `pthread_mutex_init` or a static initializer.
///
/// # Safety
/// `m` must point to a `pthread_mutex_t`.
unsafe fn kind_of(m: *const libc::pthread_mutex_t) -> c_int {
    // SAFETY: pthread_mutex_t is at least 40 bytes on glibc; offset 16 is its __kind.
    let k = unsafe { (m as *const u8).add(KIND_OFFSET).cast::<c_int>().read_unaligned() };
    match k & 3 {
        1 => RECURSIVE,
        2 => ERRORCHECK,
        _ => NORMAL,
    }
}

/// What a lock or trylock by the thread that already holds `m` does.
#[derive(Debug, PartialEq, Eq)]
enum Relock {
    /// The thread does not hold `m`: a visible operation follows.
    NotHeld,
    /// `m` is recursive: the count went up, no visible step.
    Counted,
    /// `m` is not recursive and the thread holds it.
    Refused,
}

/// The owner-relock step shared by lock and trylock.
///
/// # Safety
/// `m` must point to a `pthread_mutex_t`.
unsafe fn relock(m: *const libc::pthread_mutex_t, me: ThreadId) -> Relock {
    let addr = m as u64;
    let Some((owner, n)) = with_rt(|rt| rt.held.get(&addr).copied()).filter(|h| h.0 == me) else {
        return Relock::NotHeld;
    };
    // SAFETY: the caller guarantees m points to a mutex.
    if unsafe { kind_of(m) } == RECURSIVE {
        with_rt(|rt| rt.held.insert(addr, (owner, n + 1)));
        Relock::Counted
    } else {
        Relock::Refused
    }
}

/// Replaces `pthread_mutex_init`: records the type (from the attribute) in the mutex.
/// Whether another thread holds the mutex depends on the schedule, so (as for destroy)
/// init is a visible `trylock` plus `unlock`: initialising a held mutex is misuse.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutex_init(
    m: *mut libc::pthread_mutex_t,
    attr: *const libc::pthread_mutexattr_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    guard(|| {
        let me = current();
        let addr = crate::sync::check_mutex(m, "initialises", true, file, line);
        if with_rt(|rt| rt.held.get(&addr).copied()).is_some_and(|h| h.0 == me) {
            misuse(format!("{me} initialises mutex {addr:#x}, which it holds"), file, line);
        }
        if visible(Action::TryLock(ObjId(addr), false), file, line) != 1 {
            misuse(format!("{me} initialises mutex {addr:#x} while another thread holds it"), file, line);
        }
        visible(Action::Unlock(ObjId(addr)), file, line);
        let kind = if attr.is_null() {
            NORMAL
        } else {
            // SAFETY: attr points to an attribute initialised by our mutexattr shims,
            // which keep the type in its first int.
            unsafe { attr.cast::<c_int>().read_unaligned() }
        };
        // SAFETY: m points to a pthread_mutex_t the program owns.
        unsafe {
            std::ptr::write_bytes(m as *mut u8, 0, std::mem::size_of::<libc::pthread_mutex_t>());
            (m as *mut u8).add(KIND_OFFSET).cast::<c_int>().write_unaligned(kind);
        }
        with_rt(|rt| rt.held.remove(&(m as u64)));
        0
    })
}

fn misuse(msg: String, file: *const c_char, line: c_int) -> ! {
    fail(DefectKind::MutexMisuse, msg, site_file_line(file, line))
}

/// Replaces `pthread_mutex_lock`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutex_lock(
    m: *mut libc::pthread_mutex_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    guard(|| {
        let me = current();
        let addr = crate::sync::check_mutex(m, "locks", false, file, line);
        // SAFETY: m is the program's mutex.
        match unsafe { relock(m, me) } {
            Relock::Counted => return 0,
            Relock::Refused => {
                misuse(format!("{me} locks mutex {addr:#x} which it already holds (not a recursive mutex)"), file, line)
            }
            Relock::NotHeld => {}
        }
        visible(Action::Lock(ObjId(addr)), file, line);
        with_rt(|rt| rt.held.insert(addr, (me, 1)));
        0
    })
}

/// Replaces `pthread_mutex_trylock`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutex_trylock(
    m: *mut libc::pthread_mutex_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    guard(|| {
        let me = current();
        let addr = crate::sync::check_mutex(m, "locks", false, file, line);
        // SAFETY: m is the program's mutex.
        match unsafe { relock(m, me) } {
            Relock::Counted => return 0,
            Relock::Refused => return libc::EBUSY,
            Relock::NotHeld => {}
        }
        if visible(Action::TryLock(ObjId(addr), false), file, line) == 1 {
            with_rt(|rt| rt.held.insert(addr, (me, 1)));
            0
        } else {
            libc::EBUSY
        }
    })
}

/// Replaces `pthread_mutex_unlock`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutex_unlock(
    m: *mut libc::pthread_mutex_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    guard(|| {
        let me = current();
        let addr = crate::sync::check_mutex(m, "unlocks", false, file, line);
        match with_rt(|rt| rt.held.get(&addr).copied()) {
            Some((owner, n)) if owner == me && n > 1 => {
                with_rt(|rt| rt.held.insert(addr, (owner, n - 1)));
                0
            }
            Some((owner, _)) if owner == me => {
                visible(Action::Unlock(ObjId(addr)), file, line);
                with_rt(|rt| rt.held.remove(&addr));
                0
            }
            _ => misuse(format!("{me} unlocks mutex {addr:#x} which it does not hold"), file, line),
        }
    })
}

/// Replaces `pthread_mutex_destroy`. Destroying a mutex the thread holds is a defect
/// found locally; whether another thread holds it depends on the schedule, so the check
/// is a visible `trylock` (dependent with every operation on the mutex), followed by an
/// `unlock` when it succeeded.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutex_destroy(
    m: *mut libc::pthread_mutex_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    guard(|| {
        let me = current();
        let addr = crate::sync::check_mutex(m, "destroys", false, file, line);
        if with_rt(|rt| rt.held.get(&addr).copied()).is_some_and(|h| h.0 == me) {
            misuse(format!("{me} destroys mutex {addr:#x} which it holds"), file, line);
        }
        if visible(Action::TryLock(ObjId(addr), false), file, line) == 1 {
            visible(Action::Unlock(ObjId(addr)), file, line);
            // SAFETY: m is the program's mutex (checked readable).
            unsafe { crate::sync::mark_mutex_destroyed(m) };
            0
        } else {
            misuse(format!("{me} destroys mutex {addr:#x} while another thread holds it"), file, line)
        }
    })
}

/// Replaces `pthread_mutexattr_init`: the attribute's first int holds the type.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_init(a: *mut libc::pthread_mutexattr_t) -> c_int {
    if a.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: a points to the program's pthread_mutexattr_t (at least 4 bytes).
    unsafe { a.cast::<c_int>().write_unaligned(NORMAL) };
    0
}

/// Replaces `pthread_mutexattr_destroy`.
#[no_mangle]
pub extern "C" fn __unfold_pthread_mutexattr_destroy(_a: *mut libc::pthread_mutexattr_t) -> c_int {
    0
}

/// Replaces `pthread_mutexattr_settype` (normal, recursive, errorcheck; default = normal).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_settype(a: *mut libc::pthread_mutexattr_t, kind: c_int) -> c_int {
    if a.is_null() || !(0..=3).contains(&kind) {
        return libc::EINVAL;
    }
    let kind = if kind == 3 { NORMAL } else { kind };
    // SAFETY: a points to the program's pthread_mutexattr_t (at least 4 bytes).
    unsafe { a.cast::<c_int>().write_unaligned(kind) };
    0
}

/// Replaces `pthread_mutexattr_gettype`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_gettype(
    a: *const libc::pthread_mutexattr_t,
    kind: *mut c_int,
) -> c_int {
    if a.is_null() || kind.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: both point to program objects of the declared types.
    unsafe { kind.write(a.cast::<c_int>().read_unaligned()) };
    0
}

// ---- heap ---------------------------------------------------------------------------

fn alloc(size: usize) -> *mut u8 {
    with_rt(|rt| {
        let me = rt.current;
        match (&mut rt.arena, rt.active) {
            (Some(a), true) => a.alloc(me, size),
            // SAFETY: outside an execution (constructors at load time): plain libc.
            _ => unsafe { libc::calloc(1, size.max(1)) as *mut u8 },
        }
    })
}

/// Replaces `malloc`: the thread's deterministic arena (zeroed memory).
#[no_mangle]
pub extern "C" fn __unfold_malloc(size: usize) -> *mut c_void {
    guard(|| alloc(size) as *mut c_void)
}

/// Replaces `calloc`.
#[no_mangle]
pub extern "C" fn __unfold_calloc(n: usize, size: usize) -> *mut c_void {
    guard(|| match n.checked_mul(size) {
        Some(s) => alloc(s) as *mut c_void,
        None => std::ptr::null_mut(),
    })
}

/// Replaces `realloc`: a new block and a copy (the arena never reuses memory within an
/// execution, which keeps addresses deterministic).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_realloc(p: *mut c_void, size: usize) -> *mut c_void {
    guard(|| {
        if p.is_null() {
            return alloc(size) as *mut c_void;
        }
        let in_arena = with_rt(|rt| rt.active && rt.arena.as_ref().is_some_and(|a| a.locate(p as u64).is_some()));
        if !in_arena {
            // SAFETY: p came from the libc fallback allocator.
            return unsafe { libc::realloc(p, size) };
        }
        // SAFETY: p was returned by the arena in this execution.
        let old = with_rt(|rt| unsafe { rt.arena.as_ref().map_or(0, |a| a.size_of(p as *mut u8)) });
        let q = alloc(size);
        if !q.is_null() {
            // SAFETY: both blocks are at least min(old, size) bytes and distinct.
            unsafe { std::ptr::copy_nonoverlapping(p as *const u8, q, old.min(size)) };
        }
        q as *mut c_void
    })
}

/// Replaces `free`: a no-op for arena memory (reclaimed when the execution ends).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_free(p: *mut c_void) {
    guard(|| {
        if p.is_null() {
            return;
        }
        let in_arena = with_rt(|rt| rt.arena.as_ref().is_some_and(|a| a.locate(p as u64).is_some()));
        if !in_arena {
            // SAFETY: p came from the libc fallback allocator.
            unsafe { libc::free(p) }
        }
    })
}

// ---- ends and failures ----------------------------------------------------------------

/// Replaces `exit`: the process exit becomes the thread's pending action.
#[no_mangle]
pub extern "C" fn __unfold_exit_at(code: c_int, ra: *mut c_void) -> ! {
    guard(|| {
        with_rt(|rt| rt.exit_code = code);
        suspend(Yield::Pending(Action::ExitProcess, code_site(ra)));
        stop()
    })
}

/// The site of a call whose return address is `ra` (inside the call instruction).
fn code_site(ra: *mut c_void) -> u64 {
    (ra as u64).saturating_sub(1)
}

/// Replaces `abort`.
#[no_mangle]
pub extern "C" fn __unfold_abort_at(ra: *mut c_void) -> ! {
    guard(|| fail(DefectKind::Abort, "abort() called".into(), code_site(ra)))
}

/// Replaces glibc's `__assert_fail` (what `assert` expands to).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_assert_fail(
    expr: *const c_char,
    file: *const c_char,
    line: c_uint,
    func: *const c_char,
) -> ! {
    guard(|| {
        // SAFETY: assert passes string literals.
        let (e, f) = unsafe { (cstr(expr), cstr(func)) };
        let msg =
            if f.is_empty() { format!("assertion `{e}` failed") } else { format!("assertion `{e}` failed in {f}") };
        fail(DefectKind::Assertion, msg, site_file_line(file, line as c_int))
    })
}

/// `__VERIFIER_error` / `reach_error` (via the header's trampoline, with its return
/// address).
#[no_mangle]
pub extern "C" fn __unfold_error_at(ra: *mut c_void) -> ! {
    guard(|| fail(DefectKind::Assertion, "reach_error / __VERIFIER_error reached".into(), (ra as u64).wrapping_sub(1)))
}

/// `__VERIFIER_assume`: a false condition stops the thread (the execution is pruned).
#[no_mangle]
pub extern "C" fn __unfold_VERIFIER_assume(cond: c_int) {
    guard(|| {
        if cond == 0 {
            with_rt(|rt| {
                let me = rt.current;
                rt.assumed.push(me);
            });
            stop();
        }
    })
}

fn atomic_begin(site: u64) {
    let me = current();
    let depth = with_rt(|rt| {
        let d = rt.thread(me).atomic_depth;
        rt.thread(me).atomic_depth += 1;
        d
    });
    if depth == 0 {
        suspend(Yield::Pending(Action::Lock(ATOMIC_OBJ), site));
    }
}

fn atomic_end(site: u64) {
    let me = current();
    let depth = with_rt(|rt| {
        let d = rt.thread(me).atomic_depth;
        rt.thread(me).atomic_depth = d.saturating_sub(1);
        d
    });
    if depth == 1 {
        suspend(Yield::Pending(Action::Unlock(ATOMIC_OBJ), site));
    }
}

/// `__VERIFIER_atomic_begin` (through the header's trampoline, with its return
/// address): enters an atomic section (takes the hidden atomic mutex).
#[no_mangle]
pub extern "C" fn __unfold_atomic_begin_at(ra: *mut c_void) {
    guard(|| atomic_begin(code_site(ra)))
}

/// `__VERIFIER_atomic_end`: leaves an atomic section.
#[no_mangle]
pub extern "C" fn __unfold_atomic_end_at(ra: *mut c_void) {
    guard(|| atomic_end(code_site(ra)))
}

fn is_atomic_fn(f: *mut c_void) -> bool {
    with_rt(|rt| rt.active && rt.atomic_fns.binary_search(&(f as u64)).is_ok())
}

/// `-finstrument-functions` hook: entering a function named `__VERIFIER_atomic_*`.
#[no_mangle]
pub extern "C" fn __unfold_func_enter(f: *mut c_void) {
    guard(|| {
        if is_atomic_fn(f) {
            atomic_begin(0);
        }
    })
}

/// `-finstrument-functions` hook: leaving a function named `__VERIFIER_atomic_*`.
#[no_mangle]
pub extern "C" fn __unfold_func_exit(f: *mut c_void) {
    guard(|| {
        if is_atomic_fn(f) {
            atomic_end(0);
        }
    })
}

/// Addresses of every shim, so that the linker keeps them in the `unfold` binary (which
/// exports them to the program with `--export-dynamic`).
pub fn shim_table() -> [usize; 30] {
    [
        __unfold_pthread_create as *const () as usize,
        __unfold_pthread_join as *const () as usize,
        __unfold_pthread_exit as *const () as usize,
        __unfold_pthread_self as *const () as usize,
        __unfold_pthread_equal as *const () as usize,
        __unfold_pthread_detach as *const () as usize,
        __unfold_pthread_mutex_init as *const () as usize,
        __unfold_pthread_mutex_lock as *const () as usize,
        __unfold_pthread_mutex_trylock as *const () as usize,
        __unfold_pthread_mutex_unlock as *const () as usize,
        __unfold_pthread_mutex_destroy as *const () as usize,
        __unfold_pthread_mutexattr_init as *const () as usize,
        __unfold_pthread_mutexattr_destroy as *const () as usize,
        __unfold_pthread_mutexattr_settype as *const () as usize,
        __unfold_pthread_mutexattr_gettype as *const () as usize,
        __unfold_malloc as *const () as usize,
        __unfold_calloc as *const () as usize,
        __unfold_realloc as *const () as usize,
        __unfold_free as *const () as usize,
        __unfold_exit_at as *const () as usize,
        __unfold_abort_at as *const () as usize,
        __unfold_assert_fail as *const () as usize,
        __unfold_error_at as *const () as usize,
        __unfold_VERIFIER_assume as *const () as usize,
        __unfold_atomic_begin_at as *const () as usize,
        __unfold_atomic_end_at as *const () as usize,
        __unfold_func_enter as *const () as usize,
        __unfold_func_exit as *const () as usize,
        __unfold_pthread_self as *const () as usize,
        __unfold_pthread_equal as *const () as usize,
    ]
}
