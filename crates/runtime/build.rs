//! Compiles `src/tsan.c`: the thread-sanitizer entry points (`__tsan_read4`,
//! `__tsan_atomic32_fetch_add`, ...) that programs compiled with `-fsanitize=thread` call.
//! They are written in C because each must pass its caller's return address (the site
//! of the access) and callee-saved registers (for spin detection) to the Rust side,
//! which only `__builtin_return_address` and inline assembly at function entry give;
//! unoptimised, so that those functions use no callee-saved register themselves.
//!
//! The object carries a hash of the source it was compiled from
//! (`__unfold_tsan_source_hash`), which the runtime compares with the hash of the
//! `tsan.c` it was compiled with (`memory::check_tsan_object`): cargo reruns this script
//! only when `tsan.c` is newer than its last run, so a target directory copied from
//! another checkout can keep an object compiled from another version of the file.
fn main() {
    println!("cargo:rerun-if-changed=src/tsan.c");
    let src = std::fs::read("src/tsan.c").expect("reading src/tsan.c");
    cc::Build::new()
        .file("src/tsan.c")
        .flag_if_supported("-fno-omit-frame-pointer")
        .define("UNFOLD_TSAN_SOURCE_HASH", format!("{}ULL", fnv1a(&src)).as_str())
        .opt_level(0)
        .compile("unfold_tsan");
}

/// 64-bit FNV-1a, as `memory::fnv1a` computes it.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}
