//! Memory with stable addresses: the program image, the per-thread heap arena and the
//! per-thread coroutine stacks.
//!
//! Stable identities (design brief) need every address a program can name a mutex by to
//! be the same in every execution with the same causal history, in every worker process:
//! - the program image is `dlopen`ed once in the parent, before any worker is forked, so
//!   its globals have one address for the whole run;
//! - the heap arena and the stacks are reserved in the parent at startup (`PROT_NONE`,
//!   no memory committed) and carved into one fixed slot per [`ThreadId`]: thread t's
//!   n-th allocation lands at the same address whatever the other threads did, and a
//!   mutex on thread t's stack has the same address in every execution.
//!
//! Reset between executions of a persistent worker ([`ImageSnapshot::restore`],
//! [`Arena::reset`]) copies the writable segments of the image back from a snapshot taken
//! right after loading, and zeroes the part of each arena slot that was used; large runs
//! of zeros (`.bss`, a big heap) are dropped with `MADV_DONTNEED` instead, so that the
//! cost follows the pages an execution touched, not the size of the data.

use crate::RuntimeError;
use std::ffi::c_void;
use unfold_engine::ThreadId;

/// Number of thread slots (arena and stacks). A program whose exploration interns more
/// distinct threads is refused with a clear error.
pub const SLOTS: usize = 512;
/// Heap bytes per thread by default (`--heap-size`).
pub const ARENA_SLOT: usize = 256 << 20;
/// Smallest and largest heap per thread (the arena reserves [`SLOTS`] times as much
/// address space: 8 TiB at most, of the 128 TiB of a process).
pub const MIN_HEAP: usize = 1 << 20;
pub const MAX_HEAP: usize = 16 << 30;
/// Address space per thread stack: the stack at its top, the guard region below.
pub const STACK_SLOT: usize = 256 << 20;
/// Largest stack a thread can have (`pthread_attr_setstacksize`, `--stack-size`).
pub const MAX_STACK: usize = 128 << 20;
/// Smallest stack (glibc's `PTHREAD_STACK_MIN`).
pub const MIN_STACK: usize = 16 << 10;
/// Stack size of a thread without `pthread_attr_setstacksize` (main included), like
/// Linux's default `ulimit -s`.
pub const DEFAULT_STACK: usize = 8 << 20;
const PAGE: usize = 4096;

/// A reserved, initially inaccessible range of address space.
#[derive(Debug)]
struct Reservation {
    base: usize,
    len: usize,
}

