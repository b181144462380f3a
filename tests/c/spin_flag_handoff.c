// A flag hand-off through an atomic: main spins until the producer publishes. The spin
// is detected after one identical iteration and main waits for a write to the flag
// instead of being explored iteration by iteration. 3 maximal configurations, under
// every algorithm: the store before main's first load; between main's first and second
// load (no wait); after both (main waits, then reads again).
// expect: verdict=ok maximal=3
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int ready;
int data;

void *producer(void *arg) {
    (void)arg;
    data = 42;
    atomic_store(&ready, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    while (!atomic_load(&ready)) {
    }
    assert(data == 42);
    pthread_join(t, 0);
    return 0;
}
