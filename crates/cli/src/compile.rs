//! Compiling the program under test into a shared object, and vetting what it imports.
//!
//! The program is compiled with the system C compiler (`$CC`, default `cc`) as
//! `-g -fPIC -shared -include unfold.h`, plus the user's flags. The header (embedded in
//! the binary) renames the supported API to the runtime's shims; whatever else the object
//! still imports is inspected here: unsupported thread/semaphore/condition functions and
//! `__VERIFIER_nondet_*` are refused by name; imports outside a list of functions without
//! hidden state make the run use one process per execution (the persistent worker's reset
//! covers only the program's own memory).

use anyhow::{bail, Context, Result};
use object::{Object, ObjectSymbol, SymbolKind};
use std::path::{Path, PathBuf};
use std::process::Command;

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
    /// Offsets of functions named `__VERIFIER_atomic_*`.
    pub atomic_fns: Vec<u64>,
}

/// The reason a program is refused before exploration.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

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
    // Served by the runtime's own __tls_get_addr (per-thread blocks it resets).
    "__tls_get_addr",
];

fn refusal(name: &str) -> Option<String> {
    let threads = ["pthread_", "sem_", "thrd_", "mtx_", "cnd_", "tss_"];
    if threads.iter().any(|p| name.starts_with(p)) || name == "call_once" {
        let hint = match name {
            "pthread_attr_setstack" | "pthread_attr_setstackaddr" => {
                "; a caller-provided stack cannot be placed at unfold's fixed per-thread stack addresses: \
                 use pthread_attr_setstacksize"
            }
            _ if name.starts_with("pthread_attr_") => "; this attribute would change the thread's semantics",
            _ => "",
        };
        return Some(format!(
            "`{name}` is not supported by unfold (supported: pthread_create/join/exit/self/equal/detach, \
             pthread_mutex_init/destroy/lock/unlock/trylock, pthread_mutexattr_init/destroy/settype/gettype, \
             pthread_attr_init/destroy and set/get of detachstate, stacksize, guardsize, scope, \
             schedpolicy, inheritsched, schedparam, pthread_key_create/delete, \
             pthread_getspecific/setspecific, tss_create/delete/get/set){hint}"
        ));
    }
    if name.starts_with("__VERIFIER_nondet") {
        return Some(format!(
            "`{name}` makes the program data-nondeterministic; unfold explores thread schedules only \
             (replace it with a fixed value, e.g. with -D)"
        ));
    }
    if name.starts_with("__VERIFIER_") {
        return Some(format!("`{name}` is not supported by unfold"));
    }
    if [
        "fork",
        "vfork",
        "clone",
        "system",
        "popen",
        "posix_spawn",
        "posix_spawnp",
        "execv",
        "execve",
        "execvp",
        "execl",
        "execlp",
    ]
    .contains(&name)
    {
        return Some(format!("`{name}` creates processes, which unfold does not support"));
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

fn cc() -> String {
    std::env::var("CC").ok().filter(|s| !s.trim().is_empty()).unwrap_or_else(|| "cc".into())
}

fn run_cc(src: &Path, dir: &Path, flags: &CompileFlags, extra: &[String]) -> Result<PathBuf> {
    let header = dir.join("unfold.h");
    if !header.exists() {
        std::fs::write(&header, unfold_runtime::HEADER).context("writing the runtime header")?;
    }
    let so = dir.join("program.so");
    let mut cmd = Command::new(cc());
    cmd.args(["-g", "-fPIC", "-shared", "-fno-omit-frame-pointer", "-Wl,-Bsymbolic"]);
    cmd.arg(format!("-O{}", flags.opt.as_deref().unwrap_or("0")));
    // Stack probes: a frame larger than a page touches every page in order, so running
    // off a stack always hits its guard region (reported as a stack overflow).
    cmd.arg("-fstack-clash-protection");
    // Every access to a thread-local variable calls __tls_get_addr, which the runtime
    // serves from the running program thread's own block (see unfold_runtime::tls).
    cmd.arg("-ftls-model=global-dynamic");
    cmd.args(TLS_DIALECT);
    cmd.arg("-include").arg(&header);
    for d in &flags.defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in &flags.includes {
        cmd.arg("-I").arg(i);
    }
    cmd.args(extra);
    cmd.args(&flags.cflags);
    cmd.arg("-o").arg(&so).arg(src).arg("-lm");
    let out = cmd.output().with_context(|| format!("cannot run the C compiler `{}` (set $CC)", cc()))?;
    if !out.status.success() {
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        bail!("compilation of {} failed", src.display());
    }
    Ok(so)
}

struct Inspection {
    /// The object accesses thread-local variables without `__tls_get_addr`.
    static_tls: bool,
    undefined: Vec<String>,
    data_symbols: Vec<(u64, u64, String)>,
    atomic_fns: Vec<u64>,
    defines_main: bool,
}

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
    for s in file.dynamic_symbols() {
        if s.is_undefined() && !s.is_weak() {
            if let Ok(n) = s.name() {
                if !n.is_empty() && !n.starts_with("__unfold_") {
                    undefined.push(n.to_string());
                }
            }
        }
    }
    let mut data_symbols = Vec::new();
    let mut atomic_fns = Vec::new();
    let mut defines_main = false;
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
                if n.starts_with("__VERIFIER_atomic_") && n != "__VERIFIER_atomic_begin" && n != "__VERIFIER_atomic_end"
                {
                    atomic_fns.push(s.address());
                }
            }
            _ => {}
        }
    }
    data_symbols.sort();
    data_symbols.dedup();
    atomic_fns.sort();
    atomic_fns.dedup();
    undefined.sort();
    undefined.dedup();
    Ok(Inspection { static_tls, undefined, data_symbols, atomic_fns, defines_main })
}

