//! Turning executions into what a person (or a script) reads: defects, traces with
//! symbolised sites and objects, statistics, JSON, replay tokens.

use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use unfold_engine::program::Site;
use unfold_engine::{Action, Awaited, DefectKind, End, Execution, ObjId, Step, ThreadId};
use unfold_runtime::{
    decode_site, memory_addr, site_role, site_word_offset, CProgram, Region, SiteKind, SiteRole, ATOMIC_OBJ,
};

/// Resolves sites to file:line and objects to names.
pub struct Symbols {
    base: u64,
    data: Vec<(u64, u64, String)>,
    lines: Option<addr2line::Loader>,
}

impl std::fmt::Debug for Symbols {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Symbols").field("base", &self.base).finish()
    }
}

/// A source location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    /// Source file as given to the compiler.
    pub file: String,
    /// 1-based line.
    pub line: u32,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

impl Symbols {
    /// Symbols of the program loaded at `base`, with debug info from `so`.
    pub fn new(so: &Path, base: u64, data: Vec<(u64, u64, String)>) -> Self {
        Symbols { base, data, lines: addr2line::Loader::new(so).ok() }
    }

    /// The source location of a site.
    pub fn location(&self, prog: &CProgram, site: Option<Site>) -> Option<Location> {
        match decode_site(site?) {
            SiteKind::None => None,
            SiteKind::FileLine(file, line) => {
                let file = prog.image().string_at(file)?;
                Some(Location { file, line })
            }
            SiteKind::Code(pc) => {
                let loc = self.lines.as_ref()?.find_location(pc.checked_sub(self.base)?).ok()??;
                Some(Location { file: relative(loc.file?), line: loc.line? })
            }
        }
    }

    /// The name of the function containing the code address of `site`, when known.
    pub fn function(&self, site: Option<Site>) -> Option<String> {
        let SiteKind::Code(pc) = decode_site(site?) else { return None };
        let loader = self.lines.as_ref()?;
        let name = loader.find_symbol(pc.checked_sub(self.base)?)?;
        Some(name.to_string())
    }

    /// Replace every `0x…` address in a runtime message by the object's name, and every
    /// `[[site:HEX]]` (a code address) by its source location.
    pub fn name_addresses(&self, prog: &CProgram, msg: &str) -> String {
        let mut sited = String::new();
        let mut rest = msg;
        while let Some(i) = rest.find("[[site:") {
            sited.push_str(&rest[..i]);
            let after = &rest[i + 7..];
            let Some(end) = after.find("]]") else { break };
            let loc = u64::from_str_radix(&after[..end], 16).ok().and_then(|pc| self.location(prog, Some(pc)));
            match loc {
                Some(l) => sited.push_str(&l.to_string()),
                None => sited.push_str("(unknown location)"),
            }
            rest = &after[end + 2..];
        }
        sited.push_str(rest);
        let mut out = String::new();
        let mut rest = sited.as_str();
        while let Some(i) = rest.find("0x") {
            out.push_str(&rest[..i]);
            let hex: String = rest[i + 2..].chars().take_while(|c| c.is_ascii_hexdigit()).collect();
            match u64::from_str_radix(&hex, 16) {
                Ok(a) => out.push_str(&self.object(prog, ObjId(a))),
                Err(_) => out.push_str("0x"),
            }
            rest = &rest[i + 2 + hex.len()..];
        }
        out.push_str(rest);
        out
    }

    /// A readable name for a mutex or memory object.
    pub fn object(&self, prog: &CProgram, o: ObjId) -> String {
        if o == ATOMIC_OBJ {
            return "<atomic section>".into();
        }
        // Memory words are tagged (unfold_runtime::memory_obj): name the word.
        let o = if o.0 & 1 == 1 { ObjId(memory_addr(o)) } else { o };
        self.byte(prog, o.0)
    }

    /// A readable name for the byte at `addr` (untagged: an odd address is a byte, not
    /// a memory word's tag; an `atomic_flag` at an odd address was named after the
    /// symbol at the start of its word).
    pub fn byte(&self, prog: &CProgram, addr: u64) -> String {
        let o = ObjId(addr);
        let off = o.0.wrapping_sub(self.base);
        if let Some((a, size, name)) = self.data.iter().find(|(a, s, _)| off >= *a && off < a + s) {
            let _ = size;
            return if off == *a { name.clone() } else { format!("{name}+{}", off - a) };
        }
        // Heap, stack and TLS slots sit at different addresses in different processes:
        // name their objects by offset, so that a replay prints the same trace.
        match prog.locate(o.0) {
            Some((t, Region::Heap, off)) => format!("heap object of t{t} at +{off:#x}"),
            Some((t, Region::Stack, off)) => {
                // Stacks grow down from the end of their slot: name the byte by its depth.
                let depth = unfold_runtime::mem::STACK_SLOT as u64 - off;
                format!("a local of t{t} {depth} bytes below the top of its stack")
            }
            Some((t, Region::ThreadLocal, off)) => format!("thread-local object of t{t} at +{off:#x}"),
            None => format!("{:#x}", o.0),
        }
    }

    /// The locations a spin-wait watches: the first one read at the byte `first_off` of
    /// its word (the wait's site names it), the others by the first byte of the word they
    /// watch. The synchronising objects it waits on (a mutex polled under, an object of a
    /// failed try) are not among them: see [`Symbols::wait_parts`].
    pub fn awaited(&self, prog: &CProgram, w: Awaited, first_off: u64) -> String {
        let names: Vec<String> = w
            .iter()
            .enumerate()
            .filter(|(_, (o, ..))| o.0 & 1 == 1)
            .map(|(i, (o, b, _))| {
                let off = if i == 0 { first_off } else { b.first() as u64 };
                self.byte(prog, memory_addr(o) + off)
            })
            .collect();
        names.join(" or ")
    }

    /// What a spin-wait of thread `t`, pending after `steps`, watches, for reports: its
    /// memory locations (one part), and each synchronising object (memory objects are
    /// tagged with their low bit, the others are addresses) with how the thread came to
    /// wait on it, read off its last operation on the object: a mutex it unlocked is
    /// polled under, one whose trylock failed is retried, and so are a semaphore's
    /// trywait and a read-write lock's try; a condition variable is waited on by a timed
    /// wait in a loop.
    pub fn wait_parts(
        &self,
        prog: &CProgram,
        w: Awaited,
        first_off: u64,
        steps: &[Step],
        t: ThreadId,
    ) -> Vec<WaitPart> {
        let mut parts = Vec::new();
        for (o, ..) in w.iter().filter(|(o, ..)| o.0 & 1 == 0) {
            let name = self.object(prog, o);
            let last = steps
                .iter()
                .rev()
                .find(|s| s.thread == t && s.action.touches(o) && !matches!(s.action, Action::Await(_)));
            parts.push(match last.map(|s| s.action) {
                Some(Action::TryLock(..)) => WaitPart::TryLock(name),
                Some(Action::SemTryWait(..)) => WaitPart::TryWait(name),
                Some(Action::TryRdLock(..) | Action::TryWrLock(..)) => WaitPart::RwTry(name),
                Some(Action::CondWait(_) | Action::CondWake(..)) => WaitPart::TimedWait(name),
                _ => WaitPart::Poll(name),
            });
        }
        let locs = self.awaited(prog, w, first_off);
        if !locs.is_empty() {
            let many = w.iter().filter(|(o, ..)| o.0 & 1 == 1).count() > 1;
            parts.push(WaitPart::Locations(locs, many));
        }
        parts
    }

