//! Memory errors: use after free, double and invalid frees, accesses to the stack of a
//! thread that exited, heap buffer overflows, and (opt-in) reads of uninitialised heap
//! bytes — each a defect naming the allocation, the free (or exit) and the access.
//!
//! # What is checked, where
//!
//! - **Every instrumented access** (`__tsan_readN`/`__tsan_writeN` and the atomics, see
//!   [`crate::memory`]) asks `on_access` whether it touches a freed heap block or the
//!   stack of a thread that exited, or lies partly outside every live heap block: in
//!   the red zones around a block or past its last byte
//!   ([`DefectKind::HeapBufferOverflow`], against the nearest block, with the offset).
//! - **Every `free` and `realloc`** (`on_free`) checks its pointer: the start of a live
//!   block of the arena (anything else is an [`DefectKind::InvalidFree`]: the middle of a
//!   block, a stack, a global, thread-local storage), not freed already
//!   ([`DefectKind::DoubleFree`]).
//! - **A free is a write to the whole block for the race detector**, and a thread's exit
//!   a write to its whole stack ([`RaceDetector::on_free`](unfold_engine::race::RaceDetector::on_free)):
//!   an access by another thread that is not ordered with it by happens-before is a
//!   [`DefectKind::DataRace`] naming the free (under `--memory sc`, where every shared
//!   access synchronises and races are no defects, the [`DefectKind::UseAfterFree`] of
//!   the schedule that runs the free first). Which of the two ran first in the
//!   execution does not matter: an access made *after* an unordered free is reported as
//!   the same defect, at the access, in the same words (the free's epoch is kept with
//!   the block) — so, as for every race (`unfold_engine::race`), one execution per trace
//!   of the synchronising operations finds it. An access the free happens before is a
//!   [`DefectKind::UseAfterFree`] (or [`DefectKind::StackUseAfterExit`]).
//!
//! A NULL dereference stays what it is: a crash (SIGSEGV) reported with its faulting line.
//!
//! # Why it is cheap
//!
//! The heap is the bump arena of [`crate::mem`]: one fixed slot per thread, memory never
//! reused within an execution. So a freed block stays freed (no quarantine is needed),
//! and the questions "is this byte freed, or outside every block" are answered by a
//! [`Shadow`]: one byte per 16-byte granule of the arena (blocks are 16-byte aligned,
//! their sizes rounded up to 16), reserved once with the arena and addressed by
//! `(addr - base) >> 4`: 0 for a granule wholly in a live block (or never allocated),
//! `n` in 1..16 for the last granule of a block with only `n` bytes in it, red zone or
//! freed. The allocator surrounds every payload with red zones (its 16-byte header before
//! it, 16 bytes after it: [`crate::mem::Arena::alloc`]), so an access up to 16 bytes past
//! the end of a block, or into the header of the next, lands in one. An access outside
//! the arena costs one subtraction and one comparison; inside, one load of a shadow byte
//! (two when it straddles granules), one comparison more in a block's last granule. A
//! hash lookup per access was rejected: it would cost as much as the race detector
//! itself. Pages of the shadow are committed when a block in them is allocated; between
//! executions only the part that covers the used arena is cleared.
//!
//! Not seen: an overflow that jumps over the red zones into another block (more than 16
//! bytes past the end, or into a block allocated by another thread's slot), and
//! accesses made by libc (`memcpy`, `strcpy` are not instrumented).
//!
//! Block records (allocation site and thread, size, free) are kept per thread slot in
//! allocation order, i.e. sorted by address, and found by binary search — on a free and
//! on a reported error only. Their number is bounded by the arena (every block takes at
//! least 48 bytes of it), so nothing grows with the length of a run beyond the heap the
//! program itself uses. A thread's stack is dead from its `Exit` step to the end of the
//! execution (thread slots are never reused within one).
//!
//! # Uninitialised reads (`--check-uninit`)
//!
//! One bit per arena byte, set over the payload of every `malloc`/`realloc` block (beyond
//! what `realloc` copied), cleared by every instrumented write; a read of a set bit is a
//! [`DefectKind::UninitRead`] naming the allocation. `calloc` blocks start initialised.
//! Off by default: reading a byte written only by uninstrumented code (`memset`,
//! `memcpy`, `read`, …) is reported too, because libc's accesses are not seen.

use crate::exec::Rt;
use crate::RuntimeError;
use unfold_engine::program::Site;
use unfold_engine::{Action, Defect, DefectKind, ThreadId};

/// Bytes per shadow granule (the arena's block alignment).
pub const GRANULE: u64 = 16;
const GRANULE_U8: u8 = GRANULE as u8;
/// Shadow value of a granule of a freed block.
const FREED: u8 = 0xfd;
/// Shadow value of a granule of a red zone: a block's header, the 16 bytes after its
/// payload (see [`crate::mem::Arena::alloc`]), the only granule of an empty block.
const RED_ZONE: u8 = 0xfa;
// Shadow values 1 to 15: the last granule of a live block of which only the first n
// bytes belong to the block (its size is not a multiple of 16). 0: a granule wholly in
// a live block, or not allocated in this execution.

