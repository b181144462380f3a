// A test-and-set spinlock that counts its failed attempts, taken once by each of three
// threads. An attempt on a held lock is an exchange that leaves the word as it was: the
// spinner's attempts up to the third visit of its loop with no write to the lock between
// them are steps, later ones run without scheduling points (tsan.c predicts that the
// exchange changes nothing, exact while no other thread runs) until the loop is cut or
// another thread steps: 486 traces where `while (atomic_exchange(&l, 1));` has 114
// (every explorer, dfs included, agrees); the verdict is `incomplete` since larger counts
// were not explored (before: a `bound` defect at 100 000 steps). While attempts that saw
// another thread's write between them were counted too: 450.
// expect: verdict=incomplete maximal=486
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int l;
int counter;

static void lock(void) {
    int tries = 0;
    while (atomic_exchange(&l, 1))
        tries++;
    (void)tries;
}

static void unlock(void) { atomic_store(&l, 0); }

void *worker(void *arg) {
    lock();
    counter++;
    unlock();
    return arg;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, 0);
    lock();
    counter++;
    unlock();
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    assert(counter == 3);
    return 0;
}
