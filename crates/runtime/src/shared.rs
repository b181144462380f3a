//! The protocol between the parent and its worker: the shared mappings both processes
//! see (request, results, steps, thread names) and the hand-off (sequence numbers in
//! shared memory, a byte on a pipe when the other side sleeps).
//!
//! # Plain data, validated
//!
//! The worker runs the program under test in its own address space, shared mappings
//! included: a wild write of the program can put any bytes there. So nothing in shared
//! memory is a Rust type with invalid bit patterns (no `enum`, `bool`, `Option`): every
//! field is an atomic integer ([`Plain`]), engine values are *encoded* into integers by
//! the side that writes them ([`WireAction`], [`WireStep`], [`WireDefect`], [`WireMsg`])
//! and *decoded with validation* by the side that reads them. An invalid value is
//! [`Corrupt`] — reported as "the program corrupted the checker's memory", never
//! undefined behaviour. Decoding re-encodes the value and compares it with the words
//! read, so a stray bit anywhere (an unused field set, a thread id beyond `u16`) is caught.
//!
//! Both processes only ever hold shared references (`&Header`, `&[WireStep]`) into the
//! mappings, and every access is an atomic load or store: a reference may be alive while
//! the other process writes, as between two threads. `Relaxed` is enough for the payload:
//! the sequence numbers of the hand-off (`Release`/`Acquire`, `SeqCst` around the pipes)
//! order it.

use crate::RuntimeError;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicI32, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use unfold_engine::{Action, Awaited, Bytes, Defect, DefectKind, Independence, ObjId, Step, ThreadId};

/// Capacity of the sleep set, the blocked threads, the failed assumptions and the
/// pending sites of one execution.
pub(crate) const MAX_SLEEP: usize = 4096;
/// Defects recorded per execution.
pub(crate) const MAX_DEFECTS: usize = 64;
/// Threads interned over the whole exploration.
pub(crate) const MAX_NAMES: usize = 65536;
/// Bytes of a message (defect or error), longer ones are cut.
pub(crate) const MSG: usize = 400;
/// Keys a valuation of nondeterministic values can name ([`crate::nondet`]).
pub(crate) const MAX_VALUATION: usize = 1024;
/// Draws of nondeterministic values reported per execution (more are counted, not
/// reported).
pub(crate) const MAX_DRAWS: usize = 4096;

const R: Ordering = Ordering::Relaxed;

/// Shared memory the program under test overwrote with something that is not a value
/// the checker wrote: `what` names the field.
#[derive(Debug)]
pub(crate) struct Corrupt(pub(crate) String);

impl Corrupt {
    /// The error reported for the execution.
    pub(crate) fn message(&self) -> String {
        format!(
            "the program corrupted the checker's memory (invalid {} in the memory shared with the worker): \
             it writes outside its own objects",
            self.0
        )
    }
}

fn corrupt<T>(what: impl std::fmt::Display) -> Result<T, Corrupt> {
    Err(Corrupt(what.to_string()))
}

/// Types that may live in a shared mapping.
///
/// # Safety
/// Implementors are `repr(C)` and made only of atomic integers (directly, in arrays or
/// in other `Plain` structs): the all-zero bytes of a fresh mapping are a valid value,
/// any bytes are, and every access is atomic, so shared references may be held in two
/// processes while either writes.
pub(crate) unsafe trait Plain {}

// SAFETY: atomic integers.
unsafe impl Plain for AtomicU16 {}
// SAFETY: an atomic integer.
unsafe impl Plain for AtomicU64 {}

/// An `Option<Action>` as two words: `tag | flag1 << 8 | flag2 << 9 | bytes << 16 |
/// arg << 32` (tag 0: none; `arg` a thread id or a count; `bytes` the mask of a memory
/// access or of a spin-wait's first location, never 0 for them, 0 for every other
/// action) and the object id; a spin-wait on two locations puts its second location and
/// `count | bytes << 32` in two more words (not written otherwise). A spin-wait on
/// more locations (an interned [`Awaited`], whose index means nothing in the other
/// process) is sent by value: its list goes into the direction's [`WireAwaits`], the
/// action has `flag2` set and the two more words are the list's start and length there.
/// `flag3` (bit 10) says that the two more words are in use: they are read only then
/// (the two words are the [`WireHead`], the two more the [`WireTail`]).
#[repr(C)]
pub(crate) struct WireAction {
    head: WireHead,
    tail: WireTail,
}

/// The first two words of a [`WireAction`]: all that most actions need.
#[repr(C)]
pub(crate) struct WireHead {
    word: AtomicU64,
    obj: AtomicU64,
}

/// The last two words of a [`WireAction`], written and read only with `flag3`.
#[repr(C)]
pub(crate) struct WireTail {
    obj2: AtomicU64,
    arg2: AtomicU64,
}

// SAFETY: repr(C), atomics only.
unsafe impl Plain for WireAction {}

const F1: u64 = 1 << 8;
const F2: u64 = 1 << 9;
const F3: u64 = 1 << 10;

#[inline]
fn encode_action(a: Option<Action>) -> (u64, u64) {
    use Action::*;
    let flag = |b: bool| if b { F1 } else { 0 };
    let th = |t: ThreadId| (t.0 as u64) << 32;
    let n = |v: u32| (v as u64) << 32;
    let b = |b: Bytes| (b.bits() as u64) << 16;
    let Some(a) = a else { return (0, 0) };
    match a {
        Create(t) => (1 | th(t), 0),
        Join(t) => (2 | th(t), 0),
        Exit => (3, 0),
        ExitProcess => (4, 0),
        Lock(o) => (5, o.0),
        Unlock(o, wakes) => (6 | flag(wakes), o.0),
        TryLock(o, b) => (7 | flag(b), o.0),
        Read(o, bytes) => (8 | b(bytes), o.0),
        Write(o, bytes) => (9 | b(bytes), o.0),
        Rmw(o, bytes, changed) => (10 | b(bytes) | flag(changed), o.0),
        Await(w) => {
            let (o, bytes, seen) = w.iter().next().unwrap_or((w.first(), Bytes::ALL, 0));
            (11 | b(bytes) | n(seen) | flag(w.is_assume()), o.0)
        }
        CondWait(o) => (12, o.0),
        CondWake(o, timed, signalled) => (13 | flag(timed) | if signalled { F2 } else { 0 }, o.0),
        Signal(o) => (14, o.0),
        Broadcast(o) => (15, o.0),
        SemInit(o, v) => (16 | n(v), o.0),
        SemPost(o) => (17, o.0),
        SemWait(o) => (18, o.0),
        SemTryWait(o, b) => (19 | flag(b), o.0),
        SemValue(o) => (20, o.0),
        RdLock(o) => (21, o.0),
        WrLock(o) => (22, o.0),
        TryRdLock(o, b) => (23 | flag(b), o.0),
        TryWrLock(o, b) => (24 | flag(b), o.0),
        RwUnlock(o, b) => (25 | flag(b), o.0),
        BarrierInit(o, c) => (26 | n(c), o.0),
        BarrierArrive(o, b) => (27 | flag(b), o.0),
        BarrierLeave(o) => (28, o.0),
    }
}

