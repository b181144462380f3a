// A compare-exchange loop whose `expected` starts at a value the lock never holds and is
// reset by the loop after each failure. The first attempt reads 5 from `expected` and
// fails (the lock is 0), the loop writes 0 there, and the second attempt succeeds. The
// compare-exchange reads `expected` inside the runtime, where the instrumentation does
// not see it; the loop's write of 0 is seen. Taking the changed `expected` for a dead
// byte (its first access seen since the first attempt was the write) made the second
// visit a spin, and the thread waited for a write to the lock that never came: a false
// `livelock`. The runtime now logs the compare-exchange's read of `expected`.
// expect: verdict=ok
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int l;
int counter;

void *worker(void *arg) {
    int expected = 5;
    while (!atomic_compare_exchange_strong(&l, &expected, 1))
        expected = 0;
    counter++;
    atomic_store(&l, 0);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    worker(0);
    pthread_join(t, 0);
    assert(counter == 2);
    return 0;
}