impl Reservation {
    fn new(len: usize) -> Result<Self, RuntimeError> {
        // SAFETY: a fresh anonymous private mapping at an address chosen by the kernel;
        // it overlaps nothing and PROT_NONE commits no memory.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(RuntimeError::Os("mmap (address space reservation)", std::io::Error::last_os_error()));
        }
        Ok(Reservation { base: p as usize, len })
    }

    /// Make `[off, off+len)` readable and writable.
    fn commit(&self, off: usize, len: usize) -> bool {
        debug_assert!(off + len <= self.len);
        // SAFETY: the range lies inside our own reservation (asserted above), which no
        // Rust object refers to; MAP_FIXED only replaces our own PROT_NONE pages.
        let p = unsafe {
            libc::mmap(
                (self.base + off) as *mut c_void,
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        p != libc::MAP_FAILED
    }

    /// Make `[off, off+len)` inaccessible again, dropping its memory.
    fn decommit(&self, off: usize, len: usize) -> bool {
        debug_assert!(off + len <= self.len);
        // SAFETY: the range lies inside our own reservation (asserted above); no Rust
        // object refers to it (it held a coroutine stack, which is not in use).
        let p = unsafe {
            libc::mmap(
                (self.base + off) as *mut c_void,
                len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        p != libc::MAP_FAILED
    }
}

/// The deterministic heap: one bump-allocated slot per thread.
#[derive(Debug)]
pub struct Arena {
    res: Reservation,
    /// Heap bytes per thread.
    slot: usize,
    // invariant: used[t] <= committed[t] <= slot; bytes of slot t beyond used[t]
    // are zero; committed[t] never decreases (see `committed`).
    used: Vec<usize>,
    committed: Vec<usize>,
    /// Freed blocks and uninitialised bytes ([`crate::heapcheck`]).
    shadow: crate::heapcheck::Shadow,
}

/// Allocation header: the payload size, for `realloc`. It is also the red zone before
/// the block ([`crate::heapcheck`]: an access to it is a heap buffer overflow).
pub const HDR: usize = 16;
/// Red zone after each block's payload (rounded up to 16 bytes): with the next block's
/// header, 32 bytes no instrumented access may touch separate two payloads.
pub const REDZONE: usize = 16;

impl Arena {
    /// Reserve the arena's address space: `slot` bytes of heap per thread (page
    /// multiple, from [`MIN_HEAP`] to [`MAX_HEAP`]), and its shadow.
    pub fn new(slot: usize) -> Result<Self, RuntimeError> {
        let slot = slot.clamp(MIN_HEAP, MAX_HEAP).div_ceil(PAGE) * PAGE;
        let res = Reservation::new(SLOTS * slot)?;
        let shadow = crate::heapcheck::Shadow::new(res.base as u64, res.len as u64)?;
        Ok(Arena { res, slot, used: vec![0; SLOTS], committed: vec![0; SLOTS], shadow })
    }

    /// Heap bytes per thread.
    pub fn slot_size(&self) -> usize {
        self.slot
    }

    /// The shadow of the arena (freed blocks, uninitialised bytes).
    pub fn shadow(&self) -> &crate::heapcheck::Shadow {
        &self.shadow
    }

    /// The shadow of the arena, to update.
    pub fn shadow_mut(&mut self) -> &mut crate::heapcheck::Shadow {
        &mut self.shadow
    }

    /// Whether `addr` lies in the arena; returns the owning thread slot and offset.
    pub fn locate(&self, addr: u64) -> Option<(usize, usize)> {
        let a = addr as usize;
        (a >= self.res.base && a < self.res.base + self.res.len)
            .then(|| ((a - self.res.base) / self.slot, (a - self.res.base) % self.slot))
    }

    /// Whether `[addr, addr + len)` lies in the committed part of one thread's slot, so
    /// reading it cannot fault. Committed memory is never given back (a reset only zeroes
    /// or drops pages, which stay mapped), so the answer stays true for the life of the
    /// worker.
    pub fn committed(&self, addr: u64, len: usize) -> bool {
        let Some((s, off)) = self.locate(addr) else { return false };
        off.checked_add(len).is_some_and(|end| end <= self.committed[s])
    }

    /// Allocate `size` bytes (zeroed) for thread `t`, 16-byte aligned. Null when the
    /// thread's slot is exhausted. Layout: the header ([`HDR`]), the payload rounded up
    /// to 16 bytes, the red zone ([`REDZONE`]).
    pub fn alloc(&mut self, t: ThreadId, size: usize) -> *mut u8 {
        let s = t.index();
        if s >= SLOTS {
            return std::ptr::null_mut();
        }
        let Some(need) = size.max(1).checked_next_multiple_of(16).and_then(|n| n.checked_add(HDR + REDZONE)) else {
            return std::ptr::null_mut();
        };
        let start = self.used[s];
        if need > self.slot - start {
            return std::ptr::null_mut();
        }
        if start + need > self.committed[s] {
            let new_end = (start + need).max(self.committed[s] * 2).max(64 << 10).div_ceil(PAGE) * PAGE;
            let new_end = new_end.min(self.slot);
            if !self.res.commit(s * self.slot + self.committed[s], new_end - self.committed[s]) {
                return std::ptr::null_mut();
            }
            self.committed[s] = new_end;
        }
        self.used[s] = start + need;
        let p = (self.res.base + s * self.slot + start) as *mut u8;
        // SAFETY: [p, p+need) is committed memory of slot s that nothing else uses; the
        // header is 16-byte aligned.
        unsafe {
            (p as *mut usize).write(size);
            p.add(HDR)
        }
    }

    /// The size recorded for an allocation returned by [`Arena::alloc`].
    ///
    /// # Safety
    /// `p` must have been returned by `alloc` in the current execution.
    pub unsafe fn size_of(&self, p: *mut u8) -> usize {
        // SAFETY: by the contract, a header precedes p.
        unsafe { (p.sub(HDR) as *const usize).read() }
    }

    /// Fill `c` (reusing its buffers) with the heap as it is now, for
    /// [`Arena::restore`]: each used slot's bytes and shadow.
    pub fn checkpoint(&self, c: &mut ArenaCheckpoint) {
        let mut k = 0;
        for s in 0..SLOTS {
            let n = self.used[s];
            if n > 0 {
                if k == c.slots.len() {
                    c.slots.push(Default::default());
                }
                let (slot, bytes, shadow) = &mut c.slots[k];
                let start = self.res.base + s * self.slot;
                bytes.clear();
                // SAFETY: [start, start + used) is committed memory of slot s.
                bytes.extend_from_slice(unsafe { std::slice::from_raw_parts(start as *const u8, n) });
                self.shadow.save((s * self.slot) as u64, n as u64, shadow);
                *slot = s;
                k += 1;
            }
        }
        c.slots.truncate(k);
    }

    /// Bytes a checkpoint of the heap would copy now.
    pub fn used_bytes(&self) -> usize {
        self.used.iter().sum()
    }

    /// Put the heap back as [`Arena::checkpoint`] found it: what was allocated since is
    /// zeroed (allocations are zero), the rest copied back.
    pub fn restore(&mut self, c: &ArenaCheckpoint) {
        self.reset();
        for (s, bytes, shadow) in &c.slots {
            let start = self.res.base + s * self.slot;
            // SAFETY: the slot's first `bytes.len()` bytes were committed when the
            // checkpoint was taken and committed memory stays committed (`committed`).
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), start as *mut u8, bytes.len()) };
            self.shadow.load((s * self.slot) as u64, bytes.len() as u64, shadow);
            self.used[*s] = bytes.len();
        }
    }

    /// Forget every allocation, zeroing what was used.
    pub fn reset(&mut self) {
        for s in 0..SLOTS {
            if self.used[s] > 0 {
                let start = self.res.base + s * self.slot;
                // A large heap is given back to the kernel (zero on the next touch),
                // which costs in proportion to the pages touched; [start, committed) is
                // committed private anonymous memory of our reservation.
                let len = self.used[s].div_ceil(PAGE) * PAGE;
                // SAFETY: as above; no live reference points into it between executions.
                let dropped = self.used[s] >= DROP_MIN
                    && unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_DONTNEED) } == 0;
                if !dropped {
                    // SAFETY: [slot start, slot start + used) is committed memory of our
                    // reservation; no live reference points into it between executions.
                    unsafe { std::ptr::write_bytes(start as *mut u8, 0, self.used[s]) };
                }
                self.shadow.clear((s * self.slot) as u64, self.used[s] as u64);
                self.used[s] = 0;
            }
        }
    }
}

