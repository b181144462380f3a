//! Visible actions and the one independence relation every explorer shares.
//!
//! A thread's code between two visible actions is invisible local computation. The
//! visible actions are the QPOR paper's `acq`/`rel` (§2) extended with thread creation,
//! join, exit, `trylock`, and visible memory accesses.
//!
//! # Independence (QPOR §2, relation ◇_P, extended)
//!
//! Two actions of *different* threads are dependent when
//! - they operate on the same object (mutex, condition variable, semaphore, barrier,
//!   read-write lock, memory word), except that in
//!   [`Independence::ReadReadIndependent`] mode two [`Access::Read`] operations commute:
//!   two reads of a memory location, or two read-side operations on a read-write lock
//!   (read locks and read unlocks); and two accesses to disjoint [`Bytes`] of one memory
//!   word commute (`atomic_int count, sense;` share a word, not a location). In
//!   [`Independence::AllDependent`] mode (what QPOR's trees need) every two operations
//!   on one object are dependent, whatever bytes of a word they touch.
//!
//! Create, join, exit and process exit are independent of every action of another
//! thread: they order events by *causality* only (a thread's first action follows its
//! creation; a join follows the joined thread's exit; a process exit follows the last
//! action of every thread, because it is enabled only when no other thread can move).
//! Two actions of the same thread are always dependent.

use crate::ids::{ObjId, ThreadId};
use std::fmt;

/// A visible action, as executed (or, for a thread's *pending* action, as requested:
/// then the outcome fields — a trylock's `acquired` flag, a timed wait's `signalled`
/// flag, a barrier arrival's `serial` flag — are meaningless and normalised by
/// [`Action::pending_form`]).
///
/// The semantics of each operation on a synchronising object (when it is enabled, what
/// it does, what it depends on) is defined once, in the object's module under
/// [`crate::objects`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// `pthread_create`: creates the given thread.
    Create(ThreadId),
    /// `pthread_join`: enabled once the given thread has exited.
    Join(ThreadId),
    /// The thread's last action (its start routine returned or it called `pthread_exit`).
    Exit,
    /// `exit()` or `main` returning: ends the process. Enabled only when no other thread
    /// is enabled (an exit can always be delayed until then, and delaying it loses no
    /// defect: see ARCHITECTURE.md).
    ExitProcess,
    /// Mutex lock (`acq` in QPOR §2). Enabled when the mutex is free.
    Lock(ObjId),
    /// Mutex unlock (`rel`), and whether it moves the mutex's *release count*, the await
    /// count a poll's wait on the mutex watches ([`Action::moves_await_count`]). `false`
    /// for a *weak* unlock: the runtime makes one when the unlocking thread polls under
    /// the mutex and its critical section was found to repeat an iteration that changed
    /// nothing, so that it will block at its next lock of the mutex without writing or
    /// releasing anything in between (docs/memory.md, "Two pollers of one mutex"). Known
    /// before the step (part of the pending action). For mutual exclusion,
    /// happens-before and dependence a weak unlock is an ordinary one.
    Unlock(ObjId, bool),
    /// `pthread_mutex_trylock` (and `timedlock`): an `acq` when `acquired`, otherwise a
    /// read of the mutex state. Always enabled.
    TryLock(ObjId, bool),
    /// A visible read of the given bytes of a memory word.
    Read(ObjId, Bytes),
    /// A visible write of the given bytes of a memory word.
    Write(ObjId, Bytes),
    /// A visible read-modify-write (atomic exchange, fetch-add, compare-exchange...) of
    /// the given bytes of a memory word, and whether it changed the location's value. The
    /// outcome is known only once the program ran it: a thread *announces*
    /// `Rmw(o, b, true)` (its pending form: it may write), and the frontend reports the
    /// executed step as `Rmw(o, b, false)` when it
    /// left the value as it was (a failed compare-exchange, an exchange or `fetch_or` of
    /// the value already there, `fetch_add(0)`). An unchanged one is observationally a
    /// load: it does not move the write count spin-waits wait on
    /// ([`Action::moves_writes`]), and a spin iteration made of loads and unchanged
    /// read-modify-writes is pure. For dependence it is a write either way (see
    /// docs/memory.md, "Read-modify-writes that change nothing").
    Rmw(ObjId, Bytes, bool),
    /// A spin-wait: the thread's last loop iteration read these locations (bytes of
    /// memory words, when it had seen the given numbers of writes to them) and changed
    /// nothing, so it cannot make progress until another thread writes one of them:
    /// enabled once the write count of some awaited location (the writes to the bytes
    /// read: [`crate::objects::memory`]) differs from the one seen. A read of every
    /// awaited location otherwise (see `objects::memory`). The watched objects may also be synchronising
    /// objects, each with its await count seen ([`Action::moves_await_count`]): a mutex
    /// (its releases: a poll of plain locations under it waits for another thread's
    /// unlock, a `trylock` retry loop for the mutex to be released), a semaphore (its
    /// posts: a `trywait` retry loop), a read-write lock (its unlocks: a try retry loop)
    /// or a condition variable (its signals: a timed wait that timed out in a loop). See
    /// docs/memory.md.
    Await(Awaited),
    /// First half of `pthread_cond_wait`: the thread joins the condition variable's
    /// waiters (the mutex is then released by the [`Action::Unlock`] that follows).
    CondWait(ObjId),
    /// Second half of a condition wait: `(cond, timed, signalled)`. An untimed wake is
    /// enabled once a signal addressed to this waiter is pending; a timed one (also
    /// used for spurious wake-ups) is always enabled and consumes a pending signal if
    /// there is one (`signalled`), else returns by time-out.
    CondWake(ObjId, bool, bool),
    /// `pthread_cond_signal`: wakes one waiter (which one is explored); lost if none.
    Signal(ObjId),
    /// `pthread_cond_broadcast`: wakes every current waiter.
    Broadcast(ObjId),
    /// `sem_init` with the initial value.
    SemInit(ObjId, u32),
    /// `sem_post`.
    SemPost(ObjId),
    /// `sem_wait`: enabled when the value is positive.
    SemWait(ObjId),
    /// `sem_trywait` / `sem_timedwait`: decrements when positive (`true`), otherwise
    /// fails. Always enabled.
    SemTryWait(ObjId, bool),
    /// `sem_getvalue`: reads the value.
    SemValue(ObjId),
    /// `pthread_rwlock_rdlock`: enabled when no writer holds the lock.
    RdLock(ObjId),
    /// `pthread_rwlock_wrlock`: enabled when the lock is free.
    WrLock(ObjId),
    /// `pthread_rwlock_tryrdlock` / `timedrdlock`: `true` if acquired.
    TryRdLock(ObjId, bool),
    /// `pthread_rwlock_trywrlock` / `timedwrlock`: `true` if acquired.
    TryWrLock(ObjId, bool),
    /// `pthread_rwlock_unlock`: `true` when releasing a write lock.
    RwUnlock(ObjId, bool),
    /// `pthread_barrier_init` with the count.
    BarrierInit(ObjId, u32),
    /// First half of `pthread_barrier_wait`: arrive; `serial` is true for the arrival
    /// that completes the round (it returns `PTHREAD_BARRIER_SERIAL_THREAD` and does not
    /// wait).
    BarrierArrive(ObjId, bool),
    /// Second half of `pthread_barrier_wait`: enabled once the round is complete.
    BarrierLeave(ObjId),
}

