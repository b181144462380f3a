// Two threads increment a counter under an atomic_exchange spinlock. An exchange that
// stores the 1 already there changes nothing: a load (spin_rmw_xchg_lock3.c has three).
// expect: verdict=ok maximal=6
// Derivation: as spin_rmw_cas_lock.c: 2 orders of the critical sections (the count with
// a mutex) × 0, 1 or 2 failed exchanges of the loser while the winner holds the lock = 6.
// Two, not one as with the CAS and test-and-set locks: compiled without optimisation the
// loop keeps the exchange's result (1) in a stack temporary its first iteration writes
// for the first time, so the state at the second visit of the exchange differs from the
// first (which held a zero there) and the spinner is found waiting at its third visit
// (the runtime compares a first visit only where the bytes are a function of the
// thread's history: crates/runtime/src/memory.rs, "spin loops").
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int l;
int counter;

void *worker(void *arg) {
    (void)arg;
    while (atomic_exchange(&l, 1)) {
    }
    counter++;
    atomic_store(&l, 0);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(counter == 2);
    return 0;
}
