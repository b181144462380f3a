// A waiter gives up on a flag at a deadline two seconds away, and the give-up path is
// wrong (it asserts). Real time made the loop a pure iteration (the clock's reading is
// compared, not kept): the wait became a spin-wait and the deadline never came, so the
// bug was missed. The clock is virtual now: each reading moves the thread's time by a
// second, so the give-up is explored beside the flag being set in time.
// expect: verdict=defect kind=assertion line=20
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
#include <time.h>
atomic_int ready;
void *setter(void *arg) {
    (void)arg;
    atomic_store(&ready, 1);
    return 0;
}
int wait_ready(void) {
    time_t start = time(NULL);
    while (!atomic_load(&ready))
        if (time(NULL) - start > 2) assert(!"gave up waiting");
    return 1;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, setter, 0);
    wait_ready();
    pthread_join(t, 0);
    return 0;
}
