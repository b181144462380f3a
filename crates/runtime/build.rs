//! Compiles `src/tsan.c`: the thread-sanitizer entry points (`__tsan_read4`,
//! `__tsan_atomic32_fetch_add`, ...) that programs compiled with `-fsanitize=thread` call.
//! They are written in C because each must pass its caller's return address (the site
//! of the access) and callee-saved registers (for spin detection) to the Rust side,
//! which only `__builtin_return_address` and inline assembly at function entry give;
//! unoptimised, so that those functions use no callee-saved register themselves.
fn main() {
    println!("cargo:rerun-if-changed=src/tsan.c");
    cc::Build::new()
        .file("src/tsan.c")
        .flag_if_supported("-fno-omit-frame-pointer")
        .opt_level(0)
        .compile("unfold_tsan");
}