#[inline]
fn decode_action(word: u64, obj: u64, what: &dyn Fn() -> String) -> Result<Option<Action>, Corrupt> {
    use Action::*;
    let (f1, f2, arg, o) = (word & F1 != 0, word & F2 != 0, (word >> 32) as u32, ObjId(obj));
    let t = ThreadId(arg as u16);
    // A memory access touches at least one byte: a zero mask is corruption (for the other
    // actions, the re-encoding below requires it).
    let bytes = || Bytes::new((word >> 16) as u8).ok_or_else(|| Corrupt(what()));
    let a = match word & 0xff {
        0 => None,
        1 => Some(Create(t)),
        2 => Some(Join(t)),
        3 => Some(Exit),
        4 => Some(ExitProcess),
        5 => Some(Lock(o)),
        6 => Some(Unlock(o, f1)),
        7 => Some(TryLock(o, f1)),
        8 => Some(Read(o, bytes()?)),
        9 => Some(Write(o, bytes()?)),
        10 => Some(Rmw(o, bytes()?, f1)),
        11 => {
            let w = Awaited::with_bytes([(o, bytes()?, arg)]).ok_or_else(|| Corrupt(what()))?;
            Some(Await(if f1 { w.assume() } else { w }))
        }
        12 => Some(CondWait(o)),
        13 => Some(CondWake(o, f1, f2)),
        14 => Some(Signal(o)),
        15 => Some(Broadcast(o)),
        16 => Some(SemInit(o, arg)),
        17 => Some(SemPost(o)),
        18 => Some(SemWait(o)),
        19 => Some(SemTryWait(o, f1)),
        20 => Some(SemValue(o)),
        21 => Some(RdLock(o)),
        22 => Some(WrLock(o)),
        23 => Some(TryRdLock(o, f1)),
        24 => Some(TryWrLock(o, f1)),
        25 => Some(RwUnlock(o, f1)),
        26 => Some(BarrierInit(o, arg)),
        27 => Some(BarrierArrive(o, f1)),
        28 => Some(BarrierLeave(o)),
        _ => return corrupt(what()),
    };
    // Every bit the tag does not use must be clear: re-encoding gives the words back.
    if encode_action(a) != (word, obj) {
        return corrupt(what());
    }
    Ok(a)
}

/// A count and the bytes it is of, as one word: `count | bytes << 32`.
fn count_bytes(bytes: Bytes, count: u32) -> u64 {
    count as u64 | (bytes.bits() as u64) << 32
}

/// The count and bytes of [`count_bytes`] (a zero mask or a stray bit is corruption).
fn uncount_bytes(v: u64, what: &dyn Fn() -> String) -> Result<(Bytes, u32), Corrupt> {
    let bytes = Bytes::new((v >> 32) as u8).ok_or_else(|| Corrupt(what()))?;
    if v >> 40 != 0 {
        return corrupt(what());
    }
    Ok((bytes, v as u32))
}

/// The second location of a spin-wait and its count and bytes (zero for every other
/// action).
fn second_awaited(a: Option<Action>) -> (u64, u64) {
    match a {
        Some(Action::Await(w)) => w.iter().nth(1).map_or((0, 0), |(o, b, c)| (o.0, count_bytes(b, c))),
        _ => (0, 0),
    }
}

/// Capacity, in `(object, count | bytes << 32)` pairs, of the lists of the spin-waits on more than
/// [`unfold_engine::action::INLINE_AWAITED`] locations one request or one execution
/// carries ([`WireAwaits`]).
pub(crate) const MAX_AWAIT_PAIRS: usize = 1 << 16;

/// The lists of the spin-waits on more than two locations that one side sends (the parent
/// with a request's sleep set, the worker with an execution's results): appended by the
/// writer, emptied at the start of each request or execution.
#[repr(C)]
pub(crate) struct WireAwaits {
    len: AtomicU64,
    pairs: [[AtomicU64; 2]; MAX_AWAIT_PAIRS],
}

// SAFETY: repr(C), atomics only.
unsafe impl Plain for WireAwaits {}

/// The lists of one request or execution did not fit in its [`WireAwaits`].
#[derive(Debug)]
pub(crate) struct AwaitsFull;

impl AwaitsFull {
    /// The error reported for the execution.
    pub(crate) fn message(&self) -> String {
        format!(
            "more than {MAX_AWAIT_PAIRS} locations in the spin-waits on several locations of one execution \
             (a limit of the checker)"
        )
    }
}

impl WireAwaits {
    /// Empty the lists (the writer, before a new request or execution).
    pub(crate) fn clear(&self) {
        self.len.store(0, R);
    }

    /// Append `w`'s list: its start.
    fn push(&self, w: Awaited) -> Result<u64, AwaitsFull> {
        let start = self.len.load(R) as usize;
        let n = w.len();
        if start > MAX_AWAIT_PAIRS || MAX_AWAIT_PAIRS - start < n {
            return Err(AwaitsFull);
        }
        for (slot, (o, b, c)) in self.pairs[start..start + n].iter().zip(w.iter()) {
            slot[0].store(o.0, R);
            slot[1].store(count_bytes(b, c), R);
        }
        self.len.store((start + n) as u64, R);
        Ok(start as u64)
    }

    /// The list at `start`, of `n` entries, as a wait.
    fn get(&self, start: u64, n: u64, what: &dyn Fn() -> String) -> Result<Awaited, Corrupt> {
        let len = load_len(&self.len, MAX_AWAIT_PAIRS, "spin-wait lists")?;
        let (start, n) =
            (usize::try_from(start).map_err(|_| Corrupt(what()))?, usize::try_from(n).map_err(|_| Corrupt(what()))?);
        if n <= unfold_engine::action::INLINE_AWAITED
            || n > unfold_engine::action::MAX_AWAITED
            || start > len
            || len - start < n
        {
            return corrupt(what());
        }
        let mut list = [(ObjId(0), Bytes::ALL, 0u32); unfold_engine::action::MAX_AWAITED];
        for (e, slot) in list.iter_mut().zip(&self.pairs[start..start + n]) {
            let (b, c) = uncount_bytes(slot[1].load(R), what)?;
            *e = (ObjId(slot[0].load(R)), b, c);
        }
        let w = Awaited::with_bytes(list[..n].iter().copied()).ok_or_else(|| Corrupt(what()))?;
        // Distinct entries only: the list must be what the writer's wait held.
        if w.len() != n {
            return corrupt(what());
        }
        Ok(w)
    }
}

