//! One execution of the program, inside a worker process: coroutine threads driven by the
//! engine's shared drive loop ([`drive_until`]), and the state the C shims ([`crate::shims`])
//! work on.
//!
//! Each C thread is a `corosensei` coroutine on its own fixed stack slot. A thread runs
//! its local code eagerly and suspends at its next visible operation, yielding the pending
//! action; the drive loop decides who moves and resolves the action's outcome, and the
//! executor ([`Frontend::perform`]) *performs* it by resuming the thread with the value its
//! call returns (a lock is granted by resuming; a trylock, a timed wait or a barrier
//! arrival gets its outcome; a `Create` starts the child and runs it up to its own first
//! visible operation), and records the [`Step`] with
//! the thread's next pending action. Steps are streamed into shared memory as they happen
//! so that a crash leaves the trace up to the crashing step behind.
//!
//! Two pieces of state exist: the executor's (coroutines, [`SchedState`], the scheduler),
//! touched only between resumes, and `Rt`, the per-execution state of the C side
//! (current thread, held mutexes, defects, heap arena), touched only by shims while a
//! coroutine runs. Neither is borrowed across a coroutine switch.

use crate::mem::{Arena, SlotStack, Stacks, TlsBlocks};
use corosensei::{Coroutine, CoroutineResult, Yielder};
use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void};
use unfold_engine::program::{drive_until, Frontend, Site};
use unfold_engine::{
    Action, Defect, DefectKind, End, ObjId, ProgramError, SchedState, Scheduler, Step, ThreadId, ThreadNames,
};

extern "C" {
    /// libc's environment, passed to the program's `main` as `envp`.
    static environ: *mut *mut c_char;
}

/// What entering a function the program defines itself means, for the SV-COMP
/// functions whose meaning is their name, not their body (programs define them as stubs
/// to compile natively): caught by the `-finstrument-functions` entry hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EntryHook {
    /// `reach_error` or `__VERIFIER_error`: the error (whatever the body does: nothing,
    /// loop, abort).
    Error,
    /// `__VERIFIER_atomic_begin`: an atomic section starts.
    AtomicBegin,
    /// `__VERIFIER_atomic_end`: the atomic section ends.
    AtomicEnd,
    /// A function named `__VERIFIER_atomic_*` (other than the two above): its whole
    /// body is an atomic section (it starts on entry and ends on exit).
    AtomicFn,
}

/// `main(argc, argv, envp)` of the program.
pub type MainFn = unsafe extern "C" fn(c_int, *mut *mut c_char, *mut *mut c_char) -> c_int;
/// A pthread start routine.
pub type StartFn = unsafe extern "C" fn(*mut c_void) -> *mut c_void;

/// The object id of the hidden mutex that makes `__VERIFIER_atomic` sections atomic.
pub const ATOMIC_OBJ: ObjId = ObjId(1);

/// What a thread hands the executor when it suspends.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Yield {
    /// Its next visible action, and where in the program it is.
    Pending(Action, Site),
    /// It stopped for good (defect or failed assumption).
    Stopped,
}

type Co = Coroutine<u64, Yield, (), SlotStack>;

/// What a program thread runs. Plain data (no heap): a discarded coroutine is reset
/// without unwinding, so anything its closure owned would leak.
#[derive(Clone, Copy, Debug)]
enum Body {
    /// `main(argc, argv, environ)`.
    Main { main: MainFn, argc: c_int, argv: usize },
    /// A start routine and its argument.
    Start { f: StartFn, arg: usize },
}

extern "C" {
    /// `tsan.c`: zero the stack from `low` up to the caller's stack pointer; 1 if done, 0
    /// where not implemented (then [`crate::memory::SCRUBS`] is false).
    fn __unfold_scrub_stack(low: usize) -> c_int;
    /// `tsan.c`: call `f(a, b, c)` (the program's `main` or a start routine) with the
    /// callee-saved registers zeroed; its return value (an `int` in the low half for main).
    fn __unfold_enter_program(f: usize, a: usize, b: usize, c: usize) -> usize;
}

/// Zero the current coroutine's stack from `low` up to the stack pointer, so that the
/// program code entered next (a start routine, `main`) finds zeros in its frames, not
/// what earlier executions or the runtime left there (memory.rs, "spin loops"). Called
/// directly before that code, with no call in between (a call would leave its frame
/// below the stack pointer).
///
/// # Safety
/// `low` lies in the current coroutine's stack, below the caller's frame.
#[inline(always)]
unsafe fn scrub_stack(low: usize) {
    // SAFETY: by the contract; the assembly writes only below the stack pointer.
    unsafe { __unfold_scrub_stack(low) };
}

/// Call the program's code `f` (its `main`, or a start routine, which ignores the extra
/// arguments) with the callee-saved registers zeroed, so that a loop's first visit finds
/// in them what the program wrote or zero, whatever the runtime's frames held
/// (memory.rs, "spin loops"; `tsan.c`). Called right after [`scrub_stack`].
///
/// # Safety
/// `f` is a C function of at most three integer or pointer arguments returning an integer
/// or a pointer, and `a`, `b`, `c` are valid arguments for it.
#[inline(always)]
unsafe fn enter_program(f: usize, a: usize, b: usize, c: usize) -> usize {
    // SAFETY: by the contract; the assembly restores every callee-saved register.
    unsafe { __unfold_enter_program(f, a, b, c) }
}

/// Run a thread's body on its coroutine; never returns (the executor discards it).
fn run_body(t: ThreadId, body: Body, y: &Yielder<u64, Yield>) {
    let top = 0u8;
    with_rt(|rt| rt.thread(t).stack_top = std::hint::black_box(&top) as *const u8 as usize);
    match body {
        Body::Main { main, argc, argv } => {
            // SAFETY: libc's environment, read once.
            let envp = unsafe { environ };
            crate::process::run_constructors(argc, argv as *mut *mut c_char, envp);
            let low = crate::memory::program_code_begins(t);
            // SAFETY: `low` is inside this coroutine's stack, below this frame (see
            // `scrub_stack`); nothing below the stack pointer is in use.
            unsafe { scrub_stack(low) };
            // SAFETY: `main` is the program's main function resolved by dlsym, of three
            // arguments; argv is a NULL-terminated array of C strings owned by the executor
            // for the life of the worker; `environ` is libc's environment.
            let code = unsafe { enter_program(main as usize, argc as usize, argv, envp as usize) } as c_int;
            with_rt(|rt| rt.exit_code = code);
            // Returning from main is exit(code).
            crate::process::run_exit_handlers();
            suspend_on(y, Yield::Pending(Action::ExitProcess, 0));
        }
        Body::Start { f, arg } => {
            let low = crate::memory::program_code_begins(t);
            // SAFETY: as for main above.
            unsafe { scrub_stack(low) };
            // SAFETY: calling the start routine the program passed to pthread_create, with
            // its argument, as pthread would (the two extra arguments are ignored).
            let r = unsafe { enter_program(f as usize, arg, 0, 0) };
            with_rt(|rt| rt.thread(t).retval = r);
            run_key_destructors(t);
            suspend_on(y, Yield::Pending(Action::Exit, 0));
        }
    }
    loop {
        suspend_on(y, Yield::Stopped);
    }
}

