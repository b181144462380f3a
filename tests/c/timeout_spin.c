// main busy-waits on a plain flag that the worker sets under a mutex main never takes:
// a data race (nothing orders the write before main's reads). The spin is detected (the
// loop's iterations are identical), main waits instead of spinning, the worker's write
// wakes it, and the race is reported: no time-out.
// expect: verdict=defect kind=data-race line=14|22
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
