//! Compiling the program under test into a shared object, and vetting what it imports.
//!
//! The program is compiled with the system C compiler (`$CC`, default `cc`) as
//! `-c -g -fPIC -fsanitize=thread -include unfold.h`, plus the user's flags, and linked
//! as a shared object *without* the sanitizer's runtime: the instrumentation's calls
//! (`__tsan_read4`, `__tsan_atomic32_load`, ...) bind to the runtime's definitions
//! (`crates/runtime/src/tsan.c`), which make shared memory visible. The header (embedded in
//! the binary) renames the supported API to the runtime's shims; whatever else the object
//! still imports is inspected here: unsupported thread/semaphore/condition functions and
//! the `__VERIFIER_nondet_*` types unfold does not draw are refused by name; imports
//! outside a list of functions without
//! hidden state make the run use one process per execution (the persistent worker's reset
//! covers only the program's own memory).

use anyhow::{bail, Context, Result};
use object::{Object, ObjectSymbol, SymbolKind};
use std::path::{Path, PathBuf};
use std::process::Command;
use unfold_runtime::EntryHook;

/// User-controlled compilation flags.
#[derive(Clone, Debug, Default)]
pub struct CompileFlags {
    /// `-D NAME[=VALUE]`.
    pub defines: Vec<String>,
    /// `-I DIR`.
    pub includes: Vec<PathBuf>,
    /// `-O N`.
    pub opt: Option<String>,
    /// Extra compiler arguments.
    pub cflags: Vec<String>,
    /// Compile with the thread sanitizer's instrumentation (shared memory visible).
    pub instrument: bool,
}

/// A compiled program, ready to load.
#[derive(Debug)]
pub struct Compiled {
    /// The shared object (inside the temp dir).
    pub so: PathBuf,
    /// Whether the persistent worker can reset everything the program touches.
    pub resettable: bool,
    /// Imports that forced one process per execution.
    pub stateful_imports: Vec<String>,
    /// Data symbols of the program: (offset from load base, size, name).
    pub data_symbols: Vec<(u64, u64, String)>,
    /// Offsets of the program's own SV-COMP functions whose call means what their name
    /// says (`reach_error`, `__VERIFIER_error`, `__VERIFIER_atomic_begin`/`_end`, and
    /// every other `__VERIFIER_atomic_*`: run atomically).
    pub entry_hooks: Vec<(u64, EntryHook)>,
    /// The program tries a mutex (`trylock`, `timedlock`, `spin_trylock`, C11's) or waits
    /// on a condition variable with a time-out: its retry loops wait for any unlock of the
    /// mutex, so its unlocks are never weak (`unfold_runtime::memory::set_weak_unlocks`).
    pub tries_mutexes: bool,
}

/// Whether the runtime entry point `name` (an import of the program) tries a mutex or
/// waits on a condition variable with a time-out ([`Compiled::tries_mutexes`]).
fn tries_a_mutex(name: &str) -> bool {
    const TRIES: [&str; 9] = [
        "pthread_mutex_trylock",
        "pthread_mutex_timedlock",
        "pthread_mutex_clocklock",
        "pthread_spin_trylock",
        "pthread_cond_timedwait",
        "pthread_cond_clockwait",
        "mtx_trylock",
        "mtx_timedlock",
        "cnd_timedwait",
    ];
    // `__unfold_try_<api>` from a C source, `__unfold_pc_<api>` from a preprocessed one.
    name.strip_prefix("__unfold_")
        .map(|n| n.strip_prefix("try_").or_else(|| n.strip_prefix("pc_")).unwrap_or(n))
        .is_some_and(|n| TRIES.contains(&n))
}

/// The reason a program is refused before exploration.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// The compiler rejected the program: its diagnostics, cleaned up and capped.
#[derive(Debug, thiserror::Error)]
#[error("compilation of {file} failed")]
pub struct CompileError {
    /// The source file.
    pub file: String,
    /// The compiler's diagnostics (see [`tidy_diagnostics`]).
    pub diagnostics: String,
}

/// Error lines of the compiler's output shown at most; the rest is counted.
const MAX_ERRORS: usize = 20;
/// Lines of the compiler's output shown at most.
const MAX_LINES: usize = 120;
/// Characters of one line of the compiler's output shown at most.
const MAX_LINE_CHARS: usize = 240;