    /// A spin-wait as a trace step: what it watches and what ends it.
    fn spin_wait(&self, parts: &[WaitPart]) -> String {
        let what: Vec<String> = parts.iter().map(WaitPart::noun).collect();
        let until: Vec<String> = parts.iter().map(|p| p.wake(parts.len() == 1, false)).collect();
        format!("{} (until another thread {})", what.join(" and "), until.join(" or "))
    }

    /// A step's operation with its object named (a memory access names the accessed
    /// byte, which the step's site carries, not just its word).
    pub fn step_op(&self, prog: &CProgram, s: &Step) -> String {
        self.step_op_in(prog, std::slice::from_ref(s), 0)
    }

    /// [`Symbols::step_op`] for step `i` of `steps`: a spin-wait is described with what
    /// the thread's earlier steps say about the objects it watches ([`Symbols::wait_parts`]).
    pub fn step_op_in(&self, prog: &CProgram, steps: &[Step], i: usize) -> String {
        let s = &steps[i];
        let at = |o: ObjId| self.byte(prog, memory_addr(o) + site_word_offset(s.site));
        let call = match site_role(s.site) {
            SiteRole::Call => None,
            SiteRole::MutexInit => Some("pthread_mutex_init"),
            SiteRole::MutexDestroy => Some("pthread_mutex_destroy"),
            SiteRole::RwLockDestroy => Some("pthread_rwlock_destroy"),
        };
        match (call, s.action) {
            // pthread_mutex_init/destroy and pthread_rwlock_destroy are modelled as a
            // try-lock (held by another thread?) and an unlock: name the call.
            (Some(f), Action::TryLock(m, true) | Action::TryWrLock(m, true)) => {
                return format!("{f}({}): not held", self.object(prog, m))
            }
            (Some(f), Action::TryLock(m, false) | Action::TryWrLock(m, false)) => {
                return format!("{f}({}): held by another thread", self.object(prog, m))
            }
            (Some(f), Action::Unlock(m, _) | Action::RwUnlock(m, _)) => {
                return format!("{f}({}) done", self.object(prog, m))
            }
            _ => {}
        }
        match s.action {
            Action::Read(o, _) => format!("read({})", at(o)),
            Action::Write(o, _) => format!("write({})", at(o)),
            Action::Rmw(o, _, true) => format!("rmw({})", at(o)),
            Action::Rmw(o, _, false) => format!("rmw({}) unchanged", at(o)),
            Action::Await(w) => {
                self.spin_wait(&self.wait_parts(prog, w, site_word_offset(s.site), &steps[..i], s.thread))
            }
            a => self.action(prog, a),
        }
    }

    /// An action with its object named.
    pub fn action(&self, prog: &CProgram, a: Action) -> String {
        let o = |x| self.object(prog, x);
        match a {
            Action::Create(t) => format!("pthread_create -> {t}"),
            Action::Join(t) => format!("pthread_join({t})"),
            Action::Exit => "thread exit".into(),
            Action::ExitProcess => "process exit".into(),
            Action::Lock(m) if m == ATOMIC_OBJ => "atomic section begins".into(),
            Action::Unlock(m, _) if m == ATOMIC_OBJ => "atomic section ends".into(),
            Action::Lock(m) => format!("lock({})", o(m)),
            Action::Unlock(m, _) => format!("unlock({})", o(m)),
            Action::TryLock(m, true) => format!("trylock({}) = acquired", o(m)),
            Action::TryLock(m, false) => format!("trylock({}) = busy", o(m)),
            Action::Read(m, b) => format!("read({})", self.byte(prog, memory_addr(m) + b.first() as u64)),
            Action::Write(m, b) => format!("write({})", self.byte(prog, memory_addr(m) + b.first() as u64)),
            Action::Rmw(m, b, true) => format!("rmw({})", self.byte(prog, memory_addr(m) + b.first() as u64)),
            Action::Rmw(m, b, false) => {
                format!("rmw({}) unchanged", self.byte(prog, memory_addr(m) + b.first() as u64))
            }
            // Without the step's site, the first location is named by the first byte its
            // wait watches (its word may begin inside another variable).
            Action::Await(w) => {
                let first = w.iter().find(|(o, ..)| o.0 & 1 == 1).map_or(0, |(_, b, _)| b.first() as u64);
                self.spin_wait(&self.wait_parts(prog, w, first, &[], ThreadId::MAIN))
            }
            Action::CondWait(c) => format!("pthread_cond_wait({}) begins", o(c)),
            Action::CondWake(c, false, _) => format!("pthread_cond_wait({}) woken", o(c)),
            // A timed wake is also how an untimed wait is explored with --spurious-wakeups;
            // without a signal it is a time-out or a spurious wake-up.
            Action::CondWake(c, true, true) => format!("pthread_cond_(timed)wait({}) woken", o(c)),
            Action::CondWake(c, true, false) => format!("pthread_cond_(timed)wait({}) = no signal", o(c)),
            Action::Signal(c) => format!("pthread_cond_signal({})", o(c)),
            Action::Broadcast(c) => format!("pthread_cond_broadcast({})", o(c)),
            Action::SemInit(s, v) => format!("sem_init({}, {v})", o(s)),
            Action::SemPost(s) => format!("sem_post({})", o(s)),
            Action::SemWait(s) => format!("sem_wait({})", o(s)),
            Action::SemTryWait(s, true) => format!("sem_trywait({}) = 0", o(s)),
            Action::SemTryWait(s, false) => format!("sem_trywait({}) = EAGAIN", o(s)),
            Action::SemValue(s) => format!("sem_getvalue({})", o(s)),
            Action::RdLock(l) => format!("pthread_rwlock_rdlock({})", o(l)),
            Action::WrLock(l) => format!("pthread_rwlock_wrlock({})", o(l)),
            Action::TryRdLock(l, true) => format!("pthread_rwlock_tryrdlock({}) = acquired", o(l)),
            Action::TryRdLock(l, false) => format!("pthread_rwlock_tryrdlock({}) = busy", o(l)),
            Action::TryWrLock(l, true) => format!("pthread_rwlock_trywrlock({}) = acquired", o(l)),
            Action::TryWrLock(l, false) => format!("pthread_rwlock_trywrlock({}) = busy", o(l)),
            Action::RwUnlock(l, _) => format!("pthread_rwlock_unlock({})", o(l)),
            Action::BarrierInit(b, n) => format!("pthread_barrier_init({}, {n})", o(b)),
            Action::BarrierArrive(b, true) => format!("pthread_barrier_wait({}) arrives last (serial)", o(b)),
            Action::BarrierArrive(b, false) => format!("pthread_barrier_wait({}) arrives", o(b)),
            Action::BarrierLeave(b) => format!("pthread_barrier_wait({}) leaves", o(b)),
        }
    }
}

/// `path` relative to the current directory when it lies below it.
fn relative(path: &str) -> String {
    match std::env::current_dir() {
        Ok(cwd) => Path::new(path).strip_prefix(&cwd).map_or(path.to_string(), |p| p.display().to_string()),
        Err(_) => path.to_string(),
    }
}