/// The bytes of its 8-byte memory word an access touches: bit `b` stands for byte `b`
/// (the byte at the word's address plus `b`). Never empty.
///
/// Two accesses to one word are dependent under read-read independence only if their
/// bytes overlap ([`Independence::objects_conflict`]), and a spin-wait watches the bytes
/// its iteration loaded, so that `atomic_int count, sense;` in one word behave as two
/// locations (docs/memory.md, "Byte-aware dependence"). A synchronising object is
/// always touched whole: [`Bytes::ALL`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bytes(std::num::NonZeroU8);

impl Bytes {
    /// The whole word (and every synchronising object).
    pub const ALL: Bytes = Bytes(std::num::NonZeroU8::MAX);

    /// The bytes of the mask `bits`; `None` for the empty mask.
    #[inline]
    pub const fn new(bits: u8) -> Option<Bytes> {
        match std::num::NonZeroU8::new(bits) {
            Some(b) => Some(Bytes(b)),
            None => None,
        }
    }

    /// The bytes `[offset, offset + len)` of a word, cut at its end; an empty range
    /// names its first byte (`offset` is taken modulo 8).
    #[inline]
    pub const fn span(offset: u64, len: u64) -> Bytes {
        let lo = offset & 7;
        let hi = if len == 0 {
            lo + 1
        } else if len > 8 - lo {
            8
        } else {
            lo + len
        };
        let bits = ((0xFFu16 >> (8 - hi)) & (0xFFu16 << lo)) as u8;
        match Bytes::new(bits) {
            Some(b) => b,
            None => Bytes::ALL, // unreachable: lo < hi <= 8
        }
    }

    /// The mask.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0.get()
    }

    /// Whether the two share a byte.
    #[inline]
    pub const fn overlaps(self, other: Bytes) -> bool {
        self.bits() & other.bits() != 0
    }

    /// The bytes of either.
    #[inline]
    pub fn union(self, other: Bytes) -> Bytes {
        Bytes(self.0 | other.0)
    }

    /// The lowest byte.
    #[inline]
    pub const fn first(self) -> u32 {
        self.bits().trailing_zeros()
    }

    /// The bytes, lowest first.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let bits = self.bits();
        (0..8).filter(move |b| bits & (1 << b) != 0)
    }
}

impl fmt::Debug for Bytes {
    /// `[lo..hi]` for a contiguous range, the mask in hexadecimal otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = (self.first(), 8 - self.bits().leading_zeros());
        if self.bits().count_ones() == hi - lo {
            write!(f, "[{lo}..{hi}]")
        } else {
            write!(f, "[{:#04x}]", self.bits())
        }
    }
}

impl serde::Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.bits())
    }
}

impl<'de> serde::Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let bits = <u8 as serde::Deserialize>::deserialize(d)?;
        Bytes::new(bits).ok_or_else(|| serde::de::Error::custom("an access to no byte of its word"))
    }
}

/// Most locations one spin-wait watches ([`Awaited`]). A loop iteration that read more
/// distinct locations is explored iteration by iteration. Waits on up to
/// [`INLINE_AWAITED`] locations (a flag; Peterson's `want[other]` and `turn`) are held in
/// the action itself; larger ones (waiting until every one of N flags is set) are
/// interned (see [`Awaited`]), so that every [`Action`] stays 32 bytes (with three
/// inline locations an action took 48 and optimal-DPOR's memory on lock-heavy programs
/// grew by 70 %).
pub const MAX_AWAITED: usize = 16;

/// Most locations an [`Awaited`] holds inline.
pub const INLINE_AWAITED: usize = 2;

/// One entry of an [`Awaited`]: an object, the bytes of it the wait read (of a memory
/// word; [`Bytes::ALL`] for a synchronising object), and the await count of those bytes
/// the thread had seen ([`crate::objects::ObjState::await_count`]).
pub type AwaitEntry = (ObjId, Bytes, u32);

/// The objects a spin-wait ([`Action::Await`]) watches, each with the bytes it read (of
/// a memory word; a synchronising object is watched whole) and the value of their
/// *await count* the thread had seen (the writes to those bytes, a mutex's releases:
/// [`Action::moves_await_count`]): 1 to [`MAX_AWAITED`] distinct objects, in the order
/// the loop iteration first read them.
///
/// Up to [`INLINE_AWAITED`] objects are stored in place; a larger list is interned in a
/// process-wide table and the value holds its index. Interning is by content, so the
/// derived equality and hash (of the index) are those of the list. The table only grows
/// (one entry per distinct list and counts a run waits on); an index means nothing in
/// another process: lists cross process boundaries by value (serde, the runtime's wire
/// format), never by index.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Awaited {
    // invariant: either objs[0] is an object (!= NONE, != MANY): the used entries are the
    // leading ones that are not NONE (no object is `ObjId(u64::MAX)` or
    // `ObjId(u64::MAX - 1)`: the C runtime's objects are addresses, the test model's
    // small numbers), distinct, their bytes non-zero, and an unused entry has seen 0 and
    // bytes 0 (so that the derived equality and hash see only the used ones); or
    // objs[0] == MANY, seen[0] is the index of an interned list of more than
    // INLINE_AWAITED distinct entries, objs[1] its first object, seen[1] its length, and
    // bytes are 0.
    objs: [ObjId; INLINE_AWAITED],
    seen: [u32; INLINE_AWAITED],
    bytes: [u8; INLINE_AWAITED],
    // Whether the wait is an assumption ([`Awaited::assume`]), in a byte with two valid values:
    // `Action` puts its tag in the others and stays 32 bytes.
    niche: Niche,
}