/// One byte per granule of the heap arena (see the module docs), plus, when uninitialised
/// reads are checked, one bit per arena byte.
#[derive(Debug)]
pub struct Shadow {
    /// The arena's address range.
    base: u64,
    len: u64,
    /// `len / GRANULE` bytes, readable and writable (pages are committed on first write).
    map: usize,
    /// `len / 8` bytes when uninitialised reads are checked, else 0.
    uninit: usize,
}

fn map_noreserve(len: usize) -> Result<usize, RuntimeError> {
    // SAFETY: a fresh anonymous private mapping at an address chosen by the kernel. With
    // MAP_NORESERVE, untouched pages cost nothing and read as zero.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(RuntimeError::Os("mmap (heap shadow)", std::io::Error::last_os_error()));
    }
    Ok(p as usize)
}

impl Shadow {
    /// The shadow of the arena `[base, base + len)`.
    pub fn new(base: u64, len: u64) -> Result<Self, RuntimeError> {
        let map = map_noreserve((len / GRANULE) as usize)?;
        Ok(Shadow { base, len, map, uninit: 0 })
    }

    /// Also track uninitialised bytes (one bit per arena byte).
    pub fn track_uninit(&mut self) -> Result<(), RuntimeError> {
        if self.uninit == 0 {
            self.uninit = map_noreserve((self.len / 8) as usize)?;
        }
        Ok(())
    }

    /// Whether uninitialised bytes are tracked.
    pub fn tracks_uninit(&self) -> bool {
        self.uninit != 0
    }

    #[inline]
    fn granule(&self, i: u64) -> u8 {
        // SAFETY: callers pass i < len / GRANULE: inside the mapping (readable whole).
        unsafe { *((self.map as *const u8).add(i as usize)) }
    }

    /// Whether `[addr, addr + size)` touches a byte outside the live blocks: in a freed
    /// block or a red zone, or past the end of a block in its last granule (then
    /// [`Shadow::freed`] and [`Shadow::first_outside`] tell which). The hot path of
    /// every instrumented access: one shadow load per granule (two when the access
    /// straddles granules), one comparison more in the last granule of a block.
    #[inline]
    pub fn poisoned(&self, addr: u64, size: u64) -> bool {
        let off = addr.wrapping_sub(self.base);
        if off >= self.len {
            return false;
        }
        let last = off.saturating_add(size.max(1) - 1).min(self.len - 1);
        (off / GRANULE..=last / GRANULE).any(|g| {
            let v = self.granule(g);
            // A partial granule: the access's last byte in it must be below v.
            v != 0 && (v >= GRANULE_U8 || last.min(g * GRANULE + GRANULE - 1) % GRANULE >= u64::from(v))
        })
    }

    /// The arena bytes of `[addr, addr + size)` (clipped to the arena), as offsets.
    fn span(&self, addr: u64, size: u64) -> Option<(u64, u64)> {
        let off = addr.wrapping_sub(self.base);
        (off < self.len).then(|| (off, off.saturating_add(size.max(1)).min(self.len)))
    }

    /// Whether any byte of `[addr, addr + size)` lies in a freed block.
    pub fn freed(&self, addr: u64, size: u64) -> bool {
        let Some((off, end)) = self.span(addr, size) else { return false };
        (off / GRANULE..=(end - 1) / GRANULE).any(|g| self.granule(g) == FREED)
    }

    /// The first byte of `[addr, addr + size)` in a red zone or past the end of a block
    /// in its last granule (the access overflows a block), if any.
    pub fn first_outside(&self, addr: u64, size: u64) -> Option<u64> {
        let (off, end) = self.span(addr, size)?;
        (off..end)
            .find(|&b| match self.granule(b / GRANULE) {
                RED_ZONE => true,
                n @ 1..GRANULE_U8 => b % GRANULE >= u64::from(n),
                _ => false,
            })
            .map(|b| b + self.base)
    }

    /// A block of `size` bytes at `p` was allocated (inside the arena): its header and
    /// the red zone after its payload are poisoned, and its last granule records how
    /// many of its bytes the block has. The rest of the payload's shadow is already 0
    /// (the arena never reuses memory within an execution).
    pub fn allocated(&mut self, p: u64, size: u64) {
        let off = p - self.base;
        let rounded = size.max(1).div_ceil(GRANULE) * GRANULE;
        debug_assert!(
            off >= GRANULE && off + rounded + GRANULE <= self.len,
            "unfold bug: a block's red zones lie outside the arena"
        );
        let map = self.map as *mut u8;
        let last = (off + rounded) / GRANULE - 1;
        // SAFETY: the header granule, the last granule and the red zone granule lie
        // inside the arena (the allocator reserves them), hence inside the mapping.
        unsafe {
            *map.add((off / GRANULE - 1) as usize) = RED_ZONE;
            *map.add(last as usize) = match size % GRANULE {
                0 if size > 0 => 0,
                0 => RED_ZONE,
                n => n as u8,
            };
            *map.add((last + 1) as usize) = RED_ZONE;
        }
    }

    /// Mark the granules covering `[addr, addr + len)` (inside the arena) freed.
    pub fn poison(&mut self, addr: u64, len: u64) {
        let off = addr - self.base;
        debug_assert!(off + len <= self.len, "unfold bug: poisoning outside the arena");
        let (g0, g1) = (off / GRANULE, (off + len).div_ceil(GRANULE));
        // SAFETY: [g0, g1) lies inside the mapping (the range lies inside the arena).
        unsafe { std::ptr::write_bytes((self.map as *mut u8).add(g0 as usize), FREED, (g1 - g0) as usize) };
    }

