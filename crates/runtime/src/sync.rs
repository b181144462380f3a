//! Shims for the synchronising objects beyond mutexes: condition variables, semaphores,
//! read-write locks, barriers, `pthread_once`, spinlocks, `pthread_mutex_timedlock`, and
//! the checks the mutex shims share with them (pointer validity, destroyed objects).
//!
//! Each object's semantics is the engine's ([`unfold_engine::objects`]); a shim only
//! turns a call into the visible operations of the object, hands the program the value
//! the engine resolved, and checks the misuse that the thread's own history decides.
//!
//! # Where the C side keeps state
//!
//! - **In the object's memory** (reset with the program's memory before each
//!   execution, like any global or heap byte): a *destroyed* marker in a destroyed
//!   mutex, condition variable or read-write lock; a *live*/*dead* marker in a
//!   semaphore or barrier (a zeroed one was never initialised); the *done* flag of a
//!   `pthread_once_t`. Static initialisers are all-zero, so they need no marker.
//! - **Per execution** (`SyncRt`, reset by the executor): which mutex each condition
//!   variable's current waiters use, and who holds each read-write lock (to emit the
//!   right unlock). Both are updated right after the visible operation that changes
//!   them, so their contents are ordered like the operations themselves.
//!
//! # Misuse
//!
//! Lock misuse (mutexes, spinlocks, read-write locks, C11 `mtx_t`) is
//! [`DefectKind::MutexMisuse`]; misuse of a condition variable, semaphore or barrier is
//! [`DefectKind::SyncMisuse`]. A null or unreadable object pointer is the misuse of its
//! kind (reported, never a crash of the checker).

use crate::exec::{fail, site_file_line, site_with_role, suspend, with_rt, SiteRole, Yield};
use crate::shims::{current, visible};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use unfold_engine::{Action, DefectKind, ObjId, ThreadId};

/// Marker written at offset 0 of a destroyed mutex, condition variable or rwlock.
const DESTROYED: u32 = 0xd35_7a0d;
/// Marker written at offset 0 of a mutex when a thread first locks, unlocks or waits with
/// it: initialising it again (without destroying it first) is a misuse.
const USED: u32 = 0x05ed_ba5e;
/// Marker at offset 0 of an initialised semaphore or barrier.
const LIVE: u32 = 0x11fe_5e4a;
/// Marker at offset 0 of a destroyed semaphore or barrier.
const DEAD: u32 = 0xdead_5e4a;
/// The done flag of a `pthread_once_t` / `once_flag`.
const ONCE_DONE: c_int = 0x0ce;

static SPURIOUS: AtomicBool = AtomicBool::new(false);

/// Explore spurious wake-ups: an untimed condition wait may return without a signal, at
/// most once per thread and execution (unboundedly many would make every wait loop an
/// infinite execution under the scheduler's run-the-same-thread policy). Set in the
/// parent before any worker is forked (workers inherit it).
pub fn set_spurious_wakeups(on: bool) {
    SPURIOUS.store(on, Ordering::Relaxed);
}

/// Holders of a read-write lock in this execution.
#[derive(Debug, Default, Clone)]
struct RwHold {
    writer: Option<ThreadId>,
    /// One entry per read lock held (a thread may hold several).
    readers: Vec<ThreadId>,
}

/// Per-execution state of the shims in this module.
#[derive(Debug)]
struct SyncRt {
    /// Condition variable -> (mutex of its current waiters, number of waiters).
    cond: HashMap<u64, (u64, u32)>,
    /// Read-write lock -> holders.
    rw: HashMap<u64, RwHold>,
    /// Semaphore -> threads inside `sem_wait` on it (announced, not yet granted).
    sem_waiting: HashMap<u64, u32>,
    /// Threads that already woke spuriously in this execution (at most once each).
    spurious_used: HashSet<ThreadId>,
    /// Object addresses found readable in this execution: a direct-mapped cache (the
    /// lock shims ask on every call; a hash lookup showed in their cost).
    valid: [u64; VALID_SLOTS],
    /// A pipe used to probe addresses (kept for the life of the worker).
    probe: Option<(c_int, c_int)>,
}

const VALID_SLOTS: usize = 64;

fn valid_slot(addr: u64) -> usize {
    ((addr >> 3) as usize ^ (addr >> 9) as usize) % VALID_SLOTS
}

impl Default for SyncRt {
    fn default() -> Self {
        SyncRt {
            cond: HashMap::default(),
            sem_waiting: HashMap::default(),
            rw: HashMap::default(),
            spurious_used: HashSet::default(),
            valid: [0; VALID_SLOTS],
            probe: None,
        }
    }
}

thread_local! {
    static SYNC: RefCell<SyncRt> = RefCell::new(SyncRt::default());
}

fn with_sync<R>(f: impl FnOnce(&mut SyncRt) -> R) -> R {
    SYNC.with(|s| f(&mut s.borrow_mut()))
}

/// The per-execution state of the shims at a step ([`checkpoint`]).
#[derive(Debug, Default)]
pub(crate) struct SyncCheckpoint {
    cond: HashMap<u64, (u64, u32)>,
    rw: HashMap<u64, RwHold>,
    sem_waiting: HashMap<u64, u32>,
    spurious_used: HashSet<ThreadId>,
}

/// The per-execution state of the shims now, into `c`, for [`restore`].
pub(crate) fn checkpoint(c: &mut SyncCheckpoint) {
    with_sync(|s| {
        c.cond.clone_from(&s.cond);
        c.rw.clone_from(&s.rw);
        c.sem_waiting.clone_from(&s.sem_waiting);
        c.spurious_used.clone_from(&s.spurious_used);
    })
}

/// Put the per-execution state back as [`checkpoint`] found it (the cache of readable
/// addresses is emptied: it only saves probes).
pub(crate) fn restore(c: &SyncCheckpoint) {
    with_sync(|s| {
        s.cond.clone_from(&c.cond);
        s.rw.clone_from(&c.rw);
        s.sem_waiting.clone_from(&c.sem_waiting);
        s.spurious_used.clone_from(&c.spurious_used);
        s.valid = [0; VALID_SLOTS];
    });
}

/// Forget the per-execution state (called by the executor before each execution).
pub(crate) fn reset() {
    with_sync(|s| {
        s.cond.clear();
        s.rw.clear();
        s.sem_waiting.clear();
        s.spurious_used.clear();
        s.valid = [0; VALID_SLOTS];
    });
}

fn report(kind: DefectKind, msg: String, file: *const c_char, line: c_int) -> ! {
    fail(kind, msg, site_file_line(file, line))
}

/// Set the calling program's `errno`.
pub(crate) fn set_errno(e: c_int) {
    // SAFETY: __errno_location returns the calling OS thread's errno, always valid.
    unsafe { *libc::__errno_location() = e };
}

