//! The protocol between the parent and its worker: the shared mappings both processes
//! see (request, results, steps, thread names) and the hand-off (sequence numbers in
//! shared memory, a byte on a pipe when the other side sleeps).

use crate::RuntimeError;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicI32, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use unfold_engine::{Action, DefectKind, Independence, ThreadId};

pub(crate) const MAX_SLEEP: usize = 4096;
pub(crate) const MAX_DEFECTS: usize = 64;
pub(crate) const MAX_NAMES: usize = 65536;
pub(crate) const MSG: usize = 400;

#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct RawDefect {
    pub(crate) kind: DefectKind,
    pub(crate) thread: ThreadId,
    pub(crate) site: Option<u64>,
    pub(crate) after_steps: usize,
    pub(crate) len: usize,
    pub(crate) msg: [u8; MSG],
}

/// The shared header. Plain data only: parent and worker are the same binary, so Rust
/// layouts agree.
#[repr(C)]
pub(crate) struct Header {
    pub(crate) replay_len: usize,
    pub(crate) sleep_len: usize,
    pub(crate) independence: Independence,
    pub(crate) max_steps: usize,
    pub(crate) sleep: [(ThreadId, Action); MAX_SLEEP],
    // results
    pub(crate) nsteps: AtomicUsize,
    pub(crate) running: AtomicU16,
    pub(crate) crash_pc: AtomicU64,
    /// The faulting address and the stack pointer at the crash (0: unknown).
    pub(crate) crash_addr: AtomicU64,
    pub(crate) crash_sp: AtomicU64,
    pub(crate) child_pid: AtomicI32,
    pub(crate) child_status: i32,
    pub(crate) first: Option<Action>,
    pub(crate) end_tag: u8,
    pub(crate) nblocked: usize,
    pub(crate) blocked: [(ThreadId, Action); MAX_SLEEP],
    pub(crate) nassumed: usize,
    pub(crate) assumed: [ThreadId; MAX_SLEEP],
    pub(crate) ndefects: usize,
    pub(crate) defects: [RawDefect; MAX_DEFECTS],
    pub(crate) error: u8,
    pub(crate) error_step: usize,
    pub(crate) error_len: usize,
    pub(crate) error_msg: [u8; MSG],
    pub(crate) nnames: AtomicUsize,
    pub(crate) names: [(ThreadId, u32); MAX_NAMES],
    pub(crate) run_ns: u64,
    /// Hand-off: request and response sequence numbers, and who is blocked on its pipe.
    pub(crate) req_seq: AtomicU64,
    pub(crate) resp_seq: AtomicU64,
    pub(crate) worker_waiting: AtomicU32,
    pub(crate) parent_waiting: AtomicU32,
    pub(crate) reset_ns: u64,
    pub(crate) nsites: usize,
    pub(crate) sites: [u64; MAX_SLEEP],
}

/// A shared anonymous mapping of `n` values of `T` (zeroed).
pub(crate) struct Shared<T> {
    pub(crate) ptr: *mut T,
    pub(crate) n: usize,
}

impl<T> Shared<T> {
    pub(crate) fn new(n: usize) -> Result<Self, RuntimeError> {
        let len = n.checked_mul(std::mem::size_of::<T>()).ok_or_else(|| {
            RuntimeError::Os("sizing shared memory", std::io::Error::from(std::io::ErrorKind::OutOfMemory))
        })?;
        let len = len.max(1);
        // SAFETY: a fresh anonymous shared mapping (zero-filled), owned by this value.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(RuntimeError::Os("mmap (shared memory)", std::io::Error::last_os_error()));
        }
        Ok(Shared { ptr: p as *mut T, n })
    }
}

impl<T> Drop for Shared<T> {
    fn drop(&mut self) {
        // SAFETY: unmapping the mapping created in `new`, which nothing refers to any more.
        unsafe { libc::munmap(self.ptr as *mut c_void, (self.n * std::mem::size_of::<T>()).max(1)) };
    }
}

pub(crate) fn write_msg(buf: &mut [u8; MSG], s: &str) -> usize {
    let b = s.as_bytes();
    let n = b.len().min(MSG);
    buf[..n].copy_from_slice(&b[..n]);
    n
}
/// How long the worker spins for the next request before blocking on its pipe.
pub(crate) const WORKER_SPIN: Duration = Duration::from_micros(200);
/// How long the parent spins for a result before blocking (with poll) on its pipe.
pub(crate) const PARENT_SPIN: Duration = Duration::from_micros(500);

/// Worker side of the hand-off: wait until `seq` differs from `last`. Spins first
/// (a pipe wake-up costs tens of microseconds on a loaded 2-core machine), then blocks on
/// `fd` after announcing it in `waiting`; the other side writes a byte only when it sees
/// `waiting` set (both use SeqCst, so either it sees the flag or we see the new value).
/// Stray bytes only cause a spurious wake-up. False when the pipe is closed.
pub(crate) fn wait_seq(seq: &AtomicU64, last: u64, waiting: &AtomicU32, fd: c_int, spin: Duration) -> bool {
    let start = Instant::now();
    let mut i = 0u32;
    while seq.load(Ordering::Acquire) == last {
        relax(i);
        i = i.wrapping_add(1);
        if i & 15 == 0 && start.elapsed() > spin {
            loop {
                waiting.store(1, Ordering::SeqCst);
                if seq.load(Ordering::SeqCst) != last {
                    break;
                }
                if read_byte(fd).is_none() {
                    waiting.store(0, Ordering::SeqCst);
                    return false;
                }
                waiting.store(0, Ordering::SeqCst);
                if seq.load(Ordering::SeqCst) != last {
                    break;
                }
            }
            waiting.store(0, Ordering::SeqCst);
            return true;
        }
    }
    true
}

/// One iteration of a spin-wait: a few pause instructions, then yield the CPU, so that
/// when the other side is runnable on the same core (the machine is oversubscribed) it
/// gets to run at once instead of after our time slice.
pub(crate) fn relax(i: u32) {
    if i < 64 {
        std::hint::spin_loop();
    } else {
        // SAFETY: sched_yield has no preconditions.
        unsafe { libc::sched_yield() };
    }
}

pub(crate) fn read_byte(fd: c_int) -> Option<u8> {
    let mut b = 0u8;
    loop {
        // SAFETY: reading one byte into a local.
        let r = unsafe { libc::read(fd, &mut b as *mut u8 as *mut c_void, 1) };
        if r == 1 {
            return Some(b);
        }
        if r < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        return None;
    }
}

pub(crate) fn write_byte(fd: c_int, b: u8) -> bool {
    loop {
        // SAFETY: writing one byte from a local.
        let r = unsafe { libc::write(fd, &b as *const u8 as *const c_void, 1) };
        if r == 1 {
            return true;
        }
        if r < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        return false;
    }
}

pub(crate) fn pipe() -> Result<(c_int, c_int), RuntimeError> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into our array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(RuntimeError::Os("pipe", std::io::Error::last_os_error()));
    }
    Ok((fds[0], fds[1]))
}