    /// Fill `out` with the shadow bytes of the arena's `[off, off + len)` (its granules,
    /// then its uninitialised bits if they are checked), for [`Shadow::load`].
    pub fn save(&self, off: u64, len: u64, out: &mut Vec<u8>) {
        out.clear();
        for (map, unit) in [(self.map, GRANULE), (self.uninit, 8)] {
            if map == 0 {
                continue;
            }
            let (a, b) = (off / unit, (off + len).div_ceil(unit).min(self.len / unit));
            if b > a {
                // SAFETY: [a, b) lies inside the mapping (len / unit bytes), readable.
                out.extend_from_slice(unsafe {
                    std::slice::from_raw_parts((map as *const u8).add(a as usize), (b - a) as usize)
                });
            }
        }
    }

    /// Write back what [`Shadow::save`] saved for the same range.
    pub fn load(&mut self, off: u64, len: u64, saved: &[u8]) {
        let mut at = 0;
        for (map, unit) in [(self.map, GRANULE), (self.uninit, 8)] {
            if map == 0 {
                continue;
            }
            let (a, b) = (off / unit, (off + len).div_ceil(unit).min(self.len / unit));
            if b > a {
                let n = (b - a) as usize;
                // SAFETY: [a, b) lies inside the mapping, writable; `saved` holds the
                // bytes `save` read from it.
                unsafe {
                    std::ptr::copy_nonoverlapping(saved[at..at + n].as_ptr(), (map as *mut u8).add(a as usize), n)
                };
                at += n;
            }
        }
    }

    /// Forget everything about the arena bytes `[off, off + len)` (offsets from the
    /// arena's base): the reset of a used arena slot.
    pub fn clear(&mut self, off: u64, len: u64) {
        let (g0, g1) = (off / GRANULE, (off + len).div_ceil(GRANULE).min(self.len / GRANULE));
        if g1 > g0 {
            // SAFETY: [g0, g1) lies inside the mapping.
            unsafe { std::ptr::write_bytes((self.map as *mut u8).add(g0 as usize), 0, (g1 - g0) as usize) };
        }
        if self.uninit != 0 {
            let (b0, b1) = (off / 8, (off + len).div_ceil(8).min(self.len / 8));
            if b1 > b0 {
                // SAFETY: [b0, b1) lies inside the uninit mapping (len / 8 bytes).
                unsafe { std::ptr::write_bytes((self.uninit as *mut u8).add(b0 as usize), 0, (b1 - b0) as usize) };
            }
        }
    }

    /// Set (`uninit`) or clear the uninitialised bits of `[addr, addr + len)`, clipped
    /// to the arena. No-op unless uninitialised bytes are tracked.
    #[inline]
    pub fn set_uninit(&mut self, addr: u64, len: u64, uninit: bool) {
        if self.uninit == 0 {
            return;
        }
        let off = addr.wrapping_sub(self.base);
        if off >= self.len {
            return;
        }
        let end = off.saturating_add(len).min(self.len);
        let bits = self.uninit as *mut u8;
        let mut b = off;
        while b < end {
            let (byte, bit) = ((b / 8) as usize, b % 8);
            if bit == 0 && end - b >= 8 {
                // SAFETY: byte < len / 8: inside the uninit mapping.
                unsafe { *bits.add(byte) = if uninit { 0xff } else { 0 } };
                b += 8;
                continue;
            }
            // SAFETY: as above.
            unsafe {
                let p = bits.add(byte);
                *p = if uninit { *p | 1 << bit } else { *p & !(1 << bit) };
            }
            b += 1;
        }
    }

    /// The first uninitialised byte of `[addr, addr + len)`, if any (clipped to the arena).
    #[inline]
    pub fn first_uninit(&self, addr: u64, len: u64) -> Option<u64> {
        if self.uninit == 0 {
            return None;
        }
        let off = addr.wrapping_sub(self.base);
        if off >= self.len {
            return None;
        }
        let end = off.saturating_add(len.max(1)).min(self.len);
        let bits = self.uninit as *const u8;
        (off..end)
            .find(|&b| {
                // SAFETY: b / 8 < len / 8: inside the uninit mapping.
                unsafe { *bits.add((b / 8) as usize) & (1 << (b % 8)) != 0 }
            })
            .map(|b| b + self.base)
    }

    /// Copy the uninitialised bits of `[from, from + len)` to `[to, to + len)` (realloc).
    pub fn copy_uninit(&mut self, from: u64, to: u64, len: u64) {
        if self.uninit == 0 {
            return;
        }
        for i in 0..len {
            let u = self.first_uninit(from + i, 1).is_some();
            self.set_uninit(to + i, 1, u);
        }
    }
}

/// One heap block of an execution.
#[derive(Clone, Copy, Debug)]
struct Block {
    /// Address of the payload (what `malloc` returned).
    start: u64,
    size: u64,
    thread: ThreadId,
    site: Site,
    // invariant: Some once the block was freed (or reallocated away); never reset.
    free: Option<Death>,
}