/// Whether the `len` bytes at `addr` can be read, without faulting: the kernel copies
/// one byte from each end into a private pipe and reports EFAULT for a bad address.
fn readable(addr: u64, len: usize) -> bool {
    if addr < 4096 {
        return false;
    }
    if with_sync(|s| s.valid[valid_slot(addr)] == addr) {
        return true;
    }
    // Globals and heap objects need no probe (four system calls, which were a third of
    // the cost of running a program that initialises its mutexes in every execution).
    if with_rt(|rt| rt.always_readable(addr, len)) {
        // Remembered for the rest of the execution like a probed address (a mutex is
        // checked at every lock and unlock).
        with_sync(|s| s.valid[valid_slot(addr)] = addr);
        return true;
    }
    let fds = with_sync(|s| {
        if s.probe.is_none() {
            let mut fds = [0 as c_int; 2];
            // SAFETY: pipe2 writes two descriptors into the array we pass.
            if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } == 0 {
                s.probe = Some((fds[0], fds[1]));
            }
        }
        s.probe
    });
    let Some((r, w)) = fds else { return true };
    for a in [addr, addr + len.max(1) as u64 - 1] {
        // SAFETY: write(2) reads one byte at `a` in the kernel, which fails with EFAULT
        // instead of faulting when the address is not readable.
        let n = unsafe { libc::write(w, a as *const c_void, 1) };
        if n != 1 {
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EFAULT) {
                return false;
            }
            // The program closed our pipe (or another failure): no verdict, try anew
            // next time.
            with_sync(|s| s.probe = None);
            return true;
        }
        let mut b = 0u8;
        // SAFETY: reads back the byte just written into a local.
        unsafe { libc::read(r, &mut b as *mut u8 as *mut c_void, 1) };
    }
    with_sync(|s| s.valid[valid_slot(addr)] = addr);
    true
}

/// Check that `p` points to a readable object of `len` bytes; otherwise report `kind`
/// misuse naming the operation.
fn check_ptr(
    p: *const c_void,
    len: usize,
    what: &dyn std::fmt::Display,
    kind: DefectKind,
    file: *const c_char,
    line: c_int,
) -> u64 {
    let addr = p as u64;
    if p.is_null() {
        report(kind, format!("{} {what} through a null pointer", current()), file, line);
    }
    if !readable(addr, len) {
        report(kind, format!("{} {what} through the invalid address {addr:#x}", current()), file, line);
    }
    addr
}

/// The u32 marker at the start of an object.
///
/// # Safety
/// `addr` must be readable for 4 bytes.
unsafe fn marker(addr: u64) -> u32 {
    // SAFETY: by the contract.
    unsafe { (addr as *const u32).read_unaligned() }
}

/// # Safety
/// `addr` must be writable for 4 bytes.
unsafe fn set_marker(addr: u64, v: u32) {
    // SAFETY: by the contract.
    unsafe { (addr as *mut u32).write_unaligned(v) }
}

// ---- mutex checks (called by the mutex shims) -----------------------------------------

/// Check a mutex pointer before `what` (e.g. "locks"): null, unreadable, destroyed or
/// never initialised is mutex misuse (`init`: the mutex may be destroyed, garbage or
/// zero; see [`mutex_in_use`]). Returns the address; a use marks the mutex used.
pub(crate) fn check_mutex(
    m: *const libc::pthread_mutex_t,
    what: &str,
    init: bool,
    file: *const c_char,
    line: c_int,
) -> u64 {
    let size = std::mem::size_of::<libc::pthread_mutex_t>();
    let addr = check_ptr(m.cast(), size, &format_args!("{what} a mutex"), DefectKind::MutexMisuse, file, line);
    // SAFETY: checked readable above.
    let mark = unsafe { marker(addr) };
    if init {
        return addr;
    }
    if mark == DESTROYED {
        report(
            DefectKind::MutexMisuse,
            format!("{} {what} mutex {addr:#x}, which was destroyed", current()),
            file,
            line,
        );
    }
    // SAFETY: checked readable for the whole mutex above.
    let bytes = unsafe { std::slice::from_raw_parts(addr as *const u8, size) };
    if !initialised_mutex(bytes) {
        report(
            DefectKind::MutexMisuse,
            format!(
                "{} {what} mutex {addr:#x}, which was never initialised (neither pthread_mutex_init nor a static \
                 initializer)",
                current()
            ),
            file,
            line,
        );
    }
    if mark == 0 {
        // SAFETY: the program's mutex, readable; offset 0 (glibc's __lock) is not used by
        // the shims, and a mutex is writable memory.
        unsafe { set_marker(addr, USED) };
    }
    addr
}

/// Whether a thread locked, unlocked or waited with the mutex at `addr` (checked by
/// [`check_mutex`]) since it was last initialised or destroyed.
pub(crate) fn mutex_in_use(addr: u64) -> bool {
    // SAFETY: `addr` was checked readable by check_mutex.
    unsafe { marker(addr) == USED }
}

/// Whether the bytes of a `pthread_mutex_t` are those of an initialised mutex. The shims
/// keep a mutex's state in the runtime, never in the mutex: an initialised one is all
/// zero (`PTHREAD_MUTEX_INITIALIZER`, or zeroed by `pthread_mutex_init`) apart from glibc's
/// `__kind` (the type, also set by the `_NP` static initializers) and the shims' own
/// marker at offset 0. Anything else (the garbage of a mutex never initialised) is
/// lock-before-init. An all-zero mutex never initialised (a zeroed heap block) cannot be
/// told from a static one and passes.
fn initialised_mutex(bytes: &[u8]) -> bool {
    const KIND: std::ops::Range<usize> = 16..20;
    let word = |r: std::ops::Range<usize>| bytes.get(r).map_or(0, |k| u32::from_ne_bytes([k[0], k[1], k[2], k[3]]));
    let (mark, kind) = (word(0..4), word(KIND));
    // Every other byte zero, a word at a time (this runs at every lock and unlock).
    let mut rest = 0u64;
    for (i, chunk) in bytes.chunks(8).enumerate() {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        let mut w = u64::from_le_bytes(w);
        if i == 0 {
            w &= !0xffff_ffff;
        }
        if i * 8 <= KIND.start && KIND.end <= i * 8 + 8 {
            w &= !(0xffff_ffffu64 << ((KIND.start - i * 8) * 8));
        }
        rest |= w;
    }
    (mark == 0 || mark == USED) && kind <= 3 && rest == 0
}

/// Mark a mutex destroyed (after a successful `pthread_mutex_destroy`).
///
/// # Safety
/// `m` must point to the program's `pthread_mutex_t`.
pub(crate) unsafe fn mark_mutex_destroyed(m: *mut libc::pthread_mutex_t) {
    // SAFETY: by the contract; offset 0 (glibc's __lock) is not used by the shims.
    unsafe { set_marker(m as u64, DESTROYED) }
}

/// Replaces `pthread_mutex_timedlock`: a trylock whose failure is a time-out (the
/// time-out is explored, not timed).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutex_timedlock(
    m: *mut libc::pthread_mutex_t,
    _abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    // SAFETY: same contract as the trylock shim.
    match unsafe { crate::shims::__unfold_pthread_mutex_trylock(m, file, line) } {
        libc::EBUSY => libc::ETIMEDOUT,
        r => r,
    }
}

/// Whether `clk` is a clock the `clock` variants of the timed waits accept (glibc 2.30's
/// `pthread_cond_clockwait`, `pthread_mutex_clocklock`, `pthread_rwlock_clockrdlock`/
/// `clockwrlock`, `sem_clockwait`): `CLOCK_REALTIME` or `CLOCK_MONOTONIC`, as glibc's
/// `futex_abstimed_supported_clockid`; another clock is `EINVAL`, checked before anything
/// else, as glibc does. Time-outs are explored, not timed, so the clock changes nothing
/// more: each variant is its `timed` one.
fn wait_clock_ok(clk: libc::clockid_t) -> bool {
    clk == libc::CLOCK_REALTIME || clk == libc::CLOCK_MONOTONIC
}

/// Replaces `pthread_mutex_clocklock`: [`__unfold_pthread_mutex_timedlock`] on clock
/// `clk` (`EINVAL` for a clock other than `CLOCK_REALTIME`/`CLOCK_MONOTONIC`).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces: pointers
/// must be valid as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_mutex_clocklock(
    m: *mut libc::pthread_mutex_t,
    clk: libc::clockid_t,
    abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    if !wait_clock_ok(clk) {
        return libc::EINVAL;
    }
    // SAFETY: same contract as the timedlock shim.
    unsafe { __unfold_pthread_mutex_timedlock(m, abstime, file, line) }
}

