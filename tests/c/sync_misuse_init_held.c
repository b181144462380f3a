// Re-initialising a mutex while another thread may hold it: pthread_mutex_init is a
// scheduling point, so the schedule where the worker holds m is explored and reported.
// expect: verdict=defect kind=mutex-misuse line=20
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_init(&m, 0);
    pthread_join(t, 0);
    return 0;
}