/// Where, by whom and at which epoch of the race detector a block was freed or a thread
/// exited.
#[derive(Clone, Copy, Debug)]
struct Death {
    thread: ThreadId,
    clock: u32,
    site: Site,
}

/// Where the regions other than the heap are, to name a bad pointer (set once per
/// worker).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Regions {
    /// The loaded program image (globals, code, constants).
    pub image: (u64, u64),
    /// The stack slots: base, length of one slot, number of slots.
    pub stacks: (u64, u64, u64),
    /// The TLS blocks: base, length of one block, number of blocks (0: no TLS).
    pub tls: (u64, u64, u64),
}

fn slot_of(r: (u64, u64, u64), addr: u64) -> Option<usize> {
    let off = addr.wrapping_sub(r.0);
    (r.1 > 0 && off < r.1 * r.2).then(|| (off / r.1) as usize)
}

/// Most memory-error defects one execution records.
const MAX_REPORTS: usize = 16;

/// Per-execution state of the memory-error checks (in the runtime state [`Rt`]).
#[derive(Debug, Default)]
pub(crate) struct HeapCheck {
    /// Blocks per arena slot, in allocation (= address) order.
    blocks: Vec<Vec<Block>>,
    /// Slots with blocks in this execution.
    used: Vec<usize>,
    /// Exit of each thread slot that exited in this execution.
    exited: Vec<Option<Death>>,
    any_exited: bool,
    /// Stack slots another thread accessed in this execution: only their threads' exits
    /// need the race detector's walk (see [`on_thread_exit`]).
    foreign: Vec<bool>,
    any_foreign: bool,
    reported: Vec<(DefectKind, Site, Site)>,
    pub regions: Regions,
}

impl Clone for HeapCheck {
    fn clone(&self) -> Self {
        let mut c = HeapCheck::default();
        c.clone_from(self);
        c
    }

    /// Field by field, reusing the destination's buffers (checkpoints copy the state
    /// back and forth at every branch point).
    fn clone_from(&mut self, src: &Self) {
        let HeapCheck { blocks, used, exited, any_exited, foreign, any_foreign, reported, regions } = src;
        self.blocks.clone_from(blocks);
        self.used.clone_from(used);
        self.exited.clone_from(exited);
        self.foreign.clone_from(foreign);
        self.reported.clone_from(reported);
        (self.any_exited, self.any_foreign, self.regions) = (*any_exited, *any_foreign, *regions);
    }
}

impl HeapCheck {
    /// Start an execution.
    pub fn reset(&mut self) {
        for &s in &self.used {
            self.blocks[s].clear();
        }
        self.used.clear();
        if self.any_exited {
            self.exited.iter_mut().for_each(|e| *e = None);
            self.any_exited = false;
        }
        if self.any_foreign {
            self.foreign.iter_mut().for_each(|f| *f = false);
            self.any_foreign = false;
        }
        self.reported.clear();
    }

    /// The block an out-of-bounds byte `x` of slot `slot` belongs to most plausibly: the
    /// last block starting at or before `x` if `x` is past its end by less than it is
    /// before the next block's start, else that next block.
    fn nearest(&self, slot: usize, x: u64) -> Option<&Block> {
        let v = self.blocks.get(slot)?;
        let i = v.partition_point(|b| b.start <= x);
        match (i.checked_sub(1).map(|j| &v[j]), v.get(i)) {
            (Some(a), Some(b)) if x.saturating_sub(a.start + a.size) > b.start - x => Some(b),
            (Some(a), _) => Some(a),
            (None, b) => b,
        }
    }

    fn block(&self, slot: usize, addr: u64) -> Option<&Block> {
        let v = self.blocks.get(slot)?;
        let i = v.partition_point(|b| b.start <= addr).checked_sub(1)?;
        let b = &v[i];
        (addr < b.start + b.size.max(1).div_ceil(GRANULE) * GRANULE).then_some(b)
    }
}

/// Record a defect of the current thread (it goes on), once per (kind, two sites).
fn report(rt: &mut Rt, kind: DefectKind, key: (Site, Site), site: Site, message: String) {
    let t = rt.current;
    report_as(rt, t, kind, key, site, message);
}

/// [`report`] as thread `t`'s.
fn report_as(rt: &mut Rt, t: ThreadId, kind: DefectKind, key: (Site, Site), site: Site, message: String) {
    let k = (kind, key.0, key.1);
    if rt.heap.reported.len() >= MAX_REPORTS || rt.heap.reported.contains(&k) {
        return;
    }
    rt.heap.reported.push(k);
    let d = Defect { kind, message, thread: t, site: (site != 0).then_some(site), after_steps: rt.steps_done };
    rt.defects.push(d);
}