/// The compiler's output for people: paths inside unfold's temporary directory named
/// for what they are (the force-included runtime header, the compiled object), and at
/// most [`MAX_ERRORS`] error lines / [`MAX_LINES`] lines, with a count of the rest.
pub fn tidy_diagnostics(raw: &str, tmp: &Path) -> String {
    let tmp = tmp.display().to_string();
    let headers = ["unfold.h", "unfold_i.h", "unfold_renames.h"].map(|h| (format!("{tmp}/{h}"), format!("<{h}>")));
    let mut out = String::new();
    let (mut shown, mut errors, mut hidden_lines, mut hidden_errors) = (0, 0, 0, 0);
    let mut mentioned: Option<&str> = None;
    for line in raw.lines() {
        let is_error = line.contains("error:") || line.contains("Error:");
        if shown >= MAX_LINES || errors >= MAX_ERRORS {
            hidden_lines += 1;
            hidden_errors += usize::from(is_error);
            continue;
        }
        let mut line = line.to_string();
        for (path, name) in &headers {
            if line.contains(path.as_str()) {
                mentioned = mentioned.or(Some(name));
            }
            line = line.replace(path.as_str(), name);
        }
        let line = line.replace(&tmp, "<unfold temporary directory>");
        match line.char_indices().nth(MAX_LINE_CHARS) {
            // A source line echoed by the compiler can be a whole binary file.
            Some((cut, _)) => {
                out.push_str(&line[..cut]);
                out.push_str(" [...]");
            }
            None => out.push_str(&line),
        }
        out.push('\n');
        shown += 1;
        errors += usize::from(is_error);
    }
    if hidden_lines > 0 {
        out.push_str(&format!(
            "... {hidden_errors} more error(s) not shown ({hidden_lines} more lines of compiler output)\n"
        ));
    }
    if let Some(name) = mentioned {
        out.push_str(&format!(
            "note: {name} is unfold's runtime header, included before the program: it renames the pthread and \
             libc functions unfold controls (the error is most likely in the program's use of them)\n"
        ));
    }
    out
}

/// Functions a program may import without leaving state the persistent reset misses.
const STATELESS: &[&str] = &[
    "printf",
    "puts",
    "putchar",
    "fputs",
    "fputc",
    "putc",
    "fprintf",
    "vprintf",
    "vfprintf",
    "sprintf",
    "snprintf",
    "vsnprintf",
    "vsprintf",
    "fflush",
    "fwrite",
    "__printf_chk",
    "__fprintf_chk",
    "__sprintf_chk",
    "__snprintf_chk",
    "__vfprintf_chk",
    "__vprintf_chk",
    "__vsnprintf_chk",
    "__vsprintf_chk",
    "memcpy",
    "memmove",
    "memset",
    "memcmp",
    "memchr",
    "strlen",
    "strnlen",
    "strcmp",
    "strncmp",
    "strcpy",
    "strncpy",
    "strcat",
    "strncat",
    "strchr",
    "strrchr",
    "strstr",
    "__memcpy_chk",
    "__memset_chk",
    "__memmove_chk",
    "__strcpy_chk",
    "__strcat_chk",
    "__strncpy_chk",
    "__stack_chk_fail",
    "abs",
    "labs",
    "llabs",
    "atoi",
    "atol",
    "atoll",
    "strtol",
    "strtoul",
    "strtoll",
    "strtoull",
    "strtod",
    "sqrt",
    "pow",
    "exp",
    "log",
    "sin",
    "cos",
    "tan",
    "atan",
    "fabs",
    "floor",
    "ceil",
    "fmod",
    "stdout",
    "stderr",
    "__cxa_finalize",
    "sched_yield",
    "__errno_location",
    // Served by the runtime's own __tls_get_addr (per-thread blocks it resets).
    "__tls_get_addr",
];

/// The thread and synchronisation functions unfold supports, listed once after the
/// refusals of other such functions.
const SUPPORTED_THREAD_FNS: &str = "pthread_create/join/exit/self/equal/detach/yield, \
     pthread_setcancelstate/setcanceltype/testcancel (no thread is ever cancelled), pthread_setname_np/getname_np, \
     pthread_setschedparam/getschedparam/setschedprio, pthread_setaffinity_np/getaffinity_np, pthread_atfork, \
     pthread_getattr_np, pthread_getattr_default_np, \
     pthread_attr_init/destroy and set/get of detachstate, stacksize, guardsize, scope, schedpolicy, \
     inheritsched, schedparam, pthread_attr_getstack/getstackaddr, pthread_key_create/delete, \
     pthread_getspecific/setspecific, pthread_mutex_init/destroy/lock/unlock/trylock/timedlock/clocklock, \
     pthread_mutexattr_init/destroy and set/get of type, pshared, protocol, prioceiling, robust (stalled only), \
     pthread_setconcurrency/getconcurrency, \
     pthread_cond_init/destroy/wait/timedwait/clockwait/signal/broadcast, pthread_condattr_init/destroy and \
     set/get of clock, pshared, sem_init/destroy/wait/trywait/timedwait/clockwait/post/getvalue, \
     pthread_rwlock_init/destroy/rdlock/wrlock/tryrdlock/trywrlock/timedrdlock/timedwrlock/clockrdlock/\
     clockwrlock/unlock, pthread_rwlockattr_init/destroy and set/get of pshared, kind_np (reader-preferring \
     kinds), pthread_barrier_init/destroy/wait, pthread_barrierattr_init/destroy/setpshared/getpshared, \
     pthread_once, pthread_spin_init/destroy/lock/trylock/unlock, \
     thrd_create/join/exit/current/equal/detach/yield, mtx_init/lock/trylock/timedlock/unlock/destroy, \
     cnd_init/signal/broadcast/wait/timedwait/destroy, call_once, tss_create/delete/get/set";

/// Named POSIX semaphores: refused with their own hint, not the list of supported functions.
const NAMED_SEMAPHORE_FNS: [&str; 3] = ["sem_open", "sem_close", "sem_unlink"];

