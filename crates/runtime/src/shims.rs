//! The C ABI entry points the compiled program calls (declared in `unfold.h`, which
//! renames the libc/pthread functions to them).
//!
//! Every shim is called by a program thread, i.e. on a coroutine of the executor
//! ([`crate::exec`]), except the allocator, which falls back to libc outside an execution
//! (no program code runs there: constructors run inside executions, [`crate::process`]). A shim that
//! performs a visible operation suspends the thread with its pending action and returns
//! when the executor has performed it. No shim lets a panic unwind into C: each body runs
//! under `guard`, which aborts the worker with a message (reported as an internal error).

use crate::exec::{
    fail, site_file_line, site_with_role, stop, suspend, suspend_to, with_rt, Rt, SiteRole, Yield, YielderRef,
    ATOMIC_OBJ,
};
use crate::memory::code_site;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering};
use unfold_engine::{Action, DefectKind, ObjId, ProgramError, ThreadId};

/// Run a shim body; a panic (an unfold bug) aborts instead of unwinding into C. Inlined,
/// so that a shim's switch lies in its own frame (`exec::suspend_on`).
#[inline(always)]
pub(crate) fn guard<R>(f: impl FnOnce() -> R) -> R {
    let body = || {
        // Compiled out of release builds (see `fault_injected`).
        if cfg!(debug_assertions) && fault_injected("shim-panic") {
            panic!("fault injected (UNFOLD_FAULT=shim-panic)");
        }
        // An unwind the panic hook does not see, as a dropped coroutine's.
        if cfg!(debug_assertions) && fault_injected("shim-unwind") {
            std::panic::resume_unwind(Box::new("fault injected (UNFOLD_FAULT=shim-unwind)"));
        }
        f()
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(r) => r,
        // A panic went through the hook, which aborts; what arrives here unwound without
        // it (`resume_unwind`: a suspended coroutine dropped instead of discarded).
        Err(_) => crate::worker::internal_abort("unfold bug: a program thread was unwound inside a C shim"),
    }
}

/// Whether `UNFOLD_FAULT` names `which`, a checker bug to simulate (the callers look only
/// in builds with debug assertions): `shim-panic` makes every shim panic, `shim-unwind`
/// every shim unwind without a panic (as a suspended coroutine's drop does),
/// `worker-panic` the worker's code outside the program. The tests check that such a
/// bug reaches the user as an internal error with its message, not as a crash of the
/// program. `ahead-jitter` is no bug but random delays where the run ahead and the
/// explorer meet (`worker::jitter`), for the stress test of that protocol.
pub(crate) fn fault_injected(which: &str) -> bool {
    static FAULT: std::sync::OnceLock<Option<std::ffi::OsString>> = std::sync::OnceLock::new();
    FAULT.get_or_init(|| std::env::var_os("UNFOLD_FAULT")).as_ref().is_some_and(|v| v == which)
}

/// `pthread_t` values are ThreadId + 1 (so that a zeroed `pthread_t` names no thread).
fn tid_of(p: libc::pthread_t) -> Option<ThreadId> {
    (p >= 1 && p <= u16::MAX as libc::pthread_t).then(|| ThreadId((p - 1) as u16))
}

/// The calling program thread.
pub(crate) fn current() -> ThreadId {
    with_rt(|rt| rt.current)
}

/// Perform the visible operation `a` of the call at `file:line`: suspend until the
/// scheduler runs it, and return the value it resumes with.
#[inline(always)]
pub(crate) fn visible(a: Action, file: *const c_char, line: c_int) -> u64 {
    suspend(Yield::Pending(a, site_file_line(file, line)))
}

/// Before a try operation on `o` at `file:line`: whether it is a counting retry loop's
/// hidden try, which fails without a step (`memory.rs`, "Polls that count"); the last
/// one blocks on the loop's assumption first.
pub(crate) fn hidden_try(o: ObjId, file: *const c_char, line: c_int) -> bool {
    match crate::memory::hidden_try(o, site_file_line(file, line)) {
        crate::memory::Poll::Visible => false,
        crate::memory::Poll::Hidden => true,
        crate::memory::Poll::Cut(w) => {
            visible(w, file, line);
            false
        }
    }
}

