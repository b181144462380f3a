// Scheduling hints change nothing unfold explores: pthread_setconcurrency's level is kept
// for pthread_getconcurrency (per execution: the other order starts from 0 again, also
// when it resumes from a checkpoint taken before the level was set), and a mutex with a
// priority protocol is an ordinary mutex.
// expect: verdict=ok maximal=2
// Derivation: the two workers' critical sections on m in either order; nothing else
// conflicts.
#include <pthread.h>
#include <assert.h>
#include <errno.h>

pthread_mutex_t m;
int first_done;

void *setter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    assert(pthread_getconcurrency() == 0);
    assert(pthread_setconcurrency(4) == 0);
    first_done = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    assert(pthread_getconcurrency() == (first_done ? 4 : 0));
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_mutexattr_t a;
    pthread_t s, r;
    assert(pthread_getconcurrency() == 0);
    assert(pthread_setconcurrency(-1) == EINVAL);
    pthread_mutexattr_init(&a);
    assert(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT) == 0);
    assert(pthread_mutexattr_setprotocol(&a, 7) == EINVAL);
    pthread_mutex_init(&m, &a);
    pthread_mutexattr_destroy(&a);
    pthread_create(&s, 0, setter, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(s, 0);
    pthread_join(r, 0);
    return 0;
}
