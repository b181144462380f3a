// The consumer polls a plain flag under a mutex m, but the producer sets it WITHOUT m
// (after a section of another mutex, so that the write may come after the consumer
// started waiting): a data race on the flag. The consumer's wait is for an unlock of m,
// which the racy writer never makes; in the schedules where it waits before the write
// the consumer stays blocked, but the race (its reads of the flag are unordered with the
// write) is that execution's first defect, and is what is reported — neither a false
// livelock nor silence.
// expect: verdict=defect kind=data-race line=19|27
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, other = PTHREAD_MUTEX_INITIALIZER;
int ready;

void *prod(void *a) {
    (void)a;
    pthread_mutex_lock(&other);
    pthread_mutex_unlock(&other);
    ready = 1;
    return 0;
}

void *cons(void *a) {
    (void)a;
    for (;;) {
        pthread_mutex_lock(&m);
        int r = ready;
        pthread_mutex_unlock(&m);
        if (r) break;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, prod, 0);
    pthread_create(&b, 0, cons, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