/// [`visible`] for an operation that models part of the call at `file:line` (see
/// [`SiteRole`]).
#[inline(always)]
fn visible_as(a: Action, role: SiteRole, file: *const c_char, line: c_int) -> u64 {
    suspend(Yield::Pending(a, site_with_role(site_file_line(file, line), role)))
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

/// Replaces `pthread_create`. An attribute (built by the `pthread_attr_*` shims below)
/// gives the detach state and the stack size.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_create(
    thread: *mut libc::pthread_t,
    attr: *const libc::pthread_attr_t,
    f: Option<unsafe extern "C" fn(*mut c_void) -> *mut c_void>,
    arg: *mut c_void,
    file: *const c_char,
    line: c_int,
) -> c_int {
    guard(|| {
        let Some(f) = f else {
            fail(DefectKind::Crash, "pthread_create with a null start routine".into(), site_file_line(file, line))
        };
        let a = if attr.is_null() {
            Attr::default()
        } else {
            // SAFETY: the program passed a pointer to its attribute object.
            match unsafe { Attr::read(attr) } {
                Some(a) => a,
                None => misuse(
                    "pthread_create with an attribute object not initialised by pthread_attr_init".into(),
                    file,
                    line,
                ),
            }
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
            let now = rt.thread(me).clock_ns;
            *rt.thread(c) = Default::default();
            rt.thread(c).clock_ns = now;
            rt.thread(c).spawn = Some((f as usize, arg as usize));
            rt.thread(c).born_detached = a.detach == libc::PTHREAD_CREATE_DETACHED;
            rt.thread(c).stack_size = a.stacksize;
            // PTHREAD_EXPLICIT_SCHED: the attribute's; else the creator's.
            rt.thread(c).sched = if a.inherit == 1 { (a.policy, a.priority) } else { rt.thread(me).sched };
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
        let ok = with_rt(|rt| rt.threads.get(t.index()).map(|s| (s.exists, s.detached, s.born_detached)));
        match ok {
            None | Some((false, _, _)) => return libc::ESRCH,
            // POSIX leaves a join of a thread that is not joinable undefined (its identity
            // may be reused once it ends), whether it was created detached or detached
            // later; glibc answers EINVAL only while it still runs.
            Some((_, _, true)) => fail(
                DefectKind::SyncMisuse,
                format!("{me} joins {t}, which was created detached (it cannot be joined)"),
                site_file_line(file, line),
            ),
            Some((_, true, _)) => fail(
                DefectKind::SyncMisuse,
                format!("{me} joins {t}, which was detached by pthread_detach (it cannot be joined)"),
                site_file_line(file, line),
            ),
            _ => {}
        }
        if t == me {
            return libc::EDEADLK;
        }
        visible(Action::Join(t), file, line);
        // A thread is joined once (POSIX: joining it again, or from two threads at once,
        // is undefined).
        if let Some(by) = with_rt(|rt| rt.thread(t).joined_by.replace(me)) {
            let msg = if by == me {
                format!("{me} joins {t} a second time (a thread can be joined once)")
            } else {
                format!("{me} joins {t}, which {by} already joined (a thread can be joined once)")
            };
            fail(DefectKind::SyncMisuse, msg, site_file_line(file, line))
        }
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
        crate::exec::run_key_destructors(me);
        visible(Action::Exit, file, line);
        stop()
    })
}

/// Replaces `pthread_self`.
#[no_mangle]
pub extern "C" fn __unfold_pthread_self() -> libc::pthread_t {
    guard(|| current().0 as libc::pthread_t + 1)
}

/// glibc's `rand`/`random` generator (the default `TYPE_3` state: additive feedback
/// `r[i] = r[i-3] + r[i-31]` over 34 words, seeded by `r[i] = 16807 * r[i-1] mod 2^31 - 1`,
/// the first 310 outputs dropped, each output `r[i] >> 1`): the program sees the values it
/// sees natively (1804289383, 846930886... without `srand`).
#[derive(Clone, Debug)]
pub(crate) struct RandState {
    r: [u32; 34],
    /// Where the next value goes (the ring's oldest entry).
    pos: usize,
}

impl RandState {
    fn seeded(seed: u32) -> RandState {
        let mut r = [0u32; 34];
        r[0] = if seed == 0 { 1 } else { seed };
        for i in 1..31 {
            let v = (16807 * i64::from(r[i - 1] as i32)) % 2_147_483_647;
            r[i] = (if v < 0 { v + 2_147_483_647 } else { v }) as u32;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut s = RandState { r, pos: 0 };
        for _ in 0..310 {
            s.next();
        }
        s
    }

    fn next(&mut self) -> c_int {
        let v = self.r[(self.pos + 3) % 34].wrapping_add(self.r[(self.pos + 31) % 34]);
        self.r[self.pos] = v;
        self.pos = (self.pos + 1) % 34;
        (v >> 1) as c_int
    }
}

/// Replaces `rand` and `random`: glibc's sequence (`RandState`), one per thread, the
/// same in every execution, instead of libc's one state for the process, which would
/// outlive an execution (the persistent worker runs many) and make a thread's values
/// depend on the other threads' calls (a schedule-dependent choice no explorer could
/// replay). A loop that calls it is never a pure iteration (its next value may end the
/// loop).
#[no_mangle]
pub extern "C" fn __unfold_rand() -> c_int {
    with_rt(|rt| {
        let t = rt.current;
        let r = rt.thread(t).rand.get_or_insert_with(|| RandState::seeded(1)).next();
        crate::memory::spin_changed(rt);
        r
    })
}

/// Replaces `srand` (and `srandom`): seeds the calling thread's sequence ([`__unfold_rand`]).
#[no_mangle]
pub extern "C" fn __unfold_srand(seed: std::ffi::c_uint) {
    with_rt(|rt| {
        let t = rt.current;
        rt.thread(t).rand = Some(RandState::seeded(seed));
        crate::memory::spin_changed(rt);
    });
}

/// Replaces `random`: the same sequence as [`__unfold_rand`]'s (`random` returns a long).
#[no_mangle]
pub extern "C" fn __unfold_random() -> std::ffi::c_long {
    __unfold_rand() as std::ffi::c_long
}

// ---- time -------------------------------------------------------------------------------
//
// Time is virtual: every schedule is explored whatever the threads' timing, so the clock
// only has to be deterministic and to move when the program needs it to. Each thread has
// its own time (`clock_ns`, nanoseconds since the execution began; a child starts at its
// creator's: a shared clock would make each reading depend on the other threads'
// readings, which the explorers do not order). A sleep adds its duration. A reading of a
// clock adds nothing when the thread made a visible step since its last reading: a loop
// that recomputes a deadline around a timed wait (`clock_gettime(&ts); ts.tv_sec += 1;
// pthread_cond_timedwait(..., &ts)`), or that keeps a time stamp (`last = time(NULL)`),
// comes back to the same state and waits like any other loop, instead of being explored
// iteration by iteration. Readings with no visible step between them (a busy delay on
// the clock, which has no scheduling point to wait at) move it by [`CLOCK_TICK_NS`]. And
// when a loop that read a clock comes back to a state it was in, its thread's time jumps
// by [`CLOCK_JUMP_NS`], once (`memory::checkpoint`): a loop that gives up at a deadline
// (`while (!ready) if (time(NULL) - start > 2) give_up();`) reaches it and its give-up is
// explored. The values are the same in every execution (a seed from the clock replays).

/// What a reading of a clock adds when the thread made no visible step since its last
/// reading: a millisecond.
pub const CLOCK_TICK_NS: u64 = 1_000_000;
/// How far a thread's time jumps when a loop that read a clock repeats a state: a day,
/// past any deadline a program sets.
pub const CLOCK_JUMP_NS: u64 = 86_400 * NS_PER_S;
/// `CLOCK_REALTIME` when an execution begins: 2026-01-01T00:00:00Z.
const REALTIME_START_S: u64 = 1_767_225_600;
/// `CLOCK_MONOTONIC` (and `CLOCK_BOOTTIME`) when an execution begins: a day of uptime.
const MONOTONIC_START_S: u64 = 86_400;
const NS_PER_S: u64 = 1_000_000_000;

/// Advance the calling thread's virtual time by `ns`; returns the new time.
fn advance(ns: u64) -> u64 {
    with_rt(|rt| {
        let t = rt.current;
        let th = rt.thread(t);
        th.clock_ns = th.clock_ns.saturating_add(ns);
        th.clock_ns
    })
}

/// A reading of the calling thread's virtual time (nanoseconds since the execution
/// began): [`CLOCK_TICK_NS`] later than the last one if the thread made no visible step
/// since. Counted for spin detection (`SpinTracker::clock_reads`).
fn read_clock() -> u64 {
    with_rt(|rt| {
        let steps = rt.steps_done;
        let t = rt.current;
        let th = rt.thread(t);
        if th.clock_steps == steps {
            th.clock_ns = th.clock_ns.saturating_add(CLOCK_TICK_NS);
        }
        th.clock_steps = steps;
        th.spin.clock_reads = th.spin.clock_reads.saturating_add(1);
        th.clock_ns
    })
}

/// A reading of the virtual realtime clock, in nanoseconds since the epoch.
fn realtime() -> u64 {
    REALTIME_START_S * NS_PER_S + read_clock()
}

/// The value of clock `clk` at virtual time `now`, in nanoseconds; `None` for a clock
/// unfold does not know.
fn clock_value(clk: libc::clockid_t, now: u64) -> Option<u64> {
    let start = match clk {
        libc::CLOCK_REALTIME | libc::CLOCK_REALTIME_COARSE | libc::CLOCK_TAI => REALTIME_START_S,
        libc::CLOCK_MONOTONIC | libc::CLOCK_MONOTONIC_RAW | libc::CLOCK_MONOTONIC_COARSE | libc::CLOCK_BOOTTIME => {
            MONOTONIC_START_S
        }
        libc::CLOCK_PROCESS_CPUTIME_ID | libc::CLOCK_THREAD_CPUTIME_ID => 0,
        _ => return None,
    };
    Some(start * NS_PER_S + now)
}

fn timespec(ns: u64) -> libc::timespec {
    libc::timespec { tv_sec: (ns / NS_PER_S) as libc::time_t, tv_nsec: (ns % NS_PER_S) as libc::c_long }
}

/// Nanoseconds in a `timespec` (negative fields count as zero).
fn nanos(ts: &libc::timespec) -> u64 {
    (ts.tv_sec.max(0) as u64).saturating_mul(NS_PER_S).saturating_add(ts.tv_nsec.max(0) as u64)
}

/// Replaces `clock_gettime`: the calling thread's virtual time (its own, frozen between
/// its visible steps), on the realtime clock from 2026-01-01, on the monotonic ones from
/// a day, on the CPU-time ones from zero. `EINVAL` for another clock.
///
/// # Safety
/// `ts` is null or points to a writable `timespec`, as `clock_gettime` requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_clock_gettime(clk: libc::clockid_t, ts: *mut libc::timespec) -> c_int {
    let Some(v) = clock_value(clk, read_clock()) else {
        crate::sync::set_errno(libc::EINVAL);
        return -1;
    };
    if !ts.is_null() {
        // SAFETY: by the contract, a non-null `ts` is a writable timespec.
        unsafe { *ts = timespec(v) };
    }
    0
}

/// Replaces `time`: seconds of the virtual realtime clock ([`__unfold_clock_gettime`]).
///
/// # Safety
/// `t` is null or points to a writable `time_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_time(t: *mut libc::time_t) -> libc::time_t {
    let v = realtime() / NS_PER_S;
    if !t.is_null() {
        // SAFETY: by the contract, a non-null `t` is writable.
        unsafe { *t = v as libc::time_t };
    }
    v as libc::time_t
}

/// Replaces `gettimeofday`: the virtual realtime clock in microseconds; a time zone, if
/// asked, is UTC.
///
/// # Safety
/// `tv` is null or points to a writable `struct timeval`; `tz` is null or points to a
/// writable `struct timezone` (two ints).
#[no_mangle]
pub unsafe extern "C" fn __unfold_gettimeofday(tv: *mut libc::timeval, tz: *mut c_int) -> c_int {
    let v = realtime();
    if !tv.is_null() {
        let tv_usec = ((v % NS_PER_S) / 1000) as libc::suseconds_t;
        // SAFETY: by the contract, a non-null `tv` is a writable timeval.
        unsafe { *tv = libc::timeval { tv_sec: (v / NS_PER_S) as libc::time_t, tv_usec } };
    }
    if !tz.is_null() {
        // SAFETY: by the contract, a non-null `tz` points to two writable ints.
        unsafe { std::ptr::write_bytes(tz, 0, 2) };
    }
    0
}

/// Replaces `clock`: the calling thread's virtual time as processor time, in
/// microseconds (`CLOCKS_PER_SEC` is 1 000 000).
#[no_mangle]
pub extern "C" fn __unfold_clock() -> libc::clock_t {
    (read_clock() / 1000) as libc::clock_t
}

/// Replaces `timespec_get`: `TIME_UTC` (1) is the virtual realtime clock; another base is
/// unsupported (0).
///
/// # Safety
/// `ts` points to a writable `timespec`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_timespec_get(ts: *mut libc::timespec, base: c_int) -> c_int {
    if base != 1 || ts.is_null() {
        return 0;
    }
    // SAFETY: by the contract, `ts` is a writable timespec.
    unsafe { *ts = timespec(realtime()) };
    base
}

/// Replaces `sleep`: returns at once (0: the whole time "elapsed"), the thread's virtual
/// time that much later. Every schedule is explored whatever the threads' timing, so
/// sleeping would only cost time.
#[no_mangle]
pub extern "C" fn __unfold_sleep(seconds: std::ffi::c_uint) -> std::ffi::c_uint {
    advance(u64::from(seconds) * NS_PER_S);
    0
}

/// Replaces `usleep` (see [`__unfold_sleep`]).
#[no_mangle]
pub extern "C" fn __unfold_usleep(micros: libc::useconds_t) -> c_int {
    advance(u64::from(micros) * 1000);
    0
}

/// Replaces `nanosleep` (see [`__unfold_sleep`]): no time remains.
///
/// # Safety
/// `req` is null or points to a `timespec`; `rem` is null or points to a writable one, as
/// `nanosleep` requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_nanosleep(req: *const libc::timespec, rem: *mut libc::timespec) -> c_int {
    if !req.is_null() {
        // SAFETY: by the contract, a non-null `req` is a readable timespec.
        advance(nanos(unsafe { &*req }));
    }
    if !rem.is_null() {
        // SAFETY: by the contract, a non-null `rem` is a writable timespec.
        unsafe { *rem = libc::timespec { tv_sec: 0, tv_nsec: 0 } };
    }
    0
}

