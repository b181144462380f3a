// Unlocking a read-write lock the thread does not hold is misuse.
// expect: verdict=defect kind=mutex-misuse line=10
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;

int main(void) {
    pthread_rwlock_rdlock(&l);
    pthread_rwlock_unlock(&l);
    pthread_rwlock_unlock(&l);
    return 0;
}
