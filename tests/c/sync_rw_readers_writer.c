// A reader and a writer on a read-write lock: readers (main and a thread) see the pair consistent;
// tryrdlock fails (EBUSY) only while the writer holds the lock; relocking for writing
// returns EDEADLK and a try by the writer EBUSY; the writer's unlock releases its write lock.
// QPOR treats the read locks as dependent (51 configurations); the DPOR explorers let
// them commute (8).
// expect: verdict=ok maximal=51 maximal-rr=8
#include <pthread.h>
#include <errno.h>
#include <assert.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int a, b, writing;

void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&l);
    assert(a == b);
    pthread_rwlock_unlock(&l);
    int r = pthread_rwlock_tryrdlock(&l);
    if (r == 0) {
        assert(!writing);
        pthread_rwlock_unlock(&l);
    } else {
        assert(r == EBUSY);
    }
    return 0;
}

void *writer(void *arg) {
    (void)arg;
    pthread_rwlock_wrlock(&l);
    writing = 1;
    assert(pthread_rwlock_wrlock(&l) == EDEADLK);
    assert(pthread_rwlock_trywrlock(&l) == EBUSY && pthread_rwlock_tryrdlock(&l) == EBUSY);
    a++;
    b++;
    writing = 0;
    pthread_rwlock_unlock(&l);
    return 0;
}

int main(void) {
    pthread_t r, w;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_rwlock_rdlock(&l);
    assert(a == b);
    pthread_rwlock_unlock(&l);
    pthread_join(r, 0);
    pthread_join(w, 0);
    assert(a == 1 && b == 1);
    pthread_rwlock_destroy(&l);
    return 0;
}
