// A bounded-retry compare-exchange: three attempts, then give up. The attempt counter
// is part of the loop's state, so no iteration is pure and the loop keeps its exact
// semantics: when the holder keeps the lock across all three attempts the caller gives
// up and its assertion fails (line 26).
// expect: verdict=defect kind=assertion line=26
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int l;

void *holder(void *arg) {
    (void)arg;
    while (!atomic_compare_exchange_strong(&l, &(int){0}, 1)) {
    }
    atomic_store(&l, 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, holder, 0);
    int i;
    for (i = 0; i < 3; i++)
        if (atomic_compare_exchange_strong(&l, &(int){0}, 1)) break;
    assert(i < 3);
    atomic_store(&l, 0);
    pthread_join(t, 0);
    return 0;
}