/// Replaces `thrd_sleep` (C11; see [`__unfold_nanosleep`]).
///
/// # Safety
/// As for [`__unfold_nanosleep`].
#[no_mangle]
pub unsafe extern "C" fn __unfold_thrd_sleep(req: *const libc::timespec, rem: *mut libc::timespec) -> c_int {
    // SAFETY: the same contract.
    unsafe { __unfold_nanosleep(req, rem) }
}

/// Replaces `clock_nanosleep`: a relative sleep as [`__unfold_nanosleep`]; an absolute
/// one (`TIMER_ABSTIME`) moves the thread's virtual time to the deadline if it is ahead.
///
/// # Safety
/// As for [`__unfold_nanosleep`].
#[no_mangle]
pub unsafe extern "C" fn __unfold_clock_nanosleep(
    clk: libc::clockid_t,
    flags: c_int,
    req: *const libc::timespec,
    rem: *mut libc::timespec,
) -> c_int {
    if flags & libc::TIMER_ABSTIME == 0 {
        // SAFETY: the same contract.
        return unsafe { __unfold_nanosleep(req, rem) };
    }
    let now = with_rt(|rt| {
        let t = rt.current;
        rt.thread(t).clock_ns
    });
    let (Some(at), false) = (clock_value(clk, now), req.is_null()) else { return libc::EINVAL };
    // SAFETY: by the contract, `req` is a readable timespec.
    let deadline = nanos(unsafe { &*req });
    advance(deadline.saturating_sub(at));
    0
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
            Some(s) if s.exists && (s.detached || s.born_detached) => libc::EINVAL,
            Some(s) if s.exists => {
                s.detached = true;
                0
            }
            _ => libc::ESRCH,
        })
    })
}

/// glibc's `PTHREAD_CANCEL_DISABLE` (`PTHREAD_CANCEL_ENABLE` is 0).
const PTHREAD_CANCEL_DISABLE: c_int = 1;
/// glibc's `PTHREAD_CANCEL_ASYNCHRONOUS` (`PTHREAD_CANCEL_DEFERRED` is 0).
const PTHREAD_CANCEL_ASYNCHRONOUS: c_int = 1;

/// Replaces `pthread_setcancelstate`. No thread is ever cancelled (`pthread_cancel` is
/// refused before exploring), so the state only answers the next call's `old`.
///
/// # Safety
/// `old` is null or points to an `int`, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_setcancelstate(state: c_int, old: *mut c_int) -> c_int {
    // SAFETY: by the contract.
    unsafe { set_cancel(state, PTHREAD_CANCEL_DISABLE, old, |c| &mut c.0) }
}

/// Replaces `pthread_setcanceltype` (see [`__unfold_pthread_setcancelstate`]).
///
/// # Safety
/// `old` is null or points to an `int`, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_setcanceltype(kind: c_int, old: *mut c_int) -> c_int {
    // SAFETY: by the contract.
    unsafe { set_cancel(kind, PTHREAD_CANCEL_ASYNCHRONOUS, old, |c| &mut c.1) }
}

/// The thread's cancellation flag chosen by `field`: `value` is 0 (enable, deferred) or
/// `set` (disable, asynchronous); the previous value goes to `old` when it is not null.
///
/// # Safety
/// `old` is null or points to an `int`.
unsafe fn set_cancel(value: c_int, set: c_int, old: *mut c_int, field: fn(&mut (bool, bool)) -> &mut bool) -> c_int {
    if value != 0 && value != set {
        return libc::EINVAL;
    }
    guard(|| {
        let was = with_rt(|rt| {
            let cur = rt.current;
            std::mem::replace(field(&mut rt.thread(cur).cancel), value == set)
        });
        if !old.is_null() {
            // SAFETY: by the contract, a non-null `old` is a writable int.
            unsafe { old.write_unaligned(if was { set } else { 0 }) };
        }
        0
    })
}

/// Replaces `pthread_testcancel`: no cancellation is ever pending (`pthread_cancel` is
/// refused), so it returns at once.
#[no_mangle]
pub extern "C" fn __unfold_pthread_testcancel() {}

/// Replaces `pthread_setname_np`: the name (at most 15 bytes, else `ERANGE`) is kept for
/// `pthread_getname_np`.
///
/// # Safety
/// `name` points to a NUL-terminated string, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_setname_np(th: libc::pthread_t, name: *const c_char) -> c_int {
    // SAFETY: by the contract.
    let bytes = unsafe { std::ffi::CStr::from_ptr(name) }.to_bytes();
    if bytes.len() > 15 {
        return libc::ERANGE;
    }
    let mut kept = [0u8; 16];
    kept[..bytes.len()].copy_from_slice(bytes);
    with_live_thread(th, |s| s.name_np = Some(kept)).map_or(libc::ESRCH, |()| 0)
}

/// Replaces `pthread_getname_np`: the name set with `pthread_setname_np`, else the
/// process's name (as Linux gives a thread that was never named); `ERANGE` if `len`
/// cannot hold it with its NUL.
///
/// # Safety
/// `buf` points to `len` writable bytes, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_getname_np(th: libc::pthread_t, buf: *mut c_char, len: usize) -> c_int {
    let Some(named) = with_live_thread(th, |s| s.name_np) else {
        return libc::ESRCH;
    };
    let name = named.unwrap_or_else(|| {
        let mut comm = [0u8; 16];
        // SAFETY: PR_GET_NAME writes at most 16 bytes, NUL included, into `comm`.
        unsafe { libc::prctl(libc::PR_GET_NAME, comm.as_mut_ptr()) };
        comm
    });
    let n = name.iter().position(|&b| b == 0).unwrap_or(15);
    if len < n + 1 {
        return libc::ERANGE;
    }
    // SAFETY: by the contract `buf` holds `len` >= n + 1 bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(name.as_ptr(), buf.cast::<u8>(), n);
        buf.add(n).write(0);
    }
    0
}

/// The priorities of scheduling policy `policy`, `None` for a policy Linux does not
/// have (`SCHED_OTHER`, `SCHED_BATCH` and `SCHED_IDLE` have only 0; `SCHED_FIFO` and
/// `SCHED_RR` 1 to 99).
fn sched_priorities(policy: c_int) -> Option<std::ops::RangeInclusive<c_int>> {
    // SAFETY: sched_get_priority_min/max take a policy and touch no memory.
    let (lo, hi) = unsafe { (libc::sched_get_priority_min(policy), libc::sched_get_priority_max(policy)) };
    (lo >= 0 && hi >= lo).then_some(lo..=hi)
}

/// `f` of the state of thread `th`; `None` for a thread that does not exist (`ESRCH`).
fn with_live_thread<R>(th: libc::pthread_t, f: impl FnOnce(&mut crate::exec::ThreadRt) -> R) -> Option<R> {
    guard(|| {
        let t = tid_of(th)?;
        with_rt(|rt| rt.threads.get_mut(t.index()).filter(|s| s.exists).map(f))
    })
}

/// Apply `f` to the scheduling state of thread `th` (`ESRCH` for a thread that does not
/// exist).
fn with_sched(th: libc::pthread_t, f: impl FnOnce(&mut (c_int, c_int)) -> c_int) -> c_int {
    with_live_thread(th, |s| f(&mut s.sched)).unwrap_or(libc::ESRCH)
}

/// Replaces `pthread_setschedparam`: the policy and priority are kept (per execution)
/// for `pthread_getschedparam`; they only restrict which thread runs when several could,
/// and unfold explores every choice. A policy Linux does not have, or a priority outside
/// its range (`sched_get_priority_min`/`max`), is `EINVAL`. Unlike Linux, a real-time
/// policy never fails for lack of privilege (`EPERM`): the verdict must not depend on
/// who runs the checker.
///
/// # Safety
/// `p` must be null or point to a `sched_param`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_setschedparam(
    th: libc::pthread_t,
    policy: c_int,
    p: *const libc::sched_param,
) -> c_int {
    if p.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    let prio = unsafe { p.read_unaligned() }.sched_priority;
    if !sched_priorities(policy).is_some_and(|r| r.contains(&prio)) {
        return libc::EINVAL;
    }
    with_sched(th, |s| {
        *s = (policy, prio);
        0
    })
}

/// Replaces `pthread_getschedparam`: the thread's policy and priority (see
/// `setschedparam`; initially `SCHED_OTHER` and 0, the creator's, or the creating
/// attribute's with `PTHREAD_EXPLICIT_SCHED`).
///
/// # Safety
/// `policy` and `p` must be null or point to an `int` and a `sched_param`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_getschedparam(
    th: libc::pthread_t,
    policy: *mut c_int,
    p: *mut libc::sched_param,
) -> c_int {
    if policy.is_null() || p.is_null() {
        return libc::EINVAL;
    }
    let Some((pol, prio)) = with_live_thread(th, |s| s.sched) else {
        return libc::ESRCH;
    };
    // SAFETY: by the contract, both non-null and writable.
    unsafe {
        policy.write_unaligned(pol);
        p.write_unaligned(libc::sched_param { sched_priority: prio });
    }
    0
}

/// Replaces `pthread_setschedprio`: the priority, in the range of the thread's policy
/// (else `EINVAL`), kept as by `setschedparam`.
#[no_mangle]
pub extern "C" fn __unfold_pthread_setschedprio(th: libc::pthread_t, prio: c_int) -> c_int {
    with_sched(th, |s| {
        if !sched_priorities(s.0).is_some_and(|r| r.contains(&prio)) {
            return libc::EINVAL;
        }
        s.1 = prio;
        0
    })
}

/// Bytes of a `cpu_set_t` (1024 CPUs).
const CPUSET_BYTES: usize = std::mem::size_of::<[u64; 16]>();

