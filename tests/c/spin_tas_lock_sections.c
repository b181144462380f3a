// THREADS threads each enter a critical section SECTIONS times under a test-and-set
// spinlock (atomic_flag). A failed test-and-set changes nothing (a load), and the spin's
// wait is an assumption: a thread whose attempt fails is not woken by the holder's
// clear; the execution where it attempts after the clear is explored instead
// (docs/memory.md, "Spin-waits as assumptions"). While a woken wait was performed and
// its thread tried again, every failed retry was a new event.
// expect: verdict=ok maximal=58
// Derivation (by enumeration, not by hand): 2 threads x 3 sections: dfs runs 792
// interleavings and finds 58 distinct traces, the count of every explorer (2 104 before
// assumptions; with a mutex 6! / (3! 3!) = 20). -D THREADS=3 -D SECTIONS=2: dfs runs
// 210 032 interleavings and finds 522, as do QPOR (optimal and -k 1), optimal-, source-
// and classic-DPOR (650 282 before; with a mutex 90).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#ifndef THREADS
#define THREADS 2
#endif
#ifndef SECTIONS
#define SECTIONS 3
#endif

atomic_flag lock = ATOMIC_FLAG_INIT;
int counter;

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < SECTIONS; i++) {
        while (atomic_flag_test_and_set(&lock))
            ;
        counter++;
        atomic_flag_clear(&lock);
    }
    return 0;
}

int main(void) {
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], 0);
    assert(counter == THREADS * SECTIONS);
    return 0;
}
