// C11 <threads.h>: main waits for a flag with cnd_timedwait in a loop; the producer
// enters the critical section that sets it with mtx_timedlock in a retry loop (a
// time-out is explored as a failed try), and signals. Both loops wait once their
// iterations are pure (before: `bound` defects). The producer's retry loop is an
// assumption (its thread stops after a pure iteration; its attempt after main's unlock
// is another execution), main's timed-wait loop an ordinary wait: 10 traces, the same
// under every DPOR and dfs (47 interleavings; 139 traces and 16 411 interleavings while
// each of main's unlocks woke the producer's wait, which could fail again).
// expect: verdict=ok maximal=10 flags=--algorithm=optimal-dpor
#include <threads.h>
#include <time.h>
#include <assert.h>

mtx_t m;
cnd_t cv;
int ready, data;

static int producer(void *arg) {
    (void)arg;
    struct timespec ts = {0, 1000};
    data = 42;
    while (mtx_timedlock(&m, &ts) != thrd_success)
        ;
    ready = 1;
    cnd_signal(&cv);
    mtx_unlock(&m);
    return 0;
}

int main(void) {
    thrd_t t;
    struct timespec ts = {0, 1000};
    mtx_init(&m, mtx_timed);
    cnd_init(&cv);
    thrd_create(&t, producer, 0);
    mtx_lock(&m);
    while (!ready)
        cnd_timedwait(&cv, &m, &ts);
    mtx_unlock(&m);
    assert(data == 42);
    thrd_join(t, 0);
    return 0;
}