/// See [`Awaited`]'s `niche`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
enum Niche {
    Only = 0,
    Assume = 1,
}

/// The unused entries of an [`Awaited`].
const NONE: ObjId = ObjId(u64::MAX);
/// The mark of an interned [`Awaited`].
const MANY: ObjId = ObjId(u64::MAX - 1);

/// An [`Awaited`] with no entry (to be filled).
const EMPTY: Awaited =
    Awaited { objs: [NONE; INLINE_AWAITED], seen: [0; INLINE_AWAITED], bytes: [0; INLINE_AWAITED], niche: Niche::Only };

/// The interned lists of the waits on more than [`INLINE_AWAITED`] locations.
#[derive(Default)]
struct AwaitTable {
    lists: Vec<std::sync::Arc<[AwaitEntry]>>,
    index: rustc_hash::FxHashMap<std::sync::Arc<[AwaitEntry]>, u32>,
}

fn await_table() -> std::sync::MutexGuard<'static, AwaitTable> {
    static TABLE: std::sync::OnceLock<std::sync::Mutex<AwaitTable>> = std::sync::OnceLock::new();
    // A panic while the lock is held cannot leave the table inconsistent (an entry is
    // pushed and indexed by one statement each, both infallible but for allocation).
    TABLE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner())
}

/// The entries of an [`Awaited`], inline or interned.
#[derive(Clone, Debug)]
enum AwaitedList {
    Inline(Awaited),
    Interned(std::sync::Arc<[AwaitEntry]>),
}

/// Iterator over an [`Awaited`]'s `(object, bytes, count seen)` entries.
#[derive(Clone, Debug)]
pub struct AwaitedIter {
    list: AwaitedList,
    next: usize,
}

impl Iterator for AwaitedIter {
    type Item = AwaitEntry;

    #[inline]
    fn next(&mut self) -> Option<AwaitEntry> {
        let i = self.next;
        let item = match &self.list {
            AwaitedList::Inline(w) => (i < INLINE_AWAITED && w.objs[i] != NONE)
                .then(|| (w.objs[i], Bytes::new(w.bytes[i]).unwrap_or(Bytes::ALL), w.seen[i])),
            AwaitedList::Interned(l) => l.get(i).copied(),
        };
        self.next += item.is_some() as usize;
        item
    }
}

impl Awaited {
    /// A wait on one object, whole.
    pub fn one(o: ObjId, seen: u32) -> Awaited {
        assert!(o != NONE && o != MANY, "unfold bug: a wait on a reserved object id");
        let mut w = EMPTY;
        w.objs[0] = o;
        w.seen[0] = seen;
        w.bytes[0] = Bytes::ALL.bits();
        w
    }

    /// A wait on the given objects, each whole (the first count kept for a repeated
    /// one); `None` if there are none or more than [`MAX_AWAITED`] distinct ones (or a
    /// reserved object id: `ObjId(u64::MAX)`, `ObjId(u64::MAX - 1)`).
    pub fn new(reads: impl IntoIterator<Item = (ObjId, u32)>) -> Option<Awaited> {
        Awaited::with_bytes(reads.into_iter().map(|(o, v)| (o, Bytes::ALL, v)))
    }

    /// A wait on the given bytes of objects, as [`Awaited::new`] (the first entry kept
    /// for a repeated object: a caller that read several byte ranges of one word merges
    /// them into one entry first, with the count of their union).
    pub fn with_bytes(reads: impl IntoIterator<Item = AwaitEntry>) -> Option<Awaited> {
        let mut list: [AwaitEntry; MAX_AWAITED] = [(NONE, Bytes::ALL, 0); MAX_AWAITED];
        let mut len = 0;
        for (o, b, v) in reads {
            if o == NONE || o == MANY {
                return None;
            }
            if list[..len].iter().any(|e| e.0 == o) {
                continue;
            }
            if len == MAX_AWAITED {
                return None;
            }
            list[len] = (o, b, v);
            len += 1;
        }
        let list = &list[..len];
        match len {
            0 => None,
            1..=INLINE_AWAITED => {
                let mut w = EMPTY;
                for (k, &(o, b, v)) in list.iter().enumerate() {
                    w.objs[k] = o;
                    w.bytes[k] = b.bits();
                    w.seen[k] = v;
                }
                Some(w)
            }
            _ => {
                let mut t = await_table();
                let id = match t.index.get(list) {
                    Some(&id) => id,
                    None => {
                        let id = u32::try_from(t.lists.len()).expect("unfold limit: 2^32 distinct spin-waits");
                        let l: std::sync::Arc<[AwaitEntry]> = list.into();
                        t.lists.push(l.clone());
                        t.index.insert(l, id);
                        id
                    }
                };
                let mut w = EMPTY;
                w.objs = [MANY, list[0].0];
                w.seen = [id, len as u32];
                Some(w)
            }
        }
    }

    #[inline]
    fn interned(&self) -> bool {
        self.objs[0] == MANY
    }

    /// The number of locations watched.
    #[inline]
    pub fn len(&self) -> usize {
        if self.interned() {
            self.seen[1] as usize
        } else {
            self.objs.iter().take_while(|&&o| o != NONE).count()
        }
    }

