// main samples an atomic 12 times in a row into a local array while a thread sets it
// once. Each iteration loads the same location in a new local state (the index), as a
// counting poll does; a loop that loads a location at most 17 times is explored
// exactly, so the verdict is `ok`, not `incomplete`: 13 traces (the store before each
// sample, or after all), and the samples never go from 1 back to 0.
// expect: verdict=ok maximal=13
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

void *writer(void *arg) {
    atomic_store(&x, 1);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int v[12];
    for (int i = 0; i < 12; i++)
        v[i] = atomic_load(&x);
    for (int i = 1; i < 12; i++)
        assert(v[i] >= v[i - 1]);
    pthread_join(t, 0);
    return 0;
}
