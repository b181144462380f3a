//! Turning executions into what a person (or a script) reads: defects, traces with
//! symbolised sites and objects, statistics, JSON, replay tokens.

use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use unfold_engine::program::Site;
use unfold_engine::{Action, DefectKind, End, Execution, ObjId, ThreadId};
use unfold_runtime::{decode_site, CProgram, Region, SiteKind, ATOMIC_OBJ};

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

    /// Replace every `0x…` address in a runtime message by the object's name.
    pub fn name_addresses(&self, prog: &CProgram, msg: &str) -> String {
        let mut out = String::new();
        let mut rest = msg;
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
        let off = o.0.wrapping_sub(self.base);
        if let Some((a, size, name)) = self.data.iter().find(|(a, s, _)| off >= *a && off < a + s) {
            let _ = size;
            return if off == *a { name.clone() } else { format!("{name}+{}", off - a) };
        }
        match prog.locate(o.0) {
            Some((t, Region::Heap)) => format!("heap object {:#x} of t{t}", o.0),
            Some((t, Region::Stack)) => format!("stack object {:#x} of t{t}", o.0),
            Some((t, Region::ThreadLocal)) => format!("thread-local object {:#x} of t{t}", o.0),
            None => format!("{:#x}", o.0),
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
            Action::Unlock(m) if m == ATOMIC_OBJ => "atomic section ends".into(),
            Action::Lock(m) => format!("lock({})", o(m)),
            Action::Unlock(m) => format!("unlock({})", o(m)),
            Action::TryLock(m, true) => format!("trylock({}) = acquired", o(m)),
            Action::TryLock(m, false) => format!("trylock({}) = busy", o(m)),
            Action::Read(m) => format!("read({})", o(m)),
            Action::Write(m) => format!("write({})", o(m)),
            Action::Rmw(m) => format!("rmw({})", o(m)),
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
}

/// Every defect an execution shows: its thread-local defects, then the run-level one.
/// A deadlock is not a defect when a thread stopped on a failed assumption.
pub fn findings(exec: &Execution, max_steps: usize) -> Vec<RawFinding> {
    let mut v: Vec<RawFinding> = exec
        .defects
        .iter()
        .map(|d| RawFinding { kind: Kind::Program(d.kind), message: d.message.clone(), thread: d.thread, site: d.site })
        .collect();
    match &exec.end {
        End::Deadlock { blocked } if exec.assumed.is_empty() => {
            // Name a thread waiting for a mutex if there is one (a join only waits for it).
            let t = blocked
                .iter()
                .find(|b| matches!(b.1, Action::Lock(_)))
                .or(blocked.first())
                .map_or(ThreadId::MAIN, |b| b.0);
            v.push(RawFinding { kind: Kind::Deadlock, message: String::new(), thread: t, site: None });
        }
        End::StepBound => {
            let t = exec.steps.last().map_or(ThreadId::MAIN, |s| s.thread);
            v.push(RawFinding {
                kind: Kind::Bound,
                message: format!("the execution exceeded {max_steps} visible steps (livelock?)"),
                thread: t,
                site: exec.steps.last().map(|s| s.site),
            });
        }
        End::Timeout => {
            let t = exec.steps.last().map_or(ThreadId::MAIN, |s| s.thread);
            v.push(RawFinding {
                kind: Kind::Timeout,
                message: "the execution timed out".into(),
                thread: t,
                site: None,
            });
        }
        End::Crash(d) => v.push(RawFinding {
            kind: Kind::Program(d.kind),
            message: d.message.clone(),
            thread: d.thread,
            site: d.site,
        }),
        _ => {}
    }
    v
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
}

/// Symbolise the trace of `exec`.
pub fn trace(sym: &Symbols, prog: &CProgram, exec: &Execution) -> Vec<TraceStep> {
    exec.steps
        .iter()
        .map(|s| TraceStep {
            thread: s.thread.to_string(),
            op: sym.action(prog, s.action),
            location: sym.location(prog, Some(s.site)),
        })
        .collect()
}

/// Describe a deadlock: each blocked thread and what it waits for.
pub fn describe_deadlock(sym: &Symbols, prog: &CProgram, exec: &Execution) -> String {
    let End::Deadlock { blocked } = &exec.end else {
        return String::new();
    };
    let mut state = unfold_engine::SchedState::new(exec.first);
    for (i, s) in exec.steps.iter().enumerate() {
        let _ = state.apply(i, s);
    }
    let parts: Vec<String> = blocked
        .iter()
        .map(|&(t, a)| {
            let what = match a {
                Action::Lock(m) => match state.owner(m) {
                    Some(o) => format!("{t} waits for {} (held by {o})", sym.object(prog, m)),
                    None => format!("{t} waits for {}", sym.object(prog, m)),
                },
                Action::Join(u) => format!("{t} waits to join {u}"),
                other => format!("{t} waits for {}", sym.action(prog, other)),
            };
            what
        })
        .collect();
    format!("deadlock: {}", parts.join("; "))
}

/// Render one defect for people.
pub fn render_defect(out: &mut String, i: usize, d: &DefectReport, file: &str) {
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
    let _ = writeln!(out, "  replay: unfold replay {file} {}", d.replay);
    render_trace(out, &d.trace);
}

/// Render a trace, one step a line.
pub fn render_trace(out: &mut String, trace: &[TraceStep]) {
    let _ = writeln!(out, "  trace ({} steps):", trace.len());
    for (i, s) in trace.iter().enumerate() {
        let loc = s.location.as_ref().map_or(String::new(), |l| l.to_string());
        let _ = writeln!(out, "    {:>4}  {:<4} {:<44} {}", i + 1, s.thread, s.op, loc);
    }
}

// ---- replay tokens ------------------------------------------------------------------

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Encode a schedule: `u1.<LEB128 thread ids, base64url>`. Independent of the algorithm:
/// it is the exact sequence of threads that took each visible step.
pub fn encode_token(schedule: &[ThreadId]) -> String {
    let mut bytes = Vec::with_capacity(schedule.len());
    for t in schedule {
        let mut v = t.0;
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                bytes.push(b);
                break;
            }
            bytes.push(b | 0x80);
        }
    }
    let mut s = String::from("u1.");
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | (b as u32) << (16 - 8 * i));
        for i in 0..chunk.len() + 1 {
            s.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    s
}

