// The compare-exchange counter without its retry loop: a thread whose CAS fails (another
// thread incremented in between) loses its increment, and the final check fails.
// expect: verdict=defect kind=assertion line=22
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int counter;

void *inc(void *arg) {
    (void)arg;
    int old = atomic_load(&counter);
    atomic_compare_exchange_strong(&counter, &old, old + 1);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    int c = atomic_load(&counter);
    assert(c == 2);
    return 0;
}