/// Replaces `pthread_yield` (a no-op: every schedule is explored anyway).
#[no_mangle]
pub extern "C" fn __unfold_pthread_yield() -> c_int {
    0
}

// ---- condition variables ----------------------------------------------------------------

const COND_SIZE: usize = std::mem::size_of::<libc::pthread_cond_t>();

fn check_cond(c: *const libc::pthread_cond_t, what: &str, file: *const c_char, line: c_int) -> u64 {
    let addr = check_ptr(
        c.cast(),
        COND_SIZE,
        &format_args!("{what} a condition variable"),
        DefectKind::SyncMisuse,
        file,
        line,
    );
    // SAFETY: checked readable above.
    if unsafe { marker(addr) } == DESTROYED {
        report(
            DefectKind::SyncMisuse,
            format!("{} {what} condition variable {addr:#x}, which was destroyed", current()),
            file,
            line,
        );
    }
    addr
}

/// Replaces `pthread_cond_init` (attributes are accepted and ignored).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_cond_init(
    c: *mut libc::pthread_cond_t,
    _attr: *const libc::pthread_condattr_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr =
            check_ptr(c.cast(), COND_SIZE, &"initialises a condition variable", DefectKind::SyncMisuse, file, line);
        // SAFETY: the program's pthread_cond_t, checked readable; the all-zero state is
        // PTHREAD_COND_INITIALIZER.
        unsafe { std::ptr::write_bytes(addr as *mut u8, 0, COND_SIZE) };
        0
    })
}

/// One condition wait: `CondWait(c)`, unlock `m`, wake, relock `m`. Returns whether the
/// wake was signalled.
fn cond_wait(c: u64, m: *mut libc::pthread_mutex_t, timed: bool, file: *const c_char, line: c_int) -> bool {
    let me = current();
    let maddr = check_mutex(m, "waits on a condition variable with", false, file, line);
    let Some((_, count)) = with_rt(|rt| rt.held.get(&maddr).copied()).filter(|h| h.0 == me) else {
        report(
            DefectKind::SyncMisuse,
            format!("{me} waits on condition variable {c:#x} without holding mutex {maddr:#x}"),
            file,
            line,
        );
    };
    visible(Action::CondWait(ObjId(c)), file, line);
    // Joining changes nothing for spin detection (a load of the condition variable); a
    // timed wait that then times out leaves it as it was (memory.rs, "Failed try and
    // timed operations").
    let joined = crate::memory::await_count_now(ObjId(c));
    crate::memory::log_cond_join(ObjId(c));
    // Joined the waiters: every waiter at this moment must use the same mutex.
    let other = with_sync(|s| {
        let e = s.cond.entry(c).or_insert((maddr, 0));
        if e.1 > 0 && e.0 != maddr {
            return Some(e.0);
        }
        *e = (maddr, e.1 + 1);
        None
    });
    if let Some(o) = other {
        report(
            DefectKind::SyncMisuse,
            format!("{me} waits on condition variable {c:#x} with mutex {maddr:#x} while other threads wait on it with mutex {o:#x}"),
            file,
            line,
        );
    }
    visible(crate::memory::unlock(ObjId(maddr)), file, line);
    with_rt(|rt| rt.held.remove(&maddr));
    if timed {
        // A pure iteration of a timed-wait loop waits here, among the waiters.
        crate::memory::spin_before_timed_wake(ObjId(c), ObjId(maddr), joined, site_file_line(file, line));
    }
    let spurious = !timed && SPURIOUS.load(Ordering::Relaxed) && with_sync(|s| !s.spurious_used.contains(&me));
    let untimed_wake = !timed && !spurious;
    let signalled = visible(Action::CondWake(ObjId(c), !untimed_wake, untimed_wake), file, line) == 1;
    with_sync(|s| {
        if let Some(e) = s.cond.get_mut(&c) {
            e.1 = e.1.saturating_sub(1);
        }
        if spurious && !signalled {
            s.spurious_used.insert(me);
        }
    });
    visible(Action::Lock(ObjId(maddr)), file, line);
    with_rt(|rt| rt.held.insert(maddr, (me, count)));
    signalled
}

/// Replaces `pthread_cond_wait`. Without `--spurious-wakeups` it returns only when
/// signalled; with it, it may also return without a signal.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_cond_wait(
    c: *mut libc::pthread_cond_t,
    m: *mut libc::pthread_mutex_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_cond(c, "waits on", file, line);
        cond_wait(addr, m, false, file, line);
        0
    })
}

/// Replaces `pthread_cond_timedwait`: returns 0 when signalled, ETIMEDOUT otherwise (the
/// time-out is explored, not timed).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_cond_timedwait(
    c: *mut libc::pthread_cond_t,
    m: *mut libc::pthread_mutex_t,
    _abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_cond(c, "waits on", file, line);
        if cond_wait(addr, m, true, file, line) {
            0
        } else {
            libc::ETIMEDOUT
        }
    })
}

/// Replaces `pthread_cond_clockwait`: [`__unfold_pthread_cond_timedwait`] on clock `clk`
/// (`EINVAL` for a clock other than `CLOCK_REALTIME`/`CLOCK_MONOTONIC`, before the mutex is
/// touched).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_cond_clockwait(
    c: *mut libc::pthread_cond_t,
    m: *mut libc::pthread_mutex_t,
    clk: libc::clockid_t,
    abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    if !wait_clock_ok(clk) {
        return libc::EINVAL;
    }
    // SAFETY: same contract as the timedwait shim.
    unsafe { __unfold_pthread_cond_timedwait(c, m, abstime, file, line) }
}

/// Replaces `pthread_cond_signal`: wakes one waiter (which one is explored); lost if
/// there is none.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_cond_signal(
    c: *mut libc::pthread_cond_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_cond(c, "signals", file, line);
        visible(Action::Signal(ObjId(addr)), file, line);
        0
    })
}

/// Replaces `pthread_cond_broadcast`: wakes every current waiter.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_cond_broadcast(
    c: *mut libc::pthread_cond_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_cond(c, "broadcasts", file, line);
        visible(Action::Broadcast(ObjId(addr)), file, line);
        0
    })
}

/// Replaces `pthread_cond_destroy`. Whether threads still wait depends on the
/// schedule, so the check follows a visible `signal` (a no-op without waiters, and
/// dependent with every operation on the condition variable); with waiters it is misuse.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_cond_destroy(
    c: *mut libc::pthread_cond_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_cond(c, "destroys", file, line);
        visible(Action::Signal(ObjId(addr)), file, line);
        let waiters = with_sync(|s| s.cond.get(&addr).map_or(0, |e| e.1));
        if waiters > 0 {
            report(
                DefectKind::SyncMisuse,
                format!("{} destroys condition variable {addr:#x} while {waiters} thread(s) wait on it", current()),
                file,
                line,
            );
        }
        // SAFETY: checked readable; the program's pthread_cond_t.
        unsafe { set_marker(addr, DESTROYED) };
        0
    })
}

// The attributes of a condition variable, a read-write lock and a barrier are kept in the
// program's attribute object for their getters, as ints (zero: every default), and change
// nothing unfold explores (time-outs are explored, not timed; there is one process) but a
// read-write lock's kind, see `pthread_rwlockattr_setkind_np`.

