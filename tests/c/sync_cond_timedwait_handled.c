// A timed wait that handles ETIMEDOUT: after a time-out the waiter gives up waiting
// and checks the flag itself; signalled or not, it never reads a half-set state.
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
    if (!ready) {
        int r = pthread_cond_timedwait(&c, &m, &t);
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
