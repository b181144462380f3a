// Two threads each wait for either of two flags, and the flags are set only after the
// waits (by the waiters themselves): every schedule ends with both threads spinning on
// two locations that no thread will write, a livelock naming both loops and both
// locations.
// expect: verdict=defect kind=livelock line=13|20 flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <stdatomic.h>

atomic_int a, b, c, d;

void *w1(void *arg) {
    (void)arg;
    while (!atomic_load(&a) && !atomic_load(&b)) { }
    atomic_store(&c, 1);
    return 0;
}

void *w2(void *arg) {
    (void)arg;
    while (!atomic_load(&c) && !atomic_load(&d)) { }
    atomic_store(&a, 1);
    return 0;
}

int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, w1, 0);
    pthread_create(&y, 0, w2, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
