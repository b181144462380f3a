// A reader polls a flag under a read lock; the writer sets it (and the data) under the
// write lock. A read-write lock's locks and unlocks count for polling as a mutex's: the
// iteration found pure inside the read section waits, before its next read lock, for
// another thread's unlock (before, a `bound` defect: every rwlock operation ended the
// iteration). -D WRITER polls under the write lock instead: the same 4 traces.
// expect: verdict=ok maximal=4
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int flag, data;

#ifdef WRITER
#define POLL_LOCK(l) pthread_rwlock_wrlock(l)
#else
#define POLL_LOCK(l) pthread_rwlock_rdlock(l)
#endif

void *poller(void *arg) {
    (void)arg;
    for (;;) {
        POLL_LOCK(&rw);
        int f = flag;
        pthread_rwlock_unlock(&rw);
        if (f)
            break;
    }
    pthread_rwlock_rdlock(&rw);
    assert(data == 1);
    pthread_rwlock_unlock(&rw);
    return 0;
}

void *writer(void *arg) {
    (void)arg;
    pthread_rwlock_wrlock(&rw);
#ifdef BUG
    flag = 1;
    pthread_rwlock_unlock(&rw);
    pthread_rwlock_wrlock(&rw);
#endif
    data = 1;
    flag = 1;
    pthread_rwlock_unlock(&rw);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, poller, 0);
    pthread_create(&b, 0, writer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