impl WireAction {
    /// Store `a`; the list of a wait on more than two locations goes to `awaits`.
    #[inline]
    pub(crate) fn store(&self, a: Option<Action>, awaits: &WireAwaits) -> Result<(), AwaitsFull> {
        store_action(&self.head, &self.tail, a, awaits)
    }

    /// The action, or [`Corrupt`] naming `what` (built only on failure); the list of a
    /// wait on more than two locations comes from `awaits`.
    #[inline]
    pub(crate) fn load(&self, awaits: &WireAwaits, what: &dyn Fn() -> String) -> Result<Option<Action>, Corrupt> {
        load_action(&self.head, &self.tail, awaits, what)
    }
}

/// [`WireAction::store`] into a head and a tail that may lie apart ([`WireStep`]): the
/// tail is written only when the action needs it.
#[inline]
fn store_action(head: &WireHead, tail: &WireTail, a: Option<Action>, awaits: &WireAwaits) -> Result<(), AwaitsFull> {
    let (mut w, o) = encode_action(a);
    let (o2, c2) = match a {
        Some(Action::Await(x)) if x.len() > unfold_engine::action::INLINE_AWAITED => {
            w |= F2;
            (awaits.push(x)?, x.len() as u64)
        }
        _ => second_awaited(a),
    };
    if (o2, c2) != (0, 0) {
        w |= F3;
        tail.obj2.store(o2, R);
        tail.arg2.store(c2, R);
    }
    head.word.store(w, R);
    head.obj.store(o, R);
    Ok(())
}

/// [`WireAction::load`] from a head and a tail that may lie apart: the tail is read
/// only when the head's `flag3` says it is in use.
#[inline]
fn load_action(
    head: &WireHead,
    tail: &WireTail,
    awaits: &WireAwaits,
    what: &dyn Fn() -> String,
) -> Result<Option<Action>, Corrupt> {
    let word = head.word.load(R);
    let (o2, c2) = if word & F3 != 0 { (tail.obj2.load(R), tail.arg2.load(R)) } else { (0, 0) };
    if word & F3 != 0 && (o2, c2) == (0, 0) {
        return corrupt(what());
    }
    let word = word & !F3;
    if word & 0xff == 11 && word & F2 != 0 {
        // A wait sent by value: the first location and count are in the action as
        // for a wait on one location (checked by decoding it), the list in `awaits`.
        let Some(Action::Await(first)) = decode_action(word & !F2, head.obj.load(R), what)? else {
            return corrupt(what());
        };
        let w = awaits.get(o2, c2, what)?;
        if w.iter().next() != first.iter().next() {
            return corrupt(what());
        }
        return Ok(Some(Action::Await(w.with_mark_of(first))));
    }
    let a = decode_action(word, head.obj.load(R), what)?;
    if (o2, c2) == (0, 0) {
        return Ok(a);
    }
    match a {
        Some(Action::Await(w)) => {
            let (b2, c2) = uncount_bytes(c2, what)?;
            let both = Awaited::with_bytes(w.iter().chain([(ObjId(o2), b2, c2)])).ok_or_else(|| Corrupt(what()))?;
            if both.len() != 2 {
                return corrupt(what());
            }
            Ok(Some(Action::Await(both.with_mark_of(w))))
        }
        _ => corrupt(what()),
    }
}

fn decode_thread(v: u64, what: &dyn Fn() -> String) -> Result<ThreadId, Corrupt> {
    match u16::try_from(v) {
        Ok(t) => Ok(ThreadId(t)),
        Err(_) => corrupt(what()),
    }
}

/// A `(thread, action)` pair: the sleep set and the blocked threads.
#[repr(C)]
pub(crate) struct WirePair {
    thread: AtomicU64,
    action: WireAction,
}

impl WirePair {
    pub(crate) fn store(&self, (t, a): (ThreadId, Action), awaits: &WireAwaits) -> Result<(), AwaitsFull> {
        self.thread.store(t.0 as u64, R);
        self.action.store(Some(a), awaits)
    }

    pub(crate) fn load(&self, awaits: &WireAwaits, what: &dyn Fn() -> String) -> Result<(ThreadId, Action), Corrupt> {
        let t = decode_thread(self.thread.load(R), what)?;
        match self.action.load(awaits, what)? {
            Some(a) => Ok((t, a)),
            None => corrupt(what()),
        }
    }
}

/// A digest of a step's thread and action (its performed form), by which the worker
/// checks a step the parent already knows ([`Header::known_len`]).
pub(crate) fn step_digest(t: ThreadId, a: Action) -> u64 {
    let (w, o) = encode_action(Some(a));
    let (o2, c2) = second_awaited(Some(a));
    let mut h = (t.0 as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    for x in [w, o, o2, c2] {
        h = (h.rotate_left(5) ^ x).wrapping_mul(0x5851_f42d_4c95_7f2d);
    }
    h
}

/// A [`Step`]: 128 bytes, two cache lines, of which a step reads and writes only the first
/// unless one of its actions is a spin-wait on two or more locations (the heads of its
/// three actions lie in the first line, their tails in the second). The parent reads
/// the lines the worker has just written, each a transfer between the cores: with 112
/// bytes and no alignment, a step spanned two or three lines.
#[repr(C, align(64))]
pub(crate) struct WireStep {
    thread: AtomicU64,
    site: AtomicU64,
    /// The action, the thread's next pending action, a created thread's first.
    heads: [WireHead; 3],
    tails: [WireTail; 3],
}

// SAFETY: repr(C), atomics only (the alignment's padding is never read).
unsafe impl Plain for WireStep {}

impl WireStep {
    #[inline]
    fn store_at(&self, i: usize, a: Option<Action>, awaits: &WireAwaits) -> Result<(), AwaitsFull> {
        store_action(&self.heads[i], &self.tails[i], a, awaits)
    }

    #[inline]
    fn load_at(&self, i: usize, awaits: &WireAwaits, what: &dyn Fn() -> String) -> Result<Option<Action>, Corrupt> {
        load_action(&self.heads[i], &self.tails[i], awaits, what)
    }

    #[inline]
    pub(crate) fn store(&self, s: &Step, awaits: &WireAwaits) -> Result<(), AwaitsFull> {
        self.thread.store(s.thread.0 as u64, R);
        self.site.store(s.site, R);
        self.store_at(0, Some(s.action), awaits)?;
        self.store_at(1, s.next, awaits)?;
        self.store_at(2, s.child_next, awaits)
    }

    /// Store step `s` that [`WireStep::store`] stored before it was performed, now
    /// complete: only what performing it can change (the action's outcome, the next
    /// pending actions) is written again.
    #[inline]
    pub(crate) fn complete(&self, s: &Step, before: &Step, awaits: &WireAwaits) -> Result<(), AwaitsFull> {
        debug_assert!(s.thread == before.thread && s.site == before.site);
        if s.action != before.action {
            self.store_at(0, Some(s.action), awaits)?;
        }
        self.store_at(1, s.next, awaits)?;
        self.store_at(2, s.child_next, awaits)
    }

    #[inline]
    pub(crate) fn load(&self, index: usize, awaits: &WireAwaits) -> Result<Step, Corrupt> {
        let what = || format!("step {index} of the trace");
        let thread = decode_thread(self.thread.load(R), &what)?;
        let Some(action) = self.load_at(0, awaits, &what)? else { return corrupt(what()) };
        Ok(Step {
            thread,
            action,
            site: self.site.load(R),
            next: self.load_at(1, awaits, &what)?,
            child_next: self.load_at(2, awaits, &what)?,
        })
    }
}

/// A message: its length in bytes, then the bytes (UTF-8, cut at [`MSG`] bytes).
#[repr(C)]
pub(crate) struct WireMsg {
    len: AtomicU64,
    words: [AtomicU64; MSG / 8],
}

impl WireMsg {
    pub(crate) fn store(&self, s: &str) {
        let b = &s.as_bytes()[..s.len().min(MSG)];
        for (w, chunk) in self.words.iter().zip(b.chunks(8)) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            w.store(u64::from_le_bytes(word), R);
        }
        self.len.store(b.len() as u64, R);
    }

    pub(crate) fn load(&self, what: &dyn Fn() -> String) -> Result<String, Corrupt> {
        let len = self.len.load(R);
        if len > MSG as u64 {
            return corrupt(what());
        }
        let mut b: Vec<u8> = self.words.iter().flat_map(|w| w.load(R).to_le_bytes()).collect();
        b.truncate(len as usize);
        // A message cut inside a character ends with a replacement character.
        Ok(String::from_utf8_lossy(&b).into_owned())
    }
}

