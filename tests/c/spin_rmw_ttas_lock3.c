// Three threads increment a counter under a test-and-test-and-set lock, compiled at the
// default -O0: a thread spins on a load until the lock looks free, then tries an
// exchange, and goes back to the loads when the exchange finds it taken. At -O0 the
// loads' and the exchange's results go through stack temporaries, so a thread comes back
// to its load in a state it was not in before after each failed exchange (the failed
// exchange left a 1 where its first visit had a 0), and those visits looked like a loop
// counting its polls: from the second failed exchange on, the polls ran hidden and the
// verdict was `incomplete` (1 245 traces). A thread fails once per other thread that
// took the lock first, and each failure follows a write by that thread: polls that see
// new writes are bounded by the writes and are no longer counted (1 287 traces). The
// temporaries are dead where the loop comes back (the next load or exchange overwrites
// them before they are read), so a spinner now waits at its second visit, as at -O1
// (docs/memory.md, "Dead temporaries").
// expect: verdict=ok maximal=1350 maximal-rr=441
// Derivation (by enumeration): dfs runs 302 263 interleavings and finds 441 traces, the
// count optimal-, source- and classic-DPOR explore (the default hands this program to
// optimal-DPOR: its threads load one word). QPOR keeps two loads of one word dependent,
// so it tells more traces apart: 1 350 with optimal and with 1-partial alternatives
// alike. At -O1 the temporaries stay in registers: 117 traces. (Before dead bytes were
// allowed: dfs 2 996 971 interleavings, 1 287 traces, QPOR 7 170.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock;
int counter;

static void acquire(void) {
    for (;;) {
        while (atomic_load(&lock)) {
        }
        if (!atomic_exchange(&lock, 1))
            return;
    }
}

static void release(void) { atomic_store(&lock, 0); }

void *worker(void *arg) {
    acquire();
    counter++;
    release();
    return arg;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(counter == 3);
    return 0;
}
