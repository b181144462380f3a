//! Shared memory made visible: the Rust side of the thread-sanitizer interface
//! (`tsan.c`), for programs compiled with `-fsanitize=thread`.
//!
//! - **Atomic operations** (C11 `stdatomic.h`, GCC `__atomic_*` / `__sync_*`) are visible
//!   steps in every mode: [`Action::Read`] for a load, [`Action::Write`] for a store,
//!   [`Action::Rmw`] for the others (a compare-exchange is an `Rmw` whether or not it
//!   succeeds: the outcome is known only once it ran, and for dependence it is a write
//!   either way; the executed step says whether it changed the value, and an unchanged
//!   one counts as a load for spin-waits: `__unfold_mem_atomic_post`, docs/memory.md),
//!   on the memory object of its 8-byte word ([`memory_obj`]), with the bytes of the word
//!   it touches ([`Bytes`]): accesses to disjoint bytes of one word commute (two
//!   `atomic_int`s in one word are two locations), accesses of different sizes that
//!   overlap are dependent, so mixed sizes are handled exactly; an atomic access that
//!   crosses a word boundary is refused by name.
//! - **Plain accesses**, in [`MemoryMode::Races`] (the default), are checked against
//!   happens-before by the engine's [`RaceDetector`] in every execution; the first race
//!   of each pair of sites is a [`DefectKind::DataRace`] defect (the thread goes on). In
//!   [`MemoryMode::Sc`] every plain access is a visible step too, under sequential
//!   consistency, and races are not defects.
//!
//! Everything here runs on a program thread (a coroutine); accesses made outside an
//! execution (none are expected: constructors run inside executions) are ignored.

use crate::exec::{suspend_hook as suspend, with_rt_hook as with_rt, Yield};
use std::ffi::{c_int, c_void};
use unfold_engine::action::AwaitEntry;
use unfold_engine::action::MAX_AWAITED;
use unfold_engine::objects::memory::ByteWrites;
use unfold_engine::program::Site;
use unfold_engine::race::{AtomicOp, MemoryOrder, Race, RaceDetector};
use unfold_engine::{Action, Awaited, Bytes, Defect, DefectKind, ObjId, ProgramError};

/// How plain memory accesses are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MemoryMode {
    /// Plain accesses are not scheduling points; every execution checks them for data
    /// races. Atomics are visible steps.
    #[default]
    Races,
    /// Every shared access, plain or atomic, is a visible step (sequential
    /// consistency); races are not reported.
    Sc,
    /// Plain accesses are ignored (no race detection); atomics are visible steps. (The
    /// CLI's `--memory none` also compiles without instrumentation, so nothing is seen.)
    Off,
}

/// The memory object of the 8-byte word holding `addr`. The low bit tags it, so that it
/// never coincides with a synchronising object's id (an object's address).
pub fn memory_obj(addr: u64) -> ObjId {
    ObjId((addr & !7) | 1)
}

/// The address of the word a memory object stands for.
pub fn memory_addr(o: ObjId) -> u64 {
    o.0 & !7
}

/// The address of the worker's `errno` ([`crate::exec::errno_addr`]), set when the
/// executor is made: accesses to it are thread-local, not shared memory.
pub(crate) static ERRNO_ADDR: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(u64::MAX - 8);

/// Most data-race defects one execution records.
const MAX_RACES: usize = 16;

/// Per-execution memory state of the runtime.
#[derive(Debug, Default)]
pub(crate) struct MemState {
    pub mode: MemoryMode,
    pub detector: RaceDetector,
    /// Pairs of sites already reported in this execution.
    reported: Vec<(Site, Site)>,
    /// The await count of each synchronising object so far (the engine's state that
    /// [`Action::Await`] waits on): unlocks per mutex, posts per semaphore...
    pub versions: rustc_hash::FxHashMap<ObjId, u32>,
    /// The visible writes to each byte of each memory word so far (the engine's memory
    /// state, [`ByteWrites`]: a wait on some bytes waits for the sum of their counts to
    /// move).
    pub writes: rustc_hash::FxHashMap<ObjId, ByteWrites>,
    /// Memory objects some thread spin-waits on, each with the bytes of the word the
    /// wait watches (its iteration loaded): in race mode, a plain write to one of those
    /// bytes is a visible step (it is what wakes the waiter). A plain write to other bytes of the
    /// word is not: whether it is a step would depend on whether another thread is
    /// waiting at that moment, which differs between schedules (a plain variable beside
    /// a spun-on atomic, `struct { atomic_int flag; int data; }`).
    pub awaited: Vec<(ObjId, u8)>,
    /// Whether the read-modify-write step being performed changed its location, once its
    /// post-hook ran (reported to the engine as the step's outcome, `Rmw(o, changed)`).
    pub rmw_changed: Option<bool>,
    /// The site of the first poll of this execution run without a step (see "Polls that
    /// count"): the exploration is bounded there.
    pub bounded_poll: Option<Site>,
}

// A copy that reuses the destination's allocations (`clone_from`): the checkpoints
// (`crate::exec::Checkpoint`) copy the memory state at every branch point.
impl Clone for MemState {
    fn clone(&self) -> Self {
        let mut c = MemState::default();
        c.clone_from(self);
        c
    }

    fn clone_from(&mut self, src: &Self) {
        // Destructured: a field added later must be listed here (checkpoints copy it).
        let MemState { mode, detector, reported, versions, writes, awaited, rmw_changed, bounded_poll } = src;
        self.mode = *mode;
        self.detector.clone_from(detector);
        self.reported.clone_from(reported);
        self.versions.clone_from(versions);
        self.writes.clone_from(writes);
        self.awaited.clone_from(awaited);
        self.rmw_changed = *rmw_changed;
        self.bounded_poll = *bounded_poll;
    }
}

