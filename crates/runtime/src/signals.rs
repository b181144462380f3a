//! Signals: the parent's interrupt handling (SIGINT, SIGTERM, SIGHUP stop an exploration
//! cleanly), the worker's crash handler (records where the program faulted), child
//! processes that die with their parent, and signal names and wait statuses in words.

use crate::shared::Header;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The first signal that interrupted the run (0: none).
static INTERRUPT_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The signals that stop an exploration cleanly: Ctrl-C, `kill`/`timeout`/CI
/// cancellation, and a closed terminal.
pub(crate) const INTERRUPT_SIGNALS: [c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn on_interrupt(sig: c_int) {
    let _ = INTERRUPT_SIGNAL.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Install a handler for SIGINT, SIGTERM and SIGHUP that sets a flag ([`interrupted`])
/// instead of killing the process, so that the explorer can stop, kill its workers,
/// remove its temporary files and print what it has. System calls are not restarted, so
/// a wait for a worker wakes up.
pub fn install_interrupt_handler() {
    for sig in INTERRUPT_SIGNALS {
        // SAFETY: installing a handler that only stores to atomics (async-signal-safe).
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_interrupt as *const () as usize;
            sa.sa_flags = 0;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// Whether SIGINT, SIGTERM or SIGHUP was received since [`install_interrupt_handler`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The name of the signal that interrupted the run (`SIGINT`, `SIGTERM`, `SIGHUP`), if any.
pub fn interrupt_signal() -> Option<String> {
    match INTERRUPT_SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(signal_name(s)),
    }
}

/// Pass the signal that interrupted this process ([`interrupted`]; SIGTERM if none) on to
/// `child`, which then stops as cleanly as this one (an `unfold check` child kills its
/// worker and removes its files). Only for a child not reaped yet (`try_wait` last
/// returned `None`): a reaped child's pid may be another process's.
pub fn interrupt_child(child: &std::process::Child) {
    let sig = match INTERRUPT_SIGNAL.load(Ordering::SeqCst) {
        0 => libc::SIGTERM,
        s => s,
    };
    let Ok(pid) = libc::pid_t::try_from(child.id()) else { return };
    // SAFETY: kill has no memory preconditions; by the contract the child is not reaped
    // (std reaps only in wait/try_wait), so the pid is still its.
    unsafe { libc::kill(pid, sig) };
}

/// Make the processes `cmd` starts die (SIGKILL) when this process dies, however it dies:
/// a checker killed by CI must not leave compilers or benchmark runs behind.
pub fn die_with_parent(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: getpid has no preconditions.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the forked child before exec and only makes
    // async-signal-safe system calls (prctl, getppid); it allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            die_with(parent);
            Ok(())
        });
    }
}

/// In a freshly forked child: get SIGKILL when the parent dies, and die now if `parent`
/// is already gone (it may have died between the fork and the prctl).
pub(crate) fn die_with(parent: libc::pid_t) {
    // SAFETY: prctl and getppid are async-signal-safe and have no memory preconditions;
    // _exit ends this child without running the parent's atexit handlers.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() != parent {
            libc::_exit(0);
        }
    }
}