thread_local! {
    /// The stack pointer of the coroutine that suspended last, near enough: the address
    /// of a local of [`suspend_on`] (in the frame it is inlined into), above the switch's
    /// pushes (see
    /// [`CHECKPOINT_MARGIN`]). Read by [`Executor::resume`].
    static SUSPENDED_SP: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Suspend the current coroutine through `y`, noting where its stack ends.
///
/// Inlined, with [`suspend`] and the shims' `guard` and `visible`, into every shim and
/// memory hook, as [`Executor::resume`] and `CRun::perform` are into the drive loop:
/// after a switch, each return through a frame entered before it is mispredicted (the
/// CPU predicts it from the other stack's calls), about 11 ns a frame on the machine of
/// docs/execution-cost.md's round 22 (`cargo bench -p unfold-runtime --bench switch`).
/// With the switch in the shim's own frame, a lock step pays two such returns instead of
/// four.
#[inline(always)]
fn suspend_on(y: &Yielder<u64, Yield>, v: Yield) -> u64 {
    let marker = 0u8;
    SUSPENDED_SP.with(|c| c.set(std::hint::black_box(&marker) as *const u8 as usize));
    y.suspend(v)
}

/// glibc's `PTHREAD_DESTRUCTOR_ITERATIONS` (and C11's `TSS_DTOR_ITERATIONS`).
pub(crate) const DESTRUCTOR_ITERATIONS: usize = 4;

/// Run the thread-specific-data destructors of exiting thread `t` (POSIX): in each round,
/// every non-NULL value of a live key with a destructor is set to NULL and the destructor
/// is called with the old value; rounds repeat while destructors set values again, at
/// most [`DESTRUCTOR_ITERATIONS`] times. Destructors run on the thread itself and may
/// perform visible operations.
pub(crate) fn run_key_destructors(t: ThreadId) {
    for _ in 0..DESTRUCTOR_ITERATIONS {
        // One key at a time, its value taken from the runtime state just before its
        // destructor runs: no Rust value with an allocation lives in this frame while
        // the program's destructor runs (it may suspend the thread, and a checkpoint
        // taken then copies the frame, not what it owns).
        let mut next_key = 0;
        let mut called = false;
        while let Some((dtor, v)) = with_rt(|rt| {
            while let Some(&(key, dtor)) = rt.keys.get(next_key) {
                next_key += 1;
                let th = rt.thread(t);
                if let Some(v) = th.specific.iter_mut().find(|(k, _)| *k == key) {
                    if v.1 != 0 && dtor != 0 {
                        return Some((dtor, std::mem::take(&mut v.1)));
                    }
                }
            }
            None
        }) {
            called = true;
            // SAFETY: `dtor` is the destructor the program passed to pthread_key_create
            // (stored as usize), called with the value the thread set, as pthread would.
            let f: unsafe extern "C" fn(*mut c_void) = unsafe { std::mem::transmute::<usize, _>(dtor) };
            // SAFETY: calling the program's destructor with its own value.
            unsafe { f(v as *mut c_void) };
        }
        if !called {
            return;
        }
    }
}

/// Where the `__FILE__` strings of file-and-line sites are counted from: the load address
/// of the program (set by [`crate::Image::load`], before any worker is forked).
pub(crate) static SITE_BASE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The `line` of a call whose `file` is its return address: a preprocessed program's
/// calls go through adapters that know no `__FILE__` (unfold_i.h, tsan.c).
pub const LINE_IS_PC: c_int = -1;

/// Site of a call known by file and line: tag bit 63, the line in bits 32..63 (up to
/// 2^31 - 1), the offset of the `__FILE__` string from the program's load address in the
/// low 32 bits (a string outside the first 4 GiB of the image is unknown: offset 0).
/// With `line` [`LINE_IS_PC`], `file` is the call's return address: a code site.
pub fn site_file_line(file: *const c_char, line: c_int) -> Site {
    if line == LINE_IS_PC {
        return crate::memory::code_site(file as *mut std::ffi::c_void);
    }
    let base = SITE_BASE.load(std::sync::atomic::Ordering::Relaxed);
    let off = (file as u64).checked_sub(base).filter(|&o| o <= FILE_MASK).unwrap_or(0);
    (1 << 63) | ((line.max(0) as u64) << 32) | off
}

/// The file bits of a file-and-line site: the offset of the `__FILE__` string in the
/// image (bits 0..29; an image is far smaller than 512 MiB); bits 29..32 hold the
/// site's [`SiteRole`], bits 32..63 the line.
const FILE_MASK: u64 = (1 << 29) - 1;

/// What a visible step at a file-and-line site does for the call at that line, when the
/// call is modelled by operations of another function: `pthread_mutex_init` and
/// `pthread_mutex_destroy` are a `trylock` (is the mutex held by another thread?) and an
/// `unlock` (`pthread_rwlock_destroy` a `trywrlock` and an unlock), and the report names them after the call, not after those operations.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SiteRole {
    /// The step is the call's own operation.
    Call,
    /// Part of `pthread_mutex_init`.
    MutexInit,
    /// Part of `pthread_mutex_destroy`.
    MutexDestroy,
    /// Part of `pthread_rwlock_destroy` (a trywrlock and an unlock).
    RwLockDestroy,
}

/// The file-and-line site `s` marked with the role `r` (other sites are returned as
/// they are).
pub fn site_with_role(s: Site, r: SiteRole) -> Site {
    if s >> 63 != 1 {
        return s;
    }
    let tag = match r {
        SiteRole::Call => 0,
        SiteRole::MutexInit => 1,
        SiteRole::MutexDestroy => 2,
        SiteRole::RwLockDestroy => 3,
    };
    (s & !(7 << 29)) | (tag << 29)
}

/// The role a site was marked with by [`site_with_role`].
pub fn site_role(s: Site) -> SiteRole {
    match (s >> 63 == 1).then_some((s >> 29) & 7) {
        Some(1) => SiteRole::MutexInit,
        Some(2) => SiteRole::MutexDestroy,
        Some(3) => SiteRole::RwLockDestroy,
        _ => SiteRole::Call,
    }
}

/// The code-address bits of a code site; bits 56..59 of the site of a memory access
/// hold the byte offset of the access within its 8-byte word ([`site_word_offset`]).
const CODE_MASK: u64 = (1 << 47) - 1;

/// The byte offset within its word of the memory access whose step has site `s` (the
/// memory object of a step names only the word: [`crate::memory_obj`]).
pub fn site_word_offset(s: Site) -> u64 {
    if s >> 63 == 1 {
        0
    } else {
        (s >> 56) & 7
    }
}

