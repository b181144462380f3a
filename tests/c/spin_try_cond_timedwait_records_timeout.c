// A timed condition wait in a loop that records a time-out on every one: from the
// second time-out on the store changes nothing, so the loop waits inside the wait for a
// signal instead of timing out pass after pass up to the step bound. The wait is on
// two objects, the condition variable and the mutex, which qpor refuses: optimal-dpor.
// expect: verdict=ok flags=--algorithm=optimal-dpor
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;
int timed_out;

static void *waiter(void *arg) {
    (void)arg;
    struct timespec ts = {0, 0};
    pthread_mutex_lock(&m);
    while (!ready) {
        if (pthread_cond_timedwait(&cv, &m, &ts) == ETIMEDOUT)
            timed_out = 1;
    }
    assert(ready == 1);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
