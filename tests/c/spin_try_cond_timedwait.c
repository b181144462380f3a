// main waits for a plain flag under a mutex with pthread_cond_timedwait in a loop; the
// producer sets it under the mutex and signals. A timed wait that timed out leaves the
// condition variable as it was, so after two identical iterations main waits, still
// among the condition variable's waiters, for another thread's unlock of the mutex or a
// signal (before: every iteration could time out, forever — a `bound` defect after
// 100 000 steps). The wait is on two objects, which qpor refuses: optimal-dpor.
// expect: verdict=ok maximal=7 flags=--algorithm=optimal-dpor
// Derivation: the producer's critical section P (lock, signal, unlock) runs while the
// mutex is free: before main's first lock (main never waits: 1); during main's first or
// second timed wait, with its signal before main's timed wake (signalled) or after it
// (timed out; main then relocks after P): 2 x 2; or once main waits (after its third
// unlock): P's signal enables main's wait, and main's wake (signalled) comes before or
// after P's unlock, which main's relock needs anyway: 2. In all, 7.
#include <pthread.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready, data;

void *producer(void *arg) {
    (void)arg;
    data = 42;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    struct timespec ts = {0, 1000};
    pthread_create(&t, 0, producer, 0);
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_timedwait(&cv, &m, &ts);
    pthread_mutex_unlock(&m);
    assert(data == 42);
    pthread_join(t, 0);
    return 0;
}
