// Two threads increment a counter under a test-and-set spinlock (atomic_flag). A
// test-and-set on a set flag changes nothing: a load, so two threads spinning on a
// held flag do not wake each other (each waits for the holder's clear).
// expect: verdict=ok maximal=4
// Derivation: as spin_rmw_cas_lock.c: 2 orders of the critical sections (the count of
// the same program with a mutex) × 0 or 1 failed test-and-set of the loser while the
// winner holds the flag (after one, it waits for the clear) = 4.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_flag f = ATOMIC_FLAG_INIT;
int counter;

void *worker(void *arg) {
    (void)arg;
    while (atomic_flag_test_and_set(&f)) {
    }
    counter++;
    atomic_flag_clear(&f);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