    /// Always false (a wait watches at least one location); for clippy's sake.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.objs[0] == NONE
    }

    /// The first location read by the loop iteration.
    #[inline]
    pub fn first(&self) -> ObjId {
        if self.interned() {
            self.objs[1]
        } else {
            self.objs[0]
        }
    }

    /// The locations with the bytes read and the write counts seen.
    #[inline]
    pub fn iter(self) -> AwaitedIter {
        let list = if self.interned() {
            AwaitedList::Interned(await_table().lists[self.seen[0] as usize].clone())
        } else {
            AwaitedList::Inline(self)
        };
        AwaitedIter { list, next: 0 }
    }

    /// Whether `o` is watched (whatever bytes of it).
    #[inline]
    pub fn contains(&self, o: ObjId) -> bool {
        if self.interned() {
            o != NONE && o != MANY && self.iter().any(|(x, ..)| x == o)
        } else {
            o != NONE && self.objs.contains(&o)
        }
    }

    /// The bytes of `o` watched, if `o` is watched.
    #[inline]
    pub fn bytes_of(&self, o: ObjId) -> Option<Bytes> {
        if self.interned() {
            if o == NONE || o == MANY {
                return None;
            }
            self.iter().find(|e| e.0 == o).map(|e| e.1)
        } else {
            let k = self.objs.iter().position(|&x| x == o && x != NONE)?;
            Bytes::new(self.bytes[k])
        }
    }

    /// Whether the wait is over, given the current await count of each location's
    /// bytes read (`count(o, bytes)`): some location has been written since the thread
    /// read it. Never for an [assumption](Awaited::assume).
    #[inline]
    pub fn woken(&self, count: impl FnMut(ObjId, Bytes) -> u32) -> bool {
        !self.is_assume() && self.moved(count)
    }

    /// Whether some watched location has been written since the thread read it (the
    /// condition [`Awaited::woken`] tests, an assumption's included): an assumption
    /// blocked at the end of an execution whose locations moved failed, one whose
    /// locations did not is a livelock ([`crate::SchedState::failed_assumptions`]).
    #[inline]
    pub fn moved(&self, mut count: impl FnMut(ObjId, Bytes) -> u32) -> bool {
        self.iter().any(|(o, b, seen)| count(o, b) != seen)
    }

    /// The same wait, marked as an *assumption*: the loop iteration's reads were visible
    /// steps the explorers can reverse with what would end the wait (atomic loads,
    /// read-modify-writes that changed nothing, failed tries, the lock of a poll under a
    /// mutex), and it is never explored again. Such a wait is never enabled: its thread
    /// blocks for the rest of the execution, as if the loop were `assume(condition)`.
    /// No behaviour is lost. Take an execution in which the thread waited and was woken
    /// later: dropping the failed iteration and the wait (both changed nothing), and
    /// running the thread from the same local state where the wait was performed, gives
    /// an execution with the same states and fewer happens-before edges; in it the
    /// thread's first attempt comes after the write that woke it, which the explorers
    /// reach by reversing the race between that write (or release) and one of the
    /// iteration's reads (or its lock).
    /// And the execution with the failed iteration itself is explored up to its end, so
    /// every defect before or beside it is seen. The reduction of GenMC's spin-assume
    /// transformation (Kokologiannakis et al., DATE'21), applied at run time; see
    /// docs/memory.md, "Spin-waits as assumptions".
    #[inline]
    pub fn assume(mut self) -> Awaited {
        self.niche = Niche::Assume;
        self
    }

    /// Whether this wait is an assumption ([`Awaited::assume`]).
    #[inline]
    pub fn is_assume(&self) -> bool {
        self.niche == Niche::Assume
    }

    /// The same wait with the assumption mark of `other`.
    #[inline]
    pub fn with_mark_of(self, other: Awaited) -> Awaited {
        if other.is_assume() {
            self.assume()
        } else {
            self
        }
    }
}

impl serde::Serialize for Awaited {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.iter().collect::<Vec<_>>())?;
        t.serialize_element(&self.is_assume())?;
        t.end()
    }
}

impl<'de> serde::Deserialize<'de> for Awaited {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (list, assume) = <(Vec<AwaitEntry>, bool)>::deserialize(d)?;
        let distinct = list.iter().enumerate().all(|(i, e)| list[..i].iter().all(|x| x.0 != e.0));
        Awaited::with_bytes(list.iter().copied())
            .filter(|_| distinct)
            .map(|w| if assume { w.assume() } else { w })
            .ok_or_else(|| serde::de::Error::custom("a spin-wait on 1 to MAX_AWAITED distinct objects"))
    }
}

impl fmt::Debug for Awaited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_assume() {
            f.write_str("assume ")?;
        }
        f.debug_list().entries(self.iter()).finish()
    }
}

/// What kind of object an action touches, if any. Each kind is defined in one module
/// of [`crate::objects`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ObjKind {
    /// A mutex (also spinlocks, `pthread_once` controls, C11 `mtx_t`).
    Mutex,
    /// A memory location.
    Memory,
    /// A condition variable.
    CondVar,
    /// A counting semaphore.
    Semaphore,
    /// A read-write lock.
    RwLock,
    /// A barrier.
    Barrier,
}

/// How an operation touches its object, for read-read independence: two `Read`
/// operations on one object commute under [`Independence::ReadReadIndependent`]. A weak
/// unlock ([`Action::Unlock`] with `false`) is a `Read` of its mutex: it moves neither
/// the release count a wait reads nor anything a wait changes, so it commutes with waits
/// on the mutex (the only other read-side operations on a mutex); with every lock, trylock
/// and ordinary unlock of the mutex (all `Write`s) it stays dependent, as a read unlock of
/// a read-write lock is with its write locks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Access {
    /// Commutes with every other `Read` of the object (a memory read; a read-side
    /// operation on a read-write lock).
    Read,
    /// Conflicts with every other operation on the object.
    Write,
}

impl Action {
    /// The synchronising object or memory location the action operates on, if any.
    #[inline]
    pub fn object(self) -> Option<ObjId> {
        match self {
            Action::Create(_) | Action::Join(_) | Action::Exit | Action::ExitProcess => None,
            Action::Lock(o)
            | Action::Unlock(o, _)
            | Action::TryLock(o, _)
            | Action::Read(o, _)
            | Action::Write(o, _)
            | Action::Rmw(o, ..)
            | Action::CondWait(o)
            | Action::CondWake(o, ..)
            | Action::Signal(o)
            | Action::Broadcast(o)
            | Action::SemInit(o, _)
            | Action::SemPost(o)
            | Action::SemWait(o)
            | Action::SemTryWait(o, _)
            | Action::SemValue(o)
            | Action::RdLock(o)
            | Action::WrLock(o)
            | Action::TryRdLock(o, _)
            | Action::TryWrLock(o, _)
            | Action::RwUnlock(o, _)
            | Action::BarrierInit(o, _)
            | Action::BarrierArrive(o, _)
            | Action::BarrierLeave(o) => Some(o),
            Action::Await(w) => Some(w.first()),
        }
    }