impl MemState {
    /// Start an execution.
    pub fn reset(&mut self) {
        self.detector.reset();
        self.reported.clear();
        self.versions.clear();
        self.writes.clear();
        self.awaited.clear();
        self.rmw_changed = None;
        self.bounded_poll = None;
        __unfold_hiding.store(0, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether happens-before is tracked: for data races, and under `--memory sc` for
    /// the accesses a `free` or a thread's exit does not order (crate::heapcheck).
    pub fn tracking(&self) -> bool {
        self.mode != MemoryMode::Off
    }

    /// Whether data races are defects.
    pub fn races(&self) -> bool {
        self.mode == MemoryMode::Races
    }
}

/// The site of a call or access returning to `ra`: the address of its last byte.
pub(crate) fn code_site(ra: *mut c_void) -> Site {
    (ra as u64).saturating_sub(1)
}

/// The race as reported: its two accesses in one order whichever ran first (the later
/// one is the higher thread's), so that the schedules meeting them in either order report
/// one defect (same site, same message).
fn canonical(r: &Race) -> Race {
    let mut r = *r;
    if r.first.thread > r.second.thread {
        std::mem::swap(&mut r.first, &mut r.second);
    }
    r
}

fn race_defect(r: &Race, steps_done: usize, name: Option<String>) -> Defect {
    let r = &canonical(r);
    let what = |w: bool, a: bool| match (w, a) {
        (true, true) => "atomic write",
        (true, false) => "write",
        (false, true) => "atomic read",
        (false, false) => "read",
    };
    Defect {
        kind: DefectKind::DataRace,
        message: format!(
            "data race on {}: {} by {} and {} by {} at [[site:{:x}]], not ordered by synchronisation",
            name.unwrap_or_else(|| format!("0x{:x}", r.addr)),
            what(r.second.write, r.second.atomic),
            r.second.thread,
            what(r.first.write, r.first.atomic),
            r.first.thread,
            r.first.site
        ),
        thread: r.second.thread,
        site: Some(r.second.site),
        after_steps: steps_done,
    }
}

/// Record race `r` as a defect, once per pair of sites (at most `MAX_RACES`).
fn report_race(rt: &mut crate::exec::Rt, r: &Race) {
    let c = canonical(r);
    let key = (c.first.site, c.second.site);
    if rt.mem.reported.len() < MAX_RACES && !rt.mem.reported.contains(&key) {
        rt.mem.reported.push(key);
        let d = race_defect(r, rt.steps_done, crate::heapcheck::heap_name(rt, r.addr));
        rt.defects.push(d);
    }
}

// ---- spin loops ------------------------------------------------------------------------
//
// A thread spins when one iteration of its loop reads memory, changes nothing another
// thread can see, and comes back to the same instruction in the same local state: then
// it will repeat that iteration until another thread writes what it read, so it is
// blocked on an [`Action::Await`] instead of being explored iteration by iteration.
//
// Checkpoints are the thread's visible memory operations. At each one the thread's
// whole local state — its callee-saved registers and the used part of its stack, the
// shim's own frames included (the same code path leaves them identical) — is compared
// with the state it had at its last visit of the same instruction. Since that visit the
// thread must not have changed anything: no plain write that changed a value, no atomic
// that changed a value, no other visible operation (each clears the visits). A plain
// write is judged once it is done (the hook runs before it): the tracker keeps the bytes
// it is about to overwrite (`PendingWrites`, up to `MAX_PENDING` writes of at most
// 8 bytes each in the program's data or heap) and compares them with memory at the
// thread's next entry into the runtime, before any other thread can run (`settle`): a
// write of the value already there (`waited = 1;` in a wait loop, from its second
// iteration on) changes nothing, any other one clears the visits. A loop with a give-up
// counter is not pure (the counter is in its state) and keeps its exact semantics. The
// iteration must have read at most `MAX_AWAITED` distinct locations (Peterson's
// `while (flag[other] && turn == other)` reads two): the wait ends when any of them is
// written. An iteration reading more is explored iteration by iteration. Loads, and
// read-modify-writes that left the value unchanged (a failed CAS, a test-and-set of a set
// flag: observationally loads, see `__unfold_mem_atomic_post`).
//
// The first visit of a site records its state too, so that a spin waits at its second
// visit: one load (or one failed read-modify-write) and the wait. But equality must be a
// function of the thread's history, or a thread's visible operations would depend on the
// schedule (every explorer assumes they do not). A stack slot the loop's first iteration
// writes for the first time (a compiler temporary, a local) holds, at the first visit,
// whatever was there before: what earlier executions left on the reused coroutine stack,
// or what runtime code called earlier by the thread left below its caller's frame — data
// that depends on the schedule (the race detector's and the scheduler's state). At the
// next visit it holds the value written; the two compare equal exactly when that garbage
// happens to be the value (a zero, often). So a first visit is compared only when no such
// garbage can be in its stack (`Visit::comparable`): the thread's program code began on a
// zeroed window of `SCRUB_WINDOW` bytes below its stack top, with its callee-saved
// registers zeroed too (`program_code_begins`, `tsan.c`'s `__unfold_scrub_stack` and
// `__unfold_enter_program`), the visit's stack lies inside it, and no runtime code
// has run below an address above the visit's frame since (`SpinTracker::dirty`: a memory
// hook runs below the C frame `tsan.c` reports, exactly; a shim's caller's depth is not
// known, so once a shim ran the thread's later first visits are not compared). Otherwise
// the first visit only records, and the loop waits at its third visit as before (the
// second and third visits hold the same bytes wherever the iteration does not write:
// there garbage cancels out). Measured on the corpus: tests/c/peterson_unbounded.c went
// from 44 to 38 traces; before the conditions, a slot of its wait loop held what the
// previous execution had left, and classic-DPOR's replay diverged. The registers a
// visit compares are zeroed at the start for the same reason: before, a register the
// program had not written yet held the value the runtime's frame left there, which made
// tests/c/await_false_sharing.c's count (6 traces, or 4) depend on how the compiler laid
// out the runtime.

/// A checkpoint visit: where, the thread's local state there (its callee-saved
/// registers and the used part of its stack), and how many reads and mutex operations
/// were logged then. Every visit records the state, the first one included, so that the
/// second visit of a site can already find the iteration between them pure: a spin costs
/// one load (or one failed read-modify-write) before its wait. The stack bytes live in a
/// buffer the tracker keeps when it forgets its visits (`SpinTracker::live`), so that
/// recording a visit after a change copies the stack without allocating.
#[derive(Debug, Default)]
struct Visit {
    site: Site,
    /// [`state_hash`] of the recorded state: a visit is compared with up to
    /// `MAX_SITE_VISITS` earlier ones, and most differ; the hash rules them out without
    /// walking their stacks.
    hash: u64,
    regs: [u64; 10],
    stack: Vec<u8>,
    reads: usize,
    /// How many mutex operations were logged then.
    locks: usize,
    /// Whether the next visit may be compared with this one: always for a visit after
    /// an earlier one of the site; for the first visit only if every byte of its stack a
    /// loop iteration may write for the first time is a function of the thread's own
    /// history (see [`SpinTracker::dirty`]).
    comparable: bool,
    /// [`SpinTracker::clock_reads`] then.
    clocks: u32,
    /// How many accesses to the thread's own frames were logged then
    /// ([`SpinTracker::own`]).
    own: usize,
}

impl Clone for Visit {
    fn clone(&self) -> Self {
        let mut v = Visit::default();
        v.clone_from(self);
        v
    }

    /// Field by field, reusing the stack buffer (checkpoints copy visits back and forth).
    fn clone_from(&mut self, src: &Self) {
        let Visit { site, hash, regs, stack, reads, locks, comparable, clocks, own } = src;
        (self.site, self.hash, self.regs) = (*site, *hash, *regs);
        self.stack.clone_from(stack);
        (self.reads, self.locks, self.comparable, self.clocks, self.own) = (*reads, *locks, *comparable, *clocks, *own);
    }
}

/// A hash of a local state (registers and stack bytes), for [`Visit::hash`].
fn state_hash(regs: &[u64; 10], stack: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
    let mut h = regs.iter().fold(stack.len() as u64, |h, &r| mix(h, r));
    let mut words = stack.chunks_exact(8);
    for w in &mut words {
        h = mix(h, u64::from_ne_bytes(w.try_into().expect("8 bytes")));
    }
    words.remainder().iter().fold(h, |h, &b| mix(h, b as u64))
}

impl SpinTracker {
    /// Log an access of `size` bytes at `addr`, in the thread's own frames (see
    /// [`SpinTracker::own`]).
    #[inline]
    fn log_own(&mut self, addr: u64, size: usize, write: bool) {
        if self.live == 0 || self.own_lost {
            // No visit to compare with, or the log is incomplete anyway.
        } else if self.own.len() < MAX_OWN {
            self.own.push(OwnAccess { addr, size: size.min(u32::MAX as usize) as u32, write });
        } else {
            self.own_lost = true;
        }
    }
}

impl Visit {
    /// Whether the thread's local state now (`regs`, and `stack` from address `frame` up)
    /// is the one recorded but for bytes dead at this visit: bytes whose first access
    /// since it, in `own` (the thread's accesses to its own frames since the visits
    /// began), was a write. Such a byte's value at the visit was never used, so from the
    /// state now, reading what the iteration read, the thread makes the iteration again,
    /// writes those bytes as it did, and comes back to the state it is in now: a spin, as
    /// if the states were equal. At `-O0` a loop's loaded values go through stack
    /// temporaries that keep the last iteration's value until the next load overwrites
    /// them (see "Dead temporaries" in docs/memory.md).
    fn same_but_dead(&self, regs: &[u64; 10], stack: &[u8], frame: u64, own: &[OwnAccess]) -> bool {
        if !self.comparable || self.regs != *regs || self.stack.len() != stack.len() || own.len() < self.own {
            return false;
        }
        let own = &own[self.own..];
        if !own.iter().any(|e| e.write) {
            // No byte was written since: none is dead (an array loop's visits end here,
            // before comparing stacks).
            return false;
        }
        let mut dead = 0;
        for (w, (a, b)) in self.stack.chunks(8).zip(stack.chunks(8)).enumerate() {
            if a == b {
                continue;
            }
            for k in (0..a.len()).filter(|&k| a[k] != b[k]) {
                dead += 1;
                let x = frame + (w * 8 + k) as u64;
                let first = own.iter().find(|e| e.addr <= x && x - e.addr < u64::from(e.size));
                if dead > MAX_DEAD_BYTES || !first.is_some_and(|e| e.write) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the thread's local state is the one recorded (exact: every byte).
    fn same_state(&self, hash: u64, regs: &[u64; 10], stack: &[u8]) -> bool {
        self.hash == hash && self.regs == *regs && self.stack.as_slice() == stack
    }

    /// Record the visit at `site` with this local state (reusing the stack buffer); a
    /// visit that will not be compared records no state (the copy would be wasted: most
    /// loops change something every iteration, and a lock-heavy program's first visits
    /// after its locks are never compared).
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        site: Site,
        hash: u64,
        regs: &[u64; 10],
        stack: &[u8],
        reads: usize,
        locks: usize,
        comparable: bool,
    ) {
        self.site = site;
        self.comparable = comparable;
        if comparable {
            self.hash = hash;
            self.regs = *regs;
            self.stack.clear();
            self.stack.extend_from_slice(stack);
        }
        self.reads = reads;
        self.locks = locks;
    }
}

/// Per-thread spin-loop detection state.
#[derive(Debug, Default)]
pub(crate) struct SpinTracker {
    /// The visits since the last change are `visits[..live]`; the entries after them are
    /// spare stack buffers.
    visits: Vec<Visit>,
    live: usize,
    /// Locations read since the visits began (see [`Read`]).
    reads: Vec<Read>,
    /// Plain reads since the last change (race mode): spin bookkeeping on plain reads
    /// starts only past [`PLAIN_SPIN_THRESHOLD`], so that ordinary loops (which write
    /// every few reads) pay one counter, not the bookkeeping. Plain reads are not
    /// scheduling points, so the delay costs no execution.
    plain_reads: u32,
    /// Mutex locks (`true`) and unlocks since the visits began: polling under a mutex
    /// (see "Polling under a mutex" below).
    locks: Vec<(ObjId, bool)>,
    /// A read-write lock's operation is among `locks`: its unlocks are never weak, so a
    /// poll under it that read plain locations waits for them, never as an assumption
    /// (see [`checkpoint`]).
    rw_locks: bool,
    /// A pure iteration found while holding the mutex it polls under: the wait to block
    /// on once the thread has released it and comes back to lock it. When the wait is on
    /// the mutex itself (the iteration made plain reads), its count is the one after the
    /// thread's release ([`SpinTracker::released`]), filled in when it blocks.
    deferred: Option<(Awaited, ObjId)>,
    /// The mutex this thread last unlocked, with its release count just after (the
    /// engine's [`unfold_engine::objects::ObjectKind::await_count`] of a mutex).
    released: Option<(ObjId, u32)>,
    /// Whether the thread's program code began on a zeroed stack window
    /// ([`program_code_begins`]; [`SCRUBS`]).
    scrubbed: bool,
    /// The highest stack address below which runtime code has run on this thread since
    /// its program code began: a memory hook's frame (exact: its Rust code runs below
    /// the C frame `tsan.c` reports), or `usize::MAX` once a shim ran (its caller's depth
    /// is unknown). Not reset by [`SpinTracker::clear`]: what the runtime left below a
    /// frame stays there until the program overwrites it.
    dirty: usize,
    /// Readings of a clock since the visits began (`shims.rs`, "time").
    pub clock_reads: u32,
    /// Time already jumped for this loop (see [`checkpoint`]): set by the jump, reset
    /// by any change.
    pub jumped: bool,
    /// The loop that polls with a changing local state (see "Polls that count" below):
    /// the checkpoint site ending its iterations, and the locations (with the bytes, the
    /// counts unused) its last iteration loaded.
    polling: Option<(Site, Vec<AwaitEntry>)>,
    /// Its iterations in a row that only loaded those locations, with no write to them in
    /// between.
    polls: u32,
    /// The write counts of each polled location at the last iteration's reads: an
    /// iteration that sees them moved starts the count again.
    poll_seen: Vec<(ObjId, ByteWrites)>,
    /// Its polls run without scheduling points, after [`POLLS_SHOWN`] iterations.
    hidden: Option<Hidden>,
    /// Visits before this index are kept for counting polls only: a plain write in race
    /// mode changed something since ([`SpinTracker::note_plain_change`]).
    impure_from: usize,
    /// The thread's instrumented accesses to its own frames since the visits began, for
    /// [`Visit::same_but_dead`].
    own: Vec<OwnAccess>,
    /// Whether an access is missing from `own`: more than [`MAX_OWN`] were made, or
    /// polls ran hidden (their accesses are not logged), since the visits began.
    own_lost: bool,
}

/// One instrumented access of a thread to its own frames (see [`SpinTracker::own`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OwnAccess {
    addr: u64,
    size: u32,
    write: bool,
}

/// Most accesses to its own frames logged per thread between two changes.
const MAX_OWN: usize = 256;
/// Most bytes in which two visits may differ and still be the same state modulo dead
/// bytes ([`Visit::same_but_dead`]).
const MAX_DEAD_BYTES: usize = 64;

/// A counting poll's polls past [`POLLS_SHOWN`] (see "Polls that count").
#[derive(Clone, Copy, Debug)]
struct Hidden {
    /// `Rt::steps_done` once the last visible poll was granted (`usize::MAX` until
    /// then): a poll runs without a step only while no step has been taken since, so
    /// that it reads what that poll read.
    step: usize,
    /// Polls run without a step so far.
    polls: u32,
}

impl Clone for SpinTracker {
    fn clone(&self) -> Self {
        let mut t = SpinTracker::default();
        t.clone_from(self);
        t
    }

    /// Field by field, reusing the destination's buffers; of the visits only the live
    /// ones are copied (the others are spare buffers, whatever they hold).
    fn clone_from(&mut self, src: &Self) {
        let SpinTracker {
            visits,
            live,
            reads,
            plain_reads,
            locks,
            rw_locks,
            deferred,
            released,
            scrubbed,
            dirty,
            clock_reads,
            jumped,
            polling,
            polls,
            poll_seen,
            hidden,
            impure_from,
            own,
            own_lost,
        } = src;
        if self.visits.len() < *live {
            self.visits.resize_with(*live, Visit::default);
        }
        for (d, s) in self.visits.iter_mut().zip(&visits[..*live]) {
            d.clone_from(s);
        }
        self.live = *live;
        self.reads.clone_from(reads);
        self.locks.clone_from(locks);
        (self.plain_reads, self.rw_locks, self.deferred, self.released) =
            (*plain_reads, *rw_locks, *deferred, *released);
        (self.scrubbed, self.dirty, self.clock_reads, self.jumped) = (*scrubbed, *dirty, *clock_reads, *jumped);
        self.polling.clone_from(polling);
        self.poll_seen.clone_from(poll_seen);
        self.own.clone_from(own);
        self.own_lost = *own_lost;
        (self.polls, self.hidden, self.impure_from) = (*polls, *hidden, *impure_from);
    }
}

/// Whether [`program_code_begins`] zeroes the stack window (where `tsan.c` implements
/// `__unfold_scrub_stack`); elsewhere no first visit is compared.
pub(crate) const SCRUBS: bool = cfg!(target_arch = "x86_64");

/// The stack window (below the top of a thread's stack) zeroed before its program code
/// begins: a first visit is compared only if its stack lies inside it.
pub(crate) const SCRUB_WINDOW: usize = 2 << 10;

/// Thread `t`'s program code (its start routine, or `main`) begins: the caller zeroes
/// `[returned address, stack pointer)` right after ([`crate::exec`]), and no runtime code
/// has run below the program's frames yet.
pub(crate) fn program_code_begins(t: unfold_engine::ThreadId) -> usize {
    with_rt(|rt| {
        let th = rt.thread(t);
        th.spin.scrubbed = SCRUBS;
        th.spin.dirty = 0;
        th.stack_top - SCRUB_WINDOW
    })
}

/// See [`SpinTracker::plain_reads`].
const PLAIN_SPIN_THRESHOLD: u32 = 64;

impl SpinTracker {
    /// Forget every visit: the thread changed something.
    pub fn clear(&mut self) {
        if self.tracking() {
            self.live = 0;
            self.reads.clear();
            self.locks.clear();
            self.own.clear();
        }
        self.own_lost = false;
        self.rw_locks = false;
        self.deferred = None;
        self.plain_reads = 0;
        self.clock_reads = 0;
        self.jumped = false;
        self.polling = None;
        self.polls = 0;
        self.poll_seen.clear();
        self.hidden = None;
        self.impure_from = 0;
    }

    /// A plain write in race mode changed something: no earlier visit may be found in
    /// the same state again (the iteration since is not pure), but a counting loop's
    /// count of polls goes on, and so do its hidden polls (plain writes are no steps in
    /// race mode, so no other thread can tell: a global `spins++` is a counter too).
    pub(crate) fn note_plain_change(&mut self) {
        self.impure_from = self.live;
        self.deferred = None;
        self.plain_reads = 0;
        self.clock_reads = 0;
        self.jumped = false;
    }

    /// Whether the thread's polls are hidden now, `step` being `Rt::steps_done` ("Polls
    /// that count": armed, and no step taken since the last visible poll).
    #[inline]
    fn hiding(&self, step: usize) -> bool {
        self.hidden.is_some_and(|h| h.step == step)
    }

    /// Whether the tracker holds anything a change would forget.
    #[inline]
    fn tracking(&self) -> bool {
        self.live != 0 || !self.reads.is_empty() || !self.locks.is_empty()
    }
}

/// Plain writes of the current thread whose hooks ran while its tracker held visits, not
/// yet judged: (address, size, the bytes there before the write). Only the current
/// thread can have any: every entry into the runtime state judges them first
/// ([`settle`]), and threads switch only inside the runtime.
#[derive(Debug, Default)]
pub(crate) struct PendingWrites(Vec<(u64, u8, [u8; 8])>);

impl Clone for PendingWrites {
    fn clone(&self) -> Self {
        PendingWrites(self.0.clone())
    }

    fn clone_from(&mut self, src: &Self) {
        self.0.clone_from(&src.0);
    }
}

impl PendingWrites {
    /// Forget them (a new execution).
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }
}

/// The current thread's plain write of `size` bytes at `addr` (not in its own frames) is
/// about to happen: a change, unless its tracker holds visits and the write can be judged
/// once done (the bytes stay mapped; see [`PendingWrites`]).
#[inline]
fn plain_write(rt: &mut crate::exec::Rt, addr: u64, size: usize) {
    let t = rt.current;
    if !rt.thread(t).spin.tracking() {
        // Nothing to keep: forgetting is cheap.
        plain_change(rt);
        return;
    }
    if size > 8 || rt.pending.0.len() >= MAX_PENDING || !rt.always_readable(addr, size) {
        rt.pending.0.clear();
        plain_change(rt);
        return;
    }
    let mut before = [0u8; 8];
    // SAFETY: always_readable: [addr, addr + size) lies in the program's data or committed
    // heap, which stay mapped; size <= 8.
    unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, before.as_mut_ptr(), size) };
    rt.pending.0.push((addr, size as u8, before));
}

