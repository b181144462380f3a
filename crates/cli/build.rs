//! The program under test is a shared object that calls the `__unfold_*` shims defined in
//! the runtime crate: export them from the `unfold` binary.
fn main() {
    println!("cargo:rustc-link-arg-bins=-rdynamic");
}
