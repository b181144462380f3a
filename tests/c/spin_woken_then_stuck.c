// main spins until `x` is 2, but the only writer stores 1: a spin that another thread's
// store seems to end, and that goes on forever. Its wait is an assumption (never woken:
// docs/memory.md, "Spin-waits as assumptions"): in the execution where main reads 0, the
// store of 1 makes the assumption fail (the attempt after it is another execution), and
// in the one where main reads the 1, nothing moves the wait's location again: a
// livelock, reported at the loop.
// expect: verdict=defect kind=livelock line=22
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

void *writer(void *arg) {
    (void)arg;
    atomic_store(&x, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    while (atomic_load(&x) != 2)
        ;
    pthread_join(t, 0);
    return 0;
}
