// Attribute objects keep what their setters set, for their getters, validated like
// glibc: mutex type, protocol, pshared, priority ceiling (1-99) and robustness (stalled);
// condition variable clock (REALTIME/MONOTONIC) and pshared; rwlock kind and pshared;
// barrier pshared. The type still works next to the others (a recursive relock).
// expect: verdict=ok maximal=1
#include <pthread.h>
#include <errno.h>
#include <time.h>
#include <assert.h>
int main(void) {
    pthread_mutexattr_t ma;
    int v;
    pthread_mutexattr_init(&ma);
    assert(pthread_mutexattr_getprotocol(&ma, &v) == 0 && v == PTHREAD_PRIO_NONE);
    assert(pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT) == 0);
    assert(pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE) == 0);
    assert(pthread_mutexattr_getprotocol(&ma, &v) == 0 && v == PTHREAD_PRIO_INHERIT);
    assert(pthread_mutexattr_gettype(&ma, &v) == 0 && v == PTHREAD_MUTEX_RECURSIVE);
    assert(pthread_mutexattr_getpshared(&ma, &v) == 0 && v == PTHREAD_PROCESS_PRIVATE);
    assert(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED) == 0);
    assert(pthread_mutexattr_getpshared(&ma, &v) == 0 && v == PTHREAD_PROCESS_SHARED);
    assert(pthread_mutexattr_getprioceiling(&ma, &v) == 0 && v == 1);
    assert(pthread_mutexattr_setprioceiling(&ma, 0) == EINVAL);
    assert(pthread_mutexattr_setprioceiling(&ma, 100) == EINVAL);
    assert(pthread_mutexattr_setprioceiling(&ma, 42) == 0);
    assert(pthread_mutexattr_getprioceiling(&ma, &v) == 0 && v == 42);
    assert(pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_STALLED) == 0);
    assert(pthread_mutexattr_getrobust(&ma, &v) == 0 && v == PTHREAD_MUTEX_STALLED);
    assert(pthread_mutexattr_gettype(&ma, &v) == 0 && v == PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_t m;
    pthread_mutex_init(&m, &ma);
    pthread_mutex_lock(&m); pthread_mutex_lock(&m); pthread_mutex_unlock(&m); pthread_mutex_unlock(&m);
    pthread_condattr_t ca; clockid_t k;
    pthread_condattr_init(&ca);
    assert(pthread_condattr_getclock(&ca, &k) == 0 && k == CLOCK_REALTIME);
    assert(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0);
    assert(pthread_condattr_setclock(&ca, CLOCK_PROCESS_CPUTIME_ID) == EINVAL);
    assert(pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED) == 0);
    assert(pthread_condattr_getclock(&ca, &k) == 0 && k == CLOCK_MONOTONIC);
    assert(pthread_condattr_getpshared(&ca, &v) == 0 && v == PTHREAD_PROCESS_SHARED);
    pthread_condattr_destroy(&ca);
    pthread_rwlockattr_t ra;
    pthread_rwlockattr_init(&ra);
    assert(pthread_rwlockattr_getkind_np(&ra, &v) == 0 && v == PTHREAD_RWLOCK_PREFER_READER_NP);
    assert(pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NP) == 0);
    assert(pthread_rwlockattr_setkind_np(&ra, 7) == EINVAL);
    assert(pthread_rwlockattr_getkind_np(&ra, &v) == 0 && v == PTHREAD_RWLOCK_PREFER_WRITER_NP);
    assert(pthread_rwlockattr_getpshared(&ra, &v) == 0 && v == PTHREAD_PROCESS_PRIVATE);
    assert(pthread_rwlockattr_setpshared(&ra, 5) == EINVAL);
    pthread_rwlock_t l; pthread_rwlock_init(&l, &ra);
    pthread_barrierattr_t ba;
    pthread_barrierattr_init(&ba);
    assert(pthread_barrierattr_getpshared(&ba, &v) == 0 && v == PTHREAD_PROCESS_PRIVATE);
    assert(pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED) == 0);
    assert(pthread_barrierattr_getpshared(&ba, &v) == 0 && v == PTHREAD_PROCESS_SHARED);
    return 0;
}
