// main exits with status 3 when the worker has not run yet.
// expect: verdict=defect kind=exit line=22
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int done = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    done = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    if (!done)
        exit(3);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
