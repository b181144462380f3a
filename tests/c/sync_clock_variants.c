// The clock variants of the timed lock and wait calls (glibc 2.30) take CLOCK_REALTIME
// or CLOCK_MONOTONIC; another clock is EINVAL (sem_clockwait: -1 and errno), checked
// before the object is touched. With the object free they succeed at once; a held one
// times out (the rwlock held for writing by main, locked again by a worker that cannot
// get it before main's unlock, or gets it after). One thread until the worker: a read
// lock attempt of the worker races with main's unlock: 2 maximal configurations.
// expect: verdict=ok maximal=2
#include <pthread.h>
#include <semaphore.h>
#include <errno.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
sem_t s;

void *reader(void *arg) {
    (void)arg;
    struct timespec t = {0, 0};
    int r = pthread_rwlock_clockrdlock(&l, CLOCK_MONOTONIC, &t);
    assert(r == 0 || r == ETIMEDOUT);
    if (r == 0)
        pthread_rwlock_unlock(&l);
    return 0;
}

int main(void) {
    struct timespec t = {0, 0};
    pthread_t w;
    sem_init(&s, 0, 1);
    assert(sem_clockwait(&s, 42, &t) == -1 && errno == EINVAL);
    assert(sem_clockwait(&s, CLOCK_REALTIME, &t) == 0);
    assert(sem_clockwait(&s, CLOCK_REALTIME, &t) == -1 && errno == ETIMEDOUT);
    assert(pthread_mutex_clocklock(&m, 99, &t) == EINVAL);
    assert(pthread_mutex_clocklock(&m, CLOCK_MONOTONIC, &t) == 0);
    pthread_mutex_unlock(&m);
    assert(pthread_rwlock_clockrdlock(&l, 99, &t) == EINVAL);
    assert(pthread_rwlock_clockwrlock(&l, CLOCK_PROCESS_CPUTIME_ID, &t) == EINVAL);
    assert(pthread_rwlock_clockwrlock(&l, CLOCK_REALTIME, &t) == 0);
    pthread_create(&w, 0, reader, 0);
    pthread_rwlock_unlock(&l);
    pthread_join(w, 0);
    return 0;
}
