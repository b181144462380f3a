// main busy-waits on a flag without any visible operation: the execution never ends.
// expect: verdict=defect kind=timeout flags=--exec-timeout=0.3
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
volatile int flag = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    flag = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!flag) {
    }
    pthread_join(t, 0);
    return 0;
}
