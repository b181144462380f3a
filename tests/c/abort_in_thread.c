// The worker aborts when it runs before main has published the configuration.
// expect: verdict=defect kind=abort line=15
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int r = ready;
    pthread_mutex_unlock(&m);
    if (!r)
        abort();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