/// Decode a token made by [`encode_token`].
pub fn decode_token(tok: &str) -> Option<Vec<ThreadId>> {
    let body = tok.strip_prefix("u1.")?;
    let mut bytes = Vec::new();
    let vals: Vec<u32> =
        body.bytes().map(|c| B64.iter().position(|&b| b == c).map(|p| p as u32)).collect::<Option<_>>()?;
    for chunk in vals.chunks(4) {
        if chunk.len() < 2 {
            return None;
        }
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &v)| acc | v << (18 - 6 * i));
        for i in 0..chunk.len() - 1 {
            bytes.push((n >> (16 - 8 * i)) as u8);
        }
    }
    let mut out = Vec::new();
    let mut v: u32 = 0;
    let mut shift = 0;
    for b in bytes {
        v |= ((b & 0x7f) as u32) << shift;
        if b & 0x80 == 0 {
            out.push(ThreadId(u16::try_from(v).ok()?));
            v = 0;
            shift = 0;
        } else {
            shift += 7;
            if shift > 14 {
                return None;
            }
        }
    }
    (shift == 0).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        for s in [vec![], vec![0u16], vec![0, 1, 2, 1, 0], vec![300, 5, 65535, 0, 0, 7, 128]] {
            let sched: Vec<ThreadId> = s.into_iter().map(ThreadId).collect();
            let tok = encode_token(&sched);
            assert_eq!(decode_token(&tok), Some(sched), "{tok}");
        }
        assert_eq!(decode_token("nope"), None);
        assert_eq!(decode_token("u1.!!"), None);
    }
}