/// Whether `name` is a thread or synchronisation function (of POSIX threads or C11).
fn is_thread_fn(name: &str) -> bool {
    ["pthread_", "sem_", "thrd_", "mtx_", "cnd_", "tss_"].iter().any(|p| name.starts_with(p)) || name == "call_once"
}

fn refusal(name: &str) -> Option<String> {
    if NAMED_SEMAPHORE_FNS.contains(&name) {
        return Some(format!(
            "`{name}`: named POSIX semaphores are not supported by unfold (use an unnamed semaphore: \
             sem_init/sem_destroy)"
        ));
    }
    if is_thread_fn(name) {
        let hint = match name {
            "pthread_attr_setstack" | "pthread_attr_setstackaddr" => {
                "; a caller-provided stack cannot be placed at unfold's fixed per-thread stack addresses: \
                 use pthread_attr_setstacksize"
            }
            "pthread_attr_setaffinity_np" | "pthread_attr_getaffinity_np" => {
                "; set the thread's affinity once it runs: pthread_setaffinity_np (kept for \
                 pthread_getaffinity_np; it restricts nothing unfold explores)"
            }
            _ if name.starts_with("pthread_attr_") => "; this attribute would change the thread's semantics",
            "pthread_mutex_consistent" => "; robust mutexes are not supported (EOWNERDEAD is not modelled)",
            "pthread_mutex_setprioceiling" | "pthread_mutex_getprioceiling" => {
                "; a mutex's priority ceiling is not kept (pthread_mutexattr_setprioceiling/getprioceiling are \
                 supported)"
            }
            "pthread_getcpuclockid" => {
                "; unfold's clocks are virtual and per thread, and a CPU-time clock of another thread is not \
                 modelled"
            }
            "pthread_setattr_default_np" => {
                "; pthread_create's defaults cannot be changed (pthread_getattr_default_np is supported): pass an \
                 attribute to pthread_create"
            }
            _ => "",
        };
        return Some(format!("`{name}` is not supported by unfold{hint}"));
    }
    if name.starts_with("__tsan_atomic128") {
        return Some(format!("`{name}`: 128-bit atomic operations are not supported by unfold"));
    }
    if name.starts_with("__atomic_") && name != "__atomic_feraiseexcept" {
        // libatomic's entry points (gcc calls them for atomics that are not lock-free).
        return Some(format!(
            "`{name}`: atomic objects of a size other than 1, 2, 4 or 8 bytes (or not aligned to it) go \
             through libatomic, which unfold does not see: not supported"
        ));
    }
    if name.starts_with("__VERIFIER_nondet") {
        return Some(format!(
            "`{name}`: unfold draws the nondeterministic values of __VERIFIER_nondet_bool, char, short, int, long, \
             longlong, loff_t, uchar, ushort, uint, unsigned, u32, ulong, ulonglong, size_t, sector_t, pthread_t, \
             float, double, pointer and pchar, not this one (replace it with one of those)"
        ));
    }
    if name.starts_with("__VERIFIER_") {
        return Some(format!("`{name}` is not supported by unfold"));
    }
    if [
        "fork",
        "vfork",
        "clone",
        "clone3",
        "__clone",
        "__clone2",
        "forkpty",
        "daemon",
        "system",
        "popen",
        "posix_spawn",
        "posix_spawnp",
        "execv",
        "execve",
        "execvp",
        "execvpe",
        "execl",
        "execle",
        "execlp",
        "fexecve",
        "execveat",
    ]
    .contains(&name)
    {
        return Some(format!("`{name}` creates or replaces processes, which unfold does not support"));
    }
    if name == "syscall" {
        return Some(
            "`syscall`: raw system calls are not supported by unfold (they can create processes or threads, \
             or end the program, behind its back); call the libc function instead"
                .into(),
        );
    }
    if ["on_exit", "at_quick_exit", "quick_exit", "__cxa_atexit", "__cxa_thread_atexit_impl"].contains(&name) {
        return Some(format!(
            "`{name}` is not supported by unfold (supported: atexit, exit, _exit, _Exit; handlers run at the end \
             of each execution)"
        ));
    }
    None
}

/// The TLS dialect whose accesses call `__tls_get_addr` (not TLS descriptors).
#[cfg(target_arch = "x86_64")]
const TLS_DIALECT: &[&str] = &["-mtls-dialect=gnu"];
#[cfg(target_arch = "aarch64")]
const TLS_DIALECT: &[&str] = &["-mtls-dialect=trad"];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const TLS_DIALECT: &[&str] = &[];

/// The C compiler: `$CC` (a command with arguments, e.g. `gcc -m64`), else `cc`.
fn cc() -> Vec<String> {
    let words: Vec<String> = std::env::var("CC").unwrap_or_default().split_whitespace().map(String::from).collect();
    if words.is_empty() {
        vec!["cc".into()]
    } else {
        words
    }
}

/// Whether `src` is a preprocessed C file (`.i`).
pub fn is_preprocessed(src: &Path) -> bool {
    src.extension().and_then(|e| e.to_str()) == Some("i")
}

/// What the compiler reads for `src`, prepared once per compilation ([`prepare`]).
struct Input {
    /// The file compiled: `src`, or for a preprocessed program its copy.
    path: PathBuf,
    /// The runtime header force-included.
    header: PathBuf,
    /// `src` is preprocessed: compiled as C again (`-x c`).
    preprocessed: bool,
}

