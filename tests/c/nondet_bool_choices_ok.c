// Each of two threads decides with __VERIFIER_nondet_bool whether to take the lock and
// count; _Bool values are all explored, so the verdict is ok (not incomplete). Valuations:
// (0,0) 1 trace, (1,0) and (0,1) 1 each, (1,1) 2 (the order of the two critical
// sections): 5 maximal configurations.
// expect: verdict=ok maximal=5
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

extern bool __VERIFIER_nondet_bool(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;

void *worker(void *arg) {
    if (__VERIFIER_nondet_bool()) {
        pthread_mutex_lock(&m);
        count++;
        pthread_mutex_unlock(&m);
    }
    return arg;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count <= 2);
    return 0;
}
