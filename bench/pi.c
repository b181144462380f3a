// Parallel computation of pi (QPOR Table 1, "Pi(n)"): THREADS workers integrate
// 4/(1+x^2) over disjoint slices and add their partial sums to a shared accumulator
// under one mutex; main checks the result.
//   unfold check bench/pi.c -D THREADS=5
// Maximal configurations: THREADS! (the order of the THREADS additions on the mutex;
// nothing else is shared).
#include <pthread.h>
#include <assert.h>

#ifndef THREADS
#define THREADS 4
#endif
#ifndef STEPS
#define STEPS 2000
#endif

pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
double sum = 0.0;
int contributions = 0;

void *slice(void *arg) {
    long id = (long)arg;
    double h = 1.0 / STEPS, local = 0.0;
    for (long i = id; i < STEPS; i += THREADS) {
        double x = h * ((double)i + 0.5);
        local += 4.0 / (1.0 + x * x);
    }
    pthread_mutex_lock(&sum_lock);
    sum += local * h;
    contributions++;
    pthread_mutex_unlock(&sum_lock);
    return 0;
}

int main(void) {
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], 0, slice, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], 0);
    assert(contributions == THREADS);
    assert(sum > 3.14 && sum < 3.15);
    return 0;
}
