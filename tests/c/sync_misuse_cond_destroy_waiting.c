// Destroying a condition variable while a thread may still wait on it is misuse: the
// waiter has not been joined, and main destroys c right after signalling.
// expect: verdict=defect kind=sync-misuse line=26
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_cond_destroy(&c);
    pthread_join(t, 0);
    return 0;
}