/// A decoded [`Site`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SiteKind {
    /// Unknown.
    None,
    /// The address of a `__FILE__` string in the loaded image, and a line.
    FileLine(u64, u32),
    /// A code address (a return address or faulting instruction) in the loaded image.
    Code(u64),
}

/// Decode a [`Site`].
pub fn decode_site(s: Site) -> SiteKind {
    if s == 0 {
        SiteKind::None
    } else if s >> 63 == 1 {
        let off = s & FILE_MASK;
        let file = if off == 0 { 0 } else { SITE_BASE.load(std::sync::atomic::Ordering::Relaxed) + off };
        SiteKind::FileLine(file, ((s >> 32) & 0x7fff_ffff) as u32)
    } else {
        SiteKind::Code(s & CODE_MASK)
    }
}

/// Per-thread C-side state.
#[derive(Debug, Default)]
pub(crate) struct ThreadRt {
    pub yielder: usize,
    pub created: u32,
    pub spawn: Option<(usize, usize)>,
    pub retval: usize,
    pub detached: bool,
    /// Created with `PTHREAD_CREATE_DETACHED`: joining it is a misuse.
    pub born_detached: bool,
    /// The thread whose `pthread_join` of this one returned: joining it again is a misuse.
    pub joined_by: Option<ThreadId>,
    pub exists: bool,
    pub atomic_depth: u32,
    /// Highest address of the thread's stack that its code uses (recorded when its
    /// coroutine starts): the top of its local state for spin detection.
    pub stack_top: usize,
    /// Spin-loop detection ([`crate::memory`]).
    pub spin: crate::memory::SpinTracker,
    /// The mutex of the thread's last unlock, while since that unlock it has written
    /// nothing (no instrumented write, atomic store or read-modify-write, `free`) and
    /// performed no visible operation but locks of that mutex and waits: its next unlock
    /// of the mutex is then *weak* (moves no release count, wakes no poller:
    /// [`crate::memory::unlock`], docs/memory.md "Two pollers of one mutex").
    pub clean_unlock: Option<ObjId>,
    /// This thread's `rand`/`random` sequence (`shims::__unfold_rand`), seeded as
    /// `srand(1)` would at its first call.
    pub rand: Option<crate::shims::RandState>,
    /// Stack size asked with `pthread_attr_setstacksize` (0: the default).
    pub stack_size: usize,
    /// Keys this thread created (`pthread_key_create`).
    pub keys_created: u32,
    /// Thread-specific values: (key, value).
    pub specific: Vec<(u32, usize)>,
    /// Nondeterministic values drawn so far ([`crate::nondet`]).
    pub nondet_calls: u32,
    /// The thread's virtual time, in nanoseconds since the execution began
    /// ([`crate::shims::__unfold_clock_gettime`]): a child starts at its creator's.
    pub clock_ns: u64,
    /// `Rt::steps_done` at the thread's last reading of a clock.
    pub clock_steps: usize,
    /// `pthread_setcancelstate` / `pthread_setcanceltype`: (disabled, asynchronous). No
    /// thread is ever cancelled (`pthread_cancel` is refused), so they only answer the
    /// next call's `old`.
    pub cancel: (bool, bool),
    /// The name given with `pthread_setname_np` (NUL-padded, at most 15 bytes).
    pub name_np: Option<[u8; 16]>,
    /// Scheduling policy and priority (`pthread_setschedparam`): `SCHED_OTHER`/0, or what
    /// the creating attribute said with `PTHREAD_EXPLICIT_SCHED`. Only answers getters.
    pub sched: (c_int, c_int),
    /// CPU affinity last set with `pthread_setaffinity_np` (a `cpu_set_t`); `None`: every
    /// CPU the process may run on. Only answers getters.
    pub affinity: Option<[u64; 16]>,
}

impl Clone for ThreadRt {
    fn clone(&self) -> Self {
        let mut t = ThreadRt::default();
        t.clone_from(self);
        t
    }

    /// Field by field, reusing the destination's buffers: a checkpoint copies every
    /// thread's state when taken and when put back.
    fn clone_from(&mut self, src: &Self) {
        let ThreadRt {
            yielder,
            created,
            spawn,
            retval,
            detached,
            born_detached,
            joined_by,
            exists,
            atomic_depth,
            stack_top,
            spin,
            clean_unlock,
            rand,
            stack_size,
            keys_created,
            specific,
            nondet_calls,
            clock_ns,
            clock_steps,
            cancel,
            name_np,
            sched,
            affinity,
        } = src;
        (self.yielder, self.created, self.spawn, self.retval) = (*yielder, *created, *spawn, *retval);
        (self.detached, self.born_detached, self.joined_by, self.exists) =
            (*detached, *born_detached, *joined_by, *exists);
        (self.atomic_depth, self.stack_top) = (*atomic_depth, *stack_top);
        self.spin.clone_from(spin);
        self.clean_unlock = *clean_unlock;
        self.rand.clone_from(rand);
        (self.stack_size, self.keys_created) = (*stack_size, *keys_created);
        self.specific.clone_from(specific);
        (self.nondet_calls, self.clock_ns, self.clock_steps) = (*nondet_calls, *clock_ns, *clock_steps);
        (self.cancel, self.name_np) = (*cancel, *name_np);
        (self.sched, self.affinity) = (*sched, *affinity);
    }
}

/// The C side's state for the execution in progress (see the module docs).
#[derive(Debug)]
pub(crate) struct Rt {
    pub active: bool,
    pub current: ThreadId,
    pub threads: Vec<ThreadRt>,
    pub names: ThreadNames,
    /// Thread-name entries interned since the executor last synchronised them.
    pub new_names: Vec<(ThreadId, u32)>,
    /// Mutexes held: address -> (owner, recursion count).
    pub held: HashMap<u64, (ThreadId, u32)>,
    pub defects: Vec<Defect>,
    pub assumed: Vec<ThreadId>,
    pub steps_done: usize,
    pub exit_code: c_int,
    /// Entry addresses of the program's own SV-COMP functions (sorted): entering one
    /// does what its name says, whatever its body does.
    pub entry_hooks: Vec<(u64, EntryHook)>,
    pub arena: Option<Arena>,
    /// The program's writable data segments, `[start, end)`: mapped for the life of the
    /// worker (the image is never unloaded).
    pub static_data: Vec<(u64, u64)>,
    pub too_many_threads: bool,
    /// Shared memory: the mode and the race detector of this execution.
    pub mem: crate::memory::MemState,
    /// The current thread's plain writes not yet judged for spin detection.
    pub pending: crate::memory::PendingWrites,
    /// Something the program did that unfold cannot model, or a limit it went past (ends
    /// the run with this error: [`ProgramError::Unsupported`] or [`ProgramError::Limit`]).
    pub unsupported: Option<ProgramError>,
    /// Live thread-specific-data keys in creation order: (key, destructor or 0).
    pub keys: Vec<(u32, usize)>,
    /// Stack size of threads created without a size (`--stack-size`).
    pub default_stack: usize,
    /// Memory-error checks: heap blocks, exited threads ([`crate::heapcheck`]).
    pub heap: crate::heapcheck::HeapCheck,
    /// The program's constructors and destructors (per worker).
    pub init_fini: crate::process::InitFini,
    /// Handlers registered with `atexit` in this execution, in registration order.
    pub atexit: Vec<usize>,
    /// The level `pthread_setconcurrency` last set in this execution (0: none).
    pub concurrency: c_int,
    /// The program has begun to exit (its handlers ran or are running, or `_exit`).
    pub exiting: bool,
    /// The values of nondeterministic draws, by key, sorted, and the value of the keys
    /// it does not name ([`crate::nondet`]).
    pub valuation: crate::nondet::Valuation,
    pub nondet_default: i64,
}

