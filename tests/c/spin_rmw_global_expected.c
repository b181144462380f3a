// A compare-exchange loop whose `expected` is a global: a failed attempt writes the value
// it found into it (a write the instrumentation does not see: the runtime is told of it,
// __unfold_mem_cas_expected), so the iteration is not pure. Treating it as pure made
// main wait while its next attempt would have succeeded: a false livelock.
// expect: verdict=ok maximal=6
// Derivation: the holder h does CAS(l, 0 -> 1), store(l, 0); main does CAS(l, &g, 1)
// until it succeeds, then store(l, 0). Main first (g = 0, success): while main holds l, h
// fails 0 or 1 time (then waits for main's store): 2 traces. h first: main's CAS after
// h's store succeeds (1 trace); or it fails while h holds l (g becomes 1), and then either
// h's store comes first (main's second attempt fails, g = 0, its third succeeds: 1 trace)
// or main's second attempt CAS(l, 1 -> 1) succeeds without changing l, and the two
// stores to l come in either order (2 traces). 2 + 4 = 6.
#include <pthread.h>
#include <stdatomic.h>

atomic_int l;
int g;

void *holder(void *arg) {
    (void)arg;
    while (!atomic_compare_exchange_strong(&l, &(int){0}, 1)) {
    }
    atomic_store(&l, 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, holder, 0);
    while (!atomic_compare_exchange_strong(&l, &g, 1)) {
    }
    atomic_store(&l, 0);
    pthread_join(t, 0);
    return 0;
}
