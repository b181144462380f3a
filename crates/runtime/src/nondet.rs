//! SV-COMP's nondeterministic values: `__VERIFIER_nondet_int()` and its siblings.
//!
//! The engine explores thread schedules of a data-deterministic program, so a value the
//! program draws must be a function of where it is drawn. A draw is named by its *key*:
//! the thread that draws it and how many values that thread drew before in the execution
//! (`(t, n)`: the same call in every schedule that shares the thread's history). The
//! explorer's caller fixes a *valuation* — a value per key, a default for the others —
//! for a whole exploration, under which the program is deterministic again, and
//! enumerates valuations across explorations (the CLI: `crates/cli/src/nondet.rs`). Each
//! execution reports the keys it drew (with their C type and the call's site), so that
//! the enumeration learns which keys exist.
//!
//! The C entry points (`__unfold_nondet_int`, ...; the header renames the
//! `__VERIFIER_nondet_*` names to them) are in `tsan.c`: they pass their return address
//! and cast the value to their C type ([`NondetKind`] says which).

use crate::exec::with_rt;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use unfold_engine::program::Site;
use unfold_engine::ThreadId;

/// The C type of a nondeterministic value (the codes `tsan.c` passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NondetKind {
    /// `_Bool` (`__VERIFIER_nondet_bool`).
    Bool,
    /// `char`.
    I8,
    /// `short`.
    I16,
    /// `int`.
    I32,
    /// `long`, `long long`, `loff_t`.
    I64,
    /// `unsigned char`.
    U8,
    /// `unsigned short`.
    U16,
    /// `unsigned int`, `unsigned`, `u32`.
    U32,
    /// `unsigned long`, `unsigned long long`, `size_t`, `sector_t`, `pthread_t`.
    U64,
    /// `float`.
    F32,
    /// `double`.
    F64,
    /// A pointer (`void *`, `char *`): only NULL is drawn.
    Pointer,
}

impl NondetKind {
    const ALL: [NondetKind; 12] = [
        NondetKind::Bool,
        NondetKind::I8,
        NondetKind::I16,
        NondetKind::I32,
        NondetKind::I64,
        NondetKind::U8,
        NondetKind::U16,
        NondetKind::U32,
        NondetKind::U64,
        NondetKind::F32,
        NondetKind::F64,
        NondetKind::Pointer,
    ];

    /// The kind of code `c` (as `tsan.c` passes it).
    pub fn from_code(c: u64) -> Option<Self> {
        Self::ALL.get(usize::try_from(c).ok()?).copied()
    }

    /// The code of this kind.
    pub fn code(self) -> u64 {
        self as u64
    }

    /// The C type's name, as the report shows it.
    pub fn c_type(self) -> &'static str {
        match self {
            NondetKind::Bool => "_Bool",
            NondetKind::I8 => "char",
            NondetKind::I16 => "short",
            NondetKind::I32 => "int",
            NondetKind::I64 => "long",
            NondetKind::U8 => "unsigned char",
            NondetKind::U16 => "unsigned short",
            NondetKind::U32 => "unsigned int",
            NondetKind::U64 => "unsigned long",
            NondetKind::F32 => "float",
            NondetKind::F64 => "double",
            NondetKind::Pointer => "pointer",
        }
    }

    /// The value the program sees when the runtime draws `v` (the C conversion of
    /// `tsan.c`'s cast), as text.
    pub fn show(self, v: i64) -> String {
        match self {
            NondetKind::Bool => ((v != 0) as u8).to_string(),
            NondetKind::I8 => (v as i8).to_string(),
            NondetKind::I16 => (v as i16).to_string(),
            NondetKind::I32 => (v as i32).to_string(),
            NondetKind::I64 => v.to_string(),
            NondetKind::U8 => (v as u8).to_string(),
            NondetKind::U16 => (v as u16).to_string(),
            NondetKind::U32 => (v as u32).to_string(),
            NondetKind::U64 => (v as u64).to_string(),
            NondetKind::F32 | NondetKind::F64 => format!("{:?}", v as f64),
            NondetKind::Pointer => "NULL".into(),
        }
    }
}

