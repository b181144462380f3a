// Pi by integration with the partial sums in shared memory: THREADS workers each
// accumulate into their own slot of a global array (plain accesses, instrumented, never
// racing: each slot is written by one thread, read by main after the joins), then add
// the slot to the total under a mutex. The compute-heavy case of the instrumentation's
// cost: about 2 * STEPS / THREADS plain accesses per thread between two visible steps.
//   unfold check bench/pi_shared.c -D THREADS=4 [--memory races|sc|none]
// Maximal configurations: THREADS! (the order of the additions on the mutex).
#include <pthread.h>
#include <assert.h>

#ifndef THREADS
#define THREADS 4
#endif
#ifndef STEPS
#define STEPS 2000
#endif

pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
double partial[THREADS];
double sum = 0.0;

void *slice(void *arg) {
    long id = (long)arg;
    double h = 1.0 / STEPS;
    for (long i = id; i < STEPS; i += THREADS) {
        double x = h * ((double)i + 0.5);
        partial[id] += 4.0 / (1.0 + x * x);
    }
    pthread_mutex_lock(&sum_lock);
    sum += partial[id] * h;
    pthread_mutex_unlock(&sum_lock);
    return 0;
}

int main(void) {
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], 0, slice, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], 0);
    assert(sum > 3.14 && sum < 3.15);
    return 0;
}