/// The CPUs the checker's process may run on, read once: the affinity of a thread that
/// never set one (the same in every execution of a run).
fn process_affinity() -> [u64; 16] {
    static ONCE: std::sync::OnceLock<[u64; 16]> = std::sync::OnceLock::new();
    *ONCE.get_or_init(|| {
        let mut set = [0u64; 16];
        // SAFETY: `set` has CPUSET_BYTES writable bytes, the size passed.
        let r = unsafe { libc::sched_getaffinity(0, CPUSET_BYTES, set.as_mut_ptr().cast()) };
        if r != 0 || set.iter().all(|&w| w == 0) {
            set[0] = 1;
        }
        set
    })
}

/// Replaces `pthread_setaffinity_np`: the set is kept (per execution) for
/// `pthread_getaffinity_np`; unfold runs threads as on a machine with a core for each,
/// so it restricts nothing. A set with no CPU the process may run on is `EINVAL`, as is
/// a CPU beyond the 1024 of a `cpu_set_t`.
///
/// # Safety
/// `set` must point to `size` readable bytes, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_setaffinity_np(
    th: libc::pthread_t,
    size: usize,
    set: *const libc::cpu_set_t,
) -> c_int {
    if set.is_null() {
        return libc::EFAULT;
    }
    let mut kept = [0u64; 16];
    let bytes = set.cast::<u8>();
    for i in 0..size {
        // SAFETY: by the contract, `size` readable bytes.
        let b = unsafe { bytes.add(i).read() };
        match kept.get_mut(i / 8) {
            Some(w) => *w |= u64::from(b) << (8 * (i % 8)),
            None if b != 0 => return libc::EINVAL,
            None => {}
        }
    }
    let allowed = process_affinity();
    if kept.iter().zip(allowed).all(|(k, a)| k & a == 0) {
        return libc::EINVAL;
    }
    with_live_thread(th, |s| s.affinity = Some(kept)).map_or(libc::ESRCH, |()| 0)
}

/// Replaces `pthread_getaffinity_np`: the set last given to `pthread_setaffinity_np` for
/// that thread in this execution, else every CPU the process may run on; `EINVAL` if
/// `size` cannot hold the set (bytes past it are zeroed).
///
/// # Safety
/// `set` must point to `size` writable bytes, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_getaffinity_np(
    th: libc::pthread_t,
    size: usize,
    set: *mut libc::cpu_set_t,
) -> c_int {
    if set.is_null() {
        return libc::EFAULT;
    }
    let Some(kept) = with_live_thread(th, |s| s.affinity) else {
        return libc::ESRCH;
    };
    let words = kept.unwrap_or_else(process_affinity);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let used = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    if size < used {
        return libc::EINVAL;
    }
    for i in 0..size {
        // SAFETY: by the contract, `size` writable bytes.
        unsafe { set.cast::<u8>().add(i).write(bytes.get(i).copied().unwrap_or(0)) };
    }
    0
}

/// Replaces `pthread_atfork`: the handlers could only run at a `fork`, which unfold
/// refuses, so they are accepted and never called.
#[no_mangle]
pub extern "C" fn __unfold_pthread_atfork(
    _prepare: Option<extern "C" fn()>,
    _parent: Option<extern "C" fn()>,
    _child: Option<extern "C" fn()>,
) -> c_int {
    0
}

/// Stop the execution with an error: the program asked for something unfold cannot
/// honour (reported as such, never silently ignored).
pub(crate) fn unsupported(msg: String) -> ! {
    with_rt(|rt| rt.unsupported = Some(ProgramError::Unsupported(msg)));
    stop()
}

// ---- thread attributes --------------------------------------------------------------

/// What the `pthread_attr_*` shims keep in the program's `pthread_attr_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Attr {
    magic: u32,
    detach: c_int,
    scope: c_int,
    policy: c_int,
    inherit: c_int,
    priority: c_int,
    /// 0: the default stack size.
    stacksize: usize,
    guardsize: usize,
}

const ATTR_MAGIC: u32 = 0x756e_6174;
const _: () = assert!(std::mem::size_of::<Attr>() <= std::mem::size_of::<libc::pthread_attr_t>());

impl Default for Attr {
    fn default() -> Self {
        Attr {
            magic: ATTR_MAGIC,
            detach: libc::PTHREAD_CREATE_JOINABLE,
            scope: 0, // PTHREAD_SCOPE_SYSTEM
            policy: libc::SCHED_OTHER,
            inherit: 0, // PTHREAD_INHERIT_SCHED
            priority: 0,
            stacksize: 0,
            guardsize: 4096,
        }
    }
}

impl Attr {
    /// The attribute at `a`, if `pthread_attr_init` initialised it.
    ///
    /// # Safety
    /// `a` must point to a `pthread_attr_t`.
    unsafe fn read(a: *const libc::pthread_attr_t) -> Option<Attr> {
        // SAFETY: a pthread_attr_t is at least as large as Attr (asserted above); any bit
        // pattern is a valid Attr.
        let v = unsafe { a.cast::<Attr>().read_unaligned() };
        (v.magic == ATTR_MAGIC).then_some(v)
    }
}

/// Apply `f` to the attribute at `a` (EINVAL when null or not initialised).
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
unsafe fn with_attr(a: *mut libc::pthread_attr_t, f: impl FnOnce(&mut Attr) -> c_int) -> c_int {
    if a.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    let Some(mut v) = (unsafe { Attr::read(a) }) else { return libc::EINVAL };
    let r = f(&mut v);
    // SAFETY: by the contract; Attr fits in a pthread_attr_t.
    unsafe { a.cast::<Attr>().write_unaligned(v) };
    r
}