/// A [`Defect`].
#[repr(C)]
pub(crate) struct WireDefect {
    kind: AtomicU64,
    thread: AtomicU64,
    /// Bit 0: a site is known.
    has_site: AtomicU64,
    site: AtomicU64,
    after_steps: AtomicU64,
    msg: WireMsg,
}

// SAFETY: repr(C), atomics only.
unsafe impl Plain for WireDefect {}

const KINDS: [DefectKind; 13] = [
    DefectKind::Assertion,
    DefectKind::Abort,
    DefectKind::Exit,
    DefectKind::Crash,
    DefectKind::MutexMisuse,
    DefectKind::DataRace,
    DefectKind::SyncMisuse,
    DefectKind::UseAfterFree,
    DefectKind::DoubleFree,
    DefectKind::InvalidFree,
    DefectKind::StackUseAfterExit,
    DefectKind::UninitRead,
    DefectKind::HeapBufferOverflow,
];

impl WireDefect {
    pub(crate) fn store(&self, d: &Defect) {
        let kind = KINDS.iter().position(|&k| k == d.kind).expect("every defect kind is in KINDS");
        self.kind.store(kind as u64, R);
        self.thread.store(d.thread.0 as u64, R);
        self.has_site.store(d.site.is_some() as u64, R);
        self.site.store(d.site.unwrap_or(0), R);
        self.after_steps.store(d.after_steps as u64, R);
        self.msg.store(&d.message);
    }

    pub(crate) fn load(&self, index: usize) -> Result<Defect, Corrupt> {
        let what = || format!("defect {index}");
        let kind =
            *usize::try_from(self.kind.load(R)).ok().and_then(|k| KINDS.get(k)).ok_or_else(|| Corrupt(what()))?;
        let site = match self.has_site.load(R) {
            0 => None,
            1 => Some(self.site.load(R)),
            _ => return corrupt(what()),
        };
        Ok(Defect {
            kind,
            message: self.msg.load(&what)?,
            thread: decode_thread(self.thread.load(R), &what)?,
            site,
            after_steps: usize::try_from(self.after_steps.load(R)).map_err(|_| Corrupt(what()))?,
        })
    }
}

/// How an execution ended, in [`Header::end_tag`].
pub(crate) mod end_tag {
    pub(crate) const FINISHED: u64 = 0;
    pub(crate) const DEADLOCK: u64 = 1;
    pub(crate) const SLEEP_BLOCKED: u64 = 2;
    pub(crate) const STEP_BOUND: u64 = 3;
    pub(crate) const TIMEOUT: u64 = 4;
}

/// Why an execution could not run, in [`Header::error`].
pub(crate) mod error_code {
    pub(crate) const NONE: u64 = 0;
    pub(crate) const DIVERGENCE: u64 = 1;
    pub(crate) const FAILED: u64 = 2;
    pub(crate) const UNSUPPORTED: u64 = 3;
    pub(crate) const LIMIT: u64 = 4;
    /// A checker bug: the worker panicked (its panic hook wrote the message) and died.
    pub(crate) const PANIC: u64 = 5;
}

pub(crate) fn encode_independence(i: Independence) -> u64 {
    match i {
        Independence::AllDependent => 0,
        Independence::ReadReadIndependent => 1,
    }
}

pub(crate) fn decode_independence(v: u64) -> Result<Independence, Corrupt> {
    match v {
        0 => Ok(Independence::AllDependent),
        1 => Ok(Independence::ReadReadIndependent),
        _ => corrupt("independence relation of the request"),
    }
}

/// A bounded count: at most `cap`.
pub(crate) fn load_len(v: &AtomicU64, cap: usize, what: &str) -> Result<usize, Corrupt> {
    match usize::try_from(v.load(R)) {
        Ok(n) if n <= cap => Ok(n),
        _ => corrupt(format_args!("count of {what}")),
    }
}

/// A thread-table entry: thread `index + 1` is child number `nth` of `parent`.
pub(crate) fn encode_name((parent, nth): (ThreadId, u32)) -> u64 {
    (parent.0 as u64) << 32 | nth as u64
}

pub(crate) fn decode_name(index: usize, v: u64) -> Result<(ThreadId, u32), Corrupt> {
    let parent = (v >> 32) as usize;
    // Threads are interned after their parent: thread `index + 1`'s parent is older.
    if parent > index {
        return corrupt(format_args!("thread table entry {index}"));
    }
    Ok((ThreadId(parent as u16), v as u32))
}

