// pthread_cond_clockwait's time-out is explored: some execution times out. With WAKES
// (sync_cond_clockwait_wakes.c), on the other clock: some execution is woken by the signal.
// expect: verdict=defect kind=assertion line=40
#include <pthread.h>
#include <errno.h>
#include <time.h>
#include <assert.h>

#ifdef WAKES
#define CLOCK CLOCK_MONOTONIC
#define OUTCOME 0
#else
#define CLOCK CLOCK_REALTIME
#define OUTCOME ETIMEDOUT
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, outcomes;

void *waiter(void *arg) {
    (void)arg;
    struct timespec t = {0, 0};
    pthread_mutex_lock(&m);
    if (!ready && pthread_cond_clockwait(&c, &m, CLOCK, &t) == OUTCOME)
        outcomes++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t w;
    pthread_create(&w, 0, waiter, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(w, 0);
    // Wrong either way: the waiter may time out before the signal, or be woken by it.
    assert(outcomes == 0);
    return 0;
}
