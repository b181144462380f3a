// Two workers try to take the mutex once; at least one succeeds.
// expect: verdict=ok maximal=4
// Derivation: operations on m are t1: trylock[, unlock] and t2: trylock[, unlock].
// (1) t1 ok, t1 unlock, t2 ok, t2 unlock; (2) the same with t2 first;
// (3) t1 ok, t2 busy, t1 unlock; (4) t2 ok, t1 busy, t2 unlock. 4 traces.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int wins = 0;

void *worker(void *arg) {
    (void)arg;
    if (pthread_mutex_trylock(&m) == 0) {
        wins++;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(wins >= 1);
    return 0;
}