/// The shared header: one request, then the results of the execution that served it,
/// the thread table of the whole exploration and the hand-off. Each field names the side
/// that writes it; the other side only reads it while the writer is idle (between the
/// sequence numbers), except where a comment says otherwise.
#[repr(C)]
pub(crate) struct Header {
    // The request (parent).
    pub(crate) replay_len: AtomicU64,
    pub(crate) sleep_len: AtomicU64,
    pub(crate) independence: AtomicU64,
    pub(crate) max_steps: AtomicU64,
    pub(crate) sleep: [WirePair; MAX_SLEEP],
    /// The lists of the sleep set's waits on more than two locations.
    pub(crate) sleep_awaits: WireAwaits,
    /// The valuation of nondeterministic values ([`crate::nondet`]): `(key, value)`,
    /// sorted by key, the key `thread << 32 | n`; the value of the keys it does not name.
    pub(crate) nvaluation: AtomicU64,
    pub(crate) nondet_default: AtomicU64,
    /// How many of the first steps the parent knows already (the same replay prefix ran
    /// before): the worker checks them against their digests ([`step_digest`], in the
    /// known-steps array) instead of writing them.
    pub(crate) known_len: AtomicU64,
    pub(crate) valuation: [[AtomicU64; 2]; MAX_VALUATION],
    // The results (worker; the parent reads `nsteps`, `running` and the crash fields of a
    // worker that died or timed out mid-execution).
    pub(crate) nsteps: AtomicU64,
    /// 1 once the last step is final (its action settled and its thread's next action
    /// known), 0 from its first write on: the last step of an execution cut in the
    /// middle of it is not reported.
    pub(crate) last_final: AtomicU64,
    /// The thread that runs now (its last resume).
    pub(crate) running: AtomicU64,
    /// Written by the crash handler: the faulting instruction, the faulting address and
    /// the stack pointer at the crash (0: unknown).
    pub(crate) crash_pc: AtomicU64,
    pub(crate) crash_addr: AtomicU64,
    pub(crate) crash_sp: AtomicU64,
    /// Where the program was interrupted by [`crate::signals::STOP_SIGNAL`] before a
    /// timed-out execution is killed (0: not yet / unknown).
    pub(crate) stop_pc: AtomicU64,
    /// With `stop_pc`: the program address of the stopped thread's last instrumented
    /// access since it was resumed (0: none), for a stop inside the runtime.
    pub(crate) stop_ra: AtomicU64,
    /// Fork mode: the wait status of the execution process.
    pub(crate) child_status: AtomicI32,
    pub(crate) first: WireAction,
    pub(crate) end_tag: AtomicU64,
    pub(crate) nblocked: AtomicU64,
    pub(crate) blocked: [WirePair; MAX_SLEEP],
    pub(crate) nassumed: AtomicU64,
    pub(crate) assumed: [AtomicU64; MAX_SLEEP],
    pub(crate) ndefects: AtomicU64,
    pub(crate) defects: [WireDefect; MAX_DEFECTS],
    pub(crate) error: AtomicU64,
    pub(crate) error_step: AtomicU64,
    pub(crate) error_msg: WireMsg,
    pub(crate) nsites: AtomicU64,
    pub(crate) sites: [AtomicU64; MAX_SLEEP],
    /// The nondeterministic values drawn, as they are drawn (all of them counted, the
    /// first [`MAX_DRAWS`] recorded): key, kind, value, site.
    pub(crate) ndraws: AtomicU64,
    pub(crate) draws: [[AtomicU64; 4]; MAX_DRAWS],
    /// 1 when a thread drew more values than [`crate::nondet::MAX_THREAD_DRAWS`] (its
    /// path was cut).
    pub(crate) draws_cut: AtomicU64,
    /// 1 when a loop's polls ran without steps in the execution (`memory.rs`, "Polls
    /// that count"), at the site in `bounded_poll_site`.
    pub(crate) bounded_poll: AtomicU64,
    pub(crate) bounded_poll_site: AtomicU64,
    /// The lists of the results' waits on more than two locations (steps, `first`,
    /// `blocked`).
    pub(crate) awaits: WireAwaits,
    pub(crate) run_ns: AtomicU64,
    pub(crate) reset_ns: AtomicU64,
    /// How long the worker ran the execution ahead of its request (`worker.rs`,
    /// "Running ahead").
    pub(crate) ahead_ns: AtomicU64,
    /// Fork mode: the peak resident set size of the execution processes so far, in bytes
    /// (the fork server's `RUSAGE_CHILDREN`).
    pub(crate) exec_rss: AtomicU64,
    /// The thread table (worker, appended as threads are interned: [`encode_name`]).
    pub(crate) nnames: AtomicU64,
    pub(crate) names: [AtomicU64; MAX_NAMES],
    /// Hand-off: request (parent) and response (worker) sequence numbers, and who is
    /// blocked on its pipe.
    pub(crate) req_seq: AtomicU64,
    pub(crate) resp_seq: AtomicU64,
    /// The last response whose results the parent has read (parent): from then on the
    /// worker may run the next execution ahead of its request.
    pub(crate) collected_seq: AtomicU64,
    /// How many steps of the last execution the next request repeats at most, as far as
    /// the explorer knows yet (parent: `Program::next_branch_at_most`; the worker resets
    /// it to `u64::MAX` with each response): a run ahead of the request stops there.
    pub(crate) ahead_limit: AtomicU64,
    /// The explorer bounds its branch points ([`Header::ahead_limit`]; parent, set once):
    /// a run ahead may then start before the parent has read the last results.
    pub(crate) ahead_bounded: AtomicU32,
    pub(crate) worker_waiting: AtomicU32,
    pub(crate) parent_waiting: AtomicU32,
}

// SAFETY: repr(C), atomics only (WirePair, WireAction, WireAwaits, WireDefect, WireMsg are
// too).
unsafe impl Plain for Header {}

impl Header {
    /// Record a draw (worker).
    pub(crate) fn push_draw(&self, d: &crate::nondet::Draw) {
        let n = self.ndraws.load(R) as usize;
        if let Some(w) = self.draws.get(n) {
            w[0].store((d.thread.0 as u64) << 32 | d.n as u64, R);
            w[1].store(d.kind.code(), R);
            w[2].store(d.value as u64, R);
            w[3].store(d.site, R);
        }
        self.ndraws.store(n as u64 + 1, Ordering::Release);
    }

    /// A thread went past its limit of draws (worker).
    pub(crate) fn cut_draws(&self) {
        self.draws_cut.store(1, Ordering::Release);
    }

