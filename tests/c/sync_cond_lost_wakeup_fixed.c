// The lost wake-up fixed: the consumer waits while a flag set under the mutex is
// clear, so a signal sent before it waits is not needed.
// expect: verdict=ok maximal=2
// Derivation: the producer's critical section (lock, signal, unlock) comes before the
// consumer's first lock (the consumer sees ready=1 and never waits) or after the
// consumer's wait released m (then the signal wakes it). 2 traces.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&c, &m);
    assert(ready);
    pthread_mutex_unlock(&m);
    return 0;
}

void *producer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, consumer, 0);
    pthread_create(&b, 0, producer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
