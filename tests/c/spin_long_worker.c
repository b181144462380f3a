// main spins on a flag while the worker computes for a long time (local work: 2*10^8
// steps of a generator, well over a second if main's loop were explored or run
// iteration by iteration) before publishing: main blocks on the flag after two identical
// iterations, so the cost does not grow with the length of the work. Maximal
// configurations: the store before main's first load, between its first and second
// load, or after both (main waits) — 3.
// expect: verdict=ok maximal=3
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int done;
unsigned long result;

void *worker(void *arg) {
    (void)arg;
    unsigned long x = 1;
    for (long i = 0; i < 200000000; i++) {
        x = x * 6364136223846793005ul + 1;
        __asm__ volatile("" : "+r"(x));
    }
    result = x;
    atomic_store(&done, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!atomic_load(&done)) {
    }
    assert(result != 0);
    pthread_join(t, 0);
    return 0;
}
