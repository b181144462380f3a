// main reads a worker's local through a published pointer without waiting for anything
// that keeps the worker alive: the read races with the worker's exit (its stack dies
// with it), whichever runs first.
// expect: verdict=defect kind=data-race line=25
#include <pthread.h>
#include <stdatomic.h>

_Atomic(int *) result;

void *worker(void *arg) {
    (void)arg;
    int local = 42;
    atomic_store(&result, &local);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int *p;
    while (!(p = atomic_load(&result)))
        ;
    // The worker may have exited by now.
    int v;
    v = *p;
    pthread_join(t, 0);
    return v == 42 ? 0 : 1;
}
