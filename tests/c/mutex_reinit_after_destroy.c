// Initialise, use, destroy, initialise again and use again, with a second thread that
// only uses the mutex between the two lifetimes' joins: all of it is correct.
// expect: verdict=ok maximal=2
// Derivation: the worker's critical section and main's first one are the only dependent
// pair running concurrently (the second lifetime starts after the join): 2 orders.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int count;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    count++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_mutex_init(&m, 0);
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    count++;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    pthread_mutex_destroy(&m);
    pthread_mutex_init(&m, 0);
    pthread_mutex_lock(&m);
    count++;
    pthread_mutex_unlock(&m);
    pthread_mutex_destroy(&m);
    assert(count == 3);
    return 0;
}
