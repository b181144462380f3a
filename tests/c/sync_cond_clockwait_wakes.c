// pthread_cond_clockwait can be woken by a signal: some execution returns 0.
// expect: verdict=defect kind=assertion line=31
#include <pthread.h>
#include <errno.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, wakeups;

void *waiter(void *arg) {
    (void)arg;
    struct timespec t = {0, 0};
    pthread_mutex_lock(&m);
    if (!ready && pthread_cond_clockwait(&c, &m, CLOCK_MONOTONIC, &t) == 0)
        wakeups++;
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
    // Wrong: the signal may wake the waiter.
    assert(wakeups == 0);
    return 0;
}