/// A wait status in words: `exit code 3`, `SIGALRM`.
pub fn describe_wait_status(status: c_int) -> String {
    if libc::WIFEXITED(status) {
        format!("exit code {}", libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        format!("killed by {}", signal_name(libc::WTERMSIG(status)))
    } else {
        format!("wait status {status}")
    }
}

static CRASH_PC: AtomicUsize = AtomicUsize::new(0);

/// `[start, end)` of the loaded program image (0, 0: unknown), for the crash handler.
static PROGRAM: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

/// Worker side: where the program's code is, so that a crash in code outside it (the
/// runtime's hooks or libc, called by the program) is attributed to the program's
/// innermost caller.
pub(crate) fn set_program_range(range: (u64, u64)) {
    PROGRAM[0].store(range.0 as usize, Ordering::Relaxed);
    PROGRAM[1].store(range.1 as usize, Ordering::Relaxed);
}

extern "C" fn on_crash(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
    let p = CRASH_PC.load(Ordering::Relaxed) as *const Header;
    if p.is_null() {
        return;
    }
    // SAFETY: p points to the shared header, mapped for the life of the worker (only
    // ever accessed atomically); the kernel passes a valid siginfo_t for SA_SIGINFO handlers (si_addr is the faulting
    // address for SIGSEGV/SIGBUS).
    unsafe {
        if !info.is_null() {
            (*p).crash_addr.store((*info).si_addr() as u64, Ordering::Relaxed);
        }
    }
    #[cfg(target_arch = "x86_64")]
    {
        if !ctx.is_null() {
            // SAFETY: the kernel passes a valid ucontext_t for SA_SIGINFO handlers; p is
            // the shared header (above).
            unsafe {
                let uc = &*(ctx as *const libc::ucontext_t);
                let (pc, sp) = (
                    uc.uc_mcontext.gregs[libc::REG_RIP as usize] as u64,
                    uc.uc_mcontext.gregs[libc::REG_RSP as usize] as u64,
                );
                (*p).crash_pc.store(pc, Ordering::Relaxed);
                (*p).crash_sp.store(sp, Ordering::Relaxed);
                // A fault in code outside the program (an instrumentation hook or libc
                // running on the program's stack, typically when it overflows): the
                // nearest return address into the program above the stack pointer names
                // the program's frame. At most 16 KiB are scanned (the smallest stack);
                // should that read fault, the handler is already reset and the process
                // dies with the original signal, the fault's own pc recorded.
                let (lo, hi) = (PROGRAM[0].load(Ordering::Relaxed) as u64, PROGRAM[1].load(Ordering::Relaxed) as u64);
                if lo != 0 && !(lo..hi).contains(&pc) && sp != 0 {
                    // First the frame-pointer chain (tsan.c's hooks keep frame pointers:
                    // a fault inside an atomic operation names its call in the program;
                    // a raw scan could stop at a code address saved in the hook's frame,
                    // one of the callee-saved registers it captures). Frames must lie
                    // above the stack pointer, each above the last, within 1 MiB.
                    let mut fp = uc.uc_mcontext.gregs[libc::REG_RBP as usize] as u64;
                    let mut found = false;
                    for _ in 0..64 {
                        if fp < sp || fp >= sp + (1 << 20) || !fp.is_multiple_of(8) {
                            break;
                        }
                        let ra = ((fp + 8) as *const u64).read_volatile();
                        if (lo..hi).contains(&ra) {
                            (*p).crash_pc.store(ra.saturating_sub(1), Ordering::Relaxed);
                            found = true;
                            break;
                        }
                        let next = (fp as *const u64).read_volatile();
                        if next <= fp {
                            break;
                        }
                        fp = next;
                    }
                    // A stack overflow that faulted in the hook's own prologue leaves the
                    // stack pointer in the guard page the fault hit: scan from the page
                    // above it, the last mapped one (reading at the stack pointer faulted
                    // again and lost the program's frame).
                    let fault = if info.is_null() { 0 } else { (*info).si_addr() as u64 };
                    let page = fault & !0xfff;
                    let from = if fault != 0 && sp >= page && sp < page + 0x1000 { page + 0x1000 } else { sp };
                    let words = from as *const u64;
                    // Then, if the chain named no program frame, the raw scan.
                    let scan = if found { 0 } else { 2048 };
                    for i in 0..scan {
                        let w = words.add(i).read_volatile();
                        if (lo..hi).contains(&w) {
                            (*p).crash_pc.store(w.saturating_sub(1), Ordering::Relaxed);
                            break;
                        }
                    }
                }
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ctx;
    // SA_RESETHAND restored the default action: returning re-executes the faulting
    // instruction and the process dies with the original signal. A signal the program
    // sent itself (`raise(SIGSEGV)`, `kill`: a code of SI_USER or below) has no faulting
    // instruction to re-execute: returning would let the program go on, so it is sent
    // again, to the default action (SA_NODEFER: delivered at once).
    // SAFETY: reading si_code of the siginfo_t the kernel passed; raise is
    // async-signal-safe.
    unsafe {
        if info.is_null() || (*info).si_code <= 0 {
            libc::raise(sig);
        }
    }
}

/// Worker side: install the crash handler on an alternate stack (a coroutine stack
/// overflow must still be reported: the handler cannot run on the overflowed stack).
/// The signal the parent sends a persistent worker whose execution ran out of time,
/// just before killing it, to learn where it was ([`on_stop`] records the interrupted
/// program counter). SIGXCPU ("CPU time limit exceeded") is what the kernel itself sends
/// for a CPU limit, and programs under test have no reason to handle it.
pub(crate) const STOP_SIGNAL: c_int = libc::SIGXCPU;

extern "C" fn on_stop(_sig: c_int, _info: *mut libc::siginfo_t, ctx: *mut c_void) {
    let p = CRASH_PC.load(Ordering::Relaxed) as *const Header;
    if p.is_null() || ctx.is_null() {
        return;
    }
    // SAFETY: the kernel passes a valid ucontext_t for SA_SIGINFO handlers; p is the
    // shared header, mapped for the life of the process. Only an atomic store.
    unsafe {
        let uc = &*(ctx as *const libc::ucontext_t);
        #[cfg(target_arch = "x86_64")]
        let pc = uc.uc_mcontext.gregs[libc::REG_RIP as usize] as u64;
        #[cfg(target_arch = "aarch64")]
        let pc = uc.uc_mcontext.pc;
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let pc = {
            let _ = uc;
            1u64
        };
        (*p).stop_ra.store(crate::memory::LAST_ACCESS_RA.load(Ordering::Relaxed), Ordering::Relaxed);
        (*p).stop_pc.store(pc.max(1), Ordering::Release);
    }
}

pub(crate) fn install_crash_handler(hdr: *const Header) {
    CRASH_PC.store(hdr as usize, Ordering::Relaxed);
    // SAFETY: a fresh alternate signal stack that lives for the whole process (leaked),
    // and a handler that only performs atomic stores.
    unsafe {
        let size = 64 << 10;
        let stack = libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if stack != libc::MAP_FAILED {
            let ss = libc::stack_t { ss_sp: stack, ss_flags: 0, ss_size: size };
            libc::sigaltstack(&ss, std::ptr::null_mut());
        }
        // The stop probe: the program goes on after it (it is killed right after).
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_stop as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_RESTART;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(STOP_SIGNAL, &sa, std::ptr::null_mut());
        for sig in [libc::SIGSEGV, libc::SIGBUS, libc::SIGFPE, libc::SIGILL] {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_crash as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_RESETHAND | libc::SA_NODEFER;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

pub(crate) fn signal_name(sig: c_int) -> String {
    match sig {
        libc::SIGSEGV => "SIGSEGV (invalid memory access)".into(),
        libc::SIGBUS => "SIGBUS (bus error)".into(),
        libc::SIGFPE => "SIGFPE (arithmetic error)".into(),
        libc::SIGILL => "SIGILL (illegal instruction)".into(),
        libc::SIGABRT => "SIGABRT".into(),
        libc::SIGKILL => "SIGKILL".into(),
        libc::SIGALRM => "SIGALRM (alarm clock)".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        libc::SIGINT => "SIGINT".into(),
        libc::SIGQUIT => "SIGQUIT".into(),
        libc::SIGPIPE => "SIGPIPE (write to a closed pipe)".into(),
        libc::SIGTRAP => "SIGTRAP".into(),
        libc::SIGSYS => "SIGSYS (bad system call)".into(),
        libc::SIGUSR1 => "SIGUSR1".into(),
        libc::SIGUSR2 => "SIGUSR2".into(),
        libc::SIGXCPU => "SIGXCPU (CPU time limit)".into(),
        libc::SIGXFSZ => "SIGXFSZ (file size limit)".into(),
        libc::SIGVTALRM => "SIGVTALRM".into(),
        libc::SIGPROF => "SIGPROF".into(),
        s => format!("signal {s}"),
    }
}
