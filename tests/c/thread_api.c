// pthread_exit with a value, join's result, pthread_self/equal, detach (and detaching
// it again fails), main returning while a detached thread still runs.
// expect: verdict=ok maximal=1
// Derivation: only the detached worker touches m (lock+unlock); every other step is
// ordered by causality (create/join/exit; the process exit waits until no other thread
// can move): a single trace.
#include <pthread.h>
#include <assert.h>
#include <errno.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_t main_id;

static void finish(long v) {
    pthread_exit((void *)v);
}

void *returner(void *arg) {
    assert(!pthread_equal(pthread_self(), main_id));
    finish((long)arg + 1);
    return 0;
}

void *detached(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, d;
    void *ret = 0;
    main_id = pthread_self();
    assert(pthread_equal(main_id, pthread_self()));
    pthread_create(&a, 0, returner, (void *)41);
    pthread_join(a, &ret);
    assert((long)ret == 42);
    pthread_create(&d, 0, detached, 0);
    pthread_detach(d);
    assert(pthread_detach(d) == EINVAL);
    return 0;
}
