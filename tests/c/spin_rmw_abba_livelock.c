// Two spinlocks built from atomic_flag, taken in opposite orders (AB-BA): when each
// thread holds its first lock, each spins with test-and-set on the other's flag. A
// failed test-and-set changes nothing, so both spins are waits that nothing can end: a
// livelock naming both loops (lines 17 and 28) and both flags (crates/cli/tests/
// c_programs.rs checks the report names all four). Before unchanged read-modify-writes
// counted as loads: every schedule that reached the inversion ran to the step bound.
// expect: verdict=defect kind=livelock line=17|28
#include <pthread.h>
#include <stdatomic.h>

atomic_flag fa = ATOMIC_FLAG_INIT, fb = ATOMIC_FLAG_INIT;

void *ab(void *arg) {
    (void)arg;
    while (atomic_flag_test_and_set(&fa)) {
    }
    while (atomic_flag_test_and_set(&fb)) {
    }
    atomic_flag_clear(&fb);
    atomic_flag_clear(&fa);
    return 0;
}

void *ba(void *arg) {
    (void)arg;
    while (atomic_flag_test_and_set(&fb)) {
    }
    while (atomic_flag_test_and_set(&fa)) {
    }
    atomic_flag_clear(&fa);
    atomic_flag_clear(&fb);
    return 0;
}

int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, ab, 0);
    pthread_create(&y, 0, ba, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