/// The stable name of a defect kind (including the run-level ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Kind {
    /// A thread-local or process defect.
    Program(DefectKind),
    /// Deadlock.
    Deadlock,
    /// Every thread that has not finished is blocked, at least one of them spinning on a
    /// location no thread will write (an await that can never be satisfied).
    Livelock,
    /// Step bound.
    Bound,
    /// Execution timeout.
    Timeout,
}

impl Kind {
    /// Name used in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Program(k) => k.name(),
            Kind::Deadlock => "deadlock",
            Kind::Livelock => "livelock",
            Kind::Bound => "bound",
            Kind::Timeout => "timeout",
        }
    }
}

/// A defect of one execution, not yet symbolised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawFinding {
    /// Kind.
    pub kind: Kind,
    /// Message (deadlocks are described at report time).
    pub message: String,
    /// Thread.
    pub thread: ThreadId,
    /// Site.
    pub site: Option<Site>,
    /// Deadlocks: the threads that make it (see [`deadlock_groups`]) with the sites of
    /// their pending actions, sorted. Empty for other kinds.
    pub blocked: Vec<(ThreadId, Option<Site>)>,
}

/// What makes two findings the same defect for `--keep-going`: the kind, the site and the
/// message, and for a deadlock the blocked threads that make it with their sites (two
/// independent lock-order inversions are two defects; the same one reached through
/// different schedules is one). A data race is the same whichever threads made its two
/// accesses: the message's thread names are left out of its key.
pub type FindingKey = (Kind, Option<Site>, String, Vec<(ThreadId, Option<Site>)>);

impl RawFinding {
    /// The deduplication key.
    pub fn key(&self) -> FindingKey {
        let message = match self.kind {
            Kind::Program(DefectKind::DataRace) => without_thread_names(&self.message),
            _ => self.message.clone(),
        };
        (self.kind, self.site, message, self.blocked.clone())
    }
}