/// Write the runtime headers into `dir` and, for a preprocessed program, the source the
/// compiler reads: a copy whose synchronising objects have this machine's sizes
/// ([`native_object_sizes`]), attributed to `src` by a line marker (diagnostics and debug
/// info name the user's file and lines). Flags for every compilation go to `extra`: a
/// file preprocessed for a 32-bit data model (its `size_t` an `unsigned int`) gets
/// `-D__UNFOLD_SIZE_T_32` (unfold_i.h then routes the functions that store a `size_t`
/// through a pointer to adapters that store 4 bytes).
fn prepare(src: &Path, dir: &Path, extra: &mut Vec<String>) -> Result<Input> {
    let preprocessed = is_preprocessed(src);
    let (name, text) = if preprocessed {
        ("unfold_i.h", unfold_runtime::HEADER_PREPROCESSED)
    } else {
        ("unfold.h", unfold_runtime::HEADER)
    };
    let header = dir.join(name);
    std::fs::write(&header, text).context("writing the runtime header")?;
    std::fs::write(dir.join("unfold_renames.h"), unfold_runtime::HEADER_RENAMES)
        .context("writing the runtime header")?;
    if !preprocessed {
        return Ok(Input { path: src.to_path_buf(), header, preprocessed });
    }
    let text = std::fs::read(src).with_context(|| format!("{}: cannot read", src.display()))?;
    let text = String::from_utf8_lossy(&text);
    if text.contains("typedef unsigned int size_t;") {
        extra.push("-D__UNFOLD_SIZE_T_32".into());
    }
    // Preprocessed files are often old C, which newer compilers reject by default (gcc 14,
    // clang 16): keep these diagnostics warnings.
    extra.extend(
        [
            "-Wno-error=implicit-function-declaration",
            "-Wno-error=implicit-int",
            "-Wno-error=int-conversion",
            "-Wno-error=incompatible-pointer-types",
        ]
        .map(String::from),
    );
    let copy = dir.join("program.i");
    let abs = std::fs::canonicalize(src).unwrap_or_else(|_| src.to_path_buf());
    let marker = format!("# 1 {:?}\n", abs.display().to_string());
    std::fs::write(&copy, marker + &native_object_sizes(&text, &unfold_runtime::object_sizes()))
        .context("writing the program's copy")?;
    Ok(Input { path: copy, header, preprocessed })
}

/// A preprocessed file carries the definitions of `pthread_mutex_t` and its kin for the
/// machine it was preprocessed on: SV-COMP's files mostly for 32-bit x86, where a mutex
/// has 24 bytes, not 40. The runtime reads and writes a synchronising object with this
/// machine's layout, so the storage of each such union (its `char __size[N]` member) is
/// widened to this machine's size (`sizes`: type name and size); what a program stores in
/// the objects' fields is all zero in practice (the static initialisers), which reads the
/// same in both layouts.
pub fn native_object_sizes<'a>(text: &'a str, sizes: &[(&str, usize)]) -> std::borrow::Cow<'a, str> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let bytes = text.as_bytes();
    // The braces matching the one at `at`, scanning forward or backward.
    let matching = |at: usize, forward: bool| -> Option<usize> {
        let mut depth = 0i32;
        let mut i = at;
        loop {
            match bytes[i] {
                b'{' => depth += if forward { 1 } else { -1 },
                b'}' => depth += if forward { -1 } else { 1 },
                _ => {}
            }
            if depth == 0 {
                return Some(i);
            }
            i = if forward { i + 1 } else { i.checked_sub(1)? };
            if i >= bytes.len() {
                return None;
            }
        }
    };
    let mut edits: Vec<(std::ops::Range<usize>, usize)> = Vec::new();
    for &(name, size) in sizes {
        let mut from = 0;
        while let Some(at) = text[from..].find(name).map(|i| from + i) {
            from = at + name.len();
            if text[..at].ends_with(ident) || text[from..].starts_with(ident) {
                continue;
            }
            let before = text[..at].trim_end();
            let after = text[from..].trim_start();
            // `typedef union { ... } NAME;` or `union NAME { ... };`
            let body = if before.ends_with('}') && after.starts_with(';') {
                matching(before.len() - 1, false).map(|open| open..before.len() - 1)
            } else if (before.ends_with("union") || before.ends_with("struct")) && after.starts_with('{') {
                let open = text.len() - after.len();
                matching(open, true).map(|close| open..close)
            } else {
                None
            };
            let Some(body) = body else { continue };
            // The union's own `__size[N]` member, not one of a nested type.
            let mut depth = 0;
            let mut member = None;
            for (i, c) in text[body.clone()].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    '_' if depth == 1 && text[body.start + i..].starts_with("__size[") => {
                        member = Some(body.start + i + "__size[".len());
                        break;
                    }
                    _ => {}
                }
            }
            let Some(member) = member else { continue };
            let digits = text[member..].find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
            match text[member..member + digits].parse::<usize>() {
                Ok(n) if n < size && text[member + digits..].starts_with(']') => {
                    edits.push((member..member + digits, size))
                }
                _ => {}
            }
        }
    }
    edits.sort_by_key(|(r, _)| r.start);
    edits.dedup();
    if edits.is_empty() {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8 * edits.len());
    let mut last = 0;
    for (r, size) in edits {
        out.push_str(&text[last..r.start]);
        out.push_str(&size.to_string());
        last = r.end;
    }
    out.push_str(&text[last..]);
    out.into()
}

