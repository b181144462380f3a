// Two threads take a mutex with pthread_mutex_timedlock in a retry loop (a time-out is
// explored as a failed try: it can happen whenever the mutex is held), increment a
// counter and unlock. A timed-out attempt changes nothing, so the loser waits for an
// unlock after one failed iteration (before: a `bound` defect after 100 000 steps).
// expect: verdict=ok maximal=4
// Derivation: as spin_try_mutex.c: 2 orders x 0 or 1 timed-out attempt.
#include <pthread.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *worker(void *arg) {
    (void)arg;
    struct timespec ts = {0, 1000};
    while (pthread_mutex_timedlock(&m, &ts) != 0)
        ;
    counter++;
    pthread_mutex_unlock(&m);
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
