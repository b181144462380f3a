// A ticket lock on sequentially consistent atomics with unbounded spins: each waiter
// spins on now_serving, a single location, so its wait is detected and blocks until the
// holder releases. Three threads, one counter protected by the lock: no race, no
// failure, and no execution spent on spin iterations. Run with optimal-DPOR: its
// read-read independence lets the waiters' loads commute (456 executions); QPOR, whose
// trees need every two accesses dependent, explores every order of those loads
// (824 334 executions, measured).
// expect: verdict=ok flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int next_ticket, now_serving;
int counter;

void *worker(void *arg) {
    (void)arg;
    int my = atomic_fetch_add(&next_ticket, 1);
    while (atomic_load(&now_serving) != my) {
    }
    counter++;
    atomic_fetch_add(&now_serving, 1);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    assert(counter == 3);
    return 0;
}