/// Replace the int at index `i` of the attribute object `a` (at least `4 * (i + 1)`
/// bytes) by `f` of it: 0, or `EINVAL` when `a` is null.
///
/// # Safety
/// `a` must be null or point to an attribute object of at least `4 * (i + 1)` bytes.
unsafe fn with_attr_word(a: *mut c_void, i: usize, f: impl FnOnce(c_int) -> c_int) -> c_int {
    if a.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    let p = unsafe { a.cast::<c_int>().add(i) };
    // SAFETY: as above.
    unsafe { p.write_unaligned(f(p.read_unaligned())) };
    0
}

/// Store the int at index `i` of the attribute object `a` in `out` (`EINVAL` when either
/// is null).
///
/// # Safety
/// `a` must be null or point to an attribute object of at least `4 * (i + 1)` bytes, `out`
/// null or point to an `int`.
unsafe fn attr_word_get(a: *const c_void, i: usize, out: *mut c_int) -> c_int {
    if a.is_null() || out.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe { out.write_unaligned(a.cast::<c_int>().add(i).read_unaligned()) };
    0
}

/// Whether `p` is `PTHREAD_PROCESS_PRIVATE` or `PTHREAD_PROCESS_SHARED`.
fn pshared_ok(p: c_int) -> bool {
    p == libc::PTHREAD_PROCESS_PRIVATE || p == libc::PTHREAD_PROCESS_SHARED
}

/// Replaces `pthread_condattr_init` (a `pthread_condattr_t` has 4 bytes: the clock in its
/// int's upper bits, process-shared in bit 0, as glibc).
///
/// # Safety
/// `a` must be null or point to a `pthread_condattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_condattr_init(a: *mut libc::pthread_condattr_t) -> c_int {
    // SAFETY: by the contract.
    unsafe { with_attr_word(a.cast(), 0, |_| 0) }
}

/// Replaces `pthread_condattr_setclock`: `CLOCK_REALTIME` or `CLOCK_MONOTONIC` (kept for
/// `pthread_condattr_getclock`; a time-out is explored whatever its clock), another clock
/// is `EINVAL`, as glibc.
///
/// # Safety
/// `a` must be null or point to a `pthread_condattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_condattr_setclock(
    a: *mut libc::pthread_condattr_t,
    clk: libc::clockid_t,
) -> c_int {
    if !wait_clock_ok(clk) {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe { with_attr_word(a.cast(), 0, |w| (w & 1) | (clk << 1)) }
}

/// Replaces `pthread_condattr_getclock`: the clock set (default `CLOCK_REALTIME`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_condattr_getclock(
    a: *const libc::pthread_condattr_t,
    clk: *mut libc::clockid_t,
) -> c_int {
    let mut w = 0;
    // SAFETY: by the contract.
    let r = unsafe { attr_word_get(a.cast(), 0, if clk.is_null() { std::ptr::null_mut() } else { &mut w }) };
    if r == 0 {
        // SAFETY: checked non-null by attr_word_get's success; the program's clockid_t.
        unsafe { clk.write_unaligned(w >> 1) };
    }
    r
}

/// Replaces `pthread_condattr_setpshared`: either value accepted and kept (one process:
/// no effect), another is `EINVAL`.
///
/// # Safety
/// `a` must be null or point to a `pthread_condattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_condattr_setpshared(a: *mut libc::pthread_condattr_t, p: c_int) -> c_int {
    if !pshared_ok(p) {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe { with_attr_word(a.cast(), 0, |w| (w & !1) | p) }
}

/// Replaces `pthread_condattr_getpshared`: the value set (default
/// `PTHREAD_PROCESS_PRIVATE`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_condattr_getpshared(
    a: *const libc::pthread_condattr_t,
    p: *mut c_int,
) -> c_int {
    let mut w = 0;
    // SAFETY: by the contract.
    let r = unsafe { attr_word_get(a.cast(), 0, if p.is_null() { std::ptr::null_mut() } else { &mut w }) };
    if r == 0 {
        // SAFETY: checked non-null by attr_word_get's success.
        unsafe { p.write_unaligned(w & 1) };
    }
    r
}

// ---- semaphores -------------------------------------------------------------------------

const SEM_SIZE: usize = std::mem::size_of::<libc::sem_t>();

/// Check that a semaphore or barrier (`noun`) at `p` is readable and live: initialised
/// (`init` names the function that does it) and not destroyed; reports misuse otherwise.
fn check_live(
    p: *const c_void,
    size: usize,
    noun: &str,
    init: &str,
    what: &str,
    file: *const c_char,
    line: c_int,
) -> u64 {
    let addr = check_ptr(p, size, &format_args!("{what} a {noun}"), DefectKind::SyncMisuse, file, line);
    // SAFETY: checked readable above.
    match unsafe { marker(addr) } {
        LIVE => addr,
        DEAD => report(
            DefectKind::SyncMisuse,
            format!("{} {what} {noun} {addr:#x}, which was destroyed", current()),
            file,
            line,
        ),
        _ => report(
            DefectKind::SyncMisuse,
            format!("{} {what} {noun} {addr:#x}, which was never initialised{init}", current()),
            file,
            line,
        ),
    }
}

fn check_sem(s: *const libc::sem_t, what: &str, file: *const c_char, line: c_int) -> u64 {
    check_live(s.cast(), SEM_SIZE, "semaphore", " (sem_init)", what, file, line)
}

/// After the visible step of an operation on the object at `addr` (checked live when
/// the call began): another thread may have destroyed it while this one waited to be
/// scheduled — the destroy is a visible step on the object too, so the explorers order
/// the two both ways, and a check made only when the call began missed this order.
/// `destroyed_by`: the marker a destroy leaves (`DEAD` for semaphores and barriers,
/// `DESTROYED` for mutexes, condition variables and read-write locks), the kind of the
/// misuse and the object's noun.
fn still_live(addr: u64, destroyed_by: (u32, DefectKind, &str), what: &str, file: *const c_char, line: c_int) {
    let (mark, kind, noun) = destroyed_by;
    // SAFETY: checked readable when the call began; the program's object stays mapped.
    if unsafe { marker(addr) } == mark {
        report(kind, format!("{} {what} {noun} {addr:#x}, which was destroyed", current()), file, line);
    }
}

/// [`still_live`] for a semaphore.
fn sem_still_live(addr: u64, what: &str, file: *const c_char, line: c_int) {
    still_live(addr, (DEAD, DefectKind::SyncMisuse, "semaphore"), what, file, line);
}

/// [`still_live`] for a mutex.
pub(crate) fn mutex_still_live(addr: u64, what: &str, file: *const c_char, line: c_int) {
    still_live(addr, (DESTROYED, DefectKind::MutexMisuse, "mutex"), what, file, line);
}

/// [`still_live`] for a read-write lock.
fn rw_still_live(addr: u64, what: &str, file: *const c_char, line: c_int) {
    still_live(addr, (DESTROYED, DefectKind::MutexMisuse, "read-write lock"), what, file, line);
}

/// Replaces `sem_init` (`pshared` is ignored: there is one process).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_sem_init(
    s: *mut libc::sem_t,
    _pshared: c_int,
    value: c_uint,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_ptr(s.cast(), SEM_SIZE, &"initialises a semaphore", DefectKind::SyncMisuse, file, line);
        if value > i32::MAX as c_uint {
            set_errno(libc::EINVAL);
            return -1;
        }
        visible(Action::SemInit(ObjId(addr), value), file, line);
        // SAFETY: the program's sem_t, checked readable.
        unsafe { set_marker(addr, LIVE) };
        0
    })
}

