// Waiting on a condition variable without holding the mutex is misuse.
// expect: verdict=defect kind=sync-misuse line=12
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *waiter(void *arg) {
    (void)arg;
    while (!ready)
        pthread_cond_wait(&c, &m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