/// The heap of an execution at a step ([`Arena::checkpoint`]): per used thread slot,
/// its bytes and their shadow.
#[derive(Debug, Default)]
pub struct ArenaCheckpoint {
    slots: Vec<(usize, Vec<u8>, Vec<u8>)>,
}

impl ArenaCheckpoint {
    /// The bytes it holds.
    pub fn bytes(&self) -> usize {
        self.slots.iter().map(|(_, b, s)| b.len() + s.len()).sum()
    }
}

/// The coroutine stacks: one fixed slot of [`STACK_SLOT`] bytes of address space per
/// thread. A stack of size S occupies the top S bytes of its slot; the rest of the slot
/// stays `PROT_NONE` and is the stack's guard region (at least `STACK_SLOT - MAX_STACK`
/// bytes, so even a large frame that skips stack probes cannot land in the next slot).
#[derive(Debug)]
pub struct Stacks {
    res: Reservation,
    // invariant: committed[s] bytes at the top of slot s are readable and writable, the
    // rest of the slot is PROT_NONE.
    committed: Vec<usize>,
}

impl Stacks {
    /// Reserve the stacks' address space.
    pub fn new() -> Result<Self, RuntimeError> {
        Ok(Stacks { res: Reservation::new(SLOTS * STACK_SLOT)?, committed: vec![0; SLOTS] })
    }

