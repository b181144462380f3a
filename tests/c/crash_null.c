// The worker clears a shared pointer; main dereferences it afterwards.
// expect: verdict=defect kind=crash line=23
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int value = 42;
int *shared = &value;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    shared = NULL;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    pthread_mutex_lock(&m);
    int v = *shared;
    pthread_mutex_unlock(&m);
    return v == 42 ? 0 : 1;
}
