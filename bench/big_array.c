// A worker sums a global 4 MB int array once (10^6 plain reads, instrumented) while main
// spins on a flag the worker sets when done: the race detector's shadow memory must stay
// small and fast for large arrays (issue 10, item 5).
//   unfold check bench/big_array.c [--memory races|none]
// Maximal configurations: the store before main's first load, between its first and
// second load, or after both (main waits) — 3.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#ifndef N
#define N (1 << 20)
#endif

int data[N];
long total;
atomic_int done;

void *worker(void *arg) {
    (void)arg;
    long s = 0;
    for (long i = 0; i < N; i++)
        s += data[i];
    total = s;
    atomic_store(&done, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!atomic_load(&done)) {
    }
    assert(total == 0);
    pthread_join(t, 0);
    return 0;
}