/// One value drawn by an execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    /// The thread that drew it.
    pub thread: ThreadId,
    /// How many values the thread drew before it in the execution.
    pub n: u32,
    /// The C type asked for.
    pub kind: NondetKind,
    /// The value returned (before the C cast to the type).
    pub value: i64,
    /// Where the call is (a return address in the program).
    pub site: Site,
}

/// A valuation: the value of each named key `(thread, n)`, sorted by key.
pub type Valuation = Vec<((ThreadId, u32), i64)>;

/// The most values one thread draws in an execution: its next draw stops it like a failed
/// assumption, and the execution reports its draws as cut. A loop such as
/// `while (!__VERIFIER_nondet_bool());` would otherwise spin without end where every
/// later draw keeps the default value.
pub const MAX_THREAD_DRAWS: u32 = 100;

/// Where the worker publishes draws as they happen (the address of its shared
/// [`crate::shared::Header`]; 0 outside a worker), so that a run that crashes still
/// reports the keys it drew.
pub(crate) static SINK: AtomicUsize = AtomicUsize::new(0);

/// [`SINK`] while a run ahead of its request must not write into shared memory
/// ([`detach_sink`]): a draw is then only noted.
const DETACHED: usize = 1;

/// A draw was made while the sink was detached.
static DREW_DETACHED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Stop recording draws in shared memory; returns the sink, for [`attach_sink`].
pub(crate) fn detach_sink() -> usize {
    DREW_DETACHED.store(false, Ordering::Relaxed);
    SINK.swap(DETACHED, Ordering::Relaxed)
}

/// Record draws in `sink` again; false if a draw was made since [`detach_sink`].
pub(crate) fn attach_sink(sink: usize) -> bool {
    SINK.store(sink, Ordering::Relaxed);
    !DREW_DETACHED.swap(false, Ordering::Relaxed)
}

/// The value of key `(t, n)` in `valuation` (sorted by key), `default` if it is not
/// named.
pub(crate) fn value_of(valuation: &[((ThreadId, u32), i64)], default: i64, t: ThreadId, n: u32) -> i64 {
    valuation.binary_search_by_key(&(t, n), |&(k, _)| k).map_or(default, |i| valuation[i].1)
}

/// Draw a value of kind `kind` for the current thread, at the call returning to `ra`.
///
/// # Safety
/// Called by `tsan.c` on a program thread.
#[no_mangle]
pub unsafe extern "C" fn __unfold_nondet(kind: u64, ra: *mut c_void) -> i64 {
    let kind = NondetKind::from_code(kind).unwrap_or(NondetKind::I64);
    let site = (ra as u64).saturating_sub(1);
    let draw = with_rt(|rt| {
        if !rt.active {
            return None;
        }
        let t = rt.current;
        let th = rt.thread(t);
        let n = th.nondet_calls;
        if n >= MAX_THREAD_DRAWS {
            rt.assumed.push(t);
            return Some(None);
        }
        th.nondet_calls = n.saturating_add(1);
        // The value lands in the thread's registers or stack: what its loop iterations
        // compare (spin detection) changed in a way the runtime does not see.
        th.spin.clear();
        let value = match kind {
            NondetKind::Pointer => 0,
            _ => value_of(&rt.valuation, rt.nondet_default, t, n),
        };
        Some(Some(Draw { thread: t, n, kind, value, site }))
    });
    let sink = || {
        let hdr = SINK.load(Ordering::Relaxed);
        if hdr == DETACHED {
            DREW_DETACHED.store(true, Ordering::Relaxed);
            return None;
        }
        // SAFETY: set by the worker to its shared header, mapped for the life of the
        // process.
        (hdr != 0).then(|| unsafe { &*(hdr as *const crate::shared::Header) })
    };
    match draw {
        None => 0,
        Some(None) => {
            // Past the thread's limit: the path ends here, and the execution says so.
            if let Some(hdr) = sink() {
                hdr.cut_draws();
            }
            crate::exec::stop()
        }
        Some(Some(d)) => {
            if let Some(hdr) = sink() {
                hdr.push_draw(&d);
            }
            d.value
        }
    }
}