/// Read a field of the attribute at `a` into `out`.
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`, `out` null or point to a `T`.
unsafe fn attr_get<T>(a: *const libc::pthread_attr_t, out: *mut T, f: impl FnOnce(&Attr) -> T) -> c_int {
    if a.is_null() || out.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    match unsafe { Attr::read(a) } {
        Some(v) => {
            // SAFETY: by the contract.
            unsafe { out.write(f(&v)) };
            0
        }
        None => libc::EINVAL,
    }
}

/// Replaces `pthread_attr_init`.
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_init(a: *mut libc::pthread_attr_t) -> c_int {
    if a.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: a points to the program's pthread_attr_t, large enough for Attr.
    unsafe { a.cast::<Attr>().write_unaligned(Attr::default()) };
    0
}

/// Replaces `pthread_attr_destroy`.
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_destroy(a: *mut libc::pthread_attr_t) -> c_int {
    // SAFETY: by the contract.
    unsafe {
        with_attr(a, |v| {
            v.magic = 0;
            0
        })
    }
}

/// Replaces `pthread_attr_setdetachstate`: a thread created detached cannot be joined.
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_setdetachstate(a: *mut libc::pthread_attr_t, d: c_int) -> c_int {
    if d != libc::PTHREAD_CREATE_JOINABLE && d != libc::PTHREAD_CREATE_DETACHED {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe {
        with_attr(a, |v| {
            v.detach = d;
            0
        })
    }
}

/// Replaces `pthread_attr_getdetachstate`.
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_getdetachstate(a: *const libc::pthread_attr_t, d: *mut c_int) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_get(a, d, |v| v.detach) }
}

/// Replaces `pthread_attr_setstacksize`: honoured (the thread's stack has that size,
/// rounded up to pages); sizes above [`crate::mem::MAX_STACK`] stop the exploration with
/// an error.
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_setstacksize(a: *mut libc::pthread_attr_t, size: usize) -> c_int {
    guard(|| {
        if size < crate::mem::MIN_STACK {
            return libc::EINVAL;
        }
        if size > crate::mem::MAX_STACK {
            unsupported(format!(
                "pthread_attr_setstacksize({size}): unfold supports thread stacks of at most {} MiB",
                crate::mem::MAX_STACK >> 20
            ));
        }
        // SAFETY: by the contract.
        unsafe {
            with_attr(a, |v| {
                v.stacksize = size;
                0
            })
        }
    })
}

/// Replaces `pthread_attr_getstacksize` (the default size when none was set).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_getstacksize(a: *const libc::pthread_attr_t, size: *mut usize) -> c_int {
    guard(|| {
        let default = with_rt(|rt| rt.default_stack);
        // SAFETY: by the contract.
        unsafe { attr_get(a, size, |v| if v.stacksize == 0 { default } else { v.stacksize }) }
    })
}

/// Replaces `pthread_attr_setguardsize`: recorded; every stack already has a guard
/// region of at least 128 MiB below it.
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_setguardsize(a: *mut libc::pthread_attr_t, size: usize) -> c_int {
    // SAFETY: by the contract.
    unsafe {
        with_attr(a, |v| {
            v.guardsize = size;
            0
        })
    }
}

/// Replaces `pthread_attr_getguardsize`.
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_getguardsize(a: *const libc::pthread_attr_t, size: *mut usize) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_get(a, size, |v| v.guardsize) }
}

/// Replaces `pthread_attr_setscope`: system scope only (process scope is ENOTSUP, as on
/// Linux).
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_setscope(a: *mut libc::pthread_attr_t, scope: c_int) -> c_int {
    match scope {
        0 => {}
        1 => return libc::ENOTSUP,
        _ => return libc::EINVAL,
    }
    // SAFETY: by the contract.
    unsafe {
        with_attr(a, |v| {
            v.scope = scope;
            0
        })
    }
}

/// Replaces `pthread_attr_getscope`.
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_getscope(a: *const libc::pthread_attr_t, scope: *mut c_int) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_get(a, scope, |v| v.scope) }
}

/// Replaces `pthread_attr_setschedpolicy`: recorded. Priorities only restrict which
/// schedules a real system runs; unfold explores all of them, so nothing is lost.
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_setschedpolicy(a: *mut libc::pthread_attr_t, p: c_int) -> c_int {
    if ![libc::SCHED_OTHER, libc::SCHED_FIFO, libc::SCHED_RR].contains(&p) {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe {
        with_attr(a, |v| {
            v.policy = p;
            0
        })
    }
}

/// Replaces `pthread_attr_getschedpolicy`.
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_getschedpolicy(a: *const libc::pthread_attr_t, p: *mut c_int) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_get(a, p, |v| v.policy) }
}

/// Replaces `pthread_attr_setinheritsched`: recorded (see `setschedpolicy`).
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_setinheritsched(a: *mut libc::pthread_attr_t, i: c_int) -> c_int {
    if i != 0 && i != 1 {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe {
        with_attr(a, |v| {
            v.inherit = i;
            0
        })
    }
}

/// Replaces `pthread_attr_getinheritsched`.
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_getinheritsched(a: *const libc::pthread_attr_t, i: *mut c_int) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_get(a, i, |v| v.inherit) }
}

/// Replaces `pthread_attr_setschedparam`: recorded (see `setschedpolicy`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_setschedparam(
    a: *mut libc::pthread_attr_t,
    p: *const libc::sched_param,
) -> c_int {
    if p.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: p points to the program's sched_param.
    let prio = unsafe { (*p).sched_priority };
    // SAFETY: by the contract.
    unsafe {
        with_attr(a, |v| {
            v.priority = prio;
            0
        })
    }
}

/// Replaces `pthread_attr_getschedparam`.
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_getschedparam(
    a: *const libc::pthread_attr_t,
    p: *mut libc::sched_param,
) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_get(a, p, |v| libc::sched_param { sched_priority: v.priority }) }
}

/// Replaces `pthread_attr_getstack`: no stack address (null: unfold places every stack
/// itself, `pthread_attr_setstack` is refused, as glibc answers for an attribute whose
/// stack was not set) and the stack size of `pthread_attr_getstacksize`.
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_getstack(
    a: *const libc::pthread_attr_t,
    addr: *mut *mut c_void,
    size: *mut usize,
) -> c_int {
    if addr.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    let r = unsafe { __unfold_pthread_attr_getstacksize(a, size) };
    if r == 0 {
        // SAFETY: by the contract, non-null and writable.
        unsafe { addr.write_unaligned(std::ptr::null_mut()) };
    }
    r
}

/// Replaces `pthread_attr_getstackaddr`: null (see `pthread_attr_getstack`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_attr_getstackaddr(
    a: *const libc::pthread_attr_t,
    addr: *mut *mut c_void,
) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_get(a, addr, |_| std::ptr::null_mut()) }
}

/// Replaces `pthread_getattr_np`: initialises `a` (the program destroys it) with thread
/// `th`'s detach state, stack size, scheduling policy and priority
/// (`PTHREAD_EXPLICIT_SCHED`, as glibc), the default guard size and no stack address
/// (see `pthread_attr_getstack`).
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_getattr_np(th: libc::pthread_t, a: *mut libc::pthread_attr_t) -> c_int {
    if a.is_null() {
        return libc::EINVAL;
    }
    let filled = guard(|| {
        let t = tid_of(th)?;
        with_rt(|rt| {
            let default = rt.default_stack;
            let s = rt.threads.get(t.index()).filter(|s| s.exists)?;
            Some(Attr {
                detach: if s.detached || s.born_detached {
                    libc::PTHREAD_CREATE_DETACHED
                } else {
                    libc::PTHREAD_CREATE_JOINABLE
                },
                inherit: 1, // PTHREAD_EXPLICIT_SCHED
                policy: s.sched.0,
                priority: s.sched.1,
                stacksize: if s.stack_size == 0 { default } else { s.stack_size },
                ..Attr::default()
            })
        })
    });
    let Some(v) = filled else {
        return libc::ESRCH;
    };
    // SAFETY: by the contract; Attr fits in a pthread_attr_t.
    unsafe { a.cast::<Attr>().write_unaligned(v) };
    0
}

/// Replaces `pthread_getattr_default_np`: the attributes `pthread_create` uses for a
/// null attribute (those of `pthread_attr_init`; `pthread_setattr_default_np` is refused).
///
/// # Safety
/// `a` must be null or point to a `pthread_attr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_getattr_default_np(a: *mut libc::pthread_attr_t) -> c_int {
    // SAFETY: by the contract.
    unsafe { __unfold_pthread_attr_init(a) }
}

// ---- thread-specific data -----------------------------------------------------------

/// glibc's `PTHREAD_KEYS_MAX`.
const KEYS_MAX: usize = 1024;

/// A new key with destructor `dtor` (0: none). Key numbers are deterministic: the
/// creating thread's index and how many keys it created before, so that the same key
/// has the same number in every execution whatever other threads did.
fn key_create(dtor: usize) -> Result<u32, c_int> {
    with_rt(|rt| {
        let me = rt.current;
        let nth = rt.thread(me).keys_created;
        if rt.keys.len() >= KEYS_MAX || nth >= 0xffff {
            return Err(libc::EAGAIN);
        }
        rt.thread(me).keys_created += 1;
        let key = ((me.index() as u32 + 1) << 16) | nth;
        rt.keys.push((key, dtor));
        Ok(key)
    })
}

fn key_delete(key: u32) -> c_int {
    with_rt(|rt| match rt.keys.iter().position(|k| k.0 == key) {
        Some(i) => {
            rt.keys.remove(i);
            0
        }
        None => libc::EINVAL,
    })
}

fn key_get(key: u32) -> usize {
    with_rt(|rt| {
        if !rt.keys.iter().any(|k| k.0 == key) {
            return 0;
        }
        let me = rt.current;
        rt.thread(me).specific.iter().find(|s| s.0 == key).map_or(0, |s| s.1)
    })
}

fn key_set(key: u32, v: usize) -> c_int {
    with_rt(|rt| {
        if !rt.keys.iter().any(|k| k.0 == key) {
            return libc::EINVAL;
        }
        let me = rt.current;
        let th = rt.thread(me);
        match th.specific.iter_mut().find(|s| s.0 == key) {
            Some(s) => s.1 = v,
            None => th.specific.push((key, v)),
        }
        0
    })
}

type Dtor = Option<unsafe extern "C" fn(*mut c_void)>;

/// Replaces `pthread_key_create`.
///
/// # Safety
/// `key` must be null or point to a `pthread_key_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_key_create(key: *mut libc::pthread_key_t, dtor: Dtor) -> c_int {
    guard(|| {
        if key.is_null() {
            return libc::EINVAL;
        }
        match key_create(dtor.map_or(0, |f| f as usize)) {
            Ok(k) => {
                // SAFETY: by the contract.
                unsafe { key.write(k) };
                0
            }
            Err(e) => e,
        }
    })
}

/// Replaces `pthread_key_delete` (no destructor runs, as POSIX says).
#[no_mangle]
pub extern "C" fn __unfold_pthread_key_delete(key: libc::pthread_key_t) -> c_int {
    guard(|| key_delete(key))
}

/// Replaces `pthread_getspecific`.
#[no_mangle]
pub extern "C" fn __unfold_pthread_getspecific(key: libc::pthread_key_t) -> *mut c_void {
    guard(|| key_get(key) as *mut c_void)
}

/// Replaces `pthread_setspecific`.
#[no_mangle]
pub extern "C" fn __unfold_pthread_setspecific(key: libc::pthread_key_t, v: *const c_void) -> c_int {
    guard(|| key_set(key, v as usize))
}

/// C11 `thrd_success` and `thrd_error` (glibc).
const THRD_SUCCESS: c_int = 0;
const THRD_ERROR: c_int = 2;

/// Replaces C11 `tss_create` (the same keys as `pthread_key_create`).
///
/// # Safety
/// `key` must be null or point to a `tss_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_tss_create(key: *mut c_uint, dtor: Dtor) -> c_int {
    guard(|| {
        if key.is_null() {
            return THRD_ERROR;
        }
        match key_create(dtor.map_or(0, |f| f as usize)) {
            Ok(k) => {
                // SAFETY: by the contract.
                unsafe { key.write(k) };
                THRD_SUCCESS
            }
            Err(_) => THRD_ERROR,
        }
    })
}

/// Replaces C11 `tss_delete`.
#[no_mangle]
pub extern "C" fn __unfold_tss_delete(key: c_uint) {
    guard(|| {
        key_delete(key);
    })
}

/// Replaces C11 `tss_get`.
#[no_mangle]
pub extern "C" fn __unfold_tss_get(key: c_uint) -> *mut c_void {
    guard(|| key_get(key) as *mut c_void)
}

/// Replaces C11 `tss_set`.
#[no_mangle]
pub extern "C" fn __unfold_tss_set(key: c_uint, v: *mut c_void) -> c_int {
    guard(|| if key_set(key, v as usize) == 0 { THRD_SUCCESS } else { THRD_ERROR })
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
    /// `m` is an error-checking mutex and the thread holds it (`EDEADLK`).
    Deadlock,
    /// `m` is a normal mutex and the thread holds it (undefined behaviour).
    Refused,
}

