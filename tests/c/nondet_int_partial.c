// A bug only for a value outside the default list (0, 1, -1): no defect is found, and since
// other ints were not tried the verdict is incomplete, not ok.
// expect: verdict=incomplete
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int shared;

void *worker(void *arg) {
    shared = __VERIFIER_nondet_int();
    return arg;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, worker, 0);
    pthread_join(a, 0);
    assert(shared != 42);
    return 0;
}
