// main draws its value before its first visible step, and each value is an exploration
// of its own (one execution each): the execution of the value -1 must draw -1, not the
// value of the execution before it (the worker starts the next execution before its
// request comes: tests that the value drawn then is not kept when the valuation changed).
// expect: verdict=defect kind=assertion line=12
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x == -1)
        reach_error();
    return 0;
}
