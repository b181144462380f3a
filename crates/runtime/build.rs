//! Compiles `src/tsan.c`: the thread-sanitizer entry points (`__tsan_read4`,
//! `__tsan_atomic32_fetch_add`, ...) that programs compiled with `-fsanitize=thread` call.
//! They are written in C because each must pass its caller's return address (the site
//! of the access) to the Rust side, which only `__builtin_return_address` gives.
fn main() {
    println!("cargo:rerun-if-changed=src/tsan.c");
    cc::Build::new()
        .file("src/tsan.c")
        .flag_if_supported("-fno-omit-frame-pointer")
        .opt_level(2)
        .compile("unfold_tsan");
}
