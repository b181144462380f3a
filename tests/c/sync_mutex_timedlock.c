// pthread_mutex_timedlock is a trylock whose failure is a time-out (explored, not
// timed): two workers each try once; at least one gets the mutex, the other may time
// out. sched_yield and pthread_yield are no-ops that keep working.
// expect: verdict=ok maximal=4
// Derivation: as trylock.c — (1)/(2) each worker's timedlock succeeds, in either
// order; (3)/(4) one holds m while the other's timedlock times out. 4 traces.
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int wins, timeouts;

void *worker(void *arg) {
    (void)arg;
    struct timespec t = {0, 0};
    sched_yield();
    pthread_yield();
    int r = pthread_mutex_timedlock(&m, &t);
    if (r == 0) {
        wins++;
        pthread_mutex_unlock(&m);
    } else {
        assert(r == ETIMEDOUT);
        timeouts++;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(wins >= 1 && wins + timeouts == 2);
    return 0;
}
