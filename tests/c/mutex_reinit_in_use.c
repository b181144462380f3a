// A worker initialises the mutex "lazily" although main already uses it: whenever main
// has locked it first, the second pthread_mutex_init re-initialises a mutex in use
// (undefined behaviour in POSIX); when the worker goes first, main's uses come after a
// proper init. Only the schedules where main locks first show the defect.
// expect: verdict=defect kind=mutex-misuse line=13
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_init(&m, 0);
    pthread_mutex_lock(&m);
    count++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    count++;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
