// Message passing through a relaxed flag: the consumer sees the flag set, but a relaxed
// store and a relaxed load create no happens-before (C11 7.17.3), so the plain write
// and read of the data race, even though every schedule here reads 42. A race is
// reported at the access of the thread created later (the producer's write), whichever of
// the two ran first, so that both orders make one defect.
// expect: verdict=defect kind=data-race line=15
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int ready;

static void *producer(void *arg) {
    (void)arg;
    data = 42;
    atomic_store_explicit(&ready, 1, memory_order_relaxed);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    while (!atomic_load_explicit(&ready, memory_order_relaxed))
        ;
    int v = data;
    pthread_join(t, 0);
    return v == 42 ? 0 : 1;
}