/// Judge the current thread's pending plain writes, all done by now (it is back in the
/// runtime): if one changed the bytes it wrote, the thread changed something.
#[inline]
pub(crate) fn settle(rt: &mut crate::exec::Rt) {
    if rt.pending.0.is_empty() {
        return;
    }
    settle_slow(rt);
}

#[cold]
fn settle_slow(rt: &mut crate::exec::Rt) {
    let changed = rt.pending.0.iter().any(|&(addr, size, before)| {
        let n = size as usize;
        // SAFETY: checked always readable when the write was recorded.
        let now = unsafe { std::slice::from_raw_parts(addr as *const u8, n) };
        now != &before[..n]
    });
    rt.pending.0.clear();
    if changed {
        plain_change(rt);
    }
}

/// The current thread's plain write changed something: in race mode, where it is no
/// step, a counting loop goes on counting ([`SpinTracker::note_plain_change`]); under
/// `--memory sc` (its write was a step) the tracker forgets everything.
fn plain_change(rt: &mut crate::exec::Rt) {
    let races = rt.mem.mode == MemoryMode::Races;
    let t = rt.current;
    let spin = &mut rt.thread(t).spin;
    if races {
        spin.note_plain_change();
    } else {
        spin.clear();
    }
}

/// At most this many plain writes wait for [`settle`]; one more is taken as a
/// change (a wait loop's iteration writes few locations).
const MAX_PENDING: usize = 8;

impl SpinTracker {
    /// Runtime code ran on this thread's stack below address `top` (see
    /// [`SpinTracker::dirty`]).
    #[inline]
    pub(crate) fn runtime_ran_below(&mut self, top: usize) {
        self.dirty = self.dirty.max(top);
    }

    /// Whether runtime code of unknown depth ran on this thread (no first visit of it is
    /// compared until its program code begins again).
    #[inline]
    pub(crate) fn dirty_everywhere(&self) -> bool {
        self.dirty == usize::MAX
    }

    /// The release count of mutex `m` just after this thread's last unlock, if that
    /// unlock was of `m` (0 otherwise).
    fn released_count(&self, m: ObjId) -> u32 {
        match self.released {
            Some((r, n)) if r == m => n,
            _ => 0,
        }
    }
}

/// One load logged for spin detection: the location, the write counts it saw, whether
/// it was plain (race mode: its writes are not steps, so its counts say nothing), and
/// the bytes of the word it loaded (`None` for a synchronising object: a failed try, a
/// condition wait joined, whose await count is `counts.0[0]`), and whether it was a
/// condition wait joined (`cond`: the iteration is a timed-wait poll).
#[derive(Clone, Copy, Debug)]
struct Read {
    o: ObjId,
    counts: ByteWrites,
    plain: bool,
    bytes: Option<Bytes>,
    cond: bool,
    /// A read-modify-write that left the location as it was.
    rmw: bool,
}

/// The wait on the locations of `reads` (in the order of their first read), each with
/// the bytes read and their await count when first read: a word read at several places
/// is one entry on the union of the bytes, each byte counted from the first read that
/// loaded it (a write to a byte after that read is what the wait waits for; one between
/// two reads of other bytes changed nothing the iteration saw). Computed when a wait is
/// made: keeping the set up to date at every read cost a search per read, quadratic over
/// a loop reading thousands of words (bench/big_array.c spent 75 % of its time there).
fn awaited_of<'a>(first: Option<AwaitEntry>, reads: impl Iterator<Item = &'a Read>) -> Option<Awaited> {
    await_list(first, reads).and_then(Awaited::with_bytes)
}

/// The entries of [`awaited_of`]'s wait, or `None` past [`MAX_AWAITED`] locations.
fn await_list<'a>(first: Option<AwaitEntry>, reads: impl Iterator<Item = &'a Read>) -> Option<Vec<AwaitEntry>> {
    let mut list: Vec<AwaitEntry> = first.into_iter().collect();
    for r in reads {
        let entry = list.iter_mut().find(|e| e.0 == r.o);
        match (r.bytes, entry) {
            (None, None) => list.push((r.o, Bytes::ALL, r.counts.0[0])),
            (Some(b), None) => list.push((r.o, b, r.counts.count(b))),
            (Some(b), Some(e)) => {
                if let Some(new) = Bytes::new(b.bits() & !e.1.bits()) {
                    e.2 = e.2.wrapping_add(r.counts.count(new));
                    e.1 = e.1.union(new);
                }
            }
            (None, Some(_)) => {}
        }
        if list.len() > MAX_AWAITED {
            return None;
        }
    }
    Some(list)
}

/// Register the memory words of `w` (with the bytes it watches) as waited on (not a
/// mutex it waits on: a mutex's id is its address, low bit clear, never a
/// [`memory_obj`]).
fn register_awaited(rt: &mut crate::exec::Rt, w: &Awaited) {
    rt.mem.awaited.extend(w.iter().filter(|(o, ..)| o.0 & 1 == 1).map(|(o, b, _)| (o, b.bits())));
}

/// Most stack bytes compared at a checkpoint (deeper states are not checked).
const MAX_SNAPSHOT: usize = 64 * 1024;
/// Most checkpoints and reads remembered per thread between two changes.
const MAX_VISITS: usize = 64;
/// Most earlier visits of one checkpoint a visit is compared with (the latest ones).
const MAX_SITE_VISITS: usize = 16;
const MAX_READS: usize = 4096;

/// The caller's local state as `tsan.c` captures it on entry: its callee-saved
/// registers and the C function's frame address (above it: the saved frame pointer, the
/// return address into the program, the program's frames). A null frame disables spin
/// detection (an architecture `tsan.c` does not capture).
#[repr(C)]
#[derive(Debug)]
pub struct UnfoldCtx {
    regs: [u64; 10],
    frame: *const u8,
}

/// At a checkpoint: the spin-wait the thread must block on, if its last iteration
/// (since an earlier visit of `site` in the same state) was pure.
fn spin_check(site: Site, ctx: *const UnfoldCtx) -> Option<Action> {
    if ctx.is_null() {
        return None;
    }
    // SAFETY: tsan.c passes a pointer to its own live local `struct unfold_ctx`, whose
    // layout UnfoldCtx mirrors.
    let ctx = unsafe { &*ctx };
    with_rt(|rt| checkpoint(rt, site, ctx))
}

