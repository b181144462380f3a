// A compare-exchange spinlock whose critical section forgets the unlock on one path
// (when it finds the counter already incremented): the other thread then spins forever
// on a lock nobody will release, a livelock at its loop (line 13), found in the order
// where the buggy path runs first. Before: the step bound.
// expect: verdict=defect kind=livelock line=13
#include <pthread.h>
#include <stdatomic.h>

atomic_int l;
int counter;

static void lock(void) {
    while (!atomic_compare_exchange_strong(&l, &(int){0}, 1)) {
    }
}

void *worker(void *arg) {
    (void)arg;
    lock();
    counter++;
    if (counter == 1) return 0; /* bug: returns holding the lock */
    atomic_store(&l, 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
