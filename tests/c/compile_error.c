// Does not compile: the compiler's diagnostics are shown and unfold exits with 2.
// expect: compile-error
int main(void) {
    return undeclared_variable;
}