/// [`spin_check`] inside a visit of the runtime state: record the visit of `site` by the
/// current thread in local state `ctx`, and return the wait to block on if the thread
/// was in the same state at an earlier visit of `site` and the iteration between
/// them was pure.
fn checkpoint(rt: &mut crate::exec::Rt, site: Site, ctx: &UnfoldCtx) -> Option<Action> {
    let frame = ctx.frame as usize;
    if frame == 0 {
        return None;
    }
    let t = rt.current;
    let versions = &rt.mem.versions;
    let versions_now = |m: ObjId| versions.get(&m).copied().unwrap_or(0);
    let th = &mut rt.threads[t.index()];
    if th.spin.hiding(rt.steps_done) {
        // A counting loop's hidden polls ("Polls that count"): no visit is recorded (a
        // retry loop's checkpoint runs before its shim decides).
        return None;
    }
    let top = th.stack_top;
    if top <= frame || top - frame > MAX_SNAPSHOT {
        return None;
    }
    // SAFETY: [frame, top) is the used part of the current coroutine's own stack above the
    // live C frame that called us (`top` was recorded by the coroutine's first frame):
    // mapped, readable, and not written while we read it.
    let stack = unsafe { std::slice::from_raw_parts(frame as *const u8, top - frame) };
    let spin = &mut th.spin;
    let (nreads, nlocks) = (spin.reads.len(), spin.locks.len());
    // What a first visit records is compared with the next visit only if the stack's
    // bytes are a function of the thread's history: see "spin loops" above.
    let fresh = spin.scrubbed && top - frame <= SCRUB_WINDOW && spin.dirty <= frame;
    spin.runtime_ran_below(frame);
    // Every visit since the last change is kept, not only the site's latest: a loop whose
    // iteration visits the site several times in different states (an inner loop over an
    // array of flags, `for (i = 0; i < n; i++) if (!ready[i]) all = 0;`) comes back to
    // the state of some earlier visit, not of the previous one.
    // The latest `MAX_SITE_VISITS` of them are compared (an inner loop longer than that
    // is still explored iteration by iteration, up to the step bound).
    // Hashed only when a comparison or a comparable record needs it (a lock-heavy
    // program's first visits need neither).
    let mut hash = None;
    let mut site_visits = 0;
    // The latest visit of the site, whatever its state (see "Polls that count").
    let mut latest = None;
    let impure_from = spin.impure_from;
    let mut pure_site_visits = 0;
    let same = spin.visits[..spin.live]
        .iter()
        .enumerate()
        .rev()
        .find(|&(j, v)| {
            if v.site != site || site_visits == MAX_SITE_VISITS {
                return false;
            }
            latest.get_or_insert(j);
            site_visits += 1;
            pure_site_visits += usize::from(j >= impure_from);
            // A visit before a plain write that changed something is kept for counting
            // polls only.
            j >= impure_from
                && v.comparable
                && v.same_state(*hash.get_or_insert_with(|| state_hash(&ctx.regs, stack)), &ctx.regs, stack)
        })
        .map(|(j, _)| j);
    // Or the site's latest visit, but for bytes dead at it (an `-O0` loop's temporaries).
    let same = same.or_else(|| {
        latest.filter(|&j| {
            j >= impure_from
                && !spin.own_lost
                && spin.visits[j].same_but_dead(&ctx.regs, stack, frame as u64, &spin.own)
        })
    });
    let clocks = spin.clock_reads;
    if same.is_some_and(|i| clocks > spin.visits[i].clocks) && !spin.jumped {
        // A loop whose iteration read a clock comes back to a state it was in: time
        // passes instead, once (readings are frozen between the thread's visible steps:
        // shims.rs, "time"): the next iteration reads a clock a day later and may leave
        // on a deadline; if it comes back again, it waits as any other loop.
        spin.clear();
        spin.jumped = true;
        th.clock_ns = th.clock_ns.saturating_add(crate::shims::CLOCK_JUMP_NS);
        return None;
    }
    let Some(i) = same else {
        if let Some(j) = latest {
            spin.note_poll(site, j, clocks);
        }
        if spin.live < MAX_VISITS {
            if spin.live == spin.visits.len() {
                spin.visits.push(Visit::default());
            }
            // A first visit is comparable only if its stack is a function of the thread's
            // history; a later one always (what the iteration writes, it wrote by then).
            let comparable = fresh || pure_site_visits > 0;
            let hash = if comparable { hash.unwrap_or_else(|| state_hash(&ctx.regs, stack)) } else { 0 };
            spin.visits[spin.live].record(site, hash, &ctx.regs, stack, nreads, nlocks, comparable);
            spin.visits[spin.live].clocks = clocks;
            spin.visits[spin.live].own = spin.own.len();
            spin.live += 1;
        } else {
            // Too many visits: forget them (not a change: a counting loop's count of
            // polls goes on).
            let (polling, polls, seen) = (spin.polling.take(), spin.polls, std::mem::take(&mut spin.poll_seen));
            spin.clear();
            (spin.polling, spin.polls, spin.poll_seen) = (polling, polls, seen);
        }
        return None;
    };
    {
        // Each location with the write count seen at its first read in the iteration: if
        // another thread wrote it since, the wait is enabled at once.
        let read = &spin.reads[spin.visits[i].reads..];
        let locks = &spin.locks[spin.visits[i].locks..];
        let plain = read.iter().any(|r| r.plain);
        let polled = polled_mutex(locks);
        // A poll that read plain locations under its mutex waits for a release of the
        // mutex instead of a write to them (see "Polling under a mutex"); the atomic
        // locations it read are watched as usual.
        let w = match polled {
            Polled::Released(m) | Polled::Held(m) if plain => {
                let seen = spin.released_count(m);
                awaited_of(Some((m, Bytes::ALL, seen)), read.iter().filter(|r| !r.plain))
            }
            _ => awaited_of(None, read.iter()),
        };
        // A wait is an assumption — never woken, the attempt after the write or release
        // is another execution (`Awaited::assume`; docs/memory.md, "Spin-waits as
        // assumptions") — after an iteration whose reads the explorers can reverse with
        // what would end the wait: visible loads of memory words and failed tries (no
        // plain read outside a poll); a poll of plain locations under a mutex (its lock,
        // against the releasing thread's), but only where the program allows weak
        // unlocks: where it does not, the pollers' own unlocks would move the release
        // count each one's assumption watches, and a poll that can never succeed would
        // never be reported. Never a timed-wait poll.
        let assume = !read.iter().any(|r| r.cond)
            && match polled {
                Polled::None => !plain,
                Polled::Released(_) | Polled::Held(_) => !plain || (weak_unlocks() && !spin.rw_locks),
                Polled::No => false,
            };
        let w = w.map(|w| if assume { w.assume() } else { w });
        match (w, polled) {
            (Some(w), Polled::None) | (Some(w), Polled::Released(_)) => {
                spin.clear();
                return Some(Action::Await(w));
            }
            // Deferred only if no other thread released the mutex between the iteration's
            // unlock and its lock (the count now, while the thread holds it, is the count
            // just after its own last unlock): otherwise the reads after this checkpoint,
            // under the mutex, may see what that release published, and the thread may
            // leave the loop instead of coming back to its lock (a wait taken there would
            // be stale).
            (Some(w), Polled::Held(m)) if !plain || versions_now(m) == spin.released_count(m) => {
                spin.deferred = Some((w, m));
            }
            _ => {}
        }
    }
    let hash = hash.unwrap_or_else(|| state_hash(&ctx.regs, stack));
    spin.visits[i].record(site, hash, &ctx.regs, stack, nreads, nlocks, true);
    spin.visits[i].clocks = clocks;
    spin.visits[i].own = spin.own.len();
    None
}

// ---- polls that count ------------------------------------------------------------------
//
// `while (atomic_load(&flag) == 0) polls++;` comes back to its checkpoint in a new local
// state at every iteration, so it is never found waiting: under the schedule that runs
// the poller first it polls until the step bound, and every poll is a place where the
// write that ends the loop can come (a `bound` defect, and as many executions as polls).
// What its polls can tell apart is the count, which no exploration can enumerate. So a
// loop whose iterations in a row, at one checkpoint, only loaded the same locations (no
// store, no changing read-modify-write, no plain read outside a poll, no mutex operation,
// no clock) makes its polls as visible steps for [`POLLS_SHOWN`] such iterations, and runs
// its later ones without scheduling points ([`SpinTracker::hidden`]): they read what the
// last visible poll read, since no other thread runs in between (and a read-modify-write
// that `tsan.c` predicts to leave its location unchanged is a poll too: the prediction is
// exact for the same reason). A loop that gives up after N polls therefore still takes
// its way out; one that does not is cut after [`HIDDEN_POLLS`] hidden polls by an
// assumption on its locations, as a pure spin is (a livelock if no thread writes them
// later). What is lost is the writes that would have come between two hidden polls: an
// execution with hidden polls is marked ([`MemState::bounded_poll`]), and the verdict of
// an exploration with one and no defect is `incomplete`. Any other operation of the
// thread, and any step of any thread, ends the hidden polls. docs/memory.md, "Polls that
// count", has the figures.

/// Iterations of a counting loop that only loads whose polls are steps: a loop that
/// loads a location up to 17 times (a give-up loop, a fixed number of samples) is
/// explored exactly. Loads of one location by several threads commute, so each poll
/// shown adds traces linearly, not as a product.
pub const POLLS_SHOWN: u32 = 16;

/// Iterations of a counting loop with a read-modify-write (an unchanged one: a spinlock's
/// failed attempt) whose polls are steps: hidden from the loop's third visit on, where a
/// pure spin whose first iteration wrote a temporary for the first time is found waiting
/// (one fewer would hide such a spin's polls instead). Attempts of several threads do not
/// commute: each one more multiplies a contended spinlock's traces by about 4.
pub const POLLS_SHOWN_RMW: u32 = 2;

/// Hidden polls after which a counting loop is cut by an assumption.
pub const HIDDEN_POLLS: u32 = 10_000;

impl SpinTracker {
    /// A visit of `site` in a state that differs from every compared earlier one, whose
    /// latest visit was `visits[from]`: count the iteration between them if it only
    /// loaded the locations the previous one loaded, and hide the later polls once
    /// there were [`POLLS_SHOWN`] of them.
    fn note_poll(&mut self, site: Site, from: usize, clocks: u32) {
        let v = &self.visits[from];
        // Plain reads are no steps (race mode): what the loop polls is its visible reads.
        let read = self.reads[v.reads..].iter().filter(|r| !r.plain);
        let polled = self.locks.len() == v.locks
            && clocks == v.clocks
            && read.clone().next().is_some()
            && read.clone().all(|r| !r.cond);
        let Some(mut list) = polled.then(|| await_list(None, read.clone())).flatten() else {
            self.polling = None;
            self.polls = 0;
            self.poll_seen.clear();
            return;
        };
        list.iter_mut().for_each(|e| e.2 = 0);
        // Whether no other thread wrote a polled location since the last iteration's reads
        // (nor during this one): polls that see new writes are bounded by those writes,
        // not a count the loop makes up, so they are all shown. A test-and-test-and-set
        // lock's thread fails its exchange once per other thread that took the lock first;
        // counting those failures hid the polls of the third of three threads.
        let mut quiet = true;
        for r in read.clone() {
            match self.poll_seen.iter_mut().find(|e| e.0 == r.o) {
                Some(e) => {
                    quiet &= e.1 == r.counts;
                    e.1 = r.counts;
                }
                None => {
                    // Not polled before: the count starts here.
                    quiet = false;
                    self.poll_seen.push((r.o, r.counts));
                }
            }
        }
        // An iteration that visits several checkpoints completes at each: counted at the
        // site that began the count.
        match &self.polling {
            Some((s, l)) if *l == list && quiet => self.polls += u32::from(*s == site),
            _ => {
                self.poll_seen.retain(|e| list.iter().any(|l| l.0 == e.0));
                self.polling = Some((site, list));
                self.polls = 1;
            }
        }
        // A failed try is counted like a spinlock's failed attempt.
        let shown = if read.clone().any(|r| r.rmw || r.bytes.is_none()) { POLLS_SHOWN_RMW } else { POLLS_SHOWN };
        if self.polls >= shown && self.hidden.is_none() {
            self.hidden = Some(Hidden { step: usize::MAX, polls: 0 });
            self.own_lost = true;
        }
    }
}

