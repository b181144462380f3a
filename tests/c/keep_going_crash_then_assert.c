// Two orders of the lock: B reads x == 1 and crashes, or reads 0 and fails an assertion.
// With --keep-going every explorer must report both (a run that crashes still has the
// race between the two lock acquisitions, which gives the other order: the DPOR
// explorers once skipped the analysis of a crashed run and lost the assertion).
// expect: verdict=defect kind=crash|assertion
#include <assert.h>
#include <pthread.h>

int x = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *a(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *b(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int y = x;
    pthread_mutex_unlock(&m);
    if (y == 1) {
        volatile int *p = 0;
        *p = 1;
    } else {
        assert(0);
    }
    return 0;
}

int main(void) {
    pthread_t ta, tb;
    pthread_create(&ta, 0, a, 0);
    pthread_create(&tb, 0, b, 0);
    pthread_join(ta, 0);
    pthread_join(tb, 0);
    return 0;
}
