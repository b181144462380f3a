// Polling a plain flag under a mutex (as in sync_poll_plain.c), but the producer
// publishes the flag in one critical section and the data in a later one: the consumer
// can see the flag and read the data before it is written. The poll becomes a wait for
// an unlock of the mutex, and the failing schedule is still found.
// expect: verdict=defect kind=assertion line=35
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready, data;

void *prod(void *a) {
    (void)a;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    data = 42;
    pthread_mutex_unlock(&m);
    return 0;
}

void *cons(void *a) {
    (void)a;
    for (;;) {
        pthread_mutex_lock(&m);
        int r = ready;
        pthread_mutex_unlock(&m);
        if (r) break;
    }
    pthread_mutex_lock(&m);
    int d = data;
    pthread_mutex_unlock(&m);
    // Fails when the consumer's last section ran between the producer's two.
    assert(d == 42);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, prod, 0);
    pthread_create(&b, 0, cons, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
