// main waits until two workers have raised three flags (three 8-byte words: more
// locations than a spin-wait holds inline, so the wait is interned), then reads the data
// the second published before its flag. The spin is one wait on the three flags,
// not an iteration count: the counts are the same under every explorer and dfs.
// expect: verdict=ok maximal=15 flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

_Alignas(8) atomic_int f1;
_Alignas(8) atomic_int f2;
_Alignas(8) atomic_int f3;
int data;

void *w1(void *arg) {
    (void)arg;
    atomic_store(&f1, 1);
    atomic_store(&f2, 1);
    return 0;
}

void *w2(void *arg) {
    (void)arg;
    data = 7;
    atomic_store(&f3, 1);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, w1, 0);
    pthread_create(&t2, 0, w2, 0);
    while (!(atomic_load(&f1) && atomic_load(&f2) && atomic_load(&f3)))
        ;
    assert(data == 7);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