fn run_cc(src: &Path, input: &Input, dir: &Path, flags: &CompileFlags, extra: &[String]) -> Result<PathBuf> {
    let so = dir.join("program.so");
    let obj = dir.join("program.o");
    // Compile with the thread sanitizer's instrumentation (every shared access and
    // atomic calls a `__tsan_*` function, which unfold exports), then link without its
    // runtime.
    let cc = cc();
    let mut cmd = Command::new(&cc[0]);
    cmd.args(&cc[1..]);
    unfold_runtime::die_with_parent(&mut cmd);
    // The compiler's own temporaries go into our directory: a checker killed while
    // compiling (the compiler dies with it) leaves them where stale directories are reaped.
    cmd.env("TMPDIR", dir);
    cmd.args(["-c", "-g", "-fPIC", "-fno-omit-frame-pointer"]);
    if flags.instrument {
        cmd.args(["-fsanitize=thread", "-Wno-tsan"]);
    }
    cmd.arg(format!("-O{}", flags.opt.as_deref().unwrap_or("0")));
    // Stack probes: a frame larger than a page touches every page in order, so running
    // off a stack always hits its guard region (reported as a stack overflow).
    cmd.arg("-fstack-clash-protection");
    // Every access to a thread-local variable calls __tls_get_addr, which the runtime
    // serves from the running program thread's own block (see unfold_runtime::tls).
    cmd.arg("-ftls-model=global-dynamic");
    cmd.args(TLS_DIALECT);
    cmd.arg("-include").arg(&input.header);
    for d in &flags.defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in &flags.includes {
        cmd.arg("-I").arg(i);
    }
    cmd.args(extra);
    cmd.args(&flags.cflags);
    cmd.arg("-o").arg(&obj);
    if input.preprocessed {
        // Compiled as C again, so that unfold_i.h's renames apply.
        cmd.args(["-x", "c"]).arg(&input.path).args(["-x", "none"]);
    } else {
        cmd.arg(&input.path);
    }
    let out = cmd.output().with_context(|| format!("cannot run the C compiler `{}` (set $CC)", cc.join(" ")))?;
    if !out.status.success() {
        let raw = format!("{}{}", String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout));
        return Err(CompileError { file: src.display().to_string(), diagnostics: tidy_diagnostics(&raw, dir) }.into());
    }
    let mut link = Command::new(&cc[0]);
    link.args(&cc[1..]);
    unfold_runtime::die_with_parent(&mut link);
    link.env("TMPDIR", dir);
    link.args(["-shared", "-Wl,-Bsymbolic", "-o"]).arg(&so).arg(&obj).arg("-lm");
    link.args(flags.cflags.iter().filter(|f| f.starts_with("-l") || f.starts_with("-L") || f.starts_with("-Wl,")));
    let out = link.output().with_context(|| format!("cannot run the C compiler `{}` (set $CC)", cc.join(" ")))?;
    if !out.status.success() {
        let raw = format!("{}{}", String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout));
        return Err(CompileError { file: src.display().to_string(), diagnostics: tidy_diagnostics(&raw, dir) }.into());
    }
    Ok(so)
}

struct Inspection {
    /// The object accesses thread-local variables without `__tls_get_addr`.
    static_tls: bool,
    undefined: Vec<String>,
    data_symbols: Vec<(u64, u64, String)>,
    /// [`Compiled::entry_hooks`].
    entry_hooks: Vec<(u64, EntryHook)>,
    defines_main: bool,
    /// [`Compiled::tries_mutexes`].
    tries_mutexes: bool,
    /// The program defines one of [`PREPROCESSED_VERIFIER_ADAPTERS`]: a preprocessed
    /// program's own `__VERIFIER_error` or `__VERIFIER_atomic_begin/end`, renamed.
    own_verifier_renamed: bool,
}

/// unfold_i.h's adapters of the SV-COMP functions a program may define itself.
const PREPROCESSED_VERIFIER_ADAPTERS: [&str; 3] =
    ["__unfold_pc_VERIFIER_error", "__unfold_pc_VERIFIER_atomic_begin", "__unfold_pc_VERIFIER_atomic_end"];

