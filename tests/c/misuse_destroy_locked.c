// main destroys a mutex that the worker may still hold (it never unlocks it).
// expect: verdict=defect kind=mutex-misuse line=17
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    pthread_mutex_destroy(&m);
    return 0;
}
