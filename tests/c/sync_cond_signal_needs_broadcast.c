// Two threads wait for one event, but the event is announced with a single signal:
// one waiter stays blocked forever.
// expect: verdict=defect kind=deadlock
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int go;

void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!go)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, waiter, 0);
    pthread_create(&b, 0, waiter, 0);
    pthread_mutex_lock(&m);
    go = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
