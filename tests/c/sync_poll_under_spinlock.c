// A loop polling a flag under a pthread spinlock, as under a mutex: found waiting inside
// its critical section, it waits before its next lock for the writer's unlock (before, a
// `bound` defect: the spinlock's lock did not take the deferred wait). -D MUTEX builds the
// same program with a mutex: the same 4 traces. With BUG (sync_poll_under_spinlock_bug.c)
// the flag is published before the data.
// expect: verdict=ok maximal=4
#include <assert.h>
#include <pthread.h>

#ifdef MUTEX
pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
#define LOCK(x) pthread_mutex_lock(x)
#define UNLOCK(x) pthread_mutex_unlock(x)
#else
pthread_spinlock_t l;
#define LOCK(x) pthread_spin_lock(x)
#define UNLOCK(x) pthread_spin_unlock(x)
#endif
int flag, data;

void *poller(void *arg) {
    (void)arg;
    for (;;) {
        LOCK(&l);
        int f = flag;
        UNLOCK(&l);
        if (f)
            break;
    }
    assert(data == 1);
    return 0;
}

void *writer(void *arg) {
    (void)arg;
#ifdef BUG
    LOCK(&l);
    flag = 1;
    UNLOCK(&l);
    LOCK(&l);
    data = 1;
    UNLOCK(&l);
#else
    LOCK(&l);
    data = 1;
    flag = 1;
    UNLOCK(&l);
#endif
    return 0;
}

int main(void) {
#ifndef MUTEX
    pthread_spin_init(&l, 0);
#endif
    pthread_t a, b;
    pthread_create(&a, 0, poller, 0);
    pthread_create(&b, 0, writer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
