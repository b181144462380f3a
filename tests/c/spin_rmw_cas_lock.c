// Two threads increment a counter under a spinlock built from compare-exchange. A
// failed attempt changes nothing (an unchanged read-modify-write is a load), so after
// one failed iteration that leaves its state as it was the spinner waits for a write to
// the lock word instead of being explored iteration by iteration.
// expect: verdict=ok maximal=4
// Derivation: the same program with pthread_mutex_lock has 2 traces (two_threads_mutex.c:
// which critical section comes first). Here the loser's failed attempts are events too,
// each dependent with the holder's acquiring CAS and releasing store: while the winner
// holds the lock the loser makes 0 or 1 failed attempt (at the second visit of the CAS
// it is found spinning and waits; its wait is enabled only by the release). 0 attempts:
// it tries after the release and succeeds; 1: fails once, waits, is woken by the release
// and succeeds. 2 × 2 orders = 4, whatever the loop's length (before spin-waits on
// read-modify-writes, every schedule in which the loser tried while the lock was held ran
// to the step bound; until the first visit of a checkpoint recorded its state, the
// loser made up to two failed attempts: 6).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int l;
int counter;

static void lock(void) {
    int expected = 0;
    while (!atomic_compare_exchange_strong(&l, &expected, 1)) {
        expected = 0;
    }
}

static void unlock(void) { atomic_store(&l, 0); }

void *worker(void *arg) {
    (void)arg;
    lock();
    counter++;
    unlock();
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
