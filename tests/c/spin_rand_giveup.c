// A consumer spins on a flag but gives up when `rand()` says so (a randomised time-out),
// then asserts the flag: it fails when the producer has not run yet. The loop's state
// repeats (registers and stack), but `rand`'s does not: a loop that calls it is never a
// pure iteration (before, the loop became an assumption and the give-up was never run:
// verdict OK). `rand` is one sequence per thread, the same in every execution.
// expect: verdict=defect kind=assertion line=15
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <assert.h>
atomic_int ready;
void *consumer(void *arg) {
    while (!atomic_load(&ready))
        if (rand() % 3 == 0) break;
    assert(atomic_load(&ready));
    return arg;
}
void *producer(void *arg) {
    atomic_store(&ready, 1);
    return arg;
}
int main(void) {
    pthread_t c, p;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(c, 0);
    pthread_join(p, 0);
    return 0;
}
