// pthread_cond_clockwait's time-out is explored: some execution times out.
// expect: verdict=defect kind=assertion line=31
#include <pthread.h>
#include <errno.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, timeouts;

void *waiter(void *arg) {
    (void)arg;
    struct timespec t = {0, 0};
    pthread_mutex_lock(&m);
    if (!ready && pthread_cond_clockwait(&c, &m, CLOCK_REALTIME, &t) == ETIMEDOUT)
        timeouts++;
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
    // Wrong: the waiter may time out before the signal.
    assert(timeouts == 0);
    return 0;
}
