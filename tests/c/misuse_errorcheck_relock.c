// Relocking an error-checking mutex the thread already holds.
// expect: verdict=defect kind=mutex-misuse line=15
#include <pthread.h>

pthread_mutex_t m;

int main(void) {
    pthread_mutexattr_t attr;
    int kind = -1;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutexattr_gettype(&attr, &kind);
    pthread_mutex_init(&m, &attr);
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    return kind == PTHREAD_MUTEX_ERRORCHECK ? 0 : 1;
}