/// The owner-relock step shared by lock and trylock, for the calling thread (returned
/// with the outcome). Takes the runtime state from the caller, which reads what else it
/// needs in the same entry.
///
/// # Safety
/// `m` must point to a `pthread_mutex_t`.
#[inline(always)]
unsafe fn relock(rt: &mut Rt, m: *const libc::pthread_mutex_t) -> (ThreadId, Relock) {
    let addr = m as u64;
    let me = rt.current;
    let Some((owner, n)) = rt.held.get(&addr).copied().filter(|h| h.0 == me) else {
        return (me, Relock::NotHeld);
    };
    // SAFETY: the caller guarantees m points to a mutex.
    match unsafe { kind_of(m) } {
        RECURSIVE => {
            rt.held.insert(addr, (owner, n + 1));
            (me, Relock::Counted)
        }
        ERRORCHECK => (me, Relock::Deadlock),
        _ => (me, Relock::Refused),
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
        if visible_as(Action::TryLock(ObjId(addr), false), SiteRole::MutexInit, file, line) != 1 {
            misuse(format!("{me} initialises mutex {addr:#x} while another thread holds it"), file, line);
        }
        visible_as(crate::memory::unlock(ObjId(addr)), SiteRole::MutexInit, file, line);
        if crate::sync::mutex_in_use(addr) {
            misuse(
                format!("{me} initialises mutex {addr:#x}, which is already initialised and in use (locked before, not destroyed)"),
                file,
                line,
            );
        }
        let kind = if attr.is_null() {
            NORMAL
        } else {
            // SAFETY: attr points to an attribute initialised by our mutexattr shims,
            // which keep the type in its first int (with the other attributes).
            unsafe { attr.cast::<c_int>().read_unaligned() & MUTEXATTR_TYPE }
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
        let addr = crate::sync::check_mutex(m, "locks", false, file, line);
        // One entry into the runtime state before the step (the relock check, a wait
        // deferred to this lock, the yielder) and one after (a step costs 0.3–0.5 µs,
        // an entry several ns: docs/execution-cost.md, round 23).
        let (me, relocked, wait, yielder) = with_rt(|rt| {
            // SAFETY: m is the program's mutex.
            let (me, relocked) = unsafe { relock(rt, m) };
            let wait =
                if relocked == Relock::NotHeld { crate::memory::deferred_lock_wait(rt, ObjId(addr)) } else { None };
            (me, relocked, wait, rt.yielder())
        });
        match relocked {
            Relock::Counted => return 0,
            // POSIX: an error-checking mutex reports the relock; the thread keeps it.
            Relock::Deadlock => return libc::EDEADLK,
            Relock::Refused => {
                misuse(format!("{me} locks mutex {addr:#x} which it already holds (a normal mutex)"), file, line)
            }
            Relock::NotHeld => {}
        }
        let site = site_file_line(file, line);
        if let Some(w) = wait {
            crate::memory::block_before_lock(w, site);
        }
        suspend_to(yielder, Yield::Pending(Action::Lock(ObjId(addr)), site));
        crate::sync::mutex_still_live(addr, "locks", file, line);
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
        let addr = crate::sync::check_mutex(m, "locks", false, file, line);
        // SAFETY: m is the program's mutex.
        let (me, relocked) = with_rt(|rt| unsafe { relock(rt, m) });
        match relocked {
            Relock::Counted => return 0,
            Relock::Deadlock | Relock::Refused => return libc::EBUSY,
            Relock::NotHeld => {}
        }
        if hidden_try(ObjId(addr), file, line) {
            return libc::EBUSY;
        }
        let took = visible(Action::TryLock(ObjId(addr), false), file, line) == 1;
        crate::sync::mutex_still_live(addr, "locks", file, line);
        if took {
            with_rt(|rt| rt.held.insert(addr, (me, 1)));
            0
        } else {
            // A load of the mutex for spin detection (a retry loop waits for an unlock).
            crate::memory::log_sync_read(ObjId(addr));
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
        let addr = crate::sync::check_mutex(m, "unlocks", false, file, line);
        enum Unlocking {
            /// A recursive mutex the thread held more than once: the count went down.
            Counted,
            /// The thread holds the mutex: this visible step releases it.
            Step(Action, YielderRef),
            NotOwner,
        }
        // As for lock: one entry into the runtime state before the step, one after.
        let (me, unlocking) = with_rt(|rt| {
            let me = rt.current;
            let unlocking = match rt.held.get(&addr).copied() {
                Some((owner, n)) if owner == me && n > 1 => {
                    rt.held.insert(addr, (owner, n - 1));
                    Unlocking::Counted
                }
                Some((owner, _)) if owner == me => {
                    Unlocking::Step(crate::memory::unlock_in(rt, ObjId(addr)), rt.yielder())
                }
                _ => Unlocking::NotOwner,
            };
            (me, unlocking)
        });
        match unlocking {
            Unlocking::Counted => 0,
            Unlocking::Step(unlock, yielder) => {
                suspend_to(yielder, Yield::Pending(unlock, site_file_line(file, line)));
                with_rt(|rt| rt.held.remove(&addr));
                0
            }
            // POSIX: error-checking and recursive mutexes report an unlock by a thread
            // that does not hold them (whether another thread does is irrelevant, so no
            // visible step); for a normal mutex it is undefined behaviour.
            // SAFETY: m is the program's mutex (checked above).
            _ if unsafe { kind_of(m) } != NORMAL => libc::EPERM,
            _ => misuse(format!("{me} unlocks mutex {addr:#x} which it does not hold (a normal mutex)"), file, line),
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
        if visible_as(Action::TryLock(ObjId(addr), false), SiteRole::MutexDestroy, file, line) == 1 {
            visible_as(crate::memory::unlock(ObjId(addr)), SiteRole::MutexDestroy, file, line);
            // SAFETY: m is the program's mutex (checked readable).
            unsafe { crate::sync::mark_mutex_destroyed(m) };
            0
        } else {
            misuse(format!("{me} destroys mutex {addr:#x} while another thread holds it"), file, line)
        }
    })
}

// The attributes of a mutex live in the first int of its `pthread_mutexattr_t` (4 bytes
// on glibc), zero being every default: the type ([`MUTEXATTR_TYPE`]), the priority
// protocol, whether it is process-shared and the priority ceiling. Only the type changes
// what unfold explores: the others restrict which thread runs when several could (unfold
// explores every choice) or concern other processes (there is one).

/// The bits of the type (normal, recursive, errorcheck).
const MUTEXATTR_TYPE: c_int = 0b11;
/// The priority protocol (`PTHREAD_PRIO_NONE` = 0, `_INHERIT`, `_PROTECT`), shifted.
const MUTEXATTR_PROTOCOL_SHIFT: u32 = 4;
/// Set when process-shared.
const MUTEXATTR_PSHARED: c_int = 1 << 6;
/// The priority ceiling (0: never set), shifted.
const MUTEXATTR_CEILING_SHIFT: u32 = 8;

/// Apply `f` to the attribute word of the mutex attribute `a` (`EINVAL` when null).
///
/// # Safety
/// `a` must be null or point to a `pthread_mutexattr_t`.
unsafe fn with_mutexattr(a: *mut libc::pthread_mutexattr_t, f: impl FnOnce(&mut c_int) -> c_int) -> c_int {
    if a.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: by the contract; a pthread_mutexattr_t has at least 4 bytes.
    let mut w = unsafe { a.cast::<c_int>().read_unaligned() };
    let r = f(&mut w);
    // SAFETY: as above.
    unsafe { a.cast::<c_int>().write_unaligned(w) };
    r
}

/// Store `f` of the attribute word of the mutex attribute `a` in `out` (`EINVAL` when
/// either is null).
///
/// # Safety
/// `a` and `out` must be null or point to a `pthread_mutexattr_t` and an `int`.
unsafe fn mutexattr_get(a: *const libc::pthread_mutexattr_t, out: *mut c_int, f: impl FnOnce(c_int) -> c_int) -> c_int {
    if a.is_null() || out.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe { out.write_unaligned(f(a.cast::<c_int>().read_unaligned())) };
    0
}

/// Replaces `pthread_mutexattr_init`: every attribute at its default (a zero word).
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
    unsafe { a.cast::<c_int>().write_unaligned(0) };
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
    if !(0..=3).contains(&kind) {
        return libc::EINVAL;
    }
    let kind = if kind == 3 { NORMAL } else { kind };
    // SAFETY: by the contract.
    unsafe {
        with_mutexattr(a, |w| {
            *w = (*w & !MUTEXATTR_TYPE) | kind;
            0
        })
    }
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
    // SAFETY: by the contract.
    unsafe { mutexattr_get(a, kind, |w| w & MUTEXATTR_TYPE) }
}

/// Replaces `pthread_mutexattr_setpshared`: the program is one process, so a mutex
/// shared between processes behaves as a private one; either value is accepted and kept
/// for `pthread_mutexattr_getpshared`, another is `EINVAL`.
///
/// # Safety
/// `a` must be null or point to a `pthread_mutexattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_setpshared(
    a: *mut libc::pthread_mutexattr_t,
    shared: c_int,
) -> c_int {
    if !(shared == libc::PTHREAD_PROCESS_PRIVATE || shared == libc::PTHREAD_PROCESS_SHARED) {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe {
        with_mutexattr(a, |w| {
            *w = (*w & !MUTEXATTR_PSHARED) | if shared == libc::PTHREAD_PROCESS_SHARED { MUTEXATTR_PSHARED } else { 0 };
            0
        })
    }
}

/// Replaces `pthread_mutexattr_getpshared`: the value set (default
/// `PTHREAD_PROCESS_PRIVATE`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_getpshared(
    a: *const libc::pthread_mutexattr_t,
    shared: *mut c_int,
) -> c_int {
    // SAFETY: by the contract.
    unsafe {
        mutexattr_get(a, shared, |w| {
            if w & MUTEXATTR_PSHARED != 0 {
                libc::PTHREAD_PROCESS_SHARED
            } else {
                libc::PTHREAD_PROCESS_PRIVATE
            }
        })
    }
}