    /// The bytes of its object the action touches: those of a memory access or, for a
    /// spin-wait, of its first location; [`Bytes::ALL`] for every other operation.
    #[inline]
    pub fn bytes(self) -> Bytes {
        match self {
            Action::Read(_, b) | Action::Write(_, b) | Action::Rmw(_, b, _) => b,
            Action::Await(w) => w.iter().next().map_or(Bytes::ALL, |e| e.1),
            _ => Bytes::ALL,
        }
    }

    /// The bytes of object `o` the action touches, if it touches `o`: [`Action::bytes`]
    /// for its object, or the bytes of `o` a spin-wait watches.
    #[inline]
    pub fn bytes_of(self, o: ObjId) -> Option<Bytes> {
        match self {
            Action::Await(w) => w.bytes_of(o),
            a => (a.object() == Some(o)).then(|| a.bytes()),
        }
    }

    /// Whether the action operates on object `o`: its object, or one of the locations
    /// a spin-wait watches.
    #[inline]
    pub fn touches(self, o: ObjId) -> bool {
        match self {
            Action::Await(w) => w.contains(o),
            a => a.object() == Some(o),
        }
    }

    /// Every object the action operates on: at most one, except for a spin-wait on
    /// several locations ([`Awaited`]), which reads each of them.
    #[inline]
    pub fn objects(self) -> impl Iterator<Item = ObjId> {
        let (w, one) = match self {
            Action::Await(w) => (Some(w), None),
            a => (None, a.object()),
        };
        w.into_iter().flat_map(|w| w.iter().map(|(o, ..)| o)).chain(one)
    }

    /// The kind of object the action touches.
    #[inline]
    pub fn obj_kind(self) -> Option<ObjKind> {
        Some(match self {
            Action::Create(_) | Action::Join(_) | Action::Exit | Action::ExitProcess => return None,
            Action::Lock(_) | Action::Unlock(..) | Action::TryLock(..) => ObjKind::Mutex,
            Action::Read(..) | Action::Write(..) | Action::Rmw(..) | Action::Await(..) => ObjKind::Memory,
            Action::CondWait(_) | Action::CondWake(..) | Action::Signal(_) | Action::Broadcast(_) => ObjKind::CondVar,
            Action::SemInit(..)
            | Action::SemPost(_)
            | Action::SemWait(_)
            | Action::SemTryWait(..)
            | Action::SemValue(_) => ObjKind::Semaphore,
            Action::RdLock(_)
            | Action::WrLock(_)
            | Action::TryRdLock(..)
            | Action::TryWrLock(..)
            | Action::RwUnlock(..) => ObjKind::RwLock,
            Action::BarrierInit(..) | Action::BarrierArrive(..) | Action::BarrierLeave(_) => ObjKind::Barrier,
        })
    }

    /// How the action touches its object (see [`Access`]); `Write` for actions without
    /// an object.
    #[inline]
    pub fn access(self) -> Access {
        match self {
            Action::Read(..)
            | Action::Await(..)
            | Action::Unlock(_, false)
            | Action::RdLock(_)
            | Action::TryRdLock(..)
            | Action::RwUnlock(_, false)
            // Leaving a barrier changes only the leaver's own entry: two leaves commute
            // (the order in which the waiters of a round return is not observable).
            | Action::BarrierLeave(_) => Access::Read,
            _ => Access::Write,
        }
    }

    /// Which [`Access::Read`] operations commute with each other under
    /// [`Independence::ReadReadIndependent`]: those of the same class. Class 0: memory
    /// reads, spin-waits ([`Action::Await`], a read of each watched object) and weak
    /// unlocks (which commute with the waits on their mutex); class 1:
    /// the read side of a read-write lock (read locks, failed or successful read tries,
    /// read unlocks). Two classes share an object only when a spin-wait watches a
    /// read-write lock (a `tryrdlock`/`trywrlock` retry loop): a read unlock moves the
    /// lock's await count, which enables the wait, so the two must not commute (a read
    /// lock would: making every read-side operation dependent with the wait keeps the
    /// equivalence classes simple — the reads between two writes form runs of one class,
    /// each run a set: `crate::trace`).
    #[inline]
    pub fn read_class(self) -> u8 {
        matches!(self.obj_kind(), Some(ObjKind::RwLock)) as u8
    }

    /// True for `acq` actions: a lock, or a successful trylock.
    #[inline]
    pub fn is_acquire(self) -> bool {
        matches!(self, Action::Lock(_) | Action::TryLock(_, true))
    }

    /// The same action with the pending-form normalisation applied (outcomes
    /// forgotten). Two pending actions compare equal iff they request the same thing.
    #[inline]
    pub fn pending_form(self) -> Action {
        match self {
            Action::TryLock(o, _) => Action::TryLock(o, false),
            Action::SemTryWait(o, _) => Action::SemTryWait(o, false),
            Action::TryRdLock(o, _) => Action::TryRdLock(o, false),
            Action::TryWrLock(o, _) => Action::TryWrLock(o, false),
            Action::CondWake(o, true, _) => Action::CondWake(o, true, false),
            Action::CondWake(o, false, _) => Action::CondWake(o, false, true),
            Action::BarrierArrive(o, _) => Action::BarrierArrive(o, false),
            Action::Rmw(o, b, _) => Action::Rmw(o, b, true),
            a => a,
        }
    }

    /// Whether this executed action moves its location's write count, the memory state
    /// a spin-wait ([`Action::Await`]) waits on: a write, or a read-modify-write that
    /// changed the value. The one definition every counter of writes uses (the memory
    /// object, the DPOR analysis, the test model; the C runtime counts the same way).
    #[inline]
    pub fn moves_writes(self) -> bool {
        matches!(self, Action::Write(..) | Action::Rmw(_, _, true))
    }

