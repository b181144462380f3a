// The lost update fixed with an atomic increment: no race, the assertion holds. The
// two increments are ordered either way and the joins see both: 2 traces.
// expect: verdict=ok maximal=2
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int counter;

void *inc(void *arg) { (void)arg; atomic_fetch_add(&counter, 1); return 0; }

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(atomic_load(&counter) == 2);
    return 0;
}