fn inspect(so: &Path) -> Result<Inspection> {
    let bytes = std::fs::read(so).context("reading the compiled program")?;
    let file = object::File::parse(&*bytes).context("parsing the compiled program")?;
    // Dynamic relocations of the static TLS models (initial-exec offsets from the thread
    // pointer) and of TLS descriptors: such accesses bypass __tls_get_addr, so every
    // program thread would share one copy.
    const STATIC_TLS: &[u32] = if cfg!(target_arch = "aarch64") {
        &[1030, 1031] // R_AARCH64_TLS_TPREL64, R_AARCH64_TLSDESC
    } else {
        &[18, 23, 36] // R_X86_64_TPOFF64, R_X86_64_TPOFF32, R_X86_64_TLSDESC
    };
    let static_tls = file
        .dynamic_relocations()
        .into_iter()
        .flatten()
        .any(|(_, r)| matches!(r.flags(), object::RelocationFlags::Elf { r_type } if STATIC_TLS.contains(&r_type)));
    let mut undefined = Vec::new();
    let mut tries_mutexes = false;
    for s in file.dynamic_symbols() {
        if s.is_undefined() && !s.is_weak() {
            if let Ok(n) = s.name() {
                tries_mutexes |= tries_a_mutex(n);
                if !n.is_empty() && !n.starts_with("__unfold_") {
                    undefined.push(n.to_string());
                }
            }
        }
    }
    let mut data_symbols = Vec::new();
    let mut entry_hooks = Vec::new();
    let mut defines_main = false;
    let mut own_verifier_renamed = false;
    for s in file.symbols().chain(file.dynamic_symbols()) {
        let Ok(n) = s.name() else { continue };
        if s.is_undefined() {
            continue;
        }
        match s.kind() {
            SymbolKind::Data if s.size() > 0 => data_symbols.push((s.address(), s.size(), n.to_string())),
            SymbolKind::Text => {
                if n == "main" {
                    defines_main = true;
                }
                if let Some(hook) = own_svcomp_fn(n).filter(|_| s.size() > 0) {
                    entry_hooks.push((s.address(), hook));
                }
                own_verifier_renamed |= PREPROCESSED_VERIFIER_ADAPTERS.contains(&n);
            }
            _ => {}
        }
    }
    data_symbols.sort();
    data_symbols.dedup();
    entry_hooks.sort();
    entry_hooks.dedup();
    undefined.sort();
    undefined.dedup();
    Ok(Inspection {
        static_tls,
        undefined,
        data_symbols,
        entry_hooks,
        defines_main,
        tries_mutexes,
        own_verifier_renamed,
    })
}

/// What a call of the SV-COMP function `name` means when the program defines it itself.
fn own_svcomp_fn(name: &str) -> Option<EntryHook> {
    match name {
        "reach_error" | "__VERIFIER_error" => Some(EntryHook::Error),
        "__VERIFIER_atomic_begin" => Some(EntryHook::AtomicBegin),
        "__VERIFIER_atomic_end" => Some(EntryHook::AtomicEnd),
        _ if name.starts_with("__VERIFIER_atomic_") => Some(EntryHook::AtomicFn),
        _ => None,
    }
}

/// The header's trampolines of the SV-COMP functions a program may define itself: one it
/// only declares is renamed to its trampoline. The header renames the `__VERIFIER_` ones
/// unless the program defines one of them (then it is compiled with
/// `__UNFOLD_OWN_VERIFIER`).
const SVCOMP_TRAMPOLINES: [(&str, &str); 4] = [
    ("reach_error", "__unfold_VERIFIER_error"),
    ("__VERIFIER_error", "__unfold_VERIFIER_error"),
    ("__VERIFIER_atomic_begin", "__unfold_VERIFIER_atomic_begin"),
    ("__VERIFIER_atomic_end", "__unfold_VERIFIER_atomic_end"),
];

/// Functions that open, create, rename or remove files: what an execution does with
/// them outlives it (neither a reset nor a fresh process undoes a write to a file).
const FILE_FUNCTIONS: &[&str] = &[
    "fopen",
    "fopen64",
    "freopen",
    "freopen64",
    "fdopen",
    "open",
    "open64",
    "openat",
    "openat64",
    "creat",
    "creat64",
    "mkstemp",
    "mkstemp64",
    "mkostemp",
    "tmpfile",
    "tmpfile64",
    "rename",
    "renameat",
    "unlink",
    "unlinkat",
    "remove",
    "mkdir",
    "rmdir",
    "truncate",
    "truncate64",
    "ftruncate",
    "ftruncate64",
    "link",
    "symlink",
    "mkfifo",
];

/// The warning for a program that uses files, if it does (once per run, on stderr and in
/// the JSON report).
pub fn file_warning(imports: &[String]) -> Option<String> {
    let used: Vec<&str> = imports.iter().map(String::as_str).filter(|n| FILE_FUNCTIONS.contains(n)).collect();
    (!used.is_empty()).then(|| {
        format!(
            "the program uses files ({}): what one execution writes to a file is not undone before the next, \
             so an execution may see files written by earlier ones (verdicts can depend on the order of \
             exploration)",
            used.join(", ")
        )
    })
}

/// Refuse, with a message that says why, what is not a readable C source file.
pub fn check_source(src: &Path) -> Result<()> {
    match std::fs::metadata(src) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!("{}: no such file", src.display()),
        Err(e) => bail!("{}: {e}", src.display()),
        Ok(m) if m.is_dir() => bail!("{}: is a directory, not a C source file", src.display()),
        Ok(m) if !m.is_file() => bail!("{}: not a regular file", src.display()),
        Ok(_) => {}
    }
    if !matches!(src.extension().and_then(|e| e.to_str()), Some("c" | "i")) {
        bail!("{}: not a C source file (unfold checks C programs: a `.c` file, or a preprocessed `.i`)", src.display());
    }
    std::fs::File::open(src).with_context(|| format!("{}: cannot read", src.display()))?;
    Ok(())
}

