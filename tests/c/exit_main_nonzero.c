// main returns 1 when the worker has already run: non-zero exit status.
// expect: verdict=defect kind=exit
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ran = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ran = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return ran;
}