/// `message` with every thread name that follows "by " (`t` and digits: "write by t3",
/// "allocated by t0") replaced by `t*`; other words, such as a variable named `t1`, stay.
///
/// Why a race is keyed without its threads: the race detector reports, at an access,
/// the first earlier access it races with, and which one that is depends on the order of
/// the other threads' accesses in the execution. Explorers that run different
/// executions of one trace then met different thread pairs of one race. On three
/// symmetric threads racing on one word (`tests/c/race_three_symmetric.c`), QPOR and dfs
/// reported six races and optimal- and source-DPOR four.
fn without_thread_names(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("by t") {
        let (before, after) = rest.split_at(i + "by t".len());
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let word_end = after.as_bytes().get(digits).is_none_or(|c| !c.is_ascii_alphanumeric());
        let word_start = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
        out.push_str(before);
        if digits > 0 && word_end && word_start {
            out.push('*');
            rest = &after[digits..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The deadlocks of an execution that ended with blocked threads: the groups of blocked
/// threads that *make* a deadlock, as opposed to threads that only wait for one. Each
/// blocked thread waits for one thread: the one it joins, or the owner of the mutex it
/// wants. Following these waits from a blocked thread:
///
/// - it comes back to the thread: the thread is on a cycle (a lock-order inversion, a
///   join cycle); the threads of the cycle make one deadlock;
/// - it stops at once at a thread that is neither blocked nor failed (a mutex left locked
///   by a thread that exited): the thread alone makes a deadlock;
/// - it reaches a thread that stopped on a defect (an assertion, a misuse...): waiting for
///   a failed thread is a consequence of that defect, already reported, not a new one (a
///   thread waiting at a barrier waits for every failed thread that took part in the
///   barrier's earlier rounds: its round cannot complete without it; on a semaphore, for
///   a failed thread that posted it, read its value or destroyed it before (a
///   `sem_destroy` with waiters is that thread's defect); on a condition variable, for a failed
///   thread that signalled it before; on a read-write lock, for a failed holder);
/// - it waits for no one thread (a barrier's round, a semaphore's post, a signal, a
///   spin's write): the threads blocked so on one object make one deadlock, unless
///   another blocked thread waits for a failed thread: the post or signal may be that
///   thread's to give, so the wait may be a consequence too (a thread stopped at a
///   misuse holding a mutex that the signalling thread waits for);
/// - otherwise it waits for one of the above (e.g. `main` joining a deadlocked thread).
///
/// Two independent lock-order inversions that happen in the same execution are two
/// groups. Empty when every blocked thread only waits for failed threads: no deadlock.
pub fn deadlock_groups(exec: &Execution, blocked: &[(ThreadId, Action)]) -> Vec<Vec<(ThreadId, Action)>> {
    let failed: Vec<ThreadId> = exec.defects.iter().map(|d| d.thread).collect();
    let mut state = unfold_engine::SchedState::new(exec.first);
    for (i, s) in exec.steps.iter().enumerate() {
        let _ = state.apply(i, s);
    }
    // A failed thread whose earlier step on object `o` makes it one the blocked thread
    // waits for (`took_part`).
    let failed_participant = |o: ObjId, took_part: fn(Action) -> bool| {
        exec.steps.iter().find_map(|s| {
            (s.action.object() == Some(o) && took_part(s.action) && failed.contains(&s.thread)).then_some(s.thread)
        })
    };
    // A failed thread holding read-write lock `l` (acquired more often than released).
    let failed_rw_holder = |l: ObjId| {
        failed.iter().copied().find(|&f| {
            exec.steps.iter().filter(|s| s.thread == f && s.action.object() == Some(l)).fold(0i64, |n, s| {
                match s.action {
                    Action::RdLock(_) | Action::WrLock(_) | Action::TryRdLock(_, true) | Action::TryWrLock(_, true) => {
                        n + 1
                    }
                    Action::RwUnlock(..) => n - 1,
                    _ => n,
                }
            }) > 0
        })
    };
    let waits_for = |a: Action| match a {
        Action::Join(u) => Some(u),
        Action::Lock(m) => state.owner(m),
        Action::BarrierLeave(o) => failed_participant(o, |a| matches!(a, Action::BarrierArrive(..))),
        // A failed thread that posted the semaphore, or read its value (a destroy is
        // such a read: a waiter of a semaphore destroyed by a misuse waits because of it).
        Action::SemWait(o) => failed_participant(o, |a| matches!(a, Action::SemPost(_) | Action::SemValue(_))),
        Action::CondWake(o, ..) => failed_participant(o, |a| matches!(a, Action::Signal(_) | Action::Broadcast(_))),
        Action::RdLock(l) | Action::WrLock(l) => failed_rw_holder(l),
        _ => None,
    };
    let pending = |t: ThreadId| blocked.iter().find(|b| b.0 == t).map(|b| b.1);
    let mut groups: Vec<Vec<(ThreadId, Action)>> = Vec::new();
    // The group of the threads blocked on each object that waits for no one thread (the
    // waiters of one barrier, semaphore or condition variable make one deadlock).
    let mut on_object: Vec<(ObjId, usize)> = Vec::new();
    // Whether some blocked thread waits (through others) for a failed thread.
    let mut waits_for_failed = false;
    for &(t, a) in blocked {
        let Some(first) = waits_for(a) else {
            let o = a.object();
            match on_object.iter().find(|x| Some(x.0) == o) {
                Some(&(_, g)) => groups[g].push((t, a)),
                None => {
                    on_object.extend(o.map(|o| (o, groups.len())));
                    groups.push(vec![(t, a)]);
                }
            }
            continue;
        };
        let mut cur = first;
        let mut chain = vec![t];
        let root = loop {
            if failed.contains(&cur) {
                waits_for_failed = true;
                break false;
            }
            if cur == t {
                break true;
            }
            match pending(cur).map(waits_for) {
                // Not blocked: a thread that left a mutex locked (or is gone).
                None => break cur == first,
                Some(None) => break false,
                Some(Some(next)) => {
                    if chain.contains(&cur) {
                        // A cycle that does not go through `t`.
                        break false;
                    }
                    chain.push(cur);
                    cur = next;
                }
            }
        };
        if root {
            let mut g: Vec<(ThreadId, Action)> = chain.iter().filter_map(|&u| pending(u).map(|a| (u, a))).collect();
            g.sort_by_key(|b| b.0);
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
    }
    // A thread that stopped on its defect (an assertion, a misuse: not one it goes on
    // after, a race or a memory error) might have posted, signalled, arrived or written
    // next: a wait that any thread could end (not a read-write lock's, which only its
    // holders can) is then no defect of its own.
    let stopped = exec.defects.iter().any(|d| {
        matches!(d.kind, DefectKind::Assertion | DefectKind::Abort | DefectKind::MutexMisuse | DefectKind::SyncMisuse)
    });
    if waits_for_failed || stopped {
        let dropped: Vec<usize> = on_object
            .iter()
            .filter(|x| {
                waits_for_failed || !groups[x.1].iter().any(|b| matches!(b.1, Action::RdLock(_) | Action::WrLock(_)))
            })
            .map(|x| x.1)
            .collect();
        let mut i = 0;
        groups.retain(|_| {
            i += 1;
            !dropped.contains(&(i - 1))
        });
    }
    groups
}

/// Every defect an execution shows: its thread-local defects, then the run-level one.
/// A deadlock is not a defect when a thread stopped on a failed assumption, nor when the
/// blocked threads only wait for threads that stopped on a defect; one execution may show
/// several deadlocks (see [`deadlock_groups`]). `pending_site` gives the site of a blocked thread's pending action.
pub fn findings(
    exec: &Execution,
    max_steps: usize,
    pending_site: &dyn Fn(ThreadId) -> Option<Site>,
) -> Vec<RawFinding> {
    let mut v: Vec<RawFinding> = exec
        .defects
        .iter()
        .map(|d| RawFinding {
            kind: Kind::Program(d.kind),
            message: d.message.clone(),
            thread: d.thread,
            site: d.site,
            blocked: Vec::new(),
        })
        .collect();
    match &exec.end {
        End::Deadlock { blocked } if exec.assumed.is_empty() => {
            for group in deadlock_groups(exec, blocked) {
                // Name a spinning thread, else a thread waiting for a synchronising object
                // if there is one (a join only waits for it).
                let spinning = group.iter().find(|b| matches!(b.1, Action::Await(..)));
                let t = spinning
                    .or_else(|| group.iter().find(|b| b.1.object().is_some()))
                    .or(group.first())
                    .map_or(ThreadId::MAIN, |b| b.0);
                let kind = if spinning.is_some() { Kind::Livelock } else { Kind::Deadlock };
                let key: Vec<(ThreadId, Option<Site>)> = group.iter().map(|b| (b.0, pending_site(b.0))).collect();
                v.push(RawFinding { kind, message: String::new(), thread: t, site: None, blocked: key });
            }
        }
        End::StepBound => {
            let t = exec.steps.last().map_or(ThreadId::MAIN, |s| s.thread);
            v.push(RawFinding {
                kind: Kind::Bound,
                message: format!("the execution exceeded {max_steps} visible steps (livelock?)"),
                thread: t,
                site: exec.steps.last().map(|s| s.site),
                blocked: Vec::new(),
            });
        }
        End::Timeout => {
            let t = exec.running.or(exec.steps.last().map(|s| s.thread)).unwrap_or(ThreadId::MAIN);
            v.push(RawFinding {
                kind: Kind::Timeout,
                message: "the execution timed out".into(),
                thread: t,
                site: exec.stopped_at,
                blocked: Vec::new(),
            });
        }
        End::Crash(d) => v.push(RawFinding {
            kind: Kind::Program(d.kind),
            message: d.message.clone(),
            thread: d.thread,
            site: d.site,
            blocked: Vec::new(),
        }),
        _ => {}
    }
    v
}

/// One part of what a spin-wait watches ([`Symbols::wait_parts`]), with the object's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitPart {
    /// Memory locations (names joined with "or"; whether there are several).
    Locations(String, bool),
    /// A mutex polled under (the thread unlocked it in its loop).
    Poll(String),
    /// A mutex whose trylock (or timed lock) failed.
    TryLock(String),
    /// A semaphore whose trywait (or timed wait) failed.
    TryWait(String),
    /// A read-write lock whose try (or timed) lock failed.
    RwTry(String),
    /// A condition variable of a timed wait in a loop.
    TimedWait(String),
}

impl WaitPart {
    /// As a trace step's operation ("poll under m").
    fn noun(&self) -> String {
        match self {
            WaitPart::Locations(x, _) => format!("spin-wait on {x}"),
            WaitPart::Poll(m) => format!("poll under {m}"),
            WaitPart::TryLock(m) => format!("retry of trylock({m})"),
            WaitPart::TryWait(s) => format!("retry of sem_trywait({s})"),
            WaitPart::RwTry(l) => format!("retry of a try-lock of {l}"),
            WaitPart::TimedWait(c) => format!("timed wait on {c}"),
        }
    }

    /// What the thread does, in a livelock ("polls under m").
    fn verb(&self) -> String {
        match self {
            WaitPart::Locations(x, _) => format!("spins on {x}"),
            WaitPart::Poll(m) => format!("polls under {m}"),
            WaitPart::TryLock(m) => format!("retries trylock({m})"),
            WaitPart::TryWait(s) => format!("retries sem_trywait({s})"),
            WaitPart::RwTry(l) => format!("retries a try-lock of {l}"),
            WaitPart::TimedWait(c) => format!("waits on {c} with a time-out"),
        }
    }

    /// What another thread must do to end the wait: "unlocks m" (`will`: "unlock m"),
    /// "it" for the object when the wait has only this part (`alone`).
    fn wake(&self, alone: bool, will: bool) -> String {
        let (verb, what) = match self {
            WaitPart::Locations(x, many) => (
                ("writes", "write"),
                match (alone, many) {
                    (true, false) => "it",
                    (true, true) if will => "any of them",
                    (true, true) => "one of them",
                    _ => x,
                },
            ),
            WaitPart::Poll(o) | WaitPart::TryLock(o) | WaitPart::RwTry(o) => {
                (("unlocks", "unlock"), if alone { "it" } else { o })
            }
            WaitPart::TryWait(o) => (("posts", "post"), if alone { "it" } else { o }),
            WaitPart::TimedWait(o) => (("signals", "signal"), if alone { "it" } else { o }),
        };
        format!("{} {what}", if will { verb.1 } else { verb.0 })
    }
}

/// One step of a rendered trace.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TraceStep {
    /// Thread.
    pub thread: String,
    /// Operation with its object.
    pub op: String,
    /// Where.
    pub location: Option<Location>,
}

/// A symbolised defect with its trace.
#[derive(Clone, Debug, Serialize)]
pub struct DefectReport {
    /// Kind name.
    pub kind: &'static str,
    /// Message.
    pub message: String,
    /// Thread (index).
    pub thread: u16,
    /// Location.
    pub location: Option<Location>,
    /// Replay token.
    pub replay: String,
    /// The trace leading to it.
    pub trace: Vec<TraceStep>,
    /// The nondeterministic values (`__VERIFIER_nondet_*`) the execution drew, in the
    /// order they were drawn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nondet: Vec<NondetValue>,
}

/// One nondeterministic value an execution drew.
#[derive(Clone, Debug, Serialize)]
pub struct NondetValue {
    /// The thread that drew it.
    pub thread: u16,
    /// Its rank among the thread's draws (from 1).
    pub call: u32,
    /// The C type.
    #[serde(rename = "type")]
    pub c_type: &'static str,
    /// The value, as the program saw it.
    pub value: String,
    /// Where the call is.
    pub location: Option<Location>,
}

/// Symbolise the trace of `exec`. A weak unlock (one that wakes no thread polling the
/// mutex: `Action::Unlock` with `false`) says so when some thread of the execution waits
/// on the mutex, where it matters; elsewhere it reads as any unlock.
pub fn trace(sym: &Symbols, prog: &CProgram, exec: &Execution) -> Vec<TraceStep> {
    let blocked = match &exec.end {
        End::Deadlock { blocked } => blocked.as_slice(),
        _ => &[],
    };
    let waits = exec.steps.iter().map(|s| s.action).chain(blocked.iter().map(|b| b.1));
    let polled: Vec<ObjId> = waits
        .filter_map(|a| match a {
            Action::Await(w) => Some(w),
            _ => None,
        })
        .flat_map(|w| w.iter().map(|(o, ..)| o))
        .collect();
    exec.steps
        .iter()
        .enumerate()
        .map(|(i, s)| TraceStep {
            thread: s.thread.to_string(),
            op: match s.action {
                Action::Unlock(m, false) if polled.contains(&m) => {
                    format!("{} (weak: wakes no poller)", sym.step_op_in(prog, &exec.steps, i))
                }
                _ => sym.step_op_in(prog, &exec.steps, i),
            },
            location: sym.location(prog, Some(s.site)),
        })
        .collect()
}

/// Describe a deadlock: each thread of `group` (see [`deadlock_groups`]) and what it
/// waits for, then the other blocked threads (which wait for it, or for a failed thread).
pub fn describe_deadlock(sym: &Symbols, prog: &CProgram, exec: &Execution, group: &[ThreadId]) -> String {
    let End::Deadlock { blocked } = &exec.end else {
        return String::new();
    };
    let mut state = unfold_engine::SchedState::new(exec.first);
    for (i, s) in exec.steps.iter().enumerate() {
        let _ = state.apply(i, s);
    }
    let describe = |&(t, a): &(ThreadId, Action)| match a {
        Action::Lock(m) => match state.owner(m) {
            Some(o) => format!("{t} waits for {} (held by {o})", sym.object(prog, m)),
            None => format!("{t} waits for {}", sym.object(prog, m)),
        },
        Action::Join(u) => format!("{t} waits to join {u}"),
        Action::Await(w) => {
            let site = prog.pending_site(t);
            let off = site.map_or(0, site_word_offset);
            let parts = sym.wait_parts(prog, w, off, &exec.steps, t);
            // The loop's line: every spinning thread of a livelock is named with its loop.
            let at = sym.location(prog, site).map(|l| format!(" at {l}")).unwrap_or_default();
            let what: Vec<String> = parts.iter().map(WaitPart::verb).collect();
            let wake: Vec<String> = parts.iter().map(|p| p.wake(parts.len() == 1, true)).collect();
            let other = if parts.iter().all(|p| matches!(p, WaitPart::Locations(..))) { "" } else { " other" };
            // A counting loop cut after its hidden polls (runtime, "Polls that count").
            let cut = if site.is_some() && site == exec.bounded_poll {
                format!(
                    " (it counts its polls: cut after {} polls without a step; a loop that would give up \
                     later is reported so too)",
                    unfold_runtime::memory::HIDDEN_POLLS
                )
            } else {
                String::new()
            };
            format!("{t} {}{at} and no{other} thread will {}{cut}", what.join(" and "), wake.join(" or "))
        }
        other => format!("{t} waits for {}", sym.action(prog, other)),
    };
    let (core, others): (Vec<_>, Vec<_>) = blocked.iter().partition(|b| group.is_empty() || group.contains(&b.0));
    let what = if core.iter().any(|b: &&(ThreadId, Action)| matches!(b.1, Action::Await(..))) {
        "livelock"
    } else {
        "deadlock"
    };
    let mut text = format!("{what}: {}", core.iter().copied().map(&describe).collect::<Vec<_>>().join("; "));
    if !others.is_empty() {
        text.push_str(&format!(
            " (also blocked: {})",
            others.iter().copied().map(&describe).collect::<Vec<_>>().join("; ")
        ));
    }
    text
}

/// Render one defect for people (`full`: every step of its trace, else a summary).
pub fn render_defect(out: &mut String, i: usize, d: &DefectReport, file: &str, full: bool) {
    let _ = writeln!(out, "defect {}: {} — {}", i + 1, d.kind, d.message);
    let _ = writeln!(out, "  thread: t{}", d.thread);
    match &d.location {
        Some(l) => {
            let _ = writeln!(out, "  at: {l}");
        }
        None => {
            let _ = writeln!(out, "  at: (unknown location)");
        }
    }
    if !d.nondet.is_empty() {
        let _ = writeln!(out, "  nondeterministic values drawn:");
        for v in &d.nondet {
            let loc = v.location.as_ref().map_or(String::new(), |l| format!(" at {l}"));
            let _ = writeln!(out, "    t{} call {}: {} {}{loc}", v.thread, v.call, v.c_type, v.value);
        }
    }
    let _ = writeln!(out, "  replay: unfold replay {} {}", shell_word(file), d.replay);
    render_trace(out, &d.trace, full);
}

/// Steps of a long trace shown before the elided part.
pub const TRACE_HEAD: usize = 20;
/// Steps of a long trace shown after the elided part (where the defect is).
pub const TRACE_TAIL: usize = 30;

/// Render a trace, one step a line. Unless `full`, a trace longer than
/// `TRACE_HEAD + TRACE_TAIL` steps shows its first and last steps and how many were elided.
pub fn render_trace(out: &mut String, trace: &[TraceStep], full: bool) {
    let _ = writeln!(out, "  trace ({} steps):", trace.len());
    let line = |out: &mut String, i: usize, s: &TraceStep| {
        let loc = s.location.as_ref().map_or(String::new(), |l| l.to_string());
        let _ = writeln!(out, "    {:>4}  {:<4} {:<44} {}", i + 1, s.thread, s.op, loc);
    };
    if full || trace.len() <= TRACE_HEAD + TRACE_TAIL {
        for (i, s) in trace.iter().enumerate() {
            line(out, i, s);
        }
        return;
    }
    for (i, s) in trace.iter().enumerate().take(TRACE_HEAD) {
        line(out, i, s);
    }
    let tail = trace.len() - TRACE_TAIL;
    let _ = writeln!(
        out,
        "          ... {} steps elided (steps {}-{}; --full-trace prints them, --json includes them) ...",
        tail - TRACE_HEAD,
        TRACE_HEAD + 1,
        tail
    );
    for (i, s) in trace.iter().enumerate().skip(tail) {
        line(out, i, s);
    }
}

/// `w` as one word for a POSIX shell (quoted only when it needs to be).
pub fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

// ---- replay tokens ------------------------------------------------------------------

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// How the program was built and run: everything besides its source and the schedule
/// that decides what an execution does. Recorded in every replay token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Build {
    /// `-D` definitions, in order.
    pub defines: Vec<String>,
    /// `-I` directories, absolute.
    pub includes: Vec<String>,
    /// `-O` level.
    pub opt: Option<String>,
    /// Extra compiler arguments (`--cflags`, split on whitespace).
    pub cflags: Vec<String>,
    /// The program's arguments (after `--`).
    pub args: Vec<String>,
    /// The step bound of one execution.
    pub max_steps: usize,
    /// `--memory` (races, sc, none).
    pub memory: String,
    /// `--spurious-wakeups`.
    pub spurious_wakeups: bool,
    /// `--stack-size` (as given, e.g. `8M`).
    pub stack_size: String,
    /// `--check-uninit` (reads of uninitialised heap bytes are defects).
    pub check_uninit: bool,
    /// `--heap-size` in bytes (0: not given, the default).
    pub heap_size: u64,
}

/// What `unfold replay` needs to re-run one execution: the program's source hash, its
/// build and the schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recording {
    /// [`source_hash`] of the program's source.
    pub source_hash: u64,
    /// Flags and arguments.
    pub build: Build,
    /// The thread that took each visible step.
    pub schedule: Vec<ThreadId>,
    /// The values of the program's nondeterministic draws, by key (thread, n), and the
    /// value of the draws they do not name (`crate::nondet`).
    pub nondet: unfold_runtime::Valuation,
    pub nondet_default: i64,
}

/// FNV-1a (64 bits) of a program's source: a replay of another source is refused.
pub fn source_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Token format version 2: `u2.` + base64url(deflate(payload)).
pub const TOKEN_V2: &str = "u2.";
/// Largest payload a token may inflate to (a schedule of 10^7 steps is ~20 MB).
const MAX_PAYLOAD: u64 = 64 << 20;

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn put_list(out: &mut Vec<u8>, l: &[String]) {
    put_varint(out, l.len() as u64);
    for s in l {
        put_str(out, s);
    }
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let (&b, rest) = self.0.split_first()?;
            self.0 = rest;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }
    fn bytes(&mut self, n: usize) -> Option<&[u8]> {
        if n > self.0.len() {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }
    fn string(&mut self) -> Option<String> {
        let n = usize::try_from(self.varint()?).ok()?;
        String::from_utf8(self.bytes(n)?.to_vec()).ok()
    }
    fn list(&mut self) -> Option<Vec<String>> {
        let n = self.varint()?;
        if n > self.0.len() as u64 {
            return None;
        }
        (0..n).map(|_| self.string()).collect()
    }
}

fn base64(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 4 / 3 + 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | (b as u32) << (16 - 8 * i));
        for i in 0..chunk.len() + 1 {
            s.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    s
}

fn unbase64(body: &str) -> Option<Vec<u8>> {
    let vals: Vec<u32> =
        body.bytes().map(|c| B64.iter().position(|&b| b == c).map(|p| p as u32)).collect::<Option<_>>()?;
    let mut bytes = Vec::with_capacity(vals.len() * 3 / 4);
    for chunk in vals.chunks(4) {
        if chunk.len() < 2 {
            return None;
        }
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &v)| acc | v << (18 - 6 * i));
        for i in 0..chunk.len() - 1 {
            bytes.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(bytes)
}

/// Encode a recording: `u2.` + base64url of the deflated payload (source hash, build,
/// schedule as LEB128 thread ids). Independent of the algorithm: the schedule is the
/// exact sequence of threads that took each visible step.
pub fn encode_token(r: &Recording) -> String {
    use std::io::Write as _;
    let mut p = Vec::with_capacity(r.schedule.len() + 64);
    p.extend_from_slice(&r.source_hash.to_le_bytes());
    put_varint(&mut p, r.build.max_steps as u64);
    match &r.build.opt {
        None => put_varint(&mut p, 0),
        Some(o) => {
            put_varint(&mut p, 1);
            put_str(&mut p, o);
        }
    }
    for l in [&r.build.defines, &r.build.includes, &r.build.cflags, &r.build.args] {
        put_list(&mut p, l);
    }
    put_str(&mut p, &r.build.memory);
    put_varint(&mut p, r.build.spurious_wakeups as u64);
    put_str(&mut p, &r.build.stack_size);
    put_varint(&mut p, r.schedule.len() as u64);
    for t in &r.schedule {
        put_varint(&mut p, t.0 as u64);
    }
    // Optional trailing fields (tokens made before them end here): the heap size (0:
    // the default), whether --check-uninit is on, then the nondeterministic values (the
    // default, then (thread, n, value) per key; values zigzag-encoded).
    let nondet = !r.nondet.is_empty() || r.nondet_default != 0;
    if r.build.heap_size != 0 || r.build.check_uninit || nondet {
        put_varint(&mut p, r.build.heap_size);
    }
    if r.build.check_uninit || nondet {
        put_varint(&mut p, r.build.check_uninit as u64);
    }
    if nondet {
        let zigzag = |v: i64| ((v << 1) ^ (v >> 63)) as u64;
        put_varint(&mut p, zigzag(r.nondet_default));
        put_varint(&mut p, r.nondet.len() as u64);
        for &((t, n), v) in &r.nondet {
            put_varint(&mut p, t.0 as u64);
            put_varint(&mut p, n as u64);
            put_varint(&mut p, zigzag(v));
        }
    }
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing into a Vec cannot fail.
    let _ = z.write_all(&p);
    let bytes = z.finish().unwrap_or_default();
    format!("{TOKEN_V2}{}", base64(&bytes))
}

/// Decode a token made by [`encode_token`] (None: not such a token).
pub fn decode_token(tok: &str) -> Option<Recording> {
    use std::io::Read as _;
    let packed = unbase64(tok.trim().strip_prefix(TOKEN_V2)?)?;
    let mut p = Vec::new();
    let mut z = flate2::bufread::DeflateDecoder::new(&packed[..]);
    (&mut z).take(MAX_PAYLOAD).read_to_end(&mut p).ok()?;
    // Bytes after the deflated payload: text appended to the token (a paste that ran on).
    if !z.get_ref().is_empty() {
        return None;
    }
    let mut r = Reader(&p);
    let source_hash = u64::from_le_bytes(r.bytes(8)?.try_into().ok()?);
    let max_steps = usize::try_from(r.varint()?).ok()?;
    let opt = match r.varint()? {
        0 => None,
        1 => Some(r.string()?),
        _ => return None,
    };
    let (defines, includes, cflags, args) = (r.list()?, r.list()?, r.list()?, r.list()?);
    let memory = r.string()?;
    let spurious_wakeups = match r.varint()? {
        0 => false,
        1 => true,
        _ => return None,
    };
    let stack_size = r.string()?;
    let n = r.varint()?;
    if n > r.0.len() as u64 {
        return None;
    }
    let schedule = (0..n).map(|_| u16::try_from(r.varint()?).ok().map(ThreadId)).collect::<Option<Vec<_>>>()?;
    let heap_size = if r.0.is_empty() { 0 } else { r.varint()? };
    let check_uninit = match r.0.is_empty() {
        true => false,
        false => match r.varint()? {
            0 => false,
            1 => true,
            _ => return None,
        },
    };
    let unzigzag = |v: u64| ((v >> 1) as i64) ^ -((v & 1) as i64);
    let (mut nondet, mut nondet_default) = (Vec::new(), 0);
    if !r.0.is_empty() {
        nondet_default = unzigzag(r.varint()?);
        let n = r.varint()?;
        if n > r.0.len() as u64 {
            return None;
        }
        for _ in 0..n {
            let t = ThreadId(u16::try_from(r.varint()?).ok()?);
            let k = u32::try_from(r.varint()?).ok()?;
            nondet.push(((t, k), unzigzag(r.varint()?)));
        }
    }
    if !r.0.is_empty() {
        return None;
    }
    Some(Recording {
        source_hash,
        build: Build {
            defines,
            includes,
            opt,
            cflags,
            args,
            max_steps,
            memory,
            spurious_wakeups,
            stack_size,
            check_uninit,
            heap_size,
        },
        schedule,
        nondet,
        nondet_default,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        for s in [vec![], vec![0u16], vec![0, 1, 2, 1, 0], vec![300, 5, 65535, 0, 0, 7, 128]] {
            let rec = Recording {
                source_hash: 0xdead_beef_0123_4567,
                build: Build {
                    defines: vec!["N=3".into(), "FLAG".into()],
                    includes: vec!["/a b/inc".into()],
                    opt: Some("2".into()),
                    cflags: vec!["-std=c11".into()],
                    args: vec!["x".into(), "".into()],
                    max_steps: 12345,
                    memory: "sc".into(),
                    spurious_wakeups: true,
                    stack_size: "512K".into(),
                    check_uninit: false,
                    heap_size: if s.len() % 2 == 0 { 0 } else { 1 << 30 },
                },
                schedule: s.into_iter().map(ThreadId).collect(),
                ..Recording::default()
            };
            let tok = encode_token(&rec);
            assert_eq!(decode_token(&tok), Some(rec.clone()), "{tok}");
            let mut uninit = rec.clone();
            uninit.build.check_uninit = true;
            let tok2 = encode_token(&uninit);
            assert_ne!(tok, tok2);
            assert_eq!(decode_token(&tok2), Some(uninit), "{tok2}");
            // Nondeterministic values, with and without the other trailing fields.
            for (uninit, heap) in [(false, 0), (true, 0), (false, 4096)] {
                let mut nd = rec.clone();
                nd.build.check_uninit = uninit;
                nd.build.heap_size = heap;
                nd.nondet = vec![((ThreadId(0), 0), -1), ((ThreadId(3), 7), i64::MIN), ((ThreadId(3), 8), i64::MAX)];
                nd.nondet_default = -5;
                let tok3 = encode_token(&nd);
                assert_eq!(decode_token(&tok3), Some(nd.clone()), "{tok3}");
                nd.nondet.clear();
                let tok4 = encode_token(&nd);
                assert_eq!(decode_token(&tok4), Some(nd), "only a default: {tok4}");
            }
        }
        assert_eq!(decode_token("nope"), None);
        assert_eq!(decode_token("u2.!!"), None);
        let good = encode_token(&Recording::default());
        assert_eq!(decode_token(&good[..good.len() - 2]), None, "a truncated token is refused");
        // Text run on after a whole token (a paste that took the next word too): refused,
        // whatever the length of the token's last base64 group.
        for s in 0..4u16 {
            let rec = Recording { schedule: (0..s).map(ThreadId).collect(), ..Recording::default() };
            let tok = encode_token(&rec);
            assert_eq!(decode_token(&tok), Some(rec), "{tok}");
            for tail in ["AAAA", "XYZw", "Ab", "ABCDEFGH"] {
                assert_eq!(decode_token(&format!("{tok}{tail}")), None, "{tok} + {tail}");
            }
        }
    }

    #[test]
    fn a_race_is_keyed_without_its_threads() {
        assert_eq!(
            without_thread_names("data race on t1: write by t3 and read by t12 at x.c:11, by t1x, nearby t2, by t"),
            "data race on t1: write by t* and read by t* at x.c:11, by t1x, nearby t2, by t"
        );
        let race = |m: &str, kind| RawFinding {
            kind: Kind::Program(kind),
            message: m.into(),
            thread: ThreadId(3),
            site: Some(7),
            blocked: vec![],
        };
        let (a, b) = ("write by t3 and read by t1 at [[site:9]]", "write by t2 and read by t1 at [[site:9]]");
        assert_eq!(race(a, DefectKind::DataRace).key(), race(b, DefectKind::DataRace).key());
        assert_ne!(race(a, DefectKind::Assertion).key(), race(b, DefectKind::Assertion).key());
        assert_ne!(
            race(a, DefectKind::DataRace).key(),
            race("read by t3 and write by t1 at [[site:9]]", DefectKind::DataRace).key()
        );
    }

    #[test]
    fn long_schedules_make_short_tokens() {
        // A polling loop: two threads alternating in bursts for 100 000 steps.
        let schedule: Vec<ThreadId> = (0..100_000u32).map(|i| ThreadId(((i / 3) % 2) as u16 + 1)).collect();
        let tok = encode_token(&Recording { schedule, ..Recording::default() });
        assert!(tok.len() < 2_000, "{} bytes", tok.len());
    }

    #[test]
    fn deadlocks_waiting_on_failed_threads_are_consequences() {
        use unfold_engine::{Action, Defect, DefectKind, ObjId, Step};
        let (main, t1, t2) = (ThreadId(0), ThreadId(1), ThreadId(2));
        let step = |thread, action, next| Step { thread, action, site: 0, next, child_next: None };
        let m = ObjId(0x1000);
        let mut exec = Execution {
            first: Some(Action::Create(t1)),
            steps: vec![
                step(main, Action::Create(t1), Some(Action::Create(t2))),
                step(main, Action::Create(t2), Some(Action::Join(t1))),
                step(t2, Action::Lock(m), None),
            ],
            ..Execution::default()
        };
        exec.steps[0].child_next = Some(Action::Lock(m));
        exec.steps[1].child_next = Some(Action::Lock(m));
        // t1 waits for m, held by t2 which exited holding it; main joins t1: t1 makes
        // the deadlock, main only waits for it.
        let blocked = vec![(main, Action::Join(t1)), (t1, Action::Lock(m))];
        assert_eq!(deadlock_groups(&exec, &blocked), vec![vec![(t1, Action::Lock(m))]]);
        // t2 failed an assertion holding m: everything blocked waits for it.
        exec.defects.push(Defect {
            kind: DefectKind::Assertion,
            message: "assert".into(),
            thread: t2,
            site: None,
            after_steps: 3,
        });
        assert_eq!(deadlock_groups(&exec, &blocked), Vec::<Vec<_>>::new());
        exec.end = End::Deadlock { blocked };
        let kinds: Vec<Kind> = findings(&exec, 100, &|_| None).into_iter().map(|f| f.kind).collect();
        assert_eq!(kinds, vec![Kind::Program(DefectKind::Assertion)]);
    }

    #[test]
    fn a_wait_for_a_signal_beside_a_wait_for_a_failed_thread_is_a_consequence() {
        use unfold_engine::{Action, ObjId, Step};
        let (main, t1, t2) = (ThreadId(0), ThreadId(1), ThreadId(2));
        let step = |thread, action, next| Step { thread, action, site: 0, next, child_next: None };
        let (m, c) = (ObjId(0x1000), ObjId(0x2000));
        // t2 holds m and stopped (a misuse, or not); main, which would signal c, waits
        // for m; t1 waits for the signal.
        let exec = |failed: bool| {
            let mut e = Execution {
                first: Some(Action::Create(t1)),
                steps: vec![
                    step(main, Action::Create(t1), Some(Action::Create(t2))),
                    step(main, Action::Create(t2), Some(Action::Lock(m))),
                    step(t2, Action::Lock(m), None),
                ],
                defects: failed.then(|| assertion_failed(t2)).into_iter().collect(),
                ..Execution::default()
            };
            e.steps[0].child_next = Some(Action::CondWake(c, false, true));
            e.steps[1].child_next = Some(Action::Lock(m));
            e
        };
        let blocked = vec![(main, Action::Lock(m)), (t1, Action::CondWake(c, false, true))];
        // t2 exited holding m: main's wait is a deadlock, and so is t1's.
        assert_eq!(
            deadlock_groups(&exec(false), &blocked),
            vec![vec![(main, Action::Lock(m))], vec![(t1, Action::CondWake(c, false, true))]]
        );
        // t2 failed: main waits for it, and the signal t1 waits for may be main's.
        assert_eq!(deadlock_groups(&exec(true), &blocked), Vec::<Vec<_>>::new());
    }

    #[test]
    fn a_wait_on_an_object_beside_a_thread_stopped_by_its_defect_is_a_consequence() {
        use unfold_engine::{Action, DefectKind, ObjId, Step};
        let (main, t1) = (ThreadId(0), ThreadId(1));
        let step = |thread, action, next| Step { thread, action, site: 0, next, child_next: None };
        let s = ObjId(0x1000);
        // main waits on semaphore s; t1, which never touched s (it would have posted it
        // next), has a defect of `kind`.
        let exec = |kind: DefectKind| {
            let mut e = Execution {
                first: Some(Action::Create(t1)),
                steps: vec![step(main, Action::Create(t1), Some(Action::SemWait(s)))],
                defects: vec![unfold_engine::Defect { kind, ..assertion_failed(t1) }],
                ..Execution::default()
            };
            e.steps[0].child_next = Some(Action::Unlock(ObjId(0x2000), false));
            e
        };
        let blocked = vec![(main, Action::SemWait(s))];
        // t1 stopped on a misuse: main's wait is its consequence.
        assert_eq!(deadlock_groups(&exec(DefectKind::MutexMisuse), &blocked), Vec::<Vec<_>>::new());
        // A race does not stop its thread: main's wait is a deadlock of its own.
        assert_eq!(deadlock_groups(&exec(DefectKind::DataRace), &blocked), vec![blocked.clone()]);
    }

    /// Thread `t` stopped on a failed assertion.
    fn assertion_failed(t: ThreadId) -> unfold_engine::Defect {
        unfold_engine::Defect {
            kind: unfold_engine::DefectKind::Assertion,
            message: "assert".into(),
            thread: t,
            site: None,
            after_steps: 0,
        }
    }

    #[test]
    fn a_barrier_round_that_waits_for_a_failed_participant_is_a_consequence() {
        use unfold_engine::{Action, ObjId, Step};
        let (main, t1, t2) = (ThreadId(0), ThreadId(1), ThreadId(2));
        let step = |thread, action| Step { thread, action, site: 0, next: None, child_next: None };
        let b = ObjId(0x2000);
        // Round 1: t1 arrives, t2 completes it; t2 arrives for round 2 and waits; t1 left
        // round 1 and then failed (or, first, exited without failing).
        let exec = |failed: bool| Execution {
            steps: vec![
                step(main, Action::Create(t1)),
                step(main, Action::Create(t2)),
                step(t1, Action::BarrierArrive(b, false)),
                step(t2, Action::BarrierArrive(b, true)),
                step(t1, Action::BarrierLeave(b)),
                step(t2, Action::BarrierArrive(b, false)),
            ],
            defects: failed.then(|| assertion_failed(t1)).into_iter().collect(),
            ..Execution::default()
        };
        let blocked = vec![(main, Action::Join(t2)), (t2, Action::BarrierLeave(b))];
        // t1 exited without arriving again: t2's wait is a deadlock of its own.
        assert_eq!(deadlock_groups(&exec(false), &blocked), vec![vec![(t2, Action::BarrierLeave(b))]]);
        // t1 failed: t2 waits for it at the barrier, a consequence.
        assert_eq!(deadlock_groups(&exec(true), &blocked), Vec::<Vec<_>>::new());
    }

    #[test]
    fn waiters_of_one_object_make_one_deadlock() {
        use unfold_engine::{Action, ObjId};
        let (main, t1, t2, t3) = (ThreadId(0), ThreadId(1), ThreadId(2), ThreadId(3));
        let (b, c) = (ObjId(0x3000), ObjId(0x4000));
        let exec = Execution::default();
        // Two threads at a barrier that needs three, main joining one of them: one deadlock
        // of the two waiters; a third thread waiting for a signal on another object makes
        // a second one.
        let blocked = vec![
            (main, Action::Join(t1)),
            (t1, Action::BarrierLeave(b)),
            (t2, Action::BarrierLeave(b)),
            (t3, Action::CondWake(c, false, true)),
        ];
        assert_eq!(
            deadlock_groups(&exec, &blocked),
            vec![
                vec![(t1, Action::BarrierLeave(b)), (t2, Action::BarrierLeave(b))],
                vec![(t3, Action::CondWake(c, false, true))]
            ]
        );
    }

    #[test]
    fn waits_for_a_failed_poster_signaller_or_holder_are_consequences() {
        use unfold_engine::{Action, ObjId, Step};
        let (main, t1, t2) = (ThreadId(0), ThreadId(1), ThreadId(2));
        let step = |thread, action| Step { thread, action, site: 0, next: None, child_next: None };
        let o = ObjId(0x2000);
        // t1 did `before` on o, then (optionally) failed; t2 is blocked on `wait`.
        let groups = |before: Action, wait: Action, failed: bool| {
            let exec = Execution {
                steps: vec![step(main, Action::Create(t1)), step(main, Action::Create(t2)), step(t1, before)],
                defects: failed.then(|| assertion_failed(t1)).into_iter().collect(),
                ..Execution::default()
            };
            deadlock_groups(&exec, &[(main, Action::Join(t2)), (t2, wait)]).len()
        };
        for (before, wait) in [
            (Action::SemPost(o), Action::SemWait(o)),
            (Action::SemValue(o), Action::SemWait(o)),
            (Action::Signal(o), Action::CondWake(o, false, true)),
            (Action::Broadcast(o), Action::CondWake(o, false, true)),
            (Action::WrLock(o), Action::RdLock(o)),
            (Action::RdLock(o), Action::WrLock(o)),
        ] {
            assert_eq!(groups(before, wait, false), 1, "{before:?} then {wait:?}, nobody failed: a deadlock");
            assert_eq!(groups(before, wait, true), 0, "{before:?} by a failed thread, then {wait:?}");
        }
        // A failed thread that released the read-write lock is not waited for.
        let exec = Execution {
            steps: vec![
                step(main, Action::Create(t1)),
                step(t1, Action::WrLock(o)),
                step(t1, Action::RwUnlock(o, true)),
            ],
            defects: vec![assertion_failed(t1)],
            ..Execution::default()
        };
        assert_eq!(deadlock_groups(&exec, &[(t2, Action::WrLock(o))]).len(), 1);
    }
}