    /// The stack of thread `t`, `size` bytes (rounded up to pages, at least
    /// [`MIN_STACK`]), committing it on first use or when the size changed. None when
    /// `t` has no slot or `size` exceeds [`MAX_STACK`].
    pub fn get(&mut self, t: ThreadId, size: usize) -> Option<SlotStack> {
        let s = t.index();
        if s >= SLOTS || size > MAX_STACK {
            return None;
        }
        let size = size.max(MIN_STACK).div_ceil(PAGE) * PAGE;
        let top = s * STACK_SLOT + STACK_SLOT;
        let have = self.committed[s];
        if size > have {
            if !self.res.commit(top - size, size - have) {
                return None;
            }
        } else if size < have && !self.res.decommit(top - have, have - size) {
            return None;
        }
        self.committed[s] = size;
        Some(SlotStack { base: self.res.base + top, limit: self.res.base + top - size })
    }

    /// The top of thread `t`'s stack and the lowest address committed below it (`None`
    /// when `t` has no slot).
    pub fn committed_range(&self, t: ThreadId) -> Option<(usize, usize)> {
        let s = t.index();
        (s < SLOTS).then(|| {
            let top = self.res.base + s * STACK_SLOT + STACK_SLOT;
            (top - self.committed[s], top)
        })
    }

    /// The slots: (base address, bytes per slot, number of slots).
    pub fn bounds(&self) -> (u64, u64, u64) {
        (self.res.base as u64, STACK_SLOT as u64, SLOTS as u64)
    }

    /// Whether `addr` lies in a stack slot (the stack or its guard region); returns the
    /// owning thread slot.
    pub fn locate(&self, addr: u64) -> Option<usize> {
        let a = addr as usize;
        (a >= self.res.base && a < self.res.base + self.res.len).then(|| (a - self.res.base) / STACK_SLOT)
    }

    /// The offset of `addr` from the start of its slot (meaningful when [`Stacks::locate`]
    /// finds it).
    pub fn offset_in_slot(&self, addr: u64) -> u64 {
        ((addr as usize).wrapping_sub(self.res.base) % STACK_SLOT) as u64
    }
}

/// Parse a size such as `8M`, `512K`, `1G` or `65536` (bytes).
pub fn parse_size(s: &str) -> Option<usize> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().last()? {
        (i, 'k' | 'K') => (&s[..i], 1 << 10),
        (i, 'm' | 'M') => (&s[..i], 1 << 20),
        (i, 'g' | 'G') => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<usize>().ok()?.checked_mul(mult)
}

/// A coroutine stack in a fixed slot of [`Stacks`].
#[derive(Debug)]
pub struct SlotStack {
    base: usize,
    limit: usize,
}

// SAFETY: base and limit delimit committed, page-aligned (hence STACK_ALIGNMENT-aligned)
// memory reserved for this thread slot, below which the slot's PROT_NONE guard region
// lies; the slot is used by at most one coroutine at a time (one per ThreadId per
// execution).
unsafe impl corosensei::stack::Stack for SlotStack {
    fn base(&self) -> corosensei::stack::StackPointer {
        corosensei::stack::StackPointer::new(self.base).expect("stack base is not null")
    }
    fn limit(&self) -> corosensei::stack::StackPointer {
        corosensei::stack::StackPointer::new(self.limit).expect("stack limit is not null")
    }
}

/// Per-thread blocks of the program's thread-local storage (its `PT_TLS` segment): one
/// fixed slot per thread, so a thread's `__thread` variable has the same address in
/// every execution. A block is initialised from the image when its thread starts.
#[derive(Debug)]
pub struct TlsBlocks {
    res: Reservation,
    slot: usize,
    ready: Vec<bool>,
    /// Address of the initialisation image (`.tdata`) in the loaded program.
    init: usize,
    filesz: usize,
    memsz: usize,
}

/// Largest TLS segment (`.tdata` + `.tbss`) supported.
pub const MAX_TLS: usize = 16 << 20;

impl TlsBlocks {
    /// Reserve the blocks for a TLS segment whose image of `filesz` bytes is at `init`,
    /// `memsz` bytes in all. Blocks are page-aligned, which satisfies any alignment up to
    /// a page.
    pub fn new(init: usize, filesz: usize, memsz: usize) -> Result<Self, RuntimeError> {
        let slot = memsz.max(1).div_ceil(PAGE) * PAGE;
        Ok(TlsBlocks { res: Reservation::new(SLOTS * slot)?, slot, ready: vec![false; SLOTS], init, filesz, memsz })
    }