/// Compile `src` into `dir`, refusing unsupported programs.
pub fn compile(src: &Path, dir: &Path, flags: &CompileFlags) -> Result<Compiled> {
    if !src.is_file() {
        bail!("{}: no such file", src.display());
    }
    let mut extra = Vec::new();
    let mut so = run_cc(src, dir, flags, &extra)?;
    let mut ins = inspect(&so)?;
    let mut again = false;
    if ins.undefined.iter().any(|n| n == "reach_error") {
        // Declared but not defined: make it the runtime's error entry point.
        extra.push("-Dreach_error=__unfold_VERIFIER_error".to_string());
        again = true;
    }
    if !ins.atomic_fns.is_empty() {
        // Functions named __VERIFIER_atomic_* run atomically: hook function entry/exit.
        extra.extend(["-finstrument-functions".to_string(), "-D__UNFOLD_INSTRUMENT".to_string()]);
        again = true;
    }
    if again {
        so = run_cc(src, dir, flags, &extra)?;
        ins = inspect(&so)?;
    }
    if !ins.defines_main {
        return Err(Refused(format!("{}: the program has no `main` function", src.display())).into());
    }
    let mut refused: Vec<String> = ins.undefined.iter().filter_map(|n| refusal(n)).collect();
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
        atomic_fns: ins.atomic_fns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsupported_functions_are_refused_by_name() {
        assert!(refusal("pthread_cond_wait").unwrap().contains("pthread_cond_wait"));
        assert!(refusal("pthread_attr_setstack").unwrap().contains("use pthread_attr_setstacksize"));
        assert!(refusal("pthread_attr_setaffinity_np").unwrap().contains("would change"));
        assert!(refusal("sem_post").is_some());
        assert!(refusal("__VERIFIER_nondet_int").unwrap().contains("data-nondeterministic"));
        assert!(refusal("fork").is_some());
        assert!(refusal("printf").is_none());
        assert!(refusal("malloc").is_none());
    }
}
