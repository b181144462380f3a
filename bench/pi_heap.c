// bench/pi_shared.c with the partial sums on the heap: main allocates the array, every
// worker allocates (and frees) a scratch block, so that every instrumented access lands
// in the arena and takes the memory-error check's shadow load (docs/memory.md, "Cost of
// the memory-error checks").
//   unfold check bench/pi_heap.c -D THREADS=4
// Maximal configurations: THREADS! (the order of the additions on the mutex).
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

#ifndef THREADS
#define THREADS 4
#endif
#ifndef STEPS
#define STEPS 2000
#endif

pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
double *partial;
double sum = 0.0;

void *slice(void *arg) {
    long id = (long)arg;
    double *h = malloc(sizeof *h);
    *h = 1.0 / STEPS;
    for (long i = id; i < STEPS; i += THREADS) {
        double x = *h * ((double)i + 0.5);
        partial[id] += 4.0 / (1.0 + x * x);
    }
    pthread_mutex_lock(&sum_lock);
    sum += partial[id] * *h;
    pthread_mutex_unlock(&sum_lock);
    free(h);
    return 0;
}

int main(void) {
    pthread_t t[THREADS];
    partial = calloc(THREADS, sizeof *partial);
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], 0, slice, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], 0);
    assert(sum > 3.14 && sum < 3.15);
    free(partial);
    return 0;
}
