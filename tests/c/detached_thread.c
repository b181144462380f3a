// A thread created detached runs to its end without being joined; it cannot be detached
// again, and main may exit while it still runs (the exit waits for it).
// expect: verdict=ok maximal=2
// Derivation: main and the detached worker each lock m once: 2 orders of the critical
// sections.
#include <pthread.h>
#include <assert.h>
#include <errno.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int done;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    done++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_attr_t at;
    int state = -1;
    pthread_attr_init(&at);
    assert(pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED) == 0);
    pthread_attr_getdetachstate(&at, &state);
    assert(state == PTHREAD_CREATE_DETACHED);
    pthread_t t;
    pthread_create(&t, &at, worker, 0);
    assert(pthread_detach(t) == EINVAL);
    pthread_mutex_lock(&m);
    done++;
    pthread_mutex_unlock(&m);
    return 0;
}
