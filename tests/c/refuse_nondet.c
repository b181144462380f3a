// __VERIFIER_nondet_int makes the program data-nondeterministic: refused.
// expect: refused=__VERIFIER_nondet_int
extern int __VERIFIER_nondet_int(void);

int main(void) {
    return __VERIFIER_nondet_int() > 0;
}
