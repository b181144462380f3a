// Two threads take a mutex with a trylock retry loop, increment a counter and unlock.
// A failed trylock changes nothing (a load of the mutex for spin detection), so after
// one failed iteration (its second visit finds it pure) the loser waits for the mutex to be released instead
// of being explored iteration by iteration (before: a `bound` defect after 100 000
// steps, "livelock?", although every fair schedule terminates).
// expect: verdict=ok maximal=4
// Derivation: as spin_rmw_cas_lock.c. Which thread enters first (2 orders); while the
// winner holds the mutex the loser makes 0 or 1 failed trylock (dependent with the
// winner's successful trylock and unlock; at the second call it is found spinning and
// waits for an unlock, which is the winner's): 2 x 2 = 4, whatever the loop's length
// (dfs: 75 executions, 4 distinct).
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *worker(void *arg) {
    (void)arg;
    while (pthread_mutex_trylock(&m) != 0)
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
