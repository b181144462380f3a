// Locking through NULL (natively a crash): mutex misuse.
// expect: verdict=defect kind=mutex-misuse
#include <pthread.h>
#include <stddef.h>
pthread_mutex_t *volatile m = NULL;
int main(void) {
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
    return 0;
}