/// The end of a life (a `free`, a thread's exit: `end`) and another thread's access to
/// the memory it ends (`access`: thread, site, verb), not ordered by happens-before:
/// under `--memory races` a data race on `what`; under `--memory sc`, where races are no
/// defects, some schedule makes the access after the end (the first such pair of an
/// execution can be made adjacent: every other shared access synchronises there), so it
/// is the use after free or exit (`kind`) that schedule meets. Reported as the access's,
/// in the same words whichever of the two ran first, so that both orders make one defect.
fn unordered_end(rt: &mut Rt, kind: DefectKind, what: &str, end: (ThreadId, Site), access: (ThreadId, Site, &str)) {
    let (u, at_end) = end;
    let (t, site, verb) = access;
    let (ends, first, stack) = match kind {
        DefectKind::UseAfterFree => ("frees it", "the free", ""),
        _ => ("exits", "the exit", " (the stack dies with its thread)"),
    };
    let how = format!("{t} {verb} it{} and {u} {ends}{}, not ordered by synchronisation{stack}", at(site), at(at_end));
    let (kind, message) = if rt.mem.races() {
        (DefectKind::DataRace, format!("data race on {what}: {how}"))
    } else {
        (kind, format!("{what}: {how}, so another schedule runs {first} first"))
    };
    report_as(rt, t, kind, (at_end, site), site, message);
}

fn verb(write: bool) -> &'static str {
    if write {
        "writes"
    } else {
        "reads"
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A site as a message placeholder the CLI turns into `file:line`.
fn at(site: Site) -> String {
    if site == 0 {
        String::new()
    } else {
        format!(" at [[site:{site:x}]]")
    }
}

/// A heap address as `offset 4 of a heap block of 8 bytes allocated by t0 at …`, if it
/// lies in a block of the arena (race messages name heap locations so: an address, or
/// an offset in the thread's heap, says nothing to the user).
pub(crate) fn heap_name(rt: &Rt, addr: u64) -> Option<String> {
    let (slot, _) = rt.arena.as_ref()?.locate(addr)?;
    let b = rt.heap.block(slot, addr)?;
    (addr >= b.start && addr < b.start + b.size).then(|| format!("offset {} of {}", addr - b.start, describe(b)))
}

/// A block: `a heap block of 24 bytes allocated by t1 at …`.
fn describe(b: &Block) -> String {
    format!("a heap block of {} byte{} allocated by {}{}", b.size, plural(b.size), b.thread, at(b.site))
}

/// `malloc`, `calloc` or `realloc` returned `p` (`size` bytes, 0: a failed allocation)
/// to thread `t` at `site`.
pub(crate) fn on_alloc(rt: &mut Rt, p: u64, size: u64, site: Site, zeroed: bool) {
    let Some(arena) = rt.arena.as_mut() else { return };
    let Some((slot, _)) = arena.locate(p) else { return };
    if !zeroed {
        arena.shadow_mut().set_uninit(p, size, true);
    }
    arena.shadow_mut().allocated(p, size);
    let h = &mut rt.heap;
    if h.blocks.len() <= slot {
        h.blocks.resize_with(slot + 1, Vec::new);
    }
    if h.blocks[slot].is_empty() {
        h.used.push(slot);
    }
    debug_assert!(h.blocks[slot].last().is_none_or(|b| b.start < p), "unfold bug: arena blocks out of order");
    h.blocks[slot].push(Block { start: p, size, thread: rt.current, site, free: None });
}

/// What a `free` or `realloc` of a pointer means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Freed {
    /// A live arena block of this size: now freed.
    Block(u64),
    /// Not arena memory nor any other region unfold knows: libc's (constructors,
    /// `strdup`...).
    Foreign,
    /// A defect was reported: do nothing.
    Bad,
}

/// The size of the live block that starts at `p`, if there is one (what `realloc` may
/// reallocate).
pub(crate) fn live_block(rt: &Rt, p: u64) -> Option<u64> {
    let (slot, _) = rt.arena.as_ref()?.locate(p)?;
    let v = rt.heap.blocks.get(slot)?;
    let b = v.binary_search_by_key(&p, |b| b.start).ok().map(|i| v[i])?;
    b.free.is_none().then_some(b.size)
}

/// Thread `t` frees `p` at `site` (`realloc`: `what` says which function).
pub(crate) fn on_free(rt: &mut Rt, p: u64, site: Site, what: &str) -> Freed {
    // A free is a write to the whole block: the thread's next unlock is ordinary.
    let t = rt.current;
    rt.thread(t).clean_unlock = None;
    let Some(arena) = rt.arena.as_ref() else { return Freed::Foreign };
    let Some((slot, _)) = arena.locate(p) else {
        let r = rt.heap.regions;
        // The CLI names stack and thread-local addresses by their thread (and globals
        // by their symbol).
        let region = if slot_of(r.stacks, p).is_some() || slot_of(r.tls, p).is_some() {
            ""
        } else if p >= r.image.0 && p < r.image.1 {
            " (the program's static data)"
        } else {
            return Freed::Foreign;
        };
        let msg = format!("{t} {what}s 0x{p:x}{region}: not a pointer malloc returned");
        report(rt, DefectKind::InvalidFree, (site, 0), site, msg);
        return Freed::Bad;
    };
    let found = rt.heap.blocks.get(slot).and_then(|v| v.binary_search_by_key(&p, |b| b.start).ok());
    let Some(i) = found else {
        let msg = match rt.heap.block(slot, p) {
            Some(b) => format!(
                "{t} {what}s a pointer {} byte{} inside {}: not a pointer malloc returned",
                p - b.start,
                plural(p - b.start),
                describe(b)
            ),
            None => {
                format!("{t} {what}s a heap address that is not the start of a block: not a pointer malloc returned")
            }
        };
        report(rt, DefectKind::InvalidFree, (site, 0), site, msg);
        return Freed::Bad;
    };
    let b = rt.heap.blocks[slot][i];
    if let Some(d) = b.free {
        let msg = format!("{t} {what}s {} already freed by {}{}", describe(&b), d.thread, at(d.site));
        report(rt, DefectKind::DoubleFree, (d.site, site), site, msg);
        return Freed::Bad;
    }
    let tracking = rt.mem.tracking();
    let clock = if tracking { rt.mem.detector.epoch(t) } else { 0 };
    rt.heap.blocks[slot][i].free = Some(Death { thread: t, clock, site });
    let len = b.size.max(1).div_ceil(GRANULE) * GRANULE;
    if let Some(a) = rt.arena.as_mut() {
        a.shadow_mut().poison(p, len);
    }
    if tracking {
        for r in rt.mem.detector.on_free(t, p, len, site) {
            let what = format!("offset {} of {}", r.addr.saturating_sub(b.start), describe(&b));
            let access = (r.first.thread, r.first.site, verb(r.first.write));
            unordered_end(rt, DefectKind::UseAfterFree, &what, (t, site), access);
        }
    }
    Freed::Block(b.size)
}

