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
//! right after loading, and zeroes the part of each arena slot that was used.

use crate::RuntimeError;
use std::ffi::c_void;
use unfold_engine::ThreadId;

/// Number of thread slots (arena and stacks). A program whose exploration interns more
/// distinct threads is refused with a clear error.
pub const SLOTS: usize = 512;
/// Heap bytes per thread.
pub const ARENA_SLOT: usize = 64 << 20;
/// Stack bytes per thread, guard page included.
pub const STACK_SLOT: usize = 2 << 20;
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
}

/// The deterministic heap: one bump-allocated slot per thread.
#[derive(Debug)]
pub struct Arena {
    res: Reservation,
    // invariant: used[t] <= committed[t] <= ARENA_SLOT; bytes of slot t beyond used[t]
    // are zero.
    used: Vec<usize>,
    committed: Vec<usize>,
}

/// Allocation header: the payload size, for `realloc`.
const HDR: usize = 16;

impl Arena {
    /// Reserve the arena's address space.
    pub fn new() -> Result<Self, RuntimeError> {
        Ok(Arena { res: Reservation::new(SLOTS * ARENA_SLOT)?, used: vec![0; SLOTS], committed: vec![0; SLOTS] })
    }

    /// Whether `addr` lies in the arena; returns the owning thread slot and offset.
    pub fn locate(&self, addr: u64) -> Option<(usize, usize)> {
        let a = addr as usize;
        (a >= self.res.base && a < self.res.base + self.res.len)
            .then(|| ((a - self.res.base) / ARENA_SLOT, (a - self.res.base) % ARENA_SLOT))
    }

    /// Allocate `size` bytes (zeroed) for thread `t`, 16-byte aligned. Null when the
    /// thread's slot is exhausted.
    pub fn alloc(&mut self, t: ThreadId, size: usize) -> *mut u8 {
        let s = t.index();
        if s >= SLOTS {
            return std::ptr::null_mut();
        }
        let need = size.max(1).div_ceil(16) * 16 + HDR;
        let start = self.used[s];
        if start + need > ARENA_SLOT {
            return std::ptr::null_mut();
        }
        if start + need > self.committed[s] {
            let new_end = (start + need).max(self.committed[s] * 2).max(64 << 10).div_ceil(PAGE) * PAGE;
            let new_end = new_end.min(ARENA_SLOT);
            if !self.res.commit(s * ARENA_SLOT + self.committed[s], new_end - self.committed[s]) {
                return std::ptr::null_mut();
            }
            self.committed[s] = new_end;
        }
        self.used[s] = start + need;
        let p = (self.res.base + s * ARENA_SLOT + start) as *mut u8;
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

    /// Forget every allocation, zeroing what was used.
    pub fn reset(&mut self) {
        for s in 0..SLOTS {
            if self.used[s] > 0 {
                // SAFETY: [slot start, slot start + used) is committed memory of our
                // reservation; no live reference points into it between executions.
                unsafe { std::ptr::write_bytes((self.res.base + s * ARENA_SLOT) as *mut u8, 0, self.used[s]) };
                self.used[s] = 0;
            }
        }
    }
}

/// The coroutine stacks: one fixed slot per thread.
#[derive(Debug)]
pub struct Stacks {
    res: Reservation,
    ready: Vec<bool>,
}

impl Stacks {
    /// Reserve the stacks' address space.
    pub fn new() -> Result<Self, RuntimeError> {
        Ok(Stacks { res: Reservation::new(SLOTS * STACK_SLOT)?, ready: vec![false; SLOTS] })
    }

    /// The stack of thread `t`, committing it on first use (the lowest page stays a
    /// guard page).
    pub fn get(&mut self, t: ThreadId) -> Option<SlotStack> {
        let s = t.index();
        if s >= SLOTS {
            return None;
        }
        if !self.ready[s] {
            if !self.res.commit(s * STACK_SLOT + PAGE, STACK_SLOT - PAGE) {
                return None;
            }
            self.ready[s] = true;
        }
        let limit = self.res.base + s * STACK_SLOT;
        Some(SlotStack { base: limit + STACK_SLOT, limit })
    }

    /// Whether `addr` lies in a stack; returns the owning thread slot.
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

/// A coroutine stack in a fixed slot of [`Stacks`].
#[derive(Debug)]
pub struct SlotStack {
    base: usize,
    limit: usize,
}

// SAFETY: base and limit delimit committed, page-aligned (hence STACK_ALIGNMENT-aligned)
// memory reserved for this thread slot; the guard page at `limit` is included, and the
// slot is used by at most one coroutine at a time (one per ThreadId per execution).
unsafe impl corosensei::stack::Stack for SlotStack {
    fn base(&self) -> corosensei::stack::StackPointer {
        corosensei::stack::StackPointer::new(self.base).expect("stack base is not null")
    }
    fn limit(&self) -> corosensei::stack::StackPointer {
        corosensei::stack::StackPointer::new(self.limit).expect("stack limit is not null")
    }
}

/// The writable part of the loaded program image, and a copy of it as loaded.
#[derive(Debug, Clone)]
pub struct ImageSnapshot {
    ranges: Vec<(usize, Vec<u8>)>,
}

impl ImageSnapshot {
    /// Copy the ranges `(start, len)` (writable memory of the loaded image).
    ///
    /// # Safety
    /// Every range must be mapped readable and writable for the life of the process.
    pub unsafe fn take(ranges: &[(usize, usize)]) -> Self {
        let ranges = ranges
            .iter()
            .map(|&(start, len)| {
                // SAFETY: by the contract the range is mapped and readable.
                let bytes = unsafe { std::slice::from_raw_parts(start as *const u8, len) }.to_vec();
                (start, bytes)
            })
            .collect();
        ImageSnapshot { ranges }
    }

    /// Copy the snapshot back.
    pub fn restore(&self) {
        for (start, bytes) in &self.ranges {
            // SAFETY: `take`'s contract: the range is mapped writable for the life of the
            // process; no Rust reference points into the program's data.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), *start as *mut u8, bytes.len()) };
        }
    }

    /// Total bytes restored per reset.
    pub fn bytes(&self) -> usize {
        self.ranges.iter().map(|r| r.1.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_threads_nth_allocation_lands_at_the_same_address_whatever_others_do() {
        let mut arena = Arena::new().expect("reserve");
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
        let mut arena = Arena::new().expect("reserve");
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
    fn stacks_are_fixed_per_thread() {
        let mut stacks = Stacks::new().expect("reserve");
        let a = stacks.get(ThreadId(3)).expect("slot");
        let b = stacks.get(ThreadId(3)).expect("slot");
        assert_eq!((a.base, a.limit), (b.base, b.limit));
        assert_eq!(a.base - a.limit, STACK_SLOT);
        assert_eq!(stacks.locate(a.base as u64 - 8), Some(3));
        assert!(stacks.get(ThreadId(SLOTS as u16)).is_none());
    }
}
