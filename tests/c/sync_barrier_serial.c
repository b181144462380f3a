// Three threads pass a barrier twice: in each round exactly one of them gets
// PTHREAD_BARRIER_SERIAL_THREAD, the others 0, and nobody leaves a round before every
// thread arrived. A count of 0 is EINVAL.
// Its counters are atomics used as invisible bookkeeping: run without instrumentation
// (every shared access would otherwise multiply the schedules: 540 000 with QPOR).
// Two threads leaving one round commute (their order is not observable): under
// optimal-DPOR, 132 traces.
// expect: verdict=ok maximal=360 maximal-rr=132 flags=--memory=none
#include <pthread.h>
#include <errno.h>
#include <assert.h>

pthread_barrier_t bar;
int serial[2], arrived[2];

void pass(int round) {
    __atomic_fetch_add(&arrived[round], 1, __ATOMIC_SEQ_CST);
    int r = pthread_barrier_wait(&bar);
    assert(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
    assert(__atomic_load_n(&arrived[round], __ATOMIC_SEQ_CST) == 3);
    if (r == PTHREAD_BARRIER_SERIAL_THREAD)
        __atomic_fetch_add(&serial[round], 1, __ATOMIC_SEQ_CST);
}

void *worker(void *arg) {
    (void)arg;
    pass(0);
    pass(1);
    return 0;
}

int main(void) {
    pthread_barrier_t zero;
    assert(pthread_barrier_init(&zero, 0, 0) == EINVAL);
    pthread_barrier_init(&bar, 0, 3);
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pass(0);
    pass(1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(serial[0] == 1 && serial[1] == 1);
    pthread_barrier_destroy(&bar);
    return 0;
}