impl SpinTracker {
    /// The loop's hidden polls end (another operation, a step of another thread, or the
    /// cut): counting starts again.
    fn end_hidden(&mut self) {
        self.hidden = None;
        self.polling = None;
        self.polls = 0;
        self.poll_seen.clear();
    }
}

/// What becomes of a visible memory operation (or a try) of a thread that may hide its
/// polls.
pub(crate) enum Poll {
    /// A step, as usual.
    Visible,
    /// A hidden poll: performed without a step.
    Hidden,
    /// The last hidden poll: block on this assumption first.
    Cut(Action),
}

/// What a visible memory operation touches, for [`hidden_poll`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    /// Shared memory.
    Shared,
    /// Shared memory, by a read-modify-write that leaves the value as it is if performed
    /// now (`tsan.c`'s prediction, exact while no other thread runs first).
    UnchangedRmw,
}

/// Whether `a`, by the current thread at `site`, is a hidden poll (see "Polls that
/// count": a load, or a read-modify-write that changes nothing, of the polled locations);
/// anything else ends the hidden polls. (Accesses to the thread's own frames while its
/// polls are hidden never get here: `__unfold_mem_access` lets them through first.)
#[inline(always)]
fn hidden_poll(a: Action, site: Site, access: Access) -> Poll {
    with_rt(|rt| {
        let polls = |o: ObjId, b: Bytes, list: &[AwaitEntry]| {
            list.iter().any(|&(x, xb, _)| x == o && xb.bits() & b.bits() == b.bits())
        };
        let spin = &rt.threads[rt.current.index()].spin;
        if spin.hidden.is_none() {
            return Poll::Visible;
        }
        let polled = match (a, &spin.polling) {
            (Action::Read(o, b), Some((_, list))) => polls(o, b, list),
            (Action::Rmw(o, b, _), Some((_, list))) if access == Access::UnchangedRmw => polls(o, b, list),
            _ => false,
        };
        hidden_op(rt, site, polled)
    })
}

/// Before a try operation on synchronising object `o` (`trylock`, `sem_trywait`, a
/// read-write lock's or a spinlock's try) at `site`: `Poll::Hidden` if it is a hidden
/// poll of a counting retry loop ("Polls that count"), which fails as the visible try
/// before it did (the object is as it was then: no step was taken since), and the shim
/// returns the failure without a step.
pub(crate) fn hidden_try(o: ObjId, site: Site) -> Poll {
    with_rt(|rt| {
        let spin = &rt.threads[rt.current.index()].spin;
        if spin.hidden.is_none() {
            return Poll::Visible;
        }
        let polled = spin.polling.as_ref().is_some_and(|(_, list)| list.iter().any(|e| e.0 == o));
        hidden_op(rt, site, polled)
    })
}

/// [`hidden_poll`] and [`hidden_try`] once they know whether the operation polls what
/// the loop polls.
fn hidden_op(rt: &mut crate::exec::Rt, site: Site, polled: bool) -> Poll {
    let step = rt.steps_done;
    let t = rt.current;
    let spin = &mut rt.threads[t.index()].spin;
    let Some(h) = spin.hidden.as_mut() else { return Poll::Visible };
    if h.step == usize::MAX {
        // Not armed yet: this is the visible poll after which the loop's polls are
        // hidden (a try's checkpoint runs before its shim).
        return Poll::Visible;
    }
    if !polled || h.step != step {
        // The hidden polls end; what the tracker holds stays valid (they only loaded what
        // it logged, seeing the counts it logged, and recorded no visit).
        spin.end_hidden();
        return Poll::Visible;
    }
    h.polls += 1;
    if h.polls <= HIDDEN_POLLS {
        rt.mem.bounded_poll.get_or_insert(site);
        return Poll::Hidden;
    }
    // Cut: wait for a write to what the loop polls (or a release of the object it tries),
    // as an assumption.
    let list: Vec<AwaitEntry> = spin.polling.as_ref().map_or(Vec::new(), |(_, l)| l.clone());
    spin.end_hidden();
    let list = list.into_iter().map(|(o, b, _)| {
        if o.0 & 1 == 1 {
            (o, b, counts_now(&rt.mem, o, Some(b)).count(b))
        } else {
            (o, b, counts_now(&rt.mem, o, None).0[0])
        }
    });
    match Awaited::with_bytes(list) {
        Some(w) => Poll::Cut(Action::Await(w.assume())),
        None => Poll::Visible,
    }
}

