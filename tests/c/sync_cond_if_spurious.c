// `if` instead of `while` around pthread_cond_wait: a spurious wake-up (explored with
// --spurious-wakeups) returns before the flag is set.
// expect: flags=--spurious-wakeups verdict=defect kind=assertion line=16
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    if (!ready)
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