    /// Whether this executed action moves the *await count* of its object, the state a
    /// spin-wait ([`Action::Await`]) on that object watches: a location's write count
    /// ([`Action::moves_writes`]), a mutex's release count (an unlock that is not
    /// weak: see [`Action::Unlock`]), a semaphore's
    /// posts (a post or an initialisation), a read-write lock's unlocks (read or write),
    /// a condition variable's signals (a signal or broadcast). For a synchronising
    /// object these are the operations that may make a failed try or timed operation on
    /// it succeed ([`Action::is_failed_try`]; docs/memory.md). The one definition the
    /// DPOR analysis uses to place a wait; the object kinds count the same way
    /// ([`crate::objects::ObjectKind::await_count`]), as do the C runtime and the test
    /// model.
    #[inline]
    pub fn moves_await_count(self) -> bool {
        self.moves_writes()
            || matches!(
                self,
                Action::Unlock(_, true)
                    | Action::SemPost(_)
                    | Action::SemInit(..)
                    | Action::RwUnlock(..)
                    | Action::Signal(_)
                    | Action::Broadcast(_)
            )
    }

    /// How much this executed action moves the await count of `bytes` of its object
    /// ([`crate::objects::ObjState::await_count`]): a write to a memory word by the number
    /// of those bytes it writes (the count is the sum of their write counts), an
    /// operation on a synchronising object by 1 if it moves the count at all
    /// ([`Action::moves_await_count`]).
    #[inline]
    pub fn await_weight(self, bytes: Bytes) -> u32 {
        match self {
            _ if !self.moves_await_count() => 0,
            Action::Write(_, b) | Action::Rmw(_, b, _) => (b.bits() & bytes.bits()).count_ones(),
            _ => 1,
        }
    }

    /// Whether this executed action is a try or timed operation that failed (a
    /// `trylock` or `timedlock` of a held mutex, a `trywait`/`timedwait` of a zero
    /// semaphore, a `tryrdlock`/`trywrlock` or timed lock of a read-write lock held
    /// against it). Such a step changes nothing another thread can see, like a failed
    /// compare-exchange: for spin detection it is a load of its object, with the
    /// object's await count ([`Action::moves_await_count`]) at that moment, and a retry
    /// loop whose iteration made only loads and failed tries waits for that count to
    /// move (docs/memory.md, "Failed try and timed operations").
    #[inline]
    pub fn is_failed_try(self) -> bool {
        matches!(
            self,
            Action::TryLock(_, false)
                | Action::SemTryWait(_, false)
                | Action::TryRdLock(_, false)
                | Action::TryWrLock(_, false)
        )
    }

    /// Whether `self`, as a frontend reported it executed, is what the resolved pending
    /// action `requested` became: the same action, or the same read-modify-write with
    /// the outcome only the program knows (whether it changed the value).
    #[inline]
    pub fn performs(self, requested: Action) -> bool {
        match (self, requested) {
            (Action::Rmw(o, b, _), Action::Rmw(p, c, true)) => o == p && b == c,
            (a, b) => a == b,
        }
    }

    /// The blocking operation an action *requests*: a try or timed operation requests
    /// what its blocking variant would wait for (a trylock requests the lock). Used by
    /// the explorers to ask "could this request have been granted before event `e`?".
    /// `None` for actions that are not requests for a synchronising object.
    #[inline]
    pub fn request(self) -> Option<Action> {
        Some(match self {
            Action::Lock(o) | Action::TryLock(o, _) => Action::Lock(o),
            Action::SemWait(o) | Action::SemTryWait(o, _) => Action::SemWait(o),
            Action::RdLock(o) | Action::TryRdLock(o, _) => Action::RdLock(o),
            Action::WrLock(o) | Action::TryWrLock(o, _) => Action::WrLock(o),
            Action::CondWake(o, ..) => Action::CondWake(o, false, true),
            Action::BarrierLeave(o) => Action::BarrierLeave(o),
            Action::Await(w) => Action::Await(w),
            _ => return None,
        })
    }

    /// The value handed back to the thread that performs this (resolved) action: 1 for
    /// a successful try operation, a signalled wake and the serial barrier arrival,
    /// else 0 (see also [`crate::SchedState::result`] for values read from the state).
    #[inline]
    pub fn outcome(self) -> u64 {
        match self {
            Action::TryLock(_, b)
            | Action::SemTryWait(_, b)
            | Action::TryRdLock(_, b)
            | Action::TryWrLock(_, b)
            | Action::CondWake(_, _, b)
            | Action::BarrierArrive(_, b) => b as u64,
            _ => 0,
        }
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ok = |b: bool| if b { "ok" } else { "busy" };
        match *self {
            Action::Create(t) => write!(f, "create({t})"),
            Action::Join(t) => write!(f, "join({t})"),
            Action::Exit => write!(f, "exit"),
            Action::ExitProcess => write!(f, "exit-process"),
            Action::Lock(o) => write!(f, "lock({o})"),
            Action::Unlock(o, true) => write!(f, "unlock({o})"),
            Action::Unlock(o, false) => write!(f, "unlock({o})=weak"),
            Action::TryLock(o, b) => write!(f, "trylock({o})={}", ok(b)),
            Action::Read(o, b) => write!(f, "read({o}{})", Part(b)),
            Action::Write(o, b) => write!(f, "write({o}{})", Part(b)),
            Action::Rmw(o, b, true) => write!(f, "rmw({o}{})", Part(b)),
            Action::Rmw(o, b, false) => write!(f, "rmw({o}{})=unchanged", Part(b)),
            Action::Await(w) => {
                write!(f, "await(")?;
                for (i, (o, b, v)) in w.iter().enumerate() {
                    write!(f, "{}{o}{}, {v}", if i > 0 { "; " } else { "" }, Part(b))?;
                }
                write!(f, ")")
            }
            Action::CondWait(o) => write!(f, "cond-wait({o})"),
            Action::CondWake(o, false, _) => write!(f, "cond-wake({o})"),
            Action::CondWake(o, true, s) => {
                write!(f, "cond-timedwake({o})={}", if s { "signalled" } else { "timeout" })
            }
            Action::Signal(o) => write!(f, "signal({o})"),
            Action::Broadcast(o) => write!(f, "broadcast({o})"),
            Action::SemInit(o, v) => write!(f, "sem-init({o}, {v})"),
            Action::SemPost(o) => write!(f, "sem-post({o})"),
            Action::SemWait(o) => write!(f, "sem-wait({o})"),
            Action::SemTryWait(o, b) => write!(f, "sem-trywait({o})={}", ok(b)),
            Action::SemValue(o) => write!(f, "sem-getvalue({o})"),
            Action::RdLock(o) => write!(f, "rdlock({o})"),
            Action::WrLock(o) => write!(f, "wrlock({o})"),
            Action::TryRdLock(o, b) => write!(f, "tryrdlock({o})={}", ok(b)),
            Action::TryWrLock(o, b) => write!(f, "trywrlock({o})={}", ok(b)),
            Action::RwUnlock(o, w) => write!(f, "rwunlock({o}){}", if w { "" } else { "-read" }),
            Action::BarrierInit(o, n) => write!(f, "barrier-init({o}, {n})"),
            Action::BarrierArrive(o, s) => write!(f, "barrier-arrive({o}){}", if s { "=serial" } else { "" }),
            Action::BarrierLeave(o) => write!(f, "barrier-leave({o})"),
        }
    }
}

