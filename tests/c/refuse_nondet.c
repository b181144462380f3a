// unfold draws values for the SV-COMP nondet functions of the usual C types, not for
// __int128: refused by name.
// expect: refused=__VERIFIER_nondet_int128
extern __int128 __VERIFIER_nondet_int128(void);

int main(void) {
    return __VERIFIER_nondet_int128() > 0;
}
