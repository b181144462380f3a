// main unlocks a mutex it never locked.
// expect: verdict=defect kind=mutex-misuse line=17
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
