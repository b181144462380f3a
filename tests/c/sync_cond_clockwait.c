// pthread_cond_clockwait on CLOCK_MONOTONIC is pthread_cond_timedwait: the same four
// maximal configurations as sync_cond_timedwait_handled.c (the waiter first, woken by
// the signal or timed out before it; main first, the waiter never waits; the waiter
// times out after main's unlock). A clock other than REALTIME/MONOTONIC is EINVAL
// before the mutex is touched (no visible step), as glibc.
// expect: verdict=ok maximal=4
#include <pthread.h>
#include <errno.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, value, timeouts;

void *waiter(void *arg) {
    (void)arg;
    struct timespec t = {0, 0};
    pthread_mutex_lock(&m);
    assert(pthread_cond_clockwait(&c, &m, CLOCK_PROCESS_CPUTIME_ID, &t) == EINVAL);
    if (!ready) {
        int r = pthread_cond_clockwait(&c, &m, CLOCK_MONOTONIC, &t);
        assert(r == 0 || r == ETIMEDOUT);
        if (r == ETIMEDOUT)
            timeouts++;
    }
    assert(!ready || value == 42);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t w;
    pthread_create(&w, 0, waiter, 0);
    pthread_mutex_lock(&m);
    value = 42;
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(w, 0);
    return 0;
}
