// Locking through an address that is not mapped is reported as mutex misuse.
// expect: verdict=defect kind=mutex-misuse line=8
#include <pthread.h>
#include <stdint.h>

int main(void) {
    pthread_mutex_t *m = (pthread_mutex_t *)(uintptr_t)0x10000000dead0000ull;
    pthread_mutex_lock(m);
    return 0;
}