/// Replaces `sem_wait`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_sem_wait(s: *mut libc::sem_t, file: *const c_char, line: c_int) -> c_int {
    crate::shims::guard(|| {
        let addr = check_sem(s, "waits on", file, line);
        with_sync(|s| *s.sem_waiting.entry(addr).or_default() += 1);
        visible(Action::SemWait(ObjId(addr)), file, line);
        with_sync(|s| s.sem_waiting.get_mut(&addr).map(|n| *n -= 1));
        sem_still_live(addr, "waits on", file, line);
        0
    })
}

fn sem_try(s: *mut libc::sem_t, fail_errno: c_int, file: *const c_char, line: c_int) -> c_int {
    let addr = check_sem(s, "waits on", file, line);
    if crate::shims::hidden_try(ObjId(addr), file, line) {
        set_errno(fail_errno);
        return -1;
    }
    let took = visible(Action::SemTryWait(ObjId(addr), false), file, line) == 1;
    sem_still_live(addr, "waits on", file, line);
    if took {
        0
    } else {
        crate::memory::log_sync_read(ObjId(addr));
        set_errno(fail_errno);
        -1
    }
}

/// Replaces `sem_trywait`: -1 with `errno` EAGAIN when the value is zero.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_sem_trywait(s: *mut libc::sem_t, file: *const c_char, line: c_int) -> c_int {
    crate::shims::guard(|| sem_try(s, libc::EAGAIN, file, line))
}

/// Replaces `sem_timedwait`: a try whose failure is a time-out (-1, `errno` ETIMEDOUT).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_sem_timedwait(
    s: *mut libc::sem_t,
    _abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| sem_try(s, libc::ETIMEDOUT, file, line))
}

/// Replaces `sem_clockwait`: [`__unfold_sem_timedwait`] on clock `clk` (-1 with `errno`
/// `EINVAL` for a clock other than `CLOCK_REALTIME`/`CLOCK_MONOTONIC`).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_sem_clockwait(
    s: *mut libc::sem_t,
    clk: libc::clockid_t,
    abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    if !wait_clock_ok(clk) {
        set_errno(libc::EINVAL);
        return -1;
    }
    // SAFETY: same contract as the timedwait shim.
    unsafe { __unfold_sem_timedwait(s, abstime, file, line) }
}

/// Replaces `sem_post`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_sem_post(s: *mut libc::sem_t, file: *const c_char, line: c_int) -> c_int {
    crate::shims::guard(|| {
        let addr = check_sem(s, "posts", file, line);
        visible(Action::SemPost(ObjId(addr)), file, line);
        sem_still_live(addr, "posts", file, line);
        0
    })
}

/// Replaces `sem_getvalue`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_sem_getvalue(
    s: *mut libc::sem_t,
    out: *mut c_int,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_sem(s, "reads", file, line);
        let v = visible(Action::SemValue(ObjId(addr)), file, line);
        sem_still_live(addr, "reads", file, line);
        if out.is_null() {
            report(DefectKind::Crash, "sem_getvalue with a null result pointer".into(), file, line);
        }
        // SAFETY: the program passed a pointer to an int for the value.
        unsafe { out.write(v as c_int) };
        0
    })
}

/// Replaces `sem_destroy`: later uses are misuse (until `sem_init` again), and so is
/// destroying a semaphore while threads are blocked on it (POSIX leaves it undefined): a
/// `sem_wait` announced on a semaphore whose value is 0 when the destroy runs. (A wait
/// announced on a positive value is not blocked: the schedule where it runs after the
/// destroy is the use of a destroyed semaphore, reported when it runs.)
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_sem_destroy(s: *mut libc::sem_t, file: *const c_char, line: c_int) -> c_int {
    crate::shims::guard(|| {
        let addr = check_sem(s, "destroys", file, line);
        // A read of the value: a visible step dependent with every wait and post, so
        // that the explorers order them with the destroy both ways (`still_live`).
        let value = visible(Action::SemValue(ObjId(addr)), file, line);
        sem_still_live(addr, "destroys", file, line);
        let blocked = with_sync(|s| s.sem_waiting.get(&addr).copied().unwrap_or(0));
        if value == 0 && blocked > 0 {
            report(
                DefectKind::SyncMisuse,
                format!("{} destroys semaphore {addr:#x} while {blocked} thread(s) are blocked on it", current()),
                file,
                line,
            );
        }
        // SAFETY: the program's sem_t, checked readable.
        unsafe { set_marker(addr, DEAD) };
        0
    })
}

// ---- read-write locks -------------------------------------------------------------------

const RW_SIZE: usize = std::mem::size_of::<libc::pthread_rwlock_t>();

fn check_rw(l: *const libc::pthread_rwlock_t, what: &str, file: *const c_char, line: c_int) -> u64 {
    let addr =
        check_ptr(l.cast(), RW_SIZE, &format_args!("{what} a read-write lock"), DefectKind::MutexMisuse, file, line);
    // SAFETY: checked readable above.
    if unsafe { marker(addr) } == DESTROYED {
        report(
            DefectKind::MutexMisuse,
            format!("{} {what} read-write lock {addr:#x}, which was destroyed", current()),
            file,
            line,
        );
    }
    addr
}

/// Whether `me` holds read-write lock `addr` for writing, and whether for reading.
fn rw_held_by(addr: u64, me: ThreadId) -> (bool, bool) {
    with_sync(|s| s.rw.get(&addr).map_or((false, false), |h| (h.writer == Some(me), h.readers.contains(&me))))
}

fn rw_took(addr: u64, me: ThreadId, write: bool) {
    with_sync(|s| {
        let h = s.rw.entry(addr).or_default();
        if write {
            h.writer = Some(me);
        } else {
            h.readers.push(me);
        }
    });
}

/// Replaces `pthread_rwlock_init`. Of the attributes only the kind matters: the
/// writer-preferring one unfold does not model is an error
/// ([`__unfold_pthread_rwlockattr_setkind_np`]).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlock_init(
    l: *mut libc::pthread_rwlock_t,
    attr: *const libc::pthread_rwlockattr_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let mut kind = 0;
        // SAFETY: a non-null attr is the program's pthread_rwlockattr_t.
        unsafe { attr_word_get(attr.cast(), 0, &mut kind) };
        if kind == RWLOCK_PREFER_WRITER_NONRECURSIVE {
            crate::shims::unsupported(
                "pthread_rwlock_init with kind PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP: unfold models \
                 reader-preferring read-write locks only (a reader gets the lock whenever no writer holds it; \
                 use PTHREAD_RWLOCK_PREFER_READER_NP, the default)"
                    .into(),
            );
        }
        let addr = check_ptr(l.cast(), RW_SIZE, &"initialises a read-write lock", DefectKind::MutexMisuse, file, line);
        // SAFETY: the program's lock, checked readable; all-zero is the static initializer.
        unsafe { std::ptr::write_bytes(addr as *mut u8, 0, RW_SIZE) };
        0
    })
}

