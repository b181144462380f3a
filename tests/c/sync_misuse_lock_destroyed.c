// Locking a mutex after destroying it is misuse (not silently accepted).
// expect: verdict=defect kind=mutex-misuse line=11
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void) {
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    pthread_mutex_destroy(&m);
    pthread_mutex_lock(&m);
    return 0;
}
