// spin_try_mutex.c with a spinlock: pthread_spin_trylock in a retry loop (spinlocks
// are modelled as mutexes). A failed try changes nothing (a load of the lock for spin
// detection), so after one failed iteration the loser waits for the lock to
// be released (before: a `bound` defect after 100 000 steps, "livelock?").
// expect: verdict=ok maximal=4
// Derivation: as spin_try_mutex.c: 2 orders of the critical sections x 0 or 1 failed
// try of the loser while the winner holds the lock.
#include <pthread.h>
#include <assert.h>

pthread_spinlock_t s;
int counter;

void *worker(void *arg) {
    (void)arg;
    while (pthread_spin_trylock(&s) != 0)
        ;
    counter++;
    pthread_spin_unlock(&s);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