/// Whether a program's source is written for SV-COMP: it names `reach_error` or one of
/// the `__VERIFIER_*` functions (checked on the file itself, not on what it includes:
/// unfold's own header defines the `__VERIFIER_*` entry points for every program).
pub fn written_for_svcomp(source: &[u8]) -> bool {
    let has = |needle: &[u8]| source.windows(needle.len()).any(|w| w == needle);
    has(b"reach_error") || has(b"__VERIFIER_")
}

/// Compile `src` into `dir`, refusing unsupported programs.
pub fn compile(src: &Path, dir: &Path, flags: &CompileFlags) -> Result<Compiled> {
    check_source(src)?;
    let mut extra = Vec::new();
    let input = prepare(src, dir, &mut extra)?;
    let mut so = match run_cc(src, &input, dir, flags, &extra) {
        Ok(so) => so,
        Err(first) => {
            // A program that defines __VERIFIER_error or __VERIFIER_atomic_begin/end
            // itself clashes with the header's trampolines: compile it with its own
            // definitions (their calls are hooked below); any other error is the first
            // compilation's.
            let source = std::fs::read(src).unwrap_or_default();
            let mentions = |n: &str| source.windows(n.len()).any(|w| w == n.as_bytes());
            if !SVCOMP_TRAMPOLINES.iter().any(|(n, _)| n.starts_with("__VERIFIER_") && mentions(n)) {
                return Err(first);
            }
            extra.push("-D__UNFOLD_OWN_VERIFIER".to_string());
            run_cc(src, &input, dir, flags, &extra).map_err(|_| first)?
        }
    };
    let mut ins = inspect(&so)?;
    if ins.own_verifier_renamed {
        // A preprocessed program that defines __VERIFIER_error or
        // __VERIFIER_atomic_begin/end compiles with unfold_i.h's renames too: its
        // definition became the adapter's. Keep its own name (and hook its entry below).
        extra.push("-D__UNFOLD_OWN_VERIFIER".to_string());
        so = run_cc(src, &input, dir, flags, &extra)?;
        ins = inspect(&so)?;
    }
    let mut again = false;
    for (name, trampoline) in SVCOMP_TRAMPOLINES {
        if ins.undefined.iter().any(|n| n == name) {
            // Declared but not defined: the header's trampoline serves it.
            extra.push(format!("-D{name}={trampoline}"));
            again = true;
        }
    }
    if !ins.entry_hooks.is_empty() {
        // Functions named __VERIFIER_atomic_* run atomically, and entering the program's
        // own reach_error (or __VERIFIER_error, __VERIFIER_atomic_begin/end) does what its
        // name says: hook function entry/exit.
        extra.extend(["-finstrument-functions".to_string(), "-D__UNFOLD_INSTRUMENT".to_string()]);
        again = true;
    }
    if again {
        so = run_cc(src, &input, dir, flags, &extra)?;
        ins = inspect(&so)?;
    }
    if !ins.defines_main {
        return Err(Refused(format!("{}: the program has no `main` function", src.display())).into());
    }
    let mut refused: Vec<String> = ins.undefined.iter().filter_map(|n| refusal(n)).collect();
    // Every undefined thread function is refused (the supported ones are renamed to the
    // runtime's by the header).
    if ins.undefined.iter().any(|n| is_thread_fn(n) && !NAMED_SEMAPHORE_FNS.contains(&n.as_str())) {
        refused.push(format!("supported: {SUPPORTED_THREAD_FNS}"));
    }
    if ins.static_tls {
        refused.push(
            "thread-local variables accessed with the initial-exec/local-exec TLS model or TLS descriptors \
             (a tls_model attribute or --cflags); unfold needs -ftls-model=global-dynamic so that each thread \
             gets its own copy"
                .into(),
        );
    }
    if !refused.is_empty() {
        return Err(Refused(format!("{}: unsupported program:\n  {}", src.display(), refused.join("\n  "))).into());
    }
    let stateful_imports: Vec<String> = ins
        .undefined
        .iter()
        .filter(|n| {
            !STATELESS.contains(&n.as_str())
                && !n.starts_with("__unfold_")
                && !n.starts_with("__tsan_")
                && *n != "__cyg_profile_func_enter"
                && *n != "__cyg_profile_func_exit"
        })
        .cloned()
        .collect();
    Ok(Compiled {
        so,
        resettable: stateful_imports.is_empty(),
        stateful_imports,
        data_symbols: ins.data_symbols,
        entry_hooks: ins.entry_hooks,
        tries_mutexes: ins.tries_mutexes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preprocessed_files_objects_get_this_machines_sizes() {
        let text = "typedef union {\n struct __pthread_mutex_s { int __kind; } __data;\n char __size[24];\n \
                    long int __align;\n} pthread_mutex_t;\ntypedef union { char __size[16]; long int __align; } sem_t;\n\
                    typedef union { char __size[64]; } pthread_cond_t;\nint pthread_mutex_t_count;\n\
                    struct other { char __size[8]; } pthread_cond_t_like;\n";
        let text = &format!("{text}union pthread_attr_t\n{{\n  char __size[36];\n  long int __align;\n}};\n");
        let sizes = [("pthread_mutex_t", 40), ("sem_t", 32), ("pthread_cond_t", 48), ("pthread_attr_t", 56)];
        let out = native_object_sizes(text, &sizes);
        assert!(out.contains("char __size[40];\n long int __align;\n} pthread_mutex_t;"), "{out}");
        assert!(out.contains("{ char __size[32]; long int __align; } sem_t;"), "{out}");
        assert!(out.contains("char __size[64]; } pthread_cond_t;"), "never shrunk: {out}");
        assert!(out.contains("struct other { char __size[8]; }"), "other types untouched: {out}");
        assert!(out.contains("union pthread_attr_t\n{\n  char __size[56];"), "a tagged union: {out}");
        assert_eq!(out.lines().count(), text.lines().count(), "lines keep their numbers");
        let native = native_object_sizes(&out, &sizes);
        assert!(matches!(native, std::borrow::Cow::Borrowed(_)), "a native file is compiled as it is");
    }

    #[test]
    fn diagnostics_name_the_header_and_are_capped() {
        let tmp = Path::new("/tmp/unfold-AbC123");
        let raw = "In file included from <command-line>:\n/tmp/unfold-AbC123/unfold.h:3:1: error: bad\n";
        let t = tidy_diagnostics(raw, tmp);
        assert!(!t.contains("/tmp/unfold-AbC123"), "{t}");
        assert!(t.contains("<unfold.h>:3:1: error: bad"), "{t}");
        assert!(t.contains("runtime header"), "{t}");
        let many: String = (0..500).map(|i| format!("x.c:{i}:1: error: junk {i}\n  context\n")).collect();
        let t = tidy_diagnostics(&many, tmp);
        assert_eq!(t.matches("error: junk").count(), MAX_ERRORS, "{t}");
        assert!(t.contains("480 more error(s) not shown"), "{t}");
        assert!(!t.contains("runtime header"), "{t}");
        let long = format!("x.c:1:1: error: stray\n{}\n", "\u{1}".repeat(100_000));
        assert!(tidy_diagnostics(&long, tmp).len() < 1_000);
    }

    #[test]
    fn unsupported_functions_are_refused_by_name() {
        assert!(refusal("pthread_cond_wait").unwrap().contains("pthread_cond_wait"));
        assert!(refusal("pthread_attr_setstack").unwrap().contains("use pthread_attr_setstacksize"));
        assert!(refusal("pthread_attr_setsigmask_np").unwrap().contains("would change"));
        assert!(refusal("pthread_attr_setaffinity_np").unwrap().contains("pthread_setaffinity_np"));
        assert!(refusal("pthread_mutex_consistent").unwrap().contains("robust mutexes are not supported"));
        assert!(refusal("pthread_getcpuclockid").unwrap().contains("virtual"));
        assert!(refusal("pthread_setattr_default_np").unwrap().contains("pthread_getattr_default_np"));
        assert!(refusal("sem_post").is_some());
        assert!(refusal("__atomic_compare_exchange").unwrap().contains("libatomic"));
        assert!(refusal("__atomic_feraiseexcept").is_none(), "served by the runtime");
        let cancel = refusal("pthread_cancel").unwrap();
        assert!(cancel.contains("`pthread_cancel` is not supported by unfold"), "{cancel}");
        assert!(
            !cancel.contains("pthread_create"),
            "the supported functions are listed once, not per refusal: {cancel}"
        );
        assert!(refusal("sem_open").unwrap().contains("sem_init"), "named semaphores get a hint");
        // The types unfold draws are renamed by the header; the others stay imports.
        assert!(refusal("__VERIFIER_nondet_int128").unwrap().contains("not this one"));
    }

    #[test]
    fn mutex_tries_are_recognised_by_their_runtime_entry_points() {
        assert!(tries_a_mutex("__unfold_try_pthread_mutex_trylock"));
        assert!(tries_a_mutex("__unfold_pthread_mutex_timedlock"));
        assert!(tries_a_mutex("__unfold_try_cnd_timedwait"));
        assert!(tries_a_mutex("__unfold_try_pthread_cond_clockwait"), "a clock variant is its timed one");
        assert!(tries_a_mutex("__unfold_pc_pthread_mutex_clocklock"));
        assert!(tries_a_mutex("__unfold_pc_pthread_mutex_trylock"), "a preprocessed program's");
        assert!(!tries_a_mutex("__unfold_pthread_mutex_lock"));
        assert!(!tries_a_mutex("__unfold_try_sem_timedwait"), "a semaphore has no unlock");
        assert!(!tries_a_mutex("pthread_mutex_trylock"), "only the runtime's entry points");
    }

    #[test]
    fn an_svcomp_program_is_recognised_by_its_harness_names() {
        assert!(written_for_svcomp(b"extern void reach_error(void);\nint main(void) { return 0; }"));
        assert!(written_for_svcomp(b"int main(void) { __VERIFIER_atomic_begin(); return 0; }"));
        assert!(!written_for_svcomp(b"#include <assert.h>\nint main(void) { assert(1); return 0; }"));
        assert!(refusal("fork").is_some());
        assert!(refusal("printf").is_none());
        assert!(refusal("malloc").is_none());
    }
}