/// Thread `t` takes its `Exit` step (pending at `site`): its stack is dead from now on.
/// Called before the race detector sees the step.
pub(crate) fn on_thread_exit(rt: &mut Rt, t: ThreadId, site: Site) {
    let s = t.index();
    let h = &mut rt.heap;
    if h.exited.len() <= s {
        h.exited.resize(s + 1, None);
    }
    let tracking = rt.mem.tracking();
    let clock = if tracking { rt.mem.detector.epoch(t) } else { 0 };
    h.exited[s] = Some(Death { thread: t, clock, site });
    h.any_exited = true;
    let (base, slot, n) = h.regions.stacks;
    // Only another thread's access to the stack can race with the exit: a thread whose
    // stack nobody else touched costs nothing here.
    if !tracking || s as u64 >= n || !h.foreign.get(s).copied().unwrap_or(false) {
        return;
    }
    let start = base + s as u64 * slot;
    for r in rt.mem.detector.on_free(t, start, slot, site) {
        let what = format!("0x{:x}", r.addr);
        let access = (r.first.thread, r.first.site, verb(r.first.write));
        unordered_end(rt, DefectKind::StackUseAfterExit, &what, (t, site), access);
    }
}

/// An instrumented access of `size` bytes at `addr` by the current thread, at `site`:
/// freed heap, a dead thread's stack, uninitialised heap bytes (read, unless
/// `uninit_check` is false: `memcpy` copying them). The hot path is
/// [`Shadow::freed`], one flag and the bounds of the stack slots.
#[inline]
pub(crate) fn on_access(rt: &mut Rt, addr: u64, size: u64, write: bool, uninit_check: bool, site: Site) {
    let Some(arena) = rt.arena.as_mut() else { return };
    let shadow = arena.shadow_mut();
    if shadow.poisoned(addr, size) {
        if shadow.freed(addr, size) {
            return freed_access(rt, addr, size, write, site);
        }
        if let Some(x) = shadow.first_outside(addr, size) {
            return overflow(rt, addr, x, size, write, site);
        }
    }
    if shadow.tracks_uninit() {
        if write {
            shadow.set_uninit(addr, size, false);
        } else if let Some(b) = shadow.first_uninit(addr, size).filter(|_| uninit_check) {
            uninit_read(rt, addr, b, size, site);
        }
    }
    if let Some(s) = slot_of(rt.heap.regions.stacks, addr) {
        if s != rt.current.index() {
            foreign_stack(rt, s, addr, size, write, site);
        }
    }
}

/// An access to the stack of another thread (slot `s`): remembered for its exit, and
/// checked against it if it already exited.
fn foreign_stack(rt: &mut Rt, s: usize, addr: u64, size: u64, write: bool, site: Site) {
    let h = &mut rt.heap;
    if h.foreign.len() <= s {
        h.foreign.resize(s + 1, false);
    }
    h.foreign[s] = true;
    h.any_foreign = true;
    if h.any_exited {
        if let Some(Some(d)) = h.exited.get(s).copied() {
            dead_stack(rt, d, addr, size, write, site);
        }
    }
}

/// Whether what `d` records happens before the current thread's point (always, when
/// happens-before is not tracked: `--memory none`).
fn ordered(rt: &mut Rt, d: Death) -> bool {
    let t = rt.current;
    !rt.mem.tracking() || rt.mem.detector.happens_before(d.thread, d.clock, t)
}

#[cold]
fn freed_access(rt: &mut Rt, addr: u64, size: u64, write: bool, site: Site) {
    let what = format!("{} {size} byte{}", verb(write), plural(size));
    freed_use(rt, addr, &what, verb(write), site);
}

