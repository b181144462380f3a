// Cancellation state and type (no thread is ever cancelled: pthread_cancel is refused)
// and thread names: each call answers as glibc does, per thread — the previous state in
// `old`, EINVAL for an unknown state, ERANGE for a name longer than 15 bytes or a buffer
// too small, and a name read back as it was set.
// expect: verdict=ok
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>

static void *worker(void *arg) {
    int old = -1;
    assert(pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old) == 0);
    assert(old == PTHREAD_CANCEL_ENABLE);
    assert(pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old) == 0);
    assert(old == PTHREAD_CANCEL_DISABLE);
    assert(pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old) == 0);
    assert(old == PTHREAD_CANCEL_DEFERRED);
    assert(pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, 0) == 0);
    assert(pthread_setcancelstate(7, &old) == EINVAL);
    pthread_testcancel();

    char name[16];
    assert(pthread_setname_np(pthread_self(), "a name far too long") == ERANGE);
    assert(pthread_setname_np(pthread_self(), (const char *)arg) == 0);
    assert(pthread_getname_np(pthread_self(), name, sizeof name) == 0);
    assert(strcmp(name, (const char *)arg) == 0);
    assert(pthread_getname_np(pthread_self(), name, 3) == ERANGE);
    return 0;
}

int main(void) {
    int old = -1;
    // main's state is its own: the workers' changes do not reach it.
    assert(pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old) == 0);
    pthread_t a, b;
    pthread_create(&a, 0, worker, "reader");
    pthread_create(&b, 0, worker, "writer");
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old) == 0);
    assert(old == PTHREAD_CANCEL_DISABLE);
    return 0;
}
