// The worker exits holding the mutex; main spins on trylock forever.
// expect: verdict=defect kind=bound flags=--max-steps=60
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
    while (pthread_mutex_trylock(&m) != 0) {
    }
    return 0;
}