/// Replaces `pthread_mutexattr_setprotocol`: a priority protocol (`PTHREAD_PRIO_NONE`,
/// `_INHERIT`, `_PROTECT`) changes only which thread runs first when several could,
/// and unfold explores every such choice; each value is accepted and kept for
/// `pthread_mutexattr_getprotocol`, another is `EINVAL`.
///
/// # Safety
/// `a` must be null or point to a `pthread_mutexattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_setprotocol(
    a: *mut libc::pthread_mutexattr_t,
    protocol: c_int,
) -> c_int {
    const PRIO_PROTOCOLS: [c_int; 3] =
        [libc::PTHREAD_PRIO_NONE, libc::PTHREAD_PRIO_INHERIT, libc::PTHREAD_PRIO_PROTECT];
    if !PRIO_PROTOCOLS.contains(&protocol) {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe {
        with_mutexattr(a, |w| {
            *w = (*w & !(0b11 << MUTEXATTR_PROTOCOL_SHIFT)) | (protocol << MUTEXATTR_PROTOCOL_SHIFT);
            0
        })
    }
}

/// Replaces `pthread_mutexattr_getprotocol`: the protocol set (default
/// `PTHREAD_PRIO_NONE`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_getprotocol(
    a: *const libc::pthread_mutexattr_t,
    protocol: *mut c_int,
) -> c_int {
    // SAFETY: by the contract.
    unsafe { mutexattr_get(a, protocol, |w| (w >> MUTEXATTR_PROTOCOL_SHIFT) & 0b11) }
}

/// The range of real-time (`SCHED_FIFO`) priorities: a priority ceiling's (1 to 99 on
/// Linux).
fn fifo_priorities() -> std::ops::RangeInclusive<c_int> {
    // SAFETY: sched_get_priority_min/max take a policy and touch no memory.
    unsafe { libc::sched_get_priority_min(libc::SCHED_FIFO)..=libc::sched_get_priority_max(libc::SCHED_FIFO) }
}

/// Replaces `pthread_mutexattr_setprioceiling`: recorded (a ceiling only matters to
/// which thread runs first, see `setprotocol`); outside the `SCHED_FIFO` priorities is
/// `EINVAL`, as glibc.
///
/// # Safety
/// `a` must be null or point to a `pthread_mutexattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_setprioceiling(
    a: *mut libc::pthread_mutexattr_t,
    ceiling: c_int,
) -> c_int {
    if !fifo_priorities().contains(&ceiling) || ceiling > 0xff {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe {
        with_mutexattr(a, |w| {
            *w = (*w & !(0xff << MUTEXATTR_CEILING_SHIFT)) | (ceiling << MUTEXATTR_CEILING_SHIFT);
            0
        })
    }
}

/// Replaces `pthread_mutexattr_getprioceiling`: the ceiling set, else the lowest
/// `SCHED_FIFO` priority (glibc's default).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_getprioceiling(
    a: *const libc::pthread_mutexattr_t,
    ceiling: *mut c_int,
) -> c_int {
    let lowest = *fifo_priorities().start();
    // SAFETY: by the contract.
    unsafe {
        mutexattr_get(a, ceiling, |w| match (w >> MUTEXATTR_CEILING_SHIFT) & 0xff {
            0 => lowest,
            c => c,
        })
    }
}

/// glibc's `PTHREAD_MUTEX_STALLED` and `PTHREAD_MUTEX_ROBUST`.
const MUTEX_STALLED: c_int = 0;
const MUTEX_ROBUST: c_int = 1;

/// Replaces `pthread_mutexattr_setrobust`: `PTHREAD_MUTEX_STALLED` (the default) is
/// accepted; a robust mutex (the next lock after its owner ends returns `EOWNERDEAD`)
/// is not modelled, so `PTHREAD_MUTEX_ROBUST` stops the exploration with an error
/// rather than explore behaviours the program cannot have; another value is `EINVAL`.
///
/// # Safety
/// `a` must be null or point to a `pthread_mutexattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_setrobust(
    a: *mut libc::pthread_mutexattr_t,
    robust: c_int,
) -> c_int {
    match robust {
        _ if a.is_null() => libc::EINVAL,
        MUTEX_STALLED => 0,
        MUTEX_ROBUST => guard(|| -> c_int {
            unsupported(
                "pthread_mutexattr_setrobust(PTHREAD_MUTEX_ROBUST): robust mutexes (EOWNERDEAD when the owner \
                 ends) are not supported by unfold"
                    .into(),
            )
        }),
        _ => libc::EINVAL,
    }
}

/// Replaces `pthread_mutexattr_getrobust`: always `PTHREAD_MUTEX_STALLED` (the only
/// robustness supported, see `setrobust`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutexattr_getrobust(
    a: *const libc::pthread_mutexattr_t,
    robust: *mut c_int,
) -> c_int {
    // SAFETY: by the contract.
    unsafe { mutexattr_get(a, robust, |_| MUTEX_STALLED) }
}

/// Replaces `pthread_setconcurrency`: a hint to the implementation, kept (per execution)
/// for `pthread_getconcurrency`; a negative level is `EINVAL`.
#[no_mangle]
pub extern "C" fn __unfold_pthread_setconcurrency(level: c_int) -> c_int {
    if level < 0 {
        return libc::EINVAL;
    }
    with_rt(|rt| rt.concurrency = level);
    0
}

/// Replaces `pthread_getconcurrency`: the level last set in this execution, 0 if none.
#[no_mangle]
pub extern "C" fn __unfold_pthread_getconcurrency() -> c_int {
    with_rt(|rt| rt.concurrency)
}

// ---- heap ----------------------------------------------------------------------------
//
// `unfold.h` renames malloc/calloc/realloc/free to static trampolines that pass their
// return address (the call site, resolved with the debug info): allocations and frees are
// named by file and line in memory-error reports ([`crate::heapcheck`]).

/// Allocate from the current thread's arena (zeroed), recording the block.
fn alloc(size: usize, site: u64, zeroed: bool) -> *mut u8 {
    let (p, limit) = with_rt(|rt| {
        let me = rt.current;
        let (p, limit) = match (&mut rt.arena, rt.active) {
            (Some(a), true) => {
                let p = a.alloc(me, size);
                (p, a.slot_size())
            }
            // SAFETY: outside an execution (no program code runs there): plain libc.
            _ => return (unsafe { libc::calloc(1, size.max(1)) as *mut u8 }, usize::MAX),
        };
        if !p.is_null() {
            crate::heapcheck::on_alloc(rt, p as u64, size as u64, site, zeroed);
        }
        (p, limit)
    });
    // A request no machine could serve gets NULL, as from libc; a plausible one that
    // does not fit is the checker's limit, not the program's fault.
    if p.is_null() && size < 1 << 40 {
        crate::process::heap_limit_reached(size, limit);
    }
    p
}

/// Replaces `malloc` (through the header's trampoline, with its return address): the
/// thread's deterministic arena (zeroed memory, reported uninitialised with
/// `--check-uninit`).
#[no_mangle]
pub extern "C" fn __unfold_malloc_at(size: usize, ra: *mut c_void) -> *mut c_void {
    guard(|| alloc(size, code_site(ra), false) as *mut c_void)
}

/// Replaces `calloc` (through the header's trampoline).
#[no_mangle]
pub extern "C" fn __unfold_calloc_at(n: usize, size: usize, ra: *mut c_void) -> *mut c_void {
    guard(|| match n.checked_mul(size) {
        Some(s) => alloc(s, code_site(ra), true) as *mut c_void,
        None => std::ptr::null_mut(),
    })
}

/// Replaces `realloc` (through the header's trampoline): a new block and a copy (the
/// arena never reuses memory within an execution, which keeps addresses deterministic);
/// the old block is freed. A pointer that is not a live block is a memory error (and
/// `realloc` returns NULL, leaving everything as it was).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_realloc_at(p: *mut c_void, size: usize, ra: *mut c_void) -> *mut c_void {
    guard(|| {
        let site = code_site(ra);
        if p.is_null() {
            return alloc(size, site, false) as *mut c_void;
        }
        if !with_rt(|rt| rt.active) {
            // SAFETY: outside an execution p came from the libc fallback allocator.
            return unsafe { libc::realloc(p, size) };
        }
        let Some(old) = with_rt(|rt| crate::heapcheck::live_block(rt, p as u64)) else {
            // Not a live block: a memory error (reported), or libc's memory.
            return match with_rt(|rt| crate::heapcheck::on_free(rt, p as u64, site, "realloc")) {
                // SAFETY: p is not arena memory: it came from libc (strdup, a constructor...).
                crate::heapcheck::Freed::Foreign => unsafe { libc::realloc(p, size) },
                _ => std::ptr::null_mut(),
            };
        };
        // The new block first: when the arena is exhausted, realloc fails and the old
        // block stays live, as the C standard says.
        let q = alloc(size, site, false);
        if q.is_null() {
            return std::ptr::null_mut();
        }
        let n = (old as usize).min(size);
        // SAFETY: both blocks are at least n bytes and distinct (the arena never reuses
        // memory within an execution).
        unsafe { std::ptr::copy_nonoverlapping(p as *const u8, q, n) };
        with_rt(|rt| {
            if let Some(a) = rt.arena.as_mut() {
                a.shadow_mut().copy_uninit(p as u64, q as u64, n as u64);
            }
            crate::heapcheck::on_free(rt, p as u64, site, "realloc");
        });
        q as *mut c_void
    })
}

