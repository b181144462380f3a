// Three threads increment a counter under an atomic_exchange spinlock. An exchange
// that stores the 1 already there changes nothing: a load. With two spinners on a held
// lock, neither's failed exchange wakes the other; the release wakes both, one wins and
// the other waits again.
// expect: verdict=ok maximal=114
// Derivation (by enumeration, not by hand): dfs runs every interleaving (27 522
// executions) and finds 114 traces, the count optimal-, source- and classic-DPOR and
// QPOR (optimal and -k 1) explore: a failed attempt's wait is an assumption (never
// woken: the attempt after the release is another execution), so the two spinners no
// longer perform waits whose order the relations would see differently. With a mutex:
// 3! = 6. While a woken wait was performed and its thread tried again: 654 (QPOR) and
// 546 traces (531 735 interleavings). Before
// spin-waits on read-modify-writes: the step bound; while a spin was found waiting only at
// the third visit of its checkpoint: 666 and 810 (682 039 interleavings).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int l;
int counter;

void *worker(void *arg) {
    (void)arg;
    while (atomic_exchange(&l, 1)) {
    }
    counter++;
    atomic_store(&l, 0);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    assert(counter == 3);
    return 0;
}