    /// Initialise thread `t`'s block from the image and return its address (None when
    /// `t` has no slot).
    /// The bytes of a thread's block in use.
    pub fn block_len(&self) -> usize {
        self.memsz
    }

    pub fn init(&mut self, t: ThreadId) -> Option<usize> {
        let s = t.index();
        if s >= SLOTS {
            return None;
        }
        if !self.ready[s] {
            if !self.res.commit(s * self.slot, self.slot) {
                return None;
            }
            self.ready[s] = true;
        }
        let block = self.res.base + s * self.slot;
        // SAFETY: [block, block + memsz) is committed memory of our reservation that only
        // thread t's TLS uses, and t has not started yet in this execution; the image
        // [init, init + filesz) is mapped read-only in the loaded program (filesz <=
        // memsz, checked when the segment was read).
        unsafe {
            std::ptr::copy_nonoverlapping(self.init as *const u8, block as *mut u8, self.filesz);
            std::ptr::write_bytes((block + self.filesz) as *mut u8, 0, self.memsz - self.filesz);
        }
        Some(block)
    }

    /// The blocks: (base address, bytes per block, number of blocks).
    pub fn bounds(&self) -> (u64, u64, u64) {
        (self.res.base as u64, self.slot as u64, SLOTS as u64)
    }

    /// Whether `addr` lies in a TLS block; returns the owning thread slot.
    pub fn locate(&self, addr: u64) -> Option<usize> {
        self.locate_offset(addr).map(|(s, _)| s)
    }

    /// Like [`TlsBlocks::locate`], with the offset of `addr` in the thread's block.
    pub fn locate_offset(&self, addr: u64) -> Option<(usize, u64)> {
        let a = addr as usize;
        (a >= self.res.base && a < self.res.base + SLOTS * self.slot)
            .then(|| ((a - self.res.base) / self.slot, ((a - self.res.base) % self.slot) as u64))
    }
}

/// The writable part of the loaded program image, and a copy of it as loaded.
///
/// Restoring copies the copy back, except for large ranges, whose cost follows the pages
/// the execution touched rather than their size (a 512 MiB `.bss` cost a 512 MiB copy
/// per execution):
/// - runs of `.bss` (anonymous memory that was all zero when loaded) are given back to
///   the kernel (`madvise(MADV_DONTNEED)`): they read as zeros again;
/// - other large ranges (initialised data) are kept in a memory file (`memfd`) and
///   mapped again over the range, privately (`mmap(MAP_FIXED | MAP_PRIVATE)`): the pages
///   the execution wrote are discarded, the others were never copied.
///
/// Small ranges are cheaper to copy than to fault in again.
#[derive(Debug, Clone)]
pub struct ImageSnapshot {
    ranges: Vec<(usize, Vec<u8>)>,
    /// Page-aligned anonymous ranges that were all zero: `(start, len)`.
    zero: Vec<(usize, usize)>,
    /// Page-aligned ranges and the memory file holding their contents as loaded:
    /// `(start, len, fd)` (the fd is inherited by the workers and never closed).
    remap: Vec<(usize, usize, libc::c_int)>,
}

/// Zero runs at least this long are dropped instead of zeroed.
const DROP_MIN: usize = 256 << 10;

impl ImageSnapshot {
    /// Copy the ranges `(start, len)` (writable memory of the loaded image); `bss` are
    /// page-aligned anonymous parts of them.
    ///
    /// # Safety
    /// Every range must be mapped readable and writable for the life of the process, and
    /// every `bss` range private anonymous memory inside one of them.
    pub unsafe fn take(ranges: &[(usize, usize)], bss: &[(usize, usize)]) -> Self {
        let mut snap = ImageSnapshot { ranges: Vec::new(), zero: Vec::new(), remap: Vec::new() };
        for &(start, len) in ranges {
            // SAFETY: by the contract the range is mapped and readable.
            let bytes = unsafe { std::slice::from_raw_parts(start as *const u8, len) };
            let end = start + len;
            // A long run of .bss inside the range that is still all zero.
            let run = bss.iter().find(|&&(z, zl)| z >= start && z + zl <= end && zl >= DROP_MIN);
            match run {
                Some(&(z, zl)) if bytes[z - start..z - start + zl].iter().all(|&b| b == 0) => {
                    snap.keep(start, &bytes[..z - start]);
                    snap.zero.push((z, zl));
                    snap.keep(z + zl, &bytes[z - start + zl..]);
                }
                _ => snap.keep(start, bytes),
            }
        }
        snap
    }

