// Locking through a wild pointer (natively a crash): mutex misuse.
// expect: verdict=defect kind=mutex-misuse
#include <pthread.h>
#include <stdint.h>
int main(void) {
    pthread_mutex_t *m = (pthread_mutex_t *)(uintptr_t)0x12345678;
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
    return 0;
}