    /// The draws recorded, and whether some were lost: more were made than recorded, or
    /// a path was cut at a thread's limit (parent).
    pub(crate) fn draws(&self) -> Result<(Vec<crate::nondet::Draw>, bool), Corrupt> {
        let total = self.ndraws.load(Ordering::Acquire);
        let n = (total as usize).min(MAX_DRAWS);
        let mut out = Vec::with_capacity(n);
        for (i, w) in self.draws[..n].iter().enumerate() {
            let key = w[0].load(R);
            let t = u16::try_from(key >> 32).map_err(|_| Corrupt(format!("nondeterministic value {i}")))?;
            let kind = crate::nondet::NondetKind::from_code(w[1].load(R))
                .ok_or_else(|| Corrupt(format!("nondeterministic value {i}")))?;
            out.push(crate::nondet::Draw {
                thread: ThreadId(t),
                n: key as u32,
                kind,
                value: w[2].load(R) as i64,
                site: w[3].load(R),
            });
        }
        Ok((out, total > MAX_DRAWS as u64 || self.draws_cut.load(Ordering::Acquire) != 0))
    }

    /// Write the valuation of the next requests (parent, while the worker is idle).
    pub(crate) fn set_valuation(&self, v: &[((ThreadId, u32), i64)], default: i64) {
        self.nondet_default.store(default as u64, R);
        let n = v.len().min(MAX_VALUATION);
        for (w, &((t, k), value)) in self.valuation.iter().zip(&v[..n]) {
            w[0].store((t.0 as u64) << 32 | k as u64, R);
            w[1].store(value as u64, R);
        }
        self.nvaluation.store(n as u64, R);
    }

    /// The valuation of the request (worker): sorted by key, else corrupt.
    pub(crate) fn valuation(&self) -> Result<(crate::nondet::Valuation, i64), Corrupt> {
        let n = load_len(&self.nvaluation, MAX_VALUATION, "nondeterministic values")?;
        let mut out = Vec::with_capacity(n);
        for w in &self.valuation[..n] {
            let key = w[0].load(R);
            let t = u16::try_from(key >> 32).map_err(|_| Corrupt("a nondeterministic value's key".into()))?;
            out.push(((ThreadId(t), key as u32), w[1].load(R) as i64));
        }
        if !out.windows(2).all(|p| p[0].0 < p[1].0) {
            return corrupt("the valuation of nondeterministic values (not sorted)");
        }
        Ok((out, self.nondet_default.load(R) as i64))
    }

    /// The thread table.
    pub(crate) fn names(&self) -> Result<Vec<(ThreadId, u32)>, Corrupt> {
        let n = load_len(&self.nnames, MAX_NAMES, "threads")?;
        self.names[..n].iter().enumerate().map(|(i, v)| decode_name(i, v.load(Ordering::Acquire))).collect()
    }

    /// Check the thread table without copying it.
    pub(crate) fn check_names(&self) -> Result<(), Corrupt> {
        let n = load_len(&self.nnames, MAX_NAMES, "threads")?;
        for (i, v) in self.names[..n].iter().enumerate() {
            decode_name(i, v.load(Ordering::Acquire))?;
        }
        Ok(())
    }
}

/// A shared anonymous mapping of `n` values of `T` (zeroed), mapped before the fork so
/// that parent and worker see the same pages.
pub(crate) struct Shared<T: Plain> {
    ptr: *mut T,
    n: usize,
}

impl<T: Plain> Shared<T> {
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

    /// The values.
    pub(crate) fn get(&self) -> &[T] {
        // SAFETY: the mapping holds `n` values of `T`, valid from the start (all-zero
        // bytes are a valid `Plain` value) and for as long as `self`; `Plain` values are
        // only accessed atomically, so the other process writing them is no data race.
        unsafe { std::slice::from_raw_parts(self.ptr, self.n) }
    }

    /// The first value (a one-value mapping: the header).
    pub(crate) fn one(&self) -> &T {
        &self.get()[0]
    }

    /// The first value's address, for the crash handler (valid for the process's life
    /// when `self` is never dropped, as in a worker).
    pub(crate) fn as_ptr(&self) -> *const T {
        self.ptr
    }

    /// How many values.
    pub(crate) fn len(&self) -> usize {
        self.n
    }
}

impl<T: Plain> Drop for Shared<T> {
    fn drop(&mut self) {
        // SAFETY: unmapping the mapping created in `new`; the references `get` hands out
        // borrow `self`, so none is alive.
        unsafe { libc::munmap(self.ptr as *mut c_void, (self.n * std::mem::size_of::<T>()).max(1)) };
    }
}

/// How long the worker spins for the next request before blocking on its pipe.
pub(crate) const WORKER_SPIN: Duration = Duration::from_micros(200);
/// How long the parent spins for a result before blocking (with poll) on its pipe.
pub(crate) const PARENT_SPIN: Duration = Duration::from_micros(500);

/// How one side of the hand-off spins before it blocks.
///
/// Normally it spins with pause, then with `sched_yield`, for up to its maximum: on an
/// idle machine the answer comes in a fraction of a microsecond, and beside other
/// processes that wait and yield too (checkers run in parallel) a yield returns at once.
/// Beside CPU-bound processes a yield hands the core to one of them for a whole time
/// slice while the other side's answer waits: with two of them on this 2-core machine,
/// mpat_nested K=5 took 11 s instead of 0.4 s. So a yield that took longer than
/// [`Spinner::SLOW_YIELD`] switches the next [`Spinner::BLOCKING_WAITS`] waits to a
/// short spin with pause only, then blocking, where the other side's answer wakes us
/// (docs/execution-cost.md, "Hand-off").
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spinner {
    max: Duration,
    blocking_waits: u32,
}

impl Spinner {
    /// A yield this slow gave the core to another process for a time slice.
    const SLOW_YIELD: Duration = Duration::from_millis(1);
    /// How many waits block early after a slow yield, before yielding is tried again.
    const BLOCKING_WAITS: u32 = 256;
    /// The spin of a wait that blocks early.
    const SHORT_SPIN: Duration = Duration::from_micros(20);
    /// Iterations of a wait that spin before it starts yielding.
    const SPINS: u32 = 64;

    pub(crate) const fn new(max: Duration) -> Self {
        Spinner { max, blocking_waits: 0 }
    }

    /// Spin until `done`, within this wait's budget; true if `done` came true, false if
    /// the caller must block. `between` runs every 16 iterations while spinning and at
    /// every iteration once yielding (the parent decodes steps there); when it reports
    /// progress (the other side is running and handing work over), the wait goes back
    /// to spinning without yielding and its budget starts again.
    pub(crate) fn spin(&mut self, done: impl Fn() -> bool, mut between: impl FnMut() -> bool) -> bool {
        let mut start = Instant::now();
        let yielding = self.blocking_waits == 0;
        self.blocking_waits = self.blocking_waits.saturating_sub(1);
        let limit = if yielding { self.max } else { Self::SHORT_SPIN };
        let mut i = 0u32;
        while !done() {
            if (i >= Self::SPINS || i & 15 == 15) && between() {
                // Progress: look again at once, without pausing (more may have come while
                // `between` worked: the parent takes a run's steps in batches, and 15
                // pauses after each batch delayed the next by about as long as taking a
                // step).
                i = 15;
                start = Instant::now();
                continue;
            }
            if i < Self::SPINS || !yielding {
                std::hint::spin_loop();
            } else {
                // Timed one by one: timing every 16 iterations instead missed the slow
                // yields in half of the heavily loaded runs.
                let t = Instant::now();
                // SAFETY: sched_yield has no preconditions.
                unsafe { libc::sched_yield() };
                if t.elapsed() > Self::SLOW_YIELD {
                    self.blocking_waits = Self::BLOCKING_WAITS;
                    return done();
                }
            }
            i = i.wrapping_add(1);
            if i & 15 == 0 && start.elapsed() > limit {
                return false;
            }
        }
        true
    }
}

