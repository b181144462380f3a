// main destroys a mutex the worker is about to lock. The worker's call checked the mutex
// when it began, before the destroy, and the lock was granted after it: the schedule
// destroy-then-lock passed (only the other orders were reported). The check is made
// again once the lock is granted: the first misuse is the lock (line 11), not the unlock.
// expect: verdict=defect kind=mutex-misuse line=11
#include <pthread.h>
pthread_mutex_t m;
int hits;
void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    hits++;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_mutex_init(&m, 0);
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_destroy(&m);
    pthread_join(t, 0);
    return 0;
}