thread_local! {
    pub(crate) static RT: RefCell<Rt> = RefCell::new(Rt {
        active: false,
        current: ThreadId::MAIN,
        threads: Vec::new(),
        names: ThreadNames::new(),
        new_names: Vec::new(),
        held: HashMap::default(),
        defects: Vec::new(),
        assumed: Vec::new(),
        steps_done: 0,
        exit_code: 0,
        entry_hooks: Vec::new(),
        arena: None,
        static_data: Vec::new(),
        too_many_threads: false,
        mem: crate::memory::MemState::default(),
        pending: crate::memory::PendingWrites::default(),
        unsupported: None,
        keys: Vec::new(),
        default_stack: crate::mem::DEFAULT_STACK,
        heap: crate::heapcheck::HeapCheck::default(),
        init_fini: crate::process::InitFini { ctors: Vec::new(), dtors: Vec::new() },
        atexit: Vec::new(),
        concurrency: 0,
        exiting: false,
        valuation: Vec::new(),
        nondet_default: 0,
    });
}

/// Run `f` on the runtime state. Never call it re-entrantly, never across a suspend.
///
/// Every entry into the runtime state first judges the current thread's pending plain
/// writes ([`crate::memory::settle`]): the program ran since they were recorded, so they
/// are done, and no other thread ran (threads switch only inside the runtime).
pub(crate) fn with_rt<R>(f: impl FnOnce(&mut Rt) -> R) -> R {
    RT.with(|rt| {
        let mut rt = rt.borrow_mut();
        crate::memory::settle(&mut rt);
        let r = f(&mut rt);
        rt.note_runtime_frames();
        r
    })
}

/// [`with_rt`] for the memory hooks (`memory.rs`) and the coroutine machinery, whose
/// frames on a program thread's stack are accounted for exactly
/// ([`crate::memory::SpinTracker`]'s `dirty`).
pub(crate) fn with_rt_hook<R>(f: impl FnOnce(&mut Rt) -> R) -> R {
    RT.with(|rt| {
        let mut rt = rt.borrow_mut();
        crate::memory::settle(&mut rt);
        f(&mut rt)
    })
}

impl Rt {
    /// Called by [`with_rt`]: if this runs on the current program thread's stack (a shim
    /// called by the program, not the executor), the runtime's frames may have left
    /// anything there below the caller's frame, which the runtime does not know: no later
    /// loop of the thread may be compared at its first visit
    /// ([`crate::memory::SpinTracker::runtime_ran_below`]).
    #[inline]
    fn note_runtime_frames(&mut self) {
        if !self.active {
            return;
        }
        let Some(th) = self.threads.get_mut(self.current.index()) else { return };
        if th.spin.dirty_everywhere() {
            return;
        }
        let marker = 0u8;
        let sp = std::hint::black_box(&marker) as *const u8 as usize;
        if sp < th.stack_top && th.stack_top - sp <= crate::mem::MAX_STACK {
            th.spin.runtime_ran_below(usize::MAX);
        }
    }

    /// Whether reading `[addr, addr + len)` cannot fault in this or any later execution
    /// of the worker: it lies in the program's writable data or in committed heap, which
    /// stay mapped. (Stacks can be decommitted when a thread's stack size changes, so
    /// they are not included.)
    pub fn always_readable(&self, addr: u64, len: usize) -> bool {
        let Some(end) = addr.checked_add(len as u64) else { return false };
        self.static_data.iter().any(|&(s, e)| s <= addr && end <= e)
            || self.arena.as_ref().is_some_and(|a| a.committed(addr, len))
    }

    pub fn thread(&mut self, t: ThreadId) -> &mut ThreadRt {
        if self.threads.len() <= t.index() {
            self.threads.resize(t.index() + 1, ThreadRt::default());
        }
        &mut self.threads[t.index()]
    }

    /// The current thread's yielder, for [`suspend_to`]: a shim that enters the runtime
    /// state before its visible step anyway reads it there, instead of entering once
    /// more to suspend.
    #[inline(always)]
    pub(crate) fn yielder(&mut self) -> YielderRef {
        let cur = self.current;
        YielderRef(self.thread(cur).yielder)
    }
}

/// The address of the current thread's yielder ([`Rt::yielder`]), valid until the
/// thread ends (it lives on the thread's own stack).
#[derive(Debug, Clone, Copy)]
pub(crate) struct YielderRef(usize);

/// [`suspend`] on the yielder read with [`Rt::yielder`] in the same shim call, when
/// nothing entered the runtime state since but what suspends (the program did not run,
/// so there is nothing for `with_rt` to settle or note).
#[inline(always)]
pub(crate) fn suspend_to(p: YielderRef, y: Yield) -> u64 {
    suspend_with(p.0, y)
}

/// Suspend the current thread, handing `y` to the executor; returns the resume value.
#[inline(always)]
pub(crate) fn suspend(y: Yield) -> u64 {
    // A shim (its caller's depth unknown): `with_rt` notes its frames.
    let p = with_rt(|rt| {
        let cur = rt.current;
        rt.thread(cur).yielder
    });
    suspend_with(p, y)
}

/// [`suspend`] for the memory hooks (`memory.rs`), whose frames are accounted exactly.
#[inline(always)]
pub(crate) fn suspend_hook(y: Yield) -> u64 {
    let p = with_rt_hook(|rt| {
        let cur = rt.current;
        rt.thread(cur).yielder
    });
    suspend_with(p, y)
}

/// Suspend on the yielder at address `p` (the current thread's).
#[inline(always)]
fn suspend_with(p: usize, y: Yield) -> u64 {
    let p = p as *const Yielder<u64, Yield>;
    assert!(!p.is_null(), "unfold bug: a shim suspended outside a program thread");
    // SAFETY: `yielder` was set by the current coroutine's body to its own Yielder, which
    // lives on that coroutine's stack for as long as the coroutine has not finished; we
    // are running on that coroutine now (shims run only inside program threads).
    suspend_on(unsafe { &*p }, y)
}