/// Lock `l` for reading or writing: blocking, or a try (`fail` is the error of a
/// failed try). A thread that holds the lock for writing gets EBUSY from a try and
/// EDEADLK from the other calls (POSIX allows it; glibc does the same); a reader asking
/// to write blocks for good (a deadlock).
fn rw_lock(
    l: *mut libc::pthread_rwlock_t,
    write: bool,
    fail: Option<c_int>,
    file: *const c_char,
    line: c_int,
) -> c_int {
    let me = current();
    let addr = check_rw(l, "locks", file, line);
    let (writing, reading) = rw_held_by(addr, me);
    if writing {
        return if fail == Some(libc::EBUSY) { libc::EBUSY } else { libc::EDEADLK };
    }
    let o = ObjId(addr);
    if let Some(f) = fail {
        if crate::shims::hidden_try(o, file, line) {
            return f;
        }
    }
    if fail.is_none() {
        // A loop polling under the lock waits as under a mutex (memory.rs, "Polling under a
        // mutex"): a wait found inside its critical section is taken before this lock, unless
        // the thread still holds a read lock on it.
        let wait = if reading { None } else { with_rt(|rt| crate::memory::deferred_lock_wait(rt, o)) };
        if let Some(w) = wait {
            crate::memory::block_before_lock(w, crate::exec::site_file_line(file, line));
        }
    }
    let ok = match (fail, write) {
        (None, false) => visible(Action::RdLock(o), file, line) == 0,
        (None, true) => visible(Action::WrLock(o), file, line) == 0,
        (Some(_), false) => visible(Action::TryRdLock(o, false), file, line) == 1,
        (Some(_), true) => visible(Action::TryWrLock(o, false), file, line) == 1,
    };
    rw_still_live(addr, "locks", file, line);
    if ok {
        rw_took(addr, me, write);
        0
    } else {
        crate::memory::log_sync_read(o);
        fail.unwrap_or(0)
    }
}

macro_rules! rw_shim {
    ($name:ident, $write:expr, $fail:expr, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// Called by the C program with the arguments of the function it replaces.
        #[no_mangle]
        pub unsafe extern "C" fn $name(l: *mut libc::pthread_rwlock_t, file: *const c_char, line: c_int) -> c_int {
            crate::shims::guard(|| rw_lock(l, $write, $fail, file, line))
        }
    };
}

rw_shim!(__unfold_pthread_rwlock_rdlock, false, None, "Replaces `pthread_rwlock_rdlock`.");
rw_shim!(__unfold_pthread_rwlock_wrlock, true, None, "Replaces `pthread_rwlock_wrlock`.");
rw_shim!(__unfold_pthread_rwlock_tryrdlock, false, Some(libc::EBUSY), "Replaces `pthread_rwlock_tryrdlock`.");
rw_shim!(__unfold_pthread_rwlock_trywrlock, true, Some(libc::EBUSY), "Replaces `pthread_rwlock_trywrlock`.");

/// Replaces `pthread_rwlock_timedrdlock`: a try whose failure is ETIMEDOUT.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlock_timedrdlock(
    l: *mut libc::pthread_rwlock_t,
    _abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| rw_lock(l, false, Some(libc::ETIMEDOUT), file, line))
}

/// Replaces `pthread_rwlock_timedwrlock`: a try whose failure is ETIMEDOUT.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlock_timedwrlock(
    l: *mut libc::pthread_rwlock_t,
    _abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| rw_lock(l, true, Some(libc::ETIMEDOUT), file, line))
}

/// Replaces `pthread_rwlock_clockrdlock`: [`__unfold_pthread_rwlock_timedrdlock`] on
/// clock `clk` (`EINVAL` for a clock other than `CLOCK_REALTIME`/`CLOCK_MONOTONIC`).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlock_clockrdlock(
    l: *mut libc::pthread_rwlock_t,
    clk: libc::clockid_t,
    abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    if !wait_clock_ok(clk) {
        return libc::EINVAL;
    }
    // SAFETY: same contract as the timedrdlock shim.
    unsafe { __unfold_pthread_rwlock_timedrdlock(l, abstime, file, line) }
}

/// Replaces `pthread_rwlock_clockwrlock`: [`__unfold_pthread_rwlock_timedwrlock`] on
/// clock `clk` (`EINVAL` for a clock other than `CLOCK_REALTIME`/`CLOCK_MONOTONIC`).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlock_clockwrlock(
    l: *mut libc::pthread_rwlock_t,
    clk: libc::clockid_t,
    abstime: *const libc::timespec,
    file: *const c_char,
    line: c_int,
) -> c_int {
    if !wait_clock_ok(clk) {
        return libc::EINVAL;
    }
    // SAFETY: same contract as the timedwrlock shim.
    unsafe { __unfold_pthread_rwlock_timedwrlock(l, abstime, file, line) }
}

/// Replaces `pthread_rwlock_unlock`: releases the caller's write lock, else one of its
/// read locks; unlocking a lock the thread does not hold is misuse.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlock_unlock(
    l: *mut libc::pthread_rwlock_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let me = current();
        let addr = check_rw(l, "unlocks", file, line);
        let write = match with_sync(|s| s.rw.get(&addr).map(|h| (h.writer, h.readers.contains(&me)))) {
            Some((Some(w), _)) if w == me => true,
            Some((_, true)) => false,
            _ => report(
                DefectKind::MutexMisuse,
                format!("{me} unlocks read-write lock {addr:#x}, which it does not hold"),
                file,
                line,
            ),
        };
        visible(Action::RwUnlock(ObjId(addr), write), file, line);
        with_sync(|s| {
            let h = s.rw.entry(addr).or_default();
            if write {
                h.writer = None;
            } else if let Some(i) = h.readers.iter().position(|&t| t == me) {
                h.readers.swap_remove(i);
            }
        });
        0
    })
}

/// Replaces `pthread_rwlock_destroy`: destroying a lock the thread holds is misuse;
/// whether another thread holds it depends on the schedule, so it is checked with a
/// visible `trywrlock` (and its unlock).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlock_destroy(
    l: *mut libc::pthread_rwlock_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let me = current();
        let addr = check_rw(l, "destroys", file, line);
        let mine = with_sync(|s| s.rw.get(&addr).is_some_and(|h| h.writer == Some(me) || h.readers.contains(&me)));
        if mine {
            report(
                DefectKind::MutexMisuse,
                format!("{me} destroys read-write lock {addr:#x}, which it holds"),
                file,
                line,
            );
        }
        let destroy =
            |a| suspend(Yield::Pending(a, site_with_role(site_file_line(file, line), SiteRole::RwLockDestroy)));
        if destroy(Action::TryWrLock(ObjId(addr), false)) != 1 {
            report(
                DefectKind::MutexMisuse,
                format!("{me} destroys read-write lock {addr:#x} while another thread holds it"),
                file,
                line,
            );
        }
        destroy(Action::RwUnlock(ObjId(addr), true));
        // SAFETY: the program's lock, checked readable.
        unsafe { set_marker(addr, DESTROYED) };
        0
    })
}

/// Replaces `pthread_condattr_destroy`, `pthread_rwlockattr_destroy` and
/// `pthread_barrierattr_destroy`: accepted, no effect.
#[no_mangle]
pub extern "C" fn __unfold_pthread_attr_noop(_a: *mut c_void, _v: c_int) -> c_int {
    0
}

/// glibc's `PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP`: the one kind unfold does not
/// model (`PTHREAD_RWLOCK_PREFER_READER_NP`, the default, is 0; `_PREFER_WRITER_NP`, 1,
/// behaves as it in glibc).
const RWLOCK_PREFER_WRITER_NONRECURSIVE: c_int = 2;

/// Replaces `pthread_rwlockattr_init` (a `pthread_rwlockattr_t` has 8 bytes: the kind in
/// its first int, process-shared in its second).
///
/// # Safety
/// `a` must be null or point to a `pthread_rwlockattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlockattr_init(a: *mut libc::pthread_rwlockattr_t) -> c_int {
    // SAFETY: by the contract (8 bytes).
    unsafe {
        with_attr_word(a.cast(), 0, |_| 0);
        with_attr_word(a.cast(), 1, |_| 0)
    }
}