/// The bytes of a word an access touches, as shown after its object: nothing for the
/// whole word, `[lo..hi]` (or the mask) for part of it.
struct Part(Bytes);

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == Bytes::ALL {
            Ok(())
        } else {
            write!(f, "{:?}", self.0)
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Which independence relation the exploration uses on operations that only read an
/// object (memory reads, read-side read-write lock operations). Every other action is
/// treated the same way in both modes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum Independence {
    /// Every two operations on one object are dependent (what QPOR supports).
    #[default]
    AllDependent,
    /// Two accesses to one object are dependent only if one of them writes (the
    /// standard relation of the source-sets JACM paper, §2) and, for a memory word,
    /// they touch a common byte ([`Bytes`]).
    ReadReadIndependent,
}

impl Independence {
    /// Whether actions `a` of thread `ta` and `b` of thread `tb` are dependent.
    ///
    /// Same-thread actions are always dependent. See the module documentation for the
    /// relation between different threads.
    #[inline]
    pub fn dependent(self, ta: ThreadId, a: Action, tb: ThreadId, b: Action) -> bool {
        if ta == tb {
            return true;
        }
        self.objects_conflict(a, b)
    }

    /// Whether two actions (assumed to be of different threads) are dependent through
    /// the object they touch: every two operations on one object are, except two
    /// [`Access::Read`]s in [`Independence::ReadReadIndependent`] mode — and even then a
    /// spin-wait and a read-side operation of a read-write lock (it may watch the lock,
    /// whose await count a read unlock moves) are dependent: [`Action::read_class`] —
    /// and, in that mode, two operations on disjoint [`Bytes`] of one memory word
    /// (every other operation touches its object whole).
    #[inline]
    pub fn objects_conflict(self, a: Action, b: Action) -> bool {
        let bytewise = self == Independence::ReadReadIndependent;
        let overlap = |x: Bytes, y: Bytes| !bytewise || x.overlaps(y);
        let shared = match (a, b) {
            (Action::Await(x), Action::Await(y)) => {
                x.iter().any(|(o, m, _)| y.bytes_of(o).is_some_and(|n| overlap(m, n)))
            }
            (Action::Await(x), b) => b.object().is_some_and(|o| x.bytes_of(o).is_some_and(|m| overlap(m, b.bytes()))),
            (a, Action::Await(y)) => a.object().is_some_and(|o| y.bytes_of(o).is_some_and(|m| overlap(m, a.bytes()))),
            (a, b) => a.object().is_some() && a.object() == b.object() && overlap(a.bytes(), b.bytes()),
        };
        shared
            && (self == Independence::AllDependent
                || a.access() == Access::Write
                || b.access() == Access::Write
                || a.read_class() != b.read_class())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: ThreadId = ThreadId(0);
    const T1: ThreadId = ThreadId(1);
    const M: ObjId = ObjId(7);
    const X: ObjId = ObjId(8);

    #[test]
    fn leaves_of_one_barrier_commute_under_read_read_independence_only() {
        let (arrive, leave) = (Action::BarrierArrive(M, false), Action::BarrierLeave(M));
        let rr = Independence::ReadReadIndependent;
        assert!(!rr.dependent(T0, leave, T1, leave), "the order the waiters leave in is not observable");
        assert!(rr.dependent(T0, leave, T1, arrive) && rr.dependent(T0, arrive, T1, arrive));
        assert!(Independence::AllDependent.dependent(T0, leave, T1, leave), "QPOR orders them");
    }

    #[test]
    fn mutex_operations_on_one_mutex_are_dependent() {
        for mode in [Independence::AllDependent, Independence::ReadReadIndependent] {
            for a in [
                Action::Lock(M),
                Action::Unlock(M, true),
                Action::Unlock(M, false),
                Action::TryLock(M, false),
                Action::TryLock(M, true),
            ] {
                for b in [Action::Lock(M), Action::Unlock(M, true), Action::Unlock(M, false), Action::TryLock(M, false)]
                {
                    // Two weak unlocks are both read-side (see the next test).
                    let both_weak = a == Action::Unlock(M, false) && b == a;
                    assert_eq!(
                        mode.dependent(T0, a, T1, b),
                        !both_weak || mode == Independence::AllDependent,
                        "{a:?} {b:?}"
                    );
                }
                assert!(!mode.dependent(T0, a, T1, Action::Lock(X)));
            }
        }
    }

    #[test]
    fn an_unchanged_rmw_is_performed_from_the_pending_form_and_moves_no_write_count() {
        let (done, same) = (Action::Rmw(X, Bytes::ALL, true), Action::Rmw(X, Bytes::ALL, false));
        assert_eq!(same.pending_form(), done, "a thread announces an RMW as one that may write");
        assert!(same.performs(done) && done.performs(done));
        assert!(!done.performs(same), "only the program may report an outcome");
        assert!(!same.performs(Action::Rmw(M, Bytes::ALL, true)) && !Action::Read(X, Bytes::ALL).performs(done));
        assert!(done.moves_writes() && Action::Write(X, Bytes::ALL).moves_writes());
        assert!(!same.moves_writes() && !Action::Read(X, Bytes::ALL).moves_writes());
        assert_eq!(format!("{same:?}"), format!("rmw({X})=unchanged"));
    }

    #[test]
    fn a_weak_unlock_moves_no_release_count_and_commutes_only_with_waits() {
        let (weak, strong) = (Action::Unlock(M, false), Action::Unlock(M, true));
        assert!(strong.moves_await_count() && !weak.moves_await_count());
        assert_eq!(weak.pending_form(), weak, "weakness is known before the step");
        assert!(weak.performs(weak) && !weak.performs(strong) && !strong.performs(weak));
        let wait = Action::Await(Awaited::one(M, 3));
        let rr = Independence::ReadReadIndependent;
        assert!(!rr.dependent(T0, weak, T1, wait) && rr.dependent(T0, strong, T1, wait));
        for b in [Action::Lock(M), Action::TryLock(M, false), strong] {
            assert!(rr.dependent(T0, weak, T1, b), "{b:?}");
        }
        // Two unlocks of one mutex by two threads are never enabled together (each needs
        // its thread to hold the mutex): the lock between them orders them anyway.
        assert!(!rr.dependent(T0, weak, T1, weak));
        assert!(Independence::AllDependent.dependent(T0, weak, T1, wait), "QPOR's trees order them");
        assert_eq!(format!("{weak:?}"), format!("unlock({M})=weak"));
    }

    #[test]
    fn an_action_stays_small() {
        // Steps, events, sleep sets and wakeup trees hold actions by value.
        assert!(std::mem::size_of::<Action>() <= 32, "{} bytes", std::mem::size_of::<Action>());
    }

    #[test]
    fn a_wait_on_two_locations_conflicts_with_writes_to_either() {
        let (y, z) = (ObjId(0x11), ObjId(0x21));
        let w = Awaited::new([(y, 1), (z, 2), (y, 5)]).expect("two locations");
        assert_eq!(w.iter().collect::<Vec<_>>(), vec![(y, Bytes::ALL, 1), (z, Bytes::ALL, 2)]);
        assert_eq!(w.len(), 2);
        let a = Action::Await(w);
        for mode in [Independence::AllDependent, Independence::ReadReadIndependent] {
            assert!(mode.dependent(T0, a, T1, Action::Write(z, Bytes::ALL)));
            assert!(mode.dependent(T0, a, T1, Action::Rmw(y, Bytes::ALL, true)));
            assert!(mode.dependent(T0, a, T1, Action::Rmw(y, Bytes::ALL, false)));
            assert!(!mode.dependent(T0, a, T1, Action::Write(ObjId(0x31), Bytes::ALL)));
        }
        assert!(!Independence::ReadReadIndependent.dependent(T0, a, T1, Action::Read(z, Bytes::ALL)));
        assert!(w.woken(|o, _| if o == z { 3 } else { 1 }));
        assert!(!w.woken(|o, _| if o == z { 2 } else { 1 }));
    }

    #[test]
    fn a_wait_on_more_locations_than_fit_inline_is_interned_by_content() {
        let objs: Vec<ObjId> = (0..MAX_AWAITED as u64 + 1).map(|k| ObjId(0x101 + 0x10 * k)).collect();
        let three = |c: u32| Awaited::new([(objs[0], c), (objs[1], 2), (objs[2], 3), (objs[0], 9)]).expect("three");
        let w = three(1);
        assert_eq!(w.len(), 3);
        assert_eq!(w.first(), objs[0]);
        let all = Bytes::ALL;
        assert_eq!(w.iter().collect::<Vec<_>>(), vec![(objs[0], all, 1), (objs[1], all, 2), (objs[2], all, 3)]);
        assert!(w.contains(objs[2]) && !w.contains(objs[3]) && !w.contains(MANY) && !w.contains(NONE));
        assert_eq!(w, three(1), "the same list and counts are the same wait");
        assert_ne!(w, three(4), "another count is another wait");
        assert!(w.woken(|o, _| if o == objs[2] { 4 } else { 1 + (o == objs[1]) as u32 }));
        assert!(!w.woken(|o, _| [(objs[0], 1), (objs[1], 2), (objs[2], 3)].iter().find(|e| e.0 == o).unwrap().1));
        let a = Action::Await(w);
        assert!(a.touches(objs[1]) && a.objects().count() == 3);
        assert!(Independence::AllDependent.dependent(T0, a, T1, Action::Write(objs[2], Bytes::ALL)));
        assert!(!Independence::AllDependent.dependent(T0, a, T1, Action::Write(objs[3], Bytes::ALL)));
        let all = Awaited::new(objs[..MAX_AWAITED].iter().map(|&o| (o, 0))).expect("MAX_AWAITED locations");
        assert_eq!(all.len(), MAX_AWAITED);
        assert!(Awaited::new(objs.iter().map(|&o| (o, 0))).is_none(), "more than MAX_AWAITED");
        assert!(Awaited::new([(objs[0], 0), (objs[1], 0), (MANY, 0)]).is_none(), "a reserved id");
        assert_eq!(format!("{a:?}"), format!("await({}, 1; {}, 2; {}, 3)", objs[0], objs[1], objs[2]));
    }

    #[test]
    fn reads_commute_only_in_read_read_mode() {
        let all = Independence::AllDependent;
        let rr = Independence::ReadReadIndependent;
        assert!(all.dependent(T0, Action::Read(X, Bytes::ALL), T1, Action::Read(X, Bytes::ALL)));
        assert!(!rr.dependent(T0, Action::Read(X, Bytes::ALL), T1, Action::Read(X, Bytes::ALL)));
        assert!(rr.dependent(T0, Action::Read(X, Bytes::ALL), T1, Action::Write(X, Bytes::ALL)));
        assert!(rr.dependent(T0, Action::Rmw(X, Bytes::ALL, true), T1, Action::Read(X, Bytes::ALL)));
        // An unchanged read-modify-write stays a write for dependence (its outcome is not
        // known before it runs; see docs/memory.md).
        assert!(rr.dependent(T0, Action::Rmw(X, Bytes::ALL, false), T1, Action::Read(X, Bytes::ALL)));
        assert!(!rr.dependent(T0, Action::Write(X, Bytes::ALL), T1, Action::Write(M, Bytes::ALL)));
    }

    #[test]
    fn thread_actions_are_independent_across_threads_but_not_within() {
        let all = Independence::AllDependent;
        assert!(!all.dependent(T0, Action::Create(T1), T1, Action::Lock(M)));
        assert!(!all.dependent(T0, Action::Join(T1), T1, Action::Exit));
        assert!(all.dependent(T0, Action::Read(X, Bytes::ALL), T0, Action::Read(M, Bytes::ALL)));
    }
}