/// Stop the current thread for good.
pub(crate) fn stop() -> ! {
    loop {
        suspend(Yield::Stopped);
    }
}

/// Record a defect of the current thread and stop it.
pub(crate) fn fail(kind: DefectKind, message: String, site: Site) -> ! {
    with_rt(|rt| {
        let d =
            Defect { kind, message, thread: rt.current, site: (site != 0).then_some(site), after_steps: rt.steps_done };
        rt.defects.push(d);
    });
    stop()
}

/// Where the executor writes the steps of the execution as they happen.
pub(crate) trait StepSink {
    /// Append a step; false when the sink is full.
    fn push(&mut self, s: Step) -> bool;
    /// Replace the last step pushed.
    fn update_last(&mut self, s: Step);
    /// Threads interned since the last call: `(parent, nth)` in interning order.
    fn names(&mut self, entries: &[(ThreadId, u32)]);
    /// Thread `t` is about to run (a crash or a time-out from now on is its own).
    fn running(&mut self, t: ThreadId);
}

/// Summary of one execution besides its steps.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    pub first: Option<Action>,
    pub end: End,
}

/// The program-specific part of the executor.
pub(crate) struct Executor {
    pub main: MainFn,
    pub argv: Vec<*mut c_char>,
    pub stacks: Stacks,
    /// The program's TLS blocks, if it has thread-local variables.
    pub tls: Option<TlsBlocks>,
    /// TLS block of each thread of the execution in progress.
    blocks: Vec<usize>,
    coros: Vec<Option<Co>>,
    /// Pending site of each thread (valid after a run for threads still pending).
    pub sites: Vec<Site>,
    /// Each thread's `errno` while it is suspended. The program's threads are coroutines
    /// of one OS thread, which has one `errno` (libc's, which libc functions set): it is
    /// saved when a thread is suspended and restored when it resumes, so that each
    /// thread sees its own, as with pthreads ([`errno_addr`] keeps its accesses out of
    /// the race detector and of `--memory sc`'s steps).
    errnos: Vec<c_int>,
    /// [`errno_addr`], read once: the worker's one OS thread runs every program thread.
    errno: u64,
    /// Where each suspended thread's stack ends ([`SUSPENDED_SP`]).
    sps: Vec<usize>,
}

/// The address of the OS thread's `errno` (the one every program thread uses, saved and
/// restored per thread by [`Executor::resume`]); accesses to it are not shared memory.
pub(crate) fn errno_addr() -> u64 {
    // SAFETY: __errno_location returns the calling OS thread's errno, always valid; the
    // program's threads all run on the worker's one OS thread.
    unsafe { libc::__errno_location() as u64 }
}

impl std::fmt::Debug for Executor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executor").field("threads", &self.coros.len()).finish()
    }
}

impl Executor {
    pub fn new(main: MainFn, argv: Vec<*mut c_char>, stacks: Stacks, tls: Option<TlsBlocks>) -> Self {
        let errno = errno_addr();
        crate::memory::ERRNO_ADDR.store(errno, std::sync::atomic::Ordering::Relaxed);
        Executor {
            main,
            argv,
            stacks,
            tls,
            blocks: Vec::new(),
            coros: Vec::new(),
            sites: Vec::new(),
            errnos: Vec::new(),
            errno,
            sps: Vec::new(),
        }
    }

    fn slot(&mut self, t: ThreadId) -> usize {
        let i = t.index();
        if self.coros.len() <= i {
            self.coros.resize_with(i + 1, || None);
            self.sites.resize(i + 1, 0);
            self.blocks.resize(i + 1, 0);
            self.errnos.resize(i + 1, 0);
            self.sps.resize(i + 1, 0);
        }
        i
    }

    /// Start thread `t`: create its coroutine and run it to its first visible action.
    fn start(&mut self, t: ThreadId, body: Body) -> Result<Option<Action>, ProgramError> {
        let i = self.slot(t);
        if i >= crate::mem::SLOTS {
            return Err(ProgramError::Limit(format!("thread {t}: more than {} threads", crate::mem::SLOTS)));
        }
        let size = with_rt(|rt| match rt.thread(t).stack_size {
            0 => rt.default_stack,
            s => s,
        });
        let stack = self.stacks.get(t, size).ok_or_else(|| {
            ProgramError::Failed(format!(
                "thread {t}: cannot set up a stack of {size} bytes (at most {} MiB)",
                crate::mem::MAX_STACK >> 20
            ))
        })?;
        if let Some(tls) = self.tls.as_mut() {
            self.blocks[i] = tls
                .init(t)
                .ok_or_else(|| ProgramError::Failed(format!("thread {t}: cannot set up its thread-local storage")))?;
        }
        let co: Co = Coroutine::with_stack(stack, move |y: &Yielder<u64, Yield>, _| {
            with_rt(|rt| {
                rt.thread(t).yielder = y as *const _ as usize;
            });
            run_body(t, body, y);
        });
        self.coros[i] = Some(co);
        self.errnos[i] = 0;
        with_rt(|rt| rt.thread(t).exists = true);
        Ok(self.resume(t, 0))
    }

    /// Resume `t` with `v`; returns its next pending action (recording its site).
    /// Inlined into the drive loop, like the switch into the shims ([`suspend_on`]).
    #[inline(always)]
    fn resume(&mut self, t: ThreadId, v: u64) -> Option<Action> {
        with_rt(|rt| rt.current = t);
        crate::memory::LAST_ACCESS_RA.store(0, std::sync::atomic::Ordering::Relaxed);
        let i = t.index();
        crate::tls::set_current(self.blocks[i]);
        let co = self.coros[i].as_mut().expect("unfold bug: resuming a thread without a coroutine");
        let errno = self.errno as *mut c_int;
        // SAFETY: the OS thread's errno, always valid (`errno_addr`), and the executor
        // runs on the OS thread that made it.
        unsafe { *errno = self.errnos[i] };
        let resumed = co.resume(v);
        // SAFETY: as above.
        self.errnos[i] = unsafe { *errno };
        self.sps[i] = SUSPENDED_SP.with(|c| c.get());
        let r = match resumed {
            CoroutineResult::Yield(Yield::Pending(a, site)) => {
                self.sites[i] = site;
                Some(a)
            }
            CoroutineResult::Yield(Yield::Stopped) | CoroutineResult::Return(()) => None,
        };
        crate::tls::set_current(0);
        r
    }

    /// Discard every coroutine (they are suspended in C code with nothing to drop).
    fn discard(&mut self) {
        for co in self.coros.iter_mut() {
            if let Some(mut c) = co.take() {
                // SAFETY: program threads are suspended inside shims whose frames hold no
                // Rust values needing Drop (only plain data and the C program's frames).
                unsafe { c.force_reset() };
            }
        }
    }

