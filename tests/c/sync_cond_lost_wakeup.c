// Lost wake-up: the consumer waits without checking a condition, so a signal sent
// before it waits is lost and it blocks forever (main then blocks joining it).
// expect: verdict=defect kind=deadlock
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return 0;
}

void *producer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
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