    /// Remember `bytes`, the contents of `[start, start + len)`: copied, or for a large
    /// range its page-aligned interior in a memory file.
    fn keep(&mut self, start: usize, bytes: &[u8]) {
        let end = start + bytes.len();
        let (a, b) = (start.div_ceil(PAGE) * PAGE, end / PAGE * PAGE);
        if b >= a + DROP_MIN {
            if let Some(fd) = memory_file(&bytes[a - start..b - start]) {
                self.ranges.push((start, bytes[..a - start].to_vec()));
                self.remap.push((a, b - a, fd));
                self.ranges.push((b, bytes[b - start..].to_vec()));
                return;
            }
        }
        self.ranges.push((start, bytes.to_vec()));
    }

    /// Copy the snapshot back.
    pub fn restore(&self) {
        for (start, bytes) in &self.ranges {
            // SAFETY: `take`'s contract: the range is mapped writable for the life of the
            // process; no Rust reference points into the program's data.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), *start as *mut u8, bytes.len()) };
        }
        for &(start, len) in &self.zero {
            // SAFETY: `take`'s contract: private anonymous memory of the image, which
            // reads as zeros after MADV_DONTNEED; nothing refers into it between
            // executions.
            if unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_DONTNEED) } != 0 {
                // SAFETY: as above; writable.
                unsafe { std::ptr::write_bytes(start as *mut u8, 0, len) };
            }
        }
        for &(start, len, fd) in &self.remap {
            // SAFETY: `take`'s contract: [start, start + len) is page-aligned writable
            // memory of the image that nothing refers into between executions; it is
            // replaced by a private mapping of the memory file holding its contents as
            // loaded, with the same protection.
            let p = unsafe {
                libc::mmap(
                    start as *mut libc::c_void,
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_FIXED,
                    fd,
                    0,
                )
            };
            if p == libc::MAP_FAILED {
                // The mapping is unchanged: read the contents back instead.
                // SAFETY: writing into the range (as above) from our own file.
                let n = unsafe { libc::pread(fd, start as *mut libc::c_void, len, 0) };
                assert_eq!(n, len as isize, "unfold bug: cannot restore the program's data");
            }
        }
    }

    /// Total bytes restored per reset (copied or dropped).
    pub fn bytes(&self) -> usize {
        self.ranges.iter().map(|r| r.1.len()).sum::<usize>()
            + self.zero.iter().map(|z| z.1).sum::<usize>()
            + self.remap.iter().map(|r| r.1).sum::<usize>()
    }
}