/// A use of the freed heap byte at `addr`: `what` it did (`reads 4 bytes`, `locks the
/// mutex`), `verb` for a race (`reads`, `locks`).
#[cold]
fn freed_use(rt: &mut Rt, addr: u64, what: &str, verb: &str, site: Site) {
    let t = rt.current;
    let Some((slot, _)) = rt.arena.as_ref().and_then(|a| a.locate(addr)) else { return };
    let Some(b) = rt.heap.block(slot, addr).copied() else { return };
    let Some(d) = b.free else { return };
    let off = addr.saturating_sub(b.start);
    if ordered(rt, d) {
        let msg = format!("{t} {what} at offset {off} of {} after {} freed it{}", describe(&b), d.thread, at(d.site));
        report(rt, DefectKind::UseAfterFree, (d.site, site), site, msg);
    } else {
        let what = format!("offset {off} of {}", describe(&b));
        unordered_end(rt, DefectKind::UseAfterFree, &what, (d.thread, d.site), (t, site, verb));
    }
}

/// Thread `t` performs visible operation `a` at `site` (the executor, before the step's
/// happens-before): if `a` is on a synchronising object (a mutex, condition variable,
/// semaphore, read-write lock or barrier, named by its address) that lies in a freed heap
/// block, a use after free (or a race with the free).
pub(crate) fn on_sync(rt: &mut Rt, t: ThreadId, a: Action, site: Site) {
    use unfold_engine::action::ObjKind;
    let noun = match a.obj_kind() {
        Some(ObjKind::Mutex) => "mutex",
        Some(ObjKind::CondVar) => "condition variable",
        Some(ObjKind::Semaphore) => "semaphore",
        Some(ObjKind::RwLock) => "read-write lock",
        Some(ObjKind::Barrier) => "barrier",
        _ => return,
    };
    let Some(o) = a.object() else { return };
    let Some(arena) = rt.arena.as_ref() else { return };
    if !arena.shadow().freed(o.0, 1) {
        return;
    }
    // Reported as `t`'s (the executor runs between threads).
    let cur = rt.current;
    rt.current = t;
    freed_use(rt, o.0, &format!("uses the {noun}"), "uses", site);
    rt.current = cur;
}

/// An access of `size` bytes at `addr` whose byte `x` lies in a red zone or past the end
/// of a block: a heap buffer overflow, reported against the nearest block (the one `x`
/// is past the end of, or before the start of, whichever is closer).
#[cold]
fn overflow(rt: &mut Rt, addr: u64, x: u64, size: u64, write: bool, site: Site) {
    let t = rt.current;
    let Some((slot, _)) = rt.arena.as_ref().and_then(|a| a.locate(x)) else { return };
    let Some(b) = rt.heap.nearest(slot, x).copied() else { return };
    let (off, end) = (addr as i128 - b.start as i128, b.start + b.size);
    let whereto = match x.checked_sub(end) {
        Some(0) => "just past its end".to_string(),
        Some(n) => format!("{n} byte{} past its end", plural(n)),
        None => format!("{} byte{} before its start", b.start - x, plural(b.start - x)),
    };
    let msg = format!("{t} {} {size} byte{} at offset {off} of {}: {whereto}", verb(write), plural(size), describe(&b));
    report(rt, DefectKind::HeapBufferOverflow, (b.site, site), site, msg);
}

#[cold]
fn dead_stack(rt: &mut Rt, d: Death, addr: u64, size: u64, write: bool, site: Site) {
    let t = rt.current;
    let u = d.thread;
    if ordered(rt, d) {
        let msg =
            format!("{t} {} {size} byte{} of 0x{addr:x} after {u} exited{}", verb(write), plural(size), at(d.site));
        report(rt, DefectKind::StackUseAfterExit, (d.site, site), site, msg);
    } else {
        unordered_end(rt, DefectKind::StackUseAfterExit, &format!("0x{addr:x}"), (u, d.site), (t, site, verb(write)));
    }
}