/// Replaces `pthread_rwlockattr_setkind_np`: `PTHREAD_RWLOCK_PREFER_READER_NP` and
/// `_PREFER_WRITER_NP` (which glibc treats as the former) are the reader preference the
/// engine's lock models (a reader gets the lock whenever no writer holds it:
/// `unfold_engine::objects::rwlock`). `_PREFER_WRITER_NONRECURSIVE_NP` is kept too, and
/// a lock initialised with it stops the exploration with an error (new readers would
/// wait behind a waiting writer: behaviours, such as a recursive read lock's deadlock,
/// unfold would miss). Another value is `EINVAL`.
///
/// # Safety
/// `a` must be null or point to a `pthread_rwlockattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlockattr_setkind_np(
    a: *mut libc::pthread_rwlockattr_t,
    kind: c_int,
) -> c_int {
    if !(0..=RWLOCK_PREFER_WRITER_NONRECURSIVE).contains(&kind) {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe { with_attr_word(a.cast(), 0, |_| kind) }
}

/// Replaces `pthread_rwlockattr_getkind_np`: the kind set (default
/// `PTHREAD_RWLOCK_PREFER_READER_NP`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlockattr_getkind_np(
    a: *const libc::pthread_rwlockattr_t,
    kind: *mut c_int,
) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_word_get(a.cast(), 0, kind) }
}

/// Replaces `pthread_rwlockattr_setpshared`: either value accepted and kept (one
/// process: no effect), another is `EINVAL`.
///
/// # Safety
/// `a` must be null or point to a `pthread_rwlockattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlockattr_setpshared(a: *mut libc::pthread_rwlockattr_t, p: c_int) -> c_int {
    if !pshared_ok(p) {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe { with_attr_word(a.cast(), 1, |_| p) }
}

/// Replaces `pthread_rwlockattr_getpshared`: the value set (default
/// `PTHREAD_PROCESS_PRIVATE`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_rwlockattr_getpshared(
    a: *const libc::pthread_rwlockattr_t,
    p: *mut c_int,
) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_word_get(a.cast(), 1, p) }
}

// ---- barriers ---------------------------------------------------------------------------

/// Replaces `pthread_barrierattr_init` (a `pthread_barrierattr_t` has 4 bytes: whether it
/// is process-shared).
///
/// # Safety
/// `a` must be null or point to a `pthread_barrierattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_barrierattr_init(a: *mut libc::pthread_barrierattr_t) -> c_int {
    // SAFETY: by the contract.
    unsafe { with_attr_word(a.cast(), 0, |_| 0) }
}

/// Replaces `pthread_barrierattr_setpshared`: either value accepted and kept (one
/// process: no effect), another is `EINVAL`.
///
/// # Safety
/// `a` must be null or point to a `pthread_barrierattr_t`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_barrierattr_setpshared(
    a: *mut libc::pthread_barrierattr_t,
    p: c_int,
) -> c_int {
    if !pshared_ok(p) {
        return libc::EINVAL;
    }
    // SAFETY: by the contract.
    unsafe { with_attr_word(a.cast(), 0, |_| p) }
}

/// Replaces `pthread_barrierattr_getpshared`: the value set (default
/// `PTHREAD_PROCESS_PRIVATE`).
///
/// # Safety
/// Pointers must be null or valid, as for the function replaced.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_barrierattr_getpshared(
    a: *const libc::pthread_barrierattr_t,
    p: *mut c_int,
) -> c_int {
    // SAFETY: by the contract.
    unsafe { attr_word_get(a.cast(), 0, p) }
}

const BARRIER_SIZE: usize = std::mem::size_of::<libc::pthread_barrier_t>();

/// Replaces `pthread_barrier_init`; a count of 0 is EINVAL.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_barrier_init(
    b: *mut libc::pthread_barrier_t,
    _attr: *const libc::pthread_barrierattr_t,
    count: c_uint,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_ptr(b.cast(), BARRIER_SIZE, &"initialises a barrier", DefectKind::SyncMisuse, file, line);
        if count == 0 {
            return libc::EINVAL;
        }
        visible(Action::BarrierInit(ObjId(addr), count), file, line);
        // SAFETY: the program's barrier, checked readable.
        unsafe { set_marker(addr, LIVE) };
        0
    })
}

fn check_barrier(b: *const libc::pthread_barrier_t, what: &str, file: *const c_char, line: c_int) -> u64 {
    check_live(b.cast(), BARRIER_SIZE, "barrier", "", what, file, line)
}

/// Replaces `pthread_barrier_wait`: the arrival completing a round returns
/// `PTHREAD_BARRIER_SERIAL_THREAD` at once; the others wait for the round and return 0.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_barrier_wait(
    b: *mut libc::pthread_barrier_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_barrier(b, "waits at", file, line);
        if visible(Action::BarrierArrive(ObjId(addr), false), file, line) == 1 {
            return libc::PTHREAD_BARRIER_SERIAL_THREAD;
        }
        visible(Action::BarrierLeave(ObjId(addr)), file, line);
        0
    })
}

/// Replaces `pthread_barrier_destroy`: later waits are misuse (until init again).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_barrier_destroy(
    b: *mut libc::pthread_barrier_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_barrier(b, "destroys", file, line);
        // SAFETY: the program's barrier, checked readable.
        unsafe { set_marker(addr, DEAD) };
        0
    })
}

// ---- once ---------------------------------------------------------------------------------

/// `pthread_once` / `call_once`: a mutex on the control's address around a check of the
/// done flag kept in the control itself (every caller takes the mutex, so a caller that
/// comes second waits until the routine finished, and which caller runs the routine is
/// explored).
pub(crate) fn once(
    ctl: *mut c_int,
    routine: Option<unsafe extern "C" fn()>,
    file: *const c_char,
    line: c_int,
) -> c_int {
    let addr = check_ptr(ctl.cast(), 4, &"calls pthread_once with", DefectKind::SyncMisuse, file, line);
    let Some(routine) = routine else {
        report(DefectKind::Crash, "pthread_once with a null routine".into(), file, line)
    };
    visible(Action::Lock(ObjId(addr)), file, line);
    // SAFETY: the program's once control (an int), checked readable.
    if unsafe { ctl.read_volatile() } != ONCE_DONE {
        // SAFETY: calling the routine the program passed, as pthread_once does.
        unsafe { routine() };
        // SAFETY: as above.
        unsafe { ctl.write_volatile(ONCE_DONE) };
    }
    visible(crate::memory::unlock(ObjId(addr)), file, line);
    0
}

/// Replaces `pthread_once`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_once(
    ctl: *mut libc::pthread_once_t,
    routine: Option<unsafe extern "C" fn()>,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| once(ctl, routine, file, line))
}

// ---- spinlocks ----------------------------------------------------------------------------

fn check_spin(s: *const libc::pthread_spinlock_t, what: &str, file: *const c_char, line: c_int) -> u64 {
    check_ptr(s.cast(), 4, &format_args!("{what} a spinlock"), DefectKind::MutexMisuse, file, line)
}

/// Replaces `pthread_spin_init`.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_spin_init(
    s: *mut libc::pthread_spinlock_t,
    _pshared: c_int,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        check_spin(s, "initialises", file, line);
        0
    })
}