/// Replaces `free` (through the header's trampoline): arena memory is not reused within
/// an execution (it is reclaimed when the execution ends); the block is marked freed, so
/// that later accesses, frees and reallocs of it are reported.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_free_at(p: *mut c_void, ra: *mut c_void) {
    guard(|| {
        if p.is_null() {
            return;
        }
        let freed = with_rt(|rt| {
            if rt.active {
                crate::heapcheck::on_free(rt, p as u64, code_site(ra), "free")
            } else if rt.arena.as_ref().is_some_and(|a| a.locate(p as u64).is_some()) {
                crate::heapcheck::Freed::Bad
            } else {
                crate::heapcheck::Freed::Foreign
            }
        });
        if freed == crate::heapcheck::Freed::Foreign {
            // SAFETY: p came from the libc fallback allocator (or libc itself).
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
        crate::process::run_exit_handlers();
        suspend(Yield::Pending(Action::ExitProcess, code_site(ra)));
        stop()
    })
}

/// Whether `abort` ends the calling thread's path without a defect (set for programs
/// written for SV-COMP, before any worker is forked: [`set_abort_ends_path`]).
static ABORT_ENDS_PATH: AtomicBool = AtomicBool::new(false);

/// Make `abort` what SV-COMP's tasks mean by it: the end of a path that is not to be
/// explored further (`assume_abort_if_not`), like a failed `__VERIFIER_assume`, instead
/// of a defect. (A task whose `reach_error` aborts fails on entering it, before the
/// abort: `__unfold_func_enter`.) Stopping only the calling thread loses no error of the
/// others: one they reach after the abort is reached in the real program by delaying the
/// aborting thread's last, local step.
pub fn set_abort_ends_path(on: bool) {
    ABORT_ENDS_PATH.store(on, Ordering::Relaxed);
}

/// Replaces `abort`.
#[no_mangle]
pub extern "C" fn __unfold_abort_at(ra: *mut c_void) -> ! {
    guard(|| {
        if ABORT_ENDS_PATH.load(Ordering::Relaxed) {
            with_rt(|rt| {
                let me = rt.current;
                rt.assumed.push(me);
            });
            stop()
        }
        fail(DefectKind::Abort, "abort() called".into(), code_site(ra))
    })
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

/// The defect of a call of SV-COMP's error function, whether the program defines it or
/// only declares it (the header's trampoline then serves it).
const ERROR_CALLED: &str = "reach_error / __VERIFIER_error called";

/// `__VERIFIER_error` / `reach_error` (via the header's trampoline, with its return
/// address).
#[no_mangle]
pub extern "C" fn __unfold_error_at(ra: *mut c_void) -> ! {
    guard(|| fail(DefectKind::Assertion, ERROR_CALLED.into(), code_site(ra)))
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
        suspend(Yield::Pending(crate::memory::unlock(ATOMIC_OBJ), site));
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

/// What entering `f` means, if it is one of the program's own SV-COMP functions.
fn entry_hook(f: *mut c_void) -> Option<crate::exec::EntryHook> {
    with_rt(|rt| {
        let hooks = &rt.entry_hooks;
        if !rt.active || hooks.is_empty() {
            return None;
        }
        let i = hooks.partition_point(|&(a, _)| a < f as u64);
        hooks.get(i).filter(|&&(a, _)| a == f as u64).map(|&(_, h)| h)
    })
}

/// `-finstrument-functions` hook: entering a function named `__VERIFIER_atomic_*`, or
/// one of the program's own SV-COMP functions ([`crate::exec::EntryHook`]): its own
/// `reach_error` or `__VERIFIER_error` fails at the call (SV-COMP's property is that it
/// is never called: its body may do nothing, or loop; `site`: the address the call
/// returns to), its own `__VERIFIER_atomic_begin`/`_end` open and close an atomic
/// section.
#[no_mangle]
pub extern "C" fn __unfold_func_enter(f: *mut c_void, site: *mut c_void) {
    guard(|| match entry_hook(f) {
        Some(crate::exec::EntryHook::Error) => fail(DefectKind::Assertion, ERROR_CALLED.into(), code_site(site)),
        Some(crate::exec::EntryHook::AtomicBegin) => atomic_begin(code_site(site)),
        Some(crate::exec::EntryHook::AtomicEnd) => atomic_end(code_site(site)),
        Some(crate::exec::EntryHook::AtomicFn) => atomic_begin(0),
        None => {}
    })
}

/// `-finstrument-functions` hook: leaving a function named `__VERIFIER_atomic_*`.
#[no_mangle]
pub extern "C" fn __unfold_func_exit(f: *mut c_void) {
    guard(|| {
        if entry_hook(f) == Some(crate::exec::EntryHook::AtomicFn) {
            atomic_end(0);
        }
    })
}

/// Addresses of every shim, so that the linker keeps them in the `unfold` binary (which
/// exports them to the program with `--export-dynamic`).
pub fn shim_table() -> [usize; 94] {
    [
        __unfold_pthread_setcancelstate as *const () as usize,
        __unfold_pthread_setcanceltype as *const () as usize,
        __unfold_pthread_testcancel as *const () as usize,
        __unfold_pthread_setname_np as *const () as usize,
        __unfold_pthread_getname_np as *const () as usize,
        __unfold_pthread_attr_init as *const () as usize,
        __unfold_pthread_attr_destroy as *const () as usize,
        __unfold_pthread_attr_setdetachstate as *const () as usize,
        __unfold_pthread_attr_getdetachstate as *const () as usize,
        __unfold_pthread_attr_setstacksize as *const () as usize,
        __unfold_pthread_attr_getstacksize as *const () as usize,
        __unfold_pthread_attr_setguardsize as *const () as usize,
        __unfold_pthread_attr_getguardsize as *const () as usize,
        __unfold_pthread_attr_setscope as *const () as usize,
        __unfold_pthread_attr_getscope as *const () as usize,
        __unfold_pthread_attr_setschedpolicy as *const () as usize,
        __unfold_pthread_attr_getschedpolicy as *const () as usize,
        __unfold_pthread_attr_setinheritsched as *const () as usize,
        __unfold_pthread_attr_getinheritsched as *const () as usize,
        __unfold_pthread_attr_setschedparam as *const () as usize,
        __unfold_pthread_attr_getschedparam as *const () as usize,
        __unfold_pthread_attr_getstack as *const () as usize,
        __unfold_pthread_attr_getstackaddr as *const () as usize,
        __unfold_pthread_getattr_np as *const () as usize,
        __unfold_pthread_getattr_default_np as *const () as usize,
        __unfold_pthread_setschedparam as *const () as usize,
        __unfold_pthread_getschedparam as *const () as usize,
        __unfold_pthread_setschedprio as *const () as usize,
        __unfold_pthread_setaffinity_np as *const () as usize,
        __unfold_pthread_getaffinity_np as *const () as usize,
        __unfold_pthread_atfork as *const () as usize,
        __unfold_pthread_key_create as *const () as usize,
        __unfold_pthread_key_delete as *const () as usize,
        __unfold_pthread_getspecific as *const () as usize,
        __unfold_pthread_setspecific as *const () as usize,
        __unfold_tss_create as *const () as usize,
        __unfold_tss_delete as *const () as usize,
        __unfold_tss_get as *const () as usize,
        __unfold_tss_set as *const () as usize,
        crate::tls::__tls_get_addr as *const () as usize,
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
        __unfold_pthread_mutexattr_setpshared as *const () as usize,
        __unfold_pthread_mutexattr_setprotocol as *const () as usize,
        __unfold_pthread_mutexattr_getprotocol as *const () as usize,
        __unfold_pthread_mutexattr_getpshared as *const () as usize,
        __unfold_pthread_mutexattr_setprioceiling as *const () as usize,
        __unfold_pthread_mutexattr_getprioceiling as *const () as usize,
        __unfold_pthread_mutexattr_setrobust as *const () as usize,
        __unfold_pthread_mutexattr_getrobust as *const () as usize,
        __unfold_pthread_setconcurrency as *const () as usize,
        __unfold_pthread_getconcurrency as *const () as usize,
        __unfold_rand as *const () as usize,
        __unfold_random as *const () as usize,
        __unfold_srand as *const () as usize,
        __unfold_malloc_at as *const () as usize,
        __unfold_calloc_at as *const () as usize,
        __unfold_realloc_at as *const () as usize,
        __unfold_free_at as *const () as usize,
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
        crate::nondet::__unfold_nondet as *const () as usize,
        __unfold_sleep as *const () as usize,
        __unfold_usleep as *const () as usize,
        __unfold_nanosleep as *const () as usize,
        __unfold_thrd_sleep as *const () as usize,
        __unfold_clock_nanosleep as *const () as usize,
        __unfold_clock_gettime as *const () as usize,
        __unfold_time as *const () as usize,
        __unfold_gettimeofday as *const () as usize,
        __unfold_clock as *const () as usize,
        __unfold_timespec_get as *const () as usize,
    ]
}

#[cfg(test)]
mod rand_tests {
    use super::RandState;

    #[test]
    fn rand_gives_glibcs_sequence() {
        let mut r = RandState::seeded(1);
        assert_eq!([r.next(), r.next(), r.next()], [1_804_289_383, 846_930_886, 1_681_692_777]);
        let mut r = RandState::seeded(42);
        assert_eq!([r.next(), r.next()], [71_876_166, 708_592_740]);
    }
}