/// Worker side of the hand-off: wait until `seq` differs from `last`. Spins first
/// ([`Spinner`]), then blocks on `fd` after announcing it in `waiting`; the other side
/// writes a byte only when it sees `waiting` set (both use SeqCst, so either it sees the
/// flag or we see the new value). Stray bytes only cause a spurious wake-up. False when
/// the pipe is closed.
pub(crate) fn wait_seq(seq: &AtomicU64, last: u64, waiting: &AtomicU32, fd: c_int, spinner: &mut Spinner) -> bool {
    if spinner.spin(|| seq.load(Ordering::Acquire) != last, || false) {
        return true;
    }
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
    true
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spinner_blocks_early_for_a_while_after_a_slow_yield_then_yields_again() {
        let max = Duration::from_micros(300);
        let mut s = Spinner::new(max);
        assert!(s.spin(|| true, || false), "an answer already there is taken at once");
        let t = Instant::now();
        assert!(!s.spin(|| false, || false), "no answer: the caller blocks");
        assert!(t.elapsed() >= max, "an unloaded spinner spins its whole budget");
        // As after a slow yield: the next waits spin briefly, without yielding, and count
        // down to yielding again.
        s.blocking_waits = 2;
        let mut calls = 0;
        assert!(!s.spin(
            || false,
            || {
                calls += 1;
                false
            }
        ));
        assert!(calls > 0, "the caller's work between spins still runs");
        assert_eq!(s.blocking_waits, 1);
        assert!(!s.spin(|| false, || false));
        assert_eq!(s.blocking_waits, 0);
        let t = Instant::now();
        assert!(!s.spin(|| false, || false));
        assert!(t.elapsed() >= max, "back to the whole budget");
    }

    #[test]
    fn a_spinner_keeps_spinning_while_the_other_side_hands_work_over() {
        // The budget counts from the last progress: a wait whose `between` keeps finding
        // work (steps the worker publishes) for longer than the budget does not block
        // before that work stops.
        let max = Duration::from_micros(300);
        let mut s = Spinner::new(max);
        let t = Instant::now();
        let streaming = Duration::from_millis(2);
        let mut calls = 0u32;
        assert!(!s.spin(
            || false,
            || {
                calls += 1;
                t.elapsed() < streaming
            }
        ));
        // (A lower bound only: a loaded machine can only make the wait longer.)
        assert!(t.elapsed() >= streaming, "blocked {:?} after the wait began", t.elapsed());
        assert!(calls > 10, "{calls}");
    }

    fn all_actions() -> Vec<Action> {
        use Action::*;
        let (o, t) = (ObjId(0xdead_beef_1234), ThreadId(513));
        let mut v = vec![Create(t), Join(t), Exit, ExitProcess];
        for b in [false, true] {
            v.extend([TryLock(o, b), SemTryWait(o, b), TryRdLock(o, b), TryWrLock(o, b), RwUnlock(o, b)]);
            v.extend([BarrierArrive(o, b), CondWake(o, b, !b), CondWake(o, b, b)]);
            for bytes in [Bytes::ALL, Bytes::span(4, 4), Bytes::span(3, 1), Bytes::new(0x81).expect("two bytes")] {
                v.extend([Rmw(o, bytes, b), Read(o, bytes), Write(o, bytes)]);
                v.push(Await(Awaited::with_bytes([(o, bytes, 9)]).expect("one location")));
            }
        }
        v.extend([
            Lock(o),
            Unlock(o, true),
            Unlock(o, false),
            Await(Awaited::one(o, u32::MAX)),
            CondWait(o),
            Signal(o),
        ]);
        v.extend([Broadcast(o), SemInit(o, 7), SemPost(o), SemWait(o), SemValue(o), RdLock(o), WrLock(o)]);
        v.extend([BarrierInit(o, 3), BarrierLeave(o)]);
        v
    }

    #[test]
    fn every_action_survives_the_wire() {
        let none = || unreachable!();
        for a in all_actions() {
            let (w, o) = encode_action(Some(a));
            assert_eq!(decode_action(w, o, &none).ok(), Some(Some(a)));
        }
        assert_eq!(decode_action(0, 0, &none).ok(), Some(None));
    }

    #[test]
    fn an_access_to_no_byte_is_corruption() {
        let what = || "x".to_string();
        for a in [Action::Read(ObjId(9), Bytes::ALL), Action::Rmw(ObjId(9), Bytes::ALL, true)] {
            let (w, o) = encode_action(Some(a));
            assert!(decode_action(w & !(0xff << 16), o, &what).is_err(), "{a:?} with mask 0");
            assert!(decode_action(w, o, &what).is_ok());
        }
        let w = Awaited::with_bytes([(ObjId(0x11), Bytes::span(0, 4), 3), (ObjId(0x21), Bytes::span(4, 4), 5)]);
        let shared: Shared<WireAwaits> = Shared::new(1).expect("map");
        let wire: Shared<WireAction> = Shared::new(1).expect("map");
        let a = wire.one();
        a.store(Some(Action::Await(w.expect("two"))), shared.one()).expect("inline");
        assert_eq!(a.load(shared.one(), &what).expect("valid"), Some(Action::Await(w.expect("two"))));
        a.tail.arg2.store(a.tail.arg2.load(R) & 0xffff_ffff, R);
        assert!(a.load(shared.one(), &what).is_err(), "second location with mask 0");
        assert!(decode_action(9 | 1 << 16, 0, &what).is_ok() && decode_action(5 | 1 << 16, 8, &what).is_err());
        // An assumption keeps its mark, on one location and on two.
        let one = Awaited::one(ObjId(0x31), 4).assume();
        for x in [one, w.expect("two").assume()] {
            a.store(Some(Action::Await(x)), shared.one()).expect("inline");
            let back = a.load(shared.one(), &what).expect("valid");
            assert_eq!(back, Some(Action::Await(x)));
            assert!(matches!(back, Some(Action::Await(y)) if y.is_assume()));
        }
    }

    #[test]
    fn a_wait_on_many_locations_crosses_the_wire_by_value_and_a_bad_list_is_corruption() {
        let what = || "x".to_string();
        let shared: Shared<WireAwaits> = Shared::new(1).expect("map");
        let awaits = shared.one();
        let wire: Shared<WireStep> = Shared::new(1).expect("map");
        let objs = [ObjId(0x1001), ObjId(0x2001), ObjId(0x3001), ObjId(0x4001)];
        let w = Awaited::new(objs.iter().copied().zip([7, 8, 9, 10])).expect("four locations");
        let two = Awaited::new(objs[..2].iter().map(|&o| (o, 1))).expect("two");
        let step = Step {
            thread: ThreadId(2),
            action: Action::Await(w),
            site: 5,
            next: Some(Action::Await(two.assume())),
            child_next: Some(Action::Await(w.assume())),
        };
        wire.one().store(&step, awaits).expect("room");
        assert_eq!(awaits.len.load(R), 8, "two lists of four (a wait on two stays inline)");
        let back = wire.one().load(0, awaits).expect("valid");
        assert_eq!((back.action, back.next, back.child_next), (step.action, step.next, step.child_next));
        // A list cut short, a length beyond MAX_AWAITED, a repeated location, a first
        // entry that differs from the action's: all corruption.
        let a = &wire.one();
        awaits.len.store(3, R);
        assert!(a.load_at(0, awaits, &what).is_err(), "list beyond the written length");
        awaits.len.store(8, R);
        a.tails[0].arg2.store(unfold_engine::action::MAX_AWAITED as u64 + 1, R);
        assert!(a.load_at(0, awaits, &what).is_err(), "too many locations");
        a.tails[0].arg2.store(4, R);
        awaits.pairs[1][0].store(objs[0].0, R);
        assert!(a.load_at(0, awaits, &what).is_err(), "a location twice");
        awaits.pairs[1][0].store(objs[1].0, R);
        awaits.pairs[0][1].store(6 | 0xff << 32, R);
        assert!(a.load_at(0, awaits, &what).is_err(), "first count differs from the action's");
        awaits.pairs[0][1].store(7 | 0xff << 32, R);
        assert_eq!(a.load_at(0, awaits, &what).expect("restored"), Some(Action::Await(w)));
        // A full list area is reported, not overrun.
        awaits.len.store(MAX_AWAIT_PAIRS as u64 - 3, R);
        assert!(a.store_at(0, Some(Action::Await(w)), awaits).is_err());
        assert!(a.store_at(0, Some(Action::Await(two)), awaits).is_ok(), "inline waits need no room");
    }

    /// A step is one cache line but for spin-waits on two or more locations: its heads
    /// fill the first 64 bytes, and a step whose actions need no tail neither writes nor
    /// reads the second line (garbage there changes nothing).
    #[test]
    fn a_step_reads_its_second_line_only_for_a_wait_on_several_locations() {
        assert_eq!((std::mem::size_of::<WireStep>(), std::mem::align_of::<WireStep>()), (128, 64));
        let shared: Shared<WireAwaits> = Shared::new(1).expect("map");
        let awaits = shared.one();
        let wire: Shared<WireStep> = Shared::new(2).expect("map");
        let step = wire.get();
        assert_eq!(&step[1] as *const WireStep as usize - &step[0] as *const WireStep as usize, 128);
        let s = &step[0];
        assert_eq!(std::ptr::addr_of!(s.tails) as usize - s as *const WireStep as usize, 64);
        for t in &s.tails {
            t.obj2.store(u64::MAX, R);
            t.arg2.store(u64::MAX, R);
        }
        let lock = Step {
            thread: ThreadId(1),
            action: Action::Lock(ObjId(0x40)),
            site: 9,
            next: Some(Action::Unlock(ObjId(0x40), true)),
            child_next: None,
        };
        s.store(&lock, awaits).expect("room");
        assert!(s.tails.iter().all(|t| t.obj2.load(R) == u64::MAX), "no tail written");
        assert_eq!(s.load(0, awaits).expect("the tails are not read"), lock);
        let two = Awaited::new([(ObjId(0x1001), 1), (ObjId(0x2001), 2)]).expect("two");
        let wait = Step { next: Some(Action::Await(two)), ..lock };
        s.store(&wait, awaits).expect("room");
        assert_eq!(s.load(0, awaits).expect("valid"), wait);
        // The flag without its tail's words: corruption.
        s.tails[1].obj2.store(0, R);
        s.tails[1].arg2.store(0, R);
        assert!(s.load(0, awaits).is_err());
    }

    #[test]
    fn a_stray_bit_or_an_unknown_tag_is_corruption_not_a_value() {
        let what = || "x".to_string();
        let (w, o) = encode_action(Some(Action::Lock(ObjId(8))));
        assert!(decode_action(w | F1, o, &what).is_err(), "flag on a lock");
        assert!(decode_action(w | 1 << 40, o, &what).is_err(), "argument on a lock");
        assert!(decode_action(29, 0, &what).is_err(), "unknown tag");
        assert!(decode_action(3, 8, &what).is_err(), "an object on exit");
        assert!(decode_action(1 | 1 << 50, 0, &what).is_err(), "thread id beyond u16");
        assert!(decode_action(0, 1, &what).is_err(), "object on no action");
        for bits in [u64::MAX, 0x5555_5555_5555_5555, 0xff] {
            assert!(decode_action(bits, bits, &what).is_err());
        }
    }

    #[test]
    fn defects_and_messages_round_trip_and_garbage_is_refused() {
        let shared: Shared<WireDefect> = Shared::new(1).expect("map");
        let w = shared.one();
        let d = Defect {
            kind: DefectKind::SyncMisuse,
            message: "é".repeat(MSG), // cut inside a character
            thread: ThreadId(3),
            site: Some(0),
            after_steps: 12,
        };
        w.store(&d);
        let back = w.load(0).expect("valid");
        assert_eq!((back.kind, back.thread, back.site, back.after_steps), (d.kind, d.thread, d.site, 12));
        assert!(back.message.len() <= MSG + 3 && back.message.starts_with("éé"));
        w.kind.store(KINDS.len() as u64, R);
        assert!(w.load(0).is_err(), "kind beyond the table");
        w.kind.store(0, R);
        w.msg.len.store(MSG as u64 + 1, R);
        assert!(w.load(0).is_err(), "message longer than its buffer");
    }

    #[test]
    fn a_thread_table_entry_names_an_older_parent() {
        assert!(decode_name(0, encode_name((ThreadId(0), 1))).is_ok());
        assert!(decode_name(4, encode_name((ThreadId(4), 9))).is_ok());
        assert!(decode_name(4, encode_name((ThreadId(5), 0))).is_err());
    }
}