/// Replaces `pthread_spin_lock`: a mutex lock (relocking it is a self-deadlock, as with
/// a real spinlock). A loop polling under the spinlock waits as under a mutex: a wait
/// found inside the critical section is taken before the next lock (memory.rs, "Polling
/// under a mutex").
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_spin_lock(
    s: *mut libc::pthread_spinlock_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_spin(s, "locks", file, line);
        // Not for a relock (a self-deadlock, which the lock step reports).
        let wait = with_rt(|rt| {
            let me = rt.current;
            let held = rt.held.get(&addr).is_some_and(|h| h.0 == me);
            (!held).then(|| crate::memory::deferred_lock_wait(rt, ObjId(addr))).flatten()
        });
        if let Some(w) = wait {
            crate::memory::block_before_lock(w, crate::exec::site_file_line(file, line));
        }
        visible(Action::Lock(ObjId(addr)), file, line);
        let me = current();
        with_rt(|rt| rt.held.insert(addr, (me, 1)));
        0
    })
}

/// Replaces `pthread_spin_trylock` (EBUSY when held).
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_spin_trylock(
    s: *mut libc::pthread_spinlock_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let addr = check_spin(s, "locks", file, line);
        if crate::shims::hidden_try(ObjId(addr), file, line) {
            return libc::EBUSY;
        }
        if visible(Action::TryLock(ObjId(addr), false), file, line) == 1 {
            let me = current();
            with_rt(|rt| rt.held.insert(addr, (me, 1)));
            0
        } else {
            crate::memory::log_sync_read(ObjId(addr));
            libc::EBUSY
        }
    })
}

fn spin_holder(addr: u64) -> Option<ThreadId> {
    with_rt(|rt| rt.held.get(&addr).map(|h| h.0))
}

/// Replaces `pthread_spin_unlock`; unlocking a spinlock not held is misuse.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_spin_unlock(
    s: *mut libc::pthread_spinlock_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let me = current();
        let addr = check_spin(s, "unlocks", file, line);
        if spin_holder(addr) != Some(me) {
            report(
                DefectKind::MutexMisuse,
                format!("{me} unlocks spinlock {addr:#x}, which it does not hold"),
                file,
                line,
            );
        }
        visible(crate::memory::unlock(ObjId(addr)), file, line);
        with_rt(|rt| rt.held.remove(&addr));
        0
    })
}

/// Replaces `pthread_spin_destroy`; destroying a spinlock the thread holds is misuse.
///
/// # Safety
/// Called by the C program with the arguments of the function it replaces.
#[no_mangle]
pub unsafe extern "C" fn __unfold_pthread_spin_destroy(
    s: *mut libc::pthread_spinlock_t,
    file: *const c_char,
    line: c_int,
) -> c_int {
    crate::shims::guard(|| {
        let me = current();
        let addr = check_spin(s, "destroys", file, line);
        if spin_holder(addr) == Some(me) {
            report(DefectKind::MutexMisuse, format!("{me} destroys spinlock {addr:#x}, which it holds"), file, line);
        }
        0
    })
}

/// Addresses of every shim of this module (see [`crate::shims::shim_table`]).
pub fn shim_table() -> Vec<usize> {
    vec![
        __unfold_pthread_mutex_timedlock as *const () as usize,
        __unfold_pthread_mutex_clocklock as *const () as usize,
        __unfold_pthread_cond_clockwait as *const () as usize,
        __unfold_sem_clockwait as *const () as usize,
        __unfold_pthread_rwlock_clockrdlock as *const () as usize,
        __unfold_pthread_rwlock_clockwrlock as *const () as usize,
        __unfold_pthread_yield as *const () as usize,
        __unfold_pthread_cond_init as *const () as usize,
        __unfold_pthread_cond_wait as *const () as usize,
        __unfold_pthread_cond_timedwait as *const () as usize,
        __unfold_pthread_cond_signal as *const () as usize,
        __unfold_pthread_cond_broadcast as *const () as usize,
        __unfold_pthread_cond_destroy as *const () as usize,
        __unfold_pthread_condattr_init as *const () as usize,
        __unfold_pthread_condattr_setclock as *const () as usize,
        __unfold_pthread_condattr_getclock as *const () as usize,
        __unfold_pthread_condattr_setpshared as *const () as usize,
        __unfold_pthread_condattr_getpshared as *const () as usize,
        __unfold_sem_init as *const () as usize,
        __unfold_sem_wait as *const () as usize,
        __unfold_sem_trywait as *const () as usize,
        __unfold_sem_timedwait as *const () as usize,
        __unfold_sem_post as *const () as usize,
        __unfold_sem_getvalue as *const () as usize,
        __unfold_sem_destroy as *const () as usize,
        __unfold_pthread_rwlock_init as *const () as usize,
        __unfold_pthread_rwlock_rdlock as *const () as usize,
        __unfold_pthread_rwlock_wrlock as *const () as usize,
        __unfold_pthread_rwlock_tryrdlock as *const () as usize,
        __unfold_pthread_rwlock_trywrlock as *const () as usize,
        __unfold_pthread_rwlock_timedrdlock as *const () as usize,
        __unfold_pthread_rwlock_timedwrlock as *const () as usize,
        __unfold_pthread_rwlock_unlock as *const () as usize,
        __unfold_pthread_rwlock_destroy as *const () as usize,
        __unfold_pthread_attr_noop as *const () as usize,
        __unfold_pthread_rwlockattr_init as *const () as usize,
        __unfold_pthread_rwlockattr_setkind_np as *const () as usize,
        __unfold_pthread_rwlockattr_getkind_np as *const () as usize,
        __unfold_pthread_rwlockattr_setpshared as *const () as usize,
        __unfold_pthread_rwlockattr_getpshared as *const () as usize,
        __unfold_pthread_barrierattr_init as *const () as usize,
        __unfold_pthread_barrierattr_setpshared as *const () as usize,
        __unfold_pthread_barrierattr_getpshared as *const () as usize,
        __unfold_pthread_barrier_init as *const () as usize,
        __unfold_pthread_barrier_wait as *const () as usize,
        __unfold_pthread_barrier_destroy as *const () as usize,
        __unfold_pthread_once as *const () as usize,
        __unfold_pthread_spin_init as *const () as usize,
        __unfold_pthread_spin_lock as *const () as usize,
        __unfold_pthread_spin_trylock as *const () as usize,
        __unfold_pthread_spin_unlock as *const () as usize,
        __unfold_pthread_spin_destroy as *const () as usize,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition `initialised_mutex` implements a word at a time: the marker and
    /// glibc's kind hold allowed values, and every other byte is zero.
    fn initialised_bytewise(bytes: &[u8]) -> bool {
        let word = |i: usize| u32::from_ne_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        (word(0) == 0 || word(0) == USED)
            && word(16) <= 3
            && bytes.iter().enumerate().all(|(i, &b)| b == 0 || i < 4 || (16..20).contains(&i))
    }

    #[test]
    fn a_mutex_is_initialised_iff_only_its_marker_and_kind_are_set() {
        let size = std::mem::size_of::<libc::pthread_mutex_t>();
        let mut seen = [0usize; 2];
        // One non-zero byte anywhere, over every marker and kind a mutex can show.
        for mark in [0, USED, DESTROYED, 7] {
            for kind in [0u32, 1, 3, 4] {
                for hot in (0..size).map(Some).chain([None]) {
                    let mut b = vec![0u8; size];
                    b[0..4].copy_from_slice(&mark.to_ne_bytes());
                    b[16..20].copy_from_slice(&kind.to_ne_bytes());
                    if let Some(i) = hot {
                        b[i] |= 0x40;
                    }
                    let want = initialised_bytewise(&b);
                    assert_eq!(initialised_mutex(&b), want, "mark {mark:#x} kind {kind} byte {hot:?}");
                    seen[want as usize] += 1;
                }
            }
        }
        assert!(seen[0] > 0 && seen[1] > 0);
    }
}
