// A thread with a 4 MiB local array, created with pthread_attr_setstacksize(6 MiB), runs
// fine although the default stack is set to 1 MiB: the requested size is honoured.
// expect: verdict=ok maximal=1
// expect: flags=--stack-size=1M
#include <pthread.h>
#include <assert.h>
#include <string.h>

void *worker(void *arg) {
    (void)arg;
    char buf[4 << 20];
    memset(buf, 1, sizeof buf);
    return (void *)(long)buf[sizeof buf - 1];
}

int main(void) {
    pthread_attr_t at;
    size_t size = 0;
    assert(pthread_attr_init(&at) == 0);
    pthread_attr_getstacksize(&at, &size);
    assert(size == 1 << 20);
    assert(pthread_attr_setstacksize(&at, 6 << 20) == 0);
    pthread_attr_getstacksize(&at, &size);
    assert(size == 6 << 20);
    // Harmless attributes are accepted and read back.
    assert(pthread_attr_setscope(&at, PTHREAD_SCOPE_SYSTEM) == 0);
    assert(pthread_attr_setinheritsched(&at, PTHREAD_INHERIT_SCHED) == 0);
    assert(pthread_attr_setschedpolicy(&at, SCHED_OTHER) == 0);
    assert(pthread_attr_setguardsize(&at, 8192) == 0);
    pthread_attr_getguardsize(&at, &size);
    assert(size == 8192);
    pthread_t t;
    void *r;
    pthread_create(&t, &at, worker, 0);
    pthread_attr_destroy(&at);
    pthread_join(t, &r);
    assert((long)r == 1);
    return 0;
}