/// A memory file holding `bytes` (None: not available).
fn memory_file(bytes: &[u8]) -> Option<libc::c_int> {
    // SAFETY: memfd_create with a C string name; the descriptor is ours.
    let fd = unsafe { libc::memfd_create(c"unfold-image".as_ptr(), 0) };
    if fd < 0 {
        return None;
    }
    let mut done = 0;
    while done < bytes.len() {
        // SAFETY: writing from a slice we hold into our own descriptor.
        let n = unsafe { libc::write(fd, bytes[done..].as_ptr() as *const libc::c_void, bytes.len() - done) };
        if n <= 0 {
            // SAFETY: closing our own descriptor.
            unsafe { libc::close(fd) };
            return None;
        }
        done += n as usize;
    }
    Some(fd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_threads_nth_allocation_lands_at_the_same_address_whatever_others_do() {
        let mut arena = Arena::new(ARENA_SLOT).expect("reserve");
        let (t1, t2) = (ThreadId(1), ThreadId(2));
        let a1 = arena.alloc(t1, 10);
        let _ = arena.alloc(t2, 1000);
        let a2 = arena.alloc(t1, 24);
        arena.reset();
        // Another interleaving: t2 allocates more, and first.
        let _ = arena.alloc(t2, 5);
        let _ = arena.alloc(t2, 7);
        let b1 = arena.alloc(t1, 10);
        let b2 = arena.alloc(t1, 24);
        assert_eq!((a1, a2), (b1, b2));
        assert_eq!(a1 as usize % 16, 0);
        assert_eq!(arena.locate(a1 as u64).map(|l| l.0), Some(1));
    }

    #[test]
    fn reset_returns_zeroed_memory_and_sizes_are_recorded() {
        let mut arena = Arena::new(ARENA_SLOT).expect("reserve");
        let t = ThreadId(0);
        let p = arena.alloc(t, 100);
        // SAFETY: p points to 100 bytes just allocated.
        unsafe {
            std::ptr::write_bytes(p, 0xab, 100);
            assert_eq!(arena.size_of(p), 100);
        }
        arena.reset();
        let q = arena.alloc(t, 100);
        assert_eq!(p, q);
        // SAFETY: q points to 100 bytes just allocated.
        let bytes = unsafe { std::slice::from_raw_parts(q, 100) };
        assert!(bytes.iter().all(|&b| b == 0));
        // Larger than what was committed so far: grows the slot.
        assert!(!arena.alloc(t, 1 << 20).is_null());
        assert!(arena.alloc(t, ARENA_SLOT).is_null());
    }

    #[test]
    fn stacks_are_fixed_per_thread_and_sized_on_demand() {
        let mut stacks = Stacks::new().expect("reserve");
        let a = stacks.get(ThreadId(3), DEFAULT_STACK).expect("slot");
        let b = stacks.get(ThreadId(3), DEFAULT_STACK).expect("slot");
        assert_eq!((a.base, a.limit), (b.base, b.limit));
        assert_eq!(a.base - a.limit, DEFAULT_STACK);
        assert_eq!(stacks.locate(a.base as u64 - 8), Some(3));
        // The guard region below the stack belongs to the same slot.
        assert_eq!(stacks.locate(a.limit as u64 - 4096), Some(3));
        // SAFETY: the whole stack is committed; write its lowest and highest words.
        unsafe {
            (a.limit as *mut u64).write(1);
            ((a.base - 8) as *mut u64).write(2);
        }
        // A larger stack keeps its top (and so the addresses of its frames) and grows
        // down; a smaller one shrinks the committed part.
        let c = stacks.get(ThreadId(3), 3 * DEFAULT_STACK).expect("larger");
        assert_eq!((c.base, c.base - c.limit), (a.base, 3 * DEFAULT_STACK));
        // SAFETY: the new lowest word is committed.
        unsafe { (c.limit as *mut u64).write(3) };
        let d = stacks.get(ThreadId(3), 100).expect("smaller");
        assert_eq!(d.base - d.limit, MIN_STACK);
        assert!(stacks.get(ThreadId(3), MAX_STACK + 1).is_none());
        assert!(stacks.get(ThreadId(SLOTS as u16), DEFAULT_STACK).is_none());
    }

    #[test]
    fn sizes_parse_with_suffixes() {
        assert_eq!(parse_size("8M"), Some(8 << 20));
        assert_eq!(parse_size("512k"), Some(512 << 10));
        assert_eq!(parse_size("1G"), Some(1 << 30));
        assert_eq!(parse_size("65536"), Some(65536));
        assert_eq!(parse_size("M"), None);
        assert_eq!(parse_size("x1"), None);
    }

    #[test]
    fn tls_blocks_are_fixed_per_thread_and_reinitialised() {
        let image: [u8; 8] = [1, 2, 3, 4, 5, 6, 7, 8];
        let mut tls = TlsBlocks::new(image.as_ptr() as usize, 8, 64).expect("reserve");
        let a = tls.init(ThreadId(2)).expect("slot");
        let b = tls.init(ThreadId(5)).expect("slot");
        assert_ne!(a, b);
        assert_eq!(a % 4096, 0);
        // SAFETY: a block has 64 bytes.
        let bytes = unsafe { std::slice::from_raw_parts_mut(a as *mut u8, 64) };
        assert_eq!(&bytes[..8], &image);
        assert!(bytes[8..].iter().all(|&x| x == 0));
        bytes[0] = 99;
        bytes[40] = 7;
        // The next execution: same address, pristine contents.
        assert_eq!(tls.init(ThreadId(2)), Some(a));
        // SAFETY: as above.
        let bytes = unsafe { std::slice::from_raw_parts(a as *const u8, 64) };
        assert_eq!((bytes[0], bytes[40]), (1, 0));
        assert_eq!(tls.locate(b as u64 + 10), Some(5));
    }
}