    /// Start an execution from the current (pristine) state: reset the runtime's state
    /// and run main to its first visible action, which it returns. [`Executor::end`]
    /// must follow, whatever happens in between.
    pub fn begin(&mut self, sink: &mut dyn StepSink) -> Result<Option<Action>, ProgramError> {
        // Threads of a run not ended are discarded, never dropped: dropping a suspended
        // coroutine unwinds its stack, through a shim, which aborts the worker.
        self.discard();
        self.sites.iter_mut().for_each(|s| *s = 0);
        with_rt(|rt| {
            rt.active = true;
            rt.current = ThreadId::MAIN;
            rt.threads.clear();
            rt.held.clear();
            rt.defects.clear();
            rt.assumed.clear();
            rt.steps_done = 0;
            rt.exit_code = 0;
            rt.too_many_threads = false;
            rt.mem.reset();
            rt.pending.clear();
            rt.heap.reset();
            rt.unsupported = None;
            rt.keys.clear();
            rt.atexit.clear();
            rt.concurrency = 0;
            rt.exiting = false;
        });
        crate::sync::reset();
        let main = self.main;
        let argc = (self.argv.len() - 1) as c_int;
        let argv = self.argv.as_ptr() as usize;
        let first = self.start(ThreadId::MAIN, Body::Main { main, argc, argv })?;
        Self::sync_names(sink);
        if let Some(e) = with_rt(|rt| rt.unsupported.take()) {
            return Err(e);
        }
        Ok(first)
    }

    /// Go on with the execution [`Executor::begin`] started, in `state` and with
    /// `sched`, until it ends or `pause` stops it before a step ([`drive_until`]).
    pub fn advance(
        &mut self,
        sched: &mut Scheduler<'_>,
        state: &mut SchedState,
        sink: &mut dyn StepSink,
        pause: impl FnMut(usize) -> bool,
    ) -> Result<Option<End>, ProgramError> {
        let end = drive_until(sched, state, &mut CRun { ex: self, sink }, pause)?;
        if let Some(End::Deadlock { .. }) = end {
            // A spin's assumption that failed is not a deadlock (`Awaited::assume`).
            let failed: Vec<ThreadId> = state.failed_assumptions().collect();
            if !failed.is_empty() {
                with_rt(|rt| rt.assumed.extend(failed));
            }
        }
        Ok(end)
    }

    /// End the execution in progress: its threads are discarded where they stand.
    pub fn end(&mut self) {
        self.discard();
        with_rt(|rt| rt.active = false);
    }

    fn sync_names(sink: &mut dyn StepSink) {
        let new = with_rt(|rt| std::mem::take(&mut rt.new_names));
        if !new.is_empty() {
            sink.names(&new);
        }
    }
}

/// Bytes kept below a suspended thread's noted stack end ([`SUSPENDED_SP`]) at least:
/// the frames of `Yielder::suspend` and the context switch hold the registers the
/// thread resumes with. A checkpoint keeps everything from the coroutine's saved stack
/// pointer up (36–144 bytes below the noted end on x86-64 in an optimized build, where
/// the switch is inlined into the shim or hook, several hundred in an unoptimized one),
/// and this margin if that is less.
const CHECKPOINT_MARGIN: usize = 256;

/// `dst := src` for the fields of [`Rt`] a checkpoint keeps (both ways: [`Rt`] and
/// [`RtCheckpoint`] name them alike), reusing `dst`'s allocations.
macro_rules! copy_checkpointed {
    ($dst:expr, $src:expr) => {{
        let (d, s) = (&mut *$dst, &*$src);
        d.threads.clone_from(&s.threads);
        d.held.clone_from(&s.held);
        d.defects.clone_from(&s.defects);
        d.assumed.clone_from(&s.assumed);
        d.steps_done = s.steps_done;
        d.exit_code = s.exit_code;
        d.too_many_threads = s.too_many_threads;
        d.mem.clone_from(&s.mem);
        d.pending.clone_from(&s.pending);
        d.unsupported.clone_from(&s.unsupported);
        d.keys.clone_from(&s.keys);
        d.heap.clone_from(&s.heap);
        d.atexit.clone_from(&s.atexit);
        d.concurrency = s.concurrency;
        d.exiting = s.exiting;
    }};
}

/// The runtime state of an execution at a step, for [`Executor::restore`]: the fields of
/// [`Rt`] an execution changes.
#[derive(Debug, Default)]
struct RtCheckpoint {
    current: Option<ThreadId>,
    threads: Vec<ThreadRt>,
    held: HashMap<u64, (ThreadId, u32)>,
    defects: Vec<Defect>,
    assumed: Vec<ThreadId>,
    steps_done: usize,
    exit_code: c_int,
    too_many_threads: bool,
    mem: crate::memory::MemState,
    pending: crate::memory::PendingWrites,
    unsupported: Option<ProgramError>,
    keys: Vec<(u32, usize)>,
    heap: crate::heapcheck::HeapCheck,
    atexit: Vec<usize>,
    concurrency: c_int,
    exiting: bool,
}

/// An execution stopped between two steps, whole: the program's memory (its writable
/// data, heap, stacks and thread-local blocks), its threads' coroutines and the
/// runtime's state ([`Executor::checkpoint`]). Restoring it ([`Executor::restore`])
/// puts the execution back at that step, so that a run whose schedule starts the same
/// way need not repeat those steps. A checkpoint is refilled in place, reusing its
/// allocations.
#[derive(Default)]
pub(crate) struct Checkpoint {
    rt: RtCheckpoint,
    sync: crate::sync::SyncCheckpoint,
    /// Bitwise copies of the coroutines (never dropped: [`Executor::restore`] copies
    /// them again, and the copies are discarded like any coroutine, by `force_reset`).
    coros: Vec<Option<std::mem::ManuallyDrop<Co>>>,
    sites: Vec<Site>,
    blocks: Vec<usize>,
    errnos: Vec<c_int>,
    sps: Vec<usize>,
    /// The lowest address of each started thread's stack that `memory` holds.
    stacks: Vec<(ThreadId, usize)>,
    /// Memory copied back, `(start, length)` each, their bytes one after the other in
    /// `bytes`: the live part of each started thread's stack, each thread-local block,
    /// the program's writable data.
    regions: Vec<(usize, usize)>,
    bytes: Vec<u8>,
    arena: Option<crate::mem::ArenaCheckpoint>,
}

impl Checkpoint {
    /// About how many bytes the checkpoint holds (its copies of memory, of the heap and
    /// of the race detector's state).
    pub fn footprint(&self) -> usize {
        self.bytes.len() + self.arena.as_ref().map_or(0, |a| a.bytes()) + self.rt.mem.detector.footprint()
    }
}

impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoint").field("threads", &self.coros.len()).field("bytes", &self.bytes.len()).finish()
    }
}

