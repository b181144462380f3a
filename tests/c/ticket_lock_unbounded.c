// A ticket lock on sequentially consistent atomics with unbounded spins: each waiter
// spins on now_serving, a single location, so its wait is detected and blocks until the
// holder releases. Three threads, one counter protected by the lock: no race, no
// failure, and no execution spent on spin iterations. Run with optimal-DPOR: its
// read-read independence lets the waiters' loads commute (102 executions); QPOR, whose
// trees need every two accesses dependent, explores every order of those loads
// (756 executions, measured; 180 and 5 796 while a woken wait was performed and its
// thread tried again, 198 and 8 946 while a spin waited at its third visit). The atomics are longs so that each fills its 8-byte
// word: as `atomic_int`s, the plain `counter` shared now_serving's word, and a former
// runtime made `counter++` a step only while another thread waited on it (the steps
// depended on the schedule: 456 and 824 334 executions; docs/memory.md).
// expect: verdict=ok flags=--algorithm=optimal-dpor
// (102 traces under read-read independence, found alike by optimal-, source- and
// classic-DPOR; 180 found by dfs too, in 19 234 321 interleavings and 24 minutes, when
// a woken wait was performed; no count is expected here because the corpus test would
// run dfs on it too.)
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_long next_ticket, now_serving;
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
