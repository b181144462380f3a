// Each worker adds a nondeterministic int to a shared total under a lock; the total is -2
// only when both draw -1: the default value list (0, 1, -1) has it, and the report lists
// the values drawn.
// expect: verdict=defect kind=assertion line=22
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;

void *worker(void *arg) {
    int v = __VERIFIER_nondet_int();
    pthread_mutex_lock(&m);
    total += v;
    pthread_mutex_unlock(&m);
    return arg;
}

static void check(void) {
    assert(total != -2);
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    check();
    return 0;
}