impl Executor {
    /// Fill `c` with the execution in progress, whole, between two steps (no program
    /// thread runs). `writable`: the program's writable data. False (and `c` unusable)
    /// when its heap and data are larger than `limit` bytes (copying them would cost
    /// more than the steps it saves) or a thread's stack end is unknown.
    pub fn checkpoint(&self, c: &mut Checkpoint, writable: &[(usize, usize)], limit: usize) -> bool {
        let heap = with_rt(|rt| rt.arena.as_ref().map_or(0, |a| a.used_bytes()));
        if heap + writable.iter().map(|w| w.1).sum::<usize>() > limit {
            return false;
        }
        c.regions.clear();
        c.bytes.clear();
        c.stacks.clear();
        let copy = |c: &mut Checkpoint, lo: usize, hi: usize| {
            // SAFETY: the callers pass committed, readable memory of the program (its
            // data, a thread's stack above its end, a thread-local block).
            c.bytes.extend_from_slice(unsafe { std::slice::from_raw_parts(lo as *const u8, hi - lo) });
            c.regions.push((lo, hi - lo));
        };
        for (i, co) in self.coros.iter().enumerate() {
            let Some(co) = co else { continue };
            if co.started() && !co.done() {
                let t = ThreadId(i as u16);
                let Some((low, top)) = self.stacks.committed_range(t) else { return false };
                let sp = self.sps[i];
                if sp <= low || sp > top {
                    return false;
                }
                // The coroutine's saved stack pointer, one of its words: the closest one
                // below the noted end within the stack. The frames of the switch lie
                // between the two (40 bytes in an optimized build, more in an
                // unoptimized one); without it, no checkpoint.
                // SAFETY: reading the bytes of a live value as words.
                let words = unsafe {
                    std::slice::from_raw_parts(co as *const Co as *const usize, std::mem::size_of::<Co>() / 8)
                };
                let Some(saved) = words.iter().copied().filter(|&w| w > low && w < sp).max() else {
                    debug_assert!(false, "unfold bug: no saved stack pointer in a suspended coroutine");
                    return false;
                };
                let lo = saved.min(sp.saturating_sub(CHECKPOINT_MARGIN)).max(low);
                copy(c, lo, top);
                c.stacks.push((t, lo));
            }
            if let (Some(tls), &b) = (&self.tls, &self.blocks[i]) {
                if b != 0 {
                    copy(c, b, b + tls.block_len());
                }
            }
        }
        for &(start, len) in writable {
            copy(c, start, start + len);
        }
        with_rt(|rt| {
            let r = &mut c.rt;
            r.current = Some(rt.current);
            copy_checkpointed!(r, rt);
            match rt.arena.as_ref().filter(|a| a.used_bytes() > 0) {
                Some(a) => a.checkpoint(c.arena.get_or_insert_default()),
                None => c.arena = None,
            }
        });
        crate::sync::checkpoint(&mut c.sync);
        c.coros.clear();
        // SAFETY: a bitwise copy of a suspended (or finished) coroutine: its state is its
        // stack pointer and its stack's bytes, which `memory` keeps; the copy is never
        // dropped (ManuallyDrop) and only copied back by `restore`.
        c.coros.extend(
            self.coros
                .iter()
                .map(|co| co.as_ref().map(|co| std::mem::ManuallyDrop::new(unsafe { std::ptr::read(co) }))),
        );
        c.sites.clone_from(&self.sites);
        c.blocks.clone_from(&self.blocks);
        c.errnos.clone_from(&self.errnos);
        c.sps.clone_from(&self.sps);
        true
    }

    /// Put the execution back as `c` found it, in place of the one in progress (which
    /// is discarded, as by [`Executor::end`]). False, with nothing in progress, when a
    /// stack `c` copied is no longer committed (a thread's stack size changed since).
    pub fn restore(&mut self, c: &Checkpoint) -> bool {
        self.discard();
        let committed = |&(t, lo): &(ThreadId, usize)| self.stacks.committed_range(t).is_some_and(|(low, _)| low <= lo);
        if !c.stacks.iter().all(committed) {
            return false;
        }
        let mut at = 0;
        for &(start, len) in &c.regions {
            // SAFETY: memory the checkpoint read, still committed and writable (stacks
            // checked above; data and thread-local blocks stay mapped for the life of the
            // worker); no program thread runs and no Rust reference points into it.
            unsafe { std::ptr::copy_nonoverlapping(c.bytes[at..at + len].as_ptr(), start as *mut u8, len) };
            at += len;
        }
        let n = c.coros.len();
        if n > 0 {
            self.slot(ThreadId((n - 1) as u16));
        }
        for (i, dst) in self.coros.iter_mut().enumerate() {
            // SAFETY: see `checkpoint`: each restore makes a new bitwise copy of the
            // suspended coroutine whose stack was just copied back.
            *dst = c.coros.get(i).and_then(|co| co.as_ref()).map(|co| unsafe { std::ptr::read(&**co) });
        }
        self.sites[..n].copy_from_slice(&c.sites);
        self.blocks[..n].copy_from_slice(&c.blocks);
        self.errnos[..n].copy_from_slice(&c.errnos);
        self.sps[..n].copy_from_slice(&c.sps);
        let r = &c.rt;
        with_rt(|rt| {
            rt.active = true;
            // The thread that ran last: the one whose pending plain writes the next visit
            // of the runtime state judges (`memory::settle`).
            rt.current = r.current.unwrap_or(ThreadId::MAIN);
            copy_checkpointed!(rt, r);
            if let Some(a) = rt.arena.as_mut() {
                match c.arena.as_ref() {
                    Some(ca) => a.restore(ca),
                    None => a.reset(),
                }
            }
        });
        crate::sync::restore(&c.sync);
        true
    }
}

/// One execution of the C program as a [`Frontend`] of the engine's drive loop.
struct CRun<'a> {
    ex: &'a mut Executor,
    sink: &'a mut dyn StepSink,
}