/// Non-zero once a thread of the execution armed hidden polls (reset when an execution
/// starts; a checkpoint put back may leave it set, which costs a prediction only):
/// `tsan.c` predicts whether a read-modify-write will change its location only then.
#[no_mangle]
pub static __unfold_hiding: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// After a visible memory operation was granted: if its checkpoint decided that the
/// loop's later polls are hidden, they may be from this step on.
#[inline(always)]
fn arm_hidden() {
    with_rt(|rt| {
        let step = rt.steps_done;
        let t = rt.current;
        if let Some(h) = rt.threads[t.index()].spin.hidden.as_mut() {
            if h.step == usize::MAX {
                h.step = step;
                __unfold_hiding.store(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
    })
}

/// The write counts of memory word `o` now, or the await count of synchronising object
/// `o` (`bytes` `None`) in the first slot.
fn counts_now(mem: &MemState, o: ObjId, bytes: Option<Bytes>) -> ByteWrites {
    match bytes {
        Some(_) => mem.writes.get(&o).copied().unwrap_or_default(),
        None => ByteWrites([mem.versions.get(&o).copied().unwrap_or(0), 0, 0, 0, 0, 0, 0, 0]),
    }
}

/// The current thread read bytes `bytes` of memory word `o`, or synchronising object `o`
/// (`None`) (logged for spin detection).
fn log_read(o: ObjId, bytes: Option<Bytes>, cond: bool, rmw: bool) {
    with_rt(|rt| {
        let t = rt.current;
        let counts = counts_now(&rt.mem, o, bytes);
        let step = rt.steps_done;
        let spin = &mut rt.thread(t).spin;
        if spin.hiding(step) {
            // A hidden poll (or the visible one before them): the loop's reads are known.
        } else if spin.reads.len() >= MAX_READS {
            spin.clear();
        } else if spin.live != 0 || spin.reads.is_empty() {
            spin.reads.push(Read { o, counts, plain: false, bytes, cond, rmw });
        }
    })
}

/// The current thread changed memory another thread can see.
fn log_change() {
    with_rt(|rt| {
        let t = rt.current;
        rt.thread(t).spin.clear();
    })
}

// ---- polling under a mutex ---------------------------------------------------------------
//
// `for (;;) { lock(m); if (flag) break; unlock(m); }` repeats lock, reads, unlock. The
// rule: an iteration is pure if, besides loads with unchanged local state (as above), its
// only visible operations are locks and unlocks of ONE mutex that balance (as many of
// each: the mutex is in the same state after the iteration as before). Re-running such
// an iteration while no location it read is written gives the same state again, so the
// thread waits instead — but never while holding the mutex (the writer may need it):
// - a checkpoint that finds the iteration pure while the thread does not hold the mutex
//   (its last operation on it in the iteration was an unlock) blocks at once;
// - one that finds it pure while the thread holds it (a read inside the critical
//   section, the usual case) records the wait, and the thread blocks at its next
//   `pthread_mutex_lock` of that mutex, after releasing it ([`deferred_lock_wait`]).
//   Any other visible operation, or any change, in between forgets the wait.
// The counts a wait compares must see every change after the reads they come from. An
// atomic location's write count does. A plain location's does not (its writes are not
// steps), and making its writes steps from the moment a poll read it made a thread's
// steps depend on the schedule (a write before the watch began was invisible, the same
// write after it a step). So an iteration that read plain locations under its mutex waits
// for another thread's *unlock* of the mutex instead, past the count after the poller's
// own last unlock (the mutex's release count, [`SpinTracker::released`]). Sound for a
// race-free program: a write by another thread to a location the poller read, after the
// read, is either unordered with the read (a data race, reported in that execution) or
// happens after it; the poller's only release after the read is its unlock, so then
// another thread locked the mutex after that unlock, and either unlocks it later (which
// wakes the poller) or holds it forever (and the poller would block on its next lock
// anyway). The wait may also come one iteration late or after the loop was left (its
// reads then saw a new value, which moved a count): it is then enabled at once and only
// reads. Where the program allows weak unlocks the wait is an assumption (never woken:
// docs/memory.md, "Polls and retry loops as assumptions"); a deferred one keeps the mark.

/// How the mutex operations of an iteration qualify it.
enum Polled {
    /// None: an ordinary spin.
    None,
    /// Balanced operations on one mutex, the last an unlock.
    Released(ObjId),
    /// Balanced operations on one mutex, the last a lock: the thread holds it.
    Held(ObjId),
    /// Anything else (several mutexes, unbalanced).
    No,
}

fn polled_mutex(ops: &[(ObjId, bool)]) -> Polled {
    let Some(&(m, _)) = ops.first() else { return Polled::None };
    let locks = ops.iter().filter(|o| o.1).count();
    if ops.iter().any(|o| o.0 != m) || locks * 2 != ops.len() {
        return Polled::No;
    }
    match ops.last() {
        Some((_, true)) => Polled::Held(m),
        _ => Polled::Released(m),
    }
}

/// Thread `t` performed a lock (`lock`) or unlock of mutex `m` (of read-write lock `m`:
/// `rw`): logged for polling (the iteration goes on), instead of forgetting the visits
/// like other operations.
pub(crate) fn spin_mutex_op(rt: &mut crate::exec::Rt, t: unfold_engine::ThreadId, m: ObjId, lock: bool, rw: bool) {
    let count = rt.mem.versions.get(&m).copied().unwrap_or(0);
    let spin = &mut rt.thread(t).spin;
    if !lock {
        spin.released = Some((m, count));
    }
    if spin.locks.len() >= MAX_READS {
        spin.clear();
        return;
    }
    if !lock && spin.deferred.is_some_and(|(_, d)| d != m) {
        spin.deferred = None;
    }
    spin.locks.push((m, lock));
    spin.rw_locks |= rw;
    // Polling loops read few locations per iteration: start the bookkeeping of plain
    // reads at once.
    spin.plain_reads = PLAIN_SPIN_THRESHOLD;
}

/// The unlock of mutex `m` the current thread is about to perform: weak
/// ([`Action::Unlock`] with `false`: it moves no release count) when the thread's
/// previous unlock was of `m` and since then it has written nothing and performed no
/// visible operation but locks of `m` and waits (`ThreadRt::clean_unlock`, maintained by
/// the executor and the write hooks). Such an unlock publishes nothing a wait on `m`
/// could miss: every write it makes visible was already made visible by an earlier
/// unlock of `m` that is not weak, after the waiter's own (docs/memory.md, "Two pollers
/// of one mutex", for the proof). So two threads polling one mutex no longer wake each
/// other with their unlocks.
///
/// Only where [`set_weak_unlocks`] allowed them: a weak unlock moves no release count,
/// so it would not wake a `trylock` or `timedlock` retry loop (or a timed condition wait
/// poll), which waits for any unlock of its mutex.
pub(crate) fn unlock(m: ObjId) -> Action {
    if !weak_unlocks() {
        return Action::Unlock(m, true);
    }
    with_rt(|rt| unlock_in(rt, m))
}

/// [`unlock`] for a shim already in the runtime state.
#[inline]
pub(crate) fn unlock_in(rt: &mut crate::exec::Rt, m: ObjId) -> Action {
    let t = rt.current;
    Action::Unlock(m, !weak_unlocks() || rt.thread(t).clean_unlock != Some(m))
}

static WEAK_UNLOCKS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether [`set_weak_unlocks`] allowed weak unlocks.
fn weak_unlocks() -> bool {
    WEAK_UNLOCKS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Allow weak unlocks (`memory::unlock`): the frontend's choice for the whole program, made
/// from what it calls — on when it never tries a mutex or waits on a condition variable
/// with a time-out, whose retry loops (waiting for any unlock of the mutex) a weak unlock
/// would not wake. Off by default. Set in the parent before any worker is forked
/// (workers inherit it).
pub fn set_weak_unlocks(on: bool) {
    WEAK_UNLOCKS.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Before `pthread_mutex_lock(m)`: the wait a pure iteration polling under `m` recorded,
/// if any (see "Polling under a mutex"), taken from the thread's state; the lock shim
/// blocks on it ([`block_before_lock`]). Read in the entry into the runtime state the
/// shim makes for its own checks.
#[inline]
pub(crate) fn deferred_lock_wait(rt: &mut crate::exec::Rt, m: ObjId) -> Option<Awaited> {
    let t = rt.current;
    let spin = &mut rt.thread(t).spin;
    match spin.deferred.take() {
        // A wait on the mutex itself: for a release after this thread's own.
        Some((w, d)) if d == m && w.contains(m) => {
            let seen = match spin.released {
                Some((r, n)) if r == m => n,
                _ => return None,
            };
            Awaited::with_bytes(w.iter().map(|(o, b, v)| if o == m { (o, b, seen) } else { (o, b, v) }))
                .map(|x| x.with_mark_of(w))
        }
        Some((w, d)) if d == m => Some(w),
        _ => None,
    }
}

/// Block on `w`, the wait [`deferred_lock_wait`] returned, before the lock at `site`.
pub(crate) fn block_before_lock(w: Awaited, site: Site) {
    with_rt(|rt| register_awaited(rt, &w));
    suspend(Yield::Pending(Action::Await(w), site));
}

// ---- failed try and timed operations --------------------------------------------------
//
// A try or timed operation that failed (`pthread_mutex_trylock` of a held mutex,
// `sem_trywait` at zero, a read-write lock try, a timed variant that timed out) changes
// nothing another thread can see, like a failed compare-exchange: it is logged as a load
// of its object with the object's await count then (the engine's
// `ObjectKind::await_count`: a mutex's releases, a semaphore's posts, a read-write lock's
// unlocks; the runtime counts them in `MemState::versions` as the engine does,
// `Action::moves_await_count`). A retry loop `while (pthread_mutex_trylock(&m));` may make
// no memory access at all, so the call itself is a checkpoint: tsan.c's `__unfold_try_*`
// entry points capture the caller's state and call `__unfold_sync_checkpoint` before the
// shim. An iteration whose visible operations were only loads and failed tries, with the
// same local state, is an `Await` on those objects: the thread waits for one of their
// counts to move (an unlock, a post) instead of failing again and again; that wait is an
// assumption (`Awaited::assume`: the thread stops, the attempt after the release is the
// execution that reverses it with the failed try), also when the iteration polls another
// mutex (`lock(a); while (trylock(b)) { unlock(a); lock(a); }`).
//
// A timed condition wait that timed out leaves the condition variable as it was (the
// thread joined the waiters and left them without a signal): joining is logged as a load
// of the condition variable (its await count is its signals and broadcasts), and the
// timed-out wake changes nothing. An iteration `lock(m); while (!flag) timedwait(c, m);`
// is then a poll under `m` (its mutex operations are the wait's unlock and relock), found
// pure at the read of `flag` (or at the timed wait's call) while the thread holds `m`:
// the wait is deferred, and taken inside the next timed wait on `c` with `m`, after its
// unlock and before its wake (`spin_before_timed_wake`): the thread, still a waiter of
// `c`, waits for another thread's unlock of `m` or a signal of `c` (docs/memory.md,
// "Timed condition waits in a loop", for why that loses no behaviour).

/// Before a try or timed operation (tsan.c's `__unfold_try_*` entry points, with the
/// caller's state): the call is a checkpoint of the thread's loop; if the iteration since
/// the last call from the same site was pure, the thread blocks on its spin-wait first.
///
/// # Safety
/// Called by tsan.c on a program thread: `ctx` is null or points to the caller's live
/// `struct unfold_ctx`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_sync_checkpoint(ra: *mut c_void, ctx: *const UnfoldCtx) {
    if with_rt(|rt| rt.active) {
        spin_wait(code_site(ra), ctx);
    }
}

/// The current thread failed a try or timed operation on synchronising object `o`, or
/// joined condition variable `o`'s waiters: logged as a load of `o` (with its await count
/// now) for spin detection.
pub(crate) fn log_sync_read(o: ObjId) {
    log_read(o, None, false, false);
    // The visible failed try after which a counting retry loop's tries may be hidden.
    arm_hidden();
}

/// The current thread joined condition variable `c`'s waiters in a timed wait: logged
/// as a load of `c` (with its await count now) for spin detection; an iteration with one
/// is a timed-wait poll, whose wait is never an assumption.
pub(crate) fn log_cond_join(c: ObjId) {
    log_read(c, None, true, false);
}

/// The await count of object `o` now (as the engine counts it).
pub(crate) fn await_count_now(o: ObjId) -> u32 {
    with_rt(|rt| rt.mem.versions.get(&o).copied().unwrap_or(0))
}

/// Inside `pthread_cond_timedwait(c, m)`, after the thread joined `c`'s waiters (when
/// `c`'s await count was `joined`) and released `m`: block on the wait a pure iteration
/// of a timed-wait loop on `c` and `m` deferred, if any, with `m`'s release count after
/// this unlock and `c`'s count when the thread joined (see above).
pub(crate) fn spin_before_timed_wake(c: ObjId, m: ObjId, joined: u32, site: Site) {
    let w = with_rt(|rt| {
        let t = rt.current;
        let spin = &mut rt.thread(t).spin;
        match spin.deferred {
            Some((w, d)) if d == m && w.contains(c) => {
                spin.deferred = None;
                let released = match spin.released {
                    Some((r, n)) if r == m => n,
                    _ => return None,
                };
                let w = w.iter().map(|(o, b, v)| match o {
                    o if o == m => (o, b, released),
                    o if o == c => (o, b, joined),
                    o => (o, b, v),
                });
                Awaited::with_bytes(w)
            }
            _ => None,
        }
    });
    if let Some(w) = w {
        with_rt(|rt| register_awaited(rt, &w));
        suspend(Yield::Pending(Action::Await(w), site));
    }
}

/// Whether `addr` lies in the current thread's own live frames (between the
/// instrumentation's frame and the stack top): local state, which the snapshots compared
/// at checkpoints already cover.
fn own_frames(addr: u64, ctx: *const UnfoldCtx) -> bool {
    // SAFETY: tsan.c passes a pointer to its own live local context, or null.
    let frame = if ctx.is_null() { 0 } else { unsafe { (*ctx).frame as u64 } };
    frame != 0 && addr >= frame && with_rt(|rt| addr < rt.thread(rt.current).stack_top as u64)
}

/// Suspend on a visible memory operation, blocking first on a spin-wait if the
/// thread's last iteration was pure.
#[inline(always)]
fn visible_access(a: Action, site: Site, ctx: *const UnfoldCtx, access: Access) -> bool {
    match hidden_poll(a, site, access) {
        Poll::Visible => {}
        Poll::Hidden => return true,
        Poll::Cut(w) => block_on(w, site),
    }
    spin_wait(site, ctx);
    suspend(Yield::Pending(a, site));
    arm_hidden();
    false
}

/// Block on a spin-wait if the thread's last iteration (ending at `site`) was pure.
fn spin_wait(site: Site, ctx: *const UnfoldCtx) {
    if let Some(w) = spin_check(site, ctx) {
        block_on(w, site);
    }
}

/// Block on the spin-wait `w`.
#[inline(always)]
fn block_on(w: Action, site: Site) {
    if let Action::Await(w) = w {
        with_rt(|rt| register_awaited(rt, &w));
    }
    suspend(Yield::Pending(w, site));
}

/// The program address of the last instrumented access of the running thread (0: none
/// since it was resumed). A thread stopped by a time-out is usually inside the runtime,
/// handling an access: its report names this line instead (`signals::on_stop`).
pub(crate) static LAST_ACCESS_RA: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A plain access of `size` bytes at `addr` (`tsan.c`'s `__tsan_readN`/`__tsan_writeN`,
/// range and unaligned variants).
///
/// # Safety
/// Called by `tsan.c` on a program thread: `ctx` is null or points to the caller's live
/// `struct unfold_ctx`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mem_access(
    addr: *const c_void,
    size: usize,
    write: c_int,
    ra: *mut c_void,
    ctx: *const UnfoldCtx,
) {
    LAST_ACCESS_RA.store(ra as u64, std::sync::atomic::Ordering::Relaxed);
    // `COPY_READ`: a read made by `memcpy` or `memmove` for the program, whose bytes may be
    // uninitialised (padding) without a defect: copying them is no use of them.
    let uninit_check = write != COPY_READ;
    let write = c_int::from(write == 1);
    let (a, site) = (addr as u64, code_site(ra));
    if a.wrapping_sub(ERRNO_ADDR.load(std::sync::atomic::Ordering::Relaxed)) < 4 {
        // `errno`: each thread's own (saved and restored with the thread: exec.rs).
        return;
    }
    // SAFETY: tsan.c passes a pointer to its own live local context, or null.
    let local = if ctx.is_null() { None } else { Some(unsafe { &*ctx }) };
    let frame = local.map_or(0, |c| c.frame as u64);
    // The common path in one visit of the runtime state: the race check, the spin
    // bookkeeping, and whether the thread must stop at a scheduling point.
    enum Then {
        Done,
        /// A visible access (`--memory sc`); whether it is in the thread's own frames.
        Sc(bool),
        /// Block on this spin-wait, then log the read.
        Wait(Action, Read),
        /// A visible write of these bytes of the word (it wakes a waiter).
        WriteStep(Bytes),
    }
    let then = with_rt(|rt| {
        if !rt.active {
            return Then::Done;
        }
        let t = rt.current;
        let steps = rt.steps_done;
        let th = rt.thread(t);
        let own = frame != 0 && a >= frame && a < th.stack_top as u64;
        // An access to the thread's own frames, or a read of its stack reported without
        // the caller's frame (a string function's): logged for `Visit::same_but_dead`.
        if own {
            th.spin.log_own(a, size, write != 0);
        } else if write == 0 {
            log_stack_read(th, a, size);
        }
        if own && th.spin.hiding(steps) {
            // A counting loop's own variables while its polls are hidden ("Polls that
            // count"): no other thread runs, and what the loop's visible iterations did
            // with them was checked.
            if write != 0 {
                th.clean_unlock = None;
            }
            return Then::Done;
        }
        // Memory errors (freed heap, dead stacks, uninitialised bytes): crate::heapcheck.
        // A visible access (`--memory sc`) is checked once performed, after its
        // scheduling point: another thread may free the block before it is granted.
        if rt.mem.mode != MemoryMode::Sc {
            crate::heapcheck::on_access(rt, a, size as u64, write != 0, uninit_check, site);
        }
        let th = rt.thread(t);
        th.spin.runtime_ran_below(frame as usize);
        if write != 0 {
            // Any write, in its own frames too (another thread may read a local whose
            // address was published): the next unlock is ordinary.
            th.clean_unlock = None;
        }
        // A write outside the thread's own frames is judged once done (it may leave the
        // value as it was): recorded here unless the hook suspends the thread first, in
        // which case it is recorded after (the bytes must be read just before the write).
        let note_write = |rt: &mut crate::exec::Rt| {
            if write != 0 && !own {
                plain_write(rt, a, size);
            }
        };
        match rt.mem.mode {
            MemoryMode::Off => {
                note_write(rt);
                Then::Done
            }
            MemoryMode::Sc => Then::Sc(own),
            MemoryMode::Races => {
                if let Some(r) = rt.mem.detector.on_access(t, a, size as u64, write != 0, false, site) {
                    report_race(rt, &r);
                }
                // A plain spin (a racy one: nothing orders the write that ends it)
                // waits like an atomic one, and a write to a location someone waits on
                // is a visible step, so that the waiter wakes and the race is reported.
                let o = memory_obj(a);
                if write != 0 {
                    let bytes = Bytes::span(a, size as u64);
                    if rt.mem.awaited.iter().any(|&(x, m)| x == o && m & bytes.bits() != 0) {
                        Then::WriteStep(bytes)
                    } else {
                        note_write(rt);
                        Then::Done
                    }
                } else if own {
                    Then::Done
                } else {
                    // The checkpoint (before the read), then the read's log entry, in this
                    // one visit of the runtime state unless the thread must wait.
                    let spin = &mut rt.thread(t).spin;
                    if spin.hiding(steps) {
                        // A counting loop's plain read while its polls are hidden: no
                        // visit, no log (it would fill the log and end the hidden polls).
                        return Then::Done;
                    }
                    if spin.plain_reads < PLAIN_SPIN_THRESHOLD {
                        spin.plain_reads += 1;
                        return Then::Done;
                    }
                    let Some(local) = local else { return Then::Done };
                    let bytes = Some(Bytes::span(a, size as u64));
                    let counts =
                        if rt.mem.writes.is_empty() { ByteWrites::default() } else { counts_now(&rt.mem, o, bytes) };
                    let read = Read { o, counts, plain: true, bytes, cond: false, rmw: false };
                    let s = site | ((a & 7) << 56);
                    let spin = &mut rt.thread(t).spin;
                    if spin.reads.len() >= MAX_READS || spin.live >= MAX_VISITS {
                        spin.clear();
                    }
                    if let Some(w) = checkpoint(rt, s, local) {
                        return Then::Wait(w, read);
                    }
                    let spin = &mut rt.thread(t).spin;
                    spin.reads.push(read);
                    Then::Done
                }
            }
        }
    });
    let note_write_after = || with_rt(|rt| plain_write(rt, a, size));
    match then {
        Then::Done => {}
        Then::WriteStep(bytes) => {
            suspend(Yield::Pending(Action::Write(memory_obj(a), bytes), site | ((a & 7) << 56)));
            note_write_after();
        }
        Then::Wait(w, read) => {
            block_on(w, site | ((a & 7) << 56));
            with_rt(|rt| {
                let t = rt.current;
                rt.thread(t).spin.reads.push(read);
            });
        }
        Then::Sc(own) => {
            sc_access(addr, size, write, ra, ctx);
            // Memory errors once the access is granted (see above), and the write.
            with_rt(|rt| {
                crate::heapcheck::on_access(rt, a, size as u64, write != 0, uninit_check, site);
                if !own {
                    let t = rt.current;
                    sc_happens_before(rt, t, a, size as u64, write != 0, site);
                    if write != 0 {
                        plain_write(rt, a, size);
                    }
                }
            });
        }
    }
}

/// The `write` argument of [`__unfold_mem_access`] for a read that `memcpy` or `memmove`
/// makes for the program ([`__unfold_mem_copy`]).
const COPY_READ: c_int = 2;

/// What [`__unfold_mem_copy`] does besides `memcpy` (0): the libc function the program
/// called.
const MEMMOVE: c_int = 1;
const MEMSET: c_int = 2;

/// `memcpy`, `memmove` and `memset` (`op`: 0, 1, 2 with byte `fill`), called by `tsan.c`'s
/// wrappers (which name the ops `UNFOLD_MEMCPY`...). The string functions that write copy
/// through here too (their reads go through [`__unfold_mem_read`]): `strcpy` as a `memcpy` of the string and its NUL, `sprintf` as one of the
/// text it formatted. libc is not instrumented, so the accesses these
/// make for the program were unseen: a race through them went unreported, and under
/// `--memory sc` a copy into shared memory was one invisible block, so no schedule put
/// another thread's read between its words (an assertion missed by every explorer but
/// dfs, found by the probe of unseen programs). Their accesses are now the program's own
/// plain ones:
/// - `--memory races`: the source range is read, then the destination range written
///   (the race detector, the heap checks), then libc's copy runs;
/// - `--memory sc`: the copy goes by pieces that each lie in one 8-byte word of the
///   destination, each read (its scheduling points, then its bytes) and then written as
///   instrumented code would, front to back (back to front for a `memmove` onto a later
///   overlapping destination), so every word is a visible step at its place.
///
/// The accesses carry no spin-detection context (`ctx` is null): a copy's pieces share
/// one call site, and an equal state at two of them is no loop. The wrapper ends the
/// thread's iteration after the call anyway (`__unfold_spin_changed`).
///
/// # Safety
/// Called by `tsan.c` with the arguments the program gave the libc function: `d` (and
/// `s`, unless `op` is 2, memset) valid for `n` bytes as that function requires.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mem_copy(
    d: *mut c_void,
    s: *const c_void,
    n: usize,
    op: c_int,
    fill: c_int,
    ra: *mut c_void,
) {
    if n == 0 {
        // No byte is accessed (the pointers may even be null).
        return;
    }
    let none = std::ptr::null();
    let sc = with_rt(|rt| rt.active && rt.mem.mode == MemoryMode::Sc);
    if !sc {
        // SAFETY: (all three) by the contract, the program's own pointers and length.
        unsafe {
            if op != MEMSET {
                __unfold_mem_access(s, n, COPY_READ, ra, none);
            }
            __unfold_mem_access(d, n, 1, ra, none);
            match op {
                MEMSET => std::ptr::write_bytes(d.cast::<u8>(), fill as u8, n),
                // A memcpy whose ranges overlap is undefined in C; copied as memmove would.
                _ => std::ptr::copy(s.cast::<u8>(), d.cast::<u8>(), n),
            }
        }
        return;
    }
    let (dst, src) = (d as usize, s as usize);
    let backward = op == MEMMOVE && dst > src && dst < src.wrapping_add(n);
    let mut done = 0usize;
    while done < n {
        // The next piece [off, off + len) of the destination, within one word.
        let (off, len) = if backward {
            let end = n - done;
            let last = dst + end - 1;
            let start = (last & !7).max(dst) - dst;
            (start, end - start)
        } else {
            (done, (8 - ((dst + done) & 7)).min(n - done))
        };
        let mut piece = [fill as u8; 8];
        // SAFETY: (all three) [off, off + len) lies within the n bytes the contract makes
        // valid; `piece` holds at most 8 bytes and len <= 8.
        unsafe {
            if op != MEMSET {
                __unfold_mem_access((src + off) as *const c_void, len, COPY_READ, ra, none);
                std::ptr::copy((src + off) as *const u8, piece.as_mut_ptr(), len);
            }
            __unfold_mem_access((dst + off) as *const c_void, len, 1, ra, none);
            std::ptr::copy(piece.as_ptr(), (dst + off) as *mut u8, len);
        }
        done += len;
    }
}

/// The reads of the string functions (tsan.c's wrappers: `strlen`, `strcmp`, `strncmp`,
/// `memcmp`, and `strcat`'s of its destination): `[s, s + n)` read as the program's plain
/// reads, with the uninitialised-read check unless `uninit_check` is 0 (`memcmp`:
/// comparing a struct's padding is legal). Under `--memory sc` one piece per word, each a
/// visible step, the first carrying `ctx`, the caller's local state (null for a read
/// that is no comparison): a loop that
/// polls with one of them (`while (strcmp(buf, "go") != 0);`) comes back to that piece in
/// the same state, and waits like a loop that reads the bytes itself (a spin-wait on
/// every word it read). Only the first: the pieces of one call share its site and state,
/// and a second piece is no second visit. Under `--memory races` the range is one access
/// without context (its read could not be logged word by word), as for a copy.
///
/// # Safety
/// Called by `tsan.c` with the program's pointer `s`, valid for `n` bytes, and `ctx`
/// null or the wrapper's live context.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mem_read(
    s: *const c_void,
    n: usize,
    uninit_check: c_int,
    ra: *mut c_void,
    ctx: *const UnfoldCtx,
) {
    let sc = with_rt(|rt| rt.active && rt.mem.mode == MemoryMode::Sc);
    let kind = if uninit_check != 0 { 0 } else { COPY_READ };
    let mut done = 0usize;
    while done < n {
        let len = if sc { (8 - ((s as usize + done) & 7)).min(n - done) } else { n };
        let ctx = if sc && done == 0 { ctx } else { std::ptr::null() };
        // SAFETY: [s + done, s + done + len) lies within the n bytes the contract makes
        // valid; ctx is null or the caller's, as the contract says.
        unsafe { __unfold_mem_access((s as usize + done) as *const c_void, len, kind, ra, ctx) };
        done += len;
    }
}

/// Happens-before of a shared access under `--memory sc` (plain or atomic: every one is
/// a synchronising step there), for the checks of frees and thread exits
/// (crate::heapcheck): a read acquires every earlier write to its words, a write (`write`:
/// also a read-modify-write) adds what its thread did so far to them. Joined, never replaced:
/// this orders at least what reads-from orders, so a free it leaves unordered with an
/// access is unordered in the program's own happens-before too, and some schedule runs
/// the free first. Keyed by memory object (the word; low bit set, so never a
/// synchronising object's id); which write a read read is the same in every schedule of
/// the trace, so is the answer.
fn sc_happens_before(rt: &mut crate::exec::Rt, t: unfold_engine::ThreadId, a: u64, size: u64, write: bool, site: Site) {
    let (op, mo) = if write { (AtomicOp::Rmw, MemoryOrder::AcqRel) } else { (AtomicOp::Load, MemoryOrder::Acquire) };
    let end = a.saturating_add(size.max(1));
    let mut w = a & !7;
    while w < end {
        let (lo, hi) = (a.max(w), end.min(w + 8));
        // Races between these accesses are none (they are all atomic for the detector);
        // a free's race is reported by heapcheck.
        let _ = rt.mem.detector.atomic_access(t, memory_obj(w), op, mo, lo, hi - lo, write, site);
        w += 8;
    }
}

/// A plain access in `--memory sc` mode: one visible step per word touched.
fn sc_access(addr: *const c_void, size: usize, write: c_int, ra: *mut c_void, ctx: *const UnfoldCtx) {
    let (start, end) = (addr as u64, (addr as u64).saturating_add(size.max(1) as u64));
    let mut w = start & !7;
    while w < end {
        let o = memory_obj(w);
        let at = start.max(w);
        let bytes = Bytes::span(at, end.min(w + 8) - at);
        let a = if write != 0 { Action::Write(o, bytes) } else { Action::Read(o, bytes) };
        let _ = visible_access(a, code_site(ra) | ((at & 7) << 56), ctx, Access::Shared);
        if write == 0 && !own_frames(w, ctx) {
            log_read(o, Some(bytes), false, false);
        }
        w += 8;
    }
}

/// Refuse an atomic access the engine cannot model exactly (checked by the executor
/// after the step: the run ends with an error naming it).
fn unsupported(msg: String) {
    with_rt(|rt| {
        if rt.unsupported.is_none() {
            rt.unsupported = Some(ProgramError::Unsupported(msg));
        }
    });
}

/// Before an atomic operation: the scheduling point. Returns 1 for a hidden poll ("Polls
/// that count"), whose post-hook `tsan.c` skips: it would only repeat the visible poll's
/// acquire, checks and log (no other thread ran since, and the location is unchanged).
///
/// # Safety
/// Called by `tsan.c` on a program thread: `ctx` is null or points to the caller's live
/// `struct unfold_ctx`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mem_atomic_pre(
    addr: *const c_void,
    size: usize,
    kind: c_int,
    ra: *mut c_void,
    ctx: *const UnfoldCtx,
) -> c_int {
    LAST_ACCESS_RA.store(ra as u64, std::sync::atomic::Ordering::Relaxed);
    if !with_rt(|rt| rt.active) {
        return 0;
    }
    let a = addr as u64;
    if (a & 7) + size as u64 > 8 {
        unsupported(format!(
            "an atomic access of {size} bytes at 0x{a:x} crosses an 8-byte word (unfold models atomics per word)"
        ));
    }
    let (o, bytes) = (memory_obj(a), Bytes::span(a, size as u64));
    let action = match kind {
        0 => Action::Read(o, bytes),
        1 => Action::Write(o, bytes),
        _ => Action::Rmw(o, bytes, true),
    };
    // `tsan.c`'s K_RMW_SAME: if performed now, the read-modify-write leaves the value.
    let access = if kind == 4 { Access::UnchangedRmw } else { Access::Shared };
    c_int::from(visible_access(action, code_site(ra) | ((a & 7) << 56), ctx, access))
}

/// After an atomic operation: happens-before, and races with plain accesses. `changed`
/// says whether it changed the location's value (a failed compare-exchange, or a store
/// of the value already there, did not).
#[no_mangle]
pub extern "C" fn __unfold_mem_atomic_post(
    addr: *const c_void,
    size: usize,
    kind: c_int,
    changed: c_int,
    mo: c_int,
    ra: *mut c_void,
) {
    let a = addr as u64;
    if with_rt(|rt| rt.active) {
        // A load, or a read-modify-write that left the value as it was (a failed
        // compare-exchange, an exchange of the value already there, `fetch_add(0)`),
        // leaves the iteration pure: observationally it is a load. It does not move the
        // location's write count either (the step is reported as `Rmw(o, false)`), so
        // threads spinning with test-and-set on a held lock do not wake each other: they
        // wait for the holder's release. A changed one counts as a write (the engine
        // counts the same: `Action::moves_writes`). A store always counts (its step is
        // a `Write`, whatever it stored).
        let (o, bytes) = (memory_obj(a), Bytes::span(a, size as u64));
        match kind {
            0 => log_read(o, Some(bytes), false, false),
            2 | 3 => {
                let changed = changed != 0;
                with_rt(|rt| {
                    rt.mem.rmw_changed = Some(changed);
                    if changed {
                        rt.mem.writes.entry(o).or_default().write(bytes);
                    }
                });
                if changed {
                    log_change();
                } else {
                    log_read(o, Some(bytes), false, true);
                }
            }
            _ => log_change(),
        }
    }
    let write = kind == 1 || kind == 2;
    with_rt(|rt| {
        if !rt.active {
            return;
        }
        if kind != 1 {
            // An atomic in the thread's stack read its bytes (`__atomic_load_n` of a local).
            log_stack_read(rt.thread(rt.current), a, size);
        }
        // Memory errors once the operation ran, not at its scheduling point: another
        // thread may free the block while this one waits to be granted.
        crate::heapcheck::on_access(rt, a, size as u64, write, true, code_site(ra));
        if !rt.mem.tracking() {
            return;
        }
        let op = match kind {
            0 => AtomicOp::Load,
            1 => AtomicOp::Store,
            2 => AtomicOp::Rmw,
            _ => AtomicOp::FailedRmw,
        };
        let t = rt.current;
        // Synchronisation is per location (the exact address), not per word: a store to
        // a neighbour in the same word must not replace what this location released.
        if !rt.mem.races() {
            return sc_happens_before(rt, t, a, size as u64, write, code_site(ra));
        }
        let mo = MemoryOrder::from_tsan(mo);
        let race = rt.mem.detector.atomic_access(t, ObjId(a), op, mo, a, size as u64, write, code_site(ra));
        if let Some(r) = race {
            report_race(rt, &r);
        }
    });
}

/// A thread fence (`atomic_thread_fence`, `__atomic_thread_fence`): with an acquire
/// order, the thread acquires what its relaxed loads read; with a release order, its
/// later relaxed stores release what it has done so far (happens-before only: schedules
/// are sequentially consistent, so a fence is no scheduling point).
#[no_mangle]
pub extern "C" fn __unfold_mem_fence(mo: c_int) {
    with_rt(|rt| {
        if rt.active && rt.mem.races() {
            let t = rt.current;
            rt.mem.detector.on_atomic_ordered(t, ObjId(0), AtomicOp::Fence, MemoryOrder::from_tsan(mo));
        }
    });
}

/// A compare-exchange of the program is about to read `size` bytes of its `expected` at
/// `addr` (tsan.c calls this for an address above the caller's frame, after the
/// pre-hook): in the thread's stack, a read for the spin tracker's dead bytes
/// (`Visit::same_but_dead`), which must not take the bytes for dead if a write of the
/// program comes after it.
#[no_mangle]
pub extern "C" fn __unfold_mem_own_read(addr: *const c_void, size: usize) {
    with_rt(|rt| {
        if rt.active {
            log_stack_read(rt.thread(rt.current), addr as u64, size);
        }
    });
}

/// A read of `size` bytes at `a` by thread `th` that its instrumented accesses do not
/// show (an atomic's, a compare-exchange's read of its `expected`, a string
/// function's read reported without the caller's frame): logged for
/// [`Visit::same_but_dead`] if it lies in the thread's stack, so that a later write of the
/// program does not make the bytes dead. (A read below the live frames is logged too: a
/// read more only makes fewer bytes dead.)
#[inline]
fn log_stack_read(th: &mut crate::exec::ThreadRt, a: u64, size: usize) {
    let top = th.stack_top as u64;
    if a < top && top - a <= crate::mem::MAX_STACK as u64 {
        th.spin.log_own(a, size, false);
    }
}

/// After a failed compare-exchange that wrote the value it found to `*expected`,
/// changing it: the instrumentation does not see that write (the compiler hands
/// `expected` to the atomic's entry point). In the thread's own frames it is local state,
/// which the snapshots compare; anywhere else (a global or heap `expected`) it is a change
/// the spin tracker must see, or a loop `while (!CAS(&l, &g, 1));` whose failure rewrote
/// `g` would look pure and wait while its next attempt would succeed. Happens-before and
/// race checking are unaffected (as before: the write-back is not checked for races).
///
/// # Safety
/// Called by `tsan.c` on a program thread: `ctx` is null or points to the caller's live
/// `struct unfold_ctx`.
#[no_mangle]
pub unsafe extern "C" fn __unfold_mem_cas_expected(expected: *const c_void, ctx: *const UnfoldCtx) {
    if with_rt(|rt| rt.active) && !own_frames(expected as u64, ctx) {
        log_change();
    }
}

extern "C" {
    fn __unfold_tsan_anchor() -> *mut c_void;
    fn __unfold_tsan_source_hash() -> u64;
}

/// 64-bit FNV-1a (build.rs hashes `tsan.c` the same way).
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut i = 0;
    while i < bytes.len() {
        h = (h ^ bytes[i] as u64).wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}

/// The hash of the `tsan.c` this crate was compiled with.
const TSAN_SOURCE_HASH: u64 = fnv1a(include_bytes!("tsan.c"));

/// Whether the linked `tsan.c` object was compiled from the source this crate was
/// compiled with. Cargo reruns the build script only when `tsan.c` is newer than the
/// script's last run, so a target directory copied from another checkout (newer files,
/// older contents) can link an object compiled from another version of it: the entry
/// points then silently do what that version did (a stale object without the
/// `__unfold_mem_cas_expected` call gave false livelocks). An error names the remedy.
pub fn check_tsan_object() -> Result<(), String> {
    // SAFETY: a C function without preconditions returning a constant.
    let linked = unsafe { __unfold_tsan_source_hash() };
    if linked == TSAN_SOURCE_HASH {
        Ok(())
    } else {
        Err(format!(
            "this unfold binary was built with a stale object of crates/runtime/src/tsan.c \
             (compiled from another version of the file: source hash {linked:#x}, expected \
             {TSAN_SOURCE_HASH:#x}); `touch crates/runtime/src/tsan.c` and rebuild"
        ))
    }
}

/// The current thread called a libc function whose effects unfold does not see (tsan.c's
/// `__unfold_memcpy`..., shims.rs's `__unfold_rand`: writes made inside libc, which are
/// not instrumented, or hidden state such as `rand`'s): its loop iterations start afresh
/// (a loop that calls one is never pure: it may leave on what the call changed), and its
/// next unlock is not weak (it may have written shared memory).
#[no_mangle]
pub extern "C" fn __unfold_spin_changed() {
    with_rt(spin_changed)
}

/// [`__unfold_spin_changed`] within a visit of the runtime state.
pub(crate) fn spin_changed(rt: &mut crate::exec::Rt) {
    if rt.active {
        let t = rt.current;
        let th = rt.thread(t);
        th.spin.clear();
        th.clean_unlock = None;
    }
}

/// Addresses that keep `tsan.c` and these entry points in the `unfold` binary.
pub fn shim_table() -> [usize; 8] {
    [
        // SAFETY: a C function without preconditions returning a function address.
        unsafe { __unfold_tsan_anchor() } as usize,
        __unfold_mem_access as *const () as usize,
        __unfold_mem_atomic_pre as *const () as usize,
        __unfold_mem_atomic_post as *const () as usize,
        __unfold_mem_cas_expected as *const () as usize,
        __unfold_mem_fence as *const () as usize,
        __unfold_sync_checkpoint as *const () as usize,
        __unfold_spin_changed as *const () as usize,
    ]
}

#[cfg(test)]
mod tests {
    use unfold_engine::Bytes;

    fn word_mask(addr: u64, size: u64) -> u8 {
        Bytes::span(addr, size).bits()
    }

    #[test]
    fn the_linked_tsan_object_was_compiled_from_this_source() {
        assert_eq!(super::check_tsan_object(), Ok(()));
        // The hash sees a one-byte change.
        assert_ne!(super::fnv1a(b"int x;"), super::fnv1a(b"int y;"));
    }

    #[test]
    fn word_masks_cover_exactly_the_bytes_of_the_access_in_its_word() {
        assert_eq!(word_mask(0x1000, 8), 0xFF);
        assert_eq!(word_mask(0x1000, 4), 0x0F);
        assert_eq!(word_mask(0x1004, 4), 0xF0, "an int in the upper half of its word");
        assert_eq!(word_mask(0x1003, 1), 0x08);
        assert_eq!(word_mask(0x1006, 16), 0xC0, "only the bytes in the first word");
        assert_eq!(word_mask(0x1005, 0), 0x20, "an empty range still names its byte");
        // A flag and its neighbour in one word never overlap.
        assert_eq!(word_mask(0x2000, 4) & word_mask(0x2004, 4), 0);
    }
}
