// A ticket lock on sequentially consistent atomics (fetch-add to take a ticket, spin
// until served; the spin is bounded and unfinished waits are discarded with an
// assumption). The counter it protects is updated without a race.
// expect: verdict=ok
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int next_ticket, now_serving;
int counter;

void __VERIFIER_assume(int);

void *worker(void *arg) {
    (void)arg;
    int my = atomic_fetch_add(&next_ticket, 1);
    int i;
    for (i = 0; i < 3 && atomic_load(&now_serving) != my; i++) {
    }
    __VERIFIER_assume(i < 3);
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