impl Frontend for CRun<'_> {
    fn site(&self, t: ThreadId) -> Site {
        self.ex.sites[t.index()]
    }

    fn begin(&mut self, _index: usize, step: &Step) -> bool {
        // `Rt::steps_done` is set by `perform`, before the thread runs.
        self.sink.push(*step)
    }

    #[inline(always)]
    fn perform(
        &mut self,
        index: usize,
        t: ThreadId,
        action: Action,
        result: u64,
    ) -> Result<(Option<Action>, Option<Action>), ProgramError> {
        let site = self.ex.sites[t.index()];
        with_rt(|rt| {
            rt.steps_done = index + 1;
            // What makes the thread's next unlock weak (`ThreadRt::clean_unlock`).
            let th = rt.thread(t);
            th.clean_unlock = match (action, th.clean_unlock) {
                (Action::Unlock(m, _), _) => Some(m),
                (Action::Lock(m), Some(c)) if m == c => Some(c),
                (Action::Await(_), c) => c,
                _ => None,
            };
            // A synchronising object in a freed heap block (crate::heapcheck).
            crate::heapcheck::on_sync(rt, t, action, site);
            match action {
                Action::Read(..) => {}
                Action::Write(o, b) => {
                    // The write counts a spin-wait waits on (the engine's memory state).
                    rt.mem.writes.entry(o).or_default().write(b);
                }
                // Counted by the atomic's post-hook if it changed the value (known only once
                // it ran: `performed_as`).
                Action::Rmw(..) => rt.mem.rmw_changed = None,
                // A read-write lock's locks and unlocks count as a mutex's for polling
                // (`for (;;) { rdlock(l); f = flag; unlock(l); if (f) break; }`): its await
                // count is its unlocks, as a mutex's is its releases.
                Action::Lock(m)
                | Action::Unlock(m, _)
                | Action::RdLock(m)
                | Action::WrLock(m)
                | Action::RwUnlock(m, _) => {
                    if action.moves_await_count() {
                        // The release count a wait on the mutex watches (the engine's mutex
                        // state: `Action::moves_await_count`: not a weak unlock). Mutex ids
                        // are addresses and never meet a memory object's (low bit set).
                        let v = rt.mem.versions.entry(m).or_insert(0);
                        *v = v.wrapping_add(1);
                    }
                    // Logged for polling under a mutex (memory.rs); happens-before as usual.
                    let lock = matches!(action, Action::Lock(_) | Action::RdLock(_) | Action::WrLock(_));
                    let rw = !matches!(action, Action::Lock(_) | Action::Unlock(..));
                    crate::memory::spin_mutex_op(rt, t, m, lock, rw);
                    if rt.mem.tracking() {
                        rt.mem.detector.on_step(t, action);
                    }
                }
                // A failed try or timed operation, joining a condition variable's waiters and
                // a timed wake that timed out change nothing another thread can see: the loop
                // iteration goes on (the shims log them as loads: memory.rs, "Failed try and
                // timed operations"); happens-before as usual.
                a if a.is_failed_try() || matches!(a, Action::CondWait(_) | Action::CondWake(_, true, false)) => {
                    if rt.mem.tracking() {
                        rt.mem.detector.on_step(t, action);
                    }
                }
                _ => {
                    // The await count of a synchronising object (the engine's state a wait
                    // after a failed try watches: `Action::moves_await_count`).
                    if let (true, Some(o)) = (action.moves_await_count(), action.object()) {
                        let v = rt.mem.versions.entry(o).or_insert(0);
                        *v = v.wrapping_add(1);
                    }
                    // Any other visible operation changes what other threads can see (or
                    // ends a spin-wait): the thread's loop iterations start afresh.
                    rt.thread(t).spin.clear();
                    if let Action::Await(w) = action {
                        for (o, ..) in w.iter() {
                            if let Some(i) = rt.mem.awaited.iter().position(|&(x, _)| x == o) {
                                rt.mem.awaited.swap_remove(i);
                            }
                        }
                    }
                    if action == Action::Exit {
                        // The thread's stack dies (before the step's happens-before tick).
                        crate::heapcheck::on_thread_exit(rt, t, site);
                    }
                    if rt.mem.tracking() && !matches!(action, Action::Await(..)) {
                        // Happens-before of the step, before the thread (or the child) runs on.
                        rt.mem.detector.on_step(t, action);
                    }
                }
            }
        });
        Ok(match action {
            Action::Create(c) => {
                let spawn = with_rt(|rt| rt.thread(c).spawn.take());
                let (f, arg) = spawn.expect("unfold bug: Create without a pending spawn");
                // SAFETY: `f` is the address of the start routine the program passed to
                // pthread_create (stored as usize in the runtime state).
                let f: StartFn = unsafe { std::mem::transmute::<usize, StartFn>(f) };
                self.sink.running(c);
                let child_next = self.ex.start(c, Body::Start { f, arg })?;
                self.sink.running(t);
                (self.ex.resume(t, 0), child_next)
            }
            Action::Exit | Action::ExitProcess => (None, None),
            _ => {
                self.sink.running(t);
                (self.ex.resume(t, result), None)
            }
        })
    }

    fn performed_as(&mut self, _t: ThreadId, action: Action) -> Action {
        match action {
            // The post-hook reported whether it changed the value; a thread that never
            // reached it (it crashed in the operation) is taken to have written.
            Action::Rmw(o, b, _) => Action::Rmw(o, b, with_rt(|rt| rt.mem.rmw_changed.take()).unwrap_or(true)),
            a => a,
        }
    }

    fn finish(&mut self, index: usize, step: &Step) -> Result<(), ProgramError> {
        // One visit of the runtime state: the exit status, new thread names, limits.
        let (names, too_many, unsupported) = with_rt(|rt| {
            if step.action == Action::ExitProcess && rt.exit_code != 0 {
                rt.defects.push(Defect {
                    kind: DefectKind::Exit,
                    message: format!("the program exited with status {}", rt.exit_code),
                    thread: step.thread,
                    site: (step.site != 0).then_some(step.site),
                    after_steps: index + 1,
                });
            }
            let names = (!rt.new_names.is_empty()).then(|| std::mem::take(&mut rt.new_names));
            (names, rt.too_many_threads, rt.unsupported.take())
        });
        if let Some(names) = names {
            self.sink.names(&names);
        }
        self.sink.update_last(*step);
        if too_many {
            return Err(ProgramError::Limit(format!("more than {} threads", crate::mem::SLOTS)));
        }
        if let Some(e) = unsupported {
            return Err(e);
        }
        Ok(())
    }
}

/// Read the defects, assumptions and bounded poll (`memory.rs`, "Polls that count") of
/// the execution just run.
pub(crate) fn take_results() -> (Vec<Defect>, Vec<ThreadId>, Option<Site>) {
    with_rt(|rt| (std::mem::take(&mut rt.defects), std::mem::take(&mut rt.assumed), rt.mem.bounded_poll.take()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites_round_trip() {
        let file = c"prog.c".as_ptr();
        SITE_BASE.store(file as u64 - 4096, std::sync::atomic::Ordering::Relaxed);
        for line in [42, 65_535, 65_536, 1_000_000, i32::MAX] {
            match decode_site(site_file_line(file, line)) {
                SiteKind::FileLine(f, l) => {
                    assert_eq!(f, file as u64);
                    assert_eq!(l, line as u32, "lines are not capped");
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(decode_site(0), SiteKind::None);
        assert_eq!(decode_site(0x5555_1234), SiteKind::Code(0x5555_1234));
        // A role keeps the file and line, and reads back.
        for role in [SiteRole::Call, SiteRole::MutexInit, SiteRole::MutexDestroy, SiteRole::RwLockDestroy] {
            let s = site_with_role(site_file_line(file, 77), role);
            assert_eq!(decode_site(s), SiteKind::FileLine(file as u64, 77));
            assert_eq!(site_role(s), role);
            assert_eq!(site_role(site_file_line(file, 77)), SiteRole::Call);
        }
        assert_eq!(site_with_role(0x5555_1234, SiteRole::MutexInit), 0x5555_1234, "code sites have no role");
    }
}
