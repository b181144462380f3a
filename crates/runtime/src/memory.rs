//! Shared memory made visible: the Rust side of the thread-sanitizer interface
//! (`tsan.c`), for programs compiled with `-fsanitize=thread`.
//!
//! - **Atomic operations** (C11 `stdatomic.h`, GCC `__atomic_*` / `__sync_*`) are visible
//!   steps in every mode: [`Action::Read`] for a load, [`Action::Write`] for a store,
//!   [`Action::Rmw`] for the others (a compare-exchange is an `Rmw` whether or not it
//!   succeeds: the outcome is known only once it ran, and treating a failed one as a
//!   write is sound, only less reduction), on the memory object of its 8-byte word
//!   ([`memory_obj`]): accesses of different sizes to one word are dependent, so mixed
//!   sizes are handled exactly; an atomic access that crosses a word boundary is refused
//!   by name.
//! - **Plain accesses**, in [`MemoryMode::Races`] (the default), are checked against
//!   happens-before by the engine's [`RaceDetector`] in every execution; the first race
//!   of each pair of sites is a [`DefectKind::DataRace`] defect (the thread goes on). In
//!   [`MemoryMode::Sc`] every plain access is a visible step too, under sequential
//!   consistency, and races are not defects.
//!
//! Everything here runs on a program thread (a coroutine), except accesses made by the
//! program's constructors at load time, which are ignored.

use crate::exec::{suspend, with_rt, Yield};
use std::ffi::{c_int, c_void};
use unfold_engine::program::Site;
use unfold_engine::race::{AtomicOp, Race, RaceDetector};
use unfold_engine::{Action, Defect, DefectKind, ObjId};

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

/// Most data-race defects one execution records.
const MAX_RACES: usize = 16;

/// Per-execution memory state of the runtime.
#[derive(Debug, Default)]
pub(crate) struct MemState {
    pub mode: MemoryMode,
    pub detector: RaceDetector,
    /// Pairs of sites already reported in this execution.
    reported: Vec<(Site, Site)>,
}

impl MemState {
    /// Start an execution.
    pub fn reset(&mut self) {
        self.detector.reset();
        self.reported.clear();
    }

    /// Whether happens-before is tracked.
    pub fn tracking(&self) -> bool {
        self.mode == MemoryMode::Races
    }
}

fn code_site(ra: *mut c_void) -> Site {
    (ra as u64).saturating_sub(1)
}

fn race_defect(r: &Race, steps_done: usize) -> Defect {
    let what = |w: bool, a: bool| match (w, a) {
        (true, true) => "atomic write",
        (true, false) => "write",
        (false, true) => "atomic read",
        (false, false) => "read",
    };
    Defect {
        kind: DefectKind::DataRace,
        message: format!(
            "data race on 0x{:x}: {} by {} and {} by {} at [[site:{:x}]], not ordered by synchronisation",
            r.addr,
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

/// Check a plain or atomic access in race mode and record a race.
fn check(addr: u64, size: u64, write: bool, atomic: bool, site: Site) {
    with_rt(|rt| {
        if !rt.active || !rt.mem.tracking() {
            return;
        }
        let t = rt.current;
        let Some(r) = rt.mem.detector.on_access(t, addr, size, write, atomic, site) else { return };
        let key = (r.first.site, r.second.site);
        if rt.mem.reported.len() < MAX_RACES && !rt.mem.reported.contains(&key) {
            rt.mem.reported.push(key);
            let d = race_defect(&r, rt.steps_done);
            rt.defects.push(d);
        }
    })
}

/// A plain access of `size` bytes at `addr` (`tsan.c`'s `__tsan_readN`/`__tsan_writeN`,
/// range and unaligned variants).
#[no_mangle]
pub extern "C" fn __unfold_mem_access(addr: *const c_void, size: usize, write: c_int, ra: *mut c_void) {
    let mode = with_rt(|rt| if rt.active { Some(rt.mem.mode) } else { None });
    match mode {
        Some(MemoryMode::Races) => check(addr as u64, size as u64, write != 0, false, code_site(ra)),
        Some(MemoryMode::Sc) => {
            // One visible step per word touched.
            let (start, end) = (addr as u64, (addr as u64).saturating_add(size.max(1) as u64));
            let mut w = start & !7;
            while w < end {
                let o = memory_obj(w);
                let a = if write != 0 { Action::Write(o) } else { Action::Read(o) };
                let at = start.max(w);
                suspend(Yield::Pending(a, code_site(ra) | ((at & 7) << 56)));
                w += 8;
            }
        }
        Some(MemoryMode::Off) | None => {}
    }
}

/// Refuse an atomic access the engine cannot model exactly (checked by the executor
/// after the step: the run ends with an error naming it).
fn unsupported(msg: String) {
    with_rt(|rt| {
        if rt.unsupported.is_none() {
            rt.unsupported = Some(msg);
        }
    });
}

/// Before an atomic operation: the scheduling point.
#[no_mangle]
pub extern "C" fn __unfold_mem_atomic_pre(addr: *const c_void, size: usize, kind: c_int, ra: *mut c_void) {
    if !with_rt(|rt| rt.active) {
        return;
    }
    let a = addr as u64;
    if (a & 7) + size as u64 > 8 {
        unsupported(format!(
            "an atomic access of {size} bytes at 0x{a:x} crosses an 8-byte word (unfold models atomics per word)"
        ));
    }
    let o = memory_obj(a);
    let action = match kind {
        0 => Action::Read(o),
        1 => Action::Write(o),
        _ => Action::Rmw(o),
    };
    suspend(Yield::Pending(action, code_site(ra) | ((a & 7) << 56)));
}

/// After an atomic operation: happens-before, and races with plain accesses.
#[no_mangle]
pub extern "C" fn __unfold_mem_atomic_post(addr: *const c_void, size: usize, kind: c_int, ra: *mut c_void) {
    let a = addr as u64;
    let tracking = with_rt(|rt| {
        if !rt.active || !rt.mem.tracking() {
            return false;
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
        rt.mem.detector.on_atomic(t, ObjId(a), op);
        true
    });
    if tracking {
        check(a, size as u64, kind == 1 || kind == 2, true, code_site(ra));
    }
}

extern "C" {
    fn __unfold_tsan_anchor() -> *mut c_void;
}

/// Addresses that keep `tsan.c` and these entry points in the `unfold` binary.
pub fn shim_table() -> [usize; 4] {
    [
        // SAFETY: a C function without preconditions returning a function address.
        unsafe { __unfold_tsan_anchor() } as usize,
        __unfold_mem_access as *const () as usize,
        __unfold_mem_atomic_pre as *const () as usize,
        __unfold_mem_atomic_post as *const () as usize,
    ]
}
