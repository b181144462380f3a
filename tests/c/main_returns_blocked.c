// main returns while a worker is blocked forever on a mutex: the process exit ends it,
// which is not a deadlock.
// expect: verdict=ok maximal=2
// Derivation: the operations on m are t1: lock and t2: lock (neither unlocks); either
// t1 or t2 gets m first and the other stays blocked until main's exit: 2 traces.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    return 0;
}
