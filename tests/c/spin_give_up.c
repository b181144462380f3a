// A bounded retry loop keeps its exact semantics (the counter is part of the loop's
// state, so no iteration is pure): when the producer is late the loop gives up and the
// assertion fails.
// expect: verdict=defect kind=assertion line=19
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int ready;

void *producer(void *arg) { (void)arg; atomic_store(&ready, 1); return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    int i;
    for (i = 0; i < 5 && !atomic_load(&ready); i++) {
    }
    assert(i < 5);
    pthread_join(t, 0);
    return 0;
}
