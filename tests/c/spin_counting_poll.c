// main polls a flag and counts its polls; the writer publishes data, then the flag.
// Every iteration comes back to the loop in a new local state (the count), so it is
// never found waiting: main's first 17 polls are steps (the write can come before
// each), later ones run without scheduling points until the loop leaves or is cut. No
// defect, but larger counts were not explored: the verdict says `incomplete`, naming the
// loop (before, the first schedule polled until the step bound: a `bound` defect).
// expect: verdict=incomplete maximal=18
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
int data;

void *writer(void *arg) {
    data = 42;
    atomic_store(&flag, 1);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    long polls = 0;
    while (atomic_load(&flag) == 0)
        polls++;
    assert(data == 42);
    pthread_join(t, 0);
    return polls < 0;
}