#[cold]
fn uninit_read(rt: &mut Rt, addr: u64, byte: u64, size: u64, site: Site) {
    let t = rt.current;
    let Some((slot, _)) = rt.arena.as_ref().and_then(|a| a.locate(byte)) else { return };
    let Some(b) = rt.heap.block(slot, byte).copied() else { return };
    let msg = format!(
        "{t} reads {size} byte{} at offset {} of {}; byte {} was never written",
        plural(size),
        addr.saturating_sub(b.start),
        describe(&b),
        byte - b.start
    );
    report(rt, DefectKind::UninitRead, (b.site, site), site, msg);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shadow_marks_freed_granules_and_clears_them() {
        let base = 0x10_0000u64;
        let mut s = Shadow::new(base, 1 << 20).expect("reserve");
        assert!(!s.freed(base, 8));
        s.poison(base + 32, 24); // two granules: [32, 64)
        assert!(!s.freed(base + 16, 16));
        assert!(s.freed(base + 24, 16), "straddles into the freed granule");
        assert!(s.freed(base + 63, 1));
        assert!(!s.freed(base + 64, 8));
        // Outside the arena, below and above: never freed (and never read).
        assert!(!s.freed(base - 8, 8));
        assert!(!s.freed(base + (1 << 20), 8));
        assert!(!s.freed(u64::MAX - 3, 8));
        s.clear(0, 64);
        assert!(!s.freed(base + 32, 32));
    }

    #[test]
    fn red_zones_and_partial_granules_bound_every_block() {
        let base = 0x30_0000u64;
        let mut s = Shadow::new(base, 1 << 20).expect("reserve");
        // The arena's layout: header, payload rounded to 16, red zone.
        let (p, q, z) = (base + 16, base + 16 + 16 + 16 + 16, base + 0x100);
        s.allocated(p, 16); // [p, p + 16): red zones at p - 16 and p + 16
        s.allocated(q, 13); // [q, q + 13) in one granule
        s.allocated(z, 0);
        assert!(!s.poisoned(p, 16) && !s.poisoned(p + 8, 8));
        assert!(s.poisoned(p + 12, 8), "straddles into the red zone");
        assert_eq!(s.first_outside(p + 12, 8), Some(p + 16));
        assert_eq!(s.first_outside(p - 1, 1), Some(p - 1), "the header");
        assert!(!s.poisoned(q, 13) && !s.poisoned(q + 12, 1) && !s.poisoned(q + 8, 4));
        assert!(s.poisoned(q + 12, 2) && s.poisoned(q + 13, 1) && s.poisoned(q + 15, 1));
        assert_eq!(s.first_outside(q + 10, 4), Some(q + 13));
        assert_eq!(s.first_outside(q, 13), None, "the whole block, nothing past it");
        assert!(s.poisoned(z, 1), "an empty block has no byte");
        assert!(!s.freed(p + 12, 8), "a red zone is not freed memory");
        // A free turns the block (its partial granule too) into freed memory.
        s.poison(q, 16);
        assert!(s.freed(q + 4, 1) && s.poisoned(q + 4, 1));
        s.clear(0, 0x200);
        assert!(!s.poisoned(p - 16, 64) && s.first_outside(p - 16, 64).is_none());
    }

    #[test]
    fn an_out_of_bounds_byte_belongs_to_the_nearest_block() {
        let mut h = HeapCheck::default();
        let b = |start, size| Block { start, size, thread: ThreadId(1), site: 7, free: None };
        // Blocks of 8 and 16 bytes 48 bytes apart (header, payload, red zone).
        h.blocks = vec![vec![b(0x1010, 8), b(0x1040, 16)]];
        let near = |x| h.nearest(0, x).map(|b| b.start);
        assert_eq!(near(0x1000), Some(0x1010), "before the first block");
        assert_eq!(near(0x1018), Some(0x1010), "just past the end");
        assert_eq!(near(0x1028), Some(0x1010), "16 bytes past the end, 24 before the next");
        assert_eq!(near(0x103c), Some(0x1040), "4 bytes before the next block");
        assert_eq!(near(0x1050), Some(0x1040), "past the last block");
        assert_eq!(h.nearest(3, 0x1050).map(|b| b.start), None);
    }

    #[test]
    fn uninitialised_bits_follow_allocations_and_writes() {
        let base = 0x20_0000u64;
        let mut s = Shadow::new(base, 1 << 20).expect("reserve");
        s.set_uninit(base, 64, true);
        assert_eq!(s.first_uninit(base, 4), None, "not tracked yet");
        s.track_uninit().expect("reserve");
        s.set_uninit(base + 3, 21, true);
        assert_eq!(s.first_uninit(base, 8), Some(base + 3));
        s.set_uninit(base + 3, 2, false);
        assert_eq!(s.first_uninit(base, 8), Some(base + 5));
        s.set_uninit(base + 5, 19, false);
        assert_eq!(s.first_uninit(base, 64), None);
        s.set_uninit(base + 100, 3, true);
        s.copy_uninit(base + 100, base + 200, 4);
        assert_eq!(s.first_uninit(base + 200, 4), Some(base + 200));
        assert_eq!(s.first_uninit(base + 203, 1), None);
        s.clear(0, 256);
        assert_eq!(s.first_uninit(base, 256), None);
    }

    #[test]
    fn blocks_are_found_by_any_address_of_their_granules() {
        let mut h = HeapCheck::default();
        let b = |start, size| Block { start, size, thread: ThreadId(1), site: 7, free: None };
        h.blocks = vec![Vec::new(), vec![b(0x1010, 8), b(0x1030, 40), b(0x1070, 0)]];
        h.used = vec![1];
        let start = |a| h.block(1, a).map(|b| b.start);
        assert_eq!(start(0x1000), None, "the first header");
        assert_eq!(start(0x1010), Some(0x1010));
        assert_eq!(start(0x101f), Some(0x1010), "the padding of the granule");
        assert_eq!(start(0x1020), None, "the next block's header");
        assert_eq!(start(0x1057), Some(0x1030));
        assert_eq!(start(0x105f), Some(0x1030));
        assert_eq!(start(0x1070), Some(0x1070), "an empty block has one granule");
        assert_eq!(start(0x1080), None);
        assert_eq!(h.block(0, 0x1010).map(|b| b.start), None);
        assert_eq!(h.block(5, 0x1010).map(|b| b.start), None);
        h.reset();
        assert_eq!(h.block(1, 0x1010).map(|b| b.start), None, "a new execution forgets the blocks");
    }

    #[test]
    fn regions_name_slots() {
        assert_eq!(slot_of((1000, 100, 4), 1250), Some(2));
        assert_eq!(slot_of((1000, 100, 4), 1400), None);
        assert_eq!(slot_of((1000, 100, 4), 999), None);
        assert_eq!(slot_of((0, 0, 0), 5), None);
    }
}
