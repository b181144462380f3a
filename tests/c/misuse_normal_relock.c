// Relocking a normal mutex the thread already holds: undefined behaviour (it would
// deadlock under glibc), reported as misuse. (An error-checking mutex returns EDEADLK
// instead: sync_errorcheck_codes.c.)
// expect: verdict=defect kind=mutex-misuse line=15
#include <pthread.h>

pthread_mutex_t m;

int main(void) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_NORMAL);
    pthread_mutex_init(&m, &attr);
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    return 0;
}
